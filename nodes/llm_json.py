"""One JSON LLM call: system prompt + JSON payload in, one validated JSON object out.

The one seam every LLM node of every pattern goes through: it checks the run's token and cost
budgets before the call, bounds each attempt by the time budget, retries transient failures with
bounded backoff, and prices what the call consumed. Every failure maps to a named stop reason;
nothing raises out of :func:`call_json` (or its asyncio twin :func:`acall_json`).

That logic is written once, as a generator (:func:`_json_call`) that yields what it needs done (an
attempt at the model, a wait before a retry) and is sent the outcome: :func:`call_json` answers it
synchronously (a worker thread with a timeout, ``time.sleep``), :func:`acall_json` by awaiting
(the model's ``ainvoke``, ``asyncio.sleep``).

An LLM node is written once too, as a generator that ``yield``s an :class:`LLMCall` and receives
the :class:`LLMReply`; :func:`llm_node` makes it a graph node that runs the call synchronously
under ``invoke``/``stream`` and awaits the model under ``ainvoke``/``astream`` (no thread held
while the model thinks, so thousands of runs can wait on their models at once).

What a call returns and how a JSON reply is read is in :mod:`nodes.llm_reply`, how a model
client's error becomes a stop reason in :mod:`nodes.llm_errors`, native tool calling (binding
tools, reading the model's ``AIMessage``) in :mod:`nodes.tool_calling`; their public names are
importable from here too.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import json
import math
import os
import threading
from collections.abc import Awaitable, Callable, Generator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import KW_ONLY, dataclass, replace
from typing import Any, Required, TypedDict, Unpack

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from pydantic import BaseModel

from nodes import clock
from nodes.clock import remaining_seconds
from nodes.langgraph_private import RunnableCallable, node_runnable
from nodes.llm_errors import classify_llm_error, retry_after_seconds
from nodes.llm_reply import LLMReply, parse_json_text, parse_reply, priced, usage_of
from nodes.model import pricing_name
from nodes.tool_calling import parse_tool_reply, supports_tool_calling, tool_model
from policies.base import BasePolicy
from policies.json_safety import error_text
from policies.llm_calls import check_llm_budget, price_for, retry_delay

__all__ = [
    "CLIENT_TIMEOUT_GRACE",
    "MAX_CALL_THREADS",
    "LLMCall",
    "LLMReply",
    "LLMSteps",
    "Steps",
    "acall_json",
    "adrive",
    "call_json",
    "classify_llm_error",
    "drive",
    "finite",
    "llm_node",
    "parse_json_text",
    "parse_reply",
    "parse_tool_reply",
    "priced",
    "retry_after_seconds",
    "supports_tool_calling",
    "tool_model",
    "usage_of",
]


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
    #: Native tool calling: the messages to send (instead of ``system`` + ``payload``) and the
    #: tools to bind (OpenAI tool dicts). The reply is the model's ``AIMessage`` as it is
    #: (:func:`parse_tool_reply`), not parsed as JSON.
    conversation: Sequence[BaseMessage] | None = None
    tools: Sequence[Mapping[str, Any]] | None = None


@dataclass(frozen=True)
class _Attempt:
    """One request to the model, to be answered within ``limit`` seconds (``tools``: bound first)."""

    llm: BaseChatModel
    messages: list[BaseMessage]
    limit: float
    tools: Sequence[Mapping[str, Any]] | None = None


@dataclass(frozen=True)
class _Backoff:
    """A wait of ``seconds`` before the next attempt."""

    seconds: float


#: A generator that yields requests, is sent their answers (or thrown their errors) and returns.
Steps = Generator[Any, Any, Any]


def drive(steps: Steps, perform: Callable[[Any], Any]) -> Any:
    """Run ``steps`` to its return value, answering each request it yields with ``perform`` (an
    error ``perform`` raises is thrown into ``steps``): :func:`adrive` with an answer that never
    waits, so the coroutine runs to its end at once."""

    async def at_once(request: Any) -> Any:
        return perform(request)

    running = adrive(steps, at_once)
    try:
        running.send(None)
    except StopIteration as done:
        return done.value
    running.close()
    raise RuntimeError("drive: an answer waited")


async def adrive(steps: Steps, perform: Callable[[Any], Awaitable[Any]]) -> Any:
    """Run ``steps`` to its return value, answering each request it yields by awaiting ``perform``
    (an error it raises is thrown into ``steps``)."""
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


def _attempts(
    call: LLMCall, messages: list[BaseMessage]
) -> Generator[_Attempt | _Backoff, Any, tuple[Any, int] | LLMReply]:
    """The model's message and the attempts it took, or the failure the run stops with.

    Each attempt waits at most ``llm_timeout_seconds`` and never past ``max_seconds``; a transient
    failure is retried after a backoff (``policies.llm_calls.retry_delay``) that must end in time."""
    state, policy = call.state, call.policy
    attempt = 0
    while True:
        attempt += 1
        left = remaining_seconds(state, policy)
        if left <= 0:
            detail = "no time left for a retry" if attempt > 1 else "no time left for the call"
            return LLMReply(stop_reason="max_seconds", attempts=attempt - 1, detail=detail)
        limit = min(policy.llm_timeout_seconds, left)
        hint = None
        try:
            return (yield _Attempt(call.llm, messages, limit, call.tools)), attempt
        except _NoAnswerInTime:
            reason = "max_seconds" if left <= policy.llm_timeout_seconds else "llm_timeout"
            detail = f"no answer within {limit:.3f}s"
        except Exception as exc:
            reason, hint = classify_llm_error(exc), retry_after_seconds(exc)
            detail = error_text(exc, limit=480)
        delay = retry_delay(
            reason,
            attempt=attempt,
            max_retries=policy.llm_max_retries,
            base_seconds=policy.llm_backoff_base_seconds,
            max_delay_seconds=policy.llm_backoff_max_seconds,
            seconds_left=remaining_seconds(state, policy),
            retry_after=hint,
        )
        if delay is None:
            return LLMReply(stop_reason=reason, detail=f"attempt {attempt}: {detail}"[:500], attempts=attempt)
        yield _Backoff(delay)


def _json_call(call: LLMCall) -> Generator[_Attempt | _Backoff, Any, LLMReply]:
    """The seam's logic, whether the model is called synchronously or awaited: the budgets before
    the call, the attempts (:func:`_attempts`), the reply parsed and priced."""
    messages: list[BaseMessage] = [
        SystemMessage(content=call.system),
        HumanMessage(content=json.dumps(dict(call.payload), ensure_ascii=False, default=str)),
    ]
    if call.conversation is not None:
        messages = list(call.conversation)
    tools_chars = len(json.dumps(list(call.tools), default=str)) if call.tools is not None else 0
    policy = call.policy
    price = price_for(pricing_name(call.llm), policy.price_table())
    budget = check_llm_budget(
        call.state.get("usage") or {},
        prompt_chars=sum(len(m.text) for m in messages) + tools_chars,
        output_reserve=policy.llm_output_reserve_tokens,
        price=price,
        max_tokens=policy.max_tokens,
        max_cost_usd=policy.max_cost_usd,
    )
    if not budget.passed:
        detail = "not called: the next call would exceed the run's budget"
        return LLMReply(stop_reason=budget.reason, detail=detail, details=budget.details)
    outcome = yield from _attempts(call, messages)
    if isinstance(outcome, LLMReply):
        return outcome
    message, attempts = outcome
    if call.tools is not None:
        reply = parse_tool_reply(message)
    else:
        reply = parse_reply(message, contract=call.contract, expect_object=call.expect_object)
    return replace(reply, usage=priced(reply.usage, price), attempts=attempts)


#: Extra seconds the HTTP client may take beyond the seam's own wait, so the seam's wait is what
#: fires first and the request still ends soon after it.
CLIENT_TIMEOUT_GRACE = 0.25


def _call_kwargs(llm: BaseChatModel, limit: float) -> dict[str, Any]:
    """Per-request options: an OpenAI client gets the call's timeout (never more than its own,
    ``OPENAI_TIMEOUT_SECONDS``), so an abandoned request ends with the wait instead of running on.
    With no deadline to reach (:func:`_no_deadline`) the client keeps its own timeout."""
    if _no_deadline(limit) or not any(cls.__name__ == "BaseChatOpenAI" for cls in type(llm).__mro__):
        return {}
    own = getattr(llm, "request_timeout", None)
    timeout = limit + CLIENT_TIMEOUT_GRACE
    return {"timeout": min(timeout, float(own)) if isinstance(own, int | float) and own > 0 else timeout}


#: Most model calls waiting at once under the sync API. A worker thread is made only when none is
#: idle, so a call that never returns holds its thread without stopping the others (until this
#: many are stuck: later calls then wait their timeout out and stop with ``llm_timeout``).
MAX_CALL_THREADS = 1024
_call_threads: ThreadPoolExecutor | None = None
_call_threads_lock = threading.Lock()


#: The name every worker thread of the pool starts with.
CALL_THREAD_PREFIX = "llm-call"


def _threads() -> ThreadPoolExecutor:
    global _call_threads
    with _call_threads_lock:
        if _call_threads is None:
            _call_threads = ThreadPoolExecutor(MAX_CALL_THREADS, thread_name_prefix=CALL_THREAD_PREFIX)
        return _call_threads


def _forget_threads() -> None:
    """In a forked child: the parent's pool and lock are the parent's (its threads do not exist
    here, and its books would say one is idle), so the child makes its own on first use."""
    global _call_threads, _call_threads_lock
    _call_threads, _call_threads_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_threads)


def _no_deadline(limit: float) -> bool:
    """True when a wait of ``limit`` seconds cannot end before the call does: the run's time
    budgets (``max_seconds``, ``llm_timeout_seconds``) are unbounded (``math.inf``) or beyond what
    a thread can wait for (``threading.TIMEOUT_MAX``, about 292 years)."""
    return not limit < threading.TIMEOUT_MAX


def _runnable(attempt: _Attempt) -> Any:
    """What an attempt invokes: the model, or the model with the call's tools bound."""
    if attempt.tools is None:
        return attempt.llm
    return tool_model(attempt.llm).bind_tools([dict(tool) for tool in attempt.tools])


