"""Reading a run's request: its clauses, and whether it asks for a rule's kind of action
(:class:`~policies.supervisor.rules.kinds.Requested`), as the review engine
(:mod:`policies.supervisor.decide.review`) checks before it lets a call of that kind run. The request is
read by the one reader every rule uses (:mod:`policies.supervisor.reading.words`: a small positive grammar of
plain imperatives, :class:`~policies.supervisor.reading.words.GrammarReader`, unless another
:class:`~policies.supervisor.reading.words.RequestReader` is given): a kind is asked for only where a clause
the reader admits has one of the rule's words at its head."""

from __future__ import annotations

from policies.supervisor.reading.words import (
    RequestReader,
    asks_for,
    asks_step,
    clauses_of,
    said,
    step_mandates,
)
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
