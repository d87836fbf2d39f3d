"""The thread's journal: what must hold across processes, kept outside any one run's checkpoints.

A checkpoint is written after a step, so it cannot say what a step did in the world before a
crash, nor stop two processes that read the same checkpoint from both acting on it. The journal
is a few rows beside the runs (the same SQLite file or PostgreSQL database, or memory), written
atomically, read by every process:

- **effects**, a write-ahead record of each side-effecting call: :meth:`Journal.begin` claims the
  call *before* its tool runs (status ``started``), :meth:`Journal.finish` records how it ended
  (``done``, ``failed``, or ``not_run`` where a human said it must not run again). The key is the
  ask's, not the arguments': an approval and an edit of the same ask are one call. A second claim
  of the same key finds the first; a call started and never finished (its process died) is *in
  doubt*; every limit counts both;
- **answers**: :meth:`Journal.answer` stores the first answer to an ask; a second finds it;
- **one run at a time per thread**: :meth:`Journal.turn`, a lock held for the length of an
  invocation (SQLite: ``flock`` on a file beside the store; PostgreSQL: an advisory lock on a
  connection of its own; both let go when the process dies).

The anchors: idempotency keys as payment APIs use them (one key per intended payment, the
stored response replayed), write-ahead intent (a durable "I am about to" before the act), and
LangGraph Platform's ``multitask_strategy`` (``reject`` or ``enqueue`` a second run on a busy
thread).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import socket
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STARTED, DONE, FAILED, NOT_RUN = "started", "done", "failed", "not_run"
#: Statuses of an effect that ran, or may have run: every limit counts them.
COUNTED = (STARTED, DONE)
#: PostgreSQL advisory locks, (namespace, hashtext(thread id)): a thread's turn (held for a run, on a
#: connection of its own) and a thread's journal writes (held for one transaction). Two namespaces:
#: a process holding a thread's turn writes to its journal.
_PG_TURNS = 727_274_045
_PG_WRITES = 727_274_046
_POLL = 0.05

_EFFECTS = (
    "CREATE TABLE IF NOT EXISTS agent_patterns_effects ("
    " seq {serial} PRIMARY KEY, thread_id TEXT NOT NULL, key TEXT NOT NULL, run_id TEXT,"
    " status TEXT NOT NULL, entry TEXT NOT NULL, outcome TEXT, updated_at DOUBLE PRECISION NOT NULL,"
    " UNIQUE (thread_id, key))"
)
_ANSWERS = (
    "CREATE TABLE IF NOT EXISTS agent_patterns_answers ("
    " thread_id TEXT NOT NULL, ask TEXT NOT NULL, entry TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,"
    " PRIMARY KEY (thread_id, ask))"
)


class ThreadBusy(RuntimeError):
    """Another run is going on this thread (in this process or another): one run at a time."""


@dataclass(frozen=True)
class Claim:
    """What :meth:`Journal.begin` found: the effect as stored, whether this claim created it, and
    ``conflict``: the claim was refused because another run acted on the thread after the call
    was reviewed (nothing was stored)."""

    effect: dict[str, Any]
    created: bool
    conflict: bool = False


def owner() -> dict[str, Any]:
    """Who is claiming: this host and process (a claim whose process is gone is in doubt)."""
    return {"host": socket.gethostname(), "pid": os.getpid()}


def process_alive(effect: dict[str, Any]) -> bool | None:
    """Is the process that started ``effect`` still running? None where this host cannot tell
    (another host)."""
    who = effect.get("owner") or {}
    if who.get("host") != socket.gethostname() or not isinstance(who.get("pid"), int):
        return None
    if who["pid"] == os.getpid():
        return True
    try:
        os.kill(who["pid"], 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def in_doubt(effect: dict[str, Any]) -> bool:
    """A call that started and never finished, whose process is gone (or cannot be told apart
    from gone): it may have run."""
    return effect.get("status") == STARTED and process_alive(effect) is not True


def _row(seq: Any, key: str, run_id: Any, status: str, entry: str, outcome: str | None, at: float) -> dict:
    effect = json.loads(entry)
    effect.update(seq=int(seq), key=key, run_id=run_id, status=status, updated_at=at)
    if outcome is not None:
        effect["outcome"] = json.loads(outcome)
    return effect


class Journal:
    """The journal's interface and its in-memory form (one process: tests, notebooks)."""

    #: Does a call wait on a database (an async caller runs it in a worker thread)?
    blocking = False

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._effects: dict[str, dict[str, dict[str, Any]]] = {}
        self._answers: dict[str, dict[str, dict[str, Any]]] = {}
        self._seq = 0
        self._turns: dict[str, threading.Lock] = {}

    # ------------------------------------------------------------------ effects

    def begin(self, thread_id: str, key: str, effect: dict[str, Any], *, after: int | None = None) -> Claim:
        """Claim the side effect ``key`` of ``thread_id`` before its tool runs. Returns the stored
        effect: this one (``created``), or the one claimed before under the same key. With
        ``after`` (the journal's :meth:`high_water` when the call was reviewed), a claim is refused
        (``conflict``) when another run began an effect on the thread since."""
        with self._lock:
            found = self._effects.setdefault(thread_id, {}).get(key)
            if found is not None:
                return Claim(dict(found), False)
            if after is not None and any(
                e["seq"] > after and e.get("run_id") != effect.get("run_id")
                for e in self._effects[thread_id].values()
            ):
                return Claim({}, False, conflict=True)
            self._seq += 1
            stored = {**effect, "owner": owner(), "seq": self._seq, "key": key, "status": STARTED}
            stored["updated_at"] = time.time()
            self._effects[thread_id][key] = stored
            return Claim(dict(stored), True)

    def finish(self, thread_id: str, key: str, status: str, outcome: dict[str, Any]) -> None:
        """Record how the claimed effect ``key`` ended (:data:`DONE`, :data:`FAILED`,
        :data:`NOT_RUN`) and what it returned."""
        with self._lock:
            found = self._effects.get(thread_id, {}).get(key)
            if found is not None:
                found.update(status=status, outcome=outcome, updated_at=time.time())

    def restart(self, thread_id: str, key: str, effect: dict[str, Any]) -> dict[str, Any] | None:
        """Claim again an effect recorded :data:`NOT_RUN` (its run paused before the tool, or a
        human said it did not run): the stored effect, ``started`` by this process now, or None
        when another claim took it first (it is no longer ``not_run``)."""
        with self._lock:
            found = self._effects.get(thread_id, {}).get(key)
            if found is None or found.get("status") != NOT_RUN:
                return None
            found.update(effect, owner=owner(), status=STARTED, updated_at=time.time())
            found.pop("outcome", None)
            return dict(found)

    def get(self, thread_id: str, key: str) -> dict[str, Any] | None:
        """The effect claimed under ``key``, or None."""
        with self._lock:
            found = self._effects.get(thread_id, {}).get(key)
        return None if found is None else dict(found)

    def effects(self, thread_id: str) -> list[dict[str, Any]]:
        """Every effect claimed on the thread, in the order claimed."""
        with self._lock:
            return sorted((dict(e) for e in self._effects.get(thread_id, {}).values()), key=_seq)

    def high_water(self, thread_id: str) -> int:
        """The newest claim's sequence number on the thread (0: none)."""
        return max((e["seq"] for e in self.effects(thread_id)), default=0)

    # ------------------------------------------------------------------ answers

    def answer(self, thread_id: str, ask: str, entry: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Store the first answer to ``ask``; returns (the stored answer, whether it is this one)."""
        with self._lock:
            answers = self._answers.setdefault(thread_id, {})
            if ask in answers:
                return dict(answers[ask]), False
            answers[ask] = {**entry, "ask": ask, "at": time.time(), "owner": owner()}
            return dict(answers[ask]), True

    def forget_answer(self, thread_id: str, ask: str) -> None:
        """Drop the stored answer to ``ask``: one whose process died before it took effect (the run
        still waits on the question), so that another answer may claim it."""
        with self._lock:
            self._answers.get(thread_id, {}).pop(ask, None)

    def answers(self, thread_id: str) -> list[dict[str, Any]]:
        """Every answer stored on the thread, the oldest first."""
        with self._lock:
            return sorted((dict(a) for a in self._answers.get(thread_id, {}).values()), key=_at)

    # ------------------------------------------------------------------ one run at a time

    @contextlib.contextmanager
    def turn(self, thread_id: str, *, wait: float | None = 0.0) -> Iterator[None]:
        """Hold the thread for one invocation. ``wait``: seconds to wait for a busy thread (0:
        refuse at once, None: wait as long as it takes); a thread still busy then raises
        :class:`ThreadBusy`."""
        release = self._acquire(thread_id, wait)
        try:
            yield
        finally:
            release()

    def _acquire(self, thread_id: str, wait: float | None) -> Any:
        with self._lock:
            lock = self._turns.setdefault(thread_id, threading.Lock())
        if not lock.acquire(timeout=-1 if wait is None else max(0.0, wait)):
            raise busy(thread_id, wait)
        return lock.release

    def close(self) -> None:
        """Let go of what the journal holds open (nothing, in memory)."""


def busy(thread_id: str, wait: float | None) -> ThreadBusy:
    waited = f" (waited {wait:g} s)" if wait else ""
    return ThreadBusy(
        f"thread {thread_id!r} is busy: another run is going on it{waited}; one run at a time per "
        "thread: try again when it ends, or wait for it (--wait)"
    )


def _seq(effect: dict[str, Any]) -> int:
    return int(effect["seq"])


def _at(answer: dict[str, Any]) -> float:
    return float(answer.get("at") or 0.0)


class SqlJournal(Journal):
    """The journal's tables over a DB-API connection in autocommit mode; each write is one
    transaction that first takes the database's write lock (SQLite: ``BEGIN IMMEDIATE``;
    PostgreSQL: an advisory transaction lock on the thread), so a check and its insert are one
    atomic step whichever process races."""

    placeholder = "?"
    serial = "INTEGER"
    begin_sql = "BEGIN IMMEDIATE"
    blocking = True

    def __init__(self, conn: Any) -> None:
        super().__init__()
        self._conn = conn
        self._conn_lock = threading.RLock()

    def _sql(self, sql: str) -> str:
        return sql.replace("?", self.placeholder)

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._conn_lock:
            cur = self._conn.execute(self._sql(sql), params)
            return list(cur.fetchall()) if cur.description else []

    @contextlib.contextmanager
    def _transaction(self, thread_id: str) -> Iterator[None]:
        with self._conn_lock:
            self._conn.execute(self.begin_sql)
            try:
                self._lock_thread(thread_id)
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _lock_thread(self, thread_id: str) -> None:
        """Serialise writers of one thread inside a transaction (SQLite's BEGIN IMMEDIATE does)."""

    def _create(self) -> None:
        self._rows(_EFFECTS.format(serial=self.serial))
        self._rows(_ANSWERS)

    def _found(self, thread_id: str, key: str) -> dict[str, Any] | None:
        rows = self._rows(
            "SELECT seq, key, run_id, status, entry, outcome, updated_at FROM agent_patterns_effects"
            " WHERE thread_id = ? AND key = ?",
            (thread_id, key),
        )
        return _row(*rows[0]) if rows else None

    def begin(self, thread_id: str, key: str, effect: dict[str, Any], *, after: int | None = None) -> Claim:
        entry = json.dumps({**effect, "owner": owner()}, ensure_ascii=False, default=str)
        with self._transaction(thread_id):
            found = self._found(thread_id, key)
            if found is not None:
                return Claim(found, False)
            if after is not None:
                [(newer,)] = self._rows(
                    "SELECT COUNT(*) FROM agent_patterns_effects WHERE thread_id = ? AND seq > ?"
                    " AND (run_id IS NULL OR run_id <> ?)",
                    (thread_id, after, str(effect.get("run_id"))),
                )
                if int(newer):
                    return Claim({}, False, conflict=True)
            self._rows(
                "INSERT INTO agent_patterns_effects (thread_id, key, run_id, status, entry, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (thread_id, key, effect.get("run_id"), STARTED, entry, time.time()),
            )
            stored = self._found(thread_id, key)
        assert stored is not None
        return Claim(stored, True)

    def get(self, thread_id: str, key: str) -> dict[str, Any] | None:
        return self._found(thread_id, key)

    def restart(self, thread_id: str, key: str, effect: dict[str, Any]) -> dict[str, Any] | None:
        entry = json.dumps({**effect, "owner": owner()}, ensure_ascii=False, default=str)
        with self._transaction(thread_id):
            found = self._found(thread_id, key)
            if found is None or found.get("status") != NOT_RUN:
                return None
            self._rows(
                "UPDATE agent_patterns_effects SET status = ?, entry = ?, outcome = NULL, updated_at = ?"
                " WHERE thread_id = ? AND key = ?",
                (STARTED, entry, time.time(), thread_id, key),
            )
            return self._found(thread_id, key)

    def finish(self, thread_id: str, key: str, status: str, outcome: dict[str, Any]) -> None:
        self._rows(
            "UPDATE agent_patterns_effects SET status = ?, outcome = ?, updated_at = ?"
            " WHERE thread_id = ? AND key = ?",
            (status, json.dumps(outcome, ensure_ascii=False, default=str), time.time(), thread_id, key),
        )

    def effects(self, thread_id: str) -> list[dict[str, Any]]:
        rows = self._rows(
            "SELECT seq, key, run_id, status, entry, outcome, updated_at FROM agent_patterns_effects"
            " WHERE thread_id = ? ORDER BY seq",
            (thread_id,),
        )
        return [_row(*r) for r in rows]

    def high_water(self, thread_id: str) -> int:
        [(top,)] = self._rows(
            "SELECT COALESCE(MAX(seq), 0) FROM agent_patterns_effects WHERE thread_id = ?", (thread_id,)
        )
        return int(top)

    def answer(self, thread_id: str, ask: str, entry: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        at = time.time()
        text = json.dumps({**entry, "ask": ask, "at": at, "owner": owner()}, ensure_ascii=False, default=str)
        with self._transaction(thread_id):
            rows = self._rows(
                "SELECT entry FROM agent_patterns_answers WHERE thread_id = ? AND ask = ?", (thread_id, ask)
            )
            if rows:
                return json.loads(rows[0][0]), False
            self._rows("INSERT INTO agent_patterns_answers VALUES (?, ?, ?, ?)", (thread_id, ask, text, at))
        return json.loads(text), True

    def forget_answer(self, thread_id: str, ask: str) -> None:
        self._rows("DELETE FROM agent_patterns_answers WHERE thread_id = ? AND ask = ?", (thread_id, ask))

    def answers(self, thread_id: str) -> list[dict[str, Any]]:
        rows = self._rows(
            "SELECT entry FROM agent_patterns_answers WHERE thread_id = ? ORDER BY at", (thread_id,)
        )
        return [json.loads(r[0]) for r in rows]

    def close(self) -> None:
        with self._conn_lock:
            self._conn.close()


class SqliteJournal(SqlJournal):
    """The journal in an SQLite file (WAL), shared by every process that opens the file. A
    thread's turn is an ``flock`` on a file in ``<store>.turns/``: the kernel lets go of it when
    the process holding it dies."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        super().__init__(
            sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
        )
        self._rows("PRAGMA journal_mode=WAL")
        self._create()

    def _acquire(self, thread_id: str, wait: float | None) -> Any:
        folder = self.path.with_name(self.path.name + ".turns")
        folder.mkdir(exist_ok=True)
        name = hashlib.sha256(thread_id.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        fd = os.open(folder / name, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = None if wait is None else time.monotonic() + max(0.0, wait)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if deadline is not None and time.monotonic() >= deadline:
                    os.close(fd)
                    raise busy(thread_id, wait) from None
                time.sleep(_POLL)

        def release() -> None:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

        return release


class PostgresJournal(SqlJournal):
    """The journal in PostgreSQL, shared by every worker process or host. A thread's turn is a
    session advisory lock on a connection of its own: the server lets go of it when the
    connection (or the process holding it) is gone."""

    placeholder = "%s"
    serial = "BIGSERIAL"
    begin_sql = "BEGIN"

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        super().__init__(psycopg.connect(url, autocommit=True))
        # two processes creating the tables at once: one wins, the other finds them there
        with contextlib.suppress(psycopg.errors.UniqueViolation, psycopg.errors.DuplicateTable):
            self._rows(_EFFECTS.format(serial=self.serial))
        with contextlib.suppress(psycopg.errors.UniqueViolation, psycopg.errors.DuplicateTable):
            self._rows(_ANSWERS)

    def _lock_thread(self, thread_id: str) -> None:
        self._rows("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_PG_WRITES, thread_id))

    def _acquire(self, thread_id: str, wait: float | None) -> Any:
        import psycopg

        conn = psycopg.connect(self.url, autocommit=True)
        deadline = None if wait is None else time.monotonic() + max(0.0, wait)
        query = "SELECT pg_try_advisory_lock(%s, hashtext(%s))"
        while not conn.execute(query, (_PG_TURNS, thread_id)).fetchone()[0]:  # type: ignore[index]
            if deadline is not None and time.monotonic() >= deadline:
                conn.close()
                raise busy(thread_id, wait)
            time.sleep(_POLL)

        def release() -> None:
            with contextlib.suppress(psycopg.Error):
                conn.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (_PG_TURNS, thread_id))
            conn.close()

        return release


class LazyJournal(Journal):
    """A journal opened at its first use (``opener``) and kept: a graph or a middleware can name it
    before anything connects (a module-level graph at import time, a run on the event loop that
    decides to use a worker thread first: ``blocking`` says so without opening it)."""

    def __init__(self, opener: Callable[[], Journal], *, blocking: bool = True) -> None:
        super().__init__()
        self._opener, self.blocking = opener, blocking
        self._opened_journal: Journal | None = None
        self._open_lock = threading.Lock()

    def opened(self) -> Journal:
        with self._open_lock:
            if self._opened_journal is None:
                self._opened_journal = self._opener()
            return self._opened_journal

    def begin(self, thread_id: str, key: str, effect: dict[str, Any], *, after: int | None = None) -> Claim:
        return self.opened().begin(thread_id, key, effect, after=after)

    def get(self, thread_id: str, key: str) -> dict[str, Any] | None:
        return self.opened().get(thread_id, key)

    def restart(self, thread_id: str, key: str, effect: dict[str, Any]) -> dict[str, Any] | None:
        return self.opened().restart(thread_id, key, effect)

    def finish(self, thread_id: str, key: str, status: str, outcome: dict[str, Any]) -> None:
        self.opened().finish(thread_id, key, status, outcome)

    def effects(self, thread_id: str) -> list[dict[str, Any]]:
        return self.opened().effects(thread_id)

    def high_water(self, thread_id: str) -> int:
        return self.opened().high_water(thread_id)

    def answer(self, thread_id: str, ask: str, entry: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        return self.opened().answer(thread_id, ask, entry)

    def answers(self, thread_id: str) -> list[dict[str, Any]]:
        return self.opened().answers(thread_id)

    def forget_answer(self, thread_id: str, ask: str) -> None:
        self.opened().forget_answer(thread_id, ask)

    def _acquire(self, thread_id: str, wait: float | None) -> Any:
        return self.opened()._acquire(thread_id, wait)

    def close(self) -> None:
        with self._open_lock:
            if self._opened_journal is not None:
                self._opened_journal.close()
                self._opened_journal = None


#: The journal beside each checkpointer's runs, one per checkpointer whoever asks.
_BESIDE: weakref.WeakKeyDictionary[Any, Journal] = weakref.WeakKeyDictionary()
_BESIDE_LOCK = threading.Lock()


def journal_beside(checkpointer: Any) -> Journal:
    """The journal beside a checkpointer's runs: in the same SQLite file (``SqliteSaver``) or
    PostgreSQL database (``PostgresSaver`` over a pool or a connection), else one in memory kept as
    long as the checkpointer is (``InMemorySaver``); one per checkpointer. Without a checkpointer
    (no run outlives its invocation), a new one in memory."""
    if checkpointer is None:
        return Journal()
    with _BESIDE_LOCK:
        try:
            found = _BESIDE.get(checkpointer)
        except TypeError:  # a checkpointer that cannot be weakly referenced
            return _opened_beside(checkpointer)
        if found is None:
            found = _BESIDE[checkpointer] = _opened_beside(checkpointer)
        return found


def database_of(checkpointer: Any) -> tuple[str, str] | None:
    """Where a checkpointer keeps its runs: ``("sqlite", path)``, ``("postgres", conninfo)``, or None
    (in memory, or a saver this cannot read)."""
    conn = getattr(checkpointer, "conn", None)
    if isinstance(conn, sqlite3.Connection):
        rows = conn.execute("PRAGMA database_list").fetchall()
        path = next((str(r[2]) for r in rows if r[1] == "main" and r[2]), None)
        return ("sqlite", path) if path else None
    info = getattr(conn, "conninfo", None)  # a psycopg pool: the URL it connects with
    if info is None and conn is not None and hasattr(conn, "info") and hasattr(conn.info, "dsn"):
        from psycopg.conninfo import make_conninfo  # a psycopg connection: its dsn less the password

        info = make_conninfo(conn.info.dsn, password=conn.info.password or None)
    return ("postgres", info) if isinstance(info, str) and info else None


def _opened_beside(checkpointer: Any) -> Journal:
    where = database_of(checkpointer)
    if where is None:
        return Journal()
    kind, target = where
    return LazyJournal(lambda: SqliteJournal(target) if kind == "sqlite" else PostgresJournal(target))
