"""No import circle among the modules of ``graphs/``, ``nodes/``, ``policies/`` and ``apps/`` (issue 34): two
modules that import each other (``apps.operations.audit`` and ``apps.cli.main`` did, the one inside a
function) load only in one order, and a change of what one imports at its top breaks the other.

Every ``import`` is read from the source (``ast``): at a module's top and inside its functions, but
not under ``if TYPE_CHECKING:`` (never run). ``from package import name`` is an import of the
submodule ``package.name`` where there is one, else of ``package`` (its ``__init__``). A module's
package ``__init__`` runs before it, but that is not an edge here: a package that re-exports its
modules would otherwise be a circle with each of them.

None of them may have one. ``policies/`` had some (``policies.supervisor.reading.amounts`` ↔ ``policies.supervisor.reading.identifiers``,
the Supervisor's review with its following and grants modules): the identifier patterns now live in
``policies.patterns`` and ``ReviewContext`` in ``policies.supervisor.provenance.context``, so the review core
imports one way."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("graphs", "nodes", "policies", "apps")


def modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``: dotted name → file."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import statement, at the top and in functions and classes, but not under
    ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _type_checking(node):
            yield from (n for child in node.orelse for n in _imports(ast.Module([child], [])))
        else:
            yield from _imports(node)


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` (at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            wanted = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, *([base] if base else [])])
            wanted = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        for target in wanted:
            while target and target not in known:  # a name inside a module: the module
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
    return targets


def import_graph(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, set[str]]:
    known = modules(root, packages)
    return {name: imported(name, path, known) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's import circles: each strongly connected set of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _cycles_in(package: str) -> list[list[str]]:
    return [c for c in cycles(import_graph()) if any(m.split(".")[0] == package for m in c)]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle(package):
    assert _cycles_in(package) == [], f"import circles through {package}/: {_cycles_in(package)}"


def test_the_layers_import_downwards_only():
    """``policies`` imports neither ``nodes`` nor ``graphs``; ``nodes`` does not import ``graphs``."""
    below = {
        "policies": {"policies"},
        "nodes": {"nodes", "policies"},
        "graphs": {"graphs", "nodes", "policies"},
        "apps": set(PACKAGES),  # which application may import which: tests/test_house.py
    }
    wrong = [
        (name, target)
        for name, targets in import_graph().items()
        for target in targets
        if target.split(".")[0] not in below[name.split(".")[0]]
    ]
    assert wrong == []


def test_the_reader_finds_every_kind_of_circle(tmp_path):
    """Not vacuous: circles made by a function's import, a ``from package import module``, a
    relative import and a package ``__init__`` are found; one under ``TYPE_CHECKING`` is not."""
    files = {
        "pkg/__init__.py": "from pkg.a import A\n",
        "pkg/a.py": "A = 1\ndef f():\n    from pkg import b\n",
        "pkg/b.py": "from pkg.a import A\n",
        "pkg/c.py": "from . import d\n",
        "pkg/d.py": "import pkg.c\n",
        "pkg/e.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import f\n",
        "pkg/f.py": "from pkg import e\n",
        "pkg/sub/__init__.py": "from pkg.sub.g import G\n",
        "pkg/sub/g.py": "from pkg.sub import G2\nG = 1\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = cycles(import_graph(tmp_path, ["pkg"]))
    assert sorted(found) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.d"], ["pkg.sub", "pkg.sub.g"]]


def test_the_packages_are_read():
    graph = import_graph()
    assert {
        "apps.cli.main",
        "apps.operations.audit",
        "nodes.audit",
        "policies.supervisor.decide.review",
    } <= set(graph)
    assert "apps.cli.audit" in graph["apps.cli.main"]  # a function-level import counts
