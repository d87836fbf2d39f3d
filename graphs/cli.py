"""``agent-patterns``: run a pattern from the command line, answer runs that wait for a human.

Runs are kept in a run store (``--db``; default ``$AGENT_PATTERNS_DB`` or
``~/.agent-patterns/runs.sqlite``) so that they can be listed, read back and answered later, from
another process: ``runs``, ``show``, ``waiting``, ``approve`` / ``edit`` / ``reject``.

The CLI reads ``.env`` in the current folder first (``$AGENT_PATTERNS_ENV_FILE`` names another
file; empty: none); variables already set win.

Exit status: 0 the run ended ok, 1 it stopped (see ``stop_reason``), 2 bad usage, configuration or
store (one line, ``agent-patterns: error: ...``, nothing stored), 3 it waits for a human.

This module imports only the standard library and the light registry at start: LangGraph,
LangChain, pydantic and psycopg are imported by the commands that use them, so ``--help``,
``patterns`` and ``input`` answer at once.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tomllib
import uuid
from collections.abc import Callable, MutableMapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from graphs.inputs import (
    DEFAULT_MAX_INPUT_BYTES,
    MAX_INPUT_ENV,
    InputError,
    check_input,
    check_size,
    human_size,
)
from graphs.inputs import max_input_bytes as default_max_input_bytes
from graphs.progress import progress_line, summary_lines, terminal_width
from graphs.registry import PATTERNS, Pattern
from graphs.store import DB_ENV, DEFAULT_DB, StoreError, default_location, one_line, parse_location

if TYPE_CHECKING:
    from graphs.runs import RunSummary
    from policies.base import BasePolicy

EXIT_OK, EXIT_STOPPED, EXIT_USAGE, EXIT_WAITING = 0, 1, 2, 3
ENV_FILE_ENV = "AGENT_PATTERNS_ENV_FILE"
DEBUG_ENV = "AGENT_PATTERNS_DEBUG"


class CliError(Exception):
    """A problem with the command line or its files: one line, exit status 2."""


def _fail(message: str) -> NoReturn:
    print(f"agent-patterns: error: {' '.join(message.split())}", file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


def load_env_file(env: MutableMapping[str, str] | None = None) -> Path | None:
    """Load ``.env`` from the current folder (or ``$AGENT_PATTERNS_ENV_FILE``; empty: none) into
    the environment, as ``langgraph dev`` does; variables already set are kept. Returns the file
    loaded, if any."""
    env = os.environ if env is None else env
    name = env.get(ENV_FILE_ENV, ".env")
    if not name:
        return None
    path = Path(name).expanduser()
    if not path.is_file():
        return None
    from dotenv import dotenv_values

    try:
        values = dotenv_values(path, encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read environment file {str(path)!r}: {one_line(exc)}") from None
    for key, value in values.items():
        if value is not None and key not in env:
            env[key] = value
    return path


def _read_data_file(path: str, what: str, max_bytes: int | None = None) -> Any:
    """The JSON (or TOML, by suffix) in ``path``; at most ``max_bytes`` when given."""
    file = Path(path)
    try:
        if max_bytes is not None and file.is_file() and file.stat().st_size > max_bytes:
            raise CliError(
                f"{what} file {path!r} is {human_size(file.stat().st_size)}, over the cap of "
                f"{human_size(max_bytes)} (--max-input-bytes or ${MAX_INPUT_ENV})"
            )
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {what} file {path!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"{what} file {path!r} is not UTF-8 text: {exc.reason}") from None
    try:
        data = tomllib.loads(text) if file.suffix.lower() == ".toml" else json.loads(text)
    except (ValueError, RecursionError, tomllib.TOMLDecodeError) as exc:
        raise CliError(f"{what} file {path!r} is not valid {file.suffix or 'JSON'}: {exc}") from None
    return data


def load_policy(pattern: Pattern, path: str | None) -> BasePolicy:
    """The pattern's default policy, with the file's fields over it."""
    if path is None:
        return pattern.policy()
    from pydantic import ValidationError

    data = _read_data_file(path, "policy")
    if not isinstance(data, dict):
        raise CliError(f"policy file {path!r} must hold an object/table at the top level")
    try:
        return pattern.policy_with(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"])) or "(top level)"
        raise CliError(f"invalid policy file {path!r}: {where}: {first['msg']}") from None


def _store_error(exc: Exception, db: str) -> CliError:
    """A database failure in the middle of a command, as one line."""
    return CliError(f"run store {parse_location(db)} failed: {one_line(exc)}")


def _printer(
    progress: TextIO, width: int, interrupts: list[Any], header: str | None = None
) -> Callable[[str, Any], None]:
    """The ``on_update`` of a run: a progress line per node (after ``header``, once the run goes);
    interrupts collected in ``interrupts``."""
    pending = [header] if header else []

    def on_update(node: str, update: Any) -> None:
        while pending:
            print(pending.pop(), file=progress, flush=True)
        if node == "__interrupt__":
            interrupts.extend(i.value for i in update)
        else:
            print(progress_line(node, update, width), file=progress, flush=True)

    return on_update


def _json(value: Any, indent: int | None = None) -> str:
    """A result as JSON, its messages in LangChain's dict form (:func:`graphs.runs.result_json`)."""
    from graphs.runs import result_json

    return result_json(value, indent=indent)


