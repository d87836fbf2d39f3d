"""MCP tools in a governed agent: the hints an MCP server gives about its tools, read from the tool
objects (LangChain tools loaded with ``langchain-mcp-adapters``, or the MCP SDK's ``Tool``), and a
policy with those hints as its defaults (:func:`policies.mcp.hinted_policy`).

The tools themselves need nothing: ``SupervisorPolicy.for_tools`` and ``GovernanceMiddleware`` take
them as they come. :func:`structured_results` makes each tool's result its structured content (a
JSON value) where the server sends one, so a policy can name the fields of it it trusts.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool

from policies.mcp import HINTS, hinted_policy
from policies.policy_file import FORMATS, PolicyFileError, policy_from_file_text
from policies.supervisor.policy import SupervisorPolicy


def _hints_of(tool: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(tool, BaseTool):  # langchain-mcp-adapters keeps the annotations as metadata
        metadata = tool.metadata or {}
        hints = {k: metadata[k] for k in HINTS if metadata.get(k) is not None}
        schema = metadata.get("outputSchema")
        return tool.name, {**hints, **({"outputSchema": schema} if schema is not None else {})}
    annotations = getattr(tool, "annotations", None)
    given = annotations.model_dump() if annotations is not None else {}
    hints = {k: given[k] for k in HINTS if given.get(k) is not None}
    schema = getattr(tool, "outputSchema", None)
    return str(tool.name), {**hints, **({"outputSchema": schema} if schema is not None else {})}


def mcp_hints(tools: Iterable[Any], output_schemas: Iterable[Any] = ()) -> dict[str, dict[str, Any]]:
    """Tool name → its MCP annotations (``readOnlyHint``, ``destructiveHint``, ``openWorldHint``) and
    ``outputSchema``, from LangChain tools loaded by ``langchain-mcp-adapters`` (their ``metadata``)
    or the MCP SDK's ``Tool`` objects (``session.list_tools().tools``). The adapters do not keep a
    tool's output schema: give the SDK's tools as ``output_schemas`` to add theirs."""
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


def _structured(tool: StructuredTool) -> StructuredTool:
    own = tool.coroutine
    if own is None:
        raise ValueError(f"tool {tool.name!r} is not an MCP tool (no coroutine)")

    async def call(**arguments: Any) -> Any:
        content, artifact = await own(**arguments)
        structured = artifact.get("structured_content") if isinstance(artifact, Mapping) else None
        if structured is not None:
            return json.dumps(structured, ensure_ascii=False)
        return content

    return StructuredTool(
        name=tool.name,
        description=tool.description,
        args_schema=tool.args_schema,
        coroutine=call,
        metadata=tool.metadata,
        handle_tool_error=tool.handle_tool_error,
    )


def structured_results(tools: Iterable[BaseTool]) -> list[BaseTool]:
    """The tools (from ``langchain-mcp-adapters``), each answering with its structured content as
    JSON where the server sends one (else its content blocks, as before): a JSON value the
    governance reads field by field (``trusted_fields``, ``trust_except``, owners of records)."""
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
    return policy_from_file_text(text, fmt, hints, str(path), defaults)
