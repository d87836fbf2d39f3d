"""MCP tools in a governed agent: the hints an MCP server gives about its tools, read from the tool
objects (LangChain tools loaded with ``langchain.mcp``, or the MCP SDK's ``Tool``), and a
policy with those hints as its defaults (:func:`policies.mcp.hinted_policy`).

The tools themselves need nothing: ``SupervisorPolicy.for_tools`` and ``GovernanceMiddleware`` take
them as they come. :func:`structured_results` makes each tool's result its structured content (a
JSON value) where the server sends one, so a policy can name the fields of it it trusts.
:class:`MCPServers` keeps MCP sessions open on a private event-loop thread and gives their tools a
sync form as well (``langchain.mcp``'s tools are async only), for sync code such as the probe.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import sys
import threading
import warnings
from collections.abc import Awaitable, Iterable, Mapping
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool

from policies.mcp import HINTS, hinted_policy
from policies.policy_file import FORMATS, PolicyFileError, policy_from_file_text
from policies.supervisor.rules.policy import SupervisorPolicy

#: The MCP annotations as the SDK 2.x and ``langchain.mcp`` name them in Python (snake case).
_SNAKE = {
    "read_only_hint": "readOnlyHint",
    "destructive_hint": "destructiveHint",
    "open_world_hint": "openWorldHint",
}


def _named(given: Mapping[str, Any]) -> dict[str, Any]:
    """Annotations under their wire names (``readOnlyHint``...), whichever way they were written."""
    return {_SNAKE.get(k, k): v for k, v in given.items() if _SNAKE.get(k, k) in HINTS and v is not None}


def _hints_of(tool: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(tool, BaseTool):  # langchain.mcp keeps the annotations as metadata["mcp"]["tool"]
        metadata = tool.metadata or {}
        said = ((metadata.get("mcp") or {}).get("tool") or {}).get("annotations") or {}
        hints = _named(said) or _named(metadata)  # (langchain-mcp-adapters kept them flat)
        schema = metadata.get("outputSchema")
        return tool.name, {**hints, **({"outputSchema": schema} if schema is not None else {})}
    annotations = getattr(tool, "annotations", None)
    hints = _named(annotations.model_dump()) if annotations is not None else {}
    schema = getattr(tool, "output_schema", None)
    return str(tool.name), {**hints, **({"outputSchema": schema} if schema is not None else {})}


def mcp_hints(tools: Iterable[Any], output_schemas: Iterable[Any] = ()) -> dict[str, dict[str, Any]]:
    """Tool name → its MCP annotations (``readOnlyHint``, ``destructiveHint``, ``openWorldHint``) and
    ``outputSchema``, from LangChain tools loaded by ``langchain.mcp`` (their ``metadata``) or the
    MCP SDK's ``Tool`` objects (``(await client.list_tools()).tools``). ``langchain.mcp`` does not
    keep a tool's output schema: give the SDK's tools as ``output_schemas`` to add theirs."""
    hints = dict(_hints_of(t) for t in tools)
    for tool in output_schemas:
        name, given = _hints_of(tool)
        if name in hints and "outputSchema" in given:
            hints[name]["outputSchema"] = given["outputSchema"]
    return hints


def mcp_policy(
    tools: Iterable[Any],
    *,
    output_schemas: Iterable[Any] = (),
    **given: Any,
) -> SupervisorPolicy:
    """``SupervisorPolicy.for_tools(tools, ...)`` with the MCP hints of ``tools`` as its defaults:
    not ``readOnlyHint`` → a side effect, whose arguments' identifiers (links, addresses, account
    and phone numbers) come from the request or a trusted source; ``destructiveHint`` (MCP's
    default for a tool that writes) → asks a human as well; ``rules[name]`` replaces both;
    read-only with ``openWorldHint: false`` → trusted; any other tool's results untrusted. ``given``: what
    :func:`policies.mcp.hinted_policy` takes (``rules``, ``side_effects``, ``specs``,
    ``trusted_fields``, any policy field), which wins over the hints."""
    listed = list(tools)
    return hinted_policy(mcp_hints(listed, output_schemas), tools=listed, **given)


def _pick(content: Any, artifact: Any) -> Any:
    structured = artifact.get("structured_content") if isinstance(artifact, Mapping) else None
    return json.dumps(structured, ensure_ascii=False) if structured is not None else content


def _structured(tool: StructuredTool) -> StructuredTool:
    own, sync = tool.coroutine, tool.func
    if own is None:
        raise ValueError(f"tool {tool.name!r} is not an MCP tool (no coroutine)")

    async def call(**arguments: Any) -> tuple[Any, dict[str, Any]]:
        return _kept(*await own(**arguments))

    def call_sync(**arguments: Any) -> tuple[Any, dict[str, Any]]:
        assert sync is not None
        return _kept(*sync(**arguments))

    return StructuredTool(
        name=tool.name,
        description=tool.description,
        args_schema=tool.args_schema,
        func=call_sync if sync is not None else None,
        coroutine=call,
        metadata=tool.metadata,
        handle_tool_error=tool.handle_tool_error,
        response_format="content_and_artifact",
    )


def _kept(content: Any, artifact: Any) -> tuple[Any, dict[str, Any]]:
    """What the agent reads (:func:`_pick`), and as the tool message's artifact the server's own
    content blocks (``content``) beside what the adapter gave: the MCP gateway answers a client
    with the upstream's text as it was written, never re-encoded."""
    kept = dict(artifact) if isinstance(artifact, Mapping) else {}
    return _pick(content, artifact), {**kept, "content": content}


