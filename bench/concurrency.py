"""3. Concurrency: 1, 100 and 1,000 concurrent runs of each pattern through the async API, with the
replayed model answering after 100 ms (``asyncio.sleep``). Figure: wall time ÷ critical path
(LLM calls per run × 100 ms). Targets at 100 runs: ≤ 1.5 without a checkpointer, ≤ 2.0 in memory,
≤ 3.0 SQLite, PostgreSQL (pooled) below SQLite. 1,000 runs are reported as runs per second."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from bench.common import Section, clock
from bench.context import Context
from bench.profiling import profile, summary
from bench.replay import Trajectory, bench_policy
from bench.variants import floor_graph
from graphs.registry import PATTERNS
from nodes.langgraph_private import run_everything_threaded
from nodes.store import open_async_checkpointer

LATENCY = 0.1
TARGETS = {"none": 1.5, "memory": 2.0, "sqlite": 3.0}
PG_POOL = 20
#: Stores measured at every level for every pattern; the others at 1,000 runs for this one only
#: (a durable store at 1,000 concurrent runs takes a minute a pattern on 2 cores).
EVERY_LEVEL = ("none", "memory")
LARGEST_FOR = "rag"


async def batch(
    graph: Any, given: dict[str, Any], runs: int, trajectory: Trajectory | None
) -> tuple[float, int]:
    """Wall seconds for ``runs`` concurrent runs, and how many did not end as recorded."""
    configs = [{"configurable": {"thread_id": str(uuid.uuid4())}} for _ in range(runs)]
    start = clock()
    results = await asyncio.gather(*(graph.ainvoke(given, config) for config in configs))
    wall = clock() - start
    return wall, sum(1 for r in results if trajectory is not None and not trajectory.check(r))


def threaded(graph: Any) -> Any:
    """The graph as LangGraph runs plain sync functions under the async API: every node and routing
    function in the event loop's default executor (how these graphs ran before LLM nodes awaited
    the model and gateway work moved onto the loop)."""
    builder = graph.builder
    run_everything_threaded(builder)
    return builder.compile(name=f"{graph.name}_threaded")


@asynccontextmanager
async def _graph_on(ctx: Context, name: str, store: str, tag: str) -> AsyncIterator[Any]:
    """Pattern ``name`` with the 100 ms replay model, on a fresh location of ``store``."""
    pattern = PATTERNS[name]
    async with AsyncExitStack() as stack:
        saver = None
        if store != "none":
            location = ctx.location(store, f"{tag}_{name}")
            saver = await stack.enter_async_context(open_async_checkpointer(location, pool_size=PG_POOL))
        model = ctx.trajectories[name].model(latency=LATENCY)
        yield pattern.build(llm=model, policy=bench_policy(pattern), checkpointer=saver)


async def _measure(ctx: Context, name: str, store: str) -> dict[str, Any]:
    trajectory = ctx.trajectories[name]
    pattern = PATTERNS[name]
    given = pattern.demo_input()
    critical = trajectory.llm_calls * LATENCY
    row: dict[str, Any] = {"pattern": name, "store": store, "critical_ms": round(critical * 1000)}
    failures = 0
    async with _graph_on(ctx, name, store, "conc") as graph:
        await batch(graph, given, 2, trajectory)  # warm up
        levels = ctx.settings.levels
        if store not in EVERY_LEVEL and name != LARGEST_FOR:
            levels = tuple(n for n in levels if n <= 100) or levels[:1]
        for runs in levels:
            wall, failed = await batch(graph, given, runs, trajectory)
            failures += failed
            row[f"ratio_{runs}"] = round(wall / critical, 2)
            row[f"runs_per_s_{runs}"] = round(runs / wall, 1)
        if store == "none":
            floor = floor_graph(graph, trajectory.checkpoints - 1, trajectory.llm_calls, LATENCY)
            floor_runs = [n for n in ctx.settings.levels if n > 1]
            for runs in floor_runs:
                wall, _ = await batch(floor, {}, runs, None)
                row[f"floor_ratio_{runs}"] = round(wall / critical, 2)
            row[f"floor_runs_per_s_{floor_runs[-1]}"] = round(floor_runs[-1] / wall, 1)
        if store == "none" and ctx.settings.before_fix_runs:
            old = threaded(pattern.build(llm=trajectory.model(latency=LATENCY), policy=bench_policy(pattern)))
            wall, failed = await batch(old, given, ctx.settings.before_fix_runs, trajectory)
            row[f"threaded_ratio_{ctx.settings.before_fix_runs}"] = round(wall / critical, 2)
            row["threaded_failed"] = failed
    row["failed"] = failures
    return row


def run(ctx: Context) -> Section:
    levels = ctx.settings.levels
    before = ctx.settings.before_fix_runs
    section = Section(
        "concurrency",
        f"3. Concurrent runs through ainvoke, model latency {int(LATENCY * 1000)} ms: wall ÷ critical path",
        [
            "pattern", "store", "critical_ms", *(f"ratio_{n}" for n in levels), f"runs_per_s_{levels[-1]}",
            "failed", *(f"floor_ratio_{n}" for n in levels if n > 1), f"floor_runs_per_s_{levels[-1]}",
            f"threaded_ratio_{before}",
        ],
    )  # fmt: skip
    stores = ["none", *ctx.stores()]
    middle = 100 if 100 in levels else levels[-1]
    for name in ctx.settings.concurrency_patterns or tuple(ctx.trajectories):
        rows = {store: asyncio.run(_measure(ctx, name, store)) for store in stores}
        section.rows += rows.values()
        for store, limit in TARGETS.items():
            if store in rows:
                section.check(f"{name}: {store}, {middle} runs", rows[store][f"ratio_{middle}"], limit)
        if "postgres" in rows:
            pg, lite = rows["postgres"][f"ratio_{middle}"], rows["sqlite"][f"ratio_{middle}"]
            section.check(f"{name}: PostgreSQL ÷ SQLite, {middle} runs", pg / lite, 1.0)
            if ctx.settings.profile and pg > lite and name == next(iter(ctx.trajectories)):
                _profile(ctx, section, name, middle, store="postgres")
        if ctx.settings.profile and rows["none"][f"ratio_{middle}"] > TARGETS["none"]:
            _profile(ctx, section, name, middle)
    section.notes.append(
        f"Each run a new thread; durability: the pattern's default. SQLite and PostgreSQL at "
        f"{levels[-1]:,} runs: {LARGEST_FOR} only. PostgreSQL: AsyncPostgresSaver over a "
        f"pool of {PG_POOL}; SQLite: AsyncSqliteSaver (one aiosqlite connection). "
        f"threaded_ratio_{before}: the same graph with every node and routing function in the event "
        "loop's default executor, as LangGraph runs plain sync functions (how these graphs ran before). "
        "floor_*: LangGraph alone — a graph of as many supersteps, the LLM steps only sleeping 100 ms, "
        "the others doing nothing on the loop."
    )
    if ctx.pg_problem:
        section.notes.append(f"PostgreSQL not measured: {ctx.pg_problem}")
    return section


def _profile(ctx: Context, section: Section, name: str, runs: int, store: str = "none") -> None:
    trajectory = ctx.trajectories[name]
    pattern = PATTERNS[name]

    async def one_batch() -> None:
        async with _graph_on(ctx, name, store, "profile") as graph:
            await batch(graph, pattern.demo_input(), runs, trajectory)

    found = profile(
        lambda: asyncio.run(one_batch()),
        save_as=ctx.out_dir / "profiles" / f"concurrency-{name}-{store}.txt",
    )
    section.notes.append(
        f"{name}, {store}: {runs} runs profiled (event-loop thread): {summary(found['areas'])}; "
        f"text profile: {found.get('file')}"
    )
