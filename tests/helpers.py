"""Scripted chat models for graph tests (no network)."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult


def as_text(reply: Any) -> str:
    return reply if isinstance(reply, str) else json.dumps(reply)


def scripted(*replies: Any, sleep: float | None = None) -> FakeListChatModel:
    """A model that answers with ``replies`` in order (dicts/lists are sent as JSON text)."""
    return FakeListChatModel(responses=[as_text(r) for r in replies], sleep=sleep)


class RaisingModel(BaseChatModel):
    """Answers with ``replies`` in order; an exception instance in the list is raised instead."""

    replies: list[Any]
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "raising-test-model"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        reply = self.replies[min(self.calls, len(self.replies) - 1)]
        self.calls += 1
        if isinstance(reply, BaseException):
            raise reply
        if isinstance(reply, tuple):  # (seconds to sleep, reply)
            time.sleep(reply[0])
            reply = reply[1]
        if callable(reply):  # computed when called (e.g. to move a fake clock)
            reply = reply()
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=as_text(reply)))])


def thread() -> dict[str, Any]:
    return {"configurable": {"thread_id": str(uuid.uuid4())}}


class FakeClock:
    """Moves ``nodes.clock.now`` forward on demand: install with ``monkeypatch``."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds

    def after(self, seconds: float, reply: Any) -> Any:
        """A reply that moves the clock forward when the model produces it."""

        def produce() -> Any:
            self.advance(seconds)
            return reply

        return produce


def gateway_rows(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The trace without successful LLM calls' rows (``call: llm``): one row per gateway phase or
    tool, and the row the run stopped on (a failed call's row included)."""
    return [row for row in trace if row.get("call") != "llm" or not row["ok"]]


def llm_rows(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The trace rows of LLM calls: phase, attempts, input/output tokens, cost."""
    return [row for row in trace if row.get("call") == "llm"]
