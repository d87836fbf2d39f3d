"""Supervisor: a worker proposes each action, a supervisor policy reviews it, a human approves escalations.

    start → worker → validate_action → review
        ├─ approve  → execute (tool) → worker …   |   finalize (final answer)
        ├─ revise   → revise_action → review (a revised action is reviewed again)
        ├─ escalate → escalate → human_approval (interrupt, or the automatic approver) → execute
        │             human_approval → escalate again (answered after it expired, on_expired: ask_again)
        └─ block    → refuse → worker (on_refusal: feedback)   |   end (stop: supervisor_block:<reason>)
Arguments refused at validate_action, a human's rejection and a call the gateway denies take the
same way: ``refuse`` records the refusal and the worker proposes its next action. Every gateway
node can end the run instead, with a named ``stop_reason``.

The worker speaks the model's native tool calling when the model implements ``bind_tools`` (else
JSON actions in text; the policy's ``worker_protocol`` decides). A reply with several tool calls
is taken one call at a time: ``worker`` hands the next call to the gateway without asking the model
again, until the reply is done or one of its calls is refused (the rest are then not run).
"""

from collections.abc import Mapping
from functools import partial
from typing import Annotated, Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore

from demo_tools.supervisor import BillingDesk, demo_tools
from graphs.compile import Durability, add_chain, compile_pattern, pattern_builder
from nodes import supervisor as n
from nodes.audit import RowChannels
from nodes.journal import Journal
from nodes.llm_json import llm_node, supports_tool_calling
from nodes.model import get_chat_model, model_label
from nodes.state import ChatInput, RunState
from nodes.store import journal_for, journal_from_env, ledger_from_env
from nodes.supervisor import approval
from nodes.supervisor.worker import worker
from nodes.tool_gateway import ToolsArg, tool_registry
from nodes.trace import is_stopped
from policies.supervisor import CustomRule, SupervisorPolicy, cedar_problems, demo_policy, policy_problems
from policies.supervisor.reading.words import RequestReader, reads_blocking

#: Refunds and emails change the world: each step's checkpoint is written before the next step
#: starts, so an approval or an executed tool call is never lost to a crash (the ledger's
#: idempotency keys absorb the one call a crash can repeat).
DURABILITY: Durability = "sync"
#: A run's audit rows: with a store, each node writes the rows it adds to the thread's audit log
#: (``nodes.audit``), so every run's rows stay readable while state keeps only the current run's.
AUDIT_ROWS = RowChannels(
    appended=("trace", "history"), whole=("calls", "refusals", "grants"), engine="supervisor"
)


class SupervisorInput(ChatInput, total=False):
    goal: str
    #: Whom the run acts for (e.g. ``{"user_id": 42}``): arguments a tool's rules bind
    #: (``ToolRules.bound_args``) must equal these values. Optional: when absent, the
    #: ``<name>=<integer>`` pairs of the request for bound argument names (``user_id=42``).
    subject: dict[str, Any]


class SupervisorOutput(RunState, total=False):
    steps: int
    calls: list[dict[str, Any]]
    #: actions refused and fed back to the worker (``on_refusal: feedback``)
    refusals: list[dict[str, Any]]
    raw_action: Any
    action: dict[str, Any]
    executed_from: str
    review: dict[str, Any]
    reviews: list[dict[str, Any]]
    approval_request: dict[str, Any]
    human_answer: Any
    human_approved: bool
    #: who approved the step's escalated action: "human" or "auto_approver"
    approved_by: str
    #: who answered the step's question, as the answer named them (absent where it named no one)
    reviewer: str
    #: the account the answer came from, where the answering process knows it (the CLI's OS account,
    #: a served reviewer's sign-in)
    account: str
    #: when the human's answer was taken (ISO 8601, UTC)
    answered_at: str
    paused_seconds: float
    #: how the worker proposed actions in this run: "native" (tool calls) or "json"
    worker_protocol: str
    #: whom the run acted for: the input's subject, or the one its request named
    run_subject: dict[str, Any]
    #: the grants of this run (one ask per task): escalated steps a human approved, whose kind and
    #: provenance later steps share without asking again
    grants: list[dict[str, Any]]
    #: the thread's ledger: what the successful calls of tools thread-wide rules watch did, in every
    #: run of the thread (kept across runs: refunds on an order, the same call on a record again)
    ledger: list[dict[str, Any]]


