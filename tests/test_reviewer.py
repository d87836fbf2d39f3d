"""Issue 47: who approved, and when. Every human answer may name its reviewer (from Python, in the
resume value; from the CLI and the desk console, ``--as NAME`` or the OS user): the answered call's
audit rows carry ``reviewer`` and ``answered_at`` beside ``approved_by: human``, in both engines."""

from __future__ import annotations

import getpass
import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from langgraph.types import Command

from policies.human import answer_problem, answer_reviewer, parse_human_answer
from tests.helpers import thread
from tests.processes import run_cli
from tests.test_middleware import PAY_BOB, READ_FINANCE, agent_for, ask
from tests.test_supervisor_hitl import paused

ROOT = Path(__file__).resolve().parent.parent


def _is_utc_iso(text: str) -> bool:
    return datetime.fromisoformat(text).utcoffset().total_seconds() == 0  # type: ignore[union-attr]


# ------------------------------------------------------------------ the answer


@pytest.mark.parametrize(
    "value",
    [
        {"type": "approve", "reviewer": "alice"},
        {"decisions": [{"type": "approve"}], "reviewer": "alice"},
        {"decisions": [{"type": "approve", "reviewer": " alice "}]},
        {"decisions": [{"type": "approve", "reviewer": "alice"}], "reviewer": "alice"},
    ],
)
def test_a_reviewer_is_read_in_every_shape_and_is_no_edit(value):
    answer = parse_human_answer(value)
    assert answer is not None and answer.reviewer == "alice" and answer.edits == {}
    assert answer_reviewer(value) == "alice"


def test_an_edit_keeps_its_fields_and_names_its_reviewer_apart():
    answer = parse_human_answer({"type": "edit", "edited_action": {"args": {"x": 1}}, "reviewer": "bo"})
    assert answer is not None and answer.edits == {"edited_action": {"args": {"x": 1}}}
    assert answer.reviewer == "bo"


def test_no_reviewer_is_none_never_made_up():
    assert parse_human_answer({"type": "approve"}).reviewer is None  # type: ignore[union-attr]
    assert answer_reviewer({"decisions": [{"type": "approve"}]}) is None


@pytest.mark.parametrize(
    "value",
    [
        {"type": "approve", "reviewer": ""},
        {"type": "approve", "reviewer": "   "},
        {"type": "approve", "reviewer": 7},
        {"type": "approve", "reviewer": "x" * 65},
        {"type": "approve", "reviewer": "al\nice"},
        {"decisions": [{"type": "approve"}], "reviewer": None},
        {"decisions": [{"type": "approve", "reviewer": "bob"}], "reviewer": "alice"},
    ],
)
def test_a_bad_reviewer_refuses_the_answer_with_the_problem(value):
    assert parse_human_answer(value) is None
    assert "reviewer" in answer_problem(value)


# ------------------------------------------------------------------ the Supervisor graph


def test_supervisor_a_named_reviewer_lands_in_the_trace_the_call_and_the_history():
    graph, config, _desk, _ = paused()
    final = graph.invoke(Command(resume={"type": "approve", "reviewer": "alice"}), config)
    refund = next(c for c in final["calls"] if c["tool"] == "issue_refund")
    assert refund["approved_by"] == "human" and refund["reviewer"] == "alice"
    assert _is_utc_iso(refund["answered_at"])
    row = next(r for r in final["trace"] if r.get("phase") == "execution" and r.get("tool") == "issue_refund")
    assert (row["approved_by"], row["reviewer"], row["answered_at"]) == (
        "human",
        "alice",
        refund["answered_at"],
    )
    history = next(
        h
        for h in final["history"]
        if h.get("phase") == "execution" and (h.get("executed_action") or {}).get("name") == "issue_refund"
    )
    assert history["reviewer"] == "alice" and history["answered_at"] == refund["answered_at"]


def test_supervisor_hitl_shape_and_a_rejection_carry_the_reviewer():
    graph, config, _desk, _ = paused()
    answer = {"decisions": [{"type": "reject", "message": "no"}], "reviewer": "carol"}
    final = graph.invoke(Command(resume=answer), config)
    assert final["stop_reason"] == "human_rejected"
    row = final["trace"][-1]
    assert row["human_approved"] is False and row["reviewer"] == "carol" and _is_utc_iso(row["answered_at"])
    assert final["history"][-1]["reviewer"] == "carol"


def test_supervisor_a_missing_reviewer_is_absent():
    graph, config, _desk, _ = paused()
    final = graph.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config)
    refund = next(c for c in final["calls"] if c["tool"] == "issue_refund")
    assert refund["approved_by"] == "human" and "reviewer" not in refund and refund["answered_at"]
    assert all("reviewer" not in r for r in final["trace"])


def test_supervisor_a_bad_reviewer_is_refused_as_an_answer():
    graph, config, desk, _ = paused()
    again = graph.invoke(Command(resume={"type": "approve", "reviewer": ""}), config)
    question = again["__interrupt__"][0].value
    assert "reviewer" in question["problem"] and not desk.refunds
    final = graph.invoke(Command(resume={"type": "approve", "reviewer": "alice"}), config)
    assert [r["amount_usd"] for r in desk.refunds.values()] == [1200]
    refused = [r for r in final["trace"] if r.get("phase") == "answer_refused"]
    assert refused and "reviewer" in refused[0]["problem"]


# ------------------------------------------------------------------ create_agent + GovernanceMiddleware


