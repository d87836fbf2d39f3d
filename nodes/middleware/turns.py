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

**The subject is bound per thread** (:func:`policies.supervisor.request.subject.thread_subject`): by the
application (``governance_subject`` in the input, or the middleware's ``subject=``), else once by
the first request that names it (``user_id=42`` for a bound ``user_id``), and kept for the thread's
later runs; a later request naming someone else does not rebind it.
"""

from __future__ import annotations

import hashlib
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from operator import attrgetter, is_, itemgetter
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
from policies.supervisor.request.subject import subject_from_request, thread_subject
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


def _digests_of(turns: Iterable[HumanMessage]) -> list[str]:
    """Each turn's digest (``""`` for a turn without an id, which is never recorded)."""
    return [_digest(m.id, _text(m)) if m.id else "" for m in turns]


#: A human turn's id and content, as :class:`_Read` keeps them.
_SAID = attrgetter("id", "content")


@dataclass(slots=True)
class _Read:
    """What one run last read of its conversation: the message objects it read (their order), its
    human turns, each turn's id and content then (``None`` when a content is not a string: a list of
    blocks can change in place) and the turns' digests."""

    messages: list[Any]
    turns: list[HumanMessage]
    said: list[tuple[Any, Any]] | None
    digests: list[str]

    def still(self, messages: Sequence[Any]) -> bool:
        """Does ``messages`` start with the very messages read, each human turn with the id and text
        it had? (One pass of identity checks, in C: no turn is hashed again.)"""
        if self.said is None or len(messages) < len(self.messages):
            return False
        return all(map(is_, messages, self.messages)) and list(map(_SAID, self.turns)) == self.said


#: The runs' last reads (run id → :class:`_Read`), the newest ``READS_KEPT``: a run's steps read the
#: same message objects again, so each step digests only the turns written since (a long thread's
#: step no longer pays for every earlier turn). A run's end forgets its read (:func:`forget`). A
#: conversation shorter than ``REREAD_FROM`` messages is read whole: that is cheaper than recalling.
_READS: OrderedDict[str, _Read] = OrderedDict()
READS_KEPT = 32
REREAD_FROM = 64


def _read(messages: Sequence[Any], run: str | None) -> tuple[list[HumanMessage], list[str]]:
    """The conversation's human turns and their digests; with ``run`` (a run id), from what that
    run read before where the conversation still starts with it (:meth:`_Read.still`)."""
    if not run or len(messages) < REREAD_FROM:
        turns = _turns(messages)
        return turns, _digests_of(turns)
    before = _READS.get(run)
    if before is not None and before.still(messages):
        fresh = _turns(messages[len(before.messages) :])
        turns, digests, said = before.turns + fresh, before.digests + _digests_of(fresh), before.said
    else:
        turns = fresh = _turns(messages)
        digests, said = _digests_of(turns), []
    new_said = list(map(_SAID, fresh))
    strings = all(map(isinstance, map(itemgetter(1), new_said), repeat(str)))
    read = _Read(list(messages), turns, said + new_said if said is not None and strings else None, digests)
    _READS.pop(run, None)  # kept as the newest (each call is atomic; other threads only evict)
    _READS[run] = read
    while len(_READS) > READS_KEPT:
        try:
            _READS.popitem(last=False)
        except KeyError:  # another thread emptied it meanwhile
            break
    return turns, digests


def forget(run: str | None) -> None:
    """A run's end: what it read is not kept any longer."""
    _READS.pop(str(run), None)


def seen(messages: Sequence[Any], written: Iterable[Any] = (), *, run: str | None = None) -> str:
    """The human turns of the conversation (and of ``written``, an update not yet in state) as the
    middleware sees them now: the digests of their ids and texts, in order (``DIGEST`` hex digits
    each; 12 bytes a turn, where an id and a hash took 56). ``run``: the run reading them, whose
    earlier read of the same conversation is reused (:func:`_read`)."""
    return "".join(_read(messages, run)[1]) + "".join(_digests_of(_turns(written)))


def seen_update(
    known: Seen | None, messages: Sequence[Any], written: Iterable[Any] = (), *, run: str | None = None
) -> dict[str, str]:
    """The state update that records the turns seen now (:func:`seen`), or none when ``known``
    already records them (an unchanged value is not written again)."""
    now_seen = seen(messages, written, run=run)
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


def opened(
    messages: Sequence[Any], known: Seen | None, *, run: str | None = None
) -> tuple[dict[str, Any], str]:
    """A run's start in one pass over the thread's human turns: its request (:func:`run_request`)
    and the turns seen now (:func:`seen`); ``run``: the new run's id, whose steps reuse this read."""
    every, digested = _read(messages, run)
    if isinstance(known, Mapping):  # a thread checkpointed before the digests
        turns = new_turns(messages, known)
    else:
        text = known if isinstance(known, str) else ""
        digests = {text[i : i + DIGEST] for i in range(0, len(text), DIGEST)}
        turns = [m for m, digest in zip(every, digested, strict=True) if not digest or digest not in digests]
    said = "\n\n".join(t for t in (_text(m) for m in turns) if t)
    asked = {"request": said, "turns": [m.id for m in turns if m.id]}
    return asked, "".join(digested)


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
