"""Trace rows (small, hashed audit rows) and history rows (what happened, in full), and the one
way a node ends a run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nodes.clock import elapsed_ms
from nodes.messages import stop_message
from policies.catalog import clean_reason


def trace_row(state: Mapping[str, Any], phase: str, *, ok: bool = True, **figures: Any) -> dict:
    """One audit row. Steps are numbered from 1 in the order the rows are written."""
    row: dict[str, Any] = {"step": len(state.get("trace") or []) + 1, "phase": phase, "ok": ok}
    row.update(figures)
    row["elapsed_ms"] = elapsed_ms(state)
    return row


def history_row(state: Mapping[str, Any], phase: str, **content: Any) -> dict:
    return {"step": len(state.get("history") or []) + 1, "phase": phase, **content}


def stop(
    state: Mapping[str, Any],
    phase: str,
    reason: str,
    *,
    figures: Mapping[str, Any] | None = None,
    **diagnostics: Any,
) -> dict[str, Any]:
    """The state update that ends a run: status, stop reason, phase, a failing trace row, the
    diagnostics it stopped on (as top-level result keys), and an AI message saying where and why
    (what a chat client shows). Nothing already in state is dropped.

    The reason is written as :func:`policies.catalog.clean_reason` renders it: a reason that carries
    text from a reply (an unknown tool's name...) cannot smuggle line breaks or megabytes into it."""
    reason = clean_reason(reason)
    row = trace_row(state, phase, ok=False, stop_reason=reason, **(figures or {}))
    return {
        "status": "stopped",
        "stop_reason": reason,
        "phase": phase,
        "trace": [row],
        "messages": [stop_message(reason, phase)],
        **diagnostics,
    }


def is_stopped(state: Mapping[str, Any]) -> bool:
    return state.get("status") == "stopped"
