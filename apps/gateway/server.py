"""The gateway as an MCP server (:mod:`apps.gateway.proxy`): ``tools/list`` lists the upstream tools the
policy allows, ``tools/call`` goes through the session's governed agent; served over stdio or
streamable HTTP on a local address."""

from __future__ import annotations

import contextlib
import contextvars
import json
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server

from apps.gateway.auth import BearerAuth, TokenVerifier, caller_of, resource_metadata, roles_of
from apps.gateway.proxy import Gateway

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
        request = server.request_context.request  # a signed-in caller sees the tools its roles may call
        caller, roles = caller_of(request), roles_of(request)
        return [t for t in gateway.listed if gateway.serves_caller(t.name, caller, roles)]

    @server.call_tool(validate_input=False)  # the governance checks the arguments, and says why
    async def call_tool(name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        context = server.request_context
        meta = context.meta.model_dump() if context.meta is not None else {}
        if name not in gateway.schemas and name not in gateway.hidden:  # a hidden one: why, below
            return types.CallToolResult(
                content=[
                    types.TextContent(type="text", text=f"refused by the gateway: no tool named {name!r}")
                ],
                isError=True,
            )
        caller = caller_of(context.request)  # the OAuth subject on authenticated HTTP, else None
        if not gateway.serves_caller(name, caller, roles_of(context.request)):
            rules = gateway.policy.rules_for(name)
            roles = ", ".join(rules.caller_roles or []) if rules is not None else ""
            return types.CallToolResult(
                content=[
                    types.TextContent(
                        type="text",
                        text=f"refused by the gateway: {name!r} is for callers with a role of {roles}: "
                        "not run",
                    )
                ],
                isError=True,
            )
        may = gateway.client_may_answer(name, caller) and _elicits(context.session)
        asker = _asker(context, caller) if may else None
        return await gateway.call(
            _SESSION.get(context.session),
            name,
            arguments,
            meta,
            asker,
            notify=_notifier(context),
            caller=caller,
        )

    return server


#: What the client's user is asked to fill in (MCP elicitation's form).
ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {"type": "boolean", "title": "Approve", "description": "Run this call?"},
        "message": {"type": "string", "title": "Note", "description": "Why (kept in the audit)"},
    },
    "required": ["approve"],
}
#: The reviewer an answer given through elicitation names in the audit.
CLIENT_REVIEWER = "mcp-client-user"


def _notifier(context: Any) -> Any:
    """Tell the client something (an MCP log message) without failing the call when it cannot."""

    async def notify(text: str) -> None:
        with contextlib.suppress(Exception):
            await context.session.send_log_message(
                level="warning", data=text, logger="agent-patterns-gateway"
            )

    return notify


def _elicits(session: Any) -> bool:
    params = getattr(session, "client_params", None)
    capabilities = getattr(params, "capabilities", None)
    return getattr(capabilities, "elicitation", None) is not None


def _asker(context: Any, caller: str | None = None) -> Any:
    """Ask the client's user about a question (MCP elicitation): approve, reject, or None when the
    user declined to answer (the question stays open for ``agent-patterns approve``). An
    authenticated ``caller``'s answer names its account (``oauth:<subject>``) in the audit."""

    async def ask(question: Mapping[str, Any]) -> dict[str, Any] | None:
        requests = question.get("action_requests") or [{}]
        text = str(requests[0].get("description") or question.get("reason") or "a call waits for approval")
        call = f"{requests[0].get('name')} {json.dumps(requests[0].get('args') or {}, ensure_ascii=False)}"
        result = await context.session.elicit(
            f"The governance gateway asks: {text}\nThe call: {call}",
            ANSWER_SCHEMA,
            related_request_id=context.request_id,
        )
        content = result.content or {}
        if result.action != "accept" or not isinstance(content.get("approve"), bool):
            return None
        answer: dict[str, Any] = {"type": "approve" if content["approve"] else "reject"}
        answer["reviewer"] = CLIENT_REVIEWER
        if caller is not None:
            answer["account"] = f"oauth:{caller}"
        if isinstance(content.get("message"), str) and content["message"]:
            answer["message"] = content["message"]
        return answer

    return ask


async def serve_stdio(gateway: Gateway) -> None:
    """Serve one client on this process's stdin/stdout."""
    from mcp.server.stdio import stdio_server

    server = mcp_server(gateway)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


#: Where the gateway publishes its protected-resource metadata (RFC 9728), at the root and for
#: the ``/mcp`` resource (MCP clients ask either).
METADATA_PATHS = ("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp")


def http_app(gateway: Gateway, auth: TokenVerifier | None = None, base_url: str = "") -> Any:
    """A Starlette app serving the gateway's streamable HTTP transport at ``/mcp``; with ``auth``,
    only to requests that carry a bearer token it accepts (OAuth 2.1 resource server), and with
    the protected-resource metadata published (``base_url``: the gateway's address as clients
    reach it)."""
    from mcp.server.fastmcp.server import StreamableHTTPASGIApp
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    manager = StreamableHTTPSessionManager(app=mcp_server(gateway))

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with manager.run():
            yield

    endpoint: Any = StreamableHTTPASGIApp(manager)
    routes = []
    if auth is not None:
        endpoint = BearerAuth(endpoint, auth, base_url.rstrip("/") + METADATA_PATHS[0])
        metadata = resource_metadata(auth.audience, auth.issuer)

        async def published(request: Any) -> Any:
            return JSONResponse(metadata)

        routes += [Route(path, endpoint=published, methods=["GET"]) for path in METADATA_PATHS]
    return Starlette(routes=[Route("/mcp", endpoint=endpoint), *routes], lifespan=lifespan)


async def serve_http(
    gateway: Gateway, host: str, port: int, started: Any = None, auth: TokenVerifier | None = None
) -> None:
    """Serve clients over streamable HTTP at ``http://HOST:PORT/mcp`` (``started``: called once
    it listens; ``auth``: the bearer tokens it takes, OAuth 2.1 resource-server mode)."""
    import uvicorn

    app = http_app(gateway, auth, f"http://{host}:{port}")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    # uvicorn shuts down gracefully on SIGTERM / SIGINT, then raises the signal again under the
    # handler it found: with Python's defaults the process would die before the gateway ends its
    # conversations' turns (their last steps' audit rows unwritten). Found, it is only noted here,
    # and the caller's ``finally`` closes the gateway.
    with _signals_noted():
        await _serve_uvicorn(server, started)


@contextlib.contextmanager
def _signals_noted() -> Iterator[None]:
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted = (signal.SIGTERM, signal.SIGINT)
    previous = {sig: signal.signal(sig, lambda *_: None) for sig in noted}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


async def _serve_uvicorn(server: Any, started: Any) -> None:
    if started is not None:
        original = server.startup

        async def startup(sockets: Any = None) -> None:
            await original(sockets)
            started()

        server.startup = startup
    await server.serve()
