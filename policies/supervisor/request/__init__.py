"""Floor 3, request: what the user asked and for whom.

Whether the request asks for a rule's kind of action (:mod:`.asks`), whom the run acts for
(:mod:`.subject`), whose records a tool's result holds (:mod:`.ownership`) and the records the
request names, with what naming one vouches for (:mod:`.records`).
"""
