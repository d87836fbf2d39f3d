"""The gateway as an MCP server (:mod:`apps.gateway.proxy`): ``tools/list`` lists the upstream tools the
policy allows, ``tools/call`` goes through the session's governed agent; served over stdio or
streamable HTTP on a local address."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
import warnings
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from mcp.types.version import MODERN_PROTOCOL_VERSIONS

from apps.gateway.auth import BearerAuth, TokenVerifier, caller_of, resource_metadata, roles_of
from apps.gateway.content import PROMPT_TOOL, RESOURCE_TOOL, refused
from apps.gateway.proxy import Gateway, error_result
from nodes.effects import ask_key, first_answer
from nodes.journal import DONE, process_alive

INSTRUCTIONS = (
    "Every tool call goes through a governance gateway: a refused call is a tool error that says why; "
    "a call may wait for a human. Send the user's request as _meta['agent-patterns/request'] with a "
    "call to let the rules that read it decide."
)


#: Where a connection keeps its gateway session's key (``Connection.state``): one key per client
#: connection (a stdio pipe or an HTTP session on 2025-11-25; one request on 2026-07-28, which has
#: no sessions), forgotten when the connection closes.
SESSION_STATE = "agent-patterns/session"
#: The key of the one ``InputRequiredResult`` input the gateway asks a 2026-07-28 client for.
INPUT_KEY = "approve"


def connection_of(context: Any) -> Any:
    """The MCP SDK's per-client ``Connection`` of a request (``state``, ``exit_stack``,
    ``protocol_version``). The SDK hands lowlevel handlers no public accessor for it: this is the
    one place that reaches it (guarded by tests/test_mcp_revisions.py, which fails on an SDK that
    moves it)."""
    return context.session._connection


def session_key(context: Any, gateway: Gateway) -> object:
    """The gateway session of the request's connection: made on its first call, forgotten (its turn
    ended, a question its client left rejected) when the connection closes."""
    connection = connection_of(context)
    key = connection.state.get(SESSION_STATE)
    if key is None:
        key = connection.state[SESSION_STATE] = object()
        connection.exit_stack.push_async_callback(gateway.forget, key)
    return key


def mcp_server(gateway: Gateway) -> Server[Any]:
    """A low-level MCP server (the MCP SDK 2.x) whose tools are the gateway's: protocol 2026-07-28 to
    clients that speak it, 2025-11-25 (the initialize handshake) to those that do not."""

    async def list_tools(context: Any, params: Any) -> types.ListToolsResult:
        caller, roles = caller_of(context.request), roles_of(context.request)
        return types.ListToolsResult(
            tools=[t for t in gateway.listed if gateway.serves_caller(t.name, caller, roles)]
        )

    async def call_tool(context: Any, params: types.CallToolRequestParams) -> Any:
        name, arguments = params.name, params.arguments
        meta = dict(context.meta or {})
        if name not in gateway.schemas and name not in gateway.hidden:  # a hidden one: why, below
            return error_result(f"refused by the gateway: no tool named {name!r}")
        caller = caller_of(context.request)  # the OAuth subject on authenticated HTTP, else None
        if not gateway.serves_caller(name, caller, roles_of(context.request)):
            rules = gateway.policy.rules_for(name)
            roles = ", ".join(rules.caller_roles or []) if rules is not None else ""
            return error_result(
                f"refused by the gateway: {name!r} is for callers with a role of {roles}: not run"
            )
        state = getattr(params, "request_state", None)
        if state is not None:  # a 2026-07-28 client's retry with its user's answer
            return await answered_input(gateway, params, state, caller)
        may = gateway.client_may_answer(name, caller) and _elicits(context.session)
        key = session_key(context, gateway)
        if may and context.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return await asked_input(gateway, key, name, arguments, meta, caller, _notifier(context))
        asker = _asker(context, caller) if may else None
        return await gateway.call(key, name, arguments, meta, asker, notify=_notifier(context), caller=caller)

    async def list_resources(context: Any, params: Any) -> types.ListResourcesResult:
        caller, roles = caller_of(context.request), roles_of(context.request)
        return types.ListResourcesResult(resources=gateway.offered("resources", caller, roles))

    async def list_templates(context: Any, params: Any) -> types.ListResourceTemplatesResult:
        caller, roles = caller_of(context.request), roles_of(context.request)
        return types.ListResourceTemplatesResult(
            resource_templates=gateway.offered("templates", caller, roles)
        )

    async def list_prompts(context: Any, params: Any) -> types.ListPromptsResult:
        caller, roles = caller_of(context.request), roles_of(context.request)
        return types.ListPromptsResult(prompts=gateway.offered("prompts", caller, roles))

    async def read_resource(
        context: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        said = await _read(context, gateway, RESOURCE_TOOL, {"uri": str(params.uri)})
        return types.ReadResourceResult.model_validate(said)

    async def get_prompt(context: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        arguments = {"name": params.name, **({"arguments": params.arguments} if params.arguments else {})}
        said = await _read(context, gateway, PROMPT_TOOL, arguments)
        return types.GetPromptResult.model_validate(said)

    upstreams = gateway.upstreams
    resources = upstreams is not None and upstreams.offers("resources")
    prompts = upstreams is not None and upstreams.offers("prompts")
    server: Server[Any] = Server(
        "agent-patterns-gateway",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources if resources else None,
        on_list_resource_templates=list_templates if resources else None,
        on_read_resource=read_resource if resources else None,
        on_list_prompts=list_prompts if prompts else None,
        on_get_prompt=get_prompt if prompts else None,
    )
    # the state a 2026-07-28 question carries is sealed (AES-GCM) and bound to
    # its tool, arguments, caller and expiry by the SDK; the gateway binds the rest (below)
    if gateway.state_keys:  # shared by the gateway's replicas: a retry may come to any of them
        security = RequestStateSecurity(
            keys=list(gateway.state_keys), ttl=QUESTION_TTL, bind_principal=_principal
        )
    else:  # this process's key: a question's answer comes back to this process
        security = RequestStateSecurity.ephemeral(ttl=QUESTION_TTL)
        security.bind_principal = _principal
    server.middleware.append(RequestStateBoundary(security, default_audience="agent-patterns-gateway"))
    return server


async def _read(context: Any, gateway: Gateway, tool: str, arguments: dict[str, Any]) -> Any:
    """A resource read or a prompt's retrieval, run in the request's conversation as a call of the
    gateway's own ``tool`` (what it returns then counts as read there): the MCP result, or an
    ``MCPError`` saying why not."""
    caller = caller_of(context.request)
    if not gateway.serves_content(tool, caller, roles_of(context.request)):
        raise MCPError(code=INVALID_PARAMS, message=f"refused by the gateway: {tool} is not served")
    meta = dict(context.meta or {})
    key = session_key(context, gateway)
    result = await gateway.call(key, tool, arguments, meta, None, notify=_notifier(context), caller=caller)
    why = refused(result)
    if why is not None:
        raise MCPError(code=INVALID_PARAMS, message=why)
    return result.structured_content


def _principal(context: Any) -> str | None:
    return caller_of(context.request)


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
    """Tell the client something (an MCP log message: deprecated on 2026-07-28, sent where the
    request opted in) without failing the call when it cannot."""

    async def notify(text: str) -> None:
        with contextlib.suppress(Exception), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await context.session.send_log_message(
                level="warning",
                data=text,
                logger="agent-patterns-gateway",
                related_request_id=context.request_id,
            )

    return notify


def _elicits(session: Any) -> bool:
    capabilities = getattr(session, "client_capabilities", None)
    return getattr(capabilities, "elicitation", None) is not None


def _message(question: Mapping[str, Any]) -> str:
    requests = question.get("action_requests") or [{}]
    text = str(requests[0].get("description") or question.get("reason") or "a call waits for approval")
    call = f"{requests[0].get('name')} {json.dumps(requests[0].get('args') or {}, ensure_ascii=False)}"
    return f"The governance gateway asks: {text}\nThe call: {call}"


def _answer(content: Any, action: str, caller: str | None) -> dict[str, Any] | None:
    """The decision a client user's form gives (None: the user did not answer it)."""
    content = content if isinstance(content, Mapping) else {}
    if action != "accept" or not isinstance(content.get("approve"), bool):
        return None
    answer: dict[str, Any] = {
        "type": "approve" if content["approve"] else "reject",
        "reviewer": CLIENT_REVIEWER,
    }
    if caller is not None:
        answer["account"] = f"oauth:{caller}"
    if isinstance(content.get("message"), str) and content["message"]:
        answer["message"] = content["message"]
    return answer


