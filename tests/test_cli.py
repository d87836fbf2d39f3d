"""The ``agent-patterns`` command line: progress, exact JSON, clear errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from apps.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def test_run_reflection_shows_progress_then_a_short_summary(capsys):
    assert main(["run", "reflection"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("reflection: thread ")
    for node in ("draft", "validate_draft", "review", "validate_review", "revise", "validate_patch"):
        assert any(line.split()[0] == node for line in lines[1:10] if line.strip()), node
    [decision] = [line for line in lines if line.split()[:1] == ["validate_review"]]
    assert decision.split()[1] == "revise" and "issue_count=1" in decision
    assert "patch_similarity=" in out
    assert "ok: success (revised_once)" in out and "model offline:deterministic-v1" in out
    assert lines[-1].startswith("each step, who decided and why: agent-patterns audit ")
    assert "(the whole result as JSON: agent-patterns show " in lines[-1]
    assert "{" not in out.split("ok: success")[1].split("answer:")[0]  # a summary, not the JSON result
    assert len(lines) < 20


def test_json_prints_exactly_the_result_on_stdout(capsys):
    assert main(["run", "reflection", "--json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)  # nothing else on stdout
    assert list(result)[:5] == ["run_id", "thread_id", "model", "status", "stop_reason"]
    for key in ("outcome", "answer", "phase", "trace", "history", "review_decision", "issues", "fix_plan"):
        assert key in result
    assert "draft" in captured.err  # progress went to stderr


def test_policy_file_json_and_toml(tmp_path, capsys):
    toml = tmp_path / "policy.toml"
    toml.write_text("auto_revision_enabled = false\n")
    assert main(["run", "reflection", "--json", "--policy", str(toml)]) == 1
    assert json.loads(capsys.readouterr().out)["stop_reason"] == "review_decision_denied_execution:revise"
    js = tmp_path / "policy.json"
    js.write_text('{"max_answer_chars": 430}')
    assert main(["run", "reflection", "--json", "--policy", str(js)]) == 1
    assert json.loads(capsys.readouterr().out)["stop_reason"] == "invalid_revised:too_long"


def test_input_file(tmp_path, capsys):
    data = tmp_path / "in.json"
    data.write_text(json.dumps({"goal": "", "incident_context": {}}))
    db = tmp_path / "runs.sqlite"
    with pytest.raises(SystemExit) as stop:  # read, and refused before anything is stored
        main(["run", "reflection", "--json", "--input", str(data), "--db", str(db)])
    assert stop.value.code == 2 and not db.exists()
    assert f"input file {str(data)!r}: input key goal is empty" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "content", "message"),
    [
        (["run", "nope"], None, "unknown pattern 'nope'"),
        (["run", "reflection", "--policy", "{path}"], '{"max_seconds": -1}', "max_seconds"),
        (["run", "reflection", "--policy", "{path}"], '{"max_secs": 5}', "max_secs: Extra inputs"),
        (["run", "reflection", "--policy", "{path}"], "{not json", "is not valid"),
        (["run", "reflection", "--policy", "{path}"], "[1, 2]", "must hold an object"),
        (["run", "reflection", "--policy", "/nonexistent/p.json"], None, "cannot read policy file"),
        (["run", "reflection", "--input", "{path}"], "x = [", "is not valid"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(tmp_path, capsys, args, content, message):
    path = tmp_path / ("p.toml" if content and content.startswith("x =") else "p.json")
    if content is not None:
        path.write_text(content)
    with pytest.raises(SystemExit) as exit_info:
        main([a.replace("{path}", str(path)) for a in args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("agent-patterns: error:") and message in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_bad_model_environment_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_TIMEOUT_SECONDS", "soon")
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "reflection"])
    assert exit_info.value.code == 2
    assert "OPENAI_TIMEOUT_SECONDS" in capsys.readouterr().err


def test_patterns_lists_reflection(capsys):
    assert main(["patterns"]) == 0
    assert capsys.readouterr().out.startswith("reflection")


@pytest.mark.integration
def test_console_script_end_to_end():
    """The installed console script, as a user runs it, in a fresh process, offline."""
    exe = Path(sys.executable).parent / "agent-patterns"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    done = subprocess.run(
        [str(exe), "run", "reflection", "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "ok" and result["outcome"] == "revised_once"
    gateway = [row["phase"] for row in result["trace"] if row.get("call") != "llm"]
    assert gateway == ["draft", "review", "revise", "finalize"]
    assert [row["phase"] for row in result["trace"] if row.get("call") == "llm"] == [
        "draft",
        "review",
        "revise",
    ]
    assert result["usage"]["llm_calls"] == 3 and result["usage"]["cost_usd"] == 0.0
