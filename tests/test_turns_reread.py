"""A run's steps digest only the human turns written since the run last read its conversation
(``nodes.middleware.turns._read``): what it recalls must never differ from reading the whole
conversation again, whatever happened to the conversation in between — turns appended, edited
(replaced, or changed in place), removed, summarised, an id given later, a list of blocks changed in
place. Generated, not picked: each step of each generated history is checked against a fresh read.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from nodes.middleware import turns


@pytest.fixture(autouse=True)
def _reread_every_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """Recall from the first message on (the middleware reads short conversations whole)."""
    monkeypatch.setattr(turns, "REREAD_FROM", 0)


WORDS = st.sampled_from(["pay user 7", "refund order 4", "  pay user 7 ", "summary: pay 9", "", "ok"])


def _apply(messages: list[Any], op: tuple[Any, ...]) -> list[Any]:
    """One change to the conversation, as LangGraph makes them (a new list; the messages in it are
    the same objects unless the change replaces or changes one)."""
    kind, at, text, with_id = op
    now = list(messages)
    humans = [i for i, m in enumerate(now) if isinstance(m, HumanMessage)]
    if kind == "human":
        now.append(HumanMessage(text, id=str(uuid.uuid4()) if with_id else None))
    elif kind == "ai":
        call = str(uuid.uuid4())
        now.append(AIMessage("", tool_calls=[{"name": "t", "args": {}, "id": call}], id=str(uuid.uuid4())))
        now.append(ToolMessage(text, tool_call_id=call, id=str(uuid.uuid4())))
    elif kind == "blocks":
        now.append(HumanMessage([{"type": "text", "text": text}], id=str(uuid.uuid4())))
    elif not humans:
        return now
    else:
        i = humans[at % len(humans)]
        target = now[i]
        if kind == "replace":  # an edit: the same id, new text (add_messages puts it in place)
            now[i] = HumanMessage(text, id=target.id)
        elif kind == "mutate":  # a middleware that changes the object in place
            target.content = text
        elif kind == "mutate_blocks" and isinstance(target.content, list):
            target.content.append({"type": "text", "text": text})
        elif kind == "give_id":
            target.id = str(uuid.uuid4())
        elif kind == "remove":
            del now[i]
        elif kind == "summarise":  # SummarizationMiddleware: the older part becomes one human turn
            now = [HumanMessage(f"summary {text}", id=str(uuid.uuid4())), *now[i:]]
    return now


#: Appends weigh double: a conversation mostly grows.
KINDS = [
    "human",
    "human",
    "ai",
    "ai",
    "blocks",
    "replace",
    "mutate",
    "mutate_blocks",
    "give_id",
    "remove",
    "summarise",
]

OPS = st.lists(
    st.tuples(
        st.sampled_from(KINDS),
        st.integers(0, 50),
        WORDS,
        st.booleans(),
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(OPS, st.booleans())
def test_what_a_run_recalls_is_what_a_fresh_read_finds(ops: list[tuple[Any, ...]], reply_last: bool) -> None:
    run = str(uuid.uuid4())
    messages: list[Any] = [HumanMessage("first", id="h0")]
    try:
        for op in ops:
            messages = _apply(messages, op)
            shown = [*messages, AIMessage("a reply", id=str(uuid.uuid4()))] if reply_last else messages
            recalled_turns, recalled = turns._read(shown, run)
            fresh_turns, fresh = turns._read(shown, None)
            assert recalled == fresh
            assert [id(m) for m in recalled_turns] == [id(m) for m in fresh_turns]
            assert turns.seen(shown, run=run) == turns.seen(shown)
    finally:
        turns.forget(run)


def test_a_run_recalls_rather_than_hashing_every_turn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The saving itself: the second step of a run digests only the turns written since."""
    run = str(uuid.uuid4())
    messages: list[Any] = [HumanMessage(f"turn {i}", id=f"h{i}") for i in range(50)]
    turns._read(messages, run)
    digested: list[str] = []
    real = turns._digest
    monkeypatch.setattr(turns, "_digest", lambda i, t: digested.append(i) or real(i, t))
    later = [*messages, AIMessage("x", id="a"), HumanMessage("a middleware's note", id="n1")]
    recalled = turns.seen(later, run=run)
    assert digested == ["n1"]
    assert recalled == turns.seen(later)
    turns.forget(run)
    assert run not in turns._READS


def test_a_short_conversation_is_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turns, "REREAD_FROM", 64)
    run = str(uuid.uuid4())
    turns._read([HumanMessage("hi", id="h")], run)
    assert run not in turns._READS


def test_reads_kept_are_bounded() -> None:
    runs = [str(uuid.uuid4()) for _ in range(turns.READS_KEPT + 5)]
    for run in runs:
        turns._read([HumanMessage("hi", id="h")], run)
    assert len(turns._READS) <= turns.READS_KEPT
    assert runs[-1] in turns._READS and runs[0] not in turns._READS
    for run in runs:
        turns.forget(run)
