"""The gateway's streamable HTTP transport (apps/gateway/http_transport.py) with the MCP SDK's real
client, over a real socket: on 2025-11-25 (the initialize handshake, a session id) a request whose
response comes alone is answered with one JSON body, a request about which something else is said
first (a log message, an elicitation) or that is slow gets the SDK's SSE stream with everything on
it, errors and notifications are the SDK's; a 2026-07-28 client is served by the SDK's own path
as before. The last tests fail on an SDK that moves the private parts the transport builds on."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client

from apps.gateway.http_transport import AnswerFirstTransport, GatewaySessionManager

pytestmark = pytest.mark.integration


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def recording_client(seen: list[tuple[str, int, str]]) -> Any:
    """An HTTP client as the SDK makes it, noting each POST's JSON-RPC method (or ``-`` for a
    response or a notification), status and response content type."""
    import httpx2
    from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT

    async def note(response: Any) -> None:
        request = response.request
        if request.method == "POST":
            sent = json.loads(request.content or b"{}")
            method = sent.get("method", "-") if "id" in sent else "-"
            kind = response.headers.get("content-type", "").split(";")[0]
            seen.append((method, response.status_code, kind))

    timeout = httpx2.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT)
    return httpx2.AsyncClient(timeout=timeout, event_hooks={"response": [note]})


def demo_server() -> Any:
    """A low-level SDK server with a tool that answers at once, one that says something first (a
    log message about the request) and one that is slow."""
    from mcp.server.lowlevel import Server

    tools = [
        types.Tool(name=name, input_schema={"type": "object", "properties": {}})
        for name in ("fast", "tells", "slow", "asks")
    ]

    async def list_tools(context: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(context: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name == "tells":
            with warnings.catch_warnings():  # deprecated on 2026-07-28; this client is on 2025-11-25
                warnings.simplefilter("ignore")
                await context.session.send_log_message(
                    level="warning", data="it waits", logger="t", related_request_id=context.request_id
                )
        if params.name == "slow":
            await asyncio.sleep(0.4)
        if params.name == "asks":
            schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
            answer = await context.session.elicit_form("go?", schema, related_request_id=context.request_id)
            return types.CallToolResult(content=[types.TextContent(text=f"{answer.action} {answer.content}")])
        if params.name == "boom":
            raise ValueError("it broke")
        return types.CallToolResult(content=[types.TextContent(text=f"{params.name} done")])

    return Server("t", on_list_tools=list_tools, on_call_tool=call_tool)


@contextlib.asynccontextmanager
async def serving(manager: Any) -> AsyncIterator[str]:
    """``manager``'s ASGI app on a port of 127.0.0.1 (uvicorn, on this loop): its URL."""
    import uvicorn
    from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
    from starlette.applications import Starlette
    from starlette.routing import Route

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with manager.run():
            yield

    app = Starlette(routes=[Route("/mcp", endpoint=StreamableHTTPASGIApp(manager))], lifespan=lifespan)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            assert not task.done(), task
            await asyncio.sleep(0.01)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        await task


