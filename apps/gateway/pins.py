"""The gateway's tool pins, kept in the store's journal (``--db``): each upstream tool as the
gateway first saw it, the changes it saw since, and the operator's approvals
(:mod:`policies.tool_pins` decides; this module keeps). ``agent-patterns gateway pins`` lists them,
shows what changed and approves a new pin (docs/mcp.md, "Pinning").

Pins live in the journal's thread :data:`PINS_THREAD`: under ``tool:<name>`` the approved pin (its
digest, its pinned form, who approved it and when), and under ``pending:<name>:<digest>`` each
changed form a gateway saw and hid. Every gateway on the same store reads the same pins.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from nodes.journal import DONE, STARTED, Journal
from policies.tool_pins import PinCheck, changed_parts, check_pin, pinned_form

#: The journal thread of the pins.
PINS_THREAD = "mcp-gateway:pins"


def _pin_key(name: str) -> str:
    return f"tool:{name}"


def _pending_key(name: str, digest: str) -> str:
    return f"pending:{name}:{digest}"


def seen_form(tool: Any) -> dict[str, Any]:
    """An MCP ``Tool`` (or a mapping) as plain data, the way its pin is computed."""
    if isinstance(tool, Mapping):
        return dict(tool)
    return tool.model_dump(mode="json", by_alias=True, exclude_none=True)


def pinned(journal: Journal, name: str) -> dict[str, Any] | None:
    """The approved pin of ``name`` (digest, pinned form, approver), or None: never pinned."""
    stored = journal.get(PINS_THREAD, _pin_key(name))
    if not stored or stored.get("status") != DONE:
        return None
    return dict(stored.get("outcome") or {})


def _set_pin(journal: Journal, name: str, pin: dict[str, Any]) -> None:
    journal.begin(PINS_THREAD, _pin_key(name), {"tool_name": name})
    journal.finish(PINS_THREAD, _pin_key(name), DONE, pin)


def checked(
    journal: Journal, listed: Iterable[Any], where: Mapping[str, str] | None = None
) -> list[PinCheck]:
    """Each listed tool checked against its pin: a tool never seen is pinned as it is (trust on
    first use); a changed one is recorded as pending (``agent-patterns gateway pins``) and comes
    back with verdict ``hide``. ``where``: tool name → its upstream, kept with the pin."""
    out: list[PinCheck] = []
    for tool in listed:
        seen = seen_form(tool)
        name = str(seen.get("name"))
        check = check_pin(seen, pinned(journal, name))
        upstream = (where or {}).get(name)
        if check.verdict == "pin":
            _set_pin(
                journal,
                name,
                {"digest": check.digest, "tool": pinned_form(seen), "approved_by": "first use",
                 "at": time.time(), "upstream": upstream},
            )  # fmt: skip
        elif check.verdict == "hide":
            journal.begin(
                PINS_THREAD,
                _pending_key(name, check.digest),
                {"tool_name": name, "digest": check.digest, "tool": pinned_form(seen),
                 "changed": list(check.changed), "upstream": upstream, "seen_at": time.time()},
            )  # fmt: skip
        out.append(check)
    return out


def pins(journal: Journal) -> list[dict[str, Any]]:
    """Every pinned tool: its pin (digest, approved by, when, upstream) and the changed forms
    seen since and not approved (``pending``: digest, the parts that changed, when)."""
    effects = journal.effects(PINS_THREAD)
    found: dict[str, dict[str, Any]] = {}
    for effect in effects:
        key = str(effect.get("key"))
        if key.startswith("tool:") and effect.get("status") == DONE:
            pin = dict(effect.get("outcome") or {})
            found.setdefault(key[5:], {"tool": key[5:], "pending": []}).update(
                digest=pin.get("digest"), approved_by=pin.get("approved_by"), at=pin.get("at"),
                upstream=pin.get("upstream"),
            )  # fmt: skip
    for effect in effects:
        key = str(effect.get("key"))
        if key.startswith("pending:") and effect.get("status") == STARTED:
            name = str(effect.get("tool_name"))
            found.setdefault(name, {"tool": name, "pending": []})["pending"].append(
                {"digest": effect.get("digest"), "changed": effect.get("changed") or [],
                 "seen_at": effect.get("seen_at"), "upstream": effect.get("upstream")}
            )  # fmt: skip
    return [found[name] for name in sorted(found)]


def approve(journal: Journal, name: str, by: str) -> dict[str, Any]:
    """Approve the newest changed form of ``name`` a gateway hid: it becomes the pin (the other
    pending forms of the tool stay pending). Returns what was approved (``changed``: against the
    pin it replaces). A tool with nothing pending is a ``LookupError`` naming what is."""
    waiting = [
        e
        for e in journal.effects(PINS_THREAD)
        if e.get("tool_name") == name
        and str(e.get("key")).startswith("pending:")
        and e.get("status") == STARTED
    ]
    if not waiting:
        known = [p["tool"] for p in pins(journal) if p["pending"]]
        said = f"tools with changes waiting: {', '.join(known)}" if known else "no tool has a change waiting"
        raise LookupError(f"no change of {name!r} waits for approval ({said})")
    newest = waiting[-1]
    before = pinned(journal, name) or {}
    pin = {"digest": newest.get("digest"), "tool": newest.get("tool"), "approved_by": by, "at": time.time(),
           "upstream": newest.get("upstream")}  # fmt: skip
    _set_pin(journal, name, pin)
    journal.finish(PINS_THREAD, str(newest.get("key")), DONE, {"approved_by": by})
    return {"tool": name, "digest": pin["digest"], "approved_by": by,
            "changed": changed_parts(before.get("tool") or {}, newest.get("tool") or {})}  # fmt: skip


def served(listed: Sequence[Any], checks: Sequence[PinCheck]) -> list[Any]:
    """The listed tools a gateway serves: those its pins do not hide."""
    hidden = {c.tool for c in checks if c.verdict == "hide"}
    return [t for t in listed if str(seen_form(t).get("name")) not in hidden]
