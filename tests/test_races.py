"""Exactly once when people and processes race (docs/durable-runs.md, "One run at a time, one
answer wins"): real processes on one SQLite file or one PostgreSQL database, the support desk's
console (``create_agent`` + ``GovernanceMiddleware``, a keyless refund tool) and the ``agent-patterns``
CLI (the Supervisor graph, a keyed refund tool). Every refund is counted by the file the tool itself
appends to (tests/race_harness.py), never by the project's own report; the windows a race or a
crash needs are held open by the tool (``RACE_SLOW``, ``RACE_DIE``), so each outcome is
deterministic.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from langchain.agents import create_agent
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools import support_desk as desk
from nodes.middleware import GovernanceMiddleware, GovernanceState
from nodes.offline.support_desk import OfflineDeskModel
from nodes.store import open_checkpointer
from tests.processes import Started, start
from tests.race_harness import outbox

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parent.parent
WAITS_FOR_A_HUMAN = 3


def _location(store: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    return str(tmp_path / "desk.sqlite") if store == "sqlite" else request.getfixturevalue("pg_url")


def _start(which: str, *args: str, out: Path, **env: str) -> Started | subprocess.Popen[str]:
    full = {**os.environ, "RACE_OUTBOX": str(out), **env}
    return start([sys.executable, "-m", "tests.race_harness", which, *args], cwd=ROOT, env=full)


def _done(proc: Started | subprocess.Popen[str]) -> tuple[int, str]:
    stdout, stderr = proc.communicate(timeout=180)
    return proc.returncode, stdout + stderr


def _together(*procs: tuple[str, tuple[str, ...]], out: Path, **env: str) -> list[tuple[int, str]]:
    started = [_start(which, *args, out=out, **env) for which, args in procs]
    return [_done(p) for p in started]


def _until_refunded(out: Path, count: int, timeout: float = 120.0) -> None:
    """Wait until the tool has performed ``count`` refunds (a process is inside its window)."""
    deadline = time.monotonic() + timeout
    while len(outbox(str(out))) < count:
        assert time.monotonic() < deadline, "the refund never happened"
        time.sleep(0.05)


def _console(db: str, thread: str, *args: str, out: Path, **env: str) -> tuple[int, str]:
    return _done(_start("console", "--db", db, "--thread", thread, *args, out=out, **env))


# ------------------------------------------------------------------ two turns at once


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_two_turns_at_once_refund_once_and_the_second_asks(store, tmp_path, request):
    db, out = _location(store, tmp_path, request), tmp_path / "outbox.jsonl"
    turn = ("console", ("--db", db, "--thread", "T", "Refund 80 EUR on order ORD-1002"))
    results = _together(turn, turn, out=out, RACE_SLOW="3")
    refunds = outbox(str(out))
    assert len(refunds) == 1, (refunds, results)  # 160 on a 250 order with nobody asked, before
    codes = sorted(code for code, _ in results)
    assert codes == [0, WAITS_FOR_A_HUMAN], results  # the second ran after the first, and asked
    asked = next(text for code, text in results if code == WAITS_FOR_A_HUMAN)
    assert "repeated_on_record" in asked or "large_refund" in asked


def test_a_second_turn_that_will_not_wait_is_refused_as_busy(tmp_path):
    db, out = str(tmp_path / "desk.sqlite"), tmp_path / "outbox.jsonl"
    slow = _start(
        "console", "--db", db, "--thread", "T", "Refund 20 EUR on order ORD-1002", out=out, RACE_SLOW="6"
    )
    _until_refunded(out, 1)  # the first holds the thread, inside its refund
    code, text = _console(db, "T", "--wait", "0", "Refund 20 EUR on order ORD-1002", out=out)
    assert code == 2 and "busy" in text and "Traceback" not in text, text
    assert _done(slow)[0] == 0
    assert len(outbox(str(out))) == 1


# ------------------------------------------------------------------ two answers at once


def _waiting_desk(db: str, out: Path) -> None:
    code, text = _console(db, "T", "Refund 120 EUR on order ORD-1002", out=out)
    assert code == WAITS_FOR_A_HUMAN and "large_refund" in text, text
    assert outbox(str(out)) == []


APPROVE = {"type": "approve"}
EDIT = {
    "type": "edit",
    "edited_action": {"name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": 60}},
}
REJECT = {"type": "reject", "message": "not this one"}


#: The races run on both stores where both answers would run something (approve-approve,
#: approve-edit); approve-reject, where the store's lock decides the same way, on SQLite only
#: (the suite's time).
RACES = [
    pytest.param(store, pair, id=f"{name}-{store}")
    for store in ("sqlite", "postgres")
    for name, pair in (
        ("approve-approve", (APPROVE, APPROVE)),
        ("approve-edit", (APPROVE, EDIT)),
        ("approve-reject", (APPROVE, REJECT)),
    )
    if not (store == "postgres" and name == "approve-reject")
]


@pytest.mark.parametrize(("store", "answers"), RACES)
def test_two_answers_at_once_the_first_wins_and_the_other_is_told(store, answers, tmp_path, request):
    db, out = _location(store, tmp_path, request), tmp_path / "outbox.jsonl"
    _waiting_desk(db, out)
    procs = [("console", ("--db", db, "--thread", "T", "--answer", json.dumps(a))) for a in answers]
    results = _together(*procs, out=out, RACE_SLOW="2")
    won = [i for i, (code, _) in enumerate(results) if code == 0]
    assert len(won) == 1, results  # exactly one answer ran
    loser_code, loser_text = results[1 - won[0]]
    winner = answers[won[0]]
    assert loser_code == 2 and f"already answered ({winner['type']}" in loser_text, results
    assert "ran nothing" in loser_text and "Traceback" not in loser_text
    refunds = outbox(str(out))
    expected = {"approve": [120.0], "edit": [60.0], "reject": []}[winner["type"]]
    assert [r["amount"] for r in refunds] == expected, (refunds, results)
    # the thread says what happened: its state, and a third answer finds nothing to answer
    with open_checkpointer(db) as saver:
        from graphs.support_desk import build_agent

        values = build_agent(checkpointer=saver).get_state({"configurable": {"thread_id": "T"}}).values
    ran = [c for c in values.get("governance_calls") or [] if c["tool"] == "issue_refund"]
    assert [c["args"]["amount"] for c in ran] == expected
    code, text = _console(db, "T", "--answer", json.dumps(APPROVE), out=out)
    assert code == 2 and "already answered" in text


CLI_ANSWERS = {
    "approve": ("approve", "S"),
    "edit": ("edit", "S", '{"amount_usd": 800}'),
    "reject": ("reject", "S", "--message", "no"),
}


@pytest.mark.parametrize(
    ("store", "pair"),
    [
        pytest.param(store, pair, id=f"{'-'.join(pair)}-{store}")
        for store in ("sqlite", "postgres")
        for pair in (("approve", "approve"), ("approve", "edit"), ("approve", "reject"))
        if not (store == "postgres" and pair[1] == "reject")  # as RACES
    ],
)
def test_cli_answers_at_once_run_at_most_one_refund(store, pair, tmp_path, request):
    db, out = _location(store, tmp_path, request), tmp_path / "outbox.jsonl"
    code, text = _done(_start("cli", "run", "supervisor", "--human", "--db", db, "--thread-id", "S", out=out))
    assert code == WAITS_FOR_A_HUMAN, text
    results = _together(*[("cli", (*CLI_ANSWERS[a], "--db", db)) for a in pair], out=out, RACE_SLOW="2")
    codes = [code for code, _ in results]
    won = [i for i, code in enumerate(codes) if code != 2]
    assert len(won) == 1, results
    loser = results[1 - won[0]][1]
    winner = pair[won[0]]
    assert f"already answered ({winner}, at " in loser and "ran nothing" in loser, results
    refunds = [r["amount"] for r in outbox(str(out))]
    # 1200 + 800 and two e-mails, or a refund and a reviewer told it was rejected, before
    assert refunds == {"approve": [1200.0], "edit": [800.0], "reject": []}[winner], (refunds, results)


def test_cli_a_second_run_on_a_busy_thread_is_refused_and_one_that_waits_runs_after(tmp_path):
    db, out = str(tmp_path / "runs.sqlite"), tmp_path / "outbox.jsonl"
    first = _start("cli", "run", "supervisor", "--db", db, "--thread-id", "S", out=out, RACE_SLOW="6")
    _until_refunded(out, 1)  # the first holds the thread, inside its refund
    code, text = _done(
        _start("cli", "run", "supervisor", "--db", db, "--thread-id", "S", "--wait", "0", out=out)
    )
    assert code == 2 and "is busy" in text and "Traceback" not in text, text
    waited = _start("cli", "run", "supervisor", "--db", db, "--thread-id", "S", "--wait", "120", out=out)
    assert _done(first)[0] == 0
    assert _done(waited)[0] == 0
    first_done, second = outbox(str(out))[:2]
    assert second["pid"] != first_done["pid"]  # one run at a time: the second refunded after the first


# ------------------------------------------------------------------ a crash between the tool and its checkpoint


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_killed_after_a_keyless_refund_the_same_request_asks_instead_of_refunding_again(
    store, tmp_path, request
):
    db, out = _location(store, tmp_path, request), tmp_path / "outbox.jsonl"
    code, _ = _console(db, "T", "Refund 80 EUR on order ORD-1002", out=out, RACE_DIE="after_refund")
    assert code == -9 and len(outbox(str(out))) == 1  # SIGKILL right after the refund
    # the console's only way on: the same request again. The dead run is carried on first, and its
    # refund, which may have run, is put to a human rather than dropped or repeated
    code, text = _console(db, "T", "Refund 80 EUR on order ORD-1002", out=out)
    assert code == WAITS_FOR_A_HUMAN and "may have run" in text, text
    assert len(outbox(str(out))) == 1
    code, text = _console(
        db, "T", "--answer", json.dumps({"type": "reject", "message": "it went through"}), out=out
    )
    # it counts as made, so a refund on the order again asks (the same order twice): the new turn's
    # own (when the dead run's last step had no checkpoint yet, the new turn asked about its refund
    # first and goes on now), or the next one (the dead run was carried on, and ends here)
    if code == 0:
        code, text = _console(db, "T", "Refund 80 EUR on order ORD-1002", out=out)
    assert code == WAITS_FOR_A_HUMAN and "repeated_on_record" in text, text
    assert len(outbox(str(out))) == 1


def test_killed_before_a_keyless_refund_a_human_is_asked_and_it_runs_once_approved(tmp_path):
    db, out = str(tmp_path / "desk.sqlite"), tmp_path / "outbox.jsonl"
    code, _ = _console(db, "T", "Refund 80 EUR on order ORD-1002", out=out, RACE_DIE="before_refund")
    assert code == -9 and outbox(str(out)) == []  # claimed, never made
    code, text = _console(db, "T", "Refund 80 EUR on order ORD-1002", out=out)
    assert code == WAITS_FOR_A_HUMAN and "may have run" in text, text  # nobody can tell it did not
    code, text = _console(db, "T", "--answer", json.dumps(APPROVE), out=out)  # checked: it did not run
    assert code == 0, text
    assert [r["amount"] for r in outbox(str(out))] == [80.0]


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_killed_after_a_keyed_refund_and_resumed_late_the_refund_is_recorded_once(store, tmp_path, request):
    db, out = _location(store, tmp_path, request), tmp_path / "outbox.jsonl"
    policy = tmp_path / "policy.toml"
    policy.write_text("max_seconds = 3\n")
    code, text = _done(
        _start(
            "cli",
            "run",
            "supervisor",
            "--human",
            "--db",
            db,
            "--thread-id",
            "S",
            "--policy",
            str(policy),
            out=out,
        )
    )
    assert code == WAITS_FOR_A_HUMAN, text
    code, _ = _done(_start("cli", "approve", "S", "--db", db, out=out, RACE_DIE="after_refund"))
    assert code == -9 and len(outbox(str(out))) == 1
    time.sleep(3.5)  # carried on later than max_seconds after the run began
    code, text = _done(_start("cli", "resume", "S", "--db", db, out=out))
    assert "Traceback" not in text, text
    assert len(outbox(str(out))) == 1, text  # the keyed tool was called again with its key: absorbed
    shown = _done(_start("cli", "show", "S", "--db", db, "--json", out=out))[1]
    calls = json.loads(shown)["calls"]
    refund = next(c for c in calls if c["tool"] == "issue_refund")
    assert refund["ok"] is True  # recorded as made, never "not_run: max_seconds"


# ------------------------------------------------------------------ no entry point of ours


@pytest.mark.parametrize(
    "answers", [(APPROVE, APPROVE), (APPROVE, EDIT)], ids=["approve-approve", "approve-edit"]
)
def test_two_processes_resuming_an_agent_written_as_the_readme_does_refund_once(answers, tmp_path):
    """``GovernanceMiddleware(policy, tools=tools)`` with no journal named, two processes calling
    ``invoke(Command(resume=...))`` at once: the journal beside the SqliteSaver's runs is found from
    inside the run, the first answer wins in both and the refund is claimed once."""
    db, out = str(tmp_path / "raw.sqlite"), tmp_path / "outbox.jsonl"
    code, text = _done(_start("raw", db, "T", "Refund 120 EUR on order ORD-1002", out=out))
    assert code == 0 and json.loads(text.strip().splitlines()[-1])["waits"], text
    results = _together(*[("raw", (db, "T", json.dumps(a))) for a in answers], out=out, RACE_SLOW="2")
    assert all(code == 0 for code, _ in results), results
    assert [r["amount"] for r in outbox(str(out))] in ([120.0], [60.0]), (outbox(str(out)), results)


# ------------------------------------------------------------------ in one process, no entry point


def test_two_resumes_of_one_question_in_one_process_run_the_refund_once(monkeypatch):
    desk.DONE.clear()
    real = desk.issue_refund.func
    started = threading.Event()

    def slow_refund(order_id: str, amount: float) -> dict:
        started.set()
        time.sleep(1.0)
        return real(order_id, amount)

    monkeypatch.setattr(desk.issue_refund, "func", slow_refund)
    saver = InMemorySaver()
    agent = create_agent(
        OfflineDeskModel(),
        desk.tools,
        middleware=[GovernanceMiddleware(desk.policy, tools=desk.tools, subject=desk.SUBJECT)],
        checkpointer=saver,
        state_schema=GovernanceState,
    )
    config = {"configurable": {"thread_id": "raw"}}
    paused = agent.invoke({"messages": [("user", "Refund 120 EUR on order ORD-1002")]}, config)
    assert paused["__interrupt__"]
    results: list[object] = []

    def answer(decision: dict) -> None:
        results.append(agent.invoke(Command(resume={"decisions": [decision]}), config))

    threads = [threading.Thread(target=answer, args=(d,)) for d in (APPROVE, EDIT)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    refunds = [d for d in desk.DONE if d["tool"] == "issue_refund"]
    assert len(refunds) == 1, refunds  # the first answer wins in both; its refund is claimed once


def test_an_approval_given_after_max_seconds_is_applied(tmp_path):
    desk.DONE.clear()
    policy = desk.policy.model_copy(update={"max_seconds": 1})
    agent = create_agent(
        OfflineDeskModel(),
        desk.tools,
        middleware=[GovernanceMiddleware(policy, tools=desk.tools, subject=desk.SUBJECT)],
        checkpointer=InMemorySaver(),
        state_schema=GovernanceState,
    )
    config = {"configurable": {"thread_id": "late"}}
    assert agent.invoke({"messages": [("user", "Refund 120 EUR on order ORD-1002")]}, config)["__interrupt__"]
    time.sleep(1.5)  # the reviewer answers later than the run's whole time budget
    done = agent.invoke(Command(resume={"decisions": [APPROVE]}), config)
    assert [d["amount"] for d in desk.DONE if d["tool"] == "issue_refund"] == [120.0]
    refund = next(c for c in done["governance_calls"] if c["tool"] == "issue_refund")
    assert refund["ok"] is True and refund["human_approved"] is True


def test_two_named_cli_answers_at_once_the_loser_is_told_the_winners_name(tmp_path):
    """Issue 47: the answer that lost names the reviewer who won (``--as``)."""
    db, out = str(tmp_path / "runs.sqlite"), tmp_path / "outbox.jsonl"
    code, text = _done(_start("cli", "run", "supervisor", "--human", "--db", db, "--thread-id", "S", out=out))
    assert code == WAITS_FOR_A_HUMAN, text
    names = ("alice", "bob")
    results = _together(
        *[("cli", ("approve", "S", "--as", name, "--db", db)) for name in names], out=out, RACE_SLOW="2"
    )
    won = [i for i, (code, _) in enumerate(results) if code != 2]
    assert len(won) == 1, results
    loser = results[1 - won[0]][1]
    assert "already answered (approve, at " in loser and f", by {names[won[0]]})" in loser, results
    assert [r["amount"] for r in outbox(str(out))] == [1200.0]


# ------------------------------------------------------------------ opening one new file at once


def _open_and_write(path: str, start_at: float, results: object) -> None:
    from nodes.store import open_store

    while time.time() < start_at:  # every process reaches the store's setup at the same moment
        time.sleep(0.001)
    try:
        with open_store(path) as store:
            store.put(("opened",), str(os.getpid()), {"by": os.getpid()})
        results.put("ok")  # type: ignore[attr-defined]
    except Exception as exc:  # the assertion below shows what each process met
        results.put(repr(exc))  # type: ignore[attr-defined]


def test_processes_opening_one_new_file_at_once_all_open_it(tmp_path):
    """Six processes open the same new SQLite file at the same moment (six console turns on a
    fresh desk): LangGraph's store migrates step by step, so before, the losers of the race failed
    with 'duplicate column name' or 'UNIQUE constraint failed: store_migrations.v' about one run in
    three; every process now opens it and writes."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    for trial in range(4):
        path = str(tmp_path / f"new-{trial}.sqlite")
        results = ctx.Queue()
        start_at = time.time() + 0.5
        procs = [ctx.Process(target=_open_and_write, args=(path, start_at, results)) for _ in range(6)]
        for proc in procs:
            proc.start()
        outcomes = [results.get(timeout=60) for _ in procs]
        for proc in procs:
            proc.join(timeout=60)
        assert outcomes == ["ok"] * 6, (trial, outcomes)
        from nodes.store import open_store

        with open_store(path) as store:
            assert len(store.search(("opened",), limit=20)) == 6


