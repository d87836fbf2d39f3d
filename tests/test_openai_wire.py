"""Every pattern against a real OpenAI-compatible HTTP endpoint on 127.0.0.1 (no client mocks):
the demos end to end, the server's faults, retries and their bounds, token and cost budgets.

The server (``tests/openai_server.py``) answers as the offline model does unless a test scripts
another reply, so the demos over HTTP must give the offline model's results; it counts the
requests it receives, which proves how often a call was retried.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from typing import Any

import pytest
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from apps.cli.main import main
from demo_tools.reflection import demo_input
from demo_tools.supervisor import BillingDesk, demo_tools
from demo_tools.supervisor import demo_input as demo_input_supervisor
from graphs import reflection, supervisor
from graphs.registry import PATTERNS, run_result
from nodes.llm_json import CLIENT_TIMEOUT_GRACE
from nodes.model import get_chat_model
from nodes.offline import OfflineChatModel
from policies.llm_calls import ModelPrice, call_cost, estimate_tokens
from policies.reflection import ReflectionPolicy
from policies.supervisor import demo_policy
from tests.helpers import gateway_rows, llm_rows, thread
from tests.openai_server import Cut, Delay, OpenAICompatibleServer, RawBody, Reply, Status

pytestmark = pytest.mark.integration

#: Small waits, so that fault tests take well under a second or two each.
FAST = {"llm_backoff_base_seconds": 0.05, "llm_backoff_max_seconds": 0.2, "max_seconds": 5.0}
#: What a loaded CI machine may add to a deadline the seam enforces (the wait is cut on time;
#: noticing it and writing the stop takes a thread or the event loop, which may be busy elsewhere).
SCHEDULING_MARGIN_MS = 400
GPT_41_MINI = ModelPrice(input_usd_per_1m=0.40, output_usd_per_1m=1.60)


def wire_model(server: OpenAICompatibleServer, **env: str) -> ChatOpenAI:
    """The model the README's environment variables give, pointed at the test server."""
    llm = get_chat_model({"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": server.base_url, **env})
    assert isinstance(llm, ChatOpenAI)
    return llm


def streaming_model(server: OpenAICompatibleServer) -> ChatOpenAI:
    return ChatOpenAI(
        model="gpt-4.1-mini",
        api_key="test-key",
        base_url=server.base_url,
        temperature=0,
        max_retries=0,
        streaming=True,
        stream_usage=True,
        model_kwargs={"response_format": {"type": "json_object"}},
    )


#: Both ways to run a graph: the sync seam (a worker thread per attempt, ``time.sleep`` between
#: attempts) and the async one (the model's ``ainvoke`` awaited, ``asyncio.sleep`` between).
BOTH_APIS = pytest.mark.parametrize("api", ["invoke", "ainvoke"])


def run_reflection(llm: Any, api: str = "invoke", **policy: Any) -> tuple[dict[str, Any], float]:
    graph = reflection.build_graph(llm=llm, policy=ReflectionPolicy(**policy))
    began = time.monotonic()
    if api == "ainvoke":
        result = asyncio.run(graph.ainvoke(demo_input(), thread()))
    else:
        result = graph.invoke(demo_input(), thread())
    return result, time.monotonic() - began


def draft_call(result: dict[str, Any]) -> dict[str, Any]:
    return next(row for row in result["trace"] if row.get("call") == "llm" and row["phase"] == "draft")


def received(server: OpenAICompatibleServer, count: int, within: float = 3.0) -> int:
    """The requests the server has recorded, waiting up to ``within`` for ``count`` of them: a
    request the client gave up on after its timeout may be read by the server's thread after the
    run returned (on a loaded machine the thread is scheduled late), so a count taken at once
    could miss it."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and server.count < count:
        time.sleep(0.02)
    return server.count


def held_for(server: OpenAICompatibleServer, count: int, within: float = 3.0) -> list[float]:
    """Seconds each of the server's first ``count`` requests stayed open before the client
    abandoned it (waiting up to ``within`` for the server to see them all closed); a request never
    abandoned counts as ``inf``."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and any(r.abandoned_at is None for r in server.requests[:count]):
        time.sleep(0.02)
    return [r.abandoned_at - r.at if r.abandoned_at else math.inf for r in server.requests[:count]]


