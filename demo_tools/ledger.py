"""Where the demo billing desk records the side effects it performed, by idempotency key.

A ledger entry is written at most once per ``(kind, key)``: ``record`` stores the entry unless one
is already there, atomically, and returns the stored one. Kept in memory, in an SQLite file or in
PostgreSQL, so that a run resumed in another process (or after a crash) finds what the first
process already did and does not do it again.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Protocol

_CREATE = (
    "CREATE TABLE IF NOT EXISTS demo_side_effects ("
    " kind TEXT NOT NULL, key TEXT NOT NULL, entry TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL,"
    " PRIMARY KEY (kind, key))"
)


class Ledger(Protocol):
    def record(self, kind: str, key: str, entry: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Store ``entry`` under ``(kind, key)`` unless one is there; return (stored entry, created)."""
        ...

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        """The entry stored under ``(kind, key)``, or None."""
        ...

    def entries(self, kind: str) -> dict[str, dict[str, Any]]:
        """Every entry of ``kind``, by key, oldest first."""
        ...


class MemoryLedger:
    def __init__(self) -> None:
        self._rows: dict[tuple[str, str], dict[str, Any]] = {}
        self._lock = threading.Lock()

    def record(self, kind: str, key: str, entry: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        with self._lock:
            if (kind, key) in self._rows:
                return dict(self._rows[(kind, key)]), False
            self._rows[(kind, key)] = dict(entry)
            return dict(entry), True

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        with self._lock:
            found = self._rows.get((kind, key))
        return None if found is None else dict(found)

    def entries(self, kind: str) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {k: dict(v) for (kd, k), v in self._rows.items() if kd == kind}


class _SqlLedger:
    """The ledger table over a DB-API connection in autocommit mode (``?`` placeholders in the
    statements below become the driver's own)."""

    placeholder = "?"

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self._lock = threading.Lock()

    def _rows(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with self._lock:
            cur = self._conn.execute(sql.replace("?", self.placeholder), params)
            return list(cur.fetchall()) if cur.description else [cur.rowcount]

    def record(self, kind: str, key: str, entry: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        [inserted] = self._rows(
            "INSERT INTO demo_side_effects VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (kind, key, json.dumps(entry), time.time()),
        )
        stored = self.get(kind, key)
        assert stored is not None
        return stored, inserted == 1

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT entry FROM demo_side_effects WHERE kind = ? AND key = ?", (kind, key))
        return json.loads(rows[0][0]) if rows else None

    def entries(self, kind: str) -> dict[str, dict[str, Any]]:
        rows = self._rows(
            "SELECT key, entry FROM demo_side_effects WHERE kind = ? ORDER BY created_at", (kind,)
        )
        return {key: json.loads(entry) for key, entry in rows}

    def close(self) -> None:
        self._conn.close()


class SqliteLedger(_SqlLedger):
    """A ledger table in an SQLite file (WAL), shared by every process that opens the file."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(
            sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
        )
        self._rows("PRAGMA journal_mode=WAL", ())
        self._rows(_CREATE, ())


class PostgresLedger(_SqlLedger):
    """A ledger table in PostgreSQL, shared by every worker process or host."""

    placeholder = "%s"

    def __init__(self, url: str) -> None:
        import psycopg

        super().__init__(psycopg.connect(url, autocommit=True))
        # two processes creating the table at once: one wins, the other finds it there
        with contextlib.suppress(psycopg.errors.UniqueViolation, psycopg.errors.DuplicateTable):
            self._rows(_CREATE, ())
