"""The ``agent-patterns`` command's entry point (``apps.cli.main``), under this package's name."""

from apps.cli.main import main

__all__ = ["main"]
