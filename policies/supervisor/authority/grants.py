"""One ask per task: a human who approves an escalated step grants, for the rest of the turn, the
same kind of step (the same tool, escalated for the same reason) whose values come from the same
places. A grant is per item approved: "delete all my events on Friday" asks about each event
(approving one deletion says nothing of the next item in the listing); a deletion whose id comes
from another place (a description someone else wrote, another day's listing, text nobody wrote
before) is asked again.

A grant is data: the tool, the reason, and for each argument where its values appear (the request,
the subject, the policy, or a tool's result: which tool, which step, which field), each value read
by provenance's identity (:func:`policies.supervisor.reading.values.identity`), the one a record's name has in
the ledger too; a value too short to trace (``"A1"``, a boolean) by that identity itself. The engines keep the
grants of the current turn (the Supervisor graph's run, the middleware's agent invocation), pass them in
:class:`~policies.supervisor.decide.review.ReviewContext`, and record each in the audit: the approval that
issued it, and each step it covered.

Never granted: thresholds (an amount is no kind of step), an amount a limit cannot read,
confidential values, custom rules, final answers, and a step with a value the run cannot trace
(text the model wrote itself): a human's yes to one such step says nothing of the next.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from policies.decision import Decision
from policies.supervisor.provenance.context import ReviewContext
from policies.supervisor.reading.values import (
    Source,
    appears,
    identity,
    leaf_paths,
    leaf_values,
    record_identity,
    traced,
)
from policies.supervisor.rules.policy import SupervisorPolicy
from policies.text import json_hash

__all__ = ["covering", "grant_for", "grant_key", "granted"]


def _joined(value: Any) -> str:
    return " | ".join(text for _path, text in leaf_paths(value, keys=True))


def _leaves(value: Any, field: str = "", item: str = "") -> list[tuple[str, str, str]]:
    """Every string and number in a JSON value: ``(its field, without list positions; the very
    item, with them; its text)``."""
    if isinstance(value, Mapping):
        return [
            leaf
            for k, v in value.items()
            for leaf in _leaves(v, f"{field}.{k}" if field else str(k), f"{item}.{k}" if item else str(k))
        ]
    if isinstance(value, list | tuple):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, field, f"{item}[{i}]")]
    if isinstance(value, bool) or value is None:
        return []
    return [(field, item, repr(value) if isinstance(value, float) else str(value))]


def _untraced(value: Any) -> list[Any]:
    """The strings, numbers and booleans of a JSON value that provenance does not trace (a one- or
    two-character text, a boolean): a grant keys them by their identity
    (:func:`~policies.supervisor.reading.values.record_identity`), so approving order ``"A1"`` covers ``"a1"``
    and never ``"B2"``."""
    if isinstance(value, Mapping):
        return [leaf for child in value.values() for leaf in _untraced(child)]
    if isinstance(value, list | tuple):
        return [leaf for child in value for leaf in _untraced(child)]
    return [] if value is None or traced(value) else [value]


def _places(value: Any, context: ReviewContext) -> list[str]:
    """Where a value appears: the request, the subject, the policy, or a call's result or arguments
    (tool, step and the very item, list positions included). A grant covers the item a human
    approved, never the next item of the same listing: approving the rent invoice does not pay
    another invoice planted beside it."""
    ident = identity(value)
    if ident is None:
        return []
    given = {
        "request": context.request,
        "subject": _joined(dict(context.subject)),
        "policy": _joined(list(context.constants)),
    }
    found = [name for name, text in given.items() if appears(ident, Source("request", text))]
    for call in context.calls:
        at = f"{call.get('tool')} (step {call.get('step')})"
        ran = call.get("args") if call.get("ok") else None
        for part, value_of in (("", call.get("observation")), ("args.", ran)):
            for _field, item, text in _leaves(value_of):
                if identity(text) == ident:
                    found.append(f"{at} {part}{item or '(whole)'}")
                elif appears(ident, Source("tool", text)):
                    found.append(f"{at} {part}{item or '(whole)'} (in its text)")
    return sorted(set(found))


def _grantable(action: Mapping[str, Any], review: Mapping[str, Any], policy: SupervisorPolicy) -> bool:
    if action.get("kind") == "final" or "rule" in review:
        return False
    rules = policy.rules_for(str(action.get("name")))
    amounts = {t.reason for t in rules.escalate_above} if rules else set()
    amounts |= {r.unreadable_reason for r in rules.summed()} if rules else set()  # asked each time
    return review.get("reason") not in amounts | {policy.confidentiality.reason}


def grant_key(
    action: Mapping[str, Any], review: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> dict[str, Any] | None:
    """The kind (tool and reason) and the provenance (argument → where its values appear) of an
    escalated step, or None when a human's yes to it grants nothing."""
    if not _grantable(action, review, policy):
        return None
    sources: dict[str, list[str]] = {}
    for name, arg in sorted((action.get("args") or {}).items()):
        for value in leaf_values(arg):
            places = _places(value, context)
            if not places:  # a value nobody wrote before: nothing to grant it by
                return None
            sources[name] = sorted({*sources.get(name, []), *places})
        for value in _untraced(arg):  # "A1", True: no place to trace, so the value itself
            sources[name] = sorted({*sources.get(name, []), f"the value {record_identity(value)!r}"})
    return {"tool": action.get("name"), "reason": review.get("reason"), "sources": sources}


def grant_for(
    action: Mapping[str, Any],
    review: Mapping[str, Any],
    context: ReviewContext,
    policy: SupervisorPolicy,
    *,
    step: Any,
    by: str = "human",
) -> dict[str, Any] | None:
    """The grant a human's approval of this escalated step issues (None: it issues none, or the
    policy's ``approval_grants`` is off): its key, the step that issued it, who approved."""
    key = grant_key(action, review, context, policy) if policy.approval_grants == "turn" else None
    return None if key is None else {**key, "key": json_hash(key), "step": step, "by": by}


def covering(
    action: Mapping[str, Any], decision: Decision, context: ReviewContext, policy: SupervisorPolicy
) -> Mapping[str, Any] | None:
    """The grant of this turn that covers an escalation (same tool, reason and provenance), if any."""
    if decision.verdict != "escalate" or not context.grants or policy.approval_grants != "turn":
        return None
    key = grant_key(action, {"reason": decision.reason, **decision.details}, context, policy)
    wanted = json_hash(key) if key is not None else None
    return next((g for g in context.grants if wanted is not None and g.get("key") == wanted), None)


def granted(
    action: Mapping[str, Any], decision: Decision, context: ReviewContext, policy: SupervisorPolicy
) -> Decision:
    """The decision, or, for an escalation a grant of this turn covers, its approval: the same
    reason, with ``granted`` (the approval's step, who approved, the grant's key)."""
    grant = covering(action, decision, context, policy)
    if grant is None:
        return decision
    told = {"step": grant.get("step"), "by": grant.get("by"), "key": grant.get("key")}
    return Decision("approve", decision.reason, {**decision.details, "granted": told})
