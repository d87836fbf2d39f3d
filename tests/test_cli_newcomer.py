"""The CLI as a newcomer meets it: fast answers, inputs to find, checked before anything is stored,
`.env` read, and no traceback at any boundary (one line, exit 2, the store untouched)."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
import typing
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.cli.inputs import DEFAULT_MAX_INPUT_BYTES, InputError, check_input
from apps.cli.main import load_env_file, main
from apps.cli.progress import progress_line, summary_lines
from apps.operations.runs import load_run
from graphs.registry import PATTERNS
from nodes.state import ChatInput
from nodes.store import open_checkpointer

ROOT = Path(__file__).resolve().parent.parent
EXE = Path(sys.executable).parent / "agent-patterns"
HEAVY = ("langgraph", "langchain_core", "langsmith", "psycopg", "langchain_openai", "openai", "pydantic")


def _error(capsys, argv: list[str]) -> str:
    """Run ``argv``; it must fail with one line on stderr and exit status 2."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2, err
    assert err.startswith("agent-patterns: error: ") and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and "\t" not in err
    return err


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    return {**env, **extra}


# --- fast: what each command imports ----------------------------------------------------------------

_PROBE = """
import json, sys
from apps.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
heavy = {HEAVY!r}
print("MODULES=" + json.dumps(sorted({{m.split(".")[0] for m in sys.modules}} & set(heavy))), file=sys.stderr)
"""


def _imports(args: list[str], db: str, **env: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(HEAVY=HEAVY), *args],
        capture_output=True,
        text=True,
        env=_env(AGENT_PATTERNS_DB=db, **env),
        cwd=ROOT,
        timeout=120,
    )
    line = next(ln for ln in done.stderr.splitlines() if ln.startswith("MODULES="))
    return json.loads(line.removeprefix("MODULES="))


@pytest.mark.integration
def test_help_patterns_and_input_import_no_langgraph_langchain_or_psycopg(tmp_path):
    db = str(tmp_path / "runs.sqlite")
    for args in (
        ["--help"],
        ["run", "--help"],
        ["patterns"],
        ["patterns", "--json"],
        *(["input", name] for name in PATTERNS),  # `input rag` imported LangChain (issue 24)
    ):
        assert _imports(args, db) == [], args
    assert not Path(db).exists()  # nor do they open the store


@pytest.mark.integration
def test_reading_commands_import_no_psycopg_or_openai_client_on_sqlite(tmp_path):
    db = str(tmp_path / "runs.sqlite")
    assert main(["run", "rag", "--json", "--thread-id", "t1", "--db", db]) == 0
    for args in (["runs"], ["waiting"], ["show", "t1"]):
        for env in ({}, {"OPENAI_API_KEY": "sk-test"}):  # reading calls no model, key or not (issue 24)
            loaded = _imports(args, db, **env)
            assert "psycopg" not in loaded and "openai" not in loaded and "langchain_openai" not in loaded, (
                args
            )


@pytest.mark.integration
def test_the_console_script_answers_help_quickly():
    """Not a timing assertion (see bench/ and docs/benchmarks.md): the installed script answers."""
    done = subprocess.run([str(EXE), "--help"], capture_output=True, text=True, env=_env(), timeout=30)
    assert done.returncode == 0 and "agent-patterns run reflection" in done.stdout


# --- inputs you can find -----------------------------------------------------------------------------


