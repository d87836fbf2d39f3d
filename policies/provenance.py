"""Where an argument's value came from: the run's request, its subject, the policy's own
constants, or what an earlier tool call returned (which tool, which step, trusted or not).

A value is traced by where it *appears*, on normalised text: case folded, whitespace collapsed,
and identifiers compared in their canonical form (a URL without its scheme, ``www.`` or trailing
slash; an e-mail address in lower case; an IBAN without spaces; a phone number's digits; an amount
as a decimal number, so ``1,200.00`` is ``1200``). A string value appears in a text where its
normalised form stands between word boundaries; a number where the text holds the same number.
Inside a free-text argument the identifiers (URLs, domains, e-mail addresses, IBAN-like account
numbers, phone numbers, amounts) are traced one by one.

Deterministic and pure. What it proves is where a value appears, not why the model chose it: a
value that appears in the request and in a hostile page is traced to both, and a rule that admits
the request admits it. Values of one or two characters, booleans and null carry no identity and
are not traced (they appear everywhere or nowhere).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import Any, Literal

IdentifierKind = Literal["url", "domain", "email", "iban", "phone", "amount"]
IDENTIFIER_KINDS: tuple[IdentifierKind, ...] = ("url", "domain", "email", "iban", "phone", "amount")
#: Where a value may come from, as rules name it: ``request``, ``subject``, ``policy``,
#: ``trusted`` (a trusted tool's observation), ``tool:<name>`` (that tool's), or ``any``.
SourceName = str

_URL = re.compile(r"(?i)\b(?:https?://|www\.)[^\s<>\"'`]+")
_EMAIL = re.compile(r"(?i)(?<![\w.+-])[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}(?![\w-])")
_DOMAIN = re.compile(r"(?i)(?<![\w@.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24}(?![\w-])")
_IBAN = re.compile(r"(?<![A-Z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Z0-9])")
_PHONE = re.compile(r"(?<![\w.+])\+?\d[\d ()./-]{5,}\d(?![\w])")
_NUMBER = re.compile(r"(?<![\w.,])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.,])-?\d+(?:\.\d+)?(?![\w])")
_TRAILING = ".,;:!?)]}'\""
_WS = re.compile(r"\s+")
_MIN_TRACED = 3


def normalize_text(text: str) -> str:
    """Case folded, runs of whitespace as one space, trimmed."""
    return _WS.sub(" ", text).strip().casefold()


def _url(raw: str) -> str:
    text = raw.rstrip(_TRAILING).casefold()
    text = re.sub(r"^https?://", "", text)
    text = text.removeprefix("www.")
    return text.rstrip("/")


def _number(raw: str) -> str | None:
    try:
        value = Decimal(raw.replace(",", ""))
    except InvalidOperation:
        return None
    if not value.is_finite():
        return None
    normal = value.normalize()
    return format(normal, "f") if normal == normal.to_integral() else str(normal)


Identifier = tuple[IdentifierKind, str]


def identifiers(text: str, kinds: Iterable[IdentifierKind] = IDENTIFIER_KINDS) -> set[Identifier]:
    """The identifiers of ``kinds`` in ``text`` as ``(kind, canonical form)`` (a URL's host also
    counts as a domain; a number as an amount)."""
    wanted = set(kinds)
    found: set[Identifier] = set()
    urls = [_url(m.group(0)) for m in _URL.finditer(text)]
    if "url" in wanted:
        found |= {("url", u) for u in urls if u}
    if "domain" in wanted:
        found |= {("domain", u.split("/")[0].split("?")[0]) for u in urls if u}
        found |= {("domain", _url(m.group(0))) for m in _DOMAIN.finditer(text)}
    if "email" in wanted:
        found |= {("email", m.group(0).casefold()) for m in _EMAIL.finditer(text)}
    rest = _URL.sub(" ", _EMAIL.sub(" ", text))
    if "iban" in wanted:
        found |= {("iban", m.group(0).replace(" ", "")) for m in _IBAN.finditer(rest)}
    if "phone" in wanted:
        for match in _PHONE.finditer(_IBAN.sub(" ", rest)):
            digits = re.sub(r"\D", "", match.group(0))
            if 7 <= len(digits) <= 15 and not re.fullmatch(r"\d{4}[-./]\d{2}[-./]\d{2}", match.group(0)):
                found.add(("phone", digits))
    if "amount" in wanted:
        for match in _NUMBER.finditer(rest):
            number = _number(match.group(0))
            if number is not None:
                found.add(("amount", number))
    return found


def _leaves(value: Any) -> Iterable[str]:
    """Every string and number in a JSON value, keys included, as text."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, str):
            yield item
        elif isinstance(item, int | float):
            yield repr(item) if isinstance(item, float) else str(item)
        elif isinstance(item, Mapping):
            for key, child in item.items():
                yield str(key)
                stack.append(child)
        elif isinstance(item, list | tuple):
            stack.extend(item)


