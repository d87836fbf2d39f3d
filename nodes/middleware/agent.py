"""``GovernanceMiddleware``: the Supervisor's policy in front of a ``create_agent`` agent.

Hooks: ``before_agent`` starts a run (its id, clock and step count); ``before_model`` ends it by
name when a budget is spent or a stop is pending (``jump_to: end``); ``after_model`` decides every
tool call of the model's reply before any runs (:mod:`nodes.middleware.decide`) and may pause for a
human there (an interrupt in LangChain's HITL shape); ``wrap_tool_call`` runs only what was
approved, as approved, with the idempotency key of a side-effecting call, and writes the audit rows.
``after_agent`` ends the run: with a store, its rows move to the thread's audit log
(:mod:`nodes.middleware.audit`).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from langchain.agents.middleware.types import AgentMiddleware, ToolCallRequest, hook_config
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import StructuredTool
from langgraph.errors import GraphBubbleUp
from langgraph.types import Command

from nodes.clock import now
from nodes.messages import message_text, stop_message
from nodes.middleware import audit
from nodes.middleware.decide import Batch, Verdict, ask, decide
from nodes.middleware.reply import FEEDBACK_NAME, Reply, tool_message
from nodes.middleware.state import GovernanceState, elapsed, figures, of_run, run_of, trace_row
from nodes.tool_gateway import (
    KEY_ARG,
    GovernedTool,
    ToolOutcome,
    ToolRegistryError,
    error_observation,
    governed_tool,
    tool_registry,
)
from policies import supervisor as rules
from policies.json_safety import type_name
from policies.tools import arg_problem, is_error_observation

Handler = Callable[[ToolCallRequest], ToolMessage | Command]


class GovernanceMiddleware(AgentMiddleware[GovernanceState, Any, Any]):
    """The Supervisor's gateway for any ``create_agent(model, tools, middleware=[...])`` agent.

    ``policy``: a :class:`~policies.supervisor.SupervisorPolicy` (``SupervisorPolicy.for_tools``);
    ``tools``: the agent's tools, for their own argument schemas (checked against the policy when
    the middleware is built; without them the middleware learns them from the model's requests,
    which a run resumed in another process has not made yet: pass them where runs resume
    elsewhere); ``custom_rules``: the functions the policy's rules name; ``subject``: whom the
    runs act for (a run's ``governance_subject`` input overrides it)."""

    state_schema = GovernanceState

    def __init__(
        self,
        policy: rules.SupervisorPolicy | None = None,
        *,
        tools: Iterable[Any] | Mapping[str, Any] | None = None,
        custom_rules: Mapping[str, rules.CustomRule] | None = None,
        subject: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.policy = policy if policy is not None else rules.SupervisorPolicy()
        self.hooks = dict(custom_rules or {})
        self.subject = dict(subject or {})
        self.tools: list[Any] = []
        self._registry: dict[str, GovernedTool] = {}
        if tools is not None:
            pairs = tools.items() if isinstance(tools, Mapping) else ((None, t) for t in tools)
            self._registry = tool_registry(
                {name or rules.tool_names([t])[0]: _schema_only(t) for name, t in pairs}
            )
            problems = rules.policy_problems(self.policy, self._models(), self.hooks)
            if problems:
                raise ValueError("the supervisor policy does not fit the tools: " + "; ".join(problems))

    def _models(self) -> dict[str, Any]:
        return {name: tool.model for name, tool in self._registry.items()}

    def _governed(self, tool: Any) -> GovernedTool | None:
        """The tool as the gateway reads it (its schema, whether it takes the key); learned once."""
        name = getattr(tool, "name", None)
        if not isinstance(name, str) or isinstance(tool, dict):
            return None
        if name not in self._registry:
            try:
                self._registry[name] = governed_tool(_schema_only(tool))
            except ToolRegistryError:  # a tool the gateway cannot read stays unknown: refused
                return None
        return self._registry[name]

    def _learn(self, tools: Iterable[Any] | None) -> None:
        for tool in tools or ():
            self._governed(tool)

    # ------------------------------------------------------------------ the run and its budgets

    def before_agent(self, state: GovernanceState, runtime: Any) -> dict[str, Any]:
        update, moved = audit.run_started(state, runtime)
        audit.write(runtime, moved)
        return update

    def after_agent(self, state: GovernanceState, runtime: Any) -> dict[str, Any] | None:
        update, moved = audit.run_ended(state, runtime)
        audit.write(runtime, moved)
        return update

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: GovernanceState, runtime: Any) -> dict[str, Any]:
        run = run_of(state)
        reason = state.get("governance_stop_reason")
        if reason is None and int(run.get("steps") or 0) >= self.policy.max_steps:
            reason = "max_steps"
        if reason is None and elapsed(run) >= self.policy.max_seconds:
            reason = "max_seconds"
        if reason is None:
            return {"governance_run": {**run, "model_at": now()}}
        row = trace_row(run, "model", ok=False, stop_reason=reason)
        done = {"governance_stop_reason": reason, "jump_to": "end"}
        return {**done, "governance_trace": [row], "messages": [stop_message(reason, "governance")]}

    def wrap_model_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        self._learn(request.tools)
        return handler(request)

    async def awrap_model_call(self, request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        self._learn(request.tools)
        return await handler(request)

    # ------------------------------------------------------------------ the review of a reply

    def _batch(self, state: GovernanceState, run: dict[str, Any]) -> Batch:
        calls = of_run(state.get("governance_calls"), run.get("run_id"))
        human = [
            message_text(m)
            for m in state.get("messages") or []
            if isinstance(m, HumanMessage) and m.name != FEEDBACK_NAME  # the gateway's, not the user's
        ]
        context = rules.ReviewContext(
            tuple(calls),
            dict(state.get("governance_subject") or self.subject),
            "\n".join(t for t in human if t),
            frozenset(self.policy.trusted_tools()),
            tuple(self.policy.constants()),
        )
        known = set(self._registry)
        models = {**{n: None for n in self.policy.tools}, **self._models()}
        about = {"run_id": run.get("run_id"), "step": run.get("steps")}
        past = [{"tool": c.get("tool"), "signature": c.get("signature")} for c in calls]
        refusals = list(of_run(state.get("governance_refusals"), run.get("run_id")))
        model_at = float(run.get("model_at") or now())
        return Batch(self.policy, self.hooks, models, known, context, past, refusals, about, model_at)

    @hook_config(can_jump_to=["end", "model"])
    def after_model(self, state: GovernanceState, runtime: Any) -> dict[str, Any] | None:
        messages = state.get("messages") or []
        last = messages[-1] if messages else None
        if not isinstance(last, AIMessage):
            return None
        run = {**run_of(state), "steps": int(run_of(state).get("steps") or 0) + 1}
        reply = Reply(run, self._batch(state, run))
        if last.invalid_tool_calls:
            reply.stop("invalid_action:bad_tool_args", "review")
            for bad in last.invalid_tool_calls:
                if bad.get("id"):
                    note = {"not_run": True, "reason": "malformed"}
                    reply.messages.append(tool_message(bad, note, error=True))
        elif not last.tool_calls:
            return self._final(last, reply)
        for call in last.tool_calls:
            if not call.get("id"):
                reply.stop("invalid_action:missing_tool_call_id", "review")
            elif reply.pending(call):
                reply.take(call, decide(call, reply.batch))
        return reply.update()

    def _final(self, last: AIMessage, reply: Reply) -> dict[str, Any]:
        """The final answer, reviewed as the Supervisor reviews one (required tools, identifiers
        from untrusted sources): approved (maybe annotated), escalated to a human, or a stop."""
        text = message_text(last)
        action = {"kind": "final", "answer": text}
        earlier = rules.refused_before(action, reply.batch.refusals)
        if earlier is not None:  # the same answer again: refused again, without asking twice
            row = {"decision": "block", "reason": "refused_before", "refused_at_step": earlier.get("step")}
            again = str(earlier["reason"]), str(earlier["by"]), str(earlier.get("message") or "")
            reply.refuse_final(Verdict("refuse", action, *again, row))
            return reply.update()
        decision = rules.review_action(action, reply.batch.context, self.policy, self.hooks)
        row = {"decision": decision.verdict, "reason": decision.reason, **decision.details}
        if decision.verdict == "block":
            reply.refuse_final(
                Verdict("refuse", action, f"supervisor_block:{decision.reason}", "supervisor", review=row)
            )
            return reply.update()
        verdict = ask(action, row, "original", reply.batch) if decision.verdict == "escalate" else None
        if verdict is not None and verdict.kind == "refuse":  # a human rejected it
            reply.refuse_final(verdict)
            return reply.update()
        if verdict is not None and verdict.kind != "run":  # no answer could be applied
            reply.stop(verdict.reason, "final", None, verdict)
            return reply.update()
        answer = (verdict.action or action)["answer"] if verdict else text
        if decision.reason == "final_answer_annotated":
            notes = "; ".join(
                f"{k.split(':', 1)[-1]} {v}" for k, v in (decision.details.get("provenance") or {}).items()
            )
            answer = f"{answer}\n\n[unverified: {notes}]"
        who = (
            {"approved_by": verdict.approved_by, "human_approved": verdict.human_approved} if verdict else {}
        )
        reply.trace.append(trace_row(reply.run, "final", **figures(action, row, **who)))
        update = reply.update()
        if answer != text:
            update["messages"] = [last.model_copy(update={"content": answer})]
        return update

    async def abefore_agent(self, state: GovernanceState, runtime: Any) -> dict[str, Any]:
        update, moved = audit.run_started(state, runtime)
        await audit.awrite(runtime, moved)
        return update

    async def aafter_agent(self, state: GovernanceState, runtime: Any) -> dict[str, Any] | None:
        update, moved = audit.run_ended(state, runtime)
        await audit.awrite(runtime, moved)
        return update

    @hook_config(can_jump_to=["end"])
    async def abefore_model(self, state: GovernanceState, runtime: Any) -> dict[str, Any]:
        return self.before_model(state, runtime)

    @hook_config(can_jump_to=["end"])
    async def aafter_model(self, state: GovernanceState, runtime: Any) -> dict[str, Any] | None:
        return self.after_model(state, runtime)

    # ------------------------------------------------------------------ running an approved call

    def _checked(self, request: ToolCallRequest) -> tuple[dict[str, Any], ToolCallRequest] | Command:
        """The plan of an approved call and the request that runs it, or the answer instead of running."""
        call, state = request.tool_call, request.state or {}
        run = run_of(state)
        plan = (state.get("governance_plan") or {}).get(str(call.get("id")))
        if plan is None or plan.get("run_id") != run.get("run_id"):
            note = {"refused": True, "by": "gateway", "reason": "not_reviewed"}
            return Command(update={"messages": [tool_message(call, note, error=True)]})
        if elapsed(run) >= self.policy.max_seconds:
            note = {"not_run": True, "reason": "max_seconds"}
            row = trace_row(run, "execution", ok=False, **plan["figures"], stop_reason="max_seconds")
            return Command(
                update={
                    "messages": [tool_message(call, note, error=True)],
                    "governance_trace": [row],
                    "governance_stop_reason": "max_seconds",
                }
            )
        governed = self._governed(request.tool) if request.tool is not None else None
        problem = (
            arg_problem(plan["tool"], plan["args"], model=governed.model) if governed else ("tool", "", "")
        )
        if problem is not None and governed is not None and governed.model is not None:
            note = {"refused": True, "by": "gateway", "reason": f"tool_bad_args:{plan['tool']}"}
            return Command(update={"messages": [tool_message(call, note, error=True)]})
        to_run = request.override(tool_call={**call, "args": dict(plan["args"])})
        if plan.get("idempotency_key") and governed is not None and governed.takes_key:
            # the ToolNode strips caller-written values of hidden (InjectedToolArg) arguments, so
            # the key goes in as the tool is invoked, as the gateway supplies it
            to_run = to_run.override(tool=_Keyed(request.tool, plan["idempotency_key"]))  # type: ignore[arg-type]
        return plan, to_run

    def _observed(self, request: ToolCallRequest, plan: dict[str, Any], result: Any) -> Command:
        """The tool's answer with the call's audit rows; a raised error is observed (or, with
        ``on_tool_error: stop``, a named stop the next model step ends the run with)."""
        call, run = request.tool_call, run_of(request.state or {})
        raised = isinstance(result, BaseException)
        if raised:
            detail = {"error_type": type_name(result), "message": str(result)[:300]}
            outcome = ToolOutcome(False, reason=f"tool_error:{plan['tool']}", raised=True, detail=detail)
            result = tool_message(call, error_observation(outcome), error=True)
        observation = _observation(result) if isinstance(result, ToolMessage) else None
        ok = isinstance(result, ToolMessage) and result.status != "error"
        ok = ok and not is_error_observation(observation)
        record = {"run_id": plan["run_id"], "tool_call_id": call.get("id"), **{k: plan.get(k) for k in _KEPT}}
        record.update(ok=ok, observation=observation)
        row = trace_row({**run, "steps": plan["step"]}, "execution", **plan["figures"], observation_ok=ok)
        update: dict[str, Any] = {"governance_calls": [record], "governance_trace": [row]}
        if raised and self.policy.on_tool_error == "stop":
            update["governance_stop_reason"] = f"tool_error:{plan['tool']}"
        if isinstance(result, Command):  # the tool's own Command: its update stands, with the rows
            merged = {**(result.update if isinstance(result.update, dict) else {}), **update}
            return Command(update=merged, goto=result.goto, graph=result.graph)
        return Command(update={"messages": [_noted(result, plan)], **update})

    def wrap_tool_call(self, request: ToolCallRequest, handler: Handler) -> ToolMessage | Command:
        checked = self._checked(request)
        if isinstance(checked, Command):
            return checked
        plan, to_run = checked
        try:
            result: Any = handler(to_run)
        except GraphBubbleUp:
            raise
        except Exception as exc:  # observed (or a named stop), as the Supervisor's gateway does
            result = exc
        return self._observed(to_run, plan, result)

    async def awrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command]]
    ) -> ToolMessage | Command:
        checked = self._checked(request)
        if isinstance(checked, Command):
            return checked
        plan, to_run = checked
        try:
            result: Any = await handler(to_run)
        except GraphBubbleUp:
            raise
        except Exception as exc:
            result = exc
        return self._observed(to_run, plan, result)


