import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(autouse=True)
def _run_store_in_tmp(tmp_path, monkeypatch):
    """CLI runs in tests keep their runs in a per-test SQLite file, never in the user's home."""
    monkeypatch.setenv("AGENT_PATTERNS_DB", str(tmp_path / "runs.sqlite"))
