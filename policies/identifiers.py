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

Amounts (:mod:`policies.amounts`, which provenance and :mod:`policies.derivation` both read) are
the numbers a text states as amounts, never a digit group of an identifier this module recognises.

Separators: card, account, phone and document numbers are recognised however their groups are
separated (spaces, dots, underscores, dashes, mixed), and the text is first read plainly
(:func:`plain_text`): dashes of any script read as ``-``, spaces of any width as a space, invisible
format characters dropped, full-width forms and digits of any script read as their ASCII forms. A
card number written ``4539–1488–0343–6467`` (en dashes), ``4539.1488.0343.6467`` or with Arabic-Indic
digits is the same card as ``4539148803436467``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Literal

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

URL = re.compile(r"(?i)\b(?:https?://|www\.)[^\s<>\"'`]+")
EMAIL = re.compile(r"(?i)(?<![\w.+-])[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}(?![\w-])")
DOMAIN = re.compile(r"(?i)(?<![\w@.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24}(?![\w-])")
#: What may separate the groups of a card, account, phone or document number (after plain_text).
_SEP = r"[ ._-]"
IBAN = re.compile(
    rf"(?<![A-Z0-9])[A-Z]{{2}}[0-9]{{2}}(?:{_SEP}?[A-Z0-9]{{4}}){{2,7}}(?:{_SEP}?[A-Z0-9]{{1,3}})?(?![A-Z0-9])"
)
PHONE = re.compile(r"(?<![\w.+])\+?[0-9][0-9 ()./_-]{5,}[0-9](?![\w])")
CARD = re.compile(rf"(?<![\w-])[0-9](?:{_SEP}?[0-9]){{12,18}}(?![\w-]|{_SEP}[0-9])")
_DOC_TOKEN = re.compile(
    r"(?<![\w.-])(?=[A-Z0-9._-]*[0-9])(?=[A-Z0-9._-]*[A-Z])[A-Z0-9](?:[._-]?[A-Z0-9]){6,11}(?![\w-])"
)
_DOC_LED = re.compile(
    r"(?i)\b(?:passport|identity card|id card|id|document|licen[cs]e|national id|ssn)"
    r"(?:\s*(?:no\.?|number|nr\.?|#))?\s*[:#]?\s*([A-Z0-9](?:[._-]?[A-Z0-9]){5,15})(?![\w-])"
)
_SEPARATORS = re.compile(_SEP)
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_SECRET_SHAPES = re.compile(
    r"(?<![\w-])(?:sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}"
    r"|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})(?![\w-])"
)
_SECRET_LED = re.compile(
    r"(?i)\b(?:password|passcode|passwd|pin|one-time code|otp|token|api[ _-]?key|secret)"
    r"\s*(?:is|:|=)\s*[\"']?([^\s\"',;]{4,})"
)
_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for m in names
}
_MONTH = r"(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DATES = (
    re.compile(r"(?<![\w.-])(?P<y>\d{4})[-.](?P<m>\d{1,2})[-.](?P<d>\d{1,2})(?![\w-]|\.\d)"),
    re.compile(r"(?<![\w.-])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})(?![\w-]|\.\d)"),
    re.compile(rf"(?i)(?<![\w-])(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(?P<y>\d{{4}})\b"),
    re.compile(rf"(?i)(?<![\w-]){_MONTH}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})\b"),
)
_TIMES = (
    re.compile(
        r"(?i)(?<![\w:.])(?P<h>[01]?\d|2[0-3])[:.h](?P<min>[0-5]\d)(?:\s*(?P<ap>[ap])\.?m\b\.?)?(?![\w:])"
    ),
    re.compile(r"(?i)(?<![\w:.])(?P<h>1[0-2]|0?[1-9])\s*(?P<ap>[ap])\.?m\b\.?"),
)
_TRAILING = ".,;:!?)]}'\""
#: A sentence glued to a URL: punctuation, then a capitalised word (``…com.They sent``).
_GLUED = re.compile(r"[.,;:!?](?=[A-Z][a-z])")
_PREFIX = re.compile(r"(?i)^(?:https?://)?(?:www\.)?")


