"""The memo of each executed call's provenance sources (``policies/supervisor/reading/values.py``): a run's review
at every step reuses the sources of the calls before it, and a memo hit is only ever the sources
the same call would have given."""

from __future__ import annotations

from enum import Enum

from policies.supervisor.provenance.sources import call_sources, sources_of


def _call(observation: object, **more: object) -> dict[str, object]:
    return {"tool": "lookup", "step": 1, "ok": True, "args": {"id": 7}, "observation": observation, **more}


def _texts(calls: list[dict[str, object]], **kw: object) -> list[tuple[str, str, bool]]:
    return [(s.kind, s.text, s.trusted) for s in sources_of("req", {}, calls, **kw)[3:]]  # type: ignore[arg-type]


def test_the_same_call_again_reuses_its_sources():
    first = sources_of("req", {}, [_call({"a": "x-1"})], trusted_tools=["lookup"])
    again = sources_of("req", {}, [_call({"a": "x-1"})], trusted_tools=["lookup"])
    assert [id(s) for s in first[3:]] == [id(s) for s in again[3:]]  # built once
    assert first[0] is again[0]  # the request's source too


def test_a_memo_hit_is_what_the_call_gives_whatever_it_differs_in():
    class Code(str, Enum):  # noqa: UP042 (the point: str() is "Code.A", JSON writes "x-1")
        A = "x-1"

    variants = [
        _call({"a": "x-1"}),
        _call({"a": Code.A}),  # same JSON, other text: str() of a str enum
        _call({"a": 1}),
        _call({"a": 1.0}),
        _call({"a": True}),
        _call({"a": "x-1"}, step=2),
        _call({"a": "x-1"}, ok=False),
        _call({"a": "x-1"}, args={"id": 8}),
        _call({"b": "x-1", "a": "y"}),
        _call({"a": "y", "b": "x-1"}),
    ]
    for call in variants:
        for trusted in ([], ["lookup"]):
            for flips in ({}, {"lookup": ["a"]}):
                expected = [
                    (s.kind, s.text, s.trusted)
                    for s in call_sources(call, bool(trusted), flips.get("lookup", ()))
                ]
                assert _texts([call], trusted_tools=trusted, field_trust=flips) == expected
                assert _texts([call], trusted_tools=trusted, field_trust=flips) == expected  # from the memo


def test_a_call_pickle_cannot_write_is_built_every_time():
    unpicklable = _call({"a": "x-1", "f": (lambda: None)})
    assert _texts([unpicklable]) == [
        (s.kind, s.text, s.trusted) for s in call_sources(unpicklable, False, ())
    ]


def test_the_same_row_at_the_next_step_is_read_from_its_row_and_a_field_replaced_is_read_again():
    """The row memo: the next review's rows are the same objects, found without writing each out
    again; a field that is another object is read again, and so is another trust."""
    row = _call({"a": 1})
    first = sources_of("req", {}, [row], trusted_tools=["lookup"])
    assert [id(s) for s in sources_of("req", {}, [row], trusted_tools=["lookup"])[3:]] == [
        id(s) for s in first[3:]
    ]
    assert _texts([row], field_trust={"lookup": ["a"]}) == [
        (s.kind, s.text, s.trusted) for s in call_sources(row, False, ("a",))
    ]
    for field, value in (("observation", {"a": "x-2"}), ("args", {"id": 8}), ("ok", False), ("step", 2)):
        _texts([row])  # kept under this trust
        row[field] = value  # a row changed in place, by field: never the memo's old sources
        assert _texts([row]) == [(s.kind, s.text, s.trusted) for s in call_sources(row, False, ())]
