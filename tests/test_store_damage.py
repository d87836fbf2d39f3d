"""A run store that is damaged, read-only or empty, driven through the real command line on real
SQLite files (issue 45): one thread whose checkpoints cannot be decoded is named on stderr while
``runs`` and ``waiting`` list the others; a read-only store (its file, its folder, the mount) is
read by ``runs``, ``waiting``, ``show`` and ``audit`` and refused by a command that writes, saying
it is read-only; an empty (0-byte) file or one that is not a database is an error, not "no runs".
Every error is one line, exit status 2, never a traceback, and nothing damaged is changed."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest

from apps.operations.runs import UnreadableRun, UnreadableRunWarning, list_runs, waiting_runs
from nodes.store import StoreError, open_checkpointer, open_store
from tests.processes import run

ROOT = Path(__file__).resolve().parent.parent
EXE = Path(sys.executable).parent / "agent-patterns"
WAITING, DONE = "waits-0001", "done-0001"  # a supervisor run waiting for a human, a reflection run that ended
GARBAGE = b"\xc1 not msgpack \xff"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    return {**env, "AGENT_PATTERNS_ENV_FILE": "", "COLUMNS": "200"}


def _cli(*args: str, db: Path | str, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return run([*prefix, str(EXE), *args, "--db", str(db)], env=_env(), cwd=ROOT, timeout=120)


def _ok(out: subprocess.CompletedProcess[str], code: int = 0) -> str:
    assert out.returncode == code, (out.returncode, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr, out.stderr
    return out.stdout


def _one_line_error(out: subprocess.CompletedProcess[str]) -> str:
    """The failed command's one line on stderr (exit status 2, no traceback)."""
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("agent-patterns: error: "), out.stderr
    return lines[0]


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """A store with two runs, made by the CLI: WAITING (supervisor, waiting for a human) and DONE
    (reflection, ended ok, started after it)."""
    db = tmp_path_factory.mktemp("made") / "runs.sqlite"
    _ok(_cli("run", "supervisor", "--human", "--thread-id", WAITING, db=db), code=3)
    _ok(_cli("run", "reflection", "--thread-id", DONE, db=db))
    return db


@pytest.fixture
def db(made, tmp_path) -> Path:
    """A copy of the made store, for one test to damage."""
    copy = tmp_path / "store" / "runs.sqlite"
    copy.parent.mkdir()
    shutil.copy(made, copy)
    return copy


def _rows(db: Path) -> list:
    with sqlite3.connect(db) as conn:
        return [
            conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall()
            for table in ("checkpoints", "writes", "store")
        ]


def _damage(db: Path, thread: str, how: str) -> None:
    """Overwrite some of a thread's rows with bytes no reader decodes."""
    latest = "(SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = ?)"
    first = "(SELECT MIN(checkpoint_id) FROM checkpoints WHERE thread_id = ?)"
    statements = {
        "latest checkpoint": f"UPDATE checkpoints SET checkpoint = ? WHERE checkpoint_id = {latest}",
        "input checkpoint": f"UPDATE checkpoints SET checkpoint = ? WHERE checkpoint_id = {first}",
        "every checkpoint": "UPDATE checkpoints SET checkpoint = ? WHERE thread_id = ?",
        "metadata": "UPDATE checkpoints SET metadata = ? WHERE thread_id = ?",
        "writes": "UPDATE writes SET type = 'msgpack', value = ? WHERE thread_id = ?",
    }
    with sqlite3.connect(db) as conn:
        changed = conn.execute(statements[how], (GARBAGE, thread)).rowcount
    assert changed > 0, how


#: How a thread is damaged ("every checkpoint": test_a_store_whose_every_run_is_damaged_is_an_error).
HOW = ["latest checkpoint", "input checkpoint", "metadata", "writes"]


# --- one damaged thread does not hide the others ----------------------------------------------------


