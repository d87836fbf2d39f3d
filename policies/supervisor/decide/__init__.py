"""Floor 6, decide: one ordered chain of checks and the decision.

:data:`.review.CHAIN` lists the checks in the order a call is decided; each gives a decision naming
itself, or passes. The record checks (:mod:`.records_check`), a condition checked on trusted data
(:mod:`.conditions`) and the human's side of an escalation (:mod:`.approval`) sit here, with
the one public :func:`~.review.review_action`; both engines call this floor and nothing below it
decides.
"""
