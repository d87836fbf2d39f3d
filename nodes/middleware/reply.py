"""The state update of one reviewed model reply: the plan of the calls that run (read back when
each runs), a ``ToolMessage`` for each call that does not (refused: ``status="error"`` carrying the
refusal; answered by the reviewer; deferred; not run because the run stopped), the audit rows, and
the named stop that ends the run."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from nodes import stamps
from nodes.effects import effect_key
from nodes.messages import stop_message
from nodes.middleware.decide import Batch, Verdict
from nodes.middleware.state import audit, clock, figures, of_run, run_id_of, trace_row
from nodes.middleware.turns import feedback_turn
from nodes.trace import ANSWER_REFUSED
from policies import supervisor as rules
from policies.tools import call_signature

#: The name of the human message that tells the model its final answer was refused (a final answer
#: has no tool call to answer); never read as the user's request.
FEEDBACK_NAME = "supervisor"
#: Who answers an escalation: a stop they made is in phase ``human_approval``.
HUMANS = ("human", "auto_approver")


def unique_calls(message: AIMessage) -> tuple[AIMessage, bool]:
    """The reply with an id of its own for each tool call (a missing or repeated id gets one made
    from the call's place in the reply), so each call has its own plan and its own answer; and
    whether any id changed."""
    taken: set[str] = set()
    changed = False
    fixed: list[Any] = []
    for index, call in enumerate([*message.tool_calls, *message.invalid_tool_calls]):
        given = call.get("id")
        call_id = given if isinstance(given, str) and given and given not in taken else ""
        if not call_id:
            base, n = f"{given or 'call'}_{index}", 0
            while (call_id := base if n == 0 else f"{base}_{n}") in taken:
                n += 1
            changed = True
        taken.add(call_id)
        fixed.append({**call, "id": call_id})
    if not changed:
        return message, False
    count = len(message.tool_calls)
    update = {"tool_calls": fixed[:count], "invalid_tool_calls": fixed[count:]}
    return message.model_copy(update=update), True


def feedback_message(content: Any) -> HumanMessage:
    """A refused final answer, told to the model as the Supervisor graph's worker is told (a turn
    of the gateway's, with an id the middleware records as seen: never the user's request)."""
    return feedback_turn(json.dumps(content, ensure_ascii=False, default=str), FEEDBACK_NAME)


def asks_again(state: Mapping[str, Any]) -> bool:
    """Did this run's last review refuse the final answer and tell the model why (the model is
    asked again, from ``after_agent``: a jump written in the model's node would be lost behind
    another middleware's ``after_model``)? Only the gateway's own feedback, last in the
    conversation of a run that has not stopped, counts."""
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if state.get("governance_stop_reason") or not isinstance(last, HumanMessage):
        return False
    if last.name != FEEDBACK_NAME:
        return False
    refused = of_run(state.get("governance_refusals"), run_id_of(state))
    return bool(refused) and refused[-1].get("tool") == "final"


def who(verdict: Verdict, executed_from: str | None = None) -> dict[str, Any]:
    """Where an approved action came from and who approved it."""
    return {
        "executed_from": executed_from or verdict.executed_from,
        "approved_by": verdict.approved_by,
        "human_approved": verdict.human_approved,
        "reviewer": verdict.reviewer,
        "account": verdict.account,
        "answered_at": verdict.answered_at,
    }


def plan_for(
    run: Mapping[str, Any],
    policy: rules.SupervisorPolicy,
    verdict: Verdict,
    executed_from: str | None = None,
    *,
    proposed: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The plan of an approved call, read back when it runs: what may run (tool, arguments, the
    call as the model proposed it is added by the caller), its idempotency key (the ask's: its
    run, step and the call as the model ``proposed`` it, never the arguments approved, so an
    approval and an edit of one question are one call, and the same proposal made again on a
    regenerated reply is the same call), its audit figures and who approved it."""
    action = verdict.action or {}
    name, args = action["name"], action["args"]
    spec = policy.tools.get(name)
    side = spec is not None and spec.side_effect
    step = int(run.get("steps") or 0)
    signature = verdict.signature or call_signature(name, args)
    key = (
        effect_key(run.get("run_id"), step, name, _proposed_signature(name, args, signature, proposed))
        if side
        else None
    )
    came = who(verdict, executed_from)
    plan = {
        "run_id": run.get("run_id"),
        "step": run.get("steps"),
        "tool": name,
        "args": args,
        "signature": signature,
        "idempotency_key": key,
        "figures": figures(action, verdict.review, **came),
        **came,
    }
    return stamps.stamped_here(plan, name, args, plan_ask(plan))


