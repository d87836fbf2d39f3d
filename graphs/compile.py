"""Compiling a pattern's graph the same way for every pattern."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore

from nodes.audit import RowChannels, log_rows
from nodes.langgraph_private import Durability, durability_config, run_pure_work_on_loop

__all__ = ["Durability", "compile_pattern"]


def compile_pattern(
    builder: StateGraph[Any, Any, Any, Any],
    *,
    name: str,
    checkpointer: BaseCheckpointSaver | None,
    store: BaseStore | None = None,
    durability: Durability = "async",
    io_nodes: Iterable[str] | None = None,
    audit: RowChannels | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile ``builder`` as pattern ``name``.

    Every checkpoint of a run carries ``pattern`` in its metadata, so runs kept by a checkpointer
    can be listed and reopened by pattern (``graphs.runs``). ``durability`` is the run's default
    persistence mode (a caller's ``invoke(..., durability=...)`` still wins): ``"sync"`` writes
    each step's checkpoint before the next step starts, for patterns whose tools change the world.
    The module-level graphs have no checkpointer: the LangGraph server then picks the mode.

    ``io_nodes`` names the nodes that call tools; given, every other plain node is taken to be
    pure work on the state and runs on the event loop under the async API (routing functions
    always do). Left out, nodes run where LangGraph puts them (a worker thread).

    ``audit`` names the state keys of the run's audit rows: each node then writes the rows it
    adds to the thread's audit log in the graph's store, when it has one (:mod:`nodes.audit`).
    """
    run_pure_work_on_loop(builder, io_nodes)
    if audit is not None:
        log_rows(builder, audit)
    compiled = builder.compile(checkpointer=checkpointer, store=store, name=name)
    config: dict[str, Any] = {"metadata": {"pattern": name}}
    if checkpointer is not None:  # durability means nothing without one (and "sync" trips LangGraph)
        config["configurable"] = durability_config(durability)
    return compiled.with_config(config)  # type: ignore[arg-type]
