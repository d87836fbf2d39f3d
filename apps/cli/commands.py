"""The CLI's commands: ``run``, the answers (``approve`` / ``edit`` / ``reject`` / ``resume``),
``runs`` / ``waiting``, ``show``, ``patterns``, ``input`` and ``policy``.

Each imports LangGraph, LangChain and pydantic only when it runs (see :mod:`apps.cli.main`)."""

from __future__ import annotations

import argparse
import getpass
import json
import os
import textwrap
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

from apps.cli.errors import EXIT_OK, EXIT_STOPPED, CliError
from apps.cli.expiry import expiry_json, expiry_text
from apps.cli.files import check_store_folder, load_policy, read_data_file
from apps.cli.inputs import InputError, check_input, check_size
from apps.cli.inputs import max_input_bytes as default_max_input_bytes
from apps.cli.output import (
    print_result,
    printable_result_json,
    progress_printer,
    refused_answer_text,
    started_text,
    waits_on_text,
)
from apps.cli.printable import printable
from apps.cli.progress import terminal_width
from graphs.registry import PATTERNS, Pattern
from nodes.store import parse_location
from policies.human import SYSTEM_PREFIX, reviewer_problem


def _check_thread_free(saver: Any, thread_id: str, pattern: Pattern) -> None:
    """A new run may reuse a thread of the same pattern, never one that waits for a human."""
    from apps.operations.runs import RunNotFound, run_summary

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
    if summary.status == "incomplete":  # its process died mid-run (the thread's turn is free)
        raise CliError(
            f"thread {thread_id!r}: its last run did not finish (its process died mid-run): carry it "
            f"on first with `agent-patterns resume {thread_id}` (a new run would drop a side effect "
            "it had started)"
        )


#: The fewest characters of a thread id a command takes as its prefix.
MIN_PREFIX = 4


def resolve_thread(args: argparse.Namespace) -> str:
    """The thread a command names (``show``, ``audit``, the answers): the thread of that id, else
    the one thread whose id starts with it (at least :data:`MIN_PREFIX` characters: the id a run
    prints, cut where a terminal or a doc cut it). A prefix of several threads is an error naming
    them; an id no thread starts with is left to the command, which says it finds none."""
    from apps.operations.runs import has_thread, stored_threads
    from nodes.store import open_checkpointer

    given = args.thread_id
    with open_checkpointer(args.db) as saver:
        if has_thread(saver, given):
            return str(given)
        found = [t for t in stored_threads(saver) if len(given) >= MIN_PREFIX and t.startswith(given)]
    if len(found) == 1:
        return found[0]
    if found:
        shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
        raise CliError(f"thread id prefix {given!r} matches {len(found)} threads: {shown}; give more of it")
    return str(given)  # none: the command says it finds no such thread


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
            inputs = check_input(pattern, read_data_file(args.input, "input", max_bytes), max_bytes=max_bytes)
        except InputError as exc:
            raise CliError(f"input file {args.input!r}: {exc}") from None
    else:
        inputs = pattern.demo_input()
    policy = load_policy(pattern, args.policy)
    if pattern.cli_policy is not None:
        policy = pattern.cli_policy(policy, bool(args.human))
    llm = _chat_model()  # its settings are checked before anything is printed or stored
    check_store_folder(args.db)
    thread_id = args.thread_id or str(uuid.uuid4())
    progress = err if args.json else out
    width = terminal_width(progress)
    from nodes.store import open_checkpointer, open_ledger, open_store

    with (
        open_checkpointer(args.db, writable=True) as saver,
        open_ledger(args.db) as ledger,
        open_store(args.db) as store,
    ):
        where = parse_location(args.db)
        print(
            printable(f"{pattern.name}: thread {thread_id} (runs kept in {where})"), file=progress, flush=True
        )
        from apps.operations.runs import run_config, stream_values  # LangGraph, LangChain: after the header
        from nodes.journal import ThreadBusy
        from nodes.store import journal_for

        with ExitStack() as held:  # one run at a time per thread, whichever process starts it
            try:
                held.enter_context(journal_for(saver).turn(thread_id, wait=args.wait))
            except ThreadBusy as exc:
                raise CliError(str(exc)) from None
            _check_thread_free(saver, thread_id, pattern)
            try:
                graph = pattern.build(checkpointer=saver, llm=llm, policy=policy, ledger=ledger, store=store)
            except ValueError as exc:  # a policy that does not fit the pattern's tools
                raise CliError(str(exc)) from None
            interrupted: list[Any] = []
            args.running = thread_id  # from here on, Ctrl-C leaves a run to resume
            values = stream_values(
                graph, inputs, run_config(thread_id, policy), progress_printer(progress, width, interrupted)
            )
    from graphs.registry import run_result

    result = run_result(graph, values)
    if interrupted:
        result["waiting_for_human"] = interrupted
    return print_result(result, args, out, progress)


