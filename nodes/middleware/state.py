"""The middleware's part of the agent's state: the audit rows (``governance_trace``,
``governance_calls``, ``governance_refusals``), the named stop, the run's own bookkeeping, and the
rows' shapes (those of the Supervisor graph's trace, calls and refusals rows where they overlap).

The audit keys and the stop are output only: a client's input cannot write them (LangGraph drops
input keys outside the input schema). ``governance_subject`` is the application's input. The run's
bookkeeping (``governance_run``: its id, clock, steps, its request and the human turns it came
from), the plans of approved calls (``governance_plan``) and the human turns seen so far on the
thread (``governance_seen``) are private. Every audit row is written through :func:`audit`.

The rows in state are the current run's: each run starts from none (``RESET``), so a checkpoint
does not carry every earlier run's rows. With a store (``create_agent(..., store=...)``, or the
server's) each run's rows also move to the thread's audit log (:mod:`nodes.middleware.audit`);
without one they stay in the run's own checkpoints (``apps.operations.audit.read_audit`` reads both).

Each key's channel is LangGraph's reducer or last-value channel, copied by its attributes rather
than built again (``nodes.langgraph_private.CopiedAggregate``, ``CopiedLastValue``): LangGraph copies
every channel of the state at each of the agent's routing decisions."""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, NotRequired, Required

from langchain.agents.middleware.types import AgentState, OmitFromInput, PrivateStateAttr
from langchain_core.messages import AnyMessage
from langgraph.channels import DeltaChannel

from nodes.audit import GOVERNANCE_ROWS
from nodes.clock import now
from nodes.langgraph_private import CopiedAggregate, CopiedLastValue
from nodes.state import (
    ROWS_SNAPSHOT_FREQUENCY,
    add_messages_delta,
    add_messages_stable,
    add_rows,
    add_rows_delta,
    latest_write,
)
from nodes.trace import review_figures
from policies.text import json_hash

#: Where row ids come from: a generator seeded from the OS once per process (and again in a forked
#: child), so a row's id costs no system call (``os.urandom`` at every row released the GIL to the
#: saver's thread mid-step). A row id only tells rows apart; it authorises nothing.
_ROW_IDS = random.Random(os.urandom(16))
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: _ROW_IDS.seed(os.urandom(16)))


def row_id() -> str:
    """16 hex digits, new at each call."""
    return f"{_ROW_IDS.getrandbits(64):016x}"


def _last(_old: Any, new: Any) -> Any:
    """The newest write wins (several tool calls may write in one step)."""
    return new


def _add_waits(old: dict[str, float] | None, new: dict[str, float] | None) -> dict[str, float]:
    """Seconds waited for a human, summed per run id."""
    total = dict(old or {})
    for run_id, seconds in (new or {}).items():
        total[run_id] = total.get(run_id, 0.0) + float(seconds)
    return total


def _last_value() -> CopiedLastValue:
    """A channel of a key without a reducer, copied cheaply (as :func:`_rows`)."""
    return CopiedLastValue(dict[str, Any])


def _rows() -> CopiedAggregate:
    """A channel of audit rows (``add_rows``): LangGraph's reducer channel, copied cheaply
    (``nodes.langgraph_private.CopiedAggregate``: every channel of the state is copied at each of
    the agent's routing decisions)."""
    return CopiedAggregate(list[dict[str, Any]], add_rows)


