"""Packaging: where the folders go in an installed wheel (the rest is in pyproject.toml).

The repository keeps the design's top-level folders ``graphs/``, ``nodes/``, ``policies/`` and
``demo_tools/``. Names that generic are taken on the package index, so the wheel must not install
them top-level: it puts each folder under the one package of our name,
``governed_agent_patterns``, and rewrites their imports to match (``from graphs.x import y`` ->
``from governed_agent_patterns.graphs.x import y``; a quoted ``"graphs.x"`` module path likewise).
An editable install (``pip install -e .``, what ``make venv`` does) keeps them top-level: the
tests, ``langgraph.json`` and the notebooks import them by those names (docs/development.md).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

PACKAGE = "governed_agent_patterns"
FOLDERS = ("graphs", "nodes", "policies", "demo_tools", "apps")
_NAMES = "|".join(FOLDERS)
# `from graphs...` / `import graphs...` at the start of a line (any indentation).
_FROM = re.compile(rf"^(\s*)from\s+({_NAMES})(?=[\s.])", re.MULTILINE)
_IMPORT = re.compile(rf"^\s*import\s+({_NAMES})\b", re.MULTILINE)
# A module path in a string: "graphs.registry", 'policies.supervisor:SupervisorPolicy'.
_QUOTED = re.compile(rf"""(["'])({_NAMES})(?=[.:]\w)""")


def rewrite(source: str, name: str = "<source>") -> str:
    """The module's text with the folders' imports and quoted module paths under ``PACKAGE``."""
    plain = _IMPORT.search(source)
    if plain:
        # `import graphs.x` binds `graphs`: rewritten it would bind the package instead.
        raise SystemExit(f"{name}: write `from {plain.group(1)} import ...`, not `{plain.group(0).strip()}`")
    source = _FROM.sub(rf"\1from {PACKAGE}.\2", source)
    return _QUOTED.sub(rf"\1{PACKAGE}.\2", source)


class BuildPy(build_py):
    """Copies each module, rewritten (a wheel's build only; an editable install copies nothing)."""

    def build_module(self, module: str, module_file: str, package: str | list[str]) -> tuple[str, int]:
        outfile, copied = super().build_module(module, module_file, package)
        if outfile.endswith(".py"):  # rewriting is idempotent: a rebuild may find the copy done
            target = Path(outfile)
            target.write_text(rewrite(target.read_text(encoding="utf-8"), module_file), encoding="utf-8")
        return outfile, copied


EDITABLE = any(command in sys.argv for command in ("editable_wheel", "develop"))

if EDITABLE:
    packages = [PACKAGE, *find_packages(include=[f"{folder}*" for folder in FOLDERS])]
    package_dir: dict[str, str] = {}
else:
    packages = [PACKAGE] + [f"{PACKAGE}.{name}" for name in find_packages(include=[f"{f}*" for f in FOLDERS])]
    package_dir = {f"{PACKAGE}.{folder}": folder for folder in FOLDERS}

if __name__ == "__main__":  # setuptools runs this file as __main__; the tests import `rewrite`
    setup(packages=packages, package_dir=package_dir, cmdclass={"build_py": BuildPy})