# ------------------------------------------------------------------ every pattern's demo over HTTP


def _demo(name: str, llm: Any, api: str = "invoke") -> dict[str, Any]:
    pattern = PATTERNS[name]
    policy = pattern.policy()
    if pattern.cli_policy is not None:  # the supervisor's automatic approver, as the CLI runs it
        policy = pattern.cli_policy(policy, False)
    graph = pattern.module.build_graph(llm=llm, policy=policy)
    if api == "ainvoke":
        return run_result(graph, asyncio.run(graph.ainvoke(pattern.demo_input(), thread())))
    return run_result(graph, graph.invoke(pattern.demo_input(), thread()))


def _without_timing(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k != "elapsed_ms"} for row in rows]


@BOTH_APIS
@pytest.mark.parametrize("name", list(PATTERNS))
def test_each_demo_over_http_gives_the_offline_models_results(name, api, openai_server):
    offline = _demo(name, OfflineChatModel())
    wire = _demo(name, wire_model(openai_server), api)

    keys = ("status", "stop_reason", "outcome", "answer", "phase")
    assert {k: wire.get(k) for k in keys} == {k: offline.get(k) for k in keys}
    assert wire["status"] == "ok" and wire["model"] == "openai:gpt-4.1-mini"
    assert _without_timing(gateway_rows(wire["trace"])) == _without_timing(gateway_rows(offline["trace"]))
    # usage came over the wire: the server counts tokens as the offline model does
    counts = ("llm_calls", "input_tokens", "output_tokens", "total_tokens")
    assert {k: wire["usage"][k] for k in counts} == {k: offline["usage"][k] for k in counts}
    calls = llm_rows(wire["trace"])
    expected_cost = sum(call_cost(GPT_41_MINI, r["input_tokens"], r["output_tokens"]) for r in calls)
    assert wire["usage"]["cost_usd"] == pytest.approx(expected_cost) and wire["usage"]["cost_usd"] > 0
    assert offline["usage"]["cost_usd"] == 0.0 and wire["usage"]["unpriced_calls"] == 0
    # one request per LLM call, each as the spec's seam says: JSON mode, temperature 0, the key
    assert openai_server.count == wire["usage"]["llm_calls"] == len(calls)
    for seen in openai_server.requests:
        assert seen.path == "/v1/chat/completions"
        assert seen.headers["authorization"] == "Bearer test-key"
        body = seen.body
        if name == "supervisor":  # native tool calling: the tools bound, no JSON mode
            assert (body["model"], body["temperature"]) == ("gpt-4.1-mini", 0)
            assert "response_format" not in body and body["tools"]
            assert [m["role"] for m in body["messages"]][:2] == ["system", "user"]
            continue
        assert (body["model"], body["temperature"], body["response_format"]) == (
            "gpt-4.1-mini",
            0,
            {"type": "json_object"},
        )
        assert [m["role"] for m in body["messages"]] == ["system", "user"]
        assert isinstance(json.loads(body["messages"][1]["content"]), dict)  # the JSON payload


