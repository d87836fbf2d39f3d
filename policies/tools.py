"""The tool gateway's pure rules, shared by every pattern that calls tools (Supervisor, Task
Decomposition): argument schemas, the allowlist (deny by default), the per-run call budget,
per-tool limits, loop detection on normalised ``(tool, args)`` signatures, and result checks.

Nothing here executes a tool: ``nodes.tool_gateway`` does that, after these checks allowed it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, TypeGuard

from pydantic import BaseModel, ConfigDict, Field

from policies.decision import Decision
from policies.json_safety import json_problem, type_name
from policies.text import json_hash, normalize_ws

ArgType = Literal["int", "number", "str", "bool", "object", "list"]


class ArgSpec(BaseModel):
    """One argument of a tool: its JSON type and whether it must be given."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: ArgType = Field(
        description="JSON type: int, number (finite int or float), str, bool, object, list."
    )
    required: bool = Field(True, description="Whether the argument must be present.")


class ToolSpec(BaseModel):
    """A tool's contract as the gateway sees it. No argument outside ``args`` is accepted."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    args: dict[str, ArgSpec] = Field(default_factory=dict, description="Argument schema by name.")
    side_effect: bool = Field(
        False,
        description="Performs an action (not read-only): called with an ``idempotency_key`` so that it "
        "runs at most once per approved action, also on resume and replay.",
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> TypeGuard[int | float]:
    """A real, finite number. Booleans are not numbers; NaN and infinities are not finite."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def type_ok(value: Any, kind: ArgType) -> bool:
    if kind == "int":
        return _is_int(value)
    if kind == "number":
        return is_number(value)
    if kind == "str":
        return isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, dict)
    return isinstance(value, list)


def arg_problem(spec: ToolSpec, args: Mapping[str, Any]) -> tuple[str, str] | None:
    """The first problem of ``args`` against ``spec``: ``("extra" | "missing" | "bad_type", arg)``,
    or None when they fit. Extra arguments are reported first, then missing, then bad types."""
    for name in args:
        if name not in spec.args:
            return ("extra", str(name))
    for name, arg in spec.args.items():
        if arg.required and name not in args:
            return ("missing", name)
    for name, value in args.items():
        if not type_ok(value, spec.args[name].type):
            return ("bad_type", name)
    return None


def normalize_value(value: Any) -> Any:
    """A value in canonical form for signatures: integral floats as ints, strings trimmed with
    whitespace collapsed, containers normalised recursively (key order does not matter)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        return normalize_ws(value)
    if isinstance(value, dict):
        return {str(k): normalize_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [normalize_value(v) for v in value]
    return value


def call_signature(tool: str, args: Mapping[str, Any]) -> str:
    """Hash of the normalised ``(tool, args)``: equal for calls that only differ in formatting."""
    return json_hash({"tool": tool, "args": normalize_value(dict(args))})


def idempotency_key(run_id: str, step: int, tool: str, args: Mapping[str, Any]) -> str:
    """The key of one approved action in one run: the same on resume, retry and replay."""
    return f"{tool}:{json_hash({'run': run_id, 'step': step, 'call': call_signature(tool, args)})}"


class GatewayLimits(BaseModel):
    """Budgets and limits of the gateway; each pattern's policy builds one from its fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_tool_calls: int = Field(ge=0, description="Most tool calls one run may make.")
    allowed_tools: list[str] = Field(description="Execution allowlist; anything else is denied.")
    per_tool_limits: dict[str, int] = Field(default_factory=dict, description="Most calls per tool.")
    default_per_tool_limit: int | None = Field(None, description="Per-tool limit for unlisted tools.")
    repeat_limits: dict[str, int] = Field(
        default_factory=dict, description="Most identical (same normalised args) calls per tool."
    )
    default_repeat_limit: int = Field(1, ge=1, description="Identical calls allowed for unlisted tools.")
    detailed_loop_reasons: bool = Field(
        True,
        description="Stop with loop_detected:per_tool_limit / :signature_repeat (else loop_detected).",
    )


def check_call(
    tool: Any,
    args: Any,
    *,
    limits: GatewayLimits,
    specs: Mapping[str, ToolSpec],
    registered: Iterable[str],
    past_calls: Sequence[Mapping[str, Any]],
) -> Decision:
    """May ``tool(**args)`` run now? ``past_calls`` are the run's executed calls (``tool`` and
    ``signature`` keys). Order: budget, allowlist, registry, per-tool limit, repeats, arguments.
    On success ``details`` holds the call's ``signature``."""
    name = tool if isinstance(tool, str) else repr(tool)
    if len(past_calls) >= limits.max_tool_calls:
        return Decision.stop("max_tool_calls", calls=len(past_calls))
    if name not in limits.allowed_tools:
        return Decision.stop(f"tool_denied:{name}")
    if name not in set(registered):
        return Decision.stop(f"tool_missing:{name}")
    if not isinstance(args, dict):
        return Decision.stop(f"tool_bad_args:{name}", problem="not_object")
    signature = call_signature(name, args)
    per_tool = Counter(str(c.get("tool")) for c in past_calls)
    limit = limits.per_tool_limits.get(name, limits.default_per_tool_limit)
    if limit is not None and per_tool[name] >= limit:
        reason = "loop_detected:per_tool_limit" if limits.detailed_loop_reasons else "loop_detected"
        return Decision.stop(reason, tool=name, calls=per_tool[name], limit=limit)
    repeats = sum(1 for c in past_calls if c.get("signature") == signature)
    if repeats >= limits.repeat_limits.get(name, limits.default_repeat_limit):
        reason = "loop_detected:signature_repeat" if limits.detailed_loop_reasons else "loop_detected"
        return Decision.stop(reason, tool=name, signature=signature, repeats=repeats)
    spec = specs.get(name)
    if spec is None:
        return Decision.stop(f"tool_bad_args:{name}", problem="no_schema")
    problem = arg_problem(spec, args)
    if problem is not None:
        return Decision.stop(f"tool_bad_args:{name}", problem=problem[0], arg=problem[1])
    return Decision.allow("tool_allowed", signature=signature)


def check_result(tool: str, result: Any) -> Decision:
    """A tool's result must be a JSON object the run can keep: plain JSON data only (see
    :func:`policies.json_safety.json_problem`, checked first: it runs none of the value's own
    code); an ``error`` key marks an error observation."""
    problem = json_problem(result)
    if problem is not None:
        return Decision.stop(f"tool_bad_result:{tool}", problem=problem)
    if type(result) is not dict:
        return Decision.stop(f"tool_bad_result:{tool}", result_type=type_name(result))
    if "error" in result:
        return Decision("error", str(result.get("error")), {"result": result})
    return Decision.allow("tool_ok")


def is_error_observation(result: Any) -> bool:
    return isinstance(result, dict) and "error" in result
