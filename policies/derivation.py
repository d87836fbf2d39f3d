"""Derived values: a number that no admitted source holds as written, but that simple arithmetic
over numbers the admitted sources hold gives — the total of three bills, what is left of an invoice
after a deposit, a percentage of a balance. Such a number is as trusted as the numbers it is
computed from, and its derivation is told in the audit ("sum: 45.3 + 38.9 + 41.2 = 125.4, from
list_bills (step 2)"). A number from untrusted text is not a term, so it is not derived.

Operations: ``sum`` (2 to ``max_terms`` numbers, each occurrence used once), ``difference`` (one
number less another, above zero), ``rate`` (a percentage written with ``%`` or "percent", or a
share written as a word: half, a third, a quarter, double or twice, times an amount, or the amount
plus or less that share). One operation per number: "the bill plus the invoice less my credit" is
not derived. Numbers are compared to the cent (half up).

The terms are the amounts written in each source's text, as :func:`policies.amounts.amounts`
reads them (the same reading provenance traces a number by): dates, times, URLs, e-mail addresses,
IBANs, card and phone numbers, and digit groups of a token that mixes letters and digits
(``INV-7``, ``B-31``, ``Q4``, ``INV-2024-007``) are not amounts. At most :data:`MAX_SCANNED` terms
are read (the request's first, then each source's in order), which bounds the work of a review.

What it proves is that the number *can* be computed from admitted figures, not that the user asked
for that computation: an attacker who knows the account's figures can name one of the values they
give (a sum of two bills, say), and it is then admitted as the figures would be. Keep ``max_terms``
small, or the operations a rule admits few (``ArgSource(derived=[])`` turns it off).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from itertools import combinations
from typing import Any, Literal

from policies.amounts import amount_text, amounts_at
from policies.provenance import Source
from policies.tools import is_number

__all__ = [
    "MAX_SCANNED",
    "OPERATIONS",
    "Derivation",
    "Operation",
    "Term",
    "amounts_in",
    "derive",
    "derived_from",
    "terms_of",
]

Operation = Literal["sum", "difference", "rate"]
OPERATIONS: tuple[Operation, ...] = ("sum", "difference", "rate")
#: Most numbers read from the sources for one derivation.
MAX_SCANNED = 64

_PERCENT = re.compile(r"(?i)(?<![\w.,])(\d+(?:\.\d+)?)\s*(?:%|percent\b|per cent\b)")
#: Shares written as words ("half of the dinner", "twice the deposit"), as percentages.
_SHARES = {"half": Decimal(50), "third": Decimal(100) / 3, "quarter": Decimal(25), "double": Decimal(200)}
_SHARE = re.compile(r"(?i)\b(half|third|quarter|double|twice)\b")
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


def _decimal(raw: str) -> Decimal | None:
    try:
        value = Decimal(raw.replace(",", ""))
    except InvalidOperation:
        return None
    return value if value.is_finite() and value > 0 else None


def amounts_in(text: str) -> list[tuple[Decimal, bool]]:
    """The amounts written in ``text``, in order: ``(value, is a percentage)``. Dates, times, URLs,
    addresses, account, card and phone numbers and numbers glued to letters are not amounts."""
    return [(value, percent) for value, percent, _word in _amounts(text)]


def _amounts(text: str) -> list[tuple[Decimal, bool, str]]:
    rest = amount_text(text)  # identifiers that hold digits blanked, the positions kept
    found: list[tuple[int, Decimal, bool, str]] = []
    for match in _PERCENT.finditer(rest):
        value = _decimal(match.group(1))
        if value is not None:
            found.append((match.start(), value, True, ""))
    rest = _PERCENT.sub(lambda m: "|" * len(m.group(0)), rest)
    for match in _SHARE.finditer(rest):
        word = match.group(1).casefold()
        found.append((match.start(), _SHARES["double" if word == "twice" else word], True, word))
    for at, number in amounts_at(rest):
        value = _decimal(number)
        if value is not None:
            found.append((at, value, False, ""))
    return [(value, percent, word) for _at, value, percent, word in sorted(found, key=lambda f: f[0])]


def terms_of(sources: Sequence[tuple[str, str]], limit: int = MAX_SCANNED) -> list[Term]:
    """The terms ``(origin, text)`` sources give, in order, at most ``limit`` of them."""
    terms: list[Term] = []
    for origin, text in sources:
        for value, percent, word in _amounts(text):
            if len(terms) >= limit:
                return terms
            terms.append(Term(value, origin, percent, word))
    return terms


def _target(value: Any) -> Decimal | None:
    """A positive number, or the text of one (``"125.40"``, ``"1,200"``); else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return _decimal(repr(value) if isinstance(value, float) else str(value))
    if isinstance(value, str) and re.fullmatch(r"\s*\d[\d,]*(?:\.\d+)?\s*", value):
        return _decimal(value.strip())
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


