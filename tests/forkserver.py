"""A warm interpreter that forks the project's command line for the tests (a test-time speed-up).

Every ``agent-patterns`` command a test runs is a real process: its own pid, environment, working
folder, stdin, stdout, stderr and exit status, on the real files. What a fresh ``python`` spends
on importing the libraries (LangGraph, LangChain Core, LangSmith, pydantic: about 1 s of the 1.0 to
2.5 s each command takes) is spent once here instead: this server imports the libraries, never the
project, and forks one child per command. The child takes the command's environment, folder and
``sys.path`` before it imports the project, so what the project reads at import (its environment
variables, its own modules from the checkout) is the command's; it ends as a process ends (atexit,
threads joined, streams flushed) and its status is reported as ``subprocess.run`` reports it
(a negative status is the signal that killed it).

``tests.processes.run`` sends a command here when it is one of ``python -m MODULE ...``,
``python -c CODE ...``, ``python SCRIPT ...`` or the ``agent-patterns`` script, and runs any other as a plain subprocess.
``AGENT_PATTERNS_TEST_FORK=0`` turns the server off (every command a fresh interpreter, as CI ran
before). The packaging and README tests start the installed script the plain way.

The protocol, one Unix socket connection per command: the test sends one JSON line (argv, env,
cwd and the files for stdin, stdout and stderr); a watcher forked for the command forks the
command, answers ``{"pid": ...}`` once it started and ``{"status": ...}`` once it ended, and kills
it when the test sends ``kill`` or goes away (a timeout)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import sys

#: What a command of the project imports that costs time and is not the project's own.
LIBRARIES = (
    "pydantic",
    "langchain_core.messages",
    "langchain_core.tools",
    "langchain_core.runnables",
    "langchain_core.language_models",
    "langgraph.types",
    "langgraph.graph",
    "langgraph.checkpoint.sqlite",
    "langgraph.checkpoint.memory",
    "langgraph.store.sqlite",
    "yaml",
    "langsmith.run_trees",
    "langsmith.client",
    "rich.console",
    "rich.table",
    "tenacity",
    "psutil",
    "httpx",
    "sqlite3",
    "aiosqlite",
)
#: The project's governance core: pure by design (no I/O, no environment: tests/test_architecture.py),
#: so what it is at import is the same in every command.
PROJECT = ("policies",)


def _io_encoding(env: dict[str, str]) -> tuple[str, str | None]:
    spec = env.get("PYTHONIOENCODING", "")
    encoding, _, errors = spec.partition(":")
    if not encoding and env.get("PYTHONUTF8") == "1":
        encoding = "utf-8"
    if not encoding:  # the locale's, named as Python names its streams' ("utf-8")
        import codecs
        import locale

        encoding = codecs.lookup(locale.getpreferredencoding(False)).name
    return encoding, errors or None


def _streams(request: dict, env: dict[str, str]) -> None:
    """The command's stdin, stdout and stderr on fds 0-2, and Python's streams over them."""
    import io

    for fd, path, mode in (
        (0, request["stdin"], os.O_RDONLY),
        (1, request["stdout"], os.O_WRONLY),
        (2, request["stderr"], os.O_WRONLY),
    ):
        opened = os.open(path, mode)
        os.dup2(opened, fd)
        os.close(opened)
    encoding, errors = _io_encoding(env)
    sys.stdin = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding=encoding, errors=errors
    )
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding=encoding, errors=errors
    )
    sys.stderr = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
        encoding=encoding,
        errors=errors or "backslashreplace",
        line_buffering=True,
    )
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr


def _command(request: dict, base_path: list[str]) -> None:
    """In the command's process: take its environment, folder, streams and path, then run it as
    ``python`` would (this never returns: the command's end is the process's end)."""
    import runpy

    env = request["env"]
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(env)
    _streams(request, env)
    argv = request["argv"]
    extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if argv[1:2] == ["-c"]:
        sys.path[:] = ["", *extra, *base_path]
        sys.argv = ["-c", *argv[3:]]
        import types

        main = sys.modules["__main__"] = types.ModuleType("__main__")
        exec(compile(argv[2], "<string>", "exec"), main.__dict__)
    elif argv[1:2] == ["-m"]:
        sys.path[:] = [os.getcwd(), *extra, *base_path]
        sys.argv = [argv[2], *argv[3:]]  # runpy sets argv[0] to the module's file
        runpy.run_module(argv[2], run_name="__main__", alter_sys=True)
    elif argv[0] == sys.executable:
        script = os.path.abspath(argv[1])
        sys.path[:] = [os.path.dirname(script), *extra, *base_path]
        sys.argv = [argv[1], *argv[2:]]
        runpy.run_path(script, run_name="__main__")
    else:  # the console script: what its wrapper does
        sys.path[:] = [os.path.dirname(os.path.abspath(argv[0])), *extra, *base_path]
        sys.argv = list(argv)
        from governed_agent_patterns.cli import main

        sys.exit(main())
    sys.exit(0)


def _watch(conn: socket.socket, request: dict, listener: socket.socket, base_path: list[str]) -> None:
    """In the watcher: fork the command, say its pid, kill it on ``kill`` or when the test is gone,
    and say how it ended."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    pid = os.fork()
    if pid == 0:
        listener.close()
        conn.close()
        _command(request, base_path)
    conn.sendall(json.dumps({"pid": pid}).encode() + b"\n")
    pidfd = os.pidfd_open(pid)
    ready, _, _ = select.select([pidfd, conn], [], [])
    if pidfd not in ready:  # "kill", or the test closed its end: either way the command goes
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    with contextlib.suppress(OSError):  # the test may be gone
        conn.sendall(json.dumps({"status": os.waitstatus_to_exitcode(status)}).encode() + b"\n")
    os._exit(0)


def serve(path: str) -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    base_path = [p for p in sys.path if p and os.path.abspath(p) not in (here, root)]
    for name in (*LIBRARIES, *PROJECT):
        with contextlib.suppress(ImportError):  # an optional library not installed: the command imports it
            __import__(name)
    import threading

    if threading.active_count() != 1:  # forking a process with threads is not safe: say so, serve nothing
        print("threads", flush=True)
        return
    try:  # the watchers wait on a process descriptor (Linux 5.3 and later)
        os.close(os.pidfd_open(os.getpid()))
    except (AttributeError, OSError):
        print("no pidfd", flush=True)
        return
    import gc

    gc.freeze()  # what is imported here stays out of every child's collections (no copy of its pages)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the watchers are reaped by the kernel
    print("ready", flush=True)
    while True:
        conn, _ = listener.accept()
        with conn.makefile("rb") as lines:
            line = lines.readline()
        if not line:
            conn.close()
            continue
        if os.fork() == 0:
            _watch(conn, json.loads(line), listener, base_path)
        conn.close()


if __name__ == "__main__":
    serve(sys.argv[1])
