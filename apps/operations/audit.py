"""A thread's audit, every run of it: read back from the audit log in the graph's store
(:mod:`nodes.audit`) and the thread's latest checkpoint.

    from apps.operations.audit import read_audit
    audit = read_audit(graph, "thread-1")          # any of our graphs, or a create_agent agent
    for run in audit.runs:                          # oldest turn first
        print(run.turn, run.status, [row["phase"] for row in run.trace])

``agent-patterns audit THREAD`` prints the same (:mod:`apps.cli.audit`; ``--json``:
:meth:`ThreadAudit.as_dict`).

Where each part comes from: the log holds the rows of every run that wrote there (the Supervisor
graph as each node runs; ``GovernanceMiddleware`` when a run ends), of every branch a fork or a
replay made; the latest checkpoint holds the rows of a middleware run that has not ended yet (a
run waiting for a human). A thread with no log (a graph without a store, or runs of a version that
kept none) is read from its checkpoints instead: each run's newest (one branch per run; every
checkpoint of the thread is read, so a long thread reads slowly: give the graph a store).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langgraph.store.base import Item

from nodes import audit as log
from nodes.langgraph_private import stored_value
from nodes.messages import REQUEST_MESSAGE_KEY, message_id, message_text
from nodes.state import add_messages_delta, add_rows_delta
from policies.tamper import ChainReport, verify_chain

#: The state keys a pattern graph keeps a run's rows in (the Supervisor's, and every pattern's
#: ``trace`` and ``history``).
GRAPH_ROWS = {
    "trace": "trace",
    "history": "history",
    "calls": "calls",
    "refusals": "refusals",
    "grants": "grants",
}


@dataclass
class RunAudit:
    """One run (one invocation with new input) of a thread: its rows, in the order they were made."""

    run_id: str
    turn: int | None = None
    engine: str | None = None
    request_message_id: str | None = None
    #: the request's text (its first 200 characters), from the thread's conversation
    request: str | None = None
    started_at: float | None = None
    #: ``ok`` / ``stopped``; None while it runs or waits for a human (or when its end was not kept)
    status: str | None = None
    stop_reason: str | None = None
    trace: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    refusals: list[dict[str, Any]] = field(default_factory=list)
    #: one ask per task: the grants a human's approvals issued in the run
    grants: list[dict[str, Any]] = field(default_factory=list)
    #: how many branches its rows came from (more than one: a fork or a replay re-ran some of its
    #: steps, and the rows of each run of them are kept, at the same place in the lists)
    branches: int = 1

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class ThreadAudit:
    thread_id: str
    runs: list[RunAudit]
    #: where the rows were read: ``log`` (the store's audit log) or ``checkpoints``
    source: str

    def turn(self, number: int) -> list[RunAudit]:
        """The runs that answered the thread's ``number``-th request (two or more: a fork re-ran it)."""
        return [run for run in self.runs if run.turn == number]

    def as_dict(self) -> dict[str, Any]:
        return {"thread_id": self.thread_id, "source": self.source, "runs": [r.as_dict() for r in self.runs]}


class ThreadNotFound(LookupError):
    """Neither the store's log nor the checkpointer knows the thread."""


def _runs(values: Iterable[Mapping[str, Any]]) -> list[RunAudit]:
    """Log values (``run_id``, ``kind``, ``seq``, ``row``...) as runs, each run's rows in the order
    they were made (at the same place, a fork's rows after the first branch's). Runs in turn order;
    runs whose turn is not known (a middleware thread read without a log) first, as found."""
    runs: dict[str, RunAudit] = {}
    rows: dict[str, list[Mapping[str, Any]]] = {}
    for value in values:
        run_id = str(value.get("run_id"))
        run = runs.setdefault(run_id, RunAudit(run_id))
        kind, row = value.get("kind"), value.get("row")
        if not isinstance(row, Mapping):
            continue
        if kind == "run":
            run.turn, run.engine = row.get("turn"), row.get("engine")
            run.request_message_id, run.started_at = row.get("request_message_id"), row.get("started_at")
        elif kind == "end":
            run.status, run.stop_reason = row.get("status"), row.get("stop_reason")
        elif kind in log.ROW_KINDS:
            rows.setdefault(run_id, []).append(value)
    for run_id, made in rows.items():
        run, places = runs[run_id], Counter[tuple[Any, Any]]()
        for value in sorted(made, key=lambda v: (int(v.get("seq") or 0), float(v.get("at") or 0.0))):
            getattr(run, str(value["kind"])).append(dict(value["row"]))
            places[(value["kind"], value.get("seq"))] += 1
        run.branches = max(places.values(), default=1)
    unknown = [r for r in runs.values() if r.turn is None]
    known = [r for r in runs.values() if r.turn is not None]
    return unknown + sorted(known, key=lambda r: (r.turn, r.started_at or 0.0))


