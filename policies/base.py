"""What every pattern's policy shares."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class BasePolicy(BaseModel):
    """Fields common to all patterns. Subclasses add the pattern's budgets and allowlists.

    Policies are frozen and reject unknown fields, so a typo in a policy file is an error rather
    than a silently ignored setting.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_seconds: float = Field(30.0, gt=0, description="Wall-clock budget for the whole run.")
    llm_timeout_seconds: float = Field(
        60.0,
        gt=0,
        description="Longest one LLM call may take; never more than what is left of max_seconds.",
    )
