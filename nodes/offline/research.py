"""Offline roles for Research: a plan from the request, notes quoted from the pages, an answer
from the verified notes.

The extractor keeps, for each page, the contiguous run of sentences that bear on the question
(shared words or figures) and quotes it verbatim; its claim restates that run under the page title,
so every number in a claim is in its quote. The synthesizer writes the notes' claims in order,
citing each note it uses, within the answer budget.
"""

from __future__ import annotations

import re
from typing import Any

from policies.research import PLAN_SEQUENCE

#: The plan's actions when the payload names none: the ones the plan must have, in order.
DEFAULT_ACTIONS = list(PLAN_SEQUENCE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "what",
        "which",
        "that",
        "this",
        "with",
        "from",
        "into",
        "apply",
        "then",
        "return",
    ]
)


def _stems(text: str) -> set[str]:
    return {w.rstrip("s") for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in _STOP}


def plan(payload: dict[str, Any]) -> dict[str, Any]:
    query = str(payload.get("question") or payload.get("goal") or "").strip()
    actions = payload.get("required_actions") or DEFAULT_ACTIONS
    steps = [
        {"id": f"s{i}", "action": action, "args": {"query": query} if i == 1 else {}}
        for i, action in enumerate(actions, start=1)
    ]
    return {"steps": steps}


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def relevant_span(text: str, question: str) -> str:
    """The contiguous sentences from the first to the last that share words or hold figures."""
    words = _stems(question)
    parts = sentences(text)
    hits = [i for i, s in enumerate(parts) if _stems(s) & words or re.search(r"\d", s)]
    if not hits:
        return ""
    return " ".join(parts[hits[0] : hits[-1] + 1])


def extract(payload: dict[str, Any]) -> dict[str, Any]:
    question = str(payload.get("question") or "")
    limit = int(payload.get("max_notes") or 6)
    min_chars = int(payload.get("min_quote_chars") or 20)
    notes: list[dict[str, Any]] = []
    for page in payload.get("pages") or []:
        quote = relevant_span(str(page.get("text") or ""), question)
        if len(quote) < min_chars or len(notes) >= limit:
            continue
        title = str(page.get("title") or "Source")
        notes.append(
            {
                "id": f"n{len(notes) + 1}",
                "claim": f"{title}: {quote}",
                "quote": quote,
                "url": page.get("url"),
                "title": title,
                "published_at": page.get("published_at", ""),
            }
        )
    return {"notes": notes}


def synthesize(payload: dict[str, Any]) -> dict[str, Any]:
    limit = int(payload.get("max_answer_chars") or 850)
    parts: list[str] = []
    citations: list[str] = []
    for note in payload.get("notes") or []:
        part = f"{note.get('claim', '').strip()} [{note.get('id')}]"
        if len(" ".join([*parts, part])) > limit:
            break
        parts.append(part)
        citations.append(str(note.get("id")))
    return {"answer": " ".join(parts), "citations": citations}


ROLES = {
    "research.plan": plan,
    "research.extract": extract,
    "research.synthesize": synthesize,
}
