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
import contextlib
import json
import os
import sqlite3
import sys
import textwrap
import tomllib
import typing
import uuid
from collections.abc import Callable, Iterator, MutableMapping
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


class PipeSafe:
    """A stream whose reader may leave (``agent-patterns run supervisor | head -2``): once a write
    finds the pipe closed, the rest goes to ``/dev/null``, so the run it reports on carries on to
    its end instead of stopping half-way."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.reader_left = False

    def _drop(self) -> None:
        self.reader_left = True
        with contextlib.suppress(OSError, ValueError):  # no descriptor: nothing flushes at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), self.stream.fileno())

    def write(self, text: str) -> int:
        if not self.reader_left:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                self._drop()
        return len(text)

    def flush(self) -> None:
        if not self.reader_left:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._drop()

    def fileno(self) -> int:
        return self.stream.fileno()

    def isatty(self) -> bool:
        return self.stream.isatty()


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


#: Suffixes of formats the CLI does not read, by the name it gives them.
_UNREAD_FORMATS = {".yaml": "YAML", ".yml": "YAML", ".ini": "INI", ".cfg": "INI", ".env": "dotenv"}


def _read_data_file(path: str, what: str, max_bytes: int | None = None) -> Any:
    """The JSON (or TOML, by a ``.toml`` suffix) in ``path``; at most ``max_bytes`` when given."""
    file = Path(path)
    unread = _UNREAD_FORMATS.get(file.suffix.lower())
    if unread:
        raise CliError(
            f"{what} file {path!r}: {unread} is not read; write it as JSON, or as TOML in a .toml file"
        )
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
        kind = "TOML" if file.suffix.lower() == ".toml" else "JSON (only a .toml file is read as TOML)"
        raise CliError(f"{what} file {path!r} is not valid {kind}: {exc}") from None
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
        message = f"invalid policy file {path!r}: {where}: {first['msg']}"
        if first["type"] == "extra_forbidden" and len(first["loc"]) == 1:
            message += f"; the fields of the {pattern.name} policy: {', '.join(pattern.model.model_fields)}"
        raise CliError(f"{message} (see agent-patterns policy {pattern.name})") from None


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
    llm = _chat_model()  # its settings are checked before anything is printed or stored
    _check_store_folder(args.db)
    thread_id = args.thread_id or str(uuid.uuid4())
    progress = err if args.json else out
    width = terminal_width(progress)
    from graphs.store import open_checkpointer, open_ledger, open_store

    with (
        open_checkpointer(args.db, writable=True) as saver,
        open_ledger(args.db) as ledger,
        open_store(args.db) as store,
    ):
        where = parse_location(args.db)
        print(f"{pattern.name}: thread {thread_id} (runs kept in {where})", file=progress, flush=True)
        from graphs.runs import run_config, stream_values  # LangGraph, LangChain: after the header

        _check_thread_free(saver, thread_id, pattern)
        try:
            graph = pattern.build(checkpointer=saver, llm=llm, policy=policy, ledger=ledger, store=store)
        except ValueError as exc:  # a policy that does not fit the pattern's tools
            raise CliError(str(exc)) from None
        interrupted: list[Any] = []
        args.running = thread_id  # from here on, Ctrl-C leaves a run to resume
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
    from graphs.store import open_checkpointer, open_ledger, open_store

    llm = _chat_model()
    header = f"{args.thread_id}: {args.command} (runs kept in {parse_location(args.db)})"
    on_update = _printer(progress, terminal_width(progress), [], header)
    with (
        open_checkpointer(args.db, writable=True) as saver,
        open_ledger(args.db) as ledger,
        open_store(args.db) as store,
    ):
        args.running = args.thread_id
        kept = {"llm": llm, "ledger": ledger, "store": store, "on_update": on_update}
        try:
            if answer is None:
                result = continue_run(saver, args.thread_id, **kept)
            else:
                result = resume_run(saver, args.thread_id, answer, **kept)
        except (RunNotFound, NotWaiting, NotIncomplete) as exc:
            raise CliError(str(exc)) from None
        refused = _refused_answer(result, saver, args.thread_id)
    if answer is not None and refused:
        print(f"{args.command} refused: {refused}", file=progress, flush=True)
    return _finish(result, args, out, progress)


def _attempts(request: Any, saver: Any, thread_id: str) -> str:
    """``attempt N of M`` of a request asked again (M: the run's ``human_answer_attempts``)."""
    from graphs.runs import recorded_policy

    attempt = request.get("attempt")
    most = getattr(recorded_policy(saver, thread_id), "human_answer_attempts", None)
    return f"attempt {attempt} of {most}" if most else f"attempt {attempt}"


def _refused_answer(result: dict[str, Any], saver: Any, thread_id: str) -> str | None:
    """When the run asks again because the answer could not be applied: the problem, and which
    attempt the next answer is."""
    for request in result.get("waiting_for_human") or []:
        if isinstance(request, dict) and request.get("problem"):
            return f"{request['problem']} ({_attempts(request, saver, thread_id)})"
    return None


def _started(summary: RunSummary) -> str:
    if summary.started_at is None:
        return "-"
    return datetime.fromtimestamp(summary.started_at).isoformat(sep=" ", timespec="seconds")


def _waits_on(summary: RunSummary, saver: Any) -> str:
    from graphs.progress import action_text

    parts = []
    for request in summary.waiting_on:
        request = request if isinstance(request, dict) else {"reason": str(request)}
        part = f"{request.get('reason', '?')}: {action_text(request.get('action'))}"
        if request.get("problem"):
            attempts = _attempts(request, saver, summary.thread_id)
            part += f" (last answer refused: {request['problem']}; next: {attempts})"
        parts.append(part)
    return "; ".join(parts)


def list_command(args: argparse.Namespace, out: TextIO) -> int:
    """``runs`` and ``waiting``: a table, or JSON with ``--json``."""
    from graphs.runs import list_runs, waiting_runs
    from graphs.store import open_checkpointer

    with open_checkpointer(args.db) as saver:
        if args.command == "waiting":
            runs = waiting_runs(saver)
            waits_on = {run.thread_id: _waits_on(run, saver) for run in runs}
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
            waits = waits_on[run.thread_id]
            print(f"{run.thread_id}  {run.pattern:<18} {_started(run)}  waits on {waits}", file=out)
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


def policy_command(args: argparse.Namespace, out: TextIO) -> int:
    """``policy``: the fields a policy file may set, with the CLI's defaults and what each does."""
    pattern = _pattern(args.pattern)
    defaults = pattern.policy().model_dump(mode="json")
    fields = {
        name: {"default": defaults.get(name), "description": info.description or ""}
        for name, info in pattern.model.model_fields.items()
    }
    if args.json:
        print(json.dumps(fields, ensure_ascii=False), file=out)
        return EXIT_OK
    print(f"The {pattern.name} policy: the fields a --policy file (JSON or TOML) may set.", file=out)
    for name, field in fields.items():
        default = json.dumps(field["default"], ensure_ascii=False, sort_keys=True)
        shown = default if len(default) <= 60 else "(long: see --json)"
        print(f"  {name} = {shown}", file=out)
        for line in textwrap.wrap(str(field["description"]), terminal_width(out) - 6):
            print(f"      {line}", file=out)
    if pattern.cli_policy is not None:
        print("(run turns auto_approver_enabled on unless --human is given or the file sets it)", file=out)
    example = f"printf 'max_seconds = 10\\n' > p.toml; agent-patterns run {pattern.name} --policy p.toml"
    print(f"\nExample: {example}", file=out)
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
    fields = sub.add_parser("policy", help="list a pattern's policy fields, their defaults and meaning")
    fields.add_argument("pattern", help=f"one of: {', '.join(PATTERNS)}")
    fields.add_argument("--json", action="store_true", help="print a JSON object of the fields")
    demo = sub.add_parser("input", help="print a pattern's demo input (JSON), a file to edit for run --input")
    demo.add_argument("pattern", help=f"one of: {', '.join(PATTERNS)}")
    demo.add_argument("-o", "--output", metavar="FILE", help="write it to FILE instead of stdout")
    audit = sub.add_parser("audit", help="every run of a thread by turn: calls, refusals, trace, approvers")
    audit.add_argument("thread_id")
    audit.add_argument("--turn", type=_positive, help="only the run(s) of this turn (1: the first request)")
    audit.add_argument("--json", action="store_true", help="print JSON (every row of every run)")
    _db_option(audit)
    return parser


@contextlib.contextmanager
def _no_model() -> Iterator[None]:
    """Reading a store calls no model: while ``runs``, ``waiting`` and ``show`` build the graphs
    that decode a run's state, a real model's settings are left aside (neither checked nor
    loaded), so a bad model setting does not stop a read and a key does not slow it."""
    key = os.environ.pop("OPENAI_API_KEY", None)
    try:
        yield
    finally:
        if key is not None:
            os.environ["OPENAI_API_KEY"] = key


def _check_store_folder(db: str) -> None:
    """The built-in default store's folders are made on first use; for any other store at most
    its own folder is, in a folder that exists (a mistyped ``--db`` is an error, not a new tree of
    folders)."""
    where = parse_location(db)
    if where.kind != "sqlite" or db == DEFAULT_DB:
        return
    folder = Path(where.target).parent
    if not folder.exists() and not folder.parent.is_dir():
        raise CliError(f"the folder of run store {where} does not exist: create it first (mkdir -p {folder})")


def _dispatch(args: argparse.Namespace) -> int:
    out, err = PipeSafe(sys.stdout), PipeSafe(sys.stderr)
    stdout, stderr = typing.cast(TextIO, out), typing.cast(TextIO, err)
    if args.command == "patterns":
        return patterns_command(args, stdout)
    if args.command == "input":
        return input_command(args, stdout)
    if args.command == "policy":
        return policy_command(args, stdout)
    if args.command == "run":  # checks its input, policy and model first, then the store
        return run_pattern(args, stdout, stderr)
    _check_store_folder(args.db)
    if args.command in ("runs", "waiting"):
        with _no_model():
            return list_command(args, stdout)
    if args.command == "show":
        with _no_model():
            return show_command(args, stdout)
    if args.command == "audit":
        from graphs.audit import audit_command

        return audit_command(args, stdout)
    return answer_run(args, stdout, stderr)


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
        running = getattr(args, "running", None)
        if running and parse_location(args.db).kind != "memory":
            print(
                f"agent-patterns: interrupted; the run is kept as it stood. Carry it on with: "
                f"agent-patterns resume {running}{_db_arg(args.db)}",
                file=sys.stderr,
            )
        else:
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
