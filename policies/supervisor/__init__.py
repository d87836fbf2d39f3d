"""Supervisor: the policy, the worker's action contract, and the supervisor's review rules.

The supervisor's rules are data, per tool (:class:`ToolRules`): arguments bound to the run's
subject or to a set of values it lists; a precondition on an earlier successful call; a numeric
argument that must be a positive number (rounded to its decimals, money to the cent); a per-run
cap on a summed argument that revises the amount down to what is left (or blocks when nothing is
left); a missing argument with a default revised in; custom rules, named in the policy and supplied
as pure functions (:data:`CustomRule`) by whoever builds the graph; escalation to a human above a
threshold or for every call. A read-only tool is approved once its binding rules, preconditions
and custom rules pass.

:meth:`SupervisorPolicy.for_tools` starts a policy from a user's tools with neutral defaults; the
refund demo (:func:`demo_policy`) is one instance of it.

The package is the review core of both engines (the Supervisor graph and ``GovernanceMiddleware``),
laid out in the order a call is decided, one floor per subpackage, each importing only the floors
below it (``tests/test_review_floors.py`` checks every import):

1. :mod:`~policies.supervisor.reading`: how any value is read (amounts, identifiers, identities,
   the words of a request and its mandates);
2. :mod:`~policies.supervisor.rules.kinds`: the policy language as data (rule kinds, ``ToolRules``,
   ``SupervisorPolicy``, the action contract, the demo);
3. :mod:`~policies.supervisor.request.asks`: what the user asked and for whom (asks, subject,
   ownership, the records the request names);
4. :mod:`~policies.supervisor.provenance`: where each value came from (sources, derivations,
   flows, following, the thread's ledger, the review context);
5. :mod:`~policies.supervisor.authority`: who else may authorise a call (grants, reviewers,
   expiry);
6. :mod:`~policies.supervisor.decide`: the ordered chain of checks (:data:`CHAIN`) and the
   decision, the human's side of an escalation, and :func:`review_action`.

Adding a rule kind: a model in ``rules/kinds.py``, a check in ``decide/``, a line in ``CHAIN``, a
test beside it. This module is the public API, written once: every name of ``__all__``.
"""

from policies.supervisor.authority.grants import covering, grant_for, grant_key
from policies.supervisor.decide.approval import (
    APPROVED_BY_RULES,
    FINAL_ANSWER,
    HUMAN_DECISIONS,
    ApprovedBy,
    approval_answers,
    approval_request,
    approved_action,
    approver,
    auto_approve,
    edit_problem,
    escalation_text,
    hitl_action,
    review_row,
    rule_details,
    shown_details,
)
from policies.supervisor.decide.cedar import (
    CEDAR_CHECK,
    cedar_problems,
    cedar_request,
    cedar_schema,
    tool_schemas,
)
from policies.supervisor.decide.review import (
    CHAIN,
    CustomRule,
    ReviewContext,
    action_signature,
    refused_before,
    review_action,
)
from policies.supervisor.rules.cedar import CedarUnavailable, parse_cedar
from policies.supervisor.rules.contract import is_refusal, validate_action
from policies.supervisor.rules.demo import CONTEXT_TOOL, DEMO_TOOLS, EMAIL_TOOL, REFUND_TOOL, demo_policy
from policies.supervisor.rules.kinds import (
    DESTINATION_KINDS,
    TEXT_IDENTIFIERS,
    ArgDefault,
    ArgSource,
    Confidentiality,
    Destinations,
    Follow,
    IdentifierRule,
    NumberArg,
    OneOf,
    Precondition,
    RateLimit,
    Reader,
    Requested,
    RunCap,
    Threshold,
    ToolRules,
)
from policies.supervisor.rules.policy import SupervisorPolicy, policy_problems, tool_names
from policies.supervisor.rules.thread import OwnedRecord, RecordLimit, Repeat

__all__ = [
    "APPROVED_BY_RULES",
    "CEDAR_CHECK",
    "CHAIN",
    "CONTEXT_TOOL",
    "DEMO_TOOLS",
    "DESTINATION_KINDS",
    "EMAIL_TOOL",
    "FINAL_ANSWER",
    "HUMAN_DECISIONS",
    "REFUND_TOOL",
    "TEXT_IDENTIFIERS",
    "ApprovedBy",
    "ArgDefault",
    "ArgSource",
    "CedarUnavailable",
    "Confidentiality",
    "CustomRule",
    "Destinations",
    "Follow",
    "IdentifierRule",
    "NumberArg",
    "OneOf",
    "OwnedRecord",
    "Precondition",
    "RateLimit",
    "Reader",
    "RecordLimit",
    "Repeat",
    "Requested",
    "ReviewContext",
    "RunCap",
    "SupervisorPolicy",
    "Threshold",
    "ToolRules",
    "action_signature",
    "approval_answers",
    "approval_request",
    "approved_action",
    "approver",
    "auto_approve",
    "cedar_problems",
    "cedar_request",
    "cedar_schema",
    "covering",
    "demo_policy",
    "edit_problem",
    "escalation_text",
    "grant_for",
    "grant_key",
    "hitl_action",
    "is_refusal",
    "parse_cedar",
    "policy_problems",
    "refused_before",
    "review_action",
    "review_row",
    "rule_details",
    "shown_details",
    "tool_names",
    "tool_schemas",
    "validate_action",
]
