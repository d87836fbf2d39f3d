"""The project's command line and Python code run in a child process on this checkout, as a user
or a server runs them (the tests read what they print and their exit status)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_cli(
    *args: str, drop: tuple[str, ...] = ("OPENAI_",), timeout: float = 180, **env: str
) -> subprocess.CompletedProcess[str]:
    """``python -m governed_agent_patterns *args``: the environment without the variables whose
    names start with one of ``drop`` (a developer's key must not reach a test), plus ``env``."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    full.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-m", "governed_agent_patterns", *args],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_bare_python(*args: str, timeout: float) -> str:
    """``python *args`` in a bare environment (only ``PATH`` and the checkout on ``PYTHONPATH``):
    what it printed, once it exited with status 0."""
    done = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout
