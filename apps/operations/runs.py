"""Runs kept by a checkpointer: list them, read one back, find those waiting for a human, resume.

Everything here is read from the checkpointer alone (no side log): a run's pattern is in its
checkpoints' metadata (``graphs.compile``), its result, trace and history are in its state, and a
pending human approval is an interrupt in its latest checkpoint.

The threads of a known ``create_agent`` agent (``graphs.registry.AGENTS``: the support desk, whose
checkpoints carry ``{"agent": "support_desk"}``) are listed, read and answered the same way; its
name stands where a pattern's does.
"""

from __future__ import annotations

import json
import sqlite3
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage
from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple
from langgraph.store.base import BaseStore
from langgraph.types import Command, StateSnapshot

from demo_tools.ledger import Ledger
from graphs.registry import PATTERNS, REGISTER_HINT, Agent, Pattern, known_agents, run_result
from nodes.effects import ask_key
from nodes.expiry import is_answer
from nodes.journal import Journal, ThreadBusy, owner, process_alive
from policies.base import BasePolicy
from policies.human import agent_answer, answer_reviewer
from policies.supervisor.authority.expiry import EXPIRED_REASON

if TYPE_CHECKING:  # a type only: reading commands never load the model stack (docs/cli.md)
    from langchain_core.language_models import BaseChatModel


class RunNotFound(LookupError):
    """No run with this thread id in the store."""


class NotWaiting(RuntimeError):
    """The run is not paused for a human, so there is nothing to approve, edit or reject."""


class NotIncomplete(RuntimeError):
    """The run did not stop mid-run, so there is nothing to continue."""


