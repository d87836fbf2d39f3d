"""The human's answer to an escalation, in the vocabulary of LangChain's HITL middleware."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from policies.json_safety import json_problem

HumanVerdict = Literal["approve", "edit", "reject"]
HUMAN_VERDICTS: tuple[HumanVerdict, ...] = ("approve", "edit", "reject")


@dataclass(frozen=True)
class HumanAnswer:
    """A parsed resume value: ``type`` plus, for ``edit``, the edited fields."""

    type: HumanVerdict
    edits: dict[str, Any] = field(default_factory=dict)
    message: str = ""


def parse_human_answer(value: Any, *, allowed: tuple[str, ...] = HUMAN_VERDICTS) -> HumanAnswer | None:
    """Read a resume value such as ``{"type": "approve"}``, ``{"type": "edit", "answer": "..."}``
    or ``{"type": "reject", "message": "..."}``. A bare string ``"approve"`` is accepted too, and so
    is the middleware's wrapper ``{"decisions": [<one decision>]}``.

    Returns None when the value is not a valid answer (the caller stops the run with a named
    reason instead of guessing), also when it holds what the run could not keep (see
    :func:`policies.json_safety.json_problem`).
    """
    if json_problem(value) is not None:
        return None
    if isinstance(value, dict) and set(value) == {"decisions"}:
        # HumanInTheLoopMiddleware's resume shape: {"decisions": [one decision]}
        decisions = value["decisions"]
        if not isinstance(decisions, list) or len(decisions) != 1:
            return None
        value = decisions[0]
    if isinstance(value, str):
        value = {"type": value}
    if not isinstance(value, dict):
        return None
    kind = value.get("type")
    if not isinstance(kind, str) or kind.strip().lower() not in allowed:
        return None
    kind = kind.strip().lower()
    message = value.get("message", "")
    if not isinstance(message, str):
        return None
    edits = {k: v for k, v in value.items() if k not in ("type", "message")}
    if kind == "edit" and not edits:
        return None
    return HumanAnswer(type=kind, edits=edits, message=message)  # type: ignore[arg-type]
