"""LangGraph Studio's server, for real: ``langgraph dev`` serves every graph in langgraph.json
offline; through the SDK each graph's structure is fetched, its demo runs to the end, and an
interrupt (human approval) is resumed with a ``command``."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from graphs.registry import PATTERNS
from tests.langgraph_dev import langgraph_dev, run_demo
from tests.processes import ROOT

CONFIG = json.loads((ROOT / "langgraph.json").read_text())
pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("langgraph-dev")  # the server's log stays out of the project
    with langgraph_dev(workdir) as url:
        yield url
    shutil.rmtree(workdir, ignore_errors=True)


#: The examples langgraph.json serves beside the patterns: create_agent agents (graphs/<name>.py).
EXAMPLES = {"support_desk"}


def test_langgraph_json_registers_every_pattern_and_the_examples():
    assert CONFIG["dependencies"] == ["."]
    assert set(CONFIG["graphs"]) == set(PATTERNS) | EXAMPLES
    for name, target in CONFIG["graphs"].items():
        assert target == f"./graphs/{name}.py:graph"


def test_the_support_desk_is_served_and_asks_in_langchains_hitl_shape(server):
    """The support desk (a create_agent agent with GovernanceMiddleware) in Studio's server: a
    benign refund runs on the desk's offline worker; above 100 it waits in LangChain's HITL shape,
    and the decision Agent Chat UI sends resumes it; another customer's order is withheld."""
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=server)
    assistant = client.assistants.search(graph_id="support_desk")[0]
    schemas = client.assistants.get_schemas(assistant["assistant_id"])
    assert {"messages", "governance_subject"} <= set(schemas["input_schema"]["properties"])
    thread = client.threads.create()["thread_id"]

    def say(text):
        said = {
            "messages": [{"role": "user", "content": text}],
            "governance_subject": {"customer": "cust-42"},
        }
        return client.runs.wait(thread, "support_desk", input=said)

    # a chat client sends messages only: the served desk acts for the demo's customer
    chat = client.runs.wait(
        client.threads.create()["thread_id"],
        "support_desk",
        input={"messages": [{"role": "user", "content": "Where is order ORD-1002?"}]},
    )
    assert chat["governance_calls"][0]["observation"]["customer"] == "cust-42"
    done = say("Refund order ORD-1001 in full.")
    assert [c["tool"] for c in done["governance_calls"]] == ["look_up_order", "issue_refund"]
    say("Refund order ORD-1002 in full.")
    state = client.threads.get_state(thread)
    [waiting] = state["interrupts"]
    assert waiting["value"]["action_requests"][0]["args"] == {"order_id": "ORD-1002", "amount": 250.0}
    assert state["next"] == ["model"]  # the review runs in the model's node: it waits there
    # Agent Chat UI's "mark as resolved" on a waiting desk: the refund does not run, the same
    # request waits (LangGraph ignores a goto to __end__; the node asks again)
    other = client.threads.create()["thread_id"]
    said = {"messages": [{"role": "user", "content": "Refund order ORD-1002 in full."}]}
    client.runs.wait(other, "support_desk", input={**said, "governance_subject": {"customer": "cust-42"}})
    resolved = client.runs.wait(other, "support_desk", command={"goto": "__end__"})
    assert not [c for c in resolved.get("governance_calls") or [] if c["tool"] == "issue_refund"]
    [again] = client.threads.get_state(other)["interrupts"]
    [action] = again["value"]["action_requests"]
    assert (action["name"], action["args"]) == ("issue_refund", {"order_id": "ORD-1002", "amount": 250.0})
    assert client.threads.get_state(other)["next"] == ["model"]
    edited = {
        "type": "edit",
        "edited_action": {"name": "issue_refund", "args": {"order_id": "ORD-1002", "amount": 120}},
    }
    done = client.runs.wait(thread, "support_desk", command={"resume": {"decisions": [edited]}})
    assert done["governance_calls"][-1]["args"] == {"order_id": "ORD-1002", "amount": 120}
    done = say("Refund 10 EUR on order ORD-2001.")
    assert "li@example.org" not in json.dumps(done["messages"])
    assert done["messages"][-1]["content"].startswith("Order ORD-2001 is not this customer's")


@pytest.mark.parametrize("name", list(PATTERNS))
def test_graph_served_and_demo_runs(server, name):
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=server)
    assistant = client.assistants.search(graph_id=name)[0]
    structure = client.assistants.get_graph(assistant["assistant_id"])
    served_nodes = {node["id"] for node in structure["nodes"]}
    compiled = PATTERNS[name].module.graph.get_graph()
    assert served_nodes == set(compiled.nodes)
    assert any(edge.get("conditional") for edge in structure["edges"])
    schemas = client.assistants.get_schemas(assistant["assistant_id"])
    assert "max_seconds" in schemas["context_schema"]["properties"]
    # Studio's input form and output view (tests/test_graph_loading.py)
    assert set(PATTERNS[name].demo_input()) <= set(schemas["input_schema"]["properties"])
    assert "stop_reason" in schemas["output_schema"]["properties"]

    thread_id, result = run_demo(client, name)
    resumed = 0
    while client.threads.get_state(thread_id).get("interrupts"):
        resumed += 1
        assert resumed <= 5
        result = client.runs.wait(thread_id, name, command={"resume": {"type": "approve"}})
    assert result["status"] == "ok", result.get("stop_reason")
    assert result["stop_reason"] == "success"
    assert result["model"] == "offline:deterministic-v1"
    assert resumed == PATTERNS[name].demo_interrupts


def test_policy_as_context_changes_a_run(server):
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=server)
    _, result = run_demo(client, "reflection", context={"auto_revision_enabled": False})
    assert result["stop_reason"] == "review_decision_denied_execution:revise"


def test_env_convention():
    """``langgraph dev`` reads ``.env`` (git-ignored); ``.env.example`` documents every variable the
    project reads, and as shipped (no key) it selects the offline model."""
    from dotenv import dotenv_values

    from nodes.model import get_chat_model, model_label

    assert CONFIG["env"] == ".env"
    assert ".env" in (ROOT / ".gitignore").read_text().splitlines()
    example = dotenv_values(ROOT / ".env.example")
    read_by_code = set()
    for path in [*(ROOT / "nodes").rglob("*.py"), *(ROOT / "graphs").rglob("*.py")]:
        read_by_code |= set(
            re.findall(r"""env(?:iron)?(?:\.get\(|\[)\s*["']([A-Z][A-Z0-9_]+)["']""", path.read_text())
        )
        read_by_code |= set(re.findall(r"""_float_env\(env, ["']([A-Z][A-Z0-9_]+)["']""", path.read_text()))
    assert read_by_code, "the scan found no environment variables"
    assert read_by_code <= set(example), f"undocumented in .env.example: {read_by_code - set(example)}"
    model = get_chat_model({k: v or "" for k, v in example.items()})
    assert model_label(model).startswith("offline:")
