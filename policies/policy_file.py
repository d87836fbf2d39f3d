"""A policy in a file (TOML, YAML or JSON) for people who do not write Python: the MCP hints'
defaults (:func:`policies.mcp.hinted_policy`) and what the file says over them. Validated against
the JSON Schema :func:`policy_json_schema` publishes (docs/policy-file.schema.json), with errors
that name the line. Pure: it reads the file's text (:func:`nodes.mcp_tools.load_policy_file` reads
the file); the gateway loads it (``agent-patterns gateway --policy FILE``), and so does Python.

An example (TOML)::

    side_effects = ["send_email", "delete_file"]   # optional: replaces the hinted list
    hide = ["delete_file"]                          # tools not listed nor callable

    [tools.lookup_contact]                          # ToolSpec fields
    trust = "trusted"

    [rules.send_email]                              # ToolRules fields
    arg_sources = [{arg = "to", sources = ["request", "tool:lookup_contact"]}]

    [trusted_fields]                                # fields of structured results (outputSchema)
    account_balance = ["balance"]

    [policy]                                        # any other SupervisorPolicy field
    max_tool_calls = 40
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from policies.mcp import hinted_policy
from policies.supervisor.rules.kinds import ToolRules
from policies.supervisor.rules.policy import SupervisorPolicy
from policies.tools import ToolSpec

SCHEMA_ID = "https://governed-agent-patterns/policy-file.schema.json"


class PolicyFile(BaseModel):
    """A policy file: the MCP hints' defaults, and what it says over them."""

    model_config = ConfigDict(extra="forbid", title="agent-patterns policy file")

    side_effects: list[str] | None = Field(
        None, description="The tools that act on the world (default: those not readOnlyHint)."
    )
    hide: list[str] = Field(default_factory=list, description="Tools the gateway neither lists nor forwards.")
    tools: dict[str, ToolSpec] = Field(
        default_factory=dict, description="Per tool, ToolSpec fields merged over the hints' (trust...)."
    )
    rules: dict[str, ToolRules] = Field(
        default_factory=dict, description="Per tool, its rules (a destructive tool's ask is replaced)."
    )
    trusted_fields: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Per tool, the trusted fields of its structured results (outputSchema).",
    )
    policy: dict[str, Any] = Field(
        default_factory=dict,
        description="Any other SupervisorPolicy field (max_tool_calls, on_refusal, destinations...).",
    )
    cedar_file: str | None = Field(
        None,
        description="A file of Cedar policies (.cedar), relative to this file: the policy's cedar "
        "(docs/cedar.md). [policy] cedar = '...' gives them inline instead.",
    )


class PolicyFileError(ValueError):
    """A policy file that cannot be read or is not valid: one line, naming the file and the line."""


#: How a loader reads a file a policy file names (``cedar_file``), by the name the file gives:
#: its text, or OSError. The pure parsers below are given one by whoever reads files.
ReadBeside = Callable[[str], str]


def _cedar_text(given: PolicyFile, text: str, path: str, read: ReadBeside | None) -> dict[str, Any]:
    """The ``cedar`` policy field ``cedar_file`` gives (read by ``read``), or nothing."""
    if given.cedar_file is None:
        return {}
    at = f":{line}" if (line := line_of(text, ["cedar_file"])) else ""
    if "cedar" in given.policy:
        raise PolicyFileError(f"{path}{at}: cedar_file: [policy] cedar gives the Cedar policies already")
    if read is None:
        raise PolicyFileError(
            f"{path}{at}: cedar_file: this policy text was given without a file to read it beside"
        )
    try:
        return {"cedar": read(given.cedar_file)}
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise PolicyFileError(f"{path}{at}: cedar_file {given.cedar_file}: cannot be read: {why}") from None


def policy_json_schema() -> dict[str, Any]:
    """The JSON Schema of a policy file (what docs/policy-file.schema.json publishes)."""
    schema = PolicyFile.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}


#: The formats a policy file may be written in, by the file's suffix.
FORMATS = {".toml": "toml", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}


