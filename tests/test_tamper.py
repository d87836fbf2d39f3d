"""Tamper evidence (issue 47): each thread's audit log chained by hash, checked by
``agent-patterns audit --verify``; an approved call stamped with a keyed MAC
(``$AGENT_PATTERNS_AUDIT_KEY``) and not run when its checkpoint was changed before resume. On a
real SQLite file and a real PostgreSQL, for both engines (the Supervisor graph and
``create_agent`` + ``GovernanceMiddleware``), as someone with write access to the database would
change them: SQL on the store's and the checkpointer's tables, or ``update_state``."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage
from langgraph.types import Command

from apps.operations.audit import stored_audit, verify_audit
from nodes import audit as log
from nodes.stamps import AUDIT_KEY_ENV
from nodes.store import open_checkpointer, open_store
from policies import tamper
from tests.processes import run_cli as cli
from tests.test_audit_log import APPROVE, build, config, turn

pytest.importorskip("langchain.agents", reason="GovernanceMiddleware needs langchain>=1 (the agents extra)")

THREAD = "desk-1"
ENGINES = ("supervisor_native", "middleware")
DATABASES = ("sqlite", "postgres")


# --- the pure chain: any edit, removal, insertion or move is reported --------------------------


def _chain(values: list[dict[str, Any]]) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, Any]]:
    items, prev = [], ""
    for n, value in enumerate(values):
        linked = tamper.linked(value, n, prev, **({"before": 0} if n == 0 else {}))
        items.append((f"k{n}", linked))
        prev = linked["hash"]
    return items, {"n": len(values) - 1, "hash": prev}


ROWS = st.lists(
    st.fixed_dictionaries(
        {"run_id": st.sampled_from(["r1", "r2"]), "kind": st.sampled_from(["trace", "calls"])},
        optional={"row": st.dictionaries(st.text(max_size=4), st.integers() | st.floats(allow_nan=False))},
    ),
    min_size=2,
    max_size=8,
)


@settings(max_examples=200, deadline=None)
@given(values=ROWS, change=st.sampled_from(["edit", "remove", "swap", "insert", "none"]), data=st.data())
def test_the_verifier_reports_every_edit_removal_insertion_and_move(values, change, data):
    items, head = _chain(values)
    assert tamper.verify_chain(items, head).ok
    at = data.draw(st.integers(min_value=0, max_value=len(items) - 1))
    expected = {
        "edit": {"edited"},
        "remove": {"removed"},
        "swap": {"reordered", "removed"},
        "insert": {"inserted", "edited"},
        "none": set(),
    }[change]
    if change == "edit":
        key, value = items[at]
        items[at] = (key, {**value, "seq": 99})
    elif change == "remove":
        del items[at]
    elif change == "swap":
        other = (at + 1) % len(items)
        (ka, va), (kb, vb) = items[at], items[other]
        items[at], items[other] = (ka, {**va, "n": vb["n"]}), (kb, {**vb, "n": va["n"]})
    elif change == "insert":
        items.append(("forged", {**items[at][1], "row": {"forged": True}}))
    found = {p.what for p in tamper.verify_chain(items, head).problems}
    assert bool(found) == bool(expected) and found <= expected | {"removed"}, (change, found)


def test_a_rewrite_with_the_same_content_keeps_its_link_and_other_content_replaces_it():
    """The writer's exactly-once rewrites: the same item written again is not a new link; written
    with other content (a node re-run that made other rows), a new link that names the one it
    replaces, and the chain still verifies."""
    first = [log.entry(f"k{i}", "r", "trace", i, {"i": i}) for i in range(3)]
    made, head = log.chained(first, [None] * 3, None, 0)
    stored = {e.key: e.value for e in made}
    item = type("Item", (), {})

    def held(key: str) -> Any:
        found = item()
        found.value = stored.get(key)
        return found if key in stored else None

    head_item = item()
    head_item.value = head
    again = [log.entry("k1", "r", "trace", 1, {"i": 1}), log.entry("k2", "r", "trace", 2, {"i": 2, "x": 1})]
    rewritten, head2 = log.chained(again, [held(e.key) for e in again], head_item, 0)
    assert [e.key for e in rewritten] == ["k2"] and rewritten[0].value["replaces"]["n"] == 2
    stored.update({e.key: e.value for e in rewritten})
    assert tamper.verify_chain(stored.items(), head2).ok


def test_a_thread_older_than_the_chain_goes_on_chained_and_an_unlinked_row_added_later_shows():
    """Items written before the chain existed stay as they are (counted by the first link); one
    of them written again as it is stays unlinked, written with other content becomes a link."""
    from langgraph.store.memory import InMemoryStore

    store, space = InMemoryStore(), log.namespace("old")
    for i in range(3):
        store.put(space, f"k{i}", log.entry(f"k{i}", "r", "trace", i, {"i": i}).value, index=False)
    (found,) = verify_audit(store, "old")
    assert found.report.unchained and found.ok
    again = [log.entry("k0", "r", "trace", 0, {"i": 0}), log.entry("k1", "r", "trace", 1, {"i": "other"})]
    log.write(store, "old", [*again, log.entry("k3", "r", "trace", 3, {"i": 3})])
    (found,) = verify_audit(store, "old")
    assert found.ok and (found.report.linked, found.report.before) == (2, 2), found.report
    store.put(space, "forged", {"run_id": "r", "kind": "trace", "seq": 9, "row": {}}, index=False)
    (found,) = verify_audit(store, "old")
    assert [p.what for p in found.report.problems] == ["inserted"]


def test_an_approval_stamp_binds_the_tool_its_arguments_and_the_question():
    stamp = tamper.call_stamp(b"k", "send_payment", {"amount": 5.0}, "ask:1")
    assert tamper.stamp_matches(b"k", stamp, "send_payment", {"amount": 5}, "ask:1")  # as jsonb returns it
    assert not tamper.stamp_matches(b"k", stamp, "send_payment", {"amount": 5000}, "ask:1")
    assert not tamper.stamp_matches(b"k", stamp, "send_payment", {"amount": 5.0}, "ask:2")
    assert not tamper.stamp_matches(b"other", stamp, "send_payment", {"amount": 5.0}, "ask:1")
    assert not tamper.stamp_matches(b"k", None, "send_payment", {"amount": 5.0}, "ask:1")


# --- a real database ------------------------------------------------------------------------------


@pytest.fixture(params=DATABASES)
def db(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "runs.sqlite")
    return request.getfixturevalue("pg_url")


@contextmanager
def raw(where: str) -> Iterator[Any]:
    """A connection to the database itself (what someone with database access holds), and its
    placeholder."""
    if where.startswith("postgres"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as conn:
            yield conn, "%s"
    else:
        conn = sqlite3.connect(where)
        try:
            yield conn, "?"
            conn.commit()
        finally:
            conn.close()


def sql(where: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
    with raw(where) as (conn, mark):
        cursor = conn.execute(query.replace("?", mark), params)
        return list(cursor.fetchall()) if cursor.description else []


PREFIX = ".".join(log.namespace(THREAD))


def log_rows(where: str) -> dict[str, dict[str, Any]]:
    rows = sql(where, "SELECT key, value FROM store WHERE prefix = ?", PREFIX)
    return {key: value if isinstance(value, dict) else json.loads(value) for key, value in rows}


def put_row(where: str, key: str, value: dict[str, Any]) -> None:
    cast = "::jsonb" if where.startswith("postgres") else ""
    sql(
        where,
        f"UPDATE store SET value = ?{cast} WHERE prefix = ? AND key = ?",
        json.dumps(value),
        PREFIX,
        key,
    )


def restore(where: str, rows: dict[str, dict[str, Any]]) -> None:
    cast = "::jsonb" if where.startswith("postgres") else ""
    sql(where, "DELETE FROM store WHERE prefix = ?", PREFIX)
    for key, value in rows.items():
        sql(
            where,
            f"INSERT INTO store (prefix, key, value) VALUES (?, ?, ?{cast})",
            PREFIX,
            key,
            json.dumps(value),
        )


def verified(where: str) -> list[tamper.Problem]:
    with open_store(where) as store:
        return [p for thread in verify_audit(store, THREAD) for p in thread.report.problems]


@pytest.mark.parametrize("engine", ENGINES)
def test_verify_reports_a_row_edited_removed_or_reordered_in_the_database(engine, db):
    """Three turns (the second a payment a human approves), then the store's table changed with
    SQL: the payment's amount edited, a row deleted, two rows' places swapped. ``--verify`` exits 0
    on the untouched log and 1 naming the thread, the row and what is wrong on each change."""
    with open_checkpointer(db) as saver, open_store(db) as store:
        graph, payments = build(engine, store=store, saver=saver)
        for number in (1, 2, 2, 3):
            turn(graph, number, config(THREAD))
    assert len(payments.done) == 1
    ok = cli("audit", "--verify", "--db", db)
    rows = log_rows(db)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert f"verified {len(rows)} rows in 1 threads" in ok.stdout
    by_n = {value["n"]: key for key, value in rows.items()}

    # a payment's amount edited in place
    paid = next(k for k, v in rows.items() if v["kind"] == "calls" and v["row"]["tool"] == "send_payment")
    put_row(db, paid, {**rows[paid], "row": {**rows[paid]["row"], "args": {"amount": 5000}}})
    edited = cli("audit", "--verify", THREAD, "--db", db)
    assert edited.returncode == 1, edited.stdout + edited.stderr
    assert f"thread '{THREAD}': edited: row {rows[paid]['n']}" in edited.stdout and paid in edited.stdout
    assert "FAILED: 1 of 1 thread(s)" in edited.stdout
    restore(db, rows)

    # a row deleted
    sql(db, "DELETE FROM store WHERE prefix = ? AND key = ?", PREFIX, by_n[2])
    assert [(p.what, p.n) for p in verified(db)][:1] == [("removed", 2)]
    restore(db, rows)

    # two rows' places swapped (the order the chain reads them in)
    put_row(db, by_n[3], {**rows[by_n[3]], "n": 4})
    put_row(db, by_n[4], {**rows[by_n[4]], "n": 3})
    assert "reordered" in {p.what for p in verified(db)}
    restore(db, rows)

    # the last row deleted: the head says there was one more
    sql(db, "DELETE FROM store WHERE prefix = ? AND key = ?", PREFIX, by_n[max(by_n)])
    assert [(p.what, p.n) for p in verified(db)] == [("removed", max(by_n))]
    restore(db, rows)
    assert verified(db) == []


def test_verify_without_a_thread_checks_every_thread_and_an_unchained_one_passes_unless_strict(tmp_path):
    db = str(tmp_path / "runs.sqlite")
    with open_checkpointer(db) as saver, open_store(db) as store:
        graph, _ = build("supervisor_native", store=store, saver=saver)
        for thread in ("a.1", "b"):
            turn(graph, 1, config(thread))
        # a thread written before the chain existed: items without links, no head
        store.put(
            log.namespace("old"), "x", {"run_id": "r", "kind": "trace", "seq": 0, "row": {}}, index=False
        )
    found = cli("audit", "--verify", "--db", db)
    assert found.returncode == 0, found.stdout + found.stderr
    assert "thread 'old': unchained" in found.stdout and "in 3 threads" in found.stdout
    strict = cli("audit", "--verify", "--strict", "--db", db)
    assert strict.returncode == 1 and "FAILED: 1 of 3 thread(s)" in strict.stdout
    missing = cli("audit", "--verify", "nobody", "--db", db)
    assert missing.returncode != 0 and "no audit log of thread 'nobody'" in missing.stderr


# --- an approved call changed in the checkpoint before resume is not run -------------------------

TAMPERED = {"kind": "tool", "name": "send_payment", "args": {"amount": 5000.0}}


def _kept_reply(where: str, saver: Any) -> tuple[Any, ...]:
    """The checkpointer's row holding the reply the middleware keeps while a human is asked (a
    LangGraph task's result): its key, and its value decoded."""
    table, column = ("checkpoint_writes", "blob") if where.startswith("postgres") else ("writes", "value")
    rows = sql(
        where,
        f"SELECT checkpoint_id, task_id, idx, type, {column} FROM {table} WHERE thread_id = ? AND channel = ?",
        THREAD,
        "__return__",
    )
    for checkpoint_id, task_id, idx, kind, blob in rows:
        value = saver.serde.loads_typed((kind, bytes(blob)))
        if isinstance(value, dict) and "result" in value:
            return (table, column, checkpoint_id, task_id, idx), value
    raise AssertionError("no kept reply")


