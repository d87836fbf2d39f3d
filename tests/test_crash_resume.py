"""SIGKILL the supervisor around its refund, 4 times per point (``CRASH_KILLS``: more), on SQLite
and on PostgreSQL: every run, continued from the checkpointer by a new process, refunds exactly once
(tests/crash_harness.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.crash_harness import POINTS
from tests.processes import run

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parent.parent
KILLS_PER_POINT = int(os.environ.get("CRASH_KILLS", "4"))


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_killed_runs_resume_and_refund_exactly_once(store, tmp_path, request, capsys):
    location = str(tmp_path / "crash.sqlite") if store == "sqlite" else request.getfixturevalue("pg_url")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.crash_harness",
            "--location",
            location,
            "--kills",
            str(KILLS_PER_POINT),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
    )
    assert out.stdout.strip(), out.stderr[-3000:]
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    with capsys.disabled():
        summary = {p: f"{f['exactly_once']}/{f['trials']} exactly once" for p, f in figures["points"].items()}
        print(
            f"\n[crash/resume {store}] SIGKILLs per point: {KILLS_PER_POINT}; {summary}; {figures['seconds']} s"
        )
    assert set(figures["points"]) == set(POINTS)
    for point, tally in figures["points"].items():
        assert tally["killed"] == KILLS_PER_POINT, (point, tally)  # every child really died by SIGKILL
        assert tally["anomaly_count"] == 0, (point, tally["anomalies"])
        assert tally["exactly_once"] == KILLS_PER_POINT
    assert out.returncode == 0


def test_cli_lists_and_resumes_a_killed_run(tmp_path):
    db = str(tmp_path / "runs.sqlite")
    code = "import sys; from tests.crash_harness import _crash_child; _crash_child(sys.argv[1], 'killed-1', 'after_refund')"
    died = subprocess.run([sys.executable, "-c", code, db], cwd=ROOT, capture_output=True, timeout=120)
    assert died.returncode == -9  # SIGKILL, right after the refund

    def cli(*args):
        return run(
            [str(Path(sys.executable).parent / "agent-patterns"), *args, "--db", db], cwd=ROOT, timeout=120
        )

    listing = cli("runs", "--status", "incomplete", "--json")
    assert [r["thread_id"] for r in json.loads(listing.stdout)] == ["killed-1"]
    assert "waits" not in cli("waiting").stdout
    resumed = cli("resume", "killed-1", "--json")
    assert resumed.returncode == 0, resumed.stderr
    result = json.loads(resumed.stdout)
    assert result["status"] == "ok" and [c["tool"] for c in result["calls"]].count("issue_refund") == 1
    again = cli("resume", "killed-1")
    assert again.returncode == 2 and "nothing to continue (status: ok)" in again.stderr

    from nodes.store import open_ledger

    with open_ledger(db) as ledger:
        assert len(ledger.entries("refund")) == 1 and len(ledger.entries("email")) == 1
