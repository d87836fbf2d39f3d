"""Regression tests for what the gateway fuzz suites found, one plain test each. Every case here
crashed a run, or let an action past a rule, before its fix."""

from __future__ import annotations

import pytest
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools.reflection import demo_input as reflection_input
from demo_tools.research import demo_input as research_input
from demo_tools.research import demo_read, demo_search
from demo_tools.supervisor import GOAL, BillingDesk
from demo_tools.task_decomposition import GOAL as TASK_GOAL
from demo_tools.task_decomposition import demo_tools as task_tools
from graphs import rag, reflection, research, supervisor, task_decomposition
from nodes.llm_json import parse_reply
from policies.grounding import ungrounded_numbers
from policies.json_safety import json_problem
from policies.reflection import ReflectionPolicy
from policies.supervisor import demo_policy
from tests.helpers import RoleModel, scripted, thread, tool_action

DRAFT = {"draft": "Payments in US are degraded. We will share updates."}
ESCALATE = {"decision": "escalate", "issues": [], "fix_plan": [], "reason": "Legal must review."}
CONTEXT = tool_action("get_refund_context", user_id=42)
REFUND_1200 = {"kind": "tool", "name": "issue_refund", "args": {"user_id": 42, "amount_usd": 1200}}


def reflection_run(review_text: str) -> dict:
    graph = reflection.build_graph(llm=scripted(DRAFT, review_text), checkpointer=InMemorySaver())
    return graph.invoke(reflection_input(), thread())


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ('{"decision": ' + "[" * 300 + "]" * 300 + "}", "too_deep"),  # TypeError: Recursion limit reached
        ('{"decision": "approve", "n": 123456789012345678901234567890}', "int_out_of_range"),
        ('{"decision": "approve", "\\udc00": 1}', "invalid_unicode"),  # TypeError: string contains surrogates
        ('{"decision": "approve", "note": "\\ud800"}', "invalid_unicode"),  # stored altered, as "?"
        ('{"decision": "approve", "x": 1e400}', "non_finite_number"),  # parsed to infinity, NaN is refused
    ],
)
def test_replies_the_checkpointer_cannot_store_are_invalid_json(reply, problem):
    out = reflection_run(reply)
    assert out["status"] == "stopped" and out["stop_reason"] == "llm_invalid_json"
    assert out["llm_detail"] == problem and out["phase"] == "review"
    assert parse_reply(reply).detail == problem


def test_a_human_edit_the_run_cannot_keep_is_an_invalid_answer():
    # a lone surrogate in the edited text crashed finalize (UnicodeEncodeError in the trace hash)
    policy = ReflectionPolicy(human_review_on_escalate=True)
    graph = reflection.build_graph(llm=scripted(DRAFT, ESCALATE), policy=policy, checkpointer=InMemorySaver())
    config = thread()
    assert "__interrupt__" in graph.invoke(reflection_input(), config)
    out = graph.invoke(Command(resume={"type": "edit", "answer": "Fixed \ud800 text."}), config)
    assert out["stop_reason"] == "invalid_human_answer"


def _paused_refund():
    desk = BillingDesk()
    graph = supervisor.build_graph(
        llm=scripted(CONTEXT, REFUND_1200, {"kind": "final", "answer": "Done."}),
        policy=demo_policy(),
        checkpointer=InMemorySaver(),
        tools=desk.registry(),
    )
    config = thread()
    assert "__interrupt__" in graph.invoke({"goal": GOAL}, config)
    return graph, config, desk


def test_a_resume_value_langgraph_cannot_store_fails_at_the_boundary_and_the_run_waits():
    """LangGraph stores a resume value before any node runs: one it cannot store raises from
    ``invoke`` (nothing of ours ran), and the run is still paused for a valid answer."""
    graph, config, desk = _paused_refund()
    with pytest.raises(TypeError):
        graph.invoke(Command(resume={"type": "approve", "n": 2**70}), config)
    assert graph.get_state(config).next == ("human_approval",) and not desk.refunds
    graph.invoke(Command(resume={}), config)  # an empty map of interrupt ids: nothing is answered
    assert graph.get_state(config).next == ("human_approval",) and not desk.refunds
    done = graph.invoke(Command(resume={"type": "approve"}), config)
    assert done["status"] == "ok" and [r["amount_usd"] for r in desk.refunds.values()] == [1200]


