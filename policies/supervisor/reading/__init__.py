"""Floor 1, reading: how any value is read, whatever the rule asks of it.

One reading of each thing, used by every floor above: amounts in text and as arguments
(:mod:`.amounts`), identifiers in canonical form (:mod:`.identifiers`), a value's identity, its
leaves, a record's identity and whether a value appears in a text (:mod:`.values`), and the words
of a request: its clauses, the positive grammar, the mandates a reader yields (:mod:`.words`).
Pure functions on text and values; nothing here knows a policy.
"""
