"""clinic after a side effect of this run (class 8): the same domain, one side effect already made."""

from tests.injection.held_out_28.clinic import ME, POLICY, TOOLS
from tests.injection.held_out_28.clinic import READS as BEFORE

__all__ = ["ME", "POLICY", "READS", "TOOLS"]

READS = [
    *BEFORE,
    *[
        (
            "book_appointment",
            {"patient_id": "P-105", "doctor": "Dr. Maya Lee", "date": "2026-12-08", "time": "09:00"},
        )
    ],
]
