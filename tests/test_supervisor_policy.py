"""Supervisor: the action contract, every review rule, the automatic approver, human answers."""

from __future__ import annotations

import math

import pytest

from policies.decision import Decision
from policies.human import parse_human_answer
from policies.supervisor import (
    ReviewContext,
    approved_action,
    auto_approve,
    demo_policy,
    review_action,
    validate_action,
)

POLICY = demo_policy()
CONTEXT_OK = {"tool": "get_refund_context", "args": {"user_id": 42}, "ok": True}


def tool(name, **args):
    return {"kind": "tool", "name": name, "args": args}


def refund(amount, **extra):
    return tool("issue_refund", user_id=42, amount_usd=amount, **extra)


def refunded(amount):
    return {"tool": "issue_refund", "args": {"user_id": 42, "amount_usd": amount}, "ok": True}


def review(action, *calls, policy=POLICY, hooks=None, subject=None):
    """A review for the demo's user 42 (``subject``: another)."""
    return review_action(action, ReviewContext(tuple(calls), subject or {"user_id": 42}), policy, hooks)


# --------------------------------------------------------------------------- action contract


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("text", "invalid_action:not_object"),
        ([1], "invalid_action:not_object"),
        ({"kind": "talk"}, "invalid_action:bad_kind"),
        ({"name": "x"}, "invalid_action:bad_kind"),
        ({"kind": "final", "answer": "ok", "x": 1}, "invalid_action:extra_keys_final"),
        ({"kind": "final", "answer": "  "}, "invalid_action:bad_final_answer"),
        ({"kind": "final", "answer": 3}, "invalid_action:bad_final_answer"),
        ({"kind": "final"}, "invalid_action:bad_final_answer"),
        ({"kind": "tool", "name": "issue_refund", "args": {}, "why": 1}, "invalid_action:extra_keys_tool"),
        ({"kind": "tool", "name": "", "args": {}}, "invalid_action:bad_tool_name"),
        ({"kind": "tool", "name": 7, "args": {}}, "invalid_action:bad_tool_name"),
        ({"kind": "tool", "name": "issue_refund", "args": [42]}, "invalid_action:bad_tool_args"),
        ({"kind": "tool", "name": "issue_refund"}, "invalid_action:bad_tool_args"),
        (tool("delete_user", user_id=42), "invalid_action:unknown_tool:delete_user"),
        (tool("Issue_Refund", user_id=42, amount_usd=5), "invalid_action:unknown_tool:Issue_Refund"),
        (tool(" issue_refund", user_id=42, amount_usd=5), "invalid_action:unknown_tool: issue_refund"),
        (tool("issue refund", user_id=42, amount_usd=5), "invalid_action:unknown_tool:issue refund"),
        (refund(5, currency="EUR"), "invalid_action:extra_tool_args:issue_refund"),
        (tool("issue_refund", user_id=42), "invalid_action:missing_required_arg:issue_refund:amount_usd"),
        (
            tool("send_refund_email", user_id=42, amount_usd=5),
            "invalid_action:missing_required_arg:send_refund_email:message",
        ),
        (refund("1200"), "invalid_action:bad_arg_type:issue_refund:amount_usd"),
        (refund(True), "invalid_action:bad_arg_type:issue_refund:amount_usd"),
        (refund(math.nan), "invalid_action:bad_arg_type:issue_refund:amount_usd"),
        (refund(math.inf), "invalid_action:bad_arg_type:issue_refund:amount_usd"),
        (refund(None), "invalid_action:bad_arg_type:issue_refund:amount_usd"),
        (tool("get_refund_context", user_id="42"), "invalid_action:bad_arg_type:get_refund_context:user_id"),
        (tool("get_refund_context", user_id=42.0), "invalid_action:bad_arg_type:get_refund_context:user_id"),
        (tool("get_refund_context", user_id=False), "invalid_action:bad_arg_type:get_refund_context:user_id"),
        (refund(5, reason=3), "invalid_action:bad_arg_type:issue_refund:reason"),
    ],
)
def test_invalid_actions(raw, reason):
    decision = validate_action(raw, POLICY)
    assert decision.verdict == "stop"
    assert decision.reason == reason


