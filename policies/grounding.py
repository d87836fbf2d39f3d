"""Grounding checks shared by every pattern that answers from evidence (Research, RAG, Task
Decomposition, Reflection's revision check): number grounding, citation checks, verbatim quotes.

Text is read as tokens of three kinds, in the answer and in the evidence alike:

- **Labels** — a word that starts with a letter or ``_``, digits and hyphenated or dotted parts
  included: ``P1``, ``n2``, ``v3.2``, ``doc_sla_v3``, ``inc_2026``, ``gpt-4``, ``gpt-4.1-mini``,
  ``COVID-19``; a version or address such as ``1.2.3``; an identifier that starts with digits but
  holds letters and then digits again (``3fa85f64``). A label is never a number. (A hyphenated
  part followed by ``%`` is a number: ``near-100%`` holds ``100%``.)
- **Dates and times** — ISO dates and months (``2026-04-05``, ``2026-04``), ISO date-times
  (``2026-04-05T10:00:00Z``; the zone is read past, not converted), slashed dates with a year
  (``2026/04/05``, ``04/05/2026``, ``4/5/26``) or two two-digit parts (``04/05``; ``24/7`` is not
  a date), dates with a capitalised month name (``April 5``, ``5 April 2026``, ``Apr 5th, 2026``,
  ``April 2026``) and times (``15:30``, ``15:30:00``, ``3:30 pm``, ``3pm``). A date or time is
  grounded only by a date or time: the evidence must hold a date with every part the answer's
  date gives (``April 5`` and ``04/05`` are grounded by ``2026-04-05``; a slashed date may be read
  day-first or month-first) and a time with the same hour and minute (and second, if given). Their
  digits never ground a percentage, an amount or a count: the date ``2026-04-05`` grounds no
  ``5%``, ``4`` or ``2026 orders``. One exception: a bare four-digit whole number from 1000 to 2999
  may be a year, and is also grounded by a date in that year (``in 2026``).
- **Numbers** — everything else with digits: ``28195``, ``$28,195``, ``28,195.00 USD``, ``4.86%``,
  ``1e-05``, and numbers with a unit glued on (``15min``, ``10ms``, ``3rd``: the number is checked,
  the unit is not). A magnitude suffix makes the number the quantity it stands for: ``k``/``K``/
  ``thousand`` (×1,000), ``M``/``mn``/``million`` (×10⁶), ``B``/``bn``/``billion`` (×10⁹), ``tn``/
  ``trillion`` (×10¹²); a lower-case ``m`` or ``b`` means million or billion after a currency sign
  or code (``$1.2m``, ``USD 2b``) and is otherwise read either way (``45m`` is 45 minutes or 45
  million).

A number in the answer is grounded when the evidence holds the same value, allowing for
formatting, for percentages of fractions written with decimals (``4.86%`` for ``0.0486``; a whole
number such as ``1`` grounds no ``100%``), and for rounding: a figure written with ``d`` decimals
(after its magnitude suffix, if any) is grounded by an evidence value that rounds half-up to it at
``d`` decimals, when the figure keeps at least two significant digits. So ``$28k``, ``$28.2k`` and
``28,195.0`` are grounded by 28,195; ``$35k``, ``$28.19k`` and ``$3k`` are not (a one-digit figure
must be exact: ``$3k`` needs 3,000).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, DecimalException, InvalidOperation, localcontext
from functools import cached_property
from typing import Any

from policies.json_safety import leaves
from policies.text import normalize_ws

_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_SPACE = r"[^\S\r\n]"  # whitespace within a line: structured evidence is joined line by line


def _month(group: str) -> str:
    return (
        rf"(?P<{group}>Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
        rf"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?(?![A-Za-z])"
    )


_TIME = r"(?:[01]?\d|2[0-4]):[0-5]\d(?::(?:[0-5]\d|60)(?:\.\d+)?)?"
_AMPM = rf"{_SPACE}?(?P<{{g}}>[AaPp])\.?[Mm](?![A-Za-z])\.?"
_DAY = r"(?:st|nd|rd|th)?"
_END = r"(?!\w|[:/.,]\d)"
_TOKEN = re.compile(
    # ISO date, month or date-time
    rf"(?P<iso>(?<![\w.:/-])(?P<iy>\d{{4}})-(?P<im>\d{{1,2}})(?:-(?P<id>\d{{1,2}}))?"
    rf"(?:T(?P<it>{_TIME})(?:Z|[+-]\d{{2}}:?\d{{2}})?)?(?!\w|[:/.,-]\d))"
    # 2026/04/05, 04/05/2026, 4/5/26, 04/05
    rf"|(?P<ymd>(?<![\w./-])(?P<sy>\d{{4}})/(?P<sm>\d{{1,2}})/(?P<sd>\d{{1,2}}){_END})"
    rf"|(?P<dmy>(?<![\w./-])(?P<da>\d{{1,2}})/(?P<db>\d{{1,2}})/(?P<dy>\d{{4}}|\d{{2}}){_END})"
    rf"|(?P<dm>(?<![\w./-])(?P<pa>\d{{2}})/(?P<pb>\d{{2}}){_END})"
    # April 5, April 5th, 2026 / 5 April 2026 / April 2026
    rf"|(?P<md>(?<![\w.]){_month('m1')}{_SPACE}+(?P<d1>\d{{1,2}}){_DAY}"
    rf"(?:,?{_SPACE}+(?P<y1>\d{{4}}))?{_END})"
    rf"|(?P<dmn>(?<![\w.])(?P<d2>\d{{1,2}}){_DAY}{_SPACE}+(?:of{_SPACE}+)?{_month('m2')}"
    rf"(?:,?{_SPACE}+(?P<y2>\d{{4}}))?{_END})"
    rf"|(?P<my>(?<![\w.]){_month('m3')},?{_SPACE}+(?P<y3>\d{{4}}){_END})"
    # 15:30, 3:30 pm, 3pm
    rf"|(?P<time>(?<![\w.:])(?P<t>{_TIME})(?:{_AMPM.format(g='tap')})?(?!\w|[:.]\d))"
    rf"|(?P<hour>(?<![\w.:])(?P<h>\d{{1,2}}){_AMPM.format(g='hap')})"
    # a label: P1, doc_sla_v3, gpt-4.1-mini (a hyphenated part followed by % is a number)
    rf"|(?P<label>[^\W\d]\w*+(?:[-.]\w++(?!{_SPACE}?%))*+)"
    # a number, and what is glued to it
    rf"|(?P<number>(?<![\w.])(?P<num>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    rf"(?:(?P<exp>[eE][+-]?\d{{1,3}})(?![\w]|\.\d)"
    rf"|(?P<pct>{_SPACE}?%)"
    rf"|{_SPACE}?(?P<word>(?i:thousand|million|billion|trillion|bn|mn|tn))(?!\w)"
    rf"|(?P<mag>[kKMB])(?!\w)"
    rf"|(?P<amb>[mb])(?!\w)"
    rf"|(?P<unit>[^\W\d_]+)(?!\w)"
    rf"|(?P<ident>[^\W\d]\w*)"
    rf"|(?![\w]|\.\d)))"
)
_PLAIN_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w]|\.\d)")
_SCALES = {"k": 3, "thousand": 3, "m": 6, "mn": 6, "million": 6, "b": 9, "bn": 9, "billion": 9}
_SCALES |= {"tn": 12, "trillion": 12}
_CURRENCY_BEFORE = re.compile(rf"(?:[$€£¥]|\b(?:USD|EUR|GBP|JPY|usd|eur|gbp))(?:{_SPACE}?)$")
_YEAR = re.compile(r"[12]\d{3}")

DateParts = tuple[int | None, int | None, int | None]  # year, month, day
TimeParts = tuple[int, int, Decimal | None]  # hour, minute, second


def _shift(value: Decimal, places: int) -> Decimal:
    """``value × 10**places``, exactly (no context rounding, whatever the number of digits)."""
    sign, digits, exponent = value.as_tuple()
    return Decimal((sign, digits, exponent + places)) if isinstance(exponent, int) else value


@dataclass(frozen=True)
class Number:
    """A number as written: ``mantissa`` (the digits), whether a ``percent``, the powers of ten
    it may be scaled by (``scales``: ``(3,)`` for ``28k``; ``(6, 0)`` for ``45m``), and whether it
    may be a ``year`` (a bare 1000–2999)."""

    text: str
    mantissa: Decimal
    percent: bool
    scales: tuple[int, ...] = (0,)
    year: bool = False

    @property
    def value(self) -> Decimal:
        """The quantity it stands for (the first reading)."""
        return _shift(self.mantissa, self.scales[0])

    @cached_property
    def values(self) -> tuple[Decimal, ...]:
        """Every quantity it may stand for."""
        return tuple(_shift(self.mantissa, scale) for scale in self.scales)

    # Worked out once per number: the grounding check asks for them against every evidence number.
    @cached_property
    def places(self) -> int:
        exponent = self.mantissa.as_tuple().exponent
        return -exponent if isinstance(exponent, int) and exponent < 0 else 0

    @cached_property
    def significant_digits(self) -> int:
        return len(self.mantissa.normalize().as_tuple().digits)

    @cached_property
    def quantum(self) -> Decimal:
        return Decimal(1).scaleb(-self.places)


@dataclass(frozen=True)
class Moment:
    """A date, a time or both, as written: the readings of its date (``(year, month, day)``, a
    part it does not give is None; a slashed date may have two readings) and its time."""

    text: str
    dates: tuple[DateParts, ...] = ()
    time: TimeParts | None = None


def _valid(parts: DateParts) -> bool:
    year, month, day = parts
    return (month is None or 1 <= month <= 12) and (day is None or 1 <= day <= 31) and year != 0


def _readings(*candidates: DateParts) -> tuple[DateParts, ...]:
    return tuple(dict.fromkeys(c for c in candidates if _valid(c)))


def _time(text: str, ampm: str | None) -> TimeParts | None:
    parts = text.split(":")
    hour, minute = int(parts[0]), int(parts[1])
    second = Decimal(parts[2]) if len(parts) > 2 else None
    if ampm:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm.lower() == "p" else 0)
    return (hour, minute, second)


def _full_year(text: str) -> int:
    year = int(text)
    return year + 2000 if len(text) == 2 else year


def _moment(match: re.Match[str]) -> Moment | None:
    """The date or time a date-like match stands for; None when it is no valid one."""
    g = match.group
    text = match.group(0)
    if g("iso"):
        parts = (int(g("iy")), int(g("im")), int(g("id")) if g("id") else None)
        if g("id") is None and len(g("im")) != 2:  # 2026-4 is no ISO month
            return None
        time = _time(g("it"), None) if g("it") else None
        dates = _readings(parts)
        return Moment(text, dates, time) if dates else None
    if g("ymd"):
        dates = _readings((int(g("sy")), int(g("sm")), int(g("sd"))))
    elif g("dmy"):
        year, a, b = _full_year(g("dy")), int(g("da")), int(g("db"))
        dates = _readings((year, a, b), (year, b, a))
    elif g("dm"):
        a, b = int(g("pa")), int(g("pb"))
        dates = _readings((None, a, b), (None, b, a))
    elif g("md") or g("dmn") or g("my"):
        month = _MONTHS[(g("m1") or g("m2") or g("m3"))[:3].lower()]
        day_text, year_text = g("d1") or g("d2"), g("y1") or g("y2") or g("y3")
        dates = _readings((int(year_text) if year_text else None, month, int(day_text) if day_text else None))
    elif g("time"):
        time = _time(g("t"), g("tap"))
        return Moment(text, (), time) if time else None
    else:
        time = _time(f"{g('h')}:00", g("hap"))
        return Moment(text, (), time) if time else None
    return Moment(text, dates) if dates else None


def _number(match: re.Match[str], text: str) -> Number | None:
    g = match.group
    if g("ident"):
        return None  # 3fa85f64: an identifier, not a number
    digits = g("num").replace(",", "")
    try:
        mantissa = Decimal(digits + (g("exp") or ""))
    except InvalidOperation:  # pragma: no cover - the pattern only matches digits
        return None
    suffix = g("word") or g("mag") or g("amb")
    scales: tuple[int, ...] = (0,)
    money = bool(_CURRENCY_BEFORE.search(text[max(0, match.start() - 4) : match.start()]))
    if suffix:
        scale = _SCALES[suffix.lower()]
        scales = (scale, 0) if g("amb") and not money else (scale,)
    plain = not (suffix or money or g("pct") or g("exp") or g("unit"))
    year = plain and bool(_YEAR.fullmatch(g("num")))
    shown = match.group(0).strip()
    return Number(shown, mantissa, bool(g("pct")), scales, year)


def _plain_numbers(text: str) -> list[Number]:
    """The numbers in a span that looked like a date but is none (``2026-13-45``)."""
    return [
        Number(m.group(0), Decimal(m.group(1).replace(",", "")), False) for m in _PLAIN_NUMBER.finditer(text)
    ]


def tokens_in(text: str) -> list[Number | Moment]:
    """The numbers, dates and times written in ``text``, in order (labels left out)."""
    found: list[Number | Moment] = []
    for match in _TOKEN.finditer(text):
        if match.group("label"):
            continue
        if match.group("number"):
            number = _number(match, text)
            if number is not None:
                found.append(number)
            continue
        moment = _moment(match)
        found.extend([moment] if moment is not None else _plain_numbers(match.group(0)))
    return found


def numbers_in(text: str) -> list[Number]:
    """The numbers written in ``text`` (labels, dates and times excluded)."""
    return [t for t in tokens_in(text) if isinstance(t, Number)]


def dates_in(text: str) -> list[Moment]:
    """The dates and times written in ``text``."""
    return [t for t in tokens_in(text) if isinstance(t, Moment)]


def _flatten(value: Any) -> Iterable[str]:
    """Every scalar in a JSON-like value, as text (numbers keep their full precision)."""
    return (str(leaf) for leaf in leaves(value, dict) if not isinstance(leaf, bool) and leaf is not None)


def evidence_text(evidence: Any) -> str:
    """Evidence as one text: strings as they are, structures flattened to their scalars (one per
    line)."""
    return evidence if isinstance(evidence, str) else "\n".join(_flatten(evidence))


def _rounds_to(candidate: Decimal, target: Number, scale: int) -> bool:
    """Does ``candidate`` round to ``target`` (read at ``scale``) at the target's decimal places?
    Computed with as many digits as that takes (an answer may write a number with 40 decimals); a
    number too large for exact decimal arithmetic counts as not grounded rather than failing."""
    candidate = _shift(candidate, -scale)
    if candidate == target.mantissa:
        return True
    if target.significant_digits < 2:
        return False
    try:
        with localcontext() as ctx:
            ctx.prec = max(ctx.prec, candidate.adjusted() + target.places + 3)
            return candidate.quantize(target.quantum, rounding=ROUND_HALF_UP) == target.mantissa
    except DecimalException:
        return False


def is_grounded(
    number: Number, evidence_numbers: Iterable[Number], evidence_dates: Iterable[Moment] = ()
) -> bool:
    """Is ``number`` in the evidence? A percentage may stand for a fraction written with decimals
    (``4.86%`` for ``0.0486``) and a decimal fraction for a percentage, but a whole number is not a
    fraction: ``1 hour`` does not ground ``100%``. A possible year is also grounded by a date in
    that year; no other number is grounded by a date."""
    for known in evidence_numbers:
        for value in known.values:
            candidates = [value]
            if number.percent and not known.percent and known.places > 0:
                candidates.append(_shift(value, 2))
            if known.percent and not number.percent and number.places > 0:
                candidates.append(_shift(value, -2))
            if any(_rounds_to(c, number, scale) for c in candidates for scale in number.scales):
                return True
    if number.year:
        year = int(number.mantissa)
        return any(parts[0] == year for moment in evidence_dates for parts in moment.dates)
    return False


def _date_within(answer: DateParts, known: DateParts) -> bool:
    return all(a is None or a == k for a, k in zip(answer, known, strict=True))


def _time_matches(answer: TimeParts, known: TimeParts) -> bool:
    return answer[:2] == known[:2] and (answer[2] is None or answer[2] == known[2])


def moment_grounded(moment: Moment, evidence_dates: Iterable[Moment]) -> bool:
    """Is the date or time ``moment`` in the evidence: a date with every part it gives, and a time
    with its hour and minute (and second, if it gives one)?"""
    known = list(evidence_dates)
    dates = [parts for k in known for parts in k.dates]
    times = [k.time for k in known if k.time is not None]
    date_ok = not moment.dates or any(_date_within(a, k) for a in moment.dates for k in dates)
    time_ok = moment.time is None or any(_time_matches(moment.time, k) for k in times)
    return date_ok and time_ok


def ungrounded_numbers(answer: str, evidence: Any) -> list[str]:
    """Numbers, dates and times in ``answer`` that nothing in ``evidence`` supports, in order,
    without repeats."""
    tokens = tokens_in(evidence_text(evidence))
    numbers = [t for t in tokens if isinstance(t, Number)]
    moments = [t for t in tokens if isinstance(t, Moment)]
    missing: list[str] = []
    for token in tokens_in(answer):
        if isinstance(token, Number):
            grounded = is_grounded(token, numbers, moments)
        else:
            grounded = moment_grounded(token, moments)
        if not grounded and token.text not in missing:
            missing.append(token.text)
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
