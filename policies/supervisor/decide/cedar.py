"""The Cedar check (``check: "cedar"``): a policy's Cedar policies (``SupervisorPolicy.cedar``,
parsed by :mod:`policies.supervisor.rules.cedar`) judge a call after the project's own checks, with
where each value came from and what those checks decided as facts.

The request Cedar is asked, per call:

- ``principal``: ``User::"<subject>"`` (the subject's ``user_id`` or ``id``, else its first scalar
  value; else ``user``);
- ``action``: ``Action::"<tool>"``; ``resource``: ``Tool::"<tool>"``;
- ``context.args.<arg>``: ``value`` (typed from the tool's argument schema: ``Long``, ``decimal``,
  ``String``, ``Bool``; an object or list as its JSON text; left out where Cedar cannot hold it
  exactly: a policy that reads it then fails to evaluate, and the call is asked), ``source`` (the
  first of ``human``, ``request``, ``named``, ``derived``, ``followed``, ``own``, ``subject``, ``policy``,
  ``trusted:<tool>``, ``args:<tool>``, ``untrusted:<tool>`` that holds it; ``nowhere``) and
  ``sources`` (all of them; ``derived``: a number the turn's stated arithmetic computes from the
  request and the records it names, "the total of my two bills"; ``followed``: a value the turn
  asks to take from a record by one of the policy's ``follow`` rules, "pay the bill in
  bill-dec.txt");
- ``context.mandate``: ``asked`` (the turn asks for this kind of action), ``text`` (the clause that
  does), ``complete`` (the whole turn was read);
- ``context.decided``: ``verdict`` (``approve`` / ``escalate``), ``check``, ``reason``,
  ``by_request`` (the request stands in for the human's approval);
- ``context.run``: ``calls`` (this tool's successful calls in the run so far).

How Cedar's answer combines with the chain's (which Cedar never relaxes):

1. a call the chain refused or revised is not put to Cedar (a revised call is reviewed again);
2. a ``forbid`` that matches refuses (``cedar_forbid:<ids>``); one that reads where an argument
   came from asks instead, as the project's own sources rule would, where the turn sent the agent
   to the record that holds the value or describes the amount in words the gateway cannot compute
   (``value_in_named_record``, ``request_partly_read``; ``@refuse`` keeps the refusal:
   :func:`policies.supervisor.decide.review.with_cedar`);
3. a policy that fails to evaluate (an attribute it reads is missing, a value Cedar cannot hold)
   asks (``cedar_error:<ids>``): it might have forbidden;
4. a matching ``permit`` annotated ``@ask`` / ``@ask("role")`` asks (``cedar_ask:<ids>``, that role:
   the question's signoff); a call the chain asked about already keeps its reason and gains the role;
   a matching ``permit`` annotated ``@role("role")`` gives a question the chain asks that role;
5. a matching ``permit`` keeps the chain's decision, naming the permits in ``details["cedar"]``;
6. none matches: where a ``permit`` names the tool in its scope, Cedar's default deny refuses
   (``cedar_not_permitted``); where none does, Cedar abstains and the chain's decision stands (a
   set of forbids alone refuses only what it forbids).

The generated schema (:func:`cedar_schema`) describes these entities, one action per tool and each
tool's context, so that ``cedarpy.validate_policies`` catches a misspelt attribute before a policy
is deployed (:func:`cedar_problems`; ``agent-patterns policy --cedar-schema``). Pure: Cedar's
evaluation runs in process."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from policies.decision import Decision
from policies.human import HumanAnswer
from policies.supervisor.reading.values import Source
from policies.supervisor.rules.cedar import (
    CedarSet,
    ToolView,
    cedarpy_module,
    no_entities,
    parse_cedar,
    read_only,
)
from policies.supervisor.rules.cedar_eval import authorize
from policies.supervisor.rules.policy import SupervisorPolicy, shadowed_checks

#: The check's name in a decision and the audit.
CEDAR_CHECK = "cedar"
FORBID = "cedar_forbid"
ASK = "cedar_ask"
NOT_PERMITTED = "cedar_not_permitted"
UNDECIDED = "cedar_error"

#: The label of a number the turn's stated arithmetic computes from the request and the records it
#: names ("the total of my two bills"), where neither writes it.
DERIVED = "derived"
#: The label of a value the turn asks to take from a record, by one of the policy's ``follow``
#: rules ("pay the bill in bill-dec.txt": the amount the file gives).
FOLLOWED = "followed"
#: The order a value's ``source`` is named in: the strongest authority first.
_FIRST = (
    "human",
    "request",
    "named",
    "derived",
    "followed",
    "own",
    "subject",
    "policy",
    "trusted:",
    "args:",
    "untrusted:",
)

#: Cedar's types for an argument's JSON type (an object or list is given as its JSON text).
_CEDAR_TYPES = {
    "integer": "Long",
    "int": "Long",
    "number": "decimal",
    "boolean": "Bool",
    "bool": "Bool",
    "string": "String",
    "str": "String",
}
_LONG = 2**63
#: The Cedar types of numbers, whose totals Cedar is told.
_NUMERIC = frozenset({"Long", "decimal"})


# --- facts: what Cedar is told of a call ------------------------------------------------------------


def source_label(source: Source) -> str:
    """A source as Cedar's facts name it."""
    if source.kind == "tool":
        return f"{'trusted' if source.trusted else 'untrusted'}:{source.tool}"
    if source.kind == "args":
        return f"args:{source.tool}"
    return source.kind


