"""RAG demo: a small support knowledge base and the spec's deterministic lexical retriever.

``LexicalRetriever`` is a LangChain ``BaseRetriever``, so the default and a user's own retriever
(any ``BaseRetriever``, e.g. ``vector_store.as_retriever()``) sit behind the same gateway. It reads
every document for every query; ``IndexedLexicalRetriever`` gives the same documents, scores and
order from an inverted index, and ``lexical_retriever()`` picks it from ``INDEXED_FROM`` documents.
"""

from __future__ import annotations

import copy
import re
from array import array
from collections.abc import Sequence
from typing import Any, ClassVar

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import PrivateAttr

# the demo's input lives in a module of its own, which `agent-patterns input rag` imports alone
from demo_tools.rag_input import QUESTION as QUESTION
from demo_tools.rag_input import demo_input as demo_input

KNOWLEDGE_BASE: list[dict[str, str]] = [
    {
        "id": "doc_sla_enterprise_v3",
        "source": "support_policy",
        "title": "Support Policy",
        "section": "Enterprise SLA",
        "updated_at": "2026-01-15",
        "text": (
            "Enterprise plan includes 99.95% monthly uptime SLA. For P1 incidents, first response "
            "target is 15 minutes, 24/7. For P2 incidents, first response target is 1 hour."
        ),
    },
    {
        "id": "doc_sla_standard_v2",
        "source": "support_policy",
        "title": "Support Policy",
        "section": "Standard SLA",
        "updated_at": "2025-11-10",
        "text": (
            "Standard plan includes 99.5% monthly uptime SLA. For P1 incidents, first response "
            "target is 1 hour during business hours."
        ),
    },
    {
        "id": "doc_security_incident_v2",
        "source": "security_policy",
        "title": "Security Incident Playbook",
        "section": "Escalation",
        "updated_at": "2026-01-20",
        "text": (
            "For enterprise customers, security-related P1 incidents require immediate escalation "
            "to the on-call incident commander and customer success lead."
        ),
    },
    {
        "id": "doc_refund_policy_v4",
        "source": "billing_policy",
        "title": "Billing and Refund Policy",
        "section": "Refund Eligibility",
        "updated_at": "2025-12-01",
        "text": (
            "Annual enterprise subscriptions may receive a prorated refund within 14 days under "
            "approved exception flow."
        ),
    },
    {
        "id": "doc_onboarding_checklist_v1",
        "source": "operations_notes",
        "title": "Enterprise Onboarding Checklist",
        "section": "Launch Prep",
        "updated_at": "2025-09-02",
        "text": (
            "Checklist for onboarding includes SSO setup, domain verification, and success plan kickoff."
        ),
    },
]

STOPWORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "was",
        "were",
        "with",
        "what",
        "which",
        "who",
        "whom",
        "how",
        "why",
        "when",
        "where",
        "does",
        "did",
        "this",
        "that",
        "these",
        "those",
        "from",
        "into",
        "onto",
        "about",
        "plan",
        "has",
        "have",
        "had",
        "its",
        "our",
        "your",
        "their",
        "there",
        "then",
        "than",
        "can",
        "may",
        "any",
        "all",
        "not",
        "but",
        "you",
        "they",
        "them",
    ]
)
_TOKEN = re.compile(r"[a-z0-9]+")
SLA_BOOST = 0.1


def query_tokens(text: str) -> list[str]:
    """Lower-case alphanumeric tokens longer than 2 characters, minus stopwords, without repeats."""
    return list(dict.fromkeys(t for t in _TOKEN.findall(text.lower()) if len(t) > 2 and t not in STOPWORDS))


def lexical_score(query: str, text: str, *, sla_grade: bool = False) -> float:
    """Share of the query's tokens found in ``text``, plus a small boost for SLA-grade documents,
    capped at 1.0. 0.0 when the query has no tokens or none is found."""
    return _tokens_score(query_tokens(query), text, sla_grade)


def _tokens_score(tokens: list[str], text: str, sla_grade: bool) -> float:
    if not tokens:
        return 0.0
    words = set(_TOKEN.findall(text.lower()))
    share = sum(1 for t in tokens if t in words) / len(tokens)
    if share == 0:
        return 0.0
    return _score(share, sla_grade)


def _score(share: float, sla_grade: bool) -> float:
    return round(min(1.0, share + (SLA_BOOST if sla_grade else 0.0)), 4)


def is_sla_grade(doc: dict[str, Any]) -> bool:
    return "sla" in _TOKEN.findall(f"{doc.get('section', '')} {doc.get('title', '')}".lower())


def to_document(doc: dict[str, Any], score: float | None = None) -> Document:
    metadata = {k: v for k, v in doc.items() if k != "text"}
    if score is not None:
        metadata["score"] = score
    return Document(page_content=doc["text"], metadata=metadata, id=doc["id"])