class SupervisorState(SupervisorInput, SupervisorOutput, total=False):
    #: how far the last review read the thread's journal (its newest effect's number): the call's
    #: claim is refused when another run acted on the thread since (``thread_changed``)
    world_seq: int
    proposed_action: dict[str, Any]
    refusal: dict[str, Any]
    revisions: int
    first_step: int
    #: the id of the tool call the gateway is taking (the worker's reply's, or one made for a
    #: JSON proposal), and the calls of the same reply still to take
    tool_call_id: str
    pending_calls: list[dict[str, Any]]
    #: native tool calling: what the worker model is sent after its task, this run's own AI
    #: replies and the tool messages the gateway wrote (never a client's messages), named by id
    #: and digest in ``messages`` (``nodes.supervisor.conversation``)
    worker_transcript: list[dict[str, Any]]
    #: the worker's own copy of the conversation before ``worker_transcript``: read only from runs
    #: checkpointed with it, emptied by the next run
    worker_conversation: Annotated[list[AnyMessage], add_messages]


def route_after_validate_action(state: SupervisorState) -> Literal["review", "refuse", "__end__"]:
    if is_stopped(state):
        return "__end__"
    return "refuse" if state.get("refusal") else "review"


def route_after_review(
    state: SupervisorState,
) -> Literal["execute", "finalize", "revise_action", "escalate", "refuse", "__end__"]:
    if is_stopped(state):
        return "__end__"
    if state.get("refusal"):
        return "refuse"
    decision = state["review"]["decision"]
    if decision == "revise":
        return "revise_action"
    if decision == "escalate":
        return "escalate"
    return "finalize" if state["action"]["kind"] == "final" else "execute"


def route_after_human_approval(
    state: SupervisorState,
) -> Literal["execute", "finalize", "refuse", "escalate", "__end__"]:
    if is_stopped(state):
        return "__end__"
    if state.get("refusal"):
        return "refuse"
    if (state.get("approval_request") or {}).get("expired"):  # answered late: asked again
        return "escalate"
    return "finalize" if state["action"]["kind"] == "final" else "execute"


def route_after_execute(state: SupervisorState) -> Literal["worker", "refuse", "__end__"]:
    if is_stopped(state):
        return "__end__"
    return "refuse" if state.get("refusal") else "worker"


