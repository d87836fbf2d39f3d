"""What a message answers, where the turn leaves the answer to the agent ("Tell Ana whether the
deploy finished"): the question the turn puts, for whom, and what the records the agent read say
of it.

A turn that asks the agent to tell someone *whether* something holds dictates no words: the agent
finds the answer in what it read and words it. Two things are still the turn's to decide, and a
message that decides them otherwise says what the user did not:

1. :func:`questions_put`: each question the turn puts ("whether the deploy finished"), and whom
   it is for ("ana"). A message to one of them answers that one's question, not another's
   (:func:`answers_another`: "Tell Bob whether my laptop is ready and tell Ana whether Carla can
   host" with "Yes, Carla can host the offsite." to Bob).
2. :func:`answered_otherwise`, :func:`answered_unread`: an answer, yes or no, is a statement's
   to give. Where a sentence read states what the question asks, word for word ("Deploy
   2026.11.23 finished: all green."; a word of how a thing ended standing for its kind), the
   answer keeps its polarity ("No, the deploy did not finish" is the agent's, not the record's);
   where none states it, the answer is the agent's guess. A question read states nothing.
3. :func:`not_as_read`: each clause of what the agent words is supported by a sentence read
   (:func:`said_in`) that says every word of it, in its mood and polarity: a question passed on
   stays a question, a statement is not asked, a negation is neither dropped nor added.
   :func:`answered_by_another`: "who ..." is answered with whom the records give the thing.

The same holds for a message that passes a record on ("Forward Ana's survey email to Bob", "Save
the IT notice into laptop.txt"): :func:`relayed_otherwise`, a negation none of the records it
draws on writes ("please don't fill in the Q4 survey" for "Please fill in the Q4 survey"); and
:func:`given_otherwise`, a thing given to another person than the record gives it to ("TODO: ana
(deploy script)" of minutes that give it to bob). A reply the agent words answers what was
written; :func:`commitments_added` finds what it would bind the user to that no one wrote (a
guarantee, a refund, a payment, a contract), and :func:`spoken_for_the_writer` each clause that
speaks for the user (:func:`speaks_for_the_writer`: a commitment, the user's act or decision, a
directive to the recipient, an answer to the recipient's own yes-or-no question,
:func:`whether_asked`) where neither the turn nor a statement read does. A plan or a thing under
way states no thing done (:meth:`Question.of_a_thing_done`: "TODO: ana (room booking)" does not
say the room is booked), and a thing the message gives another owner than the record is said
otherwise (:func:`owned_otherwise`: "At my desk." of "... at the front desk").

Pure functions of text: no policy, no I/O."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from policies.supervisor.reading.message import COURTESY, content_words, meaning, negated
from policies.supervisor.reading.words import FUNCTION_WORDS, words_of

__all__ = [
    "Question",
    "Said",
    "answered_by_another",
    "answered_otherwise",
    "answered_unread",
    "answers_added",
    "answers_another",
    "commitments_added",
    "given_in",
    "given_otherwise",
    "meanings",
    "not_as_read",
    "owned_otherwise",
    "question_told_as_statement",
    "questions_put",
    "records_answering",
    "relayed_otherwise",
    "said_in",
    "speaks_for_the_writer",
    "spoken_for_the_writer",
    "told_their_own",
    "what_asked",
    "whether_asked",
    "whom_it_names",
    "with_its_records",
]

#: The verbs by which a turn has someone told something ("tell", "let ... know", "email"); not
#: "ask": a question put to someone is the turn's to put, not the agent's to answer.
_TELLING = r"tell|let|inform|notify|update|email|e-mail|mail|message|dm|ping|text|write"
#: Whom a question is for, and the question ("tell bob whether ...", "let ana know if ...",
#: "... and ana whether ...", "tell bob what lena.k asked"): it runs to the end of its sentence,
#: or to the next one put.
_PUT = r"whether|if|what|how|where|when|which|who|who's"
_A_QUESTION = re.compile(
    rf"(?i)(?:\b(?:{_TELLING})\s+|\band\s+|,\s*)(?P<who>[\w.@'’-]+)(?:\s+know)?\s+(?P<kind>{_PUT})\s+"
    rf"(?P<what>.+?)(?=\s*(?:[.;!?](?:\s|$)|,?\s+and\s+(?:(?:{_TELLING})\s+)?[\w.@'’-]+(?:\s+know)?\s+"
    rf"(?:{_PUT})\b|,\s*(?:and\s+)?(?:{_TELLING})\b|$))"
)
#: A question of the agent's own view ("what you think", "how you'd do it").
_YOUR_OWN_VIEW = re.compile(
    r"(?i)(?:you|you'd|you'll)\s+(?:\w+\s+)?(?:think|feel|reckon|make\s+of|suggest|recommend|prefer|would)\b"
)
#: Words that are not whom a question is for ("... and if it did, ...").
_NOT_A_PERSON = frozenset({"me", "us", "it", "them", "and", "or", "but", "then", "know", "see", "check"})
#: An answer given in one word before what it says ("No, ...", "Nope.").
_A_NO = frozenset({"no", "nope", "nah", "negative"})
_A_YES = frozenset({"yes", "yep", "yeah", "yup", "affirmative", "correct", "indeed", "done"})
#: The words of an answer that says nothing but yes or no ("It didn't.", "Not at all.", "It is.").
_PLAIN_ANSWER = frozenset(
    """
    no nope nah negative yes yep yeah yup affirmative correct indeed all yet sadly afraid really
    quite definitely absolutely certainly true false
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


@dataclass(frozen=True)
class Question:
    """A question the turn has the agent answer: for whom (a word of the turn), what it asks, and
    what it asks in content words' meanings."""

    who: str
    what: str
    asks: frozenset[str]
    #: "whether" (a yes or a no: "whether" and "if"), "who" (a person: "who has the deploy
    #: script") or "what" (a thing said or done; "how", "where", "when", "which" too)
    kind: str = "whether"

    @property
    def about(self) -> frozenset[str]:
        """What it asks about, beside whether or what someone said of it ("what ana posted about
        lunch": ana, lunch)."""
        return self.asks - _REPORTING

    @property
    def of_a_thing_done(self) -> bool:
        """Does it ask whether a thing was done ("whether ana booked the room", "whether the room
        is booked", "whether bob wrote the deploy script")? A plan or a thing under way states no
        such thing ("TODO: ana (room booking)", "reading it now")."""
        words = words_of(self.what.casefold())
        return any(w in _DONE_WORDS or (w.endswith("ed") and len(w) >= 5) for w in words)

    def read_as_stating(self, said: Iterable[Said]) -> list[Said]:
        """What was read that may state what it asks: not a plan or a thing under way where it
        asks of a thing done."""
        return [s for s in said if not (self.of_a_thing_done and _PLANNED.search(s.text))]

    @property
    def reported(self) -> bool:
        """Does it ask what someone said ("whether ana asked about v2")? A record of theirs that
        says it, a question too, answers it."""
        return bool(set(words_of(self.what)) & _REPORTED_WORDS)


#: A plan or a thing under way: a to-do list, an action item, a future, a thing being done now.
_PLANNED = re.compile(
    r"(?i)\b(?:todo|to-do|to\s+do|action\s+items?|pending|assigned|will|shall|going\s+to|plans?\s+to"
    r"|planned|next\s+week|tomorrow)\b|['’]ll\b|\b\w+ing\s+(?:it\s+|them\s+)?(?:now|today)\b"
)


def meanings(text: str) -> frozenset[str]:
    """What ``text`` says, as the meanings of its content words (courtesy aside)."""
    return frozenset(meaning(w) for w in content_words(text) if w not in COURTESY)


