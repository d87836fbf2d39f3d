"""Supervisor nodes: the gateway's execution of an approved call, and the final answer.

``execute`` is the only node with side effects (the node that pauses for a human is another:
code before an ``interrupt`` re-runs on resume); each side-effecting call carries an idempotency
key derived from the run and the action. ``finalize`` gives the approved answer, with a note on the
identifiers it carries from untrusted sources only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nodes.clock import out_of_time
from nodes.messages import annotated, answer_message
from nodes.run import policy_for
from nodes.supervisor import conversation as conv
from nodes.supervisor.gateway import Ctx, State, _figures, _refuse, _subject
from nodes.tool_gateway import ToolOutcome, ToolRegistry, check_tool_call, error_observation, run_tool
from nodes.trace import history_row, stop, trace_row
from policies import supervisor as rules
from policies.observation import observation_of
from policies.ownership import visible
from policies.supervisor.ledger import ledger_entries, watched
from policies.tools import idempotency_key, is_error_observation


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
    observation, withheld = visible(spec, observation, _subject(state), action["args"])
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
        "idempotency_key": key,
        **({"withheld": withheld} if withheld else {}),
    }


def execute(state: State, runtime: Ctx, *, policy: rules.SupervisorPolicy, tools: ToolRegistry) -> dict:
    """Run the approved tool call through the gateway; record the observation."""
    policy = policy_for(runtime, policy)
    action = state["action"]
    name, args, figures = action["name"], action["args"], _figures(state, action)
    if out_of_time(state, policy):
        return conv.close_open_calls(state, stop(state, "execution", "max_seconds", figures=figures))
    calls = list(state.get("calls") or [])
    checked = check_tool_call(
        tools, name, args, limits=policy.gateway_limits(), specs=policy.tools, past_calls=calls
    )
    if not checked.passed:
        return _refuse(
            state, policy, "execution", checked.reason, by="gateway", action=action, details=checked.details
        )
    spec = policy.tools.get(name)
    step = int(state.get("steps") or 0)
    key = idempotency_key(str(state.get("run_id")), step, name, args) if spec and spec.side_effect else None
    outcome = run_tool(tools, name, args, idempotency_key=key)
    call = _call_record(state, action, checked.details["signature"], key, outcome, policy)
    answer = _result_message(state, call)
    if not outcome.ok and policy.on_tool_error == "stop":  # the call is kept: it ran, or tried to
        details = outcome.detail
        stopped = stop(
            state, "execution", outcome.reason, figures=figures, details=details, calls=[*calls, call]
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
        executed_action=action,
        executed_from=state.get("executed_from"),
        observation=observation,
    )
    row = trace_row(state, "execution", **figures, observation_ok=ok)
    if not outcome.ok:
        row["tool_error"] = outcome.reason
    if call.get("withheld"):
        row["withheld"] = call["withheld"]
    update = {"calls": [*calls, call], "trace": [row], "history": [history], **conv.said(state, answer)}
    entries = ledger_entries(watched(policy), call, run_id=state.get("run_id"), step=state.get("steps"))
    return {**update, "ledger": [*(state.get("ledger") or []), *entries]} if entries else update


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
        "messages": [answer_message(answer, status="ok", outcome="final_answer")],
        "phase": "final",
        "trace": [trace_row(state, "final", **_figures(state, action))],
        "history": [history],
    }
