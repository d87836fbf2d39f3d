"""Bindings: whether a call's values stand together as the user's turn binds them.

Each value of a call may be admitted on its own (the turn writes it, a trusted record holds it) and
the call still be another than the one asked for: the amount of "Move 500 from savings to checking"
with the accounts swapped, Spotify's payee with Bob Lee's IBAN, the bill B-40 paid to Bob Lee, "5.000"
taken as five, a password not as the user wrote it, an attendee the turn does not name, a reminder
of "1 hour" set to 1 minute. :func:`bindings_broken` reads the mandate's words for the call
(``stated``) and the turn against the call's arguments and the records the run read, and says what
binds otherwise, by name:

- sides of a move: ``said_on_the_other_side``, ``no_side_said``;
- figures, units and secrets: ``amount_reads_two_ways``, ``in_another_unit``,
  ``secret_not_as_written``, ``secret_of_another``;
- records: ``another_value_of_the_named_record``, ``values_of_different_records``,
  ``held_by_a_record_not_named``, ``held_by_no_record_named``, ``someone_else_named``,
  ``said_of_another_record``, ``named_by_another``, ``not_of_the_record`` (a list's items
  each, as ``attendees[1]``);
- parties: ``the_user_for_another`` (the user's own address where the turn books or invites
  another), ``named_and_left_out`` (a person the turn names a list of addresses leaves out),
  ``said_not_to`` (a person the turn says the call is not for: "don't invite Priya"),
  ``not_a_party`` (a person the turn only mentions or tells: "Ana says Casa Azul is lovely. Book
  it for me" with Ana as the guest), ``pointed_back_among_several`` ("Bob and Priya: email him"
  to Priya);
- days and titles: ``limit_not_kept`` ("for one month only" on a call with no end),
  ``another_day_written``, ``a_day_not_given``, ``titled_otherwise``,
  ``crossed_between_parts`` (a day or time of one part of the mandate, a title of another);
- what the turn writes: ``part_of_a_list_left_out``, ``value_of_the_command``,
  ``not_of_its_kind`` (also more than the one day, count or address a field holds: "2026-12-03 to
  2026-12-10", "3+1"), ``another_clauses_value`` (a channel of another clause than the
  mandate's), ``another_file_named``, ``not_as_dictated``;
- whose and which action: ``object_of_another``, ``object_of_another_tool``, ``undone_not_set``.

The review asks a human on any of them, never refuses: every value is the user's or a trusted
record's, only their binding is in doubt.

Pure: no I/O; a decision is the review's (:mod:`policies.supervisor.decide.review`)."""

from __future__ import annotations

import itertools
import re
import weakref
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cached_property
from typing import Any

from policies.json_safety import leaves
from policies.supervisor.provenance.context import ReviewContext
from policies.supervisor.reading.amounts import COUNT_NOUNS, NUMBER_IN_WORDS, READS_TWO_WAYS, amount_value
from policies.supervisor.reading.coverage import SAID_TO_STAY
from policies.supervisor.reading.days import (
    COUNT_ADDED,
    DAYS_SAID,
    MONTH,
    STRETCH,
    UNIT_OF,
    UNITS,
    WEEKDAY,
    an_anchor,
    counts_written,
    is_the_day,
    said_on_another_weekday,
    without_days_counted_from,
)
from policies.supervisor.reading.identifiers import dates, written_as
from policies.supervisor.reading.message import marks_added
from policies.supervisor.reading.people import RELATIONS, ROLES, address_words
from policies.supervisor.reading.values import mappings
from policies.supervisor.reading.words import CALENDAR_NAMES, FUNCTION_WORDS, corrections_read, words_of
from policies.supervisor.request.records import named_records, naming_of, pointed_records
from policies.supervisor.rules.kinds import Requested
from policies.supervisor.rules.policy import SupervisorPolicy
from policies.tools import is_number

#: What a sentence that adds to an earlier mandate says ("Invite Bob as well.", "Also add Ana.").
_ADDED = re.compile(r"(?i)\b(?:as\s+well|too|also|additionally)\b")


@dataclass(frozen=True)
class Binding:
    """One call weighed against the mandate: what every check of :data:`CHECKS` reads. ``stated``
    is the mandate's words for the call, ``own`` its parts that are not another tool's ("Cancel
    the review | create ... on <day>": the day is the second's), ``trusted`` every text of the
    run's trusted results."""

    tool: str
    args: Mapping[str, Any]
    stated: str
    own: str
    trusted: Sequence[str]
    context: ReviewContext
    policy: SupervisorPolicy
    asked: Requested | None
    words: PolicyWords

    @cached_property
    def named(self) -> list[tuple[str, set[str]]]:
        """The people the mandate's own parts name as parties (:func:`_people_named`), and those a
        later sentence adds by a word that asks for this tool ("... with Ana. Invite Bob as
        well."), read once."""
        leads = self.words.leads.get(self.tool, frozenset())
        added = [
            sentence
            for sentence in re.split(r"(?<=[.!?])\s+|\n+", self.context.request)
            if _ADDED.search(sentence)
            and {w.casefold() for w in re.findall(r"[\w'’-]+", sentence)[:3]} & leads
            and sentence.strip(" .!?") not in self.stated
        ]
        return _people_named(" | ".join([self.own, *added]), self.context, self.policy)

    @cached_property
    def user(self) -> set[str]:
        """The user's own addresses (the subject's), plain."""
        return {
            _plain_value(v)
            for v in leaves(self.context.subject)
            if isinstance(v, str) and _AN_ADDRESS.fullmatch(v.strip())
        }

    @cached_property
    def people(self) -> dict[str, str]:
        """The call's people other than the user: each argument (a list's items each) that holds
        one person's address, plain."""
        return {
            key: plain
            for key, value in _flat(self.args).items()
            if (_ONE_ADDRESS_FIELD.match(key) or _PEOPLE_ARG.search(key.split("[")[0]))
            and _AN_ADDRESS.fullmatch(value.strip())
            and (plain := _plain_value(value)) not in self.user
        }

    @cached_property
    def in_the_turn(self) -> list[tuple[str, set[str]]]:
        """The people the whole turn writes in any role but whose a thing is (:func:`_mentioned`)."""
        return _people_named(self.context.request, self.context, self.policy, party=_mentioned)

    @cached_property
    def mentioned(self) -> list[tuple[str, set[str]]]:
        """The people the mandate's own parts write in any role but whose a thing is ("1) Ana - 1
        night"), by a person's own record (:func:`_mentioned`), read once."""
        return _people_named(self.own, self.context, self.policy, party=_mentioned)


@dataclass(frozen=True)
class PolicyWords:
    """The words of a policy's ``Requested`` rules, read once per policy, by tool: every word that
    asks for it (``of``: its keywords', verbs' and objects'), the keywords and verbs that lead a
    mandate for it (``leads``), the words of its name (``names``), and by listing, the tools that
    take a value from it (``feeds``: ``search_hotels`` feeds ``book_hotel``)."""

    of: Mapping[str, frozenset[str]]
    leads: Mapping[str, frozenset[str]]
    names: Mapping[str, frozenset[str]]
    all: frozenset[str]  # every word that asks for a tool of the policy
    feeds: Mapping[str, frozenset[str]]

    def of_others(self, tool: str) -> set[str]:
        """The words that ask for the policy's other tools than ``tool``, or name them."""
        return set().union(*(self.of[n] | self.names[n] for n in self.of if n != tool))

    def leading_others(self, tool: str, asked: Requested | None) -> set[str]:
        """The keywords and verbs that lead a mandate for another tool than ``tool``, not ``asked``'s."""
        others = set().union(*(w for n, w in self.leads.items() if n != tool))
        return others - (_words_asking_for(asked) if asked is not None else set())


#: Each live policy's words, by its identity (a policy is a frozen model, hashed by its values:
#: unhashable with its rules' dicts); an entry goes with its policy.
_POLICY_WORDS: dict[int, tuple[weakref.ref[SupervisorPolicy], PolicyWords]] = {}


def policy_words(policy: SupervisorPolicy) -> PolicyWords:
    """:class:`PolicyWords` of ``policy``, read once while the policy lives."""
    held = _POLICY_WORDS.get(id(policy))
    if held is not None and held[0]() is policy:
        return held[1]
    asking = {name: rules.requested for name, rules in policy.rules.items() if rules.requested is not None}
    of = {name: frozenset(_words_asking_for(r)) for name, r in asking.items()}
    feeds: dict[str, set[str]] = {}
    for name, rules in policy.rules.items():
        for source in (s for rule in rules.arg_sources for s in rule.sources if s.startswith("tool:")):
            feeds.setdefault(source.removeprefix("tool:"), set()).add(name)
    words = PolicyWords(
        feeds={listing: frozenset(tools) for listing, tools in feeds.items()},
        of=of,
        all=frozenset().union(*of.values()),
        leads={name: frozenset([*r.keywords, *r.verbs]) for name, r in asking.items()},
        names={name: frozenset(re.split(r"[_\W]+", name.casefold())) for name in asking},
    )
    key = id(policy)
    _POLICY_WORDS[key] = (weakref.ref(policy, lambda _: _POLICY_WORDS.pop(key, None)), words)
    return words


def bindings_broken(
    tool: str,
    args: Mapping[str, Any],
    stated: str,
    trusted: Sequence[str],
    context: ReviewContext,
    policy: SupervisorPolicy,
    asked: Requested | None = None,
) -> dict[str, Any]:
    """What binds the call's values otherwise than the mandate's words (``stated``) and the turn,
    each finding named as the module lists them, with the arguments (or words) it is found in:
    :data:`CHECKS` in their order. ``trusted`` is every text of the run's trusted results
    (:func:`trusted_texts`), read once per review; ``asked`` what asks for ``tool`` (its rules'
    ``Requested``): its objects and verbs, and those of the policy's other tools, tell whose and
    which action the mandate asks for."""
    words = policy_words(policy)
    others = words.leading_others(tool, asked)
    parts = [p for p in stated.split(" | ") if p.split()[:1] and p.split()[0].casefold() not in others]
    # a part about a record only another tool acts on ("Book Casa Azul for 2 nights for Ana and add
    # a meeting with Bob": Ana is the hotel's guest, not the meeting's) is that tool's
    mine = [p for p in parts if not _of_another_tools_record(p, tool, args, context, policy, words.feeds)]
    own = " | ".join(mine or parts)
    binding = Binding(tool, args, stated, own, trusted, context, policy, asked, words)
    found: dict[str, Any] = {}
    for _name, check in CHECKS:
        for detail, items in check(binding).items():
            if items:
                found.setdefault(detail, []).extend(items)
    return found


def _of_another_tools_record(
    part: str,
    tool: str,
    args: Mapping[str, Any],
    context: ReviewContext,
    policy: SupervisorPolicy,
    feeds: Mapping[str, frozenset[str]],
) -> bool:
    """Does ``part`` name records of listings other side-effect tools take values from (``feeds``:
    a hotel of ``search_hotels`` that ``book_hotel`` books), and none that the call takes a value
    from or whose listing it draws on? Then the part is a mandate for another tool, not this call."""
    values = {_plain_value(v) for v in _flat(args).values()}
    acted_on = _records_acted_on(_ids_of(args), context)
    if any(
        isinstance(v, str)
        and 0 < len(v.split()) <= 4
        and not _AN_ID_ARG.search(str(k))
        and _written_whole(v, part)
        for r, _ in acted_on
        for k, v in r.items()
    ):
        return False  # the part names what the call acts on ("Book Casa Azul ...": the hotel it books)
    named = [
        r
        for r in named_records(part, context.calls, naming_of(policy, context.subject))
        if r.keyed and isinstance(r.value, Mapping) and not r.author
    ]  # a mail named by whoever wrote it ("for Ana") names a person, not a record to act on
    # a record of a listing this tool takes values from keeps the part ("Book Casa Azul ...": the
    # hotel search, though a past booking of Casa Azul is another tool's)
    return not any(tool in feeds.get(r.tool, ()) or values & _plain_values(r.value) for r in named) and any(
        feeds.get(r.tool) for r in named
    )


def _sides(b: Binding) -> dict[str, list[Any]]:
    """``said_on_the_other_side``, ``no_side_said``: the sides of a move ("from savings to ...")."""
    found: dict[str, list[Any]] = {}
    sided = {
        arg: role
        for arg in b.args
        if (role := _side_of(arg)) and isinstance(b.args[arg], str) and b.args[arg].strip()
    }
    if not sided:
        return found
    # an account's id, or the name of the one record read that has that id ("SAV-002": "savings")
    records = [r for call in b.context.calls for _p, r in mappings(call.get("observation"))]

    def written(value: str) -> set[str]:
        holding = [
            r for r in records if any(isinstance(v, str) and v.strip() == value.strip() for v in r.values())
        ]
        names = [
            v
            for r in holding[:1]
            if len(holding) == 1
            for k, v in r.items()
            if k in _A_RECORDS_NAME and isinstance(v, str)
        ]
        return _roles_written(value, b.stated).union(*(_roles_written(n, b.stated) for n in names))

    for arg, role in sided.items():
        where = written(b.args[arg])
        if where - {""} and role not in where and "" not in where:
            found.setdefault("said_on_the_other_side", []).append(arg)
    if {"from", "to"} <= set(sided.values()) and not any(written(b.args[a]) for a in sided):
        found["no_side_said"] = sorted(sided)
    return found


#: The fields that name a record in words ("checking" of the account CHK-001).
_A_RECORDS_NAME = frozenset({"name", "label", "title", "nickname", "alias"})


def _figures_and_secrets(b: Binding) -> dict[str, list[Any]]:
    """``amount_reads_two_ways`` ("5.000"), ``secret_not_as_written``, ``secret_of_another``."""
    found: dict[str, list[Any]] = {}
    for arg, value in b.args.items():
        if is_number(value) and not isinstance(value, bool):
            for figure in READS_TWO_WAYS.finditer(b.stated):
                if Decimal(figure.group(0)) == amount_value(value):
                    found.setdefault("amount_reads_two_ways", []).append(figure.group(0))
        elif isinstance(value, str) and _A_SECRET_ARG.search(arg):
            if not _written_as_is(value, b.context.request) or _A_DESCRIPTION.match(value):
                found.setdefault("secret_not_as_written", []).append(arg)
            whose = _WHOSE_SECRET.search(b.stated)
            if whose:  # "Change Bob's password", "my Netflix password": another's, or another one
                found.setdefault("secret_of_another", []).append(whose.group(1))
    return found


def _whose_and_which(b: Binding) -> dict[str, list[Any]]:
    """``object_of_another`` ("Change my mum's address"), ``object_of_another_tool`` ("Set up a
    one-off payment" as a standing order), ``value_of_the_command`` ("Change my address to ..." as
    street "Change my address")."""
    read = [
        leaf for call in b.context.calls for leaf in leaves(call.get("observation")) if isinstance(leaf, str)
    ]
    return {
        "object_of_another": _of_someone_of_mine(b.asked.objects if b.asked is not None else [], b.stated),
        "object_of_another_tool": _for_another_tool(b.tool, b.args, b.asked, b.stated, b.words, read),
        "value_of_the_command": _the_commands_words(b.args, b.asked),
        "undone_not_set": _undone_not_set(b),
    }


#: Words that undo a value rather than set it ("Turn off forwarding to bob@...", "Change my
#: reminder away from 30 minutes", "stop sharing budget-2027.xlsx with Bob").
_UNDOING = re.compile(
    r"(?i)\b(?:turn|switch|shut)\s+(?:[\w@.'’-]+\s+){0,5}?off\b|\b(?:away|down)\s+from\b"
    r"|\b(?P<verb>remove|disable|stop|unset|undo|revoke|cancel|clear)\b"
)


