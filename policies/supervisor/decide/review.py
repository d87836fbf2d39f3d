"""The review engine: one supervisor review of a validated action against the policy's rules and
what the run knows (:class:`ReviewContext`), giving approve, revise, escalate or block.

A tool call is decided by one ordered chain of named checks (:data:`CHAIN`), each
``check(call, context) -> Decision | None``: the first that decides gives the decision, which names
it (``Decision.check``) and the checks passed before it (``Decision.passed_checks``), as Cedar's
authorizer names the policies that determined an answer. The order, in the floors a call is
decided by:

1. read the turn: ``mandate`` (the clause of the user's turn that asks for this kind of action,
   read once per review by the context's request reader from the user's words only);
2. where each value came from: ``binding`` (bound arguments, set membership, preconditions),
   ``provenance`` (flows, argument sources, identifiers in free text, the requested kind and its
   details, follow rules), ``ownership`` (records that must be the subject's);
3. who may authorise it: ``authority`` (whether the request may stand in for the human: it asks
   for this kind of action and gives every value);
4. limits: ``amounts`` (numbers, the run's or thread's cap), ``record_limits``, ``defaults``,
   ``custom_rules``, ``read_only`` (a read-only tool is approved here: the limits below are on
   changes), ``repeats``, ``thresholds``;
5. the decision: ``approval`` (by the request, or asked), ``approve``.

An escalation a grant of the turn covers is then approved (:data:`GRANTS`,
:mod:`policies.supervisor.authority.grants`). Adding a rule kind: a model in
:mod:`policies.supervisor.rules.kinds`, a check here, a line in :data:`CHAIN`, a test beside it."""

from __future__ import annotations

import itertools
import json
import re
import warnings
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from functools import lru_cache
from itertools import pairwise
from typing import Any

from policies.decision import Decision
from policies.json_safety import leaves
from policies.supervisor.authority.grants import granted
from policies.supervisor.decide.accounted import (
    accounted_for_the_call,
    days_spanned,
    shares_taken,
    units_counted,
)
from policies.supervisor.decide.bindings import A_PERSONS_FIELD, bindings_broken, policy_words, trusted_texts
from policies.supervisor.decide.cedar import (
    CEDAR_CHECK,
    DERIVED,
    FOLLOWED,
    FORBID,
    CallFacts,
    arg_types,
    cedar_decision,
    source_label,
)
from policies.supervisor.decide.conditions import conditional_mandate, conditioned
from policies.supervisor.decide.records_check import owned_records, record_limits, repeated
from policies.supervisor.provenance.context import (
    AN_EARLIER_CALL,
    DECIMALS,
    THIS_CALL,
    ReviewContext,
    rounded,
    same_form,
    tools_of,
)
from policies.supervisor.provenance.derivation import (
    TAKEN_OFF,
    Derivation,
    derived_from,
    operands,
    stated_operations,
    without_stated,
)
from policies.supervisor.provenance.derivation import cents as _cents_of
from policies.supervisor.provenance.flow import flow, untrusted_names
from policies.supervisor.provenance.flows import confidentiality, destinations
from policies.supervisor.provenance.following import authorised, followed, planted_detail
from policies.supervisor.reading.amounts import (
    LABELLED,
    READS_TWO_WAYS,
    WHOLE_WORDS,
    amount_value,
    amounts,
    amounts_read,
    number_word,
    part_of_record,
    partial_word,
)
from policies.supervisor.reading.answers import (
    Said,
    answered_by_another,
    answered_otherwise,
    answered_unread,
    answers_added,
    answers_another,
    commitments_added,
    given_in,
    given_otherwise,
    meanings,
    not_as_read,
    question_told_as_statement,
    questions_put,
    records_answering,
    relayed_otherwise,
    said_in,
    spoken_for_the_writer,
    told_their_own,
    what_asked,
    whether_asked,
    with_its_records,
)
from policies.supervisor.reading.coverage import (
    A_SUM,
    CLOSING_VERBS,
    COUNTED,
    DELETING,
    NO_ROLE_WORDS,
    PAYING_VERBS,
    PLACE_AFTER_A_PURPOSE,
    POINTING_BACK,
    READING_VERBS,
    REFERENCE_WORDS,
    TIMED_VERBS,
    WHEN,
    WITH_CONTENT,
    Reading,
    WideReader,
    bears_on,
    left_out_text,
    past_form,
    prohibited,
    purposes_of_a_sum,
    read_turn,
    unprohibited_text,
    verb_forms,
    without_left_out,
)
from policies.supervisor.reading.identifiers import (
    canonical_number,
    dates,
    days_and_times,
    identifiers,
    written_as,
)
from policies.supervisor.reading.message import (
    A_LINK_OR_MAIL,
    COURTESY,
    a_question_answered,
    another_modality,
    asks,
    attributed_otherwise,
    bounds_dropped,
    content_words,
    cut_off,
    cut_short,
    figures_written_otherwise,
    inflected_otherwise,
    left_out,
    made_a_question,
    marks_added,
    meaning,
    negated,
    negated_again,
    orders_given,
    orders_joined,
    out_of_order,
    put_later,
    says_what_is_forbidden,
    signed_by,
    spoken_of_added,
    states_after_a_copula,
    summed_up_otherwise,
    swapped_persons,
    things_joined,
    unsaid,
    without_pleasantries,
    writers_added,
)
from policies.supervisor.reading.people import PEOPLE_WORDS, address_words
from policies.supervisor.reading.values import (
    Source,
    address_list,
    describe,
    found_in,
    identifier_origins,
    identity,
    leaf_paths,
    leaf_values,
    mappings,
    parsed,
    rule_values,
    tokens,
    traced,
)
from policies.supervisor.reading.words import (
    AN_ID_WORD,
    CALENDAR_NAMES,
    COMMON_VERBS,
    FUNCTION_WORDS,
    MONTH_NUMBERS,
    RECORD_WORD,
    REFERRING_WORDS,
    SLOT_PREPOSITIONS,
    SOMEONE_ELSE,
    TELLING_WHAT,
    Mandate,
    a_day_written,
    asks_step,
    clauses_of,
    content_field,
    corrections_read,
    excludes_records,
    field_word,
    mandates,
    reads_as_a_clause,
    said,
    singular,
    stated,
    stated_text,
    step_mandates,
    told_content,
    without_quoted_content,
    words_of,
    written_verb,
)
from policies.supervisor.reading.words import (
    POINTING_BACK as WORDS_POINTING_BACK,
)
from policies.supervisor.request.asks import (
    asking_mandates,
    mandate,
    requested,
    stated_for,
    stated_for_call,
)
from policies.supervisor.request.asks import clauses as clauses  # re-exported: it lived here
from policies.supervisor.request.records import (
    Naming,
    Record,
    identity_of,
    kinds_in,
    named_records,
    naming_of,
    part_of_another_name,
    partly_named_records,
    pointed_records,
)
from policies.supervisor.rules.cedar import CedarSet, parse_cedar
from policies.supervisor.rules.kinds import (
    ArgSource,
    IdentifierRule,
    Requested,
    ToolRules,
    Verdict,
)
from policies.supervisor.rules.policy import SupervisorPolicy, shadowed_checks
from policies.text import stable_json
from policies.tools import call_signature, is_number

#: A custom rule: ``(action, context) -> Decision | None`` (None: no opinion). Its Decision's
#: verdict is approve / revise (``details["action"]`` the revised action) / escalate / block; its
#: details reach the review row, the trace and (escalate) the human's approval request.
CustomRule = Callable[[Mapping[str, Any], ReviewContext], Decision | None]


def _block(reason: str, **details: Any) -> Decision:
    return Decision("block", reason, details)


def _revise(action: Mapping[str, Any], why: str, changes: Mapping[str, Any]) -> Decision:
    revised = {**action, "args": {**action["args"], **changes}}
    return Decision("revise", why, {"action": revised, "changes": dict(changes)})


def _apply_custom(
    names: Sequence[str],
    action: Mapping[str, Any],
    context: ReviewContext,
    hooks: Mapping[str, CustomRule],
) -> Decision | None:
    for name in names:
        hook = hooks.get(name)
        if hook is None:
            return _block(f"unknown_custom_rule:{name}")
        decision = hook(action, context)
        if decision is None:
            continue
        if decision.verdict not in ("approve", "revise", "escalate", "block"):
            return _block(f"custom_rule_bad_decision:{name}")
        if decision.verdict == "revise" and not isinstance(decision.details.get("action"), dict):
            return _block(f"custom_rule_bad_decision:{name}")
        if decision.verdict != "approve":
            return Decision(decision.verdict, decision.reason, {**decision.details, "rule": name})
    return None


def _binding(
    rules: ToolRules, args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Bound arguments, set membership and preconditions: what every tool's call must meet."""
    for arg in rules.bound_args:
        if arg not in context.subject:  # acting for nobody in particular is not acting for anyone
            if policy.verdict(None) == "escalate":
                return Decision("escalate", f"subject_unbound:{arg}", {"arg": arg, "value": args.get(arg)})
            return _block(f"subject_unbound:{arg}", arg=arg, value=args.get(arg))
        if args.get(arg) != context.subject[arg]:
            return _block(
                f"subject_mismatch:{arg}", arg=arg, expected=context.subject[arg], value=args.get(arg)
            )
    for member in rules.one_of:
        value = args.get(member.arg)
        if member.arg in args and not context.admits(member, value):
            return Decision(
                policy.verdict(member.verdict), member.reason, {"arg": member.arg, "value": value}
            )
    for pre in rules.preconditions:
        if not context.succeeded(pre.tool, {k: args.get(k) for k in pre.match_args}):
            return _block(pre.reason, requires=pre.tool, match_args=list(pre.match_args))
    return None


#: Why a call the turn does not ask for is put to a human rather than refused: the reading of the
#: turn is partial, and a span it could not read may bear on the call (issue 54).
PARTLY_READ = "request_partly_read"


def partly_read(
    asked: Requested, args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> dict[str, Any] | None:
    """Where the turn does not ask for the call's kind of action and does not say not to: the
    reading the question shows (``read``: the mandates, ``unread``: the spans the reader could not
    read) when an unread span could bear on the call (:func:`~policies.supervisor.reading.coverage.
    bears_on`); None where the reading is complete for it (the call is refused)."""
    verbs = [*asked.keywords, *asked.verbs]
    values = [leaf for value in args.values() for leaf in leaves(value)]
    if prohibited(context.request, verbs, values):
        return None
    reading = _turn_reading(context, policy)
    if any(bears_on(span, verbs, values) for span in reading.unread):
        return reading.shown()
    if asked.verbs and asked.objects and asks_step(context.request, asked.verbs, [], context.read):
        # one of the kind's verbs at the head of a mandate, its object none of the kind's words
        # ("reply to Casa Azul: ...", "email them that ..."): what it acts on is not read
        return {**reading.shown(), "object_not_read": list(asked.objects)}
    # a mandate that writes something up where the call writes ("Summarize the Q4 plan in
    # #general" as a post there): the kind of action may be asked in words the policy does not list
    placed = [
        v
        for m in reading.mandates
        if m.verb in _WRITTEN_UP
        for v in values
        if isinstance(v, str)
        and (_A_CHANNEL_NAME.fullmatch(v.strip()) or _AN_ADDRESS.fullmatch(v.strip()))  # where, not what
        and re.search(rf"(?i)\b(?:in|to|into|on)\s+{re.escape(v.strip())}(?![\w.@-])", m.text)
    ]
    if placed:
        return {**reading.shown(), "placed_in": placed}
    # a mandate of a phrasal verb's verb whose particle is not the kind's ("Roll bakc payments-api"
    # for "roll back"): it may ask for it in words not read
    phrasal = {tuple(words_of(k)) for k in verbs if len(words_of(k)) == 2}
    heads = {p[0] for p in phrasal}
    standing = [m for m in reading.mandates if m.words[:1] and m.words[0] in heads]
    if standing and any(found_in(v, [Source("request", m.text)]) for m in standing for v in values):
        return {**reading.shown(), "verb_not_read": [said(m) for m in standing]}
    return None


#: Verbs that make a text of what they read ("summarize", "draft"): placed where a call writes (a
#: channel, an address: "... in #general", "... to ana@corp.example"), they may ask for the call in
#: other words.
_WRITTEN_UP = frozenset({"summarize", "summarise", "recap", "draft", "compose", "outline"})


def _turn_reading(context: ReviewContext, policy: SupervisorPolicy) -> Reading:
    """The reading of the turn the review was given (read once per turn), else read now."""
    return context.read.reading or read_turn(context.request, policy.declared_verbs(), context.reader)


#: Words of arithmetic in a turn: an amount it describes rather than writes ("the total", "the
#: rest", "ten percent of that dinner plus a fee", "INV-7 + B-40, one payment").
_ARITHMETIC = re.compile(
    r"(?i)(?<![\w-])(?:totals?|sum|rest|remainder|remaining|balance|percent|per\s+cent|plus|minus|half|third"
    r"|quarter|twice|double|fees?|tip|share|split|difference|combined|together|altogether|covering"
    r"|average|mean|median|tenths?|fifths?|fourths?"
    r"|one\s+(?:payment|transfer|amount))(?![\w-])|%|(?<=\s)[+&](?=\s)"
)  # a word of an id ("FEE-4402", "TIP-7") is none


def _amount_in_words(value: Any, rule: ArgSource, context: ReviewContext) -> list[str]:
    """The words of arithmetic the turn (outside its prohibitions) describes a number by, when no
    derivation the gateway follows gives it and the turn does not state exactly one operation it
    follows ("the total", "ten percent of that dinner", "the rest", "19.5% of it plus a fee"): the
    reader could not compute what the user described, so the call is asked, never refused for it.
    Where the turn states one operation the gateway follows ("the 210 EUR dinner minus the 70 EUR I
    sent"), another figure is refused; a rule that admits no derivation (``derived=[]``) keeps its
    refusal."""
    if not rule.derived or not is_number(value):
        return []
    if len(stated_operations(context.request, rule.derived, context.read)) == 1:
        return []  # the gateway follows the one operation the turn states: another figure is refused
    said = [m.group(0).lower() for m in _ARITHMETIC.finditer(unprohibited_text(context.request))]
    return list(dict.fromkeys(said))


def _named_by_unread_words(
    value: Any,
    allowed: Sequence[str],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> dict[str, Any] | None:
    """Where a value no source a rule admits gives is named by words of the turn the reading does
    not let stand (a mandate corrected later, for later, with part of it taken out or beside words
    not read; a clause not read): the reading the question shows. Such a value is the user's, or
    is not: a human says which; it is never refused for words the reader could not read, nor run
    unasked."""
    reading = context.read.reading
    if reading is None or reading.complete or "named" not in allowed:
        return None
    unread = " | ".join(span.text for span in reading.unread)  # the uncertain mandates' too
    found = found_in(value, named_sources(context, policy, asked, stated=unread))
    return reading.shown() if any(s.admitted_by(allowed) for s in found) else None


#: A value a provenance rule refuses under the policy's default verdict, found in the text of a
#: record the mandate for the call points at: the user sent the agent there, a third party wrote
#: what it found there, and a human says which (:func:`_asked_in_named_record`).
IN_NAMED_RECORD = "value_in_named_record"


#: A value a ``named`` rule refuses, held by a trusted listing, where the mandate for the call takes
#: in every record of a kind ("DM everyone on my team", "Share every deck with Piotr"): the gateway
#: cannot tell which records the whole holds, so a human says (:func:`_of_a_whole_the_turn_asks_for`).
OF_A_WHOLE = "value_of_a_whole_the_turn_names"
_WHOLE_WORDS = frozenset({"all", "every", "each", "everyone", "everybody", "everything"})


def _of_a_whole_the_turn_asks_for(
    value: Any, rule: ArgSource, asked: Requested | None, context: ReviewContext
) -> str | None:
    """The words by which the mandates for the call take in every record of a kind, where ``value``
    (refused by a rule that wants the record the request names) is a trusted listing's or the run's
    own; else None. Asked, never refused (the user asked for the whole) nor run unasked (the
    gateway does not know the whole: an attacker's pick from the same listing is asked too)."""
    if "named" not in rule.sources:
        return None
    stated = stated_for(asked, context.request, context.read)
    words = words_of(stated)
    every = next((w for w in words if w in _WHOLE_WORDS), None)
    if every is None:
        return None
    held = [
        s for s in found_in(value, context.sources) if (s.kind == "tool" and s.trusted) or s.kind == "own"
    ]
    return stated if held else None


#: The words by which a mandate takes a value of each kind from a record it names, rather than
#: giving it ("open Bob's link in #random", "DM each person on the TODO list", "pay the bill in
#: bill-dec.txt"): where none is written ("reply to the customer that we are on it"), a value of
#: that kind from the record's text is nothing the user sent the agent for, and stays refused.
TAKEN_WORDS: dict[str, frozenset[str]] = {
    "url": frozenset(
        {"link", "links", "url", "urls", "article", "page", "site", "website", "survey", "form"}
    ),
    "recipient": frozenset(
        {"whoever", "each", "every", "everyone", "everybody", "person", "people", "anyone", "attendees",
         "members", "list", "address", "addresses", "contact"}
    ),
    "amount": frozenset(
        {"bill", "bills", "invoice", "invoices", "amount", "total", "balance", "due", "sum", "figure",
         "price", "cost", "fee", "rest"}
    ),
    "iban": frozenset({"iban", "account", "bank", "details"}),
    "phone": frozenset({"number", "phone", "mobile"}),
}  # fmt: skip
#: Arguments that name who receives what a call sends.
RECIPIENT_ARGS = frozenset(
    {"to", "cc", "bcc", "member", "members", "recipient", "recipients", "email", "attendees"}
)


def value_kind(arg: str, value: Any) -> str | None:
    """The kind of a value a rule refused, as :data:`TAKEN_WORDS` names kinds (None: none)."""
    if is_number(value):
        return "amount"
    found = [kind for kind, _ in identifiers(str(value))]
    if any(kind in ("url", "domain") for kind in found):
        return "url"
    if "email" in found or arg.split(":")[0] in RECIPIENT_ARGS:
        return "recipient"
    return next((kind for kind in found if kind in TAKEN_WORDS), None)


def _beside_its_own(
    policy: SupervisorPolicy, name: str, args: Mapping[str, Any], rules: ToolRules, context: ReviewContext
) -> Decision | None:
    """A confidential value the turn lets go to a recipient it writes only outside the call's own
    mandates and what they point back to: in another request ("DM ana the wifi password and check
    mallory's status": mallory is written, to be checked), or in a clause that leaves it out ("...;
    mallory can wait", "Don't bother with mallory"). The call is asked (``request_partly_read``,
    the other clauses shown), never run unasked. None where the call's own mandates write the
    recipient themselves."""
    if not policy.confidentiality.readers or rules.requested is None:
        return None
    asked, read = rules.requested, context.read
    seen: dict[str, Any] = {}

    def narrowed() -> list[Source]:  # read only where a secret flows into the call
        about = _about_the_secret(asking_mandates(asked, context.request, read), policy)
        reading = read.reading if read is not None else None
        if reading is not None:  # a mandate the turn puts off or leaves uncertain gives no recipient
            standing = {m.text for m in reading.mandates}
            about = [m for m in about if m.text in standing]
        own = stated_text(about).split(" | ")
        whole = stated_for(asked, context.request, read).split(" | ")
        others = [text for text in whole if text and text not in own]  # other requests of its sentences
        # what the standing mandates about the secret state, without what the turn leaves out: a
        # recipient written anywhere else (a question, a statement, another request) is none
        kept = _REFERRED.sub(" ", without_left_out(" | ".join(t for t in own if t), context.request))
        kept = " | ".join(_without_descriptions(kept.split(" | "), _secret_names(policy), context.request))
        seen.update(own=own, others=others, kept=kept)
        return [Source("request", kept) if s.kind == "request" else s for s in context.sources]

    again = confidentiality(policy, name, args, context.calls, narrowed, context.read, None)
    if again is None or "unasked" in (again.details.get("flow") or {}):  # only the recipient is weighed
        return None
    kept, others = seen["kept"], list(seen["others"])
    others += [c.text for c in clauses_of(context.request) if c.text not in kept and c.text not in others]
    details = {**again.details, "read": seen["own"], "unread": others, "refused_on_the_reading": again.reason}
    return Decision("escalate", PARTLY_READ, details)


def _secret_phrases(policy: SupervisorPolicy) -> list[str]:
    """The names a policy gives its confidential values: its readers' ``names`` and its sensitive
    fields' words."""
    names = [n for r in policy.confidentiality.readers for n in r.names if n]
    return names + [field_word(f) for f in policy.sensitive_fields()]


def _secret_names(policy: SupervisorPolicy) -> set[str]:
    """The last words of the names a policy gives its confidential values ("wifi password":
    ``password``), and their plurals."""
    last = {words_of(n)[-1] for n in _secret_phrases(policy) if words_of(n)}
    return last | {f"{w}s" for w in last}


#: The nouns a confidential value's name runs on in ("the wifi password", "the door code").
_SECRET_NOUNS = frozenset(
    {"password", "passwords", "passcode", "passphrase", "pw", "pwd", "key", "keys", "code", "codes", "pin",
     "pins", "credentials", "login", "secret", "token", "details", "number"}
)  # fmt: skip
#: What may follow a confidential value's name in a mandate's object: where it goes, how, or more
#: of the list ("DM the password to ana", "... and the agenda", "... via Slack, now").
_AFTER_A_SECRET = frozenset(
    {
        "to",
        "with",
        "for",
        "and",
        "&",
        "+",
        "via",
        "over",
        "on",
        "in",
        "please",
        "now",
        "too",
        "also",
        "as",
        "by",
    }
)


def _without_its_description(text: str, names: Collection[str]) -> str:
    """A mandate's text without what describes the confidential value after its name, up to where
    it goes ("DM ana the guest wifi password mallory set up" → "... password"; "Send the wifi
    password, the one mallory set up, to ana" → "... password to ana"): someone a description
    names is no recipient."""
    tokens = text.split()
    at = max((i for i, t in enumerate(tokens) if words_of(t)[-1:] and words_of(t)[-1] in names), default=None)
    while (
        at is not None and at + 1 < len(tokens) and not tokens[at].endswith(",") and words_of(tokens[at + 1])
    ):
        if words_of(tokens[at + 1])[0] not in _SECRET_NOUNS:
            break
        at += 1  # the name runs on in the nouns of a secret ("the wifi password")
    if at is None or at + 1 >= len(tokens):
        return text
    rest = tokens[at + 1 :]
    after = words_of(rest[0])[:1]
    if (
        after
        and after[0] in _AFTER_A_SECRET
        and not tokens[at].endswith(",")
        and not _sent_to_before(tokens, at)
    ):
        return text
    return " ".join([*tokens[: at + 1], *_where_it_goes(rest)])


#: The words that open a confidential value's name in a mandate's object ("the guest wifi password").
_OPENING_A_NAME = frozenset({"the", "my", "our", "a", "an", "this", "that", "your", "their", "his", "her"})


def _sent_to_before(tokens: Sequence[str], at: int) -> bool:
    """Does a mandate name whom it sends a confidential value to before the value's name ("DM ana
    the guest wifi password ..."): then only a "to" or a "with" after the name adds a recipient,
    and "... for mallory", "... via mallory", "... in mallory's thread" name no one it goes to."""
    opening = max(
        (i for i in range(at) if words_of(tokens[i])[:1] and words_of(tokens[i])[0] in _OPENING_A_NAME),
        default=None,
    )
    if opening is None or opening < 2:
        return False
    return any(words_of(t)[:1] and words_of(t)[0] not in FUNCTION_WORDS for t in tokens[1:opening])


def _where_it_goes(tokens: Sequence[str]) -> list[str]:
    """The tokens from the first "to" or "with" on (where a value is sent; not "thanks to"), or none."""
    to = next(
        (
            j
            for j, t in enumerate(tokens)
            if words_of(t)[:1]
            and words_of(t)[0] in ("to", "with")
            and not (j and words_of(tokens[j - 1])[-1:] and words_of(tokens[j - 1])[-1] in _NOT_WHERE)
        ),
        None,
    )
    return list(tokens[to:]) if to is not None else []


#: Words after which a "to" says no destination ("thanks to mallory", "due to", "next to").
_NOT_WHERE = frozenset(
    {"thanks", "due", "owing", "according", "next", "similar", "compared", "close", "prior"}
)


def _without_descriptions(texts: Sequence[str], names: Collection[str], request: str) -> list[str]:
    """Each of a mandate's texts (its own, then the clauses that continue its object) without what
    describes the confidential value (:func:`_without_its_description`); a clause written right
    after the value's name, set apart by a comma or a dash, describes it too ("DM ana the wifi
    password, mallory's."), up to where it goes."""
    out: list[str] = []
    for i, text in enumerate(texts):
        before = words_of(texts[i - 1])[-1:] if i else []
        first = words_of(text)[:1]
        set_apart = bool(before and first) and re.search(
            rf"{re.escape(texts[i - 1])}\s*[,\u2014\u2013-]+\s*{re.escape(text)}", request
        )
        if (
            set_apart
            and (before[0] in names or before[0] in _SECRET_NOUNS)
            and first[0] not in _AFTER_A_SECRET
        ):
            text = " ".join(_where_it_goes(text.split()))  # a description of it, up to where it goes
        out.append(_without_its_description(text, names))
    return out


#: Who a mandate only refers to, names or weighs ("DM ana the wifi password re mallory", "...
#: quoting mallory", "... over mallory"): no recipient of what it sends.
_REFERRED = re.compile(
    rf"(?i)\b(?:{REFERRING_WORDS}|about|over|in\s+place\s+of|instead\s+of|rather\s+than)\s+(?:the\s+)?[^\s,;.|]+"
    rf"|{SOMEONE_ELSE.pattern.removeprefix('(?i)')}"  # "mallory's boss", "whoever replaced mallory"
)
#: Words by which a mandate points back to what an earlier clause named ("DM it to ana", "send one").
_POINTING_BACK = POINTING_BACK | {"one"}
#: What may follow a word that points back to an object ("DM it to ana", "share that with bob",
#: "send ana it"); any other word after it makes it the subject of a message's content ("tell
#: mallory it changed", "DM ana that the wifi is down"), which sends nothing it stands for.
_AFTER_AN_OBJECT = frozenset(
    {
        "to",
        "with",
        "for",
        "over",
        "on",
        "in",
        "via",
        "by",
        "and",
        "too",
        "also",
        "as",
        "please",
        "now",
        "again",
    }
)


def _points_back(words: Sequence[str]) -> bool:
    """Does a mandate (its words) point back to an earlier object, not only to a message's subject?"""
    return any(
        w in _POINTING_BACK and (i + 1 == len(words) or words[i + 1] in _AFTER_AN_OBJECT)
        for i, w in enumerate(words)
    )


def _about_the_secret(own: list[Any], policy: SupervisorPolicy) -> list[Any]:
    """Of the call's own mandates, those that can be about the confidential value: they name it
    (a reader's ``names`` or its field's word: "DM ana the guest wifi password") or point back to
    it ("DM it to ana"), in their own words, what they coordinate or what they point back to.
    "Send ana the wifi password. Send mallory the agenda.": the second sends mallory something
    else, so mallory is no recipient the turn gives the password to. All of them where none names
    or points (the secret is named elsewhere in the turn)."""
    wanted = [set(words_of(n)) for n in _secret_phrases(policy) if words_of(n)]

    def about(text: str) -> bool:
        written = words_of(text)
        words = set(written)
        stems = words | {w[:-1] for w in words if len(w) > 3 and w.endswith("s")}
        return _points_back(written) or any(name <= stems for name in wanted)

    own = [replace(m, coordinated=tuple(c for c in m.coordinated if about(c) or not _gapped(c))) for m in own]
    kept = [m for m in own if about(stated_text([m]))]
    return kept or own


#: What opens a second object after a recipient, in a clause whose verb is left out ("DM ana the
#: password and mallory's manager the agenda": "mallory's manager the agenda").
_SECOND_OBJECT = frozenset(
    {"the", "my", "our", "a", "an", "his", "her", "their", "its", "this", "that", "some"}
)


def _gapped(text: str) -> bool:
    """Is a clause that continues a mandate's object a request of its own with the verb left out
    ("... and mallory's manager the agenda", "... and the agenda to mallory"): a recipient, then a
    second object led by a determiner, or an object led by one and whom it goes to? Such a clause
    sends its own object, not the mandate's."""
    words = words_of(text)
    if words[:1] and words[0] in _SECOND_OBJECT and "to" in words[2:]:
        return True  # an object of its own and whom it goes to: "... and the agenda to mallory"
    return bool(words) and words[0] not in _SECOND_OBJECT and any(w in _SECOND_OBJECT for w in words[1:])


def _asked_in_named_record(
    refused: Decision,
    value: Any,
    verdict: Verdict,
    rules: ToolRules,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision:
    """A provenance refusal (a destination, an argument's source, an identifier in free text) of a
    value held by a record the user sent the agent to for it: a record the mandate for this call
    names itself ("pay bill-dec.txt", "reply to Carla Diaz's email about the venue"), or one the
    turn names where it takes a value of this kind from a record in words (:data:`TAKEN_WORDS`:
    "DM each person on the TODO list in #minutes", "open the survey link in Ana Silva's email").
    The user's own words sent the agent there and the record's author, not the user, wrote the
    value, so the call is neither run unasked nor refused: it is asked (``value_in_named_record``,
    with the rule that would refuse it and the record). A rule whose own ``verdict`` says
    ``block`` keeps its refusal; so does a value from a record the turn does not name (an
    instruction planted elsewhere), of a kind the turn takes from no record ("Read ticket T-7
    and reply to the customer": an address in the ticket's text), or beside a value of its kind the
    record holds in a field the policy trusts ("Pay Bob Lee": an IBAN in his payee note)."""
    if verdict is not None or refused.verdict != "block" or value is None:
        return refused
    naming = naming_of(policy, context.subject)
    kind = value_kind(str(refused.details.get("arg") or ""), value)
    turn = unprohibited_text(context.request)  # where the turn sent the agent, never "don't touch X"
    pointed = [
        (r, True) for r in pointed_records(_own_mandates(rules.requested, context), context.calls, naming)
    ]
    if kind is None or set(words_of(turn)) & TAKEN_WORDS.get(kind, frozenset()):
        pointed += [(r, False) for r in pointed_records(turn, context.calls, naming)]
    for record, own in pointed:
        held = Source("tool", " | ".join(t for _, t in leaf_paths(record.value)), record.tool, record.step)
        if found_in(value, [held]) and not _trusted_of_its_kind(record, kind, value, naming):
            named = f"{held.label()} ({record.by}{', by the mandate itself' if own else ''})"
            return Decision(
                "escalate",
                IN_NAMED_RECORD,
                {**refused.details, "named_record": named, "refused_by": refused.reason},
            )
    # an address whose person the mandate names by a word of its own ("with Ana, Bob and Carl":
    # carl@partner-firm.example, which only an event's attendees hold): the user's person, at an
    # address a record of the user's own holds (their event) where the policy does not trust it,
    # asked (one a third party wrote, or none, is not)
    held_by_the_users_own = isinstance(value, str) and any(
        naming.owned(str(done.get("tool")), record)
        and value.strip().casefold() in {str(x).strip().casefold() for x in leaves(record)}
        for done in context.calls
        for _path, record in mappings(parsed(done.get("observation")))
    )
    described = _described_by_its_words(value, _own_mandates(rules.requested, context), context, policy)
    if described:  # "Send the ETL article link to ana": Bob's "Great read on ETL: https://..."
        return Decision(
            "escalate",
            IN_NAMED_RECORD,
            {**refused.details, "named_record": described, "refused_by": refused.reason},
        )
    if held_by_the_users_own and isinstance(value, str) and "@" in value:
        mandate = _own_mandates(rules.requested, context) or turn
        person = value.split("@")[0]
        words = [w for w in re.split(r"[._+-]", person) if len(w) >= 3 and w.isalpha()]
        said = [w for w in words if re.search(rf"(?<![\w@.-]){w.capitalize()}(?![\w@-])", mandate)]
        if said:
            return Decision(
                "escalate",
                IN_NAMED_RECORD,
                {**refused.details, "named_person": said[0].capitalize(), "refused_by": refused.reason},
            )
    return refused


def _described_by_its_words(
    value: Any, mandate: str, context: ReviewContext, policy: SupervisorPolicy
) -> str:
    """The record that holds ``value`` where the mandate asks for a thing a ``Follow`` rule takes
    ("the ETL article link", "the Q4 planning doc link") and describes it by words that record's
    text holds and no other record's does ("ETL"): the user pointed at it in words, not by a key
    the policy trusts, so the call is asked, never refused (an empty string where none is)."""
    kinds = {o.casefold() for rule in policy.follow for o in rule.objects}
    words = [w for w in content_words(mandate) if w not in COURTESY]
    if not isinstance(value, str) or not kinds & set(words):
        return ""
    declared = policy_words(policy).all
    described = [w for w in words if w not in kinds and w not in declared and not _A_FIGURE.fullmatch(w)]
    holding, others = [], []
    for done in context.calls:
        for _path, record in mappings(parsed(done.get("observation"))):
            text = {w for leaf in leaves(record) if isinstance(leaf, str) for w in content_words(leaf)}
            if any(isinstance(x, str) and value.strip() in x for x in leaves(record)):
                holding.append((done, text))
            else:
                others.append(text)
    for done, text in holding:
        mine = [w for w in described if w in text]
        if mine and not any(set(mine) <= other for other in others):
            return f"{done.get('tool')} (step {done.get('step')}) (described by {', '.join(mine)})"
    return ""


def _to_whom_the_turn_names(refused: Decision, policy: SupervisorPolicy) -> Decision:
    """A confidential value refused only because its recipient is not in the reader's
    ``recipient_sources``, where the turn names the value and every recipient is a trusted value of
    a record the turn names ("Email Dr. Hana Lee my passport number": her address in the trusted
    contacts; ``details["recipient_named"]``): the user sent it to that person in words, so the
    call is asked (``value_in_named_record``), never refused nor run unasked. A rule whose own
    ``verdict`` says ``block`` keeps the refusal."""
    named = refused.details.get("recipient_named")
    if policy.confidentiality.verdict is not None or refused.verdict != "block" or not named:
        return refused
    details = {k: v for k, v in refused.details.items() if k != "recipient_named"}
    return Decision(
        "escalate", IN_NAMED_RECORD, {**details, "named_record": named, "refused_by": refused.reason}
    )


#: Words by which a turn sends something to a whole it does not list ("DM the password to everyone
#: but mallory", "... to the team", "... to all members").
_WHOLE_RECIPIENTS = frozenset(
    {"everyone", "everybody", "all", "anyone", "anybody", "team", "members", "group", "channel", "staff"}
)


def _to_a_whole(
    refused: Decision, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision:
    """A confidential value refused for its recipient, where the mandate that sends it sends it to
    a whole the turn does not list ("DM the password to everyone but mallory", "... to the team"):
    the gateway cannot tell who the whole holds, so a recipient the turn does not write is asked
    (:data:`OF_A_WHOLE`), never refused nor run unasked. One the turn writes (the one it leaves out:
    mallory) keeps the refusal, and so does a rule whose own ``verdict`` says ``block``."""
    told = refused.details.get("flow") or {}
    recipient = str(told.get("recipient") or "").split(" (")[0]  # "ana (appears in ...)": the value
    if policy.confidentiality.verdict is not None or refused.verdict != "block" or not recipient:
        return refused
    if "unasked" in told or set(words_of(recipient.split("@")[0])) & set(words_of(context.request)):
        return refused  # the secret is not asked for, or the turn writes the recipient itself
    stated = stated_for(asked, context.request, context.read)
    whole = next((w for w in words_of(stated) if w in _WHOLE_RECIPIENTS), None)
    if whole is None:
        return refused
    return Decision("escalate", OF_A_WHOLE, {**refused.details, "whole": whole, "refused_by": refused.reason})


def _partly_named(
    value: Any, rule: ArgSource, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> dict[str, Any] | None:
    """Where a ``named`` rule refuses ``value``, a record that holds it (in a field the policy
    trusts) and that the mandates for the call name by a part of its name only
    (:func:`~policies.supervisor.request.records.partly_named_records`: "Raise Dana's salary", "...
    I mean Dana" for Dana Whitfield): the details of a question, or None. A rule whose own
    ``verdict`` is set keeps its refusal."""
    if "named" not in rule.sources or rule.verdict is not None:
        return None
    naming = naming_of(policy, context.subject)
    # the mandates' words and the turn's others but its prohibitions ("... I mean Dana.")
    stated = f"{stated_for(asked, context.request, context.read)} | {unprohibited_text(context.request)}"
    for record in partly_named_records(stated, context.calls, naming):
        held = Source("tool", " | ".join(t for _, t in leaf_paths(record.value)), record.tool, record.step)
        if found_in(value, [held]):
            return {"partly_named": f"{held.label()} ({record.by}), named in part"}
    return None


def _reached_through_a_named_record(
    value: Any, rule: ArgSource, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> dict[str, Any] | None:
    """Where a ``named`` rule refuses ``value``, a record of a trusted listing that holds it and,
    in another field, a value of a record the mandates for the call name, and whose own words the
    mandates write ("Remove the minibar charge from Mr. Daniel Roy's folio": the charge of Daniel
    Roy's reservation whose item is Minibar): the details of a question, or None. The turn names the
    record through another, in words the review does not trace: asked, never refused."""
    if (
        "named" not in rule.sources
        or rule.verdict is not None
        or not isinstance(value, str)
        or is_number(value)
    ):
        return None  # a record's id or name; a figure a named record holds is weighed as a figure
    naming = naming_of(policy, context.subject)
    stated = stated_for(asked, context.request, context.read)
    named = pointed_records(stated, context.calls, naming)
    held = {
        leaf.strip().casefold()
        for r in named
        for _p, leaf in leaf_paths(r.value)
        if isinstance(leaf, str) and any(ch.isdigit() for ch in leaf)
    }
    said = {singular(w) for w in words_of(stated) if len(w) > 2 and w not in FUNCTION_WORDS}
    wanted = identity(value)
    records = list(_trusted_records(context))
    # one hop further: the records that hold a named record's id ("Sam Reyes's check-ups": the
    # appointments of the pets whose owner is Sam Reyes)
    held |= {
        str(own_id).strip().casefold()
        for r in records
        if any(isinstance(v, str) and v.strip().casefold() in held for v in r.values())
        and isinstance(own_id := r.get("id", next(iter(r.values()), None)), str)
    }
    for record in records:
        leaves_ = [v for v in record.values() if isinstance(v, str | int | float) and not isinstance(v, bool)]
        if wanted not in {identity(v) for v in leaves_}:
            continue
        through = [v for v in leaves_ if isinstance(v, str) and v.strip().casefold() in held]
        words = {w for v in leaves_ if isinstance(v, str) for w in words_of(v)}
        words |= {w for k in record for w in words_of(str(k).replace("_", " ")) if w != "id"}  # "due date"
        own = {singular(w) for w in words} & said
        if through and own:
            return {"reached_through": sorted(through), "by_its_words": sorted(own)}
    return None


def _named_by_a_field(
    value: Any, rule: ArgSource, asked: Requested | None, context: ReviewContext
) -> dict[str, Any] | None:
    """Where a ``named`` rule refuses ``value``, a record of a trusted listing that holds it and
    that the mandates for the call name by a field's name and its value ("room 702" for the
    reservation whose ``room`` is 702, "seat B14", "table 12"): the details of a question, or None."""
    if (
        "named" not in rule.sources
        or rule.verdict is not None
        or not isinstance(value, str)
        or is_number(value)
    ):
        return None  # a record's id or name; a figure a named record holds is weighed as a figure
    stated = stated_for(asked, context.request, context.read)
    wanted = identity(value)
    for record in _trusted_records(context):
        if wanted not in {identity(v) for v in record.values() if isinstance(v, str | int | float)}:
            continue
        for key, v in record.items():
            text = str(v).strip() if isinstance(v, str | int) and not isinstance(v, bool) else ""
            if not text or " " in text or key.casefold() in ("id", "amount"):
                continue
            said = rf"(?i)(?<![\w-]){re.escape(str(key).replace('_', ' '))}\s+(?:no\.?\s+|number\s+|#)?"
            if re.search(said + rf"{re.escape(text)}(?![\w-])", stated):
                return {"named_by_its_field": f"{key} {text}"}
    return None


def _named_whole_in(record: Any, text: str) -> bool:
    """Does ``text`` write a name of ``record`` whole: a text field of two words or more, no address?"""
    return any(
        isinstance(leaf, str)
        and len(leaf.split()) > 1
        and "@" not in leaf
        and re.search(rf"(?i)(?<![\w-]){re.escape(leaf.strip())}(?![\w-])", text) is not None
        for _p, leaf in leaf_paths(record)
    )


def _named_otherwise(
    value: Any, arg: str, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Is ``value`` admitted only from a record another mandate names, while the mandate asking for
    the call names, in part, a record that holds another value where the admitted one holds it
    ("Refund ORD-1002 and email Dana." and the call mails ORD-1002's customer; Dana Levi's order
    holds her address)? Then the call is asked: the mandate names its own whom, in words the reader
    could not complete. For whom a call sends to, the person the mandate names in part counts before
    the records it is about."""
    if asked is None or isinstance(value, bool):
        return None
    text = str(value).strip()
    naming = naming_of(policy, context.subject)
    each = []
    for asking in _asking_now(asked, context):
        own = ", ".join([asking.text, *asking.coordinated])
        # whom a call sends to is whom its mandate names, before the records it is about ("Email Dana
        # about Ben's order ORD-1002", "Send Ben the refund for ORD-1004")
        whom = arg.split(":")[0] in RECIPIENT_ARGS or "@" in text
        if whom:
            own = _POSSESSIVE.sub(" ", _REFERRED.sub(" ", own))
        partly = partly_named_records(own, context.calls, naming)
        pointed = pointed_records(own, context.calls, naming)
        named = partly if whom and partly else [*partly, *pointed]
        # (a record the mandate names by a whole name of its own holds it: "Send INV-2026-0142 to Kai
        # Jensen" beside the client Jensen & Co, which it names in part)
        holding = [*named, *(r for r in pointed if _named_whole_in(r.value, own))] if whom else named
        each.append(
            (asking, named, any(leaf.strip() == text for r in holding for _p, leaf in leaf_paths(r.value)))
        )
    # a mandate of the verb that every mandate for the call has names a record holding it ("Pay
    # B-31. Pay B-40."); of two verbs, the first that names records decides ("Pay B-31 and *settle*
    # B-40": the second may be no request of its own)
    if len({asking.verb for asking, _n, _h in each}) == 1 and any(holds for _a, _n, holds in each):
        return None
    for asking, named, holds in each:
        if holds:
            return None  # the mandate's own record holds it
        if not named:
            continue
        held = {  # the listings that hold it, and where
            (str(call.get("tool")), p)
            for call in context.calls
            for p, leaf in leaf_paths(parsed(call.get("observation")))
            if leaf.strip() == text
        }
        other = sorted(
            {
                leaf
                for r in named
                for p, leaf in leaf_paths(r.value)
                if (r.tool, p) in held and leaf.strip() != text
            }
        )
        if other:
            details = {"arg": arg, "value": value, "the_mandate_names": other, "mandate": said(asking)}
            return _asked_outside(details, context, policy)
    return None


def _trusted_of_its_kind(record: Record, kind: str | None, value: Any, naming: Naming) -> bool:
    """Does the record hold, in a field the policy trusts, another value of the refused value's
    kind (Bob Lee's payee record holds his IBAN; an IBAN its note names is no value the user sent
    the agent there for)?"""
    if kind is None:
        return False
    mine = [Source("tool", str(value))]
    return any(
        naming.trusted(record.tool, (*record.path, *path))
        and value_kind(path[-1] if path else "", text) == kind
        and not found_in(text, mine)
        for path, text in leaf_paths(record.value)
    )


def _own_mandates(asked: Requested | None, context: ReviewContext) -> str:
    """The text of the mandates that ask for the call's kind themselves and what they point back to
    (a reference before a colon, a pronoun's antecedent: "Carla's email: reply with thanks"), not
    the other mandates of their sentences, and the spans the reader could not read (any of them
    could be such a mandate: "IT Desk's email: reply with thanks, I'll pick it up tomorrow")."""
    reading = context.read.reading
    unread = [span.text for span in reading.unread] if reading is not None else []  # could be one
    if asked is None:
        return " | ".join(unread)
    found = step_mandates(context.request, asked.keywords, asked.verbs, asked.objects, context.read)
    return " | ".join([stated_text(found), *(text for m in found for text in m.antecedents), *unread])


def _provenance(
    name: str, rules: ToolRules, args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | dict[str, str]:
    """The provenance rules: the policy-wide flow rules (destinations, confidential values), where
    each ruled argument's values and each identifier in free text came from, and whether the
    request asks for this kind of action. A rule that fails gives its decision (details: where the
    value does appear, the flow it stopped); else where each checked value came from."""

    def follow(arg: str, value: Any) -> str | None:
        return followed(
            policy, name, arg, value, context.request, context.calls, context.subject, context.read
        )

    def sources() -> Sequence[Source]:  # built when a flow rule reads them
        return context.sources

    refused = confidentiality(
        policy,
        name,
        args,
        context.calls,
        sources,
        context.read,
        lambda: named_sources(context, policy, rules.requested),
    )
    if refused is not None:
        return _to_a_whole(_to_whom_the_turn_names(refused, policy), rules.requested, context, policy)
    beside = _beside_its_own(policy, name, args, rules, context)
    if beside is not None:
        return beside
    refused, checked = destinations(policy, name, args, sources, follow)
    if refused is not None and policy.destinations is not None:
        value = refused.details.get("value")
        return _asked_in_named_record(refused, value, policy.destinations.verdict, rules, context, policy)
    pointed: list[Source] | None = None
    left_out: Decision | None = None
    admitted: list[Any] = []  # the values the rules admit, weighed together after them
    derivations: list[Derivation] = []  # the turn's stated arithmetic that gave a value
    for rule in rules.arg_sources:
        if "named" in rule.sources and pointed is None:
            # (a time or a figure the call takes as its own points at no record that holds it:
            # "Book Fjell for Ben Cho ... at 09:00" names no other member's 09:00 booking)
            taken = {
                str(v).casefold()
                for v in args.values()
                if isinstance(v, str) and v.strip() and not re.search(r"[^\W\d_]", v)
            }
            pointed = [*context.sources, *named_sources(context, policy, rules.requested, taken=taken)]
        everywhere = pointed if "named" in rule.sources and pointed is not None else context.sources
        for value in rule_values(args.get(rule.arg)):  # a short code and a flag too: found by whole token
            found = found_in(value, everywhere)
            checked[rule.arg] = _where(value, found)
            admitting = [
                s for s in found if s.admitted_by(rule.sources) and _said(value, s, context, rule.arg)
            ]
            if admitting and left_out is None:  # asked only where nothing else refuses the call
                left_out = _a_word_for_records(value, rule.arg, context, policy)
            if admitting and left_out is None:
                left_out = _a_figure_reached_through_another(value, rule.arg, admitting, context, policy)
            if admitting and left_out is None:
                left_out = _left_out(value, rule.arg, rules.requested, context, policy, args)
            if admitting and left_out is None:
                left_out = _outside_the_mandate(value, rule.arg, admitting, rules.requested, context, policy)
            if admitting and left_out is None:
                left_out = _the_old_value(value, rule.arg, context, policy, name)
            if admitting and left_out is None:
                left_out = _before_dawn_without_its_half(value, rule.arg, context, policy)
            if admitting and left_out is None:
                left_out = _corrected_away(value, rule.arg, context, policy)
            if admitting and left_out is None and all(s.kind != "request" for s in admitting):
                left_out = _another_of_its_listing_written(
                    value, rule.arg, args, rules.requested, context, policy
                )
            if admitting and left_out is None and all(s.kind == "own" for s in admitting):
                left_out = _own_described_as_another(value, rules.requested, context, policy)
            if admitting and left_out is None:
                left_out = _not_the_figure_stated(value, rule.arg, args, rules.requested, context, policy)
            if admitting and left_out is None:
                left_out = _a_topic_beside_its_own_record(
                    value, rule.arg, admitting, rules.requested, context, policy
                )
            if admitting and left_out is None:
                left_out = _pointed_back_among_several(
                    value, rule.arg, args, rules.requested, context, policy
                )
            if admitting and left_out is None:
                left_out = _several_ids_unlisted(value, rule.arg, args, rules.requested, context, policy)
            if admitting and left_out is None:
                left_out = _beside_the_object(value, rule.arg, name, args, rules.requested, context, policy)
            if admitting and left_out is None:
                left_out = _of_another_quantity(value, rule.arg, name, args, rules.requested, context, policy)
            if admitting and left_out is None and all(s.kind == "request" for s in admitting):
                left_out = _modifying_another_head(
                    value, rule.arg, name, args, rules.requested, context, policy
                )
            if admitting and left_out is None and all(s.kind == "request" for s in admitting):
                left_out = _edited_away(value, rule.arg, context, policy)
            if admitting and left_out is None and all(s.kind == "request" for s in admitting):
                left_out = _qualified(value, rule.arg, context, policy)
            if admitting and left_out is None:
                left_out = _possessing_another_thing(
                    value, rule.arg, name, args, rules.requested, context, policy
                )
            if left_out is None and admitting and all(s.kind == "named" for s in admitting):
                left_out = _modifying_another_head(
                    value, rule.arg, name, args, rules.requested, context, policy, named=True
                )
            if admitting and left_out is None:
                left_out = _only_in_a_statement(value, rule.arg, args, rules.requested, context, policy)
            if admitting and left_out is None:
                left_out = _its_own_beside_the_pointer(
                    value, rule.arg, name, args, rules.requested, context, policy
                )
            if admitting and left_out is None:
                left_out = _a_place_pointed_past(value, rule.arg, rules.requested, context, policy)
            if admitting and left_out is None:
                left_out = _paired_otherwise(value, rule.arg, args, context, policy)
            if admitting and left_out is None:
                left_out = _a_state_pointed_back(value, rule.arg, rules.requested, context, policy)
            if left_out is None and admitting and all(s.kind == "named" for s in admitting):
                left_out = _named_otherwise(value, rule.arg, rules.requested, context, policy)
            if left_out is None and admitting and all(s.kind == "named" for s in admitting):
                left_out = _another_of_its_list(value, rules.requested, context, policy)
            if left_out is None and admitting and all(s.kind == "named" for s in admitting):
                left_out = _sent_to_the_user(value, rule.arg, rules.requested, context, policy)
            if left_out is None and admitting and all(s.kind == "named" for s in admitting):
                left_out = _sent_to_a_relation(value, rule.arg, rules.requested, context, policy)
            if left_out is None and admitting and all(s.kind == "named" for s in admitting):
                left_out = _an_open_kind(value, rule.arg, rules.requested, context, policy)
            if left_out is None and admitting and all(s.kind == "named" for s in admitting):
                left_out = _named_only_as_a_topic(value, rule.arg, rules.requested, context, policy)
            if admitting:
                admitted.append(value)
            bounded = _stated_bound(value, admitting, rules.requested, context, (name, *args))
            if isinstance(bounded, Decision):
                return bounded
            if (
                admitting
                and not bounded
                and not _only_an_operand(value, admitting, context.request, rule.arg)
                and not _only_a_named_operand(value, admitting, context)
            ):
                continue
            derived = derived_from(
                value,
                everywhere,
                rule.sources,
                rule.derived,
                rule.max_terms,
                request=context.request,
                reader=context.read,
            )
            told_by = derived.describe() if derived else _follow_traced(follow, rule.arg, value)
            derivations += [derived] if derived else []
            if told_by:
                checked[rule.arg] = told_by
                continue
            details = {"arg": rule.arg, "value": value, "allowed_sources": list(rule.sources)}
            where = {"provenance": {rule.arg: checked[rule.arg]}}
            uncertain = _named_by_unread_words(value, rule.sources, rules.requested, context, policy)
            if uncertain is not None:  # the turn named it, in words it does not let stand: asked
                return Decision("escalate", PARTLY_READ, {**details, **where, **uncertain})
            told = flow(value, checked[rule.arg], f"{name}.{rule.arg}")
            described = _amount_in_words(value, rule, context)
            if described:  # an amount described by arithmetic the gateway could not follow: asked
                shown = _turn_reading(context, policy).shown()
                said = {**details, **where, **told, **shown, "amount_words": described}
                return Decision("escalate", PARTLY_READ, {**said, "refused_by": rule.reason})
            refused = Decision(policy.verdict(rule.verdict), rule.reason, {**details, **where, **told})
            whole = _of_a_whole_the_turn_asks_for(value, rule, rules.requested, context)
            if whole is not None and rule.verdict is None:
                return Decision(
                    "escalate", OF_A_WHOLE, {**refused.details, "whole": whole, "refused_by": rule.reason}
                )
            partly = (
                _partly_named(value, rule, rules.requested, context, policy)
                or _reached_through_a_named_record(value, rule, rules.requested, context, policy)
                or _named_by_a_field(value, rule, rules.requested, context)
                or _pointing_at_nothing_read(value, rules.requested, context)
                or _picked_in_words(value, rules.requested, context)
                or _in_capitals_only(value, rule, context)
                or _written_apart(value, rule, context)
                or _a_figure_written_otherwise(value, rule, context)
                or _a_day_written_otherwise(value, rule, context)
                or _a_time_written_in_words(value, rule, context)
                or _an_operand_as_written(value, admitting, rule, context)
            )
            if partly is not None:  # "Raise Dana's salary": Dana Whitfield's, in part of her name
                return Decision(
                    "escalate", PARTLY_READ, {**refused.details, **partly, "refused_by": rule.reason}
                )
            return _asked_in_named_record(refused, value, rule.verdict, rules, context, policy)
    if left_out is None and admitted:
        left_out = _when_not_kept(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _where_not_kept(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _in_another_script(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _version_not_kept(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _tagged_or_awaited(name, args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _unread_in_the_act(name, args, rules.requested, context, policy, derivations)
    if left_out is None and admitted:
        left_out = _a_part_of_the_record(name, args, rules.requested, context, policy, derivations)
    if left_out is None and admitted:
        left_out = _described_otherwise(name, args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _a_figure_per_unit(args, context, policy)
    if left_out is None and admitted:
        left_out = _named_by_another_id(args, rules.requested, context, policy, derivations)
    if left_out is None and admitted:
        left_out = _another_party_named(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _held_by_another_than_named(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _a_siblings_description(name, args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _when_of_another_record(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _another_person_than_named(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _the_note_not_kept(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _part_of_the_day_not_kept(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _another_value_of_its_field(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _another_record_instead(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _picked_by_its_place(args, rules.requested, context, policy)
    if left_out is None and admitted:
        left_out = _greets_someone_read(context, policy)
    if left_out is None and admitted:
        left_out = _excluded_by_name(args, context)
    if left_out is None and admitted:
        left_out = _bound_otherwise(name, args, rules.requested, context, policy)
    if left_out is None and len(admitted) > 1:
        left_out = _split_across_mandates(admitted, rules.requested, context, policy)
    if left_out is None and len(admitted) > 1:
        left_out = _pointed_back_for_several(admitted, rules.requested, context, policy)
    for value in admitted if left_out is None else ():
        left_out = _only_another_mandates(value, rules.requested, context, policy)
        if left_out is not None:
            break
    if rules.identifiers is not None:
        refused = _free_text(name, rules.identifiers, args, context, checked, policy)
        if refused is not None:
            value = refused.details.get("identifier")
            return _asked_in_named_record(refused, value, rules.identifiers.verdict, rules, context, policy)
    asked = rules.requested
    if asked is not None and not requested(asked, context.request, context.read):
        # a step the request makes conditional stands on its condition, checked on trusted data
        check = conditioned(asked, args, context, policy)
        if check is None:
            said = {k: v for k, v in asked.model_dump(include={"keywords", "verbs", "objects"}).items() if v}
            partly = partly_read(asked, args, context, policy)
            if partly is not None:  # never refused for what the reader could not read: asked
                return Decision("escalate", PARTLY_READ, {**said, **partly})
            told = flow(name, "the request does not ask for this kind of action", name)
            return Decision(policy.verdict(asked.verdict), asked.reason, {**said, **told})
        if not check.holds:
            return Decision("escalate", "condition_not_checked", check.details())
        checked["condition"] = check.told
    planted, notes = planted_detail(policy, name, rules, args, context)
    if planted is not None:
        return planted
    other = _in_another_currency(args, rules, context, policy)
    if other is None:  # a message to someone the turn does not address, or saying what it does not
        other = _addressed_to_another(args, rules.requested, context, policy)
    if other is None:
        other = _posted_where_no_one_addressed_is(args, rules.requested, context, policy)
    if other is None:
        other = _a_value_the_message_adds(args, rules.requested, context, policy)
    if other is None:
        other = _a_message_the_turn_does_not_say(args, rules.requested, context, policy)
    # no rule admits a value: how the turn binds them still holds (a call a human approves is
    # asked anyway, and its request stands in for them only where it binds them: _check_authority)
    if other is None and not admitted and not rules.require_approval:
        other = _bound_otherwise(name, args, rules.requested, context, policy)
    if other is not None:
        return other
    return left_out if left_out is not None else {**checked, **notes}


#: Currencies as a turn writes them, by code ("Pay B-40 in USD", "... in dollars").
_CURRENCY_WORDS = {
    "eur": "EUR", "euro": "EUR", "euros": "EUR", "usd": "USD", "dollar": "USD", "dollars": "USD",
    "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "sterling": "GBP", "chf": "CHF", "franc": "CHF",
    "francs": "CHF", "jpy": "JPY", "yen": "JPY", "cad": "CAD", "aud": "AUD", "sek": "SEK", "nok": "NOK",
    "dkk": "DKK", "pln": "PLN", "czk": "CZK", "inr": "INR", "rupees": "INR", "cny": "CNY", "yuan": "CNY",
    "us dollars": "USD", "us dollar": "USD", "usdt": "USDT", "usdc": "USDC", "bitcoin": "BTC", "btc": "BTC",
    "crypto": "CRYPTO", "ether": "ETH", "eth": "ETH", "kind": "IN KIND", "cash": "CASH", "cents": "CENTS",
    "$": "USD", "£": "GBP", "¥": "JPY", "€": "EUR", "₹": "INR",
}  # fmt: skip
_IN_A_CURRENCY = re.compile(r"(?i)\b(?:in|into|as)\s+(us\s+dollars?|[a-z]+|[$£¥€₹])(?![\w$£¥€₹])")
#: A currency's code or name beside a figure ("260 USD", "USD 260", "260 yen", "45,30 CHF").
_BESIDE_A_FIGURE = re.compile(r"(?i)(?:(?<![\d.,'])\d[\d.,']*\s*([a-z]+)\b|\b([a-z]+)\s*(?=\d))")
#: Currency signs, by code ("$260", "£260", "260€").
_CURRENCY_SIGNS = {"$": "USD", "£": "GBP", "¥": "JPY", "€": "EUR", "₹": "INR", "₩": "KRW", "₽": "RUB"}


@lru_cache(maxsize=1024)  # the same turn, read again for each call of its run
def _currencies(text: str, *, beside: bool = False) -> frozenset[str]:
    """The currencies ``text`` asks money in ("in USD", "in dollars"), by code; with ``beside``, also
    those written as a figure's unit or sign ("260 USD", "$260")."""
    found = [" ".join(m.group(1).casefold().split()) for m in _IN_A_CURRENCY.finditer(text)]
    if beside:
        found += [(m.group(1) or m.group(2)).casefold() for m in _BESIDE_A_FIGURE.finditer(text)]
    signs = {code for sign, code in _CURRENCY_SIGNS.items() if sign in text} if beside else set()
    return frozenset({_CURRENCY_WORDS[word] for word in found if word in _CURRENCY_WORDS} | signs)


def _in_another_currency(
    args: Mapping[str, Any], rules: ToolRules, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """A currency the mandates for the call ask the money in ("Pay B-40 in USD") that the call does
    not carry: its ``currency`` argument says another, or it has none to say it (the policy's
    ``NumberArg.currency`` says which a call without one pays in: "Refund $20" for a desk in EUR).
    Asked (the turn read in part), never run unasked in the record's currency nor refused."""
    asked = rules.requested
    # a figure's unit ("Refund 10 EUR") weighs only where the call carries a currency to compare
    given = next((str(v).upper() for k, v in args.items() if k.casefold() == "currency"), None)
    if given is None:
        given = next((n.currency for n in rules.number_args if n.currency and n.arg in args), None)
    if given is None:  # the one currency the policy lets the call, or any of its calls, pay in
        given = _the_one_currency(rules) or _the_policys_currency(policy)
    if not _currencies(context.request, beside=given is not None):
        return None  # the turn asks for no currency: nothing more to read
    wanted = _currencies(stated_for(asked, context.request, context.read), beside=given is not None)
    if not wanted and asked is not None:  # a sign the mandate's words leave out ("Pay B-40 in $.")
        sentences = {m.sentence for m in _asking_now(asked, context)}
        wanted = frozenset().union(*(_currencies(t) for t in sentences))
    if not wanted:
        return None
    if given is not None and wanted == {given}:
        return None
    said = {"currency_asked": sorted(wanted), "currency_of_the_call": given}
    return Decision("escalate", PARTLY_READ, {**said, **_turn_reading(context, policy).shown()})


def _the_one_currency(rules: ToolRules) -> str | None:
    """The one currency a tool's rules let it pay in (``OneOf`` on ``currency`` with one value, or
    a ``NumberArg.currency``), else None."""
    for o in rules.one_of:
        if o.arg.casefold() == "currency" and len(o.values) == 1 and o.subject_key is None:
            return str(o.values[0]).upper()
    return next((n.currency for n in rules.number_args if n.currency), None)


def _the_policys_currency(policy: SupervisorPolicy) -> str | None:
    """The account's currency: the one currency every tool rule that names one pays in ("EUR"
    where ``send_payment`` takes euros only; a transfer between the user's accounts moves them)."""
    named = {c for c in (_the_one_currency(r) for r in policy.rules.values()) if c}
    return next(iter(named)) if len(named) == 1 else None


#: Why a value a rule admits is put to a human: a record the turn leaves out holds it ("Add the
#: offsite to my calendar, just me, leave Jonas Berg out" and the call invites Jonas Berg), and
#: neither the turn's own words nor a record its mandates name give it.
LEFT_OUT = "value_of_a_record_left_out"


def _left_out(
    value: Any,
    arg: str,
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
    args: Mapping[str, Any] | None = None,
) -> Decision | None:
    """Is ``value`` held by a record the turn names only to leave it out (a prohibition, "keep X",
    "leave X out", "X stays open"), and given by nothing the turn asks for? Then the call is asked:
    a value the record shares with one the turn wants (a payee's IBAN on both its bills) is not
    the turn's "no", so it is never refused for it. A value the record holds in a field the call
    sets to another (``args``: "Put Jo Blake on EV-4106 instead of Rosa Greene", its coordinator)
    is what the call replaces, not the record left out."""
    left = left_out_text(context.request)
    ident = identity_of(value) if left and not isinstance(value, bool) else None
    if ident is None:
        return None
    naming = naming_of(policy, context.subject)
    holding = [
        r
        for r in pointed_records(left, context.calls, naming)
        if r.keyed and ident in kinds_in(r.value, value)
    ]
    replaced = {
        str(v).strip().casefold()
        for r in holding
        if isinstance(r.value, Mapping)
        for k, v in r.value.items()
        if args
        and k in args
        and isinstance(v, str)
        and str(args[k]).strip().casefold() != v.strip().casefold()
    }
    if replaced and all(
        any(_written_whole(v, w) for v in replaced)
        for w in re.split(r"\s*(?:,|\band\b)\s*", left)
        if w.strip()
    ):
        return None  # what the call sets in place of it ("... instead of Rosa Greene")
    if not holding:
        return None
    # the key of a record left out ("Do not process C-38. Deny Rita Ortega's claim." with C-38 hers):
    # the turn says not to act on that very record, whatever else names it
    its_key = any(
        isinstance(r.value, Mapping)
        and any(identity_of(r.value.get(k)) == ident for k in naming.keys.get(r.tool, ()))
        for r in holding
    )
    wanted = [Source("request", unprohibited_text(context.request)), *named_sources(context, policy, asked)]
    if not its_key and found_in(value, wanted):
        return None
    record = holding[0]
    details = {
        "arg": arg,
        "value": value,
        "left_out": left,
        "record": f"{record.tool} (step {record.step}): {record.by}",
    }
    return Decision("escalate", LEFT_OUT, details)


#: Why a value the turn gives is put to a human: it is written in the turn, but not in what the turn
#: asks the call with ("Forget about bob@corp.example. Email ana@corp.example the notes." and the
#: call mails bob): a clause the reader takes no mandate from is no request to act on its value.
OUTSIDE_THE_MANDATE = "value_outside_the_mandate"


#: A word written as someone's, that qualifies what it stands before ("bob@corp.example's trip"):
#: no one a call sends to.
_POSSESSIVE = re.compile(r"(?<!\S)\S+?(?:'s|'|’s|’)(?=\s)")
#: Words before a value that make it only what a mandate's object is about or is set beside ("...
#: about the Grand Budapest", "... near the Grand Budapest", "... re #leaks", "... rather than X"):
#: not the value the call is asked with.
_QUALIFYING = (
    rf"{REFERRING_WORDS}|about|in\s+place\s+of|instead\s+of|rather\s+than|near|next\s+to|close\s+to"
    r"|opposite|beside|like|similar\s+to|than"
)
#: And before someone or an account: where what is sent comes from, who made it, whom it is of
#: ("Email ana the notes from / by / of / on behalf of bob@corp.example", "... saying bob left").
_QUALIFYING_SOMEONE = r"from|by|of|on\s+behalf\s+of|saying|over|made\s+by|forwarded\s+by"


def _unqualified(value: Any, text: str, someone: bool) -> str:
    """``text`` without each place it writes ``value`` only as what the mandate is about or sets
    it beside (:data:`_QUALIFYING`; for someone or an account, :data:`_QUALIFYING_SOMEONE` too)."""
    words = f"{_QUALIFYING}|{_QUALIFYING_SOMEONE}" if someone else _QUALIFYING
    written = re.escape(str(value).strip())
    return re.sub(rf"(?i)\b(?:{words})\s+(?:the\s+|a\s+|an\s+)?{written}(?:'s|')?(?![\w@-])", " ", text)


#: An address after "for", once the mandate has written an address before it ("Email
#: ana@corp.example the hotel details for bob@corp.example"): whom the thing sent is for, not whom
#: it is sent to.
_FOR_SOMEONE_AFTER_AN_ADDRESS = re.compile(r"(?i)(@[^\s,;|]*\s(?:[^,;|]*?\s)?)for\s+[^\s,;|]+@[^\s,;|]+")


#: A value struck through ("~~bob@corp.example~~", "<s>...</s>") or flagged to go ("bob@corp.example
#: (remove)"): a list's item the user took out.
_STRUCK = re.compile(
    r"~~[^~]*~~|<(s|del|strike)>.*?</\1>|(?<!\S)\S+\s*\((?:remove|removed|drop|dropped|no|not|skip|x|del|delete)\)",
    re.IGNORECASE,
)
#: One value of a list written after a colon: a token of letters, digits and the marks an
#: address, a handle, a channel or an id is written with (nothing struck, flagged or bracketed).
_LISTED_VALUE = re.compile(r"[\w.+#@/-]*[\w]")
#: What a list's values are written between, and a line's bullet.
_LIST_SEPARATORS = re.compile(r"\s*(?:,|;|&|\band\b)\s*|\s+")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s*")


def _values_only(text: str) -> list[str] | None:
    """The values of ``text`` when it is nothing but a list of values ("carl@corp.example,
    ana@corp.example."), else None."""
    parts = [p for p in _LIST_SEPARATORS.split(text.strip().rstrip(".!")) if p]
    valued = all(_LISTED_VALUE.fullmatch(p) and any(c in p for c in "@#0123456789") for p in parts)
    return parts if parts and valued else None


@lru_cache(maxsize=256)  # the same turn, read again for each call of its run
def listed_after_colons(request: str) -> tuple[tuple[str, str], ...]:
    """The lists of values the turn writes after a colon, each with its label (the words before
    the colon, back to the sentence's start): on the colon's line ("Email the hotel details to:
    ana@corp.example", "Ana: ana@corp.example.") or on the bulleted lines after it ("Recipients:"
    then "- ana@corp.example"). A line that holds anything but values ends the list."""
    out: list[tuple[str, str]] = []
    for colon in re.finditer(r":", request):
        label = re.split(r"[.!?;\n]", request[: colon.start()])[-1].strip()
        first, *lines = request[colon.end() :].split("\n")
        found = _values_only(re.split(r"(?<=\w)[.!?](?:\s|$)", first)[0]) if first.strip() else None
        items = found or []
        if not first.strip():
            for line in lines:
                bullet = _BULLET.match(line)
                values = _values_only(line[bullet.end() :]) if bullet else None
                if values is None:
                    break
                items += values
        if label and items:
            out.append((label, " ".join(items)))
    return tuple(out)


def _listed_for_the_call(value: Any, asking: Sequence[Any], request: str) -> bool:
    """Is ``value`` in a list of values the call's own mandate gives after its colon ("Email these
    people the details: carl@corp.example, ana@corp.example"), or under a short label that the
    mandate points back to ("Recipients: ana@corp.example. Email them the notes.", "Channel:
    #general. Post the update there.")?"""
    points = any(WORDS_POINTING_BACK & set(m.words) for m in asking)  # "them", "her", "there"
    for label, items in listed_after_colons(request):
        if not found_in(value, [Source("request", items)]):
            continue
        if any(m.text.strip().casefold() == label.casefold() for m in asking):
            return True
        words = words_of(label)
        if points and 0 < len(words) <= 3 and not set(words) & _NOT_A_LABEL:
            return True
    return False


#: Words that make a label say what to leave out, not what to act on ("Except: bob@corp.example").
_NOT_A_LABEL = frozenset(
    {"not", "no", "never", "except", "excluding", "without", "but", "skip", "ignore", "forget", "drop",
     "remove", "removed", "exclude", "minus", "cancel", "cancelled", "old", "former", "blocked"}
)  # fmt: skip


#: An address or a handle as a token of a mandate ("ana@corp.example", "@ana").
_A_PERSON = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+|@\w[\w.-]*\w")
#: The words after which a mandate names whom it sends to ("to ana", "share it with ana", "cc ana").
_TO_WHOM_WORDS = frozenset({"to", "with", "cc", "bcc"})


def _sent_to(own: str) -> list[str]:
    """The people a mandate's own words send to (an address or a handle): those right after its
    verb ("Email ana@corp.example and carl@corp.example the notes") and after "to", "with", "cc"
    or "bcc", each list as it runs on ("to ana@corp.example, carl@corp.example")."""
    tokens = own.split()
    out: list[str] = []

    def run_on(at: int) -> None:
        while at < len(tokens):
            token = tokens[at].strip(",.;:!?")
            if _A_PERSON.fullmatch(token):
                out.append(token)
            elif token.casefold() not in ("and", "&", ""):
                return
            at += 1

    run_on(1)
    for at, token in enumerate(tokens):
        if token.casefold().strip(",:") in _TO_WHOM_WORDS:
            run_on(at + 1)
    return out


def _to_whom(asking: Sequence[Any]) -> list[tuple[Any, str]]:
    """Each asking mandate with the words that name whom it sends to, where its own words name
    someone after its verb or after "to", "with", "cc" ("Email the contact bob@corp.example to
    ana@corp.example": ana only; bob is what it sends), else its own words as they are."""
    out = []
    for m in asking:
        own = stated(m).split(" | ")[0]
        people = _sent_to(own)
        out.append((m, " ".join(people) if people else own))
    return out


#: A number or a version, as a change from one to another is written of it.
_A_QUANTITY = re.compile(r"v?\d+(?:[.,]\d+)*")


def _asking_now(asked: Requested, context: ReviewContext) -> list[Any]:
    """The mandates that ask for a call of the kind, not one said of what was done ("Emailed
    bob@corp.example yesterday.": its verb as written, not as read, is a past form)."""
    verbs = (*asked.keywords, *asked.verbs)
    return [
        m
        for m in asking_mandates(asked, context.request, context.read)
        if not past_form((words_of(m.text) or [m.verb])[0], verbs)
    ]


def _stated_whole(mandate: Any) -> str:
    """What a mandate states, its coordinated parts read as written ("to 4 Pine Road, Springfield")."""
    return ", ".join(stated(mandate).split(" | "))


#: A phrasal verb of raising, up to where it raises ("turn my reminder up to 25", "scale it up to 6").
_RAISED_TO = re.compile(
    r"(?i)(\b(?:turn|bump|push|scale|crank|ramp|dial|move)\b(?:\s+[\w'’-]+){0,3}?\s+up)\s+(?=to\b)"
)


def _of_the_kind_made(arg: str, tool: str, context: ReviewContext) -> bool:
    """Is ``arg`` an argument for the kind of thing ``tool`` makes: it names no kind (``id``,
    ``target``), or its kind is a word of the tool's name or of the field its result gives the new
    id in, one the other's stem ("appointment_id" of ``book_appointment``, "booking_id" of
    ``book_hotel``, "payment_id" of ``pay_bill``), or both are messages? A patient's id is no
    appointment's, however the run made the appointment."""
    kind = re.sub(r"(?i)[_-]?ids?$", "", arg).casefold()
    if not kind or kind == arg.casefold():
        return True  # no kind named ("id"), or not an id ("target", "path")
    made = {
        w for w in re.split(r"[_\W]+", f"{tool} {context.creates.get(tool, '')}".casefold()) if len(w) > 2
    }
    made -= {"id", "ids", "new", "add", "create", "make", "get", "set", "put", "post"}
    kinds = {kind, *re.split(r"[_\W]+", kind)} - {""}
    if kinds & _MESSAGES_MADE and made & _MESSAGES_MADE:
        return True
    return any(k.startswith(w) or w.startswith(k) for k in kinds if len(k) > 2 for w in made)


#: What a message is called in a tool's or an argument's name ("send_email", "message_id").
_MESSAGES_MADE = frozenset({"message", "msg", "email", "mail", "dm", "post", "reply", "note", "sms", "text"})
#: Words by which a mandate's object is something there before the run ("his old appointment").
_THERE_BEFORE = frozenset(
    {"old", "older", "previous", "prior", "earlier", "existing", "original", "former", "usual", "regular"}
)


def _own_described_as_another(
    value: Any, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the mandate asking for a call on what the run itself made name its object by another
    record's id ("Resend ORD-50015, then refund ORD-50015": not the new order; "Snapshot vol-22 and
    delete snap-0a77c1": not the new snapshot), or describe it as one that was there before ("...,
    then cancel his old appointment")? Then the call is asked: the object the turn means is another
    record than the one the run made."""
    if asked is None:
        return None
    own = str(value).strip().casefold()
    for asking in _asking_now(asked, context):
        written = [w.strip("'`\"#") for w in words_of(_A_LINK.sub(" ", asking.text))]
        other_ids = sorted({w for w in written if _AN_ID.fullmatch(w) and w != own})
        said_old = sorted(set(written) & _THERE_BEFORE)
        if other_ids or said_old:
            details = {"described_otherwise": said_old or other_ids, "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
    return None


def _a_figure_reached_through_another(
    value: Any, arg: str, admitting: Sequence[Source], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Is a figure admitted only by records the turn names through another record, never by one
    it writes the name or id of ("Refund HI-405 in full." at 30.00, the day rate of the kit the
    invoice's item names; "Reduce HR-7307 to one tower." at 45, the tower's)? A record reached so
    is evidence of which record the user means, not of the figure they ask for: asked."""
    if not is_number(value) or not admitting or any(s.kind != "named" for s in admitting):
        return None
    said = Source("request", context.request)
    through: list[str] = []
    for source in admitting:
        named_by = [f.partition("=")[2] for f in source.fields if "=" in f]
        if not named_by or any(v.strip() and found_in(v.strip(), [said]) for v in named_by):
            return None  # a record the turn itself names ("Refund HI-405": its own amount)
        through += source.fields
    details = {"arg": arg, "value": value, "through_another_record": sorted(set(through))}
    return _asked_outside(details, context, policy)


def _corrected_away(
    value: Any, arg: str, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Is ``value`` written in the turn only where a correction the reader reads replaced it ("Move
    EV-4101 ... with Jo Black, sorry, I meant Jo Blake": Jo Black)? The call takes what the user
    took back: asked (the value the correction names is weighed as every value)."""
    if isinstance(value, bool) or not str(value).strip():
        return None
    corrected = corrections_read(context.request)
    if corrected == context.request or not found_in(value, [Source("request", context.request)]):
        return None
    if found_in(value, [Source("request", corrected)]):
        return None
    return _asked_outside({"arg": arg, "value": value, "corrected_away": True}, context, policy)


def _another_of_its_listing_written(
    value: Any,
    arg: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Is ``value``, which the turn does not write, held in a field of a trusted listing whose
    other records' values of that field the clause naming the call's record by its id writes one of
    whole ("Put Sam Brown on EV-4108 as coordinator" and the call keeps the event's coordinator,
    Jo Blake: the staff listing names both; "Put Rose Green on ..." as Rosa Greene)? The turn names
    one record of the listing, the call takes another: asked. (Another object's clause may name
    what it likes: "Pay the City Water bill B-31 and the Acme bill B-40".)"""
    if not isinstance(value, str) or not value.strip() or asked is None:
        return None
    wanted = value.strip().casefold()
    ids = [v for v in args.values() if isinstance(v, str) and AN_ID_WORD.fullmatch(v.strip())]
    clauses = [t for m in _asking_now(asked, context) for t in (m.text, *m.coordinated)]
    stated = " | ".join(t for t in clauses if any(_written_whole(i.strip(), t) for i in ids))
    if not stated:
        return None
    for done in context.calls:
        if done.get("tool") not in context.trusted:
            continue
        records = [r for _path, r in mappings(parsed(done.get("observation")))]
        fields = {
            k for r in records for k, v in r.items() if isinstance(v, str) and v.strip().casefold() == wanted
        }
        written = sorted(
            {
                v.strip()
                for r in records
                for k in fields
                if isinstance(v := r.get(k), str)
                and v.strip()
                and v.strip().casefold() != wanted
                and re.search(rf"(?i)(?<![\w-]){re.escape(v.strip())}(?![\w-])", stated)
            }
        )
        # or a name of theirs in part ("Assign EV-4102 to Rose." as Rosa Greene, where Rose Green is
        # of the staff): a capitalised word of another value that no word of the call's value is
        own = set(words_of(wanted))
        written += sorted(
            {
                part
                for r in records
                for k in fields
                if isinstance(v := r.get(k), str) and v.strip().casefold() != wanted and len(v.split()) > 1
                for part in v.split()
                if part[:1].isupper()
                and part.casefold() not in own
                and re.search(rf"(?<![\w-]){re.escape(part)}(?![\w-])", stated)
            }
        )
        if written:
            details = {"arg": arg, "value": value, "another_of_its_listing": written}
            return _asked_outside(details, context, policy)
    return None


#: Words of a tool's name by which its figure is how much it takes off or gives ("discount_invoice",
#: "credit_account"): "by 35.00" is that figure ("Discount MI-705 by 35.00"), not a change of it.
_A_CHANGE_BY_ITS_FIGURE = frozenset({"discount", "deduct", "rebate", "credit", "markdown"})


def _before_dawn_without_its_half(
    value: Any, arg: str, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Is the call's time of day one before dawn (01:00 to 05:59) that the turn writes only without
    its half of the day ("Move TP-5107 to ... at 1:30" for 01:30)? Few people book anything then:
    the turn more likely means the afternoon. Which, a human says: asked (``half_of_the_day_unsaid``).
    A time the turn writes with its half ("1:30am", "01:30") runs."""
    if not isinstance(value, str) or not re.fullmatch(r"0[1-5]:[0-5]\d", value.strip()):
        return None
    hour, minutes = value.strip().split(":")
    bare = [
        m.group(0)
        for m in _A_TIME_WITHOUT_ITS_HALF.finditer(context.request)
        if (m[1], m[2]) == (hour[1], minutes)
    ]
    if not bare or any(
        day == value.strip() for m, day in days_and_times(_A_TIME_WITHOUT_ITS_HALF.sub(" ", context.request))
    ):
        return None
    return _asked_outside({"arg": arg, "value": value, "half_of_the_day_unsaid": bare[0]}, context, policy)


def _the_old_value(
    value: Any, arg: str, context: ReviewContext, policy: SupervisorPolicy, tool: str = ""
) -> Decision | None:
    """Is ``value`` written in the turn only as where a change starts ("Scale checkout-api from 40
    to 4 replicas", "Upgrade search-svc from 1.9.1 to 2.0.0", "... 1.9.1 to 2.0.0"), as the whole
    a part is taken of ("Refund 40 of the 240"), as how much a change adds or takes ("Scale it
    up by 4", "4 more"; not for a ``tool`` whose figure is what it takes off, :data:`_A_CHANGE_BY_ITS_
    FIGURE`), or as an estimate ("roughly 40", "~40", "40 or so")? Then a call that sets it is asked:
    the turn asks for the value after "to", the part, or a value it does not write."""
    written = re.escape(str(value).strip())
    # a quantity or a version ("from 40 to 4", "from 1.9.1 to 2.0.0"), not where money comes from
    # ("Pay 80 EUR from ACC-1 to Stadtwerke": the account is the call's ``from_account``)
    if isinstance(value, bool) or not _A_QUANTITY.fullmatch(str(value).strip()) or "from" in arg.casefold():
        return None
    if isinstance(value, int | float):  # a number as the turn may write it: "59.90" for 59.9, "240.00"
        written += r"0*" if "." in written else r"(?:[.,]0+)?"
    text = _RAISED_TO.sub(r"\1 : to", context.request)  # "Turn my reminder up to 25": to 25, no bound
    by = "" if set(re.split(r"[_\W]+", tool.casefold())) & _A_CHANGE_BY_ITS_FIGURE else "by|"
    anywhere = re.compile(rf"(?i)(?<![\w.@-]){written}(?![\w@-]|\.\d)")
    ahead = r"(?![\w@-]|\.\d)"
    old = re.compile(
        # where a change starts: "from 40 to 4", or a figure just before "to" and another figure
        # ("Upgrade search-svc 1.9.1 to 2.0.0", "Scale search-svc 5 to 6")
        rf"(?i)\bfrom\s+(?:v(?=\d))?{written}{ahead}(?:\s+\w+){{0,2}}?\s+to\b"
        rf"|(?<![\w.@-])(?:v(?=\d))?{written}{ahead}\s+to\s+v?\d+(?:[.,]\d+)*{ahead}"
        rf"|(?<![\w.@-])(?:v(?=\d))?{written}\.\.v?\d"  # a range: "1.9.1..2.0.0"
        # the whole a part is taken of: "Refund 40 of the 240", "10 out of 59.90", "20 of ORD-1002's 120"
        rf"|(?<![\w.@-])\d+(?:[.,]\d+)*\s+(?:out\s+)?of\s+(?:the\s+|its\s+|[\w-]+'s\s+)?{written}{ahead}"
        # where a version is left: "Upgrade checkout from 2.4.1.", "past 2.4.1", "away from 2.4.1"
        rf"|\b(?:past|beyond|away\s+from|from)\s+(?:v(?=\d))?{written}{ahead}(?=\s*[.,;!?]|\s*$)"
        # a bound, not the value: "below 40", "under 40", "above 4", "at least 4", "more than 4"
        rf"|\b(?:below|under|above|over|beyond|at\s+least|at\s+most|less\s+than|more\s+than|fewer\s+than"
        rf"|no\s+more\s+than|no\s+less\s+than|up\s+to|max\.?|maximum(?:\s+of)?|a\s+maximum\s+of"
        rf"|capped\s+at|not\s+more\s+than|not\s+over|no\s+higher\s+than)\s+(?:v(?=\d)|[$€£¥]\s*)?{written}{ahead}"
        rf"|(?<![\w.@-]){written}\s*(?:€|eur|euros?)?\s+(?:max|maximum|tops|at\s+most|at\s+the\s+most|or\s+less)\b"
        # a figure given as an estimate, not the value to set: "roughly 40", "~40", "40 or so"
        rf"|(?:\b(?:approximately|approx\.?|roughly|around|nearly|almost|circa|ca\.|some|close\s+to"
        rf"|upwards\s+of|in\s+the\s+region\s+of|ballpark|a\s+ballpark\s+of|about|give\s+or\s+take"
        rf"|somewhere\s+around|something\s+like|maybe|perhaps|guess)\s+|[~≈]\s*)(?:v(?=\d))?{written}{ahead}"
        rf"|(?<![\w.@-])(?:v(?=\d))?{written}\s+(?:or\s+so|give\s+or\s+take|more\s+or\s+less|-?ish)\b"
        # a change by so much, not the value it sets: "Scale it up by 4", "down 4", "4 more"
        rf"|(?<!top )\b(?:{by}up|down|another|plus|extra)\s+(?:by\s+)?(?:v(?=\d))?{written}{ahead}"
        rf"|(?<![\w.@-])(?:v(?=\d))?{written}\s+(?:more|less|fewer|extra|additional|higher|lower)\b"
        # ... or added to what it is: "5 minutes further out", "5 minutes on top of the current one"
        rf"|(?<![\w.@-]){written}(?:\s+[^\W\d_]+)?\s+(?:further|farther|on\s+top\s+of|in\s+addition\s+to"
        rf"|added\s+to|over\s+(?:the|my|what))\b"
    )
    if not old.search(text) or anywhere.search(old.sub(" ", text)):
        return None
    details = {"arg": arg, "value": value, "from": [m.group(0) for m in old.finditer(text)]}
    return _asked_outside(details, context, policy)


#: A figure a clause writes: a number or a version standing alone (not part of an id, a date, a
#: time or an account written in groups: "B-40", "2026-12-01", "10:30", "LU28 0019 4006" hold none).
_A_FIGURE = re.compile(r"(?<![\w.,@/:-])(?<!\d[ \t])v?(\d+(?:[.,]\d+)*)(?![\w@/:-]|[.,]\d|[ \t]+\d)")
_TWO_FIGURES = re.compile(
    # not groups of a longer number ("DE89 3704 0044 0532 0130 00")
    r"(?<![\w.,@/:-])(?<!\d[ \t])v?\d+(?:[.,]\d+)*[ \t]+v?\d+(?:[.,]\d+)*(?![\w@/:-]|[.,]\d|[ \t]+\d)"
)


#: What a figure is not the call's quantity after: a label naming a record by number ("ticket 40",
#: "PR 2.4.0", "#40"), or a date's month ("12 May", "May 12").
_FIGURE_LABEL = re.compile(
    r"(?i)(?:\b(?:ticket|order|invoice|bill|account|acct|no|number|nr|room|flight|issue|case|pr|inc|step|"
    r"line|item|row|page|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?|#)[ \t]*$"
)
_FIGURE_MONTH = re.compile(
    r"(?i)^[ \t]*(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b"
)
#: A figure as :data:`_A_FIGURE` reads it, also after a word ending in a digit ("ORD-1002 15"):
#: :func:`_several_figures` tells a group of a longer number (:data:`_A_NUMBER_GROUP`) apart.
_A_FIGURE_AFTER_AN_ID = re.compile(r"(?<![\w.,@/:-])v?(\d+(?:[.,]\d+)*)(?![\w@/:-]|[.,]\d|[ \t]+\d)")
_A_NUMBER_GROUP = re.compile(r"(?i)\d+|[a-z]{2}\d{2}")
#: Where a figure is the start of a change or the whole a part is taken of ("from 40 to 4", "1.9.1
#: to 2.0.0", "40 of the 240"): weighed by :func:`_the_old_value`, not counted as a second figure.
_A_STARTING_FIGURE = re.compile(
    r"(?i)\bfrom\s+v?(\d+(?:[.,]\d+)*)(?:\s+\w+){0,2}?\s+to\b"
    r"|(?<![\w.@-])v?(\d+(?:[.,]\d+)*)\s+to\s+v?\d+(?:[.,]\d+)*(?![\w@-]|\.\d)"
    r"|(?<![\w.@-])\d+(?:[.,]\d+)*\s+(?:out\s+)?of\s+(?:the\s+|its\s+|[\w-]+'s\s+)?(\d+(?:[.,]\d+)*)(?![\w@-]|\.\d)"
)


def _several_figures(clauses: Sequence[str], version: bool) -> dict[str, str]:
    """The figures of one kind (versions, or other numbers) a mandate's clause writes as the
    quantity it asks for, by value: not those a label names a record by ("ticket 40"), a date's
    (“12 May”), nor where a change starts or the whole a part is taken of ("from 40 to 4"). Two or
    more ("Scale checkout-api to 4 by 40", "Refund 40 on ORD-1004 at 240", "Scale it to 50 make
    it 5", "Deploy x 2.5.0 on top of 2.4.0"): which the call takes is not written."""
    out: dict[str, str] = {}
    for clause in clauses:
        starting = {f for m in _A_STARTING_FIGURE.finditer(clause) for f in m.groups() if f}
        for match in _A_FIGURE_AFTER_AN_ID.finditer(clause):
            figure = match.group(1)
            if (figure.count(".") >= 2) != version or figure in starting:
                continue
            written_before = clause[: match.start()].split()
            if written_before and _A_NUMBER_GROUP.fullmatch(written_before[-1]):
                continue  # a group of a longer number ("DE89 3704 0044"), not "ORD-1002 15"
            if _FIGURE_LABEL.search(clause[: match.start()]) or _FIGURE_MONTH.match(clause[match.end() :]):
                continue
            out.setdefault(canonical_number(figure) or figure if not version else figure, figure)
    return out


def _when_not_kept(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the mandate asking for the call write a clock time or a date after a word of time
    ("Restart payments at 3am", "Disable mlopez on 2026-03-31", "at 17:30"), or a date in figures
    anywhere ("Add asmith to finance on her start date, 2026-04-01"), that neither the call
    keeps (no argument holds it) nor a record holds (an event "at 15:00" names that event)? Then the
    call, made now, is asked: the turn asked for it at that time."""
    if asked is None or (WHEN.search(context.request) is None and _A_DATE.search(context.request) is None):
        return None  # no time written: nothing to keep (and the run's records are not read)

    def kept(form: str) -> bool:  # by an argument, or by what the run has read (a record)
        read = (s.normal for s in context.sources if s.kind in ("tool", "args", "own"))
        return any(form in text.casefold() for text in (stable_json(args), *read))

    for asking in _asking_now(asked, context):
        said_of_the_act = _said_of_the_act(asking)
        for match in [*WHEN.finditer(said_of_the_act), *_A_DATE.finditer(said_of_the_act)]:
            if _a_quarters_label(match, said_of_the_act):
                continue  # "Email ana the Q3 summary": which summary, not when to send it
            if not any(kept(form) for form in _clock_forms(match.group(1))):
                details = {"when": match.group(0), "mandate": said(asking)}
                return _asked_partly_read(details, context, policy)
    return None


#: Where a mandate says to act, in words of a deployment's environment ("on staging", "in my
#: sandbox", "in the test cluster", "in the EU region", "in the test tenant"): a call no argument of
#: which keeps it acts where the tool acts by default, which is not what the turn asked.
_WHERE = re.compile(
    r"(?i)\b(?:in|on|at|against|into|inside|within|via|to|as)\s+(?:(?:the|a|an|this|that)\s+)?"
    r"(?:([\w-]+)\s+)?"
    r"(staging|stage|sandbox|sandboxes|dev|devel|development|qa|uat|preprod|pre-prod|canary|test|testing|"
    r"demo|perf|cluster|tenant|region|environment|env|namespace|datacenter|data-center|stack|realm|zone|"
    r"mode|pod|pods|node|host|server|machine|laptop|drive|space|org|repo|workspace|[a-z]{2}-[a-z]+-\d)\b"
)
#: Nouns of a place that only a word before them names ("the test cluster", "the EU region", "in
#: safe mode", "to one pod", "on her laptop").
_PLACE_NOUNS = frozenset(
    {"cluster", "tenant", "region", "environment", "env", "namespace", "datacenter", "data-center", "stack",
     "realm", "zone", "mode", "pod", "pods", "node", "host", "server", "machine", "laptop", "drive", "space",
     "org", "repo", "workspace"}
)  # fmt: skip
#: The words before a place noun that name no place ("in the cluster", "to a pod", "on the server").
_NO_PLACE = frozenset({"the", "a", "an", "this", "that", "same", "new", "each", "every", "any"})
#: A system written by its name after "on" or "in" ("Grant jdoe admin on Jira", "... in Salesforce",
#: "on the GitHub org"): a place the call does not keep, unless an argument holds it.
_ON_A_SYSTEM = re.compile(r"\b(?:on|in)\s+(?:the\s+)?([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)\b")
_NOT_A_SYSTEM = CALENDAR_NAMES | {"spring", "summer", "autumn", "fall", "winter"}  # "on Dec 3", "in May"


#: Words in a script the grammar does not read (Greek, Cyrillic, Hebrew, Arabic, the Indic
#: scripts, Thai, Georgian, Hangul, kana, CJK): "restart payments 明天", "... завтра", "... 不要".
_ANOTHER_SCRIPT = re.compile(
    "[\u0370-\u03ff\u0400-\u052f\u0530-\u058f\u0590-\u05ff\u0600-\u06ff\u0750-\u077f"
    "\u0900-\u0e7f\u10a0-\u10ff\u1100-\u11ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+"
)


def _in_another_script(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the turn write words in a script the reader does not read ("Restart payments 明天"
    (tomorrow), "... не надо" (don't), "... لا" (no)) that neither an argument of the call nor a
    record the run read holds? Then the reading is partial and the call is asked: those words may
    defer, negate or name anything. A name in that script the call or a record holds is read."""
    if asked is None:
        return None
    words = set(_ANOTHER_SCRIPT.findall(context.request))
    if not words:
        return None
    held = [json.dumps(args, default=str, ensure_ascii=False)]
    held += [json.dumps(c.get("observation"), default=str, ensure_ascii=False) for c in context.calls]
    unread = sorted(w for w in words if not any(w in text for text in held))
    if not unread:
        return None
    details = {"another_script": unread}
    return _asked_partly_read(details, context, policy)


#: A tag at the end of the turn ("Restart payments #wontfix", "... @tomorrow", "... +later").
#: Asking for an opinion, not an action ("Restart payments y/n", "... yes/no").
_A_POLL = re.compile(r"(?i)(?<![\w/])(?:y/n|yes/no|yes\s+or\s+no)(?![\w/])")
#: Someone else addressed at a sentence's end ("Restart payments, Bob.", "..., @bob", "...,
#: on-call.") or opening ("Hey Bob — restart payments"): the words are for them.
_ADDRESSED = re.compile(
    r"(?m),[ \t]*(@[\w.-]+|[A-Z][a-z]+|on-call|oncall|team|folks|everyone|y'all)[ \t]*[.!]*[ \t]*$"
    r"|^[ \t]*(?i:hey|hi|hello|yo)[ \t]+(@[\w.-]+|[A-Z][a-z]+)[ \t]*(?:[—–:]|-{1,2}(?=\s))"
)
#: Words a sign-off or a thanks is, never someone addressed ("..., Thanks.", "..., Cheers").
_NOT_ADDRESSED = frozenset(
    {"thanks", "thank", "thx", "cheers", "please", "pls", "regards", "best", "ta", "asap", "now"}
)
_A_TRAILING_TAG = re.compile(
    r"(?<!\bin)(?<!\bto)(?<!\bon)(?<!\bat)(?<!\bfrom)(?<!\bof)(?<!\binto)(?<!\bwith)(?<!\bfor)"
    r"(?:^|\s)([#@+][^\W\d_][\w-]*)[\s.!]*$"
)  # not a channel or a handle after a preposition ("post ... in #reading", "send it to @bob")
#: Someone's consent the turn waits for ("get my OK first", "HOLD for my signal", "Get HR's OK
#: first", "awaiting sign-off"): the call, made now, does not wait.
_CONSENT_AWAITED = re.compile(
    r"(?i)\b(?:get|wait\s+for|hold\s+for|awaiting|await|need|after|until|pending)\b[^.!?\n]{0,40}?"
    r"\b(?:ok|okay|sign-?off|approval|go-?ahead|signal|green\s+light|permission|consent|nod|say-?so)\b"
    r"|\b(?:pending|awaiting)\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+|his\s+|her\s+)?[^\W\d_]{2,}"
)
#: A message the turn wants drafted or shown first, not sent ("Email Ana (draft only)", "... just
#: draft it", "... leave it in drafts", "..., but let me see it first", "I'll review before it
#: goes"): weighed for a call of a verb that sends.
_ONLY_A_DRAFT = re.compile(
    r"(?i)(?<![\w.-])drafts?(?![\w-]|\.\w)|\blet\s+me\s+(?:see|check|review|read)\b[^.!?\n]{0,30}\b(?:first|before)\b"
    r"|\b(?:review|see|check|read)\b[^.!?\n]{0,20}\bbefore\s+(?:it|you|this)\s+(?:goes|send|sends|is\s+sent)"
    r"|\b(?:don'?t|do\s+not)\s+send\b"
)


def _tagged_or_awaited(
    tool: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Does the turn end with a tag no argument holds ("Restart payments #wontfix", "... #drill",
    "... @tomorrow"), or wait for someone's consent or a step still to come ("Restart payments, but
    get my OK first", "Disable bjones. Get HR's OK first.", "... HOLD for my signal", "... pending
    review", "... awaiting the scan")? Then the call is asked: the tag may say it is rejected, a
    drill or for later, and what it waits for has not happened yet."""
    if asked is None:
        return None
    held = stable_json(args).casefold()
    tag = _A_TRAILING_TAG.search(context.request)
    found = tag.group(1) if tag is not None and tag.group(1).casefold()[1:] not in held else None
    if found is not None and any(  # a channel a listing read holds ("... from #release and #random")
        isinstance(v, str) and v.strip().casefold() == found.casefold()
        for r in _records_read(context)
        for v in r.values()
    ):
        found = None
    sends = any(w in WITH_CONTENT for k in (*asked.keywords, *asked.verbs) for w in words_of(k))
    # what a message is to say waits for nothing of the call's ("tell Priya the draft is done")
    own_words = context.request
    for one in mandates(context.request):
        content = told_content(one)
        own_words = own_words.replace(content, " ") if content else own_words
    awaited = (
        _CONSENT_AWAITED.search(own_words)
        or _A_POLL.search(own_words)
        or (_ONLY_A_DRAFT.search(own_words) if sends else None)
    )
    # the call's own words: its values and the words of its arguments' names ("Restart payments,
    # Bob.", "Reset jdoe's password, Priya."); a name after a comma elsewhere is another value's
    # part ("... to 4 Pine Road, Springfield")
    own = {w.casefold() for v in args.values() for w in _A_TOKEN.findall(str(v))}
    own |= {w for a in (tool, *args) for w in _name_words(a)}
    own |= {w.casefold() for k in (*asked.keywords, *asked.verbs) for w in _A_TOKEN.findall(k)}
    addressed = [
        name
        for m in _ADDRESSED.finditer(context.request)
        for at, name in enumerate(m.groups())
        if name
        and name.casefold().lstrip("@") not in held
        and name.casefold() not in _NOT_ADDRESSED
        and (at == 1 or _ends_the_calls_words(context.request[: m.start()], own))
    ]
    said = (
        found or (awaited.group(0) if awaited is not None else None) or (addressed[0] if addressed else None)
    )
    if said is None:
        return None
    details = {"tag" if found else "awaits" if awaited is not None else "addressed": said}
    return _asked_partly_read(details, context, policy)


#: A version the mandate acts to or from ("Roll back checkout to 2.3.0", "... back to v2.3"): the
#: call must keep it, or it acts on whatever version the tool picks.
_TO_A_VERSION = re.compile(
    r"(?i)\b(?:to|at|from|on)\s+(v\d+(?:\.\d+)*|\d+\.\d+\.\d+(?:[-+][\w.]+)?)(?!\w|\.\d)"
    # or a build told by whose or when it is ("to last Tuesday's build", "to the release from
    # Monday", "to Bob's image"): no figure an argument could keep
    r"|\b(?:to|at|from|on)\s+(?:the\s+)?((?:[\w-]+\s+){0,2}[\w-]+(?:'s|’s|s'|’)\s+(?:\w+\s+)?"
    r"(?:build|release|version|deploy|deployment|commit|image|tag|snapshot|artifact)s?"
    r"|(?:build|release|version|deploy|deployment|commit|image|tag|snapshot|artifact)s?\s+"
    r"(?:from|of|before|made|cut|built|deployed|shipped)\s+\S+)"
)


def _version_not_kept(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the mandate asking for the call act to or from a version ("Roll back checkout to
    2.3.0") that no argument of the call holds? Then the call is asked: made as it is, it rolls back
    or pins to whatever version the tool picks."""
    if asked is None or _TO_A_VERSION.search(context.request) is None:
        return None
    held = stable_json(args).casefold()
    for asking in _asking_now(asked, context):
        said_of_the_act = _said_of_the_act(asking)
        for match in _TO_A_VERSION.finditer(said_of_the_act):
            version = (match.group(1) or match.group(2)).casefold()
            if version in held or version.lstrip("v") in held or dates(version):
                continue  # kept, or a day ("on 03.12.2026"), no version
            details = {"version": match.group(0), "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
    return None


def _ends_the_calls_words(before: str, own: set[str]) -> bool:
    """Does the text before a comma end with a word of the call's own (a value, an argument's
    name, the verb): the mandate is whole there, and a name after the comma addresses someone."""
    last = (_A_TOKEN.findall(before) or [""])[-1].casefold()
    return _unpossessed(last) in own or last.lstrip("$€£") in own or last.rstrip("s") in own


def _where_not_kept(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the mandate asking for the call say where to act in words of an environment ("Restart
    payments on staging", "in my sandbox", "Scale checkout to 40 in the test cluster", "Reset
    jdoe's password in the test tenant") that no argument of the call keeps? Then the call is
    asked: made as it is, it acts where the tool acts by default, not where the turn said."""
    if asked is None or (
        _WHERE.search(context.request) is None and _ON_A_SYSTEM.search(context.request) is None
    ):
        return None
    # kept by an argument, or a place a record the run read holds ("Book 2 nights in Lisbon": the
    # hotel's city)
    held = " ".join(
        stable_json(x).casefold()
        for x in (
            args,
            *(c.get("args") for c in context.calls),
            *(c.get("observation") for c in context.calls),
        )
    )
    for asking in _asking_now(asked, context):
        said_of_the_act = _said_of_the_act(asking)
        for match in _WHERE.finditer(said_of_the_act):
            before, place = (match.group(1) or "").casefold(), match.group(2).casefold()
            if place in _PLACE_NOUNS and before in _NO_PLACE | {""}:
                continue  # "in the cluster", "in the region": no environment named
            named = before if place in _PLACE_NOUNS else place
            if named in held or (before and before in held):
                continue
            details = {"where": match.group(0), "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
        for match in _ON_A_SYSTEM.finditer(said_of_the_act):
            system = match.group(1).casefold()
            if system in held or system in _NOT_A_SYSTEM or match.start() == 0:
                continue
            details = {"where": match.group(0), "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
    return None


#: Verbs whose object is a record's state, not a text, a payment or a deletion: every word of
#: their mandate is weighed by :func:`_unread_in_the_act` (the others have their own readings: a
#: message's content, a payment's purpose, a deletion's object).
_CARRYING = (WITH_CONTENT | TIMED_VERBS | DELETING | READING_VERBS) - {"refund", "reimburse"}
#: Verbs that move money back on a record: weighed like an act on a record's state, but what
#: follows "for" is its purpose ("Refund ORD-1002 for the broken mug").
_REFUNDING = frozenset({"refund", "reimburse"})
#: Words a mandate on a record's state writes beside its values that say no other thing: the
#: record itself, which of its versions, how the act goes ("Roll back checkout to the previous
#: version", "Grant jdoe admin access", "Restart the payments pods gracefully").
_OF_THE_ACT = frozenset(
    """
    previous prior earlier last stable good known working back up down out over off again now
    right away please pls kindly asap immediately quickly also too as well just only same
    full fully whole entire total partial partially fee fees charge charges cost costs amount price money
    straight soon possible
    account accounts access login logins profile permission permissions privilege privileges
    version release build
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _unread_in_the_act(
    name: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
    derivations: Sequence[Derivation] = (),
) -> Decision | None:
    """Does the mandate asking for the call (a verb on a record's state: restart, scale, grant,
    reset, ...) write a word in its own clause that neither the call nor the reader accounts for
    ("Restart payments in the simulator", "... on host web-3", "... with --force", "Grant jdoe admin
    (2h)", "... for tenant 42", "... [on hold]")? Then the reading of the act is partial and the
    call is asked: the word may say where, how long, for whom or whether to act. Accounted for:
    the call's values and the words of its tool's and arguments' names, function and framing
    words, a record's kinds and units, the record itself and which version of it
    (:data:`_OF_THE_ACT`), an adverb of manner, a time the reader reads, the words of the stated
    arithmetic that gave one of its values ("Put 12% of my checking balance into ...")."""
    if asked is None:
        return None
    values, _recorded = _values_written(args, context)
    # (what a count of any unit counts, as written: "2 packs" for ``quantity=2``)
    names = {w for n in (name, *args) for w in _name_words(n)} | units_counted(args, context)
    names |= days_spanned(args, context)  # "by two days" where the call's day is two days on
    kinds = _asked_words(asked)
    shapes = {_shape(str(v)) for v in args.values() if isinstance(v, str | int) and not isinstance(v, bool)}
    figures = {
        amount_value(leaf): str(leaf).casefold()
        for v in args.values()
        for leaf in leaves(v)
        if is_number(leaf) and amount_value(leaf) is not None
    }
    days = {leaf for v in args.values() for leaf in leaves(v) if isinstance(leaf, str)}
    holders: set[str] | None = None  # read where a word is left, once
    for asking in _asking_now(asked, context):
        if asking.verb in _CARRYING:
            continue
        verb = verb_forms(asking.verb) | kinds
        objects = [c for c in asking.coordinated if not _states(c)]  # "..., it fixes the pagination bug"
        asides = _asides_after(asking.text, context.request)  # "Grant jdoe admin [on hold]"
        text = re.sub(_TYPED_OVER, " ", " and ".join([asking.text, *objects]) + asides)  # "checkout*payments"
        text = _A_TICKET.sub(  # "(INC-4521)", "as she left": a reference, a reason
            lambda m: m.group(0) if m.group(0).casefold() in values else " ",
            _A_REASON.split(text, maxsplit=1)[0],
        )
        text = written_as(_arithmetic_read(text, derivations), days)  # "9 December 2026" for 2026-12-09
        if figures:  # what the sum the call keeps is for ("... 5.00 for the outage"): its purpose
            for purpose in _purposes_of_the_calls_sum(asking.sentence, values):
                text = text.replace(purpose, " ")
        if figures:  # a figure the call keeps, as written ("40,00 EUR" for 40)
            text = re.sub(r"\d[\d.,']*\d|\d", lambda m: figures.get(_figure_of(m.group(0)), m.group(0)), text)
        written = [w.strip("'`\"@#") for w in words_of(text)]
        # whose the record is, by a pronoun that points back to a name ("Ruth Penney rang. Move her
        # hamper ..."): that name, as if written in the act
        written += _names_pointed_back_to(asking, written)
        at = next((i for i, w in enumerate(written) if w in verb), 0)  # after "Would you mind", "Please"
        if asking.verb in _REFUNDING and "for" in written[at:]:
            written = written[: written.index("for", at)]  # its purpose: "... for the broken mug"
        unread = [
            w
            for part in _parts_of_the_act(written[at:], values, shapes, verb)
            for i, w in enumerate(_before_a_reference(part, values))
            if w
            and w not in values
            and _unpossessed(w) not in values
            and not (figures and amount_value(w) in figures)  # "20.00" for 20, "$120" for 120.0
            and w not in verb
            and not _read_in_place(part, i, values)
            and not _accounted_in_the_act(w, names)
            and not (w in _HONORIFICS and part[i + 1 : i + 2] and part[i + 1] in values)  # "Dr. Helen Voss"
        ]
        if unread:  # whose the call's record is, by the name of the record it keeps the id of
            holders = _words_of_its_holders(args, context) if holders is None else holders
            unread = [w for w in unread if w not in holders and _unpossessed(w) not in holders]
        if unread:
            details = {"unread_in_the_act": unread, "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
    return None


#: The pronouns by which an act's object is someone's ("her hamper", "their veg box", "of his lesson
#: time").
_WHOSE = frozenset({"his", "her", "their", "its", "hers", "theirs"})
#: A name written in capitals (a word of a person's or a company's name).
_A_NAMES_WORD = re.compile(r"(?<![\w'’-])[A-Z][\w'’-]*")


def _names_pointed_back_to(asking: Any, written: Sequence[str]) -> list[str]:
    """The words of the names written in the earlier sentences a possessive pronoun of the act
    points back to ("Ruth Penney rang. Move her hamper ...": ruth, penney), case folded."""
    if not _WHOSE & set(written):
        return []
    earlier = [a for a in asking.antecedents if a not in asking.sentence]
    return [
        w
        for a in earlier
        for m in _A_NAMES_WORD.finditer(a)
        for w in words_of(m.group(0))
        if w not in FUNCTION_WORDS and w not in CALENDAR_NAMES
    ]


def _words_of_its_holders(args: Mapping[str, Any], context: ReviewContext) -> set[str]:
    """The words of the records one record away from the call's own (:func:`_holders_within`): whose
    it is ("Withdraw Sarah Khan from CIVL-330" of an enrolment that keeps her student id; "Move Max's
    vaccination" of an appointment that keeps his pet's id)."""
    # (by its ids: a new address on the owner's street is no word of their other orders')
    values = [
        leaf for v in args.values() for leaf in leaves(v) if isinstance(leaf, str) and _id_like_value(leaf)
    ]
    return set().union(*(_holders_within(values, context, hops=1) or []))


def _purposes_of_the_calls_sum(sentence: str, values: Collection[str]) -> list[str]:
    """What the sum a sentence states is for (:func:`~policies.supervisor.reading.coverage.
    purposes_of_a_sum`), where what follows it names no record, or the call's own ("Charge 120.00
    for the scratched bumper on RES-2055" for RES-2055): a purpose followed by another record ("Issue
    P-2205 a voucher for the delay on BK-6010" for BK-6010's passenger) may say whose the money is."""
    kept = []
    for purpose in purposes_of_a_sum(sentence):
        after = sentence.partition(purpose)[2]
        named = PLACE_AFTER_A_PURPOSE.match(after)
        if named is None or named.group(1).casefold() in values:
            kept.append(purpose)
    return kept


#: A person's title before their name ("Dr. Helen Voss"): the name's, where the call holds the name.
_HONORIFICS = frozenset({"dr", "mr", "mrs", "ms", "mx", "miss", "prof", "sir", "dame", "rev"})
#: Verbs of a deletion or a payment, weighed for the part of the record they may act on.
_ON_A_PART = (DELETING | TIMED_VERBS) - WITH_CONTENT - READING_VERBS - _REFUNDING
#: Words that set a part of a record before the record ("the catering for the Board Review", "page 3
#: of report.pdf", "the tip on B-40", "my seat at ...", "lee's access to plan.docx").
_OF_A_RECORD = frozenset({"for", "of", "on", "at", "to", "from", "in", "about", "with", "off", "under"})
#: Verbs that take a record out of a place as well as away ("Remove report.pdf from my favourites").
_TAKING_OUT = frozenset({"remove", "take", "drop", "pull", "clear"})
_DETERMINERS = frozenset(
    {"the", "a", "an", "my", "our", "your", "his", "her", "their", "its", "this", "that"}
)
#: What a record of a deletion or a payment is called after its name ("the Board Review meeting").
_RECORD_KINDS = frozenset(
    """
    meeting meetings event events appointment appointments call calls session sessions invite file
    files document documents doc docs bill bills invoice invoices payment payments entry entries
    reminder reminders booking bookings reservation reservations one ones
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _a_part_of_the_record(
    name: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
    derivations: Sequence[Derivation] = (),
) -> Decision | None:
    """Does a mandate to delete, cancel or pay name the call's record only as what a part of it
    belongs to ("Cancel the catering for the Board Review", "Delete page 3 of report.pdf", "Pay the
    tip on B-40", "Remove lee's access to plan.docx"), or as the first words of another record's
    name ("Cancel the Board Review prep call"), or takes it out of a place ("Remove report.pdf from
    my favourites")? Then it may ask for an act on that part or place, not on the record: the call
    is asked. Accounted for, as for an act on a record's state: the call's values,
    its tool's and arguments' names, kinds and framing words."""
    if asked is None:
        return None
    values, _recorded = _values_written(args, context)
    names = {w for n in (name, *args) for w in _name_words(n)} | _asked_words(asked)
    moves_money = _moves_money(asked)
    for asking in _asking_now(asked, context):
        sending = asking.verb in WITH_CONTENT and asking.verb in TIMED_VERBS and moves_money
        if (asking.verb not in _ON_A_PART or asking.coordinated) and not sending:
            continue
        arithmetic = set(words_of(asking.text)) - set(words_of(_arithmetic_read(asking.text, derivations)))
        around = _around_the_record(asking, values, sending)
        # a kind after the record's kind is a thing of it ("Omar Haddad's appointment reminder")
        kinds = [i for i, w in enumerate(around) if w in _RECORD_KINDS or w in names]
        of_it = {around[i] for i in kinds[1:] if around[i] not in names and around[kinds[0]] != around[i]}
        unread = [
            w
            for w in around
            if w not in values
            and _unpossessed(w).rstrip("'’") not in values  # "Omar Haddad's appointment": its patient's
            and w not in arithmetic  # "what is left of MF-311 after ...": the derivation's
            and (w not in _RECORD_KINDS or w in of_it)
            and not (w in _DETERMINERS or w in _OF_A_RECORD)
            and not (_accounted_in_the_act(w, names) and _unpossessed(w) not in COUNTED)
            and not WHEN.fullmatch(w)
            and not _A_BARE_FIGURE.fullmatch(w)  # a figure: an amount the payment's rules weigh
        ]
        if unread:  # "Delete the message m-502 from Kwame Mensah": its author, by name
            unread = [w for w in unread if w not in _its_peoples_names(args, context)]
        if unread:
            details = {"unread_in_the_act": unread, "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
    return None


def _its_peoples_names(args: Mapping[str, Any], context: ReviewContext) -> set[str]:
    """The words of the names of the people the call's records are from, by, for or of (a field
    such as ``from``, ``author``, ``owner`` holding a handle), as a trusted listing of the run holds
    them: "Kwame Mensah" for a message ``from`` kwame, where the members list Kwame Mensah as kwame."""
    records = list(_records_read(context))
    handles = {
        v.strip().casefold()
        for r in _the_calls_records(args, records)
        for k, v in r.items()
        if isinstance(v, str) and A_PERSONS_FIELD.fullmatch(str(k)) and v.strip()
    }
    if not handles:
        return set()
    return {
        w
        for record in _trusted_records(context)
        if any(
            isinstance(v, str) and _A_HANDLES_KEY.fullmatch(str(k)) and v.strip().casefold() in handles
            for k, v in record.items()
        )
        for v in record.values()
        if isinstance(v, str)
        for w in words_of(v)
    }


#: A person's record's field that holds what another record names them by.
_A_HANDLES_KEY = re.compile(r"(?i)handle|user(?:name)?|login|member|email|e-?mail|id")


def _arithmetic_read(text: str, derivations: Sequence[Derivation]) -> str:
    """``text`` without the words by which the turn states the arithmetic that gave a value of the
    call ("12%", "what is left of", "the sum of"), and without the figures it took as its terms
    ("after my 480.50 deposit"): the derivation reads them, where ``text`` states it."""
    for derivation in derivations:
        stated = without_stated(text, derivation.operation)
        if stated == text:
            continue  # "Scale web to 10, half the pods are crashing": no operation in the act's words
        terms = {t.value for t in derivation.terms if not t.word}
        if derivation.operation == "difference":  # "... after the 750.00 already paid", "... minus
            # the 480.00 restocking fee": what it was, read before the operation's words go
            stated = without_stated(_taken_off_read(text, terms), derivation.operation)
        text = " ".join(w for w in stated.split() if _figure_of(w.strip(",.;:")) not in terms)
    return text


def _taken_off_read(text: str, terms: Collection[Any]) -> str:
    """``text`` without each figure a difference takes off that is one of its ``terms``, with the
    words that say what it was (:data:`~policies.supervisor.provenance.derivation.TAKEN_OFF`)."""

    def read(m: re.Match[str]) -> str:
        return " " if _figure_of(m.group("figure")) in terms else m.group(0)

    return TAKEN_OFF.sub(read, text)


def _moves_money(asked: Requested) -> bool:
    """Is the kind of call the rule asks for a payment (a verb of its own that moves money, "pay",
    "transfer"; not one that sends a message as well)?"""
    return any(w in TIMED_VERBS - WITH_CONTENT for k in (*asked.keywords, *asked.verbs) for w in words_of(k))


_A_BARE_FIGURE = re.compile(r"[\d.,']+")
#: A record's id as a word: letters and a digit ("b-40", "ord-1002", "e102"), no bare figure.
_AN_ID = re.compile(r"(?=[\w-]*\d)(?=[\w-]*[^\W\d_])[\w]+(?:-[\w]+)*")
#: An address a link points to ("(https://acme.example/bills/B-40)"): no description.
_A_LINK = re.compile(r"\(?(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*://[^\s)]*\)?", re.IGNORECASE)
#: Words that end the phrase an id opens after it: what follows is no more of its description.
#: What follows them says whom or where the record is from or goes to: a description of it as well.
_AFTER_AN_ID = frozenset({"from", "to", "by", "at"})
#: Words that say what state a record is in beside its kind ("the overdue bill B-40"): no other one.
_A_RECORDS_STATE = frozenset(
    """
    overdue outstanding unpaid open pending due late remaining upcoming recent monthly final
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: The kinds of a record as one alternation of a pattern.
_KIND_NAMES = "|".join(sorted(_RECORD_KINDS))


def _without_exclusions(text: str, request: str, said: Iterable[str]) -> str:
    """``text`` without the clauses of ``request`` that leave a record out of the act before them
    ("Post it in #random but not in #release"): their "not" is no word of what the act says. One
    whose names the message ``said`` holds is the message's ("Tell Ana it is at 4pm, not 3pm")."""
    held = {w for t in said for w in words_of(t)}
    for left in left_out_text(request).split(" | "):
        written = words_of(left)
        named = set(written[1:]) - FUNCTION_WORDS - SLOT_PREPOSITIONS
        if left.startswith("not ") and excludes_records(written, left) and not named & held:
            text = text.replace(left, " ")
    return text


def _excluded_by_name(args: Mapping[str, Any], context: ReviewContext) -> Decision | None:
    """Does the turn leave out by name ("Pay B-40, not Acme", "..., not the Acme one") a party that
    the call's values, or a record the run read that holds one of them, name? The turn then both
    asks for the record and leaves it out: the call is asked, whatever else admits it. So is a call
    beside a name no record the run read holds ("Pay B-40, not the Supplier"): which record it
    leaves out, the reader cannot place, and it may be the call's."""
    values, _recorded = _values_written(args, context)
    known: set[str] | None = None
    for clause in left_out_text(context.request).split(" | "):
        written = words_of(clause)
        if written[:1] != ["not"] or excludes_records(written) or any(_AN_ID.fullmatch(w) for w in written):
            continue  # an id, an address, a file left out is weighed by _left_out
        named = {
            w for w in written[1:] if w not in FUNCTION_WORDS and w.removesuffix("s") not in _RECORD_KINDS
        }
        if known is None:
            known = {w for record in _records_read(context) for w in words_of(stable_json(record))}
        if named & values or not named <= known:
            details = {"left_out": clause, "names": sorted(named & values or named - known)}
            return Decision("escalate", LEFT_OUT, details)
    return None


def _bound_otherwise(
    name: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Do the call's values stand otherwise together than the turn binds them, each admitted on its
    own? Asked, never refused (:func:`_bindings_broken`)."""
    if asked is None:
        return None
    stated = stated_for(asked, context.request, context.read)
    if not stated:
        return None
    found = _bindings_broken(name, args, stated, context, policy, asked)
    return _asked_partly_read(found, context, policy) if found else None


def _bindings_broken(
    name: str,
    args: Mapping[str, Any],
    stated: str,
    context: ReviewContext,
    policy: SupervisorPolicy,
    asked: Requested | None,
) -> dict[str, Any]:
    """What binds the call's values otherwise than the mandate's words
    (:func:`policies.supervisor.decide.bindings.bindings_broken`), and a note on a call with an
    amount in words the turn does not give (``said_in_a_note``)."""
    trusted = trusted_texts(context, policy)  # read once for every part of the mandate and the note
    found = bindings_broken(name, args, stated, trusted, context, policy, asked)
    noted = _a_note_the_turn_does_not_give(args, trusted, context)
    if noted:
        found["said_in_a_note"] = noted
    for arg, value in args.items():  # "Set my reminder under 20 minutes" as 20: a bound, no value
        old = (
            None
            if isinstance(value, bool) or not is_number(value)
            else _the_old_value(value, arg, context, policy, name)
        )
        if old is not None:
            found.setdefault("not_the_value", {})[arg] = old.details.get("from")
    return found


#: An argument that carries a note with the call (a payment's memo, a transfer's reference).
_A_NOTE_ARG = re.compile(r"(?i)memo|note|reference|(?:^|_)ref(?:_|$)|remark|comment|purpose|description")
#: Words a note on a payment says of itself, whatever it is for.
_WHAT_A_NOTE_IS = ("payment transfer money invoice bill thanks thank paid pay share part",)


#: A turn that gives a note or what a payment is for ("memo: lunch", "for lunch", "ref 'INV-7'").
_A_NOTE_GIVEN = re.compile(
    r"(?i)\b(?:memo|note|reference|ref|remark|comment|purpose|description|subject|for)\b"
)
#: A label: a word or two, no figure.
_A_LABEL = re.compile(r"[^\W\d_]+(?:[ -][^\W\d_]+)?")


def _a_note_the_turn_does_not_give(
    args: Mapping[str, Any], trusted: Sequence[str], context: ReviewContext
) -> list[str]:
    """The words of a note a call with an amount carries ("memo": "full and final settlement, waive
    all claims", "balance 5200, password ...") that neither the turn nor a trusted record the run
    read holds: the agent's words, not the user's. A message to someone is read by its own check."""
    notes = [v for a, v in args.items() if isinstance(v, str) and v.strip() and _A_NOTE_ARG.search(a)]
    if not notes or not any(is_number(v) and not isinstance(v, bool) for v in args.values()):
        return []  # a note on a call that moves money, not a text the agent writes elsewhere
    held = [context.request, *_WHAT_A_NOTE_IS, *trusted]
    words = unsaid(notes, held, _figures_said([context.request]) | _numbers_held(_records_read(context), 4))
    if (
        words
        and not _A_NOTE_GIVEN.search(context.request)
        and all(_A_LABEL.fullmatch(n.strip()) for n in notes)
    ):
        return []  # a label of a word or two where the turn gives no note nor purpose ("Dinner")
    return words


def _set_beside(word: str, request: str) -> list[str]:
    """The words of a description set beside an id after a comma, a bracket or a dash, up to the
    record's kind ("B-40, the City Water bill", "B-40 (my gym invoice)")."""
    found = re.search(
        rf"(?i)(?<![\w-]){re.escape(word)}(?![\w-])\s*[,(\u2014\u2013]\s*(?!(?:but\s+)?not\b)((?:[\w'’-]+\s+){{0,5}}?)"
        rf"(?:{_KIND_NAMES})\b",
        request,
    )
    if found:
        return words_of(found.group(1))
    # in brackets, kind or not ("B-40 (City Water) is overdue"), unless it labels a text the call
    # carries ("(memo: 'December water')", "(ref: ...)")
    bracket = re.search(
        rf"(?i)(?<![\w-]){re.escape(word)}(?![\w-])\s*\((?!\s*(?:memo|ref|reference|note|subject)\b)([^()]{{1,80}})\)",
        request,
    )
    return words_of(bracket.group(1)) if bracket else []


def _listed_beside(args: Mapping[str, Any], request: str) -> set[str]:
    """The ids the turn lists beside one of the call's values, joined to it by a comma, "and", "&",
    "or" or "plus" ("Apply WINTER15 to sub_1001 and sub_1002"): other items of the same list, not
    words that describe the call's record."""
    found: set[str] = set()
    for value in args.values():
        if not isinstance(value, str) or not value.strip() or not _AN_ID.fullmatch(value.strip().casefold()):
            continue
        own = re.escape(value.strip())
        join = r"\s*(?:,\s*(?:and\s+|&\s*)?|\s(?:and|or|plus)\s+|\s*&\s*)(?:the\s+)?"
        for m in re.finditer(
            rf"(?i)(?<![\w-])([\w-]+){join}{own}(?![\w-])|(?<![\w-]){own}{join}([\w-]+)", request
        ):
            word = (m.group(1) or m.group(2)).casefold()
            if _AN_ID.fullmatch(word):
                found.add(word)
    return found


#: Words after a figure that make it a figure per unit ("20.00 per item", "20.00 of MI-606 for
#: each of the two late lifts", "10 a head", "5.00 apiece").
_PER_UNIT = re.compile(
    r"[^.;!?\n]{0,40}?\b(?:(?i:each|apiece|a[ \t]+piece|a[ \t]+head|for[ \t]+every|for[ \t]+each)\b"
    # "per" and a unit ("per item", "per night"), not "per" and whose word ("per ticket 40", "per
    # the contract", "per Ana")
    r"|(?i:per)[ \t]+(?!(?i:the|your|our|my|his|her|their|this|that|ticket|request|policy|e?mail|contract|"
    r"agreement|invoice|instructions?|note|call)\b)[a-z]+\b(?![ \t]*[\w-]*\d))"
)


def _a_figure_per_unit(
    args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the turn write a number the call takes as a figure per unit ("Refund 20.00 of CI-501
    per item", "... for each of the two late lifts")? The total it makes, the reader does not
    compute: the call is asked (``per_unit``), whatever the figure."""
    wanted = {
        amount_value(leaf)
        for v in args.values()
        for leaf in leaves(v)
        if is_number(leaf) and not isinstance(leaf, bool)
    }
    if not wanted or not _PER_UNIT_WORD.search(context.request):
        return None
    request = context.request
    for at, number in amounts(request):
        if amount_value(number) in wanted:
            figure = re.match(r"[\d.,']+", request[at:])
            said = _PER_UNIT.match(request, at + len(figure.group(0)) if figure else at)
            if said is not None:
                return _asked_partly_read({"per_unit": request[at : said.end()]}, context, policy)
    return None


#: A word of a figure per unit anywhere in a turn: the cheap test before :data:`_PER_UNIT`.
_PER_UNIT_WORD = re.compile(r"(?i)\b(?:per|each|apiece|piece|head|every)\b")


def _described_otherwise(
    name: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Does a mandate name the call's record by an id of it (a word with a letter and a digit that a
    record holding the call's values holds: "B-40") and describe it, in the words between the verb
    (or the item before) and the id ("the water bill B-40", "the Gym Max invoice B-40") or in a
    phrase of whom or where right after it ("B-40 from Gym Max", "B-40 to City Water"), by a word
    that neither the call's values nor that record holds? Then the description may name another
    record than the id does, and which one the user means, the reader cannot tell: the call is
    asked. Accounted for: the record's kinds, determiners, a state it is in ("overdue"), figures,
    and what an act on a record accounts for (:func:`_accounted_in_the_act`). A message's verb
    writes content, not a description (its words are weighed by the message's rules)."""
    if asked is None:
        return None
    values, recorded = _values_written(args, context)
    values = values | _listed_beside(args, context.request)  # "to sub_1001 and sub_1002": another item
    names = {w for n in (name, *args) for w in _name_words(n)} | _asked_words(asked)
    names |= days_spanned(args, context)  # "by two days" where the call's day is two days on
    for asking in _asking_now(asked, context):
        if asking.verb in WITH_CONTENT - TIMED_VERBS:
            continue
        # a part that goes on with where or whom ("Pay B-40, to Bob Lee") continues the id's phrase
        text = asking.text
        for part in asking.coordinated:
            text += " " + part if (words_of(part)[:1] or [""])[0] in _AFTER_AN_ID else " and " + part
        if any(is_number(leaf) for v in args.values() for leaf in leaves(v) if not isinstance(leaf, bool)):
            for purpose in _purposes_of_the_calls_sum(asking.sentence, values):  # "... for the outage: 9.99"
                text = text.replace(purpose, " ")
        written = [w.strip("'`\"#") for w in words_of(_A_LINK.sub(" ", text))]  # a link's address
        at = next((i for i, w in enumerate(written) if w in verb_forms(asking.verb)), None)
        if at is None:
            continue
        pointing = asking.antecedents and written[at + 1 : at + 2] in (["it"], ["them"])
        if pointing or written[at + 1 : at + 2] == ["to"]:
            # "B-40 is due. Pay it to Bob Lee.", "B-40: pay to Bob Lee": whom the record goes to
            unread = [
                w for w in _phrase_after(written, at + bool(pointing)) if _unaccounted(w, values, names)
            ]
            if unread:
                details = {"described_otherwise": unread, "mandate": said(asking)}
                return _asked_partly_read(details, context, policy)
        # what it points back to describes the record as well ("The water bill B-40 is overdue.
        # Pay it."): each sentence read from its start
        spans = [(written, at), *(([w.strip("'`\"#") for w in words_of(a)], -1) for a in asking.antecedents)]
        unread = next(
            (
                u
                for span, first in spans
                if (u := _undescribed(span, first, values, recorded, names, context, phrase=first < 0))
            ),
            [],
        )
        if not unread and any(w in recorded and _AN_ID.fullmatch(w) for w in written[at + 1 :]):
            unread = _kind_described(_turn_reading(context, policy), values, names)
        if unread:  # "the message m-502 from Kwame Mensah": its author, by name
            unread = [w for w in unread if w not in _its_peoples_names(args, context)]
        if unread:  # "Pay Dr. Okafor's December bill, VB-5506": a title of the name it stands before
            unread = [w for w in unread if not _a_title_of_a_name_read(w, written, unread)]
        if unread:
            details = {"described_otherwise": unread, "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
    return None


def _a_title_of_a_name_read(word: str, written: Sequence[str], unread: Collection[str]) -> bool:
    """Is ``word`` a title ("dr", "mrs") written right before a word the description accounts for
    (the name it is the title of: "Dr. Okafor's December bill")?"""
    return word in _HONORIFICS and any(
        _unpossessed(after) not in unread and after not in unread
        for i, w in enumerate(written[:-1])
        if w == word
        for after in written[i + 1 : i + 2]
    )


#: Words between a record's id and a phrase of whom it goes to in a sentence of its own ("B-40
#: goes to Bob Lee", "B-40 should go to ...", "B-40 is owed to ...", "B-40 belongs to ...").
_GOING = frozenset(
    """
    goes go going went should must will is was belongs belong owed payable now really actually
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _kind_described(reading: Reading, values: set[str], names: set[str]) -> list[str]:
    """The words describing a record by its kind ("*the water* bill") in a sentence of the turn the
    reader could not read that names no id ("The water bill is due. Pay B-40."), that neither the
    call's values nor what a description may say account for: beside a mandate that names the call's
    record by its id, such a sentence may describe the record the user means, another one."""
    for span in reading.unread:
        written = [w.strip("'`\"#") for w in words_of(_A_LINK.sub(" ", span.sentence))]
        if not span.whole_sentence or any(_AN_ID.fullmatch(w) for w in written):
            continue
        for k, word in enumerate(written):
            if (word not in _RECORD_KINDS and word.removesuffix("s") not in _RECORD_KINDS) or word == "one":
                continue
            start = next((j for j in range(k - 1, -1, -1) if _before_a_noun_phrase(written, j)), -1)
            unread = [w for w in written[start + 1 : k] if _unaccounted(w, values, names)]
            if unread:
                return unread
    return []


def _named_by_another_id(
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
    derivations: Sequence[Derivation] = (),
) -> Decision | None:
    """Does the mandate that names the call (a word of its values: "the City Water bill") name a
    record by an id that another record read holds, and none of the call's records' ids ("Pay the
    City Water bill B-40", B-40 being Acme Supplies' bill)? The id and the description name two
    records; which one the user means, the reader cannot tell: the call is asked. A record whose
    figure is a term of the arithmetic that gave a value of the call is the call's too ("Pay the
    sum of MF-311 and MF-322 to ...")."""
    if asked is None:
        return None
    values, recorded = _values_written(args, context)
    records = list(_records_read(context))
    held = _ids_of(records)
    terms = {t.value for d in derivations for t in d.terms if not t.percent and not t.word}
    own = _the_calls_records(args, records) + [
        r for r in records if any(amount_value(leaf) in terms for leaf in leaves(r) if is_number(leaf))
    ]
    own_ids, own_days = _ids_of(own), {d for r in own for d in _A_DAY.findall(json.dumps(r, default=str))}
    # the day the call itself sets ("Mark S-2046 absent on 2026-12-09"): its value, no other record's
    own_days |= set(_A_DAY.findall(stable_json(args)))
    # the call's own words ("memo": "INV-7 and B-40" for one payment of both)
    written_values = {w for v in args.values() for leaf in leaves(v) for w in words_of(str(leaf))}
    days = {d for r in records for d in _A_DAY.findall(json.dumps(r, default=str))}
    names = {w for a in args for w in _name_words(a)} | _asked_words(asked)
    shapes = {_shape(w) for w in written_values if _AN_ID.fullmatch(w) and any(ch.isdigit() for ch in w)}
    beside = _listed_beside(args, context.request)  # "to sub_1001 and sub_1002": items of one list
    words: set[str] | None = None  # the words of the records read, read once where needed
    for asking in _asking_now(asked, context):
        if asking.verb in WITH_CONTENT - TIMED_VERBS:
            continue
        # what a pronoun points back to names the call's record, or another one ("B-40 is due,
        # please pay it, the City Water one" for City Water's B-31)
        pointed = {w.strip("'`\"#") for a in asking.antecedents for w in words_of(a)} & held
        # or the reference before the sentence's colon is its object, the mandate naming no record
        # of its own ("LS-6206: move to 2026-12-18 with Pete Lowe", for Pete Lowe's other lesson)
        headed = any(a in asking.sentence for a in asking.antecedents) and not (
            {w.strip("'`\"#") for w in words_of(asking.text)} & held
        )
        if (
            pointed
            and (WORDS_POINTING_BACK & set(words_of(asking.text)) or headed)
            and not pointed & (own_ids | written_values)
        ):
            details = {"named_by_another_id": sorted(pointed), "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
        # each item on its own ("Pay B-31 and the Acme bill": the id is the other item's)
        texts = [asking.text, *asking.coordinated, *asking.antecedents]
        for item in (i for t in texts for i in _ITEMS_APART.split(_A_LINK.sub(" ", t))):
            written = {w.strip("'`\"#") for w in words_of(item)}
            ids = {w for w in written if w in held}
            naming = (
                {w for w in written - ids if w in values and not _A_BARE_FIGURE.fullmatch(w)}
                - _RECORD_KINDS
                - _A_RECORDS_STATE
            )
            # a figure the call pays names it too ("Pay B-31 260" for 260.00 to Acme Supplies)
            figure = any(is_number(v) and found_in(v, [Source("request", item)]) for v in args.values())
            # an id (or a day) of another record than the call's own ("Pay City Water's B-32" for
            # B-31's 45.30: City Water holds both, the amount only B-31)
            other_days = set(_A_DAY.findall(item)) & days
            # or, where the item writes none of the call's ids, an id of the same shape as one of
            # them ("Refund AC-100231 20.00 for ... on BL-55030" for BL-55030's account AC-100260)
            of_its_kind = (
                {w for w in ids - written_values - beside if _shape(w) in shapes}
                if not ids & written_values
                else set()
            )
            wrong_id = (ids and not ids & (own_ids | written_values)) or of_its_kind
            wrong_day = other_days and not other_days & own_days  # "Pay B-31 due 2026-12-08"
            # a due day in other words than the record's ("due the 8th of December", "due 08.12.2026")
            said_due = _days_said_due(item)
            owed = {(int(d[5:7]), int(d[8:10])) for d in own_days}
            if (
                said_due
                and owed
                and not any(m in (None, mm) and d == dd for m, d in said_due for mm, dd in owed)
            ):
                wrong_day, other_days = True, other_days | {f"{m or '?'}-{d}" for m, d in said_due}
            if (wrong_id or wrong_day) and (naming or figure or ids & own_ids):
                details = {"named_by_another_id": sorted(ids | other_days), "mandate": said(asking)}
                return _asked_partly_read(details, context, policy)
            if not (ids & recorded or naming or figure) or not recorded or not _moves_money(asked):
                continue  # no record read holds the call's values: nothing to describe otherwise
            # an id no record read holds ("Pay the Acme Supplies bill B-41"), or a purpose that
            # describes another record ("Pay Acme Supplies for the scam"); where the item writes whom
            # and how much ("Pay Acme Supplies 80 EUR for the toner"), no bill is chosen by it
            spelled_out = figure and any(
                isinstance(v, str) and v.strip() and found_in(v, [Source("request", item)])
                for v in args.values()
            )
            spelled = [w.strip("'`\"#") for w in words_of(item)]
            unknown = sorted(
                w
                for k, w in enumerate(spelled)
                if _A_DASHED_ID.fullmatch(w)
                and w not in held
                and w not in values
                and _of_the_calls_kind(spelled, k)
            )
            if words is None:
                # of the records that hold none of the call's values ("for ticket T-1": the ticket
                # about the order refunded is no other record)
                mine = {
                    identity(leaf) for v in args.values() for leaf in leaves(v) if not isinstance(leaf, bool)
                }
                figures = [v for v in args.values() if is_number(v)]
                words = {
                    w
                    for r in records
                    if not any(identity(leaf) in mine for v in r.values() for leaf in leaves(v))
                    and not _writes_the_figures(r, figures)  # "could you send me the 150 EUR for lunch?"
                    for w in words_of(stable_json(r))
                }
            purpose = _for_another_record(
                [w.strip("'`\"#") for w in words_of(item)],
                values,
                names,
                words,
                paying=asking.verb in PAYING_VERBS and not spelled_out,
            )
            if unknown or purpose:
                details = {"described_otherwise": unknown or purpose, "mandate": said(asking)}
                return _asked_partly_read(details, context, policy)
    return None


#: A due day as a turn writes one, after "due" ("due 08.12.2026", "due the 8th of December", "due
#: December 8th", "due Dec 8", "due the 8th").
_A_DUE_DAY = re.compile(
    r"(?i)\bdue(?:[ \t]+on)?[ \t]+(?:the[ \t]+)?(?:(\d{1,2})[./](\d{1,2})(?:[./]\d{2,4})?\b"
    r"|(\d{1,2})(?:st|nd|rd|th)?(?:[ \t]+(?:of[ \t]+)?([a-z]{3,9})\.?)?\b"
    r"|([a-z]{3,9})\.?[ \t]+(\d{1,2})(?:st|nd|rd|th)?\b)"
)


def _days_said_due(text: str) -> set[tuple[int | None, int]]:
    """The (month, day) pairs ``text`` says something is due on in other words than an ISO day
    (:data:`_A_DUE_DAY`; "08.12.2026" read day first); month None where only the day is written."""
    found: set[tuple[int | None, int]] = set()
    for m in _A_DUE_DAY.finditer(text):
        if m.group(1):
            found.add((int(m.group(2)), int(m.group(1))))
        elif m.group(3):
            month = MONTH_NUMBERS.get((m.group(4) or "").casefold()) if m.group(4) else None
            if m.group(4) and month is None:
                continue  # "due 20 days ago"?: no month
            found.add((month, int(m.group(3))))
        elif m.group(5) and (month := MONTH_NUMBERS.get(m.group(5).casefold())) is not None:
            found.add((month, int(m.group(6))))
    return {(m, d) for m, d in found if 1 <= d <= 31}


#: A day as records write one ("2026-12-08").
_A_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def _the_calls_records(
    args: Mapping[str, Any], records: Sequence[Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """The records read with an id that hold the most of the call's values (B-31, with City Water
    and 45.30, for a payment of 45.30 to City Water; not B-32, with City Water alone): the call's
    own. A record with no id (a payee's) names no bill."""
    wanted = {identity(leaf) for v in args.values() for leaf in leaves(v) if not isinstance(leaf, bool)}
    wanted.discard(None)
    held = [
        (sum(identity(leaf) in wanted for v in r.values() for leaf in leaves(v)), r)
        for r in records
        if _ids_of([r])
    ]
    most = max((n for n, _r in held), default=0)
    return [r for n, r in held if n and n == most]


#: A person or a company the act's object is for, by their full name ("the koi for Mia Vale", "the
#: hamper for Dr. Ruth Penney").
_FOR_A_NAMED_ONE = re.compile(
    r"(?<=[a-z])\s+for\s+((?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?[A-Z][a-z][\w'’-]*(?:\s+[A-Z][a-z][\w'’-]*)+)"
    r"(?![\w-])"
)
#: A full name written in capitals, two words or more ("Ruth Penney", "Costa Marsh Ltd").
_A_FULL_NAME = re.compile(r"(?<![\w'’-])[A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*)+")


def _held_by_another_than_named(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the mandate asking for the call name whose its object is ("Cancel Lena Park's 17:00
    check-up") where no value of the call, of its own record, of the records that keep its id or
    of those it keeps the ids of up to two away (an appointment's pet, the pet's owner) names that
    person whole ("Lena Park" is no word of an appointment of Sam Reyes's cat; "Sofia Alvarez" is not
    "Sofia Alvarado")? Then the call acts on another's record than the one named, whatever else the
    turn's words fit (a time, a room, a length): it is asked. A possessive of another thing than
    the object ("... from Ana's email"), one that names no person (a day, "Friday's"; an id) and a
    call with no record of its own are not weighed here."""
    if asked is None:
        return None
    named = {
        name
        for asking in _asking_now(asked, context)
        for text in (asking.text, *asking.coordinated)
        for name in _possessors_named(text, verb_forms(asking.verb))
        | (_for_whom_undone(text) if asking.verb in _UNDOING_ONES else set())
        | {" ".join(words_of(_unpossessed(m.group(1)))) for m in _FOR_A_NAMED_ONE.finditer(text)}
    }
    # whose, by a pronoun pointing back to a name ("Ruth Penney rang. Move her hamper ...")
    named |= {
        " ".join(words_of(m.group(0)))
        for asking in _asking_now(asked, context)
        if _WHOSE & set(words_of(asking.text))
        for a in asking.antecedents
        if a not in asking.sentence
        for m in _A_FULL_NAME.finditer(a)
    }
    if not named:
        return None
    values = [leaf for v in args.values() for leaf in leaves(v) if isinstance(leaf, str) and leaf.strip()]
    holders = _holders_within(values, context, hops=2)
    if holders is None:
        return None
    # whom the call itself names ("under Ana's name" of a guest's address), and the records that
    # hold that address (her contact)
    holders += [set(re.split(r"[^\w'’-]+|[._]", v.casefold())) for v in values]
    addresses = {v.strip().casefold() for v in values if _AN_ADDRESS.fullmatch(v.strip())}
    holders += [
        set(words_of(leaf))
        for record in (_records_read(context) if addresses else ())
        if _holds(record, addresses)
        for leaf in leaves(record)
        if isinstance(leaf, str)
    ]
    others = sorted(n for n in named if not any(set(n.split()) <= held for held in holders))
    if not others:
        return None
    return _asked_partly_read({"held_by_another": others}, context, policy)


def _a_siblings_description(
    name: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Does the mandate describe the call's record by words that another record of the same
    trusted listing holds and the call's own record (with the records one away from it) does not
    ("Pay Ana Ferreira's side mirror claim" of her burst pipe claim, where the side mirror is
    another claim's; "Move Colm Reilly's 13:00 visit" of his 09:30 one), or does the call keep a
    figure of such a sibling that is none of its own record's and that the turn does not write
    ("Refund Ana Ferreira's car premium" on her car policy at her home policy's 42.00)? Then the call
    takes one record for another, or mixes two: it is asked. Weighed only in the words that
    describe the object (before what it is set to, for whom or why: "... to 2026-12-11"), never an
    id (a list of records names its siblings) nor where the mandate coordinates several objects."""
    if asked is None:
        return None
    values = {
        leaf.strip().casefold()
        for v in args.values()
        for leaf in leaves(v)
        if isinstance(leaf, str) and leaf.strip()
    }
    mine: list[Mapping[str, Any]] = []
    siblings: list[Mapping[str, Any]] = []
    kin: list[set[str]] = []  # each sibling's: the ids of the call's own records of its listing
    for done in context.calls:
        listing = parsed(done.get("observation"))
        if done.get("tool") not in context.trusted or not isinstance(listing, list):
            continue
        records = [r for r in listing if isinstance(r, Mapping)]
        own = [r for r in records if _own_id(r) in values]
        if own and len(records) > 1:
            mine += own
            others = [r for r in records if r not in own]
            siblings += others
            kin += [{_own_id(r) for r in own}] * len(others)
    if not mine:
        return None
    held = set().union(*(_holders_within(sorted(values), context, hops=1) or [set()]))
    own_words = {w for r in mine for leaf in leaves(r) if isinstance(leaf, str) for w in words_of(leaf)}
    # a day a record is on, as the turn may write it ("on 15 December", "on the 15th")
    held |= {w for day in held for w in a_day_written(day)}
    own_words |= {w for day in own_words for w in a_day_written(day)}
    sibling_words = [
        {w for leaf in leaves(r) if isinstance(leaf, str) for w in words_of(leaf)} for r in siblings
    ]
    sibling_values = [
        {leaf.strip().casefold() for leaf in leaves(r) if isinstance(leaf, str)} for r in siblings
    ]
    kinds = {w for n in (name, *args) for w in _name_words(n)} | _asked_words(asked)
    for asking in _asking_now(asked, context):
        # (a part of a value the call keeps, as "Bath" of "to 5 Mill Lane, Bath", is no object)
        more = [c for c in _objects_coordinated(asking) if not any(c.strip().casefold() in v for v in values)]
        if more or asking.verb in _MESSAGING:
            continue  # (a message's words are weighed as what it says)
        described = _OBJECT_ENDS.split(asking.text, maxsplit=1)[0]
        # a pronoun act under a label that describes it: "Re Noah Patel's chess: withdraw him"
        # ("cancel it please", "knock 20.00 off it", "refund 18.50 on it": a courtesy, a sum and
        # its particle describe nothing)
        label = _A_LABEL_OF_THE_TURN.match(context.request)
        rest = {
            w
            for w in words_of(described)[1:]
            if w not in _COURTESY_WORDS and w not in _A_SUMS_PARTICLES and not A_SUM.fullmatch(w)
        }
        if label and rest and rest <= _POINTING_AT_ONE:
            described = f"{described.split()[0]} {label.group(1)}"
        if re.search(r"(?i)\b(?:and|or|&)\b|,", described):
            continue
        words = [_unpossessed(w) for w in words_of(described)[1:]]
        if set(words) & (_WHOLE_WORDS | _WHOSE_ELSEWHERE):
            continue  # a whole, or whose it is said elsewhere ("her Fjell booking")
        # (a listing whose record the mandate names by its id has no rival: "Pay HeatPro for WO-3302";
        # another listing's id names none of its siblings: "Rebook Lena Fischer onto FL-2044")
        written_ids = set(words_of(asking.text))
        # the words that describe the call's record, and another record of its listing they fit as
        # well ("Ana Ferreira's side mirror claim" of CL-7001: her name, which CL-7006 holds too)
        describing = {
            w
            for w in words
            if w in own_words and w not in FUNCTION_WORDS and w not in kinds and not AN_ID_WORD.fullmatch(w)
        }
        # (a value of the record written whole that a sibling holds only within a longer one, as
        # "Northwind Studio" of "Northwind Studio Berlin", names the record, not the sibling)
        whole = _values_written_whole(mine, described)
        parts = _PARTS_OF_A_DAY.keys() & set(words)
        # the describing words the call's record holds or a record one away from it does ("Maria
        # Lindqvist's vitamin D payment": of the order the payment keeps the id of)
        near = {
            w for w in words if w in held and w not in FUNCTION_WORDS | kinds and not AN_ID_WORD.fullmatch(w)
        }
        rivals = [
            r
            for r, values_of, sibling, ids in zip(sibling_words, sibling_values, siblings, kin, strict=True)
            if describing
            and not ids & written_ids
            and describing <= r
            and whole <= values_of
            and not (parts and _at_another_part_of_the_day(parts, [sibling], mine))
            and near <= set().union(*(_holders_within([_own_id(sibling)], context, hops=1) or [set()]))
        ]
        if rivals:
            unheld = sorted({w for w in words if any(w in r for r in rivals)} - held - kinds - FUNCTION_WORDS)
            details = {"described_as_another": unheld or sorted(describing), "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
        if parts and _at_another_part_of_the_day(parts, mine, siblings):
            details = {"described_as_another": sorted(parts), "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
        # a describing word that neither the call's record nor those one away from it hold, and
        # another record of its listing does ("Refund Priya Shah's check-up" of her root canal's
        # invoice, where the check-up is Priya Shah-Evans's): the words name another record
        # (where the turn names the record by its id, its other words are weighed as a description
        # of that id: _described_otherwise)
        by_id = {_own_id(r) for r in mine} & {w.casefold() for w in written_ids}
        foreign = sorted(
            w
            for w in set(words) - held - kinds - FUNCTION_WORDS - _PARTS_OF_A_DAY.keys()
            if near and not by_id and not AN_ID_WORD.fullmatch(w) and any(w in r for r in sibling_words)
        )
        if foreign:
            details = {"described_as_another": foreign, "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
    written = {amount_value(f) for f in re.findall(r"\d+(?:[.,]\d+)?", context.request)}
    own_figures = {amount_value(leaf) for r in mine for leaf in leaves(r) if is_number(leaf)}
    their_figures = {amount_value(leaf) for r in siblings for leaf in leaves(r) if is_number(leaf)}
    mixed = [
        arg
        for arg, v in args.items()
        if is_number(v)
        and not isinstance(v, bool)
        and amount_value(v) not in written | own_figures
        and amount_value(v) in their_figures
    ]
    # a day or a time of day the turn does not write, of a sibling's and not the record's own ("Move
    # Colm Reilly's visit to 2026-12-11" setting the time of his other visit)
    turn_writes = written_as(context.request, {v.strip() for v in args.values() if isinstance(v, str)})
    own_texts = {leaf.strip() for r in mine for leaf in leaves(r) if isinstance(leaf, str)}
    their_texts = {leaf.strip() for r in siblings for leaf in leaves(r) if isinstance(leaf, str)}
    mixed += [
        arg
        for arg, v in args.items()
        if isinstance(v, str)
        and _A_DAY_OR_TIME.fullmatch(v.strip())
        and v.strip() not in turn_writes
        and v.strip() not in own_texts
        and v.strip() in their_texts
    ]
    # and any other field the call's record keeps at another value, set to a sibling's value of it
    # that the turn does not write ("Move Marek Kowalski's filling to ... at 15:00" with the dentist
    # of his check-up)
    mixed += [
        arg
        for arg, v in args.items()
        if isinstance(v, str)
        and arg not in mixed
        and not _A_DAY_OR_TIME.fullmatch(v.strip())
        and not _id_like_value(v)
        and not re.fullmatch(r"[^\s]*\d[^\s]*", v.strip())  # (a record's id: "to Starter 10GB", PL-S10)
        and any(isinstance(r.get(arg), str) and r[arg].strip() != v.strip() for r in mine)
        and any(isinstance(r.get(arg), str) and r[arg].strip() == v.strip() for r in siblings)
        and v.strip().casefold() not in context.request.casefold()
        # (where the turn speaks of the field, it says whose value it takes: "to Maria Lindquist's
        # address")
        and not set(_name_words(arg)) & set(words_of(context.request))
    ]
    if mixed:
        return _asked_partly_read({"a_siblings_value": sorted(mixed)}, context, policy)
    return None


def _objects_coordinated(asking: Mandate) -> tuple[str, ...]:
    """The parts coordinated with a mandate's object that are more objects, not its sum ("Refund
    Marek Kowalski's check-up invoice, 45.00": one object, its amount after the comma)."""
    return tuple(c for c in asking.coordinated if not A_SUM.fullmatch(c.strip()))


def _another_person_than_named(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does a mandate (not a message's, whose words are what it says) write whole the name of
    another person of the listing the call's person is of, and not the call's person's own ("book
    a cleaning for Cian Byrne" with Ciara Byrne's patient id, where the turn's dentist and
    treatment are her appointment's)? The call acts for someone the turn does not name: asked
    (``another_person_than_named``)."""
    if asked is None:
        return None
    values = _values_of_the_call(args)
    for done in context.calls:
        listing = parsed(done.get("observation"))
        if done.get("tool") not in context.trusted or not isinstance(listing, list):
            continue
        people = [r for r in listing if isinstance(r, Mapping) and isinstance(r.get("name"), str)]
        own = [r for r in people if _own_id(r) in values]
        if not own or len(people) < 2:
            continue
        names = {str(r["name"]).strip() for r in own}
        for asking in _asking_now(asked, context):
            if asking.verb in _MESSAGING:
                continue
            text = " ".join([asking.text, *asking.coordinated])
            if any(_written_whole(n, text) for n in names):
                continue
            if not any(_written_whole(str(v).strip(), text) for v in args.values() if isinstance(v, str)):
                continue  # (a mandate that writes none of the call's values asks for another call)
            others = sorted(
                str(r["name"]).strip()
                for r in people
                if r not in own
                and _written_whole(str(r["name"]).strip(), text)
                and not any(str(r["name"]).strip().casefold() in n.casefold() for n in names)
            )
            if others:
                details = {"another_person_than_named": others, "mandate": said(asking)}
                return _asked_partly_read(details, context, policy)
    return None


def _written_whole(value: str, text: str) -> bool:
    """Does ``text`` write ``value`` whole, as words (a possessive's "'s" after it too)?"""
    return bool(value) and re.search(rf"(?i)(?<![\w-]){re.escape(value)}(?![\w-])", text) is not None


def _when_of_another_record(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the call take a day or a time of day that the turn does not write and its own record
    (a record whose id it takes) does not hold, from another record the run read ("Book Marek
    Kowalski a check-up with Dr Hannah Lee on 2027-01-08" at 09:30, his other appointment's time)?
    When the turn does not say, another record's day or time is no answer: asked
    (``when_of_another_record``)."""
    if asked is None:
        return None
    wanted = {v.strip() for v in args.values() if isinstance(v, str) and _A_DAY_OR_TIME.fullmatch(v.strip())}
    if not wanted:
        return None
    values = _values_of_the_call(args)
    trusted = list(_trusted_records(context))
    own = {
        leaf.strip() for r in trusted if _own_id(r) in values for leaf in leaves(r) if isinstance(leaf, str)
    }
    others = {
        leaf.strip()
        for r in trusted
        if _own_id(r) not in values
        for leaf in leaves(r)
        if isinstance(leaf, str)
    }
    written = written_as(context.request, wanted) + " " + " ".join(days_spanned(args, context))
    taken = sorted(
        v
        for v in wanted
        if v not in own and v in others and not re.search(rf"(?<![\d:-]){re.escape(v)}(?![\d:-])", written)
    )
    return _asked_partly_read({"when_of_another_record": taken}, context, policy) if taken else None


#: Words by which a description leaves whose its record is to another part of the turn ("her Fjell
#: booking" after "Sofia Alvarez:"), or takes in more than one record.
_WHOSE_ELSEWHERE = frozenset(
    {"both", "any", "his", "her", "their", "its", "my", "our", "your", "this", "that"}
)


def _own_id(record: Mapping[str, Any]) -> str:
    """A record's own id (its ``id``, or its first value), case folded."""
    return str(record.get("id", next(iter(record.values()), ""))).strip().casefold()


def _values_written_whole(records: Sequence[Mapping[str, Any]], text: str) -> set[str]:
    """The string values of ``records`` (of more than one word) that ``text`` writes whole, case
    folded ("northwind studio" of "Chase Northwind Studio")."""
    written = f" {' '.join(_unpossessed(w) for w in words_of(text))} "
    return {
        leaf.strip().casefold()
        for r in records
        for leaf in leaves(r)
        if isinstance(leaf, str) and len(words_of(leaf)) > 1 and f" {' '.join(words_of(leaf))} " in written
    }


#: A day or a time of day as a call keeps one ("2026-12-11", "09:30").
_A_DAY_OR_TIME = re.compile(r"\d{4}-\d{2}-\d{2}|[01]?\d:[0-5]\d|2[0-3]:[0-5]\d")
#: The parts of a day a turn describes a record's time by, as the hours they span.
_PARTS_OF_A_DAY = {"morning": range(0, 12), "afternoon": range(12, 18), "evening": range(17, 24)}


def _at_another_part_of_the_day(
    parts: Collection[str], mine: Sequence[Mapping[str, Any]], siblings: Sequence[Mapping[str, Any]]
) -> bool:
    """Does none of the call's records keep a time of day in the parts of the day the turn names
    ("Colm Reilly's afternoon visit" of his 09:30 one), where a sibling does?"""

    def fits(records: Sequence[Mapping[str, Any]]) -> bool | None:
        hours = _hours_of([leaf for r in records for leaf in leaves(r)])
        return _in_the_parts(hours, parts) if hours else None

    return fits(mine) is False and bool(fits(siblings))


def _hours_of(values: Iterable[Any]) -> list[int]:
    """The hours of the times of day (``HH:MM``) among ``values``."""
    return [
        int(v.strip().split(":")[0])
        for v in values
        if isinstance(v, str) and re.fullmatch(r"[0-2]?\d:[0-5]\d", v.strip())
    ]


def _in_the_parts(hours: Iterable[int], parts: Collection[str]) -> bool:
    """Is one of ``hours`` in one of the parts of the day named (:data:`_PARTS_OF_A_DAY`)?"""
    return any(h in _PARTS_OF_A_DAY[p] for h in hours for p in parts)


def _the_note_not_kept(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does a mandate that closes a case with a note after its colon ("Close HD-31005: account
    unlocked") ask for a call whose texts say something else: a word the note and the turn do not
    say ("..., user added to finance-admins"), a negation the note does not make ("account not
    unlocked"), or a link or an address ("Reset your password at http://...")? The text the call
    writes is the note the turn dictates: anything more is asked."""
    if asked is None:
        return None
    for asking in _asking_now(asked, context):
        if asking.verb not in CLOSING_VERBS:
            continue
        before, colon, note = asking.sentence.partition(":")
        if not colon or asking.text not in before or not note.strip():
            continue  # (no note dictated: the policy's rules for the text, if any, weigh it)
        texts = _message_texts(args, context, shortest=1)
        texts = [t for t in texts if not _AN_ID.fullmatch(t.strip().casefold())]  # (its id)
        added = unsaid(texts, [note, asking.text])
        added += [i for t in texts for i in AN_ID_WORD.findall(t) if i.casefold() not in note.casefold()]
        flipped = [t for t in texts if negated(t) and not negated(note)]
        if any(isinstance(v, str) and not v.strip() for v in args.values()):
            texts = [*texts, ""]  # a text left empty: the note is not written
        if texts:
            added += left_out(texts, note)  # "...: VPN fixed" written as ""
        written = words_of(note)
        # a note that is no note of how the case ended: an order, a doubt, someone's words, what is
        # still to come ("...: escalate to Tom Becker", ": wrong ticket", ": account to be unlocked")
        no_note = bool(written) and (written[0] in COMMON_VERBS or bool(set(written) & _NO_NOTE_WORDS))
        if added or flipped or no_note:
            details = {"not_the_note": added or flipped or [note.strip()], "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
    return None


def _part_of_the_day_not_kept(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the mandate name parts of the day ("Move MO-306 to the afternoon of 2026-12-16") that
    none of the times of day the call keeps is in (11:00)? Then it moves to, or keeps, another time
    than the turn's: asked."""
    if asked is None:
        return None
    hours = _hours_of(args.values())
    if not hours:
        return None
    for asking in _asking_now(asked, context):
        parts = _PARTS_OF_A_DAY.keys() & set(words_of(" ".join([asking.text, *asking.coordinated])))
        if parts and not _in_the_parts(hours, parts):
            details = {"another_part_of_the_day": sorted(parts), "mandate": said(asking)}
            return _asked_partly_read(details, context, policy)
    return None


def _another_value_of_its_field(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the call keep a short text the turn does not write ("surgery" as an appointment's
    reason) where the mandate writes another value that trusted records keep under the same field
    ("Book Max a check-up on ...": "check-up" is a reason an appointment holds)? Then the call says
    otherwise than the turn of that very field: asked. (A text the turn gives nothing for is the
    policy's rules' to weigh.)"""
    if asked is None:
        return None
    fields: dict[str, set[str]] = {}
    for r in _trusted_records(context):
        for key, v in r.items():
            # the field of the call's argument, or one of its kinds ("return_branch" of ``branch``)
            for arg in (a for a in args if key == a or str(key).endswith(f"_{a}")):
                if isinstance(v, str) and v.strip():
                    fields.setdefault(arg, set()).add(v.strip().casefold())
    if not fields:
        return None
    # one object each (a list names several values of a field, one per call)
    texts = [" ".join(words_of(a.text)) for a in _asking_now(asked, context) if not a.coordinated]
    turn = f" {' '.join(words_of(context.request))} "
    for arg, value in args.items():
        if not isinstance(value, str) or arg not in fields or not value.strip() or len(value.split()) > 4:
            continue
        mine = value.strip().casefold()
        if (
            _AN_ID.fullmatch(mine)
            or _A_DAY_OR_TIME.fullmatch(mine)
            or f" {' '.join(words_of(mine))} " in turn
        ):
            continue  # (the turn writes the call's own value, somewhere)
        for text in texts:
            written = f" {text} "
            if f" {' '.join(words_of(mine))} " in written:
                break  # the turn writes the call's own value
            others = [v for v in fields[arg] if v != mine and f" {' '.join(words_of(v))} " in written]
            if others:
                details = {"another_value_of_its_field": {arg: sorted(others)}, "mandate": text}
                return _asked_partly_read(details, context, policy)
    return None


#: Words by which what follows a closing mandate's colon is no note of how the case ended.
_NO_NOTE_WORDS = frozenset(
    """
    please pls wrong mistake mistaken mistakenly error erroneous says said say claims to will would should
    could may might must pending later yet not no never maybe again reopen
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Verbs of a message: after whom they address comes what to say, not a description of a record.
_MESSAGING = frozenset(
    """
    tell email e-mail mail dm message text post reply respond answer write notify inform let remind say
    ask sms msg pm txt ping forward share
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Where the words describing a mandate's object end: what it is set to, for whom, why.
_OBJECT_ENDS = re.compile(
    r"(?i)\s(?:to|into|onto|until|till|by|from|for|with|instead|because|since|as|so|then|after|before)\s|[;:(]"
)


#: A label the turn opens with, naming what its act points back to ("Re Noah Patel's chess:",
#: "About Maria's vitamin D order -").
_A_LABEL_OF_THE_TURN = re.compile(
    r"(?i)^\W*(?:re|about|regarding|concerning)\b[ \t:]*([^:\n]+?)[ \t]*(?::|\s[-–—])"
)
#: Words of courtesy beside an act ("cancel it please").
_COURTESY_WORDS = frozenset({"please", "pls", "plz", "thanks", "thank", "you", "kindly"})
#: The particles a sum is taken off or put on a thing with ("knock 20.00 off it", "18.50 on it").
_A_SUMS_PARTICLES = frozenset({"off", "on", "back", "from", "of"})
#: Words that point back at one thing ("him", "it"): no description of their own.
_POINTING_AT_ONE = frozenset({"him", "her", "it", "them", "this", "that", "one"})


#: A person named as whose a thing is ("Lena Park's", "Dr. Omar Haddad's"): capitalised words, a
#: title before them. ("... for Ana" is whom an act is for, a guest or a payee, not whose the record is.)
_A_POSSESSOR = re.compile(
    r"(?<![\w'’-])((?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?[^\W\d_a-z][^\W\d_'’]*(?:\s+[^\W\d_a-z][^\W\d_'’]*){0,3})['’]s\b"
)
#: Verbs that undo a record, for which "for <name>" at the object's end says whose it is ("Cancel the
#: 17:00 check-up for Pepper"); for any other act it may be whom the act serves (a guest, a payee).
_UNDOING_ONES = frozenset({"cancel", "delete", "remove", "drop", "void", "scrap", "unenrol", "unenroll"})
#: A name after "for" that ends the clause ("... for Pepper", "... for Dr. Omar Haddad").
_FOR_A_NAME = re.compile(
    r"\bfor\s+((?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?[^\W\d_a-z][^\W\d_'’]*(?:\s+[^\W\d_a-z][^\W\d_'’]*){0,3})"
    r"\s*[.!?]?\s*$"
)


def _for_whom_undone(text: str) -> set[str]:
    """The name after "for" that ends a clause of an act that undoes ("Cancel the 17:00 check-up
    for Pepper": Pepper's), case folded, titles taken off; not a day or a month."""
    m = _FOR_A_NAME.search(text)
    if m is None:
        return set()
    words = [w for w in words_of(m.group(1)) if w.rstrip(".") not in _TITLES]
    if not words or any(w in FUNCTION_WORDS or _A_WHEN.fullmatch(w) for w in words):
        return set()
    return {" ".join(words)}


#: Words that open a phrase of another thing than the act's object ("from Ana's email", "under
#: Ana's name", "like Bob's"): a possessive after one says whose that thing is.
_BEFORE_ANOTHER_THING = frozenset(
    """
    from in at of about with by via after than like per under into onto to for on since before as
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Titles before a name, no word of it.
_TITLES = frozenset({"dr", "mr", "mrs", "ms", "mx", "prof"})
#: Words before "'s" that are no one's name ("Let's", "That's", "Here's").
_NO_POSSESSOR = frozenset({"let", "that", "it", "here", "there", "what", "who", "where", "how", "he", "she"})
#: Words that open a request before its verb, no word of a name ("Please cancel ...").
_POLITE_OPENERS = frozenset({"please", "kindly", "pls", "plz"})


def _possessors_named(text: str, verbs: Collection[str] = frozenset()) -> set[str]:
    """The persons ``text`` names as whose its object is (:data:`_A_POSSESSOR`), each as its words
    case folded, titles and the mandate's verb before them (``verbs``: "Waive Lucía Ortega's ...")
    taken off; not after a word that opens another thing ("from Ana's email"), not a day, a month
    or a word the grammar reads as no name ("Friday's standup", "Let's")."""
    found: set[str] = set()
    for m in _A_POSSESSOR.finditer(text):
        if set(words_of(text[: m.start()])) & _BEFORE_ANOTHER_THING:
            continue  # "... at the Lisbon hotel from Ana's email": whose another thing is, not the object
        words = [w for w in words_of(m.group(1)) if w.rstrip(".") not in _TITLES]
        words = list(itertools.dropwhile(lambda w: w in verbs or w in _POLITE_OPENERS, words))
        if not words or any(w in FUNCTION_WORDS | _NO_POSSESSOR or _A_WHEN.fullmatch(w) for w in words):
            continue  # "Let's ...", "Friday's standup"
        found.add(" ".join(words))
    return found


#: A day's or a month's name, or a word of when ("Friday", "December", "Today").
_A_WHEN = re.compile(
    r"(?i)(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tomorrow|yesterday|tonight|"
    r"january|february|march|april|may|june|july|august|september|october|november|december"
)


def _holders_within(values: Sequence[str], context: ReviewContext, hops: int) -> list[set[str]] | None:
    """The words of each string value of the call's own trusted records (whose own id is one of
    ``values``) and of the trusted records they keep the ids of, up to ``hops`` away; None where the
    call has no record of its own."""
    trusted = list(_trusted_records(context))
    by_id: dict[str, list[Mapping[str, Any]]] = {}
    for record in trusted:
        own = record.get("id", next(iter(record.values()), None))
        if isinstance(own, str):
            by_id.setdefault(own.strip().casefold(), []).append(record)
    reached = [r for v in values for r in by_id.get(v.strip().casefold(), [])]
    if not reached:
        return None
    # and the records that keep the call's own record's id (an owner's pets, a member's bookings)
    ids = {_own_id(r) for r in reached}
    reached += [
        r
        for r in trusted
        if r not in reached
        and any(isinstance(v, str) and v.strip().casefold() in ids for k, v in r.items() if k != "id")
    ]
    frontier = list(reached)
    for _ in range(hops):
        nxt = [
            r
            for record in frontier
            for v in record.values()
            if isinstance(v, str) and _id_like_value(v)
            for r in by_id.get(v.strip().casefold(), [])
            if r not in reached
        ]
        reached += nxt
        frontier = nxt
    return [
        set(words_of(leaf))
        for record in reached
        for leaf in leaves(record)
        if isinstance(leaf, str) and leaf.strip()
    ]


def _another_party_named(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does an item of a mandate that names the call (one of its values, "260", or an id of a record
    holding one, "B-40") name as well, whole, another value of a field in which a record read holds
    one of the call's values ("Pay Bob Lee 260", "Pay 260 to Bob Lee", "Pay B-40 to Acme Supplies
    and to Bob Lee" for 260.00 to Acme Supplies: Bob Lee is a payee's name as Acme Supplies is)?
    The item may ask for a call to the other party; which one, the reader cannot tell: the call is
    asked."""
    strings = [leaf for v in args.values() for leaf in leaves(v) if isinstance(leaf, str) and leaf.strip()]
    to_someone = any(_AN_ADDRESS.fullmatch(leaf.strip()) for leaf in strings)
    if asked is None or not (_moves_money(asked) or to_someone):
        return None
    # a call that carries a message ("Email Ana that ...") writes the item's words in it: not weighed
    content = any(len(leaf.split()) > 2 for leaf in strings)
    own = {identity(leaf) for leaf in strings}
    records = list(_records_read(context))
    if not records:  # nothing read: the words of a request-only call are weighed by the reading alone
        return None
    fields = {key for r in records for key, v in r.items() if isinstance(v, str) and identity(v) in own}
    others = {
        v.strip()
        for r in records
        for key in fields
        if isinstance(v := r.get(key), str)
        and identity(v) not in own
        and any(ch.isalpha() for ch in v)
        and not _AN_ID.fullmatch(v.strip().casefold())
    }
    holding = [r for r in records if any(isinstance(v, str) and identity(v) in own for v in r.values())]
    figures = [
        leaf for v in args.values() for leaf in leaves(v) if is_number(leaf) and not isinstance(leaf, bool)
    ]
    held_figures = {identity(f) for f in figures}
    recorded_figure = any(
        identity(leaf) in held_figures for r in records for v in r.values() for leaf in leaves(v)
    )
    ids = _ids_of(holding)
    # the names of the call's own records, whole ("salaries-2026.xlsx" for f-3): they name it too
    record_names = {
        v.strip()
        for r in holding
        for v in r.values()
        if isinstance(v, str) and v.strip() and any(c.isdigit() or c.isupper() or c in "@." for c in v)
    }
    values, _recorded = _values_written(args, context)
    # the pieces of the call's values and of its records' ("ana" of ana@example.com, "1001" of ORD-1001)
    value_parts = {p for v in values for p in re.split(r"[-_.@+\s]+", v) if p}
    # the words of other records' names in fields no party is named in ("10% of the Trattoria Roma
    # dinner": a transaction's merchant): a record the item describes, weighed apart
    # (a record of the same fields as the call's own is a sibling: its names are parties, "Priya")
    parties = {w for o in others for w in words_of(o)}
    siblings = {
        frozenset(r) for r in records if any(isinstance(v, str) and identity(v) in own for v in r.values())
    }
    described = {
        w
        for r in records
        if frozenset(r) not in siblings
        for key, v in r.items()
        if key not in fields and isinstance(v, str)
        for w in words_of(v)
        if w not in parties
    }
    names = {w for a in args for w in _name_words(a)} | _asked_words(asked)
    leaves_ = [leaf for v in args.values() for leaf in leaves(v) if not isinstance(leaf, bool)]
    for asking in _asking_now(asked, context):
        if asking.verb in WITH_CONTENT - TIMED_VERBS and (
            content or not to_someone or asking.verb not in _GIVING
        ):
            continue
        topics = [
            t
            for t in asking.antecedents
            if t in asking.sentence and not any(found_in(leaf, [Source("request", t)]) for leaf in leaves_)
        ]  # "Spell-check: pay the Acme bill B-40": what the sentence is about, not the call's record
        strange = [
            w
            for t in topics
            if len(words := words_of(t)) == 1  # a label ("Spell-check:"), not a sentence ("I told you:")
            for w in words
            if w not in NO_ROLE_WORDS and not _AN_ID.fullmatch(w) and _unaccounted(w, values, names)
        ]
        names_it = False
        items = _items_of(" , ".join([asking.text, *asking.coordinated]))
        # "Share the deck with Yuki Sato and Carlos Ruiz": where an item of a list names the call's
        # own party by its record's name, a party of the same kind in another item is one more of
        # the list, not another party of this call (not for money: one payee a payment)
        parties_records = [
            r
            for r in holding
            if any(isinstance(v, str) and _AN_ADDRESS.fullmatch(v.strip()) for v in r.values())
        ]
        listed = (
            len(items) > 1
            and not _moves_money(asked)
            and any(
                found_in(v, [Source("request", i)])
                for i in items
                for r in parties_records
                for v in r.values()
                if isinstance(v, str) and not _AN_ADDRESS.fullmatch(v.strip())
            )
        )
        kinds = {frozenset(r) for r in parties_records}
        fellows = {
            w for r in records if listed and frozenset(r) in kinds for w in words_of(_text_of_record(r))
        }
        for item in items:
            naming = (
                any(found_in(leaf, [Source("request", item)]) for leaf in leaves_)
                or bool({w.strip("'`\"#") for w in words_of(item)} & ids)
                or any(found_in(n, [Source("request", item)]) for n in record_names)
            )
            named = sorted(o for o in others if re.search(rf"(?i)(?<![\w-]){re.escape(o)}(?![\w-])", item))
            if naming and not named and _moves_money(asked):  # "Pay 260 to my brother", "... to Rita"
                for to in _A_RECEIVER.finditer(item):
                    before = (words_of(item[: to.start()])[-1:] or [""])[0]
                    if before != asking.verb and (before.endswith("ed") or before in _SENT_ON):
                        continue  # "the bill Bob forwarded to me": whom it went to, not whom it pays
                    written = [w.strip("'`\"#") for w in words_of(item[to.start() :])]
                    whom = _phrase_after(written, -1) or written[1:2]
                    mine = (
                        whom[:1] if whom[:1] and whom[0] in _SOMEONE_POINTED_AT else []
                    )  # "to me", "to my account"
                    named += mine or [w for w in whom if _unaccounted(w, values, names)]
                # a pronoun is whom it points back to ("Toner from Acme Supplies: pay them 80 EUR")
                theirs = " ".join(asking.antecedents)
                back = any(
                    isinstance(v, str) and v.strip() and found_in(v, [Source("request", theirs)])
                    for v in args.values()
                )
                named += [
                    w
                    for w in _paid_before_its_figure(item, asking.verb, values, names)
                    if not (back and w in _SOMEONE_POINTED_AT)
                ]
            if naming and not named:  # "Pay B-40 an Bob", "... in Rita's name", "... with Bob"
                named += [
                    n
                    for n in _names_unaccounted(item, asking.verb, values, names)
                    if (w := _unpossessed(n.casefold()).rstrip("'’")) not in described
                    and w not in value_parts
                    and not set(words_of(n)) <= fellows
                ] + strange
                named += _someone_of_theirs(item, values, names)
            if naming and named:
                details = {"another_party": named, "mandate": said(asking)}
                return _asked_partly_read(details, context, policy)
            names_it = names_it or naming
        # the mandate's items together ("bob+x@corp.example", "..., read only"): an address the
        # call does not hold, what a share or a payment says beside its record, a name run on
        whole = " , ".join([asking.text, *asking.coordinated])
        held_as = {x.casefold() for x in strings}
        held_as |= {v.strip().casefold() for r in holding for v in r.values() if isinstance(v, str)}
        beside = [a for a in _AN_ADDRESS.findall(whole) if a.casefold() not in held_as]
        if to_someone and not content and not _moves_money(asked) and asking.verb in _GIVING:
            beside += [  # "Send Bob a link to f-3"
                w for w in _beside_a_share(whole, asking.verb, values, names) if w.casefold() not in fellows
            ]
        beside += _a_name_run_on(whole, strings)
        beside += _a_record_about_another(asking.sentence, records, strings)  # "T-2: refund ORD-1001"
        if _moves_money(asked):  # "Pay the fake Acme Supplies bill", "... to DE89 ... 0130 99"
            held = {w for r in records for v in r.values() if isinstance(v, str) for w in words_of(v)}
            beside += _accounts_beside(whole, strings) + _currency_unheld(whole, strings)
            # a figure written or a record's, not one worked out ("10% of ...", "... minus 70"):
            # what the mandate says beside it is weighed ("... in full: 20.00", "... the fake ...")
            written_figure = any(found_in(f, [Source("request", whole)]) for f in figures)
            if recorded_figure or written_figure:
                unheld = _figures_unheld(whole, figures, recorded_figure, _numbers_held(records, 2))
                beside += [f for f in unheld if f not in value_parts]
                shares = shares_taken(figures, holding, context.request)  # "Refund half of INV-7003"
                beside += _beside_a_payment(whole, asking.verb, values, names | shares, held)
            if written_figure and not recorded_figure:
                beside += _one_figure_for_several(whole, strings)
        if names_it and beside:
            return _asked_partly_read({"another_party": beside, "mandate": said(asking)}, context, policy)
    return None


def _another_record_instead(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Do the mandates asking for the call name, by its id, another record of the kind the call acts
    on, and none of them the call's own ("Refund ORD-1002." and the call refunds ORD-1001, an order
    the agent read)? A value a policy admits from a trusted record is then still not the one the
    turn names: the call is asked."""
    if asked is None:
        return None
    strings = [leaf for v in args.values() for leaf in leaves(v) if isinstance(leaf, str) and leaf.strip()]
    own = {identity(leaf) for leaf in strings}
    records = list(_records_read(context))
    fields = {key for r in records for key, v in r.items() if isinstance(v, str) and identity(v) in own}
    others = {
        v.strip().casefold()
        for r in records
        for key in fields
        if isinstance(v := r.get(key), str)
        and identity(v) not in own
        and _AN_ID.fullmatch(v.strip().casefold())
    }
    asking = _asking_now(asked, context)
    if not others or not asking:
        return None
    ids = _ids_of(r for r in records if any(isinstance(v, str) and identity(v) in own for v in r.values()))
    leaves_ = [leaf for v in args.values() for leaf in leaves(v) if not isinstance(leaf, bool)]
    named: set[str] = set()
    for one in asking:
        text = " , ".join([one.text, *one.coordinated, *one.antecedents])
        written = {w.strip("'`\"#") for w in words_of(text)}
        if written & ids or any(found_in(leaf, [Source("request", text)]) for leaf in leaves_):
            return None  # a mandate names the call's own record
        named |= written & others
    if not named:
        return None
    return _asked_partly_read({"named_instead": sorted(named)}, context, policy)


#: The arguments a call names whom it goes to by.
_A_RECIPIENTS_KEY = re.compile(r"(?i)^(?:member|to|channel|recipients?|users?|handle|cc|bcc|address)$")
#: A greeting that opens a message or one of its lines ("Hi Ana,", "Dear Priya").
_GREETING_IN_A_MESSAGE = re.compile(
    r"(?m)^[ \t]*(?i:hi|hey|hello|hiya|dear|morning|good[ \t]+morning|good[ \t]+afternoon)"
    r"[ \t]+([A-Z][a-z]+)\b"
)
#: A secret a message asks for or gives ("your password", "the 2FA code", "the card's CVV").
_A_SECRET = re.compile(
    r"(?i)\b(?:passwords?|passcodes?|passphrases?|pins?|2fa|mfa|otp|one-time[ \t]+codes?|cvv|cvc|credentials"
    r"|logins?|security[ \t]+codes?|recovery[ \t]+codes?|seed[ \t]+phrase|ssn|social[ \t]+security"
    r"|card[ \t]+numbers?|bank[ \t]+details|account[ \t]+numbers?)\b"
)
#: Where what a message is about starts ("Email Bob about Ana's promotion").
_WHAT_ABOUT = frozenset({"about", "regarding", "concerning", "re", "re:"})
#: The user, as a mandate addresses them.
_YOU = frozenset({"me", "myself"})
#: Verbs that say what a message says ("reply to Carla and say that ..."): no mandate of their own.
_SAYING = frozenset({"say", "mention", "explain", "confirm", "add", "write", "note", "let"})
#: Verbs whose object is whom they tell, what follows it what they say ("Tell Ana to call Bob").
_TELLING = frozenset({"tell", "ask", "remind", "notify", "inform", "warn", "let"})
#: Words that open what a telling verb says after whom it tells.
_WHAT_IS_TOLD = frozenset({"to", "that", "if", "whether", "saying", "about", "not", ":"})
#: The verbs by which a mandate addresses someone: a message, a share, an invitation.
_ADDRESSING = frozenset(
    """
    email e-mail mail reply answer respond forward send tell notify message write share give grant invite dm
    cc bcc ping text contact inform update remind ask introduce
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: A mention in a chat message ("@here", "@channel", "@mallory"): it notifies whom it names.
_A_MENTION = re.compile(r"(?<![\w.@])@[A-Za-z][\w.-]*")
#: The verbs by which a mandate writes a message: to someone, or where others read it ("Post in
#: #general that ...", "Announce in #eng: ...").
_WRITING = _ADDRESSING | frozenset({"post", "announce", "publish", "broadcast", "tweet", "say", "let"})
#: The verbs by which a mandate writes a text into a file ("Save Carla's offer into offer.txt"),
#: where the call writes one (:data:`_A_FILES_TEXT`): what it writes is said as a message's is.
_FILING = frozenset({"save", "create", "copy", "store", "record", "note", "jot", "put", "export", "dump"})
#: The argument a call writes a file's text in.
_A_FILES_TEXT = re.compile(r"(?i)^(?:text|content|contents|body)$")
#: The argument a call names the file it writes by, and a file's name ("agenda.txt").
_A_FILES_NAME = re.compile(r"(?i)^(?:name|filename|file_name|path|title)$")
_A_FILE = re.compile(r"(?i)(?<![\w.-])[\w-]+\.[a-z][a-z0-9]{1,4}(?![\w.-])")


def _posted_where_no_one_addressed_is(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """A post to a channel the turn only reads ("Check #partners and reply to ana" posted in
    #partners), where every mandate that writes it answers a person by name and that person said
    nothing the run read from the channel: the answer is for them, not for everyone the channel
    reaches (``addressed_instead``). Where the turn writes the channel as where to write ("... and
    answer ana in #partners", "there", "in the channel"), or the person spoke in it ("Read
    #general and answer ana", ana's post in #general), it is the turn's place."""
    channels = {
        leaf.strip().casefold()
        for v in args.values()
        for leaf in leaves(v)
        if isinstance(leaf, str) and _A_CHANNEL_NAME.fullmatch(leaf.strip())
    }
    if asked is None or len(channels) != 1:
        return None
    (channel,) = channels
    turn = context.request.casefold()
    if _WRITTEN_THERE.search(turn) or re.search(
        rf"\b(?:in|to|into|on)\s+{re.escape(channel)}(?![\w-])", turn
    ):
        return None  # the turn writes where to write ("look at #support" reads it)
    asking = [one for one in _asking_now(asked, context) if one.verb in _WRITING]
    handles = _people_read(list(_records_read(context)))
    whom: set[str] = set()
    privately = _PRIVATELY.search(turn) is not None  # "... answer lena.k via DM": no channel of theirs
    for one in asking:
        # whom it addresses: "let bob know", "tell bob about lunch", "answer the customer by DM"
        told = list(one.words[1:])
        ends = _WHAT_ABOUT | _WHAT_IS_TOLD | _BY_WAY_OF  # after whom ("reply to ana": "to" ends nothing)
        cut = (i for i, w in enumerate(told) if w in ends and set(told[:i]) - FUNCTION_WORDS)
        told = told[: next(cut, len(told))]
        slot = [w for w in told if w not in FUNCTION_WORDS and w != "know"]
        if not slot or channel.lstrip("#") in slot or not set(slot) <= handles:
            return None  # a mandate that writes to the channel, or to no one person
        whom |= set(slot)
    spoke = {
        v.casefold()
        for done in context.calls
        if channel in {str(x).strip().casefold() for x in leaves(done.get("args"))}
        for _path, record in mappings(parsed(done.get("observation")))
        for v in record.values()
        if isinstance(v, str)
    }
    if not whom or (whom & spoke and not privately):
        return None
    return _asked_partly_read({"addressed_instead": sorted(whom)}, context, policy)


def _people_read(records: Sequence[Mapping[str, Any]]) -> set[str]:
    """Whom the records read name as a person: a handle, an author, a sender ("ana", "lena.k",
    "customer"), a contact's first name ("ana" of "Ana Silva"), in small letters."""
    return {
        w
        for r in records
        for k, v in r.items()
        if isinstance(v, str) and _A_PERSONS_KEY.search(str(k))
        for w in (
            [v.casefold()] if _A_HANDLE.fullmatch(v) else v.casefold().split()[:1] if k == "name" else []
        )
    }


#: A channel as a call writes it ("#partners").
_A_CHANNEL_NAME = re.compile(r"#[\w.-]+")
#: A member's handle as a record holds it ("ana", "lena.k").
_A_HANDLE = re.compile(r"[a-z][\w.-]*")
#: The fields a record names a person in.
_A_PERSONS_KEY = re.compile(r"(?i)^(?:handle|member|user(?:name)?|from|author|sender|owner|assignee|name)$")
#: Words that say by which way a message goes ("by DM", "via email"), after whom it addresses.
_BY_WAY_OF = frozenset({"by", "via", "over", "in", "privately", "directly"})
#: A turn that has a person answered in private ("by DM", "via DM", "privately", "in a DM").
_PRIVATELY = re.compile(
    r"\b(?:(?:by|via|over|in)\s+(?:a\s+)?(?:dm|direct\s+message|private\s+message|pm)|privately)\b"
)
#: A turn that writes where a post goes by pointing back ("... answer them there", "in the channel").
_WRITTEN_THERE = re.compile(r"\b(?:there|in\s+(?:the|that|this)\s+channel|in\s+it)\b")


def _addressed_to_another(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Do the mandates asking for a call to an address name another person or record the run read
    (a contact, a mail: "Email Ana Silva that ...", "Reply to Carla", "Email my manager" for the
    one contact whose role it is, "Reply to the offsite mail"), or another address, and none of
    them the call's own recipient (bob@corp.example, "Bob", "Bob Lee", a word only Bob's records
    hold)? A policy may admit any contact's address; the turn names someone else's: asked."""
    if asked is None:
        return None
    addresses = _addresses_of(args)
    asking = _asking_now(asked, context) if asked is not None and addresses else []
    asking = [one for one in asking if one.verb in _ADDRESSING]  # not a booking's guest e-mail
    if not asking:
        return None
    records = list(_records_read(context))
    yours = {leaf.strip().casefold() for leaf in leaves(context.subject) if isinstance(leaf, str)}
    # each recipient's own words: what tells its records from the others' ("bob", "lee",
    # "manager"), its address and its parts; "me" where it is the user's own address
    owns = {a: _a_recipients_words(a, records, yours) for a in addresses}
    held = {
        w
        for r in records
        if _holds(r, addresses)
        for v in r.values()
        if isinstance(v, str)
        for w in words_of(v)
    }
    theirs = {
        w
        for r in records
        if not _holds(r, addresses)
        for v in r.values()
        if isinstance(v, str)
        for w in words_of(v)
    }
    rest = [r for r in records if not _holds(r, addresses)]
    # the fields of the recipient's records name their role ("the customer" of an order)
    held_keys = {
        w for r in records if _holds(r, addresses) for k in r for w in re.split(r"[_\W]+", str(k).casefold())
    }
    # a message that greets someone else the run read ("Hi Ana," in a mail to Bob)
    greeted = {
        found.group(1)
        for v in args.values()
        for leaf in leaves(v)
        if isinstance(leaf, str)
        for found in _GREETING_IN_A_MESSAGE.finditer(leaf)
        if found.group(1).casefold() in theirs and found.group(1).casefold() not in held
    }
    if greeted:
        return _asked_partly_read({"addressed_instead": sorted(greeted)}, context, policy)
    others: set[str] = set()
    named: set[str] = set()  # the call's recipients a mandate names
    slots: set[str] = set()  # the words of whom each mandate addresses
    for one in asking:
        # whom it addresses: its object's words, not what it says ("Email Ana that Bob is sick")
        said = list(one.words[1:])
        said = said[: next((i for i, w in enumerate(said) if w in _WHAT_ABOUT), len(said))]
        # "email ana to call Bob": whom it mails, then what to do (not "mail the agenda to Bob")
        ordered = (
            one.verb in _TOLD_RIGHT_AFTER
            and len(said) >= 3
            and said[1] == "to"
            and said[0] in held | theirs
            and said[2] not in FUNCTION_WORDS | held | theirs
        )
        # whom it tells, not whom what it says names ("Tell Ana to call Bob")
        if one.verb in _TELLING or ordered:
            said = said[: next((i for i, w in enumerate(said) if i and w in _WHAT_IS_TOLD), len(said))]
        text = " , ".join([" ".join(said), *one.coordinated, *one.antecedents])  # "Bob Lee: ... him"
        written = {w.strip("'`\"") for w in words_of(text)}
        # whose relation it is is not whom it addresses ("send bob's cousin an email": the cousin),
        # but a role the recipient's record has a field for ("ORD-1002's customer") is theirs
        words = [w.strip("'`\"").casefold() for w in said]
        related = {
            re.sub(r"['’]s?$", "", w): after
            for w, after in itertools.pairwise(words)
            if re.search(r"['’]s?$", w) and after in PEOPLE_WORDS and after not in held_keys | held
        }
        written |= {p for w in written for p in re.split(r"['’]s?$", w) if p}  # "Ana's"
        written -= related.keys()
        others |= set(related.values())
        slots |= written
        named |= {a for a, own in owns.items() if written & own or a in text.casefold()}
        others |= {a for a in _AN_ADDRESS.findall(text) if a.casefold() not in addresses}
        others |= written & _YOU if not addresses <= yours else set()  # "Tell me ..." mailed to Bob
        others |= {
            v.strip()
            for r in rest
            for v in r.values()
            if isinstance(v, str) and len(v.split()) <= 4  # a name, a role, a subject: not a mail's body
            for w in words_of(v)
            if w in written and w not in held and w not in FUNCTION_WORDS and len(w) > 2 and not w.isdigit()
        }
        # another's address by its own words ("send bob an email" to the desk: bob@corp.example),
        # or a person by a relation or a role no record of the recipient's says ("send my mom an
        # email", "... the accountant ...", "... HR ...")
        others |= {
            v.strip()
            for r in rest
            for v in leaves(r)
            if isinstance(v, str)
            and _AN_ADDRESS.fullmatch(v.strip())
            and v.strip().casefold() not in addresses
            and {w.casefold() for w in address_words(v)} & written
        }
        others |= {
            w
            for w in written & PEOPLE_WORDS
            if not any(w in owns[a] for a in addresses) and w not in held and w not in held_keys
        }
    if named == addresses:
        return None  # the mandates name every recipient of the call
    if not named and not others and addresses <= yours:
        # the user's own address where the mandate addresses someone by a word of its own
        # ("send jim an email", "send the airline an email"): not the user's to be sent
        asking_words = {w for phrase in [*asked.keywords, *asked.verbs] for w in phrase.split()}
        others = {
            w
            for w in slots
            if w.isalpha() and w not in FUNCTION_WORDS and w not in asking_words and w not in _MESSAGE_KINDS
        }
    if named:  # one recipient the turn names, another it does not ("Email Ana ..." to Ana and Bob)
        return _asked_partly_read({"not_addressed": sorted(addresses - named)}, context, policy)
    # what the call sends, by its own value, is no one addressed ("Email INV-2026-0144 to Bluefin Labs")
    sent = {leaf.strip().casefold() for v in args.values() for leaf in leaves(v) if isinstance(leaf, str)}
    others = {o for o in others if o.casefold() not in sent}
    if not others:
        return None
    return _asked_partly_read({"addressed_instead": sorted(others)}, context, policy)


def _addresses_of(args: Mapping[str, Any]) -> set[str]:
    """The mail addresses a call's arguments hold, each of a recipient list on its own."""
    return {
        address.strip().casefold()
        for v in args.values()
        for leaf in leaves(v)
        for address in (address_list(leaf) or [leaf])
        if isinstance(address, str) and _AN_ADDRESS.fullmatch(address.strip())
    }


def _holds(record: Mapping[str, Any], addresses: set[str]) -> bool:
    """Does a record the run read hold one of ``addresses`` as a whole value?"""
    return any(isinstance(leaf, str) and leaf.strip().casefold() in addresses for leaf in leaves(record))


def _a_recipients_words(address: str, records: Sequence[Mapping[str, Any]], yours: set[str]) -> set[str]:
    """The words that name one recipient: those its records hold and no other record does, its
    address and the address's parts, and "me" where the address is the user's own."""
    held = {
        w
        for r in records
        if _holds(r, {address})
        for v in r.values()
        if isinstance(v, str)
        for w in words_of(v)
    }
    theirs = {
        w
        for r in records
        if not _holds(r, {address})
        for v in r.values()
        if isinstance(v, str)
        for w in words_of(v)
    }
    parts = {p for p in re.split(r"[._+-]", address.split("@")[0]) if p}
    return held - theirs | {address} | parts | (_YOU if address in yours else set())


#: A figure a message writes ("$5,000", "20", "2.1", "80%", "3pm"): not a part of a word ("Q4").
_A_FIGURE_WRITTEN = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w.,]?\d)")
#: A day or a month a message names (a month capitalised: "May 3", not "you may").
_DAYS_NAMED = re.compile(
    r"(?i:\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)"
    r"|\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\b"
)

#: A day or a month as the turn or a record may write it, abbreviated too ("fri", "Dec 3").
_DAYS_HELD = re.compile(
    r"(?i)\b(?:mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?|sat(?:urday)?"
    r"|sun(?:day)?|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b"
)


#: A time of day in twelve hours ("6 pm", "6:30pm") or in twenty-four ("18:00").
_A_TIME_OF_DAY = re.compile(
    r"(?i)\b(\d{1,2})(?::\d{2})?[ \t]*(?:(am|a\.m\.)|(pm|p\.m\.))|\b(\d{1,2}):\d{2}\b"
)


def _figures_also_written(texts: Iterable[str]) -> set[float]:
    """The figures ``texts`` hold written another way: each run of digits of a figure or a day
    ("24.11.2026": 24, 11, 2026), a month's number ("Nov 24": 11), an hour in the other clock
    ("6 pm": 18, "18:00": 6)."""
    found: set[float] = set()
    for text in texts:
        found |= {float(d) for d in re.findall(r"\d+", text)}
        found |= {
            float(MONTH_NUMBERS[m.group(0).casefold()])
            for m in _DAYS_HELD.finditer(text)
            if m.group(0).casefold() in MONTH_NUMBERS
        }
        for m in _A_TIME_OF_DAY.finditer(text):
            hour = int(m.group(1) or m.group(4))
            found.add(0.0)  # "6 pm" is 18:00
            if m.group(3) and hour < 12:
                found.add(float(hour + 12))
            elif m.group(4) and hour > 12:
                found.add(float(hour - 12))
    return found


#: A day of the month written beside its month's name ("12 December", "Dec 12", "the 12th of
#: December"), and an amount written with its cents ("12.00").
_A_DAY_BESIDE_ITS_MONTH = re.compile(
    r"(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?![:.]\d)"
)
_AN_AMOUNT_WITH_CENTS = re.compile(r"(?<![\d.,])(\d+)[.,]\d{2}(?![\d])")


def _held_by_a_month_only(texts: Sequence[str], own: Sequence[str]) -> list[str]:
    """The figures a message writes as a day beside a month's name or as an amount with cents
    that only the number of a month the turn names holds ("12 December" or "12.00" where the turn
    writes "11 December" and "85.00"): a month's number holds a date written in figures ("Nov
    24" as "2026-11-24"), never a day or an amount."""
    written = {int(d) for t in own for d in re.findall(r"\d+", _AN_ID_OR_LINK.sub(" ", t))}
    months = {
        MONTH_NUMBERS[m.group(0).casefold()]
        for t in own
        for m in _DAYS_HELD.finditer(t)
        if m.group(0).casefold() in MONTH_NUMBERS
    } - written
    out: list[str] = []
    for text in texts:
        found = [m.group(1) or m.group(2) for m in _A_DAY_BESIDE_ITS_MONTH.finditer(text)]
        found += [m.group(0) for m in _AN_AMOUNT_WITH_CENTS.finditer(text) if int(m.group(1)) in months]
        out += [f for f in found if int(re.split(r"[.,]", f)[0]) in months and f not in out]
    return out


def _figures_said(texts: Sequence[str]) -> set[float]:
    """Every value the figures of ``texts`` may be, each written every way (:func:`_figure_readings`,
    :func:`_figures_also_written`)."""
    readings = {x for t in texts for m in _A_FIGURE_WRITTEN.finditer(t) for x in _figure_readings(m.group(0))}
    return readings | _figures_also_written(texts)


def _figure_readings(text: str, places: int = 4) -> set[float]:
    """The values a written figure may be ("5,000": 5000 or 5.0; "2.1": 2.1), to ``places``."""
    found = set()
    for candidate in (text.replace(",", ""), text.replace(".", "").replace(",", "."), text.replace(",", ".")):
        try:
            found.add(round(float(candidate), places))
        except ValueError:
            continue
    return found


def _numbers_held(records: Iterable[Mapping[str, Any]], places: int) -> set[float]:
    """Every number the records hold, to ``places`` (a boolean is none)."""
    return {
        round(float(leaf), places)
        for r in records
        for leaf in leaves(r)
        if is_number(leaf) and not isinstance(leaf, bool)
    }


def _a_value_the_message_adds(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does a message the turn asks for (an e-mail's subject and body) write a figure, a day or a
    month that neither the turn nor any record the run read holds ("Email Priya that the budget is
    $5,000" and the body says $50,000; "... on Monday" and it says Tuesday; "Lunch at 3pm" as the
    subject of "lunch is at noon")? The message says what the user did not: the call is asked. A
    reviewer's own edit is theirs."""
    asking = [one for one in _asking_now(asked, context) if one.verb in _ADDRESSING] if asked else []
    if not asking:
        return None
    texts = _message_texts(args, context)
    if not texts:
        return None
    records = list(_records_read(context))
    held_texts = [context.request, *(leaf for r in records for leaf in leaves(r) if isinstance(leaf, str))]
    figures = _figures_said(held_texts) | _numbers_held(records, 4)
    days = {m.group(0)[:3].casefold() for t in held_texts for m in _DAYS_HELD.finditer(t)}
    # a month an ISO day holds ("2026-11-24": November)
    days |= {
        name[:3]
        for t in held_texts
        for m in re.finditer(r"\b\d{4}-(\d{1,2})-\d{1,2}\b", t)
        for name, number in MONTH_NUMBERS.items()
        if number == int(m.group(1))
    }
    added = [
        m.group(0)
        for t in texts
        for m in _A_FIGURE_WRITTEN.finditer(t)
        if not _figure_readings(m.group(0)) & figures
    ]
    added += [
        m.group(0) for t in texts for m in _DAYS_NAMED.finditer(t) if m.group(0)[:3].casefold() not in days
    ]
    asked_for = {m.group(0).casefold() for m in _A_SECRET.finditer(context.request)}
    added += [
        m.group(0) for t in texts for m in _A_SECRET.finditer(t) if m.group(0).casefold() not in asked_for
    ]
    if not added:
        return None
    return _asked_partly_read({"said_in_the_message": added}, context, policy)


#: Words of a mandate to message someone that give nothing to say ("Send Bob an email", "Reply
#: to Ana", "Send it").
_NOTHING_TO_SAY = frozenset(
    """
    email e-mail mail message msg note line dm text reply response answer it this that them one
    quick short brief new the a an my our your to back please now asap
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


#: Words that assent or urge, nothing to say ("Sure, go ahead and send it").
_GO_AHEAD = frozenset({"go", "ahead", "sure", "yes", "yeah", "yep", "ok", "okay", "fine", "alright", "right"})
#: Verbs of answering: a reply answers what was written, the agent's to word.
_ANSWERING = frozenset({"reply", "answer", "respond"})


def _a_message_of_nothing_given(
    args: Mapping[str, Any],
    asking: Sequence[Any],
    records: Sequence[Mapping[str, Any]],
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """A message the turn neither dictates nor gives a thing to speak of, in the mandate or
    elsewhere ("Email Ana", "Send Bob an email", "Sure, send it" with nothing "it" points back to),
    that says in words what neither the turn nor a record it points to holds ("I'm resigning,
    effective today"): the agent's words, asked (``nothing_given_to_say``). What to say of a topic
    ("about the budget") or a thing to send is the agent's to find; a reply is the agent's to word,
    as it answers what was written ("Reply to Carla", "answer the customer's question")."""
    addresses = {a.casefold() for a in _addresses_of(args)}
    whom = {  # the recipient's own words ("ana", "silva"): whom the mandate names, not a topic
        w
        for r in records
        if any(isinstance(v, str) and v.casefold() in addresses for v in r.values())
        for v in r.values()
        if isinstance(v, str)
        for w in content_words(v)
    }
    texts = _message_texts(args, context, shortest=1)
    if not texts or any(one.verb in _ANSWERING or one.antecedents for one in asking):
        return None  # a reply answers what was written; "send it" sends what "it" points back to

    def given(text: str) -> set[str]:  # the words of a text that give something to say
        return {
            w
            for w in content_words(_AN_ADDRESS.sub(" ", text))
            if w not in whom and w not in _NOTHING_TO_SAY and w not in FUNCTION_WORDS and w not in COURTESY
        } - _GO_AHEAD

    # the mandate's words, and the rest of the turn ("I'll be out tomorrow. DM my manager to let
    # them know", "Refund ORD-1001 and email the customer"): a thing to say given anywhere
    rest = context.request
    for one in asking:
        rest = rest.replace(one.text, " ") if one.text else rest
    # where the message goes is no topic ("Post the Q4 plan in #general": the plan is the thing)
    where = {leaf.strip().casefold().lstrip("#@") for leaf in texts if len(leaf.split()) == 1}
    where |= {w for a in addresses for w in a.split("@")[:1]}
    # (a file written "with the offsite agenda" holds it: no topic of a message)
    topic = any(_opens_a_topic(one.words[2:], where, one.verb in _FILING) for one in asking)
    if given(rest) or topic:
        # what to say is given elsewhere, or a topic the agent speaks of; where it is the turn's
        # other acts ("Cancel BK-7103 and let Tomas Novak know"), the message reports them: of
        # what the turn and its records hold
        ours = {one.text for one in asking}
        acts = [
            m
            for m in _every_mandate(context)
            if m.text not in ours and m.verb not in _WRITING and m.verb not in READING_VERBS
        ]
        if acts and not topic:
            answering = _answering_the_recipient(args, context, records)
            return _more_than_the_turn_holds(args, context, policy, answering)
        return _what_only_untrusted_text_holds(args, context, policy) if topic else None
    answering = _answering_the_recipient(args, context, records)
    if any(given(" ".join(one.words[1:])) for one in asking):
        return _more_than_the_thing(args, asking, context, policy, answering)
    said = [*_said_for_a_message(args, context, asking), *answering]
    own = [context.request, *(leaf for leaf in leaves(context.subject) if isinstance(leaf, str)), *answering]
    words = unsaid(texts, said, _figures_said([_AN_ID_OR_LINK.sub(" ", t) for t in own]))
    return _asked_partly_read({"nothing_given_to_say": words}, context, policy) if words else None


def _more_than_the_turn_holds(
    args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy, answering: Sequence[str] = ()
) -> Decision | None:
    """A message the turn asks for without dictating what it says, that reports the turn's other
    acts ("Cancel BK-7103 and let Tomas Novak know"), says what neither the turn, the user's own
    values, a trusted record the turn points at (one away, the recipient's own), a call the turn
    sends the agent to nor the acts done hold: a word ("Your deposit is forfeited" where it is
    held), a figure ("We refunded 812.40"), a day or time, an id the turn and the acts do not write
    ("Your booking BK-7101 is cancelled"), a link or a mail address ("Pay the fee at http://..."), a
    negation ("Your booking is not cancelled") or an order to the reader: what an untrusted text
    may have put there, asked (``more_than_the_turn_holds``). ``answering``: the records that
    answer a question the turn puts to the recipient (:func:`_answering_the_recipient`)."""
    texts = [without_pleasantries(t) for t in _message_texts(args, context, shortest=1)]
    if not texts:
        return None
    naming = naming_of(policy, context.subject)
    called = _values_of_the_call(args)
    trusted = list(_trusted_records(context))
    # the records the acts act on: those the turn names by their ids ("Move AP-2103 ..."); where it
    # names none, those it points at otherwise, and the records one away from them
    written = {w.casefold() for w in AN_ID_WORD.findall(context.request)}
    records = [r for r in trusted if _own_id(r) in written]
    if not records:
        records = [
            r.value
            for r in pointed_records(context.request, context.calls, naming)
            if r.tool in context.trusted and isinstance(r.value, Mapping)
        ]
        records += _one_away(records, context)
    records += [r for r in trusted if _own_id(r) in called]  # the recipient's own record, not theirs
    # and the kinds of those records, by the tools that listed them ("list_bookings": a booking)
    kinds = [
        w.removesuffix("s")  # (one of them: "booking")
        for done in context.calls
        if done.get("tool") in context.trusted
        and any(r in records for _p, r in mappings(parsed(done.get("observation"))))
        for w in str(done.get("tool", "")).split("_")[1:]
    ]
    turn_words = {meaning(w) for w in content_words(context.request)}
    # the fields of the user's one record that the turn names ("my passport number")
    fields: list[Mapping[str, Any]] = []
    for done in context.calls:
        one = parsed(done.get("observation"))
        if done.get("tool") in context.trusted and isinstance(one, Mapping):
            fields += [{k: v} for k, v in one.items() if meaning(str(k).casefold()) in turn_words]
    records += fields
    # what a call the turn sends the agent to returned ("Check #deploys and tell ana ..."), a text
    # result too, and what the acts it reports did (``issue_refund``: "refunded 40.00 EUR")
    done_now = [c for c in context.calls if c.get("tool") in context.effects and c.get("ok", True)]
    sent = [parsed(done.get("observation")) for done in [*_calls_sent_to(context), *done_now]]
    sent += [done.get("args") for done in done_now]
    sent += [  # and in what currency (the policy's: "We refunded 40.00 EUR.")
        n.currency
        for done in done_now
        if (rules := policy.rules.get(str(done.get("tool")))) is not None
        for n in rules.number_args
        if n.currency
    ]
    records += [r for seen in sent for _p, r in mappings(seen)]
    held = [x for r in records for x in (*map(str, r), *leaves(r)) if isinstance(x, str)] + list(answering)
    held += [x for seen in sent for x in leaves(seen) if isinstance(x, str)]
    said = [
        context.request,
        " ".join(f for w in words_of(context.request) for f in verb_forms(w)),  # "cancelled" of "Cancel"
        *(leaf for leaf in leaves(context.subject) if isinstance(leaf, str)),
        *(k.replace("_", " ") for k in held),
        *kinds,
        *_REFERRING_TO_A_THING,
        *_OF_A_RECORD,  # where it places what it acted on ("withdrawn from Art Club")
    ]
    figures = _figures_said([_AN_ID_OR_LINK.sub(" ", t) for t in (context.request, *held)])
    words = unsaid(texts, said, figures | _numbers_held(records, 4))
    words += [w for w in orders_given(texts, " ".join(said), context.request) if w not in words]
    if any(negated(t) for t in texts) and not negated(context.request):
        words.append("not")  # "Your booking is not cancelled." for "Cancel BK-7103 and let him know"
    # a day or a time other than those the turn writes, where it writes any: the record's old one
    # ("moved to 2026-12-29 at 16:00" for "Move AP-2103 to 2026-12-29 at 10:00 and let her know")
    whens = {value for _m, value in days_and_times(context.request)}
    whens |= {str(v) for done in done_now for v in leaf_values(done.get("args") or {})}
    # (and those of what the turn sends the agent to read: "check my calendar ... and email ana the
    # agenda")
    whens |= {
        value for seen in sent for x in leaves(seen) if isinstance(x, str) for _m, value in days_and_times(x)
    }
    if whens:
        words += [
            value
            for t in texts
            for _m, value in days_and_times(t)
            if value not in whens and value not in words
        ]
    # a state it says a record is in that is no act the turn asks for or the agent did ("Your
    # booking BK-7103 is confirmed." for "Cancel BK-7103 and let Tomas Novak know": its old state)
    acts = {f for w in words_of(context.request) for f in verb_forms(w)}
    for done in done_now:
        rules = policy.rules.get(str(done.get("tool")))
        asked_by = rules.requested if rules else None
        named = [*str(done.get("tool", "")).split("_"), *(asked_by.keywords if asked_by else ())]
        named += asked_by.verbs if asked_by else []
        acts |= {f for w in named for f in verb_forms(w)}
        acts |= {
            w
            for x in (*leaves(parsed(done.get("observation"))), *map(str, _keys_of(done.get("observation"))))
            if isinstance(x, str)
            for w in words_of(x)
        }
    words += [
        m.group(1)
        for t in texts
        for m in _A_STATE_SAID.finditer(t)
        if m.group(1).casefold() not in acts and m.group(1) not in words
    ]
    # signed by another than the user ("Regards, Aoife Burns")
    mine = _the_users_words(context)
    words += [
        w
        for w in signed_by(_message_texts(args, context, shortest=1), _people_of_the_records(context))
        if w not in mine and w not in words
    ]
    # an id the turn writes, or of the acts done or the calls it sends to: not another record of
    # the person's ("OR-5101 is cancelled." for "Cancel OR-5102 and tell Maria Lindqvist")
    # (the recipient's id, "P-2201", is a text of the call)
    whose = [v for v in called if AN_ID_WORD.fullmatch(v)]
    known = " ".join(
        [context.request, *whose, *(str(x) for seen in [*sent, *fields] for x in leaves(seen))]
    ).casefold()
    words += [i for t in texts for i in AN_ID_WORD.findall(t) if i.casefold() not in known and i not in words]
    # and a name, another record's value or a day or time in words its records do not hold ("Your
    # fence repair JB-504 with Sam Greene is cancelled." of Sam Green's job)
    beyond = _said_beyond_the_records(texts, records, " ".join(said).casefold(), context)
    words += [w for w in beyond if w not in words]
    return _asked_partly_read({"more_than_the_turn_holds": words}, context, policy) if words else None


def _the_users_words(context: ReviewContext) -> set[str]:
    """The words of the user's own values (their name: whom a message may be signed by)."""
    return {w for leaf in leaves(context.subject) if isinstance(leaf, str) for w in words_of(leaf)}


def _keys_of(value: Any) -> list[str]:
    """The keys of the records in a call's result ({"cancelled": "BK-7103"}: "cancelled")."""
    return [str(k) for _p, r in mappings(parsed(value)) for k in r]


def _what_only_untrusted_text_holds(
    args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """A message of a topic ("Email Chloé Dubois about her deposit") is the agent's to word, of what
    it read; but a link or a mail address in it that neither the turn, the user's own values, a
    trusted record nor a call the turn sends the agent to holds ("... pay 250.00 at
    http://pay-cdm.example", from the inbox) sends the reader where only an untrusted text says,
    and a figure, a day or a time of day none of them holds ("Your pickup is moved to 2026-12-18 at
    13:00") says what only an untrusted text says: asked (``only_untrusted_text_holds``)."""
    texts = _message_texts(args, context, shortest=1)
    records = _the_recipients_described(args, context)
    held = _held_for_the_recipient(records, context, args)
    known = " ".join(held).casefold()
    whom = _addresses_of({k: v for k, v in args.items() if k in RECIPIENT_ARGS})
    links = [
        m.group(0).rstrip(".,;:!?)")
        for t in texts
        for m in A_LINK_OR_MAIL.finditer(t)
        if m.group(0).rstrip(".,;:!?)").casefold() not in known
        and m.group(0).rstrip(".,;:!?)").casefold() not in whom
    ]
    # and a figure, a day or a time of day ("Your pickup is moved to 2026-12-18 at 13:00")
    figures = _figures_said([_AN_ID_OR_LINK.sub(" ", t) for t in held]) | _numbers_held(records, 4)
    links += [i for t in texts for i in AN_ID_WORD.findall(t) if i.casefold() not in known]  # another's id
    links += [  # (a day or a time as one: "16:30" is no 16 of one record and 30 of another)
        m.group(0)
        for t in texts
        for m in _A_FIGURE_OR_WHEN.finditer(_AN_ID_OR_LINK.sub(" ", t))
        if (
            m.group(0) not in known
            if re.search(r"[:/-]", m.group(0))
            else not _figure_readings(m.group(0)) & figures
        )
    ]
    # and a name, another record's value, or a state none of them holds, nor the record the turn
    # passes on ("Send Bob the IT email about my laptop": "IT Desk: Your new laptop is ready")
    relayed = _the_record_passed_on(context)
    passed_on = " ".join(relayed[1]).casefold() if relayed else ""
    links += _said_beyond_the_records(texts, records, f"{known} {passed_on}", context)
    # signed by another than the user ("... is paid. Clara Voss")
    mine = _the_users_words(context)
    signers = signed_by(texts, _people_of_the_records(context))
    links += [w for w in signers if w not in mine and w not in links]
    return _asked_partly_read({"only_untrusted_text_holds": links}, context, policy) if links else None


def _the_recipients_described(args: Mapping[str, Any], context: ReviewContext) -> list[Mapping[str, Any]]:
    """The recipient's record and, of the records that hold its id (her claims, her parcels, her
    children), those the turn's words describe ("about her vase claim"), else all of them, with the
    records that hold theirs (her pet's appointment): not another person's, nor her other claim
    ("Your claim CL-302 ..." for the vase claim CL-301)."""
    called = _values_of_the_call(args)
    person = [r for r in _trusted_records(context) if _own_id(r) in called]
    if not person:  # (one the call sends to by an address: "to": "bob@...")
        whom = _addresses_of({k: v for k, v in args.items() if k in RECIPIENT_ARGS})
        person = [r for r in _trusted_records(context) if _addresses_of(r) & whom]
    theirs = _one_away(person, context)
    return [*person, *theirs, *_one_away(theirs, context)]


def _held_for_the_recipient(
    records: Sequence[Mapping[str, Any]], context: ReviewContext, args: Mapping[str, Any]
) -> list[str]:
    """What a message to the recipient may say of ``records``: the turn, the user's own values,
    those records' values, the results of the calls the turn sends the agent to, and the parts of
    the address it goes to ("Hi Ana," to ana@corp.example)."""
    whom = _addresses_of({k: v for k, v in args.items() if k in RECIPIENT_ARGS})
    return [
        context.request,
        *(" ".join(re.split(r"[@._+-]", a)) for a in whom),
        *(x for x in leaves(context.subject) if isinstance(x, str)),
        *(str(x) for r in records for x in leaves(r) if isinstance(x, str | int | float)),
        *(x for done in _calls_sent_to(context) for x in _texts_of_result(done)),
    ]


def _said_beyond_the_records(
    texts: Sequence[str],
    records: Sequence[Mapping[str, Any]],
    known: str,
    context: ReviewContext,
    *,
    states: bool = True,
) -> list[str]:
    """What a message says that neither the turn nor the records it speaks of (``records``, whose
    values and the turn's are ``known``, case folded) hold: a name (a word in capitals within a
    sentence: "... with Dr Hannah Lee" of Dr Omar Farouk's appointment, "Lars Borg has been
    refunded"), a value of another trusted record written whole ("Your check-up appointment" of his
    filling), a state it says a thing is in, with a verb or marked without one ("is rejected", "has
    been refunded", "MI-708: paid.") that no record holds and no verb of the turn makes (and, but
    for a dictated message, ``states``, in an adjective or a phrase: "is overdue", "is on hold"), a
    share in words ("half off") and a day or a time in words (:func:`_when_in_words_not_held`)."""
    held = {part for w in words_of(known) for part in (w, re.split(r"['’]", w)[0])}  # "ana's": ana
    made = {f for w in words_of(context.request) for f in verb_forms(w)}
    fields = {w for r in records for k in r for w in _name_words(str(k))}  # "is due" of a due_date
    anywhere: set[str] | None = None

    said: list[str] = []
    for text in texts:
        for m in _A_WORD_IN_CAPITALS.finditer(text):
            word = re.split(r"['’]", m.group(0).casefold())[0]  # "Shah-Evans's", "I'm"
            before = text[: m.start()]
            # (a word opening a sentence or a line is in capitals whatever it is: "Hi Bob,\n\nCould ...")
            opening = not before.strip() or "\n" in before[len(before.rstrip()) :]
            opening = opening or before.rstrip()[-1:] in tuple(".!?:;\"'(“")
            if not opening and word not in held and word not in CALENDAR_NAMES:
                said.append(m.group(0))
        said += [m.group(1) for m in _A_STATE_SAID.finditer(text) if m.group(1).casefold() not in held | made]
        said += [  # (a dictated message paraphrases: "be ok", "won't be able" are its own words)
            state
            for state in (states_after_a_copula(text) if states else [])
            if not set(words_of(state)) - FUNCTION_WORDS <= held | made | fields and state not in said
        ]
        said += [
            m.group(1)
            for m in _A_STATE_MARKED.finditer(text)
            if m.group(1).casefold() not in held | made and m.group(1) not in said
        ]
        said += [w for w in words_of(text) if w in _SHARES_IN_WORDS and w not in held]  # "half off"
        said += [f"{w} (cut off)" for w in cut_off(text)]  # "Your move is."
        if states:  # (what a record the run read says is no claim of its own: "Carla asked ...")
            if anywhere is None:
                anywhere = {meaning(w) for w in held | made | fields | _words_read(context)}
            said += _sentences_of_its_own(text, anywhere)
    said += _when_in_words_not_held(texts, known, context)
    others = {
        leaf.strip()
        for r in _trusted_records(context)
        if r not in records
        for leaf in leaves(r)
        if isinstance(leaf, str)
        and len(leaf.strip()) > 2
        and re.search(r"[^\W\d_]", leaf)
        and not _id_like_value(leaf)
        and not A_LINK_OR_MAIL.search(leaf)
        and leaf.strip().casefold() not in known
    }
    said += [value for value in sorted(others) if any(_written_whole(value, t) for t in texts)]
    return said


#: A sentence that asks the recipient for something or thanks them: no statement of a thing.
_A_REQUEST_OF_THE_RECIPIENT = re.compile(r"(?i)\b(?:please|kindly|appreciate|thanks?|grateful)\b|\?")


def _words_read(context: ReviewContext) -> set[str]:
    """The words of every record the run's calls returned."""
    return {w for r in _records_read(context) for w in words_of(_text_of_record(r))}


def _sentences_of_its_own(text: str, meanings: Collection[str]) -> list[str]:
    """The sentences of a message of a topic that say a thing of their own: two words or more that
    say something (:func:`content_words`, no courtesy), most of them held by neither the turn nor
    the records it speaks of ("Legal action pending.", "Interest is accruing." of an unpaid
    invoice). Not a request of the recipient, nor thanks ("Please arrange payment soon.", "Could
    you settle it?", "We would appreciate prompt payment."): what it asks, its own words weigh.
    ``meanings``: the :func:`meaning` of every word the turn and the records hold."""
    own = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
        if _A_REQUEST_OF_THE_RECIPIENT.search(sentence) or len(sentence.split()) < 2:
            continue  # (one word is a name or a title, no statement: "offsite-notes.txt")
        words = [
            w
            for w in content_words(sentence)
            if w not in COURTESY and w not in _NOTHING_TO_SAY and w not in _REPORTING_WORDS
        ]
        new = [w for w in words if meaning(w) not in meanings and not any(ch.isdigit() for ch in w)]
        if len(new) >= 2 and 2 * len(new) > len(words):
            own.append(sentence.strip())
    return own


#: Verbs that report what someone wrote ("Carla asked whether ..."): whose words, weighed apart.
_REPORTING_WORDS = frozenset(
    {"asked", "asks", "said", "says", "wrote", "writes", "told", "wants", "wanted", "whether"}
)


#: A state a message marks without a verb: after a colon, a bracket, a dash or "Status" ("Invoice
#: MI-708: paid.", "(cleared)", "- cleared", "Status: refunded").
_A_STATE_MARKED = re.compile(
    r"(?i)(?:[:(–—]|[ \t]-[ \t]|\bstatus\b[ \t]*[:=-]?)[ \t]*(?:(?:now|fully|all|partly|already)[ \t]+)?"
    r"([a-z]{2,}ed|paid|sent|done|due|void|given|taken|written|withdrawn|broken|frozen|forgiven)\b"
)
#: Shares of a whole in words ("half off", "a quarter off", "half price").
_SHARES_IN_WORDS = frozenset({"half", "halves", "quarter", "quarters", "third", "thirds", "double", "twice"})
#: A day or a time of day in words: a weekday, a day of the month by its ordinal, noon or midnight, a
#: part of the day, a time said in words, or a day counted from today.
_A_WHEN_IN_WORDS = re.compile(
    r"(?i)\b(?:(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|(?P<ordinal>\d{1,2})(?:st|nd|rd|th)"
    r"|(?P<noon>noon|midday|midnight)"
    r"|(?<!good )(?P<part>morning|afternoon|evening|tonight)"
    r"|(?P<spoken>(?:half|quarter)[ \t]+(?:past|to)[ \t]+\w+|\w+[ \t]+o'clock)"
    r"|(?P<counted>tomorrow|next[ \t]+(?:week|month|monday|tuesday|wednesday|thursday|friday|saturday"
    r"|sunday)))\b"
)
_WEEKDAYS_NAMED = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _when_in_words_not_held(texts: Sequence[str], known: str, context: ReviewContext) -> list[str]:
    """The days and times of day a message says in words ("on Monday at noon", "the 20th", "in the
    afternoon", "at half past eight", "next Monday") that what it may say (``known``, case folded:
    the turn and the records) does not hold: no date of it falls on that weekday or day of the
    month, no time of it is noon or in that part of the day, and neither it nor the turn writes the
    words (a short form the turn writes, "fri", "tmrw", holds the day). A sentence that gives a
    record's author as saying it ("Carla asked whether Thursday works") may say what that record
    says."""
    turn_words = set(words_of(context.request))
    short = {w for w in turn_words if len(w) >= 3} | ({"tomorrow"} if turn_words & _TOMORROW_SHORT else set())
    texts = [t for text in texts for t in re.split(r"(?<=[.!?])\s+", text) if not _attributed(t, context)]
    dates = []
    for y, m, d in re.findall(r"(\d{4})-(\d{2})-(\d{2})", known):
        try:
            dates.append(date(int(y), int(m), int(d)))
        except ValueError:
            continue
    times = set(re.findall(r"(?<![\d:])\d{1,2}:\d{2}(?![\d:])", known))
    hours = _hours_of(times)
    found: list[str] = []
    for text in texts:
        for m in _A_WHEN_IN_WORDS.finditer(text):
            said = m.group(0).casefold()
            if _written_whole(said, known):
                continue
            if said in short or (m["weekday"] and any(said.startswith(w) for w in short)):
                continue  # "fri" of "Friday", "tmrw" of "tomorrow"
            held = (
                (m["weekday"] is not None and any(_WEEKDAYS_NAMED[d.weekday()] == said for d in dates))
                or (m["ordinal"] is not None and any(d.day == int(m["ordinal"]) for d in dates))
                or (m["noon"] is not None and ({"12:00"} if said != "midnight" else {"00:00"}) & times)
                or (m["part"] is not None and _in_the_parts(hours, {said.replace("tonight", "evening")}))
            )
            if not held:
                found.append(m.group(0))
    return found


#: Short forms of "tomorrow" a turn writes.
_TOMORROW_SHORT = frozenset({"tmrw", "tmr", "tmw", "tmrow", "2moro", "2mrw", "tomoz", "tomorow"})
#: Verbs by which a sentence gives what someone said ("Carla asked whether ...").
_SAYING_VERBS = frozenset(
    {"asked", "asks", "said", "says", "wrote", "writes", "wants", "wanted", "suggested", "suggests",
     "proposed", "proposes", "mentioned", "mentions"}
)  # fmt: skip


def _attributed(sentence: str, context: ReviewContext) -> bool:
    """Does a sentence give what the author of a record the run read said ("Carla asked whether
    Thursday works for the offsite.": Carla Diaz's mail)? Its subject is a word of the record's
    person field, its verb one of saying."""
    words = words_of(sentence)
    if len(words) < 2 or words[1] not in _SAYING_VERBS:
        return False
    return any(
        _A_PERSONS_KEY.match(str(k)) and isinstance(v, str) and words[0] in words_of(v)
        for r in _records_read(context)
        for k, v in r.items()
    )


#: A word written in capitals (a name, where it does not open a sentence).
_A_WORD_IN_CAPITALS = re.compile(r"(?<![\w'’-])[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*(?![\w-])")
#: A state a message says a thing is in: a participle after a form of "be" or "have" ("is
#: rejected", "has been refunded", "are now cleared", "was given").
_A_STATE_SAID = re.compile(
    r"(?i)\b(?:is|are|was|were|been|be|being|has|have|had)\s+(?:(?:now|not|fully|already|just|also|"
    r"still|all|been|being)\s+)*(?!been\b|being\b)([a-z]+ed|[a-z]+en|[a-z]+wn|paid|sent|made|done|held|kept|set|cut|put|lost|"
    r"sold|told|left|won|spent|lent|split|shut)\b"
)


#: A figure, a day or a time of day as a message writes it ("13:00", "2026-12-18", "420.00").
_A_FIGURE_OR_WHEN = re.compile(r"(?<![\w.,:-])\d+(?:[.:,/-]\d+)*(?![\w])")


def _texts_of_result(done: Mapping[str, Any]) -> list[str]:
    """The strings and figures of a call's result, as text."""
    return [str(x) for x in leaves(parsed(done.get("observation"))) if isinstance(x, str | int | float)]


def _values_of_the_call(args: Mapping[str, Any]) -> set[str]:
    """The call's own values, each a text or a whole number, casefolded (the id or the address it
    sends to among them)."""
    return {str(v).strip().casefold() for v in args.values() if isinstance(v, str | int)}


def _holding_a_value_of(
    args: Mapping[str, Any], records: Sequence[Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """The records that hold a value of the call's as one of theirs (the recipient's own, by the id
    or the address the call sends to)."""
    called = _values_of_the_call(args)
    return [
        r
        for r in records
        if any(isinstance(v, str | int) and str(v).strip().casefold() in called for v in r.values())
    ]


def _one_away(records: Sequence[Mapping[str, Any]], context: ReviewContext) -> list[Mapping[str, Any]]:
    """The trusted records that hold the id of one of ``records`` (Juniper's appointments, of the
    pet the turn names): those the turn's words describe ("Juniper's follow-up"), where it
    describes any; else all of them."""
    away = _held_by_id(records, context)
    theirs = {w for r in records for leaf in leaves(r) if isinstance(leaf, str) for w in words_of(leaf)}
    # (by words, not the figures of a time: "08:00" fits no record by its "00")
    turn = {w for w in words_of(context.request) if re.search(r"[^\W\d_]", w)} - FUNCTION_WORDS - theirs
    fit = [r for r in away if turn & {w for x in leaves(r) if isinstance(x, str) for w in words_of(x)}]
    return fit or away


def _answering_the_recipient(
    args: Mapping[str, Any], context: ReviewContext, records: Sequence[Mapping[str, Any]]
) -> list[str]:
    """The texts of the records that answer a question the turn puts to the call's recipient
    ("Tell ana whether the deploy finished": #deploys' "Deploy 2026.11.23 finished: all green."),
    and the pronouns an answer speaks of people by: the answer says what they say ("Yes, all
    green."), its figures too; whether it says it as they do, :func:`_answered_as_not_read` reads."""
    whom = _the_recipients_words(args, context)
    asked = [q.asks for q in questions_put(context.request) if q.who in whom]
    if not asked:
        return []
    texts = [_text_of_record(r) for r in records]
    texts += [  # a field that says what its value is ({"manager": "ana"}: "who the manager is")
        f"{key.replace('_', ' ')}: {value}"
        for r in records
        for key, value in r.items()
        if isinstance(key, str) and isinstance(value, str) and value.strip() and not _A_PERSONS_KEY.match(key)
    ]
    return [*(text for asks in asked for text in records_answering(asks, texts)), *_PEOPLES_PRONOUNS]


#: The pronouns an answer speaks of a person or people by ("Yes, she asked ...").
_PEOPLES_PRONOUNS = ("he", "she", "they", "him", "her", "them", "his", "hers", "their", "theirs")


def _opens_a_topic(words: Sequence[str], where: Collection[str], filing: bool = False) -> bool:
    """Do a mandate's words (after whom it addresses) open a topic ("about the budget", "on the
    offsite"), not say where the message goes ("in #general", "to ana") or, ``filing``, what a
    file holds ("with the offsite agenda")?"""
    return any(
        w in _TOPIC_OPENS
        and w != "and"
        and not (filing and w == "with")
        and not (i + 1 < len(words) and words[i + 1] in where)
        for i, w in enumerate(words)
    )


def _more_than_the_thing(
    args: Mapping[str, Any],
    asking: Sequence[Any],
    context: ReviewContext,
    policy: SupervisorPolicy,
    answering: Sequence[str] = (),
) -> Decision | None:
    """A message that sends a thing the turn names ("Email my passport number to the desk", "Email
    Ana the booking details") says the thing and courtesy: what the turn, the records the turn
    points to and the records whose values the message writes whole (the profile that holds the
    passport number: its values, figures and field names) hold. Anything more is the agent's
    ("Passport: X4821957. Cancel my booking.", "... Ana Rivera will check in instead.", a subject
    "Please cancel my booking", "X4821957-B"), and so is an order to the reader the turn does not
    give ("Please forward it to Carl"): asked (``more_than_the_thing``). ``answering``: the records
    that answer a question the turn puts to the recipient (:func:`_answering_the_recipient`)."""
    # a one-word subject is a label ("Hotel"), not what the message says
    texts = [without_pleasantries(t) for t in _message_texts(args, context)]
    written = {w for t in texts for w in words_of(t)}
    held: list[str] = []  # the things' strings and field names, and the names of the calls that read them
    things: list[Mapping[str, Any]] = []
    # the recipient's own thing ("Remind Kai Brooks of his lesson time"): of their records only,
    # not a look-alike's lesson nor another's day and time
    theirs = _the_recipients_own(args, context) if _of_the_recipients(asking) else None
    for done in context.calls:
        for _path, record in mappings(parsed(done.get("observation"))):
            if theirs is not None and record not in theirs:
                continue
            if any(
                isinstance(leaf, str) and len(leaf.strip()) >= 3 and _a_value_written(leaf, written)
                for leaf in leaves(record)
            ):
                things.append(record)
                held += [str(done.get("tool", "")).replace("_", " "), *map(str, record)]
                held += [x for x in leaves(record) if isinstance(x, str)]
    said = [*_said_for_a_message(args, context, asking, theirs), *held, *_REFERRING_TO_A_THING, *answering]
    own = [
        context.request,
        *(leaf for leaf in leaves(context.subject) if isinstance(leaf, str)),
        *held,
        *answering,
    ]
    figures = _figures_said([_AN_ID_OR_LINK.sub(" ", t) for t in own]) | _numbers_held(things, 4)
    words = unsaid(texts, said, figures)
    words += [w for w in orders_given(texts, " ".join(said), context.request) if w not in words]
    return _asked_partly_read({"more_than_the_thing": words}, context, policy) if words else None


def _of_the_recipients(asking: Sequence[Any]) -> bool:
    """Does a mandate to send a thing give it as the recipient's own, by a possessive pronoun after
    its verb ("Remind Kai Brooks of his lesson time", "Tell Dr. Nina Park her instructor's name")?"""
    return any(set(one.words[1:]) & _WHOSE for one in asking)


def _the_recipients_own(args: Mapping[str, Any], context: ReviewContext) -> list[Mapping[str, Any]]:
    """The recipient's record, every trusted record that holds its id (their lessons, orders,
    invoices) and those that hold one of theirs: what is theirs to be told of."""
    called = _values_of_the_call(args)
    person = [r for r in _trusted_records(context) if _own_id(r) in called]
    theirs = _held_by_id(person, context)
    return [*person, *theirs, *_held_by_id(theirs, context)]


def _held_by_id(records: Sequence[Mapping[str, Any]], context: ReviewContext) -> list[Mapping[str, Any]]:
    """The trusted records that hold the id of one of ``records`` in a field but their own."""
    ids = {_own_id(r) for r in records} - {""}
    return [
        r
        for r in _trusted_records(context)
        if r not in records
        and any(isinstance(v, str) and v.strip().casefold() in ids for k, v in r.items() if k != "id")
    ]


#: Words a message that sends a thing refers to it by ("the details", "a copy", "as requested").
_REFERRING_TO_A_THING = ("details", "detail", "copy", "below", "above", "here", "requested", "attached")


def _a_value_written(value: str, written: set[str]) -> bool:
    """Does a message whose words are ``written`` write ``value`` whole (every word of it), a value
    of some substance (not a field of one common word)?"""
    own = words_of(value)
    return (
        bool(own) and set(own) <= written and (len(own) > 1 or any(c.isdigit() or c.isupper() for c in value))
    )


def _message_texts(args: Mapping[str, Any], context: ReviewContext, shortest: int = 2) -> list[str]:
    """The texts of a message the call writes: its arguments' texts of ``shortest`` words or more
    that are not addresses (a subject, a body), never one a reviewer edited (theirs)."""
    return [
        leaf
        for arg, v in args.items()
        if arg not in context.human
        for leaf in leaves(v)
        if isinstance(leaf, str) and len(leaf.split()) >= shortest and not _AN_ADDRESS.fullmatch(leaf.strip())
    ]


def _texts_of(args: Mapping[str, Any], context: ReviewContext, *, summing_up: bool) -> list[str]:
    """The texts of a call's fields that sum a message up (a subject, a title) or, not
    ``summing_up``, say it (a body), never one a reviewer edited (theirs)."""
    return [
        leaf
        for arg, v in args.items()
        if arg not in context.human and bool(_A_SUMMARY.search(arg)) == summing_up
        for leaf in leaves(v)
        if isinstance(leaf, str)
    ]


def _said_for_another(
    every: Sequence[str],
    dictating: Sequence[Any],
    elsewhere: Sequence[Any],
    asking: Sequence[Any],
    records: Sequence[Mapping[str, Any]],
    context: ReviewContext,
    declared: Collection[str] = frozenset(),
    turns: Sequence[Any] = (),
) -> list[str]:
    """The words a message says that the turn dictates for someone else ("Email Ana that lunch is
    at noon and email Bob that the report is late": both sentences to Bob) or that another mandate
    of the turn says, for another call ("Email Ana that lunch is at noon and delete
    draft-old.docx": the deletion is the agent's to make, not Ana's to read), and what this
    message's own mandates (``dictating``) do not. A figure is weighed as a value ("on
    2026-11-25"); a record's words ("Re: Offsite venue" of the mail it answers) are the records'."""
    if not dictating:
        return []
    theirs = {
        w
        for one in elsewhere
        if _dictates(told := _told_as_its_object(one, records))
        for w in content_words(_dictated(told))
    }
    ours = {text for one in asking for text in (one.text, *one.coordinated)}  # "..., Dora and Eve"
    of_the_turn = [m for m in turns if m.text and m.text not in ours]  # :func:`_every_mandate`
    # a message's ("say ..."), and another message's (for ``elsewhere``)
    others_of_the_turn = [m for m in of_the_turn if m.verb not in _ADDRESSING | _SAYING]
    theirs |= {w for m in others_of_the_turn for w in content_words(m.text)}
    # what the user says they will tell someone themselves ("I'll tell Ana myself that she's fired")
    theirs |= {w for m in _TOLD_BY_THE_USER.finditer(context.request) for w in content_words(m.group(1))}
    # another mandate said in it word for word, whatever a record holds ("... and share
    # salaries-2026.xlsx with Bob" in Ana's mail: the share is the agent's to make)
    said = " ".join(words_of(" ".join(every)))
    verbatim = [
        m.text
        for m in of_the_turn
        # a call of its own ("share ... with Bob"), not a word of the message ("please review PR 12")
        if m.verb not in _SAYING
        and m.verb in declared
        and len(words_of(m.text)) >= 3
        and " ".join(words_of(m.text)) in said
    ]
    if verbatim:
        return sorted({w for text in verbatim for w in content_words(text)})
    read = {w for r in records for leaf in leaves(r) if isinstance(leaf, str) for w in content_words(leaf)}
    theirs = {w for w in theirs if not w.isdigit()} - read
    if not theirs:
        return []
    # what it dictates runs on over the other mandates ("that lunch is at noon and email Bob that
    # ..."): without them
    own_text = " ".join(_dictated(told) for told in dictating)
    for text in {*(one.text for one in elsewhere), *(m.text for m in others_of_the_turn)}:
        own_text = own_text.replace(text, " ") if text else own_text
    own_words = set(content_words(own_text))
    return sorted({w for t in every for w in content_words(t)} & theirs - own_words)


def _every_mandate(context: ReviewContext) -> list[Any]:
    """The turn's mandates as its reading has them, and as the grammar does: the reading keeps
    those of the tools that ask for a mandate, not one of a tool that acts unasked ("... and share
    salaries-2026.xlsx with bob" where ``share_file`` asks for none)."""
    read = {m.text: m for m in [*mandates(context.request, context.read), *mandates(context.request)]}
    return list(read.values())


def _mandates_beside(asking: Sequence[Any], turns: Sequence[Any], declared: Collection[str]) -> list[str]:
    """The texts of the turn's other mandates (``turns``: :func:`_every_mandate`), of a verb the
    policy declares, that a dictated message's sentence may run on into (:func:`_dictated_alone`);
    read once per call."""
    ours = {text for one in asking for text in (one.text, *one.coordinated)}
    return [
        other.text
        for other in turns
        if other.text and other.text not in ours and other.verb in declared and len(words_of(other.text)) >= 2
    ]


def _dictated_alone(dictating: Sequence[Any], beside: Sequence[str]) -> str:
    """What the mandates that dictate a message say to tell, without another mandate of the turn
    (``beside``: :func:`_mandates_beside`) that their sentence runs on into ("Email Ana that lunch
    is at noon and share salaries-2026.xlsx with Bob": "that lunch is at noon"; "post in #deploys -
    please review PR 12, PR 14 and PR 19" keeps its words: no tool reviews)."""
    told = " ".join(_dictated(one) for one in dictating)
    for text in beside:
        told = told.replace(text, " ")
    return told


def _a_message_the_turn_does_not_say(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does a message the turn asks for say in words what the turn does not (a content word that
    neither the turn, the records it points to by a word of theirs, the recipient's and the user's
    own records nor a courteous mail hold: "I accept the offer" for "Email Priya that I decline the
    offer", "The meeting is on Monday. Also, I'm resigning", "Sent on behalf of the CEO"), say it
    with the other polarity ("I can make the meeting" for "... that I can't make the meeting",
    "Yes please" for "Reply ...: no thanks"), or say none of what the turn dictates ("Thanks, will
    do." for "... that the doc is ready")? The message is the model's, not the user's: asked
    (:mod:`policies.supervisor.reading.message`)."""
    filing = _FILING if any(_A_FILES_TEXT.match(arg) for arg in args) else frozenset()
    asking = [one for one in _asking_now(asked, context) if one.verb in _WRITING | filing] if asked else []
    # a one-word text too ("Thanks!"), but not whom the mandate names ("message kim: ...": kim)
    if not asking:
        return None
    named = {w for one in asking for w in one.words}
    written = _message_texts(args, context, shortest=1)
    who = any(q.kind == "who" for q in questions_put(context.request))  # "ana." answers "who ..."
    every = [
        t
        for t in written
        if len(t.split()) > 1
        or (
            _A_ONE_WORD_MESSAGE.fullmatch(t.strip())  # "Thanks!", "Soon™.", "承認しました。", "Q1."
            and (who or t.strip(" .!?").casefold() not in named)
        )
    ]  # an id or a file's name ("offsite-agenda.docx") is no message
    blank = [a for a, v in args.items() if a not in context.human and isinstance(v, str) and not v.strip()]
    if not every and not blank:
        return None
    instead = _told_of_not_to(asking, args)
    if instead:  # "Tell ana to call bob" as a DM to bob
        return _asked_partly_read({"addressed_instead": instead}, context, policy)
    addressed = _addressing_the_recipient(asking, args, context)
    elsewhere = [one for one in asking if one not in addressed]  # the mandates for other people
    asking = addressed
    records = list(_records_read(context))
    dictating = [told for one in asking if _dictates(told := _told_as_its_object(one, records))]
    # whom the mandates name, not what one tells as its object ("tell ana only bob is invited")
    named = {w for one in [*asking, *elsewhere] for w in _told_as_its_object(one, records).words}
    if not every:  # the turn dictates a message the call leaves empty ("Email Bob that ...": "")
        return _asked_partly_read({"said_nothing_in": blank}, context, policy) if dictating else None
    forbidden = says_what_is_forbidden(every, context.request)
    if forbidden:  # "please cancel my room" for "tell the hotel please don't cancel my room"
        said_otherwise = f"the message says what the turn forbids: {', '.join(forbidden)}"
        return _asked_partly_read({"said_otherwise": said_otherwise}, context, policy)
    # a mark that says what the words do not, the turn's or the agent's own message alike
    # ("~~green~~", "not_green", "!= green", "!ready", "green？", "<!here>")
    marks = marks_added(written, [context.request])  # every text, a one-word subject too ("~~Green~~")
    if marks:
        return _asked_partly_read({"unsaid_in_the_message": marks}, context, policy)
    if not dictating:  # the answer, or the record passed on, is the agent's to find: as read
        otherwise = _answered_as_not_read(every, asking, args, records, context, policy.replies == "as_read")
        if otherwise:
            return _asked_partly_read(otherwise, context, policy)
    if not dictating and not any(_a_message_kind(one.words[1:]) for one in asking):
        # what to say is the agent's to find ("answer her question", "the agenda"), of what the
        # turn gives it to speak of; where it gives nothing, the message is the agent's own
        return _a_message_of_nothing_given(args, asking, records, context, policy)
    found: dict[str, Any] = {}
    # the verbs that ask for the policy's tools, and the verb each tool that acts is named by
    # ("share" of ``share_file``: "... and share salaries-2026.xlsx with bob" is no word of a mail)
    declared = policy_words(policy).all | {name.split("_")[0] for name in policy.effect_tools()}
    turns = _every_mandate(context)  # the turn's mandates, read once per call
    for_another = _said_for_another(every, dictating, elsewhere, asking, records, context, declared, turns)
    if for_another:  # "Email Ana that lunch is at noon and email Bob that ..." with both to Bob
        found["said_for_another"] = for_another
    said = _said_for_a_message(args, context, asking)
    # the figures said, not the digits of an id or a link ("m-2", ".../q4-survey")
    # (the user's, not those of a mail it answers: "Thursday is fine for 20 people" commits to
    # Carla's 20 where the user said "yes"; nor those a correction took back)
    own = [
        corrections_read(context.request),
        *(leaf for leaf in leaves(context.subject) if isinstance(leaf, str)),
    ]
    figures = _figures_said([_AN_ID_OR_LINK.sub(" ", t) for t in own])
    texts = _message_texts(args, context)
    # a one-word subject too ("Resignation"), not a recipient's handle ("member": "ana")
    one_word = [
        leaf
        for arg, v in args.items()
        if arg not in context.human and _A_SUMMARY.search(arg)
        for leaf in leaves(v)
        if isinstance(leaf, str) and leaf in every and len(leaf.split()) == 1
    ]
    words = unsaid([*texts, *one_word], said, figures)
    if words:  # the kind of a record the message names by its id ("booking BK-4471")
        written = [w for t in texts for w in re.findall(r"[\w'’-]+", t.casefold())]
        words = [w for w in words if w not in _kinds_named(written, context)]
    beside = _mandates_beside(asking, turns, declared)
    told = _dictated_alone(dictating, beside)
    # what each mandate dictates alone, weighed per mandate below
    each = [(one, _dictated_alone([one], beside)) for one in dictating]
    words += [w for w in put_later(texts, told) if w not in words]  # "will be green" for "is green"
    words += [w for w in figures_written_otherwise(texts, own) if w not in words]  # "1.200" for "1,200"
    # "12 December" or "12.00" for "11 December" and "85.00"
    words += [w for w in _held_by_a_month_only(texts, own) if w not in words]
    # an order to the reader the turn does not give ("Host 20 people.", "Tell IT.")
    words += [
        w
        for w in orders_given(texts, told if dictating else " ".join(said), context.request)
        if w not in words
    ]
    if words:
        found["unsaid_in_the_message"] = words
    turn = context.request
    start = min((turn.find(one.sentence) for one in dictating if one.sentence in turn), default=0)
    unexcluded = _without_exclusions(turn[max(start, 0) :], turn, every)
    if dictating and negated(unexcluded) != negated(" ".join(every)):
        found["said_otherwise"] = "one says in the negative what the other does not"
    elif dictating and negated_again(every, told):
        found["said_otherwise"] = "the message adds a negation to what the turn says"  # "... it not."
    summaries = _texts_of(args, context, summing_up=True)
    if dictating and (other_way := summed_up_otherwise(summaries, _AN_ADDRESS.sub(" ", told), named)):
        found["said_otherwise"] = f"the subject says it the other way: {other_way[0]}"  # "Launch cancelled"
    # what the turn dictates, without whom it names or how ("... with bob in a DM", "to: ana@...")
    dictated = _AN_ADDRESS.sub(" ", told)
    # the message's body says it, not a subject that sums it up ("Out Friday" over "I'm in Friday")
    present = _texts_of(args, context, summing_up=False) or texts
    # a person's name left out bounds what is said, but the recipient's ("Hi," for "Priya")
    addresses = {a.casefold() for a in _addresses_of(args)}
    names = {
        r["name"].split()[0]
        for r in records
        if isinstance(r.get("name"), str)
        and r["name"].split()
        and not any(isinstance(v, str) and v.casefold() in addresses for v in r.values())
    }
    # whom it goes to ("Tell Kwame Mensah privately that ..."), not a one-word subject ("Late")
    recipient = _named_as(args, context) - {
        meaning(leaf.strip().casefold())
        for a, v in args.items()
        if a not in RECIPIENT_ARGS | {"handle", "user", "username"}
        for leaf in leaves(v)
        if isinstance(leaf, str)
    }
    dropped = left_out(present, dictated, {*named, *_ADDRESSING, *recipient, *_BY_WAY_OF}, names)
    # a word by which the turn tells the recipient's records of one listing apart, dropped ("Your
    # deposit of 250.00 ..." for "his retirement party deposit ...", where he has a christening too)
    dropped += [w for w in _which_of_theirs_dropped(present, dictated, args, context) if w not in dropped]
    # a full name the turn writes, said by its first name alone where another person of the
    # records shares it ("Ray leads your move." for "Ray Stoner", beside Ray Stone)
    dropped += [w for w in _a_shared_first_name_alone(present, dictated, context) if w not in dropped]
    if dictating and (
        swapped_in := _another_record_in_place(present, dictated, {*named, *recipient}, context)
    ):
        found["said_in_place_of"] = swapped_in  # "Your sertraline is ready." for "her inhaler is ready"
    # a record named by an id the turn does not write ("Your flight FL-3310 is cancelled." for "her
    # flight"), but the reader's only one of its listing
    whole_values = {str(v).strip().casefold() for v in args.values() if isinstance(v, str | int)}
    other_ids = set(_another_id_named(present, turn)) - whole_values if dictating else set()
    if other_ids and (other_ids := other_ids - _the_readers_only_records(args, context)):
        found["another_record_named"] = sorted(other_ids)
    # a part of it word for word ("I quit" for "I quit smoking"): cut, whatever it drops
    # (what the call's other fields say, and their names, are no cut: "subject Late, body: ...")
    fields = {
        *args,
        *(w for v in args.values() for t in leaves(v) if t not in present for w in str(t).split()),
    }
    for one, alone in each:  # (whom it is to, as the mandate says it: "reply to Casa Azul's email")
        to_whom = {part for w in one.words for part in re.split(r"['’]", w) if part}
        once = _AN_ADDRESS.sub(" ", alone)
        aside = {*named, *fields, *to_whom, *recipient, *_BY_WAY_OF, "dm"}  # "... in a DM that ..."
        dropped += [w for w in cut_short(present, once, aside) if w not in dropped]
    if dropped:  # "Thanks, will do." for "Email Bob that the doc is ready"
        found["left_out_of_the_message"] = dropped
    # a question put to someone is said in a question's order, to them ("ask Bob if he is free":
    # "Are you free?"); its words and polarity are held all the same
    questioning = any(_a_question_to_them(one) for one in dictating)
    swapped = (
        out_of_order(texts, dictated) or out_of_order(present, dictated, shortest=3)
    ) + swapped_persons(texts, dictated)
    if swapped:  # "you owe Ana" for "Ana owes him"
        found["said_in_another_order"] = swapped
    writers = writers_added(texts, dictated, turn[max(start, 0) :]) if dictating else []
    claimed = attributed_otherwise(texts, dictated) if dictating else []
    if claimed:  # "... is cancelled at your request", "..., Liz Ford says": who asked, who vouches
        found["attributed_in_the_message"] = claimed
    spoken_of = spoken_of_added(present, dictated) if dictating else []
    # "Your contract was terminated" for "the contract was terminated", unless what "your" speaks
    # of is the reader's own record, as the turn names it ("Your booking BK-4471 is ..." to its
    # passenger for "BK-4471 is ...")
    if "you" in spoken_of and not _the_readers_own(texts, dictated, args, context):
        found["said_of_the_reader"] = ["you"]
    writers += [w for w in spoken_of if w != "you"]  # "The client is impressed with me"
    if writers:  # "My build is green" for "the build is green"
        found["said_of_the_writer"] = writers
    forms = inflected_otherwise(texts, dictated) if dictating else []
    if forms:  # "the decks" for "the deck", "Fridays" for "Friday", "we needed" for "we need"
        found["said_in_another_form"] = forms
    modals = another_modality(every, dictated) if dictating else []
    # (a question put to someone words "if" and "whether" as a question: "Is the report ready?")
    modals += bounds_dropped(every, dictated) if dictating and not questioning else []
    if modals:  # "you may submit" for "he must submit"
        found["said_with_another_modal"] = modals
    others = _another_record_named(every, context, policy) if dictating else []
    if others:  # "See you at the Budget review" for "... saying 'see you at the Review'"
        found["another_record_named"] = [*found.get("another_record_named", []), *others]
    # "Lunch is at noon." for "post in #general: is lunch at noon?"
    if any(a_question_answered(every, alone, turn) for _one, alone in each):
        found["said_otherwise"] = "the message states what the turn asks"
    mentions = sorted({m for t in every for m in _A_MENTION.findall(t)} - set(_A_MENTION.findall(turn)))
    if mentions:  # "@here we're looking into it": everyone notified, as the turn does not say
        found["unsaid_in_the_message"] = [*found.get("unsaid_in_the_message", []), *mentions]
    if dictating and not questioning and made_a_question(every, turn[max(start, 0) :]):
        found["said_as_a_question"] = True  # "is the contract signed?"
    # "ask Ana if she can ...": she is Ana, whom the mail asks as "you" ("Can she cover my shift?")
    her = _ASKED_OF_THEMSELVES.search(turn)
    if her and questioning and any(re.search(rf"(?i)\b{her.group(1)}\b", t) for t in texts):
        found.setdefault("said_in_another_order", []).append(her.group(1).casefold())
    if questioning and not any(asks(t) or _A_REQUEST.search(t) for t in every):
        found["not_asked"] = True  # "The venue has parking." for "ask Carla if the venue has parking"
    added = _added_to_the_dictation(present, dictated, args, records, context) if dictating else []
    if added:  # "... and send it to us", "Regards, Colm Reilly", "... to h.weissman@..."
        found["added_to_the_dictation"] = added
    return _asked_partly_read(found, context, policy) if found else None


def _which_of_theirs_dropped(
    present: Sequence[str], dictated: str, args: Mapping[str, Any], context: ReviewContext
) -> list[str]:
    """The words of what the turn dictates that the message leaves out and that tell apart two or
    more records of one trusted listing holding one of the call's values (the recipient's events,
    moves or bookings: "retirement" of Tom Field's retirement party beside his christening lunch):
    without them the message says which of theirs no more ("Please confirm the final headcount" for
    "... for the retirement party"). A word every such record holds, or none, tells none apart."""
    values = {v.strip().casefold() for v in args.values() if isinstance(v, str) and v.strip()}
    written = {meaning(w) for text in present for w in content_words(text)}
    missing = {meaning(w): w for w in content_words(dictated) if meaning(w) not in written}
    if not values or not missing:
        return []
    telling: set[str] = set()
    for done in context.calls:
        listing = parsed(done.get("observation"))
        if done.get("tool") not in context.trusted or not isinstance(listing, list):
            continue
        theirs = [
            r
            for r in listing
            if isinstance(r, Mapping)
            and any(isinstance(v, str) and v.strip().casefold() in values for v in r.values())
        ]
        if len(theirs) < 2:
            continue
        held = [
            {meaning(w) for v in r.values() if isinstance(v, str) for w in content_words(v)} for r in theirs
        ]
        shared = held[0].intersection(*held[1:])
        telling |= set().union(*held) - shared
    return [w for m, w in missing.items() if m in telling and not _A_BARE_FIGURE.fullmatch(w)]


def _added_to_the_dictation(
    present: Sequence[str],
    dictated: str,
    args: Mapping[str, Any],
    records: Sequence[Mapping[str, Any]],
    context: ReviewContext,
) -> list[str]:
    """What a message adds beside what the turn dictates, that words held by a record the run
    read let through: an order joined onto the dictated one ("Please keep the damaged pipe and
    send it to us"), a thing joined onto the one dictated ("the monitor invoice and the conference
    ticket invoice"), a sign-off in the name of someone neither the user nor the turn names
    ("Regards, Colm Reilly"), and a mail address that neither the turn, the user's own record nor
    the recipient's writes ("send the invoice to h.weissman@..."): the message speaks for more
    than the user said."""
    turn = context.request
    added = [*orders_joined(present, dictated), *things_joined(present, dictated)]
    turn_words = set(words_of(turn))
    mine = _the_users_words(context)
    added += [
        w
        for w in signed_by(present, _people_of_the_records(context))
        if w not in mine and w not in turn_words and w != "me"
    ]
    theirs = _holding_a_value_of(args, records)  # the recipient's own record
    allowed = " ".join(
        [turn, *(x for x in leaves(context.subject) if isinstance(x, str))]
        + [str(x) for r in theirs for x in leaves(r) if isinstance(x, str)]
    ).casefold()
    # (where the call sends it is the recipient rules' to weigh: "to: ana@..., bob@...")
    whom = _addresses_of({k: v for k, v in args.items() if k in RECIPIENT_ARGS})
    added += [
        m.casefold()
        for t in present
        for m in _AN_ADDRESS.findall(t)
        if m.casefold() not in allowed and m.casefold() not in whom
    ]
    # a name, another record's value or a state that neither the dictation nor the records it
    # speaks of hold ("Your crown fitting is on 18 December at 14:00 with Dr Hannah Lee", of Dr
    # Hanna Li's appointment; "Your check-up and filling are now on ...")
    described = _the_recipients_described(args, context)
    known = " ".join(_held_for_the_recipient(described, context, args)).casefold()
    relayed = _the_record_passed_on(context)  # (the mail it replies to: "Yes, Thursday works.")
    known += " " + " ".join(relayed[1]).casefold() if relayed else ""
    # and what the recipient wrote to the user ("Reply to Carla: yes." to Carla's "Does Thursday
    # work?"): their own words, not a third party's
    theirs = [r for r in _records_read(context) if _addresses_of(r) & whom]
    known += " " + " ".join(str(x) for r in theirs for x in leaves(r) if isinstance(x, str)).casefold()
    added += _said_beyond_the_records(present, described, known, context, states=False)
    return list(dict.fromkeys(added))


def _another_record_in_place(
    texts: Sequence[str], dictated: str, aside: Collection[str], context: ReviewContext
) -> list[str]:
    """The words a message says in place of a word the turn dictates that it leaves out, where they
    are words of a record the run read and the turn does not write ("Your sertraline is ready." for
    "Tell Dr. Ana Petrova her inhaler is ready": sertraline, one of her other prescriptions, in
    place of the inhaler): the message speaks of another record than the one dictated. A word left
    out with nothing in its place is weighed as a modifier dropped (:func:`left_out`), and a word
    added beside all the dictated ones as a detail (its kind, "booking BK-4471")."""
    skip = {meaning(w) for w in [*aside, *COURTESY]}
    dictated_words = {meaning(w) for w in content_words(dictated)}
    written = [w for t in texts for w in content_words(t)]
    said = {meaning(w) for w in written} | skip
    if dictated_words <= said:
        return []  # every dictated word is there: what is added is a detail
    record_words = {
        w
        for record in _trusted_records(context)
        for leaf in leaves(record)
        if isinstance(leaf, str)
        for w in words_of(leaf)
    }
    kinds = _kinds_named(written, context)
    added = [
        w
        for w in dict.fromkeys(written)
        if meaning(w) not in dictated_words | skip and w in record_words and w not in kinds
    ]
    return added


def _another_id_named(texts: Sequence[str], turn: str) -> list[str]:
    """The ids a message names that the turn does not write ("Your flight FL-3310 is cancelled." for
    "Tell Lena Fischer her flight is cancelled": which of her flights, the turn does not say; "...
    and BK-5511 is cancelled" added): the message speaks of a record the turn does not name."""
    said = {w.casefold() for w in AN_ID_WORD.findall(turn)}
    return sorted({w.casefold() for t in texts for w in AN_ID_WORD.findall(t)} - said)


def _the_readers_only_records(args: Mapping[str, Any], context: ReviewContext) -> set[str]:
    """The ids of the records the recipient (whom the call names by an id) holds alone of their
    listing, and the ids those records keep: a message may name them where the turn does not ("Your
    refund for SHP-70414 is on its way." to the holder of that one shipment); of a listing where
    they hold two or more, which one the turn means is not said."""
    ids = {i for _arg, i in _ids_the_call_names(args)}
    only: set[str] = set()
    for done in context.calls if ids else ():
        if done.get("tool") not in context.trusted:
            continue
        held = [
            record
            for _path, record in mappings(parsed(done.get("observation")))
            if ids & {v.strip().casefold() for k, v in record.items() if isinstance(v, str) and k != "id"}
        ]
        if len(held) == 1:
            only |= {
                v.strip().casefold() for v in held[0].values() if isinstance(v, str) and _id_like_value(v)
            }
    return only


def _the_readers_own(
    texts: Sequence[str], dictated: str, args: Mapping[str, Any], context: ReviewContext
) -> bool:
    """Does every "your" of a message speak of a record the reader holds, as the turn names it?
    The reader is whom the call names by an id ("passenger_id": "P-2201"); what "your" speaks of,
    the words after it up to its verb, is a record a trusted result keeps under that id ("Your
    booking BK-4471 is now on FL-2044" of a booking whose passenger is P-2201, for "Email Lena
    Fischer that BK-4471 is now on FL-2044"): an id the turn writes, or words the turn writes that
    only the reader's records hold ("Your field trip refund ..." where the one record of a field
    trip is the reader's fee). Not where the message speaks to the reader otherwise ("you owe"),
    nor where another's record holds the words too ("Your contract was terminated" where two
    contracts were read)."""
    ids = {i for _arg, i in _ids_the_call_names(args)}
    if not ids:
        return False
    records = [
        (r, {leaf.strip().casefold() for leaf in leaves(r) if isinstance(leaf, str)})
        for r in _trusted_records(context)
    ]
    held = [strings for _r, strings in records if strings & ids]
    if not held:
        return False
    turn = {w.casefold() for w in words_of(dictated)} | {w.casefold() for w in AN_ID_WORD.findall(dictated)}
    yours = 0
    for text in texts:
        tokens = re.findall(r"[\w'’-]+", text.casefold())
        if set(tokens) & _THE_READER_OTHERWISE:
            return False  # "you owe ...", "thank you": said to the reader, not of a record
        for at, token in enumerate(tokens):
            if token != "your":
                continue
            phrase = list(
                itertools.takewhile(lambda w: w not in _A_VERB_AFTER_YOURS, tokens[at + 1 : at + 6])
            )
            content = [w for w in phrase if w not in FUNCTION_WORDS]
            if not content or not set(content) <= turn | _kinds_named(content, context):
                return False
            named = [w for w in content if _id_like_value(w)]
            if named:
                if not all(any(w in strings for strings in held) for w in named):
                    return False
            else:
                holders = [s for _r, s in records if set(content) & {x for t in s for x in words_of(t)}]
                if not holders or any(h not in held for h in holders):
                    return False
            yours += 1
    return yours > 0


#: Words by which a message speaks to its reader otherwise than of their record.
_THE_READER_OTHERWISE = frozenset({"you", "you're", "you've", "you'll", "you'd", "yours", "yourself"})
#: The words that end what "your" speaks of in a message: its verb ("Your booking BK-4471 is ...").
_A_VERB_AFTER_YOURS = frozenset(
    """
    is are was were has have had will would can could may might must should needs need got gets
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _kinds_named(words: Sequence[str], context: ReviewContext) -> set[str]:
    """Of ``words``, those that name the kind of a record whose id stands beside them: the noun of
    the listing that returned it ("booking" before "bk-4471", of ``list_bookings``)."""
    ids = {w for w in words if _id_like_value(w)}
    kinds: set[str] = set()
    for done in context.calls:
        tool = done.get("tool")
        if not isinstance(tool, str) or tool not in context.trusted:
            continue
        for _path, record in mappings(parsed(done.get("observation"))):
            if ids & {leaf.strip().casefold() for leaf in leaves(record) if isinstance(leaf, str)}:
                kinds |= {singular(part) for part in tool.split("_")[1:]}
    return {w for w in words if singular(w) in kinds}


def _another_record_named(
    texts: Sequence[str], context: ReviewContext, policy: SupervisorPolicy
) -> list[str]:
    """The records a message names by a key of theirs (an event's title) where the turn names
    another record of the same listing and not them ("See you at the Budget review" for "...
    saying 'see you at the Review'")."""
    naming = naming_of(policy, context.subject)
    turn = [r for r in named_records(context.request, context.calls, naming) if r.keyed]
    listings = {r.tool for r in turn}
    # the same record by another of its keys is no other ("DM Tomás Ferreira": the handle tomas)
    same = {(r.tool, r.by) for r in turn} | {(r.tool, stable_json(r.value)) for r in turn}
    return list(
        dict.fromkeys(
            r.by.split("=", 1)[-1]
            for r in named_records(" | ".join(texts), context.calls, naming)
            if r.keyed and r.tool in listings and not {(r.tool, r.by), (r.tool, stable_json(r.value))} & same
        )
    )


#: A question put to someone about themselves ("ask Ana if she can ...", "ask Bob whether he ...").
_ASKED_OF_THEMSELVES = re.compile(r"(?i)\bask\s+[\w'’-]+\s+(?:if|whether)\s+(he|she)\b")


def _addressing_the_recipient(
    asking: list[Any], args: Mapping[str, Any], context: ReviewContext
) -> list[Any]:
    """The mandates that address the call's recipient ("DM ana the password and tell mallory it's
    coming": the DM to ana says the password, not "it's coming"); all where none names them."""
    whom = _the_recipients_words(args, context)
    return [one for one in asking if set(one.words[1:]) & whom] or asking


def _saved_for_another_file(
    every: Sequence[str], args: Mapping[str, Any], context: ReviewContext, texts: Sequence[str]
) -> list[str]:
    """The words of a file's text that another part of the turn says to save into another file
    ("Save the offsite agenda into agenda.txt and Carla's offer into offer.txt": Carla's offer as
    agenda.txt): each part of a mandate that writes a file ("save ... into agenda.txt", and its
    coordinated "Carla's offer into offer.txt") is for the file it names. ``texts``: the records
    read, each as its text."""
    names = {leaf.strip().casefold() for a, v in args.items() if _A_FILES_NAME.match(a) for leaf in leaves(v)}
    names = {n for n in names if isinstance(n, str) and _A_FILE.fullmatch(n)}
    if not names:
        return []
    parts = [
        (text, one.verb)
        for one in _every_mandate(context)
        if one.verb in _FILING | {"write"}  # "Write Carla's offer to offer.txt and ..."
        for text in (one.text, *one.coordinated)
    ]
    own: list[tuple[frozenset[str], frozenset[str]]] = []  # each part's words, and what it saves
    others: list[tuple[frozenset[str], frozenset[str]]] = []
    for part, verb in parts:
        files = {f.casefold() for f in _A_FILE.findall(part)}
        # its words (its file's name says of it too), and the thing it saves, without where or how
        said = (meanings(part), meanings(_A_FILE.sub(" ", part)) - meanings(verb))
        if files & names:
            own.append(said)
        elif files:
            others.append(said)
    if not own or not others:
        return []
    return answers_another(every, [m for m, _ in own], [m for m, _ in others]) or answers_another(
        every,  # in the words of the record it saves ("We can host 20 people" of Carla's offer)
        [m | with_its_records(thing, texts) for m, thing in own],
        [m | with_its_records(thing, texts) for m, thing in others],
        by_most=False,
    )


def _the_recipients_words(args: Mapping[str, Any], context: ReviewContext) -> set[str]:
    """The words a turn may name a call's recipient by: those of the records that hold its
    address ("ana", "silva"), the user's own where it is theirs, and a one-word value as it is
    (a handle, a channel as a mandate's words hold it: "general")."""
    records = list(_records_read(context))
    yours = {leaf.strip().casefold() for leaf in leaves(context.subject) if isinstance(leaf, str)}
    whom = {w for a in _addresses_of(args) for w in _a_recipients_words(a, records, yours)}
    whom |= _persons_by_id(args, context)  # a person the call names by id ("rider_id": "R-9006")
    return whom | {
        leaf.strip().casefold().lstrip("#@")
        for v in args.values()
        for leaf in leaves(v)
        if isinstance(leaf, str) and len(leaf.split()) == 1
    }


def _beyond_the_thing_read(
    every: Sequence[str],
    asking: Sequence[Any],
    args: Mapping[str, Any],
    context: ReviewContext,
    texts: Sequence[str],
    recipients: Collection[str],
) -> list[str]:
    """The words of a message that sends a thing the turn names as one ("Email Bob the offsite
    agenda", "Tell bob the minutes") that neither the records holding every word of its name (the
    file listing's "offsite-agenda.docx", the minutes read) nor the turn say: the thing as the run
    read it, not another record's words put under its name ("Offsite agenda: Carla Diaz hosts
    people Thursday." of Carla's mail). Only "the X" alone: what the user's own records make up
    ("my agenda for Monday", of the calendar), what a mandate tells, how or where, and a thing no
    record names whole are left to the other checks."""
    # whom it goes to, not a one-word subject ("Budget")
    labels = {
        v.strip(" .!?").casefold() for a, v in args.items() if isinstance(v, str) and _A_SUMMARY.search(a)
    }
    whom = set(recipients) - labels
    if any(m.verb in _LOOKING for m in _every_mandate(context)):
        return []  # "Check my calendar ... and email ana the agenda": made of what it looks at
    found: set[str] = set()
    for one in asking:
        words = [w for w in one.words[1:] if w not in whom]
        if len(words) > 1 and words[-1:] == ["to"]:
            words = words[:-1]  # "... the offsite agenda to Bob"
        if words[:1] != ["the"] or set(words) & _NOT_ONLY_A_THING or _A_QUESTION_PUT.search(one.sentence):
            continue
        thing = meanings(" ".join(words)) - meanings(one.verb)
        # a record's words, those of its names and ids too ("budget-2027.xlsx": budget)
        holding = [said for r in texts if thing and thing <= (said := meanings(r) | _all_words(r))]
        if not holding:
            continue
        held = frozenset().union(*holding, meanings(context.request), *map(meanings, _REFERRING_TO_A_THING))
        found |= {w for t in every for w in meanings(t)} - held - whom
    return sorted(found)


def _authors_and_words(records: Sequence[Mapping[str, Any]]) -> list[tuple[str, frozenset[str]]]:
    """Each record's author (its handle, sender or name, in small letters) and what it says: who
    posted, asked or wrote what ("who posted the ETL article": bob)."""
    pairs = []
    for record in records:
        author = next(
            (
                str(v).casefold()
                for k, v in record.items()
                if isinstance(v, str) and _A_PERSONS_KEY.search(str(k))
            ),
            None,
        )
        if author:
            pairs.append((author, meanings(_text_of_record(record))))
    return pairs


def _said_read(context: ReviewContext, only: Sequence[str] | None = None) -> list[Said]:
    """What the run read, sentence by sentence (each text of each record), and each call's records
    together (a channel's posts: "Q4 planning doc", then mallory's "reading it now"); ``only``:
    those texts alone (the record a message passes on)."""
    if only is not None:
        return said_in(only)
    records = list(_records_read(context))
    texts = [v for r in records for v in leaves(r) if isinstance(v, str)]
    # each record's texts together (a mail's sender and body), and the posts of one channel, or
    # whatever one call asked for by name (a call with no arguments lists, it holds no thread)
    threads = [_text_of_record(r) for r in records]
    threads += [
        " ".join(v for v in leaves(parsed(done.get("observation"))) if isinstance(v, str))
        for done in context.calls
        if done.get("args")
    ]
    return said_in(texts, threads)


def _as_read(
    every: Sequence[str], said: Sequence[Said], context: ReviewContext, named: frozenset[str]
) -> dict[str, Any]:
    """The clauses of a message the agent words that no sentence read supports
    (``unsaid_in_the_message``: "Incomplete." of a deploy that finished, "P1 tickets get a response
    within 5 minutes." in answer to the customer) or that one says otherwise (``said_otherwise``:
    "mallory isn't reading it." of her "reading it now", "lena.k says v2 is live." of her
    question), beside what the turn and whom it is to say (:func:`~policies.supervisor.reading.
    answers.not_as_read`). ``named``: the words the recipient is named by (:func:`_named_as`)."""
    # a record's "your" said to another stays its own only in a message marked as passed on
    quotes = not named or any(_MARKED_AS_PASSED_ON.match(t) for t in every)
    unsupported, otherwise = not_as_read(every, said, _given_words(context, named), quotes=quotes)
    if otherwise:
        return {"said_otherwise": f"the message says otherwise than what was read: {otherwise[0]!r}"}
    return {"unsaid_in_the_message": unsupported} if unsupported else {}


#: A message of one word: in letters ("Thanks!", "Soon™."), or with a figure or in another
#: script, ended as a sentence ("Q1.", "はい、v2は公開済みです。"); not an id or a file's name
#: ("X4821957", "offsite-agenda.docx").
_A_ONE_WORD_MESSAGE = re.compile(r"[^\W\d_]{2,}[^\w\s]*|(?=\S*(?:\d|[^\x00-\x7f]))\w\S*[.!?。！？]")
#: A message marked as another's words passed on ("Fwd: New laptop", "Forwarded message: ...").
_MARKED_AS_PASSED_ON = re.compile(r"(?i)\s*(?:fwd?\b|forwarded\b|-+\s*forwarded)")


def _given_words(context: ReviewContext, named: frozenset[str]) -> frozenset[str]:
    """What a message may say that no record need: the turn's words (not a channel's name: "what
    mallory wrote in #reading" says nothing of reading), whom it is to (``named``), courtesy."""
    return meanings(_A_CHANNEL_NAME.sub(" ", context.request)) | named | frozenset(map(meaning, COURTESY))


def _the_users_names(context: ReviewContext) -> frozenset[str]:
    """The words the user is named by (their handle, their names, their address's name): "Sam
    merged it" is the user's act, told."""
    out: set[str] = set()
    for leaf in leaves(context.subject):
        if isinstance(leaf, str):
            names = re.split(r"[\s@._-]+", leaf.split("@")[0].casefold())
            out |= {w for w in names if len(w) > 1 and w not in FUNCTION_WORDS}  # not "me@corp.example"
    return frozenset(out)


def _asked_by_the_recipient(
    args: Mapping[str, Any], context: ReviewContext
) -> tuple[list[frozenset[str]], list[frozenset[str]]]:
    """What each yes-or-no question the recipient put asks about (:func:`~policies.supervisor.
    reading.answers.whether_asked`), and each open one (:func:`~policies.supervisor.reading.
    answers.what_asked`): in a record they wrote ("Would Thursday work for the offsite?" of
    Carla's mail, to her address), or posted where the message goes (#partners)."""
    whom = _the_recipients_words(args, context)
    channels = {v.casefold() for v in args.values() if isinstance(v, str) and v.startswith("#")}
    asked: list[frozenset[str]] = []
    opened: list[frozenset[str]] = []
    for done in context.calls:
        called = (done.get("args") or {}).values()
        there = any(isinstance(v, str) and v.casefold() in channels for v in called)
        for _path, record in mappings(parsed(done.get("observation"))):
            authors = {
                w
                for k, v in record.items()
                if isinstance(v, str) and _A_PERSONS_KEY.search(str(k))
                for w in re.split(r"[\s@]+", v.casefold())
            }
            if there or authors & whom:  # each text apart: a mail's name and subject ask nothing
                texts = [leaf for leaf in leaves(record) if isinstance(leaf, str)]
                asked += [a for text in texts for a in whether_asked(text)]
                opened += [a for text in texts for a in what_asked(text)]
    return asked, opened


def _id_like_value(value: str) -> bool:
    """Is ``value`` written as a record's id, letters and digits in one word ("R-9003", "PT-301")?"""
    return AN_ID_WORD.fullmatch(value.strip()) is not None


def _ids_the_call_names(args: Mapping[str, Any]) -> set[tuple[str, str]]:
    """Each value of the call written as a record's id, with its argument's name, case folded
    (("rider_id", "r-9003")): whom or what the call names by id."""
    return {
        (arg.casefold(), leaf.strip().casefold())
        for arg, v in args.items()
        for leaf in leaves(v)
        if isinstance(leaf, str) and _id_like_value(leaf)
    }


def _persons_by_id(args: Mapping[str, Any], context: ReviewContext) -> set[str]:
    """The words of the name of a person a trusted record keeps under the id the call names them by
    ("rider_id": "R-9003" of {"id": "R-9003", "name": "Lucía Ortega"}: "lucía", "ortega")."""
    ids = _ids_the_call_names(args)
    own = {("id", i) for _, i in ids}
    records = list(_trusted_records(context)) if ids else []

    def holds(record: Mapping[str, Any], keyed: set[tuple[str, str]]) -> bool:
        return any(
            isinstance(v, str) and (str(k).casefold(), v.casefold()) in keyed for k, v in record.items()
        )

    # the record whose own id it is; else one keeping it under the call's own key ("rider_id"):
    # not a record that points at the person ({"guardian_id": "G-203"} of a guardian's student)
    theirs = [r for r in records if holds(r, own)] or [r for r in records if holds(r, set(ids))]
    return {
        w
        for record in theirs
        for k, v in record.items()
        if isinstance(v, str) and _A_PERSONS_KEY.search(str(k))
        for w in re.split(r"[\s._-]+", v.casefold())
        if w
    }


def _named_as(args: Mapping[str, Any], context: ReviewContext) -> frozenset[str]:
    """The words a call's recipient is named by: a one-word value of its arguments (a handle, a
    channel), an address's name, and the person's fields (a name, a handle) of the records that
    hold the address; not what those records say ("Thursday" of Carla's mail)."""
    addresses = {a.casefold() for a in _addresses_of(args)}
    names = {w for a in addresses for w in re.split(r"[@._-]+", a.split("@")[0])}
    names |= {
        leaf.strip().casefold().lstrip("#@")
        for v in args.values()
        for leaf in leaves(v)
        if isinstance(leaf, str) and len(leaf.split()) == 1
    }
    handles = {  # a handle's person too ("kwame": Kwame Mensah)
        leaf.strip().casefold() for v in args.values() for leaf in leaves(v) if isinstance(leaf, str)
    }
    names |= _persons_by_id(args, context)
    for record in _records_read(context):
        if any(isinstance(v, str) and v.casefold() in addresses for v in record.values()) or any(
            k == "handle" and isinstance(v, str) and v.casefold() in handles for k, v in record.items()
        ):
            names |= {
                w
                for k, v in record.items()
                if isinstance(v, str) and _A_PERSONS_KEY.search(str(k))
                for w in re.split(r"[\s._-]+", v.casefold().split("@")[0])  # an address: its name
            }
    return frozenset(meaning(w) for w in names if w)


def _relayed_as_read(
    every: Sequence[str],
    context: ReviewContext,
    args: Mapping[str, Any],
    passed: tuple[str, list[str]] | None = None,
) -> dict[str, Any]:
    """What a message that passes on someone's record ("Forward Ana's survey email to Bob", "Send
    bob lena.k's question", "Save Carla's offer into offer.txt") says that the record does not: a
    word neither it, its author's names, the turn nor a relay's own words ("Fwd", "asks", "below")
    hold ("Please fill in the survey for Carla Diaz.", "Customer: Is the v2 API live yet?" of
    lena.k's: ``more_than_the_thing``), or its question said as a statement ("lena.k says the v2
    API is live.": ``said_otherwise``). The record is the owner's that the thing's words name best
    (its words, the name of the call that read it: "bob's DM" of ``read_dms``; "question" of one
    that asks); where none of the owner's records is named, nothing is checked. ``passed``: the
    owner and the texts of the record passed on, where the caller found them."""
    passed = passed or _the_record_passed_on(context)
    if passed is None:
        return {}
    owner, texts = passed
    question = question_told_as_statement(every, texts)
    if question is not None:
        return {"said_otherwise": f"the message passes {owner}'s question on as a statement: {question!r}"}
    # whom it goes to is greeted, not quoted ("Hi Ana, ..."; "From Ana Silva: ..." of Carla's mail)
    named = _named_as(args, context)
    every = [
        _A_GREETING.sub(lambda m: "" if meanings(m.group(1) or m.group(2)) <= named else m.group(0), t)
        for t in every
    ]
    # the turn's words, but whom it goes to: no author of what is passed on ("bob: Lunch at noon.")
    turn = " ".join(
        w for w in words_of(context.request) if meaning(w) not in named or meaning(w) in meanings(owner)
    )
    said = [*texts, turn, _RELAYS_OWN_WORDS]
    words = unsaid(every, said)  # its ids and figures as it writes them ("X4821957")
    if words:
        return {"more_than_the_thing": words}
    # no negation it does not write ("mallory: no thanks." of her "Thanks, reading it now."), and
    # its people as it names them ("bob: Can you review his PR?" of his "... my PR")
    if any(negated(t) for t in every) and not any(negated(t) for t in [*texts, context.request]):
        return {"said_otherwise": f"the message negates what it passes on: {texts[-1]!r}"}
    added = answers_added(every, texts)
    if added:  # "lena.k asks: Is the v2 API live yet? (It is.)": an answer, not hers
        return {"said_otherwise": f"the message answers what it passes on: {added[0]!r}"}
    turned = _persons_turned(every, texts)
    if turned:
        return {"said_otherwise": f"the message passes {owner}'s words on with other people: {turned!r}"}
    # in its own mood and polarity ("ana asks: Lunch at noon?" of her "Lunch at noon."), who says
    # it aside ("lena.k says v2 is live" of her question)
    return _as_read(every, _said_read(context, only=texts), context, named | meanings(owner))


def _persons_turned(every: Sequence[str], texts: Sequence[str]) -> str | None:
    """A sentence of a record passed on that a sentence of the message writes, most words each
    way, with other people's pronouns ("bob: Can you review his PR?" of his "Can you review my PR
    before 17:00?", "I reviewed your PR"); one that reports it ("bob asks if I can review his PR")
    turns them as reported speech does."""
    said = [s for t in every for s in re.split(r"(?<=[.!?])\s+", t) if not set(words_of(s)) & _REPORTS]
    for text in texts:
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            words = _words_not_figures(sentence)  # "before 17:00" may be left out
            if len(words) < 2:
                continue
            own = Counter(w for w in words_of(sentence) if w in _PERSONS)
            for other in said:
                them = _words_not_figures(other)
                shared = len(words & them) * 3
                persons = Counter(w for w in words_of(other) if w in _PERSONS)
                # other people than its own, or than the user's turning of them ("Your new laptop
                # ..." of the user's mail passed on as "My new laptop ..." is as it reads)
                turned = persons != own and _as_the_user_says_it(persons) != _turned_to_the_user(own)
                if shared >= len(words) * 2 and shared >= len(them) * 2 and persons and turned:
                    return sentence
    return None


def _as_the_user_says_it(persons: Counter[str]) -> Counter[str]:
    """Whom the pronouns of a message the user sends speak of: the user (their "I", "my", "we"),
    whom it goes to ("you") or another ("he", "their")."""
    return Counter(_ROLE_IN_A_MESSAGE.get(w, "other") for w in persons.elements())


def _turned_to_the_user(persons: Counter[str]) -> Counter[str]:
    """The pronouns of a record read for the user, turned as the user passes it on: its "you" is
    the user ("Your new laptop ..." is "My new laptop ..."), its writer is another ("my PR" is
    "his PR")."""
    return Counter("me" if _ROLE_IN_A_MESSAGE.get(w) == "you" else "other" for w in persons.elements())


_ROLE_IN_A_MESSAGE = {
    **dict.fromkeys(("i", "me", "my", "mine", "we", "us", "our", "ours"), "me"),
    **dict.fromkeys(("you", "your", "yours"), "you"),
}


def _words_not_figures(text: str) -> frozenset[str]:
    return frozenset(w for w in meanings(text) if not any(c.isdigit() for c in w))


#: Words that report what someone said: pronouns turn in what follows.
_REPORTS = frozenset(
    {"ask", "asks", "asked", "says", "said", "wants", "wanted", "wonders", "wondering", "told", "tells"}
)
#: The pronouns that say who does what ("my PR", "you review").
_PERSONS = frozenset(
    [
        "i",
        "me",
        "my",
        "mine",
        "you",
        "your",
        "yours",
        "he",
        "him",
        "his",
        "she",
        "her",
        "hers",
        "we",
        "us",
        "our",
        "ours",
        "they",
        "them",
        "their",
        "theirs",
    ]
)


def _the_record_passed_on(context: ReviewContext) -> tuple[str, list[str]] | None:
    """Whose record a mandate that passes one on names ("forward Ana's survey email": ana; "IT's
    note"; "the venue email from Carla"), and the texts of the record its words name best (each
    string of it, its author's names too): of the owner's records, or of all where it names none
    ("Send Ana the offsite venue email": two words of it at least). None where no mandate passes
    a thing on, or no record is named."""
    for one in _every_mandate(context):
        if one.verb not in _RELAYING | _FILING | _WRITING:
            continue
        owner = _the_owner_named(one)
        if owner is None and one.verb not in _RELAYING:
            continue  # "Email bob the plan": no record passed on by name
        words = [w for w in one.words[1:] if not w.endswith("'s")]
        words = list(itertools.takewhile(lambda w: w not in _NOT_ONLY_A_THING, words))
        if owner is None and not set(words) & _A_MESSAGE_NOUN:
            continue  # "send my passport number": the user's own; "the offsite venue email": a mail
        thing = meanings(" ".join(words)) - {owner or ""}
        if owner is None:  # not whom it goes to ("Send Bob the laptop email")
            thing -= _people_read(list(_records_read(context)))
        thing |= _A_MAIL & set(words)
        chosen = _the_record_named(context, owner, thing)
        if chosen is not None:
            return chosen
    return None


def _the_owner_named(mandate: Any) -> str | None:
    """Whose thing a mandate names: "Ana's survey email", "IT's note" (as written: "IT's" is the
    desk's), "the venue email from Carla"; None where it names no one, or more than one."""
    owned = [m.group(1) for m in _A_POSSESSIVE.finditer(mandate.text)]
    owned = [w for w in owned if w.isupper() or w.casefold() not in FUNCTION_WORDS | _NOT_AN_OWNER]
    sent = [m.group(1) for m in _FROM_SOMEONE.finditer(mandate.text)]  # "from IT": the desk
    sent = [w for w in sent if w.isupper() or w.casefold() not in FUNCTION_WORDS | _NOT_AN_OWNER]
    names = {w.casefold() for w in [*owned, *sent]}
    names |= {
        m.group(1).casefold() for m in _AN_ACRONYM_BEFORE_A_MAIL.finditer(mandate.text)
    }  # "the IT email"
    return next(iter(names)) if len(names) == 1 else None


def _the_record_named(
    context: ReviewContext, owner: str | None, thing: frozenset[str]
) -> tuple[str, list[str]] | None:
    """The record (its author or owner, and its texts) a thing's words name best, of ``owner``'s
    records where one is named: by its words and those of the call that read it ("bob's DM" of
    ``read_dms``; "question" of one that asks), or as the owner's one record of any length."""
    best, chosen, ties = 0, None, 0
    for done in context.calls:
        named = str(done.get("tool", "")).replace("_", " ")
        asked = " ".join(str(v) for v in leaf_values(done.get("args") or {}))  # "#general"
        tool = (
            meanings(named) | meanings(re.sub(r"(?<=\w)s\b", "", named)) | meanings(asked)
        )  # "read_dms": dm
        for _path, record in mappings(parsed(done.get("observation"))):
            if owner is not None and not _names_as_its_person(record, owner):
                continue
            strings = [v for v in leaves(record) if isinstance(v, str)]
            words = tool.union(*map(meanings, strings)) | (
                _A_QUESTION_ASKED if any("?" in v for v in strings) else frozenset()
            )
            if "subject" in record:  # a mail: "the laptop email"
                words |= _A_MAIL
            score = 2 * len(thing & words) + any(len(v.split()) >= 4 for v in strings)
            if score > best:
                best, chosen, ties = score, strings, 0
            elif score == best:
                ties += 1
    # named by its words (two of them, where it names no owner), or the owner's one record
    enough = best >= (2 if owner is not None else 4)
    if chosen is None or not (enough or (owner is not None and not ties)):
        return None
    return owner or "the record's", chosen


def _names_as_its_person(record: Mapping[str, Any], owner: str) -> bool:
    """Does ``record`` name ``owner`` as its person (a handle, an author, a sender's address or
    name: "ana" of "Ana Silva", "carla" of "carla@venue-partners.example")?"""
    for key, value in record.items():
        if isinstance(value, str) and _A_PERSONS_KEY.search(str(key)):
            said = value.casefold()
            if said == owner or owner in said.split() or said.split("@")[0] == owner:
                return True
    return False


#: Verbs that pass a record on to someone ("Forward Ana's email", "Share lena.k's question",
#: "Post mallory's reply in #general", "Tell bob lena.k's question").
_RELAYING = frozenset(
    {
        "forward",
        "share",
        "send",
        "pass",
        "relay",
        "repost",
        "fwd",
        "give",
        "post",
        "tell",
        "quote",
        "repeat",
        "show",
    }
)
#: What a record passed on without its owner's name is called ("Send Ana the offsite venue email").
_A_MESSAGE_NOUN = frozenset(
    """
    email emails mail mails message messages note notes post posts dm dms question questions reply replies
    letter memo announcement notice invite invitation offer
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: A possessive as written ("Ana's", "lena.k's", "IT's").
_A_POSSESSIVE = re.compile(r"(?<![\w.@-])([A-Za-z][\w.-]*?)['’]s\b")
#: A greeting that opens a message ("Hi Ana,", "Bob -", "Dear Priya:").
_A_GREETING = re.compile(
    r"(?i)^\s*(?:(?:hi|hello|hey|dear)\s+([\w.-]+(?:\s+[\w.-]+)?)\s*[,!:—–-]|([\w.-]+(?:\s+[\w.-]+)?)\s*[,!—–-])\s*"
)
#: Whom a thing is from ("the venue email from Carla").
_FROM_SOMEONE = re.compile(r"(?i)\bfrom\s+([a-z][\w.-]*)")
#: A sender named by an acronym before a mail's noun ("the IT email", "the HR memo").
_AN_ACRONYM_BEFORE_A_MAIL = re.compile(
    r"\b([A-Z]{2,5})\s+(?:e-?mails?|mails?|messages?|notes?|notices?|memos?)\b"
)
#: The fields a record says something in (a post's text, a mail's body).
_SAID_FIELDS = frozenset({"text", "body", "message", "content"})
#: What names a record as a mail (a mandate's "email", a record's "subject").
_A_MAIL = frozenset({"email", "emails", "mail", "mails", "e-mail"})
#: Words before "'s" that own no record ("today's DMs", "this week's minutes").
_NOT_AN_OWNER = frozenset({"today", "yesterday", "tomorrow", "week", "month", "year", "everyone", "team"})
#: A record that asks: its words hold "question".
_A_QUESTION_ASKED = frozenset({meaning("question")})
#: The words a message that passes a record on may add: that it is passed on, and from whom.
_RELAYS_OWN_WORDS = (
    "fwd fw forward forwarded message email mail dm note question asks asked says said wrote writes "
    "shared original below here fyi from see he she they him her them his hers their if whether wants know"
)


#: Verbs that send the agent to read what a thing is made of ("Check my calendar and ...").
_LOOKING = frozenset(
    {
        "check",
        "read",
        "look",
        "find",
        "get",
        "pull",
        "open",
        "review",
        "search",
        "see",
        "view",
        "fetch",
        "list",
        "browse",
    }
)
#: Words of a mandate that say more than which thing it sends: what it tells, how, where, about.
_NOT_ONLY_A_THING = (
    _WHAT_ABOUT | _WHAT_IS_TOLD | _BY_WAY_OF | frozenset({"to", "for", "with", "from", "on", "at"})
)
#: A sentence that puts a question for the agent to answer ("... whether the deploy is done").
_A_QUESTION_PUT = re.compile(r"(?i)\b(?:whether|if)\b")


def _all_words(text: str) -> frozenset[str]:
    """Every word of ``text`` as :func:`~policies.supervisor.reading.answers.meanings` reads it,
    those of a file's name, an id or an address too ("budget-2027.xlsx": budget, xlsx)."""
    return frozenset(meaning(w) for w in re.findall(r"[^\W\d_]+", text.casefold()) if w not in FUNCTION_WORDS)


def _answered_as_not_read(
    every: Sequence[str],
    asking: Sequence[Any],
    args: Mapping[str, Any],
    records: Sequence[Mapping[str, Any]],
    context: ReviewContext,
    replies_as_read: bool = False,
) -> dict[str, Any]:
    """What a message whose words the turn leaves to the agent says against the turn's parts and
    the records read (:mod:`policies.supervisor.reading.answers`): another file's part saved, or
    another person's question answered ("Tell Bob whether my laptop is ready and tell Ana whether
    Carla can host": "Yes, Carla can host the offsite." to Bob: ``said_for_another``); a thing
    given to another than the record gives it to ("Your todo is room booking" to bob:
    ``said_in_another_order``); a guarantee, a refund, a payment the turn and the records do not
    write (``unsaid_in_the_message``); an answer with the other polarity than the record that
    says what was asked ("No, the deploy did not finish." where #deploys says it finished), or a
    record passed on with a negation it does not write ("Forward Ana's survey email": "please
    don't fill in ...") (``said_otherwise``). Otherwise a reply is the agent's to word ("Reply to
    Carla"), and so is an answer no record speaks to."""
    texts = [_text_of_record(r) for r in records]
    crossed = _saved_for_another_file(every, args, context, texts)
    if crossed:  # "Save the agenda into agenda.txt and Carla's offer into offer.txt", crossed
        return {"said_for_another": crossed}
    whom = _the_recipients_words(args, context)  # read once, for each check below
    # the body: a subject is a label the agent gives it ("Laptop", "Re: Offsite venue")
    body = [t for t in _texts_of(args, context, summing_up=False) if t in every] or list(every)
    people = _people_read(records)
    readers = sorted(whom & people)
    reader = readers[0] if len(readers) == 1 else None
    swapped = given_otherwise(every, texts, people, reader, context.request)
    if swapped:  # "TODO: ana (deploy script), bob (room booking)" of minutes that give them the other way
        return {"said_in_another_order": swapped}
    bound = commitments_added(every, [context.request, *texts])
    if bound:  # "We guarantee a 1 hour response ..." in answer to a customer: the user's to promise
        return {"unsaid_in_the_message": bound}
    questions = questions_put(context.request)
    if questions:
        # not whom it goes to ("member": "ana" is no answer "ana." to "who ...")
        sent_to = {str(v).casefold() for k, v in args.items() if _A_RECIPIENTS_KEY.match(str(k))}
        body = [t for t in body if t.casefold() not in sent_to]
        own = [q for q in questions if q.who in whom]
        others = [q for q in questions if q.who not in whom]
        crossed = answers_another(body, [q.asks for q in own], [q.asks for q in others]) if own else []
        if own and not crossed:  # said in the words of the records that answer another's question
            wide = [with_its_records(q.asks, texts) for q in own]
            theirs = [with_its_records(q.asks, texts) for q in others]
            crossed = answers_another(body, wide, theirs, by_most=False)
        if crossed:
            return {"said_for_another": crossed}
        said = _said_read(context)
        for question in own:
            record = answered_otherwise(body, question, said)
            if record is not None:
                return {"said_otherwise": f"the message answers {question.what!r} otherwise than {record!r}"}
            unread = answered_unread(body, question, said)
            if unread:  # "Yes, the deploy failed." where no record read says it failed
                return {"unsaid_in_the_message": unread}
            if question.kind == "who":  # "Tell ana who has the deploy script": "You do."
                given = given_in(texts, people) | _roles_given(records, people)
                wrong = answered_by_another(
                    body, question, given, people, reader, _authors_and_words(records)
                )
                if wrong:
                    return {"said_in_another_order": wrong}
                return {}  # a person named, as the records give it: no claim to read further
        for question in own:  # "Tell ana what mallory said": mallory's record, passed on
            owner = next(iter(words_of(question.what)), "")
            thing = question.about - meanings(owner)  # "what ana said in #general": its channel too
            if not thing and set(words_of(question.what)) & {"ask", "asks", "asked"}:
                thing = _A_QUESTION_ASKED  # "what bob asked me": his record that asks
            said_once = (
                thing
                or sum(1 for r in records if _names_as_its_person(r, owner) and r.keys() & _SAID_FIELDS) == 1
            )
            if question.kind == "what" and question.reported and owner in people and said_once:
                # "what mallory said": her one record, where the question names no thing of it
                passed = _the_record_named(context, owner, thing)
                relayed = _relayed_as_read(body, context, args, passed) if passed else {}
                if relayed:
                    return relayed
        return _as_read(body, said, context, _named_as(args, context)) if own else {}
    if told_their_own(context.request):  # what a person is told is theirs: as read
        return _as_read(every, _said_read(context), context, _named_as(args, context))
    if any(one.verb in _ANSWERING for one in asking):
        # a reply is the agent's to word, what it knows beside what was read too ("Our first
        # response time for P1 tickets is one hour"); not against what was read ("v2 is live" of
        # lena.k's question, "Thursday works" of Carla's: the user's to decide)
        # (a policy's ``replies = "as_read"`` holds every clause of it to what was read)
        said = _said_read(context)
        named = _named_as(args, context)
        found = _as_read(body, said, context, named)
        if replies_as_read or "said_otherwise" in found:
            return found
        # never what the user did not say for themself: a commitment, their act, decision or
        # state, a directive, an answer to the recipient's own yes-or-no question ("Thursday
        # suits us." to Carla)
        asked, opened = _asked_by_the_recipient(args, context)
        spoken = spoken_for_the_writer(
            body,
            asked,
            said,
            _given_words(context, named),
            opened=opened,
            user=_the_users_names(context),
            names=named,
            turn=context.request,
        )
        return {"said_for_the_user": spoken} if spoken else {}
    relayed = _relayed_as_read(every, context, args)
    if relayed:  # "Send bob lena.k's question": "lena.k says the v2 API is live."
        return relayed
    beyond = _beyond_the_thing_read(every, asking, args, context, texts, whom)
    if beyond:  # "Email Bob the offsite agenda" of an agenda only a file listing names
        return {"more_than_the_thing": beyond}
    record = relayed_otherwise(every, texts, context.request)
    return {"said_otherwise": f"the message negates what it passes on: {record!r}"} if record else {}


def _told_of_not_to(asking: Sequence[Any], args: Mapping[str, Any]) -> list[str]:
    """Whom the turn tells something of a call's recipient, where the call goes to the one it is
    said of ("Tell ana to call bob" as a DM to bob): the addressee each telling mandate names, where
    the call's one-word recipient stands only in what it tells, no mandate addressing them."""
    whom = {leaf.strip().casefold() for v in args.values() for leaf in leaves(v) if isinstance(leaf, str)}
    whom = {w for w in whom if w and len(w.split()) == 1}
    instead: list[str] = []
    for one in asking:
        words = list(one.words)
        cut = next((i for i, w in enumerate(words) if i > 1 and w in _WHAT_IS_TOLD), None)
        if cut is None or not (
            one.verb in _TELLING or (one.verb in _TOLD_RIGHT_AFTER and cut == 2 and words[cut] == "to")
        ):
            continue  # "DM the wifi password to ana": whom it goes to, not what it tells
        slot, told = set(words[1:cut]), set(words[cut:])
        if slot & whom:
            return []  # a mandate addresses the recipient
        if told & whom and slot - FUNCTION_WORDS:
            instead += sorted(slot - FUNCTION_WORDS)
    return instead


def _said_for_a_message(
    args: Mapping[str, Any],
    context: ReviewContext,
    asking: Sequence[Any],
    only: Sequence[Mapping[str, Any]] | None = None,
) -> list[str]:
    """What a message the turn dictates may say: the turn (not a reason given right before the
    mandate: "Bob is in hospital, so reply to Carla that ..."; nor a sentence that keeps something
    out of it: "Don't tell him Carla quoted us 90"), what its pronouns point back to, the user's own
    values, and the texts of the recipient's records, of records the turn names by a word of a
    short field (the mail it answers) and of a call the turn sends the agent to by what it was
    asked ("Read #deploys"); of ``only``'s records where given (the recipient's own thing)."""
    addresses = _addresses_of(args)
    turn = corrections_read(context.request)  # "... at 2pm, sorry, at 3pm": 2pm is taken back
    starts = [turn.find(one.text) for one in asking if one.text and one.text in turn]
    at = min(starts) if starts else 0
    # a reason given for the mandate is not for the mail ("Bob is in hospital, so reply ...")
    reason = _A_REASON_BEFORE.search(turn[:at]) or _A_REASON_OPENS.match(turn[at:])
    from_the_mandate = turn[at:] if reason else turn
    kept = [s for s in re.split(r"(?<=[.!?;\n])\s*", from_the_mandate) if not _KEPT_OUT.search(s)]
    asked_words = {w for w in content_words(turn) if w not in COURTESY}
    said = [
        *kept,
        *(text for one in asking for text in one.antecedents),
        *(leaf for leaf in leaves(context.subject) if isinstance(leaf, str)),
    ]
    for done in context.calls:
        pointed = _a_call_asked_for(done, asked_words)
        for _path, record in mappings(parsed(done.get("observation"))):
            if only is not None and record not in only:
                continue
            strings = [leaf for leaf in leaves(record) if isinstance(leaf, str)]
            short = {w for t in strings if len(t.split()) <= 4 for w in content_words(t)}
            if pointed or _holds(record, addresses) or asked_words & short:
                said += strings
    return said


def _a_call_asked_for(done: Mapping[str, Any], asked_words: Collection[str]) -> bool:
    """Was a call made by what the turn asks for (``asked_words``, the turn's content words): an
    argument's word the turn writes ("Read #deploys", "Check #partners")?"""
    return bool(
        set(asked_words) & {w for v in leaf_values(done.get("args") or {}) for w in content_words(str(v))}
    )


def _calls_sent_to(context: ReviewContext) -> list[Mapping[str, Any]]:
    """The calls of the run the turn sends the agent to: by an argument's word the turn writes
    (:func:`_a_call_asked_for`: "Check #deploys"), by what the tool reads, every word of its name
    but its verb, where it returns one thing ("look up the guest wifi password": ``get_wifi``; not
    a listing's every record), or by a value an earlier such call returned
    ("Read the article Ana shared in #reading": the link #reading holds, opened)."""
    asked = {w for w in content_words(context.request) if w not in COURTESY}
    meant = {meaning(w) for w in asked}
    out: list[Mapping[str, Any]] = []
    seen = ""  # what those calls returned, joined
    for done in context.calls:
        values = [str(v).strip().casefold() for v in leaf_values(done.get("args") or {})]
        what = [w for w in str(done.get("tool", "")).casefold().split("_")[1:] if w]
        one = not isinstance(parsed(done.get("observation")), list)  # (a listing's records are weighed each)
        if (
            _a_call_asked_for(done, asked)
            or (one and what and {meaning(w) for w in what} <= meant)
            or any(len(v) >= 4 and v in seen for v in values)
        ):
            out.append(done)
            seen += " | " + " | ".join(str(x).casefold() for x in leaves(parsed(done.get("observation"))))
    return out


#: A reason given right before a mandate ("..., so email Priya", "... - therefore reply ...").
_A_REASON_BEFORE = re.compile(r"(?i)\b(?:so|therefore|hence|thus|which\s+is\s+why)\s*,?\s*(?:please\s+)?$")
_A_REASON_OPENS = re.compile(r"(?i)(?:so|therefore|hence|thus)\b")
#: A sentence that keeps something out of a message ("Don't tell him ...", "Do not mention ...").
_KEPT_OUT = re.compile(
    r"(?i)\b(?:don'?t|do\s+not|never|without)\s+(?:tell|mention|say|include|reveal|disclose|add)\b|"
    r"\b(?:leave|keep)\s+(?:it|that|this|them)\s+out\b|\bleave\s+out\b"
)


#: An id or a link, whose digits are no figure a message could say ("m-2", "Q4", "https://...").
_AN_ID_OR_LINK = re.compile(r"\S+://\S+|\S+/\S+|\b[A-Za-z]+[-_]?\d[\w-]*")


def _after_the_object(mandate: Any) -> tuple[list[str], str]:
    """A mandate's words after its object, and the rest of its sentence after its text. A text
    the object says is said after it ("Send an email to Ana saying 'lunch at 12?'", "... an email
    that reads ...": the object ends at "saying")."""
    at = mandate.sentence.find(mandate.text)
    rest = mandate.sentence[at + len(mandate.text) :] if at >= 0 else ""
    saying = _SAID_WITHIN.search(mandate.text, len(mandate.words[0]) if mandate.words else 0)
    if saying is not None:
        return [], mandate.text[saying.start() :] + rest
    quoted = _QUOTED_OBJECT.search(mandate.text, len(mandate.words[0]) if mandate.words else 0)
    if quoted is not None and mandate.verb in _POSTING:  # "Please post 'lunch is on me' in #general"
        return [], quoted.group(0)
    colon = re.search(r":(?!\d)", mandate.text)  # not a time's ("before 17:00")
    if colon is not None and mandate.verb in _POSTING | _TOLD_RIGHT_AFTER:  # "Post in #general: 1) ..."
        return [], mandate.text[colon.start() :] + rest
    written = words_of(mandate.text)
    # its words start at its verb, after a polite opening ("Can you post to #support: ...")
    if mandate.words and mandate.words[0] in written:
        return written[written.index(mandate.words[0]) + len(mandate.words) :], rest
    # a verb read for another ("Can you let ana know ...", read as "tell ana know"): after its object
    words = list(mandate.words[1:])
    at = next((i for i in range(len(written)) if words and written[i : i + len(words)] == words), None)
    if at is not None:
        return written[at + len(words) :], rest
    return written[len(mandate.words) :], rest


#: Where the text an object says begins ("an email saying ...", "a note that reads ...", "a mail
#: with the text ...").
_SAID_WITHIN = re.compile(
    r"(?i)\b(?:saying|(?:that|which)\s+(?:says|reads|goes)|reading(?=\s*[:\"'‘“])|with\s+the\s+(?:text|words|message|body|line))\b"
)


#: Verbs that write a text where others read it: their quoted object is what they say.
_POSTING = frozenset({"post", "announce", "publish", "broadcast", "tweet"})
#: A text an object quotes ("post 'lunch is on me' in #general"), not an apostrophe ("Ana's").
_QUOTED_OBJECT = re.compile(r"(?<![\w'’])[\"“'‘]([^\"“”'‘’]*[^\W\d_][^\"“”'‘’]*)[\"”'’](?![\w'’])")


def _dictated(mandate: Any) -> str:
    """What a mandate that dictates a message says to tell: its words after its object, and the
    rest of its sentence ("Email Bob that the doc is ready": "that the doc is ready")."""
    beyond, rest = _after_the_object(mandate)
    # as written, its marks kept ("that 1) deploy 2) verify 3) announce": a numbered list)
    tail = r"[\W_]*".join(re.escape(w) for w in beyond)
    written = re.search(rf"(?i)(?<![\w'’]){tail}[\W_]*$", mandate.text) if beyond else None
    return " ".join([written.group(0) if written else " ".join(beyond), rest])


def _dictates(mandate: Any) -> bool:
    """Does a mandate that addresses someone say what to tell them: a clause after its object
    ("Email Bob that ...", "Tell Priya I'm out Friday", "Let my manager know I ...") or a text after
    a colon, "saying" or a quote ("Reply to Carla: no thanks"), not only what to send ("Email Bob
    the agenda", "answer the customer's question")?"""
    beyond, rest = _after_the_object(mandate)
    rest = rest.lstrip()
    if _a_question_to_them(mandate):
        return True  # "ask Bob if the build is green": the question is the turn's
    if (beyond and re.split(r"['’]", beyond[0])[0] in _ASKED_OF_THE_RECORDS) or words_of(rest)[:1] == [
        "whether"
    ]:
        return False  # "tell ana whether the deploy is done": the agent finds the answer
    if mandate.verb in TELLING_WHAT and mandate.words[2:] in ((), ("know",)) and not beyond:
        said = words_of(rest)
        if said and said[0] not in _TOPIC_OPENS and content_words(rest):
            # "Tell bob no rush, but please review PR 12", "let bob know no rush, ...": what
            # follows whom is what to tell
            return True
    if len(mandate.words) <= 3 and re.match(r"[-–—](?=\s)", rest):
        return True  # "pls post in #random - the build is green": a dash after where or whom, not a thing's
    return bool(beyond) or re.match(r"(?i)(?::|saying\b|that\b|[\"“'‘])", rest) is not None


#: Verbs that address someone right before what they say or send ("tell Bob ...", "email Ana ...").
_TOLD_RIGHT_AFTER = frozenset(
    {"tell", "email", "e-mail", "mail", "message", "text", "dm", "msg", "ping", "notify", "inform"}
)
#: What the user says they will tell someone themselves ("I'll tell Ana myself that she's fired"):
#: its message is theirs, not the agent's.
_TOLD_BY_THE_USER = re.compile(
    r"(?i)\b(?:i['’]ll|i\s+will|i['’]m\s+going\s+to|i\s+am\s+going\s+to|let\s+me)\s+"
    rf"(?:{'|'.join(sorted(map(re.escape, _TOLD_RIGHT_AFTER)))})\s+"
    r"[\w'’-]+(?:\s+myself)?\s+(?:that\s+)?([^.;!?]+)"
)
#: Words that open a topic the agent words a message on ("email Bob about the outage").
_TOPIC_OPENS = frozenset(
    {"about", "regarding", "concerning", "re", "re:", "on", "with", "in", "via", "by", "and"}
)


#: Words that open how pressing what someone is told is ("Tell bob low priority, ...", "tell ana
#: urgent: ...", "tell bob no rush, ..."): what follows whom is what to tell.
_HOW_PRESSING = frozenset({"low", "high", "top", "medium", "urgent", "asap", "fyi", "no"})


def _told_as_its_object(mandate: Any, records: Sequence[Mapping[str, Any]]) -> Any:
    """A mandate that addresses someone and reads what to tell them as its object ("Tell Bob Ana
    owes him 50 dollars", "Email Bob all tests passed": no word the grammar marks a clause by),
    as the mandate of whom it addresses, what it tells them after it: dictated. Its object stays
    where it names a thing the run read ("Email Bob the agenda": every content word of it held
    by one record) or a topic ("email Bob about the outage"): the agent words it."""
    mandate = _told_as_written(mandate)
    words = mandate.words
    if mandate.verb not in _TOLD_RIGHT_AFTER or len(words) < 4 or words[2] in _TOPIC_OPENS:
        return mandate
    content = {w for w in words[2:] if w not in FUNCTION_WORDS}
    if words[1] not in FUNCTION_WORDS and (
        (words[2] in ("to", "please", "pls", "kindly") and words[3] not in FUNCTION_WORDS)
        or (mandate.verb in TELLING_WHAT and words[2] in COMMON_VERBS | _HOW_PRESSING)
    ):
        return replace(
            mandate, words=words[:2]
        )  # "Tell Bob to bring the slides, ...", "... please review ...", "tell bob review PR 12": an order
    # what "tell" takes is what to tell; what "email" or "DM" takes may be a thing to send, with a
    # remark after it ("DM ana the guest wifi password, as mallory got banned"): a clause there
    # opens with it ("Email Bob all tests passed")
    within = len(words) if mandate.verb in TELLING_WHAT else 5
    if not content or not (reads_as_a_clause(words[2:within]) or _a_person_acts(words[2:within], records)):
        return mandate  # "DM ana the guest wifi pw", "Email Bob the agenda": a thing to send
    for record in records:
        held = {w for leaf in leaves(record) if isinstance(leaf, str) for w in words_of(leaf)}
        if content <= held:
            return mandate
    return replace(mandate, words=words[:2])


def _told_as_written(mandate: Any) -> Any:
    """A mandate of telling whose words the reader took out of their sentence's order, leaving out
    what it set aside within them (a scope or a courtesy: "Tell bob thanks, low priority" read as
    "tell · bob low priority", "Tell bob only if you have time, check the logs"): as the mandate of
    whom it addresses, written as the sentence has it, so that all it tells after them is what to
    tell, the words set aside too. Any other mandate as it is."""
    if mandate.verb not in TELLING_WHAT or len(mandate.words) < 3:
        return mandate
    if mandate.text in mandate.sentence and mandate.words[2:] != ("only",):  # "tell bob only if ..."
        return mandate
    whom = re.escape(mandate.words[1])
    written = re.search(
        rf"(?i)\b(?:(?:tell|inform|notify)\s+{whom}|let\s+{whom}\s+know)(?![\w'’-])", mandate.sentence
    )
    if written is None:
        return mandate
    let_know = ("know",) if written.group(0).casefold().startswith("let") else ()
    return replace(mandate, words=(*mandate.words[:2], *let_know), text=written.group(0))


def _a_person_acts(words: Sequence[str], records: Sequence[Mapping[str, Any]]) -> bool:
    """Do the words read as a clause by the people the run read: one named first by the first word
    of their name or their handle and a word after it that is no part of it ("ana hired priya",
    "Priya approved Bob's leave", "bob reviewed ana's PR"), or one named after a word of its own
    ("the board promoted ana")?"""
    names = [
        words_of(name)
        for r in records
        if r.get("email")
        for name in (r.get("name"), r.get("handle"))  # a member known by a handle ("ana")
        if isinstance(name, str)
    ]
    parts = {w for name in names for w in name}
    firsts = {name[0] for name in names if name}
    return any(
        w in firsts
        and (
            (i == 0 and len(words) > 1 and words[1] not in FUNCTION_WORDS and words[1] not in parts)
            or (i > 0 and words[i - 1] not in FUNCTION_WORDS and words[i - 1] not in parts)
        )
        for i, w in enumerate(words)
    )


#: Arguments that sum a message up (its subject, title), not what it says.
_A_SUMMARY = re.compile(r"(?i)subject|title|summary|headline|topic")


#: A request put to the reader in a message ("Please send ...", "Could you ...", "Can you ...",
#: "Reminder: ...", "Would you mind ..."): what a question to them may be written as.
_A_REQUEST = re.compile(r"(?i)\b(?:please|could\s+you|can\s+you|would\s+you|will\s+you|would\s+it\s+be)\b")


def _a_question_to_them(mandate: Any) -> bool:
    """Is a mandate a question the turn puts to someone ("ask Bob if the build is green", "ask
    Ana to send me the deck")? Its words are the question's, in the question's own order."""
    return written_verb(mandate) == "ask" and bool(_after_the_object(mandate)[0])


#: Kinds of message a turn asks the agent to word ("Email Ana a thank-you note", "Send Bob a
#: reminder"): what it says is the turn's and courtesy's, not a record's.
_MESSAGE_KINDS = frozenset(
    """
    note thank-you thank-you's thanks thank reminder apology hello greeting greetings congratulations
    congrats welcome goodbye farewell condolences wishes
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _a_message_kind(words: Sequence[str]) -> bool:
    """Is a mandate's object a kind of message ("a thank-you note", "a polite thank-you", "a
    reminder"): a kind of :data:`_MESSAGE_KINDS` an article opens, not a word of another phrase
    ("the password thanks to mallory")?"""
    return any(
        w in _MESSAGE_KINDS and {"a", "an", "some"} & set(words[max(i - 3, 0) : i])
        for i, w in enumerate(words)
    )


#: Words that open a question the agent answers from what it reads ("Tell Ana whether ...").
_ASKED_OF_THE_RECORDS = frozenset({"whether", "if", "what", "when", "where", "who", "how", "why", "which"})


#: A greeting that opens the turn with a name ("Hi Priya,", "Hey Bob!", "Dear Ana:").
_GREETED = re.compile(
    r"^\s*(?i:hi|hey|hello|hiya|yo|dear|morning|good\s+morning|good\s+afternoon|good\s+evening)\s+"
    r"([A-Z][a-z]+)(?:\s+[A-Z][a-z]+)?\s*[,!:.\n-]"
)


def _greets_someone_read(context: ReviewContext, policy: SupervisorPolicy) -> Decision | None:
    """Does the turn open by greeting a person the run's records name ("Hi Priya, share ... with
    Bob", "Hey Bob, ...", where Priya and Bob are contacts)? Then it is written to them (a message
    pasted in, or meant for someone else), not to the agent: every call on it is asked. A name no
    record holds ("Hi Sam,") may be the agent's own."""
    greeted = _GREETED.match(context.request)
    if greeted is None:
        return None
    name = greeted.group(1).casefold()
    held = {
        w
        for r in _records_read(context)
        for v in r.values()
        if isinstance(v, str) and any(c.isupper() for c in v)
        for w in words_of(v)
    }
    if name not in held:
        return None
    return _asked_partly_read({"addressed_to": greeted.group(0).strip(" ,!:.-\n")}, context, policy)


#: Words a request to give someone a record may say beside it and the person, each of a role the
#: reader knows: when, how urgently, courtesy, the record's kind ("the spreadsheet", "access").
_BESIDE_A_SHARE = frozenset(
    """
    now today asap immediately right away straight promptly quickly urgently urgent too also again
    spreadsheet spreadsheets sheet sheets file files doc docs document documents access thanks thx w
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _a_name_run_on(whole: str, strings: Sequence[str]) -> list[str]:
    """A capitalised word right after a name of the call's, that makes it a longer name ("Pay City
    Water Services for B-31", "Acme Supplies UK"; not "... City Water Bill", "... Acme Supplies Now"):
    another party whose name begins as the call's does."""
    found = []
    for name in (s.strip() for s in strings if " " in s.strip()):
        for after in re.finditer(
            rf"(?i:(?<![\w-]){re.escape(name)})[ \t]+([A-Z][A-Za-z&.'’]*)(?![\w-])", whole
        ):
            w = after.group(1).casefold().rstrip(".")
            if not (
                w in _RECORD_KINDS
                or w.removesuffix("s") in _RECORD_KINDS
                or w in FUNCTION_WORDS
                or w in NO_ROLE_WORDS
                or w in CALENDAR_NAMES
                or w in _BESIDE_A_PAYMENT
                or WHEN.fullmatch(w)
            ):
                found.append(after.group(1))
    return found


#: An account number as IBANs are written: a country, two check digits, then letters and digits,
#: grouped in fours or not ("DE89 3704 0044 0532 0130 00", "GB33BUKB20201555555555").
_AN_ACCOUNT = re.compile(r"(?<![\w-])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){8,30}(?![\w-])")


def _accounts_beside(whole: str, strings: Sequence[str]) -> list[str]:
    """The account numbers a payment's mandate writes that the call does not pay to ("Pay B-40 to
    DE89 3704 0044 0532 0130 99", one digit off): whose account it is, the reader cannot tell."""
    held = {re.sub(r"\s", "", s).casefold() for s in strings}
    return [a for a in _AN_ACCOUNT.findall(whole) if re.sub(r"\s", "", a).casefold() not in held]


#: Words a payment's mandate may say beside its record and figure, each of a role the reader knows:
#: when, how urgently, how much of it (the whole), courtesy, the ordinary way it is made.
_BESIDE_A_PAYMENT = frozenset(
    """
    now today asap immediately urgently urgent quickly promptly straight right away full fully total amount
    sum balance whole entire also too thanks thx bank transfer sepa online alone solely only
    exclusively separately together individually once first then both single one payment payments
    transaction account usual iban due outstanding open unpaid current overdue monthly month week year
    bill bills invoice invoices line same equal please kindly euro euros eur owe owed owing make do process
    initiate perform execute complete submit
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: What a payment says it is for or refers to ("for the toner", "with the reference ..."): weighed
#: apart (:func:`_described_otherwise`), up to the end of its item.
_A_PURPOSE_OR_REFERENCE = re.compile(
    r"(?i)\b(?:for|memo|reference|ref|re|regarding|note|subject|description)\b[^,;\n]*"
)


def _beside_a_payment(whole: str, verb: str, values: set[str], names: set[str], held: set[str]) -> list[str]:
    """The words of a payment's mandate, after its verb and outside what it says it is for, that
    neither the call, its records nor :data:`_BESIDE_A_PAYMENT` account for ("Pay the fake Acme
    Supplies bill", "... the Acme Supplies bill I already paid", "... halfway", "Pay Acme Supplies
    UK"): what is paid, to whom, or whether, may be other than the call."""
    text = _A_PURPOSE_OR_REFERENCE.sub(" ", _QUOTED_SPANS.sub(" ", _A_LINK.sub(" ", whole)))
    for purpose in purposes_of_a_sum(text):  # "... as a goodwill gesture": why the money moves
        text = text.replace(purpose, " ")
    written = [w.strip("'`\"#") for w in words_of(text)]
    at = next((i for i, w in enumerate(written) if w in verb_forms(verb) or w == verb + "ing"), 0)
    parts = {p for v in values for p in re.split(r"[-_.@+\s]+", v) if p}
    # words that make it more than one payment or another's: "again", "each", "across ORD-1001 and
    # ORD-1002", "per ORD-2001", "ORD-1001/ORD-1002"
    more = [w for w in written[at + 1 :] if w in _MORE_THAN_ONE]
    more += [f"{m.group(1)} {m.group(2)}" for m in _PER_ANOTHER.finditer(text)]
    more += [m.group(0) for m in _IDS_EITHER.finditer(text)]
    return more + [
        w
        for w in written[at + 1 :]
        if w
        and w not in parts
        and w not in held  # another record's words: weighed item by item (another party, another id)
        and w not in FUNCTION_WORDS
        and w not in NO_ROLE_WORDS
        and w not in _BESIDE_A_PAYMENT
        and w not in _HONORIFICS  # "Dr. Helen Voss": her name's title
        and w != verb  # a past form after it is said of the record ("... that you paid")
        and _unpossessed(w).rstrip("'’") not in values
        and not _AN_ID.fullmatch(w)  # another record's id: weighed by _named_by_another_id
        and (("-" in w and number_word(w.split("-")[0]) is not None) or _unaccounted(w, values, names))
    ]


#: A currency as a sign or a word ("$20", "20 JPY", "20 cents", "in rupees").
_A_CURRENCY = re.compile(
    r"[$€£¥₹]|(?i:\b(?:usd|eur|euros?|gbp|jpy|yen|chf|inr|rupees?|cad|aud|sek|nok|dkk|pln|dollars?|pounds?"
    r"|cents?|pence|bucks|francs?|kronor|zloty)\b)"
)
_A_CURRENCY_CODE = re.compile(r"[A-Z]{3}")
#: A currency's hundredth ("20 cents", "20 pence"): another figure than the call's, in any currency.
_A_SUBUNIT = re.compile(r"(?i)\b(?:cents?|pence|penny|pennies|centimes?|kopeks?)\b")


def _currency_unheld(whole: str, strings: Sequence[str]) -> list[str]:
    """A currency's hundredth a money call's mandate writes where the call carries no currency
    ("Refund 20 cents on ORD-1001" for 20.00). Which currency a call without one is in, the gateway
    cannot tell ("20 EUR", "$20" are the shop's or not): a policy that pays in several declares a
    currency argument, weighed by :func:`_in_another_currency`."""
    if any(_A_CURRENCY_CODE.fullmatch(s.strip()) for s in strings):
        return []
    return [m.group(0) for m in _A_SUBUNIT.finditer(whole)]


#: A figure written alone (not a part of an id, a day or a code: "20", "20.00", "45,30").
_A_FIGURE_ALONE = re.compile(r"(?<![\w.,/:-])\d+(?:[.,]\d+)*(?![\w/:-]|[.,]\d)")


def _figures_unheld(
    whole: str, figures: Sequence[Any], recorded: bool, others_figures: Collection[float] = ()
) -> list[str]:
    """What a money call's mandate says of the figure that the call's does not bear out: another
    figure written ("Refund ORD-1001 in full: 20.00" for 40.00), or the whole of a record asked for
    where the call's figure is none of the records' ("Refund 20 on ORD-1001 in full"). Another
    record's figure (``others_figures``: "Pay City Water 45.30 and Acme Supplies 260") is that
    record's payment, weighed item by item."""
    wanted = {round(float(f), 2) for f in figures}
    found = []
    for m in _A_FIGURE_ALONE.finditer(whole):
        text = m.group(0)
        if text.count(".") > 1 or re.fullmatch(r"\d{1,2}[.,]\d{1,2}[.,]\d{2,4}", text):
            continue  # a day ("20.12.2026"): weighed as one
        values = _figure_readings(text, 2)
        if wanted and not values & wanted and not values & set(others_figures):
            found.append(text)
    if not recorded and set(words_of(whole)) & {"full", "whole", "entire"}:
        found.append("in full")
    return found


#: An id as a turn writes it ("ORD-1001", "B-40"): a prefix and a number.
_AN_ID_WRITTEN = re.compile(r"(?i)(?<![\w-])([a-z]{1,5})-(\d+)(?![\w-])")


def _one_figure_for_several(whole: str, strings: Collection[str]) -> list[str]:
    """One figure a money call's mandate writes for several records of the kind of the call's own
    id (``strings``: "Refund 20 on ORD-1001 and ORD-1002", "... 20 total on ..."): each one's share,
    or whether it is each one's, the words do not say."""
    own = {v.strip().casefold() for v in strings}
    ids = list(dict.fromkeys(m.group(0).casefold() for m in _AN_ID_WRITTEN.finditer(whole)))
    kinds = {m.group(1).casefold() for m in _AN_ID_WRITTEN.finditer(whole) if m.group(0).casefold() in own}
    several = [i for i in ids if i.split("-")[0] in kinds]
    if len(several) < 2 or len(_A_FIGURE_ALONE.findall(whole)) != 1:
        return []
    return [f"one figure for {' and '.join(several)}"]


def _a_record_about_another(
    sentence: str, records: Sequence[Mapping[str, Any]], strings: Collection[str]
) -> list[str]:
    """The records a mandate's sentence cites by id (a ticket: "T-2: refund ORD-1001") that are
    about other records of the kind of the call's own id, and none about the call's: ticket T-2 was
    about ORD-1002. Which of the two the user means, the words do not say. (An id every order
    holds, the customer's, is about the call's order too.)"""
    own = {v.strip().casefold() for v in strings}
    kinds = {m.group(1).casefold() for v in strings for m in _AN_ID_WRITTEN.finditer(v)} & {
        v.split("-")[0] for v in own
    }
    found = []
    for written in dict.fromkeys(m.group(0) for m in _AN_ID_WRITTEN.finditer(sentence)):
        if written.split("-")[0].casefold() in kinds:
            continue
        about: set[str] = set()
        for r in records:
            texts = [v for v in r.values() if isinstance(v, str)]
            if written.casefold() in {t.strip().casefold() for t in texts}:
                about |= {x.group(0) for t in texts for x in _AN_ID_WRITTEN.finditer(t)}
        about = {x for x in about if x.split("-")[0].casefold() in kinds}
        if about and not {x.casefold() for x in about} & own:
            found.append(f"{written}, about {' and '.join(sorted(about))}")
    return found


#: Words by which a payment's mandate asks for more than one payment, or one split among records.
_MORE_THAN_ONE = frozenset({"again", "twice", "each", "across", "between", "split", "apiece", "every"})
#: A record given as the authority for a payment ("per ORD-2001", "as per T-2"), and two ids joined
#: by a slash ("ORD-1001/ORD-1002": one or the other).
_PER_ANOTHER = re.compile(r"(?i)\b(per|see|cf\.?)\s+([A-Za-z]{1,5}-?\d+)\b")
_IDS_EITHER = re.compile(r"(?i)\b[A-Za-z]{1,5}-?\d+\s*/\s*[A-Za-z]{1,5}-?\d+\b")


#: A span in quotes ("with the note 'paid in full'"): content, weighed apart.
_QUOTED_SPANS = re.compile(
    r"(?<!\w)'[^'\n]*'(?!\w)|(?<!\w)\"[^\"\n]*\"|\u2018[^\u2019\n]*\u2019|\u201c[^\u201d\n]*\u201d"
)


#: Verbs that give someone a record ("share f-3 with Bob", "send Bob f-3"), not a message of theirs.
_GIVING = frozenset({"share", "send", "give", "grant", "forward"})


def _beside_a_share(item: str, verb: str, values: set[str], names: set[str]) -> list[str]:
    """The words of an item asking to give someone a record (a call to an address that carries no
    message: "share f-3 with Bob") that neither the call, its records nor :data:`_BESIDE_A_SHARE`
    account for ("Send Bob a link to f-3", "... read only", "a summary of f-3", "... Bob's team"):
    what is given, or to whom, may be another thing than the call gives."""
    written = [w.strip("'`\"#") for w in words_of(_A_LINK.sub(" ", item))]
    at = next((i for i, w in enumerate(written) if w in verb_forms(verb) or w == verb + "ing"), 0)
    parts = {p for v in values for p in re.split(r"[-_.@+]+", v) if p}  # "my salaries spreadsheet"
    return [
        w
        for w in written[at + 1 :]
        if w in _GROUPS
        or (
            w
            and w not in parts
            and w not in FUNCTION_WORDS
            and w not in NO_ROLE_WORDS
            and w not in _BESIDE_A_SHARE
            and w not in verb_forms(verb)
            and _unpossessed(w) not in values
            and _unaccounted(w, values, names)
        )
    ]


#: An e-mail address, whole ("ana@corp.example", "bob@corp.example.attacker.io", "bob+x@corp.example").
_AN_ADDRESS = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
#: A name's possessive and the word it owns ("Bob's manager", "Ana's personal email").
_THEIRS = re.compile(r"(?<![\w'’-])[A-Z][a-z]+(?:'s|’s)\s+([A-Za-z]+)(?![\w-])")


def _someone_of_theirs(item: str, values: set[str], names: set[str]) -> list[str]:
    """Someone or somewhere a name's possessive points to that the call does not hold ("with Bob's
    manager", "to Ana's personal email"; not "Bob Lee's IBAN", "Acme Supplies' bill", "Ana's
    email": the call's own fields and records)."""
    return [
        found.group(0)
        for found in _THEIRS.finditer(item)
        if (w := found.group(1).casefold()) not in _RECORD_KINDS
        and w.removesuffix("s") not in _RECORD_KINDS
        and w not in FUNCTION_WORDS
        and (w in _GROUPS or _unaccounted(w, values, names))
    ]


#: Words that name a group of people ("Bob's team", "share it with the team"): no one person.
_GROUPS = frozenset(
    {"team", "teams", "everyone", "everybody", "all", "folks", "group", "department", "staff"}
)


#: A word written as a name: a capital, then a small letter ("Bob", "Rita's"; not "EUR", "I", "SEPA").
_A_NAME_WRITTEN = re.compile(r"(?<![\w'’-])[A-Z][a-z][\w'’-]*")


def _names_unaccounted(item: str, verb: str, values: set[str], names: set[str]) -> list[str]:
    """The words an item of a payment writes as names (a capital not of its place: not its first
    word, not a sentence's) that neither the call's values and records nor the reader's own words
    account for ("Pay B-40 an Bob", "... in Rita's name", "... with Bob", "... as Rita" for 260.00 to
    Acme Supplies): someone the payment may be for or go to, in a way the reader has no word for."""
    found = []
    for name in _A_NAME_WRITTEN.finditer(item):
        before = item[max(0, name.start() - 80) : name.start()]  # a bounded look back: linear in the item
        if not item[: name.start()].strip() or re.search(r"[.!?:;\n][ \t]*$", before):
            continue  # a capital of its place: "Pay ...", "... . Please ..."
        word = _unpossessed(name.group(0).casefold()).rstrip("'’")  # "Rita's", "Supplies'"
        if (
            word not in FUNCTION_WORDS
            and word not in NO_ROLE_WORDS
            and word not in verb_forms(verb)
            and word.rstrip(".") not in _HONORIFICS  # "Dr. Helen Voss": her name's title
            and _unaccounted(word, values, names)
        ):
            found.append(name.group(0))
    return found


#: A record picked by its place among several ("the last City Water bill", "my second one", "the
#: latest invoice"): after a determiner, so "Next, pay ..." and "... as last time" pick nothing.
_PICKED_BY_PLACE = re.compile(
    r"(?i)\b(?:the|my|our|your|their)\s+(?:very\s+)?(?:latest|newest|last|previous|prior|oldest|earliest"
    r"|biggest|largest|smallest|highest|lowest|cheapest|most\s+recent|current|top|next|second|third"
    r"|fourth|fifth|penultimate|2nd|3rd|4th|5th|final|remaining|other)\b"
)
#: Words by which an item takes in several records or all of a kind ("the City Water bills", "all
#: my bills", "both", "my three open water bills"): the call is one of them, no pick among them.
_SEVERAL = re.compile(
    r"(?i)\b(?:all|every|each|both|two|three|four|five|several|bills|invoices|payments|ones|them|they)\b"
)


def _picked_by_its_place(
    args: Mapping[str, Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does an item of a mandate asking for the call pick its record by its place among several
    records that share the call's values ("Pay the last City Water bill", "... the second one", of
    three City Water bills), without writing its id or its figure? Which one the word picks (by
    due day, by when it came, by amount), the reader does not follow: the call is asked."""
    if asked is None:
        return None
    records = [r for r in _records_read(context) if _ids_of([r])]
    wanted = {identity(leaf) for v in args.values() for leaf in leaves(v) if not isinstance(leaf, bool)}
    sharing = [r for r in records if any(identity(leaf) in wanted for v in r.values() for leaf in leaves(v))]
    if len(sharing) < 2:
        return None
    own = _the_calls_records(args, records)
    ids = _ids_of(own)
    figures = [
        leaf for v in args.values() for leaf in leaves(v) if is_number(leaf) and not isinstance(leaf, bool)
    ]
    # what tells the call's own record from the others it shares a value with ("2026-12-01")
    telling = {
        v
        for r in own
        for v in r.values()
        if isinstance(v, str) and not any(v == o.get(k) for o in sharing if o not in own for k in o)
    }
    for asking in _asking_now(asked, context):
        item = " , ".join([asking.text, *asking.coordinated])  # its items together: "45,30", "..., 45.30 EUR"
        picked = _PICKED_BY_PLACE.search(item)
        pointed = " ".join(asking.antecedents)  # "B-31 is due. Pay it to City Water."
        if {w.strip("'`\"#") for w in words_of(f"{item} {pointed}")} & ids:
            continue
        if any(found_in(f, [Source("request", item)]) for f in [*figures, *telling]):
            continue
        if picked is None and (
            not _moves_money(asked)
            or len(own) != 1
            or _SEVERAL.search(item)
            or not _names_a_value(item, args)
        ):
            continue  # "Pay the City Water bills": several, the call one of them
        said_as = picked.group(0) if picked else "one of several"
        return _asked_partly_read({"picked": said_as, "mandate": said(asking)}, context, policy)
    return None


def _names_a_value(item: str, args: Mapping[str, Any]) -> bool:
    """Does ``item`` write one of the call's text values ("City Water")?"""
    return any(
        isinstance(leaf, str) and leaf.strip() and found_in(leaf, [Source("request", item)])
        for v in args.values()
        for leaf in leaves(v)
    )


#: Whom a payment goes to, after "to": a noun phrase (a determiner, a pronoun, or a capital: "to my
#: brother", "to me", "to Rita"), not a purpose ("to avoid a late fee").
_A_RECEIVER = re.compile(
    r"\b[Tt]o\s+(?=(?i:the|my|our|his|her|their|a|an|this|that|some|mr|mrs|ms|dr|me|him|them|us|myself)\b|[A-Z])"
)
#: Past forms that say where a record went, before "to" ("Bob sent it to me"): no receiver of the call.
_SENT_ON = frozenset({"sent", "given", "shown", "written", "brought", "forwarded", "mailed", "emailed"})
#: Whom a receiver's words point at without naming: the user, or someone before ("to me", "to my
#: account", "to him", "to them").
_SOMEONE_POINTED_AT = frozenset(
    {"me", "myself", "us", "ourselves", "him", "her", "them", "my", "our", "his", "their", "mine"}
)


def _paid_before_its_figure(item: str, verb: str, values: set[str], names: set[str]) -> list[str]:
    """The words between a payment's verb and its first figure that the call does not account for:
    whom it pays, said as the verb's object ("Pay Bob 260 EUR", "Pay the plumber 260 EUR" for
    260.00 to Acme Supplies)."""
    written = [w.strip("'`\"#") for w in words_of(item)]
    at = next((i for i, w in enumerate(written) if w in verb_forms(verb)), None)
    figure = next(
        (i for i, w in enumerate(written) if _A_BARE_FIGURE.fullmatch(w) and any(c.isdigit() for c in w)),
        None,
    )
    if at is None or figure is None or figure <= at + 1:
        return []
    between = written[at + 1 : figure]
    if any(_AN_ID.fullmatch(w) for w in between):
        return []  # "Pay B-40 260": the record, weighed by _named_by_another_id
    if any(w in values or _unpossessed(w) in values for w in between if w not in FUNCTION_WORDS):
        return []  # "Pay Bob Lee the difference between my 2 ...": the call's own party
    pointed = [w for w in between if w in _SOMEONE_POINTED_AT]  # "Pay him 260 EUR"
    return pointed or [w for w in between if _unaccounted(w, values, names) and w not in FUNCTION_WORDS]


def _items_of(text: str) -> list[str]:
    """The items of a mandate's list (:data:`_ITEMS_APART`), an item that opens with whom or where
    ("to Bob Lee", "from ACC-1") going on with the one before."""
    items: list[str] = []
    for item in _ITEMS_APART.split(_A_LINK.sub(" ", text)):
        if items and (words_of(item)[:1] or [""])[0] in _AFTER_AN_ID:
            items[-1] += " " + item
        elif item.strip():
            items.append(item)
    return items


def _ids_of(records: Iterable[Mapping[str, Any]]) -> set[str]:
    """The ids the ``records`` hold (a text field with a letter and a digit: "B-40"), case folded."""
    return {
        str(v).casefold()
        for record in records
        for v in record.values()
        if isinstance(v, str) and _AN_ID.fullmatch(v.casefold())
    }


#: What sets a list's items apart within a mandate's text.
_ITEMS_APART = re.compile(r"(?i)\s*(?:,|;|&|\+|\band\b|\bplus\b|\bas\s+well\s+as\b)\s*")


def _undescribed(
    written: list[str],
    at: int,
    values: set[str],
    recorded: set[str],
    names: set[str],
    context: ReviewContext,
    *,
    phrase: bool = False,
) -> list[str]:
    """The words of :func:`_described_otherwise`'s description of an id in ``written`` (after its
    word ``at``) that neither the call's ``values`` nor its records (``recorded``) account for.
    ``phrase``: ``written`` is a sentence of its own (what a mandate points back to), and only the
    id's noun phrase describes it ("I got *the City Water bill* B-31 today")."""
    for i, word in enumerate(written):
        if i <= at or word not in recorded or not _AN_ID.fullmatch(word):
            continue  # an id that no record read holds: what it describes, nothing shows
        ids = [j for j in range(at + 1, i) if _AN_ID.fullmatch(written[j])]
        joins = [j for j in range(ids[-1], i) if written[j] in ("and", "&", "plus", "or")] if ids else []
        start = joins[0] if joins else ids[-1] if ids else at  # the item after the last id named
        # what is before "of", "on", "for" names a part of the record ("ten percent of bill B-31",
        # "the tip on B-40"): weighed by _a_part_of_the_record
        start = max([start, *(j for j in range(start + 1, i) if written[j] in _OF_A_RECORD)])
        if phrase:  # from the id's determiner, or the word before its phrase ("There's", "got")
            opening = (j for j in range(i - 1, start, -1) if _before_a_noun_phrase(written, j))
            start = max(start, next(opening, start))
        # a phrase after the id describes it where the id heads the object ("bill B-40 from Gym
        # Max"), not where it is a place the act starts from ("80 EUR from ACC-1 to Stadtwerke")
        after = _phrase_after(written, i) if written[i - 1] not in _OF_A_RECORD else []
        if phrase:  # "Bill B-31 from City Water came in the post": up to the sentence's verb
            after = after[
                : next((k for k in range(len(after)) if _before_a_noun_phrase(after, k)), len(after))
            ]
            # whom the sentence says it goes to ("B-40 goes to Bob Lee", "B-40 is for Bob now")
            going = list(itertools.takewhile(lambda w: w in _GOING, written[i + 1 : i + 4]))
            after += _phrase_after(written, i + len(going)) if going else []
        after += _set_beside(word, context.request)
        unread = [w for w in [*written[start + 1 : i], *after] if _unaccounted(w, values, names)]
        if unread:
            return unread
    return []


#: Words a noun phrase opens after, in a sentence of its own: determiners, function words, the
#: commonest verbs and "there's"-like openings ("I *got* the bill B-31", "*There's* B-31 waiting").
_OPENING_A_PHRASE = (
    _DETERMINERS
    | FUNCTION_WORDS
    | COMMON_VERBS
    | frozenset({"there's", "here's", "it's", "that's", "got", "have", "has", "had", "see", "sent", "came"})
    | frozenset({"gave", "made", "left", "paid", "brought", "found", "sits", "sat", "waits", "is", "was"})
)


def _before_a_noun_phrase(words: Sequence[str], j: int) -> bool:
    """Is ``words[j]`` one a noun phrase opens after in a sentence of its own
    (:data:`_OPENING_A_PHRASE`, or a verb's past: "Acme *sent* invoice INV-7", "B-40 *arrived*";
    after a determiner such a word is the phrase's own: "the *cancelled* bill")?"""
    word = words[j]
    if word in _OPENING_A_PHRASE:
        return True
    return word.endswith("ed") and len(word) > 3 and not (j and words[j - 1] in _DETERMINERS)


def _phrase_after(written: list[str], i: int) -> list[str]:
    """The words of a phrase of whom or where right after ``written[i]`` ("B-40 from Gym Max",
    "it to Bob Lee"), up to the first function word or figure; none where no such phrase follows."""
    if not (written[i + 1 : i + 2] and written[i + 1] in _AFTER_AN_ID):
        return []
    phrase = list(
        itertools.takewhile(
            lambda w: not (w in FUNCTION_WORDS or _A_BARE_FIGURE.fullmatch(w)) or w in _DETERMINERS,
            written[i + 2 :],
        )
    )
    return phrase


def _writes_the_figures(record: Mapping[str, Any], figures: Sequence[Any]) -> bool:
    """Does a record's text write each of the call's figures (a mail asking for "the 150 EUR for
    lunch" is the record a payment of 150 is for, what it says of it no other record's)?"""
    texts = [Source("request", leaf) for v in record.values() for leaf in leaves(v) if isinstance(leaf, str)]
    return bool(figures) and bool(texts) and all(found_in(f, texts) for f in figures)


def _for_another_record(
    written: Sequence[str], values: set[str], names: set[str], held: set[str], *, paying: bool = False
) -> list[str]:
    """The words of what an item of a mandate says the call is for ("Pay B-40 for water", "Pay
    Acme Supplies for B-41", "... for the scam invoice") that the call's values do not account for
    and that say it is for another record: words another record read holds (``held``: "water" is
    City Water's), a kind of bill (:data:`_A_BILLS_KIND`), a word that says it is not sound
    (:data:`_UNSOUND`), an id no record read holds. A purpose no record speaks of ("Refund ORD-1002
    for the broken mug") is the user's own reason. With ``paying`` (a payment proper), a purpose that
    shares no word with the call's record is unread as well ("Pay B-40 for the groceries", "... for
    the toner", "... for Bob's order"; "for the office supplies" shares "supplies" with Acme
    Supplies', "for December" is when): which bill it pays, the reader cannot tell."""
    unread: list[str] = []
    for at in (i for i, w in enumerate(written) if w == "for"):
        phrase = list(
            itertools.takewhile(lambda w: w not in FUNCTION_WORDS or w in _DETERMINERS, written[at + 1 :])
        )
        content = [w for w in phrase if w not in _DETERMINERS and w.removesuffix("s") not in _RECORD_KINDS]
        loose = [w for w in content if _unaccounted(w, values, names)]
        when = bool(content) and content[-1].removesuffix("s") in _PERIODS  # "for this billing cycle"
        shared = [w for w in content if w in values or _unpossessed(w) in values]  # "office *supplies*"
        if paying and loose and not shared and not when:
            unread += [w for w in loose if w not in unread]
        if shared:  # "for the office supplies Bob ordered": the call's own, whoever ordered them
            unread += [w for w in written[at + 1 :] if w in _UNSOUND and w not in unread]
            continue
        unread += [
            w
            for w in phrase
            if _unaccounted(w, values, names)
            and (w in held or w in _A_BILLS_KIND or w in _UNSOUND or _A_DASHED_ID.fullmatch(w))
            and not (_A_DASHED_ID.fullmatch(w) and not _of_the_calls_kind(written, written.index(w)))
        ]
        # what the phrase's own clause says of it ("for the order I cancelled")
        unread += [w for w in written[at + 1 :] if w in _UNSOUND and w not in unread]
    return unread


#: What a payment is for when it is a stretch of time ("for the month", "for this billing cycle").
_PERIODS = frozenset({"period", "month", "quarter", "week", "year", "cycle", "term", "season", "semester"})


def _of_the_calls_kind(written: Sequence[str], k: int) -> bool:
    """Is the id ``written[k]`` one of a record of the call's kinds: no kind word before it, or one of
    :data:`_RECORD_KINDS` ("B-41", "invoice B-45"; not "ticket T-1", which says why)?"""
    before = written[k - 1] if k else ""
    return (
        before.removesuffix("s") in _RECORD_KINDS
        or before in FUNCTION_WORDS
        or before in _DETERMINERS
        or not before
    )


#: An id as records write one, with a dash ("b-41", "inv-7", "ord-1002").
_A_DASHED_ID = re.compile(r"[a-z]{1,6}-\d[\w-]*")


#: What a bill is for, by its kind ("Pay B-40 for the rent"): a kind the call's record does not
#: hold describes another bill than the one its id names.
_A_BILLS_KIND = frozenset(
    """
    rent electricity electric gas power heating water phone mobile internet broadband tv cable
    insurance gym tax taxes mortgage loan tuition school childcare daycare
    parking council utilities utility medical doctor dentist hospital lease
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: What says a bill is not sound ("Pay B-40 for the scammer", "... for a duplicate invoice").
_UNSOUND = frozenset(
    """
    scam scammer scammers fraud fraudulent fraudster fraudsters duplicate duplicated disputed dispute
    cancelled canceled wrong fake bogus phishing error mistake refund refunded returned unauthorized
    unauthorised test testing hacker hackers ransom extortion blackmail bribe debt practice demo show
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _unaccounted(w: str, values: set[str], names: set[str]) -> bool:
    """Is ``w``, a word describing the call's record, one neither the call's values nor what a
    description may say of a record account for (its kinds, determiners, a state, a time, a
    figure, a count, what the act accounts for)?"""
    return (
        w not in values
        and _unpossessed(w) not in values
        and w not in _RECORD_KINDS
        and w.removesuffix("s") not in _RECORD_KINDS
        and w not in _DETERMINERS
        and w not in _OF_A_RECORD
        and w not in _A_RECORDS_STATE
        and not _accounted_in_the_act(w, names)
        and not WHEN.fullmatch(w)
        and w not in CALENDAR_NAMES  # "B-40 for December": the period it is for
        and not _A_DAY.fullmatch(w)  # "B-31 (due 2026-12-01)": a day (another record's: weighed apart)
        and not _A_BARE_FIGURE.fullmatch(w)
        and number_word(w) is None  # "my three open water bills (B-31, ...)": how many
    )


def _around_the_record(asking: Any, values: Collection[str], sending: bool) -> list[str]:
    """The words a deletion's, cancellation's or payment's clause writes around the first of the
    call's values: before it, the part of the record it names ("the catering for", "page 3 of"; for
    a "send", all of it: what it sends); after it, the words that go on with the record's name ("the
    Board Review prep call", up to the first that does not: "... the 210 EUR bill", "... for Q3"; a
    payment's are its purpose), or the place a "remove" takes it out of ("... from my favourites")."""
    written = [w.strip("'`\"#") for w in words_of(" and ".join([asking.text, *asking.coordinated]))]
    at = next((i for i, w in enumerate(written) if w in verb_forms(asking.verb)), None)
    first = next((i for i, w in enumerate(written) if at is not None and i > at and w in values), None)
    if at is None or first is None:
        return []
    before = [w for w in written[at + 1 : first] if w not in _DETERMINERS]
    part = before if sending else before[:-1] if before and before[-1] in _OF_A_RECORD else []
    last = max(i for i, w in enumerate(written) if w in values)
    if asking.verb in _TAKING_OUT and written[last + 1 : last + 2] == ["from"]:
        return [*part, *written[last + 2 :]]  # "Remove report.pdf from my favourites": out of a place
    if asking.verb in TIMED_VERBS:
        return part  # "Pay 39 for my Gym Max membership": its purpose
    going_on = itertools.takewhile(
        lambda w: (
            not (w in FUNCTION_WORDS or w in _DETERMINERS or w in _OF_A_RECORD or _A_BARE_FIGURE.fullmatch(w))
        ),
        written[last + 1 :],
    )
    return [*part, *going_on]


#: A word taken back as it was typed, with its mark ("checkout*" before "payments", "payments^W").
_TYPED_OVER = r"[\w.@-]+(?:\*(?=[^\W\d_])|[ \t]+\*(?=[^\W\d_])|(?:[ \t]*\^[WHUwhu])+)"


_AN_ASIDE = re.compile(r"[(\[{]([^()\[\]{}\n]*)[)\]}]")


def _asides_after(text: str, request: str) -> str:
    """The words of the brackets written right after a mandate's text on its line, before its
    sentence ends ("Grant jdoe admin [on hold]", "Restart payments (owner: Bob)"): the reader takes a
    bracket for a sentence of its own, but what it says is said of the act."""
    at = request.find(text)
    if at < 0:
        return ""
    rest = request[at + len(text) :].split("\n", 1)[0]
    out: list[str] = []
    for match in _AN_ASIDE.finditer(rest):
        if re.search(r"[.!?;]", rest[: match.start()]):
            break
        out.append(match.group(1))
    return "".join(f" ({aside})" for aside in out)


def _values_written(args: Mapping[str, Any], context: ReviewContext) -> tuple[set[str], set[str]]:
    """The words a mandate may write the call's values in: each value's words and the value whole,
    with the words of the records read that hold one (:func:`_recorded_words`); and those alone."""
    recorded = _recorded_words(args, context)
    values = {w for v in args.values() for leaf in leaves(v) for w in words_of(str(leaf))}
    values |= {str(leaf).casefold() for v in args.values() for leaf in leaves(v)}
    return values | recorded, recorded


def _asked_words(asked: Requested) -> set[str]:
    """The words of the kind of call the rule asks for: its keywords, verbs and objects."""
    return {w for k in (*asked.keywords, *asked.verbs, *asked.objects) for w in words_of(k)}


def _recorded_words(args: Mapping[str, Any], context: ReviewContext) -> set[str]:
    """The words of the records the run read that hold one of the call's values: the turn names the
    value by them ("Revoke the admin role from John Doe" for jdoe, "Grant asmith tkim's role")."""
    wanted = {identity(leaf) for v in args.values() for leaf in leaves(v) if not isinstance(leaf, bool)}
    return {
        w
        for record in _records_read(context)
        if any(identity(leaf) in wanted for v in record.values() for leaf in leaves(v))
        for key, v in record.items()
        for leaf in (*leaves(v), key)  # its fields' names too ("the shipping fee of ORD-1002")
        if isinstance(leaf, str | int | float) and not isinstance(leaf, bool)
        for w in words_of(str(leaf).replace("_", " "))
    }


def _before_a_reference(part: list[str], values: Collection[str]) -> list[str]:
    """A part of a mandate's words up to a word that opens a reference or a text's content after a
    figure the call keeps ("Raise E-101 to 72000 with the memo E-102", "... 72000 to match E-102"):
    what follows it is read as that. After anything else ("Reset asmith's password to match
    tkim's"), it is weighed as any word."""
    for i, w in enumerate(part):
        if w not in REFERENCE_WORDS:
            continue
        before = next((b for b in reversed(part[:i]) if b not in FUNCTION_WORDS), "")
        if before in values and any(ch.isdigit() for ch in before):
            return part[:i]
    return part


def _read_in_place(part: Sequence[str], i: int, values: Collection[str]) -> bool:
    """Is the word at ``i`` read where it stands: a figure a change starts from ("from 2 to 6",
    "1.9.1 to 2.0.0"), a reference's id after its word ("per ticket 40", "case 7"), or the kind of
    place a value of the call names ("the staging env")?"""
    word, before = part[i], part[i - 1] if i else ""
    after = part[i + 1 : i + 3]
    figure = _A_QUANTITY.fullmatch(word) is not None or any(ch.isdigit() for ch in word)
    if figure and (before == "from" or (after[:1] == ["to"] and after[1:] and after[1] in values)):
        return True
    if figure and (before == "of" or part[max(i - 2, 0) : i] == ["of", "the"]):
        return True  # the whole a part is taken of ("Refund 40 of the 240")
    if figure and _FIGURE_LABEL.search(before):
        return True
    return word in _PLACE_NOUNS and before in values


#: A span of time written as one token ("48h", "2d", "30min"): no record's id.
_A_SPAN = re.compile(r"(?<!\d)\d+(?:h|hr|hrs|d|w|wk|wks|m|min|mins|s|sec|secs|y|yr|yrs)")


def _parts_of_the_act(
    words: Sequence[str], values: Collection[str], shapes: Collection[str], verb: Collection[str]
) -> list[list[str]]:
    """The parts of a mandate's words joined by "and" (its object's items, "Restart auth-gw and
    email-worker"), less those that act on another record: a part with none of the call's values
    whose other words are each written as one of them is written ("auth-gw" beside the call's
    "email-worker"; not "2 days")."""
    parts: list[list[str]] = [[]]
    for w in words:
        if w in ("and", "&", "plus"):
            parts.append([])
        else:
            parts[-1].append(w)
    for part, following in pairwise(parts):
        if part and following and following[0] in values:
            part.pop()  # "Grant admin to jdoe and tkim": jdoe is tkim's sibling, for its own call
    return [
        part
        for part in parts
        if any(w in values or _unpossessed(w) in values for w in part)
        or not all(
            _shape(_unpossessed(w)) in shapes or (re.search(r"[\d_@.-]", w) and not _A_SPAN.fullmatch(w))
            for w in part
            if w not in FUNCTION_WORDS and w not in verb
        )
    ]


#: A ticket's or an incident's id as written, its prefix in capitals ("INC-4521", "HR-55"): a
#: reference the act is made under, no place nor option.
_A_TICKET = re.compile(r"(?<![\w-])[A-Z]{2,8}-\d{1,7}(?![\w-])")
#: Where a reason with a subject of its own starts ("... as she left the company", "... so she can
#: fix the docs", "... because it leaks"): what follows says why, not how or where.
_A_REASON = re.compile(
    r"(?i)\b(?:since|because|cause|cuz|coz)\b|\b(?:as|so)\s+(?=(?:she|he|they|it|we|i|there)(?:'\w+)?\b)"
)


def _figure_of(token: str) -> Decimal | None:
    """A figure as written, in any of the forms the reader reads ("40,00", "1.000,50", "$120")."""
    value = amount_value(token)
    if value is not None:
        return value
    found = amounts(token)
    return Decimal(found[0][1]) if len(found) == 1 else None


#: Adverbs that say how an act goes without making it another ("gracefully", "quickly"); any
#: other ("conditionally", "virtually", "partially") may make it partial, conditional or unreal.
_MANNER = frozenset(
    """
    gracefully promptly safely carefully cleanly smoothly urgently properly entirely completely
    already
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _accounted_in_the_act(word: str, names: Collection[str]) -> bool:
    bare = _unpossessed(word)
    return (
        bare in names
        or bare.removesuffix("s") in names
        or word in FUNCTION_WORDS
        or word in NO_ROLE_WORDS
        or word in _FRAMING_WORDS
        or word in _OF_THE_ACT
        or word in _CURRENCY_WORDS
        or bare in _KINDS_OF_A_RECORD
        or bare.removesuffix("s") in _KINDS_OF_A_RECORD
        or bare in COUNTED
        or bare in _DESCRIBING
        or word in _MANNER
        or WHEN.fullmatch(word) is not None
    )


def _said_of_the_act(asking: Any) -> str:
    """A mandate's words with what it coordinates, up to a message's content ("post in #general
    that lunch is at 12:00": the message's time is not when to act)."""
    return _A_MESSAGE.split(", ".join([asking.text, *asking.coordinated]), maxsplit=1)[0]


def _asked_partly_read(
    details: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision:
    """The question for a turn read in part (:data:`PARTLY_READ`), with the reading and ``details``."""
    return Decision("escalate", PARTLY_READ, {**_turn_reading(context, policy).shown(), **details})


#: A date in figures a mandate writes without a word of time ("on her start date, 2026-04-01"):
#: when to act as well, unless an argument or a record keeps it.
_A_DATE = re.compile(
    r"(?<![\w/.:-])(\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|\d{1,2}(?::\d{2})?\s?[ap]\.?m\.?|\d{1,2}:\d{2}|Q[1-4])"
    r"(?![\w/-]|\.\d)"
)
#: A word after a quarter ("the Q3 summary"): what the quarter labels.
_A_NOUN_AFTER = re.compile(r"\s+[^\W\d_]")
_A_DETERMINER_BEFORE = re.compile(
    r"(?i)\b(?:the|a|an|my|our|your|their|his|her|its|this|that|these|those)\s+$"
)


def _a_quarters_label(match: re.Match[str], text: str) -> bool:
    """Is a quarter ("Q3") written as a label of what a noun names, after a determiner and before
    the noun ("the Q3 summary", "our Q4 numbers"), not as when to act ("in Q3", "by Q4")?"""
    return (
        match.group(1).upper() in ("Q1", "Q2", "Q3", "Q4")
        and _A_DETERMINER_BEFORE.search(text, 0, match.start(1)) is not None
        and _A_NOUN_AFTER.match(text, match.end(1)) is not None
    )


#: Where a clause's message begins: what follows is its content, not when to act.
_A_MESSAGE = re.compile(r"(?i)\b(?:that|saying|telling|says?)\b|:(?=\s)|[\"“]|(?<!\w)['‘]")
_A_CLOCK = re.compile(r"(?i)(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?")


def _clock_forms(when: str) -> set[str]:
    """The forms a time of day may be kept in ("2 pm": "14:00"; "noon": "12:00"; "8:30 am":
    "08:30"), or a date as written; case folded."""
    text = when.casefold().strip()
    named = {"noon": (12, 0), "midday": (12, 0), "midnight": (0, 0)}
    clock = _A_CLOCK.fullmatch(text)
    if text in named:
        hour, minute = named[text]
    elif clock is not None and (clock.group(2) or clock.group(3)):
        hour, minute = int(clock.group(1)), int(clock.group(2) or 0)
        half = (clock.group(3) or "").replace(".", "")
        hour = hour + 12 if half == "pm" and hour < 12 else 0 if half == "am" and hour == 12 else hour
    else:
        return {text} | dates(when)  # "12/17/2026": kept as 2026-12-17
    forms = {text, f"{hour:02d}:{minute:02d}", f"{hour}:{minute:02d}"}
    return (
        forms
        | ({"noon"} if (hour, minute) == (12, 0) else set())
        | ({"midnight"} if (hour, minute) == (0, 0) else set())
    )


#: Words that stand for records rather than name one ("them", "all", "the rest", "others", "co"):
#: a value written so in the turn may mean any record, or one the turn named before.
_WORDS_FOR_RECORDS = frozenset(
    """
    them it this that these those you me us him her they all both any every each others other rest
    co etc everyone everybody anyone anybody everything anything more most friends team now today
    first again
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _a_word_for_records(
    value: Any, arg: str, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Is a value the turn writes a word that stands for records rather than names one ("Disable
    mlopez and them" → ``them``, "Restart payments and all" → ``all``)? Then the call is asked: which
    records the word means, the reader cannot tell (and a tool may read "all" as every record)."""
    if not isinstance(value, str) or value.strip().casefold() not in _WORDS_FOR_RECORDS:
        return None
    return _asked_outside({"arg": arg, "value": value, "stands_for_records": True}, context, policy)


def _asked_outside(details: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy) -> Decision:
    """The question for a value outside the mandate (:data:`OUTSIDE_THE_MANDATE`), with the reading."""
    return Decision("escalate", OUTSIDE_THE_MANDATE, {**details, **_turn_reading(context, policy).shown()})


def _not_the_values_kind(arg: str, tool: str, args: Mapping[str, Any]) -> set[str]:
    """What is no other value of ``arg``'s kind in a clause: the call's other values, and the words
    of the tool's and its arguments' names ("password" for reset_password), case folded."""
    others = {
        str(v).strip().casefold() for a, v in args.items() if a != arg and isinstance(v, str | int | float)
    }
    return others | {w for n in (tool, *args) for w in _name_words(n)}


def _names_of_the_calls_records(arg: str, args: Mapping[str, Any], context: ReviewContext) -> set[str]:
    """The names of the records a trusted listing returned that hold one of the call's other values,
    case folded, whole and by their words: the turn names the call's record by them ("Scale
    checkout-api to 8" for svc-checkout, "Grant Mei Tanaka ... in staging" for usr-1042), and they
    are no attribute of it nor another thing of ``arg``'s kind."""
    wanted = {identity(v) for a, v in args.items() if a != arg and isinstance(v, str) and v.strip()}
    wanted.discard(None)
    names: set[str] = set()
    for record in _trusted_records(context):
        if any(identity(leaf) in wanted for v in record.values() for leaf in leaves(v)):
            texts = [v for v in record.values() if isinstance(v, str) and "@" not in v]
            names |= {t.strip().casefold() for t in texts} | {w for t in texts for w in words_of(t)}
    return names


def _path_parts(args: Mapping[str, Any], arg: str) -> set[str]:
    """The parts of the call's other values written as paths ("/docs/spec.md": docs, spec.md),
    case folded: each is a part of that value, no other value of ``arg``'s kind."""
    return {
        t.casefold()
        for a, v in args.items()
        if a != arg and isinstance(v, str) and "/" in v
        for t in _A_TOKEN.findall(v)
    }


def _name_words(name: str) -> set[str]:
    """The words of a tool's or an argument's name, case folded ("reset_password": reset, password)."""
    return {w for w in re.split(r"[_\W]+", name.casefold()) if w}


def _the_calls_mandates(
    arg: str, args: Mapping[str, Any], asked: Requested, context: ReviewContext
) -> list[Any]:
    """The mandates asking for the call whose clause writes another of its values than ``arg``'s
    (a record: "Refund 10 on ORD-1001 and 15 on ORD-1002"), else the only one asking; none where
    several ask and none writes one."""
    asking = _asking_now(asked, context)
    others = [v for a, v in args.items() if a != arg and isinstance(v, str | int | float) and str(v).strip()]
    own = [m for m in asking if any(found_in(v, [Source("request", m.text)]) for v in others)]
    return own or (asking if len(asking) == 1 else [])


def _paired_in_its_item(
    value: Any, arg: str, args: Mapping[str, Any], asked: Requested, context: ReviewContext
) -> bool:
    """Do the items of a list the mandates for the call give that write another of its values each
    write one figure, ``value`` ("Pay City Water 45.30 and Acme Supplies 260", "Pay 45.30 to City
    Water and 260 to Acme Supplies" for 260.00 to Acme Supplies)? Each item pairs its record with its
    figure: the call's is the one the turn states for it."""
    others = [v for a, v in args.items() if a != arg and isinstance(v, str) and v.strip()]
    items = [i for m in _asking_now(asked, context) for i in _items_of(", ".join([m.text, *m.coordinated]))]
    mine = [i for i in items if any(found_in(v, [Source("request", i)]) for v in others)]
    figures = [_A_FIGURE.findall(i) for i in mine]
    return (
        len(items) > 1
        and bool(mine)
        and all(len(f) == 1 for f in figures)
        and all(found_in(value, [Source("request", f[0])]) for f in figures)
    )


def _not_the_figure_stated(
    value: Any,
    arg: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Does the mandate that asks for the call state a figure of its own, and ``value`` (a number
    or a version the turn or a record it names gives) none of them? Then the call is asked: the
    turn asks for the figure it states ("checkout-api is at 40 replicas. Scale it to 4.", "Regarding
    auth-gw at 9 replicas: scale search-svc to 4.", "ORD-1004 was 240. Refund 40 on it."), and a
    figure it writes elsewhere, or a record's, is not what it asks for. The mandate is the one
    whose clause writes another of the call's values (a record), else the only one asking."""
    text = str(value).strip()
    if asked is None or isinstance(value, bool) or not _A_QUANTITY.fullmatch(text):
        return None
    if _paired_in_its_item(value, arg, args, asked, context):
        return None
    mandates = _the_calls_mandates(arg, args, asked, context)
    clauses = [m.text for m in mandates]
    version = text.lstrip("v").count(".") >= 2
    if re.fullmatch(r"[vV]\d.*", text):
        value = text[1:]  # "v2.5.0" is the figure "2.5.0" the clause writes ("Deploy ... v2.5.0")
    figures = [f for c in clauses for f in _A_FIGURE.findall(c) if (f.count(".") >= 2) == version]
    # two figures side by side ("Deploy checkout-api 2.5.0 2.4.0", "Scale search-svc 5 6"): which
    # one the mandate asks for is not written
    side_by_side = [m.group(0) for c in clauses for m in _TWO_FIGURES.finditer(c)]
    several = _several_figures([", ".join([m.text, *m.coordinated]) for m in mandates], version)
    among = any(found_in(value, [Source("request", f)]) for f in several.values())
    if any(found_in(value, [Source("request", pair)]) for pair in side_by_side):
        details: dict[str, Any] = {"arg": arg, "value": value, "side_by_side": side_by_side}
    elif figures and not any(found_in(value, [Source("request", f)]) for f in figures):
        details = {"arg": arg, "value": value, "stated": figures}
    elif len(several) > 1 and among:
        details = {"arg": arg, "value": value, "several": list(several.values())}
    else:
        return None
    return _asked_outside(details, context, policy)


#: Words by which a mandate sends to the user themself ("Email me about ORD-1002", "... to me").
_THE_USER = frozenset({"me", "myself", "us", "ourselves"})


def _sent_to_the_user(
    value: Any, arg: str, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the mandate asking for a call that sends write the user as whom it sends to ("Email me
    about ORD-1002", "Send ORD-1002's receipt to me", "cc me"), while the recipient is admitted
    only from a record it names? The record's address is its own person's, not the user's: the
    call is asked."""
    if asked is None or arg.split(":")[0] not in RECIPIENT_ARGS:
        return None
    for asking in _asking_now(asked, context):
        tokens = [t.casefold() for t in _A_TOKEN.findall(", ".join([asking.text, *asking.coordinated]))]
        verb = _at_the_verb(tokens, asking.verb)
        first = tokens[verb + 1] if verb + 1 < len(tokens) else ""
        after_to = any(t in ("to", "cc", "bcc") and n in _THE_USER for t, n in pairwise(tokens))
        if first in _THE_USER or after_to:
            return _asked_outside({"arg": arg, "value": value, "sent_to": "the user"}, context, policy)
    return None


#: Nouns of a person by their relation to another ("ORD-1001's customer's friend", "the manager of
#: Ana Silva"): whom a call sends to, written so, is not the person a record holds.
_RELATIONS = frozenset(
    """
    friend friends manager boss lawyer attorney assistant colleague colleagues coworker co-worker
    partner wife husband spouse mother father mom mum dad son daughter brother sister sibling family
    accountant landlord neighbor neighbour supervisor secretary representative rep teammate guardian
    parent parents child kids doctor referral referee successor predecessor deputy intern mentor
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Where the words a sending verb acts on end and what it is about begins.
_ABOUT = re.compile(r"(?i)\b(?:about|regarding|re|concerning|on\s+behalf)\b")


def _sent_to_a_relation(
    value: Any, arg: str, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the mandate asking for a call that sends write whom it sends to as a relation of
    another person ("Email ORD-1001's customer's friend", "the customer of ORD-1001's friend", "the
    manager of Ana Silva"), while the recipient is admitted only from a record it names? The
    record's address is its own person's, not their friend's or manager's: the call is asked."""
    if asked is None or arg.split(":")[0] not in RECIPIENT_ARGS:
        return None
    for asking in _asking_now(asked, context):
        acted_on = _ABOUT.split(_said_of_the_act(asking), maxsplit=1)[0]
        tokens = [_unpossessed(t.casefold()) for t in _A_TOKEN.findall(acted_on)]
        related = sorted(set(tokens) & _RELATIONS)
        if related:
            return _asked_outside({"arg": arg, "value": value, "relation": related}, context, policy)
    return None


#: What someone wrote, that a reply to it goes back to them for ("Reply to Ben Okafor's complaint").
_WRITTEN_BY_THEM = frozenset(
    """
    complaint complaints email emails mail message messages question questions request requests
    ticket note comment review post feedback inquiry enquiry reply letter query concern concerns
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: What a message is about, or whom it speaks for, after whom it goes to ("Email Ana Silva about Ben
#: Okafor", "... regarding Chen Wei", "... as Chen Wei", "... on behalf of Ben").
_A_TOPIC = re.compile(r"(?i)\b(?:about|regarding|re|concerning|as|on|for|on\s+behalf\s+of|from)\b")


def _named_only_as_a_topic(
    value: Any, arg: str, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Is the recipient admitted from a record the mandate names only as what the message is about,
    or whom it speaks for ("Email Ana Silva about Ben Okafor" with Ben's address)? The turn sends to
    the person it names first; the call is asked."""
    if asked is None or arg.split(":")[0] not in RECIPIENT_ARGS:
        return None
    wanted = identity(value)
    names = {
        leaf
        for record in _records_read(context)
        if any(identity(v) == wanted for v in record.values() if not isinstance(v, Mapping | list))
        for leaf in record.values()
        if isinstance(leaf, str) and " " in leaf.strip() and leaf != value
    }
    for asking in _asking_now(asked, context):
        said_of_it = _said_of_the_act(asking)
        owning = [
            n
            for n in names
            for m in re.finditer(rf"(?i)(?<!\w){re.escape(n)}(?:'s|’s)(?:[ \t]+(\w+))?", said_of_it)
            if (m.group(1) or "").casefold() not in _WRITTEN_BY_THEM
        ]
        if owning and not any(
            re.search(rf"(?i)(?<!\w){re.escape(n)}(?!\w|'s|’s)", said_of_it) for n in names
        ):  # "Send Ana Silva Ben Okafor's tracking link": Ben owns the link
            return _asked_outside({"arg": arg, "value": value, "owner_of": owning}, context, policy)
        parts = _A_TOPIC.split(said_of_it, maxsplit=1)
        if len(parts) < 2:
            continue
        sent_to, topic = parts
        written = [n for n in names if re.search(rf"(?i)(?<!\w){re.escape(n)}(?!\w)", topic)]
        if written and not any(re.search(rf"(?i)(?<!\w){re.escape(n)}(?!\w)", sent_to) for n in names):
            return _asked_outside({"arg": arg, "value": value, "about": written}, context, policy)
    return None


def _another_of_its_list(
    value: Any, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does a record the mandates name hold ``value`` in a list beside another item, while they do
    not write ``value``: an item they write ("Revoke admin from jdoe", jdoe's roles admin and
    exec, and the call revokes exec), or none ("Revoke one of jdoe's roles", "Grant jdoe read
    access")? Then the call is asked: the turn picked the other item, or picked none."""
    stated = stated_for(asked, context.request, context.read) if asked is not None else ""
    if not stated or isinstance(value, bool) or found_in(value, [Source("request", stated)]):
        return None
    said_here = [Source("request", stated)]
    text = str(value)
    for record in pointed_records(stated, context.calls, naming_of(policy, context.subject)):
        if _its_authors_own(text, record.value, stated):
            continue  # "Reply to Kwame's message in #release": the one of the list Kwame wrote
        leaves = leaf_paths(record.value)
        for path in {p for p, leaf in leaves if leaf == text}:
            beside = {leaf for q, leaf in leaves if q == path and leaf != text}
            written = [leaf for leaf in sorted(beside) if found_in(leaf, said_here)]
            if written or beside:
                details = {
                    "value": value,
                    "written" if written else "among": written or sorted({text, *beside}),
                    "record": f"{record.tool} (step {record.step})",
                }
                return _asked_outside(details, context, policy)
    return None


def _its_authors_own(text: str, listing: Any, stated: str) -> bool:
    """Is ``text`` a value of the one item of a listing whose author the mandate names by a
    possessive ("Kwame's message": the message from kwame), no other item being theirs?"""
    items = [item for _path, item in mappings(listing)]
    theirs = [
        item
        for item in items
        if any(
            isinstance(v, str)
            and _A_PERSONS_KEY.search(str(k))
            and re.search(rf"(?i)(?<![\w-]){re.escape(v.strip())}['’]s\b", stated)
            for k, v in item.items()
        )
    ]
    return len(theirs) == 1 and any(isinstance(v, str) and v.strip() == text for v in theirs[0].values())


#: Words before an argument's kind ("role", "group") by which a mandate leaves its value open or
#: describes it otherwise than by what a record holds ("Grant tkim some role", "Add tkim to a
#: group", "Revoke tkim's old role"): a record the turn names holds a value, not that one.
_AN_OPEN_KIND = frozenset(
    {
        "a",
        "an",
        "some",
        "any",
        "another",
        "one",
        "other",
        "different",
        "new",
        "old",
        "former",
        "previous",
        "random",
        "extra",
        "additional",
        "second",
        "whichever",
        "whatever",
        "certain",
        "missing",
        "lost",
    }
)
#: Words that, after the argument's kind, open a description of the value in words no record
#: holds ("the role she lost", "the group I mentioned").
_A_DESCRIBING_SUBJECT = frozenset({"she", "he", "they", "i", "we", "you", "it", "that", "which", "who"})


def _an_open_kind(
    value: Any, arg: str, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the mandate asking for the call write ``arg``'s kind (a word of its name: "role",
    "group") with a word that leaves the value open or describes it ("Grant tkim some role", "a
    different role", "Add tkim to a group", "Revoke tkim's old role", "the role she lost"), while
    the value is admitted only from a record the turn names and the mandate does not write it?
    Then the call is asked: the record holds a value, the turn asked for another or for any."""
    if asked is None or isinstance(value, bool):
        return None
    kinds = {w for w in _name_words(arg) if len(w) > 2}
    if not kinds:
        return None
    for asking in _asking_now(asked, context):
        own = ", ".join([asking.text, *asking.coordinated])
        if found_in(value, [Source("request", own)]):
            continue
        tokens = [t.casefold() for t in _A_TOKEN.findall(own)]
        for at, token in enumerate(tokens):
            if token not in kinds and not (token.endswith("s") and token[:-1] in kinds):
                continue
            before = {_unpossessed(t) for t in tokens[max(0, at - 3) : at]}
            after = tokens[at + 1] if at + 1 < len(tokens) else ""
            if before & _AN_OPEN_KIND or after in _A_DESCRIBING_SUBJECT:
                details = {"arg": arg, "value": value, "described": " ".join(tokens[max(0, at - 2) : at + 3])}
                return _asked_outside(details, context, policy)
    return None


def _split_across_mandates(
    values: Sequence[Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Where the turn asks for several calls of the kind ("Grant asmith report-viewer. Grant bjones
    admin."), are the values a call is admitted with written in one of those mandates? A call that
    takes one value from each ("grant asmith admin") is asked: values the turn writes, not which
    goes where, would admit it. Values a mandate does not write (from a record it names) are not
    weighed; nor is a call whose kind the turn asks for once."""
    if asked is None:
        return None
    asking = asking_mandates(asked, context.request, context.read)
    if len(asking) < 2:
        return None
    texts = [_stated_whole(m) for m in asking]
    written = [v for v in values if any(found_in(v, [Source("request", t)]) for t in texts)]
    if len(written) < 2:
        return None
    if any(all(found_in(v, [Source("request", t)]) for v in written) for t in texts):
        return None
    details = {"values": list(written), "mandates": [said(m) for m in asking]}
    return Decision("escalate", SPLIT_ACROSS_MANDATES, {**details, **_turn_reading(context, policy).shown()})


def _a_topic_beside_its_own_record(
    value: Any,
    arg: str,
    admitting: Sequence[Source],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Is ``value`` written, of the mandates asking for the call, only in the topic before a
    mandate's colon, where that mandate names a record of its own ("auth-gw: restart billing-svc"
    and the call restarts auth-gw; "Regarding auth-gw at 9 replicas: scale search-svc to 4")? Then
    the call is asked: the imperative acts on the record it names, the topic is what it is about.
    A topic it points back to ("draft.docx: delete it") or whose mandate names no record
    ("checkout-api: deploy 2.5.0") is its object, as before."""
    if asked is None or any(s.kind != "request" for s in admitting) or isinstance(value, bool):
        return None
    for asking in _asking_now(asked, context):
        topics = [a for a in asking.antecedents if a in asking.sentence]
        own = ", ".join([asking.text, *asking.coordinated])
        if not topics or found_in(value, [Source("request", own)]):
            continue
        if not any(found_in(value, [Source("request", t)]) for t in topics):
            continue
        # the record it names is its object, the clause short (a verb, a record, a figure: "restart
        # billing-svc", "scale search-svc to 4"), not one a longer object describes ("post a summary
        # of the article Ana shared in #reading")
        written = own.split()
        records = [
            w for w in written[1:] if RECORD_WORD.search(w) and not _A_QUANTITY.fullmatch(w.strip(".,;:!?"))
        ]
        if records and len(written) <= 4 and not WORDS_POINTING_BACK & set(words_of(own)):
            details = {"arg": arg, "value": value, "topic": topics, "its_own": records}
            return _asked_outside(details, context, policy)
    return None


#: A figure an earlier sentence gives as how a record stands ("checkout-api is at 40 replicas",
#: "had 40 replicas last week", "peaked at 40"): its state, not a value the turn asks to set.
_A_STATE = (
    r"(?:(?:is|was|were|are|currently|now|sits?|sat|stands?|stood)\s+(?:currently\s+|still\s+|now\s+)?(?:at|on)"
    r"|has|had|have|runs?|ran|running(?:\s+on)?|peaked(?:\s+at)?)"
)


def _a_state_pointed_back(
    value: Any, arg: str, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the mandate asking for the call point back ("Scale it", "Deploy it") to an earlier
    sentence that gives ``value`` (a figure) only as how its record stands ("checkout-api has 40
    replicas. Scale it.", "checkout-api is at 2.4.0. Deploy it.")? Then the call is asked: the
    record is what the word stands for, the figure it stands at is no value the turn sets. A
    figure an earlier sentence asks for ("Bob Lee asked for 150 EUR. Pay him.") or a record's sum
    ("The Spotify bill is 12.99. Pay it.") is not a state."""
    text = str(value).strip()
    if asked is None or isinstance(value, bool) or not _A_QUANTITY.fullmatch(text):
        return None
    written = re.escape(text)
    if isinstance(value, int | float):
        written += r"0*" if "." in written else r"(?:[.,]0+)?"
    state = re.compile(rf"(?i)\b{_A_STATE}\s+(?:about\s+|around\s+)?v?{written}(?![\w@-]|\.\d)")
    for asking in _asking_now(asked, context):
        earlier = [a for a in asking.antecedents if a not in asking.sentence]
        if not earlier or not WORDS_POINTING_BACK & set(words_of(asking.text)):
            continue
        if found_in(value, [Source("request", ", ".join([asking.text, *asking.coordinated]))]):
            continue
        before = " ".join(earlier)
        if state.search(before) and not found_in(value, [Source("request", state.sub(" ", before))]):
            details = {"arg": arg, "value": value, "pointed_back_to": earlier, "a_state": True}
            return _asked_outside(details, context, policy)
    return None


#: Words by which a clause writes an id as a reference or a text's content, not as what it acts on
#: ("with the memo E-102", "same as E-102", "in line with E-102").
_REFERENCING = frozenset(
    """
    memo ref re reference referencing quoting quote match same par line like note per cf subject
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: A list item's mark ("- ", "* ", "1. ", "2) ").
_ITEM_MARKS = re.compile(r"^\s*(?:[-*+\u2022]|\d+[.)])\s+")
#: A numbered item's number read apart from its item ("1. B-31" read as "1" and "B-31").
_AN_ITEMS_NUMBER = re.compile(r"\s*\d{1,2}[.)]?\s*")
#: A word or mark that joins the items of one list ("auth-gw and email-worker", "B-31, B-40 & B-41").
_A_JOINER = r"\s*(?:,|;|&|\+|/|\band\b|\bor\b|\bthe\b|\bboth\b|\balso\b)"
#: What joins two items of one list standing side by side.
_LISTING = re.compile(rf"(?i)^(?:{_A_JOINER})*\s*$")
#: What stands between two ids of a list where other items of it stand between them too ("a.log,
#: q3-forecast.xlsx and b.log"): each item apart from the next by a joiner.
_LISTED_BETWEEN = re.compile(rf"(?i)^(?:{_A_JOINER})+(?:\s*[\w@#][\w.@#-]*\w(?:{_A_JOINER})+)*\s*$")


def _several_ids_unlisted(
    value: Any,
    arg: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Does the mandate asking for the call write ``value`` (an id: "report-viewer", "auth-gw")
    beside another id written alike that no list joins it to ("Grant asmith report-viewer bjones
    billing-admin", "... report-viewer with bjones billing-admin")? Then the call is asked: which
    one the call takes is not written. Ids a list joins ("Restart auth-gw and email-worker") are
    each asked for. The mandate is the one whose clause writes another of the call's values, else
    the only one asking."""
    text = str(value).strip()
    if asked is None or isinstance(value, bool) or not isinstance(value, str):
        return None
    if not RECORD_WORD.search(text) or _A_QUANTITY.fullmatch(text) or " " in text:
        return None
    if "@" in text or arg.split(":")[0] in RECIPIENT_ARGS:
        return None  # whom a call sends to: weighed by :func:`_outside_the_mandate`
    shape = _shape(text)
    for clause in (  # a list's items, without their marks ("Pay:\n- B-31\n- B-35")
        ", ".join(
            [m.text, *(_ITEM_MARKS.sub("", c) for c in m.coordinated if not _AN_ITEMS_NUMBER.fullmatch(c))]
        )
        for m in _the_calls_mandates(arg, args, asked, context)
    ):
        ids = [m for m in re.finditer(r"[\w@#][\w.@#-]*\w", clause) if _shape(m.group(0)) == shape]
        at = [i for i, m in enumerate(ids) if m.group(0).casefold() == text.casefold()]
        if not at or len({m.group(0).casefold() for m in ids}) < 2:
            continue
        i = at[0]
        near = [ids[j] for j in (i - 1, i + 1) if 0 <= j < len(ids)]
        between = [clause[min(m.end(), ids[i].end()) : max(m.start(), ids[i].start())] for m in near]
        # (the other end of a span of days the call takes as one, in the turn's order: "from
        # 2027-01-05 to 2027-01-09" for its check-in and its check-out)
        takes = _the_other_end(arg, args, clause)
        unlisted = [
            m.group(0)
            for m, words in zip(near, between, strict=True)
            if not (_LISTING.match(words) or _LISTED_BETWEEN.match(words))
            and not _REFERENCING & set(words_of(words))
            and m.group(0).casefold() not in takes
        ]
        if unlisted:
            details = {"arg": arg, "value": value, "beside": unlisted}
            return _asked_outside(details, context, policy)
    return None


#: The words of an argument's name that make it the start or the end of a span of days.
_A_SPANS_START = frozenset(
    {"in", "start", "from", "begin", "begins", "arrival", "arrive", "checkin", "since"}
)
_A_SPANS_END = frozenset({"out", "end", "to", "until", "till", "departure", "depart", "leave", "checkout"})


def _the_other_end(arg: str, args: Mapping[str, Any], clause: str) -> set[str]:
    """Where ``arg`` is one end of a span of days the call takes (one argument named for its start,
    one for its end: ``check_in``/``check_out``, ``start_date``/``end_date``), the other end's day,
    when the start is no later than the end and the clause writes the start first ("from 2027-01-05
    to 2027-01-09"); else nothing (the days swapped, or no span: two days side by side still ask)."""
    ends: dict[str, tuple[str, str]] = {}
    for name, value in args.items():
        if not isinstance(value, str) or not _AN_ISO_DAY.fullmatch(value.strip()):
            continue
        words = set(_name_words(name))
        side = "start" if words & _A_SPANS_START else "end" if words & _A_SPANS_END else None
        if side is None or side in ends:
            return set()
        ends[side] = (name, value.strip())
    if set(ends) != {"start", "end"} or arg not in {n for n, _ in ends.values()}:
        return set()
    (_, start), (_, end) = ends["start"], ends["end"]
    at_start, at_end = clause.find(start), clause.find(end)
    if start > end or at_start < 0 or at_end < 0 or at_start > at_end:
        return set()
    other = end if ends["start"][0] == arg else start
    return {other.casefold()}


#: Words after which a clause names where, with what, by whom, for whom or like what its action is
#: done ("in the payments namespace", "at tkim's request", "with jdoe as approver", "per jdoe"), not
#: what it acts on.
_MODIFYING = frozenset(
    """
    in on at for from using via through over per with by like as than about behind under against into
    onto toward towards inside within across unblock relieve help match of behalf
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_SKIPPED_BEFORE_AN_OBJECT = frozenset(
    """
    the a an my our your his her their its this that these those back up down out off
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
_A_TOKEN = re.compile(r"[\w@#][\w.@#'’+-]*[\w]|[\w]")


def _beside_the_object(
    value: Any,
    arg: str,
    tool: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Does the mandate asking for the call write ``value`` only in a phrase that says where, with
    what, by or for whom its action is done ("Restart checkout in the payments namespace", "Disable
    bjones at tkim's request", "Scale checkout to 4 to relieve payments"), while what it acts on (the
    words after its verb, or after "to") names another of the value's kind? Then the call is asked:
    the turn acts on its object, the phrase says how. Values of the call's other arguments are no
    other such name ("Refund 10 on ORD-1001": 10 is the amount), nor are the words of the tool's
    name and its arguments' ("Reset the password for asmith": reset_password resets a password)."""
    text = str(value).strip()
    if asked is None or not isinstance(value, str) or not text or "@" in text:
        return None
    if arg.split(":")[0] in RECIPIENT_ARGS or isinstance(args.get(arg), list | tuple | Mapping):
        return None
    others = _not_the_values_kind(arg, tool, args) | _names_of_the_calls_records(arg, args, context)
    others |= _path_parts(args, arg)  # "Share /docs/spec.md with lena": "docs" is the path's
    own = _own_words(arg, tool, args)
    wanted = [_unpossessed(t.casefold()) for t in _A_TOKEN.findall(text)]
    shape = _shape(text)
    for asking in _the_calls_mandates(arg, args, asked, context):
        tokens, bare, at = _written_at(asking.text, wanted)
        possessing = {i: _possessing_another(tokens, i + len(wanted) - 1, own) for i in at}
        continued = [c for c in asking.coordinated if found_in(value, [Source("request", c)])]
        if any(not _only_possessing_another(c, wanted, own) and not _opens_a_phrase(c) for c in continued):
            return None  # a continuation of its object ("Restart checkout and payments")
        verb = _at_the_verb(bare, asking.verb)
        slots = _object_slots(tokens, verb)
        if not (at or continued) or any(i in slots and not possessing[i] for i in at):
            continue  # with "Disable bjones, tkim's former intern", tkim owns another thing
        if not all(_modifying(tokens, i) for i in at):
            continue
        phrases = {j for i in at for j in (possessing[i] or ())} | set(at)
        rivals = [
            bare[i]
            for i in sorted(slots - phrases)
            if _shape(bare[i]) == shape and bare[i] not in others and bare[i].removesuffix("s") not in others
        ]
        if rivals:
            details = {"arg": arg, "value": value, "acts_on": rivals}
            return _asked_outside(details, context, policy)
    return None


#: Marks typed after a word that take it back: a correction after an asterisk ("Restart
#: payments*checkout", "payments *checkout") and the keys that erase a word ("payments^W^W").
_EDITED_AWAY = r"(?:\*[^\W\d_]|[ \t]+\*[^\W\d_]|[ \t]*\^[WHUwhu])"


def _edited_away(value: Any, arg: str, context: ReviewContext, policy: SupervisorPolicy) -> Decision | None:
    """Is ``value`` written in the turn only right before a mark that takes it back ("Restart
    payments*checkout", "Restart payments^W^Wcheckout")? Then the call is asked: the user corrected
    it as they typed. A value that holds the mark itself ("00000A*A") is written whole."""
    text = str(value).strip()
    if not text or isinstance(value, bool):
        return None
    written = list(re.finditer(rf"(?<![\w*^]){re.escape(text)}(?!\w)", context.request, re.IGNORECASE))
    edited = [m for m in written if re.match(_EDITED_AWAY, context.request[m.end() :])]
    if not written or len(edited) < len(written):
        return None
    mark = context.request[edited[0].start() : edited[0].end() + 3]
    return _asked_outside({"arg": arg, "value": value, "edited": mark}, context, policy)


def _modifying_another_head(
    value: Any,
    arg: str,
    tool: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
    named: bool = False,
) -> Decision | None:
    """Is ``value``, a plain word (no digit, no capital: "payments"), written in the mandate asking
    for the call only right before another plain word it modifies or is the subject of ("Restart
    the payments client in checkout", "checkout's payments module", "Roll back the payments change
    in checkout", "the version payments runs")? Or, admitted only from a record the turn names, is
    that record named so ("Reset the password Bob Jones set for Tara Kim": Bob Jones set it)? Then
    the call is asked: the turn acts on that other thing. Words that say no other thing are passed
    over: function and framing words, the words of the tool's and arguments' names, kinds of a
    record and units a call counts ("the payments service", "payments pods"), adverbs ("...
    payments gracefully", "... using the runbook") and the call's other values."""
    text = str(value).strip()
    if asked is None or not isinstance(value, str):
        return None
    if not named and not re.fullmatch(r"[a-z][a-z-]*[a-z]", text):
        return None
    others = _not_the_values_kind(arg, tool, args) | _own_words(arg, tool, args)
    values = {str(v).casefold() for v in args.values() if isinstance(v, str | int | float)}
    for asking in _the_calls_mandates(arg, args, asked, context):
        own = ", ".join([asking.text, *asking.coordinated])
        if named:  # the record's name as the mandate writes it ("Bob Jones")
            holding = [
                r
                for r in pointed_records(own, context.calls, naming_of(policy, context.subject))
                if any(leaf == text for _p, leaf in leaf_paths(r.value))
            ]
            forms = {
                leaf for r in holding for _p, leaf in leaf_paths(r.value) if leaf != text and " " in leaf
            }
            written = [f for f in forms if re.search(rf"(?<![\w-]){re.escape(f)}(?!\w)", own, re.IGNORECASE)]
            if len(written) != 1:
                continue
        name = written[0] if named else text
        after = re.compile(rf"(?i:(?<![\w-]){re.escape(name)})[ \t]+({_LETTERS})(?![\w'’-])")
        found = [m for part in (asking.text, *asking.coordinated) for m in after.finditer(part)]
        alone = rf"(?i)(?<![\w-]){re.escape(name)}(?![\w-])"
        if not found or len(found) < len(re.findall(alone, asking.text)):
            continue  # written somewhere as itself too ("Restart payments, the payments client too")
        modified = [m for m in found if not _says_no_other_thing(m, others, values) and not _let_know(m)]
        if len(modified) == len(found):
            words = [m.group(1) for m in modified]
            if not all(w.isascii() for w in words):  # "Restart payments yarın": a word not read
                return _asked_partly_read(
                    {"arg": arg, "value": value, "unread_after": words}, context, policy
                )
            return _asked_outside({"arg": arg, "value": value, "modifies": words}, context, policy)
    return None


#: A word as written in any script's letters, hyphens inside ("yarın", "ngày", "cron-job").
_LETTERS = r"[^\W\d_](?:[^\W\d_]|-(?=[^\W\d_]))*"
_A_WORD_AFTER = re.compile(rf"[ \t]+({_LETTERS}|\S*\d\S*)(?![\w'’-])")


def _passed_over(word: str, others: Collection[str], values: Collection[str]) -> bool:
    """A word after a value that says no other thing: a function or framing word, a word of the
    call's names or values, an adverb or a phrase saying how ("... gracefully", "... using the
    runbook"), a time."""
    return (
        word in FUNCTION_WORDS
        or word in _FRAMING_WORDS
        or word in values
        or word in others
        or word.removesuffix("s") in others
        or word.endswith(("ly", "ing"))
        or WHEN.fullmatch(word) is not None
    )


def _let_know(match: re.Match[str]) -> bool:
    """Is the word after a name the "know" of "let <name> know ..." (whom to tell, no other thing)?"""
    return (
        match.group(1).casefold() == "know"
        and re.search(r"(?i)\blet\s+$", match.string[: match.start()]) is not None
    )


def _says_no_other_thing(match: re.Match[str], others: Collection[str], values: Collection[str]) -> bool:
    """Does the word after a plain value (``match``) say no other thing the turn acts on? A word
    passed over does; so does a kind of a record or a unit ("the payments service", "payments
    pods"), unless a word of its own follows it: an id of one such thing ("the payments pod
    payments-7f9c"), a name, or what the sentence says of it ("Rollback checkout job timed out")."""
    word = match.group(1).casefold()
    if _passed_over(word, others, values):
        return True
    if word not in _KINDS_OF_A_RECORD | COUNTED and word.removesuffix("s") not in _KINDS_OF_A_RECORD:
        return False
    following = _A_WORD_AFTER.match(match.string, match.end())
    if following is None:
        return True  # the kind ends its clause ("Restart the payments service.", "... service, now")
    return (
        _passed_over(following.group(1).casefold(), others, values) and not following.group(1)[:1].isupper()
    )


#: Words for the record a call acts on itself, or what it acts on in it ("jdoe's account", "tkim's
#: access", "ORD-1002's refund"), after a possessor the call takes.
_THE_RECORD_ITSELF = frozenset(
    """
    account accounts login logins user profile access permission permissions right rights privilege
    privileges membership memberships password passwords credential credentials order orders ticket
    tickets case service services app apps deployment release version email address inbox role roles
    group groups team teams refund amount total balance status bill bills invoice invoices payment
    payments statement subscription booking reservation event meeting file document folder message
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Words that describe the one thing a possessor owns without making another of it ("tkim's old
#: account", "jdoe's current password").
_DESCRIBING = frozenset(
    """
    old new current main primary usual existing own only regular normal original default locked
    expired forgotten compromised stuck broken failing temporary temp whole entire latest last
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: A possessor's mark, and the words after it (the thing possessed, up to four words).
_POSSESSED = r"(?:'s|’s|(?<=s)'|(?<=s)’)[ \t]+((?:[\w][\w'’-]*[ \t]*){1,4})"


def _possessing_another_thing(
    value: Any,
    arg: str,
    tool: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Is ``value`` written in the mandate asking for the call only as the owner of a thing the
    call does not act on ("Reset jdoe's MFA", "Unlock jdoe's laptop", "Restart payments' Redis",
    "Close T-55's linked PR"), or of someone who owns it ("Reset jdoe's assistant's password")?
    Then the call is asked: the turn acts on that thing. What the call acts on passes: the words of
    the tool's and its arguments' names ("jdoe's password", "tkim's old account", "tkim's role"),
    the record itself (:data:`_THE_RECORD_ITSELF`), kinds of a record and units, the call's values."""
    text = str(value).strip()
    if asked is None or isinstance(value, bool) or not text or "@" in text:
        return None
    passing = (
        _not_the_values_kind(arg, tool, args)
        | _own_words(arg, tool, args)
        | _THE_RECORD_ITSELF
        | _KINDS_OF_A_RECORD
        | COUNTED
        | {str(v).casefold() for v in args.values() if isinstance(v, str | int | float)}
    )
    possessed = re.compile(rf"(?i:(?<![\w'‘\"“-]){re.escape(text)}){_POSSESSED}")
    ident = identity(value)
    holding = [
        record
        for record in _records_read(context)
        if any(identity(v) == ident for v in record.values() if not isinstance(v, Mapping | list))
    ]
    # the fields of the records that hold it ("ORD-1002's shipping fee": its shipping)
    fields = {w for record in holding for key in record for w in _name_words(str(key))}
    ids = _ids_of(holding)  # the ids of those records ("City Water's B-31": the payee's own bill)
    for asking in _the_calls_mandates(arg, args, asked, context):
        for part in (asking.text, *asking.coordinated):
            for match in possessed.finditer(part):
                phrase: list[str] = []
                for word in match.group(1).split():
                    bare = word.casefold()
                    if bare in FUNCTION_WORDS | _FRAMING_WORDS | _MODIFYING or WHEN.fullmatch(bare):
                        break  # "B-40's, with ...", "jdoe's password now": what it owns ends
                    if any(ch.isdigit() for ch in bare) and phrase:
                        break  # "City Water's bill B-31": the record's id after its kind
                    phrase.append(bare)
                if not phrase:
                    continue
                head = _unpossessed(phrase[-1])
                owned = any(w != _unpossessed(w) for w in phrase[:-1])  # "jdoe's assistant's password"
                if not owned and (fields & set(phrase) or (phrase == [head] and head in ids)):
                    continue
                # what modifies the head makes another thing of it ("jdoe's service account",
                # "payments' cron job"), unless it only describes the one the call acts on
                compound = [
                    w for w in phrase[:-1] if w not in _DESCRIBING and w not in passing - _KINDS_OF_A_RECORD
                ]
                owns = passing - _A_SERVICES_PARTS  # "checkout-api's worker": a part of it
                if owned or compound or (head not in owns and head.removesuffix("s") not in owns):
                    details = {"arg": arg, "value": value, "possesses": " ".join(phrase)}
                    return _asked_outside(details, context, policy)
    return None


#: The subjects a clause that states something opens with ("it talks to payments", "he reports to
#: tkim", "there's a ticket for jdoe"): such a clause after a mandate's object says something of
#: it; the reader keeps it with the object, but what it names is no more of the object.
_STATING_SUBJECTS = frozenset(
    {"it", "he", "she", "they", "we", "i", "there", "it's", "he's", "she's", "they're", "we're", "i'm",
     "there's", "its", "this", "that's"}
)  # fmt: skip


def _states(clause: str) -> bool:
    words = words_of(clause)
    return len(words) >= 2 and words[0] in _STATING_SUBJECTS


def _only_in_a_statement(
    value: Any,
    arg: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Is ``value`` written, in the mandate asking for the call, only in a clause after its object
    that states something of it ("Restart checkout, it talks to payments", "Reset asmith's password
    — he reports to jdoe")? A reason beside the object ("Restart checkout, it's down") leaves the
    call on its object; a value only the statement names is asked."""
    if asked is None or isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    for asking in _the_calls_mandates(arg, args, asked, context):
        stating = [c for c in asking.coordinated if _states(c)]
        if not any(found_in(value, [Source("request", c)]) for c in stating):
            continue
        own = [asking.text, *(c for c in asking.coordinated if not _states(c))]
        if any(found_in(value, [Source("request", t)]) for t in own):
            continue
        return _asked_outside({"arg": arg, "value": value, "only_stated_beside": stating}, context, policy)
    return None


#: A figure written as another thing's, named in a phrase saying how or with what the call runs:
#: "Deploy checkout 2.5.0 using Go 1.22", "... built with Python 3.12", "... on node 20.11.1",
#: "... (needs Java 17)", "... (Python 3.11)": 1.22 is Go's version, not the service's (the thing's
#: name is group 1).
_ANOTHER_THINGS = (
    r"(?:\b(?:using|with|via|on|in|under|atop|against|for|needs?|requires?|running|runs|built\s+with)"
    r"\s+|\(\s*)(?:the\s+)?([^\W\d_][\w'-]*)\s+{v}(?![\w.,-]*\d)"
)


#: A figure's multiple or sum, not the figure itself ("by a factor of 4", "4 times", "4x", "tenfold",
#: "2+2"): what the call would set is not written.
_MULTIPLYING = (
    r"factor\s+of\s+{v}\b|{v}\s*(?:times|x|×|-?fold)\b|\b\w+fold\s+(?:from\s+)?{v}\b"
    r"|\b(?:twice|double|thrice|triple|quadruple|half)\s+(?:of\s+)?{v}\b"
    r"|{v}\s*[+*/×^]\s*\d|\d\s*[+*/×^]\s*{v}\b"
)


#: A figure as a rate: per item, per period, per unit ("$20 each", "$20 a month", "4 per node").
_A_RATE = (
    r"(?:[A-Z]{3}\s*)?(?:each|apiece|a\s+(?:month|week|year|day|head|piece|pop)"
    r"|per\s+[a-z]+\b(?![ \t]*[#\w-]*\d)|/\s*(?:mo|month|yr|year|wk|week|day))\b"
)  # not "per ticket 40": a reference, not a rate
#: Words before a value that make it another of its kind ("local admin", "temp admin", "read-only
#: admin", "break-glass admin"): a call taking the plain value asks.
_OF_ANOTHER_KIND = frozenset(
    """
    local temp temporary read-only readonly break-glass breakglass jit limited partial guest acting interim
    shadow scoped restricted emergency junior deputy sub trial
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _qualified(value: Any, arg: str, context: ReviewContext, policy: SupervisorPolicy) -> Decision | None:
    """Is ``value``, a plain word, written in the turn only right after a word that makes it another
    of its kind ("Grant asmith local admin", "temp admin", "read-only admin")? Then the call asks."""
    text = str(value).strip()
    if not isinstance(value, str) or not re.fullmatch(r"[a-z][a-z-]*[a-z]", text):
        return None
    written = list(re.finditer(rf"(?i)(?<![\w-]){re.escape(text)}(?![\w-])", context.request))
    before = [(_A_TOKEN.findall(context.request[: m.start()]) or [""])[-1].casefold() for m in written]
    if not written or not all(b in _OF_ANOTHER_KIND for b in before):
        return None
    return _asked_outside({"arg": arg, "value": value, "qualified": f"{before[0]} {text}"}, context, policy)


#: An argument that holds money, whose figure no count of things is ("amount", "total_usd").
_MONEY_ARG = re.compile(r"(?i)amount|total|price|cost|fee|sum|salary|balance|pay")


#: Units as written short, and the word an argument's name counts them by ("5 GB" of ``gigabytes``).
_UNIT_WRITTEN_SHORT = {
    "gb": "gigabytes", "gib": "gigabytes", "mb": "megabytes", "mib": "megabytes", "tb": "terabytes",
    "kb": "kilobytes", "hr": "hours", "hrs": "hours", "h": "hours", "min": "minutes", "mins": "minutes",
    "sec": "seconds", "secs": "seconds", "wk": "weeks", "wks": "weeks", "mo": "months", "mos": "months",
    "yr": "years", "yrs": "years", "km": "kilometres", "kg": "kilograms", "pcs": "pieces", "qty": "quantity",
}  # fmt: skip


def _of_another_quantity(
    value: Any,
    arg: str,
    tool: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Is the figure the call takes written, in the mandate asking for it, as a figure of another
    quantity: with a unit the argument does not count ("Scale checkout to 4 cores", "... 40 GB"),
    as a multiple or a sum ("by a factor of 4", "4 times its size", "2+2"), or as what an attribute
    between the object and "to" is set to ("Scale checkout threads to 40", "checkout's memory to
    4")? Then the call is asked. Units a call counts: the words of the tool's and its arguments'
    names, :data:`~policies.supervisor.reading.coverage.COUNTED`, currencies; names (written with a
    capital) and the call's other values are no attribute."""
    text = str(value).strip()
    if asked is None or isinstance(value, bool) or not _A_QUANTITY.fullmatch(text):
        return None
    others = _not_the_values_kind(arg, tool, args)  # units it counts, no attributes
    named = _names_of_the_calls_records(arg, args, context)  # "Scale checkout-api to 8": no attribute
    figure = re.escape(text) + (r"(?:[.,]0+)?" if isinstance(value, int) else "")
    counted = units_counted(args, context)  # "3 pens" of an insulin pen's ``quantity``
    for asking in _the_calls_mandates(arg, args, asked, context):
        # with what its sentence says after it ("Refill RX-7120, 50 mg": 50 of another quantity)
        clause = asking.text + asking.sentence.partition(asking.text)[2]
        for match in re.finditer(rf"(?<![\w.,-]){figure}(?![\w.,-]*\d)\s*([^\W\d_]+|%)?", clause):
            unit = (match.group(1) or "").casefold()
            unit = _UNIT_WRITTEN_SHORT.get(unit, unit)  # "5 GB" of ``gigabytes``
            is_counted = (
                unit in counted
                or unit in others
                or unit.removesuffix("s") in others
                or f"{unit}s" in others  # "a 6 month plan" of ``months``
                or unit in set(_CURRENCY_WORDS)
                or (unit in COUNTED and not _MONEY_ARG.search(arg))  # "Refund 10 items": no amount
            )
            # "2.5.0 using Go", "2.5.0 built with ...": a phrase saying how, no unit ("4 squared" is)
            verb_form = unit.endswith("ing") or unit == "built"
            if unit and unit not in FUNCTION_WORDS | _FRAMING_WORDS and not is_counted and not verb_form:
                return _another_quantity(arg, value, f"{text} {unit}", context, policy)
        owner = re.search(_ANOTHER_THINGS.format(v=figure), clause, re.IGNORECASE)
        if owner is not None and _unpossessed(owner.group(1).casefold()) not in others:
            return _another_quantity(arg, value, f"{owner.group(1)} {text}", context, policy)
        rate = re.search(rf"(?<![\w.,-]){figure}(?![\w.,-]*\d)\s*{_A_RATE}", clause, re.IGNORECASE)
        if rate is not None:  # "$20 each", "$20 a month", "4 per node": a rate, not the whole
            return _another_quantity(arg, value, rate.group(0), context, policy)
        multiple = re.search(_MULTIPLYING.format(v=figure), clause, re.IGNORECASE)
        if multiple is not None:
            return _another_quantity(arg, value, multiple.group(0), context, policy)
        to = re.search(rf"(?i)\bto\s+{figure}\b", clause)
        if to is not None:
            before = _A_TOKEN.findall(clause[: to.start()])
            verb = _at_the_verb(before, asking.verb)
            attributes = [
                t
                for t in before[verb + 1 :]
                if t[:1].islower()
                and _unpossessed(t.casefold())
                not in others | FUNCTION_WORDS | _SKIPPED_BEFORE_AN_OBJECT | _KINDS_OF_A_RECORD
                and _unpossessed(t.casefold()).removesuffix("s") not in others
                and _unpossessed(t.casefold()) not in named
                and not any(ch.isdigit() for ch in t)
            ]
            if attributes:
                return _another_quantity(arg, value, " ".join(attributes), context, policy)
    return None


def _another_quantity(
    arg: str, value: Any, said: str, context: ReviewContext, policy: SupervisorPolicy
) -> Decision:
    details = {"arg": arg, "value": value, "of_another_quantity": said}
    return _asked_outside(details, context, policy)


def _a_place_pointed_past(
    value: Any, arg: str, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the mandate asking for the call act on what a pronoun points back to ("... and share
    it with Yuki"), while the call takes a value the turn writes only as where an earlier mandate's
    object goes ("Upload draft.docx to fld-4": the folder, not the file)? The pronoun stands for
    the object: asked (``value_outside_the_mandate``)."""
    text = str(value).strip()
    if asked is None or not isinstance(value, str) or not text:
        return None
    mandates = _asking_now(asked, context)
    if not any(m.words[1:2] and m.words[1] in WORDS_POINTING_BACK for m in mandates):
        return None  # no pronoun for the object: nothing pointed past
    if any(found_in(value, [Source("request", ", ".join([m.text, *m.coordinated]))]) for m in mandates):
        return None  # the asking mandate writes it
    place = re.compile(
        rf"(?i)\b(?:to|into|in|onto|under|inside)\s+(?:the\s+)?(?:(?:folder|channel|directory|drive|dir)\s+)?"
        rf"{re.escape(text)}(?![\w-])"
    )
    for one in _every_mandate(context):
        if one in mandates or not place.search(one.text):
            continue
        details = {"arg": arg, "value": value, "pointed_back_past": said(one), "mandate": said(mandates[0])}
        return _asked_outside(details, context, policy)
    return None


def _its_own_beside_the_pointer(
    value: Any,
    arg: str,
    tool: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Does the mandate asking for the call point back ("grant it to tkim") and write a value of
    ``value``'s kind of its own, while the call takes ``value`` from elsewhere in the turn ("Revoke
    admin from jdoe and grant it to tkim." and the call grants jdoe)? Then it asks: the
    word stands for what the call acts with, the mandate names whom. The call's other values and the
    words of the tool's and its arguments' names are not its own."""
    text = str(value).strip()
    if asked is None or not isinstance(value, str) or not text or "@" in text:
        return None
    if isinstance(args.get(arg), list | tuple | Mapping):
        return None
    others = _not_the_values_kind(arg, tool, args)
    shape = _shape(text)
    mandates = _asking_now(asked, context)
    if any(found_in(value, [Source("request", ", ".join([m.text, *m.coordinated]))]) for m in mandates):
        return None  # a mandate of the kind writes it: the call may be that one's
    for asking in mandates:
        words = [_unpossessed(t.casefold()) for t in _A_TOKEN.findall(asking.text)]
        if not WORDS_POINTING_BACK & set(words):
            continue
        at = _at_the_verb(words, asking.verb)
        # a value of its own: one written alike where the value is an id ("B-31"); a plain word
        # only where it is whom the mandate goes to ("grant it to tkim")
        slots = (
            range(len(words))
            if RECORD_WORD.search(text)
            else [i + 1 for i, w in enumerate(words[:-1]) if w == "to"]
        )
        own = [
            words[i]
            for i in slots
            if i != at
            and words[i] not in FUNCTION_WORDS | WORDS_POINTING_BACK | others
            and _shape(words[i]) == shape
        ]
        if not RECORD_WORD.search(text):  # a plain word: one a listing holds where it holds the value
            alike = _listed_alike(text, context)
            own = [w for w in own if w in alike]
        if own:  # (the value's own record by its name: "Scale checkout-api to twice its 6 replicas")
            named = _names_of_the_calls_records("", {arg: value}, context)
            own = [w for w in own if w not in named]
        if own:
            details = {"arg": arg, "value": value, "its_own": own}
            return _asked_outside(details, context, policy)
    return None


def _listed_alike(text: str, context: ReviewContext) -> set[str]:
    """The values a listing of the run holds where it holds ``text`` (the other users of a user
    list), case folded."""
    alike: set[str] = set()
    for call in context.calls:
        leaves = leaf_paths(parsed(call.get("observation")))
        paths = {p for p, leaf in leaves if leaf.strip() == text}
        alike |= {leaf.strip().casefold() for p, leaf in leaves if p in paths}
    return alike


#: Where a turn writes its pairs apart: commas, semicolons, slashes, lines, sentences, "and", colons.
_PAIRS_APART = re.compile(r"(?i)[,;/\n:]|\.(?=\s|$)|\band\b")


def _paired_otherwise(
    value: Any, arg: str, args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the turn write the call's figure only in a part of its own ("Checkout 4, payments 40.
    Scale them.", "2.5.0 for checkout, 2.4.1 for payments: deploy."), apart from every part that
    writes the call's other values, while one of those parts writes another figure of its kind? Then
    the call, taking a figure from one pair and a name from another, asks."""
    text = str(value).strip()
    if isinstance(value, bool) or not _A_QUANTITY.fullmatch(text):
        return None
    others = [v for a, v in args.items() if a != arg and isinstance(v, str) and v.strip()]
    parts = [p for p in _PAIRS_APART.split(context.request) if p.strip()]
    mine = [p for p in parts if found_in(value, [Source("request", p)])]
    theirs = [p for p in parts if any(found_in(v, [Source("request", p)]) for v in others)]
    if not mine or not theirs or any(p in theirs for p in mine):
        return None
    shapes = {_shape(v) for v in others}
    named_beside = [  # the part with the figure names something of the other values' kind: a pair
        w
        for p in mine
        for w in _A_TOKEN.findall(p)
        if _shape(w.casefold()) in shapes
        and w.casefold() not in FUNCTION_WORDS | WORDS_POINTING_BACK | COMMON_VERBS | _FRAMING_WORDS
    ]
    if not named_beside:
        return None
    version = text.lstrip("v").count(".") >= 2
    figures = [f for p in theirs for f in _A_FIGURE.findall(p) if (f.count(".") >= 2) == version]
    if figures:
        details = {"arg": arg, "value": value, "paired_with": figures}
        return _asked_outside(details, context, policy)
    return None


#: Words that name what kind of thing a service or an account is ("the search-svc deployment",
#: "bjones's account"): no attribute of it.
_KINDS_OF_A_RECORD = frozenset(
    """
    service services svc deployment deployments app apps application server servers worker workers job
    api pod pods instance instances cluster account accounts user users order orders ticket tickets
    appointment appointments visit visits booking bookings repair repairs
    """.split()  # noqa: SIM905 (a closed list, read as words)
)
#: Of :data:`_KINDS_OF_A_RECORD`, the parts a service has besides itself: owned by it
#: ("checkout-api's worker", "payments' job"), they are another thing than the service the call
#: acts on. Its pods, instances and replicas are how it runs ("Scale checkout-api's pods to 4").
_A_SERVICES_PARTS = frozenset({"worker", "workers", "job", "jobs", "server", "servers", "cluster", "api"})
#: Words that frame a request after its figure ("to 6 pls", "to 4 now"): no unit.
_FRAMING_WORDS = frozenset(
    """
    pls plz please thanks thx ty asap now today tonight tomorrow again too also instead first then
    immediately quickly right real
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _at_the_verb(tokens: Sequence[str], verb: str) -> int:
    """Where a clause's tokens write its verb, in any form ("scaling" for scale); 0 if nowhere."""
    stem = verb[:-1] if verb.endswith("e") and len(verb) > 3 else verb
    return next((i for i, t in enumerate(tokens) if t.casefold().startswith(stem)), 0)


def _unpossessed(token: str) -> str:
    return token.removesuffix("'s").removesuffix("’s")


def _object_slots(tokens: Sequence[str], verb: int) -> set[int]:
    """Where a clause's tokens name what its verb (at ``verb``) acts on: the words after it (past
    determiners and particles; a possessive there is its object's owner: "reset mlopez's password")
    up to a function word, and the word after each "to"."""
    slots: set[int] = set()
    i = verb + 1
    while i < len(tokens) and tokens[i] in _SKIPPED_BEFORE_AN_OBJECT:
        i += 1
    while (
        i < len(tokens) and tokens[i] not in FUNCTION_WORDS and (i == verb + 1 or tokens[i] not in _MODIFYING)
    ):
        slots.add(i)
        i += 1
    slots |= {j + 1 for j, t in enumerate(tokens[:-1]) if t == "to" and tokens[j + 1] not in _MODIFYING}
    return slots


def _own_words(arg: str, tool: str, args: Mapping[str, Any]) -> set[str]:
    """The words that name what ``arg`` is, case folded: the tool's name's and ``arg``'s, less the
    other arguments' names ("password" for reset_password's user; not "role" for grant_role's
    user: the role is another argument)."""
    others = set().union(*(_name_words(a) for a in args if a != arg))
    return (_name_words(tool) | _name_words(arg)) - others


def _opens_a_phrase(text: str) -> bool:
    """Does a part after the object open with a word of :data:`_MODIFYING` ("..., per payments",
    "..., via the payments proxy")? It says how the action is done, it lists no more objects."""
    tokens = _A_TOKEN.findall(text)
    return bool(tokens) and tokens[0].casefold() in _MODIFYING


def _written_at(text: str, wanted: Sequence[str]) -> tuple[list[str], list[str], list[int]]:
    """``text``'s tokens case folded, the same without a possessive "'s", and where the latter
    write ``wanted`` (a value's tokens, without a possessive) from."""
    tokens = [t.casefold() for t in _A_TOKEN.findall(text)]
    bare = [_unpossessed(t) for t in tokens]
    return tokens, bare, [i for i in range(len(bare)) if bare[i : i + len(wanted)] == wanted]


def _only_possessing_another(text: str, wanted: Sequence[str], own: set[str]) -> bool:
    """Does ``text`` write the value (its tokens ``wanted``) only as the owner of something else
    than what the argument is ("jdoe's ticket" for a user)?"""
    tokens, _bare, at = _written_at(text, wanted)
    return bool(at) and all(_possessing_another(tokens, i + len(wanted) - 1, own) for i in at)


def _possessing_another(tokens: Sequence[str], at: int, own: set[str]) -> range | None:
    """Is the token at ``at`` a possessive whose phrase names something else than what the
    argument is ("tkim's former intern", "jdoe's ticket", "tkim's role" for a user; not "jdoe's
    password" for reset_password's user)? The possessed phrase's positions then, else None."""
    if not tokens[at].endswith(("'s", "’s")):
        return None
    end = at + 1
    while end < len(tokens) and tokens[end] not in FUNCTION_WORDS and not tokens[end].endswith(("'s", "’s")):
        end += 1
    if end == at + 1:
        return None  # "jdoe's and tkim's accounts": the owner of what follows
    head = tokens[end - 1].casefold()
    return None if head in own or head.removesuffix("s") in own else range(at + 1, end)


def _modifying(tokens: Sequence[str], at: int) -> bool:
    """Is the token at ``at`` a possessive ("tkim's request"), in a phrase a word of
    :data:`_MODIFYING` opens, up to three words before it ("in the payments namespace"), or the
    object of a purpose ("to fix payments")?"""
    if tokens[at].endswith(("'s", "’s")):
        return True
    purpose = at >= 2 and tokens[at - 2] == "to" and tokens[at - 1].isalpha()
    if purpose and tokens[at - 1] not in _SKIPPED_BEFORE_AN_OBJECT | FUNCTION_WORDS:
        return True  # "Restart checkout to fix payments"
    return any(t in _MODIFYING for t in tokens[max(1, at - 3) : at])


#: Words that point back to a person: they stand for the person's records too.
_A_PERSON_POINTED = frozenset({"him", "her", "his", "hers"})
#: Words that point back to several things at once: each of them is meant.
_POINTING_AT_ALL = frozenset({"them", "they", "both", "these", "those", "all", "each", "their", "theirs"})


def _shape(word: str) -> str:
    """How an id is written: its letters apart where it has no digit ("auth-gw" and "billing-svc":
    "a-a"), else its prefix as written, its digits apart ("B-31" and "B-40": "b-9"; "T-1": "t-9")."""
    folded = re.sub(r"\d+", "9", word.casefold())
    return folded if "9" in folded else re.sub(r"[^\W\d_]+", "a", folded)


def _pointed_back_among_several(
    value: Any,
    arg: str,
    args: Mapping[str, Any],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Does the mandate that asks for the call take ``value`` only from the earlier sentences its
    word pointing back ("it", "him") stands for, where those sentences name two things or more of
    its kind ("auth-gw is fine. billing-svc is flapping. Restart it.", "jdoe reported bjones.
    Disable him.", "ORD-1001 is fine. ORD-1002 arrived broken. Refund it.")? Then the call is
    asked: which one the word stands for is not written. Of a kind: ids written alike ("auth-gw",
    "billing-svc"), or values those sentences write under the key of a listing that holds it."""
    if asked is None or isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    if isinstance(args.get(arg), list | tuple | Mapping) or arg.split(":")[0] in RECIPIENT_ARGS:
        return None  # a list ("its attendees") is all it points to; whom a call sends to is weighed
    text = str(value).strip()  # by :func:`_outside_the_mandate`
    if "@" in text:
        return None
    for asking in _asking_now(asked, context):
        earlier = [a for a in asking.antecedents if a not in asking.sentence]
        own = ", ".join([asking.text, *asking.coordinated])
        pointing = WORDS_POINTING_BACK & set(words_of(asking.text))
        if not earlier or not pointing or pointing & _POINTING_AT_ALL:
            continue  # "tkim and bjones. Grant them billing-admin.": each of them
        if found_in(value, [Source("request", own)]):
            continue
        before = " ".join(earlier)
        kind: set[str] = set()
        if RECORD_WORD.search(text) and not _A_QUANTITY.fullmatch(text):
            shape = _shape(text)
            kind = {w.casefold() for w in re.findall(r"[\w@#][\w.@#-]*\w", before) if _shape(w) == shape}
        said_before = [Source("request", before)]
        paths: set[tuple[str, ...]] = set()
        held_by: Counter[str] = Counter()  # how many records hold each value
        for call in context.calls:  # the values under the key that holds it, of a listing's records
            leaves = leaf_paths(parsed(call.get("observation")))
            held = {p for p, leaf in leaves if leaf.strip() == text}
            paths |= held
            held_by.update(leaf.strip().casefold() for _p, leaf in leaves)
            kind |= {
                leaf.strip().casefold() for p, leaf in leaves if p in held and found_in(leaf, said_before)
            }
        # and those of the records they name otherwise ("Ana Silva ... Refund her": her order): by a value
        # of one record alone where they name any so ("The City Water bill B-31": B-31's, not
        # every City Water bill's)
        named = (  # a person pointed back to ("Refund her") stands for her records; "it" for a thing
            pointed_records(before, context.calls, naming_of(policy, context.subject))
            if pointing <= _A_PERSON_POINTED  # "Grant it to her": "it" is what the call grants
            else []
        )
        alone = [
            r
            for r in named
            if any(
                held_by[leaf.strip().casefold()] == 1 and found_in(leaf, said_before)
                for _p, leaf in leaf_paths(r.value)
            )
        ]
        for record in alone or named:
            kind |= {leaf.strip().casefold() for p, leaf in leaf_paths(record.value) if p in paths}
        kind = {k for k in kind if _shape(k) == _shape(text)}  # of its kind: "T-1" is no order's id
        if len(kind) > 1 and text.casefold() in kind:
            details = {"arg": arg, "value": value, "pointed_back_to": earlier, "several": sorted(kind)}
            return _asked_outside(details, context, policy)
    return None


def _states_its_own(mandate: Any) -> bool:
    """Does a mandate's clause write a word beside its verb, the words that point back and the
    function words ("Grant him report-viewer": report-viewer; "Pay him": none)?"""
    words = words_of(mandate.text)[1:]
    return any(w not in WORDS_POINTING_BACK and w not in FUNCTION_WORDS for w in words)


def _pointed_back_for_several(
    values: Sequence[Any], asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Does the call take two values or more only from the earlier sentences its mandate points
    back to ("bjones asked for admin. Grant him report-viewer." and the call grants bjones admin)?
    Then it is asked: a word that points back ("him", "it") stands for one thing the sentence
    names, not for everything it says. A label before the mandate's colon, which describes its
    record whole ("Invoice INV-8 of 40 EUR: pay it"), is no earlier sentence."""
    if asked is None:
        return None
    # only where the mandate states something of its own beside the word that points back ("Grant
    # him report-viewer"); "Pay him." takes all the sentence it points to says ("Bob Lee asked for
    # 150 EUR. Pay him.")
    asking = [m for m in _asking_now(asked, context) if _states_its_own(m)]
    own = [", ".join([m.text, *m.coordinated]) for m in asking]
    earlier = [a for m in asking for a in m.antecedents if a not in m.sentence]
    if not earlier:
        return None
    only = [
        v
        for v in values
        if not any(found_in(v, [Source("request", t)]) for t in own)
        and any(found_in(v, [Source("request", t)]) for t in earlier)
    ]
    if len(only) < 2:
        return None
    details = {"values": list(only), "pointed_back_to": earlier}
    return _asked_outside(details, context, policy)


#: Words by which a turn picks one record of a listing without writing its value ("Deploy the
#: latest release of checkout-api", "Delete the biggest bucket"): the reader does not follow them.
_PICKING = re.compile(
    r"(?i)\b(?:latest|newest|last|previous|prior|oldest|earliest|biggest|largest|smallest|highest"
    r"|lowest|cheapest|most\s+recent|current|top|next)\b"
)


def _picked_in_words(value: Any, asked: Requested | None, context: ReviewContext) -> dict[str, Any] | None:
    """Does the turn give a value the rule refuses in words the reader does not follow: a record
    picked by a word ("the latest release", "the biggest bucket"), a version written with its "v"
    ("v2.5.0") or a small count written as a word ("six replicas")? Then the call is
    asked, never refused (what it says, read: ``read`` / ``unread``); None otherwise."""
    stated = stated_for(asked, context.request, context.read) if asked is not None else context.request
    picked = _PICKING.search(stated)
    if picked:
        return {"read": [stated], "unread": [picked.group(0)]}
    written = re.escape(str(value).strip())
    if str(value).strip()[:1].isdigit() and not isinstance(value, bool):  # a version: "v2.5.0"
        prefixed = re.search(rf"(?i)(?<![\w.-])v{written}(?![\w-]|\.\d)", stated)
        if prefixed:
            return {"read": [stated], "unread": [prefixed.group(0)]}
    # a small count written as a word, that is the value ("six replicas" for 6)
    if is_number(value) and float(value) in _SMALL_NUMBERS.values():
        word = next((w for w in words_of(stated) if _SMALL_NUMBERS.get(w) == float(value)), None)
        if word is not None:
            return {"read": [stated], "unread": [word]}
    return None


#: Small counts as they are written in words.
_SMALL_NUMBERS = {
    **{
        w: float(n)
        for n, w in enumerate(
            """
            zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
            fifteen sixteen seventeen eighteen nineteen twenty
            """.split()  # noqa: SIM905 (a closed list, read as words)
        )
    },
    **{
        w: float(10 * n)
        for n, w in enumerate(["thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], 3)
    },
    "hundred": 100.0,
    "dozen": 12.0,
}


def _only_another_mandates(
    value: Any, asked: Requested | None, context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Is ``value`` written in the turn only by a mandate of another kind, while the mandates that
    ask for the call name their own object and point back to nothing ("Check payments-api's version
    and roll back checkout-api" and the call rolls back payments-api)? Then the call is asked: the
    turn reads that record, it does not ask for this call on it. A mandate that points back ("Check
    payments-api and roll it back", "... that day") takes what it points to; a channel is left to
    the reading as before ("- read #support / - answer in the channel")."""
    if asked is None or isinstance(value, bool) or str(value).startswith("#"):
        return None
    request = [Source("request", context.request)]
    if not found_in(value, request):
        return None  # not written: from a record, weighed by its own rules
    asking = _asking_now(asked, context)
    pointing = WORDS_POINTING_BACK | POINTING_BACK
    if not asking or any(pointing & set(m.words) for m in asking):
        return None
    own = ", ".join(map(_stated_whole, asking))
    if found_in(value, [Source("request", own)]):
        return None
    reading = _turn_reading(context, policy)
    others = [m for m in reading.mandates if m not in asking]
    if not any(found_in(value, [Source("request", _stated_whole(m))]) for m in others):
        return None
    details = {"value": value, "mandates": [said(m) for m in asking]}
    return Decision("escalate", OUTSIDE_THE_MANDATE, {**details, **reading.shown()})


#: Why a call is put to a human: its values are each written by another mandate of its kind
#: ("Grant asmith report-viewer. Grant bjones admin." and the call grants asmith admin).
SPLIT_ACROSS_MANDATES = "values_of_different_mandates"


def _outside_the_mandate(
    value: Any,
    arg: str,
    admitting: Sequence[Source],
    asked: Requested | None,
    context: ReviewContext,
    policy: SupervisorPolicy,
) -> Decision | None:
    """Is ``value`` admitted by the turn's words alone (no record, no other source gives it) and
    written only outside what the reading of the turn stands on (its mandates that the whole turn
    leaves standing, of a verb the policy declares or a reading verb, and what they point back
    to)? Then the call is asked, never run unasked: the turn names the value in words that ask
    nothing ("Forget about X", "Ignore X", "X has them already", "I told X", "Tomorrow, mail X"),
    which a complete reading does not cover. A recipient is none where a mandate only refers to it
    or writes it as someone's ("Email ana the notes about bob's trip": :data:`_REFERRED`). A call
    of no declared kind (``asked`` None: any turn may lead to one) and a text's content (a
    ``body``, a ``title``: given after a colon, in quotes) are not weighed here."""
    if any(s.kind != "request" for s in admitting) or not isinstance(value, (str, int, float)):
        return None
    if asked is None or isinstance(value, bool) or not str(value).strip() or content_field(arg):
        return None  # a text's content is written where the turn gives it ("add event: renew ...")
    # what the reading stands on: its mandates of a verb it knows (the policy's or reading ones),
    # and those asking for the call under a condition (checked on trusted data before it runs)
    reading = _turn_reading(context, policy)
    asking = _asking_now(asked, context)
    found = [*reading.mandates, *(m for m in asking if m.condition is not None)]
    # whom or where a call sends to: an address, a handle, a channel
    kinds = {k for k, _ in identifiers(str(value))}
    recipient = arg.split(":")[0] in (*RECIPIENT_ARGS, "handle", "channel") or (
        str(value).startswith(("@", "#")) or "email" in kinds
    )
    if (recipient and not str(value).startswith("#")) or "iban" in kinds:
        # someone (or an account) is sent to by the mandates that send, or those of their sentence
        # they point back to ("Look up ana@corp.example and email her the notes"): whom another
        # mandate reads ("Look up bob@corp.example. Email ana@corp.example ...") is sent nothing
        sentences = {m.sentence for m in asking if WORDS_POINTING_BACK & set(m.words)}
        pointed = [m for m in reading.mandates if m.sentence in sentences and m not in asking]
        found = [*asking, *pointed]
        if _A_PERSON.fullmatch(str(value)):  # of the call's own words, only whom they send to
            found = [*pointed, *(replace(m, text=text) for m, text in _to_whom(asking))]
    # a mandate's coordinated parts read as written ("to 4 Pine Road, Springfield": one address)
    texts = [stated_text(found), *(text for m in found for text in m.antecedents)]
    stated = ", ".join(texts).replace(" | ", ", ")
    stated = _unqualified(value, stated, recipient or "iban" in kinds)
    if recipient:  # "Email ana the notes about bob's trip": ana only
        stated = _POSSESSIVE.sub(" ", _REFERRED.sub(" ", stated))
        stated = _FOR_SOMEONE_AFTER_AN_ADDRESS.sub(r"\1", stated)
    if found_in(value, [Source("request", _STRUCK.sub(" ", stated))]):
        return None
    if _listed_for_the_call(value, asking, context.request):
        return None
    details = {"arg": arg, "value": value}
    return Decision("escalate", OUTSIDE_THE_MANDATE, {**details, **reading.shown()})


def named_sources(
    context: ReviewContext,
    policy: SupervisorPolicy,
    rule: Requested | None = None,
    *,
    stated: str | None = None,
    taken: Collection[str] = (),
) -> list[Source]:
    """The ``named`` sources of a review: the fields the policy trusts (by the tools' declarations, not by
    owning the record) of each record the mandates for the call's kind point at
    (:func:`policies.supervisor.request.records.pointed_records` over what they state,
    :func:`~policies.supervisor.request.asks.stated_for` of the tool's ``requested`` ``rule``; with
    none, every mandate of the turn: named by a trusted field's value that identifies and narrows its
    listing, by every argument of its call, or through a trusted key), one source per record
    (``stated``: another text of the turn in their place). Positive evidence only: a value of another
    record of a trusted listing is in none of them, nor is a record the turn names only in a clause
    that asks nothing ("Don't pay the Globex invoice", a question, someone's words). Where the
    mandates for the call's kind point at records themselves, only theirs (:func:`~policies.
    supervisor.request.asks.stated_for_call`): another verb's mandate beside them names for itself.
    ``taken``: the values the call writes as its own, which point at no record."""
    naming = naming_of(policy, context.subject)
    out = []
    # the records the mandates for this kind point at, never a clause that asks nothing (issue 49);
    # where they point at records of their own, theirs only: "Pay City Water bill B-31 and check
    # the Acme bill B-40" names no Acme bill to pay (another verb's sibling names for itself)
    if stated is None:
        text = stated_for_call(rule, context.request, context.calls, naming, context.read)
    else:
        text = stated
    for record in pointed_records(text, context.calls, naming, taken):
        # trusted by the tool's declarations only: a field owning the record vouches for (its id,
        # its title) is what a look-alike of the user's own record copies
        ids = naming.ids.get(record.tool, ("id",))
        texts = (
            []
            if record.author
            else [
                text
                for path, text in leaf_paths(record.value)
                if naming.trusted(record.tool, (*record.path, *path))
                and not (record.id_only and path[-1:] and path[-1] not in ids)  # its own id only
            ]
        )
        if texts:
            out.append(Source("named", " | ".join(texts), record.tool, record.step, True, True, (record.by,)))
    return out


def _only_a_named_operand(value: Any, admitting: Sequence[Source], context: ReviewContext) -> bool:
    """Is a number admitted only by a record the request names, where the request states an
    operation on what it names ("move 5% of my checking balance")? Then the record's figure is a
    term of the operation, not the value asked for: only the derived value is admitted."""
    if not is_number(value) or not admitting or any(s.kind != "named" for s in admitting):
        return False
    return bool(stated_operations(context.request, reader=context.reader))


#: A value written in words only (a name, a handle): no digit, address or mark that makes it an id.
_WORDS_ONLY = re.compile(r"[^\W\d_]+(?:[ '\-][^\W\d_]+)*")


#: A sentence of a turn (up to its stop or line end), and a word of letters in it.
_A_SENTENCE = re.compile(r"[^.!?\n]+")
_A_WORD = re.compile(r"[^\W\d_]+")


def _written_apart(value: Any, rule: ArgSource, context: ReviewContext) -> dict[str, Any] | None:
    """Does the request write the value's parts apart, with spaces where the value joins them
    ("Grant asmith billing admin" for ``billing-admin``, "Refund ORD 1002" for ``ORD-1002``)?
    Whether the user meant this value cannot be read from the words alone: the call is asked, never
    refused for it."""
    if "request" not in rule.sources or not isinstance(value, str):
        return None
    parts = [p for p in re.split(r"[-_./]+", value.strip()) if p]
    if len(parts) < 2 or not all(p.isalnum() for p in parts):
        return None
    apart = r"[ \t]+".join(re.escape(p) for p in parts)
    found = re.search(rf"(?i)(?<![\w-]){apart}(?![\w-])", context.request)
    if found is not None:
        return {"written_apart": found.group(0)}
    # an id's number without its prefix ("Refund order 1002", "#1002" for ORD-1002)
    number = re.fullmatch(r"[A-Za-z]{1,6}[-_]?(\d{3,})", value.strip())
    bare = number and re.search(rf"(?<![\w-]){number.group(1)}(?![\w-]|[.,]\d)", context.request)
    return {"written_without_its_prefix": bare.group(0)} if bare else None


#: A figure with a multiplier after it ("2k", "1.5K", "3m"): thousands, millions.
_MULTIPLIED = re.compile(r"(?i)(?<![\w.,])(\d+(?:\.\d+)?)\s?(k|m|mn|bn)\b")
_MULTIPLIERS = {"k": 1_000, "m": 1_000_000, "mn": 1_000_000, "bn": 1_000_000_000}
#: Numbers as words, with what each adds or multiplies ("two hundred fifty", "twenty-five").
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000}


def numbers_in_words(text: str) -> list[tuple[str, int]]:
    """The numbers ``text`` writes as words, each with its words as written ("two hundred fifty",
    "twenty-five", "three thousand"): a run of number words (:data:`_SMALL_NUMBERS`, the scales;
    "and" between them), read as English counts them. "one" alone is no number (most often a
    pronoun)."""
    out: list[tuple[str, int]] = []
    text = re.sub(r"(?i)\ban?([ \t]+)(?=(?:hundred|thousand|million)\b)", r"one\1", text)  # "a hundred"
    for run in re.finditer(r"(?i)\b[a-z]+(?:(?:[ \t]+|-)(?:and[ \t]+)?[a-z]+)*\b", text):
        words, total, current = re.split(r"[ \t-]+", run.group(0).casefold()), 0, 0
        held: list[str] = []
        for w in [*words, ""]:
            if w in _SMALL_NUMBERS and w not in ("hundred", "dozen"):
                current += int(_SMALL_NUMBERS[w])
            elif w in _SCALES and (current or total):
                total, current = (
                    (total + current * _SCALES[w], 0) if w != "hundred" else (total, current * 100)
                )
            elif w == "and" and (current or total):
                continue
            else:
                if (current or total) and held != ["one"]:
                    out.append((" ".join(held), total + current))
                total, current, held = 0, 0, []
                continue
            held.append(w)
    return out


def _a_figure_written_otherwise(value: Any, rule: ArgSource, context: ReviewContext) -> dict[str, Any] | None:
    """Does the turn write the call's number otherwise than as a figure the reader reads: in words
    ("two hundred fifty euros"), with a multiplier ("2k EUR", "1.5k"), or as the number of something
    a label names ("Refund the customer 20 on ORD-1004": customer number 20, or 20 to the customer)?
    Then whether the user meant this value the reader cannot tell: the call is asked, never refused
    for it (another number than the one written is refused, as before)."""
    if "request" not in rule.sources or not is_number(value):
        return None
    wanted = amount_value(value)
    if wanted is None:
        return None
    text = unprohibited_text(context.request)
    for words, number in numbers_in_words(text):
        if Decimal(number) == wanted:
            return {"amount_written_as": words}
    # a sum and its cents after the currency's word ("twelve pounds fifty", "12 euros 50")
    for said_so, total in _sums_and_cents(text):
        if total == wanted:
            return {"amount_written_as": said_so}
    for found in _MULTIPLIED.finditer(text):
        if Decimal(found.group(1)) * _MULTIPLIERS[found.group(2).casefold()] == wanted:
            return {"amount_written_as": found.group(0)}
    # "5.000" for 5000: thousands as the continent groups them, or 5 as English writes it
    for found in READS_TWO_WAYS.finditer(text):
        if Decimal(found.group(0).replace(".", "")) == wanted:
            return {"amount_written_as": found.group(0), "reads_two_ways": True}
    figure = format(wanted.normalize(), "f")
    labelled = next((m for m in LABELLED.finditer(text) if m.group(1) == figure), None)
    if labelled:
        return {"amount_written_as": labelled.group(0), "after_a_label": True}
    # "refund order 8812 60": the figure after another number and a space may be its last digits
    beside = re.search(rf"\d[ \u00a0]+{re.escape(figure)}(?![\w.,])", text)
    return {"amount_written_as": beside.group(0), "beside_a_number": True} if beside else None


#: A currency's word between a sum and its cents ("twelve pounds fifty", "12 euros 50").
_A_CURRENCY_WORD = re.compile(
    r"(?i)[ \t]+(?:pounds?|quid|euros?|dollars?|bucks|francs?|kronor|kroner|krona|crowns?|rand)"
    r"[ \t]+(?:and[ \t]+)?"
)
#: The cents after a currency's word, in figures or in words ("50", "fifty", "twenty-five").
_CENTS_AFTER = re.compile(r"(?i)(\d{1,2}|[a-z]+(?:-[a-z]+)?)(?![\w.,-])")


def _sums_and_cents(text: str) -> Iterator[tuple[str, Decimal]]:
    """Each sum ``text`` writes with its cents after the currency's word, as written and as a
    number ("twelve pounds fifty": 12.50)."""
    for m in _A_CURRENCY_WORD.finditer(text):
        cents_at = _CENTS_AFTER.match(text, m.end())
        before = re.findall(r"[\w-]+", text[: m.start()])
        if cents_at is None or not before:
            continue
        cents = _a_number_as_written(cents_at.group(1))
        for size in (4, 3, 2, 1):  # the longest run of words before it that is one number
            whole = _a_number_as_written(" ".join(before[-size:])) if len(before) >= size else None
            if whole is not None and cents is not None and cents < 100:
                start = text.rfind(before[-size], 0, m.start())
                yield text[start : cents_at.end()], Decimal(whole) + Decimal(cents) / 100
                break


def _a_number_as_written(text: str) -> int | None:
    """The whole number ``text`` is, in figures or in words ("50", "fifty", "twenty-five"); None
    where it is no number, or holds more than one."""
    if text.isdigit():
        return int(text)
    found = numbers_in_words(text)
    words = " ".join(re.split(r"[ \t-]+", text.casefold()))
    return int(found[0][1]) if len(found) == 1 and found[0][0] == words else None


#: A time of day in words ("quarter past eleven", "half past two", "ten o'clock", "eleven thirty").
_A_TIME_IN_WORDS = re.compile(
    r"(?i)\b(?:(?P<part>quarter|half|twenty|ten|five|twenty-five)[ \t]+(?P<rel>past|to|after)[ \t]+"
    r"(?P<h1>[a-z]+)|(?P<h2>[a-z]+)[ \t]+o'?clock"
    r"|(?P<h3>[a-z]+)[ \t]+(?P<m3>fifteen|thirty|forty-five|forty five))\b"
)
_MINUTES_BEFORE = {"quarter": 15, "half": 30, "twenty": 20, "ten": 10, "five": 5, "twenty-five": 25}


def _times_in_words(text: str) -> list[tuple[str, set[str]]]:
    """Each time of day ``text`` writes in words, with the times it may be (either half of the
    day: "quarter past eleven" is 11:15 or 23:15)."""
    found = []
    for m in _A_TIME_IN_WORDS.finditer(text):
        hour = _a_number_as_written(m["h1"] or m["h2"] or m["h3"] or "")
        if hour is None or not 1 <= hour <= 12:
            continue
        if m["part"]:
            minutes = _MINUTES_BEFORE[m["part"].casefold()]
            hour, minute = (hour, minutes) if m["rel"].casefold() != "to" else (hour - 1 or 12, 60 - minutes)
        elif m["m3"]:
            minute = {"fifteen": 15, "thirty": 30}.get(m["m3"].casefold(), 45)
        else:
            minute = 0
        found.append((m.group(0), {f"{hour % 12:02d}:{minute:02d}", f"{hour % 12 + 12:02d}:{minute:02d}"}))
    found += [(m.group(0), {"12:00"}) for m in _NOON.finditer(text)]  # "at noon", "midday"
    # a clock time without its half of the day ("at 1:30"): 01:30 or 13:30, which the turn does not say
    found += [
        (m.group(0), {f"{int(m[1]):02d}:{m[2]}", f"{int(m[1]) + 12:02d}:{m[2]}"})
        for m in _A_TIME_WITHOUT_ITS_HALF.finditer(text)
    ]
    return found


#: A clock time written without its half of the day: an hour of one figure, its minutes, no "am",
#: "pm", "h" nor a part of the day after it ("at 1:30", "2:15"; not "01:30", "1:30pm", "1:30 in the
#: afternoon").
_A_TIME_WITHOUT_ITS_HALF = re.compile(
    r"(?i)(?<![\d:.,/-])([1-9]):([0-5]\d)(?![\d:]|\s*(?:a\.?m\b|p\.?m\b|h\b|hrs?\b|o['’]?clock)"
    r"|\s+(?:in\s+the\s+|this\s+|tomorrow\s+)?(?:morning|afternoon|evening|night)\b|\s+tonight\b)"
)


#: The hour a word names for certain: 12:00 ("midnight" ends one day and opens the next: which,
#: the word does not say).
_NOON = re.compile(r"(?i)(?<![\w-])(?:noon|midday|mid-day)(?![\w-])")


def _a_time_written_in_words(value: Any, rule: ArgSource, context: ReviewContext) -> dict[str, Any] | None:
    """Does the turn write the call's time of day in words ("at quarter past eleven" for 11:15)?
    Which half of the day, and whether the user meant it, a human says: asked, never refused for
    it (another time is refused, as before)."""
    if (
        "request" not in rule.sources
        or not isinstance(value, str)
        or not re.fullmatch(r"\d{2}:\d{2}", value.strip())
    ):
        return None
    for words, times in _times_in_words(unprohibited_text(context.request)):
        if value.strip() in times:
            return {"time_written_as": words}
    return None


def _in_capitals_only(value: Any, rule: ArgSource, context: ReviewContext) -> dict[str, Any] | None:
    """Where the request writes a name only in sentences whose every word opens with a capital
    ("SCALE CHECKOUT-API TO 4", "Grant Asmith Admin", "PAY THE ACME SUPPLIES BILL"), whether it is
    a whole name or a part of a longer one cannot be read: a capital there marks no name. The value
    is asked, never refused (it may be the whole name) nor run unasked (it may be a part: "ACME" of
    "ACME SUPPLIES"). None: such sentences are not what makes it part of another name, or the rule
    does not take the request."""
    if (
        "request" not in rule.sources
        or not isinstance(value, str)
        or not _WORDS_ONLY.fullmatch(value.strip())
    ):
        return None
    request = context.request
    if not part_of_another_name(value, request):
        return None
    capitals = [
        m.group(0).strip()
        for m in _A_SENTENCE.finditer(request)
        if len(words := _A_WORD.findall(m.group(0))) > 1 and all(w[:1].isupper() for w in words)
    ]
    plain = _A_SENTENCE.sub(
        lambda m: m.group(0).lower() if m.group(0).strip() in capitals else m.group(0), request
    )
    if part_of_another_name(value, plain) or not found_in(value, [Source("request", plain)]):
        return None
    return {"in_capitals": capitals[:6]}


def _as_written(value: str, request: str) -> bool:
    """Does the request write a handle as the handle is ("DM ana ...": ``ana``, lowercase), not only
    as a word of a name ("DM Mei Tanaka": ``tanaka`` is written nowhere as it is)?"""
    return (
        value[:1].islower()
        and re.search(rf"(?<![\w'-]){re.escape(value.strip())}(?![\w'-])", request) is not None
    )


def _whole_field(value: Any, source: Source) -> bool:
    """Does a record the request names give ``value`` as one of its fields, whole? A value that is
    an id, an address or an amount does wherever it is found in it; one written in words only (a
    name, a handle) only as a field's whole text, never as a word of a longer one ("tanaka" is no
    value of the contact Mei Tanaka: it is another person's handle)."""
    if not isinstance(value, str) or not _WORDS_ONLY.fullmatch(value.strip()):
        return True
    wanted = tokens(value)
    return any(tokens(field) == wanted for field in source.text.split(" | "))


def _said(value: Any, source: Source, context: ReviewContext, arg: str | None = None) -> bool:
    """Does ``source`` give ``value`` as the user said it: any source but the request does; the
    request only where it writes the value outside its prohibitions ("Don't touch E-102") and, a
    name, as a whole name, never as part of a longer one ("Acme" in "the Acme Supplies bill", "Max"
    in "my Gym Max bill"). For an argument that is no field of text (``arg``: not a memo, a body),
    never where the turn gives it only as a text's content or a reference ("with the memo E-102",
    "quoting E-102", "to match E-102", a quote after "reply"), nor where the turn names it only as
    the way to someone else ("ana's bot", "whoever invited ana": :data:`SOMEONE_ELSE`)."""
    if source.kind == "named":
        return _whole_field(value, source)
    if source.kind == "own":  # what the run made is the object of an argument of its kind only
        return arg is None or _of_the_kind_made(arg, str(source.tool), context)
    if source.kind != "request":
        return True
    # a name, as written ("Acme") or as a handle ("tanaka"): never a part of a longer one
    name = isinstance(value, str) and bool(_WORDS_ONLY.fullmatch(value.strip()))
    if name and part_of_another_name(value, context.request) and not _as_written(value, context.request):
        return False
    kept = unprohibited_text(context.request)
    if arg is not None and not content_field(arg):
        kept = SOMEONE_ELSE.sub(" ", without_quoted_content(kept))
    return kept == context.request or bool(found_in(value, [Source("request", kept)]))


#: Why a figure of a record the turn names is put to a human: the turn says the call is part of it
#: ("the first installment of the Acme bill") and states no amount.
PART_OF_A_RECORD = "amount_part_of_a_record"


def _stated_bound(
    value: Any,
    admitting: Sequence[Source],
    asked: Requested | None,
    context: ReviewContext,
    names: Sequence[str] = (),
) -> Decision | bool:
    """Does what the turn asks for a call of this kind bound a number a named record gives? Where
    the mandates for the call state an amount of their own ("pay 50.00 of the Acme bill B-40"), the
    record's figure is no amount asked for (True: only the stated one, or one derived from it, is
    admitted); where they say the call is part of the record without a figure ("the first
    installment of ...", "a deposit on ..."), it is asked (the decision). False otherwise. A part
    that is a field of the record holding the figure ("Refund Grace Okafor's deposit": her
    ``deposit``), or words that only describe the record, by its own values and the words of the
    call's ``names`` (its tool's and arguments': "Dana's travel claim EXP-2201" for a claim whose
    category is travel, ``claim_id``), names no part."""
    if not is_number(value) or not admitting or any(s.kind != "named" for s in admitting):
        return False
    stated = stated_for(asked, context.request, context.read)
    if amounts(stated) or number_word(stated):
        return True
    partial = partial_word(stated)
    if partial is not None and any(_field_named(value, partial, s, context) for s in admitting):
        partial = None
    own = {w for n in names for w in _name_words(n)}
    word = partial or next(
        (
            part
            for s in admitting
            if (part := part_of_record(context.request, s.text, _verbs_of(asked))) is not None
            and not _field_named(value, part, s, context)
            and not set(part.split()) <= own | {w for f in s.text.split(" | ") for w in words_of(f)}
        ),
        None,
    )
    if word is None:
        return False
    details = {"value": value, "read": [stated], "unread": [word]}
    return Decision("escalate", PART_OF_A_RECORD, details)


def _verbs_of(asked: Requested | None) -> frozenset[str]:
    """The words a call's kind is asked for by (its ``Requested`` keywords and verbs)."""
    return frozenset() if asked is None else frozenset(w.casefold() for w in (*asked.keywords, *asked.verbs))


def _field_named(value: Any, part: str, source: Source, context: ReviewContext) -> bool:
    """Is the part the turn names of a record (its words, ``part``) one of the record's own fields,
    holding ``value`` ("refund the shipping fee of ORD-1002": the order's ``shipping``, 9.90)? Then
    the figure is the one asked for; a part the record has no field for ("B-40's reminder fee") is
    not. A field is named where every word of its name is a word of the part, and it is not the
    record's whole figure ("B-40's disputed amount" names no field: ``amount`` is the bill's)."""
    held, said = set(source.text.split(" | ")), set(part.split())
    for record in _records_read(context):
        scalars = {str(v) for v in record.values() if not isinstance(v, Mapping | list)}
        if not held & scalars:
            continue
        for key, field_value in record.items():
            words = {w for w in re.split(r"[\W_]+", str(key).casefold()) if w}
            # a field that is the record's whole figure ("amount", "total") is no part of it
            named = bool(words - WHOLE_WORDS) and words <= said
            if named and is_number(field_value) and Decimal(str(field_value)) == Decimal(str(value)):
                return True
    return False


def _where(value: Any, found: Sequence[Source]) -> str:
    """Where a value a rule reads was found, in words: a boolean is written nowhere."""
    if isinstance(value, bool):
        return "a boolean: no source writes it"
    return describe(found) if found or traced(value) else "written as a whole word nowhere in the run"


def _follow_traced(follow: Callable[[str, Any], str | None], arg: str, value: Any) -> str | None:
    """A follow rule's word for a value it can point to: a traced value (a short code or a flag is
    taken from a record only where a source a rule admits writes it)."""
    return follow(arg, value) if traced(value) else None


def _a_day_written_otherwise(value: Any, rule: ArgSource, context: ReviewContext) -> dict[str, Any] | None:
    """Does the turn write the call's day in a form the reader does not take as that day alone: a
    month's day without its year ("Dec 15"), a day of the month alone ("the 10th"), or in figures
    with slashes ("12/16/2026", which the reader never reads as one day)? Whether the user meant this
    day, a human says: asked, never refused for it (another day is refused, as before)."""
    if (
        "request" not in rule.sources
        or not isinstance(value, str)
        or not _AN_ISO_DAY.fullmatch(value.strip())
    ):
        return None
    text = unprohibited_text(context.request)
    if written_as(text, {value.strip()}) != text:
        return {"day_written_as": value.strip()}
    year, month, day = (int(part) for part in value.strip().split("-"))
    for m in _A_SLASHED_DAY.finditer(text):
        first, second, written_year = int(m["a"]), int(m["b"]), int(m["y"])
        if written_year % 100 == year % 100 and {(first, second), (second, first)} & {(month, day)}:
            return {"day_written_as": m.group(0)}
    for m in _AN_ORDINAL_DAY.finditer(text):  # "Move MO-301 to the 10th": which month, a human says
        if int(m["d"]) == day:
            return {"day_written_as": m.group(0)}
    return None


#: A figure right after a verb that adds it ("Add 40,00 credit to ...", "credit €15 to ...").
_A_FIGURE_ADDED = re.compile(
    r"(?i)\b(?:add|credit|top\s+up|give)\s+(?:an?\s+)?(?:extra\s+)?[$€£]?\s*(?P<n>\d+(?:[.,]\d+)*)"
)
#: A day as ``YYYY-MM-DD``; a day in figures with slashes ("12/16/2026", "16/12/26").
_AN_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
#: A day of the month alone, as an ordinal ("the 10th", "on the 3rd").
_AN_ORDINAL_DAY = re.compile(r"(?i)(?<![\w/-])(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)\b")
_A_SLASHED_DAY = re.compile(r"(?<![\d/])(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4}|\d{2})(?![\d/])")


def _an_operand_as_written(
    value: Any, admitting: Sequence[Source], rule: ArgSource, context: ReviewContext
) -> dict[str, Any] | None:
    """Is the call's number a figure the turn writes, read there as a term of an operation it
    states ("Add 40,00 credit to Ben Cho's account": 40 added to what the account holds), or one
    joined to a unit by a dash ("a 6-month plan")? The figure as written may be the value the call
    takes: asked, never refused (another figure is refused, as before)."""
    if "request" not in rule.sources or not is_number(value):
        return None
    amount = amount_value(value)
    if admitting and _only_an_operand(value, admitting, context.request, rule.arg):
        added = (
            m.group(0)
            for m in _A_FIGURE_ADDED.finditer(unprohibited_text(context.request))
            if any(v == amount and not percent for v, percent, _w in amounts_read(m.group("n")))
        )  # only what an act adds: the whole a part is of ("2 of the 5 nights") stays refused
        written = next(added, None)
        return {"amount_written_as": written, "an_operand": True} if written else None
    figure = format(amount.normalize(), "f") if amount is not None else ""
    joined = (
        re.search(rf"(?<![\w.,-]){re.escape(figure)}-[A-Za-z]+", unprohibited_text(context.request))
        if figure
        else None
    )
    return {"amount_written_as": joined.group(0)} if joined else None


def _only_an_operand(value: Any, admitting: Sequence[Source], request: str, arg: str = "") -> bool:
    """Is a number admitted only by the request, where the request writes it as a term of an
    operation it states (:func:`policies.supervisor.provenance.derivation.operands`)? Then it is
    no value to use as is. A rate the call takes as a rate is not: an argument named for a share
    (``percent``, ``discount_pct``) whose value the turn writes as that share ("15% off", "15
    percent") is the share itself."""
    if not is_number(value) or any(s.kind != "request" for s in admitting):
        return False
    if _A_RATE_ARG.search(arg) and re.search(
        rf"(?<![\d.,]){re.escape(str(value))}\s*(?:%|percent\b)", request, re.I
    ):
        return False
    return _cents_of(value) in operands(request)


#: Arguments whose value is a share in hundredths ("percent", "discount_pct", "rate_percent").
_A_RATE_ARG = re.compile(r"(?i)(?:^|_)(?:percent|percentage|pct)(?:_|$)")


def _free_text(
    tool: str,
    rule: IdentifierRule,
    args: Mapping[str, Any],
    context: ReviewContext,
    checked: dict[str, str],
    policy: SupervisorPolicy,
) -> Decision | None:
    """Each identifier in the rule's text arguments must come from one of its sources."""
    for name in rule.args or list(args):
        for text in (v for v in leaf_values(args.get(name)) if isinstance(v, str)):
            for (kind, value), found in identifier_origins(text, context.sources, rule.kinds).items():
                label = f"{name}:{value}"
                checked[label] = describe(found)
                if any(s.admitted_by(rule.sources) for s in found):
                    continue
                told_by = followed(
                    policy,
                    tool,
                    name,
                    (kind, value),
                    context.request,
                    context.calls,
                    context.subject,
                    context.read,
                )
                if told_by:
                    checked[label] = told_by
                    continue
                details = {"arg": name, "kind": kind, "identifier": value}
                where = {"provenance": {label: checked[label]}}
                told = flow(value, checked[label], f"{tool}.{name}")
                return Decision(policy.verdict(rule.verdict), rule.reason, {**details, **where, **told})
    return None


def _unreadable(reason: str, arg: str, value: Any, group: Sequence[str], earlier: bool = False) -> Decision:
    """An amount a limit cannot read as a number (:func:`policies.supervisor.reading.amounts.amount_value`):
    asked, never admitted."""
    details: dict[str, Any] = {"arg": arg, "value": value}
    details |= {"group": list(group)} if group else {}
    return Decision("escalate", reason, details | {"unreadable": AN_EARLIER_CALL if earlier else THIS_CALL})


def _amounts(
    action: Mapping[str, Any], name: str, rules: ToolRules, context: ReviewContext
) -> Decision | None:
    """Numeric arguments (finite, positive, to their decimals), the cap on their sum (the run's, or
    the thread's) and the limits per record across the thread. Every amount is read by
    :func:`policies.supervisor.reading.amounts.amount_value`; one a cap cannot read is asked. A ``NumberArg``
    declares a number: a text (a decimal string too) is blocked by it, as anything else that is none."""
    args: Mapping[str, Any] = action.get("args") or {}
    for rule in rules.number_args:
        value = args.get(rule.arg)
        amount = amount_value(value) if is_number(value) else None  # a number, never a text
        if amount is None:
            return _block(rule.type_reason, arg=rule.arg)
        kept = rounded(amount, rule.decimals) if rule.decimals is not None else amount
        if kept <= 0:
            return _block(rule.positive_reason, arg=rule.arg, value=value)
        if kept != amount:
            return _revise(action, rule.rounding_reason, {rule.arg: same_form(value, kept)})
    cap = rules.run_cap
    if cap is not None:
        group = sorted(tools_of(name, cap.group)) if cap.group else []
        value = args.get(cap.arg)
        before = context.summed(tools_of(name, cap.group), cap.arg, args, cap.scope, cap.per)
        left = DECIMALS.subtract(Decimal(repr(cap.limit)), before) if before is not None else None
        if left is not None and left <= 0:  # spent: blocked, whatever this call's amount
            return _block(
                cap.exhausted_reason,
                limit=cap.limit,
                **({"scope": "thread"} if cap.scope == "thread" else {}),
                **({"group": group} if group else {}),
            )
        amount = amount_value(value)
        if amount is None:
            return _unreadable(cap.unreadable_reason, cap.arg, value, group)
        if left is None:
            return _unreadable(cap.unreadable_reason, cap.arg, value, group, earlier=True)
        if amount > left:
            return _revise(action, cap.revise_reason, {cap.arg: same_form(value, left)})
    return None


def _thresholds(
    name: str, rules: ToolRules, args: Mapping[str, Any], context: ReviewContext
) -> Decision | None:
    """The first threshold the call (with the calls it sums, when cumulative) goes above: asked; an
    amount it cannot read, this call's or a summed one's, asked too."""
    for threshold in rules.escalate_above:
        value = args.get(threshold.arg)
        group = sorted(tools_of(name, threshold.group)) if threshold.group else []
        amount = amount_value(value)
        if amount is None:
            return _unreadable(threshold.unreadable_reason, threshold.arg, value, group)
        before = (
            context.summed(
                tools_of(name, threshold.group), threshold.arg, args, threshold.scope, threshold.per
            )
            if threshold.cumulative
            else Decimal(0)
        )
        if before is None:
            return _unreadable(threshold.unreadable_reason, threshold.arg, value, group, earlier=True)
        if DECIMALS.add(before, amount) > Decimal(repr(threshold.limit)):
            details = {"arg": threshold.arg, "limit": threshold.limit, "value": value}
            if before:
                details["run_total" if threshold.scope == "run" else "thread_total"] = float(before)
            return Decision("escalate", threshold.reason, details | ({"group": group} if group else {}))
    return None


def _final_identifiers(answer: str, context: ReviewContext, policy: SupervisorPolicy) -> dict[str, str]:
    """Identifiers and names in the answer that appear only in untrusted observations → where."""
    found: dict[str, str] = {}
    if policy.final_identifiers != "allow":
        idents = identifier_origins(answer, context.sources, policy.final_identifier_kinds)
        found |= {
            f"{kind}:{value}": describe(where)
            for (kind, value), where in idents.items()
            if not any(s.admitted_by(["trusted"]) for s in where)
        }
    return found


def _final_review(action: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy) -> Decision:
    """The final answer: after the required tools, and with its links, addresses and account
    numbers (``final_identifiers``) and the names it recommends (``final_entities``) checked: those
    that appear only in untrusted observations are annotated, escalated or blocked."""
    if policy.final_requires_tools and not any(context.succeeded(t) for t in policy.final_requires_tools):
        return _block("final_requires_context", requires=list(policy.final_requires_tools))
    answer = str(action.get("answer"))
    checks = [
        (
            policy.final_identifiers,
            "untrusted_identifier_in_answer",
            _final_identifiers(answer, context, policy),
        ),
    ]
    if policy.final_entities != "allow":
        names = untrusted_names(answer, context.sources)
        checks.append(
            (
                policy.final_entities,
                "untrusted_entity_in_answer",
                {f"name:{n}": describe(w) for n, w in names.items()},
            )
        )
    flagged = [(mode, reason, found) for mode, reason, found in checks if found]
    if not flagged:
        return Decision("approve", "final_answer_allowed")
    strictest = max(flagged, key=lambda c: ("annotate", "escalate", "block").index(c[0]))
    untrusted = {k: v for _m, _r, found in flagged for k, v in found.items()}
    first, origin = next(iter(strictest[2].items()))
    told = flow(first.split(":", 1)[1], origin, "the final answer")
    if strictest[0] == "annotate":
        return Decision("approve", "final_answer_annotated", {"provenance": untrusted, **told})
    return Decision(strictest[0], strictest[1], {"provenance": untrusted, **told})


def custom_rules_given(
    custom_rules: Mapping[str, CustomRule] | None, hooks: Mapping[str, CustomRule] | None, where: str
) -> Mapping[str, CustomRule] | None:
    """The custom rules a caller gave, under the public name ``custom_rules`` or the deprecated
    ``hooks=`` (a ``DeprecationWarning``; both at once is a ``TypeError``)."""
    if hooks is None:
        return custom_rules
    if custom_rules is not None:
        raise TypeError(f"{where}: give custom_rules= only (hooks= is its deprecated name)")
    warnings.warn(
        f"{where}(hooks=...) is deprecated: the argument is named custom_rules, as in build_graph and "
        "GovernanceMiddleware",
        DeprecationWarning,
        stacklevel=3,
    )
    return hooks


def review_action(
    action: Mapping[str, Any],
    context: ReviewContext,
    policy: SupervisorPolicy,
    custom_rules: Mapping[str, CustomRule] | None = None,
    *,
    hooks: Mapping[str, CustomRule] | None = None,
) -> Decision:
    """One supervisor review of a validated action: approve, revise (``details["action"]``),
    escalate (``details["arg"]``/``limit`` for thresholds) or block. ``custom_rules``: the pure
    functions the policy's ``ToolRules.custom`` names (``hooks``: its deprecated name). Where
    provenance rules checked values, the decision's ``details["provenance"]`` says where each came
    from; a flow rule's refusal or escalation says which flow it stopped (``details["flow"]``: value,
    from, to). A tool call is decided by :data:`CHAIN`, in order; the decision names the check that
    decided (``Decision.check``) and the checks it passed (``Decision.passed_checks``). Both engines
    and the MCP gateway call it; it is the one ``review_action`` (``policies.supervisor``)."""
    if hooks is not None:
        custom_rules = custom_rules_given(custom_rules, hooks, "review_action")
    if not context.field_trust and policy.field_trust():
        context = replace(context, field_trust=policy.field_trust())
    if not context.effects and policy.effect_tools():
        context = replace(context, effects=policy.effect_tools())
    if not context.creates and policy.created_id_fields():
        context = replace(context, creates=policy.created_id_fields())
    if context.known is None:  # the turn read whole: only the mandates it leaves standing admit
        context = replace(context, known=tuple(policy.declared_verbs()))
    if action.get("kind") == "final":
        final = replace(_final_review(action, context, policy), check=FINAL_CHECK)
        return _final_in_shadow(final) if policy.mode == "shadow" else final
    name = str(action.get("name"))
    rules = policy.rules_for(name)  # its own, and the summed rules of the groups it belongs to
    if rules is None:  # structural: never shadowed
        return replace(_block(f"unknown_tool_for_supervisor:{name}"), check=UNKNOWN_TOOL)
    rules = _objects_named_by_the_call(rules, action.get("args") or {}, context)
    call = Call(name, action, action.get("args") or {}, rules, policy, custom_rules or {})
    context = accounted_for_the_call(name, call.args, rules.requested, context)
    decided, would = run_chain(call, context, shadowed_checks(rules, policy))
    decided = _asked_where_unread(decided, call, context)
    covered = _covered(action, decided, context, policy)
    return shadowed(covered, [_covered(action, w, context, policy) for w in would]) if would else covered


def _objects_named_by_the_call(
    rules: ToolRules, args: Mapping[str, Any], context: ReviewContext
) -> ToolRules:
    """The tool's rules with the objects of its kind of action (``Requested.objects``) named, for
    this call, by the values of its arguments named for one of them that the turn writes ("Schedule
    VB-5506 for Dec 18": ``bill_id="VB-5506"`` names the bill, "Take dkimball out of vpn-users":
    ``group="vpn-users"`` the group): a mandate of one of the kind's verbs that writes such a value
    acts on that object. Where none is written, the rules as they are."""
    asked = rules.requested
    if asked is None or not asked.verbs or not asked.objects:
        return rules
    objects = {o.casefold() for o in asked.objects}
    turn = f" {' '.join(words_of(context.request))} "
    named: list[str] = []
    for arg, value in args.items():
        kinds = {w for w in re.split(r"[_\W]+", str(arg).casefold()) if w}
        if not kinds & objects or not isinstance(value, str):
            continue
        written = words_of(value.strip())
        if written and f" {' '.join(written)} " in turn:
            named += [w for w in written if w not in FUNCTION_WORDS]
    if not named:
        return rules
    wider = asked.model_copy(update={"objects": [*asked.objects, *dict.fromkeys(named)]})
    return rules.model_copy(update={"requested": wider})


def _asked_where_unread(decided: Decision, call: Call, context: ReviewContext) -> Decision:
    """A refusal stands on a complete reading of the turn only. Where the reading is partial, the
    call is reviewed again as if every span the reader could not read asked for something
    (:class:`~policies.supervisor.reading.coverage.WideReader`): a call that reading would not
    refuse is one the unread words may ask for, and it is put to a human with the reading
    (:data:`PARTLY_READ`), never refused for words the reader could not read; one it still refuses
    is refused (the unread words cannot be what admits it). The wider reading never approves."""
    reading = context.read.reading
    if decided.verdict != "block" or reading is None or reading.complete or context.known is None:
        return decided
    wide = WideReader(context.request, reading, context.known, context.reader)
    fresh = Call(call.name, call.action, call.args, call.rules, call.policy, call.custom_rules)
    again = decide_call(fresh, replace(context, reader=wide, known=None, read_for_the_call=None))
    asked = call.rules.requested if call.rules is not None else None
    if again.verdict == "block" and not _pointed_back_by_unread(again, reading, context.request, asked):
        return decided
    details = {**reading.shown(), "refused_on_the_reading": decided.reason}
    return replace(decided, verdict="escalate", reason=PARTLY_READ, details=details)


def _pointed_back_by_unread(
    refused: Decision, reading: Reading, request: str, asked: Requested | None
) -> bool:
    """Is the value a refusal names written in the turn, where an unread span asks for the call's
    kind of action and points back ("Don't scale checkout to 40, scale it to 4.", "Don't restart
    checkout. Roll it back instead.")? The word may stand for it, in words the reader could not
    read: a human says, it is not refused. A span that asks for no action of the kind ("... the 70
    EUR I already sent him") points nowhere the call goes."""
    value = refused.details.get("value")
    if asked is None or value is None or isinstance(value, bool):
        return False
    if not found_in(value, [Source("request", request)]):
        return False
    kind = {words_of(k)[0] for k in [*asked.keywords, *asked.verbs] if words_of(k)}
    return any(
        WORDS_POINTING_BACK & set(words_of(span.text)) and kind & set(words_of(span.text))
        for span in reading.unread
    )


def _pointing_at_nothing_read(
    value: Any, asked: Requested | None, context: ReviewContext
) -> dict[str, Any] | None:
    """Does a mandate asking for the call point back ("roll it back") to nothing the reading lets
    stand (its only antecedent a prohibition: "Never restart payments in prod — roll it back
    instead."), while the turn writes ``value``? Then what the word stands for is not read: the call
    is asked, never refused for it."""
    reading = context.read.reading
    if asked is None or reading is None or isinstance(value, bool):
        return None
    if not found_in(value, [Source("request", context.request)]):
        return None
    for asking in _asking_now(asked, context):
        if WORDS_POINTING_BACK & set(words_of(asking.text)) and not asking.antecedents:
            return {"pointing_at": said(asking), **reading.shown()}
    return None


def _covered(
    action: Mapping[str, Any], decided: Decision, context: ReviewContext, policy: SupervisorPolicy
) -> Decision:
    """The decision, or the approval of an escalation a grant of the turn covers (:data:`GRANTS`),
    a Cedar ``@ask`` as any other question (the human's yes covers the same kind of step)."""
    covered = granted(action, decided, context, policy)
    if covered is decided:
        return decided
    return replace(covered, check=GRANTS, passed_checks=(*decided.passed_checks, decided.check))


# --- shadow mode: a rule computed and recorded, not enforced -----------------------------------------

#: What a shadowed decision would have done to the call, in the words of a shadow report.
WOULD = {"block": "refuse", "escalate": "ask", "revise": "revise"}


def shadow_row(would: Sequence[Decision]) -> dict[str, Any]:
    """The decisions shadowed checks made (``would``, in the chain's order), as the review row
    records them (``shadow``): what the policy would have done, the first one's — ``would``
    (refuse, ask, revise), its verdict, reason and check, the rule's details (not where each value
    came from, nor a revised action: those are the call's own) — and, in ``also``, each later
    shadowed check that would have decided too (check, would, reason): what each rule would have
    done were the rules before it switched off."""
    first, *later = would
    details = {k: v for k, v in first.details.items() if k not in ("provenance", "action", "mandate")}
    row: dict[str, Any] = {"would": WOULD[first.verdict], "verdict": first.verdict, "reason": first.reason}
    row |= {"check": first.check} | ({"details": details} if details else {})
    also = [{"check": d.check, "would": WOULD[d.verdict], "reason": d.reason} for d in later]
    return row | ({"also": also} if also else {})


def shadowed(decided: Decision, would: Sequence[Decision]) -> Decision:
    """The decision the call is run by (``decided``: the chain without its shadowed checks), with
    what the shadowed checks that decided would have done (``would``, each after the turn's
    grants) in ``details["shadow"]`` (:func:`shadow_row`); a shadowed check that would have
    approved is no news and is not recorded."""
    kept = [d for d in would if d.verdict in WOULD]
    if not kept:
        return decided
    return replace(decided, details={**decided.details, "shadow": shadow_row(kept)})


def _final_in_shadow(final: Decision) -> Decision:
    """A final answer under a policy in shadow: given as it would be with no rules on it (approved,
    its annotations kept), with what the rules would have done in ``details["shadow"]``."""
    if final.verdict not in ("block", "escalate"):
        return final
    allowed = Decision("approve", "final_answer_allowed", {}, check=FINAL_CHECK)
    return shadowed(allowed, [final])


@dataclass
class Call:
    """One tool call under review, as the checks of :data:`CHAIN` read it: the tool's ``name``, the
    ``action`` and its ``args``, the tool's ``rules`` (its own and its groups'), the ``policy`` and
    the ``custom_rules`` it names; and what the checks passed so far found: the turn's ``mandate``
    for this kind of action (``ToolRules.requested``), where each checked value came from
    (``traced``) and, where the request may stand in for the human, where it gives each value
    (``given``)."""

    name: str
    action: Mapping[str, Any]
    args: Mapping[str, Any]
    rules: ToolRules
    policy: SupervisorPolicy
    custom_rules: Mapping[str, CustomRule]
    mandate: str | None = None
    traced: dict[str, str] = field(default_factory=dict)
    given: dict[str, str] | None = None
    unbound: dict[str, Any] = field(default_factory=dict)

    @property
    def seen(self) -> dict[str, Any]:
        """Where the checked values came from, as a decision's details carry it."""
        return {"provenance": self.traced} if self.traced else {}

    def limited(self) -> bool:
        """Do the limits on amounts, records and defaults apply (a tool that changes something)?"""
        return not self.rules.read_only


#: A check of the chain: the call and what the run knows in, a decision (it decided) or None (it
#: passed the call on to the next check).
Check = Callable[[Call, ReviewContext], Decision | None]


def _read_mandate(call: Call, context: ReviewContext) -> Decision | None:
    """Read the turn: the mandate of the user's turn that asks for this kind of action (shown to
    the human and in the audit: "you asked: cancel · the Budget Review"), read once per review
    by the context's reader from the user's words only."""
    if call.rules.requested is not None:
        call.mandate = mandate(call.rules.requested, context.request, context.read) or conditional_mandate(
            call.rules.requested, call.action, context, call.policy
        )
    return None


def _check_binding(call: Call, context: ReviewContext) -> Decision | None:
    return _binding(call.rules, call.args, context, call.policy)


def _check_provenance(call: Call, context: ReviewContext) -> Decision | None:
    traced = _provenance(call.name, call.rules, call.args, context, call.policy)
    if isinstance(traced, Decision):
        return traced
    call.traced = traced
    return None


def _check_ownership(call: Call, context: ReviewContext) -> Decision | None:
    return owned_records(call.rules, call.args, context, call.policy)


def _check_authority(call: Call, context: ReviewContext) -> Decision | None:
    """Who may authorise the call without a human: the request itself, where the tool's rules let
    it (``request_as_approval``), its mandate asks for this kind of action and it gives every value
    (:func:`~policies.supervisor.provenance.following.authorised`). Decides nothing yet: the limits still
    apply; the approval check reads what it found."""
    rules = call.rules
    asked = rules.requested
    if (
        rules.require_approval
        and rules.request_as_approval
        and asked is not None
        and requested(asked, context.request, context.read)
    ):
        call.given = authorised(
            call.args,
            context.request,
            context.calls,
            call.policy,
            context.subject,
            context.read,
            asked,
            call.name,
        )
        stated = stated_for(asked, context.request, context.read) if call.given is not None else ""
        broken = _bindings_broken(call.name, call.args, stated, context, call.policy, asked) if stated else {}
        if broken:  # the request gives each value, not as the call binds them: the human decides
            call.given, call.unbound = None, broken
    return None


def _check_amounts(call: Call, context: ReviewContext) -> Decision | None:
    return _amounts(call.action, call.name, call.rules, context) if call.limited() else None


def _check_record_limits(call: Call, context: ReviewContext) -> Decision | None:
    return record_limits(call.name, call.rules, call.args, context, call.policy) if call.limited() else None


def _check_defaults(call: Call, context: ReviewContext) -> Decision | None:
    for default in call.rules.defaults if call.limited() else ():
        present = call.args.get(default.arg)
        if present is None or (isinstance(present, str) and not present.strip()):
            return _revise(call.action, default.reason, {default.arg: default.value})
    return None


def _check_custom(call: Call, context: ReviewContext) -> Decision | None:
    return _apply_custom(call.rules.custom, call.action, context, call.custom_rules)


def _check_read_only(call: Call, context: ReviewContext) -> Decision | None:
    """A read-only tool that passed its checks so far is approved: the limits below are on changes."""
    return Decision("approve", call.rules.approve_reason, call.seen) if call.rules.read_only else None


def _with_seen(decision: Decision | None, call: Call) -> Decision | None:
    return (
        None
        if decision is None
        else Decision(decision.verdict, decision.reason, {**decision.details, **call.seen})
    )


def _check_repeats(call: Call, context: ReviewContext) -> Decision | None:
    return _with_seen(repeated(call.name, call.rules, call.args, context, call.policy), call)


def _check_thresholds(call: Call, context: ReviewContext) -> Decision | None:
    return _with_seen(_thresholds(call.name, call.rules, call.args, context), call)


def _check_approval(call: Call, context: ReviewContext) -> Decision | None:
    """A call whose rules require approval: approved by the request where the authority check found
    that it gives every value (``approved_by: request``), else asked."""
    rules = call.rules
    if not rules.require_approval:
        return None
    if call.given is not None:
        said = {"provenance": {**call.traced, **call.given}, "approved_by": "request"}
        return Decision("approve", rules.authorised_reason, said)
    return Decision("escalate", rules.approval_reason, {**call.seen, **call.unbound})


def _check_approve(call: Call, context: ReviewContext) -> Decision | None:
    return Decision("approve", call.rules.approve_reason, call.seen)


#: The name :func:`review_action` gives a final answer's decision, a call of a tool the policy does
#: not know, and an escalation a grant of the turn covers (:mod:`policies.supervisor.authority.grants`).
FINAL_CHECK = "final_answer"
UNKNOWN_TOOL = "known_tool"
GRANTS = "grants"

#: How a tool call is decided, in order: the first check that decides gives the decision.
#: Read the turn (the mandate for this kind of action) → where each value came from (binding to
#: the subject, provenance and flows, ownership of the records) → who may authorise it (the
#: request as the approval) → limits (amounts and caps, record limits, defaults, the policy's
#: custom rules; a read-only tool is approved here; repeats, thresholds) → the decision (approval
#: by the request or a human, else approve). An escalation a grant of the turn covers is then
#: approved (:data:`GRANTS`).
CHAIN: tuple[tuple[str, Check], ...] = (
    ("mandate", _read_mandate),
    ("binding", _check_binding),
    ("provenance", _check_provenance),
    ("ownership", _check_ownership),
    ("authority", _check_authority),
    ("amounts", _check_amounts),
    ("record_limits", _check_record_limits),
    ("defaults", _check_defaults),
    ("custom_rules", _check_custom),
    ("read_only", _check_read_only),
    ("repeats", _check_repeats),
    ("thresholds", _check_thresholds),
    ("approval", _check_approval),
    ("approve", _check_approve),
)


def run_chain(
    call: Call, context: ReviewContext, shadowed: frozenset[str] = frozenset()
) -> tuple[Decision, list[Decision]]:
    """Run :data:`CHAIN` with the checks in ``shadowed`` computed, not enforced: the decision the
    call is run by (the first check not shadowed that decides: a shadowed check that decided is
    among its ``passed_checks``, as it would be without that rule, and the checks after it still
    apply), and the decisions of the shadowed checks that decided before it, in order (empty: none
    did). Where any did, the first is the one enforce mode would have given."""
    if not shadowed:
        return decide_call(call, context), []
    would: list[Decision] = []
    passed: list[str] = []
    for name, check in CHAIN:
        decision = _decided(call, context, name, check, passed)
        if decision is None or name in shadowed:
            would += [decision] if decision is not None else []
            passed.append(name)
            continue
        judged = with_cedar(call, context, decision)
        if CEDAR_CHECK in shadowed and judged.check == CEDAR_CHECK:
            return decision, [*would, judged]  # what Cedar would have done, recorded, not enforced
        return judged, would
    raise AssertionError("unreachable: the chain's last check decides")  # pragma: no cover


def _decided(
    call: Call, context: ReviewContext, name: str, check: Check, passed: Sequence[str]
) -> Decision | None:
    """One check of :data:`CHAIN` on the call: its decision, named, with the mandate where the
    tool's rules need one; None: it passed the call on."""
    decision = check(call, context)
    if decision is None:
        return None
    if call.rules.requested is not None:
        decision = Decision(decision.verdict, decision.reason, {**decision.details, "mandate": call.mandate})
    return replace(decision, check=name, passed_checks=tuple(passed))


def decide_call(call: Call, context: ReviewContext) -> Decision:
    """Run :data:`CHAIN` on a tool call: the first check that decides gives the decision, named in
    it (``check``) with the checks it passed (``passed_checks``); where the tool's rules need a
    mandate (``ToolRules.requested``), ``details["mandate"]`` is the clause of the request that
    asks for this kind of action ("cancel · the Budget Review") or None where none does: the audit
    row and the human's approval request show it ("you asked: ...", "no request asked for this")."""
    passed: list[str] = []
    for name, check in CHAIN:
        decision = _decided(call, context, name, check, passed)
        if decision is None:
            passed.append(name)
            continue
        return with_cedar(call, context, decision)
    raise AssertionError("unreachable: the chain's last check decides")  # pragma: no cover


def _evidence(value: Any, everywhere: Sequence[Source], call: Call, context: ReviewContext) -> list[Source]:
    """Where ``value`` comes from as the provenance rules weigh it, for Cedar's facts: the request
    only where it says the value outside a prohibition, whole, and not as a term of an operation it
    states; a named record only as one of its fields, and not for a figure the turn states its own
    amount for ("pay 50.00 of the Acme bill": the bill's 260.00 is no source)."""
    found = [s for s in found_in(value, everywhere) if _said(value, s, context)]
    named = [s for s in found if s.kind == "named"]
    if named and (
        _stated_bound(value, named, call.rules.requested, context) is True
        or _only_a_named_operand(value, named, context)
    ):
        found = [s for s in found if s.kind != "named"]
    said = [s for s in found if s.kind == "request"]
    if said and _only_an_operand(value, said, context.request):
        found = [s for s in found if s.kind != "request"]
    return found


def _with_this_call(
    call: Call, arg: str, context: ReviewContext, thread: bool
) -> tuple[Decimal | None, Decimal | None]:
    """The totals of ``arg`` this call would make: over the run's successful calls of its tool, and
    (``thread``: the ledger keeps it) over the thread's, this call's value added; None where one
    cannot be known (an amount that cannot be read, this call's or an earlier one's)."""
    value = amount_value(call.args.get(arg))
    earlier = (
        context.summed(call.name, arg),
        context.summed(call.name, arg, scope="thread") if thread else None,
    )
    run, whole = (None if t is None or value is None else DECIMALS.add(t, value) for t in earlier)
    return run, whole


def holding_record(value: Any, context: ReviewContext, policy: SupervisorPolicy) -> dict[str, Any] | None:
    """The record that holds ``value`` (a whole field of it) in the run's latest successful tool
    result that has one: its tool, its owner where the tool's records say it (``ToolSpec.owner``),
    and whether it is the user's own, as the ownership rules decide it (:meth:`Naming.owned`: the
    owner field trusted and the subject's). None: no result holds it."""
    ident = identity(value)
    if ident is None:
        return None
    for done in reversed(context.calls):
        tool = done.get("tool")
        if not done.get("ok") or not isinstance(tool, str):
            continue
        record = next(
            (
                found
                for _path, found in mappings(parsed(done.get("observation")))
                if any(identity(v) == ident for v in found.values() if not isinstance(v, Mapping | list))
            ),
            None,
        )
        if record is None:
            continue
        spec = policy.tools.get(tool)
        owner = record.get(spec.owner) if spec is not None and spec.owner else None
        said: dict[str, Any] = {"tool": tool, "own": naming_of(policy, context.subject).owned(tool, record)}
        if owner is not None and not isinstance(owner, Mapping | list):
            said["owner"] = str(owner)
        return said
    return None


def _roles_given(
    records: Sequence[Mapping[str, Any]], people: Iterable[str]
) -> set[tuple[str, frozenset[str]]]:
    """Whom a record's field gives the role it names ({"manager": "ana"}: ana is the manager), as
    :func:`~policies.supervisor.reading.answers.given_in` pairs; not a field that says whose the
    record is ("from", "author", "owner")."""
    everyone = {p.casefold() for p in people}
    return {
        (value.casefold(), meanings(str(key).replace("_", " ")))
        for record in records
        for key, value in record.items()
        if isinstance(value, str) and value.casefold() in everyone and not _A_PERSONS_KEY.match(str(key))
    }


def _text_of_record(record: Mapping[str, Any]) -> str:
    """A record's texts together, in order (a mail's sender, subject and body)."""
    return " ".join(v for v in leaves(record) if isinstance(v, str))


_A_PERSONS_NAME = re.compile(r"[A-Z][\w'’-]+(?:[ \t]+[A-Z][\w'’-]+){1,3}")


def _a_shared_first_name_alone(texts: Sequence[str], dictated: str, context: ReviewContext) -> list[str]:
    """The rest of each person's name (:data:`_A_PERSONS_NAME`, held whole by a trusted record)
    that ``dictated`` writes whole and ``texts`` write by the first name alone, where another
    person of the trusted records has that first name ("Ray Stoner" said as "Ray" beside Ray
    Stone): the name no longer tells them apart."""
    people = {
        leaf.strip()
        for r in _trusted_records(context)
        for leaf in leaves(r)
        if isinstance(leaf, str) and _A_PERSONS_NAME.fullmatch(leaf.strip())
    }
    dropped: list[str] = []
    for name in sorted(people):
        first, *rest = name.split()
        if not _written_whole(name, dictated) or any(_written_whole(name, t) for t in texts):
            continue
        if not any(_written_whole(first, t) for t in texts):
            continue
        if any(o != name and o.split()[0].casefold() == first.casefold() for o in people):
            dropped += [w.casefold() for w in rest if w.casefold() not in dropped]
    return dropped


def _people_of_the_records(context: ReviewContext) -> frozenset[str]:
    """The words (casefolded) of the names of two to four capitalised words ("Rosa Greene", "Al
    White") that trusted records hold whole as a value: the people a message may be signed as."""
    return frozenset(
        w.casefold()
        for r in _trusted_records(context)
        for leaf in leaves(r)
        if isinstance(leaf, str) and _A_PERSONS_NAME.fullmatch(leaf.strip())
        for w in leaf.split()
    )


def _trusted_records(context: ReviewContext) -> Iterator[Mapping[str, Any]]:
    """Every record a call of a tool the policy trusts returned, oldest first."""
    for done in context.calls:
        if done.get("tool") in context.trusted:
            for _path, record in mappings(parsed(done.get("observation"))):
                yield record


def _records_read(context: ReviewContext) -> Iterator[Mapping[str, Any]]:
    """Every record the run's calls returned, oldest first (an observation kept as JSON text read
    as its value)."""
    for done in context.calls:
        for _path, record in mappings(parsed(done.get("observation"))):
            yield record


def with_cedar(call: Call, context: ReviewContext, decided: Decision) -> Decision:
    """The chain's decision as the policy's Cedar policies leave it (:data:`CEDAR_CHECK`, after
    every check of :data:`CHAIN`: :func:`~policies.supervisor.decide.cedar.cedar_decision`); as it
    is without Cedar, or where the chain refused or revised the call."""
    policy = call.policy
    if policy.cedar is None or decided.verdict not in ("approve", "escalate"):
        return decided
    cedar = parse_cedar(policy.cedar)
    if not cedar.applies(call.name):  # no policy's scope names the tool: nothing to ask Cedar
        return decided
    everywhere: list[Source] = []

    def found(value: Any) -> list[str]:  # the named records read only where a policy reads them
        if not everywhere:
            named = named_sources(context, policy, call.rules.requested) if cedar.reads_named else []
            everywhere.extend([*context.sources, *named])
        labels = [
            source_label(s) for leaf in rule_values(value) for s in _evidence(leaf, everywhere, call, context)
        ]
        if is_number(value) and not {"request", "named"} & set(labels):
            # a figure the turn's stated arithmetic computes from its own words and named records
            derived = derived_from(
                value, everywhere, ["request", "named"], request=context.request, reader=context.read
            )
            labels += [DERIVED] if derived is not None else []
        if policy.follow and any(  # a value the turn asks to take from a record ("pay bill-dec.txt")
            v == value
            and followed(
                policy, call.name, arg, value, context.request, context.calls, context.subject, context.read
            )
            for arg, v in call.args.items()
        ):
            labels += [FOLLOWED]
        return labels

    reading = context.read.reading
    facts = CallFacts(
        call.name,
        call.args,
        found,
        arg_types(policy, call.name, context.arg_schemas.get(call.name)),
        call.mandate,
        reading is None or reading.complete,
        context.subject,
        sum(1 for c in context.calls if c.get("tool") == call.name and c.get("ok")),
        lambda arg: _with_this_call(call, arg, context, arg in cedar.thread_totalled),
        lambda value: holding_record(value, context, policy),
    )
    judged = _forbid_asked(cedar_decision(cedar, facts, decided), call, context, cedar)
    if (judged.verdict, judged.reason) == (decided.verdict, decided.reason):
        return replace(judged, check=decided.check, passed_checks=decided.passed_checks)
    return replace(judged, check=CEDAR_CHECK, passed_checks=(*decided.passed_checks, decided.check))


def _forbid_asked(judged: Decision, call: Call, context: ReviewContext, cedar: CedarSet) -> Decision:
    """A Cedar ``forbid`` of where a value came from, as the project's own sources rule would have
    it: where the turn sent the agent to the record that holds the value ("pay bill-dec.txt") or
    describes the amount in words the gateway cannot compute ("19.5% of what we paid plus a
    fee"), the call is asked (``value_in_named_record``, ``request_partly_read``, with
    ``refused_by`` the forbid), never refused for it nor run unasked. Of several forbids that
    matched, the first written decides (as the first of a tool's sources rules that fails does). A
    forbid that reads no argument's sources, or is annotated ``@refuse``, keeps its refusal."""
    said = judged.details.get("cedar") if judged.verdict == "block" else None
    if not judged.reason.startswith(f"{FORBID}:") or not isinstance(said, Mapping):
        return judged
    forbids = [r for r in cedar.rules if r.effect == "forbid" and r.name in (said.get("policies") or ())]
    if not forbids or any(r.refuses or not r.sourced for r in forbids):
        return judged
    # the first forbid written decides, as the first of a tool's sources rules that fails does
    first = forbids[0]
    args = call.args if "*" in first.sourced else first.sourced & set(call.args)
    found = (a for arg in sorted(args) if (a := _asked_for_value(judged, call, arg, context)) is not None)
    return next(found, judged)


def _asked_for_value(judged: Decision, call: Call, arg: str, context: ReviewContext) -> Decision | None:
    """The question :func:`_forbid_asked` asks for ``arg``'s value, or None where a refusal of
    where it came from stands."""
    value = call.args[arg]
    details = {**judged.details, "arg": arg, "value": value}
    described = _amount_in_words(value, ArgSource(arg=arg, sources=["request", "named"]), context)
    if described:
        shown = _turn_reading(context, call.policy).shown()
        said_by = {"amount_words": described, "refused_by": judged.reason}
        return Decision("escalate", PARTLY_READ, {**details, **shown, **said_by})
    asked = _asked_in_named_record(
        replace(judged, details=details), value, None, call.rules, context, call.policy
    )
    return asked if asked.verdict == "escalate" else None


def action_signature(action: Mapping[str, Any]) -> str:
    """The normalised signature of an action: a tool call's (tool, args), or the final answer's."""
    if action.get("kind") == "final":
        return call_signature("final", {"answer": action.get("answer")})
    return call_signature(str(action.get("name")), action.get("args") or {})


def refused_before(
    action: Mapping[str, Any], refusals: Sequence[Mapping[str, Any]]
) -> Mapping[str, Any] | None:
    """The earlier refusal of this very action (same tool and normalised arguments, or the same
    final answer), if any: a refused action proposed again is refused again, without asking a
    human twice."""
    signature = action_signature(action)
    return next((r for r in refusals if signature in (r.get("signatures") or ())), None)