def _invoke_with_timeout(attempt: _Attempt) -> Any:
    """Invoke in a worker thread (keeping the caller's context, so callbacks and streaming work)
    and give up after ``limit`` seconds. A model that never returns cannot hold the run. The
    threads are reused: making one per call cost about half a millisecond a call.

    With no deadline to reach (:func:`_no_deadline`), or a model that waits on nothing (its
    ``in_process`` is true: a script), there is nothing to give up on: the model is invoked in the
    caller's thread, without the hand-off to a worker and back."""
    kwargs = _call_kwargs(attempt.llm, attempt.limit)
    runnable = _runnable(attempt)
    if _no_deadline(attempt.limit) or getattr(attempt.llm, "in_process", False) is True:
        return runnable.invoke(attempt.messages, **kwargs)
    ctx = contextvars.copy_context()
    future = _threads().submit(ctx.run, lambda: runnable.invoke(attempt.messages, **kwargs))
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
            kwargs = _call_kwargs(attempt.llm, attempt.limit)
            return await _runnable(attempt).ainvoke(attempt.messages, **kwargs)
    except TimeoutError:
        if scope.expired():
            raise _NoAnswerInTime from None
        raise


def _perform(request: _Attempt | _Backoff) -> Any:
    if isinstance(request, _Backoff):
        return clock.sleep(request.seconds)
    return _invoke_with_timeout(request)