def _asker(context: Any, caller: str | None = None) -> Any:
    """Ask the client's user about a question (2025-11-25: an ``elicitation/create`` request in the
    middle of the call): approve, reject, or None when the user declined to answer (the question
    stays open for ``agent-patterns approve``). An authenticated ``caller``'s answer names its
    account (``oauth:<subject>``) in the audit."""

    async def ask(question: Mapping[str, Any], thread: str) -> dict[str, Any] | None:
        result = await context.session.elicit_form(
            _message(question), ANSWER_SCHEMA, related_request_id=context.request_id
        )
        return _answer(result.content, result.action, caller)

    return ask


#: Seconds a 2026-07-28 client has to come back with its user's answer (the sealed state's expiry);
#: past it the question waits for reviewers (``agent-patterns approve``) as any other.
QUESTION_TTL = 600.0


#: The journal's thread of the 2026-07-28 questions (:func:`asked_input`): each question's record
#: (its thread, what it asks, the policy and caller it binds, its expiry) and, once the call ended,
#: its result; an answer's single use is a claim there too. Every gateway process on the store
#: sees them: a retry may come to another replica than the one whose call waits.
QUESTIONS_THREAD = "mcp-gateway:questions"


@dataclass
class Pending:
    """A call waiting for its 2026-07-28 client's answer, in the process that holds it."""

    task: asyncio.Task[types.CallToolResult]
    key: object


