"""The checks of :mod:`policies.supervisor.thread`'s rules: a call on the subject's own record, a
record's limit across the thread, the same call on the same record again. Each gives the
:class:`~policies.decision.Decision` of the first rule that fails, or None."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from policies.decision import Decision
from policies.ownership import WITHHELD_KEY, records_with
from policies.supervisor.context import ReviewContext, _decimal
from policies.supervisor.policy import SupervisorPolicy
from policies.supervisor.rules import ToolRules
from policies.tools import is_number


def _record(context: ReviewContext, tool: str, key: str, value: Any) -> Mapping[str, Any] | None:
    """The newest record of ``tool``'s results whose ``key`` is ``value``: in this run's calls,
    else as an earlier run of the thread saw it (its ledger)."""
    if value is None or isinstance(value, dict | list):
        return None
    seen = [c.get("observation") for c in reversed(context.calls) if c.get("tool") == tool]
    seen += [e.get("record") for e in reversed(context.ledger) if e.get("tool") == tool]
    return next((found for result in seen for found in records_with(result, key, value)), None)


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
        if not policy.naming(context.subject).owned(rule.tool, record):
            withheld = {"withheld": True} if WITHHELD_KEY in record else {}
            return Decision(policy.verdict(rule.verdict), rule.reason, {**details, **withheld})
    return None


def record_limits(
    name: str, rules: ToolRules, args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """What the thread's calls on a record add up to, this one's included, within the record's field."""
    for rule in rules.record_limits:
        value, named = args.get(rule.arg), args.get(rule.record_arg)
        if not is_number(value):
            continue
        record = _record(context, rule.tool, rule.key, named)
        limit = record.get(rule.field) if record is not None else None
        trusted = record is not None and policy.naming(context.subject).trusted(
            rule.tool, (rule.field,), record
        )
        details: dict[str, Any] = {"arg": rule.arg, "value": value, "record": named, "record_of": rule.tool}
        if not is_number(limit) or not trusted:
            return Decision(policy.verdict(rule.unseen_verdict), rule.unseen_reason, details)
        before = context.summed(name, rule.arg, args, "thread", [rule.record_arg])
        if before + _decimal(value) > _decimal(limit):
            details |= {"limit": limit, "limit_field": rule.field, "thread_total": float(before)}
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
