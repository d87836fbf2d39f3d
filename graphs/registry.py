"""The patterns the CLI knows: their graph module, policy model and demo input."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from demo_tools import rag as rag_demo
from demo_tools import reflection as reflection_demo
from demo_tools import research as research_demo
from nodes.state import RUN_CONTRACT_KEYS
from policies.base import BasePolicy
from policies.rag import RagPolicy
from policies.reflection import ReflectionPolicy
from policies.research import ResearchPolicy


@dataclass(frozen=True)
class Pattern:
    name: str
    module_name: str
    policy: type[BasePolicy]
    demo_input: Callable[[], dict[str, Any]]
    #: How often the demo pauses for a human when no automatic approver stands in (Studio).
    demo_interrupts: int = 0

    @property
    def module(self) -> ModuleType:
        return importlib.import_module(self.module_name)


PATTERNS: dict[str, Pattern] = {
    "reflection": Pattern("reflection", "graphs.reflection", ReflectionPolicy, reflection_demo.demo_input),
    "research": Pattern("research", "graphs.research", ResearchPolicy, research_demo.demo_input),
    "rag": Pattern("rag", "graphs.rag", RagPolicy, rag_demo.demo_input),
}


def run_result(graph: Any, values: dict[str, Any]) -> dict[str, Any]:
    """The run's result: the graph's output keys that are set, the run contract's first."""
    keys = [k for k in RUN_CONTRACT_KEYS if k in graph.output_channels]
    keys += [k for k in graph.output_channels if k not in keys]
    return {k: values[k] for k in keys if values.get(k) is not None}
