"""One name for the functions a policy's custom rules name: ``custom_rules``, in every public entry
point (issue 36: ``review_action(hooks=...)`` where ``build_graph``, ``GovernanceMiddleware`` and
``policy_problems`` say ``custom_rules=``). ``hooks=`` still works, with a ``DeprecationWarning``."""

from __future__ import annotations

import inspect

import pytest

from graphs.supervisor import build_graph
from policies.decision import Decision
from policies.human import parse_human_answer
from policies.supervisor import ReviewContext, approved_action, demo_policy, policy_problems, review_action

POLICY = demo_policy()
FROZEN = POLICY.rules["issue_refund"].model_copy(update={"custom": ["no_user_7"]})
RULED = POLICY.model_copy(update={"rules": {**POLICY.rules, "issue_refund": FROZEN}})
SEVEN = {"kind": "tool", "name": "issue_refund", "args": {"user_id": 7, "amount_usd": 5, "reason": "r"}}
CONTEXT = ReviewContext((), {"user_id": 7})


def no_user_7(action, context):
    return Decision("block", "user_7_frozen") if action["args"]["user_id"] == 7 else None


RULES = {"no_user_7": no_user_7}


def test_review_action_takes_custom_rules_by_name_and_by_place():
    assert review_action(SEVEN, CONTEXT, RULED, custom_rules=RULES).reason == "user_7_frozen"
    assert review_action(SEVEN, CONTEXT, RULED, RULES).reason == "user_7_frozen"
    assert review_action(SEVEN, CONTEXT, RULED).reason == "unknown_custom_rule:no_user_7"  # not given


def test_hooks_is_a_deprecated_alias_in_review_action_and_approved_action():
    with pytest.warns(DeprecationWarning, match=r"review_action\(hooks=...\) is deprecated.*custom_rules"):
        assert review_action(SEVEN, CONTEXT, RULED, hooks=RULES).reason == "user_7_frozen"
    edit = parse_human_answer({"type": "edit", "edited_action": {"args": {"user_id": 7}}})
    action = {**SEVEN, "args": {**SEVEN["args"], "user_id": 8}}
    new = approved_action(edit, action, RULED, CONTEXT, custom_rules=RULES)
    assert (new.verdict, new.reason) == ("block", "user_7_frozen")
    with pytest.warns(DeprecationWarning, match=r"approved_action\(hooks=...\)"):
        assert approved_action(edit, action, RULED, CONTEXT, hooks=RULES) == new
    with pytest.raises(TypeError, match="custom_rules= only"):
        review_action(SEVEN, CONTEXT, RULED, custom_rules=RULES, hooks=RULES)


def test_every_public_entry_point_names_them_custom_rules():
    from nodes.middleware import GovernanceMiddleware

    for function in (
        build_graph,
        GovernanceMiddleware.__init__,
        policy_problems,
        review_action,
        approved_action,
    ):
        parameters = inspect.signature(function).parameters
        assert "custom_rules" in parameters, function
        assert "hooks" not in parameters or parameters["hooks"].kind is inspect.Parameter.KEYWORD_ONLY
