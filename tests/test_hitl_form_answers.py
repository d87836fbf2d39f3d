"""A human's answer as a chat UI sends it (shared/spec/chat-clients.md §3), over classes of input:
an edit's touched fields arrive as text and are read against the tool's schema the way a form is
read; the model's own calls stay strictly validated; malformed answers are asked again with a
problem, never a crash; one decision per request; respond only where it is offered."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from demo_tools.supervisor import demo_tools
from nodes.tool_gateway import tool_registry
from policies.human import NOT_A_FORM_VALUE, answer_problem, form_value, parse_human_answer
from policies.supervisor import approved_action, demo_policy, validate_action
from tests.fuzz import deliverable_resume
from tests.own_agent import domain

POLICY = demo_policy()
MODELS = {n: t.model for n, t in tool_registry(demo_tools()).items()}
REFUND = {"kind": "tool", "name": "issue_refund", "args": {"user_id": 42, "amount_usd": 1200, "reason": "x"}}
OWN_TOOLS = domain.make_tools(domain.Office())
OWN_POLICY = domain.make_policy(OWN_TOOLS)
OWN_MODELS = {n: t.model for n, t in tool_registry(OWN_TOOLS).items()}
TRANSFER = {
    "kind": "tool",
    "name": "schedule_transfer",
    "args": {
        "transfer": {"from_account": "checking", "to_account": "savings", "amount": 300},
        "on_date": "2026-12-01",
    },
}

numbers = st.one_of(
    st.integers(min_value=-(10**15), max_value=10**15),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e15, max_value=1e15),
)
padding = st.sampled_from(["", " ", "  ", "\t", "\n"])


def edit(args: dict[str, Any], name: str = "issue_refund") -> Any:
    return parse_human_answer(
        {"decisions": [{"type": "edit", "edited_action": {"name": name, "args": args}}]}
    )


@given(numbers, padding, padding)
def test_any_numeric_text_for_a_number_field_is_read_as_that_number(number, left, right):
    text = f"{left}{json.dumps(number)}{right}"
    decision = approved_action(edit({"amount_usd": text}), REFUND, POLICY, models=MODELS)
    assert decision.passed, decision
    amount = decision.details["action"]["args"]["amount_usd"]
    assert amount == number and not isinstance(amount, str)


@given(st.text(max_size=40))
def test_text_that_is_no_number_is_refused_with_the_field_named_never_a_crash(text):
    value = form_value(text)
    assume(value is NOT_A_FORM_VALUE or isinstance(value, bool) or not isinstance(value, int | float))
    decision = approved_action(edit({"amount_usd": text}), REFUND, POLICY, models=MODELS)
    assert decision.verdict == "stop" and decision.reason == "invalid_human_answer"
    assert "amount_usd" in decision.details["problem"]


@given(
    st.sampled_from(["checking", "savings"]),
    st.sampled_from(["checking", "savings"]),
    st.floats(min_value=0.01, max_value=1e9, allow_nan=False),
)
def test_an_object_field_sent_as_json_text_is_read_as_the_object(source, target, amount):
    transfer = {"from_account": source, "to_account": target, "amount": amount}
    answer = edit({"transfer": json.dumps(transfer)}, "schedule_transfer")
    decision = approved_action(answer, TRANSFER, OWN_POLICY, models=OWN_MODELS)
    assert decision.passed, decision
    assert decision.details["action"]["args"]["transfer"] == transfer


@given(st.text(max_size=30))
def test_a_text_field_keeps_its_text_even_when_it_reads_as_a_number(text):
    """A field the schema takes as text is never rewritten (``"123"`` stays ``"123"``)."""
    decision = approved_action(edit({"reason": text}), REFUND, POLICY, models=MODELS)
    assert decision.passed and decision.details["action"]["args"]["reason"] == text


@given(numbers)
def test_the_models_own_calls_stay_strict(number):
    raw = {"kind": "tool", "name": "issue_refund", "args": {"user_id": 42, "amount_usd": str(number)}}
    assert (
        validate_action(raw, POLICY, MODELS).reason == "invalid_action:bad_arg_type:issue_refund:amount_usd"
    )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)
decision_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["approve", "edit", "reject", "respond", "aprove", "", "APPROVE"])},
    optional={"message": json_values, "edited_action": json_values},
)


@given(
    st.one_of(json_values, decision_like, st.lists(decision_like, max_size=3).map(lambda d: {"decisions": d}))
)
def test_any_answer_is_read_or_named_as_a_problem_never_a_crash(value):
    for allowed in (("approve", "edit", "reject"), ("approve", "edit", "reject", "respond")):
        answer = parse_human_answer(value, allowed=allowed)
        if answer is None:
            problem = answer_problem(value, allowed=allowed)
            assert isinstance(problem, str) and problem
        else:
            assert answer.type in allowed
            if answer.type == "edit":
                approved_action(answer, REFUND, POLICY, models=MODELS)  # a Decision, never a raise


@given(st.lists(st.just({"type": "approve"}), min_size=2, max_size=5))
def test_one_decision_per_request(decisions):
    assert parse_human_answer({"decisions": decisions}) is None
    assert "exactly one decision" in answer_problem({"decisions": decisions})


@given(st.text(max_size=20))
def test_respond_is_taken_only_where_offered_and_only_with_text(message):
    value = {"decisions": [{"type": "respond", "message": message}]}
    assert parse_human_answer(value) is None
    assert "respond is not offered" in answer_problem(value)
    answer = parse_human_answer(value, allowed=("approve", "edit", "reject", "respond"))
    if message.strip():
        assert answer is not None and answer.type == "respond" and answer.message == message
    else:
        assert answer is None


def test_form_value_reads_what_a_form_sends():
    assert form_value("800") == 800 and form_value(" 12.5 ") == 12.5
    assert form_value('{"a": [1, 2]}') == {"a": [1, 2]} and form_value("true") is True
    for text in ("NaN", "Infinity", "1e999", "abc", '"quoted"', "{oops", ""):
        assert form_value(text) is NOT_A_FORM_VALUE, text
    assert not math.isnan(form_value("0.0"))


# ------------------------------------------------------------------ through the Supervisor graph and the middleware


def _supervisor_paused() -> tuple[Any, dict[str, Any], Any]:
    from langgraph.checkpoint.memory import InMemorySaver

    from demo_tools.supervisor import BillingDesk, demo_input
    from graphs.supervisor import build_graph
    from nodes.offline import OfflineChatModel
    from tests.helpers import thread

    desk = BillingDesk()
    graph = build_graph(
        llm=OfflineChatModel(), tools=desk.registry(), policy=demo_policy(), checkpointer=InMemorySaver()
    )
    config = thread()
    graph.invoke(demo_input(), config)
    return graph, config, desk


def test_the_supervisor_graph_reads_a_text_edit_as_a_form_and_asks_again_on_respond():
    from langgraph.types import Command

    graph, config, desk = _supervisor_paused()
    respond = {"decisions": [{"type": "respond", "message": "refunded by hand"}]}
    again = graph.invoke(Command(resume=respond), config)["__interrupt__"][0].value
    assert again["attempt"] == 2 and again["problem"] and not desk.refunds  # respond: asked again
    text_edit = {"type": "edit", "edited_action": {"name": "issue_refund", "args": {"amount_usd": "800"}}}
    done = graph.invoke(Command(resume={"decisions": [text_edit]}), config)
    assert done["status"] == "ok"
    assert [r["amount_usd"] for r in desk.refunds.values()] == [800.0]
    refund = next(c for c in done["calls"] if c["tool"] == "issue_refund")
    assert refund["executed_from"] == "human_revised" and refund["approved_by"] == "human"


resume_values = st.one_of(
    json_values, decision_like, st.lists(decision_like, max_size=2).map(lambda d: {"decisions": d})
).filter(deliverable_resume)


@settings(max_examples=40, deadline=None)
@given(st.lists(resume_values, min_size=1, max_size=4))
def test_any_answers_to_the_middleware_end_in_a_run_or_a_named_stop(answers):
    """Whatever a client resumes with, the agent run goes on or stops by name; the payment runs
    at most once, and only as a call the rules allow (at most the run's approved amount)."""
    from langgraph.types import Command

    from tests.helpers import thread
    from tests.middleware_harness import ToolCallingModel, finished, governed_agent

    office = domain.Office()
    tools = domain.make_tools(office)
    read = {"name": "read_channel", "args": {"channel": "#finance"}}
    pay = {"name": "send_payment", "args": {"payee": "Bob Lee", "amount": 650, "currency": "USD"}}
    model = ToolCallingModel(replies=[read, pay, "done"])
    policy = domain.make_policy(tools)
    agent = governed_agent(model, tools, policy, custom_rules=domain.CUSTOM_RULES, subject=domain.SUBJECT)
    config = thread()
    values = agent.invoke({"messages": [{"role": "user", "content": "Pay Bob Lee 650 USD."}]}, config)
    for answer in [*answers, {"type": "reject", "message": "enough"}]:
        if "__interrupt__" not in values:
            break
        values = agent.invoke(Command(resume=answer), config)
    assert "__interrupt__" not in values
    assert finished(values) or values["governance_stop_reason"] in {"invalid_human_answer", "max_refusals"}
    assert len(office.effects) <= 1
    for effect in office.effects.values():
        assert effect["payee"] in domain.SUBJECT["payees"] and effect["amount"] > 0
