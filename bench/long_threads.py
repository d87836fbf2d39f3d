"""7. Long threads: one thread, many user turns, as a chat user keeps one for days.

Each variant keeps one thread per store and is sent N user turns of one tool call each ("Turn k:
check order k"): the scripted model calls one tool, reads its result, answers. The variants take
turns, turn by turn (interleaved), so the machine's load falls on all of them alike. At each mark
(50 / 100 / 200 turns in full mode) the section reads the bytes the thread keeps (checkpoints,
channel blobs, pending writes, and the rows its audit log keeps in the graph's store) and the
median time of the last turns before the mark, and prints both as ratios to ``create_agent``'s.

Variants: ``create_agent`` (LangChain's agent, nothing else), ``+ HumanInTheLoopMiddleware``
(gating both tools, its ``when`` never asking), ``+ GovernanceMiddleware`` (the Supervisor's
policy for the same tools), the Supervisor graph in both worker protocols (native tool calls,
JSON actions), and, with delta channels on (beta: ``state_schema=GovernanceDeltaState``,
``AGENT_PATTERNS_DELTA_CHANNELS``), the middleware and the native Supervisor again. Every turn of
every variant is checked to have made its one call and answered.

Setups: SQLite and PostgreSQL, each with a store beside the checkpointer (as docs/own-agent.md
recommends: the audit log lives there) and without one (``create_agent(model, tools,
checkpointer=...)``, LangChain's default). Every ratio is given to ``create_agent`` and to
``create_agent + HITL`` of the same setup and mark.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from bench.agents import TOOLS, USAGE, available, governance, hitl, supervisor_policy, tool_call
from bench.checkpointers import stored_bytes
from bench.common import Section, median, ms
from bench.context import Context
from nodes.scripted import AnswerModel
from nodes.store import open_checkpointer, open_store

#: The switch of the patterns' delta channels (``graphs.compile.DELTA_CHANNELS_ENV``; named here
#: so the section also runs on a checkout from before it, without the delta variants).
DELTA_CHANNELS_ENV = "AGENT_PATTERNS_DELTA_CHANNELS"

STORES = ("sqlite", "postgres")
#: With the graph's store beside the checkpointer, and without one (LangChain's default).
SETUPS = (True, False)
BASELINE = "create_agent"
HITL = "create_agent_hitl"
MIDDLEWARE = "create_agent_governance"
#: Issue 37's targets, at the longest thread on SQLite, with a store and without: the middleware
#: at or below create_agent + HITL in bytes and per-turn time; the Supervisor graph within
#: TARGET_RATIO times create_agent; with delta channels on, a governed thread below create_agent's
#: bytes.
TARGET_RATIO = 1.25
TARGET_STORE = "sqlite"
SUPERVISORS = ("supervisor_native", "supervisor")
DELTA = ("create_agent_governance_delta", "supervisor_native_delta")
GOVERNED = (MIDDLEWARE, *SUPERVISORS, *DELTA)
FINAL_ANSWER = "Done: checked."
_TURN = re.compile(r"Turn (\d+)")


def request(turn: int) -> str:
    return f"Turn {turn}: check order {turn} and tell me what you found."


def _turn_of(text: str) -> int:
    found = _TURN.findall(text)
    if not found:
        raise ValueError(f"no turn in {text[:80]!r}")
    return int(found[-1])


class TurnScript(AnswerModel):
    """Native tool calling, one call per user turn: the call of turn k when the conversation's
    last message is the user's request (or, for the Supervisor's worker, its task), the answer
    once a tool's result came back. Stateless, so one model serves every turn and thread."""

    llm_type = "bench-turn-script"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> TurnScript:
        return self

    def answer(self, messages: list[BaseMessage]) -> AIMessage:
        last = messages[-1]
        if isinstance(last, ToolMessage):
            return AIMessage(content=FINAL_ANSWER, usage_metadata=USAGE)
        turn = _turn_of(last.text)
        name, args = tool_call(turn)
        calls = [{"name": name, "args": args, "id": f"call_t{turn}", "type": "tool_call"}]
        return AIMessage(content="", tool_calls=calls, usage_metadata=USAGE)


