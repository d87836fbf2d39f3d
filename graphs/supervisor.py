"""Supervisor: a worker proposes each action, a supervisor policy reviews it, a human approves escalations.

    start → worker → validate_action → review
        ├─ approve  → execute (tool) → worker …   |   finalize (final answer)
        ├─ revise   → revise_action → review (a revised action is reviewed again)
        ├─ escalate → escalate → human_approval (interrupt, or the automatic approver) → execute
        └─ block    → end (supervisor_block:<reason>)
Every gateway node can end the run instead, with a named ``stop_reason``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, Literal, TypedDict

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from demo_tools.supervisor import demo_tools
from graphs.compile import Durability, compile_pattern
from nodes import supervisor as n
from nodes.llm_json import llm_node
from nodes.model import get_chat_model, model_label
from nodes.state import RunState
from nodes.tool_gateway import ToolRegistry
from nodes.trace import is_stopped
from policies.supervisor import CustomRule, SupervisorPolicy

#: Refunds and emails change the world: each step's checkpoint is written before the next step
#: starts, so an approval or an executed tool call is never lost to a crash (the ledger's
#: idempotency keys absorb the one call a crash can repeat).
DURABILITY: Durability = "sync"


class SupervisorInput(TypedDict, total=False):
    goal: str
    #: Whom the run acts for (e.g. ``{"user_id": 42}``): arguments a tool's rules bind
    #: (``ToolRules.bound_args``) must equal these values. Optional.
    subject: dict[str, Any]


class SupervisorOutput(RunState, total=False):
    steps: int
    calls: list[dict[str, Any]]
    raw_action: Any
    action: dict[str, Any]
    executed_from: str
    review: dict[str, Any]
    reviews: list[dict[str, Any]]
    approval_request: dict[str, Any]
    human_answer: Any
    human_approved: bool
    paused_seconds: float


class SupervisorState(SupervisorInput, SupervisorOutput, total=False):
    proposed_action: dict[str, Any]
    revisions: int
    first_step: int


def route_after_start(state: SupervisorState) -> Literal["worker", "__end__"]:
    return "__end__" if is_stopped(state) else "worker"


def route_after_worker(state: SupervisorState) -> Literal["validate_action", "__end__"]:
    return "__end__" if is_stopped(state) else "validate_action"


def route_after_validate_action(state: SupervisorState) -> Literal["review", "__end__"]:
    return "__end__" if is_stopped(state) else "review"


def route_after_review(
    state: SupervisorState,
) -> Literal["execute", "finalize", "revise_action", "escalate", "__end__"]:
    if is_stopped(state):
        return "__end__"
    decision = state["review"]["decision"]
    if decision == "revise":
        return "revise_action"
    if decision == "escalate":
        return "escalate"
    return "finalize" if state["action"]["kind"] == "final" else "execute"


def route_after_human_approval(state: SupervisorState) -> Literal["execute", "__end__"]:
    return "__end__" if is_stopped(state) else "execute"


def route_after_execute(state: SupervisorState) -> Literal["worker", "__end__"]:
    return "__end__" if is_stopped(state) else "worker"


def build_graph(
    *,
    llm: BaseChatModel | None = None,
    policy: SupervisorPolicy | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    tools: ToolRegistry | None = None,
    custom_rules: Mapping[str, CustomRule] | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the Supervisor graph.

    ``tools`` is the tool registry (name → callable; default: the demo billing desk); the policy's
    ``tools`` give their argument schemas and ``rules`` the supervisor's rules per tool;
    ``custom_rules`` supplies the functions that rules name in ``ToolRules.custom``.
    """
    llm = llm or get_chat_model()
    policy = policy or SupervisorPolicy()
    tools = demo_tools() if tools is None else tools
    hooks = dict(custom_rules or {})
    builder = StateGraph(
        SupervisorState,
        context_schema=SupervisorPolicy,
        input_schema=SupervisorInput,
        output_schema=SupervisorOutput,
    )
    builder.add_node("start", partial(n.start, model=model_label(llm)))
    builder.add_node("worker", llm_node(partial(n.worker, llm=llm, policy=policy)))
    builder.add_node("validate_action", partial(n.validate_action, policy=policy))
    builder.add_node("review", partial(n.review, policy=policy, hooks=hooks))
    builder.add_node("revise_action", partial(n.revise_action))
    builder.add_node("escalate", partial(n.escalate))
    builder.add_node("human_approval", partial(n.human_approval, policy=policy, hooks=hooks))
    builder.add_node("execute", partial(n.execute, policy=policy, tools=tools))
    builder.add_node("finalize", partial(n.finalize))

    builder.add_edge(START, "start")
    builder.add_conditional_edges("start", route_after_start)
    builder.add_conditional_edges("worker", route_after_worker)
    builder.add_conditional_edges("validate_action", route_after_validate_action)
    builder.add_conditional_edges("review", route_after_review)
    builder.add_edge("revise_action", "review")
    builder.add_edge("escalate", "human_approval")
    builder.add_conditional_edges("human_approval", route_after_human_approval)
    builder.add_conditional_edges("execute", route_after_execute)
    builder.add_edge("finalize", END)
    return compile_pattern(
        builder, name="supervisor", checkpointer=checkpointer, io_nodes=("execute",), durability=DURABILITY
    )


#: Compiled without a checkpointer: LangGraph Studio and the server supply their own.
graph = build_graph()
