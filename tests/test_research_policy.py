"""Unit tests of the Research gateway rules (no graph, no LLM)."""

from __future__ import annotations

from typing import Any

import pytest

from policies import research as r

POLICY = r.ResearchPolicy()
LIMITS = r.effective_limits(POLICY, None)


def steps(*actions: str, query: Any = "payments incident") -> list[dict[str, Any]]:
    return [
        {"id": f"s{i}", "action": a, "args": {"query": query} if i == 0 else {}}
        for i, a in enumerate(actions)
    ]


GOOD_PLAN = {"steps": steps(*r.PLAN_SEQUENCE)}


# --------------------------------------------------------------------------- hints


def test_defaults_without_hints() -> None:
    assert (LIMITS.max_urls, LIMITS.max_read_pages, LIMITS.max_notes, LIMITS.max_answer_chars) == (
        6,
        3,
        6,
        850,
    )
    assert LIMITS.allowed_domains_execution == ("official-status.example.com", "vendor.example.com")


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("max_urls", 50, 20),
        ("max_urls", 0, 1),
        ("max_urls", 9, 9),
        ("max_read_pages", 11, 10),
        ("max_read_pages", -3, 1),
        ("max_notes", 21, 20),
        ("max_notes", 0, 1),
        ("max_answer_chars", 100, 120),
        ("max_answer_chars", 5000, 2000),
        ("max_answer_chars", 500, 500),
    ],
)
def test_hints_are_clamped(name: str, value: int, expected: int) -> None:
    assert getattr(r.effective_limits(POLICY, {name: value}), name) == expected


@pytest.mark.parametrize("value", ["6", 6.0, True, None, [3]])
def test_a_hint_that_is_not_an_integer_falls_back_to_the_default(value: Any) -> None:
    assert r.effective_limits(POLICY, {"max_urls": value}).max_urls == POLICY.max_urls


def test_domain_hints_narrow_but_never_widen() -> None:
    limits = r.effective_limits(
        POLICY,
        {
            "allowed_domains_policy": ["vendor.example.com", "evil.example.com"],
            "allowed_domains_execution": ["vendor.example.com", "official-status.example.com"],
        },
    )
    assert limits.allowed_domains_policy == ("vendor.example.com",)
    assert limits.allowed_domains_execution == ("vendor.example.com",)


def test_limits_round_trip_through_state() -> None:
    assert r.ResearchLimits.from_dict(LIMITS.as_dict()) == LIMITS


# --------------------------------------------------------------------------- plan


def test_a_good_plan_passes_with_its_query() -> None:
    decision = r.validate_plan(GOOD_PLAN, POLICY)
    assert decision.passed and decision.details["query"] == "payments incident"
    assert r.validate_plan(GOOD_PLAN["steps"], POLICY).passed  # a bare list is accepted too


@pytest.mark.parametrize(
    ("plan", "reason"),
    [
        ({"steps": []}, "invalid_plan:steps"),
        ({"steps": "search"}, "invalid_plan:steps"),
        ({}, "invalid_plan:steps"),
        ("not a plan", "invalid_plan:steps"),
        ({"steps": steps(*r.PLAN_SEQUENCE, *r.PLAN_SEQUENCE)}, "invalid_plan:too_many_steps"),
        ({"steps": ["search_sources"]}, "invalid_step:not_object"),
        ({"steps": [{"id": " ", "action": "search_sources", "args": {}}]}, "invalid_step:id"),
        ({"steps": [{"id": "s1", "action": "", "args": {}}]}, "invalid_step:action"),
        ({"steps": [{"id": "s1", "action": "search_sources", "args": []}]}, "invalid_step:args"),
        ({"steps": steps(*reversed(r.PLAN_SEQUENCE))}, "invalid_plan:step_sequence"),
        ({"steps": steps(*r.PLAN_SEQUENCE[:-1])}, "invalid_plan:step_sequence"),
        ({"steps": steps(*r.PLAN_SEQUENCE, query="  ")}, "invalid_search:query"),
        ({"steps": steps(*r.PLAN_SEQUENCE, query=None)}, "invalid_search:query"),
    ],
)
def test_plan_stops(plan: Any, reason: str) -> None:
    decision = r.validate_plan(plan, POLICY)
    assert decision.verdict == "stop" and decision.reason == reason


def test_step_sequence_stop_names_expected_and_received() -> None:
    decision = r.validate_plan({"steps": steps("search_sources", "synthesize_answer")}, POLICY)
    assert decision.details["expected"] == list(r.PLAN_SEQUENCE)
    assert decision.details["received"] == ["search_sources", "synthesize_answer"]


# --------------------------------------------------------------------------- URLs and sources


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "https://Vendor.Example.com/policies/enterprise-sla/",
            "https://vendor.example.com/policies/enterprise-sla",
        ),
        ("HTTPS://vendor.example.com/a?ref=search", "https://vendor.example.com/a"),
        ("https://vendor.example.com/a#latest", "https://vendor.example.com/a"),
        ("https://vendor.example.com/", "https://vendor.example.com"),
        ("https://vendor.example.com/Case/Path", "https://vendor.example.com/Case/Path"),
        ("http://vendor.example.com:8080/x", "http://vendor.example.com:8080/x"),
        ("ftp://vendor.example.com/x", None),
        ("/relative/path", None),
        ("", None),
        (42, None),
    ],
)
def test_normalize_url(url: Any, expected: str | None) -> None:
    assert r.normalize_url(url) == expected


