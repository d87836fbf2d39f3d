"""Rules about the records a call acts on and about what the whole thread did, as data.

- :class:`OwnedRecord`: the call acts on one of the subject's own records (an order, a ticket, an
  account), named by an argument: another subject's record is refused.
- :class:`RecordLimit`: across the thread, what the calls on one record add up to stays within a
  field of that record (refunds on an order at most its total).
- :class:`Repeat`: the same side effect on the same record a second time in the thread asks.
- ``Threshold(scope="thread", per=[...])`` and ``RunCap(scope="thread", per=[...])``: a cumulative
  threshold or a cap over the thread's calls (per record, with ``per``), not only the run's.

A limit, a threshold and a cap may sum over a ``group`` of tools (every payout on an order: its
refunds and its store credits); declared once, in one tool's rules, it holds for each tool of the
group (:meth:`~policies.supervisor.rules.policy.SupervisorPolicy.rules_for`). Limits fail closed: an
amount none can read as a number (:func:`policies.supervisor.reading.amounts.amount_value`) asks a human.

What a thread did is its **ledger** (:mod:`policies.supervisor.provenance.ledger`): one small entry per
successful call of a tool these rules watch, kept with the thread's checkpoints by both engines, so
a later turn, a resume or another process sees it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: Where a cumulative rule sums: this run's calls, or every run's on the thread.
Scope = Literal["run", "thread"]
Verdict = Literal["block", "escalate"] | None


class _Rule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _OnRecord(_Rule):
    """A rule about one record of ``tool``'s results, found by its ``key`` field in this run's
    calls, else as an earlier run of the thread saw it (the thread's ledger); a record no call of
    the thread returned gets ``unseen_verdict`` with ``unseen_reason``."""

    tool: str = Field(description="The tool whose results hold the record (looks it up).")
    key: str = Field("id", description="The record's field the naming argument's value is.")
    unseen_reason: str = "record_not_seen"
    unseen_verdict: Verdict = "escalate"


class OwnedRecord(_OnRecord):
    """``arg`` names a record of ``tool``'s results (its ``key`` field holds the value), and the
    call may act only on a record of the run's subject: one whose owner field (``tool``'s
    ``ToolSpec.owner``) holds a value of the subject. A record of someone else (or one
    ``ToolSpec.owner_only`` withheld) gets ``verdict`` with ``reason``; a record no call of the
    thread returned gets ``unseen_verdict`` with ``unseen_reason`` (unknown means ask: look it up
    first, or a human says whose it is)."""

    arg: str = Field(description="The argument that names the record (an order id).")
    reason: str = "not_the_subjects_record"
    verdict: Verdict = "block"


class RecordLimit(_OnRecord):
    """Across the thread, ``arg`` summed over this tool's successful calls on one record (the same
    value of ``record_arg``), this call included, may not go above the record's ``field`` (a
    trusted field of the ``tool`` record whose ``key`` is that value, as a call of the thread
    returned it): refunds on an order add up to at most its total. With ``group``, the calls of
    every tool of the group count, and each is held by the limit: a refund and a store credit on
    one order pay out at most its total. Above it: ``verdict`` with ``reason`` (a human who edits
    the call to such a value is asked again); a record no call of the thread returned:
    ``unseen_verdict`` with ``unseen_reason``; an amount (this call's, an earlier one's) that is
    not a readable number (:func:`policies.supervisor.reading.amounts.amount_value`): asked,
    ``unreadable_reason``. A record is named as provenance names it
    (:func:`policies.supervisor.reading.values.record_identity`): ``"INV-8."`` is the record ``INV-8``."""

    arg: str = Field(description="The amount summed (a refund's amount).")
    record_arg: str = Field(description="The argument that names the record (an order id).")
    field: str = Field(description="The record's field that limits the sum (an order's total).")
    group: list[str] = Field(
        default_factory=list,
        description="Tools whose calls on the record count and are held, this one's included (each "
        "takes arg and record_arg by the same names). Empty: this tool alone.",
    )
    reason: str = "above_record_limit"
    verdict: Verdict = "block"
    unreadable_reason: str = "amount_not_readable"


class Repeat(_Rule):
    """A call of this tool on a record (the same values of ``per``, as provenance names a record:
    ``"INV-8."`` is ``INV-8``) after one already succeeded on the thread, in this run or an
    earlier one, gets ``verdict`` with ``reason``: the same refund twice is asked, not run."""

    per: list[str] = Field(min_length=1, description="The arguments that name the record (an order id).")
    reason: str = "repeated_on_record"
    verdict: Verdict = "escalate"
