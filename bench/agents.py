"""6. A governed tool step next to an ungoverned one: the Supervisor against LangChain's
``create_agent`` (the agent a user would pick instead), with and without
``HumanInTheLoopMiddleware``, side by side in one process.

Every variant gets the same two tools and a scripted model (no network, no work of its own) that
asks for ``steps`` tool calls, one per model turn, then answers: the Supervisor's worker through
the JSON protocol (``{"kind": "tool", ...}`` as text, read by ``nodes/llm_json.py``), the agents
through native tool calls (``AIMessage.tool_calls``). The HITL middleware gates both tools with a
``when`` predicate that never asks, so its figures are the cost of the gate being there, not of a
pause. Each (store, steps) pair runs the variants in interleaved rounds, each run on a new thread,
``durability="sync"`` for all (the Supervisor's default, what exactly-once side effects need).

A variant is one line of :func:`variants`; one whose parts are not installed (LangChain itself,
or ``nodes.middleware.GovernanceMiddleware`` until it exists) is left out with a note. The
Supervisor's native tool-call protocol, once it exists, is ``Variant("supervisor_native",
supervisor(NativeScript))``.
"""

from __future__ import annotations

import gc
import importlib
import json
import math
import time
import uuid
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool, tool
from langgraph.checkpoint.base import BaseCheckpointSaver

from bench.checkpointers import stored_bytes
from bench.common import Section, median, ms
from bench.context import Context
from bench.profiling import Matcher, profile, summary
from nodes.store import open_checkpointer
from policies.supervisor import SupervisorPolicy

#: "none": no checkpointer, so the rows show what checkpointing adds to each variant
STORES = ("none", "memory", "sqlite")
BASELINE = "create_agent"
HITL = "create_agent_hitl"
#: The goal: the Supervisor ÷ create_agent per tool step, at these step counts (issue 23).
TARGET_RATIO = 3.0
TARGET_AT = (6, 24)
#: "Per-step cost flat from 6 to 24 steps": ms per tool step at 24 ÷ at 6.
FLAT_LIMIT = 1.2
GOAL = "Check order 1 and the price of its items in EUR, then answer."
FINAL_ANSWER = "All orders checked."
#: What the scripted models report per call, so the seam's pricing and budget work is done.
USAGE = {"input_tokens": 120, "output_tokens": 20, "total_tokens": 140}


# --- The two tools ---------------------------------------------------------------------------


@tool
def lookup_order(order_id: int) -> dict[str, Any]:
    """Look up an order by its id: its status and total."""
    return {"order_id": order_id, "status": "shipped", "total_usd": 40.0 + order_id}


@tool
def convert_price(amount_usd: float, currency: str) -> dict[str, Any]:
    """Convert an amount in USD into another currency."""
    return {"amount": round(amount_usd * 0.92, 2), "currency": currency}


TOOLS: tuple[BaseTool, ...] = (lookup_order, convert_price)


def tool_call(step: int) -> tuple[str, dict[str, Any]]:
    """The scripted call of tool step ``step`` (1-based): the tools alternate and their arguments
    change every step, so no repeat limit applies."""
    if step % 2:
        return "lookup_order", {"order_id": step}
    return "convert_price", {"amount_usd": 40.0 + step, "currency": "EUR"}


# --- The scripted models: one per protocol -------------------------------------------------------


class _Scripted(BaseChatModel):
    """``steps`` tool calls, one per turn, then the final answer. Stateless: the turn is read from
    the request, so one model serves any number of runs, interleaved or at once."""

    steps: int

    @abstractmethod
    def _turn(self, messages: list[BaseMessage]) -> int:
        """Which turn of the script a request is (1: the first model call)."""

    @abstractmethod
    def _message(self, turn: int) -> AIMessage:
        """The scripted reply of ``turn``."""

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._message(self._turn(messages)))])


