"""Compiling a pattern's graph the same way for every pattern."""

from __future__ import annotations

from typing import Any, Literal

from langgraph._internal._constants import CONFIG_KEY_DURABILITY
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import StateGraph
from langgraph.graph.state import CompiledStateGraph

Durability = Literal["sync", "async", "exit"]


def compile_pattern(
    builder: StateGraph[Any, Any, Any, Any],
    *,
    name: str,
    checkpointer: BaseCheckpointSaver | None,
    durability: Durability = "async",
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile ``builder`` as pattern ``name``.

    Every checkpoint of a run carries ``pattern`` in its metadata, so runs kept by a checkpointer
    can be listed and reopened by pattern (``graphs.runs``). ``durability`` is the run's default
    persistence mode (a caller's ``invoke(..., durability=...)`` still wins): ``"sync"`` writes
    each step's checkpoint before the next step starts, for patterns whose tools change the world.
    The module-level graphs have no checkpointer: the LangGraph server then picks the mode.
    """
    compiled = builder.compile(checkpointer=checkpointer, name=name)
    config: dict[str, Any] = {"metadata": {"pattern": name}}
    if checkpointer is not None:  # durability means nothing without one (and "sync" trips LangGraph)
        config["configurable"] = {CONFIG_KEY_DURABILITY: durability}
    return compiled.with_config(config)  # type: ignore[arg-type]
