"""Guard for LangGraph's private API (``nodes/langgraph_private.py``): each private name and the
behaviour it is used for, checked against the installed LangGraph. A failure here means a LangGraph
upgrade moved something the project relies on: fix ``nodes/langgraph_private.py``, nowhere else."""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import importlib
import inspect
import re
import sqlite3
import threading
import tomllib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal, TypedDict

import langgraph.constants as langgraph_constants
import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import run_in_executor
from langgraph.channels import BinaryOperatorAggregate, DeltaChannel, LastValue
from langgraph.channels.base import EmptyChannelError
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.config import get_config
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from packaging.requirements import Requirement

from graphs.compile import compile_pattern
from nodes import langgraph_private as private
from nodes.state import add_rows, add_rows_delta

ROOT = Path(__file__).resolve().parent.parent
CHANGED = "LangGraph changed a private API that nodes/langgraph_private.py relies on: "


class S(TypedDict, total=False):
    seen: list[str]
    route: str


def _where(label: str):
    def node(state: S) -> dict:
        return {"seen": [*state.get("seen", []), f"{label}:{threading.current_thread().name}"]}

    return node


def _route(state: S) -> str:
    return "tool"


def _builder() -> StateGraph:
    builder = StateGraph(S)
    builder.add_node("gate", _where("gate"))
    builder.add_node("tool", _where("tool"))
    builder.add_edge(START, "gate")
    builder.add_conditional_edges("gate", _route, {"tool": "tool"})
    builder.add_edge("tool", END)
    return builder


def test_private_names_exist_with_the_expected_shape():
    assert private.CONFIG_KEY_DURABILITY == "__pregel_durability", CHANGED + "CONFIG_KEY_DURABILITY"
    params = list(inspect.signature(private.RunnableCallable.__init__).parameters)
    assert params[1:3] == ["func", "afunc"], CHANGED + f"RunnableCallable(func, afunc, ...) is now {params}"
    for keyword in ("name", "tags", "trace"):
        assert keyword in params, CHANGED + f"RunnableCallable lost its {keyword!r} argument"
    builder = _builder()
    node = builder.nodes["gate"]
    assert isinstance(node.runnable, private.RunnableCallable), CHANGED + "a node is no RunnableCallable"
    assert private.runs_in_executor(node.runnable), (
        CHANGED + "sync nodes no longer get a run_in_executor afunc"
    )
    [spec] = builder.branches["gate"].values()
    assert hasattr(spec, "_replace") and private.runs_in_executor(spec.path), CHANGED + "BranchSpec.path"


def test_pure_work_runs_on_the_event_loop_and_io_nodes_keep_their_thread():
    builder = _builder()
    private.run_pure_work_on_loop(builder, io_nodes=["tool"])
    assert not private.runs_in_executor(builder.nodes["gate"].runnable)
    assert private.runs_in_executor(builder.nodes["tool"].runnable)
    graph = builder.compile()

    async def run() -> tuple[list[str], str]:
        return (await graph.ainvoke({}))["seen"], threading.current_thread().name

    seen, loop_thread = asyncio.run(run())
    assert seen[0] == f"gate:{loop_thread}", CHANGED + "a swapped node no longer runs on the event loop"
    assert seen[1] != f"tool:{loop_thread}"
    assert graph.invoke({})["seen"][0].startswith("gate:")  # the sync API is unchanged


def test_routing_functions_keep_their_type_hints_for_the_drawing():
    builder = StateGraph(S)
    builder.add_node("a", _where("a"))
    builder.add_node("b", _where("b"))
    builder.add_edge(START, "a")

    def route(state: S) -> Literal["b", "__end__"]:
        return "b"

    builder.add_conditional_edges("a", route)
    private.run_pure_work_on_loop(builder, io_nodes=())
    drawn = builder.compile().get_graph().draw_mermaid()
    assert "a -.-> b" in drawn and "a -.-> __end__" in drawn


def test_node_runnable_gets_config_and_runtime_and_runs_each_implementation():
    calls: list[str] = []

    def run(state: S, config: RunnableConfig, runtime: Runtime) -> dict:
        calls.append(f"sync:{config['configurable']['thread_id']}:{type(runtime).__name__}")
        return {"route": "sync"}

    async def arun(state: S, config: RunnableConfig, runtime: Runtime) -> dict:
        calls.append(f"async:{config['configurable']['thread_id']}:{type(runtime).__name__}")
        return {"route": "async"}

    builder = StateGraph(S)
    builder.add_node("llm", private.node_runnable(run, arun))
    builder.add_edge(START, "llm")
    builder.add_edge("llm", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    assert graph.invoke({}, config)["route"] == "sync"
    assert asyncio.run(graph.ainvoke({}, config))["route"] == "async"
    assert calls == ["sync:t:Runtime", "async:t:Runtime"], CHANGED + "node arguments"


@pytest.mark.parametrize(("durability", "checkpoints_before_end"), [("exit", 0), ("sync", 4)])
def test_the_default_durability_is_applied(tmp_path, durability, checkpoints_before_end):
    """With ``exit`` nothing is written until the run ends; with ``sync`` each step is on disk
    before the next one starts: counted from inside the last node."""
    path = tmp_path / "d.sqlite"
    seen: list[int] = []

    def count(state: S) -> dict:
        with sqlite3.connect(path) as conn:
            seen.append(conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0])
        return {}

    builder = _builder()
    builder.add_node("count", count)
    builder.edges.discard(("tool", END))
    builder.add_edge("tool", "count")
    builder.add_edge("count", END)
    with sqlite3.connect(path, check_same_thread=False) as conn:
        saver = SqliteSaver(conn)
        graph = compile_pattern(builder, name="t", checkpointer=saver, durability=durability)
        graph.invoke({}, {"configurable": {"thread_id": "t"}})
    assert seen == [checkpoints_before_end], CHANGED + f"durability {durability!r} is no longer the default"


