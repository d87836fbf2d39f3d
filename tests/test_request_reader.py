"""The request reader's grammar, as a property (issue 49): a sentence the grammar generates (a plain
imperative, its politeness forms, a list of imperatives) asks for its verb; the same imperative
inside any other construction (negation, contrast, deferral, condition, question, reported speech,
a first-person or modal clause, a gerund subject, "nobody"), or in a turn that later takes it back,
asks for nothing, alone or combined with other constructions and with other, accepted requests."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.supervisor.provenance.derivation import operands, stated_operations
from policies.supervisor.reading.coverage import TIMED_VERBS, reading_of
from policies.supervisor.reading.words import (
    DEFAULT_READER,
    GrammarReader,
    Mandate,
    RequestReader,
    affirmative_words,
    asks_for,
    asks_step,
    clauses_of,
    conditional_mandates,
    in_grammar,
    mandates,
    words_of,
)

VERBS = {
    "cancel": "cancelling",
    "delete": "deleting",
    "share": "sharing",
    "pay": "paying",
    "email": "emailing",
}
POLITE = [
    "",
    "please ",
    "kindly ",
    "just ",
    "can you ",
    "could you ",
    "would you ",
    "could you please ",
    "i'd like you to ",
    "i want you to ",
    "i need you to ",
    "please go ahead and ",
    "go ahead and ",
    "let's ",
    "when you get a chance, ",
    "if possible, ",
    "at your convenience, ",
]
DETERMINERS = ["the", "my", "our", "this", "that", "all my", "both of my"]
NOUNS = ["quarterly review", "standup", "invoice INV-7", "budget-2027.xlsx", "'Budget Review'", "water bills"]
TAILS = [
    "",
    " on 2026-11-24",
    " for me",
    " with Ana Silva",
    " to ana@corp.example",
    " from my calendar",
    " of 80 EUR",
    " please",
    " now",
    " at 10:00",
]
OTHERS = ["check my calendar", "move the standup to Friday", "summarise my inbox", "read #general"]

imperatives = st.builds(
    lambda verb, det, noun, tail: (verb, f"{det} {noun}{tail}"),
    st.sampled_from(sorted(VERBS)),
    st.sampled_from(DETERMINERS),
    st.sampled_from(NOUNS),
    st.sampled_from(TAILS),
).filter(  # a date in figures puts a verb of moving money off ("pay ... on 2026-11-24"): not now
    lambda imperative: (
        not (imperative[0] in TIMED_VERBS and " on 2026-" in imperative[1])
        # nor any verb's object after a file's name, which has no day ("delete budget.xlsx on 2026-11-24")
        and not re.search(r"\.[a-z]{2,5} on 2026-", imperative[1])
    )
)


def _sentence(polite: str, verb: str, obj: str, end: str) -> str:
    text = f"{polite}{verb} {obj}"
    return text[0].upper() + text[1:] + end


@settings(max_examples=400, deadline=None)
@given(
    polite=st.sampled_from(POLITE),
    imperative=imperatives,
    before=st.lists(st.sampled_from(OTHERS), max_size=2),
    after=st.lists(st.sampled_from(OTHERS), max_size=2),
    joiner=st.sampled_from([" and ", ", then ", ", and then ", ". ", ". Also ", "\n\n"]),
    end=st.sampled_from([".", "!", ""]),
)
def test_a_sentence_of_the_grammar_asks_for_its_verb(polite, imperative, before, after, joiner, end):
    verb, obj = imperative
    core = _sentence(polite, verb, obj, "")
    text = joiner.join([*before, core, *after]) + end
    assert asks_for(text, [verb]), text
    assert any(m.verb == verb for m in mandates(text)), text
    if polite in ("can you ", "could you ", "would you ", "could you please "):
        assert asks_for(f"{core}?", [verb]), core


@settings(max_examples=300, deadline=None)
@given(
    imperative=imperatives,
    second=st.sampled_from(sorted(VERBS)),
    form=st.sampled_from(["Would you mind ", "Do you mind ", "Please would you mind "]),
    tail=st.sampled_from(["?", "", " when you get a chance?", ", if possible?"]),
)
def test_a_polite_gerund_is_read_as_its_verb_and_so_is_the_gerund_joined_to_it(
    imperative, second, form, tail
):
    """ "Would you mind paying invoice INV-7 and emailing Ana?" asks to pay and to email (issue 54:
    the turn read, not refused): each gerund at a clause's head, in a sentence opened by the form,
    is the verb it inflects, whatever the policy declares (one of the declared verbs, or none)."""
    verb, obj = imperative
    text = f"{form}{VERBS[verb]} {obj} and {VERBS[second]} it{tail}"
    reading = reading_of(text, sorted(VERBS))
    if verb in ("pay", "transfer") and second in ("cancel", "remove", "delete", "revoke", "stop"):
        # a payment undone in its own sentence ("... paying it and cancelling it"): asked
        assert verb in [m.verb for m in reading.uncertain], text
        return
    assert reading.complete, (text, reading.unread)
    assert [m.verb for m in reading.mandates] == [verb, second], text
    # a gerund opening no such form is a subject, as before: "Paying it would be a mistake"
    assert not mandates(f"{VERBS[verb].capitalize()} {obj} would be a mistake.")


#: Constructions around an imperative ({c}: "cancel the review", {C}: capitalised, {g}: "cancelling
#: the review", {v}: the verb) that ask for nothing.
WRAPPERS = [
    # negation
    "Don't {c}.",
    "Do not {c}.",
    "Never {c}.",
    "Please don't {c}.",
    "{C}? No.",
    "Make sure nobody tries to {c}.",
    # contrast
    "Instead of {g}, move it.",
    "Rather than {c}, move it.",
    "Move it rather than {g}.",
    # deferral
    "Hold off on {g}.",
    "Avoid {g}.",
    "Before you {c}, ask me.",
    "After the call, {c}.",
    "{C} later.",
    "Wait until Friday, then {c}.",
    "{C} once Eve confirms.",
    "{C} when Eve confirms.",
    "Tell me when you {c}.",
    "Tell me when {g} is done.",
    # condition
    "If Eve agrees, {c}.",
    "Unless Eve objects, {c}.",
    "{C} if Eve agrees.",
    "Tell me whether I should {c}.",
    # questions, with and without "?"
    "{C}?",
    "Should I {c}?",
    "Should I {c}",
    "Can I {c}",
    "Is it wise to {c}",
    "What if I {c}?",
    "Why not {c}?",
    "Would it be ok to {c}",
    # reported speech
    "Eve wrote: {c}. Is that legit?",
    "Eve wrote: {c}.",
    "Eve says {c}.",
    "Eve said to {c}.",
    'Eve wrote "{c}". Is that legit?',
    '"{C}," Eve wrote.',
    "{C}, Eve asked.",
    "Eve wants me to {c}.",
    "Eve asked me to {c}.",
    "Bob told me to {c}.",
    "Because Eve wants me to, {c}.",
    "{C} because Eve wants it.",
    # first person, modal, future
    "I will {c} myself.",
    "I'll {c} myself.",
    "We should {c}.",
    "We might {c}.",
    "I could {c}.",
    # a gerund subject, nobody
    "{G} would be a mistake.",
    "{G} is not needed.",
    "Nobody should {c}.",
    "No one may {c}.",
    # a later correction or retraction
    "{C}.\n\nActually, don't.",
    "{C}.\n\nNever mind.",
    "{C}. Scratch that.",
    "{C}.\n\nIgnore that.",
    "{C}.\n\nDon't {c}.",
    "{C}. Wait, no.",
    "{C}.\n\nForget it.",
]


def _wrap(wrapper: str, verb: str, obj: str) -> str:
    c, g = f"{verb} {obj}", f"{VERBS[verb]} {obj}"
    return wrapper.format(c=c, C=c[0].upper() + c[1:], g=g, G=g[0].upper() + g[1:], v=verb)


@settings(max_examples=600, deadline=None)
@given(
    wrapper=st.sampled_from(WRAPPERS),
    second=st.one_of(st.none(), st.sampled_from(WRAPPERS)),
    imperative=imperatives,
    others=st.lists(st.sampled_from(OTHERS), max_size=2),
    at_end=st.booleans(),
)
def test_an_imperative_inside_another_construction_asks_for_nothing(
    wrapper, second, imperative, others, at_end
):
    """Alone, nested in a second construction, or beside other requests the grammar admits."""
    verb, obj = imperative
    text = _wrap(wrapper, verb, obj)
    if second is not None:  # a construction around the construction, where it first writes the request
        inner = text.rstrip(".").lower()
        text = re.sub(
            re.escape(f"{verb} {obj}"), lambda _m: inner, _wrap(second, verb, obj), count=1, flags=re.I
        )
    plain = ". ".join(o[0].upper() + o[1:] for o in others)
    text = f"{text} {plain}." if at_end and plain else f"{plain}. {text}" if plain else text
    assert not asks_for(text, [verb]), text
    assert not asks_step(text, [verb], words_of(obj)[-1:]), text
    assert not any(m.verb == verb for m in mandates(text)), text


def test_in_grammar_is_the_one_test_a_clause_passes():
    """The clause-level test the reader admits by, on its own."""
    assert in_grammar(words_of("please cancel the quarterly review for me"))
    assert in_grammar(words_of("pay bob lee back the 210 eur dinner minus the 70 eur i already sent him"))
    for clause in [
        "don't cancel it",
        "i will cancel it",
        "cancelling it would be a mistake",
        "should i cancel it",
        "nobody should cancel it",
        "eve wrote cancel it",
        "cancel it later",
        "cancel it when eve says so",
        "instead of cancelling it",
        "hold off on cancelling it",
    ]:
        assert not in_grammar(words_of(clause)), clause
    # a verb of telling ends in its message's content, which is not read
    assert in_grammar(words_of("tell ana in a dm whether the deploy is done"))
    assert [m.verb for m in mandates("DM my manager that I'll be out tomorrow.")] == ["dm"]


def test_a_colon_introduces_words_read_as_nothing_unless_it_follows_a_reference():
    assert [m.verb for m in mandates("Reply to Carla Diaz: cancel the Review.")] == ["reply"]
    assert [m.verb for m in mandates("Ticket T-1: refund order ORD-1001 and email the customer.")] == [
        "refund",
        "email",
    ]
    assert not asks_for("Eve: cancel the Review.", ["cancel"])


def test_clauses_keep_their_heads_and_asks_at_agrees_with_the_mandates():
    [check, cancel] = [
        c for c in clauses_of("Check my calendar and cancel the Review.") if c.head is not None
    ]
    assert check.asks_at(0) and cancel.asks_at(0) and cancel.asks_at(2)
    assert not any(c.asks_at(0) for c in clauses_of("Don't cancel the Review."))


def test_names_are_read_in_the_objects_of_mandates_only():
    assert affirmative_words("Send my passport number to the hotel.", ["passport"])
    assert not affirmative_words("Don't send my passport number anywhere.", ["passport"])
    assert not affirmative_words("Eve wants my passport number.", ["passport"])


class _Model:
    """A stand-in for a model-based reader: it is given the user's turn and returns mandates."""

    def mandates(self, request: str) -> tuple[Mandate, ...]:
        if "budget" not in request.casefold():
            return ()
        return (Mandate("cancel", ("cancel", "the", "budget", "review"), request, request),)


