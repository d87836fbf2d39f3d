"""Side effects run at most once per approved action: on resume, repeated resume and replay."""

from __future__ import annotations

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools.supervisor import GOAL, BillingDesk
from graphs.supervisor import build_graph
from nodes.offline import OfflineChatModel
from policies.supervisor import demo_policy
from tests.helpers import gateway_rows, thread

EDIT_800 = {"type": "edit", "edited_action": {"name": "issue_refund", "args": {"amount_usd": 800}}}


def _paused(saver=None, desk=None):
    """The offline worker (its next action follows from the history, so forks behave the same)
    against a shared billing desk, paused at the human approval of the 1200 USD refund."""
    desk = desk or BillingDesk()
    graph = build_graph(
        llm=OfflineChatModel(),
        checkpointer=saver or InMemorySaver(),
        tools=desk.registry(),
        policy=demo_policy(),
    )
    config = thread()
    out = graph.invoke({"goal": GOAL}, config)
    assert out["__interrupt__"][0].value["reason"] == "high_refund_requires_human"
    return graph, config, desk


def _snapshot(graph, config, predicate):
    return next(s for s in graph.get_state_history(config) if predicate(s))


def test_resume_twice_from_the_approval_checkpoint_refunds_once():
    graph, config, desk = _paused()
    waiting = _snapshot(graph, config, lambda s: s.next == ("human_approval",) and s.interrupts)
    first = graph.invoke(Command(resume=EDIT_800), waiting.config)
    second = graph.invoke(Command(resume=EDIT_800), waiting.config)
    for result in (first, second):
        assert result["status"] == "ok"
        assert result["calls"][1]["observation"]["transaction_id"] == "rf_42_20260226"
    assert len(desk.refunds) == 1
    assert len(desk.emails) == 1
    assert [r["amount_usd"] for r in desk.refunds.values()] == [800]
    # the second resume's refund and email were recognised by the thread's journal before the
    # tools were called (the desk's own ledger never saw them again)
    assert desk.duplicate_calls == 0
    assert [c.get("from_journal") for c in second["calls"][1:]] == [True, True]
    assert not any(c.get("from_journal") for c in first["calls"])
    # resuming the finished thread again does nothing at all
    graph.invoke(Command(resume=EDIT_800), config)
    assert len(desk.refunds) == 1


def test_replay_from_before_execution_refunds_once():
    graph, config, desk = _paused()
    final = graph.invoke(Command(resume=EDIT_800), config)
    assert final["status"] == "ok"
    before_refund = _snapshot(
        graph,
        config,
        lambda s: s.next == ("execute",) and (s.values.get("action") or {}).get("name") == "issue_refund",
    )
    replayed = graph.invoke(None, before_refund.config)
    assert replayed["status"] == "ok"
    assert replayed["answer"] == final["answer"]
    assert len(desk.refunds) == 1 and len(desk.emails) == 1
    assert desk.duplicate_calls == 0  # the journal answered the replay: the tools were not called
    assert [c["tool"] for c in replayed["calls"] if c.get("from_journal")] == [
        "issue_refund",
        "send_refund_email",
    ]
    keys = {c["idempotency_key"] for c in replayed["calls"] if c["idempotency_key"]}
    assert keys == set(desk.refunds) | set(desk.emails)


def test_resume_from_another_graph_instance_sharing_the_checkpointer():
    saver, desk = InMemorySaver(), BillingDesk()
    _, config, _ = _paused(saver, desk)
    # another worker process: a new graph object, the same checkpointer and billing system
    other = build_graph(
        llm=OfflineChatModel(), checkpointer=saver, tools=desk.registry(), policy=demo_policy()
    )
    pending = other.get_state(config)
    assert pending.next == ("human_approval",)
    assert pending.interrupts[0].value["action"]["args"]["amount_usd"] == 1200
    final = other.invoke(Command(resume={"decisions": [EDIT_800]}), config)
    assert final["status"] == "ok"
    assert "after human approval" in final["answer"]
    assert [r["amount_usd"] for r in desk.refunds.values()] == [800]
    # the full trace and history are read back from the checkpointer alone
    values = other.get_state(config).values
    assert [r.get("tool") for r in gateway_rows(values["trace"])] == [
        "get_refund_context",
        "issue_refund",
        "send_refund_email",
        "final",
    ]
