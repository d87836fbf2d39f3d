"""Decisions are plain data: a verdict, a reason, and a few details."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Verdicts that let a run go on. Anything else ends the run (with the reason as ``stop_reason``).
PASSING_VERDICTS = frozenset({"allow", "approve", "revise", "escalate"})


@dataclass(frozen=True)
class Decision:
    """The outcome of one gateway check.

    ``verdict`` is ``allow`` for a plain pass, a routing verdict (``approve`` / ``revise`` /
    ``escalate``) where the check chooses a branch, or ``stop`` / ``block`` where it ends the run;
    ``reason`` is the stop reason (or the decision's rationale); ``details`` carries diagnostics.

    A supervisor review's decision also names the check of the review chain that decided
    (``check``) and the checks it passed before (``passed``), as Cedar's authorizer names the
    policies that determined an answer (:mod:`policies.supervisor.decide.review`). Neither takes part in
    comparing two decisions: a decision is its verdict, reason and details.
    """

    verdict: str
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    check: str = field(default="", compare=False, repr=False)
    passed_checks: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @property
    def passed(self) -> bool:
        return self.verdict in PASSING_VERDICTS

    @classmethod
    def allow(cls, reason: str = "", **details: Any) -> Decision:
        return cls("allow", reason, details)

    @classmethod
    def stop(cls, reason: str, **details: Any) -> Decision:
        return cls("stop", reason, details)
