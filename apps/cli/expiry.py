"""Approvals that expire, as the CLI shows and settles them: ``waiting`` says how long each question
has waited and when it expires (:func:`expiry_text`), and ``reject-expired`` rejects every question
in the store whose time is up (:func:`reject_expired_command`, for cron): the Supervisor's runs and
the threads of the ``create_agent`` agents the CLI knows (``graphs.registry.AGENTS``), on SQLite
or PostgreSQL.

A question says when it expires in its request (``expires_at``, ISO 8601 in UTC: set by the
policy's ``ask_expires_after``, or its tool's rules). One that does not never expires, and its age
counts from when its run paused."""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping
from typing import Any, TextIO

from apps.cli.errors import EXIT_OK, CliError
from apps.cli.printable import printable
from nodes.store import parse_location
from policies.text import from_iso


def now() -> float:
    return time.time()


def _span(seconds: float) -> str:
    """A duration as a reader takes it in: ``45s``, ``12m``, ``3h05m``, ``2d04h``."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    if seconds < 86400:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 86400}d{seconds % 86400 // 3600:02d}h"


def ask_times(request: Any, paused_at: str | None) -> tuple[float | None, float | None]:
    """When the question was asked (its ``asked_at``, else when its run paused: ``paused_at``, the
    checkpoint's time) and when it expires (None: never)."""
    given = request if isinstance(request, Mapping) else {}
    asked = from_iso(given.get("asked_at"))
    return (asked if asked is not None else from_iso(paused_at)), from_iso(given.get("expires_at"))


def is_expired(request: Any, at: float | None = None) -> bool:
    """Has the question's time run out (``at``: now)?"""
    expires = ask_times(request, None)[1]
    return expires is not None and (now() if at is None else at) > expires


def expiry_text(request: Any, paused_at: str | None, at: float | None = None) -> str:
    """How long the question has waited and when it expires, for ``waiting``: ``asked 12m ago;
    expires in 48m, at 2026-05-01T10:00:00+00:00``, ``...; EXPIRED 5m ago, at ...``, or
    ``asked 12m ago`` for one that never expires."""
    at = now() if at is None else at
    asked, expires = ask_times(request, paused_at)
    age = f"asked {_span(at - asked)} ago" if asked is not None else "asked at an unknown time"
    if expires is None:
        return age
    when = str(request.get("expires_at"))
    if at > expires:
        return f"{age}; EXPIRED {_span(at - expires)} ago, at {when}"
    return f"{age}; expires in {_span(expires - at)}, at {when}"


def expiry_json(request: Any, paused_at: str | None, at: float | None = None) -> dict[str, Any]:
    """The same for ``waiting --json``: ``age_seconds``, and ``expires_at`` and ``expired`` where the
    question expires."""
    at = now() if at is None else at
    asked, expires = ask_times(request, paused_at)
    shown: dict[str, Any] = {"age_seconds": round(at - asked, 3) if asked is not None else None}
    if expires is not None:
        shown |= {"expires_at": request.get("expires_at"), "expired": at > expires}
    return shown


def expired_asks(saver: Any, at: float | None = None) -> list[tuple[Any, dict[str, Any]]]:
    """Every waiting run of the store whose question has expired, with that question."""
    from apps.operations.runs import waiting_runs

    found = []
    for run in waiting_runs(saver):
        for request in run.waiting_on:
            if isinstance(request, dict) and is_expired(request, at):
                found.append((run, request))
                break
    return found


def add_reject_expired_parser(sub: Any, db_option: Any, wait_option: Any) -> None:
    """``reject-expired [--as NAME] [--db ...]``."""
    command = sub.add_parser(
        "reject-expired",
        help="reject every question in the store whose time ran out (ask_expires_after); for cron",
    )
    command.add_argument(
        "--as",
        dest="reviewer",
        metavar="NAME",
        default=None,
        help="who rejects, kept in the audit (default: $AGENT_PATTERNS_REVIEWER, else the OS user)",
    )
    command.add_argument("--message", default="", help="a note kept with each rejection")
    wait_option(command, 60)
    db_option(command)


def reject_expired_command(args: argparse.Namespace, out: TextIO, err: TextIO, *, reviewer: str) -> int:
    """Reject every expired question, as ``reviewer``: one line per run rejected (what it asked,
    when it expired, how the run ended), one per run that could not be answered now (answered
    already, busy), and a count. Exit 0, also when there is nothing to reject."""
    from apps.operations.runs import NotWaiting, RunNotFound, resume_run
    from nodes.journal import ThreadBusy
    from nodes.model import ModelConfigError, get_chat_model
    from nodes.store import open_checkpointer, open_ledger, open_store

    try:
        llm = get_chat_model()  # an agent's rebuilt with its own; a pattern's run goes on with this one
    except ModelConfigError as exc:
        raise CliError(str(exc)) from None
    rejected = skipped = 0
    with (
        open_checkpointer(args.db, writable=True) as saver,
        open_ledger(args.db) as ledger,
        open_store(args.db) as store,
    ):
        for run, request in expired_asks(saver):
            line = _asked_line(run, request)
            note = args.message or f"expired at {request.get('expires_at')}: rejected by reject-expired"
            answer = {"type": "reject", "reviewer": reviewer, "message": note}
            try:
                result = resume_run(
                    saver, run.thread_id, answer, llm=llm, ledger=ledger, store=store, wait=args.wait
                )
            except (RunNotFound, NotWaiting, ThreadBusy) as exc:
                skipped += 1
                print(printable(f"skipped {line}: {exc}"), file=err)
                continue
            rejected += 1
            print(printable(f"rejected {line} -> {_outcome(result)}"), file=out)
    store_text = f"run store: {parse_location(args.db)}"
    print(f"({rejected} expired question(s) rejected, {skipped} skipped; {store_text})", file=out)
    return EXIT_OK


def _asked_line(run: Any, request: dict[str, Any]) -> str:
    from apps.cli.progress import request_text

    why, action = request_text(request)
    return f"{run.thread_id} ({run.pattern}): {why}: {action}, expired at {request.get('expires_at')}"


def _outcome(result: Mapping[str, Any]) -> str:
    """How the run stands after the rejection: waiting again, or its status and stop reason."""
    if result.get("waiting_for_human"):
        return "waits for a human again"
    status = result.get("status") or "ended"
    reason = result.get("stop_reason") or result.get("governance_stop_reason")
    return f"{status} ({reason})" if reason else str(status)
