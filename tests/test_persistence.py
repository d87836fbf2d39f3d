"""Durable runs: every store keeps each run's result, trace and history, readable by thread id from
another process; a run paused for a human is answered from another process; bad locations and
bad requests are clear errors that lose nothing."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from apps.operations.runs import (
    NotWaiting,
    RunNotFound,
    list_runs,
    load_run,
    resume_run,
    run_config,
    waiting_runs,
)
from graphs.registry import PATTERNS, run_result
from nodes.store import StoreError, open_checkpointer, open_ledger, parse_location
from tests.processes import run

pytestmark = pytest.mark.integration

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parent.parent


def _jsonable(value):
    return json.loads(json.dumps(value, default=str))


def _cli(*args: str, db: str, check_rc: int | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AGENT_PATTERNS_"))}
    out = run([str(BIN / "agent-patterns"), *args, "--db", db], env=env, cwd=ROOT, timeout=120)
    if check_rc is not None:
        assert out.returncode == check_rc, (out.returncode, out.stdout[-2000:], out.stderr[-2000:])
    return out


def _python(code: str, *args: str) -> str:
    """Run ``code`` in a process of its own (it shares nothing with this one)."""
    out = run([sys.executable, "-c", code, *args], cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def _cli_policy(name: str):
    pattern = PATTERNS[name]
    policy = pattern.policy()
    return pattern.cli_policy(policy, False) if pattern.cli_policy else policy


def _run_every_pattern(location: str) -> dict[str, dict]:
    """Each pattern's demo, run to the end in this process; thread id → result."""
    results = {}
    with open_checkpointer(location) as saver, open_ledger(location) as ledger:
        for name, pattern in PATTERNS.items():
            policy = _cli_policy(name)
            graph = pattern.build(checkpointer=saver, policy=policy, ledger=ledger)
            thread_id = f"readback-{name}"
            values = graph.invoke(pattern.demo_input(), run_config(thread_id, policy))
            assert values["status"] == "ok", (name, values.get("stop_reason"))
            results[thread_id] = _jsonable(run_result(graph, values))
    return results


READ_BACK = """
import json, sys
from apps.operations.runs import list_runs, load_run
from nodes.store import open_checkpointer
with open_checkpointer(sys.argv[1]) as saver:
    runs = {r.thread_id: r.as_dict() for r in list_runs(saver)}
    print(json.dumps({t: {"summary": runs[t], "result": load_run(saver, t).result} for t in runs}, default=str))
"""


@pytest.fixture(params=["sqlite", "postgres"])
def location(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "store" / "runs.sqlite")
    return request.getfixturevalue("pg_url")


def test_every_pattern_reads_back_in_a_fresh_process(location):
    ran = _run_every_pattern(location)
    read = json.loads(_python(READ_BACK, location))
    assert set(read) == set(ran)
    for thread_id, result in ran.items():
        back = read[thread_id]
        pattern = back["summary"]["pattern"]
        assert thread_id == f"readback-{pattern}"
        assert back["summary"]["status"] == "ok" and back["summary"]["stop_reason"] == "success"
        assert back["summary"]["model"] == "offline:deterministic-v1"
        assert back["result"] == result  # the whole result: trace and history included
        assert back["result"]["trace"] and back["result"]["history"]


def test_memory_store_reads_back_through_a_new_graph():
    with open_checkpointer("memory") as saver:
        for name, pattern in PATTERNS.items():
            policy = _cli_policy(name)
            values = pattern.build(checkpointer=saver, policy=policy).invoke(
                pattern.demo_input(), run_config(name, policy)
            )
            record = load_run(saver, name)  # a graph built anew over the same saver
            assert record.result == run_result(pattern.module.graph, values)
            assert record.summary.pattern == name and record.summary.status == "ok"
            assert [c["source"] for c in record.checkpoints][-1] == "input"
        assert {r.thread_id for r in list_runs(saver)} == set(PATTERNS)


def test_show_prints_the_stored_result(tmp_path):
    db = str(tmp_path / "runs.sqlite")
    ran = _cli("run", "research", "--json", "--thread-id", "t-show", db=db, check_rc=0)
    result = json.loads(ran.stdout)
    shown = json.loads(_cli("show", "t-show", "--json", "--checkpoints", db=db, check_rc=0).stdout)
    assert shown.pop("run_status") == "ok"
    checkpoints = shown.pop("checkpoints")
    assert shown == result
    assert checkpoints[0]["next"] == [] and checkpoints[-1]["source"] == "input"
    assert len(checkpoints) >= len(result["trace"])
    listing = _cli("runs", db=db, check_rc=0).stdout
    assert "t-show" in listing and "research" in listing and "success" in listing


