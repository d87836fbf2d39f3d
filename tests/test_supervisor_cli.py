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
    assert refund["executed_from"] == "auto_approver_revised"


def test_cli_human_flag_waits(capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["run", "supervisor", "--json", "--human"]) == EXIT_WAITING
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    [request] = result["waiting_for_human"]
    assert request["reason"] == "high_refund_requires_human"
    thread = result["thread_id"]
    assert f"agent-patterns approve {thread}" in captured.err

    assert main(["waiting"]) == EXIT_OK
    listing = capsys.readouterr().out
    assert thread in listing and "issue_refund" in listing and "high_refund_requires_human" in listing

    assert main(["approve", thread, "--json"]) == EXIT_OK
    approved = json.loads(capsys.readouterr().out)
    assert approved["status"] == "ok"
    [refund] = [c for c in approved["calls"] if c["tool"] == "issue_refund"]
    assert refund["args"]["amount_usd"] == 1200 and refund["human_approved"] is True

    assert main(["waiting", "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out) == []


def test_cli_policy_file_can_turn_the_auto_approver_off(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"auto_approver_enabled": False, "auto_approver_cap": 500}))
    assert main(["run", "supervisor", "--json", "--policy", str(policy)]) == EXIT_WAITING
    capsys.readouterr()
