"""Task Decomposition: the policy, the plan contract, and the final answer's grounding check."""

from __future__ import annotations

from typing import Any, TypeGuard

from pydantic import Field

from policies.base import BasePolicy
from policies.decision import Decision
from policies.grounding import ungrounded_numbers
from policies.tools import ArgSpec, GatewayLimits, ToolSpec

DEMO_TOOLS = (
    "get_manager_profile",
    "fetch_sales_data",
    "fetch_refund_data",
    "calculate_monthly_kpis",
    "detect_risk_signals",
)
PLAN_KEYS = frozenset({"kind", "steps"})
STEP_KEYS = frozenset({"id", "title", "tool", "args"})
MIN_PLAN_STEPS = 3


def _demo_specs() -> dict[str, ToolSpec]:
    month = {"month": ArgSpec(type="str")}
    specs = {name: ToolSpec(args=month) for name in DEMO_TOOLS[1:]}
    return {"get_manager_profile": ToolSpec(args={"manager_id": ArgSpec(type="int")}), **specs}


class TaskDecompositionPolicy(BasePolicy):
    """Budgets, the plan allowlist and the tools' argument schemas (defaults from the spec)."""

    max_seconds: float = Field(60.0, gt=0, description="Wall-clock budget for the whole run.")
    max_plan_steps: int = Field(6, ge=MIN_PLAN_STEPS, description="Longest plan accepted.")
    max_execute_steps: int = Field(8, ge=1, description="Most plan steps executed in one run.")
    max_tool_calls: int = Field(8, ge=0, description="Most tool calls in one run.")
    allowed_tools: list[str] = Field(
        default_factory=lambda: list(DEMO_TOOLS), description="Tools a plan may use (deny by default)."
    )
    execution_allowed_tools: list[str] | None = Field(
        None,
        description="What this runtime may execute now; None: the same as allowed_tools. Can be "
        "stricter than policy: a plan step outside it stops with tool_denied at execution.",
    )
    tools: dict[str, ToolSpec] = Field(
        default_factory=_demo_specs, description="Argument schemas of the tools."
    )
    max_answer_chars: int = Field(1500, ge=1, description="Longest final summary accepted.")

    def gateway_limits(self) -> GatewayLimits:
        allowed = self.allowed_tools if self.execution_allowed_tools is None else self.execution_allowed_tools
        return GatewayLimits(
            max_tool_calls=self.max_tool_calls,
            allowed_tools=[t for t in allowed if t in self.allowed_tools],
            default_per_tool_limit=None,
            default_repeat_limit=1,
            detailed_loop_reasons=False,
        )


def _nonblank(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and bool(value.strip())


def _check_step(i: int, step: Any, seen: set[str], policy: TaskDecompositionPolicy) -> Decision | dict:
    if not isinstance(step, dict):
        return Decision.stop(f"invalid_plan:step_{i}_not_object")
    if set(step) - STEP_KEYS:
        return Decision.stop(f"invalid_plan:step_{i}_extra_keys", extra=sorted(set(step) - STEP_KEYS))
    step_id = step.get("id")
    if not _nonblank(step_id):
        return Decision.stop(f"invalid_plan:step_{i}_missing_id")
    if step_id.strip() in seen:
        return Decision.stop("invalid_plan:duplicate_step_id", step_id=step_id.strip())
    if not _nonblank(step.get("title")):
        return Decision.stop(f"invalid_plan:step_{i}_missing_title")
    tool = step.get("tool")
    if not _nonblank(tool):
        return Decision.stop(f"invalid_plan:step_{i}_missing_tool")
    if tool not in policy.allowed_tools:
        return Decision.stop(f"invalid_plan:tool_not_allowed:{tool}")
    if not isinstance(step.get("args"), dict):
        return Decision.stop(f"invalid_plan:step_{i}_bad_args")
    return {"id": step_id.strip(), "title": step["title"].strip(), "tool": tool, "args": dict(step["args"])}


def validate_plan(raw: Any, policy: TaskDecompositionPolicy) -> Decision:
    """The planner's reply against the plan contract and the allowlist. On success
    ``details["steps"]`` is the normalised plan. Step numbers in reasons count from 1."""
    if not isinstance(raw, dict):
        return Decision.stop("invalid_plan:not_object")
    if raw.get("kind") != "plan":
        return Decision.stop("invalid_plan:bad_kind")
    if set(raw) - PLAN_KEYS:
        return Decision.stop("invalid_plan:extra_keys", extra=sorted(set(raw) - PLAN_KEYS))
    steps = raw.get("steps")
    if not isinstance(steps, list):
        return Decision.stop("invalid_plan:missing_steps")
    if len(steps) < MIN_PLAN_STEPS:
        return Decision.stop("invalid_plan:min_steps", count=len(steps))
    if len(steps) > policy.max_plan_steps:
        return Decision.stop("invalid_plan:max_steps", count=len(steps))
    clean: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, step in enumerate(steps, start=1):
        checked = _check_step(i, step, seen, policy)
        if isinstance(checked, Decision):
            return checked
        seen.add(checked["id"])
        clean.append(checked)
    if len(clean) > policy.max_execute_steps:
        return Decision.stop("max_execute_steps", count=len(clean))
    return Decision.allow(steps=clean)


def validate_answer(answer: str, observations: Any, policy: TaskDecompositionPolicy) -> Decision:
    """The final summary: not empty, not too long, and every number derivable from the
    observations (formatting such as ``$28,195``, ``28,195.00 USD`` and ``4.86%`` allowed)."""
    if not answer.strip():
        return Decision.stop("llm_empty")
    if len(answer) > policy.max_answer_chars:
        return Decision.stop("invalid_answer:too_long", chars=len(answer))
    missing = ungrounded_numbers(answer, observations)
    if missing:
        return Decision.stop("invalid_answer:ungrounded_numbers", ungrounded_numbers=missing)
    return Decision.allow(chars=len(answer))
