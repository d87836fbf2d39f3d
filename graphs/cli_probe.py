"""``agent-patterns probe FILE``: probe a policy on the user's own tools (:mod:`graphs.probe`).

FILE is a Python file (or a module's dotted name) that defines ``tools`` (LangChain tools or
functions), ``policy`` (a ``SupervisorPolicy``) and ``tasks`` (benign tasks: ``{"request": ...,
"calls": [{"name", "args"}, ...]}`` or :class:`~policies.attacks.ProbeTask`), and may define
``custom_rules`` and ``subject``. The probe prints a short table (or ``--json``) and exits 0 when
nothing planted ran without a human, every benign task completed and the engines agree, 1 when not,
2 for a file it cannot use (no such file or module, a task calling a tool the tools do not have, no
attack generated). The file's folder is on ``sys.path`` while it loads: it may import a sibling.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import runpy
import sys
from pathlib import Path
from typing import Any, TextIO

from graphs.cli_errors import EXIT_OK, EXIT_STOPPED, CliError

__all__ = ["SHAPE_NAMES", "add_probe_parser", "probe_command"]

#: The attack shapes (``policies.attacks.SHAPES``), written here so that ``--help`` loads no
#: pydantic (a test keeps the two equal).
SHAPE_NAMES = (
    "planted_instruction",
    "borrowed_name",
    "look_alike",
    "identifier_number",
    "obfuscated",
    "negated_request",
    "non_imperative",
    "short_code",
    "just_under",
    "reused_value",
    "link_in_sentence",
    "look_alike_replacing",
    "other_subject",
    "spelled_identity",
    "string_amount",
    "own_record_plant",
)


def add_probe_parser(sub: Any) -> None:
    probe = sub.add_parser(
        "probe", help="attack success and review load of your policy on your own tools (exit 1: a bypass)"
    )
    probe.add_argument("file", help="a Python file defining tools, policy and tasks (custom_rules, subject)")
    probe.add_argument(
        "--seed", type=int, default=0, help="the attacks' seed (the same seed, the same attacks)"
    )
    probe.add_argument("--per-shape", type=int, default=2, help="attacks of each shape per task (default 2)")
    probe.add_argument("--engine", action="append", choices=["graph", "middleware"], help="one engine only")
    probe.add_argument("--shape", action="append", choices=list(SHAPE_NAMES), help="these attack shapes only")
    probe.add_argument("--json", action="store_true", help="print the whole report as JSON")
    probe.add_argument("-o", "--output", metavar="FILE", help="also write the JSON report to FILE")


def _load(path: str) -> dict[str, Any]:
    """The names a probe file (a path) or module (a dotted name) defines."""
    file = Path(path)
    dotted = (
        re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", path) is not None
        and not file.exists()
        and not path.endswith(".py")
    )
    missing_file = (
        f"probe: no such file or module: {path} (give a .py file, or a module name such as "
        "governed_agent_patterns.demo_tools.support_desk)"
    )
    if not file.is_file() and not dotted:
        raise CliError(missing_file)
    try:
        if dotted:
            found = vars(importlib.import_module(path))
        else:
            folder = str(file.resolve().parent)  # the probe file may import its sibling modules
            sys.path.insert(0, folder)
            try:
                found = runpy.run_path(str(file), run_name="__probe__")
            finally:
                if folder in sys.path:
                    sys.path.remove(folder)
    except ModuleNotFoundError as exc:
        if dotted and exc.name and (path == exc.name or path.startswith(exc.name + ".")):
            raise CliError(missing_file) from None
        raise CliError(f"probe: {path} failed to load: {type(exc).__name__}: {exc}") from None
    except Exception as exc:  # the user's file: say what broke, never a traceback
        raise CliError(f"probe: {path} failed to load: {type(exc).__name__}: {exc}") from None
    missing = [name for name in ("tools", "policy", "tasks") if name not in found]
    if missing:
        raise CliError(f"probe: {path} must define tools, policy and tasks (missing: {', '.join(missing)})")
    return found


def probe_command(args: argparse.Namespace, stdout: TextIO) -> int:
    from graphs.probe import probe
    from policies.attacks import SHAPES
    from policies.supervisor import SupervisorPolicy

    found = _load(args.file)
    if not isinstance(found["policy"], SupervisorPolicy):
        raise CliError(
            f"probe: policy in {args.file} is a {type(found['policy']).__name__}, not a SupervisorPolicy"
        )
    if args.per_shape < 1:
        raise CliError("probe: --per-shape must be 1 or more")
    try:
        report = probe(
            list(found["tools"]),
            found["policy"],
            list(found["tasks"]),
            custom_rules=found.get("custom_rules"),
            subject=found.get("subject"),
            seed=args.seed,
            per_shape=args.per_shape,
            shapes=args.shape or SHAPES,
            engines=args.engine or ("graph", "middleware"),
        )
    except ValueError as exc:
        raise CliError(f"probe: {exc}") from None
    data = report.to_json()
    if args.output:
        Path(args.output).write_text(json.dumps(data, indent=2, default=str) + "\n", "utf-8")
    stdout.write((json.dumps(data, indent=2, default=str) if args.json else report.table()) + "\n")
    return EXIT_OK if report.exit_code() == 0 else EXIT_STOPPED
