"""Supervisor: the policy, the worker's action contract, and the supervisor's review rules.

The supervisor's rules are data, per tool (:class:`ToolRules`): read-only tools are approved; a
precondition on an earlier successful call blocks; a numeric argument must be a positive number;
a per-run cap on a summed argument revises the amount down to what is left (or blocks when nothing
is left); a missing argument with a default is revised in; a numeric argument above a threshold is
escalated to a human. Custom rules are named in the policy and supplied as pure functions
(:data:`CustomRule`) by whoever builds the graph. The refund demo is one configuration of this.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from policies.base import BasePolicy
from policies.decision import Decision
from policies.human import HumanAnswer
from policies.tools import ArgSpec, GatewayLimits, ToolSpec, arg_problem, is_number

CONTEXT_TOOL, REFUND_TOOL, EMAIL_TOOL = "get_refund_context", "issue_refund", "send_refund_email"


# --------------------------------------------------------------------------- rules as data


class _Rule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Precondition(_Rule):
    """Block unless ``tool`` was called successfully earlier in the run (with the same values of
    ``match_args``, when it names any: a confirmation email confirms *that* refund)."""

    tool: str = Field(description="The tool that must have succeeded before.")
    reason: str = Field(description="Block reason when it has not.")
    match_args: list[str] = Field(
        default_factory=list, description="Arguments the earlier call must have had the same values of."
    )


class NumberArg(_Rule):
    """A numeric argument that must be a finite number (else block) and positive (else block)."""

    arg: str
    type_reason: str = Field(description="Block reason when the value is not a finite number.")
    positive_reason: str = Field(description="Block reason when the value is not above zero.")


class RunCap(_Rule):
    """A per-run cap on the sum of ``arg`` over the tool's successful calls."""

    arg: str
    limit: float = Field(gt=0, description="Most the argument may add up to in one run.")
    exhausted_reason: str = Field(description="Block reason when nothing is left.")
    revise_reason: str = Field(description="Revise reason when the value is capped to what is left.")


class ArgDefault(_Rule):
    """A missing argument that the supervisor fills in (a revision)."""

    arg: str
    value: Any
    reason: str


class Threshold(_Rule):
    """Escalate to a human when numeric ``arg`` is above ``limit`` (``cumulative``: when the run's
    successful calls of the tool and this one add up to more, so that splitting an action into
    parts below the limit does not avoid the human)."""

    arg: str
    limit: float
    reason: str
    cumulative: bool = False


class ToolRules(_Rule):
    """The supervisor's rules for one tool, applied in this order: bound arguments, read-only
    approve, preconditions, numeric checks, run cap, defaults, custom rules, escalation thresholds."""

    bound_args: list[str] = Field(
        default_factory=list,
        description="Arguments that must equal the run's subject (the input's ``subject``) where it "
        "names them: a step cannot act for anyone else (block ``subject_mismatch:<arg>``). Checked first.",
    )
    read_only: bool = Field(False, description="Approve at once (reason ``approve_reason``).")
    approve_reason: str = Field("tool_call_allowed", description="Reason of a plain approval.")
    preconditions: list[Precondition] = Field(default_factory=list)
    number_args: list[NumberArg] = Field(default_factory=list)
    run_cap: RunCap | None = None
    defaults: list[ArgDefault] = Field(default_factory=list)
    custom: list[str] = Field(default_factory=list, description="Names of custom rules to apply.")
    escalate_above: list[Threshold] = Field(default_factory=list)


def _demo_specs() -> dict[str, ToolSpec]:
    return {
        CONTEXT_TOOL: ToolSpec(args={"user_id": ArgSpec(type="int")}),
        REFUND_TOOL: ToolSpec(
            args={
                "user_id": ArgSpec(type="int"),
                "amount_usd": ArgSpec(type="number"),
                "reason": ArgSpec(type="str", required=False),
            },
            side_effect=True,
        ),
        EMAIL_TOOL: ToolSpec(
            args={
                "user_id": ArgSpec(type="int"),
                "amount_usd": ArgSpec(type="number"),
                "message": ArgSpec(type="str"),
            },
            side_effect=True,
        ),
    }


