"""4. Retrieval for RAG at 1k, 10k and 100k chunks: the spec's lexical retriever, which reads every
chunk per query, against the same scoring from an inverted index — p50/p95 per query through
``retriever.invoke`` (as the RAG node calls it). Target: the indexed path ≤ 20 ms p50 at 100k."""

from __future__ import annotations

import itertools
import random
from typing import Any

from bench.common import Section, clock, median, ms, percentile
from bench.context import Context
from demo_tools.rag import INDEXED_FROM, IndexedLexicalRetriever, LexicalRetriever

TARGET_MS = 20.0
SOURCES = ("support_policy", "security_policy", "billing_policy", "operations_notes")
SECTIONS = ("Enterprise SLA", "Standard SLA", "Escalation", "Refund Eligibility", "Launch Prep", "Overview")
_SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "de", "go", "hu", "ji", "be")


def vocabulary(size: int, rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def zipf(n: int) -> list[float]:
    """Cumulative weights of ranks 1..n with frequency 1/rank."""
    return list(itertools.accumulate(1 / (rank + 1) for rank in range(n)))


def corpus(size: int, seed: int = 7) -> tuple[list[dict[str, Any]], list[str]]:
    """``size`` chunks of 30-60 words drawn with Zipf-like frequencies (as in prose: a few words in
    most chunks, most words rare), and the vocabulary; the same for the same arguments."""
    rng = random.Random(seed)
    words = vocabulary(20_000, rng)
    cumulative = zipf(len(words))
    docs = []
    for i in range(size):
        text = " ".join(rng.choices(words, cum_weights=cumulative, k=rng.randint(30, 60)))
        docs.append(
            {
                "id": f"chunk_{i:06d}",
                "source": SOURCES[i % len(SOURCES)],
                "title": f"Knowledge base article {i // 8}",
                "section": SECTIONS[i % len(SECTIONS)],
                "updated_at": "2026-01-15",
                "text": text + ".",
            }
        )
    return docs, words


def queries(words: list[str], count: int, seed: int = 11) -> list[str]:
    """Questions of 4-8 words from the corpus's distribution, some with a source filter's worth of
    rare words: the common words make most chunks score above zero, as real questions do."""
    rng = random.Random(seed)
    cumulative = zipf(len(words))
    return [" ".join(rng.choices(words, cum_weights=cumulative, k=rng.randint(4, 8))) for _ in range(count)]


def _latencies(retriever: LexicalRetriever, asked: list[str]) -> tuple[list[float], list[list[str]]]:
    times, found = [], []
    for query in asked:
        start = clock()
        docs = retriever.invoke(query, k=4, sources=None)
        times.append(clock() - start)
        found.append([d.metadata["id"] for d in docs])
    return times, found


def run(ctx: Context) -> Section:
    settings = ctx.settings
    section = Section(
        "retrieval",
        "4. Retrieval per query (ms), top 4 of all sources, through retriever.invoke",
        [
            "chunks", "scan_p50_ms", "scan_p95_ms", "indexed_p50_ms", "indexed_p95_ms", "speedup_p50",
            "index_build_s", "queries", "scan_queries", "same_results",
        ],
    )  # fmt: skip
    for size in settings.corpus_sizes:
        docs, words = corpus(size)
        asked = queries(words, settings.queries)
        scan = LexicalRetriever(documents=docs)
        start = clock()
        indexed = IndexedLexicalRetriever(documents=docs)
        build = clock() - start
        scanned = asked if size <= 1_000 else asked[: settings.scan_queries_max]
        _latencies(indexed, asked[:3])  # warm up
        scan_times, scan_found = _latencies(scan, scanned)
        index_times, index_found = _latencies(indexed, asked)
        same = index_found[: len(scanned)] == scan_found
        section.rows.append(
            {
                "chunks": size,
                "scan_p50_ms": ms(median(scan_times)),
                "scan_p95_ms": ms(percentile(scan_times, 95)),
                "indexed_p50_ms": ms(median(index_times)),
                "indexed_p95_ms": ms(percentile(index_times, 95)),
                "speedup_p50": round(median(scan_times) / median(index_times), 1),
                "index_build_s": round(build, 2),
                "queries": len(asked),
                "scan_queries": len(scanned),
                "same_results": same,
            }
        )
        if not same:
            raise RuntimeError(f"the indexed retriever disagrees with the scan at {size} chunks")
    largest = section.rows[-1]
    section.check(f"indexed p50 at {largest['chunks']} chunks (ms)", largest["indexed_p50_ms"], TARGET_MS)
    section.notes.append(
        f"Synthetic corpus: 20,000-word vocabulary, Zipf-like word frequencies, 30-60 words a chunk, "
        f"4-8 words a query. lexical_retriever() answers from the index from {INDEXED_FROM} documents "
        "(the RAG default for a knowledge base that size); same documents, scores and order as the scan."
    )
    return section
