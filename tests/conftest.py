import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


import pytest  # noqa: E402


@pytest.fixture
def instant_backoff(monkeypatch):
    """Retries without the wait between attempts: the waits asked for are recorded instead."""
    waits: list[float] = []
    monkeypatch.setattr("nodes.clock.sleep", waits.append)
    return waits
