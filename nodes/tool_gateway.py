"""The tool gateway's execution half: the registry of the tools a graph may call, and the call of
one tool that ``policies.tools.check_call`` allowed, with whatever happens mapped to an observation
or a named stop reason. Never raises.

Tools come as the ecosystem writes them: LangChain tools (``@tool``, ``StructuredTool``, any
``BaseTool``) and plain functions, in a list or in a ``{name: tool}`` mapping. Each keeps its own
argument schema (a LangChain tool's ``tool_call_schema``; a function's signature), which the
gateway validates before the call, and which the worker is shown.

A side-effecting tool (the policy's ``ToolSpec.side_effect``) is called with an ``idempotency_key``
when it takes one: a function with an ``idempotency_key`` parameter, or a LangChain tool with an
``idempotency_key`` argument marked ``InjectedToolArg`` (hidden from the model, supplied by the
gateway). The key is the same on resume, retry and replay, so the tool can do its work once.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.tools import FILTERED_ARGS, BaseTool, StructuredTool, create_schema_from_function
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel

from policies.decision import Decision
from policies.json_safety import plain_copy, storable_text, type_name, well_formed
from policies.schemas import ArgsModel, compile_schema
from policies.tools import GatewayLimits, ToolSpec, check_call, check_result

KEY_ARG = "idempotency_key"
#: Longest error message a raising tool hands back to the worker.
ERROR_MESSAGE_CHARS = 300


@dataclass(frozen=True)
class GovernedTool:
    """One tool behind the gateway: its name, what the worker is told of it, the model that
    validates its arguments, and how it is called."""

    name: str
    description: str
    parameters: dict[str, Any]
    model: ArgsModel | None
    call: Callable[[dict[str, Any]], Any] = field(repr=False)
    takes_key: bool = False


#: A tool registry: tool name → the governed tool.
ToolRegistry = Mapping[str, GovernedTool]
#: What ``build_graph(tools=...)`` takes: tools in a list, or a ``{name: tool}`` mapping.
ToolsArg = Mapping[str, Any] | Iterable[Any]


class ToolRegistryError(ValueError):
    """Tools the gateway cannot take (no name, two tools of one name, an async-only tool...)."""


def _doc(fn: Callable[..., Any]) -> str:
    doc = inspect.getdoc(fn) or ""
    return doc.split("\n\n")[0].strip()


def _langchain_schema(tool: BaseTool, name: str) -> tuple[ArgsModel | None, dict[str, Any], bool]:
    """A LangChain tool's arguments model, its JSON schema and whether it takes the idempotency key."""
    schema = tool.tool_call_schema
    if isinstance(schema, dict):
        model: ArgsModel | None = compile_schema(schema, f"{name}_args")
    else:
        model = schema if isinstance(schema, type) and issubclass(schema, BaseModel) else None
    full = tool.get_input_schema()
    takes_key = KEY_ARG in getattr(full, "model_fields", {}) and (
        model is None or KEY_ARG not in model.model_fields
    )
    return model, convert_to_openai_tool(tool)["function"].get("parameters", {}), takes_key


#: The schemas read from LangChain tools, by what they are read from: a graph is built per run,
#: and the same tools' schemas are read once (pydantic builds a model per reading).
_SCHEMAS: dict[tuple[Any, ...], tuple[ArgsModel | None, dict[str, Any], bool]] = {}


def _from_langchain(tool: BaseTool, name: str) -> GovernedTool:
    if isinstance(tool, StructuredTool) and tool.func is None:
        raise ToolRegistryError(f"tool {name!r} is async-only: give it a sync implementation (func=...)")
    schema = tool.args_schema  # what the schema is read from (a tool without one: its function)
    key: tuple[Any, ...] | None = (
        type(tool),
        name,
        tool.description or "",
        schema,
        getattr(tool, "func", None) if schema is None else None,
    )
    try:
        found = _SCHEMAS.get(key) if key is not None else None
    except TypeError:  # a JSON schema given as a dict: read each time
        key, found = None, None
    if found is None:
        found = _langchain_schema(tool, name)
        if key is not None:
            if len(_SCHEMAS) >= 1024:
                _SCHEMAS.clear()
            _SCHEMAS[key] = found
    model, parameters, takes_key = found
    parameters = copy.deepcopy(parameters)  # each registry owns its schema

    def call(args: dict[str, Any]) -> Any:
        return tool.invoke(args)

    return GovernedTool(name, tool.description or "", parameters, model, call, takes_key)


def _from_function(fn: Callable[..., Any], name: str) -> GovernedTool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError) as exc:
        raise ToolRegistryError(f"tool {name!r} has no signature to read: {exc}") from None
    takes_key = KEY_ARG in params
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        # **kwargs (a wrapper, say): it declares no schema, so the policy must give one (ToolSpec);
        # it takes any keyword, the idempotency key included
        return GovernedTool(name, _doc(fn), {"type": "object"}, None, lambda args: fn(**args), True)
    built = create_schema_from_function(f"{name}_args", fn, filter_args=[*FILTERED_ARGS, KEY_ARG])
    if not issubclass(built, BaseModel):  # a pydantic.v1 model: annotations from pydantic v1
        raise ToolRegistryError(f"tool {name!r} uses pydantic v1 types: give it pydantic v2 ones")
    model: ArgsModel = built
    parameters = model.model_json_schema()

    def call(args: dict[str, Any]) -> Any:
        return fn(**args)

    return GovernedTool(name, _doc(fn), parameters, model, call, takes_key)


