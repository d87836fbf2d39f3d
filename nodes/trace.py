"""Trace rows (small, hashed audit rows) and history rows (what happened, in full), and the one
way a node ends a run."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from nodes.audit import storable
from nodes.clock import elapsed_ms
from nodes.messages import answer_message, stop_message
from policies.catalog import clean_reason
from policies.human import answer_account, answer_reviewer
from policies.supervisor import rule_details
from policies.text import json_hash

#: Longest rule details copied into a trace row as they are (longer: referred to by hash).
TRACE_DETAIL_CHARS = 200
#: Longest problem of a refused answer a trace row keeps.
PROBLEM_CHARS = 300


def trace_row(state: Mapping[str, Any], phase: str, *, ok: bool = True, **figures: Any) -> dict:
    """One audit row. Steps are numbered from 1 in the order the rows are written."""
    row: dict[str, Any] = {"step": len(state.get("trace") or []) + 1, "phase": phase, "ok": ok}
    row.update(figures)
    row["elapsed_ms"] = elapsed_ms(state)
    return row


def small(value: Any) -> Any:
    """Rule details as a trace row keeps them: as they are when short, else by hash."""
    return value if len(json.dumps(value, default=str)) <= TRACE_DETAIL_CHARS else {"hash": json_hash(value)}


def review_figures(review: Mapping[str, Any] | None) -> dict[str, Any]:
    """What a Supervisor review adds to a step's trace row, the same in both engines (the graph's
    nodes and ``GovernanceMiddleware``): the check of the review chain that decided (``check``:
    :data:`policies.supervisor.decide.review.CHAIN`), the grant a human's approval issued or the one that
    covered the step, the mandate it stands on (``mandate``: "cancel · the Budget Review", or None
    where its rules need one and none was found), the flow a refusal or escalation stopped (value,
    from, to), the deciding rule's other details (by hash when long), where each checked value
    came from, what a rule in shadow would have done (``shadow``: :func:`shadow_figures`), and the
    ids of the Cedar policies that matched (``cedar``: ``policies``, ``asked_by``, ``role``)."""
    details = rule_details(review or {})
    where, flow = details.pop("provenance", None), details.pop("flow", None)
    figures: dict[str, Any] = shadow_figures((review or {}).get("shadow"))
    if (review or {}).get("check"):  # the check of the review chain that decided
        figures["check"] = str((review or {})["check"])[:40]
    if "mandate" in details:  # the clause of the request the call stands on, or None: none asked
        found = details.pop("mandate")
        figures["mandate"] = str(found)[:160] if found else None
    for key in ("grant", "granted"):
        if details.get(key):
            figures[key] = details.pop(key)
    cedar = details.pop("cedar", None)  # the Cedar policies that decided, by id (issue 58)
    if isinstance(cedar, Mapping):
        kept = ("policies", "asked_by", "role", "errors")
        figures["cedar"] = {k: small(cedar[k]) for k in kept if cedar.get(k)}
    if isinstance(flow, Mapping) and flow:
        figures["flow"] = {str(k)[:40]: str(v)[:160] for k, v in flow.items()}
    if details:
        figures["rule_details"] = small(details)
    if isinstance(where, Mapping) and where:  # each checked value's origin, each in a line of its own
        figures["provenance"] = {str(k)[:80]: str(v)[:160] for k, v in list(where.items())[:8]}
    return figures


def shadow_figures(shadow: Any) -> dict[str, Any]:
    """A review's ``shadow`` (:func:`policies.supervisor.decide.review.shadow_row`: what a rule in shadow
    mode would have done) as a trace row keeps it: would, verdict, reason, check, the rule's
    details (by hash when long), and the later shadowed checks that would have decided (``also``)."""
    if not isinstance(shadow, Mapping):
        return {}
    named = ("would", "verdict", "reason", "check")
    kept: dict[str, Any] = {k: str(shadow[k])[:160] for k in named if shadow.get(k)}
    if shadow.get("details"):
        kept["details"] = small(shadow["details"])
    also = shadow.get("also")
    if isinstance(also, list) and also:  # the later shadowed checks that would have decided too
        rows = [d for d in also[:10] if isinstance(d, Mapping)]
        kept["also"] = [{k: str(d.get(k))[:80] for k in ("check", "would", "reason")} for d in rows]
    return {"shadow": kept}


#: The trace phase of a human's answer that could not be applied (the question was asked again, or
#: the run stopped with ``invalid_human_answer``).
ANSWER_REFUSED = "answer_refused"


def refused_answer(
    action: Mapping[str, Any], number: int, value: Any, problem: str, by: str
) -> dict[str, Any]:
    """The figures of a trace row for an answer to an escalation that could not be applied, the
    same in both engines: the tool asked about, which answer it was (1: the first), its type and
    hash (not its text), why it was refused and who gave it (``answered_by``; the ``reviewer`` and
    ``account`` the answer names, where it names them: an auditor sees who tried)."""
    try:
        kind = value.get("type") if isinstance(value, Mapping) else None
        if kind is None and isinstance(value, Mapping) and isinstance(value.get("decisions"), list):
            first = value["decisions"][0] if value["decisions"] else None
            kind = first.get("type") if isinstance(first, Mapping) else None
    except Exception:  # a mapping that cannot be read has no type to show
        kind = None
    who = {"reviewer": answer_reviewer(value), "account": answer_account(value)}
    return {
        "tool": "final" if action.get("kind") == "final" else action.get("name"),
        "answer": number,
        "answer_type": kind if isinstance(kind, str) else None,
        "answer_hash": json_hash(storable(value)),
        "problem": str(problem)[:PROBLEM_CHARS],
        "answered_by": by,
        **{k: v for k, v in who.items() if v is not None},
    }


def history_row(state: Mapping[str, Any], phase: str, **content: Any) -> dict:
    return {"step": len(state.get("history") or []) + 1, "phase": phase, **content}


def stop(
    state: Mapping[str, Any],
    phase: str,
    reason: str,
    *,
    figures: Mapping[str, Any] | None = None,
    **diagnostics: Any,
) -> dict[str, Any]:
    """The state update that ends a run: status, stop reason, phase, a failing trace row, the
    diagnostics it stopped on (as top-level result keys), and an AI message saying where and why
    (what a chat client shows). Nothing already in state is dropped.

    The reason is written as :func:`policies.catalog.clean_reason` renders it: a reason that carries
    text from a reply (an unknown tool's name...) cannot smuggle line breaks or megabytes into it."""
    reason = clean_reason(reason)
    row = trace_row(state, phase, ok=False, stop_reason=reason, **(figures or {}))
    return {
        "status": "stopped",
        "stop_reason": reason,
        "phase": phase,
        "trace": [row],
        "messages": [stop_message(reason, phase, _problem(diagnostics.get("details")))],
        **diagnostics,
    }


def finish(
    state: Mapping[str, Any],
    phase: str,
    outcome: str,
    answer: str,
    *,
    figures: Mapping[str, Any],
    row: Mapping[str, Any],
    **results: Any,
) -> dict[str, Any]:
    """The state update that ends a run well (:func:`stop`'s counterpart): status ``ok``, stop
    reason ``success``, the outcome, the answer and its AI message, ``results`` (top-level result
    keys), a trace row of ``figures`` and a history row of ``row``, both in ``phase``."""
    return {
        "status": "ok",
        "stop_reason": "success",
        "outcome": outcome,
        "answer": answer,
        "messages": [answer_message(answer, status="ok", outcome=outcome)],
        "phase": phase,
        **results,
        "trace": [trace_row(state, phase, **figures)],
        "history": [history_row(state, phase, **row)],
    }


def _problem(details: Any) -> str | None:
    """The problem a stop's details name (why a human's answer could not be applied), if any."""
    problem = details.get("problem") if isinstance(details, Mapping) else None
    return str(problem) if problem else None


def is_stopped(state: Mapping[str, Any]) -> bool:
    return state.get("status") == "stopped"
