"""A mandate the turn leaves uncertain only for words the call itself accounts for.

The reader reads the turn once, without the records or the calls: "Remove usr-1044 from staging"
is uncertain to it, for "staging" plays no role its grammar knows. Reviewing one call, the review
knows more: ``revoke_access(user_id="usr-1044", environment="staging")`` takes "staging" as a value,
and "Mark S-2043 absent for 9 December 2026" is what ``mark_absent`` is named for. Where every word
the reading could not place beside a mandate is one of

- a word of the tool's name or of one of its arguments' names (the policy's author wrote them:
  "absent", "repair", "access", "late fee", "last day"),
- a word of one of the call's values ("staging", "viewer", "duplicate"), or
- a word of a record a trusted listing returned whose own id (its ``id``, else its first field) is
  one of the call's values, its fields' names too (the tenant's "rent", the invoice's "draft"),

with only the closed connecting words of :data:`~policies.supervisor.reading.coverage.CONNECTING`
between them, and the turn read again with those words read leaves the mandate standing (nothing
else in it uncertain), the mandate stands for that call, and only for it: the call is then reviewed
as every other (where each value comes from, the records it names, the amounts it states). A word
that bears on whether the call is made at all (:data:`~policies.supervisor.reading.coverage.
BEARING`: a negation, an exclusion, a time, a hedge, a condition) never counts as accounted for,
whatever a value holds: a value the agent chose cannot speak for the user.

Four reasons of the reader's are weighed so: words beside a mandate not read; a time or a
condition the call does not keep, where the call takes it ("Terminate E-105 with a last day of
2026-12-31": ``last_day``); a part of the record taken, where the call's figure is that share of
its own record's ("Refund half of ORD-50012"); a record named only through another, where what the
mandate names is what the call makes for it ("a credit note for INV-2026-0143"). Every other reason
stands, and so does every reason for a model's reader (asked once per review: the turn is not read
again for it)."""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

from policies.json_safety import leaves
from policies.supervisor.provenance.context import ReviewContext, TurnReading
from policies.supervisor.provenance.derivation import TAKEN_OFF, derive, terms_of
from policies.supervisor.reading.amounts import COUNTING_WORDS
from policies.supervisor.reading.coverage import (
    CONNECTING,
    KEPT_DAY,
    KEPT_FIELD,
    KEPT_TEXT,
    RECORD_DAY,
    all_accounted,
    naming_words,
    read_turn,
)
from policies.supervisor.reading.identifiers import days_and_times
from policies.supervisor.reading.values import mappings, parsed
from policies.supervisor.reading.words import Mandate, a_day_written, matching, singular, words_of
from policies.supervisor.rules.kinds import Requested
from policies.tools import is_number

__all__ = ["accounted_for_the_call", "shares_taken", "units_counted"]

#: The reasons of the reader's that words a call accounts for may answer: the rest never.
_ACCOUNTABLE = (
    "beside words not read (",
    "at a time or on a condition the call does not keep (",
    "part of it taken (",
    "named only through another record (",
    "a later sentence not read (",
    "for later (",  # "on 14 January 2027" where the call keeps that day
    "beside a name not read (",  # "to 15 Park View, Leeds" where the call keeps that address
)


def accounted_for_the_call(
    name: str, args: Mapping[str, Any], asked: Requested | None, context: ReviewContext
) -> ReviewContext:
    """``context`` with the turn read for this call: each mandate asking for it that the reading
    leaves uncertain only for words the call accounts for (see the module) standing, with the
    unread spans of its sentence those words make up read. The turn is read again with the call's
    words (:func:`~policies.supervisor.reading.coverage.read_turn`'s ``accounted``): a mandate
    stands only where that reading leaves nothing else uncertain in it. The same context where
    none is (and for a model's reader, which is asked once per review)."""
    reading = context.read.reading
    if asked is None or reading is None or context.reader is not None or context.known is None:
        return context
    why = {u.text: u.why for u in reading.unread if u.uncertain_mandate}
    apart = {u.text for u in reading.unread if not u.uncertain_mandate}
    weighed = [m for m in reading.uncertain if why.get(m.text, "").startswith(_ACCOUNTABLE)]
    if not weighed:
        return context
    items = _items_of_its_listing(args, context) | _ends_of_its_values(context.request, args)
    asking = [
        m
        for m in weighed
        if not _written_twice(m, why[m.text], apart, items)
        and matching([m], asked.keywords, asked.verbs, asked.objects)
    ]
    if not asking:
        return context
    known = frozenset(_the_calls_words(name, args, context) | items)
    again = read_turn(context.request, context.known, None, known, _names_no_record_holds(context))
    standing = {(m.verb, m.text) for m in again.mandates}
    chosen = [m for m in asking if (m.verb, m.text) in standing]
    if not chosen:
        return context
    sentences = {m.sentence for m in chosen}
    spans = {
        u.text
        for u in reading.unread
        if not u.uncertain_mandate and u.sentence in sentences and all_accounted(u.text, known)
    }
    # what the turn read again with the call's words reads apart (a reason: "..., Sofia is travelling")
    still = {u.text for u in again.unread}
    apart_read = {u.text for u in reading.unread if not u.uncertain_mandate and u.text not in still}
    promoted = reading.standing_with(chosen, spans, context.request, apart_read - spans)
    return replace(
        context, read_for_the_call=TurnReading(context.request, promoted.standing, context.reader, promoted)
    )


