"""The ``agent-patterns`` command's entry point (``graphs.cli``), under this package's name."""

from graphs.cli import main

__all__ = ["main"]
