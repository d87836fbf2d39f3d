"""Ownership as policy data (issue 36), over the class of results: whatever the nesting of a tool's
result, no field of a record another subject owns survives ``visible`` (only the key the call itself
gave), every record of the subject's is kept, and a result that cannot say whose it is (text, or a
run with no subject) is withheld. Build-time errors name what is missing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.supervisor import OwnedRecord, SupervisorPolicy, ToolRules
from policies.supervisor.request.ownership import UNREADABLE, WITHHELD, visible
from policies.tools import ToolSpec

SPEC = ToolSpec(trust="trusted", record_keys=["id"], owner="customer", owner_only=True)
SUBJECT = {"customer": "cust-42"}
_n = iter(range(10**9))


@st.composite
def record(draw, depth: int):
    """A record of ours or another's, with a unique secret, maybe nesting more records."""
    mine = draw(st.booleans())
    row = {"id": f"R-{next(_n)}", "customer": "cust-42" if mine else draw(st.sampled_from(["cust-7", "CUST-9"])),
           "secret": f"s{next(_n)}x"}  # fmt: skip
    if depth and draw(st.booleans()):
        row["nested"] = draw(st.lists(record(depth - 1), max_size=2))
    return row


RESULTS = st.one_of(
    record(2),
    st.lists(record(2), max_size=4),
    st.builds(lambda rows: {"results": rows, "count": len(rows)}, st.lists(record(1), max_size=3)),
)


def _records(value, found):
    if isinstance(value, dict):
        if "customer" in value:
            found.append(value)
        for v in value.values():
            _records(v, found)
    elif isinstance(value, list):
        for v in value:
            _records(v, found)
    return found


@settings(max_examples=300, deadline=None)
@given(RESULTS)
def test_no_field_of_anothers_record_survives_and_the_subjects_are_kept(result):
    all_records = _records(result, [])
    asked = {"order_id": all_records[0]["id"]} if all_records else {}
    seen, withheld = visible(SPEC, result, SUBJECT, asked)
    text = json.dumps(seen)
    # a record counts as the subject's only where it and every record around it are the subject's
    others = [r for r in all_records if r["customer"] != "cust-42"]
    for other in others:
        assert other["secret"] not in text and other["customer"] not in text
    assert withheld >= (1 if others else 0)
    kept = [r for r in _records(seen, []) if r.get("customer") == "cust-42"]
    assert all(k["secret"] in json.dumps(all_records) for k in kept)
    if not others:
        assert seen == result and withheld == 0


def test_the_key_kept_is_only_the_one_the_call_asked_for():
    listing = [{"id": "R-1", "customer": "cust-7", "secret": "a"}, {"id": "R-2", "customer": "cust-7"}]
    seen, withheld = visible(SPEC, listing, SUBJECT, {"order_id": "R-2"})
    assert seen == [{"withheld": WITHHELD}, {"id": "R-2", "withheld": WITHHELD}] and withheld == 2


def test_text_and_a_run_with_no_subject_are_withheld_whole():
    assert visible(SPEC, "Order R-1 of li@example.org, 90 EUR", SUBJECT) == ({"withheld": UNREADABLE}, 1)
    seen, withheld = visible(SPEC, {"id": "R-1", "customer": "cust-42", "total": 5}, {}, {"order_id": "R-1"})
    assert seen == {"id": "R-1", "withheld": WITHHELD} and withheld == 1
    assert visible(ToolSpec(owner="customer", system_fields=["customer"]), "text", {}) == ("text", 0)


def test_build_time_errors_name_what_is_missing():
    with pytest.raises(ValueError, match="owner_only needs owner"):
        ToolSpec(owner_only=True)
    rules = {"refund": ToolRules(owned=[OwnedRecord(arg="order_id", tool="look_up")])}
    with pytest.raises(ValueError, match="owner="):
        SupervisorPolicy.for_tools(["look_up", "refund"], rules=rules)
