"""Floor 5, authority: who may authorise a call besides the request's mandates.

A grant from an earlier approval in the turn (:mod:`.grants`), who may answer a question and how
many must (:mod:`.reviewers`), and how long a question stays valid (:mod:`.expiry`). The human's
answer itself is read by :mod:`policies.human`, which every pattern shares.
"""