def test_the_reader_is_an_interface_every_rule_reads_through():
    model = _Model()
    assert isinstance(DEFAULT_READER, GrammarReader) and isinstance(model, RequestReader)
    turn = "Instead of cancelling the Budget Review, move it."
    assert not asks_for(turn, ["cancel"]) and asks_for(turn, ["cancel"], reader=model)
    assert asks_step(turn, ["cancel"], ["review"], reader=model)
    assert affirmative_words(turn, ["budget"], reader=model)


@settings(max_examples=100, deadline=None)
@given(a=st.integers(100, 9_999), b=st.integers(100, 9_999))
def test_an_operation_word_in_another_sense_states_no_operation(a, b):
    """Derived values only from an operation's construct in a sentence the reader admits."""
    stated = {
        f"Pay the sum of {a} EUR and {b} EUR.": ["sum"],
        "Pay the total of my water bills.": ["sum"],
        "Pay half of the dinner bill.": ["rate"],
        f"Pay Bob {a} EUR minus {b} EUR.": ["difference"],
        "Pay Acme what is left of invoice INV-9 after my deposit.": ["difference"],
        "Pay the difference between the two bills.": ["difference"],
        "Pay 10% of the dinner.": ["rate"],
    }
    for request, ops in stated.items():
        assert stated_operations(request) == ops, request
    for request in [
        "Book the double room and pay the bill.",
        "Pay the bill, not the total of all bills.",
        "Pay the bill. Leave the rest for later.",
        "Pay the third bill.",
        "Don't pay the total of my bills.",
        "Should I pay half of the dinner?",
        "Eve wrote: pay the total of my bills.",
        "Pay the bill.\n\nActually, pay the sum of both.",
    ]:
        assert stated_operations(request) == [], request
    assert {a * 100, b * 100} <= operands(f"Pay Bob {a} EUR minus {b} EUR.")


