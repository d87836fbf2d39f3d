"""Reflection nodes: LLM calls (draft, review, revise) and the gateway checks between them.

Each node returns a partial state update and never mutates its input. LLM nodes only store what
the model said; the gateway node after each decides whether it may be used.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import partial
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import BaseModel

from nodes.clock import out_of_time
from nodes.llm_json import LLMSteps
from nodes.run import LLMStep, check_reply, policy_for, start_run
from nodes.trace import finish, history_row, stop, trace_row
from policies import reflection as rules
from policies.human import parse_human_answer
from policies.text import text_hash

State = Mapping[str, Any]
Ctx = Runtime[rules.ReflectionPolicy]

DRAFT_SYSTEM = (
    "You write customer-facing incident updates. Use only facts from incident_context. Cover the "
    "current status, customer impact and next actions. Make no absolute guarantees. "
    'Reply with one JSON object: {"draft": "<text>"}.'
)
REVIEW_SYSTEM = (
    "You review a draft incident update once. Decide approve, revise or escalate. List issues "
    "(type from allowed_issue_types, note). For revise, give a fix plan whose items quote the exact "
    "phrases to change, e.g. \"Replace 'X' with 'Y'\". Escalate legal or policy risks with a "
    'reason. Reply with one JSON object: {"decision": ..., "issues": [{"type": ..., "note": ...}], '
    '"fix_plan": [...], "reason": ...}.'
)
REVISE_SYSTEM = (
    "You patch a draft. Apply only what the fix plan asks; change nothing else; add no new facts or "
    'numbers. Reply with one JSON object: {"revised_answer": "<text>"}.'
)
PATTERN_KEYS = (
    "draft",
    "raw_review",
    "review_decision",
    "issues",
    "fix_plan",
    "review_reason",
    "revised_answer",
    "human_answer",
    "escalation_reason",
    "review",
)


class DraftReply(BaseModel):
    draft: str


class ReviseReply(BaseModel):
    revised_answer: str


DRAFT = LLMStep("draft", DRAFT_SYSTEM, take="draft", contract=DraftReply)
REVIEW = LLMStep("review", REVIEW_SYSTEM, keep="raw_review", expect_object=False)
REVISE = LLMStep("revise", REVISE_SYSTEM, take="revised_answer", contract=ReviseReply)


def _check_input(state: State) -> str | None:
    goal = state.get("goal")
    if not isinstance(goal, str) or not goal.strip():
        return "invalid_input:goal"
    if not isinstance(state.get("incident_context"), dict):
        return "invalid_input:incident_context"
    return None


#: How a run of the pattern opens (:func:`nodes.run.start_run` with its keys, request and input check).
_open_run = partial(start_run, clear=PATTERN_KEYS, check_input=_check_input, request_key="goal")


def start(
    state: State,
    config: RunnableConfig,
    *,
    model: str,
    supersteps: int = 0,
    incident_context: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Open the run. ``incident_context`` is the graph's default incident for a run whose input
    (and thread) has none: a chat message carries only text."""
    default: dict[str, Any] = {}
    if state.get("incident_context") is None and incident_context is not None:
        default = {"incident_context": copy.deepcopy(dict(incident_context))}
    update = _open_run({**state, **default}, config, model=model, supersteps=supersteps)
    return {**default, **update}


def draft(state: State, runtime: Ctx, *, llm: BaseChatModel, policy: rules.ReflectionPolicy) -> LLMSteps:
    policy = policy_for(runtime, policy)
    payload = {
        "role": "reflection.draft",
        "goal": state["goal"],
        "incident_context": state["incident_context"],
        "max_draft_chars": policy.max_draft_chars,
    }
    return (yield from DRAFT.ask(state, llm, policy, payload))


def validate_draft(state: State, runtime: Ctx, *, policy: rules.ReflectionPolicy) -> dict:
    text = state["draft"]
    decision = rules.validate_draft(text, policy_for(runtime, policy))
    figures: dict[str, Any] = {"draft_hash": text_hash(text), "chars": len(text)}
    if not decision.passed:
        return stop(state, "draft", decision.reason, figures=figures, details=decision.details)
    return {
        "trace": [trace_row(state, "draft", **figures)],
        "history": [history_row(state, "draft", draft=text)],
    }


def review(state: State, runtime: Ctx, *, llm: BaseChatModel, policy: rules.ReflectionPolicy) -> LLMSteps:
    policy = policy_for(runtime, policy)
    if out_of_time(state, policy):
        return stop(state, "review", "max_seconds")
    payload = {
        "role": "reflection.review",
        "goal": state["goal"],
        "draft": state["draft"],
        "incident_context": state["incident_context"],
        "allowed_decisions": policy.allowed_review_decisions,
        "allowed_issue_types": policy.allowed_issue_types,
        "max_review_issues": policy.max_review_issues,
        "max_fix_items": policy.max_fix_items,
    }
    return (yield from REVIEW.ask(state, llm, policy, payload))


