"""MCP tools in a governed create_agent agent (issue 48): tools loaded with LangChain's
``langchain.mcp`` (``MCPAdapter``) from a real MCP server (the MCP SDK 2.x's ``MCPServer``, a stdio
subprocess) work with SupervisorPolicy and GovernanceMiddleware as they come, and the MCP
annotations give the policy's defaults."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from langchain_core._api import LangChainBetaWarning

pytest.importorskip("mcp")
pytest.importorskip("fastmcp")
pytest.importorskip("langchain.agents")
with warnings.catch_warnings():  # langchain.mcp is in beta, and says so once, on import
    warnings.simplefilter("ignore", LangChainBetaWarning)
    pytest.importorskip("langchain.mcp")

from fastmcp.client.transports import StdioTransport
from langchain.agents import create_agent
from langchain.mcp import MCPAdapter
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from mcp import ClientSession, StdioServerParameters, stdio_client

from demo_tools.mcp_server import CONTACTS, INBOX, PLANTED_ADDRESS
from governed_agent_patterns import ArgSource, GovernanceMiddleware, SupervisorPolicy, ToolRules
from nodes.mcp_tools import mcp_hints, mcp_policy, structured_results
from policies.mcp import hinted_policy, without_request

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parent.parent
SERVER = [sys.executable, "-m", "demo_tools.mcp_server"]


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


def _server() -> StdioTransport:
    """The demo server over stdio (keep_alive=False: its process ends with the adapter's session)."""
    return StdioTransport(SERVER[0], SERVER[1:], cwd=str(ROOT), keep_alive=False)


async def _with_tools(body: Any) -> Any:
    """``body(tools, listed)``: the tools as ``langchain.mcp`` loads them, and the MCP SDK's ``Tool``
    objects (their output schemas), on one session held open for the body."""
    async with MCPAdapter(_server()) as adapter:
        listed = await adapter.client.list_tools()
        return await body(await adapter.list_tools(), listed)


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


def _decided(policy: SupervisorPolicy) -> dict[str, set[str]]:
    """What a policy decides of each tool: side effects, trusted results, a human asked."""
    return {
        "side_effect": {n for n, spec in policy.tools.items() if spec.side_effect},
        "trusted": {n for n, spec in policy.tools.items() if spec.trust == "trusted"},
        "asks": {n for n, rule in policy.rules.items() if rule.require_approval},
    }


def test_mcp_adapter_tools_give_the_policy_what_the_servers_annotations_say() -> None:
    """``MCPAdapter`` (a StdioTransport to the demo server) keeps each tool's annotations in its
    metadata, in snake case under ``metadata["mcp"]["tool"]``: ``mcp_policy`` reads there what the
    MCP SDK's own ``Tool`` objects say (listed over a ``ClientSession``: the 2025-11-25 handshake),
    and decides as the test above checks."""

    async def adapter_tools() -> list[Any]:
        async with MCPAdapter(_server()) as adapter:
            return await adapter.list_tools()

    async def sdk_tools() -> list[Any]:
        params = StdioServerParameters(command=SERVER[0], args=SERVER[1:], cwd=str(ROOT))
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return (await session.list_tools()).tools

    tools, listed = asyncio.run(adapter_tools()), asyncio.run(sdk_tools())
    by = {t.name: t for t in tools}
    assert by["send_email"].metadata["mcp"]["tool"]["annotations"] == {
        "read_only_hint": False,
        "destructive_hint": False,
        "open_world_hint": True,
    }
    assert by["send_email"].metadata["mcp"]["server"]["name"] == "mailbox"
    hints = mcp_hints(tools)
    assert hints == {
        "read_inbox": {"readOnlyHint": True, "openWorldHint": True},
        "lookup_contact": {"readOnlyHint": True, "openWorldHint": False},
        "send_email": {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": True},
        "delete_file": {"readOnlyHint": False, "destructiveHint": True, "openWorldHint": False},
        "account_balance": {"readOnlyHint": True, "openWorldHint": False},
        "flaky": {"readOnlyHint": True, "openWorldHint": False},
    }
    # the SDK's tools say the same, and their output schemas besides (which langchain.mcp does not keep)
    said = mcp_hints(listed)
    assert {n: {k: v for k, v in h.items() if k != "outputSchema"} for n, h in said.items()} == hints
    assert "outputSchema" in said["account_balance"] and "outputSchema" not in hints["account_balance"]
    decided = _decided(mcp_policy(tools))
    assert decided == _decided(hinted_policy(said)) == _decided(mcp_policy(tools, output_schemas=listed))
    assert decided == {
        "side_effect": {"send_email", "delete_file"},  # not read-only
        "trusted": {"lookup_contact", "account_balance", "flaky"},  # read-only, closed world
        "asks": {"delete_file"},  # destructive; send_email says destructiveHint false
    }
    policy = mcp_policy(tools, rules={"send_email": ToolRules(arg_sources=[TO])})
    assert policy.tools["read_inbox"].trust == "untrusted"  # open world
    assert policy.rules["send_email"].arg_sources == [TO] and not policy.rules["send_email"].require_approval


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


ASKING_SERVER = '''
import json, os
from typing import Annotated
from pydantic import BaseModel
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.resolve import Elicit, Resolve
from mcp.types import ToolAnnotations

server = MCPServer("archive", log_level="WARNING")


class Confirm(BaseModel):
    sure: bool


def ask(folder: str):
    return Elicit(f"Archive every message in {folder}?", Confirm)


@server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
def archive(folder: str, confirm: Annotated[Confirm, Resolve(ask)]) -> str:
    """Archive a folder; the server asks its user first."""
    if confirm.sure:
        with open(os.environ["LEDGER"], "a") as out:
            out.write(json.dumps({"folder": folder}) + "\\n")
    return f"archived {folder}" if confirm.sure else "kept"


server.run("stdio")
'''


@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_a_servers_own_question_mid_call_is_an_interrupt_the_governed_run_resumes(tmp_path, answer):
    """A server that asks its user in the middle of a call (MCP elicitation; ``langchain.mcp``
    turns it into a LangGraph interrupt) inside a governed agent with a journal: the run pauses on
    the server's question, and resumed with the user's answer the call runs once (accepted) or
    not at all (declined); the governance's journal does not take the resumed call for one that
    started before."""
    from langgraph.types import Command

    from nodes.store import open_journal

    (tmp_path / "server.py").write_text(ASKING_SERVER)
    ledger = tmp_path / "ledger.jsonl"
    env = {**os.environ, "LEDGER": str(ledger)}
    transport = StdioTransport(sys.executable, [str(tmp_path / "server.py")], env=env, keep_alive=False)

    async def scenario() -> tuple[Any, Any]:
        with open_journal(str(tmp_path / "journal.sqlite")) as journal:
            async with MCPAdapter(transport) as adapter:
                tools = await adapter.list_tools()
                governance = GovernanceMiddleware(mcp_policy(tools), tools=tools, journal=journal)
                model = _script({"name": "archive", "args": {"folder": "promos"}})
                agent = create_agent(model, tools, middleware=[governance], checkpointer=InMemorySaver())
                config = {"configurable": {"thread_id": "t1"}}
                paused = await agent.ainvoke({"messages": [("user", "Archive my promos folder.")]}, config)
                [question] = paused["__interrupt__"]
                [asked] = question.value["requests"]
                reply = (
                    {"action": "accept", "content": {"sure": True}}
                    if answer == "accept"
                    else {"action": answer}
                )
                done = await agent.ainvoke(Command(resume={"responses": {asked["key"]: reply}}), config)
                return question.value, done

    question, done = asyncio.run(asyncio.wait_for(scenario(), 60))
    assert question["type"] == "mcp_elicitation" and question["tool_name"] == "archive"
    assert question["requests"][0]["message"] == "Archive every message in promos?"
    [result] = [m for m in done["messages"] if isinstance(m, ToolMessage)]
    sent = ledger.read_text().splitlines() if ledger.exists() else []
    if answer == "accept":
        assert result.status != "error" and "archived promos" in str(result.content), result
        assert sent == ['{"folder": "promos"}']  # once
    else:
        assert sent == []
