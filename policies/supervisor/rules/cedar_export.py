"""Today's policy rules as Cedar, where they map (``agent-patterns cedar export``): a starting point
for a security team that reviews policies in Cedar, and a statement of what stays in the project's
own rules because Cedar cannot say it.

What maps, per tool (:func:`export_cedar`):

- ``arg_sources`` (where a value may come from) → a ``forbid`` unless the argument's ``sources``
  hold one the rule admits (``trusted`` spelled out as the request, the subject, the policy, the
  run's own ids, the records the turn names and each trusted tool);
- ``one_of`` with fixed texts → a ``forbid`` unless the value is one of them;
- ``escalate_above`` that is not cumulative → an ``@ask`` ``permit`` above the limit;
  ``require_approval`` → an ``@ask`` ``permit``; ``reviewer_role`` is the ``@ask``'s role, and a
  ``@role`` on the plain ``permit`` beside them, which keeps the calls below the limit running
  (Cedar's default deny holds for a tool a permit names) and gives any question the role.

What does not map is listed, rule by rule: Cedar is told each value and where it was found, not the
records behind it, the thread's sums, the run's earlier calls, nor a question's answers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from policies.supervisor.rules.kinds import ArgSource, ToolRules
from policies.supervisor.rules.policy import SupervisorPolicy

#: What a source name of a rule admits, as Cedar's facts name sources (``trusted`` also each
#: trusted tool's ``trusted:<tool>``; a reviewer's edit, ``human``, is admitted by every rule).
_ADMITS = {
    "request": ("request", "own"),
    "named": ("named", "own"),
    "subject": ("subject",),
    "policy": ("policy",),
    "trusted": ("request", "subject", "policy", "own", "named"),
}


@dataclass
class CedarExport:
    """The exported Cedar ``text`` and, per rule that does not map, why (``unmapped``)."""

    text: str
    unmapped: list[str] = field(default_factory=list)

    def commented(self) -> str:
        """The text with what does not map as ``//`` comments before it."""
        notes = [f"// does not map: {line}" for line in self.unmapped]
        return "\n".join([*notes, *([""] if notes else []), self.text]).rstrip() + "\n"


def admitted_labels(sources: list[str], policy: SupervisorPolicy) -> list[str] | None:
    """The source labels a rule's ``sources`` admit (None: ``any``, no limit)."""
    if "any" in sources:
        return None
    labels: list[str] = ["human"]
    for name in sources:
        if name == "trusted":
            labels += [f"trusted:{tool}" for tool in policy.trusted_tools()]
        if name.startswith("tool:"):
            labels += [f"trusted:{name[5:]}", "own"]
        if name.startswith("call:"):
            labels += [f"trusted:{name[5:]}", f"args:{name[5:]}", "own"]
        labels += list(_ADMITS.get(name, ()))
    return list(dict.fromkeys(labels))


def _arg(name: str) -> str:
    return f"context.args[{json.dumps(name)}]"


def _has(name: str) -> str:
    return f"context.args has {json.dumps(name)}"


def _scope(tool: str) -> str:
    return f"principal, action == Action::{json.dumps(tool)}, resource"


def _sources_rule(tool: str, rule: ArgSource, policy: SupervisorPolicy, unmapped: list[str]) -> str | None:
    labels = admitted_labels(list(rule.sources), policy)
    if labels is None:
        return None
    if rule.verdict == "escalate":
        unmapped.append(f"{tool}.arg_sources[{rule.arg}]: asks where it refuses (a forbid cannot ask)")
        return None
    if rule.derived and set(rule.sources) <= {"request", "named"}:
        labels.append("derived")  # Cedar's facts say which numbers the turn's arithmetic gives
    elif rule.derived:
        unmapped.append(
            f"{tool}.arg_sources[{rule.arg}]: a number the turn's arithmetic derives "
            f"({', '.join(rule.derived)}) is admitted by the rule; Cedar sees no source for it"
        )
    if any(rule.arg in follow.args.get(tool, ()) for follow in policy.follow):
        labels.append("followed")  # a value the turn asks to take from a record, as the rule admits it
    listed = ", ".join(json.dumps(label) for label in labels)
    return (
        f'@id("{tool}-{rule.arg}-from-{"-or-".join(rule.sources)}")\n'
        f"forbid({_scope(tool)})\n"
        f"when {{ {_has(rule.arg)} && !{_arg(rule.arg)}.sources.containsAny([{listed}]) }};"
    )


