"""The Supervisor's nodes, one concern per module (as :mod:`nodes.middleware`):

- :mod:`nodes.supervisor.gateway`: the run's start, the validation of an action, the supervisor's
  review, its revision, the refusal fed back to the worker;
- :mod:`nodes.supervisor.execute`: the gateway's execution of an approved call, the final answer;
- :mod:`nodes.supervisor.worker`: the worker's next proposal, in either protocol;
- :mod:`nodes.supervisor.approval`: an escalation put to a human (or the automatic approver);
- :mod:`nodes.supervisor.conversation`: what each node says in ``messages`` and, under native tool
  calling, what the worker model is sent.

The gateway's node functions and shared names are re-exported here (``from nodes import
supervisor as n; n.review``), as they were when this package was one module.
"""

from nodes.supervisor.execute import execute, finalize
from nodes.supervisor.gateway import (
    PATTERN_KEYS,
    STEP_KEYS,
    WORKER_SYSTEM,
    Ctx,
    Hooks,
    Models,
    State,
    refuse,
    review,
    revise_action,
    start,
    validate_action,
)
from nodes.trace import TRACE_DETAIL_CHARS

__all__ = [
    "PATTERN_KEYS",
    "STEP_KEYS",
    "TRACE_DETAIL_CHARS",
    "WORKER_SYSTEM",
    "Ctx",
    "Hooks",
    "Models",
    "State",
    "execute",
    "finalize",
    "refuse",
    "review",
    "revise_action",
    "start",
    "validate_action",
]
