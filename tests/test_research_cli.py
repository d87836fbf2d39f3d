"""Offline CLI run of the research demo: ends ok with valid citations."""

from __future__ import annotations


def test_offline_cli_run(cited_offline_run) -> None:
    result = cited_offline_run("research", "id")
    aggregate = result["aggregate"]
    assert (aggregate["urls_found"], aggregate["urls_after_dedupe"], aggregate["pages_read"]) == (6, 4, 2)
    assert (aggregate["notes_count"], aggregate["citations_count"], len(aggregate["denied_sources"])) == (
        2,
        2,
        2,
    )
    note_ids = {n["id"] for n in result["notes"]}
    assert set(result["citations"]) <= note_ids