def _finish(result: dict[str, Any], args: argparse.Namespace, out: TextIO, progress: TextIO) -> int:
    """The result: exactly its JSON on stdout with ``--json``, else a short summary."""
    if args.json:
        print(_json(result), file=out)
    else:
        for line in summary_lines(result, terminal_width(out)):
            print(line, file=out)
        thread = result.get("thread_id", args.__dict__.get("thread_id") or "")
        print(f"full result, trace and history: agent-patterns show {thread}{_db_arg(args.db)}", file=out)
    if result.get("waiting_for_human"):
        print(_resume_hint(result.get("thread_id", ""), args.db), file=progress)
        return EXIT_WAITING
    return EXIT_OK if result.get("status") == "ok" else EXIT_STOPPED


def _check_thread_free(saver: Any, thread_id: str, pattern: Pattern) -> None:
    """A new run may reuse a thread of the same pattern, never one that waits for a human."""
    from graphs.runs import RunNotFound, run_summary

    if saver.get_tuple({"configurable": {"thread_id": thread_id}}) is None:
        return  # a new thread (always, unless --thread-id names one)
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


def _pattern(name: str) -> Pattern:
    pattern = PATTERNS.get(name)
    if pattern is None:
        raise CliError(f"unknown pattern {name!r} (choose from {', '.join(PATTERNS)})")
    return pattern


def _max_bytes(args: argparse.Namespace) -> int:
    if getattr(args, "max_input_bytes", None) is not None:
        return int(args.max_input_bytes)
    try:
        return default_max_input_bytes()
    except InputError as exc:
        raise CliError(str(exc)) from None


