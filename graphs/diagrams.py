"""Mermaid diagrams of the compiled graphs, kept in the README between markers.

python -m graphs.diagrams            # print every pattern's diagram
python -m graphs.diagrams --write    # refresh them in README.md
python -m graphs.diagrams --check    # exit 1 when the README is out of date
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from graphs.registry import PATTERNS

README = Path(__file__).resolve().parent.parent / "README.md"


def mermaid(pattern: str) -> str:
    return str(PATTERNS[pattern].module.graph.get_graph().draw_mermaid()).strip()


def _block(pattern: str) -> str:
    return f"<!-- diagram:{pattern} -->\n```mermaid\n{mermaid(pattern)}\n```\n<!-- /diagram:{pattern} -->"


def _marker(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"<!-- diagram:{pattern} -->.*?<!-- /diagram:{pattern} -->", re.DOTALL)


def refresh(text: str) -> str:
    """``text`` with every pattern's diagram block replaced by the current one."""
    for pattern in PATTERNS:
        block = _block(pattern).replace("\\", "\\\\")  # a replacement string, not a callable
        text = _marker(pattern).sub(block, text)
    return text


def stale(text: str) -> list[str]:
    """Patterns whose diagram is missing from ``text`` or differs from the compiled graph."""
    return [p for p in PATTERNS if (m := _marker(p).search(text)) is None or m.group(0) != _block(p)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--write", action="store_true", help="refresh the diagrams in README.md")
    parser.add_argument("--check", action="store_true", help="fail when README.md is out of date")
    args = parser.parse_args(argv)
    text = README.read_text(encoding="utf-8")
    if args.write:
        README.write_text(refresh(text), encoding="utf-8")
        text = README.read_text(encoding="utf-8")
    if args.check or args.write:
        missing = stale(text)
        if missing:
            print(f"README.md diagrams missing or out of date: {', '.join(missing)}", file=sys.stderr)
            return 1
        return 0
    for pattern in PATTERNS:
        print(f"## {pattern}\n{mermaid(pattern)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
