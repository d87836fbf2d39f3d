"""The shared tool gateway: pure rules (policies.tools) and execution (nodes.tool_gateway)."""

from __future__ import annotations

import math

import pytest

from nodes.tool_gateway import run_tool, tool_registry
from policies.tools import (
    GatewayLimits,
    ToolSpec,
    arg_problem,
    call_signature,
    check_call,
    check_result,
    idempotency_key,
    is_number,
    normalize_value,
)
from tests.helpers import arg_specs

SPECS = {
    "lookup": ToolSpec(args=arg_specs(user_id="int")),
    "pay": ToolSpec(args=arg_specs(user_id="int", amount="number", note="str?"), side_effect=True),
}
LIMITS = GatewayLimits(
    max_tool_calls=5,
    allowed_tools=["lookup", "pay"],
    per_tool_limits={"lookup": 3},
    default_per_tool_limit=2,
    repeat_limits={"lookup": 2},
    default_repeat_limit=1,
)


def _check(tool, args, past=(), limits=LIMITS, registered=("lookup", "pay")):
    return check_call(tool, args, limits=limits, specs=SPECS, registered=registered, past_calls=list(past))


def _past(tool, args):
    return {"tool": tool, "signature": call_signature(tool, args)}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1, True),
        (1.5, True),
        (-3, True),
        (1e308, True),
        (True, False),
        (False, False),
        ("12", False),
        (None, False),
        (math.nan, False),
        (math.inf, False),
        (-math.inf, False),
        (1e308 * 10, False),
    ],
)
def test_is_number(value, expected):
    assert is_number(value) is expected


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        ({"user_id": 1, "amount": 5}, None),
        ({"user_id": 1, "amount": 5.5, "note": "x"}, None),
        ({"user_id": 1, "amount": 5, "extra": 1}, ("extra", "extra")),
        ({"amount": 5}, ("missing", "user_id")),
        ({"user_id": "1", "amount": 5}, ("bad_type", "user_id")),
        ({"user_id": True, "amount": 5}, ("bad_type", "user_id")),
        ({"user_id": 1.0, "amount": 5}, ("bad_type", "user_id")),
        ({"user_id": 1, "amount": "5"}, ("bad_type", "amount")),
        ({"user_id": 1, "amount": False}, ("bad_type", "amount")),
        ({"user_id": 1, "amount": math.nan}, ("bad_type", "amount")),
        ({"user_id": 1, "amount": math.inf}, ("bad_type", "amount")),
        ({"user_id": 1, "amount": 5, "note": 3}, ("bad_type", "note")),
    ],
)
def test_arg_problem(args, problem):
    found = arg_problem("pay", args, spec=SPECS["pay"])
    assert (found[:2] if found else None) == problem


def test_signature_normalises_formatting_and_key_order():
    assert call_signature("pay", {"user_id": 1, "amount": 5}) == call_signature(
        "pay", {"amount": 5.0, "user_id": 1}
    )
    assert call_signature("pay", {"note": " a  b "}) == call_signature("pay", {"note": "a b"})
    assert call_signature("pay", {"amount": 5}) != call_signature("pay", {"amount": 6})
    assert call_signature("pay", {"amount": 5}) != call_signature("lookup", {"amount": 5})
    assert normalize_value({"a": [1.0, True, None]}) == {"a": [1, True, None]}


def test_idempotency_key_is_stable_per_run_and_step():
    key = idempotency_key("run-1", 2, "pay", {"user_id": 1, "amount": 5})
    assert key == idempotency_key("run-1", 2, "pay", {"amount": 5.0, "user_id": 1})
    assert key != idempotency_key("run-2", 2, "pay", {"user_id": 1, "amount": 5})
    assert key != idempotency_key("run-1", 3, "pay", {"user_id": 1, "amount": 5})
    assert key.startswith("pay:")


def test_allowed_call_carries_its_signature():
    decision = _check("lookup", {"user_id": 1})
    assert decision.passed
    assert decision.details["signature"] == call_signature("lookup", {"user_id": 1})


def test_max_tool_calls_first():
    past = [_past("lookup", {"user_id": i}) for i in range(5)]
    assert _check("nope", {}, past).reason == "max_tool_calls"


@pytest.mark.parametrize("name", ["LOOKUP", " lookup", "lookup ", "look up", "delete_all", "", None, 3])
def test_allowlist_denies_by_default_with_exact_names(name):
    decision = _check(name, {"user_id": 1})
    assert not decision.passed
    assert decision.reason.startswith("tool_denied:")


def test_allowed_but_not_registered_is_missing():
    assert _check("pay", {"user_id": 1, "amount": 1}, registered=("lookup",)).reason == "tool_missing:pay"


