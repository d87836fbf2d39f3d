"""Where an argument's value came from: the run's request, its subject, the policy's own
constants, or what an earlier tool call returned (which tool, which step, trusted or not).

A value is traced by where it *appears*, on normalised text: case folded, whitespace collapsed,
and identifiers compared in their canonical form (a URL without its scheme, ``www.`` or trailing
slash; an e-mail address in lower case; an IBAN without spaces; a phone number's digits; an amount
as a decimal number, so ``1,200.00`` is ``1200``). A string value appears in a text where its
normalised form stands between word boundaries; a number where the text holds the same number.
Inside a free-text argument the identifiers (:mod:`policies.supervisor.reading.identifiers`: URLs, domains,
e-mail addresses, account, card, phone and document numbers, secrets, amounts, dates, times) are traced one by
one.

Trust is per tool and, where the policy says so, per field: a trusted tool's observation may hold
fields others can write (a contact's note, a payee's display name), which then count as untrusted,
and an untrusted tool's may hold fields the user's own system wrote. An observation is split into
one source per trust, by paths (``note``, ``cards.number``: list items are transparent, ``*`` is
any key). The arguments of each earlier successful call are a source of their own (``call:<tool>``
admits them and the call's observation: "a value an earlier successful call of X used or returned").

Deterministic and pure. What it proves is where a value appears, not why the model chose it: a
value that appears in the request and in a hostile page is traced to both, and a rule that admits
the request admits it. Values of one or two characters, booleans and null carry no identity and
are not traced (they appear everywhere or nowhere). A rule that needs positive evidence of where a
value came from still reads them (:func:`rule_values`, :func:`found_in`): a short text counts as
written in a source only where the source writes it as a whole token ("L7" in "set the band to
L7", not in "L7-B" or "XL7"), and a boolean is written nowhere, so such a rule admits neither
unless one of its own sources writes it; they are never traced to everything that happens to hold
the token (a rule that refuses what untrusted text holds does not refuse every "1").
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Literal

from policies.supervisor.reading.identifiers import (
    IDENTIFIER_KINDS,
    Identifier,
    IdentifierKind,
    canonical_number,
    identifiers,
    whole_identifier,
)

__all__ = [
    "IDENTIFIER_KINDS",
    "Identifier",
    "IdentifierKind",
    "Source",
    "SourceName",
    "address_list",
    "describe",
    "found_in",
    "identifier_origins",
    "identifiers",
    "leaf_paths",
    "leaf_values",
    "normalize_text",
    "origins",
    "parsed",
    "path_matches",
    "record_identity",
    "rule_values",
    "tokens",
    "traced",
    "written",
]

#: Where a value may come from, as rules name it: ``request``, ``subject``, ``policy``,
#: ``named`` (a trusted field of a record the request names, or an id a side effect of the run
#: returned), ``trusted`` (any trusted tool's observation), ``tool:<name>`` (that tool's),
#: ``call:<name>`` (what an earlier successful call of that tool used or returned), or ``any``.
SourceName = str

_WS = re.compile(r"\s+")
_MIN_TRACED = 3
_TRAILING = ".,;:!?)]}'\""
#: A token as :func:`written` reads it: a run of word characters, joined by ``@ . + ' -`` (``L7``,
#: ``L7-B``, ``a.b``), leading joiners dropped.
_TOKEN = re.compile(r"[\w@.+'-]*\w|\w")
_LEADING = "@.+'-"


def tokens(text: str) -> tuple[str, ...]:
    """The tokens of ``text``, normalised (:func:`normalize_text`)."""
    return tuple(t.lstrip(_LEADING) for t in _TOKEN.findall(normalize_text(text)))


def normalize_text(text: str) -> str:
    """Case folded, runs of whitespace as one space, trimmed."""
    return _WS.sub(" ", text).strip().casefold()


def _text(item: Any) -> str:
    return repr(item) if isinstance(item, float) else str(item)


#: What a JSON value's leaves are (no mapping inside them).
_LEAVES = (str, int, float, bool, type(None))


def mappings(value: Any) -> Iterator[tuple[tuple[str, ...], Mapping[str, Any]]]:
    """Every mapping inside a JSON value (itself included), depth first, with its path of keys
    (list items transparent)."""
    stack: list[tuple[tuple[str, ...], Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        # a JSON value's leaves are never walked into (most of a record is leaves)
        if isinstance(item, Mapping):
            yield path, item
            children = reversed(list(item.items()))
            stack.extend(((*path, str(k)), v) for k, v in children if not isinstance(v, _LEAVES))
        elif isinstance(item, list | tuple):
            stack.extend((path, v) for v in reversed(list(item)) if not isinstance(v, _LEAVES))


def parsed(observation: Any) -> Any:
    """A tool result kept as JSON text, as its JSON value (else as it is)."""
    if not isinstance(observation, str):
        return observation
    try:
        return json.loads(observation)
    except ValueError:
        return observation


def leaf_paths(value: Any, keys: bool = False) -> list[tuple[tuple[str, ...], str]]:
    """Every string and number in a JSON value with its path of keys (list items are transparent),
    as text, in the value's order; with ``keys``, each key too (at its parent's path), just before
    its own value. Never all of a mapping's keys before its values: joined, ``amount | reference |
    130`` would read as a reference number and hide the amount (a trusted field's amount beside a
    distrusted ``reference``, ``order`` or ``account`` field would appear nowhere)."""
    out: list[tuple[tuple[str, ...], str]] = []
    stack: list[tuple[tuple[str, ...], Any, bool]] = [((), value, False)]
    while stack:
        path, item, is_key = stack.pop()
        if is_key:
            out.append((path, str(item)))
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, str | int | float):
            out.append((path, _text(item)))
        elif isinstance(item, Mapping):
            for key, child in reversed(list(item.items())):
                stack.append(((*path, str(key)), child, False))
                if keys:
                    stack.append((path, key, True))
        elif isinstance(item, list | tuple):
            stack.extend((path, child, False) for child in reversed(item))
    return out


def path_matches(path: Sequence[str], pattern: str) -> bool:
    """Does a leaf's ``path`` fall under ``pattern`` (dotted keys, ``*`` any key; ``*`` alone or
    an empty pattern: the whole value)? ``card`` covers ``card.number``."""
    if pattern in ("", "*"):
        return True
    wanted = pattern.split(".")
    return len(path) >= len(wanted) and all(w in ("*", p) for w, p in zip(wanted, path, strict=False))


#: Hyphens a keyboard or an editor types for "-": the hyphen, the non-breaking hyphen, the figure
#: dash, the en dash, the minus sign, the small and full-width hyphen-minus.
_TYPED_HYPHENS = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d", "-"))


@dataclass(frozen=True)
class Source:
    """One place a value can come from: ``kind`` is ``request``, ``subject``, ``policy``,
    ``tool`` (an observation: ``tool`` and ``step`` say which call, ``trusted`` whether it is,
    ``fields`` which of its fields when trust is per field), ``args`` (an earlier call's
    arguments), ``own`` (the ids a side effect of the run itself returned:
    :func:`~policies.supervisor.provenance.sources.own_ids`) or ``named`` (the trusted fields of a record the
    request itself points at: built by the review,
    :func:`policies.supervisor.request.records.pointed_records`). ``ok``: the call succeeded."""

    kind: Literal["request", "subject", "policy", "tool", "args", "human", "own", "named"]
    text: str = field(repr=False)
    tool: str | None = None
    step: int | None = None
    trusted: bool = False
    ok: bool = True
    fields: tuple[str, ...] = ()

    @cached_property
    def written(self) -> str:
        """The text as searched: the user's own words with their typography undone (a hyphen typed
        as a non-breaking hyphen or an en dash, full-width letters and digits: "ORD‑1002",
        "ＯＲＤ-１００２" are ORD-1002). Only the request's: a value a tool returns must match as it is
        written, or a look-alike would pass for the user's."""
        if self.kind != "request" or self.text.isascii():
            return self.text
        return unicodedata.normalize("NFKC", self.text).translate(_TYPED_HYPHENS)

    @cached_property
    def normal(self) -> str:
        return normalize_text(self.written)

    @cached_property
    def tokens(self) -> tuple[str, ...]:
        return tokens(self.written)

    @cached_property
    def idents(self) -> frozenset[Identifier]:
        return text_identifiers(self.written)

    @cached_property
    def written_words(self) -> dict[str, bool]:
        """A memo of :func:`appears` for plain identities: a run's sources are shared by all its
        reviews (:mod:`policies.supervisor.provenance.sources`), so each is searched once per value."""
        return {}

    def holds(self, ident: Identifier) -> bool:
        """Does this source hold the identifier (a URL or e-mail address also when written plain)?"""
        kind, canonical = ident
        if ident in self.idents:
            return True
        if kind == "date" and "T" in canonical:  # a day and its time: each written ("on 3 Dec at 15:00")
            day, hour = canonical.split("T", 1)
            return ("date", day) in self.idents and ("time", hour) in self.idents
        if kind in ("url", "email"):
            return re.search(rf"(?<![\w.-]){re.escape(canonical)}(?![\w/-]|\.\w)", self.normal) is not None
        return False

    def label(self) -> str:
        if self.kind == "human":
            return "the human reviewer's edit"
        if self.kind == "own":
            return f"what {self.tool} (step {self.step}) returned, a side effect of this run"
        if self.kind == "named":
            at = f" (step {self.step})" if self.step is not None else ""
            return f"{self.tool}{at}, a record the request names"
        if self.kind not in ("tool", "args"):
            return f"the {self.kind}"
        where = [f"step {self.step}"] if self.step is not None else []
        where += [", ".join(self.fields)] if self.fields else []
        name = f"{self.tool} ({', '.join(where)})" if where else str(self.tool)
        return f"the arguments of {name}" if self.kind == "args" else name

    def admitted_by(self, names: Iterable[SourceName]) -> bool:
        """Does a rule's list of allowed sources admit this one? ``tool:<name>`` and
        ``call:<name>`` admit the tool's observations the policy trusts: a trusted tool's except
        the fields ``trust_except`` marks untrusted, an untrusted tool's only the fields its
        ``trust_except`` marks trusted. Text a third party wrote is admitted only by ``any``. The id
        a side effect of the run returned (``own``) is admitted where the request, trusted data or
        that tool is: the run made that record at the request's word, so "it" is the user's own.
        ``named`` admits only positive evidence that the request points at the value: a trusted
        field of a record the request names (``named`` sources) and the run's own ids; ``trusted``
        admits every trusted observation, whichever record holds the value."""
        if self.kind == "human":  # a reviewer's own value: the human's authority, whatever the rule
            return True
        if self.kind == "own":
            wanted = {"any", "own", "named", "request", "trusted", f"tool:{self.tool}", f"call:{self.tool}"}
            return any(name in wanted for name in names)
        written_by_others = self.kind == "tool" and not self.trusted
        for name in names:
            if name == "any" or name == self.kind:
                return True
            if name == "trusted" and (
                self.kind not in ("tool", "args") or (self.kind == "tool" and self.trusted)
            ):
                return True
            if name == f"tool:{self.tool}" and self.kind == "tool" and not written_by_others:
                return True
            ok_call = self.kind in ("tool", "args") and self.ok and not written_by_others
            if name == f"call:{self.tool}" and ok_call:
                return True
        return False


