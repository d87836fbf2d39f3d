"""The middleware's part of the agent's state: the audit rows (``governance_trace``,
``governance_calls``, ``governance_refusals``), the named stop, the run's own bookkeeping, and the
rows' shapes (those of the Supervisor graph's trace, calls and refusals rows where they overlap).

With a store (``create_agent(..., store=...)``, or the server's), the rows in state are the current
run's: each run's rows move to the thread's audit log (:mod:`nodes.middleware.audit`) and the next
run starts from none (``RESET``), so a checkpoint does not carry every earlier run's rows. Without
one they accumulate over the thread, each naming its ``run_id``."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, NotRequired

from langchain.agents.middleware.types import AgentState, PrivateStateAttr

from nodes.audit import GOVERNANCE_ROWS
from nodes.clock import now
from nodes.messages import message_id
from nodes.state import add_rows
from policies import supervisor as rules
from policies.text import json_hash

#: Longest rule details copied into a trace row as they are (longer: referred to by hash).
TRACE_DETAIL_CHARS = 200


def _last(_old: Any, new: Any) -> Any:
    """The newest write wins (several tool calls may write in one step)."""
    return new


class GovernanceState(AgentState[Any]):
    """The agent's state with what :class:`~nodes.middleware.GovernanceMiddleware` keeps.

    Audit rows: each names its ``run_id`` (one agent invocation); appended, or started over by a
    first row ``RESET`` (a new run, when the rows live in the store's audit log)."""

    governance_trace: NotRequired[Annotated[list[dict[str, Any]], add_rows]]
    governance_calls: NotRequired[Annotated[list[dict[str, Any]], add_rows]]
    governance_refusals: NotRequired[Annotated[list[dict[str, Any]], add_rows]]
    governance_stop_reason: NotRequired[Annotated[str | None, _last]]
    #: whom the run acts for (the Supervisor's ``subject``); the middleware's ``subject`` otherwise
    governance_subject: NotRequired[dict[str, Any]]
    governance_run: NotRequired[Annotated[dict[str, Any], PrivateStateAttr]]
    governance_plan: NotRequired[Annotated[dict[str, Any], PrivateStateAttr]]


#: The audit log's row kinds, by the state key that holds them.
ROW_KEYS = GOVERNANCE_ROWS


def new_run(state: Mapping[str, Any], *, is_feedback: Any = None) -> dict[str, Any]:
    """A new run's bookkeeping: its id, clock and step count, the turn it answers (the number of
    the user's messages so far) and that message's id. ``is_feedback(message)`` tells the
    gateway's own human messages (a refused final answer fed back) from the user's."""
    users = [
        m
        for m in state.get("messages") or []
        if getattr(m, "type", None) == "human" and not (is_feedback and is_feedback(m))
    ]
    return {
        "run_id": str(uuid.uuid4()),
        "started_at": now(),
        "paused_seconds": 0.0,
        "steps": 0,
        "turn": len(users),
        "request_message_id": message_id(users[-1]) if users else None,
    }


def run_of(state: Mapping[str, Any]) -> dict[str, Any]:
    """This run's bookkeeping: ``run_id``, ``started_at``, ``paused_seconds``, ``steps``."""
    return dict(state.get("governance_run") or {})


def of_run(rows: Sequence[Mapping[str, Any]] | None, run_id: Any) -> list[Mapping[str, Any]]:
    """The rows of one run."""
    return [r for r in rows or () if r.get("run_id") == run_id]


def elapsed(run: Mapping[str, Any]) -> float:
    """Run time so far, less the time spent waiting for a human."""
    paused = float(run.get("paused_seconds") or 0.0)
    return max(0.0, now() - float(run.get("started_at") or now()) - paused)


def _small(value: Any) -> Any:
    return value if len(json.dumps(value, default=str)) <= TRACE_DETAIL_CHARS else {"hash": json_hash(value)}


def figures(
    action: Mapping[str, Any] | None, review: Mapping[str, Any] | None, **more: Any
) -> dict[str, Any]:
    """A step's audit figures, as the Supervisor's trace rows name them: tool, args hash, the
    supervisor's decision and reason (with the deciding rule's details, where checked values came
    from), and ``more`` (executed_from, approved_by, human_approved...) where given."""
    action, review = action or {}, review or {}
    row: dict[str, Any] = {
        "tool": "final" if action.get("kind") == "final" else action.get("name"),
        "args_hash": json_hash(action.get("args", {})),
        "decision": review.get("decision") or "refused",
        "review_reason": review.get("reason"),
    }
    details = rules.rule_details(review)
    where = details.pop("provenance", None)
    if details:
        row["rule_details"] = _small(details)
    if where:
        row["provenance"] = {str(k)[:80]: str(v)[:160] for k, v in list(where.items())[:8]}
    return {**row, **{k: v for k, v in more.items() if v is not None}}


def trace_row(run: Mapping[str, Any], phase: str, *, ok: bool = True, **fields: Any) -> dict[str, Any]:
    """One audit row: the run, its step (the model turn), the phase, ok, the figures, and an id of
    its own (``row_id``: the same row read again keeps it; the same step run again on a fork, from
    the same state, makes a row with another, so the audit log keeps both)."""
    row = {"run_id": run.get("run_id"), "step": run.get("steps"), "phase": phase, "ok": ok, **fields}
    return {**row, "elapsed_ms": int(elapsed(run) * 1000), "row_id": uuid.uuid4().hex[:16]}