@pytest.mark.parametrize("how", HOW)
def test_a_damaged_thread_is_named_and_the_others_are_listed(db, how):
    _damage(db, DONE, how)
    before = _rows(db)
    warning = f"agent-patterns: warning: thread '{DONE}' skipped: holds a checkpoint that cannot be decoded ("

    out = _cli("runs", db=db)
    table = _ok(out)
    assert WAITING in table and DONE not in table and "(runs 1-1," in table
    assert out.stderr.strip().startswith(warning) and len(out.stderr.strip().splitlines()) == 1, out.stderr

    out = _cli("waiting", db=db)
    assert (
        _ok(out).startswith(f"{WAITING}  supervisor") and "waits on high_refund_requires_human" in out.stdout
    )
    assert out.stderr.startswith(warning)

    own = [["show", DONE], ["audit", DONE]] if how == "latest checkpoint" else [["audit", DONE[:6]]]
    for command in own:  # the damaged thread's own commands: one line
        line = _one_line_error(_cli(*command, db=db))
        assert f"run store {db}: thread '{DONE}' holds a checkpoint" in line and "cannot be decoded" in line
    if how == "latest checkpoint":
        out = _cli("runs", "--json", db=db)
        assert [run["thread_id"] for run in json.loads(_ok(out))] == [WAITING]  # stdout: the JSON alone
        assert out.stderr.startswith(warning)
        assert json.loads(_ok(_cli("show", WAITING, "--json", db=db)))["run_status"] == "waiting"
        assert f"thread {WAITING}: 1 run(s)" in _ok(_cli("audit", WAITING, db=db))
    assert _rows(db) == before  # reading changed nothing


def test_a_damaged_waiting_run_is_named_by_waiting(db):
    _damage(db, WAITING, "latest checkpoint")
    out = _cli("waiting", db=db)
    assert _ok(out).startswith("no run is waiting for a human")
    assert out.stderr.startswith(f"agent-patterns: warning: thread '{WAITING}' skipped: holds a checkpoint")


def test_a_store_whose_every_run_is_damaged_is_an_error(db):
    for thread in (WAITING, DONE):
        _damage(db, thread, "every checkpoint")
    for command in (["runs"], ["waiting"], ["runs", "--status", "ok"]):
        line = _one_line_error(_cli(*command, db=db))
        assert f"run store {db}: thread " in line and "cannot be decoded" in line, (command, line)


def test_an_audit_log_entry_that_cannot_be_decoded_is_one_line(db):
    with sqlite3.connect(db) as conn:
        assert conn.execute(
            "UPDATE store SET value = '{not json' WHERE prefix LIKE ?", (f"%{WAITING}",)
        ).rowcount
    line = _one_line_error(_cli("audit", WAITING, db=db))
    assert f"thread '{WAITING}' holds a checkpoint or an audit log entry that cannot be decoded" in line
    table = _ok(_cli("runs", db=db))  # the runs themselves still read
    assert WAITING in table and DONE in table


@pytest.mark.parametrize("how", ["input checkpoint", "latest checkpoint"])
def test_list_runs_warns_of_a_damaged_thread_and_raises_when_none_is_readable(db, how):
    _damage(db, DONE, how)
    with open_checkpointer(db) as saver:
        with pytest.warns(UnreadableRunWarning) as caught:
            assert [run.thread_id for run in list_runs(saver)] == [WAITING]
        [warning] = [w.message for w in caught if isinstance(w.message, UnreadableRunWarning)]
        assert warning.thread_id == DONE and warning.reason.startswith("holds a checkpoint that cannot be")
        with pytest.warns(UnreadableRunWarning):
            assert [run.thread_id for run in waiting_runs(saver)] == [WAITING]
        if how == "latest checkpoint":  # its pattern is known: another pattern's listing does not warn
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                assert [run.thread_id for run in list_runs(saver, pattern="supervisor")] == [WAITING]
    _damage(db, WAITING, "every checkpoint")
    with open_checkpointer(db) as saver, pytest.raises(UnreadableRun, match="cannot be decoded"):
        list_runs(saver)


def test_the_index_of_runs_skips_a_damaged_thread_on_postgres(pg_url, capsys):
    """The same on PostgreSQL: a thread whose input checkpoint cannot be decoded is read around."""
    import psycopg

    from apps.cli.main import main

    assert main(["run", "supervisor", "--human", "--json", "--thread-id", WAITING, "--db", pg_url]) == 3
    assert main(["run", "reflection", "--json", "--thread-id", DONE, "--db", pg_url]) == 0
    capsys.readouterr()

    with psycopg.connect(pg_url, autocommit=True) as conn:
        damaged = "UPDATE checkpoint_blobs SET type = 'msgpack', blob = %s WHERE thread_id = %s"
        assert conn.execute(damaged, (GARBAGE, DONE)).rowcount
    with open_checkpointer(pg_url) as saver, pytest.warns(UnreadableRunWarning, match=DONE):
        assert [run.thread_id for run in list_runs(saver)] == [WAITING]


