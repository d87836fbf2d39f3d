"""Offline CLI run of the rag demo: ends ok with valid citations."""

from __future__ import annotations

import json

import pytest

from apps.cli.main import main


def test_offline_cli_run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["run", "rag", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["status"], result["stop_reason"]) == ("ok", "success")
    assert result["model"].startswith("offline:")
    assert result["citations"]
    assert {d["doc_id"] for d in result["citation_details"]} == set(result["citations"])
    assert result["outcome"] == "grounded_answer"
    assert result["citations"] == ["doc_sla_enterprise_v3"]
