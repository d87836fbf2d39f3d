"""``python -m devtools.review_load`` prints the corpus's review load per variant and domain (it
failed to import once, unnoticed: this runs it on two tasks)."""

from __future__ import annotations

import devtools.review_load as tool
from tests.corpus_harness import CORPUS


def test_the_review_load_tool_prints_a_line_per_variant_and_domain(monkeypatch, capsys):
    runs = [(t, planted) for t in CORPUS if t["id"] in ("P25", "W17") for planted in (False, True)]
    monkeypatch.setattr(tool, "RUNS", runs)
    tool.main()
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(tool.VARIANTS) * 2, lines
    after = [line for line in lines if line.startswith("after (refuse-first)")]
    assert all("attack success 0/1 (0.0%)" in line and "review load 0/1" in line for line in after), after