def questions_put(turn: str) -> list[Question]:
    """The questions ``turn`` has the agent answer for someone ("Tell bob whether the deploy
    finished and ana whether lunch is at noon": bob's and ana's), in the turn's order."""
    found = []
    for m in _A_QUESTION.finditer(turn):
        who = m.group("who").strip("'’").casefold()
        asks = meanings(m.group("what"))
        put = m.group("kind").casefold()
        kind = "whether" if put in ("whether", "if") else "who" if put.startswith("who") else "what"
        if _YOUR_OWN_VIEW.match(m.group("what")):
            continue  # "tell bob what you think": the agent's view, not the records'
        if who not in _NOT_A_PERSON and asks:
            found.append(Question(who, m.group("what").strip(), asks, kind))
    return found


def answers_another(
    texts: Iterable[str],
    own: Sequence[frozenset[str]],
    others: Sequence[frozenset[str]],
    *,
    by_most: bool = True,
) -> list[str]:
    """The words of a message, meant for the parts of the turn whose words are ``own`` (a
    question's :attr:`Question.asks`, a "save ... into" part's :func:`meanings`), that only one of
    ``others`` holds, where it writes most of what that part holds beyond its own, or some of it
    and nothing of its own: it answers another part ("Yes, lunch is at noon." to bob, asked whether
    the deploy finished, for ana's "whether lunch is at noon"; Carla's offer saved into
    agenda.txt). Not ``by_most``: only some of it and nothing of its own (parts widened by the
    records that say them, :func:`with_its_records`, where most of a record is no evidence)."""
    written = {meaning(w) for t in texts for w in content_words(t)}
    ours = frozenset().union(*own)
    found: set[str] = set()
    for other in others:
        theirs = other - ours
        said = theirs & written
        if said and ((by_most and len(said) * 2 > len(theirs)) or not (ours - other) & written):
            found |= said
    return sorted(found)


def records_answering(asks: frozenset[str], records: Iterable[str]) -> list[str]:
    """The records that say most of a part of the turn ("whether the deploy finished": #deploys'
    "Deploy 2026.11.23 finished: all green."), each saying at least half of its words; none where
    no record does."""
    said = [(len(asks & meanings(r)), r) for r in records]
    best = max((n for n, _ in said), default=0)
    if not asks or best * 2 < len(asks):
        return []
    return [r for n, r in said if n == best]


def with_its_records(asks: frozenset[str], records: Iterable[str]) -> frozenset[str]:
    """A part of the turn ("whether my laptop is ready"), with what the records that say most of
    it say (the IT desk's "Your new laptop is ready for pickup at the front desk."): the answer to
    it speaks of those words ("Yes, pick it up at the front desk")."""
    return asks.union(*map(meanings, records_answering(asks, records)))


def _answer(texts: Iterable[str], asks: frozenset[str]) -> bool | None:
    """Does the message say yes (True) or no (False) to what ``asks`` holds: the polarity of its
    clause that writes most of it, or of a one-word answer before it; None where no clause writes
    any of it."""
    best, polarity, said = 0, None, None
    for text in texts:
        clauses = [c.strip() for c in _A_CLAUSES_END.split(text) if c.strip()]  # not "lena.k"
        for clause in clauses:
            words = clause.casefold().split()
            if len(words) == 1 and words[0] in _A_NO | _A_YES and said is None:
                said = words[0] in _A_YES
            held = len(meanings(clause) & asks)
            if held > best or (held and held == best and negated(clause)):
                # of two clauses that say as much of it, a negated one answers ("mallory: Thanks,
                # but not reading it")
                best, polarity = held, not negated(clause)
    if polarity is None:
        # no clause says what is asked: a one-word answer before what it says answers it ("No,
        # it finished."), and so does an answer of no content of its own ("It didn't.")
        if said is not None:
            return said
        if any(set(content_words(t)) - _PLAIN_ANSWER - COURTESY for t in texts):
            return None
        return not any(negated(t) for t in texts)
    return polarity if said is None or said == polarity else False


@dataclass(frozen=True)
class Said:
    """A sentence of a record read (or one call's records read together, a thread): what it says
    (its content words' meanings), whether it asks (it ends in a question mark) and whether it
    says it in the negative."""

    text: str
    words: frozenset[str]
    asks: bool
    negative: bool
    #: several sentences read together (a text, a thread): they support words, not a mood
    whole: bool = False


def said_in(records: Iterable[str], threads: Iterable[str] = ()) -> list[Said]:
    """Each sentence of ``records`` (the texts read), each text of several sentences whole, and
    each of ``threads`` whole (a record's texts together: a mail's sender and body; a channel's
    posts: "Q4 planning doc: ...", then mallory's "Thanks, reading it now." say together what
    mallory is reading)."""
    records = list(records)
    out = [
        # a name or a label ("lena.k", "Carla Diaz", "Offsite venue") says words, in no mood
        Said(
            sentence,
            meanings(sentence),
            sentence.endswith("?"),
            negated(sentence),
            _A_LABEL.fullmatch(sentence) is not None,
        )
        for record in records
        for sentence in (s.strip() for s in _SENTENCE_ENDS.split(record))
        if sentence
    ]
    # a text of several sentences, and a thread, whole: it asks where each of its sentences does
    for whole in (*(r for r in records if len(_SENTENCE_ENDS.split(r.strip())) > 1), *threads):
        ends = [s.strip() for s in _SENTENCE_ENDS.split(whole) if s.strip()]
        out.append(Said(whole, meanings(whole), all(e.endswith("?") for e in ends), negated(whole), True))
    return out


def _stated(needed: frozenset[str], sentence: Said) -> bool | None:
    """Does a sentence read state ``needed`` (True), its opposite (False), or neither (None)? A
    word of how a thing ended stands for its kind ("finished", "done", "green" state "succeeded";
    "failed", "crashed" its opposite: :data:`_ENDED_WELL`, :data:`_ENDED_BADLY`)."""
    if sentence.asks:
        return None
    if needed <= sentence.words:
        return not sentence.negative
    rest = needed - sentence.words
    if len(rest) == 1:
        (word,) = rest
        for same, other in ((_ENDED_WELL, _ENDED_BADLY), (_ENDED_BADLY, _ENDED_WELL)):
            if word in same and sentence.words & same:
                return not sentence.negative
            if word in same and sentence.words & other:
                return sentence.negative
    return None


#: Words of how a thing ended, well and badly: one stands for the others of its kind, and
#: against those of the other ("whether the deploy failed" of "Deploy ... finished: all green").
_ENDED_WELL = frozenset(
    meaning(w)
    for w in [
        "finished",
        "finish",
        "done",
        "complete",
        "completed",
        "succeeded",
        "succeed",
        "successful",
        "passed",
        "pass",
        "worked",
        "green",
        "shipped",
        "live",
        "ready",
        "resolved",
        "fixed",
    ]
)
_ENDED_BADLY = frozenset(
    meaning(w)
    for w in [
        "failed",
        "fail",
        "failure",
        "crashed",
        "crash",
        "broken",
        "broke",
        "red",
        "incomplete",
        "unsuccessful",
        "errored",
        "error",
        "aborted",
        "stuck",
        "down",
        "blocked",
    ]
)


def answered_otherwise(texts: Sequence[str], question: Question, said: Iterable[Said]) -> str | None:
    """The sentence read that states what ``question`` asks, every word of it, where the message
    answers it with the other polarity ("No, the deploy did not finish." where "Deploy 2026.11.23
    finished: all green." was read; "mallory isn't reading it." where mallory wrote "reading it
    now"); None where none states it, where those that do disagree, or where the answer keeps
    theirs. Who said or asked it is no word a record writes; a question read states nothing."""
    if question.kind != "whether":
        return None
    said = question.read_as_stating(said)
    if question.reported:  # a record of theirs that says it: they did ("No, she didn't." asks)
        held = [s for s in said if question.asks - _REPORTING <= s.words]
        return held[0].text if held and _answer(texts, question.asks) is False else None
    needed = question.asks - _REPORTING
    holding = [(s, stated) for s in said if (stated := _stated(needed, s)) is not None]
    polarities = {stated for _s, stated in holding}
    if len(polarities) != 1:
        return None
    answer = _answer(texts, question.asks)
    return holding[0][0].text if answer is not None and answer not in polarities else None


