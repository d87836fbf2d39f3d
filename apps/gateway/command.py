"""``agent-patterns gateway``: serve MCP in front of upstream MCP servers, governed
(:mod:`apps.gateway.proxy`, docs/mcp.md); ``agent-patterns policy-schema``: the JSON Schema of a
policy file."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import runpy
import shlex
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO


class GatewayUsageError(Exception):
    """A problem with the gateway's command line or its files: one line, exit status 2 (the
    ``agent-patterns`` command reports it as its own errors)."""


#: A gateway session is one run: its budgets, where a policy file does not set them, fit a client's
#: session (an hour, 200 calls) rather than one agent turn (SupervisorPolicy's 30 s, 8 calls).
GATEWAY_BUDGETS: dict[str, Any] = {"max_seconds": 3600.0, "max_tool_calls": 200}
POLICY_HELP = (
    "the policy: a .toml / .yaml / .json policy file (agent-patterns policy-schema), or a Python file "
    "defining `policy` (a SupervisorPolicy, or a function of the tools' MCP hints returning one), and "
    "optionally `custom_rules` and `subject` (default: the MCP hints' defaults, docs/mcp.md)"
)


def add_gateway_parser(sub: Any, db_option: Callable[[argparse.ArgumentParser], None]) -> None:
    gateway = sub.add_parser("gateway", help="serve MCP in front of MCP servers: every tool call governed")
    gateway.add_argument(
        "--upstream",
        action="append",
        default=[],
        metavar="COMMAND|URL",
        help="an upstream MCP server: a command line (stdio) or an http(s) URL (streamable HTTP); repeatable",
    )
    gateway.add_argument(
        "--config",
        metavar="FILE",
        help='upstream servers as a JSON file {"mcpServers": {name: {command, args}}}',
    )
    gateway.add_argument("--policy", metavar="FILE", help=POLICY_HELP)
    gateway.add_argument(
        "--http", type=int, metavar="PORT", help="serve streamable HTTP at http://HOST:PORT/mcp"
    )
    gateway.add_argument(
        "--host", default="127.0.0.1", help="the address --http listens on (default 127.0.0.1)"
    )
    gateway.add_argument(
        "--ask-timeout", type=float, metavar="SECONDS", help="reject a call nobody answered within SECONDS"
    )
    gateway.add_argument(
        "--call-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="an upstream call not answered within SECONDS ends as an error to the client "
        "(default 60; 0: none)",
    )
    gateway.add_argument(
        "--ask-client",
        action="store_true",
        help="let a client that supports MCP elicitation answer the questions about its own calls "
        "(its user approves; off: only reviewers out of the agent's reach answer, agent-patterns approve)",
    )
    gateway.add_argument(
        "--ask-client-caller",
        action="append",
        default=[],
        metavar="SUBJECT",
        help="with --auth-issuer: let this authenticated caller's client answer its own calls' questions "
        "(repeatable; a tool's client_answers rule still decides first)",
    )
    gateway.add_argument(
        "--auth-issuer",
        metavar="URL",
        help="with --http: accept only bearer tokens (JWT) this OAuth 2.1 authorization server issued "
        "for the gateway; the token's subject is the caller",
    )
    gateway.add_argument(
        "--auth-audience",
        metavar="AUD",
        help="with --auth-issuer: the audience tokens must name (default http://HOST:PORT/mcp)",
    )
    gateway.add_argument(
        "--auth-roles-claim",
        default="roles",
        metavar="CLAIM",
        help="with --auth-issuer: the token claim with the caller's roles, for rules' caller_roles "
        "(default roles; a token without it: its scope)",
    )
    gateway.add_argument(
        "--auth-jwks",
        metavar="URL",
        help="with --auth-issuer: the issuer's keys (default: its jwks_uri, from its published metadata)",
    )
    gateway.add_argument(
        "action",
        nargs="?",
        choices=["pins"],
        help="pins: list the upstream tools' pins and the changes waiting (--approve TOOL approves one)",
    )
    gateway.add_argument("--approve", metavar="TOOL", help="with pins: approve TOOL's newest change")
    gateway.add_argument("--as", dest="reviewer", metavar="NAME", help="with pins --approve: who approves")
    gateway.add_argument("--json", action="store_true", help="with pins: JSON")
    gateway.add_argument(
        "--check",
        action="store_true",
        help="connect to each upstream, say in one line each whether it answers (its tools, how long it "
        "took, tools changed since pinned) and exit: 0 all healthy, 1 otherwise; nothing is served",
    )
    gateway.add_argument(
        "--show-policy",
        action="store_true",
        help="print the effective rules per upstream tool (JSON) and exit: nothing is served",
    )
    db_option(gateway)
    schema = sub.add_parser("policy-schema", help="print the JSON Schema of a policy file (gateway --policy)")
    schema.add_argument("-o", "--output", metavar="FILE", help="write it to FILE instead of stdout")


def _upstreams(args: argparse.Namespace) -> list[Any]:
    from apps.gateway.proxy import GatewayError, Upstream, upstreams_from_config

    found: list[Upstream] = []
    if args.config:
        try:
            config = json.loads(Path(args.config).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise GatewayUsageError(f"gateway: --config {args.config}: {exc}") from None
        try:
            found.extend(upstreams_from_config(config if isinstance(config, dict) else {}))
        except GatewayError as exc:
            raise GatewayUsageError(f"gateway: --config {args.config}: {exc}") from None
    for n, given in enumerate(args.upstream, start=1):
        if given.startswith(("http://", "https://")):
            found.append(Upstream(f"upstream-{n}", url=given))
            continue
        words = shlex.split(given)
        if not words:
            raise GatewayUsageError("gateway: --upstream: an empty command")
        found.append(Upstream(f"upstream-{n}", command=words[0], args=tuple(words[1:])))
    if not found:
        raise GatewayUsageError(
            "gateway: name at least one upstream server (--upstream COMMAND|URL, or --config FILE)"
        )
    return found


def load_policy(path: str | None, hints: Mapping[str, Any], tools: list[Any]) -> tuple[Any, dict[str, Any]]:
    """The gateway's policy, and what else its file defines (``custom_rules``, ``subject``)."""
    from nodes.mcp_tools import load_policy_file, mcp_policy
    from policies.policy_file import PolicyFileError
    from policies.supervisor.rules.policy import SupervisorPolicy

    if path is None:
        return mcp_policy(tools, **GATEWAY_BUDGETS), {}
    file = Path(path)
    if not file.is_file():
        raise GatewayUsageError(f"gateway: no such policy file: {path}")
    if file.suffix.lower() in (".toml", ".yaml", ".yml", ".json"):
        try:
            return load_policy_file(file, hints, GATEWAY_BUDGETS), {}
        except PolicyFileError as exc:
            raise GatewayUsageError(str(exc)) from None
    try:
        found = runpy.run_path(str(file), run_name="__gateway_policy__")
    except Exception as exc:  # the user's file: say what broke, never a traceback
        raise GatewayUsageError(f"gateway: {path} failed to load: {type(exc).__name__}: {exc}") from None
    given = found.get("policy")
    if callable(given) and not isinstance(given, SupervisorPolicy):
        given = given(hints)
    if not isinstance(given, SupervisorPolicy):
        raise GatewayUsageError(
            f"gateway: {path} must define policy: a SupervisorPolicy, or a function of the hints"
        )
    return given, {k: found[k] for k in ("custom_rules", "subject") if k in found}


