"""MCP tools in a governed create_agent agent (issue 48): tools loaded with langchain-mcp-adapters from
a real FastMCP server (a stdio subprocess) work with SupervisorPolicy and GovernanceMiddleware as
they come, and the MCP annotations give the policy's defaults."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import pytest

pytest.importorskip("mcp")
pytest.importorskip("langchain_mcp_adapters")
pytest.importorskip("langchain.agents")

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_mcp_adapters.tools import load_mcp_tools
from langgraph.checkpoint.memory import InMemorySaver
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from demo_tools.mcp_server import CONTACTS, INBOX, PLANTED_ADDRESS
from governed_agent_patterns import ArgSource, GovernanceMiddleware, SupervisorPolicy, ToolRules
from nodes.mcp_tools import mcp_hints, mcp_policy, structured_results
from policies.mcp import hinted_policy, without_request

pytestmark = pytest.mark.integration


class Model(GenericFakeChatModel):
    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


def _script(*calls: dict[str, Any]) -> Model:
    replies = [AIMessage("", tool_calls=[{**c, "id": f"c{n}"}]) for n, c in enumerate(calls)]
    return Model(messages=iter([*replies, AIMessage("done")]))


PLANTED = (
    {"name": "read_inbox", "args": {}},
    {"name": "lookup_contact", "args": {"name": "ana"}},
    {"name": "send_email", "args": {"to": PLANTED_ADDRESS, "body": "the report"}},
    {"name": "send_email", "args": {"to": "ana@example.com", "body": "the report"}},
    {"name": "flaky", "args": {"reason": "boom"}},
)
TO = ArgSource(arg="to", sources=["request", "tool:lookup_contact"], reason="recipient_not_asked_for")


async def _with_tools(body: Any) -> Any:
    params = StdioServerParameters(command=sys.executable, args=["-m", "demo_tools.mcp_server"])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = (await session.list_tools()).tools
        return await body(await load_mcp_tools(session), listed)


async def _run(
    tools: list[Any], policy: SupervisorPolicy, calls: tuple[dict[str, Any], ...]
) -> dict[str, Any]:
    agent = create_agent(
        _script(*calls),
        tools,
        middleware=[GovernanceMiddleware(policy, tools=tools)],
        checkpointer=InMemorySaver(),
    )
    turn = {"messages": [("user", "Mail Ana the report, and tell me what is in my inbox.")]}
    return await agent.ainvoke(turn, {"configurable": {"thread_id": "mcp"}})


def _decisions(out: dict[str, Any]) -> list[tuple[str, str]]:
    rows = [(c["step"], c["tool"], "ran" if c["ok"] else "failed") for c in out["governance_calls"]]
    rows += [(r["step"], r["tool"], r["reason"]) for r in out["governance_refusals"]]
    return [(tool, what) for _, tool, what in sorted(rows)]


# The same tools declared in Python, returning what the MCP server returns.
def read_inbox() -> list[dict[str, str]]:
    """The messages in the user's inbox (written by anyone)."""
    return INBOX


def lookup_contact(name: str) -> str:
    """A contact's e-mail address from the user's own address book."""
    return CONTACTS.get(name.lower(), "unknown")


def send_email(to: str, body: str) -> str:
    """Send an e-mail."""
    return f"sent to {to}"


def flaky(reason: str) -> str:
    """A tool that always fails."""
    raise ValueError(f"upstream failure: {reason}")


