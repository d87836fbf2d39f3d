"""The Reflection graph with scripted models: every route, gateway stop and LLM failure."""

from __future__ import annotations

import httpx
import openai
import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from demo_tools.reflection import demo_input
from graphs import reflection
from graphs.reflection import build_graph
from nodes.offline import OfflineChatModel
from policies.reflection import ReflectionPolicy
from policies.text import text_hash
from tests.helpers import FakeClock, RaisingModel, gateway_rows, llm_rows, scripted, thread

DRAFT = (
    "Current status: Incident inc_payments_20260305 (P1) in US is degraded. We expect full recovery "
    "within 45 minutes.\nCustomer impact: About 27% of checkout attempts are affected.\n"
    "Next actions: We will monitor payment failures every 15 minutes."
)
OLD = "We expect full recovery within 45 minutes."
NEW = "Our current estimate for recovery is 45 minutes, and this may change."
REVISED = DRAFT.replace(OLD, NEW)
APPROVE = {"decision": "approve", "issues": [], "fix_plan": [], "reason": "fine"}
REVISE = {
    "decision": "revise",
    "issues": [{"type": "overconfidence", "note": "ETA stated as certain"}],
    "fix_plan": [f"Replace '{OLD}' with '{NEW}'"],
    "reason": "hedge the ETA",
}
ESCALATE = {
    "decision": "escalate",
    "issues": [{"type": "legal_risk", "note": "mentions compensation"}],
    "fix_plan": [],
    "reason": "Legal must approve any compensation wording. " * 5,
}


def run(*replies, policy=None, llm=None, checkpointer=None, config=None):
    graph = build_graph(llm=llm or scripted(*replies), policy=policy, checkpointer=checkpointer)
    return graph.invoke(demo_input(), config)


def picked(result, *keys):
    """The result's values of ``keys``, in order."""
    return tuple(result[key] for key in keys)


def phases(result):
    """Gateway phases, in order (each LLM call also writes a row of its own: see ``llm_rows``)."""
    return [row["phase"] for row in gateway_rows(result["trace"])]


# ------------------------------------------------------------------ routes


def test_approved_directly():
    result = run({"draft": DRAFT}, APPROVE)
    assert picked(result, "status", "stop_reason", "outcome") == ("ok", "success", "approved_direct")
    assert result["answer"] == DRAFT
    assert result["review_decision"] == "approve"
    assert phases(result) == ["draft", "review", "finalize"]
    assert gateway_rows(result["trace"])[0]["draft_hash"] == text_hash(DRAFT)
    assert [row["step"] for row in result["trace"]] == [1, 2, 3, 4, 5]
    assert [(row["step"], row["phase"]) for row in llm_rows(result["trace"])] == [(1, "draft"), (3, "review")]


def test_revised_once():
    result = run({"draft": DRAFT}, REVISE, {"revised_answer": REVISED})
    assert (result["status"], result["outcome"]) == ("ok", "revised_once")
    assert result["answer"] == REVISED
    assert result["issues"] == REVISE["issues"] and result["fix_plan"] == REVISE["fix_plan"]
    assert phases(result) == ["draft", "review", "revise", "finalize"]
    revise_row = gateway_rows(result["trace"])[2]
    assert revise_row["checks_enforced"] == 2
    assert revise_row["revised_hash"] == text_hash(REVISED)
    assert revise_row["patch_similarity"] == round(revise_row["patch_similarity"], 3)
    assert [h["phase"] for h in result["history"]] == ["draft", "review", "revise", "finalize"]
    assert all("elapsed_ms" in row for row in result["trace"])


def test_escalated_stops_with_reason_cut_to_120_chars():
    result = run({"draft": DRAFT}, ESCALATE)
    assert picked(result, "status", "stop_reason", "phase") == ("stopped", "policy_escalation", "review")
    assert len(result["escalation_reason"]) == 120
    assert result["review"]["decision"] == "escalate"
    assert result["draft"] == DRAFT  # nothing already done is lost
    assert "answer" not in result


def test_model_label_in_result():
    assert run({"draft": DRAFT}, APPROVE)["model"] == "FakeListChatModel"
    assert build_graph().invoke(demo_input())["model"] == "offline:deterministic-v1"


# ------------------------------------------------------------------ gateway stops