def tamper_waiting_call(engine: str, graph: Any, saver: Any, where: str) -> None:
    """Change the payment that waits for a human to 5000 EUR, in the checkpoint: the Supervisor's
    state (``update_state``), the middleware's kept reply (SQL on the checkpointer's table)."""
    if engine != "middleware":
        graph.update_state(config(THREAD), {"action": TAMPERED})
        return
    (table, column, checkpoint_id, task_id, idx), kept = _kept_reply(where, saver)
    reply = next(m for m in kept["result"] if isinstance(m, AIMessage))
    reply.tool_calls[0]["args"] = {"amount": 5000.0}
    kind, blob = saver.serde.dumps_typed(kept)
    sql(
        where,
        f"UPDATE {table} SET type = ?, {column} = ? WHERE thread_id = ? AND checkpoint_id = ? "
        "AND task_id = ? AND idx = ?",
        kind,
        blob,
        THREAD,
        checkpoint_id,
        task_id,
        idx,
    )


def stop_reason(graph: Any) -> Any:
    values = graph.get_state(config(THREAD)).values
    return values.get("stop_reason") or values.get("governance_stop_reason")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_payment_changed_in_the_checkpoint_while_it_waits_is_not_run(engine, db, monkeypatch):
    monkeypatch.setenv(AUDIT_KEY_ENV, "a-long-random-key")
    with open_checkpointer(db) as saver, open_store(db) as store:
        graph, payments = build(engine, store=store, saver=saver)
        turn(graph, 2, config(THREAD))  # the payment waits for a human
        assert graph.get_state(config(THREAD)).interrupts
        tamper_waiting_call(engine, graph, saver, db)
        graph.invoke(Command(resume=APPROVE), config(THREAD))
        assert payments.done == {}
        assert stop_reason(graph) == "approval_tampered"
        audit = stored_audit(saver, store, THREAD)
        assert audit.runs[-1].stop_reason == "approval_tampered"
        assert any(row.get("stop_reason") == "approval_tampered" for row in audit.runs[-1].trace)
        assert all(thread.ok for thread in verify_audit(store, THREAD))


