"""``agent-patterns``: run a pattern from the command line and read its JSON result.

Runs are kept in a run store (``--db``; default ``$AGENT_PATTERNS_DB`` or
``~/.agent-patterns/runs.sqlite``) so that they can be listed, read back and answered later, from
another process: ``runs``, ``show``, ``waiting``, ``approve`` / ``edit`` / ``reject``.

Exit status: 0 the run ended ok, 1 it stopped (see ``stop_reason``), 2 bad usage or
configuration, 3 it waits for a human.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tomllib
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn, TextIO

from psycopg import Error as PsycopgError
from pydantic import ValidationError

from graphs.registry import PATTERNS, Pattern, run_result
from graphs.runs import (
    NotIncomplete,
    NotWaiting,
    RunNotFound,
    RunSummary,
    continue_run,
    list_runs,
    load_run,
    resume_run,
    run_config,
    run_summary,
    waiting_runs,
)
from graphs.store import (
    DB_ENV,
    DEFAULT_DB,
    StoreError,
    default_location,
    open_checkpointer,
    open_ledger,
    parse_location,
)
from nodes.model import ModelConfigError, get_chat_model
from policies.base import BasePolicy

EXIT_OK, EXIT_STOPPED, EXIT_USAGE, EXIT_WAITING = 0, 1, 2, 3


class CliError(Exception):
    """A problem with the command line or its files: one line, exit status 2."""


def _fail(message: str) -> NoReturn:
    print(f"agent-patterns: error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


def _read_data_file(path: str, what: str) -> dict[str, Any]:
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {what} file {path!r}: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text) if file.suffix.lower() == ".toml" else json.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise CliError(f"{what} file {path!r} is not valid {file.suffix or 'JSON'}: {exc}") from None
    if not isinstance(data, dict):
        raise CliError(f"{what} file {path!r} must hold an object/table at the top level")
    return data


def load_policy(pattern: Pattern, path: str | None) -> BasePolicy:
    """The pattern's default policy, with the file's fields over it."""
    if path is None:
        return pattern.policy()
    data = _read_data_file(path, "policy")
    try:
        return pattern.policy_with(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"])) or "(top level)"
        raise CliError(f"invalid policy file {path!r}: {where}: {first['msg']}") from None


def _progress_line(node: str, update: Any) -> str:
    if not isinstance(update, dict):
        return f"  {node}"
    rows = update.get("trace") or []
    row = next((r for r in reversed(rows) if "phase" in r), None)
    if row is None:
        return f"  {node}"
    skip = {"step", "phase", "ok", "elapsed_ms", "stop_reason", "call"}
    figures = " ".join(f"{k}={v}" for k, v in row.items() if k not in skip)
    mark = "llm" if row.get("call") == "llm" else "ok"
    if not row.get("ok"):
        mark = f"STOP {row.get('stop_reason')}"
    return f"  {node:<18} {mark:<4} {figures}".rstrip()


def _store_error(exc: Exception, db: str) -> CliError:
    """A database failure in the middle of a command, as one line."""
    lines = str(exc).strip().splitlines()
    return CliError(f"run store {parse_location(db)} failed: {lines[0] if lines else type(exc).__name__}")


def _stream(graph: Any, inputs: Any, config: dict[str, Any], progress: TextIO) -> tuple[dict[str, Any], Any]:
    """Run the graph, one progress line per node; return (final values, pending interrupts)."""
    values: dict[str, Any] = {}
    interrupted = None
    for mode, chunk in graph.stream(inputs, config, stream_mode=["updates", "values"]):
        if mode == "values":
            values = chunk
            continue
        for node, update in chunk.items():
            if node == "__interrupt__":
                interrupted = [i.value for i in update]
            else:
                print(_progress_line(node, update), file=progress, flush=True)
    return values, interrupted


def _finish(result: dict[str, Any], args: argparse.Namespace, out: TextIO, progress: TextIO) -> int:
    print(json.dumps(result, indent=None if args.json else 2, ensure_ascii=False, default=str), file=out)
    if result.get("waiting_for_human"):
        print(_resume_hint(result.get("thread_id", ""), args.db), file=progress)
        return EXIT_WAITING
    return EXIT_OK if result.get("status") == "ok" else EXIT_STOPPED


def _check_thread_free(saver: Any, thread_id: str, pattern: Pattern) -> None:
    """A new run may reuse a thread of the same pattern, never one that waits for a human."""
    try:
        summary = run_summary(saver, thread_id)
    except RunNotFound:
        return
    if summary.pattern != pattern.name:
        raise CliError(f"thread {thread_id!r} holds a {summary.pattern} run; use another --thread-id")
    if summary.status == "waiting":
        raise CliError(
            f"thread {thread_id!r} is waiting for a human: approve, edit or reject it first "
            "(a new run would discard the pending approval)"
        )


def run_pattern(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    pattern = PATTERNS.get(args.pattern)
    if pattern is None:
        raise CliError(f"unknown pattern {args.pattern!r} (choose from {', '.join(PATTERNS)})")
    policy = load_policy(pattern, args.policy)
    if pattern.cli_policy is not None:
        policy = pattern.cli_policy(policy, bool(getattr(args, "human", False)))
    inputs = _read_data_file(args.input, "input") if args.input else pattern.demo_input()
    llm = _chat_model()
    thread_id = args.thread_id or str(uuid.uuid4())
    progress = err if args.json else out
    with open_checkpointer(args.db) as saver, open_ledger(args.db) as ledger:
        _check_thread_free(saver, thread_id, pattern)
        try:
            graph = pattern.build(checkpointer=saver, llm=llm, policy=policy, ledger=ledger)
        except ValueError as exc:  # a policy that does not fit the pattern's tools
            raise CliError(str(exc)) from None
        print(f"{pattern.name}: thread {thread_id} (runs kept in {parse_location(args.db)})", file=progress)
        values, interrupted = _stream(graph, inputs, run_config(thread_id, policy), progress)
    result = run_result(graph, values)
    if interrupted:
        result["waiting_for_human"] = interrupted
    return _finish(result, args, out, progress)


def _chat_model() -> Any:
    try:
        return get_chat_model()
    except ModelConfigError as exc:
        raise CliError(str(exc)) from None


def _resume_hint(thread_id: str, db: str) -> str:
    where = "" if db == default_location() else f" --db {db}"
    return (
        f"waiting for a human. Answer from any shell (this one may close):\n"
        f"  agent-patterns approve {thread_id}{where}\n"
        f"  agent-patterns edit {thread_id} '{{\"amount_usd\": 800}}'{where}\n"
        f"  agent-patterns reject {thread_id} --message 'why'{where}\n"
        f"  agent-patterns waiting{where}    (every run that waits, and on what)"
    )


def _answer(args: argparse.Namespace) -> dict[str, Any]:
    answer: dict[str, Any] = {"type": args.command}
    if args.message:
        answer["message"] = args.message
    if args.command == "edit":
        try:
            edited = json.loads(args.args)
        except ValueError as exc:
            raise CliError(f"edit: ARGS must be a JSON object of the action's arguments: {exc}") from None
        if not isinstance(edited, dict) or not edited:
            raise CliError("edit: ARGS must be a non-empty JSON object of the action's arguments")
        answer["edited_action"] = {"args": edited}
    return answer


def answer_run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``approve`` / ``edit`` / ``reject``: resume a waiting run from this process; ``resume``:
    carry on a run whose process died mid-run."""
    llm = _chat_model()
    progress = err if args.json else out
    with open_checkpointer(args.db) as saver, open_ledger(args.db) as ledger:
        try:
            if args.command == "resume":
                result = continue_run(saver, args.thread_id, llm=llm, ledger=ledger)
            else:
                result = resume_run(saver, args.thread_id, _answer(args), llm=llm, ledger=ledger)
        except (RunNotFound, NotWaiting, NotIncomplete) as exc:
            raise CliError(str(exc)) from None
    print(
        f"{args.thread_id}: {args.command} -> {result.get('status')} ({result.get('stop_reason')})",
        file=progress,
    )
    return _finish(result, args, out, progress)


