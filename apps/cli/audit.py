"""``agent-patterns audit THREAD``: a thread's runs (:mod:`apps.operations.audit`), one line per trace row.

Every field is printed through :func:`apps.cli.printable.printable`: a row's tool name, reason or
request is text a model, a tool or a client wrote, and a line break or an escape sequence in it
must not print a row of its own. The columns are as wide as the thread's widest cell (up to a
limit, beyond which a cell is cut with ``…``), counted in terminal columns."""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from apps.cli.errors import DEBUG_ENV, EXIT_OK, EXIT_STOPPED, CliError, database_error
from apps.cli.printable import printable, printable_json
from apps.operations.audit import RunAudit, ThreadAudit, ThreadNotFound, stored_audit, verify_audit
from nodes.store import one_line

#: The columns of a row: header, the most terminal columns a cell takes, aligned right.
COLUMNS = (
    ("STEP", 6, True),
    ("PHASE", 16, False),
    ("TOOL", 28, False),
    ("DECISION", 10, False),
    ("OK", 2, False),
)


def width(text: str) -> int:
    """Terminal columns ``text`` takes: 2 for a wide (East Asian) character, 0 for a combining one."""
    if text.isascii():
        return len(text)
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text
    )


def fit(text: str, most: int) -> str:
    """``text`` in at most ``most`` terminal columns, ``…`` where it was cut."""
    if width(text) <= most:
        return text
    kept, used = [], 0
    for char in text:
        used += width(char)
        if used > most - 1:
            break
        kept.append(char)
    return "".join(kept) + "…"


def pad(text: str, columns: int, right: bool = False) -> str:
    fill = " " * max(0, columns - width(text))
    return fill + text if right else text + fill


def _who(row: Mapping[str, Any]) -> str:
    """Who decided a step: the human or the automatic approver that approved it, who refused it,
    how the action that ran was made."""
    parts = []
    if row.get("approved_by"):
        parts.append(f"approved by {_named(row, row['approved_by'])}")
    if row.get("refused_by"):
        parts.append(f"refused by {_named(row, row['refused_by'])}")
    if row.get("responded_by"):
        parts.append(f"answered by {_named(row, row['responded_by'])}")
    named = "human" in (row.get("approved_by"), row.get("refused_by"), row.get("responded_by"))
    if not named and (row.get("reviewer") or row.get("answered_at")):  # a human's answer that stopped it
        parts.append(f"answered by {_named(row, 'human')}")
    if row.get("executed_from") not in (None, "original"):
        parts.append(str(row["executed_from"]))
    return ", ".join(parts)


def _named(row: Mapping[str, Any], by: Any) -> str:
    """``by``, and where a human answered, the reviewer the answer named and when it was taken
    (``human alice at 2026-05-01T09:30:00+00:00``)."""
    if by != "human":
        return str(by)
    named = f"human {row['reviewer']}" if row.get("reviewer") else "human"
    return f"{named} at {row['answered_at']}" if row.get("answered_at") else named


def _reason(row: Mapping[str, Any]) -> str:
    keys = ("stop_reason", "refused", "review_reason", "tool_error", "problem")
    reason = str(next((row[k] for k in keys if row.get(k)), ""))
    shadow = row.get("shadow")
    if isinstance(shadow, Mapping) and shadow.get("would"):  # a rule in shadow mode that would have held it
        check, why = shadow.get("check") or "a rule", shadow.get("reason")
        would = f"in shadow, {check} would {shadow['would']}" + (f": {why}" if why else "")
        return f"{reason}; {would}" if reason else would
    return reason


def row_cells(row: Mapping[str, Any]) -> list[str]:
    """A trace row's cells (step, phase, tool, decision, ok) and, last, who decided and why; every
    one on one line."""
    ok = "ok" if row.get("ok") and row.get("observation_ok", True) else "NO"
    cells = [row.get("step", "-"), row.get("phase", "-"), row.get("tool") or row.get("call") or "-"]
    cells += [row.get("decision") or "-", ok, "; ".join(p for p in (_who(row), _reason(row)) if p)]
    return [printable(cell) for cell in cells]


