"""The run contract shared by every pattern's state.

Modules that define state types (this one and each ``graphs/<pattern>.py``) evaluate their
annotations when the class is made (no ``from __future__ import annotations``) and use
``typing_extensions.TypedDict``: an agent server may load a graph file under a module name that is
not in ``sys.modules``, where string annotations cannot be resolved, and pydantic builds the
input/output JSON schemas only from ``typing_extensions.TypedDict`` on Python < 3.12
(``tests/test_graph_loading.py``).
"""

import json
import uuid
from collections.abc import Sequence
from typing import Annotated, Any

from langchain_core.messages import (
    AnyMessage,
    BaseMessage,
    BaseMessageChunk,
    RemoveMessage,
    convert_to_messages,
    message_chunk_to_message,
)
from langgraph.graph.message import REMOVE_ALL_MESSAGES, add_messages
from typing_extensions import TypedDict

from nodes.contract import RUN_CONTRACT_KEYS

__all__ = [
    "RESET",
    "ROWS_SNAPSHOT_FREQUENCY",
    "RUN_CONTRACT_KEYS",
    "ChatInput",
    "RunState",
    "add_messages_delta",
    "add_messages_stable",
    "add_rows",
    "add_rows_delta",
    "add_usage",
    "latest_write",
]

#: A row that, first in an update, empties the list before the rest is appended. A run's first
#: node sends it, so a new run on a thread that already holds one starts from clean rows.
RESET: dict[str, Any] = {"__reset__": True}


def add_rows(left: list[dict[str, Any]] | None, right: list[dict[str, Any]] | None) -> list:
    """Reducer for ``trace`` and ``history``: append, or start over after ``RESET``."""
    right = list(right or [])
    if right and right[0] == RESET:
        return right[1:]
    return list(left or []) + right


#: How often a delta channel of audit rows stores its whole value: at every update. A run starts
#: its rows over, so the value is one run's rows, small; with LangGraph's default of 100 a list
#: written a few times a run had its last snapshot dozens of runs back, and every read of the
#: thread walked back to it (on PostgreSQL a Supervisor turn took about twice HITL's wall time for
#: it: docs/benchmarks.md, section 7).
ROWS_SNAPSHOT_FREQUENCY = 1


def latest_write(state: Any, writes: Sequence[Any]) -> Any:
    """A delta channel's reducer for a value each write replaces whole (the newest write wins)."""
    return writes[-1] if writes else state


def add_rows_delta(state: list[dict[str, Any]] | None, writes: Sequence[Any]) -> list[dict[str, Any]]:
    """``add_rows`` for a delta channel (``langgraph.channels.DeltaChannel``): a batch of writes in
    one pass, each appended, a write led by ``RESET`` starting the list over (so applying writes
    in one batch or several gives the same rows, as a delta channel requires)."""
    rows = list(state or [])
    for write in writes:
        given = list(write or [])
        if given and given[0] == RESET:
            rows = given[1:]
        else:
            rows.extend(given)
    return rows


#: The namespace of the ids a delta conversation gives messages written without one.
_MESSAGE_IDS = uuid.UUID("9f4b1c52-3a8e-4d6b-9c0e-5e7f2a1d8b34")


def _made_id(place: int, message: BaseMessage) -> str:
    """An id for a message written without one: the same every time the writes are replayed (its
    place among the conversation's messages, its type and content), where ``add_messages`` would
    give a new random one on every read."""
    said = json.dumps([place, message.type, message.content], default=str, sort_keys=True)
    return str(uuid.uuid5(_MESSAGE_IDS, said))


