"""The Supervisor's conversation: the messages chat clients show (``messages``) and, under native
tool calling, what the worker model is sent (derived from ``messages``: ``worker_transcript``).

Both protocols write the same conversation to ``messages``: the human turn, each proposed tool
call as an ``AIMessage`` with ``tool_calls``, each call's answer as a ``ToolMessage`` with its
``tool_call_id`` (the result; a refusal, ``status="error"``; a call not run), and the final answer
(or why the run stopped) as an ``AIMessage``.

Native tool calling (:data:`NATIVE_SYSTEM`): the worker model is sent the system prompt, the task
(a JSON human message: the goal, the subject) and this run's own AI replies and the tool messages
the gateway wrote, nothing else. The conversation is kept once, in ``messages``: the run records,
in ``worker_transcript``, the id and a digest of each message it wrote there for the worker, and
the two things the worker reads that chat clients do not show (a final answer of its own that was
refused, and the supervisor's word on it). A client's ``ToolMessage`` or AI ``tool_calls``
in ``messages`` have no entry there, so they never reach the model, never run and never count as
a call; a message of the run that a client replaced (same id, other content) no longer matches its
digest and is left out too.

Several tool calls in one reply run in order, each through the whole gateway (validation,
review, a human's approval when escalated, execution). An escalated call waits for its answer, and
the calls after it wait with it. When a call is refused, the calls after it are not run: each is
answered with an error ``ToolMessage`` saying that call k was refused, and the worker is asked
again. A run that stops answers every call still open the same way.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.messages.tool import invalid_tool_call, tool_call
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from nodes.messages import REQUEST_MESSAGE_KEY, message_id
from nodes.tool_gateway import ToolRegistry, tool_catalog
from policies.json_safety import json_problem
from policies.observation import HEAD_CHARS, restored
from policies.supervisor import SupervisorPolicy, rule_details
from policies.text import json_hash

Protocol = Literal["native", "json"]
#: The state key of what the worker model is sent after its task (native tool calling): entries
#: ``{"id", "digest"}`` for the run's messages in ``messages``, ``{"message"}`` for what only the
#: worker reads (a refused final answer, the supervisor's word). One run's; emptied by the next.
TRANSCRIPT_KEY = "worker_transcript"
#: Before ``worker_transcript``: the worker's own copy of the conversation, read only from runs
#: checkpointed with it (a run that waited for a human across an upgrade), emptied by a new run.
CONVERSATION_KEY = "worker_conversation"

NATIVE_SYSTEM = (
    "You are an operations worker. Carry out the task with the tools you are given; answer with "
    "a short final answer (no tool call) once it is done. Use the tool results; never invent them. "
    "A supervisor reviews every call before it runs: a tool result with refused=true means that "
    "call was refused (do not propose it again); not_run=true means it was not run."
)


def worker_protocol(setting: str, tool_calling: bool) -> Protocol:
    """The protocol a run uses: the policy's ``worker_protocol``; ``auto`` is native when the model
    implements ``bind_tools``."""
    if setting == "auto":
        return "native" if tool_calling else "json"
    return "native" if setting == "native" else "json"


def reset_conversation(state: Mapping[str, Any]) -> dict[str, Any]:
    """A new run's update: the worker's transcript emptied (when a run on the thread left one)."""
    update: dict[str, Any] = {TRANSCRIPT_KEY: []} if state.get(TRANSCRIPT_KEY) else {}
    if state.get(CONVERSATION_KEY):
        update[CONVERSATION_KEY] = [RemoveMessage(id=REMOVE_ALL_MESSAGES)]
    return update


def digest(message: BaseMessage) -> str:
    """What identifies a message's content for the worker: its type, text, tool calls (name,
    arguments, id), the call it answers and its status."""
    calls = [(c.get("name"), c.get("args"), c.get("id")) for c in getattr(message, "tool_calls", None) or []]
    return json_hash(
        [
            message.type,
            message.content,
            calls,
            getattr(message, "tool_call_id", None),
            getattr(message, "status", None),
            message.name,
        ]
    )


def _native(state: Mapping[str, Any]) -> bool:
    return state.get("worker_protocol") == "native"


def _transcribed(state: Mapping[str, Any], entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """An update adding ``entries`` to the worker's transcript."""
    return {TRANSCRIPT_KEY: [*(state.get(TRANSCRIPT_KEY) or []), *entries]} if entries else {}


def said(state: Mapping[str, Any], messages: Sequence[BaseMessage]) -> dict[str, Any]:
    """An update adding ``messages`` to ``messages`` and, under native tool calling, to what the
    worker model is sent (their ids and digests)."""
    update: dict[str, Any] = {"messages": list(messages)}
    if _native(state):
        update |= _transcribed(state, [{"id": m.id, "digest": digest(m)} for m in messages])
    return update


