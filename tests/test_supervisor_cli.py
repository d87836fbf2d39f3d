"""The CLI runs the supervisor demo with the automatic approver, or pauses with --human."""

from __future__ import annotations

import json

import pytest

from apps.cli.main import EXIT_OK, EXIT_WAITING, main


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


def test_audit_prints_every_turn_of_a_thread(capsys, monkeypatch):
    """Three runs on one thread: ``audit`` reads each back from the audit log kept beside the
    runs, turn by turn, with who approved what; ``--turn`` and ``--json`` pick and print one."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    for _ in range(3):
        assert main(["run", "supervisor", "--json", "--thread-id", "chat-1"]) == EXIT_OK
    capsys.readouterr()
    assert main(["audit", "chat-1"]) == EXIT_OK
    text = capsys.readouterr().out
    assert "read from the audit log" in text
    assert [line.split()[1] for line in text.splitlines() if line.startswith("turn ")] == ["1", "2", "3"]
    assert text.count("approved by auto_approver") == 3 and text.count("ok (success)") == 3
    assert main(["audit", "chat-1", "--turn", "2", "--json"]) == EXIT_OK
    [run] = json.loads(capsys.readouterr().out)["runs"]
    assert run["turn"] == 2 and run["status"] == "ok"
    assert [c["tool"] for c in run["calls"]] == ["get_refund_context", "issue_refund", "send_refund_email"]
    assert next(c for c in run["calls"] if c["tool"] == "issue_refund")["approved_by"] == "auto_approver"
    for args, problem in (
        (["audit", "nobody"], "no audit of thread 'nobody'"),
        (["audit", "chat-1", "--turn", "9"], "no run for turn 9"),
    ):
        with pytest.raises(SystemExit) as stop:
            main(args)
        assert stop.value.code == 2 and problem in capsys.readouterr().err
