""":func:`review_action` as the public API names its arguments.

Every other public entry point takes the functions a policy's custom rules name as
``custom_rules`` (``build_graph(custom_rules=...)``, ``GovernanceMiddleware(custom_rules=...)``,
``policy_problems(custom_rules=...)``); the review engine (:mod:`policies.supervisor.decide.review`) called
them ``hooks``. This is the public ``review_action``, with ``custom_rules``; ``hooks=`` still works,
with a ``DeprecationWarning`` (as it does for :func:`~policies.supervisor.decide.approval.approved_action`).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from policies.decision import Decision
from policies.supervisor.decide.review import CustomRule, ReviewContext
from policies.supervisor.decide.review import review_action as _review_action
from policies.supervisor.rules.policy import SupervisorPolicy

Rules = Mapping[str, CustomRule]


def custom_rules_given(custom_rules: Rules | None, hooks: Rules | None, where: str) -> Rules | None:
    """The custom rules a caller gave, under the public name or the deprecated ``hooks=``."""
    if hooks is None:
        return custom_rules
    if custom_rules is not None:
        raise TypeError(f"{where}: give custom_rules= only (hooks= is its deprecated name)")
    warnings.warn(
        f"{where}(hooks=...) is deprecated: the argument is named custom_rules, as in build_graph and "
        "GovernanceMiddleware",
        DeprecationWarning,
        stacklevel=3,
    )
    return hooks


def review_action(
    action: Mapping[str, Any],
    context: ReviewContext,
    policy: SupervisorPolicy,
    custom_rules: Rules | None = None,
    *,
    hooks: Rules | None = None,
) -> Decision:
    """One supervisor review of a validated action: approve, revise (``details["action"]``),
    escalate (``details["arg"]``/``limit`` for thresholds) or block. ``custom_rules``: the pure
    functions the policy's ``ToolRules.custom`` names (``hooks``: its deprecated name). Where
    provenance rules checked values, the decision's ``details["provenance"]`` says where each came
    from; a flow rule's refusal or escalation says which flow it stopped (``details["flow"]``)."""
    return _review_action(action, context, policy, custom_rules_given(custom_rules, hooks, "review_action"))
