"""The model's reply kept while its review waits for a human.

The review runs inside the model's node (``wrap_model_call``, once the model has answered). When it
asks a human, LangGraph ends the node with the interrupt, and the human's answer runs the whole node
again: the model would be called a second time and might propose something else than the human
was shown. So before the node waits, its reply is kept as the result of a LangGraph task (``@task``:
its result is saved with the thread's checkpoint, and the same task in the node run again returns
it without running); the node run again with the answer reads it back instead of calling the model.
Only a node that was waiting reads it (:func:`~nodes.langgraph_private.resuming`), so a step that
asks no one costs nothing here.
"""

from __future__ import annotations

from typing import Any, cast

from langchain.agents.middleware import ModelResponse
from langgraph.func import task

from nodes.langgraph_private import resuming


def _as_kept(reply: dict[str, Any] | None) -> dict[str, Any] | None:
    return reply


#: the task whose saved result is the kept reply (typed loosely: ``task``'s stubs do not carry the
#: wrapped function's parameters)
_kept: Any = cast(Any, task)(name="governance_kept_reply")(_as_kept)


def _packed(response: ModelResponse, model_at: float) -> dict[str, Any]:
    return {
        "result": list(response.result),
        "structured_response": response.structured_response,
        "model_at": model_at,
    }


def _unpacked(kept: Any) -> tuple[ModelResponse, float] | None:
    if not isinstance(kept, dict) or "result" not in kept:
        return None
    response = ModelResponse(result=list(kept["result"]), structured_response=kept.get("structured_response"))
    return response, float(kept.get("model_at") or 0.0)


def kept_reply() -> tuple[ModelResponse, float] | None:
    """The reply (and when its model call started) this node kept before it waited for a human;
    None in a node run afresh, or where nothing was kept (the model is then called as usual)."""
    return _unpacked(_kept(None).result()) if resuming() else None


async def akept_reply() -> tuple[ModelResponse, float] | None:
    return _unpacked(await _kept(None)) if resuming() else None


def keep(response: ModelResponse, model_at: float) -> None:
    """Keep the reply before the node waits for a human (the first time it waits)."""
    _kept(_packed(response, model_at)).result()


async def akeep(response: ModelResponse, model_at: float) -> None:
    await _kept(_packed(response, model_at))
