"""Agent Chat UI's requests against a real ``langgraph dev`` (``tests/chat_clients.py``): every
pattern from the chat box, a message with no text, the next message after the UI's fill-in tool
messages, the Supervisor's approval widget, "mark as resolved" and regenerate. One server for the
module; its Supervisor records refunds in an SQLite ledger the tests read."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from graphs.registry import PATTERNS
from nodes.store import LEDGER_ENV, LedgerOnUse
from tests import chat_clients as chat
from tests.test_studio import _free_port

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.integration


class DevServer:
    def __init__(self, url: str, ledger: Path) -> None:
        self.url, self.ledger_path = url, ledger

    def client(self):
        from langgraph_sdk import get_sync_client

        return get_sync_client(url=self.url, timeout=120)

    def refunds(self) -> int:
        return len(LedgerOnUse(str(self.ledger_path)).entries("refund"))


@pytest.fixture(scope="module")
def dev(tmp_path_factory):
    exe = Path(sys.executable).parent / "langgraph"
    workdir = tmp_path_factory.mktemp("chat-langgraph-dev")
    ledger = workdir / "ledger.sqlite"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        LANGGRAPH_NO_VERSION_CHECK="true",
        PYTHONPATH=str(ROOT),
        **{LEDGER_ENV: str(ledger)},
    )
    log_path = workdir / "server.log"
    cmd = [
        str(exe),
        "dev",
        "--no-browser",
        "--no-reload",
        "--port",
        str(port),
        "--config",
        str(ROOT / "langgraph.json"),
    ]
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"langgraph dev exited: {log_path.read_text()[-3000:]}")
        try:
            if httpx.get(f"{url}/ok", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.5)
    else:
        os.killpg(proc.pid, signal.SIGTERM)
        pytest.fail(f"langgraph dev did not answer /ok: {log_path.read_text()[-3000:]}")
    yield DevServer(url, ledger)
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.parametrize("name", list(PATTERNS))
def test_a_chat_message_runs_every_pattern(dev, name):
    chat.chat_message_runs(dev.client(), name, dev.refunds)


@pytest.mark.parametrize("name", list(PATTERNS))
def test_a_message_without_text_is_a_named_stop(dev, name):
    chat.message_without_text_stops(dev.client(), name)


def test_the_next_message_after_client_written_tool_messages(dev):
    chat.next_message_after_client_tool_messages(dev.client(), dev.refunds)


def test_mark_as_resolved_does_not_run_the_pending_call(dev):
    state = chat.mark_as_resolved(dev.client(), dev.refunds)
    # LangGraph ignores a goto to __end__ (no node has that name): the run re-asks, the thread
    # keeps waiting on the same request until a new message starts a new run
    assert state["next"] == ["human_approval"] and state["interrupts"]


def test_regenerate_does_not_repeat_the_refund_and_asks_again(dev):
    chat.regenerate_does_not_repeat_the_refund(dev.client(), dev.refunds)


def test_the_audit_log_is_kept_in_the_servers_store(dev):
    chat.audit_log_in_the_servers_store(dev.client(), dev.refunds)