def _parsed(path: str, fmt: str, text: str) -> Any:
    try:
        if fmt == "toml":
            return tomllib.loads(text)
        if fmt == "json":
            return json.loads(text)
        import yaml

        return yaml.safe_load(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyFileError(f"{path}: not valid TOML: {exc}") from None
    except json.JSONDecodeError as exc:
        raise PolicyFileError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    except ValueError as exc:  # yaml.YAMLError is no ValueError: below
        raise PolicyFileError(f"{path}: {exc}") from None
    except Exception as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise PolicyFileError(f"{path}{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None


def line_of(text: str, loc: Sequence[Any]) -> int | None:
    """The line (1-based) where the value at ``loc`` (a validation error's path) is written: each
    key of the path found after the previous one; None when no key of it is found."""
    lines = text.splitlines()
    at, found = 0, None
    for part in loc:
        if not isinstance(part, str):
            continue
        pattern = re.compile(rf"""(^|[\s\[.{{,"'])["']?{re.escape(part)}["']?\s*(=|:|\]|\.)""")
        for n in range(at, len(lines)):
            if pattern.search(lines[n]):
                at = found = n
                break
    return None if found is None else found + 1


def _problem(path: str, text: str, exc: ValidationError) -> PolicyFileError:
    first = exc.errors()[0]
    loc = [p for p in first["loc"] if not (isinstance(p, str) and "[" in p)]
    line = line_of(text, loc)
    where = f"{path}:{line}" if line else str(path)
    dotted = ".".join(str(p) for p in loc) or "(the file)"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return PolicyFileError(f"{where}: {dotted}: {first['msg']}{more}")


def parse_policy_file(text: str, fmt: str, path: str = "<policy>") -> PolicyFile:
    """A policy file's text (``fmt``: toml, yaml or json), validated; ``path`` names it in errors."""
    data = _parsed(path, fmt, text)
    try:
        return PolicyFile.model_validate(data if data is not None else {})
    except ValidationError as exc:
        raise _problem(path, text, exc) from None


#: Policy fields a file says in sections of their own, not under ``[policy]``.
_SECTIONS = {"tools": "[tools.<name>]", "rules": "[rules.<name>]", "allowed_tools": "hide = [...]"}
_COUNTS = ("max_tool_calls", "max_refusals", "max_steps")


def _check_policy_fields(fields: Mapping[str, Any], text: str, path: str) -> None:
    """``[policy]``'s keys: SupervisorPolicy fields other than the file's own sections; its counts
    integers (the budgets are sized from them before the policy is validated)."""
    for key, value in fields.items():
        line = line_of(text, ["policy", key])
        where = f"{path}:{line}" if line else path
        if key in _SECTIONS:
            raise PolicyFileError(f"{where}: policy.{key}: say it as {_SECTIONS[key]}")
        if key not in SupervisorPolicy.model_fields:
            raise PolicyFileError(f"{where}: policy.{key}: not a policy field")
        if key in _COUNTS and (not isinstance(value, int) or isinstance(value, bool)):
            raise PolicyFileError(f"{where}: policy.{key}: Input should be a valid integer")


def policy_from_file_text(
    text: str,
    fmt: str,
    hints: Mapping[str, Mapping[str, Any]],
    path: str = "<policy>",
    defaults: Mapping[str, Any] | None = None,
    read: ReadBeside | None = None,
) -> SupervisorPolicy:
    """The policy a file's text gives for tools with these MCP ``hints`` (tool name → annotations
    and ``outputSchema``: :func:`nodes.mcp_tools.mcp_hints`); ``defaults``: policy fields used
    where the file's ``[policy]`` does not set them; ``read``: how a file it names (``cedar_file``)
    is read. An error names the file and the line."""
    given = parse_policy_file(text, fmt, path)
    unknown = sorted({*given.hide, *given.tools, *given.rules, *given.trusted_fields} - set(hints))
    if unknown:
        key = unknown[0]
        line = line_of(text, [key])
        raise PolicyFileError(
            f"{path}{f':{line}' if line else ''}: no tool named {key!r} (tools: {', '.join(sorted(hints))})"
        )
    _check_policy_fields(given.policy, text, path)
    try:
        policy = hinted_policy(
            hints,
            rules=given.rules,
            side_effects=given.side_effects,
            specs=given.tools,
            trusted_fields=given.trusted_fields,
            **{**(defaults or {}), **given.policy, **_cedar_text(given, text, path, read)},
        )
        if given.hide:
            allowed = [n for n in policy.allowed_tools if n not in given.hide]
            policy = SupervisorPolicy.model_validate({**policy.model_dump(), "allowed_tools": allowed})
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = [str(p) for p in first["loc"]]
        if loc and loc[0] in given.policy:  # a [policy] field: named as the file names it
            loc = ["policy", *loc]
        line = line_of(text, loc)
        raise PolicyFileError(
            f"{path}{f':{line}' if line else ''}: {'.'.join(loc)}: {first['msg']}"
        ) from None
    except ValueError as exc:
        raise PolicyFileError(f"{path}: {exc}") from None
    return policy


def _merged(model: type[BaseModel], old: BaseModel | None, given: BaseModel) -> BaseModel:
    """``given``'s fields the file set (its others left at their defaults are not said) over ``old``."""
    said = given.model_dump(include=given.model_fields_set)
    return model.model_validate({**(old.model_dump() if old is not None else {}), **said})


def overlay_policy_file(
    policy: SupervisorPolicy, text: str, fmt: str, path: str = "<policy>", read: ReadBeside | None = None
) -> SupervisorPolicy:
    """``policy`` (one written in Python: the support desk's) with a policy file's text over it: each
    ``[rules.<tool>]`` field the file sets replaces that field of the tool's rules (the others
    kept), each ``[tools.<tool>]`` field that of its :class:`~policies.tools.ToolSpec`, ``hide``
    takes tools out of ``allowed_tools``, ``[policy]`` sets any other field (``mode``,
    ``ask_expires_after``, ``on_expired``, ``reviewers``...). The policy's tools are Python: a
    file's ``side_effects`` or ``trusted_fields`` (MCP hints) is an error, as is a tool the policy
    does not know; ``cedar_file`` names a file of Cedar policies, read by ``read``. An error is
    one line naming the file and, where found, the line."""
    given = parse_policy_file(text, fmt, path)
    for key in ("side_effects", "trusted_fields"):
        if key in given.model_fields_set:
            line = line_of(text, [key])
            raise PolicyFileError(
                f"{path}{f':{line}' if line else ''}: {key}: says what MCP hints do; this policy's "
                "tools are Python (use [tools.<name>] and [rules.<name>])"
            )
    known = set(policy.tools) | set(policy.rules) | set(policy.allowed_tools)
    unknown = sorted({*given.hide, *given.tools, *given.rules} - known)
    if unknown:
        at = f":{line}" if (line := line_of(text, [unknown[0]])) else ""
        tools = ", ".join(sorted(known))
        raise PolicyFileError(f"{path}{at}: no tool named {unknown[0]!r} (tools: {tools})")
    _check_policy_fields(given.policy, text, path)
    loc: list[str] = []
    try:
        rules = dict(policy.rules)
        for name, said in given.rules.items():
            loc = ["rules", name]
            rules[name] = _merged(ToolRules, rules.get(name), said)  # type: ignore[assignment]
        specs = dict(policy.tools)
        for name, spec in given.tools.items():
            loc = ["tools", name]
            specs[name] = _merged(ToolSpec, specs.get(name), spec)  # type: ignore[assignment]
        loc = []
        allowed = [n for n in policy.allowed_tools if n not in given.hide]
        cedar = _cedar_text(given, text, path, read)
        fields = {"rules": rules, "tools": specs, "allowed_tools": allowed, **given.policy, **cedar}
        return SupervisorPolicy.model_validate({**policy.model_dump(), **fields})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = loc + [str(p) for p in first["loc"]]
        if where and where[0] in given.policy:  # a [policy] field: named as the file names it
            where = ["policy", *where]
        at = f":{line}" if (line := line_of(text, where)) else ""
        raise PolicyFileError(f"{path}{at}: {'.'.join(where)}: {first['msg']}") from None
    except ValueError as exc:
        raise PolicyFileError(f"{path}: {' '.join(str(exc).split())}") from None
