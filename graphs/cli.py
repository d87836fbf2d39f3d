"""``agent-patterns``: run a pattern from the command line and read its JSON result.

Exit status: 0 the run ended ok, 1 it stopped (see ``stop_reason``), 2 bad usage or
configuration, 3 it waits for a human.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
import uuid
from pathlib import Path
from typing import Any, NoReturn, TextIO

from langgraph.checkpoint.memory import InMemorySaver
from pydantic import ValidationError

from graphs.registry import PATTERNS, Pattern, run_result
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
        return pattern.policy.model_validate(data)
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


def run_pattern(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    pattern = PATTERNS.get(args.pattern)
    if pattern is None:
        raise CliError(f"unknown pattern {args.pattern!r} (choose from {', '.join(PATTERNS)})")
    policy = load_policy(pattern, args.policy)
    if pattern.cli_policy is not None:
        policy = pattern.cli_policy(policy, bool(getattr(args, "human", False)))
    inputs = _read_data_file(args.input, "input") if args.input else pattern.demo_input()
    try:
        llm = get_chat_model()
    except ModelConfigError as exc:
        raise CliError(str(exc)) from None
    graph = pattern.module.build_graph(llm=llm, policy=policy, checkpointer=InMemorySaver())
    thread_id = args.thread_id or str(uuid.uuid4())
    config = {"configurable": {"thread_id": thread_id}}
    progress = err if args.json else out
    print(f"{pattern.name}: thread {thread_id}", file=progress)
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
    result = run_result(graph, values)
    if interrupted is not None:
        result["waiting_for_human"] = interrupted
    print(json.dumps(result, indent=None if args.json else 2, ensure_ascii=False), file=out)
    if interrupted is not None:
        print(_resume_hint(thread_id), file=progress)
        return EXIT_WAITING
    return EXIT_OK if result.get("status") == "ok" else EXIT_STOPPED


def _resume_hint(thread_id: str) -> str:
    return (
        "waiting for a human. Resume in Python with the same checkpointer and thread:\n"
        '  graph.invoke(Command(resume={"type": "approve"}), '
        f'{{"configurable": {{"thread_id": "{thread_id}"}}}})\n'
        '  answers: {"type": "approve"} | {"type": "edit", "edited_action": {"name": ..., "args": {...}}}'
        ' | {"type": "reject", "message": "..."}\n'
        "  (this CLI run used an in-memory checkpointer: the paused run ends with this process)"
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
    sub.add_parser("patterns", help="list the patterns")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "patterns":
            for name, pattern in PATTERNS.items():
                doc = (pattern.module.__doc__ or "").strip().splitlines()[0]
                print(f"{name:<20} {doc}")
            return EXIT_OK
        return run_pattern(args, sys.stdout, sys.stderr)
    except CliError as exc:
        _fail(str(exc))


if __name__ == "__main__":
    raise SystemExit(main())
