"""The gateway as the MCP tests start it: ``agent-patterns gateway`` in a process of its own in
front of the demo mailbox server (demo_tools/mcp_server.py), whose side effects land in a ledger
file under the test's tmp_path."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = f"{sys.executable} -m demo_tools.mcp_server"


def gateway_command(*args: str, upstream: str = UPSTREAM) -> list[str]:
    """The command line of a gateway in front of ``upstream``, with ``args`` after it."""
    return [sys.executable, "-m", "governed_agent_patterns", "gateway", "--upstream", upstream, *args]


def gateway_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a gateway (and its upstream) whose ledger is tmp_path/ledger.jsonl."""
    return {**os.environ, "PYTHONPATH": str(ROOT), "MCP_DEMO_LEDGER": str(tmp_path / "ledger.jsonl")}
