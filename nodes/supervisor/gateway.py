"""Supervisor nodes: the worker's proposal, its validation, the supervisor's review, the human
approval, the gateway's execution, and the refusal that is fed back to the worker.

The node that pauses for a human (``human_approval``) is not the node that executes: code before an
``interrupt`` re-runs on resume, so side effects live only in ``execute``, and each side-effecting
call carries an idempotency key derived from the run and the action.

A refused action (its arguments refused, blocked by the supervisor, rejected by a human, denied by
the gateway) ends the run under ``on_refusal: stop``; under ``feedback`` the node that refused it
writes ``refusal``, and ``refuse`` records it and hands it to the worker as the step's observation.

The worker speaks one of two protocols (the policy's ``worker_protocol``): JSON actions in text,
or the model's native tool calling, whose replies may carry several calls; the worker hands them
to the gateway one at a time (``pending_calls``): the worker node is :mod:`nodes.supervisor.worker`.
What each node says in the conversation (the tool calls, their results and refusals) is
:mod:`nodes.supervisor.conversation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from nodes.effects import merged, world_ledger
from nodes.journal import Journal
from nodes.run import policy_for, start_run
from nodes.steps import superstep
from nodes.supervisor import conversation as conv
from nodes.trace import history_row, review_figures, stop, trace_row
from policies import supervisor as rules
from policies.json_safety import json_problem
from policies.schemas import ArgsModel
from policies.supervisor.reading.words import RequestReader
from policies.supervisor.request.subject import bound_arg_names, thread_subject
from policies.text import json_hash

State = Mapping[str, Any]
Ctx = Runtime[rules.SupervisorPolicy]
Hooks = Mapping[str, rules.CustomRule]
Models = Mapping[str, ArgsModel | None]

WORKER_SYSTEM = (
    "You are an operations worker. Propose exactly one next action as JSON: either "
    '{"kind": "tool", "name": <tool>, "args": {...}} using only the listed tools and arguments that '
    'fit their JSON Schema, or {"kind": "final", "answer": <short answer>} once the task is done. '
    "Use the observations in history; never invent results. A supervisor reviews every action; an "
    "observation with refused=true means that action was refused: do not propose it again."
)
#: Keys of one worker step, cleared when the worker proposes the next action.
STEP_KEYS = (
    "action",
    "review",
    "reviews",
    "revisions",
    "approval_request",
    "human_answer",
    "human_approved",
    "approved_by",
    "reviewer",
    "account",
    "answered_at",
    "refusal",
    "tool_call_id",
)
PATTERN_KEYS = (
    "steps",
    "calls",
    "refusals",
    "raw_action",
    "proposed_action",
    "executed_from",
    "paused_seconds",
    "first_step",
    "pending_calls",
    "run_subject",
    "worker_protocol",
    "grants",
    *STEP_KEYS,
)


def _check_input(state: State) -> str | None:
    goal = state.get("goal")
    if not isinstance(goal, str) or not goal.strip():
        return "invalid_input:goal"
    subject = state.get("subject")
    if subject is not None and (not isinstance(subject, dict) or json_problem(subject) is not None):
        return "invalid_input:subject"
    return None


#: How a run of the pattern opens (:func:`nodes.run.start_run` with its keys, request and input check).
_open_run = partial(start_run, clear=PATTERN_KEYS, check_input=_check_input, request_key="goal")


def subject_of(state: State) -> dict[str, Any]:
    """The run's subject (``run_subject``; a run checkpointed before it was kept: ``subject``)."""
    subject = state.get("run_subject")
    return dict((state.get("subject") if subject is None else subject) or {})


def review_context(
    state: State,
    policy: rules.SupervisorPolicy,
    world: list[dict[str, Any]] | None = None,
    reader: RequestReader | None = None,
    models: Models | None = None,
) -> rules.ReviewContext:
    """What the review reads; ``world``: the thread's journal's ledger entries (what ran, or may
    have run, in any process or branch), counted beside the state's own; ``reader``: how the
    user's turn (``goal``, the user's words only) is read into mandates (None: the grammar);
    ``models``: the tools' argument models (their types are what a Cedar policy reads)."""
    return rules.ReviewContext(
        tuple(conv.calls_whole(state)),  # a large observation: whole, from the conversation
        subject_of(state),
        str(state.get("goal") or ""),
        frozenset(policy.trusted_tools()),
        tuple(policy.constants()),
        grants=tuple(state.get("grants") or ()),
        ledger=merged(state.get("ledger") or (), world or []),
        reader=reader,
        arg_schemas=rules.tool_schemas(models) if policy.cedar is not None and models else {},
    )