def _rank(label: str) -> int:
    return next((n for n, first in enumerate(_FIRST) if label.startswith(first)), len(_FIRST))


def _json_type(schema: Mapping[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind is None:
        for option in schema.get("anyOf") or schema.get("oneOf") or ():
            if isinstance(option, Mapping) and option.get("type") not in (None, "null"):
                return _json_type(option)
    return kind if isinstance(kind, str) else None


def arg_types(
    policy: SupervisorPolicy, tool: str, schema: Mapping[str, Any] | None = None
) -> dict[str, tuple[str, bool]]:
    """Each argument of ``tool`` Cedar is told of: its Cedar type and whether it is required, from
    the policy's ``ToolSpec`` (``args`` or ``args_schema``), else ``schema`` (the tool's own JSON
    Schema). Empty: no schema says (a value's type is then read off the value itself)."""
    spec = policy.tools.get(tool)
    given = spec.json_schema() if spec is not None else None
    schema = given or schema or {}
    required = set(schema.get("required") or ())
    out: dict[str, tuple[str, bool]] = {}
    for arg, prop in (schema.get("properties") or {}).items():
        kind = _json_type(prop) if isinstance(prop, Mapping) else None
        if arg == "idempotency_key":
            continue
        out[arg] = (_CEDAR_TYPES.get(kind or "", "String"), arg in required)
    return out


def _decimal(value: Any) -> dict[str, Any] | None:
    """Cedar's ``decimal`` of a number (four places at most, exactly), or None."""
    if isinstance(value, bool):
        return None
    try:
        number = Decimal(str(value).strip()) if isinstance(value, int | float | str | Decimal) else None
    except InvalidOperation:
        return None
    if number is None or not number.is_finite() or abs(number) >= Decimal(_LONG) / 10_000:
        return None
    if number != number.quantize(Decimal("0.0001")):
        return None  # more places than Cedar holds: rounding would move it across a limit
    text = format(number.normalize(), "f")
    return {"__extn": {"fn": "decimal", "arg": text if "." in text else f"{text}.0"}}


def kind_of(value: Any) -> str:
    """The Cedar type a value with no declared type is given: ``Bool``, ``Long``, ``decimal`` or
    ``String``."""
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, int):
        return "Long"
    return "decimal" if isinstance(value, float | Decimal) else "String"


def cedar_value(value: Any, kind: str | None) -> Any:
    """``value`` as Cedar holds it for its type ``kind`` (None: read off the value), or None where
    Cedar cannot hold it exactly (the policy that reads it then fails to evaluate, and asks)."""
    kind = kind or kind_of(value)
    if kind == "Bool":
        return value if isinstance(value, bool) else None
    if kind == "Long":
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        ok = isinstance(value, int) and not isinstance(value, bool) and -_LONG <= value < _LONG
        return value if ok else None
    if kind == "decimal":
        return _decimal(value)
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)


