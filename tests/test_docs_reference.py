"""docs/own-agent-reference.md's "Parameters and source names" names exactly what the code accepts:
every parameter of ``GovernanceMiddleware`` and every source name a rule takes."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from nodes.middleware import GovernanceMiddleware
from policies.supervisor import SupervisorPolicy
from policies.supervisor.rules import kinds as rules

DOC = (Path(__file__).resolve().parent.parent / "docs" / "own-agent-reference.md").read_text(encoding="utf-8")


def _table(heading: str) -> dict[str, str]:
    """The first column (its code span) → the row, of the table under ``heading``."""
    section = DOC[DOC.index(heading) :]
    section = section[: section.index("\n#", 1)] if "\n#" in section[1:] else section
    rows = re.findall(r"^\| `([^`]+)` \|(.*)$", section, re.MULTILINE)
    assert rows, f"no table under {heading!r}"
    return dict(rows)


def test_every_middleware_parameter_is_documented_and_nothing_else():
    documented = _table("### `GovernanceMiddleware(...)` parameters")
    parameters = [p for p in inspect.signature(GovernanceMiddleware.__init__).parameters if p != "self"]
    assert sorted(documented) == sorted(parameters)


def test_the_documented_defaults_are_the_codes():
    documented = _table("### `GovernanceMiddleware(...)` parameters")
    signature = inspect.signature(GovernanceMiddleware.__init__).parameters
    assert "required" in documented["tools"]
    with pytest.raises(ValueError, match="tools"):
        GovernanceMiddleware(SupervisorPolicy())
    for name in ("custom_rules", "subject"):
        assert signature[name].default is None and "`{}`" in documented[name]
    assert signature["policy"].default is None and "`SupervisorPolicy()`" in documented["policy"]


def test_every_source_name_is_documented_and_nothing_else():
    documented = set(_table("### Source names a rule accepts"))
    code = {*rules._SOURCE_NAMES, *(f"{prefix}<name>" for prefix in rules._NAMED_SOURCES)}
    assert documented == code


@pytest.mark.parametrize(
    "name", ["request", "subject", "policy", "named", "trusted", "any", "tool:x", "call:x"]
)
def test_every_documented_source_name_is_accepted(name):
    assert rules.known_sources([name]) == [name]


@pytest.mark.parametrize("name", ["requests", "tool:", "call:", "tools:x", "untrusted", ""])
def test_an_undocumented_source_name_is_refused_when_the_policy_is_built(name):
    with pytest.raises(ValueError, match="unknown source"):
        rules.known_sources([name])


def _streamed(**model_kwargs):
    """The docs' create_agent recipe, streamed as chat UIs stream it (``stream_mode="messages"``)."""
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langgraph.checkpoint.memory import InMemorySaver

    def cancel_order(order_id: str) -> dict:
        """Cancel an order."""
        return {"cancelled": order_id}

    class Model(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):
            return self

    call = {"name": "cancel_order", "args": {"order_id": "A1"}, "id": "c1"}
    model = Model(
        messages=iter([AIMessage("", tool_calls=[call]), AIMessage("Cancelled A1.")]), **model_kwargs
    )
    policy = SupervisorPolicy.for_tools([cancel_order], side_effects=["cancel_order"])
    governance = GovernanceMiddleware(policy, tools=[cancel_order])
    agent = create_agent(model, [cancel_order], middleware=[governance], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    chat = {"messages": [{"role": "user", "content": "Cancel order A1"}]}
    list(agent.stream(chat, config, stream_mode="messages"))
    return agent.get_state(config).values


def test_the_scripted_recipe_streams_with_disable_streaming_as_the_docs_say():
    assert "disable_streaming=True" in DOC and 'stream_mode="messages"' in DOC
    done = _streamed(disable_streaming=True)
    assert done["messages"][-1].content == "Cancelled A1."
    assert [c["tool"] for c in done["governance_calls"]] == ["cancel_order"]
    # without it, LangChain's fake model cannot stream a tool-call-only reply (what the docs warn of)
    with pytest.raises(ValueError, match="No generations found in stream"):
        _streamed()


def test_the_documented_custom_rule_signature_is_the_codes():
    import typing

    from policies.supervisor import CustomRule, ReviewContext

    arguments, returned = typing.get_args(CustomRule)
    assert arguments[1] is ReviewContext and len(arguments) == 2
    row = _table("### `GovernanceMiddleware(...)` parameters")["custom_rules"]
    assert "`(action, context) -> Decision \\| None`" in row and "Decision" in str(returned)
