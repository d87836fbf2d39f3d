"""Research nodes: LLM calls (plan, extract notes, synthesize), tool calls (search, read) and the
gateway checks between them.

Each node returns a partial state update and never mutates its input. Tools return facts; the
gateway nodes decide what may be read and what may be used.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from demo_tools.research import ReadTool, SearchTool
from nodes.clock import out_of_time
from nodes.llm_json import LLMSteps
from nodes.run import CitedAnswer, LLMStep, check_reply, policy_for, start_run
from nodes.trace import finish, history_row, stop, trace_row
from policies import research as rules
from policies.json_safety import error_text, plain_copy
from policies.text import text_hash

State = Mapping[str, Any]
Ctx = Runtime[rules.ResearchPolicy]

PLAN_SYSTEM = (
    'You plan a bounded research workflow. Reply with one JSON object {"steps": [...]}, each step '
    '{"id", "action", "args"}, with exactly the actions in required_actions, in that order; the '
    'first step\'s args carry the search "query".'
)
EXTRACT_SYSTEM = (
    "You extract research notes from the pages given, for the question asked. Each note: id "
    "(n1, n2, ...), claim, quote (copied verbatim from the page, at least min_quote_chars long), url "
    "(the page's url), title, published_at. Every number in a claim must appear in its quote. At "
    'most max_notes notes. Reply with one JSON object {"notes": [...]}.'
)
SYNTHESIZE_SYSTEM = (
    "You answer the question only from the verified notes given, citing the ids of the notes you "
    "use. Use no numbers that are not in the cited notes' quotes. At most max_answer_chars "
    'characters. Reply with one JSON object {"answer": "<text>", "citations": ["n1", ...]}.'
)
PATTERN_KEYS = (
    "limits",
    "raw_plan",
    "plan",
    "query",
    "search_results",
    "candidates",
    "to_read",
    "denied_sources",
    "pages",
    "raw_notes",
    "notes",
    "verification_issues",
    "raw_answer",
    "citations",
    "citation_details",
    "aggregate",
    "invalid_citations",
    "ungrounded_numbers",
)


PLAN = LLMStep("plan", PLAN_SYSTEM, keep="raw_plan", expect_object=False)
EXTRACT = LLMStep("read_extract", EXTRACT_SYSTEM, keep="raw_notes")
SYNTHESIZE = LLMStep("synthesize", SYNTHESIZE_SYSTEM, keep="raw_answer", contract=CitedAnswer)


def _check_input(state: State) -> str | None:
    goal = state.get("goal")
    if not isinstance(goal, str) or not goal.strip():
        return "invalid_input:goal"
    if not isinstance(state.get("request", {}), dict):
        return "invalid_input:request"
    return None


#: How a run of the pattern opens (:func:`nodes.run.start_run` with its keys, request and input check).
_open_run = partial(start_run, clear=PATTERN_KEYS, check_input=_check_input, request_key="goal")


def _request(state: State) -> dict[str, Any]:
    request = state.get("request")
    return request if isinstance(request, dict) else {}


def start(
    state: State,
    config: RunnableConfig,
    runtime: Ctx,
    *,
    model: str,
    policy: rules.ResearchPolicy,
    supersteps: int = 0,
) -> dict[str, Any]:
    update = _open_run(state, config, model=model, supersteps=supersteps)
    if update.get("status") != "stopped":
        hints = _request(state).get("policy_hints")
        update["limits"] = rules.effective_limits(policy_for(runtime, policy), hints).as_dict()
    return update


def plan(state: State, runtime: Ctx, *, llm: BaseChatModel, policy: rules.ResearchPolicy) -> LLMSteps:
    policy = policy_for(runtime, policy)
    request = _request(state)
    payload = {
        "role": "research.plan",
        "goal": state["goal"],
        "question": request.get("question", ""),
        "region": request.get("region", ""),
        "report_date": request.get("report_date", ""),
        "required_actions": list(rules.PLAN_SEQUENCE),
        "max_steps": policy.max_steps,
    }
    return (yield from PLAN.ask(state, llm, policy, payload))


def validate_plan(state: State, runtime: Ctx, *, policy: rules.ResearchPolicy) -> dict:
    policy = policy_for(runtime, policy)
    decision, stopped = check_reply(state, "plan", "raw_plan", rules.validate_plan, policy)
    if stopped:
        return stopped
    raw = state["raw_plan"]
    query, steps = decision.details["query"], decision.details["steps"]
    return {
        "plan": steps,
        "query": query,
        "trace": [trace_row(state, "plan", steps=len(steps), query_hash=text_hash(query))],
        "history": [history_row(state, "plan", proposed=raw, query=query)],
    }


def search(state: State, runtime: Ctx, *, policy: rules.ResearchPolicy, search: SearchTool) -> dict:
    policy = policy_for(runtime, policy)
    if out_of_time(state, policy):
        return stop(state, "search", "max_seconds")
    limit = 2 * int(state["limits"]["max_urls"])
    try:
        results = search(state["query"], limit)
    except Exception as exc:
        return stop(state, "search", "tool_error:search", details={"error": error_text(exc)})
    decision = rules.validate_search_results(results)
    if not decision.passed:
        return stop(state, "search", decision.reason, details=decision.details)
    results = plain_copy(results[:limit])  # what was checked, whatever the tool does with it later
    return {
        "search_results": results,
        "trace": [trace_row(state, "search", urls_found=len(results), limit=limit)],
        "history": [history_row(state, "search", query=state["query"], results=results)],
    }


def dedupe(state: State) -> dict:
    kept = rules.dedupe_urls(state["search_results"], int(state["limits"]["max_urls"]))
    figures: dict[str, Any] = {"urls_found": len(state["search_results"]), "urls_after_dedupe": len(kept)}
    if not kept:
        return stop(state, "dedupe", "no_sources_after_dedupe", figures=figures)
    return {
        "candidates": kept,
        "trace": [trace_row(state, "dedupe", **figures)],
        "history": [history_row(state, "dedupe", urls=[c["url"] for c in kept])],
    }


def check_sources(state: State) -> dict:
    """The per-URL source policy: denied sources are recorded, allowed ones queued for reading."""
    limits = rules.ResearchLimits.from_dict(state["limits"])
    allowed, denied = [], []
    for candidate in state["candidates"]:
        decision = rules.source_decision(candidate["url"], limits)
        if decision.passed:
            allowed.append(candidate)
        else:
            denied.append({"url": candidate["url"], "reason": decision.reason})
    to_read = allowed[: limits.max_read_pages]
    figures: dict[str, Any] = {"allowed": len(allowed), "denied": len(denied), "to_read": len(to_read)}
    if not to_read:
        return stop(state, "source_policy", "no_reliable_sources", figures=figures, denied_sources=denied)
    return {
        "to_read": to_read,
        "denied_sources": denied,
        "trace": [trace_row(state, "source_policy", **figures)],
        "history": [history_row(state, "source_policy", allowed=[c["url"] for c in allowed], denied=denied)],
    }


def read(state: State, runtime: Ctx, *, policy: rules.ResearchPolicy, reader: ReadTool) -> dict:
    policy = policy_for(runtime, policy)
    pages, missing = [], []
    for candidate in state["to_read"]:
        if out_of_time(state, policy):
            return stop(state, "read_extract", "max_seconds", denied_sources=state["denied_sources"])
        try:
            page = reader(candidate["url"])
        except Exception as exc:
            return stop(state, "read_extract", "tool_error:read", details={"error": error_text(exc)})
        if page is None:
            missing.append(candidate["url"])
            continue
        decision = rules.validate_page(page)
        if not decision.passed:
            details = {"url": candidate["url"], **decision.details}
            return stop(state, "read_extract", decision.reason, details=details)
        page = plain_copy(page)
        pages.append(
            {**page, "url": candidate["url"], "title": page.get("title") or candidate.get("title", "")}
        )
    if not pages:
        return stop(state, "read_extract", "no_reliable_sources", denied_sources=state["denied_sources"])
    return {
        "pages": pages,
        "history": [history_row(state, "read", urls=[p["url"] for p in pages], missing=missing)],
    }


def extract(state: State, runtime: Ctx, *, llm: BaseChatModel, policy: rules.ResearchPolicy) -> LLMSteps:
    policy = policy_for(runtime, policy)
    payload = {
        "role": "research.extract",
        "question": _request(state).get("question") or state["goal"],
        "pages": [
            {k: p.get(k, "") for k in ("url", "title", "published_at", "text")} for p in state["pages"]
        ],
        "max_notes": state["limits"]["max_notes"],
        "min_quote_chars": policy.min_quote_chars,
    }
    return (yield from EXTRACT.ask(state, llm, policy, payload))


def validate_notes(state: State, runtime: Ctx, *, policy: rules.ResearchPolicy) -> dict:
    raw = state["raw_notes"]
    limits, policy = state["limits"], policy_for(runtime, policy)
    decision = rules.validate_notes(raw.get("notes"), limits["max_notes"], policy.min_quote_chars)
    figures: dict[str, Any] = {"pages_read": len(state["pages"])}
    if not decision.passed:
        return stop(
            state, "read_extract", decision.reason, figures=figures, raw_notes=raw, details=decision.details
        )
    notes = decision.details["notes"]
    return {
        "notes": notes,
        "trace": [trace_row(state, "read_extract", **figures, notes_count=len(notes))],
        "history": [history_row(state, "read_extract", notes=notes)],
    }


def verify(state: State, runtime: Ctx, *, policy: rules.ResearchPolicy) -> dict:
    pages = {p["url"]: p for p in state["pages"]}
    decision = rules.verify_notes(state["notes"], pages, policy_for(runtime, policy).min_quote_chars)
    if not decision.passed:
        issues = decision.details["issues"]
        return stop(
            state, "verify", decision.reason, figures={"issues": len(issues)}, verification_issues=issues
        )
    notes = decision.details["notes"]
    return {
        "notes": notes,
        "trace": [trace_row(state, "verify", verified_notes=len(notes), issues=0)],
        "history": [history_row(state, "verify", verified=[n["id"] for n in notes])],
    }


def synthesize(state: State, runtime: Ctx, *, llm: BaseChatModel, policy: rules.ResearchPolicy) -> LLMSteps:
    policy = policy_for(runtime, policy)
    payload = {
        "role": "research.synthesize",
        "question": _request(state).get("question") or state["goal"],
        "notes": state["notes"],
        "max_answer_chars": state["limits"]["max_answer_chars"],
    }
    return (yield from SYNTHESIZE.ask(state, llm, policy, payload))


def _aggregate(state: State, citations: list[str]) -> dict[str, Any]:
    return {
        "query": state["query"],
        "urls_found": len(state["search_results"]),
        "urls_after_dedupe": len(state["candidates"]),
        "pages_read": len(state["pages"]),
        "notes_count": len(state["notes"]),
        "citations_count": len(citations),
        "denied_sources": state["denied_sources"],
        "verified_notes": len(state["notes"]),
    }


def validate_synthesis(state: State) -> dict:
    raw = state["raw_answer"]
    answer, notes = raw["answer"], state["notes"]
    report_date = _request(state).get("report_date")
    decision = rules.validate_synthesis(
        answer, raw["citations"], notes, int(state["limits"]["max_answer_chars"]), report_date
    )
    if not decision.passed:
        named = {
            k: v for k, v in decision.details.items() if k in ("invalid_citations", "ungrounded_numbers")
        }
        return stop(state, "synthesize", decision.reason, raw_answer=raw, details=decision.details, **named)
    citations = decision.details["citations"]
    details = [
        {k: n[k] for k in ("id", "url", "title", "published_at")} for n in notes if n["id"] in citations
    ]
    return finish(
        state,
        "synthesize",
        "grounded_research_answer",
        answer,
        figures={"citations_count": len(citations), "answer_hash": text_hash(answer)},
        row={"answer": answer, "citations": citations},
        citations=citations,
        citation_details=details,
        aggregate=_aggregate(state, citations),
    )
