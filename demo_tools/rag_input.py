"""The RAG demo's input, apart from its knowledge base and retriever: ``agent-patterns input rag``
prints it without importing LangChain."""

from __future__ import annotations

from typing import Any

QUESTION = "What SLA applies to enterprise plan and what is P1 first response target?"


def demo_input() -> dict[str, Any]:
    return {"question": QUESTION}
