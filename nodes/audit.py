"""The audit log: the audit rows of every run on a thread, kept once, outside the checkpoints.

LangGraph's savers write a state's channels into every checkpoint (SQLite: all of them, each time;
PostgreSQL: each channel a step changed), so rows that accumulate in state over a whole thread are
rewritten at every step of every later run. Instead, a run keeps only its own rows in state (the
run's result, what its nodes read), and each row is appended, once, to a log in the graph's
LangGraph store (``BaseStore``: ``InMemoryStore``, ``SqliteStore``, ``PostgresStore``, or the
store ``langgraph dev`` and the Agent Protocol server give every graph).

**Where.** One namespace per thread, ``("agent_patterns", "audit", <thread>)``; one item per row.
An item's value: ``run_id``, ``kind`` (``trace``, ``history``, ``calls``, ``refusals``; ``run``
for a run's start: its turn and request; ``end`` for how it ended), ``seq`` (the row's place in its
run's list of that kind), ``row``, ``at`` (when it was written) and where it came from.

**Exactly once.** Keys are deterministic, so writing an item again overwrites it:

- rows written by the node that made them (the Supervisor graph) are keyed by LangGraph's task id
  (``runtime.execution_info.task_id``: the checkpoint it ran from, its step and node), the kind
  and the row's place in the node's update. A node re-run from the same checkpoint (a resume after
  an interrupt, or after a crash before its writes were saved) rewrites the same items; a fork or
  a replay runs from a new checkpoint, so its rows are new items and the first branch's stay;
- rows moved at a run's end (``GovernanceMiddleware``, whose rows are made in hooks that write no
  log) are keyed by their run, kind, place in the run and content: the same rows moved twice are
  one item; a fork's rows that differ from the first branch's are items of their own.

**Chained.** Each item holds its place in the thread's chain, its predecessor's hash and its own
(:mod:`policies.tamper`); the thread's head (its last place and hash) is an item of its own
namespace, ``("agent_patterns", "audit_head", <thread>)``. An item written again with the content
it has is not written again (its link stands); with other content (a node re-run that made other
rows) it is a new link at the end that names the one it replaces. The chain's order is the order
items were first written, whatever order the audit reads them in; ``apps.operations.audit.verify_audit``
checks it (``agent-patterns audit --verify``). A thread's items are written by one process at a
time (the thread's turn, :mod:`nodes.journal`), and within one by one writer at a time (a lock per
thread), so two writers never take the same place.

The read side is :func:`read_log` (and ``apps.operations.audit`` for a thread's runs from a graph or a
store; ``agent-patterns audit THREAD``).
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore, GetOp, Item, PutOp

from nodes.langgraph_private import node_runnable, wrap_nodes
from nodes.messages import REQUEST_MESSAGE_KEY, message_id
from nodes.stamps import audit_key
from nodes.state import RESET
from policies import tamper
from policies.text import json_hash

#: The namespace's first labels; the thread's (escaped) id follows.
NAMESPACE = ("agent_patterns", "audit")
#: Row kinds, in the order a run's rows are read.
ROW_KINDS = ("trace", "history", "calls", "refusals", "grants")
#: Most items read from one thread's log (a 200-turn thread of one tool call each keeps ~2,000).
MAX_ITEMS = 1_000_000


def thread_label(thread_id: str) -> str:
    """A thread id as a namespace label (a store refuses periods, NUL bytes and empty labels)."""
    text = str(thread_id).replace("%", "%25").replace(".", "%2E").replace("\x00", "%00")
    return text or "%"


def namespace(thread_id: str) -> tuple[str, ...]:
    return (*NAMESPACE, thread_label(thread_id))


def _safe_text(value: str) -> str:
    if value.isascii():  # no lone surrogate in it: as it is
        return value
    return value.encode("utf-8", "replace").decode("utf-8")


def storable(value: Any) -> Any:
    """``value`` as every store can keep it: JSON types, text without lone surrogates, no NaN. A
    value that cannot be read (a container whose iteration raises, a ``str`` that raises) is kept
    as its type's name: whatever a client sends, the row is written."""
    try:
        if isinstance(value, str):
            return _safe_text(str.__str__(value))
        if isinstance(value, bool) or value is None or isinstance(value, int):
            return value
        if isinstance(value, float):
            return value if value == value and value not in (float("inf"), float("-inf")) else str(value)
        if isinstance(value, Mapping):
            return {_safe_text(str(k)): storable(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [storable(v) for v in value]
        return _safe_text(str(value))
    except Exception:
        return f"<unreadable {type(value).__name__}>"


@dataclass(frozen=True)
class Entry:
    """One item of the log: its key and value."""

    key: str
    value: dict[str, Any]


def entry(
    key: str, run_id: Any, kind: str, seq: int, row: Any, *, stored: bool = False, **where: Any
) -> Entry:
    """A log item; ``stored``: ``row`` is :func:`storable` already."""
    kept = row if stored else storable(row)
    value = {"run_id": run_id, "kind": kind, "seq": seq, "row": kept, "at": time.time(), **where}
    return Entry(key, value)


def content_key(run_id: Any, kind: str, seq: int, row: Any, *, stored: bool = False) -> str:
    """The key of a row moved after the fact: its run, kind, place in the run and content
    (``stored``: ``row`` is :func:`storable` already)."""
    return f"{run_id}/{kind}/{seq}/{json_hash(row if stored else storable(row))}"


def task_key(task_id: str, kind: str, index: int) -> str:
    """The key of a row written by the task that made it: the task, the kind, its place in the
    task's update."""
    return f"{task_id}/{kind}/{index}"


#: ``GovernanceMiddleware``'s state keys of a run's rows, by kind (``nodes.middleware.state``;
#: named here so that reading a log needs no LangChain).
GOVERNANCE_ROWS = {
    "trace": "governance_trace",
    "calls": "governance_calls",
    "refusals": "governance_refusals",
    "grants": "governance_grants",
}
GOVERNANCE_ENGINE = "governance_middleware"
_RUN_FIELDS = ("turn", "request_message_id", "started_at")


def run_entry(run: Mapping[str, Any], engine: str) -> Entry:
    """A run's start (its turn and request), keyed by the run."""
    start = {**{k: run.get(k) for k in _RUN_FIELDS}, "engine": engine}
    return entry(f"{run.get('run_id')}/run", run.get("run_id"), "run", 0, start)


def end_entry(run_id: Any, status: str, stop_reason: Any) -> Entry:
    """How a run ended, keyed by its content (a fork that ended otherwise is an item of its own)."""
    end = {"status": status, "stop_reason": stop_reason}
    return entry(content_key(run_id, "end", 0, end), run_id, "end", 0, end)


def state_entries(
    state: Mapping[str, Any], keys: Mapping[str, str], run: Mapping[str, Any] | None, engine: str
) -> list[Entry]:
    """The items of the rows ``state`` holds under ``keys`` (kind → state key), keyed by content:
    a row names its run (``run_id``) or belongs to ``run``; its place counts within its run. With
    ``run``, its start too."""
    run = run or {}
    made = [run_entry(run, engine)] if run.get("run_id") else []
    for kind, key in keys.items():
        places: dict[Any, int] = {}
        for row in state.get(key) or []:
            if not isinstance(row, Mapping) or row == RESET:
                continue
            owner = row.get("run_id", run.get("run_id"))
            seq = places[owner] = places.get(owner, -1) + 1
            kept = storable(row)  # once: its key and its value read the same form
            made.append(
                entry(content_key(owner, kind, seq, kept, stored=True), owner, kind, seq, kept, stored=True)
            )
    return made


def put_ops(thread_id: str, entries: Iterable[Entry]) -> list[PutOp]:
    """The store operations that write ``entries`` (not indexed for search: they are read by thread)."""
    space = namespace(thread_id)
    return [PutOp(space, e.key, e.value, index=False) for e in entries]


#: The namespace of each thread's chain head; the thread's (escaped) id follows.
HEAD_NAMESPACE = ("agent_patterns", "audit_head")
HEAD_KEY = "head"


def head_namespace(thread_id: str) -> tuple[str, ...]:
    return (*HEAD_NAMESPACE, thread_label(thread_id))


def _value(item: Any) -> Mapping[str, Any] | None:
    value = getattr(item, "value", None)
    return value if isinstance(value, Mapping) else None


def chained(
    entries: Sequence[Entry], stored: Sequence[Any], head: Any, before: int, key: bytes | None = None
) -> tuple[list[Entry], dict[str, Any] | None]:
    """``entries`` as links of the thread's chain after ``head`` (its stored item, or None: the
    chain starts here, after the ``before`` items the log already holds), given what the store
    holds under each entry's key (``stored``): the items to write (an entry whose key holds its
    content already is not written again) and the new head (None: nothing to write). With ``key``
    (``$AGENT_PATTERNS_AUDIT_KEY``, :func:`nodes.stamps.audit_key`) each link and the head are
    sealed (:func:`policies.tamper.seal`): whoever can write the database cannot re-link it."""
    last = _value(head)
    n = int(last["n"]) if last and isinstance(last.get("n"), int) else -1
    prev = str(last["hash"]) if last and isinstance(last.get("hash"), str) else ""
    made: list[Entry] = []
    for e, item in zip(entries, stored, strict=True):
        had = _value(item)
        if had is not None and tamper.content(had) == tamper.content(e.value):
            continue  # written already (linked, or before the chain began): it stands
        extra: dict[str, Any] = {}
        if had is not None:  # its place (or its count among the older items) is taken over
            linked = tamper.is_linked(had)
            extra["replaces"] = {"n": had["n"], "hash": had["hash"]} if linked else {"unlinked": True}
        if n == -1:
            extra["before"] = before
        n += 1
        value = tamper.linked(e.value, n, prev, key=key, **extra)
        prev = value["hash"]
        made.append(Entry(e.key, value))
    return made, (tamper.sealed_head(n, prev, time.time(), key) if made else None)


def _last_of_each_key(entries: Sequence[Entry]) -> list[Entry]:
    """One entry per key, the last given (as a batch of puts leaves it)."""
    return list({e.key: e for e in entries}.values())


def _lookups(thread_id: str, entries: Sequence[Entry]) -> list[GetOp]:
    space = namespace(thread_id)
    return [GetOp(head_namespace(thread_id), HEAD_KEY), *(GetOp(space, e.key) for e in entries)]


def _puts(thread_id: str, made: Sequence[Entry], head: dict[str, Any]) -> list[PutOp]:
    return [*put_ops(thread_id, made), PutOp(head_namespace(thread_id), HEAD_KEY, head, index=False)]


#: One writer of a thread's chain at a time in a process (striped: a fixed number of locks).
_LOCKS = [threading.Lock() for _ in range(64)]
_ALOCKS: weakref.WeakKeyDictionary[Any, list[asyncio.Lock]] = weakref.WeakKeyDictionary()


def _stripe(store: BaseStore, thread_id: str) -> int:
    return hash((id(store), thread_id)) % len(_LOCKS)


def write(store: BaseStore | None, thread_id: str | None, entries: Sequence[Entry]) -> None:
    if store is None or not thread_id or not entries:
        return
    entries = _last_of_each_key(entries)
    with _LOCKS[_stripe(store, thread_id)]:
        head, *stored = store.batch(_lookups(thread_id, entries))
        before = len(read_log(store, thread_id)) if head is None else 0
        made, new_head = chained(entries, stored, head, before, audit_key())
        if new_head is not None:
            store.batch(_puts(thread_id, made, new_head))


async def awrite(store: BaseStore | None, thread_id: str | None, entries: Sequence[Entry]) -> None:
    if store is None or not thread_id or not entries:
        return
    entries = _last_of_each_key(entries)
    loop = asyncio.get_running_loop()
    locks = _ALOCKS.get(loop)
    if locks is None:
        locks = _ALOCKS[loop] = [asyncio.Lock() for _ in range(len(_LOCKS))]
    async with locks[_stripe(store, thread_id)]:
        head, *stored = await store.abatch(_lookups(thread_id, entries))
        before = len(await aread_log(store, thread_id)) if head is None else 0
        made, new_head = chained(entries, stored, head, before, audit_key())
        if new_head is not None:
            await store.abatch(_puts(thread_id, made, new_head))


def read_head(store: BaseStore, thread_id: str) -> dict[str, Any] | None:
    """The thread's chain head (its last place and hash), or None (no chain, or it was removed)."""
    found = _value(store.get(head_namespace(thread_id), HEAD_KEY))
    return dict(found) if found is not None else None


def read_log(store: BaseStore, thread_id: str) -> list[Item]:
    """Every item of the thread's log (all runs, all branches), in no particular order."""
    space = namespace(thread_id)
    # one request: stores order a search by update time, and a page boundary between items
    # written in the same instant would repeat or skip some
    found = store.search(space, limit=MAX_ITEMS)
    return list({item.key: item for item in found if tuple(item.namespace) == space}.values())


async def aread_log(store: BaseStore, thread_id: str) -> list[Item]:
    space = namespace(thread_id)
    found = await store.asearch(space, limit=MAX_ITEMS)
    return list({item.key: item for item in found if tuple(item.namespace) == space}.values())


def threads(store: BaseStore) -> list[str]:
    """The labels of every thread with an audit log in ``store`` (as :func:`thread_label` made
    them), sorted."""
    found = store.list_namespaces(prefix=NAMESPACE, max_depth=len(NAMESPACE) + 1, limit=MAX_ITEMS)
    return sorted({space[len(NAMESPACE)] for space in found if len(space) == len(NAMESPACE) + 1})


def unlabel(label: str) -> str:
    """A thread id from its namespace label (:func:`thread_label` undone)."""
    if label == "%":
        return ""
    return label.replace("%2E", ".").replace("%00", "\x00").replace("%25", "%")


def thread_of(runtime: Any) -> str | None:
    """The thread a node runs on (None without a checkpointer: nothing to keep a log for)."""
    info = getattr(runtime, "execution_info", None)
    thread = getattr(info, "thread_id", None)
    if thread is None:
        from langgraph.config import get_config

        try:
            thread = (get_config().get("configurable") or {}).get("thread_id")
        except RuntimeError:  # not inside a runnable context
            thread = None
    return str(thread) if thread not in (None, "") else None


def logging_to(runtime: Any) -> tuple[BaseStore, str] | None:
    """The store and thread a node writes the log to, or None (no store, or no thread)."""
    store = getattr(runtime, "store", None)
    thread = thread_of(runtime) if store is not None else None
    return (store, thread) if store is not None and thread else None


# --- Rows written by the node that made them (a graph's nodes, wrapped) ------------------------


@dataclass(frozen=True)
class RowChannels:
    """Where a graph keeps a run's audit rows: ``appended`` channels (``add_rows``: an update's
    rows are new, after a leading ``RESET`` the run's list starts over) and ``whole`` ones (an
    update writes the whole list: the rows past the state's are new)."""

    appended: tuple[str, ...]
    whole: tuple[str, ...]
    engine: str


def request_turn(state: Mapping[str, Any], update: Mapping[str, Any]) -> int | None:
    """The run's turn: its request's place among the conversation's human messages (1: the first)."""
    request = update.get(REQUEST_MESSAGE_KEY, state.get(REQUEST_MESSAGE_KEY))
    said = [*(state.get("messages") or []), *(update.get("messages") or [])]
    humans = [message_id(m) for m in said if getattr(m, "type", None) == "human"]
    return humans.index(request) + 1 if request in humans else None


def _new_rows(
    kind: str, state: Mapping[str, Any], update: Mapping[str, Any], whole: bool
) -> tuple[int, list[Any]]:
    """(the first new row's place in the run's list, the rows ``update`` adds to ``kind``)."""
    given = update.get(kind)
    if not isinstance(given, list):
        return 0, []
    had = list(state.get(kind) or [])
    if whole:
        return (len(had), given[len(had) :]) if given[: len(had)] == had else (0, given)
    if given and given[0] == RESET:
        return 0, given[1:]
    return len(had), given


def node_entries(
    state: Mapping[str, Any], update: Any, node: str, info: Any, channels: RowChannels
) -> list[Entry]:
    """The log items of one node's update: the run's start (its turn and request), the rows it
    adds, the run's end; keyed by the node's task (``info``: LangGraph's ``ExecutionInfo``)."""
    if not isinstance(update, Mapping):
        return []
    run_id = update.get("run_id") or state.get("run_id")
    where = {"node": node, "task_id": info.task_id, "checkpoint_id": info.checkpoint_id}
    made: list[Entry] = []
    if update.get("run_id"):
        start = {
            "turn": request_turn(state, update),
            "request_message_id": update.get(REQUEST_MESSAGE_KEY, state.get(REQUEST_MESSAGE_KEY)),
            "started_at": update.get("started_at"),
            "model": update.get("model"),
            "engine": channels.engine,
        }
        made.append(entry(task_key(info.task_id, "run", 0), run_id, "run", 0, start, **where))
    for kind in (*channels.appended, *channels.whole):
        first, rows = _new_rows(kind, state, update, kind in channels.whole)
        for i, row in enumerate(rows):
            made.append(entry(task_key(info.task_id, kind, i), run_id, kind, first + i, row, **where))
    if update.get("status") in ("ok", "stopped"):
        end = {k: update.get(k) for k in ("status", "stop_reason", "outcome", "phase")}
        made.append(entry(task_key(info.task_id, "end", 0), run_id, "end", 0, end, **where))
    return made


def _passed(inner: Any, runtime: Any) -> dict[str, Any]:
    """The runtime, given on to a node that takes it (a caller without LangGraph passes None)."""
    return {"runtime": runtime} if "runtime" in getattr(inner, "func_accepts", {}) else {}


def logged_node(node: str, inner: Any, channels: RowChannels) -> Any:
    """``inner`` (a node's runnable), writing the rows each update adds to the thread's log before
    the update is returned (so before LangGraph saves it): a node that stops or fails before it
    returns writes nothing, and one re-run from the same checkpoint rewrites the same items."""

    def made(state: Mapping[str, Any], update: Any, runtime: Any) -> tuple[Any, str, list[Entry]]:
        target = logging_to(runtime)
        info = getattr(runtime, "execution_info", None)
        if target is None or info is None:
            return None, "", []
        return target[0], target[1], node_entries(state, update, node, info, channels)

    def func(state: Mapping[str, Any], config: RunnableConfig, runtime: Runtime[Any]) -> Any:
        update = inner.invoke(state, config, **_passed(inner, runtime))
        write(*made(state, update, runtime))
        return update

    async def afunc(state: Mapping[str, Any], config: RunnableConfig, runtime: Runtime[Any]) -> Any:
        update = await inner.ainvoke(state, config, **_passed(inner, runtime))
        await awrite(*made(state, update, runtime))
        return update

    wrapped = node_runnable(func, afunc, name=getattr(inner, "name", node))
    wrapped.wrapped = inner  # type: ignore[attr-defined]
    if hasattr(inner, "llm_steps"):
        wrapped.llm_steps = inner.llm_steps  # type: ignore[attr-defined]
    return wrapped


def log_rows(builder: Any, channels: RowChannels) -> None:
    """Make every node of ``builder`` (before compiling) write its audit rows to the log."""
    wrap_nodes(builder, lambda name, runnable: logged_node(name, runnable, channels))