class JsonTurnScript(AnswerModel):
    """The Supervisor's JSON protocol: the action of the goal's turn while the run's history is
    empty, then the final answer. No ``bind_tools``."""

    llm_type = "bench-json-turn-script"

    def answer(self, messages: list[BaseMessage]) -> AIMessage:
        payload = json.loads(messages[-1].text)
        if payload.get("history"):
            action: dict[str, Any] = {"kind": "final", "answer": FINAL_ANSWER}
        else:
            name, args = tool_call(_turn_of(str(payload["goal"])))
            action = {"kind": "tool", "name": name, "args": args}
        return AIMessage(content=json.dumps(action), usage_metadata=USAGE)


@dataclass(frozen=True)
class Thread:
    """One variant's graph over a store, and the check of each turn's result."""

    graph: Any
    check: Callable[[dict[str, Any], int], bool]


Builder = Callable[[Any, Any], Thread]


def _agent_check(result: dict[str, Any], turn: int) -> bool:
    messages = result.get("messages") or []
    if "__interrupt__" in result or len(messages) < 2:
        return False
    answer, last = messages[-2], messages[-1]
    ok = (
        isinstance(answer, ToolMessage)
        and answer.status == "success"
        and answer.tool_call_id == f"call_t{turn}"
    )
    return ok and isinstance(last, AIMessage) and last.text == FINAL_ANSWER


def _supervisor_check(result: dict[str, Any], turn: int) -> bool:
    calls = result.get("calls") or []
    made = [(c.get("tool"), c.get("args")) for c in calls if c.get("ok") is True]
    return result.get("status") == "ok" and made == [tool_call(turn)]


def agent(middleware: Callable[[int], Sequence[Any]] | None = None, *, delta: bool = False) -> Builder:
    """``create_agent`` with ``middleware``; ``delta``: the conversation as a delta channel
    (``GovernanceDeltaState`` with the governance middleware, else ``bench.delta_state``'s
    ``create_agent`` state, what a HITL user would declare for the same storage)."""

    def build(saver: Any, store: Any) -> Thread:
        from langchain.agents import create_agent

        extra = list(middleware(1)) if middleware else []
        schema = None
        if delta and middleware is governance:
            from nodes.middleware import GovernanceDeltaState

            schema = GovernanceDeltaState
        elif delta:
            from bench.delta_state import DeltaAgentState

            schema = DeltaAgentState
        graph = create_agent(
            TurnScript(), list(TOOLS), middleware=extra, checkpointer=saver, store=store, state_schema=schema
        )
        return Thread(graph, _agent_check)

    return build


@contextmanager
def delta_switch(on: bool) -> Iterator[None]:
    """``AGENT_PATTERNS_DELTA_CHANNELS`` as ``on`` while a graph is compiled."""
    before = os.environ.get(DELTA_CHANNELS_ENV)
    os.environ[DELTA_CHANNELS_ENV] = "1" if on else "0"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(DELTA_CHANNELS_ENV, None)
        else:
            os.environ[DELTA_CHANNELS_ENV] = before


def supervisor(model: type[BaseChatModel], *, delta: bool = False) -> Builder:
    def build(saver: Any, store: Any) -> Thread:
        from graphs.supervisor import build_graph

        with delta_switch(delta):
            graph = build_graph(
                llm=model(), tools=list(TOOLS), policy=supervisor_policy(1), checkpointer=saver, store=store
            )
        return Thread(graph, _supervisor_check)

    return build


def delta_available() -> bool:
    """Delta channels are there to switch on (a checkout from before them has none)."""
    try:
        from nodes.middleware import GovernanceDeltaState  # noqa: F401
    except ImportError:
        return False
    return True


def variants() -> dict[str, Builder]:
    """What the section measures, each against ``create_agent`` (BASELINE) and + HITL."""
    measured = {
        BASELINE: agent(),
        HITL: agent(hitl),
        MIDDLEWARE: agent(governance),
        "supervisor_native": supervisor(TurnScript),
        "supervisor": supervisor(JsonTurnScript),
    }
    if delta_available():
        measured["create_agent_governance_delta"] = agent(governance, delta=True)
        measured["create_agent_hitl_delta"] = agent(hitl, delta=True)
        measured["supervisor_native_delta"] = supervisor(TurnScript, delta=True)
    return measured


