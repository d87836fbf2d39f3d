"""What the gateway fuzz suites share: generated model replies, the run properties every pattern
must keep, and instrumented tools that check each real execution against the tool's schema.

A reply for an LLM role is drawn from: a valid reply of that role, a mutated one (a key dropped or
added, a value replaced by a wrong type, a huge string, deep nesting, a NaN/Infinity literal, an
out-of-range number, unicode, a lone surrogate), any other JSON value, text that is not JSON, or an
exception from the client. ``None`` lets the offline model answer that call (a valid reply that fits
the run so far), so runs reach every later node as well.

Tools, searches, readers and retrievers are fuzzed with values JSON cannot represent (``FOREIGN``:
objects of the caller's own class, complex numbers, bytes, sets, tuples, datetimes, decimals,
dicts keyed by non-strings, subclasses that lie, objects whose every protocol raises, structures
of shared references too large to store), put into their real results by ``tainter``.
"""

from __future__ import annotations

import collections
import copy
import enum
import json
import math
from collections.abc import Callable, Mapping
from typing import Any
from unittest.mock import patch

from hypothesis import strategies as st
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from graphs.registry import run_result
from policies.catalog import SUCCESS, is_known_stop_reason
from policies.json_safety import json_problem
from policies.tools import ToolSpec, arg_problem
from tests.figures import FIGURES

DEEP = "__deep_nesting__"

# --------------------------------------------------------------------------- JSON values

BIG_INTS = st.sampled_from([2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30, -(10**40)])
ODD_FLOATS = st.sampled_from([math.nan, math.inf, -math.inf, 1e308, 5e-324, -0.0])
ODD_TEXT = st.sampled_from(
    [
        "",
        " ",
        "\n\t ",
        "\u202egnp.exe",
        "\x00\x1b[31mred",
        "ünïcødé ✓ 漢字 🙂",
        "line\nbreak\r\nand\ttab",
        "null",
        "NaN",
        "' OR 1=1 --",
        "{{template}}",
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    BIG_INTS,
    st.floats(allow_nan=False, allow_infinity=False),
    ODD_FLOATS,
    st.text(max_size=30),
    ODD_TEXT,
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=10,
)
HUGE_TEXT = st.integers(min_value=2_000, max_value=200_000).map(lambda n: "x" * n)
#: Numbers as a model may write them: long decimals, thousands separators, percentages, exponents.
NUMBER_TEXT = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(str),
    st.builds(
        lambda whole, frac, pct: f"{whole}.{frac}{pct}",
        st.integers(min_value=0, max_value=10**40),
        st.text(alphabet="0123456789", min_size=1, max_size=80),
        st.sampled_from(["", "%", " %"]),
    ),
    st.integers(min_value=0, max_value=10**9).map(lambda n: f"{n:,}"),
    st.sampled_from(["99.95%", "99.950000000000000000000000000000001%", "0." + "1" * 40, "1" + "0" * 400]),
    # abbreviated figures, dates and times (issue 16)
    st.builds(
        lambda n, suffix: f"${n}{suffix}",
        st.decimals(min_value=0, max_value=10**4, places=2),
        st.sampled_from(["k", "K", "M", "m", "B", "b", "bn", " million", "tn"]),
    ),
    st.sampled_from(["$28k", "$28.2k", "$35k", "1.2M", "2bn", "45m", "15min", "3pm", "24/7", "04/05"]),
    st.dates().map(lambda d: d.isoformat()),
    st.datetimes().map(lambda d: d.isoformat(timespec="minutes")),
    st.times().map(lambda t: t.strftime("%H:%M")),
    st.dates().map(lambda d: f"{d:%B} {d.day}, {d.year}"),
)
#: Values that replace a part of a valid reply: wrong types, odd numbers, huge text, deep nesting.
REPLACEMENTS = st.one_of(JSON_VALUES, SCALARS, HUGE_TEXT, st.just(DEEP))


