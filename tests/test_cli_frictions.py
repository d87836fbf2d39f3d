"""Issue 36, item 5: a newcomer's frictions with the CLI, each driven through the real command line
(``main``) or the function that prints it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apps.cli.main import EXIT_OK, EXIT_STOPPED, EXIT_WAITING, main
from apps.cli.progress import summary_lines

ROOT = Path(__file__).resolve().parent.parent
LONG = "the supervisor's rules would change amount_usd to 2000.0 (cap_to_remaining_run_budget)"


def test_a_stopped_runs_problem_is_printed_whole():
    result = {"status": "stopped", "stop_reason": "invalid_human_answer", "phase": "human_approval"}
    result["details"] = {"problem": LONG + " " + LONG, "answers": 3, "decided_by": "human"}
    lines = summary_lines(result, 80)
    assert 'details: {"answers": 3, "decided_by": "human"}' in lines
    assert all(len(ln) <= 80 for ln in lines)
    assert problem_text(lines) == LONG + " " + LONG


def test_the_third_refused_answer_ends_the_run_saying_why_in_full(capsys):
    assert main(["run", "supervisor", "--human", "--thread-id", "p1"]) == EXIT_WAITING
    for _ in range(2):
        assert main(["edit", "p1", '{"amount_usd": 5000}']) == EXIT_WAITING
    capsys.readouterr()
    assert main(["edit", "p1", '{"amount_usd": 5000}']) == EXIT_STOPPED
    lines = capsys.readouterr().out.splitlines()
    assert problem_text(lines) == LONG, lines


def problem_text(lines: list[str]) -> str:
    """The text of a summary's ``problem:`` line and the indented lines that carry it on."""
    first = next(i for i, ln in enumerate(lines) if ln.startswith("problem: "))
    rest = [ln for ln in lines[first + 1 :]]
    carried = rest[: next((i for i, ln in enumerate(rest) if not ln.startswith("  ")), len(rest))]
    return " ".join(ln.strip() for ln in [lines[first], *carried]).removeprefix("problem: ")


def test_the_closing_hint_names_audit_first_and_show_for_the_json(capsys, tmp_path):
    db = str(tmp_path / "r.sqlite")
    assert main(["run", "reflection", "--thread-id", "h1", "--db", db]) == EXIT_OK
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(f"each step, who decided and why: agent-patterns audit h1 --db {db}")
    assert last.endswith(f"(the whole result as JSON: agent-patterns show h1 --db {db})")
    assert main(["audit", "h1", "--db", db]) == EXIT_OK  # the command it names works
    assert len(capsys.readouterr().out.splitlines()) < 20  # a line per step, not the whole JSON


def test_a_run_kept_in_memory_names_no_command_that_cannot_find_it(capsys):
    assert main(["run", "reflection", "--db", "memory"]) == EXIT_OK
    last = capsys.readouterr().out.splitlines()[-1]
    assert "agent-patterns show" not in last and "agent-patterns audit" not in last
    assert "memory" in last and "--json" in last


def test_an_edit_of_an_argument_the_tool_lacks_names_it_and_those_it_takes(capsys):
    assert main(["run", "supervisor", "--human", "--thread-id", "x1"]) == EXIT_WAITING
    capsys.readouterr()
    assert main(["edit", "x1", '{"currency": "EUR"}']) == EXIT_WAITING
    [line] = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("edit refused: ")]
    assert "'currency' is not an argument of this tool, which takes amount_usd, reason, user_id" in line


def test_the_middleware_says_a_rule_breaking_answer_could_not_be_applied_and_why():
    """Not "could not be read": the answer was read, and broke a rule, which the stop names."""
    pytest.importorskip("langchain.agents")
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    from nodes.middleware import GovernanceMiddleware
    from tests import bank_domain as bank_
    from tests.bank_domain import ACME_IBAN, Bank, call
    from tests.middleware_harness import ToolCallingModel

    tools = bank_.make_tools(Bank())
    model = ToolCallingModel(replies=[call("pay", iban=ACME_IBAN, amount=900), "Paid."])
    middleware = [GovernanceMiddleware(bank_.make_policy(tools), tools=tools)]
    agent = create_agent(model, tools, middleware=middleware, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "m1"}}
    agent.invoke({"messages": [("user", f"Pay {ACME_IBAN} 900 EUR.")]}, config)
    # a rule not about where a value came from (a human's own value is the human's: issue 36)
    edit = {"type": "edit", "edited_action": {"name": "pay", "args": {"amount": -5}}}
    for _ in range(3):
        values = agent.invoke(Command(resume={"decisions": [edit]}), config)
    said = values["messages"][-1].content
    assert values["governance_stop_reason"] == "invalid_human_answer"
    assert "could not be applied" in said and "could not be read" not in said
    assert "the supervisor blocks it: bad_amount" in said, said


