"""Records of tool data that a request names: "Bob's message", "the Review on 2026-11-24", "the
bill in bill-dec.txt". A record is a mapping inside a tool's result (a message, an event, a file,
a payee); the request *names* it when it writes the value of one of the tool's record keys
(``ToolSpec.record_keys``: a message's ``from``, an event's ``title``) and no other record of the
run holds that value under that key, or when it writes every argument of the call that returned
it (the page at the URL it gave, the file it named: the whole result is then the record).

What a named record holds is what the request points to: the values of a kind in some of its
fields (the link in Bob's message, the sender to reply to, the attendees of the Review). Those are
compared as provenance compares values (:mod:`policies.supervisor.reading.values`: identifiers in canonical
form, other text normalised; amounts as :mod:`policies.supervisor.provenance.derivation` reads them).

Naming is not vouching (issue 49): trust is per field, never per record. A request that says
where to read (a URL, a file, a sender) authorises the read, not what a third party wrote there,
so what a named record supplies as the user's is only what its trusted fields hold
(:meth:`Naming.vouched`); owning a record vouches for its keys, owner, id and system fields, never
its free text; a second hop names a record only through a trusted field; and a record named only
by its author's own word supplies nothing.

Deterministic and pure; it reads no grammar. "Names" means the text holds the value between word
boundaries: a sender whose handle is a common word is named by any request that uses the word.
That is why every use of a named record also wants the value to be the only one of its kind in
what the request points to (a second record named in the same sentence, or a second value planted
beside the first, leaves nothing followed).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from policies.supervisor.reading.amounts import amounts_in
from policies.supervisor.reading.identifiers import (
    IDENTIFIER_KINDS,
    Identifier,
    canonical_number,
    whole_identifier,
)
from policies.supervisor.reading.values import (
    Source,
    appears,
    identifiers,
    identity,
    leaf_paths,
    leaf_values,
    mappings,
    path_matches,
)
from policies.supervisor.reading.words import MONTH_NUMBERS, asks_step, forms, position, words_of
from policies.supervisor.request.ownership import owned, subject_ids
from policies.supervisor.rules.policy import SupervisorPolicy

__all__ = [
    "COMMON_WORDS",
    "Naming",
    "Record",
    "asks_step",
    "groups",
    "identifies",
    "identity_of",
    "kinds_in",
    "named_records",
    "naming_of",
    "narrows",
    "partly_named_records",
    "pointed_records",
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
    """Where in ``words`` a declared keyword stands as whole words (inflections included: see
    :mod:`policies.supervisor.reading.words`)."""
    return sorted({i for k in keywords for i in position(words, k)})


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
    #: where the record sits in its call's result (keys; list items transparent)
    path: tuple[str, ...] = ()
    #: named by an author key (a name its author chose), not by a field the policy trusts
    author: bool = False
    #: pointed at only by a value the call takes as its own (:func:`pointed_records`' ``taken``):
    #: it lends its own id (the appointment a call moves keeps its time), no other of its values
    id_only: bool = False

    def label(self) -> str:
        at = f" (step {self.step})" if self.step is not None else ""
        return f"the {self.tool}{at} record the request names by {self.by}"


@functools.lru_cache(maxsize=64)
def _spoken(vocabulary: frozenset[str]) -> frozenset[str]:
    """The common words and every form of ``vocabulary``'s (made once per policy: a review asks of
    every key value of every record the run read)."""
    return COMMON_WORDS | {f for w in vocabulary for f in forms(w)}


@dataclass(frozen=True)
class Naming:
    """What lets a request name a record: the tools' record keys, which fields the policy trusts
    (a record is named only by a key field a third party cannot write), whose records are the
    user's own (``ToolSpec.owner`` equal to the run's subject's id under the tool's subject key,
    ``ToolSpec.subject_field()``), and the policy's own
    vocabulary (the words of its rules: a key that is one of them, or a common word, names
    nothing, whoever wrote it).

    Trust is per field, never per record: owning a record vouches for its key fields, its owner
    field, the fields that identify it and those its system sets (:meth:`own_fields`), never for
    its free text (an event's description, location, notes), which an invitation, a shared
    calendar or a copied mail may have filled."""

    keys: Mapping[str, Sequence[str]]
    #: tool → fields that name a record by what its author calls it (a mail's display name, an
    #: invitation's title): a weaker name, refused where another record's name shares a word
    author_keys: Mapping[str, Sequence[str]] = field(default_factory=dict)
    trusted_tools: frozenset[str] = frozenset()
    field_trust: Mapping[str, Sequence[str]] = field(default_factory=dict)
    vocabulary: frozenset[str] = frozenset()
    owners: Mapping[str, str] = field(default_factory=dict)
    #: the run's subject (whom it acts for)
    subject: Mapping[str, Any] = field(default_factory=dict)
    #: tool → the key of the subject whose value owns its records (``ToolSpec.subject_field()``;
    #: unset: the owner field's own name)
    subject_keys: Mapping[str, str] = field(default_factory=dict)
    #: tool → fields its system sets (``ToolSpec.system_fields``): trusted for naming a record and
    #: for what a named record gives, not as a source elsewhere
    system_fields: Mapping[str, Sequence[str]] = field(default_factory=dict)
    #: tool → the fields that identify one of its records (the ``key`` of the policy's
    #: ``OwnedRecord`` and ``RecordLimit`` rules on it; ``id`` where unset): on the user's own
    #: record trusted like its keys (the calendar sets an event's id)
    ids: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def own_fields(self, tool: str) -> frozenset[str]:
        """The fields of the user's own record of ``tool`` that owning it vouches for: its record
        keys, owner field, identifying fields (:attr:`ids`) and system fields. Its free text is
        trusted only where the tool's trust declarations say so."""
        owner = self.owners.get(tool)
        return frozenset(
            [
                *self.keys.get(tool, ()),
                *([owner] if owner else []),
                *self.ids.get(tool, ("id",)),
                *self.system_fields.get(tool, ()),
            ]
        )

    def owned(self, tool: str, record: Any) -> bool:
        """Is ``record`` (a mapping of ``tool``'s result) one of the user's own?"""
        owner = self.owners.get(tool)
        if not owner or not isinstance(record, Mapping) or not self.trusted(tool, (owner,)):
            return False
        return owned(record, owner, subject_ids(self.subject, self.subject_keys.get(tool, owner)))

    def trusted(self, tool: str, path: Sequence[str], record: Any = None, at: Sequence[str] = ()) -> bool:
        """Is the field at ``path`` of ``tool``'s results one the policy trusts? On the user's own
        ``record`` (found at ``at`` in the call's result) its own fields (:meth:`own_fields`)
        directly under it are too; never its free text (trust is per field, never per record)."""
        under = tuple(path[len(at) :]) if tuple(path[: len(at)]) == tuple(at) else ()
        if (
            record is not None
            and len(under) == 1
            and under[0] in self.own_fields(tool)
            and self.owned(tool, record)
        ):
            return True
        if any(path_matches(path[-1:], p) for p in self.system_fields.get(tool, ())):
            return True
        flipped = any(path_matches(path, p) for p in self.field_trust.get(tool, ()))
        return (tool in self.trusted_tools) != flipped

    def names_nothing(self, ident: Any) -> bool:
        """Is a key value one that names no record: a common word, or only words of the policy's
        own rules and common words (a sender called "cancel", an event called "Password")?"""
        if not isinstance(ident, str):
            return False
        words = words_of(ident)
        spoken = self.spoken
        return not words or all(w in spoken for w in words)

    @property
    def spoken(self) -> frozenset[str]:
        """The common words and every form of the policy's own words."""
        return _spoken(self.vocabulary)

    def trusted_values(self, record: Record) -> list[str]:
        """The texts of ``record``'s fields the policy trusts; none of a record named only by its
        author's own word (naming is not vouching)."""
        if record.author:
            return []
        return [
            text
            for path, text in leaf_paths(record.value)
            if self.trusted(record.tool, (*record.path, *path), record.value, record.path)
        ]

    def vouched(self, record: Record) -> Any:
        """``record``'s value with only the fields the policy trusts kept (what naming the record
        may supply as the user's: a page, a file or a mail the request names is read, not vouched
        for); None when nothing is left, or the record is named only by its author's own word."""
        if record.author:
            return None
        return _kept(
            record.value, lambda p: self.trusted(record.tool, (*record.path, *p), record.value, record.path)
        )


def _kept(value: Any, keep: Callable[[tuple[str, ...]], bool], path: tuple[str, ...] = ()) -> Any:
    """``value`` with only the leaves whose path ``keep`` admits (list items transparent); None
    when nothing is left."""
    if isinstance(value, Mapping):
        kept = {k: _kept(v, keep, (*path, str(k))) for k, v in value.items()}
        kept = {k: v for k, v in kept.items() if v is not None}
        return kept or None
    if isinstance(value, list | tuple):
        items = [x for x in (_kept(v, keep, path) for v in value) if x is not None]
        return items or None
    if isinstance(value, bool) or value is None:
        return None
    return value if keep(path) else None


def _step(call: Mapping[str, Any]) -> int | None:
    step = call.get("step")
    return step if isinstance(step, int) else None


def _text_of(record: Any) -> str:
    return json.dumps(record, sort_keys=True, default=str)


def _said(value: Any, text: Source) -> bool:
    ident = identity(value)
    return ident is not None and appears(ident, text)


def _keyed(calls: Sequence[Mapping[str, Any]], naming: Naming) -> Iterator[tuple[Any, Record, str]]:
    """Every record of the run's successful calls under a key that may name it: ``(key identity,
    the record, what its call was asked for)``. A record key in a field the policy trusts names it
    outright; an author key (``ToolSpec.author_keys``) by its author's own word (``author``)."""
    for call in (c for c in calls if c.get("ok", True) and "observation" in c):
        tool = str(call.get("tool"))
        asked_for = " | ".join(str(v) for v in leaf_values(call.get("args") or {}))
        keys = [(k, False) for k in naming.keys.get(tool, ())]
        keys += [(k, True) for k in naming.author_keys.get(tool, ()) if k not in naming.keys.get(tool, ())]
        for path, record in mappings(call.get("observation")):
            for key, author in keys:
                for written in _with_and_without_title(record.get(key)):
                    ident = identity(written)
                    if ident is None:
                        continue
                    trusted = naming.trusted(tool, (*path, key), record, path)
                    if trusted or author:
                        by = f"{key}={record.get(key)}" + ("" if trusted else " (a name its author chose)")
                        yield ident, Record(tool, _step(call), record, by, True, path, not trusted), asked_for


#: Titles a person's name is written with or without ("Dr. Hana Lee" is named by "Hana Lee").
_TITLE = re.compile(r"(?i)^(?:dr|mr|mrs|ms|mx|prof|sir|dame)\.?\s+(?=\S)")


def _with_and_without_title(value: Any) -> list[Any]:
    """A key's value, and where it opens with a title ("Dr. Hana Lee"), the name without it."""
    if isinstance(value, str) and (bare := _TITLE.sub("", value.strip())) != value.strip():
        return [value, bare]
    return [value]


def _look_alike(ident: Any, record: Record, keyed: Sequence[tuple[Any, Record, str]]) -> bool:
    """Does another record's different name share a word with an author's name ("Carla" and
    "Carla Diaz", "IT Desk" and "IT Desk Support")? Then it names no record by that name."""
    if not isinstance(ident, str):
        return False
    mine = set(words_of(ident)) - COMMON_WORDS
    return any(isinstance(o, str) and o != ident and mine & set(words_of(o)) for o, _r, _a in keyed)


_NAME_RUN = re.compile(r"\s+([A-Z][\w'-]*)")
_NAME_BEFORE = re.compile(r"[\w,;]\s+([A-Z][\w'-]*)\s+$")
#: the same in record fields joined by " | ": a capitalised word first in its field is a name's too
_NAME_FIRST = re.compile(r"(?:^|[\w,;|]\s+)([A-Z][\w'-]*)\s+$")


def _a_name(value: str) -> bool:
    """A name written in words ("Diaz", "Gym Max"), not a code or an id that a name may run into
    ("City Water B-31"): what :func:`part_of_another_name` is asked of a record a system wrote."""
    return not any(ch.isdigit() for ch in value)


def part_of_another_name(name: str, text: str, *, fields: bool = False) -> bool:
    """Is every place ``text`` writes ``name`` part of a longer name: run on by a capitalised word
    ("Carla" in "Reply to Carla Diaz", "Diaz" in "Carla Diaz"; a capitalised word that opens a
    sentence does not count, unless ``text`` is record fields joined by `` | ``: ``fields``)?
    Then the text names someone else, and the record is a look-alike even when the genuine record
    is gone (issue 49: the look-alike that replaces the real sender)."""
    words = name.split()
    if not words:
        return False
    # in record fields, a word inside an address or a link (carla.diaz@...) is no place it is written
    ahead, behind = (r"(?![\w'@-]|\.\w)", r"(?<![\w'.@/-])") if fields else (r"(?![\w'-])", r"(?<![\w'-])")
    joined = r"\s+".join(re.escape(w) for w in words)
    pattern = re.compile(behind + joined + ahead, re.I)
    found = list(pattern.finditer(text))
    if not found and not fields:  # written only joined to another word by a hyphen: "Acme-Supplies"
        return re.search(rf"\w-{joined}(?![\w'])|(?<![\w']){joined}-\w", text, re.I) is not None
    before = _NAME_FIRST if fields else _NAME_BEFORE
    return bool(found) and all(
        _NAME_RUN.match(text, m.end()) or _run_on_before(text, m.start(), before) for m in found
    )


def _run_on_before(text: str, at: int, before: re.Pattern[str] = _NAME_BEFORE) -> bool:
    """Does a capitalised word run on into ``text[at:]`` from before it ("Ava Brooks": "Brooks" is
    that name's)? A title is no part of the name ("Dr Hana Lee")."""
    word = before.search(text[:at])
    return word is not None and not _TITLE.match(word.group(1) + " x")


def named_records(
    text: str, calls: Sequence[Mapping[str, Any]], naming: Naming | Mapping[str, Sequence[str]]
) -> list[Record]:
    """The records of the run's successful calls that ``text`` names: by the value of a record key
    in a field the policy trusts (or an author key, see :class:`Naming`), written in ``text`` as a
    whole phrase (or held by a trusted field of a record ``text`` names that way: "Ana Silva's
    email" is the mail from the address of the contact named Ana Silva), held by exactly one
    record of its tool; or by every argument of the call that returned them (the whole result).
    A common word or a word of the policy's own rules names nothing. A name its author chose that
    also names a trusted record of another tool (a contact) names the author's record only where
    that trusted record vouches for it (the mail is from the contact's address)."""
    naming = naming if isinstance(naming, Naming) else Naming(keys=naming)
    keyed = list(_keyed(calls, naming))
    held: dict[tuple[str, Any], set[str]] = {}
    for ident, record, _asked in keyed:
        held.setdefault((record.tool, ident), set()).add(_text_of(record.value))

    def qualified(ident: Any, record: Record, asked_for: str, said: Source) -> bool:
        """Of the records a name is shared by ("Standup" on two days), is ``record`` the one
        alone that ``said`` also writes a day, time or id of, its own or its listing's ("the
        standup on 2026-11-24")?"""

        def qualifiers(value: Any, asked: str) -> set[Any]:
            texts = [*asked.split(" | "), *(str(v) for v in value.values() if isinstance(v, str | int))]
            found = {whole_identifier(t.strip()) for t in texts}
            return {q for q in found if isinstance(q, tuple) and q[0] in _QUALIFYING}

        sharing = [(r, a) for i, r, a in keyed if i == ident and r.tool == record.tool]
        own = qualifiers(record.value, asked_for)
        if not any(appears(q, said) for q in own):
            return False
        others = [qualifiers(r.value, a) for r, a in sharing if _text_of(r.value) != _text_of(record.value)]
        return not any(any(appears(q, said) for q in other) for other in others)

    def named_by(said: Source, asked: bool = False, fields: bool = False) -> list[tuple[Any, Record]]:
        return [
            (ident, record)
            for ident, record, asked_for in keyed
            if appears(ident, said)  # first: the test most keys fail
            and (len(held[(record.tool, ident)]) == 1 or qualified(ident, record, asked_for, said))
            and not naming.names_nothing(ident)
            and not (record.author and _look_alike(ident, record, keyed))
            # a name is named whole, as the record spells it, never as a part of a longer name
            # the request writes ("Diaz" in "Carla Diaz"), whoever wrote the record's name
            and not (
                said.kind == "request"
                and isinstance(ident, str)
                and (record.author or _a_name(ident))
                and part_of_another_name(ident, said.text, fields=fields)
            )
            # a key that is part of what the call was asked for (a sender named "random" in
            # #random) names nothing: the request wrote it for another reason (unless ``asked``:
            # a contact looked up by the name the request gives is still that name's contact)
            and (asked or not appears(ident, Source("args", asked_for)))
        ]

    direct = named_by(Source("request", text))
    # The trusted records the request names, a lookup by that very name included: a name its
    # author chose that one of them holds names the author's record only where that trusted
    # record vouches for it (issue 46: a contact looked up by "Carla Diaz" no longer let a
    # spoofed "Carla Diaz" mail count as named).
    trusted = {ident: r for ident, r in named_by(Source("request", text), asked=True) if not r.author}
    vouched = " | ".join(v for r in trusted.values() for v in naming.trusted_values(r))
    # a second hop names a record through a trusted key only: the contact's own name field names
    # no mail by the display name its author chose
    hop = (
        [r for _i, r in named_by(Source("request", vouched), fields=True) if not r.author] if vouched else []
    )
    reached = {(r.tool, r.step, _text_of(r.value)) for r in hop}
    named = [
        r
        for ident, r in direct
        # a contact's name names the contact's own mail (one the contact's address reaches)
        if not r.author or ident not in trusted or (r.tool, r.step, _text_of(r.value)) in reached
    ]
    named += [r for r in hop if r not in named]
    # a person named by a first name alone vouches for the records of other listings their trusted
    # values reach (the mail from Ana Silva's address), not for a record of their own listing
    firsts = _named_by_a_first_name(text, keyed, naming)
    among = {r.tool for r in firsts.values()}
    reached_first = " | ".join(v for r in firsts.values() for v in naming.trusted_values(r))
    if reached_first:
        hop_first = named_by(Source("request", reached_first), fields=True)
        named += [r for _i, r in hop_first if not r.author and r.tool not in among and r not in named]
    said = Source("request", " | ".join([text, vouched]))
    out = [
        Record(str(c.get("tool")), _step(c), c.get("observation"), "the arguments of its call", False)
        for c in calls
        if c.get("ok", True) and "observation" in c and _all_said(c, said)
    ]
    narrower = {(r.tool, r.step) for r in named}  # a record named by its key, not its call's whole result
    out = [r for r in out if (r.tool, r.step) not in narrower] + named
    return list({(r.tool, r.step, _text_of(r.value)): r for r in out}.values())


def _named_by_a_first_name(
    text: str, keyed: Sequence[tuple[Any, Record, str]], naming: Naming
) -> dict[Any, Record]:
    """The trusted records of people ``text`` names by a first name alone ("Open the link in Ana's
    email" of the contact Ana Silva): a name of two words or more that no author chose, whose first
    word ``text`` writes whole (not run on into another name: "Ana Lopez") and no other record of
    its tool's names begins with, is or holds further on ("Brooks" of Ava Brooks). What they hold
    vouches for the records it reaches (the mail from Ana Silva's address) of other listings; a name
    a record's author chose never does."""
    firsts: dict[tuple[str, str], list[tuple[Any, Record]]] = {}
    whole = {(r.tool, i.casefold()) for i, r, _a in keyed if isinstance(i, str)}  # a one-word "Ana" too
    # a word another name of the tool's holds later ("Brooks" of Ava Brooks, beside Brooks Tan)
    whole |= {
        (r.tool, w.casefold())
        for i, r, _a in keyed
        if isinstance(i, str) and _a_name(i)
        for w in _TITLE.sub("", i.strip()).split()[1:]  # "Dr. Esi Boateng": Esi is her first name
    }
    for ident, record, _asked in keyed:
        if isinstance(ident, str) and _a_name(ident) and len(ident.split()) >= 2:
            firsts.setdefault((record.tool, ident.split()[0].casefold()), []).append((ident, record))
    found: dict[Any, Record] = {}
    for (tool, first), held in firsts.items():
        people = {ident for ident, _r in held}
        ident, record = held[0]
        if len(people) != 1 or record.author or (tool, first) in whole or naming.names_nothing(first):
            continue
        written = [
            m
            for m in re.finditer(rf"(?<![\w'’-]){re.escape(first)}(?:['’]s)?(?![\w-])", text, re.I)
            # "Ana Lopez", "Ava Brooks" of Brooks Tan: someone else
            if not _NAME_RUN.match(text, m.end()) and not _run_on_before(text, m.start())
        ]
        if written:
            found[ident] = record
    return found


#: The kinds of identifier that single out one of the records a name is shared by: a day, a time.
_QUALIFYING = frozenset({"date", "time"})


def pointed_records(
    text: str, calls: Sequence[Mapping[str, Any]], naming: Naming, taken: Collection[str] = ()
) -> list[Record]:
    """The records ``text`` points at, for a value a rule admits only on positive evidence (the
    ``named`` source): those :func:`named_records` gives, and every record ``text`` names by the
    whole value of one of its own text fields that the policy trusts by the tool's declarations
    (not by owning the record: what a look-alike copies), though other records share it ("my three
    open water bills" of City Water; the two Cafe Nero payments). A value of another record of the
    same trusted listing (another payee's bill, the balance of an account the request does not
    name) is pointed at by nothing.

    Naming is evidence of *which* record the user means, so a shared value points only where it
    identifies and narrows (issue 49: a currency, a status or a country held by many records is no
    such evidence, and pointed at every record holding it, another payee's IBAN or figure became
    the user's). A field's whole value points at its records only when all of these hold:

    - it is name-shaped (:func:`identifies`): an identifier (an address, an account, a URL, a
      date), a text holding a digit (``B-31``, ``budget-2027.xlsx``), a file name, or a text with a
      word that mixes capitals and small letters (``City Water``, ``Spotify``). A code, a unit or a
      status written in one case only (``EUR``, ``DE``, ``open``, ``paid``, ``utilities``) names
      nothing, however few records hold it;
    - a one-word value without a digit is written in ``text`` as the record spells it (``Spotify``;
      ``Open`` the status is not named by "my open bills");
    - it narrows the listing it came from (:func:`narrows`): in a list of two or more records of one
      call, a value every record holds under that key names none of them (every bill is in
      ``EUR``; every payee of a listing that holds only City Water's bills is City Water's, and such
      a listing asks unless the call itself was asked for by the name, see :func:`named_records`).

    A common word or a word of the policy's own rules names nothing, nor does a number, nor a name
    its author chose (``author_keys``). A record pointed at only by a value in ``taken``
    (casefolded: what the call itself takes as a value of its own) is given :attr:`Record.id_only`:
    "Book Fjell for Ben Cho ... at 09:00" lends no member of another booking that starts at 09:00,
    "Move Biscuit's nail trim to ... at 15:00" still points at the 15:00 appointment it moves."""
    said = Source("request", text)
    out = list(named_records(text, calls, naming))
    for call in (c for c in calls if c.get("ok", True) and "observation" in c):
        tool = str(call.get("tool"))
        authored = set(naming.author_keys.get(tool, ()))
        listings = _listings(call.get("observation"))
        for path, record in mappings(call.get("observation")):
            lent: str | None = None  # the key a value the call takes points by, if any
            for key, item in record.items():
                ident = identity(item) if isinstance(item, str) else None
                if (
                    ident is None
                    or str(key) in authored
                    or (isinstance(ident, tuple) and ident[0] == "amount")
                    or not appears(ident, said)  # first: the test most values fail
                    or naming.names_nothing(ident)
                    or not naming.trusted(tool, (*path, str(key)))
                    or not identifies(str(item))
                    or not _spelled(str(item), text)
                    or (
                        _a_name(str(item)) and part_of_another_name(str(item), text)
                    )  # "Diaz" of "Carla Diaz"
                    or not narrows(listings.get(path, [record]), str(key), ident)
                ):
                    continue
                if str(item).casefold() in taken:
                    lent = lent or f"{key}={item}"
                    continue
                out.append(Record(tool, _step(call), record, f"{key}={item}", True, path))
                break
            else:
                if lent is not None:
                    out.append(Record(tool, _step(call), record, lent, True, path, id_only=True))
    return list({(r.tool, r.step, r.path, _text_of(r.value)): r for r in out}.values())


def partly_named_records(text: str, calls: Sequence[Mapping[str, Any]], naming: Naming) -> list[Record]:
    """The records ``text`` names only by a part of a name written in words: a trusted field's name
    of two or more words ("Dana Whitfield") of which ``text`` writes one (three letters or more,
    with its capital: "Raise Dana's salary", "... I mean Dana"; or in small letters, four letters or
    more: "the water bill"), or an id written without its joiners ("B31" for B-31), but not the
    whole. Naming is by a
    whole name, so such a record is not named (:func:`pointed_records`), yet the turn bears on it:
    a value it holds is asked, never refused for a name the reader could not complete."""
    said = {m.group(0) for m in re.finditer(r"(?<![\w'-])[A-Z][a-z]{2,}(?![\w-])", text)}
    # a word of a name written in small letters ("the water bill" for City Water's), four letters
    # or more; an id written without its joiners ("B31" for B-31, "ord1001")
    small = {w for w in re.findall(r"(?<![\w'-])[a-z]{4,}(?![\w'-])", text)}
    joined = {re.sub(r"[^0-9a-z]", "", w.casefold()) for w in re.findall(r"[\w-]*\d[\w-]*", text)}
    days = _days_in_words(text)
    out: list[Record] = []
    for call in (c for c in calls if c.get("ok", True) and "observation" in c):
        tool = str(call.get("tool"))
        for path, record in mappings(call.get("observation")):
            for key, item in record.items():
                if not isinstance(item, str) or not naming.trusted(tool, (*path, str(key))) or item in text:
                    continue
                words = item.split() if _a_name(item) else []
                by_words = len(words) > 1 and bool(set(words) & said or {w.casefold() for w in words} & small)
                by_id = (
                    not words
                    and re.fullmatch(r"[A-Za-z]+[-_. ]?\d[\w-]*", item) is not None
                    and re.sub(r"[^0-9a-z]", "", item.casefold()) in joined
                )
                # a day in words that is a record's day ("due Dec 1" for 2026-12-01)
                by_day = not words and _a_day_in_words(item, days)
                # a word of a file's or a joined name ("the budget file" for budget-2027.xlsx)
                by_part = len(words) <= 1 and (  # "offsite-agenda.docx" is one word
                    bool(_name_parts(item) & ({w.casefold() for w in said} | small))
                    or _stem_written(item, text)
                )
                if by_words or by_id or by_part or by_day:
                    out.append(Record(tool, _step(call), record, f"{key}={item}", True, path))
                    break
    return out


_FILE_NAME = re.compile(r"\w\.[A-Za-z0-9]{1,5}$")


_MONTH = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))
#: A day written with its month's name ("Dec 1", "December 20th", "the 1st of December", "1 Dec").
_DAY_IN_WORDS = re.compile(
    rf"(?i)\b(?:({_MONTH})\.?[ \t]+(\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(\d{{1,2}})(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?({_MONTH}))\b"
)
_AN_ISO_DAY = re.compile(r"\d{4}-(\d{2})-(\d{2})")


