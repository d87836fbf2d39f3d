"""The support desk's governance as the deployment sets it (issue 47): ``$AGENT_PATTERNS_DESK_POLICY``
names a policy file (TOML, YAML or JSON) laid over the desk's policy (expiry, shadow mode, reviewers,
roles, approvals, any rule's field), ``$AGENT_PATTERNS_DESK_SIGNOFF`` over that. Fail-closed: a file
or a signoff that cannot be read or is not valid stops the desk from loading with one line naming
the variable, never a setting silently ignored. On SQLite, the desk's console under a policy file
that makes refunds expire after a second: an approval given later runs nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from demo_tools import support_desk as desk
from graphs.support_desk import (
    POLICY_VARIABLE,
    SIGNOFF_VARIABLE,
    DeskPolicyError,
    desk_policy,
    signoff_from_env,
)
from tests.processes import run

ROOT = Path(__file__).resolve().parent.parent

TOML = """
hide = ["send_email"]

[policy]
mode = "shadow"
ask_expires_after = 600
on_expired = "ask_again"
reviewers = { alice = ["finance"], sam = ["support"] }

[rules.issue_refund]
reviewer_role = "finance"
approvals = 2
shadow = ["thresholds"]
"""
SAME = {
    ".json": json.dumps(
        {
            "hide": ["send_email"],
            "policy": {
                "mode": "shadow",
                "ask_expires_after": 600,
                "on_expired": "ask_again",
                "reviewers": {"alice": ["finance"], "sam": ["support"]},
            },
            "rules": {"issue_refund": {"reviewer_role": "finance", "approvals": 2, "shadow": ["thresholds"]}},
        }
    ),
    ".yaml": """
hide: [send_email]
policy:
  mode: shadow
  ask_expires_after: 600
  on_expired: ask_again
  reviewers: {alice: [finance], sam: [support]}
rules:
  issue_refund: {reviewer_role: finance, approvals: 2, shadow: [thresholds]}
