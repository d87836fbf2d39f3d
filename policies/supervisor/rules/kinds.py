"""The supervisor's rules as data: one frozen pydantic model per kind of rule, and
:class:`ToolRules`, the rules of one tool."""

from __future__ import annotations

import warnings
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from policies.supervisor.reading.amounts import OPERATIONS, Operation
from policies.supervisor.reading.values import IdentifierKind
from policies.supervisor.rules.thread import OwnedRecord, RecordLimit, Repeat, Scope

#: A rule's verdict when it fails: block, escalate to a human, or None (the policy's
#: ``default_verdict``, itself ``block`` unless the policy says otherwise).
Verdict = Literal["block", "escalate"] | None


class _Rule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


#: The checks of the review chain (:data:`policies.supervisor.decide.review.CHAIN`) a policy may run in
#: shadow (``SupervisorPolicy.mode``, ``ToolRules.shadow``): those that decide on a rule of the
#: policy. ``mandate`` and ``authority`` decide nothing; ``read_only`` and ``approve`` only approve;
#: ``cedar`` is the policy's Cedar policies, judged after the chain (``SupervisorPolicy.cedar``).
ShadowCheck = Literal[
    "binding",
    "provenance",
    "ownership",
    "amounts",
    "record_limits",
    "defaults",
    "custom_rules",
    "repeats",
    "thresholds",
    "approval",
    "cedar",
]
SHADOW_CHECKS: tuple[str, ...] = get_args(ShadowCheck)


class Precondition(_Rule):
    """Block unless ``tool`` was called successfully earlier in the run (with the same values of
    ``match_args``, when it names any: a confirmation email confirms *that* refund)."""

    tool: str = Field(description="The tool that must have succeeded before.")
    reason: str = Field(description="Block reason when it has not.")
    match_args: list[str] = Field(
        default_factory=list, description="Arguments the earlier call must have had the same values of."
    )


class NumberArg(_Rule):
    """A numeric argument that must be a finite number (else block: a boolean, NaN, an infinity or
    a text, a decimal string too, is none) and positive (else block).
    With ``decimals`` (2 for money), the value is kept to that many places, rounded half up: one
    that rounds to zero is blocked (``positive_reason``), one that rounding changes is revised to
    the rounded value (``rounding_reason``), so what is approved is what the tool receives. With
    ``currency``, the value is in that currency: a turn asking it in another is asked."""

    arg: str
    type_reason: str = Field(
        "invalid_number_type", description="Block reason when the value is not a finite number."
    )
    positive_reason: str = Field("invalid_number", description="Block reason when the value is not above 0.")
    decimals: int | None = Field(None, ge=0, le=12, description="Places kept (2: cents). None: as given.")
    rounding_reason: str = Field("amount_rounded", description="Revise reason when rounding changed it.")
    currency: str | None = Field(
        None,
        pattern=r"^[A-Z]{3}$",
        description=(
            "The currency the value is in (an ISO 4217 code: 'EUR'), for a tool with no currency "
            "argument: a turn that asks the figure in another ('$20', '20 USD', 'in dollars', '20 "
            "cents') is asked. None: the gateway cannot tell, and only a currency argument is weighed."
        ),
    )


class OneOf(_Rule):
    """The argument must be one of a set: the values the run's subject lists under ``subject_key``
    (say, the account's known payees) and those in ``values``. Strings compare trimmed, with runs
    of whitespace collapsed and case ignored. Otherwise ``verdict`` (block, or escalate to a human)
    with ``reason``. An empty set admits nothing."""

    arg: str
    reason: str
    subject_key: str | None = Field(None, description="The subject's key whose list admits values.")
    values: list[Any] = Field(default_factory=list, description="Values admitted whatever the subject.")
    verdict: Verdict = None


class _Summed(_Rule):
    """A rule over the sum of ``arg``: over this run's calls, or (``scope="thread"``) over every
    run's on the thread (its ledger: :mod:`policies.supervisor.rules.thread`); with ``per``, only the
    calls on the same record (the same values of those arguments: per order, per account); with
    ``group``, the calls of every tool of the group, each checked by the rule (all payouts, a
    refund or a store credit). An amount the rule cannot read as a number
    (:func:`policies.supervisor.reading.amounts.amount_value`: ``"900.00"`` it reads, ``"1e3"`` or NaN it does
    not), this call's or a summed one's, asks a human (``unreadable_reason``): never admitted."""

    scope: Scope = Field("run", description="run: this run's calls; thread: every run's on the thread.")
    per: list[str] = Field(default_factory=list, description="Sum only calls with these arguments' values.")
    group: list[str] = Field(
        default_factory=list,
        description="Tools whose calls the sum counts and the rule checks, this one's included (each "
        "takes arg and per by the same names). Empty: this tool alone.",
    )
    unreadable_reason: str = Field(
        "amount_not_readable", description="Escalation reason when an amount is not a readable number."
    )