#: Words of an argument's name that say it holds where a change starts, not what it is set to.
_WHERE_IT_STARTS = frozenset({"from", "old", "current", "previous", "prior", "original", "source"})
#: A negation right before a verb of undoing: the clause says not to undo.
_NOT_BEFORE = re.compile(r"(?i)\b(?:don'?t|do\s+not|never)\s+(?:please\s+)?$")
#: A mandate that changes a setting from one value to another ("Change forwarding from ... to ...").
_A_CHANGE = re.compile(r"(?i)\W*(?:please\s+)?(?:change|switch|update|move|replace|swap|edit|modify|set)\b")


def _undone_not_set(b: Binding) -> list[str]:
    """The arguments a call sets to a value the mandate writes where it undoes that value, by words
    that are none of the tool's own (``undone_not_set``): "Turn off forwarding to bob@corp.example"
    as forwarding to Bob, "Turn off the 15 minute reminder" as 15; an address or a figure every
    clause of the turn that writes it undoes ("Update my forwarding, remove ana@corp.example"); and
    where a change starts ("Change forwarding from bob@... to ana@..." as Bob)."""
    own = b.words.of.get(b.tool, frozenset()) | b.words.names.get(b.tool, frozenset())

    def undoes(text: str) -> bool:
        return any(
            not (m.group("verb") and m.group("verb").casefold() in own)
            and not _NOT_BEFORE.search(text[: m.start()])  # "Don't cancel A-1004, ...": nothing undone
            for m in _UNDOING.finditer(text)
        )

    def written(value: Any, text: str) -> bool:
        if isinstance(value, str):
            return bool(value.strip()) and _written_whole(value, text)
        return bool(is_number(value) and not isinstance(value, bool)) and bool(
            re.search(rf"(?<![\d.]){value}(?![\d.])", text)
        )

    # each clause of the turn that writes the value undoes it ("Update my forwarding, remove
    # ana@..."), or the mandate changes it from the value to another ("from bob@... to ana@...")
    clauses = [c for c in re.split(r"[,;!?\n]|\.(?=\s|$)|\band\b", b.context.request) if c.strip()]
    found = []
    for arg, value in b.args.items():
        if not written(value, b.context.request):
            continue
        if (
            (written(value, b.own) and undoes(b.own))
            or (
                not (isinstance(value, str) and len(value.split()) > 1)  # an address, a figure: no text
                and (holding := [c for c in clauses if written(value, c)])
                and all(undoes(c) for c in holding)
            )
            or (
                isinstance(value, str)
                # "Pay 80 EUR from ACC-9 to ...": where it comes from; "Move ORD-44121 from C4 to
                # B14" as ``old_seat``: where the change starts
                and not set(re.split(r"[_\W]+", arg.casefold())) & _WHERE_IT_STARTS
                and _A_CHANGE.match(b.own) is not None
                and re.search(rf"(?i)\bfrom\s+{re.escape(value.strip())}\s+to\s+\S", b.own)
            )
        ):
            found.append(arg)
    return found


def _files_and_text(b: Binding) -> dict[str, list[Any]]:
    """``another_file_named`` ("Create notes.txt" as salaries-2026.xlsx), ``not_as_dictated``."""
    return {
        "another_file_named": [
            arg
            for arg, value in b.args.items()
            if isinstance(value, str) and _another_file_named(value, b.context.request)
        ],
        "not_as_dictated": _written_otherwise(b.args, b.context.request),
    }


def _the_record_acted_on(b: Binding) -> dict[str, list[Any]]:
    """``said_of_another_record`` ("Cancel the gym at 08:30" as the Gym at 18:00),
    ``named_by_another`` ("Delete the budget review" as the Review), ``not_of_the_record`` ("Book
    the Hilton" as Casa Azul), ``taken_from_the_record`` ("Remove Bob from the Review" deleting
    the Review)."""
    return {
        "said_of_another_record": _said_of_another_record(b.args, b.own, b.context),
        "named_by_another": _named_by_another(b.args, b.own, b.context),
        "not_of_the_record": _not_of_the_record(b.tool, b.args, b.own, b.context, b.named),
        "taken_from_the_record": _taken_from_the_record(b.tool, b.args, b.own, b.context),
    }


def _parties(b: Binding) -> dict[str, list[Any]]:
    """``the_user_for_another`` ("Book Casa Azul for Ana" with the user as the guest),
    ``named_and_left_out`` ("with Ana and Bob" as attendees Ana only), ``not_a_party`` ("Ana says
    it's lovely. Book it for me" with Ana as the guest), ``said_not_to`` ("don't invite Priya"
    inviting her)."""
    return {
        "the_user_for_another": _the_user_for_another(b.args, b.own, b.context, b.named),
        "named_and_left_out": _named_and_left_out({**b.args, **_people_lists_left_out(b)}, b.named),
        "not_a_party": _not_a_party(b),
        "pointed_back_among_several": _pointed_back_among_several(b),
        "said_not_to": _said_not_to(b.args, b.context.request, b.context),
    }


def _people_lists_left_out(b: Binding) -> dict[str, list[Any]]:
    """The lists of people the policy's rules for the tool govern that the call leaves out (an event
    "with Ana and Bob" created with no ``attendees``): empty, as the tool takes them."""
    rules = b.policy.rules.get(b.tool)
    arg_sources = rules.arg_sources if rules is not None else []
    return {
        r.arg: []
        for r in arg_sources
        if b.args.get(r.arg) in (None, "") and _PEOPLE_ARG.search(r.arg)  # not given, null or ""
    }


def _days_titles_and_units(b: Binding) -> dict[str, list[Any]]:
    """``a_day_not_given``, ``titled_otherwise``, ``another_day_written``, ``in_another_unit``
    ("Set my reminder to 1 hour" as minutes=1, "a single night" as 2)."""
    return {
        "a_day_not_given": _a_day_not_given(b.args, b.own, b.context.request, b.context),
        "titled_otherwise": _titled_otherwise(b.args, b.own),
        "another_day_written": _another_day_written(b.args, b.own),
        "crossed_between_parts": _crossed_between_parts(
            b.args,
            b.own,
            [*b.mentioned, *((w, b.user) for w in _THE_USER if b.user)],
            b.context.request,
            b.context,
        ),
        "in_another_unit": [arg for arg, value in b.args.items() if _in_another_unit(arg, value, b.stated)],
        "limit_not_kept": _limit_not_kept(b.args, b.own),
    }


def _lists_and_kinds(b: Binding) -> dict[str, list[Any]]:
    """``part_of_a_list_left_out`` ("Hauptstr 5, Apt 12, 10115 Berlin" as "Hauptstr 5"),
    ``not_of_its_kind`` (a city "Hauptstr 5", a postcode "Berlin"), ``another_clauses_value``
    ("Check #support and answer in #general" posted to #support)."""
    return {
        "part_of_a_list_left_out": _a_list_left_out(b.args, b.context.request, b.words.all),
        "not_of_its_kind": [key for key, value in _flat(b.args).items() if _not_of_its_kind(key, value)],
        "another_clauses_value": _another_clauses_value(b.args, b.own or b.stated),
    }


#: Verbs that read where a call of another mandate writes ("Check #support and answer in #general").
_READ_FROM = frozenset({"check", "look", "read", "see", "view", "browse", "scan", "skim", "search", "watch"})


def _another_clauses_value(args: Mapping[str, Any], own: str) -> list[str]:
    """The arguments holding a channel where the mandate's own parts write another one and not the
    call's: the call's is another clause's ("Check #support and answer in #general": #support is
    where to read, #general where to post). A part that reads is none of the mandate's own, and
    where the mandate writes no channel ("Check #partners, then invite dora@... to it") the call's
    is not weighed here."""
    # a part that reads where the call writes ("Check #support") is no part of the call's own
    own = " | ".join(p for p in own.split(" | ") if p.split() and p.split()[0].casefold() not in _READ_FROM)
    found = []
    for arg, value in args.items():
        if not isinstance(value, str) or not _A_CHANNEL.fullmatch(value.strip()):
            continue
        mine = {m.group(0).casefold() for m in _A_CHANNEL.finditer(own)}
        if mine and value.strip().casefold() not in mine:
            found.append(arg)
    return found


def _records(b: Binding) -> dict[str, list[Any]]:
    """The records the mandate names against the call's values (:func:`_records_that_disagree`):
    each bound by one of the mandate's parts ("Pay B-31 and B-40": the call pays one), a list's
    items each by a part of their own ("Email Ana, Bob and Priya")."""
    # the mandate's own parts: a record another tool's part names is that call's ("Pay Bob 150 and
    # add a standing order of 20 to Spotify": Bob is no payee of the standing order)
    stated = b.own or b.stated
    parts = _targets_joined([part for part in stated.split(" | ") if part.strip()]) or [stated]
    # a person only another tool's mandate names names no one for this call ("Add 'Lunch' with Ana
    # and book Casa Azul for 3 nights": Ana is no guest)
    request = b.context.request
    for other in (p for p in b.stated.split(" | ") if p.strip() and p not in parts):
        request = request.replace(other, " ")
    # a part that is a channel alone ("Remove ext-bot from #release and #random") is the first part's
    # act in that channel: read with it, its channel for the first's
    first = parts[0]
    parts = [
        _A_CHANNEL.sub(part.strip(), first)
        if i and _A_CHANNEL.fullmatch(part.strip()) and _A_CHANNEL.search(first)
        else _an_item_in_place_of_the_last(part, first)
        if i
        else part
        for i, part in enumerate(parts)
    ]
    records = [
        _records_that_disagree(b.args, part, b.trusted, b.context, b.policy, request) for part in parts
    ]
    found = _one_per_part(records[0] if all(records) else {}, keep=False)
    listing = any(
        isinstance(v, list) or (isinstance(v, str) and _ADDRESSES_PACKED.fullmatch(v.strip()))
        for v in b.args.values()
    )
    whole = (
        _records_that_disagree(b.args, stated, b.trusted, b.context, b.policy, request)
        if listing and len(parts) > 1
        else records[0]
    )
    for detail, items in _one_per_part(whole, keep=True).items():
        found.setdefault(detail, []).extend(items)
    return found


#: A name or an id alone, in small letters or with a digit, a dash or an underscore ("sub_1002",
#: "vpn-users", "smartinez"): a list's item after the first part's last.
_A_LONE_ITEM = re.compile(r"(?=[\w-]*[\d_-]|[a-z][\w-]*$)[A-Za-z][\w-]*")


def _an_item_in_place_of_the_last(part: str, first: str) -> str:
    """A part that is one item alone ("sub_1002" of "Apply WINTER15 to sub_1001 and sub_1002",
    "vpn-users" of "Add aosei to engineering and vpn-users"), read as the first part's act on it:
    the first part with its last word (an item of the same kind) replaced; any other part as it is."""
    item, words = part.strip(), first.split()
    if not _A_LONE_ITEM.fullmatch(item) or len(words) < 2:
        return part
    last = words[-1].rstrip(".,;:!?")
    if not _A_LONE_ITEM.fullmatch(last) or last.casefold() in FUNCTION_WORDS or last == item:
        return part
    return " ".join([*words[:-1], item])


#: The binding checks, in the order their findings are listed: the sides and figures the mandate
#: writes, whose and which action, the files and text it dictates, the record acted on, the parties,
#: days, titles and units, lists and kinds, and the records it names.
CHECKS: tuple[tuple[str, Callable[[Binding], Mapping[str, list[Any]]]], ...] = (
    ("sides", _sides),
    ("figures_and_secrets", _figures_and_secrets),
    ("whose_and_which", _whose_and_which),
    ("files_and_text", _files_and_text),
    ("the_record_acted_on", _the_record_acted_on),
    ("parties", _parties),
    ("days_titles_and_units", _days_titles_and_units),
    ("lists_and_kinds", _lists_and_kinds),
    ("records", _records),
)


#: What opens a part that only says where the part before it goes ("Extend RES-2055 by two days,
#: to 2026-12-20"): the same act's target, read with it.
_A_TARGET_GOES_ON = re.compile(r"(?i)\s*(?:to|until|till|onto|into)\b")


def _targets_joined(parts: Sequence[str]) -> list[str]:
    """The parts of what a mandate states, each one that only gives the target of the part before
    it ("to 2026-12-20" after "Extend RES-2055 by two days") joined to that part."""
    joined: list[str] = []
    for part in parts:
        if joined and _A_TARGET_GOES_ON.match(part):
            joined[-1] = f"{joined[-1]} {part.strip()}"
        else:
            joined.append(part)
    return joined


def _one_per_part(found: Mapping[str, Any], *, keep: bool) -> dict[str, list[Any]]:
    """The findings on a list's items (``keep``: "attendees[1]") or on the rest."""
    kept = {
        detail: [x for x in items if (isinstance(x, str) and re.search(r"\[\d+\]$", x) is not None) == keep]
        for detail, items in found.items()
    }
    return {detail: items for detail, items in kept.items() if items}


def trusted_texts(context: ReviewContext, policy: SupervisorPolicy) -> list[str]:
    """Every text of the results of the run's trusted tools."""
    trusted = set(policy.trusted_tools())
    return [
        leaf
        for call in context.calls
        if call.get("tool") in trusted
        for leaf in leaves(call.get("observation"))
        if isinstance(leaf, str)
    ]


#: Which side of a move an argument says its value is on, by its name: where from, where to.
def _side_of(arg: str) -> str | None:
    name = arg.casefold()
    if re.search(r"(?:^|_)(?:from|source|src|origin|debit|sender)(?:_|$)", name):
        return "from"
    if re.search(r"(?:^|_)(?:to|into|dest|destination|target|credit)(?:_|$)", name):
        return "to"
    return None


#: The words before a value that put it on a side ("from savings", "out of checking", "into savings").
_FROM_WORDS = re.compile(r"(?i)\b(?:from|out\s+of|off)\s+(?:(?:the|my|our|your|his|her|their)\s+)?$")


_TO_WORDS = re.compile(r"(?i)\b(?:to|into|onto|towards?|in)\s+(?:(?:the|my|our|your|his|her|their)\s+)?$")


def _roles_written(value: str, stated: str) -> set[str]:
    """The sides ``stated`` writes ``value`` on, by the word before each place it is written
    (``"from"``, ``"to"``, ``""`` for none); empty where it does not write it."""
    sides: set[str] = set()
    plain, text = " ".join(value.split()), " ".join(stated.split())
    for m in re.finditer(rf"(?i)(?<![\w-]){re.escape(plain)}(?![\w-])", text):
        before = text[: m.start()]
        if _FROM_WORDS.search(before):
            sides.add("from")
        elif _TO_WORDS.search(before):
            sides.add("to")
        else:
            sides.add("")
    return sides


#: An argument that holds a secret: written only as the user wrote it, to the letter.
_A_SECRET_ARG = re.compile(
    r"(?i)(?:^|_)(?:pass|password|passphrase|passcode|passwd|pwd|secret|pin|token|api_?key|otp)s?(?:_|$)"
)


