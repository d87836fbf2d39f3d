"""Guard for LangGraph's private API (``nodes/langgraph_private.py``): each private name and the
behaviour it is used for, checked against the installed LangGraph. A failure here means a LangGraph
upgrade moved something the project relies on: fix ``nodes/langgraph_private.py``, nowhere else."""

from __future__ import annotations

import asyncio
import inspect
import re
import sqlite3
import threading
from functools import partial
from pathlib import Path
from typing import Annotated, Literal, TypedDict

import pytest
from langchain_core.runnables import RunnableConfig
from langgraph.channels import BinaryOperatorAggregate, DeltaChannel, LastValue
from langgraph.channels.base import EmptyChannelError
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

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
    """``stored_value`` (``agent-patterns audit`` reads checkpoints without the graph) relies on a
    delta channel's snapshot being LangGraph's ``_DeltaSnapshot`` with the value as ``.value``."""
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
    assert snapshots and all(type(v).__name__ == "_DeltaSnapshot" for v in snapshots), (
        CHANGED
        + f"a delta channel's stored value is now {type(snapshots[0]).__name__ if snapshots else None}"
    )
    assert private.stored_value(snapshots[0]) == done["trace"], CHANGED + "_DeltaSnapshot.value"
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
