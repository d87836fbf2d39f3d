"""Amounts: the numbers a text states as amounts, never a digit group of an identifier.

Provenance traces a number by the amounts a source states
(:func:`policies.supervisor.reading.identifiers.identifiers`, kind ``amount``), and
:mod:`policies.supervisor.provenance.derivation` computes with them: both read them here. A number that stands
as one is an amount (``130``, ``$1,250.75``, ``130 EUR``, ``1.300,00``); a digit group of an identifier is
not: of a token that mixes letters and digits, joined or not by ``-``, ``_``, ``/`` or ``.`` (``B-1``,
``INV-2024-007``, ``user_42``, an IBAN with or without spaces), of a date, time, phone, card or document
number, URL or address, of digits joined by separators (``10.0.0.1``, ``2024-007``) or led by ``#``
(``#4521``); nor a number a label says is another kind of number (``invoice 4521``, ``meter no. 88213``,
``transaction #7731``, ``"id": 4521``), a month and year (``March 2026``, ``03/2026``) or a date-time; and a
space-grouped figure is one number (``12 450`` is 12450, never 450). Else a planted amount equal to a digit
group of a trusted IBAN or reference would be traced to the trusted data and admitted.

Identifiers are recognised with :mod:`policies.supervisor.reading.identifiers`' own patterns, and blanked (as
``|``, their positions kept) before numbers are read.

An argument's amount (not a text's) is read by :func:`amount_value`, the one reader of every limit:
a number, or a decimal string as a payment API takes it; anything else is no amount, and a limit
that meets one asks.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from policies.patterns import (
    CARD,
    DATES,
    EMAIL,
    IBAN,
    LABELLED_DOCUMENT_NUMBER,
    LABELLED_SECRET,
    MONTH_NAMES,
    MONTH_NUMBERS,
    PHONE,
    SECRET_SHAPES,
    URL,
    plain_text,
)

#: A number written as an amount: ``130``, ``130.50``, ``1,250.75``, ``1.300,00`` (a decimal comma
#: after thousands dots), ``100,50`` and ``80,00`` (a decimal comma and two decimals), ``-42``;
#: never a digit group joined to other digits or letters by a separator (``2024-007``,
#: ``10.0.0.1``, ``40/50``, ``B-1``) or led by ``#`` (``#4521``).
AMOUNT = re.compile(
    r"(?<![\w.,/#-])-?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+,\d{2}"
    r"|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?(?![ \u00a0\u202f]?\d)"
    r"|\d+,\d{2}(?![\d,])|\d+(?:\.\d+)?)"
    r"(?![\w/]|[.,:-]\d)"
)
#: Nouns a number counts ("2 nights", "three guests"): a number before one is a count, never a
#: label's number ("booking 2 nights" is no booking number 2).
COUNT_NOUNS = (
    "nights?", "days?", "weeks?", "months?", "hours?", "rooms?", "guests?", "people", "persons?",
    "adults?", "children", "kids?", "seats?", "tickets?", "beds?", "bags?", "items?", "copies",
)  # fmt: skip
#: Numbers written as words before a count noun ("two nights", "three guests"): read as the number
#: there and nowhere else ("one payment", "the one from Acme" are no amounts).
COUNTING_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_UNITS_OF_TEN = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
#: A number written in words, a ten and a unit in one ("twenty three", "twenty-three") or one word:
#: read whole, never as its last word ("twenty three nights" is no 3).
NUMBER_IN_WORDS = (
    rf"(?:(?:{'|'.join(_TENS)})(?:\s+|-)(?:{'|'.join(_UNITS_OF_TEN)})(?!\w)|"
    + "|".join(sorted(COUNTING_WORDS, key=len, reverse=True))
    + ")"
)


def number_in_words(text: str) -> int | None:
    """The number ``text`` writes in words (:data:`NUMBER_IN_WORDS`: "twenty-three" → 23), or None."""
    said = re.split(r"[\s-]+", text.strip().casefold())
    if len(said) == 1:
        return COUNTING_WORDS.get(said[0])
    if len(said) == 2 and said[0] in _TENS and said[1] in _UNITS_OF_TEN:
        return COUNTING_WORDS[said[0]] + _UNITS_OF_TEN.index(said[1]) + 1
    return None


_COUNTED = re.compile(rf"(?i)(?<![\w-])({NUMBER_IN_WORDS})\s+(?:" + "|".join(COUNT_NOUNS) + r")\b")
#: One of a count noun ("one night", "a single night"; not "a night": "a room" counts no figure).
_ONE_COUNTED = re.compile(r"(?i)(?<![\w-])(?:one|(?:a\s+)?single)\s+(?:" + "|".join(COUNT_NOUNS) + r")\b")
#: A number a label says is a number of something else: an invoice, meter, transaction, order,
#: account or reference number (``invoice 4521``, ``meter no. 88213``, ``transaction #7731``,
#: ``"id": 4521``). Its digits are an identifier's, never an amount.
LABELLED = re.compile(
    r"(?i)\b(?:invoice|inv|meter|transaction|txn|order|account|acct|ref|reference|ticket|case|booking|"
    r"customer|client|policy|contract|serial|tracking|member|membership|room|flat|unit|apartment|"
    r"id|no|nr|number|pin|code|zip|postcode|iban|bic|sort\s+code)"
    r"(?:[\s._]*(?:no|nr|number|id)\b)?[\s._:#|\"]*((?:\d[\d \u00a0\u202f-]*)?\d)(?!\d)(?![\d.,]*\d*\s*%)"
    r"(?!\s+(?:" + "|".join(COUNT_NOUNS) + r")\b)"  # "booking 2 nights" counts nights
)
_EURO_AMOUNT = re.compile(r"-?\d{1,3}(?:\.\d{3})+,\d{2}")
#: One token of letters and digits, its parts joined by ``-``, ``_``, ``/`` or ``.`` (``B-1``,
#: ``INV-2024-007``, ``user_42``, ``GB29NWBK60161331926819``, ``12kg``): when it mixes letters and
#: digits it is an identifier, and no digit group of it is an amount.
_TOKEN = re.compile(r"[^\W_]+(?:[-_/.]+[^\W_]+)*")

#: Dates and times as amounts are read around them, in more forms than :func:`dates` and
#: :func:`times` recognise (no year, slashed): their numbers are no amounts either way.
_MONTH_WORD = rf"(?:{MONTH_NAMES})\b\.?"
_WHEN = (
    *DATES,
    re.compile(r"(?<![\w.-])\d{4}[-./]\d{1,2}[-./]\d{1,2}(?![\w-])"),
    re.compile(r"(?<![\w.-])\d{1,2}[./]\d{1,2}[./]\d{2,4}(?![\w-])"),
    re.compile(rf"(?i)(?<![\w-])\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_WORD},?(?:\s+\d{{4}})?\b"),
    re.compile(rf"(?i)(?<![\w-]){_MONTH_WORD}\s+\d{{1,2}}(?:st|nd|rd|th)?,?(?:\s+\d{{4}})?\b"),
    # times, not in the dotted form (12.50 is an amount)
    re.compile(r"(?i)(?<![\w:.])\d{1,2}[:h]\d{2}(?::\d{2})?(?:\s*[ap]\.?m\b\.?)?(?![\w:])"),
    re.compile(r"(?i)(?<![\w:.])\d{1,2}\s*[ap]\.?m\b\.?"),
    # a month and a year ("March 2026", "Mar. 2026", "03/2026"), a date-time ("2026-12-01T10:00")
    re.compile(rf"(?i)(?<![\w-]){_MONTH_WORD}\s*,?\s*\d{{4}}\b"),
    re.compile(r"(?<![\w./-])\d{1,2}/\d{4}(?![\w/-])"),
    re.compile(r"(?i)\d{4}-\d{2}-\d{2}[t ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?"),
)


#: What stands in for a blanked identifier: no space, so that no phone number, date or amount is
#: read across the gap (``40 B-1 50 C-2 60`` holds no phone number).
_BLANK = "|"


def _blank(match: re.Match[str]) -> str:
    return _BLANK * len(match.group(0))


def _blank_group(text: str, pattern: re.Pattern[str], group: int, least_digits: int = 0) -> str:
    """``text`` with ``group`` of each match of ``pattern`` blanked (where it holds enough digits)."""
    out = list(text)
    for match in pattern.finditer(text):
        if sum(c.isdigit() for c in match.group(group)) >= least_digits:
            out[match.start(group) : match.end(group)] = _BLANK * (match.end(group) - match.start(group))
    return "".join(out)


def _not_an_amount(match: re.Match[str]) -> str:
    """A phone number (7 digits or more, written with spaces, dashes, dots or brackets) or a token
    that mixes letters and digits, blanked; anything else as it is."""
    raw = match.group(0)
    if raw[:1].isdigit() and re.fullmatch(r"\d+(?:[.,]\d+)*", raw.strip()):
        return raw  # a plain decimal number (1,250,000.00)
    mixed = any(c.isalpha() for c in raw) and any(c.isdigit() for c in raw)
    phone = not mixed and sum(c.isdigit() for c in raw) >= 7
    return _BLANK * len(raw) if mixed or phone else raw


def amount_text(text: str) -> str:
    """``text`` as amounts are read from it (:func:`plain_text`, same length), with every
    identifier that holds digits blanked (as ``|``): URLs, e-mail addresses, IBANs, card and phone numbers,
    dates and times, secrets and document numbers, and any token that mixes letters and digits,
    joined or not by ``-``, ``_``, ``/`` or ``.`` (``B-1``, ``INV-2024-007``, ``user_42``)."""
    text = plain_text(text)
    for pattern in (URL, EMAIL, IBAN, CARD, *_WHEN, SECRET_SHAPES):
        text = pattern.sub(_blank, text)
    text = _blank_group(text, LABELLED_SECRET, 1)
    text = _blank_group(text, LABELLED, 1)
    text = _blank_group(text, LABELLED_DOCUMENT_NUMBER, 1, least_digits=4)
    text = _TOKEN.sub(_not_an_amount, text)
    return PHONE.sub(_not_an_amount, text)


def _written(raw: str) -> str:
    """An amount as written, without its thousands separators (``1.300,00`` → ``1300.00``)."""
    raw = re.sub(r"[ \u00a0\u202f]", "", raw)  # a space-grouped figure: 12 450 is 12450
    if _EURO_AMOUNT.fullmatch(raw):
        return raw.replace(".", "").replace(",", ".")
    if re.fullmatch(r"-?\d+,\d{1,2}", raw):  # a decimal comma after a space-grouped figure
        return raw.replace(",", ".")
    return raw.replace(",", "")


def amounts_at(blanked: str) -> list[tuple[int, str]]:
    """The amounts in a text :func:`amount_text` gave, in order: ``(where, the number as written
    without thousands separators)`` (``1,250.70`` → ``1250.70``)."""
    return [(m.start(), _written(m.group(0))) for m in AMOUNT.finditer(blanked)]


def amounts(text: str) -> list[tuple[int, str]]:
    """The numbers written in ``text`` as amounts, in order: ``(where in its plain text, the number
    as written without thousands separators)``. A digit group of an identifier is no amount: not of
    a token that mixes letters and digits (``B-1``, ``INV-2024-007``, an IBAN with or without
    spaces), a date, a time, a phone, card or document number, a URL or an address; nor one joined
    to other digits by a separator (``10.0.0.1``, ``2024-007``) or led by ``#``."""
    counted = [(m.start(), str(number_in_words(m.group(1)))) for m in _COUNTED.finditer(text)]
    counted += [(m.start(), "1") for m in _ONE_COUNTED.finditer(text)]
    return sorted([*amounts_at(amount_text(text)), *counted])


