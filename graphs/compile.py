"""Compiling a pattern's graph the same way for every pattern."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from langgraph.channels import BinaryOperatorAggregate, DeltaChannel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, StateGraph
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore

from nodes.audit import RowChannels, log_rows
from nodes.langgraph_private import (
    Durability,
    durability_config,
    read_routes_lean,
    replace_channels,
    run_pure_work_on_loop,
)
from nodes.state import ROWS_SNAPSHOT_FREQUENCY, add_messages_delta, add_rows, add_rows_delta
from nodes.trace import is_stopped

__all__ = [
    "DELTA_CHANNELS_ENV",
    "Durability",
    "add_chain",
    "compile_pattern",
    "delta_channels_enabled",
    "lean_routes_enabled",
    "pattern_builder",
    "use_delta_channels",
]

#: The switch, on unless set to 0 (or false, no, off): every pattern's graph compiled while it is on
#: keeps its conversation (``messages``, the Supervisor's ``worker_conversation``) and its audit
#: rows (``trace``, ``history``) as LangGraph's delta channels (beta; docs/durable-runs.md). On by
#: default since issue 37: a long thread on SQLite then keeps about a tenth of plain
#: ``create_agent``'s bytes, where it kept twice them (docs/benchmarks.md, section 7).
DELTA_CHANNELS_ENV = "AGENT_PATTERNS_DELTA_CHANNELS"
#: A reducer channel → the batch reducer of the same meaning a delta channel replays its writes with.
_DELTA_REDUCERS: dict[Any, Callable[[Any, Sequence[Any]], Any]] = {
    add_messages: add_messages_delta,
    add_rows: add_rows_delta,
}


#: The way back: set to 0 (or false, no, off), conditional edges read the state LangGraph's own way
#: (a copy of every channel at every edge) instead of :func:`nodes.langgraph_private.read_routes_lean`.
LEAN_ROUTES_ENV = "AGENT_PATTERNS_LEAN_ROUTES"


def _not_off(name: str, env: Mapping[str, str] | None) -> bool:
    """Is the switch ``$name`` unset or true (anything but 0, false, no, off)?"""
    value = (os.environ if env is None else env).get(name, "")
    return value.strip().lower() not in ("0", "false", "no", "off")


def lean_routes_enabled(env: Mapping[str, str] | None = None) -> bool:
    """Is ``$AGENT_PATTERNS_LEAN_ROUTES`` unset or true (anything but 0, false, no, off)?"""
    return _not_off(LEAN_ROUTES_ENV, env)


def delta_channels_enabled(env: Mapping[str, str] | None = None) -> bool:
    """Is ``$AGENT_PATTERNS_DELTA_CHANNELS`` unset or true (anything but 0, false, no, off)?"""
    return _not_off(DELTA_CHANNELS_ENV, env)


def use_delta_channels(builder: StateGraph[Any, Any, Any, Any]) -> list[str]:
    """Make every ``add_messages`` and ``add_rows`` key of ``builder`` a delta channel: a
    checkpoint then stores what each step wrote to it, and a snapshot of the whole list every 100
    updates (audit rows: every update), instead of the whole list every time (SQLite stores every
    channel in every checkpoint). Returns the keys changed."""

    def delta(_key: str, channel: Any) -> DeltaChannel[Any] | None:
        reducer = _DELTA_REDUCERS.get(getattr(channel, "operator", None))
        if not isinstance(channel, BinaryOperatorAggregate) or reducer is None:
            return None
        if reducer is add_rows_delta:  # one run's rows: small, kept whole where they changed
            return DeltaChannel(reducer, list, snapshot_frequency=ROWS_SNAPSHOT_FREQUENCY)
        return DeltaChannel(reducer, list)

    return replace_channels(builder, delta)


def pattern_builder(
    state: type[Any], policy: type[Any], input_schema: type[Any], output_schema: type[Any]
) -> StateGraph[Any, Any, Any, Any]:
    """A pattern's graph builder: its state, its input and output, and its policy as the run-time
    context (a run's ``context`` overrides fields of the graph's policy: :func:`nodes.run.policy_for`)."""
    return StateGraph(state, context_schema=policy, input_schema=input_schema, output_schema=output_schema)


def onward(node: str, then: str, schema: type[Any] | None = None) -> Callable[[Mapping[str, Any]], str]:
    """The route after ``node`` (named ``route_after_<node>``): on to ``then``, or to the end when
    ``node`` stopped the run. ``schema``: the state it reads (the graph's state schema)."""

    def route(state: Mapping[str, Any]) -> str:
        return END if is_stopped(state) else then

    route.__name__ = route.__qualname__ = f"route_after_{node}"
    if schema is not None:
        route.__annotations__ = {"state": schema, "return": str}
    return route


def add_chain(builder: StateGraph[Any, Any, Any, Any], *nodes: str) -> None:
    """Chain ``nodes``: each but the last goes on to the next one, or to the end when it stopped
    the run (:func:`onward`)."""
    for node, then in pairwise(nodes):
        builder.add_conditional_edges(node, onward(node, then, builder.state_schema), [then, END])


def compile_pattern(
    builder: StateGraph[Any, Any, Any, Any],
    *,
    name: str,
    checkpointer: BaseCheckpointSaver | None,
    store: BaseStore | None = None,
    durability: Durability = "async",
    io_nodes: Iterable[str] | None = None,
    audit: RowChannels | None = None,
    delta_channels: bool | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile ``builder`` as pattern ``name``.

    Every checkpoint of a run carries ``pattern`` in its metadata, so runs kept by a checkpointer
    can be listed and reopened by pattern (``apps.operations.runs``). ``durability`` is the run's default
    persistence mode (a caller's ``invoke(..., durability=...)`` still wins): ``"sync"`` writes
    each step's checkpoint before the next step starts, for patterns whose tools change the world.
    The module-level graphs have no checkpointer: the LangGraph server then picks the mode.

    ``io_nodes`` names the nodes that call tools; given, every other plain node is taken to be
    pure work on the state and runs on the event loop under the async API (routing functions
    always do). Left out, nodes run where LangGraph puts them (a worker thread).

    ``audit`` names the state keys of the run's audit rows: each node then writes the rows it
    adds to the thread's audit log in the graph's store, when it has one (:mod:`nodes.audit`).

    ``delta_channels``: the conversation and the audit rows as delta channels
    (:func:`use_delta_channels`); None (the default): as ``$AGENT_PATTERNS_DELTA_CHANNELS`` says
    (on unless it is 0, false, no or off).
    """
    if delta_channels if delta_channels is not None else delta_channels_enabled():
        use_delta_channels(builder)
    run_pure_work_on_loop(builder, io_nodes)
    if audit is not None:
        log_rows(builder, audit)
    compiled = builder.compile(checkpointer=checkpointer, store=store, name=name)
    if lean_routes_enabled():
        read_routes_lean(compiled)
    config: dict[str, Any] = {"metadata": {"pattern": name}}
    if checkpointer is not None:  # durability means nothing without one (and "sync" trips LangGraph)
        config["configurable"] = durability_config(durability)
    return compiled.with_config(config)  # type: ignore[arg-type]
