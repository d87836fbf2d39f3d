"""Floor 6, decide: one ordered chain of checks and the decision.

:data:`.review.CHAIN` lists the checks in the order a call is decided; each gives a decision naming
itself, or passes. The record checks (:mod:`.records_check`), a condition checked on trusted data
(:mod:`.conditions`), the human's side of an escalation (:mod:`.approval`) and the public
:func:`~.review_api.review_action` sit here; both engines call this floor and nothing below it
decides.
"""