@contextmanager
def _stores(location: str, with_store: bool) -> Iterator[tuple[Any, Any]]:
    with open_checkpointer(location) as saver, open_store(location) if with_store else nullcontext() as store:
        yield saver, store


def audit_bytes(kind: str, location: str, thread_id: str) -> int:
    """Bytes the graph's store keeps for the thread (its audit log: keys and values)."""
    if kind == "sqlite":
        with sqlite3.connect(location) as conn:
            exists = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'store'").fetchone()
            if not exists:
                return 0
            row = conn.execute(
                "SELECT COALESCE(SUM(LENGTH(prefix) + LENGTH(key) + LENGTH(value)), 0) FROM store"
                " WHERE prefix LIKE ?",
                (f"%{thread_id}%",),
            ).fetchone()
        return int(row[0])
    import psycopg

    with psycopg.connect(location) as conn:
        exists = conn.execute("SELECT to_regclass('store')").fetchone()
        if not exists or exists[0] is None:  # no store beside the checkpointer
            return 0
        row = conn.execute(
            "SELECT COALESCE(SUM(pg_column_size(prefix) + pg_column_size(key) + pg_column_size(value)), 0)"
            " FROM store WHERE prefix LIKE %s",
            (f"%{thread_id}%",),
        ).fetchone()
    return int(row[0]) if row else 0


def _timed(thread: Thread, thread_id: str, turn: int) -> tuple[float, float]:
    given = {"messages": [HumanMessage(request(turn))]}
    config = {"configurable": {"thread_id": thread_id}}
    wall, cpu = time.perf_counter(), time.process_time()
    result = thread.graph.invoke(given, config, durability="sync")
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if not thread.check(result, turn):
        raise RuntimeError(f"turn {turn} strayed from the script: {result.get('stop_reason')}")
    return wall, cpu


def measure(ctx: Context, store: str, with_store: bool, builders: dict[str, Builder]) -> list[dict[str, Any]]:
    """Every variant's thread on ``store`` (with the graph's store beside it, or none), turn by
    turn in turns; a row per (mark, variant)."""
    marks = ctx.settings.thread_turns
    last = ctx.settings.thread_last
    rows: list[dict[str, Any]] = []
    with ExitStack() as stack:
        threads: dict[str, tuple[Thread, str, str]] = {}
        for name, build in builders.items():
            location = ctx.location(store, f"long_{name}")
            saver, kept = stack.enter_context(_stores(location, with_store))
            threads[name] = (build(saver, kept), location, f"long-{name}")
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in threads}
        names = list(threads)
        for turn in range(1, max(marks) + 1):
            shift = turn % len(names)  # each variant takes each place in the round in turn
            for name in names[shift:] + names[:shift]:
                thread, _, thread_id = threads[name]
                times[name].append(_timed(thread, thread_id, turn))
            if turn not in marks:
                continue
            for name, (thread, location, thread_id) in threads.items():
                saver = thread.graph.checkpointer
                kept = stored_bytes(store, saver, location, thread_id)
                logged = audit_bytes(store, location, thread_id)
                recent = times[name][-last:]
                rows.append(
                    {
                        "store": store,
                        "with_store": with_store,
                        "turns": turn,
                        "variant": name,
                        "checkpoints": len(list(saver.list({"configurable": {"thread_id": thread_id}}))),
                        "bytes": kept + logged,
                        "mb_per_thread": round((kept + logged) / 2**20, 3),
                        "audit_log_kb": round(logged / 1024, 1),
                        "ms_per_turn": ms(median([w for w, _ in recent])),
                        "cpu_ms_per_turn": ms(median([c for _, c in recent])),
                    }
                )
    for row in rows:
        for name, label in ((BASELINE, "create_agent"), (HITL, "hitl")):
            base = next((r for r in rows if (r["turns"], r["variant"]) == (row["turns"], name)), None)
            if base is None:
                continue
            row[f"bytes_over_{label}"] = round(row["bytes"] / base["bytes"], 2)
            row[f"ms_over_{label}"] = round(row["ms_per_turn"] / base["ms_per_turn"], 2)
            row[f"cpu_over_{label}"] = round(row["cpu_ms_per_turn"] / base["cpu_ms_per_turn"], 2)
    return rows


