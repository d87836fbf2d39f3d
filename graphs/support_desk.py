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

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.store.base import BaseStore
from pydantic import ValidationError

from demo_tools import support_desk as desk
from graphs.compile import delta_channels_enabled
from graphs.store import journal_for, journal_from_env
from nodes.journal import Journal
from nodes.middleware import GovernanceDeltaState, GovernanceMiddleware, GovernanceState
from nodes.model import openai_chat_model
from nodes.offline.support_desk import OfflineDeskModel
from policies.supervisor import SupervisorPolicy, ToolRules

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


#: Who may answer the desk's questions, when a deployment says so: ``{"reviewers": {name: [roles]},
#: "roles": {tool: role}, "approvals": {tool: n}}`` (JSON). Unset: anyone, once.
SIGNOFF_VARIABLE = "AGENT_PATTERNS_DESK_SIGNOFF"
#: The deployment's policy file (TOML, YAML or JSON: :func:`policies.policy_file.overlay_policy_file`)
#: over the desk's policy: expiry, shadow mode, reviewers, roles, approvals, any rule's fields.
POLICY_VARIABLE = "AGENT_PATTERNS_DESK_POLICY"


class DeskPolicyError(ValueError):
    """A deployment's desk policy that cannot be read or is not valid: one line naming the variable.
    The desk does not load with it (no setting is ever ignored)."""


def desk_policy(env: Mapping[str, str] | None = None) -> SupervisorPolicy:
    """The desk's policy as the deployment sets it: :data:`demo_tools.support_desk.policy`, the
    file ``$AGENT_PATTERNS_DESK_POLICY`` names over it, then ``$AGENT_PATTERNS_DESK_SIGNOFF``'s
    reviewers, roles and approvals over that. A file that is missing or not valid, or a signoff
    that is not valid JSON of that shape: :class:`DeskPolicyError`."""
    env = os.environ if env is None else env
    policy = desk.policy
    path = env.get(POLICY_VARIABLE, "").strip()
    if path:
        from policies.policy_file import FORMATS, PolicyFileError, overlay_policy_file

        fmt = FORMATS.get(os.path.splitext(path)[1].lower())
        if fmt is None:
            raise DeskPolicyError(f"${POLICY_VARIABLE}={path}: a policy file is .toml, .yaml, .yml or .json")
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read()
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise DeskPolicyError(f"${POLICY_VARIABLE}={path}: cannot be read: {why}") from None
        try:
            policy = overlay_policy_file(policy, text, fmt, path)
        except PolicyFileError as exc:
            raise DeskPolicyError(f"${POLICY_VARIABLE}: {exc}") from None
    return signoff_from_env(policy, env)


def signoff_from_env(policy: SupervisorPolicy, env: Mapping[str, str] | None = None) -> SupervisorPolicy:
    """``policy`` with the reviewers, rule roles and approvals ``$AGENT_PATTERNS_DESK_SIGNOFF``
    gives (``make serve`` with authenticated reviewers: docs/server.md); not JSON of that shape,
    or naming a tool the policy has no rules for: :class:`DeskPolicyError`."""
    env = os.environ if env is None else env
    raw = env.get(SIGNOFF_VARIABLE, "").strip()
    if not raw:
        return policy
    try:
        said = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise DeskPolicyError(f"${SIGNOFF_VARIABLE} is not JSON: {exc}") from None
    shape = '{"reviewers": {name: [roles]}, "roles": {tool: role}, "approvals": {tool: n}}'
    keys = ("reviewers", "roles", "approvals")
    parts = {k: said.get(k) or {} for k in keys} if isinstance(said, dict) else {}
    if not parts or set(said) - set(parts) or not all(isinstance(v, dict) for v in parts.values()):
        raise DeskPolicyError(f"${SIGNOFF_VARIABLE} must be a JSON object {shape}")
    rules = dict(policy.rules)
    try:
        for key, field in (("roles", "reviewer_role"), ("approvals", "approvals")):
            for tool, value in parts[key].items():
                if tool not in rules:
                    raise DeskPolicyError(
                        f"${SIGNOFF_VARIABLE}: {key}: no rules for a tool named {tool!r} "
                        f"(tools: {', '.join(sorted(rules))})"
                    )
                rules[tool] = ToolRules.model_validate({**rules[tool].model_dump(), field: value})
        reviewers = {"reviewers": parts["reviewers"]} if "reviewers" in said else {}
        return SupervisorPolicy.model_validate({**policy.model_dump(), "rules": rules, **reviewers})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DeskPolicyError(f"${SIGNOFF_VARIABLE}: {where}: {first['msg']}") from None


