"""The support desk as a ``create_agent`` agent governed by ``GovernanceMiddleware``: the tools and
policy of :mod:`demo_tools.support_desk`, the agent docs/quickstart.md builds, and the ``support_desk``
graph of langgraph.json (Studio, Agent Chat UI).

A thread acts for one customer: pass ``governance_subject`` in the input (``{"customer":
"cust-42"}``), or ``subject=`` here (the served ``graph`` acts for the demo's ``cust-42``).
Without an API key the model is the desk's offline worker
(:class:`nodes.offline.support_desk.OfflineDeskModel`); with ``OPENAI_API_KEY`` it is
``ChatOpenAI`` (``OPENAI_MODEL``, ``OPENAI_BASE_URL``). A desk thread is a long chat: the agent
keeps its conversation and rows as delta channels (``GovernanceDeltaState``) unless
``AGENT_PATTERNS_DELTA_CHANNELS=0`` (the patterns' switch, :mod:`graphs.compile`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.store.base import BaseStore

from demo_tools import support_desk as desk
from graphs.compile import delta_channels_enabled
from nodes.middleware import GovernanceDeltaState, GovernanceMiddleware, GovernanceState
from nodes.model import openai_chat_model
from nodes.offline.support_desk import OfflineDeskModel

PROMPT = (
    "You are a customer-support agent. Use the tools to read tickets, look up orders, refund and "
    "e-mail the customer. A refused call is final: say what was refused and why."
)


def desk_model(env: Mapping[str, str] | None = None) -> BaseChatModel:
    """``ChatOpenAI`` when ``OPENAI_API_KEY`` is set, else the desk's offline worker."""
    env = os.environ if env is None else env
    if not env.get("OPENAI_API_KEY"):
        return OfflineDeskModel()
    return openai_chat_model(env, json_replies=False, max_retries=2)


def build_agent(
    *,
    model: BaseChatModel | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    store: BaseStore | None = None,
    middleware: Sequence[Any] = (),
    subject: Mapping[str, Any] | None = None,
) -> Any:
    """The desk's agent: ``create_agent`` with the desk's tools, ``middleware`` (LangChain's own,
    say) after the governance, first in the list (docs/own-agent-reference.md, "Where to put it").
    Its state keeps the conversation and the rows as delta channels while the switch is on
    (:func:`graphs.compile.delta_channels_enabled`, read here)."""
    governance = GovernanceMiddleware(desk.policy, tools=desk.tools, subject=subject)
    return create_agent(
        model if model is not None else desk_model(),
        desk.tools,
        system_prompt=PROMPT,
        middleware=[governance, *middleware],
        checkpointer=checkpointer,
        store=store,
        state_schema=GovernanceDeltaState if delta_channels_enabled() else GovernanceState,
    )


#: Compiled without a checkpointer: LangGraph Studio and the server supply their own. A chat client
#: sends only messages, so the served desk acts for the demo's customer unless a run's input names
#: another (``governance_subject``); an application passes each thread's own.
graph = build_agent(subject=desk.SUBJECT)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m governed_agent_patterns.graphs.support_desk --db desk.sqlite --thread T1 "text"``:
    one turn of a desk thread on SQLite (checkpointer and store in one file); ``--answer JSON``
    answers what the thread waits for instead (``'{"type": "approve"}'``, an edit, a reject),
    from any process. Prints the reply, or what waits and why (exit 3)."""
    import argparse
    import json

    from langgraph.types import Command

    from graphs.store import open_checkpointer, open_store

    parser = argparse.ArgumentParser(prog="support_desk", description=main.__doc__)
    parser.add_argument("--db", required=True, help="the SQLite file the thread lives in")
    parser.add_argument("--thread", required=True, help="the thread (one customer's conversation)")
    parser.add_argument("--customer", default=desk.SUBJECT["customer"], help="whom the thread acts for")
    parser.add_argument("--answer", help="a reviewer's decision, as JSON (LangChain's HITL shape)")
    parser.add_argument("text", nargs="?", help="the support agent's message")
    args = parser.parse_args(argv)
    if (args.answer is None) == (args.text is None):
        parser.error("give a message, or --answer")
    config = {"configurable": {"thread_id": args.thread}}
    with open_checkpointer(args.db, writable=True) as saver, open_store(args.db) as store:
        agent = build_agent(checkpointer=saver, store=store)
        if args.answer is not None:
            given: Any = Command(resume={"decisions": [json.loads(args.answer)]})
        else:
            given = {"messages": [("user", args.text)], "governance_subject": {"customer": args.customer}}
        result = agent.invoke(given, config)
    waiting = result.get("__interrupt__")
    if waiting:
        print("waits:", waiting[0].value["action_requests"][0]["description"])
        return 3
    print(result["messages"][-1].content)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