def _why(row: dict[str, Any], base: dict[str, Any]) -> str:
    """What a ratio is made of: the checkpoints a thread keeps, and the bytes of one (SQLite stores
    every channel of the state in every checkpoint)."""
    count = row["checkpoints"] / base["checkpoints"]
    size = (row["bytes"] / row["checkpoints"]) / (base["bytes"] / base["checkpoints"])
    return f"{count:.2f}x the checkpoints, each {size:.2f}x the bytes"


def _checks(section: Section, longest: int) -> None:
    """Issue 37's targets at the longest thread on SQLite, with a store and without."""
    marks = {(r["store"], r["with_store"], r["turns"], r["variant"]): r for r in section.rows}
    for row in section.rows:
        if row["store"] != TARGET_STORE or row["turns"] != longest:
            continue
        setup = f"{TARGET_STORE} {'with' if row['with_store'] else 'without'} a store, {longest} turns"
        base = marks[(row["store"], row["with_store"], row["turns"], BASELINE)]
        why = _why(row, base)
        if row["variant"] == MIDDLEWARE:
            hitl_row = marks[(row["store"], row["with_store"], row["turns"], HITL)]
            note = f"{_why(row, hitl_row)} (against HITL's)"
            section.check(f"{setup}: middleware ÷ HITL, bytes", row["bytes_over_hitl"], 1.0, note=note)
            section.check(f"{setup}: middleware ÷ HITL, ms per turn", row["ms_over_hitl"], 1.0, note=note)
        elif row["variant"] in SUPERVISORS:
            for figure, label in (
                ("bytes_over_create_agent", "bytes"),
                ("ms_over_create_agent", "ms per turn"),
            ):
                target = f"{setup}: {row['variant']} ÷ create_agent, {label}"
                section.check(target, row[figure], TARGET_RATIO, note=why)
        elif row["variant"] in DELTA:
            target = f"{setup}: {row['variant']} (delta channels) ÷ create_agent, bytes"
            section.check(target, row["bytes_over_create_agent"], 1.0, note=why)


def run(ctx: Context) -> Section:
    section = Section(
        "long_threads",
        "7. One thread, many user turns of one tool call each (scripted models, durability sync)",
        [
            "store", "with_store", "turns", "variant", "checkpoints", "mb_per_thread", "audit_log_kb",
            "ms_per_turn", "cpu_ms_per_turn", "bytes_over_create_agent", "bytes_over_hitl",
            "ms_over_create_agent", "ms_over_hitl", "cpu_over_create_agent", "cpu_over_hitl",
        ],
    )  # fmt: skip
    if not available():
        raise RuntimeError("the long_threads section needs langchain>=1 (pip install -e '.[bench]')")
    builders = variants()
    stores = [s for s in ctx.stores() if s in STORES]
    for store in stores:
        for with_store in SETUPS:
            section.rows += measure(ctx, store, with_store, builders)
    _checks(section, max(ctx.settings.thread_turns))
    if ctx.pg_problem:
        section.notes.append(f"PostgreSQL not measured: {ctx.pg_problem}")
    section.notes.append(
        "One thread per variant, store and setup; turn k asks for one tool call and an answer. "
        "with_store: the graph's store beside the checkpointer (the audit log's home), or none "
        f"(create_agent's default). ms_per_turn: the median wall time of the {ctx.settings.thread_last} "
        "turns before the mark (cpu_: the process's CPU time); mb_per_thread: the thread's checkpoints, "
        "blobs and writes, plus its rows in the graph's store (audit_log_kb). Ratios: to create_agent, "
        "and to create_agent + HITL, at the same store, setup and mark. *_delta: delta channels on "
        "(beta). A target's note: how many checkpoints the thread keeps, and how big one is, against "
        "the reference's (docs/benchmarks.md, section 7)."
    )
    return section