def test_supervisor_escalation_approved_from_another_process(location):
    """Process A raises the escalation and exits; B lists it and approves; C finds nothing to do."""
    started = _cli("run", "supervisor", "--human", "--json", db=location, check_rc=3)
    paused = json.loads(started.stdout)
    thread_id = paused["thread_id"]
    [request] = paused["waiting_for_human"]
    assert request["action"]["name"] == "issue_refund" and request["reason"] == "high_refund_requires_human"

    waiting = json.loads(_cli("waiting", "--json", db=location, check_rc=0).stdout)
    assert [w["thread_id"] for w in waiting] == [thread_id]
    assert (
        waiting[0]["waiting_on"][0]["action"]["args"]["amount_usd"] == request["action"]["args"]["amount_usd"]
    )

    done = json.loads(
        _cli("edit", thread_id, '{"amount_usd": 800}', "--json", db=location, check_rc=0).stdout
    )
    assert done["status"] == "ok" and done["thread_id"] == thread_id
    [refund] = [c for c in done["calls"] if c["tool"] == "issue_refund"]
    assert refund["args"]["amount_usd"] == 800 and refund["executed_from"] == "human_revised"

    again = _cli("approve", thread_id, db=location, check_rc=2)
    # the question was answered (by the edit): the second answer is told which, and runs nothing
    assert "already answered (edit, at " in again.stderr and "ran nothing" in again.stderr
    with open_ledger(location) as ledger:
        refunds = ledger.entries("refund")
    assert [r["amount_usd"] for r in refunds.values()] == [800]  # executed once, in process B
    assert list(refunds) == [refund["idempotency_key"]]

    shown = json.loads(_cli("show", thread_id, "--json", db=location, check_rc=0).stdout)
    assert shown["trace"] == done["trace"] and shown["history"] == done["history"]
    phases = [row.get("phase") for row in shown["trace"]]
    assert "human_approval" in phases or any(r.get("human_approved") for r in shown["trace"])
    assert json.loads(_cli("waiting", "--json", db=location, check_rc=0).stdout) == []


def test_reject_from_the_cli_stops_the_run(tmp_path):
    db = str(tmp_path / "runs.sqlite")
    thread_id = json.loads(_cli("run", "supervisor", "--human", "--json", db=db, check_rc=3).stdout)[
        "thread_id"
    ]
    out = _cli("reject", thread_id, "--message", "not this one", "--json", db=db, check_rc=1)
    assert json.loads(out.stdout)["stop_reason"] == "human_rejected"
    with open_ledger(db) as ledger:
        assert ledger.entries("refund") == {}


WORKER = """
import json, sys
from graphs.registry import PATTERNS, run_result
from apps.operations.runs import run_config
from nodes.store import open_checkpointer, open_ledger
url, worker, count, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
names = list(PATTERNS)
results = {}
with open_checkpointer(url) as saver, open_ledger(url) as ledger:
    graphs = {}
    for i in range(count):
        name = names[(i + int(worker)) % len(names)]
        pattern = PATTERNS[name]
        policy = pattern.policy()
        policy = pattern.cli_policy(policy, False) if pattern.cli_policy else policy
        graph = graphs.setdefault(name, pattern.build(checkpointer=saver, policy=policy, ledger=ledger))
        thread_id = f"w{worker}-{i:02d}-{name}"
        values = graph.invoke(pattern.demo_input(), run_config(thread_id, policy))
        results[thread_id] = run_result(graph, values)
with open(out, "w") as f:
    json.dump(results, f, default=str)
"""


def test_two_workers_share_postgres_without_losing_or_mixing_runs(pg_url, tmp_path):
    procs, outs = [], []
    for worker in ("0", "1"):
        out = tmp_path / f"worker{worker}.json"
        outs.append(out)
        procs.append(
            subprocess.Popen([sys.executable, "-c", WORKER, pg_url, worker, "25", str(out)], cwd=ROOT)
        )
    for proc in procs:
        assert proc.wait(timeout=300) == 0
    ran = {}
    for out in outs:
        ran.update(json.loads(out.read_text()))
    assert len(ran) == 50
    with open_checkpointer(pg_url) as saver, open_ledger(pg_url) as ledger:
        runs = {r.thread_id: r for r in list_runs(saver)}
        assert set(runs) == set(ran)
        for thread_id, result in ran.items():
            assert runs[thread_id].pattern == thread_id.rsplit("-", 1)[1]
            assert result["thread_id"] == thread_id and result["status"] == "ok"
            assert _jsonable(load_run(saver, thread_id).result) == result
        refunds = ledger.entries("refund")
    assert len({r["run_id"] for r in ran.values()}) == 50
    supervisor_runs = [r for t, r in ran.items() if t.endswith("-supervisor")]
    assert len(refunds) == len(supervisor_runs) == 10  # one refund per supervisor run, none lost or doubled
    executed = {
        c["idempotency_key"] for r in supervisor_runs for c in r["calls"] if c["tool"] == "issue_refund"
    }
    assert executed == set(refunds)


