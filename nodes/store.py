"""Where runs are kept: one way to get a checkpointer (and the demo's side-effect ledger) from a
location string.

- nothing, ``""`` or ``"memory"`` → ``InMemorySaver`` (the process's lifetime);
- ``postgresql://...`` / ``postgres://...`` → PostgreSQL (``PostgresSaver`` over a connection
  pool; the tables are created on first use, once, under an advisory lock);
- anything else is a file path → SQLite (``SqliteSaver``, WAL journal, created on first use with
  its folder).

The CLI keeps its runs in ``$AGENT_PATTERNS_DB`` or, by default, ``~/.agent-patterns/runs.sqlite``.
Problems with a location (a folder that cannot be created, a file that is not a database, a server
that does not answer) raise ``StoreError`` with one clear message.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, closing, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from demo_tools.ledger import Ledger, MemoryLedger, PostgresLedger, SqliteLedger
from nodes.journal import Journal, LazyJournal, PostgresJournal, SqliteJournal, journal_beside

if TYPE_CHECKING:  # LangGraph is imported where a checkpointer is opened: listing options stays fast
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.store.base import BaseStore

DB_ENV = "AGENT_PATTERNS_DB"
LEDGER_ENV = "AGENT_PATTERNS_LEDGER"
DEFAULT_DB = "~/.agent-patterns/runs.sqlite"
_SETUP_LOCK = 727_274_001  # pg_advisory_lock key: one process creates the tables at a time
_TRY_LOCK = "SELECT pg_try_advisory_lock(%s) AS locked"
_SETUP_WAIT = 120.0
_T = TypeVar("_T")


class StoreError(Exception):
    """A run store cannot be opened or used; the message says which and why."""


@dataclass(frozen=True)
class Location:
    kind: Literal["memory", "sqlite", "postgres"]
    target: str

    def __str__(self) -> str:
        if self.kind == "postgres":
            return _redacted(self.target)
        return self.target if self.kind == "sqlite" else "memory"


def default_location(env: Mapping[str, str] | None = None) -> str:
    """``$AGENT_PATTERNS_DB``, else the default SQLite file."""
    env = os.environ if env is None else env
    return env.get(DB_ENV) or DEFAULT_DB


def parse_location(location: str | Path | None) -> Location:
    text = "" if location is None else str(location).strip()
    if text in ("", "memory", ":memory:"):
        return Location("memory", "")
    if text.startswith(("postgresql://", "postgres://")):
        return Location("postgres", text)
    if "://" in text:
        raise StoreError(f"unsupported run store {text!r}: use a file path, postgresql://... or 'memory'")
    return Location("sqlite", str(Path(text).expanduser()))


def existing_store(location: str | Path | None) -> None:
    """For commands that only read a store (``audit``, ``audit --verify``, ``--jsonl``, ``--otlp``):
    a SQLite run store that does not exist is a :class:`StoreError` (a mistyped path must not
    read as an empty, verified audit), never a new empty file."""
    where = parse_location(location)
    if where.kind == "sqlite" and not Path(where.target).exists():
        raise StoreError(f"no run store at {where.target}: check --db (or ${DB_ENV})")


def _redacted(url: str) -> str:
    from psycopg.conninfo import conninfo_to_dict

    try:
        info = conninfo_to_dict(url)
    except Exception:
        return "postgresql://(unparsable URL)"
    return f"postgresql://{info.get('host', '')}:{info.get('port', 5432)}/{info.get('dbname', '')}"


def _sqlite_path(location: Location) -> Path:
    path = Path(location.target)
    if path.is_dir():
        raise StoreError(f"run store {path} is a folder, not an SQLite file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the folder for run store {path}: {exc.strerror or exc}") from None
    return path


def _sqlite_error(path: Path, exc: sqlite3.Error) -> StoreError:
    text = str(exc)
    if _read_only_error(exc, path):
        why = _why_read_only(path)
        return StoreError(f"run store {path} cannot be written ({text}): the run store is read-only ({why})")
    if (
        getattr(exc, "sqlite_errorname", "") == "SQLITE_CANTOPEN"
        and not path.exists()
        and _read_only_place(path.parent)
    ):
        return StoreError(
            f"cannot create run store {path} ({text}): its folder is read-only ({_why_read_only(path)})"
        )
    if "not a database" in text or "malformed" in text:
        return StoreError(f"run store {path} is not a usable SQLite database ({text})")
    return StoreError(f"cannot open run store {path}: {text}")


def _read_only_place(path: Path) -> bool:
    """Is ``path`` (a file or a folder) on a read-only file system, or not writable by this process?"""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY) or not os.access(path, os.W_OK)
    except OSError:
        return False


def _read_only_error(exc: sqlite3.Error, path: Path) -> bool:
    """Did SQLite fail because the store cannot be written: its file, its folder (where SQLite keeps
    the ``-wal`` and ``-shm`` files of a WAL store) or the mount is read-only?"""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith("SQLITE_READONLY") or "readonly database" in str(exc):
        return True
    return (
        name == "SQLITE_CANTOPEN"
        and path.is_file()
        and (_read_only_place(path) or _read_only_place(path.parent))
    )


def _why_read_only(path: Path) -> str:
    """Why a store cannot be written, as far as the file system tells."""
    place = path if path.exists() else path.parent
    try:
        if os.statvfs(place).f_flag & os.ST_RDONLY:
            return "on a read-only file system"
    except OSError:
        pass
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is not writable"
    if not os.access(path.parent, os.W_OK):
        return "its folder is not writable, and SQLite writes its -wal and -shm files there"
    return "SQLite opened it read-only"


def _read_only_connection(path: Path, **kwargs: Any) -> sqlite3.Connection:
    """``path`` opened for reading only: ``mode=ro`` (which reads a WAL store's log, but needs its
    ``-shm`` file, or a folder to create it in), else ``immutable=1`` (no locks, no ``-shm``),
    which is safe only while no ``-wal`` file holds changes not yet in the database file itself."""
    uri = path.resolve().as_uri()
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, **kwargs)
    except sqlite3.Error as exc:
        raise _sqlite_error(path, exc) from None
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.Error as exc:
        conn.close()
        wal = path.with_name(path.name + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise StoreError(
                f"run store {path} is read-only ({_why_read_only(path)}) and cannot be read: its "
                f"write-ahead log {wal.name} holds changes that SQLite reads only with a writable "
                f"folder or an existing {path.name}-shm file ({exc})"
            ) from None
    try:
        return sqlite3.connect(f"{uri}?immutable=1", uri=True, **kwargs)
    except sqlite3.Error as exc:
        raise _sqlite_error(path, exc) from None


def _open_sqlite(
    path: Path, setup: Callable[[sqlite3.Connection], _T], *, writable: bool, **kwargs: Any
) -> tuple[sqlite3.Connection, _T]:
    """A connection to the SQLite store at ``path`` and what ``setup`` made of it (the saver, the
    store). A store that cannot be written is opened for reading only (``runs``, ``show``... work
    on a read-only mount), unless ``writable`` asks for one that can: then ``StoreError`` says it
    is read-only, at open."""
    try:
        conn = sqlite3.connect(str(path), **kwargs)
    except sqlite3.Error as exc:
        raise _sqlite_error(path, exc) from None
    try:
        made = _set_up_when_free(conn, setup)
        if writable:
            _check_sqlite_writable(conn, path)
        return conn, made
    except sqlite3.Error as exc:
        conn.close()
        if writable or not _read_only_error(exc, path):
            raise _sqlite_error(path, exc) from None
    except StoreError:
        conn.close()
        raise
    conn = _read_only_connection(path, **kwargs)
    try:
        return conn, setup(conn)
    except sqlite3.Error as exc:
        conn.close()
        why = _why_read_only(path)
        raise StoreError(
            f"run store {path} is read-only ({why}) and cannot be read as a run store ({exc})"
        ) from None


#: How long opening a store waits, in all, for another process that holds its lock while it
#: sets the store up (two processes opening a new store at once: one switches it to WAL).
_SETUP_LOCKED_WAIT = 15.0


def _set_up_when_free(conn: sqlite3.Connection, setup: Callable[[sqlite3.Connection], _T]) -> _T:
    """``setup(conn)``, tried again while SQLite answers "database is locked" at once (it does so
    without waiting out the busy timeout where waiting could deadlock, as when two processes set up
    a new store together), for up to :data:`_SETUP_LOCKED_WAIT` seconds."""
    waited, pause = 0.0, 0.05
    while True:
        try:
            return setup(conn)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or waited >= _SETUP_LOCKED_WAIT:
                raise
            with suppress(sqlite3.Error):
                conn.rollback()
            time.sleep(pause)
            waited, pause = waited + pause, min(pause * 2, 1.0)


def _check_sqlite_writable(conn: sqlite3.Connection, path: Path) -> None:
    """A write that changes nothing: a store that is read-only (its file, its folder, the mount)
    fails here, at open, not at a run's first checkpoint after model calls were made."""
    try:
        conn.execute("DELETE FROM checkpoints WHERE 0")
    except sqlite3.OperationalError as exc:
        raise _sqlite_error(path, exc) from None
    finally:
        conn.rollback()


