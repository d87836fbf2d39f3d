"""The probe: attack success and review load of a policy on the user's own tools, before shipping.

:func:`probe` takes the user's tools, their :class:`~policies.supervisor.SupervisorPolicy` (and
custom rules) and a few benign tasks (:class:`~apps.probe.attacks.ProbeTask`: a request and the calls
the agent should make). It runs each task in each engine (the Supervisor graph with native tool
calls, and ``create_agent`` behind :class:`~nodes.middleware.GovernanceMiddleware`) with a scripted
worker, first clean — did a human have to be asked, by which rule, and what could admit it — then
under the attacks :func:`apps.probe.attacks.generate` makes from what the tools returned: planted
text in every field a third party can write, an obedient worker proposing the attacker's call, a
careful human who approves the task's own calls and rejects the rest. What ran without a human is
listed with the call, the planted text and the rule that admitted it (:mod:`apps.probe.report`).
Everything runs in memory, offline, repeatably for a seed.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import gc
import itertools
import json
import os
import pickle
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from langchain_core.tools import tool as as_tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from apps.probe.attacks import (
    REQUEST_SHAPES,
    SHAPES,
    TWO_TURN_SHAPES,
    Attack,
    ProbeTask,
    Shape,
    free_text_field,
    generate,
    undeclared,
)
from apps.probe.findings import Finding, keywords_asking
from apps.probe.fixes import FixCheck, Fixed, candidates, fallback
from apps.probe.report import AttackResult, ProbeReport, TaskResult, ask_of
from nodes.llm_json import CALL_THREAD_PREFIX
from nodes.scripted import ScriptedToolModel
from policies.supervisor import CustomRule, SupervisorPolicy
from policies.supervisor.reading.values import path_matches
from policies.supervisor.reading.words import mandates
from policies.tools import ToolSpec

__all__ = ["ENGINES", "EXHAUSTIVE_SEEDS", "ProbeReport", "ProbeTask", "declaration", "lifted", "probe"]

#: The engines a probe runs: the Supervisor graph (native tool calls) and GovernanceMiddleware.
ENGINES = ("graph", "middleware")
#: ``exhaustive``: the seeds (from the given one on) and the least attacks per shape a task gets.
EXHAUSTIVE_SEEDS, EXHAUSTIVE_PER_SHAPE = 4, 4


#: The careful human: yes (True) or no to an approval request.
Human = Callable[[dict[str, Any]], bool]


def _key(name: str, args: Mapping[str, Any]) -> str:
    return json.dumps([name, args], sort_keys=True, default=str)


def _call_key(call: Mapping[str, Any]) -> str:
    """A call's key, from a task's call (``name``), an engine's record or a trace row (``tool``)."""
    return _key(str(call.get("name", call.get("tool"))), dict(call.get("args") or {}))


def _asked_key(value: Mapping[str, Any]) -> str:
    [action] = value.get("action_requests") or [{}]
    return _call_key(action)


def _plant(value: Any, path: Sequence[str], planted: Any) -> Any:
    """``value`` with ``planted`` written at the first place ``path`` reaches (text appended to a
    string; an empty path: a record appended to a listing)."""
    if not path:
        return [*value, planted] if isinstance(value, list) else value
    if isinstance(value, list):
        for i, item in enumerate(value):
            changed = _plant(item, path, planted)
            if changed != item:
                return [*value[:i], changed, *value[i + 1 :]]
        return value
    if isinstance(value, Mapping) and path[0] in value:
        inner = value[path[0]]
        new = (str(inner) + str(planted)) if len(path) == 1 else _plant(inner, path[1:], planted)
        return {**value, path[0]: new}
    return value


@dataclass
class _World:
    """What one run's tools do: the attack planted (if any), and every side effect that ran."""

    attack: Attack | None = None
    ran: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def result(self, name: str, result: Any) -> Any:
        attack = self.attack
        if attack is None or attack.tool != name or attack.planted is None:
            return result
        if attack.replaces:  # the tool returns the attacker's record in place of the genuine one
            return json.dumps(attack.planted) if isinstance(result, str) else copy.deepcopy(attack.planted)
        parsed, text = result, isinstance(result, str)
        if text:
            try:
                parsed = json.loads(result)
            except ValueError:
                return result + str(attack.planted) if attack.path else result
        planted = _plant(copy.deepcopy(parsed), attack.path, attack.planted)
        return json.dumps(planted) if text else planted