async def asked_input(
    gateway: Gateway,
    key: object,
    name: str,
    arguments: Mapping[str, Any] | None,
    meta: Mapping[str, Any],
    caller: str | None,
    notify: Any,
) -> Any:
    """A 2026-07-28 call whose question the client's user may answer: its result, or, where the
    policy asks, an ``InputRequiredResult`` whose sealed ``requestState`` names the waiting question
    (single use; bound by the SDK to this tool, these arguments, this caller and an expiry, and by
    the gateway to the policy it was asked under). The call waits, also for reviewers, meanwhile;
    its result is kept in the journal for whichever gateway process the answer comes to."""
    loop = asyncio.get_running_loop()
    asked: asyncio.Future[tuple[Mapping[str, Any], str]] = loop.create_future()
    nonce = uuid.uuid4().hex

    async def ask(question: Mapping[str, Any], thread: str) -> dict[str, Any] | None:
        if not asked.done():
            record = {
                "thread": thread,
                "ask": ask_key(question),
                "policy": gateway.policy_digest,
                "caller": caller,
                "expires": time.time() + QUESTION_TTL,
            }
            await asyncio.to_thread(gateway.journal.begin, QUESTIONS_THREAD, nonce, record)
            asked.set_result((question, thread))
        await asyncio.Event().wait()  # the answer comes with the client's retry, into the journal
        return None

    async def held() -> types.CallToolResult:
        result = await gateway.call(key, name, arguments, meta, ask, notify=notify, caller=caller)
        if asked.done():  # a question was asked: its result, for the replica the answer comes to
            dumped = {"result": result.model_dump(mode="json", by_alias=True, exclude_none=True)}
            await asyncio.to_thread(gateway.journal.finish, QUESTIONS_THREAD, nonce, DONE, dumped)
        return result

    task = asyncio.ensure_future(held())
    either: set[asyncio.Future[Any]] = {task, asked}
    await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        return task.result()
    question, _thread = asked.result()
    # the waiting call outlives this request's connection (2026-07-28 has no sessions): its
    # session is kept under the question until the answer's retry has its result
    gateway.detach(key, ("question", nonce))
    gateway.pending[nonce] = Pending(task, ("question", nonce))
    # a client that never comes back: once its question expired and the call ended (a reviewer's
    # answer, or --ask-timeout), its session is let go as a session whose client left
    task.add_done_callback(lambda _done: _let_go_later(gateway, nonce))
    elicit = types.ElicitRequest(
        params=types.ElicitRequestFormParams(message=_message(question), requested_schema=ANSWER_SCHEMA)
    )
    state = json.dumps({"question": nonce, "policy": gateway.policy_digest})
    return types.InputRequiredResult(input_requests={INPUT_KEY: elicit}, request_state=state)