@lru_cache(maxsize=4096)
def text_identifiers(text: str) -> frozenset[Identifier]:
    """The identifiers of every kind in ``text``, read once per text: a run's observations are read
    by every review of the run, each with sources of its own."""
    return frozenset(identifiers(text))


def traced(value: Any) -> bool:
    """Is ``value`` one provenance follows (not a boolean, null or a one- or two-character text)?"""
    if isinstance(value, bool) or value is None:
        return False
    return isinstance(value, int | float) or (isinstance(value, str) and len(value.strip()) >= _MIN_TRACED)


def identity(value: Any, *, short: bool = False) -> Identifier | str | None:
    """What provenance compares of a value: an identifier when the value is one (a URL, an
    address, an account or card number, a domain, a date, a time, a phone number, a number), else
    its normalised text (trimmed, trailing punctuation dropped, whitespace collapsed, case folded:
    ``"INV-8."``, ``" inv-8 "`` and ``"INV-8"`` are one); None when the value carries no identity.
    :func:`record_identity` is the same reading for every value (what names a record). With
    ``short``, a text of one or two characters has one too (an id such as ``"42"``, the number 42;
    ``"c7"``): what ownership compares of an owner field and a subject's id, where the value is one
    id, not a word in a text."""
    if short and isinstance(value, str) and value.strip() and not traced(value):
        text = value.strip()
        return whole_identifier(text) or normalize_text(text)
    return _scalar_identity(value) if traced(value) else None


