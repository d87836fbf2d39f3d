"""The ``agent-patterns`` command: one module per command or group of commands (``main`` holds the
parser and the dispatch; ``commands`` runs, shows and answers runs; ``audit``, ``export``,
``expiry``, ``shadow``, ``probe`` their commands; ``desk`` the support desk's console; the gateway's
command is :mod:`apps.gateway.command`), and beside them the command line's helpers (``errors``:
exit statuses and one-line errors; ``output``, ``progress``, ``printable``: what it prints;
``files``, ``inputs``: what it reads; ``signals``). The CLI may import every other application (it
is their command line) and the core. A new command is a module here and its two calls in ``main``:
it touches this folder only."""
