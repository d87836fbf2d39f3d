"""A finding's fix as a change to the policy, so that the probe can check it before offering it
(issue 57): the policy with the fix applied is run again on the attacks that went through and on
every benign task (:func:`apps.probe.runner.probe`). A fix that leaves an attack running unasked
does not close the hole; one that stops a benign task completing is not offered, and the fallback
(a human asked for every call of the tool) is checked and offered instead.

:func:`candidates` reads the rule a finding blames (its ``rule_id``: ``tool.arg:Rule`` or
``tool:Rule``) and returns the policy with the finding's own fix, in words and as data (an owner
rule: one per tool whose records say their owner, and a binding to the subject, tried in turn); a
fix that needs what only the author knows (the verbs users write, a Cedar policy) has no data
form, and only the fallback is checked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from policies.supervisor import (
    ArgSource,
    IdentifierRule,
    NumberArg,
    OwnedRecord,
    Requested,
    SupervisorPolicy,
    Threshold,
    ToolRules,
)

__all__ = ["FixCheck", "Fixed", "candidates", "fallback"]

#: A fix: the policy with it, and the fix in words.
Fixed = tuple[SupervisorPolicy, str]

#: The sources a value of another party's choosing cannot reach (docs/own-agent.md's advice).
NAMED = ["request", "named"]


@dataclass(frozen=True)
class FixCheck:
    """A fix checked by running the policy with it: ``fix`` in words, the attacks it closed of those
    that went through, the benign tasks it stopped completing (``broken``: "task (engine): why"),
    and the benign tasks' asks before and after (every engine's together). ``instead``: why the
    finding's own fix is not offered (``fix`` is then the fallback's, which the report prints)."""

    fix: str
    closed: int
    attacks: int
    broken: list[str] = field(default_factory=list)
    asks_before: int = 0
    asks_after: int = 0
    instead: str = ""

    @property
    def holds(self) -> bool:
        return self.closed == self.attacks and not self.broken

    def line(self) -> str:
        """The check in one line of the report."""
        if not self.holds:
            left = self.attacks - self.closed
            why = [f"{left} of {self.attacks} attack(s) still run unasked"] if left else []
            return "checked, does not hold: " + "; ".join([*why, *self.broken])
        asks = (
            ""
            if self.asks_after == self.asks_before
            else f"; benign asks {self.asks_before} -> {self.asks_after}"
        )
        head = f"checked: closes {self.closed} of {self.attacks} attack(s), every benign task still completes"
        return (
            head + asks + (f" (the finding's own fix is not offered: {self.instead})" if self.instead else "")
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "fix": self.fix,
            "holds": self.holds,
            "closed": self.closed,
            "attacks": self.attacks,
            "broken": list(self.broken),
            "asks_before": self.asks_before,
            "asks_after": self.asks_after,
        }
        return out | ({"instead": self.instead} if self.instead else {})


def _rules(policy: SupervisorPolicy, tool: str) -> ToolRules:
    return policy.rules.get(tool) or ToolRules()


def _with_rules(policy: SupervisorPolicy, tool: str, **update: Any) -> SupervisorPolicy:
    rules = _rules(policy, tool)
    new = ToolRules.model_validate({**rules.model_dump(), **update})
    return policy.model_copy(update={"rules": {**policy.rules, tool: new}})


def _sources_named(policy: SupervisorPolicy, tool: str, arg: str) -> SupervisorPolicy:
    """``tool.arg`` admitted from the request or a record it names only (other sources dropped)."""
    given = _rules(policy, tool).arg_sources
    kept = [s for s in given if s.arg != arg]
    old = next((s for s in given if s.arg == arg), None)
    reason = old.reason if old is not None else f"{arg}_not_asked_for"
    rule = ArgSource(arg=arg, sources=list(NAMED), reason=reason)
    return _with_rules(policy, tool, arg_sources=[*kept, rule])


def _not_derived(policy: SupervisorPolicy, tool: str, arg: str) -> SupervisorPolicy | None:
    rules = _rules(policy, tool)
    if not any(s.arg == arg for s in rules.arg_sources):
        return None
    sources = [s.model_copy(update={"derived": []}) if s.arg == arg else s for s in rules.arg_sources]
    return _with_rules(policy, tool, arg_sources=sources)


def _threshold(policy: SupervisorPolicy, tool: str, arg: str, benign: Sequence[Any]) -> Fixed:
    """A threshold at the largest value a benign task uses (0 where none does: every call asks)."""
    values = [float(v) for v in benign if isinstance(v, int | float) and not isinstance(v, bool)]
    limit = max(values, default=0.0)
    rule = Threshold(arg=arg, limit=limit, reason=f"large_{tool}", cumulative=True)
    words = f"ToolRules(escalate_above=[Threshold(arg='{arg}', limit={limit:g}, cumulative=True)]) on {tool}"
    return _with_rules(policy, tool, escalate_above=[*_rules(policy, tool).escalate_above, rule]), words


def _cumulative(policy: SupervisorPolicy, tool: str, arg: str) -> SupervisorPolicy | None:
    rules = _rules(policy, tool)
    if not any(t.arg == arg and not t.cumulative for t in rules.escalate_above):
        return None
    summed = [t.model_copy(update={"cumulative": True}) if t.arg == arg else t for t in rules.escalate_above]
    return _with_rules(policy, tool, escalate_above=summed)


def _thread_scoped(policy: SupervisorPolicy, tool: str, arg: str) -> SupervisorPolicy | None:
    """Each cumulative threshold of ``arg`` that sums one run only, summing the thread's runs."""
    rules = _rules(policy, tool)
    if not any(t.arg == arg and t.cumulative and t.scope == "run" for t in rules.escalate_above):
        return None
    summed = [
        t.model_copy(update={"scope": "thread"}) if t.arg == arg and t.cumulative else t
        for t in rules.escalate_above
    ]
    return _with_rules(policy, tool, escalate_above=summed)


