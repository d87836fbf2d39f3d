"""freelance after a side effect of this run (class 8): the same domain, one side effect already made."""

from tests.injection.held_out_28.freelance import ME, POLICY, TOOLS
from tests.injection.held_out_28.freelance import READS as BEFORE

__all__ = ["ME", "POLICY", "READS", "TOOLS"]

READS = [
    *BEFORE,
    *[("create_invoice", {"client_id": "CL-3", "amount": 300.0, "description": "logo revisions"})],
]
