"""The review core is laid out in the order a call is decided (docs/design: the review core's floors):
``policies/supervisor/`` holds six floors, and a module of a floor imports only from its own floor,
the floors below it, and the shared modules of ``policies/`` every pattern uses. The check reads every
import statement, those inside functions included, so an upward import cannot hide in a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import policies.supervisor as supervisor

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "policies" / "supervisor"
FLOORS = ("reading", "rules", "request", "provenance", "authority", "decide")
#: what every pattern shares, below the review core's floors
SHARED = {"base", "decision", "human", "json_safety", "llm_calls", "patterns", "schemas", "text", "tools"}


def _modules() -> list[tuple[str, Path]]:
    return [(floor, path) for floor in FLOORS for path in sorted((CORE / floor).glob("*.py"))]


def _imported(path: Path) -> list[str]:
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            out += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return [name for name in out if name.split(".")[0] == "policies"]


def _floor_of(name: str) -> int | None:
    parts = name.split(".")
    if len(parts) >= 3 and parts[1] == "supervisor" and parts[2] in FLOORS:
        return FLOORS.index(parts[2])
    return None


def test_every_module_of_the_core_sits_on_a_floor():
    loose = [p.name for p in CORE.glob("*.py") if p.name != "__init__.py"]
    assert not loose, f"modules of policies/supervisor/ outside a floor: {loose}"
    assert all((CORE / floor / "__init__.py").exists() for floor in FLOORS)


@pytest.mark.parametrize(("floor", "path"), _modules(), ids=lambda v: getattr(v, "stem", v))
def test_a_module_imports_only_its_floor_the_floors_below_and_the_shared_modules(floor, path):
    mine = FLOORS.index(floor)
    wrong = []
    for name in _imported(path):
        parts = name.split(".")
        at = _floor_of(name)
        if at is not None:
            if at > mine:
                wrong.append(f"{name} (floor {FLOORS[at]})")
        elif len(parts) >= 2 and parts[1] == "supervisor":
            wrong.append(f"{name} (the package's API, above every floor)")
        elif len(parts) < 2 or parts[1] not in SHARED:
            wrong.append(f"{name} (not a module every pattern shares)")
    assert not wrong, f"{path.relative_to(ROOT)} on floor {floor} imports above it: {wrong}"


def test_the_check_catches_an_upward_import(tmp_path):
    upward = tmp_path / "m.py"
    upward.write_text("def f():\n    from policies.supervisor.decide.review import CHAIN\n")
    assert [n for n in _imported(upward) if (_floor_of(n) or 0) > 0] == [
        "policies.supervisor.decide.review",
        "policies.supervisor.decide.review.CHAIN",
    ]


def test_the_public_api_is_the_packages_and_each_name_resolves():
    for name in supervisor.__all__:
        assert getattr(supervisor, name) is not None, name