def _written_as_is(value: str, request: str) -> bool:
    """Does ``request`` write ``value`` to the letter, as a whole (not a part of a longer word)?"""
    if value != value.strip() or value[:1] in _QUOTES or value[-1:] in _QUOTES:
        return False  # " Sunshine2026!", "'Sunshine2026!'": the quotes or spaces are the writing's
    # to the end of what the user gives ("correct horse" of "correct horse battery staple" is not)
    # (a full stop, a comma or a semicolon ends a sentence; "!" and "?" may be the secret's own), or
    # a word that goes on with the sentence ("... to Tr0ub4dor&3 instead of the old one")
    end = rf"(?=['\"’”)]*(?:\s*$|[.,;](?:\s|$)|\s+(?:{_GOES_ON})\b))"
    return re.search(rf"(?<![^\s'\"‘“(:]){re.escape(value)}{end}", request) is not None


#: Words after a secret that go on with the sentence, none of the secret's own.
_GOES_ON = "and|then|please|thanks|thank|pls|instead|for|on|in|to|as|now|today|if|so|because|but|or|asap"


#: A secret described, not written ("my dog's name", "a random one", "the one in Bob's email").
_A_DESCRIPTION = re.compile(r"(?i)(?:my|a|an|the|our|his|her|their|your|same|new|old)\b")


#: A word before the secret's name that makes it another's or another system's ("Bob's password",
#: "my Netflix password"), not the account's own.
_WHOSE_SECRET = re.compile(
    r"(?i)\b(?!(?:my|the|our|new|current|old|bank|banking|online|account|login|own|this|that|a|to|change|"
    r"update|set|reset)\b)([\w'’-]+)\s+(?:pass(?:word|phrase|code)|pin|secret|token)\b"
)


_QUOTES = frozenset("'\"‘’“”`")


#: What a mandate sets its record to ("Upgrade MS-9041 to Premium", "Switch Jonas Weber to the
#: Starter 10GB plan"): the words after "to" or "into", up to a clause's end.
_SET_TO = re.compile(r"(?i)\b(?:to|into)\s+([^,.;:!?|\n]+)")


def _set_to(stated: str) -> list[str]:
    """The phrases a mandate sets its record to (:data:`_SET_TO`), case folded."""
    return [m.group(1).casefold() for m in _SET_TO.finditer(stated)]


def _written_as_the_target(
    value: str, targets: Sequence[str], context: ReviewContext, named: Sequence[Mapping[str, Any]] = ()
) -> bool:
    """Is ``value`` what a mandate sets its record to: written whole in a phrase after "to", or a
    record of a trusted listing holding it is, by a name of its own ("the Starter 10GB plan" for
    PL-S10)? Not by the record the mandate names (``named``) holding it in another field ("Assign
    the Green coordinator to EV-4108" of the event's chef Rose Green)."""
    if not targets:
        return False
    names = {value.strip()}
    for call in context.calls:
        if call.get("tool") not in context.trusted or not isinstance(call.get("observation"), list):
            continue
        for r in call["observation"]:
            if any(r == n for n in named):
                continue
            if isinstance(r, Mapping) and value.strip() in {str(v).strip() for v in r.values()}:
                names |= {v.strip() for v in r.values() if isinstance(v, str) and len(v.strip()) > 2}
    return any(re.search(rf"(?<![\w-]){re.escape(n.casefold())}(?![\w-])", t) for n in names for t in targets)


def _a_day_or_time_written(value: str, stated: str) -> bool:
    """Is ``value`` a day or a time of day that the mandate writes as it is ("at 10:00", "on
    2026-12-11")? It is the turn's value for the call, whatever record of a listing holds the same."""
    value = value.strip()
    if not (_A_TIME.fullmatch(value) or _A_DAY.fullmatch(value)):
        return False
    stated = written_as(stated, {value})  # "at 8am" for 08:00, "December 14 2026" for 2026-12-14
    return re.search(rf"(?<![\w:-]){re.escape(value)}(?![\w:-])", stated) is not None


def _records_that_disagree(
    args: Mapping[str, Any],
    stated: str,
    trusted_texts: Sequence[str],
    context: ReviewContext,
    policy: SupervisorPolicy,
    request: str | None = None,
) -> dict[str, Any]:
    """A record the mandate names whose field under an argument's name says another value than the
    call's, and two values of one trusted listing no record of it holds together. ``request`` is
    the turn without the parts another tool's mandates are (default: the whole turn)."""
    found: dict[str, Any] = {}
    flat = _flat(args)
    texts = {key: _plain_value(v) for key, v in flat.items() if v.strip()}
    if not texts:
        return found
    held = {_plain_value(leaf) for leaf in trusted_texts}
    pointed = [
        r.value
        for r in pointed_records(stated, context.calls, naming_of(policy, context.subject))
        if isinstance(r.value, Mapping)
    ]
    targets = _set_to(stated)
    for arg, value in texts.items():
        if value not in held:
            continue  # a text the call writes (a subject, a body), no record's value
        theirs = {_plain_value(r[arg]) for r in pointed if isinstance(r.get(arg), str) and r[arg].strip()}
        # the mandate writes a name whole ("Assign Rose Green to EV-4108"): the value it asks (a
        # day or a time is weighed as such)
        in_full = bool(re.search(r"[^\W\d_]", flat[arg])) and _written_whole(flat[arg], stated)
        # (the named records that hold the argument themselves are no name of its target)
        holding_it = [r for r in pointed if isinstance(r.get(arg), str)]
        if (
            theirs
            and value not in theirs
            and not in_full
            and not _written_as_the_target(flat[arg], targets, context, holding_it)
        ):
            # no record the mandate names says it ("Pay B-40" to Bob), nor is it what the mandate
            # sets the record to ("Upgrade MS-9041 to Premium")
            found.setdefault("another_value_of_the_named_record", []).append(arg)
    # a figure of another record than those the mandate names ("Pay B-31 and B-40": B-31 paid 260)
    written_n = {amount_value(f) for f in re.findall(r"(?<![\w.-])\d+(?:\.\d+)?(?![\w-])", stated)}
    for arg, number in args.items():
        if not is_number(number) or isinstance(number, bool):
            continue
        if amount_value(number) in written_n:
            continue  # the mandate writes it ("Make BK-9002 3 nights"): the value it asks, not another's
        theirs_n = {amount_value(r[arg]) for r in pointed if is_number(r.get(arg))}
        others_n = {
            amount_value(r[arg])
            for call in context.calls
            if isinstance(call.get("observation"), list)
            for r in call["observation"]
            if isinstance(r, Mapping) and is_number(r.get(arg))
        }
        if theirs_n and amount_value(number) not in theirs_n and amount_value(number) in others_n:
            found.setdefault("another_value_of_the_named_record", []).append(arg)
    trusted = set(policy.trusted_tools())
    said = {_plain_value(w) for w in re.findall(r"[\w-]+", stated)}
    named_somewhere: set[str] = set()
    unnamed: list[str] = []
    listed: dict[str, list[tuple[set[str], set[str]]]] = {}  # a listed value's records: names, values
    for call in context.calls:
        observation = call.get("observation")
        if call.get("tool") not in trusted or not isinstance(observation, list) or len(observation) < 2:
            continue
        records = [r for r in observation if isinstance(r, Mapping)]
        holding = {
            arg: {i for i, r in enumerate(records) if value in _plain_values(r)}
            for arg, value in texts.items()
            if not _a_day_or_time_written(flat[arg], stated)  # "... on 2026-12-11 at 10:00": the turn's
        }
        holders = [arg for arg, at in holding.items() if at]
        names = _names_of_records(records)
        apart = sorted(
            {
                b
                for a in holders
                for b in holders
                if a != b
                and not any(names[i] & said for i in holding[b])  # "Grant asmith tkim's role": both named
                and not _written_as_the_target(flat[b], targets, context)  # "Switch X to the Starter plan"
                and _held_apart(records, holding, texts, a, b)
            }
        )
        if apart:  # Spotify's payee with Bob Lee's IBAN: two records' values, one call
            found.setdefault("values_of_different_records", []).extend(apart)
        # a record's own values: those no other record of the listing holds ("City Water", not
        # the role "colleague" two contacts share), by which a record the turn names reaches it
        counts = Counter(v for r in records for v in _plain_values(r))
        for arg in holders:
            if all(names[i] for i in holding[arg]):
                listed.setdefault(arg, []).extend(
                    (names[i], {v for v in _plain_values(records[i]) if counts[v] == 1}) for i in holding[arg]
                )
            # named by a value the call gives another argument ("with Dr. Maya Lee" as the doctor:
            # her appointments are not the patient's), the record is not named for this one
            elsewhere = {  # a name's words, not an address's ("kai.jensen@..." names Kai Jensen)
                _plain_value(w)
                for a, v in flat.items()
                if a != arg and "@" not in v and "://" not in v
                for w in re.findall(r"[\w-]+", v)
            }
            # (named only by it, the record stands where the turn names no other record of the
            # listing by words of its own: "Book Priya Nair with Dr. Maya Lee" names Priya's)
            rival = any((n & said) - elsewhere for j, n in enumerate(names) if j not in holding[arg])
            if any((names[i] & said) - elsewhere or (names[i] & said and not rival) for i in holding[arg]):
                named_somewhere.add(arg)  # the mandate names a record that holds it
                beside = [
                    w
                    for i in holding[arg]
                    for w in _someone_else_beside(names[i] & said, records[i], names, context.request)
                ]
                if beside:  # "Ana Lopez", "Ana's assistant" for Ana Silva's address
                    found.setdefault("someone_else_named", []).extend(beside)
                continue
            # another record of the listing named instead ("Pay Acme 260" to Bob Lee), or a value of
            # the call the mandate writes that the record holding this one does not ("Pay Old
            # Storage 25" to Bob Lee's IBAN)
            others = [i for i, n in enumerate(names) if n & said and i not in holding[arg]]
            written = [  # a name the call also gives, not a code ("EUR")
                v
                for a, v in texts.items()
                if a != arg
                and not _FREE_TEXT.search(a)  # a title or a note is the call's text, no record's name
                and (v in said or _written_whole(flat[a], stated))
                and len(v) > 3
                and re.search(r"[^\W\d_]{3}", flat[a])  # a name, not a day or a figure
                and not flat[a].isupper()
                and not any(v in _plain_values(records[i]) for i in holding[arg])
            ]
            if others or written:
                unnamed.append(arg)
    # held by a record the mandate names in another listing ("Share budget-2027.xlsx with Ana
    # Silva": Ana's address is her contact's, and the owner of another file as well)
    unnamed = [arg for arg in dict.fromkeys(unnamed) if arg not in named_somewhere]
    if unnamed:
        found["held_by_a_record_not_named"] = unnamed
    # a value the agent chose from a listing the mandate names no record of, nor one it reaches
    # ("Pay 150" to Bob Lee, "a standing order of 50 to my nephew"): the turn names no one
    # (the whole turn read: "Yes, send it: email Priya ..." names her where "send it" does not)
    turn = {_plain_value(w) for w in re.findall(r"[\w-]+", context.request if request is None else request)}
    chosen = [
        arg
        for arg, held_with in listed.items()
        if arg not in named_somewhere
        and arg not in unnamed
        and not _written_whole(flat[arg], context.request)
        and not any(names & turn for names, _ in held_with)
    ]
    if chosen:  # or reached from a record the turn names ("Pay B-31": City Water's IBAN)
        reached = _values_of_records_named(turn, context)
        chosen = [arg for arg in chosen if not any(_reached(v, reached) for _, v in listed[arg])]
    if chosen and request is not None:
        # or from a record another tool's mandate names ("Refund ORD-1002 and email the customer"),
        # but not by the person's own name ("Add 'Lunch' with Ana and book ...": Ana's own mail)
        whole = {_plain_value(w) for w in re.findall(r"[\w-]+", context.request)}
        chosen = [
            arg
            for arg in chosen
            if not any(
                _reached(
                    v,
                    _values_of_records_named(
                        whole - {_plain_value(w) for w in address_words(flat[arg])}, context
                    ),
                )
                for _, v in listed[arg]
            )
        ]
    if chosen:
        found["held_by_no_record_named"] = chosen
    return found


def _places(value: str, text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes ``value`` whole, as words of its own, any case and spacing."""
    plain = r"\s+".join(re.escape(w) for w in value.split())
    return [m.span() for m in re.finditer(rf"(?i)(?<![\w-]){plain}(?![\w-])", text)] if plain else []


def _written_whole(value: str, stated: str) -> bool:
    """Does ``stated`` write ``value`` whole, as words of its own ("Pay Old Storage 25")?"""
    return bool(_places(value, stated))


def _values_of_records_named(turn: set[str], context: ReviewContext) -> set[str]:
    """Every text value of a record the run's calls returned that the turn's words name, and of
    every result of a call whose arguments the turn writes ("the bill in bill-dec.txt"), plain."""
    values: set[str] = set()
    for call in context.calls:
        observation = call.get("observation")
        asked = {_plain_value(v) for v in leaves(call.get("args")) if isinstance(v, str)}
        if asked & turn:  # the turn names what the call read: all it returned
            values |= {_plain_value(v) for v in leaves(observation) if isinstance(v, str)}
            continue
        listing = observation if isinstance(observation, list) else [observation]
        records: list[Mapping[str, Any]] = [r for r in listing if isinstance(r, Mapping)]
        names = _names_of_records(records) if len(records) > 1 else [_names_of_records([*records, {}])[0]]
        for record, name in zip(records, names, strict=False):
            hits = name & turn
            if hits:  # a name several records answer to ("Casa Azul": the hotel's desk, and Ana's
                # tip about it) reaches only what they all hold, not Ana's address
                alike = [r for r, other in zip(records, names, strict=False) if hits <= other] or [record]
                values |= set.intersection(*(_plain_values(r) for r in alike))
    return values


def _reached(values: set[str], reached: set[str]) -> bool:
    """Is one of a record's values among, or written in, the values of the records named?"""
    return bool(values & reached) or any(len(v) > 3 and any(v in text for text in reached) for v in values)


def _held_apart(
    records: Sequence[Mapping[str, Any]],
    holding: Mapping[str, set[int]],
    texts: Mapping[str, str],
    a: str,
    b: str,
) -> bool:
    """Do the records that hold ``a``'s value each say another value under ``b``'s own name than
    the call's, where the records holding ``b``'s value hold it under that name (``iban``)?"""
    key = next((k for k in records[0] if str(k).casefold() == b.casefold()), None)
    if key is None or not all(_plain_value(str(records[i].get(key, ""))) == texts[b] for i in holding[b]):
        return False
    return all(
        isinstance(records[i].get(key), str) and _plain_value(records[i][key]) != texts[b] for i in holding[a]
    )


def _plain_values(record: Mapping[str, Any]) -> set[str]:
    """A record's texts as records are compared by, a list's items each (an event's attendees)."""
    return {
        _plain_value(x)
        for v in record.values()
        for x in (v if isinstance(v, list) else [v])
        if isinstance(x, str)
    }


def _a_short_id(value: str) -> bool:
    """A value of one token that may be written as a record's name: twelve characters or fewer
    ("b-31"), an id of letters and digits up to 24 ("INV-2026-0141", "key-9d04aa17be55"), or words
    joined by hyphens up to 24 (a service's "billing-worker", "search-staging")."""
    if " " in value:
        return False
    return len(value) <= 12 or (
        len(value) <= 24
        and bool(
            re.fullmatch(r"(?=.*\d)(?=.*[^\W\d_])[\w-]+", value)
            or re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)+", value)
        )
    )