@dataclass(frozen=True)
class Source:
    """One place a value can come from: ``kind`` is ``request``, ``subject``, ``policy`` or
    ``tool`` (then ``tool`` and ``step`` say which call, ``trusted`` whether its tool is)."""

    kind: Literal["request", "subject", "policy", "tool"]
    text: str = field(repr=False)
    tool: str | None = None
    step: int | None = None
    trusted: bool = False

    @cached_property
    def normal(self) -> str:
        return normalize_text(self.text)

    @cached_property
    def idents(self) -> set[Identifier]:
        return identifiers(self.text)

    def holds(self, ident: Identifier) -> bool:
        """Does this source hold the identifier (a URL or e-mail address also when written plain)?"""
        kind, canonical = ident
        if ident in self.idents:
            return True
        if kind in ("url", "email"):
            return re.search(rf"(?<![\w.-]){re.escape(canonical)}(?![\w/-])", self.normal) is not None
        return False

    def label(self) -> str:
        if self.kind != "tool":
            return f"the {self.kind}"
        return f"{self.tool} (step {self.step})" if self.step is not None else str(self.tool)

    def admitted_by(self, names: Iterable[SourceName]) -> bool:
        """Does a rule's list of allowed sources admit this one?"""
        for name in names:
            if name == "any" or name == self.kind:
                return True
            if name == "trusted" and (self.kind != "tool" or self.trusted):
                return True
            if name == f"tool:{self.tool}" and self.kind == "tool":
                return True
        return False


def sources_of(
    request: str,
    subject: Mapping[str, Any],
    calls: Sequence[Mapping[str, Any]],
    *,
    trusted_tools: Iterable[str] = (),
    constants: Any = None,
) -> list[Source]:
    """The run's sources: its request, its subject, the policy's constants and each executed
    call's observation (calls with an ``observation``; ``step`` and ``tool`` name them)."""
    trusted = set(trusted_tools)
    out = [
        Source("request", request),
        Source("subject", " | ".join(_leaves(dict(subject)))),
        Source("policy", " | ".join(_leaves(constants))),
    ]
    for call in calls:
        if "observation" not in call:
            continue
        tool = str(call.get("tool"))
        text = " | ".join(_leaves(call.get("observation")))
        step = call.get("step")
        out.append(Source("tool", text, tool, step if isinstance(step, int) else None, tool in trusted))
    return out


def traced(value: Any) -> bool:
    """Is ``value`` one provenance follows (not a boolean, null or a one- or two-character text)?"""
    if isinstance(value, bool) or value is None:
        return False
    return isinstance(value, int | float) or (isinstance(value, str) and len(value.strip()) >= _MIN_TRACED)


def _identity(value: Any) -> Identifier | str | None:
    """What provenance compares of a value: an identifier when the value is one (a URL, an
    address, an account, a domain, a phone number, a number), else its normalised text; None when
    the value carries no identity."""
    if not traced(value):
        return None
    if isinstance(value, int | float):
        number = _number(repr(value) if isinstance(value, float) else str(value))
        return ("amount", number) if number is not None else None
    text = str(value).strip().rstrip(_TRAILING) or str(value).strip()
    whole: tuple[tuple[IdentifierKind, re.Pattern[str]], ...] = (
        ("url", _URL),
        ("email", _EMAIL),
        ("iban", _IBAN),
        ("domain", _DOMAIN),
    )
    for kind, pattern in whole:
        if pattern.fullmatch(text):
            found = sorted(i for i in identifiers(text, [kind]) if i[0] == kind)
            if found:
                return found[0]
    if re.fullmatch(r"-?[\d,]+(?:\.\d+)?", text) and (number := _number(text)) is not None:
        return ("amount", number)
    if _PHONE.fullmatch(text):
        return ("phone", re.sub(r"\D", "", text))
    return normalize_text(text)


def _appears(identity: Identifier | str, source: Source) -> bool:
    if isinstance(identity, tuple):
        return source.holds(identity)
    return re.search(rf"(?<!\w){re.escape(identity)}(?!\w)", source.normal) is not None


def origins(value: Any, sources: Sequence[Source]) -> list[Source]:
    """The sources ``value`` appears in (empty for values that carry no identity)."""
    identity = _identity(value)
    return [] if identity is None else [s for s in sources if _appears(identity, s)]


def leaf_values(value: Any) -> list[Any]:
    """A JSON value's strings and numbers, in order (what provenance follows in a nested argument)."""
    if isinstance(value, Mapping):
        return [leaf for child in value.values() for leaf in leaf_values(child)]
    if isinstance(value, list | tuple):
        return [leaf for child in value for leaf in leaf_values(child)]
    return [value] if traced(value) else []


def describe(found: Sequence[Source]) -> str:
    """Where a value came from, in words for the human and the trace."""
    if not found:
        return "appears nowhere in the run (not in the request, the subject, the policy or any observation)"
    labels = list(dict.fromkeys(("the trusted " if s.trusted else "") + s.label() for s in found))
    if all(s.kind == "tool" and not s.trusted for s in found):
        return "appears only in " + ", ".join(labels)
    return "appears in " + " and in ".join(labels)


def identifier_origins(
    text: str, sources: Sequence[Source], kinds: Iterable[IdentifierKind]
) -> dict[Identifier, list[Source]]:
    """Each identifier of ``kinds`` in ``text`` → the sources it appears in."""
    return {ident: [s for s in sources if s.holds(ident)] for ident in sorted(identifiers(text, kinds))}
