"""Property tests of the pure gateway rules in ``policies/``: whatever a reply holds, every rule
returns a decision (never raises), and a decision that lets a reply through leaves it in the shape
the next node relies on."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from policies import rag, reflection, research, supervisor, task_decomposition
from policies.catalog import MAX_REASON_CHARS, clean_reason
from policies.decision import Decision
from policies.grounding import check_citations, ungrounded_numbers
from policies.human import parse_human_answer
from policies.json_safety import json_problem
from policies.tools import arg_problem, call_signature, check_call, check_result
from tests.fuzz import FOREIGN, JSON_VALUES, NUMBER_TEXT

#: These rules are also fuzzed inside the graphs (tests/test_fuzz_*.py); here a fifth of the profile's
#: examples each keeps the suite's time in budget.
PURE = settings(max_examples=max(50, settings().max_examples // 5))
TEXT = st.one_of(st.text(max_size=200), st.lists(NUMBER_TEXT, max_size=6).map(" ".join))
ANY = st.one_of(JSON_VALUES, TEXT)
SUPERVISOR = supervisor.demo_policy()
TASKS = task_decomposition.TaskDecompositionPolicy()


@PURE
@given(answer=TEXT, evidence=st.one_of(TEXT, JSON_VALUES))
def test_number_grounding_never_raises(answer, evidence):
    missing = ungrounded_numbers(answer, evidence)
    assert all(m in answer for m in missing)
    assert not ungrounded_numbers(answer, [answer, evidence])  # an answer grounds itself


@PURE
@given(citations=st.lists(JSON_VALUES, max_size=6), ids=st.lists(st.text(max_size=8), max_size=6))
def test_citation_check_partitions(citations, ids):
    check = check_citations(citations, ids)
    assert set(check.cited) <= set(ids) and not set(check.unknown) & set(ids)


@PURE
@given(value=st.one_of(JSON_VALUES, st.integers(), st.floats(), FOREIGN))
def test_json_problem_never_raises(value):
    problem = json_problem(value)
    assert (
        problem is None
        or problem
        in (
            "too_deep",
            "too_large",
            "int_out_of_range",
            "non_finite_number",
            "invalid_unicode",
        )
        or problem.split(":")[0] in ("not_json", "key_not_str")
    )


@PURE
@given(reason=st.text())
def test_clean_reason_alphabet(reason):
    cleaned = clean_reason(reason)
    assert cleaned and len(cleaned) <= MAX_REASON_CHARS
    assert all(c.isascii() and (c.isalnum() or c in "_.:-?") for c in cleaned)


@PURE
@given(raw=ANY)
def test_supervisor_action_contract(raw):
    decision = supervisor.validate_action(raw, SUPERVISOR)
    assert isinstance(decision, Decision)
    if decision.passed:
        action = decision.details["action"]
        if action["kind"] == "tool":
            assert arg_problem(action["name"], action["args"], spec=SUPERVISOR.tools[action["name"]]) is None
            review = supervisor.review_action(action, supervisor.ReviewContext(), SUPERVISOR)
            assert review.verdict in ("approve", "revise", "escalate", "block")


@PURE
@given(tool=ANY, args=ANY, result=st.one_of(ANY, FOREIGN))
def test_tool_gateway_rules(tool, args, result):
    decision = check_call(
        tool,
        args,
        limits=SUPERVISOR.gateway_limits(),
        specs=SUPERVISOR.tools,
        registered=["issue_refund"],
        past_calls=[],
    )
    if decision.passed:
        assert tool == "issue_refund" and arg_problem(tool, args, spec=SUPERVISOR.tools[tool]) is None
        assert decision.details["signature"] == call_signature(tool, args)
    assert check_result("t", result).verdict in ("allow", "error", "stop")


@PURE
@given(raw=ANY)
def test_task_plan_contract(raw):
    decision = task_decomposition.validate_plan(raw, TASKS)
    if decision.passed:
        steps = decision.details["steps"]
        assert task_decomposition.MIN_PLAN_STEPS <= len(steps) <= TASKS.max_plan_steps
        assert all(s["tool"] in TASKS.allowed_tools and isinstance(s["args"], dict) for s in steps)
        assert len({s["id"] for s in steps}) == len(steps)


@PURE
@given(raw=ANY, notes=ANY, answer=TEXT, citations=st.lists(JSON_VALUES, max_size=4))
def test_research_contracts(raw, notes, answer, citations):
    policy = research.ResearchPolicy()
    research.validate_plan(raw, policy)
    checked = research.validate_notes(notes, 6, 20)
    if checked.passed:
        verified = research.verify_notes(checked.details["notes"], {}, 20)
        assert not verified.passed  # no page was read: nothing can be verified
    decision = research.validate_synthesis(answer, citations, [], 850)
    assert not decision.passed  # no notes: nothing can be cited


@PURE
@given(intent=ANY, answer=TEXT, citations=st.lists(JSON_VALUES, max_size=4))
def test_rag_contracts(intent, answer, citations):
    policy = rag.RagPolicy(security_policy_enabled=False)
    decision = rag.validate_intent(intent, policy)
    if decision.passed:
        assert set(decision.details["sources"]) <= set(policy.allowed_sources_execution)
        assert 1 <= decision.details["top_k"] <= policy.max_top_k
    context = [{"doc_id": "d1", "text": "Uptime is 99.95%."}]
    checked = rag.validate_answer(answer, citations, context)
    if checked.passed:
        assert checked.details["citations"] == ["d1"]


@PURE
@given(review=ANY, draft=TEXT, revised=TEXT, fix_plan=st.lists(TEXT, max_size=4))
def test_reflection_contracts(review, draft, revised, fix_plan):
    policy = reflection.ReflectionPolicy()
    decision = reflection.validate_review(review, policy)
    if decision.passed:
        assert decision.verdict in policy.execution_review_decisions
    reflection.validate_patch(draft, revised, fix_plan, {"incident": {"eta_minutes": 45}}, policy)


@PURE
@given(value=ANY)
def test_human_answers(value):
    answer = parse_human_answer(value)
    if answer is not None:
        assert answer.type in ("approve", "edit", "reject") and json_problem(value) is None