def run_pattern(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    pattern = _pattern(args.pattern)
    if args.human and parse_location(args.db).kind == "memory":
        raise CliError(
            "--human needs a run store that outlives this command (an SQLite file or postgresql://...): "
            "with --db memory the paused run would be gone when it exits, and nothing could approve it"
        )
    max_bytes = _max_bytes(args)
    if args.input:
        try:
            inputs = check_input(
                pattern, _read_data_file(args.input, "input", max_bytes), max_bytes=max_bytes
            )
        except InputError as exc:
            raise CliError(f"input file {args.input!r}: {exc}") from None
    else:
        inputs = pattern.demo_input()
    policy = load_policy(pattern, args.policy)
    if pattern.cli_policy is not None:
        policy = pattern.cli_policy(policy, bool(args.human))
    thread_id = args.thread_id or str(uuid.uuid4())
    progress = err if args.json else out
    width = terminal_width(progress)
    from graphs.store import open_checkpointer, open_ledger

    with open_checkpointer(args.db) as saver, open_ledger(args.db) as ledger:
        where = parse_location(args.db)
        print(f"{pattern.name}: thread {thread_id} (runs kept in {where})", file=progress, flush=True)
        from graphs.runs import run_config, stream_values  # LangGraph, LangChain: after the header

        _check_thread_free(saver, thread_id, pattern)
        try:
            graph = pattern.build(checkpointer=saver, llm=_chat_model(), policy=policy, ledger=ledger)
        except ValueError as exc:  # a policy that does not fit the pattern's tools
            raise CliError(str(exc)) from None
        interrupted: list[Any] = []
        values = stream_values(
            graph, inputs, run_config(thread_id, policy), _printer(progress, width, interrupted)
        )
    from graphs.registry import run_result

    result = run_result(graph, values)
    if interrupted:
        result["waiting_for_human"] = interrupted
    return _finish(result, args, out, progress)


def _chat_model() -> Any:
    from nodes.model import ModelConfigError, get_chat_model

    try:
        return get_chat_model()
    except ModelConfigError as exc:
        raise CliError(str(exc)) from None


def _db_arg(db: str) -> str:
    return "" if db == default_location() else f" --db {db}"


def _resume_hint(thread_id: str, db: str) -> str:
    where = _db_arg(db)
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
        except (ValueError, RecursionError) as exc:
            raise CliError(f"edit: ARGS must be a JSON object of the action's arguments: {exc}") from None
        if not isinstance(edited, dict) or not edited:
            raise CliError("edit: ARGS must be a non-empty JSON object of the action's arguments")
        answer["edited_action"] = {"args": edited}
    try:
        check_size(answer, _max_bytes(args), "the answer")
    except InputError as exc:
        raise CliError(f"{args.command}: {exc}") from None
    return answer


def answer_run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``approve`` / ``edit`` / ``reject``: resume a waiting run from this process; ``resume``:
    carry on a run whose process died mid-run."""
    answer = None if args.command == "resume" else _answer(args)
    progress = err if args.json else out
    from graphs.runs import NotIncomplete, NotWaiting, RunNotFound, continue_run, resume_run
    from graphs.store import open_checkpointer, open_ledger

    llm = _chat_model()
    header = f"{args.thread_id}: {args.command} (runs kept in {parse_location(args.db)})"
    on_update = _printer(progress, terminal_width(progress), [], header)
    with open_checkpointer(args.db) as saver, open_ledger(args.db) as ledger:
        try:
            if answer is None:
                result = continue_run(saver, args.thread_id, llm=llm, ledger=ledger, on_update=on_update)
            else:
                result = resume_run(
                    saver, args.thread_id, answer, llm=llm, ledger=ledger, on_update=on_update
                )
        except (RunNotFound, NotWaiting, NotIncomplete) as exc:
            raise CliError(str(exc)) from None
    return _finish(result, args, out, progress)


def _started(summary: RunSummary) -> str:
    if summary.started_at is None:
        return "-"
    return datetime.fromtimestamp(summary.started_at).isoformat(sep=" ", timespec="seconds")


def _waits_on(summary: RunSummary) -> str:
    from graphs.progress import action_text

    parts = []
    for request in summary.waiting_on:
        request = request if isinstance(request, dict) else {"reason": str(request)}
        parts.append(f"{request.get('reason', '?')}: {action_text(request.get('action'))}")
    return "; ".join(parts)


def list_command(args: argparse.Namespace, out: TextIO) -> int:
    """``runs`` and ``waiting``: a table, or JSON with ``--json``."""
    from graphs.runs import list_runs, waiting_runs
    from graphs.store import open_checkpointer

    with open_checkpointer(args.db) as saver:
        if args.command == "waiting":
            runs = waiting_runs(saver)
        else:
            page = None if args.limit == 0 else args.limit + 1  # one more: is there a next page?
            runs = list_runs(saver, pattern=args.pattern, status=args.status, limit=page, offset=args.offset)
    more = args.limit > 0 and len(runs) > args.limit  # `waiting` lists every run (limit 0)
    runs = runs[: args.limit] if more else runs
    if args.json:
        print(_json([r.as_dict() for r in runs]), file=out)
        return EXIT_OK
    store = f"run store: {parse_location(args.db)}"
    if not runs:
        print(
            "no runs" if args.command == "runs" else "no run is waiting for a human", f"({store})", file=out
        )
        return EXIT_OK
    if args.command == "waiting":
        for run in runs:
            print(f"{run.thread_id}  {run.pattern:<18} {_started(run)}  waits on {_waits_on(run)}", file=out)
        print(f"({store})", file=out)
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
    shown = f"runs {args.offset + 1}-{args.offset + len(runs)}, most recently started first"
    if more:
        shown += f"; next page: --offset {args.offset + len(runs)}"
    print(f"({shown}; {store})", file=out)
    return EXIT_OK


def show_command(args: argparse.Namespace, out: TextIO) -> int:
    """``show``: one run's result, trace and history, read back from the store alone."""
    from graphs.runs import RunNotFound, load_run
    from graphs.store import open_checkpointer

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
    print(_json(shown, None if args.json else 2), file=out)
    return EXIT_OK


def patterns_command(args: argparse.Namespace, out: TextIO) -> int:
    """``patterns``: each pattern, what it shows, and its input keys."""
    if args.json:
        listing = [
            {
                "name": p.name,
                "summary": p.summary,
                "input": {k.name: {"type": k.type, "required": k.required, "help": k.help} for k in p.inputs},
            }
            for p in PATTERNS.values()
        ]
        print(json.dumps(listing, ensure_ascii=False), file=out)
        return EXIT_OK
    for pattern in PATTERNS.values():
        print(f"{pattern.name:<20} {pattern.summary}", file=out)
        for key in pattern.inputs:
            print(f"  {key.describe():<34} {key.help}", file=out)
    print(
        "\nThe demo input of a pattern, as a file to edit: agent-patterns input PATTERN > input.json",
        file=out,
    )
    print("Then: agent-patterns run PATTERN --input input.json", file=out)
    return EXIT_OK


def input_command(args: argparse.Namespace, out: TextIO) -> int:
    """``input``: a pattern's demo input as JSON, to edit and pass back with ``run --input``."""
    text = json.dumps(_pattern(args.pattern).demo_input(), indent=2, ensure_ascii=False) + "\n"
    if args.output in (None, "-"):
        out.write(text)
        return EXIT_OK
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {args.output!r}: {exc.strerror or exc}") from None
    print(
        f"wrote {args.output}; run it with: agent-patterns run {args.pattern} --input {args.output}", file=out
    )
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


def _positive(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=default_location(),
        help=f"run store: an SQLite file, postgresql://... or 'memory' (default: ${DB_ENV} or {DEFAULT_DB}; "
        f"now {parse_location(default_location())})",
    )


def _max_input_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-input-bytes",
        type=_positive,
        metavar="N",
        help=f"largest input (or human answer) stored, as compact JSON (default ${MAX_INPUT_ENV} "
        f"or {DEFAULT_MAX_INPUT_BYTES})",
    )


