"""``agent-patterns``: run a pattern from the command line, answer runs that wait for a human.

Runs are kept in a run store (``--db``; default ``$AGENT_PATTERNS_DB`` or
``~/.agent-patterns/runs.sqlite``) so that they can be listed, read back and answered later, from
another process: ``runs``, ``show``, ``waiting``, ``approve`` / ``edit`` / ``reject``,
``reject-expired`` (every question whose time ran out, for cron).

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
import os
import sys
import typing
from collections.abc import Iterator
from typing import TextIO

from apps.cli.cedar import add_cedar_parser
from apps.cli.commands import (
    answer_run,
    default_reviewer,
    input_command,
    list_command,
    patterns_command,
    policy_command,
    resolve_thread,
    run_pattern,
    show_command,
)
from apps.cli.errors import (
    DEBUG_ENV,
    EXIT_OK,
    EXIT_STOPPED,
    EXIT_USAGE,
    EXIT_WAITING,
    CliError,
    database_error,
    exit_with_error,
    store_error,
)
from apps.cli.expiry import add_reject_expired_parser
from apps.cli.files import ENV_FILE_ENV, check_store_file, check_store_folder, load_env_file, load_policy
from apps.cli.inputs import DEFAULT_MAX_INPUT_BYTES, MAX_INPUT_ENV, count_arg, positive_arg
from apps.cli.printable import printable
from apps.cli.probe import add_probe_parser, probe_command
from apps.cli.shadow import add_shadow_parser
from apps.cli.signals import PipeSafe, discard_stdout, report_interrupted
from apps.gateway.command import (
    GatewayUsageError,
    add_gateway_parser,
    gateway_command,
    pins_command,
    policy_schema_command,
)
from graphs.registry import AGENTS, PATTERNS, AgentRegistryError
from nodes.store import (
    DB_ENV,
    DEFAULT_DB,
    StoreError,
    default_location,
    existing_store,
    one_line,
    parse_location,
)

__all__ = [
    "DEBUG_ENV",
    "ENV_FILE_ENV",
    "EPILOG",
    "EXIT_OK",
    "EXIT_STOPPED",
    "EXIT_USAGE",
    "EXIT_WAITING",
    "CliError",
    "PipeSafe",
    "answer_run",
    "build_parser",
    "input_command",
    "list_command",
    "load_env_file",
    "load_policy",
    "main",
    "patterns_command",
    "policy_command",
    "run_pattern",
    "show_command",
]


def _seconds(text: str) -> float:
    """Seconds, 0 or more (``--wait``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds, 0 or more, not {text}")
    return value


def _wait_option(parser: argparse.ArgumentParser, default: float) -> None:
    parser.add_argument(
        "--wait",
        type=_seconds,
        default=default,
        metavar="SECONDS",
        help=f"one run at a time per thread: wait this long for a run going on the thread, then "
        f"fail with 'thread busy' (default {default:g})",
    )


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
        type=positive_arg,
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
    run.add_argument(
        "--policy",
        metavar="FILE",
        help="policy fields (JSON or TOML) over the demo's policy (see: agent-patterns policy PATTERN)",
    )
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
    _wait_option(run, 0)
    _db_option(run)
    runs = sub.add_parser("runs", help="list the runs in the store")
    runs.add_argument(
        "--pattern",
        metavar="NAME",
        help=f"only this pattern's (or agent's) runs: {', '.join([*PATTERNS, *AGENTS])}, or a registered one",
    )
    runs.add_argument(
        "--status", choices=["ok", "stopped", "waiting", "incomplete"], help="only runs in this state"
    )
    runs.add_argument(
        "--limit",
        type=count_arg,
        default=50,
        help="at most this many runs, the most recently started first (default 50; 0: all)",
    )
    runs.add_argument("--offset", type=count_arg, default=0, help="skip this many runs first (the next page)")
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
            answer.add_argument(
                "--as",
                dest="reviewer",
                metavar="NAME",
                default=None,
                help="who answers, kept in the audit (default: $AGENT_PATTERNS_REVIEWER, else the OS user)",
            )
            _max_input_option(answer)
        answer.add_argument("--json", action="store_true", help="print only the result object on stdout")
        _wait_option(answer, 0 if verb == "resume" else 60)
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
    audit.add_argument("thread_id", nargs="?", help="the thread (with --verify: every thread when none)")
    audit.add_argument(
        "--turn", type=positive_arg, help="only the run(s) of this turn (1: the first request)"
    )
    audit.add_argument("--json", action="store_true", help="print JSON (every row of every run)")
    audit.add_argument(
        "--verify",
        action="store_true",
        help="check the hash chain of the thread's audit log (every thread's when none is named): "
        "exit 1 naming each row edited, removed, inserted or reordered",
    )
    audit.add_argument(
        "--strict",
        action="store_true",
        help="with --verify: a thread written before the chain existed fails too",
    )
    audit.add_argument(
        "--head",
        action="store_true",
        help="print each thread's chain head (its last row's place and hash, and the key id that "
        "sealed it) as JSON lines, to anchor elsewhere: a later --verify against an anchored head "
        "shows a log cut back or rewritten before it",
    )
    from apps.cli.export import add_export_options

    add_export_options(audit)
    _db_option(audit)
    add_shadow_parser(sub, _db_option)
    add_probe_parser(sub)
    add_cedar_parser(sub)
    add_reject_expired_parser(sub, _db_option, _wait_option)
    add_gateway_parser(sub, _db_option)
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


@contextlib.contextmanager
def _skipped_threads(err: TextIO) -> Iterator[None]:
    """``runs`` and ``waiting`` list the runs of a store that also holds a damaged thread: each
    thread left out is named on stderr, one line each (``agent-patterns: warning: thread ...
    skipped: ...``), once the list is printed. Other warnings go on as they would have."""
    import warnings

    from apps.operations.runs import UnreadableRunWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UnreadableRunWarning)
        yield
    for warning in caught:
        if isinstance(warning.message, UnreadableRunWarning):
            print(f"agent-patterns: warning: {printable(str(warning.message))}", file=err)
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)


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
    if args.command == "probe":  # runs in memory: no store
        return probe_command(args, stdout)
    if args.command == "policy-schema":
        return policy_schema_command(args, stdout)
    if args.command == "cedar":
        from apps.cli.cedar import cedar_command

        return cedar_command(args, stdout)
    if args.command == "gateway" and args.action == "pins":  # the store's pins: no upstream
        check_store_folder(args.db)
        check_store_file(args.db)
        reviewer = default_reviewer(args.reviewer) if args.approve else ""
        return pins_command(args, stdout, reviewer)
    if args.command == "gateway":  # MCP on stdout (stdio): everything else on stderr
        check_store_folder(args.db)
        return gateway_command(args, stderr)
    check_store_folder(args.db)
    check_store_file(args.db)
    if args.command in (
        "audit",
        "shadow-report",
    ):  # they only read: no store there is an error, not an empty report
        existing_store(args.db)
    if getattr(args, "thread_id", None) is not None:  # show, audit, the answers: a unique prefix will do
        args.thread_id = resolve_thread(args)
    if args.command in ("runs", "waiting"):
        with _no_model(), _skipped_threads(stderr):
            return list_command(args, stdout)
    if args.command == "show":
        with _no_model():
            return show_command(args, stdout)
    if args.command == "audit":
        from apps.cli.audit import audit_command

        return audit_command(args, stdout)
    if args.command == "shadow-report":
        from apps.cli.shadow import shadow_command

        return shadow_command(args, stdout)
    if args.command == "reject-expired":
        from apps.cli.expiry import reject_expired_command

        return reject_expired_command(args, stdout, stderr, reviewer=default_reviewer(args.reviewer))
    return answer_run(args, stdout, stderr)


def main(argv: list[str] | None = None) -> int:
    try:
        load_env_file()
    except CliError as exc:
        exit_with_error(str(exc))
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args)
    except (CliError, StoreError, GatewayUsageError, AgentRegistryError) as exc:
        exit_with_error(str(exc))
    except BrokenPipeError:  # `agent-patterns runs | head`: the reader left, which is fine
        discard_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        return report_interrupted(args)
    except Exception as exc:
        if database_error(exc):
            exit_with_error(str(store_error(exc, args.db)))
        unreadable = sys.modules.get("apps.operations.runs")
        if unreadable is not None and isinstance(exc, unreadable.UnreadableRun):
            exit_with_error(f"run store {parse_location(args.db)}: {exc}")
        if os.environ.get(DEBUG_ENV):
            raise
        exit_with_error(
            f"unexpected {type(exc).__name__}: {one_line(exc)} (set {DEBUG_ENV}=1 for the traceback)"
        )


if __name__ == "__main__":
    raise SystemExit(main())
