"""The thread's ledger: what every run of a thread did with the tools that thread-wide rules watch
(:mod:`policies.supervisor.thread`), one small entry per successful call.

An entry keeps the tool, the arguments those rules read (the amount summed, the arguments that name
the record) and where it ran (run id, step): nothing else of the call, so the ledger stays small
however long the thread. Both engines append one when such a call succeeds and keep the ledger with
the thread's checkpoints (the Supervisor graph's ``ledger``, the middleware's
``governance_ledger``): a new turn, a resume or another process reviews against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from policies.supervisor.policy import SupervisorPolicy


def ledger_args(policy: SupervisorPolicy) -> dict[str, list[str]]:
    """Tool → the arguments the ledger keeps of its calls (only tools a thread-wide rule watches)."""
    kept = {name: rules.ledger_args() for name, rules in policy.rules.items()}
    return {name: args for name, args in kept.items() if args}


def ledger_entry(
    watched: Mapping[str, list[str]], call: Mapping[str, Any], **where: Any
) -> dict[str, Any] | None:
    """The entry a call leaves in the ledger (``watched``: :func:`ledger_args`), or None: a call that
    failed, or of a tool no thread-wide rule watches, leaves none."""
    kept = watched.get(str(call.get("tool")))
    if not kept or not call.get("ok"):
        return None
    args = call.get("args") or {}
    entry = {"tool": call["tool"], "args": {a: args[a] for a in kept if a in args}}
    return {**entry, **{k: v for k, v in where.items() if v is not None}}
