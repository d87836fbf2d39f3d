"""The benchmark harness in its smallest configuration: it runs every section end to end and writes a
well-formed result. No figure is checked against a target here (timing belongs to the benchmark)."""

from __future__ import annotations

import json

import pytest

from bench.run import SECTIONS, main, render


@pytest.mark.integration
def test_smoke_run_writes_every_section(tmp_path, capsys):
    out = tmp_path / "result.json"
    assert main(["--smoke", "--no-postgres", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["mode"] == "smoke"
    assert {"cpu", "usable_cores", "memory_gib", "python", "packages"} <= set(result["machine"])
    assert result["machine"]["packages"]["langgraph"]
    sections = result["sections"]
    assert set(sections) == {*SECTIONS, "checkpoint_growth"}
    for name, section in sections.items():
        assert section["rows"], name
        for column in section["columns"]:  # some figures are only taken for some rows
            assert any(column in row for row in section["rows"]), (name, column)
        for check in section["checks"]:
            assert {"target", "value", "limit", "met"} <= set(check)
            assert isinstance(check["met"], bool)
    assert {row["pattern"] for row in sections["overhead"]["rows"]} == set(result["trajectories"])
    assert all(row["same_results"] for row in sections["retrieval"]["rows"])
    assert all(row["failed"] == 0 for row in sections["concurrency"]["rows"])
    assert [row["store"] for row in sections["checkpoint_growth"]["rows"]] == ["memory", "sqlite"]
    markdown = render(result, markdown=True)
    assert "### Targets" in markdown and "| pattern |" in markdown
    assert "Targets" in capsys.readouterr().out


def test_unknown_section_is_a_clear_error(capsys):
    with pytest.raises(SystemExit):
        main(["--only", "nonsense"])
    assert "unknown section(s) nonsense" in capsys.readouterr().err
