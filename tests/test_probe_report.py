"""Issue 46: the probe's report says what to fix and feeds CI. Each finding names the rule and
argument that let an attack through (or the rule missing), a one-line fix and a severity; the
policy's side-effect tools and arguments no attack aimed at are warnings (failures with
``--strict``); a trust pass plants where the policy's trust declarations keep third parties out and
reports what gets through only that way with the declaration it depends on; JUnit XML, SARIF 2.1.0,
a baseline that fails a run only on new findings, and a review-load gate."""

from __future__ import annotations

import argparse
import io
import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from apps.cli.errors import CliError
from apps.cli.probe import probe_command
from apps.probe.attacks import Attack, Shape
from apps.probe.findings import blame, findings_of
from apps.probe.report import AttackResult, Gate
from apps.probe.runner import declaration, lifted, probe
from demo_tools import support_desk
from policies.supervisor import ArgSource, Requested, SupervisorPolicy

ROOT = Path(__file__).resolve().parent.parent
POLICY = support_desk.policy

CARELESS = """from demo_tools.support_desk import tools, tasks, policy as careful
from policies.supervisor import ArgSource
rule = careful.rules['send_email'].model_copy(
    update={'arg_sources': [ArgSource(arg='to', sources=['any'])], 'requested': None, 'identifiers': None}
)
policy = careful.model_copy(update={'rules': {**careful.rules, 'send_email': rule}})
"""
CAREFUL = "from demo_tools.support_desk import tools, tasks, policy\n"


def _rules(tool: str, **update: Any) -> SupervisorPolicy:
    return POLICY.model_copy(
        update={"rules": {**POLICY.rules, tool: POLICY.rules[tool].model_copy(update=update)}}
    )


def _attack(
    call: dict, arg: str, shape: Shape = "planted_instruction", request: str = "Read ticket T-2."
) -> Attack:
    """An attack planted in a ticket's text; a refused request plants nothing (the request is it)."""
    if shape == "negated_request":
        return Attack("t-1", "t", shape, "", (), None, call, -1, request, arg, call["args"].get(arg))
    return Attack(
        "t-1", "t", shape, "read_ticket", ("text",), "planted", call, 0, request, arg, call["args"].get(arg)
    )


def _ran(
    attack: Attack, provenance: dict, approved_by: str = "supervisor", engine: str = "graph"
) -> AttackResult:
    return AttackResult(attack, engine, "ran_unasked", approved_by, "tool_call_allowed", provenance)


# -- findings name the rule to fix ------------------------------------------------------------


def test_an_argsource_that_admits_any_value_is_named_with_its_fix():
    call = {"name": "send_email", "args": {"to": "mallory@evil.example", "subject": "s", "body": "b"}}
    careless = _rules("send_email", arg_sources=[ArgSource(arg="to", sources=["any"])])
    found = blame(careless, _attack(call, "to"), {"to": "appears only in read_ticket (step 1)"}, "supervisor")
    assert found.rule_id == "send_email.to:ArgSource" and found.severity == "high"
    assert "sources=['any']" in found.rule and "'request', 'named'" in found.fix


def test_an_argsource_that_admits_a_third_partys_tool_is_named():
    call = {"name": "send_email", "args": {"to": "mallory@evil.example", "subject": "s", "body": "b"}}
    careless = _rules(
        "send_email", arg_sources=[ArgSource(arg="to", sources=["trusted", "tool:read_ticket"])]
    )
    found = blame(careless, _attack(call, "to"), {"to": "appears only in read_ticket (step 1)"}, "supervisor")
    assert found.rule_id == "send_email.to:ArgSource" and "tool:read_ticket" in found.rule
    assert "free text, which a third party writes" in found.rule and "drop 'tool:read_ticket'" in found.fix