def _proposed_signature(
    name: str, args: Mapping[str, Any], signature: str, proposed: Mapping[str, Any] | None
) -> str:
    """The signature of the call as the model proposed it: the approved call's own where the
    proposal is that very call (not hashed again)."""
    if proposed is None or (proposed.get("name") == name and _same(proposed.get("args"), args)):
        return signature
    asked_args = proposed.get("args")
    return call_signature(str(proposed.get("name")), asked_args if isinstance(asked_args, dict) else {})


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same types throughout (``1`` is not ``1.0``: they hash apart)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def plan_ask(plan: Mapping[str, Any]) -> list[Any]:
    """What a plan's stamp binds its call to: its run, step and idempotency key."""
    return [plan.get("run_id"), plan.get("step"), plan.get("idempotency_key")]


def plan_tampered(plan: Mapping[str, Any]) -> bool:
    """With ``$AGENT_PATTERNS_AUDIT_KEY``: a plan (the call approved to run, as the review left it in
    state) that is not the one stamped when it was made (its checkpoint was changed since)."""
    return stamps.tampered(plan.get("stamp"), plan.get("tool"), plan.get("args"), plan_ask(plan), holder=plan)


def tool_message(call: Mapping[str, Any], content: Any, *, error: bool) -> ToolMessage:
    text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, default=str)
    return ToolMessage(
        content=text,
        name=str(call.get("name")),
        tool_call_id=str(call.get("id")),
        status="error" if error else "success",
    )


