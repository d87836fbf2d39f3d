"""Fuzzing the Research gateway: generated plans, notes and answers (and request hints) fed through
the real compiled graph, with the search and read tools instrumented; now and then one of them
returns values JSON cannot represent."""

from __future__ import annotations

import copy
import uuid

from hypothesis import given
from hypothesis import strategies as st
from langgraph.checkpoint.memory import InMemorySaver

from demo_tools.research import PAGES, REQUEST, demo_read, demo_search
from graphs.research import build_graph
from policies.grounding import quote_in_source, ungrounded_numbers
from policies.json_safety import json_problem
from policies.research import PLAN_SEQUENCE, ResearchPolicy, domain_of, effective_limits, normalize_url
from tests.figures import FIGURES
from tests.fuzz import JSON_VALUES, check_run, cited_answers, script, tainter, without_backoff
from tests.helpers import RoleModel

URLS = [*PAGES, "https://community-rumors.example.net/thread/payment-outage", "https://evil.example.com/x"]
QUERIES = st.sampled_from(["payments incident status and enterprise SLA", "", "  ", "x" * 3000])
PLAN_STEPS = st.lists(st.sampled_from(PLAN_SEQUENCE), min_size=4, max_size=6)
PLANS = st.one_of(
    st.builds(
        lambda q: {
            "steps": [
                {"id": f"s{i}", "action": a, "args": {"query": q} if i == 1 else {}}
                for i, a in enumerate(PLAN_SEQUENCE, 1)
            ]
        },
        QUERIES,
    ),
    st.builds(
        lambda actions: {
            "steps": [{"id": f"s{i}", "action": a, "args": {}} for i, a in enumerate(actions, 1)]
        },
        PLAN_STEPS,
    ),
)


@st.composite
def quotes(draw):
    """A quote: verbatim from a page (often), or not."""
    text = draw(st.sampled_from([p["text"] for p in PAGES.values()]))
    start = draw(st.integers(0, len(text) - 1))
    end = draw(st.integers(start, len(text)))
    verbatim = text[start:end]
    return draw(st.sampled_from([verbatim, verbatim, verbatim.upper(), verbatim + " 99%", "Uptime is 100%."]))


NOTES = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["n1", "n2", "n3", "n1 ", ""]),
        "claim": st.one_of(quotes(), st.sampled_from(["Uptime SLA is 99.95%.", "ETA is 10 minutes.", ""])),
        "quote": quotes(),
        "url": st.sampled_from(URLS),
    },
    optional={"title": st.text(max_size=20), "published_at": st.sampled_from(["2026-03-07", "yesterday"])},
)
EXTRACTS = st.fixed_dictionaries({"notes": st.lists(NOTES, min_size=0, max_size=7)})
ANSWER_WORDS = [
    "Payments are degraded.",
    "Uptime SLA is 99.95%.",
    "P1 response in 15 minutes.",
    "ETA 45 minutes.",
    "3.4%",
    "100% uptime guaranteed.",
    "2026-03-07",
    "See n1.",
]
SYNTHESES = cited_answers(
    ANSWER_WORDS, ["n1", "n2", "n3", "n9", " n1", "https://evil.example.com/x"], max_words=5
)
ROLES = {"research.plan": PLANS, "research.extract": EXTRACTS, "research.synthesize": SYNTHESES}
HINTS = st.one_of(
    st.just(REQUEST["policy_hints"]),
    st.fixed_dictionaries(
        {},
        optional={
            "max_urls": st.one_of(st.integers(-5, 50), JSON_VALUES),
            "max_read_pages": st.integers(-5, 50),
            "max_notes": st.integers(-5, 50),
            "max_answer_chars": st.integers(-5, 5000),
            "allowed_domains_policy": st.lists(st.sampled_from([domain_of(u) for u in URLS]), max_size=4),
            "allowed_domains_execution": st.one_of(
                st.lists(st.sampled_from([domain_of(u) for u in URLS]), max_size=4), JSON_VALUES
            ),
        },
    ),
).filter(lambda hints: json_problem(hints) is None)  # the caller's input: LangGraph stores it first