def _run_subject(state: State, update: State, policy: rules.SupervisorPolicy) -> dict[str, Any]:
    """Whom the run acts for, bound once per thread
    (:func:`policies.supervisor.request.subject.thread_subject`): the input's ``subject``; else the subject an
    earlier run of the thread acted for; else the one this run's request names (``user_id=42`` for a bound
    ``user_id``); else none (a tool whose arguments are bound is then refused: ``subject_unbound:<arg>``)."""
    given = state.get("subject")
    request = update.get("goal", state.get("goal"))  # the conversation's turn, else the input's goal
    return thread_subject(
        given if isinstance(given, dict) else None,
        state.get("run_subject") if isinstance(state.get("run_subject"), dict) else None,
        request if isinstance(request, str) else None,
        bound_arg_names(policy),
    )


def start(
    state: State,
    config: RunnableConfig,
    runtime: Ctx,
    *,
    model: str,
    tool_calling: bool,
    policy: rules.SupervisorPolicy,
) -> dict[str, Any]:
    policy = policy_for(runtime, policy)
    update = _open_run(state, config, model=model, supersteps=1)
    first = superstep(config)
    run = {
        "steps": 0,
        "calls": [],
        "refusals": [],
        "paused_seconds": 0.0,
        "grants": [],
        "first_step": first,
        "worker_protocol": conv.worker_protocol(policy.worker_protocol, tool_calling),
        "run_subject": _run_subject(state, update, policy),
        **conv.reset_conversation(state),
    }
    return {**update, **run}


def step_figures(state: State, action: Mapping[str, Any] | None) -> dict[str, Any]:
    """The audit figures of a step: tool, args hash, the supervisor's decision and reason (with
    the deciding rule's details: :func:`nodes.trace.review_figures`, as the middleware writes
    them), where the action came from, and who approved it."""
    action = action or {}
    review = state.get("review") or {}
    figures: dict[str, Any] = {
        "tool": action.get("name", "final") if action.get("kind") != "final" else "final",
        "args_hash": json_hash(action.get("args", {})),
        # a step refused before the supervisor's review (by the action contract) says so
        "decision": review.get("decision") or "refused",
        "review_reason": review.get("reason"),
        "executed_from": state.get("executed_from"),
        **review_figures(review),
    }
    for key in ("approved_by", "human_approved", "reviewer", "account", "answered_at"):
        if state.get(key) is not None:
            figures[key] = state[key]
    return figures


def refuse_action(
    state: State,
    policy: rules.SupervisorPolicy,
    phase: str,
    reason: str,
    *,
    by: str,
    action: Mapping[str, Any] | None,
    message: str = "",
    update: Mapping[str, Any] | None = None,
    **diagnostics: Any,
) -> dict[str, Any]:
    """A refused action: the run stops with ``reason`` (``on_refusal: stop``, a reason that is no
    refusal of one action, or ``max_refusals`` spent), or the refusal is handed to ``refuse``.
    ``update`` holds the step's keys written either way (the review, the human's answer...)."""
    view = {**state, **(update or {})}
    figures = step_figures(view, action)
    done = len(state.get("refusals") or [])
    ends = policy.on_refusal == "stop" or not rules.is_refusal(reason)
    if ends or done >= policy.max_refusals:
        if not ends:
            figures, reason = {**figures, "refused": reason, "refusals": done}, "max_refusals"
        history = _refusal_history(view, action, by, reason, message, diagnostics.get("details"))
        stopped = stop(view, phase, reason, figures=figures, **(update or {}), **diagnostics)
        return conv.close_open_calls(state, {**stopped, "history": [history]})
    refusal = {"phase": phase, "reason": reason, "by": by, "action": action, "message": message}
    return {**(update or {}), "refusal": {**refusal, "details": diagnostics.get("details") or {}}}


def _refusal_history(
    state: State, action: Mapping[str, Any] | None, by: str, reason: str, message: str, details: Any
) -> dict[str, Any]:
    """The history row of a refused step: what was proposed, the reviews, the human's answer, the
    refused action, by whom, why."""
    return history_row(
        state,
        "refused",
        proposed_action=state.get("proposed_action"),
        reviews=state.get("reviews") or [],
        human_answer=state.get("human_answer"),
        refused_action=dict(action) if action else None,
        refused_by=by,
        reason=reason,
        message=message,
        details=details or {},
        **{k: state[k] for k in ("reviewer", "account", "answered_at") if state.get(k) is not None},
    )


def readable_proposal(raw: Any) -> dict[str, Any] | None:
    """What a reply that failed the contract proposed, as far as it can be read (for the record)."""
    if not isinstance(raw, dict) or raw.get("kind") != "tool" or not isinstance(raw.get("name"), str):
        return None
    args = raw.get("args")
    return {"kind": "tool", "name": raw["name"], "args": args if isinstance(args, dict) else {}}