def one_line(exc: BaseException, limit: int = 400) -> str:
    """An exception's message on one line: its lines joined with "; ", runs of whitespace (tabs
    included) made one space, at most ``limit`` characters; its class name when it has none."""
    lines = [" ".join(line.split()) for line in str(exc).splitlines()]
    text = "; ".join(line for line in lines if line) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _pg_probe(url: str, timeout: float) -> None:
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=max(1, int(timeout))).close()
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to PostgreSQL at {_redacted(url)}: {one_line(exc)}") from None


def _pg_kwargs() -> dict[str, Any]:
    from psycopg.rows import dict_row

    return {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}


def _locked(row: Any) -> bool:
    return bool(row and (row["locked"] if isinstance(row, dict) else row[0]))


def _setup_lock_polls() -> Iterator[float]:
    """Pace the polls for the setup lock (yields the pause before the next poll); gives up with
    ``StoreError`` after ``_SETUP_WAIT``. Polling, not blocking: a session blocked in
    pg_advisory_lock would hold a snapshot that the saver's ``CREATE INDEX CONCURRENTLY``
    migrations wait for."""
    deadline = time.monotonic() + _SETUP_WAIT
    while time.monotonic() <= deadline:
        yield 0.05
    raise StoreError(f"PostgreSQL setup lock still held after {_SETUP_WAIT:.0f} s")