def _demo_rules() -> dict[str, ToolRules]:
    return {
        CONTEXT_TOOL: ToolRules(bound_args=["user_id"], read_only=True, approve_reason="read_only_context"),
        REFUND_TOOL: ToolRules(
            bound_args=["user_id"],
            approve_reason="refund_within_auto_limit",
            number_args=[
                NumberArg(
                    arg="amount_usd",
                    type_reason="invalid_refund_amount_type",
                    positive_reason="invalid_refund_amount",
                )
            ],
            run_cap=RunCap(
                arg="amount_usd",
                limit=2000.0,
                exhausted_reason="refund_budget_exhausted",
                revise_reason="cap_to_remaining_run_budget",
            ),
            defaults=[
                ArgDefault(
                    arg="reason",
                    value="Customer refund request reviewed under supervisor policy",
                    reason="refund_reason_required",
                )
            ],
            escalate_above=[
                Threshold(
                    arg="amount_usd", limit=1000.0, reason="high_refund_requires_human", cumulative=True
                )
            ],
        ),
        EMAIL_TOOL: ToolRules(
            bound_args=["user_id"],
            approve_reason="email_after_refund",
            preconditions=[
                Precondition(
                    tool=REFUND_TOOL, reason="email_before_refund", match_args=["user_id", "amount_usd"]
                )
            ],
        ),
    }


class SupervisorPolicy(BasePolicy):
    """Budgets, the tool contract and the supervisor's rules (defaults: the refund demo)."""

    max_seconds: float = Field(
        30.0, gt=0, description="Wall-clock budget; time spent waiting for a human does not count."
    )
    max_steps: int = Field(8, ge=1, description="Most worker proposals in one run.")
    max_tool_calls: int = Field(5, ge=0, description="Most tool calls in one run.")
    tools: dict[str, ToolSpec] = Field(
        default_factory=_demo_specs, description="Tool contracts (argument schemas) the worker may name."
    )
    allowed_tools: list[str] = Field(
        default_factory=lambda: [CONTEXT_TOOL, REFUND_TOOL, EMAIL_TOOL],
        description="Execution allowlist (deny by default).",
    )
    per_tool_limits: dict[str, int] = Field(
        default_factory=lambda: {CONTEXT_TOOL: 3, REFUND_TOOL: 2, EMAIL_TOOL: 2},
        description="Most calls per tool in one run.",
    )
    default_per_tool_limit: int = Field(2, ge=0, description="Per-tool limit of unlisted tools.")
    repeat_limits: dict[str, int] = Field(
        default_factory=lambda: {CONTEXT_TOOL: 2},
        description="Identical calls (same tool, same normalised args) allowed per tool.",
    )
    default_repeat_limit: int = Field(1, ge=1, description="Identical calls allowed for unlisted tools.")
    rules: dict[str, ToolRules] = Field(
        default_factory=_demo_rules, description="The supervisor's rules per tool."
    )
    final_requires_tools: list[str] = Field(
        default_factory=lambda: [CONTEXT_TOOL],
        description="A final answer is blocked (final_requires_context) until one of these succeeded.",
    )
    max_revisions_per_action: int = Field(
        3, ge=1, description="Most supervisor revisions of one proposal (then supervisor_block)."
    )
    auto_approver_enabled: bool = Field(
        False,
        description="Let the automatic approver answer escalations instead of pausing for a human.",
    )
    auto_approver_cap: float = Field(
        800.0, gt=0, description="The automatic approver approves up to this value, editing it down."
    )

    def gateway_limits(self) -> GatewayLimits:
        return GatewayLimits(
            max_tool_calls=self.max_tool_calls,
            allowed_tools=list(self.allowed_tools),
            per_tool_limits=dict(self.per_tool_limits),
            default_per_tool_limit=self.default_per_tool_limit,
            repeat_limits=dict(self.repeat_limits),
            default_repeat_limit=self.default_repeat_limit,
            detailed_loop_reasons=True,
        )


# --------------------------------------------------------------------------- action contract


