"""What runs is what was reviewed: the last check of a tool call, made as the tool is invoked.

The middleware approves a call in the model's node, once the model has answered (the call's
*plan*), and runs it in ``wrap_tool_call``. Other middleware sits on either side of
``wrap_tool_call`` and may change the call on its way to the tool: LangChain's
``HumanInTheLoopMiddleware`` applies a reviewer's edit there (before ours or after it, by its place
in the list), a user's middleware may rewrite the arguments or send the call to another tool. So
the middleware gives the ``ToolNode`` a :class:`Guard` in place of the tool (and of every tool the
request's runtime offers): invoked with the call as it finally is, after every other middleware,
the guard compares the tool's name and the arguments the model can set with the plan. The planned
call runs, with the plan's idempotency key; a changed call is reviewed again as any call is
(validated, checked by the gateway, reviewed, put to a human when the rules escalate it) and runs
only as approved then, or is answered with its refusal. A retry (``ToolRetryMiddleware``) invokes
the guard again: the same call, the same key; a side-effecting tool that takes no key is not
invoked twice.

What the guard saw (:class:`Seen`) is what the audit records: the call that ran and who approved
those arguments, the tool's own answer (before any other middleware touched it), or that the tool
never ran through the gateway (an emulator or a cache answered instead): such an answer is no
tool data, no source of provenance and no call row.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import ToolMessage
from langgraph.errors import GraphBubbleUp

from nodes.middleware.decide import Verdict
from nodes.middleware.outcome import well_formed_answer
from nodes.tool_gateway import KEY_ARG
from policies.json_safety import json_problem
from policies.schemas import model_fields

#: ``executed_from`` of a call that another middleware changed after review and that ran once it
#: was reviewed again.
CHANGED = "changed_after_review"


@dataclass
class Seen:
    """What the guards of one call saw: how often the tool was invoked (``attempts``), the plan it
    ran under (the approved one, or the changed call as it was approved again), the tool's own
    answer (a ``ToolMessage``, a ``Command``, or the exception it raised), the verdict of each
    changed call reviewed again, and the answer given instead of running one (``answer``, the
    ``Reply`` that holds its rows)."""

    attempts: int = 0
    plan: dict[str, Any] | None = None
    result: Any = None
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    answer: Any = None
    reply: Any = None
    #: the thread journal's claim of the call (:class:`nodes.effects.Claimed`), and the answer
    #: given instead of running it where the claim found it made (or a human said not to run it)
    claimed: Any = None
    instead: dict[str, Any] | None = None


def hidden_args(tool: Any, args: Mapping[str, Any]) -> set[str]:
    """The arguments of a call to ``tool`` the model cannot set: injected ones (state, store,
    runtime, the call's id, the idempotency key), which the ``ToolNode`` and the gateway supply.
    An argument the tool's input schema leaves out (a tool whose schema is declared apart from its
    function, such as ``write_todos``) counts as injected when its value is no JSON data."""
    try:
        full = model_fields(tool.get_input_schema())
        shown = tool.tool_call_schema
        visible = set(shown.get("properties") or {}) if isinstance(shown, dict) else model_fields(shown)
    except Exception:  # a tool without readable schemas: only the key is hidden
        full, visible = set(args), set(args)
    unlisted = {k for k, v in args.items() if k not in full | visible and json_problem(v) is not None}
    return (full - visible) | unlisted | {KEY_ARG}


def _key(action: Mapping[str, Any]) -> str:
    return json.dumps([action.get("name"), action.get("args")], sort_keys=True, default=str)


class Guard:
    """A tool as the ``ToolNode`` invokes it for one approved call (see the module's docstring).

    ``plan``: the approved call; ``recheck``: reviews a changed call and returns its verdict (and,
    for one that does not run, leaves its answer in ``seen.answer``); ``replan``: the plan of a
    changed call approved again; ``takes_key``: whether a tool of that name takes the idempotency
    key; ``refuse``: the answer to a second invocation of a side effect without a key;
    ``claim``: the thread journal's claim of a side effect before its first invocation (None: run
    it; else the answer given instead: :mod:`nodes.effects`)."""

    def __init__(
        self,
        tool: Any,
        plan: Mapping[str, Any],
        seen: Seen,
        *,
        recheck: Callable[[dict[str, Any]], Verdict],
        replan: Callable[[Verdict], dict[str, Any]],
        takes_key: Callable[[str], bool],
        refuse: Callable[[Mapping[str, Any], str], ToolMessage],
        claim: Callable[[Mapping[str, Any], dict[str, Any]], ToolMessage | None] | None = None,
        blocking: bool = False,
    ) -> None:
        self._tool, self._plan, self.seen = tool, dict(plan), seen
        self._recheck, self._replan, self._takes_key, self._refuse = recheck, replan, takes_key, refuse
        self._claim, self.blocking = claim, blocking

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tool, name)

    def _prepare(self, tool_input: Any) -> dict[str, Any] | ToolMessage:
        """The call as the tool will receive it, or the answer given instead of running it."""
        call = dict(tool_input) if isinstance(tool_input, Mapping) else {}
        given = call.get("args")
        args: dict[str, Any] = given if isinstance(given, dict) else {}
        hidden = hidden_args(self._tool, args)
        shown = {k: v for k, v in args.items() if k not in hidden}
        # what runs is this tool, whatever name the call carries
        action = {"name": getattr(self._tool, "name", call.get("name")), "args": shown}
        plan = self._plan
        if (action["name"], shown) != (plan["tool"], plan["args"]):  # changed after review
            changed = _key(action)
            verdict = self.seen.verdicts.get(changed)
            if verdict is None:  # reviewed once, whatever retries invoke it again
                verdict = self.seen.verdicts[changed] = self._recheck({**action, "id": call.get("id")})
            if verdict.kind != "run":
                return self.seen.answer
            plan = self._replan(verdict)
        self.seen.attempts += 1
        self.seen.plan = plan
        key = plan.get("idempotency_key")
        if self.seen.attempts > 1 and key and not self._takes_key(plan["tool"]):
            return self._refuse(call, "a side effect without an idempotency key runs once: not retried")
        if self.seen.attempts == 1 and key and self._claim is not None:
            instead = self._claim(call, plan)  # made already, elsewhere now, or in doubt
            if instead is not None:
                return instead
        ran = {**{k: v for k, v in args.items() if k in hidden and k != KEY_ARG}, **plan["args"]}
        if key and self._takes_key(plan["tool"]):
            ran[KEY_ARG] = key  # hidden from the model: the ToolNode strips what a caller writes
        return {**call, "args": ran}

    def invoke(self, tool_input: Any, config: Any = None, **kwargs: Any) -> Any:
        prepared = self._prepare(tool_input)
        if isinstance(prepared, ToolMessage):
            return prepared
        with self._keeping_failure():
            self.seen.result = well_formed_answer(self._tool.invoke(prepared, config, **kwargs))
        return self.seen.result

    async def ainvoke(self, tool_input: Any, config: Any = None, **kwargs: Any) -> Any:
        if self._claim is not None and self.blocking:  # the claim writes to a database: off the loop
            prepared = await asyncio.to_thread(self._prepare, tool_input)
        else:
            prepared = self._prepare(tool_input)
        if isinstance(prepared, ToolMessage):
            return prepared
        with self._keeping_failure():
            self.seen.result = well_formed_answer(await self._tool.ainvoke(prepared, config, **kwargs))
        return self.seen.result

    @contextmanager
    def _keeping_failure(self) -> Iterator[None]:
        """The tool's exception kept as the call's result, and raised on (a graph's interrupt, which
        is no failure, passes untouched)."""
        try:
            yield
        except GraphBubbleUp:
            raise
        except Exception as exc:
            self.seen.result = exc
            raise
