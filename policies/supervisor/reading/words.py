"""One reading of words, for every rule that reads the user's request: whether it asks for a kind
of action (:class:`~policies.supervisor.rules.kinds.Requested`), a step to take from tool data
(:class:`~policies.supervisor.rules.kinds.Follow`), a confidential value by name
(:class:`~policies.supervisor.rules.kinds.Reader`), or an operation on amounts
(:mod:`policies.supervisor.provenance.derivation`).

**Whole words, and their inflections.** A word the policy declares (``cancel``) matches a word of
the text that is the same word or one of its regular inflections (``cancels``, ``cancelled``,
``cancelling``; ``reply``: ``replies``, ``replied``), never a longer word it begins (``pay`` is
not ``payees``, ``card`` is not ``cardiology``, ``key`` is not ``keynote``). Other forms
(``payment``, ``paid``) are words of their own: a policy that means them lists them. A declared
phrase of several words matches those words in a row.

**A small positive grammar, and nothing else.** The request is read by a
:class:`RequestReader`; the default, :class:`GrammarReader`, admits a clause as asking only when
it is a plain imperative (:func:`in_grammar`):

- its *head*, the first word once a politeness form is taken off (``please``, ``kindly``, ``just``,
  ``can you``, ``could you``, ``would you``, ``will you``, ``I'd like you to``, ``I want you to``,
  ``I need you to``, the user's own wish (``I'd like to``, ``I want to``, ``I need to``),
  ``go ahead and``, ``let's``, ``let us``, ``would you mind``, ``do you mind``,
  and the joiners ``then``, ``also``, ``and``), is a content word: no pronoun, article, auxiliary,
  modal, question word, negation or conjunction, no gerund ("Cancelling it would...") except in a
  sentence opened by ``would you mind`` / ``do you mind`` ("Would you mind paying it and emailing
  Ana?": each gerund at a clause's head is its verb), no possessive ("Bob's message");
- every other word is a content word or a function word of a closed, allowed set
  (:data:`ALLOWED_FUNCTION_WORDS`: articles, possessives, object pronouns, prepositions,
  ``please``, ``already``, ``here``, ``there`` ...); numbers, amounts, identifiers and quoted
  names are content. Any other function word (:data:`MARKERS`: negations, contrast, deferral,
  conditions, question words, auxiliaries and modals, ``nobody``, reported speech such as
  ``wrote``, ``says``, ``wants``, ``asked``) or a contraction (``I'll``, ``don't``) puts the clause
  outside the grammar;
- a verb of telling or checking (``tell``, ``email``, ``post``, ``check`` ...:
  :data:`COMPLEMENT_HEADS`) may end in a content clause (``that``, ``whether``, ``what``, ``who``
  ...): "tell ana whether the deploy is done" asks to tell, and the content asks for nothing.

A comma before ``so`` ends a sentence as a full stop does ("Bob Lee covered the tip, so pay him
..." reads as "Bob Lee covered the tip. So pay him ..."), and ``so`` opens an imperative as
``then`` does. Clauses end at commas, semicolons, sentence punctuation, line breaks, a dash between spaces and
the joiners ``and``, ``then``, ``but``, ``also``, ``after that``, ``afterwards``, and before
``instead`` / ``rather than`` (a clause that says what not to do: "Delete it instead of archiving
it"); what stands in brackets is a sentence of its own (an aside: it continues no object). What
only frames a request is taken off wherever it stands ("When you get a chance, ...", "... when you
can", "..., if possible", "at your convenience", "No rush."; never "if you can't ..." nor "if you
can find ..., book it": each ends at punctuation). What follows a colon is someone's words or a
message's text ("Reply to Carla: Thursday works"): it asks for nothing, unless what stands before
the colon is a reference ("Ticket T-1: refund ...") or the topic the imperative after it acts on
("draft-old.docx: delete it", "#general: remove mallory", "ana: DM her ...": a value, a file, a
channel or a quoted name, or a name the imperative points back to; never a verb, never a bare name
before an imperative that does not point back, "Eve: cancel the Review"). A mandate that ends in a
colon takes the lines below it as its object ("Cancel these standing orders:" / "- Gym Max" / "-
Old Storage") until a line says something else. A quoted text is a name: content, never a head.
The rules that look past one clause:

- a sentence with one clause outside the grammar (a negation, a condition, a question: "Before
  you cancel it, ask me", "If it rains, cancel the picnic") asks for nothing at all, and neither
  does a sentence ending in ``?`` unless it opens with a polite request ("Can you cancel it?");
- a declared verb asks only where every other use of it in the turn is the head of an asking
  clause: "Instead of cancelling the Review, move it", "Don't cancel it. Cancel the Standup",
  "Avoid cancelling it" ask for no cancellation;
- a turn with a correction or a retraction ("actually", "never mind", "scratch that", "ignore
  that", "wait", a clause that is only "don't" or "no") after something it asked for asks for
  nothing: its requests go to a human ("There's a Review I can't make. Cancel it." asks: nothing
  was asked before "Cancel it").

Deterministic and pure. It errs towards asking for nothing: a request it cannot read as asking
leaves the call to a human. It has no lexicon of word classes, so a statement whose first word is
a declared verb used as a noun ("Share price went up") reads as asking (see docs/security.md).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise
from typing import Any, Protocol, runtime_checkable

from policies.patterns import DATES, MONTH_NAMES, TIMES

__all__ = [
    "ALLOWED_FUNCTION_WORDS",
    "COMMON_VERBS",
    "COMPLEMENT_HEADS",
    "DEFAULT_READER",
    "FUNCTION_WORDS",
    "GENERIC_FIELD_WORDS",
    "LASTING",
    "MARKERS",
    "POINTING_BACK",
    "REFERRING_WORDS",
    "SHARE_SUBJECTS",
    "SLOT_PREPOSITIONS",
    "SOMEONE_ELSE",
    "TYPED_AS_I",
    "Clause",
    "Condition",
    "GrammarReader",
    "Mandate",
    "RequestReader",
    "a_day_written",
    "a_named_statement",
    "a_negated_statement",
    "affirmative_words",
    "asks_for",
    "asks_step",
    "clauses_of",
    "conditional_mandates",
    "content_field",
    "corrections_read",
    "excludes_records",
    "field_word",
    "forms",
    "generic_field",
    "head_of",
    "in_grammar",
    "information_question",
    "mandates",
    "marked",
    "matching",
    "named_subject",
    "position",
    "reads_blocking",
    "said",
    "singular",
    "stated",
    "stated_reason",
    "stated_text",
    "step_mandates",
    "step_sentences",
    "words_of",
]

#: What a word is, for this reading: letters, digits and the joiners of an address or a handle.
_WORD = re.compile(r"[\w@.+'-]*\w|\w")
_SENTENCE_END = re.compile(r"([.!?;]+)(?=\s|$)|\n+|,\s+(?=(?i:so)\s+\w)")
#: A bracketed aside, and what a bracket that holds values only may hold besides them (a label
#: before a colon, a currency, a joiner): "(420 EUR to Acme Supplies, IBAN DE89 ...)", "(guest:
#: me@corp.example)", "(B-31, B-32 and B-33)". Square and curly brackets are brackets too ("Pay B-31
#: [B-40 too?]").
_BRACKETED = re.compile(r"\(([^()\n]*)\)|\[([^\[\]\n]*)\](?!\()|\{([^{}\n]*)\}")
_VALUE_WORDS = frozenset(
    {"and", "or", "to", "eur", "usd", "gbp", "chf", "iban", "bic", "at", "on", "from", "for",
     "ref", "re", "memo", "reference", "note", "cf"}
)  # fmt: skip
_COLON = re.compile(r":(?=\s|$)(?![^()\n]*\))")  # not inside a bracket ("(ref: B-40)")
#: "+" and "&" between words join as "and" does ("read #support + reply there", "INV-7 & B-40"), and
#: so does a dash, typed as one, two or three hyphens ("B-40 -- nope, B-31"); "&" between two
#: capitalised words is a name's ("Harlow & Finch", "Lumen & Oak").
_JOINERS = re.compile(
    r"(?i),(?=\s|$)|\s(?:-{1,3}|[\u2013\u2014+])\s|(?<=\w)-{2,3}(?=\w)"
    r"|(?-i:(?<![a-z])\s&\s|\s&\s(?![A-Z][a-z]))"
    r"|\b(?:and|then|but|also)\b|\b(?:after that|afterwards)\b(?=\W*\w)"
    r"|(?<=\w)\s+(?=instead\b|rather\s+than\b)"
)
#: A quoted text: double quotes, curly quotes, or single quotes standing outside a word.
_QUOTED = re.compile(
    r"\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d|\u00ab[^\u00bb\n]*\u00bb|\u201e[^\u201c\u201d\n]*[\u201c\u201d]"
    r"|\u2039[^\u203a\n]*\u203a|(?<![\w'])'[^'\n]*?'(?![\w'])"
)
_PLACEHOLDER = re.compile(r"zq(\d+)qz")
#: "re:", "ref:", "memo:" before what a request refers to or a field's text: the colon opens no
#: list of its object.
_REFERRING_COLON = re.compile(
    r"(?i)\b(re|ref|memo|reference|note|subject|comment|caption|remark)\s*:(?=\s)(?![^()\n]*\))"
)
#: "over" before an id ("Pay B-31 over B-40"): the record weighed against the object, as "in place of".
_OVER_A_RECORD = re.compile(
    r"(?i)\bover\s+(?=(?:the\s+)?(?:[a-z]+\s+){0,3}(?=[^\s,;.]*[a-z])(?=[^\s,;.]*\d)[^\s,;.]+)"
)
#: A comment written into a line: from a "#" before a word (not a number: "invoice # 4471"), or a
#: "//" after a space or at the line's start, to the line's end; a "/*" or an "<!--" to its closing
#: mark. The writer's note, not a request: read as a quotation on a line of its own ("Pay B-31 # and
#: B-40": B-40 is named in words the reader does not take as asking).
_COMMENT = re.compile(
    r"(?:(?<=\s)|^)(?:/\*[^\n]*?(?:\*/|$)|<!--[^\n]*?(?:-->|$)|(?:#[^\S\n]+(?=[^\d\s])|//)[^\n]*)"
    # a template's, a script's or a config's comment ("{# ... #}", "(* ... *)", "<# ... #>"), a
    # line opened by "--", ";" or "%" (SQL, Lua, INI, LaTeX), a struck-through text ("~...~")
    r"|\{#[^\n]*?(?:#\}|$)|\(\*[^\n]*?(?:\*\)|$)|<#[^\n]*?(?:#>|$)|^[^\S\n]*(?:--|;|%+)[^\S\n]+[^\n]*"
    r"|(?<![\w~])~(?=[^\s~\d])[^~\n]+?(?<=[^\s~])~(?![\w~])",
    re.MULTILINE,
)
#: A diff's added and removed lines ("- restart payments\n+ restart checkout"): where a turn has an
#: added line, a line opened by "- " is one the diff removes.
_DIFF_ADDED = re.compile(r"(?m)^[ \t]*\+[ \t]+\S")
_DIFF_REMOVED = re.compile(r"(?m)^[ \t]*-[ \t]+[^\n]*")
#: A minus sign written before a word, after a space on the line ("all bills -B-40"): "minus".
_MINUS = re.compile(r"(?<=[^\S\n])[-\u2212](?=[A-Za-z])")
#: A quote mark left after the quoted texts are taken out: the text quotes someone, unclosed.
_STRAY_QUOTE = re.compile(
    r"[\"\u201c\u201d]|(?<!\w)'|(?<![sS])'(?!\w)"
)  # "Acme Supplies' invoice": a possessive

#: The function words of English (closed classes: they are not content), and the words that make
#: a construction other than a plain imperative (reported speech, deferral, contrast). Any other
#: word is a content word.
FUNCTION_WORDS = frozenset(
    """
    a an the this that these those all both each every any some no none another other such either
    neither my our your his her their its whose mine ours yours theirs
    i me we us you he him she they them it one myself ourselves yourself yourselves himself
    herself themselves itself someone somebody anyone anybody everyone everybody nobody noone
    nothing something anything everything whoever whatever whichever whenever wherever
    what which who whom when where why how whether
    am is are was were be been being do does did have has had having will would shall should can
    could may might must ought dare
    not never nor without cannot
    and or but if iff unless because since though although while whereas whilst once until till
    before after as than so yet lest provided assuming
    on for to from in at with of by into onto about via per up out off back down over under
    through across between within around along inside outside near beside besides except against
    among toward towards upon behind beyond during despite like
    then also just only now here there else instead rather later eventually perhaps maybe vs versus
    optional optionally tbd tba tbc tentative tentatively provisional provisionally unconfirmed
    probably please again anyway actually still even ever already too very
    says said wrote writes written told tells asks asked wants wanted want claims claimed insists
    insisted mentioned mentions suggests suggested demands demanded wait waiting
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: The function words an imperative may hold besides its head: articles and determiners,
#: possessives, pronouns (never as the head), prepositions and a few adverbs.
ALLOWED_FUNCTION_WORDS = frozenset(
    """
    a an the this that these those all both each every any some another other one
    my our your his her their its
    i me we us you he him she they them it whoever yourself
    on for to from in at with of by into onto about via per up out off back down over under
    through across between within around along inside near as toward towards
    please already too just only now here there again
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Function words that put a clause outside the grammar (negation, contrast, deferral, condition,
#: question, auxiliary and modal, reported speech, "nobody").
MARKERS = FUNCTION_WORDS - ALLOWED_FUNCTION_WORDS


def _by_first_word(phrases: Iterable[tuple[str, ...]]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """``phrases`` by their first word, each word's in the order given: a clause's word is tried
    against the phrases that can start with it only (the reader tries every word of every clause)."""
    found: dict[str, list[tuple[str, ...]]] = {}
    for phrase in phrases:
        found.setdefault(phrase[0], []).append(phrase)
    return {word: tuple(them) for word, them in found.items()}


#: Runs of allowed words that make a construction all the same.
_MARKER_PHRASES = (
    ("hold", "off"), ("put", "off"), ("hold", "on"), ("hang", "on"), ("in", "case"), ("as", "soon"),
    # a record weighed against the object, or put after it ("Pay B-31 in place of B-40", "... ahead
    # of B-40", "... prior to B-40")
    ("in", "place", "of"), ("ahead", "of"), ("prior", "to"),
    ("as", "long", "as"), ("as", "if"), ("as", "though"), ("no", "one"),
    # conditions written with content words ("... depending on the balance", "... subject to
    # review", "... but check with me first", "... run it by me")
    ("depending", "on"), ("depending", "upon"), ("dependent", "on"), ("contingent", "on"),
    # a need the agent would judge ("... as needed", "... where required", "..., if necessary")
    ("as", "needed"), ("as", "required"), ("as", "necessary"), ("where", "needed"), ("when", "needed"),
    ("where", "required"), ("as", "appropriate"),
    ("conditional", "on"), ("subject", "to"), ("check", "with"), ("confirm", "with"), ("clear", "it", "with"),
    ("run", "it", "by"), ("run", "this", "by"), ("check", "in", "with"), ("if", "and", "when"),
    # the choice left to the agent ("... as you see fit", "..., your call", "at your discretion")
    ("see", "fit"), ("your", "call"), ("you", "judge"), ("your", "discretion"), ("own", "discretion"),
    ("your", "judgment"), ("your", "judgement"), ("up", "to", "you"), ("pair", "of", "eyes"),
    # a rule the agent would apply ("... per retention policy", "according to policy", "based on age")
    ("according", "to"), ("in", "line", "with", "policy"), ("in", "line", "with", "the"),
    ("in", "line", "with", "our"), ("in", "accordance"), ("pursuant", "to"),
    ("consistent", "with"), ("based", "on"), ("per", "policy"), ("per", "retention"), ("per", "the"),
    ("per", "our"), ("per", "their"), ("per", "my"), ("per", "your"), ("per", "his"), ("per", "her"),
    # a choice of last resort ("..., as a last resort, ...", "in a pinch", "if all else fails")
    ("last", "resort"), ("in", "a", "pinch"), ("at", "a", "push"), ("else", "fails"), ("worst", "case"),
)  # fmt: skip
#: Nouns of someone's consent: after a word that makes them a condition ("with Eve's OK", "pending
#: approval", "upon your sign-off", "after the go-ahead") they put the clause outside the grammar.
#: "green" is one only before "light" ("with the green light"): alone it is a name's ("with Sam
#: Green").
_CONSENT = frozenset(
    {"ok", "okay", "approval", "permission", "consent", "sign-off", "signoff", "go-ahead", "blessing",
     "nod", "authorisation", "authorization", "say-so", "confirmation", "thumbs-up", "thumbs",
     "agreement", "clearance", "sanction", "signal", "cue", "green-light", "greenlight"}
)  # fmt: skip
#: ("w": "w/ Eve's OK", as the reader splits "w/")
_BEFORE_CONSENT = frozenset(
    {"with", "w", "without", "pending", "upon", "after", "given", "once", "following", "on", "at"}
)


def _consent_at(words: Sequence[str], at: int) -> bool:
    """Does a condition of someone's consent start at ``at`` ("with Eve's OK", "pending approval",
    "after the manager's sign-off")?"""
    after = words[at + 1 : at + 5]
    return words[at] in _BEFORE_CONSENT and any(
        w in _CONSENT or (w == "green" and "light" in after[i + 1 : i + 2]) for i, w in enumerate(after[:3])
    )


#: Runs of words that state an operation on amounts, read as content ("what is left of INV-9").
_OPERATION_PHRASES = (
    ("what", "is", "left", "of"),
    ("what's", "left", "of"),
    ("whatever", "is", "left", "of"),
)
#: A free relative that names a value from the user's own history, read as content ("for what I
#: usually pay them", "19.5% of what we paid at Trattoria Roma"): "what", a first-person subject, at
#: most one adverb of habit, and a verb of paying. A noun phrase, never a question ("?" still asks
#: for nothing) and never a clause of its own: the value it names must still come from a source the
#: rule admits.
_VALUE_PHRASES = tuple(
    ("what", subject, *adverb, verb)
    for subject in ("i", "we")
    for adverb in ((), ("usually",), ("normally",), ("always",), ("last",))
    for verb in ("pay", "paid", "spend", "spent", "owe", "owed")
)
#: What opens a polite imperative (taken off before the head).
_POLITE = (
    ("please",), ("pls",), ("plz",), ("kindly",), ("just",), ("only",), ("then",), ("also",), ("and",),
    ("so",), ("ok",), ("okay",), ("now",),
    ("would", "you", "mind"), ("do", "you", "mind"), ("would", "you", "be", "so", "kind", "as", "to"),
    ("mind",), ("time", "to"), ("it's", "time", "to"),
    ("let's",), ("lets",), ("let", "us"),
    ("can", "you"), ("could", "you"), ("would", "you"), ("will", "you"), ("can", "u"), ("could", "u"),
    ("i'd", "like", "you", "to"), ("i", "would", "like", "you", "to"), ("i", "want", "you", "to"),
    ("i", "need", "you", "to"), ("go", "ahead", "and"), ("go",), ("need", "you", "to"), ("need", "u", "to"),
    ("i", "need", "u", "to"), ("i'm", "asking", "you", "to"), ("i", "am", "asking", "you", "to"),
    ("what", "i", "need", "is", "for", "you", "to"),
    # the user's leave given as they ask: "I authorize you to pay B-40", "You're cleared to ..."
    ("i", "authorize", "you", "to"), ("i", "authorise", "you", "to"), ("you're", "cleared", "to"),
    ("you", "are", "cleared", "to"), ("you're", "authorized", "to"), ("you", "are", "authorized", "to"),
    ("you're", "authorised", "to"), ("you", "are", "authorised", "to"),
    ("you", "have", "my", "go-ahead", "to"), ("you", "have", "my", "permission", "to"),
    ("i", "confirm"), ("i", "approve"), ("approved",), ("confirmed",), ("agreed",),
    ("you", "have", "my", "approval", "to"),
    # leave given as a permission: "You may pay B-40", "Feel free to pay B-40", "Yup, pay it"
    ("you", "may"), ("you", "can"), ("feel", "free", "to"), ("go", "ahead"), ("yup",), ("yep",), ("yes",),
    ("yeah",),
    # an urging said as a prohibition: "Don't forget to pay B-31" asks to pay it
    ("don't", "forget", "to"), ("dont", "forget", "to"), ("do", "not", "forget", "to"),
    ("don't", "hesitate", "to"), ("do", "not", "hesitate", "to"),
    # the user's own wish, said as theirs: "I'd like to pay B-31" asks the agent to pay it
    ("i'd", "like", "to"), ("i", "would", "like", "to"), ("i", "want", "to"), ("i", "need", "to"),
    # the user's own words said again ("I said pay B-31", "Like I said: ...", "As I mentioned: ...")
    ("like", "i", "said"), ("as", "i", "said"), ("like", "i", "told", "you"), ("as", "i", "told", "you"),
    ("as", "i", "mentioned"), ("like", "i", "mentioned"), ("as", "mentioned"),
    ("i", "told", "you", "yesterday"), ("i", "told", "you", "already"), ("i", "told", "you", "before"),
    ("i", "told", "you"), ("i", "said"),
    ("i", "say", "we"), ("i", "say"), ("again",),
)  # fmt: skip
_POLITE_BY_FIRST = _by_first_word(_POLITE)
_MARKERS_BY_FIRST = _by_first_word(_MARKER_PHRASES)
_EXEMPT_BY_FIRST = _by_first_word((*_OPERATION_PHRASES, *_VALUE_PHRASES))
#: How a polite question opens ("Can you cancel it?" asks).
_POLITE_QUESTION = (
    ("can", "you"), ("could", "you"), ("would", "you"), ("will", "you"), ("can", "u"), ("do", "you", "mind"),
    ("please", "would", "you"), ("please", "could", "you"), ("please", "can", "you"), ("mind",),
)  # fmt: skip
#: The polite forms after which an imperative is written as a gerund ("Would you mind paying it?",
#: "... and emailing ana?"): in their sentence, a gerund at a clause's head is its verb.
_GERUND_FORMS = (("would", "you", "mind"), ("do", "you", "mind"), ("mind",))
#: Words of haste, at the end of a clause ("... real quick", "... right now"): a framing phrase
#: (:data:`_FRAMING`) whose clause goes on after it (:func:`_framing_removed`).
_HASTE_WORDS = (
    r"real\s+quick|quickly|asap|a\.s\.a\.p|right\s+away|right\s+now|rn|immediately|urgently|at\s+once"
)
_HASTE = re.compile(rf"(?i){_HASTE_WORDS}")
#: What only frames a request politely, wherever it stands in its sentence: "When you get a chance,
#: pay it", "Pay it when you can.", "..., if possible", "at your convenience", "no rush", "low
#: priority". Each ends at punctuation, a dash or the sentence's end, so that none is a condition
#: ("if you can find a cheaper hotel, book it" keeps its condition; "if you can't" is not one).
_FRAMING = re.compile(
    r"(?i)(?:^|,|\s)\s*(?:"
    r"when(?:ever)?\s+you\s+(?:get|have|find)\s+(?:a|the|some)\s+(?:chance|moment|minute|sec|second|min|time)"
    r"|when(?:ever)?\s+you\s+(?:can|are\s+able|have\s+time|get\s+time|get\s+(?:a)?round\s+to\s+it)"
    r"|if\s+you\s+(?:can|could|would|have\s+(?:a\s+)?(?:time|moment|minute|chance|sec)|get\s+a\s+chance"
    r"|don't\s+mind|do\s+not\s+mind)"
    r"|if\s+possible|at\s+your\s+(?:earliest\s+)?convenience|(?:there's\s+)?no\s+(?:rush|hurry|pressure)"
    r"|low\s+priority|not\s+urgent"
    # a hurry or a thanks in a word or two, at the end of a clause ("... real quick?", "... thx")
    rf"|{_HASTE_WORDS}"
    r"|thx|thanks|thank\s+you|ty"
    # before punctuation, a dash ("tell bob if possible - review PR 12") or the sentence's end
    r")(?=\s*(?:[,.!?;:)\u2014\u2013]|-\s|$))\s*,?"
)


def _framing_removed(match: re.Match[str]) -> str:
    """What stands for a framing phrase taken out: the comma after it where a clause goes on after
    it ("Restart payments right now, customers can't check out": two clauses still), else a space
    ("When you get a chance, pay ...", "Pay B-40, if you can, and B-31")."""
    said, text = match.group(0), match.string
    hurry = _HASTE.fullmatch(said.strip(" \t,")) is not None
    last = match.start() - 1  # the last character before it that is no space, read backwards
    while last >= 0 and text[last].isspace():
        last -= 1
    if (
        hurry
        and last >= 0
        and text[last] != ":"
        and said.rstrip().endswith(",")
        and not said.lstrip().startswith(",")
    ):
        return ", "
    return " "


#: A greeting that opens a sentence, before its comma ("Hey, can you ...?", "Hi team! ..."): it asks
#: nothing, and a polite question after it opens the sentence.
_GREETING = re.compile(
    r"(?i)^\s*(?:"
    r"(?:hey(?:\s+hey)?|hi|hiya|hello|yo|good\s+(?:morning|afternoon|evening)|morning)"
    r"(?:\s+(?:there|team|all|folks|everyone))?\s*(?:[,!:]|[\u2014\u2013]|\s-{1,2}\s)+"
    # a greeting run into a polite ask ("hey can u pay B-40 pls", "hi could you ...")
    r"|(?:hey|hi|hiya|hello|yo)\s+(?=(?:can|could|would|will|u|you|pls|plz|please|just|kindly)\b)"
    r"|yo\s+(?=[a-z])"  # "yo pay B-55": no word but a greeting
    r"|(?:yes|yep|yeah|sure|ok|okay)\s+(?=(?:please|pls|plz|kindly)\b)"  # "Yes please pay B-31"
    # the agent addressed by its handle ("@assistant restart api")
    r"|@(?:assistant|bot|agent|ai|copilot|helper)\b\s*[,:]?"
    # an apology for asking, a word that the ask is short, an urging: each before its stop ("Sorry
    # to bug you again —", "Quick one:", "Go ahead:", "Yep, do it:", "Please don't hesitate —")
    r"|(?:sorry\s+to\s+(?:bug|bother|trouble|pester|disturb|nag)\s+you(?:\s+(?:again|guys|all))?"
    r"|(?:so\s+)?(?:sorry|apologies)\s+(?:for|about)\s+(?:the\s+)?(?:hassle|trouble|bother|inconvenience"
    r"|(?:short|late)\s+notice)"
    r"|quick\s+(?:one|question|favou?r|ask|request|thing)|one\s+more(?:\s+(?:thing|ask|request))?"
    r"|(?:(?:yes|yep|yeah|ok|okay|sure)\s*,?\s*)?(?:go\s+ahead|do\s+it)"
    r"|(?:please\s+)?don'?t\s+hesitate"
    # an assent or a word of haste before its stop ("Alright, ...", "Confirmed - ...", "URGENT: ...")
    r"|alright|all\s+right|(?:ok|okay)(?:\s+so)?|right(?:\s+then)?|correct|confirmed|that'?s\s+(?:right|correct)"
    # an aside that only adds the request to the turn ("Oh, and pay ...", "Before I forget: ...")
    r"|oh|ah|btw|by\s+the\s+way|before\s+i\s+forget|sounds\s+(?:good|great)|(?:one\s+)?last\s+thing"
    # the user's own earlier word on it ("As discussed, ...", "Like I said, ...")
    r"|as\s+(?:discussed|agreed|mentioned|promised|planned)|(?:as|like)\s+(?:i|we)\s+(?:said|mentioned|discussed|agreed)"
    # a letter to whoever serves ("Dear Sir or Madam,", "To whom it may concern:")
    r"|dear\s+(?:sirs?|madam|sir\s*(?:or|/)\s*madam)|to\s+whom\s+it\s+may\s+concern"
    r"|yes|yep|yeah|sure|great|perfect|cool|urgent|quick|asap)\s*(?:[,!:]|[\u2014\u2013]|\s-{1,2}\s)+"
    # a word of haste that opens the request ("Immediately disable ...", "ASAP please pay ...")
    r"|(?:asap|immediately|urgently|right\s+now|right\s+away)(?=\s+[^\W\d_])"
    r")\s*"
)


def _opened(written: str) -> str:
    """A sentence without the greetings, apologies and urgings that open it, one after another
    ("Hey — quick one: can you ...?")."""
    for _ in range(3):
        opened = _GREETING.sub("", written, count=1)
        if opened == written:
            break
        written = opened
    return written


#: Verbs of telling and checking: what follows a complementiser after them is the content.
COMPLEMENT_HEADS = frozenset(
    """
    tell ask email e-mail mail dm message text post reply answer write notify inform let remind say
    confirm explain report check find see show verify msg ping pm txt sms announce publish broadcast
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Conditions and deferrals: even in a message's content they may be the request's own.
_CONDITIONS = frozenset(
    {"if", "iff", "unless", "once", "until", "till", "when", "whenever", "before", "after", "later",
     "provided", "assuming", "lest", "wait", "because", "since", "instead", "rather", "actually"}
)  # fmt: skip
#: Words that report what someone else said or wants.
_REPORTED = frozenset(
    {"says", "said", "wrote", "writes", "written", "told", "tells", "asks", "asked", "wants", "wanted",
     "want", "claims", "claimed", "insists", "insisted", "mentioned", "mentions", "suggests", "suggested",
     "demands", "demanded", "claim", "say", "insist", "mention", "suggest", "demand", "write", "tell",
     "swear", "swears", "swore", "allege", "alleges", "alleged"}
)  # fmt: skip
#: Of :data:`_REPORTED`, the words that are also things (an insurance claim, a payment demand).
_REPORTED_NOUNS = frozenset({"claim", "claims", "demand", "demands"})
#: What stands before a noun and never before a verb ("her claim", "the demand", "his claims").
_BEFORE_A_NOUN = frozenset(
    {"the", "a", "an", "her", "his", "their", "your", "my", "our", "its", "this", "that", "these", "those"}
)
#: What follows a noun as its clause's verb or names it ("... claim is paid", "... claim CL-7003").
_AFTER_A_NOUN = frozenset({"is", "was", "has", "had", "were", "are", "will", "got"})


