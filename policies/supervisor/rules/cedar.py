"""Cedar policies in a policy (``SupervisorPolicy.cedar``): parsed once, each named and read for
what the review needs of it before it is ever evaluated — its effect, the actions its scope names,
and whether it asks a human (``@ask`` / ``@ask("role")``).

A policy set is Cedar's own text (https://docs.cedarpolicy.com): ``permit`` and ``forbid`` over
``principal`` (the user the run acts for, ``User``), ``action`` (the tool, ``Action::"<tool>"``),
``resource`` (``Tool::"<tool>"``) and ``context`` (each argument's value and where it came from,
the turn's mandate, what the project's own checks decided:
:mod:`policies.supervisor.decide.cedar`). Two annotations mean something here:

- ``@id("name")`` names the policy in decisions, the audit and the probe (else Cedar's
  ``policy0``, ``policy1``… in the order written);
- ``@ask`` / ``@ask("role")`` on a ``permit``: a call it permits is put to a human (holding
  ``role``) instead of run;
- ``@role("role")`` on a ``permit``: a question about a call it permits, whichever check asks it,
  is answered by a reviewer holding ``role`` (as ``ToolRules.reviewer_role``); it asks nothing itself.

Parsing needs Cedar's Python bindings (``cedarpy``: ``pip install 'governed-agent-patterns[cedar]'``);
a policy without Cedar never imports them. Pure: no I/O (a ``.cedar`` file is read by whoever loads
the policy file)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, NamedTuple

from policies.supervisor.rules.cedar_eval import CompiledPolicy, compile_set

#: What to install when a policy carries Cedar and the bindings are missing.
CEDAR_EXTRA = "cedarpy>=4.12 (pip install 'governed-agent-patterns[cedar]')"


class CedarUnavailable(ImportError):
    """A policy carries Cedar policies and ``cedarpy`` is not installed."""


def cedarpy_module() -> Any:
    """Cedar's Python bindings, or :class:`CedarUnavailable` naming what to install."""
    try:
        import cedarpy
    except ImportError:
        raise CedarUnavailable(f"this policy carries Cedar policies: install {CEDAR_EXTRA}") from None
    return cedarpy


@dataclass(frozen=True)
class CedarRule:
    """One Cedar policy as the review reads it: ``key`` (Cedar's own id: ``policy0``…), ``name``
    (its ``@id`` annotation, else the key), ``effect`` (``permit`` / ``forbid``), ``ask`` (None: it
    does not ask; ``""``: it asks anyone; else the reviewer role it asks), ``actions`` (the tools its
    scope names; None: every action), ``role`` (``@role``: who answers any question about a call it
    permits)."""

    key: str
    name: str
    effect: str
    ask: str | None
    actions: frozenset[str] | None
    role: str | None = None
    #: the line of the text its statement starts on (its first annotation), 1-based
    line: int = 0
    #: it reads ``context.reviewer``: it judges a human's answer to a question, never a call
    #: (:func:`policies.supervisor.decide.cedar.cedar_answer_refusal`)
    answers: bool = False
    #: the arguments whose ``source`` or ``sources`` it reads (``"*"``: any argument): a ``forbid``
    #: of where a value came from, which asks as the project's own rule would where the turn
    #: sent the agent to the record holding the value
    sourced: frozenset[str] = frozenset()
    #: ``@refuse`` on a ``forbid``: it refuses even a value held by a record the turn points to
    refuses: bool = False


