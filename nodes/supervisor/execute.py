"""Supervisor nodes: the gateway's execution of an approved call, and the final answer.

``execute`` is the only node with side effects (the node that pauses for a human is another:
code before an ``interrupt`` re-runs on resume); each side-effecting call carries an idempotency
key derived from the run and the action. ``finalize`` gives the approved answer, with a note on the
identifiers it carries from untrusted sources only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.types import interrupt

from nodes import stamps
from nodes.clock import out_of_time
from nodes.effects import (
    IN_DOUBT_DECISIONS,
    claim,
    effect_key,
    in_doubt_note,
    in_doubt_request,
    recorded_outcome,
    retaken,
    settle,
)
from nodes.journal import DONE, Journal
from nodes.messages import annotated
from nodes.run import policy_for
from nodes.supervisor import conversation as conv
from nodes.supervisor.gateway import Ctx, State, refuse_action, step_figures, subject_of
from nodes.tool_gateway import ToolOutcome, ToolRegistry, check_tool_call, error_observation, run_tool
from nodes.trace import finish, history_row, stop, trace_row
from policies import supervisor as rules
from policies.human import parse_human_answer
from policies.observation import audit_observation, observation_of
from policies.supervisor.provenance.ledger import ledger_entries, watched
from policies.supervisor.request.ownership import visible
from policies.tools import call_signature, is_error_observation


def _call_record(
    state: State,
    action: Mapping[str, Any],
    signature: str,
    key: str | None,
    outcome: ToolOutcome,
    policy: rules.SupervisorPolicy,
) -> dict[str, Any]:
    """One executed call as the run keeps it: what ran, what came of it (the result read as the
    middleware reads it: :func:`policies.observation.observation_of`, less another subject's
    records where the tool is ``owner_only``), who approved it."""
    observation = observation_of(outcome.result) if outcome.ok else error_observation(outcome)
    spec = policy.tools.get(action["name"])
    observation, withheld = visible(spec, observation, subject_of(state), action["args"])
    return {
        "step": state.get("steps"),
        "tool": action["name"],
        "args": action["args"],
        "signature": signature,
        "ok": outcome.ok and not is_error_observation(observation),
        "observation": observation,
        "executed_from": state.get("executed_from"),
        "approved_by": state.get("approved_by") or rules.APPROVED_BY_RULES,
        "human_approved": state.get("human_approved"),
        **{k: state[k] for k in ("reviewer", "account", "answered_at") if state.get(k) is not None},
        "idempotency_key": key,
        **({"withheld": withheld} if withheld else {}),
        # made already (another process, an earlier attempt): its recorded outcome, nothing ran
        **({"from_journal": True} if outcome.detail.get("from_journal") else {}),
    }


def execute(
    state: State,
    runtime: Ctx,
    *,
    policy: rules.SupervisorPolicy,
    tools: ToolRegistry,
    journal: Journal | None = None,
) -> dict:
    """Run the approved tool call through the gateway; record the observation. A side effect is
    claimed in the thread's journal first (:mod:`nodes.effects`): a call made already is not
    made again, one in doubt after a crash is put to a human."""
    policy = policy_for(runtime, policy)
    action = state["action"]
    name, args, figures = action["name"], action["args"], step_figures(state, action)
    spec = policy.tools.get(name)
    step = int(state.get("steps") or 0)
    key = _effect_key(state, step, name) if spec and spec.side_effect else None
    thread = str(state.get("thread_id") or "")
    # a call claimed before (a crash, a race) is reconciled, never dropped for the time it waited
    reconciling = bool(key and journal is not None and journal.get(thread, key))
    if out_of_time(state, policy) and not reconciling:
        return conv.close_open_calls(state, stop(state, "execution", "max_seconds", figures=figures))
    if approval_tampered(state):
        details = {"stamp": "approved"}
        stopped = stop(state, "execution", "approval_tampered", figures=figures, details=details)
        return conv.close_open_calls(state, stopped)
    calls = list(state.get("calls") or [])
    checked = check_tool_call(
        tools, name, args, limits=policy.gateway_limits(), specs=policy.tools, past_calls=calls
    )
    if not checked.passed:
        return refuse_action(
            state, policy, "execution", checked.reason, by="gateway", action=action, details=checked.details
        )
    outcome: ToolOutcome | None = None
    if key and journal is not None:
        claimed = _claimed(state, policy, tools, journal, key)
        if isinstance(claimed, dict):
            return claimed
        outcome = claimed
    if outcome is None:
        outcome = run_tool(tools, name, args, idempotency_key=key)
    call = _call_record(state, action, checked.details["signature"], key, outcome, policy)
    answer = _result_message(state, call)  # the whole observation: what the worker reads
    # the audit rows keep a large observation by reference (the conversation holds it once)
    kept = {**call, "observation": audit_observation(call["observation"], policy.max_audit_chars)}
    if not outcome.ok and policy.on_tool_error == "stop":  # the call is kept: it ran, or tried to
        details = outcome.detail
        stopped = stop(
            state, "execution", outcome.reason, figures=figures, details=details, calls=[*calls, kept]
        )
        return conv.close_open_calls(state, {**stopped, "messages": [*answer, *stopped["messages"]]})
    observation, ok = call["observation"], call["ok"]
    history = history_row(
        state,
        "execution",
        proposed_action=state.get("proposed_action"),
        reviews=state.get("reviews") or [],
        human_answer=state.get("human_answer"),
        approved_by=state.get("approved_by"),
        **{k: state[k] for k in ("reviewer", "account", "answered_at") if state.get(k) is not None},
        executed_action=action,
        executed_from=state.get("executed_from"),
        observation=kept["observation"],
    )
    row = trace_row(state, "execution", **figures, observation_ok=ok)
    if not outcome.ok:
        row["tool_error"] = outcome.reason
    if call.get("withheld"):
        row["withheld"] = call["withheld"]
    update = {"calls": [*calls, kept], "trace": [row], "history": [history], **conv.said(state, answer)}
    entries = ledger_entries(watched(policy), call, run_id=state.get("run_id"), step=state.get("steps"))
    if key and journal is not None and not outcome.detail.get("from_journal"):
        settle(journal, thread, key, ok=bool(call["ok"]), observation=observation, ledger=entries)
    return {**update, "ledger": [*(state.get("ledger") or []), *entries]} if entries else update


def approval_tampered(state: State) -> bool:
    """With ``$AGENT_PATTERNS_AUDIT_KEY``: a call asked about this step (its approval request) that
    is not the one stamped when it was approved (its checkpoint was changed since)."""
    request = state.get("approval_request")
    if not request:
        return False
    return stamps.tampered(
        request.get("approved_stamp"), *stamps.call_of(state["action"]), stamps.asked_key(request)
    )


def _effect_key(state: State, step: int, name: str) -> str:
    """The key of the step's side effect: its run, step and the action as the worker proposed it
    (an approval and an edit of one question are one call; the same proposal on a replayed or
    regenerated step is the same call)."""
    proposed = state.get("proposed_action") or state["action"]
    args = proposed.get("args") if isinstance(proposed.get("args"), dict) else {}
    return effect_key(state.get("run_id"), step, name, call_signature(str(proposed.get("name")), args))


def _claimed(
    state: State, policy: rules.SupervisorPolicy, tools: ToolRegistry, journal: Journal, key: str
) -> ToolOutcome | dict[str, Any] | None:
    """The journal's claim of the side effect about to run: None (run it), the outcome recorded
    for it (made already: not made again), or the run's update instead (made by another process
    now, or the thread changed since the review: a named stop; in doubt: a human's answer)."""
    action, thread = state["action"], str(state.get("thread_id") or "")
    name, args = action["name"], action["args"]
    tool = tools.get(name)
    claimed = claim(
        journal,
        thread,
        key,
        tool=name,
        args=args,
        run_id=state.get("run_id"),
        step=state.get("steps"),
        watch=watched(policy),
        keyed=bool(tool is not None and tool.takes_key),
        after=state.get("world_seq"),
    )
    if claimed.go == "run":
        return None
    if claimed.go == "ran":
        return recorded_outcome(claimed.effect)
    if claimed.go == "in_doubt":
        return in_doubt(state, journal, key, claimed.effect, tools)
    figures = {**step_figures(state, action), "idempotency_key": key}
    stopped = stop(
        state,
        "execution",
        "effect_in_progress" if claimed.go == "in_progress" else "thread_changed",
        figures=figures,
    )
    return conv.close_open_calls(state, stopped)