def _started(summary: RunSummary) -> str:
    if summary.started_at is None:
        return "-"
    return datetime.fromtimestamp(summary.started_at).isoformat(sep=" ", timespec="seconds")


def _waits_on(summary: RunSummary) -> str:
    parts = []
    for request in summary.waiting_on:
        request = request if isinstance(request, dict) else {"reason": str(request)}
        action = request.get("action")
        action = action if isinstance(action, dict) else {}
        args = json.dumps(action.get("args", {}), sort_keys=True)
        parts.append(f"{action.get('name', '?')}({args}) because {request.get('reason', '?')}")
    return "; ".join(parts)


def list_command(args: argparse.Namespace, out: TextIO) -> int:
    """``runs`` and ``waiting``: a table, or JSON with ``--json``."""
    with open_checkpointer(args.db) as saver:
        if args.command == "waiting":
            runs = waiting_runs(saver)
        else:
            page = None if args.limit == 0 else args.limit + 1  # one more: is there a next page?
            runs = list_runs(saver, pattern=args.pattern, status=args.status, limit=page, offset=args.offset)
    more = args.limit > 0 and len(runs) > args.limit  # `waiting` lists every run (limit 0)
    runs = runs[: args.limit] if more else runs
    if args.json:
        print(json.dumps([r.as_dict() for r in runs], ensure_ascii=False, default=str), file=out)
        return EXIT_OK
    if not runs:
        print("no runs" if args.command == "runs" else "no run is waiting for a human", file=out)
        return EXIT_OK
    if args.command == "waiting":
        for run in runs:
            print(f"{run.thread_id}  {run.pattern:<18} {_started(run)}  waits on: {_waits_on(run)}", file=out)
        return EXIT_OK
    print(
        f"{'THREAD':<36}  {'PATTERN':<18} {'STATUS':<10} {'STOP_REASON':<28} {'STARTED':<19}  MODEL", file=out
    )
    for run in runs:
        print(
            f"{run.thread_id:<36}  {run.pattern:<18} {run.status:<10} {run.stop_reason or '-':<28} "
            f"{_started(run):<19}  {run.model or '-'}",
            file=out,
        )
    if more:
        shown = f"runs {args.offset + 1}-{args.offset + len(runs)}"
        print(
            f"({shown}, most recently started first; next page: --offset {args.offset + len(runs)})", file=out
        )
    return EXIT_OK


