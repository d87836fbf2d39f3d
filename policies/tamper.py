"""Tamper evidence, pure: the hash chain of a thread's audit log and the keyed stamp of an approved
call (no I/O: the writer is ``nodes.audit``, the reader ``apps.operations.audit.verify_audit``).

**The chain.** Every item of a thread's log holds its place in the chain (``n``: 0, 1, 2... in the
order the items were first written), its predecessor's hash (``prev``; ``""`` for the first) and
its own (``hash``: SHA-256 of the canonical JSON of the item's value less ``n`` and ``hash``, so
``prev`` is covered). The thread's head (its last place and hash) is kept apart, so a removed last
item shows too. An item written again with the same content (a node re-run from the same
checkpoint, a run's rows moved twice) keeps its link; one written again with other content is a new
link at the end that names the one it ``replaces`` (its place and hash). The first link counts the
items the log held before the chain began (``before``: a thread older than the chain), so one added
without a link later shows too.

What it detects: an item edited (its hash no longer matches its content), removed (a place missing,
or the head past the last item), inserted (a place taken twice, an item without a link beyond those
written before the chain) or moved (its ``prev`` is another item's hash). What it does not: someone
who rewrites the whole chain from some item on, hashes and head included, consistently; the chain
is unkeyed, so anyone who knows this algorithm can. The keyed stamp of an approved call is what a
writer without the key cannot make.

**The stamp.** An approved call (its tool, its arguments, the key of the question that asked about
it) stamped with HMAC-SHA256 under a key from the environment: a checkpoint whose call was changed
after the stamp no longer matches, and the call is not run.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

#: The fields of an item's value that are its link (``v``: the canonical form its hash is of;
#: ``kid`` and ``mac``: the key that sealed it and its seal).
LINK_FIELDS = ("n", "prev", "hash", "replaces", "before", "v", "kid", "mac")
#: The fields a hash does not cover: its place (a place moved shows as a ``prev`` that does not
#: follow), the hash itself and its seal (which covers the place and the hash).
UNHASHED = ("n", "hash", "kid", "mac")
#: The canonical form new links are hashed in (:func:`exact`); a link without ``v`` is of the
#: first form (:func:`canonical`), kept so that a log written before verifies as it was written.
CHAIN_VERSION = 2
#: Fields that may differ when the same item is written again (when it was written).
VOLATILE = ("at",)
#: Integers beyond this are compared as the float a JSON store may return them as.
_EXACT_INT = 2**53


def canonical(value: Any) -> Any:
    """``value`` as every store returns it: a float with no fraction as an integer (PostgreSQL's
    ``jsonb`` returns ``5.0`` as ``5.0`` but ``1e20`` as an integer), a large integer as the float
    a JSON parser may read it as, keys sorted when dumped."""
    kind = type(value)
    if kind is str or kind is bool or value is None:  # the common leaves, by type
        return value
    if kind is dict:
        return {k if type(k) is str else str(k): canonical(v) for k, v in value.items()}
    if kind is list:
        return [canonical(v) for v in value]
    if isinstance(value, bool | str):
        return value
    if isinstance(value, int | float):
        if isinstance(value, float) and not value.is_integer():
            return value
        number = int(value)
        return int(float(number)) if abs(number) > _EXACT_INT else number
    if isinstance(value, Mapping):
        return {str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    return str(value)


def exact(value: Any) -> Any:
    """``value`` in the chain's exact canonical form: an integer as it is, whatever its size (every
    store returns the integers a run keeps exactly: at most 64 bits, ``policies.json_safety``); a
    float with no fraction as the integer it equals exactly (PostgreSQL's ``jsonb`` returns ``1e20``
    as an integer); any other float as its shortest round-trip text; a ``Decimal`` as its text;
    keys as text, sorted when dumped. No number is rounded: ``1234567890123456789`` and
    ``1234567890123456800`` hash apart."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:  # the common leaves, by type
        return value
    if kind is dict:
        return {k if type(k) is str else str(k): exact(v) for k, v in value.items()}
    if kind is list:
        return [exact(v) for v in value]
    if isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): exact(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [exact(v) for v in value]
    return str(value)


def _dumped(value: Any, version: int = 1) -> bytes:
    form = exact(value) if version >= 2 else canonical(value)
    text = json.dumps(form, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8", "surrogatepass")


def link_hash(value: Mapping[str, Any]) -> str:
    """The hash of an item's value (its ``prev`` and ``v`` included, its place, own hash and seal
    not), in the canonical form its ``v`` names."""
    given = value.get("v")
    version = given if isinstance(given, int) else 1
    hashed = {k: v for k, v in value.items() if k not in UNHASHED}
    return hashlib.sha256(_dumped(hashed, version)).hexdigest()


@functools.lru_cache(maxsize=16)
def key_id(key: bytes) -> str:
    """A key's public name: the first 12 hex digits of its SHA-256 (it says which key sealed a
    link without revealing it)."""
    return hashlib.sha256(b"agent-patterns-audit-key:" + key).hexdigest()[:12]


def seal(key: bytes, what: str, n: Any, link: Any) -> str:
    """The HMAC-SHA256 seal of a link (``what="link"``) or of the head (``"head"``): its place and
    its hash, under ``key``. Whoever rewrites the log without the key cannot make it."""
    return hmac.digest(key, _dumped({"what": what, "n": n, "hash": link}, 2), "sha256").hex()


def sealed_head(n: int, link: str, at: float, key: bytes | None) -> dict[str, Any]:
    """The thread's head: its last place and hash, when written, and with a key its seal."""
    head: dict[str, Any] = {"n": n, "hash": link, "at": at}
    if key is not None:
        head.update(kid=key_id(key), mac=seal(key, "head", n, link))
    return head


def content(value: Mapping[str, Any]) -> Any:
    """What an item says, less its link and when it was written: two writes of one item compare
    equal on it."""
    return canonical({k: v for k, v in value.items() if k not in (*LINK_FIELDS, *VOLATILE)})


def linked(
    value: Mapping[str, Any], n: int, prev: str, *, key: bytes | None = None, **extra: Any
) -> dict[str, Any]:
    """``value`` as the chain's ``n``-th link after ``prev`` (``extra``: ``replaces``, ``before``),
    hashed in the exact form (:data:`CHAIN_VERSION`), and with ``key`` sealed (``kid``, ``mac``)."""
    made = {**{k: v for k, v in value.items() if k not in LINK_FIELDS}, **extra, "n": n, "prev": prev}
    made["v"] = CHAIN_VERSION
    made["hash"] = link_hash(made)
    if key is not None:
        made.update(kid=key_id(key), mac=seal(key, "link", n, made["hash"]))
    return made


def is_linked(value: Any) -> bool:
    if not isinstance(value, Mapping):
        return False
    return isinstance(value.get("hash"), str) and isinstance(value.get("n"), int)


@dataclass(frozen=True)
class Problem:
    """One break in a thread's chain: what is wrong (``edited``, ``removed``, ``inserted``,
    ``reordered``), where (the item's key and place, its run and kind) and a sentence."""

    what: str
    key: str | None
    n: int | None
    run_id: Any
    kind: Any
    detail: str

    def line(self) -> str:
        where = f"row {self.n}" if self.n is not None else "a row"
        item = f" ({self.kind} of run {self.run_id}, key {self.key})" if self.key else ""
        return f"{self.what}: {where}{item}: {self.detail}"


@dataclass(frozen=True)
class ChainReport:
    """What the verification of one thread found: ``linked`` items checked, ``before`` items the
    log held before its chain began (counted, not linked), ``unchained`` (a thread written before
    the chain existed: nothing to check), and every ``problems``."""

    linked: int
    before: int
    unchained: bool
    problems: tuple[Problem, ...] = field(default_factory=tuple)
    #: each key id given that verified seals, with the first and last place it sealed
    sealed: tuple[tuple[str, int, int], ...] = ()
    #: links sealed that no key given could check (verified without the key: hashes only)
    unchecked: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def _problem(what: str, item: tuple[str, Mapping[str, Any]] | None, n: int | None, detail: str) -> Problem:
    key, value = item if item is not None else (None, {})
    return Problem(what, key, n, value.get("run_id"), value.get("kind"), detail)


def _seal_problem(
    value: Mapping[str, Any], what: str, keys: Mapping[str, bytes], item: Any, n: int | None
) -> Problem | None:
    """With keys given: a link (or the head) with no seal, sealed by a key not given, or whose seal
    is not its own (rewritten by someone without the key)."""
    kid, mac = value.get("kid"), value.get("mac")
    if not isinstance(mac, str) or not isinstance(kid, str):
        return _problem(
            "unsealed", item, n, f"the {what} carries no seal (written without the key, or its seal removed)"
        )
    key = keys.get(kid)
    if key is None:
        return _problem("unsealed", item, n, f"the {what} is sealed by key {kid}, which was not given")
    if not hmac.compare_digest(mac, seal(key, what, value.get("n"), value.get("hash"))):
        return _problem(
            "forged", item, n, f"the {what}'s seal does not match: it was written without key {kid}"
        )
    return None


def verify_chain(
    items: Iterable[tuple[str, Mapping[str, Any]]],
    head: Mapping[str, Any] | None,
    keys: Mapping[str, bytes] | None = None,
) -> ChainReport:
    """Check a thread's log (``items``: each item's key and value) against its chain and ``head``
    (the last place and hash the writer recorded; None: none was). With ``keys`` (key id →
    key, :func:`key_id`): every link and the head must carry a seal one of them made; without, the
    seals are not checked (counted as ``unchecked``) and the hashes alone are."""
    keys = dict(keys or {})
    links: dict[int, list[tuple[str, Mapping[str, Any]]]] = {}
    loose = 0
    for key, value in items:
        if is_linked(value):
            links.setdefault(int(value["n"]), []).append((key, value))
        else:
            loose += 1
    if not links and head is None:
        return ChainReport(0, loose, unchained=True)
    problems: list[Problem] = []
    spans: dict[str, tuple[int, int]] = {}
    hashes = {v["hash"]: n for n, found in links.items() for _, v in found}
    replaced = {
        int(v["replaces"]["n"]): str(v["replaces"].get("hash"))
        for found in links.values()
        for _, v in found
        if isinstance(v.get("replaces"), Mapping) and isinstance(v["replaces"].get("n"), int)
    }
    # older items a link took over (written again with other content) are no longer unlinked
    taken = sum(
        1
        for found in links.values()
        for _, v in found
        if isinstance(v.get("replaces"), Mapping) and v["replaces"].get("unlinked") is True
    )
    last = int(head["n"]) if head is not None and isinstance(head.get("n"), int) else max(links, default=-1)
    top = max([last, *links])
    prev_hash = ""
    for n in range(top + 1):
        found = links.get(n, [])
        if not found:
            if n in replaced:  # written again with other content, later in the chain
                prev_hash = replaced[n]
                continue
            problems.append(_problem("removed", None, n, "no row holds this place in the chain"))
            prev_hash = None  # type: ignore[assignment]  # the next link cannot be checked against it
            continue
        if len(found) > 1:
            twice = "another row holds the same place"
            problems += [_problem("inserted", item, n, twice) for item in found[1:]]
        item = found[0]
        key, value = item
        if n > last:
            problems.append(_problem("inserted", item, n, f"past the last row the writer recorded ({last})"))
        if link_hash(value) != value["hash"]:
            problems.append(_problem("edited", item, n, "its content no longer matches its hash"))
        elif keys:
            sealed = _seal_problem(value, "link", keys, item, n)
            if sealed is not None:
                problems.append(sealed)
            else:
                kid = str(value["kid"])
                spans[kid] = (spans.get(kid, (n, n))[0], n)
        elif prev_hash is not None and value.get("prev") != prev_hash:
            moved = hashes.get(str(value.get("prev")))
            if moved is not None:
                detail = f"it was written after row {moved}, and is read after row {n - 1}"
                problems.append(_problem("reordered", item, n, detail))
            else:
                detail = "it does not follow the row before it (a row was replaced or removed before it)"
                problems.append(_problem("removed", item, n, detail))
        if n == 0:
            before = value.get("before")
            if isinstance(before, int) and before - taken != loose:
                kept = before - taken
                what = "inserted" if loose > kept else "removed"
                detail = f"the log held {kept} row(s) from before the chain began, it holds {loose} now"
                problems.append(_problem(what, None, None, detail))
            elif not isinstance(before, int) and loose:
                detail = f"{loose} row(s) carry no link"
                problems.append(_problem("inserted", None, None, detail))
        prev_hash = value["hash"]
    if head is None:
        problems.append(_problem("removed", None, None, "the chain's head (its last row) is missing"))
    elif last in links and head.get("hash") != links[last][0][1].get("hash"):
        moved = hashes.get(str(head.get("hash")))
        what = "reordered" if moved is not None else "edited"
        which = f" (row {moved} is)" if moved is not None else ""
        detail = f"it is not the row the writer recorded last{which}"
        problems.append(_problem(what, links[last][0], last, detail))
    if head is not None and keys:
        unsealed_head = _seal_problem(head, "head", keys, None, None)
        if unsealed_head is not None:
            problems.append(unsealed_head)
    first = links.get(0, [("", {})])[0][1]
    given = first.get("before")
    count = sum(len(found) for found in links.values())
    older = given - taken if isinstance(given, int) else loose
    unchecked = (
        0 if keys else sum(1 for found in links.values() for _, v in found if isinstance(v.get("mac"), str))
    )
    report_spans = tuple(
        (kid, first, last_n) for kid, (first, last_n) in sorted(spans.items(), key=lambda s: s[1])
    )
    return ChainReport(
        count, older, unchained=False, problems=tuple(problems), sealed=report_spans, unchecked=unchecked
    )


# --- the keyed stamp of an approved call ---------------------------------------------------------


def call_stamp(key: bytes, tool: Any, args: Any, ask: Any) -> str:
    """The HMAC-SHA256 stamp of a call approved to run: its tool, its arguments and the question's
    key (so a stamp cannot be moved to another question)."""
    return hmac.digest(key, _dumped({"tool": tool, "args": args, "ask": ask}), "sha256").hex()


def stamp_matches(key: bytes, stamp: Any, tool: Any, args: Any, ask: Any) -> bool:
    """Does ``stamp`` stamp this very call (compared in constant time)?"""
    return isinstance(stamp, str) and hmac.compare_digest(stamp, call_stamp(key, tool, args, ask))
