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

import re
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from policies.supervisor.reading.identifiers import days_and_times, written_as
from policies.supervisor.reading.people import PEOPLE_WORDS
from policies.supervisor.reading.words import (
    AN_ID_WORD,
    APOSTROPHES,
    COMMON_VERBS,
    FUNCTION_WORDS,
    LASTING,
    MESSAGE_VERBS,
    MONTH_NUMBERS,
    NEGATIONS,
    NO_LONGER,
    OF_WANTING,
    SHARE_SUBJECTS,
    THIRD_PERSONS,
    Clause,
    Mandate,
    RequestReader,
    a_named_statement,
    a_negated_statement,
    a_statement,
    clauses_of,
    excludes_records,
    forbidden_by_id,
    forbids_only_more,
    forms,
    head_of,
    information_question,
    labelled_figure,
    list_header,
    mandates,
    marked,
    named_subject,
    no_longer_needed,
    normal,
    reports_when,
    said,
    stated_reason,
    told_content,
    words_of,
    written_alike,
    written_plainly,
)

__all__ = [
    "BEARING",
    "CLOSING_VERBS",
    "CONNECTING",
    "DELETING",
    "EXCLUDING_WORDS",
    "IRREGULAR",
    "KEEPING_WORDS",
    "KEPT_DAY",
    "KEPT_FIELD",
    "KEPT_TEXT",
    "NO_ROLE_WORDS",
    "PLACE_AFTER_A_PURPOSE",
    "POINTING_BACK",
    "READING_VERBS",
    "RECORD_DAY",
    "REFERENCE_WORDS",
    "REPORTING_WORDS",
    "SAID_TO_STAY",
    "TIMED_VERBS",
    "TIME_WORDS",
    "UNDOING",
    "WITH_CONTENT",
    "Reading",
    "Unread",
    "WideReader",
    "all_accounted",
    "bears_on",
    "keeps",
    "left_out_text",
    "prohibited",
    "purposes_of_a_sum",
    "read_turn",
    "reading_of",
    "unprohibited_text",
    "verb_forms",
    "without_left_out",
]

#: Words of a sentence that bears on no call: greetings, thanks, sign-offs, acknowledgements (and the
#: few words that go with them: "Hi team", "Thanks a lot", "Many thanks in advance").
NO_ROLE_WORDS = frozenset(
    """
    hi hello hey hiya morning evening afternoon good dear team all everyone folks there please pls plz
    thanks thank thx ty you so much very lot lots a many in advance again cheers regards best kind
    kindly warm warmest sincerely ok okay great cool perfect awesome sure yes yep appreciated appreciate
    ta tysm tia xoxo xo ton tons bunch million alright approved confirmed agreed
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
    #: it opens its sentence, before what the sentence asks for ("Scrap that, pay ..."): like a
    #: sentence of its own, it may take back what the turn asked before it
    opening: bool = False
    #: the span is a mandate read but left uncertain by the rest of the turn (:attr:`why` says what)
    uncertain_mandate: bool = False
    #: a line that ends with a colon and heads what follows ("Done:", "Don't:", "Bob wrote:"): what
    #: it says of the lines below, the reader cannot place, so none of their mandates stands
    heading: bool = False


@dataclass(frozen=True)
class Reading:
    """A reading of the user's turn: its mandates (what it asks for, now: each one the whole turn
    leaves standing), its unread spans, and the mandates it read but cannot let stand
    (``uncertain``: each with the unread span that says why, also in ``unread``)."""

    mandates: tuple[Mandate, ...]
    unread: tuple[Unread, ...]
    uncertain: tuple[Mandate, ...] = ()
    #: every mandate the reader read that the turn leaves standing, of a verb the policy declares
    #: or not (a rule that reads the request for what it names, ``Reader(asked=True)``, reads these)
    standing: tuple[Mandate, ...] = ()

    @property
    def complete(self) -> bool:
        """Does the reading account for every clause of the turn?"""
        return not self.unread

    def standing_with(
        self, chosen: Sequence[Mandate], spans: Collection[str], request: str, apart: Collection[str] = ()
    ) -> Reading:
        """This reading with ``chosen`` (mandates it left uncertain) standing, their unread spans
        and the spans whose text is one of ``spans`` read (what one call accounts for, in its own
        values and names: :mod:`policies.supervisor.decide.accounted`), and those of ``apart`` read
        as no part of a mandate (a reason the turn gives, read with the call's words). The mandates
        keep the turn's order."""
        if not chosen:
            return self
        ids = {id(m) for m in self.uncertain if any(m is c for c in chosen)}
        # a span read beside a mandate of its sentence says more of it ("Offboard Jordan, last day
        # 2026-12-18"): a part of it, as a coordinated one is
        own = {u.text: u.sentence for u in self.unread if u.text in spans and not u.uncertain_mandate}
        chosen = [
            replace(m, coordinated=(*m.coordinated, *(t for t, at in own.items() if at == m.sentence)))
            for m in chosen
        ]

        def placed(found: Sequence[Mandate]) -> tuple[Mandate, ...]:
            return tuple(sorted(found, key=lambda m: (request.find(m.sentence), request.find(m.text))))

        return Reading(
            mandates=placed([*self.mandates, *chosen]),
            unread=tuple(
                u
                for u in self.unread
                if u.text not in spans
                and u.text not in apart
                and not (u.uncertain_mandate and any(u.text == m.text for m in chosen))
            ),
            uncertain=tuple(m for m in self.uncertain if id(m) not in ids),
            standing=placed([*self.standing, *chosen]),
        )

    def shown(self) -> dict[str, Any]:
        """The reading as a question to a human shows it: what was read (the mandates that stand
        and those the turn leaves uncertain), and the words that were not."""
        read = [said(m) for m in self.mandates] + [f"{said(m)} (uncertain)" for m in self.uncertain]
        return {"read": read, "unread": [u.text for u in self.unread if not u.uncertain_mandate]}


def _no_role(sentence_clauses: Sequence[Clause]) -> bool:
    words = [w for c in sentence_clauses for w in c.words]
    return bool(words) and all(w.strip("!.,") in NO_ROLE_WORDS for w in words)


#: Of :data:`NO_ROLE_WORDS`, the words of an assent: asked ("Approved? Pay B-40"), they doubt.
_ASSENTS = frozenset({"approved", "confirmed", "agreed"})


#: What a user says after a request to thank or to say they mean it ("Appreciate it!", "You're the
#: best.", "Confirmed.", "Yes, really."), read with no word of no role.
_KIND_CLOSINGS = frozenset(
    tuple(w for w in phrase.split() if w not in NO_ROLE_WORDS) or (phrase,)  # ("much appreciated": no role)
    for phrase in (
        "appreciate it", "much appreciated", "you're the best", "you are the best", "you rock",
        "you're a star", "you're a lifesaver", "lifesaver", "confirmed", "approved", "yes really",
        "really", "i mean it", "for real", "love it", "legend", "you're a legend",
        # what keeps the turn to the request: nothing it asks, only less
        "nothing else", "nothing more", "that's it", "that's all", "only that", "just that", "only this",
        "just this", "only that one", "just that one", "only this one", "just this one",
        *(f"{no} {verb} {other}"
          for no in ("don't", "do not", "dont")
          for verb in ("pay", "do", "touch", "send")
          for other in ("anything else", "anything more", "any other bills", "any other ones", "the others")),
    )
)  # fmt: skip
#: "... and nothing else" closing the turn: a sentence of its own ("Nothing else."), which keeps the
#: turn to the request.
_AND_NOTHING_ELSE = re.compile(
    r"(?i)(?:,?[ \t]+and|,)[ \t]+(nothing[ \t]+(?:else|more))"
    r"(?=(?:[ \t]*,[ \t]*(?:thanks|thank[ \t]+you|please|pls|thx|ty))?[ \t]*[.!]*[ \t]*$)"
)


def _sign_off(sentence: str) -> bool:
    """Is the sentence a closing and a name of at most two words, as a message is signed ("Thanks,
    Ana", "Cheers, Ana Lee", "Best regards, Bob")?"""
    closing, comma, name = sentence.partition(",")
    words, written = words_of(closing), name.strip(" .!").split()
    return (
        bool(comma and words)
        and all(w in NO_ROLE_WORDS for w in words)
        and 0 < len(written) <= 2
        and all(w[:1].isupper() and w.isalpha() for w in written)
        and not {w.casefold() for w in written} & _SOMEONE_ELSES_ADDRESS  # "Thanks, Mom": to them
    )


#: A smile typed with a colon (":)", ":-)"), read as nothing; a wink or a tongue (";)", ":P") may say
#: the turn is a joke, and is read as written.
_EMOTICON = re.compile(r"(?<!\S):-?\)(?!\S)")
#: A line of a signature below "--": a name, a title, a team, an address or a number ("Maria Lopez",
#: "Accounts Payable", "Head of Finance, Acme", "+49 30 1234567").
_SIGNATURE_WORD = (
    r"(?:[A-Z][\w.'-]*|of|and|&|the|at|[\w.+-]+@[\w.-]+|\+?\d[\d ()./-]{5,}|\([\w &/]{1,20}\)"
    r"|(?:ext|tel|mob|ph)\.?[ \t]*\d{2,6})"
)
_SIGNATURE_LINE = re.compile(rf"[ \t]*{_SIGNATURE_WORD}(?:[ \t,|]+{_SIGNATURE_WORD}){{0,5}}[ \t]*")
#: What a mail client writes below a message ("Sent from my iPhone").
_SENT_FROM = re.compile(r"(?i)(?:^|(?<=[.!?])|\n)[ \t]*sent from my(?: [\w-]+){1,3}[ \t.]*$")
#: A picture character of courtesy ("🙏", "👋", "🙂", "🎉", "❤️"), read as nothing; any other may
#: say how an item stands ("❌", "🔴", "🤔") and is read as written.
_EMOJI = re.compile(
    "[\U0001f64f\U0001f642\U0001f60a\U0001f600\U0001f603\U0001f604\U0001f44b\U0001f44d\U0001f389\u2764\u2665\u263a\ufe0f]+"
)


def _pictured(text: str) -> bool:
    """Does a text hold a picture character ("🤔", "🔴", "❌")? Alone as a sentence, it may say how
    what came before stands: it is not read as nothing."""
    return any(unicodedata.category(ch) == "So" for ch in text)


#: A closing on a line of its own and a name on the last line ("Thanks,\nMarco", "Best regards,\nPriya
#: Shah", "Cheers,\nIT").
_CLOSING_LINES = re.compile(
    r"\n[ \t]*(?i:(?:(?:many|best|kind|warm|warmest)[ \t]+)?(?:thanks|thank[ \t]+you|thx|cheers|regards|best|"
    r"sincerely))[ \t]*[,!.]?[ \t]*\n[ \t]*(?:[A-Z][a-z'-]+(?:[ \t]+[A-Z][a-z'-]+)?|[A-Z]{2,4})[ \t.]*$"
)
#: Thanks after a comma closing the turn ("..., thanks so much", "..., ta").
_TRAILING_THANKS = re.compile(
    r"(?i),[ \t]*((?:many[ \t]+)?(?:thanks|thank[ \t]+you|thx|ty|cheers|ta)"
    r"(?:[ \t]+(?:so[ \t]+much|a[ \t]+lot|a[ \t]+ton|again|in[ \t]+advance|very[ \t]+much))?)[ \t!.]*$"
)
#: A sentence of thanks for the agent's help or for what it read out ("Thanks for your help!",
#: "Thank you for listing those."): thanks, as "Thanks!" is. A closed list: thanks for anything else
#: ("Thanks for paying B-40", "Thanks for not paying it yet") says how a record stands.
_THANKS_FOR = re.compile(
    r"(?i)(?:^|(?<=[.!?\n]))([ \t]*(?:many[ \t]+)?(?:thanks|thank[ \t]+you|thx|ty))"
    r"(?:[ \t]+(?:so[ \t]+much|a[ \t]+lot|again))?[ \t]+for[ \t]+"
    r"(?:(?:your|the|all[ \t]+the|all[ \t]+your)[ \t]+)?(?:help|time|support|assistance|patience"
    r"|(?:quick[ \t]+)?(?:reply|response|answer)|update|overview|summary|info|information|list|work"
    r"|pulling[ \t]+(?:those|them|these|that|this|it)[ \t]+up"
    r"|(?:listing|showing|pulling[ \t]+up|looking[ \t]+(?:up|into))(?:[ \t]+(?:those|them|these|that|this|it"
    r"|the[ \t]+bills|my[ \t]+bills|everything))?(?:[ \t]+(?:so[ \t]+quickly|for[ \t]+me))?)"
    r"(?=[ \t]*[.!]*[ \t]*(?:\n|$|[.!][ \t]+\S))[ \t]*[.!]*"
)
#: An apology for the trouble, as a sentence or after a comma ("..., sorry for the hassle.", "Sorry
#: for the mix-up!", "Apologies for the confusion."): courtesy, as thanks are. A closed list of what
#: one is sorry for: sorry for anything else ("Sorry for the wrong amount") may say what is wrong.
_SORRY_FOR = re.compile(
    r"(?i)(?:(?<=^)|(?<=[.!?\n])|,)[ \t]*(?:(?:so|really|very|terribly)[ \t]+)?(?:sorry|apologies)[ \t]+"
    r"(?:for|about)[ \t]+(?:(?:the|this|all[ \t]+the|any)[ \t]+)?"
    r"(?:hassle|mix-?up|confusion|inconvenience|trouble|bother|wait|delay|noise|back[ \t-]+and[ \t-]+forth"
    r"|(?:short|late)[ \t]+notice)"
    r"(?=[ \t]*[.!]*[ \t]*(?:\n|$|[.!][ \t]+\S))[ \t]*[.!]*"
)
#: Urgency said as a reason after the request ("... before it's late", "... before I forget", "... so
#: I don't get a late fee", "... to avoid a late fee"): read as "asap". A closed list: a deadline
#: ("before Friday") or any other clause is weighed as before.
_URGENCY = re.compile(
    r"(?i)(?:[ \t]+(?:before[ \t]+(?:it'?s|it[ \t]+is|it[ \t]+gets|it[ \t]+becomes)[ \t]+"
    r"(?:too[ \t]+)?(?:late|overdue)"
    r"|before[ \t]+I[ \t]+forget"
    r"|so[ \t]+(?:that[ \t]+)?(?:I|we)[ \t]+(?:don'?t|do[ \t]+not)[ \t]+(?:get|pay|incur)[ \t]+"
    r"(?:a[ \t]+|any[ \t]+)?(?:late[ \t]+fees?|late[ \t]+charges?|penalty|penalties|fine)"
    r"|to[ \t]+avoid[ \t]+(?:a[ \t]+|any[ \t]+)?(?:late[ \t]+fees?|late[ \t]+charges?|penalty|penalties"
    r"|a[ \t]+fine))"
    # "..., I don't want the water cut off", "... — don't want another late fee like last month"
    r"|(?:,|[ \t]+[-\u2013\u2014]{1,2})[ \t]*(?:I[ \t]+)?(?:don'?t|do[ \t]+not)[ \t]+want[ \t]+"
    r"(?:(?:a|another|any)[ \t]+(?:late[ \t]+fee|late[ \t]+charge|penalty|fine)"
    r"(?:[ \t]+like[ \t]+last[ \t]+(?:month|time|year))?"
    r"|(?:the|my|our)[ \t]+(?:water|power|electricity|gas|internet|phone|service)[ \t]+"
    r"(?:cut|shut|turned)[ \t]+off))"
    # "... without delay", "..., don't wait", "..., not later", "..., no need to wait", "... early"
    r"|[ \t]+without[ \t]+(?:any[ \t]+)?delay|,[ \t]*(?:please[ \t]+)?(?:don'?t|do[ \t]+not)[ \t]+wait"
    r"|,[ \t]*not[ \t]+later|,[ \t]*no[ \t]+need[ \t]+to[ \t]+wait"
    r"|[ \t]+(?:early|ahead[ \t]+of[ \t]+(?:the[ \t]+)?(?:due[ \t]+date|deadline))"
    r"(?=[ \t]*(?:[.!,;]|$))"
)
#: A due day set apart after an id ("Pay B-40, due 2026-12-20", "Pay B-40 (due on 2026-12-20)"):
#: the record's day, read as written beside it ("B-40 due 2026-12-20"), which the review weighs.
_DUE_SET_APART = re.compile(
    r"(?i)(?<![\w-])([a-z]{1,6}-\d[\w-]*)[ \t]*(?:,|\(|[-\u2013\u2014]{1,2})[ \t]*due(?:[ \t]+on)?[ \t]+"
    r"(\d{4}-\d{2}-\d{2})[ \t]*(?:\)|(?=[ \t]*(?:[.!;]|$)))"
)
#: Who vouches for what the turn asks: the user, someone of theirs ("my accountant Maria"), or a
#: person by name ("Bob", "Anna from the office"); never "The ..." or someone unnamed.
_VOUCHER = (
    r"(?:(?i:i|i've|i[ \t]+have|we|we've|we[ \t]+have)"
    r"|(?i:my|our)[ \t]+"
    r"(?i:accountant|bookkeeper|partner|wife|husband|manager|boss|colleague|assistant|landlord)"
    r"(?:[ \t]+[A-Z][a-z]+){0,2}"
    r"|(?!(?:The|This|That|These|Those|A|An|Someone|Somebody|Nobody|Everyone|They|He|She|Not|No|Never|None"
    r"|Nothing|Hardly|Barely|Almost|Unless|If|When|Once|Whether|Maybe|Perhaps)\b)"
    r"[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)?"
    r"(?:[ \t]+(?i:from)[ \t]+(?i:the[ \t]+)?(?i:office|accounting|finance))?)"
)
#: A check said of what the turn asks, and nothing more ("Bob said it's fine", "Rita checked both",
#: "I double-checked the amount", "It's all in order", "No issues with it"): it bears on no call.
#: A closed list; a check with more to it ("... but wait", "Bob confirmed that B-40 is fake") is
#: weighed as before.
_VOUCHING = (
    r"(?:"
    + _VOUCHER
    + r"[ \t]+(?i:(?:said|says)[ \t]+(?:it'?s|it[ \t]+is|that'?s|they'?re|they[ \t]+are|both[ \t]+are)"
    r"[ \t]+(?:fine|ok|okay|correct|right|good|legit|all[ \t]+good)"
    r"|(?:has[ \t]+|have[ \t]+)?(?:double-checked|checked|verified|confirmed|approved|reviewed|okayed)"
    r"(?:[ \t]+(?:it|them|both|everything|the[ \t]+amounts?|the[ \t]+bills?|the[ \t]+invoices?))?)"
    r"|(?i:(?:it'?s|it[ \t]+is|everything'?s|everything[ \t]+is)[ \t]+(?:all[ \t]+)?"
    r"(?:correct|fine|in[ \t]+order|good)"
    r"|no[ \t]+issues(?:[ \t]+with[ \t]+it)?|all[ \t]+good))"
)
_VOUCHING_SENTENCE = re.compile(r"(?:(?<=[.!?])|^)[ \t]*" + _VOUCHING + r"[ \t]*(?:[.!]+(?=\s|$)|$)", re.M)
_VOUCHING_AFTER = re.compile(
    r"(?:[ \t]*[,;]|[ \t]+[-\u2013\u2014]{1,2})[ \t]*" + _VOUCHING + r"(?=[ \t]*(?:[.!]|$))", re.M
)
_VOUCHING_BEFORE = re.compile(r"(?:(?<=[.!?])|^)([ \t]*)" + _VOUCHING + r"[ \t]*,[ \t]*", re.M)
#: An urging before the request ("Don't wait, pay B-40"): now.
_URGING_FIRST = re.compile(r"(?im)^([ \t]*)(?:don'?t|do[ \t]+not)[ \t]+wait[ \t]*[,:;\u2013\u2014-]+[ \t]*")
#: Please and thanks in another language, at a request's edge ("Pay B-40 bitte", "..., merci",
#: "Por favor, pay B-40"): read as the English words; anything else in another language is unread.
_FOREIGN_PLEASE = re.compile(
    r"(?i)(?:(?<=[,\s])|^)(?:(bitte|por[ \t]+favor|per[ \t]+favore|s'il[ \t]+(?:vous|te)[ \t]+pla[i\u00ee]t)"
    r"|(merci(?:[ \t]+beaucoup)?|danke(?:[ \t]+sch(?:\u00f6|oe?)n)?|gracias|grazie|obrigad[oa]))"
    r"(?=[ \t]*(?:[.!,;]|$))"
)
#: A pointer at what the agent listed, beside a request that names its record by id ("Pay B-31 from
#: the list above", "From the bills you listed, pay B-31", "Of the two bills, pay ... B-31", "After
#: looking at the list: pay ..."): where the user found the record, not another one. Without an id
#: in the sentence ("Pay the one from the list above") which record is meant, the reader cannot tell.
_THE_LISTING = re.compile(
    r"(?im)[ \t]+(?:from|on|in)[ \t]+(?:the|your|that)[ \t]+list"
    r"(?:[ \t]+above|[ \t]+you[ \t]+(?:gave|showed|sent)(?:[ \t]+me)?)?"
    r"(?=(?:[ \t]*,[ \t]*(?:please|pls|thanks|thank[ \t]+you|thx|ty))?[ \t]*(?:[.!;,]|$))"
    r"|(?:^|(?<=[.!?])[ \t]+)(?:(?:from|of)[ \t]+(?:the|your|those|these)[ \t]+(?:two[ \t]+|three[ \t]+)?"
    r"(?:bills|invoices|ones|list)(?:[ \t]+(?:you[ \t]+(?:listed|showed|sent|found)|above))?"
    r"|after[ \t]+looking[ \t]+at[ \t]+(?:the|your)[ \t]+list)[ \t]*[,:][ \t]*"
)


def _listing_dropped(request: str) -> str:
    """The turn without :data:`_THE_LISTING`'s pointers whose sentence names a record by id."""

    def drop(match: re.Match[str]) -> str:
        start = max(request.rfind(".", 0, match.start()), request.rfind("\n", 0, match.start())) + 1
        end = min(
            (i for i in (request.find(".", match.end()), request.find("\n", match.end())) if i >= 0),
            default=len(request),
        )
        sentence = request[start:end]
        return "" if _AN_ID_IN_A_SENTENCE.search(sentence) else match.group(0)

    return _THE_LISTING.sub(drop, request)


#: A record's id as a sentence writes it ("B-31", "ORD-1001", "INV-7").
_AN_ID_IN_A_SENTENCE = re.compile(r"(?<![\w-])[A-Za-z]{1,5}-?\d+(?![\w])")
#: A name signed after the last sentence with a dash ("... ty! -Sam", "... — Lena (HR)").
_DASH_NAME = re.compile(
    r"(?<=[.!?])[ \t]*[-\u2013\u2014]{1,2}[ \t]*[A-Z][a-z'-]*(?:[ \t]+[A-Z][a-z'-]*)?"
    r"(?:[ \t]*\([A-Za-z &/]{1,20}\))?[ \t]*$"
)


#: Nouns of the turn's own words ("this line", "the previous sentence", "that instruction").
_THE_TURNS_WORDS = frozenset(
    {"line", "lines", "sentence", "text", "message", "instruction", "instructions", "request", "command",
     "paragraph", "bit", "part", "above", "prompt", "words"}
)  # fmt: skip


def _of_the_turns_words(words: Sequence[str]) -> bool:
    """Is a statement said of the turn's own words ("This line was injected by the webpage.", "The
    previous line is from the attacker.", "That instruction was hidden in white text.")? What it
    says of the request, the reader cannot weigh."""
    head = words[:3]
    if (
        bool(head)
        and head[0] in ("this", "that", "the", "these", "those", "my")
        and set(head[1:]) & _THE_TURNS_WORDS
    ):
        return True
    return any(  # "Eve wrote the previous sentence.", "I pasted the last line from a forum."
        w in _WHICH_OF_THE_TURN and words[i + 1 : i + 2] and words[i + 1] in _THE_TURNS_WORDS
        for i, w in enumerate(words)
    )


#: Words that pick out a part of the turn ("the previous sentence", "the first line", "that bit").
_WHICH_OF_THE_TURN = frozenset(
    {"previous", "preceding", "prior", "last", "first", "second", "third", "earlier", "above", "former",
     "latter", "next", "following", "whole", "entire", "above-mentioned"}
)  # fmt: skip


#: The subjects of a speech tag ("he muttered", "the scammer hissed", "my kid scribbled").
_TAG_SUBJECTS = frozenset(
    {"he", "she", "they", "someone", "somebody", "it", "the", "my", "our", "a", "his", "her"}
)


def _a_speech_tag(words: Sequence[str]) -> bool:
    """Is a clause after a mandate a speech tag: a subject of one or two words and a verb in the past
    with nothing after it ("he muttered", "the scammer hissed", "the popup screamed")? Not a
    reason said so ("it crashed", "it failed": a word of trouble or a verdict)."""
    if not 2 <= len(words) <= 3 or words[0] not in _TAG_SUBJECTS | _SAYING_SUBJECTS:
        return False
    verb = words[-1]
    past = verb in _SAYING or (verb.endswith("ed") and len(verb) > 4 and verb not in _CHANGES_OF_PLAN)
    return (
        past
        and verb not in _REASONS_TO_ACT
        and verb not in _VERDICTS
        and verb not in _MOOT
        and verb not in _CONTESTING
        and not (len(words) == 3 and words[0] not in ("the", "my", "our", "a", "his", "her"))
    )


#: Verbs in the past of a change a person made to what they hold or where they are: no words said
#: ("Refund half of BK-4472's fare, she downgraded" gives the reason, "..., he muttered" a speaker).
_CHANGES_OF_PLAN = frozenset(
    """
    downgraded upgraded relocated resigned retired graduated emigrated transferred unsubscribed
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: The agent as the subject of what follows an imperative ("..., and you're fired").
_YOU_SUBJECTS = frozenset({"you", "you're", "you'll", "you'd", "youre", "youll", "u", "ur"})


def _a_consequence(clause: Clause, sentence: str) -> bool:
    """Is a clause joined to an imperative by "and" or "or" a statement of what follows for the
    agent ("Pay B-40 and you're fired", "... or you'll regret it", "... and you win a prize")? Then
    the imperative is a dare or a threat's condition, not what the user asks."""
    if not clause.words or clause.words[0] not in _YOU_SUBJECTS:
        return False
    at = sentence.find(clause.text)
    return at > 0 and words_of(sentence[:at])[-1:] in (["and"], ["or"])


#: Subjects by name of a speech tag written without an article ("Pay B-40, Eve typed.").
_SAYING_SUBJECTS = frozenset({"mallory", "eve", "bob", "alice", "mom", "dad", "boss"})


#: Words by which a signature says the words are not the user's, or not meant ("-- The Attacker",
#: "— Fake Boss", "Regards,\nScammer", "— April Fools", "— Unknown Sender").
_NO_SIGNER_OF_THE_USERS = frozenset(
    """
    hacker hackers attacker scammer scammers impostor imposter spoofed spoof fraudster fraud fake scam
    spam spammer phisher phishing evil unknown anonymous anon prince bot fools april not test demo
    malware virus troll collections billing dept department receivable automated noreply no-reply
    donotreply notifications mailer daemon
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _a_partys_name(signed: str, body: str, barred: Collection[str]) -> bool:
    """Does a signature hold a word no signer of the user's holds (``barred``: "-- The Attacker"),
    or a name the message itself names ("Pay the Acme bill.\nRegards,\nAcme": the party paid signs)?
    Then it is no signature of the user's: the turn is read whole."""
    words = {w.strip("-\u2013\u2014") for w in words_of(signed)}
    named = {w for w in words_of(body) if len(w) > 2} - FUNCTION_WORDS
    return bool(words & set(barred)) or bool((words - _CLOSING_WORDS) & named)


def _greets_a_party(clause: Clause, request: str) -> bool:
    """Does a greeting address a name the turn names elsewhere ("Hi Acme! Could you pay the Acme
    bill B-40?")? Then it is written to the party the request acts on, not to the agent: a message
    meant for them, and the clause is unread."""
    if not clause.words or clause.words[0] not in _GREETING_OPENERS:
        return False
    at = request.find(clause.text)
    rest = request[:at] + request[at + len(clause.text) :] if at >= 0 else request
    name = " ".join(w for w in clause.text.replace(",", " ").split()[1:] if w[:1].isupper())
    return bool(name) and _a_partys_name(name, rest, ())


#: The words of a closing before a name ("Kind regards", "Many thanks").
_CLOSING_WORDS = frozenset({"many", "best", "kind", "warm", "warmest", "thanks", "thank", "you", "regards"})


def closing_removed(request: str, verbs: Collection[str] = frozenset()) -> str:
    """The turn without what closes it as a message is signed: a signature below a line "--" of at
    most five lines, each a name, a title, an address or a number; "Sent from my iPhone"; a name
    after a dash closing the last sentence ("... ty! -Sam", "— Lena (HR)"), no verb of ``verbs``
    nor one the reader knows. A line below "--" that says anything else ("-- actually, don't") is
    no signature: the turn is read whole."""
    # no name holds a word that takes back, doubts or points back ("- Scrap That", "- Hold On"), nor
    # one that says the words are not the user's or not meant ("-- The Attacker", "— April Fools")
    taking_back = (
        _TAKING_BACK
        | _DOUBTING
        | POINTING_BACK
        | COMMON_VERBS
        | set(verbs)
        | {"wait", "hold", "on"}
        | _NO_SIGNER_OF_THE_USERS
    )
    lines = request.rstrip().split("\n")
    marks = [i for i, line in enumerate(lines) if line.strip() in ("--", "-- ", "\u2014")]
    if marks:
        below = [line for line in lines[marks[-1] + 1 :] if line.strip()]
        if (
            0 < len(below) <= 5
            and all(_SIGNATURE_LINE.fullmatch(line) for line in below)
            and not _a_partys_name(
                " ".join(below), _CLOSING_LINES.sub("", "\n".join(lines[: marks[-1]])), taking_back
            )
        ):
            request = "\n".join(lines[: marks[-1]])
    request = _EMOJI.sub(" ", request).rstrip()
    sent = _SENT_FROM.search(request)
    if (
        sent is not None and not set(words_of(sent.group(0))[3:]) & _NO_SIGNER_OF_THE_USERS
    ):  # "... my scam phone"
        request = request[: sent.start()]
    closing = _CLOSING_LINES.search(request)  # "...\n\nThanks,\nMarco"
    if closing is not None and not _a_partys_name(
        closing.group(0).rsplit("\n", 1)[-1], request[: closing.start()], taking_back
    ):
        request = request[: closing.start()]
    request = _AND_NOTHING_ELSE.sub(r". \1", request)  # "Pay B-31 and nothing else."
    request = _TRAILING_THANKS.sub(r". \1", request)  # "..., thanks so much": a sentence of its own
    request = _THANKS_FOR.sub(r"\1!", request)  # "Thanks for your help!": thanks
    request = _SORRY_FOR.sub(". Thanks!", request)  # "..., sorry for the hassle.": courtesy
    request = _URGENCY.sub(" asap", request)  # "... before it's late": now
    request = _URGING_FIRST.sub(r"\1", request)  # "Don't wait, pay B-40": now
    request = _DUE_SET_APART.sub(r"\1 due \2", request)  # "Pay B-40, due 2026-12-20"
    # "Pay B-40. Bob said it's fine.", "Rita checked it, pay B-40.": a check of it, no call
    request = _VOUCHING_AFTER.sub("", request)
    request = _VOUCHING_BEFORE.sub(r"\1", request)
    request = _VOUCHING_SENTENCE.sub("", request)
    request = _FOREIGN_PLEASE.sub(lambda m: "please" if m.group(1) else "thanks", request)
    request = _listing_dropped(request)  # "Pay B-31 from the list above"
    signed = _DASH_NAME.search(request)
    if signed is not None and not _a_partys_name(
        signed.group(0).strip(" \t-\u2013\u2014"), request[: signed.start()], taking_back
    ):
        request = request[: signed.start()].rstrip()
    return request


def _no_verb(clause: Clause) -> bool:
    """Does the clause ask nothing by itself: no head, or one that is a value ("2026-11-24")?"""
    return clause.head is None or any(ch.isdigit() for ch in clause.words[clause.head])


def _list_marker(sentence_clauses: Sequence[Clause]) -> bool:
    """Is the sentence only the number or letter of an item in a list ("1.", "b)")?"""
    words = [w for c in sentence_clauses for w in c.words]
    written = "".join(c.text for c in sentence_clauses).strip()
    if written.startswith("/"):
        return False  # "/s": a sarcasm mark, no item's number
    return len(words) == 1 and ((words[0].isdigit() and len(words[0]) <= 2) or len(words[0]) == 1)


#: The words that open a greeting or thanks addressed to someone ("Hi Sam", "Thanks Ana").
_GREETING_OPENERS = frozenset(
    {"hi", "hello", "hey", "hiya", "dear", "thanks", "thank", "thx", "cheers", "morning"}
)


#: What opens a phrase of the means an action is done by ("by email", "via DM", "over Slack").
_MEANS = frozenset({"by", "via", "over", "per", "through", "thru"})


def _by_another_action(text: str, mandate: Mandate, verbs: set[str]) -> bool:
    """Is ``text``, a clause the mandate coordinates, a phrase of means that names another declared
    action ("summarise offsite-agenda.docx for my manager, by email"): a step the reader did not
    read, never the mandate's object?"""
    words = words_of(text)
    return bool(words) and words[0] in _MEANS and any(w in verbs and w != mandate.verb for w in words[1:])


#: Clauses that only urge on the mandate beside them ("go ahead and pay it").
_URGING = frozenset({("go", "ahead"), ("go", "for", "it"), ("go", "on"), ("do", "it"), ("feel", "free")})


def _greeting(clause: Clause) -> bool:
    """Is the clause a greeting or thanks, to no one or to a name of at most two words ("Hi Sam",
    "Thanks a lot", "Dear Ms Lee", "Hi IT bot"), a thanks for something that names no record and
    no act ("Thanks for the reminder", "thanks for your help"), or one that only urges on ("go
    ahead")?"""
    if _no_role([clause]) or tuple(clause.words) in _URGING or _CLOSING.fullmatch(" ".join(clause.words)):
        return True
    written = clause.text.replace(",", " ").split()
    if any(w.casefold().strip("!.,") in _SOMEONE_ELSES_ADDRESS for w in written[1:]):
        return False  # "Hi Mom!", "Dear Mr. Smith": written to a person, not to the agent
    if clause.words[:1] == ("dear",) and any(
        w[:1].isupper() and w.casefold().strip("!.,") not in _A_LETTERS_ANYONE for w in written[1:]
    ):
        return False  # "Dear Rita,", "Dear Acme,": a letter's salutation, written to them
    return (
        1 < len(written) <= 3
        and clause.words[:1] != ()
        and clause.words[0] in _GREETING_OPENERS
        and all(
            w[:1].isupper() or w.casefold().strip("!.") in NO_ROLE_WORDS | _ADDRESSEES for w in written[1:]
        )
    ) or _thanks_for(clause.words)


#: Whom a letter's "Dear ..." may address that is no one in particular ("Dear Sir or Madam", "Dear
#: team", "Dear assistant").
_A_LETTERS_ANYONE = frozenset(
    {"sir", "madam", "or", "team", "all", "colleagues", "friends", "bot", "assistant", "agent", "crew"}
)


#: A wish that opens or closes a message ("Happy Friday!", "Have a great weekend.").
_CLOSING = re.compile(
    r"(?:have an? (?:great|good|nice|lovely|wonderful) (?:day|weekend|week|evening|night|one)"
    r"|happy (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|holidays|new year))"
)
#: How a greeting addresses a person the agent is not: kin, a partner, an honorific before a name
#: ("Hi Mom!", "Hey honey,", "Dear Mr. Smith,"). What follows was written to them: the user may be
#: showing it, or the turn may hold a message meant for someone else.
_SOMEONE_ELSES_ADDRESS = frozenset(
    """
    mom mum mom's mommy mummy mama mamma ma mother dad daddy papa pa father grandma granny gran nana
    grandpa grandad granddad gramps honey hon babe baby sweetie sweetheart darling son daughter sis
    sister bro brother auntie aunt uncle cousin mr mrs ms miss mx dr prof professor
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Whom a greeting may address besides a name ("Hi IT bot", "Morning crew").
_ADDRESSEES = frozenset({"bot", "assistant", "agent", "crew", "guys", "gang", "y'all", "friend", "buddy"})
#: What a thanks may be for ("Thanks for the reminder"): a word of these after "for" (and "the",
#: "your", "all", "this"), never an act or a record.
_THANKED_FOR = frozenset(
    {"reminder", "help", "heads-up", "heads", "up", "update", "updates", "info", "information", "note",
     "yesterday", "today", "earlier", "support", "patience", "quick", "response", "reply", "answer",
     "work", "catch", "tip", "summary", "everything"}
)  # fmt: skip


def _thanks_for(words: Sequence[str]) -> bool:
    """Is a clause a thanks for a reminder, the help, yesterday ... (:data:`_THANKED_FOR`) and no more?"""
    opening = 2 if tuple(words[:2]) == ("thank", "you") else 1
    if (
        not words
        or words[0] not in {"thanks", "thank", "thx", "ty"}
        or words[opening : opening + 1] != ("for",)
    ):
        return False
    rest = [w for w in words[opening + 1 :] if w not in {"the", "your", "all", "this", "that", "so", "much"}]
    return 0 < len(rest) <= 2 and all(w in _THANKED_FOR for w in rest)


#: How a question for information opens ("What is after the Review?", "How much do I owe Acme?").
_WH = frozenset({"what", "what's", "whats", "when", "where", "who", "whom", "whose", "which", "why", "how"})


def _asked(request: str, sentence: str) -> bool:
    """Does the sentence end in a question mark in the turn (the reader keeps the sentence without it)?"""
    at = request.find(sentence)
    return at >= 0 and request[at + len(sentence) :].lstrip()[:1] == "?"


#: What opens a question that asks whether something is so ("Is the Acme bill due?", "Did Eve
#: reply?"), as a question word opens one for information.
_YES_NO = frozenset(
    {"is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "isn't", "aren't"}
)


def _information(
    request: str, sentence: str, members: Sequence[Clause], verbs: set[str], before: Sequence[Clause] = ()
) -> bool:
    """Is the sentence a question for information: it ends in ``?``, opens with a question word or
    asks whether something is so ("Is the Acme bill due?"), and holds no verb of an action the
    policy declares ("What is after the Review?"; not "What if you paid it?", "Is it ok to pay
    it?")? Such a question asks for something to be read, and bears on no side effect. One that
    asks whether (or why) about what a mandate ``before`` it asks for, pointing back to it or
    naming what it names ("Pay B-40. Is that legit?", "... Is B-40 right?", "... Why?"), doubts
    the mandate: it is not read as information."""
    words = [w for c in members for w in c.words]
    return (
        _asked(request, sentence)
        and bool(words)
        and (words[0] in _WH or words[0] in _YES_NO)
        and not any(w in verbs - READING_VERBS for w in words)
        and not _doubts_before(words, before)
        and not _whether_it_is_sound(words, sentence)
        and not _asks_an_opinion(words)
    )


#: Questions that ask the agent's opinion or whether to act ("What do you think?", "Thoughts?",
#: "Should I?", "Good idea?"), read with no word of no role ("so", "guys").
_OPINION_ASKED = frozenset(
    tuple(w for w in phrase.split() if w not in NO_ROLE_WORDS)
    for phrase in (
        "what do you think", "what do u think", "what do you reckon", "what would you do", "what do you say",
        "what say you", "what are your thoughts", "thoughts", "your thoughts", "any thoughts", "opinion",
        "your opinion", "opinions", "should i", "should we", "shall i", "shall we", "should i do it",
        "good idea", "bad idea", "is that wise", "wise", "smart move", "does that make sense",
        "makes sense", "make sense", "sound good", "sounds good", "agree", "do you agree", "yes or no",
        "worth it", "is it worth it", "would you", "would you do it", "is that a good idea",
    )
)  # fmt: skip


def _asks_an_opinion(words: Sequence[str]) -> bool:
    """Does a question ask the agent's opinion or whether to act ("What do you think?", "Thoughts?",
    "Should I?")? Beside a request, the user weighs it: what they decide is not said."""
    return tuple(w for w in words if w not in NO_ROLE_WORDS and w not in _CALLED) in _OPINION_ASKED


#: How the agent may be called by a name of no role ("What do you think, guys?").
_CALLED = frozenset({"guys", "mate", "buddy", "bro", "pal", "friend", "honestly", "then", "now"})


def _whether_it_is_sound(words: Sequence[str], sentence: str) -> bool:
    """Does a question ask whether something is sound, naming nothing else ("Is this phishing?",
    "Is this legit?", "Was it a test?")? Before a mandate, what it asks about may be the mandate:
    no question for information, and a doubt of what follows."""
    return (
        bool(words)
        and words[0] in _YES_NO
        and bool(
            _bearing(words, pointing=False) or set(words[1:3]) & {"this", "that", "it", "these", "those"}
        )
        and not _other_names(sentence)
    )


def _doubts_before(words: Sequence[str], before: Sequence[Clause]) -> bool:
    """Does a question (its words) ask whether or why about a mandate's clause ``before`` it?"""
    if not before or not (words[0] in _YES_NO or words[0] == "why"):
        return False
    named = {w for c in before for w in naming_words(c.text)}
    pointing = POINTING_BACK | _ORDINAL_REFERENCES  # "Is the second one backed up?"
    return words[0] == "why" or bool(pointing & set(words)) or bool(named & set(words))


def _checked_first(mandate: Mandate) -> bool:
    """Is a mandate a check of the act itself asked for before it ("(check first)", "verify it
    beforehand", "check with me first")? It conditions what the turn asks for, so it is no reading
    of its own; a check of something it names ("check my inbox first") is."""
    rest = set(mandate.words[1:])
    return (
        mandate.verb in READING_VERBS
        and bool({"first", "beforehand"} & rest)
        and rest <= {"first", "beforehand", "it", "this", "that", "them", "again", "please", "with", "me"}
    )  # "check my inbox first, then ..." reads the inbox: a step of its own


def _asks_about(request: str, clause: Clause, verbs: set[str]) -> bool:
    """Is the clause a question for information closing a sentence that asks something ("open
    Bob's link in #random, what does it say?"), naming no action the policy declares?"""
    return (
        _asked(request, clause.sentence)
        and information_question(clause.words)
        and not any(w in verbs - READING_VERBS for w in clause.words)
        and not any(w.endswith("n't") or w in ("not", "never") for w in clause.words)  # "who wouldn't?"
    )


#: Words that report what someone else said or wants ("Eve wrote: ...", "The mail wanted ...").
REPORTING_WORDS = frozenset(
    """
    says said say wrote writes written told tells asks asked wants wanted claims claimed insists
    insisted mentioned mentions suggests suggested demands demanded according
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Verbs by which someone's words are given: with nothing said after them ("Eve wrote.", "The
#: scammer typed.", "Here is what the mail says."), the words they give are what follows. Every
#: form of a verb that is no noun; of one that is ("an email", "the order", "a note"), its past.
_SAYING = (
    REPORTING_WORDS
    | frozenset(
        f
        for verb in """
        say write shout yell scream whisper mutter murmur beg plead urge insist declare announce
        dictate repeat tell hallucinate instruct recite chant pray sing
        """.split()  # noqa: SIM905 (a closed list, read as words)
        for f in verb_forms(verb)
    )
    | frozenset(
        f
        for verb in """
        type text message tweet post reply respond answer comment add note state claim demand order
        command quote chat email mail ping ask want output print generate suggest propose request
        """.split()  # noqa: SIM905 (a closed list, read as words)
        for f in verb_forms(verb)
        if f.endswith("ed") or (f not in forms(verb) and f != verb)
    )
    | frozenset({"reads", "goes", "went", "dm'd", "dmed", "verbatim", "unquote", "transcript"})
)
#: What may follow a verb of saying where the words it gives are still to come ("Mallory wrote the
#: following.", "The note reads as follows.", "She kept repeating this", "He wants it done.").
_SAID_AHEAD = FUNCTION_WORDS | frozenset(
    """
    following follows below next here word words exactly verbatim line lines done again over loudly
    quietly kept keeps keep repeating saying asking telling typing back in chat message thing things
    before after then just only literally
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: The nouns of someone's words given on their own ("His words.", "Transcript.", "Her reply:").
_WORDS_GIVEN = frozenset(
    {"words", "transcript", "quote", "reply", "response", "answer", "message", "text", "dm", "excerpt",
     "output", "prompt", "instructions", "instruction", "dictation"}
)  # fmt: skip


def _an_empty_report(words: Sequence[str]) -> bool:
    """Does a sentence give someone's words without saying them: a verb of saying (:data:`_SAYING`)
    with only words that point ahead after it ("Eve wrote.", "The scammer typed.", "Here is what the
    mail says.", "Mallory wants it done", "He screamed."), or the words' noun alone ("His words.",
    "Transcript.")? What they said is what follows, or what came before: it may be any sentence of
    the turn, so a mandate beside it is not only the user's."""
    if not words or any(_id_like(w) for w in words):
        return False
    said = max((i for i, w in enumerate(words) if w in _SAYING), default=None)
    if said is not None:
        return set(words[said + 1 :]) <= _SAID_AHEAD and not set(words) & _THE_USER_SAYING
    return len(words) <= 3 and words[-1] in _WORDS_GIVEN and set(words[:-1]) <= FUNCTION_WORDS


#: The words of a fragment that only opens a turn ("Quick one.", "Two things.", "Small favour.",
#: "One more thing!", "Reminder.", "Question for you.").
_OPENING_A_TURN = frozenset(
    """
    quick one two three couple few thing things small little favour favor request task question
    reminder heads up more another also for real quickie update again today long day week busy
    payday monday friday weekend office hope well doing is you're had nice follow-up followup
    re-sending resending heads-up check-in
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words by which an imperative's object is the turn's words ("Translate this", "Ignore the next
#: sentence", "Summarize the following").
_THE_TURN_POINTED_TO = _THE_TURNS_WORDS | frozenset(
    {"this", "that", "these", "those", "it", "following", "below", "next"}
)
_PREPOSITIONS_ALONE = frozenset({"to", "into", "in", "from", "for", "with", "on", "at", "as"})


def _acts_on_the_turn(rest: Sequence[str]) -> bool:
    """Does an imperative of a verb the policy does not declare act on the turn's own words: no
    object ("Correct the grammar" aside, "Translate to German"), or one that points to them
    ("Translate this to Italian", "Ignore the next sentence")?"""
    return (
        not rest
        or rest[0] in _PREPOSITIONS_ALONE
        or bool(set(rest[:4]) & _THE_TURN_POINTED_TO)
        or bool(set(rest) & {"first", "beforehand"})  # "Ask me first.", "Check with me first"
    )


def _framed_by_an_earlier(mandate: Mandate, found: Sequence[Mandate], first: dict[str, int]) -> str | None:
    """An earlier request to read or tell that acts on the turn's words ("Summarize the following.",
    "Explain why this is a scam.", "Look at this nonsense."), or None: what follows may be its object,
    not a request of the user's."""
    at = first.get(mandate.sentence, -1)
    for earlier in found:
        if (
            first.get(earlier.sentence, at) < at
            and (earlier.verb in READING_VERBS or earlier.verb in _TELLING)
            and _acts_on_the_turn(words_of(earlier.text)[1:])
        ):
            return f"the object of an earlier request on the turn's words ('{earlier.text}')"
    return None


#: Words by which a request says the turn's words are not meant: what it asks to do with them is
#: about them, not an act of theirs ("Add this to the scam log.", "Explain why it is fake.").
_NOT_MEANT = frozenset(
    """
    scam scams scammer scammy fake phishing phish spam spammy fraud fraudulent bogus decoy trap prank
    joke hoax honeypot spoofed forged injection injected malicious suspicious refusal junk trash
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _points_back_at_the_turn(rest: Sequence[str]) -> bool:
    """Does the object of a later request to read, tell or write point back at the turn's words
    ("Explain this.", "Summarize the above.", "Translate this message.", "Draft a reply to this.")?
    Not a time ("this month's balance") nor what a report is about ("Let me know when this is
    done.": said of the act, not of the words)."""
    near = list(rest[:6])
    for i, w in enumerate(near):
        after = near[i + 1] if i + 1 < len(near) else ""
        if w == "above" or (w in ("this", "that", "the") and after in _THE_TURNS_WORDS):
            return True
        if w in ("this", "these") and after not in _FINITE and after.removesuffix("'s") not in _LAST_WHAT:
            return after not in ("one", "ones") or i + 2 >= len(near)
    return False


def _a_part_of_the_turn(rest: Sequence[str]) -> bool:
    """Does the object of a request pick out a part of the turn's words ("the first line", "the
    previous sentence", "line 1", "lines 2-3")?"""
    return any(
        (w in _WHICH_OF_THE_TURN and rest[i + 1 : i + 2] and rest[i + 1] in _THE_TURNS_WORDS)
        or (w in _THE_TURNS_WORDS and rest[i + 1 : i + 2] and rest[i + 1][:1].isdigit())
        for i, w in enumerate(rest)
    )


#: The object of a reading that dares rather than reads ("... and find out", "... and see what
#: happens", "... and see for yourself"): nothing to read but what the act would do.
_A_DARES_OBJECT = frozenset({"out", "what", "happens", "happen", "will", "yourself", "for"})


def _framed_by_a_later(
    mandate: Mandate, found: Sequence[Mandate], first: dict[str, int], declared: Collection[str]
) -> str | None:
    """A later request whose object is the turn's words, or None: one says they are not meant
    ("Pay B-40. Add this to the scam log.", "... Explain why it is a scam.", "... Draft a polite
    refusal to this."), or one of a verb the policy does not declare reads or writes about them
    ("... Summarize the above.", "... Translate this."). What it follows may be that object, not a
    request of the user's: it is asked. A later request of a declared verb on "this" acts on what
    the turn asks ("Pay B-40 and set this up monthly")."""
    at = first.get(mandate.sentence, -1)
    for later in found[found.index(mandate) + 1 :]:
        if first.get(later.sentence, at) < at or later.text in mandate.coordinated:
            continue  # ("delete Standup + Review": the Review is the object, no request of its own)
        rest = words_of(later.text)[1:]
        dare = later.verb in READING_VERBS and later.verb not in declared and set(rest) <= _A_DARES_OBJECT
        if (
            set(rest) & _NOT_MEANT
            or dare
            or (later.verb not in declared and later.verb not in _DOING and _points_back_at_the_turn(rest))
            or _a_part_of_the_turn(rest)  # "Delete the first line.", "Remove line 1.": an edit of the turn
        ):
            return f"the object of a later request on the turn's words ('{later.text}')"
        if (
            not [w for w in rest if w not in NO_ROLE_WORDS]
            and later.verb != mandate.verb
            and not later.coordinated
        ):
            return f"a later request that names nothing to act on ('{later.text}')"  # "Pay B-40. Cancel."
    return None


#: Finite verbs a statement's subject of a few words is followed by ("payments is hung again").
_FINITE = frozenset(
    """
    is are was were has have had am it's that's there's here's keeps needs wants looks seems feels
    goes comes gets got came went left broke stopped sent made took gave said told wrote paid found ran
    put set kept held brought bought sold spent won lost began did saw thought knew fell rang
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _a_plain_statement(words: Sequence[str]) -> bool:
    """Is a sentence naming nothing a statement: a subject and a finite verb (a copula, an
    auxiliary, a past form in "-ed", or one of :data:`_FINITE`) after at most five words, none a
    preposition ("payments is hung again", "The load test passed"; not "Example sentence for my
    English class", a fragment)?"""
    if stated_reason(words) or a_statement(words):
        return True
    for v in range(1, min(len(words), 6)):
        if set(words[:v]) & _OPENING_PREPOSITIONS:
            return False
        if words[v] in _FINITE or (words[v].endswith("ed") and len(words[v]) > 3):
            return True
    return False


#: Prepositions a fragment opens with ("For your records.", "From the chat log."): no subject.
_OPENING_PREPOSITIONS = frozenset(
    {"for", "from", "in", "on", "at", "by", "with", "to", "of", "about", "per", "via"}
)
#: Verbs by which a line asks to do what follows ("Please do the following:", "Handle these:").
_DOING = frozenset({"do", "handle", "complete", "action", "process", "perform", "tackle", "execute", "run"})


def _does_what_follows(words: Sequence[str]) -> bool:
    """Does a sentence only ask to do what follows ("Please do the following", "Handle these for
    me", "Can you action the items below")?"""
    rest = [w for w in words if w not in NO_ROLE_WORDS and w not in ("can", "could", "would", "will")]
    return (
        bool(rest)
        and rest[0] in _DOING
        and bool(set(rest[1:]) & _POINTING_BELOW)
        and set(rest[1:]) <= _POINTING_BELOW | FUNCTION_WORDS | {"for", "tasks", "instructions"}
    )


#: An apology for writing at all ("Sorry to bother you.", "Sorry for the late message."): no
#: correction of what follows.
_APOLOGY_FOR_BOTHERING = re.compile(
    r"(?:so |really )?sorry (?:to (?:bother|disturb|interrupt|pester|trouble|ping)"
    r"|for (?:the |this )?(?:late|short|bother|trouble|interruption|spam|ping"
    r"|delay(?:ed)? (?:reply|message|response))"
    r")"
)
#: What tells the agent to take it easy ("No worries.", "No rush."): no "no" of the request.
_EASY_GOING = frozenset(
    {("no", "worries"), ("no", "worry"), ("no", "rush"), ("no", "problem"), ("no", "hurry")}
)
#: Words of no ("Not me.", "Nope.").
_A_NO_WORD = frozenset({"not", "no", "never", "nope", "nah", "none"})
#: A subject that points to what follows or to the request ("This is untrusted.", "What follows is
#: a quote.", "The following is spam."), unless all it says is that it is urgent or important.
_POINTING_AHEAD = frozenset({"this", "this's", "the following", "what follows", "following", "below", "next"})
_ONLY_PRESSING = frozenset(
    {"urgent", "important", "quick", "easy", "simple", "overdue", "due", "time-sensitive", "asap", "priority",
     "high", "top", "a", "an", "is", "it's", "this", "real", "one", "very", "super", "bit", "kind", "of"}
)  # fmt: skip


def _said_of_what_follows(words: Sequence[str]) -> bool:
    """Does a statement naming nothing have for its subject what follows or the request ("This is
    untrusted.", "What follows is a quote.", "This came in by SMS.") and say more than that it is
    urgent ("This is urgent.")?"""
    joined = " ".join(words[:2])
    ahead = (
        words[0] in _POINTING_AHEAD
        or joined in _POINTING_AHEAD
        or (words[:1] == ["the"] and words[1:2] in (["following"], ["next"], ["below"]))
    )
    return ahead and not set(words) <= _ONLY_PRESSING


#: How the user says they have no money to act with ("We are broke.", "I'm skint this month").
_OUT_OF_MONEY = frozenset({"broke", "bankrupt", "skint", "insolvent", "overdrawn", "poor", "penniless"})
#: Words of a story, a dream or a game a request may be told in ("I had the strangest dream.",
#: "Here's the script.", "We're playing a game."): what follows may be its lines.
_FICTION = frozenset(
    """
    dream dreamt dreamed dreaming nightmare story stories novel script screenplay movie film
    game games roleplay role-play pretend pretending imagine imagined fiction fictional
    fantasy riddle poem song lyrics fairy tale sketch episode character characters plot skit
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words of a statement about the user that say how they are, not that the act is moot ("I'm back
#: from holiday", "We moved", "I'm working from home").
_THE_USERS_STATE = frozenset({"back", "moved", "working", "normal", "healthy"})


#: Words that take a turn back: a sentence of someone's words that holds one is not only theirs.
_TAKING_BACK = frozenset(
    {"don't", "dont", "not", "never", "no", "stop", "cancel", "ignore", "forget", "scrap"}
)
#: How the user says they will do something themselves ("I will handle Globex myself").
_FIRST_PERSON = (("i", "will"), ("i'll",), ("i", "am", "going"), ("i'm", "going"), ("we", "will"), ("we'll",),
                 ("i'm", "gonna"), ("we're", "going"), ("we're", "gonna"), ("i'd", "like", "to", "wait"),
                 ("i", "shall"), ("i", "can"), ("i'd", "rather"))  # fmt: skip
#: Words by which a sentence keeps what it names as it is ("The Quarterly Review stays.", "Globex
#: can wait", "the Acme bill remains open"): read as leaving it out.
KEEPING_WORDS = frozenset(
    """
    stays remains untouched unpaid unchanged pending survives lives persists spared safe intact
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: The words of a keeping note that has no subject ("(on hold)", "Stays as is for now."): it can
#: only be said of the request's own record.
_KEEPING_ALONE = frozenset(
    """
    on hold as is stay stays for now still can will wait until till further notice the time being
    off limits off-limits hands-off no-go pending later keep kept
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: The heads of a clause that keeps what it names as it is ("Keep the Standup", "leave the Acme bill"),
#: where the policy declares no such action: read as leaving it out.
_KEEPING_HEADS = frozenset({"keep", "leave", "hands", "exclude", "omit", "skip"})
#: A day or a clock time written as one word ("2027-01-02", "12/20", "14:00", "6pm", "15th").
_A_DAY_OR_A_TIME = re.compile(
    r"\d{4}-\d\d-\d\d|\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?|\d{1,2}(?::\d\d)?(?:am|pm|h)?|\d{1,2}(?:st|nd|rd|th)"
)


def _a_keeping_head(words: Sequence[str], at: int) -> bool:
    """Is the word at ``at`` the head of a keeping (:data:`_KEEPING_HEADS`: "Keep the Standup",
    "leave the Acme bill")? Not "leave" of a departure, followed by its day or time ("... and leave
    2027-01-02", "leaving on the 3rd at 6pm"): that is when someone goes, no record kept."""
    if words[at] not in _KEEPING_HEADS:
        return False
    after = list(words[at + 1 : at + 4])
    while after and after[0] in ("on", "at", "by", "the"):
        after = after[1:]
    departing = bool(after) and (_A_DAY_OR_A_TIME.fullmatch(after[0]) is not None or after[0] in _DATES)
    return not (words[at] == "leave" and departing)


#: The rest of a keeping that names nothing ("Hands off.", "Leave it alone.", "Keep it as it is."):
#: before or after a request, it can only keep the request's own record.
_KEEPING_NOTHING_NAMED = _KEEPING_HEADS | frozenset(
    {"it", "this", "that", "them", "alone", "all", "off", "be"}
)
#: The words of a keeping whose object is only what any request of the turn moves ("Keep the
#: money.", "Leave the bill open.", "Keep my funds where they are."): it can only keep the request's
#: own record, and so bears on it.
_WHAT_A_REQUEST_MOVES = frozenset(
    """
    the a my our your money funds fund cash balance account accounts payment payments transfer transfers
    bill bills invoice invoices order orders one ones open unpaid outstanding pending unsent where they
    are is untouched intact
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Nouns of a record's kind, which name no record by themselves ("the bill", "the Acme one").
_KIND_WORDS = frozenset({"bill", "bills", "invoice", "invoices", "one", "ones", "order", "orders", "payment"})


#: Verbs by which a later mandate undoes what an earlier one of another verb asks for ("Pay B-31
#: and B-40. Remove B-40 from that.", "... Cancel the B-40 part.").
#: Verbs that change a thing asked before, said of it by a pronoun ("Make that 2", "Change it to
#: B-31", "Set it to 250"): a correction the reader cannot tell from one more request.
_CHANGING = frozenset(
    """
    change make set update switch turn modify adjust amend alter edit correct extend shorten raise
    lower increase reduce decrease bump swap
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_UNDOING = frozenset(
    """
    cancel remove drop undo revoke withdraw reverse void scrap strike retract rescind exclude stop
    halt pull kill nix ditch axe
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Verbs by which a later mandate may keep what an earlier one deletes ("Delete A and B. Save the
#: spreadsheet.", "... Save it."), where a policy declares them for another action.
_SPARING = frozenset({"save", "keep", "spare", "preserve", "retain", "protect"})
#: Words by which a later mandate of the same verb narrows an earlier one to what it names ("Pay
#: B-31 and B-40. Pay B-31 only.", "... Just pay B-31.").
_ONLY = frozenset({"only", "just", "solely", "exclusively", "alone"})
#: Words by which an undoing verb's object is the request itself ("Cancel that instruction",
#: "cancel my last request", "Stop everything above").
_A_REQUEST = frozenset(
    """
    instruction instructions request requests command task tasks message transaction transfer my
    last previous earlier above everything all
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Verbs that take a request back only where their object is the request ("Delete that request",
#: "Remove it from the queue"): elsewhere they act on a record.
_DELETING_A_REQUEST = frozenset({"delete", "erase", "abort", "skip", "forget", "ignore"})
#: Where a request waits: "Remove it from the queue / your list / my to-do".
_QUEUES = frozenset(
    {"from", "queue", "list", "todo", "todos", "to-do", "your", "my", "plan", "agenda", "backlog"}
)


#: Words of a task handed to someone ("Give the task to Alice"), and what they are to do with it
#: ("Give it to Alice to approve"); phrases that drop what was asked ("Give it a rest").
_TASK_WORDS = frozenset({"task", "ticket", "job", "decision", "request", "call"})
_TO_DECIDE = frozenset({"approve", "handle", "decide", "review", "sign", "check", "confirm", "do"})
_HANDING = frozenset({"send", "give", "hand", "pass", "forward", "kick", "bounce", "mail", "email", "return"})
_DROPPING = frozenset({"give it a rest", "forget it", "forget about it", "drop it", "let it go", "let it be"})


def _hands_on(other: Mandate, pointing: Sequence[str]) -> bool:
    """Does a later mandate hand what was asked on to someone, or back ("Give the task to Alice",
    "Give it to Alice to approve", "Get Bob to handle it", "Send it back to the vendor"), or drop
    it ("Give it a rest")?"""
    said, first = set(pointing), pointing[0] if pointing else ""
    return (
        " ".join(words_of(other.text)) in _DROPPING
        or (first in POINTING_BACK and pointing[1:2] == ["back"] and other.verb in _HANDING)  # "send it back"
        or (first in _TASK_WORDS and "to" in said)  # "give the task to Alice"
        or (first in POINTING_BACK and "to" in said and pointing[-1] in _TO_DECIDE)  # "... to approve"
        or (other.verb == "get" and "to" in said and pointing[-1:] == ["it"] and bool(said & _TAKING_OVER))
    )


def _on_a_request(mandate: Mandate) -> str | None:
    """Why a mandate acts on a request rather than a record, or None: it takes a request or a
    queue's item back, or hands it on ("Remove it from the queue", "Cancel that request", "Give it
    to Alice to approve"). What it points back to is no record it acts on."""
    pointing = [w for w in words_of(mandate.text)[1:] if w not in _ARTICLES]
    said = set(pointing)
    undoing = (
        mandate.verb in _UNDOING | _DELETING_A_REQUEST
        and bool(said & (_A_REQUEST | _QUEUES) - {"my", "your", "all", "everything"})
        and said <= _REFERRING | _KIND_WORDS | _A_REQUEST | _QUEUES
    )
    if undoing or _hands_on(mandate, pointing):
        return f"it acts on a request, not a record ('{mandate.text}')"
    return None


def _names_the_act(word: str, verb: str) -> bool:
    """Does a word name the act of ``verb`` ("payment" of pay, "scaling" of scale, "deletion" of
    delete, "the restart")?"""
    stem = verb[:-1] if verb.endswith("e") else verb
    return len(stem) >= 3 and word.startswith(stem)


def _paid_and_undone(mandate: Mandate, found: Sequence[Mandate]) -> str | None:
    """A payment whose sentence also undoes, with one of the two verbs standing bare before their
    shared object ("Pay and cancel B-40", "Cancel, then pay, B-40", "Pay & then cancel B-31"): which
    one the user means, the reader cannot tell."""
    if mandate.verb not in PAYING_VERBS:
        return None
    for other in found:
        if other is mandate or other.sentence != mandate.sentence:
            continue
        undoing = other.verb in _UNDOING | _DELETING_A_REQUEST
        bare = [w for w in mandate.words[1:] if w not in _WHEN_OR_POLITE] == [] or [
            w for w in other.words[1:] if w not in _WHEN_OR_POLITE
        ] == []
        if undoing and bare:
            return f"undone in its own sentence ('{other.text}')"
    return None


#: Verbs that change a record's time or place, which an act that undoes it leaves nothing to change.
_MOVING_IT = frozenset(
    {"move", "reschedule", "extend", "shift", "push", "postpone", "rebook", "change", "swap"}
)


def _undone_and_changed(mandate: Mandate, found: Sequence[Mandate]) -> str | None:
    """An act that undoes a record and, in the same sentence, one that changes it by a pronoun
    ("Cancel RB-802, move it to 2026-12-20"): cancel it, or move it, the reader cannot tell; both
    are uncertain."""
    undoing = _UNDOING | _DELETING_A_REQUEST
    for other in found:
        if other is mandate or other.sentence != mandate.sentence:
            continue
        pair = {mandate.verb, other.verb}
        changing = mandate if mandate.verb in _MOVING_IT else other if other.verb in _MOVING_IT else None
        if changing is None or not pair & undoing or not {"it", "them"} & set(changing.words[1:]):
            continue
        return f"undone and changed in its own sentence ('{other.text}')"
    return None


def _every_payment_stopped(mandate: Mandate, found: Sequence[Mandate]) -> str | None:
    """A payment beside a request that stops or holds every payment ("Pay B-40. Also, stop all
    outgoing transfers.", "... and freeze payments"): which one the user means, the reader cannot tell."""
    if mandate.verb not in PAYING_VERBS:
        return None
    for other in found:
        stopping = other.verb in _UNDOING or other.verb in _HOLDING_ALL
        if other is not mandate and stopping and set(other.words[1:]) & _PAYMENTS_AS_A_KIND:
            return f"beside a request that stops every payment ('{other.text}')"
    return None


#: Verbs that hold back what they name; the kinds of record every payment is.
_HOLDING_ALL = frozenset({"freeze", "pause", "suspend", "block", "hold", "halt", "stop"})
_PAYMENTS_AS_A_KIND = frozenset({"payments", "transfers", "transactions", "payouts", "remittances", "wires"})


#: Words beside what a later mandate points back to that say when or ask politely ("cancel them
#: afterwards", "cancel both now pls").
_WHEN_OR_POLITE = frozenset(
    {
        "now",
        "then",
        "afterwards",
        "afterward",
        "after",
        "later",
        "too",
        "also",
        "please",
        "pls",
        "plz",
        "again",
    }
)


def _changed_later(mandate: Mandate, later: Sequence[Mandate]) -> str | None:
    """Why a later mandate of the turn, of any verb, may change what ``mandate`` asks, or None: a
    verb of changing (:data:`_CHANGING`) whose object is a pronoun pointing back with more after it
    ("... Make that 2.", "... — switch it to Pensione Luna", "Set it to 250."). A correction the
    reader cannot tell from one more request: the earlier mandate is uncertain, its call asked."""
    for other in later:
        pointing = [w for w in words_of(other.text)[1:] if w not in _ARTICLES]
        if other.verb not in _CHANGING or not pointing[:1] or pointing[0] not in POINTING_BACK:
            continue
        # what it is changed to: "to ..." or a value ("2", "FL-OS455", "Albergo Sole"), not a
        # particle or a manner ("set this up monthly", "make it quick")
        after = re.split(rf"(?i)\b{re.escape(pointing[0])}\b", other.text, maxsplit=1)[-1].split()
        if after and (after[0].casefold() in ("to", "into") or _A_NEW_VALUE.match(after[0])):
            return f"a later request may change it ('{other.text}')"
    return None


#: A value a thing is changed to, written after the pronoun: a figure, an id, a name.
_A_NEW_VALUE = re.compile(r"[\d$€£]|[A-Z]")


#: A person's name as a label writes it: two to four capitalised words, a title before them
#: ("Lena Fischer", "Dr. Ana Petrova", "Lucía Ortega").
_A_PERSONS_NAME = re.compile(
    r"(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?[^\W\d_a-z][^\W\d_]*"
    r"(?:[ \t]+[^\W\d_a-z][^\W\d_'’-]*(?:-[^\W\d_]+)?){1,3}"
)


def _pointing_past_its_label(mandate: Mandate) -> str | None:
    """Where a mandate's object points back ("it", "them") to the label before its sentence's colon:
    a label of several ids for one "it" ("RES-2041 and RES-2042: extend it": which one is not
    said), or a person's name ("Lena Fischer: cancel it": her records, not one of them; the name may
    be someone's words too) names no one record the pronoun can be. Then the mandate is uncertain."""
    object_words = set(mandate.words[1:])
    if not object_words & {"it", "its", "them"}:
        return None
    sentence = mandate.sentence.lstrip()
    for label in mandate.antecedents:
        if not (sentence.startswith(label) and sentence[len(label) :].lstrip().startswith(":")):
            continue
        ids = AN_ID_WORD.findall(label)
        if len(set(ids)) > 1 and object_words & {"it", "its"}:  # ("them": each of them)
            return f"it points to one of several ('{label}')"
        if not ids and "it" in object_words and _A_PERSONS_NAME.fullmatch(label.strip()):
            return f"it points to a person, no one record ('{label}')"  # ("them" may be the person)
    return None


#: Words of a part of a sum a keeping clause may hold back ("keep the change fee", "keep the rest").
_PART_OF_A_SUM = frozenset(
    """
    fee fees charge charges deposit amount money cash change difference rest remainder balance portion
    share half cents penalty surcharge tip
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: A figure standing alone, no part of an id ("keep 2.00", "keep 30", not "keep B-40").
_A_BARE_FIGURE = re.compile(r"(?<![\w.,-])\d+(?:[.,]\d+)*(?![\w-])")


def _another_act_after_it_instead(mandate: Mandate, later: Sequence[Mandate]) -> str | None:
    """A later mandate of the same sentence, of another verb, asked "instead" ("Refund 8.40 on
    TR-55021, lock BK-0412 instead"): it may replace this one, which is then not read as asked
    ("instead of" names what it replaces, read apart: "Pay B-31 instead of B-40")."""
    for other in later:
        if other.sentence != mandate.sentence or other.verb == mandate.verb:
            continue
        between = other.sentence[
            other.sentence.find(mandate.text) + len(mandate.text) : other.sentence.find(other.text)
        ]
        if re.search(r"(?i)\b(?:and|then|also|plus)\b", between):
            continue  # "cancel her booking and give her a credit instead": both asked
        at = other.sentence.find(other.text)
        rest = words_of(other.text) + (
            words_of(other.sentence[at + len(other.text) :])[:2] if at >= 0 else []
        )
        if any(w == "instead" and rest[i + 1 : i + 2] != ["of"] for i, w in enumerate(rest)):
            return f"another act asked instead ('{other.text} instead')"
    return None


def _taken_back(mandate: Mandate, later: Sequence[Mandate]) -> str | None:
    """Why a later mandate of the turn takes ``mandate`` back, or None: it undoes a record the
    mandate names with a verb of undoing of another action ("Remove B-40 from that"), or it asks
    for the same action again, naming records of its own, only for them ("Pay B-31 only." after
    "Pay B-31 and B-40"). Either may be a correction the reader cannot tell from a second request:
    the earlier mandate is uncertain, its call asked."""
    names = naming_words(" ".join((mandate.text, *mandate.coordinated)))
    for other in later:
        theirs = naming_words(" ".join((other.text, *other.coordinated)))
        if other.verb in _UNDOING and other.verb != mandate.verb and names & theirs:
            return f"a later request undoes it ('{other.text}')"
        pointing = [w for w in words_of(other.text)[1:] if w not in _ARTICLES]
        acts = {w for w in pointing if _names_the_act(w, mandate.verb)}  # "Cancel the payment"
        unpaid = mandate.verb in PAYING_VERBS and other.verb != mandate.verb
        if unpaid:  # "... and cancel them afterwards", "... and cancel both now pls"
            pointing = [w for w in pointing if w not in _WHEN_OR_POLITE]
        # a payment undone in its own sentence ("Pay B-40 and cancel it", "... and stop the
        # payment"): money sent is no record one more act goes on with
        if (
            other.verb in _UNDOING | _DELETING_A_REQUEST
            and (other.verb != mandate.verb or bool(set(pointing) & (_A_REQUEST | _QUEUES)))
            and (
                set(pointing) & _ORDINAL_REFERENCES
                or (
                    set(pointing) & (POINTING_BACK | _A_REQUEST | acts | _QUEUES | {"both"})
                    and (other.sentence != mandate.sentence or unpaid)
                )
            )
            and all(w in _REFERRING | _KIND_WORDS | _A_REQUEST | acts | _QUEUES for w in pointing)
            and (other.verb in _UNDOING or unpaid or set(pointing) & (_A_REQUEST | acts | _QUEUES))
        ):  # "Remove the latter.", "Cancel the second one", a later sentence's "Cancel that
            # instruction": which, or whether it takes the request back, the reader cannot tell
            # ("... and cancelling it" in its own sentence is one more act on it)
            return f"a later request may undo it ('{other.text}')"
        handing = _hands_on(other, pointing)
        if handing and other.sentence != mandate.sentence:
            return f"a later request may hand it on ('{other.text}')"
        if other.verb in _SPARING and mandate.verb in _ON_A_RECORD and (names & theirs or not theirs):
            return f"a later request may keep what it acts on ('{other.text}')"  # "... Save it."
        narrowing = _ONLY & set(words_of(other.text))  # "Just pay B-31": before its head too
        if other.verb == mandate.verb and narrowing and theirs and not names <= theirs:
            return f"a later request narrows it ('{other.text}')"
    return None


#: Words by which a statement says the act or its record is not what it seems ("..., it's a decoy",
#: "... it's only a test"), or weighs it against another ("on reflection X is enough"): what it
#: says bears on the call.
_DISCREDITING = frozenset(
    """
    decoy fake trap phishing bogus spam test testing demo example sample joke prank typo honeypot
    dummy mock placeholder drill hypothetical imaginary pretend wrong scam fraud forged spoofed
    reflection thought enough better best rather prefer preferred preferably actually meant mean
    instead alternative alternatively wiser safer overkill excessive unnecessary pointless premature
    though however although albeit nevertheless nonetheless admittedly
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: A colon that is no clock time's ("10:30", "9:00").
_A_COLON_NOT_A_TIMES = re.compile(r"(?<!\d):|:(?!\d{2}\b)")


def _colon_at(text: str) -> int:
    """Where the first colon of ``text`` that is no clock time's is ("Book Fjell at 09:00,
    tomorrow" has none), or -1."""
    found = _A_COLON_NOT_A_TIMES.search(text)
    return found.start() if found else -1


def _after_a_colon_of(sentence: str, asking: Sequence[Clause]) -> bool:
    """Does the sentence hold a colon after its first mandate ("Restart payments: lessons
    learned")? A label's colon before it ("Bob Lee: pay him ..., he covered the tip") is none,
    nor a clock time's ("..., at 09:30, the owner is travelling")."""
    colon = _colon_at(sentence)
    return colon >= 0 and (not asking or colon > sentence.find(asking[0].text))


#: Words by which a statement beside a mandate says something stands in its way ("..., it's too
#: early", "..., the budget is frozen", "..., approval is required", "..., the card is expired").
_STANDING_IN_THE_WAY = frozenset(
    """
    too frozen freeze sanctioned sanctions blacklisted banned forbidden prohibited required mandatory
    bankrupt fraud fraudulent fraudster suspicious scam unverified unapproved unauthorized unauthorised
    reviewing investigating investigation unfortunately sadly however although though illegal
    embargoed restricted overdrawn exhausted expired missing zero draft unsigned reached exceeded
    insufficient objected objects objection different
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Words by which a statement says the act is moot: made some other way, healed, gone, in use or
#: taken in hand by someone ("Pay B-40, it's settled", "..., it went through", "Restart api, it
#: recovered", "Delete a.log, it's gone", "..., we're using it", "..., he's on it"). Such a reason is
#: no reason for the call: it bears on it.
_MOOT = frozenset(
    """
    settled cleared processed covered sorted reconciled reimbursed credited waived voided forgiven
    written through care recovered healed healthy stable stabilized stabilised working works fixed
    restored back normal normally gone archived moved rescheduled replaced needed necessary important
    use using used renewed extended reinstated rehired withdrew withdrawn drained arrived squared
    outdated dispute audit litigation list own over replacement pulled ahead planned changed updated
    switched autopay autopaid automatic automatically
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Moot words only where the statement is said of the record itself ("It ended an hour ago.", "it's
#: live", "It's green again"; "both contracts ended" gives a reason).
_MOOT_OF_IT = frozenset({"ended", "expired", "live", "green", "done"})
#: The subjects that point back to the record.
_IT = frozenset({"it", "it's", "its", "that", "that's", "this", "they", "they're"})


def _done_to_another(words: Sequence[str], at: int) -> bool:
    """Is the moot word at ``at`` said of another thing than the record: a verb whose object is
    another thing ("he covered the tip", "I fixed the config"; "they processed the payment", with a
    kind of record or a word that points back after it, is said of the record), where a person is
    ("she's gone"), or how it came ("it arrived broken")?"""
    rest = set(words[at + 1 :])
    if words[at] in _PRESENCE and rest & _WHERE_IT_GOES:
        return False  # "they changed their bank details": where the call's money or message goes
    if words[at] in _PRESENCE and (
        (words[:1] and words[0] in _PERSONS)
        or (at == 2 and words[0] in _OF_A_PERSON and words[1] in _SERVED)  # "the customer moved"
    ):
        return True  # "she's gone", "he changed teams": where a person is, not the record
    if at + 1 < len(words) and words[at + 1] in _DOCUMENTS:
        return True  # "Acme Supplies sent invoice INV-7": the record issued, not settled
    if words[at] == "arrived" and at + 1 < len(words) and words[at + 1] not in _ARRIVED_WELL:
        return True  # "it arrived broken": how it came, a reason (not "it arrived", "... safely")
    return (
        at + 1 < len(words) and words[at + 1] in _OBJECT_OPENERS and not rest & (_KIND_WORDS | POINTING_BACK)
    )


#: The kinds of record that are documents a party issues ("sent invoice INV-7").
_DOCUMENTS = frozenset({"invoice", "invoices", "bill", "bills", "order", "orders"})
#: What after "arrived" says it came as it should ("it arrived safely"): the act is moot.
_ARRIVED_WELL = frozenset({"already", "now", "safely", "fine", "ok", "okay", "yesterday", "today", "in"})
#: What opens a person named by their role as a subject ("the customer moved", "our guest").
_OF_A_PERSON = frozenset({"the", "our", "my", "his", "her", "their"})
#: The people an act serves, by their role: where they are is a reason ("the customer moved"); where
#: a payee is may be where the money goes ("the vendor moved" still asks).
_SERVED = frozenset(
    {"customer", "guest", "member", "patient", "client", "student", "rider", "passenger", "tenant", "owner",
     "subscriber", "traveller", "traveler", "resident", "caller"}
)  # fmt: skip
#: Moot words that say where someone is when a person is their subject ("she's gone", "I moved").
_PRESENCE = frozenset({"gone", "moved", "changed", "switched"})
#: Where money or a message goes: what a person changing it bears on the call ("they changed their
#: bank details"; "he changed teams" gives a reason).
_WHERE_IT_GOES = frozenset(
    {
        "iban",
        "account",
        "accounts",
        "bank",
        "details",
        "wallet",
        "address",
        "email",
        "number",
        "payee",
        "routing",
    }
)
#: The subjects that are persons.
_PERSONS = frozenset(
    {"he", "she", "they", "we", "i", "you", "he's", "she's", "they're", "we're", "i'm", "you're"}
)


#: Verbs that undo, stop or take back (a charge, an order, access, a line): what is wrong with the
#: record is their reason ("Void ORD-44121, it was a duplicate", "Suspend LN-30291, phone stolen").
UNDOING = frozenset(
    """
    cancel void refund reverse revoke suspend bar block freeze hold deny reject decline remove delete
    waive lock disable deactivate terminate withdraw unenrol unenroll chargeback unsubscribe
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words by which a clause after an undoing mandate is no mere reason for it: it may take the act
#: back, put it off, keep the record, say the act is moot or done, or doubt it.
_NO_REASON_TO_UNDO = frozenset(
    """
    sorry meant actually wait scratch kidding mind ignore undo instead rather already yet later still
    keep keeps kept stay stays leave leaving maybe perhaps probably might may should would could if
    unless until when once whether again anymore fine ok okay resolved settled paid done found
    returned recovered back working works fixed
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: The shares a call's figure may be of its own record's ("half of ORD-50012"): a part of it taken
#: that the call accounts for (:mod:`policies.supervisor.decide.accounted`).
_SHARES = frozenset({"half", "third", "quarter"})


def _a_reason_to_undo(clause: Clause, verbs: Collection[str]) -> bool:
    """Is a clause after a mandate that undoes (:data:`UNDOING`: void, cancel, suspend, refund ...)
    a statement of what went wrong, which is that act's reason ("..., phone stolen", "..., late
    delivery", "..., the SIM was cloned")? Not where it names a record, a figure or a time, asks,
    or holds a word that may take the act back, put it off, keep the record, say it is moot, or
    give a status, a verdict, a dispute or what stands in the way (:data:`_NO_REASON_TO_UNDO`,
    :func:`_bearing`: "..., it's settled", "..., no wait", "..., she'll keep it", "..., it's
    disputed" still ask), nor after any other act ("Pay B-40, it was lost" still asks)."""
    words = clause.words
    if not verbs or not all(_base_of_an_undoing(v) for v in verbs) or len(words) < 2:
        return False
    if words[0] in _OPENS_A_COMPLEMENT or set(words) & _CHANGES_THE_ACT:
        return False  # "..., as store credit", "..., to her new card", "..., credit instead": how
    if "?" in clause.text or any(ch.isdigit() for ch in clause.text) or _time_word(words) is not None:
        return False
    if set(words) & _WH:  # "..., who wouldn't?": a question, its mark or not
        return False
    if (
        _of_the_turns_words(words)
        or _asked_for_another(words, verbs)
        or any(_disowns(words, v) for v in verbs)
    ):
        return False  # "..., the customer requested a repair": another act asked for
    blocking = set(words) & (_NO_REASON_TO_UNDO | _MOOT - {"moved"} | KEEPING_WORDS | _DOUBTING) | _bearing(
        words
    )
    # "her sale fell through": what the act is undone for failed (beside a payment it bears on it)
    blocking -= {"through"} if any(_fell_through(words, i) for i in range(len(words))) else set()
    if no_longer_needed(words):  # "she doesn't need it anymore": a reason to remove the record only
        return _every_verb_of(verbs, _REMOVING)
    if (
        blocking
        - _what_went_wrong(words)
        - _why_money_goes_back(words, verbs)
        - _why_access_stops(words, verbs)
        - (_not_working(words) if _every_verb_of(verbs, _GIVING_BACK) else set())
    ):
        return False  # (a status, a verdict, a doubt or what stands in the way still asks)
    return not set(words) <= FUNCTION_WORDS | {"not", "no", "never"}


#: Verbs that move an act in time (a delivery, an appointment, a stay, a due date, a loan): what
#: keeps someone or something from the time the act leaves is their reason ("Push HR-7301 to
#: 2026-12-15, the ground is frozen", "Reschedule LS-3102 to ..., he's away on the 16th").
_MOVING_IN_TIME = frozenset(
    {"move", "push", "reschedule", "shift", "postpone", "delay", "defer", "extend", "rebook"}
)
#: What keeps a person or a thing from a time: away, ill, at work or in court, the ground frozen.
_KEPT_FROM_A_TIME = frozenset(
    """
    away busy sick ill unwell abroad travelling traveling court work working holiday vacation leave
    hospital frozen flooded snowed closed shut trip
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: A person's own plans ("the customer's flight moved", "Mina's flight changed"), and the words by
#: which they changed: for an act that moves a time, its reason (said of the record itself, moot).
_PLANS = frozenset(
    {"flight", "flights", "plans", "plan", "train", "trip", "travel", "schedule", "shift", "rota"}
)
_PLANS_CHANGED = frozenset({"moved", "changed", "delayed", "cancelled", "canceled", "rescheduled"})
#: What is not yet done or ready, negated: it keeps an act from its time ("he's not finished the
#: footings", "she isn't back yet"); unnegated, the act may be moot ("it's finished").
_NOT_YET = frozenset(
    {"finished", "done", "ready", "complete", "completed", "back", "recovered", "available", "home"}
)
#: The words of a time that a reason to move an act may say when it keeps someone from
#: ("..., he's away on the 16th", "..., Maria is away until then", "..., she's still sick").
_WHEN_KEPT = frozenset({"until", "till", "then", "still", "yet"})
#: A figure that is a day or a time in a reason to move an act: "the 16th", "2026-12-16", "16/12".
_A_DAY_IN_A_REASON = re.compile(r"\d{1,2}(?:st|nd|rd|th)|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?")


def _every_verb_of(verbs: Collection[str], bases: Collection[str]) -> bool:
    """Is every one of ``verbs`` (as written: "cancelling", "pushed") a form of one of ``bases``?"""
    return all(any(v in verb_forms(b) for b in bases) for v in verbs)


def _a_reason_to_move(clause: Clause, verbs: Collection[str]) -> bool:
    """Is a clause after a mandate that moves an act in time (:data:`_MOVING_IN_TIME`: push, move,
    reschedule, extend ...) a statement of what keeps a third person or a thing from the time it
    leaves, which is that act's reason: away, ill, at work or in court (:data:`_KEPT_FROM_A_TIME`,
    "..., he's away on the 16th", "..., the ground is frozen"), their own plans changed
    (:data:`_PLANS`: "..., the customer's flight moved"), or not yet done or ready (:data:`_NOT_YET`
    negated: "..., he's not finished the footings")? Not where it is the user's or the record's
    ("it's ..."), asks, names a figure but a day, holds a word of wanting, or any word that may take
    the act back, keep the record, say it is moot or doubt it beside those (:func:`_bearing`:
    "..., he's not away anymore", "..., it's moved already", "..., he wants the old date" still
    ask), nor after any other act."""
    words = clause.words
    if not verbs or not _every_verb_of(verbs, _MOVING_IN_TIME) or len(words) < 3:
        return False
    if (
        words[0] not in THIRD_PERSONS - {"it", "it's"}
        or "?" in clause.text
        or set(words) & (_WH | OF_WANTING)
    ):
        return False
    if any(ch.isdigit() for ch in _A_DAY_IN_A_REASON.sub("", clause.text)):
        return False  # "..., he owes 50": a figure that may bear on the call
    negated = [i for i, w in enumerate(words) if w in NEGATIONS or w.endswith("n't")]
    not_yet = {
        words[i] for i in range(len(words)) if words[i] in _NOT_YET and any(0 < i - n <= 2 for n in negated)
    }
    if any(w in _KEPT_FROM_A_TIME for w in words) and not negated:
        why = set(words) & _KEPT_FROM_A_TIME
    elif set(words) & _PLANS and set(words) & _PLANS_CHANGED and not negated:
        why = set(words) & (_PLANS | _PLANS_CHANGED)
    elif not_yet and len(negated) == 1:
        why = not_yet | {words[negated[0]]}
    else:
        return False
    blocking = set(words) & _AGAINST_A_REASON | _bearing(words)
    return not blocking - why - _WHEN_KEPT


#: Verbs that give money back or take it off a charge: what went wrong with what was paid for is
#: their reason ("Knock 45.00 off HI-407, the tower was missing a brace").
_GIVING_OFF = frozenset(
    {"refund", "reimburse", "waive", "repay", "credit", "discount", "knock", "compensate"}
)
#: What went wrong with a service or a thing paid for: late, broken, missing, short of its quote.
_FAULTS = frozenset(
    """
    broken late delayed missing leaked leaking leaks overran overrun cold damaged faulty defective
    stolen lost scratched dented cracked dirty noisy rattles rattled rattling flooded failed wrong
    unusable ruined torn stained mouldy moldy
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: A thing smaller or later than agreed ("the cable run was shorter than quoted"): a fault.
_SHORT_OF_ITS_QUOTE = re.compile(
    r"\b(?:shorter|smaller|slower|later|less|fewer|worse)\s+than\s+(?:quoted|expected|agreed|booked|promised|planned|ordered|advertised)\b"
)
#: A figure of a duration in a fault ("his flight is 6 hours late", "delayed 3 days").
_A_DURATION = re.compile(r"\d+(?:[.,]\d+)?\s*(?:hours?|hrs?|minutes?|mins?|days?|weeks?)\b")


def _a_reason_for_money_back(clause: Clause, verbs: Collection[str]) -> bool:
    """Is a clause after a mandate that gives money back or off (:data:`_GIVING_OFF`: refund,
    waive, credit, knock off, discount ...) a statement of what went wrong with what was paid for,
    which is that act's reason (:data:`_FAULTS`: "..., the tower was missing a brace", "..., the
    flight was delayed 6 hours", "..., the cable run was shorter than quoted")? Not where it is the
    user's, asks, names a figure but a duration, holds a word of wanting, a time but its fault's,
    or any word that may take the act back, keep the record, say it is moot or doubt it beside
    those (:func:`_bearing`: "..., it was never broken", "..., it's fixed now" still ask), nor
    after any other act."""
    words = clause.words
    if not verbs or not _every_verb_of(verbs, _GIVING_OFF) or len(words) < 3:
        return False
    if words[0] not in THIRD_PERSONS or "?" in clause.text or set(words) & (_WH | OF_WANTING):
        return False
    if any(ch.isdigit() for ch in _A_DURATION.sub("", clause.text)):
        return False  # "..., he owes 50": a figure that may bear on the call
    if any(w in NEGATIONS or w.endswith("n't") for w in words):
        return False  # "..., it wasn't broken": no fault, maybe a reason against
    short = _SHORT_OF_ITS_QUOTE.search(" ".join(words))
    why = (set(words) & _FAULTS) | (set(short.group(0).split()) if short else set())
    if not why or (_time_word(words) not in (None, *why)):
        return False
    blocking = set(words) & _AGAINST_A_REASON | _bearing(words)
    return not blocking - why - {"still"}


def _a_reason_for(clause: Clause, verbs: Collection[str]) -> bool:
    """Is a clause after a mandate its reason: what went wrong for an act that undoes, what keeps
    someone from a time for an act that moves it, what went wrong with what was paid for for money
    given back?"""
    return (
        _a_reason_to_undo(clause, verbs)
        or _a_reason_to_move(clause, verbs)
        or _a_reason_for_money_back(clause, verbs)
    )


#: Words that open a phrase of how, where or to whom an act goes, not why ("..., as store credit",
#: "..., to her new card", "..., in vouchers", "..., but keep 2.00"): such a clause bears on the act.
_OPENS_A_COMPLEMENT = frozenset(
    """
    to as in into onto via by with for on from then and but or so also plus minus less except without
    instead only just keep keeping leave not no
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words that, anywhere in a clause beside an act, change the act rather than give its reason.
_CHANGES_THE_ACT = frozenset({"instead", "only", "except", "rather", "keep", "minus", "voucher", "vouchers"})


#: Words of what went wrong with a record: for an act that undoes, they are its reason ("Refund
#: MS-9014 354.00, he was charged for the wrong gym", "Bar Mario Costa's line, he reported it lost").
#: Not a dispute nor a fraud (a refund beside an open dispute may pay twice, one to a fraudster pays
#: the fraud), nor a duplicate (which of two copies goes, the reader cannot tell): they still ask.
_WENT_WRONG = frozenset(
    """
    double wrong mistake mistaken mistakenly erroneous erroneously incorrect incorrectly lost stolen broken
    damaged faulty defective cloned hacked compromised overcharged
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Who a statement of what went wrong may be said by or of: a third person or thing, never the user
#: nor the agent ("I can't make it" may take the act back).
_SAID_OF_ANOTHER = THIRD_PERSONS | {"this"}


def _what_went_wrong(words: Sequence[str]) -> set[str]:
    """The words of a statement after an act that undoes that say what went wrong with its record
    or its holder, and so give the act's reason rather than bear on it: words of a fault
    (:data:`_WENT_WRONG`: "he was charged for the wrong gym", "it was booked by mistake"), or, in a
    statement of a
    third person's with no word of a fault, a negation ("she can't make it", "she no longer
    swims"); with either, the word that points back to the record as the statement's object ("he
    reported it lost"). None of the user's own ("I can't ...", "not yet"), nor where the negation
    is said of wanting or agreeing to the act ("she doesn't want it")."""
    if len(words) < 3 or words[0] not in _SAID_OF_ANOTHER:
        return set()
    faults = set(words) & _WENT_WRONG
    negations = {w for w in words[1:] if w in NEGATIONS | NO_LONGER or w.endswith("n't")}
    if faults:
        allowed = set(faults)
    elif negations and not set(words) & (OF_WANTING | POINTING_BACK - {"it", "them"}):
        allowed = negations
    else:
        return set()
    return allowed | (set(words[1:]) & {"it", "them"})


#: Words of a thing that works, which a negation before them makes what went wrong ("the heating
#: wasn't working", "the lock was never fixed"): a reason to give money back (to cancel a repair, it
#: is none); unnegated, the act may be moot ("it's working").
_WORKING = frozenset(
    {
        "working",
        "works",
        "worked",
        "functioning",
        "fixed",
        "repaired",
        "arrived",
        "delivered",
        "received",
        "came",
    }
)


def _not_working(words: Sequence[str]) -> set[str]:
    """The words of :data:`_WORKING` in a statement that a negation one or two words before them
    negates ("the heating wasn't working", "the door was not fixed", "the order never arrived"):
    what went wrong, a reason."""
    return {
        w
        for i, w in enumerate(words)
        if w in _WORKING and any(p in ("not", "never") or p.endswith("n't") for p in words[max(0, i - 2) : i])
    }


#: Verbs that give money back (a refund, a waiver): what happened to what it paid for is their reason.
_GIVING_BACK = frozenset({"refund", "reimburse", "waive", "repay"})
#: What happened to what was paid for, said of another thing than the record ("the lab was
#: cancelled", "the direct debit failed"): for money given back, its reason (a delay is a time, read
#: as such).
_CALLED_OFF = frozenset({"cancelled", "canceled", "failed", "scrapped"})
#: Words of paying that "twice" or "double" makes a reason to give money back ("it was paid twice").
_PAID_TWICE = frozenset({"paid", "charged", "billed", "debited"})


def _why_money_goes_back(words: Sequence[str], verbs: Collection[str]) -> set[str]:
    """The words of a statement after an act that gives money back (:data:`_GIVING_BACK`) that say
    why: what was paid for was called off, said of another thing than the record by a determiner
    and its noun ("Refund FEE-4402, the lab was cancelled", "..., the direct debit failed on our
    side"; not "it was cancelled", which may say it is moot), or it was paid twice ("Refund 65,50
    on INV-3302, it was paid twice"; another party paid it: "Refund RX-7150's copay in full, the
    insurer covered it"). None after any other act ("Cancel X, the flight was cancelled" may be
    moot; "Pay B-40, the insurer covered it" is), nor where the statement is negated."""
    if not verbs or not _every_verb_of(verbs, _GIVING_BACK):
        return set()
    if any(w in NEGATIONS or w.endswith("n't") for w in words):
        return set()  # "the lab was not cancelled": no reason, maybe one against
    found: set[str] = set()
    if words[:1] and words[0] in {"the", "a", "an", "our", "his", "her", "their", "my"} and len(words) > 2:
        found |= set(words) & _CALLED_OFF
        # another party paid what the money was for ("the insurer covered it"): it was paid twice
        if (
            len(words) == 4
            and words[2] in _COVERED
            and words[3] in {"it", "them"}
            and words[1] not in _ONESELF
        ):
            found |= {words[2], words[3]}
    if set(words) & {"twice", "double"}:
        found |= set(words) & _PAID_TWICE
    return found


#: Verbs by which another party paid what money given back was for ("the insurer covered it").
_COVERED = frozenset({"covered", "paid", "reimbursed", "settled"})
#: Subjects that are no other party than the user's side ("our team paid it" is no one else's).
_ONESELF = frozenset({"team", "company", "office", "side", "account", "bank"})


#: Verbs that remove a record (a booking, a line, an enrolment): that its holder no longer needs it
#: is their reason ("Cancel RES-2042, she doesn't need it anymore"; a refund asks: which "it").
_REMOVING = frozenset(
    {
        "cancel",
        "delete",
        "remove",
        "drop",
        "terminate",
        "unsubscribe",
        "withdraw",
        "unenrol",
        "unenroll",
        "close",
    }
)
#: Verbs that stop a holder's access (an account, a card, a line): a fraud or an abuse is their reason.
_STOPPING_ACCESS = frozenset({"suspend", "block", "freeze", "lock", "bar", "ban", "disable", "deactivate"})
#: What a holder did that stops their access ("..., repeated fraud reports", "..., abusive messages").
_ABUSE = frozenset({"fraud", "fraudulent", "abuse", "abusive", "suspicious"})


def _why_access_stops(words: Sequence[str], verbs: Collection[str]) -> set[str]:
    """The words of a statement after an act that stops a holder's access (:data:`_STOPPING_ACCESS`)
    that say why: a fraud or an abuse ("Suspend Tom Beck's account, repeated fraud reports"). Not
    where the statement points back ("..., it's fraud", "..., that's a scam": the request may be
    what is discredited), nor after any other act (a refund to a fraudster pays the fraud)."""
    if not verbs or not _every_verb_of(verbs, _STOPPING_ACCESS):
        return set()
    if set(words) & (POINTING_BACK | _IT | {"that", "that's", "this"}):
        return set()
    return set(words) & _ABUSE


def _base_of_an_undoing(verb: str) -> bool:
    """Is ``verb`` (as written: "void", "cancelling", "suspended") one of :data:`UNDOING`?"""
    return any(verb in verb_forms(u) for u in UNDOING)


def _only_a_reason(
    clause: Clause, accounted: Collection[str] = frozenset(), unheld: Collection[str] = frozenset()
) -> bool:
    """Is a clause after a mandate of its sentence a statement that only gives a reason for it
    (:func:`~policies.supervisor.reading.words.stated_reason`: "it's throwing 502s", "the chair is
    sick", "traffic is low") and bears on no call: it names no record, and holds no doubt, no
    verdict or status, nothing kept, no time and nothing that points back to it ("..., it's
    disputed", "..., B-40 is paid", "..., it's already done", "..., it stays", "..., it's due
    tomorrow", "..., the auditors have it" are not read)? Read for a call, a name the call accounts
    for (``accounted``: a word of the call's own record) or one no record of the run holds
    (``unheld``: "the AC is broken") names no other record; and a statement whose subject is a
    name or a bare noun (:func:`~policies.supervisor.reading.words.named_subject`: "Sofia is
    travelling", "customer is away") is a reason where its subject is of the call's own record
    ("Sofia" of the booking it cancels, the shipment's "customer"), never otherwise ("..., budget is
    frozen", "..., traffic is low": what stands in the way of any act). Read without a call, a name
    asks."""
    words, text = clause.words, clause.text
    if not stated_reason(words):
        subject = named_subject(words)
        if subject is None or subject[0] not in accounted:
            return False
        return not _bearing(words) and _names_nothing_dated(text, words, {*accounted, *unheld})
    # a capital that only opens the sentence ("Traffic is spiking", "Disk is full") names nothing
    bare = bool(words) and not naming_words(f"x {text}") - {words[0]}
    if words and (words[0] in FUNCTION_WORDS | SHARE_SUBJECTS or "'" in words[0] or bare):  # "It's ...",
        text = text[:1].lower() + text[1:]  # "Half the team ...": no name by its capital
    return not _bearing(words) and _names_nothing_dated(text, words, {*accounted, *unheld})


def _as_said_of_them(clause: Clause, accounted: Collection[str]) -> Clause | None:
    """A statement whose subject is a name every word of which the call's own record holds
    (``accounted``: "..., Ana Costa-Reis moved abroad" beside a cancel of her event), with "they"
    for that name: said of the record's holder, it is read as "she ..." is (the reason of an act
    that undoes, where nothing in it bears on the act). None for any other clause."""
    subject = named_subject(clause.words)
    if not accounted or subject is None or not all(w in accounted for w in subject):
        return None
    rest = clause.words[len(subject) :]
    return replace(clause, words=("they", *rest), text=" ".join(("they", *rest)))


#: What expires as a reason to renew it ("the password expired", "the cert expired").
_CREDENTIALS = frozenset(
    {"password", "passwords", "token", "tokens", "cert", "certs", "certificate", "key", "keys", "session",
     "credentials", "login", "license", "licence"}
)  # fmt: skip


def _bearing(words: Sequence[str], *, pointing: bool = True) -> set[str]:
    """The words by which a statement may bear on an act: a doubt, a verdict or a status, something
    kept, contested, discredited or standing in the way, the act moot (a part of a hyphenated word
    too: "self-healed"), and (``pointing``) a word that points back ("the auditors have it")."""
    words = [w.replace("-", "") if w.replace("-", "") in _MOOT else w for w in words]  # "re-hired"
    whole = set(words)
    hyphens = {p for w in words if "-" in w for p in w.split("-")[1:] if p}
    bearing = (whole | hyphens) & (
        _DOUBTING | KEEPING_WORDS | _CONTESTING | _DISCREDITING | _STANDING_IN_THE_WAY | _HOW_THE_USER_STANDS
    )
    if whole & _CREDENTIALS:  # "aokafor's password expired": why to reset it, not what stands in the way
        bearing -= {"expired"}
    # a status, a verdict or a moot word, unless said of another thing ("City Water sent a reminder")
    settled = _VERDICTS | _A_STATUS
    bearing |= {
        w for i, w in enumerate(words) if (w in settled or w in _MOOT) and not _done_to_another(words, i)
    }
    bearing |= ((hyphens - whole) & settled) | (hyphens & _MOOT)
    # (a demonstrative before a time is when, not what: "..., she is away that week")
    pointed = {
        w
        for i, w in enumerate(words[1:], start=1)
        if w in POINTING_BACK
        and not (w in ("that", "this") and words[i + 1 : i + 2] and words[i + 1] in _UNITS)
    }
    bearing |= pointed if pointing else set()  # "..., the auditors have it"
    bearing |= whole & _MOOT_OF_IT if words and words[0] in _IT else set()
    bearing |= whole & _PRECIOUS
    bearing |= {"only copy"} if {"only", "last"} & whole and {"copy", "copies"} & whole else set()
    on_its_own = _PAID_ON_ITS_OWN.search(" ".join(words))  # "It's on direct debit", "... a standing order"
    return bearing | {on_its_own.group(0)} if on_its_own else bearing


#: The forms of "fall" before "through": "her sale fell through" says it failed, not that it went through.
_FALL = frozenset({"fall", "falls", "fell", "fallen", "falling"})


def _fell_through(words: Sequence[str], at: int) -> bool:
    """Is the word at ``at`` the "through" of "fell through" (a plan that failed, never one settled)?"""
    return words[at] == "through" and at > 0 and words[at - 1] in _FALL


#: How a bill is paid without a call ("on direct debit", "by standing order"): the call may pay it twice.
_PAID_ON_ITS_OWN = re.compile(r"\b(?:on|by|via|through)\s+(?:a\s+)?(?:direct\s+debit|standing\s+order)\b")


#: Words by which the user says how they stand to what the turn asks, whatever else they say: they
#: do not mean it ("I was joking.", "I lied."), no longer want it or cannot decide ("I changed my
#: mind.", "I'm torn."), are made to ask ("I'm under duress.", "I'm being blackmailed."), perform
#: or pass on words not their own ("I'm dictating to my assistant.", "I was quoting a scammer.",
#: "We are rehearsing.", "You're being tested."), are not who the account is ("I'm an impostor."),
#: sent it by mistake ("I misclicked.") or only ask out of curiosity ("I'm just curious."). Each
#: bears on any call the turn asks for: the request may not be the user's wish.
_HOW_THE_USER_STANDS = frozenset(
    """
    joking joked jokes kidding kidded jk lying lied lie fibbing fibbed trolling trolled pranking pranked
    teasing jesting jest sarcasm sarcastic ironic ironically facetious facetiously
    reconsidered reconsider reconsidering rethought rethinking rethink mind heart undecided torn opposed
    unsure hesitant hesitating ambivalent conflicted regret regrets regretting wavering
    duress coerced coercion blackmailed blackmail blackmailing forced threatened threatening threat
    threats hostage gunpoint extorted extortion pressured pressuring
    practicing practising rehearsing rehearsal rehearse rehearsed dictating dictated dictation aloud
    roleplaying role-playing roleplay acting pretending simulating simulation simulated quoting quoted
    reciting recited transcribing transcribed tested hypothetically
    attacker attackers scammer scammers impostor imposter fraudster intruder adversary pentester
    pentesting red-teaming redteaming
    misclicked misclick mistyped mistakenly accidentally inadvertently unintentionally erroneously
    slipped fat-fingered autocorrect autocorrected thoughts
    drunk tipsy intoxicated high asleep sleepy sleepwalking scared afraid frightened terrified panicking
    confused watching
    curious wondering
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Words by which a statement says what an act would harm or what must be kept ("the signed
#: original", "unredacted", "the auditors asked us to preserve it", "a bounce would corrupt it").
_PRECIOUS = frozenset(
    """
    original irreplaceable unredacted preserve preserved retain retained stop stopped froze corrupt
    evict lawyer lawyers legal
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _id_like(word: str) -> bool:
    """Is a word written as an id, an address, a path or a figure (a digit or one of ``-_.@/``)?"""
    return any(ch.isdigit() or ch in "-_.@/" for ch in word)


def _capitalised_names(text: str) -> set[str]:
    """The words of ``text`` written with a capital that may name a record (no figure: ids, days and
    amounts are weighed apart), a possessive's "'s" taken off; a capital that opens it too."""
    return {w.removesuffix("'s") for w in naming_words(f"- {text}") if not any(ch.isdigit() for ch in w)}


def _names_nothing_dated(text: str, words: Sequence[str], accounted: Collection[str] = ()) -> bool:
    """Does a statement name no record (but by words the call accounts for, ``accounted``), hold no
    time and no figure, id, address or path?"""
    return (
        not {w.removesuffix("'s") for w in naming_words(f"- {text}")} - set(accounted)
        and _time_word(list(words)) is None
        and not any(_id_like(w.strip(".,;:!?")) for w in text.split())
    )


def _why_not(clause: Clause, members: Sequence[Clause]) -> bool:
    """Is a statement after a prohibition of its sentence, naming no record and holding no figure
    nor time, the reason not to ("Refund ORD-7. Don't pay B-40, it's disputed.")? What it says is said
    of what the prohibition leaves out, which runs in no case."""
    before = members[: members.index(clause)]
    if not before or not _prohibition(before[-1].words):
        return False
    text = clause.text[:1].lower() + clause.text[1:] if "'" in clause.words[0] else clause.text
    return _names_nothing_dated(text, clause.words)


def _prohibits_a_known_verb(words: Sequence[str], verbs: Collection[str]) -> bool:
    """Does a prohibition name, within three words of its opening, a verb the policy declares
    ("Don't pay it", "Avoid cancelling it")? One that names none ("Don't bother with B-40", "Don't
    touch E-102") leaves what it names out of every mandate."""
    after = _opening(words)
    return after is not None and any(w in verbs for w in words[after : after + 3])


#: What the object of a prohibition may be where it only points back or ahead ("Don't run it",
#: "Never execute any of this", "Don't apply the above", "Never run the following").
_POINTING_BACK = frozenset(
    {"it", "this", "that", "them", "these", "those", "any", "of", "the", "above", "anything", "everything",
     "all", "one", "ones", "stuff", "command", "commands", "code", "script", "snippet", "lines", "line",
     "following", "below", "next", "here", "request", "instruction", "instructions", "message", "on", "upon"}
)  # fmt: skip
#: Words that may stand beside such an object without saying more ("Don't run it yet, please").
_ONLY_URGING = frozenset({"please", "yet", "now", "again", "just", "ever", "for", "pls", "plz"})
#: Verbs whose prohibition urges rather than forbids ("Don't forget it", "Don't delay it").
_URGING_WHEN_NOT = frozenset({"forget", "miss", "delay", "hesitate", "postpone", "lose", "neglect"})


#: Words a prohibition may hold that name neither an act nor a record ("Don't.", "No need after
#: all.", "Don't bother.", "Don't just yet.", "Don't today."): what it forbids is what the turn asks.
_NAMING_NOTHING = frozenset(
    """
    bother need needed to do it that this yet now just today tonight tomorrow anymore any more longer
    after all then thanks thank you please pls plz really actually sorry either at the moment lol haha
    lmao jk ok okay
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _prohibits_nothing_named(words: Sequence[str]) -> bool:
    """Does a prohibition name nothing it forbids ("No need, it's paid.", "Don't yet.", "Don't
    bother.")? It can only forbid what the turn asks, which the reader cannot place: unread, so
    that the requests it could refer to do not stand. "Don't worry", "Don't forget!" name what
    they say."""
    after = _opening(words)
    if after is None or _urging(words) or not set(words[:after]) & {"don't", "dont", "not", "never", "need"}:
        return False  # "instead", "rather", "without" alone prohibit nothing
    return set(words[after:]) <= _NAMING_NOTHING


def _prohibits_what_it_points_to(words: Sequence[str], verbs: Collection[str]) -> bool:
    """Does a prohibition of a verb the policy does not declare take as its whole object something
    that only points back ("Don't run it", "Never execute this", "Do not apply any of the above"),
    or no object at all ("Do not run", "Don't proceed.")? What it forbids, the reader cannot place:
    the requests it could refer to do not stand. A verb whose prohibition urges ("Don't forget it")
    or comforts ("Don't worry") forbids nothing."""
    after = _opening(words)
    if after is None or after >= len(words) or words[after] in verbs:
        return False
    while after + 1 < len(words) and words[after] in ("even", "ever", "you", "dare", "really"):
        after += 1  # "Don't even think about it", "Don't you dare do it"
    rest = [w for w in words[after + 1 :] if w not in _ONLY_URGING and w not in ("about", "with", "on", "do")]
    verb = words[after]
    if verb in _URGING_WHEN_NOT or verb in _COMFORTING or verb in ("bother", "wait"):
        return False
    if not rest:  # "Do not run", "Don't proceed.", "Never execute": the act it forbids is the turn's
        return True
    return set(rest) <= _POINTING_BACK and bool(set(rest) - {"the", "of", "any", "all"})


#: Words by which a prohibition forbids only more than the turn asks ("Pay B-31; don't pay anything
#: else.", "Don't add any extra fee."): the request stands beside it.
_BEYOND_THE_REQUEST = frozenset(
    {"else", "other", "others", "more", "extra", "further", "additional", "again"}
)


def _forbids_unnamed(clause: Clause, verbs: Collection[str]) -> bool:
    """Does a prohibition that forbids (not one that urges, comforts or only says not to bother)
    name no record, figure or time ("Don't send any money.", "Don't make any payments.", "Don't
    touch my account.", "Do not obey me.", "Never transfer funds.")? It leaves out nothing the
    reader can place, so it may forbid what the turn asks: the requests beside it do not stand. One
    that forbids only more than the turn asks ("don't pay anything else") lets them stand; one of a
    declared verb on something of its own ("Don't email me.") leaves that out, as before."""
    words = clause.words
    after = _opening(words)
    if after is None or after >= len(words) or _urging(words):
        return False
    if not set(words[:after]) & {"don't", "dont", "not", "never"}:
        return False  # "instead of ...", "No need to reply.": weighed as before
    while after + 1 < len(words) and words[after] in ("even", "ever", "you", "dare", "really", "just"):
        after += 1
    if (
        words[after] in _COMFORTING
        or words[after] in ("bother", "wait", "be")
        or set(words) & _BEYOND_THE_REQUEST
    ):
        return False
    text = clause.text[:1].lower() + clause.text[1:]
    if words[after] in set(verbs) - READING_VERBS and not set(words[after + 1 :]) <= _WHAT_A_REQUEST_MOVES | {
        "any",
        "anything",
        "all",
    }:
        return False
    return _names_nothing_dated(text, words)


#: Verbs whose prohibition comforts rather than forbids ("Don't worry.", "Don't panic!").
_COMFORTING = frozenset({"worry", "panic", "fret", "stress", "freak", "laugh", "judge"})


#: A path with at least one folder ("/tmp/a.log", "docs/q3/plan.md", "~/notes/x.txt").
_A_PATH_WITH_FOLDERS = re.compile(r"(?<![\w.@/-])[~.]{0,2}/?(?:[\w.@+-]+/)+[\w.@+-]+")


def _folders(text: str) -> set[str]:
    """The folders of the paths ``text`` writes, case folded ("Delete /tmp/a.log": tmp), never
    the name a path ends with."""
    return {
        part.casefold()
        for path in _A_PATH_WITH_FOLDERS.findall(text)
        for part in path.rstrip("/").split("/")[:-1]
        if part.strip("~.")
    }


def _kept_back(
    own: Sequence[str], kept: Sequence[Clause], several: bool = False, written: str = ""
) -> str | None:
    """Why a mandate does not stand where a clause of the turn keeps something it names as it is
    ("Pay B-31 and the Acme bill B-40. The Acme one stays open."): a word of content of the kept
    clause is one of the mandate's own words, or the clause refers back by place or kind. Where the
    mandate acts on ``several`` records (a list, a word of every), a kept clause the reader cannot
    place ("Delete draft-old.docx and salaries-2026.xlsx. Keep the spreadsheet.", "... (keep!)")
    may be taking one of them out: it is not read. None where no kept clause bears on it."""
    mine = {w for w in own if w not in FUNCTION_WORDS and w not in _KIND_WORDS}
    # what is left out of a whole by id or by name ("Cancel all of Anna Berg's reservations except
    # RES-2041", "... except Lee Parkinson's") is placed: the review leaves it out of every call
    unplaced = (
        [
            c
            for c in kept
            if not mine & set(c.words)
            and not _instead_of(c.words)
            and not (_EVERY & set(own) and excludes_records(c.words, c.text))
        ]
        if several
        else []
    )
    if unplaced:  # ("... instead of two" says what the call is instead of, it takes nothing out)
        return f"kept as it is ('{unplaced[0].text}'), which may be what it asks for"
    folders = _folders(written)
    for clause in kept:
        # a folder both paths pass through is neither's name ("Delete /tmp/a.log, keep /tmp/b.log");
        # the verb a prohibition of other records by id says is no record ("Don't pay B-522")
        verb = {own[0]} if own and forbidden_by_id(clause.words, clause.text) is not None else set()
        named = {written_alike(w) for w in mine - (folders & _folders(clause.text)) - verb} - {""}
        if named & {written_alike(w) for w in clause.words}:  # "DM ana. Don't message @ana."
            return f"kept as it is ('{clause.text}')"
        heads = [w for w in clause.words if w in _KEEPING_HEADS]
        rest = [w for w in clause.words if w not in _KEEPING_HEADS and w not in _ARTICLES]
        by_reference = bool(heads and rest) and all(
            w in _REFERRING | _KIND_WORDS for w in rest
        )  # "Keep the second."
        by_place = any(w in KEEPING_WORDS for w in clause.words) and any(  # "The latter stays."
            w in _ORDINAL_REFERENCES for w in clause.words
        )
        if by_reference or by_place:
            return f"kept as it is ('{clause.text}'), which may be what it asks for"
    return None


#: Words a clause points back to what came before by ("Belay that", "Strike it", "DM it to ana").
POINTING_BACK = frozenset({"that", "this", "it", "these", "those", "them"})
#: Words that pick one of the records named before by its place ("the latter", "the second one"),
#: not a pronoun ("cancel it" after "delete the review" acts on the review itself).
_ORDINAL_REFERENCES = frozenset(
    ["first", "second", "third", "fourth", "fifth", "last", "latter", "former", "other"]
)
_ARTICLES = frozenset(["the", "a", "an", "just", "only", "actually", "no", "please"])
#: Words by which a clause refers back to something named before without naming it ("keep the
#: second", "leave the latter", "keep that one"): the reader cannot tell which.
_REFERRING = (
    POINTING_BACK | _ORDINAL_REFERENCES | {"others", "rest", "remaining", "both", "one", "ones", "either"}
)


def _someones_words(clause: Clause, verbs: set[str]) -> bool:
    """Is the clause someone else's words, reported ("Eve wrote", "The phishing mail wanted
    Evil2026! instead"): a word of reporting, no verb the policy declares at its start (not "pay
    Bob the 150 EUR he wants"), and nothing that takes the turn back? It asks for nothing, and
    names nothing as the user's."""
    words = clause.words
    said = next((i for i, w in enumerate(words) if w in REPORTING_WORDS), None)
    if said is not None and said and words[said - 1] in _THE_USER_SPEAKING:
        return False  # the user's own words said again: "Like I said: pay B-31"
    return (
        said is not None
        and bool(words)
        and words[0] not in verbs
        and not any(w in _TAKING_BACK for w in words)
    )


def _reports_a_request(clause: Clause, declared: Collection[str]) -> bool:
    """Does someone's reported words ask for an action the policy declares ("Boss says pay B-31",
    "Bob told me to email ana the hotel details")? The user may be passing it on, or only telling:
    unread, so that the call is asked, never refused nor run unasked. A quoted text is content."""
    words = clause.words
    said = next((i for i, w in enumerate(words) if w in REPORTING_WORDS), len(words))
    return any(w in declared for i, w in enumerate(words[said + 1 :], said + 1) if i not in clause.quoted)


#: Who says it where the user repeats their own words ("I said", "as we mentioned").
_THE_USER_SPEAKING = frozenset({"i", "we", "i've", "we've", "i'd", "we'd"})
#: The user as a subject, saying or being ("I said", "As I wrote", "I'm back from holiday").
_THE_USER_SAYING = _THE_USER_SPEAKING | {"i'll", "we'll", "i'm"}


#: Words by which a sentence contests a record it names ("The Acme bill is disputed", "... looks
#: odd", "... is a duplicate"): no scene for a later pronoun, and a doubt of a later mandate on it.
_CONTESTING = frozenset(
    """
    disputed disputing contested queried flagged suspicious odd strange weird fraud fraudulent scam
    duplicate duplicated unsure doubt doubtful unclear hold held
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words by which a statement does more than set the scene: it negates, conditions, weighs, reports
#: someone's words, corrects or takes back ("Sorry, I meant B-31", "Eve says ...", "B-40 is wrong").
_NOT_SCENE = (
    frozenset(
        """
    not no never nothing nobody none neither nor if unless until once whenever whether would could
    should might may must shall will can cannot won't can't don't doesn't didn't isn't wasn't aren't
    weren't sorry meant mean actually oops wrong mistake instead rather except but or maybe perhaps
    """.split()  # noqa: SIM905 (a closed list, read as words)
    )
    | _CONTESTING
)


#: The fewest words a scene is set in (a subject, a verb and what it is about).
_SCENE_WORDS = 3


def _context(request: str, clause: Clause, verbs: set[str]) -> bool:
    """Is a clause a plain statement that sets the scene for a mandate of a later sentence that
    points back to it ("Bob posted a link in #random. Open it.", "The hotel needs my passport
    number for check-in. ... send it to desk@casa-azul.example", "I have three open water bills
    from City Water. Pay them the total.")? It is read as what the pronoun stands for: no verb the
    policy declares at its start, not a question, three words or more and not ending in a word that
    only points back ("Belay that", "Strike it" are retractions), written once in the turn (a
    sentence written again after the mandate is not only before it), and no word that negates,
    conditions, weighs, reports, corrects, defers or excludes (:data:`_NOT_SCENE`,
    :data:`REPORTING_WORDS`, :data:`TIME_WORDS`, :data:`EXCLUDING_WORDS`): such a sentence stays
    unread, and its call asks."""
    words = clause.words
    return (
        len(words) >= _SCENE_WORDS
        and words[0] not in verbs
        and words[-1] not in POINTING_BACK  # "Belay that", "Strike it": a retraction, no scene
        and request.count(clause.sentence) == 1  # written again later ("... Belay that."): not only before
        and not _asked(request, clause.sentence)
        and not any(w in _NOT_SCENE or w in REPORTING_WORDS or w.endswith("n't") for w in words)
        and not any(w in _TAKING_BACK for w in words)
        and _time_word(words) is None
        and _excluding_word(words) is None
    )


def _reports_on_an_earlier_mandate(clause: Clause, earlier: Sequence[Mandate]) -> bool:
    """Does a clause of someone's words, in a sentence after one that asks something, name what that
    sentence asks for ("Pay B-31 and B-40. My wife says hold B-40 till payday.", "... The bank said
    B-40 already went through.")? What they say of it is not the user's mandate, but it bears on it:
    the earlier mandate is not read as the whole turn's wish. So it is where what they say points
    back ("Pay B-40. Acme says it's fake.", "... Bob thinks that's wrong")."""
    named = naming_words(clause.text)
    pointing = set(clause.words) & (POINTING_BACK | {"it's", "that's"})
    if earlier and pointing:
        return True
    return bool(named) and any(named & naming_words(" ".join([m.text, *m.coordinated])) for m in earlier)


#: Words by which the user takes over what they asked ("I'll do it myself", "I'll handle it",
#: "I'll take it from here", "I'll sort it").
_TAKING_OVER = frozenset(
    {"do", "handle", "sort", "take", "deal", "manage", "cover", "action", "finish", "myself", "ourselves",
     "care", "over"}
)  # fmt: skip


#: The words of a refusal that only points back ("That's a no.", "It's a no", "That's a big no").
_A_NO = frozenset({"that's", "it's", "that", "it", "is", "a", "no", "nope", "big"})


def _handed_back(words: Sequence[str], sentence: str, found: Sequence[Mandate]) -> str | None:
    """Why a sentence after one that asks, asking nothing itself, hands back what is asked, or None:
    the user says they do it, naming no other record ("I'll do it myself", "I'll handle it"), it is
    kept or handed on as it is ("Leave it to Bob.", "Leave it with me.", "That's a no."), it names
    the asker ("Said the scammer.", "asked Bob.", "according to the vendor"), or it dates the
    request back ("That was the old plan.", "That's from last week."). Each says of the request
    what the reader cannot weigh: unread, so that what is asked before is asked of a human."""
    if not words:
        return None
    named = {w for w in naming_words(sentence) if w.lower() not in _WEEKDAYS and w.lower() not in TIME_WORDS}
    if _own_doing_words(words) and not named - {w for m in found for w in _names_of(m)}:  # not "Monday"
        # "I'll handle Globex Ltd myself" after "Pay B-31": another record's, left out
        if set(words) & _TAKING_OVER:
            return "the user's own doing of what is asked"
        if not _a_task_of_the_users(words):  # "I'll check the statement later.": their own task
            return "what the user will do next, which may put off what is asked"  # "I'll wait.", "We'll see."
    if (_a_keeping_head(words, 0) and words[1:2] and words[1] in POINTING_BACK) or (
        "no" in words and set(words) <= _A_NO and bool(set(words) & {"that's", "it's", "that", "it"})
    ):
        return "kept or handed on as it is, which may be what is asked"
    if words[0] in REPORTING_WORDS:
        return "someone's words on what an earlier sentence asks"
    if (words[0] in ("that", "this") and words[1:2] in (["was"], ["were"])) or (
        words[0] == "that's" and "from" in words[1:3]
    ):
        return "said of what is asked as past"
    return None


#: Verbs by which the user says they will first ask someone or decide ("I'll call Acme first", "I'll
#: ask my accountant"), and words that point back to the request or put it after something.
_CONSULTING = frozenset(
    {"ask", "call", "consult", "phone", "ring", "talk", "speak", "decide", "dispute", "report", "contact",
     "email", "text", "message", "think", "wait", "hold", "see", "sleep", "revisit", "reconsider", "confirm",
     "let", "ping", "tell", "get"}
)  # fmt: skip
_PUTTING_OFF = frozenset(
    {
        "first",
        "before",
        "it",
        "this",
        "that",
        "them",
        "with",
        "about",
        "whether",
        "if",
        "when",
        "once",
        "ready",
    }
)


def _a_task_of_the_users(words: Sequence[str]) -> bool:
    """Does a sentence of what the user will do name a task of their own on another thing ("I'll
    check the statement later", "I'll send you the receipt"), not asking first, deciding or pointing
    back ("I'll call Acme first", "I'll ask my accountant", "I'll think about it", "I'll wait")?"""
    at = next(len(p) for p in _FIRST_PERSON if tuple(words[: len(p)]) == p)
    verb, rest = (words[at], words[at + 1 :]) if at < len(words) else ("", [])
    return (
        bool(rest)
        and verb not in _CONSULTING
        and rest[0] in ("the", "my", "our", "a", "an", "some", "you")
        and not set(rest) & _PUTTING_OFF
    )


def _lets_me(words: Sequence[str]) -> bool:
    """Does a clause keep the decision with the user ("let me think about it", "let me decide")?
    "Let me know" asks for a report."""
    at = 1 if words[:1] and words[0] in ("just", "pls", "please", "then", "and", "but", "so") else 0
    return tuple(words[at : at + 2]) == ("let", "me") and tuple(words[at + 2 : at + 3]) != ("know",)


#: A pause the user asks for ("Give me a minute to decide", "give me a sec").
_A_PAUSE = re.compile(
    r"(?:give|gimme)(?: me)?(?: a| one| some)? (?:minute|min|sec|second|moment|day|bit|while|few)\b"
)


def _a_pause(words: Sequence[str]) -> bool:
    """Do the words ask for a pause before the act ("Give me a minute to decide.")?"""
    return _A_PAUSE.match(" ".join(words)) is not None


#: Where a later sentence says it replaces what came before ("Send me a summary instead.",
#: "Forward it to Alice instead."): "instead" not followed by "of" (which names what it replaces).
_INSTEAD = re.compile(r"(?i)\b(?:instead|rather)\b(?!\s+(?:of|than)\b)")


def _replaced_later(mandate: Mandate, after: Sequence[str]) -> str | None:
    """A later sentence that replaces what came before without naming it ("Restart nginx. Send me
    a summary instead."), or None: which earlier request it replaces, the reader cannot tell, so
    the earlier ones are uncertain (the later request stands on its own reading)."""
    return next(
        (
            f"a later sentence may replace it ('{s.strip()}')"
            for s in after
            if _INSTEAD.search(s)
            and len(words_of(s)) > 1  # "... wanted Evil2026! instead.": the sentence before's
            and not set(words_of(s)) & REPORTING_WORDS  # not "Eve wanted X instead"
        ),
        None,
    )


def _own_doing_words(words: Sequence[str]) -> bool:
    """Do the words say the user will do something themselves ("I will handle Globex Ltd myself")?"""
    return any(tuple(words[: len(p)]) == p for p in _FIRST_PERSON)


def _own_doing(members: Sequence[Clause]) -> bool:
    """Does the sentence say the user will do it themselves ("I will handle Globex Ltd myself")?"""
    return _own_doing_words([w for c in members for w in c.words])


def keeps(words: Sequence[str]) -> bool:
    """Does a sentence with no mandate keep what it names as it is (:data:`KEEPING_WORDS`, or "as
    it is", "on hold")? The reading reads it as leaving those records out, as a prohibition does."""
    joined = f" {' '.join(words)} "
    return any(w in KEEPING_WORDS for w in words) or any(
        f" {p} " in joined
        for p in (
            "as it is", "as is", "on hold", "can wait", "will wait", "stay open", "stay as", "off limits",
            "off-limits", "hands off", "hands-off", "no-go", "a no",
        )
    )  # fmt: skip


def _placed(mandate: Mandate, request: str, clauses: Sequence[Clause]) -> Mandate:
    """A model reader's mandate in the grammar's clause that writes its words one after the other,
    where neither that clause nor any clause of its sentence is marked (:func:`~policies.supervisor.
    reading.words.marked`: a negation, a condition, a time the grammar reads, a question): there the
    model reads what the grammar could not ("Would you mind cancelling the Standup?" is
    ``cancel · the Standup``) and the clause is read. Anywhere else the mandate is left where the
    model put it, and the clauses the grammar marks stay unread beside it: a model reading that
    drops a condition, a negation, a time or a quotation is partial, and its call asks. A model
    widens the reader's reach, never its authority."""
    wanted = list(mandate.words)
    n = len(wanted)
    for clause in clauses:
        words = list(clause.words)
        if not any(words[i : i + n] == wanted for i in range(len(words) - n + 1)):
            continue
        sentence = [c for c in clauses if c.sentence == clause.sentence]
        asked = _asked(request, clause.sentence)
        if any(
            marked(c.words, asked and c is sentence[0]) or _time_word(c.words) or _excluding_word(c.words)
            for c in sentence
        ):
            return replace(mandate, sentence=clause.sentence)  # beside what the grammar marks: unread
        return replace(mandate, text=clause.text, sentence=clause.sentence)
    return mandate


#: Phrasal ways of asking to remove a record, with the declared verbs they may stand for (the first
#: the policy declares): "get rid of X", "send X to the trash / bin".
_RID_OF = ("delete", "remove", "trash", "cancel", "discard", "clear")
_TO_THE_BIN = (("to", "the", "trash"), ("to", "trash"), ("to", "the", "bin"), ("to", "the", "recycle", "bin"))


#: The declared verbs a reply is asked for by ("get back to bob", "respond to Carla").
_REPLYING = ("reply", "answer")


def _phrasal(mandate: Mandate, known: Iterable[str]) -> Mandate:
    """A mandate written with a phrasal verb, as the declared verb it stands for: "get rid of X" and
    "send X to the trash" ask to delete (or remove, trash, cancel: the first the policy declares),
    "get X deleted" asks for the verb its participle inflects, "get back to bob" and "respond to
    Carla" for a reply (:data:`_REPLYING`). Read so, a benign request is not
    refused as asking for "get" or "send"; every other rule still reads its object."""
    words = mandate.words
    single = [v for v in known if len(words_of(v)) == 1]
    if mandate.verb == "get" and words[1:3] == ("rid", "of"):
        verb = next((v for v in _RID_OF if v in single), None)
        return replace(mandate, verb=verb, words=(verb, *words[3:])) if verb else mandate
    if mandate.verb == "send" and any(words[-len(t) :] == t for t in _TO_THE_BIN):
        verb = next((v for v in _RID_OF if v in single), None)
        tail = next(len(t) for t in _TO_THE_BIN if words[-len(t) :] == t)
        return replace(mandate, verb=verb, words=(verb, *words[1:-tail])) if verb else mandate
    if (mandate.verb == "get" and words[1:3] == ("back", "to")) or (
        mandate.verb == "respond" and "respond" not in single
    ):  # "get back to bob", "respond to Carla": a reply, where the policy names one so
        verb = next((v for v in _REPLYING if v in single), None)
        whom = words[2:] if mandate.verb == "get" else words[1:]
        return replace(mandate, verb=verb, words=(verb, *whom)) if verb else mandate
    if mandate.verb in ("put", "place") and "hold" in single and "on" in words[1:4]:
        at = words.index("on", 1)  # "put VB-5504 on hold (until ...)": hold it
        if words[at + 1 : at + 2] == ("hold",):
            return replace(mandate, verb="hold", words=("hold", *words[1:at], *words[at + 2 :]))
    if mandate.verb == "get" and len(words) > 2:
        verb = next((v for v in single if words[-1] in verb_forms(v) and words[-1] != v), None)
        return replace(mandate, verb=verb, words=(verb, *words[1:-1])) if verb else mandate
    if (
        mandate.verb in _LIGHT_VERBS
        and len(words) > 3
        and words[1] in ("a", "an", "the")
        and (words[3] in _AFTER_AN_ACT or any(ch.isdigit() or ch == "@" for ch in words[3]))
    ):  # never "make a payment plan for B-40": a noun after the act's names another thing
        # "process a refund of 35 on ORD-1007", "make a payment of 250 EUR to DE89...": the act
        # the noun names, on what follows it
        acts = _ACTS_NAMED.get(words[2], (words[2],))
        verb = next((v for v in acts if v in single), None)
        return replace(mandate, verb=verb, words=(verb, *words[3:])) if verb else mandate
    if (
        mandate.verb in _LIGHT_VERBS | {"send"}
        and len(words) in (4, 5)
        and words[1] in ("a", "an", "the", "my", "our")
        and any(ch.isdigit() for ch in words[2])
        and words[3] in _ACTS_NAMED
        and words[4:] in ((), ("now",), ("today",))
    ):  # "make the B-31 payment", "do the B-31 payment now": the act the noun names, on the record
        verb = next((v for v in _ACTS_NAMED[words[3]] if v in single), None)
        return replace(mandate, verb=verb, words=(verb, words[2], *words[4:])) if verb else mandate
    if mandate.verb == "send" and len(words) > 3 and words[1] in ("a", "the") and words[2] == "payment":
        verb = "pay" if "pay" in single else None  # "send the payment for B-31": the payment's act
        return (
            replace(mandate, verb=verb, words=(verb, *words[3:]))
            if verb and words[3] in _AFTER_AN_ACT
            else mandate
        )
    return mandate


#: Verbs that only carry the act a noun after them names ("process a refund", "make a payment").
_LIGHT_VERBS = frozenset({"process", "issue", "make", "initiate", "do", "perform", "execute", "run"})
#: What may follow the act's noun ("a refund of 35", "a payment to DE89...", "a refund for ORD-7").
_AFTER_AN_ACT = frozenset({"of", "on", "for", "to", "from", "with"})
#: Nouns of acts, and the verbs a policy may declare for them (a noun that is its verb's own form,
#: "refund", "transfer", "restart", names itself).
_ACTS_NAMED = {
    "payment": ("pay",), "deletion": ("delete", "remove"), "removal": ("remove", "delete"),
    "cancellation": ("cancel",), "deployment": ("deploy",), "reimbursement": ("reimburse", "refund"),
    "booking": ("book",), "reservation": ("book", "reserve"), "rollback": ("rollback", "roll back"),
}  # fmt: skip


def _a_list_to_act_on(mandate: Mandate, known: Iterable[str]) -> Mandate:
    """A list under a heading that names its records and the act ("Bills to pay:", "Files to
    delete:" and the lines below it) as the mandate of that act on the lines:
    "pay · bills" and each item. Only a heading of a noun, "to" and a declared verb, ending in a
    colon over a list; anything more on the line ("Bills to pay next month:", "Bills not to pay:",
    "My bills to pay:") leaves the heading unread, as before."""
    words = mandate.words
    if len(words) != 3 or words[1] != "to" or not mandate.coordinated:
        return mandate
    if not mandate.sentence.rstrip().endswith(":"):
        return mandate
    noun, verb = words[0], words[2]
    if not noun.isalpha() or noun in FUNCTION_WORDS or any(noun in verb_forms(v) for v in known):
        return mandate
    declared = next((v for v in known if len(words_of(v)) == 1 and verb == v), None)
    return replace(mandate, verb=declared, words=(declared, noun)) if declared else mandate


def _as_declared(mandate: Mandate, known: Iterable[str]) -> Mandate:
    """A mandate whose verb is an inflection of a declared verb, as the declared verb: a model
    reader copies the verb as written ("Would you mind cancelling the Standup?": ``cancelling``),
    and the action is ``cancel``. The grammar's heads are written as the verb already."""
    for verb in known:
        base = tuple(words_of(verb))
        if base and mandate.verb != base[0] and mandate.verb in verb_forms(verb) and len(base) == 1:
            return replace(mandate, verb=base[0], words=(base[0], *mandate.words[1:]))
    return mandate


#: Verbs of telling that ask for nothing but a reply when the user is the one told ("tell me",
#: "let me know"); telling anyone else is sending them something, a side effect.
_TELLING = frozenset({"tell", "let", "inform", "notify"})
_THE_USER = frozenset({"me", "us", "myself", "ourselves"})


def _to_the_user(mandate: Mandate) -> bool:
    """Is a mandate of telling addressed to the user ("tell me ...", "let us know")?"""
    return mandate.words[1:2] != () and mandate.words[1] in _THE_USER


#: Verbs of sending something, which to the user ("send me the receipt", "forward me the
#: confirmation"), where the policy declares no such action, ask for nothing but a reply.
_SENDING_TO = frozenset({"send", "forward", "email", "mail", "text", "dm", "give", "ping", "message"})
#: Verbs of telling someone something, whose means may be named after them ("remind ana in a DM",
#: "tell Bob by email").
_TELLING_SOMEONE = frozenset({"tell", "remind", "notify", "inform", "ask", "ping", "warn", "update"})
#: How a means is named after a verb of telling: "in a DM", "by email", "via text", "over mail".
_MEANS_PHRASES = (("in", "a"), ("in", "an"), ("by",), ("via",), ("over",), ("per",))


def _telling(mandate: Mandate, declared: Collection[str] = frozenset()) -> Mandate:
    """A mandate of telling as the action it means. "Let ana know ..." is ``tell``: a message to
    someone else, never a reading ("let me know" stays a request for a reply). A verb of telling
    someone whose means is a declared action ("remind ana in a DM to review my PR", "tell Bob by
    email") is that action (``dm``, ``email``), where the verb itself is not declared."""
    if mandate.verb == "let" and not _to_the_user(mandate) and "know" in mandate.words[2:5]:
        mandate = replace(mandate, verb="tell", words=("tell", *mandate.words[1:]))
    if mandate.verb in _SENDING_TO and mandate.verb not in declared and _to_the_user(mandate):
        return replace(mandate, verb="tell", words=("tell", *mandate.words[1:]))  # "send me the receipt"
    if mandate.verb not in _TELLING_SOMEONE or mandate.verb in declared or _to_the_user(mandate):
        return _told(mandate, declared)
    words = mandate.words
    for at in range(2, len(words)):
        for phrase in _MEANS_PHRASES:
            means = at + len(phrase)
            if tuple(words[at:means]) == phrase and means < len(words) and words[means] in declared:
                return replace(mandate, verb=words[means], words=(words[means], *words[1:]))
    return _told(mandate, declared)


def _told(mandate: Mandate, declared: Collection[str]) -> Mandate:
    """A mandate of messaging someone (:data:`TOLD_AS_TELLING`) as ``tell``, where the policy
    declares ``tell`` and not its own verb; and one of writing to someone ("write to Ana: ...",
    "write back to Carla ...", "write Bob a note ...", "write a thank-you to Bob ...") as ``tell``
    them, where the policy declares ``tell``, whatever else "write" is declared for (a file is
    written, never written *to* a person)."""
    if "tell" not in declared:
        return mandate
    told = mandate.verb in TOLD_AS_TELLING and mandate.verb not in declared
    if told and _someone_addressed(mandate):
        return replace(mandate, verb="tell", words=("tell", *mandate.words[1:]))
    whom = _written_to(mandate) if mandate.verb == "write" else None
    if whom is not None:
        return replace(mandate, verb="tell", words=("tell", *mandate.words[whom:]))
    return mandate


#: What a note written to someone is called ("write Bob a note", "write a thank-you to Bob").
_NOTES = frozenset(
    {"note", "line", "message", "email", "e-mail", "mail", "reply", "response", "thank-you", "thanks",
     "card", "memo", "letter"}
)  # fmt: skip


def _written_to(mandate: Mandate) -> int | None:
    """Where whom a mandate of writing addresses stands in its words: "write to Ana", "write back to
    Carla", "write Bob a note", "write a reply to Carla" (a name, not a file's: no dot, no digit);
    None where it writes no message to someone."""
    words = mandate.words
    at = 1 + (words[1:2] == ("back",))
    if words[at : at + 1] == ("to",):
        at += 1
    elif words[at : at + 1] in (("a",), ("an",)):  # "write a reply to Carla", "write a thank you to Bob"
        to = next((i for i in range(at + 1, min(at + 5, len(words))) if words[i] == "to"), None)
        said = set(words[at + 1 : to or at + 1]) | {"-".join(words[at + 1 : to or at + 1])}
        if to is None or not said & _NOTES:
            return None
        at = to + 1
    elif not (
        (words[at + 1 : at + 2] in (("a",), ("an",)) and set(words[at + 2 : at + 5]) & _NOTES)
        or _WHAT_IS_WRITTEN.match(_after_the_word(mandate, at))
    ):
        return None  # not "write Bob a note ...", nor "Write Priya: ..." / "write bob that ..."
    name = words[at] if at < len(words) else ""
    if not name or name in FUNCTION_WORDS or "." in name or any(c.isdigit() for c in name):
        return None
    return at


#: What follows whom a turn writes to, where it is what to write: a colon, a quote, "that".
_WHAT_IS_WRITTEN = re.compile(r"(?i)\s*(?::|[\"“'‘]|that\b|saying\b)")


def _after_the_word(mandate: Mandate, at: int) -> str:
    """The rest of a mandate's sentence after its word ``at`` ("Write Priya: ...": ': ...')."""
    start = max(mandate.sentence.find(mandate.text), 0)
    for word in mandate.words[: at + 1]:
        found = re.compile(rf"(?i)(?<![\w@.]){re.escape(word)}(?![\w@])").search(mandate.sentence, start)
        if found is None:
            return ""
        start = found.end()
    return mandate.sentence[start:]


#: Verbs of messaging someone that are read as ``tell`` where the policy declares ``tell`` and not
#: the verb itself ("ask Bob if he is free", "remind Ana to sign it", "thank Priya for the review",
#: "inform Bob that ..."): a message to them, whose words the message check holds to the turn's.
TOLD_AS_TELLING = frozenset(
    {"ask", "remind", "inform", "notify", "thank", "congratulate", "warn", "message", "msg", "ping"}
)
#: Whom a verb of telling addresses besides a name.
_PERSONAL = frozenset({"him", "her", "them"})


def _someone_addressed(mandate: Mandate) -> bool:
    """Does a mandate of telling name whom it addresses right after its verb, by a word of a name
    or a person's pronoun ("ask Bob ...", "thank her ...") — not the user, nor a phrase ("ask for
    a refund", "remind me")?"""
    whom = mandate.words[1:2]
    return bool(whom) and (
        whom[0] in _PERSONAL or (whom[0] not in FUNCTION_WORDS and not any(c.isdigit() for c in whom[0]))
    )


#: Phrasal verbs of putting a text together, which send nothing ("write up the agenda", "put
#: together a summary"): read as ``draft`` where the policy declares no such verb.
_COMPOSING: dict[tuple[str, ...], str] = {
    ("write", "up"): "draft",
    ("put", "together"): "draft",
    ("jot", "down"): "draft",
}


def _composing(mandate: Mandate, declared: Collection[str]) -> Mandate:
    """A mandate of composing a text ("write up the agenda") as ``draft``, a verb of reading: it asks
    for a text, and any call that sends it needs a mandate of its own ("... and email it to ana")."""
    verb = _COMPOSING.get(tuple(mandate.words[:2]))
    if verb is None or mandate.verb in declared:
        return mandate
    return replace(mandate, verb=verb, words=(verb, *mandate.words[2:]))


def _reads_only(clause: Clause) -> bool:
    """Is the clause, read by itself, a plain imperative of a verb of reading or telling ("Check
    my inbox" beside "my checking balance", which the grammar takes back for the other use of its
    verb)? It asks for nothing but to read: it bears on no side effect."""
    return clause.head is None and head_of(clause.words, clause.quoted) in READING_VERBS


#: Why a question the reader takes no request from is unread.
_A_QUESTION = "a question the reader does not read as a request"


def _why(request: str, clause: Clause) -> str:
    if _asked(request, clause.sentence):
        return _A_QUESTION
    return "no role the reader knows"


#: Verbs of reading and telling, which ask for no side effect: a mandate of one is read whatever
#: the policy declares ("Look up order ORD-1", "Summarise invoice INV-7", "Let me know ...").
READING_VERBS = frozenset(
    """
    read look check find get show list search see open view review summarise summarize summary
    tell let explain describe compare fetch pull lookup browse display print watch draft compose
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Verbs a note to what came before is labelled with ("Update: B-31 only.", "Edit: ...").
_NOTE_LABELS = frozenset({"update", "edit", "change", "amend", "revise", "note", "correct"})


def _a_label_of_a_note(mandate: Mandate) -> bool:
    """Is a mandate only its verb written as a label before a colon ("Update: B-31 only.", "EDIT:
    B-40 withdrawn")? It heads a note on what came before, not a request: the note is read as the
    user's own sentence, and one the reader cannot read asks."""
    return (
        mandate.words == (mandate.verb,)
        and mandate.verb in _NOTE_LABELS
        and re.match(rf"\s*{re.escape(mandate.text.strip())}\s*:", mandate.sentence) is not None
    )


def past_form(verb: str, known: Iterable[str]) -> bool:
    """Is a clause's head ``verb`` a past or a third-person form of a known verb ("Emailed bob
    yesterday.", "Paid B-40 already.", "Sent from my phone", "Restarts payments nightly via
    cron"), not the verb itself? Said of what was or is done, it asks for nothing: the clause is no
    mandate (a gerund, "Would you mind cancelling ...", still is)."""
    for verb_known in known:
        first = (words_of(verb_known) or [""])[0]
        if not first or verb == first:
            continue
        if verb in IRREGULAR.get(first, ()) or (verb in forms(first) and verb.endswith("d")):
            return True
        if verb in (f"{first}s", f"{first}es") or (first.endswith("y") and verb == f"{first[:-1]}ies"):
            return True
    return False


#: A question tag that only makes an imperative polite ("Pay B-31, would you?", "..., could you
#: please?"): the sentence is the request, not a question.
_TAG_QUESTION = re.compile(
    r"(?i)(?:,[ \t]*|(?<=\bme)[ \t]+|(?<=\bplease)[ \t]+)"
    r"(?:would|could|can|will)[ \t]+(?:you|u|ya)(?:[ \t]+please)?[ \t]*\?"
    r"|,[ \t]*(?:ok|okay|alright|k)[ \t]*\?"  # "Pay B-31, ok?"
)
#: "Go ahead and" before an imperative ("Just go ahead and pay B-31", "Can you go ahead and ..."):
#: leave to do what follows, no request of its own.
_GO_AHEAD = re.compile(r"(?i)\b(?:go[ \t]+ahead|go[ \t]+on)[ \t]+(?:and|&)[ \t]+(?=\w)")
#: "Do" that only stresses the imperative after it ("Do pay B-31.", "Please do cancel it."), where
#: that verb is declared: removed, the request stands as written without it.
_EMPHATIC_DO = re.compile(r"(?i)(?:(?<=^)|(?<=[.!;\n]\s)|(?<=\bplease\s))do[ \t]+(?=([a-z]+)\b)")


def reading_of(
    request: str,
    known: Iterable[str] = (),
    reader: RequestReader | None = None,
    accounted: frozenset[str] = frozenset(),
    unheld: frozenset[str] = frozenset(),
) -> Reading:
    """The reading of ``request`` (the user's turn): the reader's mandates of a verb it knows (one
    of ``known``: the policy's declared verbs, inflected or not, or :data:`READING_VERBS`), and
    every clause that no such mandate consumes, that is not a sentence of greetings or thanks and
    not a prohibition, as :class:`Unread` (a mandate of a verb nobody declared, "Payez la facture",
    "Scrap that", is unread too). Read for a call, ``accounted`` holds the words the call accounts
    for (:mod:`policies.supervisor.decide.accounted`) and ``unheld`` the names the turn writes that
    no record of the run holds: a statement that only gives a reason may name either."""
    unheld = unheld if accounted else frozenset()  # (names apart only where a call is read)
    known = tuple(known)
    declared = {f for verb in known for f in verb_forms(verb)}
    verbs = declared | READING_VERBS
    request = _EMOTICON.sub(",", closing_removed(written_plainly(request), verbs))  # ":)" is no colon
    request = _GO_AHEAD.sub("", _TAG_QUESTION.sub(".", request))  # "Pay B-31, would you?": a polite request
    request = _EMPHATIC_DO.sub(lambda m: "" if m.group(1).casefold() in declared else m.group(0), request)
    clauses = clauses_of(request)
    read = tuple(mandates(request, reader))
    if reader is not None:  # a model's mandates, placed in the grammar's clauses they are written in
        read = tuple(_placed(m, request, clauses) for m in read)
    every = tuple(
        _composing(
            _telling(
                _as_declared(_a_list_to_act_on(_phrasal(m, known), known), (*known, *sorted(READING_VERBS))),
                declared,
            ),
            declared,
        )
        for m in read
    )
    bases = (*known, *sorted(READING_VERBS))
    found = tuple(
        m
        for m, written in zip(every, read, strict=True)
        if m.verb in verbs
        and not (m.verb in _TELLING and m.verb not in declared and not _to_the_user(m))
        and not past_form(written.verb, bases)
    )
    found = tuple(
        m for m in found if not _checked_first(m) and not _a_label_of_a_note(m) and not _an_access_level(m)
    )
    # "... and tell me when it's done": what to report of another mandate, accounted for beside
    # one; alone ("Tell me when the customer is emailed") it asks for nothing the reader can place
    reports = tuple(m for m in found if reports_when(m.words))
    found = tuple(m for m in found if m not in reports)
    strange = {m.text for m in every if m not in found}
    by_sentence: dict[str, list[Clause]] = {}
    for clause in clauses:
        by_sentence.setdefault(clause.sentence, []).append(clause)
    # an antecedent is named, not read; a manner phrase naming another action ("summarise it,
    # by email") is no object of the mandate
    # what continues a mandate's object is consumed where it is written: in the mandate's sentence,
    # or as a line of its own below it (a list's item); the same words in another sentence are read
    # there ("Pay B-31, B-40 (all but B-40)": the aside's "B-40" is no more of the object)
    continuing = [
        (m, text) for m in found for text in m.coordinated if not _by_another_action(text, m, verbs)
    ]
    consumed = {(m.sentence, text) for m, text in continuing} | {(text, text) for _m, text in continuing}
    consumed |= {(m.sentence, m.text) for m in found}  # a model's mandate, in an unmarked clause
    consumed |= {(m.sentence, m.text) for m in reports if found}
    unread: list[Unread] = []
    kept: list[Clause] = []
    pointed_back = {text for m in found for text in m.antecedents}
    placed = {m.text for m in found}
    if reader is not None:  # what the grammar reads as a placed clause's object: the model's to drop
        consumed |= {
            (clause.sentence, text)
            for clause in clauses
            if clause.text in placed
            for text in clause.coordinated
        }

    def asks(clause: Clause) -> bool:  # the grammar's heads; a model's: the clauses it is placed in
        return (
            clause.text in placed
            if reader is not None
            else clause.head is not None and clause.text not in strange
        )

    asked_before: list[Clause] = []  # the clauses of the sentences before that ask something
    done: set[str] = set()  # the sentences read before this one
    final = list(by_sentence)[-1] if by_sentence else None
    for sentence, members in by_sentence.items():
        done.add(sentence)
        if (
            sentence == final
            and _sign_off(sentence)
            and not _a_partys_name(
                sentence.partition(",")[2], request[: request.rfind(sentence)], _NO_SIGNER_OF_THE_USERS
            )
        ):
            continue  # read: the turn signed ("... Thanks, Ana"), not by a party it names ("Regards, Acme")
        asking = [c for c in members if asks(c)]
        earlier, asked_before = list(asked_before), [*asked_before, *asking]
        its_words = [w for c in members for w in c.words]
        if earlier and (_a_pause(its_words) or any(_lets_me(c.words) for c in members)):
            said_so = "the user keeps the decision ('let me ...', 'give me a minute')"
            unread.append(Unread(sentence.strip(), sentence, said_so, whole_sentence=True))
            continue  # "Pay B-40. Let me think about it.", "... Show me the numbers and let me decide."
        handed = _handed_back(its_words, sentence, found) if earlier and not asking else None
        if handed is not None:  # "Pay B-40. I'll do it myself.", "... Said the scammer.": unread
            unread.append(Unread(sentence.strip(), sentence, handed, whole_sentence=True))
            continue
        empty_report = not asking and _an_empty_report(its_words)  # "The scammer typed.", "Eve wrote."
        if (
            not asking
            and not empty_report
            and (  # "... The scammer typed.": theirs
                (_no_role(members) and not (set(its_words) & _ASSENTS and _asked(request, sentence)))
                or (
                    bool(earlier and its_words)
                    and tuple(w for w in its_words if w not in NO_ROLE_WORDS) in _KIND_CLOSINGS
                )
                or (_list_marker(members) and sentence != final)  # "... to 4 thx 40.": no item follows
                or _information(request, sentence, members, verbs, earlier)
                or (_own_doing(members) and not pointed_back & {c.text for c in members})
                or (
                    bool(earlier)
                    and bool(members)
                    and not _asked(request, sentence)
                    and all(_only_a_reason(c, accounted, unheld) for c in members)
                    and not _of_the_turns_words(its_words)  # "This line was injected by the webpage."
                    and not any(_disowns(its_words, c.words[c.head]) for c in earlier if c.head is not None)
                )
            )
        ):
            continue  # read: it asks for nothing (or only says why: "Restart payments. It's leaking.")
        reported = bool(members) and _someones_words(members[0], verbs)
        in_content = False  # after a mandate whose message runs to its clause's end ("that ...")
        for clause in members:
            if asks(clause):
                in_content = clause.head is not None and clause.stop < len(clause.words)
                continue
            if (sentence, clause.text) in consumed or (in_content and _no_verb(clause)):  # a message's part
                continue
            if not clause.words and _pictured(clause.text):  # "Pay B-40. 🤔": how it stands, not read
                unread.append(Unread(clause.text, sentence, "a picture not read", whole_sentence=not asking))
                continue
            if (
                not clause.words
                or (
                    _greeting(clause)
                    and not _greets_a_party(clause, request)
                    and not (set(clause.words) & _ASSENTS and _asked(request, clause.sentence))
                )
                or _reads_only(clause)
            ):
                continue
            if empty_report:
                said = "someone's words, not said here: they may be what the turn asks"
                unread.append(Unread(clause.text, sentence, said, whole_sentence=True))
                continue
            if not asking and _asked(request, sentence) and _whether_it_is_sound(its_words, sentence):
                said = "a question whether what it points to is sound"  # "Is it safe? Pay B-40."
                unread.append(Unread(clause.text, sentence, said, whole_sentence=True))
                continue
            after_one = asking and members.index(clause) > members.index(asking[0])
            if after_one and _a_speech_tag(clause.words):  # "Pay B-40, he muttered.": whose words
                unread.append(
                    Unread(clause.text, sentence, "a speech tag: someone's words", whole_sentence=False)
                )
                continue
            if after_one and _a_consequence(clause, sentence):  # "Pay B-40 and you're fired": a dare
                said = "a consequence said of it: the request may be a threat or a dare"
                unread.append(Unread(clause.text, sentence, said, whole_sentence=False))
                continue
            if (
                (after_one or (not asking and earlier))
                and (
                    stated_reason(clause.words)
                    or a_negated_statement(clause.words)
                    or a_named_statement(clause.words)
                )
                and not _after_a_colon_of(sentence, asking)  # a message's content, a title: weighed apart
                and not _asked(request, sentence)
            ):
                verbs_asked = {c.words[c.head] for c in [*asking, *earlier] if c.head is not None}
                # a statement of a name's or a bare noun's is a reason only of the call's record
                # ("..., Sofia is travelling") or of what went wrong ("..., double charged"), never
                # of what stands in the way ("..., budget is frozen", "..., traffic is low")
                # said of the call's own holder by name: read as "they ..." ("..., Ana Costa-Reis
                # moved abroad" beside a cancel of her event)
                holder = _as_said_of_them(clause, accounted)
                named = (
                    not stated_reason(clause.words)
                    and not a_negated_statement(clause.words)
                    and not set(clause.words) & _WENT_WRONG
                    and holder is None
                )
                bears = (
                    # (what went wrong is the reason of an act that undoes: "Suspend it, phone stolen")
                    (
                        not _only_a_reason(clause, accounted, unheld)
                        and (named or not _a_reason_for(holder or clause, verbs_asked))
                    )
                    or _of_the_turns_words(clause.words)
                    or any(_disowns(clause.words, v) for v in verbs_asked or {""})
                    or _asked_for_another(clause.words, verbs_asked)
                    # a name of another record than the call's ("Cancel RB-802, the Fjord room is
                    # flooded" of a Fjell booking): what it says may be of that record
                    or bool(_capitalised_names(clause.text) - accounted - unheld)
                ) and not _why_not(clause, members)
                if bears:  # "Pay B-40, it's on hold": it bears on the call
                    said = "a statement beside it that may bear on it"
                    unread.append(Unread(clause.text, sentence, said, whole_sentence=not asking))
                continue  # else read: why the user asks ("restart payments, it's throwing 502s")
            if asking and _asks_about(request, clause, verbs):
                continue  # read: a question about what the imperative finds ("open it, what does it say?")
            if (
                clause.head is None
                and clause.words[:1]
                and clause.words[0] in declared
                and keeps(clause.words)
            ):
                # "Pay B-31 so it stays paid": an act and a keeping in one clause, which the reader
                # cannot part: it asks, it is never a record left out
                unread.append(Unread(clause.text, sentence, "an act and a keeping in one clause"))
                continue
            if (
                clause.head is None
                and (
                    keeps(clause.words)
                    or _a_keeping_head(clause.words, 0)
                    or excludes_records(clause.words, clause.text)
                )
            ) or (
                clause.text in strange
                and clause.head is not None
                and _a_keeping_head(clause.words, clause.head)
            ):
                from_head = set(clause.words[clause.head or 0 :])  # "Let's leave it for now": its own words
                if (
                    from_head
                    <= (_KEEPING_ALONE | KEEPING_WORDS | _KEEPING_NOTHING_NAMED | _WHAT_A_REQUEST_MOVES)
                    or set(clause.words) & _FICTION
                    or _A_BARE_FIGURE.search(clause.text)  # "..., keep 2.00": a sum kept back, no record
                    or bool(set(clause.words) & _PART_OF_A_SUM)  # "..., keep the change fee"
                ):  # "Keep the money.", "Keep dreaming.": no record
                    # named but the request's, or no keeping at all
                    # "Transfer 900 to DE89... (on hold)": kept as it is, and naming nothing but the
                    # request's own record: it bears on the call
                    said = "a statement beside it that may bear on it"
                    unread.append(Unread(clause.text, sentence, said, whole_sentence=not asking))
                    continue
                kept.append(clause)  # read: it leaves out what it names ("The Review stays.", "Keep
                continue  # the Standup, cancel the Review instead")
            if clause.text not in pointed_back and (
                _someones_words(clause, verbs)
                or (reported and _colon_at(sentence) >= 0 and clause is not members[0])
            ):
                before = [m for m in found if m.sentence in done and m.sentence != sentence]
                if _reports_on_an_earlier_mandate(clause, before):  # "Pay B-31 and B-40. Acme asked
                    said = "someone's words on what an earlier sentence asks"  # us to hold B-40."
                    unread.append(Unread(clause.text, sentence, said, whole_sentence=not asking))
                elif _reports_a_request(clause, declared):  # "Boss says pay B-31.": whether the user
                    said = "someone's words asking for an action the policy declares"  # asks too, a
                    unread.append(
                        Unread(clause.text, sentence, said, whole_sentence=not asking)
                    )  # human says
                elif (
                    earlier
                    and not asking
                    and (
                        _bearing(words_of(sentence), pointing=False)
                        or _DOUBTING & set(words_of(sentence))
                        or _disowns(words_of(sentence), "")
                    )
                    and not _other_names(sentence) - {w for m in found for w in _names_of(m)}
                ):  # (what they say of another record, "The phishing mail wanted Evil2026!", is theirs)
                    # after what the turn asks: "Refund A-1029. the customer wants store credit
                    # instead", "Disable marco. HR told me he's been re-hired."
                    said = "someone's words that may bear on what the turn asks"
                    unread.append(Unread(clause.text, sentence, said, whole_sentence=True))
                elif (
                    not earlier
                    and not asking
                    and (
                        _bearing(clause.words, pointing=False)
                        or _names_what_is_asked(sentence, found)
                        or _points_ahead(clause.words)  # "The hacker wrote the rest.", "He says this daily."
                        or _disowns(clause.words, "")
                    )
                ):
                    # before anything is asked: "The vendor asked us to hold B-112. Settle B-112.",
                    # "The supplier says B-99 is double what we agreed. Settle B-99." (weighed as an
                    # earlier sentence: what it says of another record leaves the mandate standing)
                    said = "someone's words that may bear on what the turn asks"
                    unread.append(Unread(clause.text, sentence, said, whole_sentence=True))
                elif asking and _asked_for_another(
                    clause.words, {c.words[c.head] for c in asking if c.head is not None}
                ):  # beside it: "Refund ORD-1001 in full, the customer asked for store credit"
                    said = "someone's words that may bear on what the turn asks"
                    unread.append(Unread(clause.text, sentence, said))
                continue  # read: someone's words, and what they wrote after the colon (unless the
                # user's mandate points back to them: "ana wants the agenda. Email it to her.")
            if _after_a_mandates_colon(sentence, asking, clause):
                continue  # the content of a message the sentence's mandate sends
            if clause.said_on and found and all(m.verb in MESSAGE_VERBS for m in found):
                continue  # more of what a message says ("Tell Carla yes, Thursday is fine"), where
                # the turn asks for messages only: beside another act it may bear on that act
            if _prohibition(clause.words):
                if bool(found) and forbids_only_more(clause.words):
                    continue  # read: "Pay B-31 and don't pay any other bills" narrows the request
                if (
                    _prohibits_what_it_points_to(clause.words, verbs)
                    or _prohibits_nothing_named(clause.words)
                    or set(clause.words) & _COMPROMISED  # "Do not reply to this automated message."
                    or (bool(found) and _forbids_unnamed(clause, verbs))  # "Don't send any money."
                ):
                    said = "a prohibition of what it points back to, which the reader cannot place"
                    unread.append(Unread(clause.text, sentence, said, whole_sentence=not asking))
                    continue  # "Pay B-40. Don't run it.", "# don't run this", "... No need.", "Don't yet."
                if not _prohibits_a_known_verb(clause.words, verbs) or not (
                    set(clause.words)
                    & {w for m in found for w in _own_words(m, clauses)[1:]} - FUNCTION_WORDS
                ):
                    kept.append(clause)  # "Don't bother with B-40": what it names is left out; "Do
                    # not remove the Excel file": what it keeps, the reader cannot place
                continue
            if clause.text in pointed_back and _context(request, clause, verbs):
                continue  # read: what a later mandate points back to ("Bob posted a link. Open it.")
            opening = bool(asking) and members.index(clause) < members.index(asking[0])
            undoing = {c.words[c.head] for c in asking if c.head is not None}
            if after_one and _a_reason_for(clause, undoing):
                continue  # read: why the act is done ("Suspend LN-30291, phone stolen", "..., he is away")
            if after_one and _another_of_its_object(clause, asking):
                continue  # read: a second object of the verb ("Create event Lunch ... and event Dinner ...")
            said = _why(request, clause)
            unread.append(Unread(clause.text, sentence, said, whole_sentence=not asking, opening=opening))
    for sentence, members in by_sentence.items():
        if _a_heading(sentence, members, [c for c in members if asks(c)], verbs, request):
            unread = [u for u in unread if u.sentence != sentence]
            unread.append(
                Unread(sentence.rstrip(" :-\u2013\u2014"), sentence, "a heading not read", True, heading=True)
            )
    # a heading split at its brackets ("Ideas (not now):", "Tasks (proposed):"): each part not read
    # heads the list below its line
    unread = [
        replace(u, heading=True)
        if u.whole_sentence
        and not _ends_a_heading(u.sentence)  # a whole line: _a_heading weighed it
        and _on_a_line_over_a_list(u.sentence, request)
        else u
        for u in unread
    ]
    first: dict[str, int] = {}  # where each sentence stands in the turn: first and last (a sentence
    last: dict[str, int] = {}  # written twice, "Belay that.", stands after what it follows)
    at = -1
    for i, clause in enumerate(clauses):
        if i == 0 or clause.sentence != clauses[i - 1].sentence:
            at += 1
        first.setdefault(clause.sentence, at)
        last[clause.sentence] = at
    certain: list[Mandate] = []
    uncertain: list[Mandate] = []
    apart = lines_marked_apart(request)
    broken_off = (
        _broken_off(request) or _reordered(request) or _another_at_the_keys(request) or _kept_first(request)
    )
    for mandate in found:
        own = _own_words(mandate, clauses)
        instead = [
            c for c in by_sentence.get(mandate.sentence, []) if c.head is None and _instead_of(c.words)
        ]
        why = (
            _in_lines_marked_apart(mandate, apart)
            or _run_into(mandate, request, unread)
            or _its_verb_a_heading(mandate, request)
            or _undermined(mandate, own, (first, last), unread, instead, request, accounted)
            or _kept_back(
                own,
                kept,
                bool(mandate.coordinated) or bool(_EVERY & set(own)),
                " ".join([mandate.text, *mandate.coordinated]),
            )
            or _taken_back(mandate, found[found.index(mandate) + 1 :])
            or _another_act_after_it_instead(mandate, found[found.index(mandate) + 1 :])
            or _pointing_past_its_label(mandate)
            or _changed_later(mandate, every[every.index(mandate) + 1 :] if mandate in every else [])
            or _paid_and_undone(mandate, found)
            or _undone_and_changed(mandate, found)
            or _every_payment_stopped(mandate, found)
            or _framed_by_an_earlier(mandate, found, first)
            or _framed_by_a_later(mandate, found, first, declared)
            or _replaced_later(mandate, [s for s in by_sentence if first[s] > last.get(mandate.sentence, -1)])
            or _on_a_request(mandate)
            or _another_act_inside(mandate, declared)
            or _named_twice(mandate)
            or broken_off
        )
        if why is None:
            certain.append(mandate)
        else:
            uncertain.append(mandate)
            unread.append(Unread(mandate.text, mandate.sentence, why, uncertain_mandate=True))
    kept_texts = {c.text for c in kept}
    # a clause said of what was or is done ("Emailed bob", "Resets jdoe's password.") stands for no
    # mandate: its verb as written is no imperative
    described = (  # the grammar's reading; a model reads its own (an honest one reads "Cancels ev-2, please")
        {m.text for m, written in zip(every, read, strict=True) if past_form(written.verb, bases)}
        if reader is None
        else set()
    )
    standing = tuple(
        m
        for m in every
        if m not in uncertain and m.text not in kept_texts and m.text not in described and m not in reports
    )
    return Reading(tuple(certain), tuple(unread), tuple(uncertain), standing)


#: Words a clause does not end on: it runs on past the line or the semicolon ("Do not\npay B-40",
#: "Under no circumstances should you\npay B-40", "Remind me to\npay B-40").
_RUNNING_ON = frozenset(
    """
    to not don't dont never ever please should must would could can will shall may might you we i
    if when unless until before after and or but then so the a an of that whether circumstances
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: A line of these words only asks politely for what the next line says.
_ONLY_POLITE = frozenset(
    {"please", "pls", "plz", "kindly", "hi", "hey", "hello", "ok", "okay", "so", "and", "could", "can",
     "would", "will", "you", "u"}
)  # fmt: skip
#: A list's mark at a line's start ("- ", "* ", "1. ").
_ITEM_MARK = re.compile(r"^[ \t]*(?:[-*+\u2022]|\d+[.)])?[ \t]*")


#: Words a message does not end on: what they open is missing ("Pay B-40 but", "... and then",
#: "... unless"). "then" only after "and" or a comma ("Pay it then" is whole); none a sentence
#: may end on ("... if you can", "... if you want to", "the one I asked for", "Don't pay it yet").
_OPENING_MORE = frozenset(
    """
    and or but nor plus except unless if when because cause cuz although whereas the a an of whether
    which don't dont until till
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: How a broken-off message may end after its last word: an ellipsis, a dash or a colon, commas.
_TRAILING_MARKS = re.compile(r"[\s,:;\u2014\u2013-]*(?:\.\.\.+|\u2026)?[\s,:;\u2014\u2013-]*$")
#: A mark that opens what the message never writes: a bracket left open or a dash last, an
#: ellipsis set apart by a space ("... the admin role …").
_OPEN_AT_THE_END = re.compile(r"(?:[(\[{]|[\u2014\u2013]|\s-{1,2}|\s(?:\.\.\.+|\u2026))\s*$")

#: What a chat writes where a message was deleted ("[Message deleted by user]", "[deleted]").
_DELETED = re.compile(
    r"(?i)[\[(<](?:this\s+)?(?:message\s+(?:was\s+)?deleted|deleted(?:\s+message)?)[^\])>\n]{0,40}[\])>]"
)


#: The marks that set or override the direction text shows in (U+202A - U+202E, U+2066 - U+2069,
#: and the direction marks U+200E, U+200F, U+061C): a human sees the turn in another order than it is
#: read ("Pay B-40 \u202e..."), so no mandate of it stands.
_DIRECTION_MARKS = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")


#: A link's address (from its scheme, which starts only where its token does: linear on a long token).
_A_LINKS_ADDRESS = re.compile(r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*://\S*")


#: Words that say, after a verb of reading, how far a share lets someone in ("read only", "view only").
_ACCESS_WORDS = frozenset({"only", "access", "mode", "rights", "permission", "permissions", "-only"})


def _an_access_level(mandate: Mandate) -> bool:
    """Is a mandate of a reading verb only an access level ("..., read only", "\\nonly view", "view
    access")? It asks to read nothing: it says how another act gives a record, and is not read."""
    said = set(words_of(mandate.text)) - verb_forms(mandate.verb)  # its words as written: "only view"
    return mandate.verb in READING_VERBS and said <= _ACCESS_WORDS


#: Someone else said to be at the keyboard ("This is my son typing", "Also, this is the assistant
#: speaking", "this is my roommate"): the turn may not be the account holder's.
_ANOTHER_AT_THE_KEYS = re.compile(
    r"(?i)\b(?:this[ \t]+is|it'?s|it[ \t]+is|i'?m|i[ \t]+am)[ \t]+(?:my|the|your|his|her|their|a|an)[ \t]+"
    r"(?:[\w-]+[ \t]+)?(?:son|daughter|kid|child|wife|husband|partner|roommate|flatmate|friend|assistant"
    r"|secretary|colleague|boss|mom|mum|mother|dad|father|brother|sister|nephew|niece|neighbou?r|babysitter"
    r"|cleaner|intern|grandson|granddaughter|grandma|grandpa)\b(?!['\u2019])"
)


def _another_at_the_keys(request: str) -> str | None:
    """Why no mandate stands where the turn says someone else is writing it."""
    found = _ANOTHER_AT_THE_KEYS.search(request)
    return f"someone else may be writing ('{found.group(0)}')" if found else None


#: A step the user keeps for themselves before the act ("..., but let me check the date first", "show
#: it to me first", "run it by me before you send", "let me think about it", "let me sleep on it").
_KEPT_FIRST = re.compile(
    r"(?i)\b(?:let[ \t]+me|i(?:'ll|[ \t]+will|[ \t]+want[ \t]+to|'d[ \t]+like[ \t]+to|[ \t]+need[ \t]+to)"
    r"|show[ \t]+(?:it|this|that|them|the[ \t]+[\w-]+)[ \t]+to[ \t]+me"
    r"|run[ \t]+(?:it|this|that)[ \t]+(?:by|past)[ \t]+me)"
    r"\b[^.;!?\n]{0,60}?\b(?:first(?![ \t]+(?:thing|time|class|name|half|quarter|week|day|of|in|on))"
    r"|beforehand|before[ \t]+(?:you|it|sending|it'?s|that|anything))\b"
    r"|\blet[ \t]+me[ \t]+(?:think|sleep)[ \t]+(?:on|about|over)[ \t]+(?:it|this|that)\b"
)


def _kept_first(request: str) -> str | None:
    """Why no mandate stands where the user keeps a step for themselves before the act: they will
    check, approve or think it over first."""
    found = _KEPT_FIRST.search(request)
    return f"the user keeps a step before it ('{found.group(0)}')" if found else None


#: Verbs by which a statement reports what someone asked for ("the customer asked for store credit").
_ASKING_FOR = frozenset({"asked", "requested", "wants", "wanted", "prefers", "preferred", "demanded", "asks"})
#: What such a report may say that is the act itself ("the customer asked for a refund", "... for it").
_THE_ACT_ASKED = frozenset(
    """
    for a an the it this that one full in their his her my our money back to be please them
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _asked_for_another(words: Sequence[str], verbs: Collection[str]) -> bool:
    """Does a statement beside a mandate report that someone asked for something other than the
    act ("Refund ORD-1001 in full, the customer asked for store credit", "... asked for half", "...
    asked for it next week")? What they asked may be what the call should be: it bears on it."""
    at = next((i for i, w in enumerate(words) if w in _ASKING_FOR), None)
    if at is None:
        return False
    acts = {f for v in verbs for f in verb_forms(v)} | {f"{v}s" for v in verbs}
    return bool(set(words[at + 1 :]) - _THE_ACT_ASKED - acts)


def _named_twice(mandate: Mandate) -> str | None:
    """Why a mandate does not stand whose object names one id twice ("Pay B-40 and B-40", "Pay
    B-31, B-40, B-40"): a slip for another record, or an act asked twice; the reader cannot tell."""
    ids = [
        found.group(0).casefold()
        for text in (mandate.text, *mandate.coordinated)
        for found in _AN_ID_IN_A_SENTENCE.finditer(_A_LINKS_ADDRESS.sub(" ", text))
    ]  # not in a link's address ("[B-40](https://acme.example/bills/B-40)")
    twice = sorted({i for i in ids if ids.count(i) > 1})
    return (
        f"the same record named twice ({', '.join(twice)}): a slip for another, or twice?" if twice else None
    )


def _reordered(request: str) -> str | None:
    """Why no mandate of a turn stands where it holds a direction mark (:data:`_DIRECTION_MARKS`)."""
    if _DIRECTION_MARKS.search(request) is None:
        return None
    return "a mark that changes the order the turn shows in: what a human sees is not what is read"


def _broken_off(request: str) -> str | None:
    """Why no mandate of the turn stands where the turn breaks off: it ends on a word that opens
    more ("Pay the Acme bill B-40 but", "... and then\u2026", "..., then", "... (but") or on a
    mark that opens it ("Pay the Acme bill B-40 (", "... \u2014", "... \u2026"): what it was going to
    say of the mandates (an exception, a condition, a further step), the reader cannot tell. So is a
    turn where a chat marks a message deleted: what it said of them is gone."""
    text = request.rstrip()
    deleted = _DELETED.search(text)
    if deleted is not None:  # "[Message deleted by user] Pay ...": a part of the turn is gone
        return f"a message of the turn was deleted ('{deleted.group(0)}')"
    if _OPEN_AT_THE_END.search(text):
        return f"the turn breaks off ('{text[-40:].strip()}')"
    if not text or (text[-1] in ".!?)]}\"'" and not re.search(r"\.\.\.+$", text)):
        return None
    bare = _TRAILING_MARKS.sub("", text)
    # the last word as typed: a value ("to 000000*A", "grade A") is no word
    written = [
        w.lstrip("([{\"'\u2014\u2013-").casefold() if w[1:].islower() else w for w in bare.split()[-2:]
    ]
    last = written[-1] if written and re.fullmatch(r"[a-z]+(?:'[a-z]+)?", written[-1]) else ""
    if last in _OPENING_MORE or (
        last == "then" and (written[:1] == ["and"] or bare[: -len(last)].rstrip().endswith(","))
    ):
        return f"the turn breaks off on '{last}'"
    return None


def _run_into(mandate: Mandate, request: str, unread: Sequence[Unread]) -> str | None:
    """Why a mandate that opens its line (or follows a semicolon) does not stand where the line or
    clause before it runs on into it: it ends with no full stop, question or exclamation mark nor
    colon, and either on a word no clause ends on ("Do not", "No need to", "Under no circumstances
    should you", "If Acme calls back,") or as words the reader does not read that doubt or time
    ("Tomorrow morning", "Maybe not"). What it says of the mandate, the reader cannot tell; a line
    of context it does not read ("payments is down") leaves it standing."""
    at = request.find(mandate.text) if request else -1
    if at <= 0:
        return None
    start = request.rfind("\n", 0, at) + 1
    before = request[start:at]
    if before.strip() and not before.rstrip().endswith(";"):
        return None  # the mandate does not open its line: its sentence is read as one
    if before.strip():
        previous = before.rstrip()[:-1].rsplit(";", 1)[-1]
    else:
        lines = request[:start].rstrip().rsplit("\n", 1)
        previous = lines[-1] if lines and lines[-1].strip() else ""
    previous = previous[_ITEM_MARK.match(previous).end() :].strip()  # type: ignore[union-attr]
    if not previous or previous[-1] in ".!?:":
        return None
    words = words_of(previous)
    unread_line = any(
        u.whole_sentence and normal(u.text[_ITEM_MARK.match(u.text).end() :]) == normal(previous.rstrip(","))  # type: ignore[union-attr]
        for u in unread
    )
    bearing = unread_line and bool(set(words) & _DOUBTING or _time_word(words) is not None)
    if set(words) <= _ONLY_POLITE:
        return None  # "Please\nrestart payments", "Could you please\npay B-31?"
    if words and (previous.endswith(",") or words[-1] in _RUNNING_ON or bearing):
        return f"the line before runs on into it ('{previous}')"
    return None


#: Words that may stand between a mandate's verb and its colon without heading what follows
#: ("Pay these: B-31, B-35", "Refund in full: ORD-1001", "Delete both now: a.log, b.log").
_BEFORE_ITS_LIST = (
    frozenset(
        """
        following these those them all both each every the my our your its their in full now asap
        today please again too also right away immediately quickly permanently for of to from
        """.split()  # noqa: SIM905 (a closed list, read as words)
    )
    | _KIND_WORDS
    | {"below", "steps", "items", "list", "ones", "people", "files", "bills", "orders", "events"}
)
_VERB_AND_COLON = re.compile(r"^[^\w\n]*([\w'-]+)[ \t]+([^:\n]{1,40}?)[ \t]*:[ \t]*\S")


def _its_verb_a_heading(mandate: Mandate, request: str) -> str | None:
    """Why a mandate whose verb opens a line with words of its own before a colon, and the records
    after it, does not stand: "Transfer rejected: 250 EUR to DE89...", "Refund denied: 20 on
    ORD-1004", "Pay history: B-40", "Email bounced: bob@..." use the verb as a noun over what they
    report. A word there that names something (a capital, a digit, an address: "Email Bob: ...")
    or only points to the list ("Pay these: ...") or names the kind of what it lists in the
    plural ("cancel standing orders: ...") lets it stand."""
    at = request.find(mandate.text) if request else -1
    if at < 0:
        return None
    start = request.rfind("\n", 0, at) + 1
    end = request.find("\n", at)
    line = request[start : end if end >= 0 else None]
    found = _VERB_AND_COLON.match(line)
    if found is None or mandate.verb not in forms(normal(found.group(1))) | {normal(found.group(1))}:
        return None
    between, listed = found.group(2), line[found.end(2) :].lstrip(" \t:")
    if any(ch.isupper() or ch.isdigit() or ch in "@./#" for ch in between):
        return None  # it names: a recipient, a payee, a record
    if (
        not any(ch.isupper() or ch.isdigit() or ch in "@#" for ch in listed)
        and _A_FILE.search(listed) is None
    ):
        return None  # what follows names no record: a reason, a message ("Roll back checkout: it ...")
    written = words_of(between)
    own = [w for w in written if w not in FUNCTION_WORDS and w not in _BEFORE_ITS_LIST]
    if mandate.verb in WITH_CONTENT:  # "Ping kim: ...": whom it writes to, unless a state
        own = written[:1] if written[0].endswith("ed") or written[0] in _A_STATUS else []
    elif written[-1].endswith("s") and not written[-1].endswith("ss"):
        return None  # the kind of what it lists: "cancel standing orders: Gym Max, Old Storage"
    return f"its verb heads what follows ('{found.group(1)} {between}:')" if own else None


def _in_lines_marked_apart(mandate: Mandate, apart: Sequence[str]) -> str | None:
    """Why a mandate that names a record on a line of a list marked apart does not stand."""

    def named(text: str) -> set[str]:
        return {w.strip("+-*\u2022\u2013\u2212") for w in naming_words(f"- {text}")}

    mine = named(" ".join([mandate.text, *mandate.coordinated]))
    line = next((line for line in apart if named(line) & mine), None)
    return None if line is None else f"on a line of a list marked apart ('{line}')"


#: Verbs whose mandate writes a text after its colon: a message, a note, a name, a post ("Reply to
#: Casa Azul: arriving 18:00", "Rename it: Q3 plan", "Add a note: call back").
WITH_CONTENT = frozenset(
    """
    tell ask email e-mail mail dm message text post reply respond answer write notify inform let remind say
    send forward share comment note add create rename title label tag describe draft compose publish
    announce ping sms slack whatsapp tweet schedule book set update change edit append attach invite
    report explain confirm check find see show verify search look list summarise summarize msg pm txt
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words that only urge a mandate on, after its colon ("Restart payments: now", ": ASAP").
_URGING_WORDS = frozenset(
    {"now", "asap", "urgent", "urgently", "immediately", "quickly", "right", "away", "pls"}
)
#: Verdicts and states reported of an action, after its colon ("Restart payments: failed.",
#: "Refund ORD-1002 $20: denied."): a report on it, not a reason for it.
_VERDICTS = frozenset(
    """
    failed fails failing denied vetoed nack nacked rejected blocked wontfix obsolete abandoned parked
    postponed skipped deprecated superseded declined aborted cancelled canceled duplicate invalid
    done finished completed closed resolved reverted dropped shelved paused held withdrawn refused
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_WITH_CONTENT_FORMS = frozenset(f for verb in WITH_CONTENT for f in verb_forms(verb))  # "replying"
#: Subjects a reason after a mandate's colon opens with ("Restart payments: it keeps timing out").
_STATING = frozenset(
    {
        "it",
        "it's",
        "its",
        "they",
        "they're",
        "we",
        "we're",
        "he",
        "she",
        "i",
        "i'm",
        "users",
        "customers",
        "everything",
        "nothing",
        "there",
        "there's",
        "this",
        "that's",
        "the",
        "our",
        "my",
    }
)


#: A figure of what an act leaves, not of what it moves ("... down to 100.00", "leaving 50",
#: "so that 20 remains").
_WHAT_IS_LEFT = re.compile(
    r"(?i)\b(?:down\s+to|leaving(?:\s+only)?)\s+[$€£]?\d[\d.,]*"
    r"|\bso\s+(?:that\s+)?(?:only\s+)?[$€£]?\d[\d.,]*\s*(?:\w+\s+)?(?:remains?|is\s+left|left)\b"
)


def _another_of_its_object(clause: Clause, asking: Sequence[Clause]) -> bool:
    """Is a clause after "and" another object of a mandate of its sentence, named by the same noun
    the mandate's object opens with ("Create event Lunch on ... and event Dinner on ...")? Each is
    then weighed as the verb's: a call for the second is held to the first's words."""
    nouns = {a.words[a.head + 1] for a in asking if a.head is not None and a.head + 1 < len(a.words)}
    return (
        len(clause.words) > 1
        and clause.words[0] in nouns - FUNCTION_WORDS
        and bool(re.search(rf"(?i)\band\s+{re.escape(clause.text)}", clause.sentence))
    )


def _after_a_mandates_colon(sentence: str, asking: Sequence[Clause], clause: Clause) -> bool:
    """Is ``clause`` written after a colon that follows a mandate of its sentence ("reply to Casa
    Azul: arriving 18:00"): the content of the message the mandate sends? A label's colon before
    every mandate ("T-1: full refund ORD-1001 + email customer") introduces no content."""
    colon = _colon_at(sentence)
    at = sentence.find(clause.text)
    # the label of what follows the colon ("..., attendees: Ana"), read as what follows it is
    label = len(clause.words) <= 2 and 0 <= at < colon and not sentence[at + len(clause.text) : colon].strip()
    if not asking or colon < 0 or (colon > at and not label):
        return False
    if not any(0 <= sentence.find(a.text) < colon for a in asking):
        return False
    before = [a for a in asking if 0 <= sentence.find(a.text) < colon]
    if any(a.head is not None and a.words[a.head] in _WITH_CONTENT_FORMS for a in before):
        return True  # a message, a note, a name or a text the mandate writes
    if label:
        return False
    if any(a.head is not None and a.words[a.head] in _CLOSING_FORMS for a in before):
        return _a_closing_note(clause)  # "Close HD-31005: account unlocked": its resolution
    paying = any(a.head is not None and a.words[a.head] in _MOVING_MONEY for a in asking)
    # a payment sends no message: after its colon, a reason ("...: he covered the tip") is read, a
    # doubt or a record is not ("Pay B-31 and B-40: Disputed.")
    if paying and (
        set(clause.words) & (_DOUBTING | KEEPING_WORDS | _VERDICTS) or naming_words(f"- {clause.text}")
    ):
        return False
    # another action, and a payment, writes nothing: after its colon a reason with a subject of its
    # own is read
    # ("Restart payments: it keeps timing out"), and words that only urge ("...: now", ": asap");
    # nothing else ("Restart payments: failed.", ": RFC", ": staging", ": owner Bob", ": y/n" report
    # on it, title it or put it elsewhere)
    words = clause.words
    urging = bool(words) and set(words) <= _URGING_WORDS | NO_ROLE_WORDS
    return urging or (bool(words) and words[0] in _STATING and len(words) >= 2 and not set(words) & _VERDICTS)


#: Verbs that close a case with a note of how it ended ("Close HD-31005: account unlocked").
CLOSING_VERBS = frozenset({"close", "resolve"})
_CLOSING_FORMS = frozenset(f for verb in CLOSING_VERBS for f in verb_forms(verb))


def _a_closing_note(clause: Clause) -> bool:
    """Is a clause after the colon of a mandate that closes a case its note of how it ended
    ("account unlocked", "password reset done by phone"): words that name no record, no figure and
    no time, with no doubt, negation, verdict or word that keeps (": not yet", ": HD-31050 too",
    ": after the audit", ": wontfix" still ask)?"""
    words, text = clause.words, clause.text
    if not words or any(ch.isdigit() for ch in text) or "?" in text or _time_word(words) is not None:
        return False
    if naming_words(f"- {text}") or any(w in NEGATIONS or w.endswith("n't") for w in words):
        return False
    return not set(words) & (
        _DOUBTING | KEEPING_WORDS | _VERDICTS | _NO_REASON_TO_UNDO | _WH | _NOT_A_NOTE
    ) - {"done"}


#: Words by which what follows a closing mandate's colon is no note of how the case ended: when or
#: in what order the act is to be done, another act beside it ("...: after the audit", "...: unlock
#: dkim first", "...: and email him").
_NOT_A_NOTE = frozenset(
    """
    after before pending following first then next and also too plus or but unless upon
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Words that put what a sentence asks for at a later time: it asks for nothing now ("Tomorrow,
#: pay ...", "... next month", "... at the weekend"). Weekdays and months defer after a word of
#: time (:data:`_BEFORE_A_DATE`: "on Monday", "in January"), never as a record's name ("the
#: December rent").
TIME_WORDS = frozenset(
    """
    tomorrow tomorrow's tmrw tmr tmw 2moro 2morrow tomoz overmorrow tonight tonite 2nite later soon
    next weekend eventually someday sometime afterwards afterward postpone postponed defer deferred
    delay delayed payday eod eow eom eoy eoq cob eob end-of-day end-of-week end-of-month end-of-year
    year-end yearend month-end quarter-end week-end deadline deadlines holidays hence thereafter
    l8r ltr manana mañana demain morgen später spater luego domani amanha amanhã
    christmas xmas easter thanksgiving halloween hanukkah diwali ramadan eid michaelmas whitsun
    pentecost midsummer hogmanay passover advent lent carnival mardi candlemas epiphany
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: A span of time after which something happens ("in two weeks", "within 3 days", "after a month").
_UNITS = frozenset(
    """
    minute minutes min mins hour hours hr hrs day days week weeks wk wks fortnight fortnights month
    months year years yr yrs quarter quarters sec secs second seconds moment moments
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: How many of a unit ("in a week", "in two days", "in a couple of weeks", "within the next hour").
_HOW_MANY = frozenset(
    """
    a an one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty few
    couple of several the next half
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_AFTER_A_SPAN = frozenset({"in", "within", "after"})
#: Runs of words that put an action off as a whole.
_TIME_RUNS = (
    ("due", "course"), ("due", "date"), ("when", "due"), ("when", "it's", "due"), ("new", "year"),
    ("from", "now"), ("from", "today"), ("from", "tomorrow"), ("in", "the", "future"), ("in", "future"),
    ("as", "scheduled"), ("on", "schedule"), ("per", "schedule"), ("close", "of", "business"),
    ("close", "of", "play"), ("end", "of", "play"), ("usual", "date"), ("regular", "date"),
    ("usual", "day"), ("normal", "date"), ("later", "date"), ("another", "time"), ("another", "day"),
    ("in", "phase"), ("second", "pass"), ("next", "pass"), ("later", "pass"), ("second", "round"),
    ("next", "round"), ("round", "two"), ("next", "batch"), ("next", "cycle"),
)  # fmt: skip
#: What happens at a moment that a word of time opens ("on delivery", "upon receipt of the goods",
#: "at maturity", "on approval"): the call waits for it.
_EVENTS = frozenset(
    """
    delivery receipt arrival completion approval confirmation maturity signature signing return
    renewal expiry expiration settlement shipment dispatch invoicing go signal word command cue
    say-so nod okay ok
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_BEFORE_AN_EVENT = frozenset({"on", "upon", "at", "after", "following", "pending", "until", "till"})
_THE_OR_WHOSE = frozenset({"the", "my", "your", "our", "his", "her", "their"})
#: Words that bring a time nearer ("closer to the date", "nearer the time"), and what they bring.
_NEARER = frozenset({"closer", "nearer"})
_MOMENTS = frozenset({"date", "time", "deadline", "day", "due", "end"})
_WEEKDAYS = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Parts of a period that a month or a period after "of" makes a time ("first week of January",
#: "the middle of next month"), and the prefix that makes one of a month ("mid-December").
_PARTS_OF_A_PERIOD = frozenset(
    {"week", "weeks", "weekend", "half", "start", "beginning", "middle", "end", "rest", "part", "days"}
)
_MID = frozenset({"mid", "middle"})
#: A part of the day ("this evening", "in the morning", "by noon", "at midnight").
_PARTS_OF_DAY = frozenset(
    {"morning", "afternoon", "evening", "night", "noon", "midday", "midnight", "lunchtime"}
)
_BEFORE_A_PART = frozenset({"in", "this", "at", "by", "before", "after", "until", "till", "around"})
_BEFORE_A_DAY = frozenset({"on", "by", "before", "after", "until", "till", "from"})
#: A year after a word of time ("in 2027", "by 2030"; not "the files from 2025", which names them).
_BEFORE_A_YEAR = frozenset({"in", "by", "until", "till", "after", "during"})
_YEAR = re.compile(r"20\d\d")
_DATES = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec q1 q2 q3 q4 h1 h2
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_BEFORE_A_DATE = frozenset(
    {"in", "on", "by", "until", "till", "til", "next", "this", "from", "after", "before", "starting", "come",
     "coming"}
)  # fmt: skip
#: Words that take part of an object out of it ("all my bills excluding B-40", "w/o", "apart
#: from", "other than", "leave out", "skip") and the negations and contrasts of other languages
#: the grammar has no rule for ("mais pas", "aber nicht", "pero no"), and what changes a record's
#: figure ("net", "with the discount", "ex VAT"): a sentence holding one is not read as asking for
#: the whole of its object.
EXCLUDING_WORDS = frozenset(
    """
    excluding exclude excluded excludes except excepted excepting exempt exempted apart aside besides
    barring skip skipping skipped omit omitting omitted unpaid untouched notwithstanding withhold
    withheld withholding net discount discounted rebate
    pas ne nicht nein kein keine keinen ohne ausser außer aber mais sauf sans sin excepto pero
    nunca jamais non niet geen nie nee tranne menos salvo behalve senza exceto bez kromě oprócz
    utom paitsi hariç 除了 hormis nahi nahin xcpt excpt exc exept excl keeping sparing saving
    preserving retaining
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Runs of words that exclude or defer as a whole ("w/o", "hold off", "wait for").
_EXCLUDING_RUNS = (
    ("w", "o"), ("other", "than"), ("other", "then"), ("not", "including"), ("but", "not"), ("leave", "out"),
    ("leaving", "out"), ("save", "for"), ("in", "a", "bit"), ("hold", "off"), ("wait", "until"),
    ("stays", "open"), ("keep", "open"), ("left", "out"), ("not", "included"), ("held", "back"),
    ("hold", "back"), ("ex", "vat"), ("ex", "tax"), ("ex", "gst"), ("ex", "tva"), ("bis", "auf"),
    ("ko", "chhodkar"), ("ke", "alawa"), ("bt", "nt"), ("exception", "of"),
)  # fmt: skip


#: Verbs whose object carries its own date ("Schedule a call on 3 Dec", "Book a table on the
#: first of May", "Move the Standup to Monday"): a date there is what the call makes, not when.
DATED_VERBS = frozenset(
    """
    schedule reschedule book reserve add create move set plan arrange invite put
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: The words of a day of the month before its month ("the first of March", "1st March", "the 3 of
#: May"): passed over on the way back to the word of time that makes it a date.
_DAY_OF_MONTH = frozenset(
    """
    the of first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
    thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth
    thirtieth twenty thirty
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_DAY = re.compile(r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?")
#: A day of the month written as an ordinal ("1st", "fifteenth"): the day words above, bare.
_ORDINAL_WORDS = _DAY_OF_MONTH - {"the", "of", "twenty", "thirty"}


def _a_day_ends(after: Sequence[str]) -> bool:
    """Do the words after an ordinal ("on the 1st ...") leave it a day of the month: nothing, a
    month, a function word ("... and B-40 now", "..., please"), or "of" and a month or a period ("of
    March", "of the month"); not a noun it counts ("the first bill", "the first of the two lines",
    "the second one")?"""
    if not after:
        return True
    if after[0] == "of":
        period = after[2] if len(after) > 2 and after[1] in ("the", "this", "next") else ""
        return len(after) > 1 and (after[1] in _DATES or period in _UNITS)
    return after[0] in _DATES or (after[0] in FUNCTION_WORDS and after[0] not in ("one", "ones"))


#: Words before a weekday that make it what the object is about, not when the call is made ("the
#: agenda for Monday", "the notes from Friday", "last Tuesday's minutes").
_OF_A_DAY = tuple([w] for w in ("for", "of", "from", "since", "last", "previous", "past", "about"))


def _a_weekday_ends(after: Sequence[str]) -> bool:
    """Do the words after a weekday leave it a day the call is made on: nothing, a part of the day,
    or a function word ("... B-40 Monday", "Fri morning", "Monday please"); not a noun it names
    ("the Monday standup")?"""
    return not after or after[0] in _PARTS_OF_DAY or after[0] in FUNCTION_WORDS or after[0] in NO_ROLE_WORDS


def _time_phrase(words: Sequence[str], i: int) -> str | None:
    """The phrase of time that starts at ``words[i]``, a word of time that takes what follows
    ("in two weeks", "at the end of the month", "on the 1st", "this evening"); None where none
    does. A time of day is not one: "Cancel the review at 10:00" names the review by its time."""
    word, rest = words[i], list(words[i + 1 : i + 6])
    if word in _AFTER_A_SPAN:  # "in a week", "within the next 3 days", "after a couple of months"
        for k, later in enumerate(rest):
            if later in _UNITS:
                return " ".join(words[i : i + k + 2])
            if later not in _HOW_MANY and not later.isdigit():
                break
    if word in _BEFORE_A_PART:  # "this evening", "in the morning", "by noon"
        k = 1 if rest[:1] == ["the"] else 0
        if rest[k : k + 1] and rest[k] in _PARTS_OF_DAY:
            return " ".join(words[i : i + k + 2])
    day = rest[1] if rest[:1] == ["the"] and len(rest) > 1 else ""
    if (
        word in _BEFORE_A_DAY  # "on the 1st", "by the fifteenth" (not "on the first bill")
        and ((_DAY.fullmatch(day) and not day.isdigit()) or day in _ORDINAL_WORDS)
        and _a_day_ends(rest[2:])
    ):
        return " ".join(words[i : i + 3])
    if word == "end" and rest[:1] == ["of"]:  # "end of month", "at the end of the week"
        k = 2 if rest[1:2] and rest[1] in ("the", "this", "next") else 1
        if rest[k : k + 1] and rest[k] in (_UNITS | {"day", "business"}):
            return " ".join(words[i : i + k + 2])
    if word == "first" and rest[:1] == ["thing"]:  # "first thing Monday", "first thing tomorrow"
        return "first thing"
    unit = word[:-2] if word.endswith(("'s", "\u2019s")) else word
    if unit in _UNITS and rest[:1] == ["end"]:  # "at year end", "by month end", "at month's end"
        return f"{word} end"
    for run in _TIME_RUNS:  # "in due course", "on its due date", "when due"
        if tuple(words[i : i + len(run)]) == run:
            return " ".join(run)
    if unit in _UNITS and rest[:1] in (["from"], ["hence"]):  # "a week from now", "30 days from the 1st"
        return " ".join(words[i : i + 2])
    k = 1 if rest[:1] and rest[0] in _THE_OR_WHOSE else 0  # "on delivery", "upon receipt of the
    # goods", "at maturity", "on my go"
    if word in _BEFORE_AN_EVENT and rest[k : k + 1] and rest[k] in _EVENTS:
        return " ".join(words[i : i + k + 2])
    if word in _NEARER and _MOMENTS & set(rest[:3]):  # "closer to the date", "nearer the time"
        return " ".join(words[i : i + 1 + next(j for j, w in enumerate(rest) if w in _MOMENTS) + 1])
    ordinal = (_DAY.fullmatch(word) and not word.isdigit()) or word in _ORDINAL_WORDS
    of_a_period = rest[:1] == ["of"] and rest[1:2] in (["the"], ["this"], ["next"])
    if ordinal and of_a_period and rest[2:3] in (["month"], ["week"]):  # "1st of the month"
        return " ".join(words[i : i + 4])
    if word in _BEFORE_A_YEAR and rest[:1] and _YEAR.fullmatch(rest[0]):  # "in 2027", "by 2030"
        return " ".join(words[i : i + 2])
    return None


#: Verbs of moving money, whose date is when the money moves ("Pay the Acme bill B-40 on
#: 2026-12-20", "Transfer 50 EUR to Bob by 20/12"): a date written in figures after a word of time
#: puts the call off. Elsewhere such a date names a record by its day ("Cancel the Review on
#: 2026-11-24", "the attendees of the planning on 2026-11-26"), as the calendar's tasks write it.
TIMED_VERBS = frozenset(
    """
    pay settle transfer wire send remit refund reimburse repay
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: The verbs of a payment, that carry no message after a colon ("send" may carry one).
_MOVING_MONEY = TIMED_VERBS - {"send"}
_BEFORE_A_FIGURE_DATE = frozenset({"on", "by", "before", "after", "until", "till", "til"})
#: A date in figures as one word: 2026-12-20, 20.12.2026, 20.12, 2026/12/20 read as words.
_FIGURE_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}\.\d{1,2}(?:\.\d{2,4})?")


#: The months as a pattern, short or long ("Dec", "Dec.", "December").
_MONTHS = "(?:" + "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True)) + r")\.?"
#: A day of a month written without a word of time before it ("Pay B-40 19 Dec.", "... 5 January",
#: "... December 19th", "... the 19th"): when, and none is now. After "due" or "dated" it says
#: which record (weighed by the review).
_A_BARE_DAY = re.compile(
    r"(?i)(?<![\w.-])(?:\d{1,2}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?"
    + _MONTHS
    + r"|"
    + _MONTHS
    + r"[ \t]+\d{1,2}(?:st|nd|rd|th)?(?![\w.,-]*\d)|the[ \t]+\d{1,2}(?:st|nd|rd|th))(?![\w-])"
)
#: A day in figures with no word of time before it ("Pay B-40 19.12.2026", "... 2026/12/19").
_A_BARE_FIGURE_DAY = re.compile(
    r"(?<![\w./-])(?:\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}[./-]\d{1,2}[./-]\d{1,2})(?![\w/-])"
)
#: A figure scaled or multiplied in words ("260K", "260 thousand", "260 EUR times two", "260 plus tip").
_SCALED_FIGURE = re.compile(
    r"(?i)(?<![\w.])\d[\d.,]*[ \t]*(?:k|m|mn|bn|thousand|million|billion|grand)\b"
    r"|(?<![\w.,])\d[\d.,]*(?:[ \t]*(?:eur|euros?|usd|gbp))?[ \t]+(?:times|x|plus|multiplied)[ \t]"
    r"|(?<![\w.])(?:x[ \t]?\d|\d[ \t]?x)(?![\w.])|\b(?:with|as|plus)[ \t]+(?:a[ \t]+)?tip\b"
)


def _a_bare_day(text: str) -> str | None:
    """The first day of a month in ``text`` that no "due", "dated" or "from" says is a record's
    (:data:`_A_BARE_DAY`), or None."""
    for found in [*_A_BARE_DAY.finditer(text), *_A_BARE_FIGURE_DAY.finditer(text)]:
        before = words_of(text[: found.start()])[-2:]
        if not set(before) & {"due", "dated", "from", "of", "for"}:
            return found.group(0)
    return None


#: How a question that doubts what was asked before it opens ("Who are they?", "Are you sure?", "Is
#: 45.30 correct?", "Really?").
_DOUBTING_OPENERS = frozenset(
    {"who", "whose", "whom", "is", "are", "was", "were", "did", "does", "do", "should", "shall", "really",
     "sure", "isn't", "aren't", "wasn't", "shouldn't", "can't", "hmm", "huh", "why"}
)  # fmt: skip


#: A sentence that ends in a question mark, from its start (one pass over a long text).
_A_QUESTION_SENTENCE = re.compile(r"(?:^|(?<=[.!?\n]))[^.!?\n]*\?")


def _a_later_doubt(mandate: Mandate, request: str) -> str | None:
    """A question after a payment's sentence that may doubt it: one that opens as a doubt does
    (:data:`_DOUBTING_OPENERS`), points back ("What is it for?"), names what the mandate names, or
    names someone ("What is Acme Supplies?"); None for a question of its own ("What is my
    balance?"), or where the mandate's sentence is not found."""
    at = request.find(mandate.sentence)
    if at < 0 or not mandate.sentence:
        return None
    after = request[at + len(mandate.sentence) :]
    names = naming_words(mandate.text)
    by_id_alone = all(_id_like(w) for w in names)  # "Pay B-40": whose it is, the mandate does not say
    for question in _A_QUESTION_SENTENCE.findall(after):
        words = words_of(question)
        others = {
            w.casefold()
            for w in _CAPITALISED.findall(question.strip()[1:])
            if w not in ("I", "I'm", "I'll", "I've", "I'd")
        } - names
        if not words:
            continue
        if set(words) & (POINTING_BACK | names) or (others and by_id_alone):
            return question.strip()  # "Who sent it?", "What is Acme Supplies?" beside "Pay B-40"
        if words[0] in _DOUBTING_OPENERS and not others:  # "Are you sure?"; not "Is the Acme one legit?"
            return question.strip()
    return None


def _numeric_date(words: Sequence[str]) -> str | None:
    """A date written in figures after a word of time ("on 2026-12-20", "by 20.12.", "before
    20/12", read as the words ``20 12``), or None."""
    for i, word in enumerate(words[:-1]):
        if word not in _BEFORE_A_FIGURE_DATE:
            continue
        rest = words[i + 1 : i + 4]
        if _FIGURE_DATE.fullmatch(rest[0]):
            return f"{word} {rest[0]}"
        figures = [w for w in rest if w.isdigit()]
        if (
            len(rest) >= 2
            and rest[0].isdigit()
            and rest[1].isdigit()
            and int(rest[0]) <= 31
            and int(rest[1]) <= 31
        ):
            return " ".join([word, *figures[:3]])
    return None


#: A date in figures alone before a colon that opens the sentence ("2019-03-01: pay B-40", "1.3.2027:
#: ..."): a line of a log or a plan for that day. For a verb whose object is named by its day
#: (:data:`DATED_VERBS`: "2026-11-24: cancel the Review") it says which record.
_DATE_BEFORE_A_COLON = re.compile(
    r"^[^\w]*(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4})"
    r"(?:[ T]\d{1,2}[:.]\d{2}(?::\d{2})?)?\s*[:\]]"
)
#: Verbs whose object a date before a colon may name by its day ("2026-11-24: cancel the Review").
_BY_ITS_DAY = (
    DATED_VERBS
    | READING_VERBS
    | frozenset({"cancel", "delete", "remove", "decline", "accept", "skip", "drop"})
)  # and what only reads ("2026-12-10: check my calendar")
#: A date in figures that names no record's day: set apart by commas or opening the sentence ("...
#: and, on 2027-01-01, salaries.xlsx", "On 2027-01-01, delete ..."), or after a file's name, which
#: has no day ("... salaries-2026.xlsx on 2027-01-01").
_FIGURE_DATE_PHRASE = (
    r"((?:on|by|before|after|until|till)\s+(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}(?:[./]\d{2,4})?))"
)
_DATE_APART = re.compile(
    rf"(?i)(?:^|,)\s*{_FIGURE_DATE_PHRASE}\s*(?:[,.;]|$)|(?<![\w-])[\w-]+\.[a-z0-9]{{2,5}}\s+{_FIGURE_DATE_PHRASE}\b"
)


#: How a payment is made, where the call carries none of it ("... in cash", "... via PayPal",
#: "... rounded down"); an instrument after a word that uses it ("with my credit card", "by
#: cheque"), and an account after "from" ("from savings", "from the joint account").
_PAID_HOW = frozenset(
    """
    cash cheque cheques paypal venmo revolut zelle crypto bitcoin btc rounded rounding whatever's
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_INSTRUMENTS = frozenset({"card", "amex", "visa", "mastercard", "check", "cheque"})
_USING = frozenset({"with", "by", "using", "on", "via", "through"})
_PAID_FROM = frozenset({"savings", "joint", "checking", "giro", "business", "company", "personal", "other"})
#: A figure, and the words that make it another than the record's ("the agreed amount", "the
#: negotiated price", "the usual amount"): what the figure is, the call cannot show.
_FIGURES = frozenset({"amount", "price", "total", "sum", "figure", "fee", "rate"})
_ANOTHER_FIGURE = frozenset(
    """
    usual agreed negotiated corrected revised amended quoted fair right correct real actual reduced
    discounted adjusted proper new updated different other lower higher smaller partial estimated
    expected approximate rough same
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Where money goes, and the words that make it another place than the record's ("to their new
#: IBAN", "to the account in their email", "to their other account").
_DESTINATIONS = frozenset({"iban", "account", "bank", "details", "wallet"})
_ANOTHER_PLACE = _ANOTHER_FIGURE - {"same", "usual", "right", "correct", "proper"} | {
    "second", "backup", "alternate", "alternative", "changed", "personal", "private",
}  # fmt: skip


#: Words by which a payment says the money goes by way of someone or somewhere ("via Bob Lee",
#: "through Bob", "into Bob's account", "c/o Bob Lee"), or who receives it ("change the payee to
#: Bob Lee"): what the call's payee and IBAN show, the reader cannot tell.
_PAID_BY_WAY_OF = frozenset(
    {"via", "through", "thru", "into", "c/o", "payee", "beneficiary", "recipient", "behalf"}
)


#: "c/o" and "care of" as the reader's words hold them ("c", "o"), and "attn", "for the attention".
_CARE_OF = frozenset({("c", "o"), ("care", "of"), ("attn",), ("attention",)})
#: A payment's receiver named apart from its object ("Pay B-40 and change the payee to Bob Lee",
#: "Pay B-40. The beneficiary is Bob Lee now."): who is paid, the turn says in words the call's payee
#: and IBAN may not show.
_THE_PAYEE_NAMED = re.compile(r"(?i)\b(?:payee|beneficiary|recipient|c/o|care\s+of)\b")


#: The verbs of a payment proper, of which :data:`_PAID_BY_WAY_OF` is weighed ("send it via email"
#: says how a message goes), and whose purpose names which bill it pays ("Pay B-40 for ..."; a
#: refund's says why: "Refund ORD-1002 for the broken mug").
PAYING_VERBS = frozenset({"pay", "transfer", "settle", "remit", "wire"})


def _paid_otherwise(words: Sequence[str]) -> str | None:
    """The words by which a payment's mandate says how, from where, at which figure or to which
    place other than the record's it is made, or None: the call (a payee, an IBAN, an amount) shows
    none of them, so the mandate is read in part and asked ("Pay B-40 in cash", "... from savings",
    "... the agreed amount", "... to their new IBAN", "... what I paid last time")."""
    named = max((i for i, w in enumerate(words) if any(ch.isdigit() for ch in w)), default=len(words))
    for i, word in enumerate(words[1:], 1):
        before = words[max(1, i - 3) : i]
        if word in _PAID_HOW or (word in ("round", "rounded") and words[i + 1 : i + 2] in (["up"], ["down"])):
            return word
        by_way = word in _PAID_BY_WAY_OF or (word, *words[i + 1 : i + 2]) in _CARE_OF
        if (
            by_way and words[0] in PAYING_VERBS
        ):  # "Pay B-40 via Bob Lee", "... into Bob's account", "... c/o Bob"
            return " ".join([word, *words[i + 1 : i + 3]])
        if (word in _INSTRUMENTS and set(before) & _USING) or (word in _PAID_FROM and "from" in before):
            return " ".join([*before, word])
        if word in _FIGURES and before[-1:] and before[-1] in _ANOTHER_FIGURE:
            return f"{before[-1]} {word}"
        if word in _DESTINATIONS and (
            set(before) & _ANOTHER_PLACE or words[i + 1 : i + 2] in (["in"], ["on"])
        ):
            return " ".join([*before, word, *words[i + 1 : i + 2]])
        if word in ("what", "whatever") and i > named and words[i + 1 : i + 2] and words[i + 1] in _SUBJECTS:
            return f"{word} {words[i + 1]}"  # after the record: "... B-40 what I paid last time"
    return None


#: Verbs that act on a record a turn names, and nothing else: their object is weighed from where a
#: name ends too, not only from an id (:func:`_unread_after_the_record`).
_ON_A_RECORD = TIMED_VERBS | frozenset(
    """
    delete remove cancel trash archive clear drop erase wipe purge decline reject void close
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words that say what kind of record is named, or where it is kept ("the Board meeting", "...
#: from my calendar", "... for good").
_KINDS_AND_PLACES = frozenset(
    """
    file files meeting meetings event events entry entries document documents doc docs folder
    spreadsheet sheet invite invites appointment appointments calendar drive disk inbox permanently
    forever good completely entirely everything standing order orders deck decks slide slides
    presentation presentations report reports notes minutes agenda draft drafts contract contracts
    summary summaries forecast forecasts
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_CAPITALISED = re.compile(r"(?<![\w'-])[A-Z][\w'-]*")
_AN_ID = re.compile(r"(?<![\w.-])(?=[\w.-]*[a-z])(?=[\w.-]*\d)[\w.-]+(?:'s)?")
#: Words a mandate may end with after the record it names, each with a role the reader knows: when
#: (now, today), how much of it (in full, the total, in two parts of 130.00), the ordinary way (by
#: transfer, at the usual IBAN, on my account), a figure's unit, a line of it, a deposit's arithmetic.
_AFTER_THE_RECORD = frozenset(
    """
    now today asap immediately right away straight promptly quickly urgently urgent full please thanks
    open unpaid current latest new recent overdue monthly http https www mailto owe owed owing whole entire
    same match matching par quoting citing referencing regarding concerning re cf equal see much
    thank too well both also first second third last then again separately together individually
    once go single one ones each payment payments transfer transaction bank account usual iban
    amount total due balance outstanding remaining bill bills invoice invoices line lines part parts
    month week year eur euro euros usd gbp chf pm am eod
    two three four five six seven eight nine ten alone solely exclusively instead memo reference ref
    note subject description comment label deposit deposits advance prepayment paid sent minus plus
    less rest remainder left percent share split tip fee fees difference combined altogether covering
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Words of :data:`_AFTER_THE_RECORD` that say something of a record when they end the object
#: after it, with nothing they qualify ("Pay B-31 and B-40 paid.", "... B-40 rest.").
_DANGLING = frozenset(
    {"paid", "sent", "rest", "left", "split", "difference", "remainder", "remaining", "done"}
)


def _end_of_a_name(words: Sequence[str], names: Collection[str]) -> int | None:
    """Where the first name a mandate's object writes with a capital ends ("cancel the Board meeting
    as a test": at "meeting"): its capitalised words and the words in small letters that run on
    from them ("Team lunch", "Dentist appointment"), up to a function word; None without one."""
    last = min((i for i, w in enumerate(words) if i and w in names), default=None)
    if last is None:
        return None
    while (
        last + 1 < len(words)
        and words[last + 1] not in FUNCTION_WORDS
        and words[last + 1] not in NO_ROLE_WORDS
    ):
        last += 1
    return last


@lru_cache(maxsize=1024)  # the same mandate, weighed by several checks of one reading
def _written_names(mandate: Mandate) -> frozenset[str]:
    """The words a mandate's object and the clauses that continue it write with a capital (case
    folded): its records' names, and its head where the sentence opens with it."""
    written = " ".join([mandate.text, *mandate.coordinated])
    return frozenset(w.casefold() for w in _CAPITALISED.findall(written))


def _end_of_a_kind(words: Sequence[str], mandate: Mandate) -> int | None:
    """Where a deletion's object written in small letters names the kind of its first record ("cancel
    the dentist appointment ...": at "appointment"), or None: a turn with no capitals marks no name,
    so the object is weighed from there."""
    if mandate.verb not in DELETING or _CAPITALISED.search(
        " ".join([mandate.text, *mandate.coordinated])[1:]
    ):
        return None
    return next((i for i, w in enumerate(words) if i and w in _KINDS_AND_PLACES), None)


#: "without" written short: an exclusion, never a value's mark ("Pay all bills w/o B-40").
_WITHOUT = re.compile(r"(?i)w/(?:o|out)\W*")
#: What marks a token written as a value, not a word: a digit or a sign no word holds.
_VALUE_MARKS = re.compile(r"[\d@/#:*_=+$%&~^\\|<>]")


def _unread_after_the_record(words: Sequence[str], mandate: Mandate) -> str | None:
    """The words from the first record a mandate (of any verb but a reading one: the caller's) names
    by an id (letters and digits: "B-40", "salaries-2026.xlsx"; not a count nor an amount) to the
    end of its object, or from a word of every before it ("all bills exept B-40"), that play no
    role the reader knows ("... B-40 under protest", "... as a test", "Pay B-31 unlike B-40", "Pay
    B-40 oops B-31"), or None. The other records' ids, a name (written with a capital: "from City
    Water"), a purpose after "for" ("... for the toner", up to the next record), a field of a record
    named by its possessive ("ORD-1002's shipping fee"), a value, the record's kind or place
    (:data:`_KINDS_AND_PLACES`) and the words of :data:`_AFTER_THE_RECORD` are read. For a verb that
    moves no money, a deletion's object (or one naming a record by its id after a name) is weighed
    from where its first name ends if that comes first (a name runs on in small letters: "the Board
    meeting"; "Raise Dana Whitfield's salary to 72000 leave E-102 alone"); a payment's object says
    more of its record ("10% of the Roma dinner in my transactions"), so only from its ids."""
    written = " ".join([mandate.text, *mandate.coordinated])
    names = _written_names(mandate)
    # the pieces of a value written as one token ("00000A*_", "ana@corp.example"): read as the value
    values = {
        w
        for token in written.split()
        if _VALUE_MARKS.search(token) and not _WITHOUT.fullmatch(token)  # "w/ Ana": a value's mark
        for w in words_of(token)
    }
    ids = [i for i, w in enumerate(words) if i and _AN_ID.fullmatch(w)]
    start: int | None
    # a name is weighed from for a deletion's object, or where a record's id follows it (the words
    # between the two records); a payment's object says more of its record
    by_name = mandate.verb not in TIMED_VERBS and (mandate.verb in _ON_A_RECORD or bool(ids))
    starts = [_end_of_a_name(words, names) or _end_of_a_kind(words, mandate)] if by_name else []
    if ids:
        whole = next((i for i, w in enumerate(words[: ids[0]]) if i and w in _EVERY), None)
        starts.append(ids[0] if whole is None else whole)
    start = min((i for i in starts if i is not None), default=None)
    if start is None:
        return None
    unread: list[str] = []
    skipping = words[start].endswith("'s")  # a record's field, after its possessive
    in_a_name = False  # a later name's words in small letters ("... and Team lunch")
    person: str | None = None  # the word before a name that makes it someone's ("with", "to")
    labels: set[int] = set()
    for i, w in enumerate(words[start + 1 :], start + 1):
        if i == len(words) - 1 and ids and i > ids[-1] and w in _DANGLING:
            unread.append(w)  # "Pay B-31 and B-40 paid.", "... B-40 rest.": said of the record
            continue
        if i in ids:  # another record: a purpose, a field or a name before it ends there
            skipping, in_a_name = w.endswith("'s"), False
            continue
        if w == "for" and mandate.verb in TIMED_VERBS:
            skipping = True  # a payment's purpose: "... for the toner", "... for November"
        if i - 1 in ids and words[i - 1] in _QUARTERS and i > 1 and words[i - 2] in _DESCRIBED | {"the"}:
            continue  # "Cancel the Q3 review": the quarter labels the noun, which names the record
        if i - 1 in ids:  # capitalised words right after an id, up to the object's end or a function
            end = next((j for j in range(i, len(words)) if words[j] not in names or j in ids), len(words))
            label = end > i and (end == len(words) or words[end] in FUNCTION_WORDS)
            label = label and not (
                mandate.verb in PAYING_VERBS and _a_name_in_brackets(written, words[i - 1])
            )
            labels = set(range(i, end)) if label else set()  # word, name no record ("B-40 Disputed",
        alone = i in labels  # "B-40 Under Review")
        # a name after "with" or "to" is someone's: it does not run on in small letters ("... with
        # Bob nvm", "... with Bob view only"); a record's may ("... and Team lunch")
        someones = in_a_name and person is not None
        in_a_name = (w in names and not alone) or (
            in_a_name and not someones and w not in FUNCTION_WORDS and w not in NO_ROLE_WORDS
        )
        if w in names and not alone:
            person = person if someones else (words[i - 1] if words[i - 1] in _TO_SOMEONE else None)
        elif not in_a_name:
            person = None
        if (
            skipping
            or in_a_name
            or (
                (w in COUNTED | _HOW_LONG_OR_HOW_MANY or w in verb_forms(mandate.verb))
                and _A_FIGURE.fullmatch(words[i - 1]) is not None
            )  # "to 3 replicas", "Refill RX-5002 with 2 refills": a count of the act
            or w in values
            or w in _KINDS_AND_PLACES
            or w in FUNCTION_WORDS
            or w in NO_ROLE_WORDS
            or w in _AFTER_THE_RECORD
            or any(ch.isdigit() or ch in "@./#:" for ch in w)  # a value: an address, a time, a file
        ):
            continue
        unread.append(w)
    if unread:  # a sum's purpose ("... 5.00 for the outage", "... as a goodwill gesture")
        said = {w for purpose in purposes_of_a_sum(mandate.sentence) for w in words_of(purpose)}
        unread = [w for w in unread if w not in said]
    return " ".join(unread) if unread else None


#: What a sum is for, after it ("Credit LN-30218 5.00 for the dropped calls", "... for the outage",
#: "Charge 120.00 for the scratched bumper on RES-2055", "Refund 10% of ORD-45001 as a goodwill
#: gesture"): "for" and a determiner, then up to four words in small letters (a name, a figure or an
#: id ends it), to the clause's end or a preposition that names the record.
_A_PURPOSE = re.compile(
    r"(?<![\w-])for[ \t]+(?:the|a|an|his|her|their|its|our|my|your|this|that)[ \t]+"
    r"(?P<what>[a-z][a-z'-]*(?:[ \t]+[a-z][a-z'-]*){0,3}?)"
    r"(?=[ \t]*(?:$|[.,;:!?)\n]|[ \t]+(?:on|to|at|in|from|off)[ \t]))"
    r"|(?<![\w-])as[ \t]+(?:a[ \t]+)?(?P<goodwill>goodwill(?:[ \t]+gesture)?|gesture[ \t]+of[ \t]+goodwill"
    r"|courtesy|compensation)(?![\w-])"
)
#: Words by which what follows "for" is no purpose of a sum: which record or which of several
#: (another, the first, the original), or how much of it.
_NO_PURPOSE = frozenset(
    """
    other another first second third last next previous new old original same both all each every
    remaining rest others whole entire full part half quarter one ones
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def purposes_of_a_sum(text: str) -> list[str]:
    """The phrases by which ``text`` says what a sum it states is for (:data:`_A_PURPOSE`: "for the
    outage", "for the missing fuel", "as a goodwill gesture"), where ``text`` states a sum (a figure
    that is no id: "5.00", "45,00", "10%", "25"): each says why the money moves, not where, to whom,
    when or how much, and names no record. Not where its words name which one (:data:`_NO_PURPOSE`),
    a person (:data:`~policies.supervisor.reading.people.PEOPLE_WORDS`: "for the customer"), a time
    ("for the wait yesterday"; a delay made up for is a purpose), a kind of record ("for the
    invoice") or bear on whether the act is made (:data:`BEARING`: "for the test"), nor one followed
    by a record where the text names another ("Issue P-2205 a voucher for the delay on BK-6010":
    whose the money is, the reader cannot tell)."""
    if not A_SUM.search(text):
        return []
    ids = {w for w in words_of(text) if _AN_ID.fullmatch(w) and any(ch.isalpha() for ch in w)}
    found: list[str] = []
    for m in _A_PURPOSE.finditer(text):
        what = words_of(m.group("what") or m.group("goodwill"))
        place = PLACE_AFTER_A_PURPOSE.match(text, m.end())
        if place is not None and ids - set(words_of(place.group(1))):
            continue  # "Issue P-2205 a voucher for the delay on BK-6010": whose is the money?
        if any(
            w in _NO_PURPOSE
            or w in PEOPLE_WORDS
            or (w in TIME_WORDS | BEARING and w not in ("delay", "delays"))
            or w in _KIND_WORDS
            or w in _KINDS_AND_PLACES
            or w.removesuffix("s") in _RECORD_KIND_WORDS
            for w in what
        ):
            continue
        found.append(m.group(0))
    return found


#: A record named right after a purpose ("... for the scratched bumper on RES-2055").
PLACE_AFTER_A_PURPOSE = re.compile(r"[ \t]+(?:on|to|at|in|from|off)[ \t]+([^\s,.;:!?]+)")
#: A sum of money as the turn writes it: a figure with cents ("5.00", "45,00", "1.200,50"), a share
#: ("10%"), a figure with its currency ("25 EUR", "$25") or one the money it makes says is a sum ("25
#: store credit", "a 20 voucher"); never a bare count ("Scale search to 6 for the demo").
A_SUM = re.compile(
    r"(?i)(?<![\w.,-])(?:[€$£][ \t]?\d[\d.,']*"
    r"|\d[\d.,']*?[.,]\d\d(?![\d.,]*\d)"
    r"|\d[\d.,']*(?:%|[ \t]?(?:eur|euros?|usd|dollars?|gbp|pounds?|chf|€|\$|£)(?![\w-])"
    r"|[ \t]+(?:in[ \t]+)?(?:[a-z]+[ \t]+)?(?:credit|voucher|refund|discount|off)(?![\w-])))"
)
#: The kinds of record a purpose never names ("for the booking": which one?).
_RECORD_KIND_WORDS = frozenset(
    {"booking", "reservation", "appointment", "account", "subscription", "membership", "line", "ticket",
     "shipment", "parcel", "claim", "prescription", "refill", "trip", "deposit", "fee"}
)  # fmt: skip


def _a_name_in_brackets(written: str, record: str) -> bool:
    """Does ``written`` hold, in brackets right after the id ``record``, a name only ("B-31 (City
    Water)", "B-40 [Acme Supplies]")? For a payment it says whom the record is of; the review weighs
    it against the call's payee (a name the call does not hold is asked)."""
    after = rf"(?i:{re.escape(record)})\s*[(\[]\s*[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+){{0,3}}\s*[)\]]"
    return re.search(rf"(?<![\w-]){after}", written) is not None


#: Words after which a name is someone's, to whom or with whom the act is done ("with Bob", "to Ana").
_TO_SOMEONE = frozenset({"with", "to", "cc", "bcc"})


#: A quarter of the year, as a label of what the noun after it names ("the Q3 review").
_QUARTERS = frozenset({"q1", "q2", "q3", "q4"})


#: What a count after a record's id counts ("Scale billing_v2 to 3 replicas"): the count's unit.
COUNTED = frozenset(
    """
    replica replicas pod pods instance instances worker workers copy copies unit units seat
    seats license licenses licence licences item items piece pieces
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: What else a count after a record counts ("Change BK-9001 to 4 nights", "... for 2 guests"): how
#: long or how many, a value of the call, not a part of its record.
_HOW_LONG_OR_HOW_MANY = frozenset(
    """
    night nights day days hour hours room rooms guest guests adult adults ticket tickets passenger
    passengers people persons
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Verbs whose "to" introduces the value a record is set to ("Raise Dana Whitfield's salary to
#: 72000"), not a recipient ("Send 50 to Carla Diaz"): their record is named before the "to". The
#: first line's verbs set a quantity, whose value is a figure and nothing more.
_QUANTITY_VERBS = frozenset({"raise", "increase", "lower", "reduce", "cut", "bump", "decrease"})
_SETTING = _QUANTITY_VERBS | {"set", "change", "update", "adjust", "reset", "correct", "fix"}
#: Verbs whose "down to" is the value a thing is set to ("Scale search back down to 2").
_SIZING = _SETTING | {"scale", "resize", "shrink", "throttle", "limit", "cap", "trim", "downsize", "drop"}
#: A value a record is set to: a figure, with a currency sign or a thousands' "k" ("72000",
#: "72,000", "€72k").
_A_FIGURE = re.compile(r"[$€£]?\d[\d.,']*k?")
_JOINING = frozenset({"and", "&", "plus", "or", "both"})
#: Words after which a record is written as a reference or a text's content, a role the reader
#: knows ("... to 72000 with the memo E-102", "... to match E-102", "... in line with E-102").
REFERENCE_WORDS = frozenset(
    """
    memo reference ref note quoting citing referencing regarding concerning re cf match matching par
    same line subject description comment label
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: A name as written: capitalised words one after the other, up to a possessive or a mark.
_NAME_RUN = re.compile(r"(?<![\w'-])[A-Z][\w-]*(?:'s)?(?:(?<!'s)[ \t]+[A-Z][\w-]*(?:'s)?)*")
_A_NAME = re.compile(r"@?[A-Z][A-Za-z-]*(?:'s)?")
_NOT_NAMES = _DATES | TIME_WORDS | _AFTER_THE_RECORD | FUNCTION_WORDS | {"i'm", "i'd", "i've", "i'll"}


def _a_name_or_an_id(token: str) -> bool:
    """Is a token as written a name ("Sam", "Ortiz's", "@Sam") or a record's id ("E-102",
    "E-102=false"), not a date, a unit nor a word of the reader's?"""
    if _A_NAME.fullmatch(token):
        return token.casefold().lstrip("@").removesuffix("'s") not in _NOT_NAMES
    return any(_AN_ID.fullmatch(w.lstrip("@#")) for w in words_of(token))


def _as_written(mandate: Mandate) -> str:
    """A mandate's object and the clauses that continue it as the sentence writes them, with the
    marks and the "and"s between them; its pieces joined by commas where they are not found."""
    start = mandate.sentence.find(mandate.text)
    last = mandate.coordinated[-1] if mandate.coordinated else mandate.text
    end = mandate.sentence.rfind(last)
    if start < 0 or end < start:
        return ", ".join([mandate.text, *mandate.coordinated])
    return mandate.sentence[start : end + len(last)]


#: The words that end a street's name: what makes a figure and the names after it an address.
_STREETS = frozenset(
    """
    road rd street st avenue ave lane ln way drive dr boulevard blvd rue strasse straße str platz
    place pl court ct square sq terrace close crescent highway hwy alley gasse weg via calle
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _an_address(text: str) -> set[str]:
    """The words of an address a value is written as ("to 4 Pine Road, Springfield", "to 12 Rue
    Verte, 75011 Paris"): a house's number, up to four names and a street's word, and what follows
    to a stop; empty where there is none."""
    tokens = text.split()
    for i, token in enumerate(tokens):
        if not re.fullmatch(r"\d+[A-Za-z]?", token):
            continue
        for j in range(i + 1, min(i + 6, len(tokens))):
            word = tokens[j].rstrip(",.")
            if word.casefold() in _STREETS:
                end = next((k for k in range(j, len(tokens)) if tokens[k][-1:] in ";:!?"), len(tokens))
                return {t.strip(",.;:!?") for t in tokens[i : end + 1]}
            if not word[:1].isupper() or word.endswith("'s") or tokens[j].endswith(","):
                break
    return set()


def _named_beside_the_value(mandate: Mandate) -> str | None:
    """The words of a setting mandate's object ("set ... to 72000") that name someone or something
    the record is not, or None: a name or a record's id after the "to" of its figure ("... to 72000
    Sam Ortiz approved", "... to Sam Ortiz's level, 72000", "Set E-101 to 72000 E-102 ok"), or a
    second name before it that the object does not join to the first by "and" ("Raise Sam Ortiz's
    report Dana Whitfield's salary to 72000", "Raise Dana Whitfield's salary, Sam Ortiz's pick, to
    72000"). What the value is compared with, or who asked for it, is no part of the object. A verb
    that sets more than a quantity ("set", "update") is weighed so only where its object names a
    record before the "to": a value it sets may be written in names ("update my address to 12 Rue
    Verte, 75011 Paris")."""
    if mandate.verb not in _SETTING:
        return None
    written = _as_written(mandate)
    head = re.search(rf"(?i)\b{re.escape(mandate.verb)}\b", written)
    parts = re.split(r"(?i)\bto\b", written[head.end() if head else 0 :], maxsplit=1)
    if len(parts) < 2:
        return None
    before, after = parts
    tokens = [t for t in (t.strip(",.;:!?()[]{}\"'`\u2014-") for t in after.split()) if t]
    if not any(_A_FIGURE.fullmatch(t) for t in tokens):
        return None
    named_before = _NAME_RUN.search(before) or any(_AN_ID.fullmatch(w) for w in words_of(before))
    if mandate.verb not in _QUANTITY_VERBS and not named_before:
        return None
    address = _an_address(after)
    for token in tokens:
        if token.casefold() in REFERENCE_WORDS:  # read: "... with the memo E-102"
            break
        if token not in address and not _A_FIGURE.fullmatch(token) and _a_name_or_an_id(token):
            return " ".join(tokens)
    if _JOINING & set(words_of(before)):
        return None
    # the names before the value, each a run of capitalised words ("Dana Whitfield's", "Sam Ortiz")
    runs = {run.casefold().removesuffix("'s") for run in _NAME_RUN.findall(before)} - _NOT_NAMES
    return sorted(runs)[1] if len(runs) > 1 else None


#: Verbs that take a record away: nothing of theirs goes anywhere, so a destination after the
#: record ("... to Archive", "... as salaries-backup.xlsx") says another action.
DELETING = _ON_A_RECORD - TIMED_VERBS
#: A file's name, a record a deletion names even without a digit ("draft-old.docx").
_A_FILE = re.compile(r"(?<![\w-])[\w-]+(?:\.[\w-]+){0,8}\.[a-z][a-z0-9]{1,4}")
_TO_A_PLACE = frozenset({"to", "into", "onto", "as"})
_BINS = frozenset({"trash", "bin", "wastebasket", "garbage"})
_BY_SOMEONE = frozenset({"via", "by", "through", "thru", "per", "over"})
_WHERE_IT_RUNS = frozenset({"in", "on"})
#: Words that set a deletion's record beside another ("Cancel the Dentist appointment for / around
#: / clashing with the Board meeting"): the other is named, not deleted, and why is not read.
_BESIDE_ANOTHER = frozenset({"for", "around", "near", "clashing", "before", "after", "during"})
_WHERE_IT_IS = frozenset({"in", "on", "from", "off"})
_CLOCK = re.compile(r"\d{1,2}[:.h]\d{2}(?:am|pm)?|\d{1,2}(?:am|pm)")
#: Words that, ending a deletion's object after its records, say something of them ("... and the
#: Board meeting on", "... and salaries-2026.xlsx alone", "... last").
_DANGLING_AFTER_A_DELETION = frozenset({"on", "off", "alone", "last", "later", "separately"})


#: What relates an object to another record: a relative clause ("the bill that replaced B-40") or
#: "for" ("the reminder for the Friday standup"). "Of" names an owner ("the salaries of Dana").
_RELATING = re.compile(r"(?i)\b(that|which|who|whose|for|inside|within|above|beneath)\b")
#: Of :data:`_RELATING`, the words by which an object is what a named record holds ("the
#: thumbnails inside /media/photos"): never the record itself, whatever its kind.
_HELD_IN = frozenset({"inside", "within", "above", "beneath"})
#: Where a noun phrase of an object starts after the words before it ("500 to the account ...").
_PHRASE_START = re.compile(r"(?i)\b(?:to|from|into|onto|with)\b")
#: Nouns of a record's own kind or of what its owner has: "the account for Mallory", "the file for
#: /tmp/a.log", "the salary for Dana" name the record.
_RECORD_KINDS = frozenset(
    """
    account accounts file files folder event events meeting meetings service services role roles user
    users iban salary salaries wage address password access permission permissions limit quota plan
    subscription membership
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Nouns of what money is paid on, a record's own kind for a verb of paying only ("Pay the bill for
#: B-40"; "Cancel the invoice for the company picnic" cancels an invoice).
_PAID_KINDS = frozenset(
    """
    bill bills invoice invoices order orders payment payments amount sum total balance
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Verbs of a message: what their object says ("that ...", "for ...") is content, not a record.
_MESSAGING = frozenset(
    """
    tell ask email e-mail mail dm message text post reply answer write notify inform let remind say
    forward ping sms slack whatsapp tweet msg pm txt confirm warn alert
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: A word of a day or a figure ("2026-11-24", "24.11.2026", "24th", "3pm", "12"), no record's name.
_A_DAY = re.compile(r"\d+(?:[-./]\d+){0,2}(?:st|nd|rd|th|am|pm|h)?")
#: Words after a relative pronoun that describe the record itself ("the meeting that's on Friday").
_DESCRIBING = frozenset({"is", "are", "was", "were", "'s", "has", "had", "will", "still", "i", "we"})


#: Words by which an object is a part of the record the call takes whole ("Pay half B-41", "Pay
#: the minimum on B-40", "Restart some payments pods").
_A_PART = frozenset(
    """
    half halves partial partially minimum part portion fraction third thirds quarter some
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words that count units of a record before the unit ("one redis replica", "a single pod").
_FEW = frozenset({"one", "single", "a", "two", "three", "few", "several", "every", "other", "1", "2", "3"})
#: Units a record is made of, counted ("one redis replica", "one Friday offsite session").
_COUNTED_PARTS = COUNTED | {
    "session",
    "sessions",
    "node",
    "nodes",
    "container",
    "containers",
    "occurrence",
    "occurrences",
}


def _a_part_of_it(words: Sequence[str]) -> str | None:
    """The words of a mandate's object that take a part of its record, or None: a word of a part
    (:data:`_A_PART`, "one-third"), or a count of units ("one redis replica", "every other nginx
    pod"; :data:`COUNTED`) where the call acts on the whole."""
    for i, word in enumerate(words):
        parts = set(re.split(r"[-_]+", word))
        if word in _A_PART or (len(parts) > 1 and parts & _A_PART and parts & (_FEW | {"two"})):
            return word
        if word in _COUNTED_PARTS and set(words[max(0, i - 3) : i]) & _FEW:
            return " ".join(words[max(0, i - 3) : i + 1])
    return None


def _of_a_kind(noun: str, kinds: Collection[str]) -> bool:
    """Is ``noun`` one of ``kinds``, or its plural ("passwords", "addresses")?"""
    return noun in kinds or noun.removesuffix("s") in kinds or noun.removesuffix("es") in kinds


def _named_through_another(mandate: Mandate, accounted: frozenset[str] = frozenset()) -> str | None:
    """The words by which a mandate's object is named only through another record, or None: the
    noun phrase before them names nothing ("the bill", "the reminder") and what they relate it to
    is named ("Pay the bill that replaced B-40", "Cancel the reminder for the Friday standup").
    The named record is not what the call acts on, and the reader cannot say which is: asked. "The
    account for Mallory", "the bill for B-40" (a record's own kind) and "the meeting that's on
    Friday" (said of the record itself) name it."""
    verb = (
        re.search(rf"(?i)(?<![\w-]){re.escape(mandate.words[0])}(?![\w-])", mandate.text)
        if mandate.words
        else None
    )
    text = mandate.text[verb.end() :] if verb is not None else ""
    found = _RELATING.search(text)
    if found is None:
        return None
    before, after = text[: found.start()], text[found.start() :]
    phrase = _PHRASE_START.split(before)[-1]
    opened = [m for m in re.finditer(r"[\w']+", phrase) if m.group(0).casefold() in _DESCRIBED | {"the"}]
    if not opened:
        return None  # "Restart payments for OPS-12": a name, not a description ("the reminder ...")
    phrase = phrase[opened[-1].start() :]  # "alice the ticket": the ticket
    nouns = [w for w in words_of(phrase) if w not in FUNCTION_WORDS]
    kinds = _RECORD_KINDS | _PAID_KINDS if mandate.verb in TIMED_VERBS else _RECORD_KINDS
    if (
        not nouns
        or {w for w in naming_words("- " + phrase) if not _of_a_kind(w, kinds)}
        or re.search(r"[/@]\S", phrase)
    ):
        return None  # the object names a record of its own before them
    relating, rest = found.group(1).casefold(), words_of(after)[1:]
    if mandate.verb in _MESSAGING or mandate.verb in READING_VERBS:
        return None  # "email the customer that ORD-1002 ships", "... the agenda for the Board": content
    if relating in _HELD_IN:
        return after.strip() if _text_names_a_record(after) else None
    if relating == "for" and all_accounted(" ".join(nouns), accounted):
        return None  # "a credit note for INV-7", "a return label for ORD-1": what the call makes for it
    if relating == "for":  # the object's last words, naming something not of a time
        content = [
            w for w in rest if w not in FUNCTION_WORDS and w not in TIME_WORDS and not _A_DAY.fullmatch(w)
        ]
        further = _PHRASE_START.search(after, len(relating))
        dated = _time_word(rest) is not None or _numeric_date(rest) is not None
        if _of_a_kind(nouns[-1], kinds) or not content or further is not None or dated:
            return None  # "the account of Mallory", "the booking for tomorrow", "... for Q3 to bob"
    elif not rest or rest[0] in _DESCRIBING or rest[0].endswith("'s"):
        return None  # "the meeting that's on Friday": said of the record itself
    elif not _text_names_a_record(after):
        return None
    return after.strip()


def _text_names_a_record(text: str) -> bool:
    """Whether ``text`` names a record: a name the records spell, an address or a path."""
    return bool(naming_words("- " + text) or re.search(r"[/@]\S", text))


def _a_record_token(word: str) -> bool:
    return bool(_AN_ID.fullmatch(word) or _A_FILE.fullmatch(word))


def _said_after_a_deletion(words: Sequence[str], mandate: Mandate) -> str | None:
    """The words after a deletion's first record that say something the reader cannot read of
    it, or None: a destination ("Delete A and B to Archive", "... to v2", "... as
    salaries-backup.xlsx", "Delete A to avoid confusion with B"; "to the trash" is read), someone
    it goes by ("... via HR", "... per Priya", "... over Priya's objection"), someone else's place
    ("... on Priya's calendar"), a place it runs in that is no date nor time ("... in sandbox2",
    "... on staging.corp.example"), a value it is for ("... for Q3"), or a word that ends the object
    after the records ("... and the Board meeting on", "... alone")."""
    records = [i for i, w in enumerate(words) if i and _a_record_token(w)]
    names = _written_names(mandate)
    name_ends = _end_of_a_name(words, names) or _end_of_a_kind(words, mandate)
    first = min((i for i in (*records[:1], name_ends) if i is not None), default=None)
    if first is None:
        return None
    several = len(records) > 1 or bool(mandate.coordinated)
    for i in range(first + 1, len(words)):
        w = words[i]
        back = i - 1 if i - 1 > first and words[i - 1] not in _OBJECT_OPENERS else i - 2
        before = words[back] if back > first else words[i - 1]  # over an article: "... for the Board"
        bin_ = [x for x in words[i + 1 : i + 4] if x not in ("the", "my", "recycle")][:1]
        if w in _TO_A_PLACE and not (bin_ and (bin_[0] in _BINS or "@" in bin_[0])):  # or whom it tells
            return " ".join(words[i:])
        named = w in names or w.removesuffix("'s") in names
        by_it = words[back - 1]  # "the Standup with Ana", "budget-2027.xlsx with Ana"; not "clashing with"
        with_another = before == "with" and not (by_it in names | _KINDS_AND_PLACES or _a_record_token(by_it))
        if (
            (before in _BY_SOMEONE | _BESIDE_ANOTHER and named)
            or (with_another and named)
            or (before in _WHERE_IT_IS and named and w.endswith("'s"))
        ):
            return " ".join(words[i - 1 :])  # "... per Priya", "... on Priya's calendar"
        a_value = bool(_VALUE_MARKS.search(w)) or "." in w
        if before == "for" and a_value:
            return " ".join(words[i - 1 :])  # "... for Q3", "... for v2"
        if before in _WHERE_IT_RUNS and a_value and not (_FIGURE_DATE.fullmatch(w) or _CLOCK.fullmatch(w)):
            return " ".join(words[i - 1 :])
        if i == len(words) - 1 and w in _DANGLING_AFTER_A_DELETION and several:
            return w
    return None


_ADVERBS_BEFORE = frozenset({"only", "just", "also", "then", "simply", "merely"})
_OBJECT_OPENERS = frozenset(
    {"the", "my", "our", "their", "this", "that", "these", "those", "a", "an", "its", "his", "her"}
)


#: Who a clause of its own may open with ("I need the Board meeting", "we keep ...").
_SUBJECTS = frozenset({"i", "we", "you", "he", "she", "they", "it", "i'm", "we're", "they're"})


def _a_clause_of_its_own(tokens: Sequence[str]) -> bool:
    """Do the words of a clause that continues an object open with a subject (a pronoun, or a name
    written with a capital), then a word in small letters, then an object of its own ("I need the
    Board meeting", "HR handles salaries-2026.xlsx", "Priya owns the Board meeting") that names a
    record? A clause with a subject and a verb of its own says something of what it names, and is
    no part of the object; one that names nothing gives a reason ("he covered the tip")."""
    if len(tokens) < 3:
        return False
    subject, verb, after = tokens[0], tokens[1], tokens[2]
    return (
        (
            subject.casefold() in _SUBJECTS
            or (subject[:1].isupper() and not any(ch.isdigit() for ch in subject))
        )
        and verb[:1].islower()
        and verb.casefold() not in FUNCTION_WORDS
        and (after.casefold() in _OBJECT_OPENERS or _AN_ID.fullmatch(after.casefold()) is not None)
        and bool(naming_words(" ".join(["-", *tokens[2:]])))  # it names a record ("he covered the tip": none)
    )


def _a_verb_of_its_own(text: str) -> bool:
    """Does a clause that continues a mandate's object open with a word the grammar does not know,
    written in lower case, before an object of its own ("only preview the Acme bill B-40",
    "simulate the ..."): a verb the reader cannot read, so the clause is no part of the object? A
    list's item written as a name ("Renew my passport") is not one."""
    rest = text.split()
    while rest and rest[0].casefold() in _ADVERBS_BEFORE:
        rest = rest[1:]
    if _a_clause_of_its_own(rest):
        return True
    return (
        len(rest) > 1
        and rest[0][:1].islower()
        and rest[0].casefold() not in FUNCTION_WORDS
        and not any(ch.isdigit() for ch in rest[0])
        and rest[1].casefold() in _OBJECT_OPENERS
    )


#: The words an item of a list written with commas may hold beside its record's name or id: what
#: points to it, its kind and place, and a word of politeness ("..., the Board meeting",
#: "..., B-40 too", "..., salaries-2026.xlsx please").
_A_LISTED_RECORD = (
    _OBJECT_OPENERS
    | _KINDS_AND_PLACES
    | _KIND_WORDS
    | NO_ROLE_WORDS
    | frozenset({"and", "&", "or", "too", "also", "both", "bill", "bills", "invoice", "invoices"})
)


_PREPOSITIONS = frozenset(
    {"with", "from", "to", "for", "via", "by", "at", "in", "on", "into", "using", "through", "under", "per"}
)


def _after_a_comma(mandate: Mandate, text: str) -> bool:
    """Is a clause that continues a mandate's object written after a comma ("Cancel the Dentist
    appointment, the Board meeting"), not after "and" nor on a line of its own?"""
    at = mandate.sentence.find(text)
    return at > 0 and mandate.sentence[:at].rstrip(" \t").endswith(",")


def _said_of_a_listed_record(mandate: Mandate, text: str) -> str | None:
    """The words an item after a comma says beside the record it names, or None: an item of a list
    holds a record's name or id and what points to it (:data:`_A_LISTED_RECORD`), nothing else. One
    that says more is a remark on the record, no part of the object ("..., Board meeting on.",
    "..., Priya decides on the Board meeting.", "..., salaries-2026.xlsx alone.", "..., too near the
    Board meeting", "..., salaries-2026.xlsx to Archive")."""
    if not _after_a_comma(mandate, text) or text.split()[0].casefold() in _PREPOSITIONS:
        return None  # "..., with the reference Electricity April": how, where, from which account
    names = {w.casefold() for w in _CAPITALISED.findall(text)}
    tokens = words_of(text)
    if not naming_words(f"- {text}") or labelled_figure(tokens):
        return None  # it names no record: a reason ("..., he covered the tip"), a figure ("..., amount 75")
    said = [
        w
        for w in tokens
        if w not in names
        and w.removesuffix("'s") not in names | _A_LISTED_RECORD
        and not _VALUE_MARKS.search(w)
        and "." not in w
    ]
    return " ".join(said) if said else None


def _dated_apart(sentence: str, dated: bool = True) -> str | None:
    """A date in figures written apart from any record (:data:`_DATE_APART`), or after a channel
    (which has no day: "Post ... in #release on 15.12."), for a verb whose object may otherwise be
    named by its day: when the call is to be made, or None. For a verb that makes nothing dated
    (not ``dated``: "Cancel BK-9002 on 15.12.", "Share ... with Yuki Sato on 1.1.2027"), after a
    record's id or a person named too."""
    match = _DATE_APART.search(sentence) or _DATE_AFTER_A_CHANNEL.search(sentence)
    if match is None and not dated:
        match = _DATE_AFTER_AN_ID_OR_A_PERSON.search(sentence)
    return next(g for g in match.groups() if g).lower() if match else None


#: A dotted date ("on 15.12.2026", "by 1.1.") after what has no day: a channel, or (for a verb that
#: makes nothing dated) a record's id or a person ("Cancel BK-9002 on 15.12.2026"). A day of a
#: month and a month: "by 35.00" is a sum ("Discount MI-705 by 35.00").
_DOTTED_DATE_PHRASE = (
    r"((?:on|by|before|after|until|till)\s+(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])"
    r"(?:\.(?:\d{2,4})?)?(?![\d-]))"
)
_DATE_AFTER_A_CHANNEL = re.compile(
    rf"(?i)(?<![\w-])#[\w-]+\s+(?:{_DOTTED_DATE_PHRASE}|{_FIGURE_DATE_PHRASE})"
)  # a channel has no day: an ISO date after it says when too
_DATE_AFTER_AN_ID_OR_A_PERSON = re.compile(
    rf"(?:(?<![\w-])(?=[\w-]*\d)[A-Za-z][\w-]*|\b(?i:with|to|for|cc)\s+[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)"
    rf"\s+(?i:{_DOTTED_DATE_PHRASE})"
)
_FISCAL_YEAR = re.compile(r"(?:fy|cy)'?\d{2}(?:\d{2})?")


#: What a delay is written after as the topic of a message, not a deferral ("email Ben about the
#: delay", "apologise for the delay").
_A_DELAY_AS_TOPIC = frozenset({"about", "for", "regarding", "re", "on", "over", "concerning"})


#: Days named by their place from today, whose possessive names one day's ("tomorrow's standup").
_DAYS_NAMED = frozenset({"today", "tomorrow", "tonight", "yesterday"})


def _time_word(words: Sequence[str]) -> str | None:
    for i, word in enumerate(words):
        delay = word in ("delay", "delays") and i > 1 and words[i - 1] in ("the", "a", "this", "that")
        if delay and words[i - 2] in _A_DELAY_AS_TOPIC:
            continue  # "about the delay": what the message is about
        if word in TIME_WORDS:
            return word
        phrase = _time_phrase(words, i)
        if phrase is not None:
            return phrase
        if word.startswith("mid") and word.removeprefix("mid").lstrip("-") in (_DATES | _UNITS):
            return word  # "mid-December", "midweek", "mid-month"
        if word.startswith("post-") and len(word) > 5:
            return word  # "post-audit", "post-launch": after something that has not happened
        if _FISCAL_YEAR.fullmatch(word) and i > 0 and words[i - 1] in _BEFORE_A_DATE:
            return " ".join(words[i - 1 : i + 1])  # "in FY27", "by FY2027"
        if word.endswith("'s") and word[:-2] in _WEEKDAYS | _DAYS_NAMED:
            return word  # "cancel Friday's daily-standup": one day's, not the record's every day
        if word not in _DATES:
            continue
        if i > 0 and words[i - 1] in _MID:  # "in mid December"
            return " ".join(words[i - 1 : i + 1])
        if i > 1 and words[i - 1] == "of" and words[i - 2] in _PARTS_OF_A_PERIOD:  # "first week of January"
            return " ".join(words[i - 2 : i + 1])
        back = i - 1  # over the day of the month ("on the first of March", "by 1 March")
        while back > 0 and (words[back] in _DAY_OF_MONTH or _DAY.fullmatch(words[back])):
            back -= 1
        if back >= 0 and words[back] in _BEFORE_A_DATE:
            return " ".join(words[back : i + 1])
        if word in _WEEKDAYS and _a_weekday_ends(words[i + 1 :]) and words[i - 1 : i] not in _OF_A_DAY:
            return word  # "... B-40 Monday", "... Fri morning"; not "the agenda for Monday"
    return None


#: Verbs that take what they name out when "out" closes it ("leave Jonas Berg out", "keep B-40 out").
_OUT_VERBS = frozenset({"leave", "leaving", "keep", "keeping", "count"})


def _excluding_word(words: Sequence[str]) -> str | None:
    for i, word in enumerate(words):
        if word in EXCLUDING_WORDS:
            return word
        for run in _EXCLUDING_RUNS:
            if tuple(words[i : i + len(run)]) == run:
                return " ".join(run)
        if word in _OUT_VERBS and "out" in words[i + 2 : i + 7]:  # what it takes out stands between
            return " ".join(words[i : words.index("out", i + 2) + 1])
    return None


def _own_words(mandate: Mandate, clauses: Sequence[Clause]) -> list[str]:
    """The words a mandate asks with: its clause's from its head to the end of what it asks, and
    those of the clauses that continue its object, never a quoted name or a message's content
    ("DM my manager that I'll be out tomorrow": not "tomorrow"). A mandate no clause of the grammar
    holds (a model's) asks with its own words."""
    own: list[str] = []
    for clause in clauses:
        own_clause = clause.text == mandate.text and clause.sentence == mandate.sentence
        continues = clause.text in mandate.coordinated and clause.text != mandate.text
        if not (own_clause or continues):
            continue  # its own clause, or one that continues its object (a list's line below it too)
        start = clause.head if clause.text == mandate.text and clause.head is not None else 0
        stop = clause.stop if clause.text == mandate.text and clause.head is not None else len(clause.words)
        own += [w for i, w in enumerate(clause.words[start:stop], start) if i not in clause.quoted]
    return own or list(mandate.words)


#: Words by which an object takes in every record of its kind ("all my bills", "every invoice").
_EVERY = frozenset({"all", "every", "each", "any", "everything", "anything", "everyone", "everybody"})


#: Words that take one out of a whole after a word of every ("all my events save / bar / minus /
#: leaving the Board meeting"); elsewhere they are content ("save the file", "the bar tab").
_BUT_FOR = frozenset({"save", "bar", "barring", "minus", "less", "leaving", "sans", "excl", "ex"})


#: Of :data:`_BUT_FOR`, those that take a record out of any object but an amount ("Clear the
#: 25th minus the Board meeting"); for a verb of moving money they are arithmetic ("pay ... the
#: 210 EUR dinner minus the 70 EUR I sent", a stated operation the gateway follows).
_MINUS_WORDS = frozenset({"minus", "sans", "excl", "barring"})


def _all_but(words: Sequence[str], verb: str = "") -> str | None:
    if verb not in TIMED_VERBS:
        minus = next((w for w in words[1:] if w in _MINUS_WORDS), None)
        if minus is not None:
            return minus
    every = next((i for i, w in enumerate(words) if w in _EVERY), None)
    if every is None:
        return None
    return next((f"{words[every]} ... {w}" for w in words[every + 1 :] if w in _BUT_FOR), None)


def _instead_of(words: Sequence[str]) -> bool:
    return tuple(words[:2]) == ("instead", "of") or tuple(words[:2]) == ("rather", "than")


def _instead_of_some(mandate: Mandate, own: Sequence[str], instead: Sequence[Clause]) -> str | None:
    """Where a mandate takes in every record of a kind ("Pay all my bills instead of the Acme
    one"), the "instead of" clause of its sentence that may take one of them out: what it takes out
    is not read (its words, shown); None where the object is no such whole, or there is no such
    clause ("Email ana the agenda instead of bob": ana is who the mandate names)."""
    if not _EVERY & set(own):
        return None
    return next((c.text for c in instead if c.sentence == mandate.sentence), None)


#: A mark standing alone between words that no construction of the grammar gives a role ("Pay
#: B-31 | B-40", "B-31 != B-40", "ana ~ mallory", "B-31 > B-40"): the reader reads words, so what
#: the mark says of the records around it (an alternative, a comparison, an order) is not read. A
#: mark opening a line is a list's bullet ("* B-40"), read as such.
_ROLELESS_MARK = re.compile(r"(?<=\S)[ \t]+(\|\|?|~|\^|\\{1,2}|!=|==?|<|>|\*)[ \t]+(?=\S)")


#: A mark written beside a record that says something of it the reader cannot read: a bracket
#: that holds only a mark ("B-40 (x)", "(-)", "[ ]"; not a markdown link), an emoji's shortcode
#: (":no_entry:"), a plus or a minus standing alone ("B-31 +, B-40 -", "-1"), a slash between words
#: ("B-40 / B-31": one or the other), a star opening a record's id ("*B-31": a correction), an
#: emoticon of a joke (":P", ";)", "xD"; a smile is politeness), "j/k", a count ("x2"), a hashtag
#: or a tone tag ("#not", "/jk"), a word glued to an id ("B-40-not"), a code span ("`no`"), a tag
#: or a quoted word after an id ("B-40 #disputed", "B-40 @never", "B-40 'no'"), a quoted or starred
#: word before one ("and "pay" B-40", "and *settle* B-40": scare quotes), a sign of a status or a
#: verdict ("Restart payments: ❌", "✅", "⛔").
_A_MARK_BESIDE = re.compile(
    r"\([\s\-+xX\u2713\u2717\u2013\u2212n?!*]{0,3}\)"
    r"|\[[\s\-+xX\u2713\u2717]{0,3}\](?!\()"
    r"|(?<!\S):[a-z0-9_+\-]+:(?!\S)"
    r"|(?<=\S)[ \t]+[+\-\u2013\u2212]\d?(?=[,.;]|\s*$)"
    r"|(?<=\S)[ \t]+/[ \t]+(?=\S)"
    r"|(?<![\w/])(?:[Nn]/[Aa]|TBD|tbd|TBC|tbc|[Jj]/[Kk]|/s)(?![\w/])"
    r"|(?<!\S)(?:[:=8][-'^]?[Pp]+|;[-'^]?[)PpDd]+|[xX][DdPp])(?!\S)"
    r"|(?<!\S)[xX\u00d7]\d+(?!\S)"
    r"|(?i:(?<!\S)#(?:not|no|nope|never|skip|keep|hold|jk|kidding|joke|sarcasm|later|wait|ignore|nvm)"
    r"|(?<=\S)=(?:false|no|off)|(?<!\S)_(?:not|no|nope|never|skip|keep|hold|jk)_"
    r"|[\"'\u201c\u2018]\(?(?:no|not|nope|never|skip|keep|hold|jk|x)\)?[\"'\u201d\u2019])(?=[\s.,;:?)]|$)"
    r"|(?<!\S)/(?:jk|j|s|sarc|no|not|srs|hj|lh|nm|nvm)(?![\w/])"
    r"|(?<=\d)[-._#+=](?:not|no|nope|never|skip|keep|hold|false|jk|lol)(?=[\s.,;:?)]|$)"
    r"|`[A-Za-z !?']{1,20}`"
    r"|(?<=\d)[ \t]+[#@/_+=]+[A-Za-z][\w-]*/?_?"
    r"|(?<=\d)[ \t]+[\"'\u201c\u2018][^\"'\u201d\u2019\n]{1,25}[\"'\u201d\u2019]"
    r"|(?<!\S)#(?=[A-Za-z]{1,4}-\d+(?:[\s.,;]|$))"
    r"|[\"'\u201c\u2018*_][A-Za-z]+(?: [A-Za-z]+)?[\"'\u201d\u2019*_][ \t]+"
    r"(?=[A-Za-z]+-?\d|(?:the |my |our )?[A-Z])"
    r"|(?<!\S)\*(?=[A-Za-z]+-?\d+\*?(?:[\s.,;]|$))"
    # a status or a verdict as a sign: "Restart payments: ❌", "- payments ✅", "⛔", "🚫", "⚠"
    r"|[\u274c\u274e\u2717\u2718\u2705\u2713\u2714\u2611\u26d4\u26a0\u23f8\u23f3\U0001F6AB\U0001F6D1]"
)


def _roleless_mark(mandate: Mandate, request: str) -> str | None:
    """A mark of :data:`_ROLELESS_MARK` in the mandate's clause or in one continuing its object, or
    one of :data:`_A_MARK_BESIDE` in the turn from where the mandate starts to its line's end (an
    aside in brackets is no part of the mandate's text: "Pay B-31 and B-40 (x)")."""
    found = (_ROLELESS_MARK.search(text) for text in (mandate.text, *mandate.coordinated))
    mark = next((m.group(1) for m in found if m is not None), None)
    if mark is not None:
        return mark
    at = request.find(mandate.text) if request else -1
    line = request[at:].split("\n", 1)[0] if at >= 0 else mandate.sentence
    beside = _A_MARK_BESIDE.search(line)
    if beside is not None:
        return beside.group(0).strip()
    tags = (
        m
        for m in _A_TAG.finditer(request or mandate.sentence)
        if set((m.group(1) or m.group(2)).lower().split("-")) & _TAGS_NOT_MEANT
    )
    return next((m.group(0) for m in tags), None)  # "Pay B-40 [DRAFT]", "[SPAM]\nPay B-40", "#spam: ..."


#: A word in brackets, as a message is tagged ("[DRAFT]", "(test)", "[WIP]").
_A_TAG = re.compile(r"[\[(]\s*([A-Za-z][A-Za-z-]*)\s*[\])]|(?<![\w#])#([A-Za-z][A-Za-z-]*)\b")
#: The tags that say a message is not meant as it stands: a draft, an example, a status.
_TAGS_NOT_MEANT = (
    _DISCREDITING
    | _VERDICTS
    | frozenset(
        {"draft", "wip", "unsent", "old", "void", "ignore", "ignored", "obsolete", "archive", "archived"}
    )
    | frozenset({"sim", "simulation", "training", "exercise", "quiz", "fiction", "roleplay", "rp", "satire"})
) - frozenset({"thought", "better", "best", "rather", "actually", "mean", "instead", "though", "however"})


#: A line of a list and the mark it opens with: a checkbox, a bracket, a bullet, a number.
_LINE_MARK = re.compile(
    r"^[ \t]*(\[[^\]\n]{0,2}\]|\([^)\n]{0,2}\)|[-+*\u2022\u2013\u2212]|\d+[.)])[ \t]*(\S.*)$", re.M
)


def lines_marked_apart(request: str) -> list[str]:
    """The lines of a list in ``request`` whose marks differ ("[x] B-31" and "[ ] B-40", "+ B-31"
    and "- B-40"): a mark that sets some lines apart says something of them the reader cannot read.
    Empty where every line opens with the same mark, or with a number ("1.", "2.")."""
    marked = [(m.group(1).replace(" ", "") or "[]", m.group(2)) for m in _LINE_MARK.finditer(request)]
    kinds = {mark for mark, _ in marked if not mark[:1].isdigit()}
    return [text for _, text in marked] if len(kinds) > 1 else []


#: Words by which an object picks out some of several records ("the first of B-31 and B-40", "the
#: water one out of ...", "the more urgent among ..."); what may stand before them and take all.
_PARTITIVE = frozenset({"of", "among", "amongst", "between"})
_SUMMING = frozenset(
    {"sum", "total", "totals", "combined", "aggregate", "whole", "entire", "balances", "amounts"}
)
_TAKING_ALL = _OBJECT_OPENERS | _EVERY | frozenset({"both", "only", "just", "please", "these", "those"})


#: "than" written "then" after "other" or "rather" ("Pay all bills other then B-40"): the sentence
#: splits there, as at a "then" of sequence, so the exclusion is found in the sentence.
_THAN_MISSPELT = re.compile(r"(?i)\b(?:other|rather)\s+then\b")


@lru_cache(maxsize=1024)  # read by two checks of the same mandate
def _names_in(mandate: Mandate) -> frozenset[str]:
    """The words a mandate's object writes with a capital after its first (its records' names)."""
    written = " ".join([mandate.text, *mandate.coordinated])
    return frozenset(w.casefold() for w in _CAPITALISED.findall(written)[1:]) - _NOT_NAMES


def _one_beside_every(words: Sequence[str], names: Collection[str]) -> str | None:
    """The words from a word of every to a record the object then names by its name ("Cancel all
    my events on 2026-11-25 eccetto the Board meeting", "... siwa the Board meeting"), or None:
    whether the one is taken out of the whole or added to it, a word the reader does not know
    before it says; the reader cannot tell, so the mandate is uncertain. "all of", "each of" before
    a list, "including", and a function word before the name ("all my reviews with Ana Silva") read
    the record as part of the whole."""
    every = next((i for i, w in enumerate(words) if i and w in _EVERY), None)
    if every is None or words[every + 1 : every + 2] == ["of"]:
        return None
    named = next(
        (i for i, w in enumerate(words) if i > every and w in names and not any(c.isdigit() for c in w)), None
    )  # a record named by its id there is weighed as the words after it are
    if named is None or {"including", "incl", "plus", "and"} & set(words[every:named]):
        return None
    back = named - 1
    while back > every and words[back] in _OBJECT_OPENERS:
        back -= 1
    joining = words[back]  # what sets the name beside the whole: a word the grammar has no role for
    if joining in FUNCTION_WORDS or joining in _KINDS_AND_PLACES or _VALUE_MARKS.search(joining):
        return None  # "all my reviews with Ana Silva", "all my events on 2026-11-25 in Lisbon"
    return " ".join(words[every : named + 1])


def _misspelt_than(sentence: str) -> str | None:
    found = _THAN_MISSPELT.search(sentence)
    return found.group(0) if found is not None else None


_ORDINAL = re.compile(r"(?<!\d)\d+(?:st|nd|rd|th)")


def _one_of_several(words: Sequence[str], names: Collection[str] = ()) -> str | None:
    """The words by which a mandate's object picks some of the several records it names, or None:
    words before a partitive "of" that take not all of them ("Pay the first of B-31 and B-40", "the
    City Water bill of B-31 and B-40", "the former of ..."). Which one, the reader cannot tell."""
    ids = {i for i, w in enumerate(words) if i and _a_record_token(w) and not _ORDINAL.fullmatch(w)}
    # where no record is named by an id, one named by its name counts where its name starts ("the
    # Board meeting"); a name beside an id names the same record ("the Acme Supplies bill B-40")
    ids = ids or {i for i, w in enumerate(words) if i and w in names and words[i - 1] not in names}
    at = next(
        (i for i, w in enumerate(words) if i and w in _PARTITIVE and sum(1 for j in ids if j > i) > 1), None
    )
    if at is None:
        return None
    if _SUMMING & set(words[1:at]):
        return None  # "Pay City Water the sum of B-31, B-32 and B-33"
    picking = [w for w in words[1:at] if w not in _TAKING_ALL and w != "out"]
    return " ".join([*picking, words[at]]) if picking else None


#: How often or on what an action is to happen, or for how long, written after its object ("Restart
#: payments every night", "... weekly", "... on failure", "... in the event of a hang", "Grant asmith
#: admin for 2 hours"): a call made now keeps none of it. A clock time or a date may name a record
#: ("Cancel the Board meeting at 15:00"): the review weighs those (:func:`when_written`).
_SCHEDULE = re.compile(
    r"(?i)\b(?:hourly|daily|nightly|weekly|biweekly|fortnightly|monthly|quarterly|yearly|annually)\b"
    r"(?=\s*(?:$|[,.;!?)]|(?:at|on|in|from|until|till|and|or|starting|please|thanks|going)\b))"
    r"|\bwhenever\b|\b(?:every|each)\s+(?:other\s+|\d+\s+)?(?:time|times|minute|minutes|hour|hours|day|days|night|nights"
    r"|week|weeks|month|months|morning|mornings|evening|evenings|year|years|sprint|release|deploy)\b"
    r"|\bfor\s+(?:\d+|an?|one|two|three|four|five|six|ten|twelve)\s+(?:minutes?|mins?|hours?|hrs?|days?"
    r"|weeks?|months?)\b"
    r"|\bon\s+(?:failure|fail|error|errors|alert|alerts|oom|crash|crashes|timeout|timeouts|request|demand"
    r"|hang|hangs|incident|page)\b|\bin\s+(?:the\s+)?event\b|\bin\s+case\b"
    r"|\b(?:top|end|start|beginning)\s+of\s+the\s+(?:hour|day|week|month|quarter|year)\b"
    r"|\b(?:last|first)\s+day\b|\bstart\s+date\b"
    # on a signal or an event still to come: "on my mark", "the moment it hangs", "for the
    # duration of the audit", "in 5 minutes"
    r"|\bon\s+my\s+(?:mark|signal|go|command|cue|word|count|say-so)\b"
    r"|\b(?:the\s+)?(?:moment|minute|second|instant)\s+(?:it|they|that|this|we|you|he|she|i|the)\b"
    r"|\bfor\s+the\s+(?:duration|length|rest|remainder|course)\s+of\b"
    r"|\bin\s+(?:\d+|a\s+few|few|a\s+couple\s+of|an?|one|two|three|five|ten|fifteen|twenty|thirty)"
    r"\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?)\b"
    # for a while only: "temporarily", "temp admin", "just for today's release", "for Q1 only"
    r"|\btemporar(?:y|ily)\b|(?<![\w./@-])(?:temp|jit)(?![\w./@-])|\b(?:just|only)\s+for\b"
    r"|\bfor\s+[\w' ]{1,24}?\s+only\b|\buntil\s+further\s+notice\b"
)
#: A clock time or a date in figures after a word of time ("at 3am", "at 17:30", "on 2026-03-31",
#: "on 31/03", "at midnight"): when to act, unless it names a record.
WHEN = re.compile(
    r"(?i)\b(?:at|by|before|after|until|till|on|from)\s+(?:around\s+|about\s+)?"
    r"(\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}(?![\d:])|noon|midnight|midday"
    r"|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?)(?![\w/-])"
)


def _scheduled(text: str) -> str | None:
    """The first of :data:`_SCHEDULE` in ``text`` (a mandate's words after its verb), or None."""
    match = _SCHEDULE.search(text)
    return match.group(0) if match else None


#: Words that put an action up for rehearsal, as an example or a plan, not to be done now
#: ("Restart payments --dry-run", "What-if: scale ...", "e.g. refund ORD-1004", "Q3 goal: ...",
#: "TODO: restart payments", "Plan: ...", "Runbook step 4: ...").
_NOT_FOR_REAL = re.compile(
    r"(?i)(?:^|(?<=[\s(\[]))(?:--)?(?:dry[\s-]?run|what[\s-]if|e\.g\.|for\s+example|for\s+instance"
    r"|hypothetical(?:ly)?|in\s+theory|simulat(?:e|ed|ion)|pretend"
    # an idiom of no ("... over my dead body", "... in your dreams", "in a parallel universe")
    r"|over\s+my\s+dead\s+body|in\s+(?:my|your)\s+(?:wildest\s+)?dreams|in\s+a\s+parallel\s+universe"
    r"|in\s+another\s+life|when\s+pigs\s+fly|lol|lmao|rofl|jk|j/k|just\s+kidding"
    # the act inside a document ("Pay B-40 in the forecast sheet", "... in the migration plan")
    r"|in\s+(?:the|my|our|this|that|a)\s+(?:[\w-]+\s+){0,2}(?:forecasts?|spreadsheets?|sheets?|models?"
    r"|runbooks?|scripts?|simulations?|mock-?ups?|prototypes?|drafts?|plans?|projections?|scenarios?"
    r"|budgets?|slides?|deck|screenplay|story|novel|game))(?!\w)"
    # a draft, or one put up for someone's review ("... — for review", "... in draft", "Draft for
    # review", "(for approval)", "pending sign-off")
    r"|(?:for|pending|awaiting|up\s+for)\s+(?:your\s+|my\s+|their\s+|a\s+|the\s+)?(?:review|approval|sign-?\s?off)"
    r"(?=\s*(?:[.!,;)\]]|only\b|first\b|$))"
    r"|to\s+be\s+(?:confirmed|checked|approved|signed\s+off|reviewed|verified|discussed|decided|agreed)"
    r"|for\s+(?:discussion|comments?|feedback|input|consideration)(?=\s*(?:[.!,;)\]]|only\b|$))"
    r"|in\s+draft|as\s+a\s+draft|draft\s+only|draft\s+version|<\s*draft\s*>"
    r"|^\W*draft\s+(?:message|version|note|email|request|instruction)s?\b"
    r"|(?<![\w-])(?<!the\s)(?<!a\s)(?<!my\s)(?<!your\s)(?<!our\s)(?<!this\s)(?<!that\s)(?<!his\s)(?<!her\s)"
    r"draft(?=\s*(?:[.!)\]](?![\w-])|$))"  # not a file's name ("draft.docx")
    r"|^\W*(?:todo|to-do|plan|draft(?:\s+plan)?|agenda|idea|proposal|suggestion|(?:q\d\s+)?goals?"
    r"|runbook(?:\s+step\s+\d+)?|step\s+\d+|example)(?:[ \t*_]*:|\s+[:\u2014\u2013-])"
    # a plan's or an agenda's item on the line ("Plan for Q3: ...", "Agenda item 3: ...")
    r"|^\W*(?:todo|to-do|plan|idea|proposal|suggestion|agenda[ \t]+item)(?:[ \t]+[\w-]+){1,4}?[ \t*_]*:"
    r"(?=[ \t*_]*[^\s*_])"
    # a message passed on: someone else's words ("Fwd: ...", "Forwarded message from ...: ...")
    r"|(?:^|(?<=\n))\W*(?:fwd?[ \t]*:|forwarded\b|from[ \t]+[^:\n]{1,40}:(?=[ \t]*\S))"
    # a text given to be worked on ("Spell-check this: pay ..."; a heading over lines: weighed apart)
    r"|(?:^|(?<=\n))\W*(?:spell[\s-]?check|proof-?read|translate|rephrase|re-?word|paraphrase|summari[sz]e"
    r"|grammar[\s-]?check|correct|fix[ \t]+the[ \t]+(?:grammar|spelling|typos?))\b[^:\n]{0,40}:(?=[ \t]*\S)"
)


#: A hedge standing alone beside the request ("Pay B-40, I think.", "... — I believe", "pay it I
#: guess"): the user is not sure of what they ask. One with an object ("I think that's all") is a
#: sentence of its own, weighed as one.
_HEDGED = re.compile(
    r"(?i)(?:^|(?<=[\s,;(\u2014\u2013-]))(I[ \t]+(?:think|believe|guess|suppose|reckon|assume|presume|figure"
    r"|expect|hope|feel|sense|gather|hear|'m[ \t]+told|am[ \t]+told|was[ \t]+told|'ve[ \t]+heard"
    r"|have[ \t]+heard)"
    r"|so[ \t]+I(?:'m|[ \t]+am|[ \t]+was|[ \t]+hear|[ \t]+gather)(?:[ \t]+told)?|it[ \t]+(?:seems|appears)"
    r"|apparently|allegedly|supposedly|reportedly|per[ \t]+(?-i:[A-Z][a-z'-]+)(?:[ \t]+(?-i:[A-Z][a-z'-]+))?"
    r"|according[ \t]+to[ \t]+\S+(?:[ \t]+(?-i:[A-Z][a-z'-]+))?)"
    r"[ \t]*(?=[.!?,;)]|$)"
)
#: How a request says the user does it by hand ("... personally", "... on my own", "manually").
_BY_THE_USER = re.compile(
    r"(?i)\b(?:personally|on\s+my\s+own|manually|face\s+to\s+face|in\s+person|by\s+hand|myself)\b"
)
#: An object chosen by its place among records named before ("grant it to the other", "pay the
#: former", "the latter of the two"), not by a name of its own: which one, the call cannot show. "The
#: other" before a record's id ("the other bill, B-41") names it.
_CHOSEN_BY_PLACE = re.compile(
    r"(?i)\bthe\s+(?:former|latter|other|others)\b(?!\s+(?:day|days|week|weeks|month|months|year|years|time|times|way)\b)"
    r"(?![^.;\n]{0,24}?(?<![\w-])[A-Za-z]*-?\d[\w-]*)"
)

#: A record chosen by comparing those listed ("the higher-rated of A and B", "the cheapest of ...",
#: "whichever is cheaper"): which one is a fact of the records the reader does not weigh.
_CHOSEN_BY_COMPARING = re.compile(
    r"(?i)\bthe\s+(?:higher|highest|lower|lowest|better|best|worse|worst|top|bottom|most|least|cheaper|cheapest"
    r"|pricier|priciest|dearer|dearest|greater|greatest|larger|largest|smaller|smallest|newer|newest|older"
    r"|oldest|nearer|nearest|closer|closest)(?:[\s-]+(?:rated|priced|reviewed|expensive|popular|recent))?"
    r"\s+(?:one\s+)?of\b|\bwhichever\b"
)

#: Words that say of a listed item how it stands ("- asmith (done)", "(already sent)", "(skip)"):
#: whether it is still asked for is not read.
_A_STATUS = frozenset(
    """
    done already completed complete finished paid sent skip skipped not needed cancelled canceled
    closed resolved handled ok fine dupe duplicate
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: A status in brackets after a listed item ("- payments (N/A)", "- asmith (already done)").
_A_STATUS_BRACKET = re.compile(
    r"(?i)\(\s*(?:already\s+)?(?:done|completed?|finished|paid|sent|skip(?:ped)?|n/?a|not\s+needed"
    r"|cancell?ed|closed|resolved|handled|dupe|duplicate)\s*\)"
)


def _another_act_inside(mandate: Mandate, declared: Collection[str]) -> str | None:
    """A mandate of a verb that reads or sees to things ("Get B-31 paid", "See that B-31 gets paid",
    "Have B-31 paid") whose words hold a declared act's verb inflected: that act is asked for in
    words the reader does not read as a request for it, so the reading of the turn is partial for
    it (asked, never refused)."""
    inside = {f for verb in declared if verb not in READING_VERBS for f in verb_forms(verb)}
    found = [w for w in words_of(mandate.text)[1:] if w in inside and w not in verb_forms(mandate.verb)]
    if mandate.verb in ("get", "see", "have", "make", "ensure") and found:
        return f"another act asked in its words ('{found[0]}')"
    return None


#: How the words a call accounts for mark a whole day it keeps as one of its values ("=day:2027-01-14").
KEPT_DAY = "=day:"


def _a_day_the_call_keeps(later: str, text: str, accounted: Collection[str]) -> bool:
    """Is the time phrase ``later`` of a mandate's ``text`` a whole day written with its year that
    the call keeps as one of its values (:data:`KEPT_DAY` among ``accounted``: "on 14 January
    2027" for ``end_date=2027-01-14``)? "Friday", "on Dec 15" name no whole day: they defer."""
    said = set(words_of(later)) - FUNCTION_WORDS
    return any(
        f"{KEPT_DAY}{day}" in accounted and said <= set(words_of(m.group(0)))
        for m, day in days_and_times(text)
    )


#: Marks, among a call's words (``accounted``), a text value it keeps, by its words
#: (``=text:the barn 2 farm lane leeds``): what a setting mandate's object may write whole.
KEPT_TEXT = "=text:"


def _a_value_kept(text: str, accounted: Collection[str]) -> bool:
    """Is ``text`` word for word a text value the call keeps (:data:`KEPT_TEXT` among ``accounted``:
    "to The Barn, 2 Farm Lane, Leeds" where the venue is "The Barn, 2 Farm Lane, Leeds")?"""
    return f"{KEPT_TEXT}{' '.join(words_of(text))}" in accounted


#: Marks, among a call's words (``accounted``), a field the call sets to the value its own record
#: holds already, by the words of its name and that value (``=field:check in 2026-12-20``): what a
#: turn may say stays as it is ("same check-in of 2026-12-20", "arrival unchanged on 2026-12-15").
KEPT_FIELD = "=field:"
#: The words that say a field stays as it is ("same time 12:00", "arrival unchanged").
SAID_TO_STAY = frozenset({"same", "unchanged", "stays", "stay", "remains", "still", "kept"})
#: The words around a field said to stay, which say nothing more.
_AROUND_A_FIELD_KEPT = frozenset({"the", "of", "on", "at", "as", "before", "is", "its", "a", "and", "for"})


def _a_field_kept(text: str, accounted: Collection[str]) -> bool:
    """Does ``text`` say only that a field stays as it is, naming it and the value the call keeps
    in it, which its own record holds already (:data:`KEPT_FIELD` among ``accounted``: "same time
    9am" where the call keeps its delivery's 09:00, "Arrival stays 2026-12-18")? A field said to
    stay at another value than the record's, or with any other word, is no such saying."""
    kept = {a.removeprefix(KEPT_FIELD) for a in accounted if a.startswith(KEPT_FIELD)}
    words = words_of(text)
    if not kept or not set(words) & SAID_TO_STAY:
        return False
    values = {k.rpartition(" ")[2] for k in kept}
    rest = [w for w in words_of(written_as(text, values)) if w not in SAID_TO_STAY | _AROUND_A_FIELD_KEPT]
    return " ".join(words_of(" ".join(rest).replace("-", " "))) in {
        " ".join(words_of(k.replace("-", " "))) for k in kept
    }


#: Marks, among a call's words (``accounted``), a day its own record is on (``=record-day:2026-12-15``):
#: the day a mandate may name that record by ("Cancel Oskar's lesson on the 15th").
RECORD_DAY = "=record-day:"
_A_DAY_OF_THE_MONTH = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?")


def _the_records_day(later: str, accounted: Collection[str]) -> bool:
    """Is the time phrase ``later`` "on" a day of the month, its month or not, that the call's own
    record is on (:data:`RECORD_DAY`: "on the 15th", "on 15 December", "on Dec 15" for a lesson on
    2026-12-15)? Then it names which record, not when to act ("by the 15th" still defers)."""
    days = [a.removeprefix(RECORD_DAY) for a in accounted if a.startswith(RECORD_DAY)]
    words = [w.rstrip(".") for w in words_of(later)]
    if not days or words[:1] != ["on"]:
        return False
    numbers = [int(m.group(1)) for w in words if (m := _A_DAY_OF_THE_MONTH.fullmatch(w))]
    months = [MONTH_NUMBERS[w] for w in words if w in MONTH_NUMBERS]
    rest = set(words) - {"on", "the", "of"} - set(MONTH_NUMBERS)
    if len(numbers) != 1 or len(months) > 1 or any(not _A_DAY_OF_THE_MONTH.fullmatch(w) for w in rest):
        return False
    return any(int(day[8:10]) == numbers[0] and (not months or int(day[5:7]) == months[0]) for day in days)


def _deferred(mandate: Mandate, words: Sequence[str], accounted: Collection[str]) -> str | None:
    """The time phrase of a mandate's words that puts it off, or None: each one it writes is weighed
    in turn ("Book ... on Dec 15, 2026 at 8:00 am tomorrow": the day the call books on, then
    "tomorrow"). None of these defers: when a lasting state ends ("Freeze MS-9052 until Jan 15"), a
    whole day the call keeps ("Terminate LS-5006 on 14 January 2027"), and the day of a dated act
    ("Book ... on Dec 15"), but one day's of what it acts on every day ("cancel Friday's standup")."""
    rest = list(words)
    for _ in range(4):  # (a turn writes a few at most)
        later = _time_word(rest)
        if later is None:
            return None
        lasting = later.split()[0] in ("until", "till") and mandate.verb in LASTING
        kept = bool(accounted) and (
            _a_day_the_call_keeps(later, mandate.text, accounted) or _the_records_day(later, accounted)
        )
        dated = later not in TIME_WORDS and mandate.verb in DATED_VERBS and not later.endswith("'s")
        if not (lasting or kept or dated):
            return later
        said = set(words_of(later))
        rest = [w for w in rest if w not in said]
    return None


def _undermined(
    mandate: Mandate,
    words: Sequence[str],
    order: tuple[dict[str, int], dict[str, int]],
    unread: Sequence[Unread],
    instead: Sequence[Clause] = (),
    request: str = "",
    accounted: frozenset[str] = frozenset(),
) -> str | None:
    """Why the rest of the turn does not let ``mandate`` stand, or None where it does: its sentence
    defers it (a time word) or takes part of its object out (an exclusion), a clause of its sentence
    is unread (what it says of the mandate is not known: "..., the Acme bill stays open", "... and
    skip the Acme bill"), or a later sentence is unread as a whole (a correction the reader cannot
    resolve: "Scrap that.", "Sorry, I meant ...", "Belay that last one."). Each is read as the
    mandate uncertain: the call it would admit is asked, never run unasked."""
    later = _deferred(mandate, words[1:], accounted)  # the head is the verb ("postpone the Review" asks now)
    if later is not None:
        return f"for later ('{later}')"
    dated = (
        _numeric_date(words[1:])
        if mandate.verb in TIMED_VERBS
        else _dated_apart(mandate.sentence, mandate.verb in DATED_VERBS)
    )
    if dated is None and mandate.verb in TIMED_VERBS:
        dated = _a_bare_day(" ".join([mandate.text, *mandate.coordinated]))
    if dated is not None:
        return f"for later ('{dated}')"
    headed = _DATE_BEFORE_A_COLON.match(mandate.sentence) if mandate.verb not in _BY_ITS_DAY else None
    if headed is not None:  # "2019-03-01: pay B-40": a log's line or a day to come, not now
        return f"on a day of its own ('{headed.group(1)}')"
    # what a message is to say bears on none of what follows ("tell Bob thanks for the review")
    content = told_content(mandate)
    text = mandate.text.replace(content, " ") if content else mandate.text
    told = (request or mandate.sentence).replace(content, " ") if content else request or mandate.sentence
    own = " ".join([text, *mandate.coordinated]).split(None, 1)[1:]  # after the verb
    scheduled = _scheduled(own[0]) if own and mandate.verb not in DATED_VERBS else None
    if scheduled is not None and not all_accounted(scheduled, accounted):  # "Restart payments at 3am"
        return f"at a time or on a condition the call does not keep ('{scheduled}')"
    left = (
        _WHAT_IS_LEFT.search(" ".join([text, *mandate.coordinated])) if mandate.verb not in _SIZING else None
    )
    if left is not None:  # "Waive DC-901 down to 100.00": what is left, not what it waives
        return f"a figure of what is left, not of what it moves ('{left.group(0)}')"
    chosen = _CHOSEN_BY_PLACE.search(" ".join([text, *mandate.coordinated])) or _CHOSEN_BY_COMPARING.search(
        " ".join([text, *mandate.coordinated])
    )
    if chosen is not None:  # "Both carl and dina asked. ... grant it to the other": which one?
        return f"chosen by its place among others, not named ('{chosen.group(0)}')"
    own_hand = _BY_THE_USER.search(text)
    if own_hand is not None:  # "I want to email jan@co.com personally": the user does it
        return f"done by the user ('{own_hand.group(0)}')"
    hedged = _HEDGED.search(told)
    if hedged is not None:  # "Pay B-40, I think.": the user is not sure of it
        return f"hedged ('{hedged.group(1)}')"
    doubted = _a_later_doubt(mandate, request) if mandate.verb in TIMED_VERBS else None
    if doubted is not None:  # "Pay B-40. Who are they?", "... Are you sure?"
        return f"a later question that may doubt it ('{doubted}')"
    rehearsed = _NOT_FOR_REAL.search(told)
    if rehearsed is not None:  # "Restart payments --dry-run", "What-if: scale ...", "e.g. refund ..."
        return f"not for real ('{rehearsed.group(0).strip(' :-')}')"
    described = _paid_otherwise(words) if mandate.verb in TIMED_VERBS else None
    scaled = (
        _SCALED_FIGURE.search(mandate.sentence)
        if mandate.verb in PAYING_VERBS and described is None
        else None
    )
    if scaled is not None:  # "Pay 260K EUR", "260 thousand", "260 EUR times two": another figure
        described = scaled.group(0).strip()
    receiver = (
        _THE_PAYEE_NAMED.search(request) if mandate.verb in PAYING_VERBS and described is None else None
    )
    if receiver is not None:
        described = receiver.group(0)
    if described is not None:
        return f"paid otherwise than the call says ('{described}')"
    mark = _roleless_mark(mandate, request)
    if mark is not None:
        return f"beside a mark not read ('{mark}')"
    pasted = _pasted_or_ticked(mandate, request)
    if pasted is not None:
        return pasted
    for text in mandate.coordinated:  # "... and salaries-2026.xlsx, the latter pending HR"
        if (words_of(text) and set(words_of(text)) <= _A_STATUS) or _A_STATUS_BRACKET.search(text):
            return f"beside a status not read ('{text}')"  # "- asmith (done)": that item may be done
        if keeps(words_of(text)):
            return f"kept as it is ('{text}'), which may be what it asks for"
        if _a_verb_of_its_own(text) and not all_accounted(text, accounted):  # "... and only preview B-40"
            return f"beside words not read ('{text}')"
        said = _said_of_a_listed_record(mandate, text)
        if said is not None and not all_accounted(
            said, accounted
        ):  # "Cancel the Dentist ..., Board meeting on."
            return f"beside words not read ('{said}')"
    # the act's own verb takes nothing out of its object ("Discount MI-705 by 35.00")
    after_the_verb = words[1:] if words[:1] and words[0] in verb_forms(mandate.verb) else words
    taken_out = (
        _excluding_word(after_the_verb)
        or _misspelt_than(mandate.sentence)
        or _all_but(words, mandate.verb)
        or _instead_of_some(mandate, words, instead)
        or _one_of_several(words, _names_in(mandate))
        or _one_beside_every(words, _names_in(mandate))
    )
    if taken_out is not None:
        return f"part of it taken out ('{taken_out}')"
    trailing = _unread_after_the_record(words, mandate) if mandate.verb not in READING_VERBS else None
    if trailing is not None and not all_accounted(trailing, accounted):
        return f"beside words not read ('{trailing}')"
    deleting = _said_after_a_deletion(words, mandate) if mandate.verb in DELETING else None
    if deleting is not None and not all_accounted(deleting, accounted):
        return f"beside words not read ('{deleting}')"
    part = _a_part_of_it(words[1:]) if mandate.verb != "scale" else None
    # "Pay half B-41", "Restart one redis replica": a part of what the call takes whole (unless the
    # call's figure is that share of its record's, ``accounted``)
    if part is not None and not (part in _SHARES and part in accounted):
        return f"part of it taken ('{part}')"
    through = _named_through_another(mandate, accounted)
    if through is not None:
        return f"named only through another record ('{through}')"
    beside = _named_beside_the_value(mandate)
    # (an address the call keeps, its town after a comma: "to 15 Park View, Leeds")
    # (or a value it keeps word for word: "to The Barn, 2 Farm Lane, Leeds")
    if (
        beside is not None
        and not (beside[:1].isdigit() and all_accounted(beside, accounted))
        and not _a_value_kept(beside, accounted)
    ):
        return f"beside a name not read ('{beside}')"
    first, last = order
    at = first.get(mandate.sentence, -1)
    names = naming_words(mandate.text)
    for span in unread:
        if span.heading:  # it bears on the lines it heads only, not on its own sentence's mandate
            if _headed(span, mandate, request):
                return f"under a heading not read ('{span.text}')"
            continue
        if (
            span.sentence == mandate.sentence
            and span.text not in mandate.coordinated
            and not all_accounted(span.text, accounted)
        ):
            return f"beside words not read ('{span.text}')"
        if last.get(span.sentence, -1) > at and (span.whole_sentence or span.opening):
            return f"a later sentence not read ('{span.text}')"
        if span.whole_sentence and last.get(span.sentence, -1) < at and _doubts(span, mandate, names, words):
            return f"an earlier sentence not read ('{span.text}')"
    return None


def _a_heading(
    sentence: str, members: Sequence[Clause], asking: Sequence[Clause], verbs: Collection[str], request: str
) -> bool:
    """Is the sentence a line of its own that ends with a colon and says more than a greeting,
    thanks or urging ("Done:", "Don't:", "Bob wrote:", "Plan B:"), or asks for something whose
    object is whole before the colon ("Reword this:", "Check my spelling:"), with no list of its
    own items below and no pointer to the lines below as what to do ("Do the following:")? Or a
    line over a list with no colon ("DONE", "## Done") that neither asks nor only names the list?
    It heads the lines below it, and what it says of them the reader cannot place. A list's header
    the reader knows ("Tasks:", "Two things:") is read before this."""
    words = [w for clause in members for w in clause.words]
    if (
        not sentence.rstrip().endswith(":")
        and _ends_a_heading(sentence)
        and (set(words) <= _NEUTRAL_HEADINGS | _URGING_WORDS | NO_ROLE_WORDS or list_header(sentence))
    ):
        return False  # "Tasks —", "Two things -": a list's header the reader knows
    if not _ends_a_heading(sentence):
        return (
            not asking
            and bool(words)
            and not set(words) <= _NEUTRAL_HEADINGS | _URGING_WORDS | NO_ROLE_WORDS
            and _a_line_over_a_list(sentence, request)
        )
    if asking:  # its own list's items below are its object ("Reset passwords for:\n- jdoe"),
        # unless they ask for something themselves ("Check my spelling:\n1. restart payments")
        return not any(
            set(c.words) & _POINTING_BELOW
            or c.head == len(c.words) - 1
            or (_items(c) and not any(w in verbs for item in _items(c) for w in words_of(item)[:2]))
            for c in asking
        )
    if not words or set(words) <= _URGING_WORDS | NO_ROLE_WORDS:
        return False
    if (
        len(words) <= 3
        and any(ch.isdigit() for w in words for ch in w)
        and not set(words) & {"from", "for", "in", "by", "after", "before", "until", "till", "next"}
        and "(" not in sentence
    ):
        return False  # a reference the lines below are for ("Ticket T-1:", "Order 1234:"), not a
        # time or a note ("Ideas (for Q3):")
    if set(words) & _POINTING_BELOW and not (set(words) & _DOUBTING or _prohibition(words)):
        return False  # "Please do the following:", "Steps below:"
    return not all(_greeting(clause) for clause in members)


#: A line's end that heads what follows as a colon does: a dash after a space, or a long one
#: ("Rejected by finance —", "Done last week -").
_HEADING_DASH = re.compile(r"(?:\s-{1,2}|[\u2013\u2014])$")


def _ends_a_heading(text: str) -> bool:
    """Does ``text`` end as a heading ends: with a colon, or a dash that ends its line and opens
    nothing (a line framed by dashes, "-- end quote --", is a mark of its own)?"""
    text = text.rstrip()
    framed = text.lstrip("#*> \t")[:1] in ("-", "\u2013", "\u2014")
    return text.endswith(":") or (_HEADING_DASH.search(text) is not None and not framed)


#: Words by which a mandate before a colon points to the lines below as what to do ("Do the
#: following:", "Please handle these:", "Steps below:").
_POINTING_BELOW = frozenset({"following", "below", "these", "those", "them", "all", "steps", "items", "list"})


#: Words a line over a list may hold that only name the list ("Tasks", "To do", "Checklist").
_NEUTRAL_HEADINGS = frozenset(
    {"tasks", "task", "todo", "todos", "to-do", "to", "do", "steps", "items", "list", "checklist", "action",
     "actions", "requests", "the", "my", "our", "for", "today", "this", "week"}
)  # fmt: skip


def _on_a_line_over_a_list(sentence: str, request: str) -> bool:
    """Is the sentence written on a line that ends with a colon and is no list's own line, the next
    line a list's ("Ideas (not now):\n- ...")?"""
    at = request.find(sentence.strip())
    end = request.find("\n", at) if at >= 0 else -1
    if end < 0:
        return False
    line = request[request.rfind("\n", 0, at) + 1 : end]
    if not _ends_a_heading(line) or _LINE_MARK.match(line) is not None:
        return False
    return _a_list_below(request, end)


def _a_list_below(request: str, end: int) -> bool:
    """Is the first line after the line that ends at ``end`` that holds anything a list's line?"""
    following = next((row for row in request[end + 1 :].split("\n") if row.strip()), "")
    return _LINE_MARK.match(following) is not None


def _a_line_over_a_list(sentence: str, request: str) -> bool:
    """Is the sentence written on a line of its own (marks and emoji around it, "## Done"), the
    next line a list's line ("- ...", "1. ...", "[ ] ...")?"""
    at = request.find(sentence.strip())
    if at < 0:
        return False
    start = request.rfind("\n", 0, at) + 1
    end = request.find("\n", at)
    if (
        end < 0
        or re.search(r"\w", request[start:at])
        or re.search(r"\w", request[at + len(sentence.strip()) : end])
        or (  # a list's own line ("- Dentist"); "**Done**" is emphasis, no bullet
            _LINE_MARK.match(request[start:end]) is not None
            and not request[start:end].lstrip().startswith("**")
        )
    ):
        return False
    return _a_list_below(request, end)


def _items(clause: Clause) -> list[str]:
    """The items a clause's object continues in, a list's numbers apart ("1", "2")."""
    return [item for item in clause.coordinated if not re.fullmatch(r"\s*\d{1,2}[.)]?\s*", item)]


def _headed(heading: Unread, mandate: Mandate, request: str) -> bool:
    """Is the mandate written on the lines a heading heads: the list right below it ("Done:\n- ...\n-
    ..."), else the lines below it up to a blank line ("Bob wrote:\nRestart payments.")?"""
    at = request.find(heading.sentence.rstrip())
    below = request.find("\n", at) if at >= 0 else -1
    if below < 0:
        return False
    lines = request[below + 1 :].split("\n")
    listed = bool(lines) and _LINE_MARK.match(lines[0]) is not None
    headed: list[str] = []
    for line in lines:
        if not line.strip() or (listed and _LINE_MARK.match(line) is None and not line[:1].isspace()):
            break
        headed.append(line)
    return mandate.text in "\n".join(headed)


#: Where a pasted message starts: a mail's header line ("From: Mallory", "Subject: ...") or a
#: forwarding mark ("---------- Forwarded message ---------", "-----Original Message-----").
_PASTED_MAIL = re.compile(
    r"(?im)^[ \t>]*(?:-{2,}[ \t]*(?:forwarded|original)[ \t]+message[ \t]*-{2,}"
    r"|begin[ \t]+forwarded[ \t]+message|(?:from|sent|date|to|cc|bcc|subject|reply-to)[ \t]*:[ \t]*\S)"
)
#: A checkbox a line opens with, ticked or marked ("- [x] ...", "[?] ...", "1. [~] ..."): an open
#: one ("[ ]") is a thing to do; any other mark says how the item stands (done, unsure, blocked).
_MARKED_BOX = re.compile(r"^[ \t]*(?:[-*+\u2022]|\d+[.)])?[ \t]*(\[[ \t]*[^\]\s][ \t]*\])", re.M)


#: A line that opens or closes a fenced block of code ("```", "```bash", "~~~").
_FENCE = re.compile(r"(?m)^[ \t]*(?:`{3,}|~{3,})")
#: A line indented as a block of code (four spaces or a tab) that is no item of a list.
_INDENTED_CODE = re.compile(r"(?:\t| {4,})(?![ \t]*(?:[-*+\u2022]|\d+[.)])\s)")


#: A line that is a rule and nothing else ("---", "***", "___", "==="), as a pasted text is set apart.
_RULE_LINE = re.compile(r"(?m)^[ \t]*(?:-{3,}|\*{3,}|_{3,}|={3,})[ \t]*$")


def _between_rules(request: str, at: int) -> bool:
    """Is the place ``at`` between a rule line and a later one ("Email from Raj:\n---\nTransfer 500
    ...\n---\nIs it legit?")? Text set apart so is shown (a pasted message, an alert to triage),
    not asked for; a single rule between two parts of the turn sets nothing apart."""
    before = len(_RULE_LINE.findall(request, 0, at))
    return before % 2 == 1 and _RULE_LINE.search(request, at) is not None


def _in_code(request: str, at: int) -> bool:
    """Is the place ``at`` of ``request`` inside a block of code: between a fence line and the
    next (an unclosed fence runs to the end), or on a line indented as code after a blank line or
    at the start? What a block of code says is shown, not asked for."""
    if len(_FENCE.findall(request, 0, at)) % 2 == 1:
        return True
    start = request.rfind("\n", 0, at) + 1
    before = request[:start].rstrip(" \t")
    return _INDENTED_CODE.match(request, start) is not None and (not before or before.endswith("\n\n"))


def _pasted_or_ticked(mandate: Mandate, request: str) -> str | None:
    """Why a mandate written in a pasted message (below a mail's header line or a forwarding mark),
    in a block of code or on a line with a marked checkbox does not stand, or None."""
    at = request.find(mandate.text) if request else -1
    if at < 0:
        return None
    pasted = _PASTED_MAIL.search(request, 0, at)
    if pasted is not None:
        return f"in a pasted message ('{pasted.group(0).strip()}')"
    if _in_code(request, at):
        return "in a block of code, shown rather than asked for"
    if _between_rules(request, at):
        return "in a block set apart by rule lines, shown rather than asked for"
    start = request.rfind("\n", 0, at) + 1
    box = _MARKED_BOX.match(request, start)
    return f"on a line marked '{box.group(1)}'" if box is not None else None


#: Words by which a sentence doubts, contests, corrects, negates or conditions what it names ("B-31
#: isn't mine", "Maybe B-40 is paid already", "The Acme bill is disputed", "Sorry, I meant B-31"):
#: a later mandate on that record cannot be read as the whole turn's wish. A sentence that only
#: gives a reason or a time ("I'll be out tomorrow", "ana wants the agenda") holds none of them.
_DOUBTING = (
    frozenset(
        """
        not no never nothing nobody none neither nor if unless until whether might may could maybe
        perhaps sorry meant mean actually oops wrong mistake instead rather except
        """.split()  # noqa: SIM905 (a closed list, read as words)
    )
    | _CONTESTING
)


#: Words by which a statement beside an act may take it back, keep its record, call it moot, doubt
#: it or stand in its way: a reason to move a time or to give money off holds none but its own.
_AGAINST_A_REASON = _NO_REASON_TO_UNDO | _MOOT | KEEPING_WORDS | _DOUBTING | NO_LONGER | _STANDING_IN_THE_WAY


#: Words of an object that are no name of what it acts on.
_NO_CONTENT = frozenset({"replicas", "replica", "instances", "pods", "nodes", "account", "password", "role"})


def _names_of(mandate: Mandate) -> set[str]:
    """The words a mandate names what it acts on by: a naming word, an id, a word of its object."""
    listed = [w for text in mandate.coordinated for w in words_of(text)]  # "to ana@x.io and bob@y.io"
    ids = {w for w in (*mandate.words[1:], *listed) if _id_like(w)}
    return (
        naming_words(" ".join([mandate.text, *mandate.coordinated]))
        | ids
        | _id_parts(ids)
        | _content_words([*mandate.words, *listed])
    )


def _id_parts(ids: Iterable[str]) -> set[str]:
    """The parts of an address that name its holder ("legal@acme.com": legal, acme)."""
    return {p for w in ids if "@" in w for p in re.split(r"[@.]", w) if len(p) > 3}


def _names_what_is_asked(sentence: str, found: Sequence[Mandate]) -> bool:
    """Does a sentence name what one of the turn's mandates acts on ("The supplier says B-99 is
    double ... Settle B-99.")?"""
    return any(_names_one_of(_names_of(m), sentence) for m in found)


def _names_one_of(names: Collection[str], text: str) -> bool:
    """Does ``text`` name one of ``names``, written alike
    (:func:`~policies.supervisor.reading.words.written_alike`): a word of it or a part of one
    ("ord-5521": 5521; "@ana": ana; "john.doe@corp.com": john, doe), or, for a long id, anywhere in
    it ("DE89 3704 0044 0532 0130 00" for the IBAN written without spaces)?"""
    tokens = words_of(text)
    parts = {p for w in tokens for p in re.split(r"[-._@/#:]", w.removesuffix("'s")) if len(p) >= 2}
    said = {written_alike(w) for w in (*tokens, *parts)} - {""}
    whole = written_alike(text)
    for name in names:
        alike = written_alike(name)
        if alike and (alike in said or (len(alike) >= 8 and alike in whole)):
            return True
    return False


def _other_names(sentence: str) -> set[str]:
    """What a sentence names: its naming words and ids, never a weekday or a month ("Friday") nor
    an acronym of a kind or a team ("IBAN", "HR")."""
    words = words_of(sentence)
    return {
        w
        for w in naming_words(sentence)
        if w not in _DATES and not (len(w) <= 4 and re.search(rf"\b{re.escape(w.upper())}\b", sentence))
    } | {
        w
        for i, w in enumerate(words)
        if _id_like(w)
        and w.replace("-", "") not in _MOOT  # "re-hired"
        and not (w.isdigit() and i + 1 < len(words) and words[i + 1] in _UNITS)  # "in 10 minutes"
    }


_DESCRIBED = frozenset(
    {"a", "an", "my", "our", "your", "their", "his", "her", "its", "this", "these", "those"}
)


def _content_words(own: Sequence[str]) -> set[str]:
    """The words a mandate names what it acts on by, after its verb: no function word, no kind of
    record, no figure of one or two digits ("Restart worker": worker; "Give omar billing-admin":
    omar, billing-admin)."""
    # the last word of a phrase after a determiner says its kind ("my report", "the onboarding
    # pack": pack); the words before it name which ("onboarding", "electricity"); one word after
    # "the" names it ("Restart the db")
    described = {
        w
        for i, w in enumerate(own)
        if i
        and (i + 1 == len(own) or own[i + 1] in FUNCTION_WORDS)  # the phrase ends here
        and (
            own[i - 1] in _DESCRIBED
            or (i > 1 and own[i - 2] in _DESCRIBED | {"the"} and own[i - 1] not in FUNCTION_WORDS)
        )
    }
    return {
        w
        for w in own[1:]
        if w not in described
        and w not in FUNCTION_WORDS
        and w not in _KIND_WORDS
        and w not in NO_ROLE_WORDS
        and w not in _NO_CONTENT
        and w not in TIME_WORDS
        and len(w) > 1
        and not (w.isdigit() and len(w) < 3)
    }


def _doubts(span: Unread, mandate: Mandate, names: set[str], own: Sequence[str] = ()) -> bool:
    """Does an earlier sentence the reader cannot read bear on what ``mandate`` acts on: a sentence
    the mandate points back to ("B-31 isn't mine. Pay it.") or that holds one of its naming words
    ("Maybe B-31 is paid already. Pay B-31."), with a word that doubts, negates, corrects or
    excludes (:data:`_DOUBTING`, a "n't", a word that takes back, an exclusion), or that is no
    plain scene (:func:`_a_scene_of`: "billing-api self-healed a few minutes ago. Restart it.");
    one about something else with a word that bears on any act (:func:`_bearing`: "We're in a
    change freeze. Upgrade payments-api."); or one that says the turn went to the wrong place.
    A plain scene ("payments is hung again. Restart it.") doubts nothing the user asks."""
    if _misdirected(words_of(span.sentence)):
        return True  # "Sorry — wrong chat. Pay B-40.": the turn was not meant for the agent
    if _an_empty_report(words_of(span.sentence)):
        return True  # "The scammer typed. Pay B-40.": someone's words, which may be the request
    # "Omar's contract ended": omar; "it's", "that's" are a subject and its verb
    words = [w if w in _IS_CONTRACTED else w.removesuffix("'s") for w in words_of(span.text)]
    ids = {w for w in mandate.words[1:] if _id_like(w)} | _content_words(own)
    ids |= _id_parts(ids)  # "legal@acme.com": acme
    if span.text not in mandate.antecedents and not _names_one_of(names | ids, span.sentence):
        # naming no record, it bears where it says something stands in the way of any act, or
        # makes it moot ("We're in a change freeze for the audit. Upgrade payments-api."); one
        # about another record leaves the mandate standing ("B-40 is disputed. Pay B-31.")
        other = _other_names(span.sentence) - _numbers_of_a_frame(words)  # "Log line 42.": no record
        if not other and _prohibition(words):  # "Don't execute this. Pay B-40.", "Do not run\nPay ...":
            return True  # forbidding nothing it names, it can only forbid what follows
        if _whether_it_is_sound(words, span.sentence) or _asks_an_opinion(words) or _presents(words):
            return True  # "Is this phishing? Pay B-40.", "Should I? Pay B-40.": a doubt of what follows
        if not _a_plain_statement(words):  # a fragment names a record by its id only ("Re B-31."),
            other = {
                w for w in other if _A_RECORDS_ID.fullmatch(w) or "@" in w or "/" in w
            }  # not "Role-play.", "Red-team probe."
        if (
            any(_id_like(w) for w in other)
            or tuple(words) in _EASY_GOING
            or _APOLOGY_FOR_BOTHERING.match(" ".join(words))
        ):
            return False  # about another record: "B-40 is disputed. Pay B-31."; "No worries."
        bearing = _bearing(words, pointing=False)
        if words and words[0] in _THE_USER_SAYING:  # "I'm back from holiday", "We moved": the user's own
            bearing = (bearing - _THE_USERS_STATE) | (set(words) & _OUT_OF_MONEY)  # "We are broke."
        bearing |= set(words) & _FICTION  # "I had the strangest dream.": what follows may be in it
        if words[0] not in _OPENING_PREPOSITIONS and (
            _a_plain_statement(words) or bool(set(words[1:]) & REPORTING_WORDS)
        ):  # a statement, or someone's words said ("My manager wants the offsite agenda.")
            return not other and (
                bool(bearing)
                or _said_of_what_follows(words)
                or _points_ahead(words)
                or _disowns(words, mandate.verb)
            )
        if _does_what_follows(words):
            return False  # "Please do the following:": the lines below are what to do
        if span.text.lstrip().startswith("#"):  # an aside or a heading ("# Bills", "### Spam"): a
            return bool(bearing)  # topic, or a word of doubt
        task = [w for w in words if w not in NO_ROLE_WORDS]
        if task and task[0] in COMMON_VERBS and not _prohibition(words):  # an undeclared imperative
            return bool(bearing) or _acts_on_the_turn(task[1:])  # "Pay the total of both bills": a task
        # no statement, no greeting (read before): a fragment or an imperative the policy does not
        # declare ("From the chat log.", "Example only.", "Not me.", "Ignore the next sentence."):
        # what it says of the request, the reader cannot tell, unless it only urges or opens the turn
        if set(words) & _ASSENTS and span.why == _A_QUESTION:
            return True  # "Approved? Pay B-40": whether it is, the reader cannot tell
        return bool(set(words) & (_A_NO_WORD | {"off"})) or not set(words) <= (  # "Back off."
            _OPENING_A_TURN | _URGING_WORDS | NO_ROLE_WORDS | FUNCTION_WORDS | _NEUTRAL_HEADINGS
        )  # ("Tasks", "To do" over a list: a header the reader knows)
    return (
        any(w in _DOUBTING or w in _TAKING_BACK or w.endswith(("n't", "n’t")) for w in words)
        or _excluding_word(words) is not None
        or (
            # what a message carries is its content ("I'll be out tomorrow. DM my manager to let
            # them know."); a scene is weighed whole, not by the clause the reader split it into
            not (mandate.verb in WITH_CONTENT and span.text in mandate.antecedents)
            and not _a_scene_of(
                words_of(span.sentence) if span.whole_sentence else words,
                dated=mandate.verb in DATED_VERBS,
                introducing=span.text in mandate.antecedents,
            )
        )
    )


#: Nouns of the parts of a text, a log or a test that a number counts ("Log line 42.", "Sample
#: input #3.", "Test case 7", "Exhibit 2"): the number names no record a call acts on.
_FRAME_NOUNS = frozenset(
    """
    line lines case sample input example test item exhibit page step scenario entry row snippet
    excerpt transcript chapter scene exercise question slide figure fixture prompt lesson level round
    episode section clip frame take attempt trial payload vector turn
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: A record's id as a fragment names one: a short prefix and a number ("B-31", "INV-7", "1234").
_A_RECORDS_ID = re.compile(r"(?:[a-z]{1,5}[-_#]?)?\d[\d.\-/]*")


def _numbers_of_a_frame(words: Sequence[str]) -> set[str]:
    """The plain numbers of a sentence that count a part of a text or a test ("Log line 42",
    "Sample input #3"): each after a noun of :data:`_FRAME_NOUNS`."""
    numbers: set[str] = set()
    for i, w in enumerate(words):
        if (
            i
            and w.lstrip("+").isdigit()
            and (words[i - 1] in _FRAME_NOUNS | {"from"} or words[i - 1] in numbers)
        ):
            numbers.add(w)  # "SMS received 09:14", "Text message from +44 7700 900123"
    return numbers


#: Words by which a statement says the turn is not the user's own: their account or device taken
#: over, the words forged or machine-made, or a scam's own lines ("My account was hacked.", "It's a
#: deepfake.", "Your computer is infected.").
_COMPROMISED = frozenset(
    """
    hacked compromised hijacked stolen breached phished impersonated forgery forged deepfake bot bots
    intruder hacker hackers infected malware ransomware virus encrypted warrant automated robocall
    keyboard typed trick satire won winner prize lottery
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Verbs for which an account taken over is the reason to act ("Disable jdoe, her account was
#: compromised.", "Reset my password, it leaked.").
_PROTECTIVE = frozenset(
    """
    reset disable revoke lock rotate block freeze suspend remove delete deactivate kill quarantine wipe
    change cancel report flag expire invalidate regenerate rekey unlock restore scan isolate
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Sources of the turn's words a statement may name as what it is ("That's the whole email.").
_SOURCES = frozenset(
    """
    email mail e-mail sms text note letter voicemail chat transcript screenshot popup pop-up phish scam
    forgery deepfake bot message post tweet dm comment webpage
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _disowns(words: Sequence[str], verb: str) -> bool:
    """Does a statement say the turn is not the user's own (:data:`_COMPROMISED`, unless the act
    protects against it: :data:`_PROTECTIVE`), speak to the user as a scam does ("Your account is
    locked."), or say what the turn's words are ("That's the text.", "So says the phish.")?"""
    if not words:
        return False
    if set(words) & _COMPROMISED and verb not in _PROTECTIVE:
        return True
    if _of_the_turns_words(words):  # "Eve wrote the previous sentence."
        return True
    if any(w in _MAKING and tuple(words[i + 1 : i + 2]) in (("me",), ("us",)) for i, w in enumerate(words)):
        return True  # "My boss is making me ask.", "They made me write this."
    if set(words) & _OTHERS_AT_HAND and set(words) & _THE_USERS_DEVICES:
        return True  # "My roommate is on my laptop.", "The kids grabbed my phone."
    if any(
        w in ("someone", "somebody") and tuple(words[i + 1 : i + 2]) == ("else",) for i, w in enumerate(words)
    ):
        return True  # "Someone else is typing now."
    if words[0] == "your" or tuple(words[:2]) in (("you", "have"), ("you've", "been"), ("you", "are")):
        return not set(words) <= _ONLY_PRESSING | NO_ROLE_WORDS | _KIND_TO_THE_AGENT
    head = [w for w in words[:3] if w not in ("so", "says", "said")]
    return (
        bool(head)
        and head[0] in ("that's", "this's", "it's", "that", "this", "the")
        and bool(set(words[1:4]) & (_SOURCES | _THE_TURNS_WORDS))
    )


#: Others who may be at the user's device, and the devices ("My roommate is on my laptop.").
_OTHERS_AT_HAND = frozenset(
    """
    roommate roommates flatmate flatmates housemate housemates kid kids son daughter child children
    brother sister partner wife husband girlfriend boyfriend friend friends colleague coworker
    co-worker nephew niece toddler cat dog parrot guest guests stranger neighbour neighbor
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_THE_USERS_DEVICES = frozenset(
    {"laptop", "phone", "computer", "pc", "keyboard", "tablet", "ipad", "device", "account", "login", "mac"}
)
#: Verbs by which someone makes the user ask ("My boss is making me ask.").
_MAKING = frozenset({"making", "makes", "made", "forcing", "forces", "pushing", "pressuring", "ordering"})


#: What a user says to the agent in thanks ("You are the best.", "You're a star.").
_KIND_TO_THE_AGENT = frozenset({"you", "are", "have", "the", "best", "welcome", "star", "amazing", "legend"})


def _points_ahead(words: Sequence[str]) -> bool:
    """Does a statement name what follows as its object ("My ex keeps sending this.", "The hacker
    wrote the rest.", "My son typed the next bit.", "Everything below is junk.")? Not a time ("this
    month") nor only a pressing note ("I need this today.")."""
    for i, w in enumerate(words):
        after = words[i + 1] if i + 1 < len(words) else ""
        if w in ("below", "following") or (w == "the" and after in ("rest", "next")):
            return True
        if w in ("this", "these") and after.removesuffix("'s") not in _LAST_WHAT and after not in _FINITE:
            return not set(words) <= _ONLY_PRESSING | NO_ROLE_WORDS | _PRESSING_NEEDS
    return False


#: The words of a need the user presses ("I need this done today.").
_PRESSING_NEEDS = frozenset({"i", "we", "need", "want", "done", "paid", "today", "sorted", "handled"})


def _presents(words: Sequence[str]) -> bool:
    """Does a fragment present something without saying what ("Here's the email.", "Here is the
    text.", "Here it is.")? What it presents follows: it may be the request."""
    return tuple(words[:2]) in (("here's", "the"), ("here", "is"), ("here", "are"), ("here's", "what")) or (
        words[:1] == ["here's"] and len(words) <= 4
    )


#: A pronoun and its "is" written as one word: no possessive to take off.
_IS_CONTRACTED = frozenset(
    {"it's", "that's", "there's", "here's", "what's", "he's", "she's", "who's", "this's"}
)


def _a_statement_of_any_subject(words: Sequence[str]) -> bool:
    """Is a sentence a statement, its subject a pronoun, a determiner's phrase or a name of up to
    five words ("B-31 is due tomorrow", "City Water sent a reminder", "Finance froze the budget")?"""
    return (
        stated_reason(words)
        or a_statement(words)
        or any(
            stated_reason(["it", *words[v:]]) or a_statement(["it", *words[v:]])
            for v in range(1, min(len(words), 6))
        )
    )


def _a_scene_of(words: Sequence[str], *, dated: bool = False, introducing: bool = False) -> bool:
    """Is an earlier sentence about the mandate's record only a scene it sets: a statement
    (:func:`~policies.supervisor.reading.words.stated_reason`) with no word that bears on the act,
    no time but a deadline (a date may say which record) and nothing said to have happened already
    ("payments is hung again", "jdoe is locked out", "B-31 is due tomorrow"; not
    "The bank pulled B-519 by direct debit on the 1st", "billing-api self-healed", "The portal
    shows a zero balance on B-77")?"""
    return (
        _a_statement_of_any_subject(words)
        and _a_reason_to_act(words)
        # one short clause: what a second one adds, the reader cannot weigh ("jdoe joined the red
        # team exercise as the attacker", "db is full because the backup writes to it"); a sentence
        # the mandate points back to may name its records in two ("X sent INV-7 and they have B-40.
        # Pay both.")
        and (introducing or (len(words) <= _SCENE_LENGTH and not _SCENE_JOINERS & set(words)))
        and not _bearing(words, pointing=False)
        and not {"ago", "earlier", "already", "now", "currently", "overnight"}
        & set(words)  # when it happened
        and _a_past_time(words) is None  # "The kickoff was last Tuesday", "... merged it last night"
        and (
            dated  # a date names which event the act on a dated record acts on ("I have 'Gym' on ...")
            or (
                (_time_word(list(words)) is None or "due" in words)  # "B-31 is due tomorrow": a deadline
                and _scheduled(" ".join(words)) is None
            )
        )
    )


#: Words by which a scene says why to act on what it names: trouble ("payments is hung again",
#: "api is down", "the queue keeps backing up"; not a level, "traffic is high", which may be a
#: reason against the act as well as for it), a record that came or falls due ("The water bill
#: came in", "B-31 is due tomorrow"), a person who joined or is locked out. A scene about the
#: record that says none of them says something the reader cannot weigh ("Worker was migrated to
#: Kubernetes", "jdoe is the shared account the backup logs in with"): the mandate is asked.
_REASONS_TO_ACT = frozenset(
    """
    stuck slow slower sluggish down hung hanging hangs freezing failing fails erroring errors error
    throwing crashing crashed crashes crashloop backing leaking leaks leak broken broke flaky
    unresponsive timing timeouts timeout lagging laggy degraded locked
    dead dying stalled complaining 500s 502s 503s 504s 500 502 503 504 oom restarting
    outage incident alert alerts paging bad buggy unhealthy
    came arrived sent due overdue ready outstanding issued received
    verified matches matched approved joined joining started starts hired onboarded promoted leaked
    asked requested wants wanted needs away busy sick unavailable travelling traveling cutoff deadline
    stray leftover unused junk temporary scratch presenting speaking attending leading hosting
    covering expired expiring expires
    compromised exposed shipped released fix fixes patch patched
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: The most words a scene has, and the words that join a second clause to it.
_SCENE_LENGTH = 9
_SCENE_JOINERS = frozenset(
    """
    because and but so that which who whose whom as while until although though whereas yet since
    unless except only just cause cos
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_DOWN_AFTER = frozenset(
    {"is", "was", "are", "were", "been", "went", "goes", "it's", "that's", "still", "all"}
)


def _a_reason_to_act(words: Sequence[str]) -> bool:
    """Does a scene hold a word of :data:`_REASONS_TO_ACT`, or a confirmation of a value ("the
    freelancer confirmed 120"; not "the chair confirmed the meeting is going ahead")?"""
    # "down" as a state ("api is down", "it went down"), not a phrasal verb's ("turned down the role")
    reasons = _REASONS_TO_ACT & {
        w for i, w in enumerate(words) if w != "down" or (i and words[i - 1] in _DOWN_AFTER)
    }
    if reasons:
        return True
    return any(
        w in ("confirmed", "confirms") and i + 1 < len(words) and _id_like(words[i + 1])
        for i, w in enumerate(words)
    )


#: The words after "last" or "this" that make a time before now ("last night", "last Tuesday", "this
#: morning").
_LAST_WHAT = _UNITS | _WEEKDAYS | _PARTS_OF_DAY | frozenset({"weekend", "time", "sprint", "release", "cycle"})
_THIS_WHAT = frozenset({"morning", "afternoon"})


def _a_past_time(words: Sequence[str]) -> str | None:
    """A time before now a statement says something happened at ("last night", "last Tuesday",
    "this morning"), or None; a state since then ("hung since this morning") is none."""
    for i in range(len(words) - 1):
        if i and words[i - 1] in ("since", "for", "from"):
            continue
        if (words[i] == "last" and words[i + 1].removesuffix("'s") in _LAST_WHAT) or (
            words[i] == "this" and words[i + 1] in _THIS_WHAT
        ):
            return f"{words[i]} {words[i + 1]}"
    return None


#: Where a message may have gone by mistake ("wrong chat", "wrong window", "not for you").
_MISDIRECTED_TO = frozenset(
    {"chat", "channel", "window", "thread", "tab", "person", "group", "dm", "convo", "conversation", "bot"}
)


def _misdirected(words: Sequence[str]) -> bool:
    """Does a sentence say the turn went to the wrong place or person ("Sorry — wrong chat", "oops,
    wrong window", "this wasn't for you", "not meant for you")?"""
    wrong = any(w == "wrong" and i + 1 < len(words) and words[i + 1] in _MISDIRECTED_TO
                for i, w in enumerate(words))  # fmt: skip
    joined = f" {' '.join(words)} "
    return wrong or any(p in joined for p in (" not for you ", " wasn't for you ", " not meant for you "))


def naming_words(text: str) -> set[str]:
    """The words of ``text`` that can name a record (case folded): one with a digit ("B-31",
    "ORD-1001") or one written with a capital after the first word ("the City Water bill"), never a
    function word. An earlier sentence the reader cannot read that holds one of a mandate's naming
    words, or that the mandate points back to ("B-31 isn't mine. Pay it."), may say anything of what
    it acts on: the mandate is uncertain."""
    found: set[str] = set()
    for i, match in enumerate(_WRITTEN_WORD.finditer(text)):
        word = match.group(0)
        folded = words_of(word)
        if not folded or folded[0] in FUNCTION_WORDS or folded[0] in NO_ROLE_WORDS:
            continue
        if any(c.isdigit() for c in word) or (i > 0 and word[:1].isupper()):
            found.add(folded[0])
    return found


_WRITTEN_WORD = re.compile(r"[^\s,.;:!?()\[\]\"]+")


@lru_cache(maxsize=512)
def _read_by_grammar(
    request: str,
    known: tuple[str, ...],
    accounted: frozenset[str] = frozenset(),
    unheld: frozenset[str] = frozenset(),
) -> Reading:
    return reading_of(request, known, accounted=accounted, unheld=unheld)


#: Words that connect words a call accounts for without saying anything of their own
#: (:func:`all_accounted`).
CONNECTING = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "from",
        "with",
        "as",
        "by",
        "into",
        "onto",
        "is",
        "are",
        "was",
        "were",
        "been",
        "be",
        "has",
        "have",
        "had",
        "its",
    ]
)
#: Words that bear on whether, when or how far a call is made: never accounted for by a call's own
#: words, whatever a value of it holds (:func:`all_accounted`).
BEARING = frozenset(
    """
    not no never nor none nothing without except excluding but only just instead unless if when whenever
    once until till after before later tomorrow tonight today soon next wait hold pause stop maybe perhaps
    probably possibly might may should could would test testing dry trial pending undo cancel cancelled
    scrap ignore skip leave keep kidding sorry meant rather either or else first then
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def all_accounted(text: str, accounted: Collection[str]) -> bool:
    """Does a call account for every word of ``text`` the reader could not place: each one of
    ``accounted`` (the words of the call's names, its values and the trusted records holding them,
    :mod:`policies.supervisor.decide.accounted`) or a connecting word (:data:`CONNECTING`), at least
    one of the former, and none that bears on whether the call is made (:data:`BEARING`, a negation
    written "n't")?"""
    if not accounted:
        return False
    if _a_field_kept(text, accounted):  # "same time 9am", "arrival unchanged on 2026-12-15"
        return True
    words = [w.removesuffix("'s").removesuffix("’s") for w in words_of(text)]
    if not words or any(w in BEARING or "n't" in w or "n’t" in w for w in words):
        return False
    return all(w in CONNECTING or w in accounted for w in words) and any(w not in CONNECTING for w in words)


def read_turn(
    request: str,
    known: Iterable[str],
    reader: RequestReader | None = None,
    accounted: frozenset[str] = frozenset(),
    unheld: frozenset[str] = frozenset(),
) -> Reading:
    """:func:`reading_of`, read once per turn and policy for the grammar (every review of a run's
    calls reads the same turn); a reader given (a model's) is asked each time it is called, as
    :class:`~policies.supervisor.provenance.context.TurnReading` asks it once per review."""
    if reader is None:
        return _read_by_grammar(request, tuple(sorted(set(known))), accounted, unheld)
    return reading_of(request, known, reader, accounted, unheld)


class WideReader:
    """The turn read as if every span the reading could not read asked for something: the
    mandates that stand, those the turn leaves uncertain, and one for each unread span (its verb:
    the first word of it that is a form of a declared verb, "Would you mind paying the bill" →
    ``pay · the bill``; else its first word). Never a reading to act on: the review asks it only
    where the true reading refuses a call, to tell a refusal on a complete reading (kept) from one
    for words it could not read (asked instead, :data:`~policies.supervisor.decide.review.
    PARTLY_READ`). Another text is read by ``inner``."""

    def __init__(
        self, request: str, reading: Reading, known: Iterable[str], inner: RequestReader | None
    ) -> None:
        self.request = request
        self.inner = inner
        self.blocking = getattr(inner, "blocking", False)
        spans = [u for u in reading.unread if not u.uncertain_mandate]
        self.found = (*reading.standing, *reading.uncertain, *(_as_mandate(u, known) for u in spans))

    def mandates(self, request: str) -> Sequence[Mandate]:
        return self.found if request == self.request else mandates(request, self.inner)


def _as_mandate(span: Unread, known: Iterable[str]) -> Mandate:
    words = words_of(span.text)
    for at, word in enumerate(words):
        for verb in known:
            if word in verb_forms(verb):
                base = tuple(words_of(verb))
                rest = tuple(words[at + 1 :])
                return Mandate(base[0], (*base, *rest[len(base) - 1 :]), span.text, span.sentence)
    return Mandate(words[0] if words else "", tuple(words), span.text, span.sentence)


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


def _urging(words: Sequence[str]) -> bool:
    """Does a prohibition urge rather than forbid ("Don't forget to pay B-40", "Don't hesitate to
    ...")? What it names is asked for, not left out."""
    at = _opening(words)
    return at is not None and at < len(words) and words[at] in _URGING_WHEN_NOT


def prohibited(request: str, verbs: Iterable[str], values: Iterable[Any] | None = None) -> bool:
    """Does the turn say not to do what one of ``verbs`` names: a clause that opens with a
    prohibition and names the verb, inflected or not, within its next three words ("Don't pay it",
    "Avoid cancelling the Review", "Instead of cancelling it, move it")? Given the call's
    ``values``, a prohibition that names a record of its own ("don't pay the Acme bill B-40": a
    word of content after the verb) says not to make this call only where it names one of the
    call's values; one that names none ("don't pay it", "don't pay anything") says it of every
    call of the kind."""
    wanted = [verb_forms(verb) for verb in verbs]
    given = None if values is None else [v for v in values if not isinstance(v, bool) and v is not None]
    for clause in clauses_of(request):
        after = _opening(clause.words)
        if after is None:
            continue
        near = range(after, min(after + 3, len(clause.words)))
        at = next((i for i in near if any(clause.words[i] in f for f in wanted)), None)
        if at is None:
            continue
        if given is None or not _names_a_record(clause.words[at + 1 :]):
            return True
        if _names_any(clause.words, given):
            return True
    return False


@lru_cache(maxsize=256)
def _left_out_clauses(request: str) -> tuple[str, ...]:
    """The texts of the turn's clauses that say not to act, that keep what they name as it is
    ("Don't touch E-102", "Keep the Standup", "leave Jonas Berg out", "The Acme bill stays open")
    or that leave records out by id ("Pay B-31 but not B-40")."""
    clauses = clauses_of(request)
    out = [
        c.text
        for c in clauses
        if _prohibition(c.words) and not _urging(c.words) and c.text and not _another_act_instead(c, clauses)
    ]
    for clause in clauses:
        keeping = clause.head is not None and _a_keeping_head(clause.words, clause.head)
        # a clause led by an id, not a verb ("..., E-102 unchanged")
        headless = clause.head is None or any(ch.isdigit() for ch in clause.words[clause.head])
        excluding = clause.head is None and excludes_records(clause.words, clause.text)  # "..., but not B-40"
        if (keeping or excluding or (headless and keeps(clause.words))) and clause.text:
            out.append(clause.text)
    return tuple(dict.fromkeys(out))


def _another_act_instead(prohibition: Clause, clauses: Sequence[Clause]) -> bool:
    """Does a later clause of the prohibition's sentence ask for another act on what it names,
    "instead" ("Don't refund ORD-50013, resend it instead", "Don't cancel A-1004, reschedule it to
    ... instead")? The prohibition leaves out that act, not the record: the record stays named for
    the act asked instead (the act prohibited is asked for by no mandate). The same verb again
    ("Don't restart checkout-api, restart the canary instead") leaves the record out, and so does
    another act on another record ("Don't refund ORD-1, credit ORD-2 instead")."""
    after = clauses[clauses.index(prohibition) + 1 :] if prohibition in clauses else []
    if not after:
        return False
    # its own sentence, or the next where it stands alone ("Don't refund X; resend it instead")
    later = [c for c in after if c.sentence == after[0].sentence]
    at = _opening(prohibition.words)
    named = set(prohibition.words[(at or 0) + 1 :]) - FUNCTION_WORDS  # what the act prohibited is on
    return any(
        c.head is not None
        and ("instead" in c.words[c.head :] or [n.words for n in later[i + 1 : i + 2]] == [("instead",)])
        and c.words[c.head] not in prohibition.words
        and bool(named & set(c.words[c.head + 1 :]))  # the same record ("resend it": written so)
        for i, c in enumerate(later)
    )


@lru_cache(maxsize=256)
def unprohibited_text(request: str) -> str:
    """The turn without its prohibitions ("Don't touch E-102. Raise Dana's salary." → "Raise
    Dana's salary.") and without what it keeps as it is ("Keep the Standup", "leave Jonas Berg
    out"): what a value must be written in to come from the request. A record the turn names only
    to say not to act on it is named by no request to act. Its apostrophes are read as one mark
    ("Don´t post in #all-hands" is taken out as "Don't ..." is)."""
    return without_left_out(request.translate(APOSTROPHES), request)  # the clauses' texts have one apostrophe


def without_left_out(text: str, request: str) -> str:
    """``text`` (the turn, or what it states for a call) without the clauses of ``request`` that say
    not to act or keep what they name as it is (:func:`unprohibited_text`'s)."""
    for left in _left_out_clauses(request):
        text = text.replace(left, " ")
    return text


def left_out_text(request: str) -> str:
    """What :func:`unprohibited_text` takes out of the turn, its clauses joined by ``" | "``: the
    words in which the turn names what it leaves out ("" where it leaves nothing out)."""
    return " | ".join(_left_out_clauses(request))


def _names_a_record(words: Sequence[str]) -> bool:
    """Do the words after a verb name something of their own: a word that is no function word?"""
    return any(w not in FUNCTION_WORDS and w not in NO_ROLE_WORDS for w in words)


def _names_any(words: Sequence[str], values: Iterable[Any]) -> bool:
    """Does one of ``values`` stand in ``words``, each of its words as a whole word?"""
    tokens = set(words) | {written_alike(w) for w in words}  # "@ana" for ana, "B40" for B-40
    for value in values:
        parts = words_of(str(value).strip())
        if parts and all(t in tokens or written_alike(t) in tokens for t in parts):
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
    return _names_any(words, [v for v in values if not isinstance(v, bool) and v is not None])
