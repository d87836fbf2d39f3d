"""RAG graph runs with scripted models and the demo retriever (no network)."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from demo_tools.rag import demo_input
from graphs.rag import build_graph
from policies.rag import RagPolicy
from tests.helpers import RaisingModel, scripted, thread

INTENT = {"kind": "retrieve", "query": "enterprise SLA P1 first response target", "top_k": 4}
ANSWER = {
    "answer": "The enterprise plan has a 99.95% monthly uptime SLA, and P1 incidents get a 15-minute "
    "first response, 24/7.",
    "citations": ["doc_sla_enterprise_v3"],
}


def run(llm: Any, inputs: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    context = kwargs.pop("context", None)
    graph = build_graph(llm=llm, checkpointer=InMemorySaver(), **kwargs)
    return graph.invoke(inputs or demo_input(), thread(), context=context)


def test_demo_path_grounded_answer() -> None:
    result = run(scripted(INTENT, ANSWER))
    assert (result["status"], result["stop_reason"], result["outcome"]) == (
        "ok",
        "success",
        "grounded_answer",
    )
    assert result["citations"] == ["doc_sla_enterprise_v3"]
    (detail,) = result["citation_details"]
    assert detail["source"] == "support_policy" and detail["section"] == "Enterprise SLA"
    assert detail["updated_at"] == "2026-01-15" and 0.2 <= detail["score"] <= 1.0
    retrieve = next(row for row in result["trace"] if row["phase"] == "retrieve")
    assert retrieve["requested_sources"] == ["support_policy", "security_policy", "billing_policy"]
    assert retrieve["context_chunks"] >= 1 and "rejected_low_score" in retrieve
    assert result["trace"][-1]["phase"] == "generate" and result["trace"][-1]["citations"] == 1


def test_no_relevant_context_falls_back_to_clarify() -> None:
    intent = {"kind": "retrieve", "query": "zebra migration telescope", "top_k": 3}
    llm = scripted(intent)  # no second reply: the answer node must not be called
    result = run(llm)
    assert (result["status"], result["stop_reason"], result["outcome"]) == ("ok", "success", "clarify")
    assert result["citations"] == [] and "clarify" in result["answer"]
    assert [row["phase"] for row in result["trace"]][-1] == "fallback"


def test_only_low_score_context_falls_back_to_clarify() -> None:
    intent = {"kind": "retrieve", "query": "refund prorated annual window policy exception", "top_k": 3}
    result = run(scripted(intent), policy=RagPolicy(min_chunk_score=0.95))
    assert result["outcome"] == "clarify"
    retrieve = next(row for row in result["trace"] if row["phase"] == "retrieve")
    assert retrieve["rejected_low_score"] >= 1 and retrieve["context_chunks"] == 0


def test_invented_citation_is_out_of_context() -> None:
    answer = {**ANSWER, "citations": ["doc_sla_enterprise_v3", "doc_refund_policy_v4"]}
    result = run(scripted(INTENT, answer))
    assert result["stop_reason"] == "invalid_answer:citations_out_of_context"
    assert result["invalid_citations"] == ["doc_refund_policy_v4"]
    assert "doc_sla_enterprise_v3" in result["context_doc_ids"]


def test_missing_citations() -> None:
    result = run(scripted(INTENT, {**ANSWER, "citations": []}))
    assert result["stop_reason"] == "invalid_answer:missing_citations"


def test_ungrounded_number_in_answer() -> None:
    answer = {"answer": "Enterprise uptime is 99.99%.", "citations": ["doc_sla_enterprise_v3"]}
    result = run(scripted(INTENT, answer))
    assert result["stop_reason"] == "invalid_answer:ungrounded_numbers"
    assert result["ungrounded_numbers"] == ["99.99%"]


def test_unknown_source_in_intent() -> None:
    result = run(scripted({**INTENT, "sources": ["support_policy", "wiki"]}))
    assert result["stop_reason"] == "invalid_intent:source_not_allowed:wiki"
    assert result["phase"] == "intent" and result["raw_intent"]["sources"] == ["support_policy", "wiki"]


def test_runtime_switch_denies_the_security_source() -> None:
    intent = {**INTENT, "sources": ["security_policy", "support_policy"]}
    result = run(scripted(intent), context=RagPolicy(security_policy_enabled=False))
    assert result["stop_reason"] == "source_denied:security_policy"


def test_switched_off_source_is_never_retrieved() -> None:
    intent = {"kind": "retrieve", "query": "security incident escalation commander", "top_k": 3}
    result = run(scripted(intent), policy=RagPolicy(security_policy_enabled=False))
    assert result["outcome"] == "clarify"
    assert "security_policy" not in result["intent"]["sources"]


def test_intent_not_an_object() -> None:
    assert run(scripted(["retrieve"]))["stop_reason"] == "invalid_intent:not_object"


def test_empty_answer_and_schema() -> None:
    assert run(scripted(INTENT, {"answer": " ", "citations": []}))["stop_reason"] == "llm_empty"
    assert run(scripted(INTENT, {"text": "x"}))["stop_reason"] == "llm_invalid_schema"
    assert run(scripted(INTENT, "{oops"))["stop_reason"] == "llm_invalid_json"


@pytest.mark.usefixtures("instant_backoff")
def test_llm_timeout() -> None:
    result = run(RaisingModel(replies=[INTENT, TimeoutError("upstream timed out")]))
    assert (result["stop_reason"], result["phase"]) == ("llm_timeout", "generate")


def test_max_seconds() -> None:
    result = run(RaisingModel(replies=[(1.0, INTENT)]), policy=RagPolicy(max_seconds=0.3))
    assert (result["status"], result["stop_reason"], result["phase"]) == ("stopped", "max_seconds", "intent")


def test_missing_question() -> None:
    assert run(scripted(INTENT), {"question": ""})["stop_reason"] == "invalid_input:question"


def test_offline_model_end_to_end() -> None:
    result = build_graph(checkpointer=InMemorySaver()).invoke(demo_input(), thread())
    assert result["status"] == "ok" and result["outcome"] == "grounded_answer"
    assert result["citations"] == ["doc_sla_enterprise_v3"]
    assert "99.95%" in result["answer"] and "15 minutes" in result["answer"]
