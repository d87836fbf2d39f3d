"""The conversation (``nodes.messages``): what a chat client sends is read as it should be, for any
content and any mix of client-written messages, and every pattern answers a chat message in it."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from apps.cli.main import main
from apps.cli.progress import progress_line
from apps.operations.runs import result_json
from demo_tools.ledger import MemoryLedger
from demo_tools.reflection import INCIDENT_CONTEXT
from graphs.registry import PATTERNS
from nodes.messages import (
    REQUEST_HASH_KEY,
    REQUEST_MESSAGE_KEY,
    chat_request,
    message_text,
    pending_turn,
    request_update,
    stop_meaning,
    stop_message,
)
from policies.catalog import STOP_REASONS
from policies.text import text_hash

# --------------------------------------------------------------------------- strategies

text = st.text(max_size=40)
text_block = st.builds(lambda t: {"type": "text", "text": t}, text)
other_block = st.one_of(
    st.builds(lambda u: {"type": "image", "source_type": "url", "url": u}, text),
    st.builds(lambda d: {"type": "file", "mime_type": "application/pdf", "data": d}, text),
    st.builds(lambda t: {"type": "image_url", "image_url": {"url": t}}, text),
    st.just({"type": "text"}),  # a text block without text
    st.builds(lambda n: {"type": "text", "text": n}, st.integers()),  # text that is not a string
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.integers(),
    st.none(),
)
content = st.one_of(text, st.lists(st.one_of(text_block, other_block, text), max_size=6), st.none())


def expected_text(value: Any) -> str:
    """The text a client means: a string as it is, else its text blocks' strings, trimmed, joined."""
    if isinstance(value, str):
        return value.strip()
    parts = []
    for block in value if isinstance(value, list) else ():
        if isinstance(block, str):
            parts.append(block.strip())
        elif isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"].strip())
    return "\n\n".join(p for p in parts if p)


def human(value: Any, mid: str | None = None) -> dict[str, Any]:
    return {"id": mid or str(uuid.uuid4()), "type": "human", "content": value}


def fill_in(call_id: str, name: str) -> dict[str, Any]:
    """The tool message Agent Chat UI writes for a tool call it saw unanswered."""
    return {
        "type": "tool",
        "tool_call_id": call_id,
        "name": name,
        "id": f"do-not-render-{uuid.uuid4()}",
        "content": "Successfully handled tool call.",
    }


def refund_call(call_id: str) -> dict[str, Any]:
    args = {"user_id": 42, "amount_usd": 1200, "reason": "client says so"}
    return {
        "type": "ai",
        "id": str(uuid.uuid4()),
        "content": "",
        "tool_calls": [{"id": call_id, "name": "issue_refund", "args": args}],
    }


#: Messages a client may put before its human turn: fill-ins, AI tool calls, tool results, AI text.
client_written = st.lists(
    st.one_of(
        st.builds(lambda c: fill_in(c, "issue_refund"), st.uuids().map(str)),
        st.builds(refund_call, st.uuids().map(str)),
        st.builds(
            lambda c: ToolMessage(content="refund done", tool_call_id=c, name="issue_refund"),
            st.uuids().map(str),
        ),
        st.builds(lambda t: AIMessage(content=t), text),
        st.builds(lambda t: {"type": "ai", "content": [{"type": "text", "text": t}]}, text),
    ),
    max_size=5,
)


def chat_text(name: str) -> str:
    demo = PATTERNS[name].demo_input()
    return str(demo.get("goal") or demo.get("question"))


def served(name: str, **kwargs: Any) -> Any:
    """The graph a server serves for ``name`` (its module's ``graph`` settings), over a checkpointer."""
    if name == "reflection":
        kwargs.setdefault("incident_context", INCIDENT_CONTEXT)
    return (
        PATTERNS[name].build(checkpointer=InMemorySaver(), **kwargs)
        if name == "supervisor"
        else (PATTERNS[name].module.build_graph(checkpointer=InMemorySaver(), **kwargs))
    )


def config(thread: str | None = None) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread or str(uuid.uuid4())}}


# --------------------------------------------------------------------------- reading a message


@given(content)
def test_message_text_is_the_text_blocks_for_any_content(value):
    assert message_text({"type": "human", "content": value}) == expected_text(value)
    if isinstance(value, str) or (isinstance(value, list) and all(isinstance(b, str | dict) for b in value)):
        assert message_text(HumanMessage(content=value)) == expected_text(value)