@pytest.mark.parametrize("engine", ENGINES)
def test_an_unchanged_approved_payment_runs_once(engine, db, monkeypatch):
    monkeypatch.setenv(AUDIT_KEY_ENV, "a-long-random-key")
    with open_checkpointer(db) as saver, open_store(db) as store:
        graph, payments = build(engine, store=store, saver=saver)
        turn(graph, 2, config(THREAD))
        graph.invoke(Command(resume=APPROVE), config(THREAD))
        assert len(payments.done) == 1
        assert stored_audit(saver, store, THREAD).runs[-1].stop_reason == "success"


def test_a_supervisor_call_changed_after_its_approval_and_before_it_runs_is_not_run(tmp_path, monkeypatch):
    """The approved call waits in a checkpoint between the approval and its execution (a crash
    there, or a pause before ``execute``): changed there, it is not run."""
    monkeypatch.setenv(AUDIT_KEY_ENV, "a-long-random-key")
    db = str(tmp_path / "runs.sqlite")
    with open_checkpointer(db) as saver, open_store(db) as store:
        graph, payments = build("supervisor_native", store=store, saver=saver)
        turn(graph, 2, config(THREAD))
        graph.invoke(Command(resume=APPROVE), config(THREAD), interrupt_before=["execute"])
        assert graph.get_state(config(THREAD)).next == ("execute",)
        graph.update_state(config(THREAD), {"action": TAMPERED}, as_node="human_approval")
        graph.invoke(None, config(THREAD))
        assert payments.done == {} and stop_reason(graph) == "approval_tampered"