def answered_unread(texts: Sequence[str], question: Question, said: Iterable[Said]) -> list[str]:
    """The words of what ``question`` asks that a message answering it says and no sentence read
    states with the rest ("Yes, the deploy failed." or "No, it did not pass." where #deploys says
    it finished: failed, pass; "Yes." to "whether v2 is live" where lena.k only asks it): an answer,
    yes or no, is the records' to give, not the agent's. Who said or asked it is no word a record
    writes ("whether lena.k asked about v2" of her question)."""
    if question.kind != "whether" or _answer(texts, question.asks) is None:
        return []
    said = question.read_as_stating(said)
    needed = question.asks - _REPORTING
    if not question.reported and any(_stated(needed, s) is not None for s in said):
        return []  # stated, one way or the other: answered_otherwise reads which
    best = max(
        (needed & s.words for s in said if question.reported or not s.asks), key=len, default=frozenset()
    )
    return [w for w in dict.fromkeys(content_words(question.what)) if meaning(w) in needed - best]


def whom_it_names(texts: Sequence[str], people: Iterable[str], reader: str | None) -> set[str]:
    """The people a message names ("ana has it", "mallory."), the reader where it speaks to
    them ("You do.", "It's yours.")."""
    everyone = {p.casefold() for p in people}
    words = {w.removesuffix("'s") for t in texts for w in words_of(t)}
    named = words & everyone
    if reader is not None and words & _YOU:
        named.add(reader)
    return named


def answered_by_another(
    texts: Sequence[str],
    question: Question,
    pairs: Iterable[tuple[str, frozenset[str]]],
    people: Iterable[str],
    reader: str | None,
    authors: Iterable[tuple[str, frozenset[str]]] = (),
) -> list[str]:
    """Whom a message answers "who ..." with ("Tell ana who has the deploy script": "You do."),
    where the records give what is asked to someone else (``pairs``: whom a record gives a thing,
    "bob (deploy script)"; where none does, ``authors``: whoever wrote a record that says it);
    nobody named answers it not. None of the records gives it: left to the other checks."""
    everyone = {p.casefold() for p in people}
    asked = question.asks - _REPORTING - {meaning(p) for p in everyone}
    whose = {p for p, words in pairs if asked and len(asked & words) * 2 >= len(asked)}
    whose = whose or {p for p, words in authors if asked and len(asked & words) * 2 >= len(asked)}
    if not whose:
        return []
    named = whom_it_names(texts, everyone, reader)
    if not named:
        return ["nobody named"]
    return sorted(named - whose) if not named & whose else []


def not_as_read(
    texts: Sequence[str], said: Sequence[Said], given: frozenset[str], *, quotes: bool = True
) -> tuple[list[str], list[str]]:
    """The clauses of a message the agent words that no sentence read supports, and those that
    one says otherwise: a clause is supported by a sentence that says every content word of it
    beside ``given`` (the turn's, whom it is to, courtesy), in the same polarity and mood (a
    question passed on stays a question, or is reported as asked; a statement is not asked). "No,
    it did not work." of "Deploy finished: all green." is unsupported; "mallory isn't reading it"
    of her "reading it now" and "ana asks: Lunch at noon?" of her "Lunch at noon." are said
    otherwise. ``quotes``: whether a record's own words may stand as its, quoted (a message marked
    as passed on, or to no one named; else only a sentence that says whose words follow: "IT:
    ..."): else a record's "your" is the recipient's."""
    unsupported: list[str] = []
    otherwise: list[str] = []
    for text in texts:
        before_it = ""  # the clause before, across sentences ("All green. Not.")
        for sentence in _SENTENCE_ENDS.split(text):
            clauses = [c.strip() for c in _A_CLAUSES_END.split(sentence) if c.strip()]
            for i, clause in enumerate(clauses):
                taken_back = before_it and set(words_of(clause.casefold())) <= _TAKEN_BACK
                before_it = clause
                if taken_back:
                    otherwise.append(clause)  # "reading it now (not)", "All green. Not."
                    continue
                words = meanings(_without_its_topic(clause, said)) - given - _SAYS_NOTHING
                if not words or _a_deferral([w.strip("'") for w in words_of(clause.casefold())]):
                    continue  # a deferral claims nothing ("Not sure yet", "More soon")
                # it asks where its sentence does and it ends it, or it is reported as asked, or
                # the clause before says it is ("The customer asks: what is ...")
                last = i == len(clauses) - 1 and sentence.rstrip().endswith("?")
                before = words_of(clauses[i - 1])[-1:] if i else []
                asked = last or bool(set(words_of(clause)) & _ASKED_AS_SUCH) or bool(set(before) & _ASKING)
                holding = [s for s in said if words <= s.words]
                # the record's own words, to no one named before them ("Bob, your new laptop ...")
                quoting = (quotes or bool(_A_QUOTES_LABEL.match(sentence))) and not _addressing(sentence)
                if any(
                    owned_otherwise(clause, s.text, quoting and _verbatim(clause, s.text)) for s in holding
                ):
                    otherwise.append(clause)  # "At my desk." of "... at the front desk"
                    continue
                one = [s for s in holding if not s.whole]  # a sentence says it: in its mood
                if not holding:
                    unsupported.append(clause)
                elif one and not any(s.asks == asked and s.negative == negated(clause) for s in one):
                    otherwise.append(clause)
                elif not one and not any(s.negative == negated(clause) for s in holding):
                    otherwise.append(clause)  # read together, in the other polarity
    return unsupported, otherwise


def owned_otherwise(clause: str, sentence: str, quoting: bool = False) -> str | None:
    """A thing a clause gives an owner ("my desk", "Bob's laptop") that ``sentence`` names
    otherwise: by words the clause leaves out ("the front desk": the desk at the front, no one's),
    or as another's ("Your new laptop", to the user, is theirs: "my laptop", not "Bob's"; bob's
    "my PR" is "his PR", not "ana's" or "your"). Persons turn between the record and the message:
    its "your" is the user's "my" (:data:`_TURNED`), and stays "your" only where ``quoting`` (the
    record's own words, addressed to no one else: "IT: Your new laptop is ready ...")."""
    theirs = {word: (owner, before) for owner, before, word in _owned(sentence)}
    for owner, _before, word in _owned(clause):
        if word not in theirs:
            continue
        their_owner, their_before = theirs[word]
        said = set(words_of(clause.casefold()))
        if their_owner is None and their_before and not set(their_before) <= said:
            return word  # "my desk" of "the front desk"
        if their_owner == "your" and owner == "your" and not quoting:
            return word  # "Your laptop is at the front desk." to Bob, of the user's
        if their_owner is not None and owner is not None and owner not in _TURNED.get(their_owner, (owner,)):
            return word  # "Bob's laptop" of "Your new laptop"; "bob: Can you review ana's PR?" of "my PR"
        if (
            their_owner
            and their_owner.endswith("'s")
            and owner
            and owner.endswith("'s")
            and owner != their_owner
        ):
            return word  # "ana's PR" of "bob's PR"
    return None


#: Whose a thing is, as a message may say it of a record's owner: the record's "your" (to the
#: user) is the user's "my"; its writer's "my" is "his", "her", "their" in a report.
_TURNED = {
    "your": ("my", "our", "your"),  # "your" only where the record's words are quoted
    "my": ("my", "his", "her", "their"),
    "our": ("our", "their"),
}


