"""The lock files (requirements-dev.lock for .venv, requirements-server.lock for the server's
.venv-server) pin one set inside pyproject.toml's ranges, with every declared dependency in them,
and the ranges are ranges (a library must not pin its users)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
EXTRAS = PROJECT["optional-dependencies"]
LOCKS = {"requirements-dev.lock": "dev", "requirements-server.lock": "server"}


def _locked(lock: str) -> dict[str, str]:
    pins = {}
    for line in (ROOT / lock).read_text(encoding="utf-8").splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-\[\],]+)==([^\s;#]+)", line)
        if match:
            pins[canonicalize_name(match.group(1).split("[")[0])] = match.group(2)
    return pins


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_each_lock_satisfies_every_declared_range(lock):
    extras = [*EXTRAS[LOCKS[lock]], *(EXTRAS["mcp"] if lock == "requirements-dev.lock" else [])]
    declared = [Requirement(r) for r in [*PROJECT["dependencies"], *extras]]
    locked = _locked(lock)
    missing = [str(r) for r in declared if canonicalize_name(r.name) not in locked]
    assert missing == [], f"not in {lock} (run `make lock`): {missing}"
    outside = [
        f"{r.name}=={locked[canonicalize_name(r.name)]} is outside {r.specifier}"
        for r in declared
        if not r.specifier.contains(locked[canonicalize_name(r.name)], prereleases=True)
    ]
    assert outside == [], outside


def test_runtime_dependencies_are_ranges_with_an_upper_bound_on_langchain():
    for spec in PROJECT["dependencies"]:
        requirement = Requirement(spec)
        assert not any(s.operator == "==" for s in requirement.specifier), f"{spec} pins its users"
        if requirement.name.startswith(("langgraph", "langchain")):
            assert any(s.operator == "<" for s in requirement.specifier), f"{spec}: no major-version cap"


def test_the_postgres_saver_range_admits_what_langgraph_runtime_pg_pins():
    [postgres] = [
        Requirement(s) for s in PROJECT["dependencies"] if s.startswith("langgraph-checkpoint-postgres")
    ]
    assert postgres.specifier.contains("3.1.0")


def test_the_policies_import_without_warnings():
    """A warning at import reaches every CLI command's stderr (pydantic < 2.10 warned about the
    ``model_`` prefix of ``model_prices``): the lowest versions run this too."""
    import subprocess
    import sys

    modules = "policies.reflection, policies.research, policies.rag, policies.supervisor, policies.task_decomposition"
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", f"import {modules}"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize(("target", "venv"), [("demo", "VENV"), ("server-venv", "SERVER_VENV")])
def test_building_a_venv_says_how_long_it_takes_before_pip_goes_quiet(target, venv, tmp_path):
    """``make demo`` was silent for minutes (3 min 15 s from an empty pip cache; issue 36): the
    first thing it prints says what it builds and how long it takes, before the quiet pip step."""
    planned = subprocess.run(
        ["make", "-n", "-B", target, f"{venv}={tmp_path / 'v'}"], cwd=ROOT, capture_output=True, text=True
    )
    assert planned.returncode == 0, planned.stderr
    lines = planned.stdout.splitlines()
    first_pip = next(i for i, line in enumerate(lines) if "pip install" in line)
    said = [line for line in lines[:first_pip] if line.startswith("echo ")]
    assert said and "minutes" in said[0], lines[:first_pip]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [demo] = [line for line in readme.splitlines() if line.startswith("make demo ")]
    assert "min" in demo  # the README gives the time too