def test_per_tool_limit_and_signature_repeat():
    two = [_past("pay", {"user_id": 1, "amount": 1}), _past("pay", {"user_id": 1, "amount": 2})]
    assert _check("pay", {"user_id": 1, "amount": 3}, two).reason == "loop_detected:per_tool_limit"
    once = [_past("pay", {"user_id": 1, "amount": 1})]
    assert _check("pay", {"user_id": 1, "amount": 1.0}, once).reason == "loop_detected:signature_repeat"
    # lookup allows two identical calls, not three
    same = [_past("lookup", {"user_id": 1})]
    assert _check("lookup", {"user_id": 1}, same).passed
    assert _check("lookup", {"user_id": 1}, same * 2).reason == "loop_detected:signature_repeat"


def test_undetailed_loop_reason():
    limits = LIMITS.model_copy(update={"detailed_loop_reasons": False})
    once = [_past("pay", {"user_id": 1, "amount": 1})]
    assert _check("pay", {"user_id": 1, "amount": 1}, once, limits=limits).reason == "loop_detected"


@pytest.mark.parametrize(
    "args",
    [
        {"user_id": 1, "amount": "5"},
        {"user_id": 1, "amount": True},
        {"user_id": 1, "amount": math.nan},
        {"user_id": 1, "amount": math.inf},
        {"user_id": 1, "amount": 5, "extra": 1},
        {"user_id": 1},
        ["user_id", 1],
    ],
)
def test_bad_args(args):
    assert _check("pay", args).reason == "tool_bad_args:pay"


def test_check_result():
    # any JSON data is an observation; what a run cannot keep is refused by name
    for value in ({"a": 1}, [1], "text", 3, 2.5, True, None):
        assert check_result("t", value).passed
    for value in (math.nan, {"a": math.inf}, 2**70, "\ud800"):
        assert check_result("t", value).reason == "tool_bad_result:t"
    assert check_result("t", {"error": "nope"}).verdict == "error"


def test_run_tool_maps_outcomes():
    calls = []

    def pay(user_id, amount, idempotency_key):
        calls.append(idempotency_key)
        return {"paid": amount}

    def boom(**_):
        raise RuntimeError("down")

    registry = tool_registry(
        {
            "pay": pay,
            "boom": boom,
            "text": lambda: "ok",
            "nan": lambda: [math.nan],
            "err": lambda: {"error": "x"},
        }
    )
    done = run_tool(registry, "pay", {"user_id": 1, "amount": 2}, idempotency_key="k1")
    assert done.ok and done.result == {"paid": 2} and calls == ["k1"]
    assert run_tool(registry, "nope", {}).reason == "tool_missing:nope"
    failed = run_tool(registry, "boom", {})
    assert failed.reason == "tool_error:boom" and "down" in failed.detail["error"] and failed.raised
    assert run_tool(registry, "text", {}).result == "ok"
    assert run_tool(registry, "nan", {}).reason == "tool_bad_result:nan"
    error = run_tool(registry, "err", {})
    assert error.ok and error.error and error.result == {"error": "x"}
    # a tool called with arguments it does not take raises: a tool error, not a crash
    assert run_tool(registry, "text", {"x": 1}).reason == "tool_error:text"


def test_a_langchain_tools_schema_is_read_once_and_each_registry_owns_its_copy(monkeypatch):
    """A graph is built per run (the probe, the fuzz suites, a server): the schema of the same tool
    is read once; a tool copied with another function (a wrapper) shares it, one with another
    description or schema does not, and no registry sees another's change to its schema."""
    from langchain_core.tools import tool

    import nodes.tool_gateway as gateway

    @tool
    def pay(user_id: int, amount: float) -> str:
        """Pay a user."""
        return "ok"

    reads = []
    real = gateway._langchain_schema
    monkeypatch.setattr(gateway, "_langchain_schema", lambda t, n: reads.append(n) or real(t, n))
    first = tool_registry([pay])["pay"]
    wrapped = pay.model_copy(update={"func": lambda user_id, amount: "wrapped"})
    second = tool_registry([wrapped])["pay"]
    assert reads == ["pay"] and second.parameters == first.parameters
    assert second.call({"user_id": 1, "amount": 2.0}) == "wrapped"  # its own function runs
    second.parameters["properties"]["amount"]["type"] = "string"
    assert tool_registry([pay])["pay"].parameters["properties"]["amount"]["type"] == "number"
    other = pay.model_copy(update={"description": "Pay a user, in cents."})
    assert tool_registry([other])["pay"].description == "Pay a user, in cents."
    assert reads == ["pay", "pay"]
