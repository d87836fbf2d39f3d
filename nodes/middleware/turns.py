"""What a run of the middleware was asked, and for whom: the request by identity, per turn.

**The request is what the user sent.** It is the human turns the client's input brought to the
thread, recognised by identity when the run starts (``before_agent``): a human message whose id the
middleware has not seen on the thread, or one the client re-sent under its id with new text (an
edited turn, which ``add_messages`` puts in the old one's place). A human message anything else
writes while the agent runs (SummarizationMiddleware's summary, the gateway's own feedback, a
user's middleware) is seen by the middleware after the step that wrote it (the model's
node, ``after_agent``, where it records every human turn it saw): it is never the request. The request's
text is kept in the run's bookkeeping, so a history rewritten later in the run (summarised,
trimmed, redacted, edited) cannot change what authorises the run's side effects; and only the
current run's turns count, so an earlier turn's request authorises nothing now.

**The subject is bound per thread** (:func:`policies.supervisor.subject.thread_subject`): by the
application (``governance_subject`` in the input, or the middleware's ``subject=``), else once by
the first request that names it (``user_id=42`` for a bound ``user_id``), and kept for the thread's
later runs; a later request naming someone else does not rebind it.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    ToolMessageChunk,
)

from nodes.messages import message_text
from policies.supervisor.subject import subject_from_request, thread_subject
from policies.text import normalize_ws, text_hash

#: ``governance_seen`` holds each human turn seen as the digest of its id and text, this many hex
#: digits each, one after the other (a thread checkpointed before keeps a dict: id → text hash).
#: Two turns that share a digest (about 1 in 10^14 for 200 turns) make the newer one no request:
#: the run is then authorised by less, never by more.
DIGEST = 12

#: What the middleware recorded of the thread's human turns (``governance_seen``).
Seen = str | Mapping[str, str]


#: Message types that are never human turns, told apart by their exact type (a long thread's passes
#: over its messages skip them without the subclass check).
_NOT_HUMAN = frozenset(
    {AIMessage, AIMessageChunk, ToolMessage, ToolMessageChunk, SystemMessage, ChatMessage, FunctionMessage}
)


def _turns(messages: Iterable[Any]) -> list[HumanMessage]:
    return [
        m
        for m in messages
        if type(m) is HumanMessage or (type(m) not in _NOT_HUMAN and isinstance(m, HumanMessage))
    ]


def _text(message: HumanMessage) -> str:
    """:func:`~nodes.messages.message_text` of a human turn, its string content read directly."""
    content = message.content
    return content.strip() if type(content) is str else message_text(message)


@lru_cache(maxsize=16384)
def _digest(message_id: str, text: str) -> str:
    """A human turn's id and (whitespace-normalised) text, as ``governance_seen`` keeps them; kept
    per process, so the passes over a long thread's turns at each step hash each turn once."""
    said = f"{message_id}\x00{normalize_ws(text)}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(said).hexdigest()[:DIGEST]


def seen(messages: Iterable[Any], written: Iterable[Any] = ()) -> str:
    """The human turns of the conversation (and of ``written``, an update not yet in state) as the
    middleware sees them now: the digests of their ids and texts, in order (``DIGEST`` hex digits
    each; 12 bytes a turn, where an id and a hash took 56)."""
    turns = _turns(messages) + _turns(written)
    return "".join(_digest(m.id, _text(m)) for m in turns if m.id)


def seen_update(known: Seen | None, messages: Iterable[Any], written: Iterable[Any] = ()) -> dict[str, str]:
    """The state update that records the turns seen now (:func:`seen`), or none when ``known``
    already records them (an unchanged value is not written again)."""
    now_seen = seen(messages, written)
    return {} if now_seen == known else {"governance_seen": now_seen}


def _was_seen(known: Seen | None) -> Callable[[HumanMessage], bool]:
    """Whether a human turn is one ``known`` records, with that text (either format)."""
    if isinstance(known, Mapping):  # a thread checkpointed before the digests
        return lambda m: bool(m.id) and known.get(str(m.id)) == text_hash(message_text(m))
    text = known if isinstance(known, str) else ""
    digests = {text[i : i + DIGEST] for i in range(0, len(text), DIGEST)}
    return lambda m: bool(m.id) and _digest(str(m.id), message_text(m)) in digests


def new_turns(messages: Sequence[Any], known: Seen | None) -> list[HumanMessage]:
    """The human turns the client's input brought: ids not ``known``, or known ids with new text."""
    was_seen = _was_seen(known)
    return [m for m in _turns(messages) if not was_seen(m)]


def run_request(messages: Sequence[Any], known: Seen | None) -> dict[str, Any]:
    """The run's request as its bookkeeping keeps it: the text of the client's new turns and their
    ids (``turns``)."""
    return opened(messages, known)[0]


def opened(messages: Sequence[Any], known: Seen | None) -> tuple[dict[str, Any], str]:
    """A run's start in one pass over the thread's human turns: its request (:func:`run_request`)
    and the turns seen now (:func:`seen`)."""
    digested = [(m, _digest(m.id, _text(m)) if m.id else "") for m in _turns(messages)]
    if isinstance(known, Mapping):  # a thread checkpointed before the digests
        turns = new_turns(messages, known)
    else:
        text = known if isinstance(known, str) else ""
        digests = {text[i : i + DIGEST] for i in range(0, len(text), DIGEST)}
        turns = [m for m, digest in digested if not digest or digest not in digests]
    said = "\n\n".join(t for t in (_text(m) for m in turns) if t)
    asked = {"request": said, "turns": [m.id for m in turns if m.id]}
    return asked, "".join(digest for _m, digest in digested)


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
