"""Native tool calling: whether a model binds tools, the model to bind them to, and its reply read
(the model's ``AIMessage``: its tool calls, or its text as the final answer)."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage

from nodes.llm_reply import LLMReply, usage_of
from policies.json_safety import json_problem


def supports_tool_calling(llm: Any) -> bool:
    """Does ``llm`` implement ``bind_tools``? (``BaseChatModel.bind_tools`` only raises
    ``NotImplementedError``; ``FakeListChatModel`` and other plain models keep it.)"""
    own = getattr(type(llm), "bind_tools", None)
    return callable(own) and own is not BaseChatModel.bind_tools


def tool_model(llm: BaseChatModel) -> BaseChatModel:
    """``llm`` for tool calling: without a JSON ``response_format`` its ``model_kwargs`` set for
    the JSON protocol (:func:`nodes.model.get_chat_model` sets one), which would force the final
    answer into JSON."""
    kwargs = getattr(llm, "model_kwargs", None)
    if not isinstance(kwargs, dict) or "response_format" not in kwargs:
        return llm
    rest = {k: v for k, v in kwargs.items() if k != "response_format"}
    return llm.model_copy(update={"model_kwargs": rest})


def parse_tool_reply(message: Any) -> LLMReply:
    """A tool-calling reply: ``data`` is the model's ``AIMessage`` (its ``tool_calls``, or its text
    as the final answer). No tool call and no text → ``llm_empty``; text a run cannot keep (a lone
    surrogate...) → ``llm_invalid_json``, as for a JSON reply."""
    usage = usage_of(message if isinstance(message, BaseMessage) else None)
    if not isinstance(message, AIMessage):
        text = message.text if isinstance(message, BaseMessage) else str(message or "")
        message = AIMessage(content=text)
    raw = str(message.text)
    problem = json_problem(raw)
    if problem is not None:
        return LLMReply(raw="", stop_reason="llm_invalid_json", detail=problem, usage=usage)
    if not (message.tool_calls or message.invalid_tool_calls or raw.strip()):
        return LLMReply(raw=raw, stop_reason="llm_empty", usage=usage)
    return LLMReply(data=message, raw=raw, usage=usage)
