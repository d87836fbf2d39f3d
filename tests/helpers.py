"""Shared builders for the tests: scripted chat models for graph tests (no network), and the
actions, calls, rules and policies the review tests build theirs from."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import Field

from nodes.offline import OfflineChatModel, payload_of
from nodes.scripted import AnswerModel
from policies.decision import Decision
from policies.supervisor import ArgSource, ReviewContext, SupervisorPolicy, ToolRules, review_action
from policies.supervisor.provenance.ledger import ledger_entries, watched
from policies.supervisor.rules.kinds import Requested
from policies.tools import ArgSpec, ToolSpec


def as_text(reply: Any) -> str:
    return reply if isinstance(reply, str) else json.dumps(reply)


def scripted(*replies: Any, sleep: float | None = None) -> FakeListChatModel:
    """A model that answers with ``replies`` in order (dicts/lists are sent as JSON text)."""
    return FakeListChatModel(responses=[as_text(r) for r in replies], sleep=sleep)


class StubChatModel(AnswerModel):
    """A test chat model: a subclass answers each call with ``answer(messages)`` (an AIMessage, or
    its text) and names its kind in ``llm_type``."""

    llm_type = "stub-test-model"


class ToolStubChatModel(StubChatModel):
    """A :class:`StubChatModel` that calls tools: ``bind_tools`` keeps the model as it is."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ToolStubChatModel:  # type: ignore[override]
        return self


class RaisingModel(StubChatModel):
    """Answers with ``replies`` in order; an exception instance in the list is raised instead."""

    llm_type = "raising-test-model"
    replies: list[Any]
    calls: int = 0

    def answer(self, messages: list[BaseMessage]) -> str:
        reply = self.replies[min(self.calls, len(self.replies) - 1)]
        self.calls += 1
        if isinstance(reply, BaseException):
            raise reply
        if isinstance(reply, tuple):  # (seconds to sleep, reply)
            time.sleep(reply[0])
            reply = reply[1]
        if callable(reply):  # computed when called (e.g. to move a fake clock)
            reply = reply()
        return as_text(reply)


class RoleModel(StubChatModel):
    """Answers by the payload's ``role``: the next scripted reply for that role, and once the
    role's script is spent, what the offline model answers (``fallback="offline"``) or the last
    scripted reply again (``fallback="repeat"``).

    A scripted reply is text (sent as is), a dict/list (sent as JSON), an exception (raised), a
    callable taking the payload and returning one of these (computed when called), or None (the
    offline model answers this call; a callable may return None too).
    """

    script: dict[str, list[Any]] = Field(default_factory=dict)
    fallback: str = "offline"
    calls: list[str] = Field(default_factory=list)
    llm_type = "role-scripted-test-model"

    def load(self, script: dict[str, list[Any]]) -> RoleModel:
        """Start over with ``script`` (the graph keeps this model; examples swap its script)."""
        self.script = {role: list(replies) for role, replies in script.items()}
        self.calls = []
        return self

    def answer(self, messages: list[BaseMessage]) -> AIMessage | str:
        payload = payload_of(messages)
        role = str(payload.get("role"))
        done = self.calls.count(role)
        self.calls.append(role)
        replies = self.script.get(role) or []
        reply = None
        if done < len(replies) or (replies and self.fallback == "repeat"):
            reply = replies[min(done, len(replies) - 1)]
        if callable(reply) and not isinstance(reply, BaseException):
            reply = reply(payload)
        if reply is None:
            return OfflineChatModel()._generate(messages).generations[0].message
        if isinstance(reply, BaseException):
            raise reply
        return as_text(reply)


def tool_action(name: str, **args: Any) -> dict[str, Any]:
    """The Supervisor worker's JSON action that calls tool ``name`` with ``args``."""
    return {"kind": "tool", "name": name, "args": args}


#: The rules of a tool that only reads.
READ = ToolRules(read_only=True)
#: A payment's amount: the user's, or a trusted tool's figure.
AMOUNT_FROM_USER = ArgSource(arg="amount", sources=["request", "trusted"], reason="amount_not_from_user")
#: An event added to the calendar where the request asks for one, its title the user's or a trusted
#: tool's.
CREATE_EVENT = ToolRules(
    arg_sources=[ArgSource(arg="title", sources=["request", "trusted"], reason="event_not_asked_for")],
    requested=Requested(verbs=["add", "create"], objects=["calendar", "event"]),
)


def payouts_policy_of(refund: ToolRules, credit: ToolRules) -> SupervisorPolicy:
    """Two payout tools, ``issue_refund`` (with ``refund``'s rules) and ``store_credit`` (with
    ``credit``'s), beside ``look_up_order``, a trusted read."""
    return SupervisorPolicy.for_tools(
        ["look_up_order", "issue_refund", "store_credit"],
        side_effects=["issue_refund", "store_credit"],
        tools={"look_up_order": ToolSpec(trust="trusted")},
        rules={"look_up_order": READ, "issue_refund": refund, "store_credit": credit},
    )


def arg_specs(**types: str) -> dict[str, ArgSpec]:
    """A tool's argument specs by name, each a type's name, with ``?`` after it when the argument
    may be left out."""
    return {
        name: ArgSpec(type=kind[:-1], required=False) if kind.endswith("?") else ArgSpec(type=kind)
        for name, kind in types.items()
    }


def done_call(step: int, tool: str, observation: Any, **args: Any) -> dict[str, Any]:
    """A call of the run so far as the review reads it: step ``step`` called ``tool`` with ``args``,
    which returned ``observation``."""
    return {"step": step, "tool": tool, "args": args, "ok": True, "observation": observation}


def review_call(policy: SupervisorPolicy, name: str, args: dict[str, Any], **context: Any) -> Decision:
    """The review of a call of tool ``name`` with ``args`` under ``policy``, in the
    :class:`ReviewContext` of ``context`` (the run's calls, its request, ...)."""
    return review_action(tool_action(name, **args), ReviewContext(**context), policy)


def ledger_of(policy: SupervisorPolicy, *calls: tuple[str, dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    """The ledger entries ``policy``'s limits keep for ``calls`` (tool, args) that ran, each in a
    run of its own."""
    watch = watched(policy)
    return tuple(
        entry
        for i, (name, args) in enumerate(calls)
        for entry in ledger_entries(watch, {"tool": name, "args": args, "ok": True}, run_id=f"r{i}")
    )


def thread() -> dict[str, Any]:
    return {"configurable": {"thread_id": str(uuid.uuid4())}}


class FakeClock:
    """Moves ``nodes.clock.now`` forward on demand: install with ``monkeypatch``."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds

    def after(self, seconds: float, reply: Any) -> Any:
        """A reply that moves the clock forward when the model produces it."""

        def produce() -> Any:
            self.advance(seconds)
            return reply

        return produce


def gateway_rows(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The trace without successful LLM calls' rows (``call: llm``): one row per gateway phase or
    tool, and the row the run stopped on (a failed call's row included)."""
    return [row for row in trace if row.get("call") != "llm" or not row["ok"]]


def llm_rows(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The trace rows of LLM calls: phase, attempts, input/output tokens, cost."""
    return [row for row in trace if row.get("call") == "llm"]