def validate_action(raw: Any, policy: SupervisorPolicy) -> Decision:
    """The worker's reply against the action contract. On success ``details["action"]`` is the
    action: ``{"kind": "tool", "name", "args"}`` or ``{"kind": "final", "answer"}``."""
    if not isinstance(raw, dict):
        return Decision.stop("invalid_action:not_object")
    kind = raw.get("kind")
    if kind == "final":
        if set(raw) - {"kind", "answer"}:
            return Decision.stop("invalid_action:extra_keys_final")
        answer = raw.get("answer")
        if not isinstance(answer, str) or not answer.strip():
            return Decision.stop("invalid_action:bad_final_answer")
        return Decision.allow(action={"kind": "final", "answer": answer.strip()})
    if kind != "tool":
        return Decision.stop("invalid_action:bad_kind")
    if set(raw) - {"kind", "name", "args"}:
        return Decision.stop("invalid_action:extra_keys_tool")
    name, args = raw.get("name"), raw.get("args")
    if not isinstance(name, str) or not name.strip():
        return Decision.stop("invalid_action:bad_tool_name")
    if not isinstance(args, dict):
        return Decision.stop("invalid_action:bad_tool_args")
    spec = policy.tools.get(name)
    if spec is None:
        return Decision.stop(f"invalid_action:unknown_tool:{name}")
    problem = arg_problem(spec, args)
    if problem is not None:
        kind_, arg = problem
        if kind_ == "extra":
            return Decision.stop(f"invalid_action:extra_tool_args:{name}", arg=arg)
        if kind_ == "missing":
            return Decision.stop(f"invalid_action:missing_required_arg:{name}:{arg}")
        return Decision.stop(f"invalid_action:bad_arg_type:{name}:{arg}")
    return Decision.allow(action={"kind": "tool", "name": name, "args": dict(args)})


# --------------------------------------------------------------------------- review


@dataclass(frozen=True)
class ReviewContext:
    """What the supervisor knows of the run: its executed calls (``tool``, ``args``, ``ok``) and
    its subject (the input's ``subject``: whom the run acts for, e.g. ``{"user_id": 42}``)."""

    calls: tuple[Mapping[str, Any], ...] = ()
    subject: Mapping[str, Any] = field(default_factory=dict)

    def succeeded(self, tool: str, args: Mapping[str, Any] | None = None) -> bool:
        """Did ``tool`` succeed in this run (with these values of ``args``, when given)?"""
        return any(
            c.get("tool") == tool
            and c.get("ok")
            and all((c.get("args") or {}).get(k) == v for k, v in (args or {}).items())
            for c in self.calls
        )

    def total(self, tool: str, arg: str) -> float:
        values = (c.get("args", {}).get(arg) for c in self.calls if c.get("tool") == tool and c.get("ok"))
        return float(sum(v for v in values if is_number(v)))


#: A custom rule: ``(action, context) -> Decision | None`` (None: no opinion). Its Decision's
#: verdict is approve / revise (``details["action"]`` the revised action) / escalate / block.
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
            return decision
    return None


def review_action(
    action: Mapping[str, Any],
    context: ReviewContext,
    policy: SupervisorPolicy,
    hooks: Mapping[str, CustomRule] | None = None,
) -> Decision:
    """One supervisor review of a validated action: approve, revise (``details["action"]``),
    escalate (``details["arg"]``/``limit`` for thresholds) or block."""
    if action.get("kind") == "final":
        if policy.final_requires_tools and not any(context.succeeded(t) for t in policy.final_requires_tools):
            return _block("final_requires_context")
        return Decision("approve", "final_answer_allowed")
    name = str(action.get("name"))
    rules = policy.rules.get(name)
    if rules is None:
        return _block(f"unknown_tool_for_supervisor:{name}")
    args: Mapping[str, Any] = action.get("args") or {}
    for arg in rules.bound_args:
        if arg in context.subject and args.get(arg) != context.subject[arg]:
            return _block(
                f"subject_mismatch:{arg}", arg=arg, expected=context.subject[arg], value=args.get(arg)
            )
    if rules.read_only:
        return Decision("approve", rules.approve_reason)
    for pre in rules.preconditions:
        if not context.succeeded(pre.tool, {k: args.get(k) for k in pre.match_args}):
            return _block(pre.reason, requires=pre.tool, match_args=list(pre.match_args))
    for rule in rules.number_args:
        value = args.get(rule.arg)
        if not is_number(value):
            return _block(rule.type_reason, arg=rule.arg)
        if value <= 0:
            return _block(rule.positive_reason, arg=rule.arg, value=value)
    if rules.run_cap is not None:
        cap = rules.run_cap
        left = round(cap.limit - context.total(name, cap.arg), 2)
        value = args.get(cap.arg)
        if left <= 0:
            return _block(cap.exhausted_reason, limit=cap.limit)
        if is_number(value) and value > left:
            return _revise(action, cap.revise_reason, {cap.arg: left})
    for default in rules.defaults:
        present = args.get(default.arg)
        if present is None or (isinstance(present, str) and not present.strip()):
            return _revise(action, default.reason, {default.arg: default.value})
    custom = _apply_custom(rules.custom, action, context, hooks or {})
    if custom is not None:
        return custom
    for threshold in rules.escalate_above:
        value = args.get(threshold.arg)
        before = context.total(name, threshold.arg) if threshold.cumulative else 0.0
        if is_number(value) and before + value > threshold.limit:
            details = {"arg": threshold.arg, "limit": threshold.limit, "value": value}
            return Decision(
                "escalate", threshold.reason, {**details, **({"run_total": before} if before else {})}
            )
    return Decision("approve", rules.approve_reason)