def test_patterns_lists_every_pattern_with_its_input_keys_and_types(capsys):
    assert main(["patterns"]) == 0
    out = capsys.readouterr().out
    for pattern in PATTERNS.values():
        assert f"{pattern.name:<20} {pattern.summary}" in out
        for key in pattern.inputs:
            assert key.describe() in out
    assert "goal (text, required)" in out and "incident_context (object, required)" in out
    assert main(["patterns", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in listing] == list(PATTERNS)
    assert listing[0]["input"]["incident_context"] == {
        "type": "object",
        "required": True,
        "help": PATTERNS["reflection"].input_keys()["incident_context"].help,
    }


@pytest.mark.parametrize("name", list(PATTERNS))
def test_the_registrys_input_keys_are_the_graphs_input_schema(name):
    pattern = PATTERNS[name]
    schema = typing.get_type_hints(pattern.module.graph.builder.input_schema)
    chat = set(typing.get_type_hints(ChatInput))  # chat clients' input, not the CLI's
    assert chat == {"messages"} and chat <= set(schema)
    assert set(schema) - chat == {key.name for key in pattern.inputs}
    for key in pattern.inputs:
        python_type = typing.get_origin(schema[key.name]) or schema[key.name]
        assert python_type is {"text": str, "object": dict}[key.type], key
    check_input(pattern, pattern.demo_input())  # the demo input passes its own check


@pytest.mark.parametrize("name", list(PATTERNS))
def test_input_prints_the_demo_input_to_edit_and_run(tmp_path, capsys, name):
    assert main(["input", name]) == 0
    assert json.loads(capsys.readouterr().out) == PATTERNS[name].demo_input()
    path = tmp_path / f"{name}.json"
    assert main(["input", name, "-o", str(path)]) == 0
    assert f"agent-patterns run {name} --input {path}" in capsys.readouterr().out
    assert json.loads(path.read_text()) == PATTERNS[name].demo_input()
    if name == "rag":  # an edited file runs
        path.write_text(json.dumps({"question": "What is the P1 first response target for enterprise?"}))
        assert main(["run", name, "--json", "--input", str(path)]) == 0
        assert json.loads(capsys.readouterr().out)["citations"] == ["doc_sla_enterprise_v3"]


@pytest.mark.parametrize(
    ("pattern", "data", "message"),
    [
        (
            "reflection",
            {"goal": "x"},
            "missing input key incident_context; expected keys for reflection: goal",
        ),
        ("reflection", {"gaol": "x", "incident_context": {}}, "unknown input key 'gaol'; expected keys"),
        (
            "rag",
            {"query": "x"},
            "unknown input key 'query'; expected keys for rag: question (text, required)",
        ),
        ("rag", {"question": 42}, "input key question must be text, not a number"),
        ("supervisor", {"goal": "x", "subject": [42]}, "input key subject must be object, not a list"),
        ("research", [1, 2], "the input must be an object, not a list"),
        ("task_decomposition", {"goal": "x", "extra": 1, "more": 2}, "unknown input keys 'extra', 'more'"),
    ],
)
def test_a_wrong_input_is_exit_2_naming_the_expected_keys_and_nothing_is_stored(
    tmp_path, capsys, pattern, data, message
):
    path = tmp_path / "in.json"
    path.write_text(json.dumps(data))
    db = tmp_path / "store" / "runs.sqlite"
    err = _error(capsys, ["run", pattern, "--input", str(path), "--db", str(db)])
    assert message in err
    assert not db.exists()


@pytest.mark.parametrize("pattern", list(PATTERNS))
@pytest.mark.parametrize("empty", ["", "   ", "\n\t"])
def test_empty_text_is_refused_before_anything_is_stored(tmp_path, capsys, pattern, empty):
    """Like every other bad input, exit status 2 and nothing stored (it was stored and stopped
    with exit status 1, issue 36); from Python the pattern still stops the run by name."""
    demo = PATTERNS[pattern].demo_input()
    keys = [k.name for k in PATTERNS[pattern].inputs if k.type == "text" and k.name in demo]
    assert keys  # every pattern has one
    for key in keys:
        path = tmp_path / f"{key}.json"
        path.write_text(json.dumps({**demo, key: empty}))
        db = tmp_path / "store.sqlite"
        err = _error(capsys, ["run", pattern, "--input", str(path), "--db", str(db)])
        assert f"input key {key} is empty; expected keys for {pattern}: " in err
        assert not db.exists()


def test_an_input_over_the_size_cap_is_refused_before_anything_is_stored(tmp_path, capsys, monkeypatch):
    db = tmp_path / "runs.sqlite"
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"question": "x" * (DEFAULT_MAX_INPUT_BYTES + 1)}))
    err = _error(capsys, ["run", "rag", "--input", str(path), "--db", str(db)])
    assert "over the cap of 64.0 KiB (--max-input-bytes or $AGENT_PATTERNS_MAX_INPUT_BYTES)" in err
    compact = tmp_path / "q.json"
    compact.write_text(json.dumps({"question": "What SLA applies to the enterprise plan?"}))
    err = _error(capsys, ["run", "rag", "--input", str(compact), "--max-input-bytes", "20", "--db", str(db)])
    assert "over the cap of 20 bytes" in err
    monkeypatch.setenv("AGENT_PATTERNS_MAX_INPUT_BYTES", "30")
    assert "over the cap of 30 bytes" in _error(
        capsys, ["run", "rag", "--input", str(compact), "--db", str(db)]
    )
    monkeypatch.setenv("AGENT_PATTERNS_MAX_INPUT_BYTES", "lots")
    assert "AGENT_PATTERNS_MAX_INPUT_BYTES must be a whole number" in _error(
        capsys, ["run", "rag", "--input", str(compact), "--db", str(db)]
    )
    assert not db.exists()
    monkeypatch.setenv("AGENT_PATTERNS_MAX_INPUT_BYTES", "1000")
    assert main(["run", "rag", "--json", "--input", str(compact), "--db", str(db)]) == 0


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"question": "q", "x": 1}', "unknown input key 'x'"),
        ('{"question": 123456789012345678901234567890}', "must be text"),
        ('{"goal": "x", "incident_context": {"n": 123456789012345678901234567890}}', "cannot be stored"),
        ('{"goal": "x", "incident_context": {"n": 1e400}}', "cannot be stored"),
        ('{"goal": "x", "incident_context": {"s": "\\ud800"}}', "cannot be stored"),
    ],
)
def test_values_the_store_cannot_keep_are_refused_before_storing(tmp_path, capsys, text, problem):
    pattern = "rag" if text.startswith('{"question"') else "reflection"
    path = tmp_path / "in.json"
    path.write_text(text)
    db = tmp_path / "runs.sqlite"
    assert problem in _error(capsys, ["run", pattern, "--input", str(path), "--db", str(db)])
    assert not db.exists()


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(data=_JSON, name=st.sampled_from(list(PATTERNS)))
def test_check_input_accepts_or_names_the_problem_for_any_json(data, name):
    """Whatever JSON an input file holds, the check accepts it or raises InputError naming the
    expected keys or the problem: never another exception."""
    pattern = PATTERNS[name]
    try:
        checked = check_input(pattern, data, max_bytes=2000)
    except InputError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    keys = pattern.input_keys()
    assert set(checked) <= set(keys) and all(k.name in checked for k in pattern.inputs if k.required)


