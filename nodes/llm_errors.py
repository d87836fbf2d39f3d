"""A model client's exception as a stop reason (``llm_timeout``, ``llm_error:<kind>``), and the
``Retry-After`` it may carry."""

from __future__ import annotations

import re

from langchain_core.exceptions import (
    ContextOverflowError,
    ModelAPIError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelInvalidRequestError,
    ModelNotFoundError,
    ModelPermissionDeniedError,
    ModelRateLimitError,
    ModelTimeoutError,
)

#: LangChain's provider-neutral model errors (langchain-openai raises subclasses of them).
_MODEL_ERRORS: tuple[tuple[type[BaseException], str], ...] = (
    (ModelTimeoutError, "llm_timeout"),
    (ModelConnectionError, "llm_timeout"),
    (ContextOverflowError, "llm_error:context_overflow"),
    (ModelRateLimitError, "llm_error:rate_limited"),
    (ModelAuthenticationError, "llm_error:auth"),
    (ModelPermissionDeniedError, "llm_error:auth"),
    (ModelNotFoundError, "llm_error:not_found"),
    (ModelAPIError, "llm_error:server"),
    (ModelInvalidRequestError, "llm_error:bad_request"),
)
#: Words in an exception class's name (or a base class's) that mean the transport failed: no
#: answer in time, a refused or dropped connection, a body cut off mid-way (httpx, http.client).
_TRANSPORT_WORDS = ("timeout", "connection", "transporterror", "protocolerror", "incompleteread")


def classify_llm_error(exc: BaseException) -> str:
    """Map a model client's exception to a stop reason: ``llm_timeout`` for no answer in time or
    a failed connection, ``llm_error:<kind>`` for the rest (``rate_limited``, ``server``, ``auth``,
    ``not_found``, ``bad_request``, ``context_overflow``, ``bad_response``, or the exception's
    class name in snake case)."""
    if isinstance(exc, TimeoutError | ConnectionError):
        return "llm_timeout"
    for kind, reason in _MODEL_ERRORS:
        if isinstance(exc, kind):
            return reason
    names = [cls.__name__.lower() for cls in type(exc).__mro__]
    if any(word in name for name in names for word in _TRANSPORT_WORDS):
        return "llm_timeout"
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and status >= 400:
        return _status_reason(status)
    if "apiresponsevalidationerror" in names or _raised_by_client(exc):
        return "llm_error:bad_response"
    snake = _WORD_BOUNDARY.sub("_", type(exc).__name__).lower()
    return f"llm_error:{snake}"


#: Modules of model clients: an error that is not an API or transport error but is raised inside
#: them means the client could not read the server's answer (a body that is not JSON, HTML from a
#: proxy, a JSON body that is not a chat completion).
_CLIENT_MODULES = frozenset({"openai", "langchain_openai"})
_WORD_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _raised_by_client(exc: BaseException) -> bool:
    if not isinstance(exc, ValueError | TypeError | AttributeError | KeyError | IndexError):
        return False
    frame = exc.__traceback__
    while frame is not None:
        if str(frame.tb_frame.f_globals.get("__name__", "")).split(".")[0] in _CLIENT_MODULES:
            return True
        frame = frame.tb_next
    return False


def _status_reason(status: int) -> str:
    if status == 408:
        return "llm_timeout"
    if status == 429:
        return "llm_error:rate_limited"
    if status in (401, 403):
        return "llm_error:auth"
    if status == 404:
        return "llm_error:not_found"
    return "llm_error:server" if status >= 500 else "llm_error:bad_request"


def retry_after_seconds(exc: BaseException) -> float | None:
    """A server's ``Retry-After`` (in seconds) on the response an error carries, if any."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    try:
        return float(headers.get("retry-after")) if headers is not None else None
    except (TypeError, ValueError):
        return None
