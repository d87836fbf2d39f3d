"""Issue 58: a corpus domain deciding in Cedar. The payments domain's rules that map to Cedar
(``agent-patterns cedar export``: where each value may come from, and the thresholds that are not
cumulative) are moved into Cedar; what does not map stays in the policy's own rules, and each moved
``ArgSource`` stays only for the arithmetic it follows (its sources opened to ``any``, so that the
Cedar ``forbid`` alone says where a value may come from). Then every run of the domain's corpus
(each task clean and with its plants, an obedient worker, a careful human) goes through both
engines under each policy.

What holds: no planted goal is reached under Cedar, and every run decides exactly as under the
native rules: the same completion, the same questions, the same side effects. A Cedar ``forbid`` of
where a value came from asks where the native rule asks (a value held by a record the turn points
to: P1 under attack, P16 "pay the bill in bill-dec.txt", whose amount the export admits as
``followed``; an amount described in words the gateway cannot compute: P24). ``STRICTER`` lists
the runs where Cedar may still be stricter (refusing where the native rule asks): none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("cedarpy", reason="the cedar extra is not installed")

from policies.supervisor import SupervisorPolicy
from policies.supervisor.rules.cedar_export import admitted_labels, export_cedar
from tests.corpus_harness import CORPUS, Outcome, run_middleware, run_supervisor


def in_cedar(policy: SupervisorPolicy) -> SupervisorPolicy:
    """``policy`` with the rules its Cedar export maps moved into Cedar: each mapped ``ArgSource``
    opened to ``any`` (its arithmetic kept), each non-cumulative ``Threshold`` dropped; the rest as
    it was."""
    exported = export_cedar(policy)

    def moved(rule: Any) -> bool:
        derived_elsewhere = rule.derived and not set(rule.sources) <= {"request", "named"}
        return (
            admitted_labels(list(rule.sources), policy) is not None
            and rule.verdict != "escalate"
            and not (derived_elsewhere)
        )

    rules = {
        tool: r.model_copy(
            update={
                "arg_sources": [
                    s.model_copy(update={"sources": ["any"]}) if moved(s) else s for s in r.arg_sources
                ],
                "escalate_above": [t for t in r.escalate_above if t.cumulative],
            }
        )
        for tool, r in policy.rules.items()
    }
    return policy.model_copy(update={"rules": rules, "cedar": exported.text})


ENGINES: dict[str, Callable[[dict, bool, Any], Outcome]] = {
    "json": lambda task, planted, policy: run_supervisor(task, planted, "json", policy=policy),
    "native": lambda task, planted, policy: run_supervisor(task, planted, "native", policy=policy),
    "middleware": lambda task, planted, policy: run_middleware(task, planted, policy=policy),
}
RUNS = [
    (task, planted)
    for task in CORPUS
    if task["domain"] == "payments"
    for planted in ((False, True) if task["plants"] else (False,))
]
#: The runs, by ``<task>-<planted>``, where the native rule asks and the exported forbid refuses:
#: none since a forbid of where a value came from asks as the native rule does (it was P1 under
#: attack, P16 and P24, clean and planted).
STRICTER: set[str] = set()


def _shape(out: Outcome, task: dict) -> tuple[bool, int, list[dict]]:
    return out.completed(task), len(out.asked), out.effects


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_the_payments_domain_in_cedar_decides_as_its_native_rules(engine):
    run = ENGINES[engine]
    same, stricter = 0, set()
    for task, planted in RUNS:
        label = f"{task['id']}-{'planted' if planted else 'clean'}"
        native, cedar = run(task, planted, None), run(task, planted, in_cedar)
        assert not any(cedar.achieved(g) for g in task["goals"]) or not planted, (label, cedar.effects)
        if _shape(native, task) == _shape(cedar, task):
            same += 1
            continue
        # stricter: nothing ran under Cedar that did not run natively, and Cedar refused by a policy id
        assert all(e in native.effects for e in cedar.effects), (label, cedar.effects, native.effects)
        assert any("cedar_forbid:" in str(r.get("reason")) for r in cedar.refusals), (label, cedar.refusals)
        stricter.add(label)
    assert stricter == STRICTER, stricter ^ STRICTER
    assert same == len(RUNS) - len(STRICTER)
