"""The CLI sees a user's own ``create_agent`` app (issue 55, item 6): an app registered by an entry
point (group ``agent_patterns.agents``) or by ``$AGENT_PATTERNS_AGENTS`` has its waiting thread
listed by ``waiting``, answered by ``approve`` (its tool runs once, in the answering process),
swept by ``reject-expired`` and audited by ``audit`` from the database alone; a registration that
names nothing loadable is one line and exit 2. Real processes on one SQLite file."""

from __future__ import annotations

import getpass
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import run

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parent.parent

#: A user's app: its own tool, model and policy, built by ``build_agent`` and tagged with its name.
APP = '''
import json
from pathlib import Path

from langchain.agents import create_agent
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from governed_agent_patterns import GovernanceMiddleware, SupervisorPolicy, ToolRules

PAID = Path(__file__).with_name("paid.jsonl")


def pay_invoice(invoice_id: str, amount: float) -> dict:
    """Pay one of the customer's invoices."""
    with PAID.open("a") as out:
        out.write(json.dumps({"invoice_id": invoice_id, "amount": amount}) + "\\n")
    return {"paid": invoice_id}


class Model(BaseChatModel):
    """Proposes the payment the user asked for; once it ran, says so."""

    @property
    def _llm_type(self) -> str:
        return "billing-script"

    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        if isinstance(messages[-1], ToolMessage):
            reply = AIMessage(f"Done: {messages[-1].content}")
        else:
            call = {"name": "pay_invoice", "args": {"invoice_id": "INV-7", "amount": 260.0}, "id": "p1"}
            reply = AIMessage("", tool_calls=[call])
        return ChatResult(generations=[ChatGeneration(message=reply)])


def build_agent(*, checkpointer=None, store=None, model=None):
    rules = {"pay_invoice": ToolRules(require_approval=True, approval_reason="payment")}
    policy = SupervisorPolicy.for_tools(
        [pay_invoice], side_effects=["pay_invoice"], rules=rules, ask_expires_after=EXPIRES
    )
    agent = create_agent(
        model or Model(),
        [pay_invoice],
        middleware=[GovernanceMiddleware(policy, tools=[pay_invoice])],
        checkpointer=checkpointer,
        store=store,
    )
    return agent.with_config({"metadata": {"agent": "billing"}})


EXPIRES = 3600.0
'''

#: One turn of the app on the SQLite file, as the app's own process runs it.
TURN = """
import sys
import billing_app
from governed_agent_patterns.nodes.store import open_checkpointer, open_store

db, thread = sys.argv[1], sys.argv[2]
billing_app.EXPIRES = float(sys.argv[3])
with open_checkpointer(db, writable=True) as saver, open_store(db) as store:
    agent = billing_app.build_agent(checkpointer=saver, store=store)
    out = agent.invoke(
        {"messages": [("user", "Pay invoice INV-7, 260.00")]}, {"configurable": {"thread_id": thread}}
    )
assert out.get("__interrupt__"), out
"""


def _env(app: Path, registered: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "AGENT_PATTERNS_DB")}
    env.pop("AGENT_PATTERNS_AGENTS", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(app), str(ROOT), env.get("PYTHONPATH")) if p)
    if registered is not None:
        env["AGENT_PATTERNS_AGENTS"] = registered
    return env


def _run(app: Path, *args: str, registered: str | None = None) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, *args], cwd=app, timeout=180, env=_env(app, registered))


@pytest.fixture
def app(tmp_path: Path) -> Path:
    (tmp_path / "billing_app.py").write_text(APP)
    return tmp_path


def _waits(app: Path, db: Path, thread: str, expires: float = 3600.0) -> None:
    made = _run(app, "-c", TURN, str(db), thread, str(expires))
    assert made.returncode == 0, made.stderr


def _paid(app: Path) -> list[dict[str, object]]:
    paid = app / "paid.jsonl"
    return [json.loads(line) for line in paid.read_text().splitlines()] if paid.exists() else []


def cli(app: Path, db: Path, *args: str, registered: str | None = "billing=billing_app"):
    return _run(app, "-m", "governed_agent_patterns", *args, "--db", str(db), registered=registered)


