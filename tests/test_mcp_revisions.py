"""The gateway on the MCP protocol revision 2026-07-28 (issue 56), with a real upstream (the demo
mailbox, a stdio subprocess) and the MCP SDK's own client speaking it: a question is an
``InputRequiredResult`` whose sealed ``requestState`` names one waiting question; the answer that
comes back with it runs the call once, and the state is good for that question only (used once;
edited, or sent with other arguments, it is refused and nothing runs). And the SDK's private
per-connection state the gateway keys its sessions on (``apps.gateway.server.connection_of``)."""

from __future__ import annotations

import asyncio
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
pytest.importorskip("langchain.agents")

from mcp import Client, StdioServerParameters, types
from mcp.shared.exceptions import MCPError

from tests.mcp_gateway_process import ROOT, gateway_command, gateway_env

pytestmark = pytest.mark.integration
POLICY = """\
[rules.send_email]
require_approval = true
"""


def _params(tmp_path: Path, policy: str = POLICY) -> StdioServerParameters:
    (tmp_path / "policy.toml").write_text(policy)
    executable, *args = gateway_command(
        "--ask-client", "--policy", str(tmp_path / "policy.toml"), "--db", str(tmp_path / "gw.db")
    )
    return StdioServerParameters(command=executable, args=args, env=gateway_env(tmp_path), cwd=str(ROOT))


def _sent(tmp_path: Path) -> list[dict[str, Any]]:
    ledger = tmp_path / "ledger.jsonl"
    return [json.loads(line) for line in ledger.read_text().splitlines()] if ledger.exists() else []


def _approve(content: dict[str, Any]) -> dict[str, types.ElicitResult]:
    return {"approve": types.ElicitResult(action="accept", content=content)}


async def _never(context: Any, params: Any) -> types.ElicitResult:
    raise AssertionError("the rounds are driven by hand")


REQUEST = {"agent-patterns/request": "Mail ana@example.com: lunch at noon"}
MAIL = {"to": "ana@example.com", "body": "lunch at noon"}


def test_a_2026_question_is_answered_once_and_its_state_fits_that_question_only(tmp_path):
    async def scenario() -> None:
        # the client declares elicitation (else its questions go to reviewers only); the rounds
        # are driven by hand here, through the session, so the callback is never called
        async with Client(_params(tmp_path), elicitation_callback=_never) as client:
            assert client.protocol_version == "2026-07-28"
            session = client.session
            first = await session.call_tool("send_email", MAIL, meta=REQUEST, allow_input_required=True)
            assert isinstance(first, types.InputRequiredResult), first
            ((key, asked),) = first.input_requests.items()
            assert "send_email" in asked.params.message and "ana@example.com" in asked.params.message
            state = first.request_state
            assert state and "question" not in state  # sealed: the client cannot read what it names
            assert _sent(tmp_path) == []  # it waits for the answer

            # edited, the state is refused by the seal; with other arguments, by its binding
            edited = state[:-2] + ("A" if state[-2] != "A" else "B") + state[-1]
            with pytest.raises(MCPError, match="requestState"):
                await session.call_tool(
                    "send_email",
                    MAIL,
                    meta=REQUEST,
                    input_responses=_approve({"approve": True}),
                    request_state=edited,
                    allow_input_required=True,
                )
            other = {"to": "drop@exfil.example", "body": "lunch at noon"}
            with pytest.raises(MCPError, match="requestState"):
                await session.call_tool(
                    "send_email",
                    other,
                    meta=REQUEST,
                    input_responses=_approve({"approve": True}),
                    request_state=state,
                    allow_input_required=True,
                )
            assert _sent(tmp_path) == []

            done = await session.call_tool(
                "send_email",
                MAIL,
                meta=REQUEST,
                input_responses={key: _approve({"approve": True})[key]},
                request_state=state,
                allow_input_required=True,
            )
            assert isinstance(done, types.CallToolResult) and not done.is_error, done
            assert [m["args"]["to"] for m in _sent(tmp_path)] == ["ana@example.com"]

            # the same answer again (a replay): refused, nothing runs a second time
            again = await session.call_tool(
                "send_email",
                MAIL,
                meta=REQUEST,
                input_responses=_approve({"approve": True}),
                request_state=state,
                allow_input_required=True,
            )
            assert isinstance(again, types.CallToolResult) and again.is_error
            assert "answered before" in again.content[0].text
            assert len(_sent(tmp_path)) == 1

    asyncio.run(scenario())


