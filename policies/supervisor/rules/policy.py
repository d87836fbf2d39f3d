"""The Supervisor's policy: budgets, the tools' governance data and the rules per tool
(:class:`SupervisorPolicy`, :meth:`SupervisorPolicy.for_tools`), and :func:`policy_problems`, what in
a policy does not fit the tools it is built with."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import Field, model_validator

from policies.base import BasePolicy
from policies.schemas import ArgsModel, model_fields
from policies.supervisor.reading.values import IdentifierKind
from policies.supervisor.reading.words import field_word, generic_field
from policies.supervisor.rules.cedar import parse_cedar
from policies.supervisor.rules.kinds import (
    SHADOW_CHECKS,
    TEXT_IDENTIFIERS,
    Confidentiality,
    Destinations,
    Follow,
    RunCap,
    Threshold,
    ToolRules,
    named_tools,
)
from policies.supervisor.rules.thread import RecordLimit
from policies.tools import GatewayLimits, ToolSpec


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
    max_audit_chars: int | None = Field(
        65536,
        ge=0,
        description="Longest observation (as text: a tool's text, else its JSON) a call or history row "
        "keeps whole; a longer one is kept by reference (truncated, its sha256, chars, its first 2000 "
        "characters). The model reads the whole result, and so does the review (from the conversation). "
        "None: always whole.",
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
    default_verdict: Literal["block", "escalate"] = Field(
        "block",
        description="The verdict of a rule that does not name one (ArgSource, IdentifierRule, Requested, "
        "OneOf, Destinations, Confidentiality): an escalate-first policy says escalate once.",
    )
    destinations: Destinations | None = Field(
        None,
        description="Destination arguments (URLs, domains, addresses) of any tool, reads included, only "
        "from these sources (None: not checked).",
    )
    confidentiality: Confidentiality = Field(
        default_factory=Confidentiality,
        description="Where values of sensitive fields (ToolSpec.sensitive) may flow (its readers).",
    )
    final_entities: Literal["allow", "annotate", "escalate", "block"] = Field(
        "allow",
        description="Names (capitalised phrases, quoted titles, product codes) in the final answer that "
        "appear only in untrusted observations, never in the request or a trusted source: allow, annotate, "
        "escalate or block (untrusted_entity_in_answer). A heuristic: see docs/own-agent.md for its limits.",
    )
    follow: list[Follow] = Field(
        default_factory=list,
        description="Requested following: values taken from tool data (a link in a named message, the "
        "sender to reply to, a named meeting's attendees) admitted where the request asks for exactly "
        "that step, by every provenance rule of the arguments each names.",
    )
    replies: Literal["agents", "as_read"] = Field(
        "agents",
        description="A reply the turn leaves the words of (Reply to Carla, Answer the customer). agents: "
        "the agent words it, with what it knows beside what was read, never against what was read (a "
        "question read answered for the user, a negation added: said_otherwise) and never for the user "
        "where neither the turn nor a statement read does (a commitment, the user's act or decision, a "
        "directive to the recipient, an answer to the recipient's own yes-or-no question: "
        "said_for_the_user). as_read: every clause of it is held to what was read, as an answer to a "
        "question put is (a claim no record states: unsaid_in_the_message).",
    )
    approval_grants: Literal["turn", "off"] = Field(
        "turn",
        description="One ask per task: a human who approves an escalated step grants, for the rest of the "
        "turn, the same kind of step (tool and reason) whose values come from the same places; off: "
        "every escalation asks. Thresholds, confidential values and custom rules always ask.",
    )
    worker_protocol: Literal["auto", "native", "json"] = Field(
        "auto",
        description="How the worker proposes actions: native = the model's own tool calling (bind_tools, "
        "AIMessage.tool_calls); json = one JSON action in text; auto = native when the chat model "
        "implements bind_tools, else json.",
    )
    mode: Literal["enforce", "shadow"] = Field(
        "enforce",
        description="enforce: the rules decide. shadow: every rule is computed and recorded, none "
        "enforced (as ``ToolRules.shadow=True`` for every tool, and the final answer's checks too): the "
        "review row, trace and audit say what the policy would have refused, asked or revised "
        "(``shadow``), the call runs as it would with no rules; ``agent-patterns shadow-report`` counts "
        "it over every thread. The gateway's checks (allowlist, argument schema, budgets) always hold.",
    )
    ask_expires_after: float | None = Field(
        None,
        gt=0,
        description="Seconds a question put to a human stays valid, from when it is asked (None: it never "
        "expires). An answer given later runs nothing: on_expired says what it leaves. A tool's rules may "
        "set their own (ToolRules.ask_expires_after).",
    )
    on_expired: Literal["ask_again", "reject"] = Field(
        "reject",
        description="An answer given after the question expired: reject = the call is refused "
        "(approval_expired, fed back like any refusal); ask_again = the question is asked again, with a "
        "fresh expiry. Either way the audit keeps the late answer and its reviewer.",
    )
    reviewers: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Each reviewer's roles, by the name an answer gives (``reviewer``: ``--as``, the "
        "resume payload, or the server's authenticated user): what a rule's reviewer_role is checked "
        "against. A reviewer not named here has no role.",
    )
    four_eyes_by: Literal["account", "reviewer"] = Field(
        "account",
        description="What makes reviewers distinct where a rule needs several approvals: ``account`` "
        "(default), the account each answer was given from where it says one (the CLI's OS account, "
        "the server's signed-in user), so two names typed from one account are one reviewer; "
        "``reviewer``: the names alone (where the operator's own identity source vouches for them).",
    )
    cedar: str | None = Field(
        None,
        description="Cedar policies (their text; a policy file may name a .cedar file instead: cedar_file) "
        "evaluated after the project's own checks, in both engines and the MCP gateway: a forbid "
        'refuses, a permit annotated @ask or @ask("role") asks (that role), and where a permit names '
        "a tool in its scope a call of it no permit matches is refused (Cedar's default deny); a tool "
        "no permit names is left to the other checks. The context holds each argument's value and "
        "sources, the turn's mandate and what the other checks decided (docs/cedar.md). Needs cedarpy.",
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
        acting on the world, budgets sized to the tool count; ``fields`` set anything else. A
        ``tools`` entry is merged into the generated spec of its tool: the fields it sets replace
        the generated ones, and a tool named in ``side_effects`` stays a side effect. A rule or
        flag for a tool not in ``tools`` is an error."""
        names = tool_names(tools)
        rules = dict(rules or {})
        side = list(side_effects)
        stray = [n for n in [*rules, *side] if n not in names]
        if stray:
            raise ValueError(f"rules or side effects for unknown tools: {', '.join(sorted(set(stray)))}")
        specs = {n: ToolSpec(side_effect=n in side) for n in names}
        for name, given in (fields.pop("tools", None) or {}).items():
            spec = ToolSpec.model_validate(given)
            if name in specs:
                update = {k: getattr(spec, k) for k in spec.model_fields_set}
                spec = specs[name].model_copy(update=update)
            specs[name] = spec.model_copy(update={"side_effect": True}) if name in side else spec
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

    @model_validator(mode="after")
    def _named_secrets(self) -> SupervisorPolicy:
        """A reader that wants the request to name a confidential value (``Reader.asked``) needs a
        word that names it: a field named only by a common word (``number``, ``body``) would be
        released by any request that uses the word."""
        fields = [f"{tool}.{path}" for tool, paths in self.sensitive_fields().items() for path in paths]
        for reader in (r for r in self.confidentiality.readers if r.asked and not r.names):
            for name in (f for f in fields if not reader.fields or f in reader.fields):
                if generic_field(name):
                    raise ValueError(
                        f"the sensitive field {name!r} is named only by the common word "
                        f"{field_word(name)!r}, which any request may use: give the reader of "
                        f"{reader.tool!r} names=[...] (the words that name the value, e.g. 'account "
                        "number'), or asked=False"
                    )
        return self

    @model_validator(mode="after")
    def _roles_held(self) -> SupervisorPolicy:
        """A rule's ``reviewer_role`` must be held by a reviewer of ``reviewers``: a role nobody
        holds ("tresury") would leave its questions waiting for good (only a timeout or a sweep,
        answering as the system, could close them)."""
        held = {role for roles in self.reviewers.values() for role in roles}
        for tool, rules in self.rules.items():
            role = rules.reviewer_role
            if role is not None and role not in held:
                have = "; ".join(f"{name}: {', '.join(roles)}" for name, roles in self.reviewers.items())
                raise ValueError(
                    f"rules.{tool}.reviewer_role {role!r} is held by no reviewer "
                    f"({'reviewers: ' + have if have else 'no reviewers are named'}): name one in reviewers"
                )
        return self

    @model_validator(mode="after")
    def _cedar_parses(self) -> SupervisorPolicy:
        """Cedar policies that parse, name tools the policy knows in their scopes (a typo would
        leave a forbid that never applies), and ask roles a reviewer holds."""
        if self.cedar is None:
            return self
        try:
            parsed = parse_cedar(self.cedar)
        except ValueError as exc:
            raise ValueError(f"cedar: {exc}") from None
        known = {*self.rules, *self.allowed_tools, *self.tools}
        held = {role for roles in self.reviewers.values() for role in roles}
        for rule in parsed.rules:
            unknown = sorted((rule.actions or frozenset()) - known)
            if unknown:
                raise ValueError(
                    f"cedar: policy {rule.name} names Action::{json.dumps(unknown[0])}, no tool of this "
                    f"policy (tools: {', '.join(sorted(known))})"
                )
            for role in (rule.ask, rule.role):
                if role and role not in held:
                    raise ValueError(f"cedar: policy {rule.name} asks role {role!r}, held by no reviewer")
        return self

    @model_validator(mode="after")
    def _record_tools(self) -> SupervisorPolicy:
        """A rule about a record names the tool that returns it: one the policy knows, and (for an
        owned record) one whose ``ToolSpec.owner`` says whose each record is."""
        for name, rules in self.rules.items():
            owned = [(r.tool, True) for r in rules.owned]
            for tool, must_own in [*owned, *((r.tool, False) for r in rules.record_limits)]:
                spec = self.tools.get(tool)
                if spec is None:
                    raise ValueError(
                        f"rules of {name!r} name records of {tool!r}: give it a ToolSpec in tools "
                        f"(with owner=..., the field that says whose record it is)"
                    )
                if must_own and not spec.owner:
                    raise ValueError(
                        f"rules of {name!r} want {tool!r} records owned by the subject: give its "
                        "ToolSpec owner=... (the field your system sets to whose record it is)"
                    )
        return self

    @model_validator(mode="after")
    def _one_cap(self) -> SupervisorPolicy:
        """A tool has at most one cap on a sum: its own, or one a group it belongs to declares."""
        for name in self.rules:
            caps = self._grouped(name)[2]
            if len(caps) > 1:
                raise ValueError(
                    f"{name!r} is held by {len(caps)} run caps (its own and its groups'): give it one"
                )
        return self

    def _grouped(self, name: str) -> tuple[list[RecordLimit], list[Threshold], list[RunCap]]:
        """The summed rules a call of ``name`` is held by: its own, then those of other tools whose
        ``group`` names it; each grouped rule's ``group`` names its own tool too."""
        limits: list[RecordLimit] = []
        thresholds: list[Threshold] = []
        caps: list[RunCap] = []
        for owner, rules in self.rules.items():
            cap = [rules.run_cap] if rules.run_cap is not None else []
            for found, kept in (
                (rules.record_limits, limits),
                (rules.escalate_above, thresholds),
                (cap, caps),
            ):
                for rule in found:
                    if owner != name and name not in rule.group:
                        continue
                    if rule.group:
                        rule = rule.model_copy(update={"group": sorted({owner, *rule.group})})
                    if rule not in kept:
                        kept.append(rule)  # type: ignore[arg-type]
        return limits, thresholds, caps

    def rules_for(self, name: str) -> ToolRules | None:
        """The rules a call of ``name`` is reviewed by (None: it has none): its own, with the
        summed rules (``RecordLimit``, ``Threshold``, ``RunCap``) that another tool's rules declare
        for a ``group`` ``name`` belongs to: a limit on all payouts of an order, written once in
        the refund's rules, holds a store credit too."""
        own = self.rules.get(name)
        if own is None or not any(_has_group(rules) for rules in self.rules.values()):
            return own
        limits, thresholds, caps = self._grouped(name)
        update = {"record_limits": limits, "escalate_above": thresholds, "run_cap": caps[0] if caps else None}
        return own.model_copy(update=update)

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

    def created_id_fields(self) -> dict[str, str]:
        """The side-effect tools that declare which field of their result holds the id of what they
        create (``ToolSpec.creates``): tool → field. The others: ``id``."""
        return {name: spec.creates for name, spec in self.tools.items() if spec.side_effect and spec.creates}

    def effect_tools(self) -> frozenset[str]:
        """The tools this policy names as acting on the world (``ToolSpec.side_effect``)."""
        return frozenset(name for name, spec in self.tools.items() if spec.side_effect)

    def field_trust(self) -> dict[str, list[str]]:
        """Tool → the paths of its observations whose trust is the opposite of the tool's."""
        return {name: list(spec.trust_except) for name, spec in self.tools.items() if spec.trust_except}

    def declared_verbs(self) -> list[str]:
        """The verbs this policy's ``Requested`` rules declare (``keywords`` and ``verbs``): the
        actions a reading of the user's turn knows (:mod:`policies.supervisor.reading.coverage`)."""
        return sorted(
            {
                v
                for rules in self.rules.values()
                if rules.requested
                for v in (*rules.requested.keywords, *rules.requested.verbs)
            }
        )

    def record_keys(self) -> dict[str, list[str]]:
        """Tool → the fields that name one record of its results (``ToolSpec.record_keys``)."""
        return {name: list(spec.record_keys) for name, spec in self.tools.items() if spec.record_keys}

    def vocabulary(self) -> frozenset[str]:
        """The words of this policy's rules (what ``Requested`` and ``Follow`` rules look for): a
        record key holding only such words names no record."""
        asked = [r.requested for r in self.rules.values() if r.requested is not None]
        words = [w for a in asked for w in (*a.keywords, *a.verbs, *a.objects)]
        words += [w for f in self.follow for w in (*f.verbs, *f.objects)]
        return frozenset(w for phrase in words for w in phrase.casefold().split())

    def record_ids(self) -> dict[str, list[str]]:
        """Tool → the fields that identify one of its records: ``id``, and the ``key`` of each
        ``OwnedRecord`` and ``RecordLimit`` rule on it (on the user's own record, trusted like its
        record keys; never its free text)."""
        out: dict[str, list[str]] = {}
        for rules in self.rules.values():
            for rule in [*rules.owned, *rules.record_limits]:
                keys = out.setdefault(rule.tool, ["id"])
                keys += [] if rule.key in keys else [rule.key]
        return out

    def sensitive_fields(self) -> dict[str, list[str]]:
        """Tool → the paths of its observations that are confidential."""
        return {name: list(spec.sensitive) for name, spec in self.tools.items() if spec.sensitive}

    def verdict(self, ruled: Literal["block", "escalate"] | None) -> Literal["block", "escalate"]:
        """A rule's verdict, or the policy's default where the rule names none."""
        return ruled or self.default_verdict

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


