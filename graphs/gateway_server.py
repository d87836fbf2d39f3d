"""The gateway as an MCP server (:mod:`graphs.gateway`): ``tools/list`` lists the upstream tools the
policy allows, ``tools/call`` goes through the session's governed agent; served over stdio or
streamable HTTP on a local address."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import AsyncIterator
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server

from graphs.gateway import Gateway

INSTRUCTIONS = (
    "Every tool call goes through a governance gateway: a refused call is a tool error that says why; "
    "a call may wait for a human. Send the user's request as _meta['agent-patterns/request'] with a "
    "call to let the rules that read it decide."
)


#: The client session a request belongs to (set for each session's run of the server: every
#: request handler runs in a task that session's run started, and sees it).
_SESSION: contextvars.ContextVar[object] = contextvars.ContextVar("mcp_gateway_session")


class GatewayServer(Server[Any, Any]):
    """The low-level MCP server, one ``run`` per client session: when the session ends (the client
    left, the connection closed), its turn on the gateway ends, as an agent's turn ends."""

    def __init__(self, gateway: Gateway) -> None:
        super().__init__("agent-patterns-gateway", instructions=INSTRUCTIONS)
        self.gateway = gateway

    async def run(self, *args: Any, **kwargs: Any) -> None:
        key = object()
        token = _SESSION.set(key)
        try:
            await super().run(*args, **kwargs)
        finally:
            _SESSION.reset(token)
            await self.gateway.forget(key)


def mcp_server(gateway: Gateway) -> Server[Any, Any]:
    """A low-level MCP server whose tools are the gateway's."""
    server = GatewayServer(gateway)

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return list(gateway.listed)

    @server.call_tool(validate_input=False)  # the governance checks the arguments, and says why
    async def call_tool(name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        context = server.request_context
        meta = context.meta.model_dump() if context.meta is not None else {}
        if name not in gateway.schemas:
            return types.CallToolResult(
                content=[
                    types.TextContent(type="text", text=f"refused by the gateway: no tool named {name!r}")
                ],
                isError=True,
            )
        return await gateway.call(_SESSION.get(context.session), name, arguments, meta)

    return server


async def serve_stdio(gateway: Gateway) -> None:
    """Serve one client on this process's stdin/stdout."""
    from mcp.server.stdio import stdio_server

    server = mcp_server(gateway)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def http_app(gateway: Gateway) -> Any:
    """A Starlette app serving the gateway's streamable HTTP transport at ``/mcp``."""
    from mcp.server.fastmcp.server import StreamableHTTPASGIApp
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.routing import Route

    manager = StreamableHTTPSessionManager(app=mcp_server(gateway))

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with manager.run():
            yield

    return Starlette(routes=[Route("/mcp", endpoint=StreamableHTTPASGIApp(manager))], lifespan=lifespan)


async def serve_http(gateway: Gateway, host: str, port: int, started: Any = None) -> None:
    """Serve clients over streamable HTTP at ``http://HOST:PORT/mcp`` (``started``: called once
    it listens)."""
    import uvicorn

    config = uvicorn.Config(http_app(gateway), host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    if started is not None:
        original = server.startup

        async def startup(sockets: Any = None) -> None:
            await original(sockets)
            started()

        server.startup = startup  # type: ignore[method-assign]
    await server.serve()