def worker_only(state: Mapping[str, Any], messages: Sequence[BaseMessage]) -> dict[str, Any]:
    """An update giving the worker model (native tool calling) ``messages`` that chat clients are
    not shown: its own final answer, refused, and the supervisor's word on it."""
    return _transcribed(state, [{"message": m} for m in messages]) if _native(state) else {}


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def task_message(state: Mapping[str, Any]) -> HumanMessage:
    """The task the worker model is given: the goal and the subject, as JSON."""
    task = {"role": "supervisor.worker", "goal": state.get("goal"), "subject": state.get("run_subject") or {}}
    return HumanMessage(content=_dumps(task))


def worker_view(state: Mapping[str, Any]) -> list[BaseMessage]:
    """This run's own conversation as the worker reads it: the messages its transcript names, from
    ``messages``, each only while it still has the content the run wrote; and what only the worker
    reads. (A run checkpointed with ``worker_conversation``: that copy first.)"""
    by_id = {m.id: m for m in state.get("messages") or [] if isinstance(m, BaseMessage) and m.id}
    view: list[BaseMessage] = list(state.get(CONVERSATION_KEY) or [])
    for entry in state.get(TRANSCRIPT_KEY) or []:
        if isinstance(entry.get("message"), BaseMessage):
            view.append(entry["message"])
            continue
        found = by_id.get(entry.get("id"))
        if found is not None and digest(found) == entry.get("digest"):
            view.append(found)
    return view


def observations(state: Mapping[str, Any]) -> Iterator[Any]:
    """The observations the conversation's tool messages hold (``{"ok", "observation", ...}``), of
    those long enough to be kept by reference in a call row (:func:`policies.observation.restored`)."""
    for message in state.get("messages") or []:
        content = getattr(message, "content", None)
        if not isinstance(message, ToolMessage) or not isinstance(content, str) or len(content) <= HEAD_CHARS:
            continue
        try:
            said = json.loads(content)
        except ValueError:
            continue
        if isinstance(said, dict) and "observation" in said:
            yield said["observation"]


