"""Fuzzing the Supervisor gateway: generated worker actions (up to eight per run) and human answers
to its escalations, fed through the real compiled graph against an instrumented billing desk whose
tools now and then return values JSON cannot represent."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools.supervisor import GOAL, BillingDesk
from graphs.supervisor import build_graph
from policies.supervisor import REFUND_TOOL, SupervisorPolicy, demo_policy
from policies.tools import is_number
from tests.figures import FIGURES
from tests.fuzz import (
    FOREIGN,
    FOREIGN_SCALARS,
    JSON_VALUES,
    KINDS_DEEP,
    SchemaCheckedTools,
    check_run,
    deliverable_resume,
    mutated,
    reply,
    tainter,
    without_backoff,
)
from tests.helpers import RoleModel

POLICY = demo_policy()
USER_IDS = st.sampled_from([42, 42, 7, 0, -1, 99, 2**40])
AMOUNTS = st.one_of(
    st.sampled_from([0, -5, 0.01, 1, 500, 799.99, 800, 999.99, 1000, 1000.01, 1100, 1200, 1500, 2000, 1e300]),
    st.floats(min_value=-1e4, max_value=1e4, allow_nan=False),
    st.integers(min_value=-(10**6), max_value=10**6),
)
TEXT = st.text(max_size=40)


def tool(name, args):
    return st.fixed_dictionaries({"kind": st.just("tool"), "name": name, "args": args})


ACTIONS = st.one_of(
    tool(st.just("get_refund_context"), st.fixed_dictionaries({"user_id": USER_IDS})),
    tool(
        st.just("issue_refund"),
        st.fixed_dictionaries({"user_id": USER_IDS, "amount_usd": AMOUNTS}, optional={"reason": TEXT}),
    ),
    tool(
        st.just("send_refund_email"),
        st.fixed_dictionaries({"user_id": USER_IDS, "amount_usd": AMOUNTS, "message": TEXT}),
    ),
    tool(st.sampled_from(["delete_account", "issue_refund ", "ISSUE_REFUND", "eval"]), JSON_VALUES),
    st.fixed_dictionaries({"kind": st.just("final"), "answer": TEXT}),
)
EDITS = st.fixed_dictionaries(
    {
        "type": st.just("edit"),
        "edited_action": st.fixed_dictionaries(
            {
                "name": st.sampled_from(["issue_refund", "send_refund_email"]),
                "args": st.fixed_dictionaries({"amount_usd": AMOUNTS}),
            }
        ),
    }
)
HUMAN = st.one_of(
    st.sampled_from([{"type": "approve"}, {"type": "reject", "message": "no"}, "approve", "reject"]),
    EDITS,
    EDITS.flatmap(mutated),
    JSON_VALUES,
    FOREIGN_SCALARS,  # what LangGraph can store but JSON cannot represent reaches the node
    st.builds(lambda value: {"type": "edit", "edited_action": {"args": {"amount_usd": value}}}, FOREIGN),
).filter(deliverable_resume)
POLICIES = st.builds(lambda auto: SupervisorPolicy(auto_approver_enabled=auto), st.booleans())

MODEL = RoleModel()
SAVER = InMemorySaver()
DESK: list[BillingDesk] = []


def _desk_registry():
    desk = BillingDesk()
    DESK[:] = [desk]
    return desk.registry()


#: Most runs get the desk's own results; one in four has a tool returning foreign values.
TAINTS = st.one_of(
    st.just({}),
    st.just({}),
    st.just({}),
    st.dictionaries(st.sampled_from(sorted(POLICY.tools)), tainter(), min_size=1, max_size=2),
)

TOOLS = SchemaCheckedTools(POLICY.tools, _desk_registry)
GRAPH = build_graph(llm=MODEL, policy=POLICY, checkpointer=SAVER, tools=TOOLS.registry())


def check_ledger(result, desk: BillingDesk) -> None:
    """What the billing desk saw: side effects the policy allows, each once."""
    assert not TOOLS.violations, TOOLS.violations
    executed = [name for name, _ in TOOLS.executions]
    assert len(executed) <= POLICY.max_tool_calls
    for name, limit in POLICY.per_tool_limits.items():
        assert executed.count(name) <= limit
    assert desk.duplicate_calls == 0
    refunds = list(desk.refunds.values())
    for name, args in TOOLS.executions:
        if name == REFUND_TOOL:  # the supervisor's hard rules hold, human edits included
            assert is_number(args["amount_usd"]) and args["amount_usd"] > 0, args
    assert sum(r["amount_usd"] for r in refunds) <= POLICY.rules[REFUND_TOOL].run_cap.limit + 0.01
    calls = result.get("calls") or []
    # approved by a human, or by the automatic approver standing in for one (approved_by)
    approved = {c["idempotency_key"] for c in calls if c.get("human_approved") or c.get("approved_by")}
    # a refund whose result was refused stopped the run before it was recorded as a call
    refused = {key for _, key in TOOLS.tainted}
    unapproved = sum(
        r["amount_usd"] for key, r in desk.refunds.items() if key not in approved and key not in refused
    )
    assert unapproved <= 1000, calls  # past the auto limit in all, only with an approval
    assert all(r["user_id"] == 42 for r in refunds) and all(
        e["to"] == "anna@example.com" for e in desk.emails.values()
    )
    for call in calls:
        if call["tool"] == "send_refund_email":
            earlier = calls[: calls.index(call)]
            same = {k: call["args"][k] for k in ("user_id", "amount_usd")}
            assert any(
                c["tool"] == REFUND_TOOL and c["ok"] and same.items() <= c["args"].items() for c in earlier
            ), calls
    FIGURES.count("fuzz:supervisor", "tool_executions", len(executed))
    FIGURES.count("fuzz:supervisor", "refunds_executed", len(refunds))
    FIGURES.count("fuzz:supervisor", "emails_sent", len(desk.emails))


@without_backoff()
@given(
    worker=st.lists(reply(ACTIONS, KINDS_DEEP), max_size=8),
    policy=POLICIES,
    human=st.lists(HUMAN, min_size=3, max_size=3),
    taint=TAINTS,
)
def test_supervisor_gateway_holds_for_any_worker(worker, policy, human, taint):
    MODEL.load({"supervisor.worker": worker})
    TOOLS.reset(taint)
    config = {"configurable": {"thread_id": str(uuid.uuid4())}}
    values = GRAPH.invoke({"goal": GOAL, "subject": {"user_id": 42}}, config, context=policy)
    answers = iter(human)
    while "__interrupt__" in values:
        answer = next(answers, {"type": "reject", "message": "enough"})
        FIGURES.count("fuzz:supervisor", "human_answers")
        values = GRAPH.invoke(Command(resume=answer), config, context=policy)
    result = check_run("supervisor", GRAPH, GRAPH.get_state(config).values, values)
    SAVER.delete_thread(config["configurable"]["thread_id"])
    check_ledger(result, DESK[0])
    if TOOLS.tainted:  # the first foreign result stops the run, by name, before anything else runs
        tool = TOOLS.tainted[0][0]
        assert result["stop_reason"] == f"tool_bad_result:{tool}", result["stop_reason"]
        assert len(TOOLS.tainted) == 1 and TOOLS.executions[-1][0] == tool
        FIGURES.count("fuzz:supervisor", "foreign_results_refused")
    if result["status"] == "ok":
        assert result["answer"].strip()
        assert any(c["tool"] == "get_refund_context" and c["ok"] for c in result["calls"])
