"""Task Decomposition graph runs: the demo report, invalid plans, gateway stops, grounding."""

from __future__ import annotations

import json

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from apps.cli.main import EXIT_OK, main
from demo_tools.task_decomposition import GOAL, demo_tools
from graphs.task_decomposition import build_graph
from nodes.offline import OfflineChatModel
from policies.task_decomposition import TaskDecompositionPolicy
from tests.helpers import RaisingModel, scripted, thread

MONTH = {"month": "2026-04"}
DEMO_PLAN = {
    "kind": "plan",
    "steps": [
        {"id": "profile", "title": "Profile", "tool": "get_manager_profile", "args": {"manager_id": 42}},
        {"id": "kpis", "title": "KPIs", "tool": "calculate_monthly_kpis", "args": MONTH},
        {"id": "risks", "title": "Risks", "tool": "detect_risk_signals", "args": MONTH},
    ],
}
SUMMARY = {
    "answer": "Anna, April 2026: gross $28,195, refunds $1,370, net $26,825, refund rate 4.86%. "
    "Risk: refund spike on 2026-04-04 (590 USD)."
}


def plan_with(*steps):
    return {
        "kind": "plan",
        "steps": [{"id": f"s{i}", "title": f"Step {i}", **s} for i, s in enumerate(steps, 1)],
    }


def run(*replies, policy=None, tools=None, llm=None, checkpointer=None):
    graph = build_graph(
        llm=llm or scripted(*replies),
        policy=policy or TaskDecompositionPolicy(),
        checkpointer=checkpointer or InMemorySaver(),
        tools=tools,
    )
    config = thread()
    return graph.invoke({"goal": GOAL}, config), graph, config


def test_offline_demo_report_has_the_april_figures():
    out, graph, config = run(llm=OfflineChatModel())
    assert out["status"] == "ok" and out["stop_reason"] == "success"
    assert out["model"] == "offline:deterministic-v1"
    assert [s["tool"] for s in out["plan"]] == [
        "get_manager_profile",
        "fetch_sales_data",
        "fetch_refund_data",
        "calculate_monthly_kpis",
        "detect_risk_signals",
    ]
    kpis = next(h["observation"] for h in out["history"] if h.get("plan_step", {}).get("id") == "kpis")
    assert kpis == {
        "month": "2026-04",
        "currency": "USD",
        "gross_sales_usd": 28195,
        "refunds_usd": 1370,
        "net_sales_usd": 26825,
        "orders": 650,
        "refund_rate": 0.0486,
        "top_sales_day": "2026-04-05",
    }
    risks = next(h["observation"] for h in out["history"] if h.get("plan_step", {}).get("id") == "risks")
    assert risks["signals"][0]["day"] == "2026-04-04" and risks["signals"][0]["refund_usd"] == 590
    for figure in (
        "Anna",
        "April 2026",
        "$28,195",
        "$1,370",
        "$26,825",
        "650",
        "4.86%",
        "2026-04-05",
        "2026-04-04",
        "$590",
    ):
        assert figure in out["answer"]
    rows = [r for r in out["trace"] if r["phase"] == "execution"]
    assert [r["step_no"] for r in rows] == [1, 2, 3, 4, 5]
    assert {"step_id", "tool", "args_hash", "ok"} <= set(rows[0])
    # each executed step is its own checkpoint
    executed = [s for s in graph.get_state_history(config) if s.next == ("execute_step",)]
    assert len(executed) == 5


def test_scripted_plan_and_summary():
    out, *_ = run(DEMO_PLAN, SUMMARY)
    assert out["status"] == "ok"
    assert out["answer"] == SUMMARY["answer"]
    assert len(out["history"]) == 5  # plan, three steps, finalize


def test_risk_note_without_spike():
    from demo_tools import task_decomposition as demo

    assert demo.detect_risk_signals("2026-04")["summary"] == "refund spike on 2026-04-04"
    assert demo.detect_risk_signals("2026-05") == {"error": "risk_data_not_available_for_month:2026-05"}
    assert demo.get_manager_profile(1) == {"error": "manager_not_found:1"}


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("here is my plan: fetch things", "invalid_plan:non_json"),
        ([1, 2, 3], "invalid_plan:not_object"),
        ({"kind": "answer"}, "invalid_plan:bad_kind"),
        ({"kind": "plan"}, "invalid_plan:missing_steps"),
        (plan_with({"tool": "fetch_sales_data", "args": MONTH}), "invalid_plan:min_steps"),
        (
            plan_with(*[{"tool": "fetch_sales_data", "args": MONTH}] * 2, {"tool": "send_email", "args": {}}),
            "invalid_plan:tool_not_allowed:send_email",
        ),
        ("", "llm_empty"),
    ],
)
def test_invalid_plans_stop_with_the_raw_plan(reply, reason):
    out, *_ = run(reply)
    assert out["status"] == "stopped"
    assert out["stop_reason"] == reason
    assert out["phase"] == "plan"
    if reason.startswith("invalid_plan"):
        assert "raw_plan" in out


@pytest.mark.usefixtures("instant_backoff")
def test_planner_timeout():
    policy = TaskDecompositionPolicy(llm_timeout_seconds=0.1)
    out, *_ = run(llm=RaisingModel(replies=[(0.5, DEMO_PLAN)]), policy=policy)
    assert (out["stop_reason"], out["phase"]) == ("llm_timeout", "plan")


