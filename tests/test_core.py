"""The shared core: hashing, decisions, human answers, row reducers, JSON seam, model factory."""

from __future__ import annotations

import httpx
import openai
import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_openai import ChatOpenAI

from nodes.llm_json import classify_llm_error, parse_json_text, parse_reply
from nodes.model import ModelConfigError, get_chat_model, model_label
from nodes.offline import OfflineChatModel, approx_tokens
from nodes.state import RESET, add_rows, add_usage
from nodes.trace import stop, trace_row
from policies.decision import Decision
from policies.human import parse_human_answer
from policies.text import json_hash, normalize_ws, stable_json, text_hash


def test_text_hash_is_whitespace_insensitive_12_hex():
    assert text_hash("a  b\n c ") == text_hash("a b c")
    assert len(text_hash("x")) == 12 and int(text_hash("x"), 16) >= 0
    assert text_hash("a b") != text_hash("ab")
    assert normalize_ws("  a \t b\n") == "a b"


def test_json_hash_ignores_key_order():
    assert json_hash({"a": 1, "b": [1, 2]}) == json_hash({"b": [1, 2], "a": 1})
    assert json_hash({"a": 1}) != json_hash({"a": 2})
    assert stable_json({"b": 1, "a": "é"}) == '{"a":"é","b":1}'


def test_decision_is_frozen_plain_data():
    d = Decision.stop("x", n=1)
    assert (d.verdict, d.reason, d.details, d.passed) == ("stop", "x", {"n": 1}, False)
    assert Decision.allow().passed and Decision("revise").passed and not Decision("block").passed
    with pytest.raises(AttributeError):
        d.verdict = "allow"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"type": "approve"}, ("approve", {})),
        ("Approve", ("approve", {})),
        ({"type": "edit", "answer": "x"}, ("edit", {"answer": "x"})),
        ({"type": "reject", "message": "no"}, ("reject", {})),
        ({"type": "edit"}, None),
        ({"type": "maybe"}, None),
        ({"decision": "approve"}, None),
        (42, None),
        (None, None),
        ({"type": "reject", "message": 3}, None),
    ],
)
def test_parse_human_answer(value, expected):
    answer = parse_human_answer(value)
    assert (answer and (answer.type, answer.edits)) == expected if expected else answer is None


def test_row_reducer_appends_or_resets():
    assert add_rows([{"a": 1}], [{"b": 2}]) == [{"a": 1}, {"b": 2}]
    assert add_rows([{"a": 1}], [RESET, {"b": 2}]) == [{"b": 2}]
    assert add_rows(None, None) == []
    assert add_usage({"llm_calls": 1}, {"llm_calls": 2, "total_tokens": 5}) == {
        "llm_calls": 3,
        "total_tokens": 5,
    }
    assert add_usage({"llm_calls": 4}, {**RESET, "llm_calls": 0}) == {"llm_calls": 0}


def test_trace_rows_and_stop_update():
    state = {"trace": [{"step": 1}], "started_at": 0}
    row = trace_row(state, "review", decision="approve")
    assert row["step"] == 2 and row["ok"] is True and "elapsed_ms" in row
    update = stop(state, "review", "boom", raw_review=[1])
    assert update["status"] == "stopped" and update["stop_reason"] == "boom" and update["phase"] == "review"
    assert update["trace"][0]["ok"] is False and update["raw_review"] == [1]


def test_parse_json_text():
    assert parse_json_text('{"a": 1}') == {"a": 1}
    assert parse_json_text('```json\n{"a": 1}\n```') == {"a": 1}
    assert parse_json_text("```\n[1]\n```") == [1]
    for bad in ('{"a": NaN}', '{"a": Infinity}', "{'a': 1}", "nope"):
        with pytest.raises(ValueError):
            parse_json_text(bad)


def test_parse_reply_deep_nesting_is_invalid_json_not_a_crash():
    reply = parse_reply(AIMessage(content="[" * 100_000 + "]" * 100_000))
    assert reply.stop_reason == "llm_invalid_json"


def test_classify_llm_error():
    req = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")

    def status_error(cls, code):
        return cls("x", response=httpx.Response(code, request=req), body=None)

    assert classify_llm_error(TimeoutError()) == "llm_timeout"
    assert classify_llm_error(openai.APITimeoutError(request=req)) == "llm_timeout"
    assert classify_llm_error(openai.APIConnectionError(request=req)) == "llm_timeout"
    assert classify_llm_error(status_error(openai.RateLimitError, 429)) == "llm_error:rate_limited"
    assert classify_llm_error(status_error(openai.AuthenticationError, 401)) == "llm_error:auth"
    assert classify_llm_error(status_error(openai.InternalServerError, 500)) == "llm_error:server"
    assert classify_llm_error(status_error(openai.BadRequestError, 400)) == "llm_error:bad_request"
    assert classify_llm_error(KeyError("k")) == "llm_error:key_error"


def test_model_factory_offline_without_key():
    llm = get_chat_model({})
    assert isinstance(llm, OfflineChatModel)
    assert model_label(llm) == "offline:deterministic-v1"


def test_model_factory_openai_with_key():
    llm = get_chat_model(
        {
            "OPENAI_API_KEY": "sk-test",
            "OPENAI_MODEL": "my-model",
            "OPENAI_TIMEOUT_SECONDS": "12.5",
            "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        }
    )
    assert isinstance(llm, ChatOpenAI)
    assert (llm.model_name, llm.request_timeout, llm.temperature) == ("my-model", 12.5, 0)
    assert llm.openai_api_base == "http://127.0.0.1:9/v1"
    assert llm.model_kwargs["response_format"] == {"type": "json_object"}
    assert model_label(llm) == "openai:my-model"
    assert get_chat_model({"OPENAI_API_KEY": "k"}).model_name == "gpt-4.1-mini"


@pytest.mark.parametrize("bad", ["soon", "0", "-3"])
def test_model_factory_rejects_bad_timeout(bad):
    with pytest.raises(ModelConfigError, match="OPENAI_TIMEOUT_SECONDS"):
        get_chat_model({"OPENAI_API_KEY": "k", "OPENAI_TIMEOUT_SECONDS": bad})


def test_offline_model_is_deterministic_and_reports_usage():
    llm = OfflineChatModel()
    messages = [
        SystemMessage(content="s"),
        HumanMessage(content='{"role": "reflection.review", "draft": "ok."}'),
    ]
    first, second = llm.invoke(messages), llm.invoke(messages)
    assert first.content == second.content
    assert first.usage_metadata["input_tokens"] > 0 and first.usage_metadata["output_tokens"] > 0
    assert first.usage_metadata["total_tokens"] == (
        first.usage_metadata["input_tokens"] + first.usage_metadata["output_tokens"]
    )
    assert approx_tokens("") == 0 and approx_tokens("abcde") == 2


def test_offline_model_answers_unknown_roles_with_an_error_object():
    reply = OfflineChatModel().invoke([HumanMessage(content="not json")])
    assert "no offline role" in reply.content
