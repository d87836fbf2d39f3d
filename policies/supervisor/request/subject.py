"""Whom a run acts for when its input names no ``subject``: the ``<name>=<integer>`` pairs of the
request's text whose names are arguments the policy binds to the subject (``ToolRules.bound_args``).

A chat client sends only text ("User Anna (user_id=42) requests a refund ..."), so the Supervisor
and the middleware read the subject from it: ``{"user_id": 42}``. Only bound argument names count,
only integers written in ASCII digits, with ordinary punctuation around the pair ("(user_id=42).",
"user_id = 42,", "'user_id=42'"); a name given two different values binds nothing (the request is
ambiguous: the run goes on without that binding, and a tool whose argument is bound is refused by
name). Digits of other scripts are not read as numbers: ``user_id=٤٢`` binds nothing.

A subject is bound once per thread (:func:`thread_subject`): by the application's input, else by the
first request that names it; a later request naming another value does not rebind it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from policies.supervisor.rules.policy import SupervisorPolicy

#: ``name=integer``: a name not glued to a word or a dotted path before it, ASCII digits only, and
#: after them no word character or a decimal part (``42.5`` is no integer; ``42.`` ends a sentence).
_PAIR = re.compile(
    r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(-?[0-9]{1,18})(?![\w]|\.[0-9])", re.ASCII
)
#: After re.ASCII, ``\w`` is ASCII only: a digit or letter of another script must not extend the value.
_GLUED = re.compile(r"\w", re.UNICODE)


def bound_arg_names(policy: SupervisorPolicy) -> set[str]:
    """The argument names the policy's rules bind to the run's subject."""
    return {arg for rules in policy.rules.values() for arg in rules.bound_args}


def subject_from_request(text: str, names: Iterable[str]) -> dict[str, Any]:
    """The subject a request names: each ``<name>=<integer>`` pair whose name is in ``names``
    (``user_id=42`` → ``{"user_id": 42}``); a name with two different values is left out."""
    wanted = set(names)
    found: dict[str, set[int | None]] = {}
    text = text or ""
    for match in _PAIR.finditer(text):
        name, value = match.group(1), match.group(2)
        before = match.start() > 0 and _GLUED.match(text, match.start() - 1) is not None
        glued = before or _GLUED.match(text, match.end()) is not None
        if name in wanted:
            # a pair glued to letters or digits of another script is no clean value: it conflicts
            found.setdefault(name, set()).add(None if glued else int(value))
    return {
        name: next(iter(values)) for name, values in found.items() if len(values) == 1 and None not in values
    }


def thread_subject(
    given: Mapping[str, Any] | None,
    kept: Mapping[str, Any] | None,
    request: str | None,
    names: Iterable[str],
) -> dict[str, Any]:
    """A run's subject on a thread: the application's ``given`` one; else the one ``kept`` from an
    earlier run of the thread; else the one this ``request`` names (a later request never rebinds
    a subject once bound: a call for someone else is then refused as ``subject_mismatch``)."""
    if given:
        return dict(given)
    if kept:
        return dict(kept)
    return subject_from_request(request or "", names)
