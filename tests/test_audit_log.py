"""The audit log (``nodes/audit.py``, ``apps/operations/audit.py``): every run of a thread stays readable,
turn by turn, while a checkpoint carries one run's rows; and whatever happens to the thread
(resumes, crashes between a node's log write and its checkpoint, replays and forks from any
checkpoint, regenerate), every row a node made is in the audit exactly once, for both engines:
the Supervisor graph (both worker protocols) and ``create_agent`` with ``GovernanceMiddleware``."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from typing import Annotated, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import InjectedToolArg, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from apps.operations.audit import read_audit, stored_audit, verify_audit
from graphs.supervisor import build_graph
from nodes import audit as log
from nodes.state import RESET
from policies.supervisor import SupervisorPolicy, ToolRules
from policies.text import stable_json
from tests.helpers import StubChatModel, ToolStubChatModel

pytest.importorskip("langchain.agents", reason="GovernanceMiddleware needs langchain>=1 (the agents extra)")

APPROVE = {"decisions": [{"type": "approve"}]}
ANSWER = "Done."
ENGINES = ("supervisor_native", "supervisor_json", "middleware")
#: The state keys each engine keeps a run's rows in, by kind; ``whole``: lists written whole.
ROWS = {
    "supervisor": {kind: kind for kind in log.ROW_KINDS},
    "middleware": log.GOVERNANCE_ROWS,
}
WHOLE = {"calls", "refusals", "grants"}


class Payments:
    """Where the payments land, once per idempotency key."""

    def __init__(self) -> None:
        self.done: dict[str, float] = {}


def tools_for(payments: Payments) -> list[Any]:
    @tool
    def lookup_order(order_id: int) -> dict[str, Any]:
        """An order's status."""
        return {"order_id": order_id, "status": "shipped"}

    @tool
    def send_payment(amount: float, idempotency_key: Annotated[str, InjectedToolArg] = "") -> dict[str, Any]:
        """Pay an amount."""
        payments.done.setdefault(idempotency_key, amount)
        return {"paid": amount, "key": idempotency_key}

    return [lookup_order, send_payment]


def policy_for(tools: list[Any]) -> SupervisorPolicy:
    """Payments wait for a human; orders are read freely."""
    return SupervisorPolicy.for_tools(
        tools,
        side_effects=["send_payment"],
        rules={"send_payment": ToolRules(require_approval=True), "lookup_order": ToolRules(read_only=True)},
        max_tool_calls=3,
        max_steps=4,
    )


def request(turn: int) -> str:
    return f"Turn {turn}: " + ("pay 5 EUR." if turn % 2 == 0 else f"check order {turn}.")


def _turn_of(text: str) -> int:
    return int(re.findall(r"Turn (\d+)", text)[-1])


def _action(turn: int) -> tuple[str, dict[str, Any]]:
    return ("send_payment", {"amount": 5.0}) if turn % 2 == 0 else ("lookup_order", {"order_id": turn})