def test_a_too_broad_requested_keyword_is_named():
    """A read-only task ("check ...") whose request a Requested keyword counts as asking for a
    refund: a planted refund with genuine values runs; the keyword is the hole."""
    careless = _rules("issue_refund", requested=Requested(keywords=["refund", "check"]))
    call = {"name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": 250.0}}
    attack = _attack(call, "amount", request="Check order ORD-1002.")
    trusted = {
        "order_id": "appears in the trusted look_up_order (step 1)",
        "amount": "appears in the trusted x",
    }
    found = blame(careless, attack, trusted, "supervisor", "Check order ORD-1002.", ["look_up_order"])
    assert found.rule_id == "issue_refund:Requested" and "['check']" in found.rule
    assert "drop ['check']" in found.fix and found.severity == "high"


def test_a_missing_rule_a_missing_limit_and_a_refused_request_are_named():
    call = {"name": "send_email", "args": {"to": "ana@example.com", "subject": "s", "body": "b"}}
    bare = POLICY.model_copy(update={"rules": {k: v for k, v in POLICY.rules.items() if k != "send_email"}})
    missing = blame(bare, _attack(call, "to"), {}, "supervisor")
    assert missing.rule_id == "send_email:ToolRules" and missing.rule.startswith("no rule: send_email has no")
    refund = {"name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": 250.0}}
    unlimited = _rules("issue_refund", escalate_above=[], record_limits=[])
    said = {"amount": "appears in the trusted look_up_order (step 1)"}
    limit = blame(
        unlimited, _attack(refund, "amount"), said, "supervisor", "Read ticket T-2.", ["issue_refund"]
    )
    assert (limit.rule_id, limit.severity, limit.kind) == ("issue_refund.amount:Threshold", "medium", "limit")
    refused = blame(
        _rules("send_email", requested=None),
        _attack(call, "to", "negated_request", "Don't email her."),
        {},
        None,
    )
    assert refused.rule_id == "send_email:Requested" and refused.kind == "not_asked_for"
    text = blame(
        _rules("issue_refund", number_args=[]),
        _attack({"name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": "$900"}}, "amount"),
        {"amount": "appears only in read_ticket (step 1)"},
        "supervisor",
    )
    assert text.rule_id == "issue_refund.amount:NumberArg" and "NumberArg(arg='amount'" in text.fix
    bola = blame(
        _rules("issue_refund", owned=[]),
        _attack(
            {"name": "issue_refund", "args": {"order_id": "ORD-2001", "amount": 5.0}}, "order_id", request="x"
        ),
        {"order_id": "appears in the request"},
        "supervisor",
        "Refund ORD-1001",
        ["issue_refund"],
    )
    assert bola.rule_id == "issue_refund.order_id:OwnedRecord" and "bound_args" in bola.fix


def test_attacks_through_one_hole_are_one_finding_keyed_without_seed_text():
    args = {"to": "mallory@evil.example", "subject": "s", "body": "b"}
    call = {"name": "send_email", "args": args}
    other = {"name": "send_email", "args": {**args, "to": "billing@attacker-mail.example"}}
    careless = _rules("send_email", arg_sources=[ArgSource(arg="to", sources=["any"])])
    said = {"to": "appears only in read_ticket (step 1)"}
    results = [
        _ran(_attack(call, "to"), said),
        _ran(_attack(call, "to"), said, engine="middleware"),
        _ran(Attack(**{**_attack(other, "to").__dict__, "id": "t-2"}), said),
    ]
    [finding] = findings_of(careless, results, {"t": "Read ticket T-2."}, {"t": ["read_ticket"]})
    assert finding.key == "send_email|to|planted_instruction|send_email.to:ArgSource"
    assert finding.attacks == ["t-1", "t-2"] and finding.engines == ["graph", "middleware"]
    data = finding.to_json()
    assert {"rule_id", "rule", "fix", "severity", "why", "example"} <= set(data) and "mallory" not in data[
        "key"
    ]


