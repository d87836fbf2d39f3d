"""5. Memory: resident set size after 10,000 back-to-back runs in one process (the five demos in
turn, zero-latency replayed model, no checkpointer) stays within 10% of its size after 1,000."""

from __future__ import annotations

import gc
import os
from pathlib import Path

from bench.common import Section, clock
from bench.context import Context
from bench.replay import bench_policy
from graphs.registry import PATTERNS

LIMIT = 0.10


def rss_bytes() -> int:
    """The process's resident set size now (not its peak)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def run(ctx: Context) -> Section:
    first, last = ctx.settings.memory_runs
    section = Section(
        "memory",
        f"5. Resident memory over {last:,} back-to-back runs (MiB, after gc)",
        ["runs", "rss_mib", "growth_vs_first_pct", "runs_per_s"],
    )
    names = list(ctx.trajectories)
    graphs = {}
    for name in names:
        pattern = PATTERNS[name]
        graphs[name] = pattern.build(llm=ctx.trajectories[name].model(), policy=bench_policy(pattern))
    inputs = {name: PATTERNS[name].demo_input() for name in names}
    marks = sorted({first, *range(first, last + 1, max(first, last // 10)), last})
    baseline = None
    failures = 0
    started = clock()
    for i in range(1, last + 1):
        name = names[i % len(names)]
        result = graphs[name].invoke(inputs[name])
        failures += not ctx.trajectories[name].check(result)
        del result
        if i in marks:
            gc.collect()
            rss = rss_bytes()
            baseline = baseline or rss
            section.rows.append(
                {
                    "runs": i,
                    "rss_mib": round(rss / 2**20, 1),
                    "growth_vs_first_pct": round((rss - baseline) / baseline * 100, 2),
                    "runs_per_s": round(i / (clock() - started), 1),
                }
            )
    if failures:
        raise RuntimeError(f"{failures} runs strayed from their trajectory")
    growth = section.rows[-1]["growth_vs_first_pct"] / 100
    section.check(f"RSS after {last:,} runs vs after {first:,}", growth, LIMIT)
    section.notes.append(
        "RSS from /proc/self/statm after gc.collect(); the five demos in turn, one graph each."
    )
    return section