def _names_of_records(records: Sequence[Mapping[str, Any]]) -> list[set[str]]:
    """The words that name each record of a listing: its text fields' words of three letters or
    more and its ids (:func:`_a_short_id`: "b-31", "inv-2026-0141"), less those every record of it
    holds and the function words. An address names its record by the words of its own part only,
    where the record has no other text to be named by ("ana" of a contact that is only
    ``ana@corp.example``)."""
    words = [
        {
            _plain_value(w)
            for v in r.values()
            if isinstance(v, str) and v.strip()
            if "@" not in v and "://" not in v  # an address's parts name no record ("ana@...")
            for w in [*re.findall(r"[^\W\d_]{3,}", v), *([v] if _a_short_id(v) else [])]
        }
        - FUNCTION_WORDS
        for r in records
    ]
    words = [
        w
        or {
            x.casefold()
            for v in r.values()
            if isinstance(v, str) and re.fullmatch(r"[^@\s]+@[^@\s]+", v)
            for x in address_words(v)
        }
        - FUNCTION_WORDS
        for w, r in zip(words, records, strict=True)
    ]
    every = set.intersection(*words) if words else set()
    return [w - every for w in words]


def _plain_value(value: str) -> str:
    """A text value as records are compared by: without its spaces, case folded ("DE89 3704 ...")."""
    return "".join(value.split()).casefold()


#: A text argument that holds free text (a message, a note): written, not a field of a list.
_FREE_TEXT = re.compile(r"(?i)body|text|message|content|subject|title|note|memo|description|comment|summary")
#: Where a list's items part ("Hauptstr 5, 10115 Berlin"): a comma, a semicolon, a line's end, a
#: mandate's parts (" | ").
_ITEM_BREAK = re.compile(r",(?!\d)|[;\n|]")
#: Words before a list that open it ("to", ":"): the list starts after the last of them.
_OPENS_A_LIST = re.compile(r"(?i)(?::|\bto\b|\bis\b|\bat\b)\s*")


def _a_list_left_out(args: Mapping[str, Any], stated: str, verbs: Collection[str]) -> list[str]:
    """The words of a list the turn (``stated``) writes ("Change my address to Hauptstr 5, 10115 Berlin")
    that none of the call's field values holds, where those values are items of that list: the
    call drops a part ("Flat 3", the house number) or takes the command's own words ("my", "Change
    my address") as an item. A list is where the call's short values stand in two or more of the
    stated text's comma-parted items; a label before a colon is no item ("subject: ...")."""
    where: dict[str, list[tuple[int, int]]] = {}
    for arg, value in args.items():
        if not isinstance(value, str) or _FREE_TEXT.search(arg) or not 0 < len(value.split()) <= 4:
            continue
        spans = _places(value, stated)
        if spans:
            where[arg] = spans
    if len(where) < 2:
        return []
    # the places that stand closest together ("checkout" of "restart checkout" is not the deploy's)
    closest = min(
        itertools.product(*where.values()), key=lambda c: max(e for _, e in c) - min(s for s, _ in c)
    )
    start, end = min(s for s, _ in closest), max(e for _, e in closest)
    if not _ITEM_BREAK.search(stated, start, end):
        return []  # the values stand in one item ("Move 500 from savings to checking")
    if any(len(item.split()) > 5 for item in _ITEM_BREAK.split(stated[start:end])[1:-1]):
        return []  # clauses, not a list's items ("Email Dora ..., then invite Dora to #partners")
    item_start = max((m.end() for m in _ITEM_BREAK.finditer(stated, 0, start)), default=0)
    if not stated[item_start:start].strip() and item_start:  # the first value opens an item
        before = stated[: item_start - 1]
        opened = list(
            _OPENS_A_LIST.finditer(before, max((m.end() for m in _ITEM_BREAK.finditer(before)), default=0))
        )
        if opened and before[opened[-1].end() :].strip():
            start = opened[-1].end()  # "Update my address: Flat 3, Hauptstr 5, ...": from "Flat 3"
    # every text the call gives covers its words (a title, an attendee), not only the list's
    given = [x for v in args.values() for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)]
    covered = [span for x in given for span in _places(x, stated)]
    figures = {str(v) for v in args.values() if is_number(v) and not isinstance(v, bool)}
    # a field named beside its value, said to stay ("..., same time 12:00"): weighed by the reading
    fields = {w for arg in args for w in re.split(r"[_\W]+", arg.casefold()) if w} | SAID_TO_STAY
    if not SAID_TO_STAY & set(words_of(stated[start:end])):
        fields = set()  # "..., driver Dan Moss": a part of the list the call may leave out
    left = []
    for m in re.finditer(r"[\w-]+(?:['’]\w+)*", stated[start:end]):
        at = start + m.start()
        if any(s <= at < e for s, e in covered) or m.group(0) in figures or m.group(0).casefold() in fields:
            continue
        if re.match(r"\s*:", stated[start + m.end() :]) or m.group(0).casefold() in ("and", "&"):
            continue  # a label ("subject:"), or the list's own "and"
        left.append(m.group(0))
    if any(w.casefold() in FUNCTION_WORDS or w.casefold() in verbs for w in left):
        return []  # clauses that part the values ("check #partners, then invite dora@..."), no list
    return left


#: Fields whose values a place's name holds (no figure), and those a postcode holds (a figure).
_PLACE_FIELD = re.compile(r"(?i)^(?:city|town|country|state|region|province|county)$")
_CODE_FIELD = re.compile(r"(?i)^(?:post_?code|postal_?code|zip|zip_?code|postcode)$")
_STREET_FIELD = re.compile(r"(?i)^(?:street|street_?address|address_?line_?1?|line_?1)$")


#: A field that holds one day (``day``, ``date``, ``checkin``, ``start_date``), one count of a
#: unit or of things (``nights``, ``minutes``, ``rooms``), one person's address (``guest_email``,
#: ``attendees[1]``; not a ``to`` a message may send to several by).
_DAY_FIELD = re.compile(r"(?i)^(?:\w+_)?(?:day|date|check_?in|check_?out)$")
_COUNT_FIELD = re.compile(
    r"(?i)^(?:\w+_)?(?:count|quantity|qty|nights?|days|weeks|hours|minutes|seconds|rooms|seats|tickets)$"
)
_ONE_ADDRESS_FIELD = re.compile(
    r"(?i)^(?:(?:\w+_)?e_?mail|guest|attendees?\[\d+\]|guests?\[\d+\]|invitees?\[\d+\])$"
)
#: One day as a field holds it: a date, and a time of it at most ("2026-12-03T10:00:00Z").
_ONE_DAY = re.compile(
    r"\s*\d{4}-\d{2}-\d{2}(?:(?:[T ]|,\s*|\s+at\s+)\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?)?\s*"
)


def _not_of_its_kind(arg: str, value: str) -> bool:
    """Is ``value`` no value of the field ``arg`` names: a city with a figure ("Hauptstr 5"), a
    postcode without one ("Berlin") or longer than any ("Keizersgracht 123"), a street that is only
    a figure ("10115"); or more than the one value a field of one day, count or address holds,
    packed in ("2026-12-03 to 2026-12-10", "2026-12-03RRULE:...", nights "3+1", a guest
    "me@corp.example,ana@corp.example")?"""
    text = value.strip()
    if not text:
        return False
    if _DAY_FIELD.match(arg) and _A_DAY.search(text.replace("T", " ")):
        return not _ONE_DAY.fullmatch(text)
    if _DAY_FIELD.match(arg) and re.match(r"\d{4}-\d{1,2}-\d{1,2}\b", text):
        return True  # "2026-12-3": no day as a field holds one
    if _COUNT_FIELD.match(arg):
        return not re.fullmatch(r"\d+(?:\.\d+)?", text)
    if _ONE_ADDRESS_FIELD.match(arg) and "@" in text:
        return text.count("@") > 1 or not _AN_ADDRESS.fullmatch(text)
    digit = any(c.isdigit() for c in text)
    if _PLACE_FIELD.match(arg):
        return digit
    if _CODE_FIELD.match(arg):  # a postcode has a figure, ten signs at most ("12345-6789")
        return not digit or len("".join(text.split())) > 10
    if _STREET_FIELD.match(arg):
        return text.replace(" ", "").isdigit()
    return False


def _of_someone_of_mine(objects: Sequence[str], stated: str) -> list[str]:
    """Whose the mandate writes its object to be where that is someone of the user's, not the user
    ("my mum's address", "the address of my landlord", "my son's password")."""
    if not objects:
        return []
    nouns = "|".join(re.escape(o) for o in sorted(objects, key=len, reverse=True))
    found = re.findall(rf"(?i)\bmy\s+([^\W\d_]+)['’]s?\s+(?:[^\W\d_]+\s+){{0,2}}?(?:{nouns})\b", stated)
    found += re.findall(rf"(?i)\b(?:{nouns})\s+of\s+my\s+([^\W\d_]+)\b", stated)
    return found


#: Words between a mandate's verb and its object's head noun that leave the object what it is.
_BEFORE_THE_HEAD = frozenset(
    {"a", "an", "the", "my", "our", "this", "that", "new", "another", "one-off", "one-time", "single",
     "once-off", "quick", "small", "same", "usual", "regular", "up"}
)  # fmt: skip


def _words_asking_for(asked: Requested) -> set[str]:
    return {
        w for phrase in [*asked.keywords, *asked.verbs, *asked.objects] for w in phrase.casefold().split()
    }


def _for_another_tool(
    tool: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    stated: str,
    policy_words: PolicyWords,
    record_texts: Sequence[str] = (),
) -> list[str]:
    """The object's head noun of a mandate for ``tool`` ("Create a one-off *payment* of 150 to Bob",
    "Set up *paying* Bob") where it is a form of a word another side-effect tool of the policy is
    named or asked for by (``send_payment``: "pay") and of none of ``tool``'s own: that tool's
    mandate, not this one's. A head the call's own values hold names its record ("Restart
    payments")."""
    if asked is None:
        return []
    own_words = _words_asking_for(asked) | set(re.split(r"[_\W]+", tool.casefold()))
    others = {w for w in policy_words.of_others(tool) if len(w) >= 3} - own_words
    values = {w.casefold() for v in args.values() if isinstance(v, str) for w in re.findall(r"[\w'’-]+", v)}
    named = {
        w.casefold() for text in record_texts if len(text.split()) <= 4 for w in re.findall(r"[\w'’-]+", text)
    }
    found = []
    for part in stated.split(" | "):
        words = re.findall(r"[\w'’-]+", part.casefold())
        at = next((i for i, w in enumerate(words) if w in own_words), None)
        if at is None:
            continue
        # the object's noun phrase: up to a preposition, a conjunction or a figure
        phrase = list(
            itertools.takewhile(lambda w: w not in _AFTER_THE_OBJECT and w[:1].isalpha(), words[at + 1 :])
        )
        phrase = [w for w in phrase if w not in _BEFORE_THE_HEAD]
        if (
            not phrase
            and words[at] in _VERBS_OF_ANY_KIND
            and words[at + 1 : at + 2]
            and words[at + 1][:1].isdigit()
        ):
            # a figure for its object ("Add 150 to Bob"): the kind of action is said by none of
            # the tool's own nouns ("standing order") nor a recurring word, another tool's to read
            kind = set(re.split(r"[_\W]+", tool.casefold())) - _words_asking_for(asked) - _WHAT_A_FIGURE_IS
            if (
                kind
                and not any(_a_form_of(w, k) for w in words for k in kind)
                and not _RECURRING & set(words)
            ):
                found.append(words[at])
            continue
        if any(_a_form_of(w, o) for w in phrase for o in own_words) or _RECURRING & set(phrase):
            continue  # a word of its own ("my email forwarding"), a recurring one ("a monthly transfer")
        # a word of a record's name ("the board meeting") names the record, not a kind of action
        phrase = [w for w in phrase if w not in named]
        # its head, the phrase's last word ("a one-off *payment*"), not a possessor's thing
        # ("checkout-api's deployment") nor the record the call acts on ("Restart payments")
        head = phrase[-1] if phrase and not any(re.search(r"['’]s?$", w) for w in phrase) else ""
        # nor the kind of record an argument of the call names ("Extend my Kaiserhof booking":
        # ``booking_id``)
        kinds = {w for a in args for w in re.split(r"[_\W]+", a.casefold()) if len(w) > 2}
        if head and head not in values and head not in kinds and any(_a_form_of(head, o) for o in others):
            found.append(head)
    return found


#: Verbs that say no kind of action of their own ("Add 150 to Bob": a standing order, a payment?).
_VERBS_OF_ANY_KIND = frozenset(
    {"add", "create", "set", "make", "put", "do", "schedule", "start", "arrange", "setup"}
)
#: What a figure is itself ("move_money": "Move 500 to savings" says its kind).
_WHAT_A_FIGURE_IS = frozenset({"money", "cash", "funds", "amount", "sum", "value", "number", "count"})
#: Words that make an object a recurring one ("a monthly transfer" is a standing order).
_RECURRING = frozenset(
    {"monthly", "weekly", "daily", "yearly", "annual", "annually", "quarterly", "recurring", "regular",
     "repeating", "repeat", "standing", "automatic", "every"}
)  # fmt: skip


#: Words that end the object's noun phrase ("a payment *of* 150 *to* Bob").
_AFTER_THE_OBJECT = frozenset(
    {"of", "to", "for", "with", "from", "on", "at", "in", "into", "and", "or", "by", "that", "which",
     "called", "named", "about", "via", "per", "so", "then", "please"}
)  # fmt: skip


def _a_form_of(word: str, stem: str) -> bool:
    """Is ``word`` ``stem`` or a form of it ("payment", "paying", "pays" of "pay")?"""
    rest = word[len(stem) :] if word.startswith(stem) else None
    return rest in ("", "s", "es", "ing", "ment", "ments")  # not "-ed": "my booked hotel" is a hotel


def _the_commands_words(args: Mapping[str, Any], asked: Requested | None) -> list[str]:
    """The field values of the call that are the command's own words, not a value it gives: only
    function words ("my"), or the words it is asked by with a verb among them ("Change my
    address")."""
    if asked is None:
        return []
    verbs = {w for phrase in [*asked.keywords, *asked.verbs] for w in phrase.casefold().split()}
    own = _words_asking_for(asked)
    found = []
    for arg, value in args.items():
        if not isinstance(value, str) or _FREE_TEXT.search(arg):
            continue
        if not re.fullmatch(r"[^\W\d_]+(?:\s+[^\W\d_]+)*", value.strip()):
            continue  # a figure or a code ("A-5521") is written, not a command's word
        words = value.casefold().split()
        if all(w in FUNCTION_WORDS for w in words) or (
            all(w in FUNCTION_WORDS or w in own for w in words) and any(w in verbs for w in words)
        ):
            found.append(arg)
    return found


def _someone_else_beside(
    named: set[str], record: Mapping[str, Any], names: Sequence[set[str]], request: str
) -> list[str]:
    """The words beside a record's name in ``request`` that make it another person's: a capitalised
    word after the first word of its name of two or three words that is not its second, nor a word
    of another record, a day or a month ("Ana *Lopez*" for Ana Silva, "Bob *Leeds*" for Bob Lee);
    or a relation after a possessive of its name ("Bob's *wife*", "Ana's *assistant*")."""
    others = set().union(*names) if names else set()
    found = []
    full = [
        v.split()
        for v in record.values()
        if isinstance(v, str) and re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z]+){1,2}", v)
    ]
    for first, second, *_ in full:
        if first.casefold() not in named:
            continue
        for m in re.finditer(rf"(?<![\w-]){re.escape(first)}\s+([A-Z][a-z]+)\b", request):
            after = m.group(1)
            plain = after.casefold()
            if (
                after != second
                and plain not in others
                and plain not in FUNCTION_WORDS
                and plain not in CALENDAR_NAMES
            ):
                found.append(after)
    for word in (w for w in named if w.isalpha()):  # a person's name, not an order's id
        for m in re.finditer(rf"(?i)(?<![\w-]){re.escape(word)}['’]s\s+([\w-]+)", request):
            if m.group(1).casefold() in RELATIONS:
                found.append(f"{word}'s {m.group(1)}")
    return found


