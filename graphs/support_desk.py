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
from graphs.desk_policy import (  # noqa: F401 (DeskPolicyError, signoff_from_env: the desk's API here too)
    POLICY_VARIABLE,
    SIGNOFF_VARIABLE,
    DeskPolicyError,
    desk_policy,
    signoff_from_env,
)
from nodes.journal import Journal
from nodes.middleware import GovernanceDeltaState, GovernanceMiddleware, GovernanceState
from nodes.model import openai_chat_model
from nodes.offline.support_desk import OfflineDeskModel
from nodes.store import journal_from_env

PROMPT = (
    "You are a customer-support agent. Use the tools to read tickets, look up orders, refund and "
    "e-mail the customer. A refused call is final: say what was refused and why."
)


#: The name the desk's checkpoints carry in their metadata (``{"agent": "support_desk"}``): the
#: CLI finds its threads by it (``graphs.registry.AGENTS``).
AGENT_NAME = "support_desk"


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
    journal: Journal | None = None,
) -> Any:
    """The desk's agent: ``create_agent`` with the desk's tools, ``middleware`` (LangChain's own,
    say) after the governance, first in the list (docs/own-agent-reference.md, "Where to put it").
    Its state keeps the conversation and the rows as delta channels while the switch is on
    (:func:`graphs.compile.delta_channels_enabled`, read here). ``journal``: where side effects
    are claimed and answers kept across processes (default: the one beside the checkpointer each
    run uses, :func:`nodes.journal.journal_beside`). Its checkpoints carry ``{"agent":
    "support_desk"}`` in their metadata, so that the CLI's ``runs``, ``waiting``, ``approve``,
    ``edit`` and ``reject`` find and answer its threads. Its policy is the deployment's
    (:func:`desk_policy`): a policy file or signoff that is not valid raises :class:`DeskPolicyError`."""
    governance = GovernanceMiddleware(desk_policy(), tools=desk.tools, subject=subject, journal=journal)
    agent = create_agent(
        model if model is not None else desk_model(),
        desk.tools,
        system_prompt=PROMPT,
        middleware=[governance, *middleware],
        checkpointer=checkpointer,
        store=store,
        state_schema=GovernanceDeltaState if delta_channels_enabled() else GovernanceState,
    )
    return agent.with_config({"metadata": {"agent": AGENT_NAME}})


def _served_graph() -> Any:
    """The served graph; a deployment's policy that is not valid stops it loading (the server, Studio),
    while the console (:mod:`apps.cli.desk`, or this module run as ``python -m``, deprecated) reports
    it in one line itself."""
    try:
        return build_agent(subject=desk.SUBJECT, journal=journal_from_env())
    except DeskPolicyError:
        if __name__ == "__main__":  # the console says it in one line (main)
            return None
        raise


#: Compiled without a checkpointer: LangGraph Studio and the server supply their own. A chat client
#: sends only messages, so the served desk acts for the demo's customer unless a run's input names
#: another (``governance_subject``); an application passes each thread's own.
graph = _served_graph()


def __getattr__(name: str) -> Any:
    """``graphs.support_desk.main``, the console's old place, for one release (issue 53): the
    console is :func:`apps.cli.desk.main`, loaded by name so that the graph imports no application."""
    if name != "main":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    import warnings

    console = __name__.replace("graphs.support_desk", "apps.cli.desk")
    warnings.warn(f"{__name__}.main moved to {console}.main", DeprecationWarning, stacklevel=2)
    return importlib.import_module(console).main


if __name__ == "__main__":  # deprecated (one release): the console is apps.cli.desk
    import runpy
    import sys

    console = (__spec__.name if __spec__ else "graphs.support_desk").replace(
        "graphs.support_desk", "apps.cli.desk"
    )
    print(f"support_desk: deprecated: run python -m {console} (the same arguments)", file=sys.stderr)
    runpy.run_module(console, run_name="__main__", alter_sys=True)
