"""``agent-patterns gateway``: an MCP server in front of one or more upstream MCP servers, with the
governance of a ``create_agent`` agent (docs/mcp.md).

Each client session is one thread of a ``create_agent`` agent with ``GovernanceMiddleware``, kept
in the store ``--db`` names: the client is its model (each ``tools/call`` is the model's next tool
call), the upstream servers' tools are its tools. So every call gets the middleware's decisions,
rows, journal and audit, with nothing of its own: approved calls are forwarded upstream; refused
ones come back as MCP tool errors (``isError``) that say why; a call the policy asks a human about
waits until ``agent-patterns approve`` / ``reject`` answers it from another shell against the same
store (the first answer wins; ``ask_timeout`` rejects it when nobody answers). Values seen in
untrusted results are tracked across the session's calls, as in the engines.

What a gateway cannot see is the user's turn: a client sends only calls. A client may send it in a
call's ``_meta`` (``{"agent-patterns/request": "<the user's message>"}``): a new request starts a
new turn (a run) on the session's thread, and the rules that read the request decide on it. A call
without it is reviewed under :func:`policies.mcp.without_request`: those rules ask a human.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import json
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.types import Command
from mcp import types
from pydantic import PrivateAttr

from apps.gateway.fast import FOLD_AFTER, FOLD_MAX, SECONDS_MARGIN, Read, answer_now
from nodes.effects import ask_key, first_answer
from nodes.journal import DONE, NOT_RUN, STARTED, Journal, process_alive
from nodes.mcp_tools import mcp_hints, structured_results
from policies.human import SYSTEM_PREFIX
from policies.mcp import without_request
from policies.supervisor.rules.policy import SupervisorPolicy
from policies.tools import call_signature

#: The name in the gateway threads' checkpoint metadata (the CLI's ``runs``/``waiting``/``approve``).
AGENT_NAME = "mcp_gateway"
#: ``_meta`` keys a client may send with a call.
REQUEST_META = "agent-patterns/request"
CALL_ID_META = "agent-patterns/call_id"
#: The conversation a call belongs to, which the client names: what the conversation has read is
#: kept on its thread, whichever session (or gateway process on the same store) the call comes in.
CONVERSATION_META = "agent-patterns/conversation"
#: The turn's text when the client does not send the user's request.
NO_REQUEST = "(calls from an MCP client through the gateway; the user's request was not sent)"
_END = object()
#: Seconds an upstream server has to answer ``initialize``.
START_TIMEOUT = 30.0
#: The journal's thread of the calls clients named (``CALL_ID_META``): made once, whoever retries.
CALLS_THREAD = "mcp-gateway:calls"
#: Where the rate limits' slots are kept, per tool and caller: shared by the gateway processes on
#: the store (:meth:`Gateway.shared_over_rate`).
RATES_THREAD = "mcp-gateway:rates"


#: Who rejects a call nobody answered within ``--ask-timeout``: the system, not a reviewer.
ASK_TIMEOUT_REVIEWER = f"{SYSTEM_PREFIX}ask-timeout"
#: Who rejects the question of a session whose client left before anyone answered it.
CLIENT_LEFT_REVIEWER = f"{SYSTEM_PREFIX}client-left"
#: Seconds an upstream has to answer one call (``--call-timeout``): past it the client gets an
#: error and the session goes on (a side effect's outcome is then unknown: it is not made again).
CALL_TIMEOUT = 60.0


class UpstreamTimeout(Exception):
    """An upstream that did not answer a call in time."""


def timed(tool: Any, seconds: float | None) -> Any:
    """``tool`` (an MCP tool) with each call bounded to ``seconds`` (None or 0: unbounded): past it
    the call ends as a tool error saying so, as an upstream's own error does; what the upstream
    does with the call it still holds is unknown, so a side effect that timed out is recorded as
    failed and its key is not made again. A broken connection (an upstream that exited) is a tool
    error too, never the end of the client's session."""
    from langchain_core.tools import StructuredTool, ToolException

    own = getattr(tool, "coroutine", None)
    if not isinstance(tool, StructuredTool) or own is None:
        return tool

    async def bounded(**arguments: Any) -> Any:
        try:
            return await asyncio.wait_for(own(**arguments), seconds or None)
        except TimeoutError:
            raise ToolException(
                f"the upstream did not answer {tool.name} within {seconds:g} s (the gateway's "
                "--call-timeout): the call may still run there; not made again"
            ) from None
        except ToolException:  # the upstream's own error (isError): as it said it
            raise
        except Exception as exc:  # anything else the call raised: said, not raised
            raise ToolException(
                f"the upstream of {tool.name} failed ({type(exc).__name__}: {exc or 'connection closed'}): "
                "the call may not have run"
            ) from None

    upstream_error = tool.handle_tool_error

    def handled(error: ToolException) -> Any:  # the upstream's own error blocks, else the line
        if callable(upstream_error) and hasattr(error, "tool_content"):
            return upstream_error(error)
        return str(error)

    return calling(tool, bounded, handle_tool_error=handled)


def calling(tool: Any, coroutine: Callable[..., Awaitable[Any]], *, handle_tool_error: Any = None) -> Any:
    """An MCP tool as LangChain holds it (name, description, schema, metadata, response format)
    that runs ``coroutine`` instead (``handle_tool_error``: default, the tool's own)."""
    from langchain_core.tools import StructuredTool

    return StructuredTool(
        name=tool.name,
        description=tool.description,
        args_schema=tool.args_schema,
        coroutine=coroutine,
        metadata=tool.metadata,
        handle_tool_error=tool.handle_tool_error if handle_tool_error is None else handle_tool_error,
        response_format=tool.response_format,
    )


#: The stops of a session's run that end its turn and not the session: the next call starts a new
#: turn on the session's thread. Refused calls spend a turn's ``max_refusals`` (the calls an
#: attacker planted in a tool result among them), so they must not lock the user out of the
#: conversation: the user's next read is served.
TURN_STOPS = frozenset({"max_refusals"})


def content_schema(name: str) -> Mapping[str, Any] | None:
    """The output schema of the gateway's own read tools (their structured content is the MCP
    result the client gets), else None."""
    from apps.gateway.content import CONTENT_TOOLS, RESULT_SCHEMA

    return RESULT_SCHEMA if name in CONTENT_TOOLS else None


