"""The rules of LLM calls: model prices, the run's token and cost budgets, and the retry schedule.

Pure functions of their inputs (no clock, no network, no tokenizer download): the JSON seam in
``nodes/llm_json.py`` asks them before and after every call.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

from policies.decision import Decision

#: Characters per token assumed when estimating a prompt before it is sent. English prose and
#: JSON average 3.5-4.5 characters a token with OpenAI's tokenizers; no tokenizer is loaded.
CHARS_PER_TOKEN = 4

#: Stop reasons of a failed attempt that a retry may cure: no answer in time or a dropped
#: connection, HTTP 429 and 5xx. Everything else (401, 400, 404, a bad reply) stops at once.
TRANSIENT_REASONS = frozenset({"llm_timeout", "llm_error:rate_limited", "llm_error:server"})


class ModelPrice(BaseModel):
    """What a model costs, in US dollars per million tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input_usd_per_1m: float = Field(ge=0, description="USD per 1M input (prompt) tokens.")
    output_usd_per_1m: float = Field(ge=0, description="USD per 1M output (completion) tokens.")


def _price(inp: float, out: float) -> ModelPrice:
    return ModelPrice(input_usd_per_1m=inp, output_usd_per_1m=out)


#: OpenAI's published list prices (standard tier, uncached input) and the free offline model.
#: Check them against your contract; ``model_prices`` in a policy adds or overrides entries.
DEFAULT_MODEL_PRICES: dict[str, ModelPrice] = {
    "offline:deterministic-v1": _price(0.0, 0.0),
    "gpt-5": _price(1.25, 10.0),
    "gpt-5-mini": _price(0.25, 2.0),
    "gpt-5-nano": _price(0.05, 0.40),
    "gpt-4.1": _price(2.0, 8.0),
    "gpt-4.1-mini": _price(0.40, 1.60),
    "gpt-4.1-nano": _price(0.10, 0.40),
    "gpt-4o": _price(2.50, 10.0),
    "gpt-4o-mini": _price(0.15, 0.60),
    "o3": _price(2.0, 8.0),
    "o3-mini": _price(1.10, 4.40),
    "o4-mini": _price(1.10, 4.40),
}


def price_for(model: str, table: Mapping[str, ModelPrice]) -> ModelPrice | None:
    """The price of ``model``: its exact entry, else the longest entry it extends with ``-``
    (``gpt-4.1-mini-2025-04-14`` is priced as ``gpt-4.1-mini``), else None (unknown)."""
    if model in table:
        return table[model]
    prefixes = [name for name in table if model.startswith(name + "-")]
    return table[max(prefixes, key=len)] if prefixes else None


def call_cost(price: ModelPrice | None, input_tokens: int, output_tokens: int) -> float:
    """USD for one call; 0 when the price is unknown."""
    if price is None:
        return 0.0
    cost = input_tokens * price.input_usd_per_1m + output_tokens * price.output_usd_per_1m
    return round(cost / 1_000_000, 8)


def estimate_tokens(chars: int) -> int:
    """Tokens a prompt of ``chars`` characters is assumed to take (rounded up)."""
    return math.ceil(max(0, chars) / CHARS_PER_TOKEN)


def check_llm_budget(
    usage: Mapping[str, float],
    *,
    prompt_chars: int,
    output_reserve: int,
    price: ModelPrice | None,
    max_tokens: int | None,
    max_cost_usd: float | None,
) -> Decision:
    """May the next call be made? It is estimated at ``prompt_chars / 4`` input tokens plus
    ``output_reserve`` output tokens; the run stops (``max_tokens`` / ``max_cost_usd``) when what
    it used so far plus that estimate would exceed the budget. ``None`` budgets are not checked;
    an unknown price costs 0."""
    estimate_in = estimate_tokens(prompt_chars)
    used_tokens = int(usage.get("total_tokens", 0) or 0)
    next_tokens = estimate_in + output_reserve
    if max_tokens is not None and used_tokens + next_tokens > max_tokens:
        return Decision.stop(
            "max_tokens", used_tokens=used_tokens, next_call_tokens=next_tokens, max_tokens=max_tokens
        )
    used_cost = float(usage.get("cost_usd", 0.0) or 0.0)
    next_cost = call_cost(price, estimate_in, output_reserve)
    if max_cost_usd is not None and used_cost + next_cost > max_cost_usd:
        return Decision.stop(
            "max_cost_usd",
            used_cost_usd=round(used_cost, 8),
            next_call_cost_usd=next_cost,
            max_cost_usd=max_cost_usd,
        )
    return Decision.allow(next_call_tokens=next_tokens, next_call_cost_usd=next_cost)


def retry_delay(
    reason: str,
    *,
    attempt: int,
    max_retries: int,
    base_seconds: float,
    max_delay_seconds: float,
    seconds_left: float,
    retry_after: float | None = None,
) -> float | None:
    """Seconds to wait before attempt ``attempt + 1``, or None when the run must stop with
    ``reason``: the failure is not transient, ``max_retries`` retries are spent, or the wait
    would not end before the run's time budget does.

    The wait doubles from ``base_seconds`` (``base * 2**(attempt-1)``) up to
    ``max_delay_seconds``; a server's ``Retry-After`` lengthens it, within the same cap.
    """
    if reason not in TRANSIENT_REASONS or attempt > max_retries:
        return None
    delay = min(max_delay_seconds, base_seconds * 2 ** (attempt - 1))
    if retry_after is not None and math.isfinite(retry_after):
        delay = max(delay, min(max(retry_after, 0.0), max_delay_seconds))
    return delay if delay < seconds_left else None
