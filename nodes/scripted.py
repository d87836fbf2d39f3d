"""A scripted chat model that answers in native tool calls: the worker of the docs' examples and
of the probe (:mod:`apps.probe.runner`), written as a list of replies. It reads nothing and obeys its
script, which is what an obedient model does with a planted instruction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

__all__ = ["AnswerModel", "ScriptedToolModel"]


def _message(reply: Any, turn: int) -> AIMessage:
    """A reply as the model's message: text (a final answer), or one call ``{"name", "args"}``."""
    if isinstance(reply, AIMessage):
        return reply
    if isinstance(reply, Mapping):
        call = {"name": str(reply["name"]), "args": dict(reply.get("args") or {}), "id": f"call_{turn}"}
        return AIMessage(content="", tool_calls=[{**call, "type": "tool_call"}])
    return AIMessage(content=str(reply))


def _result(reply: AIMessage | str) -> ChatResult:
    message = reply if isinstance(reply, AIMessage) else AIMessage(content=reply)
    return ChatResult(generations=[ChatGeneration(message=message)])


class AnswerModel(BaseChatModel):
    """A chat model written as one method: a subclass answers each call with ``answer(messages)``
    (an AIMessage, or its text), or with ``respond(messages, **options)`` where it reads the call's
    options (the tools bound), and names its kind in ``llm_type``. Under ``ainvoke`` it answers
    with ``await arespond(...)`` where a subclass writes one, else as under ``invoke``."""

    llm_type: ClassVar[str] = "answer-model"
    #: True: the model answers from memory and waits on nothing (a script, as the probe runs): a
    #: graph's call runs in the caller's thread, without the hand-off to a worker thread that
    #: enforces the policy's ``llm_timeout_seconds`` (there is nothing to give up on). Off by
    #: default, so that a test model that hangs is timed out like a real one.
    in_process: bool = False

    @property
    def _llm_type(self) -> str:
        return self.llm_type

    def answer(self, messages: list[BaseMessage]) -> AIMessage | str:
        """The reply to one call: a subclass writes this, or :meth:`respond` where it reads the
        call's options."""
        raise TypeError(f"{type(self).__name__} writes neither answer() nor respond(): it answers no call")

    def respond(self, messages: list[BaseMessage], **options: Any) -> AIMessage | str:
        """The reply to one call, given its options (``tools`` when tools are bound): the answer."""
        return self.answer(messages)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return _result(self.respond(messages, **kwargs))

    async def arespond(self, messages: list[BaseMessage], **options: Any) -> AIMessage | str | None:
        """The reply under ``ainvoke``; None (this default): :meth:`respond`'s, in a worker thread
        (LangChain's default for a model without a native async call)."""
        return None

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        reply = await self.arespond(messages, **kwargs)
        if reply is None:
            return await super()._agenerate(messages, stop, run_manager, **kwargs)
        return _result(reply)


class ScriptedToolModel(AnswerModel):
    """Answers each call with the next of ``replies`` (the last one once they are spent): a
    ``{"name", "args"}`` mapping is a tool call, anything else the final answer's text.
    ``bind_tools`` keeps the model as it is, so it runs behind ``create_agent`` and the Supervisor
    graph's native protocol alike."""

    llm_type = "scripted-tool-model"
    replies: list[Any] = Field(default_factory=list)
    turns: int = 0

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedToolModel:
        return self

    def answer(self, messages: list[BaseMessage]) -> AIMessage:
        self.turns += 1
        return _message(self.next_reply(messages), self.call_number(messages))

    def next_reply(self, messages: Sequence[BaseMessage]) -> Any:
        """What to answer: the next reply of the script (a subclass may read ``messages``)."""
        return self.replies[min(self.turns - 1, len(self.replies) - 1)] if self.replies else ""

    def call_number(self, messages: Sequence[BaseMessage]) -> int:
        """The number in the tool call's id (``call_<n>``): this model's turn."""
        return self.turns