def governed_tool(tool: Any, name: str | None = None) -> GovernedTool:
    """One tool for the gateway: a LangChain ``BaseTool``, a plain function or a callable object
    (``name``: the registry's name for it, else the tool's own)."""
    if isinstance(tool, GovernedTool):
        return tool
    if isinstance(tool, BaseTool):
        return _from_langchain(tool, name or tool.name)
    if callable(tool):
        own = getattr(tool, "__name__", None)
        if not (name or own):
            raise ToolRegistryError(f"tool {tool!r} has no name: put it in a {{name: tool}} mapping")
        return _from_function(tool, str(name or own))
    raise ToolRegistryError(f"not a tool: {tool!r} (a LangChain tool or a function is)")


def tool_registry(tools: ToolsArg) -> dict[str, GovernedTool]:
    """The registry of ``tools``: a list of tools (named by their own names) or a ``{name: tool}``
    mapping. Two tools of one name are an error."""
    pairs = tools.items() if isinstance(tools, Mapping) else ((None, t) for t in tools)
    registry: dict[str, GovernedTool] = {}
    for name, tool in pairs:
        governed = governed_tool(tool, name)
        if governed.name in registry:
            raise ToolRegistryError(f"two tools are named {governed.name!r}")
        registry[governed.name] = governed
    return registry


def tool_catalog(registry: ToolRegistry, names: Iterable[str], specs: Mapping[str, ToolSpec]) -> dict:
    """What the worker is told of the tools it may name: each one's description and the JSON Schema
    of its arguments (the policy's, where its ``ToolSpec`` declares them, else the tool's own)."""
    catalog = {}
    for name in names:
        tool, spec = registry.get(name), specs.get(name)
        declared = spec.json_schema() if spec is not None else None
        described = spec.description if spec is not None else None
        catalog[name] = {
            "description": described if described is not None else (tool.description if tool else ""),
            "parameters": declared if declared is not None else (tool.parameters if tool else {}),
        }
    return catalog


@dataclass(frozen=True)
class ToolOutcome:
    """``ok`` with ``result`` (which may be an error entry: ``error`` True), or a stop ``reason``.
    ``raised`` marks a tool that raised (``detail["error"]`` says what)."""

    ok: bool
    result: Any = None
    reason: str = ""
    error: bool = False
    raised: bool = False
    detail: dict[str, Any] = field(default_factory=dict)


def check_tool_call(
    tools: ToolRegistry,
    name: Any,
    args: Any,
    *,
    limits: GatewayLimits,
    specs: Mapping[str, ToolSpec],
    past_calls: Sequence[Mapping[str, Any]],
) -> Decision:
    """``policies.tools.check_call`` against this registry: its tools' names and their own
    argument models."""
    models = {tool_name: tool.model for tool_name, tool in tools.items()}
    return check_call(
        name, args, limits=limits, specs=specs, registered=tools, past_calls=past_calls, models=models
    )


def error_observation(outcome: ToolOutcome) -> dict[str, Any]:
    """What the worker is shown of a call that raised or returned what a run cannot keep: the
    error's type and a bounded message, never the value itself."""
    if outcome.raised:
        return {
            "error": outcome.reason,
            "error_type": outcome.detail.get("error_type", "Exception"),
            "message": outcome.detail.get("message", ""),
        }
    return {"error": outcome.reason, "problem": str(outcome.detail.get("problem", ""))}


def _message(exc: BaseException) -> str:
    try:
        return storable_text(str(exc)[:ERROR_MESSAGE_CHARS])  # no lone surrogates: the run keeps it
    except Exception:  # an exception whose own __str__ raises
        return "(the error's message could not be read)"


def run_tool(
    registry: ToolRegistry,
    name: str,
    args: Mapping[str, Any],
    *,
    idempotency_key: str | None = None,
) -> ToolOutcome:
    """Call the tool ``name`` with ``args`` (and ``idempotency_key``, when given and the tool
    takes one).

    A missing tool → ``tool_missing:<name>``; an exception → ``tool_error:<name>`` (``raised``); a
    result that is not JSON data → ``tool_bad_result:<name>``. An object with an ``error`` key is a
    valid observation with ``error`` set: the pattern decides what an error entry means.
    """
    tool = registry.get(name)
    if tool is None:
        return ToolOutcome(False, reason=f"tool_missing:{name}")
    kwargs = dict(args)
    if idempotency_key is not None and tool.takes_key:
        kwargs[KEY_ARG] = idempotency_key
    try:
        result = tool.call(kwargs)
    except Exception as exc:
        kind, message = type_name(exc), _message(exc)
        detail = {"error": f"{kind}: {message}", "error_type": kind, "message": message}
        return ToolOutcome(False, reason=f"tool_error:{name}", raised=True, detail=detail)
    try:
        # what the worker is shown is what the run keeps: lone surrogates replaced (U+FFFD)
        result = well_formed(result)
        checked = check_result(name, result)
    except Exception as exc:  # a hostile value whose own methods raise while it is checked
        return ToolOutcome(False, reason=f"tool_bad_result:{name}", detail={"problem": type(exc).__name__})
    if checked.verdict == "stop":
        return ToolOutcome(False, reason=checked.reason, detail=checked.details)
    # a copy: the tool may keep and later change the object it returned; the run keeps what was checked
    return ToolOutcome(True, result=plain_copy(result), error=checked.verdict == "error")
