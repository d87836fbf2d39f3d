"""Tool argument schemas: the tool's own (LangChain tools, functions) and JSON Schema compiled to
pydantic, validated strictly, refused by name through the Supervisor's action contract."""

from __future__ import annotations

import enum
import json
import math
from typing import Annotated, Any, Literal

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.tools import InjectedToolArg, StructuredTool, tool
from pydantic import BaseModel

from nodes.tool_gateway import ToolRegistryError, governed_tool, run_tool, tool_registry
from policies.schemas import SchemaError, compile_schema, validate_args
from policies.supervisor import SupervisorPolicy, validate_action
from policies.tools import ArgSpec, ToolSpec


class Address(BaseModel):
    city: str
    zip_code: int


class Priority(enum.StrEnum):
    low = "low"
    high = "high"


@tool
def ship(
    item: str,
    quantity: int,
    address: Address,
    carrier: Literal["dhl", "ups"] = "dhl",
    note: str | None = None,
    tags: list[str] | None = None,
    priority: Priority = Priority.low,
    idempotency_key: Annotated[str, InjectedToolArg] = "",
) -> dict:
    """Ship an item to an address."""
    return {
        "item": item,
        "quantity": quantity,
        "city": address.city,
        "carrier": carrier,
        "priority": priority.value,
        "key": idempotency_key,
        "note": note,
        "tags": tags,
    }


REGISTRY = tool_registry([ship])
MODELS = {name: t.model for name, t in REGISTRY.items()}
POLICY = SupervisorPolicy.for_tools(REGISTRY)
GOOD = {"item": "lamp", "quantity": 2, "address": {"city": "Oslo", "zip_code": 150}}


def check(args: dict[str, Any]) -> str:
    decision = validate_action({"kind": "tool", "name": "ship", "args": args}, POLICY, MODELS)
    return "ok" if decision.passed else decision.reason


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (GOOD, "ok"),
        ({**GOOD, "note": None}, "ok"),  # null for an optional, nullable argument
        ({**GOOD, "note": "fragile", "tags": ["a", "b"], "carrier": "ups", "priority": "high"}, "ok"),
        ({**GOOD, "tags": None}, "ok"),
        ({**GOOD, "carrier": "fedex"}, "invalid_action:bad_arg_type:ship:carrier"),  # outside the enum
        ({**GOOD, "priority": "urgent"}, "invalid_action:bad_arg_type:ship:priority"),
        (
            {**GOOD, "address": {"city": "Oslo", "zip_code": "150"}},
            "invalid_action:bad_arg_type:ship:address",
        ),
        ({**GOOD, "address": {"city": "Oslo"}}, "invalid_action:bad_arg_type:ship:address"),
        (
            {**GOOD, "tags": ["a", 3]},
            "invalid_action:bad_arg_type:ship:tags",
        ),  # a list of the wrong item type
        ({**GOOD, "quantity": True}, "invalid_action:bad_arg_type:ship:quantity"),  # a boolean is no number
        ({**GOOD, "quantity": 2.0}, "invalid_action:bad_arg_type:ship:quantity"),
        ({**GOOD, "quantity": "2"}, "invalid_action:bad_arg_type:ship:quantity"),  # no coercion
        ({**GOOD, "carrier": None}, "invalid_action:bad_arg_type:ship:carrier"),  # optional, not nullable
        (
            {k: v for k, v in GOOD.items() if k != "address"},
            "invalid_action:missing_required_arg:ship:address",
        ),
        ({**GOOD, "colour": "red"}, "invalid_action:extra_tool_args:ship"),
        (
            {**GOOD, "idempotency_key": "mine"},
            "invalid_action:extra_tool_args:ship",
        ),  # injected, not the model's
        ({**GOOD, "quantity": math.inf}, "invalid_action:bad_arg_type:ship:quantity"),
    ],
)
def test_a_langchain_tool_schema_is_enforced_as_it_says(args, expected):
    assert check(args) == expected


def test_the_worker_is_shown_the_tools_json_schema_and_the_key_stays_hidden():
    shown = REGISTRY["ship"]
    assert shown.description == "Ship an item to an address."
    props = shown.parameters["properties"]
    assert set(props) == {"item", "quantity", "address", "carrier", "note", "tags", "priority"}
    assert shown.takes_key


def test_the_gateway_calls_the_tool_with_its_key_and_the_tool_gets_its_types():
    outcome = run_tool(REGISTRY, "ship", {**GOOD, "priority": "high"}, idempotency_key="k-1")
    assert outcome.ok
    assert outcome.result["key"] == "k-1" and outcome.result["city"] == "Oslo"
    assert outcome.result["priority"] == "high"


