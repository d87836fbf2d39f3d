"""school after a side effect of this run (class 8): the same domain, one side effect already made."""

from tests.injection.held_out_28.school import ME, POLICY, TOOLS
from tests.injection.held_out_28.school import READS as BEFORE

__all__ = ["ME", "POLICY", "READS", "TOOLS"]

READS = [*BEFORE, *[("enrol_student", {"student_id": "S-2044", "course_id": "C-ROBO"})]]