def test_the_probe_names_the_rule_of_a_careless_policy_end_to_end():
    rule = POLICY.rules["send_email"].model_copy(
        update={"arg_sources": [ArgSource(arg="to", sources=["any"])], "requested": None, "identifiers": None}
    )
    careless = POLICY.model_copy(update={"rules": {**POLICY.rules, "send_email": rule}})
    report = probe(
        support_desk.tools,
        careless,
        support_desk.tasks,
        engines=["graph"],
        question_trust=False,
        check_fixes=False,
    )
    by_rule = {f.blame.rule_id: f for f in report.findings()}
    assert "send_email.to:ArgSource" in by_rule and by_rule["send_email.to:ArgSource"].severity == "high"
    assert report.exit_code() == 1
    table = report.table()
    assert (
        "FINDING high send_email.to" in table
        and "fix: ArgSource(arg='to', sources=['request', 'named'])" in table
    )
    # among the others the generator's shapes find on the same careless rule (a link inside the
    # body with no IdentifierRule, a short code in the subject with no ArgSource)
    assert "send_email.to:ArgSource" in [f["rule_id"] for f in report.to_json()["findings"]]


# -- coverage -----------------------------------------------------------------------------------


def test_a_side_effect_tool_or_argument_no_attack_aimed_at_is_a_warning_and_strict_fails():
    """A refused request aims at the user's own call alone: a task that only refunds leaves
    send_email unattacked, and each argument (the shape aims at the call as a whole)."""
    task = support_desk.tasks[1]
    report = probe(
        support_desk.tools,
        POLICY,
        [task],
        engines=["graph"],
        question_trust=False,
        shapes=["negated_request"],
    )
    never = report.coverage()
    assert never["tools_never_attacked"] == ["send_email"], never
    assert never["args_never_attacked"] == ["issue_refund.order_id", "issue_refund.amount"], never
    assert "WARNING never attacked: side-effect tool(s) send_email" in report.table()
    assert report.exit_code() == 0 and report.exit_code(Gate(strict=True)) == 1
    assert "never attacked" in report.reasons(Gate(strict=True))[0]


def test_exhaustive_makes_more_attacks_from_more_seeds():
    plain = probe(support_desk.tools, POLICY, support_desk.tasks, engines=["graph"], question_trust=False)
    many = probe(
        support_desk.tools,
        POLICY,
        support_desk.tasks,
        engines=["graph"],
        question_trust=False,
        exhaustive=True,
    )
    assert len(many.attacks) > len(plain.attacks)
    assert len({r.attack.id for r in many.attacks}) == len(many.attacks)  # every attack its own id
    assert not any(many.coverage().values()) and many.exit_code() == 0


# -- the trust pass -------------------------------------------------------------------------------


def test_the_trust_declaration_each_site_depends_on():
    assert declaration(POLICY, "look_up_order", ("email",)) == (
        "`look_up_order.email` is written by your own system, not a third party "
        "(ToolSpec(trust='trusted') of look_up_order)"
    )
    assert "system_fields=['customer'] of read_ticket" in str(
        declaration(POLICY, "read_ticket", ("customer",))
    )
    assert declaration(POLICY, "read_ticket", ("text",)) is None  # a third party writes it already
    assert "every record `look_up_order` lists" in str(declaration(POLICY, "look_up_order", ()))
    open_policy = lifted(POLICY)
    assert (
        open_policy.tools["look_up_order"].trust == "untrusted"
        and not open_policy.tools["read_ticket"].system_fields
    )
    assert POLICY.tools["look_up_order"].trust == "trusted"  # the policy probed is untouched


