"""The thread journal (nodes/journal.py) on its own, in memory, on SQLite and on PostgreSQL: a claim
is made once whoever races (real processes), the first answer wins, a thread's turn is held by one
process at a time and let go when that process dies, and a claim after another run acted on the
thread is refused."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nodes.effects import claim, effect_key, world_ledger
from nodes.journal import DONE, STARTED, Journal, ThreadBusy
from nodes.store import journal_for, open_checkpointer, open_journal
from policies.supervisor.provenance.ledger import Watched

ROOT = Path(__file__).resolve().parent.parent


def _location(store: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if store == "memory":
        return "memory"
    return str(tmp_path / "j.sqlite") if store == "sqlite" else request.getfixturevalue("pg_url")


def _claim_in_child(location: str, start: float, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    with open_journal(location) as journal:
        while time.time() < start:  # every child claims at the same moment
            time.sleep(0.001)
        found = journal.begin("T", "refund:1", {"tool": "issue_refund", "run_id": f"r{os.getpid()}"})
        answered = journal.answer("T", "ask:1", {"answer": {"type": "approve", "by": os.getpid()}})
        out.put((found.created, answered[1]))


@pytest.mark.integration
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_a_claim_and_an_answer_are_made_once_whoever_races(store, tmp_path, request):
    location = _location(store, tmp_path, request)
    with open_journal(location):
        pass  # the tables exist before the race (the race is on the rows)
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    start = time.time() + 3.0
    children = [ctx.Process(target=_claim_in_child, args=(location, start, out)) for _ in range(6)]
    for child in children:
        child.start()
    results = [out.get(timeout=60) for _ in children]
    for child in children:
        child.join(30)
    assert sorted(created for created, _ in results) == [False] * 5 + [True]
    assert sorted(first for _, first in results) == [False] * 5 + [True]
    with open_journal(location) as journal:
        [effect] = journal.effects("T")
        assert effect["status"] == STARTED
        [answer] = journal.answers("T")
        assert answer["answer"]["type"] == "approve"


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_a_thread_is_held_by_one_turn_at_a_time(store, tmp_path, request):
    with open_journal(_location(store, tmp_path, request)) as journal:
        with journal.turn("T"):
            with pytest.raises(ThreadBusy, match="busy"), journal.turn("T", wait=0.2):
                pass
            with journal.turn("other"):  # another thread is free
                pass
        with journal.turn("T", wait=0):  # let go at the end of the block
            pass


HOLD = """
import sys, time
from nodes.store import open_journal
with open_journal(sys.argv[1]) as journal:
    with journal.turn("T"):
        print("held", flush=True)
        time.sleep(60)
"""


@pytest.mark.integration
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_a_turn_held_by_a_process_that_dies_is_let_go(store, tmp_path, request):
    location = _location(store, tmp_path, request)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, location], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    with open_journal(location) as journal:
        with pytest.raises(ThreadBusy), journal.turn("T", wait=0.5):
            pass
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(30)
        with journal.turn("T", wait=10):  # the kernel (or the server) let it go with the process
            pass


def test_a_claim_after_another_run_acted_on_the_thread_is_refused():
    journal = Journal()
    seen = journal.high_water("T")
    first = journal.begin("T", "a", {"run_id": "run-1"}, after=seen)
    assert first.created
    late = journal.begin("T", "b", {"run_id": "run-2"}, after=seen)  # reviewed before run-1 acted
    assert late.conflict and not late.created
    own = journal.begin("T", "c", {"run_id": "run-1"}, after=seen)  # its own run's calls do not count
    assert own.created


def test_a_call_in_doubt_is_run_again_only_with_a_key():
    journal = Journal()
    key = effect_key("run-1", 2, "issue_refund", "sig")
    journal.begin("T", key, {"run_id": "run-1"})
    stored = journal._effects["T"][key]
    stored["owner"] = {"host": stored["owner"]["host"], "pid": 2**22 + 12345}  # a process that is gone
    args = {"tool": "issue_refund", "args": {"amount": 5}, "run_id": "run-1", "step": 2, "watch": Watched()}
    assert claim(journal, "T", key, keyed=False, **args).go == "in_doubt"
    assert claim(journal, "T", key, keyed=True, **args).go == "run"
    journal.finish("T", key, DONE, {"ok": True, "observation": {"refunded": 5}, "ledger": [{"tool": "x"}]})
    assert claim(journal, "T", key, keyed=False, **args).go == "ran"
    assert world_ledger(journal, "T") == [{"tool": "x"}]


def test_the_journal_lives_beside_the_checkpointers_runs(tmp_path):
    db = tmp_path / "runs.sqlite"
    with open_checkpointer(db) as saver:
        journal = journal_for(saver)
        assert journal is journal_for(saver)  # one per checkpointer
        journal.begin("T", "k", {"run_id": "r"})
    with open_checkpointer(db) as saver:  # another process would open the same file
        assert [e["key"] for e in journal_for(saver).effects("T")] == ["k"]


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_a_call_let_go_before_its_tool_is_claimed_again_and_runs(store, tmp_path, request):
    """A claim released because the run paused before the tool (or a human said it did not run)
    is not a call made: the next claim of the same key runs it, once."""
    from nodes.effects import release

    with open_journal(_location(store, tmp_path, request)) as journal:
        key = effect_key("run-1", 2, "issue_refund", "sig")
        args = {
            "tool": "issue_refund",
            "args": {"amount": 5},
            "run_id": "run-1",
            "step": 2,
            "watch": Watched(),
        }
        assert claim(journal, "T", key, keyed=False, **args).go == "run"
        release(journal, "T", key)
        again = claim(journal, "T", key, keyed=False, **args)
        assert again.go == "run" and again.effect["status"] == STARTED
        assert claim(journal, "T", key, keyed=False, **args).go == "in_progress"  # this live process


def _carried_on_with_a_call_in_doubt(journal: Journal) -> tuple[object, dict]:
    """A desk run carried on from a checkpoint kept before its model step, while the journal holds
    a refund that run's dead process claimed and never finished: what a SIGKILL between the claim
    and the step's checkpoint leaves (the checkpoint is written after the step, asynchronously)."""
    from langgraph.checkpoint.memory import InMemorySaver

    from demo_tools import support_desk as desk
    from graphs.support_desk import build_agent

    agent = build_agent(checkpointer=InMemorySaver(), journal=journal)
    config = {"configurable": {"thread_id": "T"}}
    given = {
        "messages": [("user", "Refund 80 EUR on order ORD-1002")],
        "governance_subject": dict(desk.SUBJECT),
    }
    agent.invoke(given, config, interrupt_before=["model"])
    key = effect_key("run-dead", 2, "issue_refund", "sig")
    journal.begin("T", key, {"tool": "issue_refund", "args": {"order_id": "ORD-1002", "amount": 80}})
    gone = {"host": journal._effects["T"][key]["owner"]["host"], "pid": 2**22 + 12345}
    journal._effects["T"][key]["owner"] = gone
    return agent, config


