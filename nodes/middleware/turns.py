"""What a run of the middleware was asked, and for whom: the request by identity, per turn.

**The request is what the user sent.** It is the human turns the client's input brought to the
thread, recognised by identity when the run starts (``before_agent``): a human message whose id the
middleware has not seen on the thread, or one the client re-sent under its id with new text (an
edited turn, which ``add_messages`` puts in the old one's place). A human message anything else
writes while the agent runs (SummarizationMiddleware's summary, the gateway's own feedback, a
user's middleware) is seen by the middleware after the step that wrote it (``after_model``,
``after_agent``, where it records every human turn it saw): it is never the request. The request's
text is kept in the run's bookkeeping, so a history rewritten later in the run (summarised,
trimmed, redacted, edited) cannot change what authorises the run's side effects; and only the
current run's turns count, so an earlier turn's request authorises nothing now.

**The subject is bound per thread** (:func:`policies.supervisor.subject.thread_subject`): by the
application (``governance_subject`` in the input, or the middleware's ``subject=``), else once by
the first request that names it (``user_id=42`` for a bound ``user_id``), and kept for the thread's
later runs; a later request naming someone else does not rebind it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from langchain_core.messages import HumanMessage

from nodes.messages import message_text
from policies.supervisor.subject import subject_from_request, thread_subject
from policies.text import text_hash


def _turns(messages: Iterable[Any]) -> list[HumanMessage]:
    return [m for m in messages if isinstance(m, HumanMessage)]


def seen(messages: Iterable[Any], written: Iterable[Any] = ()) -> dict[str, str]:
    """The human turns of the conversation (and of ``written``, an update not yet in state) as the
    middleware sees them now: message id → hash of the text."""
    return {m.id: text_hash(message_text(m)) for m in _turns([*messages, *written]) if m.id}


def new_turns(messages: Sequence[Any], known: Mapping[str, str]) -> list[HumanMessage]:
    """The human turns the client's input brought: ids not ``known``, or known ids with new text."""
    return [m for m in _turns(messages) if not m.id or known.get(m.id) != text_hash(message_text(m))]


def run_request(messages: Sequence[Any], known: Mapping[str, str]) -> dict[str, Any]:
    """The run's request as its bookkeeping keeps it: the text of the client's new turns and their
    ids (``turns``)."""
    turns = new_turns(messages, known)
    text = "\n\n".join(t for t in (message_text(m) for m in turns) if t)
    return {"request": text, "turns": [m.id for m in turns if m.id]}


def run_subject(
    state_subject: Mapping[str, Any] | None,
    configured: Mapping[str, Any] | None,
    request: str,
    names: Iterable[str],
) -> tuple[dict[str, Any], bool, dict[str, Any]]:
    """Whom the run acts for; whether this request bound it to the thread (it is then written to
    ``governance_subject`` and kept); and what the request named against a subject already bound
    (for the trace: a chat message never rebinds it)."""
    names = set(names)
    subject = thread_subject(state_subject, configured, request, names)
    named = subject_from_request(request, names) if names else {}
    conflict = {k: v for k, v in named.items() if k in subject and subject[k] != v}
    bound_now = not state_subject and not configured and bool(subject)
    return subject, bound_now, conflict


def feedback_turn(content: str, name: str) -> HumanMessage:
    """A human message the gateway writes (a refused final answer told to the model), with an id of
    its own so that the middleware records it as seen, never as a request."""
    return HumanMessage(content=content, name=name, id=str(uuid.uuid4()))
