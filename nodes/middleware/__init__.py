"""Governance for LangChain's ``create_agent``: :class:`GovernanceMiddleware` puts the Supervisor's
policy (:class:`~policies.supervisor.SupervisorPolicy`) in front of any agent's tool calls.

Needs LangChain 1.x (the ``agents`` extra: ``pip install '/path/to/clone[agents]'``); nothing else
in the project imports this package, so the patterns run without LangChain's agents package."""

from nodes.middleware.requires import LANGCHAIN_FLOOR, NEEDS, langchain_problem, requirement_met

try:
    import langchain.agents.middleware  # noqa: F401
except ImportError as exc:  # the core's dependencies do not include langchain
    raise ImportError(f"{NEEDS}; {exc}") from exc
else:  # and one recent enough: an older one fails at the first reply whose calls are all refused
    requirement_met()

from nodes.middleware.agent import GovernanceMiddleware
from nodes.middleware.state import GovernanceDeltaState, GovernanceState

__all__ = [
    "LANGCHAIN_FLOOR",
    "GovernanceDeltaState",
    "GovernanceMiddleware",
    "GovernanceState",
    "langchain_problem",
]