class GovernanceState(AgentState[Any]):
    """The agent's state with what :class:`~nodes.middleware.GovernanceMiddleware` keeps.

    Audit rows: each names its ``run_id`` (one agent invocation); appended, or started over by a
    first row ``RESET`` (a new run).

    As an agent's ``state_schema`` (``create_agent(..., state_schema=GovernanceState)``), its
    conversation gives a message sent without an id the id :class:`GovernanceDeltaState` gives it
    (``nodes.state.add_messages_stable``): a thread kept with the delta state reads back the same
    with this one. (As the middleware's own schema it leaves ``messages`` to the agent's.)"""

    messages: Required[Annotated[list[AnyMessage], add_messages_stable]]

    governance_trace: NotRequired[Annotated[list[dict[str, Any]], OmitFromInput, _rows()]]
    governance_calls: NotRequired[Annotated[list[dict[str, Any]], OmitFromInput, _rows()]]
    governance_refusals: NotRequired[Annotated[list[dict[str, Any]], OmitFromInput, _rows()]]
    governance_stop_reason: NotRequired[
        Annotated[str | None, OmitFromInput, CopiedAggregate(str | None, _last)]
    ]
    #: one ask per task: escalated steps a human approved, each with its ``run_id``; a later step of
    #: the same run with the same kind and provenance runs on that yes (output only: a grant written
    #: in a client's input would skip a human)
    governance_grants: NotRequired[Annotated[list[dict[str, Any]], OmitFromInput, _rows()]]
    #: whom the thread's runs act for: the application's input, else the middleware's ``subject``,
    #: else the one the thread's first request named (kept for its later runs)
    governance_subject: NotRequired[Annotated[dict[str, Any], CopiedLastValue(dict[str, Any])]]
    governance_run: NotRequired[Annotated[dict[str, Any], PrivateStateAttr, _last_value()]]
    #: the run's step count and clock (``CLOCK_KEYS``, with its ``run_id``): what changes at every
    #: step, written apart from ``governance_run`` (written once a run) so a step's update stays small
    governance_clock: NotRequired[Annotated[dict[str, Any], PrivateStateAttr, _last_value()]]
    governance_plan: NotRequired[Annotated[dict[str, Any], PrivateStateAttr, _last_value()]]
    #: the thread's human turns as the middleware last saw them: the digests of their ids and texts
    #: (:mod:`nodes.middleware.turns`; a thread checkpointed before keeps message id → text hash)
    governance_seen: NotRequired[
        Annotated[str | dict[str, str], PrivateStateAttr, CopiedLastValue(str | dict[str, str])]
    ]
    #: the thread's ledger (:mod:`policies.supervisor.provenance.ledger`): what the successful calls of tools
    #: thread-wide rules watch did, in every run of the thread; never started over, never input
    governance_ledger: NotRequired[Annotated[list[dict[str, Any]], PrivateStateAttr, _rows()]]
    #: seconds a run waited for a human while a changed call was reviewed again (run id → seconds)
    governance_waited: NotRequired[
        Annotated[dict[str, float], PrivateStateAttr, CopiedAggregate(dict[str, float], _add_waits)]
    ]


#: A delta channel of one run's audit rows (``nodes.state.ROWS_SNAPSHOT_FREQUENCY``).
_ROWS: DeltaChannel[list[dict[str, Any]]] = DeltaChannel(
    add_rows_delta, snapshot_frequency=ROWS_SNAPSHOT_FREQUENCY
)


class GovernanceDeltaState(GovernanceState):
    """The agent's state with the conversation and the middleware's audit rows as LangGraph's
    delta channels (beta): a checkpoint stores what each step wrote to them, not the whole list
    every time (the conversation with a snapshot of it every 100 updates; one run's rows, small,
    with one at every update: ``nodes.state.ROWS_SNAPSHOT_FREQUENCY``). The switch for an agent:
    ``create_agent(model, tools, middleware=[governance], state_schema=GovernanceDeltaState,
    checkpointer=...)`` (docs/own-agent.md, "Long threads: delta channels").

    What else grows with the thread is kept the same way: the human turns seen (a digest per turn,
    written about once a run) and the ledger, so no checkpoint carries them whole."""

    messages: Required[Annotated[list[AnyMessage], DeltaChannel(add_messages_delta)]]
    governance_trace: NotRequired[Annotated[list[dict[str, Any]], OmitFromInput, _ROWS]]
    governance_calls: NotRequired[Annotated[list[dict[str, Any]], OmitFromInput, _ROWS]]
    governance_refusals: NotRequired[Annotated[list[dict[str, Any]], OmitFromInput, _ROWS]]
    governance_grants: NotRequired[Annotated[list[dict[str, Any]], OmitFromInput, _ROWS]]
    #: ``str`` alone: LangGraph makes the channel's empty value from this type (a thread kept with
    #: a dict before the digests reads back as that dict, as with the plain channel)
    #: a snapshot at every update (``snapshot_frequency=1``): the value is stored whole where it
    #: changed, and nowhere else. (With the default 100, a value written once a run sent every
    #: thread read back over up to 100 runs' checkpoints to find the last snapshot.)
    governance_seen: NotRequired[  # type: ignore[misc]
        Annotated[str, PrivateStateAttr, DeltaChannel(latest_write, str, snapshot_frequency=1)]
    ]
    governance_ledger: NotRequired[
        Annotated[list[dict[str, Any]], PrivateStateAttr, DeltaChannel(add_rows_delta, snapshot_frequency=1)]
    ]


