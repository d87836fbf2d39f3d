"""What the request points to in tool data, for the supervisor's rules: requested following (a
value taken from a record the request names, where it asks for exactly that step), values the
request authorises (a change or a deletion whose every value the request gives), and the details
of a requested kind of action that only untrusted text holds.

Each answer is where the value came from, in words for the audit, or None."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from policies.decision import Decision
from policies.supervisor.provenance.context import ReviewContext
from policies.supervisor.provenance.flow import flow
from policies.supervisor.reading.amounts import WHOLE_WORDS, part_of_record
from policies.supervisor.reading.values import (
    Source,
    appears,
    describe,
    identity,
    leaf_values,
    mappings,
    origins,
)
from policies.supervisor.reading.words import (
    FUNCTION_WORDS,
    POINTING_BACK,
    SOMEONE_ELSE,
    RequestReader,
    forms,
    mandates,
    position,
    stated_text,
    step_mandates,
    words_of,
)
from policies.supervisor.request.asks import asking_mandates, stated_for_call
from policies.supervisor.request.records import (
    Naming,
    Record,
    groups,
    kinds_in,
    named_records,
    naming_of,
    points_to,
    whole_values,
    word_starts,
)
from policies.supervisor.rules.kinds import Follow, Requested, ToolRules
from policies.supervisor.rules.policy import SupervisorPolicy
from policies.text import stable_json

__all__ = ["authorised", "followed", "planted_detail"]

Calls = Sequence[Mapping[str, Any]]
#: Sources a detail of a requested action may come from without more ado.
_VOUCHED = ["request", "subject", "policy", "trusted"]


def _the_step(record: Record, rule: Follow) -> bool:
    """Is the record named by a word of the step itself (a sender called "link" in "open the link")?"""
    named = words_of(record.by.split("=", 1)[-1])
    return record.keyed and bool(word_starts(named, [*rule.verbs, *rule.objects]))


#: Objects that name a link: a step that shares, opens or forwards one acts on a link (or its
#: site), never on an address or an account written beside it in the same text.
LINK_OBJECTS = frozenset(
    {
        "link",
        "links",
        "url",
        "urls",
        "page",
        "pages",
        "website",
        "websites",
        "site",
        "sites",
        "article",
        "doc",
    }
)
#: The identifier kinds a link is.
LINK_KINDS = ("url", "domain")


def _of_its_object(rule: Follow, value: Any) -> bool:
    """Is ``value`` of what the rule's steps act on? An identifier found in free text, where every
    object of the rule names a link, must be a link: "share the link Ana posted" takes the link
    from her message, not an address that came with it."""
    if not (isinstance(value, tuple) and len(value) == 2 and rule.objects):
        return True
    return value[0] in LINK_KINDS or not all(o.casefold() in LINK_OBJECTS for o in rule.objects)


def _follows(
    rule: Follow, value: Any, request: str, calls: Calls, keys: Naming, reader: RequestReader | None
) -> str | None:
    if not _of_its_object(rule, value):
        return None
    found = mandates(request, reader)
    texts: list[str] = []
    own = step_mandates(request, verbs=rule.verbs, objects=rule.objects, reader=reader, antecedents=False)
    for step in own:
        # the mandates of the step's sentence ("read Bob's message and open the link in it"),
        # never its other clauses: a record named only where nothing is asked names nothing
        text = stated_text(m for m in found if m.sentence == step.sentence)
        if text not in texts:
            texts.append(text)
    texts += _pointed_back(rule, value, request, reader, own, texts)
    for text in texts:
        named = [r for r in named_records(text, calls, keys) if not _the_step(r, rule)]
        holding = [
            r
            for r in named
            if (not rule.tools or r.tool in rule.tools) and kinds_in(r.value, value, rule.fields)
        ]
        if len(holding) == 1 and points_to(holding[0].value, value, rule.fields):
            if _a_list_taken_in_part(holding[0].value, value, rule, request):
                return None  # "invite the Budget review's attendees. Leave Carl out."
            return f"followed from {holding[0].label()}, in a sentence that asks for the step"
    for step in own:
        told = _named_by_a_word(rule, value, step, calls, keys)
        if told:
            return told
    if REPLYING & {v.casefold() for v in rule.verbs}:
        for step in (s for m in found if (s := _telling_the_author(m)) is not None):
            told = _named_by_a_word(rule, value, step, calls, keys)
            if told:
                return told
    return None


def _a_list_taken_in_part(record: Any, value: Any, rule: Follow, request: str) -> bool:
    """Is ``value`` one of a list the record holds (a meeting's attendees) that the turn takes in
    part: "only", "internal", "from our company", "my colleagues", "skip Carl", "Leave Carl out",
    a domain ("the corp.example ones"), another field ("the organizer"), or a person of the list
    it names ("Invite Ana from the Budget review")? Who of the list the turn means, the follow
    does not say: each value is then left to the other rules (asked where none admits it)."""
    if not any(listed for _values, listed in groups(record, value, rule.fields)):
        return False
    if _A_LIST_IN_PART.search(request) or _A_DOMAIN.search(request):
        return True
    members = [
        x
        for field in rule.fields
        for x in (record.get(field) if isinstance(record, Mapping) else None) or ()
        if isinstance(x, str)
    ]
    named = {w for m in members for w in re.findall(r"[^\W\d_]{3,}", m.split("@")[0].casefold())}
    return any(_in_capitals(w, request) or re.search(rf"(?i)\b{w}\b", request) for w in named)


#: Words that take a list in part: a limit, a side, a relation, a field of one person.
_A_LIST_IN_PART = re.compile(
    r"(?i)\b(?:only|just|internal|external|except|excluding|exclude|but\s+not|without|skip|skipping|"
    r"leave\s+(?:[\w'’-]+\s+)?out|leave\s+off|minus|apart\s+from|other\s+than|not|from\s+(?:our|my|the|their)\s+"
    r"(?:company|team|side|org|organi[sz]ation|office|firm)|colleagues?|co-?workers?|teammates?|"
    r"organi[sz]ers?|hosts?|owners?|remote|local)\b"
)
#: A domain written in the turn ("the corp.example ones").
_A_DOMAIN = re.compile(r"(?i)(?<![@\w.-])[a-z0-9-]+\.(?:example|com|org|net|io|co|de|uk)\b(?!@)")


#: The verbs of a rule of replying: whoever wrote a record the turn names is whom it answers.
REPLYING = frozenset({"reply", "answer", "respond"})
#: Verbs of telling someone, the word after which (or after "to", "back to") is whom they address
#: ("Tell Carla yes", "Let Carla know ...", "Thank IT for ...", "Write back to Carla ...").
_TELLING_VERBS = frozenset(
    {"tell", "let", "ask", "remind", "inform", "notify", "thank", "congratulate", "warn", "write", "email",
     "e-mail", "mail", "message", "dm", "text", "msg", "ping"}
)  # fmt: skip
#: Verbs of answering someone's offer or question, whose object names them by a possessive
#: ("accept Carla's offer", "decline Carla's invitation").
_ANSWERING_VERBS = frozenset({"accept", "decline", "refuse", "confirm", "reject"})


def _telling_the_author(mandate: Any) -> Any | None:
    """A mandate that tells someone something, as a step whose object is only whom it addresses (a
    reply to the author of the one record the turn names by that word is what it asks for): "Tell
    Carla yes, Thursday is fine" as "tell · Carla", "accept Carla's offer" as "accept · Carla's",
    "confirm Thursday with Carla" as "confirm · Carla". None for any other mandate, and where whom
    it addresses is not written as a word (a possessive of a thing to send: "email Carla's notes to
    Bob")."""
    words = mandate.words
    if mandate.verb in _TELLING_VERBS:
        at = 1
        while at < len(words) and words[at] in ("back", "to"):
            at += 1  # "write back to Carla", "write to Carla"
        whom = words[at] if at < len(words) else ""
        if not whom or whom.endswith(("'s", "’s")):
            return None
        if whom in FUNCTION_WORDS and not _in_capitals(whom, mandate.text):
            return None  # "tell it ...", but "thank IT for the laptop"
        return replace(mandate, words=(mandate.verb, whom))
    if mandate.verb in _ANSWERING_VERBS:
        whose = next((w for w in words[1:3] if w.endswith(("'s", "’s"))), None)
        with_whom = next((words[i + 1] for i in range(1, len(words) - 1) if words[i] == "with"), None)
        whom = whose or with_whom
        if whom and whom.split("'")[0] not in FUNCTION_WORDS:
            return replace(mandate, words=(mandate.verb, whom))
    return None


def _in_capitals(word: str, text: str) -> bool:
    """Does ``text`` write ``word`` in capitals, as a word of its own ("the IT email")?"""
    return re.search(rf"(?<!\w){re.escape(word.upper())}(?!\w)", text) is not None


#: Where a step's object ends and what it says begins ("Reply to the offsite email saying ...").
_OBJECT_ENDS = frozenset(
    {"about", "regarding", "concerning", "re", "re:", "saying", "that", "asking", "telling", "with", "and"}
)


def _named_by_a_word(rule: Follow, value: Any, step: Any, calls: Calls, keys: Naming) -> str | None:
    """The one record a step's object names by a word of a short field that no other record the
    run read holds ("Reply to Carla" for Carla Diaz's mail, "Reply to the offsite email" for the
    one whose subject is "Offsite venue", "Answer the IT email" for IT Desk's), where that record
    points to ``value`` in the rule's fields. A word another record holds too (a contact named
    Carla, a second mail about the offsite) names none of them, nor does a common word, a word of
    the policy's rules or of the step itself."""
    said = list(step.words[1:])
    said = said[: next((i for i, w in enumerate(said) if w in _OBJECT_ENDS), len(said))]
    written = {p for w in said for p in re.split(r"['’]s?$", w.strip("'`\"")) if p}
    step_words = {w.casefold() for w in [*rule.verbs, *rule.objects]}
    written = {w for w in written if w not in step_words and w not in keys.spoken}
    if not written:
        return None
    records = [
        (str(c.get("tool")), c, r)
        for c in calls
        if c.get("ok", True) and "observation" in c
        for _path, r in mappings(c.get("observation"))
    ]

    def words_in(record: Mapping[str, Any], short: bool) -> set[str]:
        texts = [v for v in record.values() if isinstance(v, str) and (not short or len(v.split()) <= 4)]
        return {w for t in texts for w in words_of(t)}

    def naming(w: str, texts: str) -> bool:  # a function word names only as written in capitals ("IT")
        if w not in FUNCTION_WORDS:
            return len(w) > 2
        return _in_capitals(w, step.text) and _in_capitals(w, texts)

    held = [(r, words_in(r, False)) for _t, _c, r in records]  # each record's words, read once
    found = []
    for tool, call, record in records:
        if (rule.tools and tool not in rule.tools) or not points_to(record, value, rule.fields):
            continue
        short = " ".join(v for v in record.values() if isinstance(v, str) and len(v.split()) <= 4)
        # what the call that returned it was asked for names nothing ("the link in #random")
        asked_for = {w for v in leaf_values(call.get("args") or {}) for w in words_of(str(v))}
        wanted = {w for w in written - asked_for if w not in FUNCTION_WORDS or _in_capitals(w, step.text)}
        mine = {w for w in wanted & words_in(record, True) if naming(w, short)}
        others = {w for r, words in held if r != record for w in words}
        # every word of the object is the record's: "Reply to Carla Diaz" names no mail of "Carla"
        if mine - others and wanted <= words_in(record, True):
            found.append((tool, call, record, sorted(mine - others)[0]))
    if len({json.dumps(r, sort_keys=True, default=str) for _t, _c, r, _w in found}) != 1:
        return None
    tool, call, _record, word = found[0]
    return (
        f"followed from the {tool} (step {call.get('step', '?')}) record the request names by a word only "
        f"it holds ({word}), in a sentence that asks for the step"
    )


def _pointed_back(
    rule: Follow,
    value: Any,
    request: str,
    reader: RequestReader | None,
    own: Sequence[Any],
    texts: Sequence[str],
) -> list[str]:
    """What a step whose object points back names ("Bob posted a link in #random. Open it",
    "1. find the survey link in Ana Silva's email / 2. open it"): the earlier sentences in the
    user's own voice it points back to, where one of them says what the step acts on (the rule's
    object) and none states a value of the followed value's kind itself ("The status page is
    https://status.corp.example. Read #deploys, then open it" opens the page the user wrote, never
    a link of #deploys)."""
    out: list[str] = []
    for step in step_mandates(request, verbs=rule.verbs, objects=rule.objects, reader=reader):
        if step in own or not step.antecedents:
            continue
        if any(_states_kind(text, value) for text in step.antecedents):
            continue  # "it" is the value the user wrote
        text = " | ".join(step.antecedents)
        if text not in texts and text not in out:
            out.append(text)
    return out


def _states_kind(text: str, value: Any) -> bool:
    """Does a sentence of the turn state a value of ``value``'s kind itself (an identifier or a
    number: "The status page is https://status.corp.example"; a text: the text itself)?"""
    ident = identity(value)
    if isinstance(ident, tuple):
        return bool(kinds_in(text, value))
    return ident is not None and appears(ident, Source("request", text))


def followed(
    policy: SupervisorPolicy,
    tool: str,
    arg: str,
    value: Any,
    request: str,
    calls: Calls,
    subject: Mapping[str, Any] | None = None,
    reader: RequestReader | None = None,
) -> str | None:
    """Is ``value`` (one value of ``arg`` of ``tool``; an identifier found in free text as
    ``(kind, canonical)``) one the request asks to take from tool data, by one of the policy's
    ``follow`` rules? Where it came from, or None. The request is read by ``reader`` (default: the
    grammar of :mod:`policies.supervisor.reading.words`)."""
    rules = [r for r in policy.follow if arg in r.args.get(tool, ())]
    keys = naming_of(policy, subject) if rules else Naming(keys={})
    return next((told for r in rules if (told := _follows(r, value, request, calls, keys, reader))), None)


def _from_named(
    value: Any, records: Sequence[Record], naming: Naming, kind: frozenset[str] = frozenset()
) -> Record | None:
    """The named record that holds ``value`` as the whole value of a field the policy trusts (not
    its free text, though the record is the user's own; nothing of a record named by its
    author's own word). A record of another kind than the call's (``kind``:
    :func:`kind_words` of its tool and argument) does not give its own identifier: "Delete the
    events 'Dentist' and 'Gym'" names the Gym event, whose id ``ev-22`` is no file the request
    asked to delete."""
    ident = identity(value)
    for record in (r for r in records if r.keyed):
        if ident not in {identity(t) for t in naming.trusted_values(record)}:
            continue
        if _identifies(record, ident) and not _same_kind(kind, kind_words(record.tool)):
            continue
        return record
    return None


#: Words of a tool's or an argument's name that say what it does or how it names, not what kind
#: of record it acts on.
_NOT_KIND_WORDS = (
    "get list read fetch search find lookup query show view load delete remove trash clear create "
    "add make new update edit set change put post send share open close cancel archive move copy "
    "rename pay call run do all my the a an of for to from by in on at with id ids uid uuid key "
    "keys name names value values item items record records data info detail details entry entries"
)
_NOT_KINDS = frozenset(_NOT_KIND_WORDS.split())


def kind_words(*names: str) -> frozenset[str]:
    """The kinds of record names speak of: their words (split at ``_``, ``-``, ``.``, and case),
    without the verbs and naming words of :data:`_NOT_KINDS`, in the singular ("list_events",
    "file_id" → {"event"}, {"file"})."""
    words: set[str] = set()
    for name in names:
        spaced = "".join(f" {c.lower()}" if c.isupper() else c for c in name)
        for word in spaced.replace("_", " ").replace("-", " ").replace(".", " ").split():
            word = word.lower()
            if word.endswith("ies") and len(word) > 4:
                word = word[:-3] + "y"
            elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
                word = word[:-1]
            if word and word not in _NOT_KINDS:
                words.add(word)
    return frozenset(words)


def _same_kind(call: frozenset[str], record: frozenset[str]) -> bool:
    """Might a record of these kind words be what the call acts on? Unknown (no words on either
    side) counts as yes."""
    return not call or not record or bool(call & record)


def _identifies(record: Record, ident: Any) -> bool:
    """Is ``ident`` the record's own identifier (its ``id`` or a ``…_id`` / ``…Id`` field)?"""
    value = record.value
    if not isinstance(value, Mapping):
        return False
    for key, held in value.items():
        name = str(key)
        if (
            name.lower() in ("id", "uid", "uuid") or name.lower().endswith("_id") or name.endswith("Id")
        ) and (identity(held) == ident):
            return True
    return False


def _said_whole(text: str, request: str) -> bool:
    """Is a short text (a code, a flag's word) written in the request as a whole word?"""
    return bool(text.strip()) and bool(position(words_of(request), text.strip()))


def authorised(
    args: Mapping[str, Any],
    request: str,
    calls: Calls,
    policy: SupervisorPolicy,
    subject: Mapping[str, Any] | None = None,
    reader: RequestReader | None = None,
    rule: Requested | None = None,
    tool: str = "",
) -> dict[str, str] | None:
    """Does the request give every value of this call (the caller checks that it asks for the
    call's kind), so that it may stand in for the human (``ToolRules.request_as_approval``)? Each
    value, nested ones and mapping keys too, must be written in what the mandates for the call's
    kind state (:func:`~policies.supervisor.request.asks.stated_for` of ``rule``, read by ``reader``:
    "Change my password to X", not "Don't use X"), or be the whole value of a field the policy
    trusts in a record they name by a trusted key. A boolean, a null or a short code they do not
    write is no value the request gives: the call asks; nor is the identifier of a named record of
    another kind than ``tool``'s (:func:`_from_named`). Where each value came from, or None."""
    values = list(every_leaf(args))
    if not values:
        return None
    naming = naming_of(policy, subject)
    whole, request = request, stated_for_call(rule, request, calls, naming, reader)
    # a value given in words: never only in another action's mandate, nor as the way to someone else
    said = Source("request", without_other_acts(request, rule, whole, policy, reader))
    records = named_records(request, calls, naming)
    where: dict[str, str] = {}
    for name, value in values:
        ident = identity(value)
        if ident is None:  # a boolean, a null, a one- or two-character text: the request must write it
            if isinstance(value, str) and _said_whole(value, request):
                where.setdefault(name, "given in the request")
                continue
            return None
        if appears(ident, said):
            where.setdefault(name, "given in the request")
            continue
        record = _from_named(value, records, naming, kind_words(tool, name))
        if record is None or something_of(request, record) is not None:
            return None
        where[name] = f"a trusted field of {record.label()}"
    return where


def without_other_acts(
    text: str,
    rule: Requested | None,
    request: str,
    policy: SupervisorPolicy,
    reader: RequestReader | None = None,
) -> str:
    """``text`` without the turn's mandates of another action the policy declares (and what they
    coordinate): "Remove mallory from #general and DM ana the news": ana is whom the DM goes to,
    not whom to remove. A mandate of a verb no rule declares stays ("check #partners, invite dora":
    the channel it names is the invitation's); so does the whole text where no mandate asks for the
    rule's kind, or one points back ("Look up ana and remove her"). Then what is gone from
    ``text`` is "X's boss", "whoever invited X" (:data:`SOMEONE_ELSE`): someone else than X."""
    text = SOMEONE_ELSE.sub(" ", text)
    own = asking_mandates(rule, request, reader) if rule is not None else []
    if not own or any(POINTING_BACK & set(words_of(m.text)) for m in own):
        return text
    kept = {t for m in own for t in (m.text, *m.coordinated, *m.antecedents)}
    acting = {f for verb in policy.declared_verbs() for f in forms(verb)}
    for other in mandates(request, reader):
        if other.verb.casefold() not in acting:
            continue
        for written in (other.text, *other.coordinated):
            if written not in kept:
                text = re.sub(rf"(?<![\w-]){re.escape(written)}(?![\w-])", " ", text)
    return text


#: Words for a record of the workspace as a whole ("the salaries-2026.xlsx file", "the Board
#: meeting"): no part of it.
_WHOLE_RECORD_WORDS = frozenset(
    """
    file files document documents doc docs spreadsheet spreadsheets sheet sheets event events meeting
    meetings entry entries item items record records one ones thing things invite invitation
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def something_of(request: str, record: Record) -> str | None:
    """The words by which the request names something of ``record`` rather than the record
    ("the backup of salaries-2026.xlsx", "salaries-2026.xlsx's draft", "any duplicates of ...":
    :func:`~policies.supervisor.reading.amounts.part_of_record`), or None: a call on the record
    itself is then no call the request gives. A word of the record's own, or one for a record
    whole ("the Board meeting", "the ... file"), is the record."""
    text = stable_json(record.value)
    held = {w.casefold() for w in words_of(text)}
    part = part_of_record(request, text) or _noun_of(request, held)
    if part is None:
        return None
    words = set(part.casefold().split())
    return None if words <= held | _WHOLE_RECORD_WORDS | WHOLE_WORDS | _QUANTIFIERS else part


#: Words that count a record's instances, not a part of it ("both of", "all of", "each of").
_QUANTIFIERS = frozenset(
    """
    both all each any some none either neither every one rest instead out front behind because
    """.split()  # noqa: SIM905 (a closed list, read as words)
)


def _noun_of(request: str, held: set[str]) -> str | None:
    """A bare noun linked by "of" / "for" to a word of the record that names it (one with a digit
    or a dot: "duplicates of salaries-2026.xlsx", "copies of draft-old.docx"), or None."""
    words = words_of(request)
    for at, word in enumerate(words[2:], 2):
        if word in held and any(c.isdigit() or c == "." for c in word) and words[at - 1] in ("of", "for"):
            noun = words[at - 2]
            if noun.isalpha() and noun not in held and noun not in _QUANTIFIERS:
                return noun
    return None


def every_leaf(args: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Every leaf of a call's arguments, with its argument: strings, numbers, booleans and nulls,
    nested ones too, and the keys of nested mappings (a header's name is a value as much as its
    text)."""
    out: list[tuple[str, Any]] = []
    stack: list[tuple[str, Any]] = [(name, value) for name, value in reversed(list(args.items()))]
    while stack:
        name, item = stack.pop()
        if isinstance(item, Mapping):
            out += [(name, str(k)) for k in item]
            stack.extend((name, v) for v in reversed(list(item.values())))
        elif isinstance(item, list | tuple):
            stack.extend((name, v) for v in reversed(list(item)))
        else:
            out.append((name, item))
    return out


#: Below this many words a text is a name, a label or a code, not a sentence relayed.
PHRASE_WORDS = 4


def _vouched(records: Sequence[Record], naming: Naming) -> list[tuple[Record, Any]]:
    """Each record the request names with what of it the policy trusts (:meth:`Naming.vouched`):
    naming a record is not vouching for it, so a page, a file or a mail the request names
    supplies only its trusted fields, and a record named by its author's own word nothing."""
    return [(r, v) for r in records if (v := naming.vouched(r)) is not None]


def _pointed(value: Any, records: Sequence[Record], naming: Naming) -> Record | None:
    """The record the request names that holds ``value`` in a field the policy trusts: for an
    identifier or a number, as the only value of its kind in the one named record holding any;
    for a name, a label or a code (text of under :data:`PHRASE_WORDS` words), as a whole trusted
    field of one record, named by a trusted key or the only record the request names. A sentence
    is never taken from a record this way (a relayed sentence wants a ``Follow`` rule), nor a
    value from a record's untrusted text (what a third party wrote where the request said to
    read), nor anything from a record named by its author's own word."""
    ident = identity(value)
    kept = _vouched(records, naming)
    if not isinstance(ident, tuple):
        if not isinstance(ident, str) or len(ident.split()) >= PHRASE_WORDS:
            return None
        holding = [r for r, v in kept if ident in whole_values(v)]
        one = holding[0] if len(holding) == 1 else None
        return one if one is not None and (one.keyed or len(records) == 1) else None
    pointed = [(r, v) for r, v in kept if kinds_in(v, value)]
    return pointed[0][0] if len(pointed) == 1 and points_to(pointed[0][1], value) else None


def _phrase_in(value: Any, records: Sequence[Record], naming: Naming) -> Record | None:
    """The one record the request names (by a trusted key or by the arguments of its call, not by
    its author's own name) holding a short text (a name, a label, a code: under
    :data:`PHRASE_WORDS` words) as a phrase in a field the policy trusts: the currency of a bill a
    trusted tool lists, a trusted file listing's title."""
    ident = identity(value)
    if not isinstance(ident, str) or len(ident.split()) >= PHRASE_WORDS:
        return None
    kept = _vouched(records, naming)
    holding = [r for r, v in kept if appears(ident, Source("tool", stable_json(v)))]
    return holding[0] if len(holding) == 1 else None


def _untraceable(value: Any, request: str, sources: Sequence[Source]) -> str | None:
    """Why a value that carries no identity of its own is a detail nobody vouches for: a boolean or
    a null (a flag turned on or off: only a human can say the user meant it), or a short code the
    request and the trusted sources do not write (``"US"``); None when it is vouched for."""
    if isinstance(value, bool) or value is None:
        return f"a {'boolean' if isinstance(value, bool) else 'null'} no source can vouch for"
    if not isinstance(value, str) or not value.strip():
        return None
    vouched = [s.text for s in sources if s.admitted_by(_VOUCHED)]
    if any(_said_whole(value, text) for text in [request, *vouched]):
        return None
    return "a short code the request and the trusted sources do not write"


def _unvouched(value: Any, found: Sequence[Source]) -> bool:
    """Does a traced value need a source to vouch for it: an identifier or a number found nowhere
    (an address written in another form, a figure nobody gave: its origin unknown), or one only
    untrusted text holds (a phrase of any length, a name, a code, an identifier, a number)?"""
    if any(s.admitted_by(_VOUCHED) for s in found):
        return False
    if not found:  # the model's own words are its own; an identifier or a number is not
        return isinstance(identity(value), tuple)
    return True


def _planted(
    policy: SupervisorPolicy,
    tool: str,
    args: Mapping[str, Any],
    ruled: set[str],
    request: str,
    calls: Calls,
    sources: Sequence[Source],
    subject: Mapping[str, Any] | None = None,
    reader: RequestReader | None = None,
    asked: Requested | None = None,
) -> tuple[tuple[str, Any, str] | None, dict[str, str]]:
    """The first detail (a leaf of an argument not in ``ruled``) nobody the policy trusts vouches
    for: ``(arg, value, where it appears)`` or None; and where each detail let through came from."""
    notes: dict[str, str] = {}
    records: list[Record] | None = None
    for name, value in (leaf for leaf in every_leaf(args) if leaf[0] not in ruled):
        if identity(value) is None:
            why = _untraceable(value, request, sources)
            if why is not None:
                return (name, value, why), notes
            continue
        found = origins(value, sources)
        if not _unvouched(value, found):
            continue
        naming = naming_of(policy, subject)
        # the records the mandates for this kind name: a record named only in a clause that asks
        # nothing ("Don't pay the Globex invoice", a question, someone's words) names nothing
        if records is None:
            records = named_records(stated_for_call(asked, request, calls, naming, reader), calls, naming)
        record = (_pointed(value, records, naming) or _phrase_in(value, records, naming)) if found else None
        if record is not None:
            notes[name] = f"held by {record.label()}"
            continue
        told = followed(policy, tool, name, value, request, calls, subject, reader) if found else None
        if told:
            notes[name] = told
            continue
        return (name, value, describe(found)), notes
    return None, notes


def planted_detail(
    policy: SupervisorPolicy, tool: str, rules: ToolRules, args: Mapping[str, Any], context: ReviewContext
) -> tuple[Decision | None, dict[str, str]]:
    """Requested kind vs planted details: the request asks for this kind of action (``rules``'
    ``requested``), which vouches for none of its details. A value of an argument no ArgSource
    rules (an identifier, a number, a phrase) that appears only in untrusted tool results, where
    neither a record the request names holds it as the only value of its kind nor a follow rule
    admits it, gets ``details_verdict``; else where each detail let through came from."""
    asked = rules.requested
    if asked is None or not asked.details:
        return None, {}
    ruled = {r.arg for r in rules.arg_sources}
    planted, notes = _planted(
        policy,
        tool,
        args,
        ruled,
        context.request,
        context.calls,
        context.sources,
        context.subject,
        context.read,
        asked,
    )
    if planted is None:
        return None, notes
    arg, value, origin = planted
    details = {
        "arg": arg,
        "value": value,
        "provenance": {arg: origin},
        **flow(value, origin, f"{tool}.{arg}"),
    }
    return Decision(policy.verdict(asked.details_verdict), asked.details_reason, details), notes