""",
    ".toml": TOML,
}


def written(tmp_path: Path, text: str, suffix: str = ".toml") -> dict[str, str]:
    path = tmp_path / f"desk{suffix}"
    path.write_text(text)
    return {POLICY_VARIABLE: str(path)}


@pytest.mark.parametrize("suffix", sorted(SAME))
def test_the_file_sets_what_it_says_over_the_desks_policy_and_keeps_the_rest(tmp_path, suffix):
    policy = desk_policy(written(tmp_path, SAME[suffix], suffix))
    assert (policy.mode, policy.ask_expires_after, policy.on_expired) == ("shadow", 600, "ask_again")
    assert policy.reviewers == {"alice": ["finance"], "sam": ["support"]}
    refund, before = policy.rules["issue_refund"], desk.policy.rules["issue_refund"]
    assert (refund.reviewer_role, refund.approvals, refund.shadow) == ("finance", 2, ["thresholds"])
    # the rule's other fields are the desk's: the threshold, the owner check, the sources
    assert refund.escalate_above == before.escalate_above and refund.owned == before.owned
    assert refund.arg_sources == before.arg_sources and refund.record_limits == before.record_limits
    assert "send_email" not in policy.allowed_tools and "issue_refund" in policy.allowed_tools
    assert policy.rules["send_email"] == desk.policy.rules["send_email"]
    assert policy.tools == desk.policy.tools


def test_unset_or_empty_variables_leave_the_desks_policy():
    assert desk_policy({}) == desk.policy
    assert desk_policy({POLICY_VARIABLE: " ", SIGNOFF_VARIABLE: ""}) == desk.policy


def test_the_signoff_is_laid_over_the_file(tmp_path):
    env = written(
        tmp_path, '[policy]\nreviewers = { bob = ["finance"] }\n[rules.issue_refund]\napprovals = 2\n'
    )
    env[SIGNOFF_VARIABLE] = json.dumps({"roles": {"issue_refund": "finance"}})
    policy = desk_policy(env)
    refund = policy.rules["issue_refund"]
    assert (refund.reviewer_role, refund.approvals, policy.reviewers) == ("finance", 2, {"bob": ["finance"]})
    env[SIGNOFF_VARIABLE] = json.dumps(
        {"reviewers": {"alice": ["finance"]}, "approvals": {"issue_refund": 1}}
    )
    policy = desk_policy(env)
    assert (policy.rules["issue_refund"].approvals, policy.reviewers) == (1, {"alice": ["finance"]})


BAD_FILES = [
    (
        "[rules.issue_refund]\napprovals = 'two'\n",
        ":2: rules.issue_refund.approvals: Input should be a valid integer",
    ),
    (
        "[rules.issue_refund]\napprovals = 0\n",
        ":2: rules.issue_refund.approvals: Input should be greater than",
    ),
    ("[rules.refund_everything]\napprovals = 1\n", ":1: no tool named 'refund_everything'"),
    ("[policy]\nmode = 'loud'\n", ":2: policy.mode: Input should be 'enforce' or 'shadow'"),
    ("[policy]\nask_expires_after = -1\n", ":2: policy.ask_expires_after:"),
    ("[policy]\nexpire_after = 5\n", ":2: policy.expire_after: not a policy field"),
    ("[rules.issue_refund]\nshadow = ['everything']\n", ":2: rules.issue_refund.shadow"),
    (
        "[rules.issue_refund]\nreviewer = 'finance'\n",
        ": rules.issue_refund.reviewer: Extra inputs are not permitted",
    ),
    ("side_effects = []\n", ":1: side_effects: says what MCP hints do"),
    ("[policy\nmode = 'shadow'\n", ": not valid TOML"),
]


@pytest.mark.parametrize(("text", "said"), BAD_FILES)
def test_a_file_that_is_not_valid_is_one_line_naming_the_variable_the_file_and_the_line(tmp_path, text, said):
    env = written(tmp_path, text)
    with pytest.raises(DeskPolicyError) as caught:
        desk_policy(env)
    line = str(caught.value)
    assert line.startswith(f"${POLICY_VARIABLE}: {env[POLICY_VARIABLE]}") and said in line, line
    assert "\n" not in line


def test_a_file_that_is_missing_unreadable_or_of_another_kind_is_an_error(tmp_path):
    for env, said in [
        ({POLICY_VARIABLE: str(tmp_path / "nowhere.toml")}, "cannot be read: No such file or directory"),
        (written(tmp_path, "mode: shadow", ".txt"), "a policy file is .toml, .yaml, .yml or .json"),
        (written(tmp_path, '{"policy": {"mode": "shadow"},}', ".json"), ":1: not valid JSON"),
        (written(tmp_path, "policy: [unclosed", ".yaml"), "not valid YAML"),
    ]:
        with pytest.raises(DeskPolicyError) as caught:
            desk_policy(env)
        assert str(caught.value).startswith(f"${POLICY_VARIABLE}") and said in str(caught.value)
    (tmp_path / "bytes.toml").write_bytes(b"\xff\xfe mode")
    with pytest.raises(DeskPolicyError, match="cannot be read"):
        desk_policy({POLICY_VARIABLE: str(tmp_path / "bytes.toml")})


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("{bad", "is not JSON"),
        ("[1]", "must be a JSON object"),
        ('{"roles": ["finance"]}', "must be a JSON object"),
        ('{"role": {"issue_refund": "finance"}}', "must be a JSON object"),
        ('{"roles": {"refund": "finance"}}', "roles: no rules for a tool named 'refund'"),
        ('{"approvals": {"issue_refund": "two"}}', "approvals: Input should be a valid integer"),
        ('{"reviewers": {"alice": "finance"}}', "reviewers.alice: Input should be a valid list"),
    ],
)
def test_a_signoff_that_is_not_valid_is_one_line_naming_the_variable(raw, said):
    with pytest.raises(DeskPolicyError) as caught:
        signoff_from_env(desk.policy, {SIGNOFF_VARIABLE: raw})
    assert str(caught.value).startswith(f"${SIGNOFF_VARIABLE}") and said in str(caught.value)


def _python(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "AGENT_PATTERNS_"))}
    full.update(PYTHONPATH=str(ROOT), **env)
    return run([sys.executable, *args], cwd=ROOT, env=full, timeout=180)


@pytest.mark.integration
def test_the_graph_does_not_load_with_a_bad_file_and_the_console_says_it_in_one_line(tmp_path):
    """What the server and Studio load (``graphs/support_desk.py:graph``) raises the one line; the
    desk's console exits 2 with it; no run starts."""
    env = written(tmp_path, "[rules.issue_refund]\napprovals = 'two'\n")
    loaded = _python("-c", "import graphs.support_desk", **env)
    assert loaded.returncode == 1
    last = loaded.stderr.strip().splitlines()[-1]
    assert last.startswith(
        f"graphs.desk_policy.DeskPolicyError: ${POLICY_VARIABLE}: {env[POLICY_VARIABLE]}:2:"
    )
    db = str(tmp_path / "desk.sqlite")
    console = _python(
        "-m",
        "governed_agent_patterns.apps.cli.desk",
        "--db",
        db,
        "--thread",
        "t",
        "Refund 20 EUR on ORD-1001",
        **env,
    )
    assert console.returncode == 2 and console.stdout == ""
    assert (
        console.stderr.startswith(f"support_desk: error: ${POLICY_VARIABLE}: ")
        and console.stderr.count("\n") == 1
    )
    signoff = _python("-c", "import graphs.support_desk", **{SIGNOFF_VARIABLE: "{bad"})
    assert (
        signoff.stderr.strip()
        .splitlines()[-1]
        .startswith(f"graphs.desk_policy.DeskPolicyError: ${SIGNOFF_VARIABLE}")
    )


