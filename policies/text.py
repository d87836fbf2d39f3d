"""Text normalisation and stable hashing: the trace refers to text by hash, never copies it."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

_WS = re.compile(r"\s+")


def normalize_ws(text: str) -> str:
    """Collapse every run of whitespace to one space and trim the ends."""
    return _WS.sub(" ", text).strip()


def text_hash(text: str) -> str:
    """First 12 hex digits of the SHA-256 of the whitespace-normalised text."""
    return hashlib.sha256(normalize_ws(text).encode("utf-8", "surrogatepass")).hexdigest()[:12]


def stable_json(value: Any) -> str:
    """Canonical JSON: sorted keys, no insignificant whitespace, non-JSON values as strings."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def json_hash(value: Any) -> str:
    """Hash of a JSON-like value, independent of key order."""
    return hashlib.sha256(stable_json(value).encode("utf-8", "surrogatepass")).hexdigest()[:12]