def build_graph(
    *,
    llm: BaseChatModel | None = None,
    policy: SupervisorPolicy | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    tools: ToolsArg | None = None,
    custom_rules: Mapping[str, CustomRule] | None = None,
    store: BaseStore | None = None,
    journal: Journal | None = None,
    reader: RequestReader | None = None,
    delta_channels: bool | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the Supervisor graph.

    ``tools``: LangChain tools (``@tool``, ``StructuredTool``, any ``BaseTool``) and plain
    functions, in a list or a ``{name: tool}`` mapping (default: the demo billing desk). Their own
    argument schemas are validated before every call and shown to the worker. ``policy``: the
    supervisor's rules and budgets (default: :meth:`SupervisorPolicy.for_tools` over ``tools``, or
    the demo policy for the demo tools). ``custom_rules`` supplies the functions that rules name in
    ``ToolRules.custom``. A policy that names a tool, an argument or a custom rule that is not there
    is an error here (``ValueError``), not a run that blocks every answer; so is
    ``worker_protocol: native`` with a model that does not implement ``bind_tools``.
    ``journal``: the thread journal that makes side effects run once whoever races
    (:mod:`nodes.journal`; default: the one beside ``checkpointer``'s runs, this process's without
    one). ``reader``: how the user's turn is read into mandates, the request's authority
    (:class:`~policies.supervisor.reading.words.RequestReader`; default: the positive grammar,
    :class:`~policies.supervisor.reading.words.GrammarReader`; a model's:
    :class:`nodes.model_reader.ModelReader`). It is given the user's words only (the run's ``goal``, the
    conversation's user turn), never a tool's result; what it cannot read gives no mandate, so the call asks.
    ``delta_channels``: the conversation and audit rows as LangGraph's delta channels (None, the
    default: as ``$AGENT_PATTERNS_DELTA_CHANNELS`` says; :func:`graphs.compile.compile_pattern`).
    """
    journal = journal if journal is not None else journal_for(checkpointer)
    llm = llm or get_chat_model()
    registry = tool_registry(demo_tools() if tools is None else tools)
    if policy is None:
        policy = demo_policy() if tools is None else SupervisorPolicy.for_tools(registry)
    hooks = dict(custom_rules or {})
    models = {name: tool.model for name, tool in registry.items()}
    problems = policy_problems(policy, models, hooks) + cedar_problems(policy, models)
    tool_calling = supports_tool_calling(llm)
    if policy.worker_protocol == "native" and not tool_calling:
        problems.append(
            f"worker_protocol is native but the model ({model_label(llm)}) does not implement bind_tools"
        )
    if problems:
        raise ValueError("the supervisor policy does not fit the tools: " + "; ".join(problems))
    builder = pattern_builder(SupervisorState, SupervisorPolicy, SupervisorInput, SupervisorOutput)
    start = partial(n.start, model=model_label(llm), tool_calling=tool_calling, policy=policy)
    builder.add_node("start", start)
    builder.add_node("worker", llm_node(partial(worker, llm=llm, policy=policy, tools=registry)))
    builder.add_node("validate_action", partial(n.validate_action, policy=policy, models=models))
    builder.add_node(
        "review", partial(n.review, policy=policy, hooks=hooks, journal=journal, reader=reader, models=models)
    )
    builder.add_node("revise_action", partial(n.revise_action))
    builder.add_node("escalate", partial(approval.escalate, policy=policy))
    builder.add_node(
        "human_approval",
        partial(
            approval.human_approval, policy=policy, hooks=hooks, models=models, journal=journal, reader=reader
        ),
    )
    builder.add_node("refuse", partial(n.refuse))
    builder.add_node("execute", partial(n.execute, policy=policy, tools=registry, journal=journal))
    builder.add_node("finalize", partial(n.finalize))

    builder.add_edge(START, "start")
    add_chain(builder, "start", "worker", "validate_action")
    builder.add_conditional_edges("validate_action", route_after_validate_action)
    builder.add_conditional_edges("review", route_after_review)
    builder.add_edge("revise_action", "review")
    builder.add_edge("escalate", "human_approval")
    builder.add_conditional_edges("human_approval", route_after_human_approval)
    builder.add_edge("refuse", "worker")
    builder.add_conditional_edges("execute", route_after_execute)
    builder.add_edge("finalize", END)
    reviews_blocking = journal.blocking or reads_blocking(reader)
    return compile_pattern(
        builder,
        name="supervisor",
        checkpointer=checkpointer,
        store=store,
        # the nodes that call tools, and those that read or write the thread's journal when it is
        # a database or ask a model to read the turn (else the review's work stays on the event
        # loop under the async API)
        io_nodes=("review", "human_approval", "execute") if reviews_blocking else ("execute",),
        durability=DURABILITY,
        audit=AUDIT_ROWS,
        delta_channels=delta_channels,
    )


def served_tools(env: Mapping[str, str] | None = None) -> ToolsArg | None:
    """The module-level graph's tools: the demo billing desk, recording its refunds and emails in
    the ledger ``$AGENT_PATTERNS_LEDGER`` names when it is set (so every worker process of a
    server shares one ledger and a run taken up by another worker does not refund twice), else
    in memory (None: ``build_graph``'s default)."""
    ledger = ledger_from_env(env)
    return None if ledger is None else demo_tools(BillingDesk(ledger=ledger))


#: Compiled without a checkpointer: LangGraph Studio and the server supply their own. The demo's
#: policy either way (``build_graph`` would derive one from tools it is given).
graph = build_graph(tools=served_tools(), policy=demo_policy(), journal=journal_from_env())
