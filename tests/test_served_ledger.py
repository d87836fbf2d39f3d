"""The served Supervisor's ledger: ``$AGENT_PATTERNS_LEDGER`` puts the module-level graph's refunds
and emails in a store every worker process shares (``make serve`` names the server's database);
unset, the graph keeps them in memory as before. And ``make serve``'s settings are checked before
anything starts."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from apps.operations.runs import result_json
from demo_tools.supervisor import demo_input
from devtools import serve
from graphs.supervisor import build_graph, served_tools
from nodes.store import LEDGER_ENV, LedgerOnUse, StoreError, ledger_from_env
from policies.supervisor import SupervisorPolicy, demo_policy

ROOT = Path(__file__).resolve().parent.parent
AUTO = SupervisorPolicy(auto_approver_enabled=True)


def test_unset_means_in_memory():
    assert ledger_from_env({}) is None and ledger_from_env({LEDGER_ENV: "  "}) is None
    assert served_tools({}) is None  # build_graph's own default: a fresh in-memory desk


def test_opened_at_first_use_and_shared_by_every_opener(tmp_path):
    path = tmp_path / "ledger" / "side-effects.sqlite"
    first, second = ledger_from_env({LEDGER_ENV: str(path)}), LedgerOnUse(path)
    assert isinstance(first, LedgerOnUse) and not path.exists()  # naming it opens nothing
    assert first.record("refund", "k1", {"amount_usd": 1.0}) == ({"amount_usd": 1.0}, True)
    assert second.record("refund", "k1", {"amount_usd": 2.0}) == ({"amount_usd": 1.0}, False)
    assert second.entries("refund") == {"k1": {"amount_usd": 1.0}} and second.get("email", "k1") is None


def test_a_ledger_that_cannot_be_opened_stops_the_run_at_the_refund_by_name(pg_cluster):
    unreachable = f"postgresql://postgres@127.0.0.1:{pg_cluster.port}/no_such_database"
    graph = build_graph(tools=served_tools({LEDGER_ENV: unreachable}), policy=demo_policy())
    result = graph.invoke(demo_input(), context=AUTO)
    assert (result["status"], result["stop_reason"]) == ("stopped", "tool_error:issue_refund")
    assert "cannot connect to PostgreSQL" in result_json(result)  # the stop carries why
    with pytest.raises(StoreError, match=r"cannot connect to PostgreSQL at postgresql://127\.0\.0\.1:"):
        LedgerOnUse(unreachable).entries("refund")


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_module_level_graph_records_in_the_named_ledger(store, tmp_path, pg_url):
    """Two processes import ``graphs.supervisor`` as a server's workers do and run the demo: both
    record in the one ledger the variable names (keys differ: two runs)."""
    location = str(tmp_path / "ledger.sqlite") if store == "sqlite" else pg_url
    script = (
        "from graphs.supervisor import graph; from demo_tools.supervisor import demo_input;"
        "from policies.supervisor import SupervisorPolicy as P;"
        "r = graph.invoke(demo_input(), context=P(auto_approver_enabled=True));"
        "print(r['status'], [c['idempotency_key'] for c in r['calls'] if c['tool'] == 'issue_refund'][0])"
    )
    env = {**os.environ, LEDGER_ENV: location, "PYTHONPATH": str(ROOT)}
    env = {k: v for k, v in env.items() if not k.startswith("OPENAI_")}
    keys = set()
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
        )
        assert out.returncode == 0, out.stderr[-2000:]
        status, key = out.stdout.split()
        assert status == "ok"
        keys.add(key)
    ledger = LedgerOnUse(location)
    assert set(ledger.entries("refund")) == keys and len(keys) == 2
    assert len(ledger.entries("email")) == 2


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("SERVE_WORKERS", "0", "SERVE_WORKERS must be at least 1, not 0"),
        ("SERVE_WORKERS", "two", "SERVE_WORKERS must be a whole number, not 'two'"),
        ("N_JOBS_PER_WORKER", "-3", "N_JOBS_PER_WORKER must be at least 1, not -3"),
        ("SERVE_PORT", "http", "SERVE_PORT must be a whole number, not 'http'"),
        ("LG_BG_JOB_HEARTBEAT", "0.2", "LG_BG_JOB_HEARTBEAT must be at least 1, not 0.2"),
        ("REDIS_MAX_CONNECTIONS", "4", "REDIS_MAX_CONNECTIONS must be at least 8, not 4"),
    ],
)
def test_make_serve_refuses_bad_settings_in_one_line(name, value, message, capsys):
    assert serve.main([], env={name: value}) == 2
    err = capsys.readouterr().err
    assert err == f"make serve: {message}\n"


def test_make_serve_without_its_venv_says_how_to_build_it(capsys, tmp_path):
    env = {"DATABASE_URI": "postgresql://u@127.0.0.1:1/x", "REDIS_URI": "redis://127.0.0.1:1/0"}
    env["SERVER_PYTHON"] = str(tmp_path / "missing" / "python")
    assert serve.main([], env=env) == 2
    assert "run `make server-venv`" in capsys.readouterr().err


def test_graphs_spec_is_langgraph_json_with_absolute_paths():
    spec = serve.graphs_spec()
    config = json.loads((ROOT / "langgraph.json").read_text())["graphs"]
    assert set(spec) == set(config)
    for name, target in spec.items():
        path, variable = target.split(":")
        assert Path(path).is_absolute() and Path(path).exists() and variable == "graph"
        assert Path(path) == (ROOT / config[name].split(":")[0]).resolve()


def test_every_server_process_gets_a_redis_pool_for_its_waiting_clients(tmp_path):
    """Each client waiting on a run (``runs.wait``) holds a Redis connection of the API process:
    the runtime's own default pool (64) answered the 65th with MaxConnectionsError."""
    server = serve.AgentServer(
        database_uri="postgresql://u@127.0.0.1:1/x", redis_uri="redis://127.0.0.1:1/0", logs=tmp_path
    )
    assert int(server._base_env()["REDIS_MAX_CONNECTIONS"]) >= 256
