"""Cedar's evaluation of a call's request, in process and in Python, for the part of the language the
review's policies are written in; Cedar's own engine (``cedarpy``) for everything else.

Why: Cedar's native call costs 60 µs warm and 150 – 300 µs inside a governed run (its request is
serialized, parsed again and answered through JSON, with the processor's caches cold), which is most
of what the Cedar check adds to a tool step. The policies the review judges calls with are small
(a scope, a few comparisons of ``context`` attributes), and judging them takes a few microseconds.

What this evaluator decides, it decides as Cedar does, and only that (``tests/test_cedar_eval.py``
compares it with ``cedarpy`` on generated policies and requests):

- a policy set (Cedar's JSON form, as ``cedarpy.policies_to_json_str`` gives it) is compiled once
  (:func:`compile_set`); one construct outside this evaluator's part of the language (a template
  slot, an extension function other than ``decimal`` and its comparisons, tags, an unknown) and the
  set is not compiled: every call of it goes to Cedar;
- a request is answered (:func:`authorize`: allowed, and the ids of the policies that decided, as
  Cedar's diagnostics give them) only where no policy of the set would fail to evaluate: an
  attribute missing where one is read, a type Cedar would refuse, an overflow, a comparison of
  values of two types. Any of these and the answer is ``None``: the caller asks Cedar, whose answer
  carries its own error messages. So this evaluator never decides an erring request, and decides
  every other one as Cedar does;
- the entities are none (every fact is in ``context``): ``in`` is equality, an entity has no
  attributes (reading one is left to Cedar), an action's groups do not exist.

Pure: no I/O."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: The bounds of Cedar's ``Long`` (a 64-bit signed integer).
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1
#: Cedar's ``decimal``: four places, held as an integer of ten-thousandths in a ``Long``.
_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]{1,4}")
_DECIMAL_COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "lessThan": lambda a, b: a < b,
    "lessThanOrEqual": lambda a, b: a <= b,
    "greaterThan": lambda a, b: a > b,
    "greaterThanOrEqual": lambda a, b: a >= b,
}
_LONG_COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}
_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
}


class LeftToCedar(Exception):
    """What this evaluator does not decide: a construct outside its part of the language (at
    compile time) or a request on which a policy would fail to evaluate (at run time)."""


@dataclass(frozen=True)
class Entity:
    """An entity reference: its type and id."""

    type: str
    id: str


@dataclass(frozen=True)
class Decimal4:
    """A Cedar ``decimal``: ``units`` ten-thousandths."""

    units: int


class CedarSetValue(tuple[Any, ...]):
    """A Cedar set (its elements in the order given; compared as a set)."""


#: A Cedar value as this evaluator holds it.
Value = Any
#: A compiled expression: the request's variables to its value.
Expression = Callable[[Mapping[str, Value]], Value]


@dataclass(frozen=True)
class Answer:
    """Cedar's answer to a request: ``allowed``, and ``reasons``, the ids of the policies that
    decided it (the matching ``forbid`` policies where any matches, else the matching ``permit``
    policies), as ``cedarpy``'s diagnostics give them; no errors (a request with any is Cedar's)."""

    allowed: bool
    reasons: tuple[str, ...]


# --- values ----------------------------------------------------------------------------------------


def _long(value: int) -> int:
    if not LONG_MIN <= value <= LONG_MAX:
        raise LeftToCedar("overflow")
    return value


def decimal_of(text: Any) -> Decimal4:
    """Cedar's ``decimal("...")`` of ``text``: at most four places, within a ``Long``."""
    if not isinstance(text, str) or _DECIMAL.fullmatch(text) is None:
        raise LeftToCedar("not a decimal")
    whole, _, places = text.partition(".")
    negative = whole.startswith("-")
    units = abs(int(whole)) * 10_000 + int(places.ljust(4, "0"))
    return Decimal4(_long(-units if negative else units))