def _scalar_identity(value: str | int | float) -> Identifier | str | None:
    if isinstance(value, int | float):
        number = canonical_number(_text(value))
        return ("amount", number) if number is not None else None
    return _text_identity(value)


@lru_cache(maxsize=8192)
def _text_identity(value: str) -> Identifier | str:
    text = value.strip().rstrip(_TRAILING) or value.strip()
    return whole_identifier(text) or normalize_text(text)


#: What :func:`record_identity` gives: an identity, or a nested tuple of them.
RecordIdentity = Any


def record_identity(value: Any) -> RecordIdentity:
    """What names a record, as every rule compares it: the ledger's records and calls (``Repeat``,
    ``RecordLimit``, ``OwnedRecord``, a ``per`` of ``Threshold`` and ``RunCap``, a precondition's
    ``match_args``) and grants, with provenance's own normalisation (:func:`identity`): ``"INV-8."``,
    ``" inv-8 "`` and ``"INV-8"`` name one record, as ``42``, ``42.0`` and ``"42"`` do. Unlike
    :func:`identity` it reads every value, those provenance does not trace too: a one- or
    two-character text by the same normalisation (``"A1"``), a boolean, None or a non-finite
    number as itself, a list or mapping by its items' identities. Hashable; two values name one
    record exactly when their identities are equal."""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        found = _scalar_identity(value)
        return found if found is not None else ("number", _text(value))
    if isinstance(value, Mapping):
        items = sorted(((str(k), record_identity(v)) for k, v in value.items()), key=lambda kv: kv[0])
        return ("mapping", tuple(items))
    if isinstance(value, list | tuple):
        return ("list", tuple(record_identity(v) for v in value))
    return ("value", repr(value))


