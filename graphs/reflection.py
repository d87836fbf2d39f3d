"""Reflection: one draft, exactly one structured review, at most one patch-only revision.

    start → draft → validate_draft → review → validate_review
        ├─ approve  → finalize
        ├─ revise   → revise → validate_patch → finalize
        └─ escalate → escalate (stop, or a human review when the policy asks for one)
Every gateway node can end the run instead, with a named ``stop_reason``.
"""

from collections.abc import Mapping
from functools import partial
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START
from langgraph.graph.state import CompiledStateGraph

from demo_tools.reflection import INCIDENT_CONTEXT
from graphs.compile import add_chain, compile_pattern, pattern_builder
from nodes import reflection as n
from nodes.llm_json import llm_node
from nodes.model import get_chat_model, model_label
from nodes.state import ChatInput, RunState
from nodes.trace import is_stopped
from policies.reflection import ReflectionPolicy


class ReflectionInput(ChatInput, total=False):
    goal: str
    incident_context: dict[str, Any]


class ReflectionOutput(RunState, total=False):
    draft: str
    review_decision: str
    issues: list[dict[str, str]]
    fix_plan: list[str]
    revised_answer: str
    escalation_reason: str
    review: dict[str, Any]
    raw_review: Any


class ReflectionState(ReflectionInput, ReflectionOutput, total=False):
    review_reason: str
    human_answer: str


#: Supersteps after ``start`` on the longest path (draft, validate_draft, review, validate_review,
#: revise, validate_patch, finalize): a smaller recursion limit stops the run at once.
SUPERSTEPS_AFTER_START = 7


def route_after_validate_review(
    state: ReflectionState,
) -> Literal["finalize", "revise", "escalate", "__end__"]:
    if is_stopped(state):
        return "__end__"
    decision = state["review_decision"]
    if decision == "approve":
        return "finalize"
    return "revise" if decision == "revise" else "escalate"


def build_graph(
    *,
    llm: BaseChatModel | None = None,
    policy: ReflectionPolicy | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    incident_context: Mapping[str, Any] | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the Reflection graph. ``llm`` defaults to :func:`nodes.model.get_chat_model`,
    ``policy`` to the spec's defaults; a run-time ``context`` (a ``ReflectionPolicy``) overrides
    the policy for one run.

    ``incident_context``: the incident a run drafts from when its input (and its thread) gives
    none, e.g. a run started from a chat box, whose message is only text. None (the default): such
    a run stops with ``invalid_input:incident_context``. The served graph (``graph`` below) uses
    the demo incident."""
    llm = llm or get_chat_model()
    policy = policy or ReflectionPolicy()
    builder = pattern_builder(ReflectionState, ReflectionPolicy, ReflectionInput, ReflectionOutput)
    builder.add_node(
        "start",
        partial(
            n.start,
            model=model_label(llm),
            supersteps=SUPERSTEPS_AFTER_START,
            incident_context=incident_context,
        ),
    )
    builder.add_node("draft", llm_node(partial(n.draft, llm=llm, policy=policy)))
    builder.add_node("validate_draft", partial(n.validate_draft, policy=policy))
    builder.add_node("review", llm_node(partial(n.review, llm=llm, policy=policy)))
    builder.add_node("validate_review", partial(n.validate_review, policy=policy))
    builder.add_node("revise", llm_node(partial(n.revise, llm=llm, policy=policy)))
    builder.add_node("validate_patch", partial(n.validate_patch, policy=policy))
    builder.add_node("escalate", partial(n.escalate, policy=policy))
    builder.add_node("finalize", partial(n.finalize, policy=policy))

    builder.add_edge(START, "start")
    add_chain(builder, "start", "draft", "validate_draft", "review", "validate_review")
    builder.add_conditional_edges("validate_review", route_after_validate_review)
    add_chain(builder, "revise", "validate_patch", "finalize")
    add_chain(builder, "escalate", "finalize")
    builder.add_edge("finalize", END)
    return compile_pattern(builder, name="reflection", checkpointer=checkpointer, io_nodes=())


#: Compiled without a checkpointer: LangGraph Studio and the server supply their own. A run whose
#: input has no ``incident_context`` (a chat message: Agent Chat UI, Studio's chat) drafts from the
#: demo incident.
graph = build_graph(incident_context=INCIDENT_CONTEXT)
