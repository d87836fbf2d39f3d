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
    #: who answered, as the answer names them (``"reviewer": "alice"``); None when it names no one
    #: (the record then says nothing of who: it is never made up)
    reviewer: str | None = None
    #: the account the answer was given from, where the answering process knows it (``"account":
    #: "root"``: the CLI's OS account; the server's signed-in user): what four-eyes counts
    account: str | None = None


#: The longest reviewer name an answer may give (a name, not a text).
REVIEWER_MAX_CHARS = 64
#: The key an answer names its reviewer under: beside the decision or beside ``decisions``.
REVIEWER_KEY = "reviewer"


def reviewer_problem(value: Any) -> str | None:
    """Why ``value`` is not a reviewer's name (a short non-empty text on one line), or None."""
    if not isinstance(value, str) or not value.strip():
        return "the reviewer must be a non-empty name"
    if len(value.strip()) > REVIEWER_MAX_CHARS:
        return f"the reviewer must be a name of at most {REVIEWER_MAX_CHARS} characters"
    if any(not c.isprintable() for c in value):
        return "the reviewer must be a name on one line, without control characters"
    return None


#: How the system names itself when it answers (``system:ask-timeout``, ``system:expiry-sweep``):
#: its rejection is no reviewer's (:func:`policies.supervisor.authority.reviewers.by_system`). A
#: person's name never starts so (the CLI refuses ``--as system:...``; the server binds the
#: signed-in user).
SYSTEM_PREFIX = "system:"
#: The key an answer names the account it was given from under (beside the reviewer's name).
ACCOUNT_KEY = "account"


def _account_of(value: Any) -> tuple[Any, str | None, str | None]:
    """``value`` without the account it names (at its top, beside ``decisions`` or in the one
    decision), the account (None where none is), and the problem with it (a name of
    :func:`reviewer_problem`'s kind; two different accounts)."""
    found: list[Any] = []

    def strip(item: Any) -> Any:
        if isinstance(item, dict) and ACCOUNT_KEY in item:
            found.append(item[ACCOUNT_KEY])
            return {k: v for k, v in item.items() if k != ACCOUNT_KEY}
        return item

    value = strip(value)
    if isinstance(value, dict) and isinstance(value.get("decisions"), list) and len(value["decisions"]) == 1:
        value = {**value, "decisions": [strip(value["decisions"][0])]}
    if not found:
        return value, None, None
    problem = next((p for p in map(reviewer_problem, found) if p is not None), None)
    if problem is not None:
        return value, None, problem.replace("the reviewer", "the account")
    if len({str(a).strip() for a in found}) > 1:
        return value, None, "the answer names two accounts: name one"
    return value, str(found[0]).strip(), None


def _reviewer_of(value: Any) -> tuple[Any, Any, str | None]:
    """``value`` without its reviewer (beside ``decisions`` or in the one decision), the reviewer
    given (None where none is), and the problem with it (None where there is none)."""
    if isinstance(value, dict) and "decisions" in value and set(value) <= {"decisions", REVIEWER_KEY}:
        outer = value.get(REVIEWER_KEY)
        if REVIEWER_KEY in value:
            outer_problem = reviewer_problem(outer)
            if outer_problem is not None:
                return value, None, outer_problem
            value = {"decisions": value["decisions"]}
        decisions = value["decisions"]
        if isinstance(decisions, list) and len(decisions) == 1:
            inner, named, problem = _reviewer_of(decisions[0])
            if problem is not None:
                return value, None, problem
            if outer is not None and named is not None and named != outer:
                return value, None, "the answer names two reviewers: name one"
            return (
                {"decisions": [inner]},
                outer if outer is not None else named,
                (reviewer_problem(outer) if outer is not None else None),
            )
        return value, outer, reviewer_problem(outer) if outer is not None else None
    if isinstance(value, dict) and REVIEWER_KEY in value:
        named = value[REVIEWER_KEY]
        rest = {k: v for k, v in value.items() if k != REVIEWER_KEY}
        return rest, named, reviewer_problem(named)
    return value, None, None


def parse_human_answer(value: Any, *, allowed: tuple[str, ...] = HUMAN_VERDICTS) -> HumanAnswer | None:
    """Read a resume value such as ``{"type": "approve"}``, ``{"type": "edit", "answer": "..."}``
    or ``{"type": "reject", "message": "..."}``. A bare string ``"approve"`` is accepted too, and so
    is the middleware's wrapper ``{"decisions": [<one decision>]}``. Who answered may be named,
    ``"reviewer": "alice"``, in the decision or beside ``decisions`` (never an edited field): a
    short name (:func:`reviewer_problem`), else the answer is refused.

    Returns None when the value is not a valid answer (the caller stops the run with a named
    reason instead of guessing), also when it holds what the run could not keep (see
    :func:`policies.json_safety.json_problem`).
    """
    if json_problem(value) is not None:
        return None
    value, account, problem = _account_of(value)
    if problem is not None:
        return None
    value, reviewer, problem = _reviewer_of(value)
    if problem is not None:
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
    name = reviewer.strip() if isinstance(reviewer, str) else None
    return HumanAnswer(type=kind, edits=edits, message=message, reviewer=name, account=account)  # type: ignore[arg-type]


