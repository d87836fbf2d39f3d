"""Hypothesis strategies over the probe's attack shapes (:mod:`apps.probe.shapes`): the tests
and ``agent-patterns probe`` draw from the same pieces, the probe with a seeded ``Random``, the
tests with Hypothesis (which shrinks a failure to its smallest case)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from apps.probe.shapes import (
    COMBINERS,
    CONSTRUCTIONS,
    RESULT_SHAPES,
    SHARED_PHRASES,
    SHORT_CODES,
    amount_spellings,
    aside_request,
    combined,
    in_sentence,
    just_under,
    non_imperative,
    own_record_plant,
    spellings,
    subject_shapes,
    with_shared_value,
)

CONSTRUCTION_NAMES = sorted(CONSTRUCTIONS)


@st.composite
def non_imperative_requests(draw: Any, steps: list[tuple[str, str]]) -> tuple[str, str]:
    """A request around one of ``steps`` (an accepted imperative's verb and object) that asks for
    nothing: one construction, or two combined (the second around any step). Returns (the
    construction's label, the text)."""
    verb, obj = draw(st.sampled_from(steps))
    first = draw(st.sampled_from(CONSTRUCTION_NAMES))
    text = non_imperative(first, draw(st.integers(0, 7)), verb, obj)
    if not draw(st.integers(0, 3)):  # a quarter are combinations
        other_verb, other_obj = draw(st.sampled_from(steps))
        second = draw(st.sampled_from(CONSTRUCTION_NAMES))
        more = non_imperative(second, draw(st.integers(0, 7)), other_verb, other_obj)
        return f"{first}+{second}", combined(text, more, draw(st.integers(0, len(COMBINERS) - 1)))
    return first, text


def own_record_plants(record: dict[str, Any], fields: list[str], verb: str, other: str) -> Any:
    """The subject's own ``record`` with a plant in one of its free-text ``fields``."""
    return st.builds(
        own_record_plant,
        st.just(record),
        st.sampled_from(fields),
        st.just(verb),
        st.just(other),
        st.integers(0, 3),
    )


result_shapes = st.sampled_from(RESULT_SHAPES)


def subjects(key: str, value: Any, other: Any) -> Any:
    """A subject holding ``value`` under ``key``, in each of the shapes deployments write."""
    return st.sampled_from(subject_shapes(key, value, other))


def spelled(ident: str) -> Any:
    """``ident`` spelled otherwise (``"INV-8."``, ``" inv-8 "``)."""
    return st.sampled_from(spellings(ident))


def string_amounts(value: float) -> Any:
    """``value`` as a text a payment API or a person writes (``"900.00"``, ``"$900"``)."""
    return st.sampled_from(amount_spellings(value))


def under(limit: float) -> Any:
    """Amounts at and just under ``limit``."""
    return st.sampled_from(just_under(limit))


short_codes = st.sampled_from(SHORT_CODES)


def sentences_with(value: str) -> Any:
    """``value`` (a link, an address) inside a sentence."""
    return st.builds(in_sentence, st.just(value), st.integers(0, 3))


@st.composite
def aside_requests(draw: Any, mandate: str, verbs: list[str], obj: str) -> tuple[str, str]:
    """A request whose one accepted imperative is ``mandate``, beside a sentence that names ``obj``
    (another record) in a construction that asks for nothing (one of :data:`CONSTRUCTIONS` around
    one of ``verbs``), before or after it, combined as :data:`COMBINERS` combine. Returns (the
    construction's label, the text): the record ``obj`` names must supply nothing (issue 49:
    naming reads the mandates only)."""
    construction = draw(st.sampled_from(CONSTRUCTION_NAMES))
    index, verb = draw(st.integers(0, 7)), draw(st.sampled_from(verbs))
    how, before = draw(st.integers(0, len(COMBINERS) - 1)), draw(st.booleans())
    return construction, aside_request(mandate, construction, index, verb, obj, how, before)


def shared_value_requests(request: str, clause: str, values: list[str]) -> Any:
    """``request`` with one of ``values`` (each shared by every record of a listing) written after
    ``clause``, each way of :data:`SHARED_PHRASES`."""
    return st.builds(
        with_shared_value,
        st.just(request),
        st.just(clause),
        st.sampled_from(values),
        st.integers(0, len(SHARED_PHRASES) - 1),
    )
