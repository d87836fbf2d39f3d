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

The package keeps one concern per module: :mod:`~policies.supervisor.rules` (the rule models),
:mod:`~policies.supervisor.policy` (the policy and its fit to the tools), :mod:`~policies.supervisor.demo`
(the refund demo), :mod:`~policies.supervisor.contract` (the action contract),
:mod:`~policies.supervisor.review` (the review engine; the public ``review_action``, whose
custom rules are ``custom_rules=`` as everywhere else, is :mod:`~policies.supervisor.review_api`'s),
:mod:`~policies.supervisor.flows` (the
policy-wide flow rules: destinations and confidential values), :mod:`~policies.supervisor.following`
(what the request points to in tool data: requested following, values it authorises, planted
details), :mod:`~policies.supervisor.grants` (one ask per task), :mod:`~policies.supervisor.approval`
(the human's request and answers). Every name is importable from ``policies.supervisor`` as before.
"""

from policies.supervisor.approval import (
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
from policies.supervisor.contract import is_refusal, validate_action
from policies.supervisor.demo import CONTEXT_TOOL, DEMO_TOOLS, EMAIL_TOOL, REFUND_TOOL, demo_policy
from policies.supervisor.grants import covering, grant_for, grant_key
from policies.supervisor.policy import SupervisorPolicy, policy_problems, tool_names
from policies.supervisor.review import CustomRule, ReviewContext, action_signature, refused_before
from policies.supervisor.review_api import review_action
from policies.supervisor.rules import (
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
    Reader,
    Requested,
    RunCap,
    Threshold,
    ToolRules,
)
from policies.supervisor.thread import OwnedRecord, RecordLimit, Repeat

__all__ = [
    "APPROVED_BY_RULES",
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
    "Confidentiality",
    "CustomRule",
    "Destinations",
    "Follow",
    "IdentifierRule",
    "NumberArg",
    "OneOf",
    "OwnedRecord",
    "Precondition",
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
    "covering",
    "demo_policy",
    "edit_problem",
    "escalation_text",
    "grant_for",
    "grant_key",
    "hitl_action",
    "is_refusal",
    "policy_problems",
    "refused_before",
    "review_action",
    "review_row",
    "rule_details",
    "shown_details",
    "tool_names",
    "validate_action",
]