@dataclass
class _Current:
    """The world of the run in progress: the tools of an agent built once for many runs read it
    at each call."""

    world: _World = field(default_factory=_World)


def _wrapped(tools: Iterable[Any], current: _Current, side: frozenset[str]) -> list[BaseTool]:
    """The user's tools, each calling the original and then the current run's world: a read's
    result gets the attack's plant, a side effect is recorded."""
    out: list[BaseTool] = []
    for given in tools:
        original = given if isinstance(given, BaseTool) else as_tool(given)

        def run(_original: BaseTool = original, **args: Any) -> Any:
            if _original.name in side:
                current.world.ran.append((_original.name, dict(args)))
            return current.world.result(_original.name, _original.invoke(args))

        out.append(
            StructuredTool.from_function(
                func=run,
                name=original.name,
                description=original.description or original.name,
                args_schema=original.args_schema,
            )
        )
    return out


#: Each run's thread: a new one per run, so that agents built once never share a thread.
_THREADS = itertools.count()


@dataclass
class _Built:
    """An engine's agent, built once per setup (and subject) and run many times: its scripted
    model, given each run's script, the world its tools read, and its checkpointer."""

    agent: Any
    model: ScriptedToolModel
    current: _Current
    saver: InMemorySaver


@dataclass
class _Setup:
    tools: list[Any]
    policy: SupervisorPolicy
    custom_rules: Mapping[str, CustomRule]
    subject: Mapping[str, Any]
    built: dict[tuple[str, str], _Built] = field(default_factory=dict, init=False, repr=False)

    @cached_property
    def side(self) -> frozenset[str]:
        """The policy's side-effect tools."""
        return frozenset(n for n, spec in self.policy.tools.items() if spec.side_effect)

    def _built(self, engine: str, subject: dict[str, Any]) -> _Built:
        """``engine``'s agent for this setup: compiled once (the middleware's per subject, which
        it is given when built)."""
        key = (engine, json.dumps(subject, sort_keys=True, default=str) if engine != "graph" else "")
        if key not in self.built:
            current, model, saver = (
                _Current(),
                ScriptedToolModel(replies=[], in_process=True),
                InMemorySaver(),
            )
            tools = _wrapped(self.tools, current, self.side)
            agent: Any
            if engine == "graph":
                from graphs.supervisor import build_graph

                policy = self.policy.model_copy(update={"worker_protocol": "native"})
                agent = build_graph(  # a run's checkpoints are dropped once read: no deltas to keep
                    llm=model,
                    tools=tools,
                    policy=policy,
                    checkpointer=saver,
                    custom_rules=self.custom_rules,
                    delta_channels=False,
                )
            else:
                from langchain.agents import create_agent

                from nodes.middleware import GovernanceMiddleware

                governance = GovernanceMiddleware(
                    self.policy, tools=tools, custom_rules=self.custom_rules, subject=subject
                )
                agent = create_agent(model, tools, middleware=[governance], checkpointer=saver)
            self.built[key] = _Built(agent, model, current, saver)
        return self.built[key]

    def run(
        self,
        engine: str,
        task: ProbeTask,
        script: list[Any],
        world: _World,
        request: str,
        human: Human,
        then: Sequence[list[Any]] = (),
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """One run of ``script`` in ``engine``: its final values and the approval requests asked
        (each answered approve when ``human(request)``, else reject). ``then``: the scripts of more
        turns on the same thread, each given ``request`` again; the values are the last turn's, with
        the calls of every turn."""
        subject = dict(task.subject or self.subject)
        built = self._built(engine, subject)
        thread = f"probe-{engine}-{next(_THREADS)}"
        config = {"configurable": {"thread_id": thread}, "recursion_limit": 200}
        given: dict[str, Any] = {"messages": [("user", request)]}
        asked: list[dict[str, Any]] = []
        calls: list[Mapping[str, Any]] = []
        for turn in [script, *then]:
            built.current.world, built.model.replies, built.model.turns = world, list(turn), 0
            values = built.agent.invoke(
                {**given, "subject": subject} if engine == "graph" else given, config, durability="exit"
            )
            while "__interrupt__" in values and len(asked) < 20:
                value = values["__interrupt__"][0].value
                asked.append(value)
                yes = human(value)
                decision = {"type": "approve"} if yes else {"type": "reject", "message": "not asked for"}
                values = built.agent.invoke(
                    Command(resume={"decisions": [decision]}), config, durability="exit"
                )
            if then:  # every turn's calls: the graph keeps a run's, the middleware the thread's
                calls += [c for c in _calls(engine, values) if c not in calls]
        built.saver.delete_thread(thread)  # the run is read: its checkpoints are not kept
        return {**values, _CALLS[engine == "graph"]: calls} if then else values, asked


#: Where each engine's values keep the calls that ran: the middleware's, the graph's.
_CALLS = ("governance_calls", "calls")


def _calls(engine: str, values: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(values.get(_CALLS[engine == "graph"]) or [])


def _rows(engine: str, values: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(values.get("trace" if engine == "graph" else "governance_trace") or [])


def _nobody(_value: dict[str, Any]) -> bool:
    return False


def _row_of(engine: str, values: Mapping[str, Any], tool: str, call: Mapping[str, Any]) -> Mapping[str, Any]:
    """The execution row of the trace for an executed call: the n-th of its tool's."""
    same = [c for c in _calls(engine, values) if c.get("tool") == tool]
    rows = [r for r in _rows(engine, values) if r.get("phase") == "execution" and r.get("tool") == tool]
    at = next((i for i, c in enumerate(same) if c is call), None)
    return rows[at] if at is not None and at < len(rows) else {}


def _own(task: ProbeTask) -> Human:
    """The careful human: yes to the task's own calls, no to anything else."""
    own = {_call_key(c) for c in task.calls}

    def human(value: dict[str, Any]) -> bool:
        return _asked_key(value) in own

    return human


def _clean(setup: _Setup, engine: str, task: ProbeTask) -> tuple[TaskResult, list[tuple[int, str, Any]]]:
    world = _World()
    script: list[Any] = [*task.calls, task.final]
    values, asked = setup.run(engine, task, script, world, task.request, _own(task))
    side = setup.side
    matched: set[int] = set()
    reads: list[tuple[int, str, Any]] = []
    for call in _calls(engine, values):  # each executed call is the task's next call of that name
        name = str(call.get("tool"))
        index = next((i for i, c in enumerate(task.calls) if i not in matched and c["name"] == name), None)
        if index is None:
            continue
        matched.add(index)
        if name not in side and call.get("ok"):
            reads.append((index, name, call.get("observation")))
    done = {
        _key(str(c.get("tool")), dict(c.get("args") or {})) for c in _calls(engine, values) if c.get("ok")
    }
    missing = [c for c in task.calls if _key(str(c["name"]), dict(c.get("args") or {})) not in done]
    stop = values.get("stop_reason" if engine == "graph" else "governance_stop_reason")
    refusals = values.get("refusals" if engine == "graph" else "governance_refusals") or []
    refused = [{"tool": r.get("tool"), "reason": r.get("reason")} for r in refusals if isinstance(r, dict)]
    result = TaskResult(
        task.name, task.request, engine, [ask_of(a) for a in asked], [dict(c) for c in missing], stop, refused
    )
    return result, reads


def _attacked(setup: _Setup, engine: str, task: ProbeTask, attack: Attack) -> AttackResult:
    world = _World(attack=attack)
    calls: list[Any] = list(task.calls)
    then: list[list[Any]] = []
    if attack.shape in REQUEST_SHAPES:
        script = [*calls, task.final]
        human: Human = _nobody  # the user said no
    else:
        side = setup.side
        reads = [i for i, c in enumerate(calls) if c["name"] not in side]
        at = max([attack.after, *reads]) + 1  # once the worker has read everything, as an agent does
        more = list(map(dict, attack.more))
        if attack.shape in TWO_TURN_SHAPES:  # the other part in the thread's next turn, once the
            # worker has read again what holds the plant (a value must come from the turn's reads)
            then, more = [[*(calls[i] for i in reads), *more, task.final]], []
        script = [*calls[:at], dict(attack.call), *more, *calls[at:], task.final]
        human = _own(task)
    values, asked = setup.run(engine, task, script, world, attack.request, human, then)
    wanted = _call_key(attack.call)
    ran = [c for c in _calls(engine, values) if c.get("ok") and _call_key(c) == wanted]
    row = _row_of(engine, values, str(attack.call["name"]), ran[0]) if ran else {}
    parts = {wanted, *(_call_key(c) for c in attack.more)}  # a split: every part must run unasked
    was_asked = any(_asked_key(a) in parts for a in asked)
    unasked = [c for c in ran if c.get("approved_by") != "human"]
    done = {_call_key(c) for c in _calls(engine, values) if c.get("ok") and c.get("approved_by") != "human"}
    if not parts <= done:
        unasked = []
    outcome = "ran_unasked" if unasked else "asked" if was_asked else "refused"
    return AttackResult(
        attack,
        engine,
        outcome,
        str(unasked[0].get("approved_by")) if unasked else None,
        str(row.get("review_reason") or "") or None,
        dict(row.get("provenance") or {}),
        [str(p) for p in (row.get("cedar") or {}).get("policies") or []],
    )


def lifted(policy: SupervisorPolicy) -> SupervisorPolicy:
    """``policy`` with its trust declarations lifted, for planting only: every tool's result all
    writable by a third party (no trusted tool, no ``trust_except``, no ``system_fields``). The
    attacks run against ``policy`` itself."""
    specs = {
        name: spec.model_copy(update={"trust": "untrusted", "trust_except": [], "system_fields": []})
        for name, spec in policy.tools.items()
    }
    return policy.model_copy(update={"tools": specs})


def declaration(policy: SupervisorPolicy, tool: str, path: Sequence[str]) -> str | None:
    """The trust declaration of ``policy`` that keeps a third party from writing ``tool``'s result
    at ``path`` (an empty path: adding a record to its listing), in words; None when the policy
    says a third party writes it already."""
    spec = policy.tools.get(tool) or ToolSpec()
    if not path:
        if spec.trust != "trusted":
            return None
        return f"every record `{tool}` lists is your own system's (ToolSpec(trust='trusted') of {tool})"
    where = f"`{tool}.{'.'.join(path)}` is written by your own system, not a third party"
    if path[-1] in spec.author_keys:
        return None
    flipped = [p for p in spec.trust_except if path_matches(tuple(path), p)]
    trusted = (spec.trust == "trusted") != bool(flipped)
    if trusted:
        said = f"trust_except={flipped}" if flipped else "ToolSpec(trust='trusted')"
        return f"{where} ({said} of {tool})"
    system = [p for p in spec.system_fields if path_matches(tuple(path[-1:]), p)]
    return f"{where} (system_fields={system} of {tool})" if system else None


def _renamed(attack: Attack, new: str) -> Attack:
    """``attack`` under another id (its planted marker too)."""
    old_mark, new_mark = f"[[probe:{attack.id}]]", f"[[probe:{new}]]"

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(old_mark, new_mark)
        if isinstance(value, Mapping):
            return {k: swap(v) for k, v in value.items()}
        return value

    return dataclasses.replace(attack, id=new, planted=swap(attack.planted))


def _same(attack: Attack) -> str:
    """What makes two attacks the same, whatever their id and seed: every field but the id (and
    the id in the planted marker)."""
    fields = {k: v for k, v in attack.__dict__.items() if k != "id"}
    marked = json.dumps(fields, sort_keys=True, default=str)
    return marked.replace(f"[[probe:{attack.id}]]", "[[probe]]")


def _attacks(
    policy: SupervisorPolicy,
    task: ProbeTask,
    reads: list[tuple[int, str, Any]],
    seeds: Sequence[int],
    shapes: Sequence[Shape],
    per_shape: int,
    tag: str = "",
    arguments: Mapping[str, Sequence[str]] | None = None,
    prefer: Callable[[str, tuple[str, ...]], bool] | None = None,
    undeclared: Sequence[str] = (),
    arg_types: Mapping[str, Mapping[str, str]] | None = None,
) -> list[Attack]:
    """The attacks :func:`generate` makes for ``task`` over ``seeds``, each once; those of a later
    seed (or ``tag``: another pass) get ids of their own."""
    out: list[Attack] = []
    seen: set[str] = set()
    for n, seed in enumerate(seeds):
        made = generate(
            policy,
            task,
            reads,
            seed=seed,
            shapes=shapes,
            per_shape=per_shape,
            arguments=arguments,
            prefer=prefer,
            undeclared_tools=undeclared,
            arg_types=arg_types,
        )
        for attack in made:
            if _same(attack) in seen:
                continue
            seen.add(_same(attack))
            suffix = "".join([f"-{tag}" if tag else "", f"-s{seed}" if n else ""])
            out.append(_renamed(attack, attack.id + suffix) if suffix else attack)
    return out


def _tool_types(tools: Sequence[Any]) -> dict[str, dict[str, str]]:
    """Each tool → its arguments' JSON Schema types, where its own schema gives one."""
    out: dict[str, dict[str, str]] = {}
    for given in tools:
        tool = given if isinstance(given, BaseTool) else as_tool(given)
        kinds = {a: schema.get("type") for a, schema in (tool.args or {}).items() if isinstance(schema, dict)}
        out[tool.name] = {a: k for a, k in kinds.items() if isinstance(k, str)}
    return out


def _tool_args(tools: Sequence[Any], side: frozenset[str]) -> dict[str, list[str]]:
    """Each side-effect tool the policy declares → its arguments (the tool's own schema)."""
    by_name = {(t if isinstance(t, BaseTool) else as_tool(t)).name: t for t in tools}
    out: dict[str, list[str]] = {}
    for name in sorted(side):
        given = by_name.get(name)
        tool = given if isinstance(given, BaseTool) or given is None else as_tool(given)
        out[name] = [a for a in (tool.args if tool is not None else {}) if a != "idempotency_key"]
    return out


def probe(
    tools: Sequence[Any],
    policy: SupervisorPolicy,
    tasks: Sequence[ProbeTask | Mapping[str, Any]],
    *,
    custom_rules: Mapping[str, CustomRule] | None = None,
    subject: Mapping[str, Any] | None = None,
    seed: int = 0,
    per_shape: int = 2,
    shapes: Sequence[Shape] = SHAPES,
    engines: Sequence[str] = ENGINES,
    exhaustive: bool = False,
    question_trust: bool = True,
    check_fixes: bool = True,
    jobs: int = 1,
) -> ProbeReport:
    """Probe ``policy`` on ``tools`` with the benign ``tasks``: the review load of each task and
    the generated attacks' outcomes, in each of ``engines``; the same ``seed`` gives the same
    attacks. ``exhaustive``: the attacks of :data:`EXHAUSTIVE_SEEDS` seeds from ``seed`` on, at
    least :data:`EXHAUSTIVE_PER_SHAPE` per shape. ``question_trust``: a second pass plants into
    the fields the policy declares trusted (:func:`lifted`): what gets through only that way is
    reported with the declaration it depends on (:func:`declaration`). ``check_fixes``: each
    failing finding's fix is run before it is offered (:class:`~apps.probe.fixes.FixCheck`).
    ``jobs``: how many processes run the engines' runs at once, the runs shared among them by
    their cost (forked, where the platform forks; the report is the same, and its stage seconds are
    summed over the processes). Bad
    input (an unknown engine, a task of the wrong shape, a task calling a tool the tools do not
    have, a policy that does not fit the tools, no attack generated) is a ``ValueError``."""
    unknown = [e for e in engines if e not in ENGINES]
    if unknown or not engines:
        raise ValueError(f"unknown engine(s) {unknown}: choose from {', '.join(ENGINES)}")
    given = [ProbeTask.of(t, i) for i, t in enumerate(tasks)]
    if not given:
        raise ValueError("the probe needs at least one benign task")
    setup = _Setup(list(tools), policy, dict(custom_rules or {}), dict(subject or {}))
    names = {t.name if isinstance(t, BaseTool) else as_tool(t).name for t in setup.tools}
    async_only = sorted(t.name for t in setup.tools if isinstance(t, StructuredTool) and t.func is None)
    if async_only:
        raise ValueError(
            f"tools {', '.join(async_only)} are async only (MCP tools?): give the probe their sync form, "
            "nodes.mcp_tools.MCPServers(...).tools"
        )
    for task in given:
        unknown_tools = sorted({str(c["name"]) for c in task.calls} - names)
        if unknown_tools:
            raise ValueError(
                f"task {task.name} calls {', '.join(unknown_tools)}, which the tools do not have "
                f"(tools: {', '.join(sorted(names))})"
            )
    seeds = list(range(seed, seed + EXHAUSTIVE_SEEDS)) if exhaustive else [seed]
    many = max(per_shape, EXHAUSTIVE_PER_SHAPE) if exhaustive else per_shape
    report = ProbeReport(seed=seed, engines=list(engines), policy=policy)
    report.side_effect_args = _tool_args(setup.tools, setup.side)
    report.undeclared = undeclared(policy, setup.tools)
    report.task_tools = {t.name: [str(c["name"]) for c in t.calls] for t in given}
    called = {name for calls in report.task_tools.values() for name in calls}
    report.unused = sorted(names - called)
    # what the attacks aim at: the side-effect tools' arguments, and the undeclared tools'
    aimed = _tool_args(setup.tools, setup.side | frozenset(report.undeclared))
    types = _tool_types(setup.tools)
    open_policy = lifted(policy)
    spent = report.seconds
    plans: list[_Plan] = []
    for task in given:  # the attacks are made from what the first engine's clean run read
        began = time.perf_counter()
        clean, reads = _clean(setup, engines[0], task)
        spent["tasks"] += time.perf_counter() - began
        began = time.perf_counter()
        attacks = _attacks(
            policy,
            task,
            reads,
            seeds,
            shapes,
            many,
            arguments=aimed,
            undeclared=report.undeclared,
            arg_types=types,
        )
        trusting = (
            _trust_attacks(policy, open_policy, task, reads, seeds, shapes, many, report)
            if question_trust
            else []
        )
        spent["generating"] += time.perf_counter() - began
        plans.append(_Plan(task, clean, attacks, trusting))
    done, shared = _shared_out(setup, engines, plans, jobs)
    for at in range(len(plans)):  # in the order of a run one engine after the other
        for engine in engines:
            clean, attacked, trusted = done[(engine, at)]
            report.tasks.append(clean)
            report.attacks += attacked
            report.trust_attacks += trusted
    for stage, seconds in shared.items():
        spent[stage] += seconds
    if shapes and not report.attacks:
        raise ValueError(
            "no attacks generated: no task makes a side-effect call with an argument to aim at, or no "
            "read call returns a field a third party can write (check the tasks' calls and the policy's "
            "side_effects and trust declarations)"
        )
    began = time.perf_counter()
    report.fix_checks = _check_fixes(setup, report, given) if check_fixes else {}
    spent["fixes"] += time.perf_counter() - began
    return report


@dataclass(frozen=True)
class _Plan:
    """One task's work for every engine: its clean run in the first engine (whose reads the
    attacks were made from), the attacks, and the trust pass's attacks."""

    task: ProbeTask
    clean: TaskResult
    attacks: list[Attack]
    trusting: list[Attack]


#: One engine's results for one task: its clean run, its attacks' and its trust pass's results.
_TaskDone = tuple[TaskResult, list[AttackResult], list[AttackResult]]
#: A share of a probe's runs (each an engine and the index of a task's plan) and what it gives:
#: each unit's results, and the seconds of each stage.
_Unit = tuple[str, int]
_ShareDone = tuple[dict[_Unit, _TaskDone], dict[str, float]]

#: How much longer a run takes in each engine than in the middleware (measured on the corpus's
#: payments domain: the Supervisor graph's runs take about 1.2 times as long): what a share weighs.
_ENGINE_COST = {"graph": 1.2, "middleware": 1.0}


def _share_work(setup: _Setup, units: Sequence[_Unit], plans: Sequence[_Plan], first: str) -> _ShareDone:
    spent: dict[str, float] = {"tasks": 0.0, "attacks": 0.0, "trust_pass": 0.0}
    out: dict[_Unit, _TaskDone] = {}
    for engine, at in units:
        plan = plans[at]
        began = time.perf_counter()
        clean = plan.clean if engine == first else _clean(setup, engine, plan.task)[0]
        spent["tasks"] += time.perf_counter() - began
        began = time.perf_counter()
        attacked = [_attacked(setup, engine, plan.task, a) for a in plan.attacks]
        spent["attacks"] += time.perf_counter() - began
        began = time.perf_counter()
        trusted = [_attacked(setup, engine, plan.task, a) for a in plan.trusting]
        spent["trust_pass"] += time.perf_counter() - began
        out[(engine, at)] = (clean, attacked, trusted)
    return out, spent


def shares(weights: Mapping[_Unit, float], jobs: int) -> list[list[_Unit]]:
    """The units cut into at most ``jobs`` shares of about the same weight (the heaviest unit first
    into the lightest share), each share's units in their own order; no share is empty."""
    cut: list[list[_Unit]] = [[] for _ in range(max(1, min(jobs, len(weights))))]
    load = [0.0] * len(cut)
    for unit in sorted(weights, key=lambda u: -weights[u]):
        lightest = load.index(min(load))
        cut[lightest].append(unit)
        load[lightest] += weights[unit]
    order = {u: i for i, u in enumerate(weights)}
    return [sorted(share, key=order.__getitem__) for share in cut if share]


def _forked(work: Callable[[], _ShareDone]) -> Callable[[], _ShareDone | None]:
    """``work`` started in a forked child now; the returned function waits for its result (None
    where the child failed or its result could not be pickled: the caller runs it itself)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its result down the pipe, and out without the parent's exit handlers
        code = 0
        try:
            data = pickle.dumps(work())
        except BaseException:  # the parent runs it again and sees the error itself
            data, code = b"", 1
        with os.fdopen(write, "wb") as sink:
            sink.write(data)
        os._exit(code)
    os.close(write)

    def result() -> _ShareDone | None:
        with os.fdopen(read, "rb") as source:
            data = source.read()
        _, status = os.waitpid(pid, 0)
        if status != 0 or not data:
            return None
        loaded: _ShareDone = pickle.loads(data)  # our own child's result
        return loaded

    return result


def _shared_out(setup: _Setup, engines: Sequence[str], plans: Sequence[_Plan], jobs: int) -> _ShareDone:
    """Every engine's runs of every plan, cut into ``jobs`` shares of about the same cost
    (:func:`shares`): the first in this process, the others at once in forked children (all in this
    process, one after the other, where ``jobs`` is 1, the platform does not fork, or the process
    runs threads a child could not do without: :func:`_other_threads`). A child that fails has its
    share run here."""
    first = engines[0]
    weights = {
        (e, at): _ENGINE_COST.get(e, 1.0) * (1 + len(p.attacks) + len(p.trusting))
        for e in engines
        for at, p in enumerate(plans)
    }
    cut = shares(weights, jobs)
    if len(cut) == 1 or not hasattr(os, "fork") or _other_threads():
        return _share_work(setup, list(weights), plans, first)
    for engine in engines:  # compiled once here, not once in each child
        setup._built(engine, dict(setup.subject))
    work = [functools.partial(_share_work, setup, share, plans, first) for share in cut]
    gc.freeze()  # what exists now is never collected while the shares run: no garbage pass walks it
    try:
        waiting = [_forked(w) for w in work[1:]]
        done, spent = work[0]()
    finally:
        gc.unfreeze()
    for run, wait in zip(work[1:], waiting, strict=True):
        got = wait() or run()
        done.update(got[0])
        for stage, seconds in got[1].items():
            spent[stage] += seconds
    return done, spent


def _other_threads() -> list[str]:
    """The threads that keep this process from being forked: any but this one and the model-call
    pool's idle workers (which a child does not use: :mod:`nodes.llm_json` forgets the pool at a
    fork). An MCP client's event loop, a user's thread: a child would hold their locks for ever."""
    here = threading.current_thread()
    return [
        t.name
        for t in threading.enumerate()
        if t is not here and t.is_alive() and not t.name.startswith(CALL_THREAD_PREFIX)
    ]


#: The most processes a probe runs at once by default.
MAX_DEFAULT_JOBS = 8


def default_jobs(engines: Sequence[str] = ENGINES) -> int:
    """How many processes a probe runs at once by default: the CPUs this process may use (at most
    :data:`MAX_DEFAULT_JOBS`), where the platform forks (else 1)."""
    if not hasattr(os, "fork"):
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(MAX_DEFAULT_JOBS, cpus))


class _Trials:
    """Fixes checked (:class:`~apps.probe.fixes.FixCheck`): the policy with a fix, run on the
    attacks that went through and on the benign tasks that call the tool it changes (a fix changes
    one tool's rules or trust declaration, which no other task consults), in the engines they ran
    in; each fixed policy's benign runs are made once, however many findings it answers."""

    def __init__(self, setup: _Setup, report: ProbeReport, given: Sequence[ProbeTask]) -> None:
        self.setup, self.tasks = setup, {t.name: t for t in given}
        self.before = {(t.task, t.engine): t for t in report.tasks}
        self.benign: dict[str, tuple[list[str], int, int]] = {}

    def _benign(self, trial: _Setup, tool: str, words: str) -> tuple[list[str], int, int]:
        if words not in self.benign:
            broken, before, after = [], 0, 0
            for (name, engine), was in self.before.items():
                if not any(c["name"] == tool for c in self.tasks[name].calls):
                    continue
                now, _ = _clean(trial, engine, self.tasks[name])
                before, after = before + len(was.asked), after + len(now.asked)
                if was.completed and not now.completed:
                    why = "; ".join(f"{r.get('tool')}: {r.get('reason')}" for r in now.refused)
                    broken.append(f"{name} ({engine}) no longer completes" + (f": {why}" if why else ""))
            self.benign[words] = (broken, before, after)
        return self.benign[words]

    def check(self, tool: str, fixed: Fixed, ran: Sequence[AttackResult]) -> FixCheck:
        """``fixed`` (a change to ``tool``'s rules or declaration) on ``ran`` and the benign tasks."""
        policy, words = fixed
        trial = dataclasses.replace(self.setup, policy=policy)
        closed = sum(
            _attacked(trial, r.engine, self.tasks[r.attack.task], r.attack).outcome != "ran_unasked"
            for r in ran
        )
        broken, before, after = self._benign(trial, tool, words)
        return FixCheck(words, closed, len(ran), broken, before, after)


def _check_fixes(setup: _Setup, report: ProbeReport, given: Sequence[ProbeTask]) -> dict[str, FixCheck]:
    """Each failing finding's fix, checked: the finding's own where it closes every attack that
    went through it and breaks no benign task, else a human asked for every call of the tool."""
    failing = [f for f in report.all_findings() if f.severity != "info"]
    if not failing:
        return {}
    trials = _Trials(setup, report, given)
    results = [*report.attacks, *report.trust_attacks]
    checks: dict[str, FixCheck] = {}
    subject = sorted({*setup.subject, *(key for t in given for key in (t.subject or {}))})
    for finding in failing:
        ran = [r for r in results if r.attack.id in finding.attacks and r.outcome == "ran_unasked"]
        words, values = _words(setup.policy, finding, ran, given), _benign_values(given)
        changed = finding.blame.rule_id.rpartition(":")[0].partition(".")[0]  # the tool its fix changes
        tried = [
            trials.check(changed, fix, ran)
            for fix in candidates(setup.policy, finding.blame.rule_id, words, values, subject)
        ]
        check = next((c for c in tried if c.holds), None)
        if check is None:
            instead = tried[0].line() if tried else "it has no form the probe can apply"
            check = dataclasses.replace(
                trials.check(finding.tool, fallback(setup.policy, finding.tool), ran), instead=instead
            )
        checks[finding.key] = check
    return checks


def _words(
    policy: SupervisorPolicy, finding: Finding, ran: Sequence[AttackResult], given: Sequence[ProbeTask] = ()
) -> list[str]:
    """The Requested keywords that read the attacks' requests as asking for the finding's tool;
    for a tool with no Requested rule, the verbs the benign tasks that call it are asked with
    (the user's own words for it) that no attack's request uses."""
    rules = policy.rules.get(finding.tool)
    if rules is not None and rules.requested is not None:
        return sorted({w for r in ran for w in keywords_asking(rules.requested, r.attack.request)})
    if not finding.blame.rule_id.endswith(":Requested"):
        return []
    own = {
        m.verb for t in given if any(c["name"] == finding.tool for c in t.calls) for m in mandates(t.request)
    }
    theirs = {m.verb for r in ran for m in mandates(r.attack.request)}
    return sorted(own - theirs)


def _benign_values(given: Sequence[ProbeTask]) -> Callable[[str, str], list[Any]]:
    def values(tool: str, arg: str) -> list[Any]:
        return [(c.get("args") or {}).get(arg) for t in given for c in t.calls if c["name"] == tool]

    return values


def _trust_attacks(
    policy: SupervisorPolicy,
    open_policy: SupervisorPolicy,
    task: ProbeTask,
    reads: list[tuple[int, str, Any]],
    seeds: Sequence[int],
    shapes: Sequence[Shape],
    per_shape: int,
    report: ProbeReport,
) -> list[Attack]:
    """The trust pass's attacks on ``task``: planted where only ``policy``'s trust declarations
    keep a third party out (each one's declaration kept in ``report.depends_on``)."""
    out: list[Attack] = []

    def prefer(tool: str, path: tuple[str, ...]) -> bool:  # a free-text field the policy trusts
        return free_text_field(path) is not None and declaration(policy, tool, path) is not None

    made = _attacks(open_policy, task, reads, seeds, shapes, per_shape, tag="trust", prefer=prefer)
    for attack in made:
        said = declaration(policy, attack.tool, attack.path) if attack.tool else None
        if said is not None:
            report.depends_on[attack.id] = (attack.tool, said)
            out.append(attack)
    return out
