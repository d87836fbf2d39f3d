"""Text normalisation and stable hashing: the trace refers to text by hash, never copies it. And
times written as text (ISO 8601) read back as seconds since the epoch."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from typing import Any, TypeGuard

_WS = re.compile(r"\s+")


def normalize_ws(text: str) -> str:
    """Collapse every run of whitespace to one space and trim the ends."""
    return _WS.sub(" ", text).strip()


def nonblank_str(value: Any) -> TypeGuard[str]:
    """A string with more than whitespace in it."""
    return isinstance(value, str) and bool(value.strip())


def from_iso(text: Any) -> float | None:
    """An ISO 8601 time as seconds since the epoch (UTC where it names no zone); None when it is
    not one."""
    if not isinstance(text, str):
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def text_hash(text: str) -> str:
    """First 12 hex digits of the SHA-256 of the whitespace-normalised text."""
    return hashlib.sha256(normalize_ws(text).encode("utf-8", "surrogatepass")).hexdigest()[:12]


def stable_json(value: Any) -> str:
    """Canonical JSON: sorted keys, no insignificant whitespace, non-JSON values as strings."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def json_hash(value: Any) -> str:
    """Hash of a JSON-like value, independent of key order."""
    return hashlib.sha256(stable_json(value).encode("utf-8", "surrogatepass")).hexdigest()[:12]
