"""No module of the governance core, the nodes or the graphs binds one module-level name twice: the
second binding silently replaces the first for every function that reads it (a set of correction
labels once read as the set of correcting words of another rule, a set of place words once the
reviewer's set of qualifying words). A name is bound by an assignment, a function or a class at the
top of its module; rebinding in a guarded import (``try``/``if``) is not counted."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(
    p for folder in ("policies", "nodes", "graphs", "apps") for p in (ROOT / folder).rglob("*.py")
)


def _bound(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            names.append(node.target.id)
    return names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_module_binds_each_name_once(path):
    counts = Counter(_bound(ast.parse(path.read_text(encoding="utf-8"))))
    assert not [n for n, c in counts.items() if c > 1 and n != "__all__"], path


def test_the_check_finds_a_name_bound_twice():
    tree = ast.parse("_WORDS = {'a'}\ndef f():\n    return _WORDS\n_WORDS = {'b'}\n")
    assert Counter(_bound(tree))["_WORDS"] == 2
