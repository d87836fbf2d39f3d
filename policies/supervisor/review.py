"""The review engine: one supervisor review of a validated action against the policy's rules and
what the run knows (:class:`ReviewContext`), giving approve, revise, escalate or block."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from policies.amounts import amount_value
from policies.decision import Decision
from policies.derivation import cents as _cents_of
from policies.derivation import derived_from, operands
from policies.flow import flow, untrusted_names
from policies.provenance import (
    Source,
    describe,
    found_in,
    identifier_origins,
    leaf_values,
    rule_values,
    traced,
)
from policies.supervisor.conditions import conditional_mandate, conditioned
from policies.supervisor.context import (
    AN_EARLIER_CALL,
    DECIMALS,
    THIS_CALL,
    ReviewContext,
    rounded,
    same_form,
    tools_of,
)
from policies.supervisor.flows import confidentiality, destinations
from policies.supervisor.following import authorised, followed, planted_detail
from policies.supervisor.grants import granted
from policies.supervisor.policy import SupervisorPolicy
from policies.supervisor.records_check import owned_records, record_limits, repeated
from policies.supervisor.request import clauses as clauses  # re-exported: it lived here
from policies.supervisor.request import mandate, requested
from policies.supervisor.rules import IdentifierRule, ToolRules
from policies.tools import call_signature, is_number

#: A custom rule: ``(action, context) -> Decision | None`` (None: no opinion). Its Decision's
#: verdict is approve / revise (``details["action"]`` the revised action) / escalate / block; its
#: details reach the review row, the trace and (escalate) the human's approval request.
CustomRule = Callable[[Mapping[str, Any], ReviewContext], Decision | None]


def _block(reason: str, **details: Any) -> Decision:
    return Decision("block", reason, details)


def _revise(action: Mapping[str, Any], why: str, changes: Mapping[str, Any]) -> Decision:
    revised = {**action, "args": {**action["args"], **changes}}
    return Decision("revise", why, {"action": revised, "changes": dict(changes)})


def _apply_custom(
    names: Sequence[str],
    action: Mapping[str, Any],
    context: ReviewContext,
    hooks: Mapping[str, CustomRule],
) -> Decision | None:
    for name in names:
        hook = hooks.get(name)
        if hook is None:
            return _block(f"unknown_custom_rule:{name}")
        decision = hook(action, context)
        if decision is None:
            continue
        if decision.verdict not in ("approve", "revise", "escalate", "block"):
            return _block(f"custom_rule_bad_decision:{name}")
        if decision.verdict == "revise" and not isinstance(decision.details.get("action"), dict):
            return _block(f"custom_rule_bad_decision:{name}")
        if decision.verdict != "approve":
            return Decision(decision.verdict, decision.reason, {**decision.details, "rule": name})
    return None


def _binding(
    rules: ToolRules, args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | None:
    """Bound arguments, set membership and preconditions: what every tool's call must meet."""
    for arg in rules.bound_args:
        if arg not in context.subject:  # acting for nobody in particular is not acting for anyone
            if policy.verdict(None) == "escalate":
                return Decision("escalate", f"subject_unbound:{arg}", {"arg": arg, "value": args.get(arg)})
            return _block(f"subject_unbound:{arg}", arg=arg, value=args.get(arg))
        if args.get(arg) != context.subject[arg]:
            return _block(
                f"subject_mismatch:{arg}", arg=arg, expected=context.subject[arg], value=args.get(arg)
            )
    for member in rules.one_of:
        value = args.get(member.arg)
        if member.arg in args and not context.admits(member, value):
            return Decision(
                policy.verdict(member.verdict), member.reason, {"arg": member.arg, "value": value}
            )
    for pre in rules.preconditions:
        if not context.succeeded(pre.tool, {k: args.get(k) for k in pre.match_args}):
            return _block(pre.reason, requires=pre.tool, match_args=list(pre.match_args))
    return None


