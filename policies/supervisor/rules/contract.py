"""The worker's action contract: a reply validated as an action (:func:`validate_action`), and
which stop reasons are refusals of one action that the worker may be told of (:func:`is_refusal`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from policies.decision import Decision
from policies.schemas import ArgsModel
from policies.supervisor.rules.policy import SupervisorPolicy
from policies.tools import arg_problem

#: Refusals of one well-formed action (by the argument checks, the gateway, the supervisor or a
#: human), which ``on_refusal: feedback`` gives back to the worker. A malformed reply and a spent
#: budget end the run whatever the policy says.
_REFUSALS = (
    "invalid_action:unknown_tool:",
    "invalid_action:extra_tool_args:",
    "invalid_action:missing_required_arg:",
    "invalid_action:bad_arg_type:",
    "supervisor_block:",
    "human_rejected",
    "approval_expired",
    "tool_denied:",
    "tool_missing:",
    "tool_bad_args:",
    "loop_detected:",
)


def is_refusal(reason: str) -> bool:
    """Is ``reason`` the refusal of one action (which the worker can be told of and go on)?"""
    return reason.startswith(_REFUSALS)


def validate_action(
    raw: Any, policy: SupervisorPolicy, models: Mapping[str, ArgsModel | None] | None = None
) -> Decision:
    """The worker's reply against the action contract; a tool's arguments against the policy's
    schema for it, or else the tool's own (``models``). On success ``details["action"]`` is the action:
    ``{"kind": "tool", "name", "args"}`` or ``{"kind": "final", "answer"}``."""
    models = models or {}
    if not isinstance(raw, dict):
        return Decision.stop("invalid_action:not_object")
    kind = raw.get("kind")
    if kind == "final":
        if set(raw) - {"kind", "answer"}:
            return Decision.stop("invalid_action:extra_keys_final")
        answer = raw.get("answer")
        if not isinstance(answer, str) or not answer.strip():
            return Decision.stop("invalid_action:bad_final_answer")
        return Decision.allow(action={"kind": "final", "answer": answer.strip()})
    if kind != "tool":
        return Decision.stop("invalid_action:bad_kind")
    if set(raw) - {"kind", "name", "args"}:
        return Decision.stop("invalid_action:extra_keys_tool")
    name, args = raw.get("name"), raw.get("args")
    if not isinstance(name, str) or not name.strip():
        return Decision.stop("invalid_action:bad_tool_name")
    if not isinstance(args, dict):
        return Decision.stop("invalid_action:bad_tool_args")
    if name not in policy.tools and name not in models:
        return Decision.stop(f"invalid_action:unknown_tool:{name}")
    spec = policy.tools.get(name)
    # the policy's schema, where it declares one, says what the worker may propose (a rule may
    # still add an argument, such as a default); the gateway checks the tool's own before the call
    declared = spec is not None and spec.json_schema() is not None
    problem = arg_problem(name, args, spec=spec, model=None if declared else models.get(name))
    if problem is not None:
        kind_, arg, detail = problem
        if kind_ == "extra":  # the argument, and those the tool takes (an edit's typo is fixed at once)
            return Decision.stop(
                f"invalid_action:extra_tool_args:{name}", arg=arg, problem=f"{arg!r} is {detail}"
            )
        if kind_ == "missing":
            return Decision.stop(f"invalid_action:missing_required_arg:{name}:{arg}")
        return Decision.stop(f"invalid_action:bad_arg_type:{name}:{arg}", problem=detail)
    return Decision.allow(action={"kind": "tool", "name": name, "args": dict(args)})