def _call(name: str, args: dict[str, Any], call_id: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": call_id, "type": "tool_call"}])


class NativeWorker(ToolStubChatModel):
    """One tool call for the turn the last human message names, then the answer."""

    llm_type = "audit-native-worker"

    def answer(self, messages: list[BaseMessage]) -> AIMessage:
        if isinstance(messages[-1], ToolMessage):
            return AIMessage(ANSWER)
        turn = _turn_of(messages[-1].text)
        return _call(*_action(turn), f"c{turn}")


class JsonWorker(StubChatModel):
    """The Supervisor's JSON protocol: the turn's action while the run's history is empty."""

    llm_type = "audit-json-worker"

    def answer(self, messages: list[BaseMessage]) -> str:
        payload = json.loads(messages[-1].text)
        if payload["history"]:
            action: dict[str, Any] = {"kind": "final", "answer": ANSWER}
        else:
            name, args = _action(_turn_of(payload["goal"]))
            action = {"kind": "tool", "name": name, "args": args}
        return json.dumps(action)


class Crash(BaseException):
    """The process dying (not an error the gateway handles)."""


class CrashingStore(InMemoryStore):
    """A store that dies once, armed, right after a write: the node's log items are written, its
    state update is never saved (the window between the two)."""

    armed = False

    def batch(self, ops: Any) -> Any:
        done = super().batch(ops)
        if self.armed and any(op.__class__.__name__ == "PutOp" for op in ops):
            self.armed = False
            raise Crash()
        return done


def build(engine: str, *, store: Any = None, saver: Any = None) -> tuple[Any, Payments]:
    payments = Payments()
    tools = tools_for(payments)
    saver = saver or InMemorySaver()
    if engine == "middleware":
        from langchain.agents import create_agent

        from nodes.middleware import GovernanceMiddleware

        middleware = [GovernanceMiddleware(policy_for(tools), tools=tools)]
        graph = create_agent(NativeWorker(), tools, middleware=middleware, checkpointer=saver, store=store)
        return graph, payments
    model = NativeWorker() if engine == "supervisor_native" else JsonWorker()
    return build_graph(
        llm=model, tools=tools, policy=policy_for(tools), checkpointer=saver, store=store
    ), payments


def config(thread: str = "t.1") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def _send(graph: Any, command: Any, cfg: dict[str, Any]) -> None:
    """``command`` (at ``cfg``: the thread, or one of its checkpoints), then whatever a crash left
    to do on the thread: carry on, until it ends or waits for a human."""
    thread = config(cfg["configurable"]["thread_id"])
    crashed = _crashes(graph.invoke, command, cfg)
    for _ in range(20):
        state = graph.get_state(thread)
        # a crash after a human's answer leaves the interrupt with its answer saved: carry on
        if not state.next or (state.interrupts and not crashed):
            return
        crashed = _crashes(graph.invoke, None, thread)
    raise AssertionError("the thread never settled")


def _crashes(call: Any, *args: Any) -> bool:
    """Did ``call(*args)`` die in the window :class:`CrashingStore` opens?"""
    try:
        call(*args)
    except Crash:
        return True
    return False


def turn(graph: Any, number: int, cfg: dict[str, Any]) -> None:
    """The next user turn, or, when the run waits for a human, the approval."""
    waiting = graph.get_state(cfg).interrupts
    _send(graph, Command(resume=APPROVE) if waiting else {"messages": [HumanMessage(request(number))]}, cfg)


def four_turns(graph: Any, cfg: dict[str, Any]) -> None:
    """Turns 1 to 4: turns 2 and 4 pay, each waits for a human, then is approved."""
    for number in range(1, 5):
        turn(graph, number, cfg)
        if graph.get_state(cfg).interrupts:
            turn(graph, number, cfg)


# --- what the thread's checkpoints say was made, against what the audit shows ----------------


def _canon(row: Any) -> str:
    return stable_json(row)


def _family(engine: str) -> str:
    return "middleware" if engine == "middleware" else "supervisor"


def productions(graph: Any, engine: str, cfg: dict[str, Any]) -> Counter[tuple[str, str]]:
    """Every row a node added, once per node run that LangGraph kept (its writes, saved with its
    task id, from every checkpoint of every branch of the thread): (kind, row) → count."""
    made: Counter[tuple[str, str]] = Counter()
    keys = ROWS[_family(engine)]
    for snapshot in graph.checkpointer.list(cfg):
        values = snapshot.checkpoint.get("channel_values") or {}
        for _task, channel, value in snapshot.pending_writes or []:
            kind = next((k for k, key in keys.items() if key == channel), None)
            if kind is None or not isinstance(value, list):
                continue
            rows = list(value)
            if kind in WHOLE and _family(engine) == "supervisor":
                base = list(values.get(channel) or [])
                rows = rows[len(base) :] if rows[: len(base)] == base else rows
            elif rows[:1] == [RESET]:
                rows = rows[1:]
            made.update((kind, _canon(row)) for row in rows)
    return made


def shown(graph: Any, cfg: dict[str, Any]) -> Counter[tuple[str, str]]:
    """Every row the audit shows: (kind, row) → count."""
    found: Counter[tuple[str, str]] = Counter()
    for run in read_audit(graph, cfg).runs:
        for kind in log.ROW_KINDS:
            found.update((kind, _canon(row)) for row in getattr(run, kind))
    return found


def assert_exactly_once(graph: Any, engine: str, cfg: dict[str, Any]) -> None:
    made, seen = productions(graph, engine, cfg), shown(graph, cfg)
    if engine == "middleware":
        # the middleware's call and refusal records are keyed by content until its hooks write
        # them (issue 29, phase 2): the same record made again on another branch is one item
        for kind in ("calls", "refusals"):
            assert {r for k, r in made if k == kind} == {r for k, r in seen if k == kind}, kind
        made = Counter({key: n for key, n in made.items() if key[0] not in ("calls", "refusals")})
        seen = Counter({key: n for key, n in seen.items() if key[0] not in ("calls", "refusals")})
    assert seen == made, (made - seen, seen - made)


def checkpoint_runs(graph: Any, engine: str, cfg: dict[str, Any]) -> list[set[Any]]:
    """Per checkpoint of the thread: the runs whose rows it carries (its state as LangGraph reads
    it: a delta channel's rows are rebuilt from the writes before it)."""
    carried = []
    for snapshot in graph.get_state_history(cfg):
        values = snapshot.values or {}
        if engine == "middleware":
            runs = {r.get("run_id") for key in log.GOVERNANCE_ROWS.values() for r in values.get(key) or []}
        else:
            runs = {values.get("run_id")} if any(values.get(k) for k in ROWS["supervisor"]) else set()
        carried.append(runs)
    return carried


# --- the tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_every_turn_is_readable_and_a_checkpoint_carries_one_run(engine):
    graph, payments = build(engine, store=InMemoryStore())
    cfg = config()
    four_turns(graph, cfg)
    audit = read_audit(graph, cfg)
    assert [r.turn for r in audit.runs] == [1, 2, 3, 4]
    assert [r.status for r in audit.runs] == ["ok"] * 4 and audit.source == "log"
    assert [r.request for r in audit.runs] == [request(n) for n in range(1, 5)]
    assert [[c["tool"] for c in r.calls] for r in audit.runs] == [["lookup_order"], ["send_payment"]] * 2
    payment = audit.runs[1].calls[0]
    assert payment["approved_by"] == "human" and payment["idempotency_key"] in payments.done
    assert len(payments.done) == 2
    assert all(len(runs) <= 1 for runs in checkpoint_runs(graph, engine, cfg))
    assert_exactly_once(graph, engine, cfg)


OPS = st.lists(st.sampled_from(["turn", "crash", "fork", "regenerate"]), min_size=1, max_size=6)


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS, picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=6, max_size=6))
def test_no_row_is_lost_or_doubled_by_resumes_crashes_replays_and_forks(engine, ops, picks):
    """Whatever a thread goes through, the audit shows each row a node run made exactly once, and
    the rows of every branch (a replay or a fork re-runs steps whose side effects happened: the
    first rows and the new ones both stay). Side effects still happen once per approved call."""
    store = CrashingStore()
    graph, payments = build(engine, store=store)
    cfg = config()
    number = 0
    for op, pick in zip(ops, picks, strict=False):
        if op in ("turn", "crash"):
            store.armed = op == "crash"
            number += 0 if graph.get_state(cfg).interrupts else 1
            turn(graph, number, cfg)
            store.armed = False
        elif number:
            history = [s for s in graph.get_state_history(cfg) if s.next]
            if op == "regenerate":  # the checkpoint before the newest model call, as a chat UI does
                history = [s for s in history if s.next[0] in ("model", "worker")][:1]
            if history:
                _send(graph, None, history[pick % len(history)].config)
    if number:
        assert_exactly_once(graph, engine, cfg)
    keys = {
        c.get("idempotency_key") for r in (read_audit(graph, cfg).runs if number else []) for c in r.calls
    }
    assert set(payments.done) <= keys  # every payment made is in the audit
    # and the log's hash chain holds through every rewrite (policies/tamper.py)
    assert all(thread.ok for thread in verify_audit(store)), [t.report for t in verify_audit(store)]


