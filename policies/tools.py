"""The tool gateway's pure rules, shared by every pattern that calls tools (Supervisor, Task
Decomposition): argument schemas, the allowlist (deny by default), the per-run call budget,
per-tool limits, loop detection on normalised ``(tool, args)`` signatures, and result checks.

Nothing here executes a tool: ``nodes.tool_gateway`` does that, after these checks allowed it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Literal, TypeGuard

from pydantic import BaseModel, ConfigDict, Field, model_validator

from policies.decision import Decision
from policies.json_safety import json_problem
from policies.schemas import ArgProblem, ArgsModel, compile_schema, validate_args
from policies.text import json_hash, normalize_ws

ArgType = Literal["int", "number", "str", "bool", "object", "list"]
_JSON_TYPE: dict[str, str] = {
    "int": "integer",
    "number": "number",
    "str": "string",
    "bool": "boolean",
    "object": "object",
    "list": "array",
}
Trust = Literal["trusted", "untrusted"]


class ArgSpec(BaseModel):
    """Shorthand for one argument's JSON Schema: its JSON type and whether it must be given (an
    optional argument may be left out, not sent as ``null``). Compiles to JSON Schema."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: ArgType = Field(
        description="JSON type: int, number (finite int or float), str, bool, object, list."
    )
    required: bool = Field(True, description="Whether the argument must be present.")

    def json_schema(self) -> dict[str, Any]:
        return {"type": _JSON_TYPE[self.type]}


