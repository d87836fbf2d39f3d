"""What a message an agent writes says beyond, beside or against what its turn dictates.

A turn that asks for a mail ("Email Bob that I can't make the meeting") dictates what the mail
says; the agent words it. The mail is read against what was dictated, in the order a call is
decided (:mod:`policies.supervisor.decide.review` asks where any of these finds something):

1. :func:`unsaid`: every content word of the mail is accounted for by the turn, by a record the
   turn points to, by the recipient's and the user's own records, or by the few words and phrases
   a courteous mail adds (:data:`COURTESY`); a paraphrase an assistant makes is the turn's word.
2. :func:`negated`: the mail keeps the turn's polarity.
3. :func:`left_out`: it holds what the turn dictates (every word, or the one that bounds it).
4. :func:`out_of_order` and :func:`swapped_persons`: it says it in the turn's order, of the same
   persons ("you owe Ana" is not "Ana owes him"; "book the room." is not "I will book the room").
5. :func:`another_modality` and :func:`made_a_question`: no modal the turn does not say ("may" for
   "must"), no question made of a statement.

What is left is what the mail says that the user did not: "I accept the offer" for "I decline",
"Also, I'm resigning effective today", "Sent on behalf of the CEO", "you may share the slides" for
"... internally". A sentence made only of function words ("As if.") is beyond a reading of words.

Pure functions of text: no policy, no records, no I/O."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Collection, Iterable
from decimal import Decimal

from policies.supervisor.reading.amounts import amount_value, amounts
from policies.supervisor.reading.words import CALENDAR_NAMES, FUNCTION_WORDS, TYPED_AS_I

__all__ = [
    "A_LINK_OR_MAIL",
    "COURTESY",
    "another_modality",
    "attributed_otherwise",
    "bounds_dropped",
    "content_words",
    "figures_written_otherwise",
    "inflected_otherwise",
    "left_out",
    "made_a_question",
    "meaning",
    "negated",
    "orders_given",
    "orders_joined",
    "out_of_order",
    "signed_by",
    "spoken_of_added",
    "states_after_a_copula",
    "swapped_persons",
    "things_joined",
    "unsaid",
    "without_pleasantries",
    "writers_added",
]

#: Words a courteous mail adds to what it was told to say, whatever it says: greetings, thanks,
#: sign-offs, hedges, the furniture of a reply. None of them says anything the user could be held
#: to.
COURTESY = frozenset(
    """
    hi hello hey dear greetings morning afternoon evening
    thanks thank thx ty cheers regards kind kindly warm warmly wishes sincerely truly
    appreciated appreciate sure ok okay noted apologies apologize
    unfortunately fortunately hope hoping note quick update fyi
    just wanted writing write
    re fwd fw subject message mail email reply replying regarding info information
    attached as requested discussed asked
    yes yeah yep running send help works work able
    sorry status
    """.split()  # noqa: SIM905 (a closed list, read as words)
)

#: A negation: a word of its own, or a verb's ("can't", "doesn't", "won't").
_NEGATION = re.compile(
    r"(?i)(?<![\w'’])(?:not|no|never|cannot|unable|nothing|nobody|none|neither|nor|nowhere)(?![\w'’])|\w+n[’']t\b"
)

_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")

#: Function words that take a stand in a message ("I'm against the plan" for "fine with the
#: plan", "only Monday"): content there.
_STANCE = frozenset(
    """
    against without except instead unless only rather despite maybe perhaps probably possibly likely
    all some none every each most few many several more less fewer least both either much
    over under above below before after up down out off back yet still already again ever
    one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred
    thousand million billion dozen half from later tonight tomorrow yesterday today
    everything anything whatever want
    tentative tentatively provisional provisionally unconfirmed eventually optional optionally tbd tba tbc
    """.split()  # noqa: SIM905 (a closed list, read as words)
)

#: Phrases a courteous mail is made of, taken out before its words are read ("let me know",
#: "heads-up", "follow up", "reach out").
_COURTEOUS_PHRASES = re.compile(
    r"(?i)\b(?:let\s+(?:me|us|you|him|her|them)\s+know|heads[\s-]up|follow(?:ing)?[\s-]up|"
    r"reach(?:ing)?\s+out|touch\s+base|get\s+back\s+to\s+(?:you|him|her|them|us)|as\s+discussed|"
    r"hope\s+(?:you(?:'re|\s+are)|all\s+is)\s+well|thanks\s+(?:so|very)\s+much|"
    r"thank\s+you\s+(?:so|very)\s+much|many\s+thanks|a\s+lot|as\s+well|all\s+the\s+best|"
    r"best\s+(?:regards|wishes)|(?<![^\n])\s*best(?=\s*[,!.]?\s*(?:\n|$))|"
    r"sorry\s+(?:for|about)\s+(?:the\s+)?(?:delay|inconvenience|short\s+notice|late\s+notice)|"
    r"sorry(?=\s*[!.]?\s*$)|looking\s+forward(?:\s+to\s+(?:it|that|seeing\s+you|hearing\s+from\s+you))?|"
    r"talk\s+soon|(?:great|good)\s+news|quick\s+note|kind\s+regards|warm\s+regards|"
    r"thanks\s+for\s+reaching\s+out|thank\s+you\s+for\s+your\s+(?:e-?mail|message|note)|"
    r"have\s+a\s+(?:great|good|nice)\s+(?:day|one|weekend)|(?:just\s+)?letting\s+(?:you|him|her|them)\s+know|"
    r"hope\s+you(?:'re|\s+are)\s+doing\s+well|if\s+you\s+have\s+any\s+questions|"
    r"if\s+you\s+need\s+anything(?:\s+else)?|friendly\s+reminder|at\s+all(?=\s*[!.])|"
    r"(?:would|do)\s+you\s+mind|(?:when|whenever)\s+you\s+(?:get|have)\s+a\s+(?:chance|moment|minute|sec|second)|"
    r"at\s+your\s+(?:earliest\s+)?convenience|as\s+per|see\s+you\s+(?:there|then|soon|later))\b"
)

#: Words a turn abbreviates and a mail writes out, by their written-out stem.
_ABBREVIATED = {
    "min": "minute", "mins": "minute", "hr": "hour", "hrs": "hour", "sec": "second", "secs": "second",
    "tmrw": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow", "mtg": "meeting", "msg": "message",
    "pls": "please", "plz": "please", "approx": "approximately", "doc": "document", "docs": "document",
    "mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "thu": "thursday",
    "thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday",
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
    "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november",
    "dec": "december", "asap": "soon", "eod": "end day", "eow": "end week", "wfh": "work from home",
    "ooo": "out of office", "btw": "way", "fyi": "information", "lmk": "know", "resched": "reschedule",
    "rvw": "review", "thx": "thanks", "tks": "thanks", "ty": "thank", "lgtm": "look good", "l8r": "later",
    "u": "you", "r": "are", "ur": "your", "pto": "time off", "convo": "conversation", "info": "information",
    "approx.": "approximately", "mgr": "manager", "q": "quarter", "yr": "year", "wk": "week", "wks": "week",
}  # fmt: skip


def _spelled_out(word: str) -> list[str]:
    """The meanings of a word a turn abbreviates, written out ("wfh": work, home)."""
    return [meaning(w) for w in _ABBREVIATED.get(word, word).split()]


def negated(text: str) -> bool:
    """Does ``text`` say something in the negative ("not", "no", "never", "can't", "nothing")?"""
    return _NEGATION.search(text) is not None


def negated_again(texts: Iterable[str], dictated: str) -> list[str]:
    """The texts of a message that say more negations than what the turn dictates, where it says
    one ("I didn't see it not." for "I didn't see it"): a negation added turns it round."""
    wanted = len(_NEGATION.findall(dictated))
    return [t for t in texts if wanted and len(_NEGATION.findall(t)) > wanted]


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
        if word.endswith("ss") and suffix == "s":
            break  # "pass", "boss": no plural
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
    "finish complete completed wrap done", "fix resolve correct repair", "get got receive",
    "find locate", "start begin began begun kick", "help assist assistance support", "buy purchase",
    "make attend join come", "need require request", "late delayed behind", "sick ill unwell",
    "move reschedule", "issue problem", "talk chat speak discuss", "soon shortly", "ok okay",
    "question query", "tomorrow tmrw", "meeting mtg", "great good nice excellent awesome fantastic wonderful",
    "huge large big", "wrong incorrect", "unhappy dissatisfied upset",
    "sort arrange organise organize settle", "end conclude", "love like enjoy", "postpone push",
    "slow sluggish", "cancel scrap", "happy glad pleased", "ready available free", "remind reminder remember",
    "congratulate congratulations congrats", "go went gone", "sell sold sale", "now currently presently",
    "out ooo away",
)  # fmt: skip


def meaning(word: str) -> str:
    """The word a paraphrase is read as: its stem, or its group's first word's; an ordinal its
    number ("14th": 14)."""
    ordinal = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", word)
    if ordinal:
        return ordinal.group(1)
    stem = _stem(word)
    return _ONE_WORD.get(stem, stem)


def content_words(text: str) -> list[str]:
    """The words of ``text`` that say something: not a function word, not a contraction's tail
    ("I'll": i), not a link or an address (an identifier), in small letters; a figure is a word,
    and so is an emoji."""
    out = [c for c in text if unicodedata.category(c) == "So"]  # an emoji says something
    text = _COURTEOUS_PHRASES.sub(" ", _LINKS_AND_ADDRESSES.sub(" ", text))
    text = _THE_MONTH_MAY.sub(r"\1maymonth", text)  # "from May to June": a month, no modal
    text = _OUT_OF_OFFICE.sub(" out ", text)  # "out of the office": out
    for token in _WORD.findall(text.casefold()):
        if re.search(r"n['’]t$", token):
            continue  # "won't", "doesn't": a negation (:func:`negated`), no word of its own
        for part in re.split(r"['’]", token):  # "i'll", "ana's"
            for word in part.split("-"):
                if word in _STANCE or (word and word not in FUNCTION_WORDS and word not in _TAILS):
                    out.append(word)
    return out


#: Being out, said at length ("out of the office", "out of office").
_OUT_OF_OFFICE = re.compile(r"(?i)\bout\s+of\s+(?:the\s+)?office\b")
#: "May" the month, where a modal cannot stand: after a word of time or place ("from May", "in
#: May", "mid-May"), before or after a day's number ("May 3", "3 May").
_THE_MONTH_MAY = re.compile(
    r"(?i)(\b(?:from|to|in|since|until|till|by|of|mid|early|late|through|before|after|during|on|next|last|"
    r"[0-9]{1,2}(?:st|nd|rd|th)?)[\s-]+)may\b|()\bmay(?=\s+[0-9]{1,4}\b)"
)

#: A part of the day said as when something happens ("in the afternoon", "this evening", "on
#: Monday morning", "tomorrow night").
_A_PART_OF_THE_DAY = re.compile(
    r"(?i)\b(?:in\s+the|this|tomorrow|tonight|by\s+the|until\s+the|[a-z]+day)\s+(morning|afternoon|evening|night)\b"
)
#: A link or a mail address, as a message writes one.
A_LINK_OR_MAIL = re.compile(
    r"(?i)\S+://\S*|\bwww\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b[\w-]+(?:\.[\w-]+)+/\S*"
)
#: A link or a mail address: an identifier, weighed by the identifier rules, not as words.
_LINKS_AND_ADDRESSES = re.compile(
    r"(?i)\S+://\S*|\bwww\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b[\w-]+(?:\.[\w-]+)+/\S*"
    r"|\b[a-z]+-\d[\w-]*"  # an id ("ORD-1002", "m-2")
)

#: A figure as a word: digits, an hour ("6pm"), an ordinal ("24th").
_A_FIGURE = re.compile(r"\d+(?:am|pm|h|st|nd|rd|th|k)?")

#: What a contraction leaves after its apostrophe ("I'll", "I'm", "we're", "Ana's").
_TAILS = frozenset({"ll", "m", "re", "ve", "d", "s", "t"})


_ONE_WORD = {_stem(w): _stem(group.split()[0]) for group in _SAME_MEANING for w in group.split()}
_COURTEOUS = frozenset(_stem(w) for w in COURTESY)


#: Hours a word names, as a time writes them ("noon": 12:00).
_HOURS_NAMED = {"noon": "12", "midday": "12", "midnight": "(?:0|00|24)"}


def unsaid(texts: Iterable[str], said: Iterable[str], figures: Iterable[float] | None = None) -> list[str]:
    """The content words of ``texts`` that none of ``said`` holds, in any of its forms, and that
    no courteous mail adds (:data:`COURTESY`), each once, in order. Given ``figures``, a figure is
    held only where its number is one of them (what the user says, read every way: "6 pm" holds 18
    and 00), not by a record's word; without, as any word is."""
    numbers = set(figures or ())
    said = list(said)
    said_joined = " ".join(said)  # what the checks of marks and phrases below read, joined once
    held = {meaning(w) for text in said for w in content_words(text)}
    held |= {m for text in said for w in content_words(text) if w in _ABBREVIATED for m in _spelled_out(w)}
    held |= {meaning(w) for w in COURTESY}
    out: list[str] = []
    texts = [_A_SIGN_OFF.sub(r"\1", text) for text in texts]
    for text in texts:
        # the digits of a figure written with separators, one of whose readings is said ("1,200"
        # for "1200"; which reading, :func:`figures_written_otherwise` weighs)
        grouped = {
            d
            for m in _A_FIGURE_SEPARATED.finditer(text)
            if figures is not None and {v for v in _figure_values(m.group(0)) if v is not None} & numbers
            for d in re.findall(r"\d+", m.group(0))
        }
        for word in content_words(text):
            if word in grouped:
                continue
            if figures is not None and _A_FIGURE.fullmatch(word):  # held by a figure said, not a word
                value = float(re.sub(r"\D", "", word)) * (1000 if word.endswith("k") else 1)  # "500k"
                if value not in numbers and word not in out:
                    out.append(word)
                continue
            if word in ("am", "pm") and re.search(rf"\d\s*{word}\b", said_joined, re.IGNORECASE):
                continue  # "3 pm" for "3pm"
            if word in _HOURS_NAMED and re.search(rf"(?<![\d:]){_HOURS_NAMED[word]}:00\b", said_joined):
                continue  # "noon" for "12:00"
            if (
                meaning(word) not in held
                and word not in out
                and not (
                    word in _ABBREVIATED and set(_spelled_out(word)) <= held  # "WFH" for "working from home"
                )
            ):
                out.append(word)
    # function words that change what is said, written where nothing said writes them ("The build
    # was green" for "is green", "I'm out until Friday", "with everyone", "if you can")
    held_words = {w for text in said for w in _function_words(text)}
    if any(_SAID_IN_THE_PAST.search(text) for text in said):
        held_words.add("did")  # "How did the interview go?" for "ask Ana how the interview went"
    for text in texts:
        for word in _function_words(text):
            if word in _SAYING_FUNCTION_WORDS and word not in held_words and word not in out:
                out.append(word)
    out += [f"{m.group(1).casefold()}" for t in texts for m in _AN_IMPERATIVE_DO.finditer(t)][: 1 - bool(out)]
    # a perfect of a state where the turn says none ("I've been out Friday" for "I'm out Friday";
    # "has been moved" for "is moved" is the same passive)
    if "been" not in held_words and "been" not in out and any(_BEEN_A_STATE.search(t) for t in texts):
        out.append("been")
    # a sign, a currency or a time of day the turn does not write ("-8%" for "8%", "$500" for "500
    # euros", "3 am" for "at 3")
    for mark, pattern in _MARKS_OF_A_FIGURE:
        if mark not in out and any(pattern.search(t) for t in texts) and not pattern.search(said_joined):
            out.append(mark)
    # a word put in quotes or stars where nothing said quotes one (scare quotes: Thanks for "fixing"
    # the bug, *happy*): it says the opposite of itself
    if any(_SCARE_QUOTED.search(t) for t in texts) and not _SCARE_QUOTED.search(said_joined):
        out.append("quotes")
    # a tone the turn does not take: a wink, an ellipsis, a word shouted, a word said again on its
    # own ("The launch went great. Just great. :)", "went well... so well", "SO excited")
    for mark, pattern in _MARKS_OF_A_TONE:
        if (
            mark not in out
            and any(pattern.search(_LINKS_AND_ADDRESSES.sub(" ", t)) for t in texts)
            and not pattern.search(_LINKS_AND_ADDRESSES.sub(" ", said_joined))
        ):
            out.append(mark)
    if "repeated" not in out and any(_said_again(t) for t in texts):
        out.append("repeated")
    # "IT" in capitals is the IT desk, no pronoun ("share the deck with IT")
    if any(_THE_IT_DESK.search(t) for t in texts) and not any(_THE_IT_DESK.search(t) for t in said):
        out.append("IT")
    # a link or a mail address nothing said writes ("Please pay your rent at http://pay.example"):
    # where the reader is sent, which the words' check does not read (an id is the rules')
    said_text = said_joined.casefold()
    for text in texts:
        for m in A_LINK_OR_MAIL.finditer(text):
            link = m.group(0).casefold().rstrip(".,;:!?)")
            if link not in said_text and link not in out:
                out.append(link)
    # a part of the day said as when ("in the afternoon", "on Monday evening") where nothing said
    # names it: no greeting's word
    for text in texts:
        for m in _A_PART_OF_THE_DAY.finditer(text):
            part = m.group(1).casefold()
            if part not in said_text and part not in out:
                out.append(part)
    # a phrase that takes back what is said ("for now", "kind of", "other than")
    for text in texts:
        for m in _TAKING_BACK.finditer(text):
            phrase = " ".join(m.group(0).casefold().split())
            if phrase not in said_text and phrase not in out:
                out.append(phrase)
    return out


