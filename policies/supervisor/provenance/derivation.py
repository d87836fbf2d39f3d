"""Derived values: a number that no admitted source holds as written, but that simple arithmetic
over numbers the admitted sources hold gives — the total of three bills, what is left of an invoice
after a deposit, a percentage of a balance. Such a number is as trusted as the numbers it is
computed from, and its derivation is told in the audit ("sum: 45.3 + 38.9 + 41.2 = 125.4, from
list_bills (step 2)"). A number from untrusted text is not a term, so it is not derived.

Operations: ``sum`` (2 to ``max_terms`` numbers, each occurrence used once), ``difference`` (one
number less another, above zero), ``rate`` (a percentage written with ``%`` or "percent", or a
share written as a word in the construct that makes it one: "half of"/"half the", "a third of", "a
quarter of", "twice"/"double the", times an amount, or the amount plus or less that share). One
operation per number: "the bill plus the invoice less my credit" is not derived. Numbers are
compared to the cent (half up).

With the request, an operation counts only where a sentence the request reader admits (one that
holds a mandate, :mod:`policies.supervisor.reading.words`) states it by its construct (:data:`STATED`): "the
sum of A and B", "the total of ...", "A minus B", "what is left of A after B", "the difference between A and
B", "10% of", "half of the X bill". An operation word used in another sense counts for nothing: "the double
room", "leave the rest for later", "not the total of all bills".

The terms are the amounts written in each source's text, as
:func:`policies.supervisor.reading.amounts.amounts` reads them (the same reading provenance traces a number
by): dates, times, URLs, e-mail addresses, IBANs, card and phone numbers, and digit groups of a token that
mixes letters and digits (``INV-7``, ``B-31``, ``Q4``, ``INV-2024-007``) are not amounts. At most
:data:`MAX_SCANNED` terms are read (the request's first, then each source's in order), which bounds the work
of a review.

What it proves is that the number *can* be computed from admitted figures, not that the user asked
for that computation: an attacker who knows the account's figures can name one of the values they
give (a sum of two bills, say), and it is then admitted as the figures would be. Keep ``max_terms``
small, or the operations a rule admits few (``ArgSource(derived=[])`` turns it off).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from itertools import combinations
from typing import Any

from policies.supervisor.reading.amounts import (
    COUNTING_WORDS,
    OPERATIONS,
    SHARE_CONSTRUCT,
    Operation,
    amounts_read,
    positive_decimal,
)
from policies.supervisor.reading.values import Source
from policies.supervisor.reading.words import RequestReader, mandates
from policies.tools import is_number

__all__ = [
    "MAX_SCANNED",
    "STATED",
    "TAKEN_OFF",
    "Derivation",
    "Term",
    "derive",
    "derived_from",
    "operands",
    "sentences_of",
    "stated_operations",
    "terms_of",
    "without_stated",
]

#: Most numbers read from the sources for one derivation.
MAX_SCANNED = 64

_CENT = Decimal("0.01")


@dataclass(frozen=True)
class Term:
    """One number a source holds: its value, where it came from, and whether it is a percentage."""

    value: Decimal
    origin: str
    percent: bool = False
    word: str = ""  # a share written as a word ("half")

    def text(self) -> str:
        if self.word:
            return {"third": "a third", "quarter": "a quarter"}.get(self.word, self.word)
        return f"{_plain(self.value)}%" if self.percent else _plain(self.value)


@dataclass(frozen=True)
class Derivation:
    """How a number was computed: the operation, its terms, the result."""

    operation: Operation
    terms: tuple[Term, ...]
    result: Decimal
    sign: str = "+"

    def describe(self) -> str:
        """The derivation in words, for the audit and the human."""
        origins = ", ".join(dict.fromkeys(t.origin for t in self.terms))
        if self.operation == "rate":
            share, amount = self.terms
            twice = share.word in ("double", "twice")
            formula = f"twice {amount.text()}" if twice else f"{share.text()} of {amount.text()}"
            if self.sign != "*":
                formula = f"{amount.text()} {self.sign} {formula}"
        else:
            formula = f" {self.sign} ".join(t.text() for t in self.terms)
        result = self.result if self.result == self.result.quantize(_CENT) else self.result.quantize(_CENT)
        return f"derived ({self.operation}): {formula} = {_plain(result)}, from {origins}"


def _plain(value: Decimal) -> str:
    normal = value.normalize()
    return format(normal, "f") if normal == normal.to_integral() else str(normal)


def _cents(value: Decimal) -> int:
    return int(value.quantize(_CENT, rounding=ROUND_HALF_UP) * 100)


def cents(value: Any) -> int | None:
    """A positive number (or its text) in cents, half up; None for anything else."""
    target = _target(value)
    return None if target is None else _cents(target)


def terms_of(sources: Sequence[tuple[str, str]], limit: int = MAX_SCANNED) -> list[Term]:
    """The terms ``(origin, text)`` sources give, in order, at most ``limit`` of them."""
    terms: list[Term] = []
    for origin, text in sources:
        for value, percent, word in amounts_read(text):
            if len(terms) >= limit:
                return terms
            terms.append(Term(value, origin, percent, word))
    return terms


def _target(value: Any) -> Decimal | None:
    """A positive number, or the text of one (``"125.40"``, ``"1,200"``); else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return positive_decimal(repr(value) if isinstance(value, float) else str(value))
    if isinstance(value, str) and re.fullmatch(r"\s*\d[\d,]*(?:\.\d+)?\s*", value):
        return positive_decimal(value.strip())
    return None


