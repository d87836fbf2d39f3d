"""The conversation: what chat front ends send and read (``shared/spec/chat-clients.md``).

Every pattern's state has a ``messages`` channel (LangGraph's ``add_messages``), so Agent Chat UI,
Studio's chat view and any ``{"messages": [...]}`` client can start a run and show it:

- **The request.** A run's request is its pattern's text key (``goal``, ``question``) or, when the
  conversation ends with a human turn that no run has taken yet, that turn's text (the text blocks
  of its content; image and file blocks are not text). When both are given the human turn wins: it
  is what a chat user typed last. A run that starts from its text key adds that text to the
  conversation as the human turn, so every run's conversation shows what it was asked. A turn a
  run took and the client then edited (re-sent under its id with new text, which ``add_messages``
  puts in its place) is pending again: the edited text is the request.
- **The answer.** A run that ends ok adds its answer as an AI message; a run that stops adds a
  sentence saying where and why (:func:`stop_message`), so a chat user never sees a silent end.
- **Untrusted.** Only the pending human turns' text is read from what a client sends (the user's
  messages since the last reply: both engines read a turn so). Tool messages
  and AI tool calls a client puts in its input (Agent Chat UI fills in "Successfully handled tool
  call." for calls it saw unanswered) are never taken as a tool's result or as a call that ran.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from policies.json_safety import well_formed
from policies.text import text_hash

#: The state key holding the id of the human turn a run took as its request (so the next run on
#: the thread knows that turn is answered).
REQUEST_MESSAGE_KEY = "request_message_id"
#: The state key holding the hash of that turn's text as the run read it (an edit is pending again).
REQUEST_HASH_KEY = "request_message_hash"


def _role(message: Any) -> str | None:
    if isinstance(message, BaseMessage):
        return message.type
    if isinstance(message, Mapping):
        role = message.get("type", message.get("role"))
        return {"user": "human", "assistant": "ai"}.get(str(role), str(role)) if role else None
    return None


def message_text(message: Any) -> str:
    """The text of a message (a ``BaseMessage`` or its dict form): a string content as it is, or
    the text blocks of a list content joined by blank lines; other blocks (images, files) are not
    text. Whitespace at the ends is removed."""
    content = message.content if isinstance(message, BaseMessage) else (message or {}).get("content")
    if isinstance(content, str):
        return content.strip()
    parts: list[str] = []
    for block in content if isinstance(content, list) else ():
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, Mapping) and block.get("type") == "text":
            parts.append(block["text"] if isinstance(block.get("text"), str) else "")
    return "\n\n".join(p.strip() for p in parts if p.strip())


def well_formed_message(message: Any) -> Any:
    """A message as every store keeps it (:func:`policies.json_safety.well_formed`): its content,
    its tool calls' names and arguments and its extra fields with lone surrogates replaced by
    U+FFFD; the message itself when nothing changes (anything else as it is)."""
    if not isinstance(message, BaseMessage):
        return message
    changed: dict[str, Any] = {}
    for name in ("content", "additional_kwargs"):
        value = getattr(message, name)
        fixed = well_formed(value)
        if fixed is not value:
            changed[name] = fixed
    if isinstance(message, AIMessage):
        for name in ("tool_calls", "invalid_tool_calls"):
            calls = getattr(message, name)
            fixed_calls = [well_formed(call if type(call) is dict else dict(call)) for call in calls]
            if any(a is not b for a, b in zip(fixed_calls, calls, strict=True)):
                changed[name] = fixed_calls
    return message.model_copy(update=changed) if changed else message


def message_id(message: Any) -> str | None:
    value = message.id if isinstance(message, BaseMessage) else (message or {}).get("id")
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class ChatRequest:
    """What a run was asked: ``text`` (empty when the human turn had no text), the human turn it
    came from (``message_id``, None when the request came from the pattern's text key) and whether
    it came from the conversation."""

    text: str | None
    message_id: str | None = None
    from_messages: bool = False


def _edited(turn: Any, state: Mapping[str, Any]) -> bool:
    """Was the turn a run took edited since (its text is not the text the run read)?"""
    read = state.get(REQUEST_HASH_KEY)
    return read is not None and text_hash(message_text(turn)) != read


def pending_turns(state: Mapping[str, Any]) -> list[Any]:
    """The human turns no run has taken yet: every human message at the end of the conversation,
    after its last other message (the user's messages since the last reply, as the middleware reads
    a turn too), or the turn a run took when the client has edited it since; else none."""
    messages: Sequence[Any] = state.get("messages") or ()
    taken = state.get(REQUEST_MESSAGE_KEY)
    if messages and _role(messages[-1]) == "human":
        last = messages[-1]
        if taken is None or message_id(last) != taken or _edited(last, state):
            turns: list[Any] = []
            for message in reversed(messages):
                if _role(message) != "human" or (taken is not None and message_id(message) == taken):
                    break
                turns.insert(0, message)
            return turns or [last]
    turn = next((m for m in reversed(messages) if taken is not None and message_id(m) == taken), None)
    return [turn] if turn is not None and _role(turn) == "human" and _edited(turn, state) else []


def pending_turn(state: Mapping[str, Any]) -> Any | None:
    """The last of :func:`pending_turns`, or None."""
    turns = pending_turns(state)
    return turns[-1] if turns else None


def chat_request(state: Mapping[str, Any], key: str) -> ChatRequest:
    """The run's request: the pending human turns' text (joined by blank lines, as the middleware
    joins a turn's messages), else the state's ``key``."""
    turns = pending_turns(state)
    if turns:
        text = "\n\n".join(t for t in (message_text(m) for m in turns) if t)
        return ChatRequest(text, message_id(turns[-1]), from_messages=True)
    value = state.get(key)
    return ChatRequest(value if isinstance(value, str) else None)


def request_update(request: ChatRequest, key: str) -> dict[str, Any]:
    """The state update that records ``request``: its text under ``key`` and, for a request taken
    from the conversation, which turn it was; for one taken from ``key``, the human turn added to
    the conversation."""
    if request.from_messages:
        text = request.text or ""
        return {key: text, REQUEST_MESSAGE_KEY: request.message_id, REQUEST_HASH_KEY: text_hash(text)}
    if request.text and request.text.strip():
        turn = HumanMessage(content=request.text, id=str(uuid.uuid4()))
        return {"messages": [turn], REQUEST_MESSAGE_KEY: turn.id, REQUEST_HASH_KEY: text_hash(request.text)}
    return {}


def answer_message(text: str, **metadata: Any) -> AIMessage:
    """A run's answer as the AI turn a chat client shows (``metadata`` lands in
    ``response_metadata``: the run's outcome, stop reason...)."""
    return AIMessage(content=text, response_metadata=dict(metadata))


#: What a stop reason means, for a chat user, by name or by prefix (the first that fits).
_MEANINGS: tuple[tuple[str, str], ...] = (
    ("invalid_input:messages", "the last message has no text (images and files are not read)"),
    ("max_seconds", "the run used up its time budget"),
    ("max_tokens", "the run used up its token budget"),
    ("max_cost_usd", "the run used up its cost budget"),
    ("max_steps", "the run reached its limit of steps"),
    ("max_tool_calls", "the run reached its limit of tool calls"),
    ("max_execute_steps", "the run reached its limit of steps"),
    ("max_refusals", "too many of the worker's actions were refused"),
    ("loop_detected", "the worker kept repeating the same call"),
    ("no_reliable_sources", "no allowed source was found"),
    ("no_sources_after_dedupe", "no source was left to read"),
    ("source_denied:", "a source is not allowed"),
    ("verification_failed:", "a note could not be verified against its source"),
    ("patch_violation:", "the revision changed more than the review allowed"),
    ("policy_escalation", "the review asks for a human and the policy does not pause for one"),
    ("review_", "the review gave what the policy does not allow"),
    ("recursion_limit", "the recursion limit left too few steps to finish"),
    ("llm_timeout", "the model did not answer in time"),
    ("llm_", "the model's reply could not be used"),
    ("tool_denied:", "a tool call was not allowed"),
    ("tool_", "a tool call failed or was refused"),
    ("supervisor_block:", "the supervisor's rules refused an action"),
    ("human_rejected", "a human reviewer rejected the action"),
    ("approval_expired", "the question to a human expired before it was answered, so the action did not run"),
    ("human_resolved", "a human marked the request as resolved before the action ran"),
    ("invalid_human_answer", "a human reviewer's answer could not be applied"),
    ("effect_in_progress", "another process is making this very call now, so it was not made again"),
    ("approval_tampered", "the call that waited for approval was changed in storage since it was stamped"),
    ("thread_changed", "another run acted on this thread after the call was reviewed; ask again"),
    ("review_decision_denied_execution:", "the policy does not allow the reviewer's decision"),
    ("invalid_", "a reply failed the gateway's checks"),
)


#: The most characters of a problem a stop message carries.
PROBLEM_CHARS = 300


def stop_meaning(reason: str) -> str | None:
    """What ``reason`` means, in a few words (None for a reason this table does not know)."""
    if reason.startswith("invalid_input:") and reason != "invalid_input:messages":
        return f"the input has no valid `{reason.split(':', 1)[1]}`"
    return next(
        (
            text
            for key, text in _MEANINGS
            if reason == key or (key[-1] in ":_" and reason.startswith(key)) or reason.startswith(key + ":")
        ),
        None,
    )


def stop_message(reason: str, phase: str, problem: str | None = None) -> AIMessage:
    """The AI turn of a stopped run: where it stopped and why, in a sentence (the reason's meaning
    where :func:`stop_meaning` knows it), with the ``problem`` it stopped on where there is one (why
    a human's answer could not be applied: the rule it breaks, the argument it gets wrong)."""
    meaning = stop_meaning(reason)
    why = f"{meaning} ({reason})" if meaning else reason
    why += f": {' '.join(str(problem).split())[:PROBLEM_CHARS]}" if problem else ""
    text = f"The run stopped at {phase or 'its start'}: {why}. Nothing after that step was done."
    if reason.startswith("invalid_input:"):
        text = f"The run could not start: {why}."
        if reason == "invalid_input:messages":
            text += " Please send the request as text."
    return answer_message(text, status="stopped", stop_reason=reason, phase=phase)


def annotated(answer: str, review: Mapping[str, Any]) -> str:
    """A final answer with a note on the identifiers it carries from untrusted sources only (the
    review's ``final_answer_annotated``: each with where it was found), as both engines give it."""
    if review.get("reason") != "final_answer_annotated":
        return answer
    notes = "; ".join(f"{k.split(':', 1)[-1]} {v}" for k, v in (review.get("provenance") or {}).items())
    return f"{answer}\n\n[unverified: {notes}]"