#: An amount as an argument may give it in text: digits, a decimal point and more digits
#: (``900.00``), commas between groups of three digits (``1,200.50``), a leading sign, spaces
#: around. ASCII digits only; no exponent (``1e3``), no currency, no spaces inside, no decimal
#: comma (``1.300,00``, ``1,5``) and no bare point (``.5``, ``900.``).
AMOUNT_TEXT = re.compile(r"[+-]?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?")


def amount_value(value: Any) -> Decimal | None:
    """The one reading of an argument's amount that every limit sums and compares (``Threshold``,
    ``RunCap``, ``RecordLimit``, ``NumberArg``, the ledger's totals): an int, a finite float (by its
    shortest repr: ``0.1`` is ``0.1``), a finite ``Decimal``, or a text of :data:`AMOUNT_TEXT`
    (``"900.00"``, ``" 1,200.50 "``, ``"-5"``) as the exact decimal it writes. Anything else is
    None, *not an amount*: a boolean, None, NaN or an infinity (as a number or a text), an exponent
    (``"1e3"``: some parsers read 1000, some 1), a decimal comma or a space-grouped figure (``"1,5"``,
    ``"1 200"``: which number a tool reads is not certain), a currency sign or code, a list or a
    mapping. A limit that reads None asks a human (``amount_not_readable``), never admits."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value)) if math.isfinite(value) else None
    if isinstance(value, Decimal):
        return value if value.is_finite() else None
    if isinstance(value, str):
        text = value.strip()
        return Decimal(text.replace(",", "")) if AMOUNT_TEXT.fullmatch(text) else None
    return None


#: The operations a derived value may be computed by (:mod:`policies.supervisor.provenance.derivation`).
Operation = Literal["sum", "difference", "rate"]
OPERATIONS: tuple[Operation, ...] = ("sum", "difference", "rate")

#: A percentage: a figure or a number word before "%", "percent", "per cent" ("ten percent").
PERCENT_FIGURE = r"(?:\d+(?:\.\d+)?|" + "|".join(COUNTING_WORDS) + ")"
_PERCENT = re.compile(
    rf"(?i)(?<![\w.,])({PERCENT_FIGURE})(?:\s*%|\s+percent\b|\s+per cent\b|(?<=\d)percent\b)"
)
#: Shares written as words ("half of the dinner", "twice the deposit"), as percentages.
_SHARES = {"half": Decimal(50), "third": Decimal(100) / 3, "quarter": Decimal(25), "double": Decimal(200)}
_DETERMINER = r"(?:the|my|our|his|her|their|its|your|this|that|a|an|what)\b"
#: A share is one only in the construct that makes it an operation: "half of the bill", "half the
#: bill", "a third of", "a quarter of", "twice the deposit", "double what I sent" (never "the double
#: room", "the third bill", "a quarter past ten").
SHARE_CONSTRUCT = (
    rf"\b(?:(half)\s+(?:of\b|{_DETERMINER})|(?:a|one)\s+(third|quarter)\s+of\b"
    rf"|(twice|double)\s+{_DETERMINER})"
)
_SHARE = re.compile(f"(?i){SHARE_CONSTRUCT}")


def positive_decimal(raw: str) -> Decimal | None:
    """``raw`` (digits, a point, thousands commas) as a positive finite decimal; None otherwise."""
    try:
        value = Decimal(raw.replace(",", ""))
    except InvalidOperation:
        return None
    return value if value.is_finite() and value > 0 else None


def amounts_in(text: str) -> list[tuple[Decimal, bool]]:
    """The amounts written in ``text``, in order: ``(value, is a percentage)``. Dates, times, URLs,
    addresses, account, card and phone numbers and numbers glued to letters are not amounts."""
    return [(value, percent) for value, percent, _word in amounts_read(text)]


def amounts_read(text: str) -> list[tuple[Decimal, bool, str]]:
    """:func:`amounts_in` with the word each share is written as (``"half"``; ``""`` for a figure)."""
    rest = amount_text(text)  # identifiers that hold digits blanked, the positions kept
    found: list[tuple[int, Decimal, bool, str]] = []
    for match in _PERCENT.finditer(rest):
        figure = match.group(1).casefold()
        value = Decimal(COUNTING_WORDS[figure]) if figure in COUNTING_WORDS else positive_decimal(figure)
        if value is not None:
            found.append((match.start(), value, True, ""))
    rest = _PERCENT.sub(lambda m: "|" * len(m.group(0)), rest)
    for match in _SHARE.finditer(rest):
        word = next(g for g in match.groups() if g).casefold()
        found.append((match.start(), _SHARES["double" if word == "twice" else word], True, word))
    for at, number in amounts_at(rest):
        value = positive_decimal(number)
        if value is not None:
            found.append((at, value, False, ""))
    return [(value, percent, word) for _at, value, percent, word in sorted(found, key=lambda f: f[0])]


#: Words that say a payment is part of a record's figure, not the whole of it ("the first
#: installment of the bill", "a deposit on it", "part of the invoice"): the record's figure is then
#: no amount the user asked for.
PARTIAL_WORDS = frozenset(
    """
    installment installments instalment instalments deposit downpayment down-payment part portion
    partial partially partly fraction tranche advance share some same bit bits half halves quarter
    third piece chunk slice most majority bulk little minimum item items
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def partial_word(text: str) -> str | None:
    """The first word of ``text`` that says a payment is part of what it names
    (:data:`PARTIAL_WORDS`), or None."""
    return next((w for w in re.findall(r"[\w-]+", text.casefold()) if w in PARTIAL_WORDS), None)