async def _aperform(request: _Attempt | _Backoff) -> Any:
    if isinstance(request, _Backoff):
        return await clock.asleep(request.seconds)
    return await _ainvoke_with_timeout(request)


class CallArguments(TypedDict, total=False):
    """What :func:`call_json` and :func:`acall_json` take after the model: an :class:`LLMCall`'s
    fields but its native tool calling (``contract``: None, ``expect_object``: True unless given)."""

    system: Required[str]
    payload: Required[Mapping[str, Any]]
    state: Required[Mapping[str, Any]]
    policy: Required[BasePolicy]
    contract: type[BaseModel] | None
    expect_object: bool


def call_json(llm: BaseChatModel, **arguments: Unpack[CallArguments]) -> LLMReply:
    """Call ``llm`` with the ``system`` prompt and the JSON ``payload`` and return its reply parsed
    (and validated against ``contract``), with what it consumed (tokens, ``cost_usd``) and how many
    attempts it took.

    Before the call, the run's token and cost budgets (``max_tokens``, ``max_cost_usd``) must
    allow it (``policies.llm_calls.check_llm_budget``). Each attempt's timeout is the policy's
    ``llm_timeout_seconds`` but never more than what is left of ``max_seconds``; when the run's
    budget is what cut an attempt short the reason is ``max_seconds``, otherwise ``llm_timeout``.
    Transient failures are retried per the policy (``llm_max_retries``, backoff) within the budget.
    """
    return _call_sync(LLMCall(llm, **arguments))