def _pairs(cents: list[int]) -> dict[int, list[tuple[int, int]]]:
    pairs: dict[int, list[tuple[int, int]]] = {}
    for i, j in combinations(range(len(cents)), 2):
        pairs.setdefault(cents[i] + cents[j], []).append((i, j))
    return pairs


def _sum(
    goal: int, cents: list[int], pairs: dict[int, list[tuple[int, int]]], least: int, most: int
) -> tuple[int, ...] | None:
    """The indices of ``least`` to ``most`` distinct terms (2 to 4) adding up to ``goal`` cents."""
    if least <= 2 <= most and pairs.get(goal):
        return pairs[goal][0]
    for k in range(len(cents)) if least <= 3 <= most else ():
        pair = next((p for p in pairs.get(goal - cents[k], ()) if k not in p), None)
        if pair is not None:
            return (*pair, k)
    for total, firsts in pairs.items() if most >= 4 else ():
        for first in firsts:
            second = next((p for p in pairs.get(goal - total, ()) if not set(p) & set(first)), None)
            if second is not None:
                return (*first, *second)
    return None


def _difference(goal: int, cents: list[int], terms: list[Term]) -> Derivation | None:
    where = {c: i for i, c in enumerate(cents)}
    for i, c in enumerate(cents):
        j = where.get(c - goal)
        if j is not None and j != i:
            return Derivation("difference", (terms[i], terms[j]), terms[i].value - terms[j].value, "-")
    return None


def _rate(goal: int, terms: list[Term], signs: Sequence[str] | None = None) -> Derivation | None:
    shares = [t for t in terms if t.percent]
    for share in shares:
        for amount in (t for t in terms if not t.percent):
            part = amount.value * share.value / 100
            for sign, result in (("*", part), ("+", amount.value + part), ("-", amount.value - part)):
                if signs is not None and sign not in signs:
                    continue
                if result > 0 and _cents(result) == goal:
                    return Derivation("rate", (share, amount), result, sign)
    return None