def _set_up_once(pool: Any, setup: Callable[[], None]) -> None:
    """Run ``setup`` (create the tables, migrate) under the advisory lock: one process at a time."""
    with pool.connection() as lock:
        for pause in _setup_lock_polls():
            if _locked(lock.execute(_TRY_LOCK, (_SETUP_LOCK,)).fetchone()):
                break
            time.sleep(pause)
        try:
            setup()
        finally:
            lock.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK,))


def _in_memory(what: Literal["checkpointer", "store"]) -> Any:
    """A new in-memory checkpointer (``InMemorySaver``) or store (``InMemoryStore``)."""
    if what == "store":
        from langgraph.store.memory import InMemoryStore

        return InMemoryStore()
    from langgraph.checkpoint.memory import InMemorySaver

    return InMemorySaver()


@contextmanager
def _on_postgres(
    target: str, pool_size: int, connect_timeout: float, make: Callable[[Any], Any]
) -> Iterator[Any]:
    """``make(pool)`` (a saver or a store) on a pool of connections to ``target``, its tables set up
    once (:func:`_set_up_once`); the pool closed when the block ends."""
    from psycopg_pool import ConnectionPool

    _pg_probe(target, connect_timeout)
    with ConnectionPool(
        target, min_size=1, max_size=max(2, pool_size), kwargs=_pg_kwargs(), open=True
    ) as pool:
        made = make(pool)
        _set_up_once(pool, made.setup)
        yield made


@contextmanager
def open_checkpointer(
    location: str | Path | None,
    *,
    pool_size: int = 10,
    connect_timeout: float = 5.0,
    writable: bool = False,
) -> Iterator[BaseCheckpointSaver]:
    """A checkpointer for ``location`` (see the module doc), closed when the block ends. An SQLite
    store that cannot be written (its file, its folder or the mount is read-only) is opened for
    reading; with ``writable``, it raises ``StoreError`` at open instead, saying it is read-only."""
    where = parse_location(location)
    if where.kind == "memory":
        yield _in_memory("checkpointer")
        return
    if where.kind == "sqlite":
        from langgraph.checkpoint.sqlite import SqliteSaver

        def saver_on(conn: sqlite3.Connection) -> SqliteSaver:
            saver = SqliteSaver(conn)
            saver.setup()
            return saver

        path = _sqlite_path(where)
        conn, saver = _open_sqlite(path, saver_on, writable=writable, timeout=30, check_same_thread=False)
        with closing(conn):
            yield saver
        return
    from langgraph.checkpoint.postgres import PostgresSaver

    with _on_postgres(where.target, pool_size, connect_timeout, PostgresSaver) as pg_saver:
        yield pg_saver


