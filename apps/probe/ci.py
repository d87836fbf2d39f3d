"""A probe's report for CI (:mod:`apps.probe.report`): JUnit XML (one testcase per attack and per
benign task, and one per side-effect tool's coverage), SARIF 2.1.0 (one result per finding, its
``ruleId`` the rule to fix, its level from the severity, located in the probe file) and a baseline
(the findings' stable keys) so that a run fails only on findings new since it."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from apps.probe.findings import Finding, describe_attack
from apps.probe.report import Gate, ProbeReport

__all__ = ["BASELINE_VERSION", "LEVELS", "SARIF_SCHEMA", "baseline_of", "junit", "read_baseline", "sarif"]

#: The SARIF level of each severity.
LEVELS = {"high": "error", "medium": "warning", "low": "note", "info": "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
BASELINE_VERSION = 1
_TOOL = "agent-patterns probe"


def baseline_of(report: ProbeReport) -> dict[str, Any]:
    """The baseline of ``report``: every finding's key (the trust pass's too), with what it is."""
    return {
        "version": BASELINE_VERSION,
        "tool": _TOOL,
        "findings": [
            {k: f.to_json()[k] for k in ("key", "severity", "tool", "arg", "shape", "rule_id")}
            for f in report.all_findings()
        ],
    }


def read_baseline(path: str) -> frozenset[str]:
    """The finding keys of a baseline file :func:`baseline_of` wrote; ``ValueError`` in one line
    for a file that is not one."""
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except FileNotFoundError:
        raise ValueError(f"no such baseline file: {path} (write one with --write-baseline)") from None
    except (OSError, ValueError) as exc:
        raise ValueError(f"baseline {path} is not readable JSON: {exc}") from None
    found = data.get("findings") if isinstance(data, Mapping) else None
    if data.get("version") != BASELINE_VERSION if isinstance(data, Mapping) else True:
        raise ValueError(f"baseline {path} is not a probe baseline (version {BASELINE_VERSION})")
    if not isinstance(found, list) or not all(isinstance(f, Mapping) and "key" in f for f in found):
        raise ValueError(f"baseline {path} has no list of findings with keys")
    return frozenset(str(f["key"]) for f in found)


def _testcase(suite: ET.Element, classname: str, name: str, failure: str | None, out: str = "") -> None:
    case = ET.SubElement(suite, "testcase", classname=classname, name=name, time="0")
    if failure is not None:
        ET.SubElement(case, "failure", message=failure.splitlines()[0], type="probe").text = failure
    if out:
        ET.SubElement(case, "system-out").text = out


def junit(report: ProbeReport, gate: Gate | None = None) -> str:
    """The report as JUnit XML: a testcase per attack (failed when it went through a finding that
    fails the run under ``gate``), per benign task (failed when it did not complete in an
    engine) and per side-effect tool's coverage (failed under ``strict`` when never attacked)."""
    gate = gate or Gate()
    failing = {a: f for f in report.failing(gate) for a in f.attacks}
    known = {a: f for f in report.all_findings() for a in f.attacks}
    suite = ET.Element("testsuite", name="agent-patterns probe")
    by_attack: dict[str, list[Any]] = {}
    for r in report.attacks + report.trust_attacks:
        by_attack.setdefault(r.attack.id, []).append(r)
    for attack_id, results in by_attack.items():
        attack = results[0].attack
        outcomes = ", ".join(f"{r.engine}: {r.outcome}" for r in results)
        finding = failing.get(attack_id)
        text = None if finding is None else "\n".join(finding.lines())
        note = known.get(attack_id)
        out = outcomes + ("\n" + "\n".join(note.lines()) if note is not None and finding is None else "")
        pass_name = "trust" if attack_id in report.depends_on else "attacks"
        _testcase(
            suite, f"probe.{pass_name}.{attack.task}", f"{attack_id} {describe_attack(attack)}", text, out
        )
    by_task: dict[str, list[Any]] = {}
    for t in report.tasks:
        by_task.setdefault(t.task, []).append(t)
    for name, runs in by_task.items():
        broken = [t for t in runs if not t.completed]
        text = None
        if broken:
            missing = ", ".join(str(c.get("name")) for c in broken[0].missing) or "none"
            engines = ", ".join(t.engine for t in broken)
            text = f"benign task {name} not completed in {engines}: {missing} did not run"
        asks = "; ".join(f"{t.engine}: {len(t.asked)} ask(s)" for t in runs)
        _testcase(suite, "probe.tasks", name, text, asks)
    never = report.coverage()
    for tool, args in report.side_effect_args.items():
        missed = [a for a in args if f"{tool}.{a}" in never["args_never_attacked"]]
        why = (
            "never attacked"
            if tool in never["tools_never_attacked"]
            else f"arguments never attacked: {', '.join(missed)}"
            if missed
            else ""
        )
        failure = f"{tool}: {why}" if why and gate.strict else None
        _testcase(
            suite, "probe.coverage", tool, failure, f"warning: {why}" if why and not gate.strict else ""
        )
    cases = suite.findall("testcase")
    suite.set("tests", str(len(cases)))
    suite.set("failures", str(sum(c.find("failure") is not None for c in cases)))
    suite.set("errors", "0")
    root = ET.Element("testsuites", name="agent-patterns probe")
    root.append(suite)
    for key in ("tests", "failures", "errors"):
        root.set(key, suite.get(key) or "0")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _line(text: str, finding: Finding) -> int:
    """The line of the probe file where the rule to fix is (the tool's rules, else the tool's
    spec, else the policy), 1 when none is found."""
    lines = text.splitlines()
    tool = re.escape(finding.tool)
    for pattern in (
        rf"[\"']{tool}[\"']\s*:\s*ToolRules\(",
        rf"[\"']{tool}[\"']\s*:\s*ToolSpec\(",
        r"^policy\s*=",
    ):
        for n, line in enumerate(lines, 1):
            if re.search(pattern, line):
                return n
    return 1


