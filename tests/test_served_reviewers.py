"""Issue 47, served: the support desk on ``make serve``'s stack (PostgreSQL, Redis, LangGraph's custom
auth from ``devtools/serve_auth.py``) with two authenticated reviewers. Refunds above the desk's
threshold need the role finance: sam (support) is refused and the refund waits; alice (finance)
runs it; the audit names who answered each and when. A resume naming someone else than the
signed-in user is refused by the server (403) and runs nothing."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from tests.served_desk import client as _client
from tests.served_desk import served_desk

pytestmark = pytest.mark.integration

SIGNOFF = {"reviewers": {"alice": ["finance"], "sam": ["support"]}, "roles": {"issue_refund": "finance"}}


@pytest.fixture(scope="module")
def server(pg_cluster, tmp_path_factory):
    logs = tmp_path_factory.mktemp("served-reviewers")
    with served_desk(pg_cluster, logs, {"AGENT_PATTERNS_DESK_SIGNOFF": json.dumps(SIGNOFF)}) as (served, _):
        yield served


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
