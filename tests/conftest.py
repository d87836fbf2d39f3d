import json
import os
import sys
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.figures import FIGURES  # noqa: E402


def _delta_agents() -> None:
    """``AGENT_PATTERNS_DELTA_CHANNELS=1 pytest ...``: the suite with delta channels everywhere.
    The patterns' graphs read the switch when compiled (``graphs.compile``: on unless it is 0, so
    a plain run of the suite has them, and ``=0`` runs it without); a ``create_agent`` agent takes
    them through its ``state_schema``, so only when the switch is set on explicitly, every agent
    the tests build with ``GovernanceMiddleware`` and no schema of its own gets
    ``GovernanceDeltaState`` (set here, before the test modules import ``create_agent``). A plain
    run keeps testing the middleware on ``create_agent``'s own state, as a user's agent has it."""
    from graphs.compile import DELTA_CHANNELS_ENV

    if os.environ.get(DELTA_CHANNELS_ENV, "").strip().lower() not in ("1", "true", "yes", "on"):
        return
    try:
        import langchain.agents as agents
    except ImportError:
        return
    original = agents.create_agent

    def create_agent(*args, **kwargs):
        from nodes.middleware import GovernanceDeltaState, GovernanceMiddleware

        governed = any(isinstance(m, GovernanceMiddleware) for m in kwargs.get("middleware") or ())
        if governed and kwargs.get("state_schema") is None:
            kwargs["state_schema"] = GovernanceDeltaState
        return original(*args, **kwargs)

    agents.create_agent = create_agent


_delta_agents()

# Hypothesis profiles for the gateway fuzz suites (tests/test_fuzz_*.py): "ci" (the default) runs
# 200 examples per pattern, derandomized and without an example database, so every CI run tries
# the same examples; "deep" (HYPOTHESIS_PROFILE=deep) runs 20,000 per pattern from a random seed and
# keeps failing examples in .hypothesis/ to replay them.
_COMMON = {
    "deadline": None,
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
}
settings.register_profile("ci", max_examples=200, derandomize=True, database=None, **_COMMON)
settings.register_profile("deep", max_examples=20_000, **_COMMON)
settings.register_profile("quick", max_examples=200, derandomize=True, database=None, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


class _WorkerFigures:
    """Under pytest-xdist (``make test`` runs ``pytest -n auto``) each worker measures its own
    figures: a worker hands them to the controller when it finishes, and the controller adds them
    up before printing them."""

    @pytest.hookimpl
    def pytest_testnodedown(self, node, error):
        FIGURES.merge(getattr(node, "workeroutput", {}).get("figures"))


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_WorkerFigures(), "worker-figures")


def pytest_sessionfinish(session, exitstatus):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: its figures go to the controller
        workeroutput["figures"] = FIGURES.dump()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    lines = FIGURES.lines()
    if lines:
        terminalreporter.section("gateway figures")
        terminalreporter.write_line(f"hypothesis profile: {settings().max_examples} examples per fuzz test")
        for line in lines:
            terminalreporter.write_line(line)


@pytest.fixture(autouse=True)
def _terminal_width(monkeypatch):
    """The CLI cuts progress lines to ``$COLUMNS``: every test sees the width output to a pipe or a
    file gets (100), whatever runs it (pytest-xdist sets ``COLUMNS=80`` in its workers). A test of
    another width sets its own."""
    monkeypatch.setenv("COLUMNS", "100")


@pytest.fixture(autouse=True)
def _run_store_in_tmp(tmp_path, monkeypatch):
    """CLI runs in tests keep their runs in a per-test SQLite file, never in the user's home."""
    monkeypatch.setenv("AGENT_PATTERNS_DB", str(tmp_path / "runs.sqlite"))


@pytest.fixture(scope="session")
def pg_cluster():
    """A throwaway PostgreSQL server on 127.0.0.1 for the whole session (installed with apt-get
    when missing). These tests fail, never skip, when it cannot be started."""
    from devtools.pgcluster import PgCluster, PgUnavailable

    cluster = PgCluster(durable=False)
    try:
        cluster.start()
    except PgUnavailable as exc:
        pytest.fail(f"PostgreSQL is required by this test and could not be started: {exc}")
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(pg_cluster):
    """A fresh database on the session's PostgreSQL server."""
    return pg_cluster.create_database(f"t_{uuid.uuid4().hex[:12]}")


@pytest.fixture
def instant_backoff(monkeypatch):
    """Retries without the wait between attempts, sync or async: the waits asked for are recorded
    instead."""
    waits: list[float] = []

    async def asleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr("nodes.clock.sleep", waits.append)
    monkeypatch.setattr("nodes.clock.asleep", asleep)
    return waits


@pytest.fixture
def openai_server():
    """A scripted OpenAI-compatible server on a free loopback port (``tests/openai_server.py``)
    that checks the bearer key ``test-key``."""
    from tests.openai_server import OpenAICompatibleServer

    with OpenAICompatibleServer(api_key="test-key") as server:
        yield server


@pytest.fixture(autouse=True)
def _no_env_file(monkeypatch):
    """The CLI reads ./.env; in tests it reads none (a developer's .env must not reach a test), unless
    a test names one."""
    monkeypatch.setenv("AGENT_PATTERNS_ENV_FILE", "")


@pytest.fixture
def cited_offline_run(capsys, monkeypatch):
    """``agent-patterns run <pattern> --json`` in process with no OpenAI key: the JSON result, once
    it ended ``ok: success`` on the offline model with citations, each named in its details by
    ``key`` (the RAG and Research patterns)."""
    from apps.cli.main import main

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    def run(pattern: str, key: str) -> dict:
        assert main(["run", pattern, "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert (result["status"], result["stop_reason"]) == ("ok", "success")
        assert result["model"].startswith("offline:")
        assert result["citations"]
        assert {d[key] for d in result["citation_details"]} == set(result["citations"])
        return result

    return run


#: The files whose tests take longest (``--durations``): run first, so that the workers do not
#: finish with one of them running alone at the end of the suite.
SLOW_FIRST = (
    "test_crash_resume.py", "test_probe.py", "test_races.py", "test_fuzz_", "test_store_damage.py",
    "test_probe_report.py", "test_probe_careless.py", "test_bench_smoke.py", "test_packaging.py",
    "test_agent_server.py", "test_persistence.py", "test_tamper.py", "test_served_operations.py",
    "test_sealed_questions.py", "test_served_reviewers.py", "test_mcp_oauth.py", "test_studio.py",
    "test_supervisor_audit.py",
)  # fmt: skip


def pytest_collection_modifyitems(session, config, items):
    slow = [i for i in items if any(name in i.nodeid for name in SLOW_FIRST)]
    if slow and len(slow) < len(items):
        kept = {id(i) for i in slow}
        items[:] = slow + [i for i in items if id(i) not in kept]


@pytest.fixture
def collector() -> Iterator[tuple[str, list[bytes]]]:
    """An OTLP/HTTP collector (test_audit_export, test_mcp_gateway) on a free loopback port that keeps each request's body."""
    bodies: list[bytes] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    worker = threading.Thread(target=server.serve_forever, daemon=True)
    worker.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", bodies
    finally:
        server.shutdown()
        server.server_close()
