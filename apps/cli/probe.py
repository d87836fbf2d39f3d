"""``agent-patterns probe FILE``: probe a policy on the user's own tools (:mod:`apps.probe.runner`).

FILE is a Python file (or a module's dotted name) that defines ``tools`` (LangChain tools or
functions), ``policy`` (a ``SupervisorPolicy``) and ``tasks`` (benign tasks: ``{"request": ...,
"calls": [{"name", "args"}, ...]}`` or :class:`~apps.probe.attacks.ProbeTask`), and may define
``custom_rules`` and ``subject``. The probe prints a short table (or ``--json``; ``--junit``,
``--sarif`` and ``--write-baseline`` write CI files) and exits 0 when no finding (with
``--baseline``: none new since it; ``--strict``: none of the trust pass either, and every
side-effect tool and argument attacked), every benign task completed, the engines agree and the
review load is within ``--max-review-load``; 1 when not; 2 for a file it cannot use (no such file
or module, a task calling a tool the tools do not have, no attack generated, a baseline that is not
one). The file's folder is on ``sys.path`` while it loads: it may import a sibling.
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

from apps.cli.errors import EXIT_OK, EXIT_STOPPED, CliError
from apps.cli.inputs import positive_arg
from apps.probe.names import SHAPES

__all__ = ["SHAPE_NAMES", "add_probe_parser", "probe_command"]

#: The attack shapes, from the module that names them and loads nothing (``--help`` stays light).
SHAPE_NAMES = SHAPES


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
    probe.add_argument(
        "--exhaustive", action="store_true", help="attacks of 4 seeds, at least 4 per shape (slower: seconds)"
    )
    probe.add_argument(
        "--jobs",
        type=positive_arg,
        metavar="N",
        help="processes at once, the runs shared by cost, each forked (default: the CPUs, at most 8)",
    )
    probe.add_argument(
        "--strict",
        action="store_true",
        help="also fail on a tool or argument never attacked and on a bypass the trust pass found",
    )
    probe.add_argument(
        "--no-trust-pass",
        action="store_true",
        help="do not plant into the fields the policy declares trusted",
    )
    probe.add_argument(
        "--no-fix-check",
        action="store_true",
        help="print each finding's fix without first running the policy with it (faster with many findings)",
    )
    probe.add_argument("--junit", metavar="FILE", help="write JUnit XML (a testcase per attack and task)")
    probe.add_argument("--sarif", metavar="FILE", help="write SARIF 2.1.0 (a result per finding)")
    probe.add_argument("--baseline", metavar="FILE", help="fail only on findings not in this baseline")
    probe.add_argument("--write-baseline", metavar="FILE", help="write this run's findings as a baseline")
    probe.add_argument(
        "--max-review-load",
        metavar="PCT",
        type=float,
        help="fail when the benign tasks' review load (percent asking a human) is above PCT",
    )


def load_definitions(
    path: str, needs: tuple[str, ...] = ("tools", "policy", "tasks"), *, by: str = "probe"
) -> dict[str, Any]:
    """The names a probe file (a path) or module (a dotted name) defines; it must define ``needs``
    (``by``: the command, named in errors)."""
    file = Path(path)
    dotted = (
        re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", path) is not None
        and not file.exists()
        and not path.endswith(".py")
    )
    missing_file = (
        f"{by}: no such file or module: {path} (give a .py file, or a module name such as "
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
        raise CliError(f"{by}: {path} failed to load: {type(exc).__name__}: {exc}") from None
    except Exception as exc:  # the user's file: say what broke, never a traceback
        raise CliError(f"{by}: {path} failed to load: {type(exc).__name__}: {exc}") from None
    missing = [name for name in needs if name not in found]
    if missing:
        wanted = ", ".join(needs[:-1]) + f" and {needs[-1]}" if len(needs) > 1 else needs[0]
        raise CliError(f"{by}: {path} must define {wanted} (missing: {', '.join(missing)})")
    return found


def probe_command(args: argparse.Namespace, stdout: TextIO) -> int:
    found = load_definitions(args.file)
    try:
        return _gated(found, args, stdout)
    finally:
        _close(found)


def _gated(found: dict[str, Any], args: argparse.Namespace, stdout: TextIO) -> int:
    from apps.probe.ci import read_baseline
    from apps.probe.report import Gate
    from apps.probe.runner import probe
    from policies.supervisor import SupervisorPolicy

    if not isinstance(found["policy"], SupervisorPolicy):
        raise CliError(
            f"probe: policy in {args.file} is a {type(found['policy']).__name__}, not a SupervisorPolicy"
        )
    if args.per_shape < 1:
        raise CliError("probe: --per-shape must be 1 or more")
    limit = getattr(args, "max_review_load", None)
    if limit is not None and not 0 <= limit <= 100:
        raise CliError("probe: --max-review-load is a percentage from 0 to 100")
    try:
        known = read_baseline(args.baseline) if getattr(args, "baseline", None) else None
    except ValueError as exc:
        raise CliError(f"probe: {exc}") from None
    gate = Gate(strict=bool(getattr(args, "strict", False)), baseline=known, max_review_load=limit)
    try:
        report = _probe(probe, found, args)
    except ValueError as exc:
        raise CliError(f"probe: {exc}") from None
    data = report.to_json()
    data["failing"] = [f.key for f in report.failing(gate)]
    data["exit_reasons"] = report.reasons(gate)
    _write(args, report, gate, data, found.get("__file__"))
    text = report.table()
    if gate.baseline is not None:
        old = [f for f in report.all_findings() if f.key in gate.baseline]
        text += f"\nbaseline: {len(old)} finding(s) known, {len(report.failing(gate))} new"
    reasons = report.reasons(gate)
    text += "\n" + (f"FAILED: {'; '.join(reasons)}" if reasons else "PASSED")
    stdout.write((json.dumps(data, indent=2, default=str) if args.json else text) + "\n")
    return EXIT_OK if not reasons else EXIT_STOPPED


def _probe(probe: Any, found: dict[str, Any], args: argparse.Namespace) -> Any:
    from apps.probe.attacks import SHAPES
    from apps.probe.runner import default_jobs

    return probe(
        list(found["tools"]),
        found["policy"],
        list(found["tasks"]),
        custom_rules=found.get("custom_rules"),
        subject=found.get("subject"),
        seed=args.seed,
        per_shape=args.per_shape,
        shapes=args.shape or SHAPES,
        engines=args.engine or ("graph", "middleware"),
        exhaustive=bool(getattr(args, "exhaustive", False)),
        question_trust=not getattr(args, "no_trust_pass", False),
        check_fixes=not getattr(args, "no_fix_check", False),
        jobs=getattr(args, "jobs", None) or default_jobs(args.engine or ("graph", "middleware")),
    )


def _close(found: dict[str, Any]) -> None:
    """Close the MCP servers the probe file opened (:class:`nodes.mcp_tools.MCPServers`)."""
    names = ("nodes.mcp_tools", "governed_agent_patterns.nodes.mcp_tools")  # a clone, the wheel
    kinds = tuple({sys.modules[n].MCPServers for n in names if n in sys.modules})
    for value in {id(v): v for v in found.values() if kinds and isinstance(v, kinds)}.values():
        value.close()


def _write(args: argparse.Namespace, report: Any, gate: Any, data: dict[str, Any], source: Any) -> None:
    """The files the flags ask for: the JSON report, JUnit XML, SARIF, a baseline."""
    from apps.probe.ci import baseline_of, junit, sarif

    files = {
        args.output: lambda: json.dumps(data, indent=2, default=str) + "\n",
        getattr(args, "junit", None): lambda: junit(report, gate),
        getattr(args, "sarif", None): lambda: (
            json.dumps(sarif(report, *_located(args.file, source), gate), indent=2) + "\n"
        ),
        getattr(args, "write_baseline", None): lambda: json.dumps(baseline_of(report), indent=2) + "\n",
    }
    for path, text in files.items():
        if not path:
            continue
        try:
            Path(path).write_text(text(), "utf-8")
        except OSError as exc:
            raise CliError(f"probe: cannot write {path}: {exc.strerror or exc}") from None


def _located(given: str, source: Any) -> tuple[str, str]:
    """The probe file as SARIF locates it (relative to the working directory where it is inside
    it) and its text."""
    path = Path(str(source)) if source else Path(given)
    try:
        text = path.read_text("utf-8")
    except OSError:
        return given, ""
    try:
        uri = path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        uri = path.resolve().as_uri()
    return uri, text
