"""What an MCP server says about its tools, read as a policy's defaults, and the policy a gateway
applies where it cannot see the user's request. Pure: the hints come in as plain data (a mapping of
tool name to the tool's MCP annotations and output schema), read from the tool objects in
:mod:`nodes.mcp_tools`.

The defaults follow the MCP specification's own (``readOnlyHint`` false, ``destructiveHint`` and
``openWorldHint`` true when a server says nothing): a tool that is not read-only is a side effect,
and a link, address, account or phone number in its arguments must come from the request or a
trusted source (an ``IdentifierRule``); a destructive one asks a human as well, unless the policy
gives the tool rules of its own; a read-only tool whose world is
closed (``openWorldHint: false``: the user's own address book, the account's own records) is
trusted, every other tool's results are untrusted. A tool's ``outputSchema`` names the fields a
policy may declare trusted in an untrusted tool's structured results (``trusted_fields``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from policies.supervisor.rules.kinds import IdentifierRule, ToolRules
from policies.supervisor.rules.policy import SupervisorPolicy
from policies.tools import ToolSpec

#: The annotation keys MCP defines that the defaults read.
HINTS = ("readOnlyHint", "destructiveHint", "openWorldHint")
#: Where an identifier in a side effect's arguments may come from by default: what the user asked
#: for, or a trusted source (the subject, the policy, a trusted tool).
ANY_GIVEN = ("request", "trusted")


class ToolHints(BaseModel):
    """One MCP tool's annotations as the defaults read them (None: the server said nothing)."""

    model_config = ConfigDict(frozen=True)

    read_only: bool | None = None
    destructive: bool | None = None
    open_world: bool | None = None
    output_schema: dict[str, Any] | None = None

    @classmethod
    def of(cls, given: Mapping[str, Any]) -> ToolHints:
        """From an MCP tool's annotations (``readOnlyHint``...) and ``outputSchema``."""

        def flag(key: str) -> bool | None:
            value = given.get(key)
            return value if isinstance(value, bool) else None

        schema = given.get("outputSchema")
        return cls(
            read_only=flag("readOnlyHint"),
            destructive=flag("destructiveHint"),
            open_world=flag("openWorldHint"),
            output_schema=dict(schema) if isinstance(schema, Mapping) else None,
        )

    @property
    def side_effect(self) -> bool:
        return self.read_only is not True

    @property
    def asks(self) -> bool:
        """Destructive: not read-only, and not said to be harmless (the spec's default is true)."""
        return self.side_effect and self.destructive is not False

    @property
    def trusted(self) -> bool:
        return self.read_only is True and self.open_world is False

    def output_fields(self) -> list[str]:
        """The top-level fields of the tool's structured results its output schema names."""
        properties = (self.output_schema or {}).get("properties")
        return sorted(properties) if isinstance(properties, Mapping) else []


def hinted_policy(
    hints: Mapping[str, Mapping[str, Any]],
    *,
    tools: Iterable[Any] | Mapping[str, Any] | None = None,
    rules: Mapping[str, ToolRules] | None = None,
    side_effects: Iterable[str] | None = None,
    specs: Mapping[str, Any] | None = None,
    trusted_fields: Mapping[str, Iterable[str]] | None = None,
    **fields: Any,
) -> SupervisorPolicy:
    """``SupervisorPolicy.for_tools`` with the MCP hints as defaults: ``hints`` maps each tool's
    name to its annotations (and ``outputSchema``); ``tools`` the tools themselves (default: the
    names of ``hints``). What the policy says wins: ``side_effects`` given replaces the hinted list;
    ``rules[name]`` replaces a destructive tool's ask; ``specs[name]`` (``ToolSpec`` fields) is
    merged over the hinted trust; ``trusted_fields[name]``: the fields of that tool's structured
    results that are trusted (each one its output schema names). ``fields``: any other policy
    field. A field the output schema does not name is a ``ValueError``."""
    read = {name: ToolHints.of(given) for name, given in hints.items()}
    names = list(read) if tools is None else None
    side = list(side_effects) if side_effects is not None else [n for n, h in read.items() if h.side_effect]
    given_rules = dict(rules or {})
    # every side effect the policy lists gets the defaults, whatever its hints say: a tool the
    # author lists as a side effect is one, though its server labels it read-only (a lie, or a
    # mistake); it asks unless its server says it is harmless (``destructiveHint: false``)
    hinted_rules = {
        n: ToolRules(
            identifiers=IdentifierRule(sources=list(ANY_GIVEN)),
            require_approval=read[n].destructive is not False,
        )
        for n in side
        if n in read
    }
    merged_specs: dict[str, Any] = {n: {"trust": "trusted"} for n, h in read.items() if h.trusted}
    for name, fields_of in (trusted_fields or {}).items():
        wanted = list(fields_of)
        known = read[name].output_fields() if name in read else []
        stray = [f for f in wanted if f not in known]
        if stray:
            raise ValueError(
                f"trusted_fields of {name!r}: {', '.join(stray)} not in its output schema "
                f"(its fields: {', '.join(known) or 'none: the tool declares no outputSchema'})"
            )
        merged_specs[name] = {"trust": "untrusted", "trust_except": wanted}
    for name, spec in (specs or {}).items():
        own = spec if isinstance(spec, ToolSpec) else ToolSpec.model_validate(spec)
        merged_specs[name] = {
            **merged_specs.get(name, {}),
            **{k: getattr(own, k) for k in own.model_fields_set},
        }
    return SupervisorPolicy.for_tools(
        names if names is not None else tools,  # type: ignore[arg-type]
        rules={**hinted_rules, **given_rules},
        side_effects=side,
        tools=merged_specs,
        **fields,
    )


def _asking(verdict: Any, sources: Iterable[str]) -> Any:
    return "escalate" if "request" in sources and verdict in (None, "block") else verdict


def without_request(policy: SupervisorPolicy) -> SupervisorPolicy:
    """The policy a gateway applies to a call when it cannot see the user's request: every rule
    that reads the request (a value that may come from it, the request asking for the kind of
    action) asks a human instead of refusing, since the gateway cannot tell a value the user gave
    from one an attacker planted. A rule that does not read the request decides as before."""
    rules: dict[str, ToolRules] = {}
    for name, own in policy.rules.items():
        update: dict[str, Any] = {
            "arg_sources": [
                r.model_copy(update={"verdict": _asking(r.verdict, r.sources)}) for r in own.arg_sources
            ]
        }
        if own.identifiers is not None:
            ids = own.identifiers
            update["identifiers"] = ids.model_copy(update={"verdict": _asking(ids.verdict, ids.sources)})
        if own.requested is not None:
            update["requested"] = own.requested.model_copy(
                update={"verdict": _asking(own.requested.verdict, ["request"])}
            )
        rules[name] = own.model_copy(update=update)
    changes: dict[str, Any] = {"rules": rules}
    if policy.destinations is not None:
        dest = policy.destinations
        changes["destinations"] = dest.model_copy(update={"verdict": _asking(dest.verdict, dest.sources)})
    return policy.model_copy(update=changes)
