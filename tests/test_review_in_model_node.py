"""The review runs inside the model's node (issue 37): no ``after_model`` node of the middleware's,
one model call per step also when the step waits for a human (its reply is kept, not asked for
again), and a refused final answer goes back to the model from ``after_agent`` whatever other
middleware sits after the model."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware, ToolCallLimitMiddleware
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from nodes.middleware import GovernanceMiddleware
from tests.helpers import thread
from tests.middleware_harness import ToolCallingModel, finished
from tests.own_agent import domain

PAY_BOB = {"name": "send_payment", "args": {"payee": "Bob Lee", "amount": 650, "currency": "USD"}}
READ_FINANCE = {"name": "read_channel", "args": {"channel": "#finance"}}
REQUEST = "Pay Bob Lee 650 USD for the conference tickets approved in #finance."
APPROVE = {"decisions": [{"type": "approve"}]}


def ask(text: str = REQUEST) -> dict[str, Any]:
    return {"messages": [{"type": "human", "content": text}]}


def build(replies: list[Any], *, others: tuple[str, ...] = (), first: bool = True, **fields: Any) -> Any:
    """The own-agent suite's agent; ``others`` names LangChain middleware with an ``after_model``
    node to put beside ours (before it in the list when ``first``, after it otherwise)."""
    office = domain.Office(planted=fields.pop("planted", False))
    tools = domain.make_tools(office)
    model = ToolCallingModel(replies=replies)
    governance = GovernanceMiddleware(
        domain.make_policy(tools, **fields),
        tools=tools,
        custom_rules=domain.CUSTOM_RULES,
        subject=domain.SUBJECT,
    )
    made = {
        "calls": ToolCallLimitMiddleware(run_limit=50),
        "hitl": HumanInTheLoopMiddleware(interrupt_on={"post_message": True}),
    }
    extra = [made[name] for name in others]
    middleware = [governance, *extra] if first else [*extra, governance]
    agent = create_agent(model, tools, middleware=middleware, checkpointer=InMemorySaver())
    return agent, model, office


def test_the_middleware_adds_no_node_per_step_only_its_two_per_run_nodes():
    agent, _model, _office = build(["Hello."])
    nodes = set(agent.get_graph().nodes) - {"__start__", "__end__"}
    assert nodes == {
        "GovernanceMiddleware.before_agent",
        "model",
        "tools",
        "GovernanceMiddleware.after_agent",
    }


def test_a_step_that_waits_for_a_human_calls_its_model_once():
    agent, model, office = build([READ_FINANCE, PAY_BOB, "Paid."])
    config = thread()
    values = agent.invoke(ask(), config)
    assert values["__interrupt__"][0].value["action_requests"][0]["name"] == "send_payment"
    assert model.turns == 2 and not office.effects
    done = agent.invoke(Command(resume=APPROVE), config)
    assert finished(done) and done["messages"][-1].content == "Paid."
    assert model.turns == 3  # the reply the human approved was kept, not asked for again
    assert [e["payee"] for e in office.effects.values()] == ["Bob Lee"]
    [payment] = [m for m in done["messages"] if isinstance(m, AIMessage) and m.tool_calls][1:]
    assert payment.tool_calls[0]["args"]["amount"] == 650


def test_a_human_asked_twice_in_one_step_is_asked_about_the_same_reply():
    """An answer that cannot be applied is asked again (a second interrupt in the same node run):
    the model is still called once, and the edit finally given is what runs."""
    agent, model, office = build([READ_FINANCE, PAY_BOB, "Paid."])
    config = thread()
    agent.invoke(ask(), config)
    again = agent.invoke(Command(resume={"decisions": [{"type": "maybe"}]}), config)
    request = again["__interrupt__"][0].value
    assert request["action_requests"][0]["name"] == "send_payment" and model.turns == 2
    edited = {**PAY_BOB["args"], "amount": 600}
    good = {"type": "edit", "edited_action": {"name": "send_payment", "args": edited}}
    done = agent.invoke(Command(resume={"decisions": [good]}), config)
    assert finished(done) and model.turns == 3
    assert [e["amount"] for e in office.effects.values()] == [600]


def test_the_async_path_keeps_the_reply_too():
    async def scenario() -> tuple[int, int, dict[str, Any]]:
        agent, model, office = build([READ_FINANCE, PAY_BOB, "Paid."])
        config = thread()
        await agent.ainvoke(ask(), config)
        turns = model.turns
        done = await agent.ainvoke(Command(resume=APPROVE), config)
        return turns, model.turns, {"done": done, "effects": office.effects}

    asked_at, ended_at, seen = asyncio.run(scenario())
    assert (asked_at, ended_at) == (2, 3)
    assert finished(seen["done"]) and len(seen["effects"]) == 1


def test_a_fork_before_the_waiting_step_asks_the_model_again():
    """Regenerate: a run taken up from the checkpoint before the step is a new node run, not a
    resume: the model is asked again (and its new reply reviewed), never handed the kept one."""
    agent, model, _office = build([READ_FINANCE, PAY_BOB, "Paid."])
    config = thread()
    agent.invoke(ask(), config)
    before = next(
        s for s in agent.get_state_history(config) if s.next == ("model",) and len(s.values["messages"]) == 3
    )
    forked = agent.invoke(None, before.config)
    assert model.turns == 3 and "__interrupt__" not in forked  # the script's third reply: "Paid."
    assert forked["messages"][-1].content == "Paid."


@pytest.mark.parametrize("first", [True, False], ids=["ours-first", "ours-last"])
@pytest.mark.parametrize("others", [("calls",), ("hitl",), ("calls", "hitl")], ids=lambda o: "+".join(o))
def test_a_refused_final_answer_goes_back_to_the_model_beside_other_after_model_hooks(others, first):
    """The jump back to the model is ``after_agent``'s: one written in the model's node would be
    lost behind another middleware's ``after_model`` node (the run would end on the refusal)."""
    support = {"name": "read_channel", "args": {"channel": "#support"}}
    replies = ["All done.", support, "#support asks about INV-7."]
    agent, model, _office = build(replies, others=others, first=first, final_requires_tools=["read_channel"])
    values = agent.invoke(ask("What does #support ask?"), thread())
    assert finished(values) and values["messages"][-1].content == "#support asks about INV-7."
    assert model.turns == 3
    [told] = [m for m in values["messages"] if isinstance(m, HumanMessage) and m.name == "supervisor"]
    assert json.loads(told.content)["reason"] == "supervisor_block:final_requires_context"