def test_dedupe_keeps_first_of_each_and_at_most_max_urls() -> None:
    results = [
        {"url": "https://a.example.com/x", "title": "first"},
        {"url": "https://A.example.com/x#frag", "title": "dup"},
        {"url": "https://a.example.com/x?q=1", "title": "dup"},
        {"url": "not a url"},
        {"url": "https://b.example.com/y"},
        {"url": "https://c.example.com/z"},
    ]
    kept = r.dedupe_urls(results, 2)
    assert [k["url"] for k in kept] == ["https://a.example.com/x", "https://b.example.com/y"]
    assert kept[0]["title"] == "first"


def test_source_decision_two_tiers() -> None:
    assert r.source_decision("https://vendor.example.com/p", LIMITS).passed
    policy_denied = r.source_decision("https://community-rumors.example.net/t", LIMITS)
    assert (policy_denied.verdict, policy_denied.reason) == ("deny", "source_denied_policy")
    execution_denied = r.source_decision("https://regulator.example.org/g", LIMITS)
    assert (execution_denied.verdict, execution_denied.reason) == ("deny", "source_denied_execution")
    assert not r.source_decision("https://vendor.example.com.evil.net/p", LIMITS).passed


@pytest.mark.parametrize("results", [None, {"url": "x"}, [{"title": "no url"}], ["https://a"]])
def test_search_contract(results: Any) -> None:
    assert r.validate_search_results(results).reason == "tool_invalid_output:search"


@pytest.mark.parametrize("page", [None, {"text": ""}, {"text": "body", "title": 3}, "text"])
def test_page_contract(page: Any) -> None:
    assert r.validate_page(page).reason == "tool_invalid_output:read"


# --------------------------------------------------------------------------- notes

PAGE_URL = "https://vendor.example.com/policies/enterprise-sla"
PAGES = {
    PAGE_URL: {
        "url": PAGE_URL,
        "title": "Enterprise SLA",
        "published_at": "2026-01-15",
        "text": "Enterprise monthly uptime SLA is 99.95%. For P1 incidents, first response target is "
        "15 minutes, available 24/7.",
    }
}


def note(**over: Any) -> dict[str, Any]:
    base = {
        "id": "n1",
        "claim": "Enterprise uptime SLA is 99.95%.",
        "quote": "Enterprise monthly uptime   SLA is 99.95%.",
        "url": PAGE_URL + "/",
        "title": "made up",
        "published_at": "",
    }
    return {**base, **over}


@pytest.mark.parametrize(
    ("notes", "reason"),
    [
        ([], "invalid_notes:empty"),
        (None, "invalid_notes:empty"),
        ([note(id=f"n{i}") for i in range(7)], "invalid_notes:too_many"),
        (["a note"], "invalid_notes:item"),
        ([note(id="")], "invalid_notes:id"),
        ([note(url=None)], "invalid_notes:url"),
        ([note(claim=" ")], "invalid_notes:claim"),
        ([note(quote="too short")], "invalid_notes:quote"),
        ([note(quote=None)], "invalid_notes:quote"),
    ],
)
def test_note_structure_stops(notes: Any, reason: str) -> None:
    assert r.validate_notes(notes, 6, 20).reason == reason


def test_verified_notes_take_provenance_from_the_page() -> None:
    decision = r.verify_notes([note()], PAGES, 20)
    assert decision.passed
    (verified,) = decision.details["notes"]
    assert verified["url"] == PAGE_URL
    assert (verified["title"], verified["published_at"]) == ("Enterprise SLA", "2026-01-15")


@pytest.mark.parametrize(
    ("bad", "issue"),
    [
        (note(claim=""), "claim_missing"),
        (note(quote="SLA is 99.95%."), "quote_too_short"),
        (note(url="https://vendor.example.com/other"), "url_not_read"),
        (note(quote="Enterprise monthly uptime SLA is 99.99%."), "quote_not_in_source"),
        (note(claim="Uptime is 99.95% with a 10-minute response."), "claim_numbers_not_in_quote"),
    ],
)
def test_verification_issues(bad: dict[str, Any], issue: str) -> None:
    decision = r.verify_notes([note(), bad], PAGES, 20)
    assert decision.reason == f"verification_failed:{issue}"
    assert decision.details["issues"][0]["issue"] == issue


def test_duplicate_note_ids_fail_verification() -> None:
    assert r.verify_notes([note(), note()], PAGES, 20).reason == "verification_failed:duplicate_id"


# --------------------------------------------------------------------------- synthesis

NOTES = [
    {"id": "n1", "quote": "Failed payment rate is 3.4%.", "published_at": "2026-03-07"},
    {"id": "n2", "quote": "Enterprise monthly uptime SLA is 99.95%.", "published_at": "2026-01-15"},
]


@pytest.mark.parametrize(
    ("answer", "citations", "reason"),
    [
        (" ", ["n1"], "invalid_answer:empty"),
        ("x" * 851, ["n1"], "invalid_answer:too_long"),
        ("Failed rate 3.4%.", [], "invalid_answer:citations"),
        ("Failed rate 3.4%.", ["n1", "n9"], "invalid_answer:citation_unknown"),
        ("Failed rate 3.4% and uptime 99.95%.", ["n1"], "invalid_answer:ungrounded_numbers"),
    ],
)
def test_synthesis_stops(answer: str, citations: list[str], reason: str) -> None:
    assert r.validate_synthesis(answer, citations, NOTES, 850).reason == reason


def test_synthesis_passes_with_deduplicated_citations_and_dates() -> None:
    answer = "As of 2026-03-07 the failed rate is 3.4% [n1]; uptime SLA 99.95% [n2]."
    decision = r.validate_synthesis(answer, ["n1", "n2", "n1"], NOTES, 850, "2026-03-07")
    assert decision.passed and decision.details["citations"] == ["n1", "n2"]