@dataclass(frozen=True)
class CedarSet:
    """A parsed Cedar policy set: its ``text``, its ``rules`` in the order written, and Cedar's
    parsed handle (``handle``: reused by every evaluation, never parsed again)."""

    text: str
    rules: tuple[CedarRule, ...]
    handle: Any
    #: the arguments some policy reads (``context.args.<arg>`` / ``["<arg>"]`` / ``has``): the facts
    #: of the others are never computed (no Cedar policy can read an attribute it does not name)
    args: frozenset[str] = frozenset()
    #: does some policy read where values came from and can tell ``named`` from the rest (it names
    #: it, or reads the one ``.source``)? Only then are the records the turn names looked up
    reads_named: bool = True
    #: the arguments whose sources some policy reads (the others' are never looked for)
    sourced: frozenset[str] = frozenset()
    #: the arguments whose totals some policy reads (``run_total``, ``thread_total``)
    totalled: frozenset[str] = frozenset()
    #: those whose ``thread_total`` it reads: the thread's ledger keeps them
    thread_totalled: frozenset[str] = frozenset()
    #: the arguments whose record some policy reads (``.record``: the tool that returned the record
    #: holding the value, its owner, whether it is the subject's own)
    recorded: frozenset[str] = frozenset()
    #: the policies that read ``context.reviewer``, parsed apart (None: there are none): they judge
    #: answers, and :attr:`handle` holds the others only
    answer_handle: Any = None
    #: what of ``context`` the policies that judge calls read (:func:`context_reads`): a call's
    #: request carries that and nothing more (:func:`read_only`); True: all of it
    reads: ContextReads = True

    def by_key(self, key: str) -> CedarRule | None:
        return next((r for r in self.rules if r.key == key), None)

    def named(self, keys: list[str]) -> list[str]:
        """Cedar's ids as the policy names them (``@id``), in the order written."""
        return [r.name for r in self.rules if r.key in keys]

    def permits(self, action: str) -> bool:
        """Does a ``permit`` of the set name ``action`` in its scope? Then Cedar's default deny holds
        for it: a call of that tool no permit matches is refused. A tool no permit names is left to
        the project's own checks (a set of forbids alone never refuses what it does not forbid)."""
        return any(
            r.effect == "permit" and not r.answers and (r.actions is None or action in r.actions)
            for r in self.rules
        )

    def applies(self, action: str) -> bool:
        """Can a policy that judges calls match a call of ``action`` (its scope names it, or every
        action)? Where none can, Cedar's answer is known without asking: nothing matches, and the
        chain's decision stands (:meth:`permits` is False too)."""
        return any(not r.answers and (r.actions is None or action in r.actions) for r in self.rules)

    def answer_permits(self, action: str) -> bool:
        """Does a ``permit`` that reads ``context.reviewer`` name ``action`` in its scope? Then an
        approval of a call of that tool that no such permit matches is not applied."""
        return any(
            r.effect == "permit" and r.answers and (r.actions is None or action in r.actions)
            for r in self.rules
        )

    def answering(self, action: str) -> bool:
        """Does some policy that reads ``context.reviewer`` apply to ``action``'s answers?"""
        return any(r.answers and (r.actions is None or action in r.actions) for r in self.rules)

    def for_tool(self, action: str) -> ToolView:
        """What a call of ``action`` is put to Cedar with: a policy set of the policies that judge
        calls and whose scope can name it (a policy whose scope names another action never matches
        nor fails a call: Cedar reads its scope first), what of ``context`` those read, and the same
        policies compiled for :func:`~policies.supervisor.rules.cedar_eval.authorize`. Built once
        per text and action; Cedar decides the smaller set exactly as the whole one."""
        return _tool_view(self.text, action)


class ToolView(NamedTuple):
    """The policies a call of one tool is put to (:meth:`CedarSet.for_tool`): Cedar's ``handle`` of
    them, what of ``context`` they read (``reads``), and the same compiled for this project's own
    evaluation of Cedar (``compiled``; None where one is outside what it evaluates: Cedar's then)."""

    handle: Any
    reads: ContextReads
    compiled: tuple[CompiledPolicy, ...] | None