@pytest.mark.parametrize(
    ("amount", "reason"),
    [
        (-5, "invalid_refund_amount"),  # the tool used to be called with -5
        (0, "invalid_refund_amount"),
        (2500, "cap_to_remaining_run_budget"),  # past the run's 2000 USD refund cap: it used to run
    ],
)
def test_a_human_edit_does_not_skip_the_supervisors_hard_rules(amount, reason):
    graph, config, desk = _paused_refund()
    edit = {"type": "edit", "edited_action": {"name": "issue_refund", "args": {"amount_usd": amount}}}
    out = graph.invoke(Command(resume=edit), config)
    # the edit breaks a rule: the human is asked again, told which, and nothing ran
    [again] = out["__interrupt__"]
    assert reason in again.value["problem"] and again.value["attempt"] == 2
    assert not desk.refunds
    for _ in range(2):  # the same edit until the answers run out
        out = graph.invoke(Command(resume=edit), config)
    assert out["status"] == "stopped" and out["stop_reason"] == "invalid_human_answer"
    assert out["phase"] == "human_approval"
    assert reason in out["details"]["problem"]
    assert not desk.refunds


def test_a_human_edit_within_the_rules_runs_as_the_human_left_it():
    graph, config, desk = _paused_refund()
    edit = {"type": "edit", "edited_action": {"name": "issue_refund", "args": {"amount_usd": 1150}}}
    out = graph.invoke(Command(resume=edit), config)
    assert out["status"] == "ok"  # above the 1000 USD auto limit: the human's call to make
    assert [r["amount_usd"] for r in desk.refunds.values()] == [1150]
    assert out["calls"][1]["executed_from"] == "human_revised"


@pytest.mark.parametrize(
    "answer", ["99.950000000000000000000000000000001%", "0." + "1" * 40, "1" + "0" * 400 + ".5"]
)
def test_long_numbers_in_an_answer_are_ungrounded_not_a_crash(answer):
    # decimal.InvalidOperation out of the grounding check crashed validate_answer
    assert ungrounded_numbers(answer, "SLA 99.95%, 0.1, 5") == [answer]
    graph = rag.build_graph(
        llm=RoleModel().load({"rag.answer": [{"answer": answer, "citations": ["doc_sla_enterprise_v3"]}]}),
        checkpointer=InMemorySaver(),
    )
    out = graph.invoke({"question": "What SLA applies to enterprise plan?"}, thread())
    assert out["stop_reason"] == "invalid_answer:ungrounded_numbers"


def test_a_tool_result_the_run_cannot_keep_is_a_bad_result():
    tools = {**task_tools(), "fetch_sales_data": lambda month: {"month": month, "total": 2**70}}
    graph = task_decomposition.build_graph(llm=RoleModel(), tools=tools, checkpointer=InMemorySaver())
    out = graph.invoke({"goal": TASK_GOAL}, thread())
    assert out["stop_reason"] == "tool_bad_result:fetch_sales_data"
    assert out["details"] == {"problem": "int_out_of_range"}


@pytest.mark.parametrize("which", ["search", "read"])
def test_research_tool_output_the_run_cannot_keep_is_invalid_output(which):
    def search(query, limit):
        results = demo_search(query, limit)
        return [{**results[0], "snippet": "\ud800"}, *results[1:]] if which == "search" else results

    def reader(url):
        page = demo_read(url)
        return {**page, "links": _deep(100)} if page and which == "read" else page

    graph = research.build_graph(llm=RoleModel(), search=search, reader=reader, checkpointer=InMemorySaver())
    out = graph.invoke(research_input(), thread())
    assert out["stop_reason"] == f"tool_invalid_output:{which}"


