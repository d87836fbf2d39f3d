"""The sync seam's worker threads: reused from call to call, and a model that never answers holds
only its own thread."""

from __future__ import annotations

import asyncio
import math
import threading

import pytest

from graphs import reflection
from policies.reflection import ReflectionPolicy
from tests.helpers import RaisingModel

GIVEN = {"goal": "Update customers", "incident_context": {"region": "US"}}
DRAFT = {"draft": "We are investigating elevated payment failures in the US."}
APPROVE = {"decision": "approve", "issues": [], "fix_plan": []}


def test_consecutive_calls_reuse_a_worker_thread():
    seen: list[threading.Thread] = []  # kept alive, so no two are ever the same object by chance

    def answer(reply):
        def produce():
            seen.append(threading.current_thread())
            return reply

        return produce

    model = RaisingModel(replies=[answer(DRAFT), answer(APPROVE)] * 3)
    graph = reflection.build_graph(llm=model)
    for _ in range(3):
        assert graph.invoke(GIVEN)["outcome"] == "approved_direct"
    assert threading.current_thread() not in seen  # the model ran in a worker thread...
    assert len({id(t) for t in seen}) < len(seen)  # ...and a thread served more than one call


def test_a_model_that_never_answers_does_not_hold_the_next_calls(instant_backoff):
    stuck = threading.Event()

    def hang():
        stuck.wait(30)
        return DRAFT

    policy = ReflectionPolicy(llm_timeout_seconds=0.2)
    model = RaisingModel(replies=[hang])
    hung = reflection.build_graph(llm=model, policy=policy)
    try:
        assert [hung.invoke(GIVEN)["stop_reason"] for _ in range(3)] == ["llm_timeout"] * 3
        # every attempt (first try and two retries a run) got a thread while the earlier hung on
        assert model.calls == 9 and instant_backoff == [0.5, 1.0] * 3
        fine = reflection.build_graph(llm=RaisingModel(replies=[DRAFT, APPROVE]), policy=policy)
        assert fine.invoke(GIVEN)["outcome"] == "approved_direct"
    finally:
        stuck.set()


@pytest.mark.parametrize("budget", [math.inf, 1e12])
def test_with_no_deadline_to_reach_the_model_is_called_in_the_runs_own_thread(budget):
    """Time budgets beyond any wait (unbounded, or past threading.TIMEOUT_MAX) leave the seam
    nothing to give up on: the model runs in the caller's thread, and the run completes (a wait
    that long used to raise OverflowError, stopping every call with llm_error:overflow_error)."""
    seen: list[threading.Thread] = []

    def answer(reply):
        def produce():
            seen.append(threading.current_thread())
            return reply

        return produce

    policy = ReflectionPolicy(max_seconds=budget, llm_timeout_seconds=budget)
    graph = reflection.build_graph(llm=RaisingModel(replies=[answer(DRAFT), answer(APPROVE)]), policy=policy)
    result = graph.invoke(GIVEN)
    assert (result["status"], result["outcome"]) == ("ok", "approved_direct")
    assert seen == [threading.current_thread()] * 2
    # under ainvoke the same budgets are awaited without a deadline too
    again = reflection.build_graph(llm=RaisingModel(replies=[DRAFT, APPROVE]), policy=policy)
    assert asyncio.run(again.ainvoke(GIVEN))["outcome"] == "approved_direct"


def test_a_finite_budget_still_runs_the_model_in_a_worker_thread():
    seen: list[threading.Thread] = []

    def produce():
        seen.append(threading.current_thread())
        return DRAFT

    policy = ReflectionPolicy(max_seconds=1e6, llm_timeout_seconds=1e6)
    graph = reflection.build_graph(llm=RaisingModel(replies=[produce, APPROVE]), policy=policy)
    assert graph.invoke(GIVEN)["outcome"] == "approved_direct"
    assert seen and threading.current_thread() not in seen


def test_a_model_that_answers_in_process_is_called_in_the_runs_own_thread_under_any_budget():
    """A model that waits on nothing (``in_process``: the probe's script) has nothing to time out:
    the call stays in the caller's thread whatever the budgets; off (the default), the same model
    is handed to a worker thread, so a model that hangs is still timed out."""
    seen: list[threading.Thread] = []

    def produce():
        seen.append(threading.current_thread())
        return DRAFT

    policy = ReflectionPolicy(max_seconds=60, llm_timeout_seconds=5)
    for in_process in (True, False):
        seen.clear()
        model = RaisingModel(replies=[produce, APPROVE], in_process=in_process)
        assert reflection.build_graph(llm=model, policy=policy).invoke(GIVEN)["outcome"] == "approved_direct"
        assert (seen == [threading.current_thread()]) is in_process
