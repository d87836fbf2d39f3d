"""Task Decomposition demo: an April 2026 sales summary for manager 42 (Anna, Retail East)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

GOAL = (
    "Prepare an April 2026 monthly sales summary for manager_id=42 in USD. Use step-by-step "
    "decomposition. Include gross sales, refunds, net sales, refund rate, and one risk note."
)

MANAGERS: dict[int, dict[str, Any]] = {
    42: {"manager_id": 42, "name": "Anna", "region": "US", "team": "Retail East"},
    7: {"manager_id": 7, "name": "Max", "region": "US", "team": "Retail West"},
}
SALES: dict[str, list[dict[str, Any]]] = {
    "2026-04": [
        {"day": "2026-04-01", "gross_usd": 5200, "orders": 120},
        {"day": "2026-04-02", "gross_usd": 4890, "orders": 113},
        {"day": "2026-04-03", "gross_usd": 6105, "orders": 141},
        {"day": "2026-04-04", "gross_usd": 5580, "orders": 127},
        {"day": "2026-04-05", "gross_usd": 6420, "orders": 149},
    ]
}
REFUNDS: dict[str, list[dict[str, Any]]] = {
    "2026-04": [
        {"day": "2026-04-01", "refund_usd": 140},
        {"day": "2026-04-02", "refund_usd": 260},
        {"day": "2026-04-03", "refund_usd": 210},
        {"day": "2026-04-04", "refund_usd": 590},
        {"day": "2026-04-05", "refund_usd": 170},
    ]
}
REFUND_SPIKE_USD = 500


def demo_input() -> dict[str, Any]:
    return {"goal": GOAL}


def get_manager_profile(manager_id: int) -> dict[str, Any]:
    if manager_id not in MANAGERS:
        return {"error": f"manager_not_found:{manager_id}"}
    return dict(MANAGERS[manager_id])


def fetch_sales_data(month: str) -> dict[str, Any]:
    if month not in SALES:
        return {"error": f"sales_not_found_for_month:{month}"}
    return {"month": month, "currency": "USD", "days": [dict(d) for d in SALES[month]]}


def fetch_refund_data(month: str) -> dict[str, Any]:
    if month not in REFUNDS:
        return {"error": f"refunds_not_found_for_month:{month}"}
    return {"month": month, "currency": "USD", "days": [dict(d) for d in REFUNDS[month]]}


def calculate_monthly_kpis(month: str) -> dict[str, Any]:
    if month not in SALES or month not in REFUNDS:
        return {"error": f"kpis_not_available_for_month:{month}"}
    gross = sum(d["gross_usd"] for d in SALES[month])
    refunds = sum(d["refund_usd"] for d in REFUNDS[month])
    top = max(SALES[month], key=lambda d: d["gross_usd"])
    return {
        "month": month,
        "currency": "USD",
        "gross_sales_usd": gross,
        "refunds_usd": refunds,
        "net_sales_usd": gross - refunds,
        "orders": sum(d["orders"] for d in SALES[month]),
        "refund_rate": round(refunds / gross, 4),
        "top_sales_day": top["day"],
    }


def detect_risk_signals(month: str) -> dict[str, Any]:
    if month not in REFUNDS:
        return {"error": f"risk_data_not_available_for_month:{month}"}
    peak = max(REFUNDS[month], key=lambda d: d["refund_usd"])
    signals = [
        {
            "type": "refund_spike",
            "day": d["day"],
            "refund_usd": d["refund_usd"],
            "warning": f"refund spike on {d['day']}",
        }
        for d in REFUNDS[month]
        if d["refund_usd"] >= REFUND_SPIKE_USD
    ]
    return {
        "month": month,
        "signals": signals,
        "summary": signals[0]["warning"] if signals else "no critical risk signals",
        "peak_refund_day": {"day": peak["day"], "refund_usd": peak["refund_usd"]},
    }


def demo_tools() -> dict[str, Callable[..., Any]]:
    return {
        "get_manager_profile": get_manager_profile,
        "fetch_sales_data": fetch_sales_data,
        "fetch_refund_data": fetch_refund_data,
        "calculate_monthly_kpis": calculate_monthly_kpis,
        "detect_risk_signals": detect_risk_signals,
    }