def in_doubt(
    state: State, journal: Journal, key: str, effect: Mapping[str, Any], tools: ToolRegistry
) -> ToolOutcome | None:
    """A keyless side effect that started in a process that died before recording how it ended:
    a human says whether it runs again (approve) or stands as made (reject, or respond with what
    they found); either way the audit and every limit count it."""
    thread = str(state.get("thread_id") or "")
    value = interrupt(
        in_doubt_request(state["action"], effect, run_id=state.get("run_id"), step=state.get("steps"))
    )
    answer = parse_human_answer(value, allowed=IN_DOUBT_DECISIONS)
    if answer is not None and answer.type == "approve":  # it did not run: run it now, claimed by
        again = retaken(journal, thread, key, effect)  # this process (it records how it ends)
        return recorded_outcome(again.effect) if again.go == "ran" else None
    note = in_doubt_note(answer)
    journal.finish(thread, key, DONE, {"ok": True, "observation": note, "ledger": effect.get("ledger") or []})
    return ToolOutcome(True, result=note, detail={"from_journal": True, "in_doubt": True})


def _result_message(state: State, call: Mapping[str, Any]) -> list[Any]:
    """The tool message answering the executed call (none for an action no call proposed)."""
    call_id = state.get("tool_call_id")
    if not call_id:
        return []
    content = conv.result_content(call, state.get("proposed_action"))
    return [conv.tool_message(call_id, call["tool"], content, ok=bool(call["ok"]))]


def finalize(state: State) -> dict:
    action = state["action"]
    answer = annotated(action["answer"], state.get("review") or {})
    row = {
        "proposed_action": state.get("proposed_action"),
        "reviews": state.get("reviews") or [],
        "executed_from": state.get("executed_from"),
        "answer": answer,
    }
    return finish(state, "final", "final_answer", answer, figures=step_figures(state, action), row=row)
