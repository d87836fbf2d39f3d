"""Fuzzing the Reflection gateway: generated draft, review and revision replies (and human answers
to an escalation) fed through the real compiled graph."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools.reflection import demo_input
from graphs.reflection import build_graph
from policies.json_safety import json_problem
from policies.reflection import ISSUE_TYPES, ReflectionPolicy
from policies.text import normalize_ws
from tests.figures import FIGURES
from tests.fuzz import (
    FOREIGN,
    FOREIGN_SCALARS,
    JSON_VALUES,
    check_run,
    deliverable_resume,
    mutated,
    script,
    without_backoff,
)
from tests.helpers import RoleModel

SENTENCES = [
    "Incident inc_payments_20260305 (P1) affecting payments in US is degraded.",
    "We expect full recovery within 45 minutes.",
    "Our current estimate for recovery is 45 minutes, and this may change.",
    "About 27% of checkout attempts are affected.",
    "The failed payment rate is 3.4%; we have seen 5 chargeback alerts.",
    "We will monitor payment failures every 15 minutes.",
    "We guarantee no further impact.",
    "We will compensate every affected customer.",
    "The incident is resolved.",
    "Customers in EU are affected too.",
]
TEXT = st.one_of(
    st.lists(st.sampled_from(SENTENCES), min_size=1, max_size=6).map(" ".join), st.text(max_size=80)
)
DRAFTS = st.fixed_dictionaries({"draft": TEXT})
ISSUES = st.fixed_dictionaries(
    {"type": st.sampled_from([*ISSUE_TYPES, "typo", "OVERCONFIDENCE", ""]), "note": st.text(max_size=30)}
)
FIX_ITEMS = st.one_of(
    st.builds(
        lambda a, b: f"Replace '{a}' with '{b}'", st.sampled_from(SENTENCES), st.sampled_from(SENTENCES)
    ),
    st.builds(lambda a: f"Add '{a}'", st.sampled_from(SENTENCES)),
    st.text(max_size=40),
)
ESCALATIONS = st.fixed_dictionaries(
    {
        "decision": st.just("escalate"),
        "issues": st.just([{"type": "legal_risk", "note": "Promises compensation."}]),
        "fix_plan": st.just([]),
        "reason": st.sampled_from(["Legal must approve compensation wording.", "x" * 500]),
    }
)
GENERATED_REVIEWS = st.fixed_dictionaries(
    {
        "decision": st.sampled_from(["approve", "revise", "escalate", "Revise ", "reject", ""]),
        "issues": st.lists(ISSUES, max_size=5),
        "fix_plan": st.lists(FIX_ITEMS, max_size=5),
        "reason": st.text(max_size=40),
    }
)
REVIEWS = st.one_of(ESCALATIONS, GENERATED_REVIEWS)
REVISIONS = st.fixed_dictionaries({"revised_answer": TEXT})
ROLES = {"reflection.draft": DRAFTS, "reflection.review": REVIEWS, "reflection.revise": REVISIONS}
HUMAN = st.one_of(
    st.sampled_from([{"type": "approve"}, {"type": "reject", "message": "no"}, "approve", {"decisions": []}]),
    st.fixed_dictionaries({"type": st.just("edit"), "answer": TEXT}),
    st.fixed_dictionaries({"type": st.just("edit"), "answer": TEXT}).flatmap(mutated),
    JSON_VALUES,
    FOREIGN_SCALARS,  # what LangGraph can store but JSON cannot represent reaches the node
    st.builds(lambda value: {"type": "edit", "answer": value}, FOREIGN),
).filter(deliverable_resume)
POLICIES = st.builds(
    lambda revise, human: ReflectionPolicy(auto_revision_enabled=revise, human_review_on_escalate=human),
    st.sampled_from([True, True, True, False]),
    st.booleans(),
)

MODEL = RoleModel()
SAVER = InMemorySaver()
GRAPH = build_graph(llm=MODEL, checkpointer=SAVER)
POLICY_LIMITS = ReflectionPolicy()


@without_backoff()
@given(replies=script(ROLES), policy=POLICIES, human=HUMAN)
def test_reflection_gateway_holds_for_any_reply(replies, policy, human):
    MODEL.load(replies)
    config = {"configurable": {"thread_id": str(uuid.uuid4())}}
    values = GRAPH.invoke(demo_input(), config, context=policy)
    asked = "__interrupt__" in values
    if asked:
        FIGURES.count("fuzz:reflection", "human_reviews")
        values = GRAPH.invoke(Command(resume=human), config, context=policy)
    result = check_run("reflection", GRAPH, GRAPH.get_state(config).values, values)
    if asked and json_problem(human) is not None:  # an answer JSON cannot represent is refused
        assert result["stop_reason"] == "invalid_human_answer", result["stop_reason"]
        FIGURES.count("fuzz:reflection", "foreign_human_answers_refused")
    SAVER.delete_thread(config["configurable"]["thread_id"])
    FIGURES.count("fuzz:reflection:roles_called", ",".join(dict.fromkeys(MODEL.calls)) or "none")
    if result["status"] == "ok":
        answer = result["answer"]
        assert normalize_ws(answer) and len(answer) <= POLICY_LIMITS.max_answer_chars
        assert result["outcome"] in ("approved_direct", "revised_once", "approved_by_human")
        if result["outcome"] == "revised_once":
            assert policy.auto_revision_enabled and result["review_decision"] == "revise"
        if result["outcome"] == "approved_by_human":
            assert policy.human_review_on_escalate
