"""The house's rooms say what they hold (issue 53; docs/development.md, "The map of the house").

``graphs/`` holds the graphs and their machinery; each application around them has a folder of its
own under ``apps/``: the CLI, the probe, the MCP gateway, operations. The check reads every import
(at a module's top and inside its functions, as ``tests/test_imports.py`` does):

- the core (``policies/``, ``nodes/``, ``graphs/``, ``demo_tools/``) imports no application;
- an application imports the core and its own folder, never another application's, except the CLI,
  which may import them all (it is their command line);
- ``apps/__init__.py`` imports nothing (each application loads on its own).

No module imports another's private name: ``tests/test_private_names.py``.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from governed_agent_patterns import MOVED
from tests.test_imports import ROOT, import_graph, modules

CORE = ("policies", "nodes", "graphs", "demo_tools")
APPS = ("cli", "probe", "gateway", "operations")
#: the applications each may import besides its own folder
MAY_IMPORT = {"cli": set(APPS)}
#: what ``graphs/`` may hold: the graphs and their machinery
GRAPHS = {"reflection", "research", "rag", "supervisor", "task_decomposition", "support_desk"}
MACHINERY = {"compile", "registry", "diagrams", "desk_policy"}


def _app(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "apps" and len(parts) > 1 else None


def _wrong_imports(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for name, targets in graph.items():
        for target in targets:
            if target.split(".")[0] != "apps":
                continue
            mine = _app(name)
            if name.split(".")[0] in CORE:
                wrong.append(f"{name} -> {target} (the core imports no application)")
            elif name == "apps":
                wrong.append(f"{name} -> {target} (apps/__init__ imports nothing)")
            elif (theirs := _app(target)) not in {mine, None} and theirs not in MAY_IMPORT.get(
                mine or "", set()
            ):
                wrong.append(f"{name} -> {target} (an application imports no other application)")
    return sorted(wrong)


def test_every_application_has_its_folder_and_graphs_holds_graphs():
    assert sorted(p.name for p in (ROOT / "apps").iterdir() if (p / "__init__.py").exists()) == sorted(APPS)
    held = {p.stem for p in (ROOT / "graphs").glob("*.py")} - {"__init__"}
    assert held == GRAPHS | MACHINERY, f"not graphs nor their machinery: {sorted(held - GRAPHS - MACHINERY)}"


@pytest.mark.parametrize("folder", ["apps", *(f"apps/{app}" for app in APPS)])
def test_each_folder_says_what_it_is_and_what_it_may_import(folder):
    doc = ast.get_docstring(ast.parse((ROOT / folder / "__init__.py").read_text(encoding="utf-8"))) or ""
    assert len(doc.split()) >= 25, f"{folder}/__init__.py: a paragraph saying what it holds and may import"
    assert "import" in doc


def test_no_application_imports_another_and_the_core_imports_none():
    graph = import_graph(ROOT, (*CORE, "apps"))
    assert _wrong_imports(graph) == []
    assert any(_app(t) == "operations" for t in graph["apps.cli.main"] | graph["apps.cli.commands"])


def test_the_house_check_finds_each_kind_of_wrong_import(tmp_path):
    """Not vacuous: a core module importing an application (inside a function too), the probe
    importing operations and ``apps/__init__`` importing an application are found; the CLI importing
    all and an application importing its own folder and the core are not."""
    files = {
        "policies/__init__.py": "",
        "policies/p.py": "def f():\n    from apps.probe.x import X\n",
        "graphs/__init__.py": "",
        "graphs/g.py": "from policies.p import f\n",
        "apps/__init__.py": "from apps.cli import main\n",
        "apps/cli/__init__.py": "",
        "apps/cli/main.py": "from apps.probe.x import X\nfrom apps.operations import y\n",
        "apps/probe/__init__.py": "",
        "apps/probe/x.py": "from apps.probe import z\nfrom graphs.g import f\nX = 1\n",
        "apps/probe/z.py": "from apps.operations.y import Y\n",
        "apps/operations/__init__.py": "",
        "apps/operations/y.py": "Y = 1\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = _wrong_imports(import_graph(tmp_path, ("policies", "graphs", "apps")))
    assert found == [
        "apps -> apps.cli.main (apps/__init__ imports nothing)",
        "apps.probe.z -> apps.operations.y (an application imports no other application)",
        "policies.p -> apps.probe.x (the core imports no application)",
    ]


def test_modules_are_read():
    assert "apps.probe.attacks" in modules(ROOT, ["apps"])


def test_every_moved_module_still_imports_by_its_old_path_with_a_warning_naming_the_new():
    """For one release (CHANGELOG.md), the old path of a moved module is the very module of its new
    path, with and without the package's prefix, and says where it went."""
    code = (
        "import importlib, json, sys, warnings\n"
        "from governed_agent_patterns import MOVED\n"
        "out = []\n"
        "for old, new in MOVED.items():\n"
        "    for prefix in ('', 'governed_agent_patterns.'):\n"
        "        with warnings.catch_warnings(record=True) as caught:\n"
        "            warnings.simplefilter('always')\n"
        "            same = importlib.import_module(prefix + old) is importlib.import_module(new)\n"
        "        said = [str(w.message) for w in caught if w.category is DeprecationWarning]\n"
        "        out.append([prefix + old, same, any(f'moved to {prefix}{new}' in s for s in said)])\n"
        "print(json.dumps(out))\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    rows = json.loads(ran.stdout)
    assert len(rows) == 2 * len(MOVED) and len(MOVED) >= 28
    assert [r[0] for r in rows if not (r[1] and r[2])] == []
    assert {old.split(".")[0] for old in MOVED} == {"graphs", "policies"}


def test_moved_modules_are_gone_from_their_old_folders():
    assert [old for old in MOVED if (ROOT / (old.replace(".", "/") + ".py")).exists()] == []
    assert all((ROOT / (new.replace(".", "/") + ".py")).exists() for new in MOVED.values())


def test_the_command_lines_help_loads_no_application_behind_it():
    """``agent-patterns --help`` lists every command and the probe's shapes (``apps.probe.names``)
    without loading pydantic, LangGraph or an application's engine."""
    code = (
        "import sys\nfrom apps.cli import main\n"
        "try:\n    main.main(['probe', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('pydantic', 'langgraph', 'apps.probe.attacks', 'apps.operations.runs') if m in sys.modules))"
    )
    ran = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert "shared_value" in ran.stdout and ran.stdout.strip().splitlines()[-1] == "[]"


def test_the_desks_console_keeps_its_old_name_for_one_release():
    import apps.cli.desk
    import graphs.support_desk

    with pytest.warns(DeprecationWarning, match="graphs.support_desk.main moved to apps.cli.desk.main"):
        assert graphs.support_desk.main is apps.cli.desk.main
    with pytest.raises(AttributeError):
        graphs.support_desk.no_such_name  # noqa: B018
