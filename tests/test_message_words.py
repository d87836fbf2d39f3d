"""The words of a message against what its turn says (:mod:`policies.supervisor.reading.message`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from policies.supervisor.reading.message import COURTESY, content_words, left_out, negated, unsaid


@pytest.mark.parametrize(
    ("text", "negative"),
    [("I can't make it", True), ("I won't be in", True), ("no thanks", True), ("not ready", True),
     ("never shared", True), ("I cannot come", True), ("nothing to add", True),
     ("I can make it", False), ("Thursday works", False), ("Notes attached", False), ("Nobel", False),
     ("I know", False)],
)  # fmt: skip
def test_negated_reads_a_negation_as_a_word_or_a_verbs(text, negative):
    assert negated(text) is negative


def test_content_words_leave_out_function_words_and_contractions_and_keep_a_stance():
    assert content_words("I'll be there, won't I?") == []
    assert content_words("I'm against the plan") == ["against", "plan"]
    assert content_words("Ana's report is ready") == ["ana", "report", "ready"]


@pytest.mark.parametrize(
    ("text", "said"),
    [("I'm taking next week off", "taking the next weeks off"), ("Late arrival", "we will arrive late"),
     ("Out Friday", "out fri"), ("5 minutes late", "5 min late"), ("Replies confirmed", "reply to confirm"),
     ("Boxes packed", "pack the box")],
)  # fmt: skip
def test_a_word_in_another_form_or_written_out_is_said(text, said):
    assert unsaid([text], [said]) == []


def test_a_figure_is_said_where_its_number_is():
    assert unsaid(["We arrive at 18:00"], ["we arrive at 6 pm"], {18.0, 6.0, 0.0}) == []
    assert unsaid(["Lunch is at 2pm"], ["lunch is at noon"]) == ["2pm"]


@given(
    st.lists(st.sampled_from(sorted(COURTESY)), min_size=1, max_size=6),
    st.sampled_from(["the report is ready", "the meeting moved", "lunch is at noon"]),
)
def test_courtesy_around_what_was_said_adds_nothing(courtesy, said):
    assert unsaid([f"{' '.join(courtesy)}: {said}."], [said]) == []


@given(st.sampled_from(["resigning", "wire", "salary", "approve", "accept", "madrid", "useless"]))
def test_a_word_the_turn_does_not_hold_is_unsaid(word):
    assert unsaid([f"The report is ready. Also {word}."], ["Email Bob that the report is ready."]) == [word]


@pytest.mark.parametrize(
    ("texts", "dictated", "dropped"),
    [(["Thanks, will do."], "that the doc is ready", ["doc", "ready"]), (["Thanks!"], "I'll pick up the laptop at 2", ["pick", "laptop"]),
     (["The document is ready."], "that the doc is ready", []), (["Running late, sorry"], "I'm late", []),
     (["Thanks, Bob!"], "thanks Bob", [])],
)  # fmt: skip
def test_a_message_that_holds_none_of_what_was_dictated_leaves_it_out(texts, dictated, dropped):
    assert left_out(texts, dictated, aside={"bob"}) == dropped
