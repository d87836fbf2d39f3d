"""Human-in-the-loop in the ecosystem's format: the interrupt carries LangChain's HITL request, a
``{"decisions": [...]}`` resume approves, edits and rejects, and who approved is explicit."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools.supervisor import BillingDesk, demo_input
from graphs.supervisor import build_graph
from nodes.offline import OfflineChatModel
from policies.supervisor import demo_policy
from tests.helpers import thread


def paused(**policy_fields):
    desk = BillingDesk()
    graph = build_graph(
        llm=OfflineChatModel(),
        tools=desk.registry(),
        policy=demo_policy(**policy_fields),
        checkpointer=InMemorySaver(),
    )
    config = thread()
    return graph, config, desk, graph.invoke(demo_input(), config)


def test_the_interrupt_carries_langchains_hitl_request_beside_our_fields():
    _graph, _config, _desk, out = paused()
    request = out["__interrupt__"][0].value
    [action_request] = request["action_requests"]
    assert action_request["name"] == "issue_refund"
    assert action_request["args"] == request["action"]["args"]
    assert action_request["args"]["amount_usd"] == 1200
    assert "high_refund_requires_human" in action_request["description"]
    assert "limit=1000" in action_request["description"]
    assert request["review_configs"] == [
        {"action_name": "issue_refund", "allowed_decisions": ["approve", "edit", "reject"]}
    ]
    # the project's own fields stay: the reason, the deciding rule's details, what may be answered
    assert request["reason"] == "high_refund_requires_human"
    assert request["details"] == {"arg": "amount_usd", "limit": 1000.0, "value": 1200}
    assert [a["type"] for a in request["allowed_answers"]] == ["approve", "edit", "reject"]


@pytest.mark.parametrize(
    ("decision", "status", "refunded"),
    [
        ({"type": "approve"}, "ok", [1200]),
        (
            {
                "type": "edit",
                "edited_action": {"name": "issue_refund", "args": {"user_id": 42, "amount_usd": 700}},
            },
            "ok",
            [700],
        ),
        ({"type": "reject", "message": "not without a receipt"}, "stopped", []),
    ],
)
def test_a_decisions_resume_approves_edits_and_rejects(decision, status, refunded):
    graph, config, desk, _ = paused()
    final = graph.invoke(Command(resume={"decisions": [decision]}), config)
    assert final["status"] == status
    assert [r["amount_usd"] for r in desk.refunds.values()] == refunded
    if decision["type"] == "reject":
        assert final["stop_reason"] == "human_rejected"
        row = final["trace"][-1]
        assert row["tool"] == "issue_refund" and row["human_approved"] is False and row["args_hash"]
        assert row["decision"] == "escalate" and row["stop_reason"] == "human_rejected"
        assert final["history"][-1]["human_answer"]["message"] == "not without a receipt"
        return
    refund = next(c for c in final["calls"] if c["tool"] == "issue_refund")
    assert refund["approved_by"] == "human" and refund["human_approved"] is True
    assert "after human approval" in final["answer"]


def test_the_auto_approver_is_never_reported_as_a_human():
    _graph, _config, desk, out = paused(auto_approver_enabled=True)
    assert out["status"] == "ok"
    refund = next(c for c in out["calls"] if c["tool"] == "issue_refund")
    assert refund["approved_by"] == "auto_approver" and refund["human_approved"] is None
    row = next(r for r in out["trace"] if r.get("tool") == "issue_refund")
    assert row["approved_by"] == "auto_approver" and "human_approved" not in row
    step = next(h for h in out["history"] if (h.get("executed_action") or {}).get("name") == "issue_refund")
    assert step["approved_by"] == "auto_approver" and step["human_answer"]["decided_by"] == "auto_approver"
    assert "after approval by the automatic approver" in out["answer"]
    assert "human" not in out["answer"]
    assert [r["amount_usd"] for r in desk.refunds.values()] == [800.0]


def test_an_answer_that_cannot_be_applied_asks_again_and_is_bounded():
    graph, config, desk, _ = paused(human_answer_attempts=2)
    again = graph.invoke(
        Command(resume={"decisions": [{"type": "edit", "edited_action": {"args": {"amount_usd": 5000}}}]}),
        config,
    )
    request = again["__interrupt__"][0].value
    assert request["attempt"] == 2 and "cap_to_remaining_run_budget" in request["problem"]
    assert request["action_requests"][0]["args"]["amount_usd"] == 1200  # still the escalated action
    final = graph.invoke(Command(resume={"decisions": [{"type": "maybe"}]}), config)
    assert final["stop_reason"] == "invalid_human_answer" and not desk.refunds
    assert final["trace"][-1]["tool"] == "issue_refund"
