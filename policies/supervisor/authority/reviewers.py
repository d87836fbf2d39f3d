"""Who may answer a question: a rule's reviewer role, and four-eyes (distinct reviewers who must all
approve before the call runs).

A tool's rules may require a role (``ToolRules.reviewer_role``, checked against
``SupervisorPolicy.reviewers``: each reviewer's roles by name) and several approvals
(``ToolRules.approvals``; 2 = four-eyes). Both engines put each answer to :func:`answer_refusal`
before applying it. An answer refused here (the wrong role, no name where one is needed, the same
reviewer twice, an edit under four-eyes) is not applied and the call stays waiting: the question is
asked again with the reason, and such a refusal does not count toward ``human_answer_attempts`` (a
reviewer who may not answer cannot end the run for those who may). An approval that is not yet the
last keeps the call waiting too (:func:`waiting_note`). One rejection by a reviewer who may answer
refuses the call. The automatic approver is not a reviewer: these rules are for humans.

Who answered is the name the answer gives (``reviewer``): on the served stack the server's
authenticated user, bound to the answer before it reaches the run (``devtools/serve_auth.py``).
Pure functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from policies.human import HumanAnswer
from policies.supervisor.rules.policy import SupervisorPolicy

#: The reason prefix of an answer from a reviewer without the rule's role (``:<role>`` follows).
LACKS_ROLE = "reviewer_lacks_role"
#: The reason of a four-eyes answer from a reviewer who approved the call already.
ALREADY_APPROVED = "reviewer_already_approved"
#: The reason of a four-eyes answer that names no reviewer (distinct reviewers need names).
UNNAMED = "reviewer_unnamed"
#: The reason of an edit under four-eyes (it would change the call the others approve).
FOUR_EYES_EDIT = "four_eyes_edit"
#: The trace phase of an approval that is not yet the last (four-eyes): kept, the call waits.
APPROVAL_COUNTED = "approval_counted"


@dataclass(frozen=True)
class Signoff:
    """Who must answer a question: a reviewer holding ``role`` (None: anyone), and how many distinct
    reviewers must approve (``approvals``)."""

    role: str | None = None
    approvals: int = 1

    @property
    def plain(self) -> bool:
        """Anyone may answer, and one approval runs the call."""
        return self.role is None and self.approvals == 1


def signoff_for(policy: SupervisorPolicy, action: Mapping[str, Any]) -> Signoff:
    """The signoff a question about ``action`` needs: its tool's rules' (a final answer: plain)."""
    rules = policy.rules.get(str(action.get("name"))) if action.get("kind") == "tool" else None
    if rules is None:
        return Signoff()
    return Signoff(rules.reviewer_role, rules.approvals)


def holders(policy: SupervisorPolicy, role: str) -> list[str]:
    """The reviewers ``policy`` gives ``role``, by name."""
    return sorted(name for name, roles in policy.reviewers.items() if role in roles)


def who_may(policy: SupervisorPolicy, role: str) -> str:
    """Who may answer a question that needs ``role``, in words."""
    names = holders(policy, role)
    return (
        f"a reviewer with the role {role} ({', '.join(names)})"
        if names
        else f"a reviewer with the role {role}"
    )


def answer_refusal(
    answer: HumanAnswer, signoff: Signoff, policy: SupervisorPolicy, approved_by: Sequence[str] = ()
) -> str | None:
    """Why ``answer`` may not be applied by its reviewer (``<reason>: <sentence>``), or None.
    ``approved_by``: the reviewers who approved the call already (four-eyes)."""
    name = answer.reviewer
    if signoff.role is not None:
        if name is None:
            return (
                f"{LACKS_ROLE}:{signoff.role}: the answer names no reviewer; "
                f"only {who_may(policy, signoff.role)} may answer"
            )
        if signoff.role not in policy.reviewers.get(name, []):
            return (
                f"{LACKS_ROLE}:{signoff.role}: {name} does not hold the role {signoff.role}; "
                f"only {who_may(policy, signoff.role)} may answer"
            )
    if signoff.approvals > 1:
        if name is None:
            return f"{UNNAMED}: {signoff.approvals} distinct reviewers must approve: name the reviewer"
        if name in approved_by:
            return f"{ALREADY_APPROVED}: {name} approved already; a second, distinct reviewer must answer"
        if answer.type == "edit":
            return (
                f"{FOUR_EYES_EDIT}: {signoff.approvals} reviewers approve one call: answer approve or "
                "reject (an edit would change the call the others approve)"
            )
    return None


def needs_more(signoff: Signoff, approved_by: Sequence[str | None]) -> bool:
    """Must more reviewers approve, after those of ``approved_by`` (the newest last; a reviewer
    :func:`answer_refusal` passed, so named wherever more than one must approve)?"""
    return len(approved_by) < signoff.approvals


def waiting_note(signoff: Signoff, approved_by: Sequence[str]) -> str:
    """What the question asked again says while approvals are missing."""
    left = signoff.approvals - len(approved_by)
    more = "a second reviewer" if left == 1 and signoff.approvals == 2 else f"{left} more reviewer(s)"
    return (
        f"{len(approved_by)} of {signoff.approvals} approvals ({', '.join(approved_by)}); waiting for {more}"
    )


def signoff_fields(signoff: Signoff) -> dict[str, Any]:
    """What an approval request says of who must answer: the role and the approvals needed
    (nothing where anyone may answer once)."""
    if signoff.plain:
        return {}
    fields: dict[str, Any] = {"approvals_needed": signoff.approvals}
    return {"reviewer_role": signoff.role, **fields} if signoff.role is not None else fields


def with_signoff(request: dict[str, Any], signoff: Signoff, policy: SupervisorPolicy) -> dict[str, Any]:
    """The approval request with who must answer: the fields beside the request's own, and a note
    in each action request's description (where LangChain's HITL clients show it)."""
    fields = signoff_fields(signoff)
    if not fields:
        return request
    notes = [f"answered by {who_may(policy, signoff.role)}"] if signoff.role is not None else []
    if signoff.approvals > 1:
        notes.append(f"{signoff.approvals} distinct reviewers must approve")
    note = " | " + "; ".join(notes)
    actions = [{**a, "description": f"{a.get('description', '')}{note}"} for a in request["action_requests"]]
    return {**request, "action_requests": actions, **fields}


def counted_figures(
    action: Mapping[str, Any], answer: HumanAnswer, answered_at: str, note: str
) -> dict[str, Any]:
    """The figures of the audit row of an approval that is not yet the last (four-eyes)."""
    return {
        "tool": "final" if action.get("kind") == "final" else action.get("name"),
        "reviewer": answer.reviewer,
        "answered_at": answered_at,
        "applied": False,
        "problem": note,
    }