#: What a call record keeps of its plan (beside run_id, tool_call_id, ok and the observation).
_KEPT = (
    "step",
    "tool",
    "args",
    "signature",
    "executed_from",
    "approved_by",
    "human_approved",
    "idempotency_key",
)


def _never(**kwargs: Any) -> Any:
    raise RuntimeError("the agent's ToolNode runs this tool, not the middleware")


def _schema_only(tool: Any) -> Any:
    """An async-only LangChain tool as the gateway can read it (its schema; the middleware never
    calls it: the agent's ToolNode does, on the async path)."""
    if isinstance(tool, StructuredTool) and tool.func is None and tool.coroutine is not None:
        return tool.model_copy(update={"func": _never})
    return tool


def _noted(message: ToolMessage, plan: Mapping[str, Any]) -> ToolMessage:
    """A revised or edited call's result, saying with which arguments the call ran (the model's
    message still shows the arguments it proposed)."""
    source = plan.get("executed_from")
    if source in (None, "original") or not isinstance(message.content, str):
        return message
    note = f"[governance: this call ran with {json.dumps(plan['args'], default=str)} ({source})]\n"
    return message.model_copy(update={"content": note + message.content})


class _Keyed:
    """A tool as the ToolNode invokes it, with the idempotency key of the approved call added to
    its arguments (the key is hidden from the model: an ``InjectedToolArg``)."""

    def __init__(self, tool: Any, key: str) -> None:
        self._tool, self._key = tool, key

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tool, name)

    def _keyed(self, tool_input: Any) -> Any:
        if isinstance(tool_input, dict) and isinstance(tool_input.get("args"), dict):
            return {**tool_input, "args": {**tool_input["args"], KEY_ARG: self._key}}
        return tool_input

    def invoke(self, tool_input: Any, config: Any = None, **kwargs: Any) -> Any:
        return self._tool.invoke(self._keyed(tool_input), config, **kwargs)

    async def ainvoke(self, tool_input: Any, config: Any = None, **kwargs: Any) -> Any:
        return await self._tool.ainvoke(self._keyed(tool_input), config, **kwargs)


def _observation(message: ToolMessage) -> Any:
    """A tool's result as the run keeps it: the JSON its message carries, else its text."""
    text = message_text(message)
    try:
        return json.loads(text)
    except ValueError:
        return text
