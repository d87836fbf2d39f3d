"""People as a turn names them by what they are to the user or what they do rather than by name:
a relation ("my wife", "my manager", "a friend") or a role ("a client", "our new hire", "the CFO").
What the bindings read of a call's party and the review of a message's recipient. Pure: no I/O."""

from __future__ import annotations

import re

__all__ = ["PEOPLE_WORDS", "RELATIONS", "ROLES", "address_words"]

#: Whom a name's possessive makes another person ("Ana's assistant", "Bob's wife").
RELATIONS = frozenset(
    {"wife", "husband", "partner", "assistant", "pa", "ea", "secretary", "manager", "boss", "deputy",
     "team", "colleague", "colleagues", "friend", "friends", "mum", "mom", "mother", "dad", "father",
     "son", "daughter", "brother", "sister", "kid", "kids", "family", "parents", "replacement",
     "cover", "intern", "lawyer", "doctor", "client", "clients", "customer", "reports", "lead",
     "successor", "predecessor", "landlord", "neighbour", "neighbor", "girlfriend", "boyfriend"}
)  # fmt: skip

#: The people a turn names by a role rather than a name ("for a client", "our new hire").
ROLES = frozenset(
    """
    guest guests visitor visitors hire employee candidate speaker contractor consultant customers vendor
    supplier coworker co-worker teammate member staff person someone somebody attendee delegate trainee
    recruit interviewee professor lecturer researcher student investor director engineer designer developer
    auditor journalist photographer executive founder panelist volunteer applicant participant trainer coach
    advisor adviser mentor mentee ceo cto cfo vp chair presenter performer artist
    """.split()  # noqa: SIM905 (a closed list, read as words)
)

#: Words that name a person or a desk by a relation, a role or a function ("my mom", "the
#: accountant", "HR"): whom a message is addressed to, not a record's name.
PEOPLE_WORDS = RELATIONS | ROLES | frozenset(
    {"accountant", "hr", "legal", "finance", "recruiter", "banker", "dentist", "nanny", "tutor", "cousin",
     "aunt", "uncle", "grandma", "grandpa", "niece", "nephew", "roommate", "flatmate", "fiance", "fiancee"}
)  # fmt: skip


def address_words(address: str) -> list[str]:
    """The words of an address's own part that may name its person ("ana" of ana@corp.example,
    "carl" and "jones" of carl.jones@...): three letters or more, as written."""
    return re.findall(r"[^\W\d_]{3,}", address.split("@")[0])
