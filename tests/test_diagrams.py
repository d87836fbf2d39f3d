"""The README's Mermaid diagrams are the compiled graphs' own (refresh: python -m graphs.diagrams --write)."""

from graphs.diagrams import README, refresh, stale
from graphs.registry import PATTERNS


def test_readme_diagrams_match_the_compiled_graphs():
    assert stale(README.read_text(encoding="utf-8")) == []


def test_a_changed_graph_is_detected():
    text = refresh(README.read_text(encoding="utf-8"))
    pattern = next(iter(PATTERNS))
    broken = text.replace(
        f"<!-- diagram:{pattern} -->\n```mermaid\n", f"<!-- diagram:{pattern} -->\n```mermaid\n%% old\n"
    )
    assert stale(broken) == [pattern]