def column_widths(rows: Sequence[Mapping[str, Any]]) -> list[int]:
    """Each column's width: its widest cell in ``rows`` (or its header), up to its limit."""
    cells = [row_cells(row) for row in rows]
    return [
        min(most, max([len(head), *(width(c[i]) for c in cells)]))
        for i, (head, most, _) in enumerate(COLUMNS)
    ]


def _line(cells: Sequence[str], widths: Sequence[int]) -> str:
    shown = [
        pad(fit(cell, w), w, right) for cell, w, (_, _, right) in zip(cells, widths, COLUMNS, strict=False)
    ]
    return (
        "  " + " ".join(shown) + (f"  {cells[-1]}" if len(cells) > len(COLUMNS) and cells[-1] else "")
    ).rstrip()


def row_line(row: Mapping[str, Any], widths: Sequence[int] | None = None) -> str:
    """One trace row on a line: step, phase, tool, decision, ok, who, why."""
    return _line(row_cells(row), widths or column_widths([row]))


def header_line(widths: Sequence[int]) -> str:
    return _line([head for head, _, _ in COLUMNS] + ["WHO; WHY"], widths)


def run_lines(run: RunAudit, widths: Sequence[int] | None = None) -> list[str]:
    widths = widths or column_widths(run.trace)
    ended = f"{run.status} ({run.stop_reason})" if run.status else "not ended (running, or waiting)"
    asked = f' "{" ".join(run.request.split())[:70]}"' if run.request else ""
    forked = f", {run.branches} branches" if run.branches > 1 else ""
    head = f"turn {run.turn if run.turn is not None else '?'}  run {run.run_id}  {ended}{forked}{asked}"
    counts = f"  {len(run.calls)} call(s), {len(run.refusals)} refusal(s), {len(run.history)} history row(s)"
    rows = [header_line(widths), *(row_line(row, widths) for row in run.trace)] if run.trace else []
    return [printable(head), *rows, counts]


def audit_lines(audit: ThreadAudit, where: str, waits_on: str = "") -> list[str]:
    """The text of ``audit``; ``waits_on``: what the thread's last run waits for a human on (its
    question is no row until it is answered), shown under that run."""
    source = "the audit log" if audit.source == "log" else "its checkpoints (the graph kept no audit log)"
    thread = printable(audit.thread_id)
    lines = [f"thread {thread}: {len(audit.runs)} run(s), read from {source} in {where}"]
    widths = column_widths([row for run in audit.runs for row in run.trace])
    for run in audit.runs:
        lines += run_lines(run, widths)
    if waits_on and audit.runs and not audit.runs[-1].status:
        lines.append(printable(f"  waits for a human: {waits_on}"))
    return lines


def _waits_on(saver: Any, thread_id: str) -> str:
    """What the thread waits for a human on ("": nothing, or not a run the CLI reads)."""
    from apps.cli.output import waits_on_text
    from apps.operations.runs import NotWaiting, RunNotFound, run_summary

    try:
        summary = run_summary(saver, thread_id)
    except (RunNotFound, NotWaiting):
        return ""
    return waits_on_text(summary, saver) if summary.status == "waiting" else ""


def _undecodable(exc: Exception, thread_id: str) -> Exception:
    """What the audit of a thread failed with: a database error as it is (the CLI reports it as
    the store's), anything else (a checkpoint or an audit log entry that cannot be decoded) as
    :class:`apps.operations.runs.UnreadableRun`, one line; the exception itself with
    ``$AGENT_PATTERNS_DEBUG``."""
    from apps.operations.runs import UnreadableRun

    if database_error(exc) or os.environ.get(DEBUG_ENV):
        return exc
    cause = f"{type(exc).__name__}: {one_line(exc, 200)}"
    reason = f"holds a checkpoint or an audit log entry that cannot be decoded ({cause})"
    return UnreadableRun(f"thread {thread_id!r} {reason}", thread_id=thread_id, reason=reason)