class UnreadableRun(RuntimeError):
    """The store holds a checkpoint (or its metadata) that cannot be decoded: written by another
    program or version, or damaged. Nothing is changed. ``thread_id`` names the thread (None: the
    store's index of runs), ``reason`` says what is wrong with it."""

    def __init__(self, message: str, *, thread_id: str | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.thread_id = thread_id
        self.reason = reason or message


class UnreadableRunWarning(UserWarning):
    """A thread :func:`list_runs` left out because it cannot be read (:class:`UnreadableRun`), while
    the store's other runs are listed: ``thread_id`` names it, ``reason`` says why."""

    def __init__(self, thread_id: str, reason: str) -> None:
        super().__init__(f"thread {thread_id!r} skipped: {reason}")
        self.thread_id = thread_id
        self.reason = reason


def _database_error(exc: BaseException) -> bool:
    """An error of the database itself (locked, connection lost...), which the caller reports as
    such, not as a checkpoint that cannot be decoded. Metadata that is not JSON is the row's: SQLite
    reports it (``malformed JSON``) when a query filters on it."""
    if isinstance(exc, sqlite3.Error):
        return "malformed JSON" not in str(exc)
    return type(exc).__module__.split(".")[0] in ("psycopg", "psycopg_pool")


@contextmanager
def _decoding(thread_id: str | None = None) -> Iterator[None]:
    """Reads of the store: a row that cannot be decoded raises :class:`UnreadableRun`."""
    try:
        yield
    except (RunNotFound, NotWaiting, NotIncomplete, UnreadableRun):
        raise
    except Exception as exc:
        if _database_error(exc):
            raise
        where = f"thread {thread_id!r}" if thread_id else "the store's index of runs"
        text = " ".join(str(exc).split())[:200] or "no message"
        reason = f"holds a checkpoint that cannot be decoded ({type(exc).__name__}: {text})"
        raise UnreadableRun(f"{where} {reason}", thread_id=thread_id, reason=reason) from exc


@dataclass(frozen=True)
class RunSummary:
    thread_id: str
    pattern: str
    #: ``ok`` / ``stopped`` (ended), ``waiting`` (paused for a human), ``incomplete`` (its process
    #: ended mid-run, or it is still running)
    status: str
    stop_reason: str | None = None
    started_at: float | None = None
    updated_at: str | None = None
    model: str | None = None
    run_id: str | None = None
    #: what a waiting run waits on: the interrupts' requests
    waiting_on: list[Any] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The summary as JSON values (``runs --json``, ``waiting --json``): both times as ISO 8601
        in UTC, as ``updated_at`` is (``started_at`` is seconds since the epoch on the object)."""
        shown = {k: v for k, v in self.__dict__.items() if v not in (None, [])}
        if isinstance(self.started_at, int | float):
            shown["started_at"] = datetime.fromtimestamp(self.started_at, UTC).isoformat()
        return shown


@dataclass(frozen=True)
class RunRecord:
    summary: RunSummary
    #: the run's result as ``graph.invoke`` returned it (the run contract plus the pattern's keys)
    result: dict[str, Any]
    #: the thread's checkpoints, newest first: step, source, what ran, what comes next
    checkpoints: list[dict[str, Any]]


def _config(thread_id: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}}


#: The checkpoints each invocation writes for its input: the store's index of runs.
_INPUTS = {"source": "input"}
#: Every thread's newest checkpoint, read without decoding a row (SQLite and PostgreSQL alike).
_NEWEST = (
    "SELECT thread_id, MAX(checkpoint_id) AS newest FROM checkpoints"
    " WHERE checkpoint_ns = '' GROUP BY thread_id"
)


#: What a known pattern or ``create_agent`` agent is, by the name in its checkpoints' metadata.
Known = Pattern | Agent

#: The metadata ``create_agent`` gives every checkpoint of its graph.
CREATE_AGENT = ("ls_integration", "langchain_create_agent")

#: How to answer a ``create_agent`` thread the CLI does not know.
ANSWER_FROM_PYTHON = (
    'answer it from Python: apps.operations.runs.answer_waiting(agent, thread_id, {"decisions": [{"type": '
    '"approve"}]}, journal=nodes.store.journal_for(saver)), with the agent built over this store, '
    "or with the application's own client"
)


def known_name(metadata: Any) -> str | None:
    """The known pattern or agent a checkpoint's metadata names (``pattern`` or ``agent``), else None."""
    metadata = metadata if isinstance(metadata, dict) else {}
    pattern, agent = metadata.get("pattern"), metadata.get("agent")
    if isinstance(pattern, str) and pattern in PATTERNS:
        return pattern
    if isinstance(agent, str) and agent in known_agents():
        return agent
    return None


def _known(name: str) -> Known:
    return PATTERNS[name] if name in PATTERNS else known_agents()[name]


def _index_into(latest: dict[str, tuple[str, str | UnreadableRun]], items: Iterator[CheckpointTuple]) -> None:
    """Each thread's latest input checkpoint id and its pattern (or known agent), from the store's
    input checkpoints."""
    for item in items:
        configurable = item.config.get("configurable", {})
        pattern = known_name(item.metadata)
        if configurable.get("checkpoint_ns") or pattern is None:
            continue
        thread_id, checkpoint_id = str(configurable["thread_id"]), str(configurable["checkpoint_id"])
        if thread_id not in latest or checkpoint_id > latest[thread_id][0]:
            latest[thread_id] = (checkpoint_id, pattern)


def _thread_ids(checkpointer: BaseCheckpointSaver) -> list[tuple[str, str]] | None:
    """(thread id, id of its newest checkpoint) of every thread in the store, read without decoding
    a checkpoint: for SQLite, PostgreSQL and in-memory stores; None for another checkpointer."""
    conn: Any = getattr(checkpointer, "conn", None)
    storage = getattr(checkpointer, "storage", None)
    rows: list[Any]
    if isinstance(conn, sqlite3.Connection):
        with checkpointer.cursor(transaction=False) as cur:  # type: ignore[attr-defined]
            rows = cur.execute(_NEWEST).fetchall()
    elif type(checkpointer).__module__.startswith("langgraph.checkpoint.postgres") and conn is not None:
        if hasattr(conn, "connection"):  # a connection pool
            with conn.connection() as pooled:
                rows = pooled.execute(_NEWEST).fetchall()
        else:
            with checkpointer.lock:  # type: ignore[attr-defined]
                rows = conn.execute(_NEWEST).fetchall()
    elif isinstance(storage, dict):  # InMemorySaver: thread id -> namespace -> checkpoint id -> row
        rows = [(thread_id, max(spaces[""])) for thread_id, spaces in storage.items() if spaces.get("")]
    else:
        return None
    return [(str(a), str(b)) for a, b in (tuple(r.values()) if isinstance(r, dict) else r for r in rows)]


@contextmanager
def _inputs(checkpointer: BaseCheckpointSaver, config: Any) -> Iterator[Iterator[CheckpointTuple]]:
    """The input checkpoints of the store (``config``: of one thread), closed however the reading
    ends: a saver's listing holds its lock until it is closed, and the saver is closed after."""
    items = checkpointer.list(config, filter=_INPUTS)
    try:
        yield items
    finally:
        close = getattr(items, "close", None)
        if close is not None:
            close()


def _threads(checkpointer: BaseCheckpointSaver) -> list[tuple[str, str | UnreadableRun]]:
    """(thread id, pattern) for every run a pattern graph wrote, the most recently started (or
    restarted with new input) first. One read of the store: the checkpoints each invocation writes
    for its input, whose ids are time-ordered UUIDs; resuming a run writes none, so it keeps its
    place.

    When a thread's input checkpoints cannot be decoded, the store's threads are read one by one
    and such a thread comes with the :class:`UnreadableRun` in place of its pattern (placed by its
    newest checkpoint), so that one damaged thread does not hide the others."""
    known_agents()  # a registration that names nothing loadable fails here, before the store is read
    latest: dict[str, tuple[str, str | UnreadableRun]] = {}
    try:
        with _decoding(), _inputs(checkpointer, None) as items:
            _index_into(latest, items)
    except UnreadableRun:
        threads = _thread_ids(checkpointer)
        if threads is None:
            raise
        latest = {}
        for thread_id, newest in threads:
            config: Any = _config(thread_id)
            try:
                with _decoding(thread_id), _inputs(checkpointer, config) as items:
                    _index_into(latest, items)
            except UnreadableRun as exc:
                latest[thread_id] = (newest, exc)
    ordered = sorted(latest.items(), key=lambda item: item[1][0], reverse=True)
    return [(thread_id, found) for thread_id, (_, found) in ordered]


def has_thread(checkpointer: BaseCheckpointSaver, thread_id: str) -> bool:
    """Does the store hold a checkpoint of this thread (of any graph)?"""
    with _decoding(thread_id):
        return checkpointer.get_tuple(_config(thread_id)) is not None  # type: ignore[arg-type]


def stored_threads(checkpointer: BaseCheckpointSaver) -> list[str]:
    """Every thread a pattern graph ran on in this store, the most recently started first (and
    those whose checkpoints cannot be decoded, so that a command can name them)."""
    return [thread_id for thread_id, _ in _threads(checkpointer)]


def _graph(pattern: Known, checkpointer: BaseCheckpointSaver) -> Any:
    """A graph to read the pattern's runs with: reading calls no model, so it gets the offline one
    (a real model's settings are neither read nor checked). An agent is built with its own model
    (built, never called)."""
    if isinstance(pattern, Agent):
        return pattern.build(checkpointer=checkpointer)
    from nodes.offline import OfflineChatModel

    return pattern.module.build_graph(checkpointer=checkpointer, llm=OfflineChatModel())


def _is_agent(snapshot: StateSnapshot) -> bool:
    """A checkpoint of a ``create_agent`` agent (its state has no run contract)."""
    metadata = snapshot.metadata or {}
    return metadata.get(CREATE_AGENT[0]) == CREATE_AGENT[1] or metadata.get("agent") in known_agents()


def _status(snapshot: StateSnapshot) -> str:
    if snapshot.interrupts:
        return "waiting"
    if _is_agent(snapshot):  # an agent's turn ended, or was stopped by its governance
        if snapshot.next:
            return "incomplete"
        return "stopped" if (snapshot.values or {}).get("governance_stop_reason") else "ok"
    status = (snapshot.values or {}).get("status")
    if status in ("ok", "stopped") and not snapshot.next:
        return str(status)
    return "incomplete"


def _summary(thread_id: str, pattern: str, snapshot: StateSnapshot) -> RunSummary:
    values = snapshot.values or {}
    return RunSummary(
        thread_id=thread_id,
        pattern=pattern,
        status=_status(snapshot),
        stop_reason=values.get("stop_reason", values.get("governance_stop_reason")),
        started_at=values.get("started_at"),
        updated_at=snapshot.created_at,
        model=values.get("model"),
        run_id=values.get("run_id"),
        waiting_on=[i.value for i in snapshot.interrupts],
    )


def _latest(checkpointer: BaseCheckpointSaver, thread_id: str) -> tuple[Known, CheckpointTuple]:
    """The thread's pattern (or known agent) and latest checkpoint (one read of the store). A
    ``create_agent`` thread of an agent the CLI does not know: :class:`RunNotFound` saying how to
    answer it."""
    with _decoding(thread_id):
        latest = checkpointer.get_tuple(_config(thread_id))  # type: ignore[arg-type]
    if latest is None:
        raise RunNotFound(
            f"no run with thread id {thread_id!r} in this store (`agent-patterns runs` lists them; "
            "the first 4 or more characters of an id name its thread when no other starts with them)"
        )
    name = known_name(latest.metadata)
    if name is None:
        if (latest.metadata or {}).get(CREATE_AGENT[0]) == CREATE_AGENT[1]:
            raise RunNotFound(
                f"thread {thread_id!r} holds a create_agent thread of an agent the CLI does not know "
                f"(known: {', '.join(known_agents())}): {REGISTER_HINT}; or {ANSWER_FROM_PYTHON}"
            )
        raise RunNotFound(f"thread {thread_id!r} holds no run of a known pattern")
    return _known(name), latest


def _open(checkpointer: BaseCheckpointSaver, thread_id: str) -> tuple[Known, Any, StateSnapshot]:
    """The thread's pattern, a graph to read it with, and its latest snapshot."""
    pattern, _ = _latest(checkpointer, thread_id)
    graph = _graph(pattern, checkpointer)
    with _decoding(thread_id):
        return pattern, graph, graph.get_state(_config(thread_id))


def run_summary(checkpointer: BaseCheckpointSaver, thread_id: str) -> RunSummary:
    """One run's summary (status, stop reason, what it waits on), without reading its history."""
    pattern, _, snapshot = _open(checkpointer, thread_id)
    return _summary(thread_id, pattern.name, snapshot)


def list_runs(
    checkpointer: BaseCheckpointSaver,
    *,
    pattern: str | None = None,
    status: str | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[RunSummary]:
    """The runs in the store, the most recently started first (a resumed run keeps its place).

    ``pattern`` and ``status`` filter; ``offset`` skips that many matching runs and ``limit`` (None:
    no limit) caps how many are returned, so a large store is read a page at a time: the store's
    index of runs is read once, and only the runs on the page are opened (with a ``status`` filter,
    every run before the page's end, since a run's status is in its latest state).

    A thread that cannot be read (a damaged checkpoint: :class:`UnreadableRun`) is left out with an
    :class:`UnreadableRunWarning` naming it, and the other runs are listed; when no other run was
    found, its :class:`UnreadableRun` is raised."""
    if (limit is not None and limit < 0) or offset < 0:
        raise ValueError("limit and offset must not be negative")
    runs: list[RunSummary] = []
    graphs: dict[str, Any] = {}
    unreadable: list[UnreadableRun] = []
    matched = others = 0  # others: the runs read, or skipped unread, that match the pattern
    for thread_id, name in _threads(checkpointer):
        if limit is not None and len(runs) >= limit:
            break
        if isinstance(name, UnreadableRun):  # its pattern cannot be read either: it may match
            if status is not None or matched >= offset:
                unreadable.append(name)
            continue
        if pattern and name != pattern:
            continue
        others += 1
        if status is None and matched < offset:  # skipped unread: no filter needs its state
            matched += 1
            continue
        graph = graphs.get(name) or graphs.setdefault(name, _graph(_known(name), checkpointer))
        try:
            with _decoding(thread_id):
                summary = _summary(thread_id, name, graph.get_state(_config(thread_id)))
        except UnreadableRun as exc:
            others -= 1
            unreadable.append(exc)
            continue
        if status is not None and summary.status != status:
            continue
        matched += 1
        if matched > offset:
            runs.append(summary)
    _report_unreadable(unreadable, others)
    return runs


def _report_unreadable(unreadable: list[UnreadableRun], others: int) -> None:
    """The threads a listing could not read: an :class:`UnreadableRunWarning` each, beside the
    runs it lists; when it found no other run, the first one's :class:`UnreadableRun` (a store
    whose every run is unreadable is an error, not an empty list)."""
    if unreadable and not others:
        raise unreadable[0]
    for exc in unreadable:
        warnings.warn(UnreadableRunWarning(exc.thread_id or "?", exc.reason), stacklevel=3)


def waiting_runs(checkpointer: BaseCheckpointSaver) -> list[RunSummary]:
    """The runs paused for a human, with what each waits on."""
    return list_runs(checkpointer, status="waiting")


def load_run(checkpointer: BaseCheckpointSaver, thread_id: str) -> RunRecord:
    """One run read back from the checkpointer: summary, result (trace and history included) and
    the thread's checkpoints."""
    pattern, graph, snapshot = _open(checkpointer, thread_id)
    with _decoding(thread_id):
        history = list(graph.get_state_history(_config(thread_id)))
    checkpoints = [
        {
            "checkpoint_id": s.config["configurable"]["checkpoint_id"],
            "step": (s.metadata or {}).get("step"),
            "source": (s.metadata or {}).get("source"),
            "wrote": sorted((s.metadata or {}).get("writes") or {}) or None,
            "next": list(s.next),
            "created_at": s.created_at,
        }
        for s in history
    ]
    result = _result(graph, snapshot.values or {})
    return RunRecord(_summary(thread_id, pattern.name, snapshot), result, checkpoints)


def expired_refusals(values: Mapping[str, Any]) -> int:
    """How many calls a run's values (or result) refused because their question had expired
    (``approval_expired``: the Supervisor's ``refusals``, an agent's ``governance_refusals``)."""
    rows = [*(values.get("refusals") or []), *(values.get("governance_refusals") or [])]
    return sum(isinstance(r, Mapping) and r.get("reason") == EXPIRED_REASON for r in rows)


def answered_late(kind: Any, before: int, after: Mapping[str, Any]) -> bool:
    """Did an answer of type ``kind`` run nothing because its question had expired: an approval or
    an edit after which the run (``after``: its result or values) refused one more call
    ``approval_expired`` than the ``before`` it was answered (:func:`expired_refusals`)? A
    rejection did what it asked."""
    return kind != "reject" and expired_refusals(after) > before


def thread_values(checkpointer: BaseCheckpointSaver, thread_id: str) -> dict[str, Any]:
    """A thread's current values, as its last checkpoint holds them (nothing run)."""
    _pattern, _graph, snapshot = _open(checkpointer, thread_id)
    return dict(snapshot.values or {})


def recorded_policy(checkpointer: BaseCheckpointSaver, thread_id: str) -> BasePolicy | None:
    """The policy the run was started with, as the CLI recorded it in its checkpoints' metadata,
    else its pattern's demo policy (None: an agent's thread, whose policy is its middleware's)."""
    pattern, latest = _latest(checkpointer, thread_id)
    if isinstance(pattern, Agent):
        return None
    recorded = (latest.metadata or {}).get("policy")
    with _decoding(thread_id):
        return pattern.model.model_validate_json(recorded) if isinstance(recorded, str) else pattern.policy()


def _reopen(
    checkpointer: BaseCheckpointSaver,
    thread_id: str,
    llm: BaseChatModel | None,
    policy: BasePolicy | None,
    ledger: Ledger | None,
    store: BaseStore | None = None,
) -> tuple[Any, StateSnapshot, BasePolicy | None]:
    """The run's graph rebuilt over the store (with the policy it was started with, when the CLI
    recorded one), and its latest snapshot. An agent is rebuilt as it builds itself (its own model
    and policy: ``llm``, ``policy`` and ``ledger`` are the patterns')."""
    pattern, latest = _latest(checkpointer, thread_id)
    if isinstance(pattern, Agent):
        agent = pattern.build(checkpointer=checkpointer, store=store)
        with _decoding(thread_id):
            return agent, agent.get_state(_config(thread_id)), None
    if policy is None:
        recorded = (latest.metadata or {}).get("policy")
        with _decoding(thread_id):
            policy = pattern.model.model_validate_json(recorded) if isinstance(recorded, str) else None
    graph = pattern.build(checkpointer=checkpointer, llm=llm, policy=policy, ledger=ledger, store=store)
    with _decoding(thread_id):
        return graph, graph.get_state(_config(thread_id)), policy


#: Called with each node's name and its state update as the node finishes (the CLI's progress lines).
OnUpdate = Callable[[str, Any], None]


def stream_values(graph: Any, command: Any, config: dict[str, Any], on_update: OnUpdate | None = None) -> Any:
    """Run ``graph`` on ``command`` (an input, ``Command(resume=...)`` or None) and return its final
    values, as ``invoke`` does; with ``on_update``, node by node (``"__interrupt__"`` included)."""
    if on_update is None:
        return graph.invoke(command, config)
    values: Any = {}
    for mode, chunk in graph.stream(command, config, stream_mode=["updates", "values"]):
        if mode == "values":
            values = chunk
        else:
            for node, update in chunk.items():
                on_update(node, update)
    return values


def _run_on(
    graph: Any, command: Any, thread_id: str, policy: BasePolicy | None, on_update: OnUpdate | None
) -> dict[str, Any]:
    values = stream_values(graph, command, run_config(thread_id, policy), on_update)
    result = _result(graph, values)
    pending = graph.get_state(_config(thread_id)).interrupts
    if pending:
        result["waiting_for_human"] = [i.value for i in pending]
    return result


def _result(graph: Any, values: dict[str, Any]) -> dict[str, Any]:
    """A run's result; an agent's turn: ``agent``, ``status`` (``ok`` / ``stopped``),
    ``stop_reason``, its last reply as ``answer``, then its output keys."""
    name = ((getattr(graph, "config", None) or {}).get("metadata") or {}).get("agent")
    if name not in known_agents():
        return run_result(graph, values)
    reason = values.get("governance_stop_reason")
    messages = values.get("messages") or []
    reply = str(messages[-1].text) if messages and isinstance(messages[-1], BaseMessage) else None
    shown: dict[str, Any] = {"agent": name, "status": "stopped" if reason else "ok"}
    shown |= {"stop_reason": reason} if reason else {}
    shown |= {"answer": reply} if reply else {}
    return shown | {k: v for k, v in run_result(graph, values).items() if k not in shown}


class AlreadyAnswered(NotWaiting):
    """The question was answered already, by another reviewer or process: this answer ran nothing.
    ``answer``: the one that won, as stored (its ``type``, ``at``)."""

    def __init__(self, message: str, answer: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.answer = answer or {}


#: How long an answer waits for the thread by default (a turn still running on it): seconds.
ANSWER_WAIT = 60.0


def _answered(thread_id: str, stored: dict[str, Any], note: str = "") -> AlreadyAnswered:
    given = stored.get("answer")
    kind = given.get("type") if isinstance(given, dict) else given
    if isinstance(given, dict) and isinstance(given.get("decisions"), list) and given["decisions"]:
        first = given["decisions"][0]
        kind = first.get("type") if isinstance(first, dict) else first
    at = stored.get("at")
    when = datetime.fromtimestamp(float(at), UTC).isoformat(timespec="seconds") if at else "?"
    by = f", by {stored['by']}" if stored.get("by") and stored.get("by") != "human" else ""
    return AlreadyAnswered(
        f"run {thread_id!r}: already answered ({kind}, at {when}{by}); this answer ran nothing{note}", stored
    )


def _claim_answer(journal: Journal, thread_id: str, question: Any, answer: Any) -> dict[str, Any] | None:
    """Claim the question for ``answer`` (the first answer wins): None when this answer holds it,
    else the answer that does."""
    # who claims it: the reviewer the answer names, else a human not named
    by = answer_reviewer(answer) or "human"
    stored, created = journal.answer(thread_id, ask_key(question), {"answer": answer, "by": by})
    return None if created or (stored.get("answer") == answer and _ours(stored)) else stored


def _ours(stored: dict[str, Any]) -> bool:
    return (stored.get("owner") or {}) == owner()


def resume_run(
    checkpointer: BaseCheckpointSaver,
    thread_id: str,
    answer: Any,
    *,
    llm: BaseChatModel | None = None,
    policy: BasePolicy | None = None,
    ledger: Ledger | None = None,
    on_update: OnUpdate | None = None,
    store: BaseStore | None = None,
    journal: Journal | None = None,
    wait: float | None = ANSWER_WAIT,
) -> dict[str, Any]:
    """Answer a waiting run's interrupt (``{"type": "approve"}``, an edit or a rejection) and run it
    on, in this process. Returns its result (with ``waiting_for_human`` if it pauses again).

    The first answer to a question wins, whoever races: this answer claims the question the run
    waits on now in the thread's journal (``journal``: default, the one beside ``checkpointer``'s
    runs), and an answer that finds it claimed raises :class:`AlreadyAnswered` (which answer, when)
    and runs nothing. The run goes on under the thread's turn (one run at a time per thread);
    ``wait``: seconds to wait for a turn still going on the thread (None: as long as it takes),
    then :class:`~nodes.journal.ThreadBusy`.

    ``policy`` defaults to the one the run was started with when the CLI recorded it, else the
    pattern's defaults; ``ledger`` is where the demo tools record side effects (give the same
    ledger the run started with, so that nothing is done twice); ``store``, where the run keeps its
    audit log (``nodes.store.open_store``: beside the runs).
    """
    from nodes.store import journal_for

    journal = journal if journal is not None else journal_for(checkpointer)
    graph, snapshot, policy = _reopen(checkpointer, thread_id, llm, policy, ledger, store)
    if _is_agent(snapshot):
        answer = agent_answer(answer, snapshot)
    served = _served_by(checkpointer, thread_id)
    if served:  # the answer is kept; the serving process carries the thread on
        asked = ask_key(snapshot.interrupts[0].value) if snapshot.interrupts else ""
        answer_waiting(graph, thread_id, answer, journal=journal, wait=wait, run=lambda: None)
        return carried_on(graph, thread_id, asked, served, wait)
    return answer_waiting(
        graph,
        thread_id,
        answer,
        journal=journal,
        wait=wait,
        run=lambda: _run_on(graph, Command(resume=answer), thread_id, policy, on_update),
    )


def _served_by(checkpointer: BaseCheckpointSaver, thread_id: str) -> str:
    known, _ = _latest(checkpointer, thread_id)
    return known.carried_on_by if isinstance(known, Agent) else ""


#: How often an answer to a served thread looks whether its server carried the thread on: seconds.
CARRIED_POLL = 0.1


def carried_on(graph: Any, thread_id: str, asked: str, served: str, wait: float | None) -> dict[str, Any]:
    """A served thread's result once its server carried it on past the question ``asked`` (its
    answer kept in the journal), or, after ``wait`` seconds, as it stands (``carried_on: false``)."""
    config = _config(thread_id)
    deadline = None if wait is None else time.monotonic() + wait
    while True:
        with _decoding(thread_id):
            snapshot = graph.get_state(config)
        moved = not any(ask_key(i.value) == asked for i in snapshot.interrupts)
        if moved or (deadline is not None and time.monotonic() >= deadline):
            break
        time.sleep(CARRIED_POLL)
    result = _result(graph, snapshot.values or {})
    result["carried_on"] = moved
    if not moved:
        result["status"] = "answered"
        result["note"] = f"answered; {served} carries it on when it reads the answer"
    if moved and snapshot.interrupts:
        result["waiting_for_human"] = [i.value for i in snapshot.interrupts]
    return result


def answer_waiting(
    graph: Any,
    thread_id: str,
    answer: Any,
    *,
    journal: Journal,
    wait: float | None = ANSWER_WAIT,
    run: Callable[[], Any] | None = None,
) -> Any:
    """Answer the question a thread of ``graph`` (one of the patterns, or a ``create_agent`` agent
    with ``GovernanceMiddleware``) waits on, as a reviewer does: the answer claims the question in
    ``journal`` (the first answer wins: a later one raises :class:`AlreadyAnswered` and runs
    nothing), then the run goes on under the thread's turn (``wait``: seconds to wait for a turn
    going on the thread, then :class:`~nodes.journal.ThreadBusy`). ``run``: how to go on (default:
    ``graph.invoke(Command(resume=answer), ...)``); returns what it returns."""
    config = _config(thread_id)
    with _decoding(thread_id):
        snapshot = graph.get_state(config)
    if not snapshot.interrupts:
        raise _not_waiting(journal, thread_id, snapshot)
    question = snapshot.interrupts[0].value
    asked = ask_key(question)
    winner = _claim_answer(journal, thread_id, question, answer)
    if winner is not None and process_alive(winner) is not False:
        raise _answered(thread_id, winner)
    with journal.turn(thread_id, wait=wait):
        with _decoding(thread_id):
            snapshot = graph.get_state(config)
        if not any(ask_key(i.value) == asked for i in snapshot.interrupts):
            raise _not_waiting(journal, thread_id, snapshot)
        if winner is not None:  # its process died before the answer took effect: this one claims it
            journal.forget_answer(thread_id, asked)
            winner = _claim_answer(journal, thread_id, question, answer)
            if winner is not None:
                raise _answered(thread_id, winner)
        return run() if run is not None else graph.invoke(Command(resume=answer), config)


class ThreadWaiting(RuntimeError):
    """A new turn on a thread that waits for a human: answer it first (a new run would discard the
    pending question)."""


def carry_on_first(graph: Any, thread_id: str) -> dict[str, Any] | None:
    """Before a new turn on a thread: a run whose process died mid-run (its latest checkpoint has
    steps still to run and asks nothing) is carried on first, so that a side effect it had started
    is reconciled (:mod:`nodes.effects`: made already, made again with its key, or put to a human)
    instead of being dropped by the new turn. Returns the result when the thread then waits for a
    human (the new turn waits behind it), else None. A thread waiting for a human raises
    :class:`ThreadWaiting`. Call it under the thread's turn (:meth:`~nodes.journal.Journal.turn`)."""
    config = _config(thread_id)
    with _decoding(thread_id):
        snapshot = graph.get_state(config)
    if snapshot.interrupts:
        raise ThreadWaiting(
            f"thread {thread_id!r} waits for a human: answer it first (a new turn would discard the question)"
        )
    if not snapshot.next:
        return None
    result = dict(graph.invoke(None, config))
    return result if graph.get_state(config).interrupts else None


def _going(journal: Journal, thread_id: str) -> str:
    """Where a run answered already stands when it has not ended: going on in another process
    now (it holds the thread's turn), or cut short (nothing holds it)."""
    try:
        with journal.turn(thread_id, wait=0):
            pass
    except ThreadBusy:
        return " (its run is going on now, in another process)"
    return " (its run was cut short: carry it on with `agent-patterns resume`, or the thread's next turn)"


def _not_waiting(journal: Journal, thread_id: str, snapshot: StateSnapshot) -> NotWaiting:
    """The run waits on no question (or no longer on the one answered): the answer stored last
    says who answered it, and when."""
    answers = [a for a in journal.answers(thread_id) if is_answer(a)]
    status = _status(snapshot) if "status" in (snapshot.values or {}) or snapshot.next else "ended"
    if answers:
        return _answered(thread_id, answers[-1], _going(journal, thread_id) if status == "incomplete" else "")
    return NotWaiting(f"run {thread_id!r} is not waiting for a human (status: {status})")


def continue_run(
    checkpointer: BaseCheckpointSaver,
    thread_id: str,
    *,
    llm: BaseChatModel | None = None,
    policy: BasePolicy | None = None,
    ledger: Ledger | None = None,
    on_update: OnUpdate | None = None,
    store: BaseStore | None = None,
    journal: Journal | None = None,
    wait: float | None = 0.0,
) -> dict[str, Any]:
    """Carry on an ``incomplete`` run (its process died mid-run) from its latest checkpoint.

    The step that was in flight runs again; a side effect it had started is reconciled through the
    thread's journal (:mod:`nodes.effects`): one made already is not made again, a keyed tool is
    called again with the same key, a keyless one in doubt is put to a human. A run still going in
    another process holds the thread's turn: :class:`~nodes.journal.ThreadBusy` (``wait``: seconds
    to wait for it).
    """
    from nodes.store import journal_for

    journal = journal if journal is not None else journal_for(checkpointer)
    with journal.turn(thread_id, wait=wait):
        graph, snapshot, policy = _reopen(checkpointer, thread_id, llm, policy, ledger, store)
        status = _status(snapshot)
        if status != "incomplete":
            hint = " (answer it with approve/edit/reject)" if status == "waiting" else ""
            raise NotIncomplete(f"run {thread_id!r} has nothing to continue (status: {status}){hint}")
        return _run_on(graph, None, thread_id, policy, on_update)


def run_config(thread_id: str, policy: BasePolicy | None) -> dict[str, Any]:
    """A run's config: its thread, and its policy recorded in the checkpoints' metadata so that a
    resume in another process applies the same policy."""
    config = _config(thread_id)
    if policy is not None:
        config["metadata"] = {"policy": policy.model_dump_json()}
    return config


def json_default(value: Any) -> Any:
    """``json.dumps``'s ``default`` for a run's result: a LangChain message in its dict form
    (``type``, ``content``, ``id``, ``tool_calls``, ``tool_call_id``, ``name``, ``status``...: what
    a LangGraph server sends for ``messages``), anything else JSON cannot hold as its text."""
    if isinstance(value, BaseMessage):
        return value.model_dump()
    return str(value)


def result_json(value: Any, *, indent: int | None = None) -> str:
    """A run's result (or any value holding one) as the CLI prints it: JSON, messages as dicts."""
    return json.dumps(value, indent=indent, ensure_ascii=False, default=json_default)
