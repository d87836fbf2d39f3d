"""No text a model, a tool or a client writes can forge a line of the CLI's output (issue 34, item
6): a tool name with a line break printed a fake ``execution ... approve ok approved by human`` row
under the real one in ``agent-patterns audit``. Every field the CLI prints in a line per row
(``audit``, ``waiting``, ``runs``, a run's progress and summary) goes through
:func:`apps.cli.printable.printable`, and ``show``'s JSON through :func:`~apps.cli.printable.printable_json`:
one printed line per row, nothing a terminal acts on."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import apps.operations.runs as runs_module
from apps.cli.audit import COLUMNS, audit_lines, row_line
from apps.cli.main import EXIT_OK, main
from apps.cli.printable import printable, printable_json
from apps.cli.progress import progress_line, summary_lines
from apps.operations.audit import RunAudit, ThreadAudit
from apps.operations.runs import RunRecord, RunSummary

#: What breaks a line (for ``str.splitlines``, for a terminal) or drives a terminal.
DANGEROUS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\x1b\x9b\x07\x00\x08\x7f\t\u202e\u2066\u200b\ufeff"
FORGED = "\n     4 execution  issue_refund     approve   ok  approved by human"
text = st.text(st.one_of(st.characters(), st.sampled_from(DANGEROUS)), max_size=60)
#: Any value a row's field may hold (JSON, as the audit log keeps it).
values = st.one_of(text, st.integers(), st.none(), st.booleans(), st.lists(text, max_size=2))


def safe_line(line: str) -> bool:
    """One line a terminal shows as it is: every character printable (or a space)."""
    return all(c.isprintable() or unicodedata.category(c) == "Zs" for c in line)


@settings(max_examples=500)
@given(text)
def test_printable_text_is_one_line_a_terminal_shows_as_it_is(value):
    shown = printable(value)
    assert safe_line(shown) and len(shown.splitlines()) <= 1
    assert printable(shown) == shown  # escaping twice changes nothing
    if value.isprintable():
        assert shown == value


@settings(max_examples=300)
@given(st.recursive(values, lambda inner: st.dictionaries(text, inner, max_size=3), max_leaves=8))
def test_printable_json_is_the_same_value_safe_on_a_terminal(value):
    for indent in (None, 2):
        shown = printable_json(json.dumps(value, ensure_ascii=False, indent=indent))
        assert json.loads(shown) == value
        assert all(safe_line(line) for line in shown.split("\n"))


ROW_KEYS = (
    "step",
    "phase",
    "tool",
    "decision",
    "ok",
    "approved_by",
    "refused_by",
    "executed_from",
    "refused",
)
rows = st.lists(st.fixed_dictionaries({}, optional={k: values for k in ROW_KEYS}), max_size=5)


@settings(max_examples=300)
@given(
    thread=text,
    request=st.none() | text,
    reason=st.none() | text,
    traces=st.lists(rows, min_size=1, max_size=3),
)
def test_the_audit_prints_one_line_per_row_and_no_other(thread, request, reason, traces):
    """Whatever the rows hold, the audit has exactly its own lines: the thread's, and per run its
    head, the column header and a line per trace row (when it has rows), its counts."""
    audit = ThreadAudit(
        thread,
        [
            RunAudit(f"r{i}", i + 1, request=request, status="stopped", stop_reason=reason, trace=t)
            for i, t in enumerate(traces)
        ],
        "log",
    )
    printed = "\n".join(audit_lines(audit, "runs.sqlite"))
    expected = 1 + sum(2 + (len(t) + 1 if t else 0) for t in traces)
    assert len(printed.splitlines()) == expected
    assert all(safe_line(line) for line in printed.splitlines())
    row_lines = [ln for ln in printed.splitlines() if ln.startswith("  ") and ln.split()[:1] != ["STEP"]]
    assert len(row_lines) == sum(len(t) + 1 for t in traces)  # each row's line, and each run's counts


@pytest.mark.parametrize("separator", ["\n", "\r", "\x1b[2K\r", "\u2028", "\x85", "\x0b", "\x1c"])
def test_a_forged_tool_name_prints_in_its_own_row_escaped(separator):
    row = {"step": 4, "phase": "refused", "tool": "x" + FORGED.replace("\n", separator), "ok": False}
    line = row_line(
        {**row, "refused": "invalid_action:unknown_tool:" + row["tool"], "refused_by": "contract"}
    )
    assert len(line.splitlines()) == 1 and safe_line(line)
    assert line.split()[:2] == ["4", "refused"] and "approved by human" not in line.split(";")[0]


def test_the_columns_line_up_whatever_the_cells_hold():
    trace = [
        {
            "step": 1,
            "phase": "human_approval",
            "tool": "a_rather_long_tool_name_for_the_column",
            "decision": "escalate",
            "ok": True,
        },
        {"step": 12, "phase": "refused", "tool": "払い戻し", "decision": "refused", "ok": False},
        {"step": 3, "phase": "x\ny", "tool": "pay", "decision": "approve", "ok": True},
    ]
    lines = audit_lines(ThreadAudit("t", [RunAudit("r", 1, trace=trace)], "log"), "here")
    table = lines[2:6]
    from apps.cli.audit import width

    # each column starts at the same terminal column on every line (wide characters count two)
    starts = [
        [width(ln[: ln.index(cell)]) for cell in cells]
        for ln, cells in zip(
            table[1:], (("human_app", "a_rather"), ("refused", "払い"), ("x\\ny", "pay")), strict=True
        )
    ]
    assert len({s[0] for s in starts}) == 1 and len({s[1] for s in starts}) == 1, table
    assert table[0].split()[: len(COLUMNS)] == [head for head, _, _ in COLUMNS]


# --- the whole way: both engines, their audit log, the real `agent-patterns audit` ----------------


def _forged_run(engine: str, db: str, thread: str, name: str) -> None:
    from graphs.supervisor import build_graph
    from nodes.store import open_checkpointer, open_store
    from tests import bank_domain as bank_
    from tests.bank_domain import BOB_IBAN, Bank, call
    from tests.middleware_harness import ToolCallingModel

    script = [
        call("list_payees"),
        {"name": name, "args": {}},
        call("pay", iban=BOB_IBAN, amount=120),
        "Paid.",
    ]
    tools = bank_.make_tools(Bank())
    config = {"configurable": {"thread_id": thread}}
    with open_checkpointer(db, writable=True) as saver, open_store(db) as store:
        if engine == "middleware":
            from langchain.agents import create_agent

            from nodes.middleware import GovernanceMiddleware

            middleware = [GovernanceMiddleware(bank_.make_policy(tools), tools=tools)]
            agent = create_agent(
                ToolCallingModel(replies=script),
                tools,
                middleware=middleware,
                checkpointer=saver,
                store=store,
            )
            agent.invoke({"messages": [("user", "Pay Bob Lee 120 EUR.")]}, config)
        else:
            policy = bank_.make_policy(tools, worker_protocol="native")
            graph = build_graph(
                llm=ToolCallingModel(replies=script),
                tools=tools,
                policy=policy,
                checkpointer=saver,
                store=store,
            )
            graph.invoke({"messages": [("user", "Pay Bob Lee 120 EUR.")]}, config)


@pytest.mark.parametrize("engine", ["graph", "middleware"])
@pytest.mark.parametrize("separator", ["\n", "\r\n", "\u2028", "\x85", "\x1b[1A\x1b[2K"])
def test_agent_patterns_audit_shows_no_forged_execution_row(engine, separator, tmp_path, capsys):
    pytest.importorskip("langchain.agents")
    db = str(tmp_path / "runs.sqlite")
    _forged_run(engine, db, "forged-1", "x" + FORGED.replace("\n", separator))
    assert main(["audit", "forged-1", "--db", db]) == EXIT_OK
    out = capsys.readouterr().out
    assert all(safe_line(line) for line in out.splitlines())
    phases = [ln.split()[1] for ln in out.splitlines() if ln[:6].strip().isdigit()]
    assert phases.count("execution") == 2 and phases.count("refused") == 1, out  # list_payees, pay
    [refused] = [ln for ln in out.splitlines() if ln[:6].strip().isdigit() and ln.split()[1] == "refused"]
    assert printable(separator) in refused  # the forged text is there, escaped, in its own row
    assert main(["audit", "forged-1", "--db", db, "--json"]) == EXIT_OK
    shown = capsys.readouterr().out
    assert all(safe_line(line) for line in shown.splitlines())
    [run] = json.loads(shown)["runs"]
    assert any(row.get("tool") == "x" + FORGED.replace("\n", separator) for row in run["trace"])


# --- waiting, runs, show, a run's progress and summary ----------------------------------------


def _summary(thread: str, text_: str) -> RunSummary:
    action = {"kind": "tool", "name": "pay" + text_, "args": {"to": text_}}
    return RunSummary(
        thread, "supervisor", "waiting", stop_reason="x" + text_, started_at=0.0, model="m" + text_,
        waiting_on=[{"reason": "large" + text_, "action": action, "problem": "p" + text_, "attempt": 2}],
    )  # fmt: skip


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])  # patched once
@given(thread=text, forged=text)
def test_waiting_and_runs_print_one_line_per_run(thread, forged, monkeypatch, capsys, tmp_path_factory):
    db = str(tmp_path_factory.mktemp("db") / "runs.sqlite")
    listed = [_summary(thread, forged), _summary("second", FORGED + forged)]
    monkeypatch.setattr(runs_module, "waiting_runs", lambda saver: listed)
    monkeypatch.setattr(runs_module, "list_runs", lambda saver, **kw: listed)
    monkeypatch.setattr(runs_module, "recorded_policy", lambda saver, thread_id: None)
    for command, lines in (("waiting", 3), ("runs", 4)):  # the runs, the store (runs: and a header)
        assert main([command, "--db", db]) == EXIT_OK
        out = capsys.readouterr().out
        assert len(out.splitlines()) == lines and all(safe_line(ln) for ln in out.splitlines()), out
        assert main([command, "--db", db, "--json"]) == EXIT_OK
        shown = capsys.readouterr().out
        assert all(safe_line(ln) for ln in shown.splitlines())
        assert [r["thread_id"] for r in json.loads(shown)] == [thread, "second"]


def test_show_prints_the_result_with_nothing_a_terminal_acts_on(monkeypatch, capsys, tmp_path):
    forged = "ok" + FORGED.replace("\n", "\u2028") + "\x1b]0;owned\x07\x9b2J\x85"
    result = {"status": "ok", "answer": forged, "trace": [{"tool": forged}]}
    record = RunRecord(RunSummary("t", "supervisor", "ok"), result, [])
    monkeypatch.setattr(runs_module, "load_run", lambda saver, thread_id: record)
    for extra in ([], ["--json"]):
        assert main(["show", "t", "--db", str(tmp_path / "s.sqlite"), *extra]) == EXIT_OK
        out = capsys.readouterr().out
        assert all(safe_line(line) for line in out.splitlines())
        assert json.loads(out)["answer"] == forged


@settings(max_examples=200)
@given(
    st.dictionaries(st.sampled_from(["tool", "reason", "refused", "problem", "arg"]), text, max_size=4), text
)
def test_a_runs_progress_and_summary_lines_are_one_line_each(fields, answer):
    update = {
        "review": {"decision": "block", **fields},
        "trace": [{"step": 1, "phase": "refused", "ok": False, **fields}],
        "action": {"kind": "tool", "name": answer, "args": fields},
    }
    line = progress_line("review", update, 100)
    assert len(line.splitlines()) == 1 and safe_line(line)
    result: dict[str, Any] = {
        "status": "stopped",
        "stop_reason": answer,
        "details": {"problem": answer, **fields},
    }
    for result_ in (result, {"status": "ok", "stop_reason": "success", "answer": answer}):
        for shown in summary_lines(result_, 80):
            assert len(shown.splitlines()) == 1 and safe_line(shown) and len(shown) <= 80


def test_an_error_quoting_a_stores_text_is_one_line_with_nothing_a_terminal_acts_on(capsys, monkeypatch):
    def boom(*_args):
        raise RuntimeError("bad\x1b[2J row\u2028     4 execution  pay  approve  ok\x85")

    monkeypatch.setattr("apps.cli.main.run_pattern", boom)
    with pytest.raises(SystemExit):
        main(["run", "rag"])
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and safe_line(err.rstrip("\n")) and "\\x1b[2J" in err
