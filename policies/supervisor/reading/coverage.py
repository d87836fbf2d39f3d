"""What a reading of the user's turn covers, and what it leaves unread (issue 54, first step:
``shared/design/reading.md``, "Three outcomes per call").

The reader (:mod:`policies.supervisor.reading.words`) gives the turn's mandates: the clauses it
reads as asking. Every other clause of the turn is accounted for here, one of:

- **consumed by a mandate**: it continues a mandate's object ("Delete the Standup and the Review":
  "the Review"), or it is the content of a mandate's sentence (after a colon, "Reply to Carla:
  Thursday works");
- **a sentence with no bearing on any call**: a greeting, thanks, a sign-off ("Hi!", "Thanks a lot.",
  "Cheers");
- **a prohibition**: a negation or an avoidance of a verb ("Don't pay the Acme bill", "Avoid
  cancelling it", "Instead of cancelling the Review, move it"): the turn says *not* to, and a call
  of that kind is refused;
- or **unread**: a clause the reader could not read as any of these ("Would you mind paying ...?",
  "Let's pay ...", "Tomorrow, pay ...", "Scrap that.", "mais pas la facture Acme").

A call the turn does not ask for is refused only on a complete reading. Where an unread span could
bear on the call (it holds a word of the call's kind, inflected or not, or one of the call's values,
or it is a whole sentence with no role, such as a trailing "Scrap that."), the call is put to a human
instead, with the reading and the unread words: a benign request the reader could not read is never
refused for it. Deterministic and pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from policies.supervisor.reading.words import (
    Clause,
    Mandate,
    RequestReader,
    clauses_of,
    forms,
    mandates,
    said,
    words_of,
)

__all__ = [
    "IRREGULAR",
    "NO_ROLE_WORDS",
    "READING_VERBS",
    "Reading",
    "Unread",
    "bears_on",
    "prohibited",
    "reading_of",
    "verb_forms",
]

#: Words of a sentence that bears on no call: greetings, thanks, sign-offs, acknowledgements (and the
#: few words that go with them: "Hi team", "Thanks a lot", "Many thanks in advance").
NO_ROLE_WORDS = frozenset(
    """
    hi hello hey hiya morning evening afternoon good dear team all everyone folks there
    thanks thank thx ty you so much very lot lots a many in advance again cheers regards best kind
    kindly warm warmest sincerely ok okay great cool perfect awesome sure yes yep
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: The irregular forms of verbs an action is declared by (regular inflections: :func:`forms`): a
#: closed table, so that "What if you paid it?" and "the money I sent" are read as the verb's.
IRREGULAR = {
    "pay": ("paid",), "send": ("sent",), "buy": ("bought",), "sell": ("sold",), "give": ("gave", "given"),
    "take": ("took", "taken"), "write": ("wrote", "written"), "get": ("got", "gotten"), "make": ("made",),
    "leave": ("left",), "hold": ("held",), "tell": ("told",), "find": ("found",), "bring": ("brought",),
    "forget": ("forgot", "forgotten"), "withdraw": ("withdrew", "withdrawn"), "hide": ("hid", "hidden"),
    "put": ("put",), "set": ("set",), "cut": ("cut",), "lend": ("lent",), "spend": ("spent",),
    "keep": ("kept",), "pay out": ("paid out",), "rebook": ("rebooked",), "undo": ("undid", "undone"),
}  # fmt: skip


def verb_forms(verb: str) -> frozenset[str]:
    """The words a declared verb is written as: its first word, regularly inflected (:func:`forms`),
    and its irregular forms (:data:`IRREGULAR`)."""
    first = (words_of(verb) or [""])[0]
    if not first:
        return frozenset()
    return forms(first) | frozenset(IRREGULAR.get(first, ()))


@dataclass(frozen=True)
class Unread:
    """A clause of the turn the reading does not account for: its text, its sentence, and why
    (``"no role in a reading"``, ``"a question"``, ...)."""

    text: str
    sentence: str
    why: str
    #: the whole sentence is unread (no clause of it asks for anything): it may bear on any call
    whole_sentence: bool = False


@dataclass(frozen=True)
class Reading:
    """A reading of the user's turn: its mandates (what it asks for) and its unread spans."""

    mandates: tuple[Mandate, ...]
    unread: tuple[Unread, ...]

    @property
    def complete(self) -> bool:
        """Does the reading account for every clause of the turn?"""
        return not self.unread

    def shown(self) -> dict[str, Any]:
        """The reading as a question to a human shows it: what was read, what was not."""
        return {"read": [said(m) for m in self.mandates], "unread": [u.text for u in self.unread]}


def _no_role(sentence_clauses: Sequence[Clause]) -> bool:
    words = [w for c in sentence_clauses for w in c.words]
    return bool(words) and all(w.strip("!.,") in NO_ROLE_WORDS for w in words)


#: How a question for information opens ("What is after the Review?", "How much do I owe Acme?").
_WH = frozenset({"what", "what's", "whats", "when", "where", "who", "whom", "whose", "which", "why", "how"})


def _asked(request: str, sentence: str) -> bool:
    """Does the sentence end in a question mark in the turn (the reader keeps the sentence without it)?"""
    at = request.find(sentence)
    return at >= 0 and request[at + len(sentence) :].lstrip()[:1] == "?"