@pytest.mark.parametrize("engine", ENGINES)
def test_two_forks_from_the_newest_waiting_checkpoint_keep_every_branchs_rows(engine):
    """A thread taken up twice from the same checkpoint: each branch's rows are items of their own.
    (LangGraph before 1.2.13 re-ran such a fork with the first run's task ids, so rows keyed by task
    overwrote the first branch's: the reason for the langgraph floor, run on the lowest versions.)"""
    graph, _ = build(engine, store=InMemoryStore())
    cfg = config()
    turn(graph, 1, cfg)
    for _ in range(2):
        history = [s for s in graph.get_state_history(cfg) if s.next]
        _send(graph, None, history[0].config)
    assert_exactly_once(graph, engine, cfg)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_fork_that_re_runs_a_payment_keeps_both_execution_rows(engine):
    graph, payments = build(engine, store=InMemoryStore())
    cfg = config()
    turn(graph, 1, cfg)
    turn(graph, 2, cfg)  # the payment waits
    turn(graph, 2, cfg)  # approved: it runs, the run answers
    [before] = [
        s
        for s in graph.get_state_history(cfg)
        if s.next
        and s.next[0] in ("tools", "execute")
        and any("pay" in str(m.content) for m in s.values["messages"][-2:])
    ][:1]
    _send(graph, None, before.config)  # replay from before the payment: it runs again
    run = read_audit(graph, cfg).turn(2)[0]
    executed = [r for r in run.trace if r["phase"] == "execution" and r.get("tool") == "send_payment"]
    assert len(executed) == 2 and run.branches == 2
    assert len(payments.done) == 1  # the idempotency key: paid once
    assert_exactly_once(graph, engine, cfg)


