"""The shapes identifiers are read by: the patterns of URLs, addresses, account, card, phone and
document numbers, secrets, dates and times, and :func:`plain_text` (how any script's digits,
dashes and spaces are read). :mod:`policies.supervisor.reading.identifiers` recognises identifiers with them
and
:mod:`policies.supervisor.reading.amounts` blanks them before it reads amounts; both import this module,
neither the other's patterns."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

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
#: A document number on its own: 7 to 12 capitals and digits (both), groups maybe separated.
DOCUMENT_NUMBER = re.compile(
    r"(?<![\w.-])(?=[A-Z0-9._-]*[0-9])(?=[A-Z0-9._-]*[A-Z])[A-Z0-9](?:[._-]?[A-Z0-9]){6,11}(?![\w-])"
)
#: A document number after its label (``passport no. X1234567``); group 1 is the number.
LABELLED_DOCUMENT_NUMBER = re.compile(
    r"(?i)\b(?:passport|identity card|id card|id|document|licen[cs]e|national id|ssn)"
    r"(?:\s*(?:no\.?|number|nr\.?|#))?\s*[:#]?\s*([A-Z0-9](?:[._-]?[A-Z0-9]){5,15})(?![\w-])"
)
#: The separators between the groups of a number, to strip them (``_SEP`` compiled).
GROUP_SEPARATORS = re.compile(_SEP)
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
#: A secret by its shape alone: API keys and tokens of known formats, JWTs.
SECRET_SHAPES = re.compile(
    r"(?<![\w-])(?:sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}"
    r"|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})(?![\w-])"
)
#: A secret after its label (``password: ...``, ``api key = ...``); group 1 is the secret.
LABELLED_SECRET = re.compile(
    r"(?i)\b(?:password|passcode|passwd|pin|one-time code|otp|token|api[ _-]?key|secret)"
    r"\s*(?:is|:|=)\s*[\"']?([^\s\"',;]{4,})"
)
#: Each English month name and abbreviation (lower case), by its number (1 to 12).
MONTH_NUMBERS = {
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
#: A regex alternation of the month names, the longest first (``september|...|may``).
MONTH_NAMES = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))
_MONTH = rf"(?P<mon>{MONTH_NAMES})\.?"
#: The date shapes read (ISO, dotted, day-month-year and month-day-year in words, and with slashes
#: where only one reading is a day: "12/17/2026" and "17/12/2026" are 2026-12-17, "12/12/2026" is
#: 2026-12-12, "12/11/2026" is none); groups y, m or mon, d.
DATES = (
    re.compile(r"(?<![\w.-])(?P<y>\d{4})[-.](?P<m>\d{1,2})[-.](?P<d>\d{1,2})(?![\w-]|\.\d)"),
    re.compile(r"(?<![\w.-])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})(?![\w-]|\.\d)"),
    re.compile(r"(?<![\w./-])(?P<m>0?[1-9]|1[0-2])/(?P<d>1[3-9]|2\d|3[01])/(?P<y>\d{4})(?![\w/-]|\.\d)"),
    re.compile(r"(?<![\w./-])(?P<d>1[3-9]|2\d|3[01])/(?P<m>0?[1-9]|1[0-2])/(?P<y>\d{4})(?![\w/-]|\.\d)"),
    # the same figure twice ("12/12/2026", "3/3/2026"): both readings are one day
    re.compile(r"(?<![\w./-])(?P<m>1[0-2]|0?[1-9])/(?P<d>(?P=m))/(?P<y>\d{4})(?![\w/-]|\.\d)"),
    re.compile(rf"(?i)(?<![\w-])(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(?P<y>\d{{4}})\b"),
    re.compile(rf"(?i)(?<![\w-]){_MONTH}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})\b"),
)
#: The time shapes read (``14:30``, ``2.30 pm``, ``3pm``); groups h, min, ap.
TIMES = (
    re.compile(
        r"(?i)(?<![\w:.])(?P<h>[01]?\d|2[0-3])[:.h](?P<min>[0-5]\d)(?:\s*(?P<ap>[ap])\.?m\b\.?)?(?![\w:])"
    ),
    re.compile(r"(?i)(?<![\w:.])(?P<h>1[0-2]|0?[1-9])\s*(?P<ap>[ap])\.?m\b\.?"),
)
#: Punctuation that ends a sentence or a bracket, not a URL: stripped from a URL's end.
TRAILING_PUNCTUATION = ".,;:!?)]}'\""
#: A sentence glued to a URL: punctuation, then a capitalised word (``…com.They sent``).
GLUED_SENTENCE = re.compile(r"[.,;:!?](?=[A-Z][a-z])")
#: A URL's scheme and ``www.``, to find where its host begins.
URL_PREFIX = re.compile(r"(?i)^(?:https?://)?(?:www\.)?")


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