#: A limit the turn puts on how long or how often ("for one month only", "for 3 months", "until
#: March", "only this month").
_A_LIMIT = re.compile(
    rf"(?i)\bfor\s+(?:the\s+next\s+)?(?:\d+|an?|one|{NUMBER_IN_WORDS})\s+(?:months?|weeks?|years?|payments?|"
    rf"times?|instal?ments?|transfers?)\b|\b(?:until|till|ending)\s+(?:the\s+)?(?:end\s+of\s+)?\w+"
    rf"|\b(?:just|only)\s+(?:this\s+(?:month|week|year)|for\s+\w+)"
)
#: The names of arguments that may keep such a limit (``end_date``, ``count``, ``until``).
_A_LIMIT_ARG = re.compile(
    r"(?i)end|until|count|times|months|weeks|years|duration|limit|instal|last|occurrences|repeat"
)


def _limit_not_kept(args: Mapping[str, Any], stated: str) -> list[str]:
    """A limit the mandate puts on how long or how often ("Add a standing order of 150 to Bob for
    one month only") that no argument of the call may keep (it has no end, count or duration, nor a
    count in a unit of time): made as it is, the call runs without it."""
    found = _A_LIMIT.search(stated)
    if found is None or any(
        _A_LIMIT_ARG.search(arg)
        or any(UNIT_OF.get(w) for w in re.split(r"[_\W]+", arg.casefold()) if len(w) > 2)
        for arg in args
    ):
        return []
    return [found.group(0)]


def _in_another_unit(arg: str, value: Any, stated: str) -> bool:
    """Does a number whose argument counts in a unit of time ("minutes", "nights") take a figure
    the mandate writes in another ("1 hour", "2 days", "a week"), or one other than the figure it
    writes in that unit ("15 minutes for the 2 meetings" as 2, "1 hour and 15 minutes" as either,
    "a single night" as 2), or one it gives no figure for ("Book Casa Azul" for 2 nights, "from
    Dec 1 to Dec 4": the agent's count) or a figure of no unit ("for 2": nights, people?)?"""
    if not is_number(value) or isinstance(value, bool):
        return False
    unit = next(
        (u for w in re.split(r"[_\W]+", arg.casefold()) if (u := UNIT_OF.get(w)) and len(w) > 2), None
    )
    if unit is None:
        return False
    written = counts_written(stated)
    timed = [(figure, u) for figure, u in written if u is not None]
    if not timed:
        # no count written; days from one to another ("Dec 1 to Dec 4") counted by the agent, or
        # none given at all ("Book Casa Azul" for 2 nights), or a figure only a day's ("from 3 to
        # 9 December" as 3 nights): the agent's count
        if STRETCH.search(stated) is not None:
            return True
        # a figure that counts something else ("for 2 people", "3 rooms", "2 adults"): no count of
        # the unit at all
        if _A_COUNT_OF_ANOTHER_THING.search(stated):
            return True
        # a bare figure ("Book Casa Azul for 2", "book a massage for 2") counts nights, people or
        # sessions: which is not written, so no count of the unit is either
        return True
    own = [figure for figure, u in timed if u == unit]
    if len({u for _, u in timed}) > 1 or COUNT_ADDED.search(stated) or _A_DIFFERENCE.search(stated):
        # a time written in two units ("1 hour and 15 minutes"), added to, or a difference ("5
        # minutes longer", "by 10 minutes"): the sum is the agent's
        return True
    return amount_value(value) not in own


#: A figure that says by how much, not how much ("5 minutes longer", "2 nights fewer", "by 10").
_A_DIFFERENCE = re.compile(
    r"(?i)\b\d+(?:[.,]\d+)?\s*(?:[^\W\d_]+\s+)?(?:longer|shorter|later|earlier|more|less|fewer|extra|further"
    r"|farther|on\s+top\s+of|in\s+addition\s+to|added\s+to)\b"
    r"|\bby\s+(?:an?\s+|\d+(?:[.,]\d+)?\s*)[^\W\d_]*"
)


def _another_day_written(args: Mapping[str, Any], stated: str) -> list[str]:
    """A day argument (``2026-12-01``) that is none of the days the mandate writes for it ("on
    2026-11-24", "on December 3rd", "on Friday the 27th", "the 28th"): another day than the turn's.
    A day the turn says otherwise ("tomorrow", "my flight's day") is not read here."""
    said: list[tuple[str, re.Match[str]]] = [
        (kind, m)
        for kind, p in DAYS_SAID
        for m in p.finditer(stated)
        if not an_anchor(stated, m.start())
        and not re.match(
            r"(?i)\s+(?:following|after|before|preceding|prior\s+to|ahead\s+of)\b", stated[m.end() :]
        )
        and not _COUNTED_ON.match(stated[m.end() :])
    ]
    # a day the turn counts from ("the Thursday following 2026-12-03", "the eve of 3 Dec 2026") is
    # no day written; nor a date a weekday beside it contradicts ("on Friday 2026-12-03", a Thursday)
    counted_from = _COUNTED_ON_A_DAY.sub(" ", without_days_counted_from(stated))
    contradicted = said_on_another_weekday(said)
    # where the mandate gives the call its day ("on 2026-12-03"), a day written otherwise is of
    # something else ("... to prepare for the 2026-12-04 flight")
    given = {
        d
        for m in re.finditer(rf"(?i)\b(?:on|for)\s+(?=\d|{MONTH}|{WEEKDAY})", counted_from)
        for d in dates(counted_from[m.end() : m.end() + 30])
    }
    written = {d for d in dates(counted_from) if d not in contradicted}  # "27.11.2026", "26 Nov 2026"
    said = [(kind, m) for kind, m in said if not (kind == "date" and m.group(0) in contradicted)]
    if not said and not written and not dates(stated) and not any(p.search(stated) for _, p in DAYS_SAID):
        return []
    found = []
    for arg, value in args.items():
        if not isinstance(value, str) or not _A_DAY.match(value.strip()) or _AN_ID_ARG.search(arg):
            continue
        try:
            day = date.fromisoformat(value.strip()[:10])
        except ValueError:
            continue
        not_written = day.isoformat() not in written and not any(is_the_day(day, kind, m) for kind, m in said)
        if not_written or (given and day.isoformat() not in given and all(d in written for d in given)):
            found.append(arg)
        elif sum(1 for a, v in args.items() if isinstance(v, str) and _A_DAY.match(v.strip())) == 1 and (
            STRETCH.search(counted_from) is not None
        ):
            found.append(arg)  # one day of a stretch the turn writes ("from 2026-12-03 to 2026-12-09")
    return found


#: A figure counting something that is no unit of time ("2 people", "three rooms", "2 adults").
_A_COUNT_OF_ANOTHER_THING = re.compile(
    rf"(?i)\b(?:\d+|an?|one|{NUMBER_IN_WORDS})\s+(?:\w+\s+)?(?:rooms?|guests?|people|persons?|adults?|children|"
    r"kids?|seats?|tickets?|beds?|pax|tables?|spots?|places?)\b"
)
#: A count of days added on to a day ("2026-12-01 plus one week", "Dec 1 + 3 days"): the day
#: is counted from, the sum the agent's to work out.
_COUNTED_ON = re.compile(
    rf"(?i)\s*(?:plus|\+|and)\s+(?:\d+|an?|one|{NUMBER_IN_WORDS})\s+(?:days?|weeks?|nights?|months?)\b"
)
_COUNTED_ON_A_DAY = re.compile(rf"\d{{4}}-\d{{2}}-\d{{2}}{_COUNTED_ON.pattern.removeprefix('(?i)')}", re.I)
#: An address (``ana@corp.example``): what a person is reached, invited or booked by.
_AN_ADDRESS = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
#: Two or more addresses packed in one text ("ana@corp.example, bob@corp.example").
_ADDRESSES_PACKED = re.compile(r"[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+(?:\s*[,;]\s*[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+)+")
#: A relation noun, or a guest, before a person's name ("my guest Carl", "my colleague Ana").
_A_RELATION = "|".join(sorted(RELATIONS | ROLES))
#: The user named as a party in the first person ("for me", "under my name", "my stay", "I'm
#: staying"); not "my" of another person or thing ("my guest Carl", "my wife", "on my card"), nor
#: the user as who asks ("I need a room for Bob").
_FIRST_PERSON = re.compile(
    r"(?i:\b(?:me|myself|us|ourselves)\b|\b(?:my|our)\s+(?:own\s+)?(?:name|room|rooms|stay|trip|booking|"
    r"reservation|self)\b)"
    r"|\bI(?:['’]m|\s+am|['’]ll|\s+will)?\s+(?:(?i:be)\s+)?(?i:stay(?:ing)?|travel(?:l?ing)?|arriv(?:e|ing)|"
    r"go(?:ing)?|visit(?:ing)?|need\s+(?:a\s+)?room)\b"
)
#: Another person the mandate books or invites by their relation to the user or a role ("for my
#: wife", "for a client", "for our new hire", "on behalf of a colleague").
_ANOTHER_BY_RELATION = re.compile(
    rf"(?i)\b(?:for|under|book|invite|behalf\s+of)\s+(?:my|our|a|an|the|one\s+of\s+(?:my|our))\s+"
    rf"(?:new\s+|visiting\s+|external\s+)?(?:{_A_RELATION})\b"
)
#: A trip or a stay the turn says is another person's ("— Bob's trip", "for Ana's visit").
_SOMEONE_ELSES_TRIP = re.compile(
    r"(?<![\w'’-])(?!(?:My|Our)\b)[A-Z][^\W\d_]+['’]s\s+(?:trip|travel|travels|visit|stay|room|booking|"
    r"reservation|conference|offsite|holiday|vacation|journey)\b"
)
#: Another person the mandate books or invites by a pronoun ("Book him into ...", "for her").
_ANOTHER_BY_PRONOUN = re.compile(
    r"(?i)(?:^\s*[\w'’-]+\s+|\b(?:for|to|with|under|invite|and)\s+)(?:him|her)\b(?!\s+\w+['’]s)"
)
#: A list argument of people, read as one even when empty (``attendees=[]``).
_PEOPLE_ARG = re.compile(
    r"(?i)(?:^|_)(?:attendees?|guests?|invitees?|participants?|recipients?|members?|people|to|cc|bcc)$"
)


def _people_named(
    stated: str,
    context: ReviewContext,
    policy: SupervisorPolicy,
    party: Callable[[str, str], bool] | None = None,
) -> list[tuple[str, set[str]]]:
    """The people the mandate names as parties by a record of a trusted listing that holds their
    address ("for Ana", "with Ana and Bob", "Book Ana into ...", "under Ana's name"), each as the
    word that names them and their record's addresses; not one it names as another's owner ("Bob's
    feedback") nor one the record names no one by. With ``party`` (a test of a word in ``stated``)
    the people it names that way, by a record that is a person's (its own address under an
    address's key: a contact, a mail's sender; not a file by its owner's)."""
    trusted = set(policy.trusted_tools())
    said = {_plain_value(w) for w in re.findall(r"[\w-]+", stated)}
    found: list[tuple[str, set[str]]] = []
    # whoever an address of the run is ("Carl" of carl@partner-firm.example, an invitation's
    # attendee): named only to ask on, never to admit
    own = {_plain_value(v) for v in leaves(context.subject) if isinstance(v, str)}
    seen = {
        _plain_value(v)
        for call in context.calls
        for v in leaves(call.get("observation"))
        if isinstance(v, str) and _AN_ADDRESS.fullmatch(v.strip()) and _plain_value(v) not in own
    }
    for address in sorted(seen):
        for word in sorted(set(address_words(address)) & said - FUNCTION_WORDS):
            if (party or _a_party)(word, stated):
                found.append((word, {address}))
    for call in context.calls:
        observation = call.get("observation")
        if call.get("tool") not in trusted or not isinstance(observation, list) or len(observation) < 2:
            continue
        records = [r for r in observation if isinstance(r, Mapping)]
        for record, names in zip(records, _names_of_records(records), strict=True):
            addresses = {
                _plain_value(v)
                for k, v in record.items()
                if isinstance(v, str)
                and _AN_ADDRESS.fullmatch(v.strip())
                and (party is None or _OWN_ADDRESS_KEY.match(str(k)))
            }
            for word in sorted(names & said) if addresses else ():
                if (party or _a_party)(word, stated):
                    found.append((word, addresses))
    return found


#: The key a person's own record holds their address under (a contact's, a mail's sender's).
_OWN_ADDRESS_KEY = re.compile(r"(?i)^(?:e-?mail|email_?address|address|from|sender)$")


def _mentioned(word: str, text: str) -> bool:
    """Is ``word`` written in ``text`` as a person, not only as whose a thing is ("Ana Silva's
    survey email")?"""
    w = re.escape(word)
    return any(
        not re.match(r"(?:\s+[A-Z][\w-]*)?['’]s\b", text[m.end() :])
        for m in re.finditer(rf"(?i)(?<![\w-]){w}(?![\w-])", text)
    )


def _a_party(word: str, stated: str) -> bool:
    """Is ``word`` written as a party of the mandate: after its verb or a preposition of parties
    ("w/ Bob" too), in a list of them (a part of the mandate of its own: "with Ana | Bob"), as whose
    name ("under Ana's name") or as who gets what it gives ("Bob gets budget-2027.xlsx"), not as
    another's owner ("Bob's")?"""
    w = re.escape(word)
    for part in stated.split(" | "):
        if re.search(
            rf"(?i)\b{w}['’]s\s+name\b|^\s*(?:and\s+|&\s*)?{w}(?:\W*$|\s+(?:on|at|in|for|to|from|too|as)\b)"
            rf"|^\s*{w}\s+(?:{_RECEIVES})\b",
            part,
        ):
            return True  # "under Ana's name", an item of a list ("with Ana | Bob on 2026-12-03")
        if re.search(
            rf"(?i)(?:^\s*[\w'’-]+\s+|(?:\b(?:for|to|with|under|cc|bcc|invite|and|both|plus|including|"
            rf"as\s+well\s+as|along\s+with|together\s+with|alongside|behalf\s+of|attendees?\s*:|guests?\s*:)|&|\bw/)\s*"
            rf"|\b(?:{_A_RELATION})\s+)"
            rf"(?:(?:dr|mr|mrs|ms|mx|prof)\.?\s+)?{w}(?![\w'’-])(?!['’]s?\b)",  # "with Dr. Esi Boateng"
            part,
        ):
            return True
    return False


#: Verbs whose subject at the head of a part receives what the mandate gives ("Bob gets
#: budget-2027.xlsx, Priya gets salaries-2026.xlsx. Share them."): a party.
_RECEIVES = r"gets?|receives?|should\s+(?:get|have|receive)|is\s+to\s+(?:get|have|receive)"


