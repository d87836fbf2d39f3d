"""The gateway's read fast path (apps/gateway/fast.py, docs/mcp.md "What it costs"): a call of a
tool the policy can only approve is forwarded at once and folded into the session's thread later,
and the thread, its provenance and its audit are what they are without the fast path: the same
results, the same calls in the same order with the same observations, the same decisions; a value
planted in a read served directly is still caught at the next side effect; a read a rule would
review goes through the agent."""

from __future__ import annotations

import asyncio
import io
import sys
from typing import Any

import pytest

pytest.importorskip("mcp")
pytest.importorskip("langchain.agents")

from demo_tools.mcp_server import PLANTED_ADDRESS

pytestmark = pytest.mark.integration
REQUEST = {"agent-patterns/request": "Look Ana up and mail ana@example.com the minutes"}
POLICY = """\
[policy]
max_tool_calls = 40
max_steps = 60
"""


def _policy(text: str, hints: Any = None) -> Any:
    from policies.policy_file import policy_from_file_text

    return policy_from_file_text(text, "toml", hints or _HINTS, "policy.toml")


_HINTS = {
    "lookup_contact": {"readOnlyHint": True, "openWorldHint": False},
    "read_inbox": {"readOnlyHint": True, "openWorldHint": True},
    "send_email": {"readOnlyHint": False, "destructiveHint": False},
}


async def _session(
    calls: list[tuple[str, dict[str, Any]]],
    *,
    fast: bool,
    policy_text: str = POLICY,
    pause: float = 0.0,
    end: str = "close",
) -> tuple[list[Any], Any, Any]:
    """``calls`` in one session of an in-process gateway in front of the demo server: the results,
    the thread's audit (read after the session ``end``s: ``close`` the gateway, ``forget`` the
    session, or ``none``: read while it is open, ``pause`` seconds after the last call) and the
    gateway."""
    from langgraph.checkpoint.memory import InMemorySaver

    from apps.gateway.proxy import Gateway, Upstream, build_agent, connected, hints
    from apps.operations.audit import read_audit
    from nodes.store import open_journal

    upstream = Upstream("mailbox", command=sys.executable, args=("-m", "demo_tools.mcp_server"))
    async with connected([upstream]) as pool:
        policy = _policy(policy_text, hints(pool.tools, pool.listed))
        saver = InMemorySaver()
        with open_journal(None) as journal:
            gateway = Gateway(
                pool.tools, pool.listed, policy, checkpointer=saver, journal=journal,
                log=io.StringIO(), fast_reads=fast,
            )  # fmt: skip
            results = [await gateway.call("s", name, args, REQUEST) for name, args in calls]
            thread = gateway.sessions["s"].thread_id
            await asyncio.sleep(pause)
            if end == "close":
                await gateway.close()
            elif end == "forget":
                await gateway.forget("s")
            audit = await asyncio.to_thread(read_audit, build_agent(checkpointer=saver), thread)
            if end == "none":
                await gateway.close()
    return results, audit, gateway


def _calls(audit: Any) -> list[tuple[Any, ...]]:
    return [(c["tool"], c["args"], c["ok"], c["observation"]) for r in audit.runs for c in r.calls]


def _decisions(audit: Any) -> list[tuple[Any, ...]]:
    rows = [t for r in audit.runs for t in r.trace if t.get("phase") not in ("model",)]
    return [(t.get("phase"), t.get("tool"), t.get("decision"), t.get("review_reason")) for t in rows]


def _text(result: Any) -> str:
    return " ".join(c.text for c in result.content)


CALLS = [
    ("lookup_contact", {"name": "bo"}),  # the turn's first call: through the agent
    ("read_inbox", {}),  # served directly: a planted address in its result
    ("lookup_contact", {"name": "ana"}),
    ("send_email", {"to": PLANTED_ADDRESS, "body": "the report"}),  # the planted value: refused
    ("lookup_contact", {"name": "carla"}),  # a read after a refusal: through the agent
    ("send_email", {"to": "ana@example.com", "body": "the minutes"}),
]
INTERLEAVED = [
    ("lookup_contact", {"name": "bo"}),
    ("lookup_contact", {"name": "ana"}),
    ("send_email", {"to": "ana@example.com", "body": "the minutes"}),
    ("lookup_contact", {"name": "dan"}),
    ("read_inbox", {}),
    ("lookup_contact", {"name": "eve"}),
    ("send_email", {"to": "bo@example.com", "body": "the agenda"}),
    ("lookup_contact", {"name": "fay"}),
]


