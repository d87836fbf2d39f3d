"""``python -m bench``: run the benchmark sections, print their tables, write them as JSON.

    python -m bench                  # the full run (under 15 minutes on 2 cores)
    python -m bench --quick          # a few minutes: fewer repeats, up to 100 concurrent runs
    python -m bench --only overhead,retrieval --out /tmp/bench.json
    python -m bench --markdown bench/results/latest.json   # docs/benchmarks.md's tables from a result file

Every figure is a ratio or a median measured side by side in the same run; nothing here is a
pass/fail test of speed. A target that is missed is reported (and profiled), not raised.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import (
    agents,
    checkpointers,
    concurrency,
    long_threads,
    mcp_gateway,
    memory,
    middleware_steps,
    overhead,
    probe,
    probe_careless,
    retrieval,
)
from bench.common import Section, Settings
from bench.context import Context
from bench.machine import machine_info, machine_line
from bench.replay import record
from graphs.registry import PATTERNS

RESULTS = Path(__file__).resolve().parent / "results"
SECTIONS: dict[str, Callable[[Context], Section | list[Section]]] = {
    "overhead": overhead.run,
    "checkpointers": checkpointers.run,
    "concurrency": concurrency.run,
    "retrieval": retrieval.run,
    "memory": memory.run,
    "create_agent": agents.run,
    "long_threads": long_threads.run,
    "middleware_steps": middleware_steps.run,
    "probe": probe.run,
    "mcp_gateway": mcp_gateway.run,
    "probe_careless": probe_careless.run,
}
#: Sections that need what only the ``bench`` extra installs, with what they need: left out of a
#: default run without it (with a line saying so), an error when asked for by name.
NEEDS: dict[str, tuple[Callable[[], bool], str]] = {
    "create_agent": (agents.available, "langchain>=1 (pip install -e '.[bench]', as make bench does)"),
    "long_threads": (agents.available, "langchain>=1 (pip install -e '.[bench]', as make bench does)"),
    "middleware_steps": (agents.available, "langchain>=1 (pip install -e '.[bench]', as make bench does)"),
    "mcp_gateway": (mcp_gateway.available, "the MCP SDK 2.x (pip install -e '.[mcp]')"),
}


def runnable(name: str) -> bool:
    return name not in NEEDS or NEEDS[name][0]()


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    if value is None:
        return "-"
    return str(value)


def table(columns: list[str], rows: list[dict[str, Any]], *, markdown: bool = False) -> str:
    cells = [[_cell(row.get(c)) for c in columns] for row in rows]
    if markdown:
        lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in cells])
    widths = [max(len(c), *(len(r[i]) for r in cells)) if cells else len(c) for i, c in enumerate(columns)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join(
        [fmt.format(*columns), fmt.format(*("-" * w for w in widths))] + [fmt.format(*r) for r in cells]
    )


def render(result: dict[str, Any], *, markdown: bool = False) -> str:
    """The result's tables: one per section, then every target with its verdict."""
    out = [
        f"Machine: {machine_line(result['machine'])}",
        f"Mode: {result['mode']}, {result['duration_s']} s",
        "",
    ]
    checks: list[dict[str, Any]] = []
    for section in result["sections"].values():
        out += [f"### {section['title']}" if markdown else section["title"], ""]
        out += [table(section["columns"], section["rows"], markdown=markdown), ""]
        out += [f"- {note}" if markdown else f"  note: {note}" for note in section["notes"]]
        out.append("")
        checks += section["checks"]
    if checks:
        out += ["### Targets" if markdown else "Targets", ""]
        out += [table(["target", "value", "limit", "met", "note"], checks, markdown=markdown), ""]
    return "\n".join(out)


def run(settings: Settings, only: list[str], out_dir: Path) -> dict[str, Any]:
    started = time.time()
    result: dict[str, Any] = {"mode": settings.mode, "machine": machine_info(), "sections": {}}
    trajectories = {name: record(name) for name in PATTERNS}
    result["trajectories"] = {
        name: {"llm_calls": t.llm_calls, "checkpoints_per_run": t.checkpoints, "outcome": t.outcome}
        for name, t in trajectories.items()
    }
    with Context(settings, trajectories, out_dir) as ctx:
        for name in only:
            began = time.time()
            print(f"[bench] {name} ...", flush=True)
            produced = SECTIONS[name](ctx)
            for section in produced if isinstance(produced, list) else [produced]:
                section.notes.append(f"section time {round(time.time() - began, 1)} s")
                result["sections"][section.name] = section.as_dict()
                print(table(section.columns, section.rows), flush=True)
        result["stores"] = ctx.info()
    result["duration_s"] = round(time.time() - started, 1)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, up to 100 concurrent runs")
    parser.add_argument("--smoke", action="store_true", help="the smallest configuration (seconds)")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"sections, of {', '.join(SECTIONS)}")
    parser.add_argument("--out", type=Path, default=RESULTS / "latest.json", help="where to write the JSON")
    parser.add_argument("--no-postgres", action="store_true", help="skip the PostgreSQL figures")
    parser.add_argument("--markdown", type=Path, help="print the tables of a result file as Markdown")
    args = parser.parse_args(argv)
    if args.markdown:
        print(render(json.loads(args.markdown.read_text()), markdown=True))
        return 0
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in only if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    missing = [s for s in only if not runnable(s)]
    if missing and args.only != parser.get_default("only"):
        parser.error("; ".join(f"section {s} needs {NEEDS[s][1]}" for s in missing))
    for name in missing:
        print(f"[bench] {name}: left out, it needs {NEEDS[name][1]}", flush=True)
    only = [s for s in only if s not in missing]
    mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    settings = Settings.named(mode, postgres=not args.no_postgres)
    result = run(settings, only, args.out.parent)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, default=str) + "\n")
    print(render(result))
    print(f"[bench] wrote {args.out}")
    return 0
