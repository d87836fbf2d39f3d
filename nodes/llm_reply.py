"""What one model call returns (:class:`LLMReply`): a JSON reply parsed and checked, what the call
consumed and what it cost."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ValidationError

from policies.json_safety import json_problem
from policies.llm_calls import ModelPrice, call_cost

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


@dataclass(frozen=True)
class LLMReply:
    """What a JSON call produced: ``data`` when ``stop_reason`` is None.

    ``usage`` is what the call consumed (with its ``cost_usd``), ``attempts`` how many requests
    it took (0: not made, e.g. stopped by a budget), ``details`` why a budget stopped it."""

    data: Any = None
    raw: str = ""
    stop_reason: str | None = None
    detail: str = ""
    usage: dict[str, Any] = field(default_factory=dict)
    attempts: int = 0
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.stop_reason is None

    @property
    def figures(self) -> dict[str, Any]:
        """The call's figures for its trace row."""
        return {
            "call": "llm",
            "attempts": self.attempts,
            "input_tokens": int(self.usage.get("input_tokens", 0)),
            "output_tokens": int(self.usage.get("output_tokens", 0)),
            "cost_usd": float(self.usage.get("cost_usd", 0.0)),
        }


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-standard JSON constant {name}")


def parse_json_text(text: str) -> Any:
    """Strict JSON (no NaN/Infinity), tolerating one surrounding Markdown code fence. What it
    returns may still be unfit to keep: see :func:`policies.json_safety.json_problem`."""
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    return json.loads(text, parse_constant=_reject_constant)


def usage_of(message: BaseMessage | None) -> dict[str, int]:
    meta = getattr(message, "usage_metadata", None) or {}
    input_tokens = int(meta.get("input_tokens", 0) or 0)
    output_tokens = int(meta.get("output_tokens", 0) or 0)
    return {
        "llm_calls": 1,
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "total_tokens": int(meta.get("total_tokens", 0) or 0) or input_tokens + output_tokens,
    }


def priced(usage: Mapping[str, Any], price: ModelPrice | None) -> dict[str, Any]:
    """``usage`` with the call's ``cost_usd``; an unknown price counts in ``unpriced_calls``."""
    if not usage:
        return {}
    cost = call_cost(price, int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0)))
    return {**usage, "cost_usd": cost, "unpriced_calls": int(price is None)}


def parse_reply(
    message: Any, *, contract: type[BaseModel] | None = None, expect_object: bool = True
) -> LLMReply:
    usage = usage_of(message if isinstance(message, BaseMessage) else None)
    raw = message.text if isinstance(message, BaseMessage) else str(message or "")
    if not raw.strip():
        return LLMReply(raw=raw, stop_reason="llm_empty", usage=usage)
    try:
        data = parse_json_text(raw)
    except (ValueError, RecursionError) as exc:
        return LLMReply(raw=raw, stop_reason="llm_invalid_json", detail=str(exc)[:200], usage=usage)
    problem = json_problem(data)
    if problem is not None:  # valid JSON the run could not store or print: refused like NaN
        return LLMReply(raw=raw[:2000], stop_reason="llm_invalid_json", detail=problem, usage=usage)
    if expect_object and not isinstance(data, dict):
        return LLMReply(raw=raw, stop_reason="llm_invalid_json", detail="not a JSON object", usage=usage)
    if contract is not None:
        try:
            data = contract.model_validate(data).model_dump()
        except ValidationError as exc:
            detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            return LLMReply(raw=raw, stop_reason="llm_invalid_schema", detail=detail[:300], usage=usage)
    return LLMReply(data=data, raw=raw, usage=usage)
