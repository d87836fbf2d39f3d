"""Research: the policy and the pure checks of plan, sources, notes and synthesis.

The grounding rules themselves (verbatim quotes, number grounding, citation checks) live in
:mod:`policies.grounding`, shared with RAG and Task Decomposition.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import Field

from policies.base import BasePolicy
from policies.decision import Decision
from policies.grounding import check_citations, quote_in_source, ungrounded_numbers
from policies.json_safety import json_problem
from policies.text import nonblank_str, normalize_ws

PLAN_SEQUENCE: tuple[str, ...] = (
    "search_sources",
    "dedupe_urls",
    "read_extract_notes",
    "verify_notes",
    "synthesize_answer",
)
DEFAULT_POLICY_DOMAINS = ["official-status.example.com", "vendor.example.com", "regulator.example.org"]
DEFAULT_EXECUTION_DOMAINS = ["official-status.example.com", "vendor.example.com"]

#: Request hints that may override a count budget, and the range each is clamped to.
HINT_RANGES: dict[str, tuple[int, int]] = {
    "max_urls": (1, 20),
    "max_read_pages": (1, 10),
    "max_notes": (1, 20),
    "max_answer_chars": (120, 2000),
}


class ResearchPolicy(BasePolicy):
    """Budgets and allowlists of the Research pattern (defaults from the spec)."""

    max_seconds: float = Field(25.0, gt=0, description="Wall-clock budget for the whole run.")
    max_steps: int = Field(8, ge=1, description="Most steps a plan may have.")
    max_urls: int = Field(6, ge=1, description="Most URLs kept after dedupe (search asks for twice).")
    max_read_pages: int = Field(3, ge=1, description="Most pages read.")
    max_notes: int = Field(6, ge=1, description="Most notes extracted.")
    max_answer_chars: int = Field(850, ge=1, description="Longest synthesized answer.")
    min_quote_chars: int = Field(20, ge=1, description="Shortest quote a note may carry.")
    allowed_domains_policy: list[str] = Field(
        default_factory=lambda: list(DEFAULT_POLICY_DOMAINS),
        description="Domains a source may come from in principle.",
    )
    allowed_domains_execution: list[str] = Field(
        default_factory=lambda: list(DEFAULT_EXECUTION_DOMAINS),
        description="Domains this runtime may read now (never wider than the policy list).",
    )


@dataclass(frozen=True)
class ResearchLimits:
    """The budgets and allowlists one run works with: the policy, with the request's hints."""

    max_urls: int
    max_read_pages: int
    max_notes: int
    max_answer_chars: int
    allowed_domains_policy: tuple[str, ...]
    allowed_domains_execution: tuple[str, ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ResearchLimits:
        return cls(
            max_urls=int(data["max_urls"]),
            max_read_pages=int(data["max_read_pages"]),
            max_notes=int(data["max_notes"]),
            max_answer_chars=int(data["max_answer_chars"]),
            allowed_domains_policy=tuple(data["allowed_domains_policy"]),
            allowed_domains_execution=tuple(data["allowed_domains_execution"]),
        )

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["allowed_domains_policy"] = list(self.allowed_domains_policy)
        data["allowed_domains_execution"] = list(self.allowed_domains_execution)
        return data


def clamp_hint(value: Any, default: int, low: int, high: int) -> int:
    """An integer hint clamped to ``[low, high]``; anything else (booleans too) gives ``default``."""
    if not isinstance(value, int) or isinstance(value, bool):
        return default
    return max(low, min(high, value))


def _domain_hint(value: Any, allowed: list[str]) -> tuple[str, ...]:
    """A domain list from a hint, narrowed to ``allowed``: a request may restrict, never widen."""
    base = tuple(d.strip().lower() for d in allowed)
    if not isinstance(value, list) or not value:
        return base
    hinted = {d.strip().lower() for d in value if nonblank_str(d)}
    return tuple(d for d in base if d in hinted)


def effective_limits(policy: ResearchPolicy, hints: Any) -> ResearchLimits:
    """Apply a request's ``policy_hints`` to the policy: count budgets clamped to their ranges,
    domain lists narrowed to the policy's; execution never wider than the policy list."""
    hints = hints if isinstance(hints, Mapping) else {}
    counts = {
        name: clamp_hint(hints.get(name), getattr(policy, name), low, high)
        for name, (low, high) in HINT_RANGES.items()
    }
    policy_domains = _domain_hint(hints.get("allowed_domains_policy"), policy.allowed_domains_policy)
    execution = _domain_hint(hints.get("allowed_domains_execution"), policy.allowed_domains_execution)
    return ResearchLimits(
        allowed_domains_policy=policy_domains,
        allowed_domains_execution=tuple(d for d in execution if d in policy_domains),
        **counts,
    )


# --------------------------------------------------------------------------- plan


def validate_plan(reply: Any, policy: ResearchPolicy) -> Decision:
    """Check a plan (``{"steps": [...]}`` or the bare list). On success ``details`` holds the
    ``query`` and the normalised ``steps``."""
    steps = reply.get("steps") if isinstance(reply, dict) else reply
    if not isinstance(steps, list) or not steps:
        return Decision.stop("invalid_plan:steps")
    if len(steps) > policy.max_steps:
        return Decision.stop("invalid_plan:too_many_steps", count=len(steps), max_steps=policy.max_steps)
    clean: list[dict[str, Any]] = []
    for step in steps:
        if not isinstance(step, dict):
            return Decision.stop("invalid_step:not_object")
        if not nonblank_str(step.get("id")):
            return Decision.stop("invalid_step:id")
        if not nonblank_str(step.get("action")):
            return Decision.stop("invalid_step:action")
        args = step.get("args", {})
        if not isinstance(args, dict):
            return Decision.stop("invalid_step:args")
        clean.append({"id": step["id"].strip(), "action": step["action"].strip(), "args": args})
    received = [s["action"] for s in clean]
    if received != list(PLAN_SEQUENCE):
        return Decision.stop("invalid_plan:step_sequence", expected=list(PLAN_SEQUENCE), received=received)
    query = clean[0]["args"].get("query")
    if not nonblank_str(query):
        return Decision.stop("invalid_search:query")
    return Decision.allow(query=normalize_ws(query), steps=clean)


# --------------------------------------------------------------------------- sources


def normalize_url(url: Any) -> str | None:
    """Lower-case scheme and host, no query, no fragment, no trailing slash; None when ``url`` is
    not an absolute http(s) URL."""
    if not nonblank_str(url):
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), parts.netloc.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    return urlunsplit((scheme, host, parts.path.rstrip("/"), "", ""))