def _keywords_dropped(policy: SupervisorPolicy, tool: str, words: Sequence[str]) -> SupervisorPolicy | None:
    asked = _rules(policy, tool).requested
    if asked is None or not words:
        return None
    keywords = [k for k in asked.keywords if k not in words]
    verbs = [v for v in asked.verbs if v not in words]
    if not keywords and not verbs:
        return None  # nothing left would ask for the tool at all
    narrowed = Requested.model_validate({**asked.model_dump(), "keywords": keywords, "verbs": verbs})
    return _with_rules(policy, tool, requested=narrowed)


def _trust_except(policy: SupervisorPolicy, tool: str, name: str) -> SupervisorPolicy | None:
    spec = policy.tools.get(tool)
    if spec is None:
        return None
    new = spec.model_copy(update={"trust_except": [*spec.trust_except, name]})
    return policy.model_copy(update={"tools": {**policy.tools, tool: new}})


def _declared(policy: SupervisorPolicy, tool: str) -> SupervisorPolicy | None:
    spec = policy.tools.get(tool)
    if spec is None:
        return None
    tools = {**policy.tools, tool: spec.model_copy(update={"side_effect": True})}
    rules = {**policy.rules, tool: ToolRules(require_approval=True)}
    return policy.model_copy(update={"tools": tools, "rules": rules})


def _repeat_keyed(policy: SupervisorPolicy, tool: str, arg: str) -> SupervisorPolicy | None:
    repeat = _rules(policy, tool).repeat
    kept = [p for p in (repeat.per if repeat else []) if p != arg]
    if repeat is None or not kept:
        return None
    return _with_rules(policy, tool, repeat=repeat.model_copy(update={"per": kept}))


def fallback(policy: SupervisorPolicy, tool: str) -> Fixed:
    """A human asked for every call of ``tool``: closes any hole in it, at the cost of its review
    load (a tool the policy ran as a read is declared a side effect too)."""
    spec = policy.tools.get(tool)
    if spec is not None and not spec.side_effect:
        declared = _declared(policy, tool)
        if declared is not None:
            return declared, f"list {tool} in side_effects with ToolRules(require_approval=True)"
    return _with_rules(policy, tool, require_approval=True), f"ToolRules(require_approval=True) on {tool}"


def _owned(policy: SupervisorPolicy, tool: str, arg: str, subject: Sequence[str]) -> list[Fixed]:
    """``arg`` bound to the subject where the subject has a key of its name, and an ``OwnedRecord``
    on each tool whose records say their owner (``ToolSpec.owner``), keyed by each record key."""
    rules = _rules(policy, tool)
    out: list[Fixed] = []
    if arg in subject:
        out.append(
            (
                _with_rules(policy, tool, bound_args=[*rules.bound_args, arg]),
                f"bound_args=['{arg}'] on {tool}",
            )
        )
    for name, spec in ((n, s) for n, s in policy.tools.items() if s.owner):
        for key in spec.record_keys or ["id"]:
            owned = [*rules.owned, OwnedRecord(arg=arg, tool=name, key=key)]
            words = f"ToolRules(owned=[OwnedRecord(arg='{arg}', tool='{name}', key='{key}')]) on {tool}"
            out.append((_with_rules(policy, tool, owned=owned), words))
    return out


