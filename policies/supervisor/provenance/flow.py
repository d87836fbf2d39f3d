"""Information flow: which values are confidential, whether an argument carries one, how a stopped
flow is told (value, where it came from, where it was going), and the names a final answer
recommends. Pure functions over a run's calls; the supervisor's rules that use them live in
:mod:`policies.supervisor.provenance.flows`.

A confidential value is one a tool returned under a path its ``ToolSpec.sensitive`` names (a
profile's ``passport``, an account's ``iban``, ``cards.number``). It is recognised in an argument by
its identity (:func:`policies.supervisor.reading.values.identity`: a card number in any spacing, an IBAN with
or without spaces, an address in any case, a date in any of its written forms) or, for plain text, by its
normalised form between word boundaries. A value derived from it (the last four digits, a paraphrase, an
encoding) is not recognised: the rule stops copies, not computations.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from policies.supervisor.reading.identifiers import plain_text
from policies.supervisor.reading.values import (
    Source,
    appears,
    identity,
    leaf_paths,
    leaf_values,
    path_matches,
)

_URL_PARTS = re.compile(r"[/?&=#:+]")


@dataclass(frozen=True)
class Sensitive:
    """A confidential value a call returned: ``field`` is ``<tool>.<pattern>`` (the
    ``ToolSpec.sensitive`` entry that marked it), ``path`` where it stood."""

    value: str
    tool: str
    step: int | None
    field: str
    path: str

    def label(self) -> str:
        at = f"step {self.step}, " if self.step is not None else ""
        return f"{self.tool} ({at}field {self.path or '(whole)'})"


def sensitive_values(
    calls: Sequence[Mapping[str, Any]], fields: Mapping[str, Sequence[str]]
) -> list[Sensitive]:
    """The confidential values the run's calls returned, by the tools' sensitive paths."""
    out: list[Sensitive] = []
    for call in calls:
        tool = str(call.get("tool"))
        patterns = fields.get(tool) or ()
        if not patterns or "observation" not in call:
            continue
        step = call.get("step") if isinstance(call.get("step"), int) else None
        for path, text in leaf_paths(call.get("observation")):
            pattern = next((p for p in patterns if path_matches(path, p)), None)
            if pattern is not None and identity(text) is not None:
                out.append(Sensitive(text, tool, step, f"{tool}.{pattern}", ".".join(path)))
    return out


#: A separator inside a group of digits and letters (``X48.21957``, ``X48 21957``, ``X48–21957``).
_GROUPED = re.compile(r"(?<=[0-9])[ ._-](?=[A-Za-z0-9])|(?<=[A-Za-z0-9])[ ._-](?=[0-9])")


def carries(value: Any, secret: str) -> bool:
    """Does an argument's value (any string or number in it) carry the confidential ``secret``,
    also written with other separators between its groups?"""
    ident = identity(secret)
    if ident is None:
        return False
    texts = [str(leaf) for leaf in leaf_values(value)]
    texts += [_URL_PARTS.sub(" ", t) for t in texts if _URL_PARTS.search(t)]  # inside a link's query too
    texts += [_GROUPED.sub("", plain_text(t)) for t in texts]  # a number regrouped
    return any(appears(ident, Source("args", text)) for text in texts) or _carried_otherwise(texts, secret)


#: A token that may be base64 ("UkMtNzczMS1YUQ==").
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{8,}={0,2}(?![A-Za-z0-9+/=])")


def _carried_otherwise(texts: Sequence[str], secret: str) -> bool:
    """A secret of letters and figures written otherwise than as itself: in another case or with
    its separators dropped ("rc7731xq"), reversed ("QX-1377-CR"), in base64, or two or more of its
    groups, half its signs or more with a figure, as words of their own ("7731-XQ", "RC-7731")."""
    plain = re.sub(r"[\W_]", "", secret).casefold()
    if len(plain) < 6 or not any(c.isdigit() for c in plain) or not any(c.isalpha() for c in plain):
        return False  # a number or a word: its own forms are read by ``appears``
    written = [re.sub(r"[\W_]", "", t).casefold() for t in texts]
    for token in (m.group(0) for t in texts for m in _BASE64.finditer(t)):
        try:
            decoded = base64.b64decode(token + "=" * (-len(token) % 4), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        written.append(re.sub(r"[\W_]", "", decoded).casefold())
    if any(plain in w or plain[::-1] in w for w in written):
        return True
    # a part of its own groups, two or more of them, half its signs at least ("7731-XQ" of
    # "RC-7731-XQ"), standing as written words: not a look-alike number ("X4821958")
    groups = re.findall(r"[A-Za-z0-9]+", secret)
    for start in range(len(groups)):
        for end in range(start + 2, len(groups) + (start > 0)):
            run = groups[start:end]
            if len("".join(run)) * 2 < len(plain) or not any(c.isdigit() for c in "".join(run)):
                continue
            pattern = r"[\W_]*".join(re.escape(g) for g in run)
            if any(re.search(rf"(?i)(?<![A-Za-z0-9]){pattern}(?![A-Za-z0-9])", t) for t in texts):
                return True
    return False


def mask(value: Any) -> str:
    """A confidential value as a trace may show it: its length and last characters only."""
    text = re.sub(r"\s+", "", str(value))
    keep = 4 if len(text) >= 12 else 2 if len(text) >= 6 else 0
    return "•" * (len(text) - keep) + text[len(text) - keep :] if keep else "•" * len(text)


def flow(value: Any, origin: str, to: str, **more: Any) -> dict[str, Any]:
    """A stopped flow, told the same way in the review row, the trace, the human's request and the
    worker's feedback: the value, where it came from, where it was going."""
    return {"flow": {"value": value, "from": origin, "to": to, **more}}