def value_of(data: Any) -> Value:
    """A value of a request's JSON (its context, a literal of a policy) as Cedar reads it without a
    schema: a number is a ``Long``, a list a set, an object a record, ``__entity`` and ``__extn``
    escapes an entity and a ``decimal``; anything else (a fraction, null, another extension, an
    object that might be read as an entity) is left to Cedar."""
    if isinstance(data, bool | str):
        return data
    if isinstance(data, int):
        return _long(data)
    if isinstance(data, list):
        return CedarSetValue(value_of(item) for item in data)
    if isinstance(data, dict):
        if "__entity" in data or "__extn" in data:
            if len(data) != 1:
                raise LeftToCedar("an escape beside other keys")
            if "__entity" in data:
                return _entity(data["__entity"])
            extension = data["__extn"]
            if not isinstance(extension, dict) or extension.get("fn") != "decimal" or len(extension) != 2:
                raise LeftToCedar("an extension other than decimal")
            return decimal_of(extension.get("arg"))
        if set(data) == {"type", "id"} or any(key.startswith("__") for key in data):
            raise LeftToCedar("an object Cedar may read as an escape")
        return {key: value_of(item) for key, item in data.items()}
    raise LeftToCedar(f"a value of type {type(data).__name__}")


def _entity(data: Any) -> Entity:
    if not isinstance(data, dict) or set(data) != {"type", "id"}:
        raise LeftToCedar("an entity reference")
    kind, name = data["type"], data["id"]
    if not isinstance(kind, str) or not isinstance(name, str):
        raise LeftToCedar("an entity reference")
    return Entity(kind, name)


def _kind(value: Value) -> type:
    return dict if isinstance(value, dict) else type(value)


def equal(left: Value, right: Value) -> bool:
    """Cedar's ``==`` on two values of one type (of two types: left to Cedar)."""
    if _kind(left) is not _kind(right):
        raise LeftToCedar("== of two types")
    if isinstance(left, CedarSetValue):
        return all(_within(x, right) for x in left) and all(_within(y, left) for y in right)
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(equal(left[k], right[k]) for k in left)
    return bool(left == right)


def _within(value: Value, values: Sequence[Value]) -> bool:
    """Is ``value`` one of ``values`` (a set's elements; where one is of another type: left to
    Cedar)?"""
    return any(equal(value, v) for v in values)


def _bool(value: Value) -> bool:
    if not isinstance(value, bool):
        raise LeftToCedar("not a Bool")
    return value


def _set(value: Value) -> CedarSetValue:
    if not isinstance(value, CedarSetValue):
        raise LeftToCedar("not a set")
    return value


