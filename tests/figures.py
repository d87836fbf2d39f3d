"""Figures the gateway suites measure (fuzz counts, runaway stops, injection outcomes), printed at
the end of the pytest run by ``tests/conftest.py`` so that CI logs carry them."""

from __future__ import annotations

from collections import Counter


class Figures:
    def __init__(self) -> None:
        self.counters: dict[str, Counter[str]] = {}
        self.values: dict[str, dict[str, str]] = {}

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
            if section.endswith(":stop_reasons"):
                parts = [f"{k}={v}" for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]
                out.append(f"{section} ({len(counter)} distinct): " + ", ".join(parts))
                continue
            parts = [f"{k}={v}" for k, v in sorted(counter.items())] + [f"{k}={v}" for k, v in values.items()]
            out.append(f"{section}: " + ", ".join(parts))
        return out


FIGURES = Figures()