def flow_text(details: Mapping[str, Any]) -> str:
    """A decision's flow in one line ("" when it has none)."""
    told = details.get("flow")
    if not isinstance(told, Mapping):
        return ""
    extra = "".join(f", {k} {v}" for k, v in told.items() if k not in ("value", "from", "to"))
    return f"{told.get('value')!r} ({told.get('from')}) → {told.get('to')}{extra}"


# --------------------------------------------------------------------------- names in an answer

_CAP = r"[A-Z][\w'’&-]*"
_LINK = r"(?:de|da|del|la|le|of|the|von|van|di|du|y|&)"
#: A capitalised phrase of two or more words ("Hotel Miramar", "Casa do Mar"), a quoted title, or a
#: product code (letters and digits: "ZX-900", "Pixel 9").
_NAME = re.compile(rf"\b{_CAP}(?:\s+(?:{_LINK}\s+)?{_CAP})+")
_QUOTED = re.compile(r"[\"“«]([^\"”»\n]{3,60})[\"”»]")
_TOKEN = re.compile(r"[\w-]+")
_MODEL = re.compile(r"\b[A-Z][a-z]+ \d{1,4}\b")
_FUNCTION = frozenset(
    re.findall(
        r"\w+",
        "a an the i we you he she it they this that these those my your our their his her its "
        "if when then so but and or for to at in on of by with from as is are was be do not no yes "
        "please here there also note however",
    )
)


def _trimmed(phrase: str) -> str:
    words = phrase.split()
    while words and words[0].casefold() in _FUNCTION:
        words = words[1:]
    return " ".join(words)


def answer_names(text: str) -> list[str]:
    """The names ``text`` mentions, as a reader would pick out what it recommends: capitalised
    phrases of two or more words (a leading function word such as "The" or "I" dropped), quoted
    titles and product codes. A heuristic, not a parser: a lower-case name, a single capitalised
    word and a paraphrase are not seen."""
    phrases = [_trimmed(m.group(0)) for m in _NAME.finditer(text)]
    phrases += [p.split(" ", 1)[1] for p in phrases if p.count(" ") >= 2]  # "Book Hotel Miramar"
    phrases = [p for p in phrases if " " in p or any(c.isdigit() for c in p)]
    tokens = (m.group(0).strip("-_") for m in _TOKEN.finditer(text))
    codes = [t for t in tokens if t[:1].isalpha() and any(c.isdigit() for c in t)]
    codes += [m.group(0) for m in _MODEL.finditer(text)]
    quoted = [m.group(1).strip() for m in _QUOTED.finditer(text)]
    return list(dict.fromkeys(n for n in [*phrases, *codes, *quoted] if len(n) >= 3))


def untrusted_names(text: str, sources: Iterable[Source]) -> dict[str, list[Source]]:
    """The names in ``text`` that appear in some observation but only in untrusted ones (never in
    the request, the subject, the policy or a trusted tool) → where they appear."""
    pool = list(sources)
    out: dict[str, list[Source]] = {}
    for name in answer_names(text):
        ident = identity(name)
        where = [s for s in pool if ident is not None and appears(ident, s)]
        if where and not any(s.admitted_by(["trusted"]) for s in where):
            out[name] = where
    return out
