"""Money to the cent and audit rows of every step, refused steps included (issue: gateway gaps).

Money: what the supervisor approves is what the tool receives and the ledger records, to the
cent, and a refund that rounds to nothing is blocked. Audit: every step's trace row names the
tool, the args hash and the decision, and whether a human approved where one was asked — also
when the step was refused (blocked, rejected, denied, invalid), under either ``on_refusal``.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools.supervisor import GOAL, BillingDesk
from graphs.supervisor import build_graph
from policies.supervisor import ReviewContext, demo_policy, review_action
from tests.helpers import scripted, thread

CONTEXT = {"kind": "tool", "name": "get_refund_context", "args": {"user_id": 42}}
FINAL = {"kind": "final", "answer": "Done."}
ACTION_PHASES = {"validate", "review", "human_approval", "execution", "refused", "final"}


def refund(amount, reason="duplicate charge"):
    return {
        "kind": "tool",
        "name": "issue_refund",
        "args": {"user_id": 42, "amount_usd": amount, "reason": reason},
    }


def email(amount):
    return {
        "kind": "tool",
        "name": "send_refund_email",
        "args": {"user_id": 42, "amount_usd": amount, "message": "Hi"},
    }


def run(*replies, resume=None, **fields):
    desk = BillingDesk()
    graph = build_graph(
        llm=scripted(*replies, FINAL),
        policy=demo_policy(**fields),
        tools=desk.registry(),
        checkpointer=InMemorySaver(),
    )
    config = thread()
    out = graph.invoke({"goal": GOAL, "subject": {"user_id": 42}}, config)
    answers = list(resume or [])
    while "__interrupt__" in out and answers:
        out = graph.invoke(Command(resume=answers.pop(0)), config)
    return out, desk


def cents(value: float) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


# --------------------------------------------------------------------------- money


def test_a_refund_that_rounds_to_nothing_is_blocked_and_nothing_is_recorded():
    out, desk = run(CONTEXT, refund(1e-300))
    assert out["stop_reason"] == "supervisor_block:invalid_refund_amount"
    assert not desk.refunds
    out, desk = run(CONTEXT, refund(0.004))
    assert out["stop_reason"] == "supervisor_block:invalid_refund_amount" and not desk.refunds


def test_fractions_of_a_cent_are_revised_to_the_cent_and_recorded_as_approved():
    out, desk = run(CONTEXT, refund(12.345))
    assert out["status"] == "ok"
    [call] = [c for c in out["calls"] if c["tool"] == "issue_refund"]
    assert call["args"]["amount_usd"] == 12.35 and call["executed_from"] == "supervisor_revised"
    assert [r["amount_usd"] for r in desk.refunds.values()] == [12.35]
    reviews = next(
        h for h in out["history"] if (h.get("executed_action") or {}).get("name") == "issue_refund"
    )["reviews"]
    assert reviews[0]["reason"] == "refund_amount_rounded_to_cents"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.floats(min_value=1e-320, max_value=999.99, allow_nan=False, allow_infinity=False),
        st.integers(min_value=-5, max_value=999).map(float),
        st.decimals(min_value="0.001", max_value="999.999", places=3).map(float),
    )
)
def test_what_is_approved_is_what_the_tool_receives_and_the_ledger_records(amount):
    """Any amount below the escalation threshold: blocked when it rounds to nothing, else executed
    at exactly its value in cents, the same number in the approved call and in the ledger."""
    out, desk = run(CONTEXT, refund(amount))
    if cents(amount) <= 0:
        assert out["stop_reason"] == "supervisor_block:invalid_refund_amount" and not desk.refunds
        return
    assert out["status"] == "ok", out["stop_reason"]
    [call] = [c for c in out["calls"] if c["tool"] == "issue_refund"]
    [recorded] = desk.refunds.values()
    assert Decimal(str(call["args"]["amount_usd"])) == cents(amount)
    assert recorded["amount_usd"] == call["args"]["amount_usd"] == call["observation"]["amount_usd"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.decimals(min_value="0.01", max_value="999.99", places=2).map(float), min_size=1, max_size=6)
)
def test_the_run_cap_is_exact_to_the_cent(parts):
    """Refunds already made plus the next one never pass the 2000 USD cap: a revision leaves exactly
    what is left, in cents, whatever the floats add up to."""
    calls = tuple({"tool": "issue_refund", "args": {"amount_usd": p}, "ok": True} for p in parts)
    spent = sum(Decimal(str(p)) for p in parts)
    decision = review_action(refund(999.99), ReviewContext(calls, {"user_id": 42}), demo_policy())
    left = Decimal("2000") - spent
    if left <= 0:
        assert decision.reason == "refund_budget_exhausted"
    elif Decimal("999.99") > left:
        assert decision.verdict == "revise"
        assert Decimal(str(decision.details["action"]["args"]["amount_usd"])) == left
    else:
        assert decision.verdict in ("approve", "escalate")


# --------------------------------------------------------------------------- audit rows

ACTIONS = st.sampled_from(
    [
        CONTEXT,
        refund(300),
        refund(1200),
        refund(-1),
        refund(12.345),
        email(300),
        email(800),
        {"kind": "tool", "name": "issue_refund", "args": {"user_id": 7, "amount_usd": 10, "reason": "x"}},
        {"kind": "tool", "name": "delete_account", "args": {"user_id": 42}},
        {"kind": "tool", "name": "issue_refund", "args": {"user_id": 42, "amount_usd": "ten"}},
        {"kind": "tool", "name": "get_refund_context", "args": {"user_id": 42, "extra": 1}},
        FINAL,
    ]
)
ANSWERS = st.sampled_from(
    [
        {"type": "approve"},
        {"type": "reject", "message": "no"},
        {"decisions": [{"type": "edit", "edited_action": {"args": {"amount_usd": 700}}}]},
        {"type": "edit", "edited_action": {"args": {"amount_usd": -3}}},
        "maybe",
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(ACTIONS, min_size=1, max_size=6),
    st.lists(ANSWERS, max_size=4),
    st.sampled_from(["stop", "feedback"]),
)
def test_every_steps_row_names_tool_args_hash_decision_and_the_humans_word(actions, answers, mode):
    out, _desk = run(*actions, resume=answers, on_refusal=mode, max_steps=8)
    rows = [r for r in out["trace"] if r.get("phase") in ACTION_PHASES]
    for row in rows:
        assert row.get("tool"), row
        assert isinstance(row.get("args_hash"), str) and len(row["args_hash"]) == 12, row
        assert row.get("decision") in {"approve", "revise", "escalate", "block", "refused"}, row
        if row.get("human_approved") is not None or row.get("approved_by") == "human":
            assert row["human_approved"] is (row.get("approved_by") == "human"), row
    refused = [r for r in rows if r["phase"] == "refused" or (not r["ok"] and r.get("stop_reason"))]
    for row in refused:
        assert row["ok"] is False
    for call in out.get("calls") or []:
        row = next(r for r in rows if r["phase"] == "execution" and r["tool"] == call["tool"])
        assert row["decision"] in {"approve", "escalate"}


def test_a_tool_that_ran_is_in_calls_also_when_its_result_stops_the_run():
    desk = BillingDesk()
    registry = desk.registry()

    def refund_then_odd(**kwargs):
        registry["issue_refund"](**kwargs)  # the side effect happens
        return {"status": "refunded", "at": {1, 2}}  # but the result is no JSON

    graph = build_graph(
        llm=scripted(CONTEXT, refund(300), FINAL),
        policy=demo_policy(),
        tools={**registry, "issue_refund": refund_then_odd},
        checkpointer=InMemorySaver(),
    )
    out = graph.invoke({"goal": GOAL, "subject": {"user_id": 42}}, thread())
    assert out["stop_reason"] == "tool_bad_result:issue_refund"
    [call] = [c for c in out["calls"] if c["tool"] == "issue_refund"]
    assert call["ok"] is False and call["idempotency_key"] in desk.refunds
    assert call["observation"] == {"error": "tool_bad_result:issue_refund", "problem": "not_json:set"}
    assert out["trace"][-1]["tool"] == "issue_refund" and out["trace"][-1]["args_hash"]


def test_an_answer_the_run_cannot_keep_is_not_kept_in_the_result():
    import datetime
    import json

    out, _desk = run(
        CONTEXT, refund(1200), resume=[{"type": "approve", "at": datetime.datetime(2026, 1, 1)}] * 3
    )
    assert out["stop_reason"] == "invalid_human_answer"
    assert out["human_answer"] == {"unreadable": "dict", "problem": "not_json:datetime"}
    json.dumps(out["human_answer"])
