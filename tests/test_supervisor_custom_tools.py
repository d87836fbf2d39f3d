"""A user puts their own tools and supervisor rules behind the same gateway (no refund demo)."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from graphs.supervisor import build_graph
from policies.decision import Decision
from policies.supervisor import (
    ArgDefault,
    Precondition,
    RunCap,
    SupervisorPolicy,
    Threshold,
    ToolRules,
)
from policies.tools import ToolSpec
from tests.helpers import arg_specs, gateway_rows, llm_rows, scripted, thread


class Cloud:
    """A user's own tools: inspect a cluster, scale it, grant credits (side effects recorded)."""

    def __init__(self):
        self.scaled: dict[str, dict] = {}
        self.credits: dict[str, dict] = {}

    def describe_cluster(self, cluster: str) -> dict:
        return {"cluster": cluster, "nodes": 4, "env": "prod" if cluster.startswith("prod") else "dev"}

    def scale_cluster(self, cluster: str, nodes: int, note: str, *, idempotency_key: str) -> dict:
        self.scaled.setdefault(idempotency_key, {"cluster": cluster, "nodes": nodes, "note": note})
        return {"ok": True, **self.scaled[idempotency_key]}

    def grant_credit(self, account: str, usd: float, *, idempotency_key: str) -> dict:
        self.credits.setdefault(idempotency_key, {"account": account, "usd": usd})
        return {"granted": usd}

    def registry(self):
        return {
            "describe_cluster": self.describe_cluster,
            "scale_cluster": self.scale_cluster,
            "grant_credit": self.grant_credit,
        }


def no_prod_scale_down(action, context):
    """A custom rule: never scale a production cluster below 3 nodes."""
    args = action["args"]
    if args["cluster"].startswith("prod") and args["nodes"] < 3:
        return Decision("block", "prod_min_nodes")
    return None


# These tests check where each rule ends a run: refusals stop it (the neutral default feeds them back).
POLICY = SupervisorPolicy(
    on_refusal="stop",
    on_tool_error="stop",
    max_tool_calls=6,
    tools={
        "describe_cluster": ToolSpec(args=arg_specs(cluster="str")),
        "scale_cluster": ToolSpec(args=arg_specs(cluster="str", nodes="int", note="str?"), side_effect=True),
        "grant_credit": ToolSpec(args=arg_specs(account="str", usd="number"), side_effect=True),
    },
    allowed_tools=["describe_cluster", "scale_cluster", "grant_credit"],
    per_tool_limits={},
    repeat_limits={},
    final_requires_tools=["describe_cluster"],
    rules={
        "describe_cluster": ToolRules(read_only=True, approve_reason="read_only"),
        "scale_cluster": ToolRules(
            approve_reason="small_scale_change",
            preconditions=[Precondition(tool="describe_cluster", reason="describe_before_scaling")],
            defaults=[ArgDefault(arg="note", value="scaled by agent", reason="note_required")],
            custom=["no_prod_scale_down"],
            escalate_above=[Threshold(arg="nodes", limit=10, reason="large_scale_needs_human")],
        ),
        "grant_credit": ToolRules(
            approve_reason="credit_ok",
            run_cap=RunCap(
                arg="usd", limit=100, exhausted_reason="credit_budget_spent", revise_reason="credit_capped"
            ),
        ),
    },
)
DESCRIBE = {"kind": "tool", "name": "describe_cluster", "args": {"cluster": "prod-eu"}}


def _graph(*replies, cloud):
    return build_graph(
        llm=scripted(*replies),
        policy=POLICY,
        checkpointer=InMemorySaver(),
        tools=cloud.registry(),
        custom_rules={"no_prod_scale_down": no_prod_scale_down},
    )


def scale(nodes, cluster="prod-eu"):
    return {"kind": "tool", "name": "scale_cluster", "args": {"cluster": cluster, "nodes": nodes}}


def credit(usd):
    return {"kind": "tool", "name": "grant_credit", "args": {"account": "acme", "usd": usd}}


