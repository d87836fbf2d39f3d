"""The review core reads in the order a call is decided (issue 49): one ordered chain of named checks
(:data:`policies.supervisor.decide.review.CHAIN`), the first that decides gives the decision, which names
it (``Decision.check``) and the checks passed before it (``Decision.passed_checks``), as Cedar's
authorizer names the policies that determined an answer. Neither takes part in comparing
decisions; the review row both engines record carries ``check``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from nodes.trace import review_figures
from policies.decision import Decision
from policies.supervisor import (
    Requested,
    ReviewContext,
    SupervisorPolicy,
    ToolRules,
    demo_policy,
    grant_for,
    review_action,
    review_row,
)
from policies.supervisor.decide.approval import approval_request, rule_details
from policies.supervisor.decide.review import CHAIN, FINAL_CHECK, GRANTS, UNKNOWN_TOOL
from policies.tools import ToolSpec
from tests.helpers import done_call

ORDER = [
    "mandate",
    "binding",
    "provenance",
    "ownership",
    "authority",
    "amounts",
    "record_limits",
    "defaults",
    "custom_rules",
    "read_only",
    "repeats",
    "thresholds",
    "approval",
    "approve",
]
SUBJECT = {"user_id": 42}
CONTEXT = ReviewContext(calls=(), subject=SUBJECT, request="Refund user 42.")


def _refund(amount: Any, **more: Any) -> dict[str, Any]:
    return {"kind": "tool", "name": "issue_refund", "args": {"user_id": 42, "amount_usd": amount, **more}}


def test_the_chain_is_listed_once_in_the_order_a_call_is_decided():
    assert [name for name, _check in CHAIN] == ORDER
    assert len({check for _name, check in CHAIN}) == len(CHAIN)


@pytest.mark.parametrize(
    ("action", "check", "verdict", "reason"),
    [
        (_refund(50, reason="r", user_id=7), "binding", "block", "subject_mismatch:user_id"),
        (_refund(-5, reason="r"), "amounts", "block", "invalid_refund_amount"),
        (_refund(50), "defaults", "revise", "refund_reason_required"),
        (_refund(1500, reason="r"), "thresholds", "escalate", "high_refund_requires_human"),
        (_refund(50, reason="r"), "approve", "approve", "refund_within_auto_limit"),
        (
            {"kind": "tool", "name": "get_refund_context", "args": {"user_id": 42}},
            "read_only",
            "approve",
            None,
        ),
        ({"kind": "tool", "name": "wire_money", "args": {}}, UNKNOWN_TOOL, "block", None),
        ({"kind": "final", "answer": "Done."}, FINAL_CHECK, "block", "final_requires_context"),
    ],
)
def test_each_decision_names_the_check_that_decided_and_those_it_passed(action, check, verdict, reason):
    decision = review_action(action, CONTEXT, demo_policy())
    assert (decision.check, decision.verdict) == (check, verdict)
    assert reason is None or decision.reason == reason
    names = [name for name, _c in CHAIN]
    if check in names:  # the checks before it, each passed: a prefix of the chain
        assert list(decision.passed_checks) == names[: names.index(check)]
    assert review_row(decision)["check"] == check
    assert review_figures(review_row(decision))["check"] == check


def test_the_check_is_no_part_of_a_decisions_value():
    a, b = Decision("approve", "ok", {"x": 1}), Decision("approve", "ok", {"x": 1}, check="approve")
    assert a == b and repr(a) == repr(b)
    row = review_row(Decision("escalate", "why", {"arg": "amount_usd"}, check="thresholds"))
    assert row == {"decision": "escalate", "reason": "why", "arg": "amount_usd", "check": "thresholds"}
    assert "check" not in rule_details(row) and "check" not in approval_request(_refund(1500), row)["details"]
    assert "check" not in review_row(Decision("approve", "ok"))


CALENDAR = SupervisorPolicy(
    tools={"list_events": ToolSpec(system_fields=["id"])},
    allowed_tools=["list_events", "delete_event"],
    rules={
        "list_events": ToolRules(read_only=True),
        "delete_event": ToolRules(requested=Requested(keywords=["delete"]), require_approval=True),
    },
)


def test_an_escalation_a_grant_covers_is_named_by_the_grant_after_the_check_that_asked():
    events = [{"id": f"ev-{i}", "title": f"Hackathon part {i}", "description": ""} for i in range(1, 3)]
    listing = done_call(1, "list_events", events, day="2026-11-28")
    context = ReviewContext(calls=(listing,), request="Delete all my events on 2026-11-28.")
    action = {"kind": "tool", "name": "delete_event", "args": {"event_id": "ev-1"}}
    asked = review_action(action, context, CALENDAR)
    assert (asked.verdict, asked.check) == ("escalate", "approval")
    assert asked.details["mandate"] == "delete · all my events on 2026-11-28"
    grant = grant_for(action, review_row(asked), context, CALENDAR, step=2)
    assert grant is not None
    covered = review_action(action, replace(context, grants=(grant,)), CALENDAR)
    assert covered.verdict == "approve" and covered.check == GRANTS
    assert covered.passed_checks == (*asked.passed_checks, "approval")