def test_a_unique_prefix_of_a_thread_id_names_its_thread(capsys, tmp_path):
    db = str(tmp_path / "p.sqlite")
    for thread in ("ce276ec9-aaaa", "ce27ffff-bbbb"):
        assert main(["run", "supervisor", "--human", "--thread-id", thread, "--db", db]) == EXIT_WAITING
    capsys.readouterr()
    assert main(["show", "ce276", "--db", db, "--json"]) == EXIT_OK  # as a run's header printed it, cut
    assert json.loads(capsys.readouterr().out)["thread_id"] == "ce276ec9-aaaa"
    assert main(["audit", "ce276ec9", "--db", db]) == EXIT_OK
    assert capsys.readouterr().out.startswith("thread ce276ec9-aaaa: 1 run(s)")
    assert main(["approve", "ce27ff", "--db", db]) == EXIT_OK
    assert capsys.readouterr().out.startswith("ce27ffff-bbbb: approve")
    with pytest.raises(SystemExit):  # two threads start with it: both named, nothing done
        main(["reject", "ce27", "--db", db])
    err = capsys.readouterr().err
    assert "prefix 'ce27' matches 2 threads: ce27ffff-bbbb, ce276ec9-aaaa; give more of it" in err
    with pytest.raises(SystemExit):  # too short to be taken as a prefix; the error says what to do
        main(["show", "ce2", "--db", db])
    assert "`agent-patterns runs` lists them; the first 4 or more characters" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["supervisor", "reflection"])
def test_policy_lists_the_clis_values_and_the_classs_default_where_it_differs(capsys, name):
    from graphs.registry import PATTERNS

    pattern = PATTERNS[name]
    assert main(["policy", name, "--json"]) == EXIT_OK
    fields = json.loads(capsys.readouterr().out)
    for field, info in pattern.model.model_fields.items():
        own = info.get_default(call_default_factory=True)
        differs = (
            json.loads(json.dumps(own, default=lambda v: v.model_dump(mode="json")))
            != fields[field]["default"]
        )
        assert ("class_default" in fields[field]) == differs, field
    if name == "supervisor":  # the demo's values are not the class's defaults (own-agent.md said so)
        assert fields["max_tool_calls"] == {**fields["max_tool_calls"], "default": 5, "class_default": 8}
        assert main(["policy", name]) == EXIT_OK
        out = capsys.readouterr().out
        assert "\n  max_tool_calls = 5\n      (SupervisorPolicy default: 8)\n" in out


def test_own_agent_md_says_what_policy_supervisor_lists():
    text = (ROOT / "docs" / "own-agent.md").read_text(encoding="utf-8")
    assert "`agent-patterns policy supervisor` lists every field with its default." not in text
    assert "`SupervisorPolicy`'s own default" in text


def test_a_cumulative_thresholds_question_shows_the_total_with_this_call():
    """90 EUR paid, then 89: the question showed ``run_total=90.0`` for a total of 179 (issue 36)."""
    from langgraph.checkpoint.memory import InMemorySaver

    from apps.cli.progress import progress_line
    from graphs.supervisor import build_graph
    from policies.supervisor import Threshold, ToolRules
    from tests import bank_domain as bank_
    from tests.bank_domain import ACME_IBAN, Bank, call
    from tests.middleware_harness import ToolCallingModel

    tools = bank_.make_tools(Bank())
    limit = [Threshold(arg="amount", limit=150, reason="large_payment", cumulative=True)]
    pay = ToolRules(escalate_above=limit)
    policy = bank_.make_policy(tools, extra_rules={"pay": pay}, worker_protocol="native")
    script = [call("pay", iban=ACME_IBAN, amount=90), call("pay", iban=ACME_IBAN, amount=89), "Paid."]
    graph = build_graph(
        llm=ToolCallingModel(replies=script), tools=tools, policy=policy, checkpointer=InMemorySaver()
    )
    updates = list(
        graph.stream(
            {"messages": [("user", f"Pay {ACME_IBAN} 90 EUR, then 89 EUR.")]},
            {"configurable": {"thread_id": "c1"}},
            stream_mode="updates",
        )
    )
    [asked] = [u["__interrupt__"][0].value for u in updates if "__interrupt__" in u]
    question = asked["action_requests"][0]["description"]
    assert "run_total_before_this_call=90.0, run_total_with_this_call=179.0" in question, question
    assert "run_total=" not in question
    reviews = [u["review"]["review"] for u in updates if "review" in u]
    [review] = [r for r in reviews if r and r["decision"] == "escalate"]
    line = progress_line("review", {"review": review}, 200)
    assert "run_total_with_this_call=179.0" in line and "run_total=" not in line, line


def test_runs_and_waiting_json_give_both_times_as_iso_8601(capsys):
    from datetime import datetime

    assert main(["run", "supervisor", "--human", "--thread-id", "w1"]) == EXIT_WAITING
    capsys.readouterr()
    for command in ("waiting", "runs"):
        assert main([command, "--json"]) == EXIT_OK
        [run] = json.loads(capsys.readouterr().out)
        started, updated = (datetime.fromisoformat(run[k]) for k in ("started_at", "updated_at"))
        assert started.utcoffset() == updated.utcoffset() and started.utcoffset() is not None
        assert 0 <= (updated - started).total_seconds() < 60