#: Where a value written as text begins and ends: not inside a longer word, nor inside a longer id
#: joined by ``-`` or ``+`` (or ``.`` after it: "report-viewer" is not written in
#: "report-viewer-lite", "T-9" not in "T-9-dup", "2.5.0" not in "2.5.0-rc1" or "2.5.0.1"); a full
#: stop or a hyphen that ends a sentence or a phrase ("... ORD-1001.", "auth-gw - now") still ends
#: it, and a host's name may follow "www." ("example.com/x" in "www.example.com/x").
# a path's part is no value of its own: "/tmp" and "old" are not written in "/tmp/old"
_NOT_INSIDE = r"(?<!\w)(?<!\w[-+/\\])"
_NOT_LONGER = r"(?!\w|[-.+/\\]\w)"


def appears(ident: Identifier | str, source: Source) -> bool:
    """Does a value's identity appear in ``source``?"""
    if isinstance(ident, tuple):
        return source.holds(ident)
    memo = source.written_words
    if ident not in memo:
        if len(memo) > 256:  # a source read for many values: keep the newest
            memo.clear()
        text = source.normal  # a substring test first: most values are not in most texts
        memo[ident] = (
            ident in text and re.search(rf"{_NOT_INSIDE}{re.escape(ident)}{_NOT_LONGER}", text) is not None
        )
    return memo[ident]


