"""Every Reflection validator rule and stop reason, on the pure functions."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from policies.reflection import (
    ReflectionPolicy,
    fix_plan_rules,
    quoted_phrases,
    strict_replacement,
    validate_answer,
    validate_draft,
    validate_patch,
    validate_review,
)

P = ReflectionPolicy()
CONTEXT = {"incident": {"incident_id": "inc_pay_1", "severity": "P1", "rate": 0.034, "eta": 45}}
DRAFT = (
    "Current status: Incident inc_pay_1 (P1) in US is degraded. We expect full recovery within "
    "45 minutes.\nCustomer impact: 27% of checkouts affected.\nNext actions: monitor every 15 minutes."
)
FIX = ["Replace 'We expect full recovery within 45 minutes.' with 'Recovery is estimated in 45 minutes.'"]
REVISED = DRAFT.replace("We expect full recovery within 45 minutes.", "Recovery is estimated in 45 minutes.")


def review(**overrides):
    base = {
        "decision": "revise",
        "issues": [{"type": "overconfidence", "note": "too sure"}],
        "fix_plan": list(FIX),
        "reason": "hedge it",
    }
    base.update(overrides)
    return base


# ------------------------------------------------------------------ policy


def test_policy_defaults_follow_the_spec():
    assert (P.max_seconds, P.max_draft_chars, P.max_review_issues, P.max_fix_items) == (30, 900, 4, 4)
    assert (P.max_answer_chars, P.min_patch_similarity) == (900, 0.45)
    assert P.execution_review_decisions == ["approve", "revise", "escalate"]
    assert set(P.high_risk_issue_types) == {"policy_violation", "legal_risk"}


def test_switching_off_auto_revision_removes_revise_from_execution_only():
    policy = ReflectionPolicy(auto_revision_enabled=False)
    assert policy.allowed_review_decisions == ["approve", "revise", "escalate"]
    assert policy.execution_review_decisions == ["approve", "escalate"]


def test_policy_rejects_unknown_fields_and_bad_values():
    with pytest.raises(ValidationError):
        ReflectionPolicy(max_draft_chars=0)
    with pytest.raises(ValidationError):
        ReflectionPolicy(max_drafts_chars=10)  # typo → error, never silently ignored
    with pytest.raises(ValidationError):
        ReflectionPolicy(allowed_review_decisions=["approve", "publish"])


# ------------------------------------------------------------------ draft / answer


@pytest.mark.parametrize("text", ["", "   ", "\n\t "])
def test_empty_or_whitespace_draft(text):
    assert validate_draft(text, P).reason == "invalid_draft:empty"
    assert validate_answer(text, P).reason == "invalid_answer:empty"


def test_too_long_draft_and_answer():
    assert validate_draft("x" * 901, P).reason == "invalid_draft:too_long"
    assert validate_draft("x" * 900, P).passed
    assert validate_answer("x" * 901, P).reason == "invalid_answer:too_long"
    assert validate_answer("x" * 900, P).passed


# ------------------------------------------------------------------ review


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (["approve"], "invalid_review:not_object"),
        ("approve", "invalid_review:not_object"),
        ({}, "invalid_review:decision"),
        ({"decision": "  "}, "invalid_review:decision"),
        ({"decision": 3}, "invalid_review:decision"),
        ({"decision": "publish"}, "review_decision_not_allowed_policy:publish"),
        (review(issues={"type": "x"}), "invalid_review:issues"),
        (review(issues=[{"type": "overconfidence", "note": "n"}] * 5), "invalid_review:too_many_issues"),
        (review(issues=["overconfidence"]), "invalid_review:issue_item"),
        (review(issues=[{"note": "n"}]), "invalid_review:issue_type"),
        (review(issues=[{"type": "tone", "note": "n"}]), "review_issue_not_allowed_policy:tone"),
        (review(issues=[{"type": "overconfidence"}]), "invalid_review:issue_note"),
        (review(issues=[{"type": "overconfidence", "note": " "}]), "invalid_review:issue_note"),
        (review(fix_plan="do it"), "invalid_review:fix_plan"),
        (review(fix_plan=["a"] * 5), "invalid_review:too_many_fix_items"),
        (review(fix_plan=["ok", ""]), "invalid_review:fix_item"),
        (review(fix_plan=["ok", 7]), "invalid_review:fix_item"),
        (review(reason=["x"]), "invalid_review:reason"),
        (
            review(decision="approve", issues=[{"type": "legal_risk", "note": "n"}]),
            "invalid_review:approve_with_high_risk_issue",
        ),
        (review(issues=[]), "invalid_review:revise_without_issues"),
        (review(fix_plan=[]), "invalid_review:revise_without_fix_plan"),
        (
            review(issues=[{"type": "policy_violation", "note": "n"}]),
            "invalid_review:high_risk_requires_escalate",
        ),
        (review(decision="escalate", reason="  "), "invalid_review:escalate_reason_required"),
        (review(decision="escalate", reason=None), "invalid_review:reason"),
    ],
)
def test_review_contract_stops(raw, reason):
    decision = validate_review(raw, P)
    assert not decision.passed
    assert decision.reason == reason


def test_review_decision_is_case_insensitive_and_issue_types_normalised():
    decision = validate_review(
        review(decision=" Revise ", issues=[{"type": "Overconfidence", "note": "n"}]), P
    )
    assert decision.verdict == "revise"
    assert decision.details["issues"] == [{"type": "overconfidence", "note": "n"}]


def test_approve_drops_any_fix_plan():
    decision = validate_review(review(decision="approve"), P)
    assert decision.verdict == "approve"
    assert decision.details["fix_plan"] == []


def test_escalate_with_reason_passes():
    decision = validate_review(
        review(decision="escalate", issues=[{"type": "legal_risk", "note": "n"}], reason="legal"), P
    )
    assert (decision.verdict, decision.reason) == ("escalate", "legal")


def test_revise_valid_but_denied_for_execution():
    policy = ReflectionPolicy(auto_revision_enabled=False)
    assert validate_review(review(), policy).reason == "review_decision_denied_execution:revise"
    assert validate_review(review(decision="approve"), policy).verdict == "approve"


def test_decision_outside_a_narrowed_policy():
    policy = ReflectionPolicy(allowed_review_decisions=["approve", "escalate"])
    assert validate_review(review(), policy).reason == "review_decision_not_allowed_policy:revise"


def test_missing_issues_and_fix_plan_default_to_empty():
    assert validate_review({"decision": "approve"}, P).verdict == "approve"


# ------------------------------------------------------------------ quoted phrases and fix plans


def test_quoted_phrases_single_double_and_apostrophes():
    assert quoted_phrases("""Replace "we will" with 'we're working on it'""") == [
        "we will",
        "we're working on it",
    ]
    assert quoted_phrases("Don't say 'ok' or 'resolved soon'") == ["resolved soon"]  # 'ok' < 3 chars
    assert quoted_phrases("nothing quoted") == []
    assert quoted_phrases("'" + "a" * 121 + "'") == []