# --- a read-only store -------------------------------------------------------------------------------


@cache
def _can_mount_read_only() -> bool:
    probe = Path(os.environ.get("TMPDIR", "/tmp"))
    try:
        done = subprocess.run(
            ["unshare", "--mount", "sh", "-c", 'mount --bind -o ro "$1" "$1"', "sh", str(probe)],
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@contextmanager
def read_only(folder: Path) -> Iterator[tuple[str, ...]]:
    """``folder`` and its files read-only for the commands run with the prefix this yields: a
    read-only bind mount in a mount namespace of their own (as root, whom file modes do not stop),
    else the files' and the folder's write bits taken away."""
    if os.geteuid() == 0:
        if not _can_mount_read_only():
            pytest.skip(
                "running as root, where file modes do not stop writes, and no read-only mount can be made"
            )
        yield (
            "unshare",
            "--mount",
            "sh",
            "-c",
            'mount --bind -o ro "$1" "$1" && shift && exec "$@"',
            "sh",
            str(folder),
        )
        return
    modes = {path: path.stat().st_mode for path in [folder, *folder.iterdir()]}
    for path in modes:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        yield ()
    finally:
        for path, mode in modes.items():
            path.chmod(mode)


def _reads_work(db: Path, prefix: tuple[str, ...], threads: list[str]) -> None:
    table = _ok(_cli("runs", db=db, prefix=prefix))
    assert [line.split()[0] for line in table.splitlines()[1:-1]] == threads
    assert _ok(_cli("waiting", db=db, prefix=prefix)).startswith(WAITING)
    assert json.loads(_ok(_cli("show", DONE, "--json", db=db, prefix=prefix)))["status"] == "ok"
    assert f"thread {WAITING}: 1 run(s)" in _ok(_cli("audit", WAITING[:6], db=db, prefix=prefix))


def _writes_are_refused(db: Path, prefix: tuple[str, ...]) -> None:
    for command in (["approve", WAITING], ["run", "rag"]):
        line = _one_line_error(_cli(*command, db=db, prefix=prefix))
        assert f"run store {db} cannot be written (" in line and "the run store is read-only (" in line, line


def test_a_read_only_store_is_read_and_a_write_is_refused_saying_so(db):
    assert sorted(p.name for p in db.parent.iterdir()) == ["runs.sqlite"]  # no -wal, no -shm
    before = db.read_bytes()
    with read_only(db.parent) as prefix:
        _reads_work(db, prefix, [DONE, WAITING])
        _writes_are_refused(db, prefix)
    assert db.read_bytes() == before and sorted(p.name for p in db.parent.iterdir()) == ["runs.sqlite"]


def _store_with_a_run_in_its_log(made: Path, folder: Path) -> tuple[Path, str]:
    """A copy of the made store whose newest run is only in its write-ahead log (``-wal``), with its
    ``-shm``: what a read-only mount of a store in use shows. Returns the copy and that run's id."""
    work = folder.parent / "work.sqlite"
    shutil.copy(made, work)
    with sqlite3.connect(work) as conn:  # DONE out of the database file...
        for table in ("checkpoints", "writes"):
            conn.execute(f"DELETE FROM {table} WHERE thread_id = ?", (DONE,))
    conn = sqlite3.connect(work, isolation_level=None)
    try:
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        conn.execute("ATTACH DATABASE ? AS made", (str(made),))
        conn.execute("BEGIN")
        for table in ("checkpoints", "writes"):  # ... and back, in the log only
            conn.execute(f"INSERT INTO main.{table} SELECT * FROM made.{table} WHERE thread_id = ?", (DONE,))
        conn.execute("COMMIT")
        db = folder / "runs.sqlite"
        for suffix in ("", "-wal", "-shm"):
            shutil.copy(f"{work}{suffix}", f"{db}{suffix}")
    finally:
        conn.close()
    assert (folder / "runs.sqlite-wal").stat().st_size > 0
    return db, DONE


def test_a_read_only_store_with_a_write_ahead_log_is_read_whole(made, tmp_path):
    folder = tmp_path / "mounted"
    folder.mkdir()
    db, in_log = _store_with_a_run_in_its_log(made, folder)
    with read_only(folder) as prefix:
        _reads_work(db, prefix, [in_log, WAITING])  # the run in the log is read, not missed
        _writes_are_refused(db, prefix)
    (folder / "runs.sqlite-shm").unlink()  # a log SQLite cannot read without writing: said so
    with read_only(folder) as prefix:
        line = _one_line_error(_cli("runs", db=db, prefix=prefix))
    assert f"run store {db} is read-only (" in line and "write-ahead log runs.sqlite-wal" in line


def test_a_new_store_in_a_read_only_folder_is_a_clear_error(tmp_path):
    folder = tmp_path / "mounted"
    folder.mkdir()
    (folder / "keep").write_text("")
    db = folder / "runs.sqlite"
    with read_only(folder) as prefix:
        for command in (["runs"], ["run", "rag"]):
            line = _one_line_error(_cli(*command, db=db, prefix=prefix))
            assert f"cannot create run store {db} (" in line and "its folder is read-only (" in line, line
    assert not db.exists()


def test_the_read_only_fallback_in_process(db, monkeypatch):
    """Without a mount: a store whose writes fail as a read-only one's do is opened for reading by
    open_checkpointer and open_store, and refused with writable=True."""
    import nodes.store as store

    connect = sqlite3.connect

    def read_only_file(target, *args, **kwargs):
        if kwargs.get("uri"):
            return connect(target, *args, **kwargs)
        return connect(f"{Path(target).resolve().as_uri()}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr(store.sqlite3, "connect", read_only_file)
    with open_checkpointer(db) as saver, open_store(db) as kept:
        assert [run.thread_id for run in list_runs(saver)] == [DONE, WAITING]
        assert kept.search(("agent_patterns", "audit", WAITING))
    with (
        pytest.raises(
            StoreError,
            match=r"cannot be written \(attempt to write a readonly database\): the run store is read-only",
        ),
        open_checkpointer(db, writable=True),
    ):
        pass


# --- an empty store, or a file that is not one -------------------------------------------------------


@pytest.mark.parametrize(
    "command", [["runs"], ["waiting"], ["show", DONE], ["audit", DONE], ["approve", DONE]]
)
def test_an_empty_store_file_is_an_error_not_an_empty_list(tmp_path, command):
    db = tmp_path / "runs.sqlite"
    db.touch()
    line = _one_line_error(_cli(*command, db=db))
    assert f"run store {db} is empty (0 bytes): not a run store, or truncated" in line
    assert db.stat().st_size == 0  # left as it was: not set up as a new store


def test_a_file_that_is_not_a_database_is_an_error_for_every_read(tmp_path):
    db = tmp_path / "runs.sqlite"
    db.write_bytes(b"PK\x03\x04 a zip, say " * 40)
    before = db.read_bytes()
    for command in (["runs"], ["waiting"], ["show", DONE], ["audit", DONE]):
        line = _one_line_error(_cli(*command, db=db))
        assert f"run store {db} is not an SQLite database (" in line and "not a run store, or damaged" in line
    assert db.read_bytes() == before


def test_a_new_store_is_made_on_first_use(tmp_path):
    db = tmp_path / "runs.sqlite"
    assert _ok(_cli("runs", db=db)).startswith("no runs (run store:")  # made, set up, empty of runs
    assert _ok(_cli("runs", db=db)).startswith("no runs (run store:")  # and still a store, not "empty"
    fresh = tmp_path / "fresh.sqlite"
    _ok(_cli("run", "rag", "--thread-id", "rag-0001", db=fresh))
    assert "rag-0001" in _ok(_cli("runs", db=fresh))
    emptied = tmp_path / "emptied.sqlite"
    emptied.touch()  # a run starts a fresh store in an empty file
    _ok(_cli("run", "rag", "--thread-id", "rag-0002", db=emptied))
    assert "rag-0002" in _ok(_cli("runs", db=emptied))
