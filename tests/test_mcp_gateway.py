"""``agent-patterns gateway`` (issue 48) with a real upstream MCP server (the SDK's MCPServer, a
stdio subprocess of the gateway) and the real MCP SDK client, over stdio and streamable HTTP on
127.0.0.1: a planted instruction does not make a side effect run unasked, an ask answered from
another process runs the call once (a client's retry does not run it again), a refused call is an
MCP tool error, concurrent sessions keep their provenance apart, and the audit rows are the
middleware's rows. The SDK's ``ClientSession`` speaks 2025-11-25 (the initialize handshake); a
client on 2026-07-28 (the SDK's ``Client``) names its conversation and answers the gateway's
questions through an ``InputRequiredResult``."""

from __future__ import annotations

import asyncio
import io
import json
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
pytest.importorskip("langchain.agents")

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from demo_tools.mcp_server import PLANTED_ADDRESS
from tests.mcp_gateway_process import ROOT, gateway_command, gateway_env
from tests.processes import run

pytestmark = pytest.mark.integration
REQUEST = "agent-patterns/request"

POLICY = """\
hide = ["delete_file"]

[rules.send_email]
identifiers = {sources = ["request", "trusted"]}
require_approval = true

[policy]
max_tool_calls = 40
"""


def gateway_params(tmp_path: Path, *args: str) -> StdioServerParameters:
    """``agent-patterns gateway`` over stdio in front of the demo mailbox server, with ``args``
    (also used by tests/test_cedar.py); the server's side effects land in tmp_path's ledger."""
    executable, *command = gateway_command(*args)
    return StdioServerParameters(command=executable, args=command, env=gateway_env(tmp_path), cwd=str(ROOT))


def sent_mail(tmp_path: Path) -> list[dict[str, Any]]:
    ledger = tmp_path / "ledger.jsonl"
    lines = ledger.read_text().splitlines() if ledger.exists() else []
    return [json.loads(line) for line in lines]


def run_cli(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return run(
        [sys.executable, "-m", "governed_agent_patterns", *args],
        cwd=ROOT,
        env={**gateway_env(tmp_path), **(env or {})},
        timeout=60,
    )


def text_of(result: Any) -> str:
    return " ".join(c.text for c in result.content)


async def _approve_when_asked(tmp_path: Path, db: str) -> subprocess.CompletedProcess[str]:
    """Another process, as a reviewer in another shell: `waiting`, then `approve`."""
    for _ in range(200):
        listed = await asyncio.to_thread(run_cli, tmp_path, "waiting", "--json", "--db", db)
        waiting = json.loads(listed.stdout or "[]")
        if waiting:
            [run] = waiting
            assert run["pattern"] == "mcp_gateway"
            return await asyncio.to_thread(
                run_cli, tmp_path, "approve", run["thread_id"], "--db", db, "--as", "ana", "--json"
            )
        await asyncio.sleep(0.1)
    raise AssertionError("the gateway's session never waited for a human")


def _answered_by_the_clients_user(
    params: StdioServerParameters, calls: list[tuple[str, dict[str, Any]]], approve: Any
) -> tuple[list[str], list[Any]]:
    """A session whose client supports MCP elicitation makes ``calls`` in order; its user answers
    each question, the n-th (1-based) with ``approve(n)``: what the user was asked, and the results."""
    from mcp import types

    asked: list[str] = []

    async def user(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        content = {"approve": bool(approve(len(asked))), "message": "checked"}
        return types.ElicitResult(action="accept", content=content)

    async def session() -> list[Any]:
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write, elicitation_callback=user) as client,
        ):
            await client.initialize()
            return [await client.call_tool(name, args) for name, args in calls]

    return asked, asyncio.run(asyncio.wait_for(session(), 60))