def test_own_tools_and_rules_run_end_to_end():
    cloud = Cloud()
    final = {"kind": "final", "answer": "Scaled prod-eu to 6 nodes and granted credits."}
    graph = _graph(DESCRIBE, scale(6), credit(70), credit(50), final, cloud=cloud)
    out = graph.invoke({"goal": "Scale prod-eu to 6 nodes and credit acme 120 USD."}, thread())
    assert out["status"] == "ok"
    [scaled] = cloud.scaled.values()
    assert scaled == {"cluster": "prod-eu", "nodes": 6, "note": "scaled by agent"}  # default revised in
    assert sorted(c["usd"] for c in cloud.credits.values()) == [30, 70]  # capped to what was left
    assert len(llm_rows(out["trace"])) == 5  # one worker call per action
    assert [r.get("executed_from") for r in gateway_rows(out["trace"])] == [
        "original",
        "supervisor_revised",
        "original",
        "supervisor_revised",
        "original",
    ]


def test_own_precondition_custom_rule_threshold_and_cap():
    cloud = Cloud()
    out = _graph(scale(6), cloud=cloud).invoke({"goal": "scale"}, thread())
    assert out["stop_reason"] == "supervisor_block:describe_before_scaling"
    out = _graph(DESCRIBE, scale(2), cloud=cloud).invoke({"goal": "scale"}, thread())
    assert out["stop_reason"] == "supervisor_block:prod_min_nodes"
    out = _graph(DESCRIBE, credit(100), credit(1), cloud=cloud).invoke({"goal": "credit"}, thread())
    assert out["stop_reason"] == "supervisor_block:credit_budget_spent"
    assert not cloud.scaled

    graph = _graph(DESCRIBE, scale(20), {"kind": "final", "answer": "Scaled to 12."}, cloud=cloud)
    config = thread()
    paused = graph.invoke({"goal": "scale"}, config)
    request = paused["__interrupt__"][0].value
    assert request["reason"] == "large_scale_needs_human"
    assert request["action"]["args"] == {"cluster": "prod-eu", "nodes": 20, "note": "scaled by agent"}
    edit = {"type": "edit", "edited_action": {"name": "scale_cluster", "args": {"nodes": 12}}}
    done = graph.invoke(Command(resume=edit), config)
    assert done["status"] == "ok"
    assert [s["nodes"] for s in cloud.scaled.values()] == [12]


def test_unknown_tool_for_supervisor_and_final_rule():
    cloud = Cloud()
    policy = POLICY.model_copy(
        update={"rules": {k: v for k, v in POLICY.rules.items() if k != "grant_credit"}}
    )
    # an allowed tool without rules would be blocked on every call: an error when the graph is built
    with pytest.raises(ValueError, match="'grant_credit' is allowed but has no rules"):
        build_graph(
            llm=scripted(DESCRIBE, credit(5)),
            policy=policy,
            tools=cloud.registry(),
            custom_rules={"no_prod_scale_down": no_prod_scale_down},
        )
    # a run-time policy (Studio's context) without them still meets the supervisor's block
    graph = _graph(DESCRIBE, credit(5), cloud=cloud)
    out = graph.invoke({"goal": "credit"}, thread(), context=policy)
    assert out["stop_reason"] == "supervisor_block:unknown_tool_for_supervisor:grant_credit"
    out = _graph({"kind": "final", "answer": "done"}, cloud=cloud).invoke({"goal": "x"}, thread())
    assert out["stop_reason"] == "supervisor_block:final_requires_context"


def test_a_custom_rule_that_keeps_revising_is_bounded():
    cloud = Cloud()

    def bump(action, context):
        args = action["args"]
        return Decision(
            "revise", "bump_note", {"action": {**action, "args": {**args, "note": args["note"] + "!"}}}
        )

    rules = POLICY.rules["scale_cluster"].model_copy(update={"custom": ["bump"]})
    policy = POLICY.model_copy(update={"rules": {**POLICY.rules, "scale_cluster": rules}})
    graph = build_graph(
        llm=scripted(DESCRIBE, scale(4)),
        policy=policy,
        checkpointer=InMemorySaver(),
        tools=cloud.registry(),
        custom_rules={"bump": bump},
    )
    out = graph.invoke({"goal": "scale"}, thread())
    assert out["stop_reason"] == "supervisor_block:revision_limit"
    assert [r["reason"] for r in out["reviews"]] == ["note_required", "bump_note", "bump_note", "bump_note"]
    assert not cloud.scaled