class Reply:
    """Collects what becomes of each call of one model reply, in order.

    The rule for several calls in one reply: each is decided in order, against what ran before the
    reply (a call cannot depend on the result of another of the same reply). At most one
    side-effecting call runs per reply: the calls after it are deferred (told to propose them
    again), so caps, cumulative thresholds and preconditions see each side effect before the next.
    A refusal does not hold the others back; a stop ends the run and none of the rest runs."""

    def __init__(self, run: dict[str, Any], batch: Batch) -> None:
        self.run, self.batch, self.policy = run, batch, batch.policy
        self._paused_before = run.get("paused_seconds")
        self.messages: list[Any] = []
        self.plan: dict[str, Any] = {}
        self.trace: list[dict[str, Any]] = []
        self.refusals: list[dict[str, Any]] = []
        self.stop_reason: str | None = None
        #: what the run stopped on, where the stop names it (a human's answer that cannot be applied)
        self.stop_problem: str | None = None
        self.after_side_effect: str | None = None

    def answers_refused(self) -> None:
        """The rows of the answers to an escalation that could not be applied (asked again, or the
        run stopped), before the row of what came of the call."""
        for row in self.batch.refused_answers:  # an answer given too late says so (its phase)
            figures = {k: v for k, v in row.items() if k not in ("phase", "ok")}
            ok = bool(row.get("ok", False))  # an approval kept while more are needed (four-eyes)
            self.trace.append(trace_row(self.run, row.get("phase", ANSWER_REFUSED), ok=ok, **figures))
        self.batch.refused_answers.clear()

    def take(self, call: Mapping[str, Any], verdict: Verdict) -> None:
        self.answers_refused()
        self.run["paused_seconds"] = float(self.run.get("paused_seconds") or 0.0) + verdict.paused
        if verdict.kind == "run":
            self._plan(call, verdict)
        elif verdict.kind == "respond":
            self._respond(call, verdict)
        elif verdict.kind == "refuse":
            self._refuse(call, verdict)
        else:
            self.stop(verdict.reason, "review", call, verdict)

    def pending(self, call: Mapping[str, Any]) -> bool:
        """Is ``call`` still to be decided (else it is answered here: deferred, or the run stopped)?"""
        if self.stop_reason is not None:
            self.messages.append(tool_message(call, self._stopped_note(), error=True))
            return False
        if self.after_side_effect is not None:
            note = {
                "deferred": True,
                "reason": "one_side_effect_per_reply",
                "after": self.after_side_effect,
                "message": "not run: propose it again once you have that call's result",
            }
            self.messages.append(tool_message(call, note, error=True))
            self.trace.append(
                trace_row(self.run, "deferred", ok=False, tool=call.get("name"), tool_call_id=call.get("id"))
            )
            return False
        return True

    def _who(self, verdict: Verdict) -> dict[str, Any]:
        return who(verdict)

    def _plan(self, call: Mapping[str, Any], verdict: Verdict) -> None:
        plan = plan_for(self.run, self.policy, verdict, proposed=call)
        plan["proposed"] = {"name": call.get("name"), "args": call.get("args")}
        if self.batch.world_seq is not None:
            plan["world_seq"] = self.batch.world_seq
        self.plan[str(call.get("id"))] = plan
        self.batch.past.append({"tool": plan["tool"], "signature": plan["signature"]})
        if plan["idempotency_key"] is not None:
            self.after_side_effect = plan["tool"]

    def _respond(self, call: Mapping[str, Any], verdict: Verdict) -> None:
        self.messages.append(tool_message(call, verdict.message, error=False))
        row = figures(
            verdict.action,
            verdict.review,
            responded_by=verdict.by,
            human_approved=False,
            reviewer=verdict.reviewer,
            account=verdict.account,
            answered_at=verdict.answered_at,
        )
        self.trace.append(trace_row(self.run, "responded", ok=True, **row, tool_call_id=call.get("id")))

    def refuse_final(self, verdict: Verdict) -> None:
        """A final answer the rules block or a human rejects: fed back (``on_refusal: feedback``,
        within ``max_refusals``) and the model asked again, or the run's named stop."""
        self.answers_refused()
        self._refuse(None, verdict)

    def _refuse(self, call: Mapping[str, Any] | None, verdict: Verdict) -> None:
        done = len(self.batch.refusals)
        if self.policy.on_refusal == "stop" or not rules.is_refusal(verdict.reason):
            return self.stop(verdict.reason, "review", call, verdict)
        if done >= self.policy.max_refusals:
            return self.stop("max_refusals", "review", call, verdict, refused=verdict.reason, refusals=done)
        action = verdict.action or {}
        observation = {"refused": True, "by": verdict.by, "reason": verdict.reason}
        if verdict.message:
            observation["message"] = verdict.message
        flow = verdict.review.get("flow") if verdict.by in ("supervisor", "human") else None
        if flow:  # the flow the refusal stopped (value, from, to), as the Supervisor's worker is told
            observation["flow"] = flow
        signatures = sorted({rules.action_signature(a) for a in (action,) if a})
        final = action.get("kind") == "final"
        record = {
            "run_id": self.run.get("run_id"),
            "step": self.run.get("steps"),
            "tool_call_id": (call or {}).get("id"),
            "tool": "final" if final else action.get("name", (call or {}).get("name")),
            "args": {"answer": action.get("answer")}
            if final
            else action.get("args", (call or {}).get("args")),
            "ok": False,
            "by": verdict.by,
            "reason": verdict.reason,
            "message": verdict.message,
            "signatures": signatures,
            "observation": observation,
        }
        for key in ("reviewer", "account", "answered_at"):  # who rejected it, and when
            if getattr(verdict, key) is not None:
                record[key] = getattr(verdict, key)
        self.refusals.append(record)
        self.batch.refusals.append(record)
        if call is None:
            self.messages.append(feedback_message(observation))  # after_agent asks the model again
        else:
            self.messages.append(tool_message(call, observation, error=True))
        row = figures(action or None, verdict.review, **self._who(verdict))
        self.trace.append(
            trace_row(
                self.run,
                "refused",
                ok=False,
                **row,
                refused=verdict.reason,
                refused_by=verdict.by,
                tool_call_id=(call or {}).get("id"),
            )
        )
        return None

    def stop(
        self,
        reason: str,
        phase: str,
        call: Mapping[str, Any] | None = None,
        verdict: Verdict | None = None,
        **more: Any,
    ) -> None:
        """End the run with ``reason``: the call (if any) answered as not run, a trace row, and the
        AI message a chat user reads. A stop a human's answer (or the automatic approver's) made
        is in phase ``human_approval``, as the Supervisor graph's."""
        self.answers_refused()
        self.stop_reason = reason
        problem = verdict.details.get("problem") if verdict is not None else None
        self.stop_problem = str(problem) if problem else None
        if verdict is not None and verdict.by in HUMANS:
            phase = "human_approval"
        if call is not None:
            note = {
                "not_run": True,
                "reason": reason,
                **(
                    {"problem": verdict.details["problem"]}
                    if verdict and "problem" in verdict.details
                    else {}
                ),
            }
            self.messages.append(tool_message(call, note, error=True))
        action = verdict.action if verdict else None
        row = figures(action, verdict.review if verdict else None, **(self._who(verdict) if verdict else {}))
        self.trace.append(trace_row(self.run, phase, ok=False, **row, **more, stop_reason=reason))

    def update(self) -> dict[str, Any]:
        # the step was counted when the model was called: the clock changes here only by a wait
        waited = self.run.get("paused_seconds") != self._paused_before
        update: dict[str, Any] = {
            **(clock(self.run) if waited else {}),
            "governance_plan": self.plan,
            **audit(trace=self.trace, refusals=self.refusals, grants=list(self.batch.issued)),
        }
        if self.stop_reason is None:  # no empty write: it would give the conversation a new version
            said = {"messages": self.messages} if self.messages else {}
            return {**update, **said}
        last = stop_message(self.stop_reason, "governance", self.stop_problem)
        return {
            **update,
            "governance_plan": {},
            "messages": [*self.messages, *self._not_run(), last],
            "governance_stop_reason": self.stop_reason,
        }

    def _stopped_note(self) -> dict[str, Any]:
        """The answer to a call of this reply that does not run because the run stopped."""
        return {"not_run": True, "reason": f"the run stopped: {self.stop_reason}"}

    def _not_run(self) -> list[ToolMessage]:
        """The answers to the calls approved before the run stopped in the same reply: none of them
        runs, and each is answered (a chat client shows no call left without one)."""
        note = self._stopped_note()
        return [
            tool_message(
                {"id": call_id, "name": (plan.get("proposed") or {}).get("name") or plan["tool"]},
                note,
                error=True,
            )
            for call_id, plan in self.plan.items()
        ]