def _days_in_words(text: str) -> set[tuple[int, int]]:
    """The (month, day) pairs ``text`` writes with a month's name."""
    found = set()
    for m in _DAY_IN_WORDS.finditer(text):
        month, day = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        found.add((MONTH_NUMBERS[month.casefold()], int(day)))
    return found


def _a_day_in_words(item: str, days: set[tuple[int, int]]) -> bool:
    """Is ``item`` an ISO day ("2026-12-01") that ``days`` writes in words ("Dec 1")?"""
    iso = _AN_ISO_DAY.fullmatch(item.strip())
    return iso is not None and (int(iso.group(1)), int(iso.group(2))) in days


def _stem_written(item: str, text: str) -> bool:
    """Does ``text`` write a file's name without its extension ("budget-2027" for budget-2027.xlsx)?"""
    if _FILE_NAME.search(item) is None:
        return False
    stem = item[: item.rfind(".")]
    return len(stem) > 3 and re.search(rf"(?i)(?<![\w-]){re.escape(stem)}(?![\w-]|\.\w)", text) is not None


def _name_parts(item: str) -> set[str]:
    """The words of four letters or more of a name written as one token, joined by dashes, dots or
    underscores, without a file's extension ("budget-2027.xlsx": budget; "offsite-agenda.docx":
    offsite, agenda); none for a name of one part or written in words."""
    if " " in item.strip() or not re.search(r"\w[-_.]\w", item):
        return set()
    stem = item[: item.rfind(".")] if _FILE_NAME.search(item) else item
    return {p for p in re.split(r"[-_.]+", stem.casefold()) if len(p) >= 4 and p.isalpha()}


