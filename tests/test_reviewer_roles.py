"""Issue 47: a rule may require a reviewer role and several distinct reviewers (four-eyes). An answer
from a reviewer without the role, or the same reviewer twice, is refused with the reason and the
call stays waiting; the right reviewers run it once, and the audit keeps each name and time. Both
engines (:mod:`policies.supervisor.authority.reviewers`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from langchain_core.tools import BaseTool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools.supervisor import BillingDesk, demo_input
from graphs.supervisor import build_graph
from nodes.offline import OfflineChatModel
from policies.human import HumanAnswer, bind_reviewer, parse_human_answer
from policies.supervisor import SupervisorPolicy, demo_policy
from policies.supervisor.authority.reviewers import Signoff, answer_refusal, waiting_note
from tests.helpers import thread
from tests.middleware_harness import ToolCallingModel, governed_agent
from tests.own_agent import domain
from tests.test_middleware import PAY_BOB, READ_FINANCE, ask

FINANCE = {"alice": ["finance"], "bob": ["finance", "support"], "sam": ["support"]}


def _utc(text: str) -> bool:
    return datetime.fromisoformat(text).utcoffset().total_seconds() == 0  # type: ignore[union-attr]


def _signed(policy: SupervisorPolicy, tool: str, **signoff: Any) -> SupervisorPolicy:
    rules = {**policy.rules, tool: policy.rules[tool].model_copy(update=signoff)}
    return policy.model_copy(update={"rules": rules, "reviewers": FINANCE})


# ------------------------------------------------------------------ the decision


def test_the_decision_names_the_role_and_who_may_answer():
    policy = SupervisorPolicy(reviewers=FINANCE)
    finance = Signoff(role="finance")
    sam = answer_refusal(HumanAnswer("approve", reviewer="sam"), finance, policy)
    assert sam == (
        "reviewer_lacks_role:finance: sam does not hold the role finance; "
        "only a reviewer with the role finance (alice, bob) may answer"
    )
    assert answer_refusal(HumanAnswer("approve"), finance, policy).startswith("reviewer_lacks_role:finance")
    assert answer_refusal(HumanAnswer("reject", reviewer="alice"), finance, policy) is None
    four = Signoff(approvals=2)
    assert answer_refusal(HumanAnswer("approve", reviewer="alice"), four, policy, ["alice"]).startswith(
        "reviewer_already_approved"
    )
    assert answer_refusal(HumanAnswer("approve"), four, policy).startswith("reviewer_unnamed")
    assert answer_refusal(HumanAnswer("edit", {"x": 1}, reviewer="bob"), four, policy).startswith(
        "four_eyes_edit"
    )
    assert waiting_note(four, ["alice"]) == "1 of 2 approvals (alice); waiting for a second reviewer"


def test_waiting_says_who_must_answer_and_who_approved_already(tmp_path, capsys, monkeypatch):
    """``agent-patterns waiting`` shows a question's role and the approvals it still needs, and
    the reviewers who approved it already (four-eyes); ``--json`` the same fields."""
    import json

    from apps.cli.errors import EXIT_OK, EXIT_WAITING
    from apps.cli.main import main

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    db, policy = str(tmp_path / "runs.sqlite"), tmp_path / "four_eyes.json"
    signed = _signed(demo_policy(), "issue_refund", reviewer_role="finance", approvals=2)
    policy.write_text(signed.model_copy(update={"auto_approver_enabled": False}).model_dump_json())
    run = ["run", "supervisor", "--json", "--thread-id", "refund", "--policy", str(policy), "--db", db]
    assert main(run) == EXIT_WAITING
    capsys.readouterr()

    def waiting() -> tuple[str, dict[str, Any]]:
        assert main(["waiting", "--db", db]) == EXIT_OK
        [line] = [x for x in capsys.readouterr().out.splitlines() if x.startswith("refund ")]
        assert main(["waiting", "--json", "--db", db]) == EXIT_OK
        [listed] = json.loads(capsys.readouterr().out)
        return line, listed

    line, listed = waiting()
    assert "; needs role finance; 0 of 2 approvals] waits on" in line
    assert (listed["reviewer_role"], listed["approvals_needed"]) == ("finance", 2)
    assert main(["approve", "refund", "--as", "alice", "--db", db]) == EXIT_WAITING
    capsys.readouterr()
    line, listed = waiting()
    assert "; needs role finance; 1 of 2 approvals (alice)] waits on" in line
    assert listed["approved_by"] == ["alice"]


# ------------------------------------------------------------------ the Supervisor graph


def _supervisor(**signoff: Any):
    desk = BillingDesk()
    policy = _signed(demo_policy(), "issue_refund", **signoff)
    graph = build_graph(
        llm=OfflineChatModel(), tools=desk.registry(), policy=policy, checkpointer=InMemorySaver()
    )
    config = thread()
    return graph, config, desk, graph.invoke(demo_input(), config)


def test_supervisor_the_wrong_role_is_refused_and_the_call_waits_then_the_right_one_runs_it():
    graph, config, desk, out = _supervisor(reviewer_role="finance")
    request = out["__interrupt__"][0].value
    assert request["reviewer_role"] == "finance" and request["approvals_needed"] == 1
    assert (
        "answered by a reviewer with the role finance (alice, bob)"
        in request["action_requests"][0]["description"]
    )
    for wrong in ("sam", "sam", "sam", None):  # more than human_answer_attempts: still waiting
        value: dict[str, Any] = {"type": "approve", **({"reviewer": wrong} if wrong else {})}
        again = graph.invoke(Command(resume=value), config)
        assert again["__interrupt__"][0].value["problem"].startswith("reviewer_lacks_role:finance"), again
        assert not desk.refunds
    final = graph.invoke(Command(resume={"type": "approve", "reviewer": "alice"}), config)
    assert [r["amount_usd"] for r in desk.refunds.values()] == [1200]
    refund = next(c for c in final["calls"] if c["tool"] == "issue_refund")
    assert refund["reviewer"] == "alice" and _utc(refund["answered_at"])
    refused = [r for r in final["trace"] if r.get("phase") == "answer_refused"]
    assert len(refused) == 4 and all("reviewer_lacks_role:finance" in r["problem"] for r in refused)


def test_supervisor_four_eyes_two_distinct_reviewers_run_it_once():
    graph, config, desk, out = _supervisor(approvals=2)
    assert out["__interrupt__"][0].value["approvals_needed"] == 2
    first = graph.invoke(Command(resume={"type": "approve", "reviewer": "alice"}), config)
    question = first["__interrupt__"][0].value
    assert question["problem"] == "1 of 2 approvals (alice); waiting for a second reviewer"
    assert question["approved_by"] == ["alice"] and not desk.refunds
    same = graph.invoke(Command(resume={"type": "approve", "reviewer": "alice"}), config)
    assert (
        same["__interrupt__"][0].value["problem"].startswith("reviewer_already_approved") and not desk.refunds
    )
    final = graph.invoke(Command(resume={"type": "approve", "reviewer": "bob"}), config)
    assert [r["amount_usd"] for r in desk.refunds.values()] == [1200]
    [counted] = [r for r in final["trace"] if r.get("phase") == "approval_counted"]
    assert counted["reviewer"] == "alice" and _utc(counted["answered_at"]) and counted["ok"] is True
    refund = next(c for c in final["calls"] if c["tool"] == "issue_refund")
    assert refund["reviewer"] == "bob" and _utc(refund["answered_at"])


def test_supervisor_one_rejection_by_a_reviewer_who_may_answer_refuses_it():
    graph, config, desk, _ = _supervisor(reviewer_role="finance", approvals=2)
    graph.invoke(Command(resume={"type": "approve", "reviewer": "alice"}), config)
    final = graph.invoke(Command(resume={"type": "reject", "reviewer": "bob", "message": "no"}), config)
    assert final["stop_reason"] == "human_rejected" and not desk.refunds


# ------------------------------------------------------------------ create_agent + GovernanceMiddleware


def _agent(**signoff: Any):
    office = domain.Office()
    tools: list[BaseTool] = domain.make_tools(office)
    policy = _signed(domain.make_policy(tools), "send_payment", **signoff)
    model = ToolCallingModel(replies=[READ_FINANCE, PAY_BOB, "Paid."])
    agent = governed_agent(model, tools, policy, custom_rules=domain.CUSTOM_RULES, subject=domain.SUBJECT)
    config = thread()
    return agent, config, office, agent.invoke(ask(), config)


def _answer(reviewer: str | None, kind: str = "approve") -> dict[str, Any]:
    return {"decisions": [{"type": kind}], **({"reviewer": reviewer} if reviewer else {})}


def test_middleware_the_wrong_role_is_refused_and_the_call_waits_then_the_right_one_runs_it():
    agent, config, office, out = _agent(reviewer_role="finance")
    assert out["__interrupt__"][0].value["reviewer_role"] == "finance"
    for wrong in ("sam", "sam", "sam", None):
        again = agent.invoke(Command(resume=_answer(wrong)), config)
        assert again["__interrupt__"][0].value["problem"].startswith("reviewer_lacks_role:finance")
        assert not office.effects
    done = agent.invoke(Command(resume=_answer("bob")), config)
    assert len(office.effects) == 1
    payment = next(c for c in done["governance_calls"] if c["tool"] == "send_payment")
    assert payment["reviewer"] == "bob" and _utc(payment["answered_at"])
    refused = [r for r in done["governance_trace"] if r.get("phase") == "answer_refused"]
    assert len(refused) == 4 and all("reviewer_lacks_role" in r["problem"] for r in refused)


@pytest.mark.parametrize("role", [None, "finance"])
def test_middleware_four_eyes_two_distinct_reviewers_run_it_once(role):
    agent, config, office, _ = _agent(approvals=2, reviewer_role=role)
    first = agent.invoke(Command(resume=_answer("alice")), config)
    assert first["__interrupt__"][0].value["approved_by"] == ["alice"] and not office.effects
    same = agent.invoke(Command(resume=_answer("alice")), config)
    assert same["__interrupt__"][0].value["problem"].startswith("reviewer_already_approved")
    done = agent.invoke(Command(resume=_answer("bob")), config)
    assert len(office.effects) == 1
    [counted] = [r for r in done["governance_trace"] if r.get("phase") == "approval_counted"]
    assert counted["reviewer"] == "alice" and _utc(counted["answered_at"])
    payment = next(c for c in done["governance_calls"] if c["tool"] == "send_payment")
    assert payment["reviewer"] == "bob" and _utc(payment["answered_at"])


# ------------------------------------------------------------------ served: the authenticated reviewer


@pytest.mark.parametrize(
    ("value", "bound"),
    [
        ({"decisions": [{"type": "approve"}]}, {"decisions": [{"type": "approve"}], "reviewer": "alice", "account": "alice"}),
        ({"decisions": [{"type": "approve", "reviewer": "alice"}]}, {"decisions": [{"type": "approve"}], "reviewer": "alice", "account": "alice"}),
        ({"type": "reject", "message": "no"}, {"type": "reject", "message": "no", "reviewer": "alice", "account": "alice"}),
        ("approve", {"type": "approve", "reviewer": "alice", "account": "alice"}),
        ({"i-1": {"type": "approve"}}, {"i-1": {"type": "approve", "reviewer": "alice", "account": "alice"}}),
        # an account the client names is not who is signed in
        ({"decisions": [{"type": "approve", "account": "root"}], "account": "root"}, {"decisions": [{"type": "approve"}], "reviewer": "alice", "account": "alice"}),
    ],
)  # fmt: skip
def test_a_served_answer_is_bound_to_the_signed_in_reviewer(value, bound):
    assert bind_reviewer(value, "alice") == (bound, None)
    assert parse_human_answer(bound.get("i-1", bound)).reviewer == "alice"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "value",
    [
        {"decisions": [{"type": "approve"}], "reviewer": "bob"},
        {"decisions": [{"type": "approve", "reviewer": "bob"}]},
        {"i-1": {"type": "approve", "reviewer": "bob"}},
    ],
)
def test_a_served_answer_naming_someone_else_is_refused(value):
    _, problem = bind_reviewer(value, "alice")
    assert problem == "reviewer_not_authenticated_user: the answer names bob, but alice is signed in"


def test_the_example_auth_reads_its_tokens_and_the_desk_its_signoff(tmp_path, monkeypatch):
    from devtools.serve_auth import tokens
    from graphs.support_desk import SIGNOFF_VARIABLE, signoff_from_env

    said = '{"t1": "alice", "t2": {"identity": "sam", "permissions": ["p"]}}'
    expected = {
        "t1": {"identity": "alice", "permissions": []},
        "t2": {"identity": "sam", "permissions": ["p"]},
    }
    assert tokens(said) == expected
    (tmp_path / "tokens.json").write_text(said)
    assert tokens(f"@{tmp_path / 'tokens.json'}") == expected
    policy = domain_desk_policy()
    assert signoff_from_env(policy) is policy
    monkeypatch.setenv(
        SIGNOFF_VARIABLE, '{"reviewers": {"alice": ["finance"]}, "roles": {"issue_refund": "finance"}}'
    )
    signed = signoff_from_env(policy)
    assert (
        signed.reviewers == {"alice": ["finance"]} and signed.rules["issue_refund"].reviewer_role == "finance"
    )


def domain_desk_policy() -> SupervisorPolicy:
    from demo_tools import support_desk

    return support_desk.policy
