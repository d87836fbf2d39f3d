"""Offline planner and combiner for the Task Decomposition pattern.

The planner reads the month and the manager id from the goal and plans profile → sales → refunds →
KPIs → risks with the allowed tools; the combiner writes the summary from the observations' figures.
"""

from __future__ import annotations

import calendar
import re
from typing import Any

_MANAGER = re.compile(r"manager_id\s*=\s*(\d+)")
_ISO_MONTH = re.compile(r"\b(\d{4})-(\d{2})\b")
_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_NAMED_MONTH = re.compile(r"\b(" + "|".join(_MONTHS) + r")\s+(\d{4})\b", re.IGNORECASE)

_PLAN = (
    ("profile", "Load the manager profile", "get_manager_profile"),
    ("sales", "Fetch the month's sales", "fetch_sales_data"),
    ("refunds", "Fetch the month's refunds", "fetch_refund_data"),
    ("kpis", "Calculate the monthly KPIs", "calculate_monthly_kpis"),
    ("risks", "Detect risk signals", "detect_risk_signals"),
)


def month_of(goal: str) -> str | None:
    iso = _ISO_MONTH.search(goal)
    if iso:
        return f"{iso.group(1)}-{iso.group(2)}"
    named = _NAMED_MONTH.search(goal)
    if named:
        return f"{named.group(2)}-{_MONTHS[named.group(1).lower()]:02d}"
    return None


def planner(payload: dict[str, Any]) -> dict[str, Any]:
    goal = str(payload.get("goal") or "")
    allowed = set(payload.get("allowed_tools") or [t for _, _, t in _PLAN])
    manager = _MANAGER.search(goal)
    month = month_of(goal)
    steps = []
    for step_id, title, tool in _PLAN:
        if tool not in allowed:
            continue
        if tool == "get_manager_profile":
            if manager is None:
                continue
            args: dict[str, Any] = {"manager_id": int(manager.group(1))}
        else:
            if month is None:
                continue
            args = {"month": month}
        steps.append({"id": step_id, "title": title, "tool": tool, "args": args})
    return {"kind": "plan", "steps": steps[: int(payload.get("max_plan_steps") or 6)]}


def _money(value: Any) -> str:
    return f"${value:,.0f}" if isinstance(value, int | float) else "n/a"


def combiner(payload: dict[str, Any]) -> dict[str, Any]:
    observations = {
        row.get("tool"): row.get("observation")
        for row in payload.get("history") or []
        if isinstance(row, dict) and isinstance(row.get("observation"), dict)
    }
    profile = observations.get("get_manager_profile") or {}
    kpis = observations.get("calculate_monthly_kpis") or {}
    risks = observations.get("detect_risk_signals") or {}
    month = str(kpis.get("month") or risks.get("month") or "")
    label = month
    if re.fullmatch(r"\d{4}-\d{2}", month):
        label = f"{calendar.month_name[int(month[5:])]} {month[:4]}"
    who = f"{profile['name']} ({profile.get('team', '')})" if "name" in profile else "the manager"
    parts = [f"{label} sales summary for {who}, in {kpis.get('currency', 'USD')}:"]
    if kpis:
        rate = kpis.get("refund_rate")
        parts.append(
            f"gross sales {_money(kpis.get('gross_sales_usd'))}, refunds {_money(kpis.get('refunds_usd'))}, "
            f"net sales {_money(kpis.get('net_sales_usd'))} across {kpis.get('orders')} orders; "
            f"refund rate {rate * 100:.2f}%."
            if isinstance(rate, int | float)
            else "refund rate n/a."
        )
        if kpis.get("top_sales_day"):
            parts.append(f"Top sales day: {kpis['top_sales_day']}.")
    signals = risks.get("signals") or []
    if signals:
        first = signals[0]
        parts.append(f"Risk note: refund spike on {first['day']} ({_money(first['refund_usd'])} refunded).")
    elif risks:
        parts.append(f"Risk note: {risks.get('summary', 'no critical risk signals')}.")
    return {"answer": " ".join(parts)}


ROLES = {
    "task_decomposition.plan": planner,
    "task_decomposition.combine": combiner,
}
