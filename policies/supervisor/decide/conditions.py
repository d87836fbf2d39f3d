"""A condition the gateway checks on trusted data (issue 49): "If it is rated higher than 4, go
ahead and book 2 nights" asks to book only if the hotel is. The reader
(:func:`policies.supervisor.reading.words.conditional_mandates`) reads the condition and the imperative after
it; no rule takes that as a mandate by itself. A call of the kind it asks for stands on it only where the
condition is checked true here, on the run's trusted tool data, of the record the call acts on:

- the record is a mapping in the observation of an earlier successful call, whose ``rating`` field
  the policy trusts (a trusted tool's field not in its ``trust_except``; a review's own "rated 5!"
  is no rating) and whose id or record key (``id``, ``ToolSpec.record_keys``, the policy's record
  ids), in a field the policy trusts, is a value of the call's arguments (the hotel id the call
  books; a number of nights that happens to equal another field names nothing);
- a condition that names what it speaks of ("if Casa Azul is rated ...") needs those words in a
  trusted field of that record too;
- every such record satisfies the comparison, and there is at least one.

Otherwise the call asks a human (``condition_not_checked``): the user made the step conditional,
and the gateway could not see the condition hold. The conditions are read by the grammar
(:class:`~policies.supervisor.reading.words.GrammarReader`, the default); a review whose context plugs in
another reader (a model's) takes no conditional mandate: the call then stands on that reader's mandates alone.
Deterministic and pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from policies.supervisor.provenance.context import ReviewContext
from policies.supervisor.reading.amounts import amount_value
from policies.supervisor.reading.values import mappings, record_identity, rule_values, traced
from policies.supervisor.reading.words import (
    Condition,
    GrammarReader,
    Mandate,
    conditional_mandates,
    matching,
    said,
    words_of,
)
from policies.supervisor.request.records import naming_of
from policies.supervisor.rules.kinds import Requested
from policies.supervisor.rules.policy import SupervisorPolicy

__all__ = ["ConditionCheck", "conditional_mandate", "conditioned"]


@dataclass(frozen=True)
class ConditionCheck:
    """A conditional mandate for a call, and whether its condition was checked true: ``holds``,
    and in words what was read (``told``) for the audit and the human."""

    mandate: Mandate
    holds: bool
    told: str

    def details(self) -> dict[str, Any]:
        assert self.mandate.condition is not None
        return {"mandate": said(self.mandate), "condition": self.mandate.condition.text, "checked": self.told}


def _compare(value: float, condition: Condition) -> bool:
    return {
        ">": value > condition.value,
        ">=": value >= condition.value,
        "<": value < condition.value,
        "<=": value <= condition.value,
    }[condition.op]


def _facts(
    condition: Condition, args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> list[tuple[str, float | None]]:
    """The trusted values of the condition's field on the records the call acts on, each with
    where it was read."""
    naming = naming_of(policy, context.subject)
    targets = {record_identity(v) for value in args.values() for v in rule_values(value) if traced(v)}
    keys, ids = policy.record_keys(), policy.record_ids()
    out: list[tuple[str, float | None]] = []
    for call in context.calls:
        if not call.get("ok", True) or "observation" not in call:
            continue
        tool = str(call.get("tool"))
        for path, record in mappings(call.get("observation")):
            if condition.field not in record or not naming.trusted(
                tool, (*path, condition.field), record, path
            ):
                continue
            trusted = {
                str(k): v
                for k, v in record.items()
                if k != condition.field
                and isinstance(v, str | int | float)
                and naming.trusted(tool, (*path, str(k)), record, path)
            }
            naming_fields = {"id", *keys.get(tool, ()), *ids.get(tool, ())}
            if not any(record_identity(v) in targets for k, v in trusted.items() if k in naming_fields):
                continue  # the record the call acts on: named by its id or a record key
            named = words_of(" ".join(str(v) for v in trusted.values()))
            n = len(condition.about)
            said = any(tuple(named[i : i + n]) == condition.about for i in range(len(named) - n + 1))
            if condition.about != ("it",) and not said:
                continue  # "If Casa Azul is rated ...": the record's trusted words say so, whole
            value = amount_value(record[condition.field])
            where = f"{condition.field} {record[condition.field]} in {tool} (step {call.get('step')})"
            out.append((where, float(value) if value is not None else None))
    return out


def conditioned(
    rule: Requested,
    args: Mapping[str, Any],
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> ConditionCheck | None:
    """The conditional mandate of the run's request for the rule's kind of action, checked on
    trusted data for this call (None: the request has none, and the call stands on nothing)."""
    if context.reader is not None and not isinstance(context.reader, GrammarReader):
        return None  # another reader gives its own mandates; a condition it cannot give asks
    found: Sequence[Mandate] = matching(
        conditional_mandates(context.request), rule.keywords, rule.verbs, rule.objects
    )
    failed: ConditionCheck | None = None
    for mandate in found:
        assert mandate.condition is not None
        facts = _facts(mandate.condition, args, context, policy)
        holds = bool(facts) and all(v is not None and _compare(v, mandate.condition) for _w, v in facts)
        read = "; ".join(w for w, _v in facts)
        if holds:
            return ConditionCheck(mandate, True, read)
        told = (
            f"{read}: does not satisfy it"
            if facts
            else f"no trusted {mandate.condition.field} of the record this call acts on"
        )
        failed = failed or ConditionCheck(mandate, False, told)
    return failed


def conditional_mandate(
    rule: Requested, action: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> str | None:
    """The conditional mandate a call stands on, as the audit and the human read it ("If it is
    rated higher than 4: book · 2 nights for me"), or None where the request has none for it."""
    args = action.get("args")
    check = conditioned(rule, args if isinstance(args, Mapping) else {}, context, policy)
    if check is None or check.mandate.condition is None:
        return None
    return f"{check.mandate.condition.text}: {said(check.mandate)}"