@pytest.mark.integration
def test_on_sqlite_an_approval_after_the_files_expiry_does_not_run_the_refund(tmp_path):
    """The desk's console on an SQLite file under a policy file whose refunds expire after a second
    (``on_expired = "reject"``): the refund above 100 waits; approved two seconds later it is not
    run, the audit says the late approval was not applied; ``audit --verify`` passes."""
    env = written(tmp_path, '[rules.issue_refund]\nask_expires_after = 1\non_expired = "reject"\n')
    db = str(tmp_path / "desk.sqlite")
    desk_cli = ("-m", "governed_agent_patterns.apps.cli.desk", "--db", db, "--thread", "T")
    asked = _python(*desk_cli, "Refund order ORD-1002 in full.", **env)
    assert asked.returncode == 3 and "(answered later: refused)" in asked.stdout, asked.stdout + asked.stderr
    time.sleep(2)
    late = _python(*desk_cli, "--as", "alice", "--answer", '{"type": "approve"}', **env)
    assert late.returncode == 1, late.stdout + late.stderr  # an answer that ran nothing (issue 55)
    assert "approval_expired" in late.stdout
    assert "the answer ran nothing: the question had expired (approval_expired)" in late.stderr
    shown = _python("-m", "governed_agent_patterns", "show", "T", "--json", "--db", db, **env)
    values = json.loads(shown.stdout)
    assert not [c for c in values.get("governance_calls") or [] if c.get("tool") == "issue_refund"]
    assert [(r["reason"], r["reviewer"]) for r in values["governance_refusals"]] == [
        ("approval_expired", "alice")
    ]
    audit = _python("-m", "governed_agent_patterns", "audit", "T", "--db", db, **env)
    assert "the late approve was not applied (refused)" in audit.stdout, audit.stdout
    verified = _python("-m", "governed_agent_patterns", "audit", "--verify", "--db", db, **env)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_the_old_console_path_still_runs_for_one_release_and_says_where_it_went(tmp_path):
    """``python -m governed_agent_patterns.graphs.support_desk`` (before issue 53) runs the console
    (``apps.cli.desk``), with one line on stderr naming the new path."""
    env = written(tmp_path, "[rules.issue_refund]\napprovals = 'two'\n")
    old = _python(
        "-m",
        "governed_agent_patterns.graphs.support_desk",
        "--db",
        str(tmp_path / "d.sqlite"),
        "--thread",
        "T",
        "hi",
        **env,
    )
    assert old.returncode == 2
    first, second = old.stderr.strip().splitlines()
    assert (
        first
        == "support_desk: deprecated: run python -m governed_agent_patterns.apps.cli.desk (the same arguments)"
    )
    assert second.startswith(f"support_desk: error: ${POLICY_VARIABLE}: ")


@pytest.mark.parametrize(
    "raw",
    [
        '{"roles": {"issue_refund": "tresury"}, "reviewers": {"alice": ["finance"]}}',
        '{"roles": {"issue_refund": "finance"}}',
    ],
)
def test_a_role_no_reviewer_holds_is_one_line_at_load(raw):
    """Issue 55: a role nobody holds would leave every question of its rule waiting for good."""
    with pytest.raises(DeskPolicyError) as caught:
        signoff_from_env(desk.policy, {SIGNOFF_VARIABLE: raw})
    said = str(caught.value)
    assert said.startswith(f"${SIGNOFF_VARIABLE}") and "is held by no reviewer" in said and "\n" not in said