def test_a_2026_client_that_rejects_runs_nothing_and_the_sdk_drives_the_rounds(tmp_path):
    answers: list[str] = []

    async def user(context: Any, params: Any) -> types.ElicitResult:
        answers.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": False, "message": "not now"})

    async def scenario() -> None:
        async with Client(_params(tmp_path), elicitation_callback=user) as client:
            result = await client.call_tool("send_email", MAIL, meta=REQUEST)
            assert result.is_error, result
            assert len(answers) == 1
            read = await client.call_tool("lookup_contact", {"name": "ana"})  # the next call is served
            assert not read.is_error and read.content[0].text == "ana@example.com"

    asyncio.run(scenario())
    assert _sent(tmp_path) == []


def test_the_sdk_keeps_per_connection_state_where_the_gateway_keys_its_sessions():
    """``connection_of`` reaches the SDK's private ``ServerSession._connection``: its ``state`` lives
    as long as the client's connection (every call of a 2025-11-25 session sees the same), and its
    ``exit_stack`` runs when the connection closes (the gateway forgets the session there)."""
    from mcp.server.lowlevel import Server

    from apps.gateway.server import connection_of

    seen: list[object] = []
    closed: list[object] = []

    async def call_tool(context: Any, params: Any) -> types.CallToolResult:
        connection = connection_of(context)
        key = connection.state.get("k")
        if key is None:
            key = connection.state["k"] = object()

            async def close() -> None:
                closed.append(key)

            connection.exit_stack.push_async_callback(close)
        seen.append(key)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=connection.protocol_version)]
        )

    async def list_tools(context: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(name="t", input_schema={"type": "object"})])

    server: Server[Any] = Server("probe", on_list_tools=list_tools, on_call_tool=call_tool)

    async def scenario(mode: str) -> list[str]:
        async with Client(server, mode=mode) as client:
            said = [(await client.call_tool("t", {})).content[0].text for _ in range(2)]
        return said

    assert asyncio.run(scenario("legacy")) == ["2025-11-25", "2025-11-25"]
    assert seen[0] is seen[1] and closed == [seen[0]]  # one connection: one key, closed once
    seen.clear()
    closed.clear()
    assert asyncio.run(scenario("2026-07-28")) == ["2026-07-28", "2026-07-28"]
    assert seen[0] is not seen[1] and closed == seen  # no sessions: a connection per request


def test_a_gateway_session_keeps_its_conversation_and_rows_as_delta_channels(monkeypatch):
    """As the patterns and the desk do: a session's checkpoint stores what a call added, not the
    whole session again (the last calls of a long session cost what the first do); the switch off
    (``AGENT_PATTERNS_DELTA_CHANNELS=0``) keeps them whole."""
    from langgraph.channels import DeltaChannel

    from apps.gateway.proxy import build_agent
    from graphs.compile import DELTA_CHANNELS_ENV

    monkeypatch.delenv(DELTA_CHANNELS_ENV, raising=False)
    agent = build_agent()
    channels = getattr(agent, "bound", agent).builder.channels  # (with_config wraps the graph)
    for key in ("messages", "governance_calls", "governance_trace"):
        assert isinstance(channels[key], DeltaChannel), key
    monkeypatch.setenv(DELTA_CHANNELS_ENV, "0")
    agent = build_agent()
    assert not isinstance(getattr(agent, "bound", agent).builder.channels["messages"], DeltaChannel)


def _replica(tmp_path: Path, port: int, db: str, key: str | None) -> Any:
    """A gateway over HTTP on ``port``, on the store ``db`` (several replicas share it); ``key``:
    the state key the replicas share (None: each seals with its own)."""
    import subprocess

    (tmp_path / "policy.toml").write_text(POLICY)
    env = gateway_env(tmp_path)
    env.pop("AGENT_PATTERNS_GATEWAY_STATE_KEY", None)
    if key is not None:
        env["AGENT_PATTERNS_GATEWAY_STATE_KEY"] = key
    command = gateway_command(
        "--ask-client", "--policy", str(tmp_path / "policy.toml"), "--http", str(port), "--db", db
    )
    return subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)


