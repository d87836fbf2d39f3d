"""``GovernanceMiddleware``: the Supervisor's policy in front of a ``create_agent`` agent.

Hooks: ``before_agent`` starts a run (its id, clock and step count, its request: the human turns
the client sent, :mod:`nodes.middleware.turns`; whom it acts for). ``wrap_model_call`` does a step's
work in the model's own node, so the middleware adds no node per step: before the model is asked it
ends the run by name when a budget is spent or a stop is pending (its stop message in place of the
model's reply, a message with no tool call: the agent ends there); once the model has answered it
decides every tool call of the reply before any runs (:mod:`nodes.middleware.decide`; each call
with an id of its own), or reviews the final answer, and may pause for a human there (an interrupt
in LangChain's HITL shape; the reply is kept meanwhile, :mod:`nodes.middleware.kept`, so the answer
applies to the reply the human was shown and the model is not asked again). ``wrap_tool_call``
(:mod:`nodes.middleware.running`) runs only what was approved, as approved, checked once more as
the tool is invoked after whatever other middleware did to the call (:mod:`nodes.middleware.guard`),
and writes the audit rows of what ran. ``after_agent`` sends a run whose final answer was refused
back to the model (a jump written in the model's node would be lost behind another middleware's
``after_model``), and else records the turns seen, so a human message another middleware wrote is
never taken for the user's. With a store, ``after_agent`` also moves the run's rows to the thread's
audit log (:mod:`nodes.middleware.audit`), and a run that waits for a human writes its rows so far.
"""

from __future__ import annotations

import asyncio
import inspect
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping
from functools import partial
from typing import Any

from langchain.agents.middleware import (
    AgentMiddleware,
    ExtendedModelResponse,
    ModelRequest,
    ModelResponse,
    hook_config,
)
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import StructuredTool
from langgraph.errors import GraphInterrupt
from langgraph.types import Command

from nodes.clock import now
from nodes.effects import current_thread, merged, orphan, settle_orphan, world_ledger
from nodes.journal import Journal, journal_beside
from nodes.langgraph_private import running_checkpointer
from nodes.messages import annotated, message_text, stop_message, well_formed_message
from nodes.middleware import audit
from nodes.middleware.decide import Batch, Verdict, ask, decide, passed_gate, refused_again
from nodes.middleware.kept import akeep, akept_reply, keep, kept_reply
from nodes.middleware.outcome import observations
from nodes.middleware.reply import Reply, asks_again, tool_message, unique_calls
from nodes.middleware.running import ToolRunning
from nodes.middleware.state import (
    GovernanceState,
    clock,
    elapsed,
    figures,
    merge_rows,
    of_run,
    run_id_of,
    run_of,
    trace_row,
    turn_of,
)
from nodes.middleware.state import audit as audit_rows
from nodes.middleware.turns import forget, opened, run_subject, seen_update
from nodes.tool_gateway import GovernedTool, tool_registry
from policies import supervisor as rules
from policies.observation import restored
from policies.supervisor.provenance.ledger import watched
from policies.supervisor.reading.words import RequestReader, reads_blocking
from policies.supervisor.request.subject import bound_arg_names


