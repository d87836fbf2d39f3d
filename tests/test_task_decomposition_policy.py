"""Task Decomposition: every invalid_plan reason, and the final summary's grounding check."""

from __future__ import annotations

import pytest

from policies.task_decomposition import TaskDecompositionPolicy, validate_answer, validate_plan

POLICY = TaskDecompositionPolicy()


def step(i, tool="fetch_sales_data", **extra):
    return {"id": f"s{i}", "title": f"Step {i}", "tool": tool, "args": {"month": "2026-04"}, **extra}


def plan(*steps, **extra):
    return {"kind": "plan", "steps": list(steps), **extra}


GOOD = plan(step(1), step(2, "fetch_refund_data"), step(3, "calculate_monthly_kpis"))


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("plan", "invalid_plan:not_object"),
        ([step(1)], "invalid_plan:not_object"),
        ({"kind": "steps", "steps": []}, "invalid_plan:bad_kind"),
        ({"steps": [step(1), step(2), step(3)]}, "invalid_plan:bad_kind"),
        (plan(step(1), step(2), step(3), note="x"), "invalid_plan:extra_keys"),
        ({"kind": "plan"}, "invalid_plan:missing_steps"),
        ({"kind": "plan", "steps": {"s1": step(1)}}, "invalid_plan:missing_steps"),
        (plan(step(1), step(2)), "invalid_plan:min_steps"),
        (plan(*[step(i) for i in range(1, 8)]), "invalid_plan:max_steps"),
        (plan(step(1), "fetch", step(3)), "invalid_plan:step_2_not_object"),
        (plan(step(1), step(2), step(3, why="x")), "invalid_plan:step_3_extra_keys"),
        (plan({**step(1), "id": ""}, step(2), step(3)), "invalid_plan:step_1_missing_id"),
        (plan({**step(1), "id": 1}, step(2), step(3)), "invalid_plan:step_1_missing_id"),
        (plan(step(1), {**step(2), "id": "s1"}, step(3)), "invalid_plan:duplicate_step_id"),
        (plan(step(1), {**step(2), "title": " "}, step(3)), "invalid_plan:step_2_missing_title"),
        (
            plan(step(1), step(2), {k: v for k, v in step(3).items() if k != "tool"}),
            "invalid_plan:step_3_missing_tool",
        ),
        (plan(step(1), step(2, "delete_sales"), step(3)), "invalid_plan:tool_not_allowed:delete_sales"),
        (
            plan(step(1), step(2, "Fetch_Sales_Data"), step(3)),
            "invalid_plan:tool_not_allowed:Fetch_Sales_Data",
        ),
        (
            plan(step(1), step(2, " fetch_sales_data"), step(3)),
            "invalid_plan:tool_not_allowed: fetch_sales_data",
        ),
        (plan(step(1), {**step(2), "args": "2026-04"}, step(3)), "invalid_plan:step_2_bad_args"),
        (
            plan(step(1), step(2), {k: v for k, v in step(3).items() if k != "args"}),
            "invalid_plan:step_3_bad_args",
        ),
    ],
)
def test_invalid_plans(raw, reason):
    decision = validate_plan(raw, POLICY)
    assert not decision.passed
    assert decision.reason == reason


def test_plan_longer_than_execute_budget():
    policy = TaskDecompositionPolicy(max_plan_steps=6, max_execute_steps=3)
    decision = validate_plan(plan(*[step(i) for i in range(1, 5)]), policy)
    assert decision.reason == "max_execute_steps"


def test_valid_plan_is_normalised():
    decision = validate_plan(plan({**step(1), "id": " s1 ", "title": " Sales "}, step(2), step(3)), POLICY)
    assert decision.passed
    assert decision.details["steps"][0] == {
        "id": "s1",
        "title": "Sales",
        "tool": "fetch_sales_data",
        "args": {"month": "2026-04"},
    }


def test_policy_allowlist_can_be_narrowed():
    policy = TaskDecompositionPolicy(allowed_tools=["fetch_sales_data", "fetch_refund_data"])
    assert validate_plan(GOOD, policy).reason == "invalid_plan:tool_not_allowed:calculate_monthly_kpis"
    stricter = TaskDecompositionPolicy(execution_allowed_tools=["fetch_sales_data"])
    assert validate_plan(GOOD, stricter).passed  # the plan is fine in policy ...
    assert stricter.gateway_limits().allowed_tools == ["fetch_sales_data"]  # ... not all runs now


OBS = [
    {
        "gross_sales_usd": 28195,
        "refunds_usd": 1370,
        "net_sales_usd": 26825,
        "orders": 650,
        "refund_rate": 0.0486,
    },
    {"day": "2026-04-04", "refund_usd": 590},
]


@pytest.mark.parametrize(
    "answer",
    [
        "Gross $28,195, refunds 1,370.00 USD, net 26825 over 650 orders; refund rate 4.86%.",
        "Refund spike on 2026-04-04 (590 USD); refund rate 0.0486.",
        "No numbers at all.",
    ],
)
def test_grounded_answers(answer):
    assert validate_answer(answer, OBS, POLICY).passed


def test_ungrounded_numbers():
    decision = validate_answer("Gross $28,195 and net $27,000; refund rate 5%.", OBS, POLICY)
    assert decision.reason == "invalid_answer:ungrounded_numbers"
    assert decision.details["ungrounded_numbers"] == ["27,000", "5%"]


def test_empty_and_too_long_answers():
    assert validate_answer("  ", OBS, POLICY).reason == "llm_empty"
    short = TaskDecompositionPolicy(max_answer_chars=10)
    assert validate_answer("x" * 11, OBS, short).reason == "invalid_answer:too_long"