async def _asked_at(url: str) -> types.InputRequiredResult:
    async with Client(url, elicitation_callback=_never) as client:
        first = await client.session.call_tool("send_email", MAIL, meta=REQUEST, allow_input_required=True)
    assert isinstance(first, types.InputRequiredResult), first
    return first


async def _answered_at(url: str, asked: types.InputRequiredResult) -> Any:
    """The retry with the user's approval: the result, or the protocol error it got."""
    async with Client(url, elicitation_callback=_never) as client:
        try:
            return await client.session.call_tool(
                "send_email",
                MAIL,
                meta=REQUEST,
                input_responses=_approve({"approve": True}),
                request_state=asked.request_state,
                allow_input_required=True,
            )
        except MCPError as exc:
            return exc


def test_two_replicas_on_one_store_a_question_asked_at_one_is_answered_at_the_other(tmp_path):
    """Scale-out: two gateway processes on one store with one state key; the client's retry with
    its user's answer comes to the other replica than the one whose call waits: the call runs once
    (the replica that holds it), the answer is used once across both, and its result comes back
    through the replica the answer came to. Without a shared key the other replica cannot open the
    state: refused, nothing runs."""
    from tests.test_mcp_gateway import free_port, wait_for_port

    _asked_at_one_answered_at_the_other(tmp_path, str(tmp_path / "shared.sqlite"))

    # each replica with a key of its own: the other cannot open the state, and nothing runs
    ports = [free_port(), free_port()]
    replicas = [_replica(tmp_path, port, str(tmp_path / "own.sqlite"), None) for port in ports]
    try:
        for port, replica in zip(ports, replicas, strict=True):
            try:
                wait_for_port(port)
            except AssertionError:
                replica.terminate()
                raise AssertionError(replica.communicate(timeout=20)[1]) from None
        one, two = (f"http://127.0.0.1:{port}/mcp" for port in ports)
        asked = asyncio.run(asyncio.wait_for(_asked_at(one), 60))
        refused = asyncio.run(asyncio.wait_for(_answered_at(two, asked), 60))
        assert isinstance(refused, MCPError) and "requestState" in str(refused), refused
    finally:
        for replica in replicas:
            replica.terminate()
            replica.wait(timeout=20)


def test_two_replicas_on_one_postgresql_store_share_the_question_and_run_it_once(tmp_path, pg_url):
    """The same scale-out on a PostgreSQL server, as operators run replicas: asked at one gateway,
    answered at the other, run once, a replay refused."""
    _asked_at_one_answered_at_the_other(tmp_path, pg_url)


def _asked_at_one_answered_at_the_other(tmp_path: Path, db: str) -> None:
    from tests.test_mcp_gateway import free_port, wait_for_port

    key = "k" * 16 + "0123456789abcdef0123"
    ports = [free_port(), free_port()]
    replicas = [_replica(tmp_path, port, db, key) for port in ports]
    try:
        for port in ports:
            wait_for_port(port)
        one, two = (f"http://127.0.0.1:{port}/mcp" for port in ports)
        asked = asyncio.run(asyncio.wait_for(_asked_at(one), 60))
        assert _sent(tmp_path) == []
        done = asyncio.run(asyncio.wait_for(_answered_at(two, asked), 60))
        assert isinstance(done, types.CallToolResult) and not done.is_error, done
        assert "sent to ana@example.com" in done.content[0].text
        assert len(_sent(tmp_path)) == 1
        again = asyncio.run(asyncio.wait_for(_answered_at(one, asked), 60))  # a replay, at the first
        assert again.is_error and "answered before" in again.content[0].text
        assert len(_sent(tmp_path)) == 1
    finally:
        for replica in replicas:
            replica.terminate()
            replica.wait(timeout=20)
    assert len(_sent(tmp_path)) == 1


def test_the_shared_state_keys_are_read_from_the_environment_and_a_short_one_is_refused(monkeypatch):
    from apps.gateway.command import STATE_KEY_ENV, GatewayUsageError, state_keys

    monkeypatch.delenv(STATE_KEY_ENV, raising=False)
    assert state_keys() == []
    new, old = "n" * 32, "o" * 40
    monkeypatch.setenv(STATE_KEY_ENV, f" {new} , {old},")
    assert state_keys() == [new, old]  # the first seals, both open (rotation)
    monkeypatch.setenv(STATE_KEY_ENV, "too-short")
    with pytest.raises(GatewayUsageError, match="at least 32 characters"):
        state_keys()


