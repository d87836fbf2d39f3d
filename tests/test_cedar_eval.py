"""The project's own evaluation of Cedar (policies/supervisor/rules/cedar_eval.py) decides as Cedar
does, or not at all: on generated policies (scopes, conditions over ``context`` with every operator
it evaluates, and some it leaves to Cedar) and generated requests (attributes missing, of the wrong
type, out of range), wherever it answers, ``cedarpy`` gives the same decision and the same deciding
policies, and reports no error; where Cedar reports an error, it does not answer. And it answers
what the shipped policies ask of it (the desk's, the bench's), so that the Cedar check's cost stays
low (docs/cedar.md, "The cost")."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

cedarpy = pytest.importorskip("cedarpy")

from policies.supervisor.rules.cedar_eval import (  # noqa: E402
    LeftToCedar,
    authorize,
    compile_set,
    decimal_of,
    value_of,
)

# ------------------------------------------------------------------ generated expressions, by type

_LONG_LITERALS = st.sampled_from(
    ["0", "1", "2", "-3", "10000", "9223372036854775807", "-9223372036854775808"]
)
_STRINGS = st.sampled_from(
    ['""', '"a"', '"request"', '"named"', '"1.5"', '"a*b"', '"ana@example.com"', '"é"']
)
_PATTERNS = st.sampled_from(['"*"', '"a*"', '"*@example.com"', '"a\\*b"', '""', '"*a*b*"', '"é"'])


def _binary(op: str, left: st.SearchStrategy[str], right: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(left, right).map(lambda lr: f"({lr[0]} {op} {lr[1]})")


longs: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(
        _LONG_LITERALS,
        st.sampled_from(["context.n", "context.args.amount.value", "context.run.calls"]),
        _binary("+", longs, longs),
        _binary("-", longs, longs),
        _binary("*", longs, longs),
        longs.map(lambda x: f"(-{x})"),
        st.tuples(bools, longs, longs).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
    )
)
strings: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(
        _STRINGS,
        st.sampled_from(["context.s", "context.args.payee.value", "context.args.payee.source"]),
        st.tuples(bools, strings, strings).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
    )
)
sets: st.SearchStrategy[str] = st.one_of(
    st.sampled_from(["context.tags", "context.args.payee.sources", "context.args.amount.sources"]),
    st.lists(_STRINGS, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
    st.lists(_LONG_LITERALS, max_size=2).map(lambda xs: "[" + ", ".join(xs) + "]"),
)
decimals: st.SearchStrategy[str] = st.one_of(
    st.sampled_from(['decimal("1.5")', 'decimal("-0.0001")', 'decimal("922337203685477.5807")', "context.d"]),
    strings.map(lambda s: f"decimal({s})"),
)
anything: st.SearchStrategy[str] = st.deferred(lambda: st.one_of(longs, strings, sets, decimals, bools))
bools: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(
        st.sampled_from(["true", "false", "context.flag", "context.mandate.complete"]),
        st.sampled_from(["context has n", "context.args has amount", 'context.args has "payee"']),
        st.sampled_from(
            [
                'principal == User::"u"',
                'principal in [User::"u", User::"v"]',
                "resource is Tool",
                'principal is User in User::"u"',
                'action == Action::"pay"',
                'action in [Action::"refund"]',
            ]
        ),
        st.tuples(st.sampled_from(["<", "<=", ">", ">="]), longs, longs).map(
            lambda t: f"({t[1]} {t[0]} {t[2]})"
        ),
        st.tuples(st.sampled_from(["==", "!="]), longs, longs).map(lambda t: f"({t[1]} {t[0]} {t[2]})"),
        st.tuples(st.sampled_from(["==", "!="]), strings, strings).map(lambda t: f"({t[1]} {t[0]} {t[2]})"),
        st.tuples(st.sampled_from(["==", "!="]), anything, anything).map(lambda t: f"({t[1]} {t[0]} {t[2]})"),
        st.tuples(strings, _PATTERNS).map(lambda t: f"({t[0]} like {t[1]})"),
        st.tuples(sets, st.one_of(strings, longs)).map(lambda t: f"{t[0]}.contains({t[1]})"),
        st.tuples(st.sampled_from(["containsAll", "containsAny"]), sets, sets).map(
            lambda t: f"{t[1]}.{t[0]}({t[2]})"
        ),
        sets.map(lambda s: f"{s}.isEmpty()"),
        st.tuples(
            st.sampled_from(["lessThan", "lessThanOrEqual", "greaterThan", "greaterThanOrEqual"]),
            decimals,
            decimals,
        ).map(lambda t: f"{t[1]}.{t[0]}({t[2]})"),
        bools.map(lambda b: f"!{b}"),
        _binary("&&", bools, bools),
        _binary("||", bools, bools),
        st.tuples(bools, bools, bools).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        st.sampled_from(['ip("10.0.0.1").isLoopback()', 'context.s.isInRange(ip("10.0.0.0/8"))']),
    )
)

_SCOPES = st.tuples(
    st.sampled_from(["principal", 'principal == User::"u"', 'principal in User::"v"', "principal is User"]),
    st.sampled_from(["action", 'action == Action::"pay"', 'action in [Action::"pay", Action::"refund"]']),
    st.sampled_from(["resource", 'resource == Tool::"pay"', "resource is Tool", "resource is User"]),
)
_POLICIES = st.lists(
    st.tuples(
        st.sampled_from(["permit", "forbid"]),
        _SCOPES,
        st.lists(st.tuples(st.sampled_from(["when", "unless"]), bools), max_size=2),
    ),
    min_size=1,
    max_size=4,
)


def _text(policies: list[tuple[str, tuple[str, str, str], list[tuple[str, str]]]]) -> str:
    out = []
    for effect, (principal, action, resource), conditions in policies:
        body = " ".join(f"{kind} {{ {condition} }}" for kind, condition in conditions)
        out.append(f"{effect}({principal}, {action}, {resource}) {body};")
    return "\n".join(out)


# ------------------------------------------------------------------ generated requests

_DECIMAL_JSON = st.sampled_from(["1.5", "0.0001", "-2.0", "922337203685477.5807"]).map(
    lambda d: {"__extn": {"fn": "decimal", "arg": d}}
)
_TEXT = st.sampled_from(["", "a", "request", "1.5", "a*b", "axb", "ana@example.com", "é", "10.0.0.1"])
_LONG = st.one_of(st.integers(-5, 5), st.sampled_from([2**62, 2**63 - 1, -(2**63)]))
_LOOSE = st.one_of(_LONG, _TEXT, st.booleans(), _DECIMAL_JSON, st.lists(_TEXT, max_size=3))


def _maybe(strategy: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.one_of(strategy, st.just(None))  # None: the attribute is left out


@st.composite
def contexts(draw: st.DrawFn) -> dict[str, object]:
    fields = {
        "n": draw(_maybe(st.one_of(_LONG, _LOOSE))),
        "s": draw(_maybe(st.one_of(_TEXT, _LOOSE))),
        "flag": draw(_maybe(st.one_of(st.booleans(), _LOOSE))),
        "d": draw(_maybe(st.one_of(_DECIMAL_JSON, _LOOSE))),
        "tags": draw(_maybe(st.one_of(st.lists(_TEXT, max_size=3), st.lists(_LOOSE, max_size=3)))),
        "mandate": draw(_maybe(st.fixed_dictionaries({"complete": st.booleans(), "text": _TEXT}))),
        "run": draw(_maybe(st.fixed_dictionaries({"calls": _LONG}))),
    }
    args = {
        "amount": draw(
            _maybe(
                st.fixed_dictionaries({"value": st.one_of(_LONG, _DECIMAL_JSON), "sources": st.lists(_TEXT)})
            )
        ),
        "payee": draw(
            _maybe(
                st.fixed_dictionaries(
                    {"value": _TEXT, "source": _TEXT, "sources": st.lists(_TEXT, max_size=3)}
                )
            )
        ),
    }
    context = {k: v for k, v in fields.items() if v is not None}
    if draw(st.booleans()):
        context["args"] = {k: v for k, v in args.items() if v is not None}
    return context


def _request(principal: str, action: str, context: dict[str, object]) -> dict[str, object]:
    return {
        "principal": {"type": "User", "id": principal},
        "action": {"type": "Action", "id": action},
        "resource": {"type": "Tool", "id": action},
        "context": context,
    }


COUNTED = {"decided": 0, "left": 0}


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    policies=_POLICIES,
    context=contexts(),
    principal=st.sampled_from(["u", "v"]),
    action=st.sampled_from(["pay", "refund"]),
)
def test_where_it_answers_it_answers_as_cedar(policies, context, principal, action) -> None:
    text = _text(policies)
    try:
        static = json.loads(cedarpy.policies_to_json_str(text))["staticPolicies"]
    except ValueError:
        return  # a generated text Cedar does not parse (a type it rejects at parse time)
    request = _request(principal, action, context)
    cedar = cedarpy.is_authorized(request, cedarpy.PolicySet.from_str(text), [])
    compiled = compile_set(static)
    ours = authorize(compiled, request) if compiled is not None else None
    COUNTED["decided" if ours is not None else "left"] += 1
    if ours is None:
        return
    shown = f"{text}\n{json.dumps(context)}"
    assert not cedar.diagnostics.errors, (shown, cedar.diagnostics.errors)
    assert ours.allowed == cedar.allowed, shown
    assert sorted(ours.reasons) == sorted(cedar.diagnostics.reasons), shown


def test_the_generated_requests_are_mostly_decided_by_it() -> None:
    """The property above would hold vacuously if the evaluator answered nothing: over the same
    generated cases it answers most of them."""
    if COUNTED["decided"] + COUNTED["left"] < 100:
        COUNTED.update(decided=0, left=0)
        test_where_it_answers_it_answers_as_cedar()
    assert COUNTED["decided"] > COUNTED["left"], COUNTED


_COMPARED = [("<", "lessThan"), ("<=", "lessThanOrEqual"), (">", "greaterThan"), (">=", "greaterThanOrEqual")]


@pytest.mark.parametrize(("long_op", "decimal_op"), _COMPARED)
def test_each_comparison_at_its_edges(long_op, decimal_op) -> None:
    """Every comparison on values either side of and at its bound, as Cedar decides it."""
    for left in (-1, 0, 1):
        for right in (-1, 0, 1):
            for condition, context in [
                (f"context.n {long_op} {right}", {"n": left}),
                (f"context.n == {right}", {"n": left}),
                (f"context.n != {right}", {"n": left}),
                (
                    f'context.d.{decimal_op}(decimal("{right}.0"))',
                    {"d": {"__extn": {"fn": "decimal", "arg": f"{left}.0001"}}},
                ),
                (
                    f'context.d.{decimal_op}(decimal("{right}.0"))',
                    {"d": {"__extn": {"fn": "decimal", "arg": f"{left}.0"}}},
                ),
            ]:
                text = f"permit(principal, action, resource) when {{ {condition} }};"
                static = json.loads(cedarpy.policies_to_json_str(text))["staticPolicies"]
                request = _request("u", "pay", context)
                ours = authorize(compile_set(static) or (), request)
                cedar = cedarpy.is_authorized(request, cedarpy.PolicySet.from_str(text), [])
                assert ours is not None and ours.allowed == cedar.allowed, (condition, context)


# ------------------------------------------------------------------ what it leaves to Cedar


@pytest.mark.parametrize(
    "condition",
    ['ip("10.0.0.1").isLoopback()', 'context.when < datetime("2026-01-01")', "principal.department == \"x\"",
     'principal has department', 'context.hasTag("x")'],
)  # fmt: skip
def test_a_construct_it_does_not_evaluate_leaves_the_set_to_cedar(condition) -> None:
    static = json.loads(
        cedarpy.policies_to_json_str(f"permit(principal, action, resource) when {{ {condition} }};")
    )
    compiled = compile_set(static["staticPolicies"])
    request = _request("u", "pay", {"when": 1, "s": "x"})
    assert compiled is None or authorize(compiled, request) is None


@pytest.mark.parametrize(
    ("condition", "context"),
    [
        ("context.n > 1", {}),  # missing: Cedar errs
        ("context.n > 1", {"n": "2"}),  # a String compared: Cedar errs
        ("context.n + 1 > 1", {"n": 2**63 - 1}),  # overflow
        ('context.s == "a"', {"s": 1}),  # == of two types: left to Cedar
        ('decimal(context.s).lessThan(decimal("1.0"))', {"s": "1.23456"}),  # five places
        ("context.n > 1", {"n": 1.5}),  # a fraction: Cedar's context has none
        ("context.n > 1", {"n": {"type": "User", "id": "u"}}),  # read as an entity, perhaps
    ],
)
def test_a_request_a_policy_would_fail_on_is_left_to_cedar(condition, context) -> None:
    static = json.loads(
        cedarpy.policies_to_json_str(f"permit(principal, action, resource) when {{ {condition} }};")
    )
    compiled = compile_set(static["staticPolicies"])
    assert compiled is not None
    assert authorize(compiled, _request("u", "pay", context)) is None


def test_values_as_cedar_holds_them() -> None:
    assert decimal_of("1.5").units == 15_000 and decimal_of("-0.0001").units == -1
    for bad in ("1", "1.23456", "1e3", " 1.5", "922337203685477.5808"):
        with pytest.raises(LeftToCedar):
            decimal_of(bad)
    with pytest.raises(LeftToCedar):
        value_of({"__extn": {"fn": "ip", "arg": "10.0.0.1"}})
    with pytest.raises(LeftToCedar):
        value_of(None)


# ------------------------------------------------------------------ what the shipped policies ask


def test_the_shipped_policies_are_decided_without_cedars_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """The desk's Cedar and the bench's, on their own calls: every decision is this evaluator's
    (Cedar's own call is not made), and each is what Cedar decides."""
    from bench.middleware_steps import CEDAR
    from demo_tools import cedar_desk
    from policies.supervisor.decide import cedar as decide_cedar
    from policies.supervisor.rules.cedar import parse_cedar

    asked: list[object] = []
    monkeypatch.setattr(decide_cedar, "cedarpy_module", lambda: asked.append(1) or cedarpy)
    cases = [
        (CEDAR, "convert_price", {"args": {"amount_usd": {"value": {"__extn": {"fn": "decimal", "arg": "64.0"}}},
                                           "currency": {"sources": ["request"]}}}),
        (CEDAR, "convert_price", {"args": {"amount_usd": {"value": {"__extn": {"fn": "decimal", "arg": "1.0"}}},
                                           "currency": {"sources": ["untrusted:lookup_order"]}}}),
        (CEDAR, "lookup_order", {"args": {"order_id": {"value": 12}}}),
        (CEDAR, "lookup_order", {"args": {"order_id": {"value": 123456}}}),
    ]  # fmt: skip
    text = cedar_desk.policy.cedar
    assert text
    for amount in ("20.0", "150.0"):
        for source in ("request", "untrusted:read_ticket"):
            args = {"order_id": {"value": "ORD-1001", "source": source, "sources": [source]},
                    "amount": {"value": {"__extn": {"fn": "decimal", "arg": amount}}, "source": source,
                               "sources": [source], "run_total": {"__extn": {"fn": "decimal", "arg": amount}},
                               "thread_total": {"__extn": {"fn": "decimal", "arg": amount}}}}  # fmt: skip
            context = {"args": args, "mandate": {"asked": True, "text": "refund", "complete": True},
                       "decided": {"verdict": "approve", "check": "requested", "reason": "", "by_request": False},
                       "run": {"calls": 0}}  # fmt: skip
            cases.append((text, "issue_refund", context))
    for policies, action, context in cases:
        view = parse_cedar(policies).for_tool(action)
        request = _request("cust-42", action, context)
        pruned = {**request, "context": decide_cedar.read_only(request["context"], view.reads)}
        ours = decide_cedar.cedar_answer(view, pruned)
        theirs = cedarpy.is_authorized(pruned, view.handle, [])
        assert (ours.allowed, sorted(ours.diagnostics.reasons)) == (
            theirs.allowed,
            sorted(theirs.diagnostics.reasons),
        ), (action, context)
    assert asked == [], "Cedar's own call was made"
