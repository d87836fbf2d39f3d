"""Issue 57: a probe fast enough for every commit. With ``jobs`` above 1 the engines' runs are cut
into shares of about the same cost, each run in a process of its own (forked): the report is the
same as one engine after the other, a process that
runs a thread a child could not do without (an MCP client's loop, a user's) is not forked, and the
model-call pool a forked child inherits is its own (``nodes.llm_json`` forgets the parent's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.probe import runner
from apps.probe.runner import default_jobs, probe
from tests.test_probe_split import TASKS, TOOLS, refund_policy

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the platform does not fork")
ROOT = Path(__file__).resolve().parents[1]


def outcomes(report):
    return (
        [(r.attack.id, r.engine, r.outcome, r.approved_by, r.rule, r.provenance) for r in report.attacks],
        [(r.attack.id, r.engine, r.outcome) for r in report.trust_attacks],
        [(t.task, t.engine, t.stop_reason, len(t.asked), t.missing) for t in report.tasks],
        report.exit_code(),
    )


#: Run in a fresh interpreter (as ``agent-patterns probe`` runs: no thread but the main one; a
#: pytest worker keeps threads of its own, and the probe rightly does not fork beside them).
SAME_REPORT = """
import json, os
from apps.probe.runner import probe
from tests.test_probe_jobs import outcomes
from tests.test_probe_split import TASKS, TOOLS, refund_policy
forked = []
fork = os.fork
def counted():
    pid = fork()
    if pid:
        forked.append(pid)
    return pid
os.fork = counted
one = probe(TOOLS, refund_policy(False), TASKS, engines=["graph", "middleware"], jobs=1)
before = len(forked)
two = probe(TOOLS, refund_policy(False), TASKS, engines=["graph", "middleware"], jobs=2)
print(json.dumps({
    "forked": [before, len(forked)],
    "same": outcomes(one) == outcomes(two),
    "engines": sorted({r.engine for r in two.attacks}),
    "stages": sorted(two.seconds),
}))
"""


def test_engines_in_processes_of_their_own_give_the_same_report():
    done = subprocess.run(
        [sys.executable, "-c", SAME_REPORT],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    said = json.loads(done.stdout.strip().splitlines()[-1])
    assert said["forked"] == [0, 1], said  # jobs=1: none; jobs=2: the second share in a child
    assert said["same"], said
    assert said["engines"] == ["graph", "middleware"]
    assert {"tasks", "attacks", "trust_pass"} <= set(said["stages"])


def test_a_process_with_a_thread_of_its_own_is_not_forked(monkeypatch):
    def refused() -> int:
        raise AssertionError("forked beside a running thread")

    stop = threading.Event()
    other = threading.Thread(target=stop.wait, name="an-mcp-client-loop", daemon=True)
    other.start()
    try:
        monkeypatch.setattr(os, "fork", refused)
        assert "an-mcp-client-loop" in runner._other_threads()
        report = probe(TOOLS, refund_policy(False), TASKS, engines=["graph", "middleware"], jobs=2)
        assert {r.engine for r in report.attacks} == {"graph", "middleware"}
    finally:
        stop.set()
        other.join()


def test_a_forked_child_makes_its_own_model_call_pool():
    from nodes import llm_json

    pool = llm_json._threads()
    assert pool.submit(lambda: 1).result(timeout=5) == 1  # the parent's pool has a worker now
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        ok = b"0"
        try:
            mine = llm_json._threads()
            ok = b"1" if mine is not pool and mine.submit(lambda: 2).result(timeout=5) == 2 else b"0"
        finally:
            os.write(write, ok)
            os._exit(0)
    os.close(write)
    got = os.read(read, 1)
    os.close(read)
    os.waitpid(pid, 0)
    assert got == b"1"


def test_the_default_is_a_process_per_cpu():
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    assert default_jobs(["graph", "middleware"]) == min(runner.MAX_DEFAULT_JOBS, cpus)
    assert default_jobs(["graph"]) == min(runner.MAX_DEFAULT_JOBS, cpus)


@given(
    st.dictionaries(
        st.tuples(st.sampled_from(["graph", "middleware"]), st.integers(0, 40)),
        st.floats(0.5, 400),
        min_size=1,
    ),
    st.integers(1, 6),
)
def test_shares_take_every_unit_once_and_balance_the_cost(weights, jobs):
    cut = runner.shares(weights, jobs)
    assert 1 <= len(cut) <= jobs and all(cut)
    assert sorted(u for share in cut for u in share) == sorted(weights)  # each unit once
    order = list(weights)
    assert all(share == sorted(share, key=order.index) for share in cut)  # in their own order
    loads = [sum(weights[u] for u in share) for share in cut]
    # greedy, heaviest first: no share is heavier than the lightest by more than one unit
    assert max(loads) - min(loads) <= max(weights.values()) + 1e-9
