"""The project's command line and Python code run in a child process on this checkout, as a user
or a server runs them (the tests read what they print and their exit status)."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The installed console script.
EXE = Path(sys.executable).parent / "agent-patterns"


class _ForkServer:
    """This test process's warm interpreter (tests/forkserver.py), started on first use; None when
    it is off (``AGENT_PATTERNS_TEST_FORK=0``) or could not start, and every command then runs as a
    plain subprocess."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.path: str | None = None
        self.tried = False

    def socket_path(self) -> str | None:
        with self.lock:
            if not self.tried:
                self.tried = True
                if os.environ.get("AGENT_PATTERNS_TEST_FORK", "1") != "0":
                    self.path = self._start()
            return self.path

    def _start(self) -> str | None:
        folder = tempfile.mkdtemp(prefix="ap-fork-")
        path = os.path.join(folder, "s")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AGENT_PATTERNS_"))}
        server = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "forkserver.py"), path],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
        )
        atexit.register(server.kill)
        atexit.register(shutil.rmtree, folder, True)
        assert server.stdout is not None
        return path if server.stdout.readline().strip() == "ready" else None


_SERVER = _ForkServer()


def _forkable(argv: list[str], env: dict[str, str], cwd: Path) -> bool:
    """The project's command line, or a Python module or script, that would import this checkout's
    governance core (the server has it imported): not one run from another copy of the project."""
    if argv[0] != str(EXE) and not (
        argv[0] == sys.executable
        and len(argv) > 1
        and ((argv[1] in ("-m", "-c") and len(argv) > 2) or not argv[1].startswith("-"))
    ):
        return False
    first = [cwd, *(Path(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p)]
    return all(place.resolve() == ROOT or not (place / "policies").exists() for place in first)


def _text(data: bytes) -> str:
    return data.decode().replace("\r\n", "\n").replace("\r", "\n")


class Started:
    """A command started from the warm interpreter, as ``subprocess.Popen(argv, stdout=PIPE,
    stderr=PIPE, text=True)`` is used by the tests: ``pid``, ``poll``, ``wait``, ``communicate``,
    ``kill`` and ``returncode`` (a negative one is the signal that ended it)."""

    def __init__(self, argv: list[str], path: str, env: dict[str, str], cwd: Path, input: str | None) -> None:
        self.args = argv
        self.returncode: int | None = None
        self._folder = tempfile.TemporaryDirectory(prefix="ap-cmd-")
        self._files = {name: os.path.join(self._folder.name, name) for name in ("stdin", "stdout", "stderr")}
        Path(self._files["stdin"]).write_text(input or "")
        for name in ("stdout", "stderr"):
            Path(self._files[name]).touch()
        request = {"argv": argv, "env": env, "cwd": str(cwd.resolve()), **self._files}
        self._conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._conn.connect(path)
        self._conn.sendall(json.dumps(request).encode() + b"\n")
        self._said = b""
        self._lines(1, None)
        self.pid: int = json.loads(self._said.splitlines()[0])["pid"]

    def _lines(self, count: int, timeout: float | None) -> None:
        self._conn.settimeout(timeout)
        while self._said.count(b"\n") < count:
            more = self._conn.recv(4096)
            if not more:
                raise RuntimeError(f"the fork server gave no status for {self.args}")
            self._said += more

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                self._lines(2, 0.0)
            except (TimeoutError, BlockingIOError):
                return None
            self.returncode = json.loads(self._said.splitlines()[1])["status"]
            self._conn.close()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            try:
                self._lines(2, timeout)
            except TimeoutError:
                raise subprocess.TimeoutExpired(self.args, timeout or 0) from None
            self.returncode = json.loads(self._said.splitlines()[1])["status"]
            self._conn.close()
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            with contextlib.suppress(OSError):
                self._conn.sendall(b"kill\n")

    def output(self) -> tuple[str, str]:
        """What it wrote on stdout and stderr so far."""
        return tuple(_text(Path(self._files[name]).read_bytes()) for name in ("stdout", "stderr"))  # type: ignore[return-value]

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        try:
            self.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            self.wait(30)
            raise
        out = self.output()
        self._folder.cleanup()
        return out


def _prepared(
    argv: list[str], env: dict[str, str] | None, cwd: str | Path
) -> tuple[list[str], dict[str, str], str | None]:
    """The command's arguments as texts, its whole environment, and the fork server's socket where
    the command is forked (None: a plain subprocess)."""
    argv = [str(a) for a in argv]
    env = dict(os.environ if env is None else env)
    return argv, env, _SERVER.socket_path() if _forkable(argv, env, Path(cwd)) else None


def start(
    argv: list[str], *, env: dict[str, str] | None = None, cwd: str | Path = ROOT, input: str | None = None
) -> Started | subprocess.Popen[str]:
    """``subprocess.Popen(argv, stdout=PIPE, stderr=PIPE, text=True, ...)``: forked from the warm
    interpreter when ``argv`` is the project's command line or a Python script or module, a plain
    subprocess otherwise (``communicate``, ``wait``, ``poll``, ``kill``, ``pid`` and ``returncode``
    work on both)."""
    argv, env, path = _prepared(argv, env, cwd)
    if path is None:
        return subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL if input is None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    return Started(argv, path, env, Path(cwd), input)


def run(
    argv: list[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | Path = ROOT,
    timeout: float | None = 180,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(argv, capture_output=True, text=True, ...)``, forked as ``start`` forks: on
    a timeout the command is killed and ``subprocess.TimeoutExpired`` raised, as ``subprocess.run``
    does."""
    argv, env, path = _prepared(argv, env, cwd)
    if path is not None:
        proc = Started(argv, path, env, Path(cwd), input)
        out, err = proc.communicate(timeout)
        return subprocess.CompletedProcess(argv, proc.wait(), out, err)
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, input=input
    )


def run_cli(
    *args: str, drop: tuple[str, ...] = ("OPENAI_",), timeout: float = 180, **env: str
) -> subprocess.CompletedProcess[str]:
    """``python -m governed_agent_patterns *args``: the environment without the variables whose
    names start with one of ``drop`` (a developer's key must not reach a test), plus ``env``."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    full.update(PYTHONPATH=str(ROOT), **env)
    return run([sys.executable, "-m", "governed_agent_patterns", *args], env=full, timeout=timeout)


def run_bare_python(*args: str, timeout: float) -> str:
    """``python *args`` in a bare environment (only ``PATH`` and the checkout on ``PYTHONPATH``):
    what it printed, once it exited with status 0."""
    done = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout
