"""Audit row ids (``nodes.middleware.state.row_id``): 16 hex digits, never repeated in a process,
and not repeated by a forked process either (each child draws from its own seed), so the same step
run again, here or in a worker forked from this process, makes rows the audit log keeps apart."""

from __future__ import annotations

import os
import re
import sys

import pytest

from nodes.middleware.state import row_id, trace_row

HEX16 = re.compile(r"[0-9a-f]{16}")


def test_row_ids_are_16_hex_digits_and_unique() -> None:
    ids = [row_id() for _ in range(20_000)]
    assert all(HEX16.fullmatch(i) for i in ids)
    assert len(set(ids)) == len(ids)


def test_the_same_row_made_twice_gets_two_ids() -> None:
    run = {"run_id": "r", "steps": 1, "started_at": 0.0}
    first, second = trace_row(run, "execution", tool="t"), trace_row(run, "execution", tool="t")
    assert first["row_id"] != second["row_id"]
    assert {k: v for k, v in first.items() if k not in ("row_id", "elapsed_ms")} == {
        k: v for k, v in second.items() if k not in ("row_id", "elapsed_ms")
    }


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "darwin", reason="needs os.fork")
def test_a_forked_process_draws_other_ids_than_its_parent() -> None:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next ids, to the parent
        try:
            os.write(write, ",".join(row_id() for _ in range(50)).encode())
        finally:
            os._exit(0)
    os.close(write)
    parent = {row_id() for _ in range(50)}
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    child = set(b"".join(chunks).decode().split(","))
    assert len(child) == 50
    assert not parent & child