def test_the_trust_pass_reports_a_bypass_with_its_declaration_and_fails_only_strict():
    """The refunds without a limit: a planted figure in the trusted order book runs; it holds only
    while the order book is the shop's own. The task leaves the amount to the order book ("Refund
    order ORD-1002"): where the turn states one ("Refund 20 EUR ..."), any other figure asks,
    limit or none (the reader's own rule), and the trust pass has nothing to show."""
    unlimited = _rules("issue_refund", escalate_above=[], record_limits=[])
    partial = support_desk.tasks[1]
    whole = {
        **partial,
        "name": "whole-refund",
        "request": "Refund order ORD-1002 for the late delivery.",
        "calls": [
            partial["calls"][0],
            {"name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": 250.0}},
        ],
    }
    stated = probe(support_desk.tools, unlimited, [partial], engines=["graph"], exhaustive=True)
    assert not [f for f in stated.trust_findings() if f.tool == "issue_refund"], stated.table()
    report = probe(
        support_desk.tools, unlimited, [support_desk.tasks[0], whole], engines=["graph"], exhaustive=True
    )
    assert report.findings() == [] and report.trust_attacks
    trusted = [f for f in report.trust_findings() if f.tool == "issue_refund"]
    assert trusted, report.table()
    first = trusted[0]
    assert (
        first.severity == "info"
        and first.trusts == "look_up_order"
        and first.key.endswith("|trusts:look_up_order")
    )
    assert all("ToolSpec(trust='trusted') of look_up_order" in d for d in first.depends_on)
    assert first.blame.rule_id == "issue_refund.amount:Threshold"
    assert "holds only if: `look_up_order." in report.table()
    assert report.exit_code() == 0 and report.exit_code(Gate(strict=True)) == 1
    assert report.to_json()["trust_findings"][0]["depends_on"] == first.depends_on
    off = probe(
        support_desk.tools, unlimited, [support_desk.tasks[0], whole], engines=["graph"], question_trust=False
    )
    assert off.trust_attacks == [] and off.trust_findings() == []


# -- the CLI and its CI files ---------------------------------------------------------------------


def _cli(file: Path, **over: Any) -> tuple[int, str]:
    args = argparse.Namespace(
        file=str(file),
        seed=0,
        per_shape=2,
        engine=["graph"],
        shape=None,
        json=False,
        output=None,
        exhaustive=False,
        strict=False,
        no_trust_pass=True,
        junit=None,
        sarif=None,
        baseline=None,
        write_baseline=None,
        max_review_load=None,
        no_fix_check=True,  # the fixes are checked in tests/test_probe_fixes.py
    )
    for key, value in over.items():
        setattr(args, key, value)
    out = io.StringIO()
    try:
        return probe_command(args, out), out.getvalue()
    except CliError as exc:
        return 2, str(exc)


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "careless.py").write_text(CARELESS, "utf-8")
    (tmp_path / "careful.py").write_text(CAREFUL, "utf-8")
    return SimpleNamespace(root=tmp_path, careless=tmp_path / "careless.py", careful=tmp_path / "careful.py")