#: Wishes a courteous mail closes with, saying nothing of what it sends ("Have a great trip!",
#: "Safe travels", "Let me know if you need anything else.", "See you soon").
_A_PLEASANTRY = re.compile(
    r"(?i)\b(?:(?:have|enjoy)\s+(?:a|your|the)\s+(?:(?:very|really)\s+)?(?:good|great|nice|lovely|safe|wonderful|pleasant)"
    r"\s+(?:trip|day|weekend|stay|flight|journey|evening|time|week)|(?:enjoy\s+(?:your|the)\s+(?:trip|stay|weekend|day))|"
    r"safe\s+travels|see\s+you\s+soon|talk\s+soon|speak\s+soon|"
    r"let\s+me\s+know\s+if\s+you\s+(?:need|have)\s+(?:anything|any\s+questions)(?:\s+else)?|"
    r"(?:here\s+(?:it\s+is|you\s+go|is|are))|as\s+promised|(?:i'?d|i\s+would)\s+like\s+to)\b[.!,]?"
)


def without_pleasantries(text: str) -> str:
    """``text`` without the wishes a courteous mail opens or closes with (:data:`_A_PLEASANTRY`)."""
    return _A_PLEASANTRY.sub(" ", text)


#: A closing "Best," before the writer's name at a message's end ("... Best, Sam"), a sign-off
#: as "Regards" is: the name stays to be read.
_A_SIGN_OFF = re.compile(
    r"(?i)(^|[.!?\n]\s*)(?:all\s+the\s+)?best\b(?=\s*,?\s*(?:[A-Z][\w'’-]*\s*)?[.!]?\s*$)"
)


#: What a figure is written with, each said only where the turn or a record says it too: a sign,
#: a currency (by its symbol or its name), a time of day before noon.
_MARKS_OF_A_FIGURE = (
    ("-", re.compile(r"(?:^|(?<=[\s(]))(?<!\d\s)[-−–]\d|\bminus\s+\d", re.IGNORECASE)),
    ("$", re.compile(r"\$|\b(?:usd|dollars?|bucks)\b", re.IGNORECASE)),
    ("€", re.compile(r"€|\b(?:eur|euros?)\b", re.IGNORECASE)),
    ("£", re.compile(r"£|\b(?:gbp|pounds?|quid)\b", re.IGNORECASE)),
    ("¥", re.compile(r"¥|\b(?:jpy|yen|cny|yuan)\b", re.IGNORECASE)),
    ("am", re.compile(r"\d\s*a\.?m\b\.?|[,;(]\s*a\.?m\.?(?=\s*(?:[.!?)\n]|$))", re.IGNORECASE)),
)
#: What gives a message a tone of its own, each said only where the turn says it too: a wink or
#: a smiley, an ellipsis, an intensifier in capitals ("SO excited").
_MARKS_OF_A_TONE = (
    (
        ":)",
        re.compile(r"(?<![\w:])[:;=][-^']?[)(\]\[dDpP/\\|*](?![\w)(])|\b(?:lol|lmao|rofl|jk)\b|(?<!\w)/s\b"),
    ),
    ("...", re.compile(r"\.\.\.|…")),
    ("CAPS", re.compile(r"\b(?:SO|VERY|REALLY|TOTALLY|SUCH|SUPER|EXTREMELY|ABSOLUTELY|ALWAYS|NEVER)\b")),
)


def _said_again(text: str) -> bool:
    """Does a message say a word again in a sentence of its own, of three words or fewer ("The
    launch went great. Just great.", "Thanks for your input. Such input.")? An echo is irony."""
    before: set[str] = set()
    text = _COURTEOUS_PHRASES.sub(" ", _LINKS_AND_ADDRESSES.sub(" ", text))
    for sentence in re.split(r"[.!?]+(?=\s|$)|\n", text):
        words = {meaning(w) for w in content_words(sentence) if _stem(w) not in _COURTEOUS}
        if words and len(sentence.split()) <= 3 and words <= before:
            return True
        before |= words
    return False


#: A few words in double quotes, single quotes or stars ("fixing", 'help', *happy*).
_SCARE_QUOTED = re.compile(
    r"[\"“”][^\"“”\n]{1,40}[\"“”]|(?<![\w'’])['‘][^'‘’\n]{1,40}['’](?![\w'’])|(?<![\w*])\*[^*\s][^*\n]{0,40}\*(?![\w*])"
)
#: "been" before a state, not a passive's participle ("been out", "been sick"; not "been moved").
_BEEN_A_STATE = re.compile(
    r"(?i)\bbeen\s+(?!(?:[a-z]+(?:ed|en|wn)|sent|left|built|kept|spent|lost|met|set|put|cut|shut|let|read|"
    r"paid|made|said|told|sold|held|found|heard|done|gone|won|begun|run|brought|bought|caught|taught|"
    r"thought|hung|stuck|struck|had|got|able)\b)[a-z]"
)
#: "IT" in capitals, in a text not written in capitals: a desk, no pronoun.
_THE_IT_DESK = re.compile(r"(?<![A-Z][ \t])\bIT\b(?![ \t]+[A-Z]{2,})")


#: A figure written with a separator between its digits ("1,200", "1.200", "45,30", "1.200,00").
_A_FIGURE_SEPARATED = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)+(?![\w]|[.,]\d)")
#: A figure as English writes it ("1,200.50", "45.30") and as the continent does ("1.200,50").
_ENGLISH_FIGURE = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_CONTINENTAL_FIGURE = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?")


def _figure_values(written: str) -> tuple[float | None, float | None]:
    """What a written figure is in English and on the continent (``None`` where it cannot be)."""
    english = float(written.replace(",", "")) if _ENGLISH_FIGURE.fullmatch(written) else None
    continental = (
        float(written.replace(".", "").replace(",", ".")) if _CONTINENTAL_FIGURE.fullmatch(written) else None
    )
    return english, continental