def _information(request: str, sentence: str, members: Sequence[Clause], verbs: set[str]) -> bool:
    """Is the sentence a question for information: it ends in ``?``, opens with a question word and
    holds no verb of an action the policy declares ("What is after the Review?"; not "What if you
    paid it?")? Such a question asks for something to be read, and bears on no side effect."""
    words = [w for c in members for w in c.words]
    return (
        _asked(request, sentence)
        and bool(words)
        and words[0] in _WH
        and not any(w in verbs - READING_VERBS for w in words)
    )


def _why(request: str, clause: Clause) -> str:
    if _asked(request, clause.sentence):
        return "a question the reader does not read as a request"
    return "no role the reader knows"


#: Verbs of reading and telling, which ask for no side effect: a mandate of one is read whatever
#: the policy declares ("Look up order ORD-1", "Summarise invoice INV-7", "Let me know ...").
READING_VERBS = frozenset(
    """
    read look check find get show list search see open view review summarise summarize summary
    tell let explain describe compare fetch pull lookup browse display print watch
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def reading_of(request: str, known: Iterable[str] = (), reader: RequestReader | None = None) -> Reading:
    """The reading of ``request`` (the user's turn): the reader's mandates of a verb it knows (one
    of ``known``: the policy's declared verbs, inflected or not, or :data:`READING_VERBS`), and
    every clause that no such mandate consumes, that is not a sentence of greetings or thanks and
    not a prohibition, as :class:`Unread` (a mandate of a verb nobody declared, "Payez la facture",
    "Scrap that", is unread too)."""
    verbs = {f for verb in known for f in verb_forms(verb)} | READING_VERBS
    every = tuple(mandates(request, reader))
    found = tuple(m for m in every if m.verb in verbs)
    strange = {m.text for m in every if m.verb not in verbs}
    clauses = clauses_of(request)
    by_sentence: dict[str, list[Clause]] = {}
    for clause in clauses:
        by_sentence.setdefault(clause.sentence, []).append(clause)
    consumed = {text for m in found for text in m.coordinated}
    unread: list[Unread] = []
    for sentence, members in by_sentence.items():
        asking = [c for c in members if c.head is not None and c.text not in strange]
        if not asking and (_no_role(members) or _information(request, sentence, members, verbs)):
            continue
        for clause in members:
            if (clause.head is not None and clause.text not in strange) or clause.text in consumed:
                continue
            if not clause.words:
                continue
            if asking and ":" in sentence and sentence.index(":") < sentence.find(clause.text):
                continue  # the content of a message the sentence's mandate sends
            if _prohibition(clause.words):
                continue
            unread.append(Unread(clause.text, sentence, _why(request, clause), whole_sentence=not asking))
    return Reading(found, tuple(unread))


#: What may open a clause before its prohibition ("Please don't ...", "And never ...").
_OPENERS = frozenset({"please", "just", "and", "then", "also", "but", "so", "oh", "ok", "okay"})
#: Openings that say not to: "don't", "do not", "never", "avoid", "instead of", "rather than",
#: "stop", "refrain from", "no need to", "without".
_PROHIBITING_OPENINGS = (
    ("don't",), ("dont",), ("do", "not"), ("never",), ("avoid",), ("instead",), ("rather",), ("stop",),
    ("refrain",), ("no", "need"), ("without",), ("please", "don't"), ("please", "do", "not"),
)  # fmt: skip


def _opening(words: Sequence[str]) -> int | None:
    """Where a clause's words go on after a prohibiting opening, or None: it opens otherwise."""
    at = 0
    while at < len(words) and words[at] in _OPENERS:
        at += 1
    for opening in _PROHIBITING_OPENINGS:
        if tuple(words[at : at + len(opening)]) == opening:
            return at + len(opening)
    return None


def _prohibition(words: Sequence[str]) -> bool:
    return _opening(words) is not None


def prohibited(request: str, verbs: Iterable[str]) -> bool:
    """Does the turn say not to do what one of ``verbs`` names: a clause that opens with a
    prohibition and names the verb, inflected or not, within its next three words ("Don't pay it",
    "Avoid cancelling the Review", "Instead of cancelling it, move it")?"""
    wanted = [verb_forms(verb) for verb in verbs]
    for clause in clauses_of(request):
        after = _opening(clause.words)
        if after is not None and any(w in f for w in clause.words[after : after + 3] for f in wanted):
            return True
    return False


def bears_on(span: Unread, verbs: Iterable[str], values: Iterable[Any]) -> bool:
    """Could an unread span bear on a call: it is a whole sentence with no role (a trailing "Scrap
    that."), or it holds a word of the call's kind (one of ``verbs``, inflected or not: "Would you
    mind paying it?"), or one of the call's ``values`` as a whole token ("mais pas la facture
    Acme" for a payment to Acme)?"""
    if span.whole_sentence:
        return True
    words = words_of(span.text)
    if any(w in verb_forms(verb) for verb in verbs for w in words):
        return True
    tokens = set(words)
    for value in values:
        if isinstance(value, bool) or value is None:
            continue
        text = str(value).strip()
        if text and all(t in tokens for t in words_of(text)):
            return True
    return False
