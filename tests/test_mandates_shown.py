"""The mandate a call was admitted by is shown (issue 49, item 1's display): a review of a tool whose
rules need the request to ask for its kind of action (``ToolRules.requested``) carries the clause
that asks ("cancel · the Budget Review") in ``details["mandate"]``, or None where none does; the
trace row shows it (``mandate``) and the human's approval request says "you asked: ..." or "no
request asked for this". The HITL shape (``action_requests``, ``review_configs``) is unchanged.
Both engines: the Supervisor graph and ``create_agent`` behind ``GovernanceMiddleware``."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.tools import BaseTool, tool
from langgraph.types import Command

from nodes.trace import review_figures
from policies.supervisor import ReviewContext, SupervisorPolicy, ToolRules, review_action
from policies.supervisor.decide.approval import NO_MANDATE, approval_request
from policies.supervisor.reading.words import said, step_mandates
from policies.supervisor.request.asks import mandate
from policies.supervisor.rules.kinds import Requested
from tests.authority_engines import scripted_agent
from tests.helpers import thread

EVENTS = [{"id": "ev-2", "title": "Budget Review"}, {"id": "ev-3", "title": "Standup"}]


def _tools(ran: list[tuple[str, dict[str, Any]]]) -> list[BaseTool]:
    @tool
    def list_events() -> list[dict]:
        """The user's calendar."""
        return EVENTS

    @tool
    def cancel_event(event_id: str) -> dict:
        """Cancel an event."""
        ran.append(("cancel_event", {"event_id": event_id}))
        return {"status": "cancelled"}

    return [list_events, cancel_event]


def _policy(tools: list[BaseTool], by_request: bool) -> SupervisorPolicy:
    cancel = ToolRules(
        requested=Requested(keywords=["cancel"], verdict="escalate"),
        require_approval=True,
        request_as_approval=by_request,
    )
    return SupervisorPolicy.for_tools(
        tools,
        rules={"list_events": ToolRules(read_only=True), "cancel_event": cancel},
        side_effects=["cancel_event"],
        tools={"list_events": {"trust": "trusted"}},
    )


CALLS = ({"step": 1, "tool": "list_events", "args": {}, "ok": True, "observation": EVENTS},)
CANCEL = {"kind": "tool", "name": "cancel_event", "args": {"event_id": "ev-2"}}


def _review(request: str, by_request: bool = False) -> Any:
    policy = _policy(_tools([]), by_request)
    return review_action(CANCEL, ReviewContext(calls=CALLS, request=request), policy)


def test_the_mandate_is_the_clause_that_asks_as_written():
    rule = Requested(keywords=["cancel"])
    assert mandate(rule, "Cancel the Budget Review, then email Ana.") == "cancel · the Budget Review"
    assert mandate(rule, "Please cancel the Standup.") == "cancel · the Standup"
    assert mandate(rule, "Don't cancel the Budget Review.") is None
    assert mandate(rule, "Is the Budget Review cancelled?") is None
    steps = Requested(verbs=["change"], objects=["password"])
    assert mandate(steps, "Change my password to Tr0ub4dor&3.") == "change · my password to Tr0ub4dor&3"
    assert mandate(steps, "Change the venue.") is None
    [found] = step_mandates("cancel the Standup", ["cancel"])
    assert said(found) == "cancel · the Standup"


@pytest.mark.parametrize(
    "request_text",
    ["Cancel the Budget Review.", "Don't cancel anything, just list my events.", "Cancel ev-2."],
)
def test_the_review_carries_the_mandate_or_none(request_text):
    """A mandate exists exactly where the Requested check passes: the review carries it either way."""
    decision = _review(request_text)
    found = mandate(Requested(keywords=["cancel"]), request_text)
    assert decision.details["mandate"] == found
    if found is None:
        assert decision.verdict == "escalate" and decision.reason == "action_not_requested"
    else:
        assert decision.verdict == "escalate" and decision.details["mandate"].startswith("cancel · ")


