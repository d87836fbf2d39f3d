"""Compiling a pattern's graph the same way for every pattern."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import partial
from typing import Any, Literal

from langchain_core.runnables.config import run_in_executor
from langgraph._internal._constants import CONFIG_KEY_DURABILITY
from langgraph._internal._runnable import RunnableCallable
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import StateGraph
from langgraph.graph.state import CompiledStateGraph

Durability = Literal["sync", "async", "exit"]


def _threaded(runnable: Any) -> bool:
    """True for a sync function LangGraph would run in the event loop's default executor under
    the async API (how it wraps every plain function it is given)."""
    afunc = getattr(runnable, "afunc", None)
    return (
        isinstance(runnable, RunnableCallable)
        and runnable.func is not None
        and isinstance(afunc, partial)
        and afunc.func is run_in_executor
    )


def _on_loop(runnable: RunnableCallable) -> RunnableCallable:
    """The same sync function, called on the event loop under the async API: no thread hop."""
    return RunnableCallable(runnable.func, None, name=runnable.name, tags=runnable.tags, trace=runnable.trace)


def _run_pure_work_on_loop(builder: StateGraph[Any, Any, Any, Any], io_nodes: Iterable[str] | None) -> None:
    """Under ``ainvoke``/``astream`` LangGraph runs every sync function (node or routing function)
    in the event loop's default executor: a thread hop per step, and a few threads shared by all
    concurrent runs. Routing functions and gateway nodes are pure, quick work on the state, so
    they run on the loop itself. Nodes in ``io_nodes`` (those calling the user's tools, which may
    block on I/O) keep their thread; LLM nodes (``nodes.llm_json.llm_node``) await the model."""
    for branches in builder.branches.values():
        for key, spec in list(branches.items()):
            if _threaded(spec.path):
                branches[key] = spec._replace(path=_on_loop(spec.path))  # type: ignore[arg-type]
    if io_nodes is None:
        return
    keep = set(io_nodes)
    for name, node in list(builder.nodes.items()):
        if name not in keep and _threaded(node.runnable):
            builder.nodes[name] = dataclasses.replace(node, runnable=_on_loop(node.runnable))  # type: ignore[arg-type]


def compile_pattern(
    builder: StateGraph[Any, Any, Any, Any],
    *,
    name: str,
    checkpointer: BaseCheckpointSaver | None,
    durability: Durability = "async",
    io_nodes: Iterable[str] | None = None,
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
    """
    _run_pure_work_on_loop(builder, io_nodes)
    compiled = builder.compile(checkpointer=checkpointer, name=name)
    config: dict[str, Any] = {"metadata": {"pattern": name}}
    if checkpointer is not None:  # durability means nothing without one (and "sync" trips LangGraph)
        config["configurable"] = {CONFIG_KEY_DURABILITY: durability}
    return compiled.with_config(config)  # type: ignore[arg-type]