def calls_whole(state: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The run's call rows with every observation kept by reference put back whole, from the
    conversation: what the review and the worker read."""
    return list(restored(list(state.get("calls") or []), lambda: observations(state)))


def worker_messages(state: Mapping[str, Any]) -> list[BaseMessage]:
    """What the worker model is sent: the system prompt, the task, this run's own conversation."""
    return [SystemMessage(content=NATIVE_SYSTEM), task_message(state), *worker_view(state)]


def tool_specs(tools: ToolRegistry, policy: SupervisorPolicy) -> list[dict[str, Any]]:
    """The tools the worker may call, as OpenAI tool dicts: the allowed tools, each with the
    policy's narrower argument schema where its ``ToolSpec`` declares one, else the tool's own."""
    shown = [name for name in policy.allowed_tools if name in tools or name in policy.tools]
    catalog = tool_catalog(tools, shown, policy.tools)
    return [{"type": "function", "function": {"name": name, **entry}} for name, entry in catalog.items()]


def new_call_id() -> str:
    return f"call_{uuid.uuid4().hex[:24]}"


def _call_id(given: Any, taken: set[str]) -> str:
    ok = isinstance(given, str) and given and given not in taken
    call_id = given if ok else new_call_id()
    taken.add(call_id)
    return call_id


def _storable(name: Any, args: Any, call_id: str) -> dict[str, Any]:
    """A call as the run can keep it: a name or arguments it cannot store (a lone surrogate, a
    NaN...) are replaced by none, so the call is refused by name, not a crash."""
    if json_problem(name) is not None:
        name = None
    if json_problem(args) is not None:
        args = "(arguments a run cannot keep)"
    return {"name": name, "args": args, "id": call_id}


def reply_calls(message: AIMessage) -> tuple[AIMessage, list[dict[str, Any]]]:
    """A tool-calling reply's calls in the order they are taken, and the reply as the run keeps it
    (every call with an id of its own). A call whose arguments could not be read (the model's
    ``invalid_tool_calls``, or arguments a run cannot keep) comes first: it ends the run
    (``invalid_action:bad_tool_args``) before any call of that reply runs."""
    taken: set[str] = set()
    bad: list[dict[str, Any]] = []
    good: list[dict[str, Any]] = []
    for unread in message.invalid_tool_calls:
        bad.append(_storable(unread.get("name"), unread.get("args"), _call_id(unread.get("id"), taken)))
    for call in message.tool_calls:
        entry = _storable(call.get("name"), call.get("args"), _call_id(call.get("id"), taken))
        kept = entry["args"] is call.get("args") and entry["name"] == call.get("name")
        (good if kept else bad).append(entry)
    # LangChain's own constructors: the dicts a checkpoint gives back have the same keys in order
    calls = [tool_call(name=c["name"], args=c["args"], id=c["id"]) for c in good]
    unread_calls = [
        invalid_tool_call(
            name=c["name"], args=c["args"] if isinstance(c["args"], str) else None, id=c["id"], error=None
        )
        for c in bad
    ]
    update = {"id": message.id or str(uuid.uuid4()), "tool_calls": calls, "invalid_tool_calls": unread_calls}
    kept = message.model_copy(update=update)
    return kept, bad + good


def proposal_message(action: Mapping[str, Any], call_id: str) -> AIMessage:
    """A JSON-protocol tool proposal as the AI message chat clients render (a tool call)."""
    call = tool_call(name=action["name"], args=dict(action.get("args") or {}), id=call_id)
    return AIMessage(content="", tool_calls=[call], id=str(uuid.uuid4()))


def tool_message(call_id: str, name: Any, content: Mapping[str, Any], *, ok: bool) -> ToolMessage:
    """The answer to one tool call: ``content`` (``ok``, ``observation``, ...) as JSON text."""
    return ToolMessage(
        content=_dumps(dict(content)),
        tool_call_id=call_id,
        name=str(name) if name else None,
        status="success" if ok else "error",
        id=str(uuid.uuid4()),
    )


def result_content(call: Mapping[str, Any], proposed: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the worker is told of an executed call: ``ok`` and the ``observation``, the arguments
    that ran when they are not the ones proposed, how (``executed_from``) and who approved it."""
    content: dict[str, Any] = {"ok": call.get("ok"), "observation": call.get("observation")}
    if proposed is not None and proposed.get("args") != call.get("args"):
        content["args"] = call.get("args")
    if call.get("executed_from") not in (None, "original"):
        content["executed_from"] = call["executed_from"]
    if call.get("approved_by"):
        content["approved_by"] = call["approved_by"]
    return content


def refusal_content(refusal: Mapping[str, Any], review: Mapping[str, Any] | None) -> dict[str, Any]:
    """A refusal as the worker is told it: by whom, why, the human's message, and the details the
    refusing check reported (the refusal's own, else the deciding review's), whatever their keys."""
    details = refusal.get("details") or (rule_details(review) if review else {})
    observation: dict[str, Any] = {"refused": True, "by": refusal.get("by"), "reason": refusal.get("reason")}
    if refusal.get("message"):
        observation["message"] = refusal["message"]
    if details:
        observation["details"] = details
    return {"ok": False, "observation": observation}


def _this_run(state: Mapping[str, Any]) -> list[AnyMessage]:
    """The messages this run wrote: those after its request's human turn."""
    messages: list[AnyMessage] = list(state.get("messages") or [])
    request = state.get(REQUEST_MESSAGE_KEY)
    ids = [message_id(m) for m in messages]
    return messages[ids.index(request) + 1 :] if request in ids else []


def open_calls(state: Mapping[str, Any], written: Iterable[BaseMessage] = ()) -> list[dict[str, Any]]:
    """The tool calls of this run's AI messages that no tool message answers yet, in order
    (``written``: messages of the update being made, not yet in state)."""
    calls: list[dict[str, Any]] = []
    answered: set[str] = set()
    for message in [*_this_run(state), *written]:
        if isinstance(message, AIMessage):
            calls += [dict(c) for c in [*message.invalid_tool_calls, *message.tool_calls]]
        elif isinstance(message, ToolMessage):
            answered.add(message.tool_call_id)
    return [c for c in calls if c.get("id") not in answered]


def not_run(calls: Iterable[Mapping[str, Any]], why: str) -> list[ToolMessage]:
    """Error answers to calls that were not run, saying why."""
    content = {"ok": False, "observation": {"not_run": True, "reason": why}}
    return [tool_message(str(c.get("id")), c.get("name"), content, ok=False) for c in calls]


def close_open_calls(state: Mapping[str, Any], stopped: dict[str, Any]) -> dict[str, Any]:
    """A stop's update with every call still open answered (not run: the run stopped), before the
    message saying why it stopped."""
    written = [m for m in stopped.get("messages", []) if isinstance(m, BaseMessage)]
    calls = open_calls(state, written)
    if not calls:
        return stopped
    why = f"the run stopped: {stopped.get('stop_reason')}"
    answers = not_run(calls, why)
    tail = [m for m in written if not isinstance(m, ToolMessage)]
    head = [m for m in written if isinstance(m, ToolMessage)]
    return {**stopped, "messages": [*head, *answers, *tail]}


def refused_final_messages(state: Mapping[str, Any], content: Mapping[str, Any]) -> dict[str, Any]:
    """The refusal of a final answer: a note chat clients show, and (native) the supervisor's word
    the worker model reads next, as a human message named ``supervisor``."""
    observation = content.get("observation") or {}
    note = AIMessage(
        content=f"The supervisor refused the proposed final answer ({observation.get('reason')}).",
        name="supervisor",
        id=str(uuid.uuid4()),
        response_metadata={"refused": True, "reason": observation.get("reason")},
    )
    word = HumanMessage(content=_dumps({"refused_final_answer": observation}), name="supervisor")
    answer = AIMessage(content=str((state.get("raw_action") or {}).get("answer") or ""))
    return {"messages": [note], **worker_only(state, [answer, word])}
