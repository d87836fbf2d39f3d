"""Approvals that expire: how long a question put to a human stays valid, and what an answer given
after it expired leaves.

A policy sets ``ask_expires_after`` (seconds from when the question is asked; None: never) and
``on_expired``; a tool's rules may set their own (:class:`~policies.supervisor.rules.kinds.ToolRules`).
An answer given after the question expired runs nothing: ``reject`` refuses the call
(:data:`EXPIRED_REASON`), ``ask_again`` asks the question again with a fresh expiry. A late
rejection runs nothing either way, so it is never asked again: the call is refused as expired.
Both engines judge an answer by when it was given (the first time it was stored for the question)
against when the question was asked, both kept by the run, so a node run again on resume judges it
the same. Pure functions; the times are seconds since the epoch, given by the caller.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from policies.human import HumanAnswer
from policies.supervisor.rules.policy import SupervisorPolicy

OnExpired = Literal["ask_again", "reject"]
#: The refusal (and stop) reason of a call whose question expired before it was answered.
EXPIRED_REASON = "approval_expired"
#: The trace phase of an answer given after its question expired (both engines).
EXPIRED_PHASE = "approval_expired"


@dataclass(frozen=True)
class Expiry:
    """How long a question stays valid (``seconds``; None: never) and what a late answer leaves."""

    seconds: float | None
    on_expired: OnExpired


def expiry_for(policy: SupervisorPolicy, action: Mapping[str, Any]) -> Expiry:
    """The expiry of a question about ``action``: its tool's rules where they set one, else the
    policy's (a final answer: the policy's)."""
    rules = policy.rules.get(str(action.get("name"))) if action.get("kind") == "tool" else None
    seconds = policy.ask_expires_after
    on_expired: OnExpired = policy.on_expired
    if rules is not None and rules.ask_expires_after is not None:
        seconds = rules.ask_expires_after
    if rules is not None and rules.on_expired is not None:
        on_expired = rules.on_expired
    return Expiry(seconds, on_expired)


def asked_with(request: Mapping[str, Any]) -> Expiry:
    """The expiry a question was asked with, as its request says (:func:`expiry_fields`): what holds
    for its answer, whatever policy the run is resumed under (one without: it never expires)."""
    seconds = request.get("expires_after")
    on_expired: OnExpired = "ask_again" if request.get("on_expired") == "ask_again" else "reject"
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds > 0:
        return Expiry(None, on_expired)
    return Expiry(float(seconds), on_expired)


def rule_fields(expiry: Expiry) -> dict[str, Any]:
    """What a question records of the expiry it is asked with (:func:`asked_with` reads it back):
    nothing where it never expires."""
    if expiry.seconds is None:
        return {}
    return {"expires_after": expiry.seconds, "on_expired": expiry.on_expired}


def sealed(request: Mapping[str, Any], live: Expiry) -> Expiry:
    """The expiry an answer to a waiting question is judged by: the one it was asked with
    (:func:`asked_with`), whatever the answering process's policy says; where it was asked with
    none, the live policy's (which can only be stricter: a question that never expired may now)."""
    recorded = asked_with(request)
    return recorded if recorded.seconds is not None else live


def iso(seconds: float) -> str:
    """Seconds since the epoch as ISO 8601 in UTC, to the second."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def expiry_fields(expiry: Expiry, asked_at: float, round_: int = 1) -> dict[str, Any]:
    """What an approval request says of its expiry: when it was asked and when it expires (ISO
    8601, UTC), after how many seconds, what a late answer leaves, and which asking it is (``round``,
    from 2 when asked again). Nothing where the question never expires."""
    if expiry.seconds is None:
        return {}
    fields: dict[str, Any] = {
        "asked_at": iso(asked_at),
        "expires_at": iso(asked_at + expiry.seconds),
        "expires_after": expiry.seconds,
        "on_expired": expiry.on_expired,
    }
    return {**fields, "round": round_} if round_ > 1 else fields


def expiry_note(fields: Mapping[str, Any]) -> str:
    """The expiry as the reviewer reads it in the request's description ("" where none)."""
    if "expires_at" not in fields:
        return ""
    then = "asked again" if fields.get("on_expired") == "ask_again" else "refused"
    return f" | expires at {fields['expires_at']} (answered later: {then})"


def with_expiry(request: dict[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """The approval request with its expiry: the fields beside the request's own, and the note in
    each action request's description (where LangChain's HITL clients show it)."""
    if not fields:
        return request
    note = expiry_note(fields)
    actions = [{**a, "description": f"{a.get('description', '')}{note}"} for a in request["action_requests"]]
    return {**request, "action_requests": actions, **fields}


def is_late(expiry: Expiry, asked_at: float, answered_at: float) -> bool:
    """Was the answer given after the question expired?"""
    return expiry.seconds is not None and answered_at > asked_at + expiry.seconds


def late_outcome(expiry: Expiry, answer_type: str) -> OnExpired:
    """What a late answer leaves: ``reject`` (the call is refused, :data:`EXPIRED_REASON`) or
    ``ask_again``. A late rejection is never asked again: it runs nothing either way."""
    return "reject" if answer_type == "reject" else expiry.on_expired


def late_figures(
    action: Mapping[str, Any], answer: HumanAnswer, asked_at: float, answered_at: float, expiry: Expiry
) -> dict[str, Any]:
    """The figures of the audit row of an answer given after its question expired (both engines):
    the tool asked about, the late answer's type and reviewer, when it was asked, when it expired,
    when it was answered, that it was not applied, what came of it (``then``: ``asked_again`` or
    ``rejected``, :func:`late_outcome`), and all of it in words (``problem``)."""
    figures: dict[str, Any] = {
        "tool": "final" if action.get("kind") == "final" else action.get("name"),
        "expired": True,
        "applied": False,
        "late_answer": answer.type,
        "asked_at": iso(asked_at),
        "expires_at": iso(asked_at + float(expiry.seconds or 0.0)),
        "answered_at": iso(answered_at),
        "then": "asked_again" if late_outcome(expiry, answer.type) == "ask_again" else "rejected",
    }
    # what the audit's line says of it (``agent-patterns audit`` shows a row's problem)
    figures["problem"] = (
        f"the question expired at {figures['expires_at']}: the late {answer.type} was not applied "
        f"({'asked again' if figures['then'] == 'asked_again' else 'refused'})"
    )
    return {**figures, "reviewer": answer.reviewer} if answer.reviewer is not None else figures


def expired_message(figures: Mapping[str, Any]) -> str:
    """The refusal's message, as the worker and the audit read it."""
    return (
        f"the question expired at {figures.get('expires_at')} and was answered at "
        f"{figures.get('answered_at')}: the late answer ({figures.get('late_answer')}) was not applied"
    )