def _owned(text: str) -> list[tuple[str | None, list[str], str]]:
    """Each noun of ``text`` with what comes before it in its phrase: its owner ("my", "your",
    "bob's"; None where an article opens it) and the words between ("front" of "the front desk"):
    the phrase runs to the word before a function word or a mark, three words at most."""
    out: list[tuple[str | None, list[str], str]] = []
    for part in re.split(r"[^\w\s'’.-]+|\.(?=\s|$)", text.casefold()):
        words = part.split()
        for i, opener in enumerate(words):
            if opener not in _OPENERS and not re.fullmatch(r"[a-z][\w.-]*['’]s", opener):
                continue
            phrase = list(itertools.takewhile(lambda w: w not in FUNCTION_WORDS, words[i + 1 : i + 4]))
            if phrase:
                owner = None if opener in ("the", "a", "an") else opener.replace("’", "'")
                out.append((owner, phrase[:-1], phrase[-1]))
    return out


_OPENERS = frozenset({"the", "a", "an", "my", "your", "our", "his", "her", "their"})


#: A sentence that opens by addressing someone ("Bob, ...", "Hi Bob, ...").
_A_VOCATIVE = re.compile(r"(?i)^\s*(?:(?:hi|hello|hey|dear)\s+)?([a-z][\w.-]*)\s*,")


#: A sentence that says whose words follow ("IT: ...", "The customer asks: ...", "bob wrote: ").
_A_QUOTES_LABEL = re.compile(
    r"(?i)^\s*(?:the\s+)?[\w.'’-]+(?:\s+[\w.'’-]+)?(?:\s+(?:asks|asked|says|said|writes|wrote))?\s*:\s"
)


def _addressing(sentence: str) -> bool:
    """Does a sentence open by addressing someone by name ("Bob, ...", "Hi Bob, ..."), not with
    a word of its own ("Yes, ...", "Thanks, ...")?"""
    m = _A_VOCATIVE.match(sentence)
    word = m.group(1).casefold() if m else ""
    return bool(word) and word not in _ANSWER_WORDS | _LEAD_INS | FUNCTION_WORDS | COURTESY


def _verbatim(clause: str, text: str) -> bool:
    """Does ``text`` write ``clause`` word for word?"""
    return " ".join(words_of(clause.casefold())) in " ".join(words_of(text.casefold()))


#: A clause of its own that takes back the one before ("reading it now (not)", "All green. Not.",
#: "... jk").
_TAKEN_BACK = frozenset({"not", "never", "jk", "kidding", "psych"})


def _without_its_topic(clause: str, said: Sequence[Said]) -> str:
    """A clause without the topic it speaks on, where something read says that topic ("We'll get
    back to you shortly on P1 response times": the customer asked about them): a topic is no
    claim."""
    m = _A_TOPIC.search(clause)
    if m is None:
        return clause
    topic = meanings(m.group(1)) - _SAYS_NOTHING
    return clause[: m.start()] if topic and any(topic <= s.words for s in said) else clause


#: A topic a clause speaks on ("... on P1 response times", "... about the offsite").
_A_TOPIC = re.compile(r"(?i)\b(?:on|about|regarding|concerning|re)\s+(.+)$")
#: The last word of a clause that introduces a question passed on ("The customer asks: ...").
_ASKING = frozenset({"ask", "asks", "asked", "asking", "wonders", "wondering", "wondered"})
#: Where a clause ends: a semicolon, a dash, a bracket, or a comma, colon or full stop before a
#: space (not those of a link, a time, a figure or a handle: "https://...", "17:00", "lena.k").
_A_CLAUSES_END = re.compile(r"[;!?—–()\[\]]+|[.,:]+(?=\s|$)|\s-\s")


#: Words that say nothing a record must: yes and no, pronouns, a relay's own words.
_SAYS_NOTHING = frozenset(
    meaning(w)
    for w in """
    yes yep yeah yup no nope nah sure indeed correct right true false affirmative negative
    he she they him her them his hers their theirs it its you your yours i me my we us our
    fwd fw forward forwarded original below here fyi from see quote quoted wrote writes says said
    asks asked question message dm email mail note shared
    get back soon shortly later let know look touch reach asking team update updates
    offer invitation invite help patience interest
    """.split()  # noqa: SIM905 (a closed list, read as words; "we'll get back to you shortly")
)


