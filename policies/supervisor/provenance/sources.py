"""The run's sources: the request, the subject, the policy's constants, each executed call's
observation (split by per-field trust) and arguments, and the ids a side effect of the run itself
returned (:func:`own_ids`). What a value *is* and where it *appears* is read by
:mod:`policies.supervisor.reading.values`; this module builds the places it may come from, once
per call's content."""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from policies.supervisor.reading.values import Source, leaf_paths, normalize_text, path_matches, traced

__all__ = ["call_sources", "own_ids", "sources_of"]


def _id_key(key: str) -> bool:
    folded = key.casefold()
    return folded == "id" or folded.endswith(("_id", "-id"))


def own_ids(call: Mapping[str, Any]) -> list[str]:
    """The ids a successful side effect returned that it was not given: the values of the top-level
    ``id`` (or ``*_id``) fields of its observation that none of the call's arguments holds (the id
    the file service gave the file the run created, not a value the call echoes back). Nothing else
    of the observation: its other fields, and ids nested in them (a list of other records, replies
    a third party wrote), are the tool's, as trusted as the tool is."""
    if not call.get("ok", True):
        return []
    given = {normalize_text(t) for _p, t in leaf_paths(call.get("args"))}
    out: list[str] = []
    for path, text in leaf_paths(call.get("observation")):
        if len(path) == 1 and _id_key(path[0]) and traced(text) and normalize_text(text) not in given:
            out += [] if text in out else [text]
    return out


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
) -> list[Source]:
    """The run's sources: its request, its subject, the policy's constants, each executed call's
    observation (calls with an ``observation``; ``step`` and ``tool`` name them) and each
    successful call's arguments. ``field_trust``: tool → the paths of its observations whose trust
    is the opposite of the tool's. ``effects``: the side-effect tools, whose successful calls in
    the run give the ids they returned as a source of their own (:func:`own_ids`)."""
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
            ids = own_ids(call) if tool in acting else []
            if ids:
                step = call.get("step") if isinstance(call.get("step"), int) else None
                out.append(Source("own", " | ".join(ids), tool, step, True, True, ("id",)))
    return out