@settings(max_examples=25, deadline=None)
@given(
    data=st.dictionaries(
        st.sampled_from(["question", "goal", "subject", "extra"]),
        st.text(max_size=30)
        | st.integers(min_value=-(2**70), max_value=2**70)
        | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
        max_size=3,
    )
)
def test_run_with_any_input_ends_in_a_result_or_one_line(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("in") / "in.json"
    path.write_text(json.dumps(data))
    db = str(path.parent / "runs.sqlite")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(["run", "rag", "--json", "--input", str(path), "--db", db])
        except SystemExit as stop:
            code = stop.code
    if code == 2:
        assert len(err.getvalue().strip().splitlines()) == 1 and not Path(db).exists()
    else:
        assert code in (0, 1) and json.loads(out.getvalue())["status"] in ("ok", "stopped")


# --- what the docs promise: .env, the store's path, --human on a memory store --------------------------


def test_load_env_file_reads_dotenv_and_keeps_what_is_set(tmp_path):
    path = tmp_path / ".env"
    path.write_text("OPENAI_MODEL=from-file\nAGENT_PATTERNS_DB=/from/file.sqlite\n# a comment\nEMPTY=\n")
    env = {"AGENT_PATTERNS_ENV_FILE": str(path), "OPENAI_MODEL": "already-set"}
    assert load_env_file(env) == path
    assert env["OPENAI_MODEL"] == "already-set" and env["AGENT_PATTERNS_DB"] == "/from/file.sqlite"
    assert load_env_file({"AGENT_PATTERNS_ENV_FILE": ""}) is None
    assert load_env_file({"AGENT_PATTERNS_ENV_FILE": str(tmp_path / "missing")}) is None


@pytest.mark.integration
def test_the_cli_reads_dotenv_in_the_current_folder(tmp_path):
    """A .env naming a model with a bad timeout: the CLI read it (a clear error, no network)."""
    (tmp_path / ".env").write_text("OPENAI_API_KEY=sk-from-dotenv\nOPENAI_TIMEOUT_SECONDS=soon\n")
    env = _env(AGENT_PATTERNS_DB=str(tmp_path / "runs.sqlite"))
    env.pop("AGENT_PATTERNS_ENV_FILE", None)
    done = subprocess.run(
        [str(EXE), "run", "reflection"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 2 and "OPENAI_TIMEOUT_SECONDS must be a number" in done.stderr
    runs = subprocess.run([str(EXE), "runs"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert runs.returncode == 0 and f"run store: {tmp_path / 'runs.sqlite'}" in runs.stdout
    (tmp_path / ".env").write_bytes(b"OPENAI_MODEL=\xff\xfe\n")
    done = subprocess.run([str(EXE), "patterns"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 2 and "cannot read environment file" in done.stderr


def test_the_store_path_is_shown(tmp_path, capsys):
    db = tmp_path / "runs.sqlite"
    assert main(["runs", "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == f"no runs (run store: {db})"
    assert main(["waiting", "--db", str(db)]) == 0
    assert f"(run store: {db})" in capsys.readouterr().out
    assert main(["run", "rag", "--db", str(db)]) == 0
    assert f"(runs kept in {db})" in capsys.readouterr().out.splitlines()[0]


def test_human_with_a_memory_store_is_refused(capsys):
    err = _error(capsys, ["run", "supervisor", "--human", "--db", "memory"])
    assert "--human needs a run store that outlives this command" in err


# --- no traceback at any boundary ------------------------------------------------------------------


def _waiting_run(db: str, capsys) -> str:
    assert main(["run", "supervisor", "--human", "--json", "--db", db]) == 3
    return json.loads(capsys.readouterr().out)["thread_id"]


def _store_rows(db: str) -> list:
    with sqlite3.connect(db) as conn:
        return [
            conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall() for t in ("checkpoints", "writes")
        ]


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        ('{"amount_usd": 123456789012345678901234567890}', "cannot be stored: an integer beyond 64 bits"),
        ('{"amount_usd": 1e400}', "cannot be stored"),
        ('{"reason": "\\udc00"}', "cannot be stored"),
        ('{"amount_usd": 800, "note": "' + "x" * 70_000 + '"}', "over the cap of 64.0 KiB"),
        ("[800]", "ARGS must be a non-empty JSON object"),
        ("{nope", "ARGS must be a JSON object"),
    ],
    ids=["int-beyond-64-bits", "1e400", "lone-surrogate", "over-the-cap", "a-list", "not-json"],
)
def test_a_human_edit_the_store_cannot_keep_is_one_line_and_the_run_still_waits(
    tmp_path, capsys, args, problem
):
    db = str(tmp_path / "runs.sqlite")
    thread = _waiting_run(db, capsys)
    before = _store_rows(db)
    assert problem in _error(capsys, ["edit", thread, args, "--db", db])
    assert _store_rows(db) == before
    with open_checkpointer(db) as saver:
        assert load_run(saver, thread).summary.status == "waiting"
    assert main(["edit", thread, '{"amount_usd": 800}', "--json", "--db", db]) == 0


def _break_checkpoints(db: str, how: str) -> None:
    with sqlite3.connect(db) as conn:
        if how == "blob":
            conn.execute("UPDATE checkpoints SET checkpoint = x'c1c1c1c1'")
        elif how == "type":
            conn.execute("UPDATE checkpoints SET type = 'no-such-serializer'")
        else:
            conn.execute("UPDATE writes SET value = x'c1c1'")


@pytest.mark.parametrize("how", ["blob", "type", "writes"])
def test_undecodable_checkpoint_rows_are_one_line_and_left_untouched(tmp_path, capsys, how):
    db = str(tmp_path / "runs.sqlite")
    thread = _waiting_run(db, capsys)
    _break_checkpoints(db, how)
    before = _store_rows(db)
    commands = [["show", thread], ["approve", thread], ["resume", thread], ["runs", "--status", "waiting"]]
    if how != "writes":
        commands.append(["runs"])
    for command in commands:
        err = _error(capsys, [*command, "--db", db])
        assert f"run store {db}: " in err and "cannot be decoded" in err, (command, err)
    assert _store_rows(db) == before


def test_an_unexpected_failure_is_one_line_unless_debugging(capsys, monkeypatch):
    def boom(*_args):
        raise RuntimeError("something\n\tunforeseen")

    monkeypatch.setattr("apps.cli.main.run_pattern", boom)
    err = _error(capsys, ["run", "rag"])
    assert (
        "unexpected RuntimeError: something; unforeseen (set AGENT_PATTERNS_DEBUG=1 for the traceback)" in err
    )
    monkeypatch.setenv("AGENT_PATTERNS_DEBUG", "1")
    with pytest.raises(RuntimeError):
        main(["run", "rag"])


# --- progress lines -----------------------------------------------------------------------------------


def test_supervisor_progress_shows_every_decision(capsys, tmp_path):
    assert main(["run", "supervisor", "--db", str(tmp_path / "r.sqlite")]) == 0
    lines = capsys.readouterr().out.splitlines()
    marks = [(line.split()[0], line.split()[1]) for line in lines[1:] if line.startswith("  ")]
    reviews = [mark for node, mark in marks if node == "review"]
    assert reviews == ["approve", "revise", "escalate", "approve", "approve"]
    assert ("escalate", "wait") in marks and ("human_approval", "edit") in marks
    assert all(mark != "" for _, mark in marks)
    [escalated] = [line for line in lines if " escalate " in line and line.split()[0] == "review"]
    assert "reason=high_refund_requires_human" in escalated
    [human] = [line for line in lines if line.split()[:1] == ["human_approval"]]
    assert "approved_by=auto_approver" in human and "executed_from=auto_approver_revised" in human


def test_progress_shows_who_approved_and_a_blocked_action():
    approval = {
        "human_answer": {"type": "approve"},
        "human_approved": True,
        "approved_by": "auto_approver",
        "action": {"kind": "tool", "name": "issue_refund", "args": {"amount_usd": 800, "user_id": 42}},
    }
    line = progress_line("human_approval", approval, 200)
    assert line.split()[:2] == ["human_approval", "approve"]
    assert "approved_by=auto_approver human_approved=True" in line
    assert "action=issue_refund(amount_usd=800, user_id=42)" in line
    blocked = {
        "review": {"decision": "block", "reason": "email_before_refund"},
        "status": "stopped",
        "stop_reason": "supervisor_block:email_before_refund",
    }
    line = progress_line("review", blocked)
    assert "STOP supervisor_block:email_before_refund" in line and "reason=email_before_refund" in line
    refused = {
        "trace": [
            {"step": 4, "phase": "refused", "ok": False, "tool": "send_payment", "decision": "block",
             "refused": "supervisor_block:unknown_payee", "refused_by": "supervisor", "elapsed_ms": 3}
        ],
        "refusals": [{"step": 2}],
    }  # fmt: skip
    line = progress_line("refuse", refused, 200)
    assert line.split()[:2] == ["refuse", "refused"]
    assert "reason=supervisor_block:unknown_payee by=supervisor tool=send_payment" in line
    assert "STOP" not in line


@pytest.mark.parametrize("width", [40, 60, 80])
def test_progress_lines_fit_the_terminal(capsys, monkeypatch, width, tmp_path):
    monkeypatch.setenv("COLUMNS", str(width))
    assert main(["run", "rag", "--db", str(tmp_path / "r.sqlite")]) == 0
    lines = capsys.readouterr().out.splitlines()
    progress = [line for line in lines if line.startswith("  ")]
    assert [line.split()[0] for line in progress][:5] == [
        "start",
        "plan",
        "validate_intent",
        "retrieve",
        "pack",
    ]
    assert all(len(line) <= width for line in progress + lines[-3:-1])
    [pack] = [line for line in progress if line.split()[0] == "pack"]
    assert pack.endswith("…")


def test_summary_of_a_stopped_and_a_waiting_run():
    stopped = {"status": "stopped", "stop_reason": "max_tokens", "phase": "revise", "details": {"max": 1100}}
    assert summary_lines(stopped)[:2] == [
        "stopped: max_tokens in phase revise; 0 LLM calls, 0 tokens, 0.0 USD; model ?",
        'details: {"max": 1100}',
    ]
    waiting = {"waiting_for_human": [{"reason": "high", "action": {"name": "refund", "args": {"usd": 9}}}]}
    assert summary_lines(waiting) == ["waiting for a human (high): refund(usd=9)"]


def test_answering_a_run_shows_its_progress_from_the_human_decision_on(tmp_path, capsys):
    db = str(tmp_path / "runs.sqlite")
    thread = _waiting_run(db, capsys)
    assert main(["approve", thread, "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{thread}: approve (runs kept in {db})"
    assert lines[1].split()[:2] == ["human_approval", "approve"] and "approved_by=human" in lines[1]
    assert [line.split()[0] for line in lines[2:4]] == ["execute", "worker"]
    assert any(line.startswith("ok: success (final_answer)") for line in lines)
    capsys.readouterr()
    _error(capsys, ["approve", thread, "--db", db])  # not waiting any more: no header, one line


def test_the_hint_of_a_run_that_waits_edits_the_calls_own_arguments_and_runs_as_printed(tmp_path, capsys):
    """``agent-patterns run`` that waits prints how to answer from any shell: its edit carries the
    waiting call's real arguments (quoted for the shell), and run as printed it answers the run."""
    import shlex

    db = str(tmp_path / "runs.sqlite")
    assert main(["run", "supervisor", "--human", "--db", db]) == 3
    said = capsys.readouterr()
    printed = (said.out + said.err).splitlines()
    [edit] = [line.strip() for line in printed if line.strip().startswith("agent-patterns edit ")]
    argv = shlex.split(edit.split("    (")[0])[1:]
    args = json.loads(argv[2])
    # the demo's waiting refund as the gateway revised it, not a fixed example
    assert args["user_id"] == 42 and args["amount_usd"] == 1200.0 and args["reason"], args
    assert main(argv) == 0
