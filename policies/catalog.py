"""The stop-reason catalog: every ``stop_reason`` a run of each pattern can end with, as data.

An entry is a name (``max_seconds``) or a family with parameters in angle brackets
(``tool_failed:<tool>``, ``invalid_action:missing_required_arg:<tool>:<arg>``). ``<i>`` stands for
a step number (digits); any other parameter for an identifier: ASCII letters, digits and ``_ . -``,
plus ``?`` where :func:`clean_reason` replaced a character; the last parameter may contain ``:``.

Parameters are often text from outside the gateway: a tool name the model made up, an issue type,
a source. :func:`clean_reason` renders every stop reason into that alphabet and length before it is
written (``nodes.trace.stop`` applies it), so a reply cannot put line breaks, control characters or
megabytes into the reason that logs, dashboards and exit codes key on. The raw value stays in the
stopped run's diagnostics (``raw_action``, ``raw_review``, ``details``...).

A run that ends ok has the reason ``success``. Pure data and string matching; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from types import MappingProxyType

SUCCESS = "success"
#: Longest stop reason written; a longer one is cut and ends with ``...``.
MAX_REASON_CHARS = 160

#: Every pattern: the time, token and cost budgets, LangGraph's superstep budget and the JSON LLM
#: seam (whose retries end, when they run out, in the last attempt's reason).
SHARED: frozenset[str] = frozenset(
    {
        "max_seconds",
        "invalid_input:messages",
        "max_tokens",
        "max_cost_usd",
        "recursion_limit",
        "llm_timeout",
        "llm_invalid_json",
        "llm_invalid_schema",
        "llm_empty",
        "llm_error:<kind>",
    }
)

#: The tool gateway (``policies.tools`` and ``nodes.tool_gateway``), for patterns that call tools.
TOOL_GATEWAY: frozenset[str] = frozenset(
    {
        "max_tool_calls",
        "tool_denied:<tool>",
        "tool_missing:<tool>",
        "tool_bad_args:<tool>",
        "tool_error:<tool>",
        "tool_bad_result:<tool>",
    }
)

#: Answers to a human review (``policies.human``), for patterns that pause for one.
HUMAN: frozenset[str] = frozenset({"human_rejected", "invalid_human_answer"})

REFLECTION: frozenset[str] = frozenset(
    {
        "invalid_input:goal",
        "invalid_input:incident_context",
        "invalid_draft:empty",
        "invalid_draft:too_long",
        "invalid_review:not_object",
        "invalid_review:decision",
        "invalid_review:issues",
        "invalid_review:too_many_issues",
        "invalid_review:issue_item",
        "invalid_review:issue_type",
        "invalid_review:issue_note",
        "invalid_review:fix_plan",
        "invalid_review:too_many_fix_items",
        "invalid_review:fix_item",
        "invalid_review:reason",
        "invalid_review:approve_with_high_risk_issue",
        "invalid_review:revise_without_issues",
        "invalid_review:revise_without_fix_plan",
        "invalid_review:high_risk_requires_escalate",
        "invalid_review:escalate_reason_required",
        "review_decision_not_allowed_policy:<decision>",
        "review_issue_not_allowed_policy:<type>",
        "review_decision_denied_execution:<decision>",
        "invalid_revised:empty",
        "invalid_revised:too_long",
        "invalid_revised:no_changes",
        "patch_violation:too_large_edit",
        "patch_violation:no_new_facts",
        "patch_violation:new_incident_id",
        "patch_violation:new_severity_label",
        "patch_violation:new_region",
        "patch_violation:restricted_claims",
        "patch_violation:fix_plan_not_applied",
        "invalid_answer:empty",
        "invalid_answer:too_long",
        "policy_escalation",
        *HUMAN,
    }
)

#: What ``policies.research.verify_notes`` reports about a note (``verification_failed:<issue>``).
RESEARCH_NOTE_ISSUES = (
    "claim_missing",
    "quote_too_short",
    "url_not_read",
    "quote_not_in_source",
    "claim_numbers_not_in_quote",
    "duplicate_id",
)

RESEARCH: frozenset[str] = frozenset(
    {
        "invalid_input:goal",
        "invalid_input:request",
        "invalid_plan:steps",
        "invalid_plan:too_many_steps",
        "invalid_plan:step_sequence",
        "invalid_step:not_object",
        "invalid_step:id",
        "invalid_step:action",
        "invalid_step:args",
        "invalid_search:query",
        "tool_error:search",
        "tool_error:read",
        "tool_invalid_output:search",
        "tool_invalid_output:read",
        "no_sources_after_dedupe",
        "no_reliable_sources",
        "invalid_notes:empty",
        "invalid_notes:too_many",
        "invalid_notes:item",
        "invalid_notes:id",
        "invalid_notes:url",
        "invalid_notes:claim",
        "invalid_notes:quote",
        *(f"verification_failed:{issue}" for issue in RESEARCH_NOTE_ISSUES),
        "invalid_answer:empty",
        "invalid_answer:too_long",
        "invalid_answer:citations",
        "invalid_answer:citation_unknown",
        "invalid_answer:ungrounded_numbers",
    }
)

RAG: frozenset[str] = frozenset(
    {
        "invalid_input:question",
        "invalid_intent:not_object",
        "invalid_intent:kind",
        "invalid_intent:query",
        "invalid_intent:top_k",
        "invalid_intent:sources",
        "invalid_intent:source_item",
        "invalid_intent:query_too_long",
        "invalid_intent:source_not_allowed:<source>",
        "source_denied:<source>",
        "tool_error:retriever",
        "tool_invalid_output:retriever",
        "invalid_answer:citations_out_of_context",
        "invalid_answer:missing_citations",
        "invalid_answer:ungrounded_numbers",
    }
)

SUPERVISOR: frozenset[str] = frozenset(
    {
        "invalid_input:goal",
        "invalid_input:subject",
        "invalid_action:not_object",
        "invalid_action:non_json",
        "invalid_action:bad_kind",
        "invalid_action:extra_keys_final",
        "invalid_action:bad_final_answer",
        "invalid_action:extra_keys_tool",
        "invalid_action:bad_tool_name",
        "invalid_action:bad_tool_args",
        "invalid_action:unknown_tool:<tool>",
        "invalid_action:extra_tool_args:<tool>",
        "invalid_action:missing_required_arg:<tool>:<arg>",
        "invalid_action:bad_arg_type:<tool>:<arg>",
        # the supervisor's block reasons: the rule's reason (policy data, custom rules) ...
        "supervisor_block:<rule>",
        # ... and those of the demo policy and of the review itself, named for the record
        "supervisor_block:final_requires_context",
        "supervisor_block:invalid_refund_amount_type",
        "supervisor_block:invalid_refund_amount",
        "supervisor_block:refund_budget_exhausted",
        "supervisor_block:email_before_refund",
        "supervisor_block:revision_limit",
        "supervisor_block:unknown_tool_for_supervisor:<tool>",
        "supervisor_block:subject_mismatch:<arg>",
        # a bound argument with no subject (the policy's default verdict: block, or escalate)
        "supervisor_block:subject_unbound:<arg>",
        "supervisor_block:unknown_custom_rule:<rule>",
        "supervisor_block:custom_rule_bad_decision:<rule>",
        "max_steps",
        # on_refusal: feedback gives refused actions back to the worker, this many times at most
        "max_refusals",
        "loop_detected:per_tool_limit",
        "loop_detected:signature_repeat",
        # the thread's journal (side effects once, whoever races): another process is making
        # this very call now; another run acted on the thread after this call was reviewed
        "effect_in_progress",
        "thread_changed",
        # with $AGENT_PATTERNS_AUDIT_KEY: the call that waited is not the one stamped when it was
        # asked or approved (its checkpoint was changed): not run
        "approval_tampered",
        # an answer given after its question expired (ask_expires_after, on_expired: reject)
        "approval_expired",
        *TOOL_GATEWAY,
        *HUMAN,
    }
)

TASK_DECOMPOSITION: frozenset[str] = frozenset(
    {
        "invalid_input:goal",
        "invalid_plan:not_object",
        "invalid_plan:non_json",
        "invalid_plan:bad_kind",
        "invalid_plan:extra_keys",
        "invalid_plan:missing_steps",
        "invalid_plan:min_steps",
        "invalid_plan:max_steps",
        "invalid_plan:step_<i>_not_object",
        "invalid_plan:step_<i>_extra_keys",
        "invalid_plan:step_<i>_missing_id",
        "invalid_plan:duplicate_step_id",
        "invalid_plan:step_<i>_missing_title",
        "invalid_plan:step_<i>_missing_tool",
        "invalid_plan:tool_not_allowed:<tool>",
        "invalid_plan:step_<i>_bad_args",
        "max_execute_steps",
        "loop_detected",
        "tool_failed:<tool>",
        "invalid_answer:too_long",
        "invalid_answer:ungrounded_numbers",
        *TOOL_GATEWAY,
    }
)

#: Pattern name → its catalog (the shared reasons included).
STOP_REASONS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "reflection": SHARED | REFLECTION,
        "research": SHARED | RESEARCH,
        "rag": SHARED | RAG,
        "supervisor": SHARED | SUPERVISOR,
        "task_decomposition": SHARED | TASK_DECOMPOSITION,
    }
)

_PARAM = r"[A-Za-z0-9_.\-?]+"
_LAST_PARAM = r"[A-Za-z0-9_.:\-?]+"
_PLACEHOLDER = re.compile(r"<([a-z_]+)>")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.:\-]")


def clean_reason(reason: object) -> str:
    """A stop reason in the catalog's alphabet: every character outside ASCII letters, digits and
    ``_ . : -`` becomes ``?``; more than :data:`MAX_REASON_CHARS` are cut, ending with ``...``."""
    text = _UNSAFE.sub("?", str(reason)) or "?"
    if len(text) > MAX_REASON_CHARS:
        text = text[: MAX_REASON_CHARS - 3] + "..."
    return text


def entry_regex(entry: str) -> str:
    """The regular expression an entry stands for (see the module docstring)."""
    parts = _PLACEHOLDER.split(entry)
    names = parts[1::2]
    out = []
    for index, part in enumerate(parts):
        if index % 2 == 0:
            out.append(re.escape(part))
        elif part == "i":
            out.append("[0-9]+")
        else:
            out.append(_LAST_PARAM if index == 2 * len(names) - 1 else _PARAM)
    return "".join(out)


@cache
def _matcher(entries: frozenset[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{entry_regex(e)})" for e in sorted(entries)))


def matches(reason: str, entries: Iterable[str]) -> bool:
    """Does ``reason`` match one of ``entries`` (names or families)?"""
    return isinstance(reason, str) and bool(_matcher(frozenset(entries)).fullmatch(reason))


def is_known_stop_reason(pattern: str, reason: str) -> bool:
    """Is ``reason`` one the catalog documents for ``pattern`` (``success`` included)?"""
    entries = STOP_REASONS.get(pattern)
    if entries is None:
        raise KeyError(f"unknown pattern {pattern!r} (choose from {', '.join(STOP_REASONS)})")
    return reason == SUCCESS or matches(reason, entries)