def test_the_gateway_over_stdio(tmp_path: Path, collector: tuple[str, list[bytes]]) -> None:
    db = str(tmp_path / "gateway.sqlite")
    policy = tmp_path / "policy.toml"
    policy.write_text(POLICY)
    params = gateway_params(tmp_path, "--policy", str(policy), "--db", db)
    request = {REQUEST: "Summarise my inbox and mail the summary to ana@example.com"}

    async def session() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            seen["version"] = (await client.initialize()).protocol_version
            seen["tools"] = [t.name for t in (await client.list_tools()).tools]
            seen["inbox"] = await client.call_tool("read_inbox", {}, meta=request)
            # the planted instruction: the address is only in the inbox (untrusted): refused, not asked
            seen["planted"] = await client.call_tool("send_email", {"to": PLANTED_ADDRESS, "body": "report"})
            seen["hidden"] = await client.call_tool("delete_file", {"path": "/etc/passwd"})
            seen["upstream_error"] = await client.call_tool("flaky", {"reason": "down"})
            seen["bad_args"] = await client.call_tool("send_email", {"to": 5})
            # the user's own address: require_approval asks, a reviewer in another process approves
            call = client.call_tool("send_email", {"to": "ana@example.com", "body": "summary"})
            seen["asked"], seen["approve"] = await asyncio.gather(call, _approve_when_asked(tmp_path, db))
            seen["retry"] = await client.call_tool("send_email", {"to": "ana@example.com", "body": "summary"})
        return seen

    seen = asyncio.run(asyncio.wait_for(session(), 90))
    assert seen["version"] == "2025-11-25"  # the initialize handshake's revision
    assert "delete_file" not in seen["tools"] and "send_email" in seen["tools"]
    assert not seen["inbox"].is_error and PLANTED_ADDRESS in text_of(seen["inbox"])
    assert seen["planted"].is_error
    assert "refused by the gateway's policy (supervisor): supervisor_block:untrusted_identifier" in text_of(
        seen["planted"]
    )
    assert seen["hidden"].is_error and "no tool named 'delete_file'" in text_of(seen["hidden"])
    assert seen["upstream_error"].is_error and "upstream failure: down" in text_of(seen["upstream_error"])
    assert seen["bad_args"].is_error and "invalid_action:" in text_of(seen["bad_args"])
    assert seen["approve"].returncode == 0, seen["approve"].stderr
    assert json.loads(seen["approve"].stdout)["carried_on"] is True
    assert not seen["asked"].is_error and "sent to ana@example.com" in text_of(seen["asked"])
    assert seen["retry"].content == seen["asked"].content  # the client's retry: the first call's result
    assert [(s["tool"], s["args"]["to"]) for s in sent_mail(tmp_path)] == [("send_email", "ana@example.com")]

    # the audit: the middleware's rows, read back with the CLI from the same store
    [thread] = {row[0] for row in sqlite3.connect(db).execute("SELECT thread_id FROM checkpoints")}
    audit = run_cli(tmp_path, "audit", thread, "--db", db, "--json")
    assert audit.returncode == 0, audit.stderr
    [run] = json.loads(audit.stdout)["runs"]
    assert run["engine"] == "governance_middleware"
    assert run["trace"][-1]["phase"] == "final"  # the session ended: its run ended too
    sent = [c for c in run["calls"] if c["tool"] == "send_email"]
    assert [(c["approved_by"], c["reviewer"], c["human_approved"]) for c in sent] == [("human", "ana", True)]
    assert next(r["reason"] for r in run["refusals"] if r["tool"] == "send_email").endswith(
        "untrusted_identifier"
    )
    # the same rows are the store's audit log (issue 55): its chain verifies, and the JSONL export
    # has the approved mail with the reviewer's answer and the planted one refused
    verified = run_cli(tmp_path, "audit", "--verify", "--db", db)
    assert verified.returncode == 0 and "verified" in verified.stdout, verified.stdout + verified.stderr
    exported = run_cli(tmp_path, "audit", thread, "--jsonl", "--db", db)
    assert exported.returncode == 0, exported.stderr
    mails = [r for r in map(json.loads, exported.stdout.splitlines()) if r["tool"] == "send_email"]
    ran = [r for r in mails if r["outcome"] == "ran"]
    assert len(ran) == 1 and [(a["type"], a["reviewer"], a["applied"]) for a in ran[0]["answers"]] == [
        ("approve", "ana", True)
    ], mails
    assert any(r["outcome"] == "refused" and "untrusted_identifier" in str(r["refusal"]) for r in mails), (
        mails
    )
    # and its OpenTelemetry spans, sent to a collector: the session's run and each governed call
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http")
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    endpoint, bodies = collector
    sent = run_cli(
        tmp_path, "audit", thread, "--otlp", "--db", db, env={"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint}
    )
    assert sent.returncode == 0 and f"to {endpoint}/v1/traces" in sent.stdout, sent.stdout + sent.stderr
    spans = [
        s
        for body in bodies
        for rs in ExportTraceServiceRequest.FromString(body).resource_spans
        for ss in rs.scope_spans
        for s in ss.spans
    ]
    names = [s.name for s in spans]
    assert "governed_run" in names and "governed_call send_email" in names, names
    reviewers = {a.value.string_value for s in spans for a in s.attributes if a.key == "governance.reviewer"}
    assert "ana" in reviewers, reviewers


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, within: float = 60.0) -> None:
    """Until a process listens on ``port`` (a gateway or a server that starts its Python, imports
    LangChain and opens its store: seconds, and more on a loaded CI machine)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port} after {within:.0f} s")


def test_the_gateway_over_streamable_http_keeps_each_sessions_provenance_apart(tmp_path: Path) -> None:
    port, upstream_port = free_port(), free_port()
    db = str(tmp_path / "gateway.sqlite")
    upstream = subprocess.Popen(  # the upstream server over streamable HTTP too
        [sys.executable, "-m", "demo_tools.mcp_server", "--http", str(upstream_port)],
        cwd=ROOT,
        env=gateway_env(tmp_path),
    )
    upstream_url = f"http://127.0.0.1:{upstream_port}/mcp"
    command = gateway_command(upstream=upstream_url)
    wait_for_port(upstream_port)
    gateway = subprocess.Popen(
        [*command, "--http", str(port), "--db", db],
        cwd=ROOT,
        env=gateway_env(tmp_path),
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert gateway.stderr is not None
        said = [gateway.stderr.readline() for _ in range(2)]  # the pins first seen, then where it serves
        assert said[0].startswith("gateway: pinned ") and "as first seen" in said[0], said
        assert f"serving http://127.0.0.1:{port}/mcp" in said[1], said
        url = f"http://127.0.0.1:{port}/mcp"
        request = {REQUEST: "Send Ana a note about lunch."}

        async def one(n: int) -> Any:
            async with streamable_http_client(url) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                if n % 2 == 0:  # this session looked Ana up in the (trusted) address book
                    await client.call_tool("lookup_contact", {"name": "ana"}, meta=request)
                else:
                    await client.call_tool("read_inbox", {}, meta=request)
                return await client.call_tool("send_email", {"to": "ana@example.com", "body": f"lunch {n}"})

        async def sessions() -> list[Any]:
            return await asyncio.gather(*(one(n) for n in range(6)))

        async def retried() -> list[Any]:
            """A call the client names, retried on a new session (a reconnection): made once."""
            meta = {REQUEST: "Mail ana@example.com that lunch moved", "agent-patterns/call_id": "lunch-moved"}
            answers = []
            for _ in range(2):
                async with streamable_http_client(url) as (read, write), ClientSession(read, write) as client:
                    await client.initialize()
                    answers.append(
                        await client.call_tool(
                            "send_email", {"to": "ana@example.com", "body": "moved"}, meta=meta
                        )
                    )
            return answers

        started = time.monotonic()
        results = asyncio.run(asyncio.wait_for(sessions(), 60))
        elapsed = time.monotonic() - started
        first, again = asyncio.run(asyncio.wait_for(retried(), 60))
    finally:
        for process in (gateway, upstream):
            process.terminate()
            process.wait(timeout=20)
    assert [r.is_error for r in results] == [False, True] * 3, [text_of(r) for r in results]
    assert all("untrusted_identifier" in text_of(r) for r in results[1::2])
    assert not first.is_error and again.content == first.content, (text_of(first), text_of(again))
    assert sorted(s["args"]["body"] for s in sent_mail(tmp_path)) == [
        "lunch 0",
        "lunch 2",
        "lunch 4",
        "moved",
    ]
    assert elapsed < 45  # the sessions run side by side (one alone takes a few seconds)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((), "gateway: name at least one upstream server"),
        (("--upstream", "no-such-command-xyz"), "upstream 'upstream-1' (no-such-command-xyz) did not start"),
        # a server that exits at once: seen as it fails to answer, or as its pipe breaks (whichever first)
        (("--upstream", "false"), "(false) did not start|an upstream server closed its connection"),
    ],
)
def test_a_gateway_that_cannot_start_says_why_in_one_line(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    done = run_cli(tmp_path, "gateway", "--db", "memory", *args)
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith("agent-patterns: error: ") and re.search(
        said.replace("(", r"\(").replace(")", r"\)"), line
    )


def test_a_question_nobody_answers_in_time_is_rejected_and_the_rejection_is_the_first_answer() -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from apps.gateway.proxy import Gateway, Session, build_agent
    from nodes.effects import ask_key
    from nodes.journal import Journal
    from policies.supervisor.rules.policy import SupervisorPolicy

    journal = Journal()
    gateway = Gateway(
        [],
        [],
        SupervisorPolicy(),
        checkpointer=InMemorySaver(),
        journal=journal,
        ask_timeout=0.2,
        log=(said := io.StringIO()),
    )
    session = Session(thread_id="mcp-t1", agent=build_agent(checkpointer=InMemorySaver()))
    question = {
        "run_id": "r1",
        "step": 1,
        "kind": "supervisor_approval",
        "action": {"name": "send_email", "args": {}},
    }
    answer = asyncio.run(gateway._human(session, question))
    assert (
        answer["decisions"][0]["type"] == "reject"
        and "no answer within 0.2 s" in answer["decisions"][0]["message"]
        and answer["decisions"][0]["reviewer"] == "system:ask-timeout"  # the system's, no reviewer's
    )
    assert (
        "mcp-t1 waits for a human" in said.getvalue()
        and "agent-patterns approve|reject mcp-t1" in said.getvalue()
    )
    [kept] = journal.answers("mcp-t1")
    assert kept["ask"] == ask_key(question) and kept["answer"] == answer  # a later human answer loses


def test_a_client_that_supports_elicitation_asks_its_user(tmp_path: Path) -> None:
    """Where the client supports MCP elicitation, the gateway asks the client's user too (the first
    answer wins, against `agent-patterns approve` from another shell)."""
    params = gateway_params(tmp_path, "--db", "memory", "--ask-client")
    # destructive: each asks; the first call approved, the second rejected
    calls = [("delete_file", {"path": "/tmp/a"}), ("delete_file", {"path": "/tmp/b"})]
    asked, (yes, no) = _answered_by_the_clients_user(params, calls, lambda n: n == 1)
    assert len(asked) == 2 and "delete_file needs approval" in asked[0] and '{"path": "/tmp/a"}' in asked[0]
    assert not yes.is_error and "deleted /tmp/a" in text_of(yes)
    assert no.is_error and "refused by the gateway's policy (human)" in text_of(no)
    assert [s["args"]["path"] for s in sent_mail(tmp_path)] == ["/tmp/a"]


def test_a_2026_client_names_its_conversation_and_answers_the_gateways_questions(tmp_path: Path) -> None:
    """The stdio test's planted instruction, for a client speaking 2026-07-28 (the SDK's ``Client``,
    no sessions: each request is its own connection): the calls name one conversation in ``_meta``,
    so the address the inbox planted is refused, not asked. The question about the user's own
    address comes as an ``InputRequiredResult`` that the client answers through its elicitation
    callback and retries: approved, the call runs once; rejected, it does not run."""
    from mcp import Client, types

    from apps.gateway.server import INPUT_KEY

    db = str(tmp_path / "gateway.sqlite")
    policy = tmp_path / "policy.toml"
    policy.write_text(POLICY)
    params = gateway_params(tmp_path, "--policy", str(policy), "--db", db, "--ask-client")
    conversation = {"agent-patterns/conversation": "c-2026"}
    request = {REQUEST: "Summarise my inbox and mail the summary to ana@example.com"}
    asked: list[str] = []
    keys: list[Any] = []

    async def user(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        keys.append(context.request_id)  # an InputRequiredResult's input: its key, no JSON-RPC id
        content = {"approve": len(asked) == 1, "message": "checked"}  # the first yes, the second no
        return types.ElicitResult(action="accept", content=content)

    async def session() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Client(params, elicitation_callback=user) as client:
            seen["version"] = client.protocol_version
            seen["tools"] = [t.name for t in (await client.list_tools()).tools]
            seen["inbox"] = await client.call_tool("read_inbox", {}, meta={**request, **conversation})
            # the planted instruction, in the same conversation: refused, not asked
            planted = {"to": PLANTED_ADDRESS, "body": "report"}
            seen["planted"] = await client.call_tool("send_email", planted, meta=conversation)
            mail = {"to": "ana@example.com", "body": "summary"}
            seen["approved"] = await client.call_tool("send_email", mail, meta=conversation)
            seen["mailed"] = sent_mail(tmp_path)
            seen["rejected"] = await client.call_tool(
                "send_email", {**mail, "body": "again"}, meta=conversation
            )
        return seen

    seen = asyncio.run(asyncio.wait_for(session(), 90))
    assert seen["version"] == "2026-07-28"
    assert "delete_file" not in seen["tools"] and "send_email" in seen["tools"]
    assert not seen["inbox"].is_error and PLANTED_ADDRESS in text_of(seen["inbox"])
    assert seen["planted"].is_error
    assert "refused by the gateway's policy (supervisor): supervisor_block:untrusted_identifier" in text_of(
        seen["planted"]
    )
    assert len(asked) == 2 and all("send_email" in a and "ana@example.com" in a for a in asked), asked
    assert keys == [INPUT_KEY, INPUT_KEY], keys  # asked in the gateway's InputRequiredResult
    assert not seen["approved"].is_error and "sent to ana@example.com" in text_of(seen["approved"])
    assert [(s["tool"], s["args"]) for s in seen["mailed"]] == [
        ("send_email", {"to": "ana@example.com", "body": "summary"})
    ]  # the approved call ran once, before the next call was made
    assert seen["rejected"].is_error and "refused by the gateway's policy (human)" in text_of(
        seen["rejected"]
    )
    assert [s["args"]["body"] for s in sent_mail(tmp_path)] == ["summary"]  # the rejected one did not run


def test_a_rule_lets_the_client_answer_for_its_tool_only(tmp_path: Path) -> None:
    """Issue 55: the opt-in per rule (``ToolRules.client_answers``), without ``--ask-client``: the
    client's user is asked about ``delete_file``, whose rule opts in, and the call runs on their
    yes; ``send_email``'s question goes to reviewers out of the agent's reach (nobody answers in
    time: rejected). A rule that says ``false`` wins over ``--ask-client``."""
    policy = tmp_path / "policy.toml"
    policy.write_text(
        "[rules.delete_file]\nrequire_approval = true\nclient_answers = true\n\n"
        "[rules.send_email]\nrequire_approval = true\n"
    )
    params = gateway_params(tmp_path, "--db", "memory", "--policy", str(policy), "--ask-timeout", "1")
    calls = [("delete_file", {"path": "/tmp/a"}), ("send_email", {"to": "ana@example.com", "body": "hi"})]
    asked, (deleted, mailed) = _answered_by_the_clients_user(params, calls, lambda n: True)
    assert len(asked) == 1 and "delete_file needs approval" in asked[0], asked
    assert not deleted.is_error and "deleted /tmp/a" in text_of(deleted)
    assert mailed.is_error and "no answer within 1 s" in text_of(mailed), text_of(mailed)
    assert [s["args"] for s in sent_mail(tmp_path)] == [{"path": "/tmp/a"}]
    from types import SimpleNamespace

    from apps.gateway.proxy import Gateway
    from policies.supervisor import SupervisorPolicy, ToolRules

    ruled = SupervisorPolicy.for_tools(["a", "b"], rules={"a": ToolRules(client_answers=False)})
    everyone = SimpleNamespace(policy=ruled, ask_client=True)
    assert not Gateway.client_may_answer(everyone, "a") and Gateway.client_may_answer(everyone, "b")  # type: ignore[arg-type]


def test_by_default_the_agents_own_client_cannot_answer_and_is_told_its_call_waits(tmp_path: Path) -> None:
    """Without ``--ask-client``, a client that supports elicitation is never asked about its own
    calls: the question goes to reviewers out of the agent's reach (here nobody answers within
    ``--ask-timeout``: rejected) and the client is told, in an MCP log message, that the call waits
    and how a reviewer answers it."""
    from mcp import types

    params = gateway_params(tmp_path, "--db", "memory", "--ask-timeout", "1")
    asked: list[str] = []
    told: list[str] = []

    async def user(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": True, "message": "mine"})

    async def log(params: types.LoggingMessageNotificationParams) -> None:
        told.append(str(params.data))

    async def session() -> Any:
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write, elicitation_callback=user, logging_callback=log) as client,
        ):
            await client.initialize()
            return await client.call_tool("delete_file", {"path": "/tmp/a"})  # destructive: asks

    result = asyncio.run(asyncio.wait_for(session(), 60))
    assert asked == []  # the agent's own client never answers for it
    assert result.is_error and "no answer within 1 s" in text_of(result)
    assert any("waits for a reviewer" in t and "agent-patterns approve|reject mcp-" in t for t in told), told
    assert sent_mail(tmp_path) == []


def test_asyncios_reaped_child_warning_is_not_a_second_line(capsys) -> None:
    """An upstream that exits at once may be reaped before asyncio's child watcher sees it, and
    asyncio then logs ``Unknown child process pid N ...`` to stderr: the gateway drops that line
    (its own error already says the server did not start), and nothing else asyncio logs."""
    import logging

    from apps.gateway.command import ReapedChild

    record = logging.LogRecord(
        "asyncio", logging.WARNING, __file__, 1, "Unknown child process pid %d, x", (7,), None
    )
    other = logging.LogRecord("asyncio", logging.WARNING, __file__, 1, "Task was destroyed", (), None)
    assert ReapedChild().filter(record) is False and ReapedChild().filter(other) is True


def test_a_question_whose_client_left_is_rejected_as_the_system_and_no_longer_waits(tmp_path: Path) -> None:
    """A client that leaves while its call waits for a reviewer (no ``--ask-timeout``): the gateway
    rejects the question as the system (``system:client-left``) instead of leaving it in
    ``waiting`` for ever, nothing is sent, and the audit says who rejected it and why."""
    db = str(tmp_path / "gateway.sqlite")
    policy = tmp_path / "policy.toml"
    policy.write_text(POLICY)
    params = gateway_params(tmp_path, "--policy", str(policy), "--db", db)

    async def leaves() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            meta = {REQUEST: "Email ana@example.com that lunch moved."}
            call = client.call_tool("send_email", {"to": "ana@example.com", "body": "moved"}, meta=meta)
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(call, 2)  # it waits for a reviewer; the client gives up

    asyncio.run(asyncio.wait_for(leaves(), 60))
    deadline = time.monotonic() + 20  # the gateway process ends its session once the client is gone
    while True:
        runs = json.loads(run_cli(tmp_path, "runs", "--json", "--db", db).stdout or "[]")
        if (runs and runs[0]["status"] != "waiting") or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    listed = json.loads(run_cli(tmp_path, "waiting", "--json", "--db", db).stdout or "[]")
    assert listed == [], listed
    [run] = runs
    exported = run_cli(tmp_path, "audit", run["thread_id"], "--jsonl", "--db", db)
    [mail] = [r for r in map(json.loads, exported.stdout.splitlines()) if r.get("tool") == "send_email"]
    assert mail["outcome"] != "ran", mail
    [answer] = mail["answers"]
    assert (answer["type"], answer["reviewer"]) == ("reject", "system:client-left"), mail
    assert sent_mail(tmp_path) == []


def test_the_stdio_wire_takes_long_lines_and_no_stray_output(tmp_path: Path) -> None:
    """The gateway reads and writes its stdio pipes on the event loop (apps.gateway.server.
    piped_stdio): a call whose argument (and request) is a line far past asyncio's default 64 KiB
    limit is served (it hung past a minute while the reader read the request in time square to its
    longest word's length), and output the process writes to fd 1 while serving goes to
    stderr, not to the client's wire."""
    params = gateway_params(tmp_path, "--db", "memory")
    name = "ana" + "x" * 300_000

    async def session() -> Any:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await client.call_tool("lookup_contact", {"name": name}, meta={REQUEST: f"Look {name} up"})

    result = asyncio.run(asyncio.wait_for(session(), 60))
    assert not result.is_error, text_of(result)

    stray = (
        "import asyncio, os\n"
        "from apps.gateway.server import piped_stdio\n"
        "async def main():\n"
        "    with piped_stdio() as pipes:\n"
        "        assert pipes is not None\n"
        "        lines, out = await pipes.opened()\n"
        "        os.write(1, b'stray\\n')\n"
        "        print('printed', flush=True)\n"
        "        async for line in lines:\n"
        "            await out.write('echo ' + line)\n"
        "            await out.flush()\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", stray],
        input="one\n" + "y" * 200_000 + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=gateway_env(tmp_path),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "echo one\necho " + "y" * 200_000 + "\n"
    assert "stray" in done.stderr and "printed" in done.stderr


def test_the_gateway_on_a_stdin_that_is_no_pipe_uses_the_sdks_transport(tmp_path: Path) -> None:
    """stdin a socket (not a pipe): the MCP SDK's own stdio transport serves it. The answers are
    read before the client's end closes: at the end of its input the SDK cancels what is still in
    flight (a file's end comes at once, so a file would race the answers)."""
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
         "capabilities": {}, "clientInfo": {"name": "socket", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]  # fmt: skip
    ours, theirs = socket.socketpair()
    gateway = subprocess.Popen(
        gateway_command("--db", "memory"),
        stdin=theirs,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=gateway_env(tmp_path),
    )
    theirs.close()
    stop = threading.Timer(60, gateway.kill)  # a gateway that never answers ends the read
    stop.start()
    try:
        ours.sendall("".join(json.dumps(line) + "\n" for line in lines).encode())
        answers: dict[Any, Any] = {}
        assert gateway.stdout is not None
        while 2 not in answers:
            line = gateway.stdout.readline()
            if not line:
                break
            answer = json.loads(line)
            answers[answer.get("id")] = answer
        ours.shutdown(socket.SHUT_RDWR)
        gateway.wait(timeout=60)
    finally:
        stop.cancel()
        ours.close()
        if gateway.poll() is None:
            gateway.kill()
        _, stderr = gateway.communicate(timeout=10)
    assert 2 in answers, stderr
    assert "lookup_contact" in [t["name"] for t in answers[2]["result"]["tools"]], stderr
