"""What came of one tool call, as the audit keeps it and the model reads it.

- The tool's own answer (a ``ToolMessage``, or the ``ToolMessage`` a ``Command`` it returned
  carries for the call) is read as the Supervisor graph reads a tool's result
  (:func:`policies.observation.observation_of`): JSON text is the value it holds, so both engines
  apply ``trust_except`` and ``sensitive`` paths to the same fields. A call whose answer says
  ``status="error"`` or holds an ``error`` key is not ok.
- A call that ran with other arguments than the model proposed (revised by the supervisor, edited
  by a human, changed by another middleware and approved again) is answered with the tool's answer
  as it is, plus what ran: in the message's ``response_metadata["governance"]`` always, and, where
  the answer is a JSON object, in its ``_governance`` field (``ran_with``, ``executed_from``), so
  the model reads it and a parser still reads JSON. Other text gets a first line saying it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from langchain_core.messages import ToolMessage
from langgraph.types import Command

from nodes.messages import well_formed_message
from policies.observation import HEAD_CHARS, observation_of
from policies.tools import is_error_observation

#: The key of a JSON answer that says with which arguments a changed call ran.
NOTE_KEY = "_governance"
#: The start of the first line that says it in a text answer.
_NOTED = "[governance: this call ran with "


def answer_of(result: Any, call_id: Any) -> ToolMessage | None:
    """The ``ToolMessage`` answering call ``call_id`` in a tool's result (itself, or the one its
    ``Command`` carries), else None."""
    if isinstance(result, ToolMessage):
        return result
    if isinstance(result, Command) and isinstance(result.update, dict):
        for message in result.update.get("messages") or ():
            if isinstance(message, ToolMessage) and message.tool_call_id == call_id:
                return message
            if isinstance(message, Mapping) and message.get("tool_call_id") == call_id:
                return ToolMessage(**{k: v for k, v in message.items() if k != "type"})
    return None


def well_formed_answer(result: Any) -> Any:
    """A tool's answer (a ``ToolMessage``, or a ``Command`` carrying messages) with lone surrogates
    replaced (:func:`nodes.messages.well_formed_message`), so the model reads what the state, the
    call row and the audit log read back; anything else as it is."""
    if isinstance(result, ToolMessage):
        return well_formed_message(result)
    if isinstance(result, Command) and isinstance(result.update, dict) and result.update.get("messages"):
        said = result.update["messages"]
        fixed = [well_formed_message(m) for m in said]
        if any(a is not b for a, b in zip(fixed, said, strict=True)):
            return Command(update={**result.update, "messages": fixed}, goto=result.goto, graph=result.graph)
    return result


def observed(result: Any, call_id: Any) -> tuple[bool, Any]:
    """``(ok, observation)`` of a tool's answer: what its ``ToolMessage`` says, read as JSON where
    it is JSON text; a call without one is not ok and observed nothing."""
    answer = answer_of(result, call_id)
    if answer is None:
        return False, None
    observation = _observation(answer)
    return answer.status != "error" and not is_error_observation(observation), observation


def _observation(answer: ToolMessage) -> Any:
    content = answer.content  # text as the model read it, whitespace at its ends included
    return observation_of(content) if isinstance(content, str) else content


def observations(messages: Sequence[Any]) -> Iterator[Any]:
    """The observations the conversation's tool messages hold, as a call row keeps them (without
    the note :func:`noted` adds), of those long enough to be kept by reference in a call row
    (:func:`policies.observation.restored`)."""
    for message in messages:
        if not isinstance(message, ToolMessage):
            continue
        content = message.content
        if isinstance(content, str) and len(content) <= HEAD_CHARS:
            continue
        value = _observation(message)
        if isinstance(value, dict) and NOTE_KEY in value:
            value = {k: v for k, v in value.items() if k != NOTE_KEY}
        elif isinstance(value, str) and value.startswith(_NOTED):
            value = value.split("\n", 1)[-1]
        yield value


def withheld_answer(result: Any, call: Mapping[str, Any], observation: Any) -> Any:
    """A tool's answer with another subject's records withheld: the observation the audit keeps, in
    place of the tool's own text (a ``Command`` the tool returned keeps its other updates)."""
    message = answer_of(result, call.get("id"))
    if message is None:
        return result
    text = json.dumps(observation, ensure_ascii=False, default=str)
    kept = message.model_copy(update={"content": text})
    if isinstance(result, Command) and isinstance(result.update, dict):
        said = [
            kept
            if getattr(m, "tool_call_id", None) == call.get("id")
            or (isinstance(m, Mapping) and m.get("tool_call_id") == call.get("id"))
            else m
            for m in result.update.get("messages") or ()
        ]
        return Command(update={**result.update, "messages": said}, goto=result.goto, graph=result.graph)
    return kept


def noted(message: ToolMessage, plan: Mapping[str, Any]) -> ToolMessage:
    """A changed call's answer, saying with which arguments it ran (see the module's docstring)."""
    source = plan.get("executed_from")
    if source in (None, "original"):
        return message
    note = {"ran_with": plan["args"], "executed_from": source}
    metadata = {**message.response_metadata, "governance": note}
    content = message.content
    if isinstance(content, str):
        value = observation_of(content)
        if isinstance(value, dict):
            content = json.dumps({**value, NOTE_KEY: note}, ensure_ascii=False, default=str)
        elif isinstance(value, str):  # plain text: a first line says it
            ran = json.dumps(plan["args"], default=str)
            content = f"{_NOTED}{ran} ({source})]\n{content}"
    return message.model_copy(update={"content": content, "response_metadata": metadata})


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
#: What a call record keeps of its plan where a human answered: who (as named, and the account the
#: answer came from) and when.
_ANSWERED = ("reviewer", "account", "answered_at")


def call_record(
    plan: Mapping[str, Any], call_id: Any, ok: bool, observation: Any, attempts: int
) -> dict[str, Any]:
    """One call that ran, as ``governance_calls`` keeps it: what ran and who approved it (its plan),
    what came of it, and how often a retry invoked it (``attempts``, when more than once)."""
    record = {"run_id": plan["run_id"], "tool_call_id": call_id, **{k: plan.get(k) for k in _KEPT}}
    # who answered the question and when, where a human did (a name the answer gave none is absent)
    record.update({k: plan[k] for k in _ANSWERED if plan.get(k) is not None})
    record.update(ok=ok, observation=observation)
    if attempts > 1:
        record["attempts"] = attempts
    return record


def answer(message: Any, update: dict[str, Any]) -> Command:
    """The call's answer with the rows: a tool's own ``Command`` keeps its update, with the rows."""
    if isinstance(message, Command):
        merged = {**(message.update if isinstance(message.update, dict) else {}), **update}
        return Command(update=merged, goto=message.goto, graph=message.graph)
    return Command(update={"messages": [message], **update})
