"""Offline roles for Reflection: a draft from the incident facts, a review, a patch.

The drafter words the ETA as a commitment, as first drafts often do; the reviewer catches such
overconfident sentences and asks for a quoted replacement; the reviser applies exactly the fix plan.
So the offline demo exercises the whole draft → review → revise → finalize path.
"""

from __future__ import annotations

import re
from typing import Any

from policies.reflection import quoted_phrases, strict_replacement

DEFAULT_SECTIONS = ["current_status", "customer_impact", "next_actions"]
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]")
_OVERCONFIDENT = re.compile(
    r"\b(?:guarantee\w*|definitely|certainly|expect full recovery|will be (?:fully )?resolved|"
    r"fully recovered|no further impact)\b",
    re.IGNORECASE,
)
_LEGAL = re.compile(r"\b(?:compensat\w*|liab\w*|lawsuit|legal action)\b", re.IGNORECASE)
_MINUTES = re.compile(r"(\d+)\s*minutes")


def _section_title(name: str) -> str:
    return name.replace("_", " ").strip().capitalize()


def _pct(rate: Any) -> str | None:
    if isinstance(rate, int | float) and not isinstance(rate, bool):
        return f"{rate * 100:.1f}%" if rate < 1 else f"{rate}%"
    return None


def _section_text(name: str, context: dict[str, Any]) -> str:
    inc: dict[str, Any] = context["incident"] if isinstance(context.get("incident"), dict) else {}
    region = context.get("region", "")
    if name == "current_status":
        text = (
            f"Incident {inc.get('incident_id', 'under investigation')} "
            f"({inc.get('severity', 'severity pending')}) affecting payments in {region or 'some regions'} "
            f"is {inc.get('status', 'being investigated')}."
        )
        if inc.get("eta_minutes") is not None:
            text += f" We expect full recovery within {inc['eta_minutes']} minutes."
        return text
    if name == "customer_impact":
        parts = []
        if inc.get("affected_checkout_pct") is not None:
            parts.append(f"About {inc['affected_checkout_pct']}% of checkout attempts are affected")
        if (rate := _pct(inc.get("failed_payment_rate"))) is not None:
            parts.append(f"the failed payment rate is {rate}")
        if inc.get("chargeback_alerts") is not None:
            parts.append(f"we have seen {inc['chargeback_alerts']} chargeback alerts")
        return ("; ".join(parts) or "Some customers may see failed payments") + "."
    if name == "next_actions":
        actions = [a for a in context.get("approved_actions") or [] if isinstance(a, str)]
        return ("We will " + "; ".join(actions) + ".") if actions else "We will share updates."
    return "Details will follow in the next update."


def draft(payload: dict[str, Any]) -> dict[str, Any]:
    context = payload.get("incident_context") or {}
    hints: dict[str, Any] = context["policy_hints"] if isinstance(context.get("policy_hints"), dict) else {}
    sections = hints.get("required_sections") or DEFAULT_SECTIONS
    limit = int(payload.get("max_draft_chars") or 900)
    text = ""
    for line in (f"{_section_title(s)}: {_section_text(s, context)}" for s in sections):
        if len(text) + len(line) + 1 > limit:
            break  # whole sections only: a short draft beats one cut mid-sentence
        text = f"{text}\n{line}" if text else line
    return {"draft": text}


def _hedge(sentence: str) -> str:
    minutes = _MINUTES.search(sentence)
    if minutes:
        return f"Our current estimate for recovery is {minutes.group(1)} minutes, and this may change."
    return "We are working to restore full service and will share updates as we learn more."


def review(payload: dict[str, Any]) -> dict[str, Any]:
    text = str(payload.get("draft") or "")
    legal = _LEGAL.search(text)
    if legal:
        return {
            "decision": "escalate",
            "issues": [{"type": "legal_risk", "note": f"Mentions '{legal.group(0)}'."}],
            "fix_plan": [],
            "reason": "The draft makes statements with legal implications; a human must decide.",
        }
    issues, fix_plan = [], []
    for sentence in (s.strip() for s in _SENTENCE.findall(text)):
        if _OVERCONFIDENT.search(sentence) and len(sentence) <= 120:
            issues.append({"type": "overconfidence", "note": "States an outcome as certain."})
            fix_plan.append(f"Replace '{sentence}' with '{_hedge(sentence)}'")
    limit = min(int(payload.get("max_review_issues") or 4), int(payload.get("max_fix_items") or 4))
    if not issues:
        return {
            "decision": "approve",
            "issues": [],
            "fix_plan": [],
            "reason": "Accurate and hedged.",
        }
    return {
        "decision": "revise",
        "issues": issues[:limit],
        "fix_plan": fix_plan[:limit],
        "reason": "Overconfident wording must be hedged before publishing.",
    }


def revise(payload: dict[str, Any]) -> dict[str, Any]:
    text = str(payload.get("draft") or "")
    for item in payload.get("fix_plan") or []:
        replacement = strict_replacement(str(item))
        if replacement:
            old, new = replacement
            text = re.compile(re.escape(old), re.IGNORECASE).sub(new.replace("\\", "\\\\"), text)
        elif str(item).lower().startswith("add"):
            text += "".join(f" {phrase}" for phrase in quoted_phrases(str(item)))
    return {"revised_answer": text}


ROLES = {
    "reflection.draft": draft,
    "reflection.review": review,
    "reflection.revise": revise,
}
