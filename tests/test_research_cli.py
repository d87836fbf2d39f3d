"""Offline CLI run of the research demo: ends ok with valid citations."""

from __future__ import annotations

import json

import pytest

from apps.cli.main import main


def test_offline_cli_run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["run", "research", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["status"], result["stop_reason"]) == ("ok", "success")
    assert result["model"].startswith("offline:")
    assert result["citations"]
    assert {d["id"] for d in result["citation_details"]} == set(result["citations"])
    aggregate = result["aggregate"]
    assert (aggregate["urls_found"], aggregate["urls_after_dedupe"], aggregate["pages_read"]) == (6, 4, 2)
    assert (aggregate["notes_count"], aggregate["citations_count"], len(aggregate["denied_sources"])) == (
        2,
        2,
        2,
    )
    note_ids = {n["id"] for n in result["notes"]}
    assert set(result["citations"]) <= note_ids
