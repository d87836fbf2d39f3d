"""8. Where a governed tool step's time goes: ``create_agent`` + ``GovernanceMiddleware`` against
``create_agent`` + ``HumanInTheLoopMiddleware`` (the agent a user would pick for approvals), per
tool step, with the nodes each runs, the bytes each step writes, and what a leaner middleware would
save, measured rather than guessed (issue 29, item 4).

Variants, all on ``bench/agents.py``'s two tools and scripted model, interleaved rounds, every run
checked to make its N calls and answer:

- ``create_agent``, ``create_agent_hitl``, ``create_agent_governance``: as in section 6;
- ``create_agent_governance_cedar``: the same governance with three Cedar policies (issue 58: the
  Cedar check, its facts computed for every argument, within 10% of the governed step);
- (phase 2 took the middleware's ``before_model`` node off the graph: its checks run in
  ``wrap_model_call``, inside the model's node, and a step writes the run's clock, not the whole
  run's bookkeeping);
- ``hitl_with_empty_before_model``: HITL plus a middleware whose ``before_model`` does nothing:
  what one node per step costs by itself, whatever it does;
- (issue 37 moved the review into the model's node too, once the model has answered: the
  middleware has no node per step of its own, only ``before_agent`` and ``after_agent`` a run);
- ``governance_shape_only``: a middleware with ``GovernanceMiddleware``'s hooks and state schema
  whose hooks do nothing (each wrap hook calls its handler): what the middleware's shape costs —
  its two per-run nodes, its ``wrap_model_call`` and ``wrap_tool_call``, its state's channels —
  without the governance it does, the floor of any middleware built this way;
- ``shape_with_after_model``: that shape with the ``after_model`` node a step the middleware had
  before issue 37 (its review's node): what that node cost by itself;
- ``shape_without_run_nodes``: the shape without its two nodes a run (``before_agent``,
  ``after_agent``): what they cost, spread over the run's steps;
- ``shape_with_one_channel``: the shape with one private channel in its state where
  ``GovernanceState`` adds twelve: what the channels cost by their number (LangGraph copies and
  reads every channel of the state at each routing and each task, written or not).

Per variant and step count: supersteps per tool step and the nodes a tool step runs; CPU and wall
ms per tool step and the ratio to ``create_agent_hitl``; the bytes of the state updates a step
writes and of the checkpoints it leaves (``InMemorySaver``, serialized as savers store them).
"""

from __future__ import annotations

import gc
import os
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from bench.agents import (
    Variant,
    agent,
    agent_check,
    available,
    governance,
    hitl,
    interleaved,
)
from bench.checkpointers import payload_bytes, stored_bytes
from bench.common import Section, ms
from bench.context import Context
from bench.profiling import Matcher, profile, summary

REFERENCE = "create_agent_hitl"
BASELINE = "create_agent"
STEPS = (6, 24)
#: Issue 37's goal: the middleware within this many times HITL per tool step (issue 29's was 1.2).
TARGET = 1.1


def _empty_before_model(steps: int) -> Sequence[Any]:
    from langchain.agents.middleware.types import AgentMiddleware

    class Empty(AgentMiddleware):
        def before_model(self, state: Any, runtime: Any) -> None:
            return None

    return [*hitl(steps), Empty()]


def _shape_middleware(
    name: str = "Shape", *, after_model: bool = False, run_nodes: bool = True, schema: Any = None
) -> Any:
    """A middleware (class ``name``) with ``GovernanceMiddleware``'s state schema and hooks, each
    doing nothing; ``after_model`` adds the node a step its review had before issue 37;
    ``run_nodes=False`` leaves out its two nodes a run (``before_agent``, ``after_agent``);
    ``schema``: another state schema."""
    from langchain.agents.middleware import AgentMiddleware, hook_config

    from nodes.middleware.state import GovernanceState

    def before_agent(self: Any, state: Any, runtime: Any) -> None:
        return None

    @hook_config(can_jump_to=["end", "model"])
    def after_model_hook(self: Any, state: Any, runtime: Any) -> None:
        return None

    @hook_config(can_jump_to=["model"])
    def after_agent_hook(self: Any, state: Any, runtime: Any) -> None:
        return None

    def wrap_model_call(self: Any, request: Any, handler: Any) -> Any:
        return handler(request)

    def wrap_tool_call(self: Any, request: Any, handler: Any) -> Any:
        return handler(request)

    hooks: dict[str, Any] = {
        "state_schema": schema or GovernanceState,
        "wrap_model_call": wrap_model_call,
        "wrap_tool_call": wrap_tool_call,
    }
    if run_nodes:
        hooks |= {"before_agent": before_agent, "after_agent": after_agent_hook}
    if after_model:
        hooks["after_model"] = after_model_hook
    return type(name, (AgentMiddleware,), hooks)()


