"""The gateway's streamable HTTP transport for clients on the 2025-11-25 revision (the initialize
handshake, ``Mcp-Session-Id``): the MCP SDK's own, except that a request whose response is the
first thing said about it is answered with one ``application/json`` body instead of an SSE stream
(the spec lets the server choose either for each POST; the client must take both). A request
about which something else is said first (a log message telling the client its call waits, an
elicitation asking its user), or that has no answer within :data:`COMMIT_AFTER`, gets the SDK's SSE
stream with that first; the SDK's 2026-07-28 path defers its choice the same way.

Why: a read through the gateway over HTTP spent about 1 ms of its ~7 ms on the SSE response (the
stream's task group, its ping task, the event framing on both sides). What the gateway decides,
and every message a client sees, is unchanged; only the content type of a response that comes
alone is. tests/test_mcp_http_transport.py holds it to the SDK's client on both revisions and
fails on an SDK that moves the parts used here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from functools import partial
from http import HTTPStatus
from typing import Any, cast

import anyio
import pydantic_core
from mcp.server.streamable_http import (
    CONTENT_TYPE_SSE,
    MCP_SESSION_ID_HEADER,
    REQUEST_STREAM_BUFFER_SIZE,
    EventMessage,
    StreamableHTTPServerTransport,
    check_accept_headers,
)
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp.types import (
    DEFAULT_NEGOTIATED_VERSION,
    INTERNAL_ERROR,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCRequest,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)
from pydantic import ValidationError
from sse_starlette import EventSourceResponse
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

logger = logging.getLogger(__name__)

#: Seconds a request waits for its first message before its response becomes an SSE stream anyway
#: (headers sent, the SDK's keep-alive pings from then on): a slow call is not left without a
#: byte for longer than this behind a proxy's idle timeout.
COMMIT_AFTER = 1.0

#: Put into a request's stream when :data:`COMMIT_AFTER` passed with nothing in it: never sent on.
_NUDGE = EventMessage(cast(JSONRPCMessage, None))


class AnswerFirstTransport(StreamableHTTPServerTransport):
    """The SDK's stateful transport, with a request answered as JSON where its response comes
    first (module doc). Anything the lean path does not take (a notification or a response from
    the client, a request the SDK would refuse, an event store for resumable streams) is the
    SDK's own handling, errors included."""

    commit_after: float = COMMIT_AFTER

    async def _handle_post_request(
        self, scope: Scope, request: Request, receive: Receive, send: Send
    ) -> None:
        message = await self._plain_request(request)
        if message is None:
            await super()._handle_post_request(scope, request, receive, send)
            return
        writer = self._read_stream_writer
        assert writer is not None  # connect() ran: the SDK's own handler asserts as much
        try:
            initialize = message.method == "initialize"
            if not initialize and not await self._validate_request_headers(request, send):
                return
            if initialize and message.params:
                version = str(message.params.get("protocolVersion", DEFAULT_NEGOTIATED_VERSION))
            else:
                version = request.headers.get(MCP_PROTOCOL_VERSION_HEADER, DEFAULT_NEGOTIATED_VERSION)
            request_id = str(message.id)
            sender, reader = anyio.create_memory_object_stream[EventMessage](REQUEST_STREAM_BUFFER_SIZE)
            self._request_streams[request_id] = (sender, reader)
            await writer.send(self._create_session_message(message, request, request_id, version))
            first = await self._first(sender, reader)
            if first is None:  # the session ended with the request in flight: as the SDK's JSON mode
                await self._clean_up_memory_streams(request_id)
                response = self._create_error_response(
                    "Session terminated before the request completed",
                    HTTPStatus.INTERNAL_SERVER_ERROR,
                    INTERNAL_ERROR,
                )
                await response(scope, receive, send)
                return
            if isinstance(first.message, JSONRPCResponse | JSONRPCError):
                await self._clean_up_memory_streams(request_id)
                await self._create_json_response(first.message)(scope, receive, send)
                return
            await self._stream(scope, receive, send, request_id, reader, first)
        except Exception as err:  # as the SDK's handler
            logger.exception("Error handling POST request")
            response = self._create_error_response(
                "Error handling POST request", HTTPStatus.INTERNAL_SERVER_ERROR, INTERNAL_ERROR
            )
            await response(scope, receive, send)
            await writer.send(Exception(err))

    async def _plain_request(self, request: Request) -> JSONRPCRequest | None:
        """The request's JSON-RPC request where the lean path takes it: the checks the SDK's
        handler makes before it answers a request, passed; else None (the SDK then handles it,
        refusing what it refuses)."""
        if self._event_store is not None or self.is_json_response_enabled:
            return None  # resumable streams begin with a priming event; JSON mode is the SDK's
        if check_accept_headers(request) != (True, True) or not self._check_content_type(request):
            return None
        try:
            message = jsonrpc_message_adapter.validate_python(
                pydantic_core.from_json(await request.body()), by_name=False
            )
        except (ValueError, ValidationError):
            return None
        if not isinstance(message, JSONRPCRequest):
            return None  # a notification or a response: 202, the SDK's
        if message.method == "initialize" and self.mcp_session_id:
            given = self._get_session_id(request)
            if given and given != self.mcp_session_id:
                return None
        return message

    async def _first(self, sender: Any, reader: Any) -> EventMessage | None:
        """The first message about the request (:data:`_NUDGE` once :attr:`commit_after` passed
        without one), or None where its stream ended first. The wait is never cancelled (a
        message handed over as the wait is cancelled would be lost): a timer puts the nudge into
        the stream instead, only while the wait is still empty-handed."""

        def nudge() -> None:
            if sender.statistics().tasks_waiting_receive:
                missed = (anyio.WouldBlock, anyio.ClosedResourceError, anyio.BrokenResourceError)
                with contextlib.suppress(*missed):
                    sender.send_nowait(_NUDGE)

        timer = asyncio.get_running_loop().call_later(self.commit_after, nudge)
        try:
            return cast(EventMessage, await reader.receive())
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            return None
        finally:
            timer.cancel()

    async def _stream(
        self, scope: Scope, receive: Receive, send: Send, request_id: str, reader: Any, first: EventMessage
    ) -> None:
        """The SDK's SSE response to the request, ``first`` (unless the nudge) its first event."""
        sse_writer, sse_reader = anyio.create_memory_object_stream[Any](0)
        self._sse_stream_writers[request_id] = sse_writer
        headers = {
            "Cache-Control": "no-cache, no-transform",
            "Connection": "keep-alive",
            "Content-Type": CONTENT_TYPE_SSE,
            **({MCP_SESSION_ID_HEADER: self.mcp_session_id} if self.mcp_session_id else {}),
        }
        opening = None if first is _NUDGE else self._create_event_data(first)
        response = EventSourceResponse(
            content=sse_reader,
            data_sender_callable=partial(self._run_sse_writer, request_id, sse_writer, reader, opening),
            headers=headers,
        )
        try:
            await response(scope, receive, send)
        except Exception:
            logger.exception("SSE response error")
            await sse_writer.aclose()
            await self._clean_up_memory_streams(request_id)
        finally:
            await sse_reader.aclose()


class GatewaySessionManager(StreamableHTTPSessionManager):
    """The SDK's session manager, its stateful sessions served by :class:`AnswerFirstTransport`
    (2026-07-28 requests, which have no sessions, go to the SDK's own path as before)."""

    def _admit_session(self, requestor: Any) -> StreamableHTTPServerTransport | None:
        transport = super()._admit_session(requestor)
        if type(transport) is StreamableHTTPServerTransport:
            # made by the SDK with everything it gives a session; only the POST handling differs
            transport.__class__ = AnswerFirstTransport
        return transport