@pytest.mark.parametrize("others", [(), ("calls", "hitl")], ids=["alone", "beside-others"])
def test_a_stop_in_the_review_ends_the_run_without_a_jump(others):
    """A stop is the last message of the model's step (no tool call): the agent ends there, and no
    call of the stopped reply runs, whatever sits after the model."""
    agent, model, office = build([READ_FINANCE, PAY_BOB, "Paid."], others=others, on_refusal="stop")
    malformed = AIMessage(
        content="", invalid_tool_calls=[{"name": "send_payment", "args": "{", "id": "x", "error": "bad"}]
    )
    model.replies = [malformed]
    values = agent.invoke(ask(), thread())
    assert values["governance_stop_reason"] == "invalid_action:bad_tool_args"
    assert isinstance(values["messages"][-1], AIMessage) and not values["messages"][-1].tool_calls
    assert model.turns == 1 and not office.effects


def test_a_text_that_names_the_gateway_is_no_feedback_without_a_refused_answer():
    """``after_agent`` sends the run back to the model only after a refusal of this run's final
    answer: a human message named ``supervisor`` last in the conversation is not enough."""
    from nodes.middleware.reply import asks_again

    told = HumanMessage(content='{"refused": true}', name="supervisor", id="h1")
    state = {"messages": [AIMessage(content="Done."), told], "governance_run": {"run_id": "r1"}}
    assert not asks_again(state)
    refused = [{"run_id": "r0", "tool": "final"}]  # an earlier run's refusal
    assert not asks_again({**state, "governance_refusals": refused})
    assert asks_again({**state, "governance_refusals": [{"run_id": "r1", "tool": "final"}]})
    stopped = {
        **state,
        "governance_refusals": [{"run_id": "r1", "tool": "final"}],
        "governance_stop_reason": "x",
    }
    assert not asks_again(stopped)


