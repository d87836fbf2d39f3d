"""What the supervisor knows of a run when it reviews a call (:class:`ReviewContext`): the request,
the subject, the calls so far and their sources, the policy's trust and constants, the turn's
grants. The review engine (:mod:`policies.supervisor.decide.review`) and the rules it calls
(:mod:`policies.supervisor.provenance.following`, :mod:`policies.supervisor.authority.grants`) read it; it
reads none of them, so the review core imports one way: context, then the rules, then the review."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Context, Decimal
from functools import cached_property
from typing import Any

from policies.supervisor.provenance.sources import sources_of
from policies.supervisor.reading.amounts import amount_value
from policies.supervisor.reading.coverage import Reading, read_turn
from policies.supervisor.reading.values import Source, leaf_paths, record_identity
from policies.supervisor.reading.words import Mandate, RequestReader, mandates, written_plainly
from policies.supervisor.rules.kinds import OneOf

#: Whose amount a limit could not read (an ``amount_not_readable`` decision's ``details.unreadable``):
#: the call reviewed, or one the sum counts.
THIS_CALL = "this call"
AN_EARLIER_CALL = "an earlier call"

#: Exact decimal arithmetic for money and caps: wide enough for any finite float.
DECIMALS = Context(prec=400)


def rounded(value: Decimal, places: int) -> Decimal:
    """``value`` to ``places`` decimals, half up, exactly."""
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=DECIMALS)


def same_form(like: Any, value: Decimal) -> float | str:
    """``value`` in the form of the amount ``like`` it replaces: a text for a text (a payment API's
    decimal string stays one), else a float."""
    if isinstance(like, str):
        normal = value.normalize(DECIMALS)
        return format(normal if normal == normal.to_integral() else value, "f")
    return float(value)


def tools_of(name: str, group: Collection[str]) -> frozenset[str]:
    """The tools a summed rule of ``name`` counts: its ``group`` when it declares one (the tool's
    own included), else the tool alone."""
    return frozenset({name, *group})


@dataclass(frozen=True)
class TurnReading:
    """A turn read once: the mandates ``reader`` read from the turn's text (``request``), given to
    every rule of a review that reads the request, so that a reader (a model's) is asked once per
    review, never once per rule. Another text is read by ``reader`` itself."""

    request: str
    found: tuple[Mandate, ...]
    reader: RequestReader | None = None
    #: the whole turn's reading (:func:`~policies.supervisor.reading.coverage.reading_of`), where the
    #: review knows the policy's verbs: ``found`` is then its mandates that stand, never one a later
    #: correction, a time word, an exclusion or an unread clause beside it leaves uncertain
    reading: Reading | None = None

    def mandates(self, request: str) -> Sequence[Mandate]:
        return self.found if request == self.request else mandates(request, self.reader)


def _same(value: Any) -> tuple[bool, Any]:
    """A value as set membership compares it: strings trimmed, whitespace collapsed, case folded;
    a boolean never equal to a number."""
    text = " ".join(value.split()).casefold() if isinstance(value, str) else value
    return (isinstance(value, bool), text)


@dataclass(frozen=True)
class ReviewContext:
    """What the supervisor knows of the run: its request (the input's ``goal``), its subject (the
    input's ``subject``: whom the run acts for, e.g. ``{"user_id": 42}``) and its executed calls
    (``step``, ``tool``, ``args``, ``ok``, ``observation``), oldest first."""

    calls: tuple[Mapping[str, Any], ...] = ()
    subject: Mapping[str, Any] = field(default_factory=dict)
    request: str = ""
    #: tools whose observations the policy trusts, and the policy's own constants (provenance)
    trusted: frozenset[str] = frozenset()
    constants: tuple[Any, ...] = ()
    #: tool → paths of its observations trusted the other way (``ToolSpec.trust_except``); filled
    #: in from the policy by :func:`review_action` when left empty
    field_trust: Mapping[str, Sequence[str]] = field(default_factory=dict)
    #: the policy's side-effect tools, whose calls in the run give the ids they returned as the
    #: run's own (``provenance.own_ids``); filled in from the policy by :func:`review_action`
    effects: frozenset[str] = frozenset()
    #: side-effect tool → the field of its result that holds the id of what it creates
    #: (``ToolSpec.creates``; unset: ``id``), filled in from the policy by :func:`review_action`
    creates: Mapping[str, str] = field(default_factory=dict)
    #: the grants of this turn: escalated steps a human approved, whose kind and provenance a later
    #: escalation may share (:mod:`policies.supervisor.authority.grants`)
    grants: tuple[Mapping[str, Any], ...] = ()
    #: the values a human reviewer typed in an edit (argument → value): a source of their own,
    #: admitted by every rule about where a value comes from (``approved_action``)
    human: Mapping[str, Any] = field(default_factory=dict)
    #: the thread's ledger: what the successful calls of the tools thread-wide rules watch did, in
    #: every run of the thread, this one's included (:mod:`policies.supervisor.provenance.ledger`)
    ledger: tuple[Mapping[str, Any], ...] = ()
    #: how the user's turn is read into mandates (:class:`~policies.supervisor.reading.words.RequestReader`;
    #: None: the default grammar, :class:`~policies.supervisor.reading.words.GrammarReader`). It is given
    #: ``request`` only, the user's own words, never a tool's result (``build_graph(reader=...)``,
    #: ``GovernanceMiddleware(reader=...)``)
    reader: RequestReader | None = None
    #: the verbs of the actions the policy declares (``SupervisorPolicy.declared_verbs``), set by
    #: ``review_action``: with them the turn is read whole (:attr:`TurnReading.reading`), and only
    #: the mandates the whole turn leaves standing admit anything; None: the reader's mandates as
    #: they are
    known: tuple[str, ...] | None = None
    #: tool → the JSON Schema of its arguments (the registered tools' own), where the policy carries
    #: Cedar policies: what types each argument's value is given to Cedar as
    #: (:mod:`policies.supervisor.decide.cedar`); a tool's ``ToolSpec`` schema comes first
    arg_schemas: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: the turn as read for one call, where it differs from the turn's own reading: a mandate the
    #: turn leaves uncertain only for words the call itself accounts for stands for that call
    #: (:mod:`policies.supervisor.decide.accounted`); None: :attr:`read` reads the turn
    read_for_the_call: TurnReading | None = None

    def __post_init__(self) -> None:
        # markdown's emphasis, a code span's marks around one token and a numbering mark before an
        # id are no words of the turn: every check reads the turn without them ("Cancel the
        # **Friday standup**", "Pay `B-40`", "Pay bill no. B-31")
        object.__setattr__(self, "request", written_plainly(self.request))

    @cached_property
    def read(self) -> TurnReading:
        """The turn's mandates, read once for the whole review (:class:`TurnReading`)."""
        if self.read_for_the_call is not None:
            return self.read_for_the_call
        if self.known is None:
            return TurnReading(self.request, tuple(mandates(self.request, self.reader)), self.reader)
        reading = read_turn(self.request, self.known, self.reader)
        return TurnReading(self.request, reading.standing, self.reader, reading)

    @cached_property
    def sources(self) -> list[Source]:
        """Where argument values can come from: request, subject, policy, each call's observation
        (split by per-field trust) and each successful call's arguments."""
        found = sources_of(
            self.request,
            self.subject,
            self.calls,
            trusted_tools=self.trusted,
            constants=list(self.constants),
            field_trust=self.field_trust,
            effects=self.effects,
            creates=self.creates,
        )
        if self.human:
            found.append(Source("human", " | ".join(t for _p, t in leaf_paths(dict(self.human)))))
        return found

    def succeeded(self, tool: str, args: Mapping[str, Any] | None = None) -> bool:
        """Did ``tool`` succeed in this run (with these values of ``args``, when given: compared as
        they name a record, :func:`~policies.supervisor.reading.values.record_identity`)?"""
        wanted = {k: record_identity(v) for k, v in (args or {}).items()}
        return any(
            c.get("tool") == tool
            and c.get("ok")
            and all(record_identity((c.get("args") or {}).get(k)) == v for k, v in wanted.items())
            for c in self.calls
        )

    def total(self, tool: str, arg: str) -> Decimal | None:
        """The exact sum of ``arg`` over the tool's successful calls in this run (None: one of them
        gave an amount :func:`~policies.supervisor.reading.amounts.amount_value` cannot read)."""
        return self.summed(tool, arg)

    def summed(
        self,
        tool: str | Collection[str],
        arg: str,
        args: Mapping[str, Any] | None = None,
        scope: str = "run",
        per: Sequence[str] = (),
    ) -> Decimal | None:
        """The exact sum of ``arg`` over the successful calls of ``tool`` (a name, or a group's
        names) of the run (``scope`` ``"thread"``: of every run on the thread, its ledger), only
        those whose ``per`` arguments name the records ``args`` names. Each amount is read by
        :func:`~policies.supervisor.reading.amounts.amount_value` (``"80.00"`` is 80); None when one cannot be
        read, or a call ran without it (a limit then asks: a total it cannot know admits nothing)."""
        rows = self.ledger if scope == "thread" else [c for c in self.calls if c.get("ok")]
        total = Decimal(0)
        for row in self.on_record(rows, tool, args or {}, per):
            value = amount_value((row.get("args") or {}).get(arg))
            if value is None:
                return None
            total = DECIMALS.add(total, value)
        return total

    @staticmethod
    def on_record(
        rows: Sequence[Mapping[str, Any]],
        tool: str | Collection[str],
        args: Mapping[str, Any],
        per: Sequence[str],
    ) -> list[Mapping[str, Any]]:
        """The rows of ``tool`` (a name, or a group's names) whose ``per`` arguments name the
        records ``args`` names (by :func:`~policies.supervisor.reading.values.record_identity`: ``"INV-8."``
        and ``"INV-8"`` are one record, as provenance reads them)."""
        tools = {tool} if isinstance(tool, str) else set(tool)
        wanted = [(p, record_identity(args.get(p))) for p in per]
        return [
            r
            for r in rows
            if r.get("tool") in tools
            and "record" not in r  # a record the ledger keeps is no call
            and all(record_identity((r.get("args") or {}).get(p)) == named for p, named in wanted)
        ]

    def admits(self, rule: OneOf, value: Any) -> bool:
        """Is ``value`` in ``rule``'s set (its ``values`` and the subject's list under its key)?"""
        listed = self.subject.get(rule.subject_key) if rule.subject_key else None
        pool = [*rule.values, *(listed if isinstance(listed, list) else [])]
        return any(_same(v) == _same(value) for v in pool)
