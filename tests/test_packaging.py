"""Installable under its own name, without claiming generic top-level names (docs/development.md,
"Packaging: one package of our name").

The wheel puts ``graphs/``, ``nodes/``, ``policies/`` and ``demo_tools/`` under
``governed_agent_patterns`` and rewrites their imports (``setup.py``); a clone also has them
top-level, and ``governed_agent_patterns.<folder>...`` is the same module object there.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import governed_agent_patterns

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = governed_agent_patterns.FOLDERS
PACKAGE = "governed_agent_patterns"


def _setup_module():
    spec = importlib.util.spec_from_file_location("_project_setup", ROOT / "setup.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not __main__: setup() is not called
    return module


SETUP = _setup_module()


def _sources() -> list[Path]:
    return sorted(p for folder in (*FOLDERS, PACKAGE) for p in (ROOT / folder).rglob("*.py"))


def _ours(name: str | None) -> bool:
    return bool(name) and name.split(".")[0] in FOLDERS


# --- the build's rewriting -------------------------------------------------------------------------


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_module_rewritten_imports_nothing_top_level_of_ours(path):
    text = SETUP.rewrite(path.read_text(encoding="utf-8"), str(path))
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            assert not _ours(node.module), f"{path}:{node.lineno}: from {node.module}"
        elif isinstance(node, ast.Import):
            assert not any(_ours(alias.name) for alias in node.names), f"{path}:{node.lineno}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            # a module path in a string (importlib, the pattern registry) moved with the code
            assert not re.match(rf"^({'|'.join(FOLDERS)})\.\w+(\.\w+)*(:\w+)?$", node.value), (
                f"{path}:{node.lineno}: {node.value!r}"
            )


@given(
    indent=st.sampled_from(["", "    ", "\t"]),
    folder=st.sampled_from(FOLDERS),
    rest=st.lists(st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True), max_size=3),
)
def test_rewriting_moves_every_from_import_and_quoted_path_once(indent, folder, rest):
    module = ".".join([folder, *rest])
    source = f'{indent}from {module} import x\n{indent}y = "{module}.z"\n{indent}w = "{folder}_x.y"\n'
    once = SETUP.rewrite(source)
    assert f"from {PACKAGE}.{module} import x" in once
    assert f'"{PACKAGE}.{module}.z"' in once
    assert f'"{folder}_x.y"' in once  # another name that starts like a folder is left alone
    assert SETUP.rewrite(once) == once  # a rebuild over a copy already rewritten changes nothing


@pytest.mark.parametrize("folder", FOLDERS)
def test_an_import_statement_of_a_folder_fails_the_build(folder):
    with pytest.raises(SystemExit, match="write `from"):
        SETUP.rewrite(f"import {folder}.x\n", "m.py")


def test_the_distribution_is_named_ours_and_no_install_line_names_another_project():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == "governed-agent-patterns"
    assert project["scripts"]["agent-patterns"] == f"{PACKAGE}.cli:main"
    texts = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
    texts += [p for p in _sources()]
    for path in texts:
        for line in path.read_text(encoding="utf-8").splitlines():
            assert not re.search(r"pip install\s+['\"]?agent[-_]patterns\b", line), f"{path}: {line}"


# --- the public API in a clone ---------------------------------------------------------------------


@pytest.mark.parametrize("name", governed_agent_patterns.__all__)
def test_every_public_name_resolves_to_the_object_its_module_defines(name):
    module, attribute = governed_agent_patterns._EXPORTS[name]
    assert getattr(governed_agent_patterns, name) is getattr(importlib.import_module(module), attribute)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_name"):
        governed_agent_patterns.no_such_name  # noqa: B018


@pytest.mark.parametrize(
    "module",
    ["nodes.store", "graphs.supervisor", "nodes.middleware.agent", "policies.supervisor.rules.kinds"],
)
def test_in_a_clone_the_packages_names_are_the_same_modules(module):
    aliased = importlib.import_module(f"{PACKAGE}.{module}")
    assert aliased is importlib.import_module(module)


def test_the_clone_aliases_give_one_class_identity():
    from governed_agent_patterns.policies.supervisor import SupervisorPolicy as Aliased

    from policies.supervisor import SupervisorPolicy

    assert Aliased is SupervisorPolicy is governed_agent_patterns.SupervisorPolicy


# --- the built wheel, installed outside the repository ---------------------------------------------


def _docs_create_agent_example() -> str:
    text = (ROOT / "docs" / "own-agent.md").read_text(encoding="utf-8")
    section = text[text.index("## Start from create_agent") :]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block and "create_agent" in block.group(1)
    return block.group(1)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A wheel built from the project's files, installed with the ``agents`` extra in a fresh venv."""
    where = tmp_path_factory.mktemp("wheel")
    source = where / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for folder in (*FOLDERS, PACKAGE):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    dist = where / "dist"
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "-q"]
    # built by the fresh venv's pip, as a user would (an isolated build: setuptools from the index)
    subprocess.run([*pip, "wheel", "--no-deps", str(source), "-w", str(dist)], check=True, cwd=where)
    (wheel,) = dist.glob("*.whl")
    lock = ROOT / "requirements-dev.lock"
    # its dependencies installed by pip, or by the uv `make UV=...` names (CI: the same wheels, faster)
    uv = os.environ.get("AGENT_PATTERNS_UV")
    if uv and Path(uv).is_file():
        install = [uv, "pip", "install", "-q", "--python", str(python)]
    else:
        install = [*pip, "install"]
    subprocess.run([*install, "-c", str(lock), f"{wheel}[agents]"], check=True, cwd=where)
    return wheel, venv, where


