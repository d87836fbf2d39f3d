"""Issue 58: the corpus domain in Cedar through the MCP gateway. The payments domain's runs of
``tests/test_cedar_corpus.py`` (each task clean and with its plants) are made by an MCP client in
front of the gateway (``apps.gateway.proxy.Gateway``): the client is the obedient worker, calling
each tool the task's plan names and each one a plant tells it to, with the user's request in
``_meta``; the gateway reviews every call with the domain's policy, the careful human answering its
questions through the client (MCP elicitation). Each run is made twice: with the native rules, and
with the rules the Cedar export maps moved into Cedar (:func:`tests.test_cedar_corpus.in_cedar`).

What holds, as in the engines: no planted goal is reached under Cedar, and every run decides as
under the native rules (``STRICTER``, the runs where Cedar may be stricter, is empty, as in the
engines)."""

from __future__ import annotations

import asyncio
import io
import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("cedarpy", reason="the cedar extra is not installed")
pytest.importorskip("mcp", reason="the mcp extra is not installed")

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from mcp import types

from apps.gateway.proxy import REQUEST_META, Gateway
from nodes.journal import Journal
from policies.supervisor import SupervisorPolicy
from tests.corpus_harness import Stage, careful_human, middleware_reply
from tests.injection.provenance_domains import DOMAINS, World
from tests.test_cedar_corpus import RUNS, STRICTER, in_cedar


def _listed(tools: list[Any]) -> list[types.Tool]:
    """The tools as an upstream lists them (``tools/list``)."""
    return [
        types.Tool(
            name=t.name,
            description=t.description or t.name,
            input_schema=t.tool_call_schema.model_json_schema(),
        )
        for t in tools
    ]


def _text(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


async def _through_the_gateway(
    task: dict[str, Any], planted: bool, change: Callable[[SupervisorPolicy], SupervisorPolicy] | None
) -> tuple[list[dict[str, Any]], int, list[str]]:
    """One run of ``task`` made by a client through the gateway: the world's side effects, the
    questions the gateway asked and what it said of the calls it refused."""
    domain = DOMAINS[task["domain"]]
    stage = Stage()
    tools = domain.tools(stage)  # type: ignore[arg-type]
    policy = domain.policy(tools)
    policy = change(policy) if change else policy
    stage.world = World(plants=dict(task["plants"]) if planted else {})
    gateway = Gateway(
        tools,
        _listed(tools),
        policy,
        checkpointer=InMemorySaver(),
        journal=Journal(),
        subject=domain.subject,
        poll=0.005,
        log=io.StringIO(),
    )
    asked: list[dict[str, Any]] = []

    async def user(question: dict[str, Any], _thread: str) -> dict[str, Any]:
        asked.append(question)
        return careful_human(task, question)["decisions"][0]

    reply = middleware_reply(task)
    messages: list[BaseMessage] = [HumanMessage(task["request"])]
    refused: list[str] = []
    try:
        for _ in range(40):
            step = reply(messages)
            if not isinstance(step, dict):
                break
            result = await gateway.call(
                "client", step["name"], step["args"], {REQUEST_META: task["request"]}, asker=user
            )
            if result.is_error:
                refused.append(_text(result))
            call_id = f"call-{uuid.uuid4().hex[:8]}"
            messages.append(
                AIMessage("", tool_calls=[{"id": call_id, "name": step["name"], "args": step["args"]}])
            )
            messages.append(ToolMessage(_text(result), tool_call_id=call_id))
    finally:
        await gateway.close()
    return stage.world.effects, len(asked), refused


def _run(task: dict[str, Any], planted: bool, change: Any) -> tuple[list[dict[str, Any]], int, list[str]]:
    return asyncio.run(_through_the_gateway(task, planted, change))


def test_the_payments_domain_in_cedar_decides_through_the_gateway_as_its_native_rules():
    same, stricter = 0, set()
    for task, planted in RUNS:
        label = f"{task['id']}-{'planted' if planted else 'clean'}"
        native, cedar = _run(task, planted, None), _run(task, planted, in_cedar)
        goals = [g for g in task["goals"] if "answer" not in g]
        reached = [g for g in goals if any(all(e.get(k) == v for k, v in g.items()) for e in cedar[0])]
        assert not (planted and reached), (label, cedar[0])
        if (native[0], native[1], len(native[2])) == (cedar[0], cedar[1], len(cedar[2])):
            same += 1
            continue
        # stricter: nothing ran under Cedar that did not run natively, and a Cedar forbid refused
        assert all(e in native[0] for e in cedar[0]), (label, json.dumps(cedar[0]), json.dumps(native[0]))
        assert any("cedar_forbid:" in said for said in cedar[2]), (label, cedar[2])
        stricter.add(label)
    assert stricter == STRICTER, stricter ^ STRICTER
    assert same == len(RUNS) - len(STRICTER)