def test_middleware_a_named_reviewer_lands_in_the_call_and_the_trace():
    agent, office = agent_for([READ_FINANCE, PAY_BOB, "Paid."])
    config = thread()
    agent.invoke(ask(), config)
    done = agent.invoke(Command(resume={"decisions": [{"type": "approve"}], "reviewer": "alice"}), config)
    assert len(office.effects) == 1
    payment = next(c for c in done["governance_calls"] if c["tool"] == "send_payment")
    assert payment["approved_by"] == "human" and payment["reviewer"] == "alice"
    assert _is_utc_iso(payment["answered_at"])
    row = next(r for r in done["governance_trace"] if r.get("tool") == "send_payment")
    assert row["reviewer"] == "alice" and row["answered_at"] == payment["answered_at"]


def test_middleware_a_reviewer_inside_the_decision_and_a_rejection():
    agent, _office = agent_for([READ_FINANCE, PAY_BOB, "Not paid."])
    config = thread()
    agent.invoke(ask(), config)
    answer = {"decisions": [{"type": "reject", "message": "no", "reviewer": "dan"}]}
    done = agent.invoke(Command(resume=answer), config)
    [refusal] = done["governance_refusals"]
    assert refusal["by"] == "human" and refusal["reviewer"] == "dan" and refusal["answered_at"]
    row = next(r for r in done["governance_trace"] if r.get("phase") == "refused")
    assert row["reviewer"] == "dan" and row["refused_by"] == "human"


def test_middleware_a_missing_reviewer_is_absent_and_a_bad_one_is_refused():
    agent, office = agent_for([READ_FINANCE, PAY_BOB, "Paid."])
    config = thread()
    agent.invoke(ask(), config)
    again = agent.invoke(Command(resume={"decisions": [{"type": "approve"}], "reviewer": 3}), config)
    assert "reviewer" in again["__interrupt__"][0].value["problem"] and not office.effects
    done = agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config)
    payment = next(c for c in done["governance_calls"] if c["tool"] == "send_payment")
    assert "reviewer" not in payment and payment["answered_at"]


# ------------------------------------------------------------------ the CLI, as a user runs it


def _cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, drop=("OPENAI_", "AGENT_PATTERNS_REVIEWER"), **env)


def _waiting(db: Path, thread_id: str = "S") -> None:
    done = _cli("run", "supervisor", "--human", "--db", str(db), "--thread-id", thread_id)
    assert done.returncode == 3, done.stdout + done.stderr


def _refund_call(db: Path, thread_id: str = "S") -> dict:
    shown = _cli("show", thread_id, "--json", "--db", str(db))
    assert shown.returncode == 0, shown.stderr
    result = json.loads(shown.stdout)
    return next(c for c in result["calls"] if c["tool"] == "issue_refund")


@pytest.mark.integration
def test_cli_as_names_the_reviewer_in_the_rows_and_the_audit(tmp_path):
    db = tmp_path / "runs.sqlite"
    _waiting(db)
    done = _cli("approve", "S", "--as", "alice", "--db", str(db))
    assert done.returncode == 0, done.stderr
    call = _refund_call(db)
    assert call["reviewer"] == "alice" and call["approved_by"] == "human" and _is_utc_iso(call["answered_at"])
    audit = _cli("audit", "S", "--db", str(db))
    assert audit.returncode == 0, audit.stderr
    assert "approved by human alice at " in audit.stdout, audit.stdout


@pytest.mark.integration
def test_cli_defaults_to_the_environment_then_the_os_user(tmp_path):
    db = tmp_path / "runs.sqlite"
    _waiting(db)
    done = _cli("approve", "S", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert _refund_call(db)["reviewer"] == getpass.getuser()
    _waiting(db, "R")
    done = _cli("reject", "R", "--message", "no", "--db", str(db), AGENT_PATTERNS_REVIEWER="erin")
    assert done.returncode == 1, done.stderr  # stopped: human_rejected
    assert "answered by human erin at " in _cli("audit", "R", "--db", str(db)).stdout


@pytest.mark.integration
def test_cli_a_bad_name_is_one_line_and_runs_nothing(tmp_path):
    db = tmp_path / "runs.sqlite"
    _waiting(db)
    done = _cli("approve", "S", "--as", "  ", "--db", str(db))
    assert done.returncode == 2 and "--as" in done.stderr and "Traceback" not in done.stderr
    assert _cli("approve", "S", "--as", "bob", "--db", str(db)).returncode == 0


@pytest.mark.integration
def test_desk_console_as_names_the_reviewer_and_a_second_answer_is_told_who(tmp_path):
    db = tmp_path / "desk.sqlite"

    def console(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "governed_agent_patterns.apps.cli.desk", "--db", str(db), *args],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=180,
        )

    assert console("--thread", "T", "Refund 120 EUR on order ORD-1002").returncode == 3
    assert console("--thread", "T", "--as", "alice", "--answer", '{"type": "approve"}').returncode == 0
    again = console("--thread", "T", "--as", "bob", "--answer", '{"type": "approve"}')
    assert again.returncode == 2 and ", by alice)" in again.stderr, again.stderr
    from graphs.support_desk import build_agent
    from nodes.store import open_checkpointer

    with open_checkpointer(str(db)) as saver:
        values = build_agent(checkpointer=saver).get_state({"configurable": {"thread_id": "T"}}).values
    [refund] = [c for c in values["governance_calls"] if c["tool"] == "issue_refund"]
    assert refund["reviewer"] == "alice" and _is_utc_iso(refund["answered_at"])