@pytest.mark.parametrize("answer", ["approve", "edit"])
def test_hitl_asked_about_a_call_ours_refused_cannot_make_it_run(answer):
    """Ours reviews first, in the model's node: a call it refused is answered before HITL's
    ``after_model`` asks its reviewer about it, and whatever the reviewer answers, it never runs."""
    office = domain.Office()
    tools = domain.make_tools(office)
    globex = {"name": "send_payment", "args": {"payee": "Globex Ltd", "amount": 95, "currency": "EUR"}}
    model = ToolCallingModel(replies=[globex, "Told them."])
    governance = GovernanceMiddleware(
        domain.make_policy(tools), tools=tools, custom_rules=domain.CUSTOM_RULES, subject=domain.SUBJECT
    )
    hitl = HumanInTheLoopMiddleware(interrupt_on={"send_payment": True})
    agent = create_agent(model, tools, middleware=[governance, hitl], checkpointer=InMemorySaver())
    config = thread()
    values = agent.invoke(ask("Pay Acme Supplies 420 EUR."), config)
    assert values["__interrupt__"][0].value["action_requests"][0]["args"]["payee"] == "Globex Ltd"
    acme = {"payee": "Acme Supplies", "amount": 420, "currency": "EUR"}
    decision = (
        {"type": "approve"}
        if answer == "approve"
        else {"type": "edit", "edited_action": {"name": "send_payment", "args": acme}}
    )
    done = agent.invoke(Command(resume={"decisions": [decision]}), config)
    assert finished(done) and not office.effects
    assert [r["reason"] for r in done["governance_refusals"]] == ["supervisor_block:unknown_payee"]


def test_a_structured_response_ends_the_run_as_without_the_middleware():
    """``response_format`` (LangChain's ToolStrategy): the model node answers the structured call
    itself, in the same step; the review leaves that answered call alone and the run ends with
    the structured response."""
    from langchain.agents.structured_output import ToolStrategy
    from pydantic import BaseModel

    class Answer(BaseModel):
        text: str

    office = domain.Office()
    tools = domain.make_tools(office)
    structured = {"name": "Answer", "args": {"text": "#finance approved it."}}
    model = ToolCallingModel(replies=[READ_FINANCE, structured])
    governance = GovernanceMiddleware(
        domain.make_policy(tools), tools=tools, custom_rules=domain.CUSTOM_RULES, subject=domain.SUBJECT
    )
    agent = create_agent(
        model,
        tools,
        middleware=[governance],
        response_format=ToolStrategy(Answer),
        checkpointer=InMemorySaver(),
    )
    values = agent.invoke(ask("What did #finance approve?"), thread())
    assert values["structured_response"] == Answer(text="#finance approved it.")
    assert values.get("governance_stop_reason") is None and not values.get("governance_refusals")
    assert model.turns == 2


def test_langchains_model_wrappers_before_ours_let_its_question_through():
    """Ours waits for a human by raising LangGraph's interrupt from inside the model's call: the
    retry and fallback wrappers placed before it let it through (no retry, no fallback model),
    and the approved reply runs once."""
    from langchain.agents.middleware import ModelFallbackMiddleware, ModelRetryMiddleware

    office = domain.Office()
    tools = domain.make_tools(office)
    model = ToolCallingModel(replies=[READ_FINANCE, PAY_BOB, "Paid."])
    fallback = ToolCallingModel(replies=["I am the fallback."])
    governance = GovernanceMiddleware(
        domain.make_policy(tools), tools=tools, custom_rules=domain.CUSTOM_RULES, subject=domain.SUBJECT
    )
    wrappers = [ModelRetryMiddleware(max_retries=2), ModelFallbackMiddleware(fallback)]
    agent = create_agent(model, tools, middleware=[*wrappers, governance], checkpointer=InMemorySaver())
    config = thread()
    values = agent.invoke(ask(), config)
    assert values["__interrupt__"] and model.turns == 2 and fallback.turns == 0
    done = agent.invoke(Command(resume=APPROVE), config)
    assert finished(done) and done["messages"][-1].content == "Paid."
    assert model.turns == 3 and fallback.turns == 0 and len(office.effects) == 1


