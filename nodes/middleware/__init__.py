"""Governance for LangChain's ``create_agent``: :class:`GovernanceMiddleware` puts the Supervisor's
policy (:class:`~policies.supervisor.SupervisorPolicy`) in front of any agent's tool calls.

Needs LangChain 1.x (the ``agents`` extra: ``pip install '/path/to/clone[agents]'``); nothing else
in the project imports this package, so the patterns run without LangChain's agents package."""

try:
    import langchain.agents.middleware  # noqa: F401
except ImportError as exc:  # the core's dependencies do not include langchain
    raise ImportError(
        "GovernanceMiddleware needs LangChain 1.x (langchain>=1.3,<2): install the distribution with "
        "its agents extra, pip install '/path/to/clone[agents]' (docs/python-api.md, "
        f"'Installing it in your project'); {exc}"
    ) from exc

from nodes.middleware.agent import GovernanceMiddleware
from nodes.middleware.state import GovernanceDeltaState, GovernanceState

__all__ = ["GovernanceDeltaState", "GovernanceMiddleware", "GovernanceState"]
