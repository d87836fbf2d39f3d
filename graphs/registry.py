"""The patterns the CLI knows: their graph module, policy model, input keys and demo input.

Importing this module is cheap (no LangGraph, LangChain or pydantic): the CLI lists patterns and
their inputs from it in milliseconds. The graph module, the policy model and the demo data are
imported when first used (:attr:`Pattern.module`, :attr:`Pattern.policy`, :meth:`Pattern.demo_input`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
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

    @property
    def module(self) -> ModuleType:
        return importlib.import_module(self.module_name)

    def build(
        self,
        *,
        checkpointer: BaseCheckpointSaver | None = None,
        model: BaseChatModel | None = None,
        store: BaseStore | None = None,
    ) -> Any:
        """The agent over ``checkpointer`` and ``store`` (``model``: default, the agent's own)."""
        return self.module.build_agent(model=model, checkpointer=checkpointer, store=store)


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
#: Every ``create_agent`` agent the CLI reads and answers.
KNOWN_AGENTS: dict[str, Agent] = {**AGENTS, **SERVED}
