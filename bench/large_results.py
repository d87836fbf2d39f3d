"""Bytes a large tool result costs the SQLite store (issue 45): one run whose one tool call
returns ``size`` characters of text, then a final answer; each engine and state, with the audit
log's store beside the runs. Sums the bytes per table (checkpoints, writes, store, journal) and,
for the checkpointer's tables, per channel. ``python -m bench.large_results [--size 1000000]``."""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
from collections import defaultdict
from typing import Any

from langchain_core.tools import tool

from nodes.store import open_checkpointer, open_store
from policies.supervisor import SupervisorPolicy

_NO_BUDGETS = {"worker_protocol": "native", "max_tokens": None, "max_cost_usd": None}
CONFIGS = ("middleware_state", "middleware_delta", "supervisor", "supervisor_plain")


def _tools(size: int) -> list[Any]:
    @tool
    def fetch_report() -> str:
        """The monthly report, as text."""
        return ("lorem ipsum dolor sit amet " * (size // 27 + 1))[:size]

    return [fetch_report]


def _script() -> list[Any]:
    return [{"name": "fetch_report", "args": {}}, "Done: the report is in."]


def run_once(config: str, size: int, db: str) -> dict[str, Any]:
    """One run of ``config`` against a fresh SQLite file ``db``; what the run returned."""
    from tests.middleware_harness import ToolCallingModel

    tools = _tools(size)
    policy = SupervisorPolicy.for_tools(tools)
    thread = {"configurable": {"thread_id": "big-1"}}
    with open_checkpointer(db) as saver, open_store(db) as store:
        if config.startswith("supervisor"):
            from graphs.supervisor import build_graph

            os.environ["AGENT_PATTERNS_DELTA_CHANNELS"] = "1" if config == "supervisor" else "0"

            graph = build_graph(
                llm=ToolCallingModel(replies=_script()),
                tools=tools,
                policy=policy.model_copy(update=_NO_BUDGETS),
                checkpointer=saver,
                store=store,
            )
            return graph.invoke({"messages": [("user", "Fetch the monthly report.")]}, thread)
        from langchain.agents import create_agent

        from nodes.middleware import GovernanceDeltaState, GovernanceMiddleware, GovernanceState

        schema = GovernanceDeltaState if config == "middleware_delta" else GovernanceState
        agent = create_agent(
            ToolCallingModel(replies=_script()),
            tools,
            middleware=[GovernanceMiddleware(policy, tools=tools)],
            checkpointer=saver,
            store=store,
            state_schema=schema,
        )
        return agent.invoke({"messages": [("user", "Fetch the monthly report.")]}, thread, durability="sync")


def table_bytes(db: str) -> dict[str, int]:
    """Bytes of each table's rows (the sum of its columns' lengths)."""
    found: dict[str, int] = {}
    with sqlite3.connect(db) as conn:
        names = [r[0] for r in conn.execute("select name from sqlite_master where type='table'")]
        for name in names:
            cols = [r[1] for r in conn.execute(f"pragma table_info('{name}')")]
            if not cols:
                continue
            total = " + ".join(f'coalesce(length("{c}"), 0)' for c in cols)
            found[name] = int(conn.execute(f'select coalesce(sum({total}), 0) from "{name}"').fetchone()[0])
    return found


def channel_bytes(db: str) -> dict[str, int]:
    """Bytes of the checkpointer's writes per channel, and of the checkpoints' blobs."""
    found: dict[str, int] = defaultdict(int)
    with sqlite3.connect(db) as conn:
        for channel, size in conn.execute("select channel, length(value) from writes"):
            found[f"writes:{channel}"] += size or 0
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    serde = JsonPlusSerializer()
    with sqlite3.connect(db) as conn:
        for type_, blob in conn.execute("select type, checkpoint from checkpoints"):
            checkpoint = serde.loads_typed((type_, blob))
            for channel, value in (checkpoint.get("channel_values") or {}).items():
                found[f"checkpoints:{channel}"] += len(serde.dumps_typed(value)[1])
    return dict(found)


def measure(config: str, size: int) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="large-results-")
    db = os.path.join(folder, "runs.sqlite")
    values = run_once(config, size, db)
    tables = table_bytes(db)
    return {
        "config": config,
        "size": size,
        "status": values.get("status") or values.get("governance_stop_reason") or "ok",
        "answer": str(values["messages"][-1].content)[:40],
        "file": os.path.getsize(db)
        + sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder) if f != "runs.sqlite"),
        "tables": tables,
        "channels": channel_bytes(db),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--configs", nargs="*", default=list(CONFIGS))
    parser.add_argument("--channels", action="store_true")
    args = parser.parse_args()
    for config in args.configs:
        got = measure(config, args.size)
        rows = sum(got["tables"].values())
        mb = 1_000_000
        print(got["status"], got["answer"])
        sizes = f"result {args.size / mb:5.1f} MB  rows {rows / mb:7.2f} MB  file {got['file'] / mb:7.2f} MB"
        print(f"{config:18} {sizes}")
        for name, size in sorted(got["tables"].items(), key=lambda kv: -kv[1]):
            if size > 1000:
                print(f"    {name:28} {size / mb:8.2f} MB")
        if args.channels:
            for name, size in sorted(got["channels"].items(), key=lambda kv: -kv[1]):
                if size > 1000:
                    print(f"    {name:40} {size / mb:8.2f} MB")


if __name__ == "__main__":
    main()