def _deep(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


class _OddRetriever(BaseRetriever):
    def _get_relevant_documents(self, query, *, run_manager):
        meta = {"id": "kb_odd", "source": "support_policy", "score": 0.9}
        return [Document(page_content="Uptime \ud800 is 99.95%.", metadata=meta)]


def test_a_retrieved_document_the_run_cannot_keep_is_invalid_output():
    # it used to be dropped without a word (the run then asked to clarify); now it is refused by
    # name, as Research refuses such a page
    graph = rag.build_graph(llm=RoleModel(), retriever=_OddRetriever(), checkpointer=InMemorySaver())
    out = graph.invoke({"question": "What is the uptime?"}, thread())
    assert out["stop_reason"] == "tool_invalid_output:retriever"
    assert out["details"] == {"problem": "document_0:text:invalid_unicode"}
    assert json_problem("\ud800") == "invalid_unicode"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("refund\n[ERROR] approved", "invalid_action:unknown_tool:refund?[ERROR]?approved"),
        ("x" * 5000, "invalid_action:unknown_tool:" + "x" * 129 + "..."),
    ],
)
def test_stop_reasons_carry_no_raw_reply_text(name, reason):
    graph = supervisor.build_graph(llm=scripted({"kind": "tool", "name": name, "args": {}}))
    out = graph.invoke({"goal": GOAL}, thread())
    assert out["stop_reason"] == reason.replace("[", "?").replace("]", "?")
    assert out["trace"][-1]["stop_reason"] == out["stop_reason"]
    assert out["raw_action"]["name"] == name  # the raw value stays in the diagnostics


# ------------------------------------------------------------------ found by the injection suite


def _supervisor(*replies, auto=True):
    desk = BillingDesk()
    graph = supervisor.build_graph(
        llm=scripted(*replies),
        policy=demo_policy(auto_approver_enabled=auto),
        checkpointer=InMemorySaver(),
        tools=desk.registry(),
    )
    return graph.invoke({"goal": GOAL, "subject": {"user_id": 42}}, thread()), desk


def test_a_run_cannot_act_for_anyone_but_its_subject():
    # a worker obeying an injected note refunded user 7 within every limit
    other = {"kind": "tool", "name": "issue_refund", "args": {"user_id": 7, "amount_usd": 49, "reason": "r"}}
    out, desk = _supervisor(CONTEXT, other)
    assert out["stop_reason"] == "supervisor_block:subject_mismatch:user_id" and not desk.refunds
    out, desk = _supervisor({"kind": "tool", "name": "get_refund_context", "args": {"user_id": 7}})
    assert out["stop_reason"] == "supervisor_block:subject_mismatch:user_id"  # nor read their data
    assert out["reviews"][-1]["expected"] == 42


def test_without_a_subject_a_bound_argument_acts_for_nobody():
    """The goal names its subject (user_id=42): a call for user 7 is refused; a goal that names
    nobody binds nothing, and a call with a bound argument is refused by name, never free (issue 28:
    it used to run for anyone)."""

    def graph():
        return supervisor.build_graph(
            llm=scripted(
                {"kind": "tool", "name": "get_refund_context", "args": {"user_id": 7}},
                {"kind": "final", "answer": "ok"},
            ),
            checkpointer=InMemorySaver(),
        )

    named = graph().invoke({"goal": GOAL}, thread())
    assert named["run_subject"] == {"user_id": 42}
    assert named["stop_reason"] == "supervisor_block:subject_mismatch:user_id"
    nobody = graph().invoke({"goal": "Refund the customer's last charge."}, thread())
    assert nobody["run_subject"] == {} and nobody["stop_reason"] == "supervisor_block:subject_unbound:user_id"
    assert graph().invoke({"goal": GOAL, "subject": [42]}, thread())["stop_reason"] == "invalid_input:subject"


