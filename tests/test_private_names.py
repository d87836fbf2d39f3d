"""No module imports another module's private name (``from x import _helper``), anywhere in the
project: the packages, the tests, the benchmarks and the dev tools (issue 53). A name another module
needs is that module's public API: drop the underscore, or move the code to where it is used."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_house import CORE
from tests.test_imports import ROOT


def private_imports(root: Path = ROOT) -> list[str]:
    """Each ``from <ours> import _name`` among the project's packages, the tests, bench and devtools."""
    ours = (*CORE, "apps", "tests", "bench", "devtools", "governed_agent_patterns")
    found = []
    for path in sorted(p for folder in ours for p in (root / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ours:
                found += [
                    f"{path.relative_to(root)}:{node.lineno}: {node.module}.{a.name}"
                    for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")
                ]
    return found


def test_no_module_imports_another_modules_private_name():
    """A name another module needs is that module's public API (drop the underscore or move it)."""
    assert private_imports() == []


def test_the_private_name_check_finds_one(tmp_path):
    (tmp_path / "nodes").mkdir()
    (tmp_path / "nodes" / "a.py").write_text("def f():\n    from policies.b import _secret, public\n")
    assert private_imports(tmp_path) == ["nodes/a.py:2: policies.b._secret"]