def _chat_model() -> Any:
    from nodes.model import ModelConfigError, get_chat_model

    try:
        return get_chat_model()
    except ModelConfigError as exc:
        raise CliError(str(exc)) from None


#: The environment variable that names the reviewer of a CLI answer given without ``--as``.
REVIEWER_ENV = "AGENT_PATTERNS_REVIEWER"


def default_reviewer(given: str | None = None) -> str:
    """Who answers from a terminal: ``given`` (``--as``), else ``$AGENT_PATTERNS_REVIEWER``, else
    the OS user, so that every answer names someone. A name that is no short name is refused."""
    name = given if given is not None else os.environ.get(REVIEWER_ENV) or os_user()
    problem = reviewer_problem(name)
    if problem is None and name.strip().startswith(SYSTEM_PREFIX):
        problem = (
            f"names starting {SYSTEM_PREFIX!r} are the system's (a timeout's, a sweep's), not a reviewer's"
        )
    if problem is not None:
        raise CliError(f"--as: {problem}")
    return name.strip()


def os_user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name and no passwd entry (a bare container)
        return f"uid-{os.getuid()}" if hasattr(os, "getuid") else "unknown"


def _answer(args: argparse.Namespace) -> dict[str, Any]:
    # the OS account beside the typed name: what four-eyes counts (two names from one account are one)
    answer: dict[str, Any] = {
        "type": args.command,
        "reviewer": default_reviewer(args.reviewer),
        "account": os_user(),
    }
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
    from apps.operations.runs import (
        NotIncomplete,
        NotWaiting,
        RunNotFound,
        answered_late,
        continue_run,
        expired_refusals,
        resume_run,
        thread_values,
    )
    from nodes.journal import ThreadBusy
    from nodes.store import open_checkpointer, open_ledger, open_store

    llm = _chat_model()
    header = f"{args.thread_id}: {args.command} (runs kept in {parse_location(args.db)})"
    on_update = progress_printer(progress, terminal_width(progress), [], header)
    with (
        open_checkpointer(args.db, writable=True) as saver,
        open_ledger(args.db) as ledger,
        open_store(args.db) as store,
    ):
        args.running = args.thread_id
        kept = {"llm": llm, "ledger": ledger, "store": store, "on_update": on_update, "wait": args.wait}
        try:
            if answer is None:
                result = continue_run(saver, args.thread_id, **kept)
            else:
                expired_before = expired_refusals(thread_values(saver, args.thread_id))
                result = resume_run(saver, args.thread_id, answer, **kept)
        except (RunNotFound, NotWaiting, NotIncomplete, ThreadBusy) as exc:
            raise CliError(str(exc)) from None
        refused = refused_answer_text(result, saver, args.thread_id)
    if answer is not None and refused:
        print(printable(f"{args.command} refused: {refused}"), file=progress, flush=True)
    late = answer is not None and answered_late(answer["type"], expired_before, result)
    if late:  # the question had expired: the answer ran nothing, whatever the run did after it
        print(
            f"{args.command} ran nothing: the question had expired (approval_expired)",
            file=progress,
            flush=True,
        )
    status = print_result(result, args, out, progress)
    return EXIT_STOPPED if late and status == EXIT_OK else status


def signoff_text(request: Any) -> str:
    """Who must answer a question, for ``waiting``: ``needs role finance; 1 of 2 approvals
    (alice)`` (nothing where anyone may answer once)."""
    if not isinstance(request, dict):
        return ""
    parts = [f"needs role {request['reviewer_role']}"] if request.get("reviewer_role") else []
    needed, given = request.get("approvals_needed"), request.get("approved_by")
    if isinstance(needed, int) and needed > 1:
        names = [str(n) for n in given] if isinstance(given, list) else []
        parts.append(f"{len(names)} of {needed} approvals" + (f" ({', '.join(names)})" if names else ""))
    return "; ".join(parts)


def signoff_json(run: Any) -> dict[str, Any]:
    """The same for ``waiting --json``: ``reviewer_role``, ``approvals_needed``, ``approved_by``."""
    request = run.waiting_on[0] if run.waiting_on else None
    keys = ("reviewer_role", "approvals_needed", "approved_by")
    return {k: request[k] for k in keys if isinstance(request, dict) and request.get(k)}


