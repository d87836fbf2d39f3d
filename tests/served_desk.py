"""The served support desk for integration tests: ``make serve``'s stack (PostgreSQL, Redis, the
agent server with LangGraph's custom auth from ``devtools/serve_auth.py``) started once per
configuration, and SDK clients signed in with a bearer token. Used by tests/test_served_*.py."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from devtools.pgcluster import free_port
from devtools.serve import SERVER_VENV, AgentServer, ServeError

#: Two reviewers, each signed in with their bearer token, and an operator who may change threads.
TOKENS = {
    "tok-alice": "alice",
    "tok-sam": "sam",
    "tok-ops": {"identity": "ops", "permissions": ["threads:update"]},
}


def unstarted_server(pg_cluster: Any, logs: Path, **settings: Any) -> tuple[Any, AgentServer, str]:
    """Redis (started), and an agent server (not started) with ``settings`` (:class:`AgentServer`'s)
    on a free port and a fresh database of ``pg_cluster``: Redis, the server and the database's URL.
    Fails, never skips, when the server's venv or Redis is missing."""
    from devtools.redisserver import RedisServer, RedisUnavailable

    python = settings.setdefault("python", SERVER_VENV / "bin" / "python")
    if not python.exists():
        pytest.fail(f"the server's venv is missing ({python}): run `make server-venv` (`make test` does)")
    try:
        redis = RedisServer().start()
    except RedisUnavailable as exc:
        pytest.fail(f"Redis is required by the agent server and could not be started: {exc}")
    database = pg_cluster.create_database(f"srv_{uuid.uuid4().hex[:10]}")
    served = AgentServer(database_uri=database, redis_uri=redis.url, logs=logs, port=free_port(), **settings)
    return redis, served, database


def _unstarted(pg_cluster: Any, logs: Path, env: Mapping[str, str]) -> tuple[Any, AgentServer, str]:
    """Redis (started), and an agent server on a fresh database of ``pg_cluster`` (not started)."""
    return unstarted_server(
        pg_cluster,
        logs,
        workers=1,
        python=Path(os.environ.get("SERVER_PYTHON") or SERVER_VENV / "bin" / "python"),  # as make serve
        env={"SERVE_AUTH": "1", "AGENT_PATTERNS_SERVE_TOKENS": json.dumps(TOKENS), **env},
    )


@contextmanager
def served_desk(pg_cluster: Any, logs: Path, env: Mapping[str, str]) -> Iterator[tuple[AgentServer, str]]:
    """An agent server on a fresh database of ``pg_cluster`` with Redis, serving with auth (the
    tokens of :data:`TOKENS`) and ``env``: the server, and its database's URL (where its
    checkpoints and store live). Fails, never skips, when a part cannot be started."""
    redis, served, database = _unstarted(pg_cluster, logs, env)
    try:
        served.start()
    except ServeError as exc:
        redis.stop()
        pytest.fail(f"the agent server did not start: {exc}")
    try:
        yield served, database
    finally:
        served.stop()
        redis.stop()


def start_refused(pg_cluster: Any, logs: Path, env: Mapping[str, str]) -> str:
    """Start the server with ``env`` where it must not start: why it did not (its log's tail)."""
    redis, served, _ = _unstarted(pg_cluster, logs, env)
    try:
        served.start()
    except ServeError as exc:
        return str(exc)
    finally:
        served.stop()
        redis.stop()
    pytest.fail("the agent server started")


def client(server: AgentServer, token: str | None) -> Any:
    """A synchronous SDK client signed in with ``token`` (None: no ``Authorization`` header)."""
    from langgraph_sdk import get_sync_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return get_sync_client(url=server.url, timeout=120, headers=headers)


def turn(sdk: Any, thread: str, text: str, customer: str = "cust-42") -> dict[str, Any]:
    """One desk turn on ``thread``, waited for: the thread's values after it."""
    said = {"messages": [{"role": "user", "content": text}], "governance_subject": {"customer": customer}}
    return dict(sdk.runs.wait(thread, "support_desk", input=said))


def answer(sdk: Any, thread: str, decision: Mapping[str, Any]) -> dict[str, Any]:
    """Resume what ``thread`` waits on with ``decision`` (LangChain's HITL shape), waited for."""
    return dict(sdk.runs.wait(thread, "support_desk", command={"resume": {"decisions": [dict(decision)]}}))
