"""The agent server under load: ``python -m bench.server`` (not part of ``make test`` or ``make bench``).

The stack ``make serve`` starts (``devtools/serve.py``: langgraph-api on langgraph-runtime-pg, one
API process, queue workers) on a throwaway PostgreSQL (fsync on) and redis-server, with every
worker's model ``ChatOpenAI`` against a loopback OpenAI-compatible server that answers after
100 ms (``tests/openai_server.py``, in a process of its own). A batch is N runs created at once by
20 clients, the five patterns in turn (the Supervisor with its automatic approver, so each run is
one API run); the clients create every run, then watch the threads until all are idle.

Figures, for 100 and 1,000 runs, with one and with two workers:

- ``runs_per_s``: runs ÷ wall, where wall runs from the first run's creation to the last run's
  end as the server recorded it (``updated_at``);
- ``ratio``: wall ÷ the model's critical path, the longest run's LLM calls × 100 ms (the
  Supervisor's four calls: 0.4 s): what the batch would take if nothing but the model took time.

Beside them, measured in the same run on the same PostgreSQL and model server: the same batch run
in one process through ``ainvoke`` (``AsyncPostgresSaver`` over a pool, and with no checkpointer),
the in-process way ``make bench`` measures (its section 3 gives each pattern alone).

    python -m bench.server                      # 100 and 1,000 runs, 1 and 2 workers (~15 min)
    python -m bench.server --levels 100 --workers 2 --out /tmp/server.json
    python -m bench.server --markdown bench/results/server.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.machine import machine_info, machine_line
from bench.run import table
from devtools.pgcluster import PgCluster, free_port
from devtools.redisserver import RedisServer
from devtools.serve import ROOT, AgentServer
from graphs.registry import PATTERNS

RESULTS = Path(__file__).resolve().parent / "results"
LATENCY = 0.1
CLIENTS = 20
IN_FLIGHT = 32
KEY = "bench-key"
AUTO = {"auto_approver_enabled": True}
COLUMNS = [
    "where", "workers", "runs", "wall_s", "runs_per_s", "critical_ms", "ratio", "ok", "failed",
    "retried", "refunds", "cpu_workers_ms", "cpu_api_ms", "cpu_client_ms", "cpu_postgres_ms", "cpu_redis_ms",
]  # fmt: skip

_MODEL = (
    "import sys, time; from tests.openai_server import OpenAICompatibleServer as S;"
    f"s = S(api_key={KEY!r}, latency={LATENCY}).start(); print(s.base_url, flush=True);"
    "sys.stdin.read()"
)


class ModelServer:
    """The loopback OpenAI-compatible server in a process of its own (its threads do not share a
    GIL with the clients measured here); it stops when its stdin closes."""

    def __init__(self, log: Path) -> None:
        self.log = log

    def __enter__(self) -> ModelServer:
        with self.log.open("a") as log:  # connections its clients drop are reported there
            self.proc = subprocess.Popen(
                [sys.executable, "-c", _MODEL],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
            )
        assert self.proc.stdout is not None
        self.base_url = self.proc.stdout.readline().strip()
        if not self.base_url.startswith("http"):
            raise RuntimeError("the model server did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _mix(runs: int) -> list[str]:
    names = list(PATTERNS)
    return [names[i % len(names)] for i in range(runs)]


def llm_calls(model_url: str) -> dict[str, int]:
    """Model calls of one run of each pattern (the batch's run), counted on a second model server."""
    from langgraph.checkpoint.memory import InMemorySaver

    from nodes.model import get_chat_model
    from tests.openai_server import OpenAICompatibleServer

    out = {}
    with OpenAICompatibleServer(api_key=KEY) as counter:
        llm = get_chat_model({"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": counter.base_url})
        for name, pattern in PATTERNS.items():
            before = counter.count
            graph = pattern.build(checkpointer=InMemorySaver(), llm=llm)
            context = pattern.policy(**AUTO) if name == "supervisor" else None
            result = graph.invoke(
                pattern.demo_input(), {"configurable": {"thread_id": name}}, context=context
            )
            assert result["status"] == "ok", (name, result.get("stop_reason"))
            out[name] = counter.count - before
    return out


async def _served_batch(server: AgentServer, runs: int) -> dict[str, Any]:
    from langgraph_sdk import get_client

    clients = [get_client(url=server.url, timeout=600) for _ in range(CLIENTS)]
    tag = uuid.uuid4().hex
    names = _mix(runs)
    # requests in flight at once, all clients together: within what one API process serves at once
    # (its database pool: 20 + 20 overflow; past that, requests wait and time out after 30 s)
    limit = asyncio.Semaphore(IN_FLIGHT)

    async def new_thread(i: int) -> str:
        async with limit:
            return (await clients[i % CLIENTS].threads.create(metadata={"batch": tag}))["thread_id"]

    threads = await asyncio.gather(*(new_thread(i) for i in range(runs)))

    async def start(i: int) -> dict[str, Any]:
        name = names[i]
        async with limit:
            return await clients[i % CLIENTS].runs.create(
                threads[i],
                name,
                input=PATTERNS[name].demo_input(),
                context=AUTO if name == "supervisor" else None,
            )

    started = time.time()
    created = await asyncio.gather(*(start(i) for i in range(runs)))
    watcher = clients[0]
    while True:
        counts = await asyncio.gather(
            *(
                watcher.threads.count(metadata={"batch": tag}, status=s)
                for s in ("idle", "error", "interrupted")
            )
        )
        if sum(counts) >= runs:
            break
        await asyncio.sleep(0.25)

    async def outcome(i: int) -> tuple[float, str, Any]:
        async with limit:
            client = clients[i % CLIENTS]
            run = await client.runs.get(threads[i], created[i]["run_id"])
            state = await client.threads.get_state(threads[i])
        ended = datetime.fromisoformat(str(run["updated_at"]).replace("Z", "+00:00")).timestamp()
        return ended, run["status"], state["values"]

    ends = await asyncio.gather(*(outcome(i) for i in range(runs)))
    wall = max(e for e, _, _ in ends) - started
    ok = sum(1 for _, status, values in ends if status == "success" and values.get("status") == "ok")
    return {"wall_s": round(wall, 2), "ok": ok, "failed": runs - ok}


async def _in_process_batch(database: str | None, model_url: str, runs: int) -> dict[str, Any]:
    from demo_tools.ledger import MemoryLedger
    from nodes.model import get_chat_model
    from nodes.store import open_async_checkpointer

    llm = get_chat_model({"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": model_url})
    async with open_async_checkpointer(database, pool_size=20) as saver:
        store = saver if database else None
        graphs = {n: p.build(checkpointer=store, llm=llm, ledger=MemoryLedger()) for n, p in PATTERNS.items()}
        names = _mix(runs)

        async def one(name: str) -> Any:
            config = {"configurable": {"thread_id": str(uuid.uuid4())}}
            context = PATTERNS[name].policy(**AUTO) if name == "supervisor" else None
            return await graphs[name].ainvoke(PATTERNS[name].demo_input(), config, context=context)

        started = time.perf_counter()
        results = await asyncio.gather(*(one(n) for n in names))
        wall = time.perf_counter() - started
    ok = sum(1 for r in results if r.get("status") == "ok")
    stops = Counter(
        f"{n}:{r.get('stop_reason')}" for n, r in zip(names, results, strict=True) if r.get("status") != "ok"
    )
    return {
        "wall_s": round(wall, 2),
        "ok": ok,
        "failed": runs - ok,
        **({"stops": dict(stops)} if stops else {}),
    }


def _cpu_seconds(pid: int, *, reaped: bool = False) -> float:
    """User + system CPU seconds ``pid`` has used so far (0 when it is gone); with ``reaped``, also
    what its children that have exited used."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    used = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if reaped else 0)
    return used / os.sysconf("SC_CLK_TCK")


def _postgres_cpu(postmaster: int) -> float:
    """The cluster's CPU: its postmaster, the backends it has reaped and those still running."""
    out = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True, check=False)
    return _cpu_seconds(postmaster, reaped=True) + sum(_cpu_seconds(int(p)) for p in out.stdout.split())


