"""The CLI answers ``create_agent`` threads (issue 47): ``waiting``, ``runs``, ``approve``,
``edit`` and ``reject`` work on a thread of the shipped support desk in the same store, and a
``create_agent`` thread of an agent the CLI does not know gets one line saying how to answer it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.processes import run

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parent.parent
REFUND = "Refund 120 EUR on order ORD-1002"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "AGENT_PATTERNS_DB")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, *args], cwd=ROOT, timeout=180, env=_env())


def cli(db: Path, command: str, *args: str) -> subprocess.CompletedProcess[str]:
    return _run("-m", "governed_agent_patterns", command, *args, "--db", str(db))


def desk_waits(db: Path, thread: str = "T1") -> None:
    out = _run("-m", "governed_agent_patterns.apps.cli.desk", "--db", str(db), "--thread", thread, REFUND)
    assert out.returncode == 3 and "large_refund" in out.stdout, (out.stdout, out.stderr)


def refunds(db: Path, thread: str = "T1") -> list[dict[str, object]]:
    """The thread's ``issue_refund`` calls, as its ``governance_calls`` keep them."""
    code = textwrap.dedent(
        f"""
        import json
        from apps.operations.runs import load_run
        from nodes.store import open_checkpointer
        with open_checkpointer({str(db)!r}) as saver:
            record = load_run(saver, {thread!r})
        calls = [c for c in record.result.get("governance_calls", []) if c.get("tool") == "issue_refund"]
        print(json.dumps({{"status": record.summary.status, "calls": calls}}, default=str))
        """
    )
    out = _run("-c", code)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert found["status"] == "ok", found
    return list(found["calls"])


def test_the_desks_waiting_refund_is_listed_by_waiting_and_runs(tmp_path):
    db = tmp_path / "desk.sqlite"
    desk_waits(db)
    waiting = cli(db, "waiting")
    assert waiting.returncode == 0, waiting.stderr
    assert "T1" in waiting.stdout and "support_desk" in waiting.stdout, waiting.stdout
    assert "issue_refund(amount=120.0, order_id=ORD-1002)" in waiting.stdout, waiting.stdout
    listed = json.loads(cli(db, "runs", "--json").stdout)
    assert [(r["thread_id"], r["pattern"], r["status"]) for r in listed] == [
        ("T1", "support_desk", "waiting")
    ]
    only = json.loads(cli(db, "runs", "--pattern", "support_desk", "--json").stdout)
    assert [r["thread_id"] for r in only] == ["T1"]


def test_approve_runs_the_refund_once_and_a_second_answer_is_told_already_answered(tmp_path):
    db = tmp_path / "desk.sqlite"
    desk_waits(db)
    approved = cli(db, "approve", "T1")
    assert approved.returncode == 0, (approved.stdout, approved.stderr)
    assert "ok: support_desk replied" in approved.stdout and "issue_refund" in approved.stdout
    again = cli(db, "reject", "T1")
    assert again.returncode == 2 and "already answered (approve" in again.stderr, again.stderr
    assert "Traceback" not in again.stderr and again.stderr.count("\n") == 1
    calls = refunds(db)
    assert len(calls) == 1 and calls[0]["args"] == {"order_id": "ORD-1002", "amount": 120.0}, calls
    runs = json.loads(cli(db, "runs", "--json").stdout)
    assert [(r["thread_id"], r["status"]) for r in runs] == [("T1", "ok")]


def test_edit_refunds_the_edited_amount(tmp_path):
    db = tmp_path / "desk.sqlite"
    desk_waits(db)
    edited = cli(db, "edit", "T1", '{"amount": 60}')
    assert edited.returncode == 0, (edited.stdout, edited.stderr)
    calls = refunds(db)
    assert len(calls) == 1 and calls[0]["args"] == {"order_id": "ORD-1002", "amount": 60}, calls


def test_reject_refunds_nothing(tmp_path):
    db = tmp_path / "desk.sqlite"
    desk_waits(db)
    rejected = cli(db, "reject", "T1", "--message", "too much")
    assert rejected.returncode == 0, (rejected.stdout, rejected.stderr)
    assert "human_rejected" in rejected.stdout, rejected.stdout
    assert refunds(db) == []
    again = cli(db, "approve", "T1")
    assert again.returncode == 2 and "already answered (reject" in again.stderr, again.stderr


UNKNOWN_AGENT = """
from langchain.agents import create_agent
from demo_tools import support_desk as desk
from nodes.store import open_checkpointer
from nodes.middleware import GovernanceMiddleware, GovernanceState
from nodes.offline.support_desk import OfflineDeskModel

with open_checkpointer({db!r}, writable=True) as saver:
    agent = create_agent(
        OfflineDeskModel(), desk.tools, checkpointer=saver, state_schema=GovernanceState,
        middleware=[GovernanceMiddleware(desk.policy, tools=desk.tools, subject=desk.SUBJECT)],
    )
    out = agent.invoke({{"messages": [("user", {text!r})]}}, {{"configurable": {{"thread_id": "own"}}}})
    assert out.get("__interrupt__"), out
"""


def test_an_unknown_create_agent_thread_gets_a_pointer_to_answer_it(tmp_path):
    db = tmp_path / "own.sqlite"
    made = _run("-c", UNKNOWN_AGENT.format(db=str(db), text=REFUND))
    assert made.returncode == 0, made.stderr
    for command in ("approve", "reject"):
        out = cli(db, command, "own")
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert "create_agent thread of an agent the CLI does not know" in out.stderr, out.stderr
        assert 'apps.operations.runs.answer_waiting(agent, thread_id, {"decisions": [' in out.stderr
        assert "journal=nodes.store.journal_for(saver)" in out.stderr
    assert "no run is waiting" in cli(db, "waiting").stdout