#: The words by which a request states an operation: a derived value is admitted only by an
#: operation the request states ("the total of my three bills", "what is left after my deposit",
#: "10% of the dinner"), never because some arithmetic over the run's figures happens to give it.
STATED: dict[Operation, tuple[str, ...]] = {
    "sum": ("total", "sum", "together", "combined", "altogether", "in one", "all", "both", "add", "plus"),
    "difference": ("left", "remaining", "rest", "minus", "less", "after", "outstanding", "difference",
                   "deduct", "subtract", "net"),
    "rate": ("%", "percent", "per cent", "half", "third", "quarter", "double", "twice"),
}  # fmt: skip
#: The words that make a rate an increase or a decrease of the amount ("the bill plus 10%").
_RAISED = ("plus", "more", "extra", "on top", "increase", "add")
_LOWERED = ("less", "minus", "off", "discount", "reduce", "after", "deduct")


def _says(request: str, words: Sequence[str]) -> bool:
    low = request.casefold()
    return any(
        (w in low) if not w[0].isalpha() else re.search(rf"\b{re.escape(w)}\b", low) is not None
        for w in words
    )


#: Words that make the numbers of a clause the terms of an operation ("the 210 EUR dinner minus
#: the 70 EUR I sent", "what is left after my 100 EUR deposit", "10% of the dinner").
_OPERAND_WORDS = ("minus", "less", "left", "remaining", "deduct", "subtract", "net of", "difference", "total",
                  "sum", "together", "combined", "altogether", "plus", "%", "percent", "per cent", "half",
                  "third", "quarter", "double", "twice")  # fmt: skip


def operands(request: str) -> set[int]:
    """The amounts (in cents) the request writes as terms of an operation it states, not as values
    to use as they are: each amount of a clause that states one (``after`` counts before an
    amount: "after my 100 EUR deposit"). A payment of one of them alone is no value the request
    gives: "pay Bob the 210 EUR dinner minus the 70 EUR I sent" asks for 140, never 210 or 70."""
    from policies.words import clauses_of

    out: set[int] = set()
    for clause in clauses_of(request):
        found = _amounts(clause.text)
        after = re.search(r"(?i)\bafter\b", clause.text)
        stated = _says(clause.text, _OPERAND_WORDS) or (
            after is not None and bool(_amounts(clause.text[after.end() :]))
        )
        if stated:
            out |= {_cents(value) for value, _pct, _word in found}
    return out


def stated_operations(request: str, operations: Sequence[Operation] = OPERATIONS) -> list[Operation]:
    """The operations among ``operations`` that ``request`` states (:data:`STATED`)."""
    return [op for op in operations if _says(request, STATED[op])]


def _signs(request: str) -> tuple[str, ...]:
    """How a stated rate may apply: a share of the amount, and the amount raised or lowered by it
    only where the request says so."""
    return ("*", *(("+",) if _says(request, _RAISED) else ()), *(("-",) if _says(request, _LOWERED) else ()))


def derived_from(
    value: Any,
    sources: Sequence[Source],
    admitted: Sequence[str],
    operations: Sequence[Operation] = OPERATIONS,
    max_terms: int = 3,
    request: str | None = None,
) -> Derivation | None:
    """How a number is computed from the numbers of the sources a rule admits (``admitted``, source
    names as rules write them), or None (no number, no operation, or none gives it). With
    ``request``, only by an operation the request states, and a rate raises or lowers the amount
    only where the request says so ("half of the bill" is never one and a half times it)."""
    if request is not None:
        operations = stated_operations(request, operations)
    if not operations or not is_number(value):
        return None
    named = [
        (("the trusted " if s.trusted else "") + s.label(), s.text)
        for s in sources
        if s.admitted_by(admitted)
    ]
    signs = None if request is None else _signs(request)
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