class JsonScript(_Scripted):
    """The Supervisor's JSON protocol: an action as JSON text, the turn from the payload's
    ``step``. No ``bind_tools``: this model cannot call tools natively."""

    @property
    def _llm_type(self) -> str:
        return "bench-json-script"

    def _turn(self, messages: list[BaseMessage]) -> int:
        return int(json.loads(messages[-1].text)["step"])

    def _message(self, turn: int) -> AIMessage:
        if turn > self.steps:
            action: dict[str, Any] = {"kind": "final", "answer": FINAL_ANSWER}
        else:
            name, args = tool_call(turn)
            action = {"kind": "tool", "name": name, "args": args}
        return AIMessage(content=json.dumps(action), usage_metadata=USAGE)


class NativeScript(_Scripted):
    """Native tool calling: ``AIMessage.tool_calls``, the turn from the tool results so far in the
    conversation; the final answer is a message without tool calls."""

    @property
    def _llm_type(self) -> str:
        return "bench-native-script"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> NativeScript:
        return self

    def _turn(self, messages: list[BaseMessage]) -> int:
        return 1 + sum(isinstance(m, ToolMessage) for m in messages)

    def _message(self, turn: int) -> AIMessage:
        if turn > self.steps:
            return AIMessage(content=FINAL_ANSWER, usage_metadata=USAGE)
        name, args = tool_call(turn)
        calls = [{"name": name, "args": args, "id": f"call_{turn}", "type": "tool_call"}]
        return AIMessage(content="", tool_calls=calls, usage_metadata=USAGE)


# --- The variants ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Built:
    """One variant compiled for ``steps`` tool steps: the graph, its input, and a check that a run
    made exactly those tool calls and answered."""

    graph: Any
    given: dict[str, Any]
    check: Callable[[dict[str, Any]], bool]


Builder = Callable[[int, BaseCheckpointSaver | None], Built]


@dataclass(frozen=True)
class Variant:
    name: str
    #: builds the variant for (steps, checkpointer); None: its parts are not installed
    build: Builder | None
    #: why it is left out, when ``build`` is None
    missing: str = ""


def supervisor_policy(steps: int) -> SupervisorPolicy:
    """Both tools allowed with plain rules, budgets sized to the run."""
    return SupervisorPolicy.for_tools(list(TOOLS), max_tool_calls=steps, max_steps=steps + 1)


def supervisor(script: type[_Scripted]) -> Builder:
    from graphs.supervisor import build_graph

    def build(steps: int, saver: BaseCheckpointSaver | None) -> Built:
        graph = build_graph(
            llm=script(steps=steps), tools=list(TOOLS), policy=supervisor_policy(steps), checkpointer=saver
        )

        def check(result: dict[str, Any]) -> bool:
            calls = result.get("calls") or []
            return result.get("status") == "ok" and len(calls) == steps and all(c.get("ok") for c in calls)

        return Built(graph, {"goal": GOAL}, check)

    return build


def agent_check(steps: int) -> Callable[[dict[str, Any]], bool]:
    def check(result: dict[str, Any]) -> bool:
        messages = result.get("messages") or []
        done = sum(isinstance(m, ToolMessage) and m.status == "success" for m in messages)
        last = messages[-1] if messages else None
        return "__interrupt__" not in result and done == steps and getattr(last, "text", "") == FINAL_ANSWER

    return check


def _missing(*names: str) -> str | None:
    """The first of ``names`` (``module`` or ``module:attribute``) that cannot be imported here."""
    for name in names:
        module, _, attribute = name.partition(":")
        try:
            found = importlib.import_module(module)
        except ImportError:
            return name
        if attribute and not hasattr(found, attribute):
            return name
    return None


def agent(
    name: str,
    middleware: Callable[[int], Sequence[Any]] | None = None,
    *,
    needs: tuple[str, ...] = (),
    state_schema: Callable[[], Any] | None = None,
    store: Callable[[], Any] | None = None,
) -> Variant:
    """``create_agent`` over the same tools with ``middleware(steps)`` (and the state schema
    ``state_schema()`` makes, and the store ``store()`` makes, if any): left out (with why) when
    LangChain or what ``needs`` names cannot be imported."""
    missing = _missing("langchain.agents", *needs)
    if missing is not None:
        return Variant(name, None, f"{missing} cannot be imported here")

    def build(steps: int, saver: BaseCheckpointSaver | None) -> Built:
        from langchain.agents import create_agent

        graph = create_agent(
            NativeScript(steps=steps),
            list(TOOLS),
            middleware=list(middleware(steps)) if middleware else [],
            checkpointer=saver,
            **({"state_schema": state_schema()} if state_schema else {}),
            **({"store": store()} if store else {}),
        )
        return Built(graph, {"messages": [HumanMessage(GOAL)]}, agent_check(steps))

    return Variant(name, build)


