"""The human's side: the approval request a run pauses with (LangChain's HITL request), the
automatic approver, and the action a human's answer leaves."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from typing import Any, Literal

from policies.decision import Decision
from policies.human import NOT_A_FORM_VALUE, HumanAnswer, form_value
from policies.schemas import ArgsModel
from policies.supervisor.decide.review import CustomRule, ReviewContext, custom_rules_given, review_action
from policies.supervisor.provenance.context import THIS_CALL
from policies.supervisor.provenance.flow import flow_text
from policies.supervisor.reading.amounts import amount_value
from policies.supervisor.rules.contract import validate_action
from policies.supervisor.rules.policy import SupervisorPolicy

#: Who approved an action: the supervisor's rules, a person, or the automatic approver standing in
#: for one.
ApprovedBy = Literal["supervisor", "human", "auto_approver", "request"]
#: ``approved_by`` of an action the rules approved without asking anyone (both engines).
APPROVED_BY_RULES: ApprovedBy = "supervisor"


def approver(details: Mapping[str, Any]) -> str:
    """Who approved an action the review approved (both engines' ``approved_by``): the human or
    approver whose earlier yes a grant carries, the request standing in for a human
    (``ToolRules.request_as_approval``), or the rules."""
    granted = details.get("granted")
    if isinstance(granted, Mapping) and granted.get("by"):
        return str(granted["by"])
    return "request" if details.get("approved_by") == "request" else APPROVED_BY_RULES


#: The decisions a human may give an escalation (LangChain's HITL vocabulary).
HUMAN_DECISIONS = ("approve", "edit", "reject")


def approval_answers(action: Mapping[str, Any], arg: str | None = None) -> list[dict[str, Any]]:
    """What the human may answer (LangChain HITL vocabulary: approve / edit / reject)."""
    edit = {arg or "<arg>": "<new value>"}
    return [
        {"type": "approve"},
        {"type": "edit", "edited_action": {"name": action.get("name"), "args": edit}},
        {"type": "reject", "message": "<why>"},
    ]


def review_row(decision: Decision) -> dict[str, Any]:
    """A supervisor review as both engines record it (the ``review`` and ``reviews`` rows, the
    audit): its verdict (``decision``), ``reason`` and details, and the check of the review chain
    that decided (``check``: :data:`policies.supervisor.decide.review.CHAIN`) where one did."""
    row = {"decision": decision.verdict, "reason": decision.reason, **decision.details}
    return row | ({"check": decision.check} if decision.check else {})


def rule_details(review: Mapping[str, Any]) -> dict[str, Any]:
    """A review row's details: what the rule that decided reported (not the revised action, nor
    what a rule in shadow would have done: ``shadow``, which the trace and the audit keep)."""
    kept = ("decision", "reason", "check", "action", "changes", "shadow")
    return {k: v for k, v in review.items() if k not in kept}


#: The name a final answer goes by in an approval request (its one argument: ``answer``).
FINAL_ANSWER = "final_answer"


def hitl_action(action: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """An action as LangChain's HITL request names it: a tool call, or the final answer."""
    if action.get("kind") == "final":
        return FINAL_ANSWER, {"answer": action.get("answer")}
    return str(action.get("name")), dict(action.get("args") or {})


def shown_details(details: Mapping[str, Any]) -> dict[str, Any]:
    """A rule's details as a person reads them: a cumulative threshold's ``run_total`` (what the
    run's earlier calls add up to; ``thread_total``: the thread's) shown as
    ``run_total_before_this_call`` beside ``run_total_with_this_call`` (the total the limit was
    checked against: 90 before a call of 89 is 179, which ``run_total=90.0`` alone hid)."""
    shown = dict(details)
    for key in ("run_total", "thread_total"):
        before, value = amount_value(shown.get(key)), amount_value(shown.get("value"))
        if before is not None and value is not None:
            at = list(shown).index(key)
            total = round(float(before + value), 9)
            items = [(k, v) for k, v in shown.items() if k != key]
            items[at:at] = [(f"{key}_before_this_call", before), (f"{key}_with_this_call", total)]
            shown = dict(items)
    return shown