def head_command(args: Any, out: Any) -> int:
    """``audit --head [THREAD]``: each thread's chain head, one JSON line each (thread, place,
    hash, key id, when written), for the operator to keep outside the database."""
    from nodes import audit as log
    from nodes.store import open_store, parse_location

    with open_store(args.db) as store:
        threads = (
            [args.thread_id] if args.thread_id is not None else [log.unlabel(t) for t in log.threads(store)]
        )
        heads = [(thread, log.read_head(store, thread)) for thread in threads]
    found = [(thread, head) for thread, head in heads if head is not None]
    if not found:
        where = parse_location(args.db).target or "memory"
        which = f"thread {args.thread_id!r}" if args.thread_id else "any thread"
        raise CliError(f"no chain head of {which} in {where}")
    for thread, head in found:
        kept = {k: head.get(k) for k in ("n", "hash", "kid", "at") if k in head}
        print(printable_json(json.dumps({"thread_id": thread, **kept}, ensure_ascii=False)), file=out)
    return EXIT_OK


def verify_command(args: Any, out: Any) -> int:
    """``audit --verify [THREAD]``: each thread's log checked against its hash chain; exit 1 when
    any breaks (or, ``--strict``, was written before the chain existed)."""
    from nodes.store import open_store, parse_location

    with open_store(args.db) as store:
        try:
            found = verify_audit(store, args.thread_id)
        except ThreadNotFound as exc:
            raise CliError(str(exc)) from None
    if not found:  # nothing checked is no evidence that nothing was changed
        raise CliError(f"nothing to verify: no audit log in {parse_location(args.db).target or 'memory'}")
    failed = [t for t in found if not t.ok or (args.strict and t.report.unchained)]
    if args.json:
        shown = [
            {
                "thread_id": t.thread_id,
                "ok": t.ok,
                "unchained": t.report.unchained,
                "rows": t.report.linked,
                "sealed": [{"key_id": kid, "first": a, "last": b} for kid, a, b in t.report.sealed],
                "seals_not_checked": t.report.unchecked,
                "problems": [p.__dict__ for p in t.report.problems],
            }
            for t in found
        ]
        said = {"verified": not failed, "threads": shown}
        text = json.dumps(said, indent=2, ensure_ascii=False, default=str)
        print(printable_json(text), file=out)
        return EXIT_STOPPED if failed else EXIT_OK
    for thread in found:
        if not thread.ok or thread.report.unchained or args.thread_id is not None:
            print("\n".join(printable(line) for line in thread.lines()), file=out)
    rows = sum(t.report.linked for t in found)
    unchained = sum(1 for t in found if t.report.unchained)
    where = str(parse_location(args.db))
    older = f" ({unchained} unchained)" if unchained else ""
    if failed:
        print(f"FAILED: {len(failed)} of {len(found)} thread(s) in {where}{older}", file=out)
        return EXIT_STOPPED
    print(f"verified {rows} rows in {len(found)} threads in {where}{older}", file=out)
    return EXIT_OK


def audit_command(args: Any, out: Any) -> int:
    """``audit``: the thread's runs from the store's audit log (else its checkpoints)."""
    from apps.operations.runs import result_json
    from nodes.store import open_checkpointer, open_store, parse_location

    if args.jsonl or args.otlp:
        from apps.cli.export import export_command

        return export_command(args, out)
    if args.since is not None:
        raise CliError("--since goes with --jsonl or --otlp")
    if args.head:
        return head_command(args, out)
    if args.verify:
        return verify_command(args, out)
    if args.thread_id is None:
        raise CliError("audit needs a thread id (or --verify or --jsonl, which read every thread)")
    if args.strict:
        raise CliError("--strict goes with --verify")
    with open_checkpointer(args.db) as saver, open_store(args.db) as store:
        try:
            found = stored_audit(saver, store, args.thread_id)
        except ThreadNotFound as exc:
            raise CliError(str(exc)) from None
        except Exception as exc:
            raise _undecodable(exc, args.thread_id) from exc
        waits_on = "" if args.json else _waits_on(saver, found.thread_id)
    if args.turn is not None:
        found = ThreadAudit(found.thread_id, found.turn(args.turn), found.source)
        if not found.runs:
            raise CliError(f"thread {args.thread_id!r} has no run for turn {args.turn}")
    if args.json:
        print(printable_json(result_json(found.as_dict())), file=out)
        return EXIT_OK
    print("\n".join(audit_lines(found, str(parse_location(args.db)), waits_on)), file=out)
    return EXIT_OK
