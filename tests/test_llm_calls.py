"""The rules of LLM calls (prices, budgets, the retry schedule) and the seam that applies them,
without a network: pure functions, error classification, and graphs on scripted models."""

from __future__ import annotations

import asyncio
import json

import httpx
import openai
import pytest
from langchain_core.exceptions import ContextOverflowError, ModelAPIError, ModelRateLimitError
from pydantic import ValidationError

from apps.cli.main import load_policy
from demo_tools.reflection import demo_input
from graphs import reflection
from graphs.registry import PATTERNS
from nodes.llm_json import classify_llm_error, retry_after_seconds
from nodes.offline import OfflineChatModel
from nodes.state import add_usage
from policies.llm_calls import (
    DEFAULT_MODEL_PRICES,
    ModelPrice,
    call_cost,
    check_llm_budget,
    price_for,
    retry_delay,
)
from policies.reflection import ReflectionPolicy
from tests.helpers import FakeClock, RaisingModel, llm_rows, scripted

REQ = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
PRICE = ModelPrice(input_usd_per_1m=1.0, output_usd_per_1m=2.0)


# ------------------------------------------------------------------ prices


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("gpt-4.1-mini", "gpt-4.1-mini"),
        ("gpt-4.1-mini-2025-04-14", "gpt-4.1-mini"),  # a dated snapshot: the longest name it extends
        ("gpt-4.1-2025-04-14", "gpt-4.1"),
        ("gpt-4o-mini", "gpt-4o-mini"),
        ("o3-mini", "o3-mini"),
        ("gpt-4.1x", None),  # a prefix only counts when a '-' follows it
        ("llama3.1:8b", None),
        ("offline:deterministic-v1", "offline:deterministic-v1"),
    ],
)
def test_price_for(model, expected):
    price = price_for(model, DEFAULT_MODEL_PRICES)
    assert price == (DEFAULT_MODEL_PRICES[expected] if expected else None)


def test_a_policy_adds_and_overrides_prices_over_the_built_in_table():
    policy = ReflectionPolicy(
        model_prices={"gpt-4.1-mini": {"input_usd_per_1m": 9, "output_usd_per_1m": 9}, "llama3.1:8b": PRICE}
    )
    table = policy.price_table()
    assert table["gpt-4.1-mini"].input_usd_per_1m == 9 and table["llama3.1:8b"] == PRICE
    assert table["gpt-4o"] == DEFAULT_MODEL_PRICES["gpt-4o"]
    assert ReflectionPolicy().price_table() == DEFAULT_MODEL_PRICES
    with pytest.raises(ValidationError):
        ModelPrice(input_usd_per_1m=-1, output_usd_per_1m=0)
    with pytest.raises(ValidationError):
        ReflectionPolicy(model_prices={"m": {"input": 1, "output": 1}})


def test_call_cost():
    assert call_cost(PRICE, 1_000_000, 500_000) == 2.0
    assert call_cost(PRICE, 1, 1) == 0.000003
    assert call_cost(None, 10**9, 10**9) == 0.0


# ------------------------------------------------------------------ budgets


def _check(usage, chars=400, reserve=100, price=PRICE, max_tokens=None, max_cost_usd=None):
    return check_llm_budget(
        usage,
        prompt_chars=chars,
        output_reserve=reserve,
        price=price,
        max_tokens=max_tokens,
        max_cost_usd=max_cost_usd,
    )


def test_token_budget_allows_up_to_the_limit_and_stops_beyond_it():
    # next call: 400 chars / 4 = 100 input tokens + 100 reserved output tokens
    assert _check({"total_tokens": 800}, max_tokens=1000).passed
    decision = _check({"total_tokens": 801}, max_tokens=1000)
    assert (decision.verdict, decision.reason) == ("stop", "max_tokens")
    assert decision.details == {"used_tokens": 801, "next_call_tokens": 200, "max_tokens": 1000}
    assert _check({"total_tokens": 10**9}).passed  # None: no token budget


def test_cost_budget_allows_up_to_the_limit_and_stops_beyond_it():
    next_cost = call_cost(PRICE, 100, 100)  # 0.0003 USD
    assert _check({"cost_usd": 0.0007}, max_cost_usd=0.001).passed
    decision = _check({"cost_usd": 0.00071}, max_cost_usd=0.001)
    assert decision.reason == "max_cost_usd" and decision.details["next_call_cost_usd"] == next_cost
    # a model without a price costs nothing, so only the token budget can stop it
    assert _check({"cost_usd": 0.0}, price=None, max_cost_usd=1e-9).passed


def test_the_token_budget_is_checked_before_the_cost_budget():
    assert _check({"total_tokens": 10**6, "cost_usd": 10.0}, max_tokens=10, max_cost_usd=0.01).reason == (
        "max_tokens"
    )


