"""The tool gateway's execution half: call a registered tool that ``policies.tools.check_call``
allowed, and map whatever happens to an observation or a named stop reason. Never raises."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from policies.json_safety import error_text, plain_copy
from policies.tools import check_result

#: A tool registry: tool name → callable taking the tool's arguments as keywords.
ToolRegistry = Mapping[str, Callable[..., Any]]


@dataclass(frozen=True)
class ToolOutcome:
    """``ok`` with ``result`` (which may be an error entry: ``error`` True), or a stop ``reason``."""

    ok: bool
    result: Any = None
    reason: str = ""
    error: bool = False
    detail: dict[str, Any] = field(default_factory=dict)


def run_tool(
    registry: ToolRegistry,
    name: str,
    args: Mapping[str, Any],
    *,
    idempotency_key: str | None = None,
) -> ToolOutcome:
    """Call ``registry[name](**args)``; side-effecting tools also get ``idempotency_key``.

    A missing tool → ``tool_missing:<name>``; an exception → ``tool_error:<name>``; a result that
    is not plain JSON data (see :func:`policies.json_safety.json_problem`) or not an object →
    ``tool_bad_result:<name>``. An object with an ``error`` key is a valid
    observation with ``error`` set: the pattern decides what an error entry means.
    """
    fn = registry.get(name)
    if fn is None:
        return ToolOutcome(False, reason=f"tool_missing:{name}")
    kwargs = dict(args)
    if idempotency_key is not None:
        kwargs["idempotency_key"] = idempotency_key
    try:
        result = fn(**kwargs)
    except Exception as exc:
        return ToolOutcome(False, reason=f"tool_error:{name}", detail={"error": error_text(exc)})
    try:
        checked = check_result(name, result)
    except Exception as exc:  # pragma: no cover - check_result reads no code of the result's own
        return ToolOutcome(False, reason=f"tool_bad_result:{name}", detail={"error": error_text(exc)})
    if checked.verdict == "stop":
        return ToolOutcome(False, reason=checked.reason, detail=checked.details)
    # a copy: the tool may keep and later change the object it returned; the run keeps what was checked
    return ToolOutcome(True, result=plain_copy(result), error=checked.verdict == "error")