def test_a_waiting_step_streams_its_kept_reply_as_one_update_before_the_interrupt():
    """What the docs say ``stream_mode="updates"`` shows of a step that waits: the model's node
    gives no update (it waits), the kept reply is one, then the interrupt; the resume runs on."""
    agent, _model, _office = build([READ_FINANCE, PAY_BOB, "Paid."])
    config = thread()
    names = [next(iter(part)) for part in agent.stream(ask(), config, stream_mode="updates")]
    assert names[-2:] == ["governance_kept_reply", "__interrupt__"]
    assert names.count("governance_kept_reply") == 1
    resumed = [
        next(iter(part)) for part in agent.stream(Command(resume=APPROVE), config, stream_mode="updates")
    ]
    assert "governance_kept_reply" not in resumed and resumed[-1] == "GovernanceMiddleware.after_agent"


def test_a_response_with_no_ai_message_reviews_nothing_again():
    """A model wrapper inside ours that answers with no AI message (nothing proposed): the review
    does not fall back on an earlier reply of the conversation (it was reviewed in its own step)."""
    from langchain.agents.middleware import ModelResponse

    tools = domain.make_tools(domain.Office())
    governance = GovernanceMiddleware(
        domain.make_policy(tools), tools=tools, custom_rules=domain.CUSTOM_RULES, subject=domain.SUBJECT
    )
    earlier = AIMessage(
        content="", tool_calls=[{"name": "send_payment", "args": PAY_BOB["args"], "id": "c1"}]
    )
    state = {"messages": [HumanMessage(REQUEST, id="h1"), earlier], "governance_run": {"run_id": "r1"}}
    update = {"governance_clock": {"run_id": "r1", "steps": 2, "model_at": 0.0}}
    done = governance._reviewed(state, update, ModelResponse(result=[]))
    assert done.model_response.result == [] and done.command.update == update


@pytest.mark.parametrize(
    ("found", "ok"),
    [
        ("1.3.11", False),
        ("1.3.0", False),
        ("0.3.27", False),
        ("2.0.0", False),
        ("1.4.0", True),
        ("1.4.7", True),
        ("1.5.2", True),
        ("1.10.0rc1", True),
        ("weird", True),
    ],
)
def test_a_langchain_outside_the_range_is_named_when_the_middleware_is_imported(found, ok):
    """Below 1.4 the agent has no edge from the model's node back to the model (a reply whose calls
    the review refused all failed with ``KeyError: 'model'``): the import says what to install."""
    from nodes.middleware import langchain_problem

    problem = langchain_problem(found)
    assert (problem is None) == ok
    if not ok:
        assert "langchain>=1.4,<2" in problem and found in problem


