"""What a message an agent writes says beyond what its turn and the records it points to say.

A turn that asks for a mail ("Email Bob that I can't make the meeting") dictates what the mail
says; the agent words it. Every content word of the mail is accounted for by the turn, by a record
the turn points to (a mail it answers, a file it sends), by the recipient's and the user's own
names, or by the few words a courteous mail adds (:data:`COURTESY`); and the mail says it with the
turn's polarity (a turn that says "not", "can't" or "no" is not answered by a mail that says none
of them, nor the other way round). What is left is what the mail says that the user did not: "I
accept the offer" for "I decline", "Also, I'm resigning effective today", "Sent on behalf of the
CEO", "The laptop is at the back office".

Pure functions of text: no policy, no records, no I/O."""

from __future__ import annotations

import re
from collections.abc import Iterable

from policies.supervisor.reading.words import FUNCTION_WORDS

__all__ = ["COURTESY", "content_words", "left_out", "negated", "unsaid"]

#: Words a courteous mail adds to what it was told to say, whatever it says: greetings, thanks,
#: sign-offs, hedges, the furniture of a reply. None of them says anything the user could be held
#: to.
COURTESY = frozenset(
    """
    hi hello hey dear greetings morning afternoon evening good
    thanks thank thx ty cheers best regards kind kindly warm warmly wishes sincerely yours truly
    appreciated appreciate much many lot great sure ok okay noted glad sorry apologies apologize
    unfortunately fortunately happy hope hoping well sounds note quick update fyi heads
    let know letting just wanted writing write reach reaching touch base follow following
    re fwd fw subject message mail email reply replying regarding info information
    below above attached as requested discussed asked per
    yes yeah yep done running today send help works work fine able
    """.split()  # noqa: SIM905 (a closed list, read as words)
)

#: A negation: a word of its own, or a verb's ("can't", "doesn't", "won't").
_NEGATION = re.compile(
    r"(?i)(?<![\w'’])(?:not|no|never|cannot|unable|nothing|nobody|none|neither|nor|nowhere)(?![\w'’])|\w+n[’']t\b"
)

_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")

#: Function words that take a stand in a message ("I'm against the plan" for "fine with the
#: plan", "only Monday"): content there.
_STANCE = frozenset({"against", "without", "except", "instead", "unless", "only", "rather", "despite"})

#: Words a turn abbreviates and a mail writes out, by their written-out stem.
_ABBREVIATED = {
    "min": "minute", "mins": "minute", "hr": "hour", "hrs": "hour", "sec": "second", "secs": "second",
    "tmrw": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow", "mtg": "meeting", "msg": "message",
    "pls": "please", "plz": "please", "approx": "approximately", "doc": "document", "docs": "document",
    "mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "thu": "thursday",
    "thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday",
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
    "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november",
    "dec": "december", "asap": "soon", "eod": "day", "eow": "week",
}  # fmt: skip


def negated(text: str) -> bool:
    """Does ``text`` say something in the negative ("not", "no", "never", "can't", "nothing")?"""
    return _NEGATION.search(text) is not None


def _stem(word: str) -> str:
    """A word without its inflection, enough to meet its other forms ("weeks": week, "picking":
    pick, "confirmed": confirm, "replies": reply, "minutes" and "minute": minut, "presentation":
    present)."""
    for suffix, keep in (
        ("ations", ""),
        ("ation", ""),
        ("ies", "y"),
        ("ied", "y"),
        ("ing", ""),
        ("ed", ""),
        ("s", ""),
        ("ly", ""),
        ("al", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= (
            3 if len(suffix) > 2 or suffix in "eds" else 4
        ):
            word = word[: -len(suffix)] + keep
            break
    if re.search(r"(?:[sxz]|ch|sh)e$", word):  # "boxes": box
        word = word[:-1]
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


#: Words a mail writes for the turn's own, each group one word ("finished": "completed", "got":
#: "received", "can't make": "can't attend"): the paraphrases an assistant makes of what it was
#: told, never of a figure, a name or a polarity.
_SAME_MEANING = (
    "finish complete completed wrap", "fix resolve correct repair", "get got receive",
    "find locate", "start begin began begun kick", "help assist assistance support", "buy purchase",
    "make attend join come", "need require", "late delayed behind", "sick ill unwell",
    "move reschedule", "issue problem", "talk chat speak discuss", "soon shortly", "ok okay fine",
    "question query", "tomorrow tmrw", "meeting mtg",
)  # fmt: skip


def _meaning(word: str) -> str:
    """The word a paraphrase is read as: its stem, or its group's first word's."""
    stem = _stem(word)
    return _ONE_WORD.get(stem, stem)


def content_words(text: str) -> list[str]:
    """The words of ``text`` that say something: not a function word, not a contraction's tail
    ("I'll": i), in small letters; a figure is a word."""
    out = []
    for token in _WORD.findall(text.casefold()):
        if re.search(r"n['’]t$", token):
            continue  # "won't", "doesn't": a negation (:func:`negated`), no word of its own
        for part in re.split(r"['’]", token):  # "i'll", "ana's"
            for word in part.split("-"):
                if word in _STANCE or (word and word not in FUNCTION_WORDS and word not in _TAILS):
                    out.append(word)
    return out


#: A figure as a word: digits, an hour ("6pm"), an ordinal ("24th").
_A_FIGURE = re.compile(r"\d+(?:am|pm|h|st|nd|rd|th|k)?")

#: What a contraction leaves after its apostrophe ("I'll", "I'm", "we're", "Ana's").
_TAILS = frozenset({"ll", "m", "re", "ve", "d", "s", "t"})


_ONE_WORD = {_stem(w): _stem(group.split()[0]) for group in _SAME_MEANING for w in group.split()}


def unsaid(texts: Iterable[str], said: Iterable[str], figures: Iterable[float] = ()) -> list[str]:
    """The content words of ``texts`` that none of ``said`` holds, in any of its forms, and that
    no courteous mail adds (:data:`COURTESY`), each once, in order. A figure is held where its
    number is one of ``figures`` (what ``said`` writes, read every way: "6 pm" holds 18 and 00)."""
    numbers = set(figures)
    said = list(said)
    held = {_meaning(w) for text in said for w in content_words(text)}
    held |= {_meaning(_ABBREVIATED[w]) for text in said for w in content_words(text) if w in _ABBREVIATED}
    held |= {_meaning(w) for w in COURTESY}
    out: list[str] = []
    for text in texts:
        for word in content_words(text):
            figure = _A_FIGURE.fullmatch(word)
            if figure and float(re.sub(r"\D", "", word)) in numbers:
                continue
            if _meaning(word) not in held and word not in out:
                out.append(word)
    return out


def left_out(texts: Iterable[str], dictated: str, aside: Iterable[str] = ()) -> list[str]:
    """The content words of what a turn dictates (``dictated``), but ``aside`` (whom it goes to)
    and courtesy, where the message holds none of them in any form ("Thanks, will do." for "...
    that the doc is ready": doc, ready); none where it holds one or the turn dictates none."""
    skip = {_meaning(w) for w in aside} | {_meaning(w) for w in COURTESY} | {"am", "pm"}
    # a figure may be written another way ("6 pm": 18:00): weighed as a value, not here
    wanted = [
        w
        for w in dict.fromkeys(content_words(dictated))
        if _meaning(w) not in skip and not _A_FIGURE.fullmatch(w)
    ]
    written = {_meaning(w) for text in texts for w in content_words(text)}
    found = [w for w in wanted if _meaning(w) in written or _meaning(_ABBREVIATED.get(w, w)) in written]
    return [] if found or not wanted else wanted
