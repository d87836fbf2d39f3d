"""The middleware's audit log: each run's rows, kept once in the store (:mod:`nodes.audit`).

The rows are made where the gateway decides and runs calls (the model's node, ``wrap_tool_call``)
and accumulate in state as the run goes (the run reads them: its calls so far, its refusals). With
a store, a run's rows move to the thread's log when it ends (``after_agent``), and the next run
starts from none (``before_agent``): a checkpoint carries one run's rows, not the thread's. A run
that waits for a human writes its rows so far when it starts waiting (in the model's node), so a thread
taken up again from an earlier checkpoint while it waited leaves none of them behind; a run that
never reached its end moves when the next run starts. Moved rows are keyed by run, kind, place
and content (:func:`nodes.audit.content_key`): moving them again changes nothing, and a branch that
forked from a run keeps both branches' rows.
Without a store, nothing moves, and each run still starts from none: a run's rows stay in its own
checkpoints (the thread's history), which ``apps.operations.audit.read_audit`` reads, each run's newest, so
a long thread's checkpoints do not grow with every earlier run's rows either.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nodes import audit
from nodes.middleware.state import ROW_KEYS, run_of
from nodes.state import RESET

ENGINE = audit.GOVERNANCE_ENGINE


def entries(state: Mapping[str, Any], *, ended: bool) -> list[audit.Entry]:
    """The log items of what ``state`` holds: its run's start, its rows (of every run they name)
    and, when ``ended``, how its run ended."""
    run = run_of(state)
    made = audit.state_entries(state, ROW_KEYS, run, ENGINE)
    if ended and run.get("run_id"):
        reason = state.get("governance_stop_reason")
        made.append(audit.end_entry(run["run_id"], "stopped" if reason else "ok", reason or "success"))
    return made


def run_started(state: Mapping[str, Any], runtime: Any) -> tuple[dict[str, Any], list[audit.Entry]]:
    """At a new run's start: the rows started over (``RESET``), so a checkpoint carries one run's
    rows with a store or without; and, with a store, what of the previous run must move to the log
    first (its rows, when its end did not move them). Without a store the previous run's rows stay
    in its own checkpoints, where ``apps.operations.audit.read_audit`` reads them (each run's newest)."""
    resets = {key: [RESET] for key in ROW_KEYS.values() if state.get(key)}
    if audit.logging_to(runtime) is None:
        return resets, []
    moved = [] if run_of(state).get("logged") else entries(state, ended=False)
    return resets, moved


def run_ended(state: Mapping[str, Any], runtime: Any) -> tuple[dict[str, Any] | None, list[audit.Entry]]:
    """At the run's end (with a store): every row of the run, its start and its end, to the log;
    the run marked as moved."""
    if audit.logging_to(runtime) is None:
        return None, []
    return {"governance_run": {**run_of(state), "logged": True}}, entries(state, ended=True)


def waiting(state: Mapping[str, Any]) -> list[audit.Entry]:
    """A run that waits for a human: its start and its rows so far, keyed as its end will move them
    (so moving them then, or again on a resume, changes nothing). A thread taken up again from an
    earlier checkpoint (a fork, a regenerate) leaves this run behind: its rows are in the log."""
    return entries(state, ended=False)


def write(runtime: Any, moved: list[audit.Entry]) -> None:
    target = audit.logging_to(runtime)
    if target is not None:
        audit.write(*target, moved)


async def awrite(runtime: Any, moved: list[audit.Entry]) -> None:
    target = audit.logging_to(runtime)
    if target is not None:
        await audit.awrite(*target, moved)
