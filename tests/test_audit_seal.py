"""Issue 55: an audit an intruder cannot rewrite quietly.

The chain's hash is of one exact canonical form (an integer of any size the run keeps, no float
rounding: ``1234567890123456789`` and ``…800`` hash apart), and with ``$AGENT_PATTERNS_AUDIT_KEY``
every link and the head carry an HMAC seal under the operator's key: a log edited and re-linked
with plain SHA-256 (hashes, ``prev`` and head recomputed, as anyone who knows the algorithm can)
fails ``audit --verify`` given the key. Real CLI processes on a real SQLite file, and a property
over arbitrary JSON values."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies import tamper
from tests.processes import run_cli as cli
from tests.test_tamper import THREAD, build, config, db, log_rows, put_row, sql, turn

__all__ = ["db"]  # the fixture, shared with tests/test_tamper.py

KEY = "k3y-0f-the-0perat0r"
OLD = "an-0lder-key"

INTS = st.integers(min_value=-(2**63), max_value=2**64 - 1)
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    INTS,
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


def _ints(value: Any) -> list[list[Any]]:
    """The path of every integer leaf (not a boolean)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [[]]
    if isinstance(value, dict):
        return [[k, *p] for k, v in value.items() for p in _ints(v)]
    if isinstance(value, list):
        return [[i, *p] for i, v in enumerate(value) for p in _ints(v)]
    return []


def _changed(value: Any, path: list[Any], by: int) -> Any:
    if not path:
        return value + by
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _changed(value[path[0]], path[1:], by)
    return copy


@settings(max_examples=300, deadline=None)
@given(VALUES, st.data())
def test_the_hash_is_exact_and_the_same_from_every_store(value, data):
    """Stored and read back by the standard library or by orjson (what LangGraph's stores use), a
    link hashes the same; any integer changed by one, however large, changes the hash."""
    link = tamper.linked({"row": value}, 0, "")
    for back in (json.loads(json.dumps(link)), orjson.loads(orjson.dumps(link))):
        assert tamper.link_hash(back) == link["hash"]
    paths = _ints(value)
    if paths:
        path = data.draw(st.sampled_from(paths))
        by = data.draw(st.sampled_from([1, -1]))
        leaf = value
        for step in path:
            leaf = leaf[step]
        if -(2**63) <= leaf + by <= 2**64 - 1:
            edited = {**link, "row": _changed(value, path, by)}
            assert tamper.link_hash(edited) != link["hash"]


def test_a_large_integer_is_hashed_as_it_is():
    link = tamper.linked({"amount": 1234567890123456789}, 0, "")
    assert tamper.link_hash({**link, "amount": 1234567890123456800}) != link["hash"]
    assert tamper.link_hash({**link, "amount": 2**60 + 1}) != tamper.link_hash({**link, "amount": 2**60})
    legacy = {"amount": 1234567890123456789, "n": 0, "prev": ""}  # a link of the first form
    legacy["hash"] = tamper.link_hash(legacy)
    assert tamper.verify_chain([("a", legacy)], {"n": 0, "hash": legacy["hash"]}).ok  # still verifies


def _sealed_chain(
    key: bytes | None, count: int = 3
) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, Any]]:
    items, prev = [], ""
    for n in range(count):
        extra = {"before": 0} if n == 0 else {}
        link = tamper.linked({"row": {"amount": 10 * n}}, n, prev, key=key, **extra)
        items.append((f"k{n}", link))
        prev = link["hash"]
    return items, tamper.sealed_head(count - 1, prev, 0.0, key)


def _relinked(
    items: list[tuple[str, dict[str, Any]]], at: int, row: Any, keep_seals: bool
) -> tuple[list, dict]:
    """An intruder's rewrite: ``row`` at place ``at``, every hash, ``prev`` and the head recomputed
    with plain SHA-256 (the seals kept as they were, or dropped)."""
    out, prev = [], ""
    for n, (key, value) in enumerate(items):
        value = {**value, "row": row} if n == at else dict(value)
        value["prev"] = prev
        value["hash"] = tamper.link_hash(value)
        if not keep_seals:
            value.pop("kid", None), value.pop("mac", None)
        out.append((key, value))
        prev = value["hash"]
    head = {"n": len(items) - 1, "hash": prev, "at": 0.0}
    if keep_seals:
        head.update(kid=items[-1][1]["kid"], mac=items[-1][1]["mac"])
    return out, head


