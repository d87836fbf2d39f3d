"""Section 11: the probe against policies it has never seen (issue 57). Four domains written apart
from the probe (``tests/probe_careless/``: banking, mail and calendar, an IT helpdesk, an online
shop), each with a careful policy, careless copies whose one mistake an attack exploits by hand,
and decoys that look careless and are not exploitable. Each policy is probed as a team probes its
own in CI (both engines, the default mode, fixes checked): what it finds (exit 1) and whether it
names the rule at fault, its false alarms on the careful policy, the decoys it passes (exit 0),
and the time."""

from __future__ import annotations

from bench.common import Section
from bench.context import Context


def run(ctx: Context) -> Section:
    from tests.probe_careless.bench import DOMAINS, measure

    section = Section(
        "probe_careless",
        "11. The probe on held-out careless policies, decoys and careful ones: both engines",
        [
            "domain",
            "mistakes",
            "exploitable",
            "found",
            "named_right",
            "false_alarms",
            "decoys",
            "decoys_passed",
            "seconds",
            "slowest_run_s",
        ],
    )
    smoke = ctx.settings.mode == "smoke"
    for domain in ("helpdesk",) if smoke else DOMAINS:
        got = measure(
            domain, engines=("graph",) if smoke else ("graph", "middleware"), first=1 if smoke else None
        )
        rows = got["rows"]
        hit = [r for r in rows if r["exploitable"]]
        found = [r for r in hit if r["exit"] == 1]
        decoys = got["decoys"]
        section.rows.append(
            {
                "domain": domain,
                "mistakes": len(rows),
                "exploitable": len(hit),
                "found": len(found),
                "named_right": sum(1 for r in found if r["named"]),
                "false_alarms": int(got["careful_exit"] != 0),
                "decoys": len(decoys),
                "decoys_passed": sum(1 for d in decoys if d["exit"] == 0 and not d["exploitable"]),
                "seconds": got["seconds"],
                "slowest_run_s": got["slowest_run"],
            }
        )
    total = sum(r["exploitable"] for r in section.rows)
    missed = total - sum(r["named_right"] for r in section.rows)
    section.check("exploitable mistakes not found with the rule named", missed, 0)
    section.check("false alarms on the careful policies", sum(r["false_alarms"] for r in section.rows), 0)
    return section
