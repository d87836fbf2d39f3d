"""What every pattern's first node and every LLM node do alike."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import KW_ONLY, dataclass
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from nodes.clock import now
from nodes.llm_json import LLMCall, LLMReply, LLMSteps
from nodes.messages import chat_request, request_update
from nodes.state import RESET
from nodes.steps import RECURSION_LIMIT, out_of_supersteps, superstep, superstep_figures
from nodes.trace import stop, trace_row
from policies.base import BasePolicy
from policies.decision import Decision

P = TypeVar("P", bound=BasePolicy)

#: Keys a new run clears, whatever the pattern.
RUN_KEYS = (
    "status",
    "stop_reason",
    "outcome",
    "answer",
    "phase",
    "details",
    "raw_reply",
    "llm_detail",
)


#: A run's usage before its first LLM call (``cost_usd`` in USD at the policy's model prices;
#: ``unpriced_calls``: calls to a model without a price, counted at 0 USD).
EMPTY_USAGE: dict[str, Any] = {
    "llm_calls": 0,
    "input_tokens": 0,
    "output_tokens": 0,
    "total_tokens": 0,
    "cost_usd": 0.0,
    "unpriced_calls": 0,
}


#: Policies a run-time context made, by the ids of (graph policy, context): both kept alive with it.
_MERGED: dict[tuple[int, int], tuple[BasePolicy, BasePolicy, BasePolicy]] = {}
_MERGED_MAX = 64
_MERGED_LOCK = threading.Lock()


def policy_for(runtime: Runtime[Any] | None, default: P) -> P:
    """The run's policy: the graph's policy with the fields a run-time context sets over it
    (Studio's context form, ``invoke(..., context=...)``; a dict context arrives as the policy model
    with just those fields set). Fields the context leaves unset keep the graph's values, so a
    context of ``{"max_seconds": 10}`` changes the time budget and nothing else."""
    context = getattr(runtime, "context", None)
    if not isinstance(context, type(default)) or context is default or not context.model_fields_set:
        return default
    key = (id(default), id(context))
    cached = _MERGED.get(key)
    if cached is not None and cached[0] is default and cached[1] is context:
        return cached[2]  # type: ignore[return-value]
    data = default.model_dump()
    data.update(context.model_dump(include=set(context.model_fields_set)))
    merged = type(default).model_validate(data)
    with _MERGED_LOCK:
        while len(_MERGED) >= _MERGED_MAX:
            _MERGED.pop(next(iter(_MERGED)))
        _MERGED[key] = (default, context, merged)
    return merged


def start_run(
    state: Mapping[str, Any],
    config: RunnableConfig | None,
    *,
    model: str,
    clear: Iterable[str] = (),
    check_input: Callable[[Mapping[str, Any]], str | None] | None = None,
    supersteps: int = 0,
    request_key: str | None = None,
) -> dict[str, Any]:
    """Open a run: a new run id, the clock, the model's name, clean rows and keys.

    ``check_input`` returns a stop reason for input the pattern cannot run on. ``supersteps`` is how
    many supersteps the run needs after this one before its next check of the recursion limit
    (the whole graph for a graph without loops): when the limit leaves fewer, the run stops at once
    with ``recursion_limit`` (see :mod:`nodes.steps`).

    ``request_key`` names the pattern's request text (``goal``, ``question``): the run takes it
    from the conversation's pending human turn when there is one (:mod:`nodes.messages`), and
    ``check_input`` sees the state with the request in place. A human turn with no text stops the
    run with ``invalid_input:messages``.
    """
    configurable = (config or {}).get("configurable", {})
    fresh: dict[str, Any] = {"started_at": now(), "trace": [], "history": []}
    update: dict[str, Any] = {
        "run_id": str(uuid.uuid4()),
        "thread_id": str(configurable.get("thread_id") or ""),
        "started_at": fresh["started_at"],
        "model": model,
        "trace": [RESET],
        "history": [RESET],
        "usage": {**RESET, **EMPTY_USAGE},
        # clear what a previous run on this thread left behind
        **{key: None for key in (*RUN_KEYS, *clear) if state.get(key) is not None},
    }
    reason = None
    if request_key is not None:
        request = chat_request(state, request_key)
        update.update(request_update(request, request_key))
        state = {**state, request_key: request.text}
        if request.from_messages and not request.text:
            reason = "invalid_input:messages"
    if not reason and check_input:
        reason = check_input(state)
    figures: Mapping[str, Any] = {}
    if not reason and out_of_supersteps(config, superstep(config), supersteps):
        reason, figures = RECURSION_LIMIT, superstep_figures(config, supersteps)
    if reason:
        stopped = stop(fresh, "input", reason, figures=figures)
        said = [*update.get("messages", []), *stopped["messages"]]
        update.update(stopped, trace=[RESET, *stopped["trace"]], messages=said)
    return update


def llm_done(state: Mapping[str, Any], phase: str, reply: LLMReply, **update: Any) -> dict[str, Any]:
    """The update of a successful LLM call: ``update``, what the call consumed, and its trace row
    (``call: llm``, attempts, input/output tokens, cost)."""
    return {**update, "usage": reply.usage, "trace": [trace_row(state, phase, **reply.figures)]}


def llm_failed(state: Mapping[str, Any], phase: str, reply: LLMReply) -> dict[str, Any]:
    """Stop a run on a failed LLM call, keeping what the model said and what the call consumed
    (a call a budget refused carries the budget's figures in ``details``)."""
    extra = {"details": reply.details} if reply.details else {}
    return stop(
        state,
        phase,
        reply.stop_reason or "llm_error:unknown",
        figures=reply.figures,
        raw_reply=reply.raw[:2000],
        llm_detail=reply.detail,
        usage=reply.usage,
        **extra,
    )


class CitedAnswer(BaseModel):
    """The reply of an LLM node that answers from sources (RAG, Research): the answer and the ids
    of the sources it cites."""

    answer: str
    citations: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class LLMStep:
    """One LLM node of a pattern, all but its payload: the phase its rows are written in, the
    system prompt, what the reply must be (``contract``, ``expect_object``) and what the state
    keeps of it: the reply's data as ``keep``, or only its field ``take``, under that name."""

    phase: str
    system: str
    _: KW_ONLY
    keep: str = ""
    take: str = ""
    contract: type[BaseModel] | None = None
    expect_object: bool = True

    def ask(
        self, state: Mapping[str, Any], llm: BaseChatModel, policy: BasePolicy, payload: Mapping[str, Any]
    ) -> LLMSteps:
        """One :class:`nodes.llm_json.LLMCall` with ``payload``, then :func:`llm_done` with what the
        state keeps, or :func:`llm_failed`. A node returns ``(yield from STEP.ask(...))``."""
        reply = yield LLMCall(
            llm,
            system=self.system,
            payload=payload,
            state=state,
            policy=policy,
            contract=self.contract,
            expect_object=self.expect_object,
        )
        if not reply.ok:
            return llm_failed(state, self.phase, reply)
        kept = {self.take: reply.data[self.take]} if self.take else {self.keep: reply.data}
        return llm_done(state, self.phase, reply, **kept)


def check_reply(
    state: Mapping[str, Any], phase: str, key: str, rule: Callable[[Any, P], Decision], policy: P
) -> tuple[Decision, dict[str, Any] | None]:
    """The gateway's check of the model's reply kept as ``key``: ``rule``'s decision on it under
    ``policy``, and the update that stops the run when the rule refused it (the reply kept as
    ``key``, the rule's details), else None."""
    raw = state[key]
    decision = rule(raw, policy)
    if decision.passed:
        return decision, None
    return decision, stop(state, phase, decision.reason, **{key: raw}, details=decision.details)