def add_messages_delta(state: list[AnyMessage] | None, writes: Sequence[Any]) -> list[AnyMessage]:
    """``add_messages`` for a delta channel: a batch of writes in one pass, with ``add_messages``'s
    meaning (a message replaces the one with its id, ``RemoveMessage`` removes one, a
    ``RemoveMessage(id=REMOVE_ALL_MESSAGES)`` starts the conversation over, chunks become
    messages) and a message written without an id given one its replays repeat. Unlike
    ``add_messages``, a write's messages apply one after another (``add_messages`` applies a
    write's removals last), and removing an id the conversation does not hold is ignored, not an
    error (a thread's replay must not fail). LangGraph's own delta reducer handles neither starting
    over (which ``create_agent`` and ``SummarizationMiddleware`` write) nor chunks."""
    flat: list[Any] = []
    for write in writes:  # a list of message-likes, or one (a message, a dict, a string, a pair)
        flat.extend(write) if isinstance(write, list) else flat.append(write)
    said = [
        message_chunk_to_message(m) if isinstance(m, BaseMessageChunk) else m
        for m in convert_to_messages(flat)
    ]
    start = next(
        (
            i
            for i in range(len(said) - 1, -1, -1)
            if isinstance(said[i], RemoveMessage) and said[i].id == REMOVE_ALL_MESSAGES
        ),
        None,
    )
    kept = list(state or [])
    if kept and not isinstance(kept[0], BaseMessage):
        kept = list(convert_to_messages(kept))
    if start is not None:
        kept, said = [], said[start + 1 :]
    out: list[BaseMessage | None] = list(kept)
    where = {m.id: i for i, m in enumerate(kept) if m.id}
    live = len(kept)
    for message in said:
        if isinstance(message, RemoveMessage):
            if message.id in where:
                out[where.pop(message.id)] = None
                live -= 1
            continue
        if not message.id:
            message = message.model_copy(update={"id": _made_id(live, message)})
        if message.id in where:
            out[where[message.id]] = message
        else:
            where[str(message.id)] = len(out)
            out.append(message)
            live += 1
    return [m for m in out if m is not None]  # type: ignore[misc]


def add_messages_stable(left: list[AnyMessage] | None, right: Any) -> list[AnyMessage]:
    """``add_messages``, but a message written without an id gets the id
    :func:`add_messages_delta` gives it (its place, type and content), not a random one. A thread
    kept with a delta conversation and read back with a plain one replays the writes through this
    reducer: its messages then keep the ids they had (``add_messages`` would give them new ones at
    every read until the next checkpoint, and a human turn with a new id looks like a new turn)."""
    given = right if isinstance(right, list) else [right]
    said = convert_to_messages(given)
    live = len(left or [])
    where = {m.id for m in left or () if isinstance(m, BaseMessage) and m.id}
    stamped: list[BaseMessage] = []
    for message in said:
        if isinstance(message, RemoveMessage):
            if message.id == REMOVE_ALL_MESSAGES:
                live, where = 0, set()
            elif message.id in where:
                where.discard(message.id)
                live -= 1
        elif not message.id:
            message = message.model_copy(update={"id": _made_id(live, message)})
            where.add(str(message.id))
            live += 1
        elif message.id not in where:
            where.add(str(message.id))
            live += 1
        stamped.append(message)
    return add_messages(left or [], stamped)  # type: ignore[arg-type,return-value]


def add_usage(left: dict[str, float] | None, right: dict[str, float] | None) -> dict[str, float]:
    """Reducer: usage (calls, tokens, ``cost_usd``) adds up over the run; ``RESET`` starts it over.
    Counts stay integers; the cost is a float rounded to 8 places (1e-8 USD)."""
    if right and right.get("__reset__"):
        return {k: v for k, v in right.items() if k != "__reset__"}
    total = dict(left or {})
    for key, value in (right or {}).items():
        summed = total.get(key, 0) + value
        total[key] = round(summed, 8) if isinstance(summed, float) else int(summed)
    return total


class RunState(TypedDict, total=False):
    """Keys every pattern's final state carries (the spec's run contract)."""

    run_id: str
    thread_id: str
    started_at: float
    model: str
    status: str
    stop_reason: str
    outcome: str
    answer: str
    phase: str
    trace: Annotated[list[dict[str, Any]], add_rows]
    history: Annotated[list[dict[str, Any]], add_rows]
    #: llm_calls, input_tokens, output_tokens, total_tokens, cost_usd, unpriced_calls
    usage: Annotated[dict[str, float], add_usage]
    # diagnostics of a stopped run
    details: dict[str, Any]
    raw_reply: str
    llm_detail: str
    #: the conversation chat clients show and send (:mod:`nodes.messages`): the request as a human
    #: turn, the answer (or why the run stopped) as an AI turn
    messages: Annotated[list[AnyMessage], add_messages]
    #: the id of the human turn the latest run took as its request, and the hash of its text as
    #: the run read it (a turn the client edits under its id is the next run's request)
    request_message_id: str
    request_message_hash: str


class ChatInput(TypedDict, total=False):
    """What every pattern's input accepts beside its own keys: a conversation whose last human
    turn is the request (Agent Chat UI, Studio's chat, ``{"messages": [...]}`` from Python)."""

    messages: Annotated[list[AnyMessage], add_messages]
