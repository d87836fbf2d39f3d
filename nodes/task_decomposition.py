"""Task Decomposition nodes: plan (LLM), validate the plan, execute one step per superstep through
the tool gateway, combine the observations (LLM) and check the summary's numbers."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from pydantic import BaseModel

from nodes.clock import out_of_time
from nodes.llm_json import LLMCall, LLMSteps
from nodes.run import LLMStep, check_reply, llm_done, llm_failed, policy_for, start_run
from nodes.steps import RECURSION_LIMIT, out_of_supersteps, superstep, superstep_figures
from nodes.tool_gateway import ToolRegistry, check_tool_call, run_tool, tool_catalog
from nodes.trace import finish, history_row, stop, trace_row
from policies import task_decomposition as rules
from policies.text import json_hash, text_hash

State = Mapping[str, Any]
Ctx = Runtime[rules.TaskDecompositionPolicy]

PLAN_SYSTEM = (
    "You break a reporting task into a plan of 3 to max_plan_steps steps. Each step calls one tool "
    'from allowed_tools with its arguments. Reply with one JSON object: {"kind": "plan", "steps": '
    '[{"id": <unique str>, "title": <str>, "tool": <tool>, "args": {...}}]}.'
)
COMBINE_SYSTEM = (
    "You write the final summary from the goal and the observations in history only; call no tools. "
    "Include the manager's name, the month, gross sales, refunds, net sales, refund rate and one risk "
    "note. Use only numbers that appear in the observations. Reply with one JSON object: "
    '{"answer": "<text>"}.'
)
PATTERN_KEYS = (
    "raw_plan",
    "plan",
    "next_step",
    "calls",
    "observation",
    "failed_step",
    "rejected_answer",
    "first_step",
)
#: Supersteps after ``start`` until the first plan step's check: plan, validate_plan, execute_step.
SUPERSTEPS_TO_EXECUTE = 3
#: Supersteps an execute step needs after it: the next step (which checks again), or combine and finalize.
SUPERSTEPS_AFTER_STEP = 2


class CombineReply(BaseModel):
    answer: str


COMBINE = LLMStep("finalize", COMBINE_SYSTEM, take="answer", contract=CombineReply)


def _check_input(state: State) -> str | None:
    goal = state.get("goal")
    return None if isinstance(goal, str) and goal.strip() else "invalid_input:goal"


#: How a run of the pattern opens (:func:`nodes.run.start_run` with its keys, request and input check).
_open_run = partial(start_run, clear=PATTERN_KEYS, check_input=_check_input, request_key="goal")


def start(state: State, config: RunnableConfig, *, model: str) -> dict[str, Any]:
    update = _open_run(state, config, model=model, supersteps=SUPERSTEPS_TO_EXECUTE)
    return {**update, "next_step": 0, "calls": [], "first_step": superstep(config)}


def plan(
    state: State,
    runtime: Ctx,
    *,
    llm: BaseChatModel,
    policy: rules.TaskDecompositionPolicy,
    tools: ToolRegistry,
) -> LLMSteps:
    policy = policy_for(runtime, policy)
    payload = {
        "role": "task_decomposition.plan",
        "goal": state["goal"],
        "allowed_tools": policy.allowed_tools,
        "tools": tool_catalog(tools, policy.allowed_tools, policy.tools),
        "max_plan_steps": policy.max_plan_steps,
    }
    reply = yield LLMCall(
        llm, system=PLAN_SYSTEM, payload=payload, state=state, policy=policy, expect_object=False
    )
    if reply.stop_reason == "llm_invalid_json":
        raw, used = reply.raw[:2000], reply.usage
        return stop(state, "plan", "invalid_plan:non_json", figures=reply.figures, raw_plan=raw, usage=used)
    if not reply.ok:
        return llm_failed(state, "plan", reply)
    return llm_done(state, "plan", reply, raw_plan=reply.data)


def validate_plan(state: State, runtime: Ctx, *, policy: rules.TaskDecompositionPolicy) -> dict:
    policy = policy_for(runtime, policy)
    decision, stopped = check_reply(state, "plan", "raw_plan", rules.validate_plan, policy)
    if stopped:
        return stopped
    steps = decision.details["steps"]
    return {
        "plan": steps,
        "trace": [trace_row(state, "plan", plan_steps=len(steps), plan_hash=json_hash(steps))],
        "history": [history_row(state, "plan", plan=steps)],
    }


def execute_step(
    state: State,
    config: RunnableConfig,
    runtime: Ctx,
    *,
    policy: rules.TaskDecompositionPolicy,
    tools: ToolRegistry,
) -> dict:
    """Run the next plan step through the gateway (one step per superstep: one checkpoint each)."""
    policy = policy_for(runtime, policy)
    index = int(state.get("next_step") or 0)
    step = state["plan"][index]
    figures = {
        "step_no": index + 1,
        "step_id": step["id"],
        "tool": step["tool"],
        "args_hash": json_hash(step["args"]),
    }
    if index >= policy.max_execute_steps:
        return stop(state, "execution", "max_execute_steps", figures=figures, failed_step=step)
    if out_of_time(state, policy):
        return stop(state, "execution", "max_seconds", figures=figures, failed_step=step)
    if out_of_supersteps(config, state.get("first_step"), SUPERSTEPS_AFTER_STEP):
        figures = {**figures, **superstep_figures(config, SUPERSTEPS_AFTER_STEP)}
        return stop(state, "execution", RECURSION_LIMIT, figures=figures, failed_step=step)
    calls = list(state.get("calls") or [])
    checked = check_tool_call(
        tools,
        step["tool"],
        step["args"],
        limits=policy.gateway_limits(),
        specs=policy.tools,
        past_calls=calls,
    )
    if not checked.passed:
        return stop(
            state, "execution", checked.reason, figures=figures, failed_step=step, details=checked.details
        )
    outcome = run_tool(tools, step["tool"], step["args"])
    if not outcome.ok:
        return stop(
            state, "execution", outcome.reason, figures=figures, failed_step=step, details=outcome.detail
        )
    if outcome.error:
        reason = f"tool_failed:{step['tool']}"
        return stop(state, "execution", reason, figures=figures, failed_step=step, observation=outcome.result)
    call = {"tool": step["tool"], "args": step["args"], "signature": checked.details["signature"]}
    return {
        "next_step": index + 1,
        "calls": [*calls, call],
        "trace": [trace_row(state, "execution", **figures)],
        "history": [history_row(state, "execution", plan_step=step, observation=outcome.result)],
    }


def _observations(state: State) -> list[dict[str, Any]]:
    return [
        {
            "step_id": row["plan_step"]["id"],
            "tool": row["plan_step"]["tool"],
            "observation": row["observation"],
        }
        for row in state.get("history") or []
        if row.get("phase") == "execution"
    ]


def combine(
    state: State, runtime: Ctx, *, llm: BaseChatModel, policy: rules.TaskDecompositionPolicy
) -> LLMSteps:
    policy = policy_for(runtime, policy)
    if out_of_time(state, policy):
        return stop(state, "finalize", "max_seconds")
    payload = {"role": "task_decomposition.combine", "goal": state["goal"], "history": _observations(state)}
    return (yield from COMBINE.ask(state, llm, policy, payload))


def finalize(state: State, runtime: Ctx, *, policy: rules.TaskDecompositionPolicy) -> dict:
    answer = state["answer"]
    evidence = [row["observation"] for row in _observations(state)]
    decision = rules.validate_answer(answer, evidence, policy_for(runtime, policy))
    if not decision.passed:
        return stop(
            state, "finalize", decision.reason, details=decision.details, answer=None, rejected_answer=answer
        )
    figures = {"answer_hash": text_hash(answer), "chars": len(answer)}
    return finish(state, "finalize", "summary_ready", answer, figures=figures, row={"answer": answer})