def _served_graph() -> Any:
    """The served graph; a deployment's policy that is not valid stops it loading (the server, Studio),
    while the console (``python -m``) reports it in one line itself."""
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


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m governed_agent_patterns.graphs.support_desk --db desk.sqlite --thread T1 "text"``:
    one turn of a desk thread on SQLite (checkpointer, store and journal in one file); ``--answer
    JSON`` answers what the thread waits for instead (``'{"type": "approve"}'``, an edit, a
    reject), from any process. One run at a time per thread (``--wait``: how long to wait for
    one going on it); the first answer to a question wins. Prints the reply, or what waits and
    why (exit 3); an error is one line (exit 2): a thread that does not exist or waits on nothing,
    an answer given already, an answer that is not JSON, a store that cannot be read."""
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="support_desk", description=main.__doc__)
    parser.add_argument("--db", required=True, help="the SQLite file the thread lives in")
    parser.add_argument("--thread", required=True, help="the thread (one customer's conversation)")
    parser.add_argument("--customer", default=desk.SUBJECT["customer"], help="whom the thread acts for")
    parser.add_argument("--answer", help="a reviewer's decision, as JSON (LangChain's HITL shape)")
    parser.add_argument(
        "--wait", type=float, default=60.0, help="seconds to wait for a run going on the thread (default 60)"
    )
    parser.add_argument(
        "--as",
        dest="reviewer",
        metavar="NAME",
        help="who answers, kept in the audit (default: $AGENT_PATTERNS_REVIEWER, else the OS user)",
    )
    parser.add_argument("text", nargs="?", help="the support agent's message")
    args = parser.parse_args(argv)
    if (args.answer is None) == (args.text is None):
        parser.error("give a message, or --answer")
    decision: Any = None
    if args.answer is not None:
        try:
            decision = json.loads(args.answer)
        except (ValueError, RecursionError) as exc:
            return _error(f'--answer is not JSON ({exc}): give a decision such as \'{{"type": "approve"}}\'')
        if not isinstance(decision, dict):
            return _error('--answer must be a JSON object such as \'{"type": "approve"}\'')
        from graphs.cli_commands import default_reviewer
        from graphs.cli_errors import CliError

        try:  # every answer from the console names someone (one the decision names stands)
            args.reviewer = None if "reviewer" in decision else default_reviewer(args.reviewer)
        except CliError as exc:
            return _error(str(exc))
    import sqlite3

    from graphs.runs import NotWaiting, RunNotFound, ThreadWaiting, UnreadableRun
    from graphs.store import StoreError
    from nodes.journal import ThreadBusy

    try:
        result = _turn(args, decision)
    except (NotWaiting, RunNotFound, ThreadWaiting, UnreadableRun, StoreError, ThreadBusy) as exc:
        return _error(str(exc))
    except DeskPolicyError as exc:  # the deployment's policy file or signoff
        return _error(str(exc))
    except sqlite3.DatabaseError as exc:  # a damaged store
        return _error(f"run store {args.db} cannot be read: {exc}")
    waiting = result.get("__interrupt__")
    if waiting:
        print("waits:", waiting[0].value["action_requests"][0]["description"])
        return 3
    print(result["messages"][-1].content)
    return 0


def _turn(args: Any, decision: dict[str, Any] | None) -> dict[str, Any]:
    """The console's turn: an answer to the question the thread waits on, or the agent's message
    (after carrying on a run whose process died, so that its side effect is reconciled first)."""
    from graphs.runs import RunNotFound, answer_waiting, carry_on_first
    from graphs.store import open_checkpointer, open_store

    config: Any = {"configurable": {"thread_id": args.thread}}
    with open_checkpointer(args.db, writable=True) as saver, open_store(args.db) as store:
        journal = journal_for(saver)
        agent = build_agent(checkpointer=saver, store=store, journal=journal)
        if decision is not None:
            if saver.get_tuple(config) is None:
                raise RunNotFound(f"no thread {args.thread!r} in {args.db}: nothing waits there to answer")
            return dict(
                answer_waiting(
                    agent,
                    args.thread,
                    _with_reviewer(decision, args.reviewer),
                    journal=journal,
                    wait=args.wait,
                )
            )
        given = {"messages": [("user", args.text)], "governance_subject": {"customer": args.customer}}
        with journal.turn(args.thread, wait=args.wait):
            pending = carry_on_first(agent, args.thread)
            if pending is not None:  # the thread's last run died and waits on a human now
                return pending
            return dict(agent.invoke(given, config))


def _with_reviewer(decision: dict[str, Any], reviewer: str | None) -> dict[str, Any]:
    """The console's answer in LangChain's HITL shape, naming its reviewer beside the decision."""
    return {"decisions": [decision], **({"reviewer": reviewer} if reviewer else {})}


def _error(text: str) -> int:
    import sys

    print(f"support_desk: error: {' '.join(text.split())}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
