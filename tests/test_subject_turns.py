"""Whom a thread acts for, and which turn authorises what, in both engines (issue 28): the subject
is bound once per thread (the application's input, else the first request that names it) and kept
for later turns; a later chat message does not rebind it; a tool whose argument is bound and no
subject is refused by name; ``<name>=<int>`` is read with ordinary punctuation around it, ASCII
digits only; a turn the client edits under its id is the request."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from graphs.supervisor import build_graph
from nodes.middleware import GovernanceMiddleware
from policies.supervisor import demo_policy
from policies.supervisor.request.subject import subject_from_request, thread_subject
from tests import bank_domain as bank_
from tests.bank_domain import Bank, call
from tests.helpers import scripted, thread
from tests.middleware_harness import ToolCallingModel

NAMES = ("user_id", "account_no")
BEFORE = ["", " ", "(", "[", '"', "'", ": ", "\n"]
AFTER = ["", ".", ",", ";", ":", "!", "?", ")", "]", '"', "'", " ", ".\n", "). "]
#: Digits of other scripts: Arabic-Indic, extended Arabic-Indic, Devanagari, full-width.
OTHER_DIGITS = [0x660, 0x6F0, 0x966, 0xFF10]


@settings(max_examples=200)
@given(
    st.sampled_from(NAMES),
    st.integers(-(10**12), 10**12),
    st.sampled_from(BEFORE),
    st.sampled_from(AFTER),
    st.sampled_from(["=", " = ", "= ", " ="]),
    st.text(alphabet="abc XYZ", max_size=20),
)
def test_a_name_int_pair_binds_with_ordinary_punctuation(name, value, before, after, eq, words):
    text = f"{words} {before}{name}{eq}{value}{after} {words}"
    assert subject_from_request(text, NAMES) == {name: value}


@settings(max_examples=100)
@given(st.sampled_from(NAMES), st.integers(0, 10**6), st.sampled_from(OTHER_DIGITS), st.sampled_from(AFTER))
def test_digits_of_other_scripts_bind_nothing(name, value, zero, after):
    written = "".join(chr(zero + int(d)) for d in str(value))
    assert subject_from_request(f"{name}={written}{after}", NAMES) == {}
    mixed = str(value) + chr(zero + 1)  # ASCII digits glued to another script's
    assert subject_from_request(f"{name}={mixed}{after}", NAMES) == {}


@settings(max_examples=100)
@given(st.sampled_from(NAMES), st.integers(0, 999), st.integers(0, 999))
def test_conflicting_values_bind_nothing(name, first, second):
    text = f"{name}={first} then {name}={second}."
    assert subject_from_request(text, NAMES) == ({name: first} if first == second else {})


def test_decimals_and_glued_names_are_no_pairs():
    assert subject_from_request("user_id=42.5", NAMES) == {}
    assert subject_from_request("my_user_id=42 x.user_id=7 user_id=42abc", NAMES) == {}


def test_a_bound_subject_is_kept_and_not_rebound():
    assert thread_subject({"user_id": 1}, {"user_id": 2}, "user_id=3", NAMES) == {"user_id": 1}
    assert thread_subject(None, {"user_id": 2}, "user_id=3", NAMES) == {"user_id": 2}
    assert thread_subject(None, None, "user_id=3", NAMES) == {"user_id": 3}
    assert thread_subject(None, None, "nobody", NAMES) == {}


# ------------------------------------------------------------------ the Supervisor graph


def _graph(*replies: Any) -> Any:
    return build_graph(llm=scripted(*replies), policy=demo_policy(), checkpointer=InMemorySaver())


def _context(user_id: int) -> dict[str, Any]:
    return {"kind": "tool", "name": "get_refund_context", "args": {"user_id": user_id}}


def _chat(text: str, message_id: str | None = None) -> dict[str, Any]:
    return {"messages": [HumanMessage(text, id=message_id) if message_id else HumanMessage(text)]}


def test_the_graph_keeps_a_threads_subject_across_turns_and_never_rebinds_it():
    final = {"kind": "final", "answer": "Done."}
    graph = _graph(_context(42), final, _context(42), final, _context(7))
    config = thread()
    first = graph.invoke(_chat("User Anna (user_id=42) asks about her plan."), config)
    assert first["status"] == "ok" and first["run_subject"] == {"user_id": 42}
    second = graph.invoke(_chat("And her last charge?"), config)  # names nobody: still Anna
    assert second["status"] == "ok" and second["run_subject"] == {"user_id": 42}
    third = graph.invoke(_chat("Now look at user_id=7 instead."), config)
    assert third["run_subject"] == {"user_id": 42}
    assert third["stop_reason"] == "supervisor_block:subject_mismatch:user_id"


def test_the_graph_refuses_a_bound_argument_when_nobody_is_named():
    out = _graph(_context(42)).invoke(_chat("Look up the refund context."), thread())
    assert out["run_subject"] == {} and out["stop_reason"] == "supervisor_block:subject_unbound:user_id"


def test_the_graph_takes_an_edited_turn_as_the_request():
    final = {"kind": "final", "answer": "Done."}
    graph = _graph(_context(42), final, _context(42), final)
    config = thread()
    graph.invoke(_chat("User Anna (user_id=42) asks about her plan.", "turn-1"), config)
    edited = graph.invoke(_chat("User Anna (user_id=42) asks about her last charge.", "turn-1"), config)
    goal = graph.get_state(config).values["goal"]
    assert edited["status"] == "ok" and goal == "User Anna (user_id=42) asks about her last charge."
    graph.invoke({"messages": []}, config)  # nothing new: the taken turn is not taken twice
    assert graph.get_state(config).values["goal"] == goal


# ------------------------------------------------------------------ the middleware


def _agent(replies: list[Any], **middleware: Any) -> tuple[Any, Bank]:
    bank = Bank()
    tools = bank_.make_tools(bank)
    governance = GovernanceMiddleware(bank_.make_policy(tools), tools=tools, **middleware)
    agent = create_agent(
        ToolCallingModel(replies=replies), tools, middleware=[governance], checkpointer=InMemorySaver()
    )
    return agent, bank


def _refusals(values: dict[str, Any]) -> list[str]:
    return [r["reason"] for r in values.get("governance_refusals") or []]


def test_the_middleware_keeps_a_threads_subject_across_turns_and_never_rebinds_it():
    script = [
        call("refund", user_id=42, amount=30),
        "Refunded.",
        call("refund", user_id=42, amount=20),
        "Refunded again.",
        call("refund", user_id=7, amount=10),
        "Tried.",
    ]
    agent, bank = _agent(script)
    config = thread()
    first = agent.invoke(_chat("Refund user_id=42 30 EUR."), config)
    assert first["governance_subject"] == {"user_id": 42}
    second = agent.invoke(_chat("Refund another 20 EUR."), config)
    assert second["governance_subject"] == {"user_id": 42}
    assert [(e["user_id"], e["amount"]) for e in bank.effects.values()] == [(42, 30), (42, 20)]
    third = agent.invoke(_chat("Refund user_id=7 10 EUR."), config)
    assert third["governance_subject"] == {"user_id": 42} and len(bank.effects) == 2
    assert _refusals(third)[-1] == "supervisor_block:subject_mismatch:user_id"
    said = [r for r in third["governance_trace"] if r["phase"] == "request"]
    assert said[-1]["subject_kept"] == {"user_id": 42} and said[-1]["subject_named"] == {"user_id": 7}


def test_the_middleware_refuses_a_bound_argument_when_nobody_is_named():
    agent, bank = _agent([call("refund", user_id=42, amount=30), "Tried."])
    values = agent.invoke(_chat("Refund 30 EUR."), thread())
    assert not bank.effects and _refusals(values) == ["supervisor_block:subject_unbound:user_id"]
    assert "governance_subject" not in values or not values["governance_subject"]


def test_the_applications_subject_wins_over_what_a_chat_message_names():
    agent, bank = _agent([call("refund", user_id=7, amount=30), "Tried."])
    values = agent.invoke(
        {**_chat("Refund user_id=7 30 EUR."), "governance_subject": {"user_id": 42}}, thread()
    )
    assert not bank.effects and _refusals(values) == ["supervisor_block:subject_mismatch:user_id"]
    configured, bank = _agent([call("refund", user_id=7, amount=30), "Tried."], subject={"user_id": 42})
    values = configured.invoke(_chat("Refund user_id=7 30 EUR."), thread())
    assert not bank.effects and _refusals(values) == ["supervisor_block:subject_mismatch:user_id"]
