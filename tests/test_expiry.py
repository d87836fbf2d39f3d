"""Approvals that expire (issue 47): a policy (or a tool's rules) sets how long a question to a human
stays valid (``ask_expires_after``); the request says when it expires; an answer given later runs
nothing: the call is refused (``approval_expired``) or asked again with a fresh expiry
(``on_expired``), and the audit row says which, with the late answer and its reviewer. Both engines
(the Supervisor graph and ``GovernanceMiddleware`` on ``create_agent``), real clocks with short
times. ``agent-patterns waiting`` shows each question's age and expiry, and ``reject-expired``
rejects every expired question of a store, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
import time
import uuid
from datetime import datetime
from typing import Any

import pytest
from langchain.agents import create_agent
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from apps.cli.main import EXIT_OK, EXIT_WAITING, main
from demo_tools import support_desk as desk
from demo_tools.supervisor import BillingDesk, demo_input
from graphs.supervisor import build_graph
from nodes.journal import Journal
from nodes.middleware import GovernanceMiddleware
from nodes.offline import OfflineChatModel
from nodes.offline.support_desk import OfflineDeskModel
from policies.supervisor import SupervisorPolicy, ToolRules, demo_policy

REFUND = "Refund 120 EUR on order ORD-1002"
#: A question that expires this soon, and a wait that outlasts it.
SHORT, PAST = 0.6, 1.1


class SupervisorEngine:
    """The Supervisor graph over the demo billing desk, paused at its refund above 1000."""

    name = "supervisor"

    def __init__(self, role: str | None = None, **fields: Any) -> None:
        self.desk = BillingDesk()
        policy = demo_policy(**fields)
        if role is not None:  # the refund needs a reviewer holding ``role``
            refund = policy.rules["issue_refund"].model_copy(update={"reviewer_role": role})
            policy = policy.model_copy(update={"rules": {**policy.rules, "issue_refund": refund}})
        self.graph = build_graph(
            llm=OfflineChatModel(), tools=self.desk.registry(), policy=policy, checkpointer=InMemorySaver()
        )
        self.config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        self.values: dict[str, Any] = {}

    def start(self) -> dict[str, Any]:
        self.values = self.graph.invoke(demo_input(), self.config)
        return self.values["__interrupt__"][0].value

    def answer(self, kind: str, reviewer: str) -> dict[str, Any] | None:
        """The answer given; the question asked next, or None when the run went on."""
        self.values = self.graph.invoke(Command(resume={"type": kind, "reviewer": reviewer}), self.config)
        pending = self.values.get("__interrupt__")
        return pending[0].value if pending else None

    def refunds(self) -> int:
        return len(self.desk.refunds)

    def rows(self) -> list[dict[str, Any]]:
        return list(self.values.get("trace") or [])

    def refusal(self) -> str | None:
        return self.values.get("stop_reason") if self.values.get("status") == "stopped" else None


class AgentEngine:
    """``create_agent`` with ``GovernanceMiddleware`` over the support desk, paused at its refund."""

    name = "create_agent"

    def __init__(self, rules: ToolRules | None = None, role: str | None = None, **fields: Any) -> None:
        update: dict[str, Any] = dict(fields)
        if role is not None:  # the refund needs a reviewer holding ``role``
            rules = (rules or desk.policy.rules["issue_refund"]).model_copy(update={"reviewer_role": role})
        if rules is not None:
            update["rules"] = {**desk.policy.rules, "issue_refund": rules}
        policy = desk.policy.model_copy(update=update)
        self.journal = Journal()
        governance = GovernanceMiddleware(policy, tools=desk.tools, journal=self.journal)
        self.agent = create_agent(
            OfflineDeskModel(), desk.tools, middleware=[governance], checkpointer=InMemorySaver()
        )
        self.config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        self.values: dict[str, Any] = {}

    def start(self) -> dict[str, Any]:
        given = {"messages": [("user", REFUND)], "governance_subject": dict(desk.SUBJECT)}
        self.values = self.agent.invoke(given, self.config)
        return self.values["__interrupt__"][0].value

    def answer(self, kind: str, reviewer: str) -> dict[str, Any] | None:
        decision = {"decisions": [{"type": kind}], "reviewer": reviewer}
        self.values = self.agent.invoke(Command(resume=decision), self.config)
        pending = self.values.get("__interrupt__")
        return pending[0].value if pending else None

    def refunds(self) -> int:
        calls = self.agent.get_state(self.config).values.get("governance_calls") or []
        return sum(1 for c in calls if c.get("tool") == "issue_refund" and c.get("ok"))

    def rows(self) -> list[dict[str, Any]]:
        return list(self.agent.get_state(self.config).values.get("governance_trace") or [])

    def refusal(self) -> str | None:
        refusals = self.agent.get_state(self.config).values.get("governance_refusals") or []
        return refusals[-1]["reason"] if refusals else None


ENGINES = {"supervisor": SupervisorEngine, "create_agent": AgentEngine}


@pytest.fixture(params=list(ENGINES))
def engine(request):
    return ENGINES[request.param]


def _seconds(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def _expired_rows(engine: Any) -> list[dict[str, Any]]:
    return [r for r in engine.rows() if r.get("phase") == "approval_expired"]


def test_without_ask_expires_after_nothing_changes(engine):
    """The default: no question expires; the request carries no expiry, the journal keeps no time
    asked, and an answer however late is applied."""
    assert SupervisorPolicy().ask_expires_after is None and SupervisorPolicy().on_expired == "reject"
    assert ToolRules().ask_expires_after is None and ToolRules().on_expired is None
    run = engine()
    request = run.start()
    assert not {"asked_at", "expires_at", "expires_after", "on_expired", "round"} & set(request)
    assert "expires at" not in request["action_requests"][0]["description"]
    if isinstance(run, AgentEngine):  # no time asked kept in the journal either
        thread = run.config["configurable"]["thread_id"]
        assert not [a for a in run.journal.answers(thread) if str(a["ask"]).startswith("asked:")]
    time.sleep(PAST)
    assert run.answer("approve", "alice") is None
    assert run.refunds() == 1 and not _expired_rows(run)


def test_an_answer_in_time_runs_the_call_once(engine):
    run = engine(ask_expires_after=30, on_expired="reject")
    request = run.start()
    assert _seconds(request["expires_at"]) - _seconds(request["asked_at"]) == 30
    assert request["expires_after"] == 30 and request["on_expired"] == "reject"
    description = request["action_requests"][0]["description"]
    assert f"expires at {request['expires_at']} (answered later: refused)" in description
    assert run.answer("approve", "alice") is None
    assert run.refunds() == 1 and not _expired_rows(run) and run.refusal() is None


def test_a_late_answer_with_reject_runs_nothing_and_the_row_says_so(engine):
    run = engine(ask_expires_after=SHORT, on_expired="reject")
    request = run.start()
    time.sleep(PAST)  # the answer is judged by when it was given, against when it was asked
    assert run.answer("approve", "alice") is None
    assert run.refunds() == 0
    assert run.refusal() == "approval_expired"
    [row] = _expired_rows(run)
    assert row["ok"] is False and row["expired"] is True and row["applied"] is False
    assert row["late_answer"] == "approve" and row["reviewer"] == "alice" and row["then"] == "rejected"
    assert row["tool"] == "issue_refund" and row["expires_at"] == request["expires_at"]
    assert _seconds(row["answered_at"]) >= _seconds(row["expires_at"])


@pytest.mark.parametrize("on_expired", ["reject", "ask_again"])
def test_expiry_is_judged_before_the_reviewers_role_so_a_sweep_needs_no_role(engine, on_expired):
    """A late answer is not applied whoever gives it (the policy's ``on_expired`` decides), so
    ``reject-expired`` run by cron clears a question that needs finance; in time, the same answer
    from someone without the role is refused and the call waits."""
    reviewers = {"alice": ["finance"], "cron": []}
    timely = engine(role="finance", reviewers=reviewers, ask_expires_after=30.0)
    timely.start()
    again = timely.answer("reject", "cron")
    assert again is not None and again["problem"].startswith(
        "reviewer_lacks_role:finance: cron does not hold"
    )
    run = engine(role="finance", reviewers=reviewers, ask_expires_after=SHORT, on_expired=on_expired)
    run.start()
    time.sleep(PAST)
    assert run.answer("reject", "cron") is None  # a late rejection is never asked again
    assert run.refunds() == 0 and run.refusal() == "approval_expired"
    [row] = _expired_rows(run)
    assert row["late_answer"] == "reject" and row["reviewer"] == "cron" and row["then"] == "rejected"
    assert not [r for r in run.rows() if "reviewer_lacks_role" in str(r.get("problem") or "")]


def test_a_late_answer_with_ask_again_asks_again_and_a_timely_answer_runs_it_once(engine):
    run = engine(ask_expires_after=SHORT, on_expired="ask_again")
    first = run.start()
    time.sleep(PAST)
    second = run.answer("approve", "alice")
    assert second is not None and run.refunds() == 0  # asked again: the late yes ran nothing
    assert second["round"] == 2 and _seconds(second["expires_at"]) > _seconds(first["expires_at"])
    assert "answered later: asked again" in second["action_requests"][0]["description"]
    assert run.answer("approve", "bob") is None
    assert run.refunds() == 1 and run.refusal() is None
    # the row of the late answer (the middleware writes it with the call's own, once decided)
    [row] = _expired_rows(run)
    assert row["then"] == "asked_again" and row["reviewer"] == "alice" and row["applied"] is False
    assert row["late_answer"] == "approve" and row["expires_at"] == first["expires_at"]
    rows = run.rows()
    assert any(r.get("reviewer") == "bob" for r in rows[rows.index(row) + 1 :])  # then bob's yes


def test_each_round_keeps_its_own_time_asked(engine):
    """The second round's question is as old as when it was asked, however often its node runs
    again: answered late too, it is asked a third time."""
    run = engine(ask_expires_after=SHORT, on_expired="ask_again")
    run.start()
    time.sleep(PAST)
    assert run.answer("approve", "alice")["round"] == 2
    time.sleep(PAST)
    third = run.answer("approve", "bob")
    assert third is not None and third["round"] == 3 and run.refunds() == 0
    assert run.answer("approve", "dave") is None and run.refunds() == 1
    assert [r["reviewer"] for r in _expired_rows(run)] == ["alice", "bob"]


def test_a_late_rejection_is_not_asked_again(engine):
    run = engine(ask_expires_after=SHORT, on_expired="ask_again")
    run.start()
    time.sleep(PAST)
    assert run.answer("reject", "carol") is None
    assert run.refunds() == 0 and run.refusal() == "approval_expired"
    [row] = _expired_rows(run)
    assert row["late_answer"] == "reject" and row["then"] == "rejected" and row["reviewer"] == "carol"


def test_a_tools_rules_set_their_own_expiry():
    rules = desk.policy.rules["issue_refund"].model_copy(
        update={"ask_expires_after": SHORT, "on_expired": "ask_again"}
    )
    run = AgentEngine(rules=rules)
    request = run.start()
    assert request["expires_after"] == SHORT and request["on_expired"] == "ask_again"
    time.sleep(PAST)
    assert run.answer("approve", "alice")["round"] == 2


def test_a_supervisor_question_expires_as_it_was_asked():
    """A run resumed under a policy without an expiry judges its answer by the expiry its question
    was asked with."""
    run = SupervisorEngine(ask_expires_after=SHORT)
    run.start()
    run.graph = build_graph(
        llm=OfflineChatModel(),
        tools=run.desk.registry(),
        policy=demo_policy(),
        checkpointer=run.graph.checkpointer,
    )
    time.sleep(PAST)
    assert run.answer("approve", "alice") is None
    assert run.refunds() == 0 and run.refusal() == "approval_expired"


# ---------------------------------------------------------------------- the CLI


def _policy_file(tmp_path, name: str, **fields: Any) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"auto_approver_enabled": False, **fields}))
    return str(path)


def _supervisor_waits(tmp_path, db: str, thread: str, capsys, **fields: Any) -> None:
    policy = _policy_file(tmp_path, thread, **fields)
    argv = ["run", "supervisor", "--json", "--thread-id", thread, "--policy", policy, "--db", db]
    assert main(argv) == EXIT_WAITING
    capsys.readouterr()


def test_waiting_shows_each_questions_age_and_expiry(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    db = str(tmp_path / "runs.sqlite")
    _supervisor_waits(tmp_path, db, "soon", capsys, ask_expires_after=SHORT)
    _supervisor_waits(tmp_path, db, "later", capsys, ask_expires_after=3600)
    _supervisor_waits(tmp_path, db, "never", capsys)
    time.sleep(PAST)
    assert main(["waiting", "--db", db]) == EXIT_OK
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line[0] != "("}
    # ISO times are to the second; a loaded machine takes seconds per run, so the ages are read
    soon = re.search(r" \[asked (\d+)s ago; EXPIRED (\d+)s ago, at \S+\+00:00\] waits on ", lines["soon"])
    assert soon and 1 <= int(soon[1]) < 60 and int(soon[2]) <= int(soon[1]), lines["soon"]
    later = re.search(r" \[asked (\d+)s ago; expires in (\d+)m, at \S+\+00:00\] waits on ", lines["later"])
    assert later and 1 <= int(later[1]) < 60 and int(later[2]) in (58, 59), lines["later"]
    never = re.search(r" \[asked (\d+)s ago\] waits on high_refund_requires_human", lines["never"])
    assert never and 1 <= int(never[1]) < 60, lines["never"]
    assert main(["waiting", "--json", "--db", db]) == EXIT_OK
    listed = {w["thread_id"]: w for w in json.loads(capsys.readouterr().out)}
    assert listed["soon"]["expired"] is True and listed["later"]["expired"] is False
    assert "expired" not in listed["never"] and "expires_at" not in listed["never"]
    assert all(1.0 <= w["age_seconds"] < 60 for w in listed.values())


@pytest.fixture(params=["sqlite", "postgres"])
def location(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "store" / "runs.sqlite")
    return request.getfixturevalue("pg_url")


def _desk_waits(location: str, thread: str) -> None:
    """A support desk thread (the CLI's known agent) waiting on its refund, in ``location``."""
    from graphs.support_desk import build_agent
    from nodes.store import journal_for, open_checkpointer, open_store

    with open_checkpointer(location, writable=True) as saver, open_store(location) as store:
        journal = journal_for(saver)
        agent = build_agent(checkpointer=saver, store=store, journal=journal)
        given = {"messages": [("user", REFUND)], "governance_subject": dict(desk.SUBJECT)}
        with journal.turn(thread):
            out = agent.invoke(given, {"configurable": {"thread_id": thread}})
    assert out["__interrupt__"][0].value["expires_at"]


def test_reject_expired_rejects_every_expired_question_and_only_those(
    location, tmp_path, capsys, monkeypatch
):
    """Supervisor runs and a support desk thread in one store (SQLite or PostgreSQL): the expired
    questions are rejected (by the name given, ``approval_expired`` in each audit), the others
    still wait; a second sweep finds nothing."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setattr(desk, "policy", desk.policy.model_copy(update={"ask_expires_after": SHORT}))
    if location.endswith(".sqlite"):
        (tmp_path / "store").mkdir()
    _supervisor_waits(tmp_path, location, "old", capsys, ask_expires_after=SHORT)
    _supervisor_waits(tmp_path, location, "fresh", capsys, ask_expires_after=3600)
    _supervisor_waits(tmp_path, location, "never", capsys)
    _desk_waits(location, "desk-old")
    time.sleep(PAST)

    assert main(["reject-expired", "--as", "cron", "--db", location]) == EXIT_OK
    out = capsys.readouterr().out
    rejected = sorted(line.split()[1] for line in out.splitlines() if line.startswith("rejected "))
    assert rejected == ["desk-old", "old"], out
    assert "rejected old (supervisor): high_refund_requires_human" in out and "issue_refund(" in out
    assert "-> stopped (approval_expired)" in out and "(2 expired question(s) rejected, 0 skipped;" in out

    assert main(["waiting", "--json", "--db", location]) == EXIT_OK
    assert sorted(w["thread_id"] for w in json.loads(capsys.readouterr().out)) == ["fresh", "never"]

    assert main(["show", "old", "--json", "--db", location]) == EXIT_OK
    shown = json.loads(capsys.readouterr().out)
    assert shown["stop_reason"] == "approval_expired"
    assert not [c for c in shown["calls"] if c["tool"] == "issue_refund"]
    [row] = [r for r in shown["trace"] if r.get("phase") == "approval_expired"]
    assert row["reviewer"] == "cron" and row["late_answer"] == "reject" and row["then"] == "rejected"

    assert main(["show", "desk-old", "--json", "--db", location]) == EXIT_OK
    values = json.loads(capsys.readouterr().out)
    [refusal] = values["governance_refusals"]
    assert refusal["reason"] == "approval_expired" and refusal["reviewer"] == "cron"
    assert not [c for c in values.get("governance_calls") or [] if c.get("tool") == "issue_refund"]

    assert main(["reject-expired", "--db", location]) == EXIT_OK
    assert "(0 expired question(s) rejected, 0 skipped;" in capsys.readouterr().out


def test_a_late_answer_refused_is_fed_back_with_its_reviewer():
    """``on_refusal="feedback"``: the expired call is a refusal the worker reads, recorded with the
    late answer's reviewer and time; the run goes on without it."""
    run = SupervisorEngine(ask_expires_after=SHORT, on_refusal="feedback")
    run.start()
    time.sleep(PAST)
    assert run.answer("approve", "alice") is None
    assert run.values["status"] == "ok" and run.refunds() == 0
    [refusal] = [r for r in run.values["refusals"] if r["reason"] == "approval_expired"]
    assert refusal["by"] == "human" and refusal["reviewer"] == "alice" and refusal["answered_at"]
    assert refusal["observation"]["reason"] == "approval_expired"
    phases = [r["phase"] for r in run.rows()]
    assert phases.index("approval_expired") + 1 == phases.index("refused")
    assert run.values["paused_seconds"] >= SHORT  # the wait is no run time


def test_the_audit_command_shows_the_late_answer(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    db = str(tmp_path / "runs.sqlite")
    # long enough that bob's answer from a second CLI process lands before the question asked
    # again expires too, on a loaded machine (SHORT was: a process took longer than 0.6 s)
    expires, past = 2.5, 3.0
    _supervisor_waits(tmp_path, db, "late", capsys, ask_expires_after=expires, on_expired="ask_again")
    time.sleep(past)
    assert main(["approve", "late", "--as", "alice", "--db", db]) == EXIT_WAITING  # asked again
    assert main(["approve", "late", "--as", "bob", "--db", db]) == EXIT_OK
    capsys.readouterr()
    assert main(["audit", "late", "--db", db]) == EXIT_OK
    [line] = [ln for ln in capsys.readouterr().out.splitlines() if " approval_expired " in ln]
    assert "answered by human alice at " in line and "the late approve was not applied (asked again)" in line
