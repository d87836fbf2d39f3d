"""Fuzzing the RAG gateway: generated retrieval intents and answers fed through the real compiled
graph, with the retriever instrumented; now and then it returns values JSON cannot represent (in a
document's text or metadata, in place of a document, in place of the list)."""

from __future__ import annotations

import copy
import uuid
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from langchain_core.documents import Document
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import Field

from demo_tools.rag import KNOWLEDGE_BASE, QUESTION, LexicalRetriever
from graphs.rag import build_graph
from policies.grounding import ungrounded_numbers
from policies.rag import RagPolicy
from tests.figures import FIGURES
from tests.fuzz import FOREIGN, JSON_VALUES, check_run, cited_answers, script, without_backoff
from tests.helpers import RoleModel

SOURCES = ["support_policy", "security_policy", "billing_policy", "operations_notes", "evil_source", ""]
DOC_IDS = [d["id"] for d in KNOWLEDGE_BASE]
QUERIES = st.one_of(
    st.sampled_from(
        ["enterprise SLA P1 first response", "refund annual", "security escalation", "zzz", "x" * 300]
    ),
    st.text(max_size=40),
)
INTENTS = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["retrieve"] * 5 + ["search"]),
        "query": QUERIES,
        "top_k": st.one_of(
            st.integers(1, 6), st.integers(1, 6), st.integers(-1, 8), st.sampled_from([True, 3.0, "3"])
        ),
        "sources": st.one_of(
            st.none(),
            st.none(),
            st.lists(st.sampled_from(SOURCES), max_size=4),
            st.lists(st.sampled_from(SOURCES[:3]), min_size=1, max_size=3),
            JSON_VALUES,
        ),
    }
).map(lambda intent: {k: v for k, v in intent.items() if not (k == "sources" and v is None)})
ANSWER_PARTS = [
    "Enterprise uptime SLA is 99.95%.",
    "P1 first response is 15 minutes, 24/7.",
    "P1 response is 5 minutes.",
    "Refunds within 14 days.",
    "Escalate to the commander.",
    "100% uptime.",
]
ANSWERS = cited_answers(ANSWER_PARTS, [*DOC_IDS, "doc_invented_v1", " doc_sla_enterprise_v3"], max_words=4)
ROLES = {"rag.plan": INTENTS, "rag.answer": ANSWERS}
POLICIES = st.builds(
    lambda security, score: RagPolicy(security_policy_enabled=security, min_chunk_score=score),
    st.booleans(),
    st.sampled_from([0.2, 0.2, 0.6]),
)


#: Where a foreign value goes: the metadata the gateway keeps or the text (refused), metadata it
#: neither keeps nor checks (accepted), a whole document, or the whole answer (refused).
KEPT_PLACES = ("id", "source", "title", "section", "updated_at", "page_content", "document", "answer")
TAINTS = st.one_of(
    st.none(),
    st.none(),
    st.none(),
    st.tuples(st.sampled_from([*KEPT_PLACES, "extra", "score"]), FOREIGN, st.integers(0, 10)),
)


def spoil(docs: list[Document], taint) -> Any:
    """``docs`` with one foreign value where ``taint`` says; None when there is no such place."""
    place, foreign, index = taint
    if place == "answer":
        return foreign
    if not docs:
        return None
    docs, i = list(docs), index % len(docs)
    if place == "document":
        docs[i] = foreign
    elif place == "page_content":  # past the Document's own validation, as a subclass may be
        docs[i] = Document.model_construct(page_content=foreign, metadata=docs[i].metadata, id=docs[i].id)
    else:
        docs[i] = Document(page_content=docs[i].page_content, metadata={**docs[i].metadata, place: foreign})
    return docs


class RecordingRetriever(LexicalRetriever):
    """The demo retriever, recording what the gateway asked it for and what it returned, and
    spoiling its answer as ``taint`` says (``tainted``: where it did)."""

    asked: list[dict[str, Any]] = Field(default_factory=list)
    returned: list[str] = Field(default_factory=list)
    taint: Any = None
    tainted: list[str] = Field(default_factory=list)

    def _get_relevant_documents(self, query, *, run_manager, k=None, sources=None):
        docs = super()._get_relevant_documents(query, run_manager=run_manager, k=k, sources=sources)
        self.asked.append({"query": query, "k": k, "sources": sources})
        self.returned.extend(d.metadata["id"] for d in docs)
        spoilt = None if self.taint is None else spoil(docs, self.taint)
        if spoilt is None:
            return docs
        self.tainted.append(self.taint[0])
        return spoilt


RETRIEVER = RecordingRetriever(documents=copy.deepcopy(KNOWLEDGE_BASE))
MODEL = RoleModel()
SAVER = InMemorySaver()
GRAPH = build_graph(llm=MODEL, checkpointer=SAVER, retriever=RETRIEVER)
TEXT = {d["id"]: d["text"] for d in KNOWLEDGE_BASE}
SOURCE = {d["id"]: d["source"] for d in KNOWLEDGE_BASE}


@without_backoff()
@given(replies=script(ROLES), policy=POLICIES, taint=TAINTS)
def test_rag_gateway_holds_for_any_reply(replies, policy, taint):
    MODEL.load(replies)
    RETRIEVER.asked.clear()
    RETRIEVER.returned.clear()
    RETRIEVER.tainted.clear()
    RETRIEVER.taint = taint
    config = {"configurable": {"thread_id": str(uuid.uuid4())}}
    values = GRAPH.invoke({"question": QUESTION}, config, context=policy)
    result = check_run("rag", GRAPH, GRAPH.get_state(config).values, values)
    SAVER.delete_thread(config["configurable"]["thread_id"])
    allowed = policy.allowed_sources_execution
    for ask in RETRIEVER.asked:  # the retriever is only ever asked within the execution allowlist
        assert set(ask["sources"]) <= set(allowed), ask
        assert 1 <= ask["k"] <= policy.max_top_k and len(ask["query"]) <= policy.max_query_chars
    FIGURES.count("fuzz:rag", "retrievals", len(RETRIEVER.asked))
    if RETRIEVER.tainted and RETRIEVER.tainted[0] in KEPT_PLACES:  # refused by name
        assert result["stop_reason"] == "tool_invalid_output:retriever", result["stop_reason"]
        FIGURES.count("fuzz:rag", "foreign_results_refused")
    if result["status"] != "ok":
        return
    if result["outcome"] == "clarify":
        assert result["citations"] == []
        return
    cited = result["citations"]
    assert result["outcome"] == "grounded_answer" and cited
    assert len(cited) <= policy.max_context_chunks
    for doc_id in cited:  # only documents retrieved now, from allowed sources
        assert doc_id in RETRIEVER.returned and SOURCE[doc_id] in allowed, doc_id
    assert all(d["score"] >= policy.min_chunk_score for d in result["citation_details"])
    assert not ungrounded_numbers(result["answer"], [TEXT[d] for d in cited])
    FIGURES.count("fuzz:rag", "grounded_answers")
