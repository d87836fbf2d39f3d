"""Unit tests of the RAG gateway rules and the demo lexical scorer (no graph, no LLM)."""

from __future__ import annotations

from typing import Any

import pytest

from demo_tools.rag import KNOWLEDGE_BASE, QUESTION, lexical_score, query_tokens
from policies import rag as r

POLICY = r.RagPolicy()
NO_SECURITY = r.RagPolicy(security_policy_enabled=False)


def intent(**over: Any) -> dict[str, Any]:
    return {"kind": "retrieve", "query": "enterprise SLA", "top_k": 3, **over}


def test_no_sources_means_every_execution_allowed_source() -> None:
    decision = r.validate_intent(intent(extra="ignored"), POLICY)
    assert decision.passed
    assert decision.details == {"query": "enterprise SLA", "top_k": 3, "sources": r.DEFAULT_SOURCES}
    assert "security_policy" not in r.validate_intent(intent(), NO_SECURITY).details["sources"]


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (["retrieve"], "invalid_intent:not_object"),
        ("retrieve", "invalid_intent:not_object"),
        (intent(kind="answer"), "invalid_intent:kind"),
        ({"query": "x", "top_k": 1}, "invalid_intent:kind"),
        (intent(query="  "), "invalid_intent:query"),
        (intent(query=7), "invalid_intent:query"),
        (intent(top_k=0), "invalid_intent:top_k"),
        (intent(top_k=7), "invalid_intent:top_k"),
        (intent(top_k="3"), "invalid_intent:top_k"),
        (intent(top_k=True), "invalid_intent:top_k"),
        (intent(top_k=2.0), "invalid_intent:top_k"),
        (intent(sources=[]), "invalid_intent:sources"),
        (intent(sources="support_policy"), "invalid_intent:sources"),
        (intent(sources=["support_policy", " "]), "invalid_intent:source_item"),
        (intent(sources=["support_policy", 3]), "invalid_intent:source_item"),
        (intent(sources=["operations_notes"]), "invalid_intent:source_not_allowed:operations_notes"),
        (intent(query="x" * 241), "invalid_intent:query_too_long"),
    ],
)
def test_intent_stops(raw: Any, reason: str) -> None:
    decision = r.validate_intent(raw, POLICY)
    assert decision.verdict == "stop" and decision.reason == reason


def test_query_length_is_checked_after_sources() -> None:
    raw = intent(query="x" * 300, sources=["operations_notes"])
    assert r.validate_intent(raw, POLICY).reason == "invalid_intent:source_not_allowed:operations_notes"


def test_runtime_switch_denies_security_source_for_execution() -> None:
    raw = intent(sources=["support_policy", "security_policy"])
    assert r.validate_intent(raw, POLICY).passed
    decision = r.validate_intent(raw, NO_SECURITY)
    assert decision.reason == "source_denied:security_policy"
    assert NO_SECURITY.allowed_sources_execution == ["support_policy", "billing_policy"]


def test_source_denied_lists_every_denied_source() -> None:
    decision = r.validate_intent(intent(sources=["security_policy", "billing_policy"]), NO_SECURITY)
    assert decision.reason == "source_denied:security_policy"
    assert decision.details["denied"] == ["security_policy"]


# --------------------------------------------------------------------------- candidates and packing


def chunk(doc_id: str, score: Any, source: str = "support_policy", text: str = "t" * 10) -> dict[str, Any]:
    return {"doc_id": doc_id, "source": source, "score": score, "text": text}


def test_select_candidates_filters_sources_scores_and_duplicates() -> None:
    chunks = [
        chunk("a", 0.3),
        chunk("b", 0.9),
        chunk("a", 0.95),  # a second chunk of a kept doc is dropped
        chunk("c", 0.8, source="operations_notes"),
        chunk("d", 0),
        chunk("e", float("nan")),
        chunk("", 0.9),
        chunk("f", 1.7),
    ]
    kept = r.select_candidates(chunks, ["support_policy"], 3)
    assert [(c["doc_id"], c["score"]) for c in kept] == [("f", 1.0), ("b", 0.9), ("a", 0.3)]


def test_pack_context_threshold_count_and_chars() -> None:
    candidates = [chunk("a", 0.9, text="x" * 1500), chunk("b", 0.8, text="y" * 800), chunk("c", 0.5)]
    candidates += [chunk("d", 0.4), chunk("e", 0.3), chunk("low", 0.19)]
    packed = r.pack_context(candidates, POLICY)
    assert [c["doc_id"] for c in packed.chunks] == ["a", "c", "d"]
    assert packed.rejected_low_score == 1
    assert packed.rejected_over_budget == 2
    assert packed.chars == 1520


def test_pack_context_empty_when_all_below_threshold() -> None:
    packed = r.pack_context([chunk("a", 0.1), chunk("b", 0.19)], POLICY)
    assert packed.chunks == () and packed.rejected_low_score == 2


# --------------------------------------------------------------------------- answer

CONTEXT = [
    {"doc_id": "doc_sla_enterprise_v3", "text": KNOWLEDGE_BASE[0]["text"]},
    {"doc_id": "doc_sla_standard_v2", "text": KNOWLEDGE_BASE[1]["text"]},
]


def test_grounded_answer_passes_with_numbers_in_several_forms() -> None:
    answer = "Enterprise: 99.95% uptime; P1 gets a 15-minute first response, 24/7."
    decision = r.validate_answer(answer, ["doc_sla_enterprise_v3", "doc_sla_enterprise_v3"], CONTEXT)
    assert decision.passed and decision.details["citations"] == ["doc_sla_enterprise_v3"]


def test_out_of_context_citation() -> None:
    decision = r.validate_answer("Uptime 99.95%.", ["doc_sla_enterprise_v3", "doc_refund_policy_v4"], CONTEXT)
    assert decision.reason == "invalid_answer:citations_out_of_context"
    assert decision.details["invalid_citations"] == ["doc_refund_policy_v4"]
    assert decision.details["context_doc_ids"] == ["doc_sla_enterprise_v3", "doc_sla_standard_v2"]


def test_missing_citations() -> None:
    assert r.validate_answer("Uptime 99.95%.", [], CONTEXT).reason == "invalid_answer:missing_citations"


@pytest.mark.parametrize("answer", ["Uptime is 99.99%.", "A 30-minute response.", "Support 24/5."])
def test_ungrounded_numbers(answer: str) -> None:
    decision = r.validate_answer(answer, ["doc_sla_enterprise_v3"], CONTEXT)
    assert decision.reason == "invalid_answer:ungrounded_numbers"


def test_numbers_must_be_in_a_cited_chunk_not_just_any_chunk() -> None:
    decision = r.validate_answer("Standard uptime is 99.5%.", ["doc_sla_enterprise_v3"], CONTEXT)
    assert decision.details["ungrounded_numbers"] == ["99.5%"]


# --------------------------------------------------------------------------- demo scorer


def test_query_tokens_drop_short_words_and_stopwords() -> None:
    assert query_tokens(QUESTION) == ["sla", "applies", "enterprise", "first", "response", "target"]


def test_lexical_score_share_boost_and_cap() -> None:
    assert lexical_score("enterprise sla", "Enterprise SLA") == 1.0
    assert lexical_score("enterprise sla", "Enterprise SLA", sla_grade=True) == 1.0
    assert lexical_score("enterprise refund", "enterprise plan") == 0.5
    assert lexical_score("enterprise refund", "enterprise plan", sla_grade=True) == 0.6
    assert lexical_score("refund", "enterprise plan", sla_grade=True) == 0.0
    assert lexical_score("the what", "anything") == 0.0
