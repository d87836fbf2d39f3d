"""The binding checks as one ordered list (``policies.supervisor.decide.bindings.CHECKS``): each
finding a check names is one the module documents, and a policy's words are read once per policy."""

from __future__ import annotations

import gc
import re
import weakref

from policies.supervisor.decide import bindings
from policies.supervisor.decide.bindings import CHECKS, policy_words
from tests.test_bound_travel import POLICY, binding_findings

#: Every finding the module's docstring names (``said_on_the_other_side``, ...).
DOCUMENTED = set(re.findall(r"``([a-z_]+)``", bindings.__doc__ or ""))


def test_each_check_has_a_name_of_its_own():
    names = [name for name, _ in CHECKS]
    assert len(names) == len(set(names))


def test_every_finding_is_one_the_module_documents():
    calls = [
        ("Book Casa Azul for 2 nights for Ana", "book_hotel", {"hotel_id": "h-12", "nights": 2, "guest_email": "me@corp.example"}),
        ("Book the Hilton for a single night", "book_hotel", {"hotel_id": "h-12", "nights": 2, "guest_email": "me@corp.example"}),
        ("Create an event Lunch on Friday with Ana and Bob", "create_event",
         {"title": "Casa Azul", "day": "2026-12-01", "attendees": ["ana@corp.example"]}),
        ("Delete the budget review", "delete_event", {"event_id": "ev-2"}),
    ]  # fmt: skip
    seen: set[str] = set()
    for turn, tool, args in calls:
        found = binding_findings(turn, tool, **args)
        assert found, turn
        seen |= set(found)
    assert seen <= DOCUMENTED, seen - DOCUMENTED
    assert {"the_user_for_another", "not_of_the_record", "in_another_unit", "titled_otherwise",
            "another_day_written", "named_and_left_out", "named_by_another"} <= seen  # fmt: skip


def test_a_policys_words_are_read_once_and_go_with_it():
    assert policy_words(POLICY) is policy_words(POLICY)
    other = POLICY.model_copy(update={"rules": {k: v for k, v in POLICY.rules.items() if k != "book_hotel"}})
    words = policy_words(other)
    assert "book_hotel" in policy_words(POLICY).of and "book_hotel" not in words.of
    held = weakref.ref(other)
    del other, words
    gc.collect()
    assert held() is None  # the cache keeps no policy alive