EPILOG = """\
first steps:
  agent-patterns run reflection              run a pattern's demo, node by node
  agent-patterns patterns                    the patterns and their input keys
  agent-patterns input rag > q.json          a demo input to edit; then: run rag --input q.json
  agent-patterns run supervisor --human      pause for a human (exit 3); then: waiting, approve

exit status: 0 ok, 1 stopped (see stop_reason), 2 error (one line), 3 waiting for a human.
The model: OPENAI_API_KEY (and OPENAI_MODEL, OPENAI_BASE_URL) from the environment or ./.env;
without a key every run uses the deterministic offline model.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agent-patterns",
        description="Run governed LLM agent patterns on LangGraph: the LLM proposes, the gateway disposes.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = sub.add_parser("run", help="run a pattern (its demo input unless --input is given)")
    run.add_argument("pattern", help=f"one of: {', '.join(PATTERNS)}")
    run.add_argument("--json", action="store_true", help="print only the result object on stdout")
    run.add_argument("--policy", metavar="FILE", help="policy fields (JSON or TOML) over defaults")
    run.add_argument(
        "--input", metavar="FILE", help="the run's input (JSON or TOML; see `agent-patterns input PATTERN`)"
    )
    run.add_argument("--thread-id", help="thread id for the checkpointer (default: a new UUID)")
    run.add_argument(
        "--human",
        action="store_true",
        help="pause for a human at escalations instead of the automatic approver (supervisor)",
    )
    _max_input_option(run)
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
            _max_input_option(answer)
        answer.add_argument("--json", action="store_true", help="print only the result object on stdout")
        _db_option(answer)
    patterns = sub.add_parser("patterns", help="list the patterns and their input keys")
    patterns.add_argument("--json", action="store_true", help="print a JSON list")
    demo = sub.add_parser("input", help="print a pattern's demo input (JSON), a file to edit for run --input")
    demo.add_argument("pattern", help=f"one of: {', '.join(PATTERNS)}")
    demo.add_argument("-o", "--output", metavar="FILE", help="write it to FILE instead of stdout")
    return parser


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "patterns":
        return patterns_command(args, sys.stdout)
    if args.command == "input":
        return input_command(args, sys.stdout)
    if args.command == "run":
        return run_pattern(args, sys.stdout, sys.stderr)
    if args.command in ("runs", "waiting"):
        return list_command(args, sys.stdout)
    if args.command == "show":
        return show_command(args, sys.stdout)
    return answer_run(args, sys.stdout, sys.stderr)


def _database_error(exc: BaseException) -> bool:
    psycopg = sys.modules.get("psycopg")
    return isinstance(exc, sqlite3.Error) or (psycopg is not None and isinstance(exc, psycopg.Error))


def main(argv: list[str] | None = None) -> int:
    try:
        load_env_file()
    except CliError as exc:
        _fail(str(exc))
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args)
    except (CliError, StoreError) as exc:
        _fail(str(exc))
    except BrokenPipeError:  # `agent-patterns runs | head`: the reader left, which is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        print("agent-patterns: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if _database_error(exc):
            _fail(str(_store_error(exc, args.db)))
        unreadable = sys.modules.get("graphs.runs")
        if unreadable is not None and isinstance(exc, unreadable.UnreadableRun):
            _fail(f"run store {parse_location(args.db)}: {exc}")
        if os.environ.get(DEBUG_ENV):
            raise
        _fail(f"unexpected {type(exc).__name__}: {one_line(exc)} (set {DEBUG_ENV}=1 for the traceback)")


if __name__ == "__main__":
    raise SystemExit(main())
