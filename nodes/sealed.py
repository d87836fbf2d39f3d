"""What a question is answered by, kept as it was asked: the middleware rebuilds its question each
time its node runs (code before an ``interrupt`` runs again on resume), under whatever policy the
resuming process loaded. The rules that judge an answer (who must answer, how many must approve:
:func:`policies.supervisor.authority.reviewers.sealed`; when it expires:
:func:`policies.supervisor.authority.expiry.sealed`) are therefore stored in the thread's journal
the first time the question is asked, under a key of the call and its round, and read back by every
later run of the node: a process that loads another policy, or none, asks the same question and
judges its answer by the same rules. The Supervisor graph keeps the question in its state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nodes.effects import ask_key
from nodes.journal import Journal

#: The journal's key prefix of a question's rules (beside the answers, never one).
SEALED = "sealed:"


def sealed_fields(
    journal: Journal | None, thread_id: str, action: Mapping[str, Any], round_: int, fields: Mapping[str, Any]
) -> dict[str, Any]:
    """The rules (signoff and expiry fields) of the question about ``action`` in ``round_`` as
    first asked on the thread: ``fields`` (what the policy now says) the first time, what was
    stored then every later time. Without a journal or a thread (nothing can resume) ``fields`` as
    they are."""
    if journal is None or not thread_id:
        return dict(fields)
    key = SEALED + ask_key({"action": dict(action), "round": round_})
    stored, _ = journal.answer(thread_id, key, {"fields": dict(fields)})
    kept = stored.get("fields")
    return dict(kept) if isinstance(kept, Mapping) else dict(fields)