def test_every_call_of_a_reply_refused_goes_back_to_the_model():
    """The case the floor is for: the review answers every call of the reply (all refused), so the
    agent's edge from the model's node goes back to the model, with no after_model hook anywhere."""
    globex = {"name": "send_payment", "args": {"payee": "Globex Ltd", "amount": 95, "currency": "EUR"}}
    agent, model, office = build(
        [[globex, {**globex, "args": {**globex["args"], "amount": 96}}], "Not paid."]
    )
    values = agent.invoke(ask("Pay Acme Supplies 420 EUR."), thread())
    assert finished(values) and values["messages"][-1].content == "Not paid." and model.turns == 2
    assert len(values["governance_refusals"]) == 2 and not office.effects


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_wrapper_inside_ours_that_asks_first_does_not_lend_its_answer_to_our_question(mode):
    """A model wrapper of the user's, inside ours (listed after it), that asks its own question
    before the model's call: the node is run again for its answer, then for ours. Our question
    gets our answer (never theirs: their answer here is an approval in HITL's shape, so it would
    pass for one), it is about the reply the model gave once, and that reply's call runs once."""
    from langchain.agents.middleware import AgentMiddleware
    from langchain_core.messages import ToolMessage
    from langgraph.types import interrupt

    asked_inside: list[Any] = []

    class AsksBeforeTheModel(AgentMiddleware):
        def wrap_model_call(self, request: Any, handler: Any) -> Any:
            if isinstance(request.state["messages"][-1], ToolMessage):
                asked_inside.append(interrupt({"question": "go on?"}))
            return handler(request)

        async def awrap_model_call(self, request: Any, handler: Any) -> Any:
            if isinstance(request.state["messages"][-1], ToolMessage):
                asked_inside.append(interrupt({"question": "go on?"}))
            return await handler(request)

    office = domain.Office()
    tools = domain.make_tools(office)
    pay_eve = {"name": "send_payment", "args": {"payee": "Eve Ltd", "amount": 650, "currency": "USD"}}
    model = ToolCallingModel(replies=[READ_FINANCE, PAY_BOB, pay_eve, "Paid."])
    governance = GovernanceMiddleware(
        domain.make_policy(tools), tools=tools, custom_rules=domain.CUSTOM_RULES, subject=domain.SUBJECT
    )
    agent = create_agent(
        model, tools, middleware=[governance, AsksBeforeTheModel()], checkpointer=InMemorySaver()
    )
    config = thread()
    theirs = Command(resume=APPROVE)  # their answer, in a shape that would pass for an approval

    async def arun(command: Any) -> dict[str, Any]:
        return await agent.ainvoke(command, config)

    def run(command: Any) -> dict[str, Any]:
        return agent.invoke(command, config) if mode == "sync" else asyncio.run(arun(command))

    first = run(ask())
    assert first["__interrupt__"][0].value == {"question": "go on?"} and model.turns == 1
    ours = run(theirs)
    request = ours["__interrupt__"][0].value
    assert request["action_requests"][0]["args"]["payee"] == "Bob Lee" and model.turns == 2
    assert not office.effects
    done = run(Command(resume={"decisions": [{"type": "reject", "message": "not now"}]}))
    # our question had our answer (a rejection, applied at once, no answer refused), and their
    # wrapper asks again before the next model call
    assert done["__interrupt__"][0].value == {"question": "go on?"} and model.turns == 2
    assert not office.effects and asked_inside == [APPROVE]
    rejected = [r for r in done["governance_trace"] if r.get("refused") == "human_rejected"]
    assert rejected and not [r for r in done["governance_trace"] if r.get("phase") == "answer_refused"]


@pytest.mark.parametrize("others", [(), ("calls", "hitl")], ids=["alone", "beside-others"])
def test_a_stop_answers_the_calls_approved_before_it_in_the_same_reply(others):
    """A reply whose first call the rules approve and whose second stops the run: neither runs,
    and each has its answer (the docs' promise: no call left dangling for a chat client)."""
    from langchain_core.messages import ToolMessage

    globex = {"name": "send_payment", "args": {"payee": "Globex Ltd", "amount": 95, "currency": "EUR"}}
    agent, model, office = build([[READ_FINANCE, globex], "x"], others=others, on_refusal="stop")
    values = agent.invoke(ask("Pay Acme Supplies 420 EUR."), thread())
    assert values["governance_stop_reason"] == "supervisor_block:unknown_payee"
    calls = [c["id"] for m in values["messages"] if isinstance(m, AIMessage) for c in m.tool_calls]
    answers = {m.tool_call_id: m for m in values["messages"] if isinstance(m, ToolMessage)}
    assert set(calls) == set(answers) == {"call_1_0", "call_1_1"}
    assert json.loads(answers["call_1_0"].content) == {
        "not_run": True,
        "reason": "the run stopped: supervisor_block:unknown_payee",
    }
    assert not values.get("governance_calls") and not office.effects and model.turns == 1
