"""The governed MCP gateway (docs/mcp.md): ``proxy`` puts the governance of a ``create_agent``
agent (``GovernanceMiddleware``, its journal and audit) in front of one or more upstream MCP servers,
and ``server`` serves it as an MCP server over stdio or streamable HTTP. It imports the core only
(the middleware, the MCP tools of ``nodes/``, the policies and the run store of ``nodes.store``),
never another application. ``command`` is its command line (``agent-patterns gateway``, which the
CLI's parser takes from here): a new gateway option touches this folder only."""