def hitl(steps: int) -> Sequence[Any]:
    """``HumanInTheLoopMiddleware`` gating both tools, each call checked by a ``when`` predicate
    that never asks (an approval for orders above 10,000, which the script never reaches)."""
    from langchain.agents.middleware import HumanInTheLoopMiddleware, InterruptOnConfig

    def large(request: Any) -> bool:
        return int(request.tool_call["args"].get("order_id", 0)) > 10_000

    gate = InterruptOnConfig(allowed_decisions=["approve", "reject"], when=large)
    return [HumanInTheLoopMiddleware(interrupt_on={tool.name: gate for tool in TOOLS})]


def governance(steps: int) -> Sequence[Any]:
    """The governance middleware (issue 21) with the Supervisor's policy for the same tools."""
    middleware = importlib.import_module("nodes.middleware")
    return [middleware.GovernanceMiddleware(supervisor_policy(steps), tools=list(TOOLS))]


#: The governed variants the issue's goal holds for: the Supervisor in both worker protocols, and
#: create_agent with the governance middleware.
GOVERNED = ("supervisor", "supervisor_native", "create_agent_governance")


def variants() -> list[Variant]:
    """What the section measures, one line each, every one against ``create_agent`` (BASELINE)."""
    return [
        Variant("supervisor", supervisor(JsonScript)),
        Variant("supervisor_native", supervisor(NativeScript)),
        agent(BASELINE),
        agent(HITL, hitl),
        agent("create_agent_governance", governance, needs=("nodes.middleware:GovernanceMiddleware",)),
    ]


def available() -> bool:
    """Can this section run here (LangChain installed)?"""
    return _missing("langchain.agents") is None


# --- Measuring ---------------------------------------------------------------------------------


def _invoke(built: Built, thread_id: str) -> dict[str, Any]:
    """One run on a new thread; with a checkpointer, each step's checkpoint written before the
    next step starts (``durability="sync"``, the Supervisor's default)."""
    config = {"configurable": {"thread_id": thread_id}}
    if built.graph.checkpointer is None:
        return built.graph.invoke(built.given, config)
    return built.graph.invoke(built.given, config, durability="sync")


def _invoker(built: Built, failures: list[str], name: str) -> Callable[[], None]:
    def run() -> None:
        result = _invoke(built, str(uuid.uuid4()))
        if not built.check(result):
            failures.append(f"{name}: {result.get('stop_reason') or 'wrong tool calls or answer'}")

    return run


def interleaved(
    runs: Mapping[str, Callable[[], None]], rounds: int, after: Callable[[str], None] | None = None
) -> dict[str, tuple[float, float]]:
    """Median wall and CPU seconds (the process's, all threads) of each run over ``rounds``
    rounds, the variants taking turns (after one round of warm-up). CPU time is what a run costs
    a server; on a loaded machine wall time also holds the waits for a thread to be scheduled.
    ``after(name)``, if given, runs after each timed run, outside the timing (to drop what the run
    left in memory, so that later runs do not pay for a heap that grows with the benchmark)."""
    for name, run in runs.items():
        run()
        if after is not None:
            after(name)
    wall: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    gc.collect()
    for _ in range(rounds):
        for name, run in runs.items():
            w, c = time.perf_counter(), time.process_time()
            run()
            cpu[name].append(time.process_time() - c)
            wall[name].append(time.perf_counter() - w)
            if after is not None:
                after(name)
    return {name: (median(wall[name]), median(cpu[name])) for name in runs}


def supersteps(variant: Variant, steps: int) -> int:
    """Supersteps of one run: the checkpoints it leaves in memory, less the input's."""
    assert variant.build is not None
    with open_checkpointer("memory") as saver:
        built = variant.build(steps, saver)
        thread = f"count-{uuid.uuid4()}"
        _invoke(built, thread)
        return len(list(built.graph.get_state_history({"configurable": {"thread_id": thread}}))) - 1