def statement_lines(text: str) -> list[int]:
    """The line (1-based) each statement of a Cedar text starts on, in order: its first character
    that is not blank nor in a ``//`` comment, after the ``;`` that ends the one before (strings
    read whole)."""
    lines, line, start = [], 1, True
    at, n = 0, len(text)
    while at < n:
        ch = text[at]
        if ch == "\n":
            line += 1
        elif text.startswith("//", at):
            at = text.find("\n", at)
            at = n if at < 0 else at
            continue
        elif ch == '"':
            end = at + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            line += text.count("\n", at, end)
            if start:
                lines.append(line)
                start = False
            at = end + 1
            continue
        elif ch == ";":
            start = True
        elif not ch.isspace() and start:
            lines.append(line)
            start = False
        at += 1
    return lines


def _never(conditions: Any) -> bool:
    """Is a condition of a policy a constant that keeps it from ever applying (``when { false }``,
    ``unless { true }``)?"""
    return any(
        c.get("body") == {"Value": c.get("kind") == "unless"} for c in conditions if isinstance(c, dict)
    )


def _actions(scope: dict[str, Any]) -> frozenset[str] | None:
    """The action ids a policy's action scope names (None: ``action`` alone, every action)."""
    if scope.get("op") == "All":
        return None
    entities = scope.get("entities") or ([scope["entity"]] if "entity" in scope else [])
    return frozenset(str(e.get("id")) for e in entities if e.get("type") == "Action")


def _ask(effect: str, annotations: dict[str, Any], name: str) -> str | None:
    if "ask" not in annotations:
        return None
    if effect != "permit":
        raise ValueError(f"Cedar policy {name}: @ask is for a permit (a forbid refuses; it asks nobody)")
    role = annotations["ask"]
    return role.strip() if isinstance(role, str) else ""


@lru_cache(maxsize=64)
def parse_cedar(text: str) -> CedarSet:
    """``text`` parsed (ValueError with Cedar's own message where it is not Cedar; an ``@ask`` on a
    ``forbid`` or two policies of one ``@id`` are errors too). Cached by text: a policy's set is
    parsed once per process, whoever reviews with it."""
    cedar = cedarpy_module()
    try:
        parsed = json.loads(cedar.policies_to_json_str(text))
        handle = cedar.PolicySet.from_str(text)
    except ValueError as exc:
        raise ValueError(f"not valid Cedar: {' '.join(str(exc).split())}") from None
    if parsed.get("templates"):
        raise ValueError("Cedar templates (?principal, ?resource) are not supported: write the policies out")
    rules = []
    for key, policy in parsed.get("staticPolicies", {}).items():
        annotations = policy.get("annotations") or {}
        name = str(annotations.get("id") or key)
        effect = str(policy.get("effect"))
        role = annotations.get("role")
        if role is not None and (effect != "permit" or not str(role).strip()):
            raise ValueError(f"Cedar policy {name}: @role names a role, on a permit")
        ask, actions = _ask(effect, annotations, name), _actions(policy["action"])
        answers = _READS_REVIEWER in json.dumps(policy.get("conditions") or (), separators=(",", ":"))
        if answers and (ask is not None or role is not None):
            raise ValueError(
                f"Cedar policy {name}: a policy that reads context.reviewer judges answers; "
                "@ask and @role are for policies that judge calls"
            )
        rules.append(
            CedarRule(key, name, effect, ask, actions, str(role).strip() if role else None, 0, answers)
        )
    lines = statement_lines(text)
    rules = [replace(r, line=lines[n]) if n < len(lines) else r for n, r in enumerate(rules)]
    static = parsed.get("staticPolicies", {})
    rules = [
        replace(
            r,
            sourced=_sourced(static.get(r.key, {})),
            refuses="refuse" in (static.get(r.key, {}).get("annotations") or {}),
        )
        for r in rules
    ]
    for rule in rules:
        if rule.refuses and rule.effect != "forbid":
            raise ValueError(f"Cedar policy {rule.name}: @refuse is for a forbid (a permit refuses nothing)")
    for rule, policy in zip(rules, parsed.get("staticPolicies", {}).values(), strict=True):
        if _never(policy.get("conditions") or ()):
            raise ValueError(
                f"Cedar policy {rule.name} (line {rule.line}) can never apply: its condition is constant"
            )
    names = [r.name for r in rules]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"two Cedar policies are named @id({twice[0]!r})")
    rules.sort(key=lambda r: _order(r.key))
    code = _code(text)
    found = re.findall(r'\bargs\s*(?:\.\s*(\w+)|\[\s*"([^"]*)"\s*\]|\s+has\s+(\w+)|\s+has\s+"([^"]*)")', code)
    args = frozenset(name for groups in found for name in groups if name)
    sourced = re.findall(r'\bargs\s*(?:\.\s*(\w+)|\[\s*"([^"]*)"\s*\])\s*\.\s*sources?\b', code)
    by_source = frozenset(name for groups in sourced for name in groups if name)
    reads_named = bool(by_source) and ('"named"' in code or re.search(r"\.\s*source\b", code) is not None)
    totals = re.findall(
        r'\bargs\s*(?:\.\s*(\w+)|\[\s*"([^"]*)"\s*\])\s*\.\s*(run_total|thread_total)\b', code
    )
    totalled = frozenset(a or b for a, b, _kind in totals)
    thread = frozenset(a or b for a, b, kind in totals if kind == "thread_total")
    held = re.findall(r'\bargs\s*(?:\.\s*(\w+)|\[\s*"([^"]*)"\s*\])\s*(?:\.\s*record\b|has\s+record\b)', code)
    recorded = frozenset(a or b for a, b in held)
    reads = context_reads([static[r.key] for r in rules if not r.answers and r.key in static])
    answer_handle = None
    if any(r.answers for r in rules):  # two sets: the calls' and the answers'
        handle, answer_handle = (
            _subset(cedar, parsed, {r.key for r in rules if r.answers == answers})
            for answers in (False, True)
        )
    return CedarSet(
        text,
        tuple(rules),
        handle,
        args,
        reads_named,
        by_source,
        totalled,
        thread,
        recorded,
        answer_handle,
        reads,
    )