#: The keys that seal the state of a 2026-07-28 question (comma-separated, each at least 32
#: characters; the first seals, every one unseals: rotation), shared by a gateway's replicas.
STATE_KEY_ENV = "AGENT_PATTERNS_GATEWAY_STATE_KEY"


def state_keys() -> list[str]:
    """The keys :data:`STATE_KEY_ENV` gives (none: each process seals with a key of its own)."""
    keys = [k.strip() for k in os.environ.get(STATE_KEY_ENV, "").split(",") if k.strip()]
    short = [i for i, k in enumerate(keys) if len(k.encode()) < 32]
    if short:
        raise GatewayUsageError(
            f"gateway: {STATE_KEY_ENV}: each key needs at least 32 characters of secret randomness "
            "(python -c 'import secrets; print(secrets.token_hex(32))')"
        )
    return keys


def _verifier(args: argparse.Namespace) -> Any:
    """The bearer tokens ``--auth-issuer`` makes the HTTP gateway take (None: no authentication),
    its keys read now: a gateway that cannot read them does not start."""
    if not args.auth_issuer:
        if args.auth_audience or args.auth_jwks or args.ask_client_caller:
            raise GatewayUsageError(
                "gateway: --auth-audience, --auth-jwks and --ask-client-caller need --auth-issuer"
            )
        return None
    if not args.http:
        raise GatewayUsageError("gateway: --auth-issuer needs --http (a stdio client is its own process)")
    from apps.gateway.auth import AuthConfigError, TokenVerifier

    audience = args.auth_audience or f"http://{args.host}:{args.http}/mcp"
    verifier = TokenVerifier(args.auth_issuer, audience, args.auth_jwks, roles_claim=args.auth_roles_claim)
    try:
        verifier.load()
    except AuthConfigError as exc:
        raise GatewayUsageError(f"gateway: --auth-issuer: {exc}") from None
    return verifier


