"""One model reply's tool calls, decided before any of them runs: each call validated against its
tool's schema, refused again if it was refused before, checked by the gateway (budget, allowlist,
loop limits), reviewed by the supervisor's rules (revised, blocked or escalated), and an
escalation put to a human (LangChain's HITL request, answered with ``{"decisions": [...]}``) or to
the automatic approver. The policies core decides; this module only walks it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from langgraph.types import interrupt

from nodes.clock import iso_utc, now
from nodes.effects import ask_key, first_answer
from nodes.expiry import asked_at, first_answer_at
from nodes.journal import Journal
from nodes.sealed import sealed_fields
from nodes.trace import refused_answer
from policies import supervisor as rules
from policies.human import RESPOND, answer_problem, parse_human_answer
from policies.schemas import ArgsModel
from policies.supervisor.authority import expiry, reviewers
from policies.supervisor.decide.cedar import answer_refused
from policies.tools import GatewayLimits, check_call

#: What a reviewer of a tool call may answer here: LangChain's HITL decisions, respond included.
TOOL_DECISIONS = (*rules.HUMAN_DECISIONS, RESPOND)

Kind = Literal["run", "refuse", "respond", "stop"]


@dataclass
class Batch:
    """What the review of one model reply knows: the policy, the tools' own argument models, the
    run's executed calls (``context``, as the supervisor reviews them), the calls the gateway counts
    (``past``: the run's, plus those of this reply already approved) and the run's refusals."""

    policy: rules.SupervisorPolicy
    hooks: Mapping[str, rules.CustomRule]
    models: Mapping[str, ArgsModel | None]
    registered: frozenset[str]
    context: rules.ReviewContext
    past: list[dict[str, Any]]
    refusals: list[Mapping[str, Any]]
    about: dict[str, Any] = field(default_factory=dict)  # run_id, step: for the approval request
    model_at: float = 0.0  # when this step's model call started (waiting for a human is not run time)
    #: the grants this reply's approvals issued (one ask per task), kept in ``governance_grants``
    issued: list[dict[str, Any]] = field(default_factory=list)
    #: the answers to this reply's escalations that could not be applied (each a trace row's
    #: figures: :func:`nodes.trace.refused_answer`), not yet written as rows
    refused_answers: list[dict[str, Any]] = field(default_factory=list)
    #: the thread's journal (:mod:`nodes.journal`) and thread: the first answer to a question wins
    journal: Journal | None = None
    thread_id: str = ""
    #: how far the review read the journal: a call's claim is refused when another run acted on
    #: the thread since (``thread_changed``)
    world_seq: int | None = None


@dataclass(frozen=True)
class Verdict:
    """What becomes of one call: it runs (``action``, as approved), is refused (``reason``, ``by``,
    the human's ``message``), is answered by the reviewer's text (``respond``) or ends the run."""

    kind: Kind
    action: dict[str, Any] | None
    reason: str = ""
    by: str = ""
    message: str = ""
    review: dict[str, Any] = field(default_factory=dict)
    executed_from: str = "original"
    approved_by: str | None = None
    human_approved: bool | None = None
    #: who answered the question, as the answer named them (None: a human's answer that named no
    #: one, or no human answer)
    reviewer: str | None = None
    #: the account the deciding answer was given from, where the answering process knows it (the
    #: CLI's OS account, a served reviewer's sign-in); None otherwise
    account: str | None = None
    #: when a human's answer was taken (ISO 8601, UTC); None where no human answered
    answered_at: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    paused: float = 0.0
    #: the signature of ``action`` as the gateway computed it when it passed the call (a plan reuses
    #: it rather than hashing the same arguments again)
    signature: str | None = None


def _proposal(raw: Mapping[str, Any]) -> dict[str, Any] | None:
    if not isinstance(raw.get("name"), str):
        return None
    args = raw.get("args")
    return {"kind": "tool", "name": raw["name"], "args": args if isinstance(args, dict) else {}}


def decide(call: Mapping[str, Any], batch: Batch) -> Verdict:
    """Validate, refuse a repeat of a refused call, check the gateway, then review."""
    raw = {"kind": "tool", "name": call.get("name"), "args": call.get("args")}
    checked = rules.validate_action(raw, batch.policy, batch.models)
    if not checked.passed:
        return Verdict("refuse", _proposal(raw), checked.reason, "contract", details=checked.details)
    action = checked.details["action"]
    earlier = rules.refused_before(action, batch.refusals) if batch.refusals else None
    if earlier is not None:
        return refused_again(action, earlier)
    gated = _gate(action, batch, validated=_contract_models(action["name"], batch))
    return gated if isinstance(gated, Verdict) else _review(action, batch, gated)


def passed_gate(
    call: Mapping[str, Any],
    policy: rules.SupervisorPolicy,
    models: Mapping[str, ArgsModel | None],
    registered: frozenset[str],
    past: list[dict[str, Any]],
) -> dict[str, Any] | None:
    """The action ``call`` validates to, where the action contract and the gateway's checks
    (budget, allowlist, registry, loop limits, the tool's schema) would pass it after the ``past``
    calls (``tool`` and ``signature`` each), as :func:`decide` checks it; None where either would
    refuse it. The supervisor's rules are not applied (the MCP gateway's read fast path asks this
    only of tools whose rules can only approve)."""
    raw = {"kind": "tool", "name": call.get("name"), "args": call.get("args")}
    checked = rules.validate_action(raw, policy, models)
    if not checked.passed:
        return None
    action: dict[str, Any] = checked.details["action"]
    batch = Batch(policy, {}, models, registered, rules.ReviewContext(()), past, [])
    gated = _gate(action, batch, validated=_contract_models(action["name"], batch))
    return None if isinstance(gated, Verdict) else {**action, "signature": gated}


def _contract_models(name: str, batch: Batch) -> tuple[ArgsModel, ...]:
    """The tool's own argument model, when the action contract validated the call's arguments
    against it (the policy declares no schema of its own for the tool): the gateway does not
    validate the same arguments against it again."""
    spec = batch.policy.tools.get(name)
    model = batch.models.get(name)
    if model is None or (spec is not None and spec.json_schema() is not None):
        return ()
    return (model,)


def refused_again(action: dict[str, Any], earlier: Mapping[str, Any]) -> Verdict:
    """A refused action proposed again: refused again by the supervisor (its review reason
    ``refused_before``), with the first refusal's reason, without asking anyone twice; the Supervisor
    graph labels it the same way, whoever refused the first."""
    row = {"decision": "block", "reason": "refused_before", "refused_at_step": earlier.get("step")}
    message = str(earlier.get("message") or "")
    return Verdict("refuse", action, str(earlier["reason"]), "supervisor", message, row)


#: Each policy's gateway limits, made once (a policy is frozen): policy id → (policy, limits).
_LIMITS: dict[int, tuple[rules.SupervisorPolicy, GatewayLimits]] = {}


def _limits(policy: rules.SupervisorPolicy) -> GatewayLimits:
    kept = _LIMITS.get(id(policy))
    if kept is not None and kept[0] is policy:
        return kept[1]
    if len(_LIMITS) >= 64:  # a process that makes policy after policy keeps the newest
        _LIMITS.clear()
    limits = policy.gateway_limits()
    _LIMITS[id(policy)] = (policy, limits)
    return limits


def _gate(
    action: dict[str, Any],
    batch: Batch,
    review: dict[str, Any] | None = None,
    validated: tuple[ArgsModel, ...] = (),
) -> Verdict | str:
    """The gateway's checks: budget, allowlist, registry, loop limits, the tool's own schema
    (unless ``validated`` against it already); the refusal, or the call's signature when it
    passes."""
    checked = check_call(
        action["name"],
        action["args"],
        limits=_limits(batch.policy),
        specs=batch.policy.tools,
        registered=batch.registered,
        past_calls=batch.past,
        models=batch.models,
        validated=validated,
    )
    if checked.passed:
        return str(checked.details["signature"])
    return Verdict("refuse", action, checked.reason, "gateway", review=review or {}, details=checked.details)


def _review(action: dict[str, Any], batch: Batch, signature: str) -> Verdict:
    """The supervisor's review of an action the gateway passed (:func:`decide`, ``signature``: its
    signature); a revised action is reviewed again before it may run."""
    executed_from = "original"
    for revision in range(batch.policy.max_revisions_per_action + 1):
        decision = rules.review_action(action, batch.context, batch.policy, batch.hooks)
        row = rules.review_row(decision)
        if decision.verdict == "block":
            return Verdict("refuse", action, f"supervisor_block:{decision.reason}", "supervisor", review=row)
        if decision.verdict == "escalate":
            return ask(action, row, executed_from, batch)
        if decision.verdict != "revise":
            # the rules approved it, or a human's yes earlier in the run covers it (one ask per task)
            by = rules.approver(decision.details)
            passed = signature if revision == 0 else None  # the gateway passed this very action
            run = Verdict(
                "run",
                action,
                decision.reason,
                review=row,
                executed_from=executed_from,
                approved_by=by,
                signature=passed,
            )
            # the action the gateway just passed, against the same calls: checked once, not twice
            return run if revision == 0 else approved(run, batch)
        if revision == batch.policy.max_revisions_per_action:
            return Verdict("refuse", action, "supervisor_block:revision_limit", "supervisor", review=row)
        action, executed_from = decision.details["action"], "supervisor_revised"
    raise AssertionError("unreachable: the loop returns")  # pragma: no cover


def approved(verdict: Verdict, batch: Batch) -> Verdict:
    """An approved call, checked once more by the gateway as it will run (revised, edited)."""
    assert verdict.action is not None
    gated = _gate(verdict.action, batch, verdict.review)
    return gated if isinstance(gated, Verdict) else replace(verdict, signature=gated)


#: How a reviewer answers for the tool (LangChain's HITL ``respond``), as the request offers it.
RESPOND_ANSWER = {"type": RESPOND, "message": "<the tool's result, as the model should read it>"}


def _request(action: dict[str, Any], review: dict[str, Any], batch: Batch) -> dict[str, Any]:
    request = rules.approval_request(action, review, **batch.about)
    if action.get("kind") != "final":  # a tool call may be answered for the tool (respond)
        request["review_configs"] = [
            {**c, "allowed_decisions": list(TOOL_DECISIONS)} for c in request["review_configs"]
        ]
        request["allowed_answers"] = [*request["allowed_answers"], dict(RESPOND_ANSWER)]
    return request


def _again(request: dict[str, Any], problem: str, attempt: int) -> dict[str, Any]:
    """The request asked again: the problem where the reviewer reads (the description) too."""
    actions = [
        {**a, "description": f"{a.get('description', '')} | answer again: {problem}"}
        for a in request["action_requests"]
    ]
    return {**request, "action_requests": actions, "problem": problem, "attempt": attempt}


def ask(
    action: dict[str, Any], review: dict[str, Any], executed_from: str, batch: Batch, round_: int = 1
) -> Verdict:
    """Put an escalation to the human (an interrupt) or the automatic approver, asking again, with
    the problem, an answer that cannot be applied, up to ``human_answer_attempts`` times. A question
    that expires (``ask_expires_after``) is asked again as a new ``round_`` when a late answer
    leaves ``ask_again``."""
    policy = batch.policy
    auto = policy.auto_approver_enabled
    by = "auto_approver" if auto else "human"
    allowed = rules.HUMAN_DECISIONS if action.get("kind") == "final" else TOOL_DECISIONS
    signoff = reviewers.signoff_for(policy, action, review)
    rule = expiry.expiry_for(policy, action)
    if not auto:  # judged by the rules it was first asked with, whatever policy resumes it
        asked_with = {**reviewers.signoff_fields(signoff, policy), **expiry.rule_fields(rule)}
        kept = sealed_fields(batch.journal, batch.thread_id, action, round_, asked_with)
        signoff = reviewers.sealed(kept, policy, action)
        rule = expiry.sealed(kept, rule)
    request, problem = reviewers.with_signoff(_request(action, review, batch), signoff, policy), ""
    request, asked = (request, None) if auto else expiring(request, rule, batch, round_)
    tries = 1 if auto else policy.human_answer_attempts
    attempt = failed = 0
    approved_by: list[str] = []
    accounts: list[str | None] = []  # the accounts of the approvals kept (four-eyes)
    while failed < tries:
        attempt += 1
        if auto:
            value: Any = rules.auto_approve(request, policy.auto_approver_cap)
        else:
            question = request if attempt == 1 else _again(request, problem, attempt)
            question = {**question, "approved_by": list(approved_by)} if approved_by else question
            value = first_answer(batch.journal, batch.thread_id, ask_key(question), interrupt(question))
        answer = parse_human_answer(value, allowed=allowed)
        if answer is None:
            problem = answer_problem(value, allowed=allowed)
            batch.refused_answers.append(refused_answer(action, attempt, value, problem, by))
            failed += 1
            continue
        if asked is not None:  # the question expires: an answer given later is not applied, whoever
            # gives it (the policy's on_expired decides, so a sweep needs no reviewer's role)
            late = late_answer(answer, action, review, batch, (question, value), rule, asked)
            if isinstance(late, Verdict):
                return late
            if late == "ask_again":
                return ask(action, review, executed_from, batch, round_ + 1)
        refusal = None if auto else reviewers.answer_refusal(answer, signoff, policy, approved_by, accounts)
        if refusal is None and not auto:  # the Cedar policies that judge answers may refuse it too
            refusal = answer_refused(policy, action, answer, batch.models)
        if refusal is not None:  # the call stays waiting for a reviewer who may answer (not counted)
            problem = refusal
            batch.refused_answers.append(refused_answer(action, attempt, value, problem, by))
            continue
        verdict = _answered(answer, action, review, executed_from, batch, by)
        if (
            verdict.kind == "run"
            and not auto
            and reviewers.needs_more(signoff, [*approved_by, answer.reviewer])
        ):
            approved_by.append(str(answer.reviewer))  # kept; the call waits for the next reviewer
            accounts.append(answer.account)
            problem = reviewers.waiting_note(signoff, approved_by)
            at = first_answer_at(batch.journal, batch.thread_id, ask_key(question), value)[1]
            figures = reviewers.counted_figures(action, answer, iso_utc(at), problem)
            batch.refused_answers.append({"phase": reviewers.APPROVAL_COUNTED, "ok": True, **figures})
            continue
        if verdict.kind == "run" and by == "human" and answer.type == "approve":
            verdict = _grant(verdict, action, review, batch)
        if verdict.kind != "stop":
            answered_at = now()
            paused = 0.0 if auto else max(0.0, answered_at - batch.model_at)
            batch.model_at = answered_at  # a later question of this reply counts from here
            if auto:
                return replace(verdict, paused=paused)
            return replace(
                verdict,
                paused=paused,
                reviewer=answer.reviewer,
                account=answer.account,
                answered_at=iso_utc(answered_at),
            )
        problem = str(verdict.details.get("problem"))
        batch.refused_answers.append(refused_answer(action, attempt, value, problem, by))
        failed += 1
    details = {"problem": problem, "answers": attempt, "decided_by": by}
    rejected = False if by == "human" else None
    return Verdict(
        "stop", action, "invalid_human_answer", by, review=review, details=details, human_approved=rejected
    )


def expiring(
    request: dict[str, Any], rule: expiry.Expiry, batch: Batch, round_: int
) -> tuple[dict[str, Any], float | None]:
    """The request with its expiry, and when it was asked (kept in the thread's journal: the same
    in every run of the node); the request as it is, and None, where the question never expires."""
    if rule.seconds is None:
        return request, None
    asked = asked_at(batch.journal, batch.thread_id, {**request, "round": round_})
    return expiry.with_expiry(request, expiry.expiry_fields(rule, asked, round_)), asked


def late_answer(
    answer: Any,
    action: dict[str, Any],
    review: dict[str, Any],
    batch: Batch,
    asked_with: tuple[dict[str, Any], Any],
    rule: expiry.Expiry,
    asked: float,
) -> Verdict | str | None:
    """An answer given after its question expired (judged by when the journal stored it first):
    not applied. ``"ask_again"``, or the refusal (``approval_expired``: ``on_expired: reject``, or
    a late rejection); a row for the audit either way, with the late answer and its reviewer. None
    where it was given in time."""
    question, value = asked_with
    answered = first_answer_at(batch.journal, batch.thread_id, ask_key(question), value)[1]
    if not expiry.is_late(rule, asked, answered):
        return None
    outcome = expiry.late_outcome(rule, answer.type)
    figures = expiry.late_figures(action, answer, asked, answered, rule)
    batch.refused_answers.append({"phase": expiry.EXPIRED_PHASE, **figures})
    if outcome == "ask_again":  # the wait goes on: counted from when the reply was made, as before
        return "ask_again"
    answered_now = now()
    paused = max(0.0, answered_now - batch.model_at)
    batch.model_at = answered_now  # a later question of this reply counts from here
    return Verdict(
        "refuse",
        action,
        expiry.EXPIRED_REASON,
        "human",
        expiry.expired_message(figures),
        review,
        human_approved=False,
        reviewer=answer.reviewer,
        account=answer.account,
        answered_at=figures["answered_at"],
        paused=paused,
    )


def _grant(verdict: Verdict, action: dict[str, Any], review: dict[str, Any], batch: Batch) -> Verdict:
    """One ask per task: the human's yes grants this run the same kind of step with the same
    provenance (:mod:`policies.supervisor.authority.grants`); the audit keeps the grant."""
    grant = rules.grant_for(action, review, batch.context, batch.policy, step=batch.about.get("step"))
    if grant is None:
        return verdict
    grant["run_id"] = batch.about.get("run_id")
    batch.issued.append(grant)
    batch.context = replace(batch.context, grants=(*batch.context.grants, grant))
    return replace(verdict, review={**verdict.review, "grant": {k: grant[k] for k in ("step", "key")}})


def _answered(
    answer: Any, action: dict[str, Any], review: dict[str, Any], executed_from: str, batch: Batch, by: str
) -> Verdict:
    """What a parsed answer leaves: a refusal (reject), the reviewer's text (respond), the approved
    or edited action (checked against the schema and the rules), or ``stop`` with the problem."""
    human = True if by == "human" else None
    if answer.type == "reject":
        rejected = False if human else None
        return Verdict(
            "refuse", action, "human_rejected", by, answer.message, review, human_approved=rejected
        )
    if answer.type == RESPOND:
        return Verdict("respond", action, "human_responded", by, answer.message, review, approved_by=by)
    decision = rules.approved_action(answer, action, batch.policy, batch.context, batch.hooks, batch.models)
    if not decision.passed:
        problem = rules.edit_problem(decision)
        return Verdict("stop", action, "invalid_human_answer", by, details={"problem": problem})
    new = decision.details["action"]
    source = "human_revised" if decision.reason == "human_revised" else executed_from
    run = Verdict("run", new, review.get("reason", ""), by, answer.message, review, source, by, human)
    return run if new.get("kind") == "final" else approved(run, batch)
