"""The run's sources: the request, the subject, the policy's constants, each executed call's
observation (split by per-field trust) and arguments, and the ids a side effect of the run itself
returned (:func:`own_ids`). What a value *is* and where it *appears* is read by
:mod:`policies.supervisor.reading.values`; this module builds the places it may come from, once
per call's content."""

from __future__ import annotations

import operator
import pickle
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from policies.supervisor.reading.values import Source, leaf_paths, normalize_text, path_matches, traced

__all__ = ["CREATED_ID", "call_sources", "own_ids", "sources_of"]


#: The field of a side effect's result that holds the id of what it creates, where its tool
#: declares none (``ToolSpec.creates``).
CREATED_ID = "id"


def own_ids(call: Mapping[str, Any], field: str = CREATED_ID) -> list[str]:
    """The id a successful side effect returned for what it created: the value of the top-level
    ``field`` of its observation (the tool's ``ToolSpec.creates``, else ``id``), where none of the
    call's arguments holds it (the id the file service gave the file the run created, not a value
    the call echoes back). Nothing else of the observation: another id it returned (the parent
    folder's, the file it replaced), its other fields, and ids nested in them are the tool's, as
    trusted as the tool is."""
    if not call.get("ok", True):
        return []
    given = {normalize_text(t) for _p, t in leaf_paths(call.get("args"))}
    observation = call.get("observation")
    if not isinstance(observation, Mapping) or field not in observation:
        return []
    text = [t for p, t in leaf_paths({field: observation[field]}) if len(p) == 1]
    return [t for t in text if traced(t) and normalize_text(t) not in given][:1]


def call_sources(call: Mapping[str, Any], trusted: bool, flipped: Sequence[str]) -> list[Source]:
    """An executed call's sources: its observation (split by per-field trust), and the arguments of
    a successful call."""
    tool = str(call.get("tool"))
    step = call.get("step") if isinstance(call.get("step"), int) else None
    ok = bool(call.get("ok", True))
    leaves = leaf_paths(call.get("observation"), keys=True)
    other = [t for p, t in leaves if any(path_matches(p, f) for f in flipped)] if flipped else []
    same = [t for p, t in leaves if not (flipped and any(path_matches(p, f) for f in flipped))]
    out = [Source("tool", " | ".join(same), tool, step, trusted, ok)]
    if other:
        out.append(Source("tool", " | ".join(other), tool, step, not trusted, ok, tuple(flipped)))
    if ok and call.get("args"):
        out.append(
            Source("args", " | ".join(t for _p, t in leaf_paths(call.get("args"))), tool, step, False, ok)
        )
    return out


class _Keyed:
    """An executed call as the memo of its sources finds it: by its pickled content (what
    ``call_sources`` reads: tool, step, ok, observation, arguments, each of its exact type and
    in its order) and its trust. The call itself is dropped once its sources are built."""

    __slots__ = ("call", "flipped", "key", "trusted")

    def __init__(self, key: bytes, call: Mapping[str, Any] | None, trusted: bool, flipped: Sequence[str]):
        self.key, self.call, self.trusted, self.flipped = key, call, trusted, flipped

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Keyed) and self.key == other.key


@lru_cache(maxsize=4096)
def _kept_sources(keyed: _Keyed) -> tuple[Source, ...]:
    assert keyed.call is not None
    built = tuple(call_sources(keyed.call, keyed.trusted, keyed.flipped))
    keyed.call = None
    return built


#: The sources last built for a call row, by the row itself (its ``id``, the row held so that the id
#: is not reused): the review at the next step of a run is given the same rows, and finds their
#: sources without writing each row out again. Checked by each field it reads being the very object
#: it was, and by the trust: a row given other arguments or another observation, even equal ones
#: (``1.0`` for ``1``), is read again; state rows are never changed in place. Emptied when full.
_BY_ROW: dict[
    int, tuple[Mapping[str, Any], tuple[Any, ...], tuple[bool, tuple[str, ...]], Sequence[Source]]
] = {}
_BY_ROW_LIMIT = 2048


def _sources_once(call: Mapping[str, Any], trusted: bool, flipped: Sequence[str]) -> Sequence[Source]:
    """A call's sources, built once per content and trust: a run's review at every step finds the
    sources of the calls before it already built (their normalised text and identifiers too, which
    a :class:`Source` works out once), so its cost does not grow with the run. Sources are frozen:
    sharing them changes nothing but the time."""
    what = (
        call.get("tool"),
        call.get("step"),
        call.get("ok", True),
        call.get("observation"),
        call.get("args"),
    )
    trust = (trusted, tuple(flipped))
    held = _BY_ROW.get(id(call))
    if held is not None and held[0] is call and held[2] == trust and all(map(operator.is_, held[1], what)):
        return held[3]
    found = _sources_by_content(call, what, trusted, flipped)
    if len(_BY_ROW) >= _BY_ROW_LIMIT:
        _BY_ROW.clear()
    _BY_ROW[id(call)] = (call, what, trust, found)
    return found


def _sources_by_content(
    call: Mapping[str, Any], what: tuple[Any, ...], trusted: bool, flipped: Sequence[str]
) -> Sequence[Source]:
    try:
        key = pickle.dumps((*what, trusted, tuple(flipped)), protocol=5)
    except Exception:  # a value pickle cannot write: built as before, not kept
        return call_sources(call, trusted, flipped)
    return _kept_sources(_Keyed(key, call, trusted, flipped))


@lru_cache(maxsize=256)
def _request_source(request: str) -> Source:
    return Source("request", request)


def sources_of(
    request: str,
    subject: Mapping[str, Any],
    calls: Sequence[Mapping[str, Any]],
    *,
    trusted_tools: Iterable[str] = (),
    constants: Any = None,
    field_trust: Mapping[str, Sequence[str]] | None = None,
    effects: Iterable[str] = (),
    creates: Mapping[str, str] | None = None,
) -> list[Source]:
    """The run's sources: its request, its subject, the policy's constants, each executed call's
    observation (calls with an ``observation``; ``step`` and ``tool`` name them) and each
    successful call's arguments. ``field_trust``: tool → the paths of its observations whose trust
    is the opposite of the tool's. ``effects``: the side-effect tools, whose successful calls in
    the run give the id of what they created as a source of their own (:func:`own_ids`; ``creates``:
    tool → the result's field that holds it, ``ToolSpec.creates``)."""
    trusted, flips, acting = set(trusted_tools), dict(field_trust or {}), set(effects)
    out = [
        _request_source(request) if type(request) is str else Source("request", request),
        Source("subject", " | ".join(t for _p, t in leaf_paths(dict(subject), keys=True))),
        Source("policy", " | ".join(t for _p, t in leaf_paths(constants, keys=True))),
    ]
    for call in calls:
        if "observation" in call:
            tool = str(call.get("tool"))
            out += _sources_once(call, tool in trusted, flips.get(tool, ()))
            ids = own_ids(call, (creates or {}).get(tool, CREATED_ID)) if tool in acting else []
            if ids:
                step = call.get("step") if isinstance(call.get("step"), int) else None
                out.append(Source("own", " | ".join(ids), tool, step, True, True, ("id",)))
    return out