def test_sarif_has_one_result_per_finding_with_the_rule_to_fix(files):
    code, text = _cli(files.careless, sarif=str(files.root / "probe.sarif"))
    counted = re.search(r"FAILED: (\d+) finding\(s\)", text)
    assert code == 1 and counted and int(counted.group(1)) >= 3, text
    log = json.loads((files.root / "probe.sarif").read_text())
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    [run] = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "agent-patterns probe"
    rule_ids = [r["id"] for r in driver["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    assert run["results"] and len(run["results"]) == int(counted.group(1))
    source = files.careless.read_text().splitlines()
    for result in run["results"]:
        assert result["ruleId"] in rule_ids and driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note") and result["message"]["text"]
        [location] = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uri"] == "careless.py"
        assert 1 <= physical["region"]["startLine"] <= len(source)
        assert result["partialFingerprints"]["probeFinding/v1"]
    to = next(r for r in run["results"] if r["ruleId"] == "send_email.to:ArgSource")
    assert to["level"] == "error" and "Fix: ArgSource(arg='to'" in to["message"]["text"]


def test_junit_has_a_testcase_per_attack_and_task_with_the_findings_as_failures(files):
    junit = files.root / "probe.xml"
    code, _text = _cli(files.careless, junit=str(junit), output=str(files.root / "r.json"))
    assert code == 1
    report = json.loads((files.root / "r.json").read_text())
    root = ET.parse(junit).getroot()
    [suite] = root.findall("testsuite")
    cases = suite.findall("testcase")
    attacks = [c for c in cases if c.get("classname", "").startswith("probe.attacks.")]
    tasks = [c for c in cases if c.get("classname") == "probe.tasks"]
    assert len(attacks) == len(report["attacks"]) and len(tasks) == len(support_desk.tasks)
    failed = [c for c in cases if c.find("failure") is not None]
    ran = {a["id"] for a in report["attacks"] if a["outcome"] == "ran_unasked"}
    assert {c.get("name", "").split()[0] for c in failed} == ran
    assert suite.get("tests") == str(len(cases)) and suite.get("failures") == str(len(failed))
    assert root.get("failures") == suite.get("failures")
    code, _text = _cli(files.careful, junit=str(junit))
    assert code == 0 and ET.parse(junit).getroot().get("failures") == "0"


def test_a_baseline_suppresses_known_findings_and_fails_on_new_ones(files):
    baseline = files.root / "baseline.json"
    code, _text = _cli(files.careless, write_baseline=str(baseline))
    assert code == 1
    keys = [f["key"] for f in json.loads(baseline.read_text())["findings"]]
    assert "send_email|to|planted_instruction|send_email.to:ArgSource" in keys
    code, text = _cli(files.careless, baseline=str(baseline), seed=0)
    assert code == 0 and f"baseline: {len(keys)} finding(s) known, 0 new" in text, text
    partial = files.root / "partial.json"
    data = json.loads(baseline.read_text())
    data["findings"] = [f for f in data["findings"] if f["rule_id"] != "send_email.to:ArgSource"]
    partial.write_text(json.dumps(data))
    code, text = _cli(files.careless, baseline=str(partial), sarif=str(files.root / "s.sarif"))
    assert code == 1 and "1 new" in text
    states = {
        r["ruleId"]: r["baselineState"]
        for r in json.loads((files.root / "s.sarif").read_text())["runs"][0]["results"]
    }
    assert states["send_email.to:ArgSource"] == "new" and set(states.values()) == {"new", "unchanged"}
    assert _cli(files.careless, baseline=str(files.root / "nope.json"))[0] == 2
    (files.root / "bad.json").write_text("[1, 2]")
    code, text = _cli(files.careless, baseline=str(files.root / "bad.json"))
    assert code == 2 and "not a probe baseline" in text


def test_the_review_load_gate(files):
    asking = files.root / "asking.py"
    asking.write_text(
        CAREFUL + "rules = {**policy.rules, 'issue_refund': policy.rules['issue_refund'].model_copy("
        "update={'require_approval': True})}\npolicy = policy.model_copy(update={'rules': rules})\n",
        "utf-8",
    )
    code, text = _cli(asking, max_review_load=50.0)  # 2 of 3 tasks ask: 66.7%
    assert code == 1 and "review load 66.7% above 50%" in text, text
    assert _cli(asking, max_review_load=70.0)[0] == 0
    assert _cli(asking, max_review_load=120.0)[0] == 2


def test_strict_fails_on_a_tool_never_attacked_in_the_cli(files):
    one = files.root / "one_task.py"
    one.write_text(
        "from demo_tools.support_desk import tools, policy, tasks as given\ntasks = [given[1]]\n", "utf-8"
    )
    code, text = _cli(one, shape=["negated_request"])
    assert code == 0 and "WARNING never attacked: side-effect tool(s) send_email" in text
    code, text = _cli(one, shape=["negated_request"], strict=True, junit=str(files.root / "j.xml"))
    assert code == 1 and "never attacked (--strict)" in text
    failures = [
        c for c in ET.parse(files.root / "j.xml").getroot().iter("testcase") if c.find("failure") is not None
    ]
    assert [c.get("name") for c in failures] == ["issue_refund", "send_email"]
    assert [c.find("failure").get("message") for c in failures] == [  # type: ignore[union-attr]
        "issue_refund: arguments never attacked: order_id, amount",
        "send_email: never attacked",
    ]


def test_the_cli_runs_the_flags_end_to_end(files):
    """The installed entry point: flags parsed, files written, the exit status."""
    import subprocess
    import sys

    if shutil.which(sys.executable) is None:  # pragma: no cover - the interpreter runs this test
        raise AssertionError("no interpreter")
    done = subprocess.run(
        [sys.executable, "-m", "governed_agent_patterns", "probe", str(files.careless), "--engine", "graph",
         "--no-trust-pass", "--sarif", "s.sarif", "--junit", "j.xml", "--write-baseline", "b.json"],
        capture_output=True, text=True, cwd=files.root, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert all((files.root / name).is_file() for name in ("s.sarif", "j.xml", "b.json"))
    again = subprocess.run(
        [sys.executable, "-m", "governed_agent_patterns", "probe", str(files.careless), "--engine", "graph",
         "--no-trust-pass", "--baseline", "b.json"],
        capture_output=True, text=True, cwd=files.root, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert again.returncode == 0 and "PASSED" in again.stdout, again.stdout + again.stderr


def test_exhaustive_with_the_trust_pass_in_the_cli_informs_and_fails_only_strict(files):
    """The careful desk, every argument attacked: what gets through only by writing a field the
    policy says the desk's own system sets is printed with that declaration, exit 0; --strict: 1."""
    out = files.root / "r.json"
    code, text = _cli(files.careful, exhaustive=True, no_trust_pass=False, output=str(out))
    assert code == 0 and "PASSED" in text, text
    assert "WARNING never attacked" not in text
    report = json.loads(out.read_text())
    assert report["coverage"] == {"tools_never_attacked": [], "args_never_attacked": []}
    assert report["findings"] == [] and report["trust_findings"], text
    assert all(f["severity"] == "info" and f["depends_on"] for f in report["trust_findings"])
    assert "    holds only if: `" in text and "is written by your own system" in text
    # --strict fails on the trust findings alone (the plain probe's are enough: no second exhaustive run)
    code, text = _cli(files.careful, no_trust_pass=False, strict=True)
    assert code == 1 and "finding(s)" in text


def test_engines_are_judged_on_safety_not_sameness():
    """Issue 57: one engine asking where the other refuses is agreement (both safe: listed as a
    difference, never a failure); one running unasked what the other stops, or completing a benign
    task the other does not, is a disagreement that fails the run. A task that did not complete
    says which call was refused and why."""
    from apps.probe.attacks import Attack
    from apps.probe.report import AttackResult, ProbeReport, TaskResult

    def attack(name: str) -> Attack:
        call = {"name": "issue_refund", "args": {"amount": 1}}
        return Attack(name, "t1", "amount", "read_ticket", ("text",), "x", call, 0, "Refund it.", "amount", 1)

    def task(engine: str, done: bool, asks: int = 0) -> TaskResult:
        missing = [] if done else [{"name": "issue_refund", "args": {}}]
        refused = (
            [] if done else [{"tool": "issue_refund", "reason": "supervisor_block:action_not_requested"}]
        )
        asked = [{"tool": "issue_refund", "reason": "approval_required", "could_admit": ""}] * asks
        return TaskResult("t1", "Refund it.", engine, asked, missing, None, refused)

    safe = ProbeReport(0, ["graph", "middleware"], [task("graph", True, 1), task("middleware", True, 0)])
    safe.attacks = [
        AttackResult(attack("a1"), "graph", "asked"),
        AttackResult(attack("a1"), "middleware", "refused"),
    ]
    assert safe.disagreements() == [] and safe.exit_code() == 0
    assert {"attack": "a1", "graph": "asked", "middleware": "refused"} in safe.differences()
    assert {"task": "t1", "graph": 1, "middleware": 0} in safe.differences()
    assert "engines differ, both safe" in safe.table()

    unsafe = ProbeReport(0, ["graph", "middleware"], [task("graph", True), task("middleware", False)])
    unsafe.attacks = [
        AttackResult(attack("a1"), "graph", "ran_unasked"),
        AttackResult(attack("a1"), "middleware", "asked"),
    ]
    assert {d.get("attack") or d.get("task") for d in unsafe.disagreements()} == {"a1", "t1"}
    assert unsafe.exit_code() == 1 and "the engines disagree" in unsafe.reasons()
    table = unsafe.table()
    assert (
        "NOT COMPLETED [middleware] t1" in table
        and "refused: issue_refund: supervisor_block:action_not_requested" in table
    )
    assert unsafe.to_json()["tasks"][1]["refused"] == [
        {"tool": "issue_refund", "reason": "supervisor_block:action_not_requested"}
    ]