def escalation_text(action: Mapping[str, Any], review: Mapping[str, Any]) -> str:
    """For the human: the call, why the supervisor asks (a cumulative threshold's total with this
    call included: :func:`shown_details`), and where checked values came from."""
    details = shown_details(rule_details(review))
    where = details.pop("provenance", None) or {}
    asked = mandate_text(details)
    details.pop("mandate", None)
    told = flow_text(details)
    details.pop("flow", None)
    reading = reading_text(details.pop("read", None), details.pop("unread", None))
    said = ", ".join(f"{k}={v}" for k, v in details.items())
    text = f"{hitl_action(action)[0]} needs approval: {review.get('reason')}" + (f" ({said})" if said else "")
    text += f"; {reading}" if reading else ""
    text += f"; {asked}" if asked else ""
    text += f"; flow {told}" if told else ""
    return text + "".join(f"; {name} {origin}" for name, origin in where.items())


def reading_text(read: Any, unread: Any) -> str | None:
    """A partial reading of the turn in words for the human ("I read: pay · City Water bill B-31;
    not understood: 'Scrap that'"), or None where the review showed none."""
    if not isinstance(unread, list) or not unread:
        return None
    mandates = " | ".join(str(m) for m in read) if isinstance(read, list) and read else "nothing I can act on"
    return f"I read: {mandates}; not understood: " + ", ".join(repr(str(u)) for u in unread)


#: What the human reads where a rule needed the request to ask for this kind of action and no
#: clause of it did.
NO_MANDATE = "no request asked for this"


def mandate_text(details: Mapping[str, Any]) -> str | None:
    """The mandate a review found (``details["mandate"]``), in words for the human: "you asked:
    cancel · the Budget Review", :data:`NO_MANDATE` where the rule needed one and none was found,
    or None where the tool's rules need none."""
    if "mandate" not in details:
        return None
    found = details.get("mandate")
    return f"you asked: {found}" if found else NO_MANDATE


def approval_request(action: Mapping[str, Any], review: Mapping[str, Any], **about: Any) -> dict[str, Any]:
    """The value a run pauses with when it asks a human: LangChain's HITL request
    (``action_requests``, ``review_configs``), so that its agent UIs can show and answer it, beside
    this project's own fields (``action``, ``reason``, the rule's ``details``, ``allowed_answers``)
    and ``about`` (run id, thread id, step...)."""
    name, args = hitl_action(action)
    return {
        "action_requests": [{"name": name, "args": args, "description": escalation_text(action, review)}],
        "review_configs": [{"action_name": name, "allowed_decisions": list(HUMAN_DECISIONS)}],
        "kind": "supervisor_approval",
        **about,
        "action": dict(action),
        "reason": review.get("reason"),
        "details": rule_details(review),
        "allowed_answers": approval_answers(action, review.get("arg")),
    }


def auto_approve(request: Mapping[str, Any], cap: float) -> dict[str, Any]:
    """The automatic approver's answer to an approval request: approve a numeric escalated
    argument up to ``cap`` (editing it down when it is above), reject anything else."""
    action = request.get("action") or {}
    arg = (request.get("details") or {}).get("arg")
    value = (action.get("args") or {}).get(arg) if isinstance(arg, str) else None
    amount = amount_value(value)
    if amount is None:
        return {"type": "reject", "message": "auto approver: no numeric argument to approve"}
    limit = Decimal(repr(float(cap)))
    if amount <= limit:
        return {"type": "approve", "message": f"auto approver: within {cap:g}"}
    capped = format(limit.normalize(), "f") if isinstance(value, str) else cap  # a text stays one
    edited = {"name": action.get("name"), "args": {**action["args"], arg: capped}}
    return {"type": "edit", "edited_action": edited, "message": f"auto approver: capped to {cap:g}"}


def _edited_answer(answer: HumanAnswer, action: Mapping[str, Any]) -> Decision:
    """A human's edit of an escalated final answer: the answer as the human wrote it."""
    edited = answer.edits.get("edited_action", answer.edits)
    args = edited.get("args") if isinstance(edited, dict) else None
    text = args.get("answer") if isinstance(args, dict) else None
    if not isinstance(text, str) or not text.strip():
        problem = "edited_action.args.answer must be a non-empty text"
        return Decision.stop("invalid_human_answer", problem=problem)
    new = {"kind": "final", "answer": text.strip()}
    return Decision.allow("original" if new == dict(action) else "human_revised", action=new)


