"""The patterns the CLI knows: their graph module, policy model, input keys and demo input.

Importing this module is cheap (no LangGraph, LangChain or pydantic): the CLI lists patterns and
their inputs from it in milliseconds. The graph module, the policy model and the demo data are
imported when first used (:attr:`Pattern.module`, :attr:`Pattern.policy`, :meth:`Pattern.demo_input`).
"""

from __future__ import annotations

import functools
import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, Literal

from nodes.contract import RUN_CONTRACT_KEYS

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.store.base import BaseStore

    from demo_tools.ledger import Ledger
    from policies.base import BasePolicy
    from policies.supervisor import SupervisorPolicy

#: The JSON types an input key may have, by the name the CLI shows.
InputType = Literal["text", "object"]


@dataclass(frozen=True)
class InputKey:
    """One key of a pattern's input (its graph's ``input_schema``)."""

    name: str
    type: InputType
    required: bool
    help: str

    def describe(self) -> str:
        return f"{self.name} ({self.type}{', required' if self.required else ''})"


def _load(path: str) -> Any:
    """``"package.module:attribute"`` imported."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class Pattern:
    name: str
    module_name: str
    #: ``"module:Class"`` of the pattern's policy model.
    model_path: str
    #: The demo data module; its ``demo_input()`` is the demo's input.
    demo_module: str
    #: The graph's input keys (``tests/test_inputs.py`` checks them against its ``input_schema``).
    inputs: tuple[InputKey, ...]
    #: One line: what the pattern shows.
    summary: str
    #: How often the demo pauses for a human when no automatic approver stands in (Studio).
    demo_interrupts: int = 0
    #: Adjusts the policy for a CLI run: ``(policy, human)`` where ``human`` is ``--human``.
    cli_policy: Callable[[Any, bool], BasePolicy] | None = None
    #: Extra ``build_graph`` arguments that put the demo tools' side effects in ``ledger``.
    ledger_tools: Callable[[Ledger], dict[str, Any]] | None = None
    #: ``"module:function"`` making the demo's policy, fields given as keywords over it (default:
    #: the model itself).
    demo_policy_path: str | None = None
    #: Its ``build_graph`` takes a ``store`` where each run's audit rows are kept (``nodes.audit``).
    audit_log: bool = False

    @property
    def module(self) -> ModuleType:
        return importlib.import_module(self.module_name)

    @property
    def model(self) -> type[BasePolicy]:
        """The pattern's policy model."""
        model: type[BasePolicy] = _load(self.model_path)
        return model

    def policy(self, **fields: Any) -> BasePolicy:
        """The demo's policy, with ``fields`` over it."""
        make: Callable[..., BasePolicy] = (
            _load(self.demo_policy_path) if self.demo_policy_path else self.model
        )
        return make(**fields)

    def policy_with(self, data: dict[str, Any]) -> BasePolicy:
        """The demo's policy with the fields of ``data`` (a policy file) over it, validated. Only
        the fields the demo's policy set and those of ``data`` count as set
        (``model_fields_set``), so a default the CLI adjusts (the Supervisor's automatic approver)
        is still adjusted unless the file names it."""
        base = self.policy()
        merged = self.model.model_validate({**base.model_dump(), **data})
        fields = dict(merged)
        return self.model.model_construct(_fields_set=base.model_fields_set | set(data), **fields)

    def demo_input(self) -> dict[str, Any]:
        """A fresh copy of the demo's input."""
        data: dict[str, Any] = _load(f"{self.demo_module}:demo_input")()
        return data

    def input_keys(self) -> Mapping[str, InputKey]:
        return {key.name: key for key in self.inputs}

    def build(
        self,
        *,
        checkpointer: BaseCheckpointSaver | None = None,
        llm: BaseChatModel | None = None,
        policy: BasePolicy | None = None,
        ledger: Ledger | None = None,
        store: BaseStore | None = None,
    ) -> Any:
        """The pattern's compiled graph (the demo's policy unless ``policy`` is given); with
        ``ledger``, its demo tools record side effects there; with ``store``, a pattern that keeps
        an audit log (``audit_log``) keeps it there."""
        extra = self.ledger_tools(ledger) if ledger is not None and self.ledger_tools else {}
        if store is not None and self.audit_log:
            extra["store"] = store
        policy = policy if policy is not None else self.policy()
        return self.module.build_graph(checkpointer=checkpointer, llm=llm, policy=policy, **extra)


def _supervisor_cli_policy(policy: SupervisorPolicy, human: bool) -> SupervisorPolicy:
    """The CLI lets the automatic approver answer escalations, unless ``--human`` is given (then
    the run pauses at the interrupt) or the policy file sets ``auto_approver_enabled`` itself."""
    if human:
        return policy.model_copy(update={"auto_approver_enabled": False})
    if "auto_approver_enabled" in policy.model_fields_set:
        return policy
    return policy.model_copy(update={"auto_approver_enabled": True})