def candidates(
    policy: SupervisorPolicy,
    rule_id: str,
    words: Sequence[str] = (),
    benign: Callable[[str, str], Sequence[Any]] = lambda _tool, _arg: (),
    subject: Sequence[str] = (),
) -> list[Fixed]:
    """The fixes of the finding blaming ``rule_id``, as data (``policy`` changed) and in words, in
    the order to try them; none where the fix has no data form. ``words``: the Requested keywords
    the finding names (for a tool with no Requested rule: the verbs that ask for it);
    ``benign(tool, arg)``: the values the benign tasks give that argument (a new
    threshold's limit); ``subject``: the subject's keys (an argument bound to one)."""
    where, _, rule = rule_id.rpartition(":")
    tool, _, arg = where.partition(".")
    if not tool or tool == "cedar":
        return []
    if rule == "Threshold":
        summed = _cumulative(policy, tool, arg)
        if summed is not None:
            return [(summed, f"Threshold(arg='{arg}', cumulative=True) on {tool}")]
        threaded = _thread_scoped(policy, tool, arg)
        if threaded is not None:
            return [(threaded, f"Threshold(arg='{arg}', cumulative=True, scope='thread') on {tool}")]
        return [_threshold(policy, tool, arg, benign(tool, arg))]
    if rule == "OwnedRecord":
        return _owned(policy, tool, arg, subject)
    makers: Mapping[str, Callable[[], SupervisorPolicy | None]] = {
        "side_effects": lambda: _declared(policy, tool),
        "ToolRules": lambda: _with_rules(policy, tool, require_approval=True),
        "Repeat": lambda: _repeat_keyed(policy, tool, arg),
        "Requested": lambda: _keywords_dropped(policy, tool, words),
        "NumberArg": lambda: _with_rules(
            policy, tool, number_args=[*_rules(policy, tool).number_args, NumberArg(arg=arg, decimals=2)]
        ),
        "ArgSource.derived": lambda: _not_derived(policy, tool, arg),
        "IdentifierRule": lambda: _identifiers(policy, tool, arg),
        "ArgSource": lambda: _sources_named(policy, tool, arg),
        "OneOf": lambda: _sources_named(policy, tool, arg),
        "ToolSpec": lambda: _trust_except(policy, tool, arg),
    }
    if rule == "Requested" and _rules(policy, tool).requested is None:
        # no rule yet: the verbs the user's own requests for the tool use, and no attack's
        asking = _requested_by(policy, tool, words)
        return (
            []
            if asking is None
            else [(asking, f"ToolRules(requested=Requested(keywords={list(words)})) on {tool}")]
        )
    make = makers.get(rule)
    whole = rule in ("side_effects", "ToolRules", "Requested")  # rules on the call as a whole
    fixed = make() if make is not None and (arg or whole) else None
    if fixed is None:
        return []
    return [(fixed, _WORDS[rule].format(tool=tool, arg=arg, words=list(words)))]


def _requested_by(policy: SupervisorPolicy, tool: str, verbs: Sequence[str]) -> SupervisorPolicy | None:
    """A Requested rule for ``tool`` that has none: the turn must say one of ``verbs``."""
    if not verbs:
        return None
    return _with_rules(policy, tool, requested=Requested(keywords=list(verbs)))


def _identifiers(policy: SupervisorPolicy, tool: str, arg: str) -> SupervisorPolicy:
    checked = _rules(policy, tool).identifiers
    rule = (
        checked.model_copy(update={"args": [*checked.args, arg]})
        if checked is not None and checked.args
        else IdentifierRule(args=[arg])
    )
    return _with_rules(policy, tool, identifiers=rule)


_WORDS = {
    "side_effects": "list {tool} in side_effects with ToolRules(require_approval=True)",
    "ToolRules": "ToolRules(require_approval=True) on {tool}",
    "Repeat": "Repeat without {arg} on {tool}",
    "Requested": "drop {words} from the Requested rule of {tool}",
    "NumberArg": "NumberArg(arg='{arg}', decimals=2) on {tool}",
    "ArgSource.derived": "ArgSource(arg='{arg}', derived=[]) on {tool}",
    "IdentifierRule": "IdentifierRule on {tool}.{arg}",
    "ArgSource": "ArgSource(arg='{arg}', sources=['request', 'named']) on {tool}",
    "OneOf": "ArgSource(arg='{arg}', sources=['request', 'named']) on {tool}",
    "ToolSpec": "ToolSpec(trust_except=[..., '{arg}']) for {tool}",
}
