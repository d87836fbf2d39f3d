"""Running an approved call (``wrap_tool_call``): only what was approved, as approved, checked once
more as the tool is invoked after whatever other middleware did to the call
(:mod:`nodes.middleware.guard`), with the audit rows of what ran.

A mixin of :class:`~nodes.middleware.agent.GovernanceMiddleware`, which supplies the policy, the
review of a batch (``_batch``) and which tools take an idempotency key (``_takes_key``).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from langchain.agents.middleware import ToolCallRequest
from langchain_core.messages import ToolMessage
from langgraph.errors import GraphBubbleUp
from langgraph.types import Command, interrupt

from nodes.effects import (
    IN_DOUBT_DECISIONS,
    claim,
    current_thread,
    in_doubt_note,
    in_doubt_request,
    release,
    retaken,
    settle,
)
from nodes.journal import DONE, Journal
from nodes.middleware.decide import Batch, Verdict, decide
from nodes.middleware.guard import CHANGED, Guard, Seen
from nodes.middleware.outcome import (
    answer,
    call_record,
    noted,
    observed,
    well_formed_answer,
    withheld_answer,
)
from nodes.middleware.reply import Reply, plan_for, plan_tampered, tool_message
from nodes.middleware.state import audit as audit_rows
from nodes.middleware.state import elapsed, run_of, trace_row
from nodes.tool_gateway import ToolOutcome, error_observation
from policies import supervisor as rules
from policies.human import parse_human_answer
from policies.json_safety import type_name, well_formed
from policies.observation import audit_observation
from policies.supervisor.provenance.ledger import Watched, ledger_entries
from policies.supervisor.reading.words import RequestReader, reads_blocking
from policies.supervisor.request.ownership import visible

Handler = Callable[[ToolCallRequest], ToolMessage | Command]


#: What the model reads of a side effect that did not run because of another run.
_NOT_RUN = {
    "effect_in_progress": "not run: another process is making this very call now",
    "thread_changed": "not run: another run acted on this thread after this call was reviewed; "
    "ask again to have it reviewed against what ran",
}


def tampered_plan(call: Mapping[str, Any], run: Mapping[str, Any], plan: Mapping[str, Any]) -> Command:
    """The call approved to run was changed in the checkpoint since its plan was stamped: not run,
    the run stops ``approval_tampered``."""
    note = {"not_run": True, "reason": "approval_tampered"}
    row = trace_row(run, "execution", ok=False, **plan["figures"], stop_reason="approval_tampered")
    update = {"messages": [tool_message(call, note, error=True)], **audit_rows(trace=[row])}
    return Command(update={**update, "governance_stop_reason": "approval_tampered"})


class ToolRunning:
    """``wrap_tool_call`` and ``awrap_tool_call`` of the governance middleware."""

    policy: rules.SupervisorPolicy
    subject: dict[str, Any]
    reader: RequestReader | None
    _watched: Watched

    if TYPE_CHECKING:

        @property
        def journal(self) -> Journal: ...

        def _batch(self, state: Mapping[str, Any], run: dict[str, Any]) -> Batch: ...

        def _takes_key(self, name: str) -> bool: ...

    def _prepared(self, request: ToolCallRequest) -> tuple[ToolCallRequest, dict[str, Any], Seen] | Command:
        """The request that runs an approved call (its tools guarded), its plan and what the guards
        will see; or the answer instead of running it."""
        call, state = request.tool_call, request.state or {}
        run = run_of(state)
        plan = (state.get("governance_plan") or {}).get(str(call.get("id")))
        if plan is None or plan.get("run_id") != run.get("run_id"):
            # a call no review of this run planned (another middleware added it after ours): the
            # guard reviews it as it runs, as any changed call
            plan = {"run_id": run.get("run_id"), "step": run.get("steps"), "tool": None, "args": None}
            plan |= {"signature": None, "figures": {"tool": call.get("name")}, "proposed": None}
        key, thread = plan.get("idempotency_key"), current_thread()
        # a call claimed before (a crash, a race) is reconciled, never dropped for the time it waited
        reconciling = bool(key and thread and self.journal.get(thread, key))
        if elapsed(run) >= self.policy.max_seconds and not reconciling:
            note = {"not_run": True, "reason": "max_seconds"}
            row = trace_row(run, "execution", ok=False, **plan["figures"], stop_reason="max_seconds")
            return Command(
                update={
                    "messages": [tool_message(call, note, error=True)],
                    **audit_rows(trace=[row]),
                    "governance_stop_reason": "max_seconds",
                }
            )
        if plan.get("tool") is not None and plan_tampered(plan):
            return tampered_plan(call, run, plan)
        changed: dict[str, Any] = {}  # the request's new fields, replaced at once
        proposed = plan.get("proposed", {"name": call.get("name"), "args": call.get("args")})
        if {"name": call.get("name"), "args": call.get("args")} == proposed:  # the revision, if any
            changed["tool_call"] = {**call, "args": dict(plan["args"])}
        watched = Seen()
        guard = self._guard(state, run, plan, call, watched)
        runtime = request.runtime
        if runtime is not None and getattr(runtime, "tools", None):  # a redirect runs guarded too
            changed["runtime"] = dataclasses.replace(runtime, tools=[guard(t) for t in runtime.tools])  # type: ignore[misc]
        changed["tool"] = guard(request.tool) if request.tool is not None else None
        return dataclasses.replace(request, **changed), plan, watched

    def _guard(
        self, state: Mapping[str, Any], run: dict[str, Any], plan: dict[str, Any], call: Any, watched: Seen
    ) -> Callable[[Any], Guard]:
        """Guards for one call's tools: a changed call is decided as a reply's call is, against what
        ran before it and the other calls planned for the same reply."""

        def recheck(action: dict[str, Any]) -> Verdict:
            batch = self._batch(state, run)
            others = [p for cid, p in (state.get("governance_plan") or {}).items() if cid != call.get("id")]
            batch.past.extend({"tool": p["tool"], "signature": p["signature"]} for p in others)
            changed = {**call, "name": action["name"], "args": action["args"]}
            verdict = decide(changed, batch)
            if verdict.kind != "run":
                reply = Reply(dict(run), batch)
                reply.take(changed, dataclasses.replace(verdict, executed_from=CHANGED))
                watched.answer, watched.reply = reply.messages[0], reply
            return verdict

        def replan(verdict: Verdict) -> dict[str, Any]:
            asked = plan.get("proposed") or call
            replanned = plan_for(run, self.policy, verdict, executed_from=CHANGED, proposed=asked)
            return {**replanned, **({"world_seq": plan["world_seq"]} if "world_seq" in plan else {})}

        def refuse(tool_call: Mapping[str, Any], why: str) -> ToolMessage:
            note = {"refused": True, "by": "gateway", "reason": "not_retried", "message": why}
            return tool_message({**call, **tool_call}, note, error=True)

        claim = self._claimer(watched)

        def guard(tool: Any) -> Guard:
            return Guard(
                tool,
                plan,
                watched,
                recheck=recheck,
                replan=replan,
                takes_key=self._takes_key,
                refuse=refuse,
                claim=claim,
                blocking=self.journal.blocking,
            )

        return guard

    def _claimer(self, watched: Seen) -> Callable[[Mapping[str, Any], dict[str, Any]], ToolMessage | None]:
        """The thread journal's claim of a side effect as its tool is first invoked
        (:mod:`nodes.effects`): None to run it; else the answer given instead (its recorded
        outcome, a human's answer about a call in doubt, or the stop of a call another process
        makes now or that the thread outran)."""
        journal, thread = self.journal, current_thread()

        def claim_it(tool_call: Mapping[str, Any], plan: dict[str, Any]) -> ToolMessage | None:
            if not thread:
                return None
            key, name, args = plan["idempotency_key"], plan["tool"], plan["args"]
            at = {"run_id": plan.get("run_id"), "step": plan.get("step")}
            claimed = claim(
                journal,
                thread,
                key,
                tool=name,
                args=args,
                **at,
                watch=self._watched,
                keyed=self._takes_key(name),
                after=plan.get("world_seq"),
            )
            if claimed.go == "in_doubt":
                value = interrupt(in_doubt_request({"name": name, "args": args}, claimed.effect, **at))
                answer = parse_human_answer(value, allowed=IN_DOUBT_DECISIONS)
                if answer is None or answer.type != "approve":
                    note = in_doubt_note(answer)
                    ledger = claimed.effect.get("ledger") or []
                    journal.finish(thread, key, DONE, {"ok": True, "observation": note, "ledger": ledger})
                    watched.claimed, watched.instead = claimed, {"ok": True, "observation": note}
                    return tool_message(tool_call, note, error=False)
                # it did not run: this process takes the claim over and runs it, recording how it ends
                claimed = retaken(journal, thread, key, claimed.effect)
            watched.claimed = claimed
            if claimed.go == "run":
                return None
            if claimed.go == "ran":
                outcome = claimed.effect.get("outcome") or {}
                watched.instead = {"ok": bool(outcome.get("ok")), "observation": outcome.get("observation")}
                return tool_message(tool_call, outcome.get("observation"), error=not outcome.get("ok"))
            reason = "effect_in_progress" if claimed.go == "in_progress" else "thread_changed"
            watched.instead = {"stop": reason}
            return tool_message(
                tool_call, {"not_run": True, "reason": reason, "message": _NOT_RUN[reason]}, error=True
            )

        return claim_it

    def _observed(
        self, request: ToolCallRequest, plan: dict[str, Any], watched: Seen, result: Any
    ) -> Command:
        """The answer to the call with its audit rows: what ran (the tool's own answer, who approved
        those arguments), a changed call refused as it was reviewed again, or a call another
        middleware answered without running the tool (no tool data, no call row)."""
        call, run = request.tool_call, run_of(request.state or {})
        at = {**run, "steps": plan["step"]}
        update: dict[str, Any] = {}
        paused = sum(v.paused for v in watched.verdicts.values())
        if paused:
            update["governance_waited"] = {str(run.get("run_id")): paused}
        reply = watched.reply
        if watched.attempts == 0 and reply is not None:  # changed, reviewed again, not run
            update.update(audit_rows(trace=reply.trace, refusals=reply.refusals))
            if reply.stop_reason is not None:
                update["governance_stop_reason"] = reply.stop_reason
            return answer(result if isinstance(result, ToolMessage | Command) else watched.answer, update)
        if watched.attempts == 0:  # another middleware answered it: the tool never ran
            row = trace_row(at, "not_run", ok=False, **plan["figures"], tool_call_id=call.get("id"))
            update.update(audit_rows(trace=[{**row, "answered_by": "another middleware"}]))
            if isinstance(result, BaseException):
                note = {"not_run": True, "reason": well_formed(f"{type_name(result)}: {str(result)[:300]}")}
                result = tool_message(call, note, error=True)
            return answer(result, update)
        ran = watched.plan or plan
        raw = watched.result
        instead = watched.instead
        if instead is not None and "stop" in instead:  # not run: another process, or the thread changed
            row = trace_row(at, "not_run", ok=False, **ran["figures"], stop_reason=instead["stop"])
            update.update(audit_rows(trace=[{**row, "tool_call_id": call.get("id")}]))
            update["governance_stop_reason"] = instead["stop"]
            return answer(result, update)
        if instead is not None:  # made already: its recorded outcome, nothing ran
            ok, observation = bool(instead["ok"]), instead["observation"]
        elif isinstance(raw, BaseException):
            detail = {"error_type": type_name(raw), "message": well_formed(str(raw)[:300])}
            failed = ToolOutcome(False, reason=f"tool_error:{ran['tool']}", raised=True, detail=detail)
            ok, observation = False, error_observation(failed)
            if self.policy.on_tool_error == "stop" and isinstance(result, BaseException):
                update["governance_stop_reason"] = failed.reason
        else:
            ok, observation = observed(raw, call.get("id"))
        subject = (request.state or {}).get("governance_subject") or self.subject
        spec = self.policy.tools.get(ran["tool"])
        observation, withheld = visible(spec, observation, subject, ran.get("args"))
        record = call_record(ran, call.get("id"), ok, observation, 0 if instead else watched.attempts)
        row = trace_row(at, "execution", **ran["figures"], observation_ok=ok)
        if instead is not None:
            record["from_journal"] = row["from_journal"] = True
        if withheld:  # another subject's records: the model reads what the audit keeps, no more
            record["withheld"] = row["withheld"] = withheld
            result = withheld_answer(result, call, observation)
        # the call row keeps a large observation by reference (the conversation holds it once)
        kept = {**record, "observation": audit_observation(observation, self.policy.max_audit_chars)}
        update.update(audit_rows(trace=[row], calls=[kept]))
        entries = ledger_entries(self._watched, record, run_id=run.get("run_id"), step=plan["step"])
        if entries:
            update["governance_ledger"] = entries
        if instead is None and watched.claimed is not None and watched.claimed.go == "run":
            settle(
                self.journal,
                current_thread(),
                ran["idempotency_key"],
                ok=ok,
                observation=observation,
                ledger=entries,
            )
        if isinstance(result, BaseException):  # observed, as the Supervisor's gateway does
            result = tool_message(call, observation if not ok else {"error": type_name(result)}, error=True)
        if isinstance(result, ToolMessage):
            result = noted(result, ran)
        return answer(result, update)

    def _paused(self, watched: Seen) -> None:
        """The step waits for a human (an interrupt inside the tool's call): a call claimed and not
        yet made is let go, so the step run again with the answer claims and makes it."""
        if watched.claimed is not None and watched.claimed.go == "run" and watched.result is None:
            release(self.journal, current_thread(), str((watched.plan or {}).get("idempotency_key")))

    def wrap_tool_call(self, request: ToolCallRequest, handler: Handler) -> ToolMessage | Command:
        prepared = self._prepared(request)
        if isinstance(prepared, Command):
            return prepared
        to_run, plan, watched = prepared
        try:
            result: Any = handler(to_run)
        except GraphBubbleUp:
            self._paused(watched)
            raise
        except Exception as exc:  # observed (or a named stop), as the Supervisor's gateway does
            result = exc
        return self._observed(to_run, plan, watched, well_formed_answer(result))

    async def awrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command]]
    ) -> ToolMessage | Command:
        if self.journal.blocking or reads_blocking(self.reader):  # a database or a model: off the loop
            prepared = await asyncio.to_thread(self._prepared, request)
        else:
            prepared = self._prepared(request)
        if isinstance(prepared, Command):
            return prepared
        to_run, plan, watched = prepared
        try:
            result: Any = await handler(to_run)
        except GraphBubbleUp:
            self._paused(watched)
            raise
        except Exception as exc:
            result = exc
        result = well_formed_answer(result)  # what the model reads: what the state keeps
        if self.journal.blocking:
            return await asyncio.to_thread(self._observed, to_run, plan, watched, result)
        return self._observed(to_run, plan, watched, result)
