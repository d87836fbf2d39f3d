"""What every pattern's policy shares."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from policies.llm_calls import DEFAULT_MODEL_PRICES, ModelPrice


class BasePolicy(BaseModel):
    """Fields common to all patterns. Subclasses add the pattern's budgets and allowlists.

    Policies are frozen and reject unknown fields, so a typo in a policy file is an error rather
    than a silently ignored setting.
    """

    #: ``protected_namespaces=()``: fields such as ``model_prices`` are the policy's own (pydantic
    #: before 2.10 warns on every import otherwise, on the CLI's stderr too).
    model_config = ConfigDict(frozen=True, extra="forbid", protected_namespaces=())

    max_seconds: float = Field(30.0, gt=0, description="Wall-clock budget for the whole run.")
    llm_timeout_seconds: float = Field(
        60.0,
        gt=0,
        description="Longest one LLM call may take; never more than what is left of max_seconds.",
    )
    llm_max_retries: int = Field(
        2,
        ge=0,
        le=10,
        description="Retries of an LLM call after a transient failure (timeout, connection error, "
        "HTTP 429 or 5xx); never past max_seconds. 0: no retries.",
    )
    llm_backoff_base_seconds: float = Field(
        0.5, ge=0, description="Wait before the first retry; it doubles for each further retry."
    )
    llm_backoff_max_seconds: float = Field(
        8.0, ge=0, description="Longest wait between two attempts (also caps a server's Retry-After)."
    )
    max_tokens: int | None = Field(
        200_000,
        gt=0,
        description="Input + output tokens over the whole run; a call that would exceed it is not made "
        "(stop_reason max_tokens). None: no token budget.",
    )
    max_cost_usd: float | None = Field(
        1.0,
        gt=0,
        description="USD over the whole run at model_prices; a call that would exceed it is not made "
        "(stop_reason max_cost_usd). None: no cost budget.",
    )
    llm_output_reserve_tokens: int = Field(
        1024,
        ge=0,
        description="Output tokens assumed for the next call when checking the budgets before it "
        "(its input is estimated at prompt characters / 4).",
    )
    model_prices: dict[str, ModelPrice] = Field(
        default_factory=dict,
        description="USD per 1M input/output tokens by model name, over the built-in table of OpenAI "
        "prices. A name also prices its dated snapshots (gpt-4.1-mini prices gpt-4.1-mini-2025-04-14). "
        "A model without a price costs 0 and is counted in usage.unpriced_calls.",
    )

    def price_table(self) -> dict[str, ModelPrice]:
        """The built-in prices with this policy's ``model_prices`` over them."""
        return {**DEFAULT_MODEL_PRICES, **self.model_prices}