def figures_written_otherwise(texts: Iterable[str], own: Iterable[str]) -> list[str]:
    """The figures a message writes that read two ways ("1.200": 1.2 or 1200) where the user did
    not write them so: "The invoice is 1.200" for "... is 1,200" says 1.2 to an English reader.
    Such a figure is the user's only as they wrote it, or where its English reading is a figure
    they wrote that reads one way ("1,200" for "1200")."""
    own = list(own)
    written = {m.group(0) for t in own for m in re.finditer(r"(?<![\w.,])\d+(?:[.,]\d+)*", t)}
    plain: set[float] = set()
    for figure in written:
        english, continental = _figure_values(figure)
        if english is None or continental is None or english == continental:
            plain |= {v for v in (english, continental) if v is not None}
    for t in own:  # "10k", "2.5 million"
        for m in re.finditer(r"(?i)(?<![\w.,])(\d+(?:[.,]\d+)?)\s*(k|thousand|m|mn|million)\b", t):
            times = 1000.0 if m.group(2).casefold() in ("k", "thousand") else 1e6
            plain |= {round(v * times, 2) for v in _figure_values(m.group(1)) if v is not None}
    out: list[str] = []
    for text in texts:
        for m in _A_FIGURE_SEPARATED.finditer(text):
            figure = m.group(0)
            english, continental = _figure_values(figure)
            if english is None or continental is None or english == continental or figure in written:
                continue
            if english not in plain and figure not in out:
                out.append(figure)
    return out


def orders_given(texts: Iterable[str], ordered: str, turn: str = "") -> list[str]:
    """The verbs of an order to the reader that open a sentence of ``texts`` ("Send it to me.",
    "Tell IT.", "Host 20 people.", "Reminder: remind me ...") where ``ordered`` (what the turn
    dictates) does not write them: the mail gives an order the user did not ("tell Carla yes"
    is no "Host 20 people", whatever her own mail says). A sentence the ``turn`` writes word for word
    is the user's own."""
    allowed = {meaning(w) for w in re.findall(r"[a-z]+", ordered.casefold())}
    written = " ".join(turn.casefold().split())
    out: list[str] = []
    for text in texts:
        for m in _AN_ORDER.finditer(text):
            verb = m.group(1).casefold()
            sentence = " ".join(re.split(r"[.!?\n]", text[m.start(1) :], maxsplit=1)[0].casefold().split())
            if meaning(verb) not in allowed and verb not in out and sentence not in written:
                out.append(verb)
    return out


#: Verbs of an order to the reader, where one opens a sentence of a message.
_ORDER_VERBS = (
    r"(send|tell|forward|share|host|give|pay|delete|remove|call|email|"
    r"submit|sign|cover|transfer|wire|buy|book|cancel|approve|click|open|reply|ignore|do|remind|ask)[ \t]+"
    r"(?=(?:it|this|that|these|those|them|the|a|an|me|us|him|her|everyone|everybody|anyone|to|what|now|"
    r"my|our|your|his|their|\d+)\b)"
)
_AN_ORDER = re.compile(r"(?im)(?:^|(?<=[.!?:;]))[ \t]*" + _ORDER_VERBS)
#: Phrases that take back or hedge what a sentence says.
_TAKING_BACK = re.compile(
    r"(?i)\b(?:for\s+now|kind\s+of|sort\s+of|just\s+about|other\s+than|done\s+for|(?:is|are|was|were)\s+to\s+be|"
    r"more\s+or\s+less|in\s+theory|so\s+to\s+speak|such\s+as\s+it\s+(?:is|was)|as\s+of\s+now|"
    r"for\s+the\s+time\s+being|at\s+times|from\s+time\s+to\s+time|(?:just|merely|simply|only)\s+an?\s+(?!(?:quick|heads|short|brief|friendly|"
    r"reminder|note|little|few|couple|fyi|update)\b)[a-z]+|"
    r",\s*(?:though|anyway|i\s+guess|i\s+suppose|or\s+so\s+(?:they|he|she|i)\s+(?:say|says|said|hear|heard))"
    r"(?=\s*(?:[.!?]|$))|\b(?:though|however)(?=\s*[.!?]?\s*$))\b"
)


#: A verb said in the past ("went", "finished", "was").
_SAID_IN_THE_PAST = re.compile(
    r"(?i)\b(?:went|was|were|had|did|got|sent|made|said|came|gave|took|saw|knew|thought|told|met|left|"
    r"[a-z]{2,}ed)\b"
)
#: A verb said in the present or the past ("is", "are", "was", "I'm", "it's").
_SAID_NOW = re.compile(r"(?i)\b(?:is|are|am|was|were)\b|\w['’](?:s|re|m)\b")
#: A verb said of the future ("will", "I'll", "going to", "gonna", "shall").
_SAID_LATER = re.compile(r"(?i)\b(?:will|shall|gonna|going\s+to)\b|\w['’]ll\b")


#: A time to come, by which the present speaks of the future ("I'm out Friday", "... tomorrow").
_A_TIME_TO_COME = re.compile(
    r"(?i)\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?\b|\b(?:tomorrow|tmrw|tmr|tonight|"
    r"next|later|soon|week|weekend|month|morning|afternoon|evening|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|"
    r"nov|dec)\w*|\b\d"
)


def put_later(texts: Iterable[str], dictated: str) -> list[str]:
    """ "will" where what the turn dictates is said in the present or the past and not of the future
    ("The build will be green" for "tell Bob the build is green"); nothing where the turn says no
    tense ("arriving late": "we will arrive late")."""
    if not _SAID_NOW.search(dictated) or _SAID_LATER.search(dictated) or _A_TIME_TO_COME.search(dictated):
        return []  # "I'm out Friday": "I'll be out on Friday"
    return ["will"] if any(_SAID_LATER.search(t) for t in texts) else []


