"""Crash and resume: the supervisor is killed with SIGKILL at chosen points of an approved refund,
then carried on from the checkpointer by a new process; the refund ledger must show exactly one
refund and one email for every run.

    python -m tests.crash_harness --location /tmp/crash.sqlite --kills 50
    python -m tests.crash_harness --location postgresql://... --kills 200 --points before_refund

Each trial forks a child that starts a supervisor run (it pauses for a human), approves it and
kills itself at the point under test; a second child then opens the same store and continues the
run (``apps.operations.runs.continue_run``, or answers the approval again if the kill came before it was
recorded). The harness process itself opens no database connection while children run.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections import Counter
from typing import Any

from langgraph.types import Command

from apps.operations.runs import continue_run, resume_run, run_config, run_summary
from demo_tools.supervisor import BillingDesk, demo_input
from graphs.supervisor import build_graph
from nodes.store import open_checkpointer, open_ledger
from policies.supervisor import demo_policy

#: Where a child dies: after the approval's checkpoint is written and before the refund is
#: attempted; just before the refund; just after the refund (before its checkpoint); and after the
#: refund's checkpoint, just before the confirmation email.
POINTS = ("after_approval", "before_refund", "after_refund", "before_email")


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _killing(tool: Any, *, before: bool) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        if before:
            _die()
        result = tool(*args, **kwargs)
        _die()
        return result

    return call


def _kill_after_approval(saver: Any) -> None:
    put = saver.put

    def put_then_die(config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        stored = put(config, checkpoint, metadata, new_versions)
        if checkpoint.get("channel_values", {}).get("human_approved") is True:
            _die()
        return stored

    saver.put = put_then_die


def _crash_child(location: str, thread_id: str, point: str) -> None:
    """Start the run, approve it, and die at ``point`` (never returns normally)."""
    with open_checkpointer(location) as saver, open_ledger(location) as ledger:
        tools = BillingDesk(ledger=ledger).registry()
        if point == "before_refund":
            tools["issue_refund"] = _killing(tools["issue_refund"], before=True)
        elif point == "after_refund":
            tools["issue_refund"] = _killing(tools["issue_refund"], before=False)
        elif point == "before_email":
            tools["send_refund_email"] = _killing(tools["send_refund_email"], before=True)
        graph = build_graph(checkpointer=saver, tools=tools, policy=demo_policy())
        config = run_config(thread_id, None)
        paused = graph.invoke(demo_input(), config)
        assert paused.get("__interrupt__"), "the demo should pause for a human"
        if point == "after_approval":
            _kill_after_approval(saver)
        graph.invoke(Command(resume={"type": "approve"}), config)


def _recover_child(location: str, thread_id: str, out_fd: int) -> None:
    """Carry the run on from the store; report how, and how it ended."""
    with open_checkpointer(location) as saver, open_ledger(location) as ledger:
        status = run_summary(saver, thread_id).status
        if status == "waiting":
            result = resume_run(saver, thread_id, {"type": "approve"}, ledger=ledger)
        else:
            result = continue_run(saver, thread_id, ledger=ledger)
    calls = [c["tool"] for c in result.get("calls", [])]
    report = {
        "found": status,
        "status": result.get("status"),
        "stop_reason": result.get("stop_reason"),
        "calls": calls,
    }
    os.write(out_fd, json.dumps(report).encode())


def _fork(target: Any, *args: Any) -> int:
    pid = os.fork()
    if pid == 0:  # the child: never return into the harness
        code = 0
        try:
            target(*args)
        except BaseException as exc:  # report and exit non-zero; the parent records it
            print(f"child failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            code = 1
        os._exit(code)
    _, wait_status = os.waitpid(pid, 0)
    return wait_status


def _ledger_counts(location: str) -> tuple[int, int]:
    with open_ledger(location) as ledger:
        return len(ledger.entries("refund")), len(ledger.entries("email"))


def run_trials(location: str, kills: int, points: tuple[str, ...] = POINTS) -> dict[str, Any]:
    """``kills`` trials per point; returns the figures (and every anomaly)."""
    started = time.monotonic()
    figures: dict[str, Any] = {}
    for point in points:
        tally: Counter[str] = Counter()
        anomalies: list[dict[str, Any]] = []
        for i in range(kills):
            thread_id = f"crash-{point}-{i}-{os.getpid()}"
            refunds, emails = _ledger_counts(location)
            status = _fork(_crash_child, location, thread_id, point)
            killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
            read, write = os.pipe()
            recovered = _fork(_recover_child, location, thread_id, write)
            os.close(write)
            report = json.loads(os.read(read, 1 << 16) or b"{}")
            os.close(read)
            new_refunds, new_emails = (
                n - o for n, o in zip(_ledger_counts(location), (refunds, emails), strict=True)
            )
            tally["killed"] += killed
            tally[f"found_{report.get('found')}"] += 1
            ok = (
                killed
                and recovered == 0
                and report.get("status") == "ok"
                and new_refunds == 1
                and new_emails == 1
                and report.get("calls", []).count("issue_refund") == 1
            )
            tally["exactly_once"] += ok
            if not ok:
                anomalies.append(
                    {
                        "thread_id": thread_id,
                        "killed": killed,
                        "recovered": recovered,
                        "report": report,
                        "refunds": new_refunds,
                        "emails": new_emails,
                    }
                )
        figures[point] = {
            "trials": kills,
            **tally,
            "anomalies": anomalies[:5],
            "anomaly_count": len(anomalies),
        }
    return {
        "location_kind": "postgres" if location.startswith("postgres") else "sqlite",
        "points": figures,
        "seconds": round(time.monotonic() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--location", required=True, help="an SQLite file or a postgresql:// URL")
    parser.add_argument("--kills", type=int, default=50, help="trials (kills) per point")
    parser.add_argument("--points", nargs="+", choices=POINTS, default=list(POINTS))
    args = parser.parse_args(argv)
    figures = run_trials(args.location, args.kills, tuple(args.points))
    print(json.dumps(figures))
    return 0 if all(p["anomaly_count"] == 0 for p in figures["points"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