def _supervisor_ledger_tools(ledger: Ledger) -> dict[str, Any]:
    from demo_tools import supervisor as demo

    return {"tools": demo.demo_tools(demo.BillingDesk(ledger=ledger))}


GOAL = InputKey("goal", "text", True, "what the run is asked to do")

PATTERNS: dict[str, Pattern] = {
    "reflection": Pattern(
        "reflection",
        "graphs.reflection",
        "policies.reflection:ReflectionPolicy",
        "demo_tools.reflection",
        (
            GOAL,
            InputKey("incident_context", "object", True, "the facts the draft may use (incident, hints)"),
        ),
        "one draft, one structured self-review, at most one patch-only revision",
    ),
    "research": Pattern(
        "research",
        "graphs.research",
        "policies.research:ResearchPolicy",
        "demo_tools.research",
        (
            GOAL,
            InputKey(
                "request", "object", False, "question, report date, region, policy_hints (budgets, domains)"
            ),
        ),
        "a bounded search/read workflow that answers only from verified, cited notes",
    ),
    "rag": Pattern(
        "rag",
        "graphs.rag",
        "policies.rag:RagPolicy",
        "demo_tools.rag_input",
        (InputKey("question", "text", True, "the question to answer from the knowledge base"),),
        "retrieval within allowed sources, an answer only from the packed context, citing it",
    ),
    "supervisor": Pattern(
        "supervisor",
        "graphs.supervisor",
        "policies.supervisor:SupervisorPolicy",
        "demo_tools.supervisor",
        (
            GOAL,
            InputKey("subject", "object", False, 'whom the run acts for, e.g. {"user_id": 42}'),
        ),
        "a worker proposes tool calls, a supervisor policy reviews each, a human approves escalations",
        demo_interrupts=1,
        cli_policy=_supervisor_cli_policy,
        ledger_tools=_supervisor_ledger_tools,
        demo_policy_path="policies.supervisor:demo_policy",
        audit_log=True,
    ),
    "task_decomposition": Pattern(
        "task_decomposition",
        "graphs.task_decomposition",
        "policies.task_decomposition:TaskDecompositionPolicy",
        "demo_tools.task_decomposition",
        (GOAL,),
        "plan the task, validate the plan, execute it step by step through a tool gateway, combine",
    ),
}


def run_result(graph: Any, values: dict[str, Any]) -> dict[str, Any]:
    """The run's result: the graph's output keys that are set, the run contract's first."""

    keys = [k for k in RUN_CONTRACT_KEYS if k in graph.output_channels]
    keys += [k for k in graph.output_channels if k not in keys]
    return {k: values[k] for k in keys if values.get(k) is not None}


@dataclass(frozen=True)
class Agent:
    """A ``create_agent`` agent with ``GovernanceMiddleware`` the CLI knows: its threads carry
    ``{"agent": name}`` in their checkpoints' metadata, and ``runs``, ``waiting``, ``show`` and the
    answers (``approve`` / ``edit`` / ``reject``) work on them as on a pattern's runs."""

    name: str
    #: the module whose ``build_agent(model=, checkpointer=, store=, journal=)`` builds it
    module_name: str
    #: One line: what the agent does.
    summary: str
    #: Who carries a thread on once a human answered it ("": the process that answers): the MCP
    #: gateway's threads run only in the gateway, whose tools are its upstream servers'.
    carried_on_by: str = ""
    #: The module's function that builds it (keyword arguments ``checkpointer``, ``store``, and
    #: ``model`` where one is given).
    builder: str = "build_agent"

    @property
    def module(self) -> ModuleType:
        try:
            return importlib.import_module(self.module_name)
        except ImportError as exc:
            raise AgentRegistryError(
                f"agent {self.name!r}: cannot import {self.module_name!r} ({exc}); {REGISTER_HINT}"
            ) from None

    def build(
        self,
        *,
        checkpointer: BaseCheckpointSaver | None = None,
        model: BaseChatModel | None = None,
        store: BaseStore | None = None,
    ) -> Any:
        """The agent over ``checkpointer`` and ``store`` (``model``: default, the agent's own)."""
        make = getattr(self.module, self.builder, None)
        if not callable(make):
            raise AgentRegistryError(
                f"agent {self.name!r}: {self.module_name} has no function {self.builder!r}; {REGISTER_HINT}"
            )
        given: dict[str, Any] = {"checkpointer": checkpointer, "store": store}
        return make(**given, **({"model": model} if model is not None else {}))


