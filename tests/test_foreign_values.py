"""Values JSON cannot represent, from every entry point that takes data from outside the gateway
(issue 16, item 1): a tool's result (Supervisor, Task Decomposition), a search result or a page
(Research), a retrieved document (RAG), a human's answer. Each is refused by name where it enters,
under a real checkpointer (InMemorySaver and SQLite), instead of crashing the run inside ``invoke``
(``TypeError: Type is not msgpack serializable``) or being kept in a result the CLI cannot print.
"""

from __future__ import annotations

import collections
import datetime
import json
import sqlite3
import uuid
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import Command

from demo_tools.reflection import demo_input as reflection_input
from demo_tools.research import demo_input as research_input
from demo_tools.research import demo_read, demo_search
from demo_tools.supervisor import GOAL, BillingDesk
from demo_tools.task_decomposition import GOAL as TASK_GOAL
from demo_tools.task_decomposition import demo_tools as task_tools
from graphs import rag, reflection, research, supervisor, task_decomposition
from nodes.tool_gateway import run_tool, tool_registry
from policies.json_safety import MAX_INT, error_text, json_problem, plain_copy, type_name
from policies.reflection import ReflectionPolicy
from policies.supervisor import demo_policy
from policies.tools import check_result
from tests.fuzz import (
    FOREIGN,
    JSON_VALUES,
    Hostile,
    LyingDict,
    Opaque,
    PosingAsDict,
    RaisingList,
    message_dict,
    shared_references,
    tainter,
)
from tests.helpers import RaisingModel, RoleModel, scripted, thread

CONTEXT = {"kind": "tool", "name": "get_refund_context", "args": {"user_id": 42}}
FINAL = {"kind": "final", "answer": "Done."}

#: (name, value, the problem json_problem names)
FOREIGN_EXAMPLES = [
    ("object", Opaque(), "not_json:Opaque"),
    ("complex", 1j, "not_json:complex"),
    ("bytes", b"\x00", "not_json:bytes"),
    ("set", {1, 2}, "not_json:set"),
    ("frozenset", frozenset({1}), "not_json:frozenset"),
    ("tuple", (1, 2), "not_json:tuple"),
    ("tuple_key", {(1, 2): "a"}, "key_not_str:tuple"),
    ("int_key", {1: "a"}, "key_not_str:int"),
    ("datetime", datetime.datetime(2026, 4, 5, 10, 0), "not_json:datetime"),
    ("date", datetime.date(2026, 4, 5), "not_json:date"),
    ("decimal", Decimal("28195.00"), "not_json:Decimal"),
    ("uuid", uuid.UUID(int=7), "not_json:UUID"),
    ("ordered_dict", collections.OrderedDict(a=1), "not_json:OrderedDict"),
    ("hostile", Hostile(), "not_json:Hostile"),
    ("posing_as_dict", PosingAsDict(), "not_json:PosingAsDict"),
    ("lying_dict", LyingDict(a=1j), "not_json:LyingDict"),
    ("raising_list", RaisingList([1]), "not_json:RaisingList"),
    ("function", print, "not_json:builtin_function_or_method"),
]
IDS = [name for name, _, _ in FOREIGN_EXAMPLES]


@pytest.fixture(params=["memory", "sqlite"])
def saver(request, tmp_path):
    """A real checkpointer: it serializes the state after every step."""
    if request.param == "memory":
        yield InMemorySaver()
        return
    conn = sqlite3.connect(tmp_path / "runs.sqlite", check_same_thread=False)
    try:
        yield SqliteSaver(conn)
    finally:
        conn.close()


def _printable(out: dict[str, Any]) -> None:
    """The result is JSON (the CLI prints it) and the run's checkpoints read back."""
    json.dumps({k: v for k, v in out.items() if k != "__interrupt__"}, default=message_dict)


# ------------------------------------------------------------------ the rule itself


