"""One reading of words, for every rule that reads the user's request: whether it asks for a kind
of action (:class:`~policies.supervisor.rules.Requested`), a step to take from tool data
(:class:`~policies.supervisor.rules.Follow`), or a confidential value by name
(:class:`~policies.supervisor.rules.Reader`).

**Whole words, and their inflections.** A word the policy declares (``cancel``) matches a word of
the text that is the same word or one of its regular inflections (``cancels``, ``cancelled``,
``cancelling``, ``cancelled``; ``reply``: ``replies``, ``replied``), never a longer word it
begins (``pay`` is not ``payees``, ``card`` is not ``cardiology``, ``key`` is not ``keynote``).
Other forms (``payment``, ``paid``) are words of their own: a policy that means them lists them.
A declared phrase of several words matches those words in a row.

**Only what the user asks.** The request is read clause by clause (clauses end at sentence
punctuation, commas, semicolons, line breaks and the joining words ``and``, ``then``, ``but``,
``also``, ``after that``, ``afterwards``). A clause asks for nothing when it is

- negated: a negation (``not``, ``no``, ``never``, ``don't``, ``without`` ...) stands before the
  word ("Don't cancel anything yet", "do not pay it");
- a question: it begins with a question word or an auxiliary (``is``, ``did``, ``what``, ``how``
  ...: "Is the Review cancelled?"), or it is the last clause of a sentence that ends in ``?``
  unless that sentence opens with a polite request ("Can you cancel the Review?" asks);
- subordinate: ``whether``, ``if`` or ``unless`` stands before the word ("tell me whether the
  Review is cancelled").

Deterministic and pure; it reads no grammar, and it errs towards asking for nothing: a request it
cannot read as asking leaves the call to a human.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "GENERIC_FIELD_WORDS",
    "Clause",
    "affirmative_words",
    "asks_step",
    "clauses_of",
    "field_word",
    "forms",
    "generic_field",
    "position",
    "words_of",
]

#: What a word is, for this reading: letters, digits and the joiners of an address or a handle.
_WORD = re.compile(r"[\w@.+'-]*\w|\w")
_SENTENCE_END = re.compile(r"([.!?;:]+)(?=\s|$)|\n+")
_JOINERS = re.compile(r"(?i),(?=\s|$)|\b(?:and|then|but|also|after that|afterwards)\b")

NEGATIONS = frozenset(
    {
        "not",
        "no",
        "never",
        "nothing",
        "none",
        "neither",
        "nor",
        "without",
        "don't",
        "dont",
        "doesn't",
        "didn't",
        "won't",
        "wont",
        "shouldn't",
        "mustn't",
        "can't",
        "cannot",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "haven't",
        "hasn't",
    }
)
#: Words a question begins with (a clause that begins with one asks for nothing).
QUESTION_WORDS = frozenset(
    {
        "is",
        "are",
        "was",
        "were",
        "did",
        "does",
        "has",
        "have",
        "had",
        "what",
        "what's",
        "whats",
        "why",
        "when",
        "where",
        "who",
        "who's",
        "whom",
        "whose",
        "which",
        "how",
        "how's",
        "shall",
        "should",
        "am",
        "isn't",
        "aren't",
        "wasn't",
        "didn't",
        "doesn't",
        "hasn't",
        "haven't",
    }
)
#: Words before which what follows is a condition or an indirect question, not a request.
SUBORDINATORS = frozenset({"whether", "if", "unless", "in case"})
#: How a polite request opens ("Can you cancel it?" asks).
_POLITE = re.compile(r"(?i)^(?:please\b|(?:can|could|would|will)\s+(?:you|u)\b|kindly\b)")


def normal(text: str) -> str:
    return " ".join(text.split()).casefold().replace("\u2019", "'")


def words_of(text: str) -> list[str]:
    """The words of ``text``, case folded (``'s`` kept: "Bob's" is one word)."""
    return _WORD.findall(normal(text))


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


@dataclass(frozen=True)
class Clause:
    """One clause of a request: its words, and whether it is the last of a question."""

    text: str
    words: tuple[str, ...]
    questioned: bool

    def asks_at(self, at: int) -> bool:
        """Does the word at ``at`` stand where the user asks for something: no negation and no
        subordinator before it, and the clause no question?"""
        if self.questioned or (self.words and self.words[0] in QUESTION_WORDS):
            return False
        before = self.words[:at]
        if any(w in NEGATIONS or w.endswith("n't") for w in before):
            return False
        return not any(w in SUBORDINATORS for w in before)


def _sentences(text: str) -> list[tuple[str, bool]]:
    """The sentences of ``text`` and whether each ends in a question mark."""
    out: list[tuple[str, bool]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        body = text[start : match.start()].strip()
        if body:
            out.append((body, "?" in (match.group(1) or "")))
        start = match.end()
    tail = text[start:].strip()
    if tail:
        out.append((tail, False))
    return out


def clauses_of(text: str) -> list[Clause]:
    """The clauses of ``text``, each with whether it belongs to a question (see the module)."""
    out: list[Clause] = []
    for sentence, question in _sentences(text):
        parts = [p.strip() for p in _JOINERS.split(sentence) if p and p.strip()]
        polite = bool(_POLITE.match(sentence))
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            words = words_of(part)
            if i == 0 and polite:  # "can you" / "please" opens the request, it asks nothing itself
                words = _without_polite(words)
            out.append(Clause(part, tuple(words), question and last and not polite))
    return out


def _without_polite(words: list[str]) -> list[str]:
    if words[:1] in (["please"], ["kindly"]):
        return words[1:]
    return words[2:] if len(words) >= 2 and words[1] in ("you", "u") else words


def affirmative_words(text: str, phrases: Iterable[str]) -> bool:
    """Does one clause of ``text`` ask for one of the declared ``phrases``: the phrase stands in
    it where nothing negates it, makes it a question or a condition?"""
    wanted = list(phrases)
    return any(c.asks_at(at) for c in clauses_of(text) for p in wanted for at in position(c.words, p))


def asks_step(text: str, verbs: Sequence[str], objects: Sequence[str] = ()) -> bool:
    """Does one clause of ``text`` ask for a step: one of ``verbs`` stands where the user asks for
    something, and (when any are given) one of ``objects`` stands after it in the same clause
    ("email" the noun is not "email" the verb)?"""
    for clause in clauses_of(text):
        at = [i for v in verbs for i in position(clause.words, v) if clause.asks_at(i)]
        if at and (not objects or any(o > min(at) for ob in objects for o in position(clause.words, ob))):
            return True
    return False


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