def origins(value: Any, sources: Sequence[Source]) -> list[Source]:
    """The sources ``value`` appears in (empty for values that carry no identity)."""
    ident = identity(value)
    return [] if ident is None else [s for s in sources if appears(ident, s)]


def written(value: Any, source: Source) -> bool:
    """Does ``source`` write a value provenance does not trace (a text of one or two characters) as
    whole tokens: the value's tokens, exactly and in order, among the source's ("L7" in "Set Ana's
    band to L7.", not in "L7-B", "XL7" or "L7s")? A boolean, a null or a text with no token
    (``"-"``) is written nowhere."""
    if not isinstance(value, str):
        return False
    wanted, held = tokens(value), source.tokens
    n = len(wanted)
    return n > 0 and any(held[i : i + n] == wanted for i in range(len(held) - n + 1))


def found_in(value: Any, sources: Sequence[Source]) -> list[Source]:
    """Where a rule that needs positive evidence finds ``value``: a traced value's
    :func:`origins` (a text of digits also where it is written as a token: "ticket 4512"); a short
    text, the sources that write it as whole tokens (:func:`written`); a boolean or a null, none."""
    if traced(value):
        found = origins(value, sources)
        if not found and isinstance(value, str) and value.strip().isdigit():
            # an id written in digits ("ticket 4512"), which the text reads as no amount: its token
            found = [s for s in sources if written(value.strip(), s)]
        return found
    return [s for s in sources if written(value, s)]


def rule_values(value: Any) -> list[Any]:
    """Every value of an argument a provenance rule reads, nested ones too: what
    :func:`leaf_values` gives, and the values provenance does not trace (a text of one or two
    characters, a boolean); a null (nothing given) and an empty text are none."""
    if isinstance(value, Mapping):
        return [leaf for child in value.values() for leaf in rule_values(child)]
    if isinstance(value, list | tuple):
        return [leaf for child in value for leaf in rule_values(child)]
    if value is None or (isinstance(value, str) and not value.strip()):
        return []
    return address_list(value) or [value]


def leaf_values(value: Any) -> list[Any]:
    """A JSON value's strings and numbers, in order (what provenance follows in a nested argument)."""
    if isinstance(value, Mapping):
        return [leaf for child in value.values() for leaf in leaf_values(child)]
    if isinstance(value, list | tuple):
        return [leaf for child in value for leaf in leaf_values(child)]
    return address_list(value) or ([value] if traced(value) else [])


#: Two or more mail addresses in one text, and nothing else but the commas or semicolons between
#: them ("ana@corp.example, bob@corp.example": one ``to`` many mail tools take).
_ADDRESS_LIST = re.compile(
    r"\s*[\w.%+-]+@[\w-]+(?:\.[\w-]+)+(?:\s*[,;]\s*[\w.%+-]+@[\w-]+(?:\.[\w-]+)+)+\s*[,;]?\s*"
)


def address_list(value: Any) -> list[str]:
    """The addresses of a text that is a list of two or more of them and nothing else, each its own
    value (each recipient is judged, never the list as one text); none for any other value."""
    if not isinstance(value, str) or _ADDRESS_LIST.fullmatch(value) is None:
        return []
    return [part.strip() for part in re.split(r"[,;]", value) if part.strip()]


def describe(found: Sequence[Source]) -> str:
    """Where a value came from, in words for the human and the trace."""
    if not found:
        return "appears nowhere in the run (not in the request, the subject, the policy or any observation)"
    labels = list(dict.fromkeys(("the trusted " if s.trusted else "") + s.label() for s in found))
    if all(s.kind in ("tool", "args") and not s.trusted for s in found):
        return "appears only in " + ", ".join(labels)
    return "appears in " + " and in ".join(labels)


def identifier_origins(
    text: str, sources: Sequence[Source], kinds: Iterable[IdentifierKind]
) -> dict[Identifier, list[Source]]:
    """Each identifier of ``kinds`` in ``text`` → the sources it appears in."""
    return {ident: [s for s in sources if s.holds(ident)] for ident in sorted(identifiers(text, kinds))}
