"""Delta channels behind one switch (beta): every pattern's conversation and audit rows
(``AGENT_PATTERNS_DELTA_CHANNELS``, ``graphs.compile``) and a ``create_agent`` agent's
(``state_schema=GovernanceDeltaState``), with the batch reducers that replay their writes
(``nodes.state``). The whole suite also runs with the switch on (docs/development.md)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage, RemoveMessage
from langgraph.channels import BinaryOperatorAggregate, DeltaChannel
from langgraph.graph.message import REMOVE_ALL_MESSAGES, add_messages

from graphs.compile import DELTA_CHANNELS_ENV, delta_channels_enabled
from graphs.registry import PATTERNS
from nodes.state import RESET, add_messages_delta, add_messages_stable, add_rows, add_rows_delta
from nodes.store import open_checkpointer

# --- the reducers -------------------------------------------------------------------------------

_IDS = st.sampled_from(["a", "b", "c", "d"])
_MESSAGE = st.one_of(
    st.builds(lambda i, t: HumanMessage(t, id=i), _IDS, st.sampled_from(["hi", "there"])),
    st.builds(lambda t: AIMessage(t), st.sampled_from(["x", "y"])),  # no id: given one
    st.builds(lambda i: RemoveMessage(id=i), _IDS),
    st.just(RemoveMessage(id=REMOVE_ALL_MESSAGES)),
    st.just(("user", "a pair")),
)
_WRITES = st.lists(st.lists(_MESSAGE, max_size=4), max_size=6)


def _known(writes: list[list[Any]]) -> list[list[Any]]:
    """The writes with every removal of an id not there at that point dropped (``add_messages``
    raises on those; the delta reducer ignores them)."""
    held: set[str] = set()
    kept = []
    for write in writes:
        out: list[Any] = []
        for m in write:
            if isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES:
                held = set()
            elif isinstance(m, RemoveMessage):
                if m.id not in held:
                    continue
                held.discard(m.id)
            elif isinstance(m, HumanMessage):
                held.add(str(m.id))
            out.append(m)
        kept.append(out)
    return kept


def _shape(messages: list[Any]) -> list[tuple[str, Any]]:
    return [(m.type, m.content) for m in messages]


@settings(max_examples=300, deadline=None)
@given(writes=_WRITES, split=st.integers(min_value=0, max_value=6))
def test_the_messages_reducer_is_add_messages_in_any_batching(writes, split):
    """``add_messages`` message by message: a write's messages apply one after another (within
    one write ``add_messages`` itself applies removals last and keeps whatever follows a
    start-over as it is, which no batching could repeat)."""
    writes = _known(writes)
    folded: list[Any] = []
    for write in writes:
        for message in write:
            folded = add_messages(folded, [message])
    once = add_messages_delta([], writes)
    twice = add_messages_delta(add_messages_delta([], writes[:split]), writes[split:])
    assert _shape(once) == _shape(folded)
    assert once == twice  # batching-invariant, ids included
    assert len({m.id for m in once}) == len(once) and all(m.id for m in once)


@settings(max_examples=300, deadline=None)
@given(writes=_WRITES)
def test_the_plain_reducer_replays_a_delta_conversation_with_its_ids(writes):
    """``add_messages_stable`` (``GovernanceState``'s plain conversation) message by message is
    ``add_messages_delta``, ids included: a thread kept with the delta state and read back with the
    plain one (its writes replayed one by one) keeps every message's id, where ``add_messages``
    gives a message sent without one a new id at every read."""
    writes = _known(writes)
    folded: list[Any] = []
    for write in writes:
        for message in write:
            folded = add_messages_stable(folded, [message])
    assert folded == add_messages_delta([], writes)
    plain = [add_messages([], [("user", "hi")])[0].id for _ in range(2)]
    assert plain[0] != plain[1]  # why: add_messages draws a new id every time


def test_a_message_without_an_id_gets_the_same_one_every_replay():
    first = add_messages_delta([], [[("user", "hi"), AIMessage("ok")]])
    again = add_messages_delta([], [[("user", "hi"), AIMessage("ok")]])
    assert [m.id for m in first] == [m.id for m in again] and first[0].id != first[1].id


def test_starting_over_and_chunks_as_add_messages_does():
    said = add_messages_delta([HumanMessage("a", id="1")], [[AIMessageChunk(content="part", id="2")]])
    assert [type(m).__name__ for m in said] == ["HumanMessage", "AIMessage"]
    summary = [RemoveMessage(id=REMOVE_ALL_MESSAGES), HumanMessage("summary", id="s")]
    assert _shape(add_messages_delta(said, [summary])) == [("human", "summary")]


@settings(max_examples=200, deadline=None)
@given(
    writes=st.lists(
        st.lists(st.one_of(st.just(RESET), st.integers(0, 9).map(lambda n: {"n": n})), max_size=4), max_size=6
    ),
    split=st.integers(min_value=0, max_value=6),
)
def test_the_rows_reducer_is_add_rows_in_any_batching(writes, split):
    folded: list[Any] = []
    for write in writes:
        folded = add_rows(folded, write)
    assert add_rows_delta([], writes) == folded
    assert add_rows_delta(add_rows_delta([], writes[:split]), writes[split:]) == folded


# --- the switch ---------------------------------------------------------------------------------


def test_the_switch_is_on_unless_turned_off():
    assert delta_channels_enabled({}) and delta_channels_enabled({DELTA_CHANNELS_ENV: ""})
    assert delta_channels_enabled({DELTA_CHANNELS_ENV: "1"}) and delta_channels_enabled(
        {DELTA_CHANNELS_ENV: "on"}
    )
    for off in ("0", "false", "No", " off "):
        assert not delta_channels_enabled({DELTA_CHANNELS_ENV: off}), off


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_every_pattern_keeps_delta_channels_by_default(name, monkeypatch):
    monkeypatch.delenv(DELTA_CHANNELS_ENV, raising=False)
    channels = PATTERNS[name].build().builder.channels
    for key in ("messages", "trace", "history"):
        assert isinstance(channels[key], DeltaChannel), key


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_every_pattern_keeps_its_conversation_and_rows_as_delta_channels_when_on(name, monkeypatch):
    monkeypatch.setenv(DELTA_CHANNELS_ENV, "1")
    graph = PATTERNS[name].build()
    channels = graph.builder.channels
    for key in ("messages", "trace", "history"):
        assert isinstance(channels[key], DeltaChannel), key
    monkeypatch.setenv(DELTA_CHANNELS_ENV, "0")
    assert isinstance(PATTERNS[name].build().builder.channels["messages"], BinaryOperatorAggregate)


def test_a_thread_kept_with_delta_channels_reads_back_the_same(tmp_path, monkeypatch):
    """The Supervisor's demo on SQLite, twice on one thread, with the switch on: the state read
    back from a new saver is the state the run returned, and the checkpoints hold no whole
    conversation (only its snapshots do)."""
    monkeypatch.setenv(DELTA_CHANNELS_ENV, "1")
    pattern = PATTERNS["supervisor"]
    db = str(tmp_path / "t.sqlite")
    config = {"configurable": {"thread_id": "t"}}
    with open_checkpointer(db) as saver:
        graph = pattern.build(checkpointer=saver)
        graph.invoke(pattern.demo_input(), config)
        done = graph.invoke({"messages": [("user", "And the refund status?")]}, config)
    with open_checkpointer(db) as saver:
        values = pattern.build(checkpointer=saver).get_state(config).values
        stored = [t.checkpoint["channel_values"].get("messages") for t in saver.list(config)]
    assert values["messages"] == done["messages"] and values["trace"] == done["trace"]
    assert all(not isinstance(m, list) for m in stored)  # a snapshot, or not stored at all


def test_an_agent_with_the_delta_state_keeps_its_conversation_and_rows_as_delta_channels(tmp_path):
    """``create_agent(..., state_schema=GovernanceDeltaState)``: the conversation and the
    middleware's rows are delta channels, and a thread on SQLite reads back as it ran."""
    pytest.importorskip(
        "langchain.agents", reason="GovernanceMiddleware needs langchain>=1 (the agents extra)"
    )
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

    from nodes.middleware import GovernanceDeltaState, GovernanceMiddleware
    from policies.supervisor import SupervisorPolicy

    def lookup_order(order_id: str) -> dict:
        """Look an order up."""
        return {"order_id": order_id, "status": "shipped"}

    class Model(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Model:
            return self

    replies = []
    for n in (1, 2):
        call = {"name": "lookup_order", "args": {"order_id": f"A{n}"}, "id": f"c{n}"}
        replies += [AIMessage("", tool_calls=[call]), AIMessage(f"A{n} is shipped.")]
    governance = GovernanceMiddleware(SupervisorPolicy.for_tools([lookup_order]), tools=[lookup_order])
    config = {"configurable": {"thread_id": "t"}}
    with open_checkpointer(str(tmp_path / "t.sqlite")) as saver:
        agent = create_agent(
            Model(messages=iter(replies)),
            [lookup_order],
            middleware=[governance],
            checkpointer=saver,
            state_schema=GovernanceDeltaState,
        )
        for key in (
            "messages",
            "governance_trace",
            "governance_calls",
            "governance_seen",
            "governance_ledger",
        ):
            assert isinstance(agent.builder.channels[key], DeltaChannel), key
        for n in (1, 2):
            done = agent.invoke({"messages": [("user", f"Where is order A{n}?")]}, config)
        values = agent.get_state(config).values
        # what grows with the thread is stored where it changed, not in every checkpoint: the
        # turns seen once a run (at its start; unchanged at its end, so not written again)
        kept = [t.checkpoint["channel_values"] for t in saver.list(config)]
        holding = [v for v in kept if "governance_seen" in v]
        assert len(kept) > 10 and len(holding) == 2
        assert not any(isinstance(v["governance_seen"], str) for v in holding)  # snapshots
        latest = saver.get_tuple(config)
        assert latest is not None
        rows = ["governance_trace", "governance_calls", "governance_seen"]
        read = saver.get_delta_channel_history(config=latest.config, channels=rows)
        assert all(read[key]["writes"] == [] for key in rows)  # found whole, no history walked
        assert len(values["governance_seen"]) == 2 * 12  # two turns, a digest each
    assert values["messages"] == done["messages"] and len(done["messages"]) == 8
    assert [c["args"] for c in values["governance_calls"]] == [{"order_id": "A2"}]
    assert [m.type for m in done["messages"]].count("human") == 2  # the pairs' ids are stable


@pytest.mark.parametrize("name", sorted(PATTERNS))
@pytest.mark.parametrize("first,then", [("0", "1"), ("1", "0")])
def test_a_thread_carries_on_across_the_switch(name, first, then, tmp_path, monkeypatch):
    """A thread kept before the default changed (plain channels) goes on with delta channels, and
    one kept with them goes on with the switch off: on SQLite, the state read back after the
    switch is the state the first run left, and the next run adds to it."""
    pattern = PATTERNS[name]
    db = str(tmp_path / "t.sqlite")
    config = {"configurable": {"thread_id": "t"}}
    monkeypatch.setenv(DELTA_CHANNELS_ENV, first)
    with open_checkpointer(db) as saver:
        before = pattern.build(checkpointer=saver).invoke(pattern.demo_input(), config)
    monkeypatch.setenv(DELTA_CHANNELS_ENV, then)
    with open_checkpointer(db) as saver:
        graph = pattern.build(checkpointer=saver)
        assert graph.get_state(config).values["messages"] == before["messages"]
        after = graph.invoke(pattern.demo_input(), config)
        assert graph.get_state(config).values["messages"] == after["messages"]
    assert after["messages"][: len(before["messages"])] == before["messages"]
    assert len(after["messages"]) > len(before["messages"])


@pytest.mark.parametrize("first,then", [("0", "1"), ("1", "0")])
def test_a_desk_thread_keeps_its_limits_across_the_switch(first, then, tmp_path, monkeypatch):
    """The support desk's agent follows the switch (``GovernanceDeltaState`` while it is on): a desk
    thread kept with one setting goes on with the other, its ledger included, so a full refund in
    the first turn still holds the same refund in the second above the order's total."""
    pytest.importorskip(
        "langchain.agents", reason="GovernanceMiddleware needs langchain>=1 (the agents extra)"
    )
    from demo_tools import support_desk as desk
    from graphs.support_desk import build_agent
    from nodes.scripted import ScriptedToolModel

    look = {"name": "look_up_order", "args": {"order_id": "ORD-1001"}}
    refund = {"name": "issue_refund", "args": {"order_id": "ORD-1001", "amount": 40.0}}
    turn = {"messages": [("user", "Refund order ORD-1001 in full.")], "governance_subject": desk.SUBJECT}
    config = {"configurable": {"thread_id": "desk"}}
    desk.DONE.clear()
    results = []
    for setting in (first, then):
        monkeypatch.setenv(DELTA_CHANNELS_ENV, setting)
        with open_checkpointer(str(tmp_path / "desk.sqlite")) as saver:
            agent = build_agent(model=ScriptedToolModel(replies=[look, refund, "Done."]), checkpointer=saver)
            delta = isinstance(agent.builder.channels["messages"], DeltaChannel)
            assert delta == (setting == "1")
            results.append(agent.invoke(turn, config))
            assert agent.get_state(config).values["messages"] == results[-1]["messages"]
    assert [r["reason"] for r in results[1]["governance_refusals"]] == ["supervisor_block:above_record_limit"]
    assert (
        len(desk.DONE) == 1
        and results[1]["messages"][: len(results[0]["messages"])] == results[0]["messages"]
    )


def test_a_threads_rows_are_read_back_without_walking_its_history(tmp_path, monkeypatch):
    """A run starts its rows over, so a delta channel of rows stores its (small) value whole where
    it changed (``ROWS_SNAPSHOT_FREQUENCY``): reading a thread finds each row list's value in one
    checkpoint, with no writes to replay. With LangGraph's default (a snapshot every 100 updates)
    every read walked back dozens of runs, which doubled a Supervisor turn's time on PostgreSQL."""
    monkeypatch.setenv(DELTA_CHANNELS_ENV, "1")
    pattern = PATTERNS["supervisor"]
    config = {"configurable": {"thread_id": "t"}}
    with open_checkpointer(str(tmp_path / "t.sqlite")) as saver:
        graph = pattern.build(checkpointer=saver)
        for _ in range(3):
            graph.invoke(pattern.demo_input(), config)
        latest = saver.get_tuple(config)
        assert latest is not None
        read = saver.get_delta_channel_history(
            config=latest.config, channels=["trace", "history", "messages"]
        )
    for key in ("trace", "history"):
        assert "seed" in read[key] and read[key]["writes"] == [], key
    assert read["messages"]["writes"]  # the conversation: replayed from its last snapshot


def _audited_on_and_off(run, tmp_path, monkeypatch, with_store):
    """``stored_audit`` of the thread ``run(saver, store, config)`` makes on SQLite, with the switch
    on and then off (each on a file of its own; ``store`` None without one)."""
    from apps.operations.audit import stored_audit
    from nodes.store import open_store

    audits = []
    for setting in ("1", "0"):
        monkeypatch.setenv(DELTA_CHANNELS_ENV, setting)
        db = str(tmp_path / f"{setting}.sqlite")
        with open_checkpointer(db) as saver, open_store(db) as store:
            run(saver, store if with_store else None, {"configurable": {"thread_id": "t"}})
            audits.append(stored_audit(saver, store if with_store else None, "t"))
    return audits


@pytest.mark.parametrize("with_store", [True, False])
def test_a_delta_thread_is_audited_from_its_checkpoints_alone_as_a_plain_one(
    tmp_path, monkeypatch, with_store
):
    """``agent-patterns audit`` reads a thread without its graph (``stored_audit``): a delta
    channel's value is a snapshot where it was stored whole and nothing where it was not, so the
    requests (from the conversation) and, without a store, the rows are rebuilt from the thread's
    writes; the audit reads the same with the switch on as with it off."""
    pattern = PATTERNS["supervisor"]

    def run(saver, store, config):
        graph = pattern.build(checkpointer=saver, store=store)
        for _ in range(2):
            graph.invoke(pattern.demo_input(), config)

    on, off = _audited_on_and_off(run, tmp_path, monkeypatch, with_store)
    assert [r.request for r in on.runs] == [r.request for r in off.runs] and on.runs[0].request
    assert [[row["phase"] for row in r.trace] for r in on.runs] == [
        [row["phase"] for row in r.trace] for r in off.runs
    ]

    def said(audit):
        return [[(c.get("tool"), c.get("args"), c.get("ok")) for c in run.calls] for run in audit.runs]

    assert said(on) == said(off) and said(on)[0]


@pytest.mark.parametrize("with_store", [True, False])
def test_a_delta_agent_thread_is_audited_from_its_checkpoints_alone_as_a_plain_one(
    tmp_path, monkeypatch, with_store
):
    """The same for a ``create_agent`` agent with ``GovernanceDeltaState`` (the desk, which follows
    the switch): the requests and each run's calls read back as with the plain state."""
    pytest.importorskip(
        "langchain.agents", reason="GovernanceMiddleware needs langchain>=1 (the agents extra)"
    )
    from demo_tools import support_desk as desk
    from graphs.support_desk import build_agent
    from nodes.scripted import ScriptedToolModel

    look = {"name": "look_up_order", "args": {"order_id": "ORD-1001"}}

    def run(saver, store, config):
        for text in ("Where is order ORD-1001?", "And now?"):
            model = ScriptedToolModel(replies=[look, "It is shipped."])
            agent = build_agent(model=model, checkpointer=saver, store=store)
            agent.invoke({"messages": [("user", text)], "governance_subject": desk.SUBJECT}, config)

    audits = dict(zip(("1", "0"), _audited_on_and_off(run, tmp_path, monkeypatch, with_store), strict=True))

    def said(audit):
        return [(run.request, [(c.get("tool"), c.get("args")) for c in run.calls]) for run in audit.runs]

    assert said(audits["1"]) == said(audits["0"])
    assert [request for request, _calls in said(audits["1"])] == ["Where is order ORD-1001?", "And now?"]
