"""What every corpus domain shares: the user's systems for one run (``World``: what the corpus
planted, what the tools did) and the domain as a user writes it (``Domain``: tools, policy,
subject)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.tools import BaseTool, tool

from policies.supervisor import (
    ArgSource,
    Confidentiality,
    Destinations,
    Reader,
    Requested,
    SupervisorPolicy,
    ToolRules,
)

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

    def page(self, tool_name: str, url: str, pages: dict[str, str], missing: str) -> dict[str, Any]:
        """The web page at ``url`` that ``tool_name`` fetches (recorded): its text (``pages``' by
        address, ``missing`` for any other) and what was planted at ``page`` after it."""
        self.effects.append({"tool": tool_name, "url": url})
        address = url.split("://", 1)[-1].rstrip("/")
        return {"url": url, "text": pages.get(address, missing) + self.at("page")}

    def noted(
        self, rows: list[dict[str, Any]], field: str, site: str, key: str, value: Any, others: str = ""
    ) -> list[dict[str, Any]]:
        """``rows`` with the free text each row's own writer sets: ``field`` of the row whose ``key``
        is ``value`` holds what was planted at ``site``, the other rows' holds ``others``."""
        planted = self.at(site).strip()
        return [{**row, field: planted if row[key] == value else others} for row in rows]

    def and_planted(
        self, rows: list[dict[str, Any]], site: str, row: dict[str, Any], field: str
    ) -> list[dict[str, Any]]:
        """``rows`` (copies) and, when text was planted at ``site``, one more: ``row`` with the
        planted text as its ``field`` (a message, a review, an invitation a stranger wrote)."""
        planted = self.at(site).strip()
        return [dict(r) for r in rows] + ([{**row, field: planted}] if planted else [])


def action(world: World) -> Callable[[Callable[..., Any]], BaseTool]:
    """A decorator: the tool that does what a function declares (its name, arguments and
    description; its body only a docstring), each call recorded as done in ``world``
    (:meth:`World.act`, looked up when called: a stage may swap its world between runs)."""

    def decorate(declared: Callable[..., Any]) -> BaseTool:
        signature = inspect.signature(declared)

        @functools.wraps(declared)
        def run(*args: Any, **kwargs: Any) -> dict[str, Any]:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return world.act(declared.__name__, **bound.arguments)

        return tool(run)

    return decorate


def human_approves(requested: Requested) -> ToolRules:
    """The rules of a side effect a human approves (an account change, a deletion): asked for
    where the request asks for it (``requested``), the request's word standing for the approval."""
    return ToolRules(requested=requested, require_approval=True, request_as_approval=True)


def event_sources(people: list[str]) -> list[ArgSource]:
    """Where a new event's attendees come from (``people``'s sources), and its title (the request,
    or a trusted tool)."""
    return [
        ArgSource(arg="attendees", sources=people, reason="attendee_not_known"),
        ArgSource(arg="title", sources=["request", "trusted"], reason="event_not_asked_for"),
    ]


def careful_policy(
    tools: list[BaseTool],
    reads: tuple[str, ...],
    /,
    rules: dict[str, ToolRules],
    reader: dict[str, Any] | None = None,
    **fields: Any,
) -> SupervisorPolicy:
    """The policy a careful user writes from docs/own-agent.md over ``tools``: ``reads`` only read,
    ``rules`` for the others, any tool's destination from the user or a trusted source, confidential
    values only to ``reader`` (a :class:`Reader`'s fields), the names a final answer recommends
    asked about, and ``fields``."""
    if reader is not None:
        fields["confidentiality"] = Confidentiality(readers=[Reader(**reader)])
    return SupervisorPolicy.for_tools(
        tools,
        destinations=Destinations(),
        final_entities="escalate",
        rules={**{name: READ for name in reads}, **rules},
        **fields,
    )


@dataclass(frozen=True)
class Domain:
    tools: Callable[[World], list[BaseTool]]
    policy: Callable[[list[BaseTool]], SupervisorPolicy]
    subject: dict[str, Any] = field(default_factory=dict)