def _has_group(rules: ToolRules) -> bool:
    return any(rule.group for rule in rules.summed())


def policy_problems(
    policy: SupervisorPolicy,
    models: Mapping[str, ArgsModel | None],
    custom_rules: Iterable[str] = (),
) -> list[str]:
    """What in ``policy`` does not fit the registered tools (``models``: name → the tool's own
    argument model) and the custom rules supplied: a tool it names that nobody registered, an
    allowed tool without rules (every call would be blocked), an argument a rule names that the
    tool does not take, a custom rule nobody supplied, an allowlist that admits none of the
    registered tools. Empty when it fits."""
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
        named.setdefault("provenance sources", []).extend(named_tools(sources))
    flows = [*(policy.destinations.sources if policy.destinations else [])]
    flows += [n for r in policy.confidentiality.readers for n in r.recipient_sources]
    named.setdefault("provenance sources", []).extend(named_tools(flows))
    named["confidentiality readers"] = [r.tool for r in policy.confidentiality.readers]
    named["follow"] = [tool for rule in policy.follow for tool in [*rule.args, *rule.tools]]
    named["destinations"] = list(policy.destinations.args) if policy.destinations else []
    named["groups"] = [
        tool for rules in policy.rules.values() for rule in rules.summed() for tool in rule.group
    ]
    for where, names in named.items():
        for name in sorted(set(names) - registered):
            problems.append(f"{where} names tool {name!r}, which is not registered")
    if registered and not registered & set(policy.allowed_tools):
        problems.append(
            "it allows none of the tools it is given, so every call would be refused: build it with "
            "SupervisorPolicy.for_tools(tools) (or name them in allowed_tools, with rules)"
        )
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
        held = policy.rules_for(name) or rules  # with the summed rules of its groups
        for arg in sorted(held.arg_names() - known) if known is not None else ():
            if arg in rules.arg_names():
                problems.append(f"rules of {name!r} name argument {arg!r}, which the tool does not take")
            else:
                problems.append(
                    f"a summed rule whose group holds {name!r} names argument {arg!r}, which the tool "
                    "does not take (each tool of a group takes the rule's arguments by the same names)"
                )
    return problems + _flow_problems(policy, models)


