"""Reading a run's request: its clauses, and whether it asks for a rule's kind of action
(:class:`~policies.supervisor.rules.Requested`), as the review engine
(:mod:`policies.supervisor.review`) checks before it lets a call of that kind run. Words are read
as :mod:`policies.words` reads them for every rule: whole words and their inflections, and only
where a clause asks (not negated, not a question, not a condition)."""

from __future__ import annotations

from policies.supervisor.rules import Requested
from policies.words import affirmative_words, asks_step, clauses_of


def clauses(request: str) -> list[str]:
    """The clauses of a request (see :mod:`policies.words`)."""
    return [c.text for c in clauses_of(request)]


def requested(rule: Requested, request: str) -> bool:
    """Does ``request`` ask for the rule's kind of action: a keyword where a clause asks for it, or,
    in one clause, a verb where it asks and after it an object ("email" the noun is not "email"
    the verb)?"""
    if affirmative_words(request, rule.keywords):
        return True
    return bool(rule.verbs) and asks_step(request, rule.verbs, rule.objects)