def _principal(subject: Mapping[str, Any]) -> str:
    """Whom the run acts for, as Cedar's principal id: the subject's ``user_id`` or ``id``, else
    its first scalar value (``{"customer": "cust-42"}``: ``cust-42``), else ``user``."""
    for key in ("user_id", "id"):
        if subject.get(key) not in (None, ""):
            return str(subject[key])
    scalar = next((v for v in subject.values() if isinstance(v, str | int) and not isinstance(v, bool)), None)
    return str(scalar) if scalar not in (None, "") else "user"


@dataclass(frozen=True)
class CallFacts:
    """What the review knows of a call that Cedar is told: the tool's ``name``, its ``args``, where
    each value is found (``found``: the review's sources, ``named`` ones included), the turn's
    ``mandate`` for it (None: none asks), whether the turn was read whole (``complete``), the
    ``subject`` and how many successful calls of the tool the run made (``calls``). ``found`` gives
    a value's source labels (:func:`source_label`, and :data:`DERIVED`)."""

    name: str
    args: Mapping[str, Any]
    found: Callable[[Any], Sequence[str]]
    types: Mapping[str, tuple[str, bool]]
    mandate: str | None
    complete: bool
    subject: Mapping[str, Any]
    calls: int
    #: the totals of a number argument this call would make, over the tool's successful calls and
    #: this one: ``(run, thread)``, each None where it cannot be known (an amount it cannot read; a
    #: thread total no Cedar policy reads, which the ledger does not keep)
    totals: Callable[[str], tuple[Decimal | None, Decimal | None]] = lambda _arg: (None, None)
    #: the record that holds a value in a tool's result: ``{"tool", "owner" (where the tool's records
    #: say it), "own"}`` (``own``: its owner is the subject), or None where none holds it
    records: Callable[[Any], Mapping[str, Any] | None] = lambda _value: None


def _arg_fact(value: Any, kind: str | None, found: Callable[[Any], Sequence[str]]) -> dict[str, Any]:
    labels = sorted(set(found(value)), key=lambda label: (_rank(label), label))
    fact: dict[str, Any] = {"source": labels[0] if labels else "nowhere", "sources": labels}
    held = cedar_value(value, kind)
    return fact | ({"value": held} if held is not None else {})


def cedar_request(facts: CallFacts, decided: Decision, cedar: CedarSet | None = None) -> dict[str, Any]:
    """The Cedar request for a call the chain decided ``decided`` (approve or escalate); with the
    policy set (``cedar``), only the facts some policy of it can read are computed (the arguments it
    names; where values came from only where it reads sources)."""
    wanted = cedar.args if cedar is not None else None
    nowhere: Callable[[Any], Sequence[str]] = lambda _value: ()  # noqa: E731

    def found(arg: str) -> Callable[[Any], Sequence[str]]:
        return facts.found if cedar is None or arg in cedar.sourced else nowhere

    args = {
        arg: _arg_fact(value, facts.types.get(arg, (None, False))[0], found(arg))
        for arg, value in facts.args.items()
        if value is not None and arg != "idempotency_key" and (wanted is None or arg in wanted)
    }
    for arg in sorted(set(args) & (cedar.totalled if cedar is not None else set(args))):
        kind = facts.types.get(arg, (None, False))[0] or kind_of(facts.args[arg])
        if kind not in _NUMERIC:
            continue
        for name, total in zip(("run_total", "thread_total"), facts.totals(arg), strict=True):
            whole = total is not None and kind == "Long" and total == total.to_integral_value()
            held = None if total is None else cedar_value(int(total) if whole else total, kind)
            args[arg] |= {name: held} if held is not None else {}  # unknown: a policy reading it asks
    for arg in sorted(set(args) & (cedar.recorded if cedar is not None else set(args))):
        record = facts.records(facts.args[arg])
        if record is not None:
            args[arg] |= {"record": dict(record)}  # none: a policy reading it checks `has record`
    context = {
        "args": args,
        "mandate": {
            "asked": facts.mandate is not None,
            "text": facts.mandate or "",
            "complete": facts.complete,
        },
        "decided": {
            "verdict": decided.verdict,
            "check": decided.check,
            "reason": decided.reason,
            "by_request": decided.details.get("approved_by") == "request",
        },
        "run": {"calls": facts.calls},
    }
    return {
        "principal": {"type": "User", "id": _principal(facts.subject)},
        "action": {"type": "Action", "id": facts.name},
        "resource": {"type": "Tool", "id": facts.name},
        "context": context,
    }