class GovernanceMiddleware(ToolRunning, AgentMiddleware[GovernanceState, Any, Any]):
    """The Supervisor's gateway for any ``create_agent(model, tools, middleware=[...])`` agent.

    ``policy``: a :class:`~policies.supervisor.SupervisorPolicy` (``SupervisorPolicy.for_tools``);
    ``tools``: the agent's tools (required: the same tools you give ``create_agent``, plus those
    other middleware add, such as ``TodoListMiddleware().tools``), whose own argument schemas the
    gateway checks, fitted to the policy when the middleware is built, so a run resumed in another
    process decides as the first did; ``custom_rules``: the functions the policy's rules name;
    ``subject``: whom the runs act for (a run's ``governance_subject`` input overrides it);
    ``journal``: the thread journal (:mod:`nodes.journal`) that makes each side effect run at most
    once whoever races, keeps the first answer to a question, and lets limits count what ran in
    any process; by default the one beside the checkpointer of the invocation (the same SQLite
    file or PostgreSQL database as its runs), so every process running the agent on that store
    shares it. Give one (``nodes.store.open_journal(location)``) where the checkpointer is not
    ``SqliteSaver`` or ``PostgresSaver`` and several processes act on a thread. ``reader``: how the
    user's turn is read into mandates (:class:`~policies.supervisor.reading.words.RequestReader`; default: the
    positive grammar; a model's: :class:`nodes.model_reader.ModelReader`), given the client's
    user turns of the run only, never a tool's result."""

    state_schema = GovernanceState

    def __init__(
        self,
        policy: rules.SupervisorPolicy | None = None,
        *,
        tools: Iterable[Any] | Mapping[str, Any] | None = None,
        custom_rules: Mapping[str, rules.CustomRule] | None = None,
        subject: Mapping[str, Any] | None = None,
        journal: Journal | None = None,
        reader: RequestReader | None = None,
    ) -> None:
        super().__init__()
        self.reader = reader
        self._journal = journal
        self._own_journal = Journal()  # a run with no checkpointer: its invocation is its life
        if tools is None:
            raise ValueError(
                "GovernanceMiddleware needs the agent's tools: GovernanceMiddleware(policy, tools=[...]) "
                "with the tools you give create_agent (their schemas are what the gateway checks, also "
                "when a run resumes in another process)"
            )
        self.policy = policy if policy is not None else rules.SupervisorPolicy()
        self.hooks = dict(custom_rules or {})
        self.subject = dict(subject or {})
        self.tools: list[Any] = []
        pairs = tools.items() if isinstance(tools, Mapping) else ((None, t) for t in tools)
        self._registry: dict[str, GovernedTool] = tool_registry(
            {name or rules.tool_names([t])[0]: _schema_only(t) for name, t in pairs}
        )
        problems = rules.policy_problems(self.policy, self._models(), self.hooks)
        problems += rules.cedar_problems(self.policy, self._models())
        if problems:
            raise ValueError("the supervisor policy does not fit the tools: " + "; ".join(problems))
        self._bound = bound_arg_names(self.policy)
        # what every review reads of the policy and the tools, read once (the policy is fitted to
        # the tools here, and the middleware reads it as it is now)
        self._trusted = frozenset(self.policy.trusted_tools())
        self._constants = tuple(self.policy.constants())
        self._arg_models = {**{n: None for n in self.policy.tools}, **self._models()}
        # the tools' argument types, as a Cedar policy reads each value (only where there is one)
        self._schemas = rules.tool_schemas(self._models()) if self.policy.cedar is not None else {}
        self._watched = watched(self.policy)
        self._registered = frozenset(self._registry)

    @property
    def journal(self) -> Journal:
        """The thread journal the running invocation uses: the one given, else the one beside the
        invocation's checkpointer (the same SQLite file or PostgreSQL database: every process that
        runs the agent on it shares it; one in memory for ``InMemorySaver``), else one of this
        middleware's own."""
        if self._journal is not None:
            return self._journal
        saver = running_checkpointer()
        return journal_beside(saver) if saver is not None else self._own_journal

    def _models(self) -> dict[str, Any]:
        return {name: tool.model for name, tool in self._registry.items()}

    def _takes_key(self, name: str) -> bool:
        tool = self._registry.get(name)
        return tool is not None and tool.takes_key

    def gate_passes(self, call: Mapping[str, Any], past: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The validated action of ``call`` (with its ``signature``) where the action contract and
        the gateway's checks would pass it after the run's ``past`` calls (``tool``, ``signature``),
        as a review of the call checks it before the supervisor's rules; None where they would
        refuse it (:func:`nodes.middleware.decide.passed_gate`)."""
        return passed_gate(call, self.policy, self._arg_models, self._registered, past)

    # ------------------------------------------------------------------ the run and its budgets

    def _opened(self, state: GovernanceState) -> dict[str, Any]:
        """A new run's bookkeeping: its id, clock and steps, its request (the human turns the client
        sent, by identity), its turn on the thread, whom it acts for."""
        messages = state.get("messages") or []
        run_id = str(uuid.uuid4())
        asked, seen_now = opened(messages, state.get("governance_seen"), run=run_id)
        subject, bound_now, conflict = run_subject(
            state.get("governance_subject"), self.subject, asked["request"], self._bound
        )
        run = {
            "run_id": run_id,
            "started_at": now(),
            "paused_seconds": 0.0,
            "steps": 0,
            **asked,
            **turn_of(run_of(state), asked["turns"]),
        }
        update: dict[str, Any] = {
            "governance_run": run,
            **clock(run),
            "governance_stop_reason": None,
            "governance_plan": {},
            "governance_seen": seen_now,
        }
        if bound_now:  # the thread's first request named whom it acts for: kept for its later runs
            update["governance_subject"] = subject
        if conflict:  # a later request named someone else: not rebound, and said
            row = trace_row(run, "request", ok=True, subject_kept=subject, subject_named=conflict)
            update = merge_rows(update, audit_rows(trace=[row]))
        return update

    def _start(self, state: GovernanceState, runtime: Any) -> tuple[dict[str, Any], list[Any]]:
        """A run's start, and (with a store) the rows of the previous run still to move to the log."""
        resets, moved = audit.run_started(state, runtime)
        return merge_rows(resets, self._opened(state)), moved

    def before_agent(self, state: GovernanceState, runtime: Any) -> dict[str, Any]:
        settled = self._orphan_settled()
        update, moved = self._start(state, runtime)
        audit.write(runtime, moved)
        return _with_settled(update, settled)

    def _orphan_settled(self, *, carried_on: bool = False) -> dict[str, Any] | None:
        """A side effect a dead process left in doubt on this thread (its run replaced by this new
        one, or ``carried_on`` from a checkpoint before the step that claimed it): put to a human
        before anything else runs (:func:`nodes.effects.settle_orphan`)."""
        thread = current_thread()
        found = orphan(self.journal, thread)
        if found is None:
            return None
        return settle_orphan(self.journal, thread, found, carried_on=carried_on)

    def _end(self, state: GovernanceState, runtime: Any) -> tuple[dict[str, Any], list[Any]]:
        """A run's end: the human turns seen (a human message another middleware wrote during the
        run is never a later run's request) and, with a store, the run's rows moved to the log."""
        logged, moved = audit.run_ended(state, runtime)
        run_id = run_id_of(state)
        turns = seen_update(state.get("governance_seen"), state.get("messages") or [], run=run_id)
        forget(run_id)
        return {**(logged or {}), **turns}, moved

    @hook_config(can_jump_to=["model"])
    def after_agent(self, state: GovernanceState, runtime: Any) -> dict[str, Any]:
        if asks_again(state):
            return {"jump_to": "model"}
        update, moved = self._end(state, runtime)
        audit.write(runtime, moved)
        return update

    def _model_gate(
        self, state: Mapping[str, Any], *, resuming: bool = False
    ) -> tuple[AIMessage | None, dict[str, Any]]:
        """Before each model call, inside the model's own node (no node of its own): the run ends by
        name when a stop is pending or a budget is spent (the stop message stands in for the model's
        reply, which is not asked for); else the time the call starts (waiting for a human later in
        this step is not run time). ``resuming``: the node runs again with a human's answer to the
        reply it kept; the time budget was checked before that reply, and the wait since is no run
        time, so it is not checked again (an approval given late is applied, not dropped)."""
        run = run_of(state)
        reason = state.get("governance_stop_reason")
        if reason is None and int(run.get("steps") or 0) >= self.policy.max_steps:
            reason = "max_steps"
        if reason is None and not resuming and elapsed(run) >= self.policy.max_seconds:
            reason = "max_seconds"
        if reason is None:
            # the step is counted as its model is called (the review reads it from this update)
            return None, clock({**run, "steps": int(run.get("steps") or 0) + 1, "model_at": now()})
        row = trace_row(run, "model", ok=False, stop_reason=reason)
        stopped = {"governance_stop_reason": reason, **audit_rows(trace=[row])}
        return stop_message(reason, "governance"), stopped

    def _gated(
        self, state: Mapping[str, Any], kept: Any, settled: dict[str, Any] | None
    ) -> tuple[AIMessage | None, dict[str, Any]]:
        """The gate before a model call, after any side effect in doubt was put to a human: a run
        carried on from a checkpoint taken before its model step (its process died after claiming
        a call and before the step was kept) proposes the call again, and the human is asked
        whether it ran before the review counts it as made. A human answered in this step, so the
        wait is no run time (as for a kept reply)."""
        stopped, update = self._model_gate(state, resuming=kept is not None or settled is not None)
        if settled is None:
            return stopped, update
        row = trace_row(run_of({**state, **update}), "in_doubt", ok=True, **settled)
        return stopped, merge_rows(update, audit_rows(trace=[row]))

    def _gate_stopped(self, stopped: AIMessage, update: dict[str, Any], state: Mapping[str, Any]) -> Any:
        """The run's stop in place of the model's reply: a message with no tool call, so the agent
        goes to its end."""
        turns = seen_update(state.get("governance_seen"), state.get("messages") or [], run=run_id_of(state))
        update = {**update, **turns}
        response = ModelResponse(result=[stopped])
        return ExtendedModelResponse(model_response=response, command=Command(update=update))

    def _reviewed(self, state: Mapping[str, Any], update: dict[str, Any], response: ModelResponse) -> Any:
        """The model's response as the review leaves it (the reply with an id for each call, or its
        final answer annotated), and as a state update this step's bookkeeping, the plans of the
        calls that run, the answers to those that do not, the audit rows and any named stop."""
        if not any(isinstance(m, AIMessage) for m in response.result):  # nothing the model proposed
            return ExtendedModelResponse(model_response=response, command=Command(update=update))
        messages = [*(state.get("messages") or []), *response.result]
        reply, reviewed = self._review({**state, **update, "messages": messages})
        if reply is not None:
            at = max(i for i, m in enumerate(response.result) if isinstance(m, AIMessage))
            result = [*response.result[:at], reply, *response.result[at + 1 :]]
            response = ModelResponse(result=result, structured_response=response.structured_response)
        command: Command[Any] = Command(update=merge_rows(update, reviewed))
        return ExtendedModelResponse(model_response=response, command=command)

    def wrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], Any]) -> Any:
        kept = kept_reply()
        settled = self._orphan_settled(carried_on=True) if kept is None else None
        stopped, update = self._gated(request.state, kept, settled)
        if kept is not None and not kept[2]:
            stopped, update = tampered_stop(request.state)
        if stopped is not None:
            return self._gate_stopped(stopped, update, request.state)
        if kept is not None:  # the node runs again with a human's answer: the reply they were shown
            response, update = kept[0], _since(update, kept[1])
        else:
            response = _well_formed(_response(handler(request)))
        try:
            return self._reviewed(request.state, update, response)
        except GraphInterrupt:  # the review waits for a human: the reply is kept, the rows logged
            if kept is None:
                keep(response, float(update["governance_clock"]["model_at"]))
            audit.write(request.runtime, audit.waiting({**request.state, **update}))
            raise

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[Any]]
    ) -> Any:
        kept = await akept_reply()
        settled = None
        if kept is None:
            settle = partial(self._orphan_settled, carried_on=True)
            settled = await asyncio.to_thread(settle) if self.journal.blocking else settle()
        stopped, update = self._gated(request.state, kept, settled)
        if kept is not None and not kept[2]:
            stopped, update = tampered_stop(request.state)
        if stopped is not None:
            return self._gate_stopped(stopped, update, request.state)
        if kept is not None:
            response, update = kept[0], _since(update, kept[1])
        else:
            response = _well_formed(_response(await handler(request)))
        try:
            if self.journal.blocking or reads_blocking(self.reader):  # a database or a model: off the loop
                return await asyncio.to_thread(self._reviewed, request.state, update, response)
            return self._reviewed(request.state, update, response)
        except GraphInterrupt:
            if kept is None:
                await akeep(response, float(update["governance_clock"]["model_at"]))
            await audit.awrite(request.runtime, audit.waiting({**request.state, **update}))
            raise

    # ------------------------------------------------------------------ the review of a reply

    def _batch(self, state: Mapping[str, Any], run: dict[str, Any]) -> Batch:
        # a large observation, kept by reference in its row: whole again, from the conversation
        messages = state.get("messages") or []
        calls = restored(
            of_run(state.get("governance_calls"), run.get("run_id")), lambda: observations(messages)
        )
        thread = current_thread()
        # what ran on the thread in any process or branch (the journal), beside this branch's ledger
        ledger = merged(state.get("governance_ledger") or (), world_ledger(self.journal, thread))
        context = rules.ReviewContext(
            tuple(calls),
            dict(state.get("governance_subject") or self.subject),
            str(run.get("request") or ""),  # the client's turns of this run, never a rewritten history
            self._trusted,
            self._constants,
            grants=tuple(of_run(state.get("governance_grants"), run.get("run_id"))),
            ledger=ledger,
            reader=self.reader,
            arg_schemas=self._schemas,
        )
        models = self._arg_models
        about = {"run_id": run.get("run_id"), "step": run.get("steps")}
        past = [{"tool": c.get("tool"), "signature": c.get("signature")} for c in calls]
        refusals = list(of_run(state.get("governance_refusals"), run.get("run_id")))
        model_at = float(run.get("model_at") or now())
        batch = Batch(
            self.policy, self.hooks, models, self._registered, context, past, refusals, about, model_at
        )
        batch.journal, batch.thread_id = self.journal, thread
        batch.world_seq = self.journal.high_water(thread) if thread else None
        return batch

    def _review(self, state: Mapping[str, Any]) -> tuple[AIMessage | None, dict[str, Any]]:
        """The model's reply decided: every tool call (each with a plan, or refused, deferred,
        asked about), or the final answer reviewed. Returns the reply as it stands now where the
        review changed it (an id for each call, an annotated answer), and the state update."""
        messages = state.get("messages") or []
        at = next((i for i in range(len(messages) - 1, -1, -1) if isinstance(messages[i], AIMessage)), None)
        if at is None:
            return None, {}
        last = messages[at]
        assert isinstance(last, AIMessage)
        reply_message, renamed = unique_calls(last)
        # calls another middleware already answered (HITL's reject, a call limit) are not ours to run
        answered = {m.tool_call_id for m in messages[at + 1 :] if isinstance(m, ToolMessage)}
        run = run_of(state)  # its step was counted by the model gate (wrap_model_call)
        reply = Reply(run, self._batch(state, run))
        changed: AIMessage | None = reply_message if renamed else None
        if reply_message.invalid_tool_calls:
            reply.stop("invalid_action:bad_tool_args", "review")
            for bad in reply_message.invalid_tool_calls:
                note = {"not_run": True, "reason": "malformed"}
                reply.messages.append(tool_message(bad, note, error=True))
            update = reply.update()
        elif not reply_message.tool_calls:
            changed, update = self._final(reply_message, reply)
        else:
            for call in reply_message.tool_calls:
                if call["id"] not in answered and reply.pending(call):
                    reply.take(call, decide(call, reply.batch))
            update = reply.update()
        turns = seen_update(
            state.get("governance_seen"), messages, update.get("messages", []), run=run.get("run_id")
        )
        return changed, {**update, **turns}

    def _final(self, last: AIMessage, reply: Reply) -> tuple[AIMessage | None, dict[str, Any]]:
        """The final answer, reviewed as the Supervisor reviews one (required tools, identifiers
        from untrusted sources): approved (maybe annotated), escalated to a human, or a stop."""
        text = message_text(last)
        action = {"kind": "final", "answer": text}
        earlier = rules.refused_before(action, reply.batch.refusals)
        if earlier is not None:  # the same answer again: refused again, without asking twice
            reply.refuse_final(refused_again(action, earlier))
            return None, reply.update()
        decision = rules.review_action(action, reply.batch.context, self.policy, self.hooks)
        row = rules.review_row(decision)
        if decision.verdict == "block":
            reply.refuse_final(
                Verdict("refuse", action, f"supervisor_block:{decision.reason}", "supervisor", review=row)
            )
            return None, reply.update()
        verdict = ask(action, row, "original", reply.batch) if decision.verdict == "escalate" else None
        if verdict is not None and verdict.kind == "refuse":  # a human rejected it
            reply.refuse_final(verdict)
            return None, reply.update()
        if verdict is not None and verdict.kind != "run":  # no answer could be applied
            reply.stop(verdict.reason, "final", None, verdict)
            return None, reply.update()
        answer = annotated((verdict.action or action)["answer"] if verdict else text, row)
        who: dict[str, Any] = (
            {
                "approved_by": verdict.approved_by,
                "human_approved": verdict.human_approved,
                "reviewer": verdict.reviewer,
                "account": verdict.account,
                "answered_at": verdict.answered_at,
            }
            if verdict
            else {"approved_by": rules.APPROVED_BY_RULES}
        )
        who["executed_from"] = verdict.executed_from if verdict else "original"
        reply.answers_refused()
        reply.trace.append(trace_row(reply.run, "final", **figures(action, row, **who)))
        return (last.model_copy(update={"content": answer}) if answer != text else None), reply.update()

    async def abefore_agent(self, state: GovernanceState, runtime: Any) -> dict[str, Any]:
        settled = (
            await asyncio.to_thread(self._orphan_settled) if self.journal.blocking else self._orphan_settled()
        )
        update, moved = self._start(state, runtime)
        await audit.awrite(runtime, moved)
        return _with_settled(update, settled)

    @hook_config(can_jump_to=["model"])
    async def aafter_agent(self, state: GovernanceState, runtime: Any) -> dict[str, Any]:
        if asks_again(state):
            return {"jump_to": "model"}
        update, moved = self._end(state, runtime)
        await audit.awrite(runtime, moved)
        return update


