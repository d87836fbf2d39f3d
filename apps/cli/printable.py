"""Text a model, a tool, a client or a human wrote, made safe for a terminal line.

What the CLI prints in a table or a line per row (``audit``, ``waiting``, ``runs``, a run's
progress and summary) holds text that nobody checked: a tool name a model invented, a thread id a
client chose, a reason a model gave. A line break in it would print a row of its own (a forged
``execution ... approve ok approved by human`` line under the real one), and an escape sequence
would drive the terminal (move the cursor, erase a line, retitle the window). :func:`printable`
writes every character that is not printable as Python writes it in a literal (``\\n``,
``\\x1b``, ``\\u2028``): line and paragraph separators, C0 and C1 controls, DEL, format characters
(bidirectional overrides, zero-width characters), surrogates, private-use and unassigned code
points. Spaces of every script stay as they are. Its result holds no such character, so applying
it twice changes nothing, and one row printed through it is one line.

:func:`printable_json` does the same for JSON text (``show``, ``--json``): JSON already escapes the
C0 controls in its strings, not DEL, the C1 controls or the separators U+2028 / U+2029; those are
written as ``\\uXXXX`` escapes, which every JSON reader reads back as the same characters.
"""

from __future__ import annotations

import unicodedata
from typing import Any

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _safe(char: str) -> bool:
    return char.isprintable() or unicodedata.category(char) == "Zs"


def _escaped(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(value: Any) -> str:
    """``value`` (text, or anything as ``str`` gives it) on one line, every character that is not
    printable escaped as in a Python literal; printable text is returned as it is."""
    text = value if isinstance(value, str) else str(value)
    if text.isprintable():
        return text
    return "".join(char if _safe(char) else _escaped(char) for char in text)


def _json_escaped(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a UTF-16 surrogate pair, as JSON writes a character beyond the BMP
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def printable_json(text: str) -> str:
    """JSON ``text`` with every character that is not printable (but the line breaks and spaces
    of its layout) written as a ``\\uXXXX`` escape: the same value, safe on a terminal. Only JSON
    strings can hold such characters (JSON escapes the C0 controls in them), so the escapes land
    inside strings."""
    if text.isprintable():
        return text
    return "".join(char if char in "\n " or _safe(char) else _json_escaped(char) for char in text)
