"""Runaway models: a worker that never finishes, one that repeats the same call, one that alternates
between two calls, one that sleeps. Each run stops within its budget, by the budget's or the loop
detector's name, overshooting by at most one step (a proposal the gateway refuses), and never with
LangGraph's ``GraphRecursionError`` — also when the caller passes a small ``recursion_limit``."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from demo_tools.rag import demo_retriever
from demo_tools.reflection import demo_input as reflection_input
from demo_tools.research import demo_input as research_input
from demo_tools.research import demo_read
from demo_tools.supervisor import GOAL, BillingDesk
from demo_tools.task_decomposition import GOAL as TASK_GOAL
from demo_tools.task_decomposition import demo_tools as task_tools
from graphs import rag, reflection, research, supervisor, task_decomposition
from policies.catalog import is_known_stop_reason
from policies.rag import RagPolicy
from policies.reflection import ReflectionPolicy
from policies.research import ResearchPolicy
from policies.supervisor import demo_policy
from policies.task_decomposition import TaskDecompositionPolicy
from tests.figures import FIGURES
from tests.helpers import FakeClock, RoleModel, scripted, thread

WORKER = "supervisor.worker"
WIDE = {"get_refund_context": 100, "issue_refund": 100, "send_refund_email": 100}


def context(user_id: int = 42) -> dict[str, Any]:
    return {"kind": "tool", "name": "get_refund_context", "args": {"user_id": user_id}}


def refund(amount: float) -> dict[str, Any]:
    args = {"user_id": 42, "amount_usd": amount, "reason": "duplicate charge"}
    return {"kind": "tool", "name": "issue_refund", "args": args}


EMAIL = {
    "kind": "tool",
    "name": "send_refund_email",
    "args": {"user_id": 42, "amount_usd": 100, "message": "Refunded."},
}


def never_finishes(payload: dict[str, Any]) -> dict[str, Any]:
    """Always another step, never the same call twice."""
    return context(1000 + int(payload["step"]))


def cycle(*actions: dict[str, Any]):
    """Replies that go round ``actions`` for ever."""
    it = itertools.cycle(actions)
    return lambda payload: next(it)


def run_supervisor(reply, policy=None, config=None, desk=None):
    desk = desk or BillingDesk()
    model = RoleModel(fallback="repeat").load({WORKER: [reply]})
    policy = policy or demo_policy()
    # runaway workers call for many users: no subject binding (the goal's user_id=42 would refuse them)
    policy = policy.model_copy(
        update={"rules": {n: r.model_copy(update={"bound_args": []}) for n, r in policy.rules.items()}}
    )
    graph = supervisor.build_graph(
        llm=model, policy=policy, checkpointer=InMemorySaver(), tools=desk.registry()
    )
    out = graph.invoke({"goal": GOAL}, {**thread(), **(config or {})})
    return out, model.calls.count(WORKER), desk


def record(pattern: str, scenario: str, out: dict, **figures: Any) -> None:
    shown = " ".join(f"{k}={v}" for k, v in figures.items())
    FIGURES.set(f"runaway:{pattern}", scenario, f"{out['stop_reason']} ({shown})".replace(" ()", ""))
    assert is_known_stop_reason(pattern, out["stop_reason"])


# --------------------------------------------------------------------------- supervisor


@pytest.mark.parametrize(
    ("scenario", "policy", "reason", "budget"),
    [
        ("per_tool_limit", demo_policy(), "loop_detected:per_tool_limit", 3),
        (
            "max_tool_calls",
            demo_policy(per_tool_limits=WIDE, max_tool_calls=5, max_steps=50),
            "max_tool_calls",
            5,
        ),
        (
            "max_steps",
            demo_policy(per_tool_limits=WIDE, max_tool_calls=100, max_steps=8),
            "max_steps",
            8,
        ),
    ],
)
def test_supervisor_worker_that_never_finishes(scenario, policy, reason, budget):
    out, proposals, _ = run_supervisor(never_finishes, policy)
    executed = len(out["calls"])
    assert out["status"] == "stopped" and out["stop_reason"] == reason
    assert executed == budget
    # the refused proposal is the one step over; max_steps refuses before asking the model
    assert proposals == budget + (reason != "max_steps")
    record(
        "supervisor", f"never_finishes/{scenario}", out, executed=executed, budget=budget, proposals=proposals
    )


def test_supervisor_worker_that_repeats_the_same_call():
    out, proposals, _ = run_supervisor(context(42))
    assert out["stop_reason"] == "loop_detected:signature_repeat"
    assert len(out["calls"]) == 2 and proposals == 3  # two identical context reads are allowed
    record("supervisor", "repeats_same_call", out, executed=2, proposals=proposals)


def test_supervisor_worker_that_repeats_a_refund_refunds_once():
    out, proposals, desk = run_supervisor(cycle(context(42), refund(100), refund(100)))
    assert out["stop_reason"] == "loop_detected:signature_repeat"
    assert [r["amount_usd"] for r in desk.refunds.values()] == [100] and desk.duplicate_calls == 0
    record("supervisor", "repeats_refund", out, refunds=len(desk.refunds), proposals=proposals)


@pytest.mark.parametrize(
    ("scenario", "actions", "policy", "reason", "executed"),
    [
        ("reads", (context(42), context(7)), demo_policy(), "loop_detected:per_tool_limit", 3),
        (
            "reads_wide",
            (context(42), context(7)),
            demo_policy(per_tool_limits=WIDE),
            "loop_detected:signature_repeat",
            4,
        ),
        (
            "side_effects",
            (context(42), refund(100), EMAIL),
            demo_policy(),
            "loop_detected:signature_repeat",
            4,
        ),
    ],
)
def test_supervisor_worker_that_alternates(scenario, actions, policy, reason, executed):
    out, proposals, desk = run_supervisor(cycle(*actions), policy)
    assert out["stop_reason"] == reason and len(out["calls"]) == executed
    assert proposals == executed + 1
    assert len(desk.refunds) <= 1 and len(desk.emails) <= 1 and desk.duplicate_calls == 0
    record("supervisor", f"alternates/{scenario}", out, executed=executed, proposals=proposals)


def test_supervisor_worker_that_sleeps_on_a_fake_clock(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr("nodes.clock.now", clock)

    def slow(payload):
        clock.advance(10)  # each proposal takes 10 of the run's 30 seconds
        return never_finishes(payload)

    out, proposals, _ = run_supervisor(slow, demo_policy(per_tool_limits=WIDE))
    assert out["stop_reason"] == "max_seconds"
    assert proposals == 3 and len(out["calls"]) <= 3
    record("supervisor", "sleeps/fake_clock", out, proposals=proposals, budget="30s")


def test_supervisor_worker_that_sleeps_for_real():
    model = scripted(context(42), sleep=2)
    graph = supervisor.build_graph(llm=model, policy=demo_policy(max_seconds=0.3))
    out = graph.invoke({"goal": GOAL}, thread())
    assert out["stop_reason"] == "max_seconds"
    assert out["trace"][-1]["elapsed_ms"] < 1500  # cut at the budget, not after the model's 2 s
    record("supervisor", "sleeps/real", out, stopped_after_ms=out["trace"][-1]["elapsed_ms"], budget="300ms")


def test_supervisor_recursion_limit_is_a_named_stop():
    """LangChain's old default of 25 supersteps, a worker that never finishes and budgets that
    would allow more: the run stops by name, not with GraphRecursionError."""
    policy = demo_policy(per_tool_limits=WIDE, max_tool_calls=100, max_steps=100)
    out, proposals, _ = run_supervisor(never_finishes, policy, config={"recursion_limit": 25})
    assert out["stop_reason"] == "recursion_limit"
    assert out["trace"][-1]["recursion_limit"] == 25
    record("supervisor", "recursion_limit_25", out, proposals=proposals)


@pytest.mark.parametrize("auto", [True, False])
def test_supervisor_any_recursion_limit_ends_by_name(auto):
    """Every limit from 2 to 80 (with 1 LangGraph cannot end any run: see nodes/steps.py), on the longest rounds the supervisor has (revision, escalation,
    approval): never a GraphRecursionError."""
    seen = set()
    for limit in range(2, 81):
        policy = demo_policy(
            per_tool_limits=WIDE, max_tool_calls=100, max_steps=100, auto_approver_enabled=auto
        )
        worker = cycle(
            context(42), {"kind": "tool", "name": "issue_refund", "args": {"user_id": 42, "amount_usd": 1100}}
        )
        out, _, _ = run_supervisor(worker, policy, config={"recursion_limit": limit})
        if "__interrupt__" not in out:
            assert out["status"] == "stopped" and is_known_stop_reason("supervisor", out["stop_reason"])
            seen.add(out["stop_reason"])
    assert "recursion_limit" in seen
    FIGURES.set(
        "runaway:supervisor", f"recursion_limits_2_to_80/auto_approver={auto}", ",".join(sorted(seen))
    )


# --------------------------------------------------------------------------- task decomposition


def plan(*steps: tuple[str, dict]) -> dict[str, Any]:
    return {
        "kind": "plan",
        "steps": [
            {"id": f"s{i}", "title": "Step", "tool": t, "args": a} for i, (t, a) in enumerate(steps, 1)
        ],
    }


APRIL = {"month": "2026-04"}
SALES, REFUNDS, KPIS = (
    ("fetch_sales_data", APRIL),
    ("fetch_refund_data", APRIL),
    ("calculate_monthly_kpis", APRIL),
)
MAY = {"month": "2026-05"}


def _counted(fn, name, calls):
    def call(**kwargs):
        calls.append(name)
        return fn(**kwargs)

    return call


def run_tasks(reply, policy=None, tools=None, config=None):
    calls: list[str] = []
    registry = {name: _counted(fn, name, calls) for name, fn in (tools or task_tools()).items()}
    model = RoleModel().load({"task_decomposition.plan": [reply]})
    graph = task_decomposition.build_graph(
        llm=model, policy=policy or TaskDecompositionPolicy(), checkpointer=InMemorySaver(), tools=registry
    )
    return graph.invoke({"goal": TASK_GOAL}, {**thread(), **(config or {})}), calls


def test_task_plan_that_never_finishes():
    policy = TaskDecompositionPolicy(max_plan_steps=20, max_execute_steps=8)
    long_plan = plan(*[("fetch_sales_data", {"month": f"2026-{m:02d}"}) for m in range(1, 13)])
    out, calls = run_tasks(long_plan, policy)
    assert out["stop_reason"] == "max_execute_steps" and calls == []
    record("task_decomposition", "never_finishes/max_execute_steps", out, executed=0, planned=12, budget=8)
    out, calls = run_tasks(
        plan(("get_manager_profile", {"manager_id": 42}), SALES, REFUNDS, KPIS),
        TaskDecompositionPolicy(max_tool_calls=3),
    )
    assert out["stop_reason"] == "max_tool_calls" and len(calls) == 3
    record("task_decomposition", "never_finishes/max_tool_calls", out, executed=3, budget=3)


def test_task_plan_that_repeats_or_alternates():
    out, calls = run_tasks(plan(SALES, SALES, SALES))
    assert out["stop_reason"] == "loop_detected" and calls == ["fetch_sales_data"]
    record("task_decomposition", "repeats_same_call", out, executed=1)
    out, calls = run_tasks(plan(SALES, REFUNDS, SALES, REFUNDS))
    assert out["stop_reason"] == "loop_detected" and calls == ["fetch_sales_data", "fetch_refund_data"]
    record("task_decomposition", "alternates", out, executed=2)


def test_task_tool_that_sleeps_on_a_fake_clock(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr("nodes.clock.now", clock)
    tools = task_tools()

    def slowly(fn):
        def call(**kwargs):
            clock.advance(25)  # 25 of the run's 60 s
            return fn(**kwargs)

        return call

    slow = {name: slowly(fn) for name, fn in tools.items()}
    out, calls = run_tasks(plan(SALES, REFUNDS, KPIS, ("detect_risk_signals", APRIL)), tools=slow)
    assert out["stop_reason"] == "max_seconds" and len(calls) == 3
    record("task_decomposition", "sleeps/fake_clock_tool", out, executed=3, budget="60s")


def test_task_planner_that_sleeps_for_real():
    graph = task_decomposition.build_graph(
        llm=scripted(plan(SALES), sleep=2), policy=TaskDecompositionPolicy(max_seconds=0.3)
    )
    out = graph.invoke({"goal": TASK_GOAL}, thread())
    assert out["stop_reason"] == "max_seconds" and out["trace"][-1]["elapsed_ms"] < 1500
    record("task_decomposition", "sleeps/real", out, stopped_after_ms=out["trace"][-1]["elapsed_ms"])


def test_task_any_recursion_limit_ends_by_name():
    seen = set()
    steps = plan(
        ("get_manager_profile", {"manager_id": 42}), SALES, REFUNDS, KPIS, ("detect_risk_signals", APRIL)
    )
    for limit in range(2, 16):
        out, _ = run_tasks(steps, config={"recursion_limit": limit})
        assert is_known_stop_reason("task_decomposition", out["stop_reason"])
        seen.add(out["stop_reason"])
    assert {"recursion_limit", "success"} <= seen
    FIGURES.set("runaway:task_decomposition", "recursion_limits_2_to_15", ",".join(sorted(seen)))


# --------------------------------------------------------------------------- linear patterns


def test_reflection_reviewer_that_always_asks_for_a_revision_revises_once():
    revise = {
        "decision": "revise",
        "issues": [{"type": "overconfidence", "note": "ETA as a promise."}],
        "fix_plan": [
            "Replace 'We expect full recovery within 45 minutes.' with 'Recovery is estimated at 45 minutes.'"
        ],
        "reason": "hedge",
    }
    model = RoleModel(fallback="repeat").load({"reflection.review": [revise]})
    out = reflection.build_graph(llm=model, checkpointer=InMemorySaver()).invoke(reflection_input(), thread())
    assert out["status"] == "ok" and out["outcome"] == "revised_once"
    assert model.calls.count("reflection.review") == 1 and model.calls.count("reflection.revise") == 1
    record("reflection", "always_revise", out, reviews=1, revisions=1)


def test_research_reader_that_sleeps_on_a_fake_clock(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr("nodes.clock.now", clock)

    def slow_read(url):
        clock.advance(15)  # the run has 25 s: the second page is not read
        return demo_read(url)

    graph = research.build_graph(llm=RoleModel(), reader=slow_read, checkpointer=InMemorySaver())
    out = graph.invoke(research_input(), thread())
    assert out["stop_reason"] == "max_seconds" and out["phase"] == "read_extract"
    [read] = [h for h in out["history"] if h["phase"] == "read"]
    assert len(read["urls"]) == 2  # both pages read at 0 s and 15 s; the notes are never asked for
    record("research", "sleeps/fake_clock_reader", out, pages_read=len(read["urls"]), budget="25s")


LINEAR = [
    ("reflection", reflection.build_graph, reflection_input, ReflectionPolicy),
    ("research", research.build_graph, research_input, ResearchPolicy),
    ("rag", rag.build_graph, lambda: {"question": "What is the P1 response target?"}, RagPolicy),
]


@pytest.mark.parametrize(("pattern", "build", "inputs", "policy"), LINEAR)
def test_linear_patterns_model_that_sleeps_for_real(pattern, build, inputs, policy):
    graph = build(llm=scripted({"never": "used"}, sleep=2))
    out = graph.invoke(inputs(), thread(), context=policy(max_seconds=0.3))
    assert out["stop_reason"] == "max_seconds" and out["trace"][-1]["elapsed_ms"] < 1500
    record(pattern, "sleeps/real", out, stopped_after_ms=out["trace"][-1]["elapsed_ms"], budget="300ms")


@pytest.mark.parametrize(("pattern", "build", "inputs", "policy"), LINEAR)
def test_linear_patterns_any_recursion_limit_ends_by_name(pattern, build, inputs, policy):
    seen = set()
    graph = build(llm=RoleModel(), checkpointer=InMemorySaver())
    for limit in range(2, 16):
        out = graph.invoke(inputs(), {**thread(), "recursion_limit": limit})
        assert is_known_stop_reason(pattern, out["stop_reason"])
        seen.add(out["stop_reason"])
    assert {"recursion_limit", "success"} <= seen
    FIGURES.set(f"runaway:{pattern}", "recursion_limits_2_to_15", ",".join(sorted(seen)))


def test_rag_retriever_that_sleeps_on_a_fake_clock(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr("nodes.clock.now", clock)
    retriever = demo_retriever()
    original = type(retriever)._get_relevant_documents

    def slow(self, query, **kwargs):
        clock.advance(25)  # the run has 20 s: no answer is asked for
        return original(self, query, **kwargs)

    monkeypatch.setattr(type(retriever), "_get_relevant_documents", slow)
    model = RoleModel()
    out = rag.build_graph(llm=model, retriever=retriever).invoke({"question": "What is the SLA?"}, thread())
    assert out["stop_reason"] == "max_seconds" and "rag.answer" not in model.calls
    record("rag", "sleeps/fake_clock_retriever", out, budget="20s")
