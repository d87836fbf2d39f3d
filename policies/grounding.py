"""Grounding checks shared by every pattern that answers from evidence (Research, RAG, Task
Decomposition): number grounding, citation checks, verbatim quotes.

A number in an answer is grounded when the evidence holds the same value, allowing for formatting:
thousands separators and currency (``$28,195``, ``28,195.00 USD``), percentages of fractions
written with decimals (``4.86%`` for ``0.0486``; a whole number such as ``1`` grounds no
``100%``), and rounding to fewer decimals when the answer keeps at least two
significant digits. Digits that are part of identifiers (``P1``, ``n2``, ``inc_2026``) are labels,
not numbers, in the answer and in the evidence alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, DecimalException, InvalidOperation, localcontext
from functools import cached_property
from typing import Any

from policies.text import normalize_ws

_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(\s?%)?(?![\w]|\.\d)")


@dataclass(frozen=True)
class Number:
    text: str
    value: Decimal
    percent: bool

    # Worked out once per number: the grounding check asks for them against every evidence number.
    @cached_property
    def places(self) -> int:
        exponent = self.value.as_tuple().exponent
        return -exponent if isinstance(exponent, int) and exponent < 0 else 0

    @cached_property
    def significant_digits(self) -> int:
        return len(self.value.normalize().as_tuple().digits)

    @cached_property
    def quantum(self) -> Decimal:
        return Decimal(1).scaleb(-self.places)


def numbers_in(text: str) -> list[Number]:
    """The numbers written in ``text`` (identifier digits excluded)."""
    found = []
    for match in _NUMBER.finditer(text):
        try:
            value = Decimal(match.group(1).replace(",", ""))
        except InvalidOperation:  # pragma: no cover - the pattern only matches digits
            continue
        found.append(Number(match.group(0).strip(), value, bool(match.group(2))))
    return found


def _flatten(value: Any) -> Iterable[str]:
    """Every scalar in a JSON-like value, as text (numbers keep their full precision)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _flatten(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _flatten(item)
    elif isinstance(value, bool) or value is None:
        return
    else:
        yield str(value)


def evidence_text(evidence: Any) -> str:
    """Evidence as one text: strings as they are, structures flattened to their scalars."""
    return evidence if isinstance(evidence, str) else "\n".join(_flatten(evidence))


def _rounds_to(candidate: Decimal, target: Number) -> bool:
    """Does ``candidate`` round to ``target`` at the target's decimal places? Computed with as many
    digits as that takes (an answer may write a number with 40 decimals); a number too large for
    exact decimal arithmetic counts as not grounded rather than failing the check."""
    if candidate == target.value:
        return True
    if target.significant_digits < 2:
        return False
    try:
        with localcontext() as ctx:
            ctx.prec = max(ctx.prec, candidate.adjusted() + target.places + 3)
            return candidate.quantize(target.quantum, rounding=ROUND_HALF_UP) == target.value
    except DecimalException:
        return False


def is_grounded(number: Number, evidence_numbers: Iterable[Number]) -> bool:
    """Is ``number`` in the evidence? A percentage may stand for a fraction written with decimals
    (``4.86%`` for ``0.0486``) and a decimal fraction for a percentage, but a whole number is not a
    fraction: ``1 hour`` does not ground ``100%``."""
    for known in evidence_numbers:
        candidates = [known.value]
        if number.percent and not known.percent and known.places > 0:
            candidates.append(known.value * 100)
        if known.percent and not number.percent and number.places > 0:
            candidates.append(known.value / 100)
        if any(_rounds_to(c, number) for c in candidates):
            return True
    return False


def ungrounded_numbers(answer: str, evidence: Any) -> list[str]:
    """Numbers in ``answer`` that no number in ``evidence`` supports, in order, without repeats."""
    known = numbers_in(evidence_text(evidence))
    missing: list[str] = []
    for number in numbers_in(answer):
        if not is_grounded(number, known) and number.text not in missing:
            missing.append(number.text)
    return missing


@dataclass(frozen=True)
class CitationCheck:
    cited: tuple[str, ...]  # deduplicated, in first-cited order
    unknown: tuple[str, ...]  # cited but not in the evidence


def check_citations(citations: Iterable[Any], evidence_ids: Iterable[str]) -> CitationCheck:
    """Deduplicate citations and find those outside the evidence (non-strings are unknown)."""
    allowed = set(evidence_ids)
    cited: list[str] = []
    unknown: list[str] = []
    for item in citations:
        key = item.strip() if isinstance(item, str) else repr(item)
        if key in cited or key in unknown:
            continue
        (cited if key in allowed else unknown).append(key)
    return CitationCheck(tuple(cited), tuple(unknown))


def quote_in_source(quote: str, source: str) -> bool:
    """Is ``quote`` verbatim in ``source``, after whitespace normalisation (case kept)?"""
    needle = normalize_ws(quote)
    return bool(needle) and needle in normalize_ws(source)