@pytest.mark.parametrize(("name", "value", "problem"), FOREIGN_EXAMPLES, ids=IDS)
def test_json_problem_names_every_foreign_value(name, value, problem):
    assert json_problem(value) == problem
    assert json_problem({"ok": [1, "x", None, {"deep": value}]}) == problem  # wherever it sits


def test_plain_json_passes_and_its_limits_hold():
    assert json_problem({"a": [1, 1.5, "x", True, None, {"b": []}], "c": MAX_INT}) is None
    assert json_problem(shared_references(19)) == "too_large"  # 2**20 - 1 values to store
    assert json_problem(shared_references(10)) is None  # 2**10 is fine
    assert json_problem({"a": MAX_INT + 1}) == "int_out_of_range"


def test_type_name_and_error_text_never_raise():
    class Meta(type):
        @property
        def __name__(cls):  # a metaclass that lies about the name
            raise RuntimeError("no name")

    class Odd(metaclass=Meta):
        pass

    class Unprintable(Exception):
        def __str__(self):
            raise RuntimeError("no text")

    assert type_name(Odd()) == "Odd"
    assert error_text(Unprintable()) == "Unprintable: <message unreadable>"
    assert error_text(ValueError("bad \ud800 text")) == "ValueError: bad ? text"


def test_plain_copy_is_a_copy():
    value = {"a": [1, {"b": 2}]}
    copied = plain_copy(value)
    assert copied == value and copied is not value and copied["a"] is not value["a"]


# ------------------------------------------------------------------ the tool gateway


def returning(value: Any) -> dict[str, Any]:
    """A registry of one tool ``t`` that returns ``value``."""

    def t() -> Any:
        return value

    return tool_registry({"t": t})


@pytest.mark.parametrize(("name", "value", "problem"), FOREIGN_EXAMPLES, ids=IDS)
def test_a_foreign_tool_result_is_a_bad_result(name, value, problem):
    for result in (value, {"data": value}, [1, value]):
        outcome = run_tool(returning(result), "t", {})
        assert not outcome.ok and outcome.reason == "tool_bad_result:t"
        assert outcome.detail == {"problem": problem}


def test_the_tool_runner_never_raises_for_hostile_exceptions_and_checks():
    class Unprintable(Exception):
        def __str__(self):
            raise RuntimeError("no text")

    def boom():
        raise Unprintable

    def odd():
        raise ValueError("bad \udc00 text")

    outcome = run_tool(tool_registry({"t": boom}), "t", {})
    assert outcome.reason == "tool_error:t" and outcome.detail["error_type"] == "Unprintable"
    outcome = run_tool(tool_registry({"t": odd}), "t", {})
    assert outcome.reason == "tool_error:t" and outcome.detail["message"] == "bad ? text"
    assert json_problem(outcome.detail) is None  # the run keeps it: it used to hold a lone surrogate


def test_what_the_run_keeps_is_what_was_checked():
    # a tool that returns its own state and changes it later used to change the recorded history
    shared = {"month": "2026-04", "gross_usd": 28195}

    def kpis(month):
        return shared

    def risks(month):
        shared["gross_usd"] = Opaque()  # after the check: must not reach the run's state
        return task_tools()["detect_risk_signals"](month)

    tools = {**task_tools(), "calculate_monthly_kpis": kpis, "detect_risk_signals": risks}
    graph = task_decomposition.build_graph(llm=RoleModel(), tools=tools, checkpointer=InMemorySaver())
    config = thread()
    graph.invoke({"goal": TASK_GOAL}, config)
    observations = [r["observation"] for r in graph.get_state(config).values["history"] if "observation" in r]
    assert {"month": "2026-04", "gross_usd": 28195} in observations


