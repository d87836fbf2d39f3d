"""1. Governance overhead per pattern, with a zero-latency model replaying the demo's trajectory:
(a) the compiled governed graph, (b) the same LLM nodes as a bare LangGraph graph, (c) a plain
Python loop over the same node and policy functions. Target: (a)/(b) ≤ 1.5."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from bench.common import Section, Settings, median, ms, side_by_side
from bench.context import Context
from bench.profiling import profile, summary
from bench.replay import Trajectory, bench_policy
from bench.variants import PlainLoop, bare_graph, noop_chain
from graphs.registry import PATTERNS
from nodes.llm_json import LLMCall, call_json

TARGET = 1.5


def _model_call_seconds(trajectory: Trajectory, repeats: int) -> tuple[float, float]:
    """Seconds per call of the replay model alone, and of the same call through the seam
    (``call_json``: payload to JSON, worker thread with a timeout, parse and validate)."""
    pattern = PATTERNS[trajectory.pattern]
    node, given = trajectory.llm_inputs[0]
    model = trajectory.model()
    graph = pattern.build(llm=model, policy=bench_policy(pattern))
    call: LLMCall = next(graph.builder.nodes[node].runnable.llm_steps(given, None, None))
    messages = [SystemMessage(content=call.system), HumanMessage(content=json.dumps(dict(call.payload)))]

    def seam() -> None:
        call_json(
            call.llm, system=call.system, payload=call.payload, state=call.state, policy=call.policy,
            contract=call.contract, expect_object=call.expect_object,
        )  # fmt: skip

    times = side_by_side({"model": lambda: model.invoke(messages), "seam": seam}, repeats)
    return median(times["model"]), median(times["seam"])


def _measure(name: str, trajectory: Trajectory, settings: Settings) -> tuple[dict[str, Any], Any]:
    pattern = PATTERNS[name]
    graph = pattern.build(llm=trajectory.model(), policy=bench_policy(pattern))
    bare = bare_graph(graph, trajectory)
    plain = PlainLoop(graph)
    steps = trajectory.checkpoints - 1
    noop = noop_chain(graph, steps)
    given = pattern.demo_input()
    failures: list[str] = []

    def governed() -> None:
        result = graph.invoke(given)
        if not trajectory.check(result):
            failures.append(str(result.get("stop_reason")))

    loop = asyncio.new_event_loop()
    times = side_by_side(
        {
            "a": governed,
            "b": lambda: bare.invoke(given),
            "c": lambda: plain.invoke(given),
            "a_async": lambda: loop.run_until_complete(graph.ainvoke(given)),
            "noop": lambda: noop.invoke(given),
        },
        settings.overhead_repeats,
    )
    loop.close()
    if failures:
        raise RuntimeError(f"{name}: governed runs strayed from the trajectory: {failures[:3]}")
    a, b, c = median(times["a"]), median(times["b"]), median(times["c"])
    model_call, seam_call = _model_call_seconds(trajectory, settings.overhead_repeats)
    calls = trajectory.llm_calls
    row = {
        "pattern": name,
        "llm_calls": calls,
        "steps_a": steps,
        "a_ms": ms(a),
        "b_ms": ms(b),
        "c_ms": ms(c),
        "a_per_call_ms": ms(a / calls),
        "b_per_call_ms": ms(b / calls),
        "c_per_call_ms": ms(c / calls),
        "a_over_b": round(a / b, 2),
        "a_over_c": round(a / c, 2),
        "a_async_ms": ms(median(times["a_async"])),
        "a_minus_b_ms": ms(a - b),
        "a_minus_c_per_step_us": round((a - c) / steps * 1e6, 1),
        "noop_step_us": round(median(times["noop"]) / steps * 1e6, 1),
        "model_call_ms": ms(model_call),
        "seam_call_ms": ms(seam_call),
    }
    return row, lambda: [graph.invoke(given) for _ in range(100)]


def run(ctx: Context) -> Section:
    settings, trajectories, out_dir = ctx.settings, ctx.trajectories, ctx.out_dir
    section = Section(
        "overhead",
        "1. Governance overhead (zero-latency replayed model, sync invoke; medians)",
        [
            "pattern", "llm_calls", "steps_a", "a_ms", "b_ms", "c_ms", "a_per_call_ms", "b_per_call_ms",
            "c_per_call_ms", "a_over_b", "a_over_c", "a_minus_b_ms", "a_minus_c_per_step_us", "noop_step_us",
            "a_async_ms", "model_call_ms", "seam_call_ms",
        ],
    )  # fmt: skip
    for name, trajectory in trajectories.items():
        row, hundred_runs = _measure(name, trajectory, settings)
        section.rows.append(row)
        section.check(f"{name}: (a)/(b)", row["a_over_b"], TARGET)
        if settings.profile and row["a_over_b"] > TARGET:
            found = profile(hundred_runs, save_as=out_dir / "profiles" / f"overhead-{name}.txt")
            row["profile_a"] = found
            section.notes.append(
                f"{name}: (a) profiled over 100 runs: {summary(found['areas'])} "
                f"(text profile: {found.get('file')})"
            )
    section.notes.append(
        "steps_a: supersteps of one governed run; (b) runs one superstep per LLM call. "
        "a_minus_c_per_step_us: what LangGraph adds to the same node functions, per superstep; "
        "noop_step_us: a chain of nodes that do nothing over the same state schema, per superstep. "
        "model_call_ms: the replay model's own invoke; seam_call_ms: the same call through call_json "
        "(JSON payload, worker thread with a timeout, parse, validate)."
    )
    return section