# --------------------------------------------------------------------------- human approval


def approval_answers(action: Mapping[str, Any], arg: str | None = None) -> list[dict[str, Any]]:
    """What the human may answer (LangChain HITL vocabulary: approve / edit / reject)."""
    edit = {arg or "<arg>": "<new value>"}
    return [
        {"type": "approve"},
        {"type": "edit", "edited_action": {"name": action.get("name"), "args": edit}},
        {"type": "reject", "message": "<why>"},
    ]


def auto_approve(request: Mapping[str, Any], cap: float) -> dict[str, Any]:
    """The automatic approver's answer to an approval request: approve a numeric escalated
    argument up to ``cap`` (editing it down when it is above), reject anything else."""
    action = request.get("action") or {}
    arg = (request.get("details") or {}).get("arg")
    value = (action.get("args") or {}).get(arg) if isinstance(arg, str) else None
    if not is_number(value):
        return {"type": "reject", "message": "auto approver: no numeric argument to approve"}
    if value <= cap:
        return {"type": "approve", "message": f"auto approver: within {cap:g}"}
    edited = {"name": action.get("name"), "args": {**action["args"], arg: cap}}
    return {"type": "edit", "edited_action": edited, "message": f"auto approver: capped to {cap:g}"}


def approved_action(
    answer: HumanAnswer,
    action: Mapping[str, Any],
    policy: SupervisorPolicy,
    context: ReviewContext | None = None,
    hooks: Mapping[str, CustomRule] | None = None,
) -> Decision:
    """The action a human's approve/edit answer leaves, validated against the tool's contract.
    An edit may change arguments (``edited_action.args`` or ``args``), never the tool.

    With the run's ``context``, an edited action must also pass the supervisor's rules: the human
    answers the escalation, not the hard rules. A rule that blocks it gives a ``block`` decision
    (its reason); one that would revise it (say, above what is left of the run's cap) stops with
    ``invalid_human_answer``, since the edit could not run as the human left it."""
    if answer.type == "approve":
        return Decision.allow("original", action=dict(action))
    edited = answer.edits.get("edited_action", answer.edits)
    if not isinstance(edited, dict):
        return Decision.stop("invalid_human_answer")
    name = edited.get("name", action.get("name"))
    args = edited.get("args")
    if name != action.get("name") or not isinstance(args, dict):
        return Decision.stop("invalid_human_answer")
    merged = {**action.get("args", {}), **args}
    checked = validate_action({"kind": "tool", "name": name, "args": merged}, policy)
    if not checked.passed:
        return Decision.stop("invalid_human_answer", problem=checked.reason)
    new = checked.details["action"]
    if new == dict(action):
        return Decision.allow("original", action=new)
    if context is not None:
        review = review_action(new, context, policy, hooks)
        if review.verdict == "block":
            return review
        if review.verdict == "revise":
            return Decision.stop("invalid_human_answer", problem=review.reason)
    return Decision.allow("human_revised", action=new)
