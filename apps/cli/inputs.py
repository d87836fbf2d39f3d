"""A run's input, checked before anything is stored.

LangGraph writes a run's input (and a human's answer) to the checkpointer before any node runs, so
what the gateway's first node would refuse is already in the store by then, and a value the store
cannot keep (an integer beyond 64 bits, a lone surrogate) raises out of ``invoke``. The CLI checks
here first:

- the keys: each required key present, no unknown key, each of its type (text or object), no
  text empty (or only whitespace: every pattern would stop on it at once, ``invalid_input:<key>``);
- the values: storable as JSON and msgpack (:func:`policies.json_safety.json_problem`);
- the size: at most ``max_bytes`` as compact UTF-8 JSON (default :data:`DEFAULT_MAX_INPUT_BYTES`,
  ``--max-input-bytes`` or ``$AGENT_PATTERNS_MAX_INPUT_BYTES``).

From Python (or a server) an input with empty text is the pattern's to judge: the run starts and
stops with ``invalid_input:<key>``.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping
from typing import Any

from graphs.registry import Pattern
from policies.json_safety import json_problem

#: The largest input the CLI stores, in bytes of compact UTF-8 JSON: the demos take 0.1 - 1 KB.
DEFAULT_MAX_INPUT_BYTES = 64 * 1024
MAX_INPUT_ENV = "AGENT_PATTERNS_MAX_INPUT_BYTES"

_JSON_TYPES = {"text": str, "object": dict}


class InputError(ValueError):
    """The input does not fit the pattern's input schema, or cannot be stored: one line."""


def max_input_bytes(env: Mapping[str, str] | None = None) -> int:
    """``$AGENT_PATTERNS_MAX_INPUT_BYTES``, else :data:`DEFAULT_MAX_INPUT_BYTES`."""
    raw = (os.environ if env is None else env).get(MAX_INPUT_ENV, "")
    if not raw.strip():
        return DEFAULT_MAX_INPUT_BYTES
    try:
        value = int(raw)
    except ValueError:
        raise InputError(f"{MAX_INPUT_ENV} must be a whole number of bytes, got {raw!r}") from None
    if value < 1:
        raise InputError(f"{MAX_INPUT_ENV} must be at least 1, got {raw!r}")
    return value


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if value is None:
        return "null"
    names: dict[type, str] = {str: "text", dict: "an object", list: "a list"}
    return names.get(type(value), type(value).__name__)


def _key_name(key: str) -> str:
    """A key from the input as the message shows it: quoted, escaped, at most 40 characters."""
    text = repr(key)
    return text if len(text) <= 40 else text[:39] + "…"


def expected_keys(pattern: Pattern) -> str:
    return ", ".join(key.describe() for key in pattern.inputs)


def size_of(value: Any) -> int:
    """Bytes of ``value`` as compact UTF-8 JSON."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace"))


def human_size(count: int) -> str:
    if count < 1024:
        return f"{count} bytes"
    if count < 1024 * 1024:
        return f"{count / 1024:.1f} KiB"
    return f"{count / 1024 / 1024:.1f} MiB"


#: What :func:`policies.json_safety.json_problem` finds, in words.
_PROBLEMS = {
    "int_out_of_range": "an integer beyond 64 bits",
    "non_finite_number": "a number that is not finite (NaN, Infinity, 1e400)",
    "invalid_unicode": "text that is not valid Unicode (a lone surrogate)",
    "too_deep": "nesting deeper than 64 levels",
}


def check_size(value: Any, max_bytes: int, what: str) -> None:
    """Raise :class:`InputError` when ``value`` cannot be stored (see :func:`json_problem`) or is
    larger than ``max_bytes``."""
    problem = json_problem(value)
    if problem is not None:
        raise InputError(f"{what} cannot be stored: {_PROBLEMS.get(problem, problem)}")
    size = size_of(value)
    if size > max_bytes:
        raise InputError(
            f"{what} is {human_size(size)}, over the cap of {human_size(max_bytes)} "
            f"(--max-input-bytes or ${MAX_INPUT_ENV})"
        )


def check_input(pattern: Pattern, data: Any, *, max_bytes: int = DEFAULT_MAX_INPUT_BYTES) -> dict[str, Any]:
    """``data`` if it is a valid input for ``pattern``; else :class:`InputError` naming the expected
    keys. Nothing is stored or run."""
    expected = f"expected keys for {pattern.name}: {expected_keys(pattern)}"
    if not isinstance(data, dict):
        raise InputError(f"the input must be an object, not {_kind(data)}; {expected}")
    keys = pattern.input_keys()
    unknown = sorted(str(k) for k in data if k not in keys)
    if unknown:
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        named = ", ".join(_key_name(k) for k in unknown[:5]) + more
        raise InputError(f"unknown input key{'s' if len(unknown) > 1 else ''} {named}; {expected}")
    missing = [key.name for key in pattern.inputs if key.required and key.name not in data]
    if missing:
        raise InputError(
            f"missing input key{'s' if len(missing) > 1 else ''} {', '.join(missing)}; {expected}"
        )
    for name, value in data.items():
        want = keys[name].type
        if not isinstance(value, _JSON_TYPES[want]):
            raise InputError(f"input key {name} must be {want}, not {_kind(value)}; {expected}")
        if want == "text" and not value.strip():
            raise InputError(f"input key {name} is empty; {expected}")
    check_size(data, max_bytes, "the input")
    return data


def count_arg(text: str) -> int:
    """A whole number, 0 or more (``--limit``, ``--offset``): argparse's type."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def positive_arg(text: str) -> int:
    """A whole number, 1 or more (``--turn``, ``--jobs``): argparse's type."""
    value = count_arg(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value
