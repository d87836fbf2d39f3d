"""The governance core: policy models and pure decision functions.

Nothing here imports LangGraph, calls an LLM or does I/O. Every function is a pure function of its
inputs, so the rules can be unit-tested and fuzzed on their own.
"""

import governed_agent_patterns  # noqa: F401 (the old paths of moved modules: governed_agent_patterns.MOVED)
from policies.decision import Decision
from policies.text import json_hash, normalize_ws, stable_json, text_hash

__all__ = ["Decision", "json_hash", "normalize_ws", "stable_json", "text_hash"]
