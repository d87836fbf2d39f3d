"""The two references a governed graph is measured against (benchmark 1).

- :func:`bare_graph` — (b): the same LLM nodes as a bare LangGraph graph, without gateway nodes.
  One node per LLM call of the recorded trajectory, in order, each running the pattern's own LLM
  node function on the state the governed run gave it (what the gateway nodes would have
  produced); nothing else.
- :class:`PlainLoop` — (c): a plain-Python loop over the pattern's own node and routing functions
  (so the same policy functions, trace and history rows), merging updates with the same
  reducers. No LangGraph at run time.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Mapping
from functools import partial
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.channels.binop import BinaryOperatorAggregate
from langgraph.graph import END, START, StateGraph

from bench.replay import Trajectory
from nodes.langgraph_private import node_runnable
from nodes.llm_json import LLMSteps, llm_node


def _replayed(
    state: Mapping[str, Any], config: RunnableConfig, runtime: Any, *, steps: Any, given: dict[str, Any]
) -> LLMSteps:
    result: LLMSteps = steps(given, config, runtime)
    return result


def bare_graph(governed: Any, trajectory: Trajectory) -> Any:
    """(b) for ``governed`` (a pattern's compiled graph, built with the replay model)."""
    builder = governed.builder
    bare = StateGraph(builder.state_schema, context_schema=builder.context_schema)
    previous = START
    for index, (node, given) in enumerate(trajectory.llm_inputs):
        steps = builder.nodes[node].runnable.llm_steps
        name = f"{index}_{node}"
        bare.add_node(name, llm_node(partial(_replayed, steps=steps, given=given)))
        bare.add_edge(previous, name)
        previous = name
    bare.add_edge(previous, END)
    return bare.compile(name=f"{trajectory.pattern}_bare")


class PlainLoop:
    """(c): run a compiled pattern's node functions in a Python loop, as its edges route them."""

    def __init__(self, governed: Any) -> None:
        builder = governed.builder
        self.nodes = {name: spec.runnable for name, spec in builder.nodes.items()}
        self.routes = {
            source: next(iter(branches.values())).path.func for source, branches in builder.branches.items()
        }
        self.edges = {source: target for source, target in builder.edges}
        self.reducers = {
            key: channel.operator
            for key, channel in builder.channels.items()
            if isinstance(channel, BinaryOperatorAggregate)
        }

    def _call(self, name: str, state: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
        runnable = self.nodes[name]
        kwargs: dict[str, Any] = {}
        if "config" in runnable.func_accepts:
            kwargs["config"] = config
        if "runtime" in runnable.func_accepts:
            kwargs["runtime"] = None  # policy_for() then uses the policy the node was built with
        result: dict[str, Any] = runnable.func(state, **kwargs)
        return result

    def _merge(self, state: dict[str, Any], update: Mapping[str, Any]) -> None:
        for key, value in update.items():
            reducer = self.reducers.get(key)
            # an empty start, as LangGraph's channels give it (add_messages refuses a None)
            state[key] = reducer(state.get(key) or type(value)(), value) if reducer else value

    def invoke(self, given: Mapping[str, Any]) -> dict[str, Any]:
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        state: dict[str, Any] = dict(given)
        node = self.edges[START]
        while node != END:
            self._merge(state, self._call(node, state, config))
            route = self.routes.get(node)
            node = route(state) if route else self.edges[node]
        return state


def _nothing(state: Mapping[str, Any]) -> None:
    return None


def noop_chain(governed: Any, steps: int) -> Any:
    """LangGraph's own cost per superstep: ``steps`` nodes that do nothing, in a chain over the
    pattern's state schema (as many channels to read and copy as the governed graph)."""
    builder = governed.builder
    chain = StateGraph(builder.state_schema, context_schema=builder.context_schema)
    previous = START
    for index in range(steps):
        chain.add_node(f"n{index}", _nothing)
        chain.add_edge(previous, f"n{index}")
        previous = f"n{index}"
    chain.add_edge(previous, END)
    return chain.compile(name="noop_chain")


async def _wait(state: Mapping[str, Any], *, seconds: float) -> None:
    await asyncio.sleep(seconds)


def floor_graph(governed: Any, steps: int, calls: int, latency: float) -> Any:
    """What LangGraph alone costs a run under the async API: as many supersteps as the governed
    run, ``calls`` of them waiting ``latency`` seconds (the model), the others doing nothing on the
    event loop (where the gateway nodes run), over the pattern's state schema."""
    builder = governed.builder
    chain = StateGraph(builder.state_schema, context_schema=builder.context_schema)
    waits = {round((i + 1) * steps / (calls + 1)) for i in range(calls)}
    previous = START
    for index in range(steps):
        name = f"n{index}"
        wait = partial(_wait, seconds=latency)
        node = node_runnable(None, wait) if index in waits else node_runnable(_nothing, None)
        chain.add_node(name, node)
        chain.add_edge(previous, name)
        previous = name
    chain.add_edge(previous, END)
    return chain.compile(name="floor")
