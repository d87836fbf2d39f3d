"""A local Redis server for the agent server (``make serve``), its tests and benchmarks.

``RedisServer`` finds Debian's ``redis-server`` (installing the package with apt-get when it is
missing and we are root, as ``devtools/pgcluster.py`` does for PostgreSQL), starts it on a free
loopback port with its data in a folder, and stops it again. The agent server's runtime keeps
only transient things in Redis (run heartbeats, the queue's wake-up signal, streamed output): the
queue and every run's state live in PostgreSQL.

    with RedisServer() as redis:
        redis.url   # redis://127.0.0.1:PORT/0

When Redis cannot be installed or started, ``RedisUnavailable`` says why in one message.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from devtools.pgcluster import Server, apt_install, free_port


class RedisUnavailable(RuntimeError):
    """Redis could not be installed or started here."""


def ensure_installed() -> Path:
    """The ``redis-server`` program, installed from Debian's packages when missing (as root)."""
    found = shutil.which("redis-server")
    if found:
        return Path(found)
    missing = (
        "redis-server not found; install it (Debian: `apt-get install -y redis-server`) or put it on PATH"
    )
    apt_install("redis-server", RedisUnavailable, missing)
    found = shutil.which("redis-server")
    if not found:
        raise RedisUnavailable("apt-get installed redis-server but it is still not on PATH")
    return Path(found)


class RedisServer(Server):
    """One Redis server on 127.0.0.1. ``datadir``: where it keeps its files (default: a temporary
    folder, removed on stop); ``port``: 0 for a free one."""

    def __init__(self, *, datadir: str | Path | None = None, port: int = 0) -> None:
        self.port = port
        self._given_dir = Path(datadir) if datadir is not None else None
        self.datadir: Path | None = None
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        """The server's process id (0 when it is not running)."""
        return self._proc.pid if self._proc is not None else 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        exe = ensure_installed()
        if self._given_dir is not None:
            self._given_dir.mkdir(parents=True, exist_ok=True)
            self.datadir = self._given_dir
        else:
            self.datadir = Path(tempfile.mkdtemp(prefix="redis-"))
        self.port = self.port or free_port()
        log = self.datadir / "redis.log"
        cmd = [
            str(exe),
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.datadir),
            "--logfile", str(log),
            "--save", "",
            "--appendonly", "no",
            "--protected-mode", "yes",
            "--maxclients", "10000",
        ]  # fmt: skip
        self._proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                detail = log.read_text()[-800:] if log.exists() else f"exit status {self._proc.returncode}"
                self.stop()
                raise RedisUnavailable(f"redis-server did not start: {detail}")
            if _answers_ping(self.port):
                return self
            time.sleep(0.05)
        self.stop()
        raise RedisUnavailable(f"redis-server did not answer PING on port {self.port} within 20 s")

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout=10)
            self._proc = None
        if self.datadir is not None and self._given_dir is None:
            shutil.rmtree(self.datadir, ignore_errors=True)
        self.datadir = None


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False
