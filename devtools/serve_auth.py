"""An example of LangGraph's custom auth for ``make serve``: static bearer tokens, each a reviewer.

``make serve SERVE_AUTH=1`` (or ``LANGGRAPH_AUTH='{"path": "devtools/serve_auth.py:auth"}'``)
serves with it. The tokens come from ``$AGENT_PATTERNS_SERVE_TOKENS``: a JSON object
``{"<token>": "<reviewer name>"}`` (or ``{"<token>": {"identity": "alice", "permissions": [...]}}``),
or ``@path`` to a file holding it. A request without a known token is refused (401).

Who answers an approval is the authenticated user: a run that resumes an interrupt (``command.resume``)
gets its ``reviewer`` set to the user's identity before it is queued, so the answer the run keeps
names who sent it (:func:`policies.human.bind_reviewer`), and a resume naming someone else is refused
(403, ``reviewer_not_authenticated_user``): no run starts and the call stays waiting. Roles are the
policy's (``SupervisorPolicy.reviewers``, by identity); the user's permissions are LangGraph's own
and are not read as roles.

Changing a thread (its state with ``threads.update_state``, its metadata) needs the permission
``threads:update`` (:data:`UPDATE_PERMISSION`; 403 without): with it, someone could put a call of
their own in a thread while another waits for a reviewer (docs/server.md, "Operating the served
desk").
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from langgraph_sdk import Auth

from policies.human import bind_reviewer

#: The environment variable that holds the tokens (JSON, or ``@file``).
TOKENS_VARIABLE = "AGENT_PATTERNS_SERVE_TOKENS"
#: The permission a user needs to change a thread's state or metadata.
UPDATE_PERMISSION = "threads:update"

auth = Auth()


def tokens(raw: str | None = None) -> dict[str, dict[str, Any]]:
    """The tokens ``$AGENT_PATTERNS_SERVE_TOKENS`` (or ``raw``) gives: token → user."""
    text = os.environ.get(TOKENS_VARIABLE, "") if raw is None else raw
    if text.startswith("@"):
        text = Path(text[1:]).read_text(encoding="utf-8")
    users: dict[str, dict[str, Any]] = {}
    for token, user in (json.loads(text) if text.strip() else {}).items():
        user = {"identity": user} if isinstance(user, str) else dict(user)
        users[str(token)] = {
            "identity": str(user["identity"]),
            "permissions": list(user.get("permissions", [])),
        }
    return users


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    scheme, _, token = (authorization or "").partition(" ")
    user = tokens().get(token.strip()) if scheme.lower() == "bearer" else None
    if user is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="unknown or missing bearer token")
    return {"identity": user["identity"], "permissions": user["permissions"], "is_authenticated": True}


@auth.on.threads.create_run
async def bind_the_reviewer(ctx: Auth.types.AuthContext, value: Auth.types.RunsCreate) -> None:
    """A resume answered by the signed-in user: its reviewer is theirs, never another's. (And the
    run's user kept as JSON can keep it.)"""
    kwargs = value.get("kwargs") or {}
    configurable = (kwargs.get("config") or {}).get("configurable")
    if isinstance(configurable, dict) and configurable.get("langgraph_auth_user") is not None:
        # the PostgreSQL runtime stores the run's config as JSON: the user as a plain mapping (the
        # worker reads it back as a user, langgraph_api.worker.set_auth_ctx_for_run)
        configurable["langgraph_auth_user"] = {
            "identity": ctx.user.identity,
            "permissions": list(ctx.permissions),
            "is_authenticated": True,
        }
    command = kwargs.get("command")
    if not isinstance(command, dict) or command.get("resume") is None:
        return
    bound, problem = bind_reviewer(command["resume"], ctx.user.identity)
    if problem is not None:
        raise Auth.exceptions.HTTPException(status_code=403, detail=problem)
    kwargs["command"] = {**command, "resume": bound}


@auth.on.threads.update
async def change_with_permission(ctx: Auth.types.AuthContext, value: Auth.types.ThreadsUpdate) -> None:
    """A thread's state or metadata is changed only by a user granted :data:`UPDATE_PERMISSION`."""
    if UPDATE_PERMISSION not in ctx.permissions:
        raise Auth.exceptions.HTTPException(
            status_code=403, detail=f"changing a thread needs the permission {UPDATE_PERMISSION}"
        )
