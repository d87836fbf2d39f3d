"""The supervisor's policy-wide flow rules, checked before any call (reads included): where a
destination argument may come from (:class:`~policies.supervisor.rules.kinds.Destinations`) and where a
confidential value may go (:class:`~policies.supervisor.rules.kinds.Confidentiality`). Each refusal says
which flow it stopped (:func:`policies.supervisor.provenance.flow.flow`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from policies.decision import Decision
from policies.supervisor.provenance.flow import Sensitive, carries, flow, mask, sensitive_values
from policies.supervisor.reading.values import (
    Source,
    describe,
    found_in,
    identity,
    leaf_values,
    rule_values,
    traced,
)
from policies.supervisor.reading.words import RequestReader, affirmative_words, field_word
from policies.supervisor.rules.kinds import Destinations, Reader
from policies.supervisor.rules.policy import SupervisorPolicy

#: A bare name ending in one of these is a file, not a domain (``report.pdf``), unless the policy
#: names its argument as a destination.
FILE_EXTENSIONS = frozenset(
    re.findall(
        r"\w+",
        "pdf txt csv tsv json yaml yml xml md doc docx xls xlsx ppt pptx odt png jpg jpeg gif svg webp "
        "zip tar gz tgz py js ts html htm log ini cfg toml eml ics",
    )
)


def _is_destination(rule: Destinations, leaf: Any) -> bool:
    ident = identity(leaf) if isinstance(leaf, str) else None
    if not isinstance(ident, tuple) or ident[0] not in rule.kinds:
        return False
    return not (ident[0] == "domain" and ident[1].rsplit(".", 1)[-1] in FILE_EXTENSIONS)


def _destination_values(rule: Destinations, tool: str, args: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The (argument, value) pairs of a call that are destinations under ``rule``."""
    named = set(rule.args.get(tool, ()))
    return [
        (arg, leaf)
        for arg, value in args.items()
        for leaf in (rule_values(value) if arg in named else leaf_values(value))  # "#q": a channel too
        if arg in named or _is_destination(rule, leaf)
    ]


#: Whether a value is one the request asks to take from tool data (requested following), given the
#: argument and the value: where it came from, or None.
Follow = Callable[[str, Any], str | None]

#: The run's sources, or what makes them (``ReviewContext.sources``): read only by a rule that
#: checks a value, so a call no flow rule covers does not build them.
Sources = Sequence[Source] | Callable[[], Sequence[Source]]


def _sources(sources: Sources) -> Sequence[Source]:
    return sources() if callable(sources) else sources


def destinations(
    policy: SupervisorPolicy,
    tool: str,
    args: Mapping[str, Any],
    sources: Sources,
    follow: Follow | None = None,
) -> tuple[Decision | None, dict[str, str]]:
    """Each destination argument's value must come from the rule's sources (or be one the request
    asks to follow, by ``follow``): the refusal when one does not, and where each checked value
    came from."""
    rule = policy.destinations
    checked: dict[str, str] = {}
    if rule is None:
        return None, checked
    for arg, value in _destination_values(rule, tool, args):
        found = found_in(value, _sources(sources))  # a short value: where a source writes it whole
        checked[arg] = describe(found)
        admitted = any(s.admitted_by(rule.sources) for s in found)
        told_by = follow(arg, value) if follow is not None and not admitted and traced(value) else None
        if told_by:
            checked[arg] = told_by
        elif not admitted:
            details = {"arg": arg, "value": value, "allowed_sources": list(rule.sources)}
            told = flow(value, checked[arg], f"{tool}.{arg}")
            decision = Decision(policy.verdict(rule.verdict), rule.reason, {**details, **told})
            return decision, {arg: checked[arg]}
    return None, checked


def _reads(reader: Reader, tool: str, arg: str, secret: Sensitive) -> bool:
    return (
        reader.tool == tool
        and (not reader.args or arg in reader.args)
        and (not reader.fields or secret.field in reader.fields)
    )


