"""Records of tool data that a request names: "Bob's message", "the Review on 2026-11-24", "the
bill in bill-dec.txt". A record is a mapping inside a tool's result (a message, an event, a file,
a payee); the request *names* it when it writes the value of one of the tool's record keys
(``ToolSpec.record_keys``: a message's ``from``, an event's ``title``) and no other record of the
run holds that value under that key, or when it writes every argument of the call that returned
it (the page at the URL it gave, the file it named: the whole result is then the record).

What a named record holds is what the request points to: the values of a kind in some of its
fields (the link in Bob's message, the sender to reply to, the attendees of the Review). Those are
compared as provenance compares values (:mod:`policies.provenance`: identifiers in canonical form,
other text normalised; amounts as :mod:`policies.derivation` reads them).

Deterministic and pure; it reads no grammar. "Names" means the text holds the value between word
boundaries: a sender whose handle is a common word is named by any request that uses the word.
That is why every use of a named record also wants the value to be the only one of its kind in
what the request points to (a second record named in the same sentence, or a second value planted
beside the first, leaves nothing followed).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from policies.derivation import amounts_in
from policies.identifiers import IDENTIFIER_KINDS, Identifier, canonical_number
from policies.provenance import (
    Source,
    appears,
    identifiers,
    identity,
    leaf_paths,
    leaf_values,
    normalize_text,
    path_matches,
)

__all__ = [
    "COMMON_WORDS",
    "Record",
    "asks_step",
    "groups",
    "identity_of",
    "kinds_in",
    "named_records",
    "points_to",
    "sentences",
    "whole_values",
    "word_starts",
]

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
#: Words that name no record, whatever a record's key holds (a sender who calls themselves "the").
COMMON_WORDS = frozenset(
    re.findall(
        r"[\w']+",
        "the and for with from this that these those you your yours our ours their them they all "
        "any one some each every who whom whose what which when where there here then than into "
        "onto about after before again also just only please thanks thank yes not can could would "
        "should will shall may might must have has had was were are been being did does done get "
        "got make made let via per out off over under too very more most less much many same other "
        "another new old me my mine his her hers its it's",
    )
)


def word_starts(words: Sequence[str], keywords: Sequence[str]) -> list[int]:
    """Where in ``words`` a keyword begins a word (a keyword of several words: the words from there)."""
    wanted = [(normalize_text(k), len(normalize_text(k).split())) for k in keywords]
    return [i for i in range(len(words)) if any(" ".join(words[i : i + n]).startswith(k) for k, n in wanted)]


def asks_step(text: str, verbs: Sequence[str], objects: Sequence[str] = ()) -> bool:
    """Does ``text`` (a clause, a sentence) ask for a step: one of ``verbs`` begins a word, and
    (when any are given) one of ``objects`` begins a later word ("email" the noun is not "email"
    the verb)?"""
    words = re.findall(r"[\w@.+'-]+", normalize_text(text))
    at = word_starts(words, verbs)
    return bool(at) and (not objects or any(o > min(at) for o in word_starts(words, objects)))


def sentences(text: str) -> list[str]:
    """The sentences of a request: split after sentence punctuation or a semicolon, and at line
    breaks."""
    return [s for s in (part.strip() for part in _SENTENCE.split(text)) if s]


@dataclass(frozen=True)
class Record:
    """A record the request names: the tool and step that returned it, the record itself (a
    mapping, or a call's whole result), and how the request names it."""

    tool: str
    step: int | None
    value: Any
    by: str
    keyed: bool

    def label(self) -> str:
        at = f" (step {self.step})" if self.step is not None else ""
        return f"the {self.tool}{at} record the request names by {self.by}"


def _mappings(value: Any) -> Iterator[Mapping[str, Any]]:
    """Every mapping inside a JSON value (itself included), depth first."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            yield item
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list | tuple):
            stack.extend(reversed(list(item)))


def _step(call: Mapping[str, Any]) -> int | None:
    step = call.get("step")
    return step if isinstance(step, int) else None


def _text_of(record: Any) -> str:
    return json.dumps(record, sort_keys=True, default=str)


def _said(value: Any, text: Source) -> bool:
    ident = identity(value)
    return ident is not None and appears(ident, text)


def named_records(
    text: str, calls: Sequence[Mapping[str, Any]], keys: Mapping[str, Sequence[str]]
) -> list[Record]:
    """The records of the run's successful calls that ``text`` names: by a record key's value that
    no other record of the same tool holds under that key (``keys``: tool → its record keys), or
    by every argument of the call that returned them (the whole result)."""
    said = Source("request", text)
    held: dict[tuple[str, str, Any], set[str]] = {}
    keyed: list[tuple[tuple[str, str, Any], Record]] = []
    out: list[Record] = []
    for call in (c for c in calls if c.get("ok", True) and "observation" in c):
        tool, observation = str(call.get("tool")), call.get("observation")
        given = leaf_values(call.get("args") or {})
        if given and all(_said(v, said) for v in given):
            out.append(Record(tool, _step(call), observation, "the arguments of its call", False))
        asked_for = Source("args", " | ".join(str(v) for v in given))
        for record in _mappings(observation):
            for key in keys.get(tool, ()):
                ident = identity(record.get(key))
                if ident is None:
                    continue
                held.setdefault((tool, key, ident), set()).add(_text_of(record))
                # a key that is a common word, or part of what the call was asked for (a sender
                # named "random" in #random), names nothing: the request wrote it for another reason
                common = isinstance(ident, str) and ident in COMMON_WORDS
                if not common and not appears(ident, asked_for) and appears(ident, said):
                    by = f"{key}={record.get(key)}"
                    keyed.append(((tool, key, ident), Record(tool, _step(call), record, by, True)))
    named = [record for where, record in keyed if len(held[where]) == 1]
    narrower = {(r.tool, r.step) for r in named}  # a record named by its key, not its call's whole result
    out = [r for r in out if (r.tool, r.step) not in narrower] + named
    return list({(r.tool, r.step, _text_of(r.value)): r for r in out}.values())


def identity_of(value: Any) -> Identifier | str | None:
    """What records compare of a value: an identifier as given (``(kind, canonical)``), else its
    identity (:func:`policies.provenance.identity`)."""
    if isinstance(value, tuple) and len(value) == 2 and value[0] in IDENTIFIER_KINDS:
        return (value[0], str(value[1]))
    return identity(value)


def _of_kind(text: str, ident: Identifier | str) -> set[Any]:
    """The values of ``ident``'s kind written in one field's text."""
    whole = identity(text)
    if not isinstance(ident, tuple):
        return {whole} if whole is not None and not isinstance(whole, tuple) else set()
    if ident[0] == "amount":
        return {("amount", canonical_number(str(v))) for v, pct in amounts_in(text) if not pct}
    found = identifiers(text, [ident[0]])
    return found | ({whole} if isinstance(whole, tuple) and whole[0] == ident[0] else set())


def _scalar(item: Any) -> bool:
    return isinstance(item, str | int | float) and not isinstance(item, bool)


def groups(record: Any, like: Any, fields: Sequence[str] = ()) -> list[tuple[frozenset[Any], bool]]:
    """The fields of ``record`` (those under ``fields``; empty: all) that hold values of ``like``'s
    kind: each field's values, and whether the field is a list of values (a meeting's attendees)
    rather than one value (a message's text). Lists of records are walked through, so each
    message of a channel is a field group of its own."""
    ident = identity_of(like)
    out: list[tuple[frozenset[Any], bool]] = []
    if ident is None:
        return out
    stack: list[tuple[tuple[str, ...], Any]] = [((), record)]
    while stack:
        path, item = stack.pop()
        wanted = not fields or any(path_matches(path, f) for f in fields)
        if isinstance(item, Mapping):
            stack.extend(((*path, str(k)), v) for k, v in reversed(list(item.items())))
        elif isinstance(item, list | tuple) and item and all(_scalar(x) for x in item) and path:
            found = {v for x in item for v in _of_kind(str(x), ident)} if wanted else set()
            out += [(frozenset(found), True)] if found else []
        elif isinstance(item, list | tuple):
            stack.extend((path, x) for x in reversed(list(item)))
        elif _scalar(item) and wanted:
            found = _of_kind(repr(item) if isinstance(item, float) else str(item), ident)
            out += [(frozenset(found), False)] if found else []
    return out


def kinds_in(record: Any, like: Any, fields: Sequence[str] = ()) -> set[Any]:
    """The values of ``like``'s kind that ``record`` holds in ``fields`` (empty: all of it), as
    provenance compares them: identifiers of that kind in canonical form, amounts as numbers, or,
    for plain text, the whole values of the fields (normalised). ``like`` may be an identifier
    ``(kind, canonical)`` found in free text."""
    return {v for values, _listed in groups(record, like, fields) for v in values}


def points_to(record: Any, value: Any, fields: Sequence[str] = ()) -> bool:
    """Is ``value`` what the record points to in ``fields``: one field holds values of its kind,
    and it is the only one there, or one of the values of a list field (an attendee of the
    meeting)? A second field with a value of the kind (a planted one beside the first), or a
    second value in the same text, makes it ambiguous."""
    found = groups(record, value, fields)
    if len(found) != 1:
        return False
    values, listed = found[0]
    ident = identity_of(value)
    return ident in values if listed else values == {ident}


def whole_values(record: Any) -> set[Any]:
    """The identities of the record's whole field values (an id, a title, an address, a number)."""
    return {i for i in (identity(text) for _path, text in leaf_paths(record)) if i is not None}