def _written_twice(mandate: Mandate, why: str, apart: Collection[str], items: Collection[str] = ()) -> bool:
    """Do the words the reader could not place (in ``why``; a clause of their own where one of
    ``apart``) write again a word the mandate writes apart from them ("Restart checkout and checkout"),
    or are they one word in a clause of its own ("Restart checkout and rebuild": a second record or
    a verb of its own) that is no item of the call's listing (``items``: "Unlock dkim and smartinez",
    both usernames of the trusted employees)? The same value twice is a slip for another one, or
    not: the call accounts for neither reading."""
    unplaced = why.partition("('")[2].rpartition("')")[0]
    said = set(words_of(unplaced)) - CONNECTING
    words = Counter(words_of(" ".join([mandate.text, *mandate.coordinated])))
    if unplaced not in apart:  # the mandate's own words: those it writes besides them
        words -= Counter(words_of(unplaced))
    elif len(said) < 2 and not said <= set(items):
        return True  # "Restart checkout and rebuild": a lone word may be a second record or a verb
    return bool(said & set(words))


#: A word after a comma, the two words before the comma with it ("Oak Row, Harrogate").
_AFTER_A_COMMA = re.compile(r"(?<![\w'-])([\w'-]{1,40}[ \t]+[\w'-]{1,40}),[ \t]*([A-Za-z][\w'-]{0,40})\b")


def _ends_of_its_values(request: str, args: Mapping[str, Any]) -> set[str]:
    """The lone words the turn writes after a comma where one of the call's text values holds them
    as the turn writes them, with the two words before the comma ("... at 30 Oak Row, Harrogate"
    where the message or the venue holds "Oak Row, Harrogate"): the end of a value the call keeps
    whole (a town after its street), not a second record nor a verb of its own."""
    texts = [v.casefold() for v in leaves(args) if isinstance(v, str)]
    return {
        m.group(2).casefold()
        for m in _AFTER_A_COMMA.finditer(request)
        if any(f"{m.group(1)}, {m.group(2)}".casefold() in t for t in texts)
    }


def _items_of_its_listing(args: Mapping[str, Any], context: ReviewContext) -> set[str]:
    """The one-word values a trusted listing holds under the field by which one of its records holds
    a value of the call (the argument's own name, or the record's ``id``): the names of the items
    a list beside the call's may write ("Unlock dkim and smartinez": ``username`` of each employee),
    the call's own value among them. Another item names another record, never a verb."""
    found: set[str] = set()
    for done in context.calls:
        if done.get("tool") not in context.trusted:
            continue
        records = [r for _path, r in mappings(parsed(done.get("observation")))]
        for arg, value in args.items():
            if not isinstance(value, str) or not value.strip():
                continue
            for field in (arg, "id"):
                held = [h for r in records if isinstance(h := r.get(field), str)]
                if any(h.strip().casefold() == value.strip().casefold() for h in held):
                    found |= {h.strip().casefold() for h in held if len(words_of(h)) == 1}
    return found


def _names_no_record_holds(context: ReviewContext) -> frozenset[str]:
    """The names the turn writes (a word with a capital after the first, no digit: "she moved to
    Manchester", "the AC is broken") that no result of the run holds, whatever tool returned it: a
    statement that only gives a reason may name one, for it names no record the call could be
    about (a name a result holds, trusted or not, is weighed as a record's)."""
    written = naming_words(f"- {context.request}")
    names = {w.removesuffix("'s") for w in written if not any(c.isdigit() for c in w)}
    if not names:
        return frozenset()
    held = {
        w.removesuffix("'s")
        for done in context.calls
        for leaf in leaves(parsed(done.get("observation")))
        if isinstance(leaf, str)
        for w in words_of(leaf)
    }
    return frozenset(names - held)


def _names_words(name: str, args: Mapping[str, Any]) -> set[str]:
    """The words of the tool's name and of its arguments' names, case folded."""
    return {w for n in (name, *args) for w in re.split(r"[_\W]+", n.casefold()) if w}


