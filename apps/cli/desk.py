"""The support desk's console: one turn of a desk thread, or an answer to what it waits for, from
any shell (docs/quickstart.md): ``python -m governed_agent_patterns.apps.cli.desk --db desk.sqlite
--thread T1 "text"`` (in a clone, ``python -m apps.cli.desk``)."""

from __future__ import annotations

import argparse
import json
import shlex
import sqlite3
import sys
from collections.abc import Sequence
from typing import Any

from apps.cli.commands import default_reviewer, os_user
from apps.cli.errors import CliError
from apps.operations.runs import (
    NotWaiting,
    RunNotFound,
    ThreadWaiting,
    UnreadableRun,
    answer_waiting,
    answered_late,
    carry_on_first,
    expired_refusals,
)
from demo_tools import support_desk as desk
from graphs.desk_policy import DeskPolicyError
from nodes.journal import ThreadBusy
from nodes.store import StoreError, journal_for, open_checkpointer, open_store


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m governed_agent_patterns.apps.cli.desk --db desk.sqlite --thread T1 "text"``:
    one turn of a desk thread on SQLite (checkpointer, store and journal in one file); ``--answer
    JSON`` answers what the thread waits for instead (``'{"type": "approve"}'``, an edit, a
    reject), from any process. One run at a time per thread (``--wait``: how long to wait for
    one going on it); the first answer to a question wins. Prints the reply, or what waits and
    why (exit 3); an error is one line (exit 2): a thread that does not exist or waits on nothing,
    an answer given already, an answer that is not JSON, a store that cannot be read."""
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
        try:  # every answer from the console names someone (one the decision names stands)
            args.reviewer = None if "reviewer" in decision else default_reviewer(args.reviewer)
        except CliError as exc:
            return _error(str(exc))
    try:
        result, late = _turn(args, decision)
    except (NotWaiting, RunNotFound, ThreadWaiting, UnreadableRun, StoreError, ThreadBusy) as exc:
        return _error(str(exc))
    except DeskPolicyError as exc:  # the deployment's policy file or signoff
        return _error(str(exc))
    except sqlite3.DatabaseError as exc:  # a damaged store
        return _error(f"run store {args.db} cannot be read: {exc}")
    waiting = result.get("__interrupt__")
    if waiting:
        action = waiting[0].value["action_requests"][0]
        print("waits:", action["description"])
        edited = {
            "type": "edit",
            "edited_action": {"name": action.get("name"), "args": action.get("args") or {}},
        }
        where = f"--db {shlex.quote(args.db)} --thread {shlex.quote(args.thread)}"
        console = f"python -m governed_agent_patterns.apps.cli.desk {where}"
        print(
            "answer from any shell (this one may close):\n"
            f'  {console} --answer \'{{"type": "approve"}}\'\n'
            f"  {console} --answer {shlex.quote(json.dumps(edited))}    (the call's arguments, edited)\n"
            f'  {console} --answer \'{{"type": "reject", "message": "why"}}\''
        )
        return 3
    print(result["messages"][-1].content)
    if late:  # the question had expired: the answer ran nothing (exit 1, as the CLI's approve)
        print("the answer ran nothing: the question had expired (approval_expired)", file=sys.stderr)
        return 1
    return 0


def _turn(args: Any, decision: dict[str, Any] | None) -> tuple[dict[str, Any], bool]:
    """The console's turn: an answer to the question the thread waits on, or the agent's message
    (after carrying on a run whose process died, so that its side effect is reconciled first); and
    whether an approval or an edit came after its question expired (it ran nothing)."""
    from graphs.support_desk import build_agent  # builds the served graph: DeskPolicyError is main's

    config: Any = {"configurable": {"thread_id": args.thread}}
    with open_checkpointer(args.db, writable=True) as saver, open_store(args.db) as store:
        journal = journal_for(saver)
        agent = build_agent(checkpointer=saver, store=store, journal=journal)
        if decision is not None:
            if saver.get_tuple(config) is None:
                raise RunNotFound(f"no thread {args.thread!r} in {args.db}: nothing waits there to answer")
            before = expired_refusals(agent.get_state(config).values or {})
            result = dict(
                answer_waiting(
                    agent,
                    args.thread,
                    _with_reviewer(decision, args.reviewer),
                    journal=journal,
                    wait=args.wait,
                )
            )
            return result, answered_late(decision.get("type"), before, result)
        given = {"messages": [("user", args.text)], "governance_subject": {"customer": args.customer}}
        with journal.turn(args.thread, wait=args.wait):
            pending = carry_on_first(agent, args.thread)
            if pending is not None:  # the thread's last run died and waits on a human now
                return pending, False
            return dict(agent.invoke(given, config)), False


def _with_reviewer(decision: dict[str, Any], reviewer: str | None) -> dict[str, Any]:
    """The console's answer in LangChain's HITL shape, naming its reviewer beside the decision, and
    the OS account it is given from (what four-eyes counts), unless the decision names one."""
    account = {} if "account" in decision else {"account": os_user()}
    return {"decisions": [decision], **({"reviewer": reviewer} if reviewer else {}), **account}


def _error(text: str) -> int:
    print(f"support_desk: error: {' '.join(text.split())}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
