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

from policies.human import SYSTEM_PREFIX, HumanAnswer
from policies.supervisor.rules.cedar import cedar_role
from policies.supervisor.rules.policy import SupervisorPolicy

#: The reason prefix of an answer from a reviewer without the rule's role (``:<role>`` follows).
LACKS_ROLE = "reviewer_lacks_role"
#: The reason of a four-eyes answer from a reviewer who approved the call already.
ALREADY_APPROVED = "reviewer_already_approved"
#: The reason of a four-eyes answer from the account another approval was given from.
SAME_ACCOUNT = "reviewer_same_account"
#: The reason of a four-eyes answer that names no reviewer (distinct reviewers need names).
UNNAMED = "reviewer_unnamed"
#: The reason of an edit under four-eyes (it would change the call the others approve).
FOUR_EYES_EDIT = "four_eyes_edit"
#: The trace phase of an approval that is not yet the last (four-eyes): kept, the call waits.
APPROVAL_COUNTED = "approval_counted"
#: The reason of an approval or an edit in the system's name where a role or four-eyes guards the call.
SYSTEM_ANSWER = "system_not_a_reviewer"


def by_system(answer: HumanAnswer) -> bool:
    """Is ``answer`` the system's rejection (a timeout or a sweep), which refuses the call whatever
    the rule's role: a question nobody answered in time never waits for ever."""
    return answer.type == "reject" and (answer.reviewer or "").startswith(SYSTEM_PREFIX)


@dataclass(frozen=True)
class Signoff:
    """Who must answer a question: a reviewer holding ``role`` (None: anyone), and how many distinct
    reviewers must approve (``approvals``). A signoff sealed with its question (:func:`sealed`) also
    names who held the role when it was asked (``holders``: they alone may answer for it, whatever
    the answering process's policy says), and a role the answering policy requires beside it
    (``also``: a policy changed since may tighten a waiting question, never relax it)."""

    role: str | None = None
    approvals: int = 1
    holders: tuple[str, ...] | None = None
    also: str | None = None
    #: four-eyes counts accounts, not only names (``SupervisorPolicy.four_eyes_by``)
    by_account: bool = True

    @property
    def plain(self) -> bool:
        """Anyone may answer, and one approval runs the call."""
        return self.role is None and self.approvals == 1 and self.also is None


def signoff_for(
    policy: SupervisorPolicy, action: Mapping[str, Any], review: Mapping[str, Any] | None = None
) -> Signoff:
    """The signoff a question about ``action`` needs: its tool's rules' (a final answer: plain),
    with the role a Cedar policy's ``@ask("role")`` gave the question (``review``: its review row)
    where the rules name none, or beside theirs (``also``)."""
    rules = policy.rules.get(str(action.get("name"))) if action.get("kind") == "tool" else None
    by_account = policy.four_eyes_by == "account"
    cedar = cedar_role(review)
    if rules is None:
        return Signoff(cedar, by_account=by_account)
    if rules.reviewer_role is None or cedar in (None, rules.reviewer_role):
        return Signoff(rules.reviewer_role or cedar, rules.approvals, by_account=by_account)
    return Signoff(rules.reviewer_role, rules.approvals, also=cedar, by_account=by_account)


#: The most approvals a recorded question may ask for (a larger figure is no question's).
MOST_APPROVALS = 10


def sealed(request: Mapping[str, Any], policy: SupervisorPolicy, action: Mapping[str, Any]) -> Signoff:
    """The signoff an answer to a waiting question is judged by: the one written with the question
    when it was asked (``reviewer_role``, ``reviewer_holders``, ``approvals_needed``: what
    :func:`with_signoff` recorded; sealed by the call's stamp where the audit key is set), tightened
    by the answering process's ``policy`` (more approvals, a role of its own beside the recorded
    one), never relaxed by it: an answer from a shell that does not load the policy the question
    was asked under still needs the role, the reviewers and the approvals it was asked with. A
    question recorded with no role is judged by the live policy's (it can only be stricter). A
    recorded figure that is not one (a role that is no text, approvals out of range) asks for what
    no reviewer can give: the question waits, it is never answered more easily."""
    live = signoff_for(policy, action)
    role = request.get("reviewer_role")
    needed = request.get("approvals_needed", 1)
    if not isinstance(needed, int) or isinstance(needed, bool) or not 1 <= needed <= MOST_APPROVALS:
        needed = MOST_APPROVALS + 1  # not a figure a question is asked with: nobody can meet it
    approvals = max(needed, live.approvals)
    by_account = live.by_account or request.get("four_eyes_by", "account") != "reviewer"
    if role is None:
        return Signoff(live.role, approvals, None, None, by_account)
    if not isinstance(role, str) or not role:
        return Signoff("", approvals, (), None, by_account)  # no reviewer holds a role that is no name
    named = request.get("reviewer_holders")
    recorded = tuple(n for n in named if isinstance(n, str)) if isinstance(named, list) else None
    return Signoff(
        role, approvals, recorded, live.role if live.role not in (None, role) else None, by_account
    )


