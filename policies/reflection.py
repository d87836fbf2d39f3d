"""Reflection: the policy and the pure checks of draft, review, patch and final answer."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Literal

from pydantic import Field

from policies.base import BasePolicy
from policies.decision import Decision
from policies.grounding import ungrounded_numbers
from policies.text import nonblank_str, normalize_ws, stable_json

ReviewDecision = Literal["approve", "revise", "escalate"]
IssueType = Literal[
    "overconfidence",
    "missing_uncertainty",
    "contradiction",
    "scope_leak",
    "policy_violation",
    "legal_risk",
]

REVIEW_DECISIONS: tuple[ReviewDecision, ...] = ("approve", "revise", "escalate")
ISSUE_TYPES: tuple[IssueType, ...] = (
    "overconfidence",
    "missing_uncertainty",
    "contradiction",
    "scope_leak",
    "policy_violation",
    "legal_risk",
)
HIGH_RISK_TYPES: tuple[IssueType, ...] = ("policy_violation", "legal_risk")


class ReflectionPolicy(BasePolicy):
    """Budgets and allowlists of the Reflection pattern (defaults from the spec)."""

    max_seconds: float = Field(30.0, gt=0, description="Wall-clock budget for the whole run.")
    max_draft_chars: int = Field(900, ge=1, description="Longest draft accepted.")
    max_review_issues: int = Field(4, ge=0, description="Most issues one review may raise.")
    max_fix_items: int = Field(4, ge=0, description="Most fix-plan items one review may carry.")
    max_answer_chars: int = Field(900, ge=1, description="Longest revised or final answer.")
    min_patch_similarity: float = Field(
        0.45, ge=0, le=1, description="Least difflib similarity between draft and revision."
    )
    allowed_review_decisions: list[ReviewDecision] = Field(
        default_factory=lambda: list(REVIEW_DECISIONS),
        description="Review decisions allowed by policy.",
    )
    auto_revision_enabled: bool = Field(
        True,
        description="When off, a 'revise' decision is valid but not executed (denied at runtime).",
    )
    allowed_issue_types: list[IssueType] = Field(
        default_factory=lambda: list(ISSUE_TYPES),
        description="Issue types a review may raise.",
    )
    high_risk_issue_types: list[IssueType] = Field(
        default_factory=lambda: list(HIGH_RISK_TYPES),
        description="Issue types that can only be escalated, never approved or auto-revised.",
    )
    human_review_on_escalate: bool = Field(
        False,
        description="Pause an escalated run for a human (interrupt) instead of stopping it.",
    )

    @property
    def execution_review_decisions(self) -> list[str]:
        """Decisions this runtime may execute: the policy set, minus revise when it is off."""
        if self.auto_revision_enabled:
            return list(self.allowed_review_decisions)
        return [d for d in self.allowed_review_decisions if d != "revise"]


# --------------------------------------------------------------------------- draft and answer


def validate_draft(draft: str, policy: ReflectionPolicy) -> Decision:
    if not normalize_ws(draft):
        return Decision.stop("invalid_draft:empty")
    if len(draft) > policy.max_draft_chars:
        return Decision.stop("invalid_draft:too_long", chars=len(draft))
    return Decision.allow(chars=len(draft))


def validate_answer(answer: str, policy: ReflectionPolicy) -> Decision:
    if not normalize_ws(answer):
        return Decision.stop("invalid_answer:empty")
    if len(answer) > policy.max_answer_chars:
        return Decision.stop("invalid_answer:too_long", chars=len(answer))
    return Decision.allow(chars=len(answer))


# --------------------------------------------------------------------------- review


def _check_issues(issues: Any, policy: ReflectionPolicy) -> Decision | list[dict[str, str]]:
    if not isinstance(issues, list):
        return Decision.stop("invalid_review:issues")
    if len(issues) > policy.max_review_issues:
        return Decision.stop("invalid_review:too_many_issues", count=len(issues))
    clean: list[dict[str, str]] = []
    for item in issues:
        if not isinstance(item, dict):
            return Decision.stop("invalid_review:issue_item")
        kind = item.get("type")
        if not nonblank_str(kind):
            return Decision.stop("invalid_review:issue_type")
        kind = kind.strip().lower()
        if kind not in policy.allowed_issue_types:
            return Decision.stop(f"review_issue_not_allowed_policy:{kind}")
        if not nonblank_str(item.get("note")):
            return Decision.stop("invalid_review:issue_note")
        clean.append({"type": kind, "note": item["note"].strip()})
    return clean


def _check_fix_plan(fix_plan: Any, policy: ReflectionPolicy) -> Decision | list[str]:
    if not isinstance(fix_plan, list):
        return Decision.stop("invalid_review:fix_plan")
    if len(fix_plan) > policy.max_fix_items:
        return Decision.stop("invalid_review:too_many_fix_items", count=len(fix_plan))
    if not all(nonblank_str(item) for item in fix_plan):
        return Decision.stop("invalid_review:fix_item")
    return [item.strip() for item in fix_plan]


def validate_review(review: Any, policy: ReflectionPolicy) -> Decision:
    """Check a review against its contract, the policy and the execution allowlist.

    On success the verdict is the review decision and ``details`` holds the normalised review
    (``issues``, ``fix_plan``, ``reason``).
    """
    if not isinstance(review, dict):
        return Decision.stop("invalid_review:not_object")
    decision = review.get("decision")
    if not nonblank_str(decision):
        return Decision.stop("invalid_review:decision")
    decision = decision.strip().lower()
    if decision not in policy.allowed_review_decisions:
        return Decision.stop(f"review_decision_not_allowed_policy:{decision}")

    issues = _check_issues(review.get("issues", []), policy)
    if isinstance(issues, Decision):
        return issues
    fix_plan = _check_fix_plan(review.get("fix_plan", []), policy)
    if isinstance(fix_plan, Decision):
        return fix_plan
    reason = review.get("reason", "")
    if not isinstance(reason, str):
        return Decision.stop("invalid_review:reason")

    high_risk = any(i["type"] in policy.high_risk_issue_types for i in issues)
    if decision == "approve":
        if high_risk:
            return Decision.stop("invalid_review:approve_with_high_risk_issue")
        fix_plan = []  # an approval carries no fix plan
    elif decision == "revise":
        if not issues:
            return Decision.stop("invalid_review:revise_without_issues")
        if not fix_plan:
            return Decision.stop("invalid_review:revise_without_fix_plan")
        if high_risk:
            return Decision.stop("invalid_review:high_risk_requires_escalate")
    elif decision == "escalate" and not reason.strip():
        return Decision.stop("invalid_review:escalate_reason_required")

    if decision not in policy.execution_review_decisions:
        return Decision.stop(f"review_decision_denied_execution:{decision}")
    return Decision(decision, reason.strip(), {"issues": issues, "fix_plan": fix_plan})


# --------------------------------------------------------------------------- patch

_INCIDENT_ID = re.compile(r"\binc_[a-z0-9_]+", re.IGNORECASE)
_SEVERITY = re.compile(r"\bP[0-5]\b")
_REGION = re.compile(r"\b(?:US|EU|UK|UA|APAC|GLOBAL|EMEA|LATAM)\b")
_RESTRICTED = re.compile(
    r"\b(?:resolved|fully recovered|incident closed|all payments (?:are|is) stable)\b",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"\"([^\"]*)\"|(?<!\w)'(.*?)'(?!\w)")
_EDIT_VERB = re.compile(r"\b(?:replace|modify|change|update|rewrite)\b", re.IGNORECASE)
_STRICT_REPLACE = re.compile(
    r"\breplace\s+(?:\"([^\"]+)\"|'(.+?)'(?!\w))\s+with\s+(?:\"([^\"]+)\"|'(.+?)'(?!\w))",
    re.IGNORECASE,
)
_EXAMPLE_MARKERS = re.compile(r"such as|for example|e\.g\.", re.IGNORECASE)


def quoted_phrases(item: str) -> list[str]:
    """Phrases quoted in single or double quotes, 3 to 120 characters long."""
    phrases = []
    for match in _QUOTED.finditer(item):
        phrase = match.group(1) if match.group(1) is not None else match.group(2)
        if 3 <= len(phrase) <= 120:
            phrases.append(phrase)
    return phrases


def _norm(text: str) -> str:
    return normalize_ws(text).lower()


@dataclass(frozen=True)
class FixPlanCheck:
    """Which phrases must be gone and which must be present in the revision."""

    must_be_absent: tuple[str, ...]
    must_be_present: tuple[str, ...]

    @property
    def enforced(self) -> int:
        return len(self.must_be_absent) + len(self.must_be_present)


def strict_replacement(item: str) -> tuple[str, str] | None:
    """``(A, B)`` for a strict "replace 'A' with 'B'" item (not an example), else None."""
    match = _STRICT_REPLACE.search(item)
    if match is None or _EXAMPLE_MARKERS.search(item):
        return None
    return (match.group(1) or match.group(2), match.group(3) or match.group(4))


def fix_plan_rules(fix_plan: list[str]) -> FixPlanCheck:
    absent: list[str] = []
    present: list[str] = []
    for item in fix_plan:
        phrases = quoted_phrases(item)
        if not phrases:
            continue
        if _EDIT_VERB.search(item):
            absent.append(phrases[0])
            replacement = strict_replacement(item)
            if replacement and 3 <= len(replacement[1]) <= 120:
                present.append(replacement[1])
        else:
            present.extend(phrases)
    return FixPlanCheck(tuple(absent), tuple(present))


def patch_similarity(draft: str, revised: str) -> float:
    return SequenceMatcher(None, normalize_ws(draft), normalize_ws(revised)).ratio()


def _new_matches(pattern: re.Pattern[str], revised: str, known: str) -> list[str]:
    before = {m.lower() for m in pattern.findall(known)}
    return sorted({m for m in pattern.findall(revised) if m.lower() not in before})


def validate_patch(
    draft: str,
    revised: str,
    fix_plan: list[str],
    context: dict[str, Any],
    policy: ReflectionPolicy,
) -> Decision:
    """Is ``revised`` a legitimate patch of ``draft`` that applies ``fix_plan``?

    On success ``details`` carries ``similarity`` and ``checks_enforced`` for the trace.
    """
    if not normalize_ws(revised):
        return Decision.stop("invalid_revised:empty")
    if len(revised) > policy.max_answer_chars:
        return Decision.stop("invalid_revised:too_long", chars=len(revised))
    if normalize_ws(revised) == normalize_ws(draft):
        return Decision.stop("invalid_revised:no_changes")
    similarity = round(patch_similarity(draft, revised), 3)
    if similarity < policy.min_patch_similarity:
        return Decision.stop("patch_violation:too_large_edit", similarity=similarity)

    known = stable_json(context) + "\n" + draft
    # the grounding rule every pattern shares: formatting, abbreviated figures, dates as dates
    new_numbers = ungrounded_numbers(revised, [context, draft])
    if new_numbers:
        return Decision.stop("patch_violation:no_new_facts", new_numbers=new_numbers)
    for pattern, reason in (
        (_INCIDENT_ID, "patch_violation:new_incident_id"),
        (_SEVERITY, "patch_violation:new_severity_label"),
        (_REGION, "patch_violation:new_region"),
        (_RESTRICTED, "patch_violation:restricted_claims"),
    ):
        new = _new_matches(pattern, revised, known)
        if new:
            return Decision.stop(reason, found=new)

    rules = fix_plan_rules(fix_plan)
    text = _norm(revised)
    still_there = [p for p in rules.must_be_absent if _norm(p) in text]
    missing = [p for p in rules.must_be_present if _norm(p) not in text]
    if still_there or missing:
        return Decision.stop(
            "patch_violation:fix_plan_not_applied", still_present=still_there, missing=missing
        )
    return Decision.allow(similarity=similarity, checks_enforced=rules.enforced)