def _read_as_form(
    action: Mapping[str, Any],
    touched: set[str],
    policy: SupervisorPolicy,
    models: Mapping[str, ArgsModel | None] | None,
) -> Decision:
    """Validate a human's edited action the way a form is read: where the schema refuses the type
    of a field the human touched and sent as text (``"800"`` for a number, an object's JSON text),
    that field is read as the value its text stands for (:func:`policies.human.form_value`) and the
    action checked again. Untouched fields, and every model-written call, stay strictly checked."""
    args = dict(action.get("args") or {})
    prefix = f"invalid_action:bad_arg_type:{action.get('name')}:"
    while True:
        checked = validate_action({**action, "args": args}, policy, models)
        arg = checked.reason[len(prefix) :] if checked.reason.startswith(prefix) else None
        if checked.passed or arg not in touched or not isinstance(args.get(arg), str):
            return checked
        value = form_value(args[arg])
        if value is NOT_A_FORM_VALUE:
            return checked
        touched = touched - {arg}  # each field is read once
        args[arg] = value


def approved_action(
    answer: HumanAnswer,
    action: Mapping[str, Any],
    policy: SupervisorPolicy,
    context: ReviewContext | None = None,
    custom_rules: Mapping[str, CustomRule] | None = None,
    models: Mapping[str, ArgsModel | None] | None = None,
    *,
    hooks: Mapping[str, CustomRule] | None = None,
) -> Decision:
    """The action a human's approve/edit answer leaves, validated against the tool's contract.
    An edit may change arguments (``edited_action.args`` or ``args``), never the tool. A field the
    human touched may arrive as text, as chat UIs send every edited field: it is read against the
    tool's schema as a form is (``"800"`` for a number field, JSON text for an object field).

    With the run's ``context``, an edited action must also pass the supervisor's rules: the human
    answers the escalation, not the hard rules. A rule that blocks it gives a ``block`` decision
    (its reason); one that would revise it (say, above what is left of the run's cap) stops with
    ``invalid_human_answer``, since the edit could not run as the human left it. ``custom_rules``:
    the functions the policy's custom rules name (``hooks``: its deprecated name)."""
    custom_rules = custom_rules_given(custom_rules, hooks, "approved_action")
    if answer.type == "approve":
        return Decision.allow("original", action=dict(action))
    if action.get("kind") == "final":
        return _edited_answer(answer, action)
    edited = answer.edits.get("edited_action", answer.edits)
    if not isinstance(edited, dict):
        return Decision.stop("invalid_human_answer", problem="edited_action must be an object")
    name = edited.get("name", action.get("name"))
    args = edited.get("args")
    if name != action.get("name"):
        return Decision.stop("invalid_human_answer", problem="an edit may change arguments, not the tool")
    if not isinstance(args, dict):
        return Decision.stop("invalid_human_answer", problem="edited_action.args must be an object")
    merged = {**action.get("args", {}), **args}
    checked = _read_as_form({"kind": "tool", "name": name, "args": merged}, set(args), policy, models)
    if not checked.passed:
        detail = checked.details.get("problem")
        problem = checked.reason + (f": {detail}" if detail else "")
        return Decision.stop("invalid_human_answer", problem=problem)
    new = checked.details["action"]
    if new == dict(action):
        return Decision.allow("original", action=new)
    if context is not None:  # the values the human typed are the human's: no rule asks where they came from
        typed = {arg: new["args"][arg] for arg in args if arg in new["args"]}
        review = review_action(new, replace(context, human=typed), policy, custom_rules)
        if review.verdict == "block":
            return review
        if review.verdict == "revise":
            return Decision.stop("invalid_human_answer", problem=_would_revise(review))
        if review.verdict == "escalate" and review.details.get("unreadable") == THIS_CALL:
            value = json.dumps(review.details.get("value"), ensure_ascii=False, default=str)
            problem = (
                f"{review.reason}: {review.details.get('arg')}={value} is not a number the limits can read"
            )
            return Decision.stop("invalid_human_answer", problem=problem + ' (write it as 900 or "900.00")')
    return Decision.allow("human_revised", action=new)


def _would_revise(review: Decision) -> str:
    """A rule that would revise a human's edit, in words: what it would set (the limit the edit
    went over, say), and the rule's reason."""
    changes = review.details.get("changes") or {}
    shown = ", ".join(
        f"{arg} to {json.dumps(value, ensure_ascii=False, default=str)}" for arg, value in changes.items()
    )
    return f"the supervisor's rules would change {shown or 'it'} ({review.reason})"


def edit_problem(decision: Decision) -> str:
    """Why a human's edit cannot run, in words, for the human asked again and the run's record:
    what the supervisor blocks it for, or what is wrong with it (the decision's ``problem``). It
    does not say "refused": whoever shows it says that once."""
    why = str(decision.details.get("problem") or decision.reason)
    return f"the supervisor blocks it: {why}" if decision.verdict == "block" else why
