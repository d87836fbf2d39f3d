"""Floor 2, rules: the policy language as data.

Each kind of rule a frozen model whose docstring states it in the domain's words (:mod:`.kinds`,
the thread-wide ones in :mod:`.thread`), a tool's rules (:class:`~.kinds.ToolRules`), the policy
and its fit to the tools (:mod:`.policy`), the worker's action contract (:mod:`.contract`) and the
refund demo's instance (:mod:`.demo`).
"""
