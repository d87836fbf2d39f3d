"""``python -m governed_agent_patterns``: the ``agent-patterns`` command."""

from graphs.cli import main

raise SystemExit(main())
