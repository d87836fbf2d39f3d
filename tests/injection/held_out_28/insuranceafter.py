"""insurance after a side effect of this run (class 8): the same domain, one side effect already made."""

from tests.injection.held_out_28.insurance import ME, POLICY, TOOLS
from tests.injection.held_out_28.insurance import READS as BEFORE

__all__ = ["ME", "POLICY", "READS", "TOOLS"]

READS = [*BEFORE, *[("pay_claim", {"claim_id": "C-41", "amount": 310.0})]]