def test_valid_actions():
    assert validate_action({"kind": "final", "answer": " Done. "}, POLICY).details["action"] == {
        "kind": "final",
        "answer": "Done.",
    }
    assert validate_action(refund(1e308), POLICY).passed  # huge but finite: the supervisor decides
    assert validate_action(refund(-5), POLICY).passed  # well-typed: the supervisor blocks it
    assert validate_action(refund(5, reason="dup"), POLICY).details["action"] == refund(5, reason="dup")


# --------------------------------------------------------------------------- supervisor review


def test_final_requires_context():
    final = {"kind": "final", "answer": "done"}
    assert review(final).reason == "final_requires_context"
    assert review(final).verdict == "block"
    failed = {**CONTEXT_OK, "ok": False}
    assert review(final, failed).reason == "final_requires_context"
    assert review(final, CONTEXT_OK).verdict == "approve"


def test_context_is_read_only():
    decision = review(tool("get_refund_context", user_id=42))
    assert (decision.verdict, decision.reason) == ("approve", "read_only_context")


def test_a_bound_argument_without_a_subject_is_refused_by_name():
    """Acting for nobody in particular is not acting for anyone: the policy's default verdict."""
    context = ReviewContext((), {})
    decision = review_action(tool("get_refund_context", user_id=42), context, POLICY)
    assert (decision.verdict, decision.reason) == ("block", "subject_unbound:user_id")
    escalating = POLICY.model_copy(update={"default_verdict": "escalate"})
    decision = review_action(tool("get_refund_context", user_id=42), context, escalating)
    assert (decision.verdict, decision.reason) == ("escalate", "subject_unbound:user_id")


@pytest.mark.parametrize(
    ("amount", "reason"),
    [
        ("1200", "invalid_refund_amount_type"),
        (True, "invalid_refund_amount_type"),
        (math.nan, "invalid_refund_amount_type"),
        (math.inf, "invalid_refund_amount_type"),
        (None, "invalid_refund_amount_type"),
        (0, "invalid_refund_amount"),
        (-5, "invalid_refund_amount"),
    ],
)
def test_refund_amount_blocks(amount, reason):
    decision = review(refund(amount, reason="r"), CONTEXT_OK)
    assert (decision.verdict, decision.reason) == ("block", reason)


def test_refund_budget_exhausted_and_capped():
    decision = review(refund(100, reason="r"), refunded(1000), refunded(1000))
    assert (decision.verdict, decision.reason) == ("block", "refund_budget_exhausted")
    capped = review(refund(1e308, reason="r"), refunded(1500))
    assert (capped.verdict, capped.reason) == ("revise", "cap_to_remaining_run_budget")
    assert capped.details["action"]["args"]["amount_usd"] == 500
    # failed refunds do not use the budget
    failed = {**refunded(1500), "ok": False}
    assert review(refund(900, reason="r"), failed).verdict == "approve"


def test_refund_reason_required_then_escalates():
    first = review(refund(1200))
    assert (first.verdict, first.reason) == ("revise", "refund_reason_required")
    revised = first.details["action"]
    assert revised["args"]["reason"] and revised["args"]["amount_usd"] == 1200
    again = review(revised)
    assert (again.verdict, again.reason) == ("escalate", "high_refund_requires_human")
    assert again.details == {"arg": "amount_usd", "limit": 1000.0, "value": 1200}
    assert review(refund(1200, reason="  ")).reason == "refund_reason_required"


def test_refund_within_auto_limit():
    decision = review(refund(1000, reason="r"))
    assert (decision.verdict, decision.reason) == ("approve", "refund_within_auto_limit")


def test_email_requires_successful_refund():
    email = tool("send_refund_email", user_id=42, amount_usd=5, message="hi")
    assert review(email, CONTEXT_OK).reason == "email_before_refund"
    assert review(email, {**refunded(5), "ok": False}).reason == "email_before_refund"
    assert review(email, refunded(5)).reason == "email_after_refund"