def _let_go_later(gateway: Gateway, nonce: str) -> None:
    """After the question's state expired, forget the session of a call whose client never came
    back with its answer (the call itself ended: its result is in the journal)."""

    if nonce not in gateway.pending:  # its client came back: answered, and let go then
        return

    async def let_go() -> None:
        await asyncio.sleep(QUESTION_TTL)
        pending = gateway.pending.pop(nonce, None)
        if pending is not None:
            await gateway.forget(pending.key)

    cleanup = asyncio.ensure_future(let_go())
    gateway.cleanups.add(cleanup)
    cleanup.add_done_callback(gateway.cleanups.discard)


async def answered_input(gateway: Gateway, params: Any, state: str, caller: str | None) -> Any:
    """A 2026-07-28 client's retry with its user's answer, in any gateway process on the store: the
    answer is the question's first one unless a reviewer's came first, and the call's result is
    returned. A question answered before, expired, asked under another policy or of another caller
    is refused: nothing runs."""
    try:
        said = json.loads(state)
        nonce = str(said["question"])
    except (ValueError, KeyError, TypeError):
        return error_result("refused by the gateway: the requestState names no question: not run")
    journal = gateway.journal
    record = await asyncio.to_thread(journal.get, QUESTIONS_THREAD, nonce)
    if record is None:
        return error_result("refused by the gateway: the requestState names no question: not run")
    if (
        said.get("policy") != gateway.policy_digest
        or record.get("policy") != gateway.policy_digest
        or record.get("caller") != caller
        or time.time() > float(record.get("expires") or 0)
    ):
        return error_result(
            "refused by the gateway: the answer does not fit its question (another policy, caller or "
            "an expired question): not run; the call waits for a reviewer (agent-patterns approve)"
        )
    used = await asyncio.to_thread(journal.begin, QUESTIONS_THREAD, f"{nonce}:answer", {"caller": caller})
    if not used.created:
        return error_result(
            "refused by the gateway: this question was answered before (an answer is used once): "
            "not run again"
        )
    response = (getattr(params, "input_responses", None) or {}).get(INPUT_KEY)
    given = _answer(getattr(response, "content", None), str(getattr(response, "action", "")), caller)
    if given is not None:  # else the user did not answer: the call waits for reviewers
        await asyncio.to_thread(
            first_answer, journal, record["thread"], record["ask"], {"decisions": [given]}
        )
    pending = gateway.pending.pop(nonce, None)
    if pending is not None:  # the call waits in this process
        try:
            return await pending.task
        finally:
            await gateway.forget(pending.key)
    return await _result_of(gateway, nonce)


async def _result_of(gateway: Gateway, nonce: str) -> types.CallToolResult:
    """The result of a question's call another gateway process holds, once it is in the journal."""
    while True:
        found = await asyncio.to_thread(gateway.journal.get, QUESTIONS_THREAD, nonce) or {}
        if found.get("status") == DONE:
            return types.CallToolResult.model_validate((found.get("outcome") or {}).get("result"))
        if process_alive(found) is False:
            return error_result(
                "refused by the gateway: the gateway process holding this call stopped before it "
                "ended: not made again (check the system it acts on)"
            )
        await asyncio.sleep(gateway.poll)


