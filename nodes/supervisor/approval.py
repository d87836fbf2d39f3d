"""The Supervisor's human approval: ``escalate`` records the step that asks, ``human_approval``
pauses with LangChain's HITL request (or lets the automatic approver answer) and turns the answer
into the action that runs, a refusal, or the question asked again with its problem.

Code before an ``interrupt`` re-runs on resume, so nothing here has a side effect: the approved
action runs in ``execute``."""

from __future__ import annotations

from typing import Any

from langgraph.types import interrupt

from nodes.clock import now
from nodes.run import policy_for
from nodes.supervisor import conversation as conv
from nodes.supervisor.gateway import Ctx, Hooks, Models, State, _figures, _refuse, _review_context
from nodes.trace import stop
from policies import supervisor as rules
from policies.human import parse_human_answer
from policies.json_safety import json_problem, type_name


def escalate(state: State) -> dict:
    """Write the approval request (and when it was raised: waiting time is not run time)."""
    request = rules.approval_request(
        state["action"],
        state["review"],
        run_id=state.get("run_id"),
        thread_id=state.get("thread_id"),
        step=state.get("steps"),
    )
    return {"approval_request": {**request, "requested_at": now()}}


def _ask(state: State, policy: rules.SupervisorPolicy, hooks: Hooks, models: Models) -> tuple[Any, ...]:
    """Ask until an answer can be applied, at most ``human_answer_attempts`` times (the automatic
    approver once): ``(answer, decision or None, answers given, last problem)``."""
    request = state["approval_request"]
    asked = {k: v for k, v in request.items() if k != "requested_at"}
    given: list[Any] = []
    problem = ""
    tries = 1 if policy.auto_approver_enabled else policy.human_answer_attempts
    for attempt in range(1, tries + 1):
        if policy.auto_approver_enabled:
            value = rules.auto_approve(request, policy.auto_approver_cap)
        else:
            value = interrupt(asked if attempt == 1 else {**asked, "problem": problem, "attempt": attempt})
        given.append(value)
        answer = parse_human_answer(value)
        if answer is None:
            problem = "not an answer: give approve, edit (edited_action.args) or reject (message)"
            continue
        if answer.type == "reject":
            return answer, None, given, ""
        context = _review_context(state, policy)
        decision = rules.approved_action(answer, state["action"], policy, context, hooks, models)
        if decision.passed:
            return answer, decision, given, ""
        problem = rules.edit_problem(decision)
    return None, None, given, problem


def human_approval(
    state: State, runtime: Ctx, *, policy: rules.SupervisorPolicy, hooks: Hooks, models: Models
) -> dict:
    """Pause for the human (or ask the automatic approver) and apply the answer. An answer that
    cannot be applied is asked again, with the problem, before the run gives up on it."""
    policy = policy_for(runtime, policy)
    answer, decision, given, problem = _ask(state, policy, hooks, models)
    by = "auto_approver" if policy.auto_approver_enabled else "human"
    paused = (
        0.0 if by == "auto_approver" else max(0.0, now() - float(state["approval_request"]["requested_at"]))
    )
    paused_total = float(state.get("paused_seconds") or 0.0) + paused
    if answer is None:
        last = given[-1]  # as given when the run can keep it, else what it was
        kept = (
            last
            if json_problem(last) is None
            else {"unreadable": type_name(last), "problem": json_problem(last)}
        )
        update = {"human_answer": kept, "paused_seconds": paused_total}
        if by == "human":
            update["human_approved"] = False
        details = {"problem": problem, "answers": len(given), "decided_by": by}
        stopped = stop(
            state,
            "human_approval",
            "invalid_human_answer",
            figures=_figures({**state, **update}, state["action"]),
            details=details,
            **update,
        )
        return conv.close_open_calls(state, stopped)
    row = {
        "type": answer.type,
        "message": answer.message,
        "decided_by": by,
        "answers": len(given),
        **answer.edits,
    }
    if decision is None:  # rejected
        update = {"human_answer": row, "paused_seconds": paused_total}
        if by == "human":
            update["human_approved"] = False
        return _refuse(
            state,
            policy,
            "human_approval",
            "human_rejected",
            by=by,
            action=state["action"],
            message=answer.message,
            update=update,
        )
    revised = decision.reason == "human_revised"  # by a human, or by the approver standing in for one
    executed_from = f"{by}_revised" if revised else state.get("executed_from")
    update = {
        "action": decision.details["action"],
        "executed_from": executed_from,
        "human_answer": row,
        "approved_by": by,
        "paused_seconds": paused_total,
    }
    if by == "human" and answer.type == "approve":  # one ask per task: the yes covers the same kind
        context, review = _review_context(state, policy), state["review"]
        grant = rules.grant_for(state["action"], review, context, policy, step=state.get("steps"))
        if grant is not None:
            update["grants"] = [*(state.get("grants") or []), grant]
            update["review"] = {**review, "grant": {k: grant[k] for k in ("step", "key")}}
    return {**update, "human_approved": True} if by == "human" else update