def call_digest(name: Any, args: Any) -> str:
    """The digest a client-named call is kept under: its tool and arguments (canonical JSON)."""
    canonical = json.dumps([name, args or {}], sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


async def _off_loop(fn: Callable[..., Any], *args: Any) -> Any:
    """A journal call, off the event loop: an SQLite journal waits for the file's lock, which the
    async checkpointer's open transaction may hold until the loop runs again."""
    return await asyncio.to_thread(fn, *args)


def _stopped(session: Session) -> types.CallToolResult | None:
    """The refusal of a call to a session whose run stopped (a turn's refusal budget spent is the
    turn's stop, not the session's: the next call starts a new turn), else None."""
    if session.ended in TURN_STOPS and session.task is None:
        session.ended = None
    if session.ended and session.task is None:
        return error_result(
            f"refused by the gateway: this session's run stopped ({session.ended}); "
            "open a new session (or send a new request in _meta) to go on"
        )
    return None


class GatewayError(RuntimeError):
    """A gateway that cannot start (an upstream that does not answer, two tools of one name)."""


class ClientModel(BaseChatModel):
    """The "model" of a gateway session's agent: its replies are the client's calls, one at a
    time; before taking the next it hands the previous call's answer back to the client."""

    _session: Session | None = PrivateAttr(default=None)

    @property
    def _llm_type(self) -> str:
        return "mcp-client"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ClientModel:
        return self

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> Any:
        raise RuntimeError("the gateway's agent runs asynchronously only")

    async def _agenerate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        session = self._session
        if session is None:  # an agent built only to read the store (the CLI): never called
            raise RuntimeError("this agent reads gateway threads; the gateway runs them")
        session.ready = True  # parked for the client's next call: kept reads may be folded in
        session.deliver(messages)
        try:
            item = await session.queue.get()
        finally:
            session.ready = False
        # one call, or the kept reads folded in (apps.gateway.fast): one reply, in their order
        calls = item if isinstance(item, list) else [item]
        reply = AIMessage("") if item is _END else AIMessage("", tool_calls=calls)
        return ChatResult(generations=[ChatGeneration(message=reply)])


def _text_of(content: Any) -> list[types.TextContent]:
    if isinstance(content, str):
        return [types.TextContent(type="text", text=content)]
    blocks = []
    for block in content if isinstance(content, list) else [content]:
        if isinstance(block, Mapping) and block.get("type") == "text":
            blocks.append(types.TextContent(type="text", text=str(block.get("text", ""))))
        else:
            blocks.append(types.TextContent(type="text", text=json.dumps(block, default=str)))
    return blocks


def _refusal_text(content: Any) -> str | None:
    """A governance refusal's one line (the middleware's ``{"refused": true, ...}``), else None."""
    try:
        value = json.loads(content) if isinstance(content, str) else None
    except ValueError:
        return None
    if not isinstance(value, dict) or value.get("refused") is not True:
        return None
    return f"refused by the gateway's policy ({value.get('by')}): {value.get('reason')}"


def tool_result(message: ToolMessage, output_schema: Mapping[str, Any] | None) -> types.CallToolResult:
    """The MCP result of a call the agent answered: its content; ``isError`` for a refusal or an
    upstream error; structured content where the tool declares an output schema."""
    error = message.status == "error"
    artifact = message.artifact if isinstance(message.artifact, Mapping) else {}
    # the upstream's own content blocks where the tool kept them: its text as it wrote it
    content = _text_of(artifact["content"] if not error and "content" in artifact else message.content)
    refused = _refusal_text(message.content) if error else None
    if refused:
        content = [types.TextContent(type="text", text=refused), *content]
    structured = None
    if not error and output_schema is not None and isinstance(message.content, str):
        with contextlib.suppress(ValueError):
            loaded = json.loads(message.content)
            structured = loaded if isinstance(loaded, dict) else None
    return types.CallToolResult(content=list(content), is_error=error, structured_content=structured)


def error_result(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


@dataclass
class Session:
    """One client session: its thread, the calls it waits on, the turn running for it."""

    thread_id: str
    queue: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    waiting: dict[str, asyncio.Future[types.CallToolResult]] = field(default_factory=dict)
    schemas: dict[str, Mapping[str, Any] | None] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[Any] | None = None
    request: str | None = None
    ended: str | None = None
    done: dict[str, types.CallToolResult] = field(default_factory=dict)
    agent: Any = None
    #: asks the client's user a question (MCP elicitation) where the client supports it, given the
    #: question and its thread: the answer (``{"type": "approve"}``...), or None when the user did
    #: not answer
    asker: Callable[[Mapping[str, Any], str], Awaitable[dict[str, Any] | None]] | None = None
    #: tells the client something (an MCP log message): that a call waits for a reviewer
    notify: Callable[[str], Awaitable[None]] | None = None
    #: the reads served directly and not yet folded into the thread, in order (apps.gateway.fast)
    reads: list[Read] = field(default_factory=list)
    #: the calls of the turn, each counted as made (``tool``, ``signature``): what the fast path's
    #: checks of budgets and loop limits count (never fewer than the run's)
    turn_calls: list[dict[str, Any]] = field(default_factory=list)
    turn_started: float = 0.0
    #: something of this turn was refused or failed: no fast path until the next turn
    turn_refused: bool = False
    #: the run waits in its model for the next call (a fold is taken at once)
    ready: bool = False
    #: a read is being served directly now
    reading: bool = False
    fold_timer: asyncio.TimerHandle | None = None

    def deliver(self, messages: Sequence[BaseMessage]) -> None:
        """Answer the calls the messages answer (the tool messages after the last call)."""
        for message in reversed(messages):
            if isinstance(message, AIMessage) and message.tool_calls:
                break
            if isinstance(message, ToolMessage) and message.tool_call_id in self.waiting:
                future = self.waiting.pop(message.tool_call_id)
                if not future.done():
                    future.set_result(tool_result(message, self.schemas.get(message.tool_call_id)))


class Gateway:
    """The gateway's state: the upstream tools, the policy, the store, and each session's thread.

    ``tools``: the upstream tools as LangChain tools (:func:`upstream_tool`), ``listed``: the
    upstream's MCP ``Tool`` objects (passed through in ``tools/list``); ``policy``: the policy (a
    tool it does not allow is hidden); ``checkpointer``, ``journal`` and ``store``: where the
    threads, answers and audit are kept; ``ask_timeout``: seconds a call waits for a human before
    the gateway rejects it (None: as long as it takes); ``subject``: whom the sessions act for."""

    def __init__(
        self,
        tools: Sequence[Any],
        listed: Sequence[types.Tool],
        policy: SupervisorPolicy,
        *,
        checkpointer: Any,
        journal: Journal,
        store: Any = None,
        custom_rules: Mapping[str, Any] | None = None,
        subject: Mapping[str, Any] | None = None,
        ask_timeout: float | None = None,
        poll: float = 0.1,
        log: Any = None,
        db: str = "<the gateway's --db>",
        hidden: Mapping[str, Any] | None = None,
        ask_client: bool = False,
        call_timeout: float | None = CALL_TIMEOUT,
        ask_client_callers: Sequence[str] = (),
        upstreams: Any = None,
        state_keys: Sequence[str] = (),
        fast_reads: bool = True,
    ) -> None:
        from apps.gateway.fast import ServedTool, plain_reads, served
        from nodes.middleware import GovernanceMiddleware

        self.policy = policy
        #: the keys that seal a 2026-07-28 question's state (the first seals, every one unseals),
        #: shared by the gateway's replicas on one store (``AGENT_PATTERNS_GATEWAY_STATE_KEY``);
        #: none: a key of this process's own
        self.state_keys = tuple(state_keys)
        #: the upstream servers (:class:`Upstreams`): their resources and prompts, where they offer them
        self.upstreams = upstreams
        #: tools the pins hide (:mod:`apps.gateway.pins`): name → the check that hid it
        self.hidden = dict(hidden or {})
        #: whether a client that supports elicitation may answer the questions about its own calls
        #: (``--ask-client``); off, they go to reviewers out of the agent's reach only
        self.ask_client = ask_client
        #: the authenticated callers (OAuth subjects) whose client's user may answer them
        #: (``--ask-client-caller``), where the tool's rule leaves it to the gateway
        self.ask_client_callers = frozenset(ask_client_callers)
        allowed = set(policy.allowed_tools)
        # all of them (the policy is fitted to them, and denies the rest), each call bounded
        self.call_timeout = call_timeout
        #: the reads served directly and not yet folded, by call id: the arguments they ran with
        #: and the tool's answer, which the tool node gives again when the read is folded
        self.served: dict[str, tuple[Any, ToolMessage]] = {}
        self.tools = [served(timed(t, call_timeout), self.served) for t in structured_results(tools)]
        self.listed = [t for t in listed if t.name in allowed]
        self.schemas = {t.name: t.output_schema for t in self.listed}
        self.side_effects = {n for n, s in policy.tools.items() if s.side_effect}
        self.checkpointer, self.journal, self.store = checkpointer, journal, store
        self.custom_rules = dict(custom_rules or {})
        self.subject = dict(subject or {})
        self.ask_timeout, self.poll = ask_timeout, poll
        self.log = log if log is not None else sys.stderr
        self.db = db
        self.sessions: dict[Any, Session] = {}
        #: the times of each (tool, caller)'s recent calls, for the tools' rate limits
        self._recent: dict[tuple[str, str | None], collections.deque[float]] = {}
        self._blind = without_request(policy)
        #: the tools whose calls take the read fast path (``fast_reads``; apps.gateway.fast), and
        #: the gateway's own checks they pass first (argument schema, budgets, loop limits)
        replayable = [t.name for t in self.tools if isinstance(t, ServedTool)]
        self.fast_reads = plain_reads([policy, self._blind], replayable) if fast_reads else frozenset()
        self._by_name = {t.name: t for t in self.tools}
        self._gatekeeper = (
            GovernanceMiddleware(policy, tools=self.tools, custom_rules=self.custom_rules)
            if self.fast_reads
            else None
        )
        #: the calls waiting for a 2026-07-28 client's answer, by the question's single-use id
        #: (:func:`apps.gateway.server.asked_input`)
        self.pending: dict[str, Any] = {}
        #: the tasks that let go of a question's session once it expired (cancelled on close)
        self.cleanups: set[asyncio.Future[Any]] = set()
        #: the policy's digest: an answer is taken only under the policy its question was asked under
        self.policy_digest = hashlib.sha256(policy.model_dump_json().encode()).hexdigest()[:16]

    def serves_caller(self, tool: str, caller: str | None, roles: Sequence[str] = ()) -> bool:
        """May ``caller`` (signed in, with ``roles``) see and call ``tool``? Its rule's
        ``caller_roles`` says, for a signed-in caller; without authentication every tool the
        policy allows is served."""
        rules = self.policy.rules_for(tool)
        wanted = rules.caller_roles if rules is not None else None
        return caller is None or not wanted or bool(set(wanted) & set(roles))

    def over_rate(self, tool: str, caller: str | None, now: float | None = None) -> float | None:
        """Seconds until ``caller`` may call ``tool`` again, where its rule's ``rate_limit`` is
        spent (a call admitted here counts); None: the call is admitted. Counted per signed-in
        caller, else for all clients together, in this process."""
        rules = self.policy.rules_for(tool)
        limit = rules.rate_limit if rules is not None else None
        if limit is None:
            return None
        now = time.monotonic() if now is None else now
        recent = self._recent.setdefault((tool, caller), collections.deque())
        while recent and recent[0] <= now - limit.seconds:
            recent.popleft()
        if len(recent) >= limit.calls:
            return max(0.0, recent[0] + limit.seconds - now)
        recent.append(now)
        return None

    def offered(self, what: str, caller: str | None = None, roles: Sequence[str] = ()) -> list[Any]:
        """The upstreams' ``resources``, ``templates`` or ``prompts`` this caller is served: none
        where the policy hides the gateway's tool that reads them, or the caller's roles lack it."""
        from apps.gateway.content import PROMPT_TOOL, RESOURCE_TOOL

        tool = PROMPT_TOOL if what == "prompts" else RESOURCE_TOOL
        return list(getattr(self.upstreams, what)) if self.serves_content(tool, caller, roles) else []

    def serves_content(self, tool: str, caller: str | None = None, roles: Sequence[str] = ()) -> bool:
        """Does the gateway read upstream resources or prompts (its own read ``tool``) for this
        caller: an upstream offers them, the policy allows the tool and the caller's roles do?"""
        return (
            self.upstreams is not None
            and tool in self.policy.allowed_tools
            and self.serves_caller(tool, caller, roles)
        )

    def shared_over_rate(self, tool: str, caller: str | None, now: float | None = None) -> float | None:
        """The rate limit of ``tool`` counted across every gateway process on the store (the
        journal): seconds until ``caller`` may call it again where its ``calls`` are spent in the
        current window of ``seconds`` (a fixed window: one slot per call, claimed once across the
        replicas), None where this call took a slot. Blocking: call it off the event loop."""
        rules = self.policy.rules_for(tool)
        limit = rules.rate_limit if rules is not None else None
        if limit is None or self.journal is None:
            return None
        now = time.time() if now is None else now
        window = int(now // limit.seconds)
        thread = f"{RATES_THREAD}:{tool}:{caller or ''}"
        for slot in range(limit.calls):
            _, created = self.journal.answer(thread, f"{window}:{slot}", {"at": now})
            if created:
                if slot == 0:  # a new window: the slots of those before are of no use any more
                    for old in self.journal.answers(thread):
                        if str(old.get("ask", "")).split(":")[0] != str(window):
                            self.journal.forget_answer(thread, str(old.get("ask")))
                return None
        return max(0.0, (window + 1) * limit.seconds - now)

    def client_may_answer(self, tool: str, caller: str | None = None) -> bool:
        """May the calling client's user answer the questions about calls of ``tool`` (MCP
        elicitation)? The tool's rule says (``ToolRules.client_answers``), else ``--ask-client``
        (every client), else whether the authenticated ``caller`` is one ``--ask-client-caller``
        names."""
        rules = self.policy.rules_for(tool)
        chosen = rules.client_answers if rules is not None else None
        if chosen is not None:
            return chosen
        return self.ask_client or (caller is not None and caller in self.ask_client_callers)

    # ------------------------------------------------------------------ sessions

    def session_for(self, key: Any) -> Session:
        """The session of an MCP connection (one thread each), or of a conversation the client
        names (``("conversation", id)``: its thread's id is the name's digest, the same in every
        gateway process on the store)."""
        if key not in self.sessions:
            if isinstance(key, tuple) and key[:1] == ("conversation",):
                named = str(key[1]) if len(key) == 2 else "\x1f".join(map(str, key[1:]))
                digest = hashlib.sha256(named.encode()).hexdigest()[:16]
                self.sessions[key] = Session(thread_id=f"mcp-conv-{digest}")
            else:
                self.sessions[key] = Session(thread_id=f"mcp-{uuid.uuid4().hex[:12]}")
        return self.sessions[key]

    def detach(self, key: Any, held: Any) -> None:
        """Keep the session of ``key`` under ``held`` (a call waiting for its client's answer outlives
        its connection); a conversation's session stays where it is (its client names it)."""
        if isinstance(key, tuple) and key[:1] == ("conversation",):
            return
        session = self.sessions.pop(key, None)
        if session is not None:
            self.sessions[held] = session

    def config(self, session: Session) -> dict[str, Any]:
        return {"configurable": {"thread_id": session.thread_id}, "recursion_limit": 10_000}

    def _agent(self, session: Session, model: ClientModel) -> Any:
        policy = self.policy if session.request is not None else self._blind
        return build_agent(
            model=model,
            tools=self.tools,
            policy=policy,
            checkpointer=self.checkpointer,
            store=self.store,
            journal=self.journal,
            custom_rules=self.custom_rules,
        )

    def _start_turn(self, session: Session) -> None:
        model = ClientModel()
        model._session = session
        session.queue = asyncio.Queue()
        agent = self._agent(session, model)
        session.agent = agent
        turn: dict[str, Any] = {"messages": [HumanMessage(session.request or NO_REQUEST)]}
        if self.subject:
            turn["governance_subject"] = self.subject
        session.ended = None
        session.done = {}
        session.turn_calls, session.turn_started, session.turn_refused = [], time.monotonic(), False
        session.task = asyncio.create_task(agent.ainvoke(turn, self.config(session)))

    async def _end_turn(self, session: Session) -> None:
        await self._fold(session)
        if session.task is not None and not session.task.done():
            await session.queue.put(_END)
            with contextlib.suppress(Exception):  # a run that failed said so to the call it failed
                await session.task
        session.task = None

    async def close(self) -> None:
        """End every session's turn (the runs end as an agent's turn ends)."""
        for session in list(self.sessions.values()):
            await self._settle(session)
        for cleanup in self.cleanups:
            cleanup.cancel()
        for session in list(self.sessions.values()):
            await self._end_turn(session)

    async def forget(self, key: Any) -> None:
        """A client session ended: its turn ends. A question its run still waits on is rejected as
        the system (``system:client-left``), unless someone answered first (the first answer
        wins: a reviewer's approval still runs the call), so that it does not wait in
        ``agent-patterns waiting`` for a client that is gone. A conversation's question (a key
        the client names) keeps waiting: the client may come back for it."""
        session = self.sessions.pop(key, None)
        if session is None:
            return
        await self._settle(session)
        if not (isinstance(key, tuple) and key[:1] == ("conversation",)):
            with contextlib.suppress(Exception):  # a run that cannot be read back has nothing waiting
                await self._withdraw(session)
        await self._end_turn(session)

    async def _withdraw(self, session: Session) -> None:
        from policies.human import agent_answer

        if session.agent is None or (session.task is not None and not session.task.done()):
            return
        snapshot = await session.agent.aget_state(self.config(session))
        if not snapshot.interrupts:
            return
        question = snapshot.interrupts[0].value
        left = {
            "type": "reject",
            "message": "the client left before anyone answered",
            "reviewer": CLIENT_LEFT_REVIEWER,
        }
        given = {"decisions": [left]}
        answer = await _off_loop(first_answer, self.journal, session.thread_id, ask_key(question), given)
        decisions = answer.get("decisions") if isinstance(answer, Mapping) else None
        first = decisions[0] if isinstance(decisions, list) and decisions else {}
        by = first.get("reviewer", "a reviewer") if isinstance(first, Mapping) else "a reviewer"
        print(
            f"gateway: {session.thread_id}: the client left; its question is answered ({by})",
            file=self.log,
            flush=True,
        )
        session.queue = asyncio.Queue()
        session.task = asyncio.create_task(
            session.agent.ainvoke(Command(resume=agent_answer(answer, snapshot)), self.config(session))
        )

    # ------------------------------------------------------------------ calls

    async def call(
        self,
        key: Any,
        name: str,
        args: Mapping[str, Any] | None,
        meta: Mapping[str, Any] | None = None,
        asker: Any = None,
        notify: Callable[[str], Awaitable[None]] | None = None,
        caller: str | None = None,
    ) -> types.CallToolResult:
        """One ``tools/call`` of the session ``key``: reviewed, and forwarded, refused or asked. A
        call the client names (``_meta["agent-patterns/call_id"]``) is made once in the journal,
        whichever session retries it (after a reconnection, say): a retry gets the first answer.
        ``caller``: the authenticated caller (OAuth subject); its conversations and call ids are
        its own (another caller naming the same ones names others)."""
        conversation = (meta or {}).get(CONVERSATION_META)
        if isinstance(conversation, str) and conversation.strip():
            # its thread, whichever session it comes in; the caller's own where one is signed in
            named_by = (caller,) if caller is not None else ()
            key = ("conversation", conversation.strip(), *named_by)
        if name in self.hidden:
            changed = ", ".join(getattr(self.hidden[name], "changed", ())) or "its definition"
            return error_result(
                f"refused by the gateway: the tool {name!r} changed since it was pinned ({changed}): "
                f"not run until an operator approves it (agent-patterns gateway pins --approve {name})"
            )
        wait = self.over_rate(name, caller)
        rules = self.policy.rules_for(name)
        limited = rules is not None and rules.rate_limit is not None
        if wait is None and limited:  # this process's window admits it: and the replicas' on the store?
            wait = await _off_loop(self.shared_over_rate, name, caller)
            recent = self._recent.get((name, caller))
            if wait is not None and recent:
                recent.pop()  # refused: not counted here either
        if wait is not None:
            limit = rules.rate_limit if rules is not None else None
            assert limit is not None  # over_rate found one
            whose = "this caller's" if caller is not None else "the gateway's"
            return error_result(
                f"refused by the gateway: rate limit: {whose} {limit.calls} call(s) of {name} in "
                f"{limit.seconds:g} s are spent; try again in {wait:.0f} s: not run"
            )
        given = (meta or {}).get(CALL_ID_META)
        self.session_for(key).notify = notify
        if not isinstance(given, str) or not given:
            return await self._call(key, name, args, meta, asker)
        digest = call_digest(name, args)
        # a conversation's call ids are its own: the same id in another conversation is another call
        named = isinstance(key, tuple) and key[:1] == ("conversation",)
        stored = f"{key[1]}\x1f{given}" if named else given
        if caller is not None:  # a caller's call ids are its own: another's result is never returned
            stored = f"caller:{caller}\x1e{stored}"
        claim = await _off_loop(
            self.journal.begin,
            CALLS_THREAD,
            stored,
            {"tool": name, "args": dict(args or {}), "digest": digest},
        )
        if not claim.created:
            if (
                claim.effect.get("digest", call_digest(claim.effect.get("tool"), claim.effect.get("args")))
                != digest
            ):
                return error_result(
                    f"refused by the gateway: the call id {given!r} names another call (a call id is "
                    "for retrying the same tool with the same arguments): not run, and nothing of "
                    "that call is returned"
                )
            return await self._first_answer(stored, given)
        try:
            result = await self._call(key, name, args, meta, asker)
        except BaseException:
            await _off_loop(self.journal.finish, CALLS_THREAD, stored, NOT_RUN, {"result": None})
            raise
        await _off_loop(
            self.journal.finish,
            CALLS_THREAD,
            stored,
            DONE,
            {"result": result.model_dump(mode="json", by_alias=True, exclude_none=True)},
        )
        return result

    async def _first_answer(self, stored: str, call_id: str) -> types.CallToolResult:
        """The answer of the call ``call_id`` (kept as ``stored``) made before (waiting while it is
        being made)."""
        while True:
            found = await _off_loop(self.journal.get, CALLS_THREAD, stored) or {}
            if found.get("status") == DONE:
                return types.CallToolResult.model_validate((found.get("outcome") or {}).get("result"))
            if found.get("status") != STARTED or process_alive(found) is False:
                return error_result(
                    f"refused by the gateway: the call {call_id!r} was started before and did not end: "
                    "not made again (check the system it acts on)"
                )
            await asyncio.sleep(self.poll)

    async def _call(
        self, key: Any, name: str, args: Mapping[str, Any] | None, meta: Mapping[str, Any] | None, asker: Any
    ) -> types.CallToolResult:
        session = self.session_for(key)
        session.asker = asker
        meta = dict(meta or {})
        async with session.lock:
            request = meta.get(REQUEST_META)
            if isinstance(request, str) and request.strip() and request != session.request:
                await self._end_turn(session)
                session.request = request
            stopped = _stopped(session)
            if stopped is not None:
                return stopped
            signature = json.dumps([name, args or {}, meta.get(CALL_ID_META)], sort_keys=True, default=str)
            if name in self.side_effects and signature in session.done:
                return session.done[signature]  # a client's retry of a side effect: not run again
            action = self._fast(session, name, args)
            if action is not None:
                served = await self._read_directly(session, name, args, action)
                if served is not None:
                    return served
            await self._fold(session)  # the reads served before it, in the thread first
            stopped = _stopped(session)
            if stopped is not None:
                return stopped
            if session.task is None or session.task.done():
                self._start_turn(session)
            session.turn_calls.append({"tool": name, "signature": call_signature(name, dict(args or {}))})
            call_id = f"mcp-{uuid.uuid4().hex[:12]}"
            future: asyncio.Future[types.CallToolResult] = asyncio.get_running_loop().create_future()
            session.waiting[call_id] = future
            session.schemas[call_id] = self.schemas.get(name) or content_schema(name)
            await session.queue.put(
                {"name": name, "args": dict(args or {}), "id": call_id, "type": "tool_call"}
            )
            result = await self._answered(session, future)
            if name in self.side_effects and not result.is_error:
                session.done[signature] = result
            if result.is_error:  # refused (or failed): the rest of the turn is reviewed step by step
                session.turn_refused = True
            return result

    # ------------------------------------------------------------------ the read fast path

    def _fast(self, session: Session, name: str, args: Mapping[str, Any] | None) -> dict[str, Any] | None:
        """The validated action of a call that takes the read fast path (apps.gateway.fast), else
        None: a tool whose rules can only approve, in a turn whose run waits for the next call, in
        which nothing was refused, far from its step and time budgets, and that the gateway's own
        checks (schema, budgets, loop limits) pass after every call of the turn."""
        if name not in self.fast_reads or session.turn_refused or not session.ready:
            return None
        if session.task is None or session.task.done():
            return None
        policy = self.policy if session.request is not None else self._blind
        if len(session.turn_calls) + 2 >= policy.max_steps:
            return None
        margin = min(SECONDS_MARGIN, policy.max_seconds / 2)
        if time.monotonic() - session.turn_started >= policy.max_seconds - margin:
            return None
        assert self._gatekeeper is not None  # built wherever a tool takes the fast path
        return self._gatekeeper.gate_passes({"name": name, "args": dict(args or {})}, session.turn_calls)

    async def _read_directly(
        self, session: Session, name: str, args: Mapping[str, Any] | None, action: Mapping[str, Any]
    ) -> types.CallToolResult | None:
        """The read forwarded to its upstream at once, its answer kept on the session to be folded
        into the thread (:meth:`_fold`); None where the tool gave no answer to keep (it raised):
        the call then goes through the agent."""
        from nodes.middleware.outcome import well_formed_answer

        call_id = f"mcp-{uuid.uuid4().hex[:12]}"
        ran = dict(action["args"])
        session.reading = True
        try:
            answer = await answer_now(self._by_name[name], ran, call_id)
        except Exception:
            return None
        finally:
            session.reading = False
        message = well_formed_answer(answer)
        if not isinstance(message, ToolMessage):
            return None
        result = tool_result(message, self.schemas.get(name) or content_schema(name))
        call = {"name": name, "args": dict(args or {}), "id": call_id, "type": "tool_call"}
        self.served[call_id] = (ran, message)
        session.reads.append(Read(call, message, result))
        session.turn_calls.append({"tool": name, "signature": action["signature"]})
        if len(session.reads) >= FOLD_MAX:
            await self._fold(session)
        elif session.fold_timer is None:
            loop = asyncio.get_running_loop()
            session.fold_timer = loop.call_later(FOLD_AFTER, self._fold_soon, session)
        return result

    def _fold_soon(self, session: Session) -> None:
        session.fold_timer = None
        task = asyncio.ensure_future(self._settle(session))
        self.cleanups.add(task)
        task.add_done_callback(self.cleanups.discard)

    async def _settle(self, session: Session) -> None:
        """The session's kept reads folded into its thread, once the call now holding the session
        (a read being served, a fold) lets go of it."""
        if session.reads or session.reading:
            async with session.lock:
                await self._fold(session)

    async def _fold(self, session: Session) -> None:
        """The session's kept reads into its thread, in order: its run's model proposes them (one
        reply), the middleware reviews them and its tool node answers each with the answer the
        client got (:class:`apps.gateway.fast.ServedTool`), so the thread's rows, its provenance
        and the audit hold them as agent steps would. Called with the session's lock held."""
        if session.fold_timer is not None:
            session.fold_timer.cancel()
            session.fold_timer = None
        reads, session.reads = session.reads, []
        if not reads:
            return
        if session.task is None or session.task.done():  # never: a run ends only after a fold
            for read in reads:
                self.served.pop(read.call["id"], None)
            print(
                f"gateway: {session.thread_id}: {len(reads)} read(s) served directly could not be "
                "folded into the thread (its run had ended): not in its audit",
                file=self.log,
                flush=True,
            )
            return
        loop = asyncio.get_running_loop()
        futures = []
        for read in reads:
            future: asyncio.Future[types.CallToolResult] = loop.create_future()
            session.waiting[read.call["id"]] = future
            session.schemas[read.call["id"]] = self.schemas.get(read.call["name"]) or content_schema(
                read.call["name"]
            )
            futures.append(future)
        await session.queue.put([read.call for read in reads])
        for read, future in zip(reads, futures, strict=True):
            if not future.done() and session.task is not None:
                await self._answered(session, future)
            session.waiting.pop(read.call["id"], None)
            self.served.pop(read.call["id"], None)
            folded = future.result() if future.done() else None
            if folded != read.result:  # the review answered otherwise than the fast path served
                session.turn_refused = True
                print(
                    f"gateway: {session.thread_id}: the read {read.call['name']} ({read.call['id']}) "
                    f"served directly was answered otherwise in the thread: {folded}",
                    file=self.log,
                    flush=True,
                )

    async def _answered(self, session: Session, future: asyncio.Future[types.CallToolResult]) -> Any:
        while not future.done():
            task = session.task
            assert task is not None
            await asyncio.wait({future, task}, return_when=asyncio.FIRST_COMPLETED)
            if future.done():
                break
            try:
                out = task.result()
            except Exception as exc:  # an upstream that broke mid-call: said, the session goes on
                session.task = None
                session.ended = f"error: {type(exc).__name__}: {exc}"
                future.set_result(error_result(f"the gateway's run failed: {type(exc).__name__}: {exc}"))
                break
            if out.get("__interrupt__"):
                answer = await self._human(session, out["__interrupt__"][0].value)
                agent = session.agent
                session.task = asyncio.create_task(
                    agent.ainvoke(Command(resume=answer), self.config(session))
                )
                continue
            session.deliver(out.get("messages") or [])
            reason = out.get("governance_stop_reason") or "turn_ended"
            session.ended, session.task = reason, None
            if not future.done():
                future.set_result(
                    error_result(f"refused by the gateway: the session's run stopped ({reason})")
                )
        return future.result()

    async def _human(self, session: Session, question: Mapping[str, Any]) -> Any:
        """The answer to a question the session's run waits on: the first one given — in the
        journal (``agent-patterns approve``/``reject`` from another shell), or by the client's user
        through MCP elicitation where the client supports it (``session.asker``) — or a rejection
        once ``ask_timeout`` passes. Whichever comes first is kept as the first answer."""
        from policies.human import agent_answer

        thread, asked = session.thread_id, ask_key(question)
        print(
            f"gateway: {session.thread_id} waits for a human ({question.get('reason')}): "
            f"agent-patterns approve|reject {session.thread_id} --db {self.db}",
            file=self.log,
            flush=True,
        )
        asking: asyncio.Future[dict[str, Any] | None] | None = None
        if session.asker is not None:
            asking = asyncio.ensure_future(session.asker(question, thread))
        elif session.notify is not None:  # the client is told its call waits, and for whom
            await session.notify(
                f"the call waits for a reviewer ({question.get('reason')}): "
                f"agent-patterns approve|reject {session.thread_id} --db {self.db}"
            )
        started = time.monotonic()
        try:
            while True:
                found = [a for a in await _off_loop(self.journal.answers, thread) if a.get("ask") == asked]
                if found:
                    answer = found[0].get("answer")
                    break
                if asking is not None and asking.done():
                    given = None if asking.cancelled() or asking.exception() else asking.result()
                    asking = None
                    if given is not None:  # the client's user answered: the first answer, unless one was
                        answer = await _off_loop(
                            first_answer, self.journal, thread, asked, {"decisions": [given]}
                        )
                        break
                if self.ask_timeout is not None and time.monotonic() - started > self.ask_timeout:
                    late = {  # the system's rejection: it needs no reviewer's role (reviewers.by_system)
                        "type": "reject",
                        "message": f"no answer within {self.ask_timeout:g} s",
                        "reviewer": ASK_TIMEOUT_REVIEWER,
                    }
                    answer = await _off_loop(first_answer, self.journal, thread, asked, {"decisions": [late]})
                    break
                await asyncio.sleep(self.poll)
        finally:
            if asking is not None:
                asking.cancel()
        snapshot = await session.agent.aget_state(self.config(session))
        return agent_answer(answer, snapshot)


def build_agent(
    *,
    model: BaseChatModel | None = None,
    tools: Sequence[Any] = (),
    policy: SupervisorPolicy | None = None,
    checkpointer: Any = None,
    store: Any = None,
    journal: Journal | None = None,
    custom_rules: Mapping[str, Any] | None = None,
) -> Any:
    """A gateway session's agent; without ``tools``, the one the CLI reads gateway threads with
    (its model is never called: the gateway carries a thread on once a human answered)."""
    from langchain.agents import create_agent

    from graphs.compile import delta_channels_enabled
    from nodes.middleware import GovernanceDeltaState, GovernanceMiddleware, GovernanceState

    policy = policy if policy is not None else SupervisorPolicy()
    governance = GovernanceMiddleware(policy, tools=list(tools), custom_rules=custom_rules, journal=journal)
    agent = create_agent(
        model if model is not None else ClientModel(),
        list(tools),
        middleware=[governance],
        checkpointer=checkpointer,
        store=store,
        # the session's conversation and rows as delta channels, as the patterns keep theirs: a
        # checkpoint stores what a call added, not the whole session again
        state_schema=GovernanceDeltaState if delta_channels_enabled() else GovernanceState,
    )
    return agent.with_config({"metadata": {"agent": AGENT_NAME}})


# ---------------------------------------------------------------------- upstream servers


@dataclass(frozen=True)
class Upstream:
    """One upstream MCP server: a command (stdio) or a streamable HTTP URL."""

    name: str
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] | None = None
    url: str | None = None


def upstreams_from_config(config: Mapping[str, Any]) -> list[Upstream]:
    """The upstream servers of a configuration in the desktop clients' shape: ``{"mcpServers":
    {name: {"command": ..., "args": [...], "env": {...}} | {"url": ...}}}``."""
    servers = config.get("mcpServers", config.get("upstreams"))
    if not isinstance(servers, Mapping) or not servers:
        raise GatewayError('the configuration names no upstream server: {"mcpServers": {"name": {...}}}')
    found = []
    for name, given in servers.items():
        if not isinstance(given, Mapping) or not (given.get("command") or given.get("url")):
            raise GatewayError(f"upstream {name!r}: give a command (and args) or a url")
        found.append(
            Upstream(
                str(name),
                command=given.get("command"),
                args=tuple(str(a) for a in given.get("args") or ()),
                env=dict(given["env"]) if isinstance(given.get("env"), Mapping) else None,
                url=given.get("url"),
            )
        )
    return found


def _definition(tool: types.Tool) -> str:
    """What a listed tool says of itself (name, description, schemas, annotations), canonical."""
    said = tool.model_dump(
        mode="json",
        by_alias=True,
        include={"name", "description", "input_schema", "output_schema", "annotations"},
    )
    return json.dumps(said, sort_keys=True, default=str)


class Connection:
    """One upstream server's live session, held open by a task of its own (the MCP client's
    contexts are entered and left in one task), until :meth:`close`."""

    def __init__(self, upstream: Upstream) -> None:
        self.upstream = upstream
        self.tools: dict[str, Any] = {}
        self.listed: list[types.Tool] = []
        #: the upstream's resources, resource templates and prompts (where it offers them)
        self.resources: list[types.Resource] = []
        self.templates: list[types.ResourceTemplate] = []
        self.prompts: list[types.Prompt] = []
        self.client: Any = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._error: BaseException | None = None
        self._task: asyncio.Task[None] | None = None

    async def open(self) -> Connection:
        """Connected, its tools listed; :class:`GatewayError` when the upstream does not start."""
        self._task = asyncio.create_task(self._hold())
        await self._ready.wait()
        if self._error is not None:
            where = self.upstream.url or " ".join([str(self.upstream.command), *self.upstream.args])
            error = self._error
            raise GatewayError(
                f"upstream {self.upstream.name!r} ({where}) did not start: {type(error).__name__}: {error}"
            )
        return self

    async def _hold(self) -> None:
        import os

        from mcp import Client, StdioServerParameters

        upstream = self.upstream
        try:
            if upstream.url:
                target: Any = upstream.url
            else:
                env = {**os.environ, **(upstream.env or {})}
                target = StdioServerParameters(
                    command=str(upstream.command), args=list(upstream.args), env=env
                )
            # the protocol the upstream speaks: 2026-07-28 where it does, else the handshake's
            client = Client(target, mode="auto")
            async with contextlib.AsyncExitStack() as stack:
                await asyncio.wait_for(stack.enter_async_context(client), START_TIMEOUT)
                self.listed = await listed_tools(client)
                self.tools = {t.name: upstream_tool(t, client) for t in self.listed}
                self.client = client
                self.resources, self.templates, self.prompts = await offered(client)
                self._ready.set()
                await self._stop.wait()
        except Exception as exc:  # a command that does not exist, a server that exits or never answers
            self._error = exc
        finally:
            self._ready.set()

    async def close(self) -> None:
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task


async def listed_tools(client: Any) -> list[types.Tool]:
    """Every tool an MCP client's server lists (all its pages)."""
    listed: list[types.Tool] = []
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        listed += page.tools
        cursor = page.next_cursor
        if not cursor:
            return listed


async def offered(client: Any) -> tuple[list[Any], list[Any], list[Any]]:
    """The resources, resource templates and prompts an upstream offers (none where its
    capabilities do not say it has them; every page)."""
    capabilities = client.server_capabilities
    resources: list[Any] = []
    templates: list[Any] = []
    prompts: list[Any] = []
    if getattr(capabilities, "resources", None) is not None:
        resources = await _pages(client.list_resources, "resources")
        templates = await _pages(client.list_resource_templates, "resource_templates")
    if getattr(capabilities, "prompts", None) is not None:
        prompts = await _pages(client.list_prompts, "prompts")
    return resources, templates, prompts


async def _pages(listing: Callable[..., Awaitable[Any]], field: str) -> list[Any]:
    found: list[Any] = []
    cursor: str | None = None
    while True:
        page = await listing(cursor=cursor)
        found += getattr(page, field)
        cursor = page.next_cursor
        if not cursor:
            return found


def upstream_tool(tool: types.Tool, client: Any) -> Any:
    """An upstream MCP tool as a LangChain tool calling it through ``client`` (the MCP SDK's):
    its result's content blocks as the upstream wrote them and, as the artifact, its structured
    content; an ``isError`` result is a :class:`~langchain_core.tools.ToolException` carrying the
    upstream's own blocks (``tool_content``), which the tool message then holds."""
    from langchain_core.tools import StructuredTool, ToolException

    name = tool.name

    async def call(**arguments: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        result = await client.call_tool(name, arguments)
        blocks = [block.model_dump(mode="json", by_alias=True, exclude_none=True) for block in result.content]
        if result.is_error:
            error = ToolException(" ".join(b.get("text", "") for b in blocks if b.get("type") == "text"))
            error.tool_content = blocks  # type: ignore[attr-defined]
            raise error
        return blocks, {"structured_content": result.structured_content}

    def handled(error: ToolException) -> Any:
        return getattr(error, "tool_content", None) or str(error)

    annotations = tool.annotations.model_dump(exclude_none=True) if tool.annotations else {}
    return StructuredTool(
        name=name,
        description=tool.description or "",
        args_schema=dict(tool.input_schema),
        coroutine=call,
        metadata={"mcp": {"tool": {"annotations": annotations}}},
        handle_tool_error=handled,
        response_format="content_and_artifact",
    )


def broken_connection(error: BaseException) -> bool:
    """Did a call fail because its upstream's connection broke (the server exited), rather than by
    an error the upstream or the protocol gave?"""
    import anyio
    from mcp.shared.exceptions import MCPError

    if isinstance(error, anyio.ClosedResourceError | anyio.BrokenResourceError | anyio.EndOfStream):
        return True
    return isinstance(error, MCPError) and error.code == types.CONNECTION_CLOSED


class Upstreams:
    """The upstream servers' live connections. A call whose connection broke (an upstream that
    exited) starts the upstream again, once per break: the call itself is not made again (it may
    have run), the calls after it go to the new session. A tool the restarted upstream lists with
    another definition than the one the gateway started with (a rug pull on restart) is not
    served by it: its calls fail until the gateway is restarted and its pin reviewed."""

    def __init__(self, upstreams: Sequence[Upstream]) -> None:
        self.upstreams = list(upstreams)
        self.live: dict[str, Connection] = {}
        self.owner: dict[str, str] = {}
        self.pinned: dict[str, str] = {}
        self.restarts: dict[str, int] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        #: what :meth:`open` found: the tools (LangChain), and the MCP ``Tool`` objects to list
        self.tools: list[Any] = []
        self.listed: list[types.Tool] = []
        #: the pinned names (:func:`content_pin_name`) of the resources, templates and prompts whose
        #: definition changed since it was pinned: not served until an operator approves it
        self.hidden_content: set[str] = set()

    @property
    def resources(self) -> list[types.Resource]:
        return [r for c in self.live.values() for r in c.resources if self._served(r)]

    @property
    def templates(self) -> list[types.ResourceTemplate]:
        return [t for c in self.live.values() for t in c.templates if self._served(t)]

    @property
    def prompts(self) -> list[types.Prompt]:
        return [p for c in self.live.values() for p in c.prompts if self._served(p)]

    def offers(self, what: str) -> bool:
        """Does some upstream offer ``resources`` (or templates) or ``prompts`` at all (hidden
        ones included: the gateway still answers the method, with what it serves)?"""
        if what == "prompts":
            return any(c.prompts for c in self.live.values())
        return any(c.resources or c.templates for c in self.live.values())

    def _served(self, offered: Any) -> bool:
        from apps.gateway.content import content_pin_name

        return content_pin_name(offered) not in self.hidden_content

    def content_forms(self) -> list[dict[str, Any]]:
        """Every resource, template and prompt the upstreams offer, in the form its pin covers
        (:func:`content_pin_form`)."""
        from apps.gateway.content import content_pin_form

        every = [x for c in self.live.values() for x in (*c.resources, *c.templates, *c.prompts)]
        return [content_pin_form(x) for x in every]

    def offering(self, *, uri: str | None = None, prompt: str | None = None) -> tuple[Any, Any] | None:
        """The live client of the upstream that offers the resource ``uri`` (one it listed, else
        the template whose fixed start the URI begins with) or the prompt ``prompt``, and what it
        offers (the ``Resource``, ``ResourceTemplate`` or ``Prompt``); None: no upstream does."""
        for connection in self.live.values():
            named = [p for p in connection.prompts if prompt is not None and p.name == prompt]
            listed = [r for r in connection.resources if uri is not None and str(r.uri) == uri]
            if named or listed:
                return connection.client, [*named, *listed][0]
        for connection in self.live.values():
            for template in connection.templates if uri is not None else ():
                fixed = template.uri_template.split("{", 1)[0]
                if fixed and str(uri).startswith(fixed):
                    return connection.client, template
        return None

    async def open(self) -> tuple[list[Any], list[types.Tool]]:
        tools: list[Any] = []
        listed: list[types.Tool] = []
        for upstream in self.upstreams:
            connection = await Connection(upstream).open()
            self.live[upstream.name] = connection
            self._locks[upstream.name] = asyncio.Lock()
            for tool in connection.listed:
                if tool.name in self.owner:
                    raise GatewayError(
                        f"two upstream servers have a tool named {tool.name!r} "
                        f"({self.owner[tool.name]}, {upstream.name})"
                    )
                self.owner[tool.name] = upstream.name
                self.pinned[tool.name] = _definition(tool)
            listed += connection.listed
            tools += [self._relay(template) for template in connection.tools.values()]
        if self.offers("resources") or self.offers("prompts"):
            from apps.gateway.content import content_tools

            tools += content_tools(self)
        self.tools, self.listed = tools, listed
        return tools, listed

    async def close(self) -> None:
        for connection in self.live.values():
            await connection.close()

    def _relay(self, template: Any) -> Any:
        """``template`` (a tool of the first session) calling whichever session is live now."""
        from langchain_core.tools import ToolException

        name = str(template.name)

        async def call(**arguments: Any) -> Any:
            upstream = self.owner[name]
            connection = self.live[upstream]
            tool = connection.tools.get(name)
            if tool is None:
                raise ToolException(
                    f"the upstream of {name} was started again and lists it otherwise than when the "
                    "gateway started: not served until the gateway is restarted (agent-patterns gateway pins)"
                )
            try:
                return await tool.coroutine(**arguments)
            except Exception as exc:
                if not broken_connection(exc):  # the upstream's own error, or a protocol error: as said
                    raise
                started = await self._restart(upstream, connection)
                again = (
                    "the gateway started it again"
                    if started is True
                    else f"it did not start again: {started}"
                )
                raise ToolException(
                    f"the upstream of {name} exited ({type(exc).__name__}: {exc or 'connection closed'}); "
                    f"{again}: this call may not have run, and is not made again"
                ) from None

        return calling(template, call)

    async def _restart(self, upstream: str, broken: Connection) -> Any:
        """Start ``upstream`` again unless a call before this one did (True: it runs; else why not)."""
        async with self._locks[upstream]:
            if self.live[upstream] is not broken:
                return True
            await broken.close()
            try:
                fresh = await Connection(broken.upstream).open()
            except GatewayError as exc:
                return str(exc)
            same = {t.name for t in fresh.listed if self.pinned.get(t.name) == _definition(t)}
            fresh.tools = {n: t for n, t in fresh.tools.items() if n in same}
            self.live[upstream] = fresh
            self.restarts[upstream] = self.restarts.get(upstream, 0) + 1
            return True


@contextlib.asynccontextmanager
async def connected(upstreams: Sequence[Upstream]) -> AsyncIterator[Upstreams]:
    """Sessions with every upstream server (:class:`Upstreams`: their tools as LangChain tools,
    ``tools``, and the MCP ``Tool`` objects to list, ``listed``; their resources and prompts), an
    upstream that exits started again. Two tools of one name are a :class:`GatewayError`."""
    pool = Upstreams(upstreams)
    try:
        await pool.open()
        yield pool
    finally:
        await pool.close()


def hints(tools: Sequence[Any], listed: Sequence[types.Tool]) -> dict[str, dict[str, Any]]:
    """The upstream tools' MCP hints, output schemas included."""
    return mcp_hints(tools, output_schemas=listed)