async def acall_json(llm: BaseChatModel, **arguments: Unpack[CallArguments]) -> LLMReply:
    """:func:`call_json` for asyncio (the same arguments): awaits the model's ``ainvoke`` and the
    backoff (``nodes.clock.asleep``), with the same budgets, timeouts, retries and stop reasons."""
    return await _call_async(LLMCall(llm, **arguments))


def _call_sync(call: LLMCall) -> LLMReply:
    return drive(_json_call(call), _perform)


async def _call_async(call: LLMCall) -> LLMReply:
    return await adrive(_json_call(call), _aperform)


#: An LLM node: a generator that yields one :class:`LLMCall` per model call and returns its update.
LLMSteps = Generator[LLMCall, LLMReply, dict[str, Any]]


def llm_node(steps: Callable[..., LLMSteps]) -> RunnableCallable:
    """A graph node from an LLM node written as a generator (``reply = yield LLMCall(...)``).

    ``steps`` is called as ``steps(state, runtime)``, or as ``steps(state, config, runtime)`` when
    it has a ``config`` parameter (the run's ``RunnableConfig``: its superstep, recursion limit).
    Under ``invoke``/``stream`` the call runs through :func:`call_json` (a worker thread with a
    timeout); under ``ainvoke``/``astream`` it awaits the model through :func:`acall_json`, so a
    run waiting on its model holds no thread (LangGraph would otherwise run the node in the event
    loop's default executor, a handful of threads for all concurrent runs).
    """
    takes_config = "config" in inspect.signature(steps).parameters

    def begin(state: Mapping[str, Any], config: RunnableConfig, runtime: Runtime[Any]) -> LLMSteps:
        return steps(state, config, runtime) if takes_config else steps(state, runtime)

    def run(state: Mapping[str, Any], config: RunnableConfig, runtime: Runtime[Any]) -> dict[str, Any]:
        return drive(begin(state, config, runtime), _call_sync)

    async def arun(state: Mapping[str, Any], config: RunnableConfig, runtime: Runtime[Any]) -> dict[str, Any]:
        return await adrive(begin(state, config, runtime), _call_async)

    node = node_runnable(run, arun)
    # what the node runs, called as begin(state, config, runtime) whatever ``steps`` takes
    node.llm_steps = begin  # type: ignore[attr-defined]
    return node


def finite(value: Any) -> bool:
    """True for a real, finite number (booleans are not numbers)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
