"""One JSON LLM call: system prompt + JSON payload in, one validated JSON object out.

Every failure maps to a named stop reason; nothing raises out of :func:`call_json`.
"""

from __future__ import annotations

import contextvars
import json
import math
import re
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ValidationError

from nodes.clock import remaining_seconds
from policies.base import BasePolicy
from policies.json_safety import json_problem

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


@dataclass(frozen=True)
class LLMReply:
    """What a JSON call produced: ``data`` when ``stop_reason`` is None."""

    data: Any = None
    raw: str = ""
    stop_reason: str | None = None
    detail: str = ""
    usage: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.stop_reason is None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-standard JSON constant {name}")


def parse_json_text(text: str) -> Any:
    """Strict JSON (no NaN/Infinity), tolerating one surrounding Markdown code fence. What it
    returns may still be unfit to keep: see :func:`policies.json_safety.json_problem`."""
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    return json.loads(text, parse_constant=_reject_constant)


def classify_llm_error(exc: BaseException) -> str:
    """Map a model client's exception to a stop reason."""
    name = type(exc).__name__
    lowered = name.lower()
    if isinstance(exc, TimeoutError) or "timeout" in lowered or "connection" in lowered:
        return "llm_timeout"
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        if status == 429:
            return "llm_error:rate_limited"
        if status in (401, 403):
            return "llm_error:auth"
        if status >= 500:
            return "llm_error:server"
        return "llm_error:bad_request"
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
    return f"llm_error:{snake}"


def usage_of(message: BaseMessage | None) -> dict[str, int]:
    meta = getattr(message, "usage_metadata", None) or {}
    return {
        "llm_calls": 1,
        "input_tokens": int(meta.get("input_tokens", 0) or 0),
        "output_tokens": int(meta.get("output_tokens", 0) or 0),
        "total_tokens": int(meta.get("total_tokens", 0) or 0),
    }


class _NoAnswerInTime(Exception):
    pass


def _invoke_with_timeout(llm: BaseChatModel, messages: list[BaseMessage], limit: float) -> Any:
    """Invoke in a worker thread (keeping the caller's context, so callbacks and streaming work)
    and give up after ``limit`` seconds. A model that never returns cannot hold the run."""
    ctx = contextvars.copy_context()
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="llm-call")
    try:
        future = pool.submit(ctx.run, llm.invoke, messages)
        done, _ = wait([future], timeout=limit)
        if not done:
            raise _NoAnswerInTime
        return future.result()  # re-raises what the model raised
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def call_json(
    llm: BaseChatModel,
    *,
    system: str,
    payload: Mapping[str, Any],
    state: Mapping[str, Any],
    policy: BasePolicy,
    contract: type[BaseModel] | None = None,
    expect_object: bool = True,
) -> LLMReply:
    """Call ``llm`` and return its reply parsed (and validated against ``contract``).

    The call's timeout is the policy's ``llm_timeout_seconds`` but never more than what is left of
    ``max_seconds``; when the run's budget is what cut the call short the reason is
    ``max_seconds``, otherwise ``llm_timeout``.
    """
    left = remaining_seconds(state, policy)
    if left <= 0:
        return LLMReply(stop_reason="max_seconds")
    limit = min(policy.llm_timeout_seconds, left)
    messages = [
        SystemMessage(content=system),
        HumanMessage(content=json.dumps(dict(payload), ensure_ascii=False, default=str)),
    ]
    try:
        message = _invoke_with_timeout(llm, messages, limit)
    except _NoAnswerInTime:
        reason = "max_seconds" if left <= policy.llm_timeout_seconds else "llm_timeout"
        return LLMReply(stop_reason=reason, detail=f"no answer within {limit:.3f}s")
    except Exception as exc:
        return LLMReply(stop_reason=classify_llm_error(exc), detail=f"{type(exc).__name__}: {exc}")
    return parse_reply(message, contract=contract, expect_object=expect_object)


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


def finite(value: Any) -> bool:
    """True for a real, finite number (booleans are not numbers)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