def validate_action(state: State, runtime: Ctx, *, policy: rules.SupervisorPolicy, models: Models) -> dict:
    policy = policy_for(runtime, policy)
    raw = state["raw_action"]
    decision = rules.validate_action(raw, policy, models)
    if not decision.passed:
        action = readable_proposal(raw)
        return refuse_action(
            state,
            policy,
            "validate",
            decision.reason,
            by="contract",
            action=action,
            raw_action=raw,
            details=decision.details,
        )
    action = decision.details["action"]
    return {"proposed_action": action, "action": action, "executed_from": "original", "revisions": 0}


def review(
    state: State,
    runtime: Ctx,
    *,
    policy: rules.SupervisorPolicy,
    hooks: Hooks,
    journal: Journal | None = None,
    reader: RequestReader | None = None,
    models: Models | None = None,
) -> dict:
    """The supervisor's review of the action, against the thread's ledger as the journal holds it
    (``world_seq``: how far the journal was read, so that the call's claim sees what changed)."""
    policy = policy_for(runtime, policy)
    thread = str(state.get("thread_id") or "")
    world = world_ledger(journal, thread)
    seen = {"world_seq": journal.high_water(thread)} if journal is not None and thread else {}
    action = state["action"]
    earlier = rules.refused_before(action, state.get("refusals") or [])
    if earlier is not None:
        row = {"decision": "block", "reason": "refused_before", "refused_at_step": earlier.get("step")}
        again = {"review": row, "reviews": [*(state.get("reviews") or []), row]}
        reason, message = str(earlier["reason"]), str(earlier.get("message") or "")
        # the supervisor refuses the repeat (review_reason refused_before); no human saw this step
        return refuse_action(
            state, policy, "review", reason, by="supervisor", action=action, message=message, update=again
        )
    decision = rules.review_action(
        action, review_context(state, policy, world, reader, models), policy, hooks
    )
    row = rules.review_row(decision)
    update: dict[str, Any] = {"review": row, "reviews": [*(state.get("reviews") or []), row], **seen}
    if decision.verdict == "approve":  # the rules approved it, or a human's yes earlier in the run covers it
        update["approved_by"] = rules.approver(decision.details)
    if decision.verdict == "block":
        reason = f"supervisor_block:{decision.reason}"
        return refuse_action(state, policy, "review", reason, by="supervisor", action=action, update=update)
    if decision.verdict == "revise" and int(state.get("revisions") or 0) >= policy.max_revisions_per_action:
        reason = "supervisor_block:revision_limit"
        return refuse_action(state, policy, "review", reason, by="supervisor", action=action, update=update)
    return update


def revise_action(state: State) -> dict:
    """Take the supervisor's revised action; it is reviewed again before anything runs."""
    return {
        "action": state["review"]["action"],
        "executed_from": "supervisor_revised",
        "revisions": int(state.get("revisions") or 0) + 1,
    }


def refuse(state: State) -> dict:
    """Record a refused action and give it to the worker as the step's observation."""
    refusal = state["refusal"]
    action = refusal.get("action") or {}
    proposals = [a for a in (state.get("proposed_action"), action) if a]
    signatures = sorted({rules.action_signature(a) for a in proposals})
    by, reason, message = refusal["by"], refusal["reason"], refusal.get("message") or ""
    observation = {"refused": True, "by": by, "reason": reason, **({"message": message} if message else {})}
    flow = (state.get("review") or {}).get("flow") if by in ("supervisor", "human") else None
    observation |= {"flow": flow} if flow else {}
    record = {
        "step": state.get("steps"),
        "tool": action.get("name", "final") if action else None,
        "args": action.get("args") if action else None,
        "ok": False,
        "by": by,
        "reason": reason,
        "message": message,
        "signatures": signatures,
        "observation": observation,
        **(
            {k: state[k] for k in ("reviewer", "account", "answered_at") if state.get(k) is not None}
            if by == "human"
            else {}
        ),
    }
    history = _refusal_history(state, action, by, reason, message, refusal.get("details"))
    row = trace_row(state, "refused", ok=False, **step_figures(state, action), refused=reason, refused_by=by)
    update = {"refusals": [*(state.get("refusals") or []), record], "trace": [row], "history": [history]}
    return {**update, **_refusal_words(state, refusal), "pending_calls": []}


def _refusal_words(state: State, refusal: Mapping[str, Any]) -> dict[str, Any]:
    """The refusal in the conversation: an error tool message answering the refused call, and one
    for each later call of its reply, which is not run; a refused final answer, the supervisor's
    word (:func:`nodes.supervisor.conversation.refused_final_messages`)."""
    content = conv.refusal_content(refusal, state.get("review"))
    call_id = state.get("tool_call_id")
    if not call_id:
        return conv.refused_final_messages(state, content)
    name = (refusal.get("action") or {}).get("name")
    answer = conv.tool_message(call_id, name, content, ok=False)
    why = f"an earlier call of this reply ({name}, {call_id}) was refused: {refusal['reason']}"
    return conv.said(state, [answer, *conv.not_run(conv.open_calls(state, [answer]), why)])
