"""The thread's ledger: what every run of a thread did with the tools that thread-wide rules watch
(:mod:`policies.supervisor.rules.thread`), in small entries.

- A successful call of a tool a thread-wide rule sums or repeats on leaves ``{"tool", "args"}``:
  only the arguments those rules read (the amount summed, the arguments that name the record), as
  the call gave them; a group's rule (``group=[...]``) watches every tool of the group. The rules
  read them back as provenance does: a record by :func:`policies.supervisor.reading.values.record_identity`
  (``"INV-8."`` is ``INV-8``), an amount by :func:`policies.supervisor.reading.amounts.amount_value`
  (``"80.00"`` is 80).
- A successful call of a tool whose records a rule reads (``OwnedRecord``, ``RecordLimit``) leaves
  ``{"tool", "record"}`` for each record it returned (at most :data:`RECORDS_PER_CALL`): only the
  fields those rules read (the key that names it, its owner, the field that limits it, the note of
  a withheld record). A later turn finds the record there without looking it up again.

Each entry says where it ran (run id, step). Both engines append them as such a call succeeds and
keep the ledger with the thread's checkpoints (the Supervisor graph's ``ledger``, the middleware's
``governance_ledger``): a new turn, a resume or another process reviews against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from policies.supervisor.reading.values import mappings
from policies.supervisor.request.ownership import WITHHELD_KEY
from policies.supervisor.rules.cedar import parse_cedar
from policies.supervisor.rules.policy import SupervisorPolicy
from policies.supervisor.rules.thread import RecordLimit

#: Most records one call leaves in the ledger (a listing's first ones; the rest are not seen).
RECORDS_PER_CALL = 20


@dataclass(frozen=True)
class Watched:
    """What the ledger keeps: tool → arguments of its calls; record tool → (key fields, fields)."""

    args: Mapping[str, list[str]] = field(default_factory=dict)
    records: Mapping[str, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)


def ledger_args(policy: SupervisorPolicy) -> dict[str, list[str]]:
    """Tool → the arguments the ledger keeps of its calls (only tools a thread-wide rule watches,
    the rules of the groups it belongs to included: a store credit leaves its amount and order
    where a limit on all payouts of an order sums it), and the arguments whose ``thread_total``
    the policy's Cedar reads, of every tool."""
    kept = {name: (policy.rules_for(name) or rules).ledger_args() for name, rules in policy.rules.items()}
    totalled = sorted(parse_cedar(policy.cedar).thread_totalled) if policy.cedar else []
    for name in totalled and sorted({*policy.allowed_tools, *policy.rules}):  # Cedar's thread_total
        kept[name] = sorted({*kept.get(name, []), *totalled})
    return {name: args for name, args in kept.items() if args}


def watched(policy: SupervisorPolicy) -> Watched:
    """What the ledger keeps for ``policy``: the calls its thread-wide rules read, and the records
    its record rules read (their key fields, and the owner and limit fields with them)."""
    keys: dict[str, set[str]] = {}
    fields: dict[str, set[str]] = {}
    for rules in policy.rules.values():
        for rule in [*rules.owned, *rules.record_limits]:
            keys.setdefault(rule.tool, set()).add(rule.key)
            spec = policy.tools.get(rule.tool)
            more = {spec.owner} if spec is not None and spec.owner else set()
            more |= {rule.field} if isinstance(rule, RecordLimit) else set()
            fields.setdefault(rule.tool, set()).update({rule.key, WITHHELD_KEY, *more})
    records = {tool: (frozenset(keys[tool]), frozenset(fields[tool])) for tool in keys}
    return Watched(ledger_args(policy), records)


def ledger_entries(watch: Watched, call: Mapping[str, Any], **where: Any) -> list[dict[str, Any]]:
    """The entries a call leaves in the ledger: none for a call that failed or that no rule
    watches; its arguments, and the records it returned, where rules read them."""
    if not call.get("ok"):
        return []
    tool, at = str(call.get("tool")), {k: v for k, v in where.items() if v is not None}
    entries: list[dict[str, Any]] = []
    kept = watch.args.get(tool)
    if kept:
        args = call.get("args") or {}
        entries.append({"tool": tool, "args": {a: args[a] for a in kept if a in args}, **at})
    if tool in watch.records:
        keys, fields = watch.records[tool]
        for record in _records(call.get("observation"), keys)[:RECORDS_PER_CALL]:
            entries.append(
                {"tool": tool, "record": {f: record[f] for f in sorted(fields) if f in record}, **at}
            )
    return entries


def _records(value: Any, keys: frozenset[str]) -> list[Mapping[str, Any]]:
    """The mappings inside ``value`` that hold one of ``keys``, in the order they appear."""
    return [item for _path, item in mappings(value) if keys & set(item)]
