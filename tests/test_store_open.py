"""Opening an SQLite run store while another process holds its lock (two processes setting up a
new store at once): SQLite answers "database is locked" at once where waiting could deadlock, and
the open tries again instead of failing the command (a CI run saw `support_desk: error: cannot open
run store ...: database is locked` from two turns started together)."""

from __future__ import annotations

import sqlite3

import pytest

from nodes import store


def test_a_setup_that_finds_the_store_locked_is_tried_again(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "_SETUP_LOCKED_WAIT", 2.0)
    tries = []

    def setup(conn: sqlite3.Connection) -> str:
        tries.append(1)
        if len(tries) < 3:
            raise sqlite3.OperationalError("database is locked")
        return "made"

    conn, made = store._open_sqlite(tmp_path / "s.sqlite", setup, writable=False)
    conn.close()
    assert made == "made" and len(tries) == 3


def test_a_store_locked_past_the_wait_and_other_errors_say_so(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "_SETUP_LOCKED_WAIT", 0.2)

    def locked(conn: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("database is locked")

    with pytest.raises(store.StoreError, match="database is locked"):
        store._open_sqlite(tmp_path / "s.sqlite", locked, writable=True)
    tries = []

    def broken(conn: sqlite3.Connection) -> None:
        tries.append(1)
        raise sqlite3.OperationalError("no such table: checkpoints")

    with pytest.raises(store.StoreError):
        store._open_sqlite(tmp_path / "t.sqlite", broken, writable=True)
    assert len(tries) == 1
