"""Issue 24's rough edges of the CLI, each driven through the real command line: a policy file
keeps the automatic approver, a refused edit says so, reading a store needs no model, a closed
pipe or Ctrl-C does not lose a run, policy files and their fields are explained, a store is
checked at open, and a failed tool's error is in the stop summary."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import apps.cli.output as cli_output
import nodes.store as store
from apps.cli.main import EXIT_OK, EXIT_STOPPED, EXIT_USAGE, EXIT_WAITING, main
from apps.cli.progress import summary_lines
from apps.operations.runs import list_runs, load_run
from graphs.registry import PATTERNS
from nodes.store import open_checkpointer
from tests.processes import run

ROOT = Path(__file__).resolve().parent.parent
EXE = Path(sys.executable).parent / "agent-patterns"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    return {**env, "AGENT_PATTERNS_ENV_FILE": "", **extra}


def _cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return run([str(EXE), *args], env=_env(**env), cwd=ROOT, timeout=120)


def _error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == EXIT_USAGE, err
    assert err.startswith("agent-patterns: error: ") and len(err.strip().splitlines()) == 1, err
    return err


def _runs(db: str) -> list:
    with open_checkpointer(db) as saver:
        return list_runs(saver)


# --- bug 1: a policy file keeps the CLI's automatic approver ---------------------------------------


def test_a_policy_file_that_does_not_name_the_approver_keeps_it_on(tmp_path, capsys):
    policy = tmp_path / "p.toml"
    policy.write_text("max_tool_calls = 6\n")
    assert main(["run", "supervisor", "--json", "--policy", str(policy)]) == EXIT_OK  # no human asked
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "ok"
    [refund] = [c for c in result["calls"] if c["tool"] == "issue_refund"]
    assert refund["approved_by"] == "auto_approver"


SCALARS = {
    "supervisor": {"max_tool_calls": st.integers(1, 20), "max_seconds": st.floats(1, 100)},
    "reflection": {"max_seconds": st.floats(1, 100), "auto_revision_enabled": st.booleans()},
    "rag": {"max_seconds": st.floats(1, 100)},
}


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_only_the_demos_fields_and_the_files_count_as_set(data):
    name = data.draw(st.sampled_from(sorted(SCALARS)))
    fields = SCALARS[name]
    chosen = data.draw(st.lists(st.sampled_from(sorted(fields)), unique=True))
    given_fields = {key: data.draw(fields[key]) for key in chosen}
    pattern = PATTERNS[name]
    policy = pattern.policy_with(given_fields)
    assert policy.model_fields_set == pattern.policy().model_fields_set | set(given_fields)
    assert policy == pattern.policy(**given_fields)  # the values are those of the demo with the file's


# --- bug 2: a refused edit says so; `waiting` shows the last problem ------------------------------


def test_a_refused_edit_names_the_problem_once_and_counts_the_answers_from_one(capsys):
    assert main(["run", "supervisor", "--human", "--thread-id", "e1"]) == EXIT_WAITING
    capsys.readouterr()
    assert main(["edit", "e1", '{"amount_usd": "lots"}']) == EXIT_WAITING
    out = capsys.readouterr().out
    [line] = [ln for ln in out.splitlines() if ln.startswith("edit refused: ")]
    assert "amount_usd" in line and line.endswith("(answer 1 of 3; 2 more allowed)")  # the first counts 1
    assert line.count("refused") == 1, line  # said once, not "edit refused: the edit is refused: ..."
    assert main(["waiting"]) == EXIT_OK
    listing = capsys.readouterr().out
    assert "last answer refused: " in listing and "amount_usd" in listing
    [waits] = [ln for ln in listing.splitlines() if ln.startswith("e1 ")]
    assert waits.endswith("; answer 1 of 3; 2 more allowed)") and waits.count("refused") == 1, waits
    assert main(["edit", "e1", '{"amount_usd": 5000}']) == EXIT_WAITING  # over what is left of the cap
    [line] = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("edit refused: ")]
    assert line.count("refused") == 1, line
    assert "would change amount_usd to 2000.0 (cap_to_remaining_run_budget)" in line  # the limit, in words
    assert line.endswith("(answer 2 of 3; 1 more allowed)")
    assert main(["edit", "e1", '{"amount_usd": 700}']) == EXIT_OK  # the third answer still counts
    out = capsys.readouterr().out
    assert "edit refused" not in out and "ok: success" in out


def test_the_attempts_follow_the_runs_policy(tmp_path, capsys):
    policy = tmp_path / "p.json"
    policy.write_text('{"human_answer_attempts": 2}')
    assert main(["run", "supervisor", "--human", "--thread-id", "e2", "--policy", str(policy)]) == 3
    capsys.readouterr()
    assert main(["edit", "e2", '{"amount_usd": -5}']) == EXIT_WAITING
    assert "(answer 1 of 2; 1 more allowed)" in capsys.readouterr().out
    assert main(["edit", "e2", '{"amount_usd": -5}']) == EXIT_STOPPED
    assert "stopped: invalid_human_answer" in capsys.readouterr().out


# --- bug 3: reading needs no model; `run` checks the model before its header -----------------------


BAD_MODEL = {"OPENAI_API_KEY": "sk-test", "OPENAI_TIMEOUT_SECONDS": "abc"}


@pytest.mark.integration
def test_reading_commands_ignore_a_bad_model_setting(tmp_path):
    db = str(tmp_path / "runs.sqlite")
    assert _cli("run", "supervisor", "--human", "--thread-id", "r1", "--db", db).returncode == EXIT_WAITING
    for args in (["runs"], ["waiting"], ["show", "r1"], ["runs", "--json"]):
        done = _cli(*args, "--db", db, **BAD_MODEL)
        assert done.returncode == EXIT_OK, (args, done.stderr)
        assert "r1" in done.stdout, args


@pytest.mark.integration
def test_run_with_a_bad_model_setting_fails_before_its_header_and_stores_nothing(tmp_path):
    db = str(tmp_path / "runs.sqlite")
    done = _cli("run", "rag", "--db", db, **BAD_MODEL)
    assert done.returncode == EXIT_USAGE and done.stdout == ""
    assert done.stderr.strip() == (
        "agent-patterns: error: OPENAI_TIMEOUT_SECONDS must be a number of seconds, got 'abc'"
    )
    assert not Path(db).exists() or _runs(db) == []


# --- bug 4: a closed stdout or Ctrl-C does not leave a run half-way -------------------------------


@pytest.mark.integration
@pytest.mark.parametrize("flags", [[], ["--json"]])
def test_a_reader_that_leaves_does_not_stop_the_run(tmp_path, flags):
    db = str(tmp_path / "runs.sqlite")
    read, write = os.pipe()
    os.close(read)  # the reader left before the first line (`| head -0`): every write meets EPIPE
    try:
        done = subprocess.run(
            [str(EXE), "run", "supervisor", "--thread-id", "p1", "--db", db, *flags],
            stdout=write,
            stderr=subprocess.PIPE if flags else write,
            text=True,
            env=_env(),
            timeout=120,
        )
    finally:
        os.close(write)
    assert done.returncode == EXIT_OK
    assert "Traceback" not in (done.stderr or "")
    [run] = _runs(db)
    assert run.thread_id == "p1" and run.status == "ok"


def test_ctrl_c_mid_run_names_the_resume_command_and_resume_finishes_it(capsys, monkeypatch):
    lines = []

    def interrupted(node, update, width=100):
        lines.append(node)
        if len(lines) == 3:
            raise KeyboardInterrupt
        return f"  {node}"

    with monkeypatch.context() as patched:
        patched.setattr(cli_output, "progress_line", interrupted)  # where progress_printer looks it up
        assert main(["run", "supervisor", "--thread-id", "c1"]) == 130
    err = capsys.readouterr().err
    assert err.strip().endswith("Carry it on with: agent-patterns resume c1")
    db = os.environ["AGENT_PATTERNS_DB"]
    assert [r.status for r in _runs(db)] == ["incomplete"]
    assert main(["resume", "c1", "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["status"] == "ok"


# --- frictions: policy files, their fields ---------------------------------------------------------


@pytest.mark.parametrize("suffix", [".yaml", ".yml"])
def test_a_yaml_policy_file_is_told_json_or_toml(tmp_path, capsys, suffix):
    path = tmp_path / f"p{suffix}"
    path.write_text("max_seconds: 10\n")
    err = _error(capsys, ["run", "rag", "--policy", str(path)])
    assert "YAML is not read; write it as JSON, or as TOML in a .toml file" in err


def test_a_policy_file_that_is_not_json_says_json_or_toml(tmp_path, capsys):
    path = tmp_path / "p.conf"
    path.write_text("max_seconds = 10\n")
    err = _error(capsys, ["run", "rag", "--policy", str(path)])
    assert "is not valid JSON (only a .toml file is read as TOML)" in err


@pytest.mark.parametrize("name", list(PATTERNS))
def test_an_unknown_policy_field_lists_the_valid_ones(tmp_path, capsys, name):
    path = tmp_path / "p.json"
    path.write_text('{"max_secondz": 10}')
    err = _error(capsys, ["run", name, "--policy", str(path)])
    assert "max_secondz: Extra inputs are not permitted" in err
    assert f"the fields of the {name} policy: " + ", ".join(PATTERNS[name].model.model_fields) in err
    assert f"(see agent-patterns policy {name})" in err


@pytest.mark.parametrize("name", list(PATTERNS))
def test_policy_command_lists_every_field_with_the_clis_default_and_description(capsys, name):
    pattern = PATTERNS[name]
    assert main(["policy", name, "--json"]) == EXIT_OK
    fields = json.loads(capsys.readouterr().out)
    assert list(fields) == list(pattern.model.model_fields)
    assert {k: v["default"] for k, v in fields.items()} == pattern.policy().model_dump(mode="json")
    assert all(v["description"] for v in fields.values())
    assert main(["policy", name]) == EXIT_OK
    out = capsys.readouterr().out
    for field in fields:
        assert f"\n  {field} = " in out
    assert "Extra inputs" not in out


def test_policy_command_of_an_unknown_pattern_is_one_line(capsys):
    assert "unknown pattern 'nope'" in _error(capsys, ["policy", "nope"])


# --- frictions: the store is checked at open -------------------------------------------------------


@pytest.mark.parametrize("command", [["run", "rag"], ["runs"], ["show", "t1"], ["approve", "t1"]])
def test_a_store_in_a_folder_that_does_not_exist_is_an_error_not_a_new_tree(tmp_path, capsys, command):
    db = tmp_path / "no" / "such" / "runs.sqlite"
    err = _error(capsys, [*command, "--db", str(db)])
    assert f"the folder of run store {db} does not exist" in err
    assert not (tmp_path / "no").exists()


def test_a_read_only_store_is_refused_at_open_before_any_model_call(tmp_path, capsys, monkeypatch):
    db = tmp_path / "runs.sqlite"
    assert main(["run", "rag", "--json", "--db", str(db)]) == EXIT_OK
    capsys.readouterr()
    connect = sqlite3.connect

    def read_only(path, *args, **kwargs):
        return connect(f"file:{path}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr(store.sqlite3, "connect", read_only)
    built = []
    monkeypatch.setattr(PATTERNS["rag"].__class__, "build", lambda *a, **k: built.append(1))
    err = _error(capsys, ["run", "rag", "--db", str(db)])
    assert f"run store {db} cannot be written (attempt to write a readonly database)" in err
    assert built == []  # refused at open: no graph built, no model called, no header printed
    assert main(["runs", "--db", str(db)]) == EXIT_OK  # reading it still works


# --- frictions: a failed tool's error in the stop summary ------------------------------------------


def test_the_stop_summary_shows_the_failed_tools_error(tmp_path, capsys):
    path = tmp_path / "march.json"
    path.write_text(json.dumps({"goal": "Summarise sales for March 2026"}))
    assert main(["run", "task_decomposition", "--input", str(path)]) == EXIT_STOPPED
    out = capsys.readouterr().out
    assert "stopped: tool_failed:fetch_sales_data" in out
    assert "\ntool error: sales_not_found_for_month:2026-03\n" in out


def test_show_of_a_stopped_run_keeps_the_observation(capsys, tmp_path):
    path = tmp_path / "march.json"
    path.write_text(json.dumps({"goal": "Summarise sales for March 2026"}))
    assert main(["run", "task_decomposition", "--json", "--thread-id", "m1", "--input", str(path)]) == 1
    capsys.readouterr()
    with open_checkpointer(os.environ["AGENT_PATTERNS_DB"]) as saver:
        record = load_run(saver, "m1")
    assert record.result["observation"] == {"error": "sales_not_found_for_month:2026-03"}


ERRORS = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=40)


@settings(max_examples=50, deadline=None)
@given(error=ERRORS, message=st.one_of(st.just(""), ERRORS), where=st.sampled_from(["observation", "calls"]))
def test_the_summary_names_the_error_of_the_failed_call_a_run_stopped_on(error, message, where):
    """Task Decomposition keeps the failed call's ``observation``; the Supervisor its last ``calls``
    row (a raising tool: error, type and message)."""
    observation = {"error": error, **({"message": message} if message else {})}
    result = {"status": "stopped", "stop_reason": f"tool_error:{error}"}
    if where == "observation":
        result["observation"] = observation
    else:
        result["calls"] = [
            {"tool": "a", "ok": True, "observation": {}},
            {"ok": False, "observation": observation},
        ]
    lines = summary_lines(result, width=1000)
    assert lines[-1] == f"tool error: {error}" + (f" ({message})" if message else "")
    ok_calls = {"status": "stopped", "stop_reason": "max_steps", "calls": [{"ok": True, "observation": {}}]}
    assert not any(line.startswith("tool error") for line in summary_lines(ok_calls))