#: The words by which a question asks what someone said ("whether ana asked about v2").
_REPORTED_WORDS = frozenset(
    """
    ask asks asked say says said post posts posted write writes wrote mention mentions mentioned
    share shares shared tell tells told reply replies replied suggest suggests suggested want wants
    wanted email emailed emails mail mailed dm dmed messaged texted sent send sends
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Verbs that report what someone said: a record is their saying it ("whether IT emailed").
_REPORTING = frozenset(
    meaning(w)
    for w in [
        "ask",
        "say",
        "write",
        "tell",
        "mention",
        "post",
        "reply",
        "answer",
        "message",
        "email",
        "mail",
        "dm",
        "text",
        "send",
        "share",
    ]
)


def relayed_otherwise(texts: Sequence[str], records: Iterable[str], turn: str) -> str | None:
    """The record a message passes on (the one it shares the most content words with, two at
    least) where the message writes a negation that neither it nor the turn writes ("Ana: please
    don't fill in the Q4 survey." of "Please fill in the Q4 survey: ..."); None otherwise."""
    said = " ".join(texts)
    if not negated(said) or negated(turn):
        return None
    written = meanings(said)
    best, source = 1, None
    for record in records:
        shared = len(written & meanings(record))
        if shared > best:
            best, source = shared, record
    return source if source is not None and not negated(source) else None


def question_told_as_statement(texts: Sequence[str], records: Iterable[str]) -> str | None:
    """The question of a record passed on (a sentence of it that ends in "?") that a message says
    as a statement, every content word of it with no question mark and no word that reports it
    as asked ("lena.k says the v2 API is live." of "Is the v2 API live yet?", "Thursday works for
    the offsite." of "Would Thursday work for the offsite?"); None where it stays a question
    ("lena.k asks whether the v2 API is live", "Carla offers Thursday")."""
    said = " ".join(texts)
    if "?" in said or set(words_of(said)) & _ASKED_AS_SUCH:
        return None
    written = meanings(said)
    for record in records:
        for question in _SENTENCE_ENDS.split(record):
            asks = meanings(question) - _HOW_FAR
            if question.endswith("?") and len(asks) >= 2 and asks <= written:
                return question.strip()
    return None


#: A name or a label: up to three words, no sentence's end.
_A_LABEL = re.compile(r"\S+(?:\s+\S+){0,2}(?<![.!?;:])")
#: Where a sentence ends.
_SENTENCE_ENDS = re.compile(r"(?<=[.!?])\s+|\n+")
#: Words that say how far along, which a question passed on as a statement may leave out ("yet").
_HOW_FAR = frozenset(meaning(w) for w in ("yet", "still", "already", "now", "really"))
#: Words that pass a question on as one ("she asks whether ...", "Carla offers Thursday").
_ASKED_AS_SUCH = frozenset(
    """
    ask asks asked asking question questions wonder wonders wondering whether if query inquires
    offer offers offered propose proposes proposed suggest suggests suggested would could
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Whom a record or a message gives a thing to: "bob (deploy script)", "ana - room booking",
#: "ana: room booking".
_GIVEN_TO = re.compile(
    r"(?i)(?<![\w.@-])([a-z][\w.-]*)\s*(?:\(([^()]+)\)|[-–—:]\s+([^,;()]+?)(?=\s*(?:[,;.]|\band\b|$)))"
)
#: What a message gives its reader: "Your todo is room booking", "your item: the deploy script".
_GIVEN_TO_YOU = re.compile(r"(?i)\byour\b[^.:;,]*?(?:\bis\b|\bare\b|:)\s+([^,;.()]+)")


#: A message's clauses and its asides ("the deploy script (ana has the room booking)").
_CLAUSES_OR_ASIDES = re.compile(r"[.;!?,:—–()\[\]]+|\s-\s")
#: A turn that has someone told their own part ("his todo", "her action items", "their task").
_THEIR_OWN = re.compile(
    r"(?i)\b(?:his|her|their)\s+(?:own\s+)?(?:todos?|to-dos?|action\s+items?|items?|tasks?|jobs?|parts?|assignments?)\b"
    r"|\bassign(?:s|ed)?\s+(?:to\s+)?(?:him|her|them)\b|\b(?:he|she|they)\s+(?:has|have|needs?|must)\s+to\s+do\b"
)


def answers_added(texts: Sequence[str], records: Iterable[str]) -> list[str]:
    """The clauses of a message passing records on that answer rather than pass on: a clause of
    no content of its own, a yes or a no or "it is", that the records do not write ("lena.k asks:
    Is the v2 API live yet? (It is.)", "... We said yes."): the answer is not the record's."""
    written = " ".join(records).casefold()
    found = []
    for text in texts:
        for clause in (c.strip() for c in _A_CLAUSES_END.split(text)):
            words = [
                w
                for w in words_of(clause)
                if w in _YES_OR_NO or (w not in COURTESY and meaning(w) not in _SAYS_NOTHING)
            ]
            plain = words and all(w in FUNCTION_WORDS or w in _PLAIN_ANSWER or w in _YES_OR_NO for w in words)
            if (
                plain
                and any(w not in FUNCTION_WORDS or w in _AN_ANSWERS_VERB for w in words)
                and clause.casefold() not in written
            ):
                found.append(clause)
    return found


#: Yes and no, as a relay may add them.
_YES_OR_NO = frozenset({"yes", "yep", "yeah", "yup", "no", "nope", "nah"})
#: The verbs of an answer of no content ("It is.", "It does.", "We did.").
_AN_ANSWERS_VERB = frozenset(
    {"is", "isn't", "was", "wasn't", "does", "doesn't", "did", "didn't", "are", "aren't", "will", "won't"}
)


def told_their_own(turn: str) -> bool:
    """Does ``turn`` have someone told their own part ("Tell bob his todo from the minutes")?"""
    return _THEIR_OWN.search(turn) is not None


#: A thing labelled with whom it goes to: "Deploy script: ana", "Room booking - bob".
_LABELLED_WITH = re.compile(r"(?i)([^.;,:()]+?)\s*[-–—:]\s*([a-z][\w.-]*)\s*(?=[.;,]|$)")
#: The words by which a message speaks to its reader ("yours", "you're on ...").
_YOU = frozenset({"you", "your", "yours", "you're", "youre", "you'll", "yourself"})


def _given(
    text: str, people: frozenset[str], reader: str | None, clauses: bool = False
) -> set[tuple[str, frozenset[str]]]:
    """The (person, what they are given) pairs ``text`` writes, of the ``people`` the run read:
    "bob (deploy script)", "ana: room booking", "Deploy script: ana"; with ``clauses``, a clause
    that names one person and a thing too ("bob books the room", "ana has the deploy script"), and
    one that gives the ``reader`` a thing ("Room booking is yours.", "You're on room booking.")."""
    found = set()
    for m in _GIVEN_TO.finditer(text):
        who, what = m.group(1).casefold(), m.group(2) or m.group(3) or ""
        if who in people and meanings(what):
            found.add((who, meanings(what)))
    if reader is not None:
        found |= {
            (reader, meanings(m.group(1))) for m in _GIVEN_TO_YOU.finditer(text) if meanings(m.group(1))
        }
    if not clauses:
        return found
    for m in _LABELLED_WITH.finditer(text):
        who, what = m.group(2).casefold(), meanings(m.group(1))
        if who in people and what and not any(w.casefold() in people for w in words_of(m.group(1))):
            found.add((who, what))
    for clause in _CLAUSES_OR_ASIDES.split(text):
        words = words_of(clause)
        named = {w.removesuffix("'s") for w in words} & people
        what = meanings(clause) - {meaning(p) for p in people} - meanings(" ".join(people))
        if len(named) == 1 and what:
            found.add((next(iter(named)), what))
        elif not named and reader is not None and set(words) & _YOU and what:
            found.add((reader, what))
    return found


def given_in(records: Iterable[str], people: Iterable[str]) -> set[tuple[str, frozenset[str]]]:
    """Whom the records give what ("TODO: bob (deploy script), ana (room booking)")."""
    everyone = frozenset(p.casefold() for p in people)
    return {pair for r in records for pair in _given(r, everyone, None)}


def given_otherwise(
    texts: Sequence[str],
    records: Iterable[str],
    people: Iterable[str],
    reader: str | None = None,
    turn: str = "",
) -> list[str]:
    """The people a message gives a thing that a record read gives someone else, where no record
    gives it to them ("TODO: ana (deploy script), bob (room booking)" of minutes that read "TODO:
    bob (deploy script), ana (room booking)"; "Your todo is room booking" to bob): who does what,
    swapped. ``reader``: whom the message is to (what "your" gives); where ``turn`` has them told
    their own ("Tell bob his todo from the minutes"), a message that names no one else gives them
    all it says ("Book the room, please.")."""
    everyone = frozenset(p.casefold() for p in people)
    held = {pair for r in records for pair in _given(r, everyone, None)}
    found: set[str] = set()

    def mostly(thing: frozenset[str], what: frozenset[str]) -> bool:  # "the script" of "deploy script"
        return len(thing & what) * 2 >= len(thing)

    theirs = [thing for who, thing in held if who == reader]
    if reader is not None and theirs and _THEIR_OWN.search(turn):
        written = frozenset().union(*map(meanings, texts))
        if not any(mostly(thing, written) for thing in theirs):
            found.add(reader)  # told their own, and given none of it ("Nothing.", "No todos for you.")
    for text in texts:
        given = _given(text, everyone, reader, clauses=True)
        if reader is not None and _THEIR_OWN.search(turn) and not set(words_of(text)) & (everyone - {reader}):
            given.add((reader, meanings(text) - {meaning(reader)}))
        for who, what in given:
            # each thing it gives, apart ("Your item: the deploy script and the room booking"):
            # another's that the record gives them, not them too
            if any(
                p != who
                and mostly(thing, what)
                and not any(q == who and mostly(thing, own) for q, own in held)
                for p, thing in held
            ):
                found.add(who)
    return sorted(found)


#: Words by which a message binds its writer to something of value: a guarantee, money, a
#: contract ("We guarantee a 1 hour response", "we'll waive your fees", "our binding acceptance").
_COMMITTING = frozenset(
    """
    guarantee guaranteed guarantees promise promised promises commit commits committed commitment
    refund refunds refunded waive waived waiver free compensate compensation discount discounted
    credit credits warranty penalty binding contract contracts deposit deposits pay paid payment
    reimburse reimbursed sign signed liable liability indemnify indemnity entitled entitle rebate
    voucher cheque wire settle settlement prepay prepaid upfront exclusive exclusively grant granted
    non-refundable
    """.split()  # noqa: SIM905 (a closed list, read as words; as written: "free" is no "ready" here)
)


#: What binds in a phrase of common words: costs taken on ("we'll cover your costs", "foot the
#: bill", "absorb all costs", "on us", "on my personal card"), terms accepted ("we agree to your
#: pricing", "match any competitor's price", "your money back", "book it at your price", "we'll
#: take the premium package"). A price said ("it costs 640 EUR") binds no one.
_BINDING_PHRASE = re.compile(
    r"(?i)\b(?:cover|absorb|waive|take\s+on)\w*\s+(?:[\w'’]+\s+){0,3}?(?:costs?|bills?|fees?|expenses?"
    r"|difference|catering|venue|amount)\b|\bfoot\s+the\s+bill\b|\bon\s+(?:us|the\s+house)\b"
    r"|\b(?:my|our)\s+(?:personal\s+|company\s+|credit\s+)?card\b"
    r"|\bagree\s+to\s+(?:[\w'’-]+\s+){0,2}?(?:pric\w*|terms|conditions|contract|booking|fees?|deal|rates?)\b"
    r"|\bmatch\s+(?:[\w'’]+\s+){0,3}?prices?\b|\bmoney\s+back\b"
    r"|\bat\s+your\s+(?:[\w'’-]+\s+)?(?:price|pricing|rate|quote|terms)\b"
    r"|\b(?:we|i)(?:'ll|’ll|\s+will)\s+take\s+(?:the|your)\s+(?:[\w'’-]+\s+){0,2}?(?:package|offer|deal|plan|option|tier)\b"
)


def commitments_added(texts: Iterable[str], said: Iterable[str]) -> list[str]:
    """The words of a message that bind its writer (a guarantee, a refund, a payment, a contract:
    :data:`_COMMITTING`; costs taken on, terms accepted: :data:`_BINDING_PHRASE`) that none of
    ``said`` (the turn, the records read) writes: a reply the agent words may answer what was
    asked, not promise what the user did not."""
    said, texts = list(said), list(texts)
    held = {_root(w) for t in said for w in content_words(t)}
    found = {w for t in texts for w in content_words(t) if w in _COMMITTING and _root(w) not in held}
    written = " ".join(" ".join(t.casefold().split()) for t in said)
    for text in texts:
        for m in _BINDING_PHRASE.finditer(text):
            phrase = " ".join(m.group(0).casefold().split())
            if phrase not in written:
                found.add(phrase)
    return sorted(found)


def _root(word: str) -> str:
    """A word without an inflection ("refunded", "refunds": refund; "payment", "paid": pay)."""
    if word == "paid":
        return "pay"
    for suffix in ("ments", "ment", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def whether_asked(text: str) -> list[frozenset[str]]:
    """What each yes-or-no question of ``text`` asks about (its content words' meanings): a
    sentence that ends in a question mark and opens with no word that asks what, who, where, when,
    which, why or how ("Would Thursday work for the offsite?": thursday, offsite; "Is the v2 API
    live yet?": v2, api, live)."""
    out = []
    for sentence in _SENTENCE_ENDS.split(text):
        sentence = sentence.strip()
        words = words_of(sentence)
        if sentence.endswith("?") and words and words[0] not in _OPEN_QUESTION_WORDS:
            out.append(meanings(sentence) - _SAYS_NOTHING - _HOW_FAR)
    return [asks for asks in out if asks]


def what_asked(text: str) -> list[frozenset[str]]:
    """What each open question of ``text`` asks about: one that opens with what, who, where,
    when, which, why or how ("What is your response time for P1 tickets?": response, time, p1,
    ticket)."""
    out = []
    for sentence in _SENTENCE_ENDS.split(text):
        sentence = sentence.strip()
        words = words_of(sentence)
        if sentence.endswith("?") and words and words[0] in _OPEN_QUESTION_WORDS:
            out.append(meanings(sentence) - _SAYS_NOTHING - _HOW_FAR)
    return [asks for asks in out if asks]


#: The words that open a question not answered by a yes or a no.
_OPEN_QUESTION_WORDS = frozenset(
    "what what's whats who who's whom whose where where's when which why how how's".split()  # noqa: SIM905 (a closed list, read as words)
)


def speaks_for_the_writer(
    clause: str,
    asked: Sequence[frozenset[str]] = (),
    *,
    opened: Sequence[frozenset[str]] = (),
    user: frozenset[str] = frozenset(),
    names: frozenset[str] = frozenset(),
    question: bool = False,
) -> bool:
    """Does a clause of a reply the agent words speak for whoever sends it, so that the user, not
    the agent, has to have said it: a commitment (anyone's future act or offer: "We'll throw in
    premium support", "Bob will pick it up", "We'd love Thursday", "Will do."), the writer's own
    act, decision or state ("I approved your PR", "We're going with another venue", "Done.",
    "Sam merged it": ``user``, the user's names; "We have budget for about $5k"), a directive to
    the recipient ("Book us for Thursday", "Could you book Thursday for us?", "Push it to main"),
    or any answer to a yes-or-no question the recipient put (``asked``: what each asks about;
    "Sure is!", "Thursday suits us.", "Soon.", "Tomorrow.")? A clause in a language the reader
    does not read may say any of these. A deferral is none ("I'll check and get back to you",
    "Give me a moment to check"), nor courtesy (``names``: the recipient's), nor a clarifying
    question ("Which PR is it?", "Could you share the rates?"), nor what is true of the world in
    answer to an open question the recipient put (``opened``: "We respond to P1 tickets within
    one hour" to "What is your response time for P1 tickets?"): a reply is the agent's to word,
    not the user's to bind."""
    words = [w.strip("'") for w in words_of(clause.casefold()) if w.strip("'")]
    if _in_another_language(words):
        return True  # "Sí, aprobado.", "Donnerstag ist gebucht."
    words = ["i" if w in user else w for w in words]  # "Sam is going to approve it": the user's
    at = 0
    while at < len(words) and words[at] in _LEAD_INS:
        at += 1
    rest = words[at:]
    if question:
        return _a_request(rest)
    if not rest:
        return bool(asked) and any(w in _ANSWER_WORDS for w in words)
    if _a_deferral(rest) or _only_courtesy(rest, names):
        return False
    if asked and not set(words) & _ASKING_WORDS:
        return True  # an answer to their question: yes, no, when, or what it says of its topic
    if _A_PROMISE.search(clause):
        return True  # "You have my word v2 goes live tomorrow", "guaranteed"
    first = rest[0]
    if first in _DIRECTING and not _courteous(rest):
        return True  # "Book us for Thursday", "Go ahead with Thursday", "please ship it"
    if first in _FUTURE | _ABLE | {"shall"} and rest[1:2] != ["you"]:
        return True  # "Will do.", "Can do tomorrow." (a deferral is read above)
    done = [w for w in rest if w not in _ADVERBS]
    if done and _an_act_done(done[0]) and not _courteous(done):
        return True  # "Done.", "Merged it for you.", "Approved, ship it.", "Filled it in."
    return any(
        _committing(words, i, opened, clause)
        for i, w in enumerate(words)
        if w in _PERSONS_WHO_COMMIT or words[i + 1 : i + 2] in (["will"], ["won't"], ["shall"])
    )


def spoken_for_the_writer(
    texts: Sequence[str],
    asked: Sequence[frozenset[str]],
    said: Sequence[Said],
    given: frozenset[str],
    *,
    opened: Sequence[frozenset[str]] = (),
    user: frozenset[str] = frozenset(),
    names: frozenset[str] = frozenset(),
    turn: str = "",
) -> list[str]:
    """The clauses of a reply the agent words that speak for whoever sends it
    (:func:`speaks_for_the_writer`) and that neither the turn (``given``: its words, whom it is
    to, courtesy; a yes or a no the ``turn`` writes) nor a statement read says: "We'll throw in
    premium support at no charge." to the customer, "Thursday suits us." to Carla, whose mail only
    asks; "Yes!" to a question a statement read answers ("Did the deploy finish?" of a deploy
    #deploys says finished) is the records'."""
    statements = [s.words for s in said if not s.asks and not s.whole]
    answered = bool(set(words_of(turn.casefold())) & _ANSWER_WORDS)

    def stated(words: frozenset[str]) -> bool:
        """One statement read says ``words`` (and what the recipient asked, where they did)."""
        if asked:
            return any(words | topic <= st for st in statements for topic in asked)
        # one word is no evidence ("Done." of "Deploy finished"): what is done is not said
        return len(words) >= 2 and any(words <= st for st in statements)

    out = []
    for text in texts:
        for sentence in _SENTENCE_ENDS.split(text):
            clauses = [c.strip() for c in _A_CLAUSES_END.split(sentence) if c.strip()]
            for i, clause in enumerate(clauses):
                question = i == len(clauses) - 1 and sentence.rstrip().endswith("?")
                if not speaks_for_the_writer(
                    clause, asked, opened=opened, user=user, names=names, question=question
                ):
                    continue
                content = meanings(clause) - _SAYS_NOTHING
                words = content - given
                if (content and not words) or ((words or asked) and stated(words)):
                    continue  # the turn says it, or a statement read (of what they asked)
                if not content and answered:
                    continue  # "Reply to Carla, say yes to Thursday": "Yes!"
                out.append(clause)
    return out


def _committing(
    words: Sequence[str], at: int, opened: Sequence[frozenset[str]] = (), clause: str = ""
) -> bool:
    """Does the person at ``at`` ("we", "I'll", "ana" before "will") commit to, report, decide or
    state something in the words after it, not defer it or say what they think? A first person's
    present words that answer an open question the recipient put (``opened``) are the agent's
    ("We respond to P1 tickets within one hour")."""
    word = _TYPED.get(words[at], words[at])
    after = [w for w in words[at + 1 :] if w not in _ADVERBS]
    contracted = word.rsplit("'", 1)[-1] if "'" in word else ""
    first = word in _FIRST_PERSON
    if contracted in ("ll", "d") or (after and (after[0] in _FUTURE or (first and after[0] in _ABLE))):
        verbs = after if contracted else after[1:]
        if _deferring(verbs):
            return False
        while verbs[:1] and verbs[0] in ("not", "be", "able", "to", "happy", "glad"):
            verbs = verbs[1:]
        return not _deferring(verbs)
    if not first:
        return False  # "Bob will pick it up" commits; "Bob picked it up" is a fact to read
    if contracted in ("m", "re") or (after and after[0] in ("am", "are", "is", "was", "were")):
        verbs = after if contracted else after[1:]
        if verbs and verbs[0].endswith("ing"):
            return not _deferring(verbs)  # "We're going with another venue"
        return bool(verbs) and not set(verbs[:1]) <= _FEELING  # "I'm out sick", not "I'm sorry"
    if contracted == "ve" or (after and after[0] in ("have", "has", "had")):
        verbs = after if contracted else after[1:]
        if verbs and _an_act_done(verbs[0]):
            return True  # "I've merged it"
    if after and after[0] in ("didn't", "didnt", "did"):
        return True  # "I didn't fill it in": the writer's act, told
    if after and after[0] in _NEGATING:
        after = after[1:]
    if len(after) >= 2 and after[0] in _MEANING_TO and after[1] == "to":
        return not _deferring(after[2:])  # "we need to check with Priya first": a deferral
    if not after or after[0] in _THINKING:
        return False  # "I think so", "we appreciate it"
    if _an_act_done(after[0]) or after[0] in _DECIDING:
        return True
    # what the writer is or has ("We have budget for about $5k"), unless it answers what the
    # recipient asked ("We respond to P1 tickets within one hour" to "What is your response time")
    # or passes on what someone asks ("We have a customer asking about P1 response times")
    if set(words_of(clause.casefold())) & _ASKING_WORDS:
        return False
    return not any(meanings(clause) & topic for topic in opened)


def _a_deferral(words: Sequence[str]) -> bool:
    """Is a clause a deferral: a commitment to answer later and nothing more ("Let me check and
    come back to you", "Will get back to you later today", "Checking, back to you shortly", "Give
    me a moment to check", "Bear with me", "Not sure yet", "More soon")?"""
    rest = [_TYPED.get(w, w) for w in words if w not in _ADVERBS]
    if not rest:
        return False  # "Soon.": when, not a deferral
    # "More soon", "Back to you on this"; "Soon." says when, "On it." takes the task on
    holding = set(rest) <= _HOLDING and set(rest) - _WHEN_ONLY and rest[:2] != ["on", "it"]
    if holding or rest[:2] == ["not", "sure"] or tuple(rest[:3]) in _KEEPING_POSTED:
        return True  # "More soon", "Not sure yet", "Keep me posted", "Let me know if ..."
    head = rest[0]
    if head in ("i", "we") and rest[1:2] and rest[1] in _MEANING_TO and rest[2:3] == ["to"]:
        return _deferring(rest[3:])  # "we need to check with the team first"
    if rest[:2] in (["let", "me"], ["let", "us"]):
        return _deferring(rest[2:])
    if (
        head in _FUTURE
        or head in ("i'll", "we'll")
        or (head in ("i", "we") and rest[1:2] and rest[1] in _FUTURE)
    ):
        verbs = rest[1:] if head in _FUTURE or "'" in head else rest[2:]
        return _deferring([w for w in verbs if w not in ("need", "to", "have")])
    if head in ("i'm", "we're") or (head in ("i", "we") and rest[1:2] in (["am"], ["are"])):
        verbs = rest[1:] if "'" in head else rest[2:]
        return bool(verbs) and verbs[0].endswith("ing") and _deferring(verbs)
    if head in ("give", "bear") and rest[1:2] in (["me"], ["us"]):
        return True
    return head.endswith("ing") and _deferring(rest)


def _only_courtesy(words: Sequence[str], names: frozenset[str]) -> bool:
    """Is a clause courtesy and nothing else ("Thanks for your question!", "Got it.", "Message
    received.", "Take care!", "Hi Carla")?"""
    return all(w in _COURTEOUS_WORDS or w in names for w in words)


def _a_request(words: Sequence[str]) -> bool:
    """Is a question a request that the recipient act for the writer ("Could you book Thursday
    for us?", "Would you mind closing your ticket?", "Shall we take Thursday?"), not one for what
    the writer needs to know ("Could you share the rates?", "Which PR is it?")?"""
    rest = [w for w in words if w not in ("please", "kindly", "just", "also")]
    if rest[:2] in (["how", "about"], ["what", "about"], ["why", "not"]):
        return True  # a proposal for the writer: "How about tomorrow morning instead?"
    if rest[:2] == ["shall", "we"]:
        verbs = rest[2:]
    elif rest[:1] and rest[0] in ("could", "can", "would", "will") and rest[1:2] == ["you"]:
        verbs = rest[3:] if rest[2:3] == ["mind"] else rest[2:]
    elif rest[:1] == ["mind"]:
        verbs = rest[1:]  # "Mind deploying it tonight?"
    else:
        return False
    verb = verbs[0] if verbs else ""
    bases = {verb, verb[:-3], verb[:-3] + "e", verb[:-4]} if verb.endswith("ing") else {verb}
    # any act asked of them, not what the writer needs to know ("Could you share the rates?")
    return bool(verb) and verb not in FUNCTION_WORDS and not bases & (_ASKING_FOR | _INFORMING)


def _in_another_language(words: Sequence[str]) -> bool:
    """Does a clause write a word of another language than the reader reads: a letter English
    does not write ("Sí", "gebucht", "réserve") or a word of another language's closed class
    ("Pas encore", "Donnerstag ist ...")?"""
    return any(w in _FOREIGN or any(c.isalpha() and ord(c) > 127 for c in w) for w in words)


def _deferring(verbs: Sequence[str]) -> bool:
    """Do the verbs a commitment coordinates all defer ("check and get back to you", "confirm the
    date soon", "look into it", "let you know", "keep you posted")?"""
    parts: list[list[str]] = [[]]
    for w in verbs:
        if w in ("and", "then", "or"):
            parts.append([])
        else:
            parts[-1].append(w)
    heads = [[_base(p[0]), *p[1:]] for p in parts if p]
    return bool(heads) and all(
        p[0] in _DEFERRING or tuple(p[:2]) in _DEFERRING_PHRASES or tuple(p[:3]) in _DEFERRING_PHRASES
        for p in heads
    )


def _base(word: str) -> str:
    """A verb without "-ing" where its base is a deferring one ("checking", "looking": check, look)."""
    if word.endswith("ing"):
        for base in (word[:-3], word[:-3] + "e", word[:-4]):
            if base in _DEFERRING or base in ("get", "follow", "reach", "keep", "let", "be"):
                return base
    return word


#: What a reply may hold the recipient to without binding anyone ("Bear with me", "More soon").
_HOLDING = frozenset(
    """
    more soon shortly later bear with me give a moment bit sec second minute checking back to you
    on it this that i'm still looking into
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words of when alone, which answer a question ("Soon.", "Later.").
_WHEN_ONLY = frozenset({"soon", "shortly", "later"})
#: Asking to be told, which binds no one.
_KEEPING_POSTED = frozenset(
    {
        ("keep", "me", "posted"),
        ("keep", "us", "posted"),
        ("keep", "me", "updated"),
        ("keep", "us", "updated"),
        ("keep", "me", "in"),
        ("let", "me", "know"),
        ("let", "us", "know"),
    }
)
#: Words of courtesy alone, a clause of which binds no one.
_COURTEOUS_WORDS = frozenset(
    """
    thanks thank you much many very so for the your a an this that it heads up letting me know
    reaching out asking question message email mail note patience details info update received
    got understood noted appreciate appreciated hi hello hey dear good great take care cheers best
    regards kind warm all question offer invitation invite interest response reply time help
    feedback welcome
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words of a feeling the writer states, which binds no one ("I'm sorry", "We're glad").
_FEELING = frozenset({"sorry", "glad", "happy", "pleased", "delighted", "grateful", "thankful", "excited"})
#: What the writer thinks, hopes or knows, which binds no one.
_THINKING = frozenset(
    """
    think hope believe guess appreciate thank understand see know wonder apologize apologise
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: What a writer means to do ("we need to", "I plan to").
_MEANING_TO = frozenset(
    {"need", "needs", "want", "wants", "have", "has", "plan", "plans", "intend", "intends"}
)
#: Verbs of a request for an explanation, which binds no one ("Could you clarify ...?").
_INFORMING = frozenset(
    """
    clarify explain describe elaborate remind advise suggest recommend check look say give provide
    point help
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Verbs a request for what the writer needs to know is written with ("Could you share the rates?").
_ASKING_FOR = frozenset({"send", "share", "forward", "mail", "post", "call", "tell", "confirm", "let"})
#: Words of another language's closed class, which the reader does not read (and that English does
#: not write as words of its own).
_FOREIGN = frozenset(
    """
    oui non merci encore pas avec pour nous vous sont jeudi vendredi demain aujourd'hui bien sûr
    ja nein danke bitte gerne klar natürlich nicht noch ist sind wir ihr und oder aber morgen heute
    donnerstag freitag erledigt gebucht genehmigt fertig jawohl
    sí si gracias claro vale pero mañana hoy jueves viernes listo hecho aprobado reservado
    grazie prego certo domani oggi giovedì fatto
    obrigado sim amanhã hoje quinta
    """.split()  # noqa: SIM905 (a closed list, read as words)
) - {"si"}


def _an_act_done(word: str) -> bool:
    """Is ``word`` a verb of an act done ("merged", "paid", "done"), not a word of feeling or of
    receipt ("noted", "pleased", "received")?"""
    if word in _NOT_AN_ACT:
        return False
    return word in _DONE_IRREGULAR or (word.endswith("ed") and len(word) >= 5)


def _courteous(words: Sequence[str]) -> bool:
    """Is a clause a courtesy written as an imperative or a participle ("keep me posted", "take
    care", "let me know", "got it")?"""
    return tuple(words[:2]) in _COURTEOUS_PAIRS


#: Words before what a clause says ("Hi Carla, ...", "Thanks, ...", "So, ...", "please ...").
_LEAD_INS = frozenset(
    """
    hi hello hey dear thanks thank you so and but also then just please ok okay great well oh
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: A promise in so many words.
_A_PROMISE = re.compile(r"(?i)\b(?:(?:my|our)\s+word|promis\w*|guarantee\w*|assure\w*|pledge\w*|swear)\b")
#: Words that pass a question on, which answers none ("lena.k asks about v2").
_ASKING_WORDS = _ASKING | {"wonder", "question", "questions"}
#: Words that answer a yes-or-no question or accept what was offered ("Sure is!", "Deal").
_ANSWER_WORDS = frozenset(
    """
    yes yep yeah yup sure absolutely definitely certainly indeed correct affirmative right no nope
    nah negative deal agreed approved accepted confirmed lgtm perfect fine sounds works suits aye
    wilco roger ok okay course gladly
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Who commits: the writer, the recipient, whoever else before "will".
_PERSONS_WHO_COMMIT = frozenset(
    """
    i we i'll we'll i'd we'd i'm we're i've we've ill ive im you'll you'd he'll she'll they'll
    he she they you
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_FIRST_PERSON = frozenset("i we i'll we'll i'd we'd i'm we're i've we've ill ive im".split())  # noqa: SIM905
#: Words of a future or a wish ("will", "won't", "would"), and of what the writer can do.
_FUTURE = frozenset({"will", "shall", "would", "gonna", "wanna", "won't", "wont", "wouldn't"})
_ABLE = frozenset({"can", "could", "can't", "cant", "cannot", "couldn't"})
#: "I'll", "I'm", "I've" typed without the apostrophe.
_TYPED = {"ill": "i'll", "im": "i'm", "ive": "i've"}
_NEGATING = frozenset({"don't", "dont", "didn't", "didnt", "do", "did", "won't", "can't", "cannot", "never"})
_ADVERBS = frozenset(
    """
    also just then already definitely probably certainly surely happily gladly quickly soon really
    still all both personally
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: What a reply may say it will do without binding anyone: look, ask, answer later.
_DEFERRING = frozenset(
    """
    check confirm verify revert circle discuss consult think talk ask respond reply answer look
    investigate
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_DEFERRING_PHRASES = frozenset(
    {
        ("get", "back"),
        ("get", "in", "touch"),
        ("follow", "up"),
        ("reach", "out"),
        ("let", "you", "know"),
        ("let", "them", "know"),
        ("keep", "you", "posted"),
        ("keep", "you", "updated"),
        ("be", "in", "touch"),
        ("write", "back"),
        ("find", "out"),
        ("update", "you"),
        ("update", "them"),
        ("see", "if"),
        ("see", "what"),
        ("come", "back"),
        ("have", "a", "look"),
        ("be", "in", "touch"),
        ("get", "to", "it"),
        ("back", "to"),
    }
)
#: Decisions a writer states in the present ("I accept", "we agree", "I don't need it").
_DECIDING = frozenset(
    """
    accept agree approve confirm decline refuse reject promise guarantee commit take choose pick
    prefer want need book order cancel pass owe waive cover pay refund give offer
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Verbs that direct the recipient to act for the writer ("Book us for Thursday").
_DIRECTING = frozenset(
    """
    go proceed book ship send keep hold reserve charge bill invoice sign count put pencil lock
    cancel drop use take bring add remove make give transfer pay refund merge deploy release
    approve delete forward share call schedule order buy move reschedule hand pass leave assign
    deliver mail post publish install push reopen re-open close ask escalate revert roll restart
    fix mark rebook upgrade downgrade
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Verbs of an act done without "-ed" ("Done.", "Sent it.", "Paid.").
_DONE_IRREGULAR = frozenset(
    """
    done did made sent paid took gave got put kept left bought brought built met went sold won
    signed shipped booked
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words of a thing done a question may ask of, beside those in "-ed" ("wrote", "read", "did").
_DONE_WORDS = _DONE_IRREGULAR | frozenset({"wrote", "written", "read", "taken", "given"})
#: Words in "-ed" that say a feeling or a receipt, not an act ("Noted.", "Pleased to help").
_NOT_AN_ACT = frozenset(
    """
    noted received understood appreciated pleased excited thrilled delighted interested
    concerned worried surprised glad need
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_COURTEOUS_PAIRS = frozenset(
    {
        ("got", "your"),
        ("give", "me"),
        ("give", "us"),
        ("keep", "me"),
        ("keep", "us"),
        ("take", "care"),
        ("let", "me"),
        ("let", "us"),
        ("got", "it"),
        ("go", "team"),
        ("have", "a"),
        ("feel", "free"),
    }
)