def identifies(text: str) -> bool:
    """Is a field's whole value name-shaped, so that a request writing it may mean the records
    holding it: an identifier other than an amount (an address, an account, a URL, a date), a text
    holding a digit, a file name, or a text with a word that mixes capitals and small letters
    (``City Water``, ``iPhone``)? A code, a unit or a status written in one case only (``EUR``,
    ``open``) is not."""
    ident = identity(text)
    if isinstance(ident, tuple):
        return ident[0] != "amount"
    body = text.strip()
    if any(ch.isdigit() for ch in body) or _FILE_NAME.search(body):
        return True
    return any(any(ch.isupper() for ch in word) and any(ch.islower() for ch in word) for word in body.split())


def _spelled(value: str, text: str) -> bool:
    """Is a one-word value without a digit written in ``text`` as the record spells it (its
    capitals kept)? Longer values and values with a digit need only appear."""
    body = value.strip()
    if len(body.split()) > 1 or any(ch.isdigit() for ch in body):
        return True
    return re.search(rf"(?<!\w){re.escape(body)}(?!\w)", text) is not None


def _listings(observation: Any) -> dict[tuple[str, ...], list[Mapping[str, Any]]]:
    """The records of a call's result grouped by where they sit (list items transparent): the
    records of one listing share a path."""
    out: dict[tuple[str, ...], list[Mapping[str, Any]]] = {}
    for path, record in mappings(observation):
        out.setdefault(path, []).append(record)
    return out


