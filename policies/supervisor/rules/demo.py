"""The refund demo of the spec: its three tools' schemas and rules, and :func:`demo_policy`, one
instance of :meth:`SupervisorPolicy.for_tools`."""

from __future__ import annotations

from typing import Any

from policies.supervisor.rules.kinds import ArgDefault, NumberArg, Precondition, RunCap, Threshold, ToolRules
from policies.supervisor.rules.policy import SupervisorPolicy
from policies.tools import ArgSpec, ToolSpec

CONTEXT_TOOL, REFUND_TOOL, EMAIL_TOOL = "get_refund_context", "issue_refund", "send_refund_email"
DEMO_TOOLS = (CONTEXT_TOOL, REFUND_TOOL, EMAIL_TOOL)


def _demo_specs() -> dict[str, ToolSpec]:
    return {
        CONTEXT_TOOL: ToolSpec(args={"user_id": ArgSpec(type="int")}),
        REFUND_TOOL: ToolSpec(
            args={
                "user_id": ArgSpec(type="int"),
                "amount_usd": ArgSpec(type="number"),
                "reason": ArgSpec(type="str", required=False),
            },
            side_effect=True,
        ),
        EMAIL_TOOL: ToolSpec(
            args={
                "user_id": ArgSpec(type="int"),
                "amount_usd": ArgSpec(type="number"),
                "message": ArgSpec(type="str"),
            },
            side_effect=True,
        ),
    }


def _demo_rules() -> dict[str, ToolRules]:
    return {
        CONTEXT_TOOL: ToolRules(bound_args=["user_id"], read_only=True, approve_reason="read_only_context"),
        REFUND_TOOL: ToolRules(
            bound_args=["user_id"],
            approve_reason="refund_within_auto_limit",
            number_args=[
                NumberArg(
                    arg="amount_usd",
                    type_reason="invalid_refund_amount_type",
                    positive_reason="invalid_refund_amount",
                    decimals=2,
                    rounding_reason="refund_amount_rounded_to_cents",
                )
            ],
            run_cap=RunCap(
                arg="amount_usd",
                limit=2000.0,
                exhausted_reason="refund_budget_exhausted",
                revise_reason="cap_to_remaining_run_budget",
            ),
            defaults=[
                ArgDefault(
                    arg="reason",
                    value="Customer refund request reviewed under supervisor policy",
                    reason="refund_reason_required",
                )
            ],
            escalate_above=[
                Threshold(
                    arg="amount_usd", limit=1000.0, reason="high_refund_requires_human", cumulative=True
                )
            ],
        ),
        EMAIL_TOOL: ToolRules(
            bound_args=["user_id"],
            approve_reason="email_after_refund",
            preconditions=[
                Precondition(
                    tool=REFUND_TOOL, reason="email_before_refund", match_args=["user_id", "amount_usd"]
                )
            ],
        ),
    }


def demo_policy(**fields: Any) -> SupervisorPolicy:
    """The refund demo's policy (the spec's defaults), with ``fields`` over it: one instance of
    :meth:`SupervisorPolicy.for_tools`. A refusal ends the run and so does a raising tool, as the
    spec says."""
    defaults: dict[str, Any] = {
        "tools": _demo_specs(),
        "side_effects": [REFUND_TOOL, EMAIL_TOOL],
        "max_steps": 8,
        "max_tool_calls": 5,
        "per_tool_limits": {CONTEXT_TOOL: 3, REFUND_TOOL: 2, EMAIL_TOOL: 2},
        "default_per_tool_limit": 2,
        "repeat_limits": {CONTEXT_TOOL: 2},
        "final_requires_tools": [CONTEXT_TOOL],
        "on_refusal": "stop",
        "on_tool_error": "stop",
    }
    settings = {**defaults, **fields}
    rules = settings.pop("rules") if "rules" in settings else _demo_rules()
    return SupervisorPolicy.for_tools(DEMO_TOOLS, rules=rules, **settings)