def _integer(value: Value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise LeftToCedar("not a Long")
    return value


def _decimal(value: Value) -> int:
    if not isinstance(value, Decimal4):
        raise LeftToCedar("not a decimal")
    return value.units


# --- expressions -------------------------------------------------------------------------------------


def _pattern(parts: Any) -> re.Pattern[str]:
    if not isinstance(parts, list):
        raise LeftToCedar("a like pattern")
    out = []
    for part in parts:
        if part == "Wildcard":
            out.append(".*")
        elif isinstance(part, dict) and set(part) == {"Literal"} and isinstance(part["Literal"], str):
            out.append(re.escape(part["Literal"]))
        else:
            raise LeftToCedar("a like pattern")
    return re.compile("".join(out), re.DOTALL)


def _attribute(left: Expression, attr: str) -> Expression:
    def read(env: Mapping[str, Value]) -> Value:
        record = left(env)
        if not isinstance(record, dict) or attr not in record:
            raise LeftToCedar("an attribute that is not there")  # Cedar: an error
        return record[attr]

    return read


def _has(left: Expression, attr: str) -> Expression:
    def has(env: Mapping[str, Value]) -> Value:
        record = left(env)
        if not isinstance(record, dict):
            raise LeftToCedar("has on what is not a record")  # an entity's: Cedar's store
        return attr in record

    return has


def _binary(op: str, left: Expression, right: Expression) -> Expression:
    if op == "&&":
        return lambda env: _bool(left(env)) and _bool(right(env))
    if op == "||":
        return lambda env: _bool(left(env)) or _bool(right(env))
    if op == "==":
        return lambda env: equal(left(env), right(env))
    if op == "!=":
        return lambda env: not equal(left(env), right(env))
    if op in _LONG_COMPARISONS:
        compare = _LONG_COMPARISONS[op]
        return lambda env: compare(_integer(left(env)), _integer(right(env)))
    if op in _ARITHMETIC:
        apply = _ARITHMETIC[op]
        return lambda env: _long(apply(_integer(left(env)), _integer(right(env))))
    if op in ("contains", "containsAll", "containsAny"):

        def contains(env: Mapping[str, Value]) -> bool:
            within, wanted = _set(left(env)), right(env)  # both read, left first, as Cedar does
            if op == "contains":
                return _within(wanted, within)
            if op == "containsAll":
                return all(_within(x, within) for x in _set(wanted))
            return any(_within(x, within) for x in _set(wanted))

        return contains
    if op == "in":
        return lambda env: _in(left(env), right(env))
    raise LeftToCedar(f"the operator {op}")


def _in(left: Value, right: Value) -> bool:
    """``in`` with no entities: an entity is in itself only (a set: in one of its elements)."""
    if not isinstance(left, Entity):
        raise LeftToCedar("in on what is not an entity")
    if isinstance(right, Entity):
        return left == right
    if isinstance(right, CedarSetValue) and all(isinstance(e, Entity) for e in right):
        return left in right
    raise LeftToCedar("in on what is not an entity")


def compile_expression(node: Any) -> Expression:
    """An expression of Cedar's JSON form, compiled (:class:`LeftToCedar` for one outside this
    evaluator's part of the language)."""
    if not isinstance(node, dict) or len(node) != 1:
        raise LeftToCedar("an expression")
    ((op, arg),) = node.items()
    if op == "Value":
        value = value_of(arg)
        return lambda env: value
    if op == "Var":
        if arg not in ("principal", "action", "resource", "context"):
            raise LeftToCedar(f"the variable {arg}")
        return lambda env: env[arg]
    if op in ("!", "neg", "isEmpty"):
        if not isinstance(arg, dict) or set(arg) != {"arg"}:
            raise LeftToCedar(op)
        inner = compile_expression(arg["arg"])
        if op == "!":
            return lambda env: not _bool(inner(env))
        if op == "neg":
            return lambda env: _long(-_integer(inner(env)))
        return lambda env: len(_set(inner(env))) == 0
    if op in (".", "has"):
        if not isinstance(arg, dict) or set(arg) != {"left", "attr"} or not isinstance(arg["attr"], str):
            raise LeftToCedar(op)
        left = compile_expression(arg["left"])
        return _attribute(left, arg["attr"]) if op == "." else _has(left, arg["attr"])
    if op == "like":
        if not isinstance(arg, dict) or set(arg) != {"left", "pattern"}:
            raise LeftToCedar(op)
        text, pattern = compile_expression(arg["left"]), _pattern(arg["pattern"])
        return lambda env: _like(text(env), pattern)
    if op == "is":
        if not isinstance(arg, dict) or not {"left", "entity_type"} <= set(arg) <= {
            "left",
            "entity_type",
            "in",
        }:
            raise LeftToCedar(op)
        subject, kind = compile_expression(arg["left"]), arg["entity_type"]
        within = compile_expression(arg["in"]) if "in" in arg else None
        return lambda env: _is(subject(env), kind) and (within is None or _in(subject(env), within(env)))
    if op == "if-then-else":
        if not isinstance(arg, dict) or set(arg) != {"if", "then", "else"}:
            raise LeftToCedar(op)
        test, yes, no = (compile_expression(arg[k]) for k in ("if", "then", "else"))
        return lambda env: yes(env) if _bool(test(env)) else no(env)
    if op == "Set":
        if not isinstance(arg, list):
            raise LeftToCedar(op)
        items = [compile_expression(item) for item in arg]
        return lambda env: CedarSetValue(item(env) for item in items)
    if op == "Record":
        if not isinstance(arg, dict):
            raise LeftToCedar(op)
        fields = {key: compile_expression(item) for key, item in arg.items()}
        return lambda env: {key: item(env) for key, item in fields.items()}
    if op == "decimal":
        (text,) = _call_args(arg, 1)
        return lambda env: decimal_of(text(env))
    if op in _DECIMAL_COMPARISONS:
        first, second = _call_args(arg, 2)
        compare = _DECIMAL_COMPARISONS[op]
        return lambda env: compare(_decimal(first(env)), _decimal(second(env)))
    if isinstance(arg, dict) and set(arg) == {"left", "right"}:
        return _binary(op, compile_expression(arg["left"]), compile_expression(arg["right"]))
    raise LeftToCedar(f"the construct {op}")


def _call_args(arg: Any, count: int) -> list[Expression]:
    if not isinstance(arg, list) or len(arg) != count:
        raise LeftToCedar("an extension call")
    return [compile_expression(item) for item in arg]


def _like(text: Value, pattern: re.Pattern[str]) -> bool:
    if not isinstance(text, str):
        raise LeftToCedar("like on what is not a String")
    return pattern.fullmatch(text) is not None


def _is(value: Value, kind: Any) -> bool:
    if not isinstance(value, Entity) or not isinstance(kind, str):
        raise LeftToCedar("is on what is not an entity")
    return value.type == kind


# --- policies ------------------------------------------------------------------------------------------


def _scope(variable: str, scope: Any) -> Expression:
    """A policy's constraint on ``principal``, ``action`` or ``resource``, as an expression."""
    if not isinstance(scope, dict):
        raise LeftToCedar("a scope")
    op = scope.get("op")
    var: Expression = lambda env: env[variable]  # noqa: E731
    if op == "All" and set(scope) == {"op"}:
        return lambda env: True
    if op in ("==", "in") and set(scope) == {"op", "entity"}:
        entity = _entity(scope["entity"])
        return lambda env: env[variable] == entity  # no entities: in is equality
    if op == "in" and set(scope) == {"op", "entities"} and variable == "action":
        entities = CedarSetValue(_entity(e) for e in scope["entities"] or ())
        return lambda env: env[variable] in entities
    if op == "is" and {"op", "entity_type"} <= set(scope) <= {"op", "entity_type", "in"}:
        kind = scope["entity_type"]
        within = _entity(scope["in"].get("entity")) if "in" in scope else None
        if "in" in scope and set(scope["in"]) != {"entity"}:
            raise LeftToCedar("a scope")
        return lambda env: _is(var(env), kind) and (within is None or var(env) == within)
    raise LeftToCedar("a scope")


@dataclass(frozen=True)
class CompiledPolicy:
    """One policy, compiled: its id (Cedar's key), whether it forbids, and its test."""

    key: str
    forbids: bool
    applies: Expression


def compile_policy(key: str, policy: Mapping[str, Any]) -> CompiledPolicy:
    """A policy of Cedar's JSON form, compiled (:class:`LeftToCedar` for one outside this
    evaluator's part of the language): its scope, then each ``when`` true and each ``unless``
    false, in the order written, as Cedar evaluates them."""
    effect = policy.get("effect")
    if effect not in ("permit", "forbid"):
        raise LeftToCedar("an effect")
    tests = [_scope(variable, policy.get(variable)) for variable in ("principal", "action", "resource")]
    for condition in policy.get("conditions") or ():
        if not isinstance(condition, dict) or condition.get("kind") not in ("when", "unless"):
            raise LeftToCedar("a condition")
        body = compile_expression(condition.get("body"))
        tests.append(body if condition["kind"] == "when" else _negated(body))
    checked = [_checked(test) for test in tests]

    def applies(env: Mapping[str, Value]) -> bool:
        return all(test(env) for test in checked)

    return CompiledPolicy(key, effect == "forbid", applies)


def _negated(body: Expression) -> Expression:
    return lambda env: not _bool(body(env))


def _checked(test: Expression) -> Expression:
    return lambda env: _bool(test(env))


def compile_set(policies: Mapping[str, Mapping[str, Any]]) -> tuple[CompiledPolicy, ...] | None:
    """The static policies of a set (Cedar's JSON form, by key), compiled; None where one is
    outside this evaluator's part of the language (every request of the set is then Cedar's)."""
    try:
        return tuple(compile_policy(key, policy) for key, policy in policies.items())
    except LeftToCedar:
        return None


def authorize(policies: Sequence[CompiledPolicy], request: Mapping[str, Any]) -> Answer | None:
    """Cedar's answer to ``request`` (principal, action, resource as ``{"type", "id"}``, and
    ``context``) under the compiled ``policies``, with no entities; None where any policy would fail
    to evaluate on it, or the request holds what this evaluator leaves to Cedar."""
    try:
        env = {
            "principal": _entity(request["principal"]),
            "action": _entity(request["action"]),
            "resource": _entity(request["resource"]),
            "context": value_of(request.get("context") or {}),
        }
        if not isinstance(env["context"], dict):
            return None
        matched = [(p.key, p.forbids) for p in policies if p.applies(env)]
    except LeftToCedar:
        return None
    forbids = tuple(key for key, forbids in matched if forbids)
    if forbids:
        return Answer(False, forbids)
    return Answer(bool(matched), tuple(key for key, _ in matched))
