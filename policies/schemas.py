"""Tool-argument schemas, validated with pydantic.

A tool's arguments are checked against a pydantic model: the tool's own (a LangChain tool's
``tool_call_schema``, or the model built from a plain function's signature), or one compiled here
from JSON Schema (a tool whose ``args_schema`` is a JSON Schema dict, a policy's ``args_schema``, or
the :class:`policies.tools.ArgSpec` shorthand, which compiles to JSON Schema first).

Validation is pydantic's strict mode on the arguments as JSON: no coercion (``"5"`` is not an
integer, ``true`` is not a number), enums and literals as listed, nested objects field by field,
and ``null`` only where the schema allows it. Arguments the schema does not name are refused, and
every number must be finite.

The JSON Schema keywords compiled: ``type`` (one or a list, ``"null"`` included), ``enum``,
``const``, ``anyOf`` / ``oneOf``, a one-element ``allOf``, ``properties`` / ``required`` /
``additionalProperties``, ``items``, ``$ref`` into ``$defs`` / ``definitions``, ``nullable``, and the
bounds ``minimum`` / ``maximum`` / ``exclusiveMinimum`` / ``exclusiveMaximum`` / ``minLength`` /
``maxLength`` / ``pattern`` / ``minItems`` / ``maxItems``. Other keywords (``format``,
``description``...) are read as documentation and not enforced.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    create_model,
)

from policies.json_safety import json_problem

#: A model that validates one tool's arguments.
ArgsModel = type[BaseModel]

_BOUNDS = {
    "minimum": "ge",
    "maximum": "le",
    "exclusiveMinimum": "gt",
    "exclusiveMaximum": "lt",
    "minLength": "min_length",
    "maxLength": "max_length",
    "pattern": "pattern",
    "minItems": "min_length",
    "maxItems": "max_length",
}


class SchemaError(ValueError):
    """A JSON Schema this module cannot compile (say, a ``$ref`` to nowhere)."""


class _Compiler:
    def __init__(self, root: Mapping[str, Any], name: str) -> None:
        self.root = root
        self.name = name
        self.count = 0

    def ref(self, ref: str) -> Mapping[str, Any]:
        parts = ref.removeprefix("#/").split("/") if ref.startswith("#/") else None
        node: Any = self.root
        for part in parts or ["<unresolvable>"]:
            if not isinstance(node, Mapping) or part not in node:
                raise SchemaError(f"unresolvable $ref {ref!r}")
            node = node[part]
        if not isinstance(node, Mapping):
            raise SchemaError(f"$ref {ref!r} is not a schema")
        return node

    def annotation(self, schema: Any, depth: int = 0) -> Any:
        if depth > 32:
            raise SchemaError("schema nested too deeply (recursive $ref?)")
        if schema is True or schema == {}:
            return Any
        if not isinstance(schema, Mapping):
            raise SchemaError(f"not a schema: {schema!r}")
        if "$ref" in schema:
            return self.annotation(self.ref(str(schema["$ref"])), depth + 1)
        base = self._base(schema, depth)
        bounds = {_BOUNDS[k]: v for k, v in schema.items() if k in _BOUNDS}
        if bounds and base is not Any:
            base = Annotated[base, Field(**bounds)]
        if schema.get("nullable") is True:
            base = Union[base, None]  # noqa: UP007 (built at run time)
        return base

    def _base(self, schema: Mapping[str, Any], depth: int) -> Any:
        if "const" in schema:
            return Literal[schema["const"]]
        if "enum" in schema:
            values = tuple(schema["enum"])
            return Literal[values] if values else Any
        for key in ("anyOf", "oneOf"):
            if key in schema:
                options = tuple(self.annotation(s, depth + 1) for s in schema[key])
                return Union[options] if len(options) > 1 else options[0]  # noqa: UP007
        if isinstance(schema.get("allOf"), list) and len(schema["allOf"]) == 1:
            return self.annotation(schema["allOf"][0], depth + 1)
        kind = schema.get("type")
        if isinstance(kind, list):
            options = tuple(self._typed(schema, str(k), depth) for k in kind)
            return Union[options] if len(options) > 1 else options[0]  # noqa: UP007
        if kind is None:
            return self._object(schema, depth) if "properties" in schema else Any
        return self._typed(schema, str(kind), depth)

    def _typed(self, schema: Mapping[str, Any], kind: str, depth: int) -> Any:
        simple = {
            "string": StrictStr,
            "integer": StrictInt,
            "number": Union[StrictInt, StrictFloat],  # noqa: UP007
            "boolean": StrictBool,
            "null": type(None),
        }
        if kind in simple:
            return simple[kind]
        if kind == "array":
            items = schema.get("items")
            return list[self.annotation(items, depth + 1)] if items is not None else list[Any]  # type: ignore[misc]
        if kind == "object":
            return self._object(schema, depth)
        raise SchemaError(f"unknown JSON Schema type {kind!r}")

    def _object(self, schema: Mapping[str, Any], depth: int) -> Any:
        properties = schema.get("properties")
        if not properties:
            extra = schema.get("additionalProperties")
            values = self.annotation(extra, depth + 1) if isinstance(extra, Mapping) else Any
            return dict[str, values]  # type: ignore[valid-type]
        self.count += 1
        return self.model(schema, f"{self.name}_{self.count}", depth + 1)

    def model(self, schema: Mapping[str, Any], name: str, depth: int = 0) -> ArgsModel:
        properties = schema.get("properties") or {}
        required = set(schema.get("required") or [])
        fields: dict[str, Any] = {}
        for prop, sub in properties.items():
            annotation = self.annotation(sub, depth + 1)
            default = ... if prop in required else (sub.get("default") if isinstance(sub, Mapping) else None)
            fields[str(prop)] = (annotation, Field(default, alias=str(prop)))
        closed = schema.get("additionalProperties") is False
        config = ConfigDict(extra="forbid" if closed else "allow", populate_by_name=True)
        return create_model(_identifier(name), __config__=config, **fields)


def _identifier(name: str) -> str:
    cleaned = "".join(c if c.isalnum() else "_" for c in name) or "Args"
    return cleaned if not cleaned[0].isdigit() else f"_{cleaned}"


@lru_cache(maxsize=512)
def _compile_cached(text: str, name: str) -> ArgsModel:
    schema = json.loads(text)
    # the top level is a tool's argument object: the gateway refuses names it does not list
    return _Compiler(schema, name).model({**schema, "additionalProperties": False}, name)


def compile_schema(schema: Mapping[str, Any], name: str = "Args") -> ArgsModel:
    """A pydantic model that validates an argument object against JSON Schema ``schema``.
    Compiled once per distinct schema. Raises :class:`SchemaError` for a schema it cannot read."""
    try:
        text = json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise SchemaError(f"schema is not JSON: {exc}") from None
    return _compile_cached(text, name)


@lru_cache(maxsize=1024)
def _field_names(model: ArgsModel) -> frozenset[str]:
    """:func:`model_fields`, read once per model class (a class's fields do not change)."""
    names: set[str] = set()
    for name, info in model.model_fields.items():
        names.add(name)
        if info.alias:
            names.add(info.alias)
    return frozenset(names)


def model_fields(model: ArgsModel) -> set[str]:
    """The argument names a model accepts (field names and their aliases)."""
    return set(_field_names(model))


def _takes(known: frozenset[str]) -> str:
    return f"not an argument of this tool, which takes {', '.join(sorted(known)) or 'none'}"


ArgProblem = tuple[Literal["extra", "missing", "bad_type"], str, str]


def _loc(loc: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in loc) or "(arguments)"


def validate_args(model: ArgsModel, args: Mapping[str, Any]) -> ArgProblem | None:
    """The first problem of ``args`` against ``model`` as ``(kind, arg, detail)``: ``extra`` (an
    argument the schema does not name), ``missing`` (a required one absent) or ``bad_type`` (a value
    the schema refuses, ``detail`` saying where and why); None when they fit."""
    known = _field_names(model)
    for name in args:
        if name not in known:
            return ("extra", str(name), _takes(known))
    for name, value in args.items():
        problem = json_problem(value)
        if problem is not None:
            return ("bad_type", str(name), problem)
    try:
        model.model_validate_json(json.dumps(dict(args)), strict=True)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        for kind in ("extra_forbidden", "missing"):
            for error in errors:
                if error["type"] == kind and len(error["loc"]) == 1:
                    label: Literal["extra", "missing"] = "extra" if kind == "extra_forbidden" else "missing"
                    return (label, str(error["loc"][0]), _takes(known) if label == "extra" else error["msg"])
        first = errors[0]
        arg = str(first["loc"][0]) if first["loc"] else "(arguments)"
        return ("bad_type", arg, f"{_loc(first['loc'])}: {first['msg']}"[:300])
    except (TypeError, ValueError) as exc:  # json.dumps of a value json_problem let through
        return ("bad_type", "(arguments)", str(exc)[:300])
    return None
