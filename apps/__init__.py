"""The applications around the graphs, one folder each: :mod:`apps.cli` (the ``agent-patterns``
command), :mod:`apps.probe` (attacks and review load of a policy before shipping),
:mod:`apps.gateway` (the governed MCP gateway) and :mod:`apps.operations` (the run store's runs,
audit, export and shadow report). Each imports the core (``policies/``, ``nodes/``, ``graphs/``,
``demo_tools/``) and its own folder, never another application's, except the CLI, which imports
them all; the core imports none of them, and this ``__init__`` imports nothing
(``tests/test_house.py`` reads every import). The map: docs/development.md."""