def _flow_problems(policy: SupervisorPolicy, models: Mapping[str, ArgsModel | None]) -> list[str]:
    """Arguments the flow rules (destinations, readers) name that their tools do not take."""
    named: list[tuple[str, str, str]] = []
    if policy.destinations is not None:
        named += [("destinations", t, a) for t, args in policy.destinations.args.items() for a in args]
    for reader in policy.confidentiality.readers:
        named += [("reader", reader.tool, a) for a in [*reader.args, *filter(None, [reader.recipient])]]
    named += [("follow", tool, a) for rule in policy.follow for tool, args in rule.args.items() for a in args]
    problems = []
    for where, tool, arg in named:
        known = _arg_names(tool, policy, models) if tool in models else None
        if known is not None and arg not in known:
            problems.append(f"{where} of {tool!r} names argument {arg!r}, which the tool does not take")
    return problems


def _arg_names(
    name: str, policy: SupervisorPolicy, models: Mapping[str, ArgsModel | None]
) -> set[str] | None:
    spec = policy.tools.get(name)
    declared = spec.args_model(name) if spec is not None else None
    own = models.get(name)
    found = [model_fields(m) for m in (declared, own) if m is not None]
    return set().union(*found) if found else None


def shadowed_checks(rules: ToolRules | None, policy: SupervisorPolicy) -> frozenset[str]:
    """The checks a call of a tool with ``rules`` (None: the tool has none) runs in shadow, computed
    and recorded, never enforced: every rule check (:data:`~policies.supervisor.rules.kinds.
    SHADOW_CHECKS`) under ``policy.mode == "shadow"`` or ``rules.shadow=True``, else those
    ``rules.shadow`` names."""
    shadow = rules.shadow if rules is not None else None
    if policy.mode == "shadow" or shadow is True:
        return frozenset(SHADOW_CHECKS)
    return frozenset(shadow or ())
