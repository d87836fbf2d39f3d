"""The gateway's read fast path (docs/mcp.md, "What it costs"): a call of a tool the policy can
only approve is forwarded to its upstream at once, not as a step of the session's agent, and kept
on the session (:class:`Read`); before the session's next reviewed call, when its turn ends, when
its client leaves or the gateway closes, and at the latest :data:`FOLD_AFTER` seconds after the
first of them, the kept reads are *folded* into the session's thread: the agent's model proposes
them (one reply, their calls in the order they were made), the middleware reviews them as any
call, and its tool node answers each with the result the client already got (:class:`ServedTool`)
rather than calling the upstream again. So the thread, its rows and the audit hold the reads, in
order, with their results, as if each had been a step; later calls are judged against what they
said.

Which tools: :func:`plain_read`: a tool the policy knows, allows, with no side effect, whose rules
hold nothing that could refuse, ask about or revise one of its calls or change its result (rate
limits and caller roles are applied before any review, as for any call), under a policy with no
rule that reads every tool's arguments (destinations, confidential fields, a Cedar policy naming
the tool). The gateway's own checks (argument schema, budgets, loop limits) are checked per call
against what the session's turn made (:meth:`nodes.middleware.GovernanceMiddleware.gate_passes`),
and a turn in which anything was refused takes no fast path any more.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import StructuredTool, ToolException
from langchain_core.tools.base import TOOL_MESSAGE_BLOCK_TYPES, ToolOutputMixin
from mcp import types
from pydantic import PrivateAttr

from policies.supervisor.rules.cedar import parse_cedar
from policies.supervisor.rules.kinds import ToolRules
from policies.supervisor.rules.policy import SupervisorPolicy

#: Seconds after the first kept read by which the kept reads are folded into the thread (a
#: session that goes on reading keeps at most this long unrecorded; also the bound on what a
#: process that dies loses: docs/mcp.md).
FOLD_AFTER = 0.5
#: The most reads kept on a session: the next one folds them first.
FOLD_MAX = 32
#: Seconds of a turn's ``max_seconds`` kept in reserve: a read later in the turn goes through the
#: agent (the fold must land inside the budget).
SECONDS_MARGIN = 60.0

#: The fields of a tool's rules that never decide one of its calls' review: the gateway applies
#: rate limits and caller roles before any review; the rest name a reason, or shape a question,
#: which a call no rule can ask about is never asked. Any other field away from its default (a
#: bound argument, an argument's source, a mandate, owned records, a custom rule, a limit...) may
#: refuse, ask or revise: such a tool's calls are reviewed as agent steps.
UNDECIDING = frozenset(
    {
        "read_only",
        "approve_reason",
        "approval_reason",
        "authorised_reason",
        "request_as_approval",
        "shadow",
        "ask_expires_after",
        "on_expired",
        "client_answers",
        "rate_limit",
        "caller_roles",
        "reviewer_role",
        "approvals",
    }
)
_PLAIN = ToolRules().model_dump(exclude=set(UNDECIDING))


def plain_read(policy: SupervisorPolicy, name: str) -> bool:
    """May a call of ``name`` take the fast path under ``policy``: a tool it knows and allows, with
    no side effect, whose own records are not filtered per subject (``owner_only``), whose rules
    (its own and its groups') could only approve, under a policy whose rules over every tool's
    arguments do not apply (no destinations rule, no confidential field, no Cedar policy that
    names the tool)?"""
    spec = policy.tools.get(name)
    if spec is None or spec.side_effect or spec.owner_only or name not in policy.allowed_tools:
        return False
    rules = policy.rules_for(name)
    if rules is None or rules.model_dump(exclude=set(UNDECIDING)) != _PLAIN:
        return False
    if policy.destinations is not None or policy.sensitive_fields():
        return False
    return policy.cedar is None or not parse_cedar(policy.cedar).applies(name)


def plain_reads(policies: Iterable[SupervisorPolicy], names: Iterable[str]) -> frozenset[str]:
    """The tools of ``names`` that take the fast path under each of ``policies`` (the gateway's,
    and the one it applies when the client does not send the user's request)."""
    every = list(policies)
    return frozenset(n for n in names if all(plain_read(p, n) for p in every))


@dataclass(frozen=True)
class Read:
    """A read served directly, kept until it is folded into the thread: the call as the agent's
    model proposes it (``name``, ``args`` as the client sent them, ``id``), and the tool's answer
    the client's result was made from."""

    call: dict[str, Any]
    message: ToolMessage
    result: types.CallToolResult


class ServedTool(StructuredTool):
    """An upstream tool that answers a folded read (a call id in its ``served`` store, with the
    same arguments) with the answer it gave when the read was served, without calling the upstream
    again; any other call runs the tool."""

    _served: MutableMapping[str, tuple[Any, ToolMessage]] = PrivateAttr(default_factory=dict)

    async def ainvoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        if isinstance(input, Mapping) and input.get("type") == "tool_call":
            kept = self._served.get(str(input.get("id")))
            if kept is not None and kept[0] == input.get("args"):
                return kept[1]
        return await super().ainvoke(input, config, **kwargs)


async def answer_now(tool: Any, args: dict[str, Any], call_id: str) -> Any:
    """``tool``'s answer to the call ``call_id`` of ``args``, as ``tool.ainvoke`` gives it for a
    tool call (its :class:`~langchain_core.messages.ToolMessage`: the content its response format
    names, the artifact, the status; a :class:`~langchain_core.tools.ToolException` handled as the
    tool says), without the callback and signature machinery a run's tool node needs and a read
    served directly does not (a third of the gateway's own share of a read). A tool this does not
    cover exactly (not an async ``StructuredTool`` with a JSON-schema argument schema and a
    response format of ``content`` or ``content_and_artifact``) is invoked as before.
    ``tests/test_mcp_fast_reads.py`` holds the two ways equal over content, artifacts and
    errors."""
    if (
        not isinstance(tool, StructuredTool)
        or tool.coroutine is None
        or not isinstance(tool.args_schema, dict)
        or tool.response_format not in ("content", "content_and_artifact")
    ):
        return await tool.ainvoke({"name": tool.name, "args": args, "id": call_id, "type": "tool_call"})
    artifact, status = None, "success"
    try:
        content = await tool.coroutine(**args)
    except ToolException as error:
        flag = tool.handle_tool_error
        if not flag:
            raise
        if isinstance(flag, bool):
            content = error.args[0] if error.args else "Tool execution error"
        else:
            content = flag if isinstance(flag, str) else flag(error)
        status = "error"
    else:
        if tool.response_format == "content_and_artifact":
            if not (isinstance(content, tuple) and len(content) == 2):
                raise ValueError(f"{tool.name} answered no (content, artifact) pair")
            content, artifact = content
    if isinstance(content, ToolOutputMixin) or (
        isinstance(content, list) and content and all(isinstance(c, ToolOutputMixin) for c in content)
    ):
        return content
    return ToolMessage(
        message_content(content), artifact=artifact, tool_call_id=call_id, name=tool.name, status=status
    )


def message_content(content: Any) -> Any:
    """``content`` as a tool message holds it: a string or a list of content blocks as it is, any
    other value as JSON (else its ``str``), as LangChain's tools write it."""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)) and all(
        isinstance(c, str) or (isinstance(c, dict) and c.get("type") in TOOL_MESSAGE_BLOCK_TYPES)
        for c in content
    ):
        return list(content)
    try:
        return json.dumps(content, ensure_ascii=False)
    except Exception:
        return str(content)


def served(tool: Any, store: MutableMapping[str, tuple[Any, ToolMessage]]) -> Any:
    """``tool`` answering the folded reads in ``store`` (call id → the arguments it ran with and
    its answer); a tool that is not an async ``StructuredTool`` as it is (it takes no fast path)."""
    if not isinstance(tool, StructuredTool) or tool.coroutine is None:
        return tool
    replay = ServedTool(
        name=tool.name,
        description=tool.description,
        args_schema=tool.args_schema,
        func=tool.func,
        coroutine=tool.coroutine,
        metadata=tool.metadata,
        handle_tool_error=tool.handle_tool_error,
        response_format=tool.response_format,
    )
    replay._served = store
    return replay