def tampered_stop(state: Mapping[str, Any]) -> tuple[AIMessage, dict[str, Any]]:
    """The reply a human was asked about was changed in the checkpoint while it waited (its stamp
    no longer matches): none of its calls runs, the run stops ``approval_tampered``."""
    row = trace_row(run_of(state), "model", ok=False, stop_reason="approval_tampered")
    stopped = {"governance_stop_reason": "approval_tampered", **audit_rows(trace=[row])}
    return stop_message("approval_tampered", "governance"), stopped


def _with_settled(update: dict[str, Any], settled: dict[str, Any] | None) -> dict[str, Any]:
    """The new run's start with the trace row of a side effect in doubt a human settled first."""
    if settled is None:
        return update
    run = update["governance_run"]
    return merge_rows(update, audit_rows(trace=[trace_row(run, "in_doubt", ok=True, **settled)]))


def _response(answer: Any) -> ModelResponse:
    """The framework hands each layer a plain response (inner layers' commands are kept by it)."""
    return ModelResponse(result=[answer]) if isinstance(answer, AIMessage) else answer


def _well_formed(response: ModelResponse) -> ModelResponse:
    """The model's reply as the state keeps it (lone surrogates replaced: the review, the client
    and the audit read the same text and arguments)."""
    result = [well_formed_message(m) for m in response.result]
    if all(a is b for a, b in zip(result, response.result, strict=True)):
        return response
    return ModelResponse(result=result, structured_response=response.structured_response)


def _since(update: dict[str, Any], model_at: float) -> dict[str, Any]:
    """The step's bookkeeping with the time its model call started when the node first ran: the
    wait for a human since is not run time."""
    return {**update, "governance_clock": {**update["governance_clock"], "model_at": model_at}}


def _never(**kwargs: Any) -> Any:
    raise RuntimeError("the agent's ToolNode runs this tool, not the middleware")


def _schema_only(tool: Any) -> Any:
    """An async-only LangChain tool as the gateway can read it (its schema; the middleware never
    calls it: the agent's ToolNode does, on the async path)."""
    if isinstance(tool, StructuredTool) and tool.func is None and tool.coroutine is not None:
        return tool.model_copy(update={"func": _never})
    return tool


# LangChain wraps each middleware's ``wrap_*`` hooks in LangSmith's ``traceable``, which reads the
# hook's signature at every call (``inspect.signature``), tracing on or off: each hook carries its
# signature, read once here (PEP 362's ``__signature__``: the one ``inspect`` would compute).
for _hook in ("wrap_model_call", "awrap_model_call", "wrap_tool_call", "awrap_tool_call"):
    _function = getattr(GovernanceMiddleware, _hook)
    _function.__signature__ = inspect.signature(_function)
