"""Floor 4, provenance: where each value came from.

The run's sources (:mod:`.sources`), values derived by an operation the request states
(:mod:`.derivation`), confidential values and where they may flow (:mod:`.flow`, the policy-wide
flow rules in :mod:`.flows`), values taken from a record the request names (:mod:`.following`),
what the thread did (:mod:`.ledger`) and all a review knows of a run (:mod:`.context`).
"""