def test_fast_reads_leave_the_thread_and_the_audit_as_agent_steps_do(monkeypatch) -> None:
    """The same calls with and without the fast path: the same results, the same call rows (tool,
    arguments, ok, observation) in the same order, the same decisions; reads after a side effect
    and between two keep their place; the planted address a read served directly returned is
    refused at the next side effect, as it is without the fast path."""
    from apps.gateway.proxy import Gateway

    served: list[str] = []
    own = Gateway._read_directly

    async def counted(self: Any, session: Any, name: str, *rest: Any) -> Any:
        served.append(name)
        return await own(self, session, name, *rest)

    monkeypatch.setattr(Gateway, "_read_directly", counted)
    directly = {  # the turn's first call, and a read after a refusal, go through the agent
        id(CALLS): ["read_inbox", "lookup_contact"],
        id(INTERLEAVED): [
            "lookup_contact",
            "lookup_contact",
            "read_inbox",
            "lookup_contact",
            "lookup_contact",
        ],
    }
    for calls in (CALLS, INTERLEAVED):
        served.clear()
        fast, fast_audit, gateway = asyncio.run(_session(calls, fast=True))
        assert served == directly[id(calls)]
        assert "could not be folded" not in gateway.log.getvalue()
        assert "answered otherwise" not in gateway.log.getvalue()
        slow, slow_audit, _ = asyncio.run(_session(calls, fast=False))
        assert [(r.is_error, _text(r)) for r in fast] == [(r.is_error, _text(r)) for r in slow]
        assert [r.structured_content for r in fast] == [r.structured_content for r in slow]
        assert _calls(fast_audit) == _calls(slow_audit)
        assert _decisions(fast_audit) == _decisions(slow_audit)
        made = [(c[0], c[1]) for c in _calls(fast_audit)]
        assert made == [(n, a) for (n, a), r in zip(calls, fast, strict=True) if not r.is_error]
    # CALLS: the planted address (from read_inbox, served directly) is refused at the side effect
    fast, _audit, _ = asyncio.run(_session(CALLS, fast=True))
    assert fast[3].is_error and "untrusted" in _text(fast[3]), _text(fast[3])
    assert not fast[5].is_error and "sent to ana@example.com" in _text(fast[5])


@pytest.mark.parametrize("end", ["close", "forget", "none"])
def test_reads_served_directly_are_in_the_audit_when_the_session_ends_or_soon_after(end: str) -> None:
    """Reads only (no later reviewed call folds them): closing the gateway, the client leaving, or
    the fold at most ``FOLD_AFTER`` seconds after the first read puts them in the thread, in order,
    with their results."""
    from apps.gateway.fast import FOLD_AFTER

    calls = [("lookup_contact", {"name": n}) for n in ("bo", "ana", "bo2", "ana2")] + [("read_inbox", {})]
    pause = FOLD_AFTER * 3 if end == "none" else 0.0
    results, audit, _ = asyncio.run(_session(calls, fast=True, pause=pause, end=end))
    assert not any(r.is_error for r in results)
    kept = _calls(audit)
    assert [(c[0], c[1]) for c in kept] == calls
    assert "ana@example.com" in str(kept[1][3]) and PLANTED_ADDRESS in str(kept[-1][3])


def test_a_read_a_rule_would_review_goes_through_the_agent() -> None:
    """Only a tool whose rules can only approve takes the fast path: an argument's source, a
    bound argument, a mandate, a custom rule, a Cedar policy naming it, a destinations rule or a
    confidential field anywhere keep it a step of the agent; a side effect never takes it; rate
    limits and caller roles (applied before any review) do not stop it."""
    from apps.gateway.fast import plain_read

    assert plain_read(_policy(POLICY), "lookup_contact") and plain_read(_policy(POLICY), "read_inbox")
    assert not plain_read(_policy(POLICY), "send_email")
    assert not plain_read(_policy(POLICY), "no_such_tool")
    reviewed = [
        '[rules.lookup_contact]\narg_sources = [{arg = "name", sources = ["request"]}]\n',
        '[rules.lookup_contact]\nbound_args = ["name"]\n',
        '[rules.lookup_contact]\nrequested = {verbs = ["look up"]}\n',
        "[rules.lookup_contact]\nrequire_approval = true\n",
        '[rules.lookup_contact]\none_of = [{arg = "name", values = ["ana"], reason = "not_a_contact"}]\n',
    ]
    for text in reviewed:
        try:
            policy = _policy(text + POLICY)
        except Exception as exc:  # a rule this policy file cannot write here: said
            pytest.fail(f"{text!r}: {exc}")
        assert not plain_read(policy, "lookup_contact"), text
    base = _policy(POLICY)
    naming = 'forbid(principal, action == Action::"lookup_contact", resource);'
    assert not plain_read(base.model_copy(update={"cedar": naming}), "lookup_contact")
    other = 'forbid(principal, action == Action::"send_email", resource);'
    assert plain_read(base.model_copy(update={"cedar": other}), "lookup_contact")
    from policies.supervisor.rules.kinds import Destinations

    assert not plain_read(base.model_copy(update={"destinations": Destinations()}), "lookup_contact")
    # a confidential field of any tool's results (here another read's): a value it holds may go
    # only where a reader rule says, which every call's arguments are checked against
    inbox = base.tools["read_inbox"].model_copy(update={"sensitive": ["body"]})
    secret = base.model_copy(update={"tools": {**base.tools, "read_inbox": inbox}})
    assert secret.sensitive_fields() == {"read_inbox": ["body"]}
    assert not plain_read(secret, "lookup_contact") and not plain_read(secret, "read_inbox")
    admitted = [
        "[rules.lookup_contact]\nrate_limit = {calls = 5, seconds = 60}\n",
        '[rules.lookup_contact]\ncaller_roles = ["staff"]\n',
    ]
    for text in admitted:
        assert plain_read(_policy(text + POLICY), "lookup_contact"), text