def _the_user_for_another(
    args: Mapping[str, Any], stated: str, context: ReviewContext, named: Sequence[tuple[str, set[str]]]
) -> list[str]:
    """An argument given the user's own address where the mandate names another person as the
    party and not the user ("Book Casa Azul for Ana" with the user as the guest)."""
    own = {
        _plain_value(v)
        for v in leaves(context.subject)
        if isinstance(v, str) and _AN_ADDRESS.fullmatch(v.strip())
    }
    another = (
        named
        or _ANOTHER_BY_PRONOUN.search(stated)
        or _ANOTHER_BY_RELATION.search(stated)
        or _SOMEONE_ELSES_TRIP.search(stated)
    )
    if not own or not another or _FIRST_PERSON.search(stated):
        return []
    if any(_written_whole(v, stated) for v in leaves(context.subject) if isinstance(v, str) and v.strip()):
        return []  # the user's name or address written
    return [
        arg
        for arg, value in args.items()
        if isinstance(value, str) and _plain_value(value) in own and _side_of(arg) != "from"
    ]


def _anyhow(word: str, text: str) -> bool:
    """Any way a turn writes a person: as a party, an owner, a subject of its own, in a greeting."""
    return True


def _not_a_party(b: Binding) -> list[str]:
    """A person's address the call books, invites or sends to (a list's items each) where the turn
    names that person, but not as a party of the call: "Ana says Casa Azul is lovely. Book it for
    me" with Ana as the guest, "Create the event and tell Bob about it" inviting Bob. A person the
    mandate points back to by a pronoun ("Bob needs a room. Book him in") is its party."""
    people = b.people
    if not people or (_ANOTHER_BY_PRONOUN.search(b.own) and not _FIRST_PERSON.search(b.own)):
        return []
    ours = b.words.of.get(b.tool, frozenset())
    # a person the mandate only tells is no party of a call no verb of telling asks for ("Create
    # the event with Ana and let Bob know")
    # nor one the turn only quotes ("My colleague Ana loved Casa Azul. Book it for me")
    quoted = rf"(?i)(?:\b(?:my|our)\s+(?:{_A_RELATION})\s+)?\b[\w'’-]+\s+(?:{_SAYS})\b[^.;!?|]*"
    untold = re.sub(
        rf"(?i)\b(?:{_TELLS})\s+",
        # (a mark, not a space: "thank ana and book ..." leaves no "ana" of its own, a list's item)
        lambda m: m.group(0) if m.group(0).split()[0].casefold() in ours else " — ",
        re.sub(quoted, " ", b.own),
    )
    parties = set().union(*(addresses for word, addresses in b.named if _a_party(word, untold)))
    # a person by their own name, not every address a record the turn names holds (an event's):
    # with the user the party ("for me"), any; else one the turn only tells or quotes ("tell Bob",
    # "Ana says ..."), by a verb that asks for no call of this tool
    user = _THE_USER_A_PARTY.search(b.own) is not None

    def told(word: str, text: str) -> bool:
        w = re.escape(word)
        quoted = re.search(rf"(?i)\b{w}\s+(?:{_SAYS})\b", text)
        telling = [m.group(1).casefold() for m in re.finditer(rf"(?i)\b({_TELLS})\s+{w}\b", text)]
        return quoted is not None or any(v not in ours for v in telling)

    request = b.context.request
    # any way the turn names them ("ana is in Lisbon", "for a friend of Ana", "Ana's idea"), but by
    # their address written whole (a value given: "with ana and bob@corp.example") only told or quoted
    named = (
        b.in_the_turn
        if user
        else [
            (word, addresses)
            for word, addresses in _people_named(request, b.context, b.policy, party=_anyhow)
            if told(word, request) or not any(_written_whole(a, request) for a in addresses)
        ]
    )
    mentioned = set().union(*(a for _, a in named if len(a) == 1))
    # whom a message goes to is whoever the turn tells ("let Bob know ...": the mail to Bob)
    return [
        key
        for key, plain in people.items()
        if plain in mentioned and plain not in parties and (user or not _A_RECIPIENT.match(key))
    ]


#: The user as the party of the call itself ("Book it for me", "book me in", "under my name"), not
#: as who asks or is asked ("Ana asked me to ...").
_THE_USER_A_PARTY = re.compile(
    r"(?i)\b(?:for|book|under|reserve|invite|add)\s+(?:me|myself|us|ourselves)\b|\b(?:me|us)\s+(?:in|into)\b"
    r"|\b(?:my|our)\s+(?:own\s+)?(?:name|room|stay|booking|reservation)\b"
)
_A_RECIPIENT = re.compile(r"(?i)^(?:to|cc|bcc|recipients?)(?:\[\d+\])?$")
#: A person quoted ("Ana says ...", "Bob recommended ..."), or told ("tell Bob", "let Ana know").
_SAYS = (
    "says|said|recommends|recommended|suggests|suggested|mentions|mentioned|writes|wrote|thinks|thought|"
    "likes|liked|loves|loved|told\\s+me|asked\\s+me|prefers|preferred|reckons"
)
_TELLS = "tell|let|inform|notify|remind|thank|ask|update|warn|ping"
#: Ordinals a turn picks an item of a listing by, and the place each names ("another": none).
_ORDINAL_PLACE = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5,
    "5th": 5, "other": 0, "another": 0,
}  # fmt: skip
_ORDINALS = "|".join(_ORDINAL_PLACE)
#: Verbs of having been somewhere or used something ("the hotel Bob stayed at"): said by a record
#: of theirs, or not at all.
_STAYED = "stayed|stays|used|uses|booked|picked|chose|went\\s+to|visited"


def _pointed_back_among_several(b: Binding) -> list[str]:
    """A person the mandate points back to by a pronoun ("email him", "book her in") where the turn
    names several people it may point to ("Bob and Priya: email him" to Priya): which one, the
    reader cannot tell."""
    if not re.search(r"(?i)\b(?:him|her)\b", b.own):
        return []
    people = b.people  # "him" or "her" is never the user
    if not people:
        return []
    everyone = [a for _, a in b.in_the_turn if len(a) == 1 and not a & b.user]
    several = set().union(*everyone) if len({frozenset(a) for a in everyone}) > 1 else set()
    # named by name beside the pronoun itself ("email Priya, not him") is named, not pointed to
    beside = " | ".join(p for p in b.own.split(" | ") if re.search(r"(?i)\b(?:him|her)\b", p))
    by_name = set().union(*(a for w, a in b.named if re.search(rf"(?i)\b{re.escape(w)}\b", beside)))
    return [key for key, plain in people.items() if plain in several and plain not in by_name]


def _named_and_left_out(args: Mapping[str, Any], named: Sequence[tuple[str, set[str]]]) -> list[str]:
    """The people the mandate names as parties that a list of addresses of the call leaves out
    ("with Ana and Bob" as ``attendees=[ana@...]``), by the word that names them."""
    lists = [
        v
        for arg, v in args.items()
        if isinstance(v, list)
        and all(isinstance(x, str) and _AN_ADDRESS.fullmatch(x.strip()) for x in v)
        and (v or _PEOPLE_ARG.search(arg))
    ]
    if not lists:
        return []
    given = {_plain_value(x) for v in lists for x in v}
    return list(dict.fromkeys(word for word, addresses in named if not addresses & given))


#: An argument that holds what a record is called (an event's title).
_A_TITLE_ARG = re.compile(r"(?i)^(?:title|name|summary)$")
#: A title the mandate gives: "called X", "named X", "an event X", "a X meeting" (X capitalised
#: or a figure, as titles are written: "Lunch", "1:1", "Trip prep").
_TITLED = (
    re.compile(r"(?i:\b(?:called|named|titled|entitled)\s+)['\"‘“]?(?P<t>[^\s'\"’”,.;!?]+(?:\s+(?!(?i:on|at|with|for|to|from|in|and|tomorrow|today)\b)[^\s'\"’”,.;!?]+)*)"),
    re.compile(r"(?i:\b(?:an?\s+)?(?:event|meeting|appointment|entry)\s+)(?P<t>[A-Z0-9][\w:'’&-]*(?:\s+(?!(?i:on|at|with|for|to|from|in|and)\b)[\w:'’&-]+)*?)(?=\s+(?i:on|at|with|for|to|from|in|and)\b|\s*[,.;!?]|\s*$)"),
    re.compile(r"(?i:\b(?:an?|the)\s+)(?P<t>[A-Z0-9][\w:'’&-]*)(?=\s+(?i:event|meeting|appointment)\b)"),
)  # fmt: skip


def _titled_otherwise(args: Mapping[str, Any], stated: str) -> list[str]:
    """A title argument that leaves out words of the title the mandate gives the record ("Create
    an event Lunch ..." as title "Casa Azul"); words it adds ("Lunch with Ana") are the agent's."""
    told = [m["t"] for p in _TITLED for m in p.finditer(stated)]
    if not told:
        return []
    return [
        arg
        for arg, value in args.items()
        if _A_TITLE_ARG.match(arg)
        and isinstance(value, str)
        and not any(
            set(re.findall(r"[\w:'’&-]+", t.casefold())) <= set(re.findall(r"[\w:'’&-]+", value.casefold()))
            for t in told
        )
    ]


def _named_by_another(args: Mapping[str, Any], stated: str, context: ReviewContext) -> list[str]:
    """What the mandate writes of another record of the listings the call's id is held in (a
    tool's records over all its calls): a longer
    name of another record holding the one the id's record is named by ("Delete the budget
    review" with ``ev-2``, the Review, where ``ev-4`` is the Budget review), or a person "with"
    whom another record is and the id's is not ("Delete the review with Carl")."""
    values = _ids_of(args)
    withs = {
        w.casefold()
        for listed in re.findall(
            r"(?i)\bwith\s+([^\W\d_]+(?:(?:\s*,\s*|\s+and\s+|\s*\|\s*)[^\W\d_]+)*)", stated
        )
        for w in re.findall(r"[^\W\d_]{3,}", listed)
    } - FUNCTION_WORDS
    # a party of the call itself ("Share f-1 with Ana" to ana@...), not a qualifier of its record
    withs -= {
        x.casefold()
        for a, v in args.items()
        if not _AN_ID_ARG.search(a)
        for leaf in leaves(v)
        if isinstance(leaf, str)
        for x in address_words(leaf)
    }
    found: list[str] = []
    listings: dict[str, list[Mapping[str, Any]]] = {}  # a tool's records over all its calls (each day's)
    for call in context.calls if values else ():
        observation = call.get("observation")
        listings.setdefault(str(call.get("tool")), []).extend(
            r for r in (observation if isinstance(observation, list) else []) if isinstance(r, Mapping)
        )
    for records in listings.values():
        for value in values:
            holding = [i for i, r in enumerate(records) if value in _plain_values(r)]
            if len(holding) != 1:
                continue
            names = [
                {" ".join(v.casefold().split()) for v in leaves(r) if isinstance(v, str) and "@" not in v
                 and 0 < len(v.split()) <= 4 and _written_whole(v, stated)}
                for r in records
            ]  # fmt: skip
            own = names[holding[0]]
            found += [
                longer
                for i, theirs in enumerate(names)
                if i != holding[0]
                for longer in theirs
                if any(longer != name and _written_whole(name, longer) for name in own)
            ]
            people = [
                {x.casefold() for v in leaves(r) if isinstance(v, str) and _AN_ADDRESS.fullmatch(v.strip())
                 for x in address_words(v)}
                for r in records
            ]  # fmt: skip
            found += sorted(
                w
                for w in withs - people[holding[0]]
                if any(w in p for i, p in enumerate(people) if i != holding[0])
            )
    return list(dict.fromkeys(found))


#: Words that give a day without writing it ("tomorrow", "next week", "in two weeks", "the day
#: after").
_A_DAY_OTHERWISE = re.compile(
    r"(?i)\b(?:today|tonight|tomorrow|yesterday|weekend|week|weeks|month|months|days?|morning|"
    r"afternoon|evening|noon|midnight|christmas|easter|new\s+year)\b"
)


def _a_day_not_given(args: Mapping[str, Any], stated: str, request: str, context: ReviewContext) -> list[str]:
    """A day argument where the turn gives no day at all, in any words, nor names a record that
    holds it ("Create an event Lunch with Ana" on 2026-12-01, the day of a booking): the agent's
    day, not the user's. A record the turn names gives its day ("Add my Casa Azul check-in", "on
    my Berlin flight day"); a day in words no record holds ("tomorrow") is not read here."""
    days = [
        arg
        for arg, value in args.items()
        if isinstance(value, str) and _A_DAY.fullmatch(value.strip()[:10]) and not _AN_ID_ARG.search(arg)
    ]
    if not days or dates(request) or any(p.search(request) for _, p in DAYS_SAID):
        return []
    turn = {_plain_value(w) for w in re.findall(r"[\w-]+", request)}
    reached = _values_of_records_named(turn, context)
    if _A_DAY_OTHERWISE.search(request) and not any(_A_DAY.search(v) for v in reached):
        return []  # "tomorrow", "in two weeks": a day the reader does not work out
    # a day worked out from the record's ("my last day at Casa Azul", "the day after my flight"):
    # the agent's count, not the record's own day
    if _A_DAY_WORKED_OUT.search(request):
        return days
    # "on my Berlin flight day": the day of the record named, not another
    return [arg for arg in days if not _reached({_plain_value(args[arg][:10])}, reached)]


#: A day the turn works out from a record's day rather than names ("my last day at Casa Azul",
#: "the day after my flight", "check-out day"): the agent's count.
_A_DAY_WORKED_OUT = re.compile(
    r"(?i)\b(?:last|final|closing|end(?:ing)?|check-?out|departure|leaving|next|previous|following)\s+(?:\w+\s+)?days?\b|"
    r"\bdays?\s+(?:after|before|following|preceding)\b|\b(?:eve|end)\s+of\b"
)


#: Words before a name that greet or address someone, or make them the call's party ("Hi Sam",
#: "share it with Ana"): a person, not a thing the call acts on.
_GREETED = "hi|hello|hey|dear|thanks|thank\\s+you|with|to|for|cc|under"
#: What is no record's own word in a mandate's object: a month or a weekday, the first person.
_NOT_A_RECORDS_WORD = re.compile(
    rf"(?i)^(?:{MONTH}|{WEEKDAY}|i|i'm|i've|ok|okay|please|hi|hey|dr|mr|mrs|ms|mx|prof|rev)$"  # a title
)