def show_command(args: argparse.Namespace, out: TextIO) -> int:
    """``show``: one run's result, trace and history, read back from the store alone."""
    with open_checkpointer(args.db) as saver:
        try:
            record = load_run(saver, args.thread_id)
        except RunNotFound as exc:
            raise CliError(str(exc)) from None
    shown: dict[str, Any] = dict(record.result)
    shown["run_status"] = record.summary.status
    if record.summary.waiting_on:
        shown["waiting_for_human"] = record.summary.waiting_on
    if args.checkpoints:
        shown["checkpoints"] = record.checkpoints
    print(json.dumps(shown, indent=None if args.json else 2, ensure_ascii=False, default=str), file=out)
    return EXIT_OK


def _count(text: str) -> int:
    """A whole number, 0 or more (``--limit``, ``--offset``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=default_location(),
        help=f"run store: an SQLite file, postgresql://... or 'memory' (default: ${DB_ENV} or {DEFAULT_DB})",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agent-patterns", description="Run governed LLM agent patterns on LangGraph."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a pattern (its demo input unless --input is given)")
    run.add_argument("pattern", help=f"one of: {', '.join(PATTERNS)}")
    run.add_argument("--json", action="store_true", help="print only the result object on stdout")
    run.add_argument("--policy", metavar="FILE", help="policy fields (JSON or TOML) over defaults")
    run.add_argument("--input", metavar="FILE", help="the run's input (JSON or TOML)")
    run.add_argument("--thread-id", help="thread id for the checkpointer (default: a new UUID)")
    run.add_argument(
        "--human",
        action="store_true",
        help="pause for a human at escalations instead of the automatic approver (supervisor)",
    )
    _db_option(run)
    runs = sub.add_parser("runs", help="list the runs in the store")
    runs.add_argument("--pattern", choices=list(PATTERNS), help="only this pattern's runs")
    runs.add_argument(
        "--status", choices=["ok", "stopped", "waiting", "incomplete"], help="only runs in this state"
    )
    runs.add_argument(
        "--limit",
        type=_count,
        default=50,
        help="at most this many runs, the most recently started first (default 50; 0: all)",
    )
    runs.add_argument("--offset", type=_count, default=0, help="skip this many runs first (the next page)")
    runs.add_argument("--json", action="store_true", help="print a JSON list")
    _db_option(runs)
    waiting = sub.add_parser("waiting", help="list the runs waiting for a human, and what they wait on")
    waiting.add_argument("--json", action="store_true", help="print a JSON list")
    waiting.set_defaults(limit=0, offset=0)  # every waiting run
    _db_option(waiting)
    show = sub.add_parser("show", help="one run's result, trace and history, from the store")
    show.add_argument("thread_id")
    show.add_argument("--json", action="store_true", help="print compact JSON")
    show.add_argument("--checkpoints", action="store_true", help="add the thread's checkpoints, newest first")
    _db_option(show)
    for verb, text in (
        ("approve", "approve a waiting run's proposed action and resume it"),
        ("edit", "change the arguments of a waiting run's proposed action and resume it"),
        ("reject", "reject a waiting run's proposed action (the run stops: human_rejected)"),
        ("resume", "carry on an incomplete run (its process died mid-run) from its last checkpoint"),
    ):
        answer = sub.add_parser(verb, help=text)
        answer.add_argument("thread_id")
        if verb == "edit":
            answer.add_argument(
                "args", metavar="ARGS", help="the edited arguments, JSON (e.g. '{\"amount_usd\": 800}')"
            )
        if verb != "resume":
            answer.add_argument("--message", default="", help="a note kept in the run's history")
        answer.add_argument("--json", action="store_true", help="print only the result object on stdout")
        _db_option(answer)
    sub.add_parser("patterns", help="list the patterns")
    return parser


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "patterns":
        for name, pattern in PATTERNS.items():
            doc = (pattern.module.__doc__ or "").strip().splitlines()[0]
            print(f"{name:<20} {doc}")
        return EXIT_OK
    if args.command == "run":
        return run_pattern(args, sys.stdout, sys.stderr)
    if args.command in ("runs", "waiting"):
        return list_command(args, sys.stdout)
    if args.command == "show":
        return show_command(args, sys.stdout)
    return answer_run(args, sys.stdout, sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args)
    except CliError as exc:
        _fail(str(exc))
    except StoreError as exc:
        _fail(str(exc))
    except (sqlite3.Error, PsycopgError) as exc:
        _fail(str(_store_error(exc, args.db)))
    except BrokenPipeError:  # `agent-patterns runs | head`: the reader left, which is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
