"""The middleware's part of the agent's state: the audit rows (``governance_trace``,
``governance_calls``, ``governance_refusals``), the named stop, the run's own bookkeeping, and the
rows' shapes (those of the Supervisor graph's trace, calls and refusals rows where they overlap)."""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, NotRequired

from langchain.agents.middleware.types import AgentState, PrivateStateAttr

from nodes.clock import now
from policies import supervisor as rules
from policies.text import json_hash

#: Longest rule details copied into a trace row as they are (longer: referred to by hash).
TRACE_DETAIL_CHARS = 200


def _last(_old: Any, new: Any) -> Any:
    """The newest write wins (several tool calls may write in one step)."""
    return new


class GovernanceState(AgentState[Any]):
    """The agent's state with what :class:`~nodes.middleware.GovernanceMiddleware` keeps.

    Audit rows accumulate over the thread; each names its ``run_id`` (one agent invocation)."""

    governance_trace: NotRequired[Annotated[list[dict[str, Any]], operator.add]]
    governance_calls: NotRequired[Annotated[list[dict[str, Any]], operator.add]]
    governance_refusals: NotRequired[Annotated[list[dict[str, Any]], operator.add]]
    governance_stop_reason: NotRequired[Annotated[str | None, _last]]
    #: one ask per task: escalated steps a human approved, each with its ``run_id``; a later step of
    #: the same run with the same kind and provenance runs on that yes
    governance_grants: NotRequired[Annotated[list[dict[str, Any]], operator.add]]
    #: whom the run acts for (the Supervisor's ``subject``); the middleware's ``subject`` otherwise
    governance_subject: NotRequired[dict[str, Any]]
    governance_run: NotRequired[Annotated[dict[str, Any], PrivateStateAttr]]
    governance_plan: NotRequired[Annotated[dict[str, Any], PrivateStateAttr]]


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
    for key in ("grant", "granted"):  # the grant a human's approval issued, or the one that covered this step
        if details.get(key):
            row[key] = details.pop(key)
    if details:
        row["rule_details"] = _small(details)
    if where:
        row["provenance"] = {str(k)[:80]: str(v)[:160] for k, v in list(where.items())[:8]}
    return {**row, **{k: v for k, v in more.items() if v is not None}}


def trace_row(run: Mapping[str, Any], phase: str, *, ok: bool = True, **fields: Any) -> dict[str, Any]:
    """One audit row: the run, its step (the model turn), the phase, ok, the figures."""
    row = {"run_id": run.get("run_id"), "step": run.get("steps"), "phase": phase, "ok": ok, **fields}
    return {**row, "elapsed_ms": int(elapsed(run) * 1000)}
