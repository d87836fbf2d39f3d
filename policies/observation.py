"""What a tool's result is to the gateway: one reading for both engines.

The Supervisor graph calls a tool and gets a Python value; LangChain's ``ToolNode`` (the agent
behind :class:`~nodes.middleware.GovernanceMiddleware`) gets a ``ToolMessage`` whose content is the
value as JSON text (or the tool's own text, or content blocks). Both read it with
:func:`observation_of`: a text that is one whole JSON document is the value it holds (an object, a
list, a number, true/false/null), so the fields of a trusted tool that answers in JSON text are
fields: ``ToolSpec.trust_except`` and ``ToolSpec.sensitive`` paths apply to them in both engines.
Any other text stays text; content blocks and other values stay as they are. ``NaN`` and
``Infinity`` are not JSON here (a text holding them stays text), and neither is a document nested
deeper than a run can keep.
"""

from __future__ import annotations

import json
from typing import Any

from policies.json_safety import json_problem

#: The first character of a text that may be a JSON document (after leading whitespace).
_JSON_START = frozenset('{["-0123456789tfn')


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON data")


def observation_of(value: Any) -> Any:
    """A tool's result as the run keeps it: the JSON value a text holds, else the value itself."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text or text[0] not in _JSON_START:
        return value
    try:
        parsed = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return value
    return value if json_problem(parsed) is not None else parsed