# --- bad input: clear errors, nothing lost ------------------------------------------------------


def test_corrupt_sqlite_file_is_a_clear_error_and_is_left_untouched(tmp_path):
    db = tmp_path / "runs.sqlite"
    db.write_bytes(b"this is not a database\n" * 100)
    before = db.read_bytes()
    with pytest.raises(StoreError, match="not a usable SQLite database"), open_checkpointer(db):
        pass
    out = _cli("run", "reflection", db=str(db), check_rc=2)
    assert out.stderr.startswith("agent-patterns: error: run store") and "Traceback" not in out.stderr
    assert db.read_bytes() == before


@pytest.mark.parametrize("where", ["parent_is_a_file", "is_a_folder"])
def test_unusable_sqlite_path_is_a_clear_error(tmp_path, where):
    blocker = tmp_path / "blocker"
    if where == "parent_is_a_file":
        blocker.write_text("a file, not a folder")
        db = blocker / "runs.sqlite"
        message = "cannot create the folder for run store"
    else:
        blocker.mkdir()
        db = blocker
        message = "is a folder, not an SQLite file"
    with pytest.raises(StoreError, match=message), open_checkpointer(db):
        pass
    out = _cli("runs", db=str(db), check_rc=2)
    assert message in out.stderr and "Traceback" not in out.stderr


def test_unreachable_postgres_is_a_clear_error():
    from devtools.pgcluster import free_port

    url = f"postgresql://postgres:secret@127.0.0.1:{free_port()}/runs"
    with (
        pytest.raises(StoreError, match=r"cannot connect to PostgreSQL at postgresql://127\.0\.0\.1:"),
        open_checkpointer(url, connect_timeout=2),
    ):
        pass
    out = _cli("waiting", db=url, check_rc=2)
    assert "cannot connect to PostgreSQL" in out.stderr and "secret" not in out.stderr
    # the cause is kept (not only psycopg's hint line), on one line with no tab
    assert "Connection refused; Is the server running" in out.stderr
    assert (
        len(out.stderr.strip().splitlines()) == 1 and "\t" not in out.stderr and "Traceback" not in out.stderr
    )


def test_unsupported_location_scheme():
    with pytest.raises(StoreError, match="unsupported run store"):
        parse_location("redis://localhost/0")


def test_unknown_thread_and_not_waiting_are_clear_errors(tmp_path):
    db = str(tmp_path / "runs.sqlite")
    out = _cli("show", "no-such-thread", db=db, check_rc=2)
    assert "no run with thread id 'no-such-thread'" in out.stderr
    out = _cli("approve", "no-such-thread", db=db, check_rc=2)
    assert "no run with thread id 'no-such-thread'" in out.stderr
    thread_id = json.loads(_cli("run", "rag", "--json", db=db, check_rc=0).stdout)["thread_id"]
    out = _cli("reject", thread_id, db=db, check_rc=2)
    assert "is not waiting for a human (status: ok)" in out.stderr
    with open_checkpointer(db) as saver:
        assert load_run(saver, thread_id).summary.status == "ok"  # nothing changed
        with pytest.raises(RunNotFound):
            load_run(saver, "no-such-thread")
        with pytest.raises(NotWaiting):
            resume_run(saver, thread_id, {"type": "approve"})


def test_new_run_cannot_discard_a_pending_approval(tmp_path):
    db = str(tmp_path / "runs.sqlite")
    run = json.loads(
        _cli("run", "supervisor", "--human", "--json", "--thread-id", "t1", db=db, check_rc=3).stdout
    )
    out = _cli("run", "supervisor", "--thread-id", "t1", db=db, check_rc=2)
    assert "is waiting for a human" in out.stderr
    out = _cli("run", "rag", "--thread-id", "t1", db=db, check_rc=2)
    assert "holds a supervisor run" in out.stderr
    with open_checkpointer(db) as saver:
        [waiting] = waiting_runs(saver)
        assert waiting.thread_id == "t1" and waiting.run_id == run["run_id"]