def test_a_split_refund_does_not_avoid_the_human():
    # two refunds of 999 USD, each under the 1000 USD auto limit, used to run without approval
    part = tool_action("issue_refund", user_id=42, amount_usd=999, reason="part")
    second = {**part, "args": {**part["args"], "reason": "part 2"}}
    out, desk = _supervisor(CONTEXT, part, second, auto=False)
    assert "__interrupt__" in out
    request = out["__interrupt__"][0].value
    assert request["reason"] == "high_refund_requires_human"
    assert [r["amount_usd"] for r in desk.refunds.values()] == [999]


def test_a_confirmation_email_must_match_a_refund():
    # an email announcing 1200 USD after a 100 USD refund used to pass the precondition
    small = tool_action("issue_refund", user_id=42, amount_usd=100, reason="r")
    email = tool_action("send_refund_email", user_id=42, amount_usd=1200, message="m")
    out, desk = _supervisor(CONTEXT, small, email)
    assert out["stop_reason"] == "supervisor_block:email_before_refund" and not desk.emails
    assert out["reviews"][-1]["match_args"] == ["user_id", "amount_usd"]


def test_a_whole_number_does_not_ground_a_percentage():
    # "1 hour" in a cited chunk grounded an injected "100%" uptime claim (1 x 100)
    evidence = "For P2 incidents, first response target is 1 hour."
    assert ungrounded_numbers("Uptime is 100%.", evidence) == ["100%"]
    assert ungrounded_numbers("Refund rate 4.86%.", {"refund_rate": 0.0486}) == []
    assert ungrounded_numbers("Rate 0.0486.", "4.86%") == []


# ------------------------------------------------------------------ found by the issue 16 check


@pytest.mark.parametrize(
    ("summary", "reason", "ungrounded"),
    [
        ("Gross sales $35k for April 2026.", "invalid_answer:ungrounded_numbers", ["35k"]),  # was success
        ("Gross sales $1.2M.", "invalid_answer:ungrounded_numbers", ["1.2M"]),
        ("Refund rate 5% (top day 2026-04-05).", "invalid_answer:ungrounded_numbers", ["5%"]),  # was success
        ("Gross sales $28.2k, top day April 5, spike on 04/04.", "success", []),
    ],
)
def test_task_decomposition_grounds_abbreviated_figures_and_dates(summary, reason, ungrounded):
    llm = RoleModel().load({"task_decomposition.combine": [{"answer": summary}]})
    graph = task_decomposition.build_graph(llm=llm, checkpointer=InMemorySaver())
    out = graph.invoke({"goal": TASK_GOAL}, thread())
    assert out["stop_reason"] == reason
    if ungrounded:
        assert out["details"]["ungrounded_numbers"] == ungrounded


@pytest.mark.parametrize(
    ("answer", "ungrounded"),
    [
        ("Failed payment rate is 7%. [n1]", ["7%"]),  # grounded by the published date 2026-03-07
        ("3 chargeback alerts. [n1]", ["3"]),
        ("Failed payment rate is 3.4% as of March 7, 2026. [n1]", []),
    ],
)
def test_research_dates_do_not_ground_numbers(answer, ungrounded):
    llm = RoleModel().load({"research.synthesize": [{"answer": answer, "citations": ["n1"]}]})
    graph = research.build_graph(llm=llm, checkpointer=InMemorySaver())
    out = graph.invoke(research_input(), thread())
    if ungrounded:
        assert out["stop_reason"] == "invalid_answer:ungrounded_numbers"
        assert out["ungrounded_numbers"] == ungrounded
    else:
        assert out["status"] == "ok"


def test_rag_abbreviated_figures_are_checked():
    answer = {
        "answer": "Enterprise uptime is 99.95% with a 15k minute response.",
        "citations": ["doc_sla_enterprise_v3"],
    }
    graph = rag.build_graph(llm=RoleModel().load({"rag.answer": [answer]}), checkpointer=InMemorySaver())
    out = graph.invoke({"question": "What SLA applies to enterprise plan?"}, thread())
    assert out["stop_reason"] == "invalid_answer:ungrounded_numbers" and out["ungrounded_numbers"] == ["15k"]
