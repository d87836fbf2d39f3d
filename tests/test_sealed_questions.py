"""Issue 55: a waiting question is judged by the rules it was asked with, never by the answering
process's policy. Who must answer (the role, who held it), and how many must approve, are written
with the question when it is asked (``reviewer_role``, ``reviewer_holders``, ``approvals_needed``;
sealed by the call's stamp where the audit key is set) and read back by whoever answers: the
Supervisor graph from the question in its state, ``GovernanceMiddleware`` from the thread's journal
(:mod:`nodes.sealed`). A policy changed since may tighten a waiting question, never relax it.

Real processes on one SQLite file: the support desk asked under its deployment's policy file
(``$AGENT_PATTERNS_DESK_POLICY``: refunds need two of alice and bob, role ``finance``) is answered
from shells that do not load the file, or load a looser one: a reviewer without the role is
refused and nothing runs (exit 3, still waiting), the first finance approval is counted, the
second runs the refund."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.tools import BaseTool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools.supervisor import BillingDesk, demo_input
from graphs.supervisor import build_graph
from nodes.middleware import GovernanceMiddleware
from nodes.offline import OfflineChatModel
from policies.human import SYSTEM_PREFIX, HumanAnswer
from policies.supervisor import SupervisorPolicy, demo_policy
from policies.supervisor.authority.reviewers import MOST_APPROVALS, Signoff, answer_refusal, sealed
from tests.helpers import thread
from tests.middleware_harness import ToolCallingModel
from tests.own_agent import domain
from tests.processes import run
from tests.test_middleware import PAY_BOB, READ_FINANCE, ask

ROOT = Path(__file__).resolve().parent.parent
FINANCE = {"alice": ["finance"], "bob": ["finance"], "sam": ["support"]}
#: What a looser policy loaded later says: sam holds finance, one approval.
LOOSE = {"alice": ["finance"], "bob": ["finance"], "sam": ["finance"]}


def _signed(policy: SupervisorPolicy, tool: str, reviewers: dict, **signoff: Any) -> SupervisorPolicy:
    rules = {**policy.rules, tool: policy.rules[tool].model_copy(update=signoff)}
    return policy.model_copy(update={"rules": rules, "reviewers": reviewers})


# ------------------------------------------------------------------ the rule


ACTION = {"kind": "tool", "name": "issue_refund", "args": {}}


def _policy(role: str | None, approvals: int, reviewers: dict) -> SupervisorPolicy:
    return _signed(demo_policy(), "issue_refund", reviewers, reviewer_role=role, approvals=approvals)


@settings(max_examples=200, deadline=None)
@given(
    asked_role=st.sampled_from([None, "finance"]),
    asked_n=st.integers(1, 3),
    live_role=st.sampled_from([None, "finance", "support"]),
    live_n=st.integers(1, 3),
    live_reviewers=st.sampled_from([{}, FINANCE, LOOSE]),
    who=st.sampled_from([None, "alice", "sam", "mallory"]),
)
def test_a_live_policy_tightens_a_waiting_question_and_never_relaxes_it(
    asked_role, asked_n, live_role, live_n, live_reviewers, who
):
    """Whatever the answering policy says, an answer the question's own rules refuse is refused,
    and at least as many approvals as it was asked with are needed."""
    asked_under = _policy(asked_role, asked_n, FINANCE)
    request = {"reviewer_role": asked_role, "reviewer_holders": ["alice", "bob"], "approvals_needed": asked_n}
    request = {k: v for k, v in request.items() if asked_role is not None or k == "approvals_needed"}
    live = _policy(live_role, live_n, live_reviewers)
    signoff = sealed(request, live, ACTION)
    answer = HumanAnswer(type="approve", reviewer=who)
    as_asked = Signoff(asked_role, asked_n)
    assert signoff.approvals >= asked_n and signoff.approvals >= live_n
    if answer_refusal(answer, as_asked, asked_under) is not None and asked_role is not None:
        assert answer_refusal(answer, signoff, live) is not None, (request, live_role, live_reviewers, who)


@pytest.mark.parametrize(
    "request_",
    [
        {"reviewer_role": 7, "approvals_needed": 1},
        {"reviewer_role": "", "approvals_needed": 1},
        {"approvals_needed": MOST_APPROVALS + 1},
        {"approvals_needed": "2"},
        {"approvals_needed": True},
        {"approvals_needed": 0},
    ],
)
def test_recorded_rules_that_are_no_rules_are_met_by_nobody(request_):
    signoff = sealed(request_, demo_policy(), ACTION)
    refused = answer_refusal(HumanAnswer(type="approve", reviewer="alice"), signoff, demo_policy())
    assert refused is not None or signoff.approvals > MOST_APPROVALS


# ------------------------------------------------------------------ both engines, one store


def test_supervisor_a_question_asked_under_a_role_is_judged_by_it_under_a_policy_without_one():
    desk, saver, config = BillingDesk(), InMemorySaver(), thread()
    asked_under = _policy("finance", 2, FINANCE)
    graph = build_graph(llm=OfflineChatModel(), tools=desk.registry(), policy=asked_under, checkpointer=saver)
    out = graph.invoke(demo_input(), config)
    assert out["__interrupt__"][0].value["reviewer_holders"] == ["alice", "bob"]
    plain = build_graph(
        llm=OfflineChatModel(), tools=desk.registry(), policy=demo_policy(), checkpointer=saver
    )
    wrong = plain.invoke(Command(resume={"type": "approve", "reviewer": "sam"}), config)
    assert wrong["__interrupt__"][0].value["problem"].startswith("reviewer_lacks_role:finance")
    loose = build_graph(
        llm=OfflineChatModel(), tools=desk.registry(), policy=_policy("finance", 1, LOOSE), checkpointer=saver
    )
    still = loose.invoke(Command(resume={"type": "approve", "reviewer": "sam"}), config)
    assert still["__interrupt__"][0].value["problem"].startswith("reviewer_lacks_role:finance")
    first = plain.invoke(Command(resume={"type": "approve", "reviewer": "alice"}), config)
    assert first["__interrupt__"][0].value["approved_by"] == ["alice"] and not desk.refunds
    plain.invoke(Command(resume={"type": "approve", "reviewer": "bob"}), config)
    assert [r["amount_usd"] for r in desk.refunds.values()] == [1200]


def test_middleware_a_question_asked_under_a_role_is_judged_by_it_under_a_policy_without_one():
    office, saver, config = domain.Office(), InMemorySaver(), thread()
    tools: list[BaseTool] = domain.make_tools(office)
    base = domain.make_policy(tools)

    def agent(policy: SupervisorPolicy) -> Any:
        from langchain.agents import create_agent

        model = ToolCallingModel(replies=[READ_FINANCE, PAY_BOB, "Paid."])
        middleware = GovernanceMiddleware(
            policy, tools=tools, custom_rules=domain.CUSTOM_RULES, subject=domain.SUBJECT
        )
        return create_agent(model, tools, middleware=[middleware], checkpointer=saver)

    asked = agent(_signed(base, "send_payment", FINANCE, reviewer_role="finance", approvals=2)).invoke(
        ask(), config
    )
    assert asked["__interrupt__"][0].value["reviewer_holders"] == ["alice", "bob"]
    plain = agent(base)
    for who in ("sam", None):
        resume = {"decisions": [{"type": "approve"}], **({"reviewer": who} if who else {})}
        again = plain.invoke(Command(resume=resume), config)
        assert again["__interrupt__"][0].value["problem"].startswith("reviewer_lacks_role:finance"), again
        assert not office.effects
    first = plain.invoke(Command(resume={"decisions": [{"type": "approve"}], "reviewer": "alice"}), config)
    assert first["__interrupt__"][0].value["approved_by"] == ["alice"] and not office.effects
    plain.invoke(Command(resume={"decisions": [{"type": "approve"}], "reviewer": "bob"}), config)
    assert len(office.effects) == 1


# ------------------------------------------------------------------ real processes, the desk


def _python(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AGENT_PATTERNS_"))}
    full.update(PYTHONPATH=str(ROOT), **env)
    return run([sys.executable, *args], cwd=ROOT, env=full, timeout=180)


def _refunds(db: str) -> list[dict[str, Any]]:
    shown = json.loads(_python("-m", "governed_agent_patterns", "show", "T", "--json", "--db", db).stdout)
    calls = shown.get("governance_calls") or shown.get("calls") or []
    return [c for c in calls if c.get("tool") == "issue_refund"]


def _desk(db: str, policy_file: Path) -> subprocess.CompletedProcess[str]:
    return _python(
        "-m", "governed_agent_patterns.apps.cli.desk", "--db", db, "--thread", "T", "Refund order ORD-1002 in full.",
        AGENT_PATTERNS_DESK_POLICY=str(policy_file),
    )  # fmt: skip


DESK_FILE = (
    '[policy]\nreviewers = { alice = ["finance"], bob = ["finance"], sam = ["support"] }\n\n'
    '[rules.issue_refund]\nreviewer_role = "finance"\napprovals = 2\n'
)


@pytest.mark.integration
def test_the_desks_refund_asked_under_its_policy_file_is_judged_by_it_from_any_shell(tmp_path):
    asked_file, loose_file = tmp_path / "desk.toml", tmp_path / "loose.toml"
    asked_file.write_text(DESK_FILE)
    loose_file.write_text(
        '[policy]\nreviewers = { sam = ["finance"] }\n\n[rules.issue_refund]\napprovals = 1\n'
    )
    names_file = tmp_path / "names.toml"
    names_file.write_text(DESK_FILE.replace("[policy]\n", '[policy]\nfour_eyes_by = "reviewer"\n'))
    db = str(tmp_path / "desk.sqlite")
    cli = ("-m", "governed_agent_patterns")
    asked = _desk(db, asked_file)
    assert asked.returncode == 3, asked.stdout + asked.stderr
    # sam from a shell without the desk's policy file, then from one that gives him the role and
    # asks for one approval: the question's own rules refuse him, and nothing runs (exit 3)
    for env in ({}, {"AGENT_PATTERNS_DESK_POLICY": str(loose_file)}):
        sam = _python(*cli, "approve", "T", "--as", "sam", "--db", db, **env)
        assert sam.returncode == 3, sam.stdout + sam.stderr
        assert (
            "approve refused: reviewer_lacks_role:finance: sam does not hold the role finance" in sam.stdout
        )
        assert "agent-patterns approve T --db" in sam.stderr + sam.stdout  # the hint names the thread
    alice = _python(*cli, "approve", "T", "--as", "alice", "--db", db)
    assert alice.returncode == 3 and "1 of 2 approvals (alice)" in alice.stdout, alice.stdout + alice.stderr
    # bob typed from alice's OS account is alice again: four-eyes counts accounts by default, and
    # a shell whose policy vouches for names (four_eyes_by = "reviewer") does not relax the question
    for env in ({}, {"AGENT_PATTERNS_DESK_POLICY": str(names_file)}):
        same = _python(*cli, "approve", "T", "--as", "bob", "--db", db, **env)
        assert same.returncode == 3 and "reviewer_same_account" in same.stdout, same.stdout
    # asked where the operator vouches for names: alice and bob from one account run it once, and
    # the audit's JSONL record of the refund lists both answers, each with its account
    named = str(tmp_path / "named.sqlite")
    assert _desk(named, names_file).returncode == 3
    assert _python(*cli, "approve", "T", "--as", "alice", "--db", named).returncode == 3
    bob = _python(
        *cli, "approve", "T", "--as", "bob", "--db", named, AGENT_PATTERNS_DESK_POLICY=str(names_file)
    )
    assert bob.returncode == 0, bob.stdout + bob.stderr
    exported = _python(*cli, "audit", "T", "--jsonl", "--db", named)
    records = [r for r in map(json.loads, exported.stdout.splitlines()) if r["tool"] == "issue_refund"]
    [record] = [r for r in records if r["answers"]]
    assert record["outcome"] == "ran" and [r["outcome"] for r in records].count("ran") == 1, records
    shown = [(a["type"], a["reviewer"], a["applied"], bool(a["account"])) for a in record["answers"]]
    # each answer names the account it came from, the deciding one included (the call's own row)
    assert shown == [("approve", "alice", False, True), ("approve", "bob", True, True)], record["answers"]
    assert record["answers"][0]["account"] == record["answers"][1]["account"], record["answers"]


@pytest.mark.integration
def test_an_approval_after_its_question_expired_ran_nothing_and_exits_1(tmp_path):
    """``approve`` after the question's expiry (``on_expired = "reject"``), from a shell that does
    not load the desk's policy file (the expiry is the question's own): the refund is not run, the
    command says so and exits 1; a rejection after it exits 0."""
    policy_file = tmp_path / "desk.toml"
    policy_file.write_text('[rules.issue_refund]\nask_expires_after = 1\non_expired = "reject"\n')
    db, other = str(tmp_path / "desk.sqlite"), str(tmp_path / "other.sqlite")
    assert _desk(db, policy_file).returncode == 3 and _desk(other, policy_file).returncode == 3
    time.sleep(1.5)
    late = _python("-m", "governed_agent_patterns", "approve", "T", "--as", "alice", "--db", db)
    assert late.returncode == 1, late.stdout + late.stderr
    assert "approve ran nothing: the question had expired (approval_expired)" in late.stdout
    assert not _refunds(db)
    # a rejection after the expiry did what it asked: 0
    rejected = _python("-m", "governed_agent_patterns", "reject", "T", "--as", "alice", "--db", other)
    assert rejected.returncode == 0 and "ran nothing" not in rejected.stdout, (
        rejected.stdout + rejected.stderr
    )


# ------------------------------------------------------------------ the system's answers never wedge


@pytest.mark.parametrize(
    "signoff", [Signoff("finance", 2, ("alice", "bob")), Signoff(None, 3), Signoff("finance")]
)
def test_the_systems_rejection_needs_no_role_and_its_approval_is_no_reviewers(signoff):
    """A timeout's or a sweep's rejection refuses the call whatever the rule's role (a question nobody
    answered in time must not wait for ever); the system approves nothing a role guards."""
    timeout = HumanAnswer(type="reject", reviewer=f"{SYSTEM_PREFIX}ask-timeout")
    assert answer_refusal(timeout, signoff, demo_policy()) is None
    approve = HumanAnswer(type="approve", reviewer=f"{SYSTEM_PREFIX}ask-timeout")
    assert answer_refusal(approve, signoff, demo_policy()) is not None


def test_middleware_the_systems_rejection_of_a_role_guarded_call_ends_the_wait():
    office, config = domain.Office(), thread()
    tools: list[BaseTool] = domain.make_tools(office)
    policy = _signed(domain.make_policy(tools), "send_payment", FINANCE, reviewer_role="finance", approvals=2)
    from langchain.agents import create_agent

    model = ToolCallingModel(replies=[READ_FINANCE, PAY_BOB, "Not paid."])
    middleware = GovernanceMiddleware(
        policy, tools=tools, custom_rules=domain.CUSTOM_RULES, subject=domain.SUBJECT
    )
    agent = create_agent(model, tools, middleware=[middleware], checkpointer=InMemorySaver())
    assert "__interrupt__" in agent.invoke(ask(), config)
    late = {
        "decisions": [{"type": "reject", "message": "no answer within 5 s"}],
        "reviewer": "system:ask-timeout",
    }
    done = agent.invoke(Command(resume=late), config)
    assert "__interrupt__" not in done and not office.effects
    refused = [r for r in done["governance_refusals"] if r.get("tool") == "send_payment"]
    assert refused and refused[-1]["reviewer"] == "system:ask-timeout", refused


def test_the_cli_refuses_a_reviewer_named_as_the_system(tmp_path):
    from apps.cli.commands import default_reviewer
    from apps.cli.errors import CliError

    with pytest.raises(CliError, match="the system's"):
        default_reviewer("system:ask-timeout")
    assert default_reviewer("alice") == "alice"
