"""OAuth 2.1 resource-server mode for the gateway's streamable HTTP transport: every request to
``/mcp`` carries a bearer token (a JWT) that an authorization server the operator names issued, for
this gateway. The token's signature is checked against the issuer's published keys (JWKS), and its
issuer, audience, expiry and subject; the subject becomes the caller's identity, which binds the
caller's conversations and call ids (another caller naming the same conversation gets another
one), names the account an answer through the client came from, and is what
``--ask-client-caller`` opts in. A request without a valid token is answered ``401`` with a
``WWW-Authenticate`` header that points to the gateway's protected-resource metadata
(RFC 9728, ``/.well-known/oauth-protected-resource``), which names the issuer, so that an MCP
client can find where to sign in (the MCP authorization spec).

The keys are read from ``jwks_uri`` (given, or discovered from the issuer's metadata: RFC 8414's
``/.well-known/oauth-authorization-server``, then OpenID Connect's
``/.well-known/openid-configuration``) and cached; a token signed with a key not yet seen refreshes
them once."""

from __future__ import annotations

import contextlib
import json
import urllib.request
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

#: The scope key under which the authenticated caller's identity reaches the MCP handlers.
CALLER_SCOPE = "agent_patterns.caller"
#: The scope key of the caller's roles (the token's roles claim: ``ToolRules.caller_roles``).
ROLES_SCOPE = "agent_patterns.roles"
#: The algorithms a token may be signed with (asymmetric only: the gateway holds no shared secret).
ALGORITHMS = ("RS256", "RS384", "RS512", "ES256", "ES384", "PS256")
#: Seconds of clock skew tolerated on ``exp`` and ``nbf``.
LEEWAY = 30
#: Seconds a network read of the issuer's metadata or keys may take.
FETCH_TIMEOUT = 10.0

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class TokenError(Exception):
    """A bearer token the gateway does not accept; the message says why (shown to the client)."""


class AuthConfigError(Exception):
    """The issuer's metadata or keys cannot be read: the gateway does not start."""


def _fetch_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT) as response:
        found = json.loads(response.read().decode("utf-8"))
    if not isinstance(found, dict):
        raise ValueError("not a JSON object")
    return found


def discover_jwks_uri(issuer: str) -> str:
    """The issuer's ``jwks_uri``, from its authorization-server metadata (RFC 8414), else its
    OpenID Connect configuration."""
    base = issuer.rstrip("/")
    problems = []
    for path in ("/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"):
        try:
            found = _fetch_json(base + path)
        except (OSError, ValueError) as exc:
            problems.append(f"{base + path}: {exc}")
            continue
        uri = found.get("jwks_uri")
        if isinstance(uri, str) and uri:
            return uri
        problems.append(f"{base + path}: no jwks_uri")
    raise AuthConfigError(f"the issuer {issuer} publishes no keys: " + "; ".join(problems))