@lru_cache(maxsize=4096)
def _plain_char(char: str) -> str:
    """One non-ASCII character as :func:`plain_text` reads it."""
    if unicodedata.decimal(char, None) is not None:
        return str(unicodedata.decimal(char))
    category = unicodedata.category(char)
    if category == "Pd" or char == "\u2212":  # dashes of any script, the minus sign
        return "-"
    if category == "Zs":  # spaces of any width
        return " "
    if category == "Cf":  # zero-width spaces and joiners, soft hyphens, marks of direction
        return ""
    folded = unicodedata.normalize("NFKC", char)  # full-width forms
    return folded if folded.isascii() and folded.isprintable() else char


def plain_text(text: str) -> str:
    """``text`` as identifiers are read from it: dashes of any script as ``-``, spaces of any width
    as a space, invisible format characters dropped, digits of any script and full-width forms as
    their ASCII forms. ASCII text is returned as it is."""
    return text if text.isascii() else _NON_ASCII.sub(lambda m: _plain_char(m.group(0)), text)


def _cut_glued(raw: str) -> str:
    """A URL as matched, without a sentence that follows it with no space, where the part before
    the punctuation is already a host with a dot (``www.Example.com`` keeps its capital)."""
    start = len(raw) - len(_PREFIX.sub("", raw, count=1))
    dots = [i for i in (raw.find(".", start), raw.find("/", start)) if i >= 0]
    first = min(dots) if dots else len(raw)
    cut = next((m.start() for m in _GLUED.finditer(raw, first + 1)), None)
    return raw if cut is None else raw[:cut]


def canonical_url(raw: str) -> str:
    """A URL without scheme, ``www.``, trailing slash, trailing punctuation or glued sentence."""
    text = _cut_glued(raw).rstrip(_TRAILING).casefold()
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
    found: set[str] = set()
    for pattern in _DATES:
        for m in pattern.finditer(text):
            month = _MONTHS[m["mon"].casefold()] if "mon" in m.groupdict() and m["mon"] else m["m"]
            iso = _date(m["y"], month, m["d"])
            if iso:
                found.add(iso)
    return found


def times(text: str) -> set[str]:
    """The times of day written in ``text``, as ``HH:MM`` (24 hours)."""
    found: set[str] = set()
    for pattern in _TIMES:
        for m in pattern.finditer(text):
            hour, minute = int(m["h"]), int(m.groupdict().get("min") or 0)
            ap = (m["ap"] or "").casefold()
            if ap and not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if ap == "p" else 0) if ap else hour
            found.add(f"{hour:02d}:{minute:02d}")
    return found


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
        found |= {("secret", m.group(0)) for m in _SECRET_SHAPES.finditer(rest)}
        found |= {("secret", m.group(1)) for m in _SECRET_LED.finditer(rest)}
    if "id_number" in wanted:
        led = {
            _SEPARATORS.sub("", m.group(1)).upper()
            for m in _DOC_LED.finditer(rest)
            if sum(c.isdigit() for c in m.group(1)) >= 4
        }
        tokens = {
            _SEPARATORS.sub("", m.group(0))
            for m in _DOC_TOKEN.finditer(rest)
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
        found |= {("iban", _SEPARATORS.sub("", m.group(0))) for m in IBAN.finditer(rest)}
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
        from policies.amounts import amounts  # it reads the identifiers this module recognises

        numbers = (canonical_number(number) for _at, number in amounts(text))
        found |= {("amount", number) for number in numbers if number is not None}
    return found


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
    if any(p.fullmatch(text) for p in _DATES) and (found_dates := dates(text)):
        return ("date", min(found_dates))
    if any(p.fullmatch(text) for p in _TIMES) and (found_times := times(text)):
        return ("time", min(found_times))
    if re.fullmatch(r"-?[\d,]+(?:\.\d+)?", text) and (number := canonical_number(text)) is not None:
        return ("amount", number)
    if PHONE.fullmatch(text):
        return ("phone", digits)
    return None
