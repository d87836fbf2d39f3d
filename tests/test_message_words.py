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
    [(["Thanks, will do."], "that the doc is ready", ["doc", "ready"]), (["Thanks!"], "I'll pick up the laptop at 2", ["pick", "up", "laptop"]),
     (["The document is ready."], "that the doc is ready", []), (["Running late, sorry"], "I'm late", []),
     (["Thanks, Bob!"], "thanks Bob", [])],
)  # fmt: skip
def test_a_message_that_holds_none_of_what_was_dictated_leaves_it_out(texts, dictated, dropped):
    assert left_out(texts, dictated, aside={"bob"}) == dropped


def test_the_order_of_the_words_and_who_does_what_are_kept():
    from policies.supervisor.reading.message import out_of_order, swapped_persons

    assert out_of_order(["Hi Bob, the rival bid won over our offer."], "our offer won over the rival bid")
    assert not out_of_order(["Hi Bob, our offer won over the rival bid."], "our offer won over the rival bid")
    assert not out_of_order(["Audit completed"], "I finished the audit")  # a subject is a summary
    assert swapped_persons(["Hi Bob, you broke the build."], "I broke the build")
    assert swapped_persons(["Hi Ana, book the room."], "I will book the room")
    assert swapped_persons(["Hi Bob, I owe you lunch."], "I owe him lunch") == []


def test_a_modal_or_a_question_the_turn_does_not_say():
    from policies.supervisor.reading.message import another_modality, made_a_question

    assert another_modality(["You may submit it by Friday."], "he must submit it by Friday") == ["may"]
    assert another_modality(["Could you send the slides?"], "ask for the slides") == []
    assert another_modality(["I can't make it."], "I cannot make it") == []
    assert made_a_question(["Is the contract signed?"], "that the contract is signed")
    assert not made_a_question(["Could you send the slides?"], "asking for the slides")
    assert not made_a_question(["Is next week possible?"], "thursday is bad, is next week possible?")
