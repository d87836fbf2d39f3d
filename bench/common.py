"""What every benchmark section shares: the run's settings, timing, statistics, results and checks."""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Settings:
    """How much each section does. ``full`` is the documented run, ``quick`` a few minutes'
    check, ``smoke`` the smallest configuration (the test suite runs it)."""

    mode: str
    overhead_repeats: int
    store_rotations: int
    growth_steps: tuple[int, int]
    levels: tuple[int, ...]
    before_fix_runs: int
    corpus_sizes: tuple[int, ...]
    queries: int
    scan_queries_max: int
    memory_runs: tuple[int, int]
    profile: bool
    postgres: bool
    #: patterns the concurrency section runs (all when empty)
    concurrency_patterns: tuple[str, ...] = ()
    #: the create_agent section: tool steps per run, interleaved rounds, runs profiled
    agent_steps: tuple[int, ...] = (2, 6, 24)
    agent_rounds: int = 30
    agent_profile_runs: int = 20
    #: the long_threads section: the marks (user turns on one thread) and the turns timed before each
    thread_turns: tuple[int, ...] = (50, 100, 200)
    thread_last: int = 10

    @classmethod
    def named(cls, mode: str, *, postgres: bool = True) -> Settings:
        if mode == "full":
            return cls(
                mode, 200, 20, (100, 200), (1, 100, 1000), 100, (1_000, 10_000, 100_000), 200, 20,
                (1_000, 10_000), True, postgres, agent_rounds=30, agent_profile_runs=20,
                thread_turns=(50, 100, 200), thread_last=10,
            )  # fmt: skip
        if mode == "quick":
            return cls(
                mode, 40, 8, (100, 200), (1, 100), 100, (1_000, 10_000), 50, 10, (200, 1_000), True,
                postgres, agent_rounds=10, agent_profile_runs=10, thread_turns=(25, 50), thread_last=5,
            )  # fmt: skip
        if mode == "smoke":
            return cls(
                mode, 3, 1, (20, 40), (1, 3), 3, (200,), 5, 5, (20, 60), False, postgres, ("rag",),
                agent_steps=(2, 6), agent_rounds=1, thread_turns=(2, 3), thread_last=1,
            )  # fmt: skip
        raise ValueError(f"unknown mode {mode!r}")


def clock() -> float:
    return time.perf_counter()


def median(values: list[float]) -> float:
    return statistics.median(values) if values else math.nan


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0..100), nearest rank."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def side_by_side(variants: Mapping[str, Callable[[], Any]], repeats: int, *, warmup: int = 2) -> dict:
    """Time each variant ``repeats`` times, taking turns, so the machine's noise falls on all of
    them alike. Returns the seconds of every repeat, per variant."""
    for _ in range(warmup):
        for run in variants.values():
            run()
    times: dict[str, list[float]] = {name: [] for name in variants}
    gc.collect()
    for _ in range(repeats):
        for name, run in variants.items():
            start = clock()
            run()
            times[name].append(clock() - start)
    return times


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


@dataclass
class Section:
    """One section's results: rows for its table, checks against the issue's targets, notes."""

    name: str
    title: str
    columns: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def check(self, target: str, value: float, limit: float, *, below: bool = True, note: str = "") -> None:
        met = value <= limit if below else value >= limit
        row = {"target": target, "value": round(value, 3), "limit": limit, "met": bool(met)}
        self.checks.append({**row, "note": note} if note else row)

    def as_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "columns": self.columns,
            "rows": self.rows,
            "checks": self.checks,
            "notes": self.notes,
        }
