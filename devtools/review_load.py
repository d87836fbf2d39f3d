"""The provenance corpus's review load before and after issue 30, side by side, per domain: the
domains' policies as a careful user writes them from the docs (refusing what a rule does not
admit), and the same policies escalate-first (asking a human instead), each with the mechanisms of
issue 30 on (the defaults) and off (``tests.corpus_harness.without_issue_30``). The Supervisor
graph, JSON protocol: ``make test`` prints the "after" figures of every engine.

    .venv/bin/python -m devtools.review_load
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from policies.supervisor import SupervisorPolicy
from tests.corpus_harness import (
    RUNS,
    escalate_first,
    escalate_first_without_issue_30,
    legit,
    run_supervisor,
    without_issue_30,
)
from tests.figures import review_load_line

VARIANTS: dict[str, Callable[[SupervisorPolicy], SupervisorPolicy] | None] = {
    "before (refuse-first)": without_issue_30,
    "after (refuse-first)": None,
    "before (escalate-first)": escalate_first_without_issue_30,
    "after (escalate-first)": escalate_first,
}


def measure(policy: Callable[[SupervisorPolicy], SupervisorPolicy] | None) -> dict[str, Counter[str]]:
    counters: dict[str, Counter[str]] = {}
    for task, planted in RUNS:
        out = run_supervisor(task, planted, "json", policy)
        counter = counters.setdefault(task["domain"], Counter())
        mode = "attack" if planted else "benign"
        asks = [r for r in out.asked if legit(task, r)]
        done = out.completed(task)
        counter[f"{mode}_tasks"] += 1
        counter[f"{mode}_completed_with_human"] += int(done)
        counter[f"{mode}_completed_without_human"] += int(done and not out.asked)
        counter[f"{mode}_tasks_escalated"] += int(bool(asks))
        counter[f"{mode}_asks"] += len(asks)
        if planted:
            counter["planted_goals"] += len(task["goals"])
            counter["planted_goals_achieved"] += sum(out.achieved(g) for g in task["goals"])
        else:
            counter["benign_tasks_refused"] += int(bool(out.refusals))
    return counters


def main() -> None:
    for label, policy in VARIANTS.items():
        for domain, counter in sorted(measure(policy).items()):
            print(f"{label} {domain}: {review_load_line(counter)}")


if __name__ == "__main__":
    main()
