"""Task Decomposition: plan the task, validate the plan, execute it step by step, combine.

    start → plan → validate_plan → execute_step (one plan step per superstep, looping) → combine
        → finalize (every number in the summary must be derivable from the observations)
Every gateway node can end the run instead, with a named ``stop_reason``.
"""

from functools import partial
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from demo_tools.task_decomposition import demo_tools
from graphs.compile import compile_pattern
from nodes import task_decomposition as n
from nodes.llm_json import llm_node
from nodes.model import get_chat_model, model_label
from nodes.state import ChatInput, RunState
from nodes.tool_gateway import ToolsArg, tool_registry
from nodes.trace import is_stopped
from policies.task_decomposition import TaskDecompositionPolicy


class TaskDecompositionInput(ChatInput, total=False):
    goal: str


class TaskDecompositionOutput(RunState, total=False):
    plan: list[dict[str, Any]]
    raw_plan: Any
    failed_step: dict[str, Any]
    observation: Any
    rejected_answer: str


class TaskDecompositionState(TaskDecompositionInput, TaskDecompositionOutput, total=False):
    next_step: int
    calls: list[dict[str, Any]]
    first_step: int


def route_after_start(state: TaskDecompositionState) -> Literal["plan", "__end__"]:
    return "__end__" if is_stopped(state) else "plan"


def route_after_plan(state: TaskDecompositionState) -> Literal["validate_plan", "__end__"]:
    return "__end__" if is_stopped(state) else "validate_plan"


def route_after_validate_plan(state: TaskDecompositionState) -> Literal["execute_step", "__end__"]:
    return "__end__" if is_stopped(state) else "execute_step"


def route_after_execute_step(
    state: TaskDecompositionState,
) -> Literal["execute_step", "combine", "__end__"]:
    if is_stopped(state):
        return "__end__"
    return "execute_step" if int(state.get("next_step") or 0) < len(state["plan"]) else "combine"


def route_after_combine(state: TaskDecompositionState) -> Literal["finalize", "__end__"]:
    return "__end__" if is_stopped(state) else "finalize"


def build_graph(
    *,
    llm: BaseChatModel | None = None,
    policy: TaskDecompositionPolicy | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    tools: ToolsArg | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the Task Decomposition graph. ``tools``: LangChain tools and plain functions, in a
    list or a ``{name: tool}`` mapping (default: the demo sales tools); the policy gives the
    allowlist and, optionally, argument schemas narrower than the tools' own."""
    llm = llm or get_chat_model()
    policy = policy or TaskDecompositionPolicy()
    registry = tool_registry(demo_tools() if tools is None else tools)
    builder = StateGraph(
        TaskDecompositionState,
        context_schema=TaskDecompositionPolicy,
        input_schema=TaskDecompositionInput,
        output_schema=TaskDecompositionOutput,
    )
    builder.add_node("start", partial(n.start, model=model_label(llm)))
    builder.add_node("plan", llm_node(partial(n.plan, llm=llm, policy=policy, tools=registry)))
    builder.add_node("validate_plan", partial(n.validate_plan, policy=policy))
    builder.add_node("execute_step", partial(n.execute_step, policy=policy, tools=registry))
    builder.add_node("combine", llm_node(partial(n.combine, llm=llm, policy=policy)))
    builder.add_node("finalize", partial(n.finalize, policy=policy))

    builder.add_edge(START, "start")
    builder.add_conditional_edges("start", route_after_start)
    builder.add_conditional_edges("plan", route_after_plan)
    builder.add_conditional_edges("validate_plan", route_after_validate_plan)
    builder.add_conditional_edges("execute_step", route_after_execute_step)
    builder.add_conditional_edges("combine", route_after_combine)
    builder.add_edge("finalize", END)
    return compile_pattern(
        builder, name="task_decomposition", checkpointer=checkpointer, io_nodes=("execute_step",)
    )


#: Compiled without a checkpointer: LangGraph Studio and the server supply their own.
graph = build_graph()