class ToolSpec(BaseModel):
    """What the policy says about one tool, by name: whether it acts on the world, whether its
    observations are trusted, and optionally an argument schema that narrows the tool's own.

    The tool's own schema (a LangChain tool's ``args_schema``, a function's signature) is always
    checked; ``args`` (shorthand) or ``args_schema`` (JSON Schema), when given, is checked as well,
    and is what the worker is shown."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    args: dict[str, ArgSpec] | None = Field(
        None, description="Argument schema by name (shorthand for args_schema); no other argument passes."
    )
    args_schema: dict[str, Any] | None = Field(
        None, description="JSON Schema of the argument object (type object, properties, required...)."
    )
    side_effect: bool = Field(
        False,
        description="Performs an action (not read-only): called with an ``idempotency_key`` so that it "
        "runs at most once per approved action, also on resume and replay.",
    )
    description: str | None = Field(None, description="Shown to the worker instead of the tool's own.")
    trust: Trust = Field(
        "untrusted",
        description="Whether the tool's observations are trusted as a source of argument values (the "
        "account's own payee list, the user's contacts) or not (files, pages, messages, mail: the default).",
    )
    trust_except: list[str] = Field(
        default_factory=list,
        description="Paths in the tool's observations whose trust is the opposite of ``trust`` (a trusted "
        "contact list's free-text ``note``, a payee's display ``name`` others can set): dotted keys, list "
        "items transparent, ``*`` any key.",
    )
    sensitive: list[str] = Field(
        default_factory=list,
        description="Paths in the tool's observations whose values are confidential (a profile's "
        "``passport``, ``cards.number``; ``*``: all of it): they may flow only where the policy's "
        "``confidentiality`` readers allow.",
    )
    record_keys: list[str] = Field(
        default_factory=list,
        description="Fields that name one record of the tool's results (a message's ``from``, an "
        "event's ``title``, a file's ``name``): a request that writes one of these values as a whole "
        "phrase, held by exactly one record of the run, singles that record out (requested following, "
        "values the request authorises). Each must be a field the policy trusts (or the key of the user's "
        "own records, with ``owner``): a field a third party writes names nothing.",
    )
    author_keys: list[str] = Field(
        default_factory=list,
        description="Fields that name a record by what its author calls it (a mail's display ``name``, an "
        "invitation's ``title``): the author's own word, so a weaker name than a record key. It names a "
        "record only as a whole phrase held by exactly one record, when no other record's name shares a "
        "word with it (``Carla`` and ``Carla Diaz``) and it is no common word or word of the policy's "
        "rules; and such a record gives values only from its trusted fields (its id, its sender's "
        "address) and the fields a ``Follow`` rule names.",
    )
    system_fields: list[str] = Field(
        default_factory=list,
        description="Fields your own system sets on each record (its ``id``, a mail's ``from`` address, an "
        "event's ``organizer``): they may name a record (``record_keys``, ``owner``) and give the values a "
        "record the request names holds, but vouch for no value elsewhere: a sender's address says who "
        "wrote, and is no destination the user chose (unlike ``trust_except``, which makes a field a trusted "
        "source everywhere).",
    )
    creates: str | None = Field(
        None,
        description="The top-level field of a side effect's result that holds the id of what it "
        "creates (a file service's ``file_id``): the one id a successful call makes the run's own "
        "(a source ``own``), nothing else it returned (the parent folder's id, the id of a file it "
        "replaced). Unset: the field ``id``.",
    )
    owner: str | None = Field(
        None,
        description="The field of each record that your system sets to whose record it is (an event's "
        "``organizer``, a file's ``owner``; it must be a field the policy trusts): a record whose owner "
        "is the run's subject (its value under ``subject_key``) is the user's own, every field of it "
        "trusted for naming it and for the values it gives; anyone else's record is trusted only as the "
        "tool's trust says.",
    )
    subject_key: str | None = Field(
        None,
        description="The key of the run's subject that ``owner`` is compared with (the subject "
        '``{"email": ...}`` for an event\'s ``organizer``: ``subject_key="email"``). Unset: the key '
        "of the same name as ``owner`` (an order's ``customer``, the subject's ``customer``). A record "
        "is the subject's only where its owner field is one id equal to the subject's value under this "
        "key (ids compared as :func:`policies.supervisor.reading.values.identity` reads them, short "
        'ones too: ``"42"`` is 42), never to another of the subject\'s values; a subject without the '
        "key owns nothing. Needs ``owner``.",
    )
    owner_only: bool = Field(
        False,
        description="Only the subject's own records reach the run: every record of the tool's result "
        "whose ``owner`` field is not the subject's id (its value under ``subject_key``; or that has no "
        "subject) is withheld, kept as its ``record_keys`` and ``withheld: not_the_subjects_record``, "
        "before the worker, the audit or any later call sees it; so is whatever of the result is not "
        "such a record (text, rows, records grouped under keys, a mapping without the owner field: "
        "``owner_not_readable``). Needs ``owner``.",
    )

    @model_validator(mode="after")
    def _trusted_keys(self) -> ToolSpec:
        """A record key (and the owner field) is a field the policy trusts: a field a third party
        can write (an untrusted tool's, or one ``trust_except`` marks untrusted in a trusted tool)
        would let them name a record, and through it authorise a call. With ``owner``, the keys of
        the user's own records are trusted (the owner field itself must be)."""
        for key in [*self.record_keys, *([self.owner] if self.owner else [])]:
            if self.trusts_field(key) or key in self.system_fields or (self.owner and key != self.owner):
                continue
            how = (
                f"trust_except=[{key!r}] on this untrusted tool"
                if self.trust != "trusted"
                else (f"{key!r} left out of trust_except")
            )
            raise ValueError(
                f"{'owner' if key == self.owner else 'record key'} {key!r} is a field others can write: "
                f"it must be a field your own system writes. Declare it with system_fields=[{key!r}] "
                f"(or trust it with {how}), name the field that says whose record it is (owner=...), "
                "or leave it out"
            )
        return self

    def trusts_field(self, key: str) -> bool:
        """Does this spec trust a record's field ``key`` (at any depth)?"""
        flipped = any(_covers(pattern, key) for pattern in self.trust_except)
        return (self.trust == "trusted") != flipped

    @model_validator(mode="after")
    def _owner_for_owner_only(self) -> ToolSpec:
        if self.owner_only and not self.owner:
            raise ValueError("owner_only needs owner: the field that says whose record it is")
        if self.subject_key and not self.owner:
            raise ValueError("subject_key needs owner: the field compared with the subject's value")
        return self

    def subject_field(self) -> str | None:
        """The key of the run's subject whose value owns a record (``subject_key``, else ``owner``);
        None for a tool whose records say nobody's."""
        return (self.subject_key or self.owner) if self.owner else None

    @model_validator(mode="after")
    def _one_schema(self) -> ToolSpec:
        if self.args is not None and self.args_schema is not None:
            raise ValueError("give args (shorthand) or args_schema (JSON Schema), not both")
        if self.args_schema is not None:
            compile_schema(self.args_schema)  # a schema that cannot be read is an error now
        return self

    def json_schema(self) -> dict[str, Any] | None:
        """The argument schema this spec declares, as JSON Schema (None: it declares none)."""
        if self.args_schema is not None:
            return dict(self.args_schema)
        if self.args is None:
            return None
        return {
            "type": "object",
            "properties": {name: arg.json_schema() for name, arg in self.args.items()},
            "required": [name for name, arg in self.args.items() if arg.required],
            "additionalProperties": False,
        }

    def args_model(self, tool: str) -> ArgsModel | None:
        """The model of :meth:`json_schema` (None: none declared), compiled once per spec and tool
        (a spec is frozen; each call of a tool is checked against it)."""
        kept = _ARGS_MODELS.get((id(self), tool))
        if kept is not None and kept[0] is self:
            return kept[1]
        schema = self.json_schema()
        model = None if schema is None else compile_schema(schema, f"{tool}_policy_args")
        if len(_ARGS_MODELS) >= 1024:  # a process that makes policy after policy keeps the newest
            _ARGS_MODELS.clear()
        _ARGS_MODELS[(id(self), tool)] = (self, model)
        return model


#: Each spec's argument model by tool, made once: (spec id, tool) → (spec, model).
_ARGS_MODELS: dict[tuple[int, str], tuple[ToolSpec, ArgsModel | None]] = {}


def _covers(pattern: str, key: str) -> bool:
    """Does a ``trust_except`` path cover a record key's field (the key at any depth)?"""
    last = pattern.split(".")[-1]
    return pattern in ("", "*") or last in ("*", key)


def is_number(value: Any) -> TypeGuard[int | float]:
    """A real, finite number. Booleans are not numbers; NaN and infinities are not finite."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def arg_problem(
    tool: str,
    args: Mapping[str, Any],
    *,
    spec: ToolSpec | None = None,
    model: ArgsModel | None = None,
    validated: Collection[ArgsModel] = (),
) -> ArgProblem | None:
    """The first problem of ``args`` against the policy's schema for ``tool`` (``spec``) and the
    tool's own (``model``): ``(kind, arg, detail)`` with kind ``extra``, ``missing`` or
    ``bad_type`` (see :func:`policies.schemas.validate_args`), or None when both accept them.
    With neither schema there is nothing to accept them against: ``("bad_type", "(arguments)",
    "no_schema")``. ``validated``: models the caller already validated these very ``args``
    against, not validated again."""
    models = [m for m in (spec.args_model(tool) if spec is not None else None, model) if m is not None]
    if not models:
        return ("bad_type", "(arguments)", "no_schema")
    for checked in models:
        if checked in validated:
            continue
        problem = validate_args(checked, args)
        if problem is not None:
            return problem
    return None


def normalize_value(value: Any) -> Any:
    """A value in canonical form for signatures: integral floats as ints, strings trimmed with
    whitespace collapsed, containers normalised recursively (key order does not matter)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        return normalize_ws(value)
    if isinstance(value, dict):
        return {str(k): normalize_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [normalize_value(v) for v in value]
    return value


def call_signature(tool: str, args: Mapping[str, Any]) -> str:
    """Hash of the normalised ``(tool, args)``: equal for calls that only differ in formatting."""
    return json_hash({"tool": tool, "args": normalize_value(dict(args))})


def idempotency_key(
    run_id: str, step: int, tool: str, args: Mapping[str, Any], *, signature: str | None = None
) -> str:
    """The key of one approved action in one run: the same on resume, retry and replay.
    ``signature``: the call's :func:`call_signature`, when the caller has it already."""
    call = signature if signature is not None else call_signature(tool, args)
    return f"{tool}:{json_hash({'run': run_id, 'step': step, 'call': call})}"


class GatewayLimits(BaseModel):
    """Budgets and limits of the gateway; each pattern's policy builds one from its fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_tool_calls: int = Field(ge=0, description="Most tool calls one run may make.")
    allowed_tools: list[str] = Field(description="Execution allowlist; anything else is denied.")
    per_tool_limits: dict[str, int] = Field(default_factory=dict, description="Most calls per tool.")
    default_per_tool_limit: int | None = Field(None, description="Per-tool limit for unlisted tools.")
    repeat_limits: dict[str, int] = Field(
        default_factory=dict, description="Most identical (same normalised args) calls per tool."
    )
    default_repeat_limit: int = Field(1, ge=1, description="Identical calls allowed for unlisted tools.")
    detailed_loop_reasons: bool = Field(
        True,
        description="Stop with loop_detected:per_tool_limit / :signature_repeat (else loop_detected).",
    )


def check_call(
    tool: Any,
    args: Any,
    *,
    limits: GatewayLimits,
    specs: Mapping[str, ToolSpec],
    registered: Iterable[str],
    past_calls: Sequence[Mapping[str, Any]],
    models: Mapping[str, ArgsModel | None] | None = None,
    validated: Collection[ArgsModel] = (),
) -> Decision:
    """May ``tool(**args)`` run now? ``past_calls`` are the run's executed calls (``tool`` and
    ``signature`` keys); ``specs`` the policy's word on each tool and ``models`` the tools' own
    argument schemas (``validated``: those the caller already validated these ``args`` against).
    Order: budget, allowlist, registry, per-tool limit, repeats, arguments. On success
    ``details`` holds the call's ``signature``."""
    name = tool if isinstance(tool, str) else repr(tool)
    if len(past_calls) >= limits.max_tool_calls:
        return Decision.stop("max_tool_calls", calls=len(past_calls))
    if name not in limits.allowed_tools:
        return Decision.stop(f"tool_denied:{name}")
    if name not in (registered if isinstance(registered, set | frozenset) else set(registered)):
        return Decision.stop(f"tool_missing:{name}")
    if not isinstance(args, dict):
        return Decision.stop(f"tool_bad_args:{name}", problem="not_object")
    signature = call_signature(name, args)
    limit = limits.per_tool_limits.get(name, limits.default_per_tool_limit)
    made = sum(1 for c in past_calls if str(c.get("tool")) == name) if limit is not None else 0
    if limit is not None and made >= limit:
        reason = "loop_detected:per_tool_limit" if limits.detailed_loop_reasons else "loop_detected"
        return Decision.stop(reason, tool=name, calls=made, limit=limit)
    repeats = sum(1 for c in past_calls if c.get("signature") == signature)
    if repeats >= limits.repeat_limits.get(name, limits.default_repeat_limit):
        reason = "loop_detected:signature_repeat" if limits.detailed_loop_reasons else "loop_detected"
        return Decision.stop(reason, tool=name, signature=signature, repeats=repeats)
    problem = arg_problem(
        name, args, spec=specs.get(name), model=(models or {}).get(name), validated=validated
    )
    if problem is not None:
        kind, arg, detail = problem
        return Decision.stop(f"tool_bad_args:{name}", problem=kind, arg=arg, detail=detail)
    return Decision.allow("tool_allowed", signature=signature)


def check_result(tool: str, result: Any) -> Decision:
    """A tool's result must be JSON data the run can keep (see
    :func:`policies.json_safety.json_problem`): an object, a list, a string, a number, a boolean
    or null. An object with an ``error`` key is an error observation (verdict ``error``)."""
    problem = json_problem(result)
    if problem is not None:
        return Decision.stop(f"tool_bad_result:{tool}", problem=problem)
    if is_error_observation(result):
        return Decision("error", str(result.get("error")), {"result": result})
    return Decision.allow("tool_ok")


def is_error_observation(result: Any) -> bool:
    return isinstance(result, dict) and "error" in result