class Instrumented:
    """The demo search and reader, recording every query and every page actually read."""

    def __init__(self) -> None:
        self.reset()

    def reset(self, taint=None) -> None:
        """Start over; ``taint`` maps "search" or "read" to a function that spoils its results."""
        self.taint = dict(taint or {})
        self.tainted: list[str] = []
        self.searches: list[tuple[str, int]] = []
        self.reads: list[str] = []
        self.pages: dict[str, dict] = {}

    def search(self, query: str, limit: int) -> list[dict]:
        self.searches.append((query, limit))
        return self._maybe_taint("search", demo_search(query, limit))

    def read(self, url: str) -> dict | None:
        self.reads.append(url)
        page = demo_read(url)
        if page is not None:
            if "read" in self.taint:
                return self._maybe_taint("read", page)
            self.pages[normalize_url(url) or url] = page
        return page

    def _maybe_taint(self, tool, result):
        if tool not in self.taint:
            return result
        self.tainted.append(tool)
        return self.taint[tool](result)


#: Most runs get the tools' own results; one in four has search or read returning foreign values.
TAINTS = st.one_of(
    st.just({}),
    st.just({}),
    st.just({}),
    st.dictionaries(st.sampled_from(["search", "read"]), tainter(), min_size=1, max_size=2),
)

TOOLS = Instrumented()
MODEL = RoleModel()
SAVER = InMemorySaver()
GRAPH = build_graph(llm=MODEL, checkpointer=SAVER, search=TOOLS.search, reader=TOOLS.read)


@without_backoff()
@given(replies=script(ROLES), hints=HINTS, taint=TAINTS)
def test_research_gateway_holds_for_any_reply(replies, hints, taint):
    MODEL.load(replies)
    TOOLS.reset(taint)
    request = {**copy.deepcopy(REQUEST), "policy_hints": hints}
    config = {"configurable": {"thread_id": str(uuid.uuid4())}}
    values = GRAPH.invoke({"goal": "Research the US payments incident.", "request": request}, config)
    result = check_run("research", GRAPH, GRAPH.get_state(config).values, values)
    SAVER.delete_thread(config["configurable"]["thread_id"])
    limits = effective_limits(ResearchPolicy(), hints)
    # only pages from domains this runtime may read, never more than the budget
    assert all(domain_of(u) in limits.allowed_domains_execution for u in TOOLS.reads), TOOLS.reads
    assert len(TOOLS.reads) <= limits.max_read_pages
    assert all(limit <= 2 * limits.max_urls for _, limit in TOOLS.searches)
    FIGURES.count("fuzz:research", "pages_read", len(TOOLS.reads))
    if TOOLS.tainted:  # the first foreign result stops the run, by name
        assert result["stop_reason"] == f"tool_invalid_output:{TOOLS.tainted[0]}", result["stop_reason"]
        assert len(TOOLS.tainted) == 1
        FIGURES.count("fuzz:research", "foreign_results_refused")
    if result["status"] == "ok":
        check_grounded(result, limits.max_answer_chars)


def check_grounded(result, max_chars):
    """An accepted answer cites only verified notes, each quoting a page that was read."""
    answer, cited = result["answer"], result["citations"]
    assert cited and len(answer) <= max_chars
    notes = {n["id"]: n for n in result["notes"]}
    assert set(cited) <= set(notes), (cited, list(notes))
    for note_id in cited:
        note = notes[note_id]
        page = TOOLS.pages.get(note["url"])
        assert page is not None, note  # cited evidence comes from a page actually read
        assert quote_in_source(note["quote"], page["text"]), note
    evidence = [[notes[i]["quote"], notes[i]["published_at"]] for i in cited], REQUEST["report_date"]
    assert not ungrounded_numbers(answer, evidence), answer
    FIGURES.count("fuzz:research", "grounded_answers")
