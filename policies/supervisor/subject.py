"""Whom a run acts for when its input names no ``subject``: the ``<name>=<integer>`` pairs of the
request's text whose names are arguments the policy binds to the subject (``ToolRules.bound_args``).

A chat client sends only text ("User Anna (user_id=42) requests a refund ..."), so the Supervisor
reads the subject from it: ``{"user_id": 42}``. Only bound argument names count, only integers,
and a name given two different values binds nothing (the request is ambiguous: the run goes on
without that binding, as it would with no subject).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from policies.supervisor.policy import SupervisorPolicy

_PAIR = re.compile(r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(-?\d{1,18})(?![\w.])")


def bound_arg_names(policy: SupervisorPolicy) -> set[str]:
    """The argument names the policy's rules bind to the run's subject."""
    return {arg for rules in policy.rules.values() for arg in rules.bound_args}


def subject_from_request(text: str, names: Iterable[str]) -> dict[str, Any]:
    """The subject a request names: each ``<name>=<integer>`` pair whose name is in ``names``
    (``user_id=42`` → ``{"user_id": 42}``); a name with two different values is left out."""
    wanted = set(names)
    found: dict[str, set[int]] = {}
    for name, value in _PAIR.findall(text or ""):
        if name in wanted:
            found.setdefault(name, set()).add(int(value))
    return {name: next(iter(values)) for name, values in found.items() if len(values) == 1}