class RunCap(_Summed):
    """A cap on the sum of ``arg`` over the tool's successful calls: of the run, or of the thread
    (``scope="thread"``: per subject, since a thread acts for one; ``per``: per record)."""

    arg: str
    limit: float = Field(gt=0, description="Most the argument may add up to (in its scope).")
    exhausted_reason: str = Field(description="Block reason when nothing is left.")
    revise_reason: str = Field(description="Revise reason when the value is capped to what is left.")


class ArgDefault(_Rule):
    """A missing argument that the supervisor fills in (a revision)."""

    arg: str
    value: Any
    reason: str


class Threshold(_Summed):
    """Escalate to a human when numeric ``arg`` is above ``limit`` (``cumulative``: when the
    successful calls of the tool and this one add up to more, so that splitting an action into
    parts below the limit does not avoid the human: the run's calls, or with ``scope="thread"``
    every run's on the thread; ``per``: only those on the same record)."""

    arg: str
    limit: float = Field(allow_inf_nan=False, description="Most the argument (or the sum) may be unasked.")
    reason: str
    cumulative: bool = False

    @model_validator(mode="after")
    def _summed(self) -> Threshold:
        if (self.scope != "run" or self.per or self.group) and not self.cumulative:
            raise ValueError("Threshold scope, per and group sum earlier calls: give cumulative=True")
        return self


_SOURCE_NAMES = ("request", "subject", "policy", "named", "trusted", "any")
_NAMED_SOURCES = ("tool:", "call:")
#: The identifiers checked in free text unless a rule names others (amounts are left out: a message
#: may well repeat a figure a tool returned).
TEXT_IDENTIFIERS: tuple[IdentifierKind, ...] = ("url", "email", "iban", "phone")
#: What makes an argument a destination (:class:`Destinations`): its whole value is one of these.
DESTINATION_KINDS: tuple[IdentifierKind, ...] = ("url", "domain", "email")


class _Sourced(_Rule):
    """A provenance rule: where values may come from (see :class:`ArgSource`)."""

    sources: list[str] = Field(min_length=1, description="Where the values may come from.")
    verdict: Verdict = None

    @field_validator("sources")
    @classmethod
    def _known(cls, names: list[str]) -> list[str]:
        return known_sources(names)


def known_sources(names: list[str]) -> list[str]:
    """Source names as rules write them: one of ``_SOURCE_NAMES``, ``tool:<name>`` or ``call:<name>``."""
    for name in names:
        if name not in _SOURCE_NAMES and not (name[:5] in _NAMED_SOURCES and len(name) > 5):
            raise ValueError(
                f"unknown source {name!r}: use {', '.join(_SOURCE_NAMES)}, tool:<name> or call:<name>"
            )
    return names


def named_tools(names: list[str]) -> list[str]:
    """The tools ``tool:<name>`` and ``call:<name>`` sources name."""
    return [n[5:] for n in names if n[:5] in _NAMED_SOURCES]