def test_a_registered_apps_thread_is_listed_answered_and_audited_from_the_database(app):
    db = app / "billing.sqlite"
    _waits(app, db, "B1")
    unregistered = cli(app, db, "approve", "B1", registered=None)
    assert unregistered.returncode == 2 and unregistered.stderr.count("\n") == 1, unregistered.stderr
    assert "agent_patterns.agents" in unregistered.stderr and "AGENT_PATTERNS_AGENTS" in unregistered.stderr
    waiting = cli(app, db, "waiting")
    assert waiting.returncode == 0, waiting.stderr
    assert "B1" in waiting.stdout and "billing" in waiting.stdout, waiting.stdout
    assert "pay_invoice(amount=260.0, invoice_id=INV-7)" in waiting.stdout, waiting.stdout
    listed = json.loads(cli(app, db, "runs", "--pattern", "billing", "--json").stdout)
    assert [(r["thread_id"], r["pattern"], r["status"]) for r in listed] == [("B1", "billing", "waiting")]
    audited = cli(app, db, "audit", "B1")  # its question is no row yet: the audit says what it waits on
    assert "waits for a human: payment: pay_invoice(amount=260.0, invoice_id=INV-7)" in audited.stdout, (
        audited
    )
    approved = cli(app, db, "approve", "B1", "--as", "sam")
    assert approved.returncode == 0, (approved.stdout, approved.stderr)
    assert "ok: billing replied" in approved.stdout, approved.stdout
    assert _paid(app) == [{"invoice_id": "INV-7", "amount": 260.0}]  # run once, by the CLI's process
    again = cli(app, db, "approve", "B1", "--as", "ana")
    assert again.returncode == 2 and "already answered" in again.stderr, again.stderr
    assert len(_paid(app)) == 1
    audit = cli(app, db, "audit", "B1", "--verify")
    assert audit.returncode == 0, (audit.stdout, audit.stderr)
    exported = cli(app, db, "audit", "B1", "--jsonl")
    assert exported.returncode == 0, exported.stderr
    calls = [json.loads(line) for line in exported.stdout.splitlines() if line.strip()]
    paid = [c for c in calls if c.get("tool") == "pay_invoice"]
    assert len(paid) == 1 and paid[0]["args"] == {"invoice_id": "INV-7", "amount": 260.0}, calls
    assert [a.get("reviewer") for a in paid[0]["answers"]] == ["sam"], paid[0]
    assert paid[0]["answers"][0]["account"] == getpass.getuser(), paid[0]  # the OS account it came from


def test_reject_expired_sweeps_a_registered_apps_expired_question(app):
    db = app / "billing.sqlite"
    _waits(app, db, "B2", expires=1.0)
    time.sleep(1.5)
    swept = cli(app, db, "reject-expired")
    assert swept.returncode == 0, (swept.stdout, swept.stderr)
    assert "rejected B2 (billing)" in swept.stdout and "1 expired question(s) rejected" in swept.stdout
    assert _paid(app) == []
    waiting = cli(app, db, "waiting")
    assert "B2" not in waiting.stdout, waiting.stdout


def test_an_installed_app_registers_by_entry_point(app):
    """A distribution on the path whose entry points name the app: no environment needed."""
    dist = app / "billing_app-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: billing-app\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[agent_patterns.agents]\nbilling = billing_app\n")
    db = app / "billing.sqlite"
    _waits(app, db, "B3")
    waiting = cli(app, db, "waiting", registered=None)
    assert waiting.returncode == 0 and "B3" in waiting.stdout and "billing" in waiting.stdout, waiting


BAD_REGISTRATIONS = [
    ("billing", "is not name=module[:function]"),
    ("billing=not-a-module", "names no module"),
    ("support_desk=billing_app", "is a name the package uses"),
    ("billing=billing_gone", "cannot import 'billing_gone'"),
    ("billing=billing_app:nothing_here", "has no function 'nothing_here'"),
]


def test_a_registration_that_names_nothing_loadable_is_one_line(app):
    db = app / "billing.sqlite"
    _waits(app, db, "B4")  # a thread of the agent: the import is tried as it is read
    for registered, says in BAD_REGISTRATIONS:
        out = cli(app, db, "waiting", registered=registered)
        assert out.returncode == 2 and out.stderr.count("\n") == 1, (registered, out.stdout, out.stderr)
        assert says in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_registered_agents_reads_the_environment_and_keeps_the_packages_names():
    from graphs.registry import AgentRegistryError, known_agents, registered_agents

    found = registered_agents({"AGENT_PATTERNS_AGENTS": "a=pkg.mod, b=pkg.other:make"})
    assert {n: (a.module_name, a.builder) for n, a in found.items()} == {
        "a": ("pkg.mod", "build_agent"),
        "b": ("pkg.other", "make"),
    }
    assert registered_agents({}) == {}
    with pytest.raises(AgentRegistryError, match="names no function"):
        registered_agents({"AGENT_PATTERNS_AGENTS": "a=pkg.mod:not-a-name"})
    assert "support_desk" in known_agents() and "mcp_gateway" in known_agents()
