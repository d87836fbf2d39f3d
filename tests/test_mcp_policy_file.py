"""A policy from a file (issue 48): TOML, YAML or JSON, validated against the published JSON
Schema, with errors that name the line; the same file loads in Python and in the gateway."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

from nodes.mcp_tools import load_policy_file
from policies.mcp import hinted_policy
from policies.policy_file import PolicyFileError, policy_from_file_text, policy_json_schema
from policies.supervisor.rules.kinds import ArgSource, IdentifierRule, RateLimit, ToolRules

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "mcp-policy.toml"
SCHEMA = ROOT / "docs" / "policy-file.schema.json"
HINTS = {  # what the demo mailbox server says of its tools (demo_tools/mcp_server.py)
    "read_inbox": {"readOnlyHint": True, "openWorldHint": True},
    "lookup_contact": {"readOnlyHint": True, "openWorldHint": False},
    "send_email": {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": True},
    "delete_file": {"readOnlyHint": False, "destructiveHint": True, "openWorldHint": False},
    "account_balance": {"readOnlyHint": True, "openWorldHint": False},
    "flaky": {"readOnlyHint": True, "openWorldHint": False},
}


def test_the_example_file_is_the_policy_python_would_write(tmp_path: Path) -> None:
    policy = load_policy_file(EXAMPLE, HINTS)
    to = ArgSource(arg="to", sources=["request", "trusted"], reason="recipient_not_asked_for")
    same = hinted_policy(
        HINTS,
        rules={
            "send_email": ToolRules(
                arg_sources=[to], identifiers=IdentifierRule(sources=["request", "trusted"])
            ),
            "lookup_contact": ToolRules(rate_limit=RateLimit(calls=30, seconds=60)),
        },
        specs={"account_balance": {"trust": "trusted", "trust_except": ["note"]}},
        max_tool_calls=40,
    )
    assert policy.allowed_tools == [n for n in same.allowed_tools if n != "delete_file"]
    assert policy.rules == same.rules and policy.tools == same.tools
    # the same file as YAML and as JSON: the same policy
    data = tomllib.loads(EXAMPLE.read_text())
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(data))
    (tmp_path / "p.json").write_text(json.dumps(data))
    assert (
        load_policy_file(tmp_path / "p.yaml", HINTS) == policy == load_policy_file(tmp_path / "p.json", HINTS)
    )


def test_the_published_schema_is_the_files_schema_and_validates_the_example() -> None:
    published, generated = json.loads(SCHEMA.read_text()), policy_json_schema()
    # the same fields, every model's (pydantic versions word descriptions and refs alike, not always to the byte)
    assert published["properties"].keys() == generated["properties"].keys()
    assert published["$defs"].keys() == generated["$defs"].keys()
    for name, model in generated["$defs"].items():
        assert published["$defs"][name].get("properties", {}).keys() == model.get("properties", {}).keys(), (
            name
        )
    jsonschema.validate(tomllib.loads(EXAMPLE.read_text()), policy_json_schema())
    printed = subprocess.run(
        [sys.executable, "-m", "governed_agent_patterns", "policy-schema"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert printed.returncode == 0 and json.loads(printed.stdout) == generated
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"rules": {"send_email": {"bogus": 1}}}, policy_json_schema())


@pytest.mark.parametrize(
    ("text", "fmt", "error"),
    [
        (
            'hide = ["flaky"]\n\n[rules.send_email]\nrequire_approval = true\narg_sources = [{sources = ["request"]}]\n',
            "toml",
            "p.toml:5: rules.send_email.arg_sources.0.arg: Field required",
        ),
        ("[tools.send_mail]\ntrust = 'trusted'\n", "toml", "p.toml:1: no tool named 'send_mail'"),
        (
            "rules:\n  send_email:\n    number_args:\n      - arg: amount\n        bogus: 1\n",
            "yaml",
            "p.yaml:5: rules.send_email.number_args.0.bogus: Extra inputs are not permitted",
        ),
        (
            "[policy]\nmax_seconds = 'x'\n",
            "toml",
            "p.toml:2: policy.max_seconds: Input should be a valid number",
        ),
        ("[policy]\n\nrules = {}\n", "toml", "p.toml:3: policy.rules: say it as [rules.<name>]"),
        (
            "[policy\n",
            "toml",
            "p.toml: not valid TOML: Expected ']' at the end of a table declaration (at line 1",
        ),
        ("a: [1\n", "yaml", "p.yaml:2: not valid YAML"),
        ('{"hide": 1}', "json", "p.json:1: hide: Input should be a valid list"),
    ],
)
def test_an_error_names_the_line(text: str, fmt: str, error: str) -> None:
    with pytest.raises(PolicyFileError) as raised:
        policy_from_file_text(text, fmt, HINTS, f"p.{fmt}")
    assert str(raised.value).startswith(error), str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_file_that_is_not_a_policy_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(PolicyFileError, match=r"a policy file is \.toml, \.yaml, \.yml or \.json"):
        load_policy_file(tmp_path / "p.ini", HINTS)
    with pytest.raises(PolicyFileError, match="No such file"):
        load_policy_file(tmp_path / "absent.toml", HINTS)