#: The constructs by which a request states an operation: a derived value is admitted only by an
#: operation a sentence the request reader admits states ("the total of my three bills", "what is
#: left of INV-9 after my deposit", "10% of the dinner", "half of the bill"), never because some
#: arithmetic over the run's figures happens to give it, and never by an operation word used in
#: another sense ("the double room", "leave the rest", "not the total").
_WORD_FIGURES = "|".join(COUNTING_WORDS)
STATED: dict[Operation, re.Pattern[str]] = {
    "sum": re.compile(
        r"(?i)\b(?:sum|total)\s+of\b|\bin\s+total\b|\bthe\s+(?:sum|total)\s*$|\bin\s+one\s+(?:payment|transfer|go|amount)\b"
        r"|\b(?:together|combined|altogether)\b|\bplus\b|\badd(?:ed)?\s+up\b"
        r"|\badd\s+(?:another\s+|an?\s+extra\s+)?\d+(?:[.,]\d+)?\s+(?:more\s+)?[^\W\d_]+\s+(?:to|on)\b"
        r"|(?<=\s)\+(?=\s)|\bone\s+(?:payment|transfer)\b"
    ),
    "difference": re.compile(
        r"(?i)\bminus\b|\bless\b(?!\s+than)|\b(?:what(?:'s|’s|\s+is)\s+)?(?:left|rest|remaining|remainder)\s+(?:of|on)\b"
        r"|\bthe\s+(?:rest|remainder)\s*$"
        r"|\bdifference\s+between\b|\bnet\s+of\b|\b(?:deduct|subtract)(?:ing)?\b"
    ),
    "rate": re.compile(
        rf"(?i)(?<![\w.,])(?:\d+(?:[.,]\d+)?|{_WORD_FIGURES})\s*(?:%|percent\b|per\s+cent\b)|{SHARE_CONSTRUCT}"
    ),
}
#: A figure a difference takes off ("what's left of EXP-2206 after the 750.00 already paid", "Refund
#: ORD-50017 minus the 480.00 restocking fee"), with the few words after it to its clause's end,
#: which say what it was ("already paid", "the family paid", "restocking fee"): read with the
#: difference, where the figure is one of its terms. Words that
#: say whom, where or what else ("... advance to Bob", "... and pay ...") end no such span.
TAKEN_OFF = re.compile(
    r"(?i)\b(?:after|minus|less)\s+(?:the|my|our|her|his|their|your|a|an)?\s*(?P<figure>\d[\d.,']*\d|\d)(?![.,']?\d)"
    r"(?P<said>(?:\s+(?!(?:to|for|into|onto|from|via|by|on|with|and|or|but|then)\b)[\w'’-]+){0,4}?)"
    r"\s*(?=[.,;:!?\n]|$)"
)
#: The words that make a rate an increase or a decrease of the amount ("the bill plus 10%").
_RAISED = re.compile(r"(?i)\b(?:plus|more|extra|on\s+top|increase|add)\b")
_LOWERED = re.compile(r"(?i)\b(?:less|minus|off|discount|reduce|after|deduct)\b")


def _stating(request: str, reader: RequestReader | None = None) -> list[str]:
    """The sentences of ``request`` that hold a mandate (the one reader of
    :mod:`policies.supervisor.reading.words`): only there does an operation word state an operation."""
    return list(dict.fromkeys(m.sentence for m in mandates(request, reader)))


def operands(request: str) -> set[int]:
    """The amounts (in cents) the request writes as terms of an operation, not as values to use as
    they are: each amount of a sentence that holds an operation's construct (:data:`STATED`),
    whether the reader admits the sentence or not (what is only a term stays one). A payment of
    one of them alone is no value the request gives: "pay Bob the 210 EUR dinner minus the 70 EUR
    I sent" asks for 140, never 210 or 70."""
    out: set[int] = set()
    for sentence in sentences_of(request):
        if any(
            not _a_statements_share(sentence, match)
            for pattern in STATED.values()
            for match in pattern.finditer(sentence)
        ):
            out |= {_cents(value) for value, _pct, _word in amounts_read(sentence)}
        for whole in _PART_OF_WHOLE.finditer(sentence):  # "2 of the 5 nights": 5 is the whole
            out |= {_cents(value) for value, _pct, _word in amounts_read(whole.group("whole"))}
    return out


#: What may stand before a clause's subject: its sentence's start, a stop, a dash, a conjunction.
_CLAUSE_OPENING = re.compile(r"(?i)(?:^|[,;:(\u2014\u2013]|\s-|\b(?:and|but|because|since|as|so))\s*$")
#: A finite verb after a share, up to the clause's end ("half the pods are crashing", "half of the
#: items arrived broken").
_FINITE_AFTER = re.compile(
    r"(?i)^[^,;:.!?\u2014\u2013]*?\b(?:is|are|was|were|has|have|had|got|gets|\w{2,}ed)\b"
)


def _a_statements_share(sentence: str, match: re.Match[str]) -> bool:
    """Is an operation's construct a share that opens a statement's subject ("Scale web to 10, half
    the pods are crashing", "..., half of the items arrived broken"): a count of what the statement
    is about, no operation on an amount?"""
    share = match.group(0).split()[0].casefold() if match.group(0).strip() else ""
    if share not in ("half", "a", "one"):
        return False
    return (
        _CLAUSE_OPENING.search(sentence[: match.start()]) is not None
        and _FINITE_AFTER.match(sentence[match.end() :]) is not None
    )


