"""A throwaway PostgreSQL server for tests and benchmarks: a fresh cluster on 127.0.0.1.

``PgCluster`` finds PostgreSQL's server programs (installing Debian's ``postgresql`` package with
apt-get when they are missing and we are root), runs ``initdb`` with trust authentication in a
temporary folder, starts the server with ``pg_ctl`` on a free loopback port and stops it again.
As root, the server runs as the ``postgres`` user (PostgreSQL refuses to run as root).

    with PgCluster() as pg:
        url = pg.create_database("runs")   # postgresql://postgres@127.0.0.1:PORT/runs

When PostgreSQL cannot be installed or started, ``PgUnavailable`` says why in one message.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import socket
import subprocess
import tempfile
from abc import ABC, abstractmethod
from pathlib import Path
from types import TracebackType
from typing import Self


class Server(ABC):
    """A local server a test or a script starts and stops: ``with`` starts it (``start()``, which
    returns it) and stops it (``stop()``) however the block ends."""

    @abstractmethod
    def start(self) -> Self:
        """Start the server; return it."""

    @abstractmethod
    def stop(self) -> None:
        """Stop the server (idempotent)."""

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class PgUnavailable(RuntimeError):
    """PostgreSQL could not be installed or started here."""


class PgInUse(PgUnavailable):
    """The kept cluster folder is in use by a server another process started."""


def log_since(log: Path, offset: int, chars: int = 1500) -> str:
    """What ``log`` gained after ``offset`` (its size before this start), the last ``chars`` of it:
    a kept cluster's log grows across starts, and only this start's lines say why it failed."""
    if not log.exists():
        return ""
    with log.open("rb") as handle:
        handle.seek(offset)
        return handle.read().decode(errors="replace")[-chars:].strip()


def _bin_dir_candidates() -> list[Path]:
    found = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        if out.returncode == 0:
            found.append(Path(out.stdout.strip()))
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))
    found += [Path(p) for p in reversed(versions)]
    initdb = shutil.which("initdb")
    if initdb:
        found.append(Path(initdb).resolve().parent)
    return found


def find_bin_dir() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``, or None."""
    for path in _bin_dir_candidates():
        if all((path / exe).exists() for exe in ("initdb", "pg_ctl", "postgres")):
            return path
    return None