@pytest.mark.parametrize(
    ("replies", "reason", "phase"),
    [
        (({"draft": "   "},), "invalid_draft:empty", "draft"),
        (({"draft": "x" * 901},), "invalid_draft:too_long", "draft"),
        (({"draft": DRAFT}, ["approve"]), "invalid_review:not_object", "review"),
        (({"draft": DRAFT}, {"decision": "ship"}), "review_decision_not_allowed_policy:ship", "review"),
        (
            ({"draft": DRAFT}, {**REVISE, "issues": [{"type": "legal_risk", "note": "n"}]}),
            "invalid_review:high_risk_requires_escalate",
            "review",
        ),
        (({"draft": DRAFT}, REVISE, {"revised_answer": DRAFT}), "invalid_revised:no_changes", "revise"),
        (
            ({"draft": DRAFT}, REVISE, {"revised_answer": REVISED + " Rate is 9%."}),
            "patch_violation:no_new_facts",
            "revise",
        ),
        (
            ({"draft": DRAFT}, REVISE, {"revised_answer": REVISED + " Incident resolved."}),
            "patch_violation:restricted_claims",
            "revise",
        ),
        (
            ({"draft": DRAFT}, REVISE, {"revised_answer": DRAFT + " Thanks."}),
            "patch_violation:fix_plan_not_applied",
            "revise",
        ),
    ],
)
def test_gateway_stops(replies, reason, phase):
    result = run(*replies)
    assert picked(result, "status", "stop_reason", "phase") == ("stopped", reason, phase)
    assert result["trace"][-1] == {**result["trace"][-1], "ok": False, "stop_reason": reason}


def test_final_answer_too_long_stops_at_finalize():
    policy = ReflectionPolicy(max_draft_chars=900, max_answer_chars=100)
    result = run({"draft": DRAFT}, APPROVE, policy=policy)
    assert (result["stop_reason"], result["phase"]) == ("invalid_answer:too_long", "finalize")


def test_revise_denied_for_execution_when_auto_revision_is_off():
    result = run({"draft": DRAFT}, REVISE, policy=ReflectionPolicy(auto_revision_enabled=False))
    assert result["stop_reason"] == "review_decision_denied_execution:revise"
    assert result["raw_review"] == REVISE


def test_run_time_context_overrides_the_built_policy():
    graph = build_graph(llm=scripted({"draft": DRAFT}, REVISE))
    result = graph.invoke(demo_input(), context=ReflectionPolicy(auto_revision_enabled=False))
    assert result["stop_reason"] == "review_decision_denied_execution:revise"


@pytest.mark.parametrize(
    ("inputs", "reason"),
    [
        ({"incident_context": {}}, "invalid_input:goal"),
        ({"goal": "  ", "incident_context": {}}, "invalid_input:goal"),
        ({"goal": "g", "incident_context": ["x"]}, "invalid_input:incident_context"),
    ],
)
def test_bad_input_stops_without_calling_the_model(inputs, reason):
    model = RaisingModel(replies=[AssertionError("must not be called")])
    result = build_graph(llm=model).invoke(inputs)
    assert picked(result, "status", "stop_reason", "phase") == ("stopped", reason, "input")
    assert model.calls == 0


# ------------------------------------------------------------------ LLM failures


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("", "llm_empty"),
        ("   ", "llm_empty"),
        ("Sure! Here is the draft.", "llm_invalid_json"),
        ("[1, 2]", "llm_invalid_json"),
        ('{"draft": NaN}', "llm_invalid_json"),
        ('{"text": "wrong key"}', "llm_invalid_schema"),
        ('{"draft": 42}', "llm_invalid_schema"),
    ],
)
def test_llm_failures_in_draft(reply, reason):
    result = run(reply)
    assert picked(result, "status", "stop_reason", "phase") == ("stopped", reason, "draft")
    assert result["raw_reply"] == reply


def test_code_fenced_json_is_accepted():
    result = run("```json\n" + '{"draft": "' + DRAFT.replace("\n", "\\n") + '"}\n```', APPROVE)
    assert result["status"] == "ok"


def test_llm_failure_in_review_keeps_the_draft():
    result = run({"draft": DRAFT}, "not json")
    assert (result["stop_reason"], result["phase"]) == ("llm_invalid_json", "review")
    assert result["draft"] == DRAFT
    assert phases(result) == ["draft", "review"]


def test_llm_failure_in_revise():
    result = run({"draft": DRAFT}, REVISE, {"revised": "x"})
    assert (result["stop_reason"], result["phase"]) == ("llm_invalid_schema", "revise")


@pytest.mark.parametrize(
    "exc",
    [
        TimeoutError("slow"),
        httpx.ConnectTimeout("connect timeout"),
        openai.APITimeoutError(request=httpx.Request("POST", "http://127.0.0.1/v1")),
        openai.APIConnectionError(request=httpx.Request("POST", "http://127.0.0.1/v1")),
    ],
)
def test_model_raising_a_timeout(exc, instant_backoff):
    model = RaisingModel(replies=[exc])
    result = run(llm=model)
    assert model.calls == 3 and instant_backoff == [0.5, 1.0]  # retried twice, backing off
    assert picked(result, "status", "stop_reason", "phase") == ("stopped", "llm_timeout", "draft")


def test_model_raising_something_else_is_a_named_error_not_a_crash():
    result = run(llm=RaisingModel(replies=[{"draft": DRAFT}, ValueError("boom")]))
    assert (result["stop_reason"], result["phase"]) == ("llm_error:value_error", "review")
    assert "boom" in result["llm_detail"]


def test_slow_model_hits_its_own_call_timeout():
    policy = ReflectionPolicy(llm_timeout_seconds=0.2, llm_max_retries=0)
    result = run(llm=scripted({"draft": DRAFT}, sleep=2), policy=policy)
    assert (result["stop_reason"], result["phase"]) == ("llm_timeout", "draft")
    assert result["trace"][-1]["elapsed_ms"] < 1500


