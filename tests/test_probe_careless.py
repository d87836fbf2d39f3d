"""The probe on careless policies it was not written for (issue 46, docs/probe.md "What it finds:
careless policies it was not written for"): three tool sets that are not the project's (banking,
e-mail and calendar, an IT helpdesk; ``tests/probe_careless/``), the policy a careful author writes
for each, and careless copies with one mistake each. Each mistake is first exploited by hand (a
planted value, or the user as the attacker, runs without a human in the Supervisor graph), and
the careful policy holds against the same exploit; then the probe, in its default mode, exits 0
on the careful policy and 1 on each careless copy, naming the rule to fix. ``python -m
tests.probe_careless.bench [--exhaustive]`` measures the same with both engines and the time."""

from __future__ import annotations

import importlib

import pytest

from apps.probe.runner import probe
from tests.probe_careless.bench import DOMAINS, named
from tests.probe_careless.common import exploited

CASES = [
    (domain, mistake.name)
    for domain in DOMAINS
    for mistake in importlib.import_module(f"tests.probe_careless.{domain}").MISTAKES
]


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_careful_policy_passes_in_both_engines(domain):
    m = importlib.import_module(f"tests.probe_careless.{domain}")
    report = probe(m.tools, m.policy, m.tasks, subject=m.SUBJECT)
    assert report.exit_code() == 0, report.table()
    assert report.failing() == [] and report.not_completed == []


@pytest.mark.parametrize(("domain", "name"), CASES)
def test_each_exploitable_mistake_is_found_with_the_rule_to_fix(domain, name):
    m = importlib.import_module(f"tests.probe_careless.{domain}")
    mistake = next(x for x in m.MISTAKES if x.name == name)
    # exploitable: the hand-written attack runs without a human under the careless policy only
    assert exploited(m.tools, m.SIDE, mistake.policy, m.tasks, m.SUBJECT, mistake.exploit)
    assert not exploited(m.tools, m.SIDE, m.policy, m.tasks, m.SUBJECT, mistake.exploit)
    report = probe(m.tools, mistake.policy, m.tasks, subject=m.SUBJECT, engines=["graph"])
    assert report.exit_code() == 1, report.table()
    assert named(report, mistake), (mistake.rule, [f.blame.rule_id for f in report.failing()])
    # its fix is checked: the finding's own, or a human for every call where that does not hold
    checked = [f.checked for f in report.failing() if f.blame.rule_id in {mistake.rule, *mistake.accept}]
    assert checked and all(c is not None and c.holds for c in checked), checked


DECOYS = [
    (domain, decoy.name)
    for domain in DOMAINS
    for decoy in importlib.import_module(f"tests.probe_careless.{domain}").DECOYS
]


@pytest.mark.parametrize(("domain", "name"), DECOYS)
def test_a_decoy_that_looks_careless_and_is_not_exploitable_passes(domain, name):
    """Issue 57: a copy that looks careless (a threshold per call, broad keywords, no Repeat, no
    approval, no identifier check) where another rule closes the hole: the hand-written attack on
    the look does not run, and the probe passes it (a finding would be a false alarm). In the
    Supervisor graph: the careful policy's test above holds both engines to the same verdicts on
    each domain, and the benchmark runs the decoys in both."""
    m = importlib.import_module(f"tests.probe_careless.{domain}")
    decoy = next(x for x in m.DECOYS if x.name == name)
    assert decoy.policy != m.policy  # it is a copy with a change
    assert not exploited(m.tools, m.SIDE, decoy.policy, m.tasks, m.SUBJECT, decoy.attempt)
    report = probe(m.tools, decoy.policy, m.tasks, subject=m.SUBJECT, engines=["graph"])
    assert report.exit_code() == 0, report.table()
    assert report.failing() == [] and report.not_completed == []


def test_the_benchmark_has_every_kind_of_mistake_the_issue_names():
    kinds = {
        x.kind
        for domain in DOMAINS
        for x in importlib.import_module(f"tests.probe_careless.{domain}").MISTAKES
    }
    assert len(CASES) == 18 and len(kinds) >= 10, kinds