def domain_of(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()


def validate_search_results(results: Any) -> Decision:
    """The search tool's contract: a list of objects, each with a string ``url``, that the run can
    keep: plain JSON data (see :func:`policies.json_safety.json_problem`, checked first: it runs
    none of the value's own code)."""
    problem = json_problem(results)
    if problem is not None:
        return Decision.stop("tool_invalid_output:search", detail=problem)
    if type(results) is not list:
        return Decision.stop("tool_invalid_output:search", detail="not a list")
    for item in results:
        if type(item) is not dict or type(item.get("url")) is not str:
            return Decision.stop("tool_invalid_output:search", detail="item without url")
    return Decision.allow(count=len(results))


def dedupe_urls(results: list[dict[str, Any]], max_urls: int) -> list[dict[str, Any]]:
    """Normalise URLs and keep the first result of each, at most ``max_urls`` (unparsable URLs are
    dropped)."""
    kept: list[dict[str, Any]] = []
    seen: set[str] = set()
    for item in results:
        url = normalize_url(item.get("url"))
        if url is None or url in seen:
            continue
        seen.add(url)
        kept.append({**item, "url": url})
        if len(kept) >= max_urls:
            break
    return kept


def source_decision(url: str, limits: ResearchLimits) -> Decision:
    """``allow``, or ``deny`` with ``source_denied_policy`` / ``source_denied_execution``."""
    domain = domain_of(url)
    if domain not in limits.allowed_domains_policy:
        return Decision("deny", "source_denied_policy", {"domain": domain})
    if domain not in limits.allowed_domains_execution:
        return Decision("deny", "source_denied_execution", {"domain": domain})
    return Decision.allow(domain=domain)


def validate_page(page: Any) -> Decision:
    """The reader's contract: an object with a non-empty ``text`` and string title/published_at,
    that the run can keep: plain JSON data (see :func:`policies.json_safety.json_problem`, checked
    first: it runs none of the value's own code)."""
    problem = json_problem(page)
    if problem is not None:
        return Decision.stop("tool_invalid_output:read", detail=problem)
    if type(page) is not dict or not nonblank_str(page.get("text")):
        return Decision.stop("tool_invalid_output:read", detail="page without text")
    for key in ("title", "published_at"):
        if not isinstance(page.get(key, ""), str):
            return Decision.stop("tool_invalid_output:read", detail=f"{key} not a string")
    return Decision.allow()


# --------------------------------------------------------------------------- notes


def validate_notes(notes: Any, max_notes: int, min_quote_chars: int) -> Decision:
    """The notes' structure. On success ``details["notes"]`` holds them with stripped strings."""
    if not isinstance(notes, list) or not notes:
        return Decision.stop("invalid_notes:empty")
    if len(notes) > max_notes:
        return Decision.stop("invalid_notes:too_many", count=len(notes), max_notes=max_notes)
    clean = []
    for note in notes:
        if not isinstance(note, dict):
            return Decision.stop("invalid_notes:item")
        for key in ("id", "url", "claim"):
            if not nonblank_str(note.get(key)):
                return Decision.stop(f"invalid_notes:{key}")
        quote = note.get("quote")
        if not isinstance(quote, str) or len(normalize_ws(quote)) < min_quote_chars:
            return Decision.stop("invalid_notes:quote")
        clean.append({k: v.strip() if isinstance(v, str) else v for k, v in note.items()})
    return Decision.allow(notes=clean)


def note_issues(
    note: Mapping[str, Any], pages: Mapping[str, Mapping[str, Any]], min_quote_chars: int
) -> list[str]:
    """What is wrong with one note, given the pages read (by normalised URL)."""
    claim, quote = note.get("claim"), note.get("quote")
    if not nonblank_str(claim):
        return ["claim_missing"]
    if not isinstance(quote, str) or len(normalize_ws(quote)) < min_quote_chars:
        return ["quote_too_short"]
    page = pages.get(normalize_url(note.get("url")) or "")
    if page is None:
        return ["url_not_read"]
    issues = []
    if not quote_in_source(quote, str(page.get("text", ""))):
        issues.append("quote_not_in_source")
    if ungrounded_numbers(claim, quote):
        issues.append("claim_numbers_not_in_quote")
    return issues


def verify_notes(
    notes: list[dict[str, Any]], pages: Mapping[str, Mapping[str, Any]], min_quote_chars: int
) -> Decision:
    """Every note must be sourced: its page was read, its quote is verbatim in that page, and each
    number in its claim is in its quote; ids are unique. Any issue → ``verification_failed:<first>``.
    On success ``details["notes"]`` carries the notes with title and published_at from the page."""
    issues: list[dict[str, str]] = []
    seen: set[str] = set()
    verified = []
    for note in notes:
        found = note_issues(note, pages, min_quote_chars)
        if note.get("id") in seen:
            found.append("duplicate_id")
        seen.add(str(note.get("id")))
        issues += [{"note_id": str(note.get("id")), "issue": issue} for issue in found]
        if not found:
            page = pages[normalize_url(note["url"]) or ""]
            verified.append(
                {
                    "id": note["id"],
                    "claim": note["claim"],
                    "quote": note["quote"],
                    "url": normalize_url(note["url"]),
                    "title": str(page.get("title", "")),
                    "published_at": str(page.get("published_at", "")),
                }
            )
    if issues:
        return Decision.stop(f"verification_failed:{issues[0]['issue']}", issues=issues)
    return Decision.allow(notes=verified)


# --------------------------------------------------------------------------- synthesis


def validate_synthesis(
    answer: str,
    citations: list[Any],
    notes: list[dict[str, Any]],
    max_answer_chars: int,
    extra_evidence: Any = None,
) -> Decision:
    """The answer: not empty, not too long, citing only note ids, and every number in it found in
    a cited note's quote (or in ``extra_evidence``, e.g. the request's report date).
    On success ``details["citations"]`` holds the deduplicated citations."""
    if not normalize_ws(answer):
        return Decision.stop("invalid_answer:empty")
    if len(answer) > max_answer_chars:
        return Decision.stop("invalid_answer:too_long", chars=len(answer), max_chars=max_answer_chars)
    if not citations:
        return Decision.stop("invalid_answer:citations")
    check = check_citations(citations, [n["id"] for n in notes])
    if check.unknown:
        return Decision.stop("invalid_answer:citation_unknown", invalid_citations=list(check.unknown))
    cited = [n for n in notes if n["id"] in check.cited]
    evidence = [[n["quote"], n.get("published_at", "")] for n in cited], extra_evidence
    missing = ungrounded_numbers(answer, evidence)
    if missing:
        return Decision.stop("invalid_answer:ungrounded_numbers", ungrounded_numbers=missing)
    return Decision.allow(citations=list(check.cited))