def structured_results(tools: Iterable[BaseTool]) -> list[BaseTool]:
    """The tools (from ``langchain.mcp``), each answering with its structured content as
    JSON where the server sends one (else its content blocks, as before): a JSON value the
    governance reads field by field (``trusted_fields``, ``trust_except``, owners of records). A
    tool with a sync form (:class:`MCPServers`) keeps it."""
    return [_structured(t) if isinstance(t, StructuredTool) and t.coroutine else t for t in tools]


def load_policy_file(
    path: str | Path, hints: Mapping[str, Mapping[str, Any]], defaults: Mapping[str, Any] | None = None
) -> SupervisorPolicy:
    """The policy a TOML, YAML or JSON file gives for tools with these MCP ``hints``
    (:func:`mcp_hints`): :mod:`policies.policy_file` (``defaults``: policy fields the file's
    ``[policy]`` may set otherwise). An error is a one-line
    :class:`~policies.policy_file.PolicyFileError` naming the file and the line."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise PolicyFileError(f"{path}: a policy file is .toml, .yaml, .yml or .json")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PolicyFileError(f"{path}: {exc.strerror or exc}") from None
    beside = path.parent
    return policy_from_file_text(
        text, fmt, hints, str(path), defaults, read=lambda name: (beside / name).read_text(encoding="utf-8")
    )


def _leaf(exc: BaseException) -> BaseException:
    """The one error inside nested exception groups (anyio's task groups wrap a server's), and the
    error a client's own wraps (FastMCP's "failed to connect")."""
    while True:
        if isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
            exc = exc.exceptions[0]
        elif exc.__cause__ is not None:
            exc = exc.__cause__
        else:
            return exc


async def _awaited(value: Awaitable[Any]) -> Any:
    return await value


class MCPServerError(RuntimeError):
    """An MCP server that did not start, or did not list its tools (one line: which, and why)."""


def _errlog() -> Any:
    """Where a stdio server's stderr goes: this process's, or its real one where ``sys.stderr`` has
    no file descriptor (pytest's capture, Jupyter), which a subprocess cannot write to."""
    try:
        sys.stderr.fileno()
        return sys.stderr
    except (AttributeError, OSError, ValueError):
        return sys.__stderr__


def _client(name: str, connection: Mapping[str, Any]) -> Any:
    """A FastMCP client (what ``langchain.mcp`` calls tools through) for one server's connection."""
    from fastmcp import Client
    from fastmcp.client.transports import StdioTransport, StreamableHttpTransport

    transport = connection.get("transport", "stdio" if "command" in connection else "streamable_http")
    if transport == "stdio":
        env = connection.get("env")
        return Client(
            StdioTransport(
                str(connection["command"]),
                [str(a) for a in connection.get("args") or ()],
                env=dict(env) if env is not None else None,
                cwd=connection.get("cwd"),
                keep_alive=False,  # the server's process ends with its session (close())
                log_file=_errlog(),
            )
        )
    if transport in ("streamable_http", "http") and connection.get("url"):
        headers = connection.get("headers")
        return Client(StreamableHttpTransport(str(connection["url"]), headers=dict(headers or {})))
    raise MCPServerError(f"MCP server {name!r}: give a command (transport stdio) or a url (streamable_http)")


class MCPServers:
    """MCP servers (``connections``: server name → ``{"transport": "stdio", "command": ...,
    "args": [...], "env": {...}}`` or ``{"transport": "streamable_http", "url": ..., "headers":
    {...}}``) held open, one FastMCP client each (the protocol each server speaks: 2026-07-28 or
    the 2025-11-25 handshake), on a private event-loop thread until :meth:`close` (or the end of a
    ``with`` block).

    ``tools``: their tools as ``langchain.mcp`` loads them, each callable from sync code as well
    (``tool.invoke``: the call runs on the private loop, also when the caller is inside a running
    loop of its own) and from any event loop (``tool.ainvoke``); one session per server serves every
    call, no server is started per call. ``listed``: the MCP SDK's ``Tool`` objects (their
    ``outputSchema`` for :func:`mcp_policy`'s ``output_schemas``). ``timeout``: seconds a server
    may take to start and list its tools; a server that fails raises :class:`MCPServerError`."""

    def __init__(self, connections: Mapping[str, Mapping[str, Any]], *, timeout: float = 60.0) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-servers", daemon=True)
        self._thread.start()
        self._closing: asyncio.Event | None = None
        self._closed = False
        clients = {name: _client(name, c) for name, c in connections.items()}
        ready: concurrent.futures.Future[tuple[list[BaseTool], list[Any]]] = concurrent.futures.Future()
        self._held = asyncio.run_coroutine_threadsafe(self._hold(clients, ready), self._loop)
        try:
            loaded, listed = ready.result(timeout)
        except concurrent.futures.TimeoutError:
            self.close()
            raise MCPServerError(
                f"MCP servers {', '.join(connections)}: not ready in {timeout:g} s"
            ) from None
        except BaseException:
            self.close()
            raise
        self.tools: list[BaseTool] = [self._synced(t) for t in loaded]
        self.listed: list[Any] = listed

    async def _hold(
        self,
        clients: Mapping[str, Any],
        ready: concurrent.futures.Future[tuple[list[BaseTool], list[Any]]],
    ) -> None:
        """Open every session, hand the tools over, and keep the sessions open until closing (the
        sessions are entered and left in this one task, as anyio requires)."""
        with warnings.catch_warnings():  # langchain.mcp is in beta: said once, in the docs
            warnings.simplefilter("ignore")
            from langchain.mcp import as_langchain_tool

        self._closing = asyncio.Event()
        name = ""
        try:
            async with AsyncExitStack() as stack:
                tools: list[BaseTool] = []
                listed: list[Any] = []
                for name, client in clients.items():  # noqa: B007 (named in the error below)
                    await stack.enter_async_context(client)
                    found = await client.list_tools()
                    tools += [await as_langchain_tool(t, client) for t in found]
                    listed += found
                name = ""
                ready.set_result((tools, listed))
                await self._closing.wait()
        except BaseException as exc:  # a server that failed: one line naming it, to the caller
            if not ready.done():
                leaf = _leaf(exc)
                said = f"MCP server {name!r} failed: {type(leaf).__name__}: {leaf}"
                ready.set_exception(MCPServerError(said))
            elif not isinstance(exc, asyncio.CancelledError):
                raise

    def _synced(self, tool: BaseTool) -> BaseTool:
        own = tool.coroutine if isinstance(tool, StructuredTool) else None
        if own is None:
            return tool
        loop, name = self._loop, tool.name

        def submit(arguments: dict[str, Any]) -> concurrent.futures.Future[Any]:
            if self._closed:
                raise MCPServerError(f"MCP tool {name!r} called after its servers were closed")
            if threading.current_thread() is self._thread:
                raise MCPServerError(f"MCP tool {name!r} called from its own servers' loop")
            return asyncio.run_coroutine_threadsafe(_awaited(own(**arguments)), loop)

        def call(**arguments: Any) -> Any:
            return submit(arguments).result()

        async def acall(**arguments: Any) -> Any:
            return await asyncio.wrap_future(submit(arguments))

        return StructuredTool(
            name=tool.name,
            description=tool.description,
            args_schema=tool.args_schema,
            func=call,
            coroutine=acall,
            metadata=tool.metadata,
            response_format=tool.response_format,
            handle_tool_error=tool.handle_tool_error,
        )

    def close(self) -> None:
        """Close the sessions (each stdio server's process ends) and the private loop; again: nothing."""
        if self._closed:
            return
        self._closed = True
        closing = self._closing
        if closing is not None:
            self._loop.call_soon_threadsafe(closing.set)
        try:
            self._held.result(10)
        except BaseException:  # closing: a server that is gone already has nothing more to say
            self._held.cancel()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        if not self._thread.is_alive():
            self._loop.close()

    def __enter__(self) -> MCPServers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
