"""One module per pattern: state, routing functions, wiring, ``build_graph`` and a module-level
``graph`` for LangGraph Studio."""

import governed_agent_patterns  # noqa: F401 (the old paths of moved modules: governed_agent_patterns.MOVED)
