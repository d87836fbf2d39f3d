"""Agent Chat UI's requests against a real ``langgraph dev`` (``tests/chat_clients.py``): every
pattern from the chat box, a message with no text, the next message after the UI's fill-in tool
messages, the Supervisor's approval widget, "mark as resolved" and regenerate. One server for the
module; its Supervisor records refunds in an SQLite ledger the tests read."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphs.registry import PATTERNS
from nodes.store import LEDGER_ENV, LedgerOnUse
from tests import chat_clients as chat
from tests.langgraph_dev import langgraph_dev

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
    workdir = tmp_path_factory.mktemp("chat-langgraph-dev")
    ledger = workdir / "ledger.sqlite"
    with langgraph_dev(workdir, **{LEDGER_ENV: str(ledger)}) as url:
        yield DevServer(url, ledger)


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