def _the_calls_words(name: str, args: Mapping[str, Any], context: ReviewContext) -> set[str]:
    """What the call accounts for: its names' words, its values' words (a day or a time as the turn
    writes it: "Dec 15, 2026 at 8:00 am"), and the words (and fields' names) of the records trusted
    listings returned whose own id is one of its values."""
    values = [leaf for v in args.values() for leaf in leaves(v) if not isinstance(leaf, bool)]
    known = _names_words(name, args) | {w for v in values for w in _words(str(v))}
    wanted_days = {v for v in values if isinstance(v, str)}  # "Dec 15, 2026 at 8:00 am" for its values
    known |= {
        w for m, day in days_and_times(context.request) if day in wanted_days for w in _words(m.group(0))
    }
    known |= {f"{KEPT_DAY}{v.strip()}" for v in wanted_days if _ISO_DAY.fullmatch(v.strip())}
    # each text value of several words, by its words (a place a setting mandate writes whole)
    known |= {f"{KEPT_TEXT}{' '.join(words)}" for v in wanted_days if len(words := words_of(v)) > 1}
    records = _the_calls_own_records(values, context)  # the record's own id, not one it cites
    for record in records:
        texts = [(str(k), v) for k, v in record.items() if isinstance(v, str | int | float)]
        # a field the call keeps at its record's value, which the turn may say stays as it is
        known |= {
            f"{KEPT_FIELD}{' '.join(_words(arg.replace('_', ' ')))} {value.strip()}"
            for arg, value in args.items()
            if isinstance(value, str) and value.strip() and str(record.get(arg, "")).strip() == value.strip()
        }
        known |= {w for k, v in texts for w in (*_words(k.replace("_", " ")), *_words(str(v)))}
        # the day it is on, which the turn may name it by ("Cancel Oskar's lesson on the 15th"),
        # where the call sets no day of its own (a day it sets is when: "Terminate LS-5006 on 14
        # January" for its end date still asks which year)
        if any(_ISO_DAY.match(v) for v in wanted_days):
            continue
        for day in {v[:10] for _k, v in texts if isinstance(v, str) and _ISO_DAY.match(v)}:
            known |= {f"{RECORD_DAY}{day}", *a_day_written(day)}
    return (
        known
        | shares_taken(values, records, context.request)
        | _what_was_taken(values, records, context.request)
        | units_counted(args, context, records)
        | days_spanned(args, context, records)
    )


#: A span of days the turn moves a date by ("by two days", "by a week", "by 3 nights").
_A_SPAN = re.compile(
    r"(?i)(?<![\w-])by\s+(?P<count>a|an|one|\d{1,3}|" + "|".join(COUNTING_WORDS) + r")\s+"
    r"(?P<unit>days?|nights?|weeks?|fortnight)(?![\w-])"
)
_DAYS_IN = {"day": 1, "night": 1, "week": 7, "fortnight": 14}
#: A day as a record or a call keeps it.
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def days_spanned(
    args: Mapping[str, Any], context: ReviewContext, records: Sequence[Mapping[str, Any]] | None = None
) -> set[str]:
    """The words of a span the turn moves a date by ("Extend RES-2055 by two days, to 2026-12-20")
    where a day the call sets is that span after the day its own record keeps under the same name
    (its return date 2026-12-18; else the record's one day: a bill's "due" for the call's "date"),
    counted back where the turn shortens ("Shorten ... by two days"): the span says what the day
    says. A span that does not land on the call's day ("by two days, to 2026-12-25"), one counted
    from another day of the record (its pickup), and a turn that says both ways are not accounted
    for. ``records``: the call's own records, where the caller has them already."""
    spans = list(_A_SPAN.finditer(context.request))
    set_days = {
        arg: v.strip() for arg, v in args.items() if isinstance(v, str) and _ISO_DAY.fullmatch(v.strip())
    }
    back = bool(_SHORTENING.search(context.request))
    if not spans or not set_days or (back and _LENGTHENING.search(context.request)):
        return set()
    own = (
        records
        if records is not None
        else _the_calls_own_records([leaf for v in args.values() for leaf in leaves(v)], context)
    )
    starts: list[tuple[str, str]] = []
    for arg, end in set_days.items():
        for record in own:
            kept = {k: v for k, v in record.items() if isinstance(v, str) and _ISO_DAY.fullmatch(v.strip())}
            start = kept.get(arg) or (next(iter(kept.values())) if len(kept) == 1 else None)
            if start is not None:
                starts.append((start.strip(), end))
    found: set[str] = set()
    for m in spans:
        count = m.group("count").casefold()
        n = 1 if count in ("a", "an", "one") else int(count) if count.isdigit() else COUNTING_WORDS[count]
        days = n * _DAYS_IN[singular(m.group("unit").casefold())] * (-1 if back else 1)
        if any(_days_between(start, end) == days for start, end in starts):
            found |= set(words_of(m.group(0)))
    return found