def test_a_file_left_mid_migration_is_opened_once_the_other_process_finishes(tmp_path):
    """The window itself, held open: another process has added a column (migration 2) but not yet
    recorded it. Opening waits and reads the version again instead of failing; it finishes once
    the other process records its step."""
    import sqlite3

    from langgraph.store.sqlite import SqliteStore

    from nodes.store import open_store

    path = tmp_path / "mid.sqlite"
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for step, sql in enumerate(SqliteStore.MIGRATIONS[:3]):
        conn.executescript(sql)
        if step < 2:
            conn.execute("CREATE TABLE IF NOT EXISTS store_migrations (v INTEGER PRIMARY KEY)")
            conn.execute("INSERT INTO store_migrations (v) VALUES (?)", (step,))

    def the_other_process_finishes() -> None:
        time.sleep(0.3)
        conn.execute("INSERT INTO store_migrations (v) VALUES (2)")

    finisher = threading.Thread(target=the_other_process_finishes)
    finisher.start()
    with open_store(str(path)) as store:
        store.put(("after",), "k", {"v": 1})
        assert store.get(("after",), "k").value == {"v": 1}
    finisher.join()
    versions = [v for (v,) in conn.execute("SELECT v FROM store_migrations ORDER BY v")]
    assert versions == list(range(len(SqliteStore.MIGRATIONS)))
    conn.close()


def test_a_store_error_that_is_not_a_race_is_raised_at_once():
    import sqlite3

    from nodes.store import set_up_beside_others

    calls = []

    def broken() -> None:
        calls.append(1)
        raise sqlite3.OperationalError("no such table: store")

    with pytest.raises(sqlite3.OperationalError):
        set_up_beside_others(broken, wait_s=5)
    assert calls == [1]

    def raced_forever() -> None:
        calls.append(1)
        raise sqlite3.IntegrityError("UNIQUE constraint failed: store_migrations.v")

    started = time.monotonic()
    with pytest.raises(sqlite3.IntegrityError):
        set_up_beside_others(raced_forever, wait_s=0.3)
    assert len(calls) > 2 and time.monotonic() - started < 5
