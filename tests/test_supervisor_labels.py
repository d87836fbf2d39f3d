"""The Supervisor's audit labels say who did what (issue 24, bug 9): an edit by the automatic
approver is not a human's, a repeat refused by the supervisor is not refused by a human, and a
value found in a trusted tool's observation is not said to appear "only" in tool output."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools.supervisor import GOAL, BillingDesk
from graphs.supervisor import build_graph
from policies.supervisor import demo_policy
from policies.supervisor.reading.values import Source, describe
from tests.helpers import scripted, thread, tool_action

CONTEXT = tool_action("get_refund_context", user_id=42)
REFUND_1200 = tool_action("issue_refund", user_id=42, amount_usd=1200)
EMAIL_800 = tool_action("send_refund_email", user_id=42, amount_usd=800, message="Refunded 800 USD.")
FINAL = {"kind": "final", "answer": "Refunded 800 USD after approval."}
INPUT = {"goal": GOAL, "subject": {"user_id": 42}}


def _graph(*replies, **policy):
    desk = BillingDesk()
    return build_graph(
        llm=scripted(*replies),
        policy=demo_policy(**policy),
        checkpointer=InMemorySaver(),
        tools=desk.registry(),
    )


def _refund(out):
    return next(c for c in out["calls"] if c["tool"] == "issue_refund")


def test_an_edit_by_the_automatic_approver_is_labelled_as_its_own():
    graph = _graph(CONTEXT, REFUND_1200, EMAIL_800, FINAL, auto_approver_enabled=True)
    out = graph.invoke(INPUT, thread())
    refund = _refund(out)
    assert refund["args"]["amount_usd"] == 800 and refund["approved_by"] == "auto_approver"
    assert refund["executed_from"] == "auto_approver_revised"
    row = next(r for r in out["trace"] if r.get("tool") == "issue_refund" and r.get("executed_from"))
    assert row["executed_from"] == "auto_approver_revised"


def test_an_edit_by_a_human_stays_human_revised():
    graph = _graph(CONTEXT, REFUND_1200, EMAIL_800, FINAL)
    config = thread()
    graph.invoke(INPUT, config)
    out = graph.invoke(
        Command(resume={"type": "edit", "edited_action": {"args": {"amount_usd": 800}}}), config
    )
    refund = _refund(out)
    assert refund["executed_from"] == "human_revised" and refund["approved_by"] == "human"


def test_a_repeat_of_a_rejected_call_is_refused_by_the_supervisor_not_by_a_human():
    graph = _graph(CONTEXT, REFUND_1200, REFUND_1200, FINAL, on_refusal="feedback")
    config = thread()
    first = graph.invoke(INPUT, config)
    assert len(first["__interrupt__"]) == 1
    out = graph.invoke(Command(resume={"type": "reject", "message": "too much"}), config)
    assert "__interrupt__" not in out  # the repeat was not put to the human again
    assert [(r["by"], r["reason"]) for r in out["refusals"]] == [
        ("human", "human_rejected"),
        ("supervisor", "human_rejected"),
    ]
    refused = [r for r in out["trace"] if r.get("phase") == "refused"]
    assert [r["refused_by"] for r in refused] == ["human", "supervisor"]
    second = [h for h in out["history"] if h["phase"] == "refused"][1]
    assert second["refused_by"] == "supervisor" and second["reviews"][-1]["reason"] == "refused_before"


TOOLS = st.sampled_from(["read_inbox", "read_calendar", "list_contacts"])
SOURCES = st.one_of(
    st.builds(lambda k: Source(k, "x"), st.sampled_from(["request", "subject", "policy"])),
    st.builds(
        lambda t, s, trusted: Source("tool", "x", t, s, trusted), TOOLS, st.integers(1, 9), st.booleans()
    ),
)


@given(st.lists(SOURCES, min_size=1, max_size=5))
def test_only_in_is_said_only_of_untrusted_tool_output(found):
    text = describe(found)
    untrusted_tools_only = all(s.kind == "tool" and not s.trusted for s in found)
    assert text.startswith("appears only in ") is untrusted_tools_only
    for source in found:
        if source.kind == "tool" and source.trusted:
            assert f"the trusted {source.label()}" in text


def test_the_issues_example_names_the_trusted_tool():
    found = [
        Source("tool", "x", "read_inbox", 1),
        Source("tool", "x", "read_calendar", 2),
        Source("tool", "x", "list_contacts", 3, trusted=True),
    ]
    assert describe(found) == (
        "appears in read_inbox (step 1) and in read_calendar (step 2) and in the trusted list_contacts (step 3)"
    )
