"""The five graphs served by a real Agent Protocol server on PostgreSQL (``make serve``).

One stack for the module, started the way ``make serve`` starts it (``devtools/serve.py``): stock
``langgraph-api`` on the MIT ``langgraph-runtime-pg`` runtime from ``.venv-server``, a throwaway
PostgreSQL (``devtools/pgcluster.py``), a ``redis-server`` (``devtools/redisserver.py``), one API
process and two queue worker processes. The workers' model is ``ChatOpenAI`` against a scripted
OpenAI-compatible server on loopback (``tests/openai_server.py``) that answers as the offline model
does, so every served result can be compared with the same graph run in this process.

Clients talk to it only through ``langgraph_sdk``. The Supervisor's refunds go to the PostgreSQL
ledger the workers share (``AGENT_PATTERNS_LEDGER``); the tests read it directly.
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools.ledger import MemoryLedger, PostgresLedger
from devtools.serve import AgentServer, ServeError
from graphs.registry import PATTERNS
from nodes.model import get_chat_model
from nodes.state import RUN_CONTRACT_KEYS
from tests.langgraph_dev import run_demo
from tests.openai_server import Delay, Offline, OpenAICompatibleServer
from tests.served_desk import unstarted_server

pytestmark = pytest.mark.integration

KEY = "test-key"
#: Differ between two runs of the same graph on the same input: ids, clocks, and the idempotency
#: keys derived from the run id.
VOLATILE = {
    "run_id",
    "thread_id",
    "started_at",
    "elapsed_ms",
    "paused_seconds",
    "idempotency_key",
    "request_message_id",
    "answered_at",  # when the human answered: a clock reading, second by second
}
#: What the Supervisor's human answers in these tests (the README's walk-through).
EDIT_800 = {"type": "edit", "args": {"amount_usd": 800}}


@dataclass
class Stack:
    server: AgentServer
    model: OpenAICompatibleServer
    database: str

    def client(self) -> Any:
        """A new client (its own HTTP connection pool): another user of the server."""
        from langgraph_sdk import get_sync_client

        return get_sync_client(url=self.server.url, timeout=120)

    def ledger(self) -> PostgresLedger:
        return PostgresLedger(self.database)

    def logs(self) -> str:
        processes = [p for p in [self.server.api, *self.server.queue] if p is not None]
        return "\n".join(f"--- {p.name}\n{_plain(p.tail(2000))}" for p in processes)


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


@pytest.fixture(scope="module")
def stack(pg_cluster, tmp_path_factory):
    model = OpenAICompatibleServer(api_key=KEY).start()
    redis, server, database = unstarted_server(
        pg_cluster,
        tmp_path_factory.mktemp("agent-server"),
        workers=2,
        jobs_per_worker=100,
        heartbeat_seconds=5,  # a dead worker's run is taken up within 10-20 s
        env={"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": model.base_url},
    )
    try:
        server.start()
    except ServeError as exc:
        model.close()
        redis.stop()
        pytest.fail(f"the agent server did not start: {exc}")
    try:
        yield Stack(server, model, database)
    finally:
        server.stop()
        model.close()
        redis.stop()


def _model_env(stack: Stack) -> dict[str, str]:
    return {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": stack.model.base_url}


def _stable(value: Any) -> Any:
    """``value`` without what differs between two runs of the same graph on the same input (a
    message as the server sends it: its dict form, without its id or the model server's reply
    id)."""
    if isinstance(value, BaseMessage):
        value = value.model_dump()
    if isinstance(value, dict):
        message = "content" in value and value.get("type") in ("human", "ai", "tool", "system")
        if message and isinstance(value.get("response_metadata"), dict):  # the model server's reply id
            value = {**value, "response_metadata": {**value["response_metadata"], "id": None}}
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE and not (message and k == "id")}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def _final(answer: Any, state: dict[str, Any]) -> bool:
    """Whether a run's answer (its output keys: the output schema) is the thread's final state."""
    return (
        isinstance(answer, dict) and "status" in answer and all(state.get(k) == v for k, v in answer.items())
    )


def _in_process(stack: Stack, name: str, context: dict[str, Any] | None = None) -> tuple[dict, list[str]]:
    """The same graph, same model, same input and human answer, run here: (its output, the node of
    each streamed update)."""
    pattern = PATTERNS[name]
    graph = pattern.build(
        checkpointer=InMemorySaver(), llm=get_chat_model(_model_env(stack)), ledger=MemoryLedger()
    )
    config = {"configurable": {"thread_id": f"ref-{uuid.uuid4().hex[:8]}"}}
    policy = pattern.model(**context) if context else None  # as the server makes a dict context
    nodes: list[str] = []
    payload: Any = pattern.demo_input()
    for _ in range(pattern.demo_interrupts + 1):
        for update in graph.stream(payload, config, stream_mode="updates", context=policy):
            nodes += [node for node in update if node != "__interrupt__"]
        payload = Command(resume=EDIT_800)
    output = set(graph.builder.output_schema.__annotations__)  # what a run returns
    return {k: v for k, v in graph.get_state(config).values.items() if k in output}, nodes


def _stream(client: Any, thread_id: str, name: str, **kwargs: Any) -> tuple[list[str], dict | None, str]:
    """Stream one run: (the node of each update, the last values, the run id)."""
    nodes: list[str] = []
    values: dict | None = None
    run_id = ""
    for part in client.runs.stream(thread_id, name, stream_mode=["updates", "values"], **kwargs):
        if part.event == "metadata":
            run_id = part.data["run_id"]
        elif part.event == "updates":
            nodes += [node for node in part.data if node != "__interrupt__"]
        elif part.event == "values":
            values = part.data
        elif part.event == "error":
            raise AssertionError(f"the run failed on the server: {part.data}")
    return nodes, values, run_id


@pytest.mark.parametrize("name", list(PATTERNS))
def test_graph_served_streamed_and_matching_the_in_process_run(stack, name):
    """Threads, runs and streamed progress through the SDK; the final values are the run contract
    the same graph gives in process, key for key; the Supervisor's interrupt is answered by a
    second client."""
    pattern = PATTERNS[name]
    alice, bob = stack.client(), stack.client()
    thread = alice.threads.create(metadata={"test": "contract"})
    nodes, values, _ = _stream(alice, thread["thread_id"], name, input=pattern.demo_input())
    for _ in range(pattern.demo_interrupts):  # the human is another client
        [interrupt] = bob.threads.get_state(thread["thread_id"])["interrupts"]
        assert interrupt["value"]["reason"] == "high_refund_requires_human"
        more, values, _ = _stream(bob, thread["thread_id"], name, command={"resume": EDIT_800})
        nodes += more
    state = alice.threads.get_state(thread["thread_id"])
    assert not state["interrupts"] and state["next"] == []
    assert _final(values, state["values"])  # the stream's last values are the stored final state

    expected, expected_nodes = _in_process(stack, name)
    assert set(RUN_CONTRACT_KEYS) <= set(values)
    assert values["status"] == "ok" and values["stop_reason"] == "success"
    assert values["model"] == expected["model"] == "openai:gpt-4.1-mini"
    assert values["thread_id"] == thread["thread_id"]
    uuid.UUID(values["run_id"])
    assert _stable(values) == _stable(expected)
    assert nodes == expected_nodes  # progress streamed node by node, in the graph's order


def test_policy_override_through_context(stack):
    client = stack.client()
    context = {"auto_revision_enabled": False}
    _, result = run_demo(client, "reflection", context=context)
    assert result["stop_reason"] == "review_decision_denied_execution:revise"
    expected, _ = _in_process(stack, "reflection", context)
    assert _stable(result) == _stable(expected)
    # a policy that does not validate ends the run in error, with pydantic's message, before any
    # node runs (the engine validates the context when the worker builds the run)
    thread = client.threads.create()
    calls = stack.model.count
    with pytest.raises(
        Exception, match=r"ValidationError: 1 validation error for ReflectionPolicy\nmax_seconds"
    ):
        client.runs.wait(
            thread["thread_id"],
            "reflection",
            input=PATTERNS["reflection"].demo_input(),
            context={"max_seconds": "soon"},
        )
    assert [r["status"] for r in client.runs.list(thread["thread_id"])] == ["error"]
    assert stack.model.count == calls


def test_the_known_limitations_docs_server_md_names_hold(stack):
    """Pinned so that docs/server.md's *Known limitations* change when the engine does (issue 24):
    a context key that is no policy field is dropped before the graph sees it, and a resume on a
    thread that never ran ends in error before any node of ours runs."""
    client = stack.client()
    _, typo = run_demo(client, "reflection", context={"max_secondz": 10})
    assert typo["status"] == "ok"  # ran with the policy's own max_seconds
    assert _stable(typo) == _stable(_in_process(stack, "reflection")[0])
    thread = client.threads.create()
    with pytest.raises(Exception, match=r"'NoneType' object is not iterable"):
        client.runs.wait(thread["thread_id"], "supervisor", command={"resume": {"type": "approve"}})
    assert [r["status"] for r in client.runs.list(thread["thread_id"])] == ["error"]
    # in process, the same resume stops by name
    graph = PATTERNS["supervisor"].build(checkpointer=InMemorySaver())
    out = graph.invoke(Command(resume={"type": "approve"}), {"configurable": {"thread_id": "never-ran"}})
    assert out["stop_reason"] == "invalid_input:goal"


def test_interrupt_raised_for_one_client_answered_by_another_and_runs_listed_by_status(stack):
    alice, bob = stack.client(), stack.client()
    tag = uuid.uuid4().hex
    thread = alice.threads.create(metadata={"desk": tag})
    run = alice.runs.create(
        thread["thread_id"], "supervisor", input=PATTERNS["supervisor"].demo_input(), durability="sync"
    )
    alice.runs.join(thread["thread_id"], run["run_id"])

    # Bob, on another machine, finds what waits for a human and on what
    [waiting] = bob.threads.search(metadata={"desk": tag}, status="interrupted")
    assert waiting["thread_id"] == thread["thread_id"]
    [interrupt] = bob.threads.get_state(waiting["thread_id"])["interrupts"]
    request = interrupt["value"]
    assert request["reason"] == "high_refund_requires_human"
    assert request["action"]["name"] == "issue_refund" and request["action"]["args"]["amount_usd"] == 1200.0
    # a run that paused for a human has ended ("success"); its thread waits ("interrupted")
    assert [r["run_id"] for r in bob.runs.list(waiting["thread_id"], status="success")] == [run["run_id"]]

    answer = bob.runs.wait(waiting["thread_id"], "supervisor", command={"resume": EDIT_800})
    final = alice.threads.get_state(thread["thread_id"])["values"]
    assert answer["status"] == final["status"] == "ok"
    [refund] = [c for c in final["calls"] if c["tool"] == "issue_refund"]
    assert refund["executed_from"] == "human_revised" and refund["args"]["amount_usd"] == 800.0
    assert stack.ledger().get("refund", refund["idempotency_key"])["amount_usd"] == 800.0

    listed = {
        status: alice.runs.list(thread["thread_id"], status=status)
        for status in ("success", "pending", "error")
    }
    assert [r["run_id"] for r in listed["success"]][-1] == run["run_id"]  # newest first
    assert len(listed["success"]) == 2 and listed["pending"] == listed["error"] == []
    assert [t["thread_id"] for t in alice.threads.search(metadata={"desk": tag}, status="idle")] == [
        thread["thread_id"]
    ]
    assert alice.threads.search(metadata={"desk": tag}, status="interrupted") == []


def test_docs_walk_through_alice_asks_bob_approves_from_another_client(stack):
    """docs/server.md's two examples, as written, against the server: Alice's refund waits for a
    human; Bob finds it and approves 800 USD."""
    import contextlib
    import io

    docs = (Path(__file__).resolve().parent.parent / "docs" / "server.md").read_text()
    alice, bob = re.findall(r"```python server-example\n(.*?)```", docs, flags=re.DOTALL)
    url = "http://server.example:8123"
    assert url in alice and url in bob
    exec(compile(alice.replace(url, stack.server.url), "docs/server.md (alice)", "exec"), {})
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(bob.replace(url, stack.server.url), "docs/server.md (bob)", "exec"), {})
    lines = printed.getvalue().splitlines()
    assert len(lines) == 2, lines  # one waiting thread: why it waits, then its result
    assert "high_refund_requires_human" in lines[0] and "'amount_usd': 1200.0" in lines[0]
    assert lines[1].startswith("ok success Refunded 800.00 USD to Anna")


def test_200_concurrent_runs_from_many_clients(stack):
    """200 runs at once (40 per pattern) from 20 clients, model latency 100 ms: every run ends ok,
    every Supervisor run refunds exactly once (its human is another client)."""
    from langgraph_sdk import get_client

    runs, clients = 200, 20
    names = list(PATTERNS)
    tag = uuid.uuid4().hex
    stale_waits = 0

    async def one(index: int, client: Any, human: Any) -> tuple[str, str, dict]:
        nonlocal stale_waits
        name = names[index % len(names)]
        thread = await client.threads.create(metadata={"load": tag})
        answer = await client.runs.wait(thread["thread_id"], name, input=PATTERNS[name].demo_input())
        state = await client.threads.get_state(thread["thread_id"])
        for _ in range(PATTERNS[name].demo_interrupts):
            assert state["interrupts"], answer
            answer = await human.runs.wait(thread["thread_id"], name, command={"resume": EDIT_800})
            state = await human.threads.get_state(thread["thread_id"])
        if not _final(answer, state["values"]):
            # langgraph-runtime-pg 0.11.1: under load, runs.wait may answer with the values before
            # the last superstep (docs/server.md); the thread's state is the final one
            stale_waits += 1
        return name, thread["thread_id"], state["values"]

    async def main() -> list[tuple[str, str, dict]]:
        users = [get_client(url=stack.server.url, timeout=300) for _ in range(clients)]
        humans = [get_client(url=stack.server.url, timeout=300) for _ in range(clients)]
        return await asyncio.gather(*(one(i, users[i % clients], humans[i % clients]) for i in range(runs)))

    ledger = stack.ledger()
    refunds_before = set(ledger.entries("refund"))
    stack.model.latency = 0.1
    started = time.monotonic()
    try:
        results = asyncio.run(main())
    finally:
        stack.model.latency = 0.0
    took = time.monotonic() - started

    assert len(results) == runs
    outcomes = Counter((name, values.get("status"), values.get("stop_reason")) for name, _, values in results)
    assert outcomes == {(name, "ok", "success"): runs // len(names) for name in names}, stack.logs()
    assert len({thread for _, thread, _ in results}) == runs
    # exactly one refund per Supervisor run, and the ledger holds exactly those
    keys = []
    for name, _, values in results:
        if name == "supervisor":
            [refund] = [c for c in values["calls"] if c["tool"] == "issue_refund"]
            keys.append(refund["idempotency_key"])
    new_refunds = set(ledger.entries("refund")) - refunds_before
    assert len(keys) == len(set(keys)) == runs // len(names)
    assert new_refunds == set(keys)
    print(
        f"\n200 concurrent runs on 2 workers: {took:.1f} s, {runs / took:.1f} runs/s; stale runs.wait answers: {stale_waits}"
    )


def test_worker_killed_mid_supervisor_run_resumes_on_another_without_repeating_a_refund(stack):
    """SIGKILL the worker running a Supervisor run while it waits on its model, after the refund:
    its heartbeat stops, another worker takes the run up from the last checkpoint (the runtime
    keeps the run id, so LangGraph resumes rather than restarts), and the run ends ok with one
    refund and one email."""
    client = stack.client()
    ledger = stack.ledger()
    before = stack.model.count
    # the third model call (the worker's proposal after the refund) hangs until its worker dies
    stack.model.script(Offline(), Offline(), Delay(300))
    thread_id, run = run_demo(client, "supervisor", wait=False, context={"auto_approver_enabled": True})
    deadline = time.monotonic() + 60
    while stack.model.count < before + 3:
        assert time.monotonic() < deadline, stack.logs()
        time.sleep(0.05)
    [victim] = [w for w in stack.server.queue if run["run_id"] in w.log.read_text(errors="replace")]
    [survivor] = [w for w in stack.server.queue if w is not victim]
    refunded = {k: v for k, v in ledger.entries("refund").items()}
    stack.server.kill(victim)
    assert not victim.alive()
    calls_at_kill = stack.model.count

    client.runs.join(thread_id, run["run_id"])
    after = client.runs.get(thread_id, run["run_id"])
    values = client.threads.get_state(thread_id)["values"]
    stack.server.queue.remove(victim)
    stack.server.start_worker()  # back to two workers for whatever runs next

    assert after["status"] == "success", stack.logs()
    assert values["status"] == "ok" and values["stop_reason"] == "success"
    taken_up = _plain(survivor.log.read_text(errors="replace"))
    assert re.search(
        rf"run_attempt=2\b.*run_id={run['run_id']}|run_id={run['run_id']}.*run_attempt=2\b", taken_up
    )
    # resumed from its checkpoint: only the hung proposal and the final answer were asked again
    assert stack.model.count - calls_at_kill == 2
    [refund] = [c for c in values["calls"] if c["tool"] == "issue_refund"]
    [email] = [c for c in values["calls"] if c["tool"] == "send_refund_email"]
    assert refund["idempotency_key"] in refunded  # done before the kill, not done again
    assert set(ledger.entries("refund")) - set(refunded) == set()
    assert ledger.get("email", email["idempotency_key"]) is not None
