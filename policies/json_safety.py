"""What a value from outside the gateway must be before a run keeps it in its state.

A model's reply, a tool's result and a human's answer end up in the run's state, which the
checkpointer stores after every step (msgpack) and the CLI prints as JSON. Valid JSON can still
break that: integers beyond 64 bits, lone UTF-16 surrogates (``"\\ud800"``), nesting deeper than the
serializer follows, and numbers such as ``1e400`` that parse to infinity. Such a value is refused
where it enters (the caller maps the refusal to its stop reason) rather than crashing the step that
stores it, or being stored altered.
"""

from __future__ import annotations

import math
from typing import Any

#: Deepest nesting accepted: far beyond any contract, far below what the checkpointer can store.
MAX_DEPTH = 64
#: The integers msgpack can store.
MIN_INT, MAX_INT = -(2**63), 2**64 - 1


def _text_ok(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def json_problem(value: Any, *, max_depth: int = MAX_DEPTH) -> str | None:
    """The first reason ``value`` cannot be kept — ``too_deep``, ``int_out_of_range``,
    ``non_finite_number`` or ``invalid_unicode`` — or None. Other types pass unchecked."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            if depth > max_depth:
                return "too_deep"
            if isinstance(item, dict):
                for key in item:
                    if isinstance(key, str) and not _text_ok(key):
                        return "invalid_unicode"
                children = list(item.values())
            else:
                children = list(item)
            stack.extend((child, depth + 1) for child in children)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not MIN_INT <= item <= MAX_INT:
                return "int_out_of_range"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return "non_finite_number"
        elif isinstance(item, str) and not _text_ok(item):
            return "invalid_unicode"
    return None
