"""The Supervisor's human approval: ``escalate`` records the step that asks, ``human_approval``
pauses with LangChain's HITL request (or lets the automatic approver answer) and turns the answer
into the action that runs, a refusal, or the question asked again with its problem.

Code before an ``interrupt`` re-runs on resume, so nothing here has a side effect: the approved
action runs in ``execute``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.types import interrupt

from nodes import stamps
from nodes.clock import iso_utc, now
from nodes.effects import ask_key, first_answer, world_ledger
from nodes.expiry import first_answer_at
from nodes.journal import Journal
from nodes.run import policy_for
from nodes.supervisor import conversation as conv
from nodes.supervisor.gateway import Ctx, Hooks, Models, State, refuse_action, review_context, step_figures
from nodes.trace import ANSWER_REFUSED, refused_answer, stop, trace_row
from policies import supervisor as rules
from policies.human import answer_reviewer_problem, parse_human_answer
from policies.json_safety import json_problem, type_name
from policies.supervisor.authority import expiry, reviewers
from policies.supervisor.authority.expiry import EXPIRED_REASON
from policies.supervisor.decide.cedar import answer_refused
from policies.supervisor.reading.words import RequestReader


def escalate(state: State, runtime: Ctx, *, policy: rules.SupervisorPolicy | None = None) -> dict:
    """Write the approval request (and when it was raised: waiting time is not run time), with its
    expiry where the policy sets one; a question asked again once it expired is a new round."""
    request = rules.approval_request(
        state["action"],
        state["review"],
        run_id=state.get("run_id"),
        thread_id=state.get("thread_id"),
        step=state.get("steps"),
    )
    asked_at = now()
    if policy is not None:
        policy = policy_for(runtime, policy)
        request = expiring_request(state, policy, request, asked_at)
        request = reviewers.with_signoff(
            request, reviewers.signoff_for(policy, state["action"], state.get("review")), policy
        )
    stamped = stamps.stamp(*stamps.call_of(state["action"]), stamps.asked_key(request))
    return {"approval_request": {**request, "requested_at": asked_at, **stamped}}


def ask_tampered(state: State) -> dict | None:
    """With ``$AGENT_PATTERNS_AUDIT_KEY``: the run stopped ``approval_tampered`` when the call that
    waits for an answer is not the one stamped when it was asked (its checkpoint was changed while
    it waited); else None."""
    request = state.get("approval_request") or {}
    if not stamps.tampered(request.get("stamp"), *stamps.call_of(state["action"]), stamps.asked_key(request)):
        return None
    figures = step_figures(state, state["action"])
    stopped = stop(state, "human_approval", "approval_tampered", figures=figures, details={"stamp": "asked"})
    return conv.close_open_calls(state, stopped)


def approved_stamp(state: State, action: dict) -> dict:
    """The approval request with the approved call's stamp (checked before it runs), or as it was
    without a key."""
    request = state["approval_request"]
    made = stamps.stamp(*stamps.call_of(action), stamps.asked_key(request))
    return {"approval_request": {**request, "approved_stamp": made["stamp"]}} if made else {}


def expiring_request(
    state: State, policy: rules.SupervisorPolicy, request: dict[str, Any], asked: float
) -> dict[str, Any]:
    """The request with its expiry (nothing added where the question never expires); the round
    after the last one where the question it replaces expired (:func:`late_answer`)."""
    before = state.get("approval_request") or {}
    round_ = int(before.get("round") or 1) + 1 if before.get("expired") else 1
    fields = expiry.expiry_fields(expiry.expiry_for(policy, state["action"]), asked, round_)
    return expiry.with_expiry(request, fields)


def late_answer(
    state: State, policy: rules.SupervisorPolicy, answer: Any, answered: float, paused: float
) -> dict[str, Any] | None:
    """An answer given after its question expired: not applied. ``reject`` (or a late rejection):
    the call is refused, ``approval_expired``; ``ask_again``: back to ``escalate``, which asks it
    again with a fresh expiry. Either way a trace row says so, with the late answer and its
    reviewer. None where the answer was in time (or the question never expires)."""
    by = "human"
    request, action = state["approval_request"], state["action"]
    rule = expiry.asked_with(request)  # as the question said, whatever policy the run resumed under
    asked = float(request["requested_at"])
    if not expiry.is_late(rule, asked, answered):
        return None
    outcome = expiry.late_outcome(rule, answer.type)
    figures = expiry.late_figures(action, answer, asked, answered, rule)
    paused_total = float(state.get("paused_seconds") or 0.0) + paused
    row = trace_row({**state, "paused_seconds": paused_total}, expiry.EXPIRED_PHASE, ok=False, **figures)
    said = {"answered_at": figures["answered_at"]}
    if answer.reviewer is not None:
        said["reviewer"] = answer.reviewer
    if answer.account is not None:
        said["account"] = answer.account
    if outcome == "ask_again":
        expired = {**request, "expired": True}
        return {"approval_request": expired, "paused_seconds": paused_total, "trace": [row], **said}
    update = {
        "human_answer": {"type": answer.type, "message": answer.message, "expired": True, "decided_by": by},
        "human_approved": False,
        "paused_seconds": paused_total,
        **said,
    }
    state = {**state, "trace": [*(state.get("trace") or []), row]}
    message = expiry.expired_message(figures)
    refused = refuse_action(
        state,
        policy,
        "human_approval",
        EXPIRED_REASON,
        by="human",
        action=action,
        message=message,
        update=update,
    )
    return {**refused, "trace": [row, *(refused.get("trace") or [])]}


def _ask(
    state: State,
    policy: rules.SupervisorPolicy,
    hooks: Hooks,
    models: Models,
    journal: Journal | None = None,
    reader: RequestReader | None = None,
) -> tuple[Any, ...]:
    """Ask until an answer can be applied, at most ``human_answer_attempts`` times (the automatic
    approver once): ``(answer, decision or None, answers given, the problem of each refused one,
    the figures of each approval kept while more were needed, by the answer's index)``. An answer
    from a reviewer who may not answer (:mod:`policies.supervisor.authority.reviewers`), and an approval that
    is not yet the last, keep the call waiting without counting toward the attempts.
    With a journal, the first answer to each question wins: a second process resuming the same
    question with another answer applies the first (:func:`nodes.effects.first_answer`)."""
    request, thread = state["approval_request"], str(state.get("thread_id") or "")
    asked = {k: v for k, v in request.items() if k not in ("requested_at", "stamp", "approved_stamp")}
    given: list[Any] = []
    problems: list[str] = []
    counted: dict[int, dict[str, Any]] = {}
    approved_by: list[str] = []
    accounts: list[str | None] = []  # the accounts of the approvals kept (four-eyes)
    signoff = reviewers.sealed(request, policy, state["action"])  # as asked, whatever policy resumes
    tries = 1 if policy.auto_approver_enabled else policy.human_answer_attempts
    failed = 0
    while failed < tries:
        attempt = len(given) + 1
        if policy.auto_approver_enabled:
            value = rules.auto_approve(request, policy.auto_approver_cap)
        else:
            problem = {"problem": problems[-1], "attempt": attempt} if problems else {}
            waiting = {"approved_by": list(approved_by)} if approved_by else {}
            question = {**asked, **problem, **waiting}
            value = first_answer(journal, thread, ask_key(question), interrupt(question))
        given.append(value)
        answer = parse_human_answer(value)
        if answer is None:
            named = answer_reviewer_problem(value)
            problems.append(
                f"not an answer: {named}"
                if named
                else "not an answer: give approve, edit (edited_action.args) or reject (message)"
            )
            failed += 1
            continue
        if not policy.auto_approver_enabled and _late(request, answered_time(state, journal, attempt, value)):
            return answer, None, given, problems, counted  # not applied, whoever gave it: expiry decides
        refusal = (
            None
            if policy.auto_approver_enabled
            else reviewers.answer_refusal(answer, signoff, policy, approved_by, accounts)
            or answer_refused(policy, state["action"], answer, models)
        )
        if refusal is not None:  # the call stays waiting for a reviewer who may answer
            problems.append(refusal)
            continue
        if answer.type == "reject":
            return answer, None, given, problems, counted
        world = world_ledger(journal, str(state.get("thread_id") or ""))
        context = review_context(state, policy, world, reader)
        decision = rules.approved_action(answer, state["action"], policy, context, hooks, models)
        auto = policy.auto_approver_enabled
        if decision.passed and not auto and reviewers.needs_more(signoff, [*approved_by, answer.reviewer]):
            approved_by.append(str(answer.reviewer))  # kept; the call waits for the next reviewer
            accounts.append(answer.account)
            note = reviewers.waiting_note(signoff, approved_by)
            at = expiry.iso(answered_time(state, journal, attempt, value))
            counted[len(given) - 1] = reviewers.counted_figures(state["action"], answer, at, note)
            problems.append(note)
            continue
        if decision.passed:
            return answer, decision, given, problems, counted
        problems.append(rules.edit_problem(decision))
        failed += 1
    return None, None, given, problems, counted


def _late(request: Mapping[str, Any], answered: float) -> bool:
    """Was a question (as it was asked) answered after it expired?"""
    asked = request.get("requested_at")
    return isinstance(asked, int | float) and expiry.is_late(
        expiry.asked_with(request), float(asked), answered
    )


def answered_time(state: State, journal: Journal | None, attempt: int, value: Any) -> float:
    """When the answer applied now was given: the time the thread's journal stored it first (the
    same in every run of the node), else now."""
    asked = {k: v for k, v in state["approval_request"].items() if k != "requested_at"}
    key = ask_key({**asked, "attempt": attempt})
    return first_answer_at(journal, str(state.get("thread_id") or ""), key, value)[1]


def _refused_rows(
    state: State,
    given: list[Any],
    problems: list[str],
    by: str,
    counted: dict[int, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """A trace row for each answer that could not be applied, in the order they were given (an
    approval kept while more were needed: its own row, with its reviewer and time)."""
    rows: list[dict[str, Any]] = []
    for number, problem in enumerate(problems, start=1):
        so_far = {**state, "trace": [*(state.get("trace") or []), *rows]}
        kept = (counted or {}).get(number - 1)
        if kept is not None:
            rows.append(trace_row(so_far, reviewers.APPROVAL_COUNTED, ok=True, **kept))
            continue
        figures = refused_answer(state["action"], number, given[number - 1], problem, by)
        rows.append(trace_row(so_far, ANSWER_REFUSED, ok=False, **figures))
    return rows


def _with_rows(rows: list[dict[str, Any]], update: dict[str, Any]) -> dict[str, Any]:
    """``update`` with the refused answers' rows before its own trace rows."""
    return {**update, "trace": [*rows, *(update.get("trace") or [])]} if rows else update