@dataclass
class TokenVerifier:
    """Checks bearer tokens against one issuer: signature (its JWKS), ``iss``, ``aud``, ``exp``,
    ``nbf`` and a ``sub``. ``audience``: what the token must be for (this gateway's resource URL by
    default)."""

    issuer: str
    audience: str
    jwks_uri: str | None = None
    #: the claim that holds the caller's roles: a list of strings, or one string of space-separated
    #: values (as OAuth's ``scope``); where the token has no such claim, its ``scope``
    roles_claim: str = "roles"
    _keys: dict[str, Any] = field(default_factory=dict, repr=False)

    def load(self) -> None:
        """Read the issuer's keys now (the gateway fails to start, in one line, where it cannot)."""
        if self.jwks_uri is None:
            self.jwks_uri = discover_jwks_uri(self.issuer)
        try:
            self._refresh()
        except (OSError, ValueError) as exc:
            raise AuthConfigError(f"the issuer's keys at {self.jwks_uri}: {exc}") from None

    def _refresh(self) -> None:
        import jwt

        assert self.jwks_uri is not None
        keys = jwt.PyJWKSet.from_dict(_fetch_json(self.jwks_uri))
        self._keys = {k.key_id or "": k for k in keys.keys}

    def _key(self, kid: str | None) -> Any:
        found = self._keys.get(kid or "")
        if found is None and kid is None and len(self._keys) == 1:
            found = next(iter(self._keys.values()))
        if found is None:
            with contextlib.suppress(OSError, ValueError):
                self._refresh()  # a key the issuer rotated in since
            found = self._keys.get(kid or "")
        if found is None:
            raise TokenError(f"signed with a key the issuer does not publish (kid {kid!r})")
        return found.key

    def verify(self, token: str) -> dict[str, Any]:
        """The token's claims, or :class:`TokenError` saying why it is not accepted."""
        import jwt

        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as exc:
            raise TokenError(f"not a JWT: {exc}") from None
        if header.get("alg") not in ALGORITHMS:
            raise TokenError(f"algorithm {header.get('alg')!r} not accepted (one of {', '.join(ALGORITHMS)})")
        key = self._key(header.get("kid"))
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=list(ALGORITHMS),
                audience=self.audience,
                issuer=self.issuer,
                leeway=LEEWAY,
                options={"require": ["exp", "iss", "aud", "sub"]},
            )
        except jwt.PyJWTError as exc:
            raise TokenError(str(exc) or type(exc).__name__) from None
        if not isinstance(claims.get("sub"), str) or not claims["sub"].strip():
            raise TokenError("no subject (sub)")
        return claims

    def roles(self, claims: dict[str, Any]) -> tuple[str, ...]:
        """The caller's roles a token's claims give (:attr:`roles_claim`, else ``scope``)."""
        given = claims.get(self.roles_claim, claims.get("scope"))
        if isinstance(given, str):
            return tuple(given.split())
        if isinstance(given, list):
            return tuple(r for r in given if isinstance(r, str) and r)
        return ()


def resource_metadata(resource: str, issuer: str) -> dict[str, Any]:
    """The gateway's protected-resource metadata (RFC 9728)."""
    return {
        "resource": resource,
        "authorization_servers": [issuer],
        "bearer_methods_supported": ["header"],
    }


class BearerAuth:
    """ASGI middleware: a request to the MCP endpoint without a token ``verifier`` accepts is
    answered 401 (``WWW-Authenticate: Bearer ...`` with the metadata's address); an accepted one
    goes on with the caller's subject in the scope (:data:`CALLER_SCOPE`)."""

    def __init__(self, app: App, verifier: TokenVerifier, metadata_url: str) -> None:
        self.app = app
        self.verifier = verifier
        self.metadata_url = metadata_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
        given = headers.get("authorization", "")
        scheme, _, token = given.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            await self._refuse(send, None)
            return
        import anyio

        try:
            claims = await anyio.to_thread.run_sync(self.verifier.verify, token.strip())
        except TokenError as exc:
            await self._refuse(send, str(exc))
            return
        scope[CALLER_SCOPE] = claims["sub"]
        scope[ROLES_SCOPE] = self.verifier.roles(claims)
        await self.app(scope, receive, send)

    async def _refuse(self, send: Send, problem: str | None) -> None:
        challenge = f'Bearer resource_metadata="{self.metadata_url}"'
        if problem is not None:
            said = problem.replace('"', "'")
            challenge += f', error="invalid_token", error_description="{said}"'
        body = json.dumps({"error": "invalid_token" if problem else "unauthorized", "detail": problem})
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", challenge.encode("latin-1", "replace")),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body.encode()})


def caller_of(request: Any) -> str | None:
    """The authenticated caller of an MCP request (None: no authentication, or stdio)."""
    scope = getattr(request, "scope", None)
    caller = scope.get(CALLER_SCOPE) if isinstance(scope, dict) else None
    return caller if isinstance(caller, str) and caller else None


def roles_of(request: Any) -> tuple[str, ...]:
    """The authenticated caller's roles (empty: none, or no authentication)."""
    scope = getattr(request, "scope", None)
    roles = scope.get(ROLES_SCOPE) if isinstance(scope, dict) else None
    return tuple(roles) if isinstance(roles, tuple | list) else ()