@pytest.mark.parametrize("field", ["max_tokens", "max_cost_usd"])
def test_budgets_must_be_positive_or_none(field):
    with pytest.raises(ValidationError):
        ReflectionPolicy(**{field: 0})
    assert getattr(ReflectionPolicy(**{field: None}), field) is None


# ------------------------------------------------------------------ the retry schedule


def _delay(reason="llm_error:server", attempt=1, max_retries=5, left=100.0, retry_after=None):
    return retry_delay(
        reason,
        attempt=attempt,
        max_retries=max_retries,
        base_seconds=0.5,
        max_delay_seconds=4.0,
        seconds_left=left,
        retry_after=retry_after,
    )


def test_backoff_doubles_up_to_its_cap():
    assert [_delay(attempt=n) for n in range(1, 7)] == [0.5, 1.0, 2.0, 4.0, 4.0, None]


@pytest.mark.parametrize("reason", ["llm_timeout", "llm_error:rate_limited", "llm_error:server"])
def test_transient_failures_are_retried(reason):
    assert _delay(reason) == 0.5


@pytest.mark.parametrize(
    "reason",
    [
        "llm_error:auth",
        "llm_error:bad_request",
        "llm_error:not_found",
        "llm_error:bad_response",
        "llm_invalid_json",
        "max_seconds",
    ],
)
def test_other_failures_are_not_retried(reason):
    assert _delay(reason) is None


def test_no_retry_past_the_retry_count_or_the_time_budget():
    assert _delay(attempt=1, max_retries=0) is None
    assert _delay(attempt=3, max_retries=3) == 2.0 and _delay(attempt=4, max_retries=3) is None
    assert _delay(attempt=2, left=1.0) is None  # a 1 s wait that would end with the budget
    assert _delay(attempt=2, left=1.01) == 1.0


def test_retry_after_lengthens_the_wait_within_the_cap():
    assert _delay(retry_after=2.5) == 2.5
    assert _delay(retry_after=60) == 4.0
    assert _delay(retry_after=0) == 0.5
    assert _delay(retry_after=float("nan")) == 0.5


# ------------------------------------------------------------------ classification and usage


@pytest.mark.parametrize(
    ("exc", "reason"),
    [
        (
            openai.NotFoundError("x", response=httpx.Response(404, request=REQ), body=None),
            "llm_error:not_found",
        ),
        (openai.APIStatusError("x", response=httpx.Response(408, request=REQ), body=None), "llm_timeout"),
        (
            openai.APIStatusError("x", response=httpx.Response(503, request=REQ), body=None),
            "llm_error:server",
        ),
        (
            openai.PermissionDeniedError("x", response=httpx.Response(403, request=REQ), body=None),
            "llm_error:auth",
        ),
        (ModelRateLimitError("provider-neutral 429"), "llm_error:rate_limited"),
        (ModelAPIError("provider-neutral 5xx"), "llm_error:server"),
        (ContextOverflowError("too long"), "llm_error:context_overflow"),
        (httpx.RemoteProtocolError("incomplete chunked read"), "llm_timeout"),
        (httpx.ReadError("reset"), "llm_timeout"),
        (ConnectionRefusedError(), "llm_timeout"),
        (json.JSONDecodeError("x", "doc", 0), "llm_error:json_decode_error"),  # not from a client
        (RuntimeError("boom"), "llm_error:runtime_error"),
    ],
)
def test_classify_more_errors(exc, reason):
    assert classify_llm_error(exc) == reason


def test_retry_after_is_read_from_the_error_response():
    response = httpx.Response(429, request=REQ, headers={"Retry-After": "1.5"})
    assert retry_after_seconds(openai.RateLimitError("x", response=response, body=None)) == 1.5
    response = httpx.Response(429, request=REQ, headers={"Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"})
    assert retry_after_seconds(openai.RateLimitError("x", response=response, body=None)) is None
    assert retry_after_seconds(ValueError()) is None


def test_usage_adds_costs_as_rounded_floats_and_counts_as_ints():
    total = add_usage({"llm_calls": 1, "cost_usd": 0.1}, {"llm_calls": 1, "cost_usd": 0.2})
    assert total == {"llm_calls": 2, "cost_usd": 0.3}
    assert isinstance(total["llm_calls"], int)


# ------------------------------------------------------------------ the seam in a graph


