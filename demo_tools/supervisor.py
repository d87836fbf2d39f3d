"""Supervisor demo: a refund request from Anna (user 42) for a 1200 USD annual plan charge.

The billing tools keep a ledger of executed side effects keyed by idempotency key: a second call
with a key already in the ledger returns the recorded result and performs nothing. The ledger is
in memory by default; give the desk an ``SqliteLedger`` or ``PostgresLedger`` (``demo_tools.ledger``)
and a run resumed in another process, or after a crash, still refunds once.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from demo_tools.ledger import Ledger, MemoryLedger

GOAL = (
    "User Anna (user_id=42) requests a refund for a recent annual plan charge of 1200 USD. "
    "Apply supervisor policy before any refund execution and provide a short final response."
)

USERS: dict[int, dict[str, Any]] = {
    42: {"user_id": 42, "name": "Anna", "country": "US", "tier": "enterprise"},
    7: {"user_id": 7, "name": "Max", "country": "US", "tier": "pro"},
}
BILLING: dict[int, dict[str, Any]] = {
    42: {"plan": "annual_enterprise", "currency": "USD", "last_charge_usd": 1200.0, "days_since_payment": 10},
    7: {"plan": "pro_monthly", "currency": "USD", "last_charge_usd": 49.0, "days_since_payment": 35},
}
POLICY_HINT = {"auto_refund_limit_usd": 1000.0, "refund_window_days": 14}
DEMO_DATE = "20260226"


#: Whom the demo run acts for: the demo policy binds every tool's ``user_id`` to it.
SUBJECT = {"user_id": 42}


def in_cents(amount: float) -> bool:
    """Is ``amount`` a whole number of cents? (The billing desk moves no fractions of a cent.)"""
    exact = Decimal(str(amount))
    return exact == exact.quantize(Decimal("0.01"))


def demo_input() -> dict[str, Any]:
    return {"goal": GOAL, "subject": dict(SUBJECT)}


@dataclass
class BillingDesk:
    """The demo's billing system: the refunds and emails it performed, by idempotency key."""

    users: dict[int, dict[str, Any]] = field(default_factory=lambda: copy.deepcopy(USERS))
    billing: dict[int, dict[str, Any]] = field(default_factory=lambda: copy.deepcopy(BILLING))
    ledger: Ledger = field(default_factory=MemoryLedger)
    #: Calls this desk answered from the ledger instead of performing them again.
    duplicate_calls: int = 0

    @property
    def refunds(self) -> dict[str, dict[str, Any]]:
        return self.ledger.entries("refund")

    @property
    def emails(self) -> dict[str, dict[str, Any]]:
        return self.ledger.entries("email")

    def _done(self, kind: str, key: str) -> dict[str, Any] | None:
        """What the ledger recorded for ``key``: a call made again is counted, not performed again."""
        done = self.ledger.get(kind, key)
        if done is not None:
            self.duplicate_calls += 1
        return done

    def _once(self, kind: str, key: str, entry: dict[str, Any]) -> dict[str, Any]:
        stored, created = self.ledger.record(kind, key, entry)
        if not created:
            self.duplicate_calls += 1
        return stored

    def get_refund_context(self, user_id: int) -> dict[str, Any]:
        if user_id not in self.users:
            return {"error": f"context_not_found_for_user:{user_id}"}
        return {
            "user": dict(self.users[user_id]),
            "billing": dict(self.billing[user_id]),
            "policy_hint": dict(POLICY_HINT),
        }

    def issue_refund(
        self, user_id: int, amount_usd: float, reason: str | None = None, *, idempotency_key: str
    ) -> dict[str, Any]:
        if (done := self._done("refund", idempotency_key)) is not None:
            return done
        if user_id not in self.users:
            return {"error": f"refund_user_not_found:{user_id}"}
        if amount_usd <= 0:
            return {"error": "refund_amount_must_be_positive"}
        if not in_cents(amount_usd):
            return {"error": "refund_amount_not_in_cents", "amount_usd": amount_usd}
        charge = float(self.billing[user_id]["last_charge_usd"])
        if amount_usd > charge:
            return {"error": "refund_exceeds_last_charge", "max_refund_usd": charge}
        refund = {
            "status": "refunded",
            "user_id": user_id,
            "amount_usd": amount_usd,
            "currency": "USD",
            "reason": reason or "",
            "transaction_id": f"rf_{user_id}_{DEMO_DATE}",
        }
        return self._once("refund", idempotency_key, refund)

    def send_refund_email(
        self, user_id: int, amount_usd: float, message: str, *, idempotency_key: str
    ) -> dict[str, Any]:
        if (done := self._done("email", idempotency_key)) is not None:
            return done
        if user_id not in self.users:
            return {"error": f"email_user_not_found:{user_id}"}
        email = {
            "status": "sent",
            "to": f"{self.users[user_id]['name'].lower()}@example.com",
            "template": "refund_confirmation_v2",
            "amount_usd": amount_usd,
            "message": message,
            "email_id": f"em_{user_id}_{DEMO_DATE}",
        }
        return self._once("email", idempotency_key, email)

    def registry(self) -> dict[str, Callable[..., Any]]:
        return {
            "get_refund_context": self.get_refund_context,
            "issue_refund": self.issue_refund,
            "send_refund_email": self.send_refund_email,
        }


def demo_tools(desk: BillingDesk | None = None) -> dict[str, Callable[..., Any]]:
    """A tool registry over ``desk`` (a fresh demo billing desk by default)."""
    return (desk or BillingDesk()).registry()
