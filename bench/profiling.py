"""Where the time goes: a sampling profile (pyinstrument) with its self time attributed to areas —
LangGraph, LangChain, pydantic, asyncio, threads, the standard library, and ours (``graphs``,
``nodes``, ``policies``, ``demo_tools``) — and the text profile kept beside the results."""

from __future__ import annotations

import sysconfig
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OURS = ("graphs", "nodes", "policies", "demo_tools", "apps")
_STDLIB = sysconfig.get_paths()["stdlib"]


_WAITING = ("epoll.poll", "select.select", "poll.poll", "kqueue.control")


def area(path: str | None, function: str = "") -> str:
    """The area a source file (and function) belongs to."""
    path = path or ""
    if function in _WAITING or path.endswith("selectors.py"):
        return "idle"  # the event loop waiting for I/O or a timer
    if "/site-packages/" in path:
        package = path.split("/site-packages/", 1)[1].split("/", 1)[0]
        if package.startswith("langgraph"):
            return "langgraph"
        if package.startswith("langchain"):
            return "langchain"
        if package.startswith("pydantic"):
            return "pydantic"
        if package.startswith("psycopg"):
            return "psycopg"
        if package.startswith(("aiosqlite", "sqlite")):
            return "sqlite"
        return "other packages"
    if path.startswith(str(ROOT)):
        top = Path(path).relative_to(ROOT).parts[0]
        return "ours" if top in OURS else "bench harness"
    if "/asyncio/" in path:
        return "asyncio"
    if path.endswith(("threading.py", "thread.py", "_base.py")) or "/concurrent/" in path:
        return "threads"
    if path.startswith(_STDLIB) or path.startswith("<frozen"):
        return "stdlib"
    return "other"


def _walk(frame: Any, parent: str = "other") -> Any:
    """Each real frame with its area. Time in a built-in function or the standard library counts
    for the code that called it, except waiting: for I/O or a timer (``idle``) or for another
    thread (``waiting on a thread``: under ``invoke``, mostly the model call in the seam's worker)."""
    path = frame.file_path or ""
    if path.startswith("<built-in>") or not path:
        if frame.function in _WAITING:
            where = "idle"
        elif frame.function.endswith(".acquire") and parent == "threads":
            where = "waiting on a thread"
        else:
            where = parent
    else:
        where = area(path, frame.function)
        if where == "stdlib" and parent not in ("other", "bench harness"):
            where = parent  # json, difflib, dataclasses... count for the code that uses them
    yield frame, where
    for child in frame.children:
        if not child.is_synthetic:
            yield from _walk(child, where)


#: Picks frames out of a profile: (function name, a part of its file's path).
Matcher = tuple[str, str]


def _inclusive(root: Any, matchers: Mapping[str, tuple[Matcher, ...]]) -> dict[str, float]:
    """Per label, the time spent inside frames that any of its matchers pick (a picked frame's
    picked descendants are not counted again), as a share of the root's time."""
    found: dict[str, float] = {}
    for label, picks in matchers.items():
        spent, stack = 0.0, [root]
        while stack:
            frame = stack.pop()
            path = frame.file_path or ""
            if any(frame.function == name and part in path for name, part in picks):
                spent += frame.time
            else:
                stack.extend(frame.children)
        found[label] = round(spent / (root.time or 1.0), 3)
    return found


def profile(
    run: Callable[[], Any],
    *,
    save_as: Path | None = None,
    interval: float = 0.0005,
    top: int = 8,
    inclusive: Mapping[str, tuple[Matcher, ...]] | None = None,
) -> dict[str, Any]:
    """Profile ``run()`` (its thread only) and attribute its self time. Returns the share of each
    area, the heaviest functions, where the text profile was saved, and (given ``inclusive``) the
    share of the time spent inside the frames each label's matchers pick."""
    from pyinstrument import Profiler

    profiler = Profiler(interval=interval, async_mode="disabled")
    profiler.start()
    try:
        run()
    finally:
        profiler.stop()
    root = profiler.last_session.root_frame() if profiler.last_session else None
    if root is None:
        return {"areas": {}, "top": [], "samples_s": 0.0}
    areas: Counter[str] = Counter()
    functions: Counter[str] = Counter()
    for frame, where in _walk(root):
        spent = frame.total_self_time
        areas[where] += spent
        functions[f"{where}: {frame.function} ({frame.file_path_short}:{frame.line_no})"] += spent
    total = sum(areas.values()) or 1.0
    result: dict[str, Any] = {
        "areas": {name: round(spent / total, 3) for name, spent in areas.most_common()},
        "top": [(name, round(spent / total, 3)) for name, spent in functions.most_common(top)],
        "samples_s": round(total, 3),
    }
    if inclusive:
        result["inclusive"] = _inclusive(root, inclusive)
    if save_as is not None:
        save_as.parent.mkdir(parents=True, exist_ok=True)
        save_as.write_text(profiler.output_text(unicode=True, color=False, short_mode=False))
        result["file"] = str(save_as.relative_to(ROOT)) if save_as.is_relative_to(ROOT) else str(save_as)
    return result


def summary(areas: dict[str, float], floor: float = 0.03) -> str:
    """``langgraph 55%, langchain 12%, ...`` for a note: every area of at least ``floor``."""
    shown = [(name, share) for name, share in areas.items() if share >= floor]
    rest = 1 - sum(share for _, share in shown)
    parts = [f"{name} {round(share * 100)}%" for name, share in sorted(shown, key=lambda x: -x[1])]
    return ", ".join(parts + ([f"the rest {round(rest * 100)}%"] if rest >= 0.005 else []))
