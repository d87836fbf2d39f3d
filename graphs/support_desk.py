"""The support desk as a ``create_agent`` agent governed by ``GovernanceMiddleware``: the tools and
policy of :mod:`demo_tools.support_desk`, the agent docs/quickstart.md builds, and the ``support_desk``
graph of langgraph.json (Studio, Agent Chat UI).

A thread acts for one customer: pass ``governance_subject`` in the input (``{"customer":
"cust-42"}``), or ``subject=`` here. Without an API key the model is the desk's offline worker
(:class:`nodes.offline.support_desk.OfflineDeskModel`); with ``OPENAI_API_KEY`` it is ``ChatOpenAI``
(``OPENAI_MODEL``, ``OPENAI_BASE_URL``).
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
from nodes.middleware import GovernanceMiddleware
from nodes.model import DEFAULT_OPENAI_MODEL
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
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=env.get("OPENAI_MODEL") or DEFAULT_OPENAI_MODEL,
        api_key=env["OPENAI_API_KEY"],
        base_url=env.get("OPENAI_BASE_URL") or None,
        temperature=0,
    )


def build_agent(
    *,
    model: BaseChatModel | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    store: BaseStore | None = None,
    middleware: Sequence[Any] = (),
    subject: Mapping[str, Any] | None = None,
) -> Any:
    """The desk's agent: ``create_agent`` with the desk's tools, ``middleware`` (LangChain's own,
    say) after the governance, first in the list (docs/own-agent-reference.md, "Where to put it")."""
    governance = GovernanceMiddleware(desk.policy, tools=desk.tools, subject=subject)
    return create_agent(
        model if model is not None else desk_model(),
        desk.tools,
        system_prompt=PROMPT,
        middleware=[governance, *middleware],
        checkpointer=checkpointer,
        store=store,
    )


#: Compiled without a checkpointer: LangGraph Studio and the server supply their own.
graph = build_agent()