def kept_bytes(built: Built, store: str, saver: Any, location: str) -> int:
    """Serialized bytes one run leaves in the store (checkpoints, channel blobs, writes)."""
    thread = f"bytes-{uuid.uuid4()}"
    _invoke(built, thread)
    return stored_bytes(store, saver, location, thread)


def measure(ctx: Context, variants: list[Variant], store: str, steps: int) -> list[dict[str, Any]]:
    """The variants at one store and step count, in interleaved rounds: one row each."""
    failures: list[str] = []
    location = "" if store == "none" else ctx.location(store, f"agents_{steps}")
    present = [v for v in variants if v.build is not None]
    with nullcontext(None) if store == "none" else open_checkpointer(location) as saver:
        built = {v.name: v.build(steps, saver) for v in present if v.build is not None}
        runs = {name: _invoker(b, failures, name) for name, b in built.items()}
        timed = interleaved(runs, ctx.settings.agent_rounds)
        kept = {n: kept_bytes(b, store, saver, location) for n, b in built.items()} if saver else {}
    if failures:
        raise RuntimeError(f"{store}, {steps} steps: runs strayed from the script: {failures[:3]}")
    base_wall, base_cpu = timed[BASELINE]
    hitl_wall, hitl_cpu = timed.get(HITL, (math.nan, math.nan))
    rows = []
    for variant in present:
        wall, cpu = timed[variant.name]
        count = supersteps(variant, steps)
        rows.append(
            {
                "store": store,
                "steps": steps,
                "variant": variant.name,
                "supersteps": count,
                "supersteps_per_step": round(count / steps, 2),
                "ms_per_run": ms(wall),
                "ms_per_step": ms(wall / steps),
                "cpu_ms_per_step": ms(cpu / steps),
                "over_create_agent": round(wall / base_wall, 2),
                "cpu_over_create_agent": round(cpu / base_cpu, 2),
                "over_hitl": round(wall / hitl_wall, 2),
                "cpu_over_hitl": round(cpu / hitl_cpu, 2),
                "kb_per_run": round(kept[variant.name] / 1024, 1) if kept else None,
            }
        )
    return rows


def _flatness(section: Section, low: int, high: int) -> None:
    """Per (store, variant): the marginal cost of a tool step between ``low`` and ``high`` steps
    (in the row at ``high``), and the check that CPU ms per tool step at ``high`` ÷ at ``low``
    stays within :data:`FLAT_LIMIT` for the governed variants."""
    by_key = {(r["store"], r["variant"], r["steps"]): r for r in section.rows}
    for (store, name, steps), row in by_key.items():
        first = by_key.get((store, name, low))
        if steps != high or first is None:
            continue
        row["marginal_ms_per_step"] = round((row["ms_per_run"] - first["ms_per_run"]) / (high - low), 3)
        if store != "none" and name in GOVERNED:
            # CPU: what a step costs a server; wall time on a shared machine also measures its load
            growth = row["cpu_ms_per_step"] / first["cpu_ms_per_step"]
            section.check(f"{store}: {name} CPU ms per tool step at {high} ÷ at {low}", growth, FLAT_LIMIT)


#: Where a Supervisor run's time goes: each label's inclusive share of the profiled (main) thread.
GATEWAY_NODES = ("start", "validate_action", "review", "revise_action", "escalate", "human_approval",
                 "refuse", "execute", "finalize")  # fmt: skip
PROFILED: dict[str, tuple[Matcher, ...]] = {
    "seam: thread hop + model call (_invoke_with_timeout)": (("_invoke_with_timeout", "llm_json.py"),),
    "waiting for checkpoint writes (Future.result)": (("result", "concurrent/futures/_base.py"),),
    "handing writes to the background executor (put_writes)": (("put_writes", "pregel/_loop.py"),),
    "making checkpoints (_put_checkpoint)": (("_put_checkpoint", "pregel/_loop.py"),),
    "conditional edges (BranchSpec._route: state read + router)": (("_route", "langgraph/graph/_branch.py"),),
    "state reads (local_read)": (("local_read", "langgraph/pregel/_algo.py"),),
    "preparing each superstep's tasks (prepare_next_tasks)": (("prepare_next_tasks", "pregel/_algo.py"),),
    "gateway nodes (nodes/supervisor/gateway.py, execute's tool call included)": tuple(
        (name, "nodes/supervisor/gateway.py") for name in GATEWAY_NODES
    ),
    "the tools through LangChain (BaseTool.invoke)": (("invoke", "langchain_core/tools/base.py"),),
    "reducers (add_rows, add_usage)": (("add_rows", "nodes/state.py"), ("add_usage", "nodes/state.py")),
}  # fmt: skip