def _one_of(tool: str, rules: ToolRules, unmapped: list[str]) -> list[str]:
    out = []
    for rule in rules.one_of:
        texts = [v for v in rule.values if isinstance(v, str)]
        if rule.subject_key or len(texts) != len(rule.values) or rule.verdict == "escalate":
            unmapped.append(f"{tool}.one_of[{rule.arg}]: a subject's list, a number or an ask")
            continue
        listed = ", ".join(json.dumps(v) for v in texts)
        out.append(
            f'@id("{tool}-{rule.arg}-one-of")\n'
            f"forbid({_scope(tool)})\n"
            f"when {{ {_has(rule.arg)} && !([{listed}].contains({_arg(rule.arg)}.value)) }};"
        )
        unmapped.append(f"{tool}.one_of[{rule.arg}]: compared as written (the rule folds case and spaces)")
    return out


def _asks(tool: str, rules: ToolRules, unmapped: list[str]) -> list[str]:
    role = f"({json.dumps(rules.reviewer_role)})" if rules.reviewer_role else ""
    out = []
    if rules.require_approval:  # unless the request stands in for the approval, as the rule lets it
        unless = " unless { context.decided.by_request }" if rules.request_as_approval else ""
        out.append(f'@id("{tool}-asks")\n@ask{role}\npermit({_scope(tool)}){unless};')
    for threshold in rules.escalate_above:
        if threshold.cumulative:
            why = "cumulative (Cedar sees this call's value, not a sum)"
            unmapped.append(f"{tool}.escalate_above[{threshold.arg}]: {why}")
            continue
        limit = format(threshold.limit, "f").rstrip("0").rstrip(".")
        shown = limit if "." in limit else f"{limit}.0"
        out.append(
            f'@id("{tool}-{threshold.arg}-above-{limit}")\n@ask{role}\npermit({_scope(tool)})\n'
            f'when {{ {_arg(threshold.arg)}.value.greaterThan(decimal("{shown}")) }};'
        )
    if out or rules.reviewer_role:  # default deny now holds for the tool: the rest runs as before,
        # and any question about it (whichever check asks) is the role's
        given = f"@role({json.dumps(rules.reviewer_role)})\n" if rules.reviewer_role else ""
        out.append(f'@id("{tool}")\n{given}permit({_scope(tool)});')
    return out


#: Rules no Cedar statement over one call's values and sources can say, in words.
_NOT_CEDAR = {
    "bound_args": "bound to the run's subject",
    "owned": "the record must be the subject's (Cedar is not told the records)",
    "identifiers": "addresses and links inside a text (Cedar is told an argument's sources, not its words)",
    "requested": "the turn must ask for it (context.mandate.asked is a fact; the project's check "
    "also asks on a partial reading)",
    "preconditions": "an earlier call must have succeeded",
    "number_args": "numbers rounded to their decimals",
    "run_cap": "a cap on the run's sum",
    "record_limits": "a limit from the record's own figure, across the thread",
    "repeat": "the same call on the same record again",
    "defaults": "a default filled in (a revision)",
    "custom": "custom rules (Python)",
}


def export_cedar(policy: SupervisorPolicy) -> CedarExport:
    """``policy``'s rules as Cedar where they map, each statement named ``@id("<tool>-...")``, and
    what does not map (:class:`CedarExport`)."""
    statements: list[str] = []
    unmapped: list[str] = []
    for tool, rules in policy.rules.items():
        for rule in rules.arg_sources:
            said = _sources_rule(tool, rule, policy, unmapped)
            statements += [said] if said else []
        statements += _one_of(tool, rules, unmapped)
        statements += _asks(tool, rules, unmapped)
        if rules.approvals > 1:
            unmapped.append(f"{tool}.approvals: {rules.approvals} distinct reviewers (Cedar asks one role)")
        for name, why in _NOT_CEDAR.items():
            value: Any = getattr(rules, name)
            if value not in (None, [], False):
                unmapped.append(f"{tool}.{name}: {why}")
    return CedarExport("\n\n".join(statements) + ("\n" if statements else ""), unmapped)
