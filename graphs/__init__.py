"""One module per pattern: state, routing functions, wiring, ``build_graph`` and a module-level
``graph`` for LangGraph Studio."""