@pytest.mark.usefixtures("instant_backoff")
def test_combine_timeout_and_empty():
    policy = TaskDecompositionPolicy(llm_timeout_seconds=0.2)
    out, *_ = run(llm=RaisingModel(replies=[DEMO_PLAN, (0.5, SUMMARY)]), policy=policy)
    assert (out["stop_reason"], out["phase"]) == ("llm_timeout", "finalize")
    out, *_ = run(DEMO_PLAN, {"answer": "  "})
    assert (out["stop_reason"], out["phase"]) == ("llm_empty", "finalize")


def test_ungrounded_summary_is_refused():
    out, *_ = run(DEMO_PLAN, {"answer": "Anna, April 2026: gross $31,000 and refund rate 4.86%."})
    assert out["stop_reason"] == "invalid_answer:ungrounded_numbers"
    assert out["details"]["ungrounded_numbers"] == ["31,000"]
    assert out.get("answer") is None
    assert out["rejected_answer"].startswith("Anna")


def test_tool_error_entry_stops_with_tool_failed():
    bad_month = plan_with(
        {"tool": "get_manager_profile", "args": {"manager_id": 42}},
        {"tool": "fetch_sales_data", "args": {"month": "2026-13"}},
        {"tool": "calculate_monthly_kpis", "args": {"month": "2026-13"}},
    )
    out, *_ = run(bad_month, SUMMARY)
    assert out["stop_reason"] == "tool_failed:fetch_sales_data"
    assert out["observation"] == {"error": "sales_not_found_for_month:2026-13"}
    assert out["failed_step"]["id"] == "s2"
    assert out["trace"][-1]["step_no"] == 2 and out["trace"][-1]["ok"] is False
    unknown_manager = plan_with(
        {"tool": "get_manager_profile", "args": {"manager_id": 9}},
        {"tool": "fetch_sales_data", "args": MONTH},
        {"tool": "fetch_refund_data", "args": MONTH},
    )
    out, *_ = run(unknown_manager, SUMMARY)
    assert out["stop_reason"] == "tool_failed:get_manager_profile"


def test_loop_detected_on_the_same_call():
    repeat = plan_with(
        {"tool": "fetch_sales_data", "args": {"month": "2026-04"}},
        {"tool": "fetch_refund_data", "args": MONTH},
        {"tool": "fetch_sales_data", "args": {"month": " 2026-04 "}},
    )
    out, *_ = run(repeat, SUMMARY)
    assert out["stop_reason"] == "loop_detected"
    assert out["failed_step"]["id"] == "s3"


def test_execution_gateway_stops():
    policy = TaskDecompositionPolicy(
        execution_allowed_tools=["get_manager_profile", "calculate_monthly_kpis"]
    )
    out, *_ = run(DEMO_PLAN, SUMMARY, policy=policy)
    assert out["stop_reason"] == "tool_denied:detect_risk_signals"

    tools = {k: v for k, v in demo_tools().items() if k != "detect_risk_signals"}
    out, *_ = run(DEMO_PLAN, SUMMARY, tools=tools)
    assert out["stop_reason"] == "tool_missing:detect_risk_signals"

    def broken(month):
        raise TimeoutError("warehouse down")

    out, *_ = run(DEMO_PLAN, SUMMARY, tools={**demo_tools(), "calculate_monthly_kpis": broken})
    assert out["stop_reason"] == "tool_error:calculate_monthly_kpis"
    out, *_ = run(
        DEMO_PLAN, SUMMARY, tools={**demo_tools(), "calculate_monthly_kpis": lambda month: [float("nan")]}
    )
    assert out["stop_reason"] == "tool_bad_result:calculate_monthly_kpis"

    bad_args = plan_with(
        {"tool": "get_manager_profile", "args": {"manager_id": "42"}},
        {"tool": "fetch_sales_data", "args": MONTH},
        {"tool": "fetch_refund_data", "args": MONTH},
    )
    out, *_ = run(bad_args, SUMMARY)
    assert out["stop_reason"] == "tool_bad_args:get_manager_profile"
    for hostile in ({"manager_id": True}, {"manager_id": 42, "extra": 1}, {}):
        steps = [dict(s) for s in bad_args["steps"]]
        steps[0] = {**steps[0], "args": hostile}
        out, *_ = run({"kind": "plan", "steps": steps}, SUMMARY)
        assert out["stop_reason"] == "tool_bad_args:get_manager_profile"


def test_budgets():
    out, *_ = run(DEMO_PLAN, SUMMARY, policy=TaskDecompositionPolicy(max_tool_calls=2))
    assert out["stop_reason"] == "max_tool_calls"
    policy = TaskDecompositionPolicy(max_plan_steps=6, max_execute_steps=2)
    out, *_ = run(DEMO_PLAN, SUMMARY, policy=policy)
    assert out["stop_reason"] == "max_execute_steps"
    slow = TaskDecompositionPolicy(max_seconds=0.3, llm_timeout_seconds=5)
    out, *_ = run(llm=RaisingModel(replies=[(0.35, DEMO_PLAN), SUMMARY]), policy=slow)
    assert out["stop_reason"] == "max_seconds"


def test_invalid_input():
    graph = build_graph(llm=scripted(DEMO_PLAN), checkpointer=InMemorySaver())
    assert graph.invoke({"goal": ""}, thread())["stop_reason"] == "invalid_input:goal"


def test_cli_demo(capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["run", "task_decomposition", "--json"]) == EXIT_OK
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "ok"
    assert "$26,825" in result["answer"]