def validate_review(state: State, runtime: Ctx, *, policy: rules.ReflectionPolicy) -> dict:
    policy = policy_for(runtime, policy)
    decision, stopped = check_reply(state, "review", "raw_review", rules.validate_review, policy)
    if stopped:
        return stopped
    raw = state["raw_review"]
    issues, fix_plan = decision.details["issues"], decision.details["fix_plan"]
    reviewed = {"decision": decision.verdict, "issues": issues, "fix_plan": fix_plan}
    return {
        "review_decision": decision.verdict,
        "issues": issues,
        "fix_plan": fix_plan,
        "review_reason": decision.reason,
        "review": {**reviewed, "reason": decision.reason},
        "trace": [
            trace_row(
                state,
                "review",
                decision=decision.verdict,
                issue_count=len(issues),
                fix_item_count=len(fix_plan),
            )
        ],
        "history": [history_row(state, "review", proposed=raw, accepted=reviewed)],
    }


def escalate(state: State, runtime: Ctx, *, policy: rules.ReflectionPolicy) -> dict:
    """Stop with ``policy_escalation`` or, when the policy asks for it, pause for a human."""
    policy = policy_for(runtime, policy)
    reason = (state.get("review_reason") or "")[:120]
    if not policy.human_review_on_escalate:
        return stop(state, "review", "policy_escalation", escalation_reason=reason)
    request = {
        "kind": "reflection_escalation",
        "draft": state["draft"],
        "review": state.get("review"),
        "reason": reason,
        "allowed_answers": [
            {"type": "approve"},
            {"type": "edit", "answer": "<replacement text>"},
            {"type": "reject", "message": "<why>"},
        ],
    }
    answer = parse_human_answer(interrupt(request))
    row = history_row(state, "human_review", request=request, answer=answer and answer.type)
    if answer is None:
        return stop(state, "human_review", "invalid_human_answer", escalation_reason=reason)
    if answer.type == "reject":
        return {
            **stop(state, "human_review", "human_rejected", escalation_reason=reason),
            "history": [row],
        }
    text = answer.edits.get("answer") if answer.type == "edit" else state["draft"]
    if not isinstance(text, str):
        return stop(state, "human_review", "invalid_human_answer", escalation_reason=reason)
    return {"human_answer": text, "escalation_reason": reason, "history": [row]}


def revise(state: State, runtime: Ctx, *, llm: BaseChatModel, policy: rules.ReflectionPolicy) -> LLMSteps:
    policy = policy_for(runtime, policy)
    if out_of_time(state, policy):
        return stop(state, "revise", "max_seconds")
    payload = {
        "role": "reflection.revise",
        "draft": state["draft"],
        "issues": state["issues"],
        "fix_plan": state["fix_plan"],
        "max_answer_chars": policy.max_answer_chars,
    }
    return (yield from REVISE.ask(state, llm, policy, payload))


def validate_patch(state: State, runtime: Ctx, *, policy: rules.ReflectionPolicy) -> dict:
    revised, fix_plan = state["revised_answer"], state["fix_plan"]
    decision = rules.validate_patch(
        state["draft"], revised, fix_plan, state["incident_context"], policy_for(runtime, policy)
    )
    if not decision.passed:
        return stop(state, "revise", decision.reason, details=decision.details)
    figures = {
        "patch_similarity": decision.details["similarity"],
        "checks_enforced": decision.details["checks_enforced"],
        "revised_hash": text_hash(revised),
    }
    return {
        "trace": [trace_row(state, "revise", **figures)],
        "history": [history_row(state, "revise", fix_plan=fix_plan, revised_answer=revised)],
    }


def finalize(state: State, runtime: Ctx, *, policy: rules.ReflectionPolicy) -> dict:
    if state.get("human_answer") is not None:
        text, outcome = state["human_answer"], "approved_by_human"
    elif state.get("revised_answer") is not None:
        text, outcome = state["revised_answer"], "revised_once"
    else:
        text, outcome = state["draft"], "approved_direct"
    decision = rules.validate_answer(text, policy_for(runtime, policy))
    if not decision.passed:
        return stop(state, "finalize", decision.reason, details=decision.details)
    figures = {"final_hash": text_hash(text), "chars": len(text)}
    return finish(state, "finalize", outcome, text, figures=figures, row={"outcome": outcome, "answer": text})
