"""What every corpus domain shares: the user's systems for one run (``World``: what the corpus
planted, what the tools did) and the domain as a user writes it (``Domain``: tools, policy,
subject)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.tools import BaseTool

from policies.supervisor import SupervisorPolicy, ToolRules

READ = ToolRules(read_only=True)


@dataclass
class World:
    """The user's systems for one run: what the corpus planted, and what the tools did."""

    plants: dict[str, str] = field(default_factory=dict)
    effects: list[dict[str, Any]] = field(default_factory=list)

    def at(self, site: str) -> str:
        return (" " + self.plants[site]) if site in self.plants else ""

    def act(self, tool_name: str, **args: Any) -> dict[str, Any]:
        self.effects.append({"tool": tool_name, **args})
        return {"status": "done", **args}


@dataclass(frozen=True)
class Domain:
    tools: Callable[[World], list[BaseTool]]
    policy: Callable[[list[BaseTool]], SupervisorPolicy]
    subject: dict[str, Any] = field(default_factory=dict)