#: Checkable conditions (issue 49): "If <it | a name> is rated <comparison> N, <imperative>".
CONDITIONS = [
    "If it is rated higher than 4",
    "If it's rated above 4.5",
    "If Casa Azul is rated at least 4 stars",
    "If it gets rated more than 3",
]


@settings(max_examples=300, deadline=None)
@given(
    condition=st.sampled_from(CONDITIONS),
    polite=st.sampled_from(POLITE),
    imperative=imperatives,
    wrapper=st.one_of(st.none(), st.sampled_from(WRAPPERS)),
)
def test_a_checkable_condition_gives_a_conditional_mandate_only_around_a_sentence_of_the_grammar(
    condition, polite, imperative, wrapper
):
    """The rest of a conditional sentence is read by the same grammar: a plain imperative gives a
    mandate that carries the condition, and is never a mandate by itself; any other construction
    after the condition gives none."""
    verb, obj = imperative
    rest = f"{polite}{verb} {obj}" if wrapper is None else _wrap(wrapper, verb, obj).rstrip(".")
    text = f"{condition}, {rest[0].lower()}{rest[1:]}."
    found = [m for m in conditional_mandates(text) if m.verb == verb]
    assert not any(m.verb == verb for m in mandates(text)), text  # never a mandate by itself
    if wrapper is None:
        assert found and all(m.condition is not None and m.condition.field == "rating" for m in found), text
        assert all(in_grammar(m.words) for m in found), text  # what it accepts is in the grammar
    else:
        assert not found, text


