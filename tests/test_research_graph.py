"""Research graph runs with scripted models and demo or injected tools (no network)."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from demo_tools.research import PAGES, demo_input, demo_read, demo_search
from graphs.research import build_graph
from policies.research import PLAN_SEQUENCE, ResearchPolicy
from tests.helpers import RaisingModel, gateway_rows, llm_rows, scripted, thread

INCIDENT = "https://official-status.example.com/incidents/payments-2026-03-07"
SLA = "https://vendor.example.com/policies/enterprise-sla"
PLAN = {
    "steps": [
        {
            "id": f"s{i}",
            "action": a,
            "args": {"query": "US payments incident enterprise SLA"} if i == 1 else {},
        }
        for i, a in enumerate(PLAN_SEQUENCE, start=1)
    ]
}
NOTES = {
    "notes": [
        {
            "id": "n1",
            "claim": "The US payment gateway is in P1 degraded mode with a 3.4% failed payment rate.",
            "quote": "US payment gateway is in P1 degraded mode. Failed payment rate is 3.4%.",
            "url": INCIDENT,
            "title": "Payments Incident Update",
            "published_at": "2026-03-07",
        },
        {
            "id": "n2",
            "claim": "Enterprise uptime SLA is 99.95%; P1 first response within 15 minutes, 24/7.",
            "quote": "Enterprise monthly uptime SLA is 99.95%. For P1 incidents, first response target is "
            "15 minutes, available 24/7.",
            "url": SLA,
            "title": "Enterprise SLA",
            "published_at": "2026-01-15",
        },
    ]
}
ANSWER = {
    "answer": "US payments are in P1 degraded mode (3.4% failed payments) [n1]. Enterprise SLA: 99.95% "
    "uptime and a 15-minute P1 first response, 24/7 [n2].",
    "citations": ["n1", "n2"],
}


def run(llm: Any, inputs: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    context = kwargs.pop("context", None)
    graph = build_graph(llm=llm, checkpointer=InMemorySaver(), **kwargs)
    return graph.invoke(inputs or demo_input(), thread(), context=context)


def test_demo_path_with_a_scripted_model() -> None:
    result = run(scripted(PLAN, NOTES, ANSWER))
    assert (result["status"], result["stop_reason"]) == ("ok", "success")
    assert result["outcome"] == "grounded_research_answer"
    agg = result["aggregate"]
    assert (agg["urls_found"], agg["urls_after_dedupe"], agg["pages_read"]) == (6, 4, 2)
    assert (agg["notes_count"], agg["verified_notes"], agg["citations_count"]) == (2, 2, 2)
    assert agg["denied_sources"] == [
        {
            "url": "https://regulator.example.org/guidance/customer-communications",
            "reason": "source_denied_execution",
        },
        {
            "url": "https://community-rumors.example.net/thread/payment-outage",
            "reason": "source_denied_policy",
        },
    ]
    assert result["citations"] == ["n1", "n2"]
    assert [d["url"] for d in result["citation_details"]] == [INCIDENT, SLA]
    phases = [row["phase"] for row in result["trace"]]
    for phase in ("plan", "search", "dedupe", "read_extract", "verify", "synthesize"):
        assert phase in phases
    assert all(isinstance(row["elapsed_ms"], int) for row in result["trace"])


def test_trace_and_history_are_recoverable_from_the_checkpointer() -> None:
    saver = InMemorySaver()
    config = thread()
    build_graph(llm=scripted(PLAN, NOTES, ANSWER), checkpointer=saver).invoke(demo_input(), config)
    state = build_graph(llm=scripted(), checkpointer=saver).get_state(config).values
    assert state["status"] == "ok" and len(gateway_rows(state["trace"])) == 7 and state["history"]
    assert len(llm_rows(state["trace"])) == 3 and state["usage"]["llm_calls"] == 3


def test_invented_citation_stops() -> None:
    result = run(scripted(PLAN, NOTES, {**ANSWER, "citations": ["n1", "n7"]}))
    assert result["stop_reason"] == "invalid_answer:citation_unknown"
    assert result["invalid_citations"] == ["n7"]
    assert result["phase"] == "synthesize"


def test_number_not_in_cited_notes_stops() -> None:
    reply = {"answer": "Uptime SLA is 99.99% [n2].", "citations": ["n2"]}
    result = run(scripted(PLAN, NOTES, reply))
    assert result["stop_reason"] == "invalid_answer:ungrounded_numbers"
    assert result["ungrounded_numbers"] == ["99.99%"]


def test_quote_not_in_page_fails_verification() -> None:
    notes = {"notes": [{**NOTES["notes"][0], "quote": "US payment gateway is fully recovered now."}]}
    result = run(scripted(PLAN, notes, ANSWER))
    assert result["stop_reason"] == "verification_failed:quote_not_in_source"
    assert result["verification_issues"][0] == {"note_id": "n1", "issue": "quote_not_in_source"}


def test_claim_number_missing_from_quote_fails_verification() -> None:
    notes = {"notes": [{**NOTES["notes"][0], "claim": "Failed payment rate is 3.4%, ETA 45 minutes."}]}
    result = run(scripted(PLAN, notes, ANSWER))
    assert result["stop_reason"] == "verification_failed:claim_numbers_not_in_quote"


def test_note_from_an_unread_source_fails_verification() -> None:
    forum = "https://community-rumors.example.net/thread/payment-outage"
    notes = {"notes": [{**NOTES["notes"][0], "url": forum}]}
    result = run(scripted(PLAN, notes, ANSWER))
    assert result["stop_reason"] == "verification_failed:url_not_read"


def test_empty_notes_stop() -> None:
    assert run(scripted(PLAN, {"notes": []}))["stop_reason"] == "invalid_notes:empty"


def test_bad_plan_stops_with_the_raw_plan() -> None:
    plan = {"steps": list(reversed(PLAN["steps"]))}
    result = run(scripted(plan))
    assert result["stop_reason"] == "invalid_plan:step_sequence"
    assert result["raw_plan"] == plan and result["phase"] == "plan"


def test_only_unknown_sources_found_ends_without_reliable_sources() -> None:
    def search(query: str, limit: int) -> list[dict[str, Any]]:
        return [{"url": "https://community-rumors.example.net/thread/payment-outage", "title": "forum"}]

    result = run(scripted(PLAN), search=search)
    assert result["stop_reason"] == "no_reliable_sources"
    assert result["denied_sources"][0]["reason"] == "source_denied_policy"


def test_no_results_after_dedupe() -> None:
    result = run(scripted(PLAN), search=lambda q, n: [{"url": "mailto:x@example.com"}])
    assert result["stop_reason"] == "no_sources_after_dedupe"


def test_search_breaking_its_contract() -> None:
    result = run(scripted(PLAN), search=lambda q, n: {"results": []})
    assert result["stop_reason"] == "tool_invalid_output:search"


def test_reader_breaking_its_contract() -> None:
    result = run(scripted(PLAN), reader=lambda url: {"url": url, "body": "no text key"})
    assert result["stop_reason"] == "tool_invalid_output:read"


def test_reader_that_finds_nothing_ends_without_reliable_sources() -> None:
    result = run(scripted(PLAN), reader=lambda url: None)
    assert result["stop_reason"] == "no_reliable_sources"


def test_search_is_asked_for_twice_max_urls_and_hints_are_clamped() -> None:
    asked: list[int] = []

    def search(query: str, limit: int) -> list[dict[str, Any]]:
        asked.append(limit)
        return demo_search(query, limit)

    inputs = demo_input()
    inputs["request"]["policy_hints"].update(max_urls=99, max_read_pages=1)
    result = run(
        scripted(PLAN, {"notes": NOTES["notes"][:1]}, {**ANSWER, "citations": ["n1"]}), inputs, search=search
    )
    assert asked == [40]
    assert result["limits"]["max_urls"] == 20
    read_row = next(row for row in gateway_rows(result["trace"]) if row["phase"] == "read_extract")
    assert read_row["pages_read"] == 1
    # only the incident page was read and cited: the answer's SLA numbers are not grounded
    assert result["stop_reason"] == "invalid_answer:ungrounded_numbers"


def test_runtime_context_narrows_the_execution_allowlist() -> None:
    context = ResearchPolicy(allowed_domains_execution=["vendor.example.com"])
    notes = {"notes": NOTES["notes"][1:]}
    answer = {"answer": "Enterprise uptime SLA is 99.95% [n1].", "citations": ["n1"]}
    notes["notes"] = [{**notes["notes"][0], "id": "n1"}]
    result = run(scripted(PLAN, notes, answer), context=context)
    assert result["status"] == "ok"
    assert result["aggregate"]["pages_read"] == 1
    reasons = sorted(d["reason"] for d in result["denied_sources"])
    assert reasons == ["source_denied_execution", "source_denied_execution", "source_denied_policy"]


@pytest.mark.usefixtures("instant_backoff")
def test_llm_timeout() -> None:
    model = RaisingModel(replies=[TimeoutError("read timed out")])
    result = run(model)
    assert model.calls == 3  # the first attempt and the policy's 2 retries
    assert (result["status"], result["stop_reason"], result["phase"]) == ("stopped", "llm_timeout", "plan")


@pytest.mark.usefixtures("instant_backoff")
def test_llm_call_timeout_within_the_run_budget() -> None:
    slow = RaisingModel(replies=[PLAN, NOTES, (1.0, ANSWER)])
    result = run(slow, policy=ResearchPolicy(llm_timeout_seconds=0.2))
    assert (result["stop_reason"], result["phase"]) == ("llm_timeout", "synthesize")


def test_max_seconds_cuts_a_slow_model_short() -> None:
    slow = RaisingModel(replies=[PLAN, (1.0, NOTES)])
    result = run(slow, policy=ResearchPolicy(max_seconds=0.4))
    assert result["stop_reason"] == "max_seconds"
    assert result["phase"] == "read_extract"


def test_invalid_json_and_missing_goal() -> None:
    assert run(scripted("not json"))["stop_reason"] == "llm_invalid_json"
    assert run(scripted(PLAN), {"goal": " "})["stop_reason"] == "invalid_input:goal"


def test_offline_model_end_to_end() -> None:
    graph = build_graph(checkpointer=InMemorySaver(), search=demo_search, reader=demo_read)
    result = graph.invoke(demo_input(), thread())
    assert result["status"] == "ok" and result["model"].startswith("offline:")
    for detail in result["citation_details"]:
        note = next(n for n in result["notes"] if n["id"] == detail["id"])
        assert note["quote"] in " ".join(PAGES[detail["url"]]["text"].split())
