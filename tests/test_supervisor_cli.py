"""The CLI runs the supervisor demo with the automatic approver, or pauses with --human."""

from __future__ import annotations

import json

from graphs.cli import EXIT_OK, EXIT_WAITING, main


def test_cli_auto_approver_by_default(capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["run", "supervisor", "--json"]) == EXIT_OK
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "ok"
    refund = next(c for c in result["calls"] if c["tool"] == "issue_refund")
    assert refund["args"]["amount_usd"] == 800
    assert refund["executed_from"] == "human_revised"


def test_cli_human_flag_waits(capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["run", "supervisor", "--json", "--human"]) == EXIT_WAITING
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    [request] = result["waiting_for_human"]
    assert request["reason"] == "high_refund_requires_human"
    assert "Command(resume=" in captured.err


def test_cli_policy_file_can_turn_the_auto_approver_off(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"auto_approver_enabled": False, "auto_approver_cap": 500}))
    assert main(["run", "supervisor", "--json", "--policy", str(policy)]) == EXIT_WAITING
    capsys.readouterr()