def test_strict_replacement_and_examples():
    assert strict_replacement("Replace 'A b c' with 'D e f'") == ("A b c", "D e f")
    assert strict_replacement('replace "x y z" with "q r s"') == ("x y z", "q r s")
    assert strict_replacement("Replace 'abc' with softer words such as 'may'") is None
    assert strict_replacement("Replace 'abc' with e.g. 'def'") is None


def test_fix_plan_rules():
    rules = fix_plan_rules(
        [
            "Replace 'will be fixed' with 'should recover'",
            "Rewrite 'guaranteed' to sound less certain",
            "Keep 'status page' and 'support macro'",
            "Change the tone, for example replace 'surely' with 'likely'",
            "Mention uncertainty",
        ]
    )
    assert rules.must_be_absent == ("will be fixed", "guaranteed", "surely")
    assert rules.must_be_present == ("should recover", "status page", "support macro")
    assert rules.enforced == 6


@pytest.mark.parametrize(
    ("revised", "new_numbers"),
    [
        (REVISED.replace("27%", "3.4%"), []),  # the context's 0.034, as a percentage
        (REVISED.replace("every 15 minutes", "every 15min"), []),
        (REVISED.replace("45 minutes.", "45k minutes."), ["45k"]),  # an abbreviated figure: 45,000
        (REVISED.replace("27%", "27k"), ["27k"]),
        (REVISED.replace("Recovery is", "On 2026-03-05 recovery is"), ["2026-03-05"]),  # no date in it
        (REVISED.replace("inc_pay_1 (P1)", "inc_pay_1 (P1, v3)"), []),  # labels stay labels
    ],
)
def test_new_numbers_use_the_shared_grounding_rule(revised, new_numbers):
    decision = patch(revised)
    if new_numbers:
        assert decision.reason == "patch_violation:no_new_facts"
        assert decision.details["new_numbers"] == new_numbers
    else:
        assert decision.passed, decision