def _pids(server: AgentServer | None, pg: PgCluster, redis: RedisServer) -> dict[str, list[int]]:
    """The processes whose CPU a batch is charged with, by role (``postgres``: the postmaster)."""
    pids = {"postgres": [pg.pid], "redis": [redis.pid]}
    if server is not None:
        pids["api"] = [server.api.pid] if server.api else []
        pids["workers"] = [w.pid for w in server.queue]
    else:
        pids["client"] = [os.getpid()]
    return pids


class CpuMeter:
    """CPU milliseconds per run each role spent on a batch."""

    def __init__(self, pids: dict[str, list[int]]) -> None:
        self.pids = pids
        self.start = self._now()

    def _now(self) -> dict[str, float]:
        return {
            role: sum(_postgres_cpu(p) if role == "postgres" else _cpu_seconds(p) for p in pids)
            for role, pids in self.pids.items()
        }

    def per_run(self, runs: int) -> dict[str, float]:
        now = self._now()
        return {f"cpu_{role}_ms": round((now[role] - self.start[role]) * 1000 / runs, 1) for role in now}


def _refunds(database: str) -> int:
    from demo_tools.ledger import PostgresLedger

    ledger = PostgresLedger(database)
    try:
        return len(ledger.entries("refund"))
    finally:
        ledger.close()


async def _in_process(
    pg: PgCluster, redis: RedisServer, model_url: str, levels: list[int]
) -> list[dict[str, Any]]:
    """Every in-process batch in one event loop (langchain-openai keeps one async HTTP client per
    process, bound to the loop that made it)."""
    rows = []
    for runs in levels:
        for where, database in (
            ("in process, PostgreSQL", pg.create_database(f"inproc_{runs}")),
            ("in process, none", None),
        ):
            print(f"[bench.server] {runs} runs {where} ...", flush=True)
            rows.append({"where": where, "workers": "-", "runs": runs})
            meter = CpuMeter(_pids(None, pg, redis))
            rows[-1].update(await _in_process_batch(database, model_url, runs))
            rows[-1].update(meter.per_run(runs))
            print(rows[-1], flush=True)
    return rows


