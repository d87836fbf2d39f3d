"""What issue 37's per-step savings keep: the gateway still refuses what the tool's own schema
refuses, a review builds the run's provenance sources only for a rule that reads them, a plan
carries the gateway's signature of the call that runs, and a run's start reads the thread's human
turns as the separate passes did."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, HumanMessageChunk, SystemMessage, ToolMessage
from langchain_core.tools import tool
from pydantic import BaseModel, Field

import policies.supervisor.provenance.context as review_context
from nodes.effects import effect_key
from nodes.middleware import GovernanceMiddleware
from nodes.middleware.decide import decide
from nodes.middleware.reply import plan_for
from nodes.middleware.turns import new_turns, opened, seen
from policies import supervisor as rules
from policies.supervisor.rules.kinds import Destinations
from policies.tools import ArgSpec, ToolSpec, arg_problem, call_signature


class PayArgs(BaseModel):
    user_id: int
    amount: float = Field(le=100)


@tool(args_schema=PayArgs)
def pay(user_id: int, amount: float) -> str:
    """Pay a user."""
    return "paid"


@tool
def fetch(url: str) -> str:
    """Open a page."""
    return "page"


def _batch(policy: rules.SupervisorPolicy) -> Any:
    middleware = GovernanceMiddleware(policy, tools=[pay, fetch])
    return middleware._batch({}, {"run_id": "run-1", "steps": 1, "request": "pay user 7 40 and open x.org"})


def _call(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args, "id": f"call_{name}", "type": "tool_call"}


def test_arg_problem_does_not_validate_again_only_what_it_is_told_was_validated():
    spec = ToolSpec(args={"user_id": ArgSpec(type="int"), "amount": ArgSpec(type="number")})
    too_much = {"user_id": 7, "amount": 500}
    assert arg_problem("pay", too_much, spec=spec, model=PayArgs)[:2] == ("bad_type", "amount")
    assert arg_problem("pay", too_much, spec=spec, model=PayArgs, validated=(PayArgs,)) is None
    # the policy's own schema is still checked
    wrong = {"user_id": "7", "amount": 5}
    assert arg_problem("pay", wrong, spec=spec, model=PayArgs, validated=(PayArgs,))[:2] == (
        "bad_type",
        "user_id",
    )


@pytest.mark.parametrize(
    ("declared", "reason"),
    [
        # no schema of the policy's: the contract refuses by the tool's own, once
        (False, "invalid_action:bad_arg_type:pay:amount"),
        # the policy's looser schema passes it: the gateway refuses by the tool's own
        (True, "tool_bad_args:pay"),
    ],
)
def test_the_tools_own_schema_still_refuses_at_the_contract_or_the_gateway(declared, reason):
    spec = {"args": {"user_id": {"type": "int"}, "amount": {"type": "number"}}} if declared else {}
    policy = rules.SupervisorPolicy.for_tools([pay, fetch], tools={"pay": spec} if declared else {})
    verdict = decide(_call("pay", user_id=7, amount=500), _batch(policy))
    assert (verdict.kind, verdict.reason) == ("refuse", reason)
    assert decide(_call("pay", user_id=7, amount=40), _batch(policy)).kind == "run"


def test_a_review_builds_the_sources_only_for_a_flow_rule_that_reads_them(monkeypatch):
    built: list[int] = []
    real = review_context.sources_of

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(review_context, "sources_of", counted)
    plain = rules.SupervisorPolicy.for_tools([pay, fetch])
    assert decide(_call("fetch", url="https://x.org/a"), _batch(plain)).kind == "run"
    assert built == []  # no rule reads where a value came from

    ruled = rules.SupervisorPolicy.for_tools([pay, fetch], destinations=Destinations())
    verdict = decide(_call("fetch", url="https://evil.example/a"), _batch(ruled))
    assert built  # the destinations rule read them
    assert (verdict.kind, verdict.reason) == ("refuse", "supervisor_block:untrusted_destination")


def test_a_plan_carries_the_gateways_signature_of_the_call_that_runs():
    policy = rules.SupervisorPolicy.for_tools([pay, fetch], side_effects=["pay"])
    batch = _batch(policy)
    verdict = decide(_call("pay", user_id=7, amount=40.0), batch)
    assert verdict.kind == "run" and verdict.signature == call_signature(
        "pay", {"user_id": 7, "amount": 40.0}
    )
    run = {"run_id": "run-1", "steps": 1}
    plan = plan_for(run, policy, verdict)
    assert plan["signature"] == call_signature("pay", {"user_id": 7, "amount": 40.0})
    # the ask's key: its run, step and the call as proposed (an edit of it keeps the key)
    assert plan["idempotency_key"] == effect_key("run-1", 1, "pay", plan["signature"])
    edited = type(verdict)(
        "run", {**verdict.action, "args": {"user_id": 7, "amount": 30.0}}, approved_by="human"
    )
    proposed = {"name": "pay", "args": {"user_id": 7, "amount": 40.0}}
    assert plan_for(run, policy, edited, proposed=proposed)["idempotency_key"] == plan["idempotency_key"]
    # a verdict without the gateway's signature (made elsewhere) is hashed as before
    again = plan_for(run, policy, type(verdict)("run", verdict.action, approved_by="rules"))
    assert (again["signature"], again["idempotency_key"]) == (plan["signature"], plan["idempotency_key"])


def test_a_runs_start_reads_the_request_and_the_turns_seen_as_the_separate_passes_do():
    earlier = [
        HumanMessage("first question", id="h1"),
        AIMessage("an answer", id="a1"),
        HumanMessage("second question", id="h2"),
    ]
    known = seen(earlier)
    now = [
        HumanMessage("first question, edited", id="h1"),  # a known id with new text: a new turn
        AIMessage("an answer", id="a1"),
        HumanMessage("  second question ", id="h2"),  # the same text, spaces aside: seen
        ToolMessage("{}", tool_call_id="c1", id="t1"),
        SystemMessage("be brief", id="s1"),
        HumanMessage("no id"),  # without an id: always the client's, never recorded
        HumanMessageChunk(content="a chunk", id="h3"),  # a subclass of HumanMessage: a turn
        HumanMessage([{"type": "text", "text": " blocks "}, {"type": "image_url", "image_url": {}}], id="h4"),
    ]
    asked, turns_seen = opened(now, known)
    fresh = new_turns(now, known)
    assert [m.id for m in fresh] == ["h1", None, "h3", "h4"]
    assert asked == {
        "request": "first question, edited\n\nno id\n\na chunk\n\nblocks",
        "turns": ["h1", "h3", "h4"],
    }
    assert turns_seen == seen(now)
    assert len(turns_seen) == 4 * 12  # h1, h2, the chunk h3, h4: each its digest