def test_a_call_the_gateways_checks_refuse_is_not_served_directly() -> None:
    """The same read twice (the gateway's loop limit: one identical call a run), and a read with
    arguments its schema refuses: refused by the agent's review as without the fast path, and the
    rest of the turn goes through the agent."""
    calls = [
        ("lookup_contact", {"name": "bo"}),
        ("lookup_contact", {"name": "ana"}),
        ("lookup_contact", {"name": "ana"}),  # the same call again
        ("lookup_contact", {"nom": 3}),  # not its schema
    ]
    fast, fast_audit, _ = asyncio.run(_session(calls, fast=True))
    slow, slow_audit, _ = asyncio.run(_session(calls, fast=False))
    assert [r.is_error for r in fast] == [False, False, True, True]
    assert [(r.is_error, _text(r)) for r in fast] == [(r.is_error, _text(r)) for r in slow]
    assert _calls(fast_audit) == _calls(slow_audit)
    assert _decisions(fast_audit) == _decisions(slow_audit)


# ------------------------------------------------- a read's answer without the tool node's machinery


def _tool(answer: Any, response_format: str, handle: Any) -> Any:
    from langchain_core.tools import StructuredTool, ToolException

    async def call(**arguments: Any) -> Any:
        if isinstance(answer, Exception):
            raise answer
        if answer == "raise-tool-error-without-args":
            raise ToolException()
        return answer

    return StructuredTool(
        name="lookup_contact",
        description="a read",
        args_schema={"type": "object", "properties": {"name": {"type": "string"}}},
        coroutine=call,
        response_format=response_format,
        handle_tool_error=handle,
    )


def _answers() -> Any:
    from hypothesis import strategies as st
    from langchain_core.tools import ToolException

    block = st.one_of(
        st.fixed_dictionaries({"type": st.just("text"), "text": st.text(max_size=20)}),
        st.fixed_dictionaries(
            {"type": st.just("image"), "data": st.text(max_size=8), "mimeType": st.just("image/png")}
        ),
        st.fixed_dictionaries(
            {"type": st.sampled_from(["resource", "audio", "resource_link"]), "uri": st.text(max_size=8)}
        ),
        st.text(max_size=10),
    )
    content = st.one_of(
        st.text(max_size=20), st.lists(block, max_size=4), st.integers(), st.none(),
        st.dictionaries(st.text(max_size=5), st.integers(), max_size=3), st.tuples(block, block),
    )  # fmt: skip
    artifact = st.one_of(st.none(), st.fixed_dictionaries({"structured_content": st.none() | st.integers()}))
    return st.one_of(
        st.tuples(st.just("content_and_artifact"), st.tuples(content, artifact)),
        st.tuples(st.just("content"), content),
        st.tuples(
            st.sampled_from(["content", "content_and_artifact"]),
            st.one_of(
                st.builds(ToolException, st.text(max_size=20)),
                st.just("raise-tool-error-without-args"),
            ),
        ),
    )


def test_a_read_answered_at_once_is_the_message_the_tools_own_invocation_gives() -> None:
    """:func:`apps.gateway.fast.answer_now` (the fast path's call of a read, without the callback
    and signature machinery) gives what ``tool.ainvoke`` gives for the same tool call: content,
    artifact, status, name and id, over text and other blocks, strings, JSON values, a ``(content,
    artifact)`` pair, and a tool error handled as the tool says (its own handler, a fixed string,
    the error's words, or raised)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from apps.gateway.fast import answer_now

    handlers = st.sampled_from(
        [True, "the upstream failed", lambda e: [{"type": "text", "text": f"x {e}"}], False]
    )

    @settings(max_examples=150, deadline=None)
    @given(case=_answers(), handle=handlers)
    def check(case: Any, handle: Any) -> None:
        response_format, answer = case
        tool = _tool(answer, response_format, handle)
        call = {"name": tool.name, "args": {"name": "ana"}, "id": "mcp-1", "type": "tool_call"}

        def outcome(coroutine: Any) -> Any:
            try:
                return asyncio.run(coroutine)
            except Exception as exc:  # the same error both ways
                return ("raised", type(exc).__name__)

        expected = outcome(tool.ainvoke(call))
        got = outcome(answer_now(tool, {"name": "ana"}, "mcp-1"))
        if isinstance(expected, tuple):
            assert got == expected
            return
        assert (got.content, got.artifact, got.status, got.name, got.tool_call_id) == (
            expected.content, expected.artifact, expected.status, expected.name, expected.tool_call_id,
        )  # fmt: skip

    check()
