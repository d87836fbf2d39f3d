"""Offline CLI run of the rag demo: ends ok with valid citations."""

from __future__ import annotations


def test_offline_cli_run(cited_offline_run) -> None:
    result = cited_offline_run("rag", "doc_id")
    assert result["outcome"] == "grounded_answer"
    assert result["citations"] == ["doc_sla_enterprise_v3"]