@pytest.mark.parametrize(("name", "value", "problem"), FOREIGN_EXAMPLES, ids=IDS)
def test_task_decomposition_refuses_a_foreign_tool_result(saver, name, value, problem):
    tools = {**task_tools(), "fetch_sales_data": lambda month: {"month": month, "days": [value]}}
    graph = task_decomposition.build_graph(llm=RoleModel(), tools=tools, checkpointer=saver)
    config = thread()
    out = graph.invoke({"goal": TASK_GOAL}, config)
    assert out["stop_reason"] == "tool_bad_result:fetch_sales_data" and out["phase"] == "execution"
    assert out["details"] == {"problem": problem}
    _printable(out)
    assert graph.get_state(config).values["stop_reason"] == out["stop_reason"]


@pytest.mark.parametrize(("name", "value", "problem"), FOREIGN_EXAMPLES, ids=IDS)
def test_supervisor_refuses_a_foreign_tool_result(saver, name, value, problem):
    desk = BillingDesk()
    tools = {**desk.registry(), "get_refund_context": lambda user_id: {"user": value}}
    graph = supervisor.build_graph(
        llm=scripted(CONTEXT, FINAL), policy=demo_policy(), checkpointer=saver, tools=tools
    )
    config = thread()
    out = graph.invoke({"goal": GOAL, "subject": {"user_id": 42}}, config)
    assert out["stop_reason"] == "tool_bad_result:get_refund_context"
    assert out["details"] == {"problem": problem}
    _printable(out)
    assert graph.get_state(config).values["stop_reason"] == out["stop_reason"]


@pytest.mark.parametrize(("name", "value", "problem"), FOREIGN_EXAMPLES[:6], ids=IDS[:6])
def test_supervisor_observing_tool_errors_shows_the_refusal_not_the_value(saver, name, value, problem):
    # on_tool_error: observe: the worker sees the refusal by name; the value never enters the run
    desk = BillingDesk()
    tools = {**desk.registry(), "get_refund_context": lambda user_id: {"user": value}}
    policy = demo_policy(on_tool_error="observe")
    graph = supervisor.build_graph(
        llm=scripted(CONTEXT, FINAL), policy=policy, checkpointer=saver, tools=tools
    )
    out = graph.invoke({"goal": GOAL, "subject": {"user_id": 42}}, thread())
    assert out["calls"][0]["observation"] == {
        "error": "tool_bad_result:get_refund_context",
        "problem": problem,
    }
    assert out["calls"][0]["ok"] is False
    _printable(out)


def test_a_refund_whose_result_is_refused_ran_once_and_the_run_stops():
    desk = BillingDesk()
    issue = desk.registry()["issue_refund"]

    def refund(**kwargs):
        return {**issue(**kwargs), "when": datetime.datetime(2026, 4, 5)}

    small = {
        "kind": "tool",
        "name": "issue_refund",
        "args": {"user_id": 42, "amount_usd": 100, "reason": "r"},
    }
    tools = {**desk.registry(), "issue_refund": refund}
    graph = supervisor.build_graph(
        llm=scripted(CONTEXT, small, FINAL), policy=demo_policy(), checkpointer=InMemorySaver(), tools=tools
    )
    out = graph.invoke({"goal": GOAL, "subject": {"user_id": 42}}, thread())
    assert out["stop_reason"] == "tool_bad_result:issue_refund"
    assert out["details"] == {"problem": "not_json:datetime"}
    assert [r["amount_usd"] for r in desk.refunds.values()] == [100]


def test_a_model_error_with_text_json_cannot_carry_leaves_a_printable_detail():
    # the detail kept a lone surrogate: stored, but the CLI could not print the result (utf-8)
    graph = rag.build_graph(
        llm=RaisingModel(replies=[ValueError("bad \ud800")]), checkpointer=InMemorySaver()
    )
    out = graph.invoke({"question": "What is the uptime SLA?"}, thread())
    assert out["stop_reason"] == "llm_error:value_error"
    assert out["llm_detail"] == "attempt 1: ValueError: bad ?"
    json.dumps(out, ensure_ascii=False, default=message_dict).encode("utf-8")


# ------------------------------------------------------------------ research and RAG