def _governed(state: Mapping[str, Any]) -> bool:
    """A ``create_agent`` agent's state with ``GovernanceMiddleware``'s rows."""
    return "governance_run" in state or any(k in state for k in log.GOVERNANCE_ROWS.values())


def _state_entries(state: Mapping[str, Any]) -> list[log.Entry]:
    """The log items of the rows a state holds: a middleware run's rows not moved yet, or a pattern
    graph's run (read from checkpoints, for a graph without a store)."""
    if _governed(state):
        run = state.get("governance_run")
        return log.state_entries(state, log.GOVERNANCE_ROWS, run, log.GOVERNANCE_ENGINE)
    graph_run = {
        "run_id": state.get("run_id"),
        "started_at": state.get("started_at"),
        "request_message_id": state.get(REQUEST_MESSAGE_KEY),
        "turn": log.request_turn(state, {}),
    }
    if not graph_run["run_id"]:
        return []
    made = log.state_entries(state, GRAPH_ROWS, graph_run, "graph")
    if state.get("status") in ("ok", "stopped"):
        made.append(log.end_entry(graph_run["run_id"], str(state["status"]), state.get("stop_reason")))
    return made


def _with_requests(runs: list[RunAudit], messages: Iterable[Any]) -> list[RunAudit]:
    """Each run's request text, from the conversation (the latest checkpoint's ``messages``)."""
    texts = {message_id(m): message_text(m)[:200] for m in messages or () if message_id(m)}
    for run in runs:
        run.request = texts.get(run.request_message_id) if run.request_message_id else None
    return runs


def thread_audit(items: Sequence[Item], thread_id: str, state: Mapping[str, Any] | None) -> ThreadAudit:
    """The thread's runs from its log ``items``, with the rows ``state`` (the thread's latest
    state) holds that are not in the log yet (a middleware run that has not ended)."""
    values = [item.value for item in items]
    if state:
        keys = {item.key for item in items}
        by_task = {str(v.get("run_id")) for v in values if v.get("task_id")}
        for made in _state_entries(state):
            # a run whose nodes write their rows is in the log as they made them
            if made.key not in keys and str(made.value.get("run_id")) not in by_task:
                values.append(made.value)
    runs = _with_requests(_runs(values), (state or {}).get("messages") or [])
    return ThreadAudit(thread_id, runs, "log")


def _run_id(state: Mapping[str, Any]) -> Any:
    """The run a checkpoint's state belongs to (a middleware run's, or a pattern graph's)."""
    if _governed(state):
        return (state.get("governance_run") or {}).get("run_id")
    return state.get("run_id")


def history_audit(snapshots: Iterable[Mapping[str, Any]], thread_id: str) -> ThreadAudit:
    """Without a log: each run's rows from its newest checkpoint (``snapshots``: the thread's
    checkpoints' values, newest first). A middleware thread checkpointed before each run started
    from no rows holds earlier runs' rows too: an item read twice (same run, kind, place and
    content) is kept once."""
    found: dict[str, dict[str, Any]] = {}
    seen: set[Any] = set()
    latest: Mapping[str, Any] | None = None
    for state in snapshots:
        first = latest is None
        latest = state if first else latest
        run_id = _run_id(state)
        if (first and _governed(state)) or (run_id and run_id not in seen):
            seen.add(run_id)
            for made in _state_entries(state):
                found.setdefault(made.key, made.value)
    values = list(found.values())
    if not values:
        raise ThreadNotFound(f"no audit of thread {thread_id!r} in this store")
    runs = _with_requests(_runs(values), (latest or {}).get("messages") or [])
    return ThreadAudit(thread_id, runs, "checkpoints")


def _config(thread_id: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}}


def read_audit(graph: Any, thread: str | Mapping[str, Any]) -> ThreadAudit:
    """The audit of every run on ``thread`` (a thread id or a config) of ``graph`` (a compiled graph
    with a checkpointer: one of ours, or a ``create_agent`` agent)."""
    config = _config(thread) if isinstance(thread, str) else dict(thread)
    thread_id = str(config["configurable"]["thread_id"])
    items = log.read_log(graph.store, thread_id) if graph.store is not None else []
    if items:
        return thread_audit(items, thread_id, graph.get_state(config).values or {})
    return history_audit((s.values or {} for s in graph.get_state_history(config)), thread_id)


#: The keys the audit reads that a thread may keep as delta channels (the patterns' default, a
#: ``GovernanceDeltaState`` agent's), each with the reducer that rebuilds it from its writes.
_REPLAYED: dict[str, Any] = {
    "messages": add_messages_delta,
    **{key: add_rows_delta for key in (*GRAPH_ROWS.values(), *log.GOVERNANCE_ROWS.values())},
}


