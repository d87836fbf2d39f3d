"""Reading a run's request: its clauses, and whether it asks for a rule's kind of action
(:class:`~policies.supervisor.rules.kinds.Requested`), as the review engine
(:mod:`policies.supervisor.decide.review`) checks before it lets a call of that kind run. The request is
read by the one reader every rule uses (:mod:`policies.supervisor.reading.words`: a small positive grammar of
plain imperatives, :class:`~policies.supervisor.reading.words.GrammarReader`, unless another
:class:`~policies.supervisor.reading.words.RequestReader` is given): a kind is asked for only where a clause
the reader admits has one of the rule's words at its head."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from policies.supervisor.reading.coverage import without_left_out
from policies.supervisor.reading.words import (
    RequestReader,
    asks_for,
    asks_step,
    clauses_of,
    conditional_mandates,
    mandates,
    matching,
    said,
    stated_text,
    step_mandates,
)
from policies.supervisor.request.records import Naming, pointed_records
from policies.supervisor.rules.kinds import Requested


def clauses(request: str) -> list[str]:
    """The clauses of a request (see :mod:`policies.supervisor.reading.words`)."""
    return [c.text for c in clauses_of(request)]


def requested(rule: Requested, request: str, reader: RequestReader | None = None) -> bool:
    """Does ``request`` ask for the rule's kind of action: a mandate with one of its ``keywords`` at
    its head ("Cancel the Review"), or one of its ``verbs`` at its head and one of its ``objects``
    after it in the same clause ("email" the noun is not "email" the verb)?"""
    if asks_for(request, rule.keywords, reader):
        return True
    return bool(rule.verbs) and asks_step(request, rule.verbs, rule.objects, reader)


def mandate(rule: Requested, request: str, reader: RequestReader | None = None) -> str | None:
    """The mandate of ``request`` that asks for the rule's kind of action, as the human and the
    audit read it ("cancel · the Budget Review": :func:`policies.supervisor.reading.words.said`), or None
    where none does (the rule's ``requested`` check fails exactly then)."""
    found = step_mandates(request, rule.keywords, rule.verbs, rule.objects, reader)
    return said(found[0]) if found else None


def stated_for(rule: Requested | None, request: str, reader: RequestReader | None = None) -> str:
    """What the turn states for a call of the rule's kind: the text of the mandates that ask for it
    and of the other mandates of their sentences ("Open https://conf.example/2026 and add the
    keynote to my calendar": the page is named for the event;
    :func:`policies.supervisor.reading.words.stated_text`; those under a condition too, which admit nothing
    until the gateway checks the condition), never the turn's other clauses nor a mandate of another sentence
    ("Pay City Water bill B-31. Avoid settling the Acme bill.": the Acme bill is named by no mandate to pay).
    With no rule (a tool whose kind the policy does not declare), every mandate of the turn. What naming and
    the request's authority read (issue 49)."""
    found = list(mandates(request, reader))
    if rule is None:
        return stated_text(found)
    asking = _asking(rule, request, reader)
    sentences = {m.sentence for m in asking}
    return stated_text([*asking, *(m for m in found if m.sentence in sentences)])


def own_stated_for(rule: Requested | None, request: str, reader: RequestReader | None = None) -> str:
    """What the mandates that ask for a call of the rule's kind state themselves, with what they
    point back to, without the other mandates of their sentences ("Pay City Water bill B-31 and
    check the Acme bill B-40": the water bill only); empty with no rule. Where it names a record
    of its own, the call's kind is asked for that record, not for another mandate's."""
    return "" if rule is None else stated_text(_asking(rule, request, reader))


def stated_for_call(
    rule: Requested | None,
    request: str,
    calls: Sequence[Mapping[str, Any]],
    naming: Naming,
    reader: RequestReader | None = None,
) -> str:
    """What the turn states for a call of the rule's kind, as naming reads it: the mandates' own
    words (:func:`own_stated_for`) where they name a record of the run's calls themselves ("Pay
    City Water bill B-31 and check the Acme bill B-40": B-31's only), else with the other mandates
    of their sentences (:func:`stated_for`: "Open the page and add the keynote to my calendar")."""
    whole = _kept_out(stated_for(rule, request, reader), request)
    own = _kept_out(own_stated_for(rule, request, reader), request)
    if own and own != whole and pointed_records(own, calls, naming):
        return own  # only where another mandate stands beside them is there anything to leave out
    return whole


def _kept_out(stated: str, request: str) -> str:
    """``stated`` without the clauses of ``request`` that keep what they name as it is or say not to
    act on it (:func:`~policies.supervisor.reading.coverage.without_left_out`): a mandate's coordinated
    "..., E-102 unchanged" names no record to act on."""
    return without_left_out(stated, request)


def asking_mandates(rule: Requested, request: str, reader: RequestReader | None = None) -> list[Any]:
    """The mandates of ``request`` that ask for a call of the rule's kind (conditional ones too),
    each with what it coordinates and points back to (:func:`own_stated_for` is their text)."""
    return _asking(rule, request, reader)


def _asking(rule: Requested, request: str, reader: RequestReader | None) -> list[Any]:
    asking = step_mandates(request, rule.keywords, rule.verbs, rule.objects, reader)
    asking += matching(conditional_mandates(request, reader), rule.keywords, rule.verbs, rule.objects)
    return asking
