"""A scripted chat model that answers in native tool calls: the worker of the docs' examples and
of the probe (:mod:`apps.probe.runner`), written as a list of replies. It reads nothing and obeys its
script, which is what an obedient model does with a planted instruction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

__all__ = ["ScriptedToolModel"]


def _message(reply: Any, turn: int) -> AIMessage:
    """A reply as the model's message: text (a final answer), or one call ``{"name", "args"}``."""
    if isinstance(reply, AIMessage):
        return reply
    if isinstance(reply, Mapping):
        call = {"name": str(reply["name"]), "args": dict(reply.get("args") or {}), "id": f"call_{turn}"}
        return AIMessage(content="", tool_calls=[{**call, "type": "tool_call"}])
    return AIMessage(content=str(reply))


class ScriptedToolModel(BaseChatModel):
    """Answers each call with the next of ``replies`` (the last one once they are spent): a
    ``{"name", "args"}`` mapping is a tool call, anything else the final answer's text.
    ``bind_tools`` keeps the model as it is, so it runs behind ``create_agent`` and the Supervisor
    graph's native protocol alike."""

    replies: list[Any] = Field(default_factory=list)
    turns: int = 0

    @property
    def _llm_type(self) -> str:
        return "scripted-tool-model"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedToolModel:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.turns += 1
        message = _message(self.next_reply(messages), self.call_number(messages))
        return ChatResult(generations=[ChatGeneration(message=message)])

    def next_reply(self, messages: Sequence[BaseMessage]) -> Any:
        """What to answer: the next reply of the script (a subclass may read ``messages``)."""
        return self.replies[min(self.turns - 1, len(self.replies) - 1)] if self.replies else ""

    def call_number(self, messages: Sequence[BaseMessage]) -> int:
        """The number in the tool call's id (``call_<n>``): this model's turn."""
        return self.turns
