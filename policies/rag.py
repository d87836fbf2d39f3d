"""RAG: the policy and the pure checks of retrieval intent, context packing and the answer.

Citation and number grounding come from :mod:`policies.grounding`, shared with Research.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from policies.base import BasePolicy
from policies.decision import Decision
from policies.grounding import check_citations, ungrounded_numbers
from policies.json_safety import json_problem
from policies.text import nonblank_str, normalize_ws

DEFAULT_SOURCES = ["support_policy", "security_policy", "billing_policy"]
SECURITY_SOURCE = "security_policy"


class RagPolicy(BasePolicy):
    """Budgets and allowlists of the RAG pattern (defaults from the spec)."""

    max_seconds: float = Field(20.0, gt=0, description="Wall-clock budget for the whole run.")
    max_query_chars: int = Field(240, ge=1, description="Longest retrieval query.")
    max_top_k: int = Field(6, ge=1, description="Largest top_k an intent may ask for.")
    max_context_chunks: int = Field(3, ge=1, description="Most chunks packed into the context.")
    max_context_chars: int = Field(2200, ge=1, description="Most characters of packed context.")
    min_chunk_score: float = Field(0.2, ge=0, description="Least score a chunk needs to be packed.")
    allowed_sources_policy: list[str] = Field(
        default_factory=lambda: list(DEFAULT_SOURCES),
        description="Knowledge sources retrieval may use in principle.",
    )
    security_policy_enabled: bool = Field(
        True,
        description="Runtime switch: when off, 'security_policy' leaves the execution allowlist.",
    )

    @property
    def allowed_sources_execution(self) -> list[str]:
        """Sources this runtime may search now: the policy list, minus security when switched off."""
        if self.security_policy_enabled:
            return list(self.allowed_sources_policy)
        return [s for s in self.allowed_sources_policy if s != SECURITY_SOURCE]


def validate_intent(intent: Any, policy: RagPolicy) -> Decision:
    """Check a retrieval intent. On success ``details`` holds ``query``, ``top_k`` and ``sources``
    (the requested ones, or every execution-allowed source). Unknown keys are ignored."""
    if not isinstance(intent, dict):
        return Decision.stop("invalid_intent:not_object")
    if intent.get("kind") != "retrieve":
        return Decision.stop("invalid_intent:kind")
    query = intent.get("query")
    if not nonblank_str(query):
        return Decision.stop("invalid_intent:query")
    top_k = intent.get("top_k")
    if not isinstance(top_k, int) or isinstance(top_k, bool) or not 1 <= top_k <= policy.max_top_k:
        return Decision.stop("invalid_intent:top_k", max_top_k=policy.max_top_k)
    sources = intent.get("sources")
    if sources is not None:
        if not isinstance(sources, list) or not sources:
            return Decision.stop("invalid_intent:sources")
        if not all(nonblank_str(s) for s in sources):
            return Decision.stop("invalid_intent:source_item")
        sources = list(dict.fromkeys(s.strip() for s in sources))
        for source in sources:
            if source not in policy.allowed_sources_policy:
                return Decision.stop(f"invalid_intent:source_not_allowed:{source}")
    query = normalize_ws(query)
    if len(query) > policy.max_query_chars:
        return Decision.stop("invalid_intent:query_too_long", chars=len(query))
    execution = policy.allowed_sources_execution
    if sources is not None:
        denied = sorted(s for s in sources if s not in execution)
        if denied:
            return Decision.stop(f"source_denied:{denied[0]}", denied=denied)
    return Decision.allow(query=query, top_k=top_k, sources=sources or execution)


# --------------------------------------------------------------------------- retrieval results


def chunk_score(value: Any) -> float | None:
    """A usable retrieval score: a finite number, clamped to [0, 1]; None otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return max(0.0, min(1.0, float(value)))


def select_candidates(chunks: Sequence[Mapping[str, Any]], sources: list[str], top_k: int) -> list[dict]:
    """Whatever the retriever returned, keep only chunks with an id, from the allowed ``sources``,
    with a score above 0 and text the run can keep (see :func:`policies.json_safety.json_problem`);
    best first (stable), first chunk per doc id, at most ``top_k``."""
    allowed = set(sources)
    kept: dict[str, dict[str, Any]] = {}
    for chunk in chunks:
        doc_id, score = chunk.get("doc_id"), chunk_score(chunk.get("score"))
        if not nonblank_str(doc_id) or chunk.get("source") not in allowed or not score:
            continue
        if json_problem(chunk) is not None:
            continue
        if doc_id not in kept:
            kept[doc_id] = {**chunk, "score": score}
    ranked = sorted(kept.values(), key=lambda c: -c["score"])
    return ranked[:top_k]


@dataclass(frozen=True)
class PackedContext:
    chunks: tuple[dict[str, Any], ...]
    rejected_low_score: int
    rejected_over_budget: int

    @property
    def chars(self) -> int:
        return sum(len(str(c.get("text", ""))) for c in self.chunks)


def pack_context(candidates: list[dict[str, Any]], policy: RagPolicy) -> PackedContext:
    """Keep chunks scoring at least ``min_chunk_score``, in order, at most ``max_context_chunks``
    and ``max_context_chars`` in total (a chunk that does not fit is skipped)."""
    packed: list[dict[str, Any]] = []
    low = over = 0
    used = 0
    for chunk in candidates:
        if float(chunk.get("score") or 0) < policy.min_chunk_score:
            low += 1
            continue
        size = len(str(chunk.get("text", "")))
        if len(packed) >= policy.max_context_chunks or used + size > policy.max_context_chars:
            over += 1
            continue
        packed.append(chunk)
        used += size
    return PackedContext(tuple(packed), low, over)


# --------------------------------------------------------------------------- answer


def validate_answer(answer: str, citations: list[Any], context: list[Mapping[str, Any]]) -> Decision:
    """The answer cites only packed chunks, cites at least one, and every number in it is in a
    cited chunk. On success ``details["citations"]`` holds the deduplicated citations."""
    context_ids = [str(c["doc_id"]) for c in context]
    check = check_citations(citations, context_ids)
    if check.unknown:
        return Decision.stop(
            "invalid_answer:citations_out_of_context",
            invalid_citations=list(check.unknown),
            context_doc_ids=context_ids,
        )
    if not check.cited:
        return Decision.stop("invalid_answer:missing_citations", context_doc_ids=context_ids)
    cited_text = [str(c.get("text", "")) for c in context if c["doc_id"] in check.cited]
    missing = ungrounded_numbers(answer, cited_text)
    if missing:
        return Decision.stop("invalid_answer:ungrounded_numbers", ungrounded_numbers=missing)
    return Decision.allow(citations=list(check.cited))