#: Words by which a turn moves a day earlier, and later.
_SHORTENING = re.compile(r"(?i)\b(?:shorten\w*|cut\w*|reduc\w*|earlier|forward|sooner|bring\w*\s+back)\b")
_LENGTHENING = re.compile(r"(?i)\b(?:extend\w*|lengthen\w*|later|postpon\w*|push\w*|delay\w*|defer\w*)\b")


def _days_between(start: str, end: str) -> int | None:
    """How many days after ``start`` ``end`` is (both ``YYYY-MM-DD``); None where one is no day."""
    try:
        return (dt.date.fromisoformat(end) - dt.date.fromisoformat(start)).days
    except ValueError:
        return None


#: Arguments that count whatever the turn counts by ("quantity": "3 pens" of an insulin pen).
_A_COUNT_OF_ANY_UNIT = re.compile(r"(?i)^(?:quantity|qty|count|number|units?|items?)$")


def units_counted(
    args: Mapping[str, Any], context: ReviewContext, records: Sequence[Mapping[str, Any]] | None = None
) -> set[str]:
    """The word right after the figure of an argument that counts any unit (:data:`_A_COUNT_OF_ANY_UNIT`:
    ``quantity=3`` for "3 pens"), as the turn writes it, where the call's own record holds that
    unit (its drug is an "Insulin glargine pen"): what the count counts. A unit the record does not
    hold ("50 mg", "2 months", "5 vans") may count another thing: not accounted for. ``records``:
    the call's own records, where the caller has them already."""
    counted = [
        (arg, value)
        for arg, value in args.items()
        if isinstance(value, int) and not isinstance(value, bool) and _A_COUNT_OF_ANY_UNIT.match(arg)
    ]
    if not counted:
        return set()
    held = {  # a word no figure stands before: a thing the record is, not a measure of it ("10 mg")
        singular(w)
        for record in (
            records
            if records is not None
            else _the_calls_own_records([leaf for v in args.values() for leaf in leaves(v)], context)
        )
        for v in record.values()
        if isinstance(v, str)
        for before, w in itertools.pairwise(["", *words_of(v)])
        if not any(ch.isdigit() for ch in before)
    }
    found: set[str] = set()
    for _arg, value in counted:
        for m in re.finditer(rf"(?<![\w.,-]){value}[ \t]+([^\W\d_]+)", context.request):
            if singular(m.group(1).casefold()) in held:
                found.add(m.group(1).casefold())
    return found


def _the_calls_own_records(values: Sequence[Any], context: ReviewContext) -> list[Mapping[str, Any]]:
    """The records trusted listings returned whose own id (their ``id``, else their first field) is
    one of the call's values (``values``: each leaf of its arguments)."""
    wanted = {str(v).strip().casefold() for v in values if isinstance(v, str) and v.strip()}
    return [
        record
        for done in context.calls
        if done.get("tool") in context.trusted
        for _path, record in mappings(parsed(done.get("observation")))
        if isinstance(own := record.get("id", next(iter(record.values()), None)), str)
        and own.strip().casefold() in wanted
    ]


def _what_was_taken(values: Sequence[Any], records: Sequence[Mapping[str, Any]], request: str) -> set[str]:
    """The words that say what a figure the turn takes off a record's was ("after the 750.00
    already paid", "after the 30.00 the family paid"), where one of the call's figures is what is
    left of its own record's figure after it: they say what the figure was, no more."""
    held = terms_of([("record", " | ".join(str(v) for r in records for v in r.values()))])
    found: set[str] = set()
    for m in TAKEN_OFF.finditer(request):
        taken = terms_of([("request", m.group("figure"))])
        if not taken or not held:
            continue
        if any(
            is_number(value)
            and (d := derive(value, [*taken, *held], ["difference"])) is not None
            and taken[0] in d.terms
            for value in values
        ):
            found |= set(_words(m.group("said")))
    return found


def shares_taken(values: Sequence[Any], records: Sequence[Mapping[str, Any]], request: str) -> set[str]:
    """The words of a share the turn states ("half", "a third") by which one of the call's figures
    is that share of a figure of its own records ("Refund half of ORD-50012": 44.95 of 89.90)."""
    said = [t for t in terms_of([("request", request)]) if t.percent and t.word]
    if not said:
        return set()
    held = terms_of([("record", " | ".join(str(v) for r in records for v in r.values()))])
    return {
        t.word
        for value in values
        if is_number(value)
        for t in said
        if (found := derive(value, [t, *held], ["rate"], signs=("*",))) is not None and t in found.terms
    }


def _words(text: str) -> list[str]:
    return [w.removesuffix("'s").removesuffix("’s") for w in words_of(text)]