@pytest.mark.parametrize("engine", ENGINES)
def test_without_a_store_the_audit_is_read_from_the_checkpoints(engine):
    graph, _ = build(engine)
    cfg = config()
    for number in (1, 3):
        turn(graph, number, cfg)
    audit = read_audit(graph, cfg)
    assert audit.source == "checkpoints"
    assert [[c["tool"] for c in r.calls] for r in audit.runs] == [["lookup_order"], ["lookup_order"]]


@pytest.mark.parametrize("engine", ENGINES)
def test_without_a_store_a_checkpoint_carries_one_run_and_every_turn_is_readable(engine):
    """No store, no penalty: each run starts from no rows with a store or without (a long thread's
    checkpoints do not grow with every earlier run's rows), and each run is read from its own
    newest checkpoint, every row once."""
    graph, payments = build(engine)
    cfg = config()
    four_turns(graph, cfg)
    audit = read_audit(graph, cfg)
    assert audit.source == "checkpoints" and [r.turn for r in audit.runs] == [1, 2, 3, 4]
    assert [[c["tool"] for c in r.calls] for r in audit.runs] == [["lookup_order"], ["send_payment"]] * 2
    assert len(payments.done) == 2
    assert all(len(runs) <= 1 for runs in checkpoint_runs(graph, engine, cfg))
    assert_exactly_once(graph, engine, cfg)


