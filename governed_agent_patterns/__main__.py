"""``python -m governed_agent_patterns``: the ``agent-patterns`` command."""

from apps.cli.main import main

raise SystemExit(main())
