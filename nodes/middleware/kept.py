"""The model's reply kept while its review waits for a human.

The review runs inside the model's node (``wrap_model_call``, once the model has answered). When it
asks a human, LangGraph ends the node with the interrupt, and the human's answer runs the whole node
again: the model would be called a second time and might propose something else than the human
was shown. So before the node waits, its reply is kept as the result of a LangGraph task (``@task``:
its result is saved with the thread's checkpoint, and the same task in the node run again returns
it without running); the node run again with the answer reads it back instead of calling the model.
Only a node that was waiting reads it (:func:`~nodes.langgraph_private.resuming`), so a step that
asks no one costs nothing here.

A model wrapper inside ours may have asked a question of its own before the model's call: the
node was then run again for its answer before the review asked. Each read marks the slot it finds
empty, so the kept reply is found in the slot after; and the answers to those earlier questions
are counted when the reply is kept and passed over when it is read back (the call that asked them
is not made again), so the review's question is matched with its own answer, never theirs.
"""

from __future__ import annotations

import uuid
from typing import Any, cast

from langchain.agents.middleware import ModelResponse
from langgraph.func import task

from nodes import stamps
from nodes.langgraph_private import answered_interrupts, resuming, skip_interrupts


def _as_kept(reply: dict[str, Any]) -> dict[str, Any]:
    return reply


#: the task whose saved result is the kept reply (typed loosely: ``task``'s stubs do not carry the
#: wrapped function's parameters)
_kept: Any = cast(Any, task)(name="governance_kept_reply")(_as_kept)
#: the mark a slot gets where nothing was kept (a node run again after an interrupt that was not
#: the review's: a wrapper's inside ours), with a value of its own at each read
NOTHING = "nothing_kept"


def shown(result: list[Any]) -> list[dict[str, Any]]:
    """What a human is asked about in a reply: each AI message's text and tool calls (what its
    stamp covers)."""
    said = []
    for message in result:
        calls = getattr(message, "tool_calls", None) or []
        named = [{"name": c.get("name"), "args": c.get("args"), "id": c.get("id")} for c in calls]
        said.append({"content": getattr(message, "content", None), "tool_calls": named})
    return said


def _packed(response: ModelResponse, model_at: float, skip: int) -> dict[str, Any]:
    return {
        "result": list(response.result),
        "structured_response": response.structured_response,
        "model_at": model_at,
        "skip": skip,
        # with $AGENT_PATTERNS_AUDIT_KEY: the calls the human is asked about, stamped
        **stamps.stamp("kept_reply", shown(list(response.result)), model_at),
    }


def _unpacked(kept: dict[str, Any]) -> tuple[ModelResponse, float, bool]:
    """The kept reply, when its model call started and whether it is the reply stamped when it
    was kept (False: changed in the checkpoint while it waited; True without a key), taken up
    again: the answers to the interrupts raised inside the model's call before it was kept are
    passed over here, as the call is not made again."""
    skip_interrupts(int(kept.get("skip") or 0))  # theirs were answered for a model call not made again
    response = ModelResponse(result=list(kept["result"]), structured_response=kept.get("structured_response"))
    model_at = float(kept.get("model_at") or 0.0)
    said = shown(list(response.result))
    intact = not stamps.tampered(kept.get("stamp"), "kept_reply", said, kept.get("model_at"))
    return response, model_at, intact


def _slot(got: Any, mark: dict[str, str]) -> str:
    """What a read slot holds: ``"reply"``, ``"empty"`` (an earlier run of the node found nothing
    there: the next slot may hold it) or ``"end"`` (read for the first time now: nothing after)."""
    if isinstance(got, dict) and "result" in got:
        return "reply"
    return "empty" if isinstance(got, dict) and NOTHING in got and got != mark else "end"


def kept_reply() -> tuple[ModelResponse, float, bool] | None:
    """The reply (and when its model call started) this node kept before it waited for a human;
    None in a node run afresh, or where nothing was kept (the model is then called as usual). The
    answers given to interrupts raised inside the model's call before the review asked are passed
    over: the call is not made again."""
    if not resuming():
        return None
    while True:
        mark = {NOTHING: uuid.uuid4().hex}
        got = _kept(mark).result()
        found = _slot(got, mark)
        if found != "empty":
            return _unpacked(got) if found == "reply" else None


async def akept_reply() -> tuple[ModelResponse, float, bool] | None:
    if not resuming():
        return None
    while True:
        mark = {NOTHING: uuid.uuid4().hex}
        got = await _kept(mark)
        found = _slot(got, mark)
        if found != "empty":
            return _unpacked(got) if found == "reply" else None


def keep(response: ModelResponse, model_at: float) -> None:
    """Keep the reply before the node waits for a human (the first time it waits), with how many
    interrupts inside the model's call were answered before the review asked."""
    _kept(_packed(response, model_at, answered_interrupts())).result()


async def akeep(response: ModelResponse, model_at: float) -> None:
    await _kept(_packed(response, model_at, answered_interrupts()))
