"""Whose record a tool's result holds, and what of another's reaches the run.

A tool whose records say whose they are (``ToolSpec.owner``: an order's ``customer``, a ticket's
``customer``; a field your own system sets) can be limited to the run's subject: with
``ToolSpec.owner_only``, every record of its result whose owner is not the subject (every record, in a
run with no subject; a text result whole) is withheld — replaced by a note and the key fields the
call itself gave — before the worker, the audit or any later call sees it. So another customer's order never
reaches the model, and none of its data can flow into an e-mail or a reply.

A record is a mapping that holds the owner field, at any depth of the result (a list of orders, a
search's ``results``); a mapping without it is looked into, not judged. Nothing here runs a tool.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from policies.provenance import identity, leaf_values, mappings
from policies.tools import ToolSpec

#: The note a withheld record carries, and the reason a call on one is refused.
WITHHELD = "not_the_subjects_record"
#: The key of that note in a withheld record.
WITHHELD_KEY = "withheld"
#: The note of a text result of an ``owner_only`` tool: whose record it holds cannot be read.
UNREADABLE = "owner_not_readable"


def subject_ids(subject: Mapping[str, Any] | None) -> frozenset[Any]:
    """The run's subject as owner fields are compared with it: the identity of each of its values."""
    return frozenset(identity(v) for v in leaf_values(dict(subject or {}))) - {None}


def owned(record: Mapping[str, Any], owner: str, subject: frozenset[Any]) -> bool:
    """Is ``record`` the subject's: does its ``owner`` field hold one of the subject's values?"""
    if WITHHELD_KEY in record and owner not in record:
        return False
    return bool({identity(v) for v in leaf_values(record.get(owner))} & subject)


def withhold_others(
    value: Any,
    *,
    owner: str,
    keys: Sequence[str],
    subject: frozenset[Any],
    asked: frozenset[Any] = frozenset(),
) -> tuple[Any, int]:
    """``value`` (a tool's observation) with every record not the subject's replaced by
    ``{"withheld": "not_the_subjects_record"}`` and those of its ``keys`` fields whose values the
    call itself gave (``asked``: identities of its arguments' values: the order id it looked up),
    and how many were withheld. A record of the subject's is kept, less any record of another's
    nested in it."""

    def walk(item: Any) -> tuple[Any, int]:
        if isinstance(item, Mapping):
            if owner in item and not owned(item, owner, subject):
                kept = {k: item[k] for k in keys if k in item and k != owner and identity(item[k]) in asked}
                return {**kept, WITHHELD_KEY: WITHHELD}, 1
            pairs = [(k, walk(v) if k != owner else (v, 0)) for k, v in item.items()]
            count = sum(n for _k, (_v, n) in pairs)
            return ({k: v for k, (v, _n) in pairs} if count else item), count
        if isinstance(item, list | tuple):
            items = [walk(v) for v in item]
            count = sum(n for _v, n in items)
            return ([v for v, _n in items] if count else item), count
        return item, 0

    return walk(value)


def visible(
    spec: ToolSpec | None,
    observation: Any,
    subject: Mapping[str, Any] | None,
    args: Mapping[str, Any] | None = None,
) -> tuple[Any, int]:
    """What of a tool's observation the run may see (``spec``: the tool's ``ToolSpec``; ``args``:
    the call's arguments): all of it, or for an ``owner_only`` tool the subject's records only, and
    how many were withheld. A text result of such a tool says nothing of whose it is: withheld
    whole (``owner_not_readable``)."""
    if spec is None or not spec.owner_only or not spec.owner:
        return observation, 0
    if isinstance(observation, str) and observation.strip():
        return {WITHHELD_KEY: UNREADABLE}, 1
    asked = frozenset(identity(v) for v in leaf_values(dict(args or {}))) - {None}
    keys = [k for k in spec.record_keys if k != spec.owner]
    return withhold_others(
        observation, owner=spec.owner, keys=keys, subject=subject_ids(subject), asked=asked
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
