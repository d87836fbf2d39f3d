"""An OpenAI-compatible chat-completions server on a free loopback port, scripted per test.

It speaks ``POST /v1/chat/completions`` over real HTTP/1.1 (plain JSON or a server-sent event
stream), honours JSON mode the way OpenAI does (``response_format: json_object`` needs the word
"json" in the messages and gets a JSON object back), reports ``usage``, checks the bearer key when
given one, and records every request it receives. Each request takes the next scripted action;
with none left it answers as the project's offline model would, on the messages it was sent, so
a pattern's demo over HTTP gives the offline model's results. A request with ``tools`` is answered
as the offline model with those tools bound: ``tool_calls`` in the assistant message (its
assistant tool calls and ``tool`` messages are read back as LangChain's messages).

Actions: :class:`Offline`, :class:`Reply`, :class:`Status`, :class:`Delay`, :class:`RawBody`,
:class:`Cut`.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from nodes.offline import OfflineChatModel, approx_tokens


@dataclass(frozen=True)
class Offline:
    """Answer as the offline model does (its text and its token counts)."""


@dataclass(frozen=True)
class Reply:
    """Answer 200 with this assistant text (token counts approximated like the offline model's)."""

    content: str


@dataclass(frozen=True)
class Status:
    """Answer with an HTTP error status and an OpenAI-style error body."""

    code: int
    message: str = "scripted error"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Delay:
    """Wait ``seconds`` (or until the server closes), then do ``then``."""

    seconds: float
    then: Any = field(default_factory=Offline)


@dataclass(frozen=True)
class RawBody:
    """Answer 200 with this body as is (e.g. text that is not JSON)."""

    body: str
    content_type: str = "application/json"


@dataclass(frozen=True)
class Cut:
    """Start the offline model's answer and drop the connection half-way: a body shorter than its
    ``Content-Length``, or a chunked event stream that stops before its last chunk."""


@dataclass
class Seen:
    """One request as the server received it; ``abandoned_at``: when the client closed the
    connection while a :class:`Delay` held the answer back (None: it waited or was answered)."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    at: float
    abandoned_at: float | None = None


def _tool_calls(message: dict[str, Any]) -> list[dict[str, Any]]:
    """An assistant message's tool calls as LangChain's (arguments parsed from their JSON)."""
    calls = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        args = json.loads(function.get("arguments") or "{}")
        calls.append({"name": function.get("name"), "args": args, "id": call.get("id"), "type": "tool_call"})
    return calls


def _to_messages(raw: list[dict[str, Any]]) -> list[BaseMessage]:
    kinds = {"system": SystemMessage, "developer": SystemMessage}
    out: list[BaseMessage] = []
    for message in raw:
        content = message.get("content") or ""
        if isinstance(content, list):
            content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
        role = message.get("role", "")
        if role == "assistant":
            out.append(AIMessage(content=content, tool_calls=_tool_calls(message)))
        elif role == "tool":
            out.append(ToolMessage(content=content, tool_call_id=str(message.get("tool_call_id"))))
        else:
            out.append(kinds.get(role, HumanMessage)(content=content, name=message.get("name")))
    return out


def _openai_calls(message: BaseMessage) -> list[dict[str, Any]]:
    """An AI message's tool calls as a chat completion carries them."""
    return [
        {
            "id": c["id"],
            "type": "function",
            "function": {"name": c["name"], "arguments": json.dumps(c["args"])},
        }
        for c in getattr(message, "tool_calls", None) or []
    ]


class OpenAICompatibleServer:
    """``with OpenAICompatibleServer() as server: ChatOpenAI(base_url=server.base_url, ...)``"""

    def __init__(
        self, *, api_key: str | None = None, model_name: str = "gpt-4.1-mini", latency: float = 0.0
    ) -> None:
        self.api_key = api_key
        self.model_name = model_name
        #: Every request waits this long before its action (a model's own time to answer).
        self.latency = latency
        self.requests: list[Seen] = []
        self._script: deque[Any] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._offline = OfflineChatModel()
        handler = type("Handler", (_Handler,), {"owner": self})
        self._httpd = _Server(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="openai-server",
            daemon=True,
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    @property
    def count(self) -> int:
        """Chat-completion requests received so far."""
        with self._lock:
            return len(self.requests)

    def script(self, *actions: Any) -> OpenAICompatibleServer:
        """Queue actions for the next requests, in order."""
        with self._lock:
            self._script.extend(actions)
        return self

    def start(self) -> OpenAICompatibleServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> OpenAICompatibleServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the handler asks
    def _record(self, seen: Seen) -> Any:
        with self._lock:
            self.requests.append(seen)
            return self._script.popleft() if self._script else Offline()

    def _answer(
        self, body: dict[str, Any], action: Offline | Reply | Cut
    ) -> tuple[str, dict[str, int], list[dict[str, Any]]]:
        """The answer's text, its usage and its tool calls (OpenAI's shape)."""
        messages = _to_messages(body.get("messages") or [])
        calls: list[dict[str, Any]] = []
        if isinstance(action, Reply):
            text = action.content
            usage = {"input_tokens": approx_tokens("x" * sum(len(m.text) for m in messages))}
            usage["output_tokens"] = approx_tokens(text)
        else:
            tools = body.get("tools")
            model = self._offline.bind_tools(tools) if tools else self._offline
            reply = model.invoke(messages)
            text, usage, calls = reply.text, dict(reply.usage_metadata or {}), _openai_calls(reply)
        prompt, completion = int(usage["input_tokens"]), int(usage["output_tokens"])
        return (
            text,
            {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
            calls,
        )


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    #: Connections waiting to be accepted: many concurrent clients connect at once (the default
    #: of 5 leaves the rest to SYN retransmits, a second later, past a short call timeout).
    request_queue_size = 256


class _Handler(BaseHTTPRequestHandler):
    owner: OpenAICompatibleServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet test output
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        headers = {k.lower(): v for k, v in self.headers.items()}
        seen = Seen(self.path, headers, body, time.monotonic())
        action = self.owner._record(seen)
        if self.owner.latency > 0:
            time.sleep(self.owner.latency)  # the model's own time (a scripted Delay comes on top)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up
            self._serve(seen, action)

    def _serve(self, seen: Seen, action: Any) -> None:
        body = seen.body
        while isinstance(action, Delay):
            if not self._wait(action.seconds):
                seen.abandoned_at = None if self.owner._closing.is_set() else time.monotonic()
                return self._drop()
            action = action.then
        if not self.path.rstrip("/").endswith("/chat/completions"):
            return self._error(Status(404, f"no route {self.path}"))
        key = self.owner.api_key
        if key is not None and self.headers.get("Authorization") != f"Bearer {key}":
            return self._error(Status(401, "Incorrect API key provided."))
        if isinstance(action, Status):
            return self._error(action)
        if isinstance(action, RawBody):
            return self._send(200, action.body.encode(), action.content_type)
        if _json_mode(body) and "json" not in json.dumps(body.get("messages")).lower():
            message = "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'."
            return self._error(Status(400, message))
        text, usage, calls = self.owner._answer(body, action)
        if body.get("stream"):
            return self._stream(body, text, usage, cut=isinstance(action, Cut), calls=calls)
        payload = json.dumps(self._completion(body, text, usage, calls)).encode()
        if isinstance(action, Cut):
            return self._cut(payload)
        self._send(200, payload, "application/json")

    def _wait(self, seconds: float) -> bool:
        """Hold the answer back ``seconds``; False as soon as the client closes its connection
        (or the server closes)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if self.owner._closing.is_set():
                return False
            readable, _, _ = select.select([self.connection], [], [], min(left, 0.02))
            if readable and not self._peek():
                return False  # end of stream: the client gave up on this request
        return True

    def _peek(self) -> bytes:
        try:
            return self.connection.recv(1, socket.MSG_PEEK)
        except OSError:  # reset by the client
            return b""

    def _completion(
        self, body: dict[str, Any], text: str, usage: dict[str, int], calls: list[dict[str, Any]]
    ) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if calls:
            message["tool_calls"] = calls
        return {
            "id": f"chatcmpl-{self.owner.count}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or self.owner.model_name,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if calls else "stop",
                    "logprobs": None,
                }
            ],
            "usage": usage,
        }

    def _send(
        self, code: int, payload: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    def _error(self, status: Status) -> None:
        kind = {401: "invalid_request_error", 429: "rate_limit_exceeded"}.get(status.code, "server_error")
        body = {"error": {"message": status.message, "type": kind, "param": None, "code": None}}
        self._send(status.code, json.dumps(body).encode(), "application/json", status.headers)

    def _cut(self, payload: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload[: len(payload) // 2])
        self.wfile.flush()
        self._drop()

    def _drop(self) -> None:
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def _stream(
        self,
        body: dict[str, Any],
        text: str,
        usage: dict[str, int],
        *,
        cut: bool,
        calls: list[dict[str, Any]] | None = None,
    ) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        events = list(self._events(body, text, usage, calls or []))
        for number, event in enumerate(events):
            if cut and number == len(events) // 2:
                self.wfile.flush()
                return self._drop()
            data = f"data: {event}\n\n".encode()
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.write(b"0\r\n\r\n")

    def _events(
        self, body: dict[str, Any], text: str, usage: dict[str, int], calls: list[dict[str, Any]]
    ) -> Iterator[str]:
        base = {"id": "chatcmpl-stream", "object": "chat.completion.chunk", "created": int(time.time())}
        base["model"] = body.get("model") or self.owner.model_name
        pieces = [text[i : i + 40] for i in range(0, len(text), 40)] or [""]
        for number, piece in enumerate(pieces):
            delta = {"role": "assistant", "content": piece} if number == 0 else {"content": piece}
            yield json.dumps({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
        if calls:  # each call whole, in one chunk
            deltas = [{"index": n, **call} for n, call in enumerate(calls)]
            choice = {"index": 0, "delta": {"tool_calls": deltas}, "finish_reason": None}
            yield json.dumps({**base, "choices": [choice]})
        finish = "tool_calls" if calls else "stop"
        yield json.dumps({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
        if (body.get("stream_options") or {}).get("include_usage"):
            yield json.dumps({**base, "choices": [], "usage": usage})
        yield "[DONE]"


def _json_mode(body: dict[str, Any]) -> bool:
    return (body.get("response_format") or {}).get("type") == "json_object"