def _a_reported_noun(words: Sequence[str], i: int) -> bool:
    """Is the word at ``i`` one of :data:`_REPORTED_NOUNS` used as a thing: right after a determiner
    or a possessive ("her claim"), or after one and a word that modifies it with its verb or an id
    after it ("her monitor claim is paid", "the windscreen claim CL-7002"); "the manager claims it
    is closed" reports someone's words."""
    if words[i] not in _REPORTED_NOUNS:
        return False
    if words[i - 1] in _BEFORE_A_NOUN:
        return True
    after = words[i + 1] if i + 1 < len(words) else ""
    return (
        i >= 2
        and words[i - 2] in _BEFORE_A_NOUN - {"that", "this", "these", "those"}
        and (
            after in _AFTER_A_NOUN
            or (not words[i].endswith("s") and bool(re.fullmatch(r"[a-z]+-?\d[\w-]*", after)))
        )
    )


_COMPLEMENTISERS = frozenset(
    {"that", "whether", "what", "what's", "whats", "who", "whom", "where", "why", "how", "which", "saying"}
)
#: A correction or a retraction: a clause that begins so takes back the turn's requests.
_RETRACTING = (
    ("never", "mind"), ("nevermind",), ("scratch", "that"), ("scratch", "this"), ("ignore", "that"),
    ("ignore", "this"), ("ignore", "the", "above"), ("ignore", "my"), ("ignore", "what"),
    ("ignore", "everything"), ("ignore", "previous"), ("ignore", "all"), ("forget", "that"),
    ("forget", "it"), ("forget", "this"), ("forget", "about"), ("forget", "what"), ("forget", "my"),
    ("forget", "everything"), ("disregard",), ("on", "second"), ("wait",), ("hold", "on"),
    ("hang", "on"), ("no", "wait"), ("my", "mistake"), ("my", "bad"), ("undo",), ("don't", "do"),
    ("jk",), ("j/k",), ("just", "kidding"), ("kidding",),
)  # fmt: skip
#: A clause that is only this takes back the turn's requests ("Cancel it.\n\nDon't.").
_RETRACTION_CLAUSES = frozenset(
    {
        ("no",), ("nope",), ("don't",), ("dont",), ("do", "not"), ("not",), ("stop",), ("cancel", "that"),
        ("cancel", "this"), ("cancel", "it"), ("keep", "it"), ("leave", "it"), ("no", "thanks"),
    }
)  # fmt: skip
#: Contractions that carry an auxiliary or a modal ("I'll", "we'd", "don't", "it's").
_CONTRACTION = re.compile(r"n't$|'(?:ll|d|re|ve|m)$")
_CONTRACTED = frozenset({"let's", "lets", "what's", "whats", "it's", "that's", "there's", "here's", "who's",
                         "how's", "where's", "when's", "why's", "dont", "wont", "cant", "isnt"})  # fmt: skip


#: The marks people type for an apostrophe ("don´t", "don`t", "don’t"), read as one.
APOSTROPHES = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u00b4": "'", "`": "'", "\u02bc": "'", "\u2032": "'"}
)


def normal(text: str) -> str:
    # "Forward IT's laptop email": the IT desk's, not "it is" (an acronym's possessive)
    return _AN_ACRONYMS_OWN.sub("its", " ".join(text.split())).casefold().translate(APOSTROPHES)


#: "IT's" written so: the IT desk's, read as the possessive "its" ("it's" is "it is").
_AN_ACRONYMS_OWN = re.compile(r"\bIT['\u2019]s\b")