class ArgSource(_Sourced):
    """Where an argument's value may come from (every string and number in it, nested ones too),
    traced by :mod:`policies.supervisor.reading.values`: ``request`` (the run's goal), ``subject``, ``policy``
    (this policy's own constants), ``trusted`` (any of those, or a trusted tool's observation),
    ``tool:<name>`` (that tool's observations), ``call:<name>`` (a value an earlier *successful* call of that
    tool used or returned: invite, then add) or ``any``; the list is of alternatives. A value none of them
    holds gets ``verdict`` with ``reason``; the details say where it does appear and the flow stopped."""

    arg: str
    reason: str = "untrusted_argument"
    derived: list[Operation] = Field(
        default_factory=lambda: list(OPERATIONS),
        description="A number no source holds is admitted when simple arithmetic over numbers the "
        "sources admit gives it (sum of 2 to max_terms, difference, a percentage of an amount): its "
        "derivation is the audit's provenance. Empty: numbers only as written.",
    )
    max_terms: int = Field(3, ge=2, le=4, description="Most numbers a derived sum adds up.")


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
    """A tool that may run only when the run's request asks for that kind of action, so that an
    instruction found in a document cannot create work the user never asked for.

    The request is read by the one request reader (:mod:`policies.supervisor.reading.words`: a plain
    imperative of a small grammar, nothing else). ``keywords``: one stands at the head of an imperative of the
    request ("Pay invoice INV-7"; never "payment", never "Don't pay it", "Instead of paying it ...").
    ``verbs`` and ``objects``: a verb at the head of an imperative and an object after it in that clause
    (clauses: split at sentence punctuation, commas, semicolons and "and", "then", "but", "also"), so
    "summarise my e-mail" does not authorise sending one while "send Ana an e-mail" does; ``objects`` empty: a
    verb alone. ``keywords`` and the pair are alternatives."""

    keywords: list[str] = Field(
        default_factory=list, description="Verbs: one at the head of an imperative of the request."
    )
    verbs: list[str] = Field(
        default_factory=list, description="Verbs: one at the head of an imperative, before an object."
    )
    objects: list[str] = Field(default_factory=list, description="Objects of the verbs (empty: any).")
    verdict: Verdict = None
    reason: str = "action_not_requested"
    details: bool = Field(
        True,
        description="The kind being asked for vouches for no detail: a value of another argument (one no "
        "ArgSource rules) that is an identifier, a number or a phrase, and appears only in untrusted text, "
        "is refused or asked (details_verdict) unless the request names the record it is the only one of "
        "its kind in.",
    )
    details_verdict: Verdict = Field(
        "escalate", description="The verdict on a planted detail (None: the policy's default_verdict)."
    )
    details_reason: str = "untrusted_detail"

    @model_validator(mode="after")
    def _something(self) -> Requested:
        if not self.keywords and not self.verbs:
            raise ValueError("Requested needs keywords, or verbs (with objects)")
        if self.objects and not self.verbs:
            raise ValueError("Requested objects need verbs")
        return self


class Follow(_Rule):
    """Requested following: a value taken from tool data (a link in a colleague's message, the
    sender to reply to, a meeting's attendees, the amount on a bill the user points to) is admitted
    into the arguments ``args`` names where the request asks for exactly that step: one sentence of
    the request asks for it (one of ``verbs``, then one of ``objects`` when given) and names one
    record of the run's tool results (by a value of the tool's ``ToolSpec.record_keys`` that no
    other record holds, or by the arguments of the call that returned it), and the value is the
    only one of its kind in that record's ``fields`` (a list argument: each of its values is one
    of them). A record the request names for another step, a second record named in the same
    sentence, or a second value of the kind planted in the field leaves the value to the rule it
    failed."""

    args: dict[str, list[str]] = Field(description="Tool → the arguments a followed value may go into.")
    verbs: list[str] = Field(min_length=1, description="The step: one begins a word of the sentence.")
    objects: list[str] = Field(default_factory=list, description="What it acts on, after the verb.")
    fields: list[str] = Field(
        min_length=1, description="Paths inside the record the value is taken from (dotted keys, * any key)."
    )
    tools: list[str] = Field(
        default_factory=list, description="Whose records it follows (empty: any tool's)."
    )


class Destinations(_Sourced):
    """Policy-wide: destination arguments of *any* tool, reads included (a page to open, a URL to
    fetch, an address to look up or write to), may come only from ``sources``. An argument is a
    destination when its whole value is an identifier of ``kinds`` (a URL, a domain, an e-mail
    address), or when ``args`` names it for its tool (checked whatever its form). A read that
    visits a link planted in a page can carry data out in its query string and confirm the user;
    this stops it before the call."""

    sources: list[str] = Field(default_factory=lambda: ["request", "policy", "trusted"], min_length=1)
    kinds: list[IdentifierKind] = Field(default_factory=lambda: list(DESTINATION_KINDS))
    args: dict[str, list[str]] = Field(
        default_factory=dict, description="Tool → arguments that are destinations whatever their form."
    )
    reason: str = "untrusted_destination"


