"""What the CLI prints: progress lines, a run's result or summary, what a waiting run waits on."""

from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, TextIO

from apps.cli.errors import EXIT_OK, EXIT_STOPPED, EXIT_WAITING
from apps.cli.printable import printable, printable_json
from apps.cli.progress import progress_line, summary_lines, terminal_width
from nodes.store import default_location, parse_location

if TYPE_CHECKING:
    from apps.operations.runs import RunSummary


def progress_printer(
    progress: TextIO, width: int, interrupts: list[Any], header: str | None = None
) -> Callable[[str, Any], None]:
    """The ``on_update`` of a run: a progress line per node (after ``header``, once the run goes);
    interrupts collected in ``interrupts``."""
    pending = [header] if header else []

    def on_update(node: str, update: Any) -> None:
        while pending:
            print(printable(pending.pop()), file=progress, flush=True)
        if node == "__interrupt__":
            interrupts.extend(i.value for i in update)
        else:
            print(progress_line(node, update, width), file=progress, flush=True)

    return on_update


def printable_result_json(value: Any, indent: int | None = None) -> str:
    """A result as JSON, its messages in LangChain's dict form (:func:`apps.operations.runs.result_json`),
    every character a terminal would act on escaped (:func:`apps.cli.printable.printable_json`)."""
    from apps.operations.runs import result_json

    return printable_json(result_json(value, indent=indent))


def print_result(result: dict[str, Any], args: argparse.Namespace, out: TextIO, progress: TextIO) -> int:
    """The result: exactly its JSON on stdout with ``--json``, else a short summary."""
    if args.json:
        print(printable_result_json(result), file=out)
    else:
        for line in summary_lines(result, terminal_width(out)):
            print(line, file=out)
    # the run's own thread, else the one the command names (a pattern whose state keeps none)
    thread = str(result.get("thread_id") or args.__dict__.get("thread_id") or "")
    if not args.json:
        print(closing_hint(thread, args.db), file=out)
    if result.get("waiting_for_human"):
        print(_resume_hint(thread, args.db, edit_example(result)), file=progress)
        return EXIT_WAITING
    return EXIT_OK if result.get("status") == "ok" else EXIT_STOPPED


def closing_hint(thread_id: str, db: str) -> str:
    """Where to read the run again: ``audit`` (one line per step: who decided what, and why),
    ``show`` (the whole result as JSON). A run kept in memory is gone once the command exits."""
    if parse_location(db).kind == "memory":
        return "(kept in memory only: gone when this command exits; --json prints the whole result)"
    thread_id, where = printable(thread_id), printable(db_suffix(db))
    return (
        f"each step, who decided and why: agent-patterns audit {thread_id}{where}"
        f"  (the whole result as JSON: agent-patterns show {thread_id}{where})"
    )


def db_suffix(db: str) -> str:
    """`` --db <db>`` to append to a suggested command; nothing for the default store."""
    return "" if db == default_location() else f" --db {db}"


def edit_example(result: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of the call the run waits on (its first question), for an ``edit`` a reviewer
    can run as printed: the call's real arguments, never a demo's."""
    for request in result.get("waiting_for_human") or []:
        if not isinstance(request, Mapping):
            continue
        actions = request.get("action_requests") or [request.get("action") or request.get("edited_action")]
        for action in actions:
            if isinstance(action, Mapping) and isinstance(action.get("args"), Mapping):
                return dict(action["args"])
    return {}


def _resume_hint(thread_id: str, db: str, args: Mapping[str, Any] | None = None) -> str:
    thread_id, where = printable(thread_id), printable(db_suffix(db))
    edited = shlex.quote(json.dumps(args or {}, ensure_ascii=False, default=str))
    return (
        f"waiting for a human. Answer from any shell (this one may close):\n"
        f"  agent-patterns approve {thread_id}{where}\n"
        f"  agent-patterns edit {thread_id} {printable(edited)}{where}    (the call's arguments, edited)\n"
        f"  agent-patterns reject {thread_id} --message 'why'{where}\n"
        f"  agent-patterns waiting{where}    (every run that waits, and on what)"
    )


def _attempts(request: Any, saver: Any, thread_id: str) -> str:
    """``answer N of M; K more allowed`` for a request asked again: N the answers given so far (each
    refused), M the run's ``human_answer_attempts``. The request's ``attempt`` is the next
    answer's number, so N is one less."""
    from apps.operations.runs import UnreadableRun, recorded_policy

    attempt = request.get("attempt")
    given = attempt - 1 if isinstance(attempt, int) and not isinstance(attempt, bool) else attempt
    try:
        most = getattr(recorded_policy(saver, thread_id), "human_answer_attempts", None)
    except UnreadableRun:  # a recorded policy that cannot be read: the answers given, without the cap
        most = None
    if not isinstance(most, int) or not isinstance(given, int):
        return f"answer {given}"
    return f"answer {given} of {most}; {max(most - given, 0)} more allowed"


def refused_answer_text(result: dict[str, Any], saver: Any, thread_id: str) -> str | None:
    """When the run asks again because the answer could not be applied: the problem, how many
    answers were given and how many more are allowed."""
    for request in result.get("waiting_for_human") or []:
        if isinstance(request, dict) and request.get("problem"):
            return f"{request['problem']} ({_attempts(request, saver, thread_id)})"
    return None


def started_text(summary: RunSummary) -> str:
    """When a run started, to the second (``-`` when unknown)."""
    if summary.started_at is None:
        return "-"
    return datetime.fromtimestamp(summary.started_at).isoformat(sep=" ", timespec="seconds")


def waits_on_text(summary: RunSummary, saver: Any) -> str:
    """What a waiting run waits on: each request's reason and action, and a refused answer's problem."""
    from apps.cli.progress import request_text

    parts = []
    for request in summary.waiting_on:
        request = request if isinstance(request, dict) else {"reason": str(request)}
        why, action = request_text(request)
        part = f"{why}: {action}"
        if request.get("problem"):
            attempts = _attempts(request, saver, summary.thread_id)
            part += f" (last answer refused: {request['problem']}; {attempts})"
        parts.append(part)
    return "; ".join(parts)