def holders(policy: SupervisorPolicy, role: str) -> list[str]:
    """The reviewers ``policy`` gives ``role``, by name."""
    return sorted(name for name, roles in policy.reviewers.items() if role in roles)


def who_may(policy: SupervisorPolicy, role: str, names: Sequence[str] | None = None) -> str:
    """Who may answer a question that needs ``role``, in words (``names``: its holders as the
    question recorded them; None: as ``policy`` gives them)."""
    names = holders(policy, role) if names is None else names
    return (
        f"a reviewer with the role {role} ({', '.join(names)})"
        if names
        else f"a reviewer with the role {role}"
    )


def answer_refusal(
    answer: HumanAnswer,
    signoff: Signoff,
    policy: SupervisorPolicy,
    approved_by: Sequence[str] = (),
    accounts: Sequence[str | None] = (),
) -> str | None:
    """Why ``answer`` may not be applied by its reviewer (``<reason>: <sentence>``), or None.
    ``approved_by``: the reviewers who approved the call already (four-eyes); ``accounts``: the
    accounts their approvals were given from (None where one said none). Under
    ``SupervisorPolicy.four_eyes_by="account"`` (the default; :attr:`Signoff.by_account`) an
    approval from an account that approved already is the same reviewer, whatever name it types
    (``reviewer_same_account``)."""
    name = answer.reviewer
    if by_system(answer):
        return None  # a timeout's or a sweep's rejection: it runs nothing, and nothing may wedge it
    if (name or "").startswith(SYSTEM_PREFIX) and not signoff.plain:
        return f"{SYSTEM_ANSWER}: {name} is the system, not a reviewer: it may reject, never approve or edit"
    required = [(signoff.role, signoff.holders), (signoff.also, None)]
    for role, held in ((r, h) for r, h in required if r is not None):
        names = list(held) if held is not None else holders(policy, role)
        may = who_may(policy, role, names)
        if name is None:
            return f"{LACKS_ROLE}:{role}: the answer names no reviewer; only {may} may answer"
        if name not in names:
            return f"{LACKS_ROLE}:{role}: {name} does not hold the role {role}; only {may} may answer"
    if signoff.approvals > 1:
        if name is None:
            return f"{UNNAMED}: {signoff.approvals} distinct reviewers must approve: name the reviewer"
        if name in approved_by:
            return f"{ALREADY_APPROVED}: {name} approved already; a second, distinct reviewer must answer"
        if signoff.by_account and answer.account is not None and answer.account in accounts:
            return (
                f"{SAME_ACCOUNT}: {name} answers from the account {answer.account}, which approved "
                "already; a second reviewer must answer from an account of their own"
            )
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


def signoff_fields(signoff: Signoff, policy: SupervisorPolicy | None = None) -> dict[str, Any]:
    """What an approval request says of who must answer: the role, who holds it (by ``policy``:
    written with the question, so that whoever answers is judged by it, :func:`sealed`) and the
    approvals needed (nothing where anyone may answer once)."""
    if signoff.plain:
        return {}
    fields: dict[str, Any] = {"approvals_needed": signoff.approvals}
    if signoff.approvals > 1 and not signoff.by_account:  # sealed too: a live policy only tightens it
        fields["four_eyes_by"] = "reviewer"
    if signoff.role is None:
        return fields
    held = list(signoff.holders) if signoff.holders is not None else None
    if held is None and policy is not None:
        held = holders(policy, signoff.role)
    named = {"reviewer_holders": held} if held is not None else {}
    return {"reviewer_role": signoff.role, **named, **fields}


def with_signoff(request: dict[str, Any], signoff: Signoff, policy: SupervisorPolicy) -> dict[str, Any]:
    """The approval request with who must answer: the fields beside the request's own (the rules
    the question is answered by, :func:`sealed`), and a note in each action request's description
    (where LangChain's HITL clients show it)."""
    fields = signoff_fields(signoff, policy)
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
    account = {"account": answer.account} if answer.account is not None else {}
    return {
        "tool": "final" if action.get("kind") == "final" else action.get("name"),
        "reviewer": answer.reviewer,
        **account,
        "answered_at": answered_at,
        "applied": False,
        "problem": note,
    }
