"""Tool pinning: what an upstream MCP server said a tool is, the first time a gateway saw it, and
what changed since (a "rug pull": the same tool relabelled read-only, its description told to
"always BCC ...", its schema widened). Pure: a tool comes in as plain data (its MCP ``Tool`` as a
mapping), a pin is a digest of the parts a client and the policy read, and the decision is data.

The parts pinned are the ones that change what a tool does or how the governance reads it: its
name, its description, its input and output schemas and its annotations (``readOnlyHint`` and the
others: the policy's defaults read them, :mod:`policies.mcp`). A tool whose digest is its pin's is
served; a tool never seen is pinned as it is (trust on first use, said in the gateway's log); a
tool whose digest differs is hidden until an operator approves the new pin (``agent-patterns
gateway pins --approve TOOL``), and a call of it is refused, naming what changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["PINNED_PARTS", "PinCheck", "changed_parts", "check_pin", "pinned_form", "tool_digest"]

#: The parts of an MCP ``Tool`` a pin covers, in the order a diff names them.
PINNED_PARTS = ("name", "description", "inputSchema", "outputSchema", "annotations")


def pinned_form(tool: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of ``tool`` (an MCP ``Tool`` as a mapping) a pin covers, absent ones as None."""
    return {part: tool.get(part) for part in PINNED_PARTS}


def tool_digest(tool: Mapping[str, Any]) -> str:
    """The SHA-256 of the tool's pinned parts, as canonical JSON (keys sorted)."""
    text = json.dumps(pinned_form(tool), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def changed_parts(pinned: Mapping[str, Any], seen: Mapping[str, Any]) -> list[str]:
    """The pinned parts that differ between the tool as pinned and as seen now; within the
    annotations and the schemas' properties, the keys that changed ("annotations.readOnlyHint",
    "inputSchema.properties.bcc")."""
    out: list[str] = []
    for part in PINNED_PARTS:
        old, new = pinned.get(part), seen.get(part)
        if old == new:
            continue
        inner = _inner(part, old, new)
        out.extend(inner or [part])
    return out


def _inner(part: str, old: Any, new: Any) -> list[str]:
    if part == "annotations" and isinstance(old, Mapping) and isinstance(new, Mapping):
        return [f"{part}.{k}" for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    if part.endswith("Schema") and isinstance(old, Mapping) and isinstance(new, Mapping):
        before, after = old.get("properties") or {}, new.get("properties") or {}
        keys = [
            f"{part}.properties.{k}"
            for k in sorted(set(before) | set(after))
            if before.get(k) != after.get(k)
        ]
        rest = {k for k in set(old) | set(new) if k != "properties" and old.get(k) != new.get(k)}
        return keys + [f"{part}.{k}" for k in sorted(rest)]
    return []


@dataclass(frozen=True)
class PinCheck:
    """What a gateway does with one tool: ``serve`` it (its pin matches), ``pin`` it (first seen:
    served, and pinned as it is) or ``hide`` it (``changed``: the parts that differ from the pin)."""

    tool: str
    verdict: Literal["serve", "pin", "hide"]
    digest: str
    changed: tuple[str, ...] = ()


def check_pin(tool: Mapping[str, Any], pinned: Mapping[str, Any] | None) -> PinCheck:
    """The decision for ``tool`` as seen now, given its pin (``{"digest", "tool"}``: the pinned
    form and its digest) or None where the tool was never pinned."""
    digest = tool_digest(tool)
    name = str(tool.get("name"))
    if pinned is None:
        return PinCheck(name, "pin", digest)
    if pinned.get("digest") == digest:
        return PinCheck(name, "serve", digest)
    return PinCheck(name, "hide", digest, tuple(changed_parts(pinned.get("tool") or {}, pinned_form(tool))))
