"""``make serve``'s start and stop with real PostgreSQL and Redis processes (issue 24): Ctrl-C at
any stage of the start stops what was started, a second instance on the same state folder leaves
the first one's PostgreSQL alone, and a failed start shows that start's log lines only."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from devtools import serve
from devtools.pgcluster import PgCluster, PgInUse, PgUnavailable, ensure_installed

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def state() -> Iterator[Path]:
    """A state folder PostgreSQL's own user can reach (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="serve-state-"))
    folder.chmod(0o755)
    yield folder
    if (folder / "postgres" / "postmaster.pid").exists():  # a test that failed midway
        _pg_stop(folder / "postgres")
    shutil.rmtree(folder, ignore_errors=True)


def _pg_stop(datadir: Path) -> None:
    cluster = PgCluster(datadir=datadir)
    cluster.datadir, cluster._bin = datadir, ensure_installed()
    cluster._run("pg_ctl", "-D", str(datadir), "-m", "immediate", "-w", "stop")


def _alive(pid: int, wait: float = 5.0) -> bool:
    """Is ``pid`` running (a zombie is not), still so after up to ``wait`` s for it to go?"""
    deadline = time.monotonic() + wait
    while True:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except (FileNotFoundError, ProcessLookupError):
            return False
        if "\nState:\tZ" in status or time.monotonic() > deadline:
            return "\nState:\tZ" not in status
        time.sleep(0.1)


def _answers(cluster: PgCluster) -> bool:
    return cluster._psql("SELECT 1").stdout.strip() == "1"


# --- bug 6: a second instance never touches a cluster it did not start -----------------------------


@pytest.mark.integration
def test_a_second_cluster_on_the_same_folder_refuses_and_leaves_the_first_running(state):
    first = PgCluster(datadir=state / "postgres").start()
    try:
        pid = first.pid
        second = PgCluster(datadir=state / "postgres")
        with pytest.raises(PgInUse, match=rf"a PostgreSQL server \(pid {pid}\) already runs on"):
            second.start()
        second.stop()  # what a caller's cleanup does: it must not stop the first one's server either
        assert _alive(pid, wait=0) and _answers(first)
    finally:
        first.stop()
    assert not _alive(pid)


@pytest.mark.integration
def test_a_second_make_serve_refuses_with_a_clear_message(state, capsys):
    first = PgCluster(datadir=state / "postgres").start()
    try:
        env = {"SERVE_STATE_DIR": str(state), "SERVE_PORT": "8124"}
        assert serve.main([], env=env) == 2
        err = capsys.readouterr().err
        assert "already runs on" in err and "a second `make serve` of this checkout?" in err
        assert "give this one its own SERVE_STATE_DIR" in err
        assert _answers(first)
        assert not (state / "redis").exists()  # refused before anything else started
    finally:
        first.stop()


# --- bug 5: Ctrl-C while starting stops what was started ---------------------------------------------


@pytest.mark.integration
def test_ctrl_c_while_the_server_starts_stops_postgres_and_redis(state, tmp_path):
    """The real program, a real SIGINT: the server's Python stands in as a program that hangs in
    the schema migration, the stage after PostgreSQL and Redis are up."""
    hang = tmp_path / "python"
    hang.write_text("#!/bin/sh\nexec sleep 120\n")
    hang.chmod(0o755)
    env = {**os.environ, "SERVE_STATE_DIR": str(state), "SERVER_PYTHON": str(hang), "PYTHONPATH": str(ROOT)}
    env.pop("DATABASE_URI", None)
    env.pop("REDIS_URI", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "devtools.serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        seen = [proc.stdout.readline() for _ in range(2)]
        assert seen[0].startswith("PostgreSQL: ") and seen[1].startswith("Redis: "), seen
        postmaster = int((state / "postgres" / "postmaster.pid").read_text().split()[0])
        time.sleep(0.5)  # in the migration now
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the terminal's whole process group
        _, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "interrupted while starting; stopping what was started" in err
    assert "Traceback" not in err
    assert not _alive(postmaster) and not (state / "postgres" / "postmaster.pid").exists()
    # and the next start works (it failed with "pg_ctl start failed: hut down" before)
    again = PgCluster(datadir=state / "postgres").start()
    again.stop()


@pytest.mark.integration
def test_an_interrupted_cluster_start_stops_the_server_it_began(state, monkeypatch):
    cluster = PgCluster(datadir=state / "postgres")
    real_run = cluster._run

    def interrupted_after_start(*args: str):
        out = real_run(*args)
        if args[0] == "pg_ctl" and args[-1] == "start":
            raise KeyboardInterrupt  # Ctrl-C just as pg_ctl returned
        return out

    monkeypatch.setattr(cluster, "_run", interrupted_after_start)
    with pytest.raises(KeyboardInterrupt):
        cluster.start()
    assert not (state / "postgres" / "postmaster.pid").exists()


# --- a failed start shows this start's log lines -----------------------------------------------------


@pytest.mark.integration
def test_a_failed_start_shows_only_this_starts_log_lines(state):
    cluster = PgCluster(datadir=state / "postgres").start()
    cluster.stop()
    log = state / "postgres" / "server.log"
    log.write_text(log.read_text() + "an earlier start: database system is shut down\n")
    broken = PgCluster(datadir=state / "postgres", max_connections=-1)
    with pytest.raises(PgUnavailable) as failed:
        broken.start()
    message = str(failed.value)
    assert message.startswith("pg_ctl start failed: ") and "max_connections" in message
    assert "an earlier start" not in message and "shut down" not in message
    assert not (state / "postgres" / "postmaster.pid").exists()