# --- the decision ------------------------------------------------------------------------------------


def _erring(cedar: CedarSet, errors: Sequence[str]) -> list[str]:
    keys = [m.group(1) for e in errors for m in [re.search(r"policy `([^`]+)`", e)] if m]
    return cedar.named(keys) or ["(unnamed)"]


@dataclass(frozen=True)
class _Diagnostics:
    reasons: tuple[str, ...]
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Answered:
    """The project's own evaluation's answer, in the shape of ``cedarpy``'s."""

    allowed: bool
    diagnostics: _Diagnostics


def cedar_answer(view: ToolView, request: Mapping[str, Any]) -> Any:
    """Cedar's answer to a call's ``request`` under the policies that judge its tool (``view``):
    this project's evaluation of Cedar where it decides (:func:`~policies.supervisor.rules.
    cedar_eval.authorize`: a request on which no policy fails, in the part of the language it
    evaluates, decided as Cedar does), else Cedar's own (``cedarpy``, with its error messages).
    Either has ``allowed`` and ``diagnostics.reasons`` / ``.errors``."""
    if view.compiled is not None:
        answered = authorize(view.compiled, request)
        if answered is not None:
            return _Answered(answered.allowed, _Diagnostics(answered.reasons))
    return cedarpy_module().is_authorized(dict(request), view.handle, no_entities())


def cedar_decision(cedar: CedarSet, facts: CallFacts, decided: Decision) -> Decision:
    """The chain's ``decided`` (approve or escalate) as Cedar leaves it (the module's order): a
    refusal or a question of Cedar's (``check: "cedar"``), or ``decided`` with the permits that
    matched in ``details["cedar"]``."""
    request = cedar_request(facts, decided, cedar)
    # only the policies that can judge this tool, and what they read: Cedar's time grows with both
    view = cedar.for_tool(facts.name)
    asked = {**request, "context": read_only(request["context"], view.reads)}
    answer = cedar_answer(view, asked)
    keys = list(answer.diagnostics.reasons)
    matched = [rule for key in keys if (rule := cedar.by_key(key)) is not None]
    named = cedar.named(keys)
    said = {"policies": named, "principal": request["principal"]["id"]}
    if not answer.allowed and matched:  # the forbids that decided
        return Decision("block", f"{FORBID}:{','.join(named)}", {**decided.details, "cedar": said})
    if answer.diagnostics.errors:
        erring = _erring(cedar, answer.diagnostics.errors)
        errors = [" ".join(str(e).split()) for e in answer.diagnostics.errors]
        details = {**decided.details, "cedar": {**said, "errors": errors}}
        return Decision("escalate", f"{UNDECIDED}:{','.join(erring)}", details)
    if not answer.allowed:
        if not cedar.permits(facts.name):
            return decided
        return Decision("block", NOT_PERMITTED, {**decided.details, "cedar": said})
    asks = [rule for rule in matched if rule.ask is not None]
    roles = [rule.role for rule in matched if rule.role]
    if not asks:
        if decided.verdict == "escalate" and roles:  # the chain's question, answered by that role
            said = {**said, "role": roles[0]}
        return Decision(decided.verdict, decided.reason, {**decided.details, "cedar": said})
    role = next((rule.ask for rule in asks if rule.ask), roles[0] if roles else None)
    asked = {**said, "asked_by": [rule.name for rule in asks], **({"role": role} if role else {})}
    if decided.verdict == "escalate":  # asked already: the chain's question, with Cedar's role
        return Decision("escalate", decided.reason, {**decided.details, "cedar": asked})
    reason = f"{ASK}:{','.join(asked['asked_by'])}"
    return Decision("escalate", reason, {**decided.details, "cedar": asked})


# --- answers: who may say yes ------------------------------------------------------------------------