def _not_of_the_record(
    tool: str,
    args: Mapping[str, Any],
    stated: str,
    context: ReviewContext,
    named: Sequence[tuple[str, set[str]]],
) -> list[str]:
    """The names the mandate writes, capitalised ("the Hilton", "Casa Verde", "Porto"), that no
    record of the run holds nor any call was asked with, where the call acts on a record by its id:
    the turn names a thing the run never found, and the call acts on another ("Book the Hilton" as
    ``h-12``, Casa Azul); a place it puts the thing in that neither the record nor the call that
    listed it holds ("a hotel in Berlin", of a Lisbon search); a figure it gives a field of the
    record that the record's differs from ("rating 5", rated 4.6). A code ("EUR"), a month or a
    weekday is no such name; people are weighed as parties, not here."""
    values = _ids_of(args)
    if not values:
        return []
    given = {w.casefold() for a, v in args.items() if isinstance(v, str) for w in re.findall(r"[^\W\d_]+", v)}
    capitalised = [
        w
        for part in stated.split(" | ")
        for sentence in re.split(r"[.!?:;]\s+|\n", part)
        for w in re.findall(r"(?<![\w'’-])[A-Z][^\W\d_]+(?![\w'’-])", " ".join(sentence.split()[1:]))
        if not _NOT_A_RECORDS_WORD.match(w) and not (w.isupper() and len(w) <= 4)
        and not re.search(rf"(?i)\b(?:{_GREETED})\s+{w}\b", sentence)
        and w.casefold() not in given | {word for word, _ in named}
    ]  # fmt: skip
    # the record acted on, and what the call that listed it was asked ("search_hotels(city=Lisbon)")
    acted_on = _records_acted_on(values, context)
    if not acted_on:
        return []
    found = []
    if capitalised:  # a name of no record the run read, nor of any call's arguments, nor the user's
        seen = {
            w.casefold()
            for v in [
                *(
                    x
                    for call in context.calls
                    for x in [*leaves(call.get("observation")), *leaves(call.get("args"))]
                ),
                *leaves(context.subject),
            ]
            if isinstance(v, str)
            for w in re.findall(r"[^\W\d_]+", v)
        }
        found = [w for w in capitalised if w.casefold() not in seen]
    # a place the turn puts it in that neither the record nor its listing's call holds ("Book a hotel
    # in Berlin" as Casa Azul, a hotel of the Lisbon search)
    held = {
        w.casefold() for r, asked in acted_on for v in [*leaves(r), *leaves(asked)] if isinstance(v, str)
        for w in re.findall(r"[^\W\d_]+", v)
    }  # fmt: skip
    # (or "the Berlin hotel", "near my Berlin flight": a place before the kind of thing it acts on)
    kinds = "|".join(
        w
        for a in [*args, tool]
        for w in re.split(r"[_\W]+", a.casefold())
        if len(w) > 2 and w not in ("book", "the")
    )
    found += [
        w
        for w in capitalised
        if w.casefold() not in held
        and re.search(
            rf"\b(?:in|near|around|by)\s+(?:(?:the|my|our|a|an)\s+)?(?:[\w'’-]+\s+)?{w}\b|\b{w}\s+(?:{kinds})\b",
            stated,
        )
    ]
    # an ordinal of a listing that puts the record elsewhere ("the second Lisbon hotel you found"
    # of a search that found one)
    for m in re.finditer(rf"(?i)\b({_ORDINALS})\s+(?:[\w'’-]+\s+){{0,2}}?(?:{kinds})\b", stated):
        places = {
            i + 1
            for call in context.calls
            if isinstance(call.get("observation"), list)
            for i, r in enumerate(call["observation"])
            if isinstance(r, Mapping) and values & _plain_values(r)
        }
        if _ORDINAL_PLACE.get(m.group(1).casefold(), 0) not in places:
            found.append(m.group(1))
    # its name with more after it ("Casa Azul II", "Casa Azul 2"): another of the name
    for record, _ in acted_on:
        for name in (v for v in record.values() if isinstance(v, str) and 0 < len(v.split()) <= 4):
            for m in re.finditer(
                rf"(?<![\w-])(?i:{re.escape(name)})\s+([IVX]{{1,4}}\b|\d+\b(?!\s*(?:-|[:.,]\d|(?i:{_A_COUNTED}))))",
                stated,
            ):
                if m.group(1) not in held:
                    found.append(m.group(1))
    # whoever the turn says recommended it ("the hotel Bob recommended") wrote no record that names it
    for m in re.finditer(rf"(?<![\w'’-])([A-Z][^\W\d_]+)\s+(?:{_SAYS}|{_STAYED})\b", stated):
        if not _of_a_record_by(m.group(1), acted_on, context):
            found.append(m.group(1))
    # a figure the turn gives one of its fields ("a hotel with rating 5" as Casa Azul, rated 4.6)
    for record, _ in acted_on:
        for key, value in record.items():
            if is_number(value) and not isinstance(value, bool):
                for m in re.finditer(rf"(?i)\b{re.escape(str(key))}\s+(?:of\s+)?(\d+(?:\.\d+)?)\b", stated):
                    if Decimal(m.group(1)) != amount_value(value):
                        found.append(str(key))
    return list(dict.fromkeys(found))


#: A record's field that names the person it is from, by or for (by a handle, an address).
A_PERSONS_FIELD = re.compile(r"(?i)from|author|sender|owner|assignee|by|creator|posted_by|created_by")
#: What a figure after a name may count ("Casa Azul 2 nights"): no part of the name.
_A_COUNTED = "|".join([*COUNT_NOUNS, *(w for words in UNITS.values() for w in words if len(w) > 2)])


#: Words of a mandate's object that name the record itself or no thing of its own: a kind of
#: record, a pointer to it ("the meeting", "it", "this one").
_THE_RECORD_ITSELF = frozenset(
    {"event", "events", "meeting", "meetings", "appointment", "entry", "booking", "reservation", "it",
     "this", "that", "one", "whole", "entire", "invite", "invitation", "calendar", "call", "session",
     "visit", "visits", "appointments", "bookings", "reservations"}
)  # fmt: skip


def _taken_from_the_record(
    tool: str, args: Mapping[str, Any], stated: str, context: ReviewContext
) -> list[str]:
    """The name of the record a call acts on by its id where the mandate takes something else out
    of it ("Remove Bob from the Review", "Take the budget item off the Review": Bob is removed, the
    Review stays) rather than acting on it ("Delete the Review from my calendar")."""
    values = _ids_of(args)
    acted_on = _records_acted_on(values, context) if values else []
    ids = {str(v).casefold() for v in values}
    names = {
        v.strip()
        for r, _ in acted_on
        for k, v in r.items()
        if isinstance(v, str)
        and 0 < len(v.split()) <= 4
        and not _AN_ID_ARG.search(str(k))
        and not A_PERSONS_FIELD.fullmatch(str(k))  # "the message m-502 from kwame": whose, not its name
        and not _A_DAY.search(v)
    }
    found = []
    # the record only as whose another thing is ("Delete ev-4's duplicate", "the Review's notes")
    # (not the record's own kind, "T-55's ticket", nor one of its fields, "ORD-1002's shipping fee")
    its_own = (
        FUNCTION_WORDS
        | _THE_RECORD_ITSELF
        | {w for r, _ in acted_on for k in r for w in re.split(r"[_\W]+", str(k).casefold())}
    )
    its_own |= {w for a in args for w in re.split(r"[_\W]+", a.casefold())} | set(
        re.split(r"[_\W]+", tool.casefold())
    )
    own_words = {w.casefold() for n in names for w in re.findall(r"[^\W\d_][\w'’-]*", n)}  # "10:00 Standup"
    # (one of the record's own values, whole, says which of its holder's records it is: "Anna Berg's
    # van booking" of her booking whose class is "Van", "Noor Haddad's pool add-on")
    wholes = {n.casefold() for n in names}
    found += [w for value in values for w in _whose_other_thing(value, stated, its_own, wholes)]
    parts = stated.split(" | ")
    # in a part that deletes: the record's name as whose another thing is ("Remove the Budget
    # review's agenda"), said of a copy of it ("the duplicate Review", "the extra Review entry"),
    # or a thing of it ("the description of the Budget review")
    deleting = [p for p in parts if p.split()[:1] and p.split()[0].casefold() in _DELETING]
    for name, part in itertools.product(names, deleting):
        found += _whose_other_thing(name, part, its_own, wholes)
        # a thing of it named after it ("the Budget review notes", "the standup reminder on ..."),
        # or the record taken from somewhere else than the calendar ("... from my notes", "...
        # from carl's calendar")
        for after in re.finditer(rf"(?i)(?<![\w-]){re.escape(name)}\s+([^\W\d_][\w'’-]*)", part):
            word = after.group(1).casefold()
            if (
                word not in its_own | FUNCTION_WORDS | _THE_RECORD_ITSELF | own_words
                and word.removesuffix("s") not in its_own
                and not re.fullmatch(rf"(?i){MONTH}|{WEEKDAY}", word)
                and word not in _WHEN_WORDS
            ):
                found.append(f"{name} {after.group(1)}")
        elsewhere = re.search(
            rf"(?i)(?<![\w-]){re.escape(name)}\b[^|]*?\bfrom\s+(?!(?:(?:my|the|our)\s+)?(?:own\s+)?calendar\b)"
            rf"(?!\d|(?:{MONTH})\b|(?:{WEEKDAY})\b|today|tomorrow|yesterday)([^\W\d_][\w'’-]*(?:\s+[\w'’-]+)?)",
            part,
        )
        if elsewhere and not set(words_of(elsewhere.group(1))) <= _another_records_words(name, acted_on, ids):
            found.append(f"from {elsewhere.group(1)}")  # (not another record the call acts on)
        if re.search(rf"(?i)\b{_A_COPY}\s+(?:of\s+)?(?:the\s+|my\s+)?{re.escape(name)}\b", part):
            found.append(f"a copy of {name}")
    for part in parts:
        for name in names:
            of = "|of|for" if part in deleting else ""
            m = re.search(
                rf"(?i)\b(?:from|off|out\s+of{of})\s+(?:(?:the|my|our|this|that|today's|tomorrow's)\s+)?{re.escape(name)}\b",
                part,
            )
            if m is None:
                continue
            # its own name's words, and those of another record the call acts on by its own id
            # ("Drop Brooks Tan from Algebra Readiness": the call takes the student out of the course)
            own = {w.casefold() for w in re.findall(r"[^\W\d_]+", name)} | _another_records_words(
                name, acted_on, ids
            )
            written = re.findall(r"[^\W\d_][\w'’-]*", part[: m.start()])
            # the verb that opens a part, not a name that opens a coordinated one ("Remove Bob | Ana
            # from the Review")
            opens_with_a_name = (
                part is not parts[0]
                and _A_PERSON_OPENS.match(written[0])
                and written[0].casefold() not in _DELETING
                if written
                else False
            )
            written = written if opens_with_a_name else written[1:]
            between = [
                w
                for w in written
                if (
                    w.casefold() not in FUNCTION_WORDS | _THE_RECORD_ITSELF | own or w.casefold() in _THE_USER
                )
                and w.casefold() not in ids  # "Settle AS-1040 from Acme Supplies": the record by its id
                and not re.fullmatch(rf"(?i){MONTH}|{WEEKDAY}", w)
            ]
            if between:
                found.append(name)
    return list(dict.fromkeys(found))


def _another_records_words(
    name: str, acted_on: Sequence[tuple[Mapping[str, Any], Any]], ids: Collection[str]
) -> set[str]:
    """The words of the records the call acts on by their own id (``ids``), other than the one named
    ``name``, case folded: "Drop Brooks Tan from Algebra Readiness" takes the student (another
    record of the call's) out of the course, nothing else."""
    return {
        w.casefold()
        for r, _ in acted_on
        if str(r.get("id", "")).casefold() in ids and name not in r.values()
        for v in r.values()
        if isinstance(v, str)
        for w in re.findall(r"[^\W\d_]+", v)
    }


def _whose_other_thing(
    name: str, text: str, its_own: Collection[str], wholes: Collection[str] = frozenset()
) -> list[str]:
    """Where ``text`` writes ``name`` as whose another thing is ("ev-4's duplicate", "the Budget
    review's agenda"): that thing, unless it is the record's own kind or one of its fields
    (``its_own``: "T-55's ticket", "ORD-1002's shipping fee"), or one of the record's own values
    written whole (``wholes``: "Anna Berg's van booking" of a booking whose class is "Van")."""
    return [
        f"{name}'s {m.group(1)}"
        for m in re.finditer(rf"(?i)(?<![\w-]){re.escape(name)}['’]s\s+([^\W\d_]+)", text)
        if m.group(1).casefold() not in its_own
        and m.group(1).casefold().removesuffix("s") not in its_own
        and not _a_value_written_whole(text[m.start(1) :], wholes)
    ]


def _a_value_written_whole(text: str, wholes: Collection[str]) -> bool:
    """Does ``text`` open with one of ``wholes`` (a record's value, case folded), ending there?"""
    folded = text.casefold()
    return any(
        folded.startswith(whole) and not folded[len(whole) : len(whole) + 1].isalnum()
        for whole in wholes
        if whole
    )


#: Words after a record's name that say when, not what ("the standup tomorrow", "... today").
_WHEN_WORDS = frozenset(
    {
        "today",
        "tomorrow",
        "tonight",
        "yesterday",
        "now",
        "please",
        "pls",
        "plz",
        "asap",
        "too",
        "also",
        "thanks",
        "thx",
    }
)
#: Words that say a record is a copy of another ("the duplicate Review", "the extra entry").
_A_COPY = r"(?:duplicate|duplicated|extra|second|other|copy|copied|repeated|double|spare)"
#: Verbs that open a part of a deletion, not a name.
_DELETING = frozenset(
    {"remove", "delete", "cancel", "drop", "clear", "take", "scrap", "erase", "kill", "trash"}
)
#: A capitalised name that opens a coordinated part, no verb ("Ana from the Review").
_A_PERSON_OPENS = re.compile(r"[A-Z][a-z]+$")


def _records_acted_on(values: set[str], context: ReviewContext) -> list[tuple[Mapping[str, Any], Any]]:
    """The records of the run that hold one of a call's ids (``values``, plain), each with the
    arguments of the call that listed it ("search_hotels(city=Lisbon)")."""
    return [
        (r, call.get("args"))
        for call in context.calls
        for r in (
            call["observation"] if isinstance(call.get("observation"), list) else [call.get("observation")]
        )
        if isinstance(r, Mapping) and values & _plain_values(r)
    ]


def _of_a_record_by(
    who: str, acted_on: Sequence[tuple[Mapping[str, Any], Any]], context: ReviewContext
) -> bool:
    """Did the person ``who`` (a word of their address or name) write a record of the run that
    names a record acted on ("Stay at Casa Azul" from ana@corp.example)?"""
    names = [
        v for r, _ in acted_on for v in r.values() if isinstance(v, str) and len(v) > 3 and " " in v.strip()
    ]
    names += [
        v
        for r, _ in acted_on
        for k, v in r.items()
        if isinstance(v, str) and re.search(r"(?i)name|title", str(k))
    ]
    word = who.casefold()
    for call in context.calls:
        observation = call.get("observation")
        for record in observation if isinstance(observation, list) else [observation]:
            if not isinstance(record, Mapping):
                continue
            texts = [v for v in leaves(record) if isinstance(v, str)]
            by = any(
                word in {w.casefold() for w in address_words(v)}
                for k, v in record.items()
                if isinstance(v, str)
                and (_AN_ADDRESS.fullmatch(v.strip()) or re.search(r"(?i)name|from|author", str(k)))
            )
            if by and any(_written_whole(n, t) for n in names for t in texts):
                return True
    return False


#: A person the turn says the call is not for ("don't invite Priya", "everyone except Bob",
#: "without Ana", "not Carl").
_SAID_NOT_TO = re.compile(
    r"(?i)\b(?:don'?t|do\s+not|never|not|without|except(?:\s+for)?|excluding|exclude|but\s+not|minus)\s+"
    r"(?:(?:invite|include|add|cc|copy|e-?mail|message|send\s+(?:it\s+)?to|share\s+(?:it\s+)?with|tell|book)\s+)?"
    r"(?P<who>[^\W\d_][\w'’-]*)"
)


def _said_not_to(args: Mapping[str, Any], request: str, context: ReviewContext) -> list[str]:
    """A value of the call (a list's item each) that is a person the turn says the call is not
    for ("Create event Lunch ...; don't invite Priya" inviting Priya): by their address's own
    words or the name of a record that holds it."""
    who = {
        m["who"].casefold().removesuffix("'s").removesuffix("’s") for m in _SAID_NOT_TO.finditer(request)
    } - FUNCTION_WORDS
    if not who:
        return []
    found = []
    for key, value in _flat(args).items():
        if not _AN_ADDRESS.fullmatch(value.strip()):
            continue
        plain = _plain_value(value)
        words = set(address_words(plain))
        for call in context.calls:
            observation = call.get("observation")
            for record in observation if isinstance(observation, list) else [observation]:
                if isinstance(record, Mapping) and plain in _plain_values(record):
                    words |= {
                        w.casefold()
                        for k, v in record.items()
                        if isinstance(v, str) and re.search(r"(?i)name", str(k))
                        for w in re.findall(r"[^\W\d_]{3,}", v)
                    }
        if words & who:
            found.append(key)
    return found


