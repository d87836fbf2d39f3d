"""A reader that leaves (a closed pipe) and Ctrl-C: neither loses a run nor prints a traceback."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import TextIO

from apps.cli.output import db_suffix
from nodes.store import parse_location


class PipeSafe:
    """A stream whose reader may leave (``agent-patterns run supervisor | head -2``): once a write
    finds the pipe closed, the rest goes to ``/dev/null``, so the run it reports on carries on to
    its end instead of stopping half-way."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.reader_left = False

    def _drop(self) -> None:
        self.reader_left = True
        with contextlib.suppress(OSError, ValueError):  # no descriptor: nothing flushes at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), self.stream.fileno())

    def write(self, text: str) -> int:
        if not self.reader_left:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                self._drop()
        return len(text)

    def flush(self) -> None:
        if not self.reader_left:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._drop()

    def fileno(self) -> int:
        return self.stream.fileno()

    def isatty(self) -> bool:
        return self.stream.isatty()


def discard_stdout() -> None:
    """``agent-patterns runs | head``: the reader left, which is fine; the rest of stdout goes to
    ``/dev/null``."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def report_interrupted(args: argparse.Namespace) -> int:
    """Ctrl-C: a run in a lasting store is kept as it stood; say how to carry it on. Exit status 130."""
    running = getattr(args, "running", None)
    if running and parse_location(args.db).kind != "memory":
        print(
            f"agent-patterns: interrupted; the run is kept as it stood. Carry it on with: "
            f"agent-patterns resume {running}{db_suffix(args.db)}",
            file=sys.stderr,
        )
    else:
        print("agent-patterns: interrupted", file=sys.stderr)
    return 130
