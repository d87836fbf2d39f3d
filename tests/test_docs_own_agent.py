"""docs/own-agent.md's Python examples run as written (offline)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = (Path(__file__).resolve().parent.parent / "docs" / "own-agent.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", DOC, flags=re.DOTALL)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_own_agent_doc_block_runs(index, monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    exec(compile(BLOCKS[index], f"docs/own-agent.md[python block {index}]", "exec"), {})
