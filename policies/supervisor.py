"""Supervisor: the policy, the worker's action contract, and the supervisor's review rules.

The supervisor's rules are data, per tool (:class:`ToolRules`): arguments bound to the run's
subject or to a set of values it lists; a precondition on an earlier successful call; a numeric
argument that must be a positive number (rounded to its decimals, money to the cent); a per-run
cap on a summed argument that revises the amount down to what is left (or blocks when nothing is
left); a missing argument with a default revised in; custom rules, named in the policy and supplied
as pure functions (:data:`CustomRule`) by whoever builds the graph; escalation to a human above a
threshold or for every call. A read-only tool is approved once its binding rules, preconditions
and custom rules pass.

:meth:`SupervisorPolicy.for_tools` starts a policy from a user's tools with neutral defaults; the
refund demo (:func:`demo_policy`) is one instance of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Context, Decimal
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from policies.base import BasePolicy
from policies.decision import Decision
from policies.human import HumanAnswer
from policies.provenance import (
    IdentifierKind,
    Source,
    describe,
    identifier_origins,
    leaf_values,
    normalize_text,
    origins,
    sources_of,
)
from policies.schemas import ArgsModel, model_fields
from policies.tools import ArgSpec, GatewayLimits, ToolSpec, arg_problem, call_signature, is_number

CONTEXT_TOOL, REFUND_TOOL, EMAIL_TOOL = "get_refund_context", "issue_refund", "send_refund_email"
DEMO_TOOLS = (CONTEXT_TOOL, REFUND_TOOL, EMAIL_TOOL)
#: Who approved an escalated action: a person, or the automatic approver standing in for one.
ApprovedBy = Literal["human", "auto_approver"]
#: The decisions a human may give an escalation (LangChain's HITL vocabulary).
HUMAN_DECISIONS = ("approve", "edit", "reject")
#: Exact decimal arithmetic for money and caps: wide enough for any finite float.
_DECIMALS = Context(prec=400)


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
    """A numeric argument that must be a finite number (else block) and positive (else block).
    With ``decimals`` (2 for money), the value is kept to that many places, rounded half up: one
    that rounds to zero is blocked (``positive_reason``), one that rounding changes is revised to
    the rounded value (``rounding_reason``), so what is approved is what the tool receives."""

    arg: str
    type_reason: str = Field(description="Block reason when the value is not a finite number.")
    positive_reason: str = Field(description="Block reason when the value is not above zero.")
    decimals: int | None = Field(None, ge=0, le=12, description="Places kept (2: cents). None: as given.")
    rounding_reason: str = Field("amount_rounded", description="Revise reason when rounding changed it.")


class OneOf(_Rule):
    """The argument must be one of a set: the values the run's subject lists under ``subject_key``
    (say, the account's known payees) and those in ``values``. Strings compare trimmed, with runs
    of whitespace collapsed and case ignored. Otherwise ``verdict`` (block, or escalate to a human)
    with ``reason``. An empty set admits nothing."""

    arg: str
    reason: str
    subject_key: str | None = Field(None, description="The subject's key whose list admits values.")
    values: list[Any] = Field(default_factory=list, description="Values admitted whatever the subject.")
    verdict: Literal["block", "escalate"] = "block"


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


_SOURCE_NAMES = ("request", "subject", "policy", "trusted", "any")
#: The identifiers checked in free text unless a rule names others (amounts are left out: a message
#: may well repeat a figure a tool returned).
TEXT_IDENTIFIERS: tuple[IdentifierKind, ...] = ("url", "email", "iban", "phone")


class _Sourced(_Rule):
    """A provenance rule: where values may come from (see :class:`ArgSource`)."""

    sources: list[str] = Field(min_length=1, description="Where the values may come from.")
    verdict: Literal["block", "escalate"] = "block"

    @field_validator("sources")
    @classmethod
    def _known(cls, names: list[str]) -> list[str]:
        for name in names:
            if name not in _SOURCE_NAMES and not (name.startswith("tool:") and len(name) > 5):
                raise ValueError(f"unknown source {name!r}: use {', '.join(_SOURCE_NAMES)} or tool:<name>")
        return names


class ArgSource(_Sourced):
    """Where an argument's value may come from (every string and number in it, nested ones too),
    traced by :mod:`policies.provenance`: ``request`` (the run's goal), ``subject``, ``policy`` (this
    policy's own constants), ``trusted`` (any of those, or a trusted tool's observation),
    ``tool:<name>`` (that tool's observations) or ``any``. A value none of them holds gets
    ``verdict`` with ``reason``; the details say where it does appear."""

    arg: str
    reason: str = "untrusted_argument"


class IdentifierRule(_Sourced):
    """Identifiers inside free-text arguments (links, addresses, account and phone numbers...)
    must come from ``sources`` (by default: the request, the subject, the policy or a trusted
    tool), so that a link or an address an attacker planted in a page, a message or a file cannot
    be sent on. ``args``: the arguments checked (empty: every argument)."""

    args: list[str] = Field(default_factory=list, description="Arguments checked (empty: all).")
    kinds: list[IdentifierKind] = Field(default_factory=lambda: list(TEXT_IDENTIFIERS))
    sources: list[str] = Field(default_factory=lambda: ["trusted"], min_length=1)
    reason: str = "untrusted_identifier"


class Requested(_Rule):
    """A tool that may run only when the run's request asks for that kind of action: one of
    ``keywords`` must begin a word of the request (``pay`` matches "Pay", "payment"), so an
    instruction found in a document cannot create work the user never asked for."""

    keywords: list[str] = Field(min_length=1)
    verdict: Literal["block", "escalate"] = "block"
    reason: str = "action_not_requested"


class ToolRules(_Rule):
    """The supervisor's rules for one tool, applied in this order: bound arguments, set membership,
    provenance (argument sources, identifiers, the request's ask), preconditions, then — for a
    read-only tool — custom rules and approval; for any other tool numeric checks, run cap,
    defaults, custom rules, escalation thresholds, required approval."""

    bound_args: list[str] = Field(
        default_factory=list,
        description="Arguments that must equal the run's subject (the input's ``subject``) where it "
        "names them: a step cannot act for anyone else (block ``subject_mismatch:<arg>``). Checked first.",
    )
    one_of: list[OneOf] = Field(default_factory=list, description="Arguments limited to a set of values.")
    arg_sources: list[ArgSource] = Field(default_factory=list, description="Where arguments may come from.")
    identifiers: IdentifierRule | None = Field(None, description="Identifiers in free text: from where.")
    requested: Requested | None = Field(None, description="The request must ask for this kind of action.")
    read_only: bool = Field(
        False, description="Reads only: approved (``approve_reason``) once the rules before it pass."
    )
    approve_reason: str = Field("tool_call_allowed", description="Reason of a plain approval.")
    preconditions: list[Precondition] = Field(default_factory=list)
    number_args: list[NumberArg] = Field(default_factory=list)
    run_cap: RunCap | None = None
    defaults: list[ArgDefault] = Field(default_factory=list)
    custom: list[str] = Field(default_factory=list, description="Names of custom rules to apply.")
    escalate_above: list[Threshold] = Field(default_factory=list)
    require_approval: bool = Field(False, description="Every call goes to a human (``approval_reason``).")
    approval_reason: str = Field("approval_required", description="Escalation reason of require_approval.")

    def arg_names(self) -> set[str]:
        """The arguments these rules name (each must be an argument of the tool)."""
        names = {*self.bound_args, *(a for p in self.preconditions for a in p.match_args)}
        names |= {r.arg for r in self.one_of} | {r.arg for r in self.number_args}
        names |= {r.arg for r in self.arg_sources} | set(self.identifiers.args if self.identifiers else ())
        names |= {r.arg for r in self.defaults} | {t.arg for t in self.escalate_above}
        return names | ({self.run_cap.arg} if self.run_cap else set())


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
                    decimals=2,
                    rounding_reason="refund_amount_rounded_to_cents",
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


def tool_names(tools: Iterable[Any] | Mapping[str, Any]) -> list[str]:
    """The names of ``tools``: a mapping's keys, or each item's name (a string, a LangChain tool's
    ``name``, a function's ``__name__``), in order and without repeats."""
    if isinstance(tools, Mapping):
        return [str(name) for name in tools]
    names: list[str] = []
    for tool in tools:
        name = (
            tool if isinstance(tool, str) else getattr(tool, "name", None) or getattr(tool, "__name__", None)
        )
        if not isinstance(name, str) or not name:
            raise ValueError(f"cannot tell the name of tool {tool!r}")
        if name not in names:
            names.append(name)
    return names


class SupervisorPolicy(BasePolicy):
    """Budgets, the tools' governance data and the supervisor's rules.

    The defaults are neutral: no tools, no preconditions on the final answer, a refusal fed back to
    the worker, a raising tool observed. Start from :meth:`for_tools` (a user's tools) or
    :func:`demo_policy` (the refund demo of the spec)."""

    max_seconds: float = Field(
        30.0, gt=0, description="Wall-clock budget; time spent waiting for a human does not count."
    )
    max_steps: int = Field(12, ge=1, description="Most worker proposals in one run.")
    max_tool_calls: int = Field(8, ge=0, description="Most tool calls in one run (calls that raised count).")
    tools: dict[str, ToolSpec] = Field(
        default_factory=dict,
        description="The policy's word on each tool by name: side effects, a narrower argument schema.",
    )
    allowed_tools: list[str] = Field(
        default_factory=list, description="Execution allowlist (deny by default)."
    )
    per_tool_limits: dict[str, int] = Field(
        default_factory=dict, description="Most calls per tool in one run."
    )
    default_per_tool_limit: int | None = Field(
        None, ge=0, description="Per-tool limit of unlisted tools (None: only max_tool_calls)."
    )
    repeat_limits: dict[str, int] = Field(
        default_factory=dict,
        description="Identical calls (same tool, same normalised args) allowed per tool.",
    )
    default_repeat_limit: int = Field(1, ge=1, description="Identical calls allowed for unlisted tools.")
    rules: dict[str, ToolRules] = Field(
        default_factory=dict, description="The supervisor's rules per tool (a tool without is blocked)."
    )
    final_requires_tools: list[str] = Field(
        default_factory=list,
        description="A final answer is blocked (final_requires_context) until one of these succeeded.",
    )
    max_revisions_per_action: int = Field(
        3, ge=1, description="Most supervisor revisions of one proposal (then supervisor_block)."
    )
    on_refusal: Literal["feedback", "stop"] = Field(
        "feedback",
        description="A refused action (blocked, rejected by a human, arguments refused, denied by the "
        "gateway): feedback = recorded and given to the worker as the step's observation, and the "
        "worker proposes its next action; stop = the run ends with the refusal's reason.",
    )
    max_refusals: int = Field(
        3, ge=0, description="Refusals fed back in one run; one more stops (max_refusals)."
    )
    on_tool_error: Literal["observe", "stop"] = Field(
        "observe",
        description="A tool that raises, or returns what is not JSON data: observe = its error's type and "
        "a bounded message become the observation (the call counts against the budgets); stop = the run "
        "ends (tool_error:<tool> / tool_bad_result:<tool>).",
    )
    human_answer_attempts: int = Field(
        3,
        ge=1,
        le=20,
        description="Answers a human may give one escalation: one that does not parse, or whose edit breaks "
        "a rule, is asked again with the problem, up to this many times (then invalid_human_answer).",
    )
    final_identifiers: Literal["allow", "annotate", "escalate", "block"] = Field(
        "allow",
        description="Links, addresses and account numbers (final_identifier_kinds) in the final answer that "
        "appear only in untrusted observations: allow; annotate (the answer says they are unverified); "
        "escalate (a human approves the answer); block (untrusted_identifier_in_answer).",
    )
    final_identifier_kinds: list[IdentifierKind] = Field(
        default_factory=lambda: list(TEXT_IDENTIFIERS),
        description="Identifier kinds final_identifiers checks.",
    )
    auto_approver_enabled: bool = Field(
        False,
        description="Let the automatic approver answer escalations instead of pausing for a human.",
    )
    auto_approver_cap: float = Field(
        800.0, gt=0, description="The automatic approver approves up to this value, editing it down."
    )

    @classmethod
    def for_tools(
        cls,
        tools: Iterable[Any] | Mapping[str, Any],
        /,
        *,
        rules: Mapping[str, ToolRules] | None = None,
        side_effects: Iterable[str] = (),
        **fields: Any,
    ) -> SupervisorPolicy:
        """A policy for ``tools`` (LangChain tools, functions, names, or a ``{name: tool}`` mapping):
        each allowed, each with ``rules[name]`` or plain rules (approve), ``side_effects`` named as
        acting on the world, budgets sized to the tool count; ``fields`` set anything else (``tools``
        entries are merged over the generated ones). A rule or flag for a tool not in ``tools`` is
        an error."""
        names = tool_names(tools)
        rules = dict(rules or {})
        side = list(side_effects)
        stray = [n for n in [*rules, *side] if n not in names]
        if stray:
            raise ValueError(f"rules or side effects for unknown tools: {', '.join(sorted(set(stray)))}")
        specs = {n: ToolSpec(side_effect=n in side) for n in names}
        specs.update(fields.pop("tools", {}) or {})
        data: dict[str, Any] = {
            "tools": specs,
            "allowed_tools": names,
            "rules": {n: rules.get(n, ToolRules()) for n in names},
            "max_tool_calls": max(8, 2 * len(names)),
            **fields,
        }
        refusals = data.get("max_refusals", cls.model_fields["max_refusals"].default)
        data.setdefault("max_steps", int(data["max_tool_calls"]) + int(refusals) + 2)
        return cls.model_validate(data)

    def constants(self) -> list[Any]:
        """The values this policy itself names (allowed values, defaults): a source of provenance."""
        rules = self.rules.values()
        return [
            *(v for r in rules for m in r.one_of for v in m.values),
            *(d.value for r in rules for d in r.defaults),
        ]

    def trusted_tools(self) -> list[str]:
        """The tools whose observations this policy trusts (``ToolSpec.trust``)."""
        return [name for name, spec in self.tools.items() if spec.trust == "trusted"]

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


def demo_policy(**fields: Any) -> SupervisorPolicy:
    """The refund demo's policy (the spec's defaults), with ``fields`` over it: one instance of
    :meth:`SupervisorPolicy.for_tools`. A refusal ends the run and so does a raising tool, as the
    spec says."""
    defaults: dict[str, Any] = {
        "tools": _demo_specs(),
        "side_effects": [REFUND_TOOL, EMAIL_TOOL],
        "max_steps": 8,
        "max_tool_calls": 5,
        "per_tool_limits": {CONTEXT_TOOL: 3, REFUND_TOOL: 2, EMAIL_TOOL: 2},
        "default_per_tool_limit": 2,
        "repeat_limits": {CONTEXT_TOOL: 2},
        "final_requires_tools": [CONTEXT_TOOL],
        "on_refusal": "stop",
        "on_tool_error": "stop",
    }
    settings = {**defaults, **fields}
    rules = settings.pop("rules") if "rules" in settings else _demo_rules()
    return SupervisorPolicy.for_tools(DEMO_TOOLS, rules=rules, **settings)


def policy_problems(
    policy: SupervisorPolicy,
    models: Mapping[str, ArgsModel | None],
    custom_rules: Iterable[str] = (),
) -> list[str]:
    """What in ``policy`` does not fit the registered tools (``models``: name → the tool's own
    argument model) and the custom rules supplied: a tool it names that nobody registered, an
    allowed tool without rules (every call would be blocked), an argument a rule names that the
    tool does not take, a custom rule nobody supplied. Empty when it fits."""
    registered, hooks = set(models), set(custom_rules)
    problems: list[str] = []
    named = {
        "allowed_tools": policy.allowed_tools,
        "tools": list(policy.tools),
        "rules": list(policy.rules),
        "per_tool_limits": list(policy.per_tool_limits),
        "repeat_limits": list(policy.repeat_limits),
        "final_requires_tools": policy.final_requires_tools,
    }
    for rules in policy.rules.values():
        named.setdefault("preconditions", []).extend(p.tool for p in rules.preconditions)
        sources = [
            *(n for r in rules.arg_sources for n in r.sources),
            *(rules.identifiers.sources if rules.identifiers else []),
        ]
        named.setdefault("provenance sources", []).extend(n[5:] for n in sources if n.startswith("tool:"))
    for where, names in named.items():
        for name in sorted(set(names) - registered):
            problems.append(f"{where} names tool {name!r}, which is not registered")
    for name in policy.allowed_tools:
        if name in registered and name not in policy.rules:
            problems.append(f"tool {name!r} is allowed but has no rules, so every call would be blocked")
        spec = policy.tools.get(name)
        if name in registered and models.get(name) is None and (spec is None or spec.json_schema() is None):
            problems.append(f"tool {name!r} declares no argument schema: give the policy's ToolSpec args")
    for name, rules in policy.rules.items():
        for hook in rules.custom:
            if hook not in hooks:
                problems.append(f"rules of {name!r} name custom rule {hook!r}, which is not supplied")
        if name not in registered:
            continue
        known = _arg_names(name, policy, models)
        for arg in sorted(rules.arg_names() - known) if known is not None else ():
            problems.append(f"rules of {name!r} name argument {arg!r}, which the tool does not take")
    return problems


def _arg_names(
    name: str, policy: SupervisorPolicy, models: Mapping[str, ArgsModel | None]
) -> set[str] | None:
    spec = policy.tools.get(name)
    declared = spec.args_model(name) if spec is not None else None
    own = models.get(name)
    found = [model_fields(m) for m in (declared, own) if m is not None]
    return set().union(*found) if found else None


# --------------------------------------------------------------------------- action contract

#: Refusals of one well-formed action (by the argument checks, the gateway, the supervisor or a
#: human), which ``on_refusal: feedback`` gives back to the worker. A malformed reply and a spent
#: budget end the run whatever the policy says.
_REFUSALS = (
    "invalid_action:unknown_tool:",
    "invalid_action:extra_tool_args:",
    "invalid_action:missing_required_arg:",
    "invalid_action:bad_arg_type:",
    "supervisor_block:",
    "human_rejected",
    "tool_denied:",
    "tool_missing:",
    "tool_bad_args:",
    "loop_detected:",
)


def is_refusal(reason: str) -> bool:
    """Is ``reason`` the refusal of one action (which the worker can be told of and go on)?"""
    return reason.startswith(_REFUSALS)


def validate_action(
    raw: Any, policy: SupervisorPolicy, models: Mapping[str, ArgsModel | None] | None = None
) -> Decision:
    """The worker's reply against the action contract; a tool's arguments against the policy's
    schema for it, or else the tool's own (``models``). On success ``details["action"]`` is the action:
    ``{"kind": "tool", "name", "args"}`` or ``{"kind": "final", "answer"}``."""
    models = models or {}
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
    if name not in policy.tools and name not in models:
        return Decision.stop(f"invalid_action:unknown_tool:{name}")
    spec = policy.tools.get(name)
    # the policy's schema, where it declares one, says what the worker may propose (a rule may
    # still add an argument, such as a default); the gateway checks the tool's own before the call
    declared = spec is not None and spec.json_schema() is not None
    problem = arg_problem(name, args, spec=spec, model=None if declared else models.get(name))
    if problem is not None:
        kind_, arg, detail = problem
        if kind_ == "extra":
            return Decision.stop(f"invalid_action:extra_tool_args:{name}", arg=arg)
        if kind_ == "missing":
            return Decision.stop(f"invalid_action:missing_required_arg:{name}:{arg}")
        return Decision.stop(f"invalid_action:bad_arg_type:{name}:{arg}", problem=detail)
    return Decision.allow(action={"kind": "tool", "name": name, "args": dict(args)})


# --------------------------------------------------------------------------- review


def _decimal(value: int | float | Decimal) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


def _rounded(value: int | float, places: int) -> Decimal:
    return _decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=_DECIMALS)


def _same(value: Any) -> tuple[bool, Any]:
    """A value as set membership compares it: strings trimmed, whitespace collapsed, case folded;
    a boolean never equal to a number."""
    text = " ".join(value.split()).casefold() if isinstance(value, str) else value
    return (isinstance(value, bool), text)


@dataclass(frozen=True)
class ReviewContext:
    """What the supervisor knows of the run: its request (the input's ``goal``), its subject (the
    input's ``subject``: whom the run acts for, e.g. ``{"user_id": 42}``) and its executed calls
    (``step``, ``tool``, ``args``, ``ok``, ``observation``), oldest first."""

    calls: tuple[Mapping[str, Any], ...] = ()
    subject: Mapping[str, Any] = field(default_factory=dict)
    request: str = ""
    #: tools whose observations the policy trusts, and the policy's own constants (provenance)
    trusted: frozenset[str] = frozenset()
    constants: tuple[Any, ...] = ()

    @cached_property
    def sources(self) -> list[Source]:
        """Where argument values can come from: request, subject, policy, each call's observation."""
        return sources_of(
            self.request, self.subject, self.calls, trusted_tools=self.trusted, constants=list(self.constants)
        )

    def succeeded(self, tool: str, args: Mapping[str, Any] | None = None) -> bool:
        """Did ``tool`` succeed in this run (with these values of ``args``, when given)?"""
        return any(
            c.get("tool") == tool
            and c.get("ok")
            and all((c.get("args") or {}).get(k) == v for k, v in (args or {}).items())
            for c in self.calls
        )

    def total(self, tool: str, arg: str) -> Decimal:
        """The exact sum of numeric ``arg`` over the tool's successful calls."""
        values = (c.get("args", {}).get(arg) for c in self.calls if c.get("tool") == tool and c.get("ok"))
        return sum((_decimal(v) for v in values if is_number(v)), Decimal(0))

    def admits(self, rule: OneOf, value: Any) -> bool:
        """Is ``value`` in ``rule``'s set (its ``values`` and the subject's list under its key)?"""
        listed = self.subject.get(rule.subject_key) if rule.subject_key else None
        pool = [*rule.values, *(listed if isinstance(listed, list) else [])]
        return any(_same(v) == _same(value) for v in pool)


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


def _binding(rules: ToolRules, args: Mapping[str, Any], context: ReviewContext) -> Decision | None:
    """Bound arguments, set membership and preconditions: what every tool's call must meet."""
    for arg in rules.bound_args:
        if arg in context.subject and args.get(arg) != context.subject[arg]:
            return _block(
                f"subject_mismatch:{arg}", arg=arg, expected=context.subject[arg], value=args.get(arg)
            )
    for member in rules.one_of:
        value = args.get(member.arg)
        if member.arg in args and not context.admits(member, value):
            return Decision(member.verdict, member.reason, {"arg": member.arg, "value": value})
    for pre in rules.preconditions:
        if not context.succeeded(pre.tool, {k: args.get(k) for k in pre.match_args}):
            return _block(pre.reason, requires=pre.tool, match_args=list(pre.match_args))
    return None


def _provenance(
    rules: ToolRules, args: Mapping[str, Any], context: ReviewContext
) -> Decision | dict[str, str]:
    """The provenance rules: where each ruled argument's values and each identifier in free text
    came from, and whether the request asks for this kind of action. A rule that fails gives its
    decision (details: where the value does appear); else where each checked value came from."""
    checked: dict[str, str] = {}
    for rule in rules.arg_sources:
        for value in leaf_values(args.get(rule.arg)):
            found = origins(value, context.sources)
            checked[rule.arg] = describe(found)
            if not any(s.admitted_by(rule.sources) for s in found):
                details = {"arg": rule.arg, "value": value, "allowed_sources": list(rule.sources)}
                where = {"provenance": {rule.arg: checked[rule.arg]}}
                return Decision(rule.verdict, rule.reason, {**details, **where})
    if rules.identifiers is not None:
        refused = _free_text(rules.identifiers, args, context, checked)
        if refused is not None:
            return refused
    asked = rules.requested
    if asked is not None and not any(_asks(context.request, word) for word in asked.keywords):
        return Decision(asked.verdict, asked.reason, {"keywords": list(asked.keywords)})
    return checked


def _free_text(
    rule: IdentifierRule, args: Mapping[str, Any], context: ReviewContext, checked: dict[str, str]
) -> Decision | None:
    """Each identifier in the rule's text arguments must come from one of its sources."""
    for name in rule.args or list(args):
        for text in (v for v in leaf_values(args.get(name)) if isinstance(v, str)):
            for (kind, value), found in identifier_origins(text, context.sources, rule.kinds).items():
                label = f"{name}:{value}"
                checked[label] = describe(found)
                if not any(s.admitted_by(rule.sources) for s in found):
                    details = {"arg": name, "kind": kind, "identifier": value}
                    return Decision(
                        rule.verdict, rule.reason, {**details, "provenance": {label: checked[label]}}
                    )
    return None


def _asks(request: str, keyword: str) -> bool:
    """Does a word of ``request`` begin with ``keyword`` (case and spacing ignored)?"""
    return re.search(rf"(?<!\w){re.escape(normalize_text(keyword))}", normalize_text(request)) is not None


def _amounts(
    action: Mapping[str, Any], name: str, rules: ToolRules, context: ReviewContext
) -> Decision | None:
    """Numeric arguments (finite, positive, to their decimals) and the run's cap on their sum."""
    args: Mapping[str, Any] = action.get("args") or {}
    for rule in rules.number_args:
        value = args.get(rule.arg)
        if not is_number(value):
            return _block(rule.type_reason, arg=rule.arg)
        kept = _rounded(value, rule.decimals) if rule.decimals is not None else _decimal(value)
        if kept <= 0:
            return _block(rule.positive_reason, arg=rule.arg, value=value)
        if kept != _decimal(value):
            return _revise(action, rule.rounding_reason, {rule.arg: float(kept)})
    cap = rules.run_cap
    if cap is None:
        return None
    left = _decimal(cap.limit) - context.total(name, cap.arg)
    value = args.get(cap.arg)
    if left <= 0:
        return _block(cap.exhausted_reason, limit=cap.limit)
    if is_number(value) and _decimal(value) > left:
        return _revise(action, cap.revise_reason, {cap.arg: float(left)})
    return None


def _final_review(action: Mapping[str, Any], context: ReviewContext, policy: SupervisorPolicy) -> Decision:
    """The final answer: after the required tools, and with its links, addresses and account
    numbers checked where ``final_identifiers`` asks (those that appear only in untrusted
    observations: annotate, escalate or block)."""
    if policy.final_requires_tools and not any(context.succeeded(t) for t in policy.final_requires_tools):
        return _block("final_requires_context", requires=list(policy.final_requires_tools))
    if policy.final_identifiers == "allow":
        return Decision("approve", "final_answer_allowed")
    found = identifier_origins(str(action.get("answer")), context.sources, policy.final_identifier_kinds)
    untrusted = {
        f"{kind}:{value}": describe(where)
        for (kind, value), where in found.items()
        if not any(s.admitted_by(["trusted"]) for s in where)
    }
    if not untrusted:
        return Decision("approve", "final_answer_allowed")
    if policy.final_identifiers == "annotate":
        return Decision("approve", "final_answer_annotated", {"provenance": untrusted})
    return Decision(
        "block" if policy.final_identifiers == "block" else "escalate",
        "untrusted_identifier_in_answer",
        {"provenance": untrusted},
    )


def review_action(
    action: Mapping[str, Any],
    context: ReviewContext,
    policy: SupervisorPolicy,
    hooks: Mapping[str, CustomRule] | None = None,
) -> Decision:
    """One supervisor review of a validated action: approve, revise (``details["action"]``),
    escalate (``details["arg"]``/``limit`` for thresholds) or block. Where provenance rules
    checked values, the decision's ``details["provenance"]`` says where each came from."""
    if action.get("kind") == "final":
        return _final_review(action, context, policy)
    name = str(action.get("name"))
    rules = policy.rules.get(name)
    if rules is None:
        return _block(f"unknown_tool_for_supervisor:{name}")
    args: Mapping[str, Any] = action.get("args") or {}
    decided = _binding(rules, args, context)
    traced = _provenance(rules, args, context) if decided is None else {}
    if isinstance(traced, Decision):
        decided, traced = traced, {}
    seen = {"provenance": traced} if traced else {}
    if decided is None and not rules.read_only:
        decided = _amounts(action, name, rules, context)
        for default in rules.defaults if decided is None else ():
            present = args.get(default.arg)
            if present is None or (isinstance(present, str) and not present.strip()):
                return _revise(action, default.reason, {default.arg: default.value})
    if decided is None:
        decided = _apply_custom(rules.custom, action, context, hooks or {})
    if decided is not None or rules.read_only:
        return decided or Decision("approve", rules.approve_reason, seen)
    for threshold in rules.escalate_above:
        value = args.get(threshold.arg)
        before = context.total(name, threshold.arg) if threshold.cumulative else Decimal(0)
        if is_number(value) and before + _decimal(value) > _decimal(threshold.limit):
            details = {"arg": threshold.arg, "limit": threshold.limit, "value": value}
            if before:
                details["run_total"] = float(before)
            return Decision("escalate", threshold.reason, {**details, **seen})
    if rules.require_approval:
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


# --------------------------------------------------------------------------- human approval


def approval_answers(action: Mapping[str, Any], arg: str | None = None) -> list[dict[str, Any]]:
    """What the human may answer (LangChain HITL vocabulary: approve / edit / reject)."""
    edit = {arg or "<arg>": "<new value>"}
    return [
        {"type": "approve"},
        {"type": "edit", "edited_action": {"name": action.get("name"), "args": edit}},
        {"type": "reject", "message": "<why>"},
    ]


def rule_details(review: Mapping[str, Any]) -> dict[str, Any]:
    """A review row's details: what the rule that decided reported (not the revised action)."""
    return {k: v for k, v in review.items() if k not in ("decision", "reason", "action", "changes")}


#: The name a final answer goes by in an approval request (its one argument: ``answer``).
FINAL_ANSWER = "final_answer"


def hitl_action(action: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """An action as LangChain's HITL request names it: a tool call, or the final answer."""
    if action.get("kind") == "final":
        return FINAL_ANSWER, {"answer": action.get("answer")}
    return str(action.get("name")), dict(action.get("args") or {})


def escalation_text(action: Mapping[str, Any], review: Mapping[str, Any]) -> str:
    """For the human: the call, why the supervisor asks, and where checked values came from."""
    details = rule_details(review)
    where = details.pop("provenance", None) or {}
    said = ", ".join(f"{k}={v}" for k, v in details.items())
    text = f"{hitl_action(action)[0]} needs approval: {review.get('reason')}" + (f" ({said})" if said else "")
    return text + "".join(f"; {name} {origin}" for name, origin in where.items())


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
    if not is_number(value):
        return {"type": "reject", "message": "auto approver: no numeric argument to approve"}
    if value <= cap:
        return {"type": "approve", "message": f"auto approver: within {cap:g}"}
    edited = {"name": action.get("name"), "args": {**action["args"], arg: cap}}
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


def approved_action(
    answer: HumanAnswer,
    action: Mapping[str, Any],
    policy: SupervisorPolicy,
    context: ReviewContext | None = None,
    hooks: Mapping[str, CustomRule] | None = None,
    models: Mapping[str, ArgsModel | None] | None = None,
) -> Decision:
    """The action a human's approve/edit answer leaves, validated against the tool's contract.
    An edit may change arguments (``edited_action.args`` or ``args``), never the tool.

    With the run's ``context``, an edited action must also pass the supervisor's rules: the human
    answers the escalation, not the hard rules. A rule that blocks it gives a ``block`` decision
    (its reason); one that would revise it (say, above what is left of the run's cap) stops with
    ``invalid_human_answer``, since the edit could not run as the human left it."""
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
    checked = validate_action({"kind": "tool", "name": name, "args": merged}, policy, models)
    if not checked.passed:
        detail = checked.details.get("problem")
        problem = checked.reason + (f": {detail}" if detail else "")
        return Decision.stop("invalid_human_answer", problem=problem)
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
