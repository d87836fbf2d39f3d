"""Bindings: whether a call's values stand together as the user's turn binds them.

Each value of a call may be admitted on its own (the turn writes it, a trusted record holds it) and
the call still be another than the one asked for: the amount of "Move 500 from savings to checking"
with the accounts swapped, Spotify's payee with Bob Lee's IBAN, the bill B-40 paid to Bob Lee, "5.000"
taken as five, a password not as the user wrote it. :func:`bindings_broken` reads the mandate's
words for the call (``stated``) against the call's arguments and the records the run read, and
says what binds otherwise, by name (``said_on_the_other_side``, ``no_side_said``,
``amount_reads_two_ways``, ``secret_not_as_written``, ``secret_of_another``,
``another_value_of_the_named_record``, ``values_of_different_records``,
``held_by_a_record_not_named``). The review asks a human on any of them, never refuses: every
value is the user's or a trusted record's, only their binding is in doubt.

Pure: no I/O; a decision is the review's (:mod:`policies.supervisor.decide.review`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from policies.json_safety import leaves
from policies.supervisor.provenance.context import ReviewContext
from policies.supervisor.reading.amounts import READS_TWO_WAYS, amount_value
from policies.supervisor.reading.words import FUNCTION_WORDS
from policies.supervisor.request.records import naming_of, pointed_records
from policies.supervisor.rules.policy import SupervisorPolicy
from policies.tools import is_number


def bindings_broken(
    args: Mapping[str, Any],
    stated: str,
    trusted: Sequence[str],
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> dict[str, Any]:
    """What binds the call's values otherwise than the mandate's words: a value the mandate writes
    after "from" in an argument that says where to ("Move 500 from savings to checking" as
    ``to_account="savings"``), or no side of a move the mandate writes at all ("Move 300"); a figure
    that reads two ways taken the English way ("Move 5.000 to savings" as 5); a secret not as the
    user wrote it ("Sunshine2026!" as ``sunshine2026!``, or without its "!"); a field of a record
    the mandate names that says another value under the call's argument's name ("Pay B-40" to
    ``payee="Bob Lee"`` where B-40's payee is Acme Supplies); two values of one trusted listing that
    no one record of it holds together (Spotify's payee with Bob Lee's IBAN). ``trusted`` is every
    text of the run's trusted results (:func:`trusted_texts`), read once per review."""
    found: dict[str, Any] = {}
    roles = {arg: _side_of(arg) for arg in args}
    sided = {
        arg: role for arg, role in roles.items() if role and isinstance(args[arg], str) and args[arg].strip()
    }
    for arg, role in sided.items():
        where = _roles_written(args[arg], stated)
        if where - {""} and role not in where and "" not in where:
            found.setdefault("said_on_the_other_side", []).append(arg)
    if {"from", "to"} <= set(sided.values()) and not any(_roles_written(args[a], stated) for a in sided):
        found["no_side_said"] = sorted(sided)
    for arg, value in args.items():
        if is_number(value) and not isinstance(value, bool):
            for figure in READS_TWO_WAYS.finditer(stated):
                if Decimal(figure.group(0)) == amount_value(value):
                    found.setdefault("amount_reads_two_ways", []).append(figure.group(0))
        elif isinstance(value, str) and _A_SECRET_ARG.search(arg):
            if not _written_as_is(value, context.request) or _A_DESCRIPTION.match(value):
                found.setdefault("secret_not_as_written", []).append(arg)
            whose = _WHOSE_SECRET.search(stated)
            if whose:  # "Change Bob's password", "my Netflix password": another's, or another one
                found.setdefault("secret_of_another", []).append(whose.group(1))
    # each record bound by one of the mandate's parts ("Pay B-31 and B-40": the call pays one)
    parts = [part for part in stated.split(" | ") if part.strip()] or [stated]
    records = [_records_that_disagree(args, part, trusted, context, policy) for part in parts]
    found.update(records[0] if all(records) else {})
    return found


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


def _records_that_disagree(
    args: Mapping[str, Any],
    stated: str,
    trusted_texts: Sequence[str],
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> dict[str, Any]:
    """A record the mandate names whose field under an argument's name says another value than the
    call's, and two values of one trusted listing no record of it holds together."""
    found: dict[str, Any] = {}
    texts = {arg: _plain_value(v) for arg, v in args.items() if isinstance(v, str) and v.strip()}
    if not texts:
        return found
    held = {_plain_value(leaf) for leaf in trusted_texts}
    pointed = [
        r.value
        for r in pointed_records(stated, context.calls, naming_of(policy, context.subject))
        if isinstance(r.value, Mapping)
    ]
    for arg, value in texts.items():
        if value not in held:
            continue  # a text the call writes (a subject, a body), no record's value
        theirs = {_plain_value(r[arg]) for r in pointed if isinstance(r.get(arg), str) and r[arg].strip()}
        if theirs and value not in theirs:  # no record the mandate names says it ("Pay B-40" to Bob)
            found.setdefault("another_value_of_the_named_record", []).append(arg)
    # a figure of another record than those the mandate names ("Pay B-31 and B-40": B-31 paid 260)
    for arg, number in args.items():
        if not is_number(number) or isinstance(number, bool):
            continue
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
    for call in context.calls:
        observation = call.get("observation")
        if call.get("tool") not in trusted or not isinstance(observation, list) or len(observation) < 2:
            continue
        records = [r for r in observation if isinstance(r, Mapping)]
        holding = {
            arg: {i for i, r in enumerate(records) if value in _plain_values(r)}
            for arg, value in texts.items()
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
                and _held_apart(records, holding, texts, a, b)
            }
        )
        if apart:  # Spotify's payee with Bob Lee's IBAN: two records' values, one call
            found.setdefault("values_of_different_records", []).extend(apart)
        for arg in holders:
            if any(names[i] & said for i in holding[arg]):
                named_somewhere.add(arg)  # the mandate names a record that holds it
                continue
            # another record of the listing named instead ("Pay Acme 260" to Bob Lee), or a value of
            # the call the mandate writes that the record holding this one does not ("Pay Old
            # Storage 25" to Bob Lee's IBAN)
            others = [i for i, n in enumerate(names) if n & said and i not in holding[arg]]
            written = [  # a name the call also gives, not a code ("EUR")
                v
                for a, v in texts.items()
                if a != arg
                and v in said
                and len(v) > 3
                and not str(args[a]).isupper()
                and not any(v in _plain_values(records[i]) for i in holding[arg])
            ]
            if others or written:
                unnamed.append(arg)
    # held by a record the mandate names in another listing ("Share budget-2027.xlsx with Ana
    # Silva": Ana's address is her contact's, and the owner of another file as well)
    unnamed = [arg for arg in dict.fromkeys(unnamed) if arg not in named_somewhere]
    if unnamed:
        found["held_by_a_record_not_named"] = unnamed
    return found


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
    return {_plain_value(v) for v in record.values() if isinstance(v, str)}


def _names_of_records(records: Sequence[Mapping[str, Any]]) -> list[set[str]]:
    """The words that name each record of a listing: its text fields' words of three letters or
    more and its short ids ("b-31"), less those every record of it holds and the function words."""
    words = [
        {
            _plain_value(w)
            for v in r.values()
            if isinstance(v, str)
            if "@" not in v and "://" not in v  # an address's parts name no record ("ana@...")
            for w in [*re.findall(r"[^\W\d_]{3,}", v), *([v] if len(v) <= 12 and " " not in v else [])]
        }
        - FUNCTION_WORDS
        for r in records
    ]
    every = set.intersection(*words) if words else set()
    return [w - every for w in words]


def _plain_value(value: str) -> str:
    """A text value as records are compared by: without its spaces, case folded ("DE89 3704 ...")."""
    return "".join(value.split()).casefold()