def test_a_middleware_plan_changed_before_its_call_runs_is_refused(monkeypatch):
    """The middleware's plan of an approved call (what ``wrap_tool_call`` runs), changed in state
    after it was stamped, is not the stamped call; without a key nothing is checked."""
    from nodes.middleware.reply import plan_ask, plan_tampered
    from nodes.stamps import stamp

    monkeypatch.setenv(AUDIT_KEY_ENV, "k")
    plan = {"run_id": "r", "step": 1, "tool": "send_payment", "args": {"amount": 5.0}, "idempotency_key": "i"}
    plan |= stamp(plan["tool"], plan["args"], plan_ask(plan))
    assert not plan_tampered(plan)
    assert plan_tampered({**plan, "args": {"amount": 5000.0}})
    assert plan_tampered({k: v for k, v in plan.items() if k != "stamp"})
    monkeypatch.delenv(AUDIT_KEY_ENV)
    assert not plan_tampered({**plan, "args": {"amount": 5000.0}})


def test_a_plan_stamped_in_this_process_is_checked_again_unless_it_is_that_very_unchanged_dict(monkeypatch):
    """The shortcut of a plan read back from the running graph's state (the same dict the review
    stamped): a copy (what a checkpoint gives back), other arguments, another stamp or another key
    are each checked in full; without a key nothing is stamped."""
    from nodes.middleware.reply import plan_ask, plan_tampered
    from nodes.stamps import stamped_here

    monkeypatch.setenv(AUDIT_KEY_ENV, "k")
    made = {"run_id": "r", "step": 1, "tool": "send_payment", "args": {"amount": 5.0}, "idempotency_key": "i"}
    plan = stamped_here(made, made["tool"], made["args"], plan_ask(made))
    assert "stamp" in plan and not plan_tampered(plan) and not plan_tampered(dict(plan))
    assert plan_tampered({**plan, "args": {"amount": 5000.0}})
    swapped = stamped_here(made, made["tool"], made["args"], plan_ask(made))
    swapped["args"] = {"amount": 5000.0}  # the same dict, its arguments replaced
    assert plan_tampered(swapped)
    other = stamped_here(made, made["tool"], made["args"], plan_ask(made))
    other["stamp"] = "0" * 64
    assert plan_tampered(other)
    monkeypatch.setenv(AUDIT_KEY_ENV, "another key")
    assert plan_tampered(plan)
    monkeypatch.delenv(AUDIT_KEY_ENV)
    assert "stamp" not in stamped_here(made, made["tool"], made["args"], plan_ask(made))