def test_scripted_model_calls_are_unpriced_and_each_writes_a_trace_row():
    draft = {"draft": "Current status: we are investigating elevated payment failures in US."}
    approve = {"decision": "approve", "issues": [], "fix_plan": [], "reason": "fine"}
    result = reflection.build_graph(llm=scripted(draft, approve)).invoke(demo_input())
    assert result["status"] == "ok"
    assert result["usage"]["unpriced_calls"] == 2 and result["usage"]["cost_usd"] == 0.0
    rows = llm_rows(result["trace"])
    assert [(r["phase"], r["attempts"], r["ok"]) for r in rows] == [("draft", 1, True), ("review", 1, True)]


def test_the_offline_models_usage_and_trace_rows_add_up():
    result = reflection.build_graph(llm=OfflineChatModel()).invoke(demo_input())
    rows = llm_rows(result["trace"])
    assert result["usage"]["input_tokens"] == sum(r["input_tokens"] for r in rows)
    assert result["usage"]["output_tokens"] == sum(r["output_tokens"] for r in rows)
    assert result["usage"]["llm_calls"] == len(rows) == 3


def _run(graph, given, api):
    """``graph`` on ``given`` through ``invoke`` or, for ``api == "ainvoke"``, the async path."""
    return asyncio.run(graph.ainvoke(given)) if api == "ainvoke" else graph.invoke(given)


@pytest.mark.parametrize("api", ["invoke", "ainvoke"])
def test_backoff_never_waits_past_max_seconds(monkeypatch, api):
    clock = FakeClock()
    waits: list[float] = []

    def fake_sleep(seconds: float) -> None:
        waits.append(seconds)
        clock.advance(seconds)

    async def fake_asleep(seconds: float) -> None:
        fake_sleep(seconds)

    monkeypatch.setattr("nodes.clock.now", clock)
    monkeypatch.setattr("nodes.clock.sleep", fake_sleep if api == "invoke" else None)
    monkeypatch.setattr("nodes.clock.asleep", fake_asleep if api == "ainvoke" else None)
    error = openai.InternalServerError("down", response=httpx.Response(500, request=REQ), body=None)
    model = RaisingModel(replies=[error])
    policy = ReflectionPolicy(
        max_seconds=10, llm_max_retries=10, llm_backoff_base_seconds=1, llm_backoff_max_seconds=4
    )
    result = _run(reflection.build_graph(llm=model, policy=policy), demo_input(), api)
    # waits 1, 2, 4 (t = 7 s); the next 4 s wait would end past the 10 s budget: stop instead
    assert (result["stop_reason"], result["phase"]) == ("llm_error:server", "draft")
    assert waits == [1, 2, 4] and model.calls == 4
    assert result["trace"][-1]["attempts"] == 4 and "attempt 4" in result["llm_detail"]


@pytest.mark.parametrize("api", ["invoke", "ainvoke"])
def test_a_budget_refusal_stops_before_the_model_is_called(api):
    model = RaisingModel(replies=[AssertionError("must not be called")])
    graph = reflection.build_graph(llm=model, policy=ReflectionPolicy(max_tokens=100))
    result = _run(graph, demo_input(), api)
    assert (result["stop_reason"], result["phase"], model.calls) == ("max_tokens", "draft", 0)
    assert result["details"]["used_tokens"] == 0 and result["details"]["max_tokens"] == 100
    assert result["llm_detail"].startswith("not called")


@pytest.mark.parametrize("name", list(PATTERNS))
def test_every_patterns_result_reports_usage_and_cost(name):
    pattern = PATTERNS[name]
    policy = pattern.policy()
    if pattern.cli_policy is not None:
        policy = pattern.cli_policy(policy, False)
    graph = pattern.module.build_graph(llm=OfflineChatModel(), policy=policy)
    result = graph.invoke(pattern.demo_input())
    usage = result["usage"]
    assert set(usage) == {
        "llm_calls",
        "input_tokens",
        "output_tokens",
        "total_tokens",
        "cost_usd",
        "unpriced_calls",
    }
    assert usage["llm_calls"] >= 2 and usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
    assert usage["cost_usd"] == 0.0 and usage["unpriced_calls"] == 0  # the offline model is free
    assert "usage" in graph.output_channels


def test_a_policy_file_sets_retries_budgets_and_prices(tmp_path):
    path = tmp_path / "policy.toml"
    path.write_text(
        "llm_max_retries = 4\nmax_tokens = 50000\nmax_cost_usd = 0.25\n"
        '[model_prices."llama3.1:8b"]\ninput_usd_per_1m = 0.0\noutput_usd_per_1m = 0.0\n'
    )
    policy = load_policy(PATTERNS["rag"], str(path))
    assert (policy.llm_max_retries, policy.max_tokens, policy.max_cost_usd) == (4, 50000, 0.25)
    assert policy.price_table()["llama3.1:8b"] == ModelPrice(input_usd_per_1m=0, output_usd_per_1m=0)