def test_no_other_module_imports_langgraph_private_api():
    allowed = {ROOT / "nodes" / "langgraph_private.py", Path(__file__).resolve()}
    offenders = []
    for folder in ("graphs", "nodes", "policies", "demo_tools", "apps", "bench", "devtools", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if path not in allowed and re.search(r"(?:from|import) langgraph(?:\.\w+)*\._\w", text):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == [], f"import LangGraph's private API only in nodes/langgraph_private.py: {offenders}"


def test_partial_is_what_langgraph_wraps_sync_functions_in():
    """``runs_in_executor`` recognises LangGraph's wrapper by ``functools.partial`` of
    ``run_in_executor``: a sync function given to add_node gets exactly that."""
    afunc = _builder().nodes["tool"].runnable.afunc
    assert isinstance(afunc, partial), CHANGED + f"sync nodes' afunc is now {type(afunc).__name__}"


def test_a_node_wrapped_before_compiling_is_what_runs_with_its_config_and_runtime():
    """``wrap_nodes`` (the audit log's node wrapper): the wrapper runs in the node's place, gets the
    task's config and runtime, and the node it wraps still gets its own."""
    builder = _builder()
    seen: list[tuple[str, bool]] = []

    def wrap(name: str, runnable: private.RunnableCallable) -> private.RunnableCallable:
        def func(state: S, config: RunnableConfig, runtime: Runtime) -> dict:
            seen.append((name, runtime.execution_info is not None))
            return runnable.invoke(state, config)

        return private.node_runnable(func, None, name=name)

    private.wrap_nodes(builder, wrap)
    result = builder.compile(checkpointer=InMemorySaver()).invoke({}, {"configurable": {"thread_id": "w"}})
    assert seen == [("gate", True), ("tool", True)], CHANGED + "a replaced node's runnable did not run"
    assert [s.split(":")[0] for s in result["seen"]] == ["gate", "tool"]


class Rows(TypedDict, total=False):
    rows: Annotated[list, add_rows]


def test_a_channel_replaced_before_compiling_is_the_one_the_graph_runs_with():
    """``replace_channels``: ``StateGraph.channels`` and ``.schemas`` hold each key's channel, and
    compiling reads them from there."""
    builder = StateGraph(Rows)
    builder.add_node("add", lambda state: {"rows": [len(state.get("rows") or [])]})
    builder.add_edge(START, "add")
    builder.add_edge("add", END)
    assert isinstance(builder.channels.get("rows"), BinaryOperatorAggregate), CHANGED + "StateGraph.channels"
    assert all(isinstance(fields, dict) for fields in builder.schemas.values()), (
        CHANGED + "StateGraph.schemas"
    )
    replaced = private.replace_channels(builder, lambda key, _c: DeltaChannel(add_rows_delta, list))
    assert replaced == ["rows"] and builder.channels["rows"].key == "rows"
    graph = builder.compile(checkpointer=SqliteSaver(sqlite3.connect(":memory:", check_same_thread=False)))
    assert isinstance(graph.channels["rows"], DeltaChannel), (
        CHANGED + "compile no longer reads builder.channels"
    )
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke({"rows": [9]}, config)
    graph.invoke({"rows": [8]}, config)
    assert graph.get_state(config).values["rows"] == [9, 1, 8, 3]


def test_routing_functions_run_untraced_with_the_same_routes():
    builder = _builder()
    private.run_pure_work_on_loop(builder, io_nodes=["tool"])
    [spec] = builder.branches["gate"].values()
    assert isinstance(spec.path, private.RunnableCallable) and spec.path.trace is False
    assert spec.path.name == "_route" and not private.runs_in_executor(spec.path)
    graph = builder.compile()
    assert graph.invoke({})["seen"][1].startswith("tool:")
    assert asyncio.run(graph.ainvoke({}))["seen"][1].startswith("tool:")


@pytest.mark.parametrize("delta", [False, True], ids=["channels", "delta_channels"])
@pytest.mark.parametrize("name", ["reflection", "research", "rag", "supervisor", "task_decomposition"])
def test_lean_route_reads_give_what_langgraphs_fresh_read_gives(monkeypatch, name, delta):
    """Every conditional edge of every demo: the lean read returns the same keys and the very same
    objects as LangGraph's copy-everything read, with each pattern's channels and delta channels."""
    from graphs.compile import DELTA_CHANNELS_ENV
    from graphs.registry import PATTERNS

    lean = private._fresh_read
    compared: list[int] = []

    def both(config, *, select, mapper):
        ours = lean(config, select=select, mapper=mapper)
        theirs = private.ChannelRead.do_read(config, select=select, fresh=True, mapper=mapper)
        assert list(ours) == list(theirs) and ours == theirs, CHANGED + "the lean read of an edge differs"
        read = config["configurable"][private.CONFIG_KEY_READ]
        assert read.func is private.local_read, CHANGED + "an edge's read is no local_read partial"
        _, channels, _, task = read.args
        written = {key for key, _ in task.writes}
        live = [k for k in theirs if k not in written and type(channels[k]) in private._UNCHANGED_BY_NOTHING]
        assert all(ours[k] is theirs[k] for k in live), CHANGED + "the lean read is no longer as live"
        compared.append(len(ours))
        return ours

    monkeypatch.setattr(private, "_fresh_read", both)
    monkeypatch.setenv(DELTA_CHANNELS_ENV, "1" if delta else "0")
    pattern = PATTERNS[name]
    graph = pattern.build()
    edges = sum(len(specs) for specs in graph.builder.branches.values())
    assert private.read_routes_lean(graph.builder.compile()) == edges, CHANGED + "a branch reader moved"
    result = graph.invoke(pattern.demo_input())
    assert result["run_id"] and compared  # the Supervisor demo stops at its approval interrupt
    asyncio.run(graph.ainvoke(pattern.demo_input()))


@pytest.mark.parametrize(("value", "lean"), [(None, True), ("1", True), ("0", False), ("off", False)])
def test_lean_route_reads_have_a_way_back(monkeypatch, value, lean):
    """``AGENT_PATTERNS_LEAN_ROUTES=0`` compiles every pattern with LangGraph's own edge reads: the
    way back should a LangGraph release change what the lean read relies on."""
    import graphs.compile as compile_module
    from graphs.registry import PATTERNS

    swapped: list[object] = []
    monkeypatch.setattr(compile_module, "read_routes_lean", swapped.append)
    if value is None:
        monkeypatch.delenv(compile_module.LEAN_ROUTES_ENV, raising=False)
    else:
        monkeypatch.setenv(compile_module.LEAN_ROUTES_ENV, value)
    graph = PATTERNS["rag"].build()
    assert bool(swapped) == lean
    assert graph.invoke(PATTERNS["rag"].demo_input())["stop_reason"] == "success"


def test_a_delta_channels_snapshot_is_what_stored_value_unwraps(tmp_path, monkeypatch):
    """``stored_value`` (``agent-patterns audit`` reads checkpoints without the graph) unwraps a
    delta channel's stored snapshot with the public ``DeltaChannel.from_checkpoint``."""
    from graphs.compile import DELTA_CHANNELS_ENV
    from graphs.registry import PATTERNS
    from nodes.store import open_checkpointer

    monkeypatch.setenv(DELTA_CHANNELS_ENV, "1")
    pattern = PATTERNS["reflection"]
    config = {"configurable": {"thread_id": "t"}}
    with open_checkpointer(str(tmp_path / "t.sqlite")) as saver:
        done = pattern.build(checkpointer=saver).invoke(pattern.demo_input(), config)
        stored = [t.checkpoint["channel_values"].get("trace") for t in saver.list(config)]
    snapshots = [v for v in stored if v is not None]
    assert snapshots and not any(isinstance(v, list) for v in snapshots), (
        CHANGED
        + f"a delta channel's stored value is now {type(snapshots[0]).__name__ if snapshots else None}"
    )
    assert private.stored_value(snapshots[0]) == done["trace"], CHANGED + "DeltaChannel.from_checkpoint"
    assert private.stored_value(["plain"]) == ["plain"]


def test_resuming_is_true_only_in_a_node_run_again_with_an_answer():
    """:func:`~nodes.langgraph_private.resuming` reads the task's scratchpad: False in a node run
    afresh (and outside a graph), True in the node run again with the answer to its interrupt,
    whether the answer names the interrupt or not; False again in the next node."""
    from langgraph.types import Command, interrupt

    seen: list[tuple[str, bool]] = []

    def asks(state: S) -> dict:
        seen.append(("asks", private.resuming()))
        return {"seen": [str(interrupt("yes?"))]}

    def after(state: S) -> dict:
        seen.append(("after", private.resuming()))
        return {}

    builder = StateGraph(S)
    builder.add_node("asks", asks)
    builder.add_node("after", after)
    builder.add_edge(START, "asks")
    builder.add_edge("asks", "after")
    builder.add_edge("after", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    assert private.resuming() is False
    for n, answer in enumerate(("plain", "by-id")):
        config = {"configurable": {"thread_id": f"resuming-{n}"}}
        waiting = graph.invoke({"seen": []}, config)
        resume = answer if n == 0 else {waiting["__interrupt__"][0].id: answer}
        done = graph.invoke(Command(resume=resume), config)
        assert done["seen"] == [answer], CHANGED + "interrupt/resume"
        assert seen == [("asks", False), ("asks", True), ("after", False)], CHANGED + "the task's scratchpad"
        seen.clear()


def test_answered_interrupts_are_counted_and_can_be_passed_over_in_a_node_run_again():
    """:func:`~nodes.langgraph_private.answered_interrupts` counts the answers a node run has had
    so far; :func:`~nodes.langgraph_private.skip_interrupts` passes over interrupts already
    answered in an earlier run of the node, so the next ``interrupt`` gets the answer after
    theirs (how the middleware's kept reply leaves a model wrapper's answers to it)."""
    from langgraph.types import Command, interrupt

    passes: list[int] = []
    runs: list[int] = []

    def asks_twice(state: S) -> dict:
        runs.append(1)
        passes.append(private.answered_interrupts())
        if len(runs) == 3:  # the third run does not make the first call again
            private.skip_interrupts(1)
            first = "skipped"
        else:
            first = str(interrupt("first"))
        passes.append(private.answered_interrupts())
        return {"seen": [first, str(interrupt("second"))]}

    builder = StateGraph(S)
    builder.add_node("asks", asks_twice)
    builder.add_edge(START, "asks")
    builder.add_edge("asks", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "skip"}}
    graph.invoke({"seen": []}, config)  # waits on "first"
    graph.invoke(Command(resume="A"), config)  # waits on "second"
    done = graph.invoke(Command(resume="B"), config)
    assert done["seen"] == ["skipped", "B"], CHANGED + "the scratchpad's interrupt counter"
    # run 1: 0 answered; run 2: 0 at its start (the answer is read as the interrupt is), 1 after;
    # run 3: 1 at its start (the first answer kept), still 1 after passing over it
    assert passes == [0, 0, 1, 1, 1], CHANGED + "the scratchpad's resume values"
    assert private.answered_interrupts() == 0


def _slots(cls: type) -> set[str]:
    return {slot for klass in cls.__mro__ for slot in getattr(klass, "__slots__", ())}


def test_copied_aggregate_copies_every_attribute_a_reducer_channel_holds():
    """``CopiedAggregate.copy`` sets the attributes by name: they must be all the slots LangGraph's
    ``BinaryOperatorAggregate`` has (an attribute added upstream would be left unset in a copy)."""
    assert _slots(BinaryOperatorAggregate) == set(private.AGGREGATE_SLOTS), (
        CHANGED + f"BinaryOperatorAggregate's slots are now {sorted(_slots(BinaryOperatorAggregate))}"
    )
    assert _slots(private.CopiedAggregate) == set(private.AGGREGATE_SLOTS)
    assert _slots(LastValue) == set(private.LAST_VALUE_SLOTS), (
        CHANGED + f"LastValue's slots are now {sorted(_slots(LastValue))}"
    )
    assert _slots(private.CopiedLastValue) == set(private.LAST_VALUE_SLOTS)
    last, reference_last = private.CopiedLastValue(dict), LastValue(dict, "k")
    last.key = "k"
    for channel in (last, reference_last):
        channel.update([{"a": 1}])
    copied_last = last.copy()
    assert type(copied_last) is private.CopiedLastValue
    assert all(getattr(copied_last, n) == getattr(reference_last.copy(), n) for n in private.LAST_VALUE_SLOTS)
    assert copied_last.get() is last.get() and last == reference_last
    assert type(last.from_checkpoint(last.checkpoint())) is private.CopiedLastValue
    empty = private.CopiedLastValue(dict).copy()
    with pytest.raises(EmptyChannelError):
        empty.get()
    assert not hasattr(private.CopiedAggregate(list, add_rows), "__dict__")
    ours, theirs = private.CopiedAggregate(list, add_rows), BinaryOperatorAggregate(list, add_rows)
    for channel in (ours, theirs):
        channel.key = "rows"
        channel.update([[{"a": 1}], [{"b": 2}]])
    copied, reference = ours.copy(), theirs.copy()
    assert type(copied) is private.CopiedAggregate
    for name in private.AGGREGATE_SLOTS:
        mine, base = getattr(copied, name), getattr(reference, name)
        assert mine == base, name
    assert copied.value is ours.value  # shared, as LangGraph's own copy shares it
    copied.update([[{"c": 3}]])
    assert ours.get() == [{"a": 1}, {"b": 2}] and copied.get() == [*ours.get(), {"c": 3}]
    restored = ours.from_checkpoint(ours.checkpoint())
    assert type(restored) is private.CopiedAggregate and restored.get() == ours.get()
    assert ours == theirs  # the same reducer: schemas that declare it either way merge


class CopiedRows(TypedDict, total=False):
    rows: Annotated[list[int], private.CopiedAggregate(list[int], add_rows)]
    last: Annotated[int, private.CopiedLastValue(int)]


class PlainRows(TypedDict, total=False):
    rows: Annotated[list[int], add_rows]
    last: int


def _rows_history(schema: type, path: Path) -> list[object]:
    builder = StateGraph(schema)
    builder.add_node(
        "add", lambda state: {"rows": [len(state.get("rows") or [])], "last": state.get("last", 0) + 1}
    )
    builder.add_conditional_edges("add", lambda state: "add" if len(state["rows"]) % 4 else END)
    builder.add_edge(START, "add")
    graph = builder.compile(checkpointer=SqliteSaver(sqlite3.connect(str(path), check_same_thread=False)))
    kind = private.CopiedAggregate if schema is CopiedRows else BinaryOperatorAggregate
    assert type(graph.channels["rows"]) is kind
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke({"rows": [7]}, config)
    graph.invoke({"rows": [9]}, config)
    assert type(graph.channels["last"]) is (private.CopiedLastValue if schema is CopiedRows else LastValue)
    return [(s.values.get("rows"), s.values.get("last")) for s in graph.get_state_history(config)]


def test_a_graph_with_copied_aggregates_runs_and_checkpoints_as_with_langgraphs(tmp_path):
    """The same graph, conditional edges (which copy every channel) and a checkpointer included,
    gives the same values, checkpoint by checkpoint, with either channel."""
    copied = _rows_history(CopiedRows, tmp_path / "copied.sqlite")
    assert copied == _rows_history(PlainRows, tmp_path / "plain.sqlite")
    assert copied[0] == ([7, 1, 2, 3, 9, 5, 6, 7], 6) and len(copied) > 8


def test_the_middlewares_channels_are_all_copied_by_their_attributes():
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

    from nodes.middleware import GovernanceMiddleware

    agent = create_agent(
        GenericFakeChatModel(messages=iter([])), [], middleware=[GovernanceMiddleware(tools=[])]
    )
    reducers = {k: c for k, c in agent.channels.items() if k.startswith("governance_")}
    assert {k for k, c in reducers.items() if type(c) is private.CopiedAggregate} == {
        "governance_trace", "governance_calls", "governance_refusals", "governance_grants",
        "governance_stop_reason", "governance_ledger", "governance_waited",
    }  # fmt: skip
    assert {k for k, c in reducers.items() if type(c) is private.CopiedLastValue} == {
        "governance_subject", "governance_run", "governance_clock", "governance_plan", "governance_seen",
    }  # fmt: skip


def test_running_checkpointer_is_the_invocations_own_in_every_node(tmp_path):
    """Item 10: a middleware finds the journal beside the checkpointer it runs with; LangGraph puts
    the checkpointer in each task's config (sync and async), and outside a graph there is none."""
    seen: list = []

    class S(TypedDict):
        n: int

    def node(state: S) -> dict:
        seen.append(private.running_checkpointer())
        return {"n": 1}

    async def anode(state: S) -> dict:
        seen.append(private.running_checkpointer())
        return {"n": 1}

    def graph_of(fn, saver):
        builder = StateGraph(S)
        builder.add_node("n", fn)
        builder.add_edge(START, "n")
        return builder.compile(checkpointer=saver)

    assert private.running_checkpointer() is None
    memory = InMemorySaver()
    graph_of(node, memory).invoke({"n": 0}, {"configurable": {"thread_id": "sync"}})
    asyncio.run(graph_of(anode, memory).ainvoke({"n": 0}, {"configurable": {"thread_id": "async"}}))
    sqlite = SqliteSaver(sqlite3.connect(tmp_path / "c.sqlite", check_same_thread=False))
    graph_of(node, sqlite).invoke({"n": 0}, {"configurable": {"thread_id": "sync"}})
    assert seen == [memory, memory, sqlite]
    seen.clear()
    graph_of(node, None).invoke({"n": 0})
    assert seen == [None]


# --- One guard per row of ``private.PRIVATE_NAMES`` -------------------------------------------------
# Each fails naming the row and what changed; ``GUARDS`` must have one for every row.


def _changed(use: private.PrivateUse, what: str) -> str:
    return CHANGED + f"{use.name}: {what}"


def _imported(use: private.PrivateUse) -> Any:
    """The object ``use.name`` names, imported from where the table says it lives."""
    module, _, attribute = use.name.rpartition(".")
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as error:
        raise AssertionError(_changed(use, f"it is gone ({type(error).__name__}: {error})")) from error


def _inside_a_node() -> tuple[dict[str, Any], InMemorySaver]:
    """The ``configurable`` of a node's task config (a graph with a checkpointer), and the saver."""
    seen: list[dict[str, Any]] = []

    def node(state: S) -> dict:
        seen.append(dict(get_config()["configurable"]))
        return {"route": "x"}

    builder = StateGraph(S)
    builder.add_node("node", node)
    builder.add_edge(START, "node")
    saver = InMemorySaver()
    builder.compile(checkpointer=saver).invoke({}, {"configurable": {"thread_id": "inside"}})
    return seen[0], saver


def _guard_runnable_callable(use: private.PrivateUse) -> None:
    runnable_callable = _imported(use)
    assert runnable_callable is private.RunnableCallable
    params = list(inspect.signature(runnable_callable.__init__).parameters)
    assert params[1:3] == ["func", "afunc"] and {"name", "tags", "trace"} <= set(params), _changed(
        use, f"the constructor's parameters are now {params}"
    )
    node = _builder().nodes["gate"].runnable
    assert isinstance(node, runnable_callable), _changed(use, f"a sync node is now a {type(node).__name__}")
    missing = [name for name in use.attributes if not hasattr(node, name)]
    assert not missing, _changed(use, f"a node has no {missing}")
    afunc = node.afunc
    assert isinstance(afunc, partial) and afunc.func is run_in_executor and afunc.args == (None, node.func), (
        _changed(use, f"a sync node's afunc is no partial(run_in_executor, None, func) but {afunc!r}")
    )
    for trace, runs in ((False, 1), (True, 2)):
        handler = _NodeRuns()
        builder = StateGraph(S)
        builder.add_node("llm", runnable_callable(lambda state: {}, None, name="llm", trace=trace))
        builder.add_edge(START, "llm")
        builder.compile().invoke({}, {"callbacks": [handler]})
        assert handler.runs == runs, _changed(
            use, f"trace={trace} now opens {handler.runs} runs named after the node"
        )


class _NodeRuns(BaseCallbackHandler):
    """Counts the callback runs named ``llm`` (the task's own, and the node's if it is traced)."""

    def __init__(self) -> None:
        self.runs = 0

    def on_chain_start(self, serialized: Any, inputs: Any, **kwargs: Any) -> None:
        self.runs += kwargs.get("name") == "llm"


def _guard_durability(use: private.PrivateUse) -> None:
    key = _imported(use)
    assert key is private.CONFIG_KEY_DURABILITY and private.durability_config("exit") == {key: "exit"}
    saved = {}
    for durability in ("exit", "async"):
        saver = InMemorySaver()
        graph = _builder().compile(checkpointer=saver).with_config(configurable={key: durability})
        config: RunnableConfig = {"configurable": {"thread_id": "d"}}
        graph.invoke({}, config)
        saved[durability] = len(list(saver.list(config)))
    assert saved["exit"] == 1 < saved["async"], _changed(
        use, f"a default durability in the config is no longer read (checkpoints kept: {saved})"
    )


def _guard_read(use: private.PrivateUse) -> None:
    key = _imported(use)
    read = _inside_a_node()[0].get(key)
    assert isinstance(read, partial) and read.func is private.local_read, _changed(
        use, f"a task's config holds {read!r} there, no partial of local_read"
    )


def _guard_scratchpad(use: private.PrivateUse) -> None:
    pad = _inside_a_node()[0].get(_imported(use))
    missing = [name for name in use.attributes if not hasattr(pad, name)]
    assert pad is not None and not missing, _changed(use, f"the task's scratchpad {pad!r} has no {missing}")
    assert pad.resume == [] and pad.get_null_resume(False) is None, _changed(
        use, "a task run afresh has answers in its scratchpad"
    )
    assert [pad.interrupt_counter(), pad.interrupt_counter()] == [0, 1], _changed(
        use, "the scratchpad's interrupt_counter no longer counts from 0"
    )


def _guard_missing(use: private.PrivateUse) -> None:
    missing = _imported(use)
    empty = LastValue(int)
    assert empty.value is missing and not empty.is_available(), _changed(
        use, f"an empty channel's value is now {empty.value!r}"
    )
    empty.update([1])
    assert empty.value == 1 and empty.is_available()


def _branch(builder: StateGraph) -> Any:
    [spec] = builder.branches["gate"].values()
    return spec


def _branch_writers(compiled: Any, route: Any) -> list[Any]:
    """The writers of the compiled node ``gate`` that run a branch (``BranchSpec._route``)."""
    writers = compiled.nodes["gate"].writers
    return [
        w
        for w in writers
        if isinstance(w, private.RunnableCallable) and getattr(w.func, "__func__", None) is route
    ]


def _guard_branch_spec(use: private.PrivateUse) -> None:
    branch_spec = _imported(use)
    builder = _builder()
    spec = _branch(builder)
    assert isinstance(spec, branch_spec), _changed(use, f"a branch is now a {type(spec).__name__}")
    assert spec._replace(path=None).path is None, _changed(use, "BranchSpec._replace(path=...)")
    writers = _branch_writers(builder.compile(), branch_spec._route)
    assert len(writers) == 1, _changed(
        use, "no writer of a node with a conditional edge runs BranchSpec._route"
    )
    [writer] = writers
    reader = writer.kwargs.get("reader")
    assert isinstance(reader, partial) and reader.func is private.ChannelRead.do_read, _changed(
        use, f"a branch's reader is {reader!r}"
    )
    assert reader.keywords.get("fresh") is True and set(reader.keywords) <= {"select", "fresh", "mapper"}, (
        _changed(use, f"a branch's reader's keywords are now {sorted(reader.keywords)}")
    )


def _guard_local_read(use: private.PrivateUse) -> None:
    local_read = _imported(use)
    params = list(inspect.signature(local_read).parameters)
    assert params[:4] == ["scratchpad", "channels", "managed", "task"], _changed(
        use, f"its parameters are now {params}"
    )
    read = _inside_a_node()[0].get(private.CONFIG_KEY_READ)
    assert isinstance(read, partial) and len(read.args) == 4 and not read.keywords, _changed(
        use, f"a task's read is now {read!r}"
    )
    assert isinstance(read.args[1], dict) and hasattr(read.args[3], "writes"), _changed(
        use, "its arguments are no longer (scratchpad, channels, managed, task)"
    )


def _guard_channel_read(use: private.PrivateUse) -> None:
    channel_read = _imported(use)
    params = inspect.signature(channel_read.do_read).parameters
    assert list(params)[:1] == ["config"] and {"select", "fresh", "mapper"} <= set(params), _changed(
        use, f"ChannelRead.do_read's parameters are now {list(params)}"
    )


def _guard_nodes(use: private.PrivateUse) -> None:
    builder = _builder()
    node = builder.nodes.get("gate")
    assert dataclasses.is_dataclass(node) and hasattr(node, "runnable"), _changed(
        use, f"a node is now {node!r}, no dataclass with a runnable"
    )
    builder.nodes["gate"] = dataclasses.replace(
        node, runnable=private.node_runnable(lambda s: {"seen": ["new"]}, None)
    )
    assert builder.compile().invoke({})["seen"][0] == "new", _changed(
        use, "compile no longer runs its runnable"
    )


def _guard_branches(use: private.PrivateUse) -> None:
    builder = _builder()
    assert set(builder.branches) == {"gate"}, _changed(use, "it no longer maps a node to its branches")
    specs = builder.branches["gate"]
    [(key, spec)] = specs.items()
    routed: list[str] = []
    specs[key] = spec._replace(path=private.node_runnable(lambda s: routed.append("new") or "tool", None))
    builder.compile().invoke({})
    assert routed == ["new"], _changed(use, "compile no longer routes with the path it holds")


def _guard_channels(use: private.PrivateUse) -> None:
    builder = StateGraph(Rows)
    builder.add_node("add", lambda state: {"rows": [1]})
    builder.add_edge(START, "add")
    assert isinstance(builder.channels.get("rows"), BinaryOperatorAggregate), _changed(
        use, f"StateGraph.channels holds {builder.channels.get('rows')!r}"
    )
    assert all(isinstance(fields, dict) and "rows" in fields for fields in builder.schemas.values()), (
        _changed(use, "StateGraph.schemas no longer maps each schema to its keys' channels")
    )
    private.replace_channels(builder, lambda key, _c: DeltaChannel(add_rows_delta, list))
    assert isinstance(builder.compile().channels["rows"], DeltaChannel), _changed(
        use, "compile no longer reads StateGraph.channels"
    )


def _guard_writers(use: private.PrivateUse) -> None:
    compiled = _builder().compile()
    writers = getattr(compiled.nodes["gate"], "writers", None)
    assert isinstance(writers, list), _changed(use, f"a compiled node's writers are now {writers!r}")
    assert any(isinstance(w, private.RunnableCallable) for w in writers), _changed(
        use, "a node with a conditional edge has no RunnableCallable writer"
    )
    assert private.read_routes_lean(compiled) == 1, _changed(use, "the branch writer is not found there")


def _guard_slots(use: private.PrivateUse) -> None:
    assert _slots(BinaryOperatorAggregate) == set(use.attributes) == set(private.AGGREGATE_SLOTS), _changed(
        use, f"BinaryOperatorAggregate's slots are now {sorted(_slots(BinaryOperatorAggregate))}"
    )
    assert _slots(LastValue) == set(private.LAST_VALUE_SLOTS), _changed(
        use, f"LastValue's slots are now {sorted(_slots(LastValue))}"
    )


def _guard_checkpointer(use: private.PrivateUse) -> None:
    key = _imported(use)
    assert "CONFIG_KEY_CHECKPOINTER" in langgraph_constants.__all__, _changed(use, "it is no longer exported")
    configurable, saver = _inside_a_node()
    assert configurable.get(key) is saver, _changed(use, "a task's config no longer holds the checkpointer")


GUARDS: dict[str, Callable[[private.PrivateUse], None]] = {
    "langgraph._internal._runnable.RunnableCallable": _guard_runnable_callable,
    "langgraph._internal._constants.CONFIG_KEY_DURABILITY": _guard_durability,
    "langgraph._internal._constants.CONFIG_KEY_READ": _guard_read,
    "langgraph._internal._constants.CONFIG_KEY_SCRATCHPAD": _guard_scratchpad,
    "langgraph._internal._typing.MISSING": _guard_missing,
    "langgraph.graph._branch.BranchSpec": _guard_branch_spec,
    "langgraph.pregel._algo.local_read": _guard_local_read,
    "langgraph.pregel._read.ChannelRead": _guard_channel_read,
    "langgraph.graph.StateGraph.nodes": _guard_nodes,
    "langgraph.graph.StateGraph.branches": _guard_branches,
    "langgraph.graph.StateGraph.channels": _guard_channels,
    "langgraph.pregel._read.PregelNode.writers": _guard_writers,
    "langgraph.channels.BinaryOperatorAggregate.__slots__": _guard_slots,
    "langgraph.constants.CONFIG_KEY_CHECKPOINTER": _guard_checkpointer,
}


@pytest.mark.parametrize("use", private.PRIVATE_NAMES, ids=lambda use: use.name)
def test_each_listed_private_name_is_still_what_the_module_relies_on(use):
    assert use.name in GUARDS, f"{use.name} is listed in PRIVATE_NAMES without a guard test here"
    try:
        GUARDS[use.name](use)
    except AssertionError:
        raise
    except Exception as error:  # a name that moved, an attribute gone, a call that now raises
        pytest.fail(_changed(use, f"{type(error).__name__}: {error}"))


def test_every_guard_has_its_row():
    assert set(GUARDS) == {use.name for use in private.PRIVATE_NAMES}


#: Attributes the module reads that are public API: Python's (dict, partial, dataclasses, bound
#: methods), a Runnable's ``name`` and a channel's public methods.
PUBLIC_ATTRIBUTES = frozenset(
    {"__func__", "__new__", "append", "copy", "dataclass", "from_checkpoint", "get", "items", "name", "pop"}
    | {"replace", "setdefault", "update", "values"}
)


def _accesses() -> tuple[set[str], set[str], set[str]]:
    """In nodes/langgraph_private.py: the private names it imports from LangGraph (from a private
    module, or underscored), every name it imports from LangGraph, and every attribute it reads or
    sets (``x.attr``, ``getattr(x, "attr")``)."""
    tree = ast.parse((ROOT / "nodes" / "langgraph_private.py").read_text(encoding="utf-8"))
    private_imports: set[str] = set()
    imports: set[str] = set()
    attributes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "langgraph":
            hidden = any(part.startswith("_") for part in node.module.split("."))
            for alias in node.names:
                imports.add(f"{node.module}.{alias.name}")
                if hidden or alias.name.startswith("_"):
                    private_imports.add(f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            private_imports.update(
                a.name for a in node.names if a.name.startswith("langgraph.") and "._" in f".{a.name}"
            )
        elif isinstance(node, ast.Attribute):
            attributes.add(node.attr)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "setattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
        ):
            attributes.add(node.args[1].value)
    return private_imports, imports, attributes


def test_the_table_lists_every_private_access_of_the_module():
    """A new private import, or an attribute that is neither public API (``PUBLIC_ATTRIBUTES``) nor
    listed under a row of ``PRIVATE_NAMES``, fails here: list it, with a guard in ``GUARDS``."""
    private_imports, imports, attributes = _accesses()
    names = {use.name for use in private.PRIVATE_NAMES}
    assert private_imports <= names, (
        f"private LangGraph imports not in PRIVATE_NAMES: {sorted(private_imports - names)}"
    )
    listed = {attribute for use in private.PRIVATE_NAMES for attribute in use.attributes}
    unlisted = attributes - listed - PUBLIC_ATTRIBUTES
    assert not unlisted, (
        f"nodes/langgraph_private.py reads {sorted(unlisted)}: list each under its row of PRIVATE_NAMES "
        "(or, if it is public API, in PUBLIC_ATTRIBUTES here)"
    )
    for use in private.PRIVATE_NAMES:  # no row left over from a use that is gone
        used = use.name in imports or (use.attributes and set(use.attributes) <= attributes)
        assert used, f"{use.name} is in PRIVATE_NAMES but nodes/langgraph_private.py no longer uses it"


def test_the_table_was_checked_against_the_floor_within_the_supported_range():
    """``CHECKED_AGAINST`` (each row's ``checked``) lies in pyproject's ``langgraph`` range and
    includes its floor: raise the floor, check the rows again."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        dependencies = tomllib.load(file)["project"]["dependencies"]
    [requirement] = [r for r in map(Requirement, dependencies) if r.name == "langgraph"]
    floor = next(spec.version for spec in requirement.specifier if spec.operator == ">=")
    assert floor in private.CHECKED_AGAINST, f"PRIVATE_NAMES was not checked against langgraph {floor}"
    for use in private.PRIVATE_NAMES:
        outside = [v for v in use.checked if v not in requirement.specifier]
        assert use.checked and not outside, f"{use.name} was checked against {outside or 'no release'}"