def _governance_shape(steps: int) -> Sequence[Any]:
    return [_shape_middleware()]


def _shape_with_after_model(steps: int) -> Sequence[Any]:
    return [_shape_middleware("ShapeWithAfterModel", after_model=True)]


def _shape_without_run_nodes(steps: int) -> Sequence[Any]:
    return [_shape_middleware("ShapeNoRunNodes", run_nodes=False)]


def _one_channel_state() -> Any:
    """``create_agent``'s state with one private channel of the middleware's, where
    ``GovernanceState`` adds twelve."""
    from typing import Annotated, NotRequired

    from langchain.agents.middleware.types import AgentState, PrivateStateAttr

    # built with its annotations as objects: this module's are strings, which LangChain resolves in
    # the module's globals, where these names are not
    hints = {"governance_run": NotRequired[Annotated[dict[str, Any], PrivateStateAttr]]}
    return type(AgentState)("OneChannel", (AgentState,), {"__annotations__": hints})


def _shape_with_one_channel(steps: int) -> Sequence[Any]:
    return [_shape_middleware("ShapeOneChannel", schema=_one_channel_state())]


def _governance_delta_state() -> Any:
    from nodes.middleware.state import GovernanceDeltaState

    return GovernanceDeltaState


def _delta_state() -> Any:
    from bench.delta_state import DeltaAgentState

    return DeltaAgentState


#: Issue 58: what the Cedar check may add to a governed tool step (≤ 10%).
CEDAR_TARGET = 1.1
#: A small Cedar set over the bench's two tools that every scripted call passes: a permit per tool
#: on its values and a forbid on where a value came from (the facts each call computes).
CEDAR = """\
@id("orders-in-range")
permit(principal, action == Action::"lookup_order", resource)
when { context.args.order_id.value < 10000 };

@id("conversions-in-range")
permit(principal, action == Action::"convert_price", resource)
when { context.args.amount_usd.value.lessThan(decimal("10000.0")) };

@id("currency-not-from-a-lookup")
forbid(principal, action == Action::"convert_price", resource)
when { context.args.currency.sources.contains("untrusted:lookup_order") };
"""


def _governance_cedar(steps: int) -> Sequence[Any]:
    """The governance middleware with the same policy and :data:`CEDAR` (issue 58)."""
    from bench.agents import TOOLS, supervisor_policy
    from nodes.middleware import GovernanceMiddleware
    from policies.supervisor import SupervisorPolicy

    policy = SupervisorPolicy.model_validate({**supervisor_policy(steps).model_dump(), "cedar": CEDAR})
    return [GovernanceMiddleware(policy, tools=list(TOOLS))]


#: Issue 55: the audit chain in the graph's store (an ``InMemoryStore`` beside the saver), plain
#: and sealed with a key (``$AGENT_PATTERNS_AUDIT_KEY``: each link and the head MACed, each plan a
#: call runs under stamped), measured against HITL as the governed step is.
AUDITED = "create_agent_governance_audit"
KEYED = "create_agent_governance_keyed"
#: The key the keyed variant runs under (set around its runs only).
BENCH_KEY = "bench-audit-key-0123456789abcdef0123456789abcdef"


def _store() -> Any:
    from langgraph.store.memory import InMemoryStore

    return InMemoryStore()