class Reader(_Rule):
    """Where sensitive values may go (CaMeL's readers): into ``args`` of ``tool`` (empty: any of its
    arguments), when its ``recipient`` argument (if named) comes only from ``recipient_sources``,
    for the sensitive fields ``fields`` names (``<tool>.<path>`` as in ``ToolSpec.sensitive``;
    empty: all)."""

    tool: str
    args: list[str] = Field(default_factory=list)
    recipient: str | None = Field(None, description="The argument that says who receives the value.")
    recipient_sources: list[str] = Field(default_factory=lambda: ["request"], min_length=1)
    fields: list[str] = Field(default_factory=list, description="Sensitive fields admitted (empty: all).")
    asked: bool = Field(
        True,
        description="The request must say what the value is: a word naming its field (passport, card, "
        "password) stands as a whole word in a clause that asks for it, so a planted text cannot add a "
        "secret to a message the user asked for (False: any message to the reader may carry it).",
    )
    names: list[str] = Field(
        default_factory=list,
        description="The words or phrases that name the value in a request (empty: the field's own word). "
        "Required for a field named only by a common word (``number``, ``body``, ``code``).",
    )

    @field_validator("recipient_sources")
    @classmethod
    def _known(cls, names: list[str]) -> list[str]:
        return known_sources(names)


class Confidentiality(_Rule):
    """Policy-wide: a value from a sensitive field (``ToolSpec.sensitive``) may flow only into the
    arguments and recipients ``readers`` allow; any other call that carries it (reads too) gets
    ``verdict`` with ``reason``. Values are recognised by their identity (a card number in any
    spacing, an IBAN, an address, a date...) or their normalised text; the flow's value is masked
    in details and traces."""

    readers: list[Reader] = Field(default_factory=list)
    verdict: Verdict = None
    reason: str = "sensitive_value_leak"


class RateLimit(_Rule):
    """At most ``calls`` calls of a tool in any ``seconds`` (a sliding window), counted by the MCP
    gateway per signed-in caller (behind ``--auth-issuer``), else for all its clients together."""

    calls: int = Field(..., ge=1, description="The most calls the window admits.")
    seconds: float = Field(..., gt=0, description="The window's length, in seconds.")


