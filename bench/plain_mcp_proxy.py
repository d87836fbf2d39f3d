"""The bench's comparator for the gateway's cost (section 10): a plain MCP proxy, what a user runs in
front of a server when nothing is governed. It lists the upstream's tools and forwards each call
as it comes, built on the MCP SDK's own parts (its low-level server, its stdio and streamable HTTP
transports, its client), with no policy, no journal, no thread and no store.

``python -m bench.plain_mcp_proxy --upstream "python -m demo_tools.mcp_server" [--http PORT]``
(the upstream a command line, stdio, or an http(s) URL)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shlex
from typing import Any


async def serve(upstream: str, http: int | None) -> None:
    import uvicorn
    from mcp import Client, StdioServerParameters, types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server
    from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.routing import Route

    if upstream.startswith(("http://", "https://")):
        target: Any = upstream
    else:
        command = shlex.split(upstream)
        target = StdioServerParameters(command=command[0], args=command[1:])
    async with Client(target, mode="auto") as client:
        listed = (await client.list_tools()).tools

        async def list_tools(context: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=listed)

        async def call_tool(context: Any, params: types.CallToolRequestParams) -> Any:
            return await client.call_tool(params.name, params.arguments)

        server: Server[Any] = Server("plain-mcp-proxy", on_list_tools=list_tools, on_call_tool=call_tool)
        if http is None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())
            return
        manager = StreamableHTTPSessionManager(app=server)

        @contextlib.asynccontextmanager
        async def lifespan(app: Any) -> Any:
            async with manager.run():
                yield

        app = Starlette(routes=[Route("/mcp", endpoint=StreamableHTTPASGIApp(manager))], lifespan=lifespan)
        await uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=http, log_level="warning")).serve()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", required=True, help="a command line (stdio) or an http(s) URL")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT")
    args = parser.parse_args(argv)
    asyncio.run(serve(args.upstream, args.http))


if __name__ == "__main__":
    main()