@contextmanager
def _keyed(name: str) -> Iterator[None]:
    """The audit key set while ``name`` runs, if it is the keyed variant; unset otherwise."""
    from nodes.stamps import AUDIT_KEY_ENV

    before = os.environ.pop(AUDIT_KEY_ENV, None)
    if name == KEYED:
        os.environ[AUDIT_KEY_ENV] = BENCH_KEY
    try:
        yield
    finally:
        os.environ.pop(AUDIT_KEY_ENV, None)
        if before is not None:
            os.environ[AUDIT_KEY_ENV] = before


def variants() -> list[Variant]:
    delta = ("langgraph.channels:DeltaChannel",)
    return [
        agent("create_agent"),
        agent(REFERENCE, hitl),
        agent("create_agent_governance", governance),
        agent("create_agent_governance_cedar", _governance_cedar, needs=("cedarpy",)),
        agent(AUDITED, governance, store=_store),
        agent(KEYED, governance, store=_store),
        agent("hitl_with_empty_before_model", _empty_before_model),
        agent("governance_shape_only", _governance_shape),
        agent("shape_with_after_model", _shape_with_after_model),
        agent("shape_without_run_nodes", _shape_without_run_nodes),
        agent("shape_with_one_channel", _shape_with_one_channel),
        agent("create_agent_governance_delta", governance, needs=delta, state_schema=_governance_delta_state),
        agent("create_agent_hitl_delta", hitl, needs=delta, state_schema=_delta_state),
    ]


def _shape(name: str, built: Any, steps: int) -> dict[str, Any]:
    """One run's supersteps, the nodes per tool step (a node run fewer times than there are steps
    runs once a run), and the bytes it leaves (``built`` is checkpointed by an ``InMemorySaver``)."""
    saver = built.graph.checkpointer
    thread = f"shape-{uuid.uuid4()}"
    config = {"configurable": {"thread_id": thread}}
    with _keyed(name):
        built.graph.invoke(built.given, config, durability="sync")
    snapshots = list(built.graph.get_state_history(config))
    nodes: Counter[str] = Counter(task.name for s in snapshots for task in s.tasks)
    written = sum(payload_bytes(v) for key, v in saver.writes.items() if key[0] == thread)
    kept = stored_bytes("memory", saver, "memory", thread) - written
    per_run = {name for name, count in nodes.items() if count < steps}
    return {
        "supersteps_per_step": round((len(snapshots) - 1) / steps, 2),
        "nodes_per_step": " ".join(sorted(n for n in nodes if n not in per_run)),
        "nodes_per_run": " ".join(sorted(per_run - {"__start__"})),
        "kb_written_per_step": round(written / steps / 1024, 2),
        "kb_checkpoints_per_step": round(kept / steps / 1024, 2),
    }


def measure(ctx: Context, steps: int) -> list[dict[str, Any]]:
    failures: list[str] = []
    present = [v for v in variants() if v.build is not None]
    from langgraph.checkpoint.memory import InMemorySaver

    saver = InMemorySaver()
    built = {v.name: v.build(steps, saver) for v in present if v.build is not None}

    last: dict[str, str] = {}

    def runner(name: str) -> Callable[[], None]:
        def run() -> None:
            last[name] = str(uuid.uuid4())
            with _keyed(name):
                result = built[name].graph.invoke(
                    built[name].given, {"configurable": {"thread_id": last[name]}}, durability="sync"
                )
            if not agent_check(steps)(result):
                failures.append(name)

        return run

    def forget(name: str) -> None:  # the run's checkpoints leave the heap: each run pays for its own
        saver.delete_thread(last[name])
        if getattr(built[name].graph, "store", None) is not None:
            # a new store, not the old one emptied: an InMemoryStore keeps every namespace it ever
            # held and scans them all on a search, so each run on a new thread would pay for every
            # earlier run's (a store of a database reads one thread's rows by its prefix)
            built[name].graph.store = _store()
        # what the run left is collected here, outside the timing: a variant whose run leaves
        # more garbage (a store's items) would otherwise pay for it in whichever later run the
        # collector happens to run in
        gc.collect()

    timed = interleaved({name: runner(name) for name in built}, ctx.settings.agent_rounds, forget)
    if failures:
        raise RuntimeError(f"{steps} steps: runs strayed from the script: {failures[:3]}")
    ref_wall, ref_cpu = timed[REFERENCE]
    base_wall, base_cpu = timed[BASELINE]
    rows = []
    for name, (wall, cpu) in timed.items():
        rows.append(
            {
                "steps": steps,
                "variant": name,
                **_shape(name, built[name], steps),
                "cpu_ms_per_step": ms(cpu / steps),
                "ms_per_step": ms(wall / steps),
                "cpu_over_hitl": round(cpu / ref_cpu, 2),
                "over_hitl": round(wall / ref_wall, 2),
                "cpu_over_create_agent": round(cpu / base_cpu, 2),
                "over_create_agent": round(wall / base_wall, 2),
            }
        )
    return rows