@lru_cache(maxsize=256)
def _tool_view(text: str, action: str) -> ToolView:
    cedar, whole = cedarpy_module(), parse_cedar(text)
    keys = {r.key for r in whole.rules if not r.answers and (r.actions is None or action in r.actions)}
    static = json.loads(cedar.policies_to_json_str(text)).get("staticPolicies", {})
    compiled = compile_set({k: static[k] for k in sorted(keys, key=_order) if k in static})
    if keys == {r.key for r in whole.rules if not r.answers}:
        return ToolView(whole.handle, whole.reads, compiled)
    reads = context_reads([static[k] for k in sorted(keys) if k in static])
    return ToolView(_subset(cedar, {"staticPolicies": static}, keys), reads, compiled)


def _order(key: str) -> int:
    """Cedar's key's place in the order written (``policy3``: 3)."""
    number = key[len("policy") :]
    return int(number) if number.isdigit() else 0


@lru_cache(maxsize=1)
def no_entities() -> Any:
    """The entities a call is judged with: none (every fact is in its context), as one handle Cedar
    parsed once (its text where the bindings have no handles)."""
    handles = getattr(cedarpy_module(), "Entities", None)
    return handles.from_json_str("[]") if handles is not None else "[]"


#: What of a record some policy reads, key by key: ``True`` for a whole value (compared, passed to
#: a method or an operator); a tree for a record only some of whose attributes are read (an empty
#: tree: only whether it is there, ``has``).
ContextReads = dict[str, "ContextReads"] | bool


def _mark(tree: dict[str, Any], path: tuple[str, ...], whole: bool) -> None:
    """``path`` of ``context`` read: ``whole`` (its value), else only its presence and its
    attributes marked apart."""
    node = tree
    for at, key in enumerate(path):
        last = at == len(path) - 1
        held = node.get(key)
        if held is True:
            return
        if last:
            node[key] = True if whole else (held if isinstance(held, dict) else {})
            return
        node = node.setdefault(key, {}) if not isinstance(held, dict) else held


