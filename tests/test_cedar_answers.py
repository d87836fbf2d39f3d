"""Issue 58: the reviewer's roles as facts when a human answers.

A Cedar policy that reads ``context.reviewer`` judges answers, not calls: when a reviewer approves
or edits a call, Cedar is asked again with who answered (their name, the roles the policy gives
them, the answer) and the call's values. It can only refuse an answer the question's own signoff
admitted: a matching ``forbid`` or a policy that cannot judge leaves the call waiting for a
reviewer who may answer; a rejection is never judged. Both engines, the support desk governed by
Cedar, an obedient model."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

cedarpy = pytest.importorskip("cedarpy", reason="the cedar extra is not installed")

from demo_tools import cedar_desk  # noqa: E402
from policies.human import HumanAnswer  # noqa: E402
from policies.supervisor import SupervisorPolicy  # noqa: E402
from policies.supervisor.decide.cedar import answer_refused  # noqa: E402
from policies.supervisor.rules.cedar import parse_cedar  # noqa: E402
from tests.test_cedar import LOOK, cedar_desk_problems, done_so_far, run_desk  # noqa: E402

ENGINES = ["middleware", "graph_native"]

#: Above 200, only a senior's approval applies, whoever else holds the question's role.
SENIOR = """
@id("refunds-above-200-need-a-senior")
forbid(principal, action == Action::"issue_refund", resource)
when {
  context has reviewer &&
  context.args.amount.value.greaterThan(decimal("200.0")) &&
  !context.reviewer.roles.contains("senior")
};
"""
REVIEWERS = {"fran": ["finance", "senior"], "femi": ["finance"], "sam": ["support"]}


def _policy(extra: str = SENIOR, **fields) -> SupervisorPolicy:
    data = {**cedar_desk.policy.model_dump(), "cedar": cedar_desk.CEDAR + extra, "reviewers": REVIEWERS}
    return SupervisorPolicy.model_validate({**data, **fields})


def _refund(amount: float) -> dict:
    return {"kind": "tool", "name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": amount}}


def _approve(reviewer: str) -> dict:
    return {"decisions": [{"type": "approve"}], "reviewer": reviewer}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_reviewer_the_cedar_policy_forbids_cannot_approve_and_one_it_admits_can(engine):
    before = done_so_far()
    refund = {"name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": 250.0}}
    _values, asked = run_desk(
        engine,
        _policy(),
        "Refund order ORD-1002 in full.",
        [LOOK, refund],
        [_approve("femi"), _approve("fran")],
    )
    assert asked[0]["reviewer_role"] == "finance", asked[0]  # femi holds the question's role ...
    assert asked[1]["problem"].startswith("cedar_forbid:refunds-above-200-need-a-senior"), asked[1]
    assert len(asked) == 2 and done_so_far() - before == 1  # ... but only fran's approval ran it, once


@pytest.mark.parametrize("engine", ENGINES)
def test_a_rejection_is_never_judged_by_the_answer_policies(engine):
    before = done_so_far()
    refund = {"name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": 250.0}}
    reject = {"decisions": [{"type": "reject", "message": "no"}], "reviewer": "femi"}
    _values, asked = run_desk(engine, _policy(), "Refund order ORD-1002 in full.", [LOOK, refund], [reject])
    assert len(asked) == 1 and done_so_far() == before  # refused at once: nothing ran, nothing waits


@settings(max_examples=60, deadline=None)
@given(
    amount=st.decimals(min_value="100.01", max_value="999.99", places=2),
    reviewer=st.sampled_from(sorted(REVIEWERS)),
    kind=st.sampled_from(["approve", "edit"]),
)
def test_the_answer_policies_decide_on_the_reviewers_roles_and_the_calls_values(amount, reviewer, kind):
    """Generated answers: a non-senior's approval or edit of a refund above 200 is refused by the
    forbid's id; every other answer is left to the question's own signoff."""
    call = _refund(float(amount))
    edits = {"edited_action": {"name": "issue_refund", "args": call["args"]}} if kind == "edit" else {}
    answer = HumanAnswer(type=kind, edits=edits, reviewer=reviewer)  # type: ignore[arg-type]
    said = answer_refused(_policy(), call, answer)
    if amount > 200 and "senior" not in REVIEWERS[reviewer]:
        assert said is not None and said.startswith("cedar_forbid:refunds-above-200-need-a-senior"), said
    else:
        assert said is None, said


def test_an_edit_is_judged_on_the_call_as_edited():
    edited = {"edited_action": {"name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": 150.0}}}
    lowered = HumanAnswer(type="edit", edits=edited, reviewer="femi")
    assert answer_refused(_policy(), _refund(250.0), lowered) is None  # femi may pay 150
    assert answer_refused(_policy(), _refund(250.0), HumanAnswer(type="approve", reviewer="femi"))


def test_answer_policies_are_kept_apart_from_the_calls():
    """A permit that reads the reviewer does not make Cedar's default deny refuse the tool's calls
    (no call has a reviewer); where it names the tool, an answer none matches is not applied."""
    permit = """
@id("only-finance-answers-refunds")
permit(principal, action == Action::"issue_refund", resource)
when { context has reviewer && context.reviewer.roles.contains("finance") };
"""
    cedar = parse_cedar(cedar_desk.CEDAR + permit)
    assert [r.name for r in cedar.rules if r.answers] == ["only-finance-answers-refunds"]
    assert cedar.permits("send_email") == parse_cedar(cedar_desk.CEDAR).permits("send_email")
    policy = _policy(permit)
    assert answer_refused(policy, _refund(250.0), HumanAnswer(type="approve", reviewer="fran")) is None
    said = answer_refused(policy, _refund(250.0), HumanAnswer(type="approve", reviewer="sam"))
    assert said is not None and said.startswith("cedar_not_permitted"), said


def test_an_answer_policy_that_reads_what_an_answer_does_not_carry_refuses_the_answer():
    reads_mandate = """
@id("answers-need-a-mandate")
forbid(principal, action == Action::"issue_refund", resource)
when { context has reviewer && !context.mandate.asked };
"""
    said = answer_refused(
        _policy(reads_mandate), _refund(250.0), HumanAnswer(type="approve", reviewer="fran")
    )
    assert said is not None and said.startswith("cedar_error:answers-need-a-mandate"), said


def test_the_schema_describes_the_reviewer_so_a_typo_is_caught():
    assert cedar_desk_problems(_policy()) == []
    typo = SENIOR.replace("reviewer.roles", "reviewer.rolez").replace("need-a-senior", "typo")
    problems = cedar_desk_problems(_policy(typo))
    assert problems and "typo" in problems[0] and "rolez" in problems[0], problems


def test_an_answer_policy_asks_nobody():
    with pytest.raises(ValueError, match="judges answers"):
        parse_cedar('@ask("finance")\npermit(principal, action, resource) when { context has reviewer };')


def test_in_shadow_the_answer_policies_judge_nothing():
    femi = HumanAnswer(type="approve", reviewer="femi")
    assert answer_refused(_policy(), _refund(250.0), femi) is not None
    assert answer_refused(_policy(mode="shadow"), _refund(250.0), femi) is None
    rules = _policy().rules["issue_refund"].model_copy(update={"shadow": ["cedar"]})
    tool_shadow = _policy().model_copy(update={"rules": {**_policy().rules, "issue_refund": rules}})
    assert answer_refused(tool_shadow, _refund(250.0), femi) is None