# ------------------------------------------------------------------ patch


def patch(revised, fix_plan=FIX, draft=DRAFT, policy=P):
    return validate_patch(draft, revised, fix_plan, CONTEXT, policy)


def test_valid_patch_reports_similarity_and_checks():
    decision = patch(REVISED)
    assert decision.passed
    assert 0.45 <= decision.details["similarity"] < 1
    assert decision.details["checks_enforced"] == 2


@pytest.mark.parametrize(
    ("revised", "reason"),
    [
        ("", "invalid_revised:empty"),
        ("  \n ", "invalid_revised:empty"),
        ("x" * 901, "invalid_revised:too_long"),
        (DRAFT.replace(" ", "  ").replace("\n", " \n "), "invalid_revised:no_changes"),
        ("Totally different short text.", "patch_violation:too_large_edit"),
        (REVISED.replace("27%", "31%"), "patch_violation:no_new_facts"),
        (REVISED.replace("45 minutes.", "45.5 minutes."), "patch_violation:no_new_facts"),
        (REVISED.replace("inc_pay_1", "inc_pay_2"), "patch_violation:new_incident_id"),
        (REVISED.replace("(P1)", "(P0)"), "patch_violation:new_severity_label"),
        (REVISED.replace("in US", "in EU"), "patch_violation:new_region"),
        (REVISED + " Payments resolved.", "patch_violation:restricted_claims"),
        (REVISED + " All payments are stable.", "patch_violation:restricted_claims"),
        (REVISED + " Incident CLOSED.", "patch_violation:restricted_claims"),
        (DRAFT + " Thanks.", "patch_violation:fix_plan_not_applied"),
    ],
)
def test_patch_stops(revised, reason):
    decision = patch(revised)
    assert not decision.passed
    assert decision.reason == reason


def test_numbers_from_context_and_percent_forms_are_not_new():
    # 0.034 is in the context; 27 appears as 27% in the draft: "27 percent" keeps the same fact.
    assert patch(REVISED.replace("27%", "27") + " Rate 0.034.").passed


def test_restricted_claim_already_in_draft_is_allowed():
    draft = DRAFT + " Some payments resolved."
    revised = REVISED + " Some payments resolved."
    assert patch(revised, draft=draft).passed


def test_unresolved_is_not_a_restricted_claim():
    assert patch(REVISED + " Issue unresolved.").passed


def test_lower_case_us_is_not_a_region():
    assert patch(REVISED + " Contact us.").passed


def test_fix_plan_check_is_case_and_whitespace_insensitive():
    revised = DRAFT.replace(
        "We expect full recovery within 45 minutes.", "RECOVERY IS   estimated in 45 minutes."
    )
    assert patch(revised).passed


def test_example_replacement_only_requires_removal():
    fix = ["Replace 'We expect full recovery within 45 minutes.' with something such as 'likely'"]
    revised = DRAFT.replace("We expect full recovery within 45 minutes.", "Recovery may take 45 minutes.")
    decision = patch(revised, fix_plan=fix)
    assert decision.passed and decision.details["checks_enforced"] == 1


def test_keep_item_requires_presence():
    fix = ["Keep 'monitor every 15 minutes'", *FIX]
    assert patch(REVISED, fix_plan=fix).passed
    gone = REVISED.replace("monitor every 15 minutes", "keep watching")
    decision = patch(gone, fix_plan=fix)
    assert decision.reason == "patch_violation:fix_plan_not_applied"
    assert decision.details["missing"] == ["monitor every 15 minutes"]


def test_similarity_threshold_is_the_policy_s():
    strict = ReflectionPolicy(min_patch_similarity=0.99)
    assert patch(REVISED, policy=strict).reason == "patch_violation:too_large_edit"
