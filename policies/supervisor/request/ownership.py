"""Whose record a tool's result holds, and what of another's reaches the run.

A tool whose records say whose they are (``ToolSpec.owner``: an order's ``customer``, a ticket's
``customer``; a field your own system sets) can be limited to the run's subject: with
``ToolSpec.owner_only``, only what is positively the subject's reaches the worker, the audit or any
later call; the rest is replaced by a note (and the key fields the call itself gave). So another
customer's order never reaches the model, and none of its data can flow into an e-mail or a reply.

**Whose is a record.** A record is a mapping that holds the owner field. It is the subject's when
that field is one id (a text or a number, not a mapping or a list) equal to the subject's value
under the tool's subject key (``ToolSpec.subject_key``, else the key named as the owner field: an
order's ``customer`` and the subject's ``customer``), ids compared as
:func:`policies.supervisor.reading.values.identity` reads them (short ones too: ``"42"`` is 42; never a part
of a text). Another of the subject's values owns nothing (with the subject ``{"customer": 42, "store": 7}``,
customer 7's order is not the subject's), and a subject without that key owns nothing.

**What of a result survives** (:func:`withhold_others`):

- a record of the subject's, whole, less any record of another's nested in it;
- a list of records: each judged; any item of it that is not a record (a row of a table, a line
  of text, a number) is withheld (``owner_not_readable``);
- a *wrapper*: a mapping without the owner field holding records (a record, a list of records, a
  wrapper), as a search's ``{"results": [...], "count": 3}``: its records judged, its numbers,
  booleans and nulls kept (a count, a page), its texts withheld unless the key is one of the tool's
  ``system_fields`` (a cursor your system sets), anything else of it withheld; and an entry whose
  key is not a plain field name (letters, ``_`` and ``-``) or is a value the result holds (records
  grouped under ``"cust-77"``, under a customer's name) is withheld key and all.

Everything else cannot say whose it is and is withheld whole (``owner_not_readable``): a text, rows
(a list of lists, ``{"columns": [...], "rows": [...]}``), a mapping without the owner field that
holds no records, a number; an error result keeps its ``error`` key (the call still failed). A run
with no subject owns nothing. Nothing here runs a tool.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from policies.json_safety import leaves
from policies.supervisor.reading.values import identity, mappings
from policies.tools import ToolSpec

__all__ = [
    "UNREADABLE",
    "WITHHELD",
    "WITHHELD_KEY",
    "id_of",
    "is_record",
    "is_wrapper",
    "owned",
    "records_with",
    "subject_id",
    "subject_ids",
    "visible",
    "withhold_others",
]

#: The note a withheld record carries, and the reason a call on one is refused.
WITHHELD = "not_the_subjects_record"
#: The key of that note in a withheld record.
WITHHELD_KEY = "withheld"
#: The note of what of an ``owner_only`` tool's result cannot say whose it is (text, rows, records
#: grouped under keys, a mapping without the owner field).
UNREADABLE = "owner_not_readable"

_FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z_-]*")


def id_of(value: Any) -> Any:
    """What ownership compares of an owner field or a subject's value: the identity of one id (a
    text or a number, short ones included: ``"42"`` and 42 alike), None for anything else (a
    mapping, a list, a boolean, null, empty text)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    return identity(value, short=True)


def subject_id(subject: Mapping[str, Any] | None, key: str | None) -> Any:
    """The identity of the subject's value under ``key`` (:func:`id_of`); None when the subject
    has no such key, or its value is not one id."""
    if not subject or not key or key not in subject:
        return None
    return id_of(subject[key])


def subject_ids(subject: Mapping[str, Any] | None, key: str | None) -> frozenset[Any]:
    """The run's subject as owner fields are compared with it: its id under ``key`` (a tool's
    ``ToolSpec.subject_field()``), or nothing. Never its other values."""
    return frozenset({subject_id(subject, key)}) - {None}


def owned(record: Mapping[str, Any], owner: str, subject: Collection[Any]) -> bool:
    """Is ``record`` the subject's: is its ``owner`` field one id, among ``subject``
    (:func:`subject_ids`)? A withheld note is nobody's."""
    if WITHHELD_KEY in record and owner not in record:
        return False
    found = id_of(record.get(owner))
    return found is not None and found in subject


def is_record(item: Any, owner: str) -> bool:
    """Is ``item`` a record: a mapping holding the ``owner`` field?"""
    return isinstance(item, Mapping) and owner in item


def is_wrapper(item: Any, owner: str) -> bool:
    """Is ``item`` a wrapper of records: a mapping without the owner field of which some value is
    a record, a list of records or wrappers (empty included), or a wrapper?"""
    if not isinstance(item, Mapping) or owner in item:
        return False
    for value in item.values():
        if _holds(value, owner):
            return True
        if isinstance(value, list | tuple) and all(_holds(v, owner) for v in value):
            return True
    return False


def _holds(item: Any, owner: str) -> bool:
    return is_record(item, owner) or is_wrapper(item, owner)


def _empty(item: Any) -> bool:
    """Nothing to attribute: null, a boolean, blank text, an empty container."""
    if item is None or isinstance(item, bool):
        return True
    if isinstance(item, str):
        return not item.strip()
    return isinstance(item, Mapping | list | tuple) and not item


def _ids(value: Any) -> Iterator[Any]:
    """The identities of every id in a JSON value (keys not included)."""
    return (found for leaf in leaves(value) if (found := id_of(leaf)) is not None)


