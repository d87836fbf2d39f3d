"""Section 10: the MCP gateway's own cost per forwarded call (``agent-patterns gateway``,
docs/mcp.md). The same calls from the MCP SDK's (2.x) client over stdio, straight to the upstream server
(demo_tools/mcp_server.py) and through the gateway in front of it (stdio both ways; its store in
memory, then in an SQLite file): the median latency of a call and the gateway's own share (the
difference). Then over streamable HTTP both ways (the upstream served on a port, the gateway in
front of it on another, its store in an SQLite file), with the ratio to a direct call. One
session makes every call, so the last calls also show what a long session costs (each call is a
step of the session's thread, whose checkpoint grows)."""

from __future__ import annotations

import asyncio
import os
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from bench.common import Section
from bench.context import Context

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = [sys.executable, "-m", "demo_tools.mcp_server"]
#: What a user runs in front of a server when nothing is governed (bench/plain_mcp_proxy.py): the
#: cost any proxy adds, the floor of the gateway's.
PROXY = [sys.executable, "-m", "bench.plain_mcp_proxy", "--upstream"]
REQUEST = {"agent-patterns/request": "Look Ana up and mail ana@example.com the minutes"}


def available() -> bool:
    """The gateway's packages: langchain's create_agent and the MCP SDK 2.x (the mcp extra)."""
    try:
        import langchain.agents  # noqa: F401
        from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: F401

        return int(version("mcp").split(".")[0]) >= 2
    except (ImportError, PackageNotFoundError, ValueError):
        return False


def _calls(mode: str) -> int:
    return {"full": 200, "quick": 100}.get(mode, 3)


def _env() -> dict[str, str]:
    """The servers' environment: the project importable, the demo's ledger not written."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("MCP_DEMO_LEDGER", None)
    return env


async def _calls_timed(
    read: Any, write: Any, tool: str, args: dict[str, str], vary: str, n: int
) -> list[float]:
    """``n`` calls of ``tool`` in one session on the streams (the 2025-11-25 handshake, which the
    gateway and the upstream serve), each timed, after one call to warm up (imports, the first
    turn)."""
    from mcp import ClientSession

    took = []
    async with ClientSession(read, write) as client:
        await client.initialize()
        await client.call_tool("lookup_contact", {"name": "bo"}, meta=REQUEST)
        for i in range(n):
            # each call its own (the same call again is a loop, or a client's retry, to the gateway)
            given = {**args, vary: f"{args[vary]} {i}"}
            start = time.perf_counter()
            result = await client.call_tool(tool, given, meta=REQUEST)
            took.append(time.perf_counter() - start)
            if result.is_error:
                raise RuntimeError(f"{tool} failed: {result.content}")
    return took


async def _timed(command: list[str], tool: str, args: dict[str, str], vary: str, n: int) -> list[float]:
    """The calls over stdio, to the server ``command`` starts."""
    from mcp import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=command[0], args=command[1:], env=_env(), cwd=str(ROOT))
    # the servers' stderr to the process's own: a test's captured sys.stderr has no file descriptor
    errlog = sys.__stderr__ or sys.stderr
    async with stdio_client(params, errlog=errlog) as (read, write):
        return await _calls_timed(read, write, tool, args, vary, n)


async def _timed_http(url: str, tool: str, args: dict[str, str], vary: str, n: int) -> list[float]:
    """The same calls over streamable HTTP, to the server at ``url``."""
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(url) as (read, write):
        return await _calls_timed(read, write, tool, args, vary, n)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _listening(port: int, process: subprocess.Popen[Any]) -> None:
    for _ in range(600):
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} ended: {process.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")


@contextmanager
def _serving(command: list[str], port: int) -> Iterator[str]:
    """``command`` serving streamable HTTP on ``port``: its URL, and the process ended after."""
    process = subprocess.Popen(
        command, cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        _listening(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def _http_rows(
    policy: Path, folder: str, calls: dict[str, tuple[dict[str, str], str]], n: int
) -> list[dict[str, Any]]:
    """Direct to the upstream over streamable HTTP, and through the gateway (its store in an SQLite
    file) and the plain proxy over HTTP both ways, then serving HTTP in front of the upstream
    started over stdio: each tool's median and its ratio to the direct one."""
    rows = []
    up = _free_port()
    with _serving([*UPSTREAM, "--http", str(up)], up) as upstream:
        for tool, (args, vary) in calls.items():
            direct = asyncio.run(_timed_http(upstream, tool, args, vary, n))
            rows.append(_row("direct_http", "-", tool, direct, None))
            base = statistics.median(direct) * 1000
            port = _free_port()
            with _serving([*PROXY, upstream, "--http", str(port)], port) as url:
                proxied = asyncio.run(_timed_http(url, tool, args, vary, n))
            rows.append(_row("proxy_http", "-", tool, proxied, base))
            port = _free_port()
            db = str(Path(folder) / f"gateway-http-{tool}.sqlite")
            gateway = [sys.executable, "-m", "governed_agent_patterns", "gateway", "--db", db]
            gateway += ["--policy", str(policy), "--upstream", upstream, "--http", str(port)]
            with _serving(gateway, port) as url:
                took = asyncio.run(_timed_http(url, tool, args, vary, n))
            rows.append(_row("gateway_http", "sqlite", tool, took, base, statistics.median(proxied) * 1000))
            # what a gateway in front of a local server serves (Docker's MCP Gateway, ContextForge):
            # the client over HTTP, the server the gateway starts over stdio: one HTTP hop, as direct;
            # the plain proxy the same way first (the floor)
            port = _free_port()
            with _serving([*PROXY, shlex.join(UPSTREAM), "--http", str(port)], port) as url:
                local = asyncio.run(_timed_http(url, tool, args, vary, n))
            rows.append(_row("proxy_http_stdio", "-", tool, local, base))
            port = _free_port()
            db = str(Path(folder) / f"gateway-http-stdio-{tool}.sqlite")
            gateway = [sys.executable, "-m", "governed_agent_patterns", "gateway", "--db", db]
            gateway += ["--policy", str(policy), "--upstream", shlex.join(UPSTREAM), "--http", str(port)]
            with _serving(gateway, port) as url:
                took = asyncio.run(_timed_http(url, tool, args, vary, n))
            rows.append(
                _row("gateway_http_stdio", "sqlite", tool, took, base, statistics.median(local) * 1000)
            )
    return rows


