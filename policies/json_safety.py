"""What a value from outside the gateway must be before a run keeps it in its state.

A model's reply, a tool's result, a search result, a page, a retrieved document and a human's
answer end up in the run's state, which the checkpointer stores after every step (msgpack) and the
CLI prints as JSON. Only plain JSON data is kept: ``dict`` with ``str`` keys, ``list``, ``str``,
``int``, ``float``, ``bool`` and ``None`` — those exact built-in types, no subclasses. Anything
else (an object of the caller's own class, ``complex``, ``bytes``, a ``set`` or ``tuple``, a
``datetime``, a ``Decimal``, a ``dict`` keyed by integers or tuples, a ``dict`` subclass that
overrides its methods) is refused by name where it enters, and so is valid JSON the run still
cannot keep: integers beyond 64 bits, lone UTF-16 surrogates (``"\\ud800"``), nesting deeper than
the serializer follows, numbers such as ``1e400`` that parse to infinity, and structures so large
(shared references included) that storing them would not end. The caller maps the refusal to its
stop reason rather than crashing the step that stores the value, storing it altered, or printing a
result that is not JSON.

The check never calls code of the value's own: it looks at exact types only, so an object whose
``__eq__``, ``__iter__``, ``__str__`` or ``__class__`` raises is refused like any other.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from typing import Any

#: Deepest nesting accepted: far beyond any contract, far below what the checkpointer can store.
MAX_DEPTH = 64
#: Most values (containers and scalars, counted each time they are reached) one value may hold: a
#: list holding the same list twice, 40 levels deep, is 2**40 values to store (and to check). Far
#: beyond any model's context; checking this many takes a fraction of a second.
MAX_ITEMS = 250_000
#: The integers msgpack can store.
MIN_INT, MAX_INT = -(2**63), 2**64 - 1

_SCALARS = (str, int, float, bool, type(None))
_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_.]")


def _text_ok(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def leaves(value: Any, mapping: type[Mapping[Any, Any]] = Mapping) -> Iterator[Any]:
    """Every leaf of a JSON-like value, in order: the values of its mappings (instances of
    ``mapping``; keys not included) and the items of its lists and tuples, all the way down."""
    if isinstance(value, mapping):
        for child in value.values():
            yield from leaves(child, mapping)
    elif isinstance(value, list | tuple):
        for child in value:
            yield from leaves(child, mapping)
    else:
        yield value


def type_name(value: Any) -> str:
    """The name of ``value``'s type, safe to keep and print (ASCII letters, digits, ``_ .``; at most
    60 characters); never raises, whatever the type's metaclass does."""
    try:
        name = type.__dict__["__name__"].__get__(type(value))
    except Exception:  # pragma: no cover - type.__name__ of a real type always reads
        return "?"
    return _NAME_UNSAFE.sub("?", name)[:60] or "?"


def json_problem(value: Any, *, max_depth: int = MAX_DEPTH, max_items: int = MAX_ITEMS) -> str | None:
    """The first reason ``value`` is not plain JSON data the run can keep, or None.

    Reasons: ``not_json:<type>`` (a type outside the whitelist), ``key_not_str:<type>`` (a dict
    key that is not a ``str``), ``too_deep``, ``too_large``, ``int_out_of_range``,
    ``non_finite_number``, ``invalid_unicode``. Never raises."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > max_items:
            return "too_large"
        kind = type(item)
        if kind is dict or kind is list:
            if depth > max_depth:
                return "too_deep"
            if kind is dict:
                for key in item:
                    if type(key) is not str:
                        return f"key_not_str:{type_name(key)}"
                    if not _text_ok(key):
                        return "invalid_unicode"
                children = list(item.values())
            else:
                children = list(item)
            if seen + len(stack) + len(children) > max_items:
                return "too_large"
            stack.extend((child, depth + 1) for child in children)
        elif kind not in _SCALARS:
            return f"not_json:{type_name(item)}"
        elif kind is int:
            if not MIN_INT <= item <= MAX_INT:
                return "int_out_of_range"
        elif kind is float:
            if not math.isfinite(item):
                return "non_finite_number"
        elif kind is str and not _text_ok(item):
            return "invalid_unicode"
    return None


def plain_copy(value: Any) -> Any:
    """A copy of plain JSON data (new dicts and lists; strings and numbers are immutable), so that
    what the run keeps is what was checked, whatever the value's owner does with it afterwards.
    Call it on a value :func:`json_problem` accepted."""
    if type(value) is dict:
        return {key: plain_copy(item) for key, item in value.items()}
    if type(value) is list:
        return [plain_copy(item) for item in value]
    return value


def _well_formed_text(text: str) -> str:
    if _text_ok(text):
        return text
    # a pair of surrogates is the one character it encodes; a lone one, U+FFFD
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def well_formed(value: Any, *, max_depth: int = MAX_DEPTH) -> Any:
    """``value`` as every store keeps it and every client reads it: each ``str`` at any depth of
    plain ``dict`` and ``list`` data (keys included) with its lone UTF-16 surrogates replaced by
    U+FFFD (a surrogate pair becomes the character it encodes). The value itself when nothing
    changes, else a copy; anything else (another type, nesting past ``max_depth``) as it is, for
    :func:`json_problem` to judge. What the gateway hands the model goes through it first, so what
    the model read is what a checkpoint, the audit log and the journal read back (a checkpointer or
    a store would otherwise replace each lone surrogate with ``?``)."""
    kind = type(value)
    if kind is str:
        return _well_formed_text(value)
    if max_depth < 0 or (kind is not dict and kind is not list):
        return value
    if kind is list:
        items = [well_formed(item, max_depth=max_depth - 1) for item in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    pairs = [
        (
            well_formed(key, max_depth=0) if type(key) is str else key,
            well_formed(item, max_depth=max_depth - 1),
        )
        for key, item in value.items()
    ]
    same = all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items(), strict=True))
    return value if same else dict(pairs)


def storable_text(text: str) -> str:
    """``text`` with anything UTF-8 cannot encode (lone surrogates) replaced by ``?``."""
    return text.encode("utf-8", "replace").decode("utf-8")


def error_text(exc: BaseException, *, limit: int = 300) -> str:
    """``"<Type>: <message>"`` of an exception, at most ``limit`` characters, storable (lone
    surrogates replaced); never raises, even for an exception whose ``__str__`` does."""
    try:
        message = str.__str__(str(exc))  # an exact str, whatever __str__ returned
    except Exception:
        message = "<message unreadable>"
    return storable_text(f"{type_name(exc)}: {message}"[:limit])
