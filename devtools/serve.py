"""Serve the five graphs from an Agent Protocol server backed by PostgreSQL (``make serve``).

The server is not ours: it is stock ``langgraph-api`` on the MIT PostgreSQL + Redis runtime
``langgraph-runtime-pg`` (``LANGGRAPH_RUNTIME_EDITION=pg``), installed by ``make server-venv`` in
``.venv-server`` (see docs/server.md for the choice). This module only lays it out the way the
engine is deployed in production and starts it:

- the schema is migrated once, before anything else starts (``LG_RUNTIME_PG_AUTO_MIGRATE=false``
  for the processes, as the runtime advises for several processes);
- one API process (``uvicorn langgraph_api.server:app``) answers the Agent Protocol and runs no
  graph itself (``N_JOBS_PER_WORKER=0``): it puts each run in the PostgreSQL queue;
- ``SERVE_WORKERS`` queue workers (``python -m langgraph_api.queue_entrypoint``) claim runs from
  that queue (``FOR UPDATE SKIP LOCKED``), ``N_JOBS_PER_WORKER`` at a time each, and heartbeat
  them in Redis; a run whose worker stops heartbeating is put back in the queue and taken up by
  another worker from its last checkpoint.

Configuration is the environment (see ``python -m devtools.serve --help``). Without
``DATABASE_URI`` a local PostgreSQL cluster is started (and kept, in ``.serve/postgres``, or
``$SERVE_STATE_DIR/postgres``); without ``REDIS_URI`` a local ``redis-server``. Both come from
Debian's packages (installed with apt-get when missing, as root). A second ``make serve`` on the
same state folder finds its PostgreSQL running and refuses to start, leaving the first one alone;
Ctrl-C at any stage of the start stops what was started.

Everything here is standard library (plus devtools), so tests and benchmarks running in ``.venv``
start the very processes ``make serve`` starts, from ``.venv-server``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from devtools.pgcluster import PgInUse, Server

ROOT = Path(__file__).resolve().parent.parent
SERVER_VENV = ROOT / ".venv-server"
STATE_DIR = ROOT / ".serve"

#: What ``make serve`` reads, with its default (``None``: see the description).
SETTINGS: dict[str, tuple[str | None, str]] = {
    "DATABASE_URI": (None, "PostgreSQL: runs, queue, checkpoints (unset: local, .serve/postgres)"),
    "REDIS_URI": (None, "Redis: heartbeats, queue wake-ups, streams (unset: a local redis-server)"),
    "SERVE_HOST": ("127.0.0.1", "address the API listens on (0.0.0.0: other machines too)"),
    "SERVE_PORT": ("8123", "port the API listens on"),
    "SERVE_WORKERS": ("2", "queue worker processes"),
    "N_JOBS_PER_WORKER": ("50", "runs one worker executes at once"),
    "REDIS_MAX_CONNECTIONS": ("512", "Redis connections per process (each waiting client holds one)"),
    "LG_BG_JOB_HEARTBEAT": ("10", "heartbeat, s: a run unheard of for 2x this goes back to the queue"),
    "BG_JOB_MAX_RETRIES": ("3", "attempts of a run whose workers died, then it is marked error"),
    "AGENT_PATTERNS_LEDGER": (None, "the Supervisor demo's refund/email ledger (unset: DATABASE_URI)"),
    "SERVER_PYTHON": (None, "the server venv's Python (unset: .venv-server/bin/python)"),
    "SERVE_AUTH": (
        None,
        "1: authenticate with devtools/serve_auth.py (tokens: $AGENT_PATTERNS_SERVE_TOKENS)",
    ),
    "SERVE_STATE_DIR": (None, "folder of the local PostgreSQL/Redis data and the logs (unset: .serve)"),
}

#: The model is chosen by the project's own variables, passed to every worker as they are.
MODEL_VARIABLES = ("OPENAI_API_KEY", "OPENAI_MODEL", "OPENAI_TIMEOUT_SECONDS", "OPENAI_BASE_URL")


class ServeError(RuntimeError):
    """The server could not be started; the message says which part and why."""


def graphs_spec(config: Path = ROOT / "langgraph.json") -> dict[str, str]:
    """The graphs of ``langgraph.json``, with paths made absolute (``LANGSERVE_GRAPHS``)."""
    graphs = json.loads(config.read_text())["graphs"]
    out = {}
    for name, target in graphs.items():
        path, _, variable = target.partition(":")
        out[name] = f"{(config.parent / path).resolve()}:{variable}"
    return out


def setting(env: Mapping[str, str], name: str) -> str | None:
    return env.get(name) or SETTINGS[name][0]


@dataclass
class Process:
    """One child process of the server, with its log file."""

    name: str
    proc: subprocess.Popen[bytes]
    log: Path
    health_url: str

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


def _answers(url: str, timeout: float = 1.0) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return bool(reply.status == 200)
    except (urllib.error.URLError, OSError, ValueError):
        return False


@dataclass
class AgentServer(Server):
    """The server's processes: migrate, one API process, ``workers`` queue workers.

    ``database_uri`` and ``redis_uri`` must point at running servers. ``env`` is the environment
    the processes start from (the model's variables, ``AGENT_PATTERNS_LEDGER``, engine settings);
    ``logs`` the folder for their logs.
    """

    database_uri: str
    redis_uri: str
    logs: Path
    host: str = "127.0.0.1"
    port: int = 8123
    workers: int = 2
    jobs_per_worker: int = 50
    heartbeat_seconds: float = 10.0
    max_retries: int = 3
    python: Path = field(default_factory=lambda: SERVER_VENV / "bin" / "python")
    env: Mapping[str, str] = field(default_factory=dict)
    api: Process | None = None
    queue: list[Process] = field(default_factory=list)
    _health_ports: Iterator[int] | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def _base_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in MODEL_VARIABLES}
        env.update(self.env)
        env.update(
            LANGGRAPH_RUNTIME_EDITION="pg",
            DATABASE_URI=self.database_uri,
            REDIS_URI=self.redis_uri,
            LANGSERVE_GRAPHS=json.dumps(graphs_spec()),
            LG_RUNTIME_PG_AUTO_MIGRATE="false",
            LG_BG_JOB_HEARTBEAT=str(self.heartbeat_seconds),
            BG_JOB_MAX_RETRIES=str(self.max_retries),
            LANGGRAPH_SERVER_HOST="127.0.0.1",  # a worker's health server
            LANGSMITH_TRACING=env.get("LANGSMITH_TRACING", "false"),
            LANGGRAPH_CLI_NO_ANALYTICS="1",
            PYTHONPATH=str(ROOT),
            PYTHONUNBUFFERED="1",
        )
        env.setdefault("AGENT_PATTERNS_LEDGER", self.database_uri)
        if setting(env, "SERVE_AUTH") not in (None, "", "0") and not env.get("LANGGRAPH_AUTH"):
            # LangGraph's custom auth: bearer tokens, each a reviewer (devtools/serve_auth.py)
            env["LANGGRAPH_AUTH"] = json.dumps({"path": f"{ROOT / 'devtools' / 'serve_auth.py'}:auth"})
        # the runtime's own default pool (64) is exhausted by 64 clients waiting on their runs at
        # once (``runs.wait``, a stream): the API then answers MaxConnectionsError
        env["REDIS_MAX_CONNECTIONS"] = str(setting(env, "REDIS_MAX_CONNECTIONS"))
        return env

    def _check_python(self) -> None:
        if not self.python.exists():
            raise ServeError(
                f"the server's venv is missing ({self.python}): run `make server-venv` "
                "(pip install -e '.[server]' into .venv-server)"
            )

    def migrate(self) -> None:
        """Bring the runtime's schema to its head once, before any process starts."""
        self._check_python()
        out = subprocess.run(
            [str(self.python), "-m", "langgraph_runtime_pg.migrate", "upgrade"],
            env=self._base_env(),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if out.returncode != 0:
            raise ServeError(f"the runtime's schema migration failed: {(out.stderr or out.stdout)[-2000:]}")

    def _spawn(self, name: str, args: list[str], env: dict[str, str], health_url: str) -> Process:
        self.logs.mkdir(parents=True, exist_ok=True)
        log = self.logs / f"{name}.log"
        handle = log.open("ab")
        try:
            proc = subprocess.Popen(
                [str(self.python), *args],
                cwd=ROOT,
                env=env,
                stdout=handle,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        finally:
            handle.close()
        return Process(name, proc, log, health_url)

    def _wait_healthy(self, procs: list[Process], timeout: float = 180.0) -> None:
        deadline = time.monotonic() + timeout
        waiting = list(procs)
        while waiting:
            for process in list(waiting):
                if not process.alive():
                    raise ServeError(f"{process.name} exited at start: {process.tail()}")
                if _answers(process.health_url):
                    waiting.remove(process)
            if waiting and time.monotonic() > deadline:
                names = ", ".join(p.name for p in waiting)
                raise ServeError(f"{names} did not answer within {timeout:.0f} s: {waiting[0].tail()}")
            if waiting:
                time.sleep(0.25)

    def start_api(self) -> Process:
        env = self._base_env()
        env["N_JOBS_PER_WORKER"] = "0"  # the API process queues runs, the workers run them
        args = ["-m", "uvicorn", "langgraph_api.server:app", "--host", self.host, "--port", str(self.port)]
        # keep idle client connections longer than clients do (httpx: 5 s), so a client never
        # reuses a connection the server is closing at that moment
        args += ["--no-access-log", "--log-level", "warning", "--timeout-keep-alive", "65"]
        self.api = self._spawn("api", args, env, f"{self.url}/ok")
        self._wait_healthy([self.api])
        return self.api

    def start_worker(self, index: int | None = None, *, wait: bool = True) -> Process:
        """Start one more queue worker (``index``: its number in the log's name)."""
        from devtools.pgcluster import free_port

        index = len(self.queue) + 1 if index is None else index
        env = self._base_env()
        env["N_JOBS_PER_WORKER"] = str(self.jobs_per_worker)
        health = free_port()
        env["PORT"] = str(health)
        worker = self._spawn(
            f"worker-{index}", ["-m", "langgraph_api.queue_entrypoint"], env, f"http://127.0.0.1:{health}/ok"
        )
        self.queue.append(worker)
        if wait:
            self._wait_healthy([worker])
        return worker

    def start(self) -> AgentServer:
        self._check_python()
        try:
            self.migrate()
            self.start_api()
            started = [self.start_worker(i + 1, wait=False) for i in range(self.workers)]
            self._wait_healthy(started)
        except BaseException:
            self.stop()
            raise
        return self

    def kill(self, process: Process, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to ``process`` (its whole process group) and reap it."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.proc.wait(timeout=30)

    def stop(self) -> None:
        """Workers first (each finishes or hands back what it runs), then the API."""
        for process in [*self.queue, *([self.api] if self.api else [])]:
            if process.alive():
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        for process in [*self.queue, *([self.api] if self.api else [])]:
            try:
                process.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill(process)
        self.queue = []
        self.api = None


def _number(env: Mapping[str, str], name: str, minimum: float, *, whole: bool = True) -> float:
    raw = setting(env, name)
    try:
        value = int(str(raw)) if whole else float(str(raw))
    except ValueError:
        kind = "a whole number" if whole else "a number of seconds"
        raise ServeError(f"{name} must be {kind}, not {raw!r}") from None
    if value < minimum:
        raise ServeError(f"{name} must be at least {minimum:g}, not {value:g}")
    return value


def _help() -> str:
    rows = [f"  {name:<22} {desc}" + (f" [{d}]" if d else "") for name, (d, desc) in SETTINGS.items()]
    rows += [f"  {name:<22} the model, as everywhere else (docs/server.md)" for name in MODEL_VARIABLES]
    return "environment:\n" + "\n".join(rows)


def _close_quietly(stack: contextlib.ExitStack) -> None:
    """Close ``stack`` (stop the servers started) with Ctrl-C ignored meanwhile: a second Ctrl-C
    must not leave a half-stopped PostgreSQL behind."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        stack.close()
    finally:
        signal.signal(signal.SIGINT, previous)


def main(argv: list[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="make serve",
        description="Serve the five graphs from langgraph-api on PostgreSQL + Redis, with queue workers.",
        epilog=_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.parse_args(argv)
    env = dict(os.environ if env is None else env)
    state = Path(env["SERVE_STATE_DIR"]).resolve() if env.get("SERVE_STATE_DIR") else STATE_DIR
    stack = contextlib.ExitStack()
    try:
        workers = int(_number(env, "SERVE_WORKERS", 1))
        jobs = int(_number(env, "N_JOBS_PER_WORKER", 1))
        port = int(_number(env, "SERVE_PORT", 1))
        heartbeat = _number(env, "LG_BG_JOB_HEARTBEAT", 1, whole=False)
        retries = int(_number(env, "BG_JOB_MAX_RETRIES", 1))
        _number(env, "REDIS_MAX_CONNECTIONS", 8)  # read by every process (AgentServer._base_env)
        database = env.get("DATABASE_URI")
        if not database:
            from devtools.pgcluster import PgCluster

            cluster = stack.enter_context(PgCluster(datadir=state / "postgres"))
            database = cluster.create_database("agent_server", exist_ok=True)
            print(f"PostgreSQL: {database} (data kept in {state / 'postgres'})", flush=True)
        redis = env.get("REDIS_URI")
        if not redis:
            from devtools.redisserver import RedisServer

            redis = stack.enter_context(RedisServer(datadir=state / "redis")).url
            print(f"Redis: {redis}", flush=True)
        python = Path(env["SERVER_PYTHON"]) if env.get("SERVER_PYTHON") else SERVER_VENV / "bin" / "python"
        server = AgentServer(
            database_uri=database,
            redis_uri=redis,
            logs=state / "logs",
            host=str(setting(env, "SERVE_HOST")),
            port=port,
            workers=workers,
            jobs_per_worker=jobs,
            heartbeat_seconds=heartbeat,
            max_retries=retries,
            python=python,
            env={k: v for k, v in env.items() if k in (*MODEL_VARIABLES, "AGENT_PATTERNS_LEDGER")},
        )
        stack.enter_context(server)
    except (ServeError, RuntimeError) as exc:  # PgUnavailable and RedisUnavailable are RuntimeErrors
        _close_quietly(stack)
        print(f"make serve: {exc}", file=sys.stderr)
        if isinstance(exc, PgInUse):
            print(
                "make serve: stop the other one first (Ctrl-C there), or give this one its own "
                "SERVE_STATE_DIR (and SERVE_PORT), or a DATABASE_URI",
                file=sys.stderr,
            )
        return 2
    except KeyboardInterrupt:  # Ctrl-C while starting: stop whatever was started so far
        print("make serve: interrupted while starting; stopping what was started ...", file=sys.stderr)
        _close_quietly(stack)
        return 130
    model = "offline model" if not env.get("OPENAI_API_KEY") else env.get("OPENAI_MODEL") or "gpt-4.1-mini"
    print(
        f"Serving {', '.join(graphs_spec())} on {server.url} "
        f"({workers} workers x {jobs} runs at once; model: {model}). "
        f"Logs: {server.logs}. Ctrl-C stops.",
        flush=True,
    )
    stopping = False

    def _stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        while not stopping:
            for index, worker in enumerate(list(server.queue)):
                if not worker.alive():  # a worker died: its runs go back to the queue; start another
                    print(f"{worker.name} exited ({worker.proc.returncode}); starting another", flush=True)
                    server.queue.remove(worker)
                    server.start_worker(index + 1, wait=False)
            if server.api and not server.api.alive():
                print(f"the API process exited: {server.api.tail()}", file=sys.stderr)
                return 1
            time.sleep(0.5)
    finally:
        print("stopping ...", flush=True)
        _close_quietly(stack)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