def _clean_env() -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "OPENAI_API_KEY", "OPENAI_BASE_URL")
    }
    env["AGENT_PATTERNS_DB"] = "memory"
    return env


@pytest.mark.integration
def test_the_wheel_holds_one_package_of_our_name(installed):
    wheel, _, _ = installed
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
    assert tops == {PACKAGE, f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info"}


@pytest.mark.integration
def test_the_installed_wheel_runs_the_docs_create_agent_example_outside_the_repo(installed):
    _, venv, where = installed
    script = where / "example.py"
    guard = (
        f"\nimport sys\nassert not [m for m in sys.modules if m.split('.')[0] in {FOLDERS!r}]\nprint('ok')\n"
    )
    script.write_text(_docs_create_agent_example() + guard, encoding="utf-8")
    done = subprocess.run(
        [str(venv / "bin" / "python"), str(script)],
        cwd=where,
        env=_clean_env(),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("ok")
    assert str(ROOT) not in done.stderr


@pytest.mark.integration
def test_the_installed_command_runs_a_pattern_outside_the_repo(installed):
    _, venv, where = installed
    done = subprocess.run(
        [str(venv / "bin" / "agent-patterns"), "run", "supervisor"],
        cwd=where,
        env=_clean_env(),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "ok: success" in done.stdout


def test_the_public_api_lists_exactly_what_it_exports():
    assert sorted(governed_agent_patterns.__all__) == sorted(governed_agent_patterns._EXPORTS)


def test_the_names_type_checkers_see_are_the_public_apis_table():
    """The public API is written once (``PUBLIC_API``); the ``if TYPE_CHECKING:`` imports that
    type checkers and editors read must say the same: each public name from its module and attribute."""
    import ast

    tree = ast.parse(Path(governed_agent_patterns.__file__).read_text(encoding="utf-8"))
    block = next(
        n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING"
    )
    seen = {
        alias.asname or alias.name: (node.module, alias.name)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert seen == governed_agent_patterns._EXPORTS


def test_the_middleware_without_langchain_says_which_extra_to_install(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_langchain(name, *args, **kwargs):
        if name == "langchain" or name.startswith("langchain."):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    for module in [m for m in sys.modules if m == "nodes.middleware" or m.startswith("nodes.middleware.")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setattr(builtins, "__import__", no_langchain)
    with pytest.raises(ImportError, match=r"agents extra, pip install '/path/to/clone\[agents\]'"):
        importlib.import_module("nodes.middleware")


def test_python_dash_m_of_the_package_is_the_command(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", PACKAGE, "patterns"],
        cwd=tmp_path,
        env=_clean_env(),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "supervisor" in done.stdout and "reflection" in done.stdout