async def serve_stdio(gateway: Gateway) -> None:
    """Serve one client on this process's stdin/stdout: read and written on the event loop where
    both are pipes (:func:`piped_stdio`), else through the MCP SDK's own transport."""
    from mcp.server.stdio import stdio_server

    server = mcp_server(gateway)
    with piped_stdio() as pipes:
        async with stdio_server(*(await pipes.opened()) if pipes else ()) as (read, write):
            await server.run(read, write, server.create_initialization_options())


#: The longest line a client may send over stdio (a JSON-RPC message): 64 MiB.
LINE_LIMIT = 1 << 26


class PipedLines:
    """The gateway's stdin and stdout as the MCP SDK's stdio transport takes them (an async
    iterator of lines; ``write`` and ``flush``), read and written on the event loop: the SDK's own
    reads and writes each line through a worker thread, two thread hand-overs per call."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd, self.write_fd = read_fd, write_fd
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def opened(self) -> tuple[PipedLines, PipedLines]:
        loop = asyncio.get_running_loop()
        self.reader = asyncio.StreamReader(limit=LINE_LIMIT)
        protocol = asyncio.StreamReaderProtocol(self.reader)
        # the files are the transports' for as long as the loop serves (the fds are piped_stdio's)
        read = open(self.read_fd, "rb", buffering=0, closefd=False)  # noqa: SIM115
        write = open(self.write_fd, "wb", buffering=0, closefd=False)  # noqa: SIM115
        await loop.connect_read_pipe(lambda: protocol, read)
        transport, out = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, write)
        self.writer = asyncio.StreamWriter(transport, out, None, loop)
        return self, self

    def __aiter__(self) -> PipedLines:
        return self

    async def __anext__(self) -> str:
        assert self.reader is not None
        try:
            line = await self.reader.readline()
        except ValueError:  # a line past LINE_LIMIT: dropped, read as a malformed message
            return "\n"
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")

    async def write(self, text: str) -> None:
        assert self.writer is not None
        self.writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        assert self.writer is not None
        await self.writer.drain()


@contextlib.contextmanager
def piped_stdio() -> Iterator[PipedLines | None]:
    """Where stdin and stdout are both pipes (as an MCP client starts the gateway), the two taken
    for the wire (:class:`PipedLines`), and fd 0 and fd 1 pointed at the null device and at
    stderr meanwhile, so that stray output of the process or of the upstream servers it starts
    misses the wire (as the SDK's transport does); restored after. None where either is not a
    pipe (a file, a terminal): the SDK's transport then."""
    import os
    import stat

    try:
        if not all(stat.S_ISFIFO(os.fstat(fd).st_mode) for fd in (0, 1)):
            yield None
            return
    except OSError:
        yield None
        return
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)
        yield PipedLines(wire_in, wire_out)
    finally:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        for fd in (null, wire_in, wire_out):
            with contextlib.suppress(OSError):
                os.close(fd)


#: Where the gateway publishes its protected-resource metadata (RFC 9728), at the root and for
#: the ``/mcp`` resource (MCP clients ask either).
METADATA_PATHS = ("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp")


def http_app(gateway: Gateway, auth: TokenVerifier | None = None, base_url: str = "") -> Any:
    """A Starlette app serving the gateway's streamable HTTP transport at ``/mcp``; with ``auth``,
    only to requests that carry a bearer token it accepts (OAuth 2.1 resource server), and with
    the protected-resource metadata published (``base_url``: the gateway's address as clients
    reach it)."""
    from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from apps.gateway.http_transport import GatewaySessionManager

    # a 2025-11-25 response that comes alone is one JSON body, not an SSE stream (http_transport)
    manager = GatewaySessionManager(app=mcp_server(gateway))

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
