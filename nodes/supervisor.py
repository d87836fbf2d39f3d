"""Supervisor nodes: the worker's proposal, its validation, the supervisor's review, the human
approval, and the gateway's execution.

The node that pauses for a human (``human_approval``) is not the node that executes: code before an
``interrupt`` re-runs on resume, so side effects live only in ``execute``, and each side-effecting
call carries an idempotency key derived from the run and the action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from nodes.clock import now, out_of_time
from nodes.llm_json import LLMCall, LLMSteps
from nodes.run import llm_done, llm_failed, policy_for, start_run
from nodes.steps import RECURSION_LIMIT, out_of_supersteps, superstep, superstep_figures
from nodes.tool_gateway import ToolRegistry, run_tool
from nodes.trace import history_row, stop, trace_row
from policies import supervisor as rules
from policies.human import parse_human_answer
from policies.json_safety import json_problem
from policies.text import json_hash
from policies.tools import check_call, idempotency_key

State = Mapping[str, Any]
Ctx = Runtime[rules.SupervisorPolicy]
Hooks = Mapping[str, rules.CustomRule]

WORKER_SYSTEM = (
    "You are a support operations worker. Propose exactly one next action as JSON: either "
    '{"kind": "tool", "name": <tool>, "args": {...}} using only the listed tools and their '
    'arguments, or {"kind": "final", "answer": <short answer>} once the task is done. '
    "Use the observations in history; never invent results. A supervisor reviews every action."
)
PATTERN_KEYS = (
    "steps",
    "calls",
    "raw_action",
    "proposed_action",
    "action",
    "executed_from",
    "review",
    "reviews",
    "revisions",
    "approval_request",
    "human_answer",
    "human_approved",
    "paused_seconds",
    "first_step",
)
#: Keys of one worker step, cleared when the worker proposes the next action.
STEP_KEYS = ("action", "review", "reviews", "revisions", "approval_request", "human_answer", "human_approved")


def _check_input(state: State) -> str | None:
    goal = state.get("goal")
    if not isinstance(goal, str) or not goal.strip():
        return "invalid_input:goal"
    subject = state.get("subject")
    if subject is not None and (not isinstance(subject, dict) or json_problem(subject) is not None):
        return "invalid_input:subject"
    return None


def _review_context(state: State) -> rules.ReviewContext:
    return rules.ReviewContext(tuple(state.get("calls") or []), dict(state.get("subject") or {}))


def start(state: State, config: RunnableConfig, *, model: str) -> dict[str, Any]:
    update = start_run(state, config, model=model, clear=PATTERN_KEYS, check_input=_check_input, supersteps=1)
    return {**update, "steps": 0, "calls": [], "paused_seconds": 0.0, "first_step": superstep(config)}


def round_supersteps(policy: rules.SupervisorPolicy) -> int:
    """Most supersteps from one worker proposal to the next worker: validate_action, review, a
    revise_action and a review per revision, escalate, human_approval, execute, worker."""
    return 6 + 2 * policy.max_revisions_per_action


def _worker_history(state: State) -> list[dict[str, Any]]:
    keys = ("step", "tool", "args", "ok", "observation", "executed_from", "human_approved")
    return [{k: c.get(k) for k in keys} for c in state.get("calls") or []]


def worker(
    state: State, config: RunnableConfig, runtime: Ctx, *, llm: BaseChatModel, policy: rules.SupervisorPolicy
) -> LLMSteps:
    policy = policy_for(runtime, policy)
    steps = int(state.get("steps") or 0)
    if steps >= policy.max_steps:
        return stop(state, "worker", "max_steps", figures={"steps": steps})
    if out_of_time(state, policy):
        return stop(state, "worker", "max_seconds")
    needed = round_supersteps(policy)
    if out_of_supersteps(config, state.get("first_step"), needed):
        return stop(state, "worker", RECURSION_LIMIT, figures=superstep_figures(config, needed))
    payload = {
        "role": "supervisor.worker",
        "goal": state["goal"],
        "subject": state.get("subject") or {},
        "history": _worker_history(state),
        "tools": {name: spec.model_dump() for name, spec in policy.tools.items()},
        "step": steps + 1,
        "max_steps": policy.max_steps,
    }
    reply = yield LLMCall(
        llm, system=WORKER_SYSTEM, payload=payload, state=state, policy=policy, expect_object=False
    )
    if reply.stop_reason == "llm_invalid_json":
        reason, raw = "invalid_action:non_json", reply.raw[:2000]
        return stop(state, "worker", reason, figures=reply.figures, raw_action=raw, usage=reply.usage)
    if not reply.ok:
        return llm_failed(state, "worker", reply)
    cleared = {key: None for key in STEP_KEYS}
    return llm_done(state, "worker", reply, **cleared, raw_action=reply.data, steps=steps + 1)


def validate_action(state: State, runtime: Ctx, *, policy: rules.SupervisorPolicy) -> dict:
    raw = state["raw_action"]
    decision = rules.validate_action(raw, policy_for(runtime, policy))
    if not decision.passed:
        return stop(state, "validate", decision.reason, raw_action=raw, details=decision.details)
    action = decision.details["action"]
    return {"proposed_action": action, "action": action, "executed_from": "original", "revisions": 0}


def review(state: State, runtime: Ctx, *, policy: rules.SupervisorPolicy, hooks: Hooks) -> dict:
    policy = policy_for(runtime, policy)
    action = state["action"]
    decision = rules.review_action(action, _review_context(state), policy, hooks)
    row = {"decision": decision.verdict, "reason": decision.reason, **decision.details}
    reviews = [*(state.get("reviews") or []), row]
    if decision.verdict == "block":
        reason = f"supervisor_block:{decision.reason}"
        return stop(state, "review", reason, action=action, review=row, reviews=reviews)
    if decision.verdict == "revise" and int(state.get("revisions") or 0) >= policy.max_revisions_per_action:
        reason = "supervisor_block:revision_limit"
        return stop(state, "review", reason, action=action, review=row, reviews=reviews)
    return {"review": row, "reviews": reviews}


def revise_action(state: State) -> dict:
    """Take the supervisor's revised action; it is reviewed again before anything runs."""
    return {
        "action": state["review"]["action"],
        "executed_from": "supervisor_revised",
        "revisions": int(state.get("revisions") or 0) + 1,
    }