def list_command(args: argparse.Namespace, out: TextIO) -> int:
    """``runs`` and ``waiting``: a table, or JSON with ``--json``."""
    from apps.operations.runs import list_runs, waiting_runs
    from graphs.registry import AGENTS, PATTERNS, known_agents
    from nodes.store import open_checkpointer

    named = getattr(args, "pattern", None)
    if named is not None and named not in PATTERNS and named not in known_agents():
        names = ", ".join([*PATTERNS, *AGENTS])
        raise CliError(f"--pattern {named!r}: not a pattern or a known agent ({names}, or a registered one)")
    with open_checkpointer(args.db) as saver:
        if args.command == "waiting":
            runs = waiting_runs(saver)
            waits_on = {run.thread_id: waits_on_text(run, saver) for run in runs}
        else:
            page = None if args.limit == 0 else args.limit + 1  # one more: is there a next page?
            runs = list_runs(saver, pattern=args.pattern, status=args.status, limit=page, offset=args.offset)
    more = args.limit > 0 and len(runs) > args.limit  # `waiting` lists every run (limit 0)
    runs = runs[: args.limit] if more else runs
    if args.json:
        listed = [r.as_dict() for r in runs]
        if args.command == "waiting":  # each question's age and expiry
            listed = [
                {
                    **s,
                    **expiry_json(r.waiting_on[0] if r.waiting_on else None, r.updated_at),
                    **signoff_json(r),
                }
                for s, r in zip(listed, runs, strict=True)
            ]
        print(printable_result_json(listed), file=out)
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
            request = run.waiting_on[0] if run.waiting_on else None
            asked = "; ".join(p for p in (expiry_text(request, run.updated_at), signoff_text(request)) if p)
            print(
                printable(
                    f"{run.thread_id}  {run.pattern:<18} {started_text(run)}  [{asked}] waits on {waits}"
                ),
                file=out,
            )
        print(f"({store})", file=out)
        return EXIT_OK
    print(
        f"{'THREAD':<36}  {'PATTERN':<18} {'STATUS':<10} {'STOP_REASON':<28} {'STARTED':<19}  MODEL", file=out
    )
    for run in runs:
        thread, reason, model = (
            printable(v) for v in (run.thread_id, run.stop_reason or "-", run.model or "-")
        )
        print(
            f"{thread:<36}  {run.pattern:<18} {run.status:<10} {reason:<28} {started_text(run):<19}  {model}",
            file=out,
        )
    shown = f"runs {args.offset + 1}-{args.offset + len(runs)}, most recently started first"
    if more:
        shown += f"; next page: --offset {args.offset + len(runs)}"
    print(f"({shown}; {store})", file=out)
    return EXIT_OK


def show_command(args: argparse.Namespace, out: TextIO) -> int:
    """``show``: one run's result, trace and history, read back from the store alone."""
    from apps.operations.runs import RunNotFound, load_run
    from nodes.store import open_checkpointer

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
    print(printable_result_json(shown, None if args.json else 2), file=out)
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


def _model_defaults(model: Any) -> dict[str, Any]:
    """The policy class's own default of each field that has one, as JSON values."""
    from pydantic_core import PydanticUndefined, to_jsonable_python

    found = {}
    for name, info in model.model_fields.items():
        value = info.get_default(call_default_factory=True)
        if value is not PydanticUndefined:
            found[name] = to_jsonable_python(value)
    return found


def policy_command(args: argparse.Namespace, out: TextIO) -> int:
    """``policy``: the fields a policy file may set, with the values the CLI's runs use (the demo's
    policy: a ``--policy`` file sets fields over it), where it differs the policy class's own
    default (what ``SupervisorPolicy()`` or ``for_tools`` starts from in Python), and what each does."""
    pattern = _pattern(args.pattern)
    defaults = pattern.policy().model_dump(mode="json")
    own = _model_defaults(pattern.model)
    fields = {
        name: {
            "default": defaults.get(name),
            **({"class_default": own[name]} if name in own and own[name] != defaults.get(name) else {}),
            "description": info.description or "",
        }
        for name, info in pattern.model.model_fields.items()
    }
    if args.json:
        print(json.dumps(fields, ensure_ascii=False), file=out)
        return EXIT_OK
    cls = pattern.model.__name__
    print(f"The {pattern.name} policy: the fields a --policy file (JSON or TOML) may set.", file=out)
    print(
        f"Each with the value the CLI's runs use (the demo's policy), and {cls}'s own default "
        "where it differs.",
        file=out,
    )
    for name, field in fields.items():
        print(f"  {name} = {_shown(field['default'])}", file=out)
        if "class_default" in field:
            print(f"      ({cls} default: {_shown(field['class_default'])})", file=out)
        for line in textwrap.wrap(str(field["description"]), terminal_width(out) - 6):
            print(f"      {line}", file=out)
    if pattern.cli_policy is not None:
        print("(run turns auto_approver_enabled on unless --human is given or the file sets it)", file=out)
    example = f"printf 'max_seconds = 10\\n' > p.toml; agent-patterns run {pattern.name} --policy p.toml"
    print(f"\nExample: {example}", file=out)
    return EXIT_OK


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 60 else "(long: see --json)"