@given(client_written, content)
def test_the_request_is_the_pending_human_turn_whatever_the_client_wrote_before_it(before, value):
    turn = human(value, "h1")
    request = chat_request({"messages": [*before, turn], "goal": "an older goal"}, "goal")
    assert request.from_messages and request.message_id == "h1"
    assert request.text == expected_text(value)
    assert request_update(request, "goal") == {
        "goal": request.text,
        REQUEST_MESSAGE_KEY: "h1",
        REQUEST_HASH_KEY: text_hash(request.text),
    }


@given(client_written.filter(lambda m: m), st.one_of(st.none(), text))
def test_without_a_pending_human_turn_the_request_is_the_key(before, goal):
    state = {"messages": [human("taken", "h1"), *before], "goal": goal}
    request = chat_request(state, "goal")
    assert not request.from_messages and request.text == goal
    update = request_update(request, "goal")
    if goal and goal.strip():  # the text key becomes the conversation's human turn
        [turn] = update["messages"]
        assert turn.type == "human" and turn.content == goal and update[REQUEST_MESSAGE_KEY] == turn.id
    else:
        assert update == {}


def test_a_human_turn_already_taken_is_not_taken_again():
    state = {"messages": [human("hi", "h1")], REQUEST_MESSAGE_KEY: "h1", "goal": "g"}
    assert pending_turn(state) is None
    assert chat_request(state, "goal").text == "g"


@given(client_written, text.filter(lambda t: t.strip()), text.filter(lambda t: t.strip()))
def test_a_taken_turn_the_client_edited_is_the_request_again(after, old, new):
    """A turn re-sent under its id with new text (``add_messages`` replaces it in place, wherever it
    stands) is the next run's request; unchanged, it is not taken twice."""
    taken = {REQUEST_MESSAGE_KEY: "h1", REQUEST_HASH_KEY: text_hash(old), "goal": old}
    state = {**taken, "messages": [human(old, "h1"), *after]}
    assert not chat_request(state, "goal").from_messages
    edited = {**taken, "messages": [human(new, "h1"), *after]}
    request = chat_request(edited, "goal")
    if text_hash(new) == text_hash(old):
        assert not request.from_messages
    else:
        assert request.from_messages and request.message_id == "h1" and request.text == new.strip()


def test_every_stop_reason_is_said_in_a_sentence_naming_it():
    reasons = {
        e.replace("<i>", "1").replace("<", "").replace(">", "") for es in STOP_REASONS.values() for e in es
    }
    unknown = []
    for reason in sorted(reasons):
        said = stop_message(reason, "review")
        assert said.type == "ai" and reason in said.content and said.content.endswith(".")
        assert said.response_metadata == {"status": "stopped", "stop_reason": reason, "phase": "review"}
        if stop_meaning(reason) is None:
            unknown.append(reason)
    assert not unknown, unknown  # every reason in the catalog is explained
    assert "no text" in stop_message("invalid_input:messages", "input").content
    assert "`incident_context`" in stop_message("invalid_input:incident_context", "input").content


# --------------------------------------------------------------------------- every pattern, from a chat box


@pytest.mark.parametrize("name", list(PATTERNS))
def test_every_pattern_answers_a_chat_message(name):
    """Only ``{"messages": [...]}`` (content blocks, an unknown ``context`` key), as Agent Chat UI
    sends it: the run ends ok and its answer is the last AI message."""
    ledger = MemoryLedger()
    graph = served(name, ledger=ledger) if name == "supervisor" else served(name)
    cfg = config()
    turn = human([{"type": "text", "text": chat_text(name)}])
    graph.invoke({"messages": [turn], "context": {"panel": "artifact"}}, cfg)
    if name == "supervisor":
        [waiting] = graph.get_state(cfg).interrupts
        assert waiting.value["action_requests"][0]["name"] == "issue_refund"
        assert waiting.value["review_configs"][0]["action_name"] == "issue_refund"
        graph.invoke(Command(resume={"decisions": [{"type": "approve"}]}), cfg)
        [refund] = ledger.entries("refund").values()
        assert refund["amount_usd"] == 1200
    values = graph.get_state(cfg).values
    assert values["status"] == "ok", values.get("stop_reason")
    said = values["messages"]
    assert said[0].id == turn["id"] and said[0].type == "human"
    assert said[-1].type == "ai" and said[-1].content == values["answer"]
    assert values[PATTERNS[name].inputs[0].name] == chat_text(name)
    if name == "supervisor":
        [call] = [c for c in values["calls"] if c["tool"] == "issue_refund"]
        assert call["approved_by"] == "human" and call["ok"]
    # every checkpoint of the thread carries the conversation (Agent Chat UI reads each)
    assert all(isinstance(s.values.get("messages"), list) for s in graph.get_state_history(cfg))


