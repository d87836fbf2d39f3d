"""A user-supplied LangChain retriever behind the RAG gateway: an InMemoryVectorStore with a
deterministic hashing embedding (no network)."""

from __future__ import annotations

import hashlib
import math
import re
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from langchain_core.vectorstores import InMemoryVectorStore
from langgraph.checkpoint.memory import InMemorySaver

from demo_tools.rag import KNOWLEDGE_BASE, demo_input, to_document
from graphs.rag import build_graph
from tests.helpers import scripted, thread

INTENT = {"kind": "retrieve", "query": "enterprise SLA P1 first response target", "top_k": 3}
ANSWER = {
    "answer": "Enterprise: 99.95% monthly uptime SLA; P1 first response 15 minutes, 24/7.",
    "citations": ["doc_sla_enterprise_v3"],
}


class HashingEmbedding(Embeddings):
    """Bag of words hashed into a fixed number of buckets, L2-normalised: deterministic."""

    def __init__(self, size: int = 256) -> None:
        self.size = size

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * self.size
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % self.size] += 1.0
        norm = math.sqrt(sum(v * v for v in vector)) or 1.0
        return [v / norm for v in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._embed(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)


class PurePythonVectorStore(InMemoryVectorStore):
    """``InMemoryVectorStore`` whose similarity is computed without numpy (numpy is not a
    dependency of this project; langchain-core's cosine helper needs it)."""

    def _similarity_search_with_score_by_vector(
        self, embedding: list[float], k: int = 4, filter: Any = None
    ) -> list[tuple[Document, float, list[float]]]:
        scored = []
        for item in self.store.values():
            doc = Document(id=item["id"], page_content=item["text"], metadata=item["metadata"])
            if filter is None or filter(doc):
                similarity = sum(a * b for a, b in zip(embedding, item["vector"], strict=True))
                scored.append((doc, similarity, item["vector"]))
        scored.sort(key=lambda entry: -entry[1])
        return scored[:k]


def vector_retriever(k: int = 5) -> BaseRetriever:
    store = PurePythonVectorStore(HashingEmbedding())
    store.add_documents([to_document(doc) for doc in KNOWLEDGE_BASE])  # no score in metadata
    return store.as_retriever(search_kwargs={"k": k})


def run(llm: Any, retriever: BaseRetriever) -> dict[str, Any]:
    graph = build_graph(llm=llm, checkpointer=InMemorySaver(), retriever=retriever)
    return graph.invoke(demo_input(), thread())


def test_vector_store_retriever_behind_the_same_gateway() -> None:
    result = run(scripted(INTENT, ANSWER), vector_retriever())
    assert (result["status"], result["outcome"]) == ("ok", "grounded_answer")
    assert result["citations"] == ["doc_sla_enterprise_v3"]
    history = next(h for h in result["history"] if h["phase"] == "retrieve")
    # the store returned every document; the gateway kept only allowed sources
    assert history["returned"] == 5
    assert "doc_onboarding_checklist_v1" not in history["candidates"]


def test_generic_retriever_answers_are_still_checked_against_the_packed_context() -> None:
    answer = {**ANSWER, "citations": ["doc_onboarding_checklist_v1"]}
    result = run(scripted(INTENT, answer), vector_retriever())
    assert result["stop_reason"] == "invalid_answer:citations_out_of_context"


class ScoredRetriever(BaseRetriever):
    """Returns fixed documents carrying their own scores."""

    docs: list[Document]

    def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[Document]:
        return list(self.docs)


def test_metadata_scores_are_used_and_the_threshold_applies() -> None:
    low = [to_document(doc, score=0.05) for doc in KNOWLEDGE_BASE]
    result = run(scripted(INTENT), ScoredRetriever(docs=low))
    assert result["outcome"] == "clarify"
    retrieve = next(row for row in result["trace"] if row["phase"] == "retrieve")
    assert retrieve["rejected_low_score"] == 3  # the three allowed-source documents


def test_retriever_failure_is_a_named_stop() -> None:
    class Broken(BaseRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[Document]:
            raise ConnectionError("index down")

    assert run(scripted(INTENT), Broken())["stop_reason"] == "tool_error:retriever"
