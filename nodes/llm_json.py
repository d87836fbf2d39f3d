"""One JSON LLM call: system prompt + JSON payload in, one validated JSON object out.

Every failure maps to a named stop reason; nothing raises out of :func:`call_json` (or its asyncio
twin :func:`acall_json`).

An LLM node is written once, as a generator that ``yield``s an :class:`LLMCall` and receives the
:class:`LLMReply`; :func:`llm_node` makes it a graph node that runs the call synchronously under
``invoke``/``stream`` and awaits the model under ``ainvoke``/``astream`` (no thread held while the
model thinks, so thousands of runs can wait on their models at once).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import math
import re
import threading
from collections.abc import Awaitable, Callable, Generator, Mapping
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph._internal._runnable import RunnableCallable
from langgraph.runtime import Runtime
from pydantic import BaseModel, ValidationError

from nodes.clock import remaining_seconds
from policies.base import BasePolicy

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
    """Strict JSON (no NaN/Infinity), tolerating one surrounding Markdown code fence."""
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


@dataclass(frozen=True)
class LLMCall:
    """What an LLM node asks the seam for: the arguments of :func:`call_json`."""

    llm: BaseChatModel
    _: KW_ONLY
    system: str
    payload: Mapping[str, Any]
    state: Mapping[str, Any]
    policy: BasePolicy
    contract: type[BaseModel] | None = None
    expect_object: bool = True


@dataclass(frozen=True)
class _Attempt:
    """One request to the model, to be answered within ``limit`` seconds."""

    llm: BaseChatModel
    messages: list[BaseMessage]
    limit: float


#: A generator that yields requests, is sent their answers (or thrown their errors) and returns.
Steps = Generator[Any, Any, Any]


def drive(steps: Steps, perform: Callable[[Any], Any]) -> Any:
    """Run ``steps`` to its return value, answering each request it yields with ``perform``."""
    try:
        request = next(steps)
        while True:
            try:
                answer = perform(request)
            except Exception as exc:
                request = steps.throw(exc)
            else:
                request = steps.send(answer)
    except StopIteration as done:
        return done.value


async def adrive(steps: Steps, perform: Callable[[Any], Awaitable[Any]]) -> Any:
    """:func:`drive` for asyncio: each request is answered by awaiting ``perform``."""
    try:
        request = next(steps)
        while True:
            try:
                answer = await perform(request)
            except Exception as exc:
                request = steps.throw(exc)
            else:
                request = steps.send(answer)
    except StopIteration as done:
        return done.value


def _json_call(call: LLMCall) -> Generator[_Attempt, Any, LLMReply]:
    """The seam's logic, whether the model is called synchronously or awaited: the time left, one
    attempt, its failure mapped to a stop reason, its reply parsed."""
    left = remaining_seconds(call.state, call.policy)
    if left <= 0:
        return LLMReply(stop_reason="max_seconds")
    limit = min(call.policy.llm_timeout_seconds, left)
    messages: list[BaseMessage] = [
        SystemMessage(content=call.system),
        HumanMessage(content=json.dumps(dict(call.payload), ensure_ascii=False, default=str)),
    ]
    try:
        message = yield _Attempt(call.llm, messages, limit)
    except _NoAnswerInTime:
        reason = "max_seconds" if left <= call.policy.llm_timeout_seconds else "llm_timeout"
        return LLMReply(stop_reason=reason, detail=f"no answer within {limit:.3f}s")
    except Exception as exc:
        return LLMReply(stop_reason=classify_llm_error(exc), detail=f"{type(exc).__name__}: {exc}")
    return parse_reply(message, contract=call.contract, expect_object=call.expect_object)


#: Most model calls waiting at once under the sync API. A worker thread is made only when none is
#: idle, so a call that never returns holds its thread without stopping the others (until this
#: many are stuck: later calls then wait their timeout out and stop with ``llm_timeout``).
MAX_CALL_THREADS = 1024
_call_threads: ThreadPoolExecutor | None = None
_call_threads_lock = threading.Lock()


def _threads() -> ThreadPoolExecutor:
    global _call_threads
    with _call_threads_lock:
        if _call_threads is None:
            _call_threads = ThreadPoolExecutor(MAX_CALL_THREADS, thread_name_prefix="llm-call")
        return _call_threads


def _invoke_with_timeout(attempt: _Attempt) -> Any:
    """Invoke in a worker thread (keeping the caller's context, so callbacks and streaming work)
    and give up after ``limit`` seconds. A model that never returns cannot hold the run. The
    threads are reused: making one per call cost about half a millisecond a call."""
    ctx = contextvars.copy_context()
    future = _threads().submit(ctx.run, attempt.llm.invoke, attempt.messages)
    done, _ = wait([future], timeout=attempt.limit)
    if not done:
        future.cancel()  # still queued: never runs; already running: left to finish on its own
        raise _NoAnswerInTime
    return future.result()  # re-raises what the model raised


async def _ainvoke_with_timeout(attempt: _Attempt) -> Any:
    """Await the model's ``ainvoke`` for at most ``limit`` seconds (cancelled after that); a
    ``TimeoutError`` the model raises itself stays the model's."""
    scope = asyncio.timeout(attempt.limit)
    try:
        async with scope:
            return await attempt.llm.ainvoke(attempt.messages)
    except TimeoutError:
        if scope.expired():
            raise _NoAnswerInTime from None
        raise


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
    call = LLMCall(
        llm,
        system=system,
        payload=payload,
        state=state,
        policy=policy,
        contract=contract,
        expect_object=expect_object,
    )
    return _call_sync(call)


async def acall_json(llm: BaseChatModel, **arguments: Any) -> LLMReply:
    """:func:`call_json` for asyncio (the same arguments): awaits the model's ``ainvoke``, with the
    same timeout, budget and stop reasons."""
    return await _call_async(LLMCall(llm, **arguments))


def _call_sync(call: LLMCall) -> LLMReply:
    return drive(_json_call(call), _invoke_with_timeout)


async def _call_async(call: LLMCall) -> LLMReply:
    return await adrive(_json_call(call), _ainvoke_with_timeout)


#: An LLM node: a generator that yields one :class:`LLMCall` per model call and returns its update.
LLMSteps = Generator[LLMCall, LLMReply, dict[str, Any]]


def llm_node(steps: Callable[[Mapping[str, Any], Runtime[Any]], LLMSteps]) -> RunnableCallable:
    """A graph node from an LLM node written as a generator (``reply = yield LLMCall(...)``).

    Under ``invoke``/``stream`` the call runs through :func:`call_json` (a worker thread with a
    timeout); under ``ainvoke``/``astream`` it awaits the model through :func:`acall_json`, so a
    run waiting on its model holds no thread (LangGraph would otherwise run the node in the event
    loop's default executor, a handful of threads for all concurrent runs).
    """

    def run(state: Mapping[str, Any], runtime: Runtime[Any]) -> dict[str, Any]:
        return drive(steps(state, runtime), _call_sync)

    async def arun(state: Mapping[str, Any], runtime: Runtime[Any]) -> dict[str, Any]:
        return await adrive(steps(state, runtime), _call_async)

    node = RunnableCallable(run, arun, trace=False)
    node.llm_steps = steps  # type: ignore[attr-defined]  # what the node runs, for introspection
    return node


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
