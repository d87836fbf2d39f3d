"""Offline roles for RAG: a retrieval intent from the question, an answer from the packed chunks.

The planner turns the question into a query within the allowed length. The answerer keeps, from the
best chunks, the sentences that share words with the question (and no other incident-priority label
than the question's, e.g. no P2 sentence for a P1 question), copies them verbatim and cites the
chunk each came from, so every number in the answer is in a cited chunk.
"""

from __future__ import annotations

import re
from typing import Any

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[a-z0-9]+")
_LABEL = re.compile(r"\b[pP][0-5]\b")
_STOP = frozenset(["what", "which", "how", "the", "and", "for", "plan", "does", "are", "applies", "apply"])


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in _STOP}


def plan(payload: dict[str, Any]) -> dict[str, Any]:
    question = " ".join(str(payload.get("question") or "").split())
    limit = int(payload.get("max_query_chars") or 240)
    top_k = min(4, int(payload.get("max_top_k") or 4))
    return {"kind": "retrieve", "query": question[:limit].strip(), "top_k": top_k}


def _fits(sentence: str, words: set[str], labels: set[str]) -> bool:
    found = {label.upper() for label in _LABEL.findall(sentence)}
    if labels and found and not found & labels:
        return False
    return len(_words(sentence) & words) >= 2


def answer(payload: dict[str, Any]) -> dict[str, Any]:
    question = str(payload.get("question") or "")
    words = _words(question)
    labels = {label.upper() for label in _LABEL.findall(question)}
    parts: list[str] = []
    citations: list[str] = []
    covered: set[str] = set()
    for chunk in payload.get("context") or []:
        chosen = [s for s in _SENTENCE_END.split(str(chunk.get("text") or "")) if _fits(s, words, labels)]
        new = set().union(*(_words(s) for s in chosen)) & words - covered if chosen else set()
        if not new:
            continue
        covered |= new
        parts.append(f"{' '.join(chosen)} [{chunk.get('doc_id')}]")
        citations.append(str(chunk.get("doc_id")))
    if not parts:
        return {"answer": "The retrieved context does not answer this question.", "citations": []}
    return {"answer": " ".join(parts), "citations": citations}


ROLES = {
    "rag.plan": plan,
    "rag.answer": answer,
}