class ToolRules(_Rule):
    """The supervisor's rules for one tool, applied in this order: bound arguments, set membership,
    preconditions, provenance (argument sources, identifiers, the request's ask), owned records,
    then — for a read-only tool — custom rules and approval; for any other tool numeric checks, run
    cap, record limits, defaults, custom rules, repeats on the thread, escalation thresholds,
    required approval."""

    bound_args: list[str] = Field(
        default_factory=list,
        description="Arguments that must equal the run's subject (the input's ``subject``, or the one "
        "its thread's first request named): a step cannot act for anyone else (block "
        "``subject_mismatch:<arg>``), nor for anyone when no subject names the argument (the policy's "
        "default verdict, ``subject_unbound:<arg>``). Checked first.",
    )
    one_of: list[OneOf] = Field(default_factory=list, description="Arguments limited to a set of values.")
    owned: list[OwnedRecord] = Field(
        default_factory=list, description="Arguments that name a record, which must be the subject's own."
    )
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
    record_limits: list[RecordLimit] = Field(
        default_factory=list, description="Sums per record, across the thread, within a field of the record."
    )
    repeat: Repeat | None = Field(None, description="The same call on the same record again, on the thread.")
    defaults: list[ArgDefault] = Field(default_factory=list)
    custom: list[str] = Field(default_factory=list, description="Names of custom rules to apply.")
    escalate_above: list[Threshold] = Field(default_factory=list)
    require_approval: bool = Field(False, description="Every call goes to a human (``approval_reason``).")
    approval_reason: str = Field("approval_required", description="Escalation reason of require_approval.")
    request_as_approval: bool = Field(
        False,
        description="Under require_approval, let the request stand in for the human: a call runs without "
        "asking when the request asks for its kind (this tool's ``requested`` rule) and gives every value of "
        "it, written in its text or as a trusted field of a record it names by a trusted key "
        "(``ToolSpec.record_keys``); its audit row says ``approved_by: request``. False (the default): "
        "require_approval means a human, always.",
    )
    authorised_reason: str = Field("authorised_by_request", description="Reason of such an approval.")
    shadow: bool | list[ShadowCheck] = Field(
        False,
        description="Shadow mode for this tool's rules: the checks of the review chain named here "
        "(True: every check in ``SHADOW_CHECKS``) are computed and recorded, never enforced: where one "
        "would have blocked, asked or revised the call, the review row, the trace and the audit say so "
        "(``shadow``: verdict, reason, check) and the call is decided by the rest of the chain, as it "
        "would be without those rules. The gateway's checks (allowlist, argument schema, budgets) "
        "always hold.",
    )
    ask_expires_after: float | None = Field(
        None,
        gt=0,
        description="Seconds a question about this tool stays valid (None: the policy's "
        "``ask_expires_after``). An answer given later runs nothing (``on_expired``).",
    )
    on_expired: Literal["ask_again", "reject"] | None = Field(
        None,
        description="What an answer given after the question expired leaves (None: the policy's "
        "``on_expired``): ask_again = the question is asked again with a fresh expiry; reject = the "
        "call is refused (``approval_expired``).",
    )

    client_answers: bool | None = Field(
        None,
        description="MCP gateway: may the calling client's user answer the questions about this tool's "
        "calls (MCP elicitation)? True: yes (a person at a desktop client approving their own "
        "assistant); False: never, whatever the gateway's --ask-client; None: the gateway's --ask-client. "
        "A question the client may not answer goes to reviewers out of the agent's reach.",
    )
    rate_limit: RateLimit | None = Field(
        None,
        description="MCP gateway: at most this many calls of the tool in any window of this many "
        "seconds, per signed-in caller (--auth-issuer), else for all clients together; a call over "
        "it is refused before it is reviewed (an MCP tool error that says when to try again). "
        "None: no limit.",
    )
    caller_roles: list[str] | None = Field(
        None,
        min_length=1,
        description="MCP gateway behind --auth-issuer: the roles (the signed-in caller's token claim) "
        "that may see this tool in tools/list and call it; a caller with none of them neither sees "
        "nor calls it. None: every caller. Without authentication (stdio, HTTP without "
        "--auth-issuer) there is no caller to tell apart and it does not apply.",
    )
    reviewer_role: str | None = Field(
        None,
        min_length=1,
        description="The role a reviewer must hold (SupervisorPolicy.reviewers) to answer a question "
        "about this tool: an answer from anyone else, or naming no one, is refused "
        "(reviewer_lacks_role:<role>) and the call stays waiting. None: anyone may answer.",
    )
    approvals: int = Field(
        1,
        ge=1,
        le=5,
        description="Distinct reviewers who must approve a call of this tool before it runs (2: four-eyes). "
        "Each approval but the last keeps the call waiting; the same reviewer twice is refused; one "
        "rejection refuses the call.",
    )

    @model_validator(mode="before")
    @classmethod
    def _renamed(cls, data: Any) -> Any:
        """``request_authorises`` (until 0.2) is ``request_as_approval`` now, off by default."""
        if isinstance(data, dict) and "request_authorises" in data:
            warnings.warn(
                "ToolRules(request_authorises=...) is renamed request_as_approval (off by default: "
                "require_approval means a human unless you opt in)",
                DeprecationWarning,
                stacklevel=2,
            )
            value = bool(data["request_authorises"])
            data = {k: v for k, v in data.items() if k != "request_authorises"}
            data.setdefault("request_as_approval", value)
        return data

    def arg_names(self) -> set[str]:
        """The arguments these rules name (each must be an argument of the tool)."""
        names = {*self.bound_args, *(a for p in self.preconditions for a in p.match_args)}
        names |= {r.arg for r in self.one_of} | {r.arg for r in self.number_args}
        names |= {r.arg for r in self.arg_sources} | set(self.identifiers.args if self.identifiers else ())
        names |= {r.arg for r in self.defaults} | {t.arg for t in self.escalate_above}
        names |= {a for t in self.escalate_above for a in t.per} | {o.arg for o in self.owned}
        names |= {a for r in self.record_limits for a in (r.arg, r.record_arg)}
        names |= set(self.repeat.per if self.repeat else ())
        return names | ({self.run_cap.arg, *self.run_cap.per} if self.run_cap else set())

    def summed(self) -> list[RecordLimit | Threshold | RunCap]:
        """The rules over a sum of an argument (record limits, thresholds, the run cap): those that
        may sum over a ``group`` of tools, and read amounts
        (:func:`policies.supervisor.reading.amounts.amount_value`)."""
        return [*self.record_limits, *self.escalate_above, *([self.run_cap] if self.run_cap else [])]

    def ledger_args(self) -> list[str]:
        """The arguments the thread's ledger keeps of this tool's calls: those its thread-wide rules
        sum or name records by (empty: the ledger keeps no entry of it)."""
        summed = [(t.arg, *t.per) for t in self.escalate_above if t.scope == "thread"]
        cap = self.run_cap
        summed += [(cap.arg, *cap.per)] if cap and cap.scope == "thread" else []
        names = [a for args in summed for a in args]
        names += [a for r in self.record_limits for a in (r.arg, r.record_arg)]
        names += list(self.repeat.per if self.repeat else ())
        return sorted(set(names))