@asynccontextmanager
async def open_async_checkpointer(
    location: str | Path | None, *, pool_size: int = 10, connect_timeout: float = 5.0
) -> AsyncIterator[BaseCheckpointSaver]:
    """The asyncio twin of ``open_checkpointer`` (for ``ainvoke``/``astream``)."""
    import asyncio

    where = parse_location(location)
    if where.kind == "memory":
        yield _in_memory("checkpointer")
        return
    if where.kind == "sqlite":
        import aiosqlite
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

        path = _sqlite_path(where)
        try:
            conn = await aiosqlite.connect(str(path), timeout=30)
            saver = AsyncSqliteSaver(conn)
            await saver.setup()
        except sqlite3.Error as exc:
            raise _sqlite_error(path, exc) from None
        try:
            yield saver
        finally:
            await conn.close()
        return
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    from psycopg_pool import AsyncConnectionPool

    _pg_probe(where.target, connect_timeout)
    async with AsyncConnectionPool(
        where.target, min_size=1, max_size=max(2, pool_size), kwargs=_pg_kwargs(), open=False
    ) as pool:
        pg_saver = AsyncPostgresSaver(pool)  # type: ignore[arg-type]
        async with pool.connection() as lock:
            for pause in _setup_lock_polls():
                if _locked(await (await lock.execute(_TRY_LOCK, (_SETUP_LOCK,))).fetchone()):
                    break
                await asyncio.sleep(pause)
            try:
                await pg_saver.setup()
            finally:
                await lock.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK,))
        yield pg_saver


SETUP_RACE_WAIT_S = 30.0


