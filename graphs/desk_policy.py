"""The support desk's policy as a deployment sets it: the desk's own policy
(:data:`demo_tools.support_desk.policy`), a policy file over it (``$AGENT_PATTERNS_DESK_POLICY``) and
reviewers, roles and approvals over that (``$AGENT_PATTERNS_DESK_SIGNOFF``). Machinery of the
``support_desk`` graph (:mod:`graphs.support_desk` builds its agent with it), kept apart so that the
desk's console (:mod:`apps.cli.desk`) can report a policy that is not valid in one line before the
served graph is built."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from pydantic import ValidationError

from demo_tools import support_desk as desk
from policies.supervisor import SupervisorPolicy, ToolRules

#: Who may answer the desk's questions, when a deployment says so: ``{"reviewers": {name: [roles]},
#: "roles": {tool: role}, "approvals": {tool: n}}`` (JSON). Unset: anyone, once.
SIGNOFF_VARIABLE = "AGENT_PATTERNS_DESK_SIGNOFF"
#: The deployment's policy file (TOML, YAML or JSON: :func:`policies.policy_file.overlay_policy_file`)
#: over the desk's policy: expiry, shadow mode, reviewers, roles, approvals, any rule's fields.
POLICY_VARIABLE = "AGENT_PATTERNS_DESK_POLICY"


class DeskPolicyError(ValueError):
    """A deployment's desk policy that cannot be read or is not valid: one line naming the variable.
    The desk does not load with it (no setting is ever ignored)."""


def _read(folder: str, name: str) -> str:
    with open(os.path.join(folder, name), encoding="utf-8") as file:
        return file.read()


def desk_policy(env: Mapping[str, str] | None = None) -> SupervisorPolicy:
    """The desk's policy as the deployment sets it: :data:`demo_tools.support_desk.policy`, the
    file ``$AGENT_PATTERNS_DESK_POLICY`` names over it, then ``$AGENT_PATTERNS_DESK_SIGNOFF``'s
    reviewers, roles and approvals over that. A file that is missing or not valid, or a signoff
    that is not valid JSON of that shape: :class:`DeskPolicyError`."""
    env = os.environ if env is None else env
    policy = desk.policy
    path = env.get(POLICY_VARIABLE, "").strip()
    if path:
        from policies.policy_file import FORMATS, PolicyFileError, overlay_policy_file

        fmt = FORMATS.get(os.path.splitext(path)[1].lower())
        if fmt is None:
            raise DeskPolicyError(f"${POLICY_VARIABLE}={path}: a policy file is .toml, .yaml, .yml or .json")
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read()
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise DeskPolicyError(f"${POLICY_VARIABLE}={path}: cannot be read: {why}") from None
        try:
            beside = os.path.dirname(os.path.abspath(path))
            policy = overlay_policy_file(policy, text, fmt, path, read=lambda name: _read(beside, name))
        except (PolicyFileError, ImportError) as exc:  # ImportError: Cedar policies without cedarpy
            raise DeskPolicyError(f"${POLICY_VARIABLE}: {exc}") from None
    return signoff_from_env(policy, env)


def signoff_from_env(policy: SupervisorPolicy, env: Mapping[str, str] | None = None) -> SupervisorPolicy:
    """``policy`` with the reviewers, rule roles and approvals ``$AGENT_PATTERNS_DESK_SIGNOFF``
    gives (``make serve`` with authenticated reviewers: docs/server.md); not JSON of that shape,
    or naming a tool the policy has no rules for: :class:`DeskPolicyError`."""
    env = os.environ if env is None else env
    raw = env.get(SIGNOFF_VARIABLE, "").strip()
    if not raw:
        return policy
    try:
        said = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise DeskPolicyError(f"${SIGNOFF_VARIABLE} is not JSON: {exc}") from None
    shape = '{"reviewers": {name: [roles]}, "roles": {tool: role}, "approvals": {tool: n}}'
    keys = ("reviewers", "roles", "approvals")
    parts = {k: said.get(k) or {} for k in keys} if isinstance(said, dict) else {}
    if not parts or set(said) - set(parts) or not all(isinstance(v, dict) for v in parts.values()):
        raise DeskPolicyError(f"${SIGNOFF_VARIABLE} must be a JSON object {shape}")
    rules = dict(policy.rules)
    try:
        for key, field in (("roles", "reviewer_role"), ("approvals", "approvals")):
            for tool, value in parts[key].items():
                if tool not in rules:
                    raise DeskPolicyError(
                        f"${SIGNOFF_VARIABLE}: {key}: no rules for a tool named {tool!r} "
                        f"(tools: {', '.join(sorted(rules))})"
                    )
                rules[tool] = ToolRules.model_validate({**rules[tool].model_dump(), field: value})
        reviewers = {"reviewers": parts["reviewers"]} if "reviewers" in said else {}
        return SupervisorPolicy.model_validate({**policy.model_dump(), "rules": rules, **reviewers})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DeskPolicyError(f"${SIGNOFF_VARIABLE}: {where}: {first['msg']}") from None