def _flat(args: Mapping[str, Any]) -> dict[str, str]:
    """Each text the call gives, a list's items each on its own ("attendees[1]"), and so the
    addresses a text packs ("ana@corp.example, bob@corp.example")."""
    flat: dict[str, str] = {}
    for arg, v in args.items():
        # (a field of one address keeps them packed: not of its kind)
        packed = (
            _ADDRESSES_PACKED.fullmatch(v.strip())
            if isinstance(v, str) and not _ONE_ADDRESS_FIELD.match(arg)
            else None
        )
        if packed is not None:
            flat.update(
                {
                    f"{arg}[{i}]": a
                    for i, a in enumerate(_AN_ADDRESS.findall(v.replace(",", " ").replace(";", " ")))
                }
            )
        elif isinstance(v, str):
            flat[arg] = v
        elif isinstance(v, list):
            flat.update({f"{arg}[{i}]": item for i, item in enumerate(v) if isinstance(item, str)})
    return flat


#: A channel ("#reading").
_A_CHANNEL = re.compile(r"(?<![\w#])#[A-Za-z][\w-]*")
#: The shapes of a value one of several like parts of a mandate each write: a day, a time, a
#: channel.
_SHAPES = (
    re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?![\d:])"),
    _A_CHANNEL,
)


#: A part that writes one value and nothing else ("#partners", "and 2026-11-28").
_A_BARE_VALUE = re.compile(r"(?i)\s*(?:and\s+|or\s+)?(?:#[\w-]+|\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2})\s*")
#: Mail addresses as a part writes them.
_ADDRESSES_WRITTEN = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def _crossed_between_parts(
    args: Mapping[str, Any],
    own: str,
    named: Sequence[tuple[str, set[str]]] = (),
    request: str = "",
    context: ReviewContext | None = None,
) -> list[str]:
    """A value the call takes from one part of the mandate where another value of the call is
    written only in another part that writes a value of the same kind of its own: a day or a time
    ("Create event Lunch on 2026-11-27 at 12:00 and event Dinner on 2026-11-28 at 19:00" as Dinner
    on the 27th at 12:00), a count ("for 2 nights for Ana and for 3 nights for Bob" as Ana's 3
    nights), a person (Bob as the guest of Ana's 2 nights)."""
    # a part written twice (a mandate's part and its coordinated copy) is one part
    parts: list[str] = []
    for part in (q for p in own.split(" | ") for q in _A_SECOND_OBJECT.split(p)):
        if parts and _A_BARE_VALUE.fullmatch(part):  # "Remove mallory from #reading and #partners"
            parts[-1] += " " + part  # one more object of the part before, sharing all else
        elif part.strip():
            parts.append(part)
    found = _crossed_in(list(dict.fromkeys(parts)), args, named, context)
    # a list's items the turn writes ("1) Ana - 1 night 2) Bob - 2 nights", "Ana: 1 night; Bob: 2",
    # "Bob gets X, Priya gets Y.")
    items = [p for p in _A_LIST_ITEM.split(corrections_read(request)) if p.strip()]  # as corrected
    return list(dict.fromkeys([*found, *_crossed_in(items, args, named, context)]))


#: Where a mandate goes on to a second object of its verb ("Schedule a meeting with Ana on
#: 2026-12-03 as well as a call with Bob on 2026-12-04").
_A_SECOND_OBJECT = re.compile(
    r"(?i)\s+(?:as\s+well\s+as|along\s+with|plus|and\s+also|and)\s+(?=(?:a|an|another)\s|['\"‘“])"
)


#: How the user writes themself as a party ("for me", "book myself in").
_THE_USER = ("me", "myself")


#: Where a list's items part: a semicolon, a line's end, a number or letter that opens an item,
#: a comma before a name and a word ("Bob gets X, Priya gets Y"), a sentence's end.
_A_LIST_ITEM = re.compile(
    r";|\n|(?<=\S)\s+(?=(?:\d{1,2}|[a-z])[).]\s)|,\s+(?=[A-Z][a-z]+\s+[a-z])|(?<=[.!?])\s+"
)


def _crossed_in(
    parts: Sequence[str],
    args: Mapping[str, Any],
    named: Sequence[tuple[str, set[str]]],
    context: ReviewContext | None = None,
) -> list[str]:
    """:func:`_crossed_between_parts` over ``parts``; an id is written where its record's name is
    ("Bob gets budget-2027.xlsx" for ``f-1``)."""
    if len(parts) < 2:
        return []

    def names(record: Mapping[str, Any]) -> list[str]:
        return [
            v
            for k, v in record.items()
            if isinstance(v, str)
            and not _AN_ID_ARG.search(str(k))
            and 0 < len(v.split()) <= 4
            and not _AN_ADDRESS.fullmatch(v)
        ]

    # an id's record is placed by its name only where the parts name records of its listing each
    # ("Bob gets budget-2027.xlsx, Priya gets salaries-2026.xlsx"), not one shared by all ("Book
    # Casa Azul for 2 nights for Ana and 3 for Bob")
    names_of: dict[str, list[str]] = {}
    for key, value in args.items():
        if context is None or not _AN_ID_ARG.search(key) or not isinstance(value, str) or not value.strip():
            continue
        plain = _plain_value(value)
        for call in context.calls:
            observation = call.get("observation")
            listing = (
                [r for r in observation if isinstance(r, Mapping)] if isinstance(observation, list) else []
            )
            own = [r for r in listing if plain in _plain_values(r)]
            others = [n for r in listing if plain not in _plain_values(r) for n in names(r)]
            if own and any(_written_whole(n, p) for n in others for p in parts):
                names_of[key] = [n for r in own for n in names(r)]
    flat: dict[str, Any] = {k: v for k, v in _flat(args).items() if v.strip()}
    flat |= {k: v for k, v in args.items() if is_number(v) and not isinstance(v, bool)}

    def said(value: Any, part: str) -> list[str]:
        """The values of ``value``'s kind ``part`` writes, as they compare to it."""
        if is_number(value):
            return [str(figure) for figure, unit in counts_written(part) if unit is not None]
        text = value.strip()
        if _SHAPES[0].fullmatch(text):  # a day, however the part writes it ("on Dec 1")
            return _days_written(text, part)
        shape = next((s for s in _SHAPES if s.fullmatch(text)), None)
        if shape is not None:
            return [m.group(0) for m in shape.finditer(part)]
        if _AN_ADDRESS.fullmatch(text):
            return [
                a
                for word, addresses in named
                for a in addresses
                if re.search(rf"(?i)\b{re.escape(word)}\b", part)
            ] + [_plain_value(a) for a in _ADDRESSES_WRITTEN.findall(part)]  # "invite lena.k@... to"
        return []

    def written(value: Any, part: str, key: str = "") -> bool:
        if key in names_of:
            return any(_written_whole(n, part) for n in names_of[key])
        if isinstance(value, str) and _SHAPES[0].fullmatch(value.strip()):
            return value.strip() in _days_written(value.strip(), part)
        if is_number(value):
            return str(amount_value(value)) in said(value, part)
        if _AN_ADDRESS.fullmatch(value.strip()):
            return _plain_value(value) in said(value, part)
        return _written_whole(value, _ADDRESSES_WRITTEN.sub(" ", part))  # "ana", not "ana@corp.example"

    def of_a_kind(value: Any) -> bool:
        return (
            is_number(value)
            or any(s.fullmatch(value.strip()) for s in _SHAPES)
            or bool(_AN_ADDRESS.fullmatch(value.strip()))
        )

    where = {k: {i for i, p in enumerate(parts) if written(v, p, k)} for k, v in flat.items()}
    for key, value in flat.items():
        # an address is where it is written out, over a part that names only its person ("invite
        # ana@corp.example to #reading and remove ana from #partners": the address is the invite's)
        if isinstance(value, str) and _AN_ADDRESS.fullmatch(value.strip()):
            plain = _plain_value(value)
            out = {i for i in where[key] if plain in map(_plain_value, _ADDRESSES_WRITTEN.findall(parts[i]))}
            where[key] = out or where[key]
    found = []
    for key, value in flat.items():
        if not of_a_kind(value) or len(where[key]) != 1 or "[" in key:
            continue  # a list's item is one of several, each in its own part
        (at,) = where[key]
        plain = (
            str(amount_value(value))
            if is_number(value)
            else _plain_value(value)
            if "@" in value
            else value.strip()
        )
        if any(
            len(where[other]) == 1
            and (j := next(iter(where[other]))) != at
            and any(x != plain for x in said(value, parts[j]))
            and not _same_shape(flat[other], value)  # a stretch's two days, a list's two people
            for other in flat
            if other != key
        ):
            found.append(key)
    return found


def _days_written(value: str, part: str) -> list[str]:
    """The days ``part`` writes, each as ``value`` (a ``YYYY-MM-DD``) where it is that day ("Dec 1",
    "Friday the 4th"), else as written."""
    try:
        day = date.fromisoformat(value)
    except ValueError:
        return []
    found = [d for d in dates(part)]
    for kind, pattern in DAYS_SAID:
        for m in pattern.finditer(part):
            said = value if is_the_day(day, kind, m) else m.group(0)
            if said not in found:
                found.append(said)
    return found


def _same_shape(a: Any, b: Any) -> bool:
    """Are two texts of one shape (two days, two times, two addresses)?"""
    if not isinstance(a, str) or not isinstance(b, str):
        return False
    if _AN_ADDRESS.fullmatch(a.strip()) and _AN_ADDRESS.fullmatch(b.strip()):
        return True
    return any(s.fullmatch(a.strip()) and s.fullmatch(b.strip()) for s in _SHAPES)


#: A file's name: a word, a dot and an extension ("notes.txt", "budget-2027.xlsx").
_A_FILE_NAME = re.compile(r"(?i)(?<![\w.@/-])[\w][\w.-]*\.[a-z][a-z0-9]{1,4}(?![\w@/-])")


def _another_file_named(value: str, request: str) -> bool:
    """Is ``value`` a file's name the turn does not write, where it writes another's ("Create
    notes.txt" as ``salaries-2026.xlsx``)?"""
    if not _A_FILE_NAME.fullmatch(value.strip()):
        return False
    written = {m.group(0).casefold().rstrip(".") for m in _A_FILE_NAME.finditer(request)}
    return bool(written) and value.strip().casefold() not in written


#: An argument that holds a text the user may dictate word for word (a file's content).
_CONTENT_ARG = re.compile(r"(?i)^(?:text|content|contents|data)$")
#: Words that dictate a text ("with text hello", "containing 'hello'", "that says call Dora").
_DICTATED = re.compile(
    r"(?i)\b(?:with\s+(?:the\s+)?(?:text|content|contents|words?)|containing|that\s+says|which\s+says|saying)"
    r"\s*:?\s*(?P<text>.+?)\s*$"
)


def _written_otherwise(args: Mapping[str, Any], request: str) -> list[str]:
    """A content argument whose words are not those the turn dictates for it ("Create notes.txt
    with text hello" as "goodbye", "hello - please share ...", or empty)."""
    found = re.search(_DICTATED, request.strip().split("\n")[0])
    if found is None:
        return []
    text = found.group("text").strip()
    quoted = re.match(r"(['\"‘“])(.+?)(?:\1|['\"’”])(?:\W|$)", text)
    # a quoted text whole; else to the end of its clause ("with text hello and share it with ...")
    told = quoted.group(2) if quoted else re.split(r"[.;!?](?:\s|$)|\s+(?:and|then)\s+|,\s*", text)[0]
    words = re.findall(r"[\w'’-]+", told.casefold())
    return [
        arg
        for arg, value in args.items()
        if _CONTENT_ARG.match(arg)
        and isinstance(value, str)
        and words
        # its words, and no mark that says what they do not ("We ship on ~~Friday~~.")
        and (re.findall(r"[\w'’-]+", value.casefold()) != words or bool(marks_added([value], [request])))
    ]


def _ids_of(args: Mapping[str, Any]) -> set[str]:
    """The ids a call names the records it acts on by (``event_id``, ``hotel_id``), plain."""
    return {
        _plain_value(v) for a, v in args.items() if _AN_ID_ARG.search(a) and isinstance(v, str) and v.strip()
    }


#: An argument that names the record the call acts on by its id.
_AN_ID_ARG = re.compile(r"(?i)(?:^|_)id$")
#: A time of day ("08:30", "9:00") and a day ("2026-11-25") as a turn and a record write them.
_A_TIME = re.compile(r"(?<![\d:])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])")
_A_DAY = re.compile(r"(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d-])")


def _said_of_another_record(args: Mapping[str, Any], stated: str, context: ReviewContext) -> list[str]:
    """The times and days the mandate writes of the record a call's value names where that record
    holds a time or a day and none of those written ("Cancel the gym at 08:30" with ``ev-22``, the
    Gym at 18:00; "Cancel my board meeting on 2026-11-26", it is on the 25th): the turn qualifies
    another record than the one the call acts on. The record is the one its listing holds the call's
    id in (``event_id``); its day may be the one its listing was asked for (``list_events(day=...)``)."""
    # a day or a time the call sets, written otherwise ("10 December 2026 at 2:30 pm"), as it sets it
    stated = written_as(stated, {v for v in leaves(dict(args)) if isinstance(v, str)})
    times = {(int(h), int(m)) for h, m in _A_TIME.findall(stated)}
    days = set(_A_DAY.findall(stated))
    years = set(re.findall(r"(?<![\w.:/-])((?:19|20)\d{2})(?![\w:/-])", _A_DAY.sub(" ", stated)))
    if not times and not days and not years:
        return []
    # the day and time the call itself sets ("Move A-1001 to 2026-12-10 at 15:00") are its values,
    # not words that qualify the record it acts on
    setting = " ".join(str(v) for v in leaves(dict(args)) if not isinstance(v, bool))
    times -= {(int(h), int(m)) for h, m in _A_TIME.findall(setting)}
    days -= set(_A_DAY.findall(setting))
    # the record the call acts on, by its id ("event_id": "ev-22")
    values = _ids_of(args)
    found: list[str] = []
    for call in context.calls if values else ():
        observation = call.get("observation")
        records = [
            r for r in (observation if isinstance(observation, list) else []) if isinstance(r, Mapping)
        ]
        asked = " ".join(str(v) for v in leaves(call.get("args")))
        for value in values:
            holding = [r for r in records if value in _plain_values(r)]
            if len(holding) != 1:
                continue
            own = " ".join(str(v) for v in leaves(holding[0]))
            held_times = {(int(h), int(m)) for h, m in _A_TIME.findall(own)}
            held_days = set(_A_DAY.findall(own + " " + asked))
            if times and held_times and not times & held_times:
                found += [f"{h}:{m:02d}" for h, m in sorted(times)]
            if days and held_days and not days & held_days:
                found += ["-".join(d) for d in sorted(days)]
            if years and held_days and not years & {y for y, _, _ in held_days}:
                found += sorted(years)  # "the Review from 2025", it is on 2026-11-24
    return list(dict.fromkeys(found))