def test_a_response_that_comes_alone_is_json_and_anything_said_first_is_on_the_sse_stream(monkeypatch):
    monkeypatch.setattr(AnswerFirstTransport, "commit_after", 0.1)
    seen: list[tuple[str, int, str]] = []
    told: list[str] = []
    asked: list[str] = []

    async def log(params: types.LoggingMessageNotificationParams) -> None:
        told.append(str(params.data))

    async def user(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"ok": True})

    async def session() -> dict[str, Any]:
        results: dict[str, Any] = {}
        async with (
            serving(GatewaySessionManager(app=demo_server())) as url,
            recording_client(seen) as http,
            streamable_http_client(url, http_client=http) as (read, write),
            ClientSession(read, write, logging_callback=log, elicitation_callback=user) as client,
        ):
            results["version"] = (await client.initialize()).protocol_version
            for name in ("fast", "tells", "slow", "asks", "fast"):
                results.setdefault(name, []).append(await client.call_tool(name, {}))
            with pytest.raises(Exception, match=r".+") as raised:
                results["boom"] = await client.call_tool("boom", {})
            results["raised"] = raised.value
        return results

    results = asyncio.run(asyncio.wait_for(session(), 30))
    assert results["version"] == "2025-11-25"
    texts = {name: [r.content[0].text for r in rs] for name, rs in results.items() if isinstance(rs, list)}
    assert texts == {
        "fast": ["fast done", "fast done"],
        "tells": ["tells done"],
        "slow": ["slow done"],
        "asks": ["accept {'ok': True}"],
    }
    assert told == ["it waits"] and asked == ["go?"]
    assert "it broke" in str(results["raised"]) or "Internal" in str(results["raised"]), results["raised"]
    posts = [(method, status, kind) for method, status, kind in seen]
    calls = [p for p in posts if p[0] == "tools/call"]
    assert posts[0] == ("initialize", 200, "application/json"), posts
    assert ("-", 202, "") in posts or ("-", 202, "application/json") in posts  # the initialized note
    assert [kind for _, _, kind in calls] == [
        "application/json",  # fast: its response came alone
        "text/event-stream",  # tells: its log message first
        "text/event-stream",  # slow: nothing within commit_after
        "text/event-stream",  # asks: its elicitation first
        "application/json",
        "application/json",  # boom: the error, alone
    ], posts