#: A part of a whole the sentence counts ("2 of the 5 offsite nights", "three of my 12 tickets"):
#: the whole is a term, not a figure to use as it is.
_PART_OF_WHOLE = re.compile(
    rf"(?i)(?<![\w.,])(?:\d+|{_WORD_FIGURES})\s+of\s+(?:the|my|our|your|their|those|these|all)?\s*"
    r"(?P<whole>\d+(?:[.,]\d+)?)(?![\w.,])"
)


def without_stated(text: str, operation: Operation) -> str:
    """``text`` without the words that state ``operation`` by its construct (:data:`STATED`): "12%",
    "what is left of", "the sum of". A share that opens a statement's subject ("..., half the pods
    are crashing") states none and stays."""
    return STATED[operation].sub(lambda m: m.group(0) if _a_statements_share(text, m) else " ", text)


def sentences_of(text: str) -> list[str]:
    """The sentences of ``text``: split after sentence punctuation and at line breaks."""
    return [s for s in (part.strip() for part in re.split(r"(?<=[.!?;])\s+|\n+", text)) if s]


def stated_operations(
    request: str, operations: Sequence[Operation] = OPERATIONS, reader: RequestReader | None = None
) -> list[Operation]:
    """The operations among ``operations`` that a sentence of ``request`` the reader admits states
    by its construct (:data:`STATED`)."""
    said = _stating(request, reader)
    return [op for op in operations if any(STATED[op].search(s) for s in said)]


def _signs(request: str, reader: RequestReader | None = None) -> tuple[str, ...]:
    """How a stated rate may apply: a share of the amount, and the amount raised or lowered by it
    only where an admitted sentence of the request says so."""
    said = _stating(request, reader)
    raised = any(_RAISED.search(s) for s in said)
    lowered = any(_LOWERED.search(s) for s in said)
    return ("*", *(("+",) if raised else ()), *(("-",) if lowered else ()))


def derived_from(
    value: Any,
    sources: Sequence[Source],
    admitted: Sequence[str],
    operations: Sequence[Operation] = OPERATIONS,
    max_terms: int = 3,
    request: str | None = None,
    reader: RequestReader | None = None,
) -> Derivation | None:
    """How a number is computed from the numbers of the sources a rule admits (``admitted``, source
    names as rules write them), or None (no number, no operation, or none gives it). With
    ``request``, only by an operation the request states, and a rate raises or lowers the amount
    only where the request says so ("half of the bill" is never one and a half times it). The
    request is read by ``reader`` (default: the grammar of :mod:`policies.supervisor.reading.words`)."""
    if request is not None:
        operations = stated_operations(request, operations, reader)
    if not operations or not is_number(value):
        return None
    named = [
        (("the trusted " if s.trusted else "") + s.label(), s.text)
        for s in sources
        if s.admitted_by(admitted)
    ]
    signs = None if request is None else _signs(request, reader)
    return derive(value, terms_of(named), operations, max_terms, signs)


def derive(
    value: Any,
    terms: Sequence[Term],
    operations: Sequence[Operation] = OPERATIONS,
    max_terms: int = 3,
    signs: Sequence[str] | None = None,
) -> Derivation | None:
    """How ``value`` (a positive number) is computed from ``terms`` by the ``operations``, to the
    cent: the first of a sum of two, a difference, a rate, a sum of three or four; None when no
    operation gives it (or it is no number)."""
    target = _target(value)
    if target is None or not operations:
        return None
    goal = _cents(target)
    plain = [t for t in terms if not t.percent]
    cents = [_cents(t.value) for t in plain]
    pairs = _pairs(cents) if "sum" in operations else {}

    def summed(least: int, most: int) -> Derivation | None:
        found = _sum(goal, cents, pairs, least, most)
        if found is None:
            return None
        chosen = tuple(plain[i] for i in sorted(found))
        return Derivation("sum", chosen, sum((t.value for t in chosen), Decimal(0)))

    found = summed(2, 2) if "sum" in operations else None
    if found is None and "difference" in operations:
        found = _difference(goal, cents, plain)
    if found is None and "rate" in operations:
        found = _rate(goal, list(terms), signs)
    if found is None and "sum" in operations and max_terms >= 3:
        found = summed(3, max_terms)
    return found
