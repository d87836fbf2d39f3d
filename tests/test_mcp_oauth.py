"""The gateway as an OAuth 2.1 resource server over streamable HTTP (issues 55 and 56): a local
authorization server started here publishes its keys (RFC 8414 metadata, a JWKS); the real gateway
process takes only bearer tokens that issuer signed for it, and the token's subject is the caller.
What the caller's identity decides, tested with the MCP SDK's real client:

- a request without a token, or with one expired, for another audience or signed by another key,
  is answered 401 with the protected-resource metadata's address (RFC 9728), which names the issuer;
- a tool whose rule names ``caller_roles`` is listed and served only to a caller whose token grants
  one of them (here as OAuth's ``scope``);
- a conversation name is the caller's own: another caller naming it has read nothing of it;
- a call id is the caller's own: another caller reusing it gets nothing of the first call;
- only a caller ``--ask-client-caller`` opts in answers its calls' questions through its client, and
  the audit names the account (``oauth:<subject>``); another caller's question waits for reviewers;
- the same on both protocol revisions: 2025-11-25 (``ClientSession``, the initialize handshake, a
  question asked by ``elicitation/create`` in the middle of the call) and 2026-07-28 (``mcp.Client``,
  no sessions, a question returned as an ``InputRequiredResult`` the client answers on its retry).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import subprocess
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
jwt = pytest.importorskip("jwt")
pytest.importorskip("cryptography")

import httpx2  # noqa: E402 (after the skips: the mcp extra)
from cryptography.hazmat.primitives.asymmetric import rsa  # noqa: E402
from mcp import ClientSession, types  # noqa: E402
from mcp.client import streamable_http  # noqa: E402

from tests.mcp_gateway_process import ROOT, UPSTREAM, gateway_command, gateway_env  # noqa: E402
from tests.test_mcp_gateway import POLICY, free_port, run_cli, sent_mail, text_of  # noqa: E402

pytestmark = pytest.mark.integration
CONVERSATION, CALL_ID = "agent-patterns/conversation", "agent-patterns/call_id"
REQUEST = "agent-patterns/request"


class Issuer:
    """A local authorization server: its metadata and keys over HTTP, and tokens it signs."""

    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        self.jwks = {"keys": [{**public, "kid": "k1", "use": "sig", "alg": "RS256"}]}
        issuer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                documents = {
                    "/.well-known/oauth-authorization-server": {
                        "issuer": issuer.url,
                        "jwks_uri": f"{issuer.url}/jwks",
                    },
                    "/jwks": issuer.jwks,
                }
                found = documents.get(self.path)
                body = json.dumps(found or {}).encode()
                self.send_response(200 if found else 404)
                self.send_header("content-type", "application/json")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def token(
        self, sub: str, audience: str, *, expires: float = 300, key: Any = None, scope: str | None = None
    ) -> str:
        now = int(time.time())
        claims = {"iss": self.url, "sub": sub, "aud": audience, "iat": now, "exp": now + int(expires)}
        claims |= {"scope": scope} if scope is not None else {}
        return jwt.encode(claims, key or self.key, algorithm="RS256", headers={"kid": "k1"})


def _status(url: str, token: str | None) -> tuple[int, dict[str, str]]:
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


@contextlib.asynccontextmanager
async def _connected(url: str, headers: dict[str, str]) -> Any:
    """The SDK's streamable HTTP transport with ``headers`` on every request (on an httpx2 client)."""
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http,
        streamable_http.streamable_http_client(url, http_client=http) as transport,
    ):
        yield transport


async def _listed(*transports: Any) -> dict[str, set[str]]:
    out = {}
    for who, transport in zip(("alice", "bob"), transports, strict=True):
        async with transport as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            out[who] = {t.name for t in (await session.list_tools()).tools}
    return out


def _gateway(
    tmp_path: Path, issuer: Issuer, port: int, policy: Path, db: str, *, ask_timeout: float
) -> subprocess.Popen[str]:
    """The gateway over HTTP on ``port``, taking ``issuer``'s bearer tokens; alice's client may
    answer her calls' questions."""
    return subprocess.Popen(
        [
            *gateway_command(
                "--policy", str(policy), "--http", str(port), "--db", db, "--ask-timeout", f"{ask_timeout:g}"
            ),
            *("--auth-issuer", issuer.url, "--ask-client-caller", "alice"),
        ],
        cwd=ROOT,
        env=gateway_env(tmp_path),
        stderr=subprocess.PIPE,
        text=True,
    )


def _thread(conversation: str, caller: str) -> str:
    return "mcp-conv-" + hashlib.sha256(f"{conversation}\x1f{caller}".encode()).hexdigest()[:16]


