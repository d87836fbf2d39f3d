"""An answer to an escalation that cannot even be read (a list whose iteration raises, a mapping
whose ``get`` raises) is refused and recorded like any bad answer: the audit row of a refused
answer (``answer_refused``) never raises while it is written (found by the Supervisor fuzz test)."""

from __future__ import annotations

from hypothesis import given, settings
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from graphs.registry import PATTERNS
from graphs.supervisor import build_graph
from nodes.audit import storable
from nodes.trace import refused_answer
from policies.supervisor import demo_policy
from tests.fuzz import FOREIGN, LyingDict, RaisingList


@settings(max_examples=200, deadline=None)
@given(FOREIGN)
def test_every_value_is_storable_and_a_refused_answers_row_is_written(value):
    kept = storable({"edited_action": {"args": {"amount_usd": value}}, "raw": value})
    assert isinstance(kept, dict)
    row = refused_answer({"kind": "tool", "name": "issue_refund"}, 1, value, "not an answer", "human")
    assert row["answer"] == 1 and isinstance(row["answer_hash"], str)


def test_an_unreadable_answer_is_asked_again_then_stops_by_name():
    graph = build_graph(
        policy=demo_policy().model_copy(update={"auto_approver_enabled": False}), checkpointer=InMemorySaver()
    )
    config = {"configurable": {"thread_id": "unreadable"}}
    assert graph.invoke(PATTERNS["supervisor"].demo_input(), config).get("__interrupt__")
    answers = [
        RaisingList([1]),
        LyingDict({"x": 1}),
        {"type": "edit", "edited_action": RaisingList([])},
    ]
    for answer in answers:
        result = graph.invoke(Command(resume=answer), config)
    assert result["stop_reason"] == "invalid_human_answer"
    refused = [r for r in result["trace"] if r.get("phase") == "answer_refused"]
    assert len(refused) == 3 and all(r["answered_by"] == "human" for r in refused)
