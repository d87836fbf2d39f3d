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


FIGURES = Figures()