#: What names a record's figure whole: the record itself (its kind), its total, what is owed on it
#: ("the bill of Acme", "the full amount on B-40", "what I owe on it"). A noun phrase of a record
#: headed by any other word names something of it ("B-40's reminder fee", "the interest on B-40",
#: "the B-40 penalty"), which its figure is not.
WHOLE_WORDS = frozenset(
    """
    bill bills invoice invoices statement statements amount amounts total totals sum balance due
    owed owe owing outstanding full whole entire everything all it them one ones rent order orders
    subscription payment payments charges what
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words that qualify a record's figure without taking a part of it ("the full amount of B-40").
_WHOLE_MODIFIERS = frozenset(
    ["full", "whole", "entire", "total", "outstanding", "open", "unpaid", "current", "complete"]
)
#: Words that end a noun phrase read after a record's possessive ("B-40's fee by Friday").
_PHRASE_ENDS = frozenset(
    """
    by before after on in at to for from with within until till today tomorrow tonight now soon asap
    please thanks thank and or but then also too as via using
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_DETERMINERS = frozenset(
    ["the", "a", "an", "my", "our", "your", "their", "his", "her", "its", "this", "that", "these", "those"]
)
_LINKS = frozenset(["of", "on", "for", "toward", "towards", "against"])
_POSSESSIVES = ("'s", "\u2019s", "s'")
_WORD = re.compile(r"[\w][\w.\-]*[\w]|[\w]|'s|\u2019s|s'")
_SEGMENTS = re.compile(r"\s*(?:\||,|;|\band\b|\bplus\b|\balong with\b|\bas well as\b|\btogether with\b)\s*")


def part_of_record(stated: str, record: str, verbs: Collection[str] = ()) -> str | None:
    """The words by which ``stated`` (what the turn asks for a call) names a part of the record whose
    text is ``record`` rather than the record whole, or None: a possessive of the record followed by
    a noun phrase ("B-40's reminder fee"), a noun phrase linked to it ("the interest on B-40", "the
    first month of the Acme bill") or a noun after it ("the B-40 penalty"), that does not name the
    record whole (:func:`names_a_part`). The record is known by the words of it the turn writes (an
    id, a capitalised name). ``verbs``: the call's verbs, after which a noun opens a phrase of its
    own ("Pay interest on B-40")."""
    held = set(re.findall(r"[\w][\w.\-]*[\w]|[\w]", record.casefold()))
    # the months of the record's days say which record, not a part of it ("Dr. Vogt's December
    # invoice" for one due 2026-12-20)
    months = {int(m) for m in _A_DAYS_MONTH.findall(record)}
    dated = frozenset(name for name, number in MONTH_NUMBERS.items() if number in months)

    def of_record(word: str) -> bool:
        return word.casefold() in held and (word[:1].isupper() or any(c.isdigit() for c in word))

    named_before = False
    for segment in _SEGMENTS.split(stated):
        words = _WORD.findall(segment)
        if named_before and words and words[0].casefold() in _NARROWING:  # "B-40, just the fee"
            phrase = _noun_phrase(words[1:])
            if names_a_part(phrase):
                return " ".join(phrase)
        named_before = False
        for at, word in enumerate(words):
            if not of_record(word):
                continue
            named_before = True
            found = _part_around(words, at, of_record, verbs, dated)
            if found:
                return " ".join(found)
    return None


#: Words that open an appositive narrowing what was just named ("B-40, just the reminder fee").
_NARROWING = frozenset(["just", "only", "merely", "simply", "namely", "i.e", "ie"])


def names_a_part(phrase: list[str]) -> bool:
    """Does a noun phrase of a record (lower-cased words) name a part of it: its head is not one of
    :data:`WHOLE_WORDS`, or a word before the head neither names the whole nor qualifies it as whole
    ("the disputed amount")?"""
    if not phrase:
        return False
    if phrase[-1] not in WHOLE_WORDS:
        return True
    whole = WHOLE_WORDS | _WHOLE_MODIFIERS
    return any(w.isalpha() and w not in whole for w in phrase[:-1])


#: The month of a day as a record writes it ("2026-12-20").
_A_DAYS_MONTH = re.compile(r"(?<![\d-])\d{4}-(\d{2})-\d{2}(?![\d-])")


def _part_around(
    words: list[str],
    at: int,
    of_record: Callable[[str], bool],
    verbs: Collection[str] = (),
    dated: Collection[str] = (),
) -> list[str]:
    """:func:`part_of_record` at the record's words starting at ``words[at]``: the part's words (a
    month of the record's own days, ``dated``, is none)."""
    after = at + 1
    while after < len(words) and of_record(words[after]):
        after += 1
    if after < len(words) and words[after].casefold() in _POSSESSIVES:  # "B-40's reminder fee"
        phrase = []
        for later in words[after + 1 :]:
            if later.casefold() in _PHRASE_ENDS or of_record(later):
                break
            phrase.append(later.casefold())
        return phrase if names_a_part([w for w in phrase if w not in dated]) else []
    if (  # "the B-40 penalty"
        after < len(words)
        and at > 0
        and words[at - 1].casefold() in _DETERMINERS
        and _common(words[after])
        and words[after].casefold() not in WHOLE_WORDS | _PHRASE_ENDS | _LINKS
    ):
        return [words[after].casefold()]
    before = at - 1  # the reference's own words: "on the bill B-40", "of the Acme Supplies bill"
    while before >= 0 and (
        words[before].casefold() in _DETERMINERS | WHOLE_WORDS or of_record(words[before])
    ):
        before -= 1
    if before >= 1 and words[before].casefold() in _LINKS:  # "the interest on B-40"
        phrase = _noun_phrase(words[:before])
        if (
            not phrase
            and before >= 2
            and words[before - 2].casefold() in verbs
            and _common(words[before - 1])
        ):
            head = words[before - 1].casefold()  # "Pay interest on B-40": the verb's own object
            phrase = [] if head in _PARTICLES else [head]
        return phrase if names_a_part(phrase) else []
    return []


#: Words a verb takes as its particle, never an object ("Settle up on B-40", "Pay off B-40").
_PARTICLES = frozenset(["up", "off", "out", "down", "in", "back", "over", "through", "forward", "ahead"])


def _common(word: str) -> bool:
    """A word a noun phrase of a record's part is made of: written in lower case, or an
    abbreviation in capitals ("VAT"); not a capitalised name or month."""
    return word.isalpha() and (word.islower() or (word.isupper() and len(word) > 1))


def _noun_phrase(words: list[str]) -> list[str]:
    """The noun phrase ending ``words`` (what stands before "of", "on", "for" a record), lower-cased,
    where a determiner opens it within four words ("the interest", "the disputed amount"); a
    capitalised word (a month, a name) or one with a digit is left out. Without a determiner, none
    ("Pay for B-40", "Settle up on B-40": the verb's own words)."""
    if not words or words[-1].casefold() in _DETERMINERS:
        return []
    back = range(2, min(len(words), 5) + 1)
    opened = next((n for n in back if words[-n].casefold() in _DETERMINERS), None)
    if opened is None:
        return []
    phrase = [w for w in words[len(words) - opened + 1 :] if _common(w)]
    return [w.casefold() for w in phrase] if phrase and phrase[-1] == words[-1] else []


#: Numbers written as words ("two hundred", "fifty"; not "one", most often a pronoun): an amount
#: the turn states, which the reader does not compute.
NUMBER_WORDS = frozenset(
    """
    two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
    sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
    hundred thousand million
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def number_word(text: str) -> str | None:
    """The first number written as a word in ``text`` (:data:`NUMBER_WORDS`), or None."""
    return next((w for w in re.findall(r"[\w-]+", text.casefold()) if w in NUMBER_WORDS), None)


#: A figure grouped in thousands by points, with no decimals ("1.200", "5.000", "12.500.000"): 1200
#: on the continent, 1.2 in English.
READS_TWO_WAYS = re.compile(r"(?<![\w.,])\d{1,3}(?:\.\d{3})+(?![\w]|[.,]\d)")