def answer_problem(value: Any, *, allowed: tuple[str, ...] = HUMAN_VERDICTS) -> str:
    """Why ``value`` is not an answer :func:`parse_human_answer` takes (for the reviewer, in the
    request asked again): one sentence naming what to send instead."""
    offered = ", ".join(allowed)
    if json_problem(value) is not None:
        return f"not an answer: it holds what cannot be kept ({json_problem(value)}); answer {offered}"
    value, _, problem = _account_of(value)
    if problem is not None:
        return f'not an answer: {problem} ("account": "alice"), or no account at all'
    value, _, problem = _reviewer_of(value)
    if problem is not None:
        return f'not an answer: {problem} ("reviewer": "alice"), or no reviewer at all'
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


def answer_reviewer_problem(value: Any) -> str | None:
    """Why the reviewer (or the account) ``value`` names cannot be taken (None where it names a
    good one, or none)."""
    if json_problem(value) is not None:
        return None
    value, _, problem = _account_of(value)
    return problem if problem is not None else _reviewer_of(value)[2]


def answer_account(value: Any) -> str | None:
    """The account ``value`` says it was given from (stripped), or None where it says none or no
    good one."""
    if json_problem(value) is not None:
        return None
    _, account, problem = _account_of(value)
    return account if problem is None else None


def answer_reviewer(value: Any) -> str | None:
    """The reviewer ``value`` names (stripped), or None where it names no one or no good name."""
    if json_problem(value) is not None:
        return None
    _, named, problem = _reviewer_of(_account_of(value)[0])
    return named.strip() if isinstance(named, str) and problem is None else None


#: The reason an answer is refused when it names a reviewer other than the authenticated user.
NOT_AUTHENTICATED_USER = "reviewer_not_authenticated_user"


def bind_reviewer(value: Any, identity: str) -> tuple[Any, str | None]:
    """A resume value answered by the authenticated ``identity``: its ``reviewer`` set to them
    (beside ``decisions``, or in the decision), or the problem (``reviewer_not_authenticated_user:
    ...``) where it names someone else. A resume map (LangGraph's ``{interrupt_id: value}``) binds
    each value; a bare ``"approve"`` becomes ``{"type": "approve", "reviewer": identity, "account":
    identity}``: the account four-eyes counts is the signed-in user, whatever the client sent."""
    named = answer_reviewer(value) if isinstance(value, dict | str) else None
    if (
        isinstance(value, dict)
        and REVIEWER_KEY not in value
        and "decisions" not in value
        and "type" not in value
    ):
        bound: dict[str, Any] = {}
        for key, item in value.items():  # a resume map: one answer per interrupt
            bound[key], problem = bind_reviewer(item, identity)
            if problem is not None:
                return value, problem
        return bound, None
    if named is not None and named != identity:
        return value, f"{NOT_AUTHENTICATED_USER}: the answer names {named}, but {identity} is signed in"
    signed = {REVIEWER_KEY: identity, ACCOUNT_KEY: identity}  # the account is the signed-in user's
    if isinstance(value, str):
        return {"type": value, **signed}, None
    value = _account_of(value)[0]  # an account the client names is not who is signed in
    if isinstance(value, dict) and "decisions" in value:
        decisions = (
            [
                {k: v for k, v in d.items() if k != REVIEWER_KEY} if isinstance(d, dict) else d
                for d in value["decisions"]
            ]
            if isinstance(value["decisions"], list)
            else value["decisions"]
        )
        return {**value, "decisions": decisions, **signed}, None
    if isinstance(value, dict):
        return {**value, **signed}, None
    return value, None


def agent_answer(answer: Any, snapshot: Any) -> Any:
    """The CLI's answer (``{"type": "approve"}``, ``{"type": "edit", "edited_action": {"args":
    ...}}``, ``{"type": "reject", "message": ...}``) in LangChain's HITL shape for an agent's
    question: ``{"decisions": [...]}``, an edit naming the tool the question asks about. An answer
    in that shape already is kept. ``snapshot``: the thread's state (LangGraph's ``StateSnapshot``),
    read for the question's ``action_requests``."""
    if not isinstance(answer, dict) or "decisions" in answer:
        return answer
    decision = dict(answer)
    edited = decision.get("edited_action")
    if decision.get("type") == "edit" and isinstance(edited, dict) and "name" not in edited:
        requests = snapshot.interrupts[0].value.get("action_requests") if snapshot.interrupts else None
        if isinstance(requests, list) and requests and isinstance(requests[0], dict):
            decision["edited_action"] = {"name": requests[0].get("name"), **edited}
    return {"decisions": [decision]}