def test_bearer_tokens_name_the_caller_and_the_caller_owns_its_conversations(tmp_path: Path) -> None:
    issuer = Issuer()
    port = free_port()
    url, db = f"http://127.0.0.1:{port}/mcp", str(tmp_path / "gateway.sqlite")
    policy = tmp_path / "policy.toml"
    # the inbox is for callers whose token grants the "inbox" role (here, as OAuth's scope): alice
    # and each caller may look up two contacts in ten minutes
    extra = '[rules.read_inbox]\ncaller_roles = ["inbox"]\n[rules.lookup_contact]\nrate_limit = {calls = 2, seconds = 600}\n'
    policy.write_text(f"{POLICY}\n{extra}")
    gateway = _gateway(tmp_path, issuer, port, policy, db, ask_timeout=1)
    asked: dict[str, list[str]] = {"alice": [], "bob": []}

    def client(caller: str) -> Any:
        async def user(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
            asked[caller].append(params.message)
            return types.ElicitResult(action="accept", content={"approve": True, "message": "mine"})

        scope = "openid inbox" if caller == "alice" else "openid"
        headers = {"authorization": f"Bearer {issuer.token(caller, url, scope=scope)}"}
        return _connected(url, headers), user

    async def calls(caller: str, conversation: str, made: list[tuple[str, dict, dict]]) -> list[Any]:
        transport, user = client(caller)
        async with transport as (read, write), ClientSession(read, write, elicitation_callback=user) as s:
            shook = await s.initialize()
            assert shook.protocol_version == "2025-11-25", shook.protocol_version  # the handshake's revision
            meta = {CONVERSATION: conversation, REQUEST: "Send Ana a note about lunch."}
            return [await s.call_tool(name, args, meta={**meta, **extra}) for name, args, extra in made]

    lunch = {"to": "ana@example.com", "body": "lunch at noon"}
    try:
        assert gateway.stderr is not None
        said = [gateway.stderr.readline() for _ in range(2)]
        assert f"serving {url} (bearer tokens of {issuer.url})" in said[1], said
        # no token, an expired one, one for another audience, one signed by another key: 401
        refused = [
            _status(url, None),
            _status(url, issuer.token("alice", url, expires=-120)),
            _status(url, issuer.token("alice", "http://elsewhere.example/mcp")),
            _status(url, issuer.token("alice", url, key=issuer.other)),
            _status(url, "not-a-jwt"),
        ]
        assert [code for code, _ in refused] == [401] * 5, refused
        challenge = refused[0][1].get("www-authenticate") or refused[0][1].get("WWW-Authenticate", "")
        assert (
            f'resource_metadata="http://127.0.0.1:{port}/.well-known/oauth-protected-resource"' in challenge
        )
        assert 'error="invalid_token"' in (refused[1][1].get("www-authenticate") or "")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/.well-known/oauth-protected-resource") as r:
            metadata = json.loads(r.read())
        assert metadata["authorization_servers"] == [issuer.url] and metadata["resource"] == url
        assert _status(url, issuer.token("alice", url))[0] != 401  # past the gate (MCP wants a session)

        # alice looks Ana up (a trusted read) and mails her: asked, and alice's own client answers
        alice = asyncio.run(
            asyncio.wait_for(
                calls(
                    "alice",
                    "c1",
                    [("lookup_contact", {"name": "ana"}, {}), ("send_email", lunch, {CALL_ID: "m1"})],
                ),
                60,
            )
        )
        assert [r.is_error for r in alice] == [False, False], [text_of(r) for r in alice]
        assert len(asked["alice"]) == 1 and "send_email" in asked["alice"][0], asked
        # the tools each sees, and a call outside bob's roles
        listed = asyncio.run(asyncio.wait_for(_listed(client("alice")[0], client("bob")[0]), 60))
        assert "read_inbox" in listed["alice"] and "read_inbox" not in listed["bob"], listed
        assert listed["bob"] == listed["alice"] - {"read_inbox"}, listed
        inbox = asyncio.run(asyncio.wait_for(calls("bob", "c5", [("read_inbox", {}, {})]), 60))
        assert inbox[0].is_error and "is for callers with a role of inbox" in text_of(inbox[0]), text_of(
            inbox[0]
        )
        # bob names the same conversation: it is his own, and he has read nothing in it
        bob = asyncio.run(asyncio.wait_for(calls("bob", "c1", [("send_email", lunch, {})]), 60))
        assert bob[0].is_error and "untrusted_identifier" in text_of(bob[0]), text_of(bob[0])
        # bob reuses alice's call id for the same call: he gets nothing of hers, it is reviewed anew
        reused = asyncio.run(
            asyncio.wait_for(calls("bob", "c3", [("send_email", lunch, {CALL_ID: "m1"})]), 60)
        )
        assert reused[0].is_error and "untrusted_identifier" in text_of(reused[0]), text_of(reused[0])
        # bob's own question (he looked Ana up) is not his client's to answer: it waits, and the
        # ask timeout rejects it
        own = asyncio.run(
            asyncio.wait_for(
                calls("bob", "c4", [("lookup_contact", {"name": "ana"}, {}), ("send_email", lunch, {})]), 60
            )
        )
        assert own[1].is_error and asked["bob"] == [], (text_of(own[1]), asked)
        # alice's second lookup is within her rate limit, her third is not; bob's own limit is apart
        looked = asyncio.run(
            asyncio.wait_for(calls("alice", "c6", [("lookup_contact", {"name": "bob"}, {})] * 2), 60)
        )
        assert [r.is_error for r in looked] == [False, True], [text_of(r) for r in looked]
        assert "rate limit: this caller's 2 call(s) of lookup_contact in 600 s" in text_of(looked[1])
        more = asyncio.run(
            asyncio.wait_for(calls("bob", "c7", [("lookup_contact", {"name": "bob"}, {})]), 60)
        )
        assert not more[0].is_error, text_of(more[0])
    finally:
        gateway.terminate()  # SIGTERM: the gateway ends its conversations' open turns, then exits
        gateway.wait(timeout=20)
        issuer.server.shutdown()
    assert gateway.returncode == 0, gateway.returncode
    assert [s["args"]["body"] for s in sent_mail(tmp_path)] == ["lunch at noon"]  # alice's mail, once
    exported = run_cli(tmp_path, "audit", _thread("c1", "alice"), "--jsonl", "--db", db)
    assert exported.returncode == 0, exported.stderr
    [mail] = [r for r in map(json.loads, exported.stdout.splitlines()) if r.get("tool") == "send_email"]
    assert mail["outcome"] == "ran", mail
    assert [(a["reviewer"], a["account"]) for a in mail["answers"]] == [("mcp-client-user", "oauth:alice")], (
        mail
    )


def test_a_signed_in_caller_on_2026_07_28_lists_calls_and_answers_its_question(tmp_path: Path) -> None:
    """``mcp.Client`` speaking 2026-07-28 (no sessions) over HTTP with alice's bearer token: it lists
    the tools her roles allow and calls a read; her mail's question comes back as an
    ``InputRequiredResult`` her client's user answers (the SDK retries the call with the answer),
    the mail runs once, and the audit names her account (``oauth:alice``)."""
    from mcp import Client

    from apps.gateway.server import INPUT_KEY

    issuer = Issuer()
    port = free_port()
    url, db = f"http://127.0.0.1:{port}/mcp", str(tmp_path / "gateway.sqlite")
    policy = tmp_path / "policy.toml"
    policy.write_text(f'{POLICY}\n[rules.read_inbox]\ncaller_roles = ["inbox"]\n')
    # an ask timeout no answer here comes near: the question must be answered by alice's client
    gateway = _gateway(tmp_path, issuer, port, policy, db, ask_timeout=60)
    asked: list[tuple[Any, str]] = []

    async def user(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append((context.request_id, params.message))
        return types.ElicitResult(action="accept", content={"approve": True, "message": "mine"})

    async def session() -> dict[str, Any]:
        headers = {"authorization": f"Bearer {issuer.token('alice', url, scope='openid inbox')}"}
        seen: dict[str, Any] = {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http,
            Client(
                streamable_http.streamable_http_client(url, http_client=http), elicitation_callback=user
            ) as client,
        ):
            seen["version"] = client.protocol_version
            seen["tools"] = {t.name for t in (await client.list_tools()).tools}
            meta = {CONVERSATION: "c1", REQUEST: "Send Ana a note about lunch."}
            seen["looked"] = await client.call_tool("lookup_contact", {"name": "ana"}, meta=meta)
            seen["sent"] = await client.call_tool("send_email", lunch, meta=meta)
        return seen

    lunch = {"to": "ana@example.com", "body": "lunch at noon"}
    try:
        assert gateway.stderr is not None
        said = [gateway.stderr.readline() for _ in range(2)]
        assert f"serving {url} (bearer tokens of {issuer.url})" in said[1], said
        seen = asyncio.run(asyncio.wait_for(session(), 60))
    finally:
        gateway.terminate()
        gateway.wait(timeout=20)
        issuer.server.shutdown()
    assert seen["version"] == "2026-07-28", seen["version"]
    assert {"read_inbox", "lookup_contact", "send_email"} <= seen["tools"], seen["tools"]
    assert "delete_file" not in seen["tools"], seen["tools"]
    looked, sent = seen["looked"], seen["sent"]
    assert not looked.is_error and "ana@example.com" in text_of(looked), text_of(looked)
    assert not sent.is_error and "sent to ana@example.com" in text_of(sent), text_of(sent)
    # asked once, as the InputRequiredResult's input (its key), not by a request in the call's middle
    assert [key for key, _ in asked] == [INPUT_KEY] and "send_email" in asked[0][1], asked
    assert gateway.returncode == 0, gateway.returncode
    assert [s["args"]["body"] for s in sent_mail(tmp_path)] == ["lunch at noon"]
    exported = run_cli(tmp_path, "audit", _thread("c1", "alice"), "--jsonl", "--db", db)
    assert exported.returncode == 0, exported.stderr
    [mail] = [r for r in map(json.loads, exported.stdout.splitlines()) if r.get("tool") == "send_email"]
    assert mail["outcome"] == "ran", mail
    assert [(a["reviewer"], a["account"]) for a in mail["answers"]] == [("mcp-client-user", "oauth:alice")], (
        mail
    )


def test_auth_options_without_an_issuer_or_without_http_are_one_line(tmp_path: Path) -> None:
    base = ["gateway", "--upstream", UPSTREAM, "--db", str(tmp_path / "g.sqlite")]
    alone = run_cli(tmp_path, *base, "--ask-client-caller", "alice")
    assert alone.returncode == 2 and "need --auth-issuer" in alone.stderr, alone.stderr
    stdio = run_cli(tmp_path, *base, "--auth-issuer", "http://127.0.0.1:9")
    assert stdio.returncode == 2 and "--auth-issuer needs --http" in stdio.stderr, stdio.stderr
    unreachable = run_cli(tmp_path, *base, "--http", str(free_port()), "--auth-issuer", "http://127.0.0.1:9")
    assert unreachable.returncode == 2, unreachable.stderr
    assert "--auth-issuer: the issuer http://127.0.0.1:9 publishes no keys" in unreachable.stderr
    assert len(unreachable.stderr.strip().splitlines()) == 1, unreachable.stderr


def test_a_rate_limit_is_a_sliding_window_per_caller() -> None:
    from apps.gateway.proxy import Gateway
    from policies.supervisor import RateLimit, SupervisorPolicy, ToolRules

    limited = ToolRules(rate_limit=RateLimit(calls=2, seconds=10))
    policy = SupervisorPolicy.for_tools(["lookup", "other"], rules={"lookup": limited})
    gateway = Gateway([], [], policy, checkpointer=None, journal=None)  # type: ignore[arg-type]
    assert gateway.over_rate("lookup", "alice", now=0) is None
    assert gateway.over_rate("lookup", "alice", now=1) is None
    assert gateway.over_rate("lookup", "alice", now=2) == 8  # refused: not counted
    assert gateway.over_rate("lookup", "bob", now=2) is None  # bob's calls are his own
    assert gateway.over_rate("lookup", None, now=2) is None  # unauthenticated clients share one count
    assert gateway.over_rate("lookup", "alice", now=10.5) is None  # the first call left the window
    assert gateway.over_rate("lookup", "alice", now=10.6) == pytest.approx(0.4)
    assert all(gateway.over_rate("other", "alice", now=t) is None for t in range(20))  # no limit


def test_a_rate_limit_is_shared_by_the_gateways_on_one_store(tmp_path: Path) -> None:
    """Two gateway processes' journals on one SQLite store: alice's two calls at one spend her
    window at both; the next window admits her again, and bob's count is his own. The slots of a
    window that ended are dropped when the next opens (the store does not grow with every call)."""
    from apps.gateway.proxy import RATES_THREAD, Gateway
    from nodes.store import open_journal
    from policies.supervisor import RateLimit, SupervisorPolicy, ToolRules

    limited = ToolRules(rate_limit=RateLimit(calls=2, seconds=10))
    policy = SupervisorPolicy.for_tools(["lookup"], rules={"lookup": limited})
    db = str(tmp_path / "store.sqlite")
    with open_journal(db) as one, open_journal(db) as two:
        a = Gateway([], [], policy, checkpointer=None, journal=one)  # type: ignore[arg-type]
        b = Gateway([], [], policy, checkpointer=None, journal=two)  # type: ignore[arg-type]
        assert a.shared_over_rate("lookup", "alice", now=100.0) is None
        assert b.shared_over_rate("lookup", "alice", now=101.0) is None
        assert a.shared_over_rate("lookup", "alice", now=102.0) == pytest.approx(8.0)  # spent, at either
        assert b.shared_over_rate("lookup", "alice", now=103.0) == pytest.approx(7.0)
        assert b.shared_over_rate("lookup", "bob", now=103.0) is None
        assert b.shared_over_rate("lookup", "alice", now=110.5) is None  # the next window
        slots = [x["ask"] for x in one.answers(f"{RATES_THREAD}:lookup:alice")]
        assert slots == ["11:0"], slots  # the ended window's slots are gone