def escalate(state: State) -> dict:
    """Write the approval request (and when it was raised: waiting time is not run time)."""
    action, review_row = state["action"], state["review"]
    request = {
        "kind": "supervisor_approval",
        "run_id": state.get("run_id"),
        "thread_id": state.get("thread_id"),
        "step": state.get("steps"),
        "action": action,
        "reason": review_row["reason"],
        "details": {k: review_row[k] for k in ("arg", "limit", "value") if k in review_row},
        "allowed_answers": rules.approval_answers(action, review_row.get("arg")),
        "requested_at": now(),
    }
    return {"approval_request": request}


def human_approval(state: State, runtime: Ctx, *, policy: rules.SupervisorPolicy, hooks: Hooks) -> dict:
    """Pause for the human (or ask the automatic approver) and apply the answer."""
    policy = policy_for(runtime, policy)
    request = state["approval_request"]
    if policy.auto_approver_enabled:
        value, paused = rules.auto_approve(request, policy.auto_approver_cap), 0.0
    else:
        value = interrupt({k: v for k, v in request.items() if k != "requested_at"})
        paused = max(0.0, now() - float(request["requested_at"]))
    paused_total = float(state.get("paused_seconds") or 0.0) + paused
    answer = parse_human_answer(value)
    if answer is None:
        return stop(
            state, "human_approval", "invalid_human_answer", human_answer=value, paused_seconds=paused_total
        )
    row = {"type": answer.type, "message": answer.message, **answer.edits}
    if answer.type == "reject":
        history = history_row(state, "human_approval", request=request, human_answer=row)
        rejected = stop(state, "human_approval", "human_rejected", human_answer=row, human_approved=False)
        return {**rejected, "history": [history], "paused_seconds": paused_total}
    decision = rules.approved_action(answer, state["action"], policy, _review_context(state), hooks)
    if not decision.passed:
        reason = f"supervisor_block:{decision.reason}" if decision.verdict == "block" else decision.reason
        return stop(state, "human_approval", reason, human_answer=row, paused_seconds=paused_total)
    executed_from = "human_revised" if decision.reason == "human_revised" else state.get("executed_from")
    return {
        "action": decision.details["action"],
        "executed_from": executed_from,
        "human_answer": row,
        "human_approved": True,
        "paused_seconds": paused_total,
    }


def _figures(state: State, action: Mapping[str, Any]) -> dict[str, Any]:
    figures = {
        "tool": action.get("name", "final"),
        "args_hash": json_hash(action.get("args", {})),
        "decision": (state.get("review") or {}).get("decision"),
        "executed_from": state.get("executed_from"),
    }
    if state.get("human_approved") is not None:
        figures["human_approved"] = state["human_approved"]
    return figures


def execute(state: State, runtime: Ctx, *, policy: rules.SupervisorPolicy, tools: ToolRegistry) -> dict:
    """Run the approved tool call through the gateway; record the observation."""
    policy = policy_for(runtime, policy)
    action = state["action"]
    name, args, figures = action["name"], action["args"], _figures(state, action)
    if out_of_time(state, policy):
        return stop(state, "execution", "max_seconds", figures=figures)
    calls = list(state.get("calls") or [])
    checked = check_call(
        name, args, limits=policy.gateway_limits(), specs=policy.tools, registered=tools, past_calls=calls
    )
    if not checked.passed:
        return stop(state, "execution", checked.reason, figures=figures, details=checked.details)
    spec = policy.tools[name]
    key = (
        idempotency_key(str(state.get("run_id")), int(state.get("steps") or 0), name, args)
        if spec.side_effect
        else None
    )
    outcome = run_tool(tools, name, args, idempotency_key=key)
    if not outcome.ok:
        return stop(state, "execution", outcome.reason, figures=figures, details=outcome.detail)
    call = {
        "step": state.get("steps"),
        "tool": name,
        "args": args,
        "signature": checked.details["signature"],
        "ok": not outcome.error,
        "observation": outcome.result,
        "executed_from": state.get("executed_from"),
        "human_approved": state.get("human_approved"),
        "idempotency_key": key,
    }
    history = history_row(
        state,
        "execution",
        proposed_action=state.get("proposed_action"),
        reviews=state.get("reviews") or [],
        human_answer=state.get("human_answer"),
        executed_action=action,
        executed_from=state.get("executed_from"),
        observation=outcome.result,
    )
    row = trace_row(state, "execution", **figures, observation_ok=not outcome.error)
    return {"calls": [*calls, call], "trace": [row], "history": [history]}


def finalize(state: State) -> dict:
    action = state["action"]
    answer = action["answer"]
    history = history_row(
        state,
        "final",
        proposed_action=state.get("proposed_action"),
        reviews=state.get("reviews") or [],
        executed_from=state.get("executed_from"),
        answer=answer,
    )
    return {
        "status": "ok",
        "stop_reason": "success",
        "outcome": "final_answer",
        "answer": answer,
        "phase": "final",
        "trace": [trace_row(state, "final", **_figures(state, action))],
        "history": [history],
    }