def test_a_call_the_request_approves_names_its_mandate():
    decision = _review("Cancel ev-2 please.", by_request=True)
    assert decision.verdict == "approve" and decision.details["approved_by"] == "request"
    assert decision.details["mandate"] == "cancel · ev-2 please"
    assert review_figures({"decision": "approve", "reason": decision.reason, **decision.details})[
        "mandate"
    ] == ("cancel · ev-2 please")


def test_the_approval_request_says_you_asked_or_that_nobody_did():
    asked = _review("Cancel the Budget Review.")
    row = {"decision": asked.verdict, "reason": asked.reason, **asked.details}
    request = approval_request(CANCEL, row)
    [action] = request["action_requests"]
    assert "you asked: cancel · the Budget Review" in action["description"]
    assert request["details"]["mandate"] == "cancel · the Budget Review"
    assert set(action) == {"name", "args", "description"}
    assert request["review_configs"] == [
        {"action_name": "cancel_event", "allowed_decisions": ["approve", "edit", "reject"]}
    ]
    unasked = _review("List my events.")
    row = {"decision": unasked.verdict, "reason": unasked.reason, **unasked.details}
    assert NO_MANDATE in approval_request(CANCEL, row)["action_requests"][0]["description"]
    assert review_figures(row)["mandate"] is None


def test_a_tool_without_a_requested_rule_shows_no_mandate():
    policy = _policy(_tools([]), False)
    read = {"kind": "tool", "name": "list_events", "args": {}}
    decision = review_action(read, ReviewContext(calls=(), request="Cancel it."), policy)
    assert "mandate" not in decision.details
    assert "mandate" not in review_figures({"decision": "approve", **decision.details})


# -- both engines ----------------------------------------------------------------------------


def _run(engine: str, request: str, by_request: bool) -> dict[str, Any]:
    ran: list[tuple[str, dict[str, Any]]] = []
    tools = _tools(ran)
    policy = _policy(tools, by_request)
    script: list[Any] = [
        {"name": "list_events", "args": {}},
        {"name": "cancel_event", "args": {"event_id": "ev-2"}},
        "Done.",
    ]
    agent, config = scripted_agent(engine, tools, policy, script), thread()
    values = agent.invoke({"messages": [("user", request)]}, config)
    descriptions: list[str] = []
    while "__interrupt__" in values and len(descriptions) < 5:
        [pending] = values["__interrupt__"]
        descriptions += [a["description"] for a in pending.value["action_requests"]]
        values = agent.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config)
    trace = values.get("governance_trace" if engine == "middleware" else "trace") or []
    rows = [r for r in trace if r.get("tool") == "cancel_event" and "mandate" in r]
    return {"ran": ran, "descriptions": descriptions, "rows": rows}


ENGINES = ["graph_json", "graph_native", "middleware"]


@pytest.mark.parametrize("engine", ENGINES)
def test_both_engines_show_the_mandate_to_the_human_and_in_the_trace(engine):
    out = _run(engine, "Cancel the Budget Review.", by_request=False)
    assert out["ran"] == [("cancel_event", {"event_id": "ev-2"})]
    assert any("you asked: cancel · the Budget Review" in d for d in out["descriptions"]), out
    assert out["rows"] and all(r["mandate"] == "cancel · the Budget Review" for r in out["rows"]), out


@pytest.mark.parametrize("engine", ENGINES)
def test_both_engines_say_no_request_asked_and_record_none(engine):
    out = _run(engine, "List my events.", by_request=False)
    assert any(NO_MANDATE in d for d in out["descriptions"]), out
    assert out["rows"] and out["rows"][0]["mandate"] is None, out


@pytest.mark.parametrize("engine", ENGINES)
def test_both_engines_record_the_mandate_of_a_call_the_request_approved(engine):
    out = _run(engine, "Cancel ev-2.", by_request=True)
    assert out["ran"] == [("cancel_event", {"event_id": "ev-2"})] and out["descriptions"] == []
    assert out["rows"] and all(r["mandate"] == "cancel · ev-2" for r in out["rows"]), out