def migration_raced(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` is what LangGraph's SQLite store setup raises when another process ran the
    same migration between this one's reading of the version and its recording of it: the
    version row already there, or the column its ``ALTER TABLE`` adds."""
    text = str(exc)
    return (isinstance(exc, sqlite3.IntegrityError) and "store_migrations" in text) or (
        isinstance(exc, sqlite3.OperationalError) and "duplicate column name" in text
    )


def set_up_beside_others(setup: Callable[[], None], *, wait_s: float = SETUP_RACE_WAIT_S) -> None:
    """``setup()`` for a SQLite file that other processes may be setting up at the same moment
    (two console turns on a new file). LangGraph's store migrates step by step, each step its own
    statement, so the loser of a race fails on a step the winner just made; it reads the version
    again and carries on from there, for up to ``wait_s`` seconds. Any other error, or a race
    that outlasts the wait, is raised."""
    deadline = time.monotonic() + wait_s
    pause = 0.01
    while True:
        try:
            setup()
            return
        except sqlite3.Error as exc:
            if not migration_raced(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


@contextmanager
def open_store(
    location: str | Path | None, *, pool_size: int = 4, connect_timeout: float = 5.0
) -> Iterator[BaseStore]:
    """LangGraph's key-value store (``BaseStore``) at ``location``, beside the checkpointer's runs:
    ``InMemoryStore``, ``SqliteStore`` in the same SQLite file, ``PostgresStore`` in the same
    database (tables created once, under the checkpointer's advisory lock). Graphs keep what must
    outlive one checkpoint there (the audit log, :mod:`nodes.audit`); closed when the block ends."""
    where = parse_location(location)
    if where.kind == "memory":
        yield _in_memory("store")
        return
    if where.kind == "sqlite":
        from langgraph.store.sqlite import SqliteStore

        def store_on(conn: sqlite3.Connection) -> SqliteStore | None:
            store = SqliteStore(conn)
            try:
                set_up_beside_others(store.setup)
            except sqlite3.OperationalError as exc:
                found = "SELECT 1 FROM sqlite_master WHERE name = 'store_migrations'"
                if not _read_only_error(exc, path) or conn.execute(found).fetchone():
                    raise
                return None  # a read-only file that never had the store's tables: no audit log
            return store

        path = _sqlite_path(where)
        conn, store = _open_sqlite(
            path, store_on, writable=False, timeout=30, check_same_thread=False, isolation_level=None
        )
        with closing(conn):  # a read-only file without the store's tables: no audit log kept
            yield _in_memory("store") if store is None else store
        return
    from langgraph.store.postgres import PostgresStore

    with _on_postgres(where.target, pool_size, connect_timeout, PostgresStore) as pg_store:
        yield pg_store


def threaded_store(store: BaseStore) -> BaseStore:
    """``store`` (a sync one: ``open_store``'s SQLite or PostgreSQL store) for an asyncio process:
    its async operations run the sync ones in a worker thread, one at a time. What the MCP gateway
    keeps its audit log in (LangGraph's ``SqliteStore`` has no async operations)."""
    from langgraph.store.base import BaseStore as Base

    class Threaded(Base):
        def __init__(self, inner: BaseStore) -> None:
            self.inner = inner
            self.lock = threading.Lock()

        def batch(self, ops: Any) -> Any:
            with self.lock:
                return self.inner.batch(list(ops))

        async def abatch(self, ops: Any) -> Any:
            import asyncio

            return await asyncio.to_thread(self.batch, list(ops))

    return Threaded(store)


def _opened_at(
    where: Location,
    memory: Callable[[], Any],
    sqlite: Callable[[Path], Any],
    postgres: Callable[[str], Any],
) -> Any:
    """What ``where`` holds, opened with the constructor for its kind (one clear ``StoreError`` for a
    file that cannot be opened, a server that does not answer)."""
    if where.kind == "memory":
        return memory()
    if where.kind == "sqlite":
        path = _sqlite_path(where)
        try:
            return sqlite(path)
        except sqlite3.Error as exc:
            raise _sqlite_error(path, exc) from None
    _pg_probe(where.target, 5.0)
    return postgres(where.target)


def _new_ledger(where: Location) -> MemoryLedger | SqliteLedger | PostgresLedger:
    return _opened_at(where, MemoryLedger, SqliteLedger, PostgresLedger)


@contextmanager
def open_ledger(location: str | Path | None) -> Iterator[Ledger]:
    """The demo billing desk's side-effect ledger, kept beside the runs at ``location``."""
    ledger = _new_ledger(parse_location(location))
    try:
        yield ledger
    finally:
        if not isinstance(ledger, MemoryLedger):
            ledger.close()


class LedgerOnUse:
    """The ledger at ``location``, opened at its first use and kept for the process's lifetime:
    a module-level graph can name it at import time without connecting to anything then. An
    opening that fails raises ``StoreError`` at that use (the tool call it served fails with
    ``tool_error:<name>``) and is tried again at the next one."""

    def __init__(self, location: str | Path) -> None:
        self.location = parse_location(location)
        self._ledger: Ledger | None = None
        self._lock = threading.Lock()

    def _opened(self) -> Ledger:
        with self._lock:
            if self._ledger is None:
                self._ledger = _new_ledger(self.location)
            return self._ledger

    def record(self, kind: str, key: str, entry: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        return self._opened().record(kind, key, entry)

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        return self._opened().get(kind, key)

    def entries(self, kind: str) -> dict[str, dict[str, Any]]:
        return self._opened().entries(kind)


def ledger_from_env(env: Mapping[str, str] | None = None) -> LedgerOnUse | None:
    """The ledger named by ``$AGENT_PATTERNS_LEDGER`` (a location as for ``open_checkpointer``),
    or None when it is unset. A served graph's demo tools record their side effects there, so
    every worker process of a server shares one ledger (``make serve`` sets it to the server's
    database)."""
    env = os.environ if env is None else env
    location = env.get(LEDGER_ENV, "").strip()
    return LedgerOnUse(location) if location else None


def _new_journal(where: Location) -> Journal:
    return _opened_at(where, Journal, SqliteJournal, PostgresJournal)


class JournalAt(LazyJournal):
    """The thread journal (:mod:`nodes.journal`) kept beside the runs at ``location``, opened at
    its first use and kept for the object's lifetime: a graph can name it when it is built (a
    module-level one at import time) without connecting to anything then. An opening that fails
    raises ``StoreError`` at that use and is tried again at the next one."""

    def __init__(self, location: str | Path | Location) -> None:
        where = location if isinstance(location, Location) else parse_location(location)
        super().__init__(lambda: _new_journal(where), blocking=where.kind != "memory")
        self.location = where


@contextmanager
def open_journal(location: str | Path | None) -> Iterator[Journal]:
    """The thread journal kept beside the runs at ``location`` (the same SQLite file or PostgreSQL
    database; ``memory``: a new one in this process), closed when the block ends."""
    journal = _new_journal(parse_location(location))
    try:
        yield journal
    finally:
        journal.close()


def journal_for(checkpointer: Any) -> Journal:
    """The journal beside a checkpointer's runs: the same SQLite file or PostgreSQL database
    (opened at first use), else one in memory kept as long as the checkpointer is; one per
    checkpointer, whoever asks (the middleware finds the same one from inside a run:
    :func:`nodes.journal.journal_beside`). Without a checkpointer (no run outlives its
    invocation), a new one in memory."""
    return journal_beside(checkpointer)


def journal_from_env(env: Mapping[str, str] | None = None) -> Journal | None:
    """The journal a served graph uses: beside ``$AGENT_PATTERNS_LEDGER`` when it is set (``make
    serve`` sets it to the server's database, so every worker process shares it), else None (the
    graph's default: beside the checkpointer it runs with)."""
    env = os.environ if env is None else env
    location = env.get(LEDGER_ENV, "").strip()
    return JournalAt(location) if location else None


def database_error(exc: BaseException) -> bool:
    """An error of the database (SQLite, or PostgreSQL through psycopg), not of what it holds."""
    psycopg = sys.modules.get("psycopg")
    return isinstance(exc, sqlite3.Error) or (psycopg is not None and isinstance(exc, psycopg.Error))