def apt_install(package: str, unavailable: type[Exception], missing: str) -> None:
    """Install Debian's ``package`` (as root, with apt-get); else raise ``unavailable``: with
    ``missing`` where apt-get cannot be used here, with what it said where it failed."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise unavailable(missing)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", package]):
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        if out.returncode != 0:
            raise unavailable(f"`{' '.join(cmd)}` failed: {(out.stderr or out.stdout)[-800:]}")


def ensure_installed() -> Path:
    """PostgreSQL's server programs, installed from Debian's packages when missing (as root)."""
    found = find_bin_dir()
    if found:
        return found
    missing = (
        "PostgreSQL server programs (initdb, pg_ctl) not found; install them "
        "(Debian: `apt-get install -y postgresql`) or put them on PATH"
    )
    apt_install("postgresql", PgUnavailable, missing)
    found = find_bin_dir()
    if not found:
        raise PgUnavailable("apt-get installed postgresql but initdb/pg_ctl are still not found")
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PgCluster(Server):
    """One PostgreSQL cluster. ``durable=False`` turns fsync off (tests only). ``datadir``: a
    folder that keeps the cluster between runs (created and initialised on first use, left in
    place on stop); by default a temporary folder, removed on stop."""

    def __init__(
        self, *, durable: bool = True, max_connections: int = 200, datadir: str | Path | None = None
    ) -> None:
        self.durable = durable
        self.max_connections = max_connections
        self.port = 0
        self.datadir: Path | None = None
        self._kept = Path(datadir).resolve() if datadir is not None else None
        self._bin: Path | None = None

    @property
    def url(self) -> str:
        return self.database_url("postgres")

    def database_url(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        assert self._bin is not None
        cmd = [str(self._bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)

    def running_pid(self) -> int:
        """The pid of a server already running on this cluster's folder (``pg_ctl status``), 0 if
        none: a kept folder may be in use by another process (a second ``make serve``)."""
        if self.datadir is None or not (self.datadir / "postmaster.pid").exists():
            return 0
        out = self._run("pg_ctl", "-D", str(self.datadir), "status")
        if out.returncode != 0:
            return 0  # a stale pid file: pg_ctl start deals with it
        found = re.search(r"PID: (\d+)", out.stdout)
        return int(found.group(1)) if found else -1

    def start(self) -> PgCluster:
        """Start the cluster. A server already running on a kept folder is left alone (never
        stopped: it is not ours) and the start refused; whatever this start began is stopped again
        when it fails or is interrupted (Ctrl-C), at any stage."""
        try:
            return self._start()
        except PgInUse:
            self.datadir = None  # not ours: stop() must not touch it
            raise
        except BaseException:
            self.stop()
            raise

    def _start(self) -> PgCluster:
        self._bin = ensure_installed()
        if self._kept is not None:
            self._kept.mkdir(parents=True, exist_ok=True)
            self.datadir = self._kept
        else:
            self.datadir = Path(tempfile.mkdtemp(prefix="pgcluster-"))
        if os.geteuid() == 0:
            shutil.chown(self.datadir, "postgres", "postgres")
            self.datadir.chmod(0o700)
        running = self.running_pid()
        if running:
            raise PgInUse(
                f"a PostgreSQL server (pid {running}) already runs on {self.datadir}, started by another "
                "process (a second `make serve` of this checkout?); it is left as it is"
            )
        if not (self.datadir / "PG_VERSION").exists():
            out = self._run("initdb", "-D", str(self.datadir), "-U", "postgres", "--auth=trust", "-E", "UTF8")
            if out.returncode != 0:
                raise PgUnavailable(f"initdb failed: {(out.stderr or out.stdout)[-800:]}")
        self.port = free_port()
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.datadir} "
            f"-c max_connections={self.max_connections}"
        )
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        log = self.datadir / "server.log"
        offset = log.stat().st_size if log.exists() else 0
        out = self._run("pg_ctl", "-D", str(self.datadir), "-o", options, "-l", str(log), "-w", "start")
        if out.returncode != 0:
            detail = log_since(log, offset) or (out.stderr or out.stdout).strip()
            raise PgUnavailable(f"pg_ctl start failed: {detail}")
        return self

    @property
    def pid(self) -> int:
        """The postmaster's process id (0 when the cluster is not running)."""
        pidfile = self.datadir / "postmaster.pid" if self.datadir is not None else None
        if pidfile is None or not pidfile.exists():
            return 0
        return int(pidfile.read_text().split()[0])

    def _psql(self, sql: str) -> subprocess.CompletedProcess[str]:
        return self._run(
            "psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-tAc", sql
        )  # fmt: skip

    def create_database(self, name: str, *, exist_ok: bool = False) -> str:
        """Create database ``name`` (a plain identifier) and return its URL; with ``exist_ok``, a
        database of that name already there is used as it is."""
        if not name.replace("_", "").isalnum():
            raise ValueError(f"not a plain database name: {name!r}")
        if exist_ok and self._psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}'").stdout.strip():
            return self.database_url(name)
        out = self._psql(f"CREATE DATABASE {name}")
        if out.returncode != 0:
            raise PgUnavailable(f"CREATE DATABASE {name} failed: {out.stderr.strip()}")
        return self.database_url(name)

    def stop(self) -> None:
        if self.datadir is None:
            return
        if (self.datadir / "postmaster.pid").exists():
            mode = "immediate" if self._kept is None else "fast"
            self._run("pg_ctl", "-D", str(self.datadir), "-m", mode, "-w", "stop")
        if self._kept is None:
            shutil.rmtree(self.datadir, ignore_errors=True)
        self.datadir = None
