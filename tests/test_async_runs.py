"""The async API: LLM nodes await the model (no thread held), gateway work runs on the event loop,
tool nodes keep their worker thread, and every LLM failure maps to the same stop reason as under
``invoke``."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver

from demo_tools.supervisor import GOAL
from graphs import reflection, research, supervisor
from graphs.registry import PATTERNS, run_result
from nodes.offline import OfflineChatModel
from policies import supervisor as supervisor_rules
from policies.reflection import ReflectionPolicy
from policies.supervisor import demo_policy
from tests.helpers import RoleModel, StubChatModel, as_text, thread

DRAFT = {"draft": "We are investigating elevated payment failures in the US. Next update in 30 minutes."}
APPROVE = {"decision": "approve", "issues": [], "fix_plan": []}


class AsyncOnlyModel(StubChatModel):
    """Answers only through ``ainvoke``: its sync path raises, so a run that succeeds under the
    async API proves the LLM nodes awaited it. ``gate`` makes every call wait for the others."""

    llm_type = "async-only-test-model"
    replies: list[Any]
    sleep: float = 0.0
    gate: Any = None
    calls: int = 0

    def answer(self, messages: list[BaseMessage]) -> str:
        raise RuntimeError("the sync path was used")

    async def arespond(self, messages: list[BaseMessage], **kwargs: Any) -> str:
        reply = self.replies[min(self.calls, len(self.replies) - 1)]
        self.calls += 1
        if self.gate is not None:
            await self.gate.wait()
        if self.sleep:
            await asyncio.sleep(self.sleep)
        if isinstance(reply, BaseException):
            raise reply
        return as_text(reply)


@pytest.mark.parametrize("name", list(PATTERNS))
def test_every_pattern_gives_the_same_result_under_ainvoke(name):
    pattern = PATTERNS[name]
    policy = pattern.policy()
    policy = pattern.cli_policy(policy, False) if pattern.cli_policy else policy
    graph = pattern.build(llm=OfflineChatModel(), policy=policy)
    sync = run_result(graph, graph.invoke(pattern.demo_input()))
    done = run_result(graph, asyncio.run(graph.ainvoke(pattern.demo_input())))
    keys = ("status", "stop_reason", "outcome", "answer", "usage")
    assert {k: done.get(k) for k in keys} == {k: sync.get(k) for k in keys}
    assert [row["phase"] for row in done["trace"]] == [row["phase"] for row in sync["trace"]]


def test_llm_nodes_await_the_model_under_the_async_api():
    graph = reflection.build_graph(llm=AsyncOnlyModel(replies=[DRAFT, APPROVE]))
    result = asyncio.run(graph.ainvoke({"goal": "Update customers", "incident_context": {"region": "US"}}))
    assert (result["status"], result["outcome"]) == ("ok", "approved_direct")
    # ...and the sync API calls the model synchronously
    result = graph.invoke({"goal": "Update customers", "incident_context": {"region": "US"}})
    assert (result["stop_reason"], result["phase"]) == ("llm_error:runtime_error", "draft")


def test_concurrent_runs_wait_on_their_models_without_holding_threads():
    """Every call waits until all runs are waiting on their model at once. With one worker thread
    for the event loop, that only ends if no run holds a thread while it waits."""
    runs = 40

    async def main() -> list[dict[str, Any]]:
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=1))
        model = AsyncOnlyModel(replies=[DRAFT], gate=asyncio.Barrier(runs))
        policy = ReflectionPolicy(llm_timeout_seconds=20)
        graph = reflection.build_graph(llm=model, policy=policy)
        given = {"goal": "Update customers", "incident_context": {"region": "US"}}
        return await asyncio.gather(*(graph.ainvoke(given) for _ in range(runs)))

    results = asyncio.run(main())
    # the scripted model answers every later call with the draft again: the review is not JSON
    # of the review's shape, which is fine here: every run got past its first, gated call
    assert all(r["draft"] == DRAFT["draft"] for r in results)
    assert len({r["run_id"] for r in results}) == runs


def test_async_call_timeout_and_time_budget(instant_backoff):
    slow = {"goal": "Update customers", "incident_context": {"region": "US"}}
    policy = ReflectionPolicy(llm_timeout_seconds=0.2)
    model = AsyncOnlyModel(replies=[DRAFT], sleep=5)
    result = asyncio.run(reflection.build_graph(llm=model, policy=policy).ainvoke(slow))
    assert (result["stop_reason"], result["phase"]) == ("llm_timeout", "draft")
    assert model.calls == 3 and instant_backoff == [0.5, 1.0]  # a timeout is retried, twice
    assert result["trace"][-1]["attempts"] == 3
    graph = reflection.build_graph(
        llm=AsyncOnlyModel(replies=[DRAFT], sleep=5), policy=ReflectionPolicy(max_seconds=0.3)
    )
    assert asyncio.run(graph.ainvoke(slow))["stop_reason"] == "max_seconds"


@pytest.mark.parametrize(
    ("error", "reason"),
    [(TimeoutError("slow upstream"), "llm_timeout"), (ValueError("boom"), "llm_error:value_error")],
)
def test_a_model_error_under_the_async_api_is_a_named_stop(error, reason, instant_backoff):
    model = AsyncOnlyModel(replies=[error])
    graph = reflection.build_graph(llm=model)
    result = asyncio.run(graph.ainvoke({"goal": "Update customers", "incident_context": {"region": "US"}}))
    assert (result["status"], result["stop_reason"], result["phase"]) == ("stopped", reason, "draft")
    assert model.calls == (3 if reason == "llm_timeout" else 1)  # only a transient failure is retried


def test_gateway_work_runs_on_the_loop_and_tools_in_a_worker_thread(monkeypatch):
    seen: dict[str, str] = {}
    review_action = supervisor_rules.review_action

    def watched_review(*args: Any, **kwargs: Any) -> Any:
        seen["review"] = threading.current_thread().name
        return review_action(*args, **kwargs)

    monkeypatch.setattr(supervisor_rules, "review_action", watched_review)
    pattern = PATTERNS["supervisor"]
    policy = pattern.cli_policy(demo_policy(), False)  # type: ignore[misc]
    graph = supervisor.build_graph(llm=OfflineChatModel(), policy=policy)
    execute = graph.builder.nodes["execute"].runnable.wrapped  # the node as the audit log wraps it
    tools = execute.func.keywords["tools"]
    original = tools["get_refund_context"]

    def watched(args: dict[str, Any]) -> Any:
        seen["tool"] = threading.current_thread().name
        return original.call(args)

    tools["get_refund_context"] = dataclasses.replace(original, call=watched)

    async def main() -> dict[str, Any]:
        seen["loop"] = threading.current_thread().name
        return await graph.ainvoke(pattern.demo_input())

    result = asyncio.run(main())
    assert result["status"] == "ok"
    assert seen["review"] == seen["loop"]
    assert seen["tool"] != seen["loop"]


def test_routing_functions_run_on_the_loop_in_every_pattern():
    for name in PATTERNS:
        graph = PATTERNS[name].build(llm=OfflineChatModel())
        paths = [spec.path for branches in graph.builder.branches.values() for spec in branches.values()]
        assert paths and all(path.afunc is None for path in paths), name


def test_tool_nodes_keep_their_thread():
    graph = research.build_graph(llm=OfflineChatModel())
    nodes = graph.builder.nodes
    assert nodes["search"].runnable.afunc is not None and nodes["read"].runnable.afunc is not None
    assert nodes["dedupe"].runnable.afunc is None and nodes["verify"].runnable.afunc is None


def test_acall_json_is_call_json_awaited():
    from nodes.llm_json import acall_json, call_json

    arguments = {"system": "s", "payload": {"role": "x"}, "state": {}, "policy": ReflectionPolicy()}
    reply = asyncio.run(acall_json(AsyncOnlyModel(replies=[DRAFT]), **arguments))
    assert (reply.ok, reply.data) == (True, DRAFT)
    assert call_json(AsyncOnlyModel(replies=[DRAFT]), **arguments).stop_reason == "llm_error:runtime_error"


@pytest.mark.parametrize("api", ["invoke", "ainvoke"])
def test_an_llm_node_that_takes_the_config_gets_it_under_both_apis(api):
    """The supervisor's worker reads the run's superstep and recursion limit from its config: a
    worker that never finishes under a limit of 25 stops by name, through either API."""

    def never_finishes(payload: dict[str, Any]) -> dict[str, Any]:
        return {"kind": "tool", "name": "get_refund_context", "args": {"user_id": 1000 + payload["step"]}}

    wide = {"get_refund_context": 100, "issue_refund": 100, "send_refund_email": 100}
    policy = demo_policy(per_tool_limits=wide, max_tool_calls=100, max_steps=100)
    # a new user each step (no subject binds them: the goal's user_id=42 would refuse the others)
    rules = {name: r.model_copy(update={"bound_args": []}) for name, r in policy.rules.items()}
    policy = policy.model_copy(update={"rules": rules})
    model = RoleModel(fallback="repeat").load({"supervisor.worker": [never_finishes]})
    graph = supervisor.build_graph(llm=model, policy=policy, checkpointer=InMemorySaver())
    given, config = {"goal": GOAL}, {**thread(), "recursion_limit": 25}
    out = asyncio.run(graph.ainvoke(given, config)) if api == "ainvoke" else graph.invoke(given, config)
    assert (out["stop_reason"], out["phase"]) == ("recursion_limit", "worker")
    assert out["trace"][-1]["recursion_limit"] == 25 and model.calls.count("supervisor.worker") >= 2
