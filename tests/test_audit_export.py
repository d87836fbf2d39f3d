"""Where audits go (issue 47): the audit log as JSON Lines (``agent-patterns audit --jsonl``,
``apps.operations.audit_export.jsonl_records``) and as OpenTelemetry spans (``export_spans``, ``audit
--otlp``), one record per governed call, from both engines' threads in one SQLite file: a
Supervisor demo run whose refund ``alice`` approves, and support desk threads (``create_agent`` +
``GovernanceMiddleware``) with a refund refused above the order's total and one ``bob`` approves.
Both engines again on PostgreSQL."""

from __future__ import annotations

import io
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from apps.operations.audit import stored_audit, verify_audit
from apps.operations.audit_export import (
    MAX_ARGS_CHARS,
    SCHEMA,
    jsonl_records,
    shown_args,
    source_kinds,
    write_jsonl,
)
from nodes import audit as log
from nodes.store import open_checkpointer, open_store
from policies import tamper
from policies.supervisor.reading.values import Source, describe
from tests.processes import run

pytest.importorskip("langchain.agents", reason="the support desk needs langchain>=1 (the agents extra)")
pytest.importorskip("opentelemetry.sdk", reason="spans need the otel extra")

ROOT = Path(__file__).resolve().parent.parent


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "OTEL_"))}
    env.pop("AGENT_PATTERNS_DB", None)
    env["PYTHONPATH"] = str(ROOT)
    return {**env, **extra}


def _run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-m", *args], cwd=ROOT, env=_env(**env), timeout=180)