def test_a_2026_call_without_a_conversation_is_judged_alone_and_a_value_read_elsewhere_asks(tmp_path):
    """2026-07-28 has no sessions: a call that names no conversation is judged alone. An address
    the client read in an earlier call (the inbox's planted one) is then vouched for by nothing
    the gateway saw: the mail is not run unasked, it is put to a human (here the client's user,
    as an InputRequiredResult); in a named conversation it is refused for where it came from."""
    from demo_tools.mcp_server import PLANTED_ADDRESS

    planted = {"to": PLANTED_ADDRESS, "body": "report"}
    # no approval asked by the policy itself: only where a value's origin is unknown
    policy = '[rules.send_email]\nidentifiers = {sources = ["request", "trusted"]}\n'

    async def scenario() -> tuple[Any, Any]:
        async with Client(_params(tmp_path, policy), elicitation_callback=_never) as client:
            await client.call_tool("read_inbox", {}, meta=REQUEST)
            alone = await client.session.call_tool("send_email", planted, allow_input_required=True)
            named = {**REQUEST, "agent-patterns/conversation": "c1"}
            await client.call_tool("read_inbox", {}, meta=named)
            within = await client.session.call_tool(
                "send_email", planted, meta={"agent-patterns/conversation": "c1"}, allow_input_required=True
            )
        return alone, within

    alone, within = asyncio.run(asyncio.wait_for(scenario(), 60))
    assert isinstance(alone, types.InputRequiredResult), alone
    assert PLANTED_ADDRESS in alone.input_requests["approve"].params.message
    assert isinstance(within, types.CallToolResult) and within.is_error, within
    assert "untrusted_identifier" in within.content[0].text
    assert _sent(tmp_path) == []


def test_a_question_whose_client_never_comes_back_lets_its_session_go_once_expired(monkeypatch):
    """In process (the SDK's in-memory 2026-07-28 client against the gateway's server): a question
    a reviewer answers while its client is gone runs its call, keeps the result in the store, and
    once the state expired the gateway lets the waiting session go."""
    from langgraph.checkpoint.memory import InMemorySaver

    from apps.gateway import server as gateway_server
    from apps.gateway.proxy import Gateway, Upstream, connected, hints
    from nodes.effects import first_answer
    from nodes.store import open_journal
    from policies.policy_file import policy_from_file_text

    monkeypatch.setattr(gateway_server, "QUESTION_TTL", 0.5)
    upstream = Upstream("mailbox", command=sys.executable, args=("-m", "demo_tools.mcp_server"))

    async def scenario() -> tuple[Any, Gateway]:
        async with connected([upstream]) as pool:
            found = hints(pool.tools, pool.listed)
            policy = policy_from_file_text(POLICY, "toml", found, "policy.toml")
            with open_journal(None) as journal:
                gateway = Gateway(
                    pool.tools, pool.listed, policy, checkpointer=InMemorySaver(), journal=journal,
                    ask_client=True, poll=0.02, log=io.StringIO(),
                )  # fmt: skip
                server = gateway_server.mcp_server(gateway)
                async with Client(server, mode="2026-07-28", elicitation_callback=_never) as client:
                    first = await client.session.call_tool(
                        "send_email", MAIL, meta=REQUEST, allow_input_required=True
                    )
                assert isinstance(first, types.InputRequiredResult), first
                [(nonce, pending)] = gateway.pending.items()
                record = journal.get(gateway_server.QUESTIONS_THREAD, nonce)
                approve = {"decisions": [{"type": "approve", "reviewer": "ana"}]}
                first_answer(journal, record["thread"], record["ask"], approve)  # a reviewer, elsewhere
                result = await asyncio.wait_for(pending.task, 20)
                await asyncio.sleep(1.0)  # past the question's expiry
                kept = journal.get(gateway_server.QUESTIONS_THREAD, nonce)
                assert gateway.pending == {} and ("question", nonce) not in gateway.sessions
                await gateway.close()
                return result, kept

    result, kept = asyncio.run(asyncio.wait_for(scenario(), 60))
    assert not result.is_error and "sent to ana@example.com" in result.content[0].text
    assert kept["status"] == "done" and "sent to ana@example.com" in json.dumps(kept["outcome"])
