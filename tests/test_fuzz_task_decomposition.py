"""Fuzzing the Task Decomposition gateway: generated plans and summaries fed through the real
compiled graph against instrumented sales tools, some of which return values JSON cannot represent
(objects of the caller's own class, sets, bytes, datetimes, hostile objects...)."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st
from langgraph.checkpoint.memory import InMemorySaver

from demo_tools.task_decomposition import GOAL, demo_tools
from graphs.task_decomposition import build_graph
from policies.grounding import ungrounded_numbers
from policies.task_decomposition import DEMO_TOOLS, TaskDecompositionPolicy
from policies.tools import call_signature
from tests.figures import FIGURES
from tests.fuzz import (
    JSON_VALUES,
    NUMBER_TEXT,
    SchemaCheckedTools,
    check_run,
    script,
    tainter,
    without_backoff,
)
from tests.helpers import RoleModel

POLICY = TaskDecompositionPolicy()
TOOL_NAMES = st.sampled_from([*DEMO_TOOLS, *DEMO_TOOLS, "delete_reports", "fetch_sales_data "])
MONTHS = st.sampled_from(["2026-04", "2026-04", "2026-05", "April 2026", 202604, ""])
ARGS = st.one_of(
    st.fixed_dictionaries({"month": MONTHS}),
    st.fixed_dictionaries({"manager_id": st.sampled_from([42, 7, 0, "42", 2**40])}),
    JSON_VALUES,
)
GOOD_STEPS = st.one_of(
    st.fixed_dictionaries(
        {
            "tool": st.just("get_manager_profile"),
            "args": st.fixed_dictionaries({"manager_id": st.sampled_from([42, 42, 7, 99])}),
        }
    ),
    st.fixed_dictionaries(
        {
            "tool": st.sampled_from(DEMO_TOOLS[1:]),
            "args": st.fixed_dictionaries(
                {"month": st.sampled_from(["2026-04", "2026-04", "2026-04", "2026-05"])}
            ),
        }
    ),
)
ODD_STEPS = st.fixed_dictionaries({"tool": TOOL_NAMES, "args": ARGS})
STEPS = st.one_of(GOOD_STEPS, GOOD_STEPS, GOOD_STEPS, ODD_STEPS)


@st.composite
def plans(draw):
    steps = draw(st.lists(STEPS, min_size=2, max_size=9))
    ids = [f"s{i}" for i in range(1, len(steps) + 1)]
    if draw(st.integers(0, 9)) == 0:
        ids[-1] = ids[0]  # a duplicate id now and then
    titles = draw(st.lists(st.sampled_from(["Fetch"] * 9 + [""]), min_size=len(steps), max_size=len(steps)))
    kind = draw(st.sampled_from(["plan"] * 9 + ["tool"]))
    return {
        "kind": kind,
        "steps": [{"id": i, "title": t, **step} for i, t, step in zip(ids, titles, steps, strict=True)],
    }


PLANS = plans()
FIGURES_IN_DATA = ["28195", "$28,195", "1,370", "26825", "4.86%", "0.0486", "590", "2026-04-04", "650", "5"]
SUMMARIES = st.fixed_dictionaries(
    {
        "answer": st.lists(
            st.one_of(
                st.sampled_from(FIGURES_IN_DATA),
                st.sampled_from(["Anna", "April 2026", "gross", "refund rate"]),
                NUMBER_TEXT,
            ),
            min_size=1,
            max_size=8,
        ).map(" ".join)
    }
)
ROLES = {"task_decomposition.plan": PLANS, "task_decomposition.combine": SUMMARIES}
POLICIES = st.builds(
    lambda execution, calls: TaskDecompositionPolicy(execution_allowed_tools=execution, max_tool_calls=calls),
    st.sampled_from([None, None, list(DEMO_TOOLS[:3]), ["fetch_sales_data", "delete_reports"]]),
    st.sampled_from([8, 8, 3]),
)

#: Most runs get the tools' own results; one in four has one or two tools returning foreign values.
TAINTS = st.one_of(
    st.just({}),
    st.just({}),
    st.just({}),
    st.dictionaries(st.sampled_from(DEMO_TOOLS), tainter(), min_size=1, max_size=2),
)

TOOLS = SchemaCheckedTools(POLICY.tools, demo_tools)
SAVER = InMemorySaver()
MODEL = RoleModel()
GRAPH = build_graph(llm=MODEL, policy=POLICY, checkpointer=SAVER, tools=TOOLS.registry())


@without_backoff()
@given(replies=script(ROLES), policy=POLICIES, taint=TAINTS)
def test_task_decomposition_gateway_holds_for_any_plan(replies, policy, taint):
    MODEL.load(replies)
    TOOLS.reset(taint)
    config = {"configurable": {"thread_id": str(uuid.uuid4())}}
    values = GRAPH.invoke({"goal": GOAL}, config, context=policy)
    result = check_run("task_decomposition", GRAPH, GRAPH.get_state(config).values, values)
    SAVER.delete_thread(config["configurable"]["thread_id"])
    assert not TOOLS.violations, TOOLS.violations
    executed = [name for name, _ in TOOLS.executions]
    allowed = policy.execution_allowed_tools or policy.allowed_tools
    assert all(name in allowed and name in policy.allowed_tools for name in executed), executed
    assert len(executed) <= policy.max_tool_calls
    signatures = [call_signature(name, args) for name, args in TOOLS.executions]
    assert len(signatures) == len(set(signatures)), "the same call ran twice"
    FIGURES.count("fuzz:task_decomposition", "tool_executions", len(executed))
    if TOOLS.tainted:  # the first foreign result stops the run, by name, before anything else runs
        tool = TOOLS.tainted[0][0]
        assert result["stop_reason"] == f"tool_bad_result:{tool}", result["stop_reason"]
        assert len(TOOLS.tainted) == 1 and executed[-1] == tool
        FIGURES.count("fuzz:task_decomposition", "foreign_results_refused")
    if result["status"] == "ok":
        answer = result["answer"]
        assert answer.strip() and len(answer) <= policy.max_answer_chars
        assert not ungrounded_numbers(answer, TOOLS.results), (answer, TOOLS.results)
        assert not any(isinstance(r, dict) and "error" in r for r in TOOLS.results)
