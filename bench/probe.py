"""Section 9: what a probe costs (``agent-patterns probe``, docs/probe.md). The provenance corpus's
domains are policies for real tool sets: messaging (10 tools, 18 benign tasks) is the issue's
"policy of 10 tools and 20 tasks", payments (15 tools, 20 tasks) the larger one. Each is probed as a
user probes theirs (seed 0, two attacks per shape per task, both engines, the trust pass on as by
default, the runs shared among a process per CPU as the command line runs them: ``default_jobs``) and
timed end to end: wall seconds, runs (clean tasks, attacks and the trust pass's attacks, both
engines) and milliseconds per run."""

from __future__ import annotations

import time

from bench.common import Section
from bench.context import Context

DOMAINS = ("messaging", "payments")


def run(ctx: Context) -> Section:
    from apps.probe.runner import default_jobs, probe
    from tests.corpus_harness import Stage, probe_tasks
    from tests.injection.provenance_domains import DOMAINS as SPECS

    section = Section(
        "probe",
        "9. A probe of a policy: wall time on this machine, both engines",
        [
            "domain",
            "tools",
            "tasks",
            "attacks",
            "trust_attacks",
            "runs",
            "wall_s",
            "ms_per_run",
            "ran_unasked",
            "review_load",
        ],
    )
    for name in DOMAINS if ctx.settings.mode != "smoke" else DOMAINS[:1]:
        spec = SPECS[name]
        tools = spec.tools(Stage())  # type: ignore[arg-type]
        tasks = probe_tasks(name)
        if ctx.settings.mode == "smoke":
            tasks = tasks[:3]
        start = time.perf_counter()
        report = probe(
            tools, spec.policy(tools), tasks, subject=spec.subject or {}, seed=0, jobs=default_jobs()
        )
        wall = time.perf_counter() - start
        runs = len(report.tasks) + len(report.attacks) + len(report.trust_attacks)
        summary = report.summary()["graph"]
        section.rows.append(
            {
                "domain": name,
                "tools": len(tools),
                "tasks": len(tasks),
                "attacks": summary["attacks"],
                "trust_attacks": len(report.trust_attacks) // len(report.engines),
                "runs": runs,
                "wall_s": round(wall, 1),
                "ms_per_run": round(1000 * wall / runs, 1),
                "ran_unasked": len(report.ran_unasked),
                "review_load": summary["review_load"],
            }
        )
    return section