@pytest.mark.parametrize("streaming", [False, True], ids=["plain", "streamed"])
def test_chat_openai_calls_the_supervisors_tools_natively_end_to_end(openai_server, streaming):
    """ChatOpenAI with the tools bound drives the Supervisor: each request carries the allowed
    tools' JSON schemas (the policy's), the server answers with ``tool_calls`` (in one body or
    streamed), the results go back as ``tool`` messages, and the refund a human approved runs once."""
    desk = BillingDesk()
    policy = demo_policy()
    llm = streaming_model(openai_server) if streaming else wire_model(openai_server)
    graph = supervisor.build_graph(
        llm=llm, policy=policy, tools=demo_tools(desk), checkpointer=InMemorySaver()
    )
    config = thread()
    waiting = graph.invoke(demo_input_supervisor(), config)
    assert waiting["__interrupt__"][0].value["action_requests"][0]["name"] == "issue_refund"
    done = graph.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config)
    assert done["status"] == "ok" and done["worker_protocol"] == "native"
    assert len(desk.refunds) == 1 and [c["approved_by"] for c in done["calls"]][1] == "human"
    assert openai_server.count == done["usage"]["llm_calls"] == 4
    for seen in openai_server.requests:
        tools = {t["function"]["name"]: t["function"] for t in seen.body["tools"]}
        assert list(tools) == policy.allowed_tools
        assert all(tools[n]["parameters"] == policy.tools[n].json_schema() for n in tools)
        assert "response_format" not in seen.body
    last = openai_server.requests[-1].body["messages"]
    calls = [c for m in last if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    answers = [m for m in last if m["role"] == "tool"]
    assert [c["function"]["name"] for c in calls] == [
        "get_refund_context",
        "issue_refund",
        "send_refund_email",
    ]
    assert [m["tool_call_id"] for m in answers] == [c["id"] for c in calls]
    assert json.loads(answers[1]["content"])["approved_by"] == "human"
    assert (
        done["answer"].startswith("Refunded 1200.00 USD to Anna") and "after human approval" in done["answer"]
    )


def test_the_cli_runs_against_the_server_from_environment_variables(openai_server, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("OPENAI_MODEL", "gpt-4.1-mini")
    assert main(["run", "reflection", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["model"] == "openai:gpt-4.1-mini" and result["outcome"] == "revised_once"
    assert result["usage"]["llm_calls"] == openai_server.count == 3
    assert result["usage"]["cost_usd"] > 0


def test_a_streaming_client_gets_the_same_result_and_usage(openai_server):
    result, _ = run_reflection(streaming_model(openai_server))
    offline, _ = run_reflection(OfflineChatModel())
    assert (result["status"], result["answer"]) == ("ok", offline["answer"])
    assert all(seen.body["stream"] is True for seen in openai_server.requests)
    assert result["usage"]["total_tokens"] == offline["usage"]["total_tokens"] > 0


# ------------------------------------------------------------------ faults from the server


@BOTH_APIS
def test_a_reply_slower_than_the_call_timeout_is_retried_then_stops_with_llm_timeout(openai_server, api):
    openai_server.script(Delay(3), Delay(3))
    result, took = run_reflection(
        api=api, llm=wire_model(openai_server), llm_timeout_seconds=0.3, llm_max_retries=1, **FAST
    )
    assert (result["stop_reason"], result["phase"]) == ("llm_timeout", "draft")
    assert received(openai_server, 2) == 2 and draft_call(result)["attempts"] == 2
    assert took < FAST["max_seconds"]
    # the client closed each connection when its attempt ended (0.3 s: a worker thread's request
    # gets that timeout plus a grace, an awaited one is cancelled), not at the server's answer (3 s)
    assert all(0.2 < held < 0.3 + CLIENT_TIMEOUT_GRACE + 1 for held in held_for(openai_server, 2))


@BOTH_APIS
def test_a_slow_reply_then_a_good_one_succeeds_after_one_retry(openai_server, api):
    openai_server.script(Delay(3))
    result, _ = run_reflection(api=api, llm=wire_model(openai_server), llm_timeout_seconds=0.3, **FAST)
    assert (result["status"], result["outcome"]) == ("ok", "revised_once")
    assert draft_call(result)["attempts"] == 2 and openai_server.count == 4


@BOTH_APIS
def test_a_reply_slower_than_what_is_left_of_the_run_stops_with_max_seconds(openai_server, api):
    openai_server.script(Delay(3))
    result, took = run_reflection(api=api, llm=wire_model(openai_server), max_seconds=0.5, llm_max_retries=5)
    assert (result["stop_reason"], result["phase"]) == ("max_seconds", "draft")
    assert received(openai_server, 1) == 1  # no time was left for a retry
    # cut at the budget, not at the server's answer (3 s); the margin is for a loaded machine's
    # scheduling, which a real-time bound cannot rule out
    assert result["trace"][-1]["elapsed_ms"] < 500 + SCHEDULING_MARGIN_MS and took < 2.0


@BOTH_APIS
def test_429_then_success(openai_server, api):
    openai_server.script(Status(429, "Rate limit reached", headers={"Retry-After": "0.15"}))
    result, _ = run_reflection(api=api, llm=wire_model(openai_server), **FAST)
    assert result["status"] == "ok" and draft_call(result)["attempts"] == 2
    assert openai_server.count == 4
    first, second = openai_server.requests[:2]
    assert second.at - first.at >= 0.15  # the server's Retry-After (0.15 s > the 0.05 s backoff)


@BOTH_APIS
def test_500_three_times_exhausts_the_retries(openai_server, api):
    openai_server.script(Status(500), Status(500), Status(500), Status(500))
    result, took = run_reflection(api=api, llm=wire_model(openai_server), llm_max_retries=2, **FAST)
    assert (result["status"], result["stop_reason"], result["phase"]) == (
        "stopped",
        "llm_error:server",
        "draft",
    )
    assert openai_server.count == 3  # the first attempt and 2 retries, never a 4th
    assert draft_call(result)["attempts"] == 3 and "500" in result["llm_detail"]
    gaps = [b.at - a.at for a, b in zip(openai_server.requests, openai_server.requests[1:], strict=False)]
    assert gaps[0] >= 0.05 and gaps[1] >= 0.1  # exponential backoff
    assert took < FAST["max_seconds"]


@BOTH_APIS
def test_500_twice_then_success(openai_server, api):
    openai_server.script(Status(502), Status(503))
    result, _ = run_reflection(api=api, llm=wire_model(openai_server), **FAST)
    assert result["status"] == "ok" and draft_call(result)["attempts"] == 3
    assert openai_server.count == 5


@BOTH_APIS
def test_retries_never_run_past_max_seconds(openai_server, api):
    openai_server.script(*[Status(500)] * 50)
    policy = {"max_seconds": 1.0, "llm_max_retries": 10, "llm_backoff_base_seconds": 0.2}
    result, took = run_reflection(
        api=api, llm=wire_model(openai_server), **policy, llm_backoff_max_seconds=0.4
    )
    assert result["stop_reason"] == "llm_error:server"
    assert 2 <= openai_server.count < 11  # the budget, not the retry count, ended it
    assert result["trace"][-1]["elapsed_ms"] <= 1000 + SCHEDULING_MARGIN_MS and took < 2.0


def test_401_stops_at_once(openai_server):
    result, _ = run_reflection(wire_model(openai_server, OPENAI_API_KEY="wrong-key"), **FAST)
    assert (result["stop_reason"], result["phase"]) == ("llm_error:auth", "draft")
    assert openai_server.count == 1 and draft_call(result)["attempts"] == 1
    assert "401" in result["llm_detail"]


@pytest.mark.parametrize(("status", "reason"), [(400, "llm_error:bad_request"), (404, "llm_error:not_found")])
def test_other_client_errors_stop_at_once(openai_server, status, reason):
    openai_server.script(Status(status))
    result, _ = run_reflection(wire_model(openai_server), **FAST)
    assert result["stop_reason"] == reason and openai_server.count == 1


@pytest.mark.parametrize(
    "body",
    [RawBody("<html><body>502 Bad Gateway</body></html>", "text/html"), RawBody('{"choices": [tru')],
)
def test_a_body_that_is_not_json_stops_with_bad_response(openai_server, body):
    openai_server.script(body)
    result, _ = run_reflection(wire_model(openai_server), **FAST)
    assert (result["stop_reason"], result["phase"]) == ("llm_error:bad_response", "draft")
    assert openai_server.count == 1  # not retried: a server that answers garbage is misconfigured


def test_a_json_reply_that_breaks_the_contract_is_invalid_schema_and_its_tokens_count(openai_server):
    openai_server.script(Reply(json.dumps({"text": "an update, under the wrong key"})))
    result, _ = run_reflection(wire_model(openai_server), **FAST)
    assert (result["stop_reason"], result["phase"]) == ("llm_invalid_schema", "draft")
    assert openai_server.count == 1 and "wrong key" in result["raw_reply"]
    assert result["usage"]["llm_calls"] == 1 and result["usage"]["output_tokens"] > 0
    assert result["usage"]["cost_usd"] > 0


def test_a_reply_that_is_not_json_text_is_invalid_json(openai_server):
    openai_server.script(Reply("Sure! Here is the update you asked for."))
    result, _ = run_reflection(wire_model(openai_server), **FAST)
    assert (result["stop_reason"], result["phase"]) == ("llm_invalid_json", "draft")


@BOTH_APIS
def test_a_body_cut_off_mid_way_is_retried(openai_server, api):
    openai_server.script(Cut())
    result, _ = run_reflection(api=api, llm=wire_model(openai_server), **FAST)
    assert result["status"] == "ok" and draft_call(result)["attempts"] == 2
    assert openai_server.count == 4


def test_a_stream_cut_off_mid_way_is_retried_and_then_stops_with_llm_timeout(openai_server):
    openai_server.script(Cut())
    result, _ = run_reflection(streaming_model(openai_server), **FAST)
    assert result["status"] == "ok" and draft_call(result)["attempts"] == 2

    openai_server.script(Cut(), Cut(), Cut())
    result, _ = run_reflection(streaming_model(openai_server), llm_max_retries=2, **FAST)
    assert (result["stop_reason"], result["phase"]) == ("llm_timeout", "draft")
    assert draft_call(result)["attempts"] == 3


@BOTH_APIS
def test_no_server_listening_is_llm_timeout_after_the_retries(api):
    with OpenAICompatibleServer() as gone:
        url = gone.base_url
    llm = get_chat_model({"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": url})
    result, took = run_reflection(api=api, llm=llm, **FAST)
    assert (result["stop_reason"], draft_call(result)["attempts"]) == ("llm_timeout", 3)
    assert took < FAST["max_seconds"]


# ------------------------------------------------------------------ token and cost budgets


def _reference_calls(server: OpenAICompatibleServer) -> list[dict[str, Any]]:
    result, _ = run_reflection(wire_model(server))
    assert result["status"] == "ok"
    return llm_rows(result["trace"])


def test_max_tokens_stops_before_the_call_that_would_exceed_it(openai_server):
    first, second, third = _reference_calls(openai_server)
    spent = sum(r["input_tokens"] + r["output_tokens"] for r in (first, second))
    reserve = 200
    # the third call is estimated at its prompt's characters / 4 (= its input tokens) + the reserve
    needed = spent + third["input_tokens"] + reserve

    before = openai_server.count
    result, _ = run_reflection(
        wire_model(openai_server), max_tokens=needed - 1, llm_output_reserve_tokens=reserve
    )
    assert (result["status"], result["stop_reason"], result["phase"]) == ("stopped", "max_tokens", "revise")
    assert openai_server.count - before == 2  # the third request was never sent
    assert result["usage"]["total_tokens"] == spent and result["usage"]["llm_calls"] == 2
    assert result["details"] == {
        "used_tokens": spent,
        "next_call_tokens": third["input_tokens"] + reserve,
        "max_tokens": needed - 1,
    }
    assert result["trace"][-1]["attempts"] == 0 and result["draft"]  # nothing done is lost

    before = openai_server.count
    result, _ = run_reflection(
        wire_model(openai_server), max_tokens=needed, llm_output_reserve_tokens=reserve
    )
    assert result["status"] == "ok" and openai_server.count - before == 3


def test_max_cost_usd_stops_before_the_call_that_would_exceed_it(openai_server):
    first, second, third = _reference_calls(openai_server)
    price = ModelPrice(input_usd_per_1m=1000.0, output_usd_per_1m=3000.0)  # a model priced per token
    spent = sum(call_cost(price, r["input_tokens"], r["output_tokens"]) for r in (first, second))
    reserve = 100
    needed = spent + call_cost(price, third["input_tokens"], reserve)
    llm = wire_model(openai_server, OPENAI_MODEL="my-local-model")
    policy = {"model_prices": {"my-local-model": price}, "llm_output_reserve_tokens": reserve}

    before = openai_server.count
    result, _ = run_reflection(llm, max_cost_usd=needed - 1e-6, **policy)
    assert (result["stop_reason"], result["phase"]) == ("max_cost_usd", "revise")
    assert openai_server.count - before == 2
    assert result["usage"]["cost_usd"] == pytest.approx(spent)
    assert result["details"]["next_call_cost_usd"] == pytest.approx(needed - spent)

    result, _ = run_reflection(llm, max_cost_usd=needed + 1e-6, **policy)
    assert result["status"] == "ok"


def test_a_model_without_a_price_costs_nothing_and_says_so(openai_server):
    result, _ = run_reflection(wire_model(openai_server, OPENAI_MODEL="mystery-model"), max_cost_usd=1e-9)
    assert result["status"] == "ok"
    assert result["usage"]["cost_usd"] == 0.0 and result["usage"]["unpriced_calls"] == 3
    assert openai_server.requests[0].body["model"] == "mystery-model"


@BOTH_APIS
@pytest.mark.parametrize("name", list(PATTERNS))
def test_every_pattern_refuses_its_first_call_when_the_budget_cannot_cover_it(name, api, openai_server):
    pattern = PATTERNS[name]
    for budget in ({"max_tokens": 50}, {"max_cost_usd": 1e-6}):
        graph = pattern.module.build_graph(llm=wire_model(openai_server), policy=pattern.policy(**budget))
        given = pattern.demo_input()
        final = (
            asyncio.run(graph.ainvoke(given, thread())) if api == "ainvoke" else graph.invoke(given, thread())
        )
        result = run_result(graph, final)
        assert result["status"] == "stopped" and result["stop_reason"] == next(iter(budget))
        assert result["usage"]["llm_calls"] == 0 and result["trace"][-1]["attempts"] == 0
    assert openai_server.count == 0


def test_the_prompt_estimate_needs_no_tokenizer():
    assert estimate_tokens(0) == 0 and estimate_tokens(1) == 1 and estimate_tokens(400) == 100


@BOTH_APIS
def test_openai_timeout_seconds_bounds_each_attempt_too(openai_server, api):
    openai_server.script(Delay(3))
    llm = wire_model(openai_server, OPENAI_TIMEOUT_SECONDS="0.3")
    result, took = run_reflection(api=api, llm=llm, llm_timeout_seconds=60, llm_max_retries=0, **FAST)
    assert (result["stop_reason"], received(openai_server, 1)) == ("llm_timeout", 1)
    assert "APITimeoutError" in result["llm_detail"] or "Timeout" in result["llm_detail"]
    assert took < 2.0


# ------------------------------------------------------------------ the async path (ainvoke)
# The same seam logic awaited: the model's ainvoke under asyncio.timeout, the backoff through
# nodes.clock.asleep. The server's request count and timestamps prove the retries and their waits.


def test_ainvoke_over_http(openai_server):
    result, _ = run_reflection(wire_model(openai_server), api="ainvoke")
    assert (result["status"], result["outcome"]) == ("ok", "revised_once")
    assert openai_server.count == result["usage"]["llm_calls"] == 3
    assert [r["attempts"] for r in llm_rows(result["trace"])] == [1, 1, 1]


def test_many_concurrent_runs_retry_their_own_faults(openai_server):
    """20 runs at once in one event loop; the first 20 requests fail (500 or a timeout). Every run
    still ends ok, and the server saw exactly one extra request per failed one.

    The call timeout is an asyncio deadline that starts when a run asks for its answer, so it also
    covers any time the shared event loop is busy elsewhere (starting the other 19 runs, a garbage
    collection) before this request is even written. On a loaded 2-core CI machine that was more
    than 0.5 s, and every first attempt timed out before the server saw it (client attempts 100,
    server requests 80; a 0.7 s stall of the loop reproduces it exactly). A 2 s timeout leaves such
    a stall inside the deadline; the delayed answers are cut by it all the same.
    """
    runs = 20
    openai_server.script(*([Status(500), Delay(30)] * (runs // 2)))
    policy = ReflectionPolicy(llm_timeout_seconds=2.0, **{**FAST, "max_seconds": 20.0})
    graph = reflection.build_graph(llm=wire_model(openai_server), policy=policy)

    async def many() -> list[dict[str, Any]]:
        return await asyncio.gather(*(graph.ainvoke(demo_input(), thread()) for _ in range(runs)))

    results = asyncio.run(many())
    assert [r["outcome"] for r in results] == ["revised_once"] * runs
    attempts = [row["attempts"] for r in results for row in llm_rows(r["trace"])]
    assert sum(attempts) == openai_server.count == runs * 3 + runs