def answer_request(
    name: str, args: Mapping[str, Any], types: Mapping[str, tuple[str, bool]], reviewer: Mapping[str, Any]
) -> dict[str, Any]:
    """The Cedar request for a human's answer to a question about a call of ``name`` with ``args``:
    the principal is the reviewer (``User::"<name>"``), ``context.reviewer`` says who answered
    (``name``, ``roles``, ``answer``: ``approve`` / ``edit``, and ``account`` where the answering
    process knows it) and ``context.args.<arg>.value`` the call's values (as a call's facts type
    them; where they came from is the question's, already decided)."""
    values = {
        arg: {"value": held}
        for arg, value in args.items()
        if value is not None
        and arg != "idempotency_key"
        and (held := cedar_value(value, types.get(arg, (None, False))[0])) is not None
    }
    who = str(reviewer.get("name") or "")
    return {
        "principal": {"type": "User", "id": who or "unnamed"},
        "action": {"type": "Action", "id": name},
        "resource": {"type": "Tool", "id": name},
        "context": {"args": values, "reviewer": dict(reviewer)},
    }


def cedar_answer_refusal(
    cedar: CedarSet,
    name: str,
    args: Mapping[str, Any],
    types: Mapping[str, tuple[str, bool]],
    reviewer: Mapping[str, Any],
) -> str | None:
    """Why the Cedar policies that read ``context.reviewer`` do not let ``reviewer``'s approval (or
    edit) of a call of ``name`` with ``args`` apply (``<reason>: <sentence>``), or None. They can
    only refuse an answer the question's own signoff admitted, never admit one it refused: a
    ``forbid`` that matches (``cedar_forbid:<ids>``), a policy that fails to evaluate
    (``cedar_error:<ids>``: it reads what an answer does not carry), or, where such a ``permit``
    names the tool, none that matches (``cedar_not_permitted``). The call stays waiting for a
    reviewer who may answer."""
    if cedar.answer_handle is None or not cedar.answering(name):
        return None
    request = answer_request(name, args, types, reviewer)
    result = cedarpy_module().is_authorized(request, cedar.answer_handle, [])
    keys = list(result.diagnostics.reasons)
    who = request["principal"]["id"]
    if not result.allowed and keys:
        ids = ",".join(cedar.named(keys))
        return f"{FORBID}:{ids}: the Cedar policy {ids} forbids {who}'s answer to this call"
    if result.diagnostics.errors:
        ids = ",".join(_erring(cedar, result.diagnostics.errors))
        return (
            f"{UNDECIDED}:{ids}: the Cedar policy {ids} could not judge {who}'s answer (an answer "
            "carries context.reviewer and context.args.<arg>.value only)"
        )
    if not result.allowed and cedar.answer_permits(name):
        return f"{NOT_PERMITTED}: no Cedar policy permits {who}'s answer to this call"
    return None


def answer_refused(
    policy: SupervisorPolicy,
    action: Mapping[str, Any],
    answer: HumanAnswer,
    models: Mapping[str, type | None] | None = None,
) -> str | None:
    """:func:`cedar_answer_refusal` for a human's ``answer`` to the question about ``action``, under
    ``policy`` (its Cedar policies, and its ``reviewers``: the roles of whoever answered; ``models``:
    the registered tools' argument models). A rejection is never judged (it runs nothing), nor is
    an answer about a final reply, nor one where Cedar runs in shadow (the policy's ``mode``, the
    tool's ``shadow``); an edit is judged on the call as edited."""
    if policy.cedar is None or answer.type not in ("approve", "edit") or action.get("kind") != "tool":
        return None
    name = str(action.get("name"))
    if CEDAR_CHECK in shadowed_checks(policy.rules.get(name), policy):
        return None  # Cedar in shadow: recorded with the call, never enforced, on answers neither
    args = dict(action.get("args") or {})
    edited = answer.edits.get("edited_action", answer.edits) if answer.type == "edit" else None
    if isinstance(edited, Mapping) and isinstance(edited.get("args"), Mapping):
        args = dict(edited["args"])
    who = answer.reviewer or ""
    reviewer: dict[str, Any] = {
        "name": who,
        "roles": sorted(policy.reviewers.get(who, ())),
        "answer": answer.type,
        **({"account": answer.account} if answer.account else {}),
    }
    model = (models or {}).get(name)
    types = arg_types(policy, name, _model_schema(model) if model is not None else None)
    return cedar_answer_refusal(parse_cedar(policy.cedar), name, args, types, reviewer)


