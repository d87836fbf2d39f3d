"""What a tool's result is to the gateway: one reading for both engines.

The Supervisor graph calls a tool and gets a Python value; LangChain's ``ToolNode`` (the agent
behind :class:`~nodes.middleware.GovernanceMiddleware`) gets a ``ToolMessage`` whose content is the
value as JSON text (or the tool's own text, or content blocks). Both read it with
:func:`observation_of`: a text that is one whole JSON document is the value it holds (an object, a
list, a number, true/false/null), so the fields of a trusted tool that answers in JSON text are
fields: ``ToolSpec.trust_except`` and ``ToolSpec.sensitive`` paths apply to them in both engines.
Any other text stays text; content blocks and other values stay as they are. ``NaN`` and
``Infinity`` are not JSON here (a text holding them stays text), and neither is a document nested
deeper than a run can keep.

**Large observations in the audit rows** (issue 45). The conversation holds a tool's result once:
the message the model reads. The audit rows (a call row's and a history row's ``observation``,
and so the audit log's items) keep one above ``SupervisorPolicy.max_audit_chars`` by reference,
:func:`audit_observation`: ``{"truncated": true, "sha256", "chars", "head"}`` (the digest and length
of its text, :func:`observation_text`, and its first :data:`HEAD_CHARS` characters, no more than
``max_audit_chars``), so the rows that LangGraph writes into checkpoints, writes and the store do
not multiply it. The review still
reads the whole result: :func:`restored` puts it back into the call rows from the conversation's
message whose observation has that digest (each engine reads its own messages).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from policies.json_safety import json_problem

#: The first character of a text that may be a JSON document (after leading whitespace).
_JSON_START = frozenset('{["-0123456789tfn')


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON data")


#: One decoder for every observation (``json.loads`` with an argument builds one a call).
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def observation_of(value: Any) -> Any:
    """A tool's result as the run keeps it: the JSON value a text holds, else the value itself."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text or text[0] not in _JSON_START:
        return value
    try:
        parsed = _DECODER.decode(text)
    except (ValueError, RecursionError):
        return value
    return value if json_problem(parsed) is not None else parsed


#: The characters of a large observation an audit row keeps (its ``head``).
HEAD_CHARS = 2000
_REFERENCE_KEYS = frozenset({"truncated", "sha256", "chars", "head"})


def observation_text(value: Any) -> str:
    """An observation as text: itself if it is text, else its JSON (keys sorted, compact)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def observation_digest(value: Any) -> str:
    """The SHA-256 (hex) of :func:`observation_text`."""
    return hashlib.sha256(observation_text(value).encode("utf-8", "surrogatepass")).hexdigest()


def audit_observation(value: Any, max_chars: int | None) -> Any:
    """What an audit row keeps of an observation: itself, or, when its text is longer than
    ``max_chars`` (None: never), a reference to it (see the module's docstring)."""
    if max_chars is None or value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str) and len(value) <= max_chars:
        return value
    # the length, without sorting the keys (their order changes no length); sorted only to digest
    plain = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    if len(plain) <= max_chars:
        return value
    text = observation_text(value)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    head = text[: min(HEAD_CHARS, max_chars)]
    return {"truncated": True, "sha256": digest, "chars": len(text), "head": head}


def is_reference(value: Any) -> bool:
    """Is ``value`` an audit row's reference to a large observation (:func:`audit_observation`)?"""
    return isinstance(value, Mapping) and value.get("truncated") is True and set(value) == _REFERENCE_KEYS


def restored(
    calls: Sequence[Mapping[str, Any]], candidates: Callable[[], Iterable[Any]]
) -> Sequence[Mapping[str, Any]]:
    """``calls`` with each observation kept by reference replaced by the whole observation: the one
    of ``candidates()`` (the observations the conversation holds) with the same digest and length.
    ``calls`` itself when none is a reference (``candidates`` is then not called); a reference
    whose observation the conversation no longer holds stays a reference (its ``head`` is read)."""
    wanted = {
        (c["observation"]["sha256"], c["observation"]["chars"])
        for c in calls
        if is_reference(c.get("observation"))
    }
    if not wanted:
        return calls
    lengths = {chars for _sha, chars in wanted}
    found: dict[tuple[str, int], Any] = {}
    for value in candidates():
        text = observation_text(value)
        if len(text) not in lengths:
            continue
        key = (hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), len(text))
        if key in wanted:
            found[key] = value
    if not found:
        return calls
    whole: list[Mapping[str, Any]] = []
    for call in calls:
        seen: Any = call.get("observation")
        ref = (seen["sha256"], seen["chars"]) if is_reference(seen) else None
        whole.append({**call, "observation": found[ref]} if ref in found else call)
    return whole
