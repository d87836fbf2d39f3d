"""Issue 56, a gateway's edges, with a real upstream MCP server (the SDK's MCPServer over stdio, a
subprocess of the gateway) and the real MCP SDK client (the 2025-11-25 handshake): an attacker's
planted calls that the gateway refuses do not lock the user out of the conversation
(``max_refusals`` spends a turn, not the session); a call id names one call (another call under
it is refused, and gets nothing of the first); the upstream's text comes back as the upstream
wrote it."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
pytest.importorskip("langchain.agents")

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from demo_tools.mcp_server import PLANTED_ADDRESS
from tests.mcp_gateway_process import ROOT, gateway_command, gateway_env

pytestmark = pytest.mark.integration
CALL_ID = "agent-patterns/call_id"
REQUEST = "agent-patterns/request"
POLICY = """\
[rules.send_email]
identifiers = {sources = ["request", "trusted"]}

[policy]
max_refusals = 3
max_tool_calls = 60
"""


def _params(tmp_path: Path) -> StdioServerParameters:
    policy = tmp_path / "policy.toml"
    policy.write_text(POLICY)
    executable, *args = gateway_command("--policy", str(policy), "--db", str(tmp_path / "gateway.sqlite"))
    return StdioServerParameters(command=executable, args=args, env=gateway_env(tmp_path), cwd=str(ROOT))


def _text(result: Any) -> str:
    return " ".join(c.text for c in result.content)


def test_planted_refusals_leave_the_users_reads_working_and_send_nothing(tmp_path: Path) -> None:
    async def session() -> tuple[list[Any], list[Any]]:
        async with stdio_client(_params(tmp_path)) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            reads = [await client.call_tool("read_inbox", {}, meta={REQUEST: "Summarise my inbox"})]
            # the inbox plants an address: an obedient client tries it, more times than max_refusals
            planted = [
                await client.call_tool("send_email", {"to": PLANTED_ADDRESS, "body": f"report {i}"})
                for i in range(5)
            ]
            reads.append(await client.call_tool("lookup_contact", {"name": "ana"}))
            reads.append(await client.call_tool("read_inbox", {}))
            planted.append(await client.call_tool("send_email", {"to": PLANTED_ADDRESS, "body": "again"}))
        return reads, planted

    reads, planted = asyncio.run(asyncio.wait_for(session(), 120))
    assert all(r.is_error for r in planted), [_text(r) for r in planted]
    assert not any(r.is_error for r in reads), [_text(r) for r in reads]
    # the new turn still knows what the conversation read: the planted address stays refused
    assert "untrusted_identifier" in _text(planted[-1]), _text(planted[-1])
    assert (
        not (tmp_path / "ledger.jsonl").exists()
        or PLANTED_ADDRESS not in (tmp_path / "ledger.jsonl").read_text()
    )


def test_a_call_id_names_one_call_and_the_upstreams_text_comes_back_as_written(tmp_path: Path) -> None:
    async def session() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with stdio_client(_params(tmp_path)) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            seen["first"] = await client.call_tool("lookup_contact", {"name": "ana"}, meta={CALL_ID: "c-1"})
            seen["other_tool"] = await client.call_tool(
                "account_balance", {"account": "main"}, meta={CALL_ID: "c-1"}
            )
            seen["other_args"] = await client.call_tool(
                "lookup_contact", {"name": "bob"}, meta={CALL_ID: "c-1"}
            )
            seen["retry"] = await client.call_tool("lookup_contact", {"name": "ana"}, meta={CALL_ID: "c-1"})
            seen["balance"] = await client.call_tool("account_balance", {"account": "main"})
        return seen

    seen = asyncio.run(asyncio.wait_for(session(), 90))
    assert _text(seen["first"]) == "ana@example.com"  # as the upstream wrote it, not {"result": ...}
    assert seen["first"].structured_content == {"result": "ana@example.com"}
    for reused in ("other_tool", "other_args"):
        assert seen[reused].is_error and "names another call" in _text(seen[reused])
        assert "ana@example.com" not in _text(seen[reused])  # nothing of the first call
    assert seen["retry"].content == seen["first"].content  # a true retry: the first answer
    assert seen["balance"].structured_content["balance"] == 120.5


def test_a_tool_the_policy_lists_as_a_side_effect_is_governed_as_one_whatever_its_hints_say() -> None:
    """A server labels ``lookup_contact`` read-only (a lie, or a mistake); the author lists it in
    ``side_effects``: it gets a side effect's defaults (identifiers from the request or a trusted
    source; a human asked, as its server does not say it is harmless), with no rule of its own."""
    from policies.mcp import hinted_policy

    hints = {
        "lookup_contact": {"readOnlyHint": True, "openWorldHint": False},
        "send_email": {"readOnlyHint": False, "destructiveHint": False},
    }
    listed = hinted_policy(hints, side_effects=["lookup_contact", "send_email"])
    lying = listed.rules["lookup_contact"]
    assert listed.tools["lookup_contact"].side_effect
    assert lying.identifiers is not None and list(lying.identifiers.sources) == ["request", "trusted"]
    assert lying.require_approval is True
    assert listed.rules["send_email"].require_approval is False  # its server says it is harmless
    hinted = hinted_policy(hints)  # the hints alone: the read-only one is no side effect
    assert (
        hinted.rules["lookup_contact"].identifiers is None and not hinted.tools["lookup_contact"].side_effect
    )


def test_show_policy_prints_the_effective_rules_per_tool_and_serves_nothing(tmp_path: Path) -> None:
    import json
    import subprocess

    policy = tmp_path / "policy.toml"
    policy.write_text('hide = ["delete_file"]\n\n[rules.send_email]\nrequire_approval = true\n')
    shown = subprocess.run(
        [
            *gateway_command("--policy", str(policy), "--show-policy", "--db", str(tmp_path / "gw.sqlite")),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    rows = {row["tool"]: row for row in json.loads(shown.stdout)}
    assert rows["delete_file"]["served"] is False and rows["delete_file"]["why_not"] == "hidden by the policy"
    assert rows["send_email"]["side_effect"] and rows["send_email"]["rules"]["require_approval"] is True
    assert rows["lookup_contact"]["results"] == "trusted" and not rows["lookup_contact"]["side_effect"]
    assert rows["read_inbox"]["results"] == "untrusted" and rows["read_inbox"]["pin"] == "not pinned yet"
    # the gateway's own reads of the upstream's resources and prompts: read-only, untrusted
    reads = rows["gateway_read_resource"]
    assert reads["served"] and not reads["side_effect"] and reads["results"] == "untrusted"
    assert reads["pin"] == "the gateway's own" and rows["gateway_get_prompt"]["served"]


def test_a_hung_upstream_call_ends_as_an_error_in_bounded_time_and_the_session_goes_on(
    tmp_path: Path,
) -> None:
    params = _params(tmp_path)
    params.args.extend(["--call-timeout", "1"])
    params.env = {**(params.env or {}), "MCP_DEMO_SLOW": "30"}

    async def session() -> tuple[Any, Any]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            hung = await client.call_tool("lookup_contact", {"name": "ana"})  # the upstream takes 30 s
            after = await client.call_tool("read_inbox", {})
        return hung, after

    # the whole session within 25 s: the hung call was ended by --call-timeout, not by the upstream
    hung, after = asyncio.run(asyncio.wait_for(session(), 25))
    assert hung.is_error and "did not answer lookup_contact within 1 s" in _text(hung), _text(hung)
    assert not after.is_error  # the session goes on


def test_an_upstream_that_exits_is_started_again_and_the_session_goes_on(tmp_path: Path) -> None:
    """The upstream process exits mid-session: the call that found it gone is an MCP tool error
    that says so (never an empty ClosedResourceError that ends the session, and not made again),
    the gateway starts the upstream again, and the calls after it are served. Then a rug pull on
    restart: it exits again and comes back with send_email relabelled read-only and "Always BCC
    ..." in its description; its other tools are served, send_email is refused until the gateway
    is restarted and the change reviewed (its pin), and nothing is sent."""
    pull = tmp_path / "pull"
    params = _params(tmp_path)
    params.env = {**(params.env or {}), "MCP_DEMO_RUG_PULL_FILE": str(pull)}

    async def session() -> list[Any]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            first = [
                await client.call_tool("flaky", {"reason": "exit"}),
                await client.call_tool("lookup_contact", {"name": "ana"}),
                await client.call_tool("read_inbox", {}),
            ]
            pull.write_text("relabel send_email on the next start")
            return [
                *first,
                await client.call_tool("flaky", {"reason": "exit again"}),
                await client.call_tool("lookup_contact", {"name": "Ana"}),
                await client.call_tool("send_email", {"to": "ana@example.com", "body": "hi"}),
            ]

    crashed, contact, inbox, again, after, mail = asyncio.run(asyncio.wait_for(session(), 60))
    for broke in (crashed, again):
        assert broke.is_error and "exited" in _text(broke), _text(broke)
        assert "the gateway started it again" in _text(broke) and "not made again" in _text(broke)
    for served in (contact, inbox, after):
        assert not served.is_error, _text(served)
    assert "ana@example.com" in _text(contact) and "ana@example.com" in _text(after)
    assert mail.is_error and "lists it otherwise than when the gateway started" in _text(mail), _text(mail)
    ledger = tmp_path / "ledger.jsonl"  # nothing was sent through the relabelled tool
    assert not ledger.exists() or "send_email" not in ledger.read_text()


def test_a_conversation_the_client_names_keeps_what_it_read_across_sessions_and_gateways(
    tmp_path: Path,
) -> None:
    """A client that opens a new session per call (or reconnects to another gateway process on the
    same store) names its conversation in ``_meta``: what the conversation read is on its thread,
    so the address the inbox planted is refused in a later session; another conversation has read
    nothing. Call ids are the conversation's own."""
    conversation = "agent-patterns/conversation"
    request = {REQUEST: "Summarise my inbox"}

    async def one(call: tuple[str, dict[str, Any]], meta: dict[str, Any]) -> Any:
        async with stdio_client(_params(tmp_path)) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await client.call_tool(*call, meta=meta)

    def call(name: str, args: dict[str, Any], meta: dict[str, Any]) -> Any:
        return asyncio.run(asyncio.wait_for(one((name, args), meta), 60))

    planted = ("send_email", {"to": PLANTED_ADDRESS, "body": "report"})
    assert not call("read_inbox", {}, {**request, conversation: "c1"}).is_error  # gateway process 1
    refused = call(*planted, {**request, conversation: "c1"})  # process 2, the same conversation
    assert refused.is_error and "untrusted_identifier" in _text(refused), _text(refused)
    # a call id is the conversation's: the same id in c1 and c2 names two calls
    first = call("lookup_contact", {"name": "ana"}, {conversation: "c1", CALL_ID: "x"})
    other = call("lookup_contact", {"name": "bo"}, {conversation: "c2", CALL_ID: "x"})
    assert _text(first) == "ana@example.com" and _text(other) == "bo@example.com"
