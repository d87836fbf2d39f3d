"""The governed MCP gateway (docs/mcp.md): ``proxy`` puts the governance of a ``create_agent``
agent (``GovernanceMiddleware``, its journal and audit) in front of one or more upstream MCP servers,
and ``server`` serves it as an MCP server over stdio or streamable HTTP. It imports the core only
(the middleware, the MCP tools of ``nodes/``, the policies and the run store of ``nodes.store``),
never another application; its command line is :mod:`apps.cli.gateway`. A new gateway option
touches this folder and that one module of the CLI's."""
