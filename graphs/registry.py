"""The patterns the CLI knows: their graph module, policy model and demo input."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver

from demo_tools import rag as rag_demo
from demo_tools import reflection as reflection_demo
from demo_tools import research as research_demo
from demo_tools import supervisor as supervisor_demo
from demo_tools import task_decomposition as task_decomposition_demo
from demo_tools.ledger import Ledger
from nodes.state import RUN_CONTRACT_KEYS
from policies.base import BasePolicy
from policies.rag import RagPolicy
from policies.reflection import ReflectionPolicy
from policies.research import ResearchPolicy
from policies.supervisor import SupervisorPolicy, demo_policy
from policies.task_decomposition import TaskDecompositionPolicy


@dataclass(frozen=True)
class Pattern:
    name: str
    module_name: str
    #: The pattern's policy model.
    model: type[BasePolicy]
    demo_input: Callable[[], dict[str, Any]]
    #: How often the demo pauses for a human when no automatic approver stands in (Studio).
    demo_interrupts: int = 0
    #: Adjusts the policy for a CLI run: ``(policy, human)`` where ``human`` is ``--human``.
    cli_policy: Callable[[Any, bool], BasePolicy] | None = None

    #: Extra ``build_graph`` arguments that put the demo tools' side effects in ``ledger``.
    ledger_tools: Callable[[Ledger], dict[str, Any]] | None = None

    #: Makes the demo's policy, fields given as keywords over it (default: the model itself).
    demo_policy: Callable[..., BasePolicy] | None = None

    def policy(self, **fields: Any) -> BasePolicy:
        """The demo's policy, with ``fields`` over it."""
        return (self.demo_policy or self.model)(**fields)

    def policy_with(self, data: dict[str, Any]) -> BasePolicy:
        """The demo's policy with the fields of ``data`` (a policy file) over it, validated."""
        return self.model.model_validate({**self.policy().model_dump(), **data})

    @property
    def module(self) -> ModuleType:
        return importlib.import_module(self.module_name)

    def build(
        self,
        *,
        checkpointer: BaseCheckpointSaver | None = None,
        llm: BaseChatModel | None = None,
        policy: BasePolicy | None = None,
        ledger: Ledger | None = None,
    ) -> Any:
        """The pattern's compiled graph (the demo's policy unless ``policy`` is given); with
        ``ledger``, its demo tools record side effects there."""
        extra = self.ledger_tools(ledger) if ledger is not None and self.ledger_tools else {}
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


PATTERNS: dict[str, Pattern] = {
    "reflection": Pattern("reflection", "graphs.reflection", ReflectionPolicy, reflection_demo.demo_input),
    "research": Pattern("research", "graphs.research", ResearchPolicy, research_demo.demo_input),
    "rag": Pattern("rag", "graphs.rag", RagPolicy, rag_demo.demo_input),
    "supervisor": Pattern(
        "supervisor",
        "graphs.supervisor",
        SupervisorPolicy,
        supervisor_demo.demo_input,
        demo_policy=demo_policy,
        demo_interrupts=1,
        cli_policy=_supervisor_cli_policy,
        ledger_tools=lambda ledger: {
            "tools": supervisor_demo.demo_tools(supervisor_demo.BillingDesk(ledger=ledger))
        },
    ),
    "task_decomposition": Pattern(
        "task_decomposition",
        "graphs.task_decomposition",
        TaskDecompositionPolicy,
        task_decomposition_demo.demo_input,
    ),
}


def run_result(graph: Any, values: dict[str, Any]) -> dict[str, Any]:
    """The run's result: the graph's output keys that are set, the run contract's first."""
    keys = [k for k in RUN_CONTRACT_KEYS if k in graph.output_channels]
    keys += [k for k in graph.output_channels if k not in keys]
    return {k: values[k] for k in keys if values.get(k) is not None}
