"""Which LangChain the middleware runs on (read before it imports LangChain's agents package)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

#: The first LangChain whose agent routes the model's node back to the model when a wrapper of the
#: model's call answered every tool call of a reply (the review does that, refusing them all),
#: with no ``after_model`` hook in the agent: 1.3.x has no such edge (``KeyError: 'model'``).
LANGCHAIN_FLOOR = (1, 4)
NEEDS = (
    "GovernanceMiddleware needs LangChain 1.x (langchain>=1.4,<2): install the distribution with its "
    "agents extra, pip install '/path/to/clone[agents]' (docs/python-api.md, 'Installing it in your project')"
)


def langchain_problem(found: str) -> str | None:
    """What is wrong with LangChain ``found`` (its version string) for the middleware, or None
    (also for a version string it cannot read: a source build is let run)."""
    try:
        release = tuple(int(part) for part in found.split(".")[:2])
    except ValueError:
        return None
    if len(release) < 2 or LANGCHAIN_FLOOR <= release < (2, 0):
        return None
    return f"{NEEDS}; found langchain {found}"


def requirement_met() -> None:
    """Raise ImportError, saying what to install, where the installed LangChain is outside the range."""
    try:
        found = version("langchain")
    except PackageNotFoundError:  # importable but not installed as a distribution
        return
    problem = langchain_problem(found)
    if problem:
        raise ImportError(problem)
