"""A deterministic offline chat model: a real ``BaseChatModel`` that reads the JSON payload it is
given and writes a plausible, valid reply for the node's role. No network, same input → same reply.

Each pattern contributes its role handlers (``role name -> handler(payload) -> reply dict``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from nodes.offline import rag, reflection, research, supervisor, task_decomposition

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


class OfflineChatModel(BaseChatModel):
    """Answers each node's role from its payload's ``role`` key, deterministically."""

    model_name: str = "deterministic-v1"

    @property
    def _llm_type(self) -> str:
        return "offline-deterministic"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        payload = payload_of(messages)
        handler = ROLES.get(str(payload.get("role")))
        reply = handler(payload) if handler else {"error": f"no offline role {payload.get('role')!r}"}
        text = json.dumps(reply, ensure_ascii=False)
        prompt_chars = sum(len(m.text) for m in messages)
        usage = {
            "input_tokens": approx_tokens("x" * prompt_chars),
            "output_tokens": approx_tokens(text),
        }
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        message = AIMessage(
            content=text,
            usage_metadata=usage,
            response_metadata={"model_name": self.model_name, "model_provider": "offline"},
        )
        return ChatResult(generations=[ChatGeneration(message=message)])
