"""The shared grounding checks Research and RAG rely on."""

from __future__ import annotations

import pytest

from policies.grounding import check_citations, numbers_in, quote_in_source, ungrounded_numbers

SLA = (
    "Enterprise plan includes 99.95% monthly uptime SLA. "
    "For P1 incidents, first response target is 15 minutes, 24/7."
)


@pytest.mark.parametrize(
    "answer",
    [
        "Uptime is 99.95%.",
        "Uptime is 99.95 %.",
        "A 15-minute first response.",
        "Support is available 24/7.",
        "P1 response within 15 minutes, 24/7, at 99.95% uptime.",
    ],
)
def test_numbers_written_in_common_forms_are_grounded(answer: str) -> None:
    assert ungrounded_numbers(answer, SLA) == []


@pytest.mark.parametrize(
    ("answer", "missing"),
    [
        ("Uptime is 99.9%.", ["99.9%"]),
        ("A 30-minute first response.", ["30"]),
        ("Support is available 24/5.", ["5"]),
        ("Uptime is 99.99% and response 10 minutes.", ["99.99%", "10"]),
    ],
)
def test_numbers_not_in_the_evidence_are_reported(answer: str, missing: list[str]) -> None:
    assert ungrounded_numbers(answer, SLA) == missing


def test_identifier_digits_are_labels_not_numbers() -> None:
    assert [n.text for n in numbers_in("P1 and P2 per doc_sla_v3 [n1]")] == []
    assert ungrounded_numbers("P3 incidents are cited as [n7] from doc_x_v9", SLA) == []


def test_structured_evidence_is_flattened() -> None:
    assert ungrounded_numbers("rate 3.4%", {"pages": [{"text": "Failed payment rate is 3.4%."}]}) == []


def test_check_citations_deduplicates_and_finds_unknown() -> None:
    check = check_citations(["a", " a ", "b", "x", "x", 3], ["a", "b"])
    assert check.cited == ("a", "b")
    assert check.unknown == ("x", "3")


def test_quote_in_source_normalises_whitespace_but_keeps_case() -> None:
    source = "Failed payment rate   is 3.4%.\nChargeback alerts observed: 5."
    assert quote_in_source("rate is 3.4%. Chargeback alerts", source)
    assert not quote_in_source("Rate is 3.4%", source)
    assert not quote_in_source("   ", source)
    assert not quote_in_source("rate is 3.5%", source)