def _provenance(
    name: str, rules: ToolRules, args: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy
) -> Decision | dict[str, str]:
    """The provenance rules: the policy-wide flow rules (destinations, confidential values), where
    each ruled argument's values and each identifier in free text came from, and whether the
    request asks for this kind of action. A rule that fails gives its decision (details: where the
    value does appear, the flow it stopped); else where each checked value came from."""

    def follow(arg: str, value: Any) -> str | None:
        return followed(policy, name, arg, value, context.request, context.calls, context.subject)

    def sources() -> Sequence[Source]:  # built when a flow rule reads them
        return context.sources

    refused = confidentiality(policy, name, args, context.calls, sources)
    refused, checked = (refused, {}) if refused else destinations(policy, name, args, sources, follow)
    if refused is not None:
        return refused
    for rule in rules.arg_sources:
        for value in rule_values(args.get(rule.arg)):  # a short code and a flag too: found by whole token
            found = found_in(value, context.sources)
            checked[rule.arg] = _where(value, found)
            admitting = [s for s in found if s.admitted_by(rule.sources)]
            if admitting and not _only_an_operand(value, admitting, context.request):
                continue
            derived = derived_from(
                value, context.sources, rule.sources, rule.derived, rule.max_terms, request=context.request
            )
            told_by = derived.describe() if derived else _follow_traced(follow, rule.arg, value)
            if told_by:
                checked[rule.arg] = told_by
                continue
            details = {"arg": rule.arg, "value": value, "allowed_sources": list(rule.sources)}
            where = {"provenance": {rule.arg: checked[rule.arg]}}
            told = flow(value, checked[rule.arg], f"{name}.{rule.arg}")
            return Decision(policy.verdict(rule.verdict), rule.reason, {**details, **where, **told})
    if rules.identifiers is not None:
        refused = _free_text(name, rules.identifiers, args, context, checked, policy)
        if refused is not None:
            return refused
    asked = rules.requested
    if asked is not None and not requested(asked, context.request):
        # a step the request makes conditional stands on its condition, checked on trusted data
        check = conditioned(asked, args, context, policy)
        if check is None:
            said = {k: v for k, v in asked.model_dump(include={"keywords", "verbs", "objects"}).items() if v}
            told = flow(name, "the request does not ask for this kind of action", name)
            return Decision(policy.verdict(asked.verdict), asked.reason, {**said, **told})
        if not check.holds:
            return Decision("escalate", "condition_not_checked", check.details())
        checked["condition"] = check.told
    planted, notes = planted_detail(policy, name, rules, args, context)
    return planted if planted is not None else {**checked, **notes}


def _where(value: Any, found: Sequence[Source]) -> str:
    """Where a value a rule reads was found, in words: a boolean is written nowhere."""
    if isinstance(value, bool):
        return "a boolean: no source writes it"
    return describe(found) if found or traced(value) else "written as a whole word nowhere in the run"


def _follow_traced(follow: Callable[[str, Any], str | None], arg: str, value: Any) -> str | None:
    """A follow rule's word for a value it can point to: a traced value (a short code or a flag is
    taken from a record only where a source a rule admits writes it)."""
    return follow(arg, value) if traced(value) else None


def _only_an_operand(value: Any, admitting: Sequence[Source], request: str) -> bool:
    """Is a number admitted only by the request, where the request writes it as a term of an
    operation it states (:func:`policies.derivation.operands`)? Then it is no value to use as is."""
    if not is_number(value) or any(s.kind != "request" for s in admitting):
        return False
    return _cents_of(value) in operands(request)


def _free_text(
    tool: str,
    rule: IdentifierRule,
    args: Mapping[str, Any],
    context: ReviewContext,
    checked: dict[str, str],
    policy: SupervisorPolicy,
) -> Decision | None:
    """Each identifier in the rule's text arguments must come from one of its sources."""
    for name in rule.args or list(args):
        for text in (v for v in leaf_values(args.get(name)) if isinstance(v, str)):
            for (kind, value), found in identifier_origins(text, context.sources, rule.kinds).items():
                label = f"{name}:{value}"
                checked[label] = describe(found)
                if any(s.admitted_by(rule.sources) for s in found):
                    continue
                told_by = followed(
                    policy, tool, name, (kind, value), context.request, context.calls, context.subject
                )
                if told_by:
                    checked[label] = told_by
                    continue
                details = {"arg": name, "kind": kind, "identifier": value}
                where = {"provenance": {label: checked[label]}}
                told = flow(value, checked[label], f"{tool}.{name}")
                return Decision(policy.verdict(rule.verdict), rule.reason, {**details, **where, **told})
    return None


def _unreadable(reason: str, arg: str, value: Any, group: Sequence[str], earlier: bool = False) -> Decision:
    """An amount a limit cannot read as a number (:func:`policies.amounts.amount_value`): asked,
    never admitted."""
    details: dict[str, Any] = {"arg": arg, "value": value}
    details |= {"group": list(group)} if group else {}
    return Decision("escalate", reason, details | {"unreadable": AN_EARLIER_CALL if earlier else THIS_CALL})