#: The ``create_agent`` agents the CLI knows, by the name in their checkpoints' metadata.
AGENTS: dict[str, Agent] = {
    "support_desk": Agent(
        "support_desk",
        "graphs.support_desk",
        "the shipped support desk: create_agent with GovernanceMiddleware (graphs/support_desk.py)",
    ),
}
#: ``create_agent`` agents a server runs, whose threads the CLI lists and answers (the answer is
#: kept, and the server carries the thread on): the MCP gateway's sessions (docs/mcp.md).
SERVED: dict[str, Agent] = {
    "mcp_gateway": Agent(
        "mcp_gateway",
        "apps.gateway.proxy",
        "a session of `agent-patterns gateway`: an MCP client's calls, governed (apps/gateway/proxy.py)",
        carried_on_by="the MCP gateway",
    ),
}
#: Every ``create_agent`` agent the package ships, read and answered by the CLI.
KNOWN_AGENTS: dict[str, Agent] = {**AGENTS, **SERVED}

#: The entry point group under which an application registers its own agent, so that the CLI's
#: ``runs``, ``waiting``, ``show``, ``approve`` / ``edit`` / ``reject``, ``reject-expired`` and
#: ``audit`` work on its threads: ``name = "package.module"`` (its ``build_agent``) or
#: ``name = "package.module:function"``.
AGENTS_GROUP = "agent_patterns.agents"
#: The same for an application that is not installed as a package (a script beside the
#: database): ``name=module[:function]``, several separated by commas or spaces.
AGENTS_ENV = "AGENT_PATTERNS_AGENTS"
REGISTER_HINT = (
    f"register an agent with an entry point in group {AGENTS_GROUP!r} or in ${AGENTS_ENV} "
    '(name=module[:function]; docs/own-agent.md, "Operate it from the CLI")'
)


class AgentRegistryError(Exception):
    """An application's agent is registered wrongly (its entry, or a module or function it names
    that cannot be loaded): the message says which and how to register one."""


def _registered(name: str, target: str, where: str) -> Agent:
    module_name, _, builder = target.strip().partition(":")
    if not name or not module_name or not all(p.isidentifier() for p in module_name.split(".")):
        raise AgentRegistryError(f"{where}: {name}={target!r} names no module; {REGISTER_HINT}")
    if builder and not builder.isidentifier():
        raise AgentRegistryError(f"{where}: {name}={target!r} names no function; {REGISTER_HINT}")
    if name in KNOWN_AGENTS or name in PATTERNS:
        raise AgentRegistryError(f"{where}: {name!r} is a name the package uses; register under another")
    summary = f"registered in {where}: {module_name}:{builder or 'build_agent'}"
    return Agent(name, module_name, summary, builder=builder or "build_agent")


def registered_agents(environ: Mapping[str, str] | None = None) -> dict[str, Agent]:
    """The agents applications register (:data:`AGENTS_GROUP` entry points, then
    ``$AGENT_PATTERNS_AGENTS``), by the name in their checkpoints' metadata (``{"agent": name}``:
    the agent's builder returns ``agent.with_config({"metadata": {"agent": name}})``). Raises
    :class:`AgentRegistryError` for an entry that names no module or a name the package uses."""
    text = (os.environ if environ is None else environ).get(AGENTS_ENV, "")
    return {**_entry_point_agents(), **_environ_agents(text)}


@functools.cache
def _entry_point_agents() -> dict[str, Agent]:
    """The agents installed packages register (read once a process: installing one restarts it)."""
    from importlib.metadata import entry_points

    where = f"entry point group {AGENTS_GROUP!r}"
    return {p.name: _registered(p.name, p.value, where) for p in entry_points(group=AGENTS_GROUP)}


@functools.lru_cache(maxsize=8)
def _environ_agents(text: str) -> dict[str, Agent]:
    found: dict[str, Agent] = {}
    for entry in text.replace(",", " ").split():
        name, sign, target = entry.partition("=")
        if not sign:
            raise AgentRegistryError(f"${AGENTS_ENV}: {entry!r} is not name=module[:function]")
        found[name] = _registered(name, target, f"${AGENTS_ENV}")
    return found


def known_agents() -> Mapping[str, Agent]:
    """Every ``create_agent`` agent the CLI reads and answers: the package's and those
    applications register (:func:`registered_agents`). Made once per value of
    ``$AGENT_PATTERNS_AGENTS`` (the store's listing asks it of every checkpoint it reads)."""
    return _known_agents(os.environ.get(AGENTS_ENV, ""))


@functools.lru_cache(maxsize=8)
def _known_agents(text: str) -> Mapping[str, Agent]:
    return MappingProxyType({**_entry_point_agents(), **_environ_agents(text), **KNOWN_AGENTS})
