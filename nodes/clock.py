"""Time budget keeping: a run's clock starts in its first node and is kept in state."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any

from policies.base import BasePolicy


def now() -> float:
    return time.time()


def sleep(seconds: float) -> None:
    """Wait (between two attempts of an LLM call). Tests replace it, with ``now``, by a fake clock."""
    time.sleep(seconds)


async def asleep(seconds: float) -> None:
    """:func:`sleep` for the async path (``ainvoke``): waits without blocking the event loop."""
    await asyncio.sleep(seconds)


def elapsed_seconds(state: Mapping[str, Any]) -> float:
    """Run time so far, less ``paused_seconds`` (time a paused run spent waiting for a human)."""
    paused = float(state.get("paused_seconds") or 0.0)
    return max(0.0, now() - float(state.get("started_at") or now()) - paused)


def elapsed_ms(state: Mapping[str, Any]) -> int:
    return int(elapsed_seconds(state) * 1000)


def remaining_seconds(state: Mapping[str, Any], policy: BasePolicy) -> float:
    """What is left of ``max_seconds`` (may be negative once it is spent)."""
    return policy.max_seconds - elapsed_seconds(state)


def out_of_time(state: Mapping[str, Any], policy: BasePolicy) -> bool:
    return remaining_seconds(state, policy) <= 0


def iso_utc(seconds: float | None = None) -> str:
    """``seconds`` (since the epoch; :func:`now` where None) as ISO 8601 in UTC, to the second."""
    from datetime import UTC, datetime

    return datetime.fromtimestamp(now() if seconds is None else seconds, UTC).isoformat(timespec="seconds")
