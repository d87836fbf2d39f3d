"""The reviewer's value is the reviewer's (issue 36): a value a human types in an edit counts as
authorised by that human — a source of its own — and stays bound by every rule that is not about
where a value comes from (the schema, positive amounts, the run's cap, subject binding)."""

from __future__ import annotations

from langchain.agents import create_agent
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools import support_desk
from graphs.supervisor import build_graph
from nodes.middleware import GovernanceMiddleware
from nodes.scripted import ScriptedToolModel
from nodes.tool_gateway import tool_registry
from policies.human import parse_human_answer
from policies.supervisor import ReviewContext, approved_action

REQUEST = "Refund order ORD-1002 in full."
ORDER = {"step": 1, "tool": "look_up_order", "args": {"order_id": "ORD-1002"}, "ok": True,
         "observation": support_desk.ORDERS["ORD-1002"]}  # fmt: skip
REFUND = {"kind": "tool", "name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": 250.0}}


def edit(**args):
    answer = parse_human_answer({"type": "edit", "edited_action": {"name": "issue_refund", "args": args}})
    context = ReviewContext(
        calls=(ORDER,), request=REQUEST, trusted=frozenset({"look_up_order"}), subject=support_desk.SUBJECT
    )
    models = {name: tool.model for name, tool in tool_registry(support_desk.tools).items()}
    return approved_action(answer, REFUND, support_desk.policy, context, models=models)


def test_a_reviewers_amount_runs_though_no_source_holds_it():
    decision = edit(amount=120)
    assert decision.verdict == "allow" and decision.reason == "human_revised", decision
    assert decision.details["action"]["args"] == {"order_id": "ORD-1002", "amount": 120}


def test_the_rules_not_about_origin_still_bind_a_reviewers_value():
    assert edit(amount=-5).verdict == "block"  # a refund is positive, whoever typed it
    assert edit(amount=0.001).verdict == "block"  # to the cent: nothing left
    assert edit(amount="a lot").verdict == "stop"  # the schema


def _run(engine):
    script = [
        {"name": "look_up_order", "args": {"order_id": "ORD-1002"}},
        {"name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": 250.0}},
        "Refunded.",
    ]
    config = {"configurable": {"thread_id": f"edit-{engine}"}}
    support_desk.DONE.clear()
    if engine == "graph":
        policy = support_desk.policy.model_copy(update={"worker_protocol": "native"})
        agent = build_graph(
            llm=ScriptedToolModel(replies=script),
            tools=support_desk.tools,
            policy=policy,
            checkpointer=InMemorySaver(),
        )
    else:
        governance = GovernanceMiddleware(support_desk.policy, tools=support_desk.tools)
        agent = create_agent(
            ScriptedToolModel(replies=script),
            support_desk.tools,
            middleware=[governance],
            checkpointer=InMemorySaver(),
        )
    subject = {"subject" if engine == "graph" else "governance_subject": support_desk.SUBJECT}
    asked = agent.invoke({"messages": [("user", REQUEST)], **subject}, config)
    assert (
        asked["__interrupt__"][0].value["action_requests"][0]["args"]["amount"] == 250.0
    )  # above 100: asked
    edited = {"type": "edit", "edited_action": {"name": "issue_refund", "args": {"amount": 120}}}
    return agent.invoke(Command(resume={"decisions": [edited]}), config)


def test_both_engines_run_the_reviewers_edit_and_say_who_chose_it():
    for engine in ("graph", "middleware"):
        done = _run(engine)
        assert "__interrupt__" not in done
        calls = done["calls" if engine == "graph" else "governance_calls"]
        [refund] = [c for c in calls if c["tool"] == "issue_refund"]
        assert refund["args"]["amount"] == 120 and refund["executed_from"] == "human_revised"
        assert refund["approved_by"] == "human"
        assert support_desk.DONE == [{"tool": "issue_refund", "order_id": "ORD-1002", "amount": 120}]