def _row(
    path: str, db: str, tool: str, took: list[float], direct: float | None, proxy: float | None = None
) -> dict[str, Any]:
    median = statistics.median(took) * 1000
    k = max(1, len(took) // 10)
    return {
        "path": path,
        "store": db,
        "tool": tool,
        "calls": len(took),
        "median_ms": round(median, 2),
        "p90_ms": round(sorted(took)[int(0.9 * (len(took) - 1))] * 1000, 2),
        "first_10pct_ms": round(statistics.median(took[:k]) * 1000, 2),
        "last_10pct_ms": round(statistics.median(took[-k:]) * 1000, 2),
        "gateway_ms": None if direct is None else round(median - direct, 2),
        "over_direct": None if not direct else round(median / direct, 2),
        "over_proxy": None if not proxy else round(median / proxy, 2),
    }


def run(ctx: Context) -> Section:
    section = Section(
        "mcp_gateway",
        "10. The MCP gateway: a forwarded call against a direct call to the upstream server",
        [
            "path",
            "store",
            "tool",
            "calls",
            "median_ms",
            "p90_ms",
            "first_10pct_ms",
            "last_10pct_ms",
            "gateway_ms",
            "over_direct",
            "over_proxy",
        ],
    )
    n = _calls(ctx.settings.mode)
    calls = {
        "lookup_contact": ({"name": "ana"}, "name"),
        "send_email": ({"to": "ana@example.com", "body": "the minutes"}, "body"),
    }
    if n <= 3:  # smoke: the harness end to end on the read (each path's session is a process start)
        calls = {"lookup_contact": calls["lookup_contact"]}
    with tempfile.TemporaryDirectory() as folder:
        policy = Path(folder) / "policy.toml"  # the hints' defaults, budgets for the whole session
        policy.write_text(f"[policy]\nmax_tool_calls = {n + 10}\nmax_seconds = 3600.0\n")
        for tool, (args, vary) in calls.items():
            direct = asyncio.run(_timed(UPSTREAM, tool, args, vary, n))
            section.rows.append(_row("direct", "-", tool, direct, None))
            base = statistics.median(direct) * 1000
            proxied = asyncio.run(_timed([*PROXY, shlex.join(UPSTREAM)], tool, args, vary, n))
            section.rows.append(_row("proxy", "-", tool, proxied, base))
            proxy = statistics.median(proxied) * 1000
            stores = ["memory"] + ([str(Path(folder) / f"gateway-{tool}.sqlite")] if n > 3 else [])
            for db in stores:
                gateway = [
                    sys.executable,
                    "-m",
                    "governed_agent_patterns",
                    "gateway",
                    "--db",
                    db,
                    "--policy",
                    str(policy),
                ]
                gateway += ["--upstream", shlex.join(UPSTREAM)]
                took = asyncio.run(_timed(gateway, tool, args, vary, n))
                store = "sqlite" if db != "memory" else db
                section.rows.append(_row("gateway", store, tool, took, base, proxy))
        if n > 3:  # streamable HTTP: the issue's ≤ 1.3× a direct call
            section.rows += _http_rows(policy, folder, calls, n)
            for row in section.rows:
                if row["tool"] != "lookup_contact":
                    continue
                if row["path"] == "gateway":
                    section.check(
                        f"stdio ({row['store']}): the gateway's share of a read, median ms",
                        row["gateway_ms"],
                        3.0,
                    )
                if row["path"] == "gateway_http":
                    section.check("HTTP: a forwarded read ÷ a direct read, median", row["over_direct"], 1.3)
                    # the floor under the ratio: any proxy's second hop
                    floor = next(
                        r for r in section.rows if r["path"] == "proxy_http" and r["tool"] == row["tool"]
                    )
                    section.notes.append(
                        f"HTTP: a plain MCP proxy's read ÷ a direct read: {floor['over_direct']} "
                        f"(the gateway's ÷ the plain proxy's: {row['over_proxy']})"
                    )
                if row["path"] == "gateway_http_stdio":
                    section.check(
                        "HTTP, the upstream over stdio: a forwarded read ÷ a direct HTTP read, median",
                        row["over_direct"],
                        1.3,
                    )
    return section
