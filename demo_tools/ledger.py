"""Where the demo billing desk records the side effects it performed, by idempotency key.

A ledger entry is written at most once per ``(kind, key)``: ``record`` stores the entry unless one
is already there, atomically, and returns the stored one. Kept in memory, in an SQLite file or in
PostgreSQL, so that a run resumed in another process (or after a crash) finds what the first
process already did and does not do it again.
"""

from __future__ import annotations

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


class SqliteLedger:
    """A ledger table in an SQLite file (WAL), shared by every process that opens the file."""

    def __init__(self, path: str | Path) -> None:
        self._conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(_CREATE)

    def record(self, kind: str, key: str, entry: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        with self._lock:
            cur = self._conn.execute(
                "INSERT OR IGNORE INTO demo_side_effects VALUES (?, ?, ?, ?)",
                (kind, key, json.dumps(entry), time.time()),
            )
            created = cur.rowcount == 1
        stored = self.get(kind, key)
        assert stored is not None
        return stored, created

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT entry FROM demo_side_effects WHERE kind = ? AND key = ?", (kind, key)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def entries(self, kind: str) -> dict[str, dict[str, Any]]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT key, entry FROM demo_side_effects WHERE kind = ? ORDER BY created_at, rowid", (kind,)
            ).fetchall()
        return {key: json.loads(entry) for key, entry in rows}

    def close(self) -> None:
        self._conn.close()


class PostgresLedger:
    """A ledger table in PostgreSQL, shared by every worker process or host."""

    def __init__(self, url: str) -> None:
        import psycopg

        self._conn = psycopg.connect(url, autocommit=True)
        self._lock = threading.Lock()
        with self._lock:
            self._conn.execute("SELECT pg_advisory_lock(4242)")
            try:
                self._conn.execute(_CREATE)
            finally:
                self._conn.execute("SELECT pg_advisory_unlock(4242)")

    def record(self, kind: str, key: str, entry: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        with self._lock:
            cur = self._conn.execute(
                "INSERT INTO demo_side_effects VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (kind, key, json.dumps(entry), time.time()),
            )
            created = cur.rowcount == 1
        stored = self.get(kind, key)
        assert stored is not None
        return stored, created

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT entry FROM demo_side_effects WHERE kind = %s AND key = %s", (kind, key)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def entries(self, kind: str) -> dict[str, dict[str, Any]]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT key, entry FROM demo_side_effects WHERE kind = %s ORDER BY created_at", (kind,)
            ).fetchall()
        return {key: json.loads(entry) for key, entry in rows}

    def close(self) -> None:
        self._conn.close()