def stored_values(checkpointer: Any, saved: Any) -> dict[str, Any]:
    """A checkpoint's values as the audit reads them, without the graph: a delta channel's
    snapshot unwrapped, and one the checkpoint does not store rebuilt from the thread's writes
    (the saver's ``get_delta_channel_history``), as LangGraph rebuilds it."""
    stored = saved.checkpoint.get("channel_values") or {}
    values = {key: stored_value(value) for key, value in stored.items()}
    versions = saved.checkpoint.get("channel_versions") or {}
    missing = [key for key in _REPLAYED if key not in stored and key in versions]
    if missing:
        history = checkpointer.get_delta_channel_history(config=saved.config, channels=missing)
        for key in missing:
            entry = history.get(key) or {}
            seed = stored_value(entry.get("seed")) or []
            values[key] = _REPLAYED[key](seed, [write[2] for write in entry.get("writes") or ()])
    return values


def _each_runs_newest(checkpointer: Any, config: dict[str, Any]) -> list[dict[str, Any]]:
    """The thread's checkpoints' values, newest first, rebuilt (:func:`stored_values`) only for
    the newest and each run's newest, which are all :func:`history_audit` reads rows from (the
    others keep only which run they belong to). The thread is listed first, then read: a saver
    may hold its connection while it lists (SQLite's does), and the rebuild reads through it."""
    runs: set[Any] = set()
    listed: list[Any] = []
    for at, saved in enumerate(checkpointer.list(config)):
        raw = saved.checkpoint.get("channel_values") or {}
        run_id = _run_id(raw)
        if at == 0 or run_id not in runs:
            listed.append(saved)
        else:
            listed.append({k: raw[k] for k in ("governance_run", "run_id") if k in raw})
        runs.add(run_id)
    return [item if isinstance(item, dict) else stored_values(checkpointer, item) for item in listed]


def stored_audit(checkpointer: Any, store: Any, thread_id: str) -> ThreadAudit:
    """:func:`read_audit` from a checkpointer and a store alone (no graph: ``agent-patterns audit``)."""
    config = _config(thread_id)
    items = log.read_log(store, thread_id) if store is not None else []
    if items:
        latest = checkpointer.get_tuple(config)
        state = stored_values(checkpointer, latest) if latest is not None else {}
        return thread_audit(items, thread_id, state)
    return history_audit(_each_runs_newest(checkpointer, config), thread_id)


# --- tamper evidence: the chain of each thread's log ------------------------------------------------


@dataclass(frozen=True)
class ThreadVerified:
    """One thread's log checked against its chain (:func:`policies.tamper.verify_chain`)."""

    thread_id: str
    report: ChainReport

    @property
    def ok(self) -> bool:
        return self.report.ok

    def lines(self) -> list[str]:
        report, thread = self.report, repr(self.thread_id)
        if report.unchained:
            return [f"thread {thread}: unchained ({report.before} row(s) written before the chain existed)"]
        if report.ok:
            older = f", {report.before} older row(s) not chained" if report.before else ""
            sealed = "".join(f", rows {a}-{b} sealed by key {kid}" for kid, a, b in report.sealed)
            unchecked = (
                f", {report.unchecked} seal(s) not checked (no key given: hashes only)"
                if report.unchecked
                else ""
            )
            return [f"thread {thread}: {report.linked} row(s) verified{older}{sealed}{unchecked}"]
        return [f"thread {thread}: {p.line()}" for p in report.problems]


def verify_audit(
    store: Any, thread_id: str | None = None, keys: Mapping[str, bytes] | None = None
) -> list[ThreadVerified]:
    """Check the chain of ``thread_id``'s audit log in ``store`` (every thread's when None): each
    thread with what is wrong (an item edited, removed, inserted or reordered), or unchained (a
    log written before the chain existed). ``keys`` (key id → key; default: the environment's,
    :func:`nodes.stamps.audit_keys`): every link and head must carry a seal one of them made (a log
    re-linked without the key fails); none: the hashes alone are checked. A thread the store holds
    no log of: :class:`ThreadNotFound`."""
    if keys is None:
        from nodes.stamps import audit_keys

        keys = audit_keys()
    labels = [log.thread_label(thread_id)] if thread_id is not None else log.threads(store)
    found = []
    for label in labels:
        thread = thread_id if thread_id is not None else log.unlabel(label)
        items = log.read_log(store, thread)
        head = log.read_head(store, thread)
        if not items and head is None:
            raise ThreadNotFound(f"no audit log of thread {thread!r} in this store")
        report = verify_chain(((item.key, item.value) for item in items), head, keys)
        found.append(ThreadVerified(thread, report))
    return found