def narrows(listing: Sequence[Mapping[str, Any]], key: str, ident: Any) -> bool:
    """Does a value under ``key`` single out some of ``listing``'s records: the listing holds one
    record, or at least one of its records holds another value (or none) under ``key``? A value
    every record of a listing of two or more holds (a currency, an account holder) names none of
    them."""
    if len(listing) < 2:
        return True
    return any(not isinstance(r.get(key), str) or identity(r.get(key)) != ident for r in listing)


def _all_said(call: Mapping[str, Any], said: Source) -> bool:
    given = leaf_values(call.get("args") or {})
    return bool(given) and all(_said(v, said) for v in given)


def identity_of(value: Any) -> Identifier | str | None:
    """What records compare of a value: an identifier as given (``(kind, canonical)``), else its
    identity (:func:`policies.supervisor.reading.values.identity`)."""
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


def naming_of(policy: SupervisorPolicy, subject: Mapping[str, Any] | None = None) -> Naming:
    """What lets a request name a record of ``policy``'s tools' results (:class:`Naming`): the
    record keys, the fields the policy trusts, whose records are the ``subject``'s own, its
    vocabulary."""
    return Naming(
        keys=policy.record_keys(),
        author_keys={name: list(spec.author_keys) for name, spec in policy.tools.items() if spec.author_keys},
        trusted_tools=frozenset(policy.trusted_tools()),
        field_trust=policy.field_trust(),
        vocabulary=policy.vocabulary(),
        owners={name: spec.owner for name, spec in policy.tools.items() if spec.owner},
        system_fields={n: list(spec.system_fields) for n, spec in policy.tools.items() if spec.system_fields},
        ids=policy.record_ids(),
        subject=dict(subject or {}),
        subject_keys={name: field for name, spec in policy.tools.items() if (field := spec.subject_field())},
    )