def cli(db: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return _run("governed_agent_patterns", *args, "--db", str(db), **env)


def desk(db: Path, thread: str, *args: str) -> subprocess.CompletedProcess[str]:
    return _run("governed_agent_patterns.apps.cli.desk", "--db", str(db), "--thread", thread, *args)


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    """S: the Supervisor demo, its refund approved by alice; D: the desk, a 900 EUR refund refused
    (above the order's 250 total), then a 120 EUR refund approved by bob."""
    db = tmp_path_factory.mktemp("export") / "runs.sqlite"
    steps = [
        (cli(db, "run", "supervisor", "--human", "--thread-id", "S"), 3),
        (cli(db, "approve", "S", "--as", "alice"), 0),
        (desk(db, "D", "Refund 900 EUR on order ORD-1002"), 0),
        (desk(db, "D", "Refund 120 EUR on order ORD-1002"), 3),
        (desk(db, "D", "--as", "bob", "--answer", '{"type": "approve"}'), 0),
    ]
    for done, code in steps:
        assert done.returncode == code, done.stdout + done.stderr
    return db


def records(db: Path | str, thread: str | None = None) -> list[dict[str, Any]]:
    with open_store(str(db)) as store:
        return list(jsonl_records(store, thread))


def governed(row: dict[str, Any]) -> bool:
    return bool(row.get("stop_reason")) or (bool(row.get("tool")) and "decision" in row)


def assert_matches_the_audit(where: str) -> list[dict[str, Any]]:
    """Each thread's records are its audit's governed trace rows, in order, each tied to its log
    item by the chain hash, and the chain verifies."""
    found = records(where)
    with open_checkpointer(where) as saver, open_store(where) as store:
        threads = sorted(log.unlabel(label) for label in log.threads(store))
        assert [r["thread_id"] for r in found] == sorted(r["thread_id"] for r in found)
        for thread in threads:
            audit = stored_audit(saver, store, thread)
            rows = [(run.run_id, row) for run in audit.runs for row in run.trace if governed(row)]
            mine = [r for r in found if r["thread_id"] == thread]
            assert len(mine) == len(rows) > 0
            for record, (run_id, row) in zip(mine, rows, strict=True):
                assert record["run_id"] == run_id and record["step"] == row["step"]
                for key in ("tool", "decision", "check", "approved_by", "reviewer", "answered_at"):
                    assert record[key] == row.get(key), (key, record, row)
                assert record["reason"] == row.get("review_reason")
            items = {item.key: item.value for item in log.read_log(store, thread)}
            for record in mine:
                assert (
                    items[record["key"]]["hash"] == record["hash"] == tamper.link_hash(items[record["key"]])
                )
                assert items[record["key"]]["n"] == record["n"]
            assert all(t.ok for t in verify_audit(store, thread))
    return found


# --- JSON Lines ------------------------------------------------------------------------------------


def test_each_governed_call_of_both_engines_is_a_record_that_matches_its_audit_row(db):
    found = assert_matches_the_audit(str(db))
    assert {r["schema"] for r in found} == {SCHEMA}
    assert {r["engine"] for r in found} == {"supervisor", "governance_middleware"}
    [alice] = [r for r in found if r["thread_id"] == "S" and r["tool"] == "issue_refund"]
    assert (
        alice["reviewer"] == "alice" and alice["approved_by"] == "human" and alice["decision"] == "escalate"
    )
    assert alice["check"] == "thresholds" and alice["reason"] == "high_refund_requires_human"
    assert alice["args"]["amount_usd"] == 1200.0 and alice["outcome"] == "ran"
    assert alice["at"] >= alice["answered_at"]
    refused, bob = [r for r in found if r["thread_id"] == "D" and r["tool"] == "issue_refund"]
    assert (refused["turn"], refused["decision"], refused["outcome"]) == (1, "block", "refused")
    assert (
        refused["refusal"] == "supervisor_block:above_record_limit" and refused["refused_by"] == "supervisor"
    )
    assert refused["check"] == "record_limits" and refused["args"] == {
        "order_id": "ORD-1002",
        "amount": 900.0,
    }
    assert refused["reviewer"] is None and refused["rule_details"]["limit"] == 250.0
    assert (bob["turn"], bob["reviewer"], bob["args"]) == (
        2,
        "bob",
        {"order_id": "ORD-1002", "amount": 120.0},
    )
    assert bob["provenance_sources"] == {
        "order_id": ["request", "trusted_tool", "args"],
        "amount": ["request"],
    }
    assert bob["provenance"]["amount"] == "appears in the request"
    # every record of a run is at or after the one before it, and says how the run ended
    for thread in ("S", "D"):
        mine = [r for r in found if r["thread_id"] == thread]
        for before, after in itertools.pairwise(mine):
            if before["run_id"] == after["run_id"]:
                assert before["at"] <= after["at"] and before["seq"] < after["seq"]
        assert {r["run_status"] for r in mine} == {"ok"}
    assert [r["event"] for r in found if r["thread_id"] == "S"] == ["call", "call", "call", "final"]


def test_the_order_is_stable_and_a_thread_or_a_time_selects(db):
    first, again = records(db), records(db)
    assert first == again
    assert records(db, "D") == [r for r in first if r["thread_id"] == "D"]
    with open_store(str(db)) as store:
        out = io.StringIO()
        assert write_jsonl(store, out) == len(first)
        assert [json.loads(line) for line in out.getvalue().splitlines()] == first
        later = sorted(r["at"] for r in first)[len(first) // 2]
        from apps.operations.audit_export import parse_since

        since = list(jsonl_records(store, since=parse_since(later)))
        assert since == [r for r in first if r["at"] >= later] and 0 < len(since) < len(first)


def test_long_arguments_are_exported_by_digest():
    small = {"to": "a@example.com"}
    assert shown_args(small) == small and shown_args(None) is None
    big = {"body": "x" * MAX_ARGS_CHARS}
    shown = shown_args(big)
    assert set(shown) == {"digest", "chars"} and shown["chars"] > MAX_ARGS_CHARS


def test_source_kinds_read_provenance_words():
    request = Source("request", "refund ORD-1")
    trusted = Source("tool", "{}", tool="look_up_order", step=1, trusted=True)
    page = Source("tool", "{}", tool="fetch_page", step=2, fields=("a", "b"))
    args = Source("args", "{}", tool="look_up_order", step=1)
    assert source_kinds(describe([request, trusted, args])) == ["request", "trusted_tool", "args"]
    assert source_kinds(describe([page, args])) == ["tool", "args"]
    assert source_kinds(describe([request, page])) == ["request", "tool"]
    assert source_kinds(describe([Source("human", "x"), Source("subject", "x")])) == ["subject", "human"]
    assert source_kinds(describe([])) == ["nowhere"]
    assert source_kinds("followed from the read_channel record") == ["other"]


# --- OpenTelemetry ---------------------------------------------------------------------------------


def test_spans_one_per_governed_call_under_a_span_per_run(db):
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from apps.operations.audit_export import export_spans

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    with open_store(str(db)) as store:
        made = export_spans(store, tracer_provider=provider)
    found = records(db)
    spans = exporter.get_finished_spans()
    calls = [s for s in spans if s.name.startswith("governed_call ")]
    runs = {s.context.span_id: s for s in spans if s.name == "governed_run"}
    assert made == len(calls) == sum(1 for r in found if r["event"] == "call") == 7
    assert len(runs) == len({r["run_id"] for r in found}) == 3
    for span, record in zip(calls, [r for r in found if r["event"] == "call"], strict=True):
        assert span.name == f"governed_call {record['tool']}"
        attrs = dict(span.attributes or {})
        assert attrs["gen_ai.tool.name"] == record["tool"]
        assert attrs["governance.decision"] == record["decision"]
        assert attrs["governance.check"] == record["check"]
        assert attrs["governance.audit.hash"] == record["hash"]
        assert attrs.get("governance.reviewer") == record["reviewer"]
        parent = runs[span.parent.span_id]
        assert parent.attributes["governance.run_id"] == record["run_id"] == attrs["governance.run_id"]
        assert span.context.trace_id == parent.context.trace_id
        assert parent.start_time <= span.start_time <= span.end_time <= parent.end_time
    [alice] = [s for s in calls if s.attributes.get("governance.reviewer") == "alice"]
    assert alice.attributes["governance.approved_by"] == "human"
    [refused] = [s for s in calls if s.attributes.get("governance.outcome") == "refused"]
    assert refused.attributes["governance.refusal"] == "supervisor_block:above_record_limit"
    [bob] = [s for s in calls if s.attributes.get("governance.reviewer") == "bob"]
    assert tuple(bob.attributes["governance.provenance.amount"]) == ("request",)
    finals = [e for run in runs.values() for e in run.events if e.name == "governance.final"]
    assert len(finals) == 3


# --- the CLI ---------------------------------------------------------------------------------------


def test_cli_jsonl_prints_every_threads_records_and_one_threads(db, capsys):
    everything = cli(db, "audit", "--jsonl")
    assert everything.returncode == 0, everything.stderr
    assert [json.loads(line) for line in everything.stdout.splitlines()] == records(db)
    one = cli(db, "audit", "S", "--jsonl")
    assert [json.loads(line)["thread_id"] for line in one.stdout.splitlines()] == ["S"] * 4
    later = cli(db, "audit", "--jsonl", "--since", "2999-01-01")
    assert later.returncode == 0 and later.stdout == ""
    from apps.cli.main import main

    capsys.readouterr()
    for args, said in [
        (("--jsonl", "--since", "soon"), "is not an ISO 8601 date"),
        (("nope", "--jsonl"), "no audit log of thread 'nope'"),
        (("S", "--since", "2026-01-01"), "--since goes with --jsonl or --otlp"),
        (("S", "--jsonl", "--turn", "1"), "do not go with --jsonl"),
        (("S", "--jsonl", "--otlp"), "choose one"),
    ]:
        with pytest.raises(SystemExit) as stopped:
            main(["audit", *args, "--db", str(db)])
        err = capsys.readouterr().err
        assert stopped.value.code == 2 and said in err and err.count("\n") == 1, err


def test_cli_otlp_sends_the_spans_to_the_collector(db, collector):
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http")
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    endpoint, bodies = collector
    sent = cli(db, "audit", "D", "--otlp", OTEL_EXPORTER_OTLP_ENDPOINT=endpoint)
    assert sent.returncode == 0, sent.stderr
    assert f"sent 4 governed call span(s) in 2 run span(s) to {endpoint}/v1/traces" in sent.stdout
    [body] = bodies
    request = ExportTraceServiceRequest.FromString(body)
    spans = [s for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans]
    names = sorted(s.name for s in spans)
    calls = ["governed_call issue_refund"] * 2 + ["governed_call look_up_order"] * 2
    assert names == [*calls, "governed_run", "governed_run"], names
    reviewers = {a.value.string_value for s in spans for a in s.attributes if a.key == "governance.reviewer"}
    assert reviewers == {"bob"}


# --- PostgreSQL and SQLite, both engines ----------------------------------------------------------


@pytest.fixture(params=("sqlite", "postgres"))
def database(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "runs.sqlite")
    return request.getfixturevalue("pg_url")


@pytest.mark.parametrize("engine", ("supervisor_native", "middleware"))
def test_both_engines_export_on_sqlite_and_postgres(engine, database):
    from tests.test_audit_log import build, config, turn

    with open_checkpointer(database) as saver, open_store(database) as store:
        graph, payments = build(engine, store=store, saver=saver)
        for number in (1, 2, 2, 3):
            turn(graph, number, config("t-1"))
    assert len(payments.done) == 1
    found = assert_matches_the_audit(database)
    [paid] = [r for r in found if r["tool"] == "send_payment"]
    assert paid["approved_by"] == "human" and paid["outcome"] == "ran" and paid["args"] == {"amount": 5.0}
