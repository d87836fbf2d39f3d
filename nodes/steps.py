"""LangGraph's recursion limit kept as one of the run's budgets.

LangGraph ends an invocation that runs more than ``recursion_limit`` supersteps by raising
``GraphRecursionError``, which would lose the run's named ending. The pattern budgets (steps, tool
calls, plan length) normally end a run long before LangGraph's default limit; a caller's smaller
``recursion_limit`` (LangChain's old default of 25, say) or a policy with very large budgets could
reach it first. So a run checks, before it starts and at the head of every loop, that the supersteps
it needs until its next check still fit, and otherwise stops with ``recursion_limit``.

An invocation ends cleanly only when its last node runs in a superstep no later than
``first + recursion_limit - 2``, ``first`` being the step of its first node
(``config["metadata"]["langgraph_step"]``): LangGraph counts the superstep that finds nothing left
to run, and raises before it looks. So ``recursion_limit=1`` cannot end any run; from 2 on, every
run ends by name. A run resumed after an interrupt is measured from the run's own first step, which
can only stop it earlier, never let it overrun.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig

RECURSION_LIMIT = "recursion_limit"


def superstep(config: RunnableConfig | None) -> int:
    """The superstep the current node runs in."""
    metadata = (config or {}).get("metadata") or {}
    return int(metadata.get("langgraph_step") or 0)


def supersteps_left(config: RunnableConfig | None, first_step: int) -> int | None:
    """How many supersteps may still run after the current one with the run still ending cleanly
    (negative: not even the current one; None: no limit in the config)."""
    limit = (config or {}).get("recursion_limit")
    if not isinstance(limit, int):
        return None
    return first_step + limit - 2 - superstep(config)


def out_of_supersteps(config: RunnableConfig | None, first_step: Any, needed: int) -> bool:
    """Would the recursion limit cut the run before ``needed`` more supersteps have run?"""
    if not isinstance(first_step, int):
        return False
    left = supersteps_left(config, first_step)
    return left is not None and left < needed


def superstep_figures(config: RunnableConfig | None, needed: int) -> Mapping[str, Any]:
    """What a ``recursion_limit`` stop records."""
    return {"recursion_limit": (config or {}).get("recursion_limit"), "supersteps_needed": needed}
