"""Offline worker for the Supervisor pattern: reads the goal and the observations so far and
proposes the next action — gather context, then refund, then email, then a final answer.

Like a first-pass worker it proposes the refund the user asked for (capped to the last charge)
without a reason; the supervisor's rules are what add the reason and escalate large amounts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

_USER = re.compile(r"user_id\s*=\s*(\d+)")
_AMOUNT = re.compile(r"(\d+(?:\.\d+)?)\s*(?:USD|usd|\$)")


def _last(history: list[dict[str, Any]], tool: str) -> dict[str, Any] | None:
    rows = [r for r in history if isinstance(r, dict) and r.get("tool") == tool]
    return rows[-1] if rows else None


def _observation(row: dict[str, Any] | None) -> dict[str, Any]:
    obs = (row or {}).get("observation")
    return obs if isinstance(obs, dict) else {}


def _final(text: str) -> dict[str, Any]:
    return {"kind": "final", "answer": text}


#: How the final answer says who approved an escalated refund: never a person when none did.
APPROVALS = {
    "human": "after human approval",
    "auto_approver": "after approval by the automatic approver",
}


def _refused(row: dict[str, Any]) -> str | None:
    obs = _observation(row)
    return str(obs.get("reason")) if obs.get("refused") else None


def worker(payload: dict[str, Any]) -> dict[str, Any]:
    goal = str(payload.get("goal") or "")
    history = [r for r in payload.get("history") or [] if isinstance(r, dict)]
    refused = _refused(history[-1]) if history else None
    if refused is not None:  # an honest worker does not try the refused action again
        return _final(f"I stopped: {history[-1].get('tool')} was refused ({refused}).")
    user = _USER.search(goal)
    if user is None:
        return _final("I cannot act on this request: it names no user_id.")
    user_id = int(user.group(1))
    context_row = _last(history, "get_refund_context")
    if context_row is None:
        return {"kind": "tool", "name": "get_refund_context", "args": {"user_id": user_id}}
    context = _observation(context_row)
    if "error" in context:
        return _final(f"No refund was issued: {context['error']}.")
    name = context.get("user", {}).get("name", f"user {user_id}")
    refund_row = _last(history, "issue_refund")
    if refund_row is None:
        requested = _AMOUNT.search(goal)
        charge = float(context.get("billing", {}).get("last_charge_usd") or 0)
        amount = min(float(requested.group(1)), charge) if requested else charge
        return {"kind": "tool", "name": "issue_refund", "args": {"user_id": user_id, "amount_usd": amount}}
    refund = _observation(refund_row)
    if "error" in refund:
        return _final(f"No refund was issued for {name}: {refund['error']}.")
    amount = float(refund.get("amount_usd") or 0)
    email_row = _last(history, "send_refund_email")
    if email_row is None:
        message = f"Hi {name}, we refunded {amount:.2f} USD to your account ({refund.get('transaction_id')})."
        return {
            "kind": "tool",
            "name": "send_refund_email",
            "args": {"user_id": user_id, "amount_usd": amount, "message": message},
        }
    email = _observation(email_row)
    mail = (
        f"confirmation {email.get('email_id')} sent to {email.get('to')}"
        if "error" not in email
        else (f"the confirmation email failed ({email['error']})")
    )
    how = APPROVALS.get(str(refund_row.get("approved_by")), "under policy")
    return _final(
        f"Refunded {amount:.2f} USD to {name} (user {user_id}) {how}, transaction "
        f"{refund.get('transaction_id')}; {mail}."
    )


ROLES = {"supervisor.worker": worker}


# ------------------------------------------------------------------ native tool calling


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _task(text: str) -> dict[str, Any]:
    """The task a conversation's first human message gives: the Supervisor's JSON task, or plain
    text taken as the goal."""
    task = _json(text)
    return task if isinstance(task, dict) else {"goal": text}


def _tool_row(message: BaseMessage, call: Mapping[str, Any]) -> dict[str, Any] | None:
    """A tool message as the JSON protocol's history row, or None for a call that was not run."""
    content = _json(message.text)
    if isinstance(content, dict) and "observation" in content:
        row = dict(content)
    else:  # a tool message in another shape: its content is the observation
        row = {"ok": getattr(message, "status", "success") != "error", "observation": content}
    observation = row.get("observation")
    if isinstance(observation, dict) and observation.get("not_run"):
        return None
    args = row.pop("args", call.get("args"))
    return {"tool": call.get("name") or getattr(message, "name", None), "args": args, **row}


def native_payload(messages: Sequence[BaseMessage]) -> dict[str, Any]:
    """The worker payload a tool-calling conversation amounts to: the task (the first human
    message) and the history rows the JSON protocol shows (tool, args, ok, observation,
    executed_from, approved_by), read from the AI messages' tool calls and the tool messages
    answering them. A call answered as not run is left out (it did not happen); the supervisor's
    refusal of a final answer (a human message named ``supervisor``) is a row of tool ``final``."""
    task: dict[str, Any] | None = None
    calls: dict[str, Mapping[str, Any]] = {}
    history: list[dict[str, Any]] = []
    for message in messages:
        if message.type == "human" and task is None:
            task = _task(message.text)
        elif message.type == "human" and message.name == "supervisor":
            refused = _json(message.text)
            observation = refused.get("refused_final_answer") if isinstance(refused, dict) else refused
            history.append({"tool": "final", "args": None, "ok": False, "observation": observation})
        elif isinstance(message, AIMessage):
            calls.update({str(c.get("id")): c for c in message.tool_calls})
        elif message.type == "tool":
            row = _tool_row(message, calls.get(str(getattr(message, "tool_call_id", ""))) or {})
            history += [row] if row is not None else []
    return {"role": "supervisor.worker", **(task or {}), "history": history}


def tool_call_message(reply: Any, messages: Sequence[BaseMessage]) -> AIMessage:
    """A worker's reply as a tool-calling model gives it: a tool action (or a list of them: several
    calls in one reply) as ``tool_calls``, a final action as its answer's text, anything else as
    text. Call ids are ``call_<turn>_<n>``."""
    turn = 1 + sum(isinstance(m, AIMessage) for m in messages)
    actions = reply if isinstance(reply, list) else [reply]
    if actions and all(isinstance(a, dict) and a.get("kind") == "tool" for a in actions):
        calls = [
            {"name": a.get("name"), "args": a.get("args"), "id": f"call_{turn}_{n}", "type": "tool_call"}
            for n, a in enumerate(actions, start=1)
        ]
        return AIMessage(content="", tool_calls=calls)
    if isinstance(reply, dict) and reply.get("kind") == "final":
        return AIMessage(content=str(reply.get("answer") or ""))
    return AIMessage(content=reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False))