def profile_supervisor(ctx: Context, steps: int) -> tuple[str, dict[str, Any]]:
    """Profile the Supervisor's ``steps``-step run with ``InMemorySaver``: the main thread, where
    the graph runs; the model call runs in the seam's worker thread and the checkpoint writes in
    LangGraph's background executor, so the main thread's share of them is the hand-off and the
    wait (the "none" rows of the table give what checkpointing adds in all)."""
    runs = ctx.settings.agent_profile_runs
    build = supervisor(JsonScript)
    with open_checkpointer("memory") as saver:
        built = build(steps, saver)
        failures: list[str] = []
        once = _invoker(built, failures, "supervisor")
        once()
        found = profile(
            lambda: [once() for _ in range(runs)],
            save_as=ctx.out_dir / "profiles" / f"create_agent-supervisor-{steps}.txt",
            top=12,
            inclusive=PROFILED,
        )
    shares = ", ".join(f"{label} {round(share * 100)}%" for label, share in found["inclusive"].items())
    note = (
        f"supervisor, {steps} steps, memory, profiled over {runs} runs: {summary(found['areas'])}; "
        f"inside: {shares} (text profile: {found.get('file')})"
    )
    return note, found


def run(ctx: Context) -> Section:
    section = Section(
        "create_agent",
        "6. Supervisor vs create_agent per tool step (scripted models, sync invoke, durability sync)",
        [
            "store", "steps", "variant", "supersteps", "supersteps_per_step", "ms_per_run", "ms_per_step",
            "cpu_ms_per_step", "over_create_agent", "cpu_over_create_agent", "over_hitl", "cpu_over_hitl",
            "marginal_ms_per_step", "kb_per_run",
        ],
    )  # fmt: skip
    present = variants()
    for variant in present:
        if variant.build is None:
            section.notes.append(f"{variant.name} not measured: {variant.missing}")
    if not available():
        raise RuntimeError("the create_agent section needs langchain>=1 (pip install -e '.[bench]')")
    steps = ctx.settings.agent_steps
    for store in STORES:
        for count in steps:
            section.rows += measure(ctx, present, store, count)
    for row in section.rows:
        governed = row["variant"] in GOVERNED
        if governed and row["steps"] in TARGET_AT and row["store"] != "none":
            label = f"{row['store']}, {row['steps']} steps: {row['variant']} ÷ create_agent per tool step"
            section.check(label, row["over_create_agent"], TARGET_RATIO)
    # flat from 6 to 24 steps (issue 23), or over what a shorter run measures
    low, high = TARGET_AT if set(TARGET_AT) <= set(steps) else (min(steps), max(steps))
    if low < high:
        _flatness(section, low, high)
    if ctx.settings.profile:
        note, profiled = profile_supervisor(ctx, max(steps))
        section.notes.append(note)
        for row in section.rows:
            if (row["store"], row["steps"], row["variant"]) == ("memory", max(steps), "supervisor"):
                row["profile"] = profiled
    section.notes.append(
        "Each row: one variant's median over interleaved rounds with the others at the same store and step "
        "count, every run on a new thread. over_create_agent: wall ms per run (= per tool step) ÷ "
        "create_agent's; cpu_*: the process's CPU time (all threads), less sensitive to a loaded machine's "
        "scheduling. supersteps: checkpoints a run writes, less the input's. marginal_ms_per_step: (ms per "
        f"run at {high} − at {low}) ÷ the steps between. create_agent_hitl: "
        "HumanInTheLoopMiddleware gating both tools, its when-predicate never asking."
    )
    return section
