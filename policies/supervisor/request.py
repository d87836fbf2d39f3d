"""Reading a run's request: its clauses, and whether it asks for a rule's kind of action
(:class:`~policies.supervisor.rules.Requested`), as the review engine
(:mod:`policies.supervisor.review`) checks before a request authorises a change."""

from __future__ import annotations

import re

from policies.provenance import normalize_text
from policies.records import asks_step
from policies.supervisor.rules import Requested


def _asks(request: str, keyword: str) -> bool:
    """Does a word of ``request`` begin with ``keyword`` (case and spacing ignored)?"""
    return re.search(rf"(?<!\w){re.escape(normalize_text(keyword))}", normalize_text(request)) is not None


#: Where one clause of a request ends: sentence punctuation, a comma or semicolon before a space,
#: a line break, or a joining word.
_CLAUSE = re.compile(r"(?i)[.!?;:,](?=\s|$)|\n|\b(?:and|then|but|also|after that|afterwards)\b")


def clauses(request: str) -> list[str]:
    """The clauses of a request (see :class:`~policies.supervisor.rules.Requested`)."""
    return [c for c in (part.strip() for part in _CLAUSE.split(request)) if c]


def requested(rule: Requested, request: str) -> bool:
    """Does ``request`` ask for the rule's kind of action: a keyword anywhere, or, in one clause, a
    verb and after it an object (another word: "email" the noun is not "email" the verb)?"""
    if any(_asks(request, word) for word in rule.keywords):
        return True
    return bool(rule.verbs) and any(asks_step(c, rule.verbs, rule.objects) for c in clauses(request))