@lru_cache(maxsize=512)
def _model_schema(model: type) -> dict[str, Any]:
    return model.model_json_schema()  # type: ignore[attr-defined]


def tool_schemas(models: Mapping[str, type | None]) -> dict[str, dict[str, Any]]:
    """Each registered tool's argument schema (JSON Schema of its model), made once per model."""
    return {name: _model_schema(model) for name, model in models.items() if model is not None}


# --- the schema --------------------------------------------------------------------------------------


def _record(attributes: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "Record", "attributes": dict(attributes)}


def _type(kind: str) -> dict[str, Any]:
    return {"type": "Extension", "name": "decimal"} if kind == "decimal" else {"type": kind}


def _context(types: Mapping[str, tuple[str, bool]]) -> dict[str, Any]:
    text, flag = {"type": "String"}, {"type": "Boolean"}
    args = {
        arg: {
            **_record(
                {
                    # a value Cedar cannot hold exactly is left out at run time: the policy that
                    # reads it fails to evaluate, and the call is asked (never admitted)
                    "value": _type("Boolean" if kind == "Bool" else kind),
                    "source": text,
                    "sources": {"type": "Set", "element": text},
                    # a number's totals over the tool's earlier calls (the run's, the thread's)
                    **({"run_total": _type(kind), "thread_total": _type(kind)} if kind in _NUMERIC else {}),
                    # the record holding the value in a tool's result (absent: none holds it)
                    "record": {
                        **_record({"tool": text, "owner": {**text, "required": False}, "own": flag}),
                        "required": False,
                    },
                }
            ),
            "required": required,
        }
        for arg, (kind, required) in types.items()
    }
    return _record(
        {
            "args": _record(args),
            "mandate": _record({"asked": flag, "text": text, "complete": flag}),
            "decided": _record({"verdict": text, "check": text, "reason": text, "by_request": flag}),
            "run": _record({"calls": {"type": "Long"}}),
            # who answered a question (a policy that reads it judges answers, never calls)
            "reviewer": {
                **_record(
                    {
                        "name": text,
                        "roles": {"type": "Set", "element": text},
                        "answer": text,
                        "account": {**text, "required": False},
                    }
                ),
                "required": False,
            },
        }
    )


def cedar_schema(
    policy: SupervisorPolicy, schemas: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """The Cedar schema (JSON form) of ``policy``'s tools: entity types ``User``, ``Tool``,
    ``Record``; one action per allowed tool, on ``User`` and ``Tool``, with its context (each
    argument typed from the policy's ``ToolSpec`` or ``schemas[tool]``, its JSON Schema)."""
    tools = sorted({*policy.allowed_tools, *policy.rules})
    actions = {
        tool: {
            "appliesTo": {
                "principalTypes": ["User"],
                "resourceTypes": ["Tool"],
                "context": _context(arg_types(policy, tool, (schemas or {}).get(tool))),
            }
        }
        for tool in tools
    }
    entities: dict[str, Any] = {"User": {}, "Tool": {}, "Record": {}}
    return {"": {"entityTypes": entities, "actions": actions}}


def cedar_problems(
    policy: SupervisorPolicy, models: Mapping[str, type | None] | None = None, where: str = "cedar"
) -> list[str]:
    """What Cedar's validator finds in ``policy.cedar`` against :func:`cedar_schema` (with the
    registered tools' argument ``models``): a misspelt attribute, a comparison of a text with a
    number, an optional argument read without ``has``; one line each, ``<where>:<line>: <policy>:
    <Cedar's message>`` (``where``: the .cedar file's name), empty where it validates or there is
    no Cedar."""
    if policy.cedar is None:
        return []
    cedar = parse_cedar(policy.cedar)
    schema = cedar_schema(policy, tool_schemas(models or {}))
    result = cedarpy_module().validate_policies(policy.cedar, schema)
    if result.validation_passed:
        return []
    out = []
    for error in result.errors:
        text = " ".join(str(getattr(error, "error", error)).split())
        key = getattr(error, "policy_id", None) or next(iter(re.findall(r"policy\d+", text)), "")
        rule = cedar.by_key(str(key))
        at = f"{where}:{rule.line}: {rule.name}: " if rule else f"{where}: "
        out.append(at + text)
    return out