def audit(
    trace: Sequence[Mapping[str, Any]] = (),
    calls: Sequence[Mapping[str, Any]] = (),
    refusals: Sequence[Mapping[str, Any]] = (),
    grants: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The state update that records audit rows: the one place rows are written (trace rows, the
    calls that ran, the refusals fed back, the grants a human's approval issued)."""
    update: dict[str, Any] = {}
    for key, rows in (
        ("governance_trace", trace),
        ("governance_calls", calls),
        ("governance_refusals", refusals),
        ("governance_grants", grants),
    ):
        if rows:
            update[key] = [dict(r) for r in rows]
    return update


#: The audit log's row kinds, by the state key that holds them.
ROW_KEYS = GOVERNANCE_ROWS
#: The fields the middleware's rows carry beside the Supervisor graph's (whose rows have the same
#: fields otherwise, for each kind of event: ``tests/test_audit_rows_agree.py``): the run a row
#: belongs to (without a store the rows of every run on a thread share one list), a row's own id
#: (the same step re-run on a fork makes a row of its own) and the model's tool call id.
ROW_BOOKKEEPING = ("run_id", "row_id", "tool_call_id")


def turn_of(previous: Mapping[str, Any], turns: Sequence[str]) -> dict[str, Any]:
    """A run's turn on the thread (1: the first request) and its request's message: the turn after
    the previous run's when the client sent new human turns (``turns``, their ids), else the same
    turn (a run that brought no new request carries the last one on)."""
    last = int(previous.get("turn") or 0)
    if turns:
        return {"turn": last + 1, "request_message_id": turns[-1]}
    return {"turn": last or None, "request_message_id": previous.get("request_message_id")}


def merge_rows(first: Mapping[str, Any], then: Mapping[str, Any]) -> dict[str, Any]:
    """Two updates as one: the audit rows of both (``first``'s before ``then``'s, so a ``RESET``
    that starts a run's rows over stays first), the rest of ``then`` over ``first``."""
    merged = {**first, **then}
    for key in ROW_KEYS.values():
        if key in first and key in then:
            merged[key] = [*first[key], *then[key]]
    return merged


#: The keys of a run's bookkeeping that change at every step (``governance_clock``).
CLOCK_KEYS = ("steps", "model_at", "paused_seconds")


def run_id_of(state: Mapping[str, Any]) -> Any:
    """The id of the run ``state`` is in (None before its first run)."""
    return (state.get("governance_run") or {}).get("run_id")


def run_of(state: Mapping[str, Any]) -> dict[str, Any]:
    """This run's bookkeeping: ``run_id``, ``started_at``, ``paused_seconds``, ``waited`` (for calls
    reviewed again as they ran), ``steps``, its ``request`` and the ``turns`` it came from."""
    run = dict(state.get("governance_run") or {})
    clock = state.get("governance_clock") or {}
    if clock.get("run_id") == run.get("run_id"):  # a clock left by an earlier run is not this one's
        run.update({k: v for k, v in clock.items() if k in CLOCK_KEYS})
    run["waited"] = float((state.get("governance_waited") or {}).get(str(run.get("run_id")), 0.0))
    return run


def clock(run: Mapping[str, Any]) -> dict[str, Any]:
    """The state update of a step's bookkeeping: the run's clock, not the whole run."""
    return {"governance_clock": {"run_id": run.get("run_id"), **{k: run[k] for k in CLOCK_KEYS if k in run}}}


def of_run(rows: Sequence[Mapping[str, Any]] | None, run_id: Any) -> list[Mapping[str, Any]]:
    """The rows of one run."""
    return [r for r in rows or () if r.get("run_id") == run_id]


def elapsed(run: Mapping[str, Any]) -> float:
    """Run time so far, less the time spent waiting for a human."""
    paused = float(run.get("paused_seconds") or 0.0) + float(run.get("waited") or 0.0)
    return max(0.0, now() - float(run.get("started_at") or now()) - paused)


def figures(
    action: Mapping[str, Any] | None, review: Mapping[str, Any] | None, **more: Any
) -> dict[str, Any]:
    """A step's audit figures, as the Supervisor's trace rows name them: tool, args hash, the
    supervisor's decision and reason (with the deciding rule's details, the flow it stopped, where
    checked values came from: :func:`nodes.trace.review_figures`, the graph's own), and ``more``
    (executed_from, approved_by, human_approved...) where given."""
    action, review = action or {}, review or {}
    row: dict[str, Any] = {
        "tool": "final" if action.get("kind") == "final" else action.get("name"),
        "args_hash": json_hash(action.get("args", {})),
        "decision": review.get("decision") or "refused",
        "review_reason": review.get("reason"),
        **review_figures(review),
    }
    return {**row, **{k: v for k, v in more.items() if v is not None}}


def trace_row(run: Mapping[str, Any], phase: str, *, ok: bool = True, **fields: Any) -> dict[str, Any]:
    """One audit row: the run, its step (the model turn), the phase, ok, the figures, and an id of
    its own (``row_id``: the same row read again keeps it; the same step run again on a fork, from
    the same state, makes a row with another, so the audit log keeps both)."""
    row = {"run_id": run.get("run_id"), "step": run.get("steps"), "phase": phase, "ok": ok, **fields}
    return {**row, "elapsed_ms": int(elapsed(run) * 1000), "row_id": row_id()}