def _context_path(node: Any, tree: dict[str, Any]) -> tuple[str, ...] | None:
    """The path of ``context`` that the expression ``node`` (Cedar's JSON form) is, if it is one
    (``context.args.amount``: ``("args", "amount")``), else None; the reads of ``context`` inside it
    are marked in ``tree`` as they go."""
    if node == {"Var": "context"}:
        return ()
    if isinstance(node, dict) and len(node) == 1:
        ((op, arg),) = node.items()
        if op in (".", "has") and isinstance(arg, dict) and isinstance(arg.get("attr"), str):
            left = _context_path(arg.get("left"), tree)
            if left is None:
                return None
            if op == ".":
                return (*left, arg["attr"])
            _mark(tree, (*left, arg["attr"]), whole=False)  # `has`: is it there
            return None
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        path = _context_path(child, tree)
        if path is not None:  # a path used as a value: all of it is read
            if not path:
                tree["*"] = True
            else:
                _mark(tree, path, whole=True)
    return None


def context_reads(policies: list[Mapping[str, Any]]) -> ContextReads:
    """What of ``context`` the ``policies`` (Cedar's JSON form) can read: Cedar reads attributes by
    name only, so an attribute no condition names is never read (True where one reads the whole
    ``context``)."""
    tree: dict[str, Any] = {}
    for policy in policies:
        _context_path(policy.get("conditions") or [], tree)
    return True if tree.pop("*", False) else tree


def _sourced(policy: Mapping[str, Any]) -> frozenset[str]:
    """The arguments whose ``source`` or ``sources`` a policy (Cedar's JSON form) reads; ``"*"``
    where it reads ``context`` or ``context.args`` whole."""
    reads = context_reads([policy])
    args = reads.get("args", {}) if isinstance(reads, dict) else True
    if args is True:
        return frozenset({"*"})
    assert isinstance(args, dict)
    return frozenset(
        arg
        for arg, sub in args.items()
        if sub is True or (isinstance(sub, dict) and {"source", "sources"} & set(sub))
    )


def read_only(value: Any, reads: ContextReads) -> Any:
    """``value`` with only what ``reads`` marks of it (a value that is not a record, whole). A
    policy that reads what was left out could not have: an attribute missing where one reads it
    is an evaluation error, and an error asks (never admits)."""
    if reads is True or not isinstance(value, dict):
        return value
    assert isinstance(reads, dict)
    return {key: read_only(value[key], sub) for key, sub in reads.items() if key in value}


#: How Cedar's JSON form writes a read of ``context.reviewer`` (``.`` and ``has`` alike).
_READS_REVIEWER = '{"Var":"context"},"attr":"reviewer"'


def _subset(cedar: Any, parsed: Mapping[str, Any], keys: set[str]) -> Any:
    """The policies of ``parsed`` (Cedar's JSON form) under ``keys``, as a policy set of their own
    that keeps their ids (Cedar's diagnostics name them as in the whole set)."""
    static = {k: v for k, v in parsed.get("staticPolicies", {}).items() if k in keys}
    return cedar.PolicySet.from_json_str(
        json.dumps({"staticPolicies": static, "templates": {}, "templateLinks": []})
    )


def _code(text: str) -> str:
    """A Cedar text without its ``//`` comments (strings kept)."""
    return "\n".join(
        re.sub(r'^((?:[^"/]|"(?:\\.|[^"\\])*"|/(?!/))*)//.*$', r"\1", line) for line in text.splitlines()
    )


def cedar_role(review: Mapping[str, Any] | None) -> str | None:
    """The reviewer role a Cedar ``@ask("role")`` gave a question (its review row's ``cedar``), or None."""
    said = (review or {}).get("cedar")
    role = said.get("role") if isinstance(said, Mapping) else None
    return role if isinstance(role, str) and role else None
