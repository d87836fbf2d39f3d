"""The benchmark harness in its smallest configuration: it runs every section end to end and writes a
well-formed result. No figure is checked against a target here (timing belongs to the benchmark)."""

from __future__ import annotations

import json

import pytest

from bench import agents, long_threads, middleware_steps
from bench.run import NEEDS, SECTIONS, main, render, runnable


@pytest.mark.integration
def test_smoke_run_writes_every_section(tmp_path, capsys):
    out = tmp_path / "result.json"
    # long_threads has its own test below (the same smoke configuration): not run twice
    asked = [name for name in filter(runnable, SECTIONS) if name != "long_threads"]
    assert main(["--smoke", "--no-postgres", "--only", ",".join(asked), "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["mode"] == "smoke"
    assert {"cpu", "usable_cores", "memory_gib", "python", "packages"} <= set(result["machine"])
    assert result["machine"]["packages"]["langgraph"]
    sections = result["sections"]
    # a section needing the bench extra (create_agent: langchain) runs where it is installed
    assert set(sections) == {*asked, "checkpoint_growth"}
    for name, section in sections.items():
        assert section["rows"], name
        for column in section["columns"]:  # some figures are only taken for some rows
            assert any(column in row for row in section["rows"]), (name, column)
        for check in section["checks"]:
            assert {"target", "value", "limit", "met"} <= set(check)
            assert isinstance(check["met"], bool)
    assert {row["pattern"] for row in sections["overhead"]["rows"]} == set(result["trajectories"])
    assert all(row["same_results"] for row in sections["retrieval"]["rows"])
    assert all(row["failed"] == 0 for row in sections["concurrency"]["rows"])
    assert [row["store"] for row in sections["checkpoint_growth"]["rows"]] == ["memory", "sqlite"]
    if "create_agent" in sections:
        rows = sections["create_agent"]["rows"]
        assert {(r["store"], r["steps"]) for r in rows} == {
            (store, steps) for store in ("none", "memory", "sqlite") for steps in (2, 6)
        }
        assert {"supervisor", "create_agent", "create_agent_hitl"} <= {r["variant"] for r in rows}
        # the Supervisor's gateway nodes make it several supersteps per tool step, create_agent ~2
        for r in rows:
            assert r["supersteps"] > r["steps"], r
    if "middleware_steps" in sections:
        rows = sections["middleware_steps"]["rows"]
        assert {r["variant"] for r in rows} == {v.name for v in middleware_steps.variants()}
        # every variant's tool step runs the model and the tools; HITL adds its after_model node, the
        # governed one none (its review runs in the model's node), only its two nodes a run
        assert all({"model", "tools"} <= set(r["nodes_per_step"].split()) for r in rows)
        nodes = {r["variant"]: r["nodes_per_step"] for r in rows}
        assert nodes["create_agent_governance"] == nodes["create_agent"] == "model tools"
        assert nodes["create_agent_hitl"] == "HumanInTheLoopMiddleware.after_model model tools"
        per_run = {r["variant"]: r["nodes_per_run"] for r in rows}
        assert per_run["create_agent_governance"] == (
            "GovernanceMiddleware.after_agent GovernanceMiddleware.before_agent"
        )
    markdown = render(result, markdown=True)
    assert "### Targets" in markdown and "| pattern |" in markdown
    assert "Targets" in capsys.readouterr().out


def test_unknown_section_is_a_clear_error(capsys):
    with pytest.raises(SystemExit):
        main(["--only", "nonsense"])
    assert "unknown section(s) nonsense" in capsys.readouterr().err


def test_a_section_whose_extra_is_missing_is_named_with_what_it_needs(monkeypatch, capsys):
    monkeypatch.setitem(NEEDS, "create_agent", (lambda: False, "langchain>=1"))
    with pytest.raises(SystemExit):
        main(["--only", "create_agent", "--smoke"])
    assert "section create_agent needs langchain>=1" in capsys.readouterr().err


def test_create_agent_variants_make_exactly_the_scripted_tool_calls():
    """Each variant of the create_agent section, run as the section runs it, makes the scripted
    tool calls and answers; a run checked against another step count fails its check."""
    pytest.importorskip("langchain.agents", reason="the bench extra (langchain>=1) is not installed")
    from langgraph.checkpoint.memory import InMemorySaver

    variants = [v for v in agents.variants() if v.build is not None]
    assert {"supervisor", "create_agent", "create_agent_hitl"} <= {v.name for v in variants}
    saver = InMemorySaver()
    for variant in variants:
        built = variant.build(3, saver)
        result = built.graph.invoke(built.given, {"configurable": {"thread_id": variant.name}})
        assert built.check(result), variant.name
        assert not variant.build(4, saver).check(result), variant.name
        if variant.name == "supervisor":
            made = [(c["tool"], c["args"]) for c in result["calls"]]
        else:
            made = [(c["name"], c["args"]) for m in result["messages"] for c in getattr(m, "tool_calls", [])]
        assert made == [agents.tool_call(step) for step in (1, 2, 3)], variant.name


@pytest.mark.integration
def test_long_threads_runs_every_variant_turn_by_turn_and_prints_its_targets(tmp_path):
    """The long-thread section in its smallest configuration: one thread per variant, every turn
    checked, bytes (the audit log's included) and per-turn time as ratios to create_agent, and the
    issue's targets at the longest thread."""
    pytest.importorskip("langchain.agents", reason="the bench extra (langchain>=1) is not installed")
    out = tmp_path / "long.json"
    assert main(["--smoke", "--only", "long_threads", "--no-postgres", "--out", str(out)]) == 0
    section = json.loads(out.read_text())["sections"]["long_threads"]
    rows = {(r["with_store"], r["turns"], r["variant"]): r for r in section["rows"]}
    names = long_threads.variants()
    assert set(rows) == {(kept, turns, name) for kept in (True, False) for turns in (2, 3) for name in names}
    for (kept, turns, name), row in rows.items():
        baseline = rows[(kept, turns, long_threads.BASELINE)]
        hitl = rows[(kept, turns, long_threads.HITL)]
        assert row["bytes_over_create_agent"] == round(row["bytes"] / baseline["bytes"], 2)
        assert row["bytes_over_hitl"] == round(row["bytes"] / hitl["bytes"], 2)
        assert row["checkpoints"] >= 5 * turns  # input, start, model, tools, model at the least
        # governed variants keep their audit in the store's log, which is counted (when there is one)
        assert (row["audit_log_kb"] > 0) == (kept and name in long_threads.GOVERNED), (kept, name)
    targets = [c["target"] for c in section["checks"]]
    # per setup: the middleware (bytes, time ÷ HITL), each Supervisor (bytes, time), each delta variant
    per_setup = 2 + 2 * len(long_threads.SUPERVISORS) + len(long_threads.DELTA)
    assert len(targets) == 2 * per_setup and all("sqlite" in t and "3 turns" in t for t in targets)


def test_a_long_thread_turn_that_strays_fails_its_check():
    pytest.importorskip("langchain.agents", reason="the bench extra (langchain>=1) is not installed")
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.store.memory import InMemoryStore

    for name, build in long_threads.variants().items():
        thread = build(InMemorySaver(), InMemoryStore())
        config = {"configurable": {"thread_id": name}}
        for turn in (1, 2):
            result = thread.graph.invoke({"messages": [("user", long_threads.request(turn))]}, config)
            assert thread.check(result, turn) and not thread.check(result, turn + 1), (name, turn)


def test_the_per_step_cost_is_the_slope_between_the_step_counts_and_the_fixed_cost_apart():
    """``bench.middleware_steps.marginal``: two runs of ``fixed + steps × per_step`` CPU ms give back
    both, whatever the fixed cost (a run's nodes, the turn's reading) spread over their steps."""
    from bench.middleware_steps import STEPS, marginal

    few, many = STEPS
    for fixed, per_step in ((0.0, 3.5), (2.4, 3.7), (9.0, 4.1)):
        rows = {(n, "v"): {"cpu_ms_per_step": (fixed + per_step * n) / n} for n in (few, many)}
        got_step, got_fixed = marginal(rows, "v")
        assert abs(got_step - per_step) < 1e-9 and abs(got_fixed - fixed) < 1e-9


def test_interleaved_runs_after_each_run_outside_its_timing():
    """What ``after`` drops (a run's checkpoints) is done after every run, warm-up included, and
    its time is not the run's."""
    import time

    from bench.agents import interleaved

    seen: list[str] = []
    timed = interleaved({"a": lambda: None}, 3, after=lambda name: (seen.append(name), time.sleep(0.02)))
    assert seen == ["a"] * 4
    assert timed["a"][0] < 0.01
