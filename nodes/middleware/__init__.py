"""Governance for LangChain's ``create_agent``: :class:`GovernanceMiddleware` puts the Supervisor's
policy (:class:`~policies.supervisor.SupervisorPolicy`) in front of any agent's tool calls.

Needs LangChain 1.x (``pip install agent-patterns[agents]``); nothing else in the project imports
this package, so the patterns run without LangChain's agents package."""

from nodes.middleware.agent import GovernanceMiddleware
from nodes.middleware.state import GovernanceState

__all__ = ["GovernanceMiddleware", "GovernanceState"]
