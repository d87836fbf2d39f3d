"""Task Decomposition: plan the task, validate the plan, execute it step by step, combine.

    start → plan → validate_plan → execute_step (one plan step per superstep, looping) → combine
        → finalize (every number in the summary must be derivable from the observations)
Every gateway node can end the run instead, with a named ``stop_reason``.
"""

from functools import partial
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START
from langgraph.graph.state import CompiledStateGraph

from demo_tools.task_decomposition import demo_tools
from graphs.compile import add_chain, compile_pattern, pattern_builder
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


def route_after_execute_step(
    state: TaskDecompositionState,
) -> Literal["execute_step", "combine", "__end__"]:
    if is_stopped(state):
        return "__end__"
    return "execute_step" if int(state.get("next_step") or 0) < len(state["plan"]) else "combine"


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
    builder = pattern_builder(
        TaskDecompositionState, TaskDecompositionPolicy, TaskDecompositionInput, TaskDecompositionOutput
    )
    builder.add_node("start", partial(n.start, model=model_label(llm)))
    builder.add_node("plan", llm_node(partial(n.plan, llm=llm, policy=policy, tools=registry)))
    builder.add_node("validate_plan", partial(n.validate_plan, policy=policy))
    builder.add_node("execute_step", partial(n.execute_step, policy=policy, tools=registry))
    builder.add_node("combine", llm_node(partial(n.combine, llm=llm, policy=policy)))
    builder.add_node("finalize", partial(n.finalize, policy=policy))

    builder.add_edge(START, "start")
    add_chain(builder, "start", "plan", "validate_plan", "execute_step")
    builder.add_conditional_edges("execute_step", route_after_execute_step)
    add_chain(builder, "combine", "finalize")
    builder.add_edge("finalize", END)
    return compile_pattern(
        builder, name="task_decomposition", checkpointer=checkpointer, io_nodes=("execute_step",)
    )


#: Compiled without a checkpointer: LangGraph Studio and the server supply their own.
graph = build_graph()
