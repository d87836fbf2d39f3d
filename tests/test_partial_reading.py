"""A call the turn does not ask for is refused only on a complete reading (issue 54; design:
shared/design/reading.md, "Three outcomes per call"). Where the reader could not read part of the
turn and that part could bear on the call, the call is put to a human with the reading and the
unread words, never refused; where the turn says not to make it, or every clause is read and none
asks for it, it is refused as before. Nothing that was refused runs unasked: an ask is a question."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.supervisor import ReviewContext, SupervisorPolicy, ToolRules, review_action
from policies.supervisor.decide.approval import escalation_text
from policies.supervisor.decide.review import PARTLY_READ
from policies.supervisor.reading.coverage import bears_on, prohibited, reading_of
from policies.supervisor.rules.kinds import Requested

POLICY = SupervisorPolicy.for_tools(
    ["pay_invoice", "send_email", "read_invoice"],
    side_effects=["pay_invoice", "send_email"],
    rules={
        "pay_invoice": ToolRules(requested=Requested(keywords=["pay", "settle"], verdict="block")),
        "send_email": ToolRules(requested=Requested(keywords=["email", "send"], verdict="block")),
    },
    default_verdict="block",
)
PAY = {"kind": "tool", "name": "pay_invoice", "args": {"invoice_id": "INV-7"}}


def _decide(request: str, action: dict = PAY):
    return review_action(action, ReviewContext(request=request), POLICY)


#: Turns people write for "pay invoice INV-7" that the grammar does not read as asking.
UNREAD_BENIGN = [
    "INV-7 needs paying.",
    "Would it be possible to get invoice INV-7 paid?",
    "Payez la facture INV-7, s'il vous plaît.",
    "Could you maybe get invoice INV-7 paid?",
]


@pytest.mark.parametrize("request_", UNREAD_BENIGN)
def test_a_turn_the_reader_could_not_read_asks_and_shows_what_it_read(request_):
    decision = _decide(request_)
    assert (decision.verdict, decision.reason) == ("escalate", PARTLY_READ)
    assert decision.details["unread"] and decision.details["read"] == []
    text = escalation_text(PAY, {"reason": decision.reason, **decision.details})
    assert "; I read: nothing I can act on; not understood: " in text


@pytest.mark.parametrize(
    "request_",
    [
        "Don't pay invoice INV-7.",
        "Do not pay invoice INV-7 yet.",
        "Please never pay invoice INV-7.",
        "Avoid paying invoice INV-7.",
        "Instead of paying invoice INV-7, email Ana the total.",
        "Read invoice INV-7.",  # every clause read, none asks to pay
        "Hi! Summarise invoice INV-7. Thanks!",
        "Email Ana the total of invoice INV-7.",
    ],
)
def test_a_turn_that_says_not_to_or_is_read_whole_without_asking_refuses(request_):
    decision = _decide(request_)
    assert (decision.verdict, decision.reason) == ("block", "action_not_requested")


def test_a_read_mandate_still_admits_and_an_unread_clause_about_another_call_does_not_ask_for_this_one():
    assert _decide("Pay invoice INV-7.").verdict == "approve"
    # the unread clause (in a sentence that asks) names another invoice and no payment word: the
    # reading covers this call; a whole sentence with no role would bear on any call
    decision = _decide("Email Ana the total, the INV-9 one arrived broken.")
    assert (decision.verdict, decision.reason) == ("block", "action_not_requested")


def test_a_trailing_sentence_with_no_role_asks_about_a_call_the_turn_does_not_ask_for():
    decision = _decide("Email Ana the total. Scrap that.")
    assert (decision.verdict, decision.reason) == ("escalate", PARTLY_READ)
    # the email is read, and left uncertain by the sentence after it
    assert decision.details["read"] == ["email · Ana the total (uncertain)"]
    assert decision.details["unread"] == ["Scrap that"]


def test_the_reading_accounts_for_mandates_message_content_greetings_and_prohibitions():
    reading = reading_of(
        "Hi team! Reply to Carla: Thursday works. Don't pay INV-7. Thanks!", ["reply", "pay"]
    )
    assert reading.complete and [m.verb for m in reading.mandates] == ["reply"]
    assert prohibited("Don't pay INV-7.", ["pay"]) and not prohibited("Pay INV-7, don't email Ana.", ["pay"])
    partial = reading_of("Pay INV-7. Belay that.", ["pay"])
    assert [u.text for u in partial.unread] == ["Belay that", "Pay INV-7"] and partial.unread[
        0
    ].whole_sentence
    assert partial.mandates == () and [m.text for m in partial.uncertain] == ["Pay INV-7"]
    assert partial.shown() == {"read": ["pay · INV-7 (uncertain)"], "unread": ["Belay that"]}
    assert bears_on(partial.unread[0], ["email"], [])  # a sentence with no role bears on every call


NEGATIONS = ["Don't", "Do not", "Never", "Please don't", "Avoid", "Instead of", "Rather than"]
OBJECTS = ["invoice INV-7", "the Acme bill", "it", "the 420 EUR to Acme"]


@settings(max_examples=80, deadline=None)
@given(
    opening=st.sampled_from(
        ["", "Would you mind ", "Let's ", "Could you maybe ", "Tomorrow, ", "If you can, "]
    ),
    verb=st.sampled_from(["pay", "paying", "settle", "settling"]),
    thing=st.sampled_from(OBJECTS),
    tail=st.sampled_from(["", " when you get a chance", " next month", " later", "?", " asap"]),
    negated=st.booleans(),
    negation=st.sampled_from(NEGATIONS),
)
def test_over_generated_turns_a_payment_is_never_refused_unless_the_turn_says_not_to_or_is_read(
    opening, verb, thing, tail, negated, negation
):
    """The class, not the examples: a turn that mentions paying is either read as asking (the call
    is admitted), or says not to (refused), or is put to a human: never refused as unread."""
    text = f"{negation} {verb} {thing}." if negated else f"{opening}{verb} {thing}{tail}".strip()
    decision = _decide(text[0].upper() + text[1:])
    if negated:
        assert (decision.verdict, decision.reason) == ("block", "action_not_requested"), text
    else:
        assert decision.verdict in ("approve", "escalate"), (text, decision)
        if decision.verdict == "escalate":
            assert decision.reason == PARTLY_READ or decision.reason != "action_not_requested", text
