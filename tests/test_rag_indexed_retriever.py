"""The indexed lexical retriever gives exactly the scan's documents, scores and order; the RAG
default switches to it for a large knowledge base."""

from __future__ import annotations

import copy
import random

import pytest

from demo_tools.rag import (
    INDEXED_FROM,
    KNOWLEDGE_BASE,
    QUESTION,
    IndexedLexicalRetriever,
    LexicalRetriever,
    demo_retriever,
    lexical_retriever,
)
from graphs.rag import build_graph
from nodes.offline import OfflineChatModel

WORDS = ["enterprise", "sla", "uptime", "incident", "refund", "p1", "response", "target", "hours", "minutes"]
WORDS += [f"term{i}" for i in range(40)]
SOURCES = ["support_policy", "security_policy", "billing_policy", "operations_notes"]


def corpus(size: int, seed: int = 3) -> list[dict[str, str]]:
    rng = random.Random(seed)
    return [
        {
            "id": f"d{i}",
            "source": rng.choice(SOURCES),
            "title": rng.choice(["Support Policy", "Playbook"]),
            "section": rng.choice(["Enterprise SLA", "Escalation", "Refunds"]),
            "updated_at": "2026-01-01",
            "text": " ".join(rng.choices(WORDS, k=rng.randint(3, 12))) + (" 99.95%" if i % 7 == 0 else ""),
        }
        for i in range(size)
    ]


def found(retriever: LexicalRetriever, query: str, **filters) -> list[tuple[str, float]]:
    return [(d.metadata["id"], d.metadata["score"]) for d in retriever.invoke(query, **filters)]


def test_same_documents_scores_and_order_as_the_scan():
    docs = corpus(300)
    scan, indexed = LexicalRetriever(documents=docs), IndexedLexicalRetriever(documents=docs)
    rng = random.Random(5)
    queries = [
        "",
        "the and what",
        "nothing-here",
        *(" ".join(rng.choices(WORDS, k=rng.randint(1, 7))) for _ in range(150)),
    ]
    compared = 0
    for query in queries:
        for k in (1, 4, 50, 400):
            for sources in (None, [], ["support_policy"], ["billing_policy", "security_policy"], ["unknown"]):
                expected = found(scan, query, k=k, sources=sources)
                assert found(indexed, query, k=k, sources=sources) == expected, (query, k, sources)
                compared += bool(expected)
    assert compared > 500  # most comparisons had results to compare


def test_ties_keep_document_order_and_sla_boost_counts():
    docs = [
        {"id": "a", "source": "s", "title": "t", "section": "x", "updated_at": "", "text": "alpha beta"},
        {"id": "b", "source": "s", "title": "t", "section": "SLA", "updated_at": "", "text": "alpha"},
        {"id": "c", "source": "s", "title": "t", "section": "x", "updated_at": "", "text": "beta alpha"},
        {"id": "d", "source": "s", "title": "t", "section": "x", "updated_at": "", "text": "alpha"},
    ]
    expected = [("a", 1.0), ("c", 1.0), ("b", 0.6), ("d", 0.5)]
    assert found(LexicalRetriever(documents=docs), "alpha beta", k=4) == expected
    assert found(IndexedLexicalRetriever(documents=docs), "alpha beta", k=4) == expected


def test_demo_knowledge_base_and_appended_documents():
    docs = copy.deepcopy(KNOWLEDGE_BASE)
    indexed = IndexedLexicalRetriever(documents=docs)
    assert found(indexed, QUESTION) == found(LexicalRetriever(documents=docs), QUESTION)
    indexed.documents.append({**docs[0], "id": "doc_new", "text": "Enterprise P1 first response target."})
    after = found(indexed, QUESTION, k=6)
    assert "doc_new" in [doc_id for doc_id, _ in after]
    assert after == found(LexicalRetriever(documents=indexed.documents), QUESTION, k=6)


@pytest.mark.parametrize(("size", "kind"), [(5, LexicalRetriever), (INDEXED_FROM, IndexedLexicalRetriever)])
def test_lexical_retriever_indexes_a_large_knowledge_base(size, kind):
    assert type(lexical_retriever(corpus(size))) is kind
    assert type(demo_retriever()) is LexicalRetriever


def test_rag_over_a_large_knowledge_base_answers_from_the_index():
    docs = corpus(INDEXED_FROM) + copy.deepcopy(KNOWLEDGE_BASE)
    graph = build_graph(llm=OfflineChatModel(), retriever=lexical_retriever(docs))
    result = graph.invoke({"question": QUESTION})
    assert (result["status"], result["outcome"]) == ("ok", "grounded_answer")
    assert "doc_sla_enterprise_v3" in result["citations"]
