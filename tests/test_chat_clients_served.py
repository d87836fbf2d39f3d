"""Agent Chat UI's requests against ``make serve``'s server (langgraph-api on PostgreSQL, two queue
workers, ChatOpenAI against the scripted OpenAI-compatible server): the same checks as against
``langgraph dev`` (``tests/chat_clients.py``), refunds counted in the PostgreSQL ledger the
workers share. One stack for the module (``tests/test_agent_server.py``'s fixture)."""

from __future__ import annotations

import pytest

from graphs.registry import PATTERNS
from tests import chat_clients as chat
from tests.test_agent_server import stack  # noqa: F401  (the module's stack fixture)

pytestmark = pytest.mark.integration


def _refunds(stack):  # noqa: F811
    return lambda: len(stack.ledger().entries("refund"))


@pytest.mark.parametrize("name", list(PATTERNS))
def test_a_chat_message_runs_every_pattern(stack, name):  # noqa: F811
    chat.chat_message_runs(stack.client(), name, _refunds(stack))


def test_a_message_without_text_is_a_named_stop(stack):  # noqa: F811
    for name in PATTERNS:
        chat.message_without_text_stops(stack.client(), name)


def test_the_next_message_after_client_written_tool_messages(stack):  # noqa: F811
    chat.next_message_after_client_tool_messages(stack.client(), _refunds(stack))


def test_mark_as_resolved_does_not_run_the_pending_call(stack):  # noqa: F811
    state = chat.mark_as_resolved(stack.client(), _refunds(stack))
    assert state["next"] == ["human_approval"] and state["interrupts"]  # as under langgraph dev


def test_regenerate_does_not_repeat_the_refund_and_asks_again(stack):  # noqa: F811
    chat.regenerate_does_not_repeat_the_refund(stack.client(), _refunds(stack))


def test_the_audit_log_is_kept_in_the_servers_store(stack):  # noqa: F811
    chat.audit_log_in_the_servers_store(stack.client(), _refunds(stack))