def _amounts(
    action: Mapping[str, Any], name: str, rules: ToolRules, context: ReviewContext
) -> Decision | None:
    """Numeric arguments (finite, positive, to their decimals), the cap on their sum (the run's, or
    the thread's) and the limits per record across the thread. Every amount is read by
    :func:`policies.amounts.amount_value`; one a cap cannot read is asked. A ``NumberArg`` declares
    a number: a text (a decimal string too) is blocked by it, as anything else that is none."""
    args: Mapping[str, Any] = action.get("args") or {}
    for rule in rules.number_args:
        value = args.get(rule.arg)
        amount = amount_value(value) if is_number(value) else None  # a number, never a text
        if amount is None:
            return _block(rule.type_reason, arg=rule.arg)
        kept = rounded(amount, rule.decimals) if rule.decimals is not None else amount
        if kept <= 0:
            return _block(rule.positive_reason, arg=rule.arg, value=value)
        if kept != amount:
            return _revise(action, rule.rounding_reason, {rule.arg: same_form(value, kept)})
    cap = rules.run_cap
    if cap is not None:
        group = sorted(tools_of(name, cap.group)) if cap.group else []
        value = args.get(cap.arg)
        before = context.summed(tools_of(name, cap.group), cap.arg, args, cap.scope, cap.per)
        left = DECIMALS.subtract(Decimal(repr(cap.limit)), before) if before is not None else None
        if left is not None and left <= 0:  # spent: blocked, whatever this call's amount
            return _block(
                cap.exhausted_reason,
                limit=cap.limit,
                **({"scope": "thread"} if cap.scope == "thread" else {}),
                **({"group": group} if group else {}),
            )
        amount = amount_value(value)
        if amount is None:
            return _unreadable(cap.unreadable_reason, cap.arg, value, group)
        if left is None:
            return _unreadable(cap.unreadable_reason, cap.arg, value, group, earlier=True)
        if amount > left:
            return _revise(action, cap.revise_reason, {cap.arg: same_form(value, left)})
    return None


def _thresholds(
    name: str, rules: ToolRules, args: Mapping[str, Any], context: ReviewContext
) -> Decision | None:
    """The first threshold the call (with the calls it sums, when cumulative) goes above: asked; an
    amount it cannot read, this call's or a summed one's, asked too."""
    for threshold in rules.escalate_above:
        value = args.get(threshold.arg)
        group = sorted(tools_of(name, threshold.group)) if threshold.group else []
        amount = amount_value(value)
        if amount is None:
            return _unreadable(threshold.unreadable_reason, threshold.arg, value, group)
        before = (
            context.summed(
                tools_of(name, threshold.group), threshold.arg, args, threshold.scope, threshold.per
            )
            if threshold.cumulative
            else Decimal(0)
        )
        if before is None:
            return _unreadable(threshold.unreadable_reason, threshold.arg, value, group, earlier=True)
        if DECIMALS.add(before, amount) > Decimal(repr(threshold.limit)):
            details = {"arg": threshold.arg, "limit": threshold.limit, "value": value}
            if before:
                details["run_total" if threshold.scope == "run" else "thread_total"] = float(before)
            return Decision("escalate", threshold.reason, details | ({"group": group} if group else {}))
    return None


def _final_identifiers(answer: str, context: ReviewContext, policy: SupervisorPolicy) -> dict[str, str]:
    """Identifiers and names in the answer that appear only in untrusted observations → where."""
    found: dict[str, str] = {}
    if policy.final_identifiers != "allow":
        idents = identifier_origins(answer, context.sources, policy.final_identifier_kinds)
        found |= {
            f"{kind}:{value}": describe(where)
            for (kind, value), where in idents.items()
            if not any(s.admitted_by(["trusted"]) for s in where)
        }
    return found


def _final_review(action: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy) -> Decision:
    """The final answer: after the required tools, and with its links, addresses and account
    numbers (``final_identifiers``) and the names it recommends (``final_entities``) checked: those
    that appear only in untrusted observations are annotated, escalated or blocked."""
    if policy.final_requires_tools and not any(context.succeeded(t) for t in policy.final_requires_tools):
        return _block("final_requires_context", requires=list(policy.final_requires_tools))
    answer = str(action.get("answer"))
    checks = [
        (
            policy.final_identifiers,
            "untrusted_identifier_in_answer",
            _final_identifiers(answer, context, policy),
        ),
    ]
    if policy.final_entities != "allow":
        names = untrusted_names(answer, context.sources)
        checks.append(
            (
                policy.final_entities,
                "untrusted_entity_in_answer",
                {f"name:{n}": describe(w) for n, w in names.items()},
            )
        )
    flagged = [(mode, reason, found) for mode, reason, found in checks if found]
    if not flagged:
        return Decision("approve", "final_answer_allowed")
    strictest = max(flagged, key=lambda c: ("annotate", "escalate", "block").index(c[0]))
    untrusted = {k: v for _m, _r, found in flagged for k, v in found.items()}
    first, origin = next(iter(strictest[2].items()))
    told = flow(first.split(":", 1)[1], origin, "the final answer")
    if strictest[0] == "annotate":
        return Decision("approve", "final_answer_annotated", {"provenance": untrusted, **told})
    return Decision(strictest[0], strictest[1], {"provenance": untrusted, **told})