def cited_answers(words: list[str], cited: list[str], max_words: int) -> st.SearchStrategy[dict[str, Any]]:
    """A final answer with citations: 1 to ``max_words`` of ``words`` or number texts, and up to
    three of ``cited`` (the ids a model may cite, invented ones among them)."""
    return st.fixed_dictionaries(
        {
            "answer": st.lists(
                st.one_of(st.sampled_from(words), NUMBER_TEXT), min_size=1, max_size=max_words
            ).map(" ".join),
            "citations": st.lists(st.sampled_from(cited), max_size=3),
        }
    )


# --------------------------------------------------------------------------- foreign values


class Opaque:
    """An object of the caller's own class."""

    def __init__(self, payload: Any = None) -> None:
        self.payload = payload

    def __repr__(self) -> str:
        return f"Opaque({self.payload!r})"


class Hostile:
    """An object every protocol of which raises (``repr`` aside, so that a failing example can be
    shown): equality, truth, length, iteration, text, attribute reads beyond its own."""

    def _boom(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("hostile object")

    __eq__ = __ne__ = __lt__ = __bool__ = __len__ = __iter__ = __str__ = __format__ = _boom  # type: ignore[assignment]
    __hash__ = object.__hash__
    __getattr__ = _boom
    __float__ = __int__ = __index__ = _boom

    def __repr__(self) -> str:
        return "Hostile()"


class PosingAsDict:
    """An object that claims to be a dict (``isinstance`` believes it) and raises when used."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return dict

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError("not really a dict")

    def __repr__(self) -> str:
        return "PosingAsDict()"


class LyingDict(dict):
    """A dict subclass that hides what it holds: its views and lookups show something else, or
    raise."""

    def items(self):  # type: ignore[override]
        return [("fine", 1)]

    def values(self):  # type: ignore[override]
        return [1]

    def keys(self):  # type: ignore[override]
        return ["fine"]

    def __iter__(self):
        return iter(["fine"])

    def get(self, key: Any, default: Any = None) -> Any:
        raise RuntimeError("lying dict")

    def __getitem__(self, key: Any) -> Any:
        raise RuntimeError("lying dict")

    def __len__(self) -> int:
        raise RuntimeError("lying dict")


class RaisingList(list):
    """A list subclass whose iteration and length raise."""

    def __iter__(self):
        raise RuntimeError("raising list")

    def __len__(self) -> int:
        raise RuntimeError("raising list")


class Label(str):
    """A ``str`` subclass (as enum-like and ORM types are)."""


class Status(enum.IntEnum):
    OK = 1


def shared_references(depth: int) -> list:
    """A list that holds the same list twice, ``depth`` levels deep: 2**depth values to store."""
    value: list = [0]
    for _ in range(depth):
        value = [value, value]
    return value


PLAIN_LEAVES = st.one_of(st.integers(-5, 5), st.text(max_size=5), st.none())
FOREIGN_SCALARS = st.one_of(
    st.complex_numbers(allow_nan=False, allow_infinity=False, max_magnitude=1e6),
    st.binary(max_size=8),
    st.sets(st.integers(-5, 5), max_size=3),
    st.frozensets(st.integers(-5, 5), max_size=3),
    st.datetimes(),
    st.dates(),
    st.times(),
    st.timedeltas(),
    st.decimals(allow_nan=False, allow_infinity=False, places=2),
    st.fractions(max_denominator=9),
    st.uuids(),
    st.builds(Opaque, PLAIN_LEAVES),
    st.builds(Hostile),
    st.builds(PosingAsDict),
    st.builds(Label, st.text(max_size=5)),
    st.just(Status.OK),
    st.just(Ellipsis),
    st.just(print),
    st.just(Opaque),
)
FOREIGN_CONTAINERS = st.one_of(
    st.tuples(PLAIN_LEAVES, PLAIN_LEAVES),
    st.dictionaries(st.integers(-5, 5), PLAIN_LEAVES, min_size=1, max_size=3),
    st.dictionaries(st.tuples(st.integers(0, 3), st.integers(0, 3)), PLAIN_LEAVES, min_size=1, max_size=2),
    st.dictionaries(st.sampled_from([None, True, 1.5]), PLAIN_LEAVES, min_size=1, max_size=2),
    st.builds(lambda d: LyingDict({**d, "hidden": 1j}), st.dictionaries(st.text(max_size=4), PLAIN_LEAVES)),
    st.builds(RaisingList, st.lists(PLAIN_LEAVES, max_size=3)),
    st.builds(lambda d: collections.OrderedDict(d), st.dictionaries(st.text(max_size=4), PLAIN_LEAVES)),
    st.builds(lambda d: collections.Counter(d), st.dictionaries(st.text(max_size=4), st.integers(0, 5))),
    st.builds(shared_references, st.just(19)),  # a cheap repr: Hypothesis shows strategies
)
#: Python values JSON cannot represent, as a tool, search, reader or retriever may return them.
FOREIGN = st.one_of(FOREIGN_SCALARS, FOREIGN_CONTAINERS)


@st.composite
def tainter(draw: st.DrawFn) -> Callable[[Any], Any]:
    """A function that puts one foreign value into a (JSON) result: in place of the whole result,
    of one of its parts, or under a new key (``where`` picks the place among the result's parts)."""
    foreign = draw(FOREIGN)
    where = draw(st.integers(min_value=0, max_value=1000))
    as_key = draw(st.booleans())

    def taint(result: Any) -> Any:
        value = copy.deepcopy(result)
        paths = _paths(value)
        path = paths[where % len(paths)]
        target = _get(value, path)
        if as_key and isinstance(target, dict):
            target["added"] = foreign
            return value
        return _set(value, path, foreign)

    taint.foreign = foreign  # type: ignore[attr-defined]
    return taint


def dumps(value: Any, *, ascii_only: bool = True) -> str:
    """JSON text as a model might send it (NaN and Infinity written as the literals)."""
    return json.dumps(value, ensure_ascii=ascii_only, allow_nan=True)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _set(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = new
    return value


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """``base`` with one thing wrong (a deep copy; ``DEEP`` marks where deep nesting goes)."""
    value = copy.deepcopy(base)
    op = draw(st.sampled_from(["drop", "extra", "replace", "replace", "wrap"]))
    paths = _paths(value)
    if op in ("drop", "extra"):
        dicts = [p for p in paths if isinstance(_get(value, p), dict)]
        if not dicts:
            op = "replace"
        else:
            where = _get(value, draw(st.sampled_from(dicts)))
            if op == "drop" and where:
                del where[draw(st.sampled_from(sorted(where, key=str)))]
            else:
                where[draw(st.text(max_size=12))] = draw(REPLACEMENTS)
            return value
    if op == "wrap":
        return draw(st.sampled_from([[value], {"result": value}, dumps(value), {"json": dumps(value)}]))
    return _set(value, draw(st.sampled_from(paths)), draw(REPLACEMENTS))


def _get(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def as_text(value: Any, draw: st.DrawFn) -> str:
    """A value as reply text: JSON (ASCII or not), fenced, truncated, with prose around it."""
    text = dumps(value, ascii_only=draw(st.booleans()))
    if DEEP in text:
        depth = draw(st.integers(min_value=30, max_value=3000))
        text = text.replace(f'"{DEEP}"', "[" * depth + "]" * depth, 1)
    form = draw(st.sampled_from(["plain"] * 8 + ["fenced", "truncated", "prose", "trailing"]))
    if form == "fenced":
        return f"```json\n{text}\n```"
    if form == "truncated":
        return text[: draw(st.integers(min_value=0, max_value=max(0, len(text) - 1)))]
    if form == "prose":
        return f"Sure! Here is the JSON you asked for: {text}"
    if form == "trailing":
        return text + draw(st.sampled_from([" ", "}", "\n{}", " // done"]))
    return text


NOT_JSON = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "",
            "   ",
            "NaN",
            "Infinity",
            "-Infinity",
            '{"a": NaN}',
            '{"a": -Infinity}',
            '{"a": 1e400}',
            '{"\\udc00": 1}',
            '{"a": "\\ud800"}',
            "```json\n```",
            "I cannot help with that.",
            "<html><body>502 Bad Gateway</body></html>",
            "{'single': 'quotes'}",
        ]
    ),
    st.integers(min_value=1, max_value=5000).map(lambda n: "[" * n + "]" * n),
    st.integers(min_value=1, max_value=5000).map(lambda n: '{"a":' * n + "1" + "}" * n),
)


class StatusError(Exception):
    """A client error carrying an HTTP status, as OpenAI's client raises."""

    def __init__(self, status_code: int) -> None:
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code


EXCEPTIONS: st.SearchStrategy[BaseException] = st.sampled_from(
    [
        TimeoutError("read timed out"),
        ConnectionError("connection reset"),
        StatusError(429),
        StatusError(401),
        StatusError(500),
        StatusError(400),
        ValueError("bad"),
        RuntimeError("boom"),
        KeyError("choices"),
        RecursionError("deep"),
        MemoryError(),
    ]
)


#: How often each kind of reply is drawn (a kind listed twice is drawn twice as often).
KINDS = ("offline", "offline", "valid", "valid", "mutated", "mutated", "json", "text", "error")
#: For roles called many times in a run (a worker): mostly well-formed, so runs get deep.
KINDS_DEEP = ("offline", "offline", "valid", "valid", "valid", "valid", "mutated", "json", "text", "error")


@st.composite
def reply(draw: st.DrawFn, valid: st.SearchStrategy[Any], kinds: tuple[str, ...] = KINDS) -> Any:
    """One reply for a role whose valid replies ``valid`` draws (None: the offline model answers)."""
    kind = draw(st.sampled_from(kinds))
    if kind == "offline":
        return None
    if kind == "valid":
        return as_text(draw(valid), draw)
    if kind == "mutated":
        return as_text(draw(mutated(draw(valid))), draw)
    if kind == "json":
        return as_text(draw(JSON_VALUES), draw)
    if kind == "text":
        return draw(NOT_JSON)
    return draw(EXCEPTIONS)


@st.composite
def script(draw: st.DrawFn, roles: Mapping[str, st.SearchStrategy[Any]], *, max_calls: int = 1) -> dict:
    """A RoleModel script for roles listed in the order a run calls them: a focus role is drawn;
    the roles before it get the offline model's (valid) replies, so that every role is fuzzed about
    as often as the first; the focus and later roles get 1 to ``max_calls`` generated replies."""
    names = list(roles)
    focus = draw(st.integers(min_value=0, max_value=len(names) - 1))
    FIGURES.count("fuzz:focus", names[focus])
    out: dict[str, list[Any]] = {name: [None] for name in names[:focus]}
    for name in names[focus:]:
        out[name] = draw(st.lists(reply(roles[name]), min_size=1, max_size=max_calls))
    return out


def deliverable_resume(value: Any) -> bool:
    """Resume values LangGraph hands to the paused node. It stores a resume value before any node
    runs, so one it cannot store (an object of the caller's own class, a complex number) fails
    inside ``invoke``; ``None`` is no resume and ``{}`` an empty map of interrupt ids, so the run
    keeps waiting. test_gateway_regressions.py covers that boundary. What it can store but JSON
    cannot represent (a datetime, a set, a tuple) reaches the node, which must refuse it."""
    if value is None or (type(value) is dict and not value):
        return False
    if json_problem(value) == "too_large":  # shared references: LangGraph would never finish storing it
        return False
    try:
        _LANGGRAPH_SERDE.dumps_typed(value)
    except Exception:
        return False
    return True


_LANGGRAPH_SERDE = JsonPlusSerializer()


def _record_wait(seconds: float) -> None:
    FIGURES.count("fuzz:retries", "backoff_waits_skipped")


def without_backoff() -> Any:
    """The seam's retries run as they would, but their waits are counted, not slept (a fuzzed
    client error is often transient: 429, 5xx, timeouts)."""
    return patch("nodes.clock.sleep", new=_record_wait)


# --------------------------------------------------------------------------- run properties


def message_dict(value: Any) -> Any:
    """JSON for a LangChain message (its dict form, as the CLI prints it); nothing else."""
    if isinstance(value, BaseMessage):
        return value.model_dump()
    raise TypeError(f"not JSON: {type(value).__name__}")


def check_run(
    pattern: str, graph: Any, values: Mapping[str, Any], returned: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The run contract every fuzzed run must keep; returns the run's result and counts it.

    ``values`` is the run's state as the checkpointer keeps it; ``returned``, what ``invoke``
    returned: the audit rows read back from the store must be exactly those the run returned."""
    result = run_result(graph, dict(values))
    if returned is not None:
        kept = ("calls", "refusals", "usage")
        keys = ("trace", "history", "status", "stop_reason", *(k for k in kept if k in graph.output_channels))
        for key in keys:
            assert returned.get(key) == values.get(key), key
    status, reason = result.get("status"), result.get("stop_reason")
    assert status in ("ok", "stopped"), result
    assert result.get("run_id"), result
    if status == "ok":
        assert reason == SUCCESS, result
    else:
        assert reason != SUCCESS and is_known_stop_reason(pattern, str(reason)), reason
        last = (result.get("trace") or [{}])[-1]
        assert last.get("ok") is False and last.get("stop_reason") == reason, result.get("trace")
    said = result.get("messages") or []  # what a chat client shows: how the run ended, in words
    assert said and said[-1].type == "ai", said
    assert said[-1].content == result["answer"] if status == "ok" else reason in said[-1].content, said[-1]
    json.dumps(result, default=message_dict)  # the CLI prints it (apps.operations.runs.result_json)
    FIGURES.count(f"fuzz:{pattern}", "examples")
    FIGURES.count(f"fuzz:{pattern}:stop_reasons", str(reason))
    return result


# --------------------------------------------------------------------------- instrumented tools


class SchemaCheckedTools:
    """A tool registry whose every real execution is checked against the tool's schema.

    ``make_registry`` builds the underlying registry (called again by :meth:`reset`, so state such
    as a billing ledger starts fresh each example); ``executions`` lists ``(tool, args)`` and
    ``results`` what each returned; ``violations`` lists executions whose arguments fail the schema
    (must stay empty).
    """

    def __init__(
        self, specs: Mapping[str, ToolSpec], make_registry: Callable[[], Mapping[str, Callable[..., Any]]]
    ) -> None:
        self.specs, self.make_registry = specs, make_registry
        self.reset()

    def reset(self, taint: Mapping[str, Callable[[Any], Any]] | None = None) -> None:
        """Start over; ``taint`` maps a tool to a function that spoils its results (``tainted``
        lists the executions whose result was spoiled, with their idempotency keys)."""
        self.inner = self.make_registry()
        self.taint = dict(taint or {})
        self.executions: list[tuple[str, dict[str, Any]]] = []
        self.results: list[Any] = []
        self.violations: list[tuple[str, dict[str, Any], Any]] = []
        self.tainted: list[tuple[str, str | None]] = []

    def _wrap(self, name: str) -> Callable[..., Any]:
        def call(**kwargs: Any) -> Any:
            args = {k: v for k, v in kwargs.items() if k != "idempotency_key"}
            spec = self.specs.get(name)
            problem = arg_problem(name, args, spec=spec) if spec is not None else ("no_schema", name)
            self.executions.append((name, args))
            if problem is not None:
                self.violations.append((name, args, problem))
            result = self.inner[name](**kwargs)
            if name in self.taint:
                self.tainted.append((name, kwargs.get("idempotency_key")))
                return self.taint[name](result)
            self.results.append(result)
            return result

        return call

    def registry(self) -> dict[str, Callable[..., Any]]:
        return {name: self._wrap(name) for name in self.make_registry()}
