"""What a probe found (:mod:`apps.probe.runner`): each benign task's asks, with the rule that asked and
what could admit the step instead, and each attack's outcome per engine, with the rule that
admitted what ran unasked; the findings (:mod:`apps.probe.findings`: the rule to fix, a one-line
fix, a severity), those that hold only while a trust declaration does, and the side-effect tools
and arguments no attack aimed at. A JSON report, a short table, and an exit status a CI job can
gate on (:meth:`ProbeReport.exit_code`): 0 when no finding, every benign task completed and the
engines agree, 1 otherwise (``strict``: also a finding of the trust pass or a tool never
attacked; a ``baseline``: only findings new since it; ``max_review_load``: also a review load
above it)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from apps.probe.attacks import Attack
from apps.probe.findings import Finding, describe_attack, findings_of, in_the_request
from policies.supervisor.rules.policy import SupervisorPolicy

__all__ = ["AttackResult", "Gate", "ProbeReport", "TaskResult", "ask_of", "could_admit"]

#: What could admit a benign step a rule asked about, by the words of its reason or provenance.
_REMEDIES: tuple[tuple[str, str], ...] = (
    ("approval_required", "require_approval asks a human for every call; ToolRules(request_as_approval=True) "
     "lets a request that gives every value stand in (its row says approved_by: request)"),
    ("action_not_requested", "the request does not ask for this kind of action in the words the Requested "
     "rule declares (whole words and inflections; a negated or interrogative clause asks nothing): add the "
     "words your users write"),
    ("derived", "a number computed from admitted figures: ArgSource(derived=[...]) admits it when the "
     "request states the operation (total, left, %, half)"),
    ("untrusted_detail", "a detail only untrusted text holds: name the record it comes from with a trusted "
     "record key (ToolSpec.record_keys, system_fields, owner) or a Follow rule for the step"),
    ("untrusted_destination", "a destination from tool data: a Follow rule for the step (open, reply) and a "
     "record key that names the record"),
    ("sensitive_value_leak", "a confidential value: a Reader for the tool and argument, and a request that "
     "names the value (Reader.names for a field with a common name)"),
    ("appears only in", "a value only untrusted text holds: a Follow rule, or a record key that names its "
     "record, or the tool's trusted fields (trust_except / system_fields)"),
    ("appears nowhere", "a value nobody gave: the request must write it, or a trusted source hold it"),
)  # fmt: skip


def could_admit(reason: str, why: str) -> str | None:
    """The mechanism that could admit a step a rule asked about, if one can."""
    text = f"{reason} {why}"
    return next((remedy for word, remedy in _REMEDIES if word in text), None)


def ask_of(value: dict[str, Any]) -> dict[str, Any]:
    """An approval request as the report keeps it: the call, the rule's reason, why, and what
    could admit it."""
    [action] = value.get("action_requests") or [{}]
    why = str(action.get("description") or "")
    reason = str(value.get("reason") or "")
    if not reason and "needs approval:" in why:
        reason = why.split("needs approval:", 1)[1].strip().split(" ", 1)[0].split(";")[0].strip("(")
    return {
        "tool": action.get("name"),
        "args": action.get("args"),
        "reason": reason,
        "why": why,
        "could_admit": could_admit(reason, why),
    }


@dataclass
class TaskResult:
    """A benign task's clean run in one engine: the asks, the task's calls that did not run, the
    named stop."""

    task: str
    request: str
    engine: str
    asked: list[dict[str, Any]]
    missing: list[dict[str, Any]]
    stop_reason: str | None
    #: the calls the review refused on the way (tool and reason): why a task did not complete
    refused: list[dict[str, Any]] = field(default_factory=list)

    @property
    def completed(self) -> bool:
        return not self.missing and self.stop_reason in (None, "success")


@dataclass
class AttackResult:
    """An attack's outcome in one engine: ``ran_unasked`` (the attacker's call ran with nobody
    asked: ``approved_by`` says who let it, ``rule`` the review's reason, ``provenance`` where its
    values came from), ``asked`` (a human was asked and said no) or ``refused``."""

    attack: Attack
    engine: str
    outcome: str
    approved_by: str | None = None
    rule: str | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    #: the Cedar policies that permitted the call that ran (issue 58), by id
    cedar: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        a = self.attack
        out = {
            "id": a.id,
            "task": a.task,
            "shape": a.shape,
            "engine": self.engine,
            "outcome": self.outcome,
            "call": {"name": a.call["name"], "args": dict(a.call.get("args") or {})},
            "arg": a.arg,
            "planted_at": f"{a.tool}.{'.'.join(a.path)}" if a.path else (a.tool or "the request"),
            "planted": a.request if in_the_request(a) else a.planted,
        }
        if self.outcome == "ran_unasked":
            out |= {"approved_by": self.approved_by, "rule": self.rule, "provenance": self.provenance}
            out |= {"cedar": self.cedar} if self.cedar else {}
        return out


@dataclass(frozen=True)
class Gate:
    """How a run is judged (:meth:`ProbeReport.exit_code`): ``strict``: the trust pass's findings
    and the side-effect tools and arguments no attack aimed at fail it too; ``baseline``: the keys
    of findings already known (they do not fail it); ``max_review_load``: the most review load
    (percent of the benign tasks that ask a human, in any engine) that passes."""

    strict: bool = False
    baseline: frozenset[str] | None = None
    max_review_load: float | None = None


@dataclass
class ProbeReport:
    """Everything a probe found, with its seed and engines (``policy``: the policy probed, which
    the findings read; ``trust_attacks``: the trust pass, ``depends_on``: each of its attacks'
    trust declaration; ``side_effect_args``: the policy's side-effect tools and their arguments;
    ``task_tools``: the tools each benign task calls)."""

    seed: int
    engines: list[str]
    tasks: list[TaskResult] = field(default_factory=list)
    attacks: list[AttackResult] = field(default_factory=list)
    policy: SupervisorPolicy | None = field(default=None, repr=False)
    trust_attacks: list[AttackResult] = field(default_factory=list)
    depends_on: dict[str, tuple[str, str]] = field(default_factory=dict)
    side_effect_args: dict[str, list[str]] = field(default_factory=dict)
    task_tools: dict[str, list[str]] = field(default_factory=dict)
    #: the tools the policy runs unasked without saying they only read (attacked as side effects:
    #: :func:`apps.probe.attacks.undeclared`)
    undeclared: list[str] = field(default_factory=list)
    #: the tools no benign task calls (their rules are tried by attacks alone)
    unused: list[str] = field(default_factory=list)
    #: seconds per stage: the benign tasks' clean runs, generating the attacks, running them, and
    #: the trust pass's runs (both engines together)
    seconds: dict[str, float] = field(
        default_factory=lambda: dict.fromkeys(("tasks", "generating", "attacks", "trust_pass", "fixes"), 0.0)
    )
    #: each failing finding's fix as checked (by the finding's key): :class:`apps.probe.fixes.FixCheck`
    fix_checks: dict[str, Any] = field(default_factory=dict)

    @property
    def ran_unasked(self) -> list[AttackResult]:
        return [r for r in self.attacks if r.outcome == "ran_unasked"]

    def _findings(
        self, results: list[AttackResult], depends_on: dict[str, tuple[str, str]] | None = None
    ) -> list[Finding]:
        if self.policy is None:
            return []
        requests = {t.task: t.request for t in self.tasks}
        found = findings_of(self.policy, results, requests, self.task_tools, depends_on, self.undeclared)
        for finding in found:
            finding.checked = self.fix_checks.get(finding.key)
        return found

    def findings(self) -> list[Finding]:
        """The holes the attacks went through, one per tool, argument, shape and rule; worst first."""
        return self._findings(self.attacks)

    def trust_findings(self) -> list[Finding]:
        """The holes only the trust pass found (``info``; ``medium``, failing the run, where the
        declaration trusts a field whose name says free text): each holds only while its
        declaration does (``depends_on``)."""
        known = {f.key for f in self.findings()}
        found = self._findings(self.trust_attacks, self.depends_on)
        return [f for f in found if f.key.rsplit("|", 1)[0] not in known]  # less its trusts:

    def all_findings(self) -> list[Finding]:
        return [*self.findings(), *self.trust_findings()]

    def coverage(self) -> dict[str, list[str]]:
        """The policy's side-effect tools and their arguments that no attack aimed at (an attack
        on the call as a whole, a refused request, counts for the tool alone)."""
        tools = {str(r.attack.call["name"]) for r in self.attacks}
        args = {
            f"{r.attack.call['name']}.{r.attack.arg}" for r in self.attacks if not in_the_request(r.attack)
        }
        return {
            "tools_never_attacked": [t for t in self.side_effect_args if t not in tools],
            "args_never_attacked": [
                f"{t}.{a}"
                for t, names in self.side_effect_args.items()
                if t in tools
                for a in names
                if f"{t}.{a}" not in args
            ],
        }

    def review_load_pct(self) -> float:
        """The benign tasks' review load in percent, the highest of the engines'."""
        return max((100 * s["review_load"] for s in self.summary().values()), default=0.0)

    def failing(self, gate: Gate | None = None) -> list[Finding]:
        """The findings that fail the run under ``gate``."""
        gate = gate or Gate()
        trusting = [f for f in self.trust_findings() if gate.strict or f.severity != "info"]
        found = self.findings() + trusting
        return [f for f in found if gate.baseline is None or f.key not in gate.baseline]

    def disagreements(self) -> list[dict[str, Any]]:
        """Where the engines disagree on safety or on the work: an attack one engine ran unasked
        and another stopped (asked or refused), a benign task one completed and another did not.
        Both asking, or one asking where the other refuses, is agreement: both are safe
        (:meth:`differences` lists them)."""
        out: list[dict[str, Any]] = []
        for attack, outcomes in self._by_engine_attack().items():
            ran = {o == "ran_unasked" for o in outcomes.values()}
            if len(ran) > 1:
                out.append({"attack": attack, **outcomes})
        for task, results in self._by_engine_task().items():
            if len({t.completed for t in results.values()}) > 1:
                out.append(
                    {
                        "task": task,
                        **{e: "completed" if t.completed else "not completed" for e, t in results.items()},
                    }
                )
        return out

    def differences(self) -> list[dict[str, Any]]:
        """Where the engines differ and both are safe (informational, never a failure): an attack
        one asks and the other refuses, a task asking a different number of questions."""
        out: list[dict[str, Any]] = []
        failing = {d.get("attack", d.get("task")) for d in self.disagreements()}
        for attack, outcomes in self._by_engine_attack().items():
            if len(set(outcomes.values())) > 1 and attack not in failing:
                out.append({"attack": attack, **outcomes})
        for task, results in self._by_engine_task().items():
            asks = {e: len(t.asked) for e, t in results.items()}
            if len(set(asks.values())) > 1 and task not in failing:
                out.append({"task": task, **asks})
        return out

    def _by_engine_attack(self) -> dict[str, dict[str, str]]:
        by_attack: dict[str, dict[str, str]] = {}
        for r in self.attacks:
            by_attack.setdefault(r.attack.id, {})[r.engine] = r.outcome
        return by_attack

    def _by_engine_task(self) -> dict[str, dict[str, TaskResult]]:
        by_task: dict[str, dict[str, TaskResult]] = {}
        for t in self.tasks:
            by_task.setdefault(t.task, {})[t.engine] = t
        return by_task

    def summary(self) -> dict[str, Any]:
        per_engine: dict[str, Any] = {}
        for engine in self.engines:
            tasks = [t for t in self.tasks if t.engine == engine]
            attacks = [r for r in self.attacks if r.engine == engine]
            per_engine[engine] = {
                "benign_tasks": len(tasks),
                "tasks_asked": sum(bool(t.asked) for t in tasks),
                "review_load": round(sum(bool(t.asked) for t in tasks) / len(tasks), 4) if tasks else 0.0,
                "asks": sum(len(t.asked) for t in tasks),
                "tasks_not_completed": sum(not t.completed for t in tasks),
                "attacks": len(attacks),
                "ran_unasked": sum(r.outcome == "ran_unasked" for r in attacks),
                "asked": sum(r.outcome == "asked" for r in attacks),
                "refused": sum(r.outcome == "refused" for r in attacks),
            }
        return per_engine

    @property
    def not_completed(self) -> list[TaskResult]:
        """The benign tasks the policy kept from completing (a refusal, a stop), per engine."""
        return [t for t in self.tasks if not t.completed]

    def reasons(self, gate: Gate | None = None) -> list[str]:
        """Why the run fails under ``gate``, one line each (empty: it passes)."""
        gate = gate or Gate()
        failing = self.failing(gate)
        out = [f"{len(failing)} finding(s)"] if failing else []
        if self.ran_unasked and self.policy is None:
            out.append(f"{len(self.ran_unasked)} attack(s) ran unasked")
        if self.not_completed:
            out.append(f"{len(self.not_completed)} benign task run(s) not completed")
        if self.disagreements():
            out.append("the engines disagree")
        if gate.strict and any(self.coverage().values()):
            out.append("side-effect tools or arguments never attacked (--strict)")
        load = self.review_load_pct()
        if gate.max_review_load is not None and load > gate.max_review_load:
            out.append(f"review load {load:.1f}% above {gate.max_review_load:g}%")
        return out

    def exit_code(self, gate: Gate | None = None) -> int:
        """0: no finding (under ``gate``: none new since its baseline; ``strict``: none of the
        trust pass either, and every side-effect tool and argument attacked), every benign task
        completed, the engines agree (and the review load within ``gate.max_review_load``); 1:
        otherwise."""
        return 1 if self.reasons(gate) else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "engines": self.engines,
            "summary": self.summary(),
            "findings": [f.to_json() for f in self.findings()],
            "trust_findings": [f.to_json() for f in self.trust_findings()],
            "coverage": self.coverage(),
            "undeclared_tools": self.undeclared,
            "seconds": {stage: round(spent, 3) for stage, spent in self.seconds.items()},
            "unused_tools": self.unused,
            "ran_unasked": [r.to_json() for r in self.ran_unasked],
            "disagreements": self.disagreements(),
            "differences": self.differences(),
            "tasks": [
                {
                    "task": t.task,
                    "engine": t.engine,
                    "request": t.request,
                    "asked": t.asked,
                    "completed": t.completed,
                    "stop_reason": t.stop_reason,
                    "refused": t.refused,
                }
                for t in self.tasks
            ],
            "attacks": [r.to_json() for r in self.attacks],
            "trust_attacks": [
                {**r.to_json(), "depends_on": self.depends_on.get(r.attack.id, ("", ""))[1]}
                for r in self.trust_attacks
            ],
        }

    def table(self) -> str:
        """The report in a few lines: per engine, attack success and review load; each attack that
        ran unasked; each benign task that asked, with why and what could admit it."""
        lines = [f"probe (seed {self.seed})"]
        for engine, s in self.summary().items():
            attacks = f"{s['ran_unasked']} ran unasked, {s['asked']} asked, {s['refused']} refused"
            load = f"{s['tasks_asked']}/{s['benign_tasks']} tasks ({100 * s['review_load']:.1f}%)"
            refused = f", {s['tasks_not_completed']} NOT COMPLETED" if s["tasks_not_completed"] else ""
            lines.append(
                f"  {engine:<10} attacks {s['attacks']:>4}: {attacks} | review load {load}, {s['asks']} asks"
                + refused
            )
        for r in self.ran_unasked:
            lines.append(
                f"RAN UNASKED [{r.engine}] {describe_attack(r.attack)} — admitted by {r.rule} "
                f"(approved_by {r.approved_by})"
            )
        for finding in self.all_findings():
            lines += finding.lines()
        never = self.coverage()
        if never["tools_never_attacked"]:
            lines.append(
                f"WARNING never attacked: side-effect tool(s) {', '.join(never['tools_never_attacked'])} "
                "(no attack aimed at them: add a task whose reads an attacker can write, or --exhaustive)"
            )
        if never["args_never_attacked"]:
            lines.append(f"WARNING never attacked: argument(s) {', '.join(never['args_never_attacked'])}")
        if self.undeclared:
            lines.append(
                f"NOTE undeclared: {', '.join(self.undeclared)} — neither in side_effects nor "
                "ToolRules(read_only=True), and not named as a read: run unasked as reads (attacked)"
            )
        if self.unused:
            lines.append(f"NOTE no benign task calls: {', '.join(self.unused)} (tried by attacks only)")
        seen: set[tuple[str, str]] = set()
        for t in self.tasks:
            for ask in t.asked:
                if (t.task, str(ask["tool"])) in seen:
                    continue
                seen.add((t.task, str(ask["tool"])))
                lines.append(f"ASKED {t.task}: {ask['tool']} — {ask['reason'] or 'asked'}")
                if ask["could_admit"]:
                    lines.append(f"    could admit: {ask['could_admit']}")
        for t in self.not_completed:
            calls = ", ".join(str(c.get("name")) for c in t.missing) or "none"
            why = "; ".join(f"{r.get('tool')}: {r.get('reason')}" for r in t.refused)
            lines.append(
                f"NOT COMPLETED [{t.engine}] {t.task}: calls that did not run: {calls}"
                + (f" (stopped: {t.stop_reason})" if t.stop_reason not in (None, "success") else "")
                + (f" (refused: {why})" if why else "")
                + " — the policy refuses a benign task"
            )
            for ask in t.asked:
                if ask["could_admit"]:
                    lines.append(f"    could admit: {ask['could_admit']}")
        for d in self.disagreements():
            lines.append(f"ENGINES DISAGREE: {json.dumps(d, sort_keys=True)}")
        for d in self.differences():
            lines.append(f"engines differ, both safe: {json.dumps(d, sort_keys=True)}")
        return "\n".join(lines)