def test_mcp_tools_get_the_decisions_of_the_same_tools_declared_in_python() -> None:
    async def body(tools: list[Any], listed: list[Any]) -> Any:
        hints = mcp_hints(tools)
        assert hints["send_email"] == {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": True}
        assert hints["read_inbox"] == {"readOnlyHint": True, "openWorldHint": True}
        policy = mcp_policy(tools, rules={"send_email": ToolRules(arg_sources=[TO])})
        assert policy.tools["send_email"].side_effect and policy.tools["delete_file"].side_effect
        assert not policy.tools["read_inbox"].side_effect
        assert policy.tools["lookup_contact"].trust == "trusted"  # read-only, closed world
        assert policy.tools["read_inbox"].trust == "untrusted"  # open world
        assert policy.rules["delete_file"].require_approval  # destructive: a human
        assert not policy.rules["send_email"].require_approval  # destructiveHint false
        return await _run(tools, policy, PLANTED)

    out = asyncio.run(_with_tools(body))
    python = [read_inbox, lookup_contact, send_email, flaky]
    same = SupervisorPolicy.for_tools(
        python,
        side_effects=["send_email"],
        rules={"send_email": ToolRules(arg_sources=[TO])},
        tools={"lookup_contact": {"trust": "trusted"}},
    )
    expected = asyncio.run(_run(python, same, PLANTED))
    assert (
        _decisions(out)
        == _decisions(expected)
        == [
            ("read_inbox", "ran"),
            ("lookup_contact", "ran"),
            ("send_email", "supervisor_block:recipient_not_asked_for"),  # the planted address: refused
            ("send_email", "ran"),  # Ana's address, from the trusted address book
            ("flaky", "failed"),
        ]
    )
    # the MCP server's isError reaches the model as a refusal does: an error ToolMessage, and it goes on
    errors = [m for m in out["messages"] if isinstance(m, ToolMessage) and m.status == "error"]
    assert [m.name for m in errors] == ["send_email", "flaky"]
    assert "upstream failure: boom" in json.dumps(errors[1].content)
    assert out["messages"][-1].content == "done"


def test_a_destructive_mcp_tool_asks_a_human_and_a_rule_can_say_otherwise() -> None:
    call = ({"name": "delete_file", "args": {"path": "/tmp/x"}},)

    async def body(tools: list[Any], listed: list[Any]) -> tuple[Any, Any]:
        asked = await _run(tools, mcp_policy(tools), call)
        plain = await _run(tools, mcp_policy(tools, rules={"delete_file": ToolRules()}), call)
        return asked, plain

    asked, plain = asyncio.run(_with_tools(body))
    assert asked["__interrupt__"][0].value["reason"] == "approval_required"
    assert [c["tool"] for c in plain["governance_calls"]] == ["delete_file"]


def test_an_output_schema_names_the_trusted_fields_of_structured_results() -> None:
    pay = ArgSource(arg="to", sources=["request", "trusted"], reason="recipient_not_asked_for")
    calls = (
        {"name": "account_balance", "args": {"account": "A1"}},
        {"name": "send_email", "args": {"to": PLANTED_ADDRESS, "body": "balance"}},
    )

    async def body(tools: list[Any], listed: list[Any]) -> Any:
        hints = mcp_hints(tools, output_schemas=listed)
        assert sorted(hints["account_balance"]["outputSchema"]) == ["additionalProperties", "title", "type"]
        with pytest.raises(ValueError, match="not in its output schema"):
            mcp_policy(tools, output_schemas=listed, trusted_fields={"lookup_contact": ["email"]})
        policy = mcp_policy(
            tools,
            specs={"account_balance": {"trust": "trusted", "trust_except": ["note"]}},
            rules={"send_email": ToolRules(arg_sources=[pay])},
        )
        return await _run(structured_results(tools), policy, calls)

    out = asyncio.run(_with_tools(body))
    [call] = out["governance_calls"]
    assert call["observation"]["note"] == f"pay {PLANTED_ADDRESS}"  # a JSON value, field by field
    [refused] = out["governance_refusals"]
    assert refused["reason"] == "supervisor_block:recipient_not_asked_for"  # the note is not trusted


def test_trusted_fields_are_checked_against_the_output_schema() -> None:
    schema = {"type": "object", "properties": {"balance": {"type": "number"}, "note": {"type": "string"}}}
    hints = {"balance": {"readOnlyHint": True, "outputSchema": schema}}
    policy = hinted_policy(hints, trusted_fields={"balance": ["balance"]})
    assert (policy.tools["balance"].trust, policy.tools["balance"].trust_except) == ("untrusted", ["balance"])
    with pytest.raises(ValueError, match=r"owner not in its output schema \(its fields: balance, note\)"):
        hinted_policy(hints, trusted_fields={"balance": ["owner"]})
    # no annotations at all: MCP's defaults, a destructive open-world side effect
    bare = hinted_policy({"run": {}})
    assert bare.tools["run"].side_effect and bare.rules["run"].require_approval


def test_without_the_request_the_rules_that_read_it_ask() -> None:
    policy = hinted_policy(
        {"send_email": {"readOnlyHint": False}}, rules={"send_email": ToolRules(arg_sources=[TO])}
    )
    blind = without_request(policy)
    assert blind.rules["send_email"].arg_sources[0].verdict == "escalate"
    assert policy.rules["send_email"].arg_sources[0].verdict is None
    only_trusted = ArgSource(arg="to", sources=["trusted"])
    kept = without_request(hinted_policy({"s": {}}, rules={"s": ToolRules(arg_sources=[only_trusted])}))
    assert kept.rules["s"].arg_sources[0].verdict is None  # reads no request: decides as before
