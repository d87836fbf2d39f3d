"""Research: a bounded research workflow that answers only from verified, cited notes.

    start → plan → validate_plan → search → dedupe → check_sources → read → extract
          → validate_notes → verify → synthesize → validate_synthesis
Every node after ``start`` can end the run instead, with a named ``stop_reason``.
"""

from functools import partial
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START
from langgraph.graph.state import CompiledStateGraph

from demo_tools.research import ReadTool, SearchTool, demo_read, demo_search
from graphs.compile import add_chain, compile_pattern, pattern_builder
from nodes import research as n
from nodes.llm_json import llm_node
from nodes.model import get_chat_model, model_label
from nodes.state import ChatInput, RunState
from policies.research import ResearchPolicy


class ResearchInput(ChatInput, total=False):
    goal: str
    request: dict[str, Any]


class ResearchOutput(RunState, total=False):
    query: str
    citations: list[str]
    citation_details: list[dict[str, Any]]
    aggregate: dict[str, Any]
    denied_sources: list[dict[str, str]]
    notes: list[dict[str, Any]]
    limits: dict[str, Any]
    # diagnostics of a stopped run
    raw_plan: Any
    raw_notes: Any
    raw_answer: Any
    verification_issues: list[dict[str, str]]
    invalid_citations: list[str]
    ungrounded_numbers: list[str]


class ResearchState(ResearchInput, ResearchOutput, total=False):
    plan: list[dict[str, Any]]
    search_results: list[dict[str, Any]]
    candidates: list[dict[str, Any]]
    to_read: list[dict[str, Any]]
    pages: list[dict[str, Any]]


#: Supersteps after ``start`` (plan ... validate_synthesis, one path): a smaller recursion limit
#: stops the run at once.
SUPERSTEPS_AFTER_START = 11


def build_graph(
    *,
    llm: BaseChatModel | None = None,
    policy: ResearchPolicy | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    search: SearchTool | None = None,
    reader: ReadTool | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the Research graph. ``llm`` defaults to :func:`nodes.model.get_chat_model`,
    ``policy`` to the spec's defaults, ``search`` / ``reader`` to the demo tools; a run-time
    ``context`` (a ``ResearchPolicy``) overrides the policy for one run."""
    llm = llm or get_chat_model()
    policy = policy or ResearchPolicy()
    builder = pattern_builder(ResearchState, ResearchPolicy, ResearchInput, ResearchOutput)
    builder.add_node(
        "start", partial(n.start, model=model_label(llm), policy=policy, supersteps=SUPERSTEPS_AFTER_START)
    )
    builder.add_node("plan", llm_node(partial(n.plan, llm=llm, policy=policy)))
    builder.add_node("validate_plan", partial(n.validate_plan, policy=policy))
    builder.add_node("search", partial(n.search, policy=policy, search=search or demo_search))
    builder.add_node("dedupe", partial(n.dedupe))
    builder.add_node("check_sources", partial(n.check_sources))
    builder.add_node("read", partial(n.read, policy=policy, reader=reader or demo_read))
    builder.add_node("extract", llm_node(partial(n.extract, llm=llm, policy=policy)))
    builder.add_node("validate_notes", partial(n.validate_notes, policy=policy))
    builder.add_node("verify", partial(n.verify, policy=policy))
    builder.add_node("synthesize", llm_node(partial(n.synthesize, llm=llm, policy=policy)))
    builder.add_node("validate_synthesis", partial(n.validate_synthesis))

    builder.add_edge(START, "start")
    add_chain(builder, "start", "plan", "validate_plan", "search", "dedupe", "check_sources", "read")
    add_chain(builder, "read", "extract", "validate_notes", "verify", "synthesize", "validate_synthesis")
    builder.add_edge("validate_synthesis", END)
    return compile_pattern(builder, name="research", checkpointer=checkpointer, io_nodes=("search", "read"))


#: Compiled without a checkpointer: LangGraph Studio and the server supply their own.
graph = build_graph()