@pytest.mark.parametrize(("name", "value", "problem"), FOREIGN_EXAMPLES, ids=IDS)
@pytest.mark.parametrize("which", ["search", "read"])
def test_research_refuses_foreign_search_results_and_pages(saver, which, name, value, problem):
    def search(query, limit):
        results = demo_search(query, limit)
        return [{**results[0], "extra": value}, *results[1:]] if which == "search" else results

    def reader(url):
        page = demo_read(url)
        return {**page, "published_at": value} if page and which == "read" else page

    graph = research.build_graph(llm=RoleModel(), search=search, reader=reader, checkpointer=saver)
    out = graph.invoke(research_input(), thread())
    assert out["stop_reason"] == f"tool_invalid_output:{which}"
    assert out["details"]["detail"] == problem
    _printable(out)


class _Retriever(BaseRetriever):
    docs: Any

    def _get_relevant_documents(self, query, *, run_manager):
        return self.docs


def _doc(**metadata):
    meta = {"id": "kb_1", "source": "support_policy", "title": "SLA", "score": 0.9, **metadata}
    return Document(page_content="Enterprise uptime SLA is 99.95%.", metadata=meta)


@pytest.mark.parametrize(("name", "value", "problem"), FOREIGN_EXAMPLES, ids=IDS)
def test_rag_refuses_foreign_metadata_it_keeps(saver, name, value, problem):
    graph = rag.build_graph(
        llm=RoleModel(), retriever=_Retriever(docs=[_doc(updated_at=value)]), checkpointer=saver
    )
    out = graph.invoke({"question": "What is the uptime SLA?"}, thread())
    assert out["stop_reason"] == "tool_invalid_output:retriever"
    assert out["details"] == {"problem": f"document_0:metadata:{problem}"}
    _printable(out)


@pytest.mark.parametrize(
    ("docs", "problem"),
    [
        ((_doc(),), "not_list:tuple"),
        ([_doc(), {"page_content": "x"}], "document_1:not_document:dict"),
        (
            [Document.model_construct(page_content=b"x", metadata={"id": "kb_1"})],
            "document_0:text:not_json:bytes",
        ),
        ([Document.model_construct(page_content=7, metadata={"id": "kb_1"})], "document_0:text:not_str"),
        (
            [Document.model_construct(page_content="x", metadata=LyingDict(id="kb"))],
            "document_0:metadata:not_json:LyingDict",
        ),
    ],
    ids=["tuple", "not_a_document", "bytes_text", "int_text", "lying_metadata"],
)
def test_rag_refuses_a_retriever_answer_it_cannot_keep(docs, problem):
    graph = rag.build_graph(llm=RoleModel(), retriever=_Retriever(docs=docs), checkpointer=InMemorySaver())
    out = graph.invoke({"question": "What is the uptime SLA?"}, thread())
    assert out["stop_reason"] == "tool_invalid_output:retriever"
    assert out["details"] == {"problem": problem}


def test_rag_keeps_a_document_whose_other_metadata_is_foreign():
    # metadata the gateway neither keeps nor reads is not checked: a vector store's own fields
    doc = _doc(embedding=(0.1, 0.2), created=datetime.datetime(2026, 1, 15), updated_at=20260115)
    graph = rag.build_graph(llm=RoleModel(), retriever=_Retriever(docs=[doc]), checkpointer=InMemorySaver())
    out = graph.invoke({"question": "What is the uptime SLA?"}, thread())
    assert out["status"] == "ok" and out["citation_details"][0]["updated_at"] == "20260115"


def test_rag_refuses_a_document_whose_attributes_raise():
    class Haunted(Document):
        def __getattribute__(self, name):
            if name == "metadata":
                raise RuntimeError("haunted")
            return super().__getattribute__(name)

    doc = Haunted(page_content="x")
    graph = rag.build_graph(llm=RoleModel(), retriever=_Retriever(docs=[doc]), checkpointer=InMemorySaver())
    out = graph.invoke({"question": "What is the uptime SLA?"}, thread())
    assert out["stop_reason"] == "tool_invalid_output:retriever"
    assert out["details"] == {"problem": "unreadable_document:RuntimeError: haunted"}