async def _serve(args: argparse.Namespace, err: TextIO) -> None:
    from apps.gateway.pins import checked, served
    from apps.gateway.proxy import Gateway, connected, hints
    from apps.gateway.server import serve_http, serve_stdio
    from nodes.store import open_async_checkpointer, open_journal, open_store, threaded_store

    auth = _verifier(args)
    keys = state_keys()
    async with connected(_upstreams(args)) as pool:
        tools, listed = pool.tools, pool.listed
        found = hints(tools, listed)
        policy, extra = load_policy(args.policy, found, tools)
        async with open_async_checkpointer(args.db) as saver:
            # the audit log beside the runs, as every engine keeps it (issue 55: a session had none)
            with open_journal(args.db) as journal, open_store(args.db) as store:
                if args.show_policy:
                    print(json.dumps(effective_policy(policy, listed, journal), indent=2), flush=True)
                    return
                checks = await asyncio.to_thread(checked, journal, listed)
                # the upstreams' resources, templates and prompts are pinned as the tools are
                offered = await asyncio.to_thread(checked, journal, pool.content_forms())
                _say_pins([*checks, *offered], args.db, err)
                pool.hidden_content = {c.tool for c in offered if c.verdict == "hide"}
                gateway = Gateway(
                    tools,
                    served(listed, checks),
                    policy,
                    hidden={c.tool: c for c in checks if c.verdict == "hide"},
                    ask_client=args.ask_client,
                    ask_client_callers=args.ask_client_caller,
                    call_timeout=args.call_timeout or None,
                    checkpointer=saver,
                    journal=journal,
                    store=threaded_store(store),
                    custom_rules=extra.get("custom_rules"),
                    subject=extra.get("subject"),
                    ask_timeout=args.ask_timeout,
                    log=err,
                    db=args.db,
                    upstreams=pool,
                    state_keys=keys,
                )
                try:
                    if args.http:

                        def started() -> None:
                            signed = f" (bearer tokens of {auth.issuer})" if auth is not None else ""
                            print(
                                f"gateway: serving http://{args.host}:{args.http}/mcp{signed}",
                                file=err,
                                flush=True,
                            )

                        await serve_http(gateway, args.host, args.http, started, auth)
                    else:
                        await serve_stdio(gateway)
                finally:
                    await gateway.close()