@pytest.mark.parametrize("way", ["invoke", "ainvoke"])
def test_a_run_carried_on_from_before_a_call_in_doubt_asks_whether_it_ran_before_the_model(way):
    """Before the fix the model proposed the refund again and the review counted the claim as a
    refund made (``repeated_on_record``): the human was never told it may not have run."""
    import asyncio

    from langgraph.types import Command

    journal = Journal()
    agent, config = _carried_on_with_a_call_in_doubt(journal)

    def run(given: object) -> dict:
        if way == "invoke":
            return agent.invoke(given, config)
        return asyncio.run(agent.ainvoke(given, config))

    asked = run(None)["__interrupt__"][0].value
    assert asked["kind"] == "effect_in_doubt" and "may have run" in asked["action_requests"][0]["description"]
    assert "goes on from before that step" in asked["action_requests"][0]["description"]
    assert [m.type for m in agent.get_state(config).values["messages"]] == ["human"]  # no model call yet
    done = run(Command(resume={"decisions": [{"type": "approve"}]}))
    assert "__interrupt__" not in done  # it did not run: the refund asked for runs now, once
    refunds = [m for m in done["messages"] if m.type == "tool" and m.name == "issue_refund"]
    assert len(refunds) == 1 and json.loads(refunds[0].content)["refunded"] == 80.0
    [row] = [r for r in done["governance_trace"] if r["phase"] == "in_doubt"]
    assert row["in_doubt"] == "did_not_run"
    statuses = sorted(e["status"] for e in journal.effects("T") if e.get("tool") == "issue_refund")
    assert statuses == ["done", "not_run"]  # the dead claim did not run; the refund asked for ran once


@pytest.mark.parametrize("way", ["invoke", "ainvoke"])
def test_a_call_in_doubt_approved_at_its_tool_is_made_once_and_recorded_as_this_process_made_it(way):
    """The tool step finds its own claim in doubt (a dead process claimed it and the step was kept
    before): approved, this process takes the claim over and records how it ends. Before the fix
    the claim stayed ``started`` under the dead process, so the next model step asked again
    (CI: the console's answer printed the same question a second time)."""
    import asyncio

    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    from demo_tools import support_desk as desk
    from graphs.support_desk import build_agent

    journal = Journal()
    agent = build_agent(checkpointer=InMemorySaver(), journal=journal)
    config = {"configurable": {"thread_id": "T"}}

    def run(given: object, **kw: object) -> dict:
        if way == "invoke":
            return agent.invoke(given, config, **kw)
        return asyncio.run(agent.ainvoke(given, config, **kw))

    given = {
        "messages": [("user", "Refund 80 EUR on order ORD-1002")],
        "governance_subject": dict(desk.SUBJECT),
    }
    run(given, interrupt_before=["tools"])  # look_up_order
    run(None, interrupt_before=["tools"])  # issue_refund, reviewed and planned
    [plan] = agent.get_state(config).values["governance_plan"].values()
    key = plan["idempotency_key"]
    entry = {k: plan[k] for k in ("tool", "args", "run_id", "step")}
    journal.begin("T", key, {**entry, "ledger": []})
    journal._effects["T"][key]["owner"] = {
        "host": journal._effects["T"][key]["owner"]["host"],
        "pid": 2**22 + 7,
    }
    asked = run(None)["__interrupt__"][0].value
    assert asked["kind"] == "effect_in_doubt"
    desk.DONE.clear()
    done = run(Command(resume={"decisions": [{"type": "approve"}]}))
    assert "__interrupt__" not in done, done["__interrupt__"][0].value["action_requests"][0]["description"]
    assert [d["tool"] for d in desk.DONE if d["tool"] == "issue_refund"] == ["issue_refund"]
    [effect] = [e for e in journal.effects("T") if e["key"] == key]
    assert effect["status"] == "done" and effect["owner"]["pid"] == os.getpid()