def _recipient(reader: Reader, args: Mapping[str, Any], sources: Sequence[Source]) -> tuple[bool, str]:
    """Does the reader's recipient argument come only from its sources? And where it came from."""
    if reader.recipient is None:
        return True, ""
    values = rule_values(args.get(reader.recipient))  # a short name too, found by whole token
    told = [f"{v} ({describe(found_in(v, sources))})" for v in values]
    ok = bool(values) and all(
        any(s.admitted_by(reader.recipient_sources) for s in found_in(v, sources)) for v in values
    )
    return ok, ", ".join(told)


#: The ways users write a confidential field's word ("the wifi pw"): each names it as the word does.
#: Only spellings of the word itself, never another thing's name ("key", "code", "pass": a boarding pass).
FIELD_WORD_VARIANTS: dict[str, tuple[str, ...]] = {
    "password": ("pw", "pwd", "passwd", "passcode", "passphrase", "pword"),
    "passcode": ("password", "pw"),
}


def _asked_for(
    reader: Reader, secret: Sensitive, sources: Sequence[Source], words: RequestReader | None = None
) -> bool:
    """Does the request say what the value is (unless the reader does not ask it to): a clause of
    it asks for one of the reader's ``names``, or the field's word or one of its spellings
    (:data:`FIELD_WORD_VARIANTS`), as a whole word (plurals and other inflections too: "card" is not
    "cardiology", "key" is not "keynote")?"""
    if not reader.asked:
        return True
    word = field_word(secret.field)
    stem = word[:-1] if len(word) > 3 and word.endswith("s") else word  # cards: a card
    names = list(reader.names) or [stem, *FIELD_WORD_VARIANTS.get(stem, ())]
    request = next((s.text for s in sources if s.kind == "request"), "")
    return bool([n for n in names if n]) and affirmative_words(request, [n for n in names if n], words)


def confidentiality(
    policy: SupervisorPolicy,
    tool: str,
    args: Mapping[str, Any],
    calls: Sequence[Mapping[str, Any]],
    sources: Sources,
    words: RequestReader | None = None,
    named: Callable[[], Sequence[Source]] | None = None,
) -> Decision | None:
    """A confidential value in any argument of this call must go where a reader allows, and, for a
    reader that asks it (``Reader.asked``), only when the request names what it is (the request
    read by ``words``, a :class:`~policies.supervisor.reading.words.RequestReader`; default: the grammar).
    ``named``: the trusted values of the records the turn names; a refusal whose recipients a
    record the turn names holds, for a reader the request names the value to, says so
    (``details["recipient_named"]``: the review asks it instead)."""
    fields = policy.sensitive_fields()
    secrets = sensitive_values(calls, fields) if fields else []
    if not secrets:
        return None
    sources = _sources(sources)
    rule = policy.confidentiality
    for arg, value in args.items():
        for secret in (s for s in secrets if carries(value, s.value)):
            readers = [r for r in rule.readers if _reads(r, tool, arg, secret)]
            allowed = [(r, *_recipient(r, args, sources)) for r in readers]
            if any(ok and _asked_for(r, secret, sources, words) for r, ok, _told in allowed):
                continue
            recipient = next((told for _r, _ok, told in allowed if told), "")
            more = {"recipient": recipient} if recipient else {}
            if any(ok for _r, ok, _told in allowed):  # a reader would take it, had the request named it
                more["unasked"] = f"the request does not name the {field_word(secret.field)}"
            details = {"arg": arg, "field": secret.field, "readers": [r.tool for r in rule.readers]}
            held = named() if named is not None and readers else []
            for reader in (r for r in readers if held and _asked_for(r, secret, sources, words)):
                values = rule_values(args.get(str(reader.recipient))) if reader.recipient else []
                if values and all(found_in(v, held) for v in values):
                    details["recipient_named"] = held[0].label()
                    break
            told = flow(mask(secret.value), secret.label(), f"{tool}.{arg}", **more)
            return Decision(policy.verdict(rule.verdict), rule.reason, {**details, **told})
    return None