def test_a_sealed_chain_re_linked_without_the_key_fails_and_says_which_key_sealed_which_rows():
    key = KEY.encode()
    keys = {tamper.key_id(key): key}
    items, head = _sealed_chain(key)
    report = tamper.verify_chain(items, head, keys)
    assert report.ok and report.sealed == ((tamper.key_id(key), 0, 2),)
    assert tamper.verify_chain(items, head).unchecked == 3  # without the key: hashes only, said so
    for keep in (True, False):
        forged, forged_head = _relinked(items, 1, {"amount": 5000}, keep)
        assert tamper.verify_chain(forged, forged_head).ok  # the hashes alone cannot tell
        problems = tamper.verify_chain(forged, forged_head, keys).problems
        assert {p.what for p in problems} == ({"forged"} if keep else {"unsealed"}), problems
    older = tamper.verify_chain(items, head, {tamper.key_id(b"another"): b"another"})
    assert {p.what for p in older.problems} == {"unsealed"}  # sealed by a key not given


def test_rotation_verifies_each_span_with_the_key_that_sealed_it():
    old, new = OLD.encode(), KEY.encode()
    first = tamper.linked({"row": 1}, 0, "", key=old, before=0)
    second = tamper.linked({"row": 2}, 1, first["hash"], key=new)
    head = tamper.sealed_head(1, second["hash"], 0.0, new)
    both = {tamper.key_id(old): old, tamper.key_id(new): new}
    report = tamper.verify_chain([("a", first), ("b", second)], head, both)
    assert report.ok and report.sealed == ((tamper.key_id(old), 0, 0), (tamper.key_id(new), 1, 1))
    only_new = tamper.verify_chain([("a", first), ("b", second)], head, {tamper.key_id(new): new})
    assert [p.n for p in only_new.problems] == [0]


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_the_cli_fails_a_log_re_linked_without_the_key(db, monkeypatch):
    """Three turns written with the key (a real SQLite file), then the payment's amount edited and
    every hash, ``prev`` and the head recomputed in the database with plain SHA-256: ``audit
    --verify`` passes without the key (hashes only, and says the seals went unchecked) and exits 1
    with it, naming the forged row; a large integer edited by 11 is caught the same way."""
    from nodes.store import open_checkpointer, open_store

    monkeypatch.setenv("AGENT_PATTERNS_AUDIT_KEY", KEY)
    with open_checkpointer(db) as saver, open_store(db) as store:
        graph, payments = build("middleware", store=store, saver=saver)
        for number in (1, 2, 2, 3):
            turn(graph, number, config(THREAD))
    assert len(payments.done) == 1
    keyed: dict[str, Any] = {"AGENT_PATTERNS_AUDIT_KEY": KEY}
    bare: dict[str, Any] = {"drop": ("OPENAI_", "AGENT_PATTERNS_AUDIT_KEY")}
    good = cli("audit", "--verify", THREAD, "--db", db, **keyed)
    assert good.returncode == 0 and "sealed by key" in good.stdout, good.stdout + good.stderr
    anchored = cli("audit", "--head", "--db", db)  # the head to keep outside the database
    [head_line] = anchored.stdout.splitlines()
    exported = json.loads(head_line)
    assert exported["thread_id"] == THREAD and exported["kid"] == tamper.key_id(KEY.encode())
    assert isinstance(exported["n"], int) and len(exported["hash"]) == 64
    rows = log_rows(db)
    paid = next(k for k, v in rows.items() if v["kind"] == "calls" and v["row"]["tool"] == "send_payment")
    for forged_amount in (5000, 1234567890123456789):
        ordered = sorted(rows.items(), key=lambda kv: kv[1]["n"])
        prev = ""
        for key, value in ordered:
            value = dict(value)
            if key == paid:
                value["row"] = {**value["row"], "args": {**value["row"]["args"], "amount": forged_amount}}
            value["prev"] = prev
            value["hash"] = tamper.link_hash(value)
            put_row(db, key, value)
            prev = value["hash"]
        head_prefix = ".".join(("agent_patterns", "audit_head", THREAD))
        [(raw_head,)] = sql(db, "SELECT value FROM store WHERE prefix = ?", head_prefix)
        head = raw_head if isinstance(raw_head, dict) else json.loads(raw_head)
        sql(
            db, "UPDATE store SET value = ? WHERE prefix = ?", json.dumps({**head, "hash": prev}), head_prefix
        )
        unkeyed = cli("audit", "--verify", THREAD, "--db", db, **bare)
        assert unkeyed.returncode == 0 and "not checked" in unkeyed.stdout, unkeyed.stdout
        caught = cli("audit", "--verify", THREAD, "--db", db, **keyed)
        assert caught.returncode == 1, caught.stdout + caught.stderr
        assert f"forged: row {rows[paid]['n']}" in caught.stdout, caught.stdout
        rows = log_rows(db)