def test_tool_without_rules_is_blocked():
    policy = demo_policy().model_copy(update={"rules": {}})
    decision = review(tool("get_refund_context", user_id=42), policy=policy)
    assert (decision.verdict, decision.reason) == ("block", "unknown_tool_for_supervisor:get_refund_context")


def test_custom_rules():
    rules = POLICY.rules["issue_refund"].model_copy(update={"custom": ["no_user_7", "missing"]})
    policy = POLICY.model_copy(update={"rules": {**POLICY.rules, "issue_refund": rules}})

    def no_user_7(action, context):
        return Decision("block", "user_7_frozen") if action["args"]["user_id"] == 7 else None

    hooks = {"no_user_7": no_user_7}
    seven = tool("issue_refund", user_id=7, amount_usd=5, reason="r")
    assert review(seven, policy=policy, hooks=hooks, subject={"user_id": 7}).reason == "user_7_frozen"
    assert review(refund(5, reason="r"), policy=policy, hooks=hooks).reason == "unknown_custom_rule:missing"
    bad = {"no_user_7": lambda a, c: Decision("revise", "x"), "missing": lambda a, c: None}
    assert (
        review(refund(5, reason="r"), policy=policy, hooks=bad).reason == "custom_rule_bad_decision:no_user_7"
    )


# --------------------------------------------------------------------------- human approval


def _request(amount):
    return {"action": refund(amount, reason="r"), "details": {"arg": "amount_usd"}}


def test_auto_approver_caps_by_editing():
    assert auto_approve(_request(700), 800)["type"] == "approve"
    answer = auto_approve(_request(1200), 800)
    assert answer["type"] == "edit"
    assert answer["edited_action"]["args"]["amount_usd"] == 800
    assert auto_approve({"action": refund(5), "details": {}}, 800)["type"] == "reject"


def test_parse_human_answers_in_hitl_vocabulary():
    assert parse_human_answer({"type": "approve"}).type == "approve"
    assert parse_human_answer({"decisions": [{"type": "reject", "message": "no"}]}).message == "no"
    edit = parse_human_answer({"type": "edit", "edited_action": {"name": "issue_refund", "args": {}}})
    assert edit.type == "edit" and "edited_action" in edit.edits
    assert parse_human_answer({"decisions": []}) is None
    assert parse_human_answer({"type": "maybe"}) is None
    assert parse_human_answer(42) is None


def test_approved_action():
    action = refund(1200, reason="r")
    approve = parse_human_answer("approve")
    assert approved_action(approve, action, POLICY).details["action"] == action
    assert approved_action(approve, action, POLICY).reason == "original"
    edit = parse_human_answer(
        {"type": "edit", "edited_action": {"name": "issue_refund", "args": {"amount_usd": 800}}}
    )
    done = approved_action(edit, action, POLICY)
    assert done.reason == "human_revised" and done.details["action"]["args"] == {
        "user_id": 42,
        "amount_usd": 800,
        "reason": "r",
    }
    short = parse_human_answer({"type": "edit", "args": {"amount_usd": 500}})
    assert approved_action(short, action, POLICY).details["action"]["args"]["amount_usd"] == 500
    # a touched field as a chat UI sends it (text) is read against the schema, as a form is
    typed = parse_human_answer({"type": "edit", "args": {"amount_usd": "800"}})
    assert approved_action(typed, action, POLICY).details["action"]["args"]["amount_usd"] == 800
    for bad in (
        {"type": "edit", "args": {"amount_usd": "eight hundred"}},
        {"type": "edit", "args": {"amount_usd": True}},
        {"type": "edit", "args": {"currency": "EUR"}},
        {"type": "edit", "edited_action": {"name": "send_refund_email", "args": {}}},
        {"type": "edit", "edited_action": "800"},
    ):
        assert approved_action(parse_human_answer(bad), action, POLICY).reason == "invalid_human_answer"
