"""The probe checks a finding's fix before it offers it (issue 57, docs/probe.md "Reading the
report"): the policy with the fix applied runs again on the attacks that went through and on
every benign task. A fix that closes the hole and keeps every benign task completing is offered
with what it costs in asks; one that stops a benign task is not, and a human asked for every call
of the tool is checked and offered in its place, saying why."""

from __future__ import annotations

import json

from apps.probe.fixes import candidates, fallback
from apps.probe.runner import probe
from policies.supervisor import ArgSource
from tests.probe_careless import banking, helpdesk, mailcal
from tests.probe_careless.common import call, exploited, task, with_rules

#: A benign task whose recipient comes from the inbox without the request naming anyone (the reply
#: goes to the mail in view): under `named` it stops.
REPLY = task(
    mailcal.SUBJECT,
    "reply-in-view",
    "Read my inbox and reply that the Q3 deck comes on Friday.",
    [
        call("read_inbox"),
        call("list_contacts"),
        call("send_email", to="carla.diaz@partner.example", subject="Q3 deck", body="It comes on Friday."),
    ],
    "Replied that the deck comes on Friday.",
)
#: 'trusted' where 'named' was needed for the recipient (a decoy on the domain's own tasks, whose
#: requests name whom to reply to; a mistake once a benign task names no one).
TO_ANY_TRUSTED = with_rules(
    mailcal.policy, "send_email", arg_sources=[ArgSource(arg="to", sources=["request", "trusted"])]
)


def _mistake(domain, name):
    return next(x for x in domain.MISTAKES if x.name == name)


def test_an_owner_rule_fix_is_checked_and_closes_the_hole():
    """The owner rule omitted: the fix offered is the OwnedRecord on the tool whose records say
    their owner, checked to close the attack with no benign task lost; applied by hand, the
    exploit no longer runs."""
    mistake = _mistake(banking, "no-owner-rule")
    report = probe(banking.tools, mistake.policy, banking.tasks, subject=banking.SUBJECT, engines=["graph"])
    [finding] = [f for f in report.failing() if f.blame.rule_id == mistake.rule]
    check = finding.checked
    assert check is not None and check.holds and not check.instead, check
    assert "OwnedRecord(arg='from_account', tool='list_accounts', key='id')" in check.fix
    assert check.closed == check.attacks >= 1 and check.broken == []
    assert report.seconds["fixes"] > 0
    # the same fix, as data, closes the hand-written exploit
    [(fixed, words)] = [
        c for c in candidates(mistake.policy, mistake.rule, subject=["user"]) if "list_accounts" in c[1]
    ]
    assert words == check.fix
    assert not exploited(banking.tools, banking.SIDE, fixed, banking.tasks, banking.SUBJECT, mistake.exploit)
    # the report says it, in the table and in JSON
    assert f"checked: closes {check.closed} of {check.attacks} attack(s)" in report.table()
    listed = next(f for f in report.to_json()["findings"] if f["rule_id"] == mistake.rule)
    assert listed["fix_checked"]["holds"] is True and listed["fix_checked"]["fix"] == check.fix


def test_a_fix_that_breaks_a_benign_task_is_not_offered():
    """'trusted' where 'named' was needed, on a policy whose benign reply takes the recipient's
    address from the inbox without naming anyone: narrowing to `named` closes the attack but stops
    the reply, so it is not offered; a human asked for every mail is, with its asks."""
    rule = "send_email.to:ArgSource"
    report = probe(
        mailcal.tools, TO_ANY_TRUSTED, [*mailcal.tasks, REPLY], subject=mailcal.SUBJECT, engines=["graph"]
    )
    assert report.exit_code() == 1 and report.not_completed == []
    [finding] = [f for f in report.failing() if f.blame.rule_id == rule]
    check = finding.checked
    assert check.holds and check.fix == "ToolRules(require_approval=True) on send_email"
    assert "reply-in-view (graph) no longer completes" in check.instead, check.instead
    assert check.asks_after > check.asks_before
    lines = "\n".join(finding.lines())
    assert "fix: ToolRules(require_approval=True) on send_email" in lines
    assert "sources=['request', 'named']" not in lines.split("checked:")[0]
    listed = next(f for f in report.to_json()["findings"] if f["rule_id"] == rule)
    assert listed["fix"] == check.fix and "reply-in-view" in listed["fix_checked"]["instead"]
    # the SARIF result offers the same fix
    from apps.probe.ci import sarif

    [result] = [r for r in sarif(report, "probe.py")["runs"][0]["results"] if r["ruleId"] == rule]
    assert f"Fix: {check.fix}." in result["message"]["text"]
    json.dumps(report.to_json())  # serialisable


def test_a_fix_that_does_not_close_the_hole_falls_back():
    """A side-effect tool with no rules, blamed on its argument's missing ArgSource: narrowing the
    argument leaves the attacks running (the planted user is one the request's ticket names), so
    the check says so and offers a human for every call."""
    mistake = _mistake(helpdesk, "disable-no-rules")
    report = probe(
        helpdesk.tools, mistake.policy, helpdesk.tasks, subject=helpdesk.SUBJECT, engines=["graph"]
    )
    checked = [f.checked for f in report.failing() if f.tool == "disable_account"]
    assert checked and all(c.holds for c in checked)
    assert all(c.fix == "ToolRules(require_approval=True) on disable_account" for c in checked)
    assert any("still run unasked" in c.instead for c in checked), [c.instead for c in checked]


def test_the_fallback_declares_a_tool_the_policy_ran_as_a_read():
    mistake = _mistake(banking, "close_account-undeclared")
    fixed, words = fallback(mistake.policy, "close_account")
    assert fixed.tools["close_account"].side_effect and fixed.rules["close_account"].require_approval
    assert "side_effects" in words
    assert candidates(mistake.policy, "cedar:p1") == []
