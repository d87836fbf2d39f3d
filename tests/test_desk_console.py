"""The support desk's console (``python -m governed_agent_patterns.apps.cli.desk``) at its
edges, as a user runs it: every mistake and every damaged store is one line and exit 2, nothing is
created or run by a command that cannot apply."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import run

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parent.parent


def console(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run(
        [sys.executable, "-m", "governed_agent_patterns.apps.cli.desk", "--db", str(db), *args],
        cwd=ROOT,
        timeout=180,
    )


def one_line_error(out: subprocess.CompletedProcess[str], *words: str) -> None:
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith("support_desk: error: ")
    for word in words:
        assert word in out.stderr, out.stderr


def test_an_answer_to_a_thread_that_does_not_exist_creates_nothing(tmp_path):
    db = tmp_path / "desk.sqlite"
    one_line_error(console(db, "--thread", "nope", "--answer", '{"type": "approve"}'), "no thread 'nope'")
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM checkpoints").fetchone() == (0,)


@pytest.mark.parametrize("given", ["{type", "[1, 2]", '"approve"'])
def test_an_answer_that_is_not_a_json_object_is_one_line(tmp_path, given):
    one_line_error(console(tmp_path / "desk.sqlite", "--thread", "T", "--answer", given), "--answer")


def test_a_second_answer_and_a_thread_waiting_on_nothing_are_told_what_happened(tmp_path):
    db = tmp_path / "desk.sqlite"
    waits = console(db, "--thread", "T", "Refund 120 EUR on order ORD-1002")
    assert waits.returncode == 3 and "large_refund" in waits.stdout
    new_turn = console(db, "--thread", "T", "Refund 20 EUR on order ORD-1001")  # the question first
    one_line_error(new_turn, "waits for a human", "answer it first")
    assert console(db, "--thread", "T", "--answer", json.dumps({"type": "reject"})).returncode == 0
    one_line_error(
        console(db, "--thread", "T", "--answer", '{"type": "approve"}'), "already answered (reject"
    )
    done = console(db, "--thread", "T", "Refund 20 EUR on order ORD-1001")
    assert done.returncode == 0, done.stderr
    one_line_error(console(db, "--thread", "T", "--answer", '{"type": "approve"}'), "already answered")


def test_a_damaged_store_is_one_line(tmp_path):
    db = tmp_path / "desk.sqlite"
    assert console(db, "--thread", "T", "Refund 20 EUR on order ORD-1001").returncode == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE checkpoints SET checkpoint = X'00FF00FF'")
    one_line_error(console(db, "--thread", "T", "Refund 20 EUR on order ORD-1002"), "T")
    db.write_bytes(b"not a database at all" * 100)
    one_line_error(console(db, "--thread", "T", "Refund 20 EUR on order ORD-1002"))


def test_a_waiting_turn_prints_answers_that_run_as_printed_with_the_calls_own_arguments(tmp_path):
    """The hint names the thread and the store, and its edit carries the call's real arguments
    (the desk's ``order_id`` and ``amount``, never a demo's ``amount_usd``): run as printed, from
    another shell, it answers the question."""
    import shlex

    db = tmp_path / "desk.sqlite"
    waits = console(db, "--thread", "T", "Refund 120 EUR on order ORD-1002")
    assert waits.returncode == 3, waits.stderr
    lines = [line.strip() for line in waits.stdout.splitlines()]
    edit = next(line for line in lines if '"type": "edit"' in line)
    assert "--thread T" in edit and str(db) in edit and "amount_usd" not in edit
    command = shlex.split(edit.split("    (")[0])
    given = json.loads(command[command.index("--answer") + 1])
    assert given["edited_action"]["args"] == {"order_id": "ORD-1002", "amount": 120.0}
    ran = run([sys.executable, *command[1:]], cwd=ROOT, timeout=180)
    assert ran.returncode == 0, (ran.stdout, ran.stderr)