def test_plain_functions_and_mappings_register_with_their_signatures():
    def refund(order_id: str, amount: float, *, idempotency_key: str) -> dict:
        """Refund an order."""
        return {"order": order_id, "amount": amount, "key": idempotency_key}

    registry = tool_registry({"give_back": refund})
    assert registry["give_back"].takes_key
    assert set(registry["give_back"].parameters["properties"]) == {"order_id", "amount"}
    model = registry["give_back"].model
    assert model is not None
    assert validate_args(model, {"order_id": "o1", "amount": 5}) is None
    assert validate_args(model, {"order_id": "o1"})[:2] == ("missing", "amount")
    assert (
        run_tool(registry, "give_back", {"order_id": "o1", "amount": 5}, idempotency_key="k").result["key"]
        == "k"
    )


def test_tools_the_gateway_cannot_take_are_refused_when_registered():
    async def later(x: int) -> int:
        return x

    with pytest.raises(ToolRegistryError, match="async-only"):
        tool_registry([StructuredTool.from_function(coroutine=later, name="later", description="d")])
    with pytest.raises(ToolRegistryError, match="two tools are named"):
        tool_registry([ship, ship])
    with pytest.raises(ToolRegistryError, match="not a tool"):
        governed_tool(42)


def test_a_policy_schema_narrows_the_tools_own():
    narrowed = POLICY.model_copy(
        update={
            "tools": {
                "ship": ToolSpec(
                    args_schema={
                        "type": "object",
                        "properties": {
                            "item": {"enum": ["lamp", "chair"]},
                            "quantity": {"type": "integer", "maximum": 5},
                            "address": {"type": "object"},
                        },
                        "required": ["item", "quantity", "address"],
                    }
                )
            }
        }
    )
    ok = validate_action({"kind": "tool", "name": "ship", "args": GOOD}, narrowed, MODELS)
    assert ok.passed
    big = validate_action({"kind": "tool", "name": "ship", "args": {**GOOD, "quantity": 9}}, narrowed, MODELS)
    assert big.reason == "invalid_action:bad_arg_type:ship:quantity"
    other = validate_action(
        {"kind": "tool", "name": "ship", "args": {**GOOD, "item": "sofa"}}, narrowed, MODELS
    )
    assert other.reason == "invalid_action:bad_arg_type:ship:item"


def test_argspec_is_shorthand_for_json_schema():
    spec = ToolSpec(args={"n": ArgSpec(type="int"), "s": ArgSpec(type="str", required=False)})
    assert spec.json_schema() == {
        "type": "object",
        "properties": {"n": {"type": "integer"}, "s": {"type": "string"}},
        "required": ["n"],
        "additionalProperties": False,
    }
    model = spec.args_model("t")
    assert model is not None
    assert validate_args(model, {"n": 1}) is None
    assert validate_args(model, {"n": 1, "s": None})[:2] == ("bad_type", "s")  # may be left out, not null
    with pytest.raises(ValueError, match="not both"):
        ToolSpec(args={}, args_schema={"type": "object"})
    with pytest.raises(ValueError, match="unresolvable"):
        ToolSpec(args_schema={"type": "object", "properties": {"x": {"$ref": "#/$defs/nowhere"}}})


def test_schema_errors_are_named():
    with pytest.raises(SchemaError):
        compile_schema({"type": "object", "properties": {"x": {"type": "decimal"}}})


# --------------------------------------------------------------------------- property: JSON Schema

SIMPLE = st.sampled_from(
    [
        {"type": "string"},
        {"type": "integer"},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "null"},
        {"type": ["string", "null"]},
        {"enum": ["a", "b", 3]},
        {"const": "x"},
        {"type": "integer", "minimum": 0, "maximum": 10},
        {"type": "string", "maxLength": 3},
        {"type": "array", "items": {"type": "integer"}},
        {"type": "array", "items": {"type": "string"}, "maxItems": 2},
        {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "required": ["a"],
            "additionalProperties": False,
        },
    ]
)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-20, 20)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.sampled_from(["a", "b", "x", "", "long text", "3"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2)
    ),
    max_leaves=6,
)


def _integral_float(value: Any) -> bool:
    """JSON Schema counts 5.0 as an integer; the gateway, like Python, does not (documented)."""
    if isinstance(value, float) and value.is_integer():
        return True
    if isinstance(value, list):
        return any(_integral_float(v) for v in value)
    if isinstance(value, dict):
        return any(_integral_float(v) for v in value.values())
    return False


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.sampled_from(["p", "q"]), SIMPLE, min_size=1, max_size=2), JSON_VALUES, st.booleans()
)
def test_compiled_schemas_agree_with_the_json_schema_reference(properties, value, required):
    """For every schema of the compiled kinds and every JSON value, the gateway accepts exactly
    what the reference JSON Schema validator accepts (beyond integral floats as integers)."""
    schema = {"type": "object", "properties": properties, "required": sorted(properties) if required else []}
    args = {name: value for name in properties}
    reference = jsonschema.Draft202012Validator({**schema, "additionalProperties": False}).is_valid(args)
    if _integral_float(value):
        return
    ours = validate_args(compile_schema(schema), args) is None
    assert ours == reference, (schema, json.dumps(args))