def withhold_others(
    value: Any,
    *,
    owner: str,
    keys: Sequence[str],
    subject: Collection[Any],
    asked: Collection[Any] = frozenset(),
    system_fields: Collection[str] = (),
) -> tuple[Any, int]:
    """``value`` (a tool's observation) with only what is positively the subject's (see the
    module's docstring), and how many things were withheld. A record not the subject's becomes
    ``{"withheld": "not_the_subjects_record"}`` with those of its ``keys`` fields whose values the
    call itself gave (``asked``: identities of its arguments' values: the order id it looked up);
    what cannot say whose it is becomes ``{"withheld": "owner_not_readable"}`` (likewise), or,
    in a wrapper, is left out. ``subject``: :func:`subject_ids`; empty, nothing is the subject's."""
    values = frozenset(_ids(value))

    def note(item: Any, why: str) -> dict[str, Any]:
        kept: dict[str, Any] = {}
        if isinstance(item, Mapping):
            kept = {k: item[k] for k in keys if k in item and k != owner and id_of(item[k]) in asked}
            if why == UNREADABLE and "error" in item:
                kept["error"] = UNREADABLE  # the call failed: it still says so, not what it said
        return {**kept, WITHHELD_KEY: why}

    def inside(item: Any) -> tuple[Any, int]:
        """Within a record of the subject's: only records of another's nested in it are withheld."""
        if is_record(item, owner):
            return judged(item)
        if isinstance(item, Mapping):
            pairs = [(k, inside(v)) for k, v in item.items()]
            count = sum(n for _k, (_v, n) in pairs)
            return ({k: v for k, (v, _n) in pairs} if count else item), count
        if isinstance(item, list | tuple):
            return listed(item, inside)
        return item, 0

    def judged(record: Mapping[str, Any]) -> tuple[Any, int]:
        if not owned(record, owner, subject):
            return note(record, WITHHELD), 1
        pairs = [(k, inside(v) if k != owner else (v, 0)) for k, v in record.items()]
        count = sum(n for _k, (_v, n) in pairs)
        return ({k: v for k, (v, _n) in pairs} if count else record), count

    def listed(items: Sequence[Any], each: Any) -> tuple[Any, int]:
        walked = [each(v) for v in items]
        count = sum(n for _v, n in walked)
        return ([v for v, _n in walked] if count else items), count

    def item_of(item: Any) -> tuple[Any, int]:
        """A result, or an item of a list of records: a record, a wrapper, or withheld whole."""
        if is_record(item, owner):
            return judged(item)
        if is_wrapper(item, owner):
            return wrapper(item)
        if isinstance(item, list | tuple) and not _empty(item) and item is value:
            return listed(item, item_of)
        if _empty(item):
            return item, 0
        return note(item, UNREADABLE), 1

    def field_name(key: Any) -> bool:
        return isinstance(key, str) and bool(_FIELD_NAME.fullmatch(key)) and id_of(key) not in values

    def wrapper(item: Mapping[str, Any]) -> tuple[Any, int]:
        out: dict[str, Any] = {}
        count = 0
        for key, entry in item.items():
            kept: tuple[Any, int] | None
            if not field_name(key):
                kept = None
            elif is_record(entry, owner):
                kept = judged(entry)
            elif is_wrapper(entry, owner):
                kept = wrapper(entry)
            elif isinstance(entry, list | tuple):
                kept = listed(entry, item_of)
            elif isinstance(entry, str):
                kept = (entry, 0) if key in system_fields or _empty(entry) else None
            elif isinstance(entry, Mapping):
                kept = (entry, 0) if _empty(entry) else None
            else:  # a number, a boolean, null: a count, a page, a flag
                kept = (entry, 0)
            if kept is None:
                count += 1
                continue
            out[key], n = kept
            count += n
        return (out if count else item), count

    return item_of(value)


def visible(
    spec: ToolSpec | None,
    observation: Any,
    subject: Mapping[str, Any] | None,
    args: Mapping[str, Any] | None = None,
) -> tuple[Any, int]:
    """What of a tool's observation the run may see (``spec``: the tool's ``ToolSpec``; ``args``:
    the call's arguments): all of it, or for an ``owner_only`` tool only what is positively the
    subject's (:func:`withhold_others`: its records, compared with the subject's value under
    ``spec.subject_field()``), and how many things were withheld. A text result of such a tool
    says nothing of whose it is: withheld whole (``owner_not_readable``)."""
    if spec is None or not spec.owner_only or not spec.owner:
        return observation, 0
    if isinstance(observation, str) and observation.strip():
        return {WITHHELD_KEY: UNREADABLE}, 1
    asked = frozenset(_ids(dict(args or {})))
    keys = [k for k in spec.record_keys if k != spec.owner]
    return withhold_others(
        observation,
        owner=spec.owner,
        keys=keys,
        subject=subject_ids(subject, spec.subject_field()),
        asked=asked,
        system_fields=spec.system_fields,
    )


def records_with(value: Any, key: str, wanted: Any) -> Iterator[Mapping[str, Any]]:
    """The mappings inside ``value`` (at any depth, in the order they appear) whose ``key`` field
    equals ``wanted``."""
    return (item for _path, item in mappings(value) if key in item and _same(item[key], wanted))


def _same(found: Any, wanted: Any) -> bool:
    if isinstance(found, bool) or isinstance(wanted, bool):
        return found is wanted
    if isinstance(found, str) and isinstance(wanted, str):
        return found.strip().casefold() == wanted.strip().casefold()
    return bool(found == wanted)