class LexicalRetriever(BaseRetriever):
    """The spec's deterministic lexical retriever over a list of documents (dicts with id, source,
    title, section, updated_at, text). Accepts ``k`` and ``sources`` at call time."""

    #: Tells the RAG gateway it may pass ``k`` and ``sources`` to ``invoke``.
    accepts_search_filters: ClassVar[bool] = True
    documents: list[dict[str, Any]]
    k: int = 4

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        k: int | None = None,
        sources: list[str] | None = None,
    ) -> list[Document]:
        return [to_document(doc, score) for doc, score in self._ranked(query, k or self.k, sources)]

    def _ranked(
        self, query: str, k: int, sources: Sequence[str] | None
    ) -> list[tuple[dict[str, Any], float]]:
        """The ``k`` best documents for ``query`` and their scores, best first (every document read)."""
        scored = []
        tokens = query_tokens(query)
        for doc in self.documents:
            if sources is not None and doc.get("source") not in sources:
                continue
            score = _tokens_score(tokens, str(doc.get("text", "")), is_sla_grade(doc))
            if score > 0:
                scored.append((score, doc))
        scored.sort(key=lambda pair: -pair[0])
        return [(doc, score) for score, doc in scored[:k]]


class LexicalIndex:
    """Which documents hold each token, so a query scores only through its own tokens.

    A token's documents are kept as a bitmap (a Python int, bit ``i`` for document ``i``) when that
    is smaller than a list of their positions, else as that list (turned into a bitmap per query).
    Counting how many query tokens each document holds is then a few big-integer operations.
    """

    def __init__(self, documents: Sequence[dict[str, Any]]) -> None:
        self.size = len(documents)
        self.all = (1 << self.size) - 1
        postings: dict[str, array[int]] = {}
        sla: array[int] = array("I")
        by_source: dict[str, array[int]] = {}
        for i, doc in enumerate(documents):
            for token in set(_TOKEN.findall(str(doc.get("text", "")).lower())):
                postings.setdefault(token, array("I")).append(i)
            if is_sla_grade(doc):
                sla.append(i)
            by_source.setdefault(str(doc.get("source")), array("I")).append(i)
        self.sla = self._bitmap(sla)
        self.by_source = {source: self._bitmap(found) for source, found in by_source.items()}
        self.postings: dict[str, int | array[int]] = {
            token: self._bitmap(found) if len(found) * 32 > self.size else found
            for token, found in postings.items()
        }

    def _bitmap(self, positions: array[int]) -> int:
        bits = bytearray((self.size + 7) // 8)
        for i in positions:
            bits[i >> 3] |= 1 << (i & 7)
        return int.from_bytes(bits, "little")

    def _holding(self, token: str) -> int:
        found = self.postings.get(token, 0)
        return found if isinstance(found, int) else self._bitmap(found)

    def search(self, query: str, k: int, sources: Sequence[str] | None) -> list[tuple[int, float]]:
        """The ``k`` best ``(document position, score)``: the scan's scores, best first, ties in
        document order."""
        tokens = query_tokens(query)
        allowed = self.all
        if sources is not None:
            allowed = 0
            for source in set(sources):
                allowed |= self.by_source.get(source, 0)
        if not tokens or not allowed:
            return []
        exactly = [allowed]  # exactly[c]: documents holding c of the tokens seen so far
        for token in tokens:
            holding = self._holding(token)
            exactly = [
                exactly[0] & ~holding,
                *((exactly[c] & ~holding) | (exactly[c - 1] & holding) for c in range(1, len(exactly))),
                exactly[-1] & holding,
            ]
        by_score: dict[float, int] = {}
        for count in range(1, len(exactly)):
            share = count / len(tokens)
            for sla_grade, docs in ((True, exactly[count] & self.sla), (False, exactly[count] & ~self.sla)):
                if docs:
                    score = _score(share, sla_grade)
                    by_score[score] = by_score.get(score, 0) | docs
        hits: list[tuple[int, float]] = []
        for score in sorted(by_score, reverse=True):
            docs = by_score[score]
            while docs and len(hits) < k:
                lowest = docs & -docs
                hits.append((lowest.bit_length() - 1, score))
                docs ^= lowest
        return hits


class IndexedLexicalRetriever(LexicalRetriever):
    """``LexicalRetriever``'s documents, scores and order from a ``LexicalIndex`` built when the
    retriever is made (documents appended to ``documents`` later are indexed on the next query; edit
    a document in place and make a new retriever)."""

    _index: LexicalIndex = PrivateAttr()

    def model_post_init(self, context: Any) -> None:
        self._index = LexicalIndex(self.documents)

    def _ranked(
        self, query: str, k: int, sources: Sequence[str] | None
    ) -> list[tuple[dict[str, Any], float]]:
        """The ``k`` best documents for ``query`` and their scores, from the index."""
        if self._index.size != len(self.documents):
            self._index = LexicalIndex(self.documents)
        return [(self.documents[i], score) for i, score in self._index.search(query, k, sources)]


#: From this many documents ``lexical_retriever`` answers from an index: reading every document
#: costs about 15 µs a document per query, 17 ms at 1,000 (``python -m bench --only retrieval``).
INDEXED_FROM = 200


def lexical_retriever(documents: list[dict[str, Any]], *, k: int = 4) -> LexicalRetriever:
    """The spec's lexical retriever over ``documents``: indexed from ``INDEXED_FROM`` documents."""
    if len(documents) >= INDEXED_FROM:
        return IndexedLexicalRetriever(documents=documents, k=k)
    return LexicalRetriever(documents=documents, k=k)


def demo_retriever() -> LexicalRetriever:
    return lexical_retriever(copy.deepcopy(KNOWLEDGE_BASE))
