"""The held-out benchmark, measured: ``python -m tests.probe_careless.bench [--exhaustive]``
probes each domain's careful policy, each careless copy and each decoy (a copy that looks careless
and is not exploitable), and prints per domain the mistakes, how many an attack exploits by hand,
how many the probe finds (exit 1) with the rule named right, the false alarms on the careful
policy, the decoys it passes (exit 0) and the seconds."""

from __future__ import annotations

import argparse
import importlib
import time
from typing import Any

from apps.probe.runner import probe
from tests.probe_careless.common import Mistake, exploited

DOMAINS = ("banking", "mailcal", "helpdesk", "shop")


def named(report: Any, mistake: Mistake) -> bool:
    """Whether a finding that fails the run names the mistake's rule."""
    wanted = {mistake.rule, *mistake.accept}
    return any(f.blame.rule_id in wanted for f in report.failing())


def measure(
    domain: str,
    *,
    exhaustive: bool = False,
    engines: tuple[str, ...] = ("graph", "middleware"),
    first: int | None = None,
) -> dict[str, Any]:
    """The domain's figures (``first``: only its first mistakes and decoys, for a smoke run)."""
    m = importlib.import_module(f"tests.probe_careless.{domain}")
    start = time.perf_counter()
    careful = probe(m.tools, m.policy, m.tasks, subject=m.SUBJECT, exhaustive=exhaustive, engines=engines)
    runs = [time.perf_counter() - start]  # each probe run's seconds
    rows = []
    for mistake in m.MISTAKES[:first]:
        hand = exploited(m.tools, m.SIDE, mistake.policy, m.tasks, m.SUBJECT, mistake.exploit)
        began = time.perf_counter()
        report = probe(
            m.tools, mistake.policy, m.tasks, subject=m.SUBJECT, exhaustive=exhaustive, engines=engines
        )
        runs.append(time.perf_counter() - began)
        rows.append(
            {
                "mistake": mistake.name,
                "exploitable": hand,
                "exit": report.exit_code(),
                "named": named(report, mistake),
                "rules": sorted({f.blame.rule_id for f in report.failing()}),
            }
        )
    decoys = []
    for decoy in getattr(m, "DECOYS", [])[:first]:
        began = time.perf_counter()
        report = probe(
            m.tools, decoy.policy, m.tasks, subject=m.SUBJECT, exhaustive=exhaustive, engines=engines
        )
        runs.append(time.perf_counter() - began)
        decoys.append(
            {
                "decoy": decoy.name,
                "exploitable": exploited(m.tools, m.SIDE, decoy.policy, m.tasks, m.SUBJECT, decoy.attempt),
                "exit": report.exit_code(),
                "rules": sorted({f.blame.rule_id for f in report.failing()}),
            }
        )
    return {
        "domain": domain,
        "decoys": decoys,
        "careful_exit": careful.exit_code(),
        "careful_findings": [f.blame.rule_id for f in careful.failing()],
        "careful_not_completed": [t.name for t in careful.tasks if not t.completed],
        "rows": rows,
        "seconds": round(time.perf_counter() - start, 1),
        "slowest_run": round(max(runs), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--exhaustive", action="store_true")
    parser.add_argument("domains", nargs="*", default=list(DOMAINS))
    args = parser.parse_args()
    print(
        "| domain | mistakes | exploitable | found (exit 1) | rule named right | false alarms "
        "| decoys passed (exit 0) | seconds, all runs | slowest run |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for domain in args.domains:
        got = measure(domain, exhaustive=args.exhaustive)
        rows = got["rows"]
        hit = [r for r in rows if r["exploitable"]]
        found = [r for r in hit if r["exit"] == 1]
        right = [r for r in found if r["named"]]
        alarms = int(got["careful_exit"] != 0)
        decoys = got["decoys"]
        passed = [d for d in decoys if d["exit"] == 0 and not d["exploitable"]]
        print(
            f"| {domain} | {len(rows)} | {len(hit)} | {len(found)} | {len(right)} | {alarms} "
            f"| {len(passed)} of {len(decoys)} | {got['seconds']} | {got['slowest_run']} |"
        )
        for r in [*rows, *decoys]:
            print(f"<!-- {r} -->")
        if alarms:
            print(f"<!-- careful: {got['careful_findings']} not completed {got['careful_not_completed']} -->")


if __name__ == "__main__":
    main()
