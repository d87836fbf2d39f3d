"""``agent-patterns cedar``: a policy's Cedar policies against the schema its tools give.

- ``cedar schema MODULE``: the Cedar schema (JSON) of the tools and policy ``MODULE`` defines (a
  Python file or a dotted module, as the probe takes: ``tools`` and ``policy``), with a policy file
  over it (``--policy-file``: its ``cedar_file`` or ``[policy] cedar``): entities ``User``, ``Tool``,
  ``Record``; one action per tool, with each argument's value, sources and the decision facts in its
  context (docs/cedar.md);
- ``cedar export MODULE``: the policy's own rules as Cedar where they map (sources, fixed sets,
  thresholds, approvals and roles), with what does not map as ``//`` comments;
- ``cedar check MODULE``: Cedar's validator on the policy's Cedar policies against that schema; exit
  0 with a line per policy, 1 naming each problem (a misspelt attribute, a text compared with a
  number), 2 where the policy or its file does not load."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any, TextIO

from apps.cli.errors import EXIT_OK, EXIT_STOPPED, CliError
from apps.cli.probe import load_definitions


def add_cedar_parser(sub: Any) -> None:
    cedar = sub.add_parser("cedar", help="a policy's Cedar policies: the schema its tools give, and a check")
    cedar.add_argument(
        "action",
        choices=["schema", "check", "export"],
        help="schema: print it; check: validate against it; export: the policy's rules as Cedar",
    )
    cedar.add_argument("module", help="a Python file or module defining tools and policy (as the probe's)")
    cedar.add_argument(
        "--policy-file", metavar="FILE", help="a policy file (TOML, YAML, JSON) over the module's policy"
    )


def _policy(args: argparse.Namespace) -> tuple[Any, dict[str, Any], str]:
    from nodes.tool_gateway import tool_registry
    from policies.policy_file import FORMATS, PolicyFileError, overlay_policy_file, parse_policy_file
    from policies.supervisor import CedarUnavailable

    found = load_definitions(args.module, ("tools", "policy"), by="cedar")
    policy, tools = found["policy"], found["tools"]
    path, where = args.policy_file, "cedar"
    if path:
        fmt = FORMATS.get(os.path.splitext(path)[1].lower())
        if fmt is None:
            raise CliError(f"cedar: {path}: a policy file is .toml, .yaml, .yml or .json")
        folder = os.path.dirname(os.path.abspath(path))

        def read(name: str) -> str:
            with open(os.path.join(folder, name), encoding="utf-8") as file:
                return file.read()

        try:
            with open(path, encoding="utf-8") as file:
                text = file.read()
            policy = overlay_policy_file(policy, text, fmt, path, read=read)
            named = parse_policy_file(text, fmt, path).cedar_file
            where = os.path.join(os.path.dirname(path), named) if named else where
        except OSError as exc:
            raise CliError(f"cedar: {path}: cannot be read: {exc.strerror or exc}") from None
        except PolicyFileError as exc:
            raise CliError(f"cedar: {exc}") from None
        except CedarUnavailable as exc:
            raise CliError(f"cedar: {exc}") from None
    return policy, {name: tool.model for name, tool in tool_registry(tools).items()}, where


def cedar_command(args: argparse.Namespace, out: TextIO) -> int:
    from policies.supervisor import CedarUnavailable, cedar_problems, cedar_schema, parse_cedar, tool_schemas

    policy, models, where = _policy(args)
    if args.action == "export":
        from policies.supervisor.rules.cedar_export import export_cedar

        print(export_cedar(policy).commented(), end="", file=out)
        return EXIT_OK
    try:
        if args.action == "schema":
            print(json.dumps(cedar_schema(policy, tool_schemas(models)), indent=2), file=out)
            return EXIT_OK
        if policy.cedar is None:
            raise CliError(f"cedar: {args.module}'s policy carries no Cedar policies (cedar, or cedar_file)")
        problems = cedar_problems(policy, models, where)
        rules = parse_cedar(policy.cedar).rules
    except CedarUnavailable as exc:
        raise CliError(f"cedar: {exc}") from None
    for problem in problems:
        print(problem, file=out)
    if problems:
        print(f"{len(problems)} problem(s) in {len(rules)} Cedar policies", file=out)
        return EXIT_STOPPED
    for rule in rules:
        scope = ", ".join(sorted(rule.actions)) if rule.actions is not None else "every tool"
        ask = f" @ask({rule.ask})" if rule.ask else " @ask" if rule.ask == "" else ""
        print(f"ok {rule.name}: {rule.effect}{ask} on {scope}", file=out)
    print(f"{len(rules)} Cedar policies validate against the schema of {len(models)} tools", file=out)
    return EXIT_OK