def _retried(server: AgentServer) -> int:
    """Runs a worker took up again (attempt 2 or later), from the workers' logs."""
    text = "".join(w.log.read_text(errors="replace") for w in server.queue)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    return len(
        set(re.findall(r"Starting background run.*?run_attempt=([2-9])\b.*?run_id=([0-9a-f-]+)", plain))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.server", description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="100,1000", help="concurrent runs per batch")
    parser.add_argument("--workers", default="1,2", help="queue worker processes, one server each")
    parser.add_argument("--out", type=Path, default=RESULTS / "server.json")
    parser.add_argument("--markdown", type=Path, help="print a result file's table as Markdown")
    args = parser.parse_args(argv)
    if args.markdown:
        result = json.loads(args.markdown.read_text())
        print(f"Machine: {machine_line(result['machine'])}\n")
        print(table(COLUMNS, result["rows"], markdown=True))
        for note in result["notes"]:
            print(f"- {note}")
        for row in result["rows"]:
            if row.get("stops") or row.get("error"):
                why = row.get("error") or ", ".join(f"{k} x{v}" for k, v in row["stops"].items())
                print(f"- {row['where']}, {row['runs']} runs: not ok: {why}")
        return 0
    levels = [int(x) for x in args.levels.split(",") if x.strip()]
    workers = [int(x) for x in args.workers.split(",") if x.strip()]
    began = time.time()
    rows: list[dict[str, Any]] = []
    logs = Path(tempfile.mkdtemp(prefix="bench-server-"))
    print(f"[bench.server] server logs in {logs}", flush=True)
    with ExitStack() as stack:
        pg = stack.enter_context(PgCluster(durable=True, max_connections=300))
        redis = stack.enter_context(RedisServer())
        model = stack.enter_context(ModelServer(logs / "model-server.log"))
        calls = llm_calls(model.base_url)
        critical = max(calls.values()) * LATENCY
        print(f"[bench.server] model calls per run: {calls}; critical path {critical:.1f} s", flush=True)
        for count in workers:
            database = pg.create_database(f"served_{count}")
            server = AgentServer(
                database_uri=database,
                redis_uri=redis.url,
                logs=logs / f"workers-{count}",
                port=free_port(),
                workers=count,
                jobs_per_worker=max(levels),
                heartbeat_seconds=60,  # a stall of the loaded event loop is not a dead worker
                env={"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": model.base_url},
            )
            with server:
                refunds, retried = 0, 0
                for runs in levels:
                    print(f"[bench.server] {runs} runs, {count} worker(s) ...", flush=True)
                    row = {"where": "server", "workers": count, "runs": runs}
                    meter = CpuMeter(_pids(server, pg, redis))
                    try:
                        row.update(asyncio.run(_served_batch(server, runs)))
                    except Exception as exc:  # reported, and the other configurations still run
                        row["error"] = f"{type(exc).__name__}: {exc}"[:300]
                        row.update(wall_s=float("nan"), ok=0, failed=runs)
                    row.update(meter.per_run(runs))
                    row["refunds"] = _refunds(database) - refunds  # one per Supervisor run
                    row["retried"] = _retried(server) - retried
                    refunds, retried = refunds + row["refunds"], retried + row["retried"]
                    rows.append(row)
                    print(row, flush=True)
        rows += asyncio.run(_in_process(pg, redis, model.base_url, levels))
    for row in rows:
        row["critical_ms"] = round(critical * 1000)
        row["runs_per_s"] = round(row["runs"] / row["wall_s"], 1)
        row["ratio"] = round(row["wall_s"] / critical, 1)
    mix = ", ".join(f"{n} {c}" for n, c in calls.items())
    result = {
        "machine": machine_info(),
        "duration_s": round(time.time() - began, 1),
        "llm_calls": calls,
        "rows": rows,
        "notes": [
            f"Batch: the five patterns in turn ({mix} model calls a run), "
            f"model latency {int(LATENCY * 1000)} ms, "
            f"{CLIENTS} clients, at most {IN_FLIGHT} requests in flight; "
            "PostgreSQL and Redis local, fsync on.",
            "server: one API process (it runs no graph) and N queue workers; wall from the first run's "
            "creation to the last run's end (the server's updated_at); ok: run success and values ok.",
            "in process: the same batch through ainvoke in one process, AsyncPostgresSaver over a pool of 20 "
            "(or no checkpointer), the same model server.",
            "cpu_*_ms: CPU milliseconds per run spent by the queue workers (together), the API process, the "
            "in-process client, PostgreSQL and Redis during the batch.",
            f"bench time {round(time.time() - began)} s",
        ],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, default=str) + "\n")
    print(f"Machine: {machine_line(result['machine'])}")
    print(table(COLUMNS, rows))
    print(f"[bench.server] wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
