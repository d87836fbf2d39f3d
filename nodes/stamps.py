"""The keyed stamp of an approved call (:mod:`policies.tamper`), with the key from the environment.

A call put to a human is stamped when it is asked (its tool, arguments and the question's key),
and the call a human approved (or edited) when it is approved, each with HMAC-SHA256 under
``$AGENT_PATTERNS_AUDIT_KEY``; before the call runs (both engines) the stamp is checked against the
call about to run. A checkpoint whose call was changed while it waited (anyone with write access
to the database can) no longer matches: the call is not run and the run stops
``approval_tampered``. With the key unset nothing is stamped and nothing is checked; with it set,
a call that waits with no stamp (asked before the key was set, or its stamp removed) is not run
either: answer what waits before turning the key on.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import Any

from policies.tamper import call_stamp, key_id, stamp_matches

#: The environment variable holding the key (any text; a long random one: ``openssl rand -hex 32``).
AUDIT_KEY_ENV = "AGENT_PATTERNS_AUDIT_KEY"


#: Keys retired by a rotation, still needed to verify what they sealed: one per line (or
#: separated by commas).
OLD_KEYS_ENV = "AGENT_PATTERNS_AUDIT_OLD_KEYS"


def audit_key() -> bytes | None:
    """The stamping key, or None (unset or empty: nothing is stamped)."""
    value = os.environ.get(AUDIT_KEY_ENV, "")
    return value.encode("utf-8", "surrogatepass") if value else None


def audit_keys() -> dict[str, bytes]:
    """The keys a verification checks seals with, by key id (:func:`policies.tamper.key_id`): the
    current key and the retired ones of ``$AGENT_PATTERNS_AUDIT_OLD_KEYS``; empty: none set."""
    found = [audit_key()]
    old = os.environ.get(OLD_KEYS_ENV, "").replace(",", "\n").splitlines()
    found += [k.strip().encode("utf-8", "surrogatepass") for k in old if k.strip()]
    return {key_id(k): k for k in found if k is not None}


def stamp(tool: Any, args: Any, ask: Any) -> dict[str, str]:
    """``{"stamp": ...}`` for a call asked about or approved, or ``{}`` without a key."""
    key = audit_key()
    return {"stamp": call_stamp(key, tool, args, ask)} if key is not None else {}


def tampered(stamped: Any, tool: Any, args: Any, ask: Any, *, holder: Any = None) -> bool:
    """With a key: is the call about to run not the one stamped (or not stamped at all)?
    ``holder``: the dict the stamp was read from; one :func:`stamped_here` made in this process,
    read back unchanged from the state of the same run (never through a checkpoint, which makes
    a new one), is not hashed again."""
    key = audit_key()
    if key is None:
        return False
    if holder is not None and _made_here(holder, key, stamped, tool, args, ask):
        return False
    return not stamp_matches(key, stamped, tool, args, ask)


#: The stamped dicts this process made, by identity (the newest ``_KEPT``): what a plan read back
#: from the running graph's state is, until it goes through a checkpoint (a resume, another
#: process, an edited database: a new object, stamped anew or checked in full).
_KEPT = 1024
_MADE: dict[int, tuple[Any, bytes, Any, Any, Any, Any]] = {}
_MADE_LOCK = threading.Lock()


def stamped_here(holder: Mapping[str, Any], tool: Any, args: Any, ask: Any) -> dict[str, Any]:
    """``holder`` with the stamp of its call (:func:`stamp`; as it is without a key), remembered
    as made in this process, so :func:`tampered` given it back unchanged need not hash it again."""
    key = audit_key()
    if key is None:
        return dict(holder)
    made = {**holder, "stamp": call_stamp(key, tool, args, ask)}
    with _MADE_LOCK:
        if len(_MADE) >= _KEPT:
            del _MADE[next(iter(_MADE))]
        _MADE[id(made)] = (made, key, made["stamp"], tool, args, list(ask))
    return made


def _made_here(holder: Any, key: bytes, stamped: Any, tool: Any, args: Any, ask: Any) -> bool:
    kept = _MADE.get(id(holder))
    if kept is None or kept[0] is not holder or kept[1] != key or kept[2] != stamped:
        return False
    return kept[3] == tool and kept[4] is args and kept[5] == list(ask)


def call_of(action: Any) -> tuple[Any, Any]:
    """What a stamp covers of an action: its tool (or ``final``) and its arguments (or answer)."""
    if not isinstance(action, dict):
        return None, None
    return action.get("name", action.get("kind")), action.get("args", action.get("answer"))


def asked_key(request: Any) -> str:
    """The key of the question a request asked first (its stamp, its time and any later attempt
    aside): what a call's stamps are bound to."""
    from nodes.effects import ask_key

    if not isinstance(request, dict):
        return ""
    return ask_key({k: v for k, v in request.items() if k not in ("stamp", "approved_stamp", "requested_at")})
