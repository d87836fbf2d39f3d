"""The chat-model factory: a real model when configured, the offline model otherwise."""

from __future__ import annotations

import os
from collections.abc import Mapping

from langchain_core.language_models import BaseChatModel

from nodes.offline import OfflineChatModel

DEFAULT_OPENAI_MODEL = "gpt-4.1-mini"


class ModelConfigError(ValueError):
    """The environment asks for a model it does not describe correctly."""


def _float_env(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ModelConfigError(f"{name} must be a number of seconds, got {raw!r}") from None
    if value <= 0:
        raise ModelConfigError(f"{name} must be positive, got {raw!r}")
    return value


def get_chat_model(env: Mapping[str, str] | None = None) -> BaseChatModel:
    """``ChatOpenAI`` when ``OPENAI_API_KEY`` is set (``OPENAI_MODEL``, ``OPENAI_TIMEOUT_SECONDS``,
    ``OPENAI_BASE_URL``), else the deterministic offline model.

    The client never retries by itself (``max_retries=0``): the JSON seam retries transient failures
    per the run's policy, within its time budget, so retries are never stacked."""
    env = os.environ if env is None else env
    if not env.get("OPENAI_API_KEY"):
        return OfflineChatModel()
    return openai_chat_model(env, json_replies=True, max_retries=0)


def openai_chat_model(env: Mapping[str, str], *, json_replies: bool, max_retries: int) -> BaseChatModel:
    """``ChatOpenAI`` as ``env`` configures it (``OPENAI_API_KEY``, ``OPENAI_MODEL``,
    ``OPENAI_BASE_URL``, ``OPENAI_TIMEOUT_SECONDS``), at temperature 0; ``json_replies``: it must
    answer a JSON object (the patterns' LLM nodes), else it chats and calls tools (an agent)."""
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=env.get("OPENAI_MODEL") or DEFAULT_OPENAI_MODEL,
        api_key=env["OPENAI_API_KEY"],
        base_url=env.get("OPENAI_BASE_URL") or None,
        timeout=_float_env(env, "OPENAI_TIMEOUT_SECONDS", 60.0),
        temperature=0,
        max_retries=max_retries,
        model_kwargs={"response_format": {"type": "json_object"}} if json_replies else {},
    )


def model_label(llm: BaseChatModel) -> str:
    """A short name for the result: which model produced this run."""
    if isinstance(llm, OfflineChatModel):
        return f"offline:{llm.model_name}"
    name = getattr(llm, "model_name", None) or getattr(llm, "model", None)
    kind = "openai" if type(llm).__name__ == "ChatOpenAI" else type(llm).__name__
    return f"{kind}:{name}" if name else kind


def pricing_name(llm: BaseChatModel) -> str:
    """The name a model is priced by in a policy's price table: the model's own name
    (``gpt-4.1-mini``), or ``offline:deterministic-v1`` for the offline model."""
    if isinstance(llm, OfflineChatModel):
        return model_label(llm)
    name = getattr(llm, "model_name", None) or getattr(llm, "model", None)
    return str(name) if name else type(llm).__name__
