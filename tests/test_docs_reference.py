"""docs/own-agent.md's "Reference" names exactly what the code accepts: every parameter of
``GovernanceMiddleware`` and every source name a rule takes."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from nodes.middleware import GovernanceMiddleware
from policies.supervisor import SupervisorPolicy, rules

DOC = (Path(__file__).resolve().parent.parent / "docs" / "own-agent.md").read_text(encoding="utf-8")


def _table(heading: str) -> dict[str, str]:
    """The first column (its code span) → the row, of the table under ``heading``."""
    section = DOC[DOC.index(heading) :]
    section = section[: section.index("\n#", 1)] if "\n#" in section[1:] else section
    rows = re.findall(r"^\| `([^`]+)` \|(.*)$", section, re.MULTILINE)
    assert rows, f"no table under {heading!r}"
    return dict(rows)


def test_every_middleware_parameter_is_documented_and_nothing_else():
    documented = _table("### `GovernanceMiddleware(...)` parameters")
    parameters = [p for p in inspect.signature(GovernanceMiddleware.__init__).parameters if p != "self"]
    assert sorted(documented) == sorted(parameters)


def test_the_documented_defaults_are_the_codes():
    documented = _table("### `GovernanceMiddleware(...)` parameters")
    signature = inspect.signature(GovernanceMiddleware.__init__).parameters
    assert "required" in documented["tools"]
    with pytest.raises(ValueError, match="tools"):
        GovernanceMiddleware(SupervisorPolicy())
    for name in ("custom_rules", "subject"):
        assert signature[name].default is None and "`{}`" in documented[name]
    assert signature["policy"].default is None and "`SupervisorPolicy()`" in documented["policy"]


def test_every_source_name_is_documented_and_nothing_else():
    documented = set(_table("### Source names a rule accepts"))
    code = {*rules._SOURCE_NAMES, *(f"{prefix}<name>" for prefix in rules._NAMED_SOURCES)}
    assert documented == code


@pytest.mark.parametrize("name", ["request", "subject", "policy", "trusted", "any", "tool:x", "call:x"])
def test_every_documented_source_name_is_accepted(name):
    assert rules.known_sources([name]) == [name]


@pytest.mark.parametrize("name", ["requests", "tool:", "call:", "tools:x", "untrusted", ""])
def test_an_undocumented_source_name_is_refused_when_the_policy_is_built(name):
    with pytest.raises(ValueError, match="unknown source"):
        rules.known_sources([name])