#: Where a governed run's time goes: each label's inclusive share of the profiled thread.
PROFILED: dict[str, tuple[Matcher, ...]] = {
    "GovernanceMiddleware.wrap_model_call (budgets, model, review)": (
        ("wrap_model_call", "nodes/middleware/agent.py"),
    ),
    "the review of a reply (_review)": (("_review", "nodes/middleware/agent.py"),),
    "GovernanceMiddleware.wrap_tool_call": (("wrap_tool_call", "nodes/middleware/running.py"),),
    "the model call (scripted)": (("_generate", "bench/agents.py"),),
    "the tool call (ToolNode)": (("_run_one", "langgraph/prebuilt/tool_node.py"),),
    "making checkpoints (_put_checkpoint)": (("_put_checkpoint", "pregel/_loop.py"),),
    "handing writes to the saver (put_writes)": (("put_writes", "pregel/_loop.py"),),
    "waiting for checkpoint writes (Future.result)": (("result", "concurrent/futures/_base.py"),),
    "state reads (local_read)": (("local_read", "langgraph/pregel/_algo.py"),),
    "preparing each superstep's tasks (prepare_next_tasks)": (("prepare_next_tasks", "pregel/_algo.py"),),
}


def profile_governance(ctx: Context, steps: int) -> str:
    from langgraph.checkpoint.memory import InMemorySaver

    variant = agent("create_agent_governance", governance)
    assert variant.build is not None
    built = variant.build(steps, InMemorySaver())

    def runs() -> None:
        for _ in range(ctx.settings.agent_profile_runs):
            built.graph.invoke(
                built.given, {"configurable": {"thread_id": str(uuid.uuid4())}}, durability="sync"
            )

    found = profile(
        runs,
        save_as=ctx.out_dir / "profiles" / f"middleware-steps-{steps}.txt",
        inclusive=PROFILED,
    )
    shares = ", ".join(f"{label} {round(share * 100)}%" for label, share in found["inclusive"].items())
    where = f"governance, {steps} steps, memory: {summary(found['areas'])}"
    return f"{where}; inside: {shares} ({found.get('file')})"


def marginal(rows: Mapping[tuple[int, str], Mapping[str, Any]], variant: str) -> tuple[float, float]:
    """A variant's CPU ms per tool step as the slope between the two step counts (what one more
    tool step costs, the run's fixed cost apart), and that fixed cost per run (ms): the two runs'
    CPU time is ``fixed + steps × per_step``."""
    few, many = STEPS
    cost = {n: rows[(n, variant)]["cpu_ms_per_step"] * n for n in STEPS}
    per_step = (cost[many] - cost[few]) / (many - few)
    return per_step, cost[few] - per_step * few


