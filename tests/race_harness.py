"""A process of a race test: the support desk's console or the ``agent-patterns`` CLI, run as users
run them, with the refund tool counting what it did in a file of its own and holding the window
open where a race or a crash would hurt.

``python -m tests.race_harness console ARGS...`` runs ``apps.cli.desk.main(ARGS)``;
``python -m tests.race_harness cli ARGS...`` runs ``apps.cli.main.main(ARGS)``; ``python -m
tests.race_harness raw DB THREAD MESSAGE_OR_ANSWER`` invokes an agent written as the README writes
one, with no entry point of ours. The environment says
what the refund tool does around the real one:

- ``RACE_OUTBOX``: a file each refund performed appends one JSON line to (pid, order or user,
  amount), flushed and synced before the tool returns: the count outside the project;
- ``RACE_SLOW``: seconds the tool sleeps after performing the refund (the window between a side
  effect and its checkpoint, where another process acts);
- ``RACE_DIE=after_refund``: the process kills itself with SIGKILL right after the refund (a crash
  between the tool and its checkpoint); ``RACE_DIE=before_refund``: right before it (the call was
  claimed, the world never saw it).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from typing import Any


def _before(entry: dict[str, Any]) -> None:
    """Just before the refund is performed: ``RACE_DIE=before_refund`` kills the process there (the
    journal has claimed the call; the world has not seen it)."""
    if os.environ.get("RACE_DIE") == "before_refund":
        os.kill(os.getpid(), signal.SIGKILL)


def _performed(entry: dict[str, Any]) -> None:
    outbox = os.environ.get("RACE_OUTBOX")
    if outbox:
        with open(outbox, "a", encoding="utf-8") as out:
            out.write(json.dumps({**entry, "pid": os.getpid(), "at": time.time()}) + "\n")
            out.flush()
            os.fsync(out.fileno())
    if os.environ.get("RACE_DIE") == "after_refund":
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(float(os.environ.get("RACE_SLOW") or 0))


def _patch_desk() -> None:
    """The support desk's ``issue_refund`` (keyless, as the quickstart's)."""
    from demo_tools import support_desk as desk

    real = desk.issue_refund.func
    assert real is not None

    def issue_refund(order_id: str, amount: float) -> dict:
        _before({"order_id": order_id})
        result = real(order_id, amount)
        _performed({"tool": "issue_refund", "order_id": order_id, "amount": amount})
        return result

    desk.issue_refund.func = issue_refund


def _patch_billing() -> None:
    """The Supervisor demo's ``issue_refund`` (keyed: a key it has seen returns the first result)."""
    from demo_tools.supervisor import BillingDesk

    real = BillingDesk.issue_refund

    def issue_refund(
        self: Any, user_id: int, amount_usd: float, reason: str | None = None, *, idempotency_key: str
    ) -> Any:
        fresh = self.ledger.get("refund", idempotency_key) is None
        result = real(self, user_id, amount_usd, reason, idempotency_key=idempotency_key)
        if fresh and isinstance(result, dict) and result.get("status") == "refunded":
            _performed({"tool": "issue_refund", "user_id": user_id, "amount": amount_usd})
        return result

    BillingDesk.issue_refund = issue_refund  # type: ignore[method-assign]


def outbox(path: str) -> list[dict[str, Any]]:
    """The refunds a test's processes performed, as their tool recorded them."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _raw(db: str, thread: str, given: str) -> int:
    """As the README writes an agent (``GovernanceMiddleware(policy, tools=tools)``, no journal
    named, a ``SqliteSaver``) and no entry point of ours: ``given`` is a message, or a JSON answer
    resumed with ``Command(resume=...)``."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.types import Command

    from demo_tools import support_desk as desk
    from nodes.middleware import GovernanceMiddleware, GovernanceState
    from nodes.offline.support_desk import OfflineDeskModel

    config = {"configurable": {"thread_id": thread}}
    with SqliteSaver.from_conn_string(db) as saver:
        governance = GovernanceMiddleware(desk.policy, tools=desk.tools, subject=desk.SUBJECT)
        agent = create_agent(
            OfflineDeskModel(),
            desk.tools,
            middleware=[governance],
            checkpointer=saver,
            state_schema=GovernanceState,
        )
        if given.startswith("{"):
            result = agent.invoke(Command(resume={"decisions": [json.loads(given)]}), config)
        else:
            result = agent.invoke({"messages": [("user", given)]}, config)
    print(
        json.dumps({"waits": bool(result.get("__interrupt__")), "stop": result.get("governance_stop_reason")})
    )
    return 0


def main(argv: list[str]) -> int:
    which, args = argv[0], argv[1:]
    if which == "raw":
        _patch_desk()
        return _raw(*args)
    if which == "console":
        _patch_desk()
        from apps.cli.desk import main as console

        return console(args)
    _patch_billing()
    from apps.cli.main import main as cli

    return cli(args)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