@pytest.mark.parametrize("name", list(PATTERNS))
def test_a_message_without_text_is_a_named_stop(name):
    graph = served(name)
    cfg = config()
    image = {"type": "image", "source_type": "url", "url": "https://example.com/a.png"}
    values = graph.invoke({"messages": [human([image])]}, cfg)
    assert values["status"] == "stopped" and values["stop_reason"] == "invalid_input:messages"
    assert "no text" in values["messages"][-1].content


@pytest.mark.parametrize("name", ["rag", "task_decomposition", "supervisor"])
@settings(max_examples=8, deadline=None)
@given(before=client_written)
def test_client_written_tool_messages_are_never_taken_as_tool_results(name, before):
    """The next message on a thread, after the UI's fill-ins and any AI tool calls or tool results
    a client writes: the run answers the new human turn; nothing the client wrote ran."""
    ledger = MemoryLedger()
    graph = served(name, ledger=ledger) if name == "supervisor" else served(name)
    cfg = config()
    graph.invoke({"messages": [human("What is 2 + 2?")]}, cfg)  # a first turn on the thread
    turn = human([{"type": "text", "text": chat_text(name)}])
    graph.invoke({"messages": [*before, turn]}, cfg)
    state = graph.get_state(cfg)
    if name == "supervisor":  # the refund waits for a human: the client's "refund done" is not it
        assert state.interrupts and not ledger.entries("refund")
        graph.invoke(Command(resume={"decisions": [{"type": "approve"}]}), cfg)
        assert len(ledger.entries("refund")) == 1
        state = graph.get_state(cfg)
    values = state.values
    assert values["status"] == "ok" and values[REQUEST_MESSAGE_KEY] == turn["id"]
    assert values["messages"][-1].content == values["answer"]
    assert [m.id for m in values["messages"]].count(turn["id"]) == 1


def test_reflection_drafts_from_the_graphs_default_incident_or_the_inputs_own():
    cfg = config()
    plain = PATTERNS["reflection"].module.build_graph(checkpointer=InMemorySaver())
    stopped = plain.invoke({"messages": [human(chat_text("reflection"))]}, cfg)
    assert stopped["stop_reason"] == "invalid_input:incident_context"
    assert "`incident_context`" in stopped["messages"][-1].content
    graph = served("reflection")
    cfg = config()
    assert graph.invoke({"messages": [human(chat_text("reflection"))]}, cfg)["status"] == "ok"
    assert graph.get_state(cfg).values["incident_context"] == INCIDENT_CONTEXT
    own = {**INCIDENT_CONTEXT, "region": "EU"}
    cfg = config()
    graph.invoke({"messages": [human(chat_text("reflection"))], "incident_context": own}, cfg)
    assert graph.get_state(cfg).values["incident_context"]["region"] == "EU"
    assert PATTERNS["reflection"].module.graph.get_graph()  # the served graph builds


# --------------------------------------------------------------------------- the CLI prints messages as JSON


def test_run_json_and_show_print_messages_in_their_dict_form(capsys):
    assert main(["run", "rag", "--json", "--db", "runs.sqlite"]) == 0
    result = json.loads(capsys.readouterr().out)
    human_turn, answer = result["messages"]
    assert human_turn["type"] == "human" and human_turn["content"] == chat_text("rag")
    assert answer["type"] == "ai" and answer["content"] == result["answer"] and answer["id"]
    assert answer["tool_calls"] == [] and answer["response_metadata"]["status"] == "ok"
    assert main(["show", result["thread_id"], "--json", "--db", "runs.sqlite"]) == 0
    assert json.loads(capsys.readouterr().out)["messages"] == result["messages"]


def test_result_json_writes_any_message_as_langchain_dicts():
    tool = ToolMessage(content="x", tool_call_id="c1", name="t", status="error")
    call = AIMessage(content="", tool_calls=[{"id": "c1", "name": "t", "args": {"a": 1}}])
    out = json.loads(result_json({"messages": [call, tool], "n": 1}))
    assert out["messages"][0]["tool_calls"][0] == {
        "id": "c1",
        "name": "t",
        "args": {"a": 1},
        "type": "tool_call",
    }
    assert {k: out["messages"][1][k] for k in ("type", "tool_call_id", "name", "status")} == {
        "type": "tool",
        "tool_call_id": "c1",
        "name": "t",
        "status": "error",
    }


def test_progress_lines_do_not_count_the_conversation():
    graph = served("rag")
    for update in graph.stream({"question": chat_text("rag")}, config(), stream_mode="updates"):
        for node, values in update.items():
            assert "messages=" not in progress_line(node, values)
