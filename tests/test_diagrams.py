"""The Mermaid diagrams in the README and docs/*.md are the compiled graphs' own (refresh:
python -m graphs.diagrams --write)."""

import pytest

from graphs.diagrams import diagram_block, doc_files, drawn, problems, refresh, stale
from graphs.registry import PATTERNS


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: p.name)
def test_every_diagram_matches_its_compiled_graph(path):
    assert stale(path.read_text(encoding="utf-8")) == []


def test_every_pattern_is_drawn_somewhere():
    assert problems() == []
    assert set().union(*(drawn(p.read_text(encoding="utf-8")) for p in doc_files())) == set(PATTERNS)


def test_a_changed_graph_is_detected_and_refreshed():
    pattern = next(iter(PATTERNS))
    good = f"text\n{diagram_block(pattern)}\nmore"
    broken = good.replace(
        f"<!-- diagram:{pattern} -->\n```mermaid\n", f"<!-- diagram:{pattern} -->\n```mermaid\n%% old\n"
    )
    assert stale(broken) == [pattern]
    assert refresh(broken) == good and stale(good) == []


def test_a_pattern_drawn_nowhere_is_reported(tmp_path):
    empty = tmp_path / "x.md"
    empty.write_text("no diagrams")
    assert problems([empty]) == [f"{p}: drawn in no file" for p in PATTERNS]
    stale_file = tmp_path / "y.md"
    stale_file.write_text(refresh(f"{diagram_block('rag')}").replace("```mermaid\n", "```mermaid\n%% old\n"))
    assert f"{stale_file}: rag is out of date" in problems([stale_file])
