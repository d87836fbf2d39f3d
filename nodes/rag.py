"""RAG nodes: LLM calls (retrieval intent, answer), the retriever call, and the gateway checks.

The retriever is any LangChain ``BaseRetriever``. Whatever it returns, the gateway keeps only
documents from the allowed sources, scores them, applies the threshold and packs the context.
A document's score is its ``metadata["score"]`` when that is a finite number (clamped to [0, 1]);
otherwise the gateway scores it with the spec's lexical scorer, so one threshold means the same
thing whichever retriever stands behind it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from demo_tools.rag import is_sla_grade, lexical_score
from nodes.clock import out_of_time
from nodes.llm_json import LLMSteps
from nodes.run import CitedAnswer, LLMStep, check_reply, policy_for, start_run
from nodes.trace import finish, history_row, stop, trace_row
from policies import rag as rules
from policies.json_safety import error_text, json_problem, type_name
from policies.text import normalize_ws, text_hash

State = Mapping[str, Any]
Ctx = Runtime[rules.RagPolicy]

INTENT_SYSTEM = (
    "You decide what to search for to answer the question from the knowledge base. Reply with one "
    'JSON object {"kind": "retrieve", "query": "<search text>", "top_k": <1..max_top_k>, '
    '"sources": [<optional, from allowed_sources>]}.'
)
ANSWER_SYSTEM = (
    "Answer the question only from the context chunks given, citing the doc_id of every chunk you "
    "use. Use no facts or numbers that are not in a cited chunk. Reply with one JSON object "
    '{"answer": "<text>", "citations": ["<doc_id>", ...]}.'
)
CLARIFY_ANSWER = (
    "I could not find relevant information in the allowed knowledge sources to answer this. Could "
    "you clarify your question, for example the plan, product or policy it is about?"
)
CHUNK_KEYS = ("doc_id", "source", "title", "section", "updated_at", "score")
#: Metadata the gateway keeps as chunk fields (text): a JSON scalar each, or absent.
TEXT_FIELDS = CHUNK_KEYS[1:-1]
PATTERN_KEYS = (
    "raw_intent",
    "intent",
    "candidates",
    "context",
    "raw_answer",
    "citations",
    "citation_details",
    "invalid_citations",
    "context_doc_ids",
    "ungrounded_numbers",
)


INTENT = LLMStep("intent", INTENT_SYSTEM, keep="raw_intent", expect_object=False)
ANSWER = LLMStep("generate", ANSWER_SYSTEM, keep="raw_answer", contract=CitedAnswer)


def _check_input(state: State) -> str | None:
    question = state.get("question")
    return None if isinstance(question, str) and question.strip() else "invalid_input:question"


#: How a run of the pattern opens (:func:`nodes.run.start_run` with its keys, request and input check).
_open_run = partial(start_run, clear=PATTERN_KEYS, check_input=_check_input, request_key="question")


def start(state: State, config: RunnableConfig, *, model: str, supersteps: int = 0) -> dict[str, Any]:
    return _open_run(state, config, model=model, supersteps=supersteps)


def plan(state: State, runtime: Ctx, *, llm: BaseChatModel, policy: rules.RagPolicy) -> LLMSteps:
    policy = policy_for(runtime, policy)
    payload = {
        "role": "rag.plan",
        "question": state["question"],
        "allowed_sources": policy.allowed_sources_execution,
        "max_top_k": policy.max_top_k,
        "max_query_chars": policy.max_query_chars,
    }
    return (yield from INTENT.ask(state, llm, policy, payload))


def validate_intent(state: State, runtime: Ctx, *, policy: rules.RagPolicy) -> dict:
    policy = policy_for(runtime, policy)
    decision, stopped = check_reply(state, "intent", "raw_intent", rules.validate_intent, policy)
    if stopped:
        return stopped
    raw = state["raw_intent"]
    intent = dict(decision.details)
    figures = {
        "query_hash": text_hash(intent["query"]),
        "top_k": intent["top_k"],
        "sources": intent["sources"],
    }
    return {
        "intent": intent,
        "trace": [trace_row(state, "intent", **figures)],
        "history": [history_row(state, "intent", proposed=raw, accepted=intent)],
    }


def to_chunk(doc: Document, query: str) -> dict[str, Any] | str | None:
    """A retrieved document as a chunk, scored as the module says; None when it has no id, or
    the reason it cannot be kept: its text and the metadata the gateway keeps (``id``, ``source``,
    ``title``, ``section``, ``updated_at``) must be plain JSON (see
    :func:`policies.json_safety.json_problem`); other metadata is neither kept nor checked. A
    numeric field is kept as text; a score that is no finite number is replaced by the lexical one.
    """
    meta = doc.metadata
    if type(meta) is not dict:  # Document validates a dict; a subclass may run code of its own
        return f"metadata:{json_problem(meta) or 'not_object'}"
    kept = {key: meta.get(key) for key in ("id", *TEXT_FIELDS)}
    problem = json_problem(kept)
    if problem is not None:
        return f"metadata:{problem}"
    text = doc.page_content
    problem = json_problem(text) or (None if type(text) is str else "not_str")
    if problem is not None:
        return f"text:{problem}"
    doc_id = kept["id"] or doc.id
    if type(doc_id) is not str or not doc_id.strip():
        return None
    fields = {key: "" if kept[key] is None else str(kept[key]) for key in TEXT_FIELDS}
    score = rules.chunk_score(meta.get("score"))
    if score is None:
        score = lexical_score(query, text, sla_grade=is_sla_grade(fields))
    return {"doc_id": doc_id.strip(), **fields, "score": score, "text": text}


def to_chunks(docs: Any, query: str) -> list[dict[str, Any]] | str:
    """The retriever's documents as chunks, or the reason the answer cannot be kept (which
    document, what is wrong with it). Documents without an id are left out."""
    if type(docs) is not list:
        return f"not_list:{type_name(docs)}"
    chunks = []
    for index, doc in enumerate(docs):
        if not isinstance(doc, Document):
            return f"document_{index}:not_document:{type_name(doc)}"
        chunk = to_chunk(doc, query)
        if isinstance(chunk, str):
            return f"document_{index}:{chunk}"
        if chunk is not None:
            chunks.append(chunk)
    return chunks


def retrieve(state: State, runtime: Ctx, *, policy: rules.RagPolicy, retriever: BaseRetriever) -> dict:
    policy = policy_for(runtime, policy)
    if out_of_time(state, policy):
        return stop(state, "retrieve", "max_seconds")
    intent = state["intent"]
    filters = {"k": intent["top_k"], "sources": intent["sources"]}
    try:
        docs = retriever.invoke(
            intent["query"], **(filters if getattr(retriever, "accepts_search_filters", False) else {})
        )
    except Exception as exc:
        return stop(state, "retrieve", "tool_error:retriever", details={"error": error_text(exc)})
    try:  # reading a document may run code of the retriever's own (a subclass, a property)
        chunks = to_chunks(docs, intent["query"])
    except Exception as exc:
        chunks = f"unreadable_document:{error_text(exc)}"
    if isinstance(chunks, str):
        return stop(state, "retrieve", "tool_invalid_output:retriever", details={"problem": chunks})
    candidates = rules.select_candidates(chunks, intent["sources"], intent["top_k"])
    return {
        "candidates": candidates,
        "history": [
            history_row(state, "retrieve", returned=len(docs), candidates=[c["doc_id"] for c in candidates])
        ],
    }


def pack(state: State, runtime: Ctx, *, policy: rules.RagPolicy) -> dict:
    packed = rules.pack_context(state["candidates"], policy_for(runtime, policy))
    intent = state["intent"]
    figures = {
        "query": intent["query"],
        "requested_sources": intent["sources"],
        "candidates": len(state["candidates"]),
        "context_chunks": len(packed.chunks),
        "context_chars": packed.chars,
        "rejected_low_score": packed.rejected_low_score,
        "rejected_over_budget": packed.rejected_over_budget,
    }
    return {
        "context": list(packed.chunks),
        "trace": [trace_row(state, "retrieve", **figures)],
        "history": [history_row(state, "pack", context=[c["doc_id"] for c in packed.chunks])],
    }


def fallback(state: State) -> dict:
    """No evidence: ask for clarification rather than invent an answer."""
    figures, row = {"context_chunks": 0}, {"answer": CLARIFY_ANSWER}
    cited: dict[str, Any] = {"citations": [], "citation_details": []}
    return finish(state, "fallback", "clarify", CLARIFY_ANSWER, figures=figures, row=row, **cited)


def generate(state: State, runtime: Ctx, *, llm: BaseChatModel, policy: rules.RagPolicy) -> LLMSteps:
    policy = policy_for(runtime, policy)
    payload = {
        "role": "rag.answer",
        "question": state["question"],
        "context": [
            {k: c[k] for k in ("doc_id", "title", "section", "updated_at", "text")} for c in state["context"]
        ],
    }
    return (yield from ANSWER.ask(state, llm, policy, payload))


def validate_answer(state: State) -> dict:
    raw, context = state["raw_answer"], state["context"]
    answer = raw["answer"]
    if not normalize_ws(answer):
        return stop(state, "generate", "llm_empty", raw_answer=raw)
    decision = rules.validate_answer(answer, raw["citations"], context)
    if not decision.passed:
        return stop(state, "generate", decision.reason, raw_answer=raw, **decision.details)
    citations = decision.details["citations"]
    details = [{k: c[k] for k in CHUNK_KEYS} for c in context if c["doc_id"] in citations]
    figures = {"citations": len(citations), "answer_hash": text_hash(answer)}
    row = {"answer": answer, "citations": citations}
    cited = {"citations": citations, "citation_details": details}
    return finish(state, "generate", "grounded_answer", answer, figures=figures, row=row, **cited)
