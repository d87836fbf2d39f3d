"""An offline, deterministic worker for the support desk (``demo_tools.support_desk``): what the
desk's agent runs on without an API key, in Studio and Agent Chat UI too.

It reads the conversation's last user turn (a ticket ``T-…``, an order ``ORD-…``, an amount in EUR
or "in full", and whether to refund and to e-mail) and the tool results since, and proposes the next
call: read the ticket, look up the order (the one the turn names, else the one the ticket's text
names: a first-pass worker believes what it reads), refund, e-mail the customer, then a short
answer. A refused call ends the turn with what was refused and why. The governance decides; this
model only proposes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from nodes.scripted import ScriptedToolModel

_TICKET = re.compile(r"\bT-\d+\b")
_ORDER = re.compile(r"\bORD-\d+\b")
_AMOUNT = re.compile(r"(\d+(?:\.\d{1,2})?)\s*(?:EUR|€)", re.IGNORECASE)
_EMAIL = re.compile(r"\b(e-?mail|tell|notify|reply|confirm)", re.IGNORECASE)


def _content(message: BaseMessage) -> Any:
    try:
        return json.loads(message.text)
    except ValueError:
        return message.text


def _turn(messages: Sequence[BaseMessage]) -> tuple[str, dict[str, Any]]:
    """The last user turn's text, and what each tool returned since (tool name → its result)."""
    start = max((i for i, m in enumerate(messages) if m.type == "human"), default=-1)
    request = messages[start].text if start >= 0 else ""
    done: dict[str, Any] = {}
    for message in messages[start + 1 :]:
        if message.type == "tool":
            done[str(message.name)] = _content(message)
    return request, done


def next_step(messages: Sequence[BaseMessage]) -> dict[str, Any] | str:
    """The next call ``{"name", "args"}`` of the turn, or the answer's text."""
    request, done = _turn(messages)
    refused = [(n, r) for n, r in done.items() if isinstance(r, dict) and r.get("refused")]
    if refused:
        name, result = refused[-1]
        return f"I did not {name.replace('_', ' ')}: refused ({result.get('reason')})."
    ticket = _TICKET.search(request)
    if ticket and "read_ticket" not in done:
        return {"name": "read_ticket", "args": {"ticket_id": ticket.group()}}
    said = str((done.get("read_ticket") or {}).get("text") or "")
    order = _ORDER.search(request) or _ORDER.search(said)
    if order and "look_up_order" not in done:
        return {"name": "look_up_order", "args": {"order_id": order.group()}}
    found = done.get("look_up_order")
    record: dict[str, Any] = found if isinstance(found, dict) else {}
    if "withheld" in record:
        return f"Order {record.get('id')} is not this customer's: I cannot act on it."
    if order and "refund" in request.lower() and "issue_refund" not in done:
        amount = _AMOUNT.search(request)
        value = float(amount.group(1)) if amount else float(record.get("total") or 0)
        return {"name": "issue_refund", "args": {"order_id": order.group(), "amount": value}}
    to = record.get("email") or (done.get("read_ticket") or {}).get("from")
    if to and _EMAIL.search(request) and "send_email" not in done:
        refund = done.get("issue_refund") or {}
        body = f"We refunded {refund['refunded']:.2f} EUR." if "refunded" in refund else "We are on it."
        return {"name": "send_email", "args": {"to": to, "subject": "Your order", "body": body}}
    ran = ", ".join(done) or "nothing"
    return f"Done ({ran})."


class OfflineDeskModel(ScriptedToolModel):
    """The support desk's offline worker as a chat model: native tool calls, no network; its call
    ids count the conversation's AI messages, so they stay unique on a thread across processes."""

    model_name: str = "offline-desk-v1"

    @property
    def _llm_type(self) -> str:
        return "offline-desk"

    def next_reply(self, messages: Sequence[BaseMessage]) -> Any:
        return next_step(messages)

    def call_number(self, messages: Sequence[BaseMessage]) -> int:
        return sum(isinstance(m, AIMessage) for m in messages) + 1
