"""The upstream servers' resources and prompts through the gateway (docs/mcp.md): a client's
``resources/read`` and ``prompts/get`` run, in its conversation, as calls of two tools of the
gateway's own (:data:`RESOURCE_TOOL`, :data:`PROMPT_TOOL`: never listed as tools, read-only, their
results untrusted unless the policy says otherwise), so what they return counts as what the
conversation has read, as any tool result does: a value planted in a resource or a prompt does
not make a later call run unasked. The policy may hide them, trust them or give them rules, by
those names, as any tool's."""

from __future__ import annotations

import json
from typing import Any

from mcp import types

#: The gateway's own tools a resource read and a prompt's retrieval run as.
RESOURCE_TOOL = "gateway_read_resource"
PROMPT_TOOL = "gateway_get_prompt"
CONTENT_TOOLS = (RESOURCE_TOOL, PROMPT_TOOL)
#: What a read gives back (its structured content is the MCP result, as the client gets it).
RESULT_SCHEMA: dict[str, Any] = {"type": "object"}
#: The hints the policy's defaults come from: read-only, open world (results untrusted).
HINTS = {"read_only_hint": True, "open_world_hint": True}


def content_tools(pool: Any) -> list[Any]:
    """The two tools, reading through ``pool`` (:class:`apps.gateway.proxy.Upstreams`): a resource
    by its URI, a prompt by its name and arguments, from the upstream that offers it."""
    from langchain_core.tools import StructuredTool

    async def read(uri: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        client = _client(pool, "resource", uri, uri=uri)
        result = await client.read_resource(uri)
        return _said(result)

    async def prompt(
        name: str, arguments: dict[str, str] | None = None
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        client = _client(pool, "prompt", name, prompt=name)
        result = await client.get_prompt(name, arguments or None)
        return _said(result)

    metadata = {"mcp": {"tool": {"annotations": HINTS}}}
    return [
        StructuredTool(
            name=RESOURCE_TOOL,
            description="Read an upstream MCP server's resource (the gateway's own: resources/read).",
            args_schema={
                "type": "object",
                "properties": {"uri": {"type": "string"}},
                "required": ["uri"],
            },
            coroutine=read,
            metadata=metadata,
            response_format="content_and_artifact",
        ),
        StructuredTool(
            name=PROMPT_TOOL,
            description="Get an upstream MCP server's prompt (the gateway's own: prompts/get).",
            args_schema={
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "arguments": {"type": "object", "additionalProperties": {"type": "string"}},
                },
                "required": ["name"],
            },
            coroutine=prompt,
            metadata=metadata,
            response_format="content_and_artifact",
        ),
    ]


def _client(pool: Any, kind: str, what: str, **named: str) -> Any:
    """The client of the upstream offering the resource or prompt ``named``; a tool error where none
    does, or where what it resolves to (the resource, the template it comes from, the prompt)
    changed since it was pinned: not read until an operator approves the change."""
    from langchain_core.tools import ToolException

    found = pool.offering(**named)
    if found is None:
        raise ToolException(f"no upstream server offers the {kind} {what!r}")
    client, item = found
    pinned = content_pin_name(item)
    if pinned in pool.hidden_content:
        raise ToolException(
            f"{what!r} changed since it was pinned: not served until an operator approves it "
            f"(agent-patterns gateway pins --approve {pinned})"
        )
    return client


def content_pin_name(offered: Any) -> str:
    """The name a resource (``resource:<uri>``), a template (``template:<uri template>``) or a prompt
    (``prompt:<name>``) is pinned under, beside the tools' own names."""
    if isinstance(offered, types.Prompt):
        return f"prompt:{offered.name}"
    if isinstance(offered, types.ResourceTemplate):
        return f"template:{offered.uri_template}"
    return f"resource:{offered.uri}"


def content_pin_form(offered: Any) -> dict[str, Any]:
    """A resource, template or prompt as a pin covers it: its name, its description, and as its
    "input" what else defines it (a prompt's arguments; a resource's name and media type)."""
    said = offered.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(offered, types.Prompt):
        defined = {"arguments": said.get("arguments") or []}
    else:
        defined = {"name": said.get("name"), "mimeType": said.get("mimeType")}
    return {"name": content_pin_name(offered), "description": said.get("description"), "inputSchema": defined}


def _said(result: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A read's result: as text for the conversation to have read, and whole (the MCP wire form)
    as the structured content the client gets back."""
    wire = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return [{"type": "text", "text": json.dumps(wire, ensure_ascii=False)}], {"structured_content": wire}


def refused(result: types.CallToolResult) -> str | None:
    """Why a read through the gateway did not give its result (None: it did)."""
    if not result.is_error and isinstance(result.structured_content, dict):
        return None
    texts = [b.text for b in result.content if isinstance(b, types.TextContent)]
    return " ".join(texts) or "refused by the gateway"
