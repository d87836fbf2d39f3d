"""Research demo: a search index and pages about a US payments incident on 2026-03-07.

The tools return facts only: search gives ranked results (duplicates and off-policy sources
included, as a real search engine would), the reader gives a page or None. Which results may be
read is the gateway's decision, not theirs.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

GOAL = (
    "Research current US payments incident status and enterprise SLA commitments, then return a "
    "concise grounded summary with citations."
)

REQUEST: dict[str, Any] = {
    "report_date": "2026-03-07",
    "region": "US",
    "question": (
        "What is the current US payments incident status and what enterprise SLA commitments "
        "apply for uptime and P1 response time?"
    ),
    "policy_hints": {
        "allowed_domains_policy": [
            "official-status.example.com",
            "vendor.example.com",
            "regulator.example.org",
        ],
        "allowed_domains_execution": ["official-status.example.com", "vendor.example.com"],
        "max_urls": 6,
        "max_read_pages": 3,
        "max_notes": 6,
        "max_answer_chars": 850,
    },
}

SEARCH_RESULTS: list[dict[str, Any]] = [
    {
        "url": "https://official-status.example.com/incidents/payments-2026-03-07",
        "title": "Payments Incident Update",
        "score": 0.98,
    },
    {
        "url": "https://vendor.example.com/policies/enterprise-sla",
        "title": "Enterprise SLA",
        "score": 0.94,
    },
    {
        "url": "https://regulator.example.org/guidance/customer-communications",
        "title": "Customer Communication Guidance",
        "score": 0.81,
    },
    {
        "url": "https://official-status.example.com/incidents/payments-2026-03-07#latest",
        "title": "Payments Incident Update (latest)",
        "score": 0.73,
    },
    {
        "url": "https://vendor.example.com/policies/enterprise-sla?ref=search",
        "title": "Enterprise SLA",
        "score": 0.71,
    },
    {
        "url": "https://community-rumors.example.net/thread/payment-outage",
        "title": "Community Thread (unverified forum claims)",
        "score": 0.42,
    },
]

PAGES: dict[str, dict[str, str]] = {
    "https://official-status.example.com/incidents/payments-2026-03-07": {
        "title": "Payments Incident Update",
        "published_at": "2026-03-07",
        "text": (
            "US payment gateway is in P1 degraded mode. Failed payment rate is 3.4%. Chargeback "
            "alerts observed: 5. Estimated time to recovery: 45 minutes, subject to change."
        ),
    },
    "https://vendor.example.com/policies/enterprise-sla": {
        "title": "Enterprise SLA",
        "published_at": "2026-01-15",
        "text": (
            "Enterprise monthly uptime SLA is 99.95%. For P1 incidents, first response target is "
            "15 minutes, available 24/7."
        ),
    },
    "https://regulator.example.org/guidance/customer-communications": {
        "title": "Customer Communication Guidance",
        "published_at": "2025-11-04",
        "text": (
            "Service providers should publish regular incident updates with known impact and recovery status."
        ),
    },
}

#: ``search(query, limit) -> [{"url", "title", "score"}, ...]``
SearchTool = Callable[[str, int], list[dict[str, Any]]]
#: ``read(url) -> {"url", "title", "published_at", "text"}`` or None when there is no such page.
ReadTool = Callable[[str], dict[str, Any] | None]


def demo_search(query: str, limit: int) -> list[dict[str, Any]]:
    """The demo index's results, best first, at most ``limit`` (the index answers every query)."""
    ranked = sorted(SEARCH_RESULTS, key=lambda r: -float(r["score"]))
    return copy.deepcopy(ranked[: max(0, limit)])


def _page_key(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/"), "", ""))


def demo_read(url: str) -> dict[str, Any] | None:
    page = PAGES.get(_page_key(url))
    return {"url": url, **page} if page else None


def demo_input() -> dict[str, Any]:
    return {"goal": GOAL, "request": copy.deepcopy(REQUEST)}
