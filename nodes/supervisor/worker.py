"""The Supervisor's worker node: the next proposal, in the run's protocol (JSON actions in text,
or the model's native tool calls, whose several calls in one reply are handed to the gateway one at
a time through ``pending_calls``), and the stops of a run with no step, time or superstep left."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig

from nodes.clock import out_of_time
from nodes.llm_json import LLMCall, LLMReply, LLMSteps
from nodes.run import llm_done, llm_failed, policy_for
from nodes.steps import RECURSION_LIMIT, out_of_supersteps, superstep_figures
from nodes.supervisor import conversation as conv
from nodes.supervisor.gateway import STEP_KEYS, WORKER_SYSTEM, Ctx, State, readable_proposal, subject_of
from nodes.tool_gateway import ToolRegistry, tool_catalog
from nodes.trace import stop
from policies import supervisor as rules


def round_supersteps(policy: rules.SupervisorPolicy) -> int:
    """Most supersteps from one worker proposal to the next worker: validate_action, review, a
    revise_action and a review per revision, escalate, human_approval, execute or refuse, worker."""
    return 6 + 2 * policy.max_revisions_per_action


def _worker_history(state: State) -> list[dict[str, Any]]:
    """The run so far as the worker sees it, step by step: executed calls and refused actions."""
    keys = ("step", "tool", "args", "ok", "observation", "executed_from", "approved_by")
    rows = [{k: c.get(k) for k in keys} for c in conv.calls_whole(state)]
    rows += [
        {k: r.get(k) for k in ("step", "tool", "args", "ok", "observation")}
        for r in state.get("refusals") or []
    ]
    return sorted(rows, key=lambda row: int(row.get("step") or 0))


def worker(
    state: State,
    config: RunnableConfig,
    runtime: Ctx,
    *,
    llm: BaseChatModel,
    policy: rules.SupervisorPolicy,
    tools: ToolRegistry,
) -> LLMSteps:
    """The worker's next proposal: the next call of its last reply when one waits (no model call),
    else the model's next reply, in the run's protocol."""
    policy = policy_for(runtime, policy)
    steps = int(state.get("steps") or 0)
    stopped = _out_of_budget(state, config, policy, steps)
    if stopped is not None:
        return conv.close_open_calls(state, stopped)
    pending = list(state.get("pending_calls") or [])
    if pending:
        return _take_call(pending, steps)
    if state.get("worker_protocol") == "native":
        call = LLMCall(
            llm,
            system=conv.NATIVE_SYSTEM,
            payload={},
            state=state,
            policy=policy,
            conversation=conv.worker_messages(state),
            tools=conv.tool_specs(tools, policy),
        )
        return _native_reply(state, (yield call), steps)
    shown = [name for name in policy.allowed_tools if name in tools or name in policy.tools]
    payload = {
        "role": "supervisor.worker",
        "goal": state["goal"],
        "subject": subject_of(state),
        "history": _worker_history(state),
        "tools": tool_catalog(tools, shown, policy.tools),
        "step": steps + 1,
        "max_steps": policy.max_steps,
    }
    reply = yield LLMCall(
        llm, system=WORKER_SYSTEM, payload=payload, state=state, policy=policy, expect_object=False
    )
    return _json_reply(state, reply, steps)


def _out_of_budget(
    state: State, config: RunnableConfig, policy: rules.SupervisorPolicy, steps: int
) -> dict[str, Any] | None:
    """The stop of a run with no step, time or superstep left for another proposal, else None."""
    if steps >= policy.max_steps:
        return stop(state, "worker", "max_steps", figures={"steps": steps})
    if out_of_time(state, policy):
        return stop(state, "worker", "max_seconds")
    needed = round_supersteps(policy)
    if out_of_supersteps(config, state.get("first_step"), needed):
        return stop(state, "worker", RECURSION_LIMIT, figures=superstep_figures(config, needed))
    return None


def _failed_reply(state: State, reply: LLMReply) -> dict[str, Any] | None:
    """The stop of a model call that gave no reply to act on, else None."""
    if reply.stop_reason == "llm_invalid_json":
        reason, raw = "invalid_action:non_json", reply.raw[:2000]
        return stop(state, "worker", reason, figures=reply.figures, raw_action=raw, usage=reply.usage)
    return None if reply.ok else llm_failed(state, "worker", reply)


def _take_call(calls: list[dict[str, Any]], steps: int) -> dict[str, Any]:
    """The step of the next call of a reply (the rest wait in ``pending_calls``)."""
    call, rest = calls[0], calls[1:]
    raw = {"kind": "tool", "name": call.get("name"), "args": call.get("args")}
    cleared = {key: None for key in STEP_KEYS}
    return {
        **cleared,
        "raw_action": raw,
        "tool_call_id": call["id"],
        "pending_calls": rest,
        "steps": steps + 1,
    }


def _json_reply(state: State, reply: LLMReply, steps: int) -> dict[str, Any]:
    """A JSON-protocol reply: the proposed action, and a tool proposal as a tool call in the
    conversation."""
    failed = _failed_reply(state, reply)
    if failed is not None:
        return failed
    update: dict[str, Any] = {key: None for key in STEP_KEYS}
    proposal = readable_proposal(reply.data)
    if proposal is not None:
        update["tool_call_id"] = conv.new_call_id()
        update["messages"] = [conv.proposal_message(proposal, update["tool_call_id"])]
    return llm_done(state, "worker", reply, **update, raw_action=reply.data, steps=steps + 1)


def _native_reply(state: State, reply: LLMReply, steps: int) -> dict[str, Any]:
    """A tool-calling reply: its first call (the rest wait), or its text as the final answer."""
    failed = _failed_reply(state, reply)
    if failed is not None:
        return failed
    message, calls = conv.reply_calls(reply.data)
    if not calls:
        cleared = {key: None for key in STEP_KEYS}
        final = {"kind": "final", "answer": str(message.text)}
        update = {**cleared, "raw_action": final, "steps": steps + 1}
        return llm_done(state, "worker", reply, **update)
    return llm_done(state, "worker", reply, **_take_call(calls, steps), **conv.said(state, [message]))
