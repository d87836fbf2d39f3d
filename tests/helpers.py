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
from pydantic import Field

from nodes.offline import OfflineChatModel, payload_of


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


class RoleModel(BaseChatModel):
    """Answers by the payload's ``role``: the next scripted reply for that role, and once the
    role's script is spent, what the offline model answers (``fallback="offline"``) or the last
    scripted reply again (``fallback="repeat"``).

    A scripted reply is text (sent as is), a dict/list (sent as JSON), an exception (raised), a
    callable taking the payload and returning one of these (computed when called), or None (the
    offline model answers this call; a callable may return None too).
    """

    script: dict[str, list[Any]] = Field(default_factory=dict)
    fallback: str = "offline"
    calls: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "role-scripted-test-model"

    def load(self, script: dict[str, list[Any]]) -> RoleModel:
        """Start over with ``script`` (the graph keeps this model; examples swap its script)."""
        self.script = {role: list(replies) for role, replies in script.items()}
        self.calls = []
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        payload = payload_of(messages)
        role = str(payload.get("role"))
        done = self.calls.count(role)
        self.calls.append(role)
        replies = self.script.get(role) or []
        reply = None
        if done < len(replies) or (replies and self.fallback == "repeat"):
            reply = replies[min(done, len(replies) - 1)]
        if callable(reply) and not isinstance(reply, BaseException):
            reply = reply(payload)
        if reply is None:
            return OfflineChatModel()._generate(messages)
        if isinstance(reply, BaseException):
            raise reply
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
