"""Mermaid diagrams of the compiled graphs, kept in the README and ``docs/*.md`` between markers
(``<!-- diagram:NAME -->`` ... ``<!-- /diagram:NAME -->``).

python -m graphs.diagrams            # print every pattern's diagram
python -m graphs.diagrams --write    # refresh them in README.md and docs/*.md
python -m graphs.diagrams --check    # exit 1 when a file is out of date, or a pattern is drawn nowhere
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from graphs.registry import PATTERNS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def doc_files() -> list[Path]:
    """The README and every Markdown file in ``docs/``."""
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


def mermaid(pattern: str) -> str:
    return str(PATTERNS[pattern].module.graph.get_graph().draw_mermaid()).strip()


def diagram_block(pattern: str) -> str:
    """A pattern's diagram as a doc holds it: its Mermaid between the pattern's markers."""
    return f"<!-- diagram:{pattern} -->\n```mermaid\n{mermaid(pattern)}\n```\n<!-- /diagram:{pattern} -->"


def _marker(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"<!-- diagram:{pattern} -->.*?<!-- /diagram:{pattern} -->", re.DOTALL)


def drawn(text: str) -> list[str]:
    """Patterns whose diagram markers are in ``text``."""
    return [p for p in PATTERNS if _marker(p).search(text)]


def refresh(text: str) -> str:
    """``text`` with every pattern's diagram block replaced by the current one."""
    for pattern in PATTERNS:
        block = diagram_block(pattern).replace("\\", "\\\\")  # a replacement string, not a callable
        text = _marker(pattern).sub(block, text)
    return text


def stale(text: str) -> list[str]:
    """Patterns whose diagram in ``text`` differs from the compiled graph (any copy of it)."""
    return [p for p in PATTERNS if any(m.group(0) != diagram_block(p) for m in _marker(p).finditer(text))]


def problems(files: list[Path] | None = None) -> list[str]:
    """What ``--check`` reports: each stale diagram (file: pattern), and each pattern drawn in no file."""
    files = doc_files() if files is None else files
    found: set[str] = set()
    out = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        found.update(drawn(text))
        name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        out += [f"{name}: {p} is out of date" for p in stale(text)]
    out += [f"{p}: drawn in no file" for p in PATTERNS if p not in found]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--write", action="store_true", help="refresh the diagrams in README.md and docs/")
    parser.add_argument("--check", action="store_true", help="fail when a diagram is out of date or missing")
    args = parser.parse_args(argv)
    if args.write:
        for path in doc_files():
            text = path.read_text(encoding="utf-8")
            if refresh(text) != text:
                path.write_text(refresh(text), encoding="utf-8")
    if args.check or args.write:
        found = problems()
        for line in found:
            print(line, file=sys.stderr)
        return 1 if found else 0
    for pattern in PATTERNS:
        print(f"## {pattern}\n{mermaid(pattern)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
