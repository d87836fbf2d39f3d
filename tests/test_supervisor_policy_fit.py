"""Issue 24's Supervisor policy edges: ``for_tools(tools={...})`` merges into the generated specs,
``NumberArg`` needs only its argument, and a policy that allows none of the tools it is built
with is a build error."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from demo_tools.supervisor import demo_tools
from graphs.supervisor import build_graph
from policies.supervisor import (
    NumberArg,
    ReviewContext,
    SupervisorPolicy,
    ToolRules,
    demo_policy,
    policy_problems,
    review_action,
)
from policies.tools import ArgSpec, ToolSpec

TOOLS = ["lookup", "transfer", "notify"]

SPEC_FIELDS = {
    "description": st.text(min_size=1, max_size=20),
    "trust": st.sampled_from(["trusted", "untrusted"]),
    "args": st.just({"amount": ArgSpec(type="number")}),
}


@settings(max_examples=40, deadline=None)
@given(
    side=st.lists(st.sampled_from(TOOLS), unique=True),
    given_for=st.lists(st.sampled_from(TOOLS), unique=True),
    data=st.data(),
)
def test_given_tool_specs_merge_into_the_generated_ones(side, given_for, data):
    given_specs = {}
    for name in given_for:
        keys = data.draw(st.lists(st.sampled_from(sorted(SPEC_FIELDS)), unique=True))
        given_specs[name] = ToolSpec(**{k: data.draw(SPEC_FIELDS[k]) for k in keys})
    policy = SupervisorPolicy.for_tools(TOOLS, side_effects=side, tools=given_specs)
    for name in TOOLS:
        spec = policy.tools[name]
        assert spec.side_effect is (name in side), name  # never lost to a given spec
        for key in given_specs.get(name, ToolSpec()).model_fields_set:
            assert getattr(spec, key) == getattr(given_specs[name], key), (name, key)


def test_a_given_spec_that_says_side_effect_itself_is_kept():
    policy = SupervisorPolicy.for_tools(["pay"], tools={"pay": ToolSpec(side_effect=True)})
    assert policy.tools["pay"].side_effect is True
    as_dict = SupervisorPolicy.for_tools(["pay"], side_effects=["pay"], tools={"pay": {"trust": "trusted"}})
    assert as_dict.tools["pay"].side_effect is True and as_dict.tools["pay"].trust == "trusted"


# --- NumberArg's reasons have defaults ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "reason"),
    [
        ("lots", "invalid_number_type"),
        (math.inf, "invalid_number_type"),
        (0, "invalid_number"),
        (-3, "invalid_number"),
    ],
)
def test_number_arg_needs_only_its_argument(amount, reason):
    rules = ToolRules(number_args=[NumberArg(arg="amount")])
    policy = SupervisorPolicy.for_tools(["pay"], rules={"pay": rules})
    action = {"kind": "tool", "name": "pay", "args": {"amount": amount}}
    decision = review_action(action, ReviewContext(), policy)
    assert (decision.verdict, decision.reason) == ("block", reason)
    fine = review_action({**action, "args": {"amount": 5}}, ReviewContext(), policy)
    assert fine.verdict == "approve"


# --- a policy that allows none of its tools ------------------------------------------------------------


def test_a_policy_that_allows_none_of_the_tools_is_a_build_error():
    with pytest.raises(ValueError, match="allows none of the tools it is given"):
        build_graph(tools=demo_tools(), policy=SupervisorPolicy(max_seconds=5))
    build_graph(tools=demo_tools(), policy=demo_policy(max_seconds=5))  # the demo's rules fit


@settings(max_examples=30, deadline=None)
@given(
    registered=st.lists(st.sampled_from(TOOLS), min_size=1, unique=True),
    allowed=st.lists(st.sampled_from(TOOLS), unique=True),
)
def test_the_problem_is_named_exactly_when_no_registered_tool_is_allowed(registered, allowed):
    policy = SupervisorPolicy.for_tools(allowed) if allowed else SupervisorPolicy()
    problems = policy_problems(policy, dict.fromkeys(registered))
    named = any("allows none of the tools" in p for p in problems)
    assert named is not (set(registered) & set(allowed))
