"""Issue 47, served: the support desk on ``make serve``'s stack (PostgreSQL, Redis, LangGraph's custom
auth from ``devtools/serve_auth.py``) with two authenticated reviewers. Refunds above the desk's
threshold need the role finance: sam (support) is refused and the refund waits; alice (finance)
runs it; the audit names who answered each and when. A resume naming someone else than the
signed-in user is refused by the server (403) and runs nothing."""

from __future__ import annotations

import json
import os
import uuid
from datetime import datetime
from pathlib import Path

import pytest

from devtools.pgcluster import free_port
from devtools.serve import SERVER_VENV, AgentServer, ServeError

pytestmark = pytest.mark.integration

TOKENS = {"tok-alice": "alice", "tok-sam": "sam"}
SIGNOFF = {"reviewers": {"alice": ["finance"], "sam": ["support"]}, "roles": {"issue_refund": "finance"}}


@pytest.fixture(scope="module")
def server(pg_cluster, tmp_path_factory):
    from devtools.redisserver import RedisServer, RedisUnavailable

    python = Path(os.environ.get("SERVER_PYTHON") or SERVER_VENV / "bin" / "python")  # as make serve
    if not python.exists():
        pytest.fail(f"the server's venv is missing ({python}): run `make server-venv`")
    try:
        redis = RedisServer().start()
    except RedisUnavailable as exc:
        pytest.fail(f"Redis is required by the agent server and could not be started: {exc}")
    database = pg_cluster.create_database(f"srv_{uuid.uuid4().hex[:10]}")
    served = AgentServer(
        database_uri=database,
        redis_uri=redis.url,
        logs=tmp_path_factory.mktemp("served-reviewers"),
        port=free_port(),
        workers=1,
        python=python,
        env={
            "SERVE_AUTH": "1",
            "AGENT_PATTERNS_SERVE_TOKENS": json.dumps(TOKENS),
            "AGENT_PATTERNS_DESK_SIGNOFF": json.dumps(SIGNOFF),
        },
    )
    try:
        served.start()
    except ServeError as exc:
        redis.stop()
        pytest.fail(f"the agent server did not start: {exc}")
    try:
        yield served
    finally:
        served.stop()
        redis.stop()


def _client(server: AgentServer, token: str | None):
    from langgraph_sdk import get_sync_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return get_sync_client(url=server.url, timeout=120, headers=headers)


def _utc(text: str) -> bool:
    return datetime.fromisoformat(text).utcoffset().total_seconds() == 0  # type: ignore[union-attr]


def test_a_refund_above_the_threshold_is_refused_to_the_wrong_role_and_runs_for_the_right_one(server):
    alice, sam = _client(server, "tok-alice"), _client(server, "tok-sam")
    with pytest.raises(Exception, match="unknown or missing bearer token"):
        _client(server, "nobody").threads.create()
    thread = sam.threads.create()["thread_id"]
    said = {"messages": [{"role": "user", "content": "Refund order ORD-1002 in full."}],
            "governance_subject": {"customer": "cust-42"}}  # fmt: skip
    sam.runs.wait(thread, "support_desk", input=said)
    [waiting] = sam.threads.get_state(thread)["interrupts"]
    assert waiting["value"]["reviewer_role"] == "finance"

    # sam (support) approves as himself: refused with the reason, the refund still waits
    sam.runs.wait(thread, "support_desk", command={"resume": {"decisions": [{"type": "approve"}]}})
    [again] = sam.threads.get_state(thread)["interrupts"]
    assert again["value"]["problem"].startswith("reviewer_lacks_role:finance: sam does not hold"), again
    # sam naming alice is refused by the server: no run, the refund still waits
    with pytest.raises(Exception, match="reviewer_not_authenticated_user"):
        sam.runs.wait(
            thread,
            "support_desk",
            command={"resume": {"decisions": [{"type": "approve"}], "reviewer": "alice"}},
        )
    assert sam.threads.get_state(thread)["interrupts"]

    done = alice.runs.wait(thread, "support_desk", command={"resume": {"decisions": [{"type": "approve"}]}})
    refunds = [c for c in done["governance_calls"] if c["tool"] == "issue_refund"]
    assert len(refunds) == 1 and refunds[0]["reviewer"] == "alice" and _utc(refunds[0]["answered_at"])
    assert refunds[0]["approved_by"] == "human"
    [refused] = [r for r in done["governance_trace"] if r.get("phase") == "answer_refused"]
    assert "reviewer_lacks_role:finance" in refused["problem"] and refused["answered_by"] == "human"
    assert not alice.threads.get_state(thread)["interrupts"]
