"""The run contract shared by every pattern's state.

Modules that define state types (this one and each ``graphs/<pattern>.py``) evaluate their
annotations when the class is made (no ``from __future__ import annotations``) and use
``typing_extensions.TypedDict``: an agent server may load a graph file under a module name that is
not in ``sys.modules``, where string annotations cannot be resolved, and pydantic builds the
input/output JSON schemas only from ``typing_extensions.TypedDict`` on Python < 3.12
(``tests/test_graph_loading.py``).
"""

from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from nodes.contract import RUN_CONTRACT_KEYS

__all__ = ["RESET", "RUN_CONTRACT_KEYS", "ChatInput", "RunState", "add_rows", "add_usage"]

#: A row that, first in an update, empties the list before the rest is appended. A run's first
#: node sends it, so a new run on a thread that already holds one starts from clean rows.
RESET: dict[str, Any] = {"__reset__": True}


def add_rows(left: list[dict[str, Any]] | None, right: list[dict[str, Any]] | None) -> list:
    """Reducer for ``trace`` and ``history``: append, or start over after ``RESET``."""
    right = list(right or [])
    if right and right[0] == RESET:
        return right[1:]
    return list(left or []) + right


def add_usage(left: dict[str, float] | None, right: dict[str, float] | None) -> dict[str, float]:
    """Reducer: usage (calls, tokens, ``cost_usd``) adds up over the run; ``RESET`` starts it over.
    Counts stay integers; the cost is a float rounded to 8 places (1e-8 USD)."""
    if right and right.get("__reset__"):
        return {k: v for k, v in right.items() if k != "__reset__"}
    total = dict(left or {})
    for key, value in (right or {}).items():
        summed = total.get(key, 0) + value
        total[key] = round(summed, 8) if isinstance(summed, float) else int(summed)
    return total


class RunState(TypedDict, total=False):
    """Keys every pattern's final state carries (the spec's run contract)."""

    run_id: str
    thread_id: str
    started_at: float
    model: str
    status: str
    stop_reason: str
    outcome: str
    answer: str
    phase: str
    trace: Annotated[list[dict[str, Any]], add_rows]
    history: Annotated[list[dict[str, Any]], add_rows]
    #: llm_calls, input_tokens, output_tokens, total_tokens, cost_usd, unpriced_calls
    usage: Annotated[dict[str, float], add_usage]
    # diagnostics of a stopped run
    details: dict[str, Any]
    raw_reply: str
    llm_detail: str
    #: the conversation chat clients show and send (:mod:`nodes.messages`): the request as a human
    #: turn, the answer (or why the run stopped) as an AI turn
    messages: Annotated[list[AnyMessage], add_messages]
    #: the id of the human turn the latest run took as its request, and the hash of its text as
    #: the run read it (a turn the client edits under its id is the next run's request)
    request_message_id: str
    request_message_hash: str


class ChatInput(TypedDict, total=False):
    """What every pattern's input accepts beside its own keys: a conversation whose last human
    turn is the request (Agent Chat UI, Studio's chat, ``{"messages": [...]}`` from Python)."""

    messages: Annotated[list[AnyMessage], add_messages]