def test_a_middleware_thread_that_kept_every_runs_rows_is_read_once():
    """A thread checkpointed when the middleware kept every run's rows in state without a store:
    each run's newest checkpoint holds the earlier runs' rows too, and each row is read once."""
    from apps.operations.audit import history_audit

    first = {"run_id": "r1", "step": 1, "phase": "execution", "tool": "lookup_order"}
    second = {"run_id": "r2", "step": 1, "phase": "execution", "tool": "send_payment"}
    older = {"governance_run": {"run_id": "r1", "turn": 1}, "governance_trace": [first]}
    newer = {"governance_run": {"run_id": "r2", "turn": 2}, "governance_trace": [first, second]}
    audit = history_audit([newer, older], "t")
    assert [(r.run_id, r.turn, [row["tool"] for row in r.trace], r.branches) for r in audit.runs] == [
        ("r1", 1, ["lookup_order"], 1),
        ("r2", 2, ["send_payment"], 1),
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_async_api_writes_the_same_log(engine):
    graph, _ = build(engine, store=InMemoryStore())
    cfg = config()

    async def two_turns() -> None:
        for number in (1, 3):
            await graph.ainvoke({"messages": [HumanMessage(request(number))]}, cfg)

    asyncio.run(two_turns())
    audit = read_audit(graph, cfg)
    assert [(r.turn, r.status, len(r.calls)) for r in audit.runs] == [(1, "ok", 1), (2, "ok", 1)]
    assert_exactly_once(graph, engine, cfg)


def test_a_thread_id_a_store_cannot_name_is_escaped():
    assert log.thread_label("a.b") == "a%2Eb" and log.thread_label("") == "%"
    assert log.thread_label("a%2Eb") != log.thread_label("a.b")
    graph, _ = build("supervisor_native", store=InMemoryStore())
    cfg = config("user.42.thread")
    turn(graph, 1, cfg)
    assert [r.turn for r in read_audit(graph, cfg).runs] == [1]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_real_database_keeps_the_log_beside_the_runs(engine, tmp_path):
    """SQLite: the runs and the log in one file, read back with a new checkpointer and store."""
    from nodes.store import open_checkpointer, open_store

    db = str(tmp_path / "runs.sqlite")
    with open_checkpointer(db) as saver, open_store(db) as store:
        graph, _ = build(engine, store=store, saver=saver)
        for number in (1, 2, 2, 3):
            turn(graph, number, config())
    with open_checkpointer(db) as saver, open_store(db) as store:
        audit = stored_audit(saver, store, "t.1")
    assert [(r.turn, r.status) for r in audit.runs] == [(1, "ok"), (2, "ok"), (3, "ok")]
    assert audit.runs[1].calls[0]["approved_by"] == "human"


def test_postgres_keeps_the_log_and_a_waiting_run_is_read_from_its_state(pg_url):
    """PostgreSQL: a run waiting for a human is read from its state; answered from another
    checkpointer and store (another process), it ends, and the log has both turns."""
    from nodes.store import open_checkpointer, open_store

    with open_checkpointer(pg_url) as saver, open_store(pg_url) as store:
        for engine in ("supervisor_native", "middleware"):
            graph, _ = build(engine, store=store, saver=saver)
            turn(graph, 1, config(engine))
            turn(graph, 2, config(engine))  # waits for a human
    with open_checkpointer(pg_url) as saver, open_store(pg_url) as store:
        for engine in ("supervisor_native", "middleware"):
            audit = stored_audit(saver, store, engine)
            assert [(r.turn, r.status) for r in audit.runs] == [(1, "ok"), (2, None)], engine
            graph, payments = build(engine, store=store, saver=saver)
            turn(graph, 2, config(engine))  # approved here
            audit = stored_audit(saver, store, engine)
            assert [(r.turn, r.status) for r in audit.runs] == [(1, "ok"), (2, "ok")], engine
            assert audit.runs[1].calls[0]["approved_by"] == "human" and len(payments.done) == 1
            assert_exactly_once(graph, engine, config(engine))


def test_reading_a_thread_nothing_wrote_is_a_clear_error():
    from apps.operations.audit import ThreadNotFound

    with pytest.raises(ThreadNotFound, match="no audit of thread 'nobody'"):
        stored_audit(InMemorySaver(), InMemoryStore(), "nobody")


class LookupThenPay(ToolStubChatModel):
    """Reads the order, then pays (the payment waits for a human), then answers."""

    llm_type = "audit-lookup-then-pay"

    def answer(self, messages: list[BaseMessage]) -> AIMessage:
        done = [
            m.name
            for m in messages[max(i for i, m in enumerate(messages) if m.type == "human") :]
            if m.type == "tool"
        ]
        if "send_payment" in done:
            return AIMessage(ANSWER)
        name, args = ("send_payment", {"amount": 5.0}) if done else ("lookup_order", {"order_id": 1})
        return _call(name, args, f"c{len(done)}")


def test_a_fork_that_leaves_a_waiting_middleware_run_behind_keeps_its_rows():
    from langchain.agents import create_agent

    from nodes.middleware import GovernanceMiddleware

    tools = tools_for(Payments())
    middleware = [GovernanceMiddleware(policy_for(tools), tools=tools)]
    graph = create_agent(
        LookupThenPay(), tools, middleware=middleware, checkpointer=InMemorySaver(), store=InMemoryStore()
    )
    cfg = config()
    graph.invoke(
        {"messages": [HumanMessage("Check order 1, then pay 5 EUR.")]}, cfg
    )  # the order is read; the payment waits
    [start] = [s for s in graph.get_state_history(cfg) if s.metadata.get("source") == "input"]
    _send(graph, None, start.config)  # a fork from before the run: it is run again, and waits again
    assert_exactly_once(graph, "middleware", cfg)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_long_thread_is_readable_turn_by_turn(engine):
    """Thirty turns: each turn's run, its request and its call, read back; the state the thread's
    latest checkpoint carries holds one run's rows, however long the thread."""
    graph, _ = build(engine, store=InMemoryStore())
    cfg = config()
    for number in range(1, 61, 2):  # odd turns: a read each, nothing waits
        graph.invoke({"messages": [HumanMessage(request(number))]}, cfg)
    audit = read_audit(graph, cfg)
    assert [r.turn for r in audit.runs] == list(range(1, 31))
    assert [r.request for r in audit.runs] == [request(n) for n in range(1, 61, 2)]
    assert [r.calls[0]["args"] for r in audit.runs] == [{"order_id": n} for n in range(1, 61, 2)]
    assert checkpoint_runs(graph, engine, cfg)[0] == {audit.runs[-1].run_id}
