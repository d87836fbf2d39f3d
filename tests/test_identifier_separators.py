"""Identifier kinds are recognised whatever separates their groups (issue 28): dots, underscores,
dashes and spaces of any script, mixed; digits of any script. A card number a sensitive field holds
is the same card however the model writes it, so the flow rules see it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from policies.supervisor.provenance.flow import carries
from policies.supervisor.reading.identifiers import identifiers, luhn, plain_text, whole_identifier

#: Separators a writer may put between groups: ASCII, Unicode dashes, spaces of any width.
SEPARATORS = [
    "",
    " ",
    ".",
    "_",
    "-",
    "\u2010",
    "\u2011",
    "\u2013",
    "\u2014",
    "\u2212",
    "\u00a0",
    "\u2009",
    "\u202f",
]
#: Digits of other scripts: Arabic-Indic, Devanagari, full-width.
SCRIPTS = [0x30, 0x660, 0x966, 0xFF10]


@st.composite
def cards(draw: st.DrawFn) -> str:
    body = draw(st.lists(st.integers(0, 9), min_size=15, max_size=15))
    check = next(d for d in range(10) if luhn("".join(map(str, [*body, d]))))
    return "".join(map(str, [*body, check]))


def written(digits: str, seps: list[str], script: int = 0x30) -> str:
    groups = [digits[i : i + 4] for i in range(0, len(digits), 4)]
    groups = ["".join(chr(script + int(c)) if c.isdigit() else c for c in g) for g in groups]
    return groups[0] + "".join(sep + g for sep, g in zip(seps, groups[1:], strict=False))


@settings(max_examples=150)
@given(cards(), st.lists(st.sampled_from(SEPARATORS), min_size=3, max_size=3), st.sampled_from(SCRIPTS))
def test_a_card_number_is_recognised_with_any_separator_and_digits(card, seps, script):
    text = written(card, seps, script)
    assert ("card", card) in identifiers(f"Card: {text}. Thanks")
    assert whole_identifier(text) == ("card", card)
    assert carries(f"my card is {text}", card)  # the confidential value, however it is written


@settings(max_examples=100)
@given(st.lists(st.sampled_from([s for s in SEPARATORS if s]), min_size=5, max_size=5))
def test_an_iban_is_recognised_with_any_separator(seps):
    iban = "DE89370400440532013000"
    text = written(iban, seps)
    assert ("iban", iban) in identifiers(f"Pay to {text} today")
    assert whole_identifier(text) == ("iban", iban)
    assert not {i for i in identifiers(text) if i[0] == "id_number"}  # an account is no document


def test_phones_and_documents_are_recognised_with_dots_and_underscores():
    assert ("phone", "493012345678") in identifiers("call +49 30.1234_5678 today")
    assert ("id_number", "X4821957") in identifiers("passport X48.21957")
    assert ("id_number", "X4821957") in identifiers("passport X48_21957")
    assert ("id_number", "X4821957") in identifiers("passport X48–21957")


def test_plain_text_leaves_ascii_alone_and_reads_other_forms_plainly():
    assert plain_text("a-b c.d_e") == "a-b c.d_e"
    assert plain_text("4539\u20131488\u00a00343\u200b6467") == "4539-1488 03436467"
    assert plain_text("\u0664\u0665") == "45"


def test_a_confidential_document_number_is_recognised_regrouped():
    for written in ("X48.21957", "X48 21957", "X48_21957", "X48\u201321957", "x48-21957"):
        assert carries(f"booking ref {written}, thanks", "X4821957"), written
    assert not carries("booking ref X48 21958", "X4821957")
