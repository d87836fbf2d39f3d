"""A user's ``create_agent`` agent behind :class:`~nodes.middleware.GovernanceMiddleware`, for the
middleware tests: a scripted chat model that answers with native tool calls, and a worker that
reads the conversation the way the own-agent suite's obedient worker reads the Supervisor's
payload (``tests/own_agent/worker.py``), obeying every instruction planted in a tool's result."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import Field

from nodes.middleware import GovernanceMiddleware
from tests.helpers import ToolStubChatModel
from tests.own_agent.worker import OBEY, next_action

Reply = str | dict[str, Any] | list[dict[str, Any]] | AIMessage


def as_message(reply: Reply, turn: int) -> AIMessage:
    """A scripted reply as the model's message: text (a final answer), one action
    ``{"name", "args"}`` or a list of them (tool calls, with ids), or an AIMessage as it is."""
    if isinstance(reply, AIMessage):
        return reply
    if isinstance(reply, str):
        return AIMessage(content=reply)
    actions = reply if isinstance(reply, list) else [reply]
    calls = [
        {"name": a["name"], "args": a["args"], "id": f"call_{turn}_{i}", "type": "tool_call"}
        for i, a in enumerate(actions)
    ]
    return AIMessage(content="", tool_calls=calls)


class ToolCallingModel(ToolStubChatModel):
    """Answers each call with ``reply(messages)``, or with the next of ``replies`` (the last one
    repeated once they are spent). ``bind_tools`` keeps the model as it is."""

    llm_type = "tool-calling-test-model"
    replies: list[Any] = Field(default_factory=list)
    reply: Any = None
    turns: int = 0

    def answer(self, messages: list[BaseMessage]) -> AIMessage:
        self.turns += 1
        if self.reply is not None:
            out = self.reply(messages)
        else:
            out = self.replies[min(self.turns - 1, len(self.replies) - 1)]
        return as_message(out, self.turns)


def observation(message: ToolMessage) -> Any:
    try:
        return json.loads(str(message.content))
    except ValueError:
        return message.content


def history(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    """The conversation's tool calls as the obedient worker reads its history: each call the
    model made, with what came back for it (a result, a refusal)."""
    results = {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}
    rows = []
    for message in messages:
        for call in message.tool_calls if isinstance(message, AIMessage) else ():
            answer = results.get(call["id"])
            rows.append(
                {"tool": call["name"], "args": call["args"], "observation": answer and observation(answer)}
            )
    return rows


def obedient_model(
    plan: list[dict[str, Any]], final: str, obey: dict[str, Any] | None = None
) -> ToolCallingModel:
    """The own-agent suite's obedient worker, speaking native tool calls: the plan's next call
    not yet tried, or a planted instruction it read; the final answer once the plan is done."""

    def reply(messages: list[BaseMessage]) -> Reply:
        action = next_action({"history": history(messages)}, plan, final, OBEY if obey is None else obey)
        if action["kind"] == "final":
            return str(action["answer"])
        return {"name": action["name"], "args": action["args"]}

    return ToolCallingModel(reply=reply)


def governed_agent(model: BaseChatModel, tools: list[Any], policy: Any, **middleware: Any) -> Any:
    """``create_agent`` with the user's tools and the governance middleware, checkpointed."""
    governance = GovernanceMiddleware(policy, tools=tools, **middleware)
    return create_agent(model, tools, middleware=[governance], checkpointer=InMemorySaver())


def finished(values: dict[str, Any]) -> bool:
    """Did the run end with the model's own final answer (no named stop)?"""
    last = (values.get("messages") or [None])[-1]
    return (
        values.get("governance_stop_reason") is None and isinstance(last, AIMessage) and not last.tool_calls
    )


def drive(
    agent: Any, values: dict[str, Any], config: dict[str, Any], human: Callable[[dict], Any]
) -> tuple[dict, list]:
    """Answer every interrupt with ``human(request)`` until the run ends; the requests asked."""
    from langgraph.types import Command

    asked = []
    while "__interrupt__" in values:
        request = values["__interrupt__"][0].value
        asked.append(request)
        values = agent.invoke(Command(resume=human(request)), config)
    return values, asked