# ------------------------------------------------------------------ human answers


@pytest.mark.parametrize(
    "answer",
    [
        {"type": "edit", "answer": datetime.date(2026, 4, 5)},
        {"type": "approve", "note": {1, 2}},
        {"type": "approve", "at": datetime.datetime(2026, 4, 5)},
        ("approve",),
        b"approve",
    ],
    ids=["edit_date", "set", "datetime", "tuple", "bytes"],
)
def test_a_human_answer_json_cannot_represent_is_invalid(answer):
    # LangGraph can store these (msgpack) and hands them to the node, which must refuse them
    policy = ReflectionPolicy(human_review_on_escalate=True)
    escalate = {"decision": "escalate", "issues": [], "fix_plan": [], "reason": "Legal must review."}
    draft = {"draft": "Payments in US are degraded. We will share updates."}
    graph = reflection.build_graph(llm=scripted(draft, escalate), policy=policy, checkpointer=InMemorySaver())
    config = thread()
    assert "__interrupt__" in graph.invoke(reflection_input(), config)
    out = graph.invoke(Command(resume=answer), config)
    assert out["stop_reason"] == "invalid_human_answer"
    _printable(out)


# ------------------------------------------------------------------ properties over the class


@st.composite
def spoilt(draw):
    """A JSON value with one foreign value put somewhere in it."""
    return draw(tainter())(draw(JSON_VALUES))


@settings(max_examples=150)  # CI time: 400 took 33 s; the strategies' every branch is drawn well before 150
@given(value=st.one_of(FOREIGN, spoilt()))
def test_any_foreign_value_is_named_and_refused_by_the_gateway(value):
    problem = json_problem(value)
    assert problem is not None and json_problem(problem) is None
    assert check_result("t", value).reason == "tool_bad_result:t"
    outcome = run_tool(returning(value), "t", {})
    assert not outcome.ok and outcome.reason == "tool_bad_result:t" and json_problem(outcome.detail) is None


@settings(max_examples=400)
@given(value=JSON_VALUES)
def test_json_problem_agrees_with_a_json_round_trip(value):
    """Plain data passes exactly when it survives JSON unchanged (within the storable limits)."""
    problem = json_problem(value)
    if problem is None:
        assert json.loads(json.dumps(value, allow_nan=False)) == value
    else:
        assert problem in ("int_out_of_range", "non_finite_number", "invalid_unicode")


SQLITE_SAVER = SqliteSaver(sqlite3.connect(":memory:", check_same_thread=False))
TAINT: dict[str, Any] = {}  # tool name → the function spoiling its result, for the current example


def _spoilable(name: str) -> Any:
    real = task_tools()[name]

    def call(**kwargs: Any) -> Any:
        result = real(**kwargs)
        return TAINT[name](result) if name in TAINT else result

    return call


TD_GRAPH = task_decomposition.build_graph(
    llm=RoleModel(), tools={name: _spoilable(name) for name in task_tools()}, checkpointer=SQLITE_SAVER
)


@settings(max_examples=60)  # CI time: each example is a whole checkpointed run (150 took 21 s)
@given(tool=st.sampled_from(sorted(task_tools())), taint=tainter())
def test_any_foreign_tool_result_stops_a_sqlite_checkpointed_run_by_name(tool, taint):
    TAINT.clear()
    TAINT[tool] = taint
    config = thread()
    out = TD_GRAPH.invoke({"goal": TASK_GOAL}, config)
    assert out["stop_reason"] == f"tool_bad_result:{tool}"
    _printable(out)
    assert TD_GRAPH.get_state(config).values["stop_reason"] == out["stop_reason"]
