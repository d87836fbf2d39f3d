"""2. What a checkpointer costs per superstep — memory, an SQLite file, PostgreSQL on loopback, each
with durability ``exit``/``async``/``sync`` — measured against the same runs without one; and the
bytes one thread's checkpoints take after 100 and 200 steps (growth must be linear: ≤ 2.2×)."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from bench.common import Section, median, side_by_side
from bench.context import Context
from bench.replay import bench_policy
from graphs.registry import PATTERNS
from nodes.store import open_checkpointer

DURABILITIES = ("exit", "async", "sync")
GROWTH_PATTERN = "reflection"
GROWTH_LIMIT = 2.2


def _per_step_us(ctx: Context, saver: Any, durability: str) -> tuple[float, dict[str, float]]:
    """Microseconds a checkpointer adds per superstep: over the five demos, (median run time with
    it − median without) summed, divided by the checkpoints those runs write."""
    added, steps, by_pattern = 0.0, 0, {}
    for name, trajectory in ctx.trajectories.items():
        pattern = PATTERNS[name]
        policy = bench_policy(pattern)
        bare = pattern.build(llm=trajectory.model(), policy=policy)
        kept = pattern.build(llm=trajectory.model(), policy=policy, checkpointer=saver)
        given = pattern.demo_input()

        def with_store(kept: Any = kept, given: dict = given) -> None:
            config = {"configurable": {"thread_id": str(uuid.uuid4())}}
            kept.invoke(given, config, durability=durability)

        times = side_by_side(
            {"none": lambda bare=bare, given=given: bare.invoke(given), "store": with_store},
            ctx.settings.store_rotations,
            warmup=1,
        )
        extra = median(times["store"]) - median(times["none"])
        added += extra
        steps += trajectory.checkpoints
        by_pattern[name] = round(extra / trajectory.checkpoints * 1e6, 1)
    return added / steps * 1e6, by_pattern


def payload_bytes(value: Any) -> int:
    """The bytes a stored value holds: its byte strings, counted through dicts, lists and tuples."""
    if isinstance(value, bytes | bytearray):
        return len(value)
    if isinstance(value, dict):
        return sum(payload_bytes(k) + payload_bytes(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return sum(payload_bytes(v) for v in value)
    return 0


def stored_bytes(store: str, saver: Any, location: str, thread_id: str) -> int:
    """Serialized bytes a thread's checkpoints, blobs and pending writes take in ``saver``."""
    if store == "memory":
        total = payload_bytes(saver.storage.get(thread_id, {}))
        total += sum(payload_bytes(v) for k, v in saver.writes.items() if k[0] == thread_id)
        return total + sum(payload_bytes(v) for k, v in saver.blobs.items() if k[0] == thread_id)
    if store == "sqlite":
        with sqlite3.connect(location) as conn:
            a = conn.execute(
                "SELECT COALESCE(SUM(LENGTH(checkpoint) + LENGTH(metadata)), 0) FROM checkpoints"
                " WHERE thread_id = ?",
                (thread_id,),
            ).fetchone()[0]
            b = conn.execute(
                "SELECT COALESCE(SUM(LENGTH(value)), 0) FROM writes WHERE thread_id = ?", (thread_id,)
            ).fetchone()[0]
        return int(a) + int(b)
    import psycopg

    queries = (
        "SELECT COALESCE(SUM(pg_column_size(checkpoint) + pg_column_size(metadata)), 0) FROM checkpoints"
        " WHERE thread_id = %s",
        "SELECT COALESCE(SUM(pg_column_size(blob)), 0) FROM checkpoint_blobs WHERE thread_id = %s",
        "SELECT COALESCE(SUM(pg_column_size(blob)), 0) FROM checkpoint_writes WHERE thread_id = %s",
    )
    with psycopg.connect(location) as conn:
        return sum(int(conn.execute(q, (thread_id,)).fetchone()[0]) for q in queries)  # type: ignore[index]


def _growth(ctx: Context, store: str) -> dict[str, Any]:
    """Bytes after ``growth_steps`` steps of one thread running the Reflection demo back to back."""
    trajectory = ctx.trajectories[GROWTH_PATTERN]
    pattern = PATTERNS[GROWTH_PATTERN]
    location = ctx.location(store, "growth")
    thread_id = f"growth-{uuid.uuid4()}"
    config = {"configurable": {"thread_id": thread_id}}
    marks: dict[int, int] = {}
    with open_checkpointer(location) as saver:
        graph = pattern.build(llm=trajectory.model(), policy=bench_policy(pattern), checkpointer=saver)
        steps = 0
        for target in ctx.settings.growth_steps:
            while steps < target:
                result = graph.invoke(pattern.demo_input(), config, durability="sync")
                if not trajectory.check(result):
                    raise RuntimeError(f"growth run strayed: {result.get('stop_reason')}")
                steps += trajectory.checkpoints
            marks[steps] = stored_bytes(store, saver, location, thread_id)
        counted = len(list(saver.list(config)))
    (s1, b1), (s2, b2) = sorted(marks.items())
    return {
        "store": store,
        "steps": f"{s1} / {s2}",
        "checkpoints_listed": counted,
        "bytes_first": b1,
        "bytes_second": b2,
        "bytes_per_step_first": round(b1 / s1),
        "bytes_per_step_next": round((b2 - b1) / (s2 - s1)),
        "growth": round(b2 / b1, 3),
        "steps_ratio": round(s2 / s1, 3),
    }


def run(ctx: Context) -> list[Section]:
    cost = Section(
        "checkpointers",
        "2a. Checkpointer cost per superstep (µs; sync invoke, five demos, minus the same runs without one)",
        ["store", "durability", "per_step_us", *ctx.trajectories],
    )
    growth = Section(
        "checkpoint_growth",
        f"2b. Bytes kept for one thread ({GROWTH_PATTERN} demo back to back, durability sync)",
        [
            "store",
            "steps",
            "checkpoints_listed",
            "bytes_first",
            "bytes_second",
            "bytes_per_step_first",
            "bytes_per_step_next",
            "growth",
        ],
    )
    for store in ctx.stores():
        for durability in DURABILITIES:
            with open_checkpointer(ctx.location(store, f"cost_{durability}")) as saver:
                per_step, by_pattern = _per_step_us(ctx, saver, durability)
            cost.rows.append(
                {"store": store, "durability": durability, "per_step_us": round(per_step, 1), **by_pattern}
            )
        row = _growth(ctx, store)
        growth.rows.append(row)
        growth.check(f"{store}: bytes after 200 / after 100 steps", row["growth"], GROWTH_LIMIT)
    if ctx.pg_problem:
        cost.notes.append(f"PostgreSQL not measured: {ctx.pg_problem}")
    cost.notes.append(
        "Per pattern columns: µs per superstep for that demo alone. Each run is a new thread; "
        "durability passed to invoke(). PostgreSQL: a local server (fsync on) over a psycopg pool."
    )
    growth.notes.append(
        "Serialized payload bytes (checkpoints, channel blobs, pending writes) of the thread; each run "
        "on it starts from clean trace/history rows, so a checkpoint's size does not grow with the thread."
    )
    return [cost, growth]
