"""Identifiers in free text, in canonical form: what provenance and the flow rules compare.

Kinds: URLs and domains, e-mail addresses, IBAN-like account numbers, phone numbers, amounts,
payment card numbers (13 to 19 digits that pass the Luhn check), passport- and ID-like document
numbers, secrets (API keys and tokens of well-known shapes, and what follows "password:" and its
kin), dates and times. Each is found by a pattern, not understood: a card number that fails the
Luhn check is no card, a date is found in ISO (``2026-12-02``), dotted (``2.12.2026``,
``2026.12.02``) and month-name forms (``2 December 2026``, ``Dec 2, 2026``), never in slashed forms
(``02/12/2026`` reads differently in the US and Europe); a time as ``14:30``, ``2:30 pm`` or ``2pm``.

Canonical forms: a URL without scheme, ``www.``, trailing slash or trailing punctuation (and
without a sentence glued to it: ``www.our-company.com.They sent`` is ``our-company.com``); an
e-mail address in lower case; an IBAN without spaces; a phone or card number's digits; an amount
as a decimal number (``1,200.00`` is ``1200``); a document number in upper case; a date as
``YYYY-MM-DD``; a time as ``HH:MM``.

Amounts (:mod:`policies.supervisor.reading.amounts`, which provenance and
:mod:`policies.supervisor.provenance.derivation` both read) are the numbers a text states as amounts, never a
digit group of an identifier this module recognises.

Separators: card, account, phone and document numbers are recognised however their groups are
separated (spaces, dots, underscores, dashes, mixed), and the text is first read plainly
(:func:`plain_text`): dashes of any script read as ``-``, spaces of any width as a space, invisible
format characters dropped, full-width forms and digits of any script read as their ASCII forms. A
card number written ``4539–1488–0343–6467`` (en dashes), ``4539.1488.0343.6467`` or with Arabic-Indic
digits is the same card as ``4539148803436467``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Literal

from policies.patterns import (
    CARD as CARD,
)
from policies.patterns import (
    DATES,
    DOCUMENT_NUMBER,
    GLUED_SENTENCE,
    GROUP_SEPARATORS,
    LABELLED_DOCUMENT_NUMBER,
    LABELLED_SECRET,
    MONTH_NUMBERS,
    SECRET_SHAPES,
    TIMES,
    TRAILING_PUNCTUATION,
    URL_PREFIX,
)
from policies.patterns import (
    DOMAIN as DOMAIN,
)
from policies.patterns import (
    EMAIL as EMAIL,
)
from policies.patterns import (
    IBAN as IBAN,
)
from policies.patterns import (
    PHONE as PHONE,
)
from policies.patterns import (  # re-exported: they lived here
    URL as URL,
)
from policies.patterns import (
    plain_text as plain_text,
)
from policies.supervisor.reading.amounts import amounts

IdentifierKind = Literal[
    "url", "domain", "email", "iban", "phone", "amount", "card", "id_number", "secret", "date", "time"
]
IDENTIFIER_KINDS: tuple[IdentifierKind, ...] = (
    "url",
    "domain",
    "email",
    "iban",
    "phone",
    "amount",
    "card",
    "id_number",
    "secret",
    "date",
    "time",
)
Identifier = tuple[IdentifierKind, str]


def _cut_glued(raw: str) -> str:
    """A URL as matched, without a sentence that follows it with no space, where the part before
    the punctuation is already a host with a dot (``www.Example.com`` keeps its capital)."""
    start = len(raw) - len(URL_PREFIX.sub("", raw, count=1))
    dots = [i for i in (raw.find(".", start), raw.find("/", start)) if i >= 0]
    first = min(dots) if dots else len(raw)
    cut = next((m.start() for m in GLUED_SENTENCE.finditer(raw, first + 1)), None)
    return raw if cut is None else raw[:cut]


def canonical_url(raw: str) -> str:
    """A URL without scheme, ``www.``, trailing slash, trailing punctuation or glued sentence."""
    text = _cut_glued(raw).rstrip(TRAILING_PUNCTUATION).casefold()
    text = re.sub(r"^https?://", "", text)
    text = text.removeprefix("www.")
    return text.rstrip("/")


def canonical_number(raw: str) -> str | None:
    """A number as a plain decimal (``1,200.00`` → ``1200``), or None when it is none."""
    try:
        value = Decimal(raw.replace(",", ""))
    except InvalidOperation:
        return None
    if not value.is_finite():
        return None
    normal = value.normalize()
    return format(normal, "f") if normal == normal.to_integral() else str(normal)


def luhn(digits: str) -> bool:
    """Does a string of digits pass the Luhn check (the checksum of payment card numbers)?"""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def _date(y: str, m: str | int, d: str) -> str | None:
    try:
        return date(int(y), int(m), int(d)).isoformat()
    except ValueError:
        return None


def dates(text: str) -> set[str]:
    """The dates written in ``text``, as ``YYYY-MM-DD`` (impossible dates are none)."""
    return {day for _m, day in _dates_at(text)}


def times(text: str) -> set[str]:
    """The times of day written in ``text``, as ``HH:MM`` (24 hours)."""
    return {time for _m, time in _times_at(text)}


def days_and_times(text: str) -> list[tuple[re.Match[str], str]]:
    """Each date and time of day ``text`` writes, with its value (``YYYY-MM-DD`` / ``HH:MM``)."""
    return [*_dates_at(text), *_times_at(text)]


def _dates_at(text: str) -> Iterator[tuple[re.Match[str], str]]:
    for pattern in DATES:
        for m in pattern.finditer(text):
            month = MONTH_NUMBERS[m["mon"].casefold()] if "mon" in m.groupdict() and m["mon"] else m["m"]
            iso = _date(m["y"], month, m["d"])
            if iso:
                yield m, iso


def _times_at(text: str) -> Iterator[tuple[re.Match[str], str]]:
    for pattern in TIMES:
        for m in pattern.finditer(text):
            hour, minute = int(m["h"]), int(m.groupdict().get("min") or 0)
            ap = (m["ap"] or "").casefold()
            if ap and not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if ap == "p" else 0) if ap else hour
            yield m, f"{hour:02d}:{minute:02d}"


#: A day of a month without its year ("Jan 15", "January 15th", "15 Jan", "the 15th of January").
_A_MONTHS_DAY = re.compile(
    r"(?i)\b(?:(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon2>[a-z]{3,9})\.?"
    r"|(?P<mon>[a-z]{3,9})\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?)\b"
)


def _months_days(text: str, wanted: set[str]) -> list[tuple[re.Match[str], str]]:
    """Each day of a month ``text`` writes without its year whose month and day are those of a day
    in ``wanted`` (that day, as the value)."""
    found = []
    for m in _A_MONTHS_DAY.finditer(text):
        month = MONTH_NUMBERS.get((m["mon"] or m["mon2"] or "").casefold())
        if month is None:
            continue
        day = int(m["d"] or m["d2"])
        found += [(m, w) for w in wanted if re.fullmatch(rf"\d{{4}}-{int(month):02d}-{day:02d}", w)]
    return found


def written_as(text: str, wanted: set[str]) -> str:
    """``text`` with each date and time of day it writes otherwise ("9 December 2026", "Dec 15,
    2026", "2:30 pm", "Jan 15" for a day in January) written as ``YYYY-MM-DD`` / ``HH:MM`` where that
    is one of ``wanted`` (a call's values): the words of a day the call keeps are its value, not
    words of their own."""
    found = [(m, value) for m, value in days_and_times(text) if value in wanted]
    found += _months_days(text, wanted)
    spans = sorted(((m.start(), m.end(), value) for m, value in found), reverse=True)
    end = len(text) + 1
    for start, stop, value in spans:  # from the end, a span inside one written already left
        if stop <= end:
            text, end = text[:start] + value + text[stop:], start
    return text


def _cards(text: str) -> set[str]:
    digits = (re.sub(r"[^0-9]", "", m.group(0)) for m in CARD.finditer(text))
    return {d for d in digits if 13 <= len(d) <= 19 and luhn(d)}


def _web(text: str, wanted: set[str]) -> set[Identifier]:
    found: set[Identifier] = set()
    urls = [canonical_url(m.group(0)) for m in URL.finditer(text)]
    if "url" in wanted:
        found |= {("url", u) for u in urls if u}
    if "domain" in wanted:
        found |= {("domain", u.split("/")[0].split("?")[0]) for u in urls if u}
        found |= {("domain", canonical_url(m.group(0))) for m in DOMAIN.finditer(text)}
    if "email" in wanted:
        found |= {("email", m.group(0).casefold()) for m in EMAIL.finditer(text)}
    return found


def _documents(rest: str, wanted: set[str]) -> set[Identifier]:
    found: set[Identifier] = set()
    if "secret" in wanted:
        found |= {("secret", m.group(0)) for m in SECRET_SHAPES.finditer(rest)}
        found |= {("secret", m.group(1)) for m in LABELLED_SECRET.finditer(rest)}
    if "id_number" in wanted:
        led = {
            GROUP_SEPARATORS.sub("", m.group(1)).upper()
            for m in LABELLED_DOCUMENT_NUMBER.finditer(rest)
            if sum(c.isdigit() for c in m.group(1)) >= 4
        }
        tokens = {
            GROUP_SEPARATORS.sub("", m.group(0))
            for m in DOCUMENT_NUMBER.finditer(rest)
            if sum(c.isdigit() for c in m.group(0)) >= 5
        }
        found |= {("id_number", v) for v in led | tokens}
    return found


def identifiers(text: str, kinds: Iterable[IdentifierKind] = IDENTIFIER_KINDS) -> set[Identifier]:
    """The identifiers of ``kinds`` in ``text`` as ``(kind, canonical form)`` (a URL's host also
    counts as a domain; a number as an amount)."""
    wanted: set[str] = set(kinds)
    text = plain_text(text)
    found = _web(text, wanted)
    rest = URL.sub(" ", EMAIL.sub(" ", text))
    if "iban" in wanted:
        found |= {("iban", GROUP_SEPARATORS.sub("", m.group(0))) for m in IBAN.finditer(rest)}
    cards = _cards(rest)
    if "card" in wanted:
        found |= {("card", c) for c in cards}
    found |= _documents(IBAN.sub(" ", rest), wanted)
    if "date" in wanted:
        found |= {("date", d) for d in dates(rest)}
    if "time" in wanted:
        found |= {("time", t) for t in times(rest)}
    if "phone" in wanted:
        for match in PHONE.finditer(IBAN.sub(" ", rest)):
            digits = re.sub(r"[^0-9]", "", match.group(0))
            dated = re.fullmatch(
                r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}\.\d{1,2}\.\d{4}", match.group(0).strip()
            )
            if 7 <= len(digits) <= 15 and not dated and digits not in cards:
                found.add(("phone", digits))
    if "amount" in wanted:
        numbers = (canonical_number(number) for _at, number in amounts(text))
        found |= {("amount", number) for number in numbers if number is not None}
    return found


#: A day and a time of day as one value ("2026-12-14T11:00", "2026-12-14 11:00:00"), no zone.
_A_DATE_AND_TIME = re.compile(r"(?P<day>\d{4}-\d{2}-\d{2})[T ](?P<time>\d{1,2}:\d{2})(?::00(?:\.0+)?)?")


def whole_identifier(text: str) -> Identifier | None:
    """The identifier ``text`` is as a whole (a URL, an address, an account, a card number, a
    date, a time, a domain, a number, a phone number), or None when it is plain text."""
    text = plain_text(text).strip()
    whole: tuple[tuple[IdentifierKind, re.Pattern[str]], ...] = (
        ("url", URL),
        ("email", EMAIL),
        ("iban", IBAN),
        ("domain", DOMAIN),
    )
    for kind, pattern in whole:
        if pattern.fullmatch(text):
            found = sorted(i for i in identifiers(text, [kind]) if i[0] == kind)
            if found:
                return found[0]
    digits = re.sub(r"[^0-9]", "", text)
    if CARD.fullmatch(text) and digits in _cards(text):
        return ("card", digits)
    moment = _A_DATE_AND_TIME.fullmatch(text)
    if moment is not None and (day := dates(moment["day"])) and (hour := times(moment["time"])):
        # a day and its time of day, both to be found; at midnight, a day alone ("2026-11-26T00:00")
        return ("date", min(day) if min(hour) == "00:00" else f"{min(day)}T{min(hour)}")
    if any(p.fullmatch(text) for p in DATES) and (found_dates := dates(text)):
        return ("date", min(found_dates))
    if any(p.fullmatch(text) for p in TIMES) and (found_times := times(text)):
        return ("time", min(found_times))
    if re.fullmatch(r"-?[\d,]+(?:\.\d+)?", text) and (number := canonical_number(text)) is not None:
        return ("amount", number)
    if PHONE.fullmatch(text):
        return ("phone", digits)
    return None
