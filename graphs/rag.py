"""RAG: retrieve within allowed sources, then answer only from the packed context, citing it.

    start → plan → validate_intent → retrieve → pack
        ├─ no chunk packed → fallback (status ok, outcome clarify)
        └─ otherwise       → generate → validate_answer (citations and numbers checked)
Every node after ``start`` can end the run instead, with a named ``stop_reason``.
"""

from functools import partial
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.retrievers import BaseRetriever
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START
from langgraph.graph.state import CompiledStateGraph

from demo_tools.rag import demo_retriever
from graphs.compile import add_chain, compile_pattern, pattern_builder
from nodes import rag as n
from nodes.llm_json import llm_node
from nodes.model import get_chat_model, model_label
from nodes.state import ChatInput, RunState
from nodes.trace import is_stopped
from policies.rag import RagPolicy


class RagInput(ChatInput, total=False):
    question: str


class RagOutput(RunState, total=False):
    intent: dict[str, Any]
    citations: list[str]
    citation_details: list[dict[str, Any]]
    # diagnostics of a stopped run
    raw_intent: Any
    raw_answer: Any
    invalid_citations: list[str]
    context_doc_ids: list[str]
    ungrounded_numbers: list[str]


class RagState(RagInput, RagOutput, total=False):
    candidates: list[dict[str, Any]]
    context: list[dict[str, Any]]


#: Supersteps after ``start`` on the longest path (plan, validate_intent, retrieve, pack, generate,
#: validate_answer): a smaller recursion limit stops the run at once.
SUPERSTEPS_AFTER_START = 6


def route_after_pack(state: RagState) -> Literal["generate", "fallback", "__end__"]:
    if is_stopped(state):
        return "__end__"
    return "generate" if state.get("context") else "fallback"


def build_graph(
    *,
    llm: BaseChatModel | None = None,
    policy: RagPolicy | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    retriever: BaseRetriever | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the RAG graph. ``llm`` defaults to :func:`nodes.model.get_chat_model`, ``policy`` to
    the spec's defaults, ``retriever`` to the demo knowledge base's lexical retriever (any LangChain
    ``BaseRetriever`` works); a run-time ``context`` (a ``RagPolicy``) overrides the policy."""
    llm = llm or get_chat_model()
    policy = policy or RagPolicy()
    builder = pattern_builder(RagState, RagPolicy, RagInput, RagOutput)
    builder.add_node("start", partial(n.start, model=model_label(llm), supersteps=SUPERSTEPS_AFTER_START))
    builder.add_node("plan", llm_node(partial(n.plan, llm=llm, policy=policy)))
    builder.add_node("validate_intent", partial(n.validate_intent, policy=policy))
    builder.add_node("retrieve", partial(n.retrieve, policy=policy, retriever=retriever or demo_retriever()))
    builder.add_node("pack", partial(n.pack, policy=policy))
    builder.add_node("fallback", partial(n.fallback))
    builder.add_node("generate", llm_node(partial(n.generate, llm=llm, policy=policy)))
    builder.add_node("validate_answer", partial(n.validate_answer))

    builder.add_edge(START, "start")
    add_chain(builder, "start", "plan", "validate_intent", "retrieve", "pack")
    builder.add_conditional_edges("pack", route_after_pack)
    add_chain(builder, "generate", "validate_answer")
    builder.add_edge("fallback", END)
    builder.add_edge("validate_answer", END)
    return compile_pattern(builder, name="rag", checkpointer=checkpointer, io_nodes=("retrieve",))


#: Compiled without a checkpointer: LangGraph Studio and the server supply their own.
graph = build_graph()
