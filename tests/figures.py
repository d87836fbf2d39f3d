"""Figures the gateway suites measure (fuzz counts, runaway stops, injection outcomes), printed at
the end of the pytest run by ``tests/conftest.py`` so that CI logs carry them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable


class Figures:
    def __init__(self) -> None:
        self.counters: dict[str, Counter[str]] = {}
        self.values: dict[str, dict[str, str]] = {}
        #: section prefix → how its counters are told in words (instead of key=value pairs)
        self.formatters: dict[str, Callable[[Counter[str]], str]] = {}

    def count(self, section: str, key: str, n: int = 1) -> None:
        self.counters.setdefault(section, Counter())[key] += n

    def set(self, section: str, key: str, value: object) -> None:
        self.values.setdefault(section, {})[key] = str(value)

    def dump(self) -> dict[str, dict[str, dict[str, object]]]:
        """The figures as plain data (what a pytest-xdist worker can send to the controller)."""
        return {
            "counters": {k: dict(v) for k, v in self.counters.items()},
            "values": {k: dict(v) for k, v in self.values.items()},
        }

    def merge(self, dumped: dict[str, dict[str, dict[str, object]]] | None) -> None:
        """Add figures another process measured (:meth:`dump`): counts add up, values are set."""
        for section, counts in (dumped or {}).get("counters", {}).items():
            for key, n in counts.items():
                self.count(section, key, int(n))
        for section, values in (dumped or {}).get("values", {}).items():
            for key, value in values.items():
                self.set(section, key, value)

    def lines(self) -> list[str]:
        out: list[str] = []
        for section in sorted(set(self.counters) | set(self.values)):
            counter = self.counters.get(section, Counter())
            values = self.values.get(section, {})
            told = next((f for prefix, f in self.formatters.items() if section.startswith(prefix)), None)
            if told is not None:
                out.append(f"{section}: {told(counter)}")
                continue
            if section.endswith(":stop_reasons"):
                parts = [f"{k}={v}" for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]
                out.append(f"{section} ({len(counter)} distinct): " + ", ".join(parts))
                continue
            parts = [f"{k}={v}" for k, v in sorted(counter.items())] + [f"{k}={v}" for k, v in values.items()]
            out.append(f"{section}: " + ", ".join(parts))
        return out


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else f"{part}/0"


def review_load_line(counter: Counter[str]) -> str:
    """A domain's figures in words: attack success, utility with and without a human (benign and
    under attack), the review load (benign tasks a human was asked about) and asks per task."""
    benign, attack = counter["benign_tasks"], counter["attack_tasks"]
    asks = counter["benign_asks"] / benign if benign else 0.0
    attacked = (
        f"attack success {_pct(counter['planted_goals_achieved'], counter['planted_goals'])} planted goals; "
        if attack
        else ""
    )
    utility = (
        f"utility {_pct(counter['benign_completed_with_human'], benign)} with a human, "
        f"{_pct(counter['benign_completed_without_human'], benign)} without; "
    )
    under = (
        f"under attack {_pct(counter['attack_completed_with_human'], attack)} with a human, "
        f"{_pct(counter['attack_completed_without_human'], attack)} without; "
        if attack
        else ""
    )
    return (
        f"{attacked}{utility}{under}review load {_pct(counter['benign_tasks_escalated'], benign)} benign tasks "
        f"escalated, {asks:.2f} asks per task; benign tasks with a refusal "
        f"{_pct(counter['benign_tasks_refused'], benign)}"
    )


FIGURES = Figures()
#: told in words, in every process (the controller of a pytest-xdist run prints what workers counted)
FIGURES.formatters["review_load:"] = review_load_line
# The own-agent suite's policy asks a human by design (a payment above 500, every transfer): its
# asks are what the policy requires, not the review load of a policy written to ask little.
FIGURES.formatters["policy_asks:"] = review_load_line