def singular(word: str) -> str:
    """A word without the plural's "s" ("check-ups": "check-up", "pens": "pen"), for words of at
    least four letters ("bus", "gas" and "class" stay as they are)."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def words_of(text: str) -> list[str]:
    """The words of ``text``, case folded (``'s`` kept: "Bob's" is one word)."""
    return _WORD.findall(normal(text))


@lru_cache(maxsize=65536)
def forms(word: str) -> frozenset[str]:
    """A declared word and its regular inflections: ``-s``/``-es``, ``-ed``/``-d``, ``-ing``, a
    final consonant doubled (``cancelled``, ``stopped``), ``-y`` as ``-ies``/``-ied``, a final
    ``-e`` dropped before ``-ing``/``-ed``, and the possessive ``'s``."""
    w = normal(word)
    out = {w, f"{w}s", f"{w}es", f"{w}ed", f"{w}d", f"{w}ing", f"{w}'s"}
    if w[-1:] == "e":
        out |= {f"{w[:-1]}ing", f"{w}d"}
    if w[-1:] == "y" and len(w) > 2 and w[-2] not in "aeiou":
        out |= {f"{w[:-1]}ies", f"{w[:-1]}ied"}
    if len(w) >= 3 and w[-1] not in "aeiouwxy" and w[-2] in "aeiou":
        out |= {f"{w}{w[-1]}ed", f"{w}{w[-1]}ing"}
    return frozenset(out)


def position(words: Sequence[str], phrase: str) -> list[int]:
    """Where in ``words`` the declared ``phrase`` stands (its last word inflected or not)."""
    wanted = words_of(phrase)
    if not wanted:
        return []
    *head, last = wanted
    endings = forms(last)
    n = len(wanted)
    return [
        i
        for i in range(len(words) - n + 1)
        if list(words[i : i + n - 1]) == head and words[i + n - 1] in endings
    ]


def _at(words: Sequence[str], at: int, phrase: tuple[str, ...]) -> bool:
    return tuple(words[at : at + len(phrase)]) == phrase


def _polite(words: Sequence[str]) -> int:
    """How many words a politeness form takes at the start of a clause (repeated: "Please, can you
    go ahead and ...")."""
    at = 0
    while True:
        first = words[at] if at < len(words) else ""
        found = next((p for p in _POLITE_BY_FIRST.get(first, ()) if _at(words, at, p)), None)
        if found is None:
            return at
        at += len(found)


#: What opens a question for information after an imperative ("open Bob's link, what does it say?").
_WH_OPENERS = frozenset({"what", "what's", "whats", "who", "whom", "which", "where", "when"})
#: Words by which a trailing question weighs the request instead of asking about what it finds
#: ("pay it, what do you think?", "..., what if it bounces?", "..., which should I pick?").
_HEDGING = frozenset(
    """
    you u i we should would could shall can may might must think if else or whether not don't
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def information_question(words: Sequence[str]) -> bool:
    """Is a clause a question for information about what an imperative before it finds ("what
    does it say", "who posted it", "what's on it"): a question word at its head, and nothing that
    weighs the request itself (:data:`_HEDGING`: "what do you think", "what if it bounces")?"""
    return bool(words) and words[0] in _WH_OPENERS and not _HEDGING & set(words[1:])


def _asked_after(readings: Sequence[tuple[str, Sequence[str], frozenset[int], _Parse]]) -> int | None:
    """In a sentence that ends in ``?``, where the question starts when plain imperatives open it
    and questions for information close it ("open Bob's link in #random, what does it say?"): the
    index of the first question, or None (the whole sentence is a question)."""
    at = next((i for i, r in enumerate(readings) if information_question(r[1])), None)
    if not at or not all(information_question(r[1]) for r in readings[at:]):
        return None
    opening = readings[:at]
    return at if all(r[3].head is not None and not r[3].marked for r in opening) else None


def marked(words: Sequence[str], question: bool = False) -> bool:
    """Does a clause (its words) hold, after its politeness form, a word that puts it outside the
    grammar (:data:`MARKERS`, a contraction: a negation, a condition, a modal, reported speech, a
    question word), or is it a question that opens with no polite form ("Would you ...?" is one)?
    What a model reader may read a mandate in, and what it may not drop."""
    if question and not any(_at(words, 0, p) for p in _POLITE_QUESTION):
        return True
    start = _polite(words)
    return any(_marker(w) for w in words[start:]) or _marked_phrase(words, start)


def _marked_phrase(
    words: Sequence[str], start: int = 0, quoted: Collection[int] = (), stop: int | None = None
) -> bool:
    """Does a run of content words put the clause outside the grammar from ``start`` on: a
    condition or correction phrase (:data:`_MARKER_PHRASES`: "depending on", "subject to", "check
    with"), a consent after a word of condition ("with Eve's OK"), a choice by comparison ("the
    cheaper of", up to ``stop``: a message's content may compare), or a correction of the request
    itself ("... from that", "the B-40 part")?"""
    choosing = range(start, len(words) if stop is None else stop)
    return (
        any(_at(words, i, p) for i in range(start, len(words)) for p in _MARKERS_BY_FIRST.get(words[i], ()))
        or any(_consent_at(words, i) for i in range(start, len(words)))
        # (not a verb of its own at the head: "Lower the standing order SO-5 to 950.00")
        or any(
            words[i] in _SELECTING and i not in quoted and not (i == start == 0 and words[i] == "lower")
            for i in choosing
        )
        or _out_of_the_request(words)
    )


def _marker(word: str) -> bool:
    return word in MARKERS or word in _CONTRACTED or bool(_CONTRACTION.search(word))


def _unnamed_marker(word: str, at: int, quoted: Collection[int]) -> bool:
    """Is a word a marker (:func:`_marker`) other than a name's particle ("Casa do Rio")?"""
    return _marker(word) and not (word in _NAME_PARTICLES and at in quoted)


def _gerund(word: str) -> bool:
    return len(word) >= 6 and word.endswith("ing")


def _a_gerunds_noun(words: Sequence[str], start: int) -> bool:
    """Is a clause a gerund and one noun after it, a noun phrase ("billing error", "shipping
    delay") and no clause of a gerund's ("Cancelling it ...", "Paying B-40 ...")? Its second
    word no function word, figure, id or marker, and nothing after it."""
    if len(words) - start != 2 or not _gerund(words[start]):
        return False
    noun = words[start + 1]
    return noun not in FUNCTION_WORDS and not _marker(noun) and noun.isalpha()


@dataclass(frozen=True)
class _Parse:
    head: int | None  # where the imperative's head stands, or None (no imperative)
    stop: int  # where the asking part ends (a complement's content follows)
    marked: bool  # a word or a form that puts the clause outside the grammar


def _parse(words: Sequence[str], quoted: frozenset[int] = frozenset(), gerunds: bool = False) -> _Parse:
    start = _polite(words)
    if start >= len(words):
        return _Parse(None, len(words), False)
    head = words[start]
    stop = len(words)
    if head in COMPLEMENT_HEADS or (gerunds and set(_bases(head)) & COMPLEMENT_HEADS):
        stop = next(
            (
                i
                for i in range(start + 1, len(words))
                if i not in quoted
                and (
                    words[i] in _COMPLEMENTISERS
                    or (words[i] in _CONTENT_SUBJECTS and (i > start + 1 or head == "say"))
                )
                and not _at(words, i + 1, ("or", "not"))
            ),
            stop,
        )
    told_at = _after_the_addressee(words, start, quoted) if head in _ADDRESSING_HEADS else len(words)
    stop = min(stop, told_at)
    exempt = set(quoted)
    for i, word in enumerate(words):
        for phrase in _EXEMPT_BY_FIRST.get(word, ()):
            if _at(words, i, phrase):
                exempt.update(range(i, i + len(phrase)))
    told = _when_to_tell_the_user(words, start)  # what to report: no phrase of it marks the clause
    exempt.update(told)
    # a state the act puts in place lasts "until" its end ("Freeze MS-9041 until 2027-01-31", "Put
    # VB-5504 on hold until the note comes"): when it ends, not when to act
    exempt.update(
        i
        for i in range(start + 1, len(words))
        if words[i] in ("until", "till") and (head in LASTING or "hold" in words[start:i]) and i not in quoted
    )
    end = told.start if told else len(words)
    # a phrase the grammar marks, in the asking part or a message's content (a choice: asking only)
    marked = _marked_phrase(words[:end], start, quoted, min(stop, end))
    for i in range(start, stop):
        word = words[i]
        if i in exempt or not _marker(word):
            continue
        if word in ("asks", "asked") and (
            (i > 0 and words[i - 1] == "whoever") or _at(words, i + 1, ("for",))
        ):
            continue  # "reply to whoever asked", "the 150 EUR he asks for": who, not what was said
        if word == "am" and i > start and any(ch.isdigit() for ch in words[i - 1]):
            continue  # "at 10 am": a time of day
        if word in _WANTING and i == stop - 1 and i - 1 > start and words[i - 1] in _THIRD_PERSON:
            continue  # "pay Bob Lee the 150 EUR he wants": which amount, not what he said
        if word == "after" and any(
            _at(words, j, (w, "of")) for j in range(start, i) for w in ("left", "rest")
        ):
            continue  # "what is left of INV-9 after my deposit": an operation, not a time
        marked = True
    # a condition, a cause or a deferral in a message's content may be the request's own ("email
    # that review if Eve agrees"), and so may reported words in a "that" clause ("email that
    # review because Eve wants it"): they put the clause outside the grammar all the same
    addressed = stop < len(words) and stop == told_at
    that = stop < len(words) and (words[stop] in ("that", "whether", "saying") or addressed)
    if addressed and words[stop] in ("if", "when") and head == "ask":
        exempt.add(stop)  # "ask Bob if he is free", "ask Ana when it closes": a question, no condition
    # "tell bob whether ana asked about v2", "tell bob what lena.k asked": a question the agent
    # answers from what it read, of someone's words; "tell bob that ana wants ..." reports them
    put = stop < len(words) and words[stop] in ("whether", "what") and head in _ADDRESSING_HEADS
    barred = _CONDITIONS | (_REPORTED if that and not put else frozenset())
    # "her claim is closed", "the demand of 2026-12-01": a thing, no one's words
    exempt.update(i for i in range(max(stop, 1), len(words)) if _a_reported_noun(words, i))
    # "since Monday", "until Friday", "before noon" in what to say: a time, no condition
    exempt.update(
        i for i in range(stop, len(words) - 1) if words[i] in _TILL and _A_TIME_WORD.fullmatch(words[i + 1])
    )
    # what a reminder asks its reader to do, before or after a thing of theirs ("remind Ines to
    # clear the hallway before the rewiring"): when they are to do it, not when to remind them
    if head == "remind" and addressed and words[stop] == "to":
        exempt.update(
            i
            for i in range(stop + 2, len(words) - 2)
            if words[i] in ("before", "after")
            and words[i + 1] in _THEIRS_OR_THE
            and words[i + 2] not in barred
        )
    marked = marked or any(i not in exempt and words[i] in barred for i in range(stop, len(words)))
    gerund_head = start not in quoted and _gerund(head) and not gerunds
    noun_phrase = gerund_head and _a_gerunds_noun(words, start)
    if gerund_head and not noun_phrase:
        marked = True  # "Cancelling it would be a mistake" (not after "Would you mind")
    if any(_at(words, start, p) for p in _ANOTHER_VERB_AT_THE_HEAD):
        marked = True  # "Give up on granting jdoe admin", "Close to 40 tickets mention T-55"
    is_head = (
        start not in quoted
        and head not in FUNCTION_WORDS
        and not head.endswith("'s")
        and not marked
        and not noun_phrase  # "billing error": a noun phrase, no imperative
    )
    return _Parse(start if is_head and not _marker(head) else None, stop, marked)


#: The determiners of a thing a reminder's reader is to act before or after ("before the rewiring").
_THEIRS_OR_THE = frozenset({"the", "his", "her", "their", "your", "its"})
#: Words of a time span that, before a time, say when and not on what condition.
_TILL = frozenset({"since", "until", "till", "before", "after"})
#: A word that names a time: a day, a month, a time of day, "last"/"next"/"this" (a week).
_A_TIME_WORD = re.compile(
    r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?|today|tonight|tomorrow|yesterday|noon|"
    r"midnight|lunch|last|next|this|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
    r"aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d[\d:.]*(?:am|pm|st|nd|rd|th)?"
)


#: Verbs that address someone and may say what to tell them right after whom, with no word between
#: ("tell Bob the build is green", "let Ana know the room is booked", "ask Bob if he's free").
_ADDRESSING_HEADS = frozenset(
    {"tell", "email", "e-mail", "mail", "dm", "message", "text", "msg", "ping", "pm", "txt", "sms", "notify",
     "inform", "let", "ask", "remind", "thank", "congratulate"}
)  # fmt: skip
#: Whom a verb of telling may address besides a name: the pronouns of a person.
_ADDRESSED_PRONOUNS = frozenset({"him", "her", "them"})
#: What opens what to ask or remind someone of, right after them ("ask Bob if ...", "ask Ana to
#: send ...", "ask Priya for ...", "remind Bob to ...", "remind Ana about ...").
_ASKED_OPENS = {
    "ask": frozenset(
        {"if", "whether", "when", "where", "who", "who's", "what", "what's", "how", "why", "which", "to",
         "for", "can", "could", "would", "will", "is", "are", "do", "does", "did"}
    ),
    "remind": frozenset({"to", "about", "of", "that"}),
    "thank": frozenset({"for"}),
    "congratulate": frozenset({"on", "for"}),
}  # fmt: skip
#: What opens a courteous text said to someone right after them ("tell Ana thanks for ...", "tell
#: Priya happy Friday", "email Bob no worries").
_COURTEOUS_OPENS = frozenset(
    {"thanks", "thx", "tks", "ty", "thank", "congrats", "congratulations", "happy", "sorry", "welcome",
     "cheers", "fyi", "see", "hi", "hello", "hey", "bye", "goodbye", "yes", "no", "ok", "okay", "sure",
     "great", "nice", "good", "well", "kudos", "lgtm"}
)  # fmt: skip
#: Words that open a phrase of the object after whom a verb addresses ("email Bob about ...",
#: "tell Ana in a DM ..."): no content follows there.
_NO_CONTENT_OPENS = frozenset(
    {"about", "to", "for", "on", "with", "by", "in", "via", "at", "re", "re:", "and", "or"}
)


def _after_the_addressee(words: Sequence[str], start: int, quoted: Collection[int]) -> int:
    """Where what to tell someone begins when a verb of telling (:data:`_ADDRESSING_HEADS`) names
    them and says it with no word between: right after whom it addresses ("tell Bob | the build is
    green", "let Ana know | the room is booked", "ask Bob | if he is free", "remind Priya | to sign
    it"), where what follows is a clause of its own (it holds a verb the grammar marks: "is",
    "can't", "will") or opens a question or a reminder. ``len(words)`` where there is none: a thing
    to send ("email Bob the agenda") is the object."""
    head, at = words[start], start + 1
    if head not in _ADDRESSING_HEADS or at >= len(words):
        return len(words)
    whom = words[at]
    if at not in quoted and (
        (whom in FUNCTION_WORDS and whom not in _ADDRESSED_PRONOUNS) or any(ch.isdigit() for ch in whom)
    ):
        return len(words)  # "tell me ...", "email the team ...": no one named by a word
    at += 1
    # whom, in more words than one, up to what is to say ("text Dana Whitfield that ...", "email Mia
    # Kowal's guardian that ..."): the words between are whom's (no function word, figure or marker)
    said = next((i for i in range(at, min(at + 3, len(words))) if words[i] in _SAID_OPENS), None)
    if said is None and (head in TELLING_WHAT or head in _ASKED_OPENS):  # "remind José Núñez to ..."
        said = next((i for i in range(at + 1, min(at + 3, len(words))) if words[i] in _TOLD_TO), None)
    if (
        head != "let"
        and said is not None
        and all(
            w not in FUNCTION_WORDS
            and not any(ch.isdigit() for ch in w)
            and not _marker(w)
            and i not in quoted
            for i, w in enumerate(words[at:said], at)
        )
    ):
        return said
    if head == "let":  # "let Noor Haddad know ...": whom, in up to three words of their own
        know = next((i for i in range(at, min(at + 3, len(words))) if words[i] == "know"), None)
        if know is None or not all(_a_word_of_a_name(w, i, quoted) for i, w in enumerate(words[at:know], at)):
            return len(words)
        at = know + 1
    elif head in TELLING_WHAT and at < len(words) and _a_word_of_a_name(words[at], at, quoted):
        # "Tell Coach Rita Adams the staff rota changed": whom runs on up to what is said, a clause
        # of its own opening with a word of its own kind (an article, a possessive, a person)
        said_at = next(
            (i for i in range(at, min(at + 3, len(words))) if not _a_word_of_a_name(words[i], i, quoted)),
            None,
        )
        if (
            said_at is not None
            and words[said_at] in _OPENS_A_CLAUSE
            and _a_clause_of_its_own(words[said_at:])
        ):
            return said_at
    if at >= len(words) or at in quoted:
        return len(words)
    opens = _ASKED_OPENS.get(head)
    if opens is not None:
        return at if words[at] in opens else len(words)
    if words[at] in _NO_CONTENT_OPENS:
        return len(words)
    if words[at] in _COURTEOUS_OPENS:
        return at
    if any(_marker(w) or w in _CONTENT_SUBJECTS for i, w in enumerate(words[at:], at) if i not in quoted):
        return at
    # what "tell" takes after whom reads as a clause ("tell Ana the deadline slipped"), unless it
    # opens with when to tell it ("tell Bob tomorrow ..."); "tell Ana the price" is a thing to tell
    if head in TELLING_WHAT and words[at] not in _WHEN_TO_TELL_THEM and reads_as_a_clause(words[at:]):
        return at
    return at if head == "let" else len(words)


def _a_word_of_a_name(word: str, at: int, quoted: Collection[int]) -> bool:
    """May ``word`` be a word of a person's name after a verb of telling: no function word, figure or
    marker, not quoted?"""
    return (
        word not in FUNCTION_WORDS
        and not any(ch.isdigit() for ch in word)
        and not _marker(word)
        and at not in quoted
    )


#: Words that open a clause of what to tell someone right after their name ("tell Rita Adams the
#: staff rota changed", "... their parcel was refunded", "... her fee was waived", "tell Dr. Felix
#: Wu we're sorry about the flat", "... she's booked").
_OPENS_A_CLAUSE = frozenset(
    {"the", "their", "her", "his", "your", "our", "its", "my", "we", "we're", "we've", "we'll", "they",
     "they're", "he", "he's", "she", "she's", "it", "it's", "i", "i'm", "i've", "i'll"}
)  # fmt: skip


def _a_clause_of_its_own(words: Sequence[str]) -> bool:
    """Do ``words`` read as a clause with a finite verb of a statement ("their parcel SHP-70421 was
    refunded", "the staff rota changed", "her late fee was waived")?"""
    return len(words) >= 2 and (
        any(_marker(w) and w in _OF_A_STATEMENT for w in words[1:])
        or ("'" in words[0] and words[0] in _OF_A_STATEMENT)  # "we're sorry about the flat"
        or reads_as_a_clause(words)
        or _a_present_statement(words)
    )


def _a_present_statement(words: Sequence[str]) -> bool:
    """Do ``words`` open with a subject of one or two words after its determiner and a verb in the
    present with what follows it ("the adjuster visits on 2026-12-10", "the mould team comes at
    09:00", "the plumber arrives tomorrow")? A thing to send ("the adjuster's report") has none."""
    if len(words) < 4 or words[0] not in _OPENS_A_CLAUSE:
        return False
    for at in (2, 3):
        if at + 1 >= len(words):
            return False
        verb, after = words[at], words[at + 1]
        if (
            verb.endswith("s")
            and not verb.endswith(("ss", "'s", "’s", "us", "is"))
            and all(w not in FUNCTION_WORDS for w in words[1:at])
            and (
                after in _AFTER_A_PRESENT_VERB
                or any(ch.isdigit() for ch in after)
                or (at + 2 < len(words) and words[at + 2] in _AFTER_A_PRESENT_VERB)  # "sees Max on"
            )
        ):
            return True
    return False


#: What follows a verb in the present in a statement to tell ("... visits on ...", "... comes at ...").
_AFTER_A_PRESENT_VERB = frozenset(
    {
        "on",
        "at",
        "in",
        "by",
        "to",
        "from",
        "for",
        "with",
        "today",
        "tomorrow",
        "tonight",
        "next",
        "this",
        "around",
    }
)


#: Verbs of a state that lasts until an end the turn may give ("freeze ... until 2027-01-31").
LASTING = frozenset(
    {"freeze", "pause", "suspend", "hold", "block", "bar", "lock", "mute", "snooze", "silence", "extend",
     "keep", "park"}
)  # fmt: skip
#: What opens what someone is told to do ("tell Ana Ferreira to expect the adjuster").
_TOLD_TO = frozenset({"to"})
#: Words that open what to tell someone after whom ("text Dana Whitfield that ...").
_SAID_OPENS = frozenset({"that", "whether", "saying"})
#: Persons that stand as a clause's subject or object, not in a thing's name ("Ana owes him").
_PERSONS_OF_A_CLAUSE = frozenset({"i", "we", "you", "he", "she", "they", "him", "them", "us", "me", "it"})
#: How a turn types "I'm", "I've", "I'll" and "I'd" without the apostrophe ("tell bob im out").
TYPED_AS_I = frozenset({"im", "ive", "ill"})
#: A predicate a turn writes first, its writer's ("tell bob out fri", "tell priya wfh thurs").
_A_PREDICATE_FIRST = frozenset(
    """
    out off sick wfh ooo pto back home late running stuck away busy omw
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: The days of the week, as a turn writes them, that end what is said ("the venue offered thursday").
_WEEKDAYS = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: When a predicate written first holds ("out fri", "wfh tmrw", "sick until monday").
_WHEN_A_PREDICATE_HOLDS = _WEEKDAYS | frozenset(
    "today tonight tomorrow tmrw tmr tmw until till this next all on from for".split()  # noqa: SIM905 (a closed list, read as words)
)
#: Possessives inside a clause after a word of its own ("the client chose our offer").
_POSSESSIVES = frozenset({"our", "my", "his", "their", "your"})
#: Words that end what is said with when it holds ("... happens today").
_WHEN_SAID = frozenset({"today", "tonight", "tomorrow", "now", "yesterday", "again", "already", "yet"})
#: Frequent verbs a clause is written with and a thing's name is not.
_CLAUSE_VERBS = frozenset(
    """
    owes owe chose went got came made said took gave left sent won lost broke paid ran happens happened
    agrees works worked looks seems loves loved likes liked wants needs knows knew thinks thought
    passed failed finished started ended moved slipped arrived landed shipped merged crashed
    fell quit began bought sold bit beat hit forgot kept held spent told stands stood remains applies
    stays
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def reads_as_a_clause(words: Sequence[str]) -> bool:
    """Do the words after whom a mandate addresses read as a clause (what to tell them) rather than
    a thing to send: a person as subject or object past the first word ("Ana owes him"), a
    possessive after a word of its own ("the client chose our offer"), a frequent verb, a word in
    "-ed" or a time word that ends it ("all tests passed", "the launch happens today")?"""
    if any(w in _PERSONS_OF_A_CLAUSE for w in words[1:]) or any(w in _CLAUSE_VERBS for w in words):
        return True
    if words and (
        words[0] in TYPED_AS_I
        or (words[0] in _A_PREDICATE_FIRST and len(words) > 1 and words[1] in _WHEN_A_PREDICATE_HOLDS)
    ):
        return True  # "im out fri", "out fri", "wfh thurs": the writer's, with no subject written
    if any(w in _POSSESSIVES and words[i - 1] not in FUNCTION_WORDS for i, w in enumerate(words) if i):
        return True
    last = words[-1]
    if len(words) >= 2 and ((last.endswith("ed") and len(last) > 4) or last in _WHEN_SAID | _WEEKDAYS):
        return True
    # a thing named with its article after two words of their own: a verb between two things ("the
    # dog bit the cat", "the budget beats the forecast", "the old laptop replaces the new one")
    if words[0] in _ARTICLES and any(
        w in _ARTICLES and words[i - 1] not in FUNCTION_WORDS and words[i - 2] not in FUNCTION_WORDS
        for i, w in enumerate(words)
        if i >= 3
    ):
        return True
    # a verb after a thing named with its article, before where or when it goes ("the budget moves
    # from marketing to sales", "the launch slipped to June", "the price goes up")
    if any(
        w.endswith("ed")
        and len(w) > 4
        and words[i - 1] not in FUNCTION_WORDS
        and (words[i + 1] in _ARTICLES or words[i + 1] in _WHERE_IT_GOES or words[i + 1] in _WHAT_IT_BEARS_ON)
        for i, w in enumerate(words[:-1])
        if i >= 1
    ):
        return True  # "priya approved the request", "priya signed off on it", "the client complained about"
    if any(
        w.endswith("s")
        and not w.endswith(("ss", "us", "is"))
        and len(w) > 3
        and words[i - 1] not in FUNCTION_WORDS
        and ((words[i + 1] in _WHERE_IT_GOES and words[i + 1] != "by") or words[i + 1][:1].isdigit())
        for i, w in enumerate(words[:-1])
        if i >= 1
    ):
        return True  # "ana takes over from priya", "the seat count goes from ten to twelve", "costs 900"
    if (
        len(words) >= 4
        and words[0] not in FUNCTION_WORDS
        and words[1].endswith("s")
        and not words[1].endswith(("ss", "us", "is"))
        and len(words[1]) > 3
        and words[2] in _WHAT_IT_BEARS_ON
    ):
        return True  # "marketing pays for engineering", "ana works on the launch"
    return any(
        words[i - 2] in _ARTICLES
        and words[i - 1] not in FUNCTION_WORDS
        and (w.endswith("ed") or (w.endswith("s") and not w.endswith("ss")))
        and words[i + 1] in _WHERE_IT_GOES
        for i, w in enumerate(words[:-1])
        if i >= 2
    )


#: Articles and possessives that open a thing named ("the budget", "our launch").
_ARTICLES = frozenset({"the", "a", "an", "our", "my", "your", "his", "her", "their", "this", "that"})
#: Where or when a thing goes, right after a verb ("moves from ...", "slipped to ...", "goes up").
_WHERE_IT_GOES = frozenset(
    {
        "from",
        "to",
        "into",
        "onto",
        "by",
        "up",
        "down",
        "back",
        "over",
        "out",
        "off",
        "ahead",
        "behind",
        "away",
    }
)


#: What a verb in "-ed" bears on, right after it ("complained about", "agreed with", "signed on").
_WHAT_IT_BEARS_ON = frozenset({"on", "in", "at", "with", "about", "for"})
#: Verbs whose object after whom they address is only ever what to tell them.
TELLING_WHAT = frozenset({"tell", "inform", "notify"})
#: Words that say when to tell someone, not what ("tell Bob tomorrow ...", "... later").
_WHEN_TO_TELL_THEM = frozenset(
    {"tomorrow", "tmrw", "tmr", "tonight", "later", "soon", "next", "first", "now", "today", "asap", "again"}
)


#: Verbs of telling the user, and the words that say when to ("tell me when it's done", "let me
#: know once it's through", "ping us if it fails").
_TELLING_THE_USER = frozenset({"tell", "let", "notify", "inform", "ping", "text", "message", "update", "msg"})
_WHEN_TO_TELL = frozenset({"when", "once", "after", "if", "as"})
#: Words by which what to tell is a question of whether to act ("tell me when I should", "... to").
_WEIGHING = frozenset({"should", "shall", "ought", "to", "if", "whether", "unless", "must", "may", "might"})


def _when_to_tell_the_user(words: Sequence[str], start: int) -> range:
    """Where a telling to the user says when to tell ("tell me when it's done", "let me know once
    it's through", "ping me if it fails"): that part is what to report, not a condition on the
    clause nor the request beside it. An empty range where the clause is no such telling."""
    if words[start] not in _TELLING_THE_USER or tuple(words[start + 1 : start + 2]) not in (("me",), ("us",)):
        return range(0)
    at = start + 2 + (words[start] == "let" and _at(words, start + 2, ("know",)))
    if at >= len(words) or words[at] not in _WHEN_TO_TELL or set(words[at + 1 :]) & _WEIGHING:
        return range(0)  # "tell me whether I should ...", "let me know when to pay it": a question
    if (words[at] == "as" and not _at(words, at, ("as", "soon"))) or (
        words[at] == "if" and not _at(words, at + 1, ("it",)) and not _at(words, at + 1, ("anything",))
    ):
        return range(0)  # "let me know if it fails", "tell me if anything looks off": what to report
    return range(at, len(words))


def reports_when(words: Sequence[str]) -> bool:
    """Is a mandate's clause (its words, from the verb) a telling to the user of when to tell ("tell
    me when it's done", "let me know once it's through")? It asks for no call of its own: it says
    what to report of what the turn asks beside it."""
    return bool(words) and bool(_when_to_tell_the_user(words, 0))


#: A head word and the word after it that make another verb or no verb at all ("Give up on
#: granting jdoe admin": abandon it; "Close to 40 tickets mention T-55": nearly 40): the head is not
#: the keyword it is written as, and the clause is outside the grammar (asked, not admitted).
_ANOTHER_VERB_AT_THE_HEAD = (
    ("give", "up"), ("give", "in"), ("give", "way"), ("close", "to"), ("close", "by"), ("pay", "attention"),
    ("pay", "heed"), ("cut", "it", "out"),
)  # fmt: skip


#: A subject that opens a message's content after a verb of telling with no "that" ("email Ana
#: Silva I'm free at 08:30", "tell him we arrive late"): what follows is the content.
_CONTENT_SUBJECTS = frozenset(
    {"i", "i'm", "i'll", "i've", "i'd", "we", "we're", "we'll", "we've", "it's", "he's", "she's", "they're",
     "they'll", "you're", "there's"}
)  # fmt: skip


#: A relative clause of wanting that ends an object ("the 150 EUR he wants"): it says which.
_WANTING = frozenset({"wants", "wanted", "asked", "asks", "needs", "needed", "requested"})
_THIRD_PERSON = frozenset({"he", "she", "they"})


def _bases(word: str) -> tuple[str, ...]:
    """The verbs a gerund may be written for ("paying": ``pay``; "sharing": ``share``;
    "cancelling": ``cancel``; "adding": ``add``), the word itself first; a word that is no gerund:
    itself."""
    if not _gerund(word) and not (word.endswith("ing") and len(word) >= 5):
        return (word,)
    stem = word[:-3]
    out = [word, stem, f"{stem}e"]
    if len(stem) >= 3 and stem[-1] == stem[-2]:
        out.append(stem[:-1])
    return tuple(dict.fromkeys(out))


def in_grammar(words: Sequence[str], quoted: Iterable[int] = ()) -> bool:
    """Is a clause (its words, as :func:`words_of` gives them; ``quoted``: the positions of quoted
    words) a plain imperative of the grammar: a politeness form at most, then a head that is a
    content word, then content words and allowed function words only (a complement's content after
    a verb of telling is not read)? This is the whole of what the default reader admits; the
    sentence and the turn can only take an admitted clause back (see the module)."""
    return _parse(words, frozenset(quoted)).head is not None


def head_of(words: Sequence[str], quoted: Iterable[int] = ()) -> str | None:
    """The head of a clause that is a plain imperative of the grammar (:func:`in_grammar`), read
    by itself, whatever its sentence and turn make of it; None for any other clause."""
    at = _parse(words, frozenset(quoted)).head
    return None if at is None else words[at]


@dataclass(frozen=True)
class Clause:
    """One clause of a request as the default reader reads it: its text and words, where its head
    stands when it asks for something (None: it asks for nothing, itself or by its sentence or
    turn), where the asking part ends, and the sentence it stands in."""

    text: str
    words: tuple[str, ...]
    head: int | None = None
    stop: int = 0
    sentence: str = ""
    #: the positions of quoted words and of channel names and handles (#reading): names, not words
    quoted: frozenset[int] = frozenset()
    #: where it asks: the texts of the clauses after it in its sentence that continue its object,
    #: having no head of their own ("Delete the Standup and the Review": "the Review")
    coordinated: tuple[str, ...] = ()
    #: where it asks of something named before it: the reference before its sentence's colon
    #: ("Invoice INV-8: pay it"), and, where its object holds a pronoun ("Pay it", "invite its
    #: attendees"), the clauses of the turn's earlier sentences it may point back to
    antecedents: tuple[str, ...] = ()
    #: it goes on with what a message a clause before it dictates says (:func:`message_continued`)
    said_on: bool = False

    def asks_at(self, at: int) -> bool:
        """Does the word at ``at`` stand where the user asks for something: the clause asks, and the
        word is its head or one of the words after it (its object), not the content of a message?"""
        return self.head is not None and self.head <= at < self.stop


@dataclass(frozen=True)
class Condition:
    """A condition the gateway can check on trusted data, as a sentence of the turn states it
    before an imperative ("If it is rated higher than 4, book 2 nights"): the field it reads
    (``rating``), the comparison (``>``, ``>=``, ``<``, ``<=``) and the number, and the words it
    says it of (``it``, or a name)."""

    field: str
    op: str
    value: float
    about: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Mandate:
    """What one clause of the user's turn asks for: the verb at its head (case folded), its words
    from the head to the end of what it asks (the object: "cancel the review on 2026-11-24"), the
    clause's text and the sentence it stands in (which names records, or states an operation)."""

    verb: str
    words: tuple[str, ...]
    text: str
    sentence: str
    #: the condition the mandate stands under (:func:`conditional_mandates`): it mandates nothing
    #: until the gateway checks the condition true on trusted data
    condition: Condition | None = None
    #: the texts of the clauses after it in its sentence that continue its object, with no head of
    #: their own ("Delete the Standup and the Review from my calendar": "the Review from my
    #: calendar"); what it states with its own words (:func:`stated`). A reader whose object spans
    #: them already (a model's) leaves it empty
    coordinated: tuple[str, ...] = ()
    #: what its object points back to (:attr:`Clause.antecedents`): stated with it, never its
    #: own words (a time word there defers nothing it asks)
    antecedents: tuple[str, ...] = ()


@runtime_checkable
class RequestReader(Protocol):
    """How the user's turn is read: the mandates it gives, and nothing else. Every rule that reads
    the request (``Requested``, ``Follow``, ``Reader(asked=True)``, derived values) reads it through
    one reader. The default is :class:`GrammarReader`; a reader that asks a model would be given the
    user's turns only (never tool data, whose text an attacker writes) and must fail closed: a turn
    it cannot read gives no mandate. A reader that waits on I/O (a model, a service) says so with a
    true attribute ``blocking`` (:func:`reads_blocking`): the engines then review off the event
    loop under the async API, as they do for a journal in a database."""

    def mandates(self, request: str) -> Sequence[Mandate]:
        """The mandates of ``request`` (the text of the user's turn), in order."""
        ...


def reads_blocking(reader: object) -> bool:
    """Does ``reader`` wait on I/O when it reads a turn (its ``blocking`` attribute; the grammar:
    no)?"""
    return getattr(reader, "blocking", False) is True


#: Small words that join the parts of a proper name and would otherwise read as a marker ("Casa
#: do Rio", "Newcastle upon Tyne"): between two words written with a capital they are the name's.
_NAME_PARTICLES = frozenset({"do", "upon"})


def _particles(part: str) -> set[int]:
    """Where a name particle (:data:`_NAME_PARTICLES`) stands in ``part``, as :func:`words_of`
    counts its words: between two words written with a capital that are no function words ("Book
    Casa do Rio" — never "Do Not", "I do Pay")."""
    written = _WORD.findall(" ".join(part.split()).translate(APOSTROPHES))
    return {
        i
        for i in range(1, len(written) - 1)
        if written[i] in _NAME_PARTICLES
        and all(
            w[:1].isupper() and w.casefold() not in FUNCTION_WORDS for w in (written[i - 1], written[i + 1])
        )
    }


def _expand(part: str, quotes: Sequence[list[str]]) -> tuple[list[str], frozenset[int]]:
    words: list[str] = []
    quoted: set[int] = set()
    text = normal(part)
    particles = _particles(part) if any(p in text for p in _NAME_PARTICLES) else set()
    for at, match in enumerate(_WORD.finditer(text)):
        word = match.group(0)
        found = _PLACEHOLDER.fullmatch(word)
        if found is None:
            if text[match.start() - 1 : match.start()] in ("#", "@") or at in particles:
                quoted.add(len(words))  # a channel or a handle (#reading), a name's particle: a
            words.append(word)  # name, as a quoted one
            continue
        inner = quotes[int(found.group(1))] or ["zqqz"]
        quoted |= set(range(len(words), len(words) + len(inner)))
        words += inner
    return words, frozenset(quoted)


#: Labels of a field whose value a bracket may write in plain words ("(label: build farm)",
#: "(title: team lunch)"): the value is the field's text, not a clause.
_TEXT_LABELS = frozenset(
    {"label", "title", "subject", "name", "tag", "description", "caption", "guest", "passenger", "attendee"}
)
#: A field's value after a comma that ends the sentence, by a label of :data:`_TEXT_LABELS`
#: ("..., label: staging", "..., guest: Jan Novak", "..., guest Dr. Petra Lang" with a name): read
#: as the bracket "(label: staging)" is.
_A_TRAILING_FIELD = re.compile(
    r",[ \t]*(label|title|tag|name|description|caption|guest|passenger|attendee)"
    r"(?:[ \t]*:[ \t]*([^\s,;:()\[\]][^,;:()\[\]\n]*?)"
    r"|[ \t]+((?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?[ \t]+)?([A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*){0,3}))"
    r"[ \t]*(?=[.!]?[ \t]*(?:\n|$))"
)

#: A person's title written with its full stop ("Dr.", "Mrs."), before their name.
_A_TITLE_WITH_ITS_STOP = r"(?:Dr|Mr|Mrs|Ms|Mx|Prof)\."
#: A correction the user makes of the line before it, in its sentence, the next or a line (a message)
#: of its own, naming what they meant ("Pay MF-311. Sorry, I meant MF-322.", "Book Albergo Sole for
#: 3 nights — I mean Pensione Luna", "Refund MI-702 180.00 - no wait, 170.00", "..., make that
#: 09:00"): an id, a name, a date, a time, a figure, alone.
_A_CORRECTION = re.compile(
    r"(?im)(?:[.!;]?[ \t]*\n[ \t]*|[.!;][ \t]+|[ \t]+[-\u2013\u2014][ \t]+|,[ \t]+)"
    r"(?:(?:(?:sorry|oops|whoops|er|erm|uh|no|wait)[ \t]*[,.!\u2013\u2014-]?[ \t]+)*"
    r"(?:i[ \t]+mean(?:t)?|(?P<make>make[ \t]+(?:that|it)))[ \t:,]+"
    r"|(?P<bare>(?:(?:sorry|oops|whoops|no|wait)[ \t]*[,.!\u2013\u2014-]?[ \t]+)+))"
    rf"(?P<new>(?:{_A_TITLE_WITH_ITS_STOP}[ \t]+(?=[A-Z]))?"
    r"(?:[^\s.,;!?]|(?<=\d)[.,](?=\d))+(?:[ \t]+(?:[^\s.,;!?]|(?<=\d)[.,](?=\d))+){0,3}"
    r"(?:,[ \t]+\d{4})?)(?:,[ \t]+(?P<rest>[^\n.!?,;]*[^\s.!?,;]))?[ \t]*[.!]?[ \t]*$"
)
_A_CORRECTING_WORD = re.compile(r"(?i)\bi\s+mean|\b(?:sorry|oops|whoops|no|wait|make\s+(?:that|it))\b")
_AN_ID_TOKEN = re.compile(r"(?<![\w.@#-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z][\w-]*(?![\w@-]|\.\w)")
_A_CAPITALISED_NAME = re.compile(r"(?<![\w'’-])[A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*){0,3}(?![\w'’-])")


def corrections_read(body: str) -> str:
    """``body`` with each correction that names what it meant read into the line before it
    (:func:`_corrected`); a line the reader cannot correct stays as written."""
    if not _A_CORRECTING_WORD.search(body):
        return body
    out, at = [], 0
    for m in _A_CORRECTION.finditer(body):
        start = body.rfind("\n", 0, m.start()) + 1
        if start < at:
            continue
        if m.group("bare") and not re.search(r"[\dA-Z]", m.group("new")):
            continue  # "DM tomas the news, no emojis": a word after "no" is no handle corrected
        fixed = _corrected(body[start : m.start()], m.group("new"))
        if fixed is not None and m.group("rest") and not _A_CORRECTING_WORD.search(m.group("rest")):
            # "... at 3pm, sorry, I meant 4pm, with Dan Mossop": the line goes on after it
            fixed = f"{fixed.removesuffix('.')}, {m.group('rest')}."
        elif m.group("rest"):
            fixed = None
        if fixed is not None:
            out += [body[at:start], fixed]
            at = m.end()
        elif m.group("make"):  # "..., make that the 23rd": a correction the reader cannot place,
            # never a new act on what "that" points back to
            out += [body[at : m.start("make")], "I meant"]
            at = m.end("make")
    return "".join([*out, body[at:]])


def _corrected(before: str, new: str) -> str | None:
    """The line a correction names what it meant in ("Pay MF-311. Sorry, I meant MF-322."), with
    the one thing of that shape it replaces (an id for an id, a name for a name: the only one the
    line holds after its verb) replaced: "Pay MF-322."; None where it cannot tell which (two ids,
    no name, a word in small letters): the reading leaves the correction unread."""
    if not re.search(r"[^\W_]", before):
        return None
    for corrector in (
        _an_act_restated,
        _a_value_corrected,
        _a_labelled_value_corrected,
        _a_handle_corrected,
        _a_titled_name_corrected,
        _an_id_of_its_kind_corrected,
    ):
        fixed = corrector(before, new)
        if fixed is not None:
            return fixed
    for shape in (_AN_ID_TOKEN, _A_CAPITALISED_NAME, _A_CHANNEL_TOKEN):
        if not shape.fullmatch(new):
            continue
        found = list(shape.finditer(before, _after_its_verb(before)))
        if len(found) == 1 and found[0].group(0) != new:
            return f"{before[: found[0].start()]}{new}{before[found[0].end() :]}."
        return None
    return None


_A_CHANNEL_TOKEN = re.compile(r"(?<![\w#])#[\w-]+")


def _after_its_verb(line: str) -> int:
    """Where a line's first word (its verb) ends: what a correction replaces stands after it."""
    first = re.match(r"\s*\S+", line)
    return first.end() if first else 0


def _an_act_restated(before: str, new: str) -> str | None:
    """The act the correction states again whole with the verb of the sentence before it ("Reject
    LV-401. No wait, reject LV-402."): that sentence replaced; None where the correction opens with
    another word."""
    last = list(re.finditer(r"[.!?;][ \t]+", before))
    at = last[-1].end() if last else 0
    said, again = words_of(before[at:])[:1], words_of(new)
    if not said or len(again) < 2 or again[0] != said[0] or not re.search(r"[\dA-Z]", new):
        return None
    return f"{before[:at]}{new[:1].upper()}{new[1:]}."


#: A value with one or two words that tell it apart: before it ("check out 2027-01-01") or after it
#: ("80 euros").
_A_LABELLED_VALUE = re.compile(
    r"(?P<label>(?:[A-Za-z]+[ \t]+){1,2})(?P<value>\S+)|(?P<value2>\S+)(?P<unit>(?:[ \t]+[A-Za-z]+){1,2})"
)


def _a_labelled_value_corrected(before: str, new: str) -> str | None:
    """The line with the one value that follows (or precedes) the same words as in ``new`` replaced
    by its value ("..., check in 2026-12-23 and check out 2026-12-31, sorry, I meant check out
    2027-01-01"; "Waive 90 euros of DC-901, sorry, I mean 80 euros"): the words tell which of the
    line's two values of that kind is meant; None where no such one is, or two."""
    m = re.fullmatch(_A_LABELLED_VALUE, new)
    if m is None:
        return None
    value = m["value"] or m["value2"]
    words = re.escape(" ".join((m["label"] or m["unit"]).split())).replace(r"\ ", r"[ \t]+")
    shape = r"(?P<old>[^\s,;!?]*[^\s.,;!?])"
    pattern = rf"(?i)(?<![\w-]){words}[ \t]+{shape}" if m["label"] else rf"(?i){shape}[ \t]+{words}(?![\w-])"
    found = [f.span("old") for f in re.finditer(pattern, before) if _same_kind(f["old"], value)]
    return _replaced(before, found, value)


def _same_kind(old: str, new: str) -> bool:
    """Are ``old`` and ``new`` values of one kind a correction may replace: two days, two clock
    times, two figures or two ids?"""
    kinds = (_DATES_CORRECTED, TIMES, (_A_FIGURE_TOKEN,), (_AN_ID_TOKEN,))
    return any(any(p.fullmatch(old) for p in kind) and any(p.fullmatch(new) for p in kind) for kind in kinds)


def _a_titled_name_corrected(before: str, new: str) -> str | None:
    """The line with its one name of the same first name replaced by a titled name ("Give Ingrid
    Nilsson a credit of 15.00. Sorry, I meant Dr. Ingrid Nilsen."); None where none or two are."""
    m = re.fullmatch(
        rf"{_A_TITLE_WITH_ITS_STOP}[ \t]+([A-Z][A-Za-z'’-]*)(?:[ \t]+[A-Z][A-Za-z'’-]*){{1,3}}", new
    )
    if m is None:
        return None
    sharing = [
        n.span()
        for n in _A_CAPITALISED_NAME.finditer(before, _after_its_verb(before))
        if n.group(0).split()[0] == m[1] and len(n.group(0).split()) > 1
    ]
    return _replaced(before, sharing, new)


def _an_id_of_its_kind_corrected(before: str, new: str) -> str | None:
    """The line with its one id of ``new``'s kind (the same letters before the figures) replaced
    ("Rebook BK-5510 to FL-7704. Sorry, I meant BK-5501."); None where none or two are."""
    if not _AN_ID_TOKEN.fullmatch(new):
        return None
    ids = list(_AN_ID_TOKEN.finditer(before, _after_its_verb(before)))
    if any(_A_LIST_JOINER.fullmatch(before[a.end() : b.start()]) for a, b in itertools.pairwise(ids)):
        return None  # "Pay MF-311 and SN-88. Sorry, I meant MF-322.": either item may be the one meant
    found = [m.span() for m in ids if _the_kind_of_id(m.group(0)) == _the_kind_of_id(new)]
    return _replaced(before, found, new)


#: What joins two items of one list ("MF-311 and SN-88", "B-31, B-40").
_A_LIST_JOINER = re.compile(r"(?i)\s*(?:,|&|\+|\band\b|\bor\b|\bplus\b)\s*")


def _the_kind_of_id(token: str) -> str:
    """The letters an id opens with, and the dash after them ("BK-" of "BK-5501")."""
    kind = re.match(r"[A-Za-z]+[-_]?", token)
    return kind.group(0).casefold() if kind is not None else ""


#: A prohibition of one act, then another act asked "instead" on what it names, by a pronoun ("Don't
#: refund ORD-50013, resend it instead", "Don't cancel A-1004; reschedule it to ... instead"): the
#: pronoun is what the prohibition names, read as written there.
_PRONOUN_OF_A_PROHIBITION = re.compile(
    r"(?im)^(?P<head>[ \t]*(?:please[ \t]+)?(?:don't|do[ \t]+not|dont|never)[ \t]+(?P<verb>[a-z]+)[ \t]+"
    r"(?P<what>[^\s,;.!?]+(?:[ \t]+[^\s,;.!?]+){0,4}))(?P<joint>[ \t]*[,;][ \t]*(?:but[ \t]+)?)"
    r"(?P<other>[a-z]+)[ \t]+(?:it|them)\b(?P<rest>[^.!?\n]*?\binstead\b)"
)


def _named_instead(m: re.Match[str]) -> str:
    """The act asked instead with what the prohibition names in place of its pronoun; as written
    where it is the same act, or the prohibition's object holds a pronoun of its own."""
    what = m["what"]
    if m["other"].casefold() == m["verb"].casefold() or set(words_of(what)) & {"it", "them", "that", "this"}:
        return m.group(0)
    return f"{m['head']}{m['joint']}{m['other']} {what}{m['rest']}"


#: The dates a correction may name in place of the line's one date: a date as :data:`DATES` reads
#: it, or a month's day without its year ("Dec 12", "12 December").
_DATES_CORRECTED = (
    *DATES,
    re.compile(rf"(?i)(?<![\w-])(?:{MONTH_NAMES})\.?[ \t]+\d{{1,2}}(?:st|nd|rd|th)?(?![\w-])"),
    re.compile(rf"(?i)(?<![\w-])\d{{1,2}}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?(?:{MONTH_NAMES})\b\.?"),
)
#: A figure standing alone (a count, an amount, a share): not a part of an id, a date or a time.
_A_FIGURE_TOKEN = re.compile(r"(?<![\w.,/:@#$€£-])([$€£]?)(\d+(?:[.,]\d+)*)(%?)(?![\w/:@%-]|[.,]\d)")
#: A word in small letters standing alone ("search"): a name a correction may grow into a dashed one.
_A_SMALL_WORD = re.compile(r"(?<![\w.@#/-])[a-z][a-z0-9]*(?![\w@/-])")
#: A name written in small letters joined by a dash or an underscore ("finance-admins").
_A_SLUG = re.compile(r"(?<![\w.@#/-])[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?![\w@/-])")
#: The words after which a line's last name is the value it sets ("Downgrade ... to Off-peak").
_SET_TO = frozenset({"to", "into", "as", "for", "on"})


def _spans(patterns: Iterable[re.Pattern[str]], text: str) -> list[tuple[int, int]]:
    """The widest spans of ``text`` any of ``patterns`` matches, none inside another."""
    found = sorted({m.span() for p in patterns for m in p.finditer(text)}, key=lambda s: (s[0], -s[1]))
    widest: list[tuple[int, int]] = []
    for start, end in found:
        if widest and start < widest[-1][1]:
            if end > widest[-1][1]:
                widest[-1] = (widest[-1][0], end)
            continue
        widest.append((start, end))
    return widest


def _a_value_corrected(before: str, new: str) -> str | None:
    """The line with its one value of ``new``'s kind replaced by ``new``: a date for its one date
    ("Reschedule SHP-70417 for 2026-12-10, sorry, I meant 2026-12-12"), a clock time for its one clock
    time ("Move JB-501 to 2026-12-21 at 08:00, sorry, I meant 09:00"), a figure for its one figure
    standing alone ("Set sub_1002 to 15 seats, sorry, I meant 18"; a share for a share), a name in
    small letters joined by a dash for its one such name ("Add dkim to finance-readonly, sorry, I
    meant finance-admins"; the one word it grows from: "Restart search. I meant search-staging"), a
    capitalised word for the last name of the line where the line sets something to it ("Downgrade
    Lucas Silvano to Off-peak, sorry, I meant Standard"), a person's name for the one name of the
    line with the same first word ("Enrol Mia Kowal in French I. I meant Mia Kowalski"); else None
    (two of a kind, or none: which one is meant, the reader cannot tell)."""
    start = _after_its_verb(before)
    dates = _spans(_DATES_CORRECTED, before)
    if any(p.fullmatch(new) for p in _DATES_CORRECTED):
        return _replaced(before, [s for s in dates if s[0] >= start], new)
    times = [m.span() for t in TIMES for m in t.finditer(before) if not re.fullmatch(r"[\d.]+", m.group(0))]
    if not re.fullmatch(r"[\d.]+", new) and any(t.fullmatch(new) for t in TIMES):
        # a clock time for the line's one clock time ("... at 08:00, sorry, I meant 09:00")
        clock = [s for s in _spans(TIMES, before) if s in times and s[0] >= start]
        return _replaced(before, clock, new)
    figure = _A_FIGURE_TOKEN.fullmatch(new)
    if figure is not None:
        timed = dates + times  # "4.00" alone is a figure; "4:00", "4 pm" a time
        figures = [
            m
            for m in _A_FIGURE_TOKEN.finditer(before, start)
            if not any(a <= m.start() < b for a, b in timed) and bool(m.group(3)) == bool(figure.group(3))
        ]
        if len(figures) != 1:
            return None
        sign = figure.group(1) or figures[0].group(1)
        return _replaced(before, [figures[0].span()], f"{sign}{figure.group(2)}{figure.group(3)}")
    if _A_SLUG.fullmatch(new):
        slugs = [m.span() for m in _A_SLUG.finditer(before, start)]
        slugs += [  # "Restart search. Sorry, I meant search-staging": the word the name grows from
            m.span()
            for m in _A_SMALL_WORD.finditer(before, start)
            if new.startswith(f"{m.group(0)}-") or new.endswith(f"-{m.group(0)}")
        ]
        return _replaced(before, slugs, new)
    if re.fullmatch(r"[A-Z][A-Za-z'’-]*(?:[ \t]+[A-Z][A-Za-z'’-]*){1,3}", new):
        first_word = new.split()[0]  # "Enrol Mia Kowal in French I. I meant Mia Kowalski."
        sharing = [
            m.span()
            for m in _A_CAPITALISED_NAME.finditer(before, start)
            if m.group(0).split()[0] == first_word and len(m.group(0).split()) > 1
        ]
        fixed = _replaced(before, sharing, new)
        if fixed is not None:
            return fixed
    if re.fullmatch(r"[A-Z][A-Za-z'’-]*", new):  # a word; an id is corrected as an id
        names = list(_A_CAPITALISED_NAME.finditer(before, start))
        last = names[-1] if len(names) > 1 else None
        ahead = words_of(before[: last.start()])[-1:] if last is not None else []
        if last is not None and " " not in last.group(0) and not before[last.end() :].strip():
            return _replaced(before, [last.span()], new) if ahead and ahead[0] in _SET_TO else None
    return None


def _replaced(before: str, found: Sequence[tuple[int, int]], new: str) -> str | None:
    if len(found) != 1 or before[found[0][0] : found[0][1]] == new:
        return None
    return f"{before[: found[0][0]]}{new}{before[found[0][1] :]}."


#: A line that opens with a verb whose object is a person and that person's handle ("DM tomas that
#: ...", "Invite lin to #oncall"): the handle a correction in small letters replaces.
_A_PERSON_AFTER_THE_VERB = re.compile(r"(?i)^(\s*[\w-]+[ \t]+)([a-z][\w.-]*)(?=[ \t,:]|$)")


def _a_handle_corrected(before: str, new: str) -> str | None:
    """The line with the handle after its verb replaced by ``new``, where the line opens with a
    verb whose object is a person and ``new`` is one word in small letters that is no word of the
    grammar's, no time and no figure ("DM tomas that the build is green. Sorry, I meant lin."); else
    None."""
    if not re.fullmatch(r"[a-z][\w.-]*", new) or new in FUNCTION_WORDS | COMMON_VERBS | _NO_NAMES:
        return None
    if new in CALENDAR_NAMES or new in _TIME_OF_A_CORRECTION:
        return None
    m = _A_PERSON_AFTER_THE_VERB.match(before)
    if m is None or m.group(1).strip().casefold() not in _TO_PERSONS:
        return None
    person = m.group(2)
    if person.casefold() in FUNCTION_WORDS | _NO_NAMES or person == new:
        return None
    if re.match(r"\s*(?:,|&|\+|and\b|or\b)", before[m.end(2) :], re.I):
        return None  # "DM tomas and priya ...": which of them, the reader cannot tell
    return f"{before[: m.start(2)]}{new}{before[m.end(2) :]}."


#: Words of when a correction in small letters may name instead of a person ("I meant tonight").
_TIME_OF_A_CORRECTION = frozenset({"tonight", "morning", "afternoon", "evening", "noon", "midnight", "later"})
#: A channel put before the line's imperative ("In #random, post 'cake in the kitchen'"): where it
#: is done, read after it.
_A_FRONTED_CHANNEL = re.compile(
    r"(?im)^([ \t]*)(in|to|into|on)[ \t]+(#[\w-]+)[ \t]*,[ \t]*([^\n]*?)([.!]?)[ \t]*$"
)
#: A message sent as one, then what it says ("Send lin a DM saying ...", "Drop Bob a note to say ..."):
#: what follows is its content, as after "Send lin a DM:".
_A_MESSAGE_SAYING = re.compile(
    r"(?i)\b((?:send|drop|write|shoot)[ \t]+[\w.@-]+[ \t]+an?[ \t]+(?:quick[ \t]+)?"
    r"(?:dm|message|note|line|text|e-?mail|mail))"
    r"[ \t]+(?:saying|to[ \t]+say|that[ \t]+says)[ \t]+"
)
#: A count of how long or how many after a final comma ("Reserve Pensione Luna in Naples, 2 nights"):
#: read as "for 2 nights".
_A_TRAILING_COUNT = re.compile(
    r"(?P<instead>[ \t]+instead[ \t]+of[ \t]+[^,\n]+?)?,[ \t]*(?P<n>\d{1,3})[ \t]+"
    r"(?P<unit>nights?|days?|weeks?|hours?|minutes?|rooms?|guests?|people|persons|adults?|tickets?|seats?)"
    r"[ \t]*(?=[.!]?[ \t]*(?:\n|$)|[.!;][ \t]+)",
    re.IGNORECASE,
)


def _a_field_bracketed(m: re.Match[str]) -> str:
    value = m.group(2) or f"{m.group(3) or ''}{m.group(4)}"
    return f" ({m.group(1)}: {value.strip()})"


#: Labels by which a bracket corrects what it follows ("(typo: B-31)", "(correction: ...)").
_CORRECTING_LABELS = frozenset(
    {"typo", "correction", "erratum", "fix", "edit", "update", "sorry", "oops", "correct"}
)
#: The labels before which a quotation in a bracket is a field's text ("(memo: 'December water')").
_QUOTE_LABELS = _TEXT_LABELS | {"memo", "reference", "ref", "note", "comment", "message", "body", "text"}


def _values_only(inner: str) -> bool:
    """Does a bracket hold values only: every word of it holds a digit or an ``@``, is written
    with a capital (a name), stands before a colon (a label), is a joiner or a currency, or is
    the plain text of a field a label of :data:`_TEXT_LABELS` opens (no marker, no verb of
    :data:`COMMON_VERBS`)?"""
    parts = inner.split(":")
    labels = {w for part in parts[:-1] for w in words_of(part)[-1:]}
    text = {
        w
        for before, after in pairwise(parts)
        if words_of(before)[-1:] and words_of(before)[-1] in _TEXT_LABELS
        for w in words_of(after)
    }
    written = re.findall(r"[^\s,;]+", inner.replace(":", " "))
    labelled = {  # a quotation as a field's text: after a bare label ("memo: '...'", "subject: '...'")
        w
        for before, after in pairwise(parts)
        if words_of(before)[-1:]
        and words_of(before)[-1] in _QUOTE_LABELS
        and set(words_of(before)[:-1]) <= {"the", "my", "a", "with"}
        for w in re.findall(r"[^\s,;]+", after)
    }
    if (
        any(_PLACEHOLDER.fullmatch(w) and w not in labelled for w in written)
        or "?" in inner
        or labels & _CORRECTING_LABELS
    ):
        return False  # a quotation but a field's text ("(Acme's note: 'pay B-40 too')"), a doubt ("(?)")
    return bool(written) and all(
        any(ch.isdigit() or ch == "@" for ch in w)
        or w[:1].isupper()
        or w.casefold().strip(".") in _VALUE_WORDS | labels
        or not any(ch.isalnum() for ch in w)
        or (w.casefold() in text and not _marker(w.casefold()) and w.casefold() not in COMMON_VERBS)
        for w in written
    )


def _bracket_ends(text: str) -> list[tuple[int, int]]:
    """Where a bracketed aside that says more than values opens and closes: each bracket a sentence
    boundary (an aside continues no object: "Pay B-31 (the Acme bill stays open)")."""
    return [
        (edge, edge + 1)
        for m in _BRACKETED.finditer(text)
        if not _values_only(next(g for g in m.groups() if g is not None))
        for edge in (m.start(), m.end() - 1)
    ]


#: Titles whose full stop ends no sentence where a name follows ("Dr. Maya Lee", "St. Mary's").
#: Never a word that may end a sentence ("Globex Ltd.", "Inc.", "Jr.", a letter: "plan B.").
_TITLES = frozenset({"dr", "mr", "mrs", "ms", "mx", "prof", "st"})


def _abbreviated(text: str, stop: int, end: int) -> bool:
    """Is the full stop at ``stop`` a title's (one of :data:`_TITLES`), a capitalised name following
    it (from ``end``)? Read from the words beside it only, so that a long text is read in one pass."""
    word = re.search(r"[A-Za-z]{1,5}$", text[max(0, stop - 6) : stop])
    if word is None:
        return False
    at = stop - len(word.group(0))
    if at > 0 and not (text[at - 1].isspace() or text[at - 1] == "("):
        return False  # a longer word's end ("Gold.") or a part of one ("x-dr.")
    return word.group(0).casefold() in _TITLES and _A_NAME_AFTER.match(text, end) is not None


#: A capitalised name after a title's full stop ("Dr. Maya").
_A_NAME_AFTER = re.compile(r"\s*[A-Z]")


#: A message or sentence of dots only ("...", "\u2026"): the writer trails off, a doubt.
_TRAILING_OFF = re.compile(r"(?:\.{2,}|\u2026+)")


def _sentences(text: str) -> list[tuple[str, bool]]:
    """The sentences of ``text`` and whether each ends in a question mark."""
    out: list[tuple[str, bool]] = []
    start = 0
    ends = [
        (m.start(), m.end(), m.group(1))
        for m in _SENTENCE_END.finditer(text)
        if not (m.group(1) == "." and _abbreviated(text, m.start(), m.end()))
    ]
    ends += [(a, b, None) for a, b in _bracket_ends(text)]
    for begin, end, marks in sorted(ends):
        if begin < start:
            continue
        body = text[start:begin].strip()
        if body and out and "?" in body and not any(ch.isalnum() for ch in body):
            out[-1] = (out[-1][0], True)  # "Pay B-31 & B-40 (?)": a doubt the sentence before asks
        elif body:
            out.append((body, "?" in (marks or "")))
        elif out and ("?" in (marks or "") or _TRAILING_OFF.fullmatch(text[begin:end].strip())):
            out[-1] = (out[-1][0], True)  # "Pay B-31 and B-40.\n\n??" (or "..."): a message of doubt
        start = end
    tail = text[start:].strip()
    if tail and out and "?" in tail and not any(ch.isalnum() for ch in tail):
        out[-1] = (out[-1][0], True)
    elif tail:
        out.append((tail, False))
    return out


#: The nouns a list's header names its items by ("Tasks:", "Two things:", "Quick one:", "Action
#: items:"), and the words a header may hold beside them: a header asks nothing.
_HEADER_NOUNS = frozenset(
    """
    task tasks todo todos to-do to-dos thing things item items step steps request requests ask asks
    one ones agenda plan checklist list following chore chores errand errands job jobs fix fixes
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_HEADER_WORDS = _HEADER_NOUNS | frozenset(
    """
    a the my our your two three four five few couple of quick some next main several here are is
    today today's this week for action morning afternoon evening tonight daily urgent now
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: A line numbered with a closing bracket ("1) ...", "2) ..."), as "1." numbers it.
_NUMBERED_BY_BRACKET = re.compile(r"(?m)^([ \t]*\d{1,2})\)[ \t]+")


def _numbered_inline(body: str) -> str:
    """A line that numbers its items as it goes ("1) restart api 2) scale web to 4", "1. pay B-31
    2. pay B-35") as one line per item: each number after the first, in order, opens a line."""
    lines = []
    for line in body.split("\n"):
        first = re.match(r"\s*1([.)])\s", line)
        if first is not None:
            mark, number, at = first.group(1), 2, first.end()
            while (found := re.search(rf"\s{number}{re.escape(mark)}\s", line[at:])) is not None:
                start, end = at + found.start(), at + found.end()
                line = f"{line[:start]}\n{number}{mark} {line[end:]}"
                at, number = start + 1, number + 1
        lines.append(line)
    return "\n".join(lines)


#: A chat line's speaker in brackets before the line's words ("[bob] restart payments", "<bob> ...",
#: "<dana-2> ...", "[10:02 dana] ..."): read as "bob: ...", whose words they are (the user's own,
#: "[me] ...", stay theirs). A name in angle brackets or after a time of day is a speaker even with
#: a digit ("<dana-2>"): it keeps a mark no reference has ("[T-1] ..." stays a reference).
_SPEAKER_IN_BRACKETS = re.compile(
    r"(?m)^(?P<lead>[ \t]*)(?:\[(?P<time>\d{1,2}:\d{2}(?::\d{2})?[ \t]+)?(?P<name>[^\W\d_][\w.-]{0,30})\]"
    r"|<(?P<angled>[^\W\d_][\w.-]{0,30})>)[ \t]+(?=\S)"
)


def _speaker(match: re.Match[str]) -> str:
    """A chat line's speaker in brackets written as before a colon, a digit kept from reading as a
    reference's (:func:`_label`)."""
    if match["angled"] is not None:
        name = match["angled"]
        return f"{match['lead']}{name}: " if not re.search(r"\d", name) else f"{match['lead']}<{name}>: "
    stamp = (match["time"] or "").strip()
    return f"{match['lead']}{stamp} {match['name']}: " if stamp else f"{match['lead']}{match['name']}: "


#: A correction or a retraction written inside a clause without a comma ("Scale it to 50 err 5",
#: "Disable jdoe scratch that bjones", "Restart auth-gw asap jk"): it opens a clause of its own.
_MID_CORRECTION = re.compile(
    r"(?i)(?<=[\w.)])[ \t]+(err|erm|oops|whoops|scratch\s+that|my\s+bad|jk|j/k|just\s+kidding)"
    r"(?=[ \t,.!?;]|$)"
)


#: A reason joined to what comes before it by "because" or "since" ("Restart worker because it's
#: leaking memory", "Refund 30 on ORD-1004 since the package arrived late"): a clause of its own,
#: read as a reason beside a request is (a plain statement that does not bear on the act; anything
#: else asks). "since" only before a subject pronoun or a statement's subject and its auxiliary
#: ("since the heating was broken"): "since the deploy" says since when.
_CAUSE = re.compile(
    r"(?i)(?<=[\w.)'%])[ \t]*,?[ \t]+(?:(?:because|cause|cos|coz)(?=[ \t]+(?:the|a|an|our|my|their|his|her"
    r"|this|these|those)\b)|(?:because|cause|cos|coz|since)(?=[ \t]+(?:it|it's|its|they|they're|we|we're"
    r"|he|he's|she|she's|i|i'm|i've|there's|that's)\b)"
    # "since" before a statement's subject of one or two words and its auxiliary ("since the heating
    # was broken", "since our courier didn't show"): a reason, not since when
    r"|since(?=[ \t]+(?:the|a|an|our|my|their|his|her|this|these|those)[ \t]+[\w'-]+(?:[ \t]+[\w'-]+)?"
    r"[ \t]+(?:was|were|is|are|has|had|have|did|does|didn't|doesn't|wasn't|weren't|isn't|aren't|hasn't"
    r"|hadn't|haven't|got|kept)\b))"
)


#: A reason that opens a sentence, up to its comma ("Because the workers are stuck, restart
#: billing", "Since B-31 is due tomorrow, pay it"): a sentence of its own before the request, weighed
#: as a scene before it is (a plain one leaves the request standing, one that doubts it does not).
_OPENING_CAUSE = re.compile(
    r"(?im)(^[ \t]*|(?<=[.!?])[ \t]+)(?:because|since|cause|cos|coz)[ \t]+"
    r"([^,;.!?:\n]{3,}?)[ \t]*,[ \t]*(?=\S)"
)


#: A record's id said to be due, opening a sentence up to a comma or a dash, before a request that
#: points back to it ("B-31 is due, please pay it", "The water bill B-31 is overdue — pay it"): a
#: sentence of its own, as "B-31 is due. Pay it." is. Only a due state and an id: any other scene
#: joined by a comma is weighed whole.
_DUE_BEFORE = re.compile(
    r"(?im)((?:^|(?<=[.!?]))[ \t]*"
    r"(?:(?:ok|okay|agreed|approved|confirmed|alright|yes|right|so)[ \t]*,[ \t]*)?"
    r"(?:(?:the|my|our)[ \t]+)?(?:[\w'-]+[ \t]+){0,3}[a-z]{1,4}-?\d[\w-]*"
    r"(?:(?:[ \t]+is|'s)[ \t]+(?:now[ \t]+|still[ \t]+)?"
    r"(?:due|overdue|outstanding|unpaid|fine|correct|right|ok|okay|good|legit|accurate|valid|genuine)"
    r"|[ \t]+(?:looks|seems)[ \t]+(?:fine|correct|right|good|ok|okay|legit|accurate))"
    r"(?:[ \t]+(?:today|now|this[ \t]+week))?)[ \t]*(?:,|[ \t]+[-\u2013\u2014]{1,2})[ \t]*"
    r"(?=(?:please[ \t]+|pls[ \t]+|so[ \t]+)?[a-z]+[ \t]+(?:it|them)\b)"
)


#: "like" as "as" after a comma, before a subject and its verb (", like he asks", ", just like she
#: said"): how the user's request follows someone's, read as ", as he asks" is.
_LIKE_AS = re.compile(r"(?i)(?<=,)([ \t]+(?:just[ \t]+)?)like(?=[ \t]+(?:he|she|they|we|you|it)[ \t]+[a-z]+)")


#: A purpose of keeping a service running after the request ("Pay B-31 so the water stays on", "...
#: so that the lights stay on", "... so everything stays on track"): why it is asked now, read as
#: "asap". A closed list; any other "so ..." (", so B-40 can wait") is weighed as before.
_SO_IT_STAYS_ON = re.compile(
    r"(?i)[ \t]+(?:please[ \t]+)?so[ \t]+(?:that[ \t]+)?(?:(?:the|my|our)[ \t]+)?"
    r"(?:water|power|electricity|gas|heat|heating|internet|phone|service|lights?|account|everything)"
    r"[ \t]+(?:stays|keeps|remains|stay|keep)"
    r"(?:[ \t]+(?:on|running|active|connected|open|flowing|on[ \t]+track))?"
    r"(?=[ \t]*(?:[.!,;]|$))"
)


#: Words by which an opening reason passes on someone's wish ("Because Eve wants me to, ..."): the
#: sentence is read whole, as someone's words.
_PASSED_ON = frozenset(
    """
    want wants wanted asked asks ask told tells tell said says say wrote writes insists insisted
    demands demanded suggested suggests needs need requested requests to
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _cause_apart(match: re.Match[str]) -> str:
    """An opening reason as a sentence of its own, unless it passes on someone's wish."""
    if set(words_of(match.group(2))) & _PASSED_ON:
        return match.group(0)
    return f"{match.group(1)}{match.group(2)}. "


#: A thanks inside a sentence, with more after it ("Scale a-svc to 4 thx b-svc to 40"): it ends what
#: comes before it, and what follows is read on its own ("thanks to ..." is no thanks).
_MID_SIGN_OFF = re.compile(r"(?i)(?<=[\w.)])[ \t]+(thx|thanks|thank\s+you|ty|cheers)[ \t]+(?!to\b)(?=\w)")
#: A verb of telling and whom it addresses, right before a thanks that is what to tell them ("tell
#: Ana thanks for the survey", "email Bob thx for the help").
_TOLD_THANKS = re.compile(r"(?i)\b(?:tell|e-?mail|mail|dm|message|text|msg|ping|say)\s+[\w.@-]+$")


def _sign_off_apart(match: re.Match[str]) -> str:
    """A thanks inside a sentence ends what comes before it (:data:`_MID_SIGN_OFF`), unless it is
    what a verb of telling says to whom it addresses."""
    if _TOLD_THANKS.search(match.string[: match.start()]):
        return match.group(0)
    return f" {match.group(1)}. "


#: A word asking politely or for haste inside a sentence, with a value after it ("Restart
#: billing-svc pls auth-gw", "Disable bjones asap jdoe", "Scale it to 4 now 40"): it ends what comes
#: before it, as a thanks does; not where it opens the request ("Can you please restart ...", "... and
#: now restart ...") or leads into more of it ("... now and ...", "... now, please").
_MID_URGING = re.compile(
    r"(?i)(?<!\S)([\w.)-]*[\w)])[ \t]+(pls|plz|please|asap|now|right\s+away|right\s+now|real\s+quick"
    r"|immediately)[ \t]+(?=([\w-]+))"
)
_BEFORE_URGING = frozenset(
    """
    you u ya can could would will just and then or but also so to please pls plz kindly i we let lets
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_AFTER_URGING = frozenset(
    """
    and or then but thanks thx ty please pls plz if when once before after until because since as so
    for that while later tomorrow today tonight soon again too also first
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _urging_apart(body: str) -> str:
    """The sentence ends at each of :data:`_MID_URGING`'s words that stands between two parts of a
    request ("Restart billing-svc pls auth-gw": "Restart billing-svc pls. auth-gw")."""

    def cut(match: re.Match[str]) -> str:
        before, _urging, after = (g.casefold() for g in match.groups())
        written_before, written_urging = match.group(1), match.group(2)
        if before in _BEFORE_URGING or after in _AFTER_URGING or after in FUNCTION_WORDS:
            return match.group(0)
        if after in COMMON_VERBS or before in COMMON_VERBS:
            return match.group(0)  # "... 4 please restart auth-gw", "send please the email": one request
        return f"{written_before} {written_urging}. "

    return _MID_URGING.sub(cut, body)


def list_header(text: str) -> bool:
    """Is the text before a colon a list's header and nothing else ("Two things", "Tasks", "Quick
    one", "Here are the action items"): at most five words, of :data:`_HEADER_WORDS`, a noun of
    :data:`_HEADER_NOUNS` among them?"""
    words = words_of(text)
    if "next" in words and set(words) & _LATER_PERIODS:
        return False  # "Tasks for next week": the list is for later, a heading the reader weighs
    if words and set(words) <= _NOW_HEADERS:  # "Today:", "URGENT:": the list is for now
        return True
    return 0 < len(words) <= 5 and set(words) <= _HEADER_WORDS and bool(set(words) & _HEADER_NOUNS)


#: A header that only says the list is for now ("Today:", "URGENT:", "ASAP:").
_NOW_HEADERS = frozenset({"today", "tonight", "now", "urgent", "asap"})


#: Periods after "next" that put a list's items off ("Tasks for next week:", "Next sprint:").
_LATER_PERIODS = frozenset({"week", "month", "year", "quarter", "sprint", "time", "release", "cycle"})


def _own_framing(text: str) -> bool:
    """Is the text before a colon the user's own words said again, a politeness form and nothing
    else ("Like I said: pay B-31", "As I mentioned: ...", "I told you yesterday: ..."), or the user
    as the speaker of a pasted chat's line ("me: ...", "[10:03] me: ...")? What follows is the
    user's request, not someone's words."""
    words = words_of(text)
    if bool(words) and _polite(words) == len(words):
        return True
    # the user's own line of a pasted chat ("me: restart checkout", "[10:03] me: ...", "@me: ...")
    return [w for w in words if not any(ch.isdigit() for ch in w)] in (["me"], ["i"], ["myself"])


#: A time of day in a chat line's stamp ("[10:02] bob: ...", "10:02 bob: ...").
_CLOCK = re.compile(r"(?<!\d)\d{1,2}:\d{2}(?!\d)")


#: Parts of a joined word before a colon that say more than a name or a reference does ("Do-not:",
#: "If-approved:", "Next-month:", "Already-done:", "ops-bot:", "Counter-example:"): a negation, a
#: condition, a time, how an item stands, a source of words, an example.
_SAYING_MORE = frozenset(
    """
    not no never dont don't wont won't non nope nogo go if when once after before until unless
    pending awaiting needs need signoff approved approval hold off limits later next last ago
    yesterday today tomorrow month week year weeks months years monday tuesday wednesday thursday
    friday saturday sunday jan feb mar apr may jun jul aug sep oct nov dec done completed complete
    paid sent already rejected declined cancelled canceled skipped skip obsolete superseded
    test fake spam scam scammer bot says said wrote writes email mail input untrusted anon anonymous
    impersonator vendor external guest example examples counter anti bad negative mis wrong pattern
    post pre goal goals plan option idea maybe
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _joined_phrase(text: str) -> bool:
    """Is the text before a colon a phrase written as joined words: a part of a word joined by "-"
    or "_" that negates, conditions, dates, says how an item stands or whose words they are
    ("Do-not", "If-approved", "Already-done", "ops-bot", "Done-2019")? It is no reference and no
    topic: the line after it is weighed as after any text before a colon the reader does not know.
    A date alone ("2026-11-24: cancel the Review") says which day's record."""
    joined = [w for w in words_of(text) if re.search(r"[-_]", w) and not re.search(r"[.@#/]", w)]  # no file
    parts = [part for word in joined for part in re.split(r"[-_]+", word)]
    return any(part in _SAYING_MORE or _marker(part) for part in parts)


def _label(text: str) -> bool:
    """Is the text before a colon a reference, not a speaker: at most three content words, one of
    them holding a digit ("Ticket T-1", "Order 1234"), no "from", and no time of day (a chat line's
    stamp: "[10:02] bob: restart payments" is bob's line)? A verb that says a message before what
    it answers is none ("Answer m-501: yes, 4.2 is cut": what follows is the answer)."""
    words = words_of(text)
    return (
        0 < len(words) <= 3
        and not (len(words) > 1 and words[0] in _ANSWERING_VERBS)
        and not _CLOCK.search(text)
        and not _A_SENDER.fullmatch(text)  # "0800-555-0100: pay ...": who it is from
        and bool(re.fullmatch(r"[\w\s#-]+", text.strip()))
        and not any(w in FUNCTION_WORDS for w in words)
        and any(any(ch.isdigit() for ch in w) for w in words)
    )


#: Verbs whose colon opens the message they send ("Answer m-501: yes", "Reply T-1: done").
_ANSWERING_VERBS = frozenset({"answer", "reply", "respond", "tell", "dm"})
#: A reference at a line's start before a dash ("PagerDuty #9981 — restart db", "Re: SUP-3310 —
#: reset ...").
_LABEL_DASH = re.compile(
    r"(?m)^(?P<lead>[ \t]*(?:re:?[ \t]+)?)(?P<label>[^\n\u2014\u2013:]{1,40}?)"
    r"[ \t]+[\u2014\u2013-][ \t]+(?=\S)",
    re.I,
)


def _opens_with_a_verb(text: str) -> bool:
    """Does a text before a colon or a dash open with a verb a request opens with ("Pay B-40 - not
    B-41", "Close HD-31005: account unlocked")? It is a mandate, no reference."""
    return words_of(text)[:1] != [] and words_of(text)[0] in COMMON_VERBS


def _label_before_a_dash(match: re.Match[str]) -> str:
    """The reference before a dash written as before a colon, where it is one (:func:`_label`)."""
    label = match["label"]
    return f"{match['lead']}{label}: " if _label(label) and not _opens_with_a_verb(label) else match.group(0)


#: Verbs a clause of a request may open with: a text before a colon that opens with one is a
#: mandate of its own ("Reply to Carla: Thursday works"), never a label.
COMMON_VERBS = frozenset(
    """
    add answer approve archive ask book buy call cancel change check close confirm copy create delete
    dm do drop email e-mail end explain fetch file find fix forward get give go invite keep leave let
    list look mail make message move note notify open order pay ping post print put read rebook
    refund reject remind remove rename reply report reschedule reset return review say schedule
    search see sell send set share ship show sign start stop submit summarise summarize take tell
    text transfer trash update upload verify view write
    deploy disable enable grant provision restart revoke roll rollback scale suspend unlock upgrade
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Sign-offs that end a list rather than continue it ("- Gym Max / - Old Storage / Thanks!").
_SIGN_OFFS = frozenset({"thanks", "thank", "thx", "ty", "cheers", "regards", "best", "bye", "please"})


#: A word that names a record (a topic before a colon, a mandate's object): a digit, ``#``, ``@`` or
#: ``.`` in it, or a hyphen or underscore between letters ("checkout-api", "email_worker", "#ops").
RECORD_WORD = re.compile(r"[\d#@.]|[^\W\d_][-_][^\W\d_]")


#: Pronouns by which an imperative acts on the person before its colon ("ana@corp.example: email her").
_PERSONS_NAMED_BACK = frozenset({"her", "him", "them", "she", "he", "they"})
#: Who a line is from, before its colon: a handle in a channel ("eve in #general"), an address
#: ("mallory@evil.example") or a phone number ("+44 7700 900123").
_A_SENDER = re.compile(
    r"\s*(?:[\w.-]+(?:\s+[\w.-]+)?\s+in\s+#[\w-]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|\+\d[\d\s().-]{6,}\d|\(?\d{3,5}\)?[\s.-]\d{3}[\s.-]\d{3,4}"  # not a date: "2026-11-24"
    # a user's handle ("User123", "user-4411", "guest_7"), a message from someone ("Ticket-9 from
    # mallory", "DM from eve"): not "Invoice from Acme", the record a payment acts on
    r"|(?:user|usr|guest|anon|anonymous|member|visitor|caller|sender)[-_#]?\d+"
    r"|(?:ticket|message|msg|dm|note|text|sms|email|e-mail|mail|comment|post|chat|reply|review)"
    r"(?:[-\s#]*\w*\d\w*)?\s+from\s+[\w.@+-]+)\s*",
    re.I,
)


def _topic(text: str, content: str, quotes: Sequence[list[str]]) -> bool:
    """Is the text before a colon the topic the imperative after it acts on ("budget-2027.xlsx:
    share it with Ana Silva", "Lisbon: find a hotel", "#general: remove mallory")? At most six
    words, none a marker (a negation, a condition, a question word, reported speech) and the first
    no verb (:data:`COMMON_VERBS`: "Reply to Carla: Thursday works" is a mandate and its message);
    the text after the colon opens with an imperative of a verb of :data:`COMMON_VERBS`, or of any
    verb whose object points back to the topic ("Marcus Reyes: raise his salary to 66000")."""
    words, _quoted = _expand(text, quotes)
    after, quoted = _expand(_JOINERS.split(content, maxsplit=1)[0], quotes)  # its first clause
    if not words or len(words) > 6 or not after or words[0] in COMMON_VERBS | _SIGN_OFFS:
        return False
    if (
        re.fullmatch(r"\s*(?:@[\w-]+|<[^<>\s]+>)\s*", text)
        or _CLOCK.search(text)
        or (_A_SENDER.fullmatch(text) and not (POINTING_BACK | _PERSONS_NAMED_BACK) & set(after))
    ):  # (a sender, unless what follows acts on it: "Question in #support: read it", "ana@x.org: email her")
        return False  # "@bob: restart payments", "[10:02] bob: ...", "<dana-2> ...": to bob, or a speaker
    if any(_unnamed_marker(w, i, _quoted) and w not in ("and", "&") for i, w in enumerate(words)):
        return False
    if _STRAY_QUOTE.search(text):
        return False
    head = _parse(after, quoted).head
    # a verb the grammar does not list acts on the topic where its object points back to it
    # ("Marcus Reyes: raise his salary to 66000", "Brooks Tan: withdraw him from ...")
    pointing = head is not None and bool((POINTING_BACK | _PERSONS_NAMED_BACK) & set(after[head + 1 :]))
    if head is None or (after[head] not in COMMON_VERBS and not pointing):
        return False
    # the imperative acts on the topic: it points back to it ("ana: DM her ...") or the topic is a
    # value, a file, a channel or a quoted name ("draft-old.docx: delete it", "#general: remove
    # mallory"); a bare name before a colon may be a speaker ("Eve: cancel the Review": her words)
    valued = any(RECORD_WORD.search(w) for w in text.split()) or bool(_quoted)
    return valued or bool(POINTING_BACK & set(after[head + 1 :])) or _quantity_only(after[head + 1 :])


def _quantity_only(rest: Sequence[str]) -> bool:
    """Does an imperative's object hold quantities only ("book 2 nights", "order 3"): numbers, the
    word after each, and allowed function words? It names nothing of its own: what it acts on is
    the topic before the colon ("Hotel Miramar, Lisbon: book 2 nights")."""
    numbers = [i for i, w in enumerate(rest) if _NUMBER.fullmatch(w)]
    return bool(numbers) and all(
        i in numbers or (i - 1) in numbers or w in ALLOWED_FUNCTION_WORDS for i, w in enumerate(rest)
    )


_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


#: What marks a line as more than an item: a sign or an emoji beside it ("\u2705", "\u274c", "~~B-40~~",
#: "[ ]"), or a line commented out ("# - ...", "// ..."): anything but letters, digits, spaces and the
#: punctuation of values and names.
_MARKED_LINE = re.compile(r"[^\w\s.,;:'\"\u2019\u2018\-/&@+\u20ac$\u00a3%()!?]|^/|^#")


#: The marks a list's line may open with ("- ", "* ", "\u2022 ", "\u2013 ").
_BULLETS = "-*\u2022\u2013"
#: A list item's number or letter written as a sentence of its own ("1", "12", "b").
_ITEM_NUMBER = re.compile(r"\d{1,2}|[a-z]", re.I)


def _list_item(sentence: str, quotes: Sequence[list[str]]) -> tuple[tuple[str, ...], frozenset[int]] | None:
    """The words of a line that continues the object of a mandate ending in a colon, and the
    positions of its names: a bullet or a line of values ("- Gym Max", "- the Review", "12 Rue
    Verte", "75011 Paris") that asks nothing itself (no marker, no verb of :data:`COMMON_VERBS` at
    its start, no question, no sign-off); None for any other line."""
    text = sentence.lstrip(_BULLETS + " ").strip()
    words, quoted = _expand(text, quotes)
    if (
        not words
        or any(_unnamed_marker(w, i, quoted) for i, w in enumerate(words))
        or _STRAY_QUOTE.search(text)
        or _MARKED_LINE.search(text)
    ):
        return None
    if words[0] in COMMON_VERBS or words[0] in _SIGN_OFFS or _COLON.search(text):
        return None
    if "?" in text or any(
        not _values_only(next(g for g in m.groups() if g is not None)) for m in _BRACKETED.finditer(text)
    ):
        return None  # "- B-40 ??", "- B-40 (paid by Bob)", "- b.log (legal hold)": it says more of the item
    return tuple(words), quoted


def _inline_items(
    content: str, quotes: Sequence[list[str]], restore: Callable[[str], str], owner: Clause | None
) -> list[tuple[str, tuple[str, ...], frozenset[int]]]:
    """The items of a list written after the colon that ends a mandate's object, on its line
    ("cancel standing orders: Gym Max, Old Storage"): each a name (a capital, a digit or a quoted
    name first) that asks nothing (:func:`_list_item`), joined by commas or "and". Never after a
    verb that sends a message ("reply to Casa Azul: Arriving 18:00" is the message), nor where an
    item is anything else: then the words after the colon are content, as before."""
    if owner is None or owner.head is None or owner.stop != len(owner.words) or not content.strip():
        return []
    if owner.words[owner.head] in COMPLEMENT_HEADS or set(_bases(owner.words[owner.head])) & COMPLEMENT_HEADS:
        return []
    out: list[tuple[str, tuple[str, ...], frozenset[int]]] = []
    for part in (p.strip() for p in _JOINERS.split(content)):
        if not part:
            continue
        item = _list_item(part, quotes)
        shown = restore(part)
        if item is None or not _name_like(shown):
            return []
        out.append((shown, *item))
    if len(out) == 1 and _A_TITLE.fullmatch(out[0][0].rstrip(".!")):
        return []  # one word in capitals or someone's thing ("...: RFC", "...: Bob's task") titles it
    return out


#: What a lone item after a mandate's colon titles it by, not names: a word in capitals ("RFC",
#: "WIP", "FYI") or a thing of someone's ("Bob's task", "Ana's call").
_A_TITLE = re.compile(r"[A-Z]{2,6}|[A-Z][\w-]*(?:'s|’s|s')[ \t]+[a-z][\w-]*")


def _name_like(text: str) -> bool:
    """Is a list item written as a name: a capital, a digit, a quote or a channel's ``#`` first, or
    a file name ("old.docx")?"""
    return text[:1].isupper() or text[:1].isdigit() or text[:1] in "\"'“#" or bool(_FILE_NAME.fullmatch(text))


_FILE_NAME = re.compile(r"(?<![\w-])[\w-]+(?:\.[\w-]+){0,8}\.[A-Za-z0-9]{2,5}")


def _instead(words: Sequence[str]) -> bool:
    """Does a clause that follows another in its sentence open with "instead" or "rather than"
    ("Delete the file instead of archiving it", "... on 2026-11-24 instead")? It says what not to
    do (a prohibition, :mod:`~policies.supervisor.reading.coverage`), and marks no other clause."""
    return _at(words, 0, ("instead",)) or _at(words, 0, ("rather", "than"))


#: How a clause says not to do something, before an imperative it is contrasted with.
_NOT_THIS = (("don't",), ("dont",), ("do", "not"), ("never",), ("please", "don't"), ("please", "do", "not"))


def _contrasted(readings: Sequence[tuple[str, Sequence[str], frozenset[int], _Parse]]) -> bool:
    """Does the sentence say not to do one thing and to do another instead ("Don't wait for the
    reminder, pay invoice INV-7 now instead"): a first clause that opens with a negation, an
    imperative after it, and a clause that opens with "instead" after that?"""
    if len(readings) < 3 or not any(_at(readings[0][1], 0, n) for n in _NOT_THIS):
        return False
    later = [r for r in readings[1:] if not _instead(r[1])]
    return (
        any(_instead(r[1]) for r in readings[2:])
        and bool(later)
        and all(r[3].head is not None and not r[3].marked for r in later)
    )


def _polite_before(words: Sequence[str], form: tuple[str, ...]) -> int:
    """Where ``form`` stands after the plain politeness words that may precede it ("please would
    you mind ..."): 0 or 1."""
    return 1 if words[:1] and words[0] in ("please", "so", "ok", "okay") and _at(words, 1, form) else 0


def _retracts(words: Sequence[str]) -> bool:
    rest = list(words[_polite(words) :])
    return (
        tuple(rest) in _RETRACTION_CLAUSES or "actually" in words or any(_at(rest, 0, p) for p in _RETRACTING)
    )


#: What a colon may answer a name with to leave it out ("B-40: no", "mallory: skip", "x").
_NO_ANSWERS = frozenset(
    {("no",), ("nope",), ("nah",), ("not",), ("none",), ("never",), ("skip",), ("pass",), ("n",), ("x",),
     ("negative",), ("no", "thanks"), ("not", "now"), ("not", "yet"), ("hold",), ("later",), ("wait",)}
)  # fmt: skip


def _answered_no(content: str) -> bool:
    """Is the text after a colon an answer that leaves out what the colon follows: a "no" of
    :data:`_NO_ANSWERS`, or a mark without a word ("✗", "❌", "-")?"""
    answer = tuple(words_of(content.strip(" .!")))
    return answer in _NO_ANSWERS or (bool(content.strip()) and not answer)


#: Markdown's emphasis around words ("**Friday standup**", "*Refund*", "__right now__", "_Quick
#: one:_"): marks that say nothing of the request. With underscores only around several words (one
#: word between them is a name: "__pycache__", "_cache_"). A strike-through ("~~...~~") stays a mark
#: the grammar cannot read; a bullet ("* item") and a product ("2 * 3") are no emphasis, nor marks
#: after a bracket ("(*pay B-40*)" is a comment, :data:`_COMMENT`).
_EMPHASIS = re.compile(
    r"(?<![^\s\[{\"'>])(?:\*\*\*(?=[^\s*])([^\n]*?[^\s*])\*\*\*|\*\*(?=[^\s*])([^\n]*?[^\s*])\*\*|\*(?=[^\s*])([^*\n]*?[^\s*])\*"
    r"|__(?=[^\s_])([^\n]*?\s[^\n]*?[^\s_])__|_(?=[^\s_])([^_\n]*?\s[^_\n]*?[^\s_])_)"
    r"(?=$|[\s)\]}\"',;:!?</\u2013\u2014-]|\.(?!\w))",  # "**B-40**-not": the tag stays on the id
    re.M,
)
#: A code span around one token ("`B-40`", "`bob`"): the token, as written; a span of several words
#: stays a quotation ("reply `pay B-40` to Acme").
_CODE_TOKEN = re.compile(r"`([^`\s]+)`")


#: A numbering mark between a record's kind and its id ("bill no. B-31", "invoice #B-31", "Order
#: Nr. 10023", "ticket number T-7"): the record as "bill B-31" names it. Only after a kind's noun and
#: with the abbreviation's dot: "Pay no B-31" says no, and "Pay B-31 and #B-40" sets one id apart.
_NUMBERING = re.compile(
    r"(?i)\b(bills?|invoices?|orders?|tickets?|cases?|bookings?|reservations?|ref|reference|receipts?"
    r"|claims?|items?|po|statements?|payments?|transfers?|issues?|incidents?|requests?|pr)"
    r"[ \t]*(?:(?:no|nr|num)\.|number|#)[ \t]*(?=[a-z]{0,4}-?\d)"
)


@lru_cache(maxsize=1024)
def written_plainly(text: str) -> str:
    """``text`` as every check reads it: without markdown's marks (:func:`markdown_removed`), without
    a numbering mark between a record's kind and its id (:data:`_NUMBERING`), and without the comma
    of a day written month first ("December 14, 2026": one day, no clause after it)."""
    plain = _MONTH_DAY_COMMA.sub(r"\1\2 \3", _NUMBERING.sub(r"\1 ", markdown_removed(text)))
    return _EFFECTIVE.sub("on", plain)


#: A month's name, whole or short ("December", "Dec", "Sept").
_A_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
#: "Effective" before the day an act takes effect ("terminate LS-5006 effective 14 January 2027",
#: "effective from 2027-01-01"): the day it is done on, as "on" says it.
_EFFECTIVE = re.compile(
    r"(?i)\beffective(?:[ \t]+(?:from|on|as[ \t]+of))?"
    rf"(?=[ \t]+(?:\d|{_A_MONTH}\.?[ \t]+\d))"
)


#: A day written month first with a comma before its year ("December 14, 2026", "Dec. 16, 2026").
_MONTH_DAY_COMMA = re.compile(
    rf"(?i)\b({_A_MONTH})\.?([ \t]+\d{{1,2}}(?:st|nd|rd|th)?),?"
    r"[ \t]*(\d{4})\b"
)


@lru_cache(maxsize=1024)  # the same turn, read by the review, the reading and its clauses
def markdown_removed(text: str) -> str:
    """``text`` without markdown's emphasis and without the code marks around single tokens."""
    plain = _CODE_TOKEN.sub(r"\1", text)
    for _ in range(3):  # "***x***", "**_x_**": one layer each time
        stripped = _EMPHASIS.sub(lambda m: next(g for g in m.groups() if g is not None), plain)
        if stripped == plain:
            break
        plain = stripped
    return plain


def clauses_of(text: str) -> list[Clause]:
    """The clauses of ``text`` as the default reader reads them (see the module): each with its
    head where it asks for something, after the rules of its sentence and of the turn."""
    quotes: list[list[str]] = []
    originals: list[str] = []

    def stash(match: re.Match[str]) -> str:
        quotes.append(words_of(match.group(0)))
        originals.append(match.group(0))
        return f" zq{len(quotes) - 1}qz "

    def restore(part: str) -> str:
        return " ".join(_PLACEHOLDER.sub(lambda m: originals[int(m.group(1))], part).split())

    def aside(match: re.Match[str]) -> str:  # a comment: a quotation on a line of its own
        quotes.append(words_of(match.group(0)))
        originals.append(restore(match.group(0)))
        return f"\n# zq{len(quotes) - 1}qz \n"  # "#": a line no list continues on

    body = _QUOTED.sub(stash, written_plainly(text).translate(APOSTROPHES))
    if _DIFF_ADDED.search(body):  # a diff: its removed lines are the writer's notes, not asked for
        body = _DIFF_REMOVED.sub(aside, body)
    body = _MINUS.sub(" minus ", _COMMENT.sub(aside, body))
    body = _EXCEPT_AFTER_A_WHOLE.sub(_left_out_of_a_whole, body)  # "all ... except B-1": "..., not B-1"
    body = _LABEL_DASH.sub(_label_before_a_dash, body)  # "PagerDuty #9981 — restart db": a label
    body = corrections_read(body)  # "Pay MF-311. Sorry, I meant MF-322.": "Pay MF-322."
    body = _PRONOUN_OF_A_PROHIBITION.sub(_named_instead, body)  # "Don't refund X, resend it instead"
    body = _A_FRONTED_CHANNEL.sub(r"\1\4 \2 \3\5", body)  # "In #random, post ...": "post ... in #random"
    body = _A_MESSAGE_SAYING.sub(r"\1: ", body)  # "Send lin a DM saying ...": "Send lin a DM: ..."
    body = _A_TRAILING_FIELD.sub(_a_field_bracketed, body)  # "..., label: staging": a field, bracketed
    # "Reserve Pensione Luna, 2 nights": "... for 2 nights"; after "instead of X", before it (the
    # count is the object's, not what it replaces)
    body = _A_TRAILING_COUNT.sub(lambda m: f" for {m['n']} {m['unit']}{m['instead'] or ''}", body)
    body = _REFERRING_COLON.sub(r"\1", body)  # "re: B-40" is "re B-40": no list after a colon
    body = _numbered_inline(body)  # "1) restart api 2) scale web to 4": two numbered lines
    body = _NUMBERED_BY_BRACKET.sub(r"\1. ", body)  # "1) scale ..." is "1. scale ...": a numbered line
    body = _MID_SIGN_OFF.sub(_sign_off_apart, body)  # "... to 4 thx b-svc to 40": two sentences
    body = _LIKE_AS.sub(r"\1as", _SO_IT_STAYS_ON.sub(" asap", body))  # "Pay B-31 so the water stays on": now
    body = _DUE_BEFORE.sub(r"\1. ", body)  # "B-31 is due, pay it": "B-31 is due. pay it"
    body = _OPENING_CAUSE.sub(_cause_apart, body)  # "Because the workers are stuck, restart ...": a reason
    body = _urging_apart(body)  # "Restart billing-svc pls auth-gw": two sentences
    body = _OVER_A_RECORD.sub("in place of ", body)  # "Pay B-31 over B-40": B-40 weighed, not asked
    body = _SPEAKER_IN_BRACKETS.sub(_speaker, body)  # "[bob] restart payments": bob's line, as "bob: ..."
    read: list[tuple[Clause, bool]] = []  # each clause, and whether it is content only
    retracted = False
    own: set[int] = set()  # the clauses in the user's own voice: no one's words, no question
    listing: int | None = None  # the clause whose object a list after its colon continues
    numbered = False  # the sentence before is an item's number ("1.", "b)"): this one is its item
    for written, question in _sentences(body):
        numbered, was_numbered = bool(_ITEM_NUMBER.fullmatch(written.strip())), numbered
        # "When you get a chance, ...", "No rush.", and a greeting that opens it ("Hey, can you ...?")
        sentence = _FRAMING.sub(_framing_removed, _opened(written))
        sentence = _MID_CORRECTION.sub(r", \1", sentence).strip()  # "to 50 err 5": a clause that corrects
        sentence = _CAUSE.sub(", ", sentence)  # "..., because it's leaking": a reason of its own
        if not sentence:
            continue  # a sentence that only frames the request: read
        whole = restore(written)
        # a line quoted as in a mail's reply ("> restart payments"): someone's words
        if sentence.startswith(">"):
            words, quoted = _expand(sentence.lstrip("> "), quotes)
            read.append((Clause(restore(sentence), tuple(words), None, 0, whole, quoted), True))
            listing = None
            continue
        if listing is not None:
            marked_item = sentence.lstrip()[:1] in _BULLETS or was_numbered
            item = _list_item(sentence, quotes)
            plain = _values_only(sentence) or all(_an_id(w) for w in words_of(sentence))
            if item is not None and (question or not (marked_item or plain)):
                item = None  # "- B-40?": a doubt; "legal hold" (an aside under the item): no item
            if item is not None:  # "Cancel these standing orders:" / "- Gym Max" / "- Old Storage"
                owner = read[listing][0]
                read[listing] = (replace(owner, coordinated=(*owner.coordinated, restore(sentence))), False)
                read.append((Clause(restore(sentence), item[0], None, 0, whole, item[1]), False))
                continue
        listing = None
        reading, *rest = _COLON.split(sentence, maxsplit=1)  # after a colon: someone's words
        content = rest[0] if rest else ""
        if rest and list_header(reading):  # "Two things: ...", "Tasks:" over the lines below
            if not content.strip():
                continue  # the lines below are sentences of their own
            reading, content, rest = content, "", []
        label = ""
        # a joined phrase before it ("Do-not:", "ops-bot:") is no label, unless what follows
        # acts on it ("email_worker: scale it to 4")
        loaded = _joined_phrase(reading) and not set(words_of(content)) & POINTING_BACK
        if content and (
            # "Close HD-31005: account unlocked" is a mandate and its note; "Order 1234: pay it" a label
            (
                _label(reading)
                and not loaded
                and not (_opens_with_a_verb(reading) and not _opens_with_a_verb(content))
            )
            or _own_framing(reading)
            or (_topic(reading, content, quotes) and not loaded)
        ):  # "Ticket T-1: refund
            label, reading, content = reading, content, ""  # order ORD-1001", "draft.docx: delete it"
        joined = _joined_parts(_ungapped(_distributed(_sent_to_both(reading, content))))
        parsed = [(p, *_expand(p, quotes)) for p, _joiner in joined]
        opening = parsed[0][1] if parsed else []
        gerunds = any(_at(opening, _polite_before(opening, f), f) for f in _GERUND_FORMS)
        readings = [
            (p, words, quoted, _signed(_contrasting(_parse(words, quoted, gerunds), joiner, p, words), p))
            for (p, words, quoted), (_p, joiner) in zip(parsed, joined, strict=True)
        ]
        if question and content.strip() and _sends_what_follows(readings):
            question = False  # "message kim: lunch at 12?": the question is the message's, to kim
        asked_at = _asked_after(readings) if question else None  # "open it, what does it say?"
        told = readings if asked_at is None else readings[:asked_at]
        # "Don't wait for the reminder, pay invoice INV-7 instead": the prohibition says what not
        # to do, the rest what to do instead; neither marks the other
        contrast = _contrasted(told)
        # a statement after an imperative of the sentence ("restart payments, it's throwing 502s")
        # gives a reason: it does not mark the imperative (the reading weighs what it says)
        reasons = {
            i
            for i, (_p, w, _q, r) in enumerate(told)
            if i
            and (stated_reason(w) or a_negated_statement(w) or a_named_statement(w) or _a_gerunds_noun(w, 0))
            and joined[i][1] != "but"  # "Pay B-40, but the budget is frozen": a contrast, not a why
            and any(t[3].head is not None and not t[3].marked for t in told[:i])
        }
        # more of what a message says ("Tell Carla yes, Thursday is fine"): no clause of its own
        said_on = message_continued([(w, r) for _p, w, _q, r in told], [j for _p, j in joined])
        # "Pay B-31 but not B-40", "..., not ORD-7": what the imperative before leaves out, by id
        excluded = {
            i
            for i, (part, w, _q, _r) in enumerate(told)
            if i
            and excludes_records(
                w, part if _names_by_id_or_slot(told[i - 1][1], w) or _A_WHOLE & set(told[i - 1][1]) else ""
            )
            and joined[i][1] in ("but", ",", "-", "\u2013", "\u2014", ";")
            and told[i - 1][3].head is not None
            and not set(w[1:])
            & set(told[i - 1][1]) - FUNCTION_WORDS - _A_PARTYS_KIND  # "B-31, not the water one"
        }
        out_of_a_whole = {i for i in excluded if _A_WHOLE & set(told[i - 1][1])}
        marked = (
            # "DM it to ana, mallory: no": the name the colon answers is not asked for (a message
            # a mandate sends ends its clause: "Reply to Casa Azul: no" sends "no")
            (_answered_no(content) and bool(readings) and not _known_head(readings[-1][1], readings[-1][3]))
            or bool(_STRAY_QUOTE.search(reading))
            or any(
                r.marked
                for i, (_p, w, _q, r) in enumerate(told)
                if not (i and _instead(w))
                and not (contrast and i == 0)
                and i not in reasons | excluded | said_on
                and not (i and forbids_only_more(w))  # "Pay B-31 and don't pay any other bills"
            )
            or (question and asked_at is None and not any(_at(opening, 0, p) for p in _POLITE_QUESTION))
        )
        # a retraction takes back what the turn asked before it; "Cancel it." after a statement
        # ("There's a Review on 2026-11-24 I can't make. Cancel it.") asks, as nothing was asked
        asked = any(c.head is not None for c, _content in read)
        for _p, words, _q, parse in readings:
            if _retracts(words) and asked:
                retracted = True
            asked = asked or parse.head is not None
        for i, (part, words, quoted, parse) in enumerate(readings):
            asking = asked_at is not None and i >= asked_at  # a question for information
            head = None if marked or asking or (i and _instead(words)) else parse.head
            # a reason continues no object, nor does what is left out of a whole ("all ..., not B-1")
            upto = min((j for j in reasons | out_of_a_whole if j > i), default=len(told))
            after = (
                _coordinated(told[i + 1 : upto], _naming_people(words))
                if head is not None and parse.stop == len(words)
                else []
            )
            clause = Clause(
                restore(part), tuple(words), head, parse.stop, whole, quoted, said_on=i in said_on
            )
            named = (restore(label.strip()),) if label.strip() and head is not None else ()
            if (not question or (asked_at is not None and not asking)) and not content.strip():
                own.add(len(read))
            read.append((replace(clause, coordinated=tuple(map(restore, after)), antecedents=named), False))
        items = _inline_items(content, quotes, restore, read[-1][0] if read and not label else None)
        if items:  # "cancel standing orders: Gym Max, Old Storage": the object's items
            owner = read[-1][0]
            read[-1] = (replace(owner, coordinated=(*owner.coordinated, *(t for t, _w, _q in items))), False)
            read += [(Clause(t, w, None, 0, whole, q), False) for t, w, q in items]
        elif content.strip():
            words, quoted = _expand(content, quotes)
            read.append((Clause(restore(content), tuple(words), None, 0, whole, quoted), True))
        elif rest and read and read[-1][0].head is not None and read[-1][0].stop == len(read[-1][0].words):
            listing = len(read) - 1  # a mandate ending in a colon, its object on the lines below
    if retracted:
        return [replace(c, head=None) for c, _ in read]
    return _pointing_back(_unmentioned(read), own)


#: Words by which an object points back to something the turn named before ("Pay it", "invite its
#: attendees", "reply to them", "pay both").
POINTING_BACK = frozenset(
    {"it", "its", "them", "their", "him", "his", "her", "this", "these", "those", "both", "there"}
)


def _pointing_back(clauses: Sequence[Clause], own: Collection[int]) -> list[Clause]:
    """The clauses, each asking one whose object points back (a word of :data:`POINTING_BACK`:
    "Pay it", "invite its attendees") given as antecedents the clauses of the turn's earlier
    sentences in the user's own voice (``own``: never someone's words after a colon, a quotation,
    nor a question)."""
    out: list[Clause] = []
    earlier: list[str] = []
    sentence = None
    current: list[str] = []
    for at, clause in enumerate(clauses):
        if clause.sentence != sentence:
            earlier += current
            current, sentence = [], clause.sentence
        if at in own:
            current.append(clause.text)
        if clause.head is not None and earlier and _points_back(clause):
            clause = replace(clause, antecedents=(*clause.antecedents, *earlier))
        out.append(clause)
    return out


def _points_back(clause: Clause) -> bool:
    """Does an asking clause's object hold a word that points back (:data:`POINTING_BACK`)?"""
    assert clause.head is not None
    return bool(POINTING_BACK & set(clause.words[clause.head + 1 : clause.stop]))


#: Prepositions after which an object lists people ("share it with grace + piotr", "email it to
#: ana and bob", "cc ravi, mei").
_TO_PEOPLE = frozenset({"with", "w", "to", "cc", "for", "of"})


def _naming_people(words: Sequence[str]) -> bool:
    """Does an object end in a preposition of :data:`_TO_PEOPLE` and one word ("... w/ grace")?"""
    return len(words) >= 2 and words[-2] in _TO_PEOPLE


#: Comparatives and superlatives that pick a record by comparing ("the cheaper of B-31 and B-40",
#: "the oldest invoice", "whichever is larger"): the reader cannot make the comparison.
_SELECTING = frozenset(
    """
    cheaper cheapest pricier priciest dearer dearest costlier costliest smaller smallest larger
    largest bigger biggest lower lowest higher highest lesser greater greatest older oldest newer
    newest earlier earliest latest fewer fewest
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: What a clause takes something out of when it corrects the turn rather than acting ("Remove B-40
#: from that", "Take the Board meeting off the list", "Drop it from the above").
_REQUEST_ITSELF = (
    ("that",), ("this",), ("the", "list"), ("my", "list"), ("the", "above"), ("above",), ("the", "request"),
    ("my", "request"), ("what", "i", "said"),
)  # fmt: skip


def _out_of_the_request(words: Sequence[str]) -> bool:
    """Does the clause end by taking something out of the request itself ("... from that", "... off
    the list", "... out of it")?"""
    if len(words) > 2 and words[-1] in ("part", "bit", "bits", "parts") and "the" in words[:-1]:
        return True  # "Cancel the Board meeting part": a part of what the turn asked
    for tail in _REQUEST_ITSELF:
        n = len(tail)
        if len(words) > n and tuple(words[-n:]) == tail and words[-n - 1] in ("from", "off", "of"):
            return words[-n - 1] != "of" or (len(words) > n + 1 and words[-n - 2] == "out")
    return False


#: Signs a clause says something with that the grammar has no word for: a struck-through text
#: ("~~the Acme bill~~"), a sarcasm mark ("/s"), an arrow ("B-40 → B-31"), a substitution
#: ("s/B-40/B-31/").
_SIGNS = re.compile(
    r"~~|(?:^|\s)/s\b|<(?:s|del|strike)>|->|=>|[\u2190-\u21ff\u27f6-\u27f9]|(?:^|\s)s/[^/\s]+/[^/\s]*/"
    # words that correct or mention, standing alone ("I mean B-31", "er", "(typo: ...)", "cc Acme");
    # never inside a value ("0*ER*000")
    r"|(?:^|[\s,(\u2014-])(?:er|erm|uh|uhm|um|umm|hmm|mean|meant|typo|correction|referencing|mentioning|cc|bcc)"
    r"(?=[\s,.;:!?)\u2014]|$)",
    re.IGNORECASE,
)


#: Pictographs that only say please, thanks or good cheer, read as such at a clause's end ("Pay
#: B-31 asap 🙏", "Restart payments 👍"); any other ("👎", "❌", "🤔", "⚠️") is a sign the grammar
#: has no word for.
KIND_SIGNS = frozenset("🙏😊🙂😀😃😄😁😉👍🙌🎉❤♥💙💚✨🚀😅🤞👋🎵🎶☺")
_TRAILING_KIND_SIGNS = re.compile(
    "[\\s" + "".join(sorted(KIND_SIGNS)) + "\ufe0f\u200d\U0001f3fb-\U0001f3ff!.]+$"
)


def _signed(parse: _Parse, part: str) -> _Parse:
    """A clause that holds a sign the grammar cannot read (an emoji or another pictograph, a
    strike-through, "/s") is outside the grammar: "Pay B-31 and B-40 👎" asks. A kind sign at
    its end (:data:`KIND_SIGNS`: "... 🙏") is read."""
    if parse.marked:
        return parse
    part = _TRAILING_KIND_SIGNS.sub("", part)
    pictograph = any(unicodedata.category(ch) == "So" for ch in part)
    return replace(parse, marked=True) if pictograph or _SIGNS.search(part) else parse


#: What marks a statement and nothing more: a copula or an auxiliary ("is", "has"), or one joined to
#: its subject ("it's", "she's", "they're"); never a negation, a modal, a future or a condition.
_OF_A_STATEMENT = frozenset(
    """
    is are was were has have had been being am be it's that's there's here's she's he's they're
    we're i'm i've we've they've you're
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Past forms of a few verbs that say what happened to someone or something ("He left.", "it broke
#: again", "she quit"): a finite verb, as a regular "-ed" form is.
_IRREGULAR_PAST = frozenset({"left", "quit", "broke", "fell", "lost", "forgot", "hung", "blew"})
#: Subjects of one, after which a verb in the present ends in "-s".
_ONE_SUBJECT = frozenset({"it", "he", "she", "this", "that"})
#: Words of a part or a share that may open a statement's subject ("Half the team is out", "most of
#: us are sick").
SHARE_SUBJECTS = frozenset({"half", "most", "many", "few", "several"})


def stated_reason(words: Sequence[str]) -> bool:
    """Is a clause a statement that can only give a reason or set the scene: a subject and a
    finite verb ("it's throwing 502s", "the chair is sick", "traffic is low", "both contracts
    ended"), with no marker but a copula or an auxiliary of a statement (no negation, modal,
    condition, question word, future, report)? Whether what it says bears on a call (a record it
    names, a doubt), the reading weighs apart."""
    contracted = {w for w in _OF_A_STATEMENT if "'" in w}
    if len(words) < 2:
        return False
    subject = (
        words[0] in contracted
        or (words[0] in FUNCTION_WORDS and words[0] not in _OF_A_STATEMENT)
        or words[0] in SHARE_SUBJECTS
        or (
            _a_bare_subject(words) and bool(_TROUBLE & set(words))
        )  # "worker is stuck", "item arrived broken"
    )
    if not subject:  # "is it ...?" asks
        return False  # its subject a pronoun or a determiner's phrase ("it's ...", "the chair ...")
    markers = {w for w in words if _marker(w)}
    finite = (
        bool(set(words) & _OF_A_STATEMENT)
        or any(w.endswith("ed") and len(w) > 3 for w in words[1:])
        or bool(set(words[1:]) & _IRREGULAR_PAST)
        # a verb in the present after a subject of one ("it fixes the pagination bug")
        or _present_after_one(words)
        or bool(set(words[1:3]) & _HOW_IT_GOES)  # "the disk keeps filling up", "he got a new phone"
    )
    return finite and markers <= _OF_A_STATEMENT and not _marked_phrase(words)


#: Who a negated statement beside an act is of: a third person or a thing, never the user.
THIRD_PERSONS = frozenset(
    {"he", "she", "they", "he's", "she's", "they're", "it", "it's", "the", "his", "her", "their"}
)
#: The words that negate a statement ("she can't ...": a word in "n't" too), and those that say it
#: no longer holds ("she no longer swims").
NEGATIONS = frozenset({"not", "no", "never", "nor"})
NO_LONGER = frozenset({"longer", "anymore"})
#: Words by which a negated statement may be said of the act itself: who wants, needs or agrees to
#: it ("she doesn't want it"), or what the user asks ("they never asked").
OF_WANTING = frozenset(
    """
    want wants wanted need needs needed like likes mean meant agree agreed approve approved ask asked
    asks said says told
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def a_negated_statement(words: Sequence[str]) -> bool:
    """Is a clause a statement of a third person's or a thing's that says what they do not or no
    longer do ("she no longer swims", "she can't make it", "it doesn't work"): read as the
    statement it negates (:func:`stated_reason`), its subject no word of the user's, no word of
    wanting, needing or agreeing (:data:`OF_WANTING`: "she doesn't want it" is said of the act)?
    Whether it is a reason for the act beside it (an act that undoes) or bears on it, the reading
    weighs apart."""
    if no_longer_needed(words):
        return True  # "she doesn't need it anymore": wanting, said of the record (an act that
        # removes it takes it as its reason; any other act asks)
    if len(words) < 3 or words[0] not in THIRD_PERSONS or set(words) & OF_WANTING:
        return False
    if not any(w in NEGATIONS or w.endswith("n't") for w in words[1:]):
        return False
    affirmed = ["is" if w in NEGATIONS or w.endswith("n't") else w for w in words if w not in NO_LONGER]
    return stated_reason(affirmed)


#: A person who no longer needs, wants or uses the record: "she doesn't need it anymore", "they no
#: longer use it", "he won't need them".
_NO_LONGER_NEEDED = re.compile(
    r"(?:he|she|they)\s+(?:doesn't|does\s+not|don't|do\s+not|didn't|won't|will\s+not|no\s+longer)\s+"
    r"(?:need|needs|want|wants|use|uses)\s+(?:it|them|this|that)(?:\s+(?:anymore|any\s+more|any\s+longer))?"
)


def no_longer_needed(words: Sequence[str]) -> bool:
    """Is a clause a third person's saying they no longer need, want or use the record, and nothing
    else (:data:`_NO_LONGER_NEEDED`: "she doesn't need it anymore")?"""
    return _NO_LONGER_NEEDED.fullmatch(" ".join(words)) is not None


#: Words of trouble a statement with a bare noun for its subject may give as a reason ("worker is
#: stuck", "search looks slow", "item arrived broken"); with any other word such a statement is not
#: read ("card is expired", "balance is zero", "status is draft"), nor with a word of a level, which
#: may be a reason against the act ("traffic is low" before scaling up, "disk is full").
_TROUBLE = frozenset(
    """
    stuck slow sluggish hung hanging failing erroring errors throwing crashing broken broke leaking
    flaky unresponsive timing lagging degraded dead stalled damaged crushed
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Finite verbs in the present that say how a thing is or goes on ("the disk keeps filling up").
_GOES_ON = frozenset({"keeps", "seems", "looks"})
_HOW_IT_GOES = _GOES_ON | {"got", "went"}


def named_subject(words: Sequence[str]) -> tuple[str, ...] | None:
    """The subject of a clause that is a statement whose subject is a name or a bare noun, a
    possessive's or not, of up to four plain words ("Sofia is travelling", "Ben was double billed",
    "Mario's doctor changed the dose", "Hannah's sister is going", "Dr. Nilsen's membership was
    paused", "customer is away"), with a finite verb of a statement right after it (a copula, an
    auxiliary, a past: no verb in the present, which may be wanting or asking) and no marker but a
    copula or an auxiliary (no negation, modal, condition, question word, future, report): its
    words, a title left out and a possessive's "'s" taken off ("mario", "doctor"); None for any
    other clause. Whom such a statement is of, what it names and says, and whether it bears on the
    act beside it, the reading weighs apart."""
    subject = [w.removesuffix("'s") for w in words[:5]]
    for verb_at in range(1, min(len(words) - 1, 4) + 1):
        noun = subject[:verb_at]
        if not all(
            (_a_plain_word(w) or (w in _TITLES and i == 0))
            and w not in FUNCTION_WORDS
            and w not in COMMON_VERBS
            and not _marker(w)
            for i, w in enumerate(noun)
        ):
            return None
        if words[verb_at - 1].endswith("'s"):
            continue  # whose it is: the subject's noun follows
        if _finite_after_a_subject(words[verb_at]):
            markers = {w for w in words if _marker(w)}
            if markers <= _OF_A_STATEMENT and not _marked_phrase(words):
                return tuple(w for w in noun if w not in _TITLES)
            return None
    return None


def _a_plain_word(word: str) -> bool:
    """A word of letters only, or of such parts joined by hyphens (a double-barrelled name:
    "costa-reis")."""
    return all(part.isalpha() for part in word.split("-"))


def a_named_statement(words: Sequence[str]) -> bool:
    """Is a clause a statement whose subject is a name or a bare noun (:func:`named_subject`)?"""
    return named_subject(words) is not None


def _a_bare_subject(words: Sequence[str]) -> bool:
    """Is a clause's subject a noun of one or two plain words with no determiner, a finite verb
    right after it ("worker is stuck", "traffic's spiking", "item arrived broken", "error rate is
    high")? A word the grammar knows as a verb or a function word is no such noun. Whether what it
    says is a reason, :func:`stated_reason` weighs (:data:`_TROUBLE`)."""
    if words and words[0].endswith("'s") and words[0][:-2].isalpha():
        words = [words[0][:-2], "is", *words[1:]]  # "traffic's spiking": "traffic is spiking"
    for verb_at in (1, 2):
        if len(words) <= verb_at:
            return False
        noun = words[:verb_at]
        if not all(
            w.isalpha() and w not in FUNCTION_WORDS and w not in COMMON_VERBS and not _marker(w) for w in noun
        ):
            return False
        if _finite_after_a_subject(words[verb_at]):
            return True
    return False


def _finite_after_a_subject(verb: str) -> bool:
    """Is the word after a subject a finite verb of a statement: a copula or an auxiliary, a past
    ("left", "-ed"), or how it goes ("got", "keeps")?"""
    return (
        verb in _OF_A_STATEMENT
        or verb in _IRREGULAR_PAST
        or verb in _HOW_IT_GOES
        or (verb.endswith("ed") and len(verb) > 3)
    )


#: What may join the conjuncts of a gapped clause: a comma, "and", or both.
_GAP_JOINER = re.compile(
    r"(\s*,\s*(?:and\s+)?|\s+and\s+|\s+(?:as\s+well\s+as|along\s+with|together\s+with|plus)\s+)", re.I
)
#: The joiners of :data:`_GAP_JOINER` that say "and" in more words: "and" in the clause said again.
_AND_IN_WORDS = re.compile(r"(?i)\s+(?:as\s+well\s+as|along\s+with|together\s+with|plus)\s+")
#: A record's id as a gapped conjunct names it: a word holding a digit or one of ``- _ . @ #``
#: ("search-svc", "B-40", "ana@corp.example", "#ops"), never a plain word that could be a verb.
_GAP_RECORD = re.compile(r"(?<![\w@#])[\w@#][\w.@#/-]*(?:[-_.@#/\d])[\w.@#/-]*", re.I)


#: The prepositions a gapped conjunct may place its value with ("a-svc to 4", "10 on ORD-1001").
_GAP_PREPOSITIONS = frozenset({"to", "on", "for", "at", "in", "with", "from"})


def _ungapped(reading: str) -> str:
    """A clause whose verb the conjuncts after it leave out, with the verb said again in each
    ("Scale email-worker to 4 and search-svc to 5": "... and scale search-svc to 5"), so that
    each conjunct is a mandate of its own with its own values. Only where every conjunct is two
    words, or two words around one preposition (:data:`_GAP_PREPOSITIONS`), of one shape, the
    same unit word after each where one has it ("to 4 replicas"), and each holds a record's id
    (:data:`_GAP_RECORD`): "Refund 10 on ORD-1001 and 15 on ORD-1002", "Deploy checkout-api 2.5.0,
    search-svc 2.0.0", "Grant asmith report-viewer and bjones billing-admin"; else the text as
    it is."""
    body = reading.rstrip().rstrip(".;!")
    pieces = _GAP_JOINER.split(body.strip())
    if len(pieces) < 3:
        return reading
    first, joiners, rest = pieces[0].split(), pieces[1::2], pieces[2::2]
    if len(first) < 3 or first[0].casefold() in _SUBJECTS or not first[0].isalpha():
        return reading
    shapes = [first[1:], *(p.split() for p in rest)]
    unit = shapes[0][-1].casefold() if len(shapes[0]) in (3, 4) and shapes[0][-1].isalpha() else None
    if unit is not None and all(len(w) == len(shapes[0]) and w[-1].casefold() == unit for w in shapes):
        shapes = [w[:-1] for w in shapes]  # "to 4 replicas" in each conjunct: the unit apart
    size = len(shapes[0])
    preposition = shapes[0][1].casefold() if size == 3 else None
    if size not in (2, 3) or (size == 3 and preposition not in _GAP_PREPOSITIONS):
        return reading
    for words in shapes:
        if len(words) != size or (preposition and words[1].casefold() != preposition):
            return reading
        if words[0].casefold() in COMMON_VERBS | _SUBJECTS | _OF_A_STATEMENT | {"not"} or _corrects(
            [words[0].casefold()]
        ):
            # "... and move to eng", "..., we're on track", "..., oops 20 min", "..., not in #random":
            # its own
            return reading
        if not preposition and not any(_GAP_RECORD.fullmatch(w) for w in (words[0], words[-1])):
            return reading  # two plain words ("... and bjones admin") with no preposition: unread
    verb = first[0].casefold()  # in small letters: a capital inside a sentence marks a name
    joiners = [_AND_IN_WORDS.sub(" and ", joiner) for joiner in joiners]  # "as well as": "and"
    again = "".join(f"{joiner}{verb} {piece}" for joiner, piece in zip(joiners, rest, strict=True))
    return f"{pieces[0]}{again}{reading.rstrip()[len(body) :]}"


#: "VERB A and B REST" where REST says where, to whom or what for both ("Email ana@corp.example and
#: bob@corp.example the agenda", "Invite kim and lee to the Team Sync").
_SHARED_REST = re.compile(
    r"(?i)^(?P<lead>(?:(?:please|pls|plz|kindly|just|(?:can|could|would|will)\s+(?:you|u))\s+)*)"
    r"(?P<verb>[a-z][\w-]*)\s+(?P<a>[^\s,;]+)(?P<more>(?:\s*,\s*[^\s,;]+){0,3})"
    r"\s*,?\s+and\s+(?P<b>[^\s,;]+)\s+(?P<rest>(?P<first>[a-z]+)\b[^,;]*)$"
)
#: What REST may open with after two names of people in small letters ("... to the Team Sync",
#: "... that the demo moved"), and, after two ids or addresses, a determiner too ("... the agenda").
_REST_AFTER_PEOPLE = frozenset({"to", "that", "about", "with", "into", "onto"})
_REST_AFTER_IDS = _REST_AFTER_PEOPLE | {"the", "a", "an", "my", "our", "this", "these"}
#: The verbs whose object is a person ("Invite kim and lee to ...", "DM kim and lee that ...").
_TO_PERSONS = frozenset(
    """
    invite dm message msg ping email mail e-mail text tell notify remind add
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: "VERB A and B" before a colon whose content is sent to both ("DM kim and lee: standup moved").
_TWO_BEFORE_A_COLON = re.compile(
    r"(?i)^(?P<lead>(?:(?:please|pls|plz|kindly|just|(?:can|could|would|will)\s+(?:you|u))\s+)*)"
    r"(?P<verb>[a-z][\w-]*)\s+(?P<a>[^\s,;]+)\s+and\s+(?P<b>[^\s,;]+)$"
)


def _sent_to_both(reading: str, content: str) -> str:
    """ "VERB A and B" before a colon, a verb that sends what follows to a person, A and B ids,
    addresses or lone names in small letters: "VERB A and VERB B", each a mandate the content goes
    with ("DM kim and lee: standup moved"); else as it is."""
    match = _TWO_BEFORE_A_COLON.match(reading.strip())
    if match is None or not content.strip():
        return reading
    verb, a, b = match["verb"], match["a"], match["b"]
    if verb.casefold() not in _TO_PERSONS & _SENDING_HEADS:
        return reading
    if not all(_an_id(w) or (_a_lone_name([w.casefold()]) and w.islower()) for w in (a, b)):
        return reading
    return f"{match['lead']}{verb} {a} and {verb.casefold()} {b}"


def _distributed(reading: str) -> str:
    """A sentence "VERB A and B REST" (or "VERB A, B and C REST", up to five names) with REST said of
    each, as "VERB A REST and VERB B REST": each
    conjunct a mandate of its own with the whole of what it asks ("Email ana@corp.example and
    bob@corp.example the agenda", "Invite kim and lee to the Team Sync"). Only where A and B are
    ids, addresses, file names or capitalised names (REST opening with a preposition, "that" or a
    determiner), or both lone names in small letters after a verb of persons
    (:data:`_TO_PERSONS`, REST opening with "to", "that", "about", "with"); else as it is (an "and"
    before a verb or an object of its own is a clause of its own: "Pay B-31 and dispute the Acme
    bill")."""
    body = reading.rstrip().rstrip(".;!")
    match = _SHARED_REST.match(body.strip())
    if match is None or match["verb"].casefold() in _SUBJECTS:
        return reading
    names = [match["a"], *re.findall(r"[^\s,;]+", match["more"]), match["b"]]
    first = match["first"].casefold()
    ids = all(_an_id(w) or (w[:1].isupper() and w[1:].isalpha()) for w in names)
    people = (
        match["verb"].casefold() in _TO_PERSONS
        and all(_a_lone_name([w.casefold()]) and w.islower() for w in names)
        and first in _REST_AFTER_PEOPLE
    )
    if not (ids and first in _REST_AFTER_IDS) and not people:
        return reading
    lead, verb, rest = match["lead"], match["verb"], match["rest"]
    each = " and ".join(
        f"{verb if i == 0 else verb.casefold()} {name} {rest}" for i, name in enumerate(names)
    )
    return f"{lead}{each}{reading.rstrip()[len(body) :]}"


#: Of :data:`COMPLEMENT_HEADS`, the verbs that send what follows them to someone.
_SENDING_HEADS = COMPLEMENT_HEADS - {"ask", "check", "find", "see", "show", "verify", "confirm", "explain"}


def _sends_what_follows(readings: Sequence[tuple[str, list[str], frozenset[int], _Parse]]) -> bool:
    """Is the text before a colon one plain imperative of a verb that sends what follows it
    ("message kim", "email ana@corp.example", "reply to Bob"): a question after the colon is then
    the message's, asked of whom it goes to, not of the agent."""
    if len(readings) != 1:
        return False
    _part, words, _quoted, parse = readings[0]
    return (
        parse.head is not None
        and not parse.marked
        and parse.stop == len(words)
        and words[parse.head] in _SENDING_HEADS
    )


def _joined_parts(reading: str) -> list[tuple[str, str]]:
    """The clauses of a sentence as :data:`_JOINERS` cuts it, each with the joiner before it (case
    folded; "" for the first)."""
    out: list[tuple[str, str]] = []
    at, joiner = 0, ""
    for match in _JOINERS.finditer(reading):
        piece = reading[at : match.start()].strip()
        if piece:
            out.append((piece, joiner))
        joiner, at = match.group(0).strip().lower(), match.end()
    piece = reading[at:].strip()
    if piece:
        out.append((piece, joiner))
    return out


def _contrasting(parse: _Parse, joiner: str, part: str, words: Sequence[str]) -> _Parse:
    """A clause with no verb of its own after "but" contrasts with what comes before ("Delete all
    my events but the Board meeting", "... but Board meeting", "... but B-40"): no continuation of
    an object, a construction the grammar does not read (marked)."""
    if joiner != "but":
        return parse
    head = parse.head
    named = head is not None and (any(ch.isdigit() for ch in words[head]) or part.lstrip()[:1].isupper())
    return replace(parse, marked=True) if head is None or named or not _known_head(words, parse) else parse


def _known_head(words: Sequence[str], parse: _Parse) -> bool:
    """Is a clause's head a verb of :data:`COMMON_VERBS` (inflected or not), not a name written in
    lower case that the grammar took for an imperative ("... all but mallory", "mallory: no")?"""
    head = parse.head
    return head is not None and (words[head] in COMMON_VERBS or bool(set(_bases(words[head])) & COMMON_VERBS))


#: A word of letters joined by hyphens or underscores, as a service or an account is named
#: ("email-worker", "billing_v2"): a name, where a clause holds it alone.
_JOINED_ID = re.compile(r"(?<![^\W\d_])[^\W\d_]+(?:[-_][^\W_]+)+")


#: Words that label a figure of the call, written before it ("amount 75", "replicas 4").
_FIGURE_LABELS = frozenset({"amount", "replicas"})


def labelled_figure(words: Sequence[str]) -> bool:
    """Is a clause a figure's label and the figure, and nothing else ("amount 75", "replicas 4")? Not
    "total": the whole a call may be a part of ("the first installment ..., total 500")."""
    return len(words) == 2 and words[0] in _FIGURE_LABELS and _NUMBER.fullmatch(words[1]) is not None


def _coordinated(
    following: Sequence[tuple[str, list[str], frozenset[int], _Parse]], people: bool = False
) -> list[str]:
    """The texts of the clauses that continue an object: those that follow it in its sentence up
    to the next clause with a verb at its head (in a sentence the grammar admits, a clause without
    a head holds content words and allowed function words only). A head that holds a digit or is
    written with a capital inside the sentence is a name, no verb ("and Old Storage", "75011
    Paris", "INV-2"): its clause continues the object too; so does a lone file name ("and
    notes.txt"), and a lone word that is no verb of :data:`COMMON_VERBS` after an object that lists
    ``people`` ("with grace + piotr")."""
    out: list[str] = []
    instead = False  # past an "instead of ..." clause: only a quantity continues the object
    for part, words, _quoted, parse in following:
        head = parse.head
        if _instead(words) and not instead:
            instead = True  # "Book Casa do Rio instead of Ribeira Loft, 2 nights": a prohibition of
            continue  # its own; the quantity after it is still the booking's
        if instead and not (head == 0 and len(words) <= 2 and _NUMBER.fullmatch(words[0])):
            break
        named = (
            head is not None
            and (
                any(
                    ch.isdigit() or ch == "@" for ch in words[head]
                )  # an id, an address ("and ana@corp.example")
                or (head == 0 and part.lstrip()[:1].isupper())
                or (people and len(words) == 1 and words[0] not in COMMON_VERBS)
                or (len(words) == 1 and _FILE_NAME.fullmatch(words[0]) is not None)
                or _A_PATH.fullmatch(part.strip()) is not None
                # a lone id of letters joined by a hyphen or an underscore ("and email-worker")
                or (
                    len(words) == 1
                    and _JOINED_ID.fullmatch(words[0]) is not None
                    and words[0] not in COMMON_VERBS
                )
                or labelled_figure(words)  # "Refund order A-5521, amount 75": no verb "amount"
            )
        )
        if parse.marked or (head is not None and not named) or _says_more(part, words, _quoted):
            break
        if head is None and words and words[0] in _PARTICLES:
            break  # "... and back up salaries.xlsx": a phrasal verb's clause, no object's continuation
        if head is None and a_statement(words):
            break  # "Restart payments, it went through": a statement, no more of the object
        if head is None and len(words) >= 2 and set(words[1:3]) & _REPORTED:
            break  # "Pay it, they claim", "..., she says": someone's words, no more of the object
        if _corrects(words):
            break  # "Scale search-svc to 50, sorry, 5": a correction, never more of the object
        out.append(part)
    return out


#: The pronouns a statement's subject may be, its verb right after (or after one adverb).
_PRONOUN_SUBJECTS = frozenset(
    """
    i we you he she they it both all each someone somebody nobody everyone everybody
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: The determiners that may open a statement's subject, its verb after one noun ("the cron took
#: care of it").
_DETERMINING = frozenset({"the", "this", "that", "these", "those", "my", "our", "his", "her", "their", "its"})
#: Past forms a verb makes without "-ed", as a statement's verb ("the cron took care of it", "the
#: chargeback went through", "the customer found the package", "they withdrew the claim").
_PAST_FORMS = _IRREGULAR_PAST | frozenset(
    """
    took went came got made did ran found gave said told sent paid won began became grew spent
    withdrew wrote brought bought sold kept held knew saw thought put set cut let
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def a_statement(words: Sequence[str]) -> bool:
    """Is a clause with no imperative a statement: a subject (a pronoun; a determiner, or a word of
    a share, and a noun) and a finite verb right after it, or after one adverb (a copula or an
    auxiliary, a past form, a present after a subject of one)? It says something; it is no more of
    the object before it ("the one mallory set up" describes which one, and is)."""
    if len(words) < 2:
        return False
    if words[0] in _PRONOUN_SUBJECTS:
        verb_at = 1
    elif words[0] in _DETERMINING or words[0] in SHARE_SUBJECTS:
        verb_at = 1 + (words[1] == "of")  # "half of the items arrived broken"
        verb_at += verb_at < len(words) and words[verb_at] in _DETERMINING
        if words[verb_at : verb_at + 1] in (["one"], ["ones"]):
            return False  # "the one mallory set up": which one, described
        verb_at += 1  # over the subject's noun
    else:
        return False
    return any(
        w in _OF_A_STATEMENT or w in _PAST_FORMS or (w.endswith("ed") and len(w) > 3)
        for w in words[verb_at : verb_at + 2]
    ) or _present_after_one(words)


def _present_after_one(words: Sequence[str]) -> bool:
    """A verb in the present after a subject of one, or after it and one adverb ("it fixes the
    pagination bug", "she already knows")?"""
    return words[0] in _ONE_SUBJECT and any(
        len(w) > 3 and w.endswith("s") and w not in FUNCTION_WORDS for w in words[1:3]
    )


#: A file's path as one token ("/tmp/b.txt", "~/notes/a.md", "reports/2025/q3.pdf"): a name, never
#: a verb.
_A_PATH = re.compile(r"(?<![\w.~/-])(?:~|\.{1,2})?/?(?:[\w.-]+/)+[\w.-]+")


def excludes_records(words: Sequence[str], text: str = "") -> bool:
    """Is a clause "not" and records named by id only ("not B-40", "not ORD-7 or ORD-9", "not
    ana@corp.example", "not old.pdf")? An id here holds letters and digits, an ``@``, or is a file
    name: never a date or a figure ("not 12/05" may be a time, "not 50" an amount). Given the
    clause's ``text``, a party named as written with capitals counts too ("not the Acme one", "not
    Gym Max", "not the Acme bill"), never a day or a month ("not Friday" may be a time)."""
    if len(words) < 2 or words[0] != "not":
        return False
    if words[1] in SLOT_PREPOSITIONS and len(words) > 2:  # "not in #release", "not with Björn Alm"
        words = ("not", *words[2:])
    names = [w for w in words[1:] if w not in ("and", "or", "the")]
    if bool(names) and len(names) <= 5 and all(_an_id(w) for w in names):
        return True
    if not text:
        return False
    named = [w for w in names if w not in _A_PARTYS_KIND]
    # a name written with a capital, or a channel's or a handle's ("not in #release", "not @lin")
    written = {w.strip(".,;!'#@") for w in text.split()[1:] if w[:1].isupper() or w[:1] in "#@"}
    return (
        0 < len(named) <= 3
        and all(any(w == x.casefold() for x in written) for w in named)
        and not set(named) & CALENDAR_NAMES
    )


#: Prepositions by which an exclusion names the place of the act before it that it leaves a value out
#: of ("Post it in #random but not in #release", "Share it with Yuki Sato but not with Björn Alm").
SLOT_PREPOSITIONS = frozenset({"in", "with", "to", "from", "for", "into", "on", "at", "via", "cc"})
#: The words beside a party's name that say which of its records ("the Acme one", "Gym Max's bill").
_A_PARTYS_KIND = frozenset(
    {
        "one",
        "ones",
        "bill",
        "bills",
        "invoice",
        "invoices",
        "payment",
        "payments",
        "order",
        "orders",
        "'s",
        "s",
    }
)
#: Days and months, written as names are: "not Friday" may say when.
#: The months by their names, long and short, and their numbers ("dec", "december": 12): one table
#: for every reader of a day (the review's due days, the reading's bare days, the calendar's names).
MONTH_NUMBERS = {
    m: i
    for i, names in enumerate(
        [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
         ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
         ("oct", "october"), ("nov", "november"), ("dec", "december")],
        1,
    )
    for m in names
}  # fmt: skip
CALENDAR_NAMES = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    today tomorrow i
    """.split()  # noqa: SIM905 (a closed list, read as words)
) | frozenset(MONTH_NUMBERS)


def a_day_written(day: str) -> set[str]:
    """The words a turn may write an ISO day (``2026-12-15``) in as a day of the month: "15",
    "15th", "december", "dec"; none for another text."""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day) or not 1 <= int(day[5:7]) <= 12:
        return set()
    number, month = int(day[8:10]), int(day[5:7])
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return {str(number), f"{number}{suffix}", *(m for m, n in MONTH_NUMBERS.items() if n == month)}


#: Words by which an object takes in every record of a kind ("all of Anna Berg's reservations",
#: "every open work order"): an exclusion after it takes records out of it by id or by name.
_A_WHOLE = frozenset({"all", "every", "each", "everyone", "everybody"})
#: A word of exclusion after a whole in its clause ("Cancel all of Anna Berg's reservations except
#: RES-2041", "Pay every open bill other than B-40"): read as the exclusion "not ..." it is. A whole
#: is no more than the clause it opens in (no sentence mark, colon or line between).
_EXCEPT_AFTER_A_WHOLE = re.compile(
    r"(?i)(\b(?:all|every|each|everyone|everybody)\b[^.;:!?\n,()]*?)[ \t]*,?[ \t]+"
    r"(?:except(?:[ \t]+for)?|excluding|other[ \t]+than|apart[ \t]+from|aside[ \t]+from|save[ \t]+for"
    r"|not[ \t]+including|but[ \t]+not)[ \t]+(?=[\w#@])"
)


def _left_out_of_a_whole(m: re.Match[str]) -> str:
    """An exclusion after a whole (:data:`_EXCEPT_AFTER_A_WHOLE`) written as the "not ..." it is,
    where it leaves out a record by id or a name by its capital (no day, month or time: "every day
    except Friday" is when), and the whole is the object of what the sentence asks, not what a
    message says ("Email Priya that I can work every day except Friday") nor a quotation."""
    before = m.string[: m.start()]
    opening = max(before.rfind(mark) for mark in (".", "!", "?", ";", ":", "\n"))
    said = _SAID_BEFORE.search(before[opening + 1 :])
    named = _WORD_AFTER.match(m.string, m.end())
    word = named.group(0).strip(".,;:!?'’") if named else ""
    leaves_out = bool(word) and (
        _an_id(word.casefold()) or (word[:1].isupper() and word.casefold() not in CALENDAR_NAMES)
    )
    if said is not None or not leaves_out:
        return m.group(0)
    return f"{m.group(1)}, not "


#: The word a match ends before.
_WORD_AFTER = re.compile(r"[^\s,;]+")
#: What makes the words after it a message's or a quotation ("that", "saying", a quote mark; not the
#: apostrophe inside a word: "Let's cancel all of ...").
_SAID_BEFORE = re.compile(
    r"(?i)\b(?:that|saying|says|say|tell|telling)\b|[\"“”]|(?<![^\W\d_])['‘]|['‘](?![^\W\d_])"
)


def _names_by_id_or_slot(before: Sequence[str], excluding: Sequence[str]) -> bool:
    """May a "not ..." after the clause ``before`` leave out what it names by name: the clause
    names a record by id ("Pay B-31, not the Acme one"), or the exclusion names the same place of
    the act ("Post it in #random but not in #release": both "in")?"""
    if any(_an_id(x) for x in before):
        return True
    return len(excluding) > 2 and excluding[1] in SLOT_PREPOSITIONS and excluding[1] in before


def _an_id(word: str) -> bool:
    letters, digits = any(ch.isalpha() for ch in word), any(ch.isdigit() for ch in word)
    return (letters and digits) or "@" in word or _FILE_NAME.fullmatch(word) is not None


#: Words that stand for a group or a time, never a record's name ("and all", "and others", "and
#: co", "and the rest", "and now").
_NO_NAMES = frozenset(
    """
    all others other rest co etc everyone everybody anyone anybody everything anything more most
    friends team now today tomorrow first again later so on too also else
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Lone words that hold back the act before them ("Pay B-40 and hold", "Restart it and wait").
_HOLDING_BACK = frozenset(
    """
    hold wait pause stop undo revert reverse cancel abort skip ignore defer postpone delay halt
    freeze later tomorrow tonight again retry rollback see check confirm verify review
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _a_lone_name(words: Sequence[str]) -> bool:
    """Is a clause one word of letters (hyphens, underscores and digits inside) that is no verb
    the reader knows (:data:`COMMON_VERBS`) and holds nothing back (:data:`_HOLDING_BACK`)?"""
    return (
        len(words) == 1
        and re.fullmatch(r"[a-z][a-z0-9_-]*", words[0]) is not None
        and words[0] not in COMMON_VERBS
        and words[0] not in _HOLDING_BACK
        and words[0] not in MARKERS
        and words[0] not in ALLOWED_FUNCTION_WORDS
        and words[0] not in _NO_NAMES
    )


#: Words by which a clause corrects what the one before it said ("..., sorry, 5", "— err, finance").
_CORRECTING = frozenset({"sorry", "oops", "err", "erm", "um", "umm", "uh", "correction", "wait", "whoops"})
_CORRECTING_PAIRS = frozenset(
    {("i", "mean"), ("i", "meant"), ("make", "that"), ("no", "wait"), ("or", "rather")}
)


def _corrects(words: Sequence[str]) -> bool:
    """Does a clause open with a word or a pair of :data:`_CORRECTING` / :data:`_CORRECTING_PAIRS`?"""
    return bool(words) and (words[0] in _CORRECTING or tuple(words[:2]) in _CORRECTING_PAIRS)


#: Words that open a phrasal verb's clause where the grammar sees no head ("and back up X", "and
#: up the limit", "and off the alerts"): an object's continuation opens with a name, a determiner
#: or a number, never one of these. The particles of the phrasal verbs a policy declares too ("roll
#: back", "scale up", "shut down"), read around their object ("roll it back").
_PARTICLES = frozenset({"back", "up", "out", "off", "down", "away", "over"})


#: The prepositions a name may be followed by in an object ("the Review from my calendar", "the
#: Acme bill in January").
_PREPOSITIONS = frozenset(
    """
    on for to from in at with of by into onto about via per over under through across between
    within around along inside near as toward towards
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


_SUBJECTS = frozenset({"i", "we", "you", "he", "she", "they"})
#: Verbs by which a clause says something of the name before it ("..., salaries.xlsx stays").
_PREDICATES = frozenset(
    """
    stays stay remains remain waits wait stands is are was were can could must should will would
    needs keeps holds goes stops
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _says_more(part: str, words: Sequence[str], quoted: frozenset[int]) -> bool:
    """Does a clause say something of the name it holds, as a clause of its own does ("the Acme
    bill B-40 we keep", "B-40 remains open"): after its last name (a word with a digit, one written
    with a capital, a quoted name) come a subject, or two words or more and no preposition? An
    object's continuation names, and at most places what it names ("the Review from my
    calendar", "the EUR one")."""
    written = part.split()
    names = [
        i
        for i, w in enumerate(words)
        if i in quoted or any(ch.isdigit() for ch in w) or (i < len(written) and written[i][:1].isupper())
    ]
    if not names or len(written) != len(words):
        return False
    rest = words[names[-1] + 1 :]
    if rest and rest[0] in _PREDICATES:
        return True  # "..., salaries.xlsx stays", "B-40 remains", "the Acme bill can wait"
    if not rest or rest[0] in _PREPOSITIONS:
        return False
    # a subject of its own ("... B-40 we keep"), or a predicate of two words or more ("... B-40
    # remains open"); one noun after the name is the name's ("the Review meeting", "the EUR one")
    return bool(_SUBJECTS & set(rest)) or (len(rest) >= 2 and not _PREPOSITIONS & set(rest))


#: Words after which an inflected word in an object is a noun ("email the booking", "my
#: recording"), not the mention of a verb.
_DETERMINERS = frozenset(
    {"the", "a", "an", "my", "our", "your", "his", "her", "their", "its", "this", "that"}
)


#: Words by which a message's content says its noun the other way ("... that the refund is not
#: coming"): such a mention still takes the act back.
_NEGATED_AROUND = frozenset(
    {"not", "no", "never", "cancelled", "canceled", "won't", "isn't", "wasn't", "off"}
)
#: Openings of a prohibition whose object may be records by id ("Don't pay B-522 yet").
_FORBIDDING = (("don't",), ("dont",), ("do", "not"), ("never",), ("please", "don't"), ("please", "do", "not"))
#: Words a prohibition by id may end on: when, or how politely.
_AFTER_FORBIDDEN_IDS = frozenset({"yet", "now", "today", "please", "pls", "either", "too"})


def written_alike(word: str) -> str:
    """A name as it may be written otherwise: small letters and digits only, no leading zeros and
    no possessive ("B-40", "b40", "B40's"; "INV-03", "inv3"; "@ana", "ana")."""
    plain = re.sub(r"[^a-z0-9]", "", word.casefold().removesuffix("'s"))
    return re.sub(r"(?<![0-9])0+(?=[0-9])", "", plain)


def forbidden_by_id(words: Sequence[str], text: str = "") -> tuple[str, frozenset[str]] | None:
    """A prohibition of a verb on records named by id only ("Don't pay B-522 yet", "never restart
    db-1 or db-2", "Do not delete /tmp/b.log": the folders of a path ``text`` writes are the
    path's): the verb as written and the ids; else None."""
    folders = {f.casefold() for path in _A_PATH.findall(text) for f in path.split("/")[:-1]}
    for opening in _FORBIDDING:
        at = len(opening)
        if tuple(words[:at]) != opening or len(words) < at + 2:
            continue
        names = [w for w in words[at + 1 :] if w not in ("and", "or", "the", "nor") and w not in folders]
        while names and names[-1] in _AFTER_FORBIDDEN_IDS:
            names.pop()
        if names and len(names) <= 5 and all(_an_id(w) for w in names):
            return words[at], frozenset(names)
    return None


#: What a prohibition forbids beyond the turn's request ("anything else", "any other bills").
_ANYTHING_ELSE = frozenset(
    {
        ("anything", "else"),
        ("anything", "more"),
        ("the", "others"),
        ("any", "others"),
        ("the", "rest", "of", "them"),
    }
    | {
        (a, "other", n)
        for a in ("any", "the")
        for n in ("bills", "ones", "invoices", "payments", "one", "bill")
    }
    | {("other", n) for n in ("bills", "ones", "invoices", "payments")}
)


def forbids_only_more(words: Sequence[str]) -> bool:
    """Is the clause a prohibition of one verb on nothing but more than the turn asks ("Don't pay
    anything else", "do not pay any other bills")? It narrows the request, never takes it back."""
    at = (
        2
        if tuple(words[:2]) == ("do", "not")
        else 1
        if tuple(words[:1]) in (("don't",), ("dont",), ("never",))
        else 0
    )
    return at > 0 and len(words) > at + 1 and tuple(words[at + 1 :]) in _ANYTHING_ELSE


#: How a message's sentence goes on to say more of it ("Tell Carla yes, Thursday is fine", "tell
#: Bob the build is green and the tests pass").
_SAYING_ON = frozenset({",", "and", ";", "-", "\u2013", "\u2014"})
#: Words that open a clause that speaks of the request, never more of a message; a means ("...,
#: in a DM") says how, not what.
_NOT_SAID_ON = frozenset(
    {"don't", "dont", "do", "never", "but", "except", "then", "also", "in", "by", "via", "over", "per",
     "using"}
)  # fmt: skip


def message_continued(parts: Sequence[tuple[Sequence[str], Any]], joiners: Sequence[str]) -> set[int]:
    """Which clauses of a sentence (its words and their parse, with what joins each to the one
    before) go on with what a message says: each after a verb of telling whose content follows whom
    it addresses or "that" ("Tell Carla yes, Thursday is fine", "tell Bob the build is green and
    the tests pass"), with no head of its own nor of any clause between, and not opened by a
    negation or a word of the request's ("..., don't merge", "..., then pay B-40")."""
    out: set[int] = set()
    telling = False
    for i, (words, parse) in enumerate(parts):
        if parse.head is not None:
            head = words[parse.head]
            telling = head in MESSAGE_VERBS and parse.stop < len(words) and not parse.marked
            continue
        if not (telling and i and joiners[i] in _SAYING_ON and words):
            telling = False
            continue
        if words[0] in _NOT_SAID_ON or _retracts(words) or _instead(words):
            telling = False
            continue
        out.add(i)
    return out


def _unmentioned(read: Sequence[tuple[Clause, bool]]) -> list[Clause]:
    """The clauses with the heads taken back whose verb the turn also uses elsewhere: in a clause
    that asks for nothing, in a message's content, or inflected in an object ("avoid cancelling
    it"). A prohibition of the verb on other records by id ("Pay B-521. Don't pay B-522.") takes
    back no head whose own words name records by id and none of those."""
    mentioned: set[str] = set()
    forbidden: dict[str, set[str]] = {}  # a verb as a prohibition by id writes it: the ids
    for clause, _content in read:
        if clause.head is None and forbids_only_more(clause.words):
            continue  # "Pay B-31. Don't pay anything else.": the request stands
        by_id = (
            forbidden_by_id(clause.words, clause.text) if clause.head is None and not clause.quoted else None
        )
        if by_id is not None:
            forbidden.setdefault(by_id[0], set()).update(by_id[1])
            continue
        for i, word in enumerate(clause.words):
            if (clause.head is not None and i == clause.head) or i in clause.quoted:
                continue
            inside = clause.head is not None and clause.head < i < clause.stop
            if inside and (not word.endswith(("ing", "ed")) or clause.words[i - 1] in _DETERMINERS):
                continue  # "avoid cancelling it" mentions cancelling; "email the booking" a booking
            said_after = (
                clause.head is not None and i >= clause.stop and i and clause.words[i - 1] in _DETERMINERS
            )
            if said_after and not _NEGATED_AROUND.intersection(clause.words[clause.stop :]):
                continue  # "Text Lee that the refund is on its way": the refund, a noun of the message
            mentioned.add(word)
    out: list[Clause] = []
    for clause, _content in read:
        if clause.head is not None:
            bases = _bases(clause.words[clause.head])
            ids = {
                w for w in (*clause.words[clause.head + 1 :], *_words_of_all(clause.coordinated)) if _an_id(w)
            }
            others = set().union(
                *(v for verb, v in forbidden.items() if any(verb in forms(b) for b in bases))
            )
            alike = {written_alike(w) for w in others}  # "Pay B-40. Don't pay B40.": the same record
            if any(forms(b) & mentioned for b in bases) or (
                others and (not ids or {written_alike(w) for w in ids} & alike)
            ):
                clause = replace(clause, head=None)
        out.append(clause)
    return out


def _words_of_all(texts: Iterable[str]) -> list[str]:
    return [w for text in texts for w in words_of(text)]


class GrammarReader:
    """The default :class:`RequestReader`: the positive grammar of the module, deterministic."""

    def mandates(self, request: str) -> tuple[Mandate, ...]:
        return tuple(
            Mandate(
                c.words[c.head],
                c.words[c.head : c.stop],
                c.text,
                c.sentence,
                coordinated=c.coordinated,
                antecedents=c.antecedents,
            )
            for c in clauses_of(request)
            if c.head is not None
        )


#: "If <it | a name> is rated <higher than | above | at least | ...> N[ stars], <imperative>": a
#: condition the gateway can check on a trusted ``rating`` field, and nothing else.
_CONDITION = re.compile(
    r"^if (?P<about>[\w .&-]{1,60}?)(?: is|'s| gets) rated (?P<cmp>higher than|more than|better than|above|"
    r"over|at least|lower than|less than|worse than|below|under|at most) (?P<n>\d{1,3}(?:\.\d{1,2})?)"
    r"(?: stars?)?\s*,\s*(?P<rest>\S.*)$"
)
_COMPARISONS = {
    "higher than": ">", "more than": ">", "better than": ">", "above": ">", "over": ">", "at least": ">=",
    "lower than": "<", "less than": "<", "worse than": "<", "below": "<", "under": "<", "at most": "<=",
}  # fmt: skip


def _condition(sentence: str) -> tuple[Condition, str] | None:
    """A sentence that opens with a checkable condition: the condition, and the rest of the
    sentence (what it asks for under it); None for any other sentence."""
    found = _CONDITION.match(normal(sentence))
    if found is None:
        return None
    about = tuple(words_of(found.group("about")))
    if not about or (about != ("it",) and any(_marker(w) or w in FUNCTION_WORDS for w in about)):
        return None  # "if it", or a name of content words only ("if Casa Azul")
    cmp = _COMPARISONS[found.group("cmp")]
    text = sentence.strip()[: len(sentence.strip()) - len(found.group("rest"))].rstrip(" ,")
    return Condition("rating", cmp, float(found.group("n")), about, text), found.group("rest")


def conditional_mandates(request: str, reader: RequestReader | None = None) -> list[Mandate]:
    """The mandates a turn gives under a condition the gateway can check (:class:`Condition`):
    for each sentence that opens with one ("If it is rated higher than 4, go ahead and book 2
    nights for me"), the turn is read again with that opening taken off, and the mandates the
    rest of the sentence then gives carry the condition. Every rule of the grammar applies to what
    is left (a negation, another condition, a question, a later retraction: no mandate). Nothing
    here is a mandate by itself: :func:`mandates` never returns these; a rule that admits a call
    on one must first check its condition on trusted tool data (``policies.supervisor.decide.conditions``)."""
    out: list[Mandate] = []
    for sentence, _question in _sentences(request):
        found = _condition(sentence)
        if found is None:
            continue
        condition, rest = found
        kept = mandates(request.replace(sentence, rest, 1), reader)
        out += [replace(m, condition=condition) for m in kept if normal(rest).startswith(normal(m.sentence))]
    return out


#: The reader every rule uses unless it is given another.
DEFAULT_READER: RequestReader = GrammarReader()


def mandates(request: str, reader: RequestReader | None = None) -> Sequence[Mandate]:
    """The mandates of ``request``, by ``reader`` (default: :data:`DEFAULT_READER`)."""
    return (reader or DEFAULT_READER).mandates(request)


def _heads(mandate: Mandate, phrase: str) -> bool:
    wanted = tuple(words_of(phrase))
    if bool(wanted) and mandate.words[: len(wanted)] == wanted:
        return True
    # a phrasal verb around its object: "roll it back", "roll checkout-api back"
    words = mandate.words
    return (
        len(wanted) == 2
        and wanted[1] in _PARTICLES
        and words[:1] == wanted[:1]
        and any(
            len(words) > gap and words[gap] == wanted[1] and all(map(_splits_a_phrasal, words[1:gap]))
            for gap in (2, 3)
        )
    )


def _splits_a_phrasal(word: str) -> bool:
    """May ``word`` stand between a phrasal verb's verb and its particle: a pronoun ("roll it
    back") or a record's name written as one token ("roll checkout-api back")?"""
    return word in {"it", "them", "this", "that", "these", "those", "everything"} or (
        any(c.isdigit() or c in "-_." for c in word) and word.strip("-_.") != ""
    )


def asks_for(text: str, phrases: Iterable[str], reader: RequestReader | None = None) -> bool:
    """Does a mandate of ``text`` have one of ``phrases`` (a declared verb: ``cancel``) at its
    head, as written: "Cancel the Review" asks to cancel; "Avoid cancelling it", "Instead of
    cancelling it, move it", "I will cancel it" do not?"""
    wanted = list(phrases)
    return any(_heads(m, p) for m in mandates(text, reader) for p in wanted)


def affirmative_words(text: str, phrases: Iterable[str], reader: RequestReader | None = None) -> bool:
    """Does a mandate of ``text`` hold one of the declared ``phrases`` (its head or a word of its
    object, inflected or not): "send my passport number to the hotel" asks for the passport; so
    does "The hotel needs my passport number. Send it to them", where the object points back to a
    sentence that names it (:attr:`Mandate.antecedents`)?"""
    wanted = list(phrases)
    return any(
        position(m.words, p) or any(position(w, p) for w in map(words_of, m.antecedents) if not _negates(w))
        for m in mandates(text, reader)
        for p in wanted
    )


#: Words that negate what a sentence says ("My passport number isn't needed").
_NEGATING = frozenset({"not", "no", "never", "nothing", "none", "neither", "nor", "without", "nobody"})


def _negates(words: Sequence[str]) -> bool:
    return any(w in _NEGATING or w.endswith("n't") for w in words)


def step_sentences(
    text: str, verbs: Sequence[str], objects: Sequence[str] = (), reader: RequestReader | None = None
) -> list[str]:
    """The sentences of ``text`` holding a mandate for a step: one of ``verbs`` at its head and,
    when any are given, one of ``objects`` after it ("email" the noun is not "email" the verb)."""
    out: list[str] = []
    for m in mandates(text, reader):
        verb = next((v for v in verbs if _heads(m, v)), None)
        if verb is None:
            continue
        after = len(words_of(verb))
        if (
            not objects or verb in objects or _named_in_quotes(m, after) or _acts_on(m, objects, after)
        ) and m.sentence not in out:
            out.append(m.sentence)
    return out


def step_mandates(
    text: str,
    keywords: Sequence[str] = (),
    verbs: Sequence[str] = (),
    objects: Sequence[str] = (),
    reader: RequestReader | None = None,
    *,
    antecedents: bool = True,
) -> list[Mandate]:
    """The mandates of ``text`` that ask for a kind of action: one of ``keywords`` at the head, or
    one of ``verbs`` at the head and (when any are given) one of ``objects`` after it: what
    :func:`asks_for` and :func:`asks_step` find, as the mandates themselves (for the audit).
    ``antecedents=False``: the object in the mandate's own words only (a step that takes a value
    from tool data, :class:`~policies.supervisor.rules.kinds.Follow`, is asked for in so many
    words: "The status page is X. Open it" asks to open X, never a link found elsewhere)."""
    return matching(mandates(text, reader), keywords, verbs, objects, antecedents=antecedents)


def matching(
    found: Iterable[Mandate],
    keywords: Sequence[str] = (),
    verbs: Sequence[str] = (),
    objects: Sequence[str] = (),
    *,
    antecedents: bool = True,
) -> list[Mandate]:
    """The mandates among ``found`` that ask for a kind of action (see :func:`step_mandates`)."""
    out: list[Mandate] = []
    for m in found:
        if any(_heads(m, k) for k in keywords):
            out.append(m)
            continue
        verb = next((v for v in verbs if _heads(m, v)), None)
        after = len(words_of(verb)) if verb is not None else 0
        # a verb that is one of the objects names its object ("Email Ana: ...": an email), and a
        # name in quotes right after it is the thing it makes ("Add 'Planning' on ...")
        if verb is not None and (
            not objects
            or verb in objects
            or _named_in_quotes(m, after)
            or _acts_on(m, objects, after, antecedents)
        ):
            out.append(m)
    return out


def _named_in_quotes(mandate: Mandate, after: int) -> bool:
    """Does the mandate's object open with a name in quotes ("Add 'Planning' on 2026-12-03",
    "Schedule a 'Retro' for ..."): a thing it names itself, of the kind its verb makes?"""
    rest = [w for w in mandate.words[after:] if w not in ("a", "an", "the", "my", "our")]
    return bool(rest) and rest[0][:1] in "'\"‘“"


def _acts_on(mandate: Mandate, objects: Sequence[str], after: int, antecedents: bool = True) -> bool:
    """Does the mandate act on one of ``objects``: one of them after its verb, or in what its object
    points back to (:attr:`Mandate.antecedents`: "Agenda for 2026-11-24: email it to ana", "Find the
    hotel in my booking. Email them that we will arrive late")?"""
    if any(at >= after for o in objects for at in position(mandate.words, o)):
        return True
    return antecedents and any(position(words_of(text), o) for text in mandate.antecedents for o in objects)


@lru_cache(maxsize=4096)  # a run's every call reads the same turn's mandates again
def _span(mandate: Mandate) -> tuple[str, int, int, int] | None:
    """Where the mandate's words stand in its text: the text (whitespace collapsed, curly quotes
    straightened), where its verb starts and ends, and where the last word of its object ends; None
    when the words are not written there one after the other (a quote the reader expanded)."""
    text = " ".join(mandate.text.split()).replace("\u2019", "'").replace("\u2018", "'")
    found = list(_WORD.finditer(text))
    folded = [m.group().casefold() for m in found]
    n = len(mandate.words)
    at = next((i for i in range(len(folded) - n + 1) if tuple(folded[i : i + n]) == mandate.words), None)
    if at is None and n > 1:  # its verb as the reader mapped it ("paying" as ``pay``)
        at = next(
            (i for i in range(len(folded) - n + 1) if tuple(folded[i + 1 : i + n]) == mandate.words[1:]), None
        )
    if at is None or n == 0:
        return None
    return text, found[at].start(), found[at].end(), found[at + n - 1].end()


def said(mandate: Mandate) -> str:
    """A mandate as the human and the audit read it: its verb and its object as the user wrote
    them ("cancel · the Budget Review")."""
    span = _span(mandate)
    if span is None:  # words the reader read from elsewhere (a quote it expanded): as it read them
        rest = " ".join(mandate.words[1:])
    else:
        text, _start, verb_end, end = span
        while end < len(text) and text[end] in "'\"\u2019\u201d":
            end += 1  # a quoted name's closing mark
        rest = text[verb_end:end].strip() if len(mandate.words) > 1 else ""
    return f"{mandate.verb} · {rest}" if rest else mandate.verb


#: Verbs whose mandate may say, after whom it addresses, what a message says.
MESSAGE_VERBS = _ADDRESSING_HEADS | {"reply", "answer", "write", "say", "post", "send", "forward"}


def written_verb(mandate: Mandate) -> str:
    """The verb of a mandate as the turn writes it, case folded ("ask" for a question to Bob the
    reader takes as ``tell``); the mandate's verb where its words are not written one after the
    other."""
    span = _span(mandate)
    return mandate.verb if span is None else span[0][span[1] : span[2]].casefold()


def told_content(mandate: Mandate) -> str:
    """What a mandate of messaging someone dictates the message to say, as written after its verb
    and whom it addresses ("tell Bob the build is green for review": "the build is green for
    review"); empty for any other mandate. It is the message's, never the request's: a word in it
    ("for review", "I think", "at 3pm") says nothing of whether to send it."""
    span = _span(mandate)
    if mandate.verb not in MESSAGE_VERBS or span is None:
        return ""
    text, _start, _verb_end, end = span
    return text[end:].strip()


@lru_cache(maxsize=4096)
def stated(mandate: Mandate) -> str:
    """What a mandate asks for as the user wrote it: its verb and its object, from its text ("cancel
    the Budget Review on 2026-11-24"; not the politeness before it, nor a message's content after
    a verb of telling), and the clauses that continue its object (:attr:`Mandate.coordinated`,
    joined by `` | ``); its text when its words are not written there one after the other."""
    span = _span(mandate)
    if span is None:
        own = mandate.text
    else:
        text, start, _verb_end, end = span
        # to the end of the last token: a password's "*", a handle's trailing mark
        tail = text[end:].split(" ", 1)[0] if text[end:] else ""
        own = text[start : end + len(tail)]
    own, antecedents = _the_label_in_place(own, mandate)
    return " | ".join(without_quoted_content(t) for t in [own, *mandate.coordinated, *antecedents])


def _the_label_in_place(own: str, mandate: Mandate) -> tuple[str, tuple[str, ...]]:
    """A mandate's own text with the one "it" of its object read as the label before its
    sentence's colon, where that label names a record by an id ("BK-4471: put it on FL-2042":
    "put BK-4471 on FL-2042"; "Anna Berg's RES-2041: extend it to ..."), and the antecedents left;
    as they are otherwise (a label of no id, "Urgent: pay it", or an earlier sentence)."""
    its = list(_IT_ALONE.finditer(own))
    if len(its) != 1 or POINTING_BACK - {"it"} & set(words_of(own)):
        return own, mandate.antecedents
    sentence = mandate.sentence.lstrip()
    for label in mandate.antecedents:
        if (
            len(set(AN_ID_WORD.findall(label))) == 1
            and sentence.startswith(label)
            and sentence[len(label) :].lstrip().startswith(":")
        ):
            placed = own[: its[0].start()] + label + own[its[0].end() :]
            return placed, tuple(a for a in mandate.antecedents if a != label)
    return own, mandate.antecedents


#: A record's id as a turn or a value writes it, a word of letters and digits ("BK-4471", "RES-2041",
#: "PT-301", "S-20930"): what a label, a message or a call names a record by.
AN_ID_WORD = re.compile(r"(?<![\w-])[A-Za-z]+[-_]?\d+(?:[-_]\w+)*(?![\w-])")
#: "it" as a word of its own (not of "it's", "edit", "IT-4").
_IT_ALONE = re.compile(r"(?i)(?<![\w'’-])it(?![\w'’-])")


#: Nouns that introduce a text the call carries, not a record it acts on ("with the reference
#: 'LU-9 paid separately'", "the subject 'Invoice B-40'"): a quote after one is content.
_CONTENT_NOUNS = frozenset(
    """
    reference ref memo note notes message subject body text comment comments caption description
    remark remarks saying says reading reads wording
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: The words of an argument's name that make it a field of text the call carries (``memo``,
#: ``body``, ``subject_line``): a value in the turn's content may fill it, never one that names.
_CONTENT_FIELDS = _CONTENT_NOUNS | {"content", "title", "summary", "comment", "reason", "details"}


def content_field(arg: str) -> bool:
    """Is ``arg`` a field of text (its name holds a content noun: ``memo``, ``text``, ``body``)?"""
    return bool(set(re.split(r"[^a-z]+", arg.lower())) & _CONTENT_FIELDS)


#: Words by which a request only refers to what follows ("quoting B-40", "re: mallory", "as per
#: B-40"), as a regular expression's alternatives: what follows is not the call's object.
REFERRING_WORDS = r"quoting|citing|referencing|regarding|concerning|re:?|cf\.?|as\s+per"
#: Someone a turn names only as the way to someone else: "ana's bot", "mallory's boss", "whoever
#: replaced mallory". The name is not whom the words name (a regular expression: each match is the
#: name's part to take out; "Bob's account" is still Bob's).
SOMEONE_ELSE = re.compile(
    r"(?i)(?<![\w@.-])[\w.-]+(?:'s|')(?=\s+(?:(?:new|old|former|current|other|own)\s+)?(?:"
    r"bots?|boss|manager|assistants?|team|replacement|successor|predecessor|friends?|colleagues?|deputy|"
    r"partner|wife|husband|kids?|sons?|daughters?|mother|father|mom|dad|sister|brother|interns?|lead|"
    r"reports?|alt|alias|lawyer|accountant|secretary|admin|delegate|backup|proxy|guests?|clients?|"
    r"customers?|contacts?|family|parents?|roommate|flatmate|landlord|neighbou?r)\b)"
    r"|\b(?:whoever|whomever|someone\s+who|the\s+one\s+who|anyone\s+who)\s+\w+\s+[^\s,;.|]+"
)
#: An id given unquoted as a field's text ("with the memo B-40", "reference: B-40"): content.
_LABELLED_ID = re.compile(
    r"(?i)(\b(?:with\s+(?:the\s+|a\s+|my\s+)?(?:memo|reference|ref|note|subject|comment|caption|description|remark)"
    r"|\b(?:memo|reference|ref|note|subject|comment|caption|description|remark)\s*:?"
    # an id a payment only refers to ("quoting B-40", "re: B-40", "as per B-40", "cf. B-40")
    rf"|\b(?:{REFERRING_WORDS}|ref|per|see"
    # what a value is compared with ("72000, on par with E-102", "to match E-102", "same as B-40")
    r"|on\s+par\s+with|to\s+match|matching|same\s+as|equal\s+to|in\s+line\s+with|as\s+much\s+as)"
    r"(?:\s+(?:the|my|our|its|their|[a-z]+'s))?(?:\s+[A-Za-z]+){0,2}(?=\s+[^\s,;()\[\]]*\d))\s*)"
    r"([^\s,;()\[\]]*\d[^\s,;()\[\]]*?)(?=[\s,;.!?)\]]|$)"
)


#: A name a value is only compared with ("72000 to match Sam Ortiz", "on par with Sam Ortiz", "the
#: same as Dana Lee's"): the person is weighed, not named as the call's record. Written with its
#: capitals, one to three words.
_COMPARED_NAME = re.compile(
    r"(\b(?:on\s+par\s+with|to\s+match|matching|(?:the\s+)?same\s+as|equal\s+to|in\s+line\s+with|as\s+much\s+as"
    r"|more\s+than|less\s+than|higher\s+than|lower\s+than|above|below|unlike)\s+)"
    r"[A-Z][\w-]*(?:'s|')?(?:\s+[A-Z][\w-]*(?:'s|')?){0,2}"
)


def without_quoted_content(text: str) -> str:
    """``text`` without the quoted texts it gives as a call's content ("Pay LD-208 with the
    reference 'LU-9 paid separately'" → "Pay LD-208 with the reference"): a record written inside
    such a quote is named by nobody. A quote that is the object itself ("cancel 'Budget Review'")
    stays: it is how users write a name. An id written unquoted right after such a label ("with
    the memo B-40", "memo: B-40") is content too, and a name a value is only compared with ("to
    match Sam Ortiz") is no name of the call's record."""
    text = _COMPARED_NAME.sub(lambda m: m.group(1), _LABELLED_ID.sub(lambda m: m.group(1), text))
    straight = text.translate(APOSTROPHES)
    out, at = [], 0
    for quote in _QUOTED.finditer(straight):
        if quote.start() < at:
            continue
        before = words_of(text[: quote.start()])[-3:]
        if any(w in _CONTENT_NOUNS for w in before):
            end = quote.end()
            if straight[quote.start()] == "'":  # a possessive inside it ("'not Acme Supplies' bill'")
                closing = [m.end() for m in re.finditer(r"'(?!\w)", straight) if m.end() > end]
                possessive = straight[end - 2 : end] == "s'" and re.match(r" \w", straight[end:])
                end = closing[-1] if closing else len(straight) if possessive else end
            out.append(text[at : quote.start()])
            at = end
    return "".join(out) + text[at:] if out else text


def stated_text(found: Iterable[Mandate]) -> str:
    """The text the mandates ``found`` state (:func:`stated`), each once, joined by `` | ``: what
    every rule that admits a value "because the user named it" reads (issue 49: naming and
    authority consume mandates, nothing else). A record or a value the turn writes only in a
    clause that yields no mandate ("Don't pay the Globex invoice", "Eve wrote: ...", a question)
    is in none of it. Empty when there is no mandate."""
    return " | ".join(dict.fromkeys(stated(m) for m in found))


def asks_step(
    text: str, verbs: Sequence[str], objects: Sequence[str] = (), reader: RequestReader | None = None
) -> bool:
    """Does a mandate of ``text`` ask for a step: one of ``verbs`` at its head and, when any are
    given, one of ``objects`` after it in the same clause?"""
    return bool(step_sentences(text, verbs, objects, reader))


#: Words that say nothing of what a confidential field holds (``card.number``: the card): common
#: words any request may use. A field named only by such words needs ``Reader.names``.
GENERIC_FIELD_WORDS = frozenset(
    {
        "number", "no", "nr", "num", "value", "id", "code", "text", "data", "field", "body", "message",
        "content", "note", "notes", "name", "info", "details", "detail", "result", "item", "entry",
        "string", "line", "type", "status", "key", "secret", "token", "thing", "one", "all",
    }
)  # fmt: skip


#: Verbs a tool's name begins with, which say nothing of what it returns.
_VERBS = frozenset({"get", "list", "read", "fetch", "lookup", "load", "show", "find", "search"})


def _path_words(field: str) -> tuple[list[str], str]:
    tool, _, path = field.partition(".")
    return [w for w in re.split(r"[._\s*-]+", path.casefold()) if w], tool


def field_word(field: str) -> str:
    """The word that names what a sensitive field holds: the last word of its path that is not a
    generic one (``get_account.card.number`` → ``card``, ``recovery_code`` → ``recovery``); for a
    whole result (``*``), the last word of the tool's name (``get_salary`` → ``salary``)."""
    words, tool = _path_words(field)
    named = [w for w in words if w not in GENERIC_FIELD_WORDS] or words
    if not named:
        named = [w for w in re.split(r"[._\s-]+", tool.casefold()) if w and w not in _VERBS]
    return named[-1] if named else ""


def generic_field(field: str) -> bool:
    """Is a sensitive field named only by common words (``get_user.number``, ``mail.body``), so
    that any request using the word would name it?"""
    word = field_word(field)
    return not word or word in GENERIC_FIELD_WORDS