def test_the_sdks_refusals_are_the_sdks():
    """What the lean path does not take is the SDK's: a missing session id, a wrong Accept, a
    notification (202), malformed JSON."""
    import httpx2

    async def probe() -> list[tuple[int, str]]:
        got = []
        async with serving(GatewaySessionManager(app=demo_server())) as url, httpx2.AsyncClient() as http:
            both = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
            hello = {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "probe", "version": "1"},
                },
            }
            opened = await http.post(url, json=hello, headers=both)
            got.append((opened.status_code, opened.headers.get("content-type", "")))
            sid = {"mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
            note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
            for body, headers in [
                (note, {**both, **sid}),
                (listing, both),  # no session id: 400
                (listing, {**both, **sid, "accept": "application/json"}),  # 406: SSE not accepted
                (b"{nope", {**both, **sid}),  # a parse error
                (listing, {**both, **sid}),
            ]:
                sent = (
                    await http.post(url, content=body, headers=headers)
                    if isinstance(body, bytes)
                    else await http.post(url, json=body, headers=headers)
                )
                got.append((sent.status_code, sent.headers.get("content-type", "").split(";")[0]))
                if sent.status_code == 200:
                    assert [t["name"] for t in sent.json()["result"]["tools"]][:1] == ["fast"]
        return got

    got = asyncio.run(asyncio.wait_for(probe(), 30))
    assert [g[0] for g in got] == [200, 202, 400, 406, 400, 200], got
    assert got[0][1] == "application/json" and got[-1][1] == "application/json"


def test_a_2026_client_is_served_by_the_sdks_own_path():
    from mcp import Client

    async def session() -> tuple[str, str]:
        async with (
            serving(GatewaySessionManager(app=demo_server())) as url,
            Client(url, mode="auto") as client,
        ):
            result = await client.call_tool("fast", {})
            return str(client.protocol_version), str(getattr(result.content[0], "text", ""))

    assert asyncio.run(asyncio.wait_for(session(), 30)) == ("2026-07-28", "fast done")


def test_the_gateway_over_http_answers_a_read_as_json_and_tells_its_client_a_call_waits(
    tmp_path: Path,
) -> None:
    """The gateway itself (``--http``, the upstream over stdio), the SDK's client on 2025-11-25: a
    read is one JSON body; a call that waits for a reviewer has the log message telling the client
    so on its SSE stream, then its result (nobody answers within ``--ask-timeout``: rejected); a
    call whose rule lets the client's user answer asks through elicitation on its stream."""
    from tests.mcp_gateway_process import ROOT, gateway_command, gateway_env

    policy = tmp_path / "policy.toml"
    policy.write_text(
        "[rules.delete_file]\nrequire_approval = true\nclient_answers = true\n\n"
        "[rules.send_email]\nrequire_approval = true\n"
    )
    port = free_port()
    command = gateway_command("--db", "memory", "--policy", str(policy), "--ask-timeout", "1")
    gateway = subprocess.Popen(
        [*command, "--http", str(port)], cwd=ROOT, env=gateway_env(tmp_path), stderr=subprocess.DEVNULL
    )
    seen: list[tuple[str, int, str]] = []
    told: list[str] = []
    asked: list[str] = []

    async def log(params: types.LoggingMessageNotificationParams) -> None:
        told.append(str(params.data))

    async def user(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": True, "message": "fine"})

    async def session() -> list[Any]:
        url = f"http://127.0.0.1:{port}/mcp"
        async with (
            recording_client(seen) as http,
            streamable_http_client(url, http_client=http) as (read, write),
            ClientSession(read, write, logging_callback=log, elicitation_callback=user) as client,
        ):
            await client.initialize()
            request: Any = {"agent-patterns/request": "Look Ana up, mail her, delete /tmp/a"}
            return [
                await client.call_tool("lookup_contact", {"name": "ana"}, meta=request),
                await client.call_tool("send_email", {"to": "ana@example.com", "body": "hi"}, meta=request),
                await client.call_tool("delete_file", {"path": "/tmp/a"}, meta=request),
                await client.call_tool("lookup_contact", {"name": "bo"}, meta=request),
            ]

    try:
        for _ in range(600):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert gateway.poll() is None, "the gateway ended"
            time.sleep(0.05)
        looked, mailed, deleted, again = asyncio.run(asyncio.wait_for(session(), 90))
    finally:
        gateway.terminate()
        gateway.wait(timeout=20)
    text = {
        n: " ".join(c.text for c in r.content) for n, r in zip("lmd", (looked, mailed, deleted), strict=True)
    }
    assert not looked.is_error and "ana" in text["l"].lower()
    assert mailed.is_error and "no answer within 1 s" in text["m"], text
    assert any("waits for a reviewer" in t for t in told), told
    assert not deleted.is_error and "deleted /tmp/a" in text["d"]
    assert len(asked) == 1 and "delete_file" in asked[0]
    assert not again.is_error
    kinds = [kind for method, _, kind in seen if method == "tools/call"]
    assert kinds == ["application/json", "text/event-stream", "text/event-stream", "application/json"], seen


def test_the_sdk_still_has_the_parts_the_transport_builds_on():
    """The private parts of the MCP SDK the gateway's transport uses: an SDK that moves one fails
    here, not in a user's session."""
    from mcp.server.streamable_http import StreamableHTTPServerTransport
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    assert list(inspect.signature(StreamableHTTPSessionManager._admit_session).parameters) == [
        "self",
        "requestor",
    ]
    assert list(inspect.signature(StreamableHTTPServerTransport._handle_post_request).parameters) == [
        "self",
        "scope",
        "request",
        "receive",
        "send",
    ]
    assert list(inspect.signature(StreamableHTTPServerTransport._run_sse_writer).parameters) == [
        "self",
        "request_id",
        "sse_stream_writer",
        "request_stream_reader",
        "priming_event",
    ]
    for name in (
        "_create_session_message",
        "_create_event_data",
        "_create_json_response",
        "_create_error_response",
        "_validate_request_headers",
        "_clean_up_memory_streams",
        "_check_content_type",
        "_get_session_id",
    ):
        assert callable(getattr(StreamableHTTPServerTransport, name)), name
    transport = StreamableHTTPServerTransport(mcp_session_id="s")
    for attribute in ("_request_streams", "_sse_stream_writers", "_event_store", "_read_stream_writer"):
        assert hasattr(transport, attribute) or attribute in StreamableHTTPServerTransport.__annotations__
    assert isinstance(transport._request_streams, dict) and isinstance(transport._sse_stream_writers, dict)
    # the manager makes the SDK's transport, which the gateway's takes over
    manager = GatewaySessionManager(app=demo_server())
    made = manager._admit_session(None)
    assert type(made) is AnswerFirstTransport and made.mcp_session_id in manager._server_instances
    assert sys.modules["apps.gateway.http_transport"].COMMIT_AFTER > 0