def human_approval(
    state: State,
    runtime: Ctx,
    *,
    policy: rules.SupervisorPolicy,
    hooks: Hooks,
    models: Models,
    journal: Journal | None = None,
    reader: RequestReader | None = None,
) -> dict:
    """Pause for the human (or ask the automatic approver) and apply the answer. An answer that
    cannot be applied is asked again, with the problem, before the run gives up on it."""
    policy = policy_for(runtime, policy)
    tampered = ask_tampered(state)
    if tampered is not None:
        return tampered
    answer, decision, given, problems, counted = _ask(state, policy, hooks, models, journal, reader)
    by = "auto_approver" if policy.auto_approver_enabled else "human"
    refused = _refused_rows(state, given, problems, by, counted)
    state = {**state, "trace": [*(state.get("trace") or []), *refused]} if refused else state
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
        details = {"problem": problems[-1], "answers": len(given), "decided_by": by}
        stopped = stop(
            state,
            "human_approval",
            "invalid_human_answer",
            figures=step_figures({**state, **update}, state["action"]),
            details=details,
            **update,
        )
        return _with_rows(refused, conv.close_open_calls(state, stopped))
    if by == "human":
        answered = answered_time(state, journal, len(given), given[-1])
        late = late_answer(state, policy, answer, answered, paused)
        if late is not None:
            return _with_rows(refused, late)
    # who answered and when (a human's answer only; a reviewer the answer does not name is absent)
    said = {"answered_at": iso_utc()} if by == "human" else {}
    if by == "human" and answer.reviewer is not None:
        said["reviewer"] = answer.reviewer
    if by == "human" and answer.account is not None:
        said["account"] = answer.account
    row = {
        "type": answer.type,
        "message": answer.message,
        "decided_by": by,
        "answers": len(given),
        **answer.edits,
    }
    if decision is None:  # rejected
        update = {"human_answer": row, "paused_seconds": paused_total, **said}
        if by == "human":
            update["human_approved"] = False
        rejected = refuse_action(
            state,
            policy,
            "human_approval",
            "human_rejected",
            by=by,
            action=state["action"],
            message=answer.message,
            update=update,
        )
        return _with_rows(refused, rejected)
    revised = decision.reason == "human_revised"  # by a human, or by the approver standing in for one
    executed_from = f"{by}_revised" if revised else state.get("executed_from")
    update = {
        "action": decision.details["action"],
        "executed_from": executed_from,
        "human_answer": row,
        "approved_by": by,
        "paused_seconds": paused_total,
        **said,
        **approved_stamp(state, decision.details["action"]),
    }
    if by == "human" and answer.type == "approve":  # one ask per task: the yes covers the same kind
        context, review = review_context(state, policy, reader=reader), state["review"]
        grant = rules.grant_for(state["action"], review, context, policy, step=state.get("steps"))
        if grant is not None:
            update["grants"] = [*(state.get("grants") or []), grant]
            update["review"] = {**review, "grant": {k: grant[k] for k in ("step", "key")}}
    return _with_rows(refused, {**update, "human_approved": True} if by == "human" else update)
