"""A deterministic offline chat model: a real ``BaseChatModel`` that reads the JSON payload it is
given and writes a plausible, valid reply for the node's role. No network, same input → same reply.

It calls tools too (``bind_tools``): with tools bound it reads the Supervisor's tool-calling
conversation (:func:`nodes.offline.supervisor.native_payload`) and answers with
``AIMessage.tool_calls`` (or the final answer as text), so both worker protocols run offline.

Each pattern contributes its role handlers (``role name -> handler(payload) -> reply dict``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool

from nodes.offline import rag, reflection, research, supervisor, task_decomposition
from nodes.scripted import AnswerModel

Handler = Callable[[dict[str, Any]], dict[str, Any]]

ROLES: dict[str, Handler] = {
    **reflection.ROLES,
    **research.ROLES,
    **rag.ROLES,
    **supervisor.ROLES,
    **task_decomposition.ROLES,
}


def approx_tokens(text: str) -> int:
    """About four characters a token, as a real tokenizer averages on English prose."""
    return max(1, math.ceil(len(text) / 4)) if text else 0


def payload_of(messages: list[BaseMessage]) -> dict[str, Any]:
    """The JSON payload an LLM node sent (its last human message), or {}."""
    for message in reversed(messages):
        if message.type == "human":
            try:
                payload = json.loads(message.text)
            except ValueError:
                return {}
            return payload if isinstance(payload, dict) else {}
    return {}


class OfflineChatModel(AnswerModel):
    """Answers each node's role from its payload's ``role`` key, deterministically."""

    llm_type = "offline-deterministic"
    model_name: str = "deterministic-v1"

    def bind_tools(
        self, tools: Sequence[Any], *, tool_choice: str | None = None, **kwargs: Any
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """The model with ``tools`` bound: it answers with tool calls (``tool_choice`` is ignored)."""
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def respond(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        native = kwargs.get("tools") is not None
        payload = supervisor.native_payload(messages) if native else payload_of(messages)
        handler = ROLES.get(str(payload.get("role")))
        reply = handler(payload) if handler else {"error": f"no offline role {payload.get('role')!r}"}
        message = supervisor.tool_call_message(reply, messages) if native else None
        text = json.dumps(reply, ensure_ascii=False)
        prompt_chars = sum(len(m.text) for m in messages)
        prompt_chars += len(json.dumps(kwargs["tools"])) if native else 0
        usage = {
            "input_tokens": approx_tokens("x" * prompt_chars),
            "output_tokens": approx_tokens(text),
        }
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        meta = {"model_name": self.model_name, "model_provider": "offline"}
        if message is None:
            return AIMessage(content=text, usage_metadata=usage, response_metadata=meta)
        return message.model_copy(update={"usage_metadata": usage, "response_metadata": meta})