class ReapedChild(logging.Filter):
    """Drops asyncio's ``Unknown child process pid N, will report returncode 255``: logged when an
    upstream server exits before asyncio's child watcher sees it (another waiter reaped it). The
    gateway says itself that the server did not start, in one line; this would be a second."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Unknown child process pid")


async def check_upstreams(upstreams: list[Any], db: str, out: TextIO) -> int:
    """``gateway --check``: each upstream started (or reached) alone, its tools listed, then
    closed; one line each: ``ok NAME: N tools in S s`` (and the tools changed since the store's
    pins, which a gateway would hide), or ``FAILED NAME: why``. 0 when every upstream answered
    and nothing changed, else 1."""
    from apps.gateway.pins import pinned, seen_form
    from apps.gateway.proxy import Connection, GatewayError
    from nodes.store import open_journal
    from policies.tool_pins import check_pin

    healthy = True
    with open_journal(db) as journal:
        for upstream in upstreams:
            started = time.monotonic()
            connection = Connection(upstream)
            try:
                await connection.open()
            except GatewayError as exc:
                healthy = False
                out.write(f"FAILED {upstream.name}: {exc}\n")
                continue
            finally:
                await connection.close()
            spent = time.monotonic() - started
            # read only: a check pins nothing (the gateway that serves does, on first use)
            hidden = [
                str(seen["name"])
                for seen in map(seen_form, connection.listed)
                if check_pin(seen, pinned(journal, str(seen["name"]))).verdict == "hide"
            ]
            names = ", ".join(t.name for t in connection.listed)
            line = f"ok {upstream.name}: {len(connection.listed)} tools in {spent:.2f} s ({names})"
            if hidden:
                healthy = False
                line += f"; CHANGED since pinned, hidden until approved: {', '.join(hidden)}"
            out.write(line + "\n")
    return 0 if healthy else 1


def gateway_command(args: argparse.Namespace, err: TextIO) -> int:
    logging.getLogger("asyncio").addFilter(ReapedChild())
    try:
        import langchain.agents  # noqa: F401
        import mcp  # noqa: F401
    except ImportError as exc:
        raise GatewayUsageError(
            f"gateway: needs the mcp extra ({exc.name} is not installed): "
            "pip install 'governed-agent-patterns[mcp]'"
        ) from None
    from apps.gateway.proxy import GatewayError

    if args.check:
        return asyncio.run(check_upstreams(_upstreams(args), args.db, sys.stdout))
    try:
        asyncio.run(_serve(args, err))
    except (GatewayError, OSError) as exc:
        raise GatewayUsageError(f"gateway: {exc}") from None
    except BaseExceptionGroup as group:  # an upstream that failed, inside anyio's task groups
        leaves = _leaves(group)
        ours = [e for e in leaves if isinstance(e, GatewayUsageError | GatewayError)]
        if ours:
            raise GatewayUsageError(
                f"gateway: {ours[0]}".replace("gateway: gateway: ", "gateway: ")
            ) from None
        first = leaves[0] if leaves else group
        raise GatewayUsageError(
            f"gateway: an upstream server closed its connection ({type(first).__name__}: {first}): "
            "check that each --upstream runs an MCP server"
        ) from None
    return 0


def _say_pins(checks: list[Any], db: str, err: TextIO) -> None:
    first = [c.tool for c in checks if c.verdict == "pin"]
    if first:
        print(f"gateway: pinned {', '.join(first)} as first seen", file=err, flush=True)
    for check in checks:
        if check.verdict == "hide":
            print(
                f"gateway: {check.tool} changed since it was pinned ({', '.join(check.changed)}): "
                f"hidden until approved: agent-patterns gateway pins --approve {check.tool} --db {db}",
                file=err,
                flush=True,
            )


def effective_policy(policy: Any, listed: list[Any], journal: Any) -> list[dict[str, Any]]:
    """What the gateway would do with each upstream tool: served or not (the policy hides it, or
    its pin does), a side effect or not, whether its results are trusted, and its rules (the
    policy's own and the hints' defaults: only what is not a default of ``ToolRules``)."""
    from apps.gateway.pins import pinned, seen_form
    from policies.tool_pins import check_pin

    rows = []
    allowed = set(policy.allowed_tools)
    for tool in listed:
        seen = seen_form(tool)
        name = str(seen.get("name"))
        pin = check_pin(seen, pinned(journal, name)).verdict
        spec = policy.tools.get(name)
        rules = policy.rules.get(name)
        rows.append(
            {
                "tool": name,
                "served": name in allowed and pin != "hide",
                "why_not": (
                    "hidden by the policy"
                    if name not in allowed
                    else "changed since it was pinned"
                    if pin == "hide"
                    else None
                ),
                "pin": {"pin": "not pinned yet", "serve": "as pinned", "hide": "changed: hidden"}[pin],
                "side_effect": bool(spec and spec.side_effect),
                "results": (spec.trust if spec else "untrusted"),
                "rules": rules.model_dump(mode="json", exclude_defaults=True) if rules is not None else {},
            }
        )
    from apps.gateway.content import CONTENT_TOOLS

    for name in CONTENT_TOOLS:  # the gateway's own reads of resources and prompts, where served
        spec, rules = policy.tools.get(name), policy.rules.get(name)
        if spec is None:
            continue
        rows.append(
            {
                "tool": name,
                "served": name in allowed,
                "why_not": None if name in allowed else "hidden by the policy",
                "pin": "the gateway's own",
                "side_effect": spec.side_effect,
                "results": spec.trust,
                "rules": rules.model_dump(mode="json", exclude_defaults=True) if rules is not None else {},
            }
        )
    return rows


def pins_command(args: argparse.Namespace, out: TextIO, reviewer: str) -> int:
    """``agent-patterns gateway pins [--approve TOOL] [--json] --db STORE``: the pins a gateway on
    the store keeps, each tool's changes waiting, and an operator's approval of one (as
    ``reviewer``). Exit 0; a tool with nothing waiting is an error (exit 2, one line)."""
    from apps.gateway.pins import approve, pins
    from nodes.store import open_journal

    with open_journal(args.db) as journal:
        if args.approve:
            try:
                done = approve(journal, args.approve, reviewer)
            except LookupError as exc:
                raise GatewayUsageError(f"gateway pins: {exc.args[0]}") from None
            if args.json:
                out.write(json.dumps(done) + "\n")
            else:
                changed = ", ".join(done["changed"]) or "nothing"
                out.write(f"approved {done['tool']} as pinned now (by {reviewer}; changed: {changed})\n")
            return 0
        listed = pins(journal)
    if args.json:
        out.write(json.dumps(listed) + "\n")
        return 0
    if not listed:
        out.write("no pins: no gateway has served a tool from this store\n")
    for pin in listed:
        line = f"{pin['tool']}: pinned {str(pin.get('digest'))[:12]} by {pin.get('approved_by')}"
        for change in pin["pending"]:
            line += f"; CHANGED {str(change['digest'])[:12]} ({', '.join(change['changed'])}): hidden"
        out.write(line + "\n")
    return 0


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


def policy_schema_command(args: argparse.Namespace, out: TextIO) -> int:
    from policies.policy_file import policy_json_schema

    text = json.dumps(policy_json_schema(), indent=2) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        out.write(text)
    return 0
