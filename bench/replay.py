"""A scripted model replaying each pattern's fixed demo trajectory.

The offline model answers each pattern's demo once while its replies are recorded, keyed by the
request's payload; the replay model then answers the same requests with those replies, doing no
work of its own (or waiting ``latency`` seconds: ``time.sleep`` under ``invoke``, ``asyncio.sleep``
under ``ainvoke``). A request it has not recorded gets an empty reply, so a run that strays from
the trajectory stops (``llm_empty``) and the benchmark reports it instead of timing it.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import Field

from graphs.registry import PATTERNS, Pattern
from nodes.offline import OfflineChatModel
from nodes.scripted import AnswerModel
from policies.base import BasePolicy


def request_key(messages: Sequence[BaseMessage]) -> str:
    """A request as the book keys it: every message's role, text and tool calls (names and
    arguments; call ids left out, which a replayed run may number differently)."""
    said = [
        [m.type, m.text, [[c["name"], c["args"]] for c in getattr(m, "tool_calls", None) or []]]
        for m in messages
    ]
    return json.dumps(said, sort_keys=True, default=str)


class RecordingModel(OfflineChatModel):
    """The offline model, keeping each reply it gives (text, tool calls, usage) under the request."""

    book: dict[str, AIMessage] = Field(default_factory=dict)

    def respond(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        message = super().respond(messages, **kwargs)
        self.book[request_key(messages)] = message.model_copy(update={"id": None})
        return message


class ReplayChatModel(AnswerModel):
    """Answers a recorded request with its recorded reply; ``latency`` seconds per call. It calls
    tools as the offline model it replays does (``bind_tools``: the replies carry the calls)."""

    llm_type = "replay"
    book: dict[str, AIMessage]
    latency: float = 0.0

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ReplayChatModel:
        return self

    def _recorded(self, messages: list[BaseMessage]) -> AIMessage:
        return self.book.get(request_key(messages), AIMessage(content="")).model_copy()

    def answer(self, messages: list[BaseMessage]) -> AIMessage:
        if self.latency:
            time.sleep(self.latency)
        return self._recorded(messages)

    async def arespond(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        if self.latency:
            await asyncio.sleep(self.latency)
        return self._recorded(messages)


def bench_policy(pattern: Pattern) -> BasePolicy:
    """The policy the CLI runs the demo with (the supervisor's automatic approver answers)."""
    policy = pattern.policy()
    return pattern.cli_policy(policy, False) if pattern.cli_policy else policy


@dataclass(frozen=True)
class Trajectory:
    """One pattern's demo run, recorded: the replies, what the run ended with, and the state each
    LLM node was called with (for the bare-graph variant)."""

    pattern: str
    book: dict[str, AIMessage]
    llm_calls: int
    #: checkpoints one run writes when every step is kept (its input, then one per superstep)
    checkpoints: int
    stop_reason: str
    outcome: str
    llm_inputs: list[tuple[str, dict[str, Any]]]

    def model(self, latency: float = 0.0) -> ReplayChatModel:
        return ReplayChatModel(book=self.book, latency=latency)

    def check(self, result: dict[str, Any]) -> bool:
        """True when a run ended as the recorded one did."""
        return (result.get("stop_reason"), result.get("outcome")) == (self.stop_reason, self.outcome)


def llm_node_names(graph: Any) -> set[str]:
    return {name for name, spec in graph.builder.nodes.items() if hasattr(spec.runnable, "llm_steps")}


def record(name: str) -> Trajectory:
    """Run pattern ``name``'s demo with the offline model and record its trajectory."""
    pattern = PATTERNS[name]
    recorder = RecordingModel()
    graph = pattern.build(llm=recorder, policy=bench_policy(pattern), checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": str(uuid.uuid4())}}
    result = graph.invoke(pattern.demo_input(), config)
    if result.get("status") != "ok":
        raise RuntimeError(f"{name}: the demo run did not succeed: {result.get('stop_reason')}")
    llm_nodes = llm_node_names(graph)
    history = list(reversed(list(graph.get_state_history(config))))
    inputs = []
    for snapshot in history:
        for node in snapshot.next:
            if node in llm_nodes:
                values = {k: v for k, v in snapshot.values.items() if k != "started_at"}
                inputs.append((node, values))
    return Trajectory(
        pattern=name,
        book=dict(recorder.book),
        llm_calls=int(result["usage"]["llm_calls"]),
        checkpoints=len(history),
        stop_reason=result["stop_reason"],
        outcome=result.get("outcome", ""),
        llm_inputs=inputs,
    )
