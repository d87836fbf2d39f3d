"""What a policy in shadow would have done, over every thread of a store: the shadow report.

A policy in shadow mode (``SupervisorPolicy.mode="shadow"``, or ``ToolRules.shadow`` for some
checks of one tool) decides nothing it shadows: each call runs as it would without those rules,
and its trace row says what they would have done (``shadow``: :func:`policies.supervisor.decide.review.
shadow_row`). This module reads those rows back from the audit log of every thread in a store
(:func:`shadow_report`; ``agent-patterns shadow-report``) and counts them per tool and per check of
the review chain: how many calls each would have refused, asked or revised, with example threads.

    from apps.operations.shadow import shadow_report
    report = shadow_report(checkpointer, store)
    for line in report.would:          # what the policy would have done: each call's first rule
        print(line.tool, line.check, line.would, line.reason, line.calls, line.threads)

Each call is counted once: a call's trace rows (asked, then run) carry the same review, and a
call is known by its run, tool and arguments' hash.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from apps.operations.audit import ThreadAudit, ThreadNotFound, stored_audit
from nodes import audit as log

#: Example threads a line of the report names.
EXAMPLES = 3
#: A line's key: tool, check, would, reason.
Key = tuple[str, str, str, str]


@dataclass
class ShadowLine:
    """One line of the report: calls of ``tool`` that the check ``check`` of the review chain
    would have ``would`` (refuse, ask, revise) for ``reason``; how many, and example threads."""

    tool: str
    check: str
    would: str
    reason: str
    calls: int = 0
    threads: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class ShadowReport:
    """The shadow rows of a store's threads. ``would``: what the policy would have done, the first
    shadowed rule that decides each call (as enforce mode decides); ``by_rule``: every shadowed
    rule that would have decided a call, a rule after another counted too (what switching on each
    rule alone would hold). ``calls``: the calls reviewed; ``held``: those a shadowed rule would
    have refused, asked or revised; ``skipped``: threads that could not be read, with why."""

    threads: int = 0
    calls: int = 0
    held: int = 0
    would: list[ShadowLine] = field(default_factory=list)
    by_rule: list[ShadowLine] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "threads": self.threads,
            "calls": self.calls,
            "held": self.held,
            "would": [line.as_dict() for line in self.would],
            "by_rule": [line.as_dict() for line in self.by_rule],
            "skipped": [{"thread_id": t, "why": why} for t, why in self.skipped],
        }


def _calls(audit: ThreadAudit) -> dict[tuple[Any, ...], Mapping[str, Any]]:
    """The thread's reviewed calls (and final answers), each once: its run, tool and arguments'
    hash → its last trace row that carries a decision."""
    found: dict[tuple[Any, ...], Mapping[str, Any]] = {}
    for run in audit.runs:
        for row in run.trace:
            if row.get("tool") and row.get("decision"):
                found[(run.run_id, row.get("tool"), row.get("args_hash"))] = row
    return found


def _count(lines: dict[Key, ShadowLine], key: Key, thread: str) -> None:
    line = lines.setdefault(key, ShadowLine(*key))
    line.calls += 1
    if thread not in line.threads and len(line.threads) < EXAMPLES:
        line.threads.append(thread)


def _ordered(lines: dict[Key, ShadowLine]) -> list[ShadowLine]:
    return sorted(lines.values(), key=lambda line: (-line.calls, line.tool, line.check, line.reason))


def count_shadow(audits: Iterable[ThreadAudit]) -> ShadowReport:
    """The report of ``audits`` (threads' audits, :mod:`apps.operations.audit`)."""
    report = ShadowReport()
    would: dict[Key, ShadowLine] = {}
    by_rule: dict[Key, ShadowLine] = {}
    for audit in audits:
        report.threads += 1
        for (_run, tool, _args), row in _calls(audit).items():
            report.calls += 1
            shadow = row.get("shadow")
            if not isinstance(shadow, Mapping) or not shadow.get("would"):
                continue
            report.held += 1
            first = (str(tool), str(shadow.get("check")), str(shadow["would"]), str(shadow.get("reason")))
            _count(would, first, audit.thread_id)
            _count(by_rule, first, audit.thread_id)
            for also in shadow.get("also") or ():
                if isinstance(also, Mapping):
                    key = (str(tool), str(also.get("check")), str(also.get("would")), str(also.get("reason")))
                    _count(by_rule, key, audit.thread_id)
    report.would, report.by_rule = _ordered(would), _ordered(by_rule)
    return report


def shadow_report(checkpointer: Any, store: Any, threads: Iterable[str] | None = None) -> ShadowReport:
    """What the shadowed rules would have done over ``threads`` (default: every thread whose audit
    log ``store`` holds), read as ``agent-patterns audit`` reads a thread (the log, and the latest
    checkpoint for a run that has not ended). A thread that cannot be read is named in
    ``skipped``; a database error is raised."""
    from nodes.store import database_error

    names = list(threads) if threads is not None else [log.unlabel(label) for label in log.threads(store)]
    audits: list[ThreadAudit] = []
    skipped: list[tuple[str, str]] = []
    for thread in names:
        try:
            audits.append(stored_audit(checkpointer, store, thread))
        except ThreadNotFound as exc:
            skipped.append((thread, str(exc)))
        except Exception as exc:
            if database_error(exc):
                raise
            skipped.append((thread, f"{type(exc).__name__}: {exc}"))
    report = count_shadow(audits)
    report.skipped = skipped
    return report
