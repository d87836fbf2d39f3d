"""How a CLI command fails: its exit statuses and one line on stderr (``agent-patterns: error: ...``)."""

from __future__ import annotations

import sys
from typing import NoReturn

from apps.cli.printable import printable
from nodes.store import database_error, one_line, parse_location  # noqa: F401 (database_error: the CLI's too)

EXIT_OK, EXIT_STOPPED, EXIT_USAGE, EXIT_WAITING = 0, 1, 2, 3
DEBUG_ENV = "AGENT_PATTERNS_DEBUG"


class CliError(Exception):
    """A problem with the command line or its files: one line, exit status 2."""


def exit_with_error(message: str) -> NoReturn:
    """The one line of a failed command (a message may quote a store's or a model's text: its
    control characters are escaped, :func:`apps.cli.printable.printable`)."""
    print(f"agent-patterns: error: {printable(' '.join(message.split()))}", file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


def store_error(exc: Exception, db: str) -> CliError:
    """A database failure in the middle of a command, as one line."""
    return CliError(f"run store {parse_location(db)} failed: {one_line(exc)}")
