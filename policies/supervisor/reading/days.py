"""Days and spans of time as a turn writes them: a day ("2026-12-03", "December 3rd", "the 28th",
"Friday"), one counted from another ("the Thursday following 2026-12-03"), days from one to another
("from Dec 1 to Dec 4"), and counts in a unit of time ("2 nights", "a single night",
"twenty-three nights", "1 hour and 15 minutes"). What the bindings read of a call's day and count
(:mod:`policies.supervisor.decide.bindings`). Pure: no I/O."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from decimal import Decimal

from policies.supervisor.reading.amounts import NUMBER_IN_WORDS, number_in_words
from policies.supervisor.reading.words import MONTH_NUMBERS

#: Units of time an argument's name may count in, and the words a turn writes each with.
UNITS = {
    "second": ("second", "seconds", "sec", "secs", "s"),
    "minute": ("minute", "minutes", "min", "mins", "m"),
    "hour": ("hour", "hours", "hr", "hrs", "h"),
    "day": ("day", "days", "d"),
    "night": ("night", "nights", "nite", "nites"),
    "week": ("week", "weeks", "wk", "wks"),
    "fortnight": ("fortnight", "fortnights"),
    "month": ("month", "months", "mo", "mos"),
    "year": ("year", "years", "yr", "yrs"),
}
UNIT_OF = {word: unit for unit, words in UNITS.items() for word in words}
#: A figure and the word right after it ("1 hour", "90 seconds", "15min", "a 3-night stay").
_A_FIGURE_AND_WORD = re.compile(r"(?i)(?<![\w.,])(\d+(?:[.,]\d+)?)(?:\s*|-)([a-z]+)\b")
#: A count written as a word and the word after it ("a single night", "three-night", "for a
#: week"); not a rate's "a" ("twice a day", "3 times a week", "once a month").
_ONE = {
    "a": 1,
    "an": 1,
    "one": 1,
    "single": 1,
    "a single": 1,
    "one single": 1,
    "a couple of": 2,
    "couple of": 2,
}
_A_COUNT_AND_WORD = re.compile(
    r"(?i)(?<![\w-])(?<!times )(?<!once )(?<!twice )(?<!per )("
    + NUMBER_IN_WORDS
    + "|"
    + "|".join(sorted(_ONE, key=len, reverse=True)).replace(" ", r"\s+")
    + r")(?=(?:\s+|-)([a-z]+)\b)"  # the word looked at, not taken: "a three-night stay"
)
#: A month's name, long or short (the reader's one table, :data:`MONTH_NUMBERS`), and a weekday's
#: (a short one capitalised: "Sat", not "sat").
MONTH = "(?:" + "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True)) + r")\.?"
WEEKDAY = (
    r"(?:(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)\.?)"
)
_A_DAY_SAID = (
    rf"(?:\d{{4}}-\d{{2}}-\d{{2}}|(?i:{MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?|"
    rf"(?:the\s+)?\d{{1,2}}(?:(?:st|nd|rd|th)(?:\s+(?:of\s+)?(?i:{MONTH}))?|\s+(?:of\s+)?(?i:{MONTH}))|\d{{1,2}}\.\d{{1,2}}\.?|{WEEKDAY})"
)
#: A stretch of days written from one to another ("from Dec 1 to Dec 4", "Mon to Fri", "the 24th
#: through the 25th", "24.11.–27.11.", "from 3 to 9 December"): a count of nights or days in it is
#: the agent's to work out.
STRETCH = re.compile(
    rf"(?<![\w.-]){_A_DAY_SAID}\s*(?:(?i:to|through|thru|till|until)|[-–—])\s*(?:(?i:the)\s+)?{_A_DAY_SAID}(?![\w-])"
    # a month's days from one to another ("between the 3rd and 9th of Dec")
    rf"|(?<![\w.-])\d{{1,2}}(?i:st|nd|rd|th)?\s*(?:(?i:to|through|thru|till|until|and)|[-–—])\s*"
    rf"(?:(?i:the)\s+)?\d{{1,2}}(?i:st|nd|rd|th)?\s+(?:(?i:of)\s+)?(?i:{MONTH})(?![\w-])"
)
#: A count the turn adds to ("3 nights plus one", "one more night", "an extra night"): the sum is
#: the agent's to work out.
COUNT_ADDED = re.compile(
    rf"(?i)(?:\bplus|(?<=\s)\+)\s*(?:one|an?|another|\d+|{NUMBER_IN_WORDS})\b"
    rf"|\b(?:one|an?|\d+|{NUMBER_IN_WORDS})\s+(?:more|extra|additional)\b|\banother\s+(?:night|day|week)"
)

_WEEKDAY_NUMBER = {d: i for i, d in enumerate(["mon", "tue", "wed", "thu", "fri", "sat", "sun"])}
#: The ways a mandate writes a day: a date, a month's day ("December 3rd", "3 Dec"), the day of a
#: month ("the 28th"), a weekday ("Friday", "Fri").
DAYS_SAID = (
    ("date", re.compile(r"(?<![\w-])(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})(?![\w-])")),
    ("month", re.compile(
        rf"(?<![\w-])(?P<mon>(?i:{MONTH}))\s+(?P<d>\d{{1,2}})(?i:st|nd|rd|th)?(?![\w:.,-]\d)\b"
    )),
    ("month", re.compile(
        rf"(?<![\w.-])(?P<d>\d{{1,2}})(?i:st|nd|rd|th)?\s+(?i:of\s+)?(?P<mon>(?i:{MONTH}))(?![\w])"
    )),
    ("day", re.compile(r"(?i)\bthe\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b")),
    ("weekday", re.compile(rf"(?<![\w-])(?P<w>{WEEKDAY})(?![\w-])")),
)  # fmt: skip


#: Words that make the day after them one counted from ("the Thursday following", "three days
#: from", "the eve of", "a week after", "the day before", "the week of"): the day meant is another.
#: ("the day of", "the morning of" 2026-12-31 is that day: "a last day of 2026-12-31".)
_COUNTED_FROM = re.compile(
    rf"(?i)(?:\b(?:after|following|before|preceding|since|past|prior\s+to|ahead\s+of|eve\s+of|"
    rf"(?:week|weekend)\s+of)"
    rf"|\b(?:\d+|an?|{NUMBER_IN_WORDS})\s+(?:days?|weeks?|nights?|months?)\s+(?:from|on\s+from|out\s+from))"
    r"\s+(?:the\s+)?$"
)


#: A day counted from, with the words that count from it: what of a turn writes no day itself.
_ANCHORED = re.compile(
    _COUNTED_FROM.pattern.removesuffix(r"\s+(?:the\s+)?$")
    + r"\s+(?:the\s+)?[^,.;!?|]*?(?=$|[,;!?|]|\.(?:\s|$)|\s+(?i:and|at|with|for|in)\b)"
)


def an_anchor(stated: str, at: int) -> bool:
    """Is the day written at ``at`` one the turn counts another day from ("the Thursday following
    2026-12-03")? Not the start of a stretch ("from 2026-12-03 to ...") nor the day itself ("on
    2026-12-03 after lunch")."""
    before = stated[max(0, at - 40) : at]
    return _COUNTED_FROM.search(before) is not None


def said_on_another_weekday(said: Sequence[tuple[str, re.Match[str]]]) -> set[str]:
    """The dates the turn writes beside a weekday that is not theirs ("Friday 2026-12-03",
    "2026-12-03 (Fri)": the third is a Thursday): which day is meant reads two ways."""
    weekdays = [m for kind, m in said if kind == "weekday"]
    found = set()
    for kind, m in said:
        if kind != "date":
            continue
        for w in weekdays:
            gap = m.string[w.end() : m.start()] if w.end() <= m.start() else m.string[m.end() : w.start()]
            if re.fullmatch(r"[\s,(|]*", gap) and len(gap) <= 5:  # "Wed, 2026-12-03", a part's " | "
                try:
                    day = date(int(m["y"]), int(m["m"]), int(m["d"]))
                except ValueError:
                    continue
                if day.weekday() != _WEEKDAY_NUMBER[w["w"][:3].casefold()]:
                    found.add(m.group(0))
    return found


def is_the_day(day: date, kind: str, said: re.Match[str]) -> bool:
    """Is ``day`` the day a match of :data:`DAYS_SAID` of that ``kind`` writes ("Friday" of any
    Friday, "the 28th" of any month's 28th, "December 3rd" of any year's)?"""
    if kind == "date":
        return day.isoformat() == said.group(0)
    if kind == "weekday":
        return day.weekday() == _WEEKDAY_NUMBER[said["w"][:3].casefold()]
    if kind == "month" and MONTH_NUMBERS[said["mon"].casefold().rstrip(".")] != day.month:
        return False
    return day.day == int(said["d"])


#: A count of a whole it is a part of ("2 of the 5 nights"): the part, in the whole's unit.
_A_PART_OF_A_WHOLE = re.compile(
    r"(?i)\b(\d+(?:[.,]\d+)?)\s+of\s+(?:the|my|our|those|these|all)\s+\d+(?:[.,]\d+)?\s+([^\W\d_]+)"
)


def counts_written(stated: str) -> list[tuple[Decimal, str | None]]:
    """The counts ``stated`` writes, each with the unit of time after it (or None): "1 hour", "a
    single night", "twenty-three nights"; "2 of the 5 nights" writes 2 nights (the 5, the whole
    they are part of, is no count asked for)."""
    stated = _A_PART_OF_A_WHOLE.sub(r"\1 \2", stated)
    return [
        (Decimal(m.group(1).replace(",", ".")), UNIT_OF.get(m.group(2).casefold()))
        for m in _A_FIGURE_AND_WORD.finditer(stated)
    ] + [
        (Decimal(_ONE.get(" ".join(m.group(1).casefold().split())) or number_in_words(m.group(1)) or 0),
         UNIT_OF.get(m.group(2).casefold()))
        for m in _A_COUNT_AND_WORD.finditer(stated)
    ]  # fmt: skip


def without_days_counted_from(text: str) -> str:
    """``text`` without the days it counts another from, with their words ("the eve of 3 Dec
    2026", "three days from 2026-12-03"): what of it writes a day itself."""
    return _ANCHORED.sub(" ", text)