def test_slow_model_hits_max_seconds():
    policy = ReflectionPolicy(max_seconds=0.3)
    result = run(llm=scripted({"draft": DRAFT}, sleep=2), policy=policy)
    assert (result["stop_reason"], result["phase"]) == ("max_seconds", "draft")


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr("nodes.clock.now", fake)
    return fake


def test_max_seconds_checked_before_review(clock):
    # The draft arrives, but the run's 30 s are spent by then: the review is never asked for.
    model = RaisingModel(replies=[clock.after(31, {"draft": DRAFT}), APPROVE])
    result = run(llm=model)
    assert (result["stop_reason"], result["phase"]) == ("max_seconds", "review")
    assert model.calls == 1
    assert result["draft"] == DRAFT


def test_max_seconds_checked_before_revise(clock):
    model = RaisingModel(replies=[{"draft": DRAFT}, clock.after(31, REVISE), {"revised_answer": REVISED}])
    result = run(llm=model)
    assert (result["stop_reason"], result["phase"]) == ("max_seconds", "revise")
    assert model.calls == 2
    assert phases(result) == ["draft", "review", "revise"]


# ------------------------------------------------------------------ human review of an escalation


def test_escalation_to_a_human_approve_edit_reject():
    policy = ReflectionPolicy(human_review_on_escalate=True)
    saver = InMemorySaver()
    for answer, expected in [
        ({"type": "approve"}, ("ok", "approved_by_human", DRAFT)),
        ({"type": "edit", "answer": "Edited update."}, ("ok", "approved_by_human", "Edited update.")),
        ({"type": "reject", "message": "no"}, ("stopped", "human_rejected", None)),
        ({"type": "maybe"}, ("stopped", "invalid_human_answer", None)),
    ]:
        graph = build_graph(llm=scripted({"draft": DRAFT}, ESCALATE), policy=policy, checkpointer=saver)
        config = thread()
        paused = graph.invoke(demo_input(), config)
        request = paused["__interrupt__"][0].value
        assert request["kind"] == "reflection_escalation" and request["draft"] == DRAFT
        assert graph.get_state(config).next == ("escalate",)
        result = graph.invoke(Command(resume=answer), config)
        status = result["status"]
        if status == "ok":
            assert (status, result["outcome"], result["answer"]) == expected
        else:
            assert (status, result["stop_reason"]) == expected[:2]


# ------------------------------------------------------------------ offline model, checkpointer


def test_offline_demo_run_revises_and_has_one_trace_row_per_phase():
    result = build_graph(llm=OfflineChatModel()).invoke(demo_input())
    assert (result["status"], result["stop_reason"]) == ("ok", "success")
    assert result["outcome"] in {"approved_direct", "revised_once"}
    assert phases(result) == ["draft", "review", "revise", "finalize"]
    assert "may change" in result["answer"]
    assert result["usage"]["llm_calls"] == 3 and result["usage"]["total_tokens"] > 0
    calls = llm_rows(result["trace"])
    assert [row["phase"] for row in calls] == ["draft", "review", "revise"]
    assert sum(row["input_tokens"] + row["output_tokens"] for row in calls) == result["usage"]["total_tokens"]
    assert result["usage"]["cost_usd"] == 0.0 and result["usage"]["unpriced_calls"] == 0


def test_module_graph_compiles_without_checkpointer():
    assert reflection.graph.checkpointer is None
    nodes = set(reflection.graph.get_graph().nodes)
    assert {"draft", "validate_draft", "review", "validate_review", "revise", "validate_patch"} <= nodes


def test_history_is_readable_from_the_checkpointer():
    saver = InMemorySaver()
    config = thread()
    result = run({"draft": DRAFT}, REVISE, {"revised_answer": REVISED}, checkpointer=saver, config=config)
    graph = build_graph(llm=scripted(), checkpointer=saver)
    values = graph.get_state(config).values
    assert values["trace"] == result["trace"] and values["history"] == result["history"]
    assert values["run_id"] == result["run_id"] and values["thread_id"] == config["configurable"]["thread_id"]
    snapshots = list(graph.get_state_history(config))
    assert len(snapshots) >= 9  # one checkpoint per superstep
    assert {s.metadata["source"] for s in snapshots} >= {"input", "loop"}


def test_a_second_run_on_the_same_thread_starts_clean():
    saver = InMemorySaver()
    config = thread()
    first = run({"draft": DRAFT}, REVISE, {"revised_answer": REVISED}, checkpointer=saver, config=config)
    second = run({"draft": DRAFT}, APPROVE, checkpointer=saver, config=config)
    assert second["run_id"] != first["run_id"]
    assert phases(second) == ["draft", "review", "finalize"]
    assert second["outcome"] == "approved_direct"
    assert second.get("revised_answer") is None
    assert first["usage"]["llm_calls"] == 3
    assert second["usage"]["llm_calls"] == 2  # counts start over with the new run
