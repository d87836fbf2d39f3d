"""Approvals that expire, as both engines keep their times: when a question was asked and when its
answer was given, each the first time it was seen (:mod:`policies.supervisor.authority.expiry` judges them).

Code before an ``interrupt`` runs again when its node resumes, and a time read there with
:func:`nodes.clock.now` would be a new one each time. So the time a question was asked is kept in
the thread's journal (the first one stored under the question's key wins; the Supervisor graph
keeps its own in state, written by ``escalate``), and the time an answer was given is the time the
journal stored it first (the CLI stores it as the reviewer answers). Without a journal or a thread
(nothing can resume then) the times are read now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nodes.clock import now
from nodes.effects import ask_key
from nodes.journal import Journal
from nodes.sealed import SEALED
from policies.json_safety import json_problem

#: The journal's key prefix of the time a question was asked (beside the answers, never one).
ASKED = "asked:"


def first_answer_at(journal: Journal | None, thread_id: str, ask: str, value: Any) -> tuple[Any, float]:
    """The first answer to the question ``ask`` (:func:`nodes.effects.first_answer`) and when it was
    given: the time the journal stored it first, read back the same by every run of the node."""
    if journal is None or not thread_id or json_problem(value) is not None:
        return value, now()
    stored, _ = journal.answer(thread_id, ask, {"answer": value})
    return stored.get("answer", value), float(stored.get("at") or now())


def asked_at(journal: Journal | None, thread_id: str, request: Mapping[str, Any]) -> float:
    """When the question ``request`` was first asked on the thread: the time stored with its key the
    first time, the same for every run of the node that asks it."""
    if journal is None or not thread_id:
        return now()
    stored, _ = journal.answer(thread_id, ASKED + ask_key(request), {"asked_at": now()})
    return float(stored.get("asked_at") or now())


def is_answer(entry: Mapping[str, Any]) -> bool:
    """A journal entry that is an answer (not the time a question was asked, nor its rules)."""
    return not str(entry.get("ask") or "").startswith((ASKED, SEALED))