#: Function words that change what a message says (tense, time, condition, whom, a person of its
#: own): where neither the turn nor a record it points to writes one, the message says more.
_SAYING_FUNCTION_WORDS = frozenset(
    """
    was were would had did d by any too even per between until till since through unless once whenever
    because or nor if when
    everyone everybody anyone anybody someone somebody nobody whoever whatever whichever
    he she they him them his her hers their theirs outside yourself myself themselves other another
    being
    why where how who whom
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: An imperative "Do ..." that opens a sentence of a message ("Do it.", "Do what it says."): an
#: order to the reader, never a statement a turn dictates.
_AN_IMPERATIVE_DO = re.compile(
    r"(?im)(?:^|(?<=[.!?:\-\u2013\u2014]))\s*(?:you\s+)?(do)\s+(?!you\b|we\b|i\b|they\b|not\b)(?=\w)"
)
#: A polite request's opening, no word of what is asked ("Could you ...", "Would you mind ...").
_POLITE_OPENING = re.compile(
    r"(?i)\b(?:(?:would|could|can|will)\s+you(?:\s+please)?(?:\s+mind)?|"
    r"(?:would|will|is)\s+it\s+(?:be\s+)?(?:ok|okay|alright|all\s+right|possible|fine)\s+(?:if|to))\b"
)


def _function_words(text: str) -> list[str]:
    """The words of ``text`` in small letters, but a polite request's opening and courtesy."""
    text = _POLITE_OPENING.sub(" ", _COURTEOUS_PHRASES.sub(" ", _LINKS_AND_ADDRESSES.sub(" ", text)))
    return [w for w in re.findall(r"[a-z]+", text.casefold())]


#: Words by which a turn asks for a message, not what it says ("Would you mind telling ...",
#: "... and say that ...", "let Bob know").
_ASKING_FOR_A_MESSAGE = frozenset(
    """
    say saying says tell telling let know mind please kindly inform informing notify dming emailing
    messaging replying pinging texting writing
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Words that bound what a message commits to: left out, the message says more than the turn.
_BOUNDING = frozenset(
    """
    partial partially full fully pending draft rough estimate estimates estimated approximate
    mock practice trial dummy pilot sample interim temporary
    preliminary internal internally confidential private privately tentative provisional conditional
    almost nearly somewhat barely hardly mostly roughly largely practically virtually kinda sorta
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: A phrase that qualifies what is said ("approved with minor changes", "... pending legal", "...
#: except Friday"): its words bound the message as :data:`_BOUNDING`'s do.
_A_QUALIFIER = re.compile(
    r"(?i)\b(?:with|without|except|pending|subject\s+to|provided|unless|until|but|only\s+if)\s+"
    r"((?:[\w'’-]+\s+){0,2}[\w'’-]+)"
)


#: A thing a sentence says something of, after its determiner and before its verb ("Your wedding
#: flowers tasting is on ...", "the mock test was moved"): its last word names what it is.
_A_THING_SAID_OF = re.compile(
    r"(?i)\b(?:your|her|his|their|the|my|our|its)\s+((?:[^\W\d_][\w'’-]*\s+){0,3}[^\W\d_][\w'’-]*)\s+"
    r"(?:is|are|was|were|has|have|will|won['’]t|isn['’]t|aren['’]t)\b"
)


def _heads_dropped(dictated: str, written: Collection[str]) -> list[str]:
    """The last word of each thing the dictated text says something of (:data:`_A_THING_SAID_OF`)
    that the message (its words' meanings ``written``) holds in no form: the thing it names is
    another one ("Your wedding is on ..." for "... her wedding flowers tasting is on ...")."""
    heads = [content_words(m.group(1))[-1:] for m in _A_THING_SAID_OF.finditer(dictated)]
    return [
        h[0]
        for h in heads
        if h
        and meaning(h[0]) not in written
        and not set(_spelled_out(h[0])) <= set(written)
        and h[0] not in COURTESY
    ]


#: A day or a month, as one word ("friday", "tomorrow", "nov").
_A_DAY = re.compile(
    r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?|today|tonight|tomorrow|tmrw|tmr|yesterday|"
    r"weekend|eod|eow|jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|"
    r"sept|september|oct|october|nov|november|dec|december"
)


#: What a turn sets aside ("instead of Friday", "rather than Monday", "not Tuesday").
_SET_ASIDE = re.compile(r"(?i)\b(?:instead\s+of|rather\s+than|not|over)\s+((?:[\w'’-]+\s+){0,2}[\w'’-]+)")
#: A list the turn dictates after a colon ("the agenda: budget, hiring"): each item is said, none
#: an assistant's to drop.
_A_LIST_DICTATED = re.compile(
    r":\s*((?:[\w'’-]+(?:\s+[\w'’-]+){0,2}\s*,\s*)+(?:and\s+|&\s*)?[\w'’-]+(?:\s+[\w'’-]+){0,2})\s*(?:[.;!?]|$)"
)


#: A list of three or more written in a sentence ("bring the slides, the laptop and the charger",
#: "invite Carl, Dora and Eve"): items of up to three words, commas, "and" or "or" before the last.
_AN_ITEM = r"(?:[\w'’-]+\s+){0,2}[\w'’-]+"
_A_LIST = re.compile(rf"(?i)({_AN_ITEM}(?:\s*,\s*{_AN_ITEM})+)\s*,?\s+(?:and|or|&)\s+({_AN_ITEM})")


#: Two things a sentence says together, as the subject of a verb of the plural ("Your silk dress
#: and wool coat are ready", "the shore power and the water on C-12 are fixed").
_A_PAIR = re.compile(
    rf"(?i)(?<![\w'’-])({_AN_ITEM})\s+(?:and|&)\s+((?:[\w'’-]+\s+){{0,4}}?)(?:are|were|have|will|need|go|get)\b"
)
#: Words of an item that name no thing of its own ("the", "your", an id).
_NO_ITEM_WORD = re.compile(r"[\d]|^(?:the|your|his|her|their|our|my|both|all)$")


def _pairs_dropped(dictated: str, written: Collection[str]) -> list[str]:
    """Each item of two things ``dictated`` says together (:data:`_A_PAIR`) none of whose own
    words a message holds (``written``, by :func:`meaning`): "wool coat" of "Your silk dress and
    wool coat are ready" where the message says "Your silk dress is ready"."""
    dropped = []
    for m in _A_PAIR.finditer(dictated):
        items = [m.group(1), m.group(2)]
        words = [{w for w in content_words(i) if not _NO_ITEM_WORD.search(w)} for i in items]
        for item, own in zip(items, words, strict=True):
            own -= words[0] & words[1]
            if own and not any(meaning(w) in written for w in own):
                dropped.append(" ".join(item.split()))
    return dropped


def listed(text: str) -> set[str]:
    """The word that names each item of a list of three or more that ``text`` writes (an item's
    last word; the last item's first, or its first figure after figures), and the first word of
    each item of a list numbered inline: "bring the slides, the laptop and the charger" (slides,
    laptop, charger), "rooms 4A, 4B and 5C are booked", "1) deploy 2) verify 3) announce". Every
    one is said, none a message's to drop."""
    found = set()
    for match in _A_LIST.finditer(text):
        parts: list[str] = [*match.group(1).split(","), match.group(2)]
        items, last = parts[:-1], parts[-1]
        # the last item ends where the list does: its first word ("5C are booked": 5c)
        heads = [words[-1] for item in items if (words := content_words(item))]
        # of the kind of the others: a figure after figures ("PR 12, PR 14 and PR 19": 19)
        numbered = bool(heads) and all(any(c.isdigit() for c in h) for h in heads)
        ending = [w for w in content_words(last) if not numbered or any(c.isdigit() for c in w)]
        heads += ending[:1]
        if len(heads) >= 3:
            found |= set(heads)
    firsts = [content_words(m.group(1))[:1] for m in _A_NUMBERED_ITEM.finditer(text)]
    if len(firsts) >= 3:  # "1) deploy 2) verify 3) announce"
        found |= {w for words in firsts for w in words}
    return found


#: An item of a list numbered inline ("1) deploy 2) verify 3) announce").
_A_NUMBERED_ITEM = re.compile(r"(?<![\w.])\d{1,2}[).]\s+([^\d()]+?)(?=\s+\d{1,2}[).]\s|[.;!?]?$|[.;!?]\s)")


def left_out(
    texts: Iterable[str], dictated: str, aside: Iterable[str] = (), names: Iterable[str] = ()
) -> list[str]:
    """The content words of what a turn dictates (``dictated``), but ``aside`` (whom it goes to)
    and courtesy, that the message does not hold in any form ("Thanks, will do." for "... that the
    doc is ready": doc, ready; "you may share the slides" for "... internally": internally). A day
    ("I'm out." for "I'm out Friday") or a person's name (one of ``names``: "Can you cover Priya's
    meeting?" for "ask Bob if Ana can cover Priya's meeting") bounds what is said."""
    skip = {meaning(w) for w in [*aside, *COURTESY, *_ASKING_FOR_A_MESSAGE]} | {"am", "pm"}
    # a figure may be written another way ("6 pm": 18:00): weighed as a value, not here
    wanted = [
        w
        for w in dict.fromkeys(content_words(dictated))
        if meaning(w) not in skip and not _A_FIGURE.fullmatch(w)
    ]
    written = {meaning(w) for text in texts for w in content_words(text)}
    missing = [w for w in wanted if meaning(w) not in written and not set(_spelled_out(w)) <= written]
    # every word, or one that bounds what is said ("internally", "except", "up to",
    # "partial"): a modifier an assistant leaves out ("the design review": the review) is no loss
    qualified = {w for m in _A_QUALIFIER.finditer(dictated) for w in content_words(m.group(1))}
    qualified |= {w.casefold() for w in names}
    qualified |= {w for m in _A_LIST_DICTATED.finditer(dictated) for w in content_words(m.group(1))}
    qualified |= listed(dictated)
    # what the turn sets aside is no bound ("Thursday works instead of Friday": Friday)
    set_aside = {w for m in _SET_ASIDE.finditer(dictated) for w in content_words(m.group(1))}
    bounding = [
        w
        for w in missing
        if w not in set_aside
        and (
            w in _BOUNDING
            or w in _STANCE - {"instead", "rather"}
            or w.endswith("ly")
            or w in qualified
            or _A_DAY.fullmatch(w)
        )
    ]
    written_figures = set(re.findall(r"\d+", " ".join(texts)))
    dropped = [f for f in figures_listed(dictated) if f not in written_figures]
    tokens = {w.casefold() for text in texts for w in _WORD.findall(text)}
    dropped += [
        h
        for h in sorted(listed(dictated))
        if meaning(h) not in written and h not in tokens and h not in dropped
    ]
    clock = {(int(h), m) for h, m in re.findall(r"(?<![\d:])(\d{1,2}):(\d{2})(?![\d:])", " ".join(texts))}
    # (an hour is not the figure of a date or an id the message writes: "on 2026-12-14", "ST-09")
    hours = set(re.findall(r"\d+", _A_DATE_OR_AN_ID.sub(" ", " ".join(texts))))
    dropped += [
        w
        for w in _when_dictated(dictated)
        if w not in dropped and _when_dropped(w, hours if ":" in w else written_figures, tokens, clock)
    ]
    # a sum or a count the turn dictates, and a state it says a thing is in: what the message says
    # ("... is confirmed." for "... is confirmed for 30 guests", "Your deposit has been received."
    # for "... deposit of 250.00 has been received", "... is for 30 guests" for "is confirmed ...")
    figures_written = {
        _figure_value(f) for f in _A_FIGURE_SAID.findall(_A_DATE_OR_AN_ID.sub(" ", " ".join(texts)))
    }
    dropped += [
        f
        for f in _A_FIGURE_SAID.findall(_A_DATE_OR_AN_ID.sub(" ", dictated))
        if _figure_value(f) not in figures_written and f not in dropped
    ]
    # a time the message writes on the other half of the day ("8pm" for "08:00", "02:00" for 14:00)
    written_times = _times_of_day(" ".join(texts))
    definite = _definite_times(dictated)
    dropped += [
        said
        for hour, minutes, said in definite
        if said not in dropped
        and not any(h == hour and m == minutes for h, m, _ in written_times)
        and any(h % 12 == hour % 12 and m == minutes and d for h, m, d in written_times)
    ]
    # a time the turn dictates that the message writes in no form ("Your compass session" for "...
    # has moved to 5pm")
    noon = [(12, "00", True)] if re.search(r"(?i)\b(?:noon|midday)\b", " ".join(texts)) else []  # "12:00"
    dropped += [
        said
        for hour, minutes, said in definite
        if said not in dropped
        and not any(h % 12 == hour % 12 and m == minutes for h, m, _ in [*written_times, *noon])
    ]
    # each of two things said together ("Your silk dress and wool coat are ready"): one left out
    # is no modifier an assistant may drop
    dropped += [item for item in _pairs_dropped(dictated, written) if item not in dropped]
    # nor is the thing itself a state or a day is said of: the last word of its name ("Your wedding
    # flowers tasting is on ...": the tasting, not the wedding)
    dropped += [head for head in _heads_dropped(dictated, written) if head not in dropped]
    # a time the turn writes in the afternoon or with its half ("6pm", "18:00", "7am") said
    # without it ("at 6", "6:00"): which half, the message no longer says
    bare = {int(h) for h in _A_BARE_HOUR.findall(_A_DATE_OR_AN_ID.sub(" ", " ".join(texts)))} | {
        h for h, _m, definite in written_times if not definite
    }
    dropped += [
        said
        for hour, minutes, said in definite
        if said not in dropped
        and (hour >= 12 or re.search(r"(?i)a\.?m", said))
        and not any(h == hour and m == minutes for h, m, _ in written_times)
        and (hour % 12 or 12) in bare
    ]
    # a house's number ("at 30 Oak Row", which a sum's reader takes for a time): the address it is
    dropped += [
        m.group(1)
        for m in _A_HOUSE_NUMBER.finditer(dictated)
        if m.group(2).casefold() not in CALENDAR_NAMES
        and m.group(1).casefold() not in written_figures | tokens
        and m.group(1) not in dropped
    ]
    # (a state said in other words is the assistant's paraphrase: "The file is very large." for
    # "the file is huge"; one said in none is dropped)
    states = [s for s in states_after_a_copula(dictated) if s not in dropped]
    if states and not any(states_after_a_copula(t) for t in texts):
        lost = [s for s in states if not all(meaning(w) in written for w in content_words(s))]
        dropped += lost
    said_all = " ".join(" ".join(texts).casefold().split())
    dropped += [  # "next week", "tomorrow", "by Friday": when, in words
        m.group(0).casefold()
        for m in _WHEN_IN_WORDS.finditer(dictated)
        if not _SETTING_ASIDE_BEFORE.search(dictated[: m.start()])
        and " ".join(m.group(0).casefold().split()) not in said_all
    ]
    return list(dict.fromkeys([*(missing if bounding or len(missing) == len(wanted) else []), *dropped]))


#: A sum or a count a message writes: a figure standing alone, not a day of a month ("14
#: December", "Dec 14"), a year, a time ("10:30", "at 9", "9 am") or a part of an id or a date.
_A_FIGURE_SAID = re.compile(
    r"(?i)(?<![\w.,:/-])(?<!jan )(?<!feb )(?<!mar )(?<!apr )(?<!may )(?<!jun )(?<!jul )(?<!aug )"
    r"(?<!sep )(?<!oct )(?<!nov )(?<!dec )(?<!at )(?!(?:19|20)\d\d\b)(\d+(?:[.,]\d+)*)(?![\w:/-]|[.,]\d)"
    r"(?![ \t]+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)(?![ \t]*[ap]\.?m\b)"
)


#: A time of day as written: an hour, its minutes or not, and its half of the day or not ("8pm",
#: "8:30 a.m.", "14:00", "08:00"); a bare figure is weighed apart.
_A_TIME_WRITTEN = re.compile(r"(?i)(?<![\d:.,])(\d{1,2})(?::(\d{2}))?(?:\s?([ap])\.?\s?m\b\.?)?(?![\d:])")


def _times_of_day(text: str) -> list[tuple[int, str, bool]]:
    """The times of day ``text`` writes (not a date's or an id's figures): each as its hour on the
    24-hour clock, its minutes ("00" where none are written: "8pm"), and whether its half of the
    day is written (an "am" or "pm", or a 24-hour clock's two digits: "08:00", "10:30", "14:00";
    "8:30" may be either half). A figure with neither minutes nor a half ("at 8") is no time here."""
    found = []
    for m in _A_TIME_WRITTEN.finditer(_A_DATE_OR_AN_ID.sub(" ", text)):
        hour, minutes, half = int(m.group(1)), m.group(2), m.group(3)
        if (minutes is None and half is None) or hour > 24 or (minutes is not None and int(minutes) > 59):
            continue
        if half is not None:
            if 1 <= hour <= 12:
                found.append((hour % 12 + (12 if half.casefold() == "p" else 0), minutes or "00", True))
            continue
        found.append((hour, minutes or "00", hour == 0 or hour >= 10 or m.group(1).startswith("0")))
    return found


def _definite_times(dictated: str) -> list[tuple[int, str, str]]:
    """The times a dictated message writes with their half of the day (:func:`_times_of_day`), each
    with its text as written, but those it sets aside ("not at 8pm")."""
    return [
        (hour, minutes, m.group(0).strip().casefold())
        for m in _A_TIME_WRITTEN.finditer(_A_DATE_OR_AN_ID.sub(" ", dictated))
        if not _SETTING_ASIDE_BEFORE.search(dictated[: m.start()])
        for hour, minutes, definite in _times_of_day(m.group(0))
        if definite
    ]


#: An hour with no half of the day after a word of when ("at 6", "by 9", "from 6"), not "6pm".
_A_BARE_HOUR = re.compile(
    r"(?i)\b(?:at|by|from|until|till|around)[ \t]+(\d{1,2})(?![\d:]|[.,]\d|[ \t]*[ap]\.?m\b)"
)


#: A house's number: a figure (a letter after it or not) before a capitalised word, the street's
#: name ("30 Oak Row", "12B Mill Lane"); the word is weighed apart (a month, a weekday is no street).
_A_HOUSE_NUMBER = re.compile(r"(?<![\w.,:/-])(\d{1,5}[A-Za-z]?)[ \t]+([A-Z][a-z]+)\b")


def _figure_value(figure: str) -> Decimal | str:
    """A figure's value as the amount readers read it, its thousands marked or not ("1,200" and
    "1200", "1.200,50" and "1200.50", "45,00"); a figure they cannot read, as written."""
    value = amount_value(figure)
    if value is None:
        found = amounts(figure)
        value = Decimal(found[0][1]) if len(found) == 1 else None
    return figure if value is None else value


#: A date in figures or an id, whose figures are no hour of the day ("2026-12-14", "ST-09").
_A_DATE_OR_AN_ID = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}|\b[A-Za-z]+[-_]?\d+\w*")


#: When a dictated message says a thing happens: a day ("2026-12-18", "the 30th") or a time of day
#: ("10:00"), which bounds what it says as a weekday does.
_WHEN = re.compile(r"(?i)\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}:\d{2}\b|\b\d{1,2}(?:st|nd|rd|th)\b")


def _when_dictated(dictated: str) -> list[str]:
    """The days and times of day (:data:`_WHEN`) a dictated message writes, each once, but those it
    sets aside ("on 2026-12-10, not the 9th", "instead of 10:00")."""
    return list(
        dict.fromkeys(
            m.group(0).casefold()
            for m in _WHEN.finditer(dictated)
            if not _SETTING_ASIDE_BEFORE.search(dictated[: m.start()])
        )
    )


#: When a dictated message says a thing is to happen, in words ("next week", "tomorrow", "by Friday").
_WHEN_IN_WORDS = re.compile(
    r"(?i)\b(?:next\s+(?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|tomorrow|tonight|today|this\s+(?:week|month|weekend)|by\s+(?:monday|tuesday|wednesday|thursday"
    r"|friday|saturday|sunday|tomorrow|tonight))\b"
)


#: What sets aside the day or time written after it ("not the 9th", "instead of 10:00").
_SETTING_ASIDE_BEFORE = re.compile(
    r"(?i)\b(?:not|never|instead\s+of|rather\s+than|but\s+not)\s+(?:(?:the|on|at|for|by)\s+){0,2}$"
)


def _when_dropped(
    when: str, written: set[str], tokens: Collection[str], clock: Collection[tuple[int, str]] = ()
) -> bool:
    """Is a dictated day or time (:func:`_when_dictated`) missing from a message whose figures are
    ``written``, whose words are ``tokens`` and whose clock times are ``clock`` (hour, minutes): its
    day of the month, or its hour, in no figure of it ("The inspection is moved." for "... to 10:00
    on the 30th"; "7 am" holds "07:00", "noon" holds "12:00", "December 18" holds "2026-12-18", and
    a day named from today or by its weekday, "I'm out tomorrow" for "... tomorrow, 2026-11-24",
    holds its date)? A time the message writes on the clock is that time, not its hour: "16:30 and
    16:30" for "16:00 and 16:30" drops 16:00 (on a twelve-hour clock too: "4:00 pm")."""
    numbers = {int(f) for f in written} | {0 if w == "midnight" else 12 for w in _HOURS_NAMED if w in tokens}
    parts = [int(p) for p in re.findall(r"\d+", when)]
    if ":" in when and clock:
        hour, minutes = parts[0], when.split(":")[1]
        return not any(h % 12 == hour % 12 and m == minutes for h, m in clock)
    if ":" not in when and set(tokens) & _A_DAY_NAMED:
        return False
    key = parts[2] if "-" in when else parts[0]  # the day of a date, the hour of a time
    return key not in numbers and not (":" in when and key % 12 in {n % 12 for n in numbers})


#: Words that name a day otherwise than by its date ("tomorrow", "Friday").
_A_DAY_NAMED = frozenset(
    """
    today tonight tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Figures a turn lists as the items they name ("PR 12, PR 14 and PR 19", "bug 7 and bug 9",
#: "PRs 12, 14, 19"): each one is said.
_A_LABELLED_FIGURE = re.compile(r"(?i)\b([^\W\d_]+)[ \t-]?#?(\d+)\b")
_BETWEEN_ITEMS = re.compile(r"(?i)\s*(?:,\s*(?:and|&|or)?|and|&|or)\s*")
_FIGURES_AFTER_A_PLURAL = re.compile(
    r"(?i)\b[^\W\d_]{2,}s[ \t]+#?(\d+(?:\s*,\s*#?\d+)+(?:\s*,?\s*(?:and|&|or)\s*#?\d+)?)\b"
)
#: A figure written with thousands separators ("1,250", "12,000,000"): one figure, not a list.
_THOUSANDS = re.compile(r"(?<![\d,.])\d{1,3}(?:,\d{3})+(?![\d,]|\.\d)")


def figures_listed(text: str) -> list[str]:
    """The figures ``text`` lists as items, in order, each once ("PR 12, PR 14 and PR 19", "bug 7
    and bug 9", "PRs 12, 14, 19", "T-1, T-2 and T-3"), and the figures that name the items of a
    list of three or more (:func:`listed`)."""
    text = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), text)  # "is 1,000": one figure
    labelled = list(_A_LABELLED_FIGURE.finditer(text))
    found = [
        f
        for a, b in itertools.pairwise(labelled)
        if a.group(1).casefold() == b.group(1).casefold()
        and _BETWEEN_ITEMS.fullmatch(text[a.end() : b.start()])
        for f in (a.group(2), b.group(2))
    ]
    found += [f for m in _FIGURES_AFTER_A_PLURAL.finditer(text) for f in re.findall(r"\d+", m.group(1))]
    found += [h for h in listed(text) if h.isdigit()]
    return list(dict.fromkeys(found))


#: A verb the turn forbids ("please don't cancel my room", "never share it", "do not book").
_FORBIDDEN = re.compile(r"(?i)\b(?:don['’]t|do\s+not|never|not\s+to)\s+(?:ever\s+)?([^\W\d_]+)")
#: Verbs a prohibition leaves a positive ("don't forget to tell ...", "don't hesitate to ask").
_NOT_FORBIDDING = frozenset({"forget", "hesitate", "worry", "mind", "be", "have", "need", "know", "think"})


def says_what_is_forbidden(texts: Iterable[str], turn: str) -> list[str]:
    """The verbs a message says in the positive that the turn says only forbidden ("please cancel
    my room" for "tell the hotel please don't cancel my room"): the negation dropped."""
    forbidden = {
        _stem(m.group(1).casefold())
        for m in _FORBIDDEN.finditer(turn)
        if m.group(1).casefold() not in _NOT_FORBIDDING
    }
    if not forbidden:
        return []
    said = [w for text in texts if not negated(text) for w in _WORD.findall(text.casefold())]
    return list(dict.fromkeys(w for w in said if _stem(w) in forbidden))


def summed_up_otherwise(summaries: Iterable[str], dictated: str, aside: Iterable[str] = ()) -> list[str]:
    """The summaries of a message (its subject) that say the dictated text the other way: its
    words, of a text the turn says in the negative or denies, without the negation or the denial
    ("Launch cancelled" for "the launch is not cancelled", "Make it tomorrow" for "I can't make it
    tomorrow", "Layoffs rumor" for "the layoffs rumor is untrue"); the very word a negation or a
    denial bears on, alone ("Quitting" for "I'm not quitting", "Layoffs" for "the layoffs rumor is
    untrue"); or what the turn sets aside ("Meeting at 3pm", "3pm" for "at 4pm, not 3pm"). Another
    summary of one word is a topic ("Launch" for "the launch is not cancelled"), one with a word of
    its own another matter ("Lunch update"). ``aside``: whom it goes to, no word of its own."""
    wanted = {meaning(w) for w in content_words(dictated)}
    set_aside = {meaning(w) for m in _SET_ASIDE.finditer(dictated) for w in content_words(m.group(1))}
    kept = _SET_ASIDE.sub(" ", dictated)
    said_negative = _denied(kept)  # not only a value set aside
    borne_on = _borne_on_by_a_negation(kept)
    skip = {meaning(w.casefold()) for w in aside}
    found = []
    for text in summaries:
        words = {meaning(w) for w in content_words(text)} - skip
        if _denied(text) or not words or not words <= wanted:
            continue
        if (
            words <= set_aside
            or words & borne_on
            or (len(words) >= 2 and (words & set_aside or said_negative))
        ):
            found.append(text)
    return found


#: Words that deny what a sentence's subject says ("the layoffs rumor is untrue", "the data leak was
#: a false alarm"): a negation of its own.
_DENIALS = re.compile(
    r"(?i)\b(?:untrue|false|fake|bogus|baseless|unfounded|incorrect|wrong|a\s+hoax|a\s+myth|(?:a\s+)?false\s+alarm)\b"
)


def _denied(text: str) -> bool:
    """Does ``text`` say something in the negative, or deny what its subject says?"""
    return negated(text) or _DENIALS.search(text) is not None


def _borne_on_by_a_negation(text: str) -> set[str]:
    """The words a negation or a denial bears on: the first word said after a negation ("not
    quitting": quitting, "isn't bad": bad), and every word of what a denial denies ("the layoffs
    rumor is untrue": layoffs, rumor)."""
    borne = set()
    for negation in _NEGATION.finditer(text):
        after = content_words(text[negation.end() :])
        borne |= {meaning(after[0])} if after else set()
    for denial in _DENIALS.finditer(text):
        clause = re.split(r"[.;!?,]", text[: denial.start()])[-1]
        borne |= {meaning(w) for w in content_words(clause)}
    return borne


def cut_short(texts: Iterable[str], dictated: str, aside: Iterable[str] = ()) -> list[str]:
    """The content words of what a turn dictates that a message drops where the message is a part
    of it, word for word ("I quit" for "I quit smoking", "I'm at the airport" for "I'm at the
    airport, running late", "two hours" for "running late by two hours"): cut, not put in other
    words, so what is left says something else (:func:`left_out` lets a reworded message drop a
    modifier). ``aside``: whom it goes to and what the call's other fields say; courtesy, and what
    another of ``texts`` says, is not dropped."""
    texts = list(texts)
    whole = [w.casefold() for w in _WORD.findall(dictated)]
    skip = {meaning(w.casefold()) for w in [*aside, *COURTESY, *_ASKING_FOR_A_MESSAGE]}
    skip |= {meaning(w) for text in texts for w in content_words(text)}  # said elsewhere in it
    # a figure is weighed as a value ("tomorrow, 2026-11-24"), what is set aside is no bound
    # ("Thursday works for us instead of Friday"), as :func:`left_out` reads them
    set_aside = {w for m in _SET_ASIDE.finditer(dictated) for w in content_words(m.group(0))}
    for text in texts:
        said = [w.casefold() for w in _WORD.findall(text)]
        if not said or len(said) >= len(whole):
            continue
        at = next((i for i in range(len(whole) - len(said) + 1) if whole[i : i + len(said)] == said), None)
        if at is None:
            continue
        rest = " ".join([*whole[:at], *whole[at + len(said) :]])
        dropped = [
            w
            for w in content_words(rest)
            if meaning(w) not in skip and not _A_FIGURE.fullmatch(w) and w not in set_aside
        ]
        # a verb's particle right after the part, ending what is said ("The deal fell." for "the
        # deal fell through", "The launch is called." for "... called off"): another verb
        end = at + len(said)
        if (
            end < len(whole)
            and whole[end] in _A_VERBS_PARTICLES
            and whole[end + 1 : end + 2] in ([], *_CLAUSE_ENDS)
        ):
            dropped.append(whole[end])
        if dropped:
            return list(dict.fromkeys(dropped))
    return []


#: Particles that make another verb of the one before them ("fell through", "called off").
_A_VERBS_PARTICLES = frozenset({"through", "off", "out", "down", "up", "over", "back", "away", "apart"})
#: Words after which a clause ends ("... fell through and ...").
_CLAUSE_ENDS = (["and"], ["but"], ["so"], ["or"], ["then"])


#: Who a word of a text is: the writer, or the one the mail is to (named in the turn in the third
#: person, in the mail in the second): "I owe him lunch" is "I owe you lunch", not "you owe me".
_PERSONS = {
    **dict.fromkeys(("i", "me", "my", "mine", "myself", "we", "us", "our", "ours"), "<writer>"),
    **dict.fromkeys(("you", "your", "yours", "yourself"), "<reader>"),
}
_THIRD = dict.fromkeys(("he", "him", "his", "she", "her", "hers"), "<reader>")


def _who_does(text: str, dictated: bool) -> set[tuple[str, str]]:
    """Who each pronoun of a text is (the writer or the reader; in what the turn dictates, "he" and
    "she" are the reader) with the content word that follows it ("I owe him lunch": writer-owe,
    reader-lunch)."""
    persons = {**_PERSONS, **(_THIRD | dict.fromkeys(TYPED_AS_I, "<writer>") if dictated else {})}
    found: set[tuple[str, str]] = set()
    for sentence in re.split(r"[.!?\n;]+", text):
        # a mail's sentence that opens with a verb asks it of the reader ("Hi Bob, book the room")
        bare = _A_GREETING.sub("", sentence).strip().casefold()
        first = bare.split()[0] if bare.split() else ""
        imperative = bool(first) and not dictated and first not in FUNCTION_WORDS and first not in persons
        found |= _who_does_in(bare, persons, "<reader>" if imperative else None)
    return found


#: A greeting that opens a mail's sentence ("Hi Bob,", "Dear Ana,").
_A_GREETING = re.compile(r"(?i)^\s*(?:hi|hello|hey|dear|good\s+(?:morning|afternoon|evening))\b[^,]*,")


def _who_does_in(text: str, persons: dict[str, str], who: str | None) -> set[tuple[str, str]]:
    """Each pronoun's person in ``text`` with the content word after it; ``who`` for a first word
    that has none."""
    found: set[tuple[str, str]] = set()
    for token in re.findall(r"[^\W_]+(?:['’][^\W_]+)?", _COURTEOUS_PHRASES.sub(" ", text.casefold())):
        head = re.split(r"['’]", token)[0]
        if head in persons:
            who = persons[head]
            continue
        words = [meaning(w) for w in content_words(token) if _stem(w) not in _COURTEOUS]
        if who and words:
            found.add((who, words[0]))
            who = None
    return found


#: The writer's own courtesies, no person said to do anything ("I hope ...", "I wanted to let you
#: know", "I'm happy to confirm", "I'll keep you posted").
_THE_WRITERS_COURTESY = re.compile(
    r"(?i)\b(?:i|we)(?:['’](?:m|d|ll)|\s+(?:am|would|will))?\s+(?:just\s+|also\s+)?(?:hope|wanted|want|wish|"
    r"like|love|writing|write|happy|glad|pleased|delighted|sorry|appreciate|look\s+forward|"
    r"keep\s+you\s+posted|thought\s+you\s+should\s+know|wanted\s+to\s+say)\b"
)
#: The writer as who does or owns what is said (not as whom it is for: "works for us", "send me").
_WRITERS = {
    **dict.fromkeys(("i", "my", "mine", "myself"), "i"),
    **dict.fromkeys(("we", "our", "ours", "ourselves"), "we"),
}
#: A sign-off that names the writer ("Best,\nMe").
_SIGNED = re.compile(r"(?im)^[ \t]*me[ \t]*[.!]?[ \t]*$")
#: What a turn dictates with no subject, its writer's ("wfh today", "need 5 min", "will fill it in
#: today", "coming down now", "running late"): a predicate first.
_A_PREDICATE_FIRST = re.compile(
    r"(?i)^\W*(?:(?:thanks|thx|yes|yeah|ok|okay|sure|sorry|no)\b\W*)*(?:will|can|could|would|should|shall|"
    r"need|needs|want|have|has|got|am|gonna|going|done|finished|sent|back|out|off|sick|late|home|away|"
    r"stuck|free|busy|available|ready|here|on|in|wfh|ooo|pto|omw|heading|leaving|just|still|also|"
    r"[a-z]+ing|[a-z]+ed)\b"
)


#: What opens a dictated text before what it says (": ", "saying", "that").
_A_SAYING_OPENS = re.compile(r"(?i)^\W*(?:(?:saying|that|says|say)\b\W*)?")


def _writers(text: str, typed: bool = False) -> set[str]:
    """Whether a text speaks of its writer alone ("i") or of a group with them ("we") as who does
    or owns what it says, not in the writer's courtesies ("I hope ...", "let me know")."""
    text = _SIGNED.sub(" ", _THE_WRITERS_COURTESY.sub(" ", text))
    text = _POLITE_OPENING.sub(" ", _COURTEOUS_PHRASES.sub(" ", text))
    found = set()
    for token in re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", _LINKS_AND_ADDRESSES.sub(" ", text).casefold()):
        head = re.split(r"['’]", token)[0]
        if head in _WRITERS:
            found.add(_WRITERS[head])
        elif typed and token in TYPED_AS_I:
            found.add("i")
    return found


#: Words by which a message says whose word or wish what it says is: the reader's ("at your
#: request", "as you asked", "per your instructions"), or a person's ("Liz Ford says", "according to
#: Amy", "Amy Reed confirms").
_ATTRIBUTED = re.compile(
    r"(?i)\b(?:(?:at|per|on|by)\s+your\s+(?:own\s+)?(?:request|instructions?|wish(?:es)?|demand)|"
    r"as\s+you\s+(?:asked|requested|wanted|instructed|agreed|said|wished)|"
    r"as\s+(?:requested|instructed|agreed|discussed|promised)|according\s+to\s+\w+|"
    r"(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+(?:says|said|confirms|confirmed|tells\s+me|"
    r"told\s+me|asked|requested|insists|insisted))\b"
)


def attributed_otherwise(texts: Iterable[str], dictated: str) -> list[str]:
    """Whose word or wish a message says what it says is, where what the turn dictates says no such
    thing ("Your hire HR-7303 is cancelled at your request." / "..., Liz Ford says." for "her hire
    HR-7303 is cancelled"): a claim of who asked or who vouches, not the user's."""
    said = " ".join(re.findall(r"[\w']+", dictated.casefold()))
    return [
        phrase
        for text in texts
        for m in _ATTRIBUTED.finditer(text)
        if (phrase := " ".join(re.findall(r"[\w']+", m.group(0).casefold())))
        and not re.search(rf"(?<![\w']){re.escape(phrase)}(?![\w'])", said)
    ]


def writers_added(texts: Iterable[str], dictated: str, around: str = "") -> list[str]:
    """The writer a message speaks of where what the turn dictates does not ("My build is green"
    and "Thanks for my review" for "the build", "Could I share the deck?" for "ask Bob to share
    the deck", "We're out Friday" for "I'm out Friday"): who owns, does or is what is said
    changes. Courtesy ("I hope ...", "let me know") is no one's; what the turn dictates with no
    subject ("need 5 min") is the writer's; "our 1:1" beside "I" is one person's. ``around``: the
    turn from the mandate on, whose later clauses are the message's too."""
    own = _writers(dictated, typed=True)
    wanted = _writers(around, typed=True) if around else own
    if not own and _A_PREDICATE_FIRST.match(_A_SAYING_OPENS.sub("", dictated)):
        wanted = {"i", "we"}  # "wfh today": "I'm working from home today"
    said = set().union(*(_writers(t) for t in texts))
    added = said - wanted
    if "we" in added and (not wanted or "i" in said):
        added.discard("we")  # "Thursday works for us", "our 1:1" beside "I can't make it"
    return sorted(added)


#: The reader and the writer as whom a statement is about or for ("your contract", "angry at
#: you", "impressed with me"), and the courtesies that speak to the reader without saying anything
#: of them ("thank you", "see you", "hope you ...", "if you need anything").
_PERSONS_SPOKEN_OF = {
    **dict.fromkeys(("you", "your", "yours", "yourself"), "you"),
    **dict.fromkeys(("me", "us"), "me"),
}
_SPOKEN_TO = re.compile(
    r"(?i)\b(?:thank\s+you|thanks\s+to\s+you|see\s+you|hope\s+you|you(?:'re|\s+are)\s+welcome|"
    r"(?:to|for)\s+your\s+(?:info|information|reference|records?)|if\s+you\s+(?:have|need|want|can)\b|"
    r"(?:when|whenever)\s+you\s+can|with\s+you\s+(?:soon|shortly)|you\s+know|"
    r"(?:inform|let|tell|notify|remind|update|thank)\s+you|your\s+(?:e-?mail|mail|message|note|reply|invite|invitation))\b"
)
#: "for me" / "to us" closing a sentence: courtesy in a request or in what suits ("Could you check it
#: for me?", "Thursday works for us"), whose in a statement ("The spot is free for me").
_FOR_ME_AT_THE_END = re.compile(r"(?i)\b(?:for|to)\s+(?:me|us)(?=\s*[.!,;?]|\s*$)")
_A_REQUEST_OR_WHAT_SUITS = re.compile(
    r"(?i)\?|\b(?:please|pls|can|could|would|will|thanks|thank|let)\b|\b(?:works?|worked|suits?|fine|good|"
    r"ok|okay|great|perfect|bad|better|worse|best|tough|hard|difficult|tricky|early|late|convenient|"
    r"inconvenient|easier|easy|too\s+\w+)\s+(?:for|to)\s+(?:me|us)\b"
)
#: What a dictated text opens with where it is about the reader by its form ("to submit the report":
#: they do it; "for the review": they did it; "about the 1:1", "on the promotion").
_ABOUT_THE_READER = re.compile(r"(?i)^\W*(?:saying\W+|that\W+)?(?:to|for|about|on|of|if|whether)\b")


def spoken_of_added(texts: Iterable[str], dictated: str) -> list[str]:
    """The reader ("you") or the writer as object ("me", "us") a statement says something of where
    what the turn dictates speaks of no one ("Your contract was terminated" and "Priya is angry at
    you" for "the contract was terminated" / "Priya is angry", "The client is impressed with me"):
    whose, and at whom, is what is said. Courtesy to the reader is no one's; a dictated text about
    the reader by its form ("to submit ...", "for the review") or that speaks of anyone is left to
    the other checks."""
    persons = _persons_in(dictated, dictated=True)
    if persons:
        # the writer as object where the turn speaks of others alone ("Priya will call me" for
        # "tell Ana Priya will call her"): whom it is said of changed
        if persons & _THE_WRITERS_FORMS or not any("me" in _persons_in(t) for t in texts):
            return []
        return ["me"]
    about = _ABOUT_THE_READER.match(dictated)
    if about:
        # a request that names whom it goes to ("ask Bob to send the report to Priya"): the writer
        # added as another ("... to me and Priya") redirects it
        asked = re.sub(r"^\s*[\w'’-]+", "", dictated[about.end() :], count=1)  # past "to send"
        named = _TO_WHOM.search(asked) or _SENT_TO.search(dictated[about.end() :])
        if not named or re.search(r"(?i)\b(?:me|us)\b", dictated):
            return []
        return ["me"] if any(_THE_WRITER_AS_OBJECT.search(t) for t in texts) else []
    return sorted(set().union(*(_persons_in(t) for t in texts)))


#: The writer, as a turn may write them ("I", "my", "we", "me", "im").
_THE_WRITERS_FORMS = frozenset({*_WRITERS, "me", "us", *TYPED_AS_I})
#: Whom a request sends or shares something to ("to Priya", "with Priya", "send Priya the ...").
_TO_WHOM = re.compile(r"(?i)\b(?:to|with|cc)\s+(?!the\b|a\b|an\b|me\b|us\b|it\b)[a-z]+")
_SENT_TO = re.compile(
    r"(?i)\b(?:send|forward|give|share|show|email|mail)\s+(?!the\b|a\b|an\b|my\b|our\b|your\b|it\b|this\b|that\b|"
    r"these\b|those\b|them\b|me\b|us\b)[a-z]+\s+(?:the|a|an|my|our|your|this|that|these|those)\b"
)
#: The writer as whom something goes to ("to me", "with me", "and me", "cc me").
_THE_WRITER_AS_OBJECT = re.compile(r"(?i)\b(?:to|with|and|cc|for)\s+(?:me|us)\b")


def _persons_in(text: str, dictated: bool = False) -> set[str]:
    """The reader and the writer-as-object a text speaks of (in what a turn dictates, any person,
    a typed "im" / "ill" or a name's third person counting as someone), not in courtesy."""
    text = "".join(
        _FOR_ME_AT_THE_END.sub(" ", s) if _A_REQUEST_OR_WHAT_SUITS.search(s) else s
        for s in re.split(r"(?<=[.!?\n])", text)
    )
    text = _COURTEOUS_PHRASES.sub(" ", _LINKS_AND_ADDRESSES.sub(" ", text))
    text = _SIGNED.sub(" ", _THE_WRITERS_COURTESY.sub(" ", _SPOKEN_TO.sub(" ", text)))
    text = _POLITE_OPENING.sub(" ", text)
    found: set[str] = set()
    for token in re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", text.casefold()):
        head = re.split(r"['’]", token)[0]
        if head in _PERSONS_SPOKEN_OF:
            found.add(_PERSONS_SPOKEN_OF[head])
        elif dictated and (
            head in _WRITERS or head in _THIRD or head in {"they", "them", "their"} or token in TYPED_AS_I
        ):
            found.add(head)
    return found


#: A word that names a noun's number by what stands before it ("the deck", "my shift").
_A_DETERMINER = r"(?:the|a|an|my|your|our|his|her|their|this|that|each|every|one)"
#: The days, whose plural says "every" ("out Fridays").
_DAY_NAMES = frozenset(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])


def inflected_otherwise(texts: Iterable[str], dictated: str) -> list[str]:
    """The words a message says in another number or tense than what the turn dictates ("the
    decks" for "the deck", "Fridays" for "Friday", "my shifts", "we needed" for "we need"): one
    word, another claim."""
    wanted = dict.fromkeys(w for w in re.findall(r"[a-z]+", dictated.casefold()))
    nouns = {m.group(1) for m in re.finditer(rf"\b{_A_DETERMINER}\s+([a-z]{{3,}})\b", dictated.casefold())}
    nouns |= set(wanted) & _DAY_NAMES
    out: list[str] = []
    for text in texts:
        for word in re.findall(r"[a-z]+", _COURTEOUS_PHRASES.sub(" ", text).casefold()):
            if word in wanted or word in out or len(word) < 3:
                continue
            plural = any(word in (w + "s", w + "es") or w in (word + "s", word + "es") for w in nouns)
            past = any(len(w) > 2 and word in (w + "ed", w + "d") for w in wanted)
            if plural or past:
                out.append(word)
    return out


def swapped_persons(texts: Iterable[str], dictated: str) -> list[str]:
    """The words a message says of the reader that the turn says of the writer, or the other way
    ("you broke the build" for "I broke the build", "you owe me lunch" for "I owe him lunch")."""
    wanted = _who_does(dictated, True)
    said = _who_does(max(texts, key=len, default=""), False)  # the body, not a subject's summary
    return sorted({w for who, w in said if (who, w) not in wanted and any(x == w for _, x in wanted)})


#: A negation of a verb, where it stands in a sentence ("does not work", "doesn't", "never").
_A_VERBS_NEGATION = re.compile(r"(?i)(?<![\w'’])(?:not|never|cannot)(?![\w'’])|\w+n[’']t\b")


#: A greeting by the time of day ("Good morning"), and the times of day it names.
_A_GOOD_DAY = re.compile(r"(?i)\bgood\s+(?:morning|afternoon|evening)\b")
_TIMES_OF_DAY = frozenset({"morning", "afternoon", "evening"})


def _said_in_order(text: str) -> list[str]:
    """A text's content words as :func:`_meaning` reads them, each first where it is first said,
    with its first verb's negation where it stands ("Thursday does not work, Friday does"), never
    courtesy."""
    marked = _A_VERBS_NEGATION.sub(" qqnotqq ", _A_GOOD_DAY.sub(" ", text), count=1)
    # courtesy by the word itself, not by its paraphrase's ("support" reads as "help", and stays);
    # a time of day past a greeting is said ("the morning session is short"), and so is a courtesy
    # someone did ("bob thanked you")
    words = [
        ("<not>" if w == "qqnotqq" else meaning(w))
        for w in content_words(marked)
        if _stem(w) not in _COURTEOUS or w in _TIMES_OF_DAY or w.endswith("ed")  # "bob thanked you"
    ]
    return list(dict.fromkeys(words))


def out_of_order(texts: Iterable[str], dictated: str, shortest: int = 5) -> list[str]:
    """The words a message shares with what the turn dictates, where it says them in another order
    ("you owe Ana" for "Ana owes him", "the rival bid over our offer" for "our offer over the rival
    bid", "I approved the budget. Priya" for "Priya approved the budget"): who does what to whom is
    said by the order; none where each text keeps it. Texts of ``shortest`` words or more: a
    subject sums up ("Audit completed"), a body of three says it ("Priya hired Ana")."""
    wanted = _said_in_order(dictated)
    for text in (t for t in texts if len(t.split()) >= shortest):
        said = _said_in_order(text)
        shared = set(wanted) & set(said)
        if [m for m in said if m in shared] != [m for m in wanted if m in shared]:
            return [m for m in said if m in shared]
    return []


#: Modal verbs that change what a sentence commits to ("must" / "may" / "might" / "could").
_MODALS = frozenset({"must", "may", "might", "could", "should", "shall", "can"})
#: A polite request's modal ("Could you send ...", "Can you ...", "May I ..."): no modality.
_POLITE = re.compile(r"(?i)\b(?:could|can|would|will|may|might)\s+(?:you|i|we)\b")


def _modals(text: str) -> set[str]:
    text = _THE_MONTH_MAY.sub(r"\1maymonth", _POLITE.sub(" ", text.casefold()))
    words = re.findall(r"[a-z]+(?:['’]t)?", text)
    return {re.sub(r"n?['’]t$", "", w).removesuffix("not") for w in words} & _MODALS


def another_modality(texts: Iterable[str], dictated: str) -> list[str]:
    """The modal verbs a message says that what the turn dictates does not ("you may submit" for
    "he must submit", "I might attend" for "I will attend"), a polite request's aside; and those
    of possibility the turn dictates that the message drops ("we cancel" for "we may cancel")."""
    said = set().union(*(_modals(t) for t in texts))
    dictated_modals = _modals(dictated)
    dropped = (dictated_modals & _OF_POSSIBILITY) - said
    return sorted((said - dictated_modals) | dropped)


def bounds_dropped(texts: Iterable[str], dictated: str) -> list[str]:
    """The words the turn dictates that bound what is said, a condition, an alternative, a hedge
    or an attribution ("If needed, cancel my stay", "arrive at 15:00 or 18:00", "I think I will
    cancel", "carl claims the deal is off"), that the message leaves out: it says it as certain."""
    said = {w for t in texts for w in re.findall(r"[a-z]+", t.casefold())}
    told = re.findall(r"[a-z]+", dictated.casefold())
    return [w for w in dict.fromkeys(told) if w in _BOUNDS_WHAT_IS_SAID and w not in said]


#: Words that bound what a sentence says: conditions, alternatives, hedges, attributions.
_BOUNDS_WHAT_IS_SAID = frozenset(
    """
    if unless or once until whether maybe perhaps probably possibly likely unlikely think guess suppose
    hope claims claimed says said reportedly allegedly apparently rumour rumor supposedly
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Modal verbs that make what is said uncertain: a message without them says it as done.
_OF_POSSIBILITY = frozenset({"may", "might", "could", "would", "should"})


#: Words by which a turn asks the message to ask something.
_ASKING = frozenset({"ask", "asking", "asks", "whether", "if", "question", "questions", "wonder", "check"})


def made_a_question(texts: Iterable[str], dictated: str) -> bool:
    """Does a message ask where what the turn dictates states ("is the contract signed?" for "...
    that the contract is signed"; "Is the build green" with no question mark)?"""
    if "?" in dictated or set(re.findall(r"[a-z]+", dictated.casefold())) & _ASKING:
        return False
    return any(asks(t) for t in texts)


#: A sentence that asks by its order, with or without a question mark ("Is the build green",
#: "Am I out Friday", "Did you submit it"), not a polite request ("Could you ...").
_ASKED_BY_ITS_ORDER = re.compile(
    r"(?im)(?:^|(?<=[.!?:,])|(?<=\n))\s*(?:is|are|was|were|am|do|does|did|can|could|will|would|shall|should|"
    r"may|might|must)\s+(?!you\b(?:\s+please)?\s+(?!be\b|have\b)[a-z]+)"
    r"(?:the|a|an|i|we|he|she|it|they|this|that|these|those|my|our|his|her|their|your|you|there|(?-i:[A-Z])\w*)\b"
)


def a_question_answered(texts: Iterable[str], dictated: str, turn: str) -> bool:
    """Does a message state where what the turn dictates asks ("Lunch is at noon." for "post in
    #general: is lunch at noon?", "Bob will review PR 12." for "... who can review PR 12?"): the
    dictated text opens with an asking word and the turn ends it with a question mark (not a
    polite request around it: "Could you tell Ana that lunch is at noon?"), the message asks
    nothing?"""
    texts = list(texts)
    told = re.sub(r"(?i)^[\s:;,\"“'‘]*(?:that\s+)?", "", dictated).strip(" \t\"”'’")
    words = told.split()
    if not texts or not words or words[0].casefold() not in _ASKING_WORDS:
        return False
    asked = re.search(rf"(?i){re.escape(told)}[\"”'’]?\s*\?", turn) is not None
    return asked and not any(asks(t) for t in texts)


#: Words a question opens with ("is lunch at noon?", "who can review PR 12?").
_ASKING_WORDS = frozenset(
    """
    is are was were am do does did can could will would should has have who what when where why how which
    whose
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def asks(text: str) -> bool:
    """Does ``text`` ask something: a question mark, or a sentence in a question's order?"""
    return "?" in text or _ASKED_BY_ITS_ORDER.search(text) is not None


#: The punctuation a message is written with, as a turn is: none of it says anything of its own.
_PLAIN_MARKS = frozenset(".,;:!?'\"’‘“”()-–—/&@#%$€£+…•·*°")  # "*" of bold, a bullet, "20°C"
#: An exclamation mark before a word: a negation in a programmer's notation ("!ready").
_A_BANG_BEFORE_A_WORD = re.compile(r"(?<![\w!])!(?=\w)")
#: What a link, an address or an id is written with: their own marks are no mark of the message's.
_A_LINK_OR_ADDRESS = re.compile(r"\S+://\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b[A-Za-z]+[-_]\d[\w-]*")


def marks_added(texts: Iterable[str], written: Iterable[str]) -> list[str]:
    """The marks the ``texts`` of a message write that none of ``written`` (the turn) writes:
    markup that strikes, hides or joins words ("~~green~~", "||green||", "not_green"), a combining
    mark over a letter ("is̸"), a symbol that bounds or negates ("≤20", "!=", "¬", "!ready"), a
    mention in a chat's own markup ("<!here>"), a question mark of another script ("green？",
    "noon⸮", "ready؟"). Each says something the words do not: a message that adds one says what
    the turn did not. Links, addresses and ids keep their own marks."""
    written = list(written)
    seen = set("".join(_A_LINK_OR_ADDRESS.sub(" ", t) for t in written))
    found: list[str] = []
    for text in texts:
        plain = _A_LINK_OR_ADDRESS.sub(" ", text)
        bang = _A_BANG_BEFORE_A_WORD.search(plain) and not any(
            _A_BANG_BEFORE_A_WORD.search(t) for t in written
        )
        if bang and "!" not in found:  # "The report is !ready"
            found.append("!")
        for char in plain:
            if char.isalnum() and not unicodedata.category(char).startswith("M"):
                continue  # a letter or a figure, of any script
            if char.isspace() or char in _PLAIN_MARKS or char in seen or char in found:
                continue
            found.append(char)
    return found


#: An order joined onto another inside a sentence ("Please keep the pipe and send it to us",
#: "..., then forward it to me"): the verbs of :data:`_AN_ORDER`, after "and" or "then".
_AN_ORDER_JOINED = re.compile(
    r"(?i)(?:\band|&|\bthen|,)[ \t]+(?:also[ \t]+|please[ \t]+|kindly[ \t]+)?" + _ORDER_VERBS
)


def orders_joined(texts: Iterable[str], dictated: str) -> list[str]:
    """The verbs of an order a message joins onto the one the turn dictates, inside its sentence
    ("Please keep the damaged pipe and send it to us" for "Tell Ana to keep the damaged pipe"),
    where the dictation does not write them: an order the user did not give, however courteous
    its verb (followed by what it acts on: "send it", "forward the form")."""
    allowed = {meaning(w) for w in re.findall(r"[a-z]+", dictated.casefold())}
    out: list[str] = []
    for text in texts:
        for m in _AN_ORDER_JOINED.finditer(text):
            verb = m.group(1).casefold()
            if meaning(verb) not in allowed and verb not in out:
                out.append(verb)
    return out


#: A sign-off that names whom the message is from, at its end ("Regards, Colm Reilly", "Best,\nLiam",
#: "— Owen"): the closing words, then a name of one to four capitalised words.
_SIGNED_BY = re.compile(
    r"(?:^|(?<=[.!?\n,;]))[ \t]*(?:(?:[Kk]ind|[Bb]est|[Ww]arm|[Mm]any)[ \t]+)?"
    r"(?:[Rr]egards|REGARDS|[Ww]ishes|[Bb]est|[Cc]heers|[Tt]hanks|[Tt]hank[ \t]+you|[Ss]incerely|"
    r"[Yy]ours(?:[ \t]+(?:sincerely|truly|faithfully))?|"
    r"[Cc]ordially|[Rr]espectfully|[Tt]ake[ \t]+care|—|–|--)[ \t]*[,!.]?[ \t]*\n?[ \t]*"
    r"((?:[A-Z][\w'’.-]*)(?:[ \t]+[A-Z][\w'’.-]*){0,3})[ \t]*[.!]?[ \t]*$"
)


#: A name alone after a message's last sentence, a signature without a closing word ("... is
#: cancelled. Ivan Petrov", "...\nSam Green").
_A_NAME_ALONE_AT_THE_END = re.compile(
    r"(?<=[.!?\n])[ \t]*\n?[ \t]*([A-Z][\w'’.-]*(?:[ \t]+[A-Z][\w'’.-]*){1,3})[ \t]*[.!]?[ \t]*$"
)


#: A sign-off in small letters, a dashed name, or one or two words alone after the last sentence
#: ("thanks, rosa", "- al white", "Sorry! jo", "... received. Sam"): a signature only where its
#: words are of a person's name (see :func:`signed_by`).
_SIGNED_IN_SMALL_LETTERS = (
    re.compile(
        r"(?i)(?:^|(?<=[.!?\n,;]))[ \t]*(?:(?:kind|best|warm|many)[ \t]+)?(?:regards|wishes|best|cheers|"
        r"thanks|thank[ \t]+you|thx|ta|sincerely|yours|take[ \t]+care)[ \t]*[,!.\n][ \t]*"
        r"([a-z][\w'’.-]*(?:[ \t]+[a-z][\w'’.-]*)?)[ \t]*[.!]?[ \t]*$"
    ),
    re.compile(
        r"(?:^|\s)(?:-{1,2}|[–—])[ \t]*([A-Za-z][\w'’.-]*(?:[ \t]+[A-Za-z][\w'’.-]*)?)[ \t]*[.!]?[ \t]*$"
    ),
    re.compile(r"(?<=[.!?\n])[ \t]*([A-Za-z][\w'’.-]*(?:[ \t]+[A-Za-z][\w'’.-]*)?)[ \t]*[.!]?[ \t]*$"),
)


def signed_by(texts: Iterable[str], names: Collection[str] = frozenset()) -> list[str]:
    """The words of the name a message signs with at its end ("Regards, Colm Reilly": colm,
    reilly; "... is cancelled. Ivan Petrov": a name alone after the last sentence), casefolded;
    none where it signs with none. Signed in small letters, after a dash or with a first name
    alone ("thanks, rosa", "- al white", "... received. Sam"), the words of a person's name among
    ``names`` (casefolded words of the people the run's records name)."""
    out: list[str] = []
    for text in texts:
        m = _SIGNED_BY.search(text.rstrip()) or _A_NAME_ALONE_AT_THE_END.search(text.rstrip())
        if m:
            out += [w for w in re.findall(r"[^\W\d_]+", m.group(1).casefold()) if w not in out]
            continue
        for form in _SIGNED_IN_SMALL_LETTERS if names else ():
            m = form.search(text.rstrip())
            words = re.findall(r"[^\W\d_]+", m.group(1).casefold()) if m else []
            if words and all(w in names for w in words):
                out += [w for w in words if w not in out]
                break
    return out


#: What a coordinated thing opens with, joined onto what a message says ("... and the conference
#: ticket invoice", "as well as your payslip").
_A_THING_JOINED = re.compile(
    r"(?i)(?:\band|&|\bplus|\bas[ \t]+well[ \t]+as|\balong[ \t]+with|\btogether[ \t]+with)[ \t]+"
    r"((?:the|a|an|your|his|her|their|my|our|its|this|that|these|those)[ \t]+[^\W\d_][\w'’-]*"
    r"(?:[ \t]+[^\W\d_][\w'’-]*){0,3})"
)


def things_joined(texts: Iterable[str], dictated: str) -> list[str]:
    """The words of a thing a message joins onto what the turn dictates ("Please send the monitor
    invoice and the conference ticket invoice" for "Ask Hannah to send the monitor invoice") that
    the dictation does not write: a second thing asked for, the user's word for one only."""
    held = {meaning(w) for w in content_words(dictated)} | {meaning(w) for w in COURTESY}
    out: list[str] = []
    for text in texts:
        for m in _A_THING_JOINED.finditer(without_pleasantries(text)):
            words = [w for w in content_words(m.group(1)) if meaning(w) not in held]
            out += [w for w in words if w not in out]
    return out


#: Verbs that link a thing to the state it is in ("is", "remains"), and the words that may stand
#: between them and the state ("is now fully", "is still not").
_COPULAS = frozenset(
    {"is", "are", "was", "were", "be", "been", "being", "remains", "remain", "stays", "becomes"}
)
_BEFORE_A_STATE = frozenset(
    {"now", "not", "fully", "already", "just", "also", "still", "all", "currently", "partly", "no", "longer",
     "very", "quite", "so", "too", "officially", "finally", "been", "being", "considered", "deemed", "marked"}
)  # fmt: skip
#: Words after a copula that begin a thing it is, not a state ("is a three-course dinner", "is your
#: deposit"), or a clause of its own.
_A_THING_OR_A_CLAUSE = frozenset(
    {"a", "an", "the", "your", "my", "our", "his", "her", "their", "its", "this", "that", "these", "those",
     "to", "for", "with", "from", "by", "of", "as", "if", "when", "and", "or", "but", "it", "there", "here",
     "we", "you", "he", "she", "they", "i", "what", "how", "why", "who", "which", "where", "one", "some",
     "any"}
)  # fmt: skip
#: Prepositions that make a state of the word after them ("on hold", "in arrears", "under review",
#: "at risk", "past due", "out of stock").
_STATE_PREPOSITIONS = frozenset({"on", "in", "under", "at", "past", "out", "off", "behind", "beyond"})


#: Words after a state that say when it holds ("due on 2026-12-10", "due by 14:00").
_BEFORE_A_WHEN = frozenset({"on", "by", "at", "between", "before", "from", "until"})


def states_after_a_copula(text: str) -> list[str]:
    """The states a text says a thing is in, after a linking verb and the adverbs it may take: a
    word ("is overdue", "is paid and non-refundable": each state joined by "and", "or", "but"), or a
    preposition and its word ("is on hold", "is at risk", "is past due"); not a thing it is ("is a
    three-course dinner"), a figure, a day or a name (weighed as such)."""
    tokens = [m.group(0) for m in re.finditer(r"[^\W_][\w'’-]*|[.;!?,:]", text)]
    found: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i].casefold() not in _COPULAS:
            i += 1
            continue
        i += 1
        while i < len(tokens):
            while i < len(tokens) and tokens[i].casefold() in _BEFORE_A_STATE:
                i += 1
            if i >= len(tokens):
                break
            word = tokens[i]
            low = word.casefold()
            if (
                low in _A_THING_OR_A_CLAUSE
                or not word[0].isalpha()
                or word[0].isupper()
                or low.endswith("ing")
            ):
                break  # (a verb's "-ing" is an act going on, weighed as the message's words)
            if low in _STATE_PREPOSITIONS:
                after = tokens[i + 1] if i + 1 < len(tokens) else ""
                if (
                    not after[:1].isalpha()
                    or after[:1].isupper()
                    or after.casefold() in _A_THING_OR_A_CLAUSE | CALENDAR_NAMES
                ):
                    break  # "is on 15 December", "is on fri", "is in Leeds", "is on the list"
                found.append(f"{low} {after.casefold()}")
                i += 2
            else:
                ahead = tokens[i + 1 : i + 3]
                when = len(ahead) == 2 and ahead[0].casefold() in _BEFORE_A_WHEN and ahead[1][:1].isdigit()
                if not when:  # ("is due on 2026-12-10": when, weighed as a day and a time)
                    found.append(low)
                i += 1
            # another state joined to it ("paid and non-refundable", "unpaid or disputed")
            if i + 1 < len(tokens) and tokens[i].casefold() in ("and", "or", "but", "yet"):
                i += 1
                continue
            break
    return found


#: Words no sentence of a message ends with: an article, a possessive, a preposition or a
#: conjunction that waits for what follows ("Your invoice RI-308 for."), and a linking verb after a
#: noun ("Your move is."; "Here it is." ends whole).
_NO_SENTENCE_ENDS = frozenset(
    {"the", "a", "an", "of", "for", "and", "or", "but", "with", "from", "your", "my", "our", "their", "its"}
)
_LINKING_AT_THE_END = frozenset({"is", "are", "was", "were"})
_BEFORE_A_WHOLE_ENDING = frozenset(
    {
        "it",
        "that",
        "what",
        "this",
        "there",
        "here",
        "who",
        "which",
        "where",
        "he",
        "she",
        "they",
        "we",
        "you",
        "i",
    }
)


def cut_off(text: str) -> list[str]:
    """The last words of each sentence of ``text`` that ends cut off, on a word that waits for what
    follows ("Your move is.": "is"; "Your invoice RI-308 for.": "for"): what the message was to say
    is not all said. A question may end on a preposition ("What is it for?")."""
    found: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
        words = [w.casefold() for w in re.findall(r"[^\W\d_][\w'’-]*|\d[\w.,:/-]*", sentence)]
        if not words or sentence.rstrip().endswith("?"):
            continue
        last = words[-1]
        linking = last in _LINKING_AT_THE_END and len(words) > 2 and words[-2] not in _BEFORE_A_WHOLE_ENDING
        if last in _NO_SENTENCE_ENDS or linking:
            found.append(last)
    return found