def review_action(
    action: Mapping[str, Any],
    context: ReviewContext,
    policy: SupervisorPolicy,
    hooks: Mapping[str, CustomRule] | None = None,
) -> Decision:
    """One supervisor review of a validated action: approve, revise (``details["action"]``),
    escalate (``details["arg"]``/``limit`` for thresholds) or block. Where provenance rules
    checked values, the decision's ``details["provenance"]`` says where each came from; a flow rule's
    refusal or escalation says which flow it stopped (``details["flow"]``: value, from, to)."""
    if not context.field_trust and policy.field_trust():
        context = replace(context, field_trust=policy.field_trust())
    if not context.effects and policy.effect_tools():
        context = replace(context, effects=policy.effect_tools())
    if action.get("kind") == "final":
        return _final_review(action, context, policy)
    name = str(action.get("name"))
    return granted(action, _with_mandate(name, action, context, policy, hooks), context, policy)


def _with_mandate(
    name: str,
    action: Mapping[str, Any],
    context: ReviewContext,
    policy: SupervisorPolicy,
    hooks: Mapping[str, CustomRule] | None,
) -> Decision:
    """The review of a call, with the mandate it stands on where its tool's rules need one
    (``ToolRules.requested``): ``details["mandate"]`` is the clause of the request that asks for
    this kind of action ("cancel · the Budget Review"), or None where none does. The audit row and
    the human's approval request show it ("you asked: ...", "no request asked for this")."""
    decision = _review_call(name, action, context, policy, hooks)
    rules = policy.rules_for(name)
    if rules is None or rules.requested is None:
        return decision
    found = mandate(rules.requested, context.request) or conditional_mandate(
        rules.requested, action, context, policy
    )
    return Decision(decision.verdict, decision.reason, {**decision.details, "mandate": found})


def _review_call(
    name: str,
    action: Mapping[str, Any],
    context: ReviewContext,
    policy: SupervisorPolicy,
    hooks: Mapping[str, CustomRule] | None,
) -> Decision:
    rules = policy.rules_for(name)  # its own, and the summed rules of the groups it belongs to
    if rules is None:
        return _block(f"unknown_tool_for_supervisor:{name}")
    args: Mapping[str, Any] = action.get("args") or {}
    decided = _binding(rules, args, context, policy)
    traced = _provenance(name, rules, args, context, policy) if decided is None else {}
    if isinstance(traced, Decision):
        decided, traced = traced, {}
    if decided is None:  # a value the run may use, on a record that must be the subject's
        decided = owned_records(rules, args, context, policy)
    seen = {"provenance": traced} if traced else {}
    if decided is None and not rules.read_only:
        decided = _amounts(action, name, rules, context) or record_limits(name, rules, args, context, policy)
        for default in rules.defaults if decided is None else ():
            present = args.get(default.arg)
            if present is None or (isinstance(present, str) and not present.strip()):
                return _revise(action, default.reason, {default.arg: default.value})
    if decided is None:
        decided = _apply_custom(rules.custom, action, context, hooks or {})
    if decided is not None or rules.read_only:
        return decided or Decision("approve", rules.approve_reason, seen)
    again = repeated(name, rules, args, context, policy)
    if again is not None:
        return Decision(again.verdict, again.reason, {**again.details, **seen})
    above = _thresholds(name, rules, args, context)
    if above is not None:
        return Decision(above.verdict, above.reason, {**above.details, **seen})
    if rules.require_approval:
        asked = rules.requested  # a change or deletion whose kind the request asks for, every value given
        given = (
            authorised(args, context.request, context.calls, policy, context.subject)
            if rules.request_as_approval and asked is not None and requested(asked, context.request)
            else None
        )
        if given is not None:
            said = {"provenance": {**traced, **given}, "approved_by": "request"}
            return Decision("approve", rules.authorised_reason, said)
        return Decision("escalate", rules.approval_reason, seen)
    return Decision("approve", rules.approve_reason, seen)


def action_signature(action: Mapping[str, Any]) -> str:
    """The normalised signature of an action: a tool call's (tool, args), or the final answer's."""
    if action.get("kind") == "final":
        return call_signature("final", {"answer": action.get("answer")})
    return call_signature(str(action.get("name")), action.get("args") or {})


def refused_before(
    action: Mapping[str, Any], refusals: Sequence[Mapping[str, Any]]
) -> Mapping[str, Any] | None:
    """The earlier refusal of this very action (same tool and normalised arguments, or the same
    final answer), if any: a refused action proposed again is refused again, without asking a
    human twice."""
    signature = action_signature(action)
    return next((r for r in refusals if signature in (r.get("signatures") or ())), None)