def sarif(report: ProbeReport, uri: str, text: str = "", gate: Gate | None = None) -> dict[str, Any]:
    """The findings as a SARIF 2.1.0 log: one result per finding (the trust pass's too, as notes),
    ``ruleId`` the rule to fix, located in the probe file ``uri`` (``text``: its source, to find
    the line of the tool's rules); with a baseline, each result's ``baselineState``."""
    gate = gate or Gate()
    findings = report.all_findings()
    rules: dict[str, dict[str, Any]] = {}
    results: list[dict[str, Any]] = []
    for f in findings:
        rule = rules.setdefault(
            f.blame.rule_id,
            {
                "id": f.blame.rule_id,
                "name": re.sub(r"\W+", "_", f.blame.rule_id),
                "shortDescription": {"text": f.blame.rule},
                "help": {"text": f"fix: {f.fix}"},
                "defaultConfiguration": {"level": LEVELS[f.severity]},
                "properties": {"tags": ["security", "agent-policy"]},
            },
        )
        message = f"{f.blame.rule}. Fix: {f.fix}. Found by: {f.example}."
        if f.depends_on:
            message += f" Holds only if {'; and '.join(f.depends_on)}."
        result: dict[str, Any] = {
            "ruleId": rule["id"],
            "ruleIndex": list(rules).index(rule["id"]),
            "level": LEVELS[f.severity],
            "message": {"text": message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri},
                        "region": {"startLine": _line(text, f)},
                    }
                }
            ],
            "partialFingerprints": {"probeFinding/v1": f.key},
            "properties": {
                "severity": f.severity,
                "tool": f.tool,
                "arg": f.arg,
                "shape": f.shape,
                "attacks": f.attacks,
                "engines": f.engines,
            },
        }
        if gate.baseline is not None:
            result["baselineState"] = "unchanged" if f.key in gate.baseline else "new"
        results.append(result)
    driver = {"name": _TOOL, "rules": list(rules.values())}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results, "columnKind": "utf16CodeUnits"}],
    }