def test_sqlite_store_is_wal_and_created_on_first_use(tmp_path):
    db = tmp_path / "deep" / "er" / "runs.sqlite"
    with open_checkpointer(db):
        pass
    assert db.exists()
    assert sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# --- durability, replay and fork on a durable store ------------------------------------------------


def test_supervisor_checkpoints_each_step_before_the_next_runs(tmp_path):
    """``durability="sync"`` is the supervisor's default: when the refund tool runs, the approval
    that allowed it is already on disk (a crash now cannot lose it)."""
    from demo_tools.ledger import SqliteLedger
    from demo_tools.supervisor import BillingDesk

    db = tmp_path / "runs.sqlite"
    seen_on_disk = []
    with open_checkpointer(db) as saver:
        desk = BillingDesk(ledger=SqliteLedger(db))
        tools = desk.registry()
        refund = tools["issue_refund"]

        def watched_refund(*args, **kwargs):
            with open_checkpointer(db) as other:  # another connection, as another process would see it
                latest = other.get_tuple({"configurable": {"thread_id": "durable"}})
                seen_on_disk.append(latest.checkpoint["channel_values"].get("approved_by"))
            return refund(*args, **kwargs)

        graph = PATTERNS["supervisor"].module.build_graph(
            checkpointer=saver,
            policy=_cli_policy("supervisor"),
            tools={**tools, "issue_refund": watched_refund},
        )
        assert (
            graph.invoke(PATTERNS["supervisor"].demo_input(), run_config("durable", None))["status"] == "ok"
        )
    assert seen_on_disk == ["auto_approver"]


def test_replay_and_fork_from_a_durable_store_keep_governance(tmp_path):
    """Time travel over SQLite in a new process's graph: replaying the refund step does not refund
    again; a fork that raises the refund is reviewed again and never executes past the policy."""
    from demo_tools.ledger import SqliteLedger
    from demo_tools.supervisor import BillingDesk

    db = tmp_path / "runs.sqlite"
    policy = _cli_policy("supervisor")
    with open_checkpointer(db) as saver:
        graph = PATTERNS["supervisor"].build(checkpointer=saver, policy=policy, ledger=SqliteLedger(db))
        first = graph.invoke(PATTERNS["supervisor"].demo_input(), run_config("tt", policy))
    assert first["status"] == "ok"

    with open_checkpointer(db) as saver:  # a fresh saver and graph: what another process would build
        desk = BillingDesk(ledger=SqliteLedger(db))
        graph = PATTERNS["supervisor"].module.build_graph(
            checkpointer=saver, policy=policy, tools=desk.registry()
        )
        history = list(graph.get_state_history(run_config("tt", None)))
        before_refund = next(
            s for s in history if s.next == ("execute",) and s.values["action"]["name"] == "issue_refund"
        )
        replayed = graph.invoke(None, before_refund.config)
        assert replayed["status"] == "ok" and replayed["answer"] == first["answer"]
        # the thread's journal in the same file answered the replay: the tool was not called again
        assert len(desk.refunds) == 1 and desk.duplicate_calls == 0
        assert any(c.get("from_journal") and c["tool"] == "issue_refund" for c in replayed["calls"])

        before_review = next(
            s
            for s in reversed(history)
            if s.next == ("review",) and s.values["action"]["name"] == "issue_refund"
        )
        raised = {
            **before_review.values["action"],
            "args": {**before_review.values["action"]["args"], "amount_usd": 5000},
        }
        fork = graph.update_state(before_review.config, {"action": raised}, as_node="validate_action")
        forked = graph.invoke(None, fork)
        executed = [c["args"]["amount_usd"] for c in forked.get("calls", []) if c["tool"] == "issue_refund"]
        assert executed == [policy.auto_approver_cap]  # reviewed again, escalated, cut to the approver's cap
        assert forked["calls"][-2]["executed_from"] == "auto_approver_revised"
        assert [r["amount_usd"] for r in desk.refunds.values()] == [first_amount(first)]


def first_amount(result):
    return next(c["args"]["amount_usd"] for c in result["calls"] if c["tool"] == "issue_refund")


def test_listing_into_a_closed_pipe_is_quiet(tmp_path):
    """``agent-patterns runs | head``: when the reader has gone, the CLI exits quietly."""
    db = str(tmp_path / "runs.sqlite")
    with open_checkpointer(db) as saver:
        PATTERNS["rag"].build(checkpointer=saver).invoke(PATTERNS["rag"].demo_input(), run_config("t", None))
    proc = subprocess.Popen(
        [str(BIN / "agent-patterns"), "runs", "--db", db],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    proc.stdout.close()  # the reader leaves before the first line is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err, err