@pytest.mark.parametrize(
    "text",
    [
        "If Eve agrees, book it.",
        "If the price is lower than 100, book it.",
        "If it is rated higher than 4, don't book it.",
        "If it is rated higher than 4, book it.\n\nNever mind.",
        "If it is rated higher than 4, book it?",
        "Book it if it is rated higher than 4.",
        "If Eve says it is rated higher than 4, book it.",
    ],
)
def test_only_a_checkable_condition_before_a_plain_imperative_gives_a_conditional_mandate(text):
    assert not conditional_mandates(text) and not mandates(text), text


@settings(max_examples=200, deadline=None)
@given(
    polite=st.sampled_from(POLITE),
    imperative=imperatives,
    value=st.sampled_from(["what I usually pay them", "what we paid at Trattoria Roma", "what I owe Bob"]),
    wrapper=st.one_of(st.none(), st.sampled_from(WRAPPERS)),
)
def test_a_value_named_by_what_the_user_pays_is_content_and_changes_no_construction(
    polite, imperative, value, wrapper
):
    """ "for what I usually pay them" is a noun phrase of the grammar: the imperative around it asks,
    and the same imperative inside any other construction still asks for nothing."""
    verb, obj = imperative
    plain = f"{verb} {obj} for {value}"
    text = (
        _sentence(polite, verb, f"{obj} for {value}", ".") if wrapper is None else _wrap(wrapper, verb, obj)
    )
    if wrapper is None:
        assert asks_for(text, [verb]) and any(in_grammar(m.words) for m in mandates(text)), text
    else:
        text = text.replace(f"{verb} {obj}", plain, 1)
        assert not asks_for(text, [verb]), text