def test_a_middleware_plan_changed_in_the_checkpoint_before_the_tools_node_is_not_run(tmp_path, monkeypatch):
    """Approved and stamped in the model's node, the payment waits in a checkpoint before the tools
    node runs it (a crash there, a pause): its plan changed there (another amount) is not run, though
    the same process made the stamp."""
    monkeypatch.setenv(AUDIT_KEY_ENV, "a-long-random-key")
    db = str(tmp_path / "runs.sqlite")
    with open_checkpointer(db) as saver, open_store(db) as store:
        graph, payments = build("middleware", store=store, saver=saver)
        turn(graph, 2, config(THREAD))
        graph.invoke(Command(resume=APPROVE), config(THREAD), interrupt_before=["tools"])
        state = graph.get_state(config(THREAD))
        assert state.next == ("tools",)
        plans = state.values["governance_plan"]
        changed = {cid: {**p, "args": {**p["args"], "amount": 5000.0}} for cid, p in plans.items()}
        graph.update_state(config(THREAD), {"governance_plan": changed}, as_node="model")
        graph.invoke(None, config(THREAD))
        assert payments.done == {} and stop_reason(graph) == "approval_tampered"


@pytest.mark.integration
def test_the_cli_answers_a_stamped_run_and_a_stamp_made_under_another_key_is_not_run(tmp_path):
    """The key in every process's environment: a run asked in one process is approved from
    another (the refund runs, the chain verifies). A stamp another key made, as a forger without
    the key would, is not the stamp: the refund is not run."""
    db = str(tmp_path / "runs.sqlite")
    for thread, approver_key in (("S", "k1"), ("F", "forged")):
        asked = cli(
            "run", "supervisor", "--human", "--db", db, "--thread-id", thread, AGENT_PATTERNS_AUDIT_KEY="k1"
        )
        assert asked.returncode == 3, asked.stdout + asked.stderr
        done = cli("approve", thread, "--as", "alice", "--db", db, AGENT_PATTERNS_AUDIT_KEY=approver_key)
        shown = json.loads(cli("show", thread, "--json", "--db", db).stdout)
        refunds = [c for c in shown["calls"] if c["tool"] == "issue_refund"]
        if approver_key == "k1":
            assert done.returncode == 0 and len(refunds) == 1, done.stdout + done.stderr
        else:
            assert done.returncode == 1 and refunds == [] and shown["stop_reason"] == "approval_tampered"
    assert cli("audit", "--verify", "--db", db).returncode == 0


def test_verify_of_a_store_that_is_not_there_or_holds_no_log_is_an_error_never_a_pass(tmp_path):
    """A mistyped ``--db`` must not read as a verified audit: a SQLite file that does not exist is
    an error (and is not created), and a store with no audit log has nothing verified (exit 2)."""
    missing = tmp_path / "typo.sqlite"
    for args in (["--verify"], ["--jsonl"], ["t1"]):
        done = cli("audit", *args, "--db", str(missing))
        assert done.returncode == 2 and f"no run store at {missing}" in done.stderr, done.stderr
    assert not missing.exists()
    empty = str(tmp_path / "empty.sqlite")
    with open_store(empty):
        pass
    done = cli("audit", "--verify", "--db", empty)
    assert done.returncode == 2 and "nothing to verify: no audit log in" in done.stderr, (
        done.stdout + done.stderr
    )
