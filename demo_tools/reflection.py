"""Reflection demo: a US payments incident on 2026-03-05."""

from __future__ import annotations

from typing import Any

GOAL = (
    "Draft a customer-facing payment incident update for US enterprise customers. "
    "Keep it accurate, avoid overconfident language, and include next actions."
)

INCIDENT_CONTEXT: dict[str, Any] = {
    "report_date": "2026-03-05",
    "region": "US",
    "incident": {
        "incident_id": "inc_payments_20260305",
        "severity": "P1",
        "status": "degraded",
        "affected_checkout_pct": 27,
        "failed_payment_rate": 0.034,
        "chargeback_alerts": 5,
        "eta_minutes": 45,
    },
    "policy_hints": {
        "avoid_absolute_guarantees": True,
        "required_sections": ["current_status", "customer_impact", "next_actions"],
    },
    "approved_actions": [
        "monitor payment failures every 15 minutes",
        "publish customer update via status page",
        "prepare support macro with workaround guidance",
    ],
}


def demo_input() -> dict[str, Any]:
    import copy

    return {"goal": GOAL, "incident_context": copy.deepcopy(INCIDENT_CONTEXT)}