def _per_step_checks(section: Section, rows: Mapping[tuple[int, str], Mapping[str, Any]]) -> None:
    """The goals per tool step, on the slope between the step counts: a run's fixed cost (the
    turn's reading, the run's two nodes) is paid once per turn, not per step."""
    few, many = STEPS
    hitl_step, hitl_fixed = marginal(rows, REFERENCE)
    governed = [("create_agent_governance", "governance"), (KEYED, "governance with a keyed audit chain")]
    for variant, what in governed:
        if (few, variant) not in rows:
            continue
        step, fixed = marginal(rows, variant)
        section.check(
            f"per tool step ({few} → {many} steps): {what} ÷ HITL, CPU",
            round(step / hitl_step, 3),
            TARGET,
            note=f"{step:.2f} vs {hitl_step:.2f} ms a step; fixed a run {fixed:.2f} vs {hitl_fixed:.2f} ms",
        )
    if (few, "create_agent_governance_cedar") in rows:
        step, _ = marginal(rows, "create_agent_governance_cedar")
        plain, _ = marginal(rows, "create_agent_governance")
        section.check(
            f"per tool step ({few} → {many} steps): governance with Cedar ÷ governance, CPU",
            round(step / plain, 3),
            CEDAR_TARGET,
            note=f"{step:.2f} vs {plain:.2f} ms a step",
        )


def run(ctx: Context) -> Section:
    section = Section(
        "middleware_steps",
        "8. A governed tool step against create_agent + HITL: nodes, bytes and time per tool step (memory)",
        [
            "steps", "variant", "supersteps_per_step", "nodes_per_step", "nodes_per_run",
            "kb_written_per_step", "kb_checkpoints_per_step", "cpu_ms_per_step", "ms_per_step",
            "cpu_over_hitl", "over_hitl", "cpu_over_create_agent", "over_create_agent",
        ],
    )  # fmt: skip
    if not available():
        raise RuntimeError("the middleware_steps section needs langchain>=1 (pip install -e '.[bench]')")
    steps = STEPS if ctx.settings.mode != "smoke" else (2,)
    for count in steps:
        section.rows += measure(ctx, count)
    rows = {(r["steps"], r["variant"]): r for r in section.rows}
    for row in section.rows:
        if row["variant"] == "create_agent_governance" and row["steps"] in STEPS:
            hitl_row = rows[(row["steps"], REFERENCE)]
            section.check(
                f"{row['steps']} steps: governance ÷ HITL, CPU per tool step",
                row["cpu_over_hitl"],
                TARGET,
                note=(
                    f"supersteps/step {row['supersteps_per_step']} vs {hitl_row['supersteps_per_step']}, "
                    f"KB written/step {row['kb_written_per_step']} vs {hitl_row['kb_written_per_step']}"
                ),
            )
        if row["variant"] in (AUDITED, KEYED) and row["steps"] in STEPS:
            plain = rows[(row["steps"], "create_agent_governance")]
            what = "a keyed audit chain" if row["variant"] == KEYED else "the audit chain"
            section.check(
                f"{row['steps']} steps: governance with {what} ÷ HITL, CPU per tool step",
                row["cpu_over_hitl"],
                TARGET,
                note=f"{row['cpu_ms_per_step'] / plain['cpu_ms_per_step']:.2f}× governance without a store",
            )
        if row["variant"] == "create_agent_governance_cedar" and row["steps"] in STEPS:
            plain = rows[(row["steps"], "create_agent_governance")]
            section.check(
                f"{row['steps']} steps: governance with Cedar ÷ governance, CPU per tool step",
                round(row["cpu_ms_per_step"] / plain["cpu_ms_per_step"], 3),
                CEDAR_TARGET,
                note="three Cedar policies; the facts of every argument computed per call",
            )
    if all(s in steps for s in STEPS):
        _per_step_checks(section, rows)
    if ctx.settings.profile:
        section.notes.append(profile_governance(ctx, max(steps)))
    section.notes.append(
        "InMemorySaver, durability sync, interleaved rounds, every run on a new thread, whose "
        "checkpoints are deleted after it is timed (the heap stays the size of one run's). "
        "kb_written_per_step: the serialized state updates (LangGraph's pending writes) per tool step; "
        "kb_checkpoints_per_step: the serialized checkpoints and channel blobs. "
        "hitl_with_empty_before_model: what one node per tool step costs by itself; "
        "governance_shape_only: the middleware's hooks and state doing nothing (its shape's floor); "
        "shape_with_after_model: that floor with the after_model node a step the review had before "
        "issue 37."
    )
    return section
