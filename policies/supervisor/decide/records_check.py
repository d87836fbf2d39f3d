"""The checks of :mod:`policies.supervisor.rules.thread`'s rules: a call on the subject's own record, a
record's limit across the thread, the same call on the same record again. Each gives the
:class:`~policies.decision.Decision` of the first rule that fails, or None."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from policies.decision import Decision
from policies.supervisor.provenance.context import (
    AN_EARLIER_CALL,
    DECIMALS,
    THIS_CALL,
    ReviewContext,
    tools_of,
)
from policies.supervisor.reading.amounts import amount_value
from policies.supervisor.reading.values import mappings, record_identity
from policies.supervisor.request.ownership import WITHHELD_KEY
from policies.supervisor.request.records import naming_of
from policies.supervisor.rules.kinds import ToolRules
from policies.supervisor.rules.policy import SupervisorPolicy


def records_named(value: Any, key: str, wanted: Any) -> Iterator[Mapping[str, Any]]:
    """The mappings inside ``value`` (at any depth, in the order they appear) whose ``key`` field
    names the record ``wanted`` names, as provenance reads a name
    (:func:`~policies.supervisor.reading.values.record_identity`: ``"INV-8."`` is ``INV-8``)."""
    named = record_identity(wanted)
    return (item for _path, item in mappings(value) if key in item and record_identity(item[key]) == named)


def _record(context: ReviewContext, tool: str, key: str, value: Any) -> Mapping[str, Any] | None:
    """The newest record of ``tool``'s results whose ``key`` names ``value``: in this run's calls,
    else as an earlier run of the thread saw it (its ledger)."""
    if value is None or isinstance(value, bool | dict | list):
        return None
    seen = [c.get("observation") for c in reversed(context.calls) if c.get("tool") == tool]
    seen += [e.get("record") for e in reversed(context.ledger) if e.get("tool") == tool]
    return next((found for result in seen for found in records_named(result, key, value)), None)


def owned_records(
    rules: ToolRules, args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Each argument an :class:`OwnedRecord` rule names must name a record of the subject's."""
    for rule in rules.owned:
        value = args.get(rule.arg)
        record = _record(context, rule.tool, rule.key, value)
        details = {"arg": rule.arg, "value": value, "record_of": rule.tool}
        if record is None:
            return Decision(policy.verdict(rule.unseen_verdict), rule.unseen_reason, details)
        if not naming_of(policy, context.subject).owned(rule.tool, record):
            withheld = {"withheld": True} if WITHHELD_KEY in record else {}
            return Decision(policy.verdict(rule.verdict), rule.reason, {**details, **withheld})
    return None


def record_limits(
    name: str, rules: ToolRules, args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """What the thread's calls on a record add up to (of the rule's group, when it names one),
    this one's included, within the record's field; an amount that is not a readable number asks."""
    for rule in rules.record_limits:
        value, named = args.get(rule.arg), args.get(rule.record_arg)
        details: dict[str, Any] = {"arg": rule.arg, "value": value, "record": named, "record_of": rule.tool}
        details |= {"group": sorted(tools_of(name, rule.group))} if rule.group else {}
        amount = amount_value(value)
        if amount is None:
            return Decision("escalate", rule.unreadable_reason, {**details, "unreadable": THIS_CALL})
        record = _record(context, rule.tool, rule.key, named)
        written = record.get(rule.field) if record is not None else None
        limit = amount_value(written)
        trusted = record is not None and naming_of(policy, context.subject).trusted(
            rule.tool, (rule.field,), record
        )
        if limit is None or not trusted:
            return Decision(policy.verdict(rule.unseen_verdict), rule.unseen_reason, details)
        before = context.summed(tools_of(name, rule.group), rule.arg, args, "thread", [rule.record_arg])
        if before is None:
            return Decision("escalate", rule.unreadable_reason, {**details, "unreadable": AN_EARLIER_CALL})
        if DECIMALS.add(before, amount) > limit:
            details |= {
                "limit": written,
                "limit_field": rule.field,
                "thread_total": float(before),
            }
            return Decision(policy.verdict(rule.verdict), rule.reason, details)
    return None


def repeated(
    name: str, rules: ToolRules, args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """The same call on the same record after one succeeded on the thread."""
    rule = rules.repeat
    if rule is None:
        return None
    earlier = context.on_record(context.ledger, name, args, rule.per)
    if not earlier:
        return None
    on = {p: args.get(p) for p in rule.per}
    return Decision(policy.verdict(rule.verdict), rule.reason, {"record": on, "times_before": len(earlier)})
