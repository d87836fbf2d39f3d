"""What the request points to in tool data, for the supervisor's rules: requested following (a
value taken from a record the request names, where it asks for exactly that step), values the
request authorises (a change or a deletion whose every value the request gives), and the details
of a requested kind of action that only untrusted text holds.

Each answer is where the value came from, in words for the audit, or None."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from policies.decision import Decision
from policies.flow import flow
from policies.provenance import Source, appears, describe, identity, leaf_values, normalize_text, origins
from policies.records import (
    Record,
    asks_step,
    kinds_in,
    named_records,
    points_to,
    sentences,
    whole_values,
    word_starts,
)
from policies.supervisor.policy import SupervisorPolicy
from policies.supervisor.rules import Follow, ToolRules

if TYPE_CHECKING:
    from policies.supervisor.review import ReviewContext

__all__ = ["authorised", "followed", "planted_detail"]

Calls = Sequence[Mapping[str, Any]]
#: Words from which a plain value counts as a phrase a detail check looks at.
PHRASE_WORDS = 4
#: Sources a detail of a requested action may come from without more ado.
_VOUCHED = ["request", "subject", "policy", "trusted"]


def _the_step(record: Record, rule: Follow) -> bool:
    """Is the record named by a word of the step itself (a sender called "link" in "open the link")?"""
    named = normalize_text(record.by.split("=", 1)[-1])
    return record.keyed and bool(word_starts([named], [*rule.verbs, *rule.objects]))


def _follows(rule: Follow, value: Any, request: str, calls: Calls, keys: Any) -> str | None:
    for sentence in sentences(request):
        if not asks_step(sentence, rule.verbs, rule.objects):
            continue
        named = [r for r in named_records(sentence, calls, keys) if not _the_step(r, rule)]
        holding = [
            r
            for r in named
            if (not rule.tools or r.tool in rule.tools) and kinds_in(r.value, value, rule.fields)
        ]
        if len(holding) == 1 and points_to(holding[0].value, value, rule.fields):
            return f"followed from {holding[0].label()}, in a sentence that asks for the step"
    return None


def followed(
    policy: SupervisorPolicy, tool: str, arg: str, value: Any, request: str, calls: Calls
) -> str | None:
    """Is ``value`` (one value of ``arg`` of ``tool``; an identifier found in free text as
    ``(kind, canonical)``) one the request asks to take from tool data, by one of the policy's
    ``follow`` rules? Where it came from, or None."""
    rules = [r for r in policy.follow if arg in r.args.get(tool, ())]
    keys = policy.record_keys() if rules else {}
    return next((told for r in rules if (told := _follows(r, value, request, calls, keys))), None)


def _from_named(value: Any, records: Sequence[Record]) -> Record | None:
    ident = identity(value)
    return next((r for r in records if r.keyed and ident in whole_values(r.value)), None)


def authorised(
    args: Mapping[str, Any], request: str, calls: Calls, policy: SupervisorPolicy
) -> dict[str, str] | None:
    """Does the request give every value of this call, written in its text or as a whole field of
    a record it names by key (the caller checks that it asks for the call's kind)? Where each value
    came from, or None (a value it does not give, or a call with no value at all)."""
    values = [(name, v) for name, arg in args.items() for v in leaf_values(arg)]
    if not values:
        return None
    said, records = Source("request", request), named_records(request, calls, policy.record_keys())
    where: dict[str, str] = {}
    for name, value in values:
        ident = identity(value)
        if ident is None or appears(ident, said):
            where.setdefault(name, "given in the request")
            continue
        record = _from_named(value, records)
        if record is None:
            return None
        where[name] = f"a field of {record.label()}"
    return where


def _pointed(value: Any, records: Sequence[Record]) -> Record | None:
    """The record the request names that holds ``value``: as a whole field (text, an id), or, for an
    identifier or a number, as the only value of its kind in the one named record holding any."""
    ident = identity(value)
    if not isinstance(ident, tuple):
        holding = [r for r in records if ident in whole_values(r.value)]
        return holding[0] if len(holding) == 1 else None
    holding = [r for r in records if kinds_in(r.value, value)]
    return holding[0] if len(holding) == 1 and points_to(holding[0].value, value) else None


def _detail(value: Any) -> bool:
    """A value a detail check looks at: an identifier, a number, or a phrase of four words or more
    (a sentence relayed; shorter text is a name or a label)."""
    ident = identity(value)
    return isinstance(ident, tuple) or (isinstance(ident, str) and len(ident.split()) >= PHRASE_WORDS)


def _planted(
    policy: SupervisorPolicy,
    tool: str,
    args: Mapping[str, Any],
    ruled: set[str],
    request: str,
    calls: Calls,
    sources: Sequence[Source],
) -> tuple[tuple[str, Any, str] | None, dict[str, str]]:
    """The first detail (an argument not in ``ruled``) only untrusted text holds: ``(arg, value,
    where it appears)`` or None; and where each detail let through came from."""
    notes: dict[str, str] = {}
    records: list[Record] | None = None
    for name, whole in args.items():
        for value in (v for v in leaf_values(whole) if name not in ruled and _detail(v)):
            found = origins(value, sources)
            if not found or any(s.admitted_by(_VOUCHED) for s in found):
                continue
            records = named_records(request, calls, policy.record_keys()) if records is None else records
            record = _pointed(value, records)
            if record is not None:
                notes[name] = f"held by {record.label()}"
                continue
            told = followed(policy, tool, name, value, request, calls)
            if told:
                notes[name] = told
                continue
            return (name, value, describe(found)), notes
    return None, notes


def planted_detail(
    policy: SupervisorPolicy, tool: str, rules: ToolRules, args: Mapping[str, Any], context: ReviewContext
) -> tuple[Decision | None, dict[str, str]]:
    """Requested kind vs planted details: the request asks for this kind of action (``rules``'
    ``requested``), which vouches for none of its details. A value of an argument no ArgSource
    rules (an identifier, a number, a phrase) that appears only in untrusted tool results, where
    neither a record the request names holds it as the only value of its kind nor a follow rule
    admits it, gets ``details_verdict``; else where each detail let through came from."""
    asked = rules.requested
    if asked is None or not asked.details:
        return None, {}
    ruled = {r.arg for r in rules.arg_sources}
    planted, notes = _planted(policy, tool, args, ruled, context.request, context.calls, context.sources)
    if planted is None:
        return None, notes
    arg, value, origin = planted
    details = {
        "arg": arg,
        "value": value,
        "provenance": {arg: origin},
        **flow(value, origin, f"{tool}.{arg}"),
    }
    return Decision(policy.verdict(asked.details_verdict), asked.details_reason, details), notes
