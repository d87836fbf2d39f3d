"""The human's answer to an escalation, in the vocabulary of LangChain's HITL middleware, read as
chat front ends send it (``shared/spec/chat-clients.md`` §3): one decision per request, and an edit's
touched fields as a form sends them (text, read against the tool's schema by :func:`form_value`)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Literal

from policies.json_safety import json_problem

HumanVerdict = Literal["approve", "edit", "reject", "respond"]
HUMAN_VERDICTS: tuple[HumanVerdict, ...] = ("approve", "edit", "reject")
#: LangChain's HITL ``respond``: the reviewer's text stands in for the tool's result (the tool does
#: not run). Only where the caller can honour it (``allowed``); elsewhere it is asked again.
RESPOND: HumanVerdict = "respond"


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
    if kind == RESPOND and not message.strip():
        return None
    return HumanAnswer(type=kind, edits=edits, message=message)  # type: ignore[arg-type]


def answer_problem(value: Any, *, allowed: tuple[str, ...] = HUMAN_VERDICTS) -> str:
    """Why ``value`` is not an answer :func:`parse_human_answer` takes (for the reviewer, in the
    request asked again): one sentence naming what to send instead."""
    offered = ", ".join(allowed)
    if json_problem(value) is not None:
        return f"not an answer: it holds what cannot be kept ({json_problem(value)}); answer {offered}"
    if isinstance(value, dict) and set(value) == {"decisions"}:
        decisions = value["decisions"]
        if not isinstance(decisions, list) or len(decisions) != 1:
            count = len(decisions) if isinstance(decisions, list) else "no list"
            return f"send exactly one decision per request (got {count})"
        value = decisions[0]
    if isinstance(value, str):
        value = {"type": value}
    kind = value.get("type") if isinstance(value, dict) else None
    kind = kind.strip().lower() if isinstance(kind, str) else kind
    if kind == RESPOND and kind not in allowed:
        return f"respond is not offered here (the tool's result cannot be stood in for): answer {offered}"
    if not isinstance(kind, str) or kind not in allowed:
        return f"not an answer: the decision's type must be one of {offered}"
    if not isinstance(value.get("message", ""), str):
        return "the decision's message must be text"
    if kind == "edit":
        return "an edit needs edited_action with the tool's name and its args"
    if kind == RESPOND:
        return "respond needs a non-empty message: the text that stands in for the tool's result"
    return "not an answer"


#: What :func:`form_value` returns for a text that does not read as a value of another type.
NOT_A_FORM_VALUE = object()


def form_value(text: str) -> Any:
    """A form field's text read as the value it stands for, as a chat UI's edit form sends a
    touched field: a finite number (``"800"``, ``" 12.5 "``), ``true``/``false``/``null``, or an
    object or list from its JSON text. Anything else (a word, malformed JSON, ``NaN``, a number
    too large to be finite) is :data:`NOT_A_FORM_VALUE`: the field stays text, and the schema
    decides. A text that reads as text (``'"x"'``) is not a new value either."""
    try:
        value = json.loads(text.strip(), parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return NOT_A_FORM_VALUE
    if isinstance(value, str) or (isinstance(value, float) and not math.isfinite(value)):
        return NOT_A_FORM_VALUE
    if json_problem(value) is not None:
        return NOT_A_FORM_VALUE
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a value a form sends")
