"""The domains of the provenance corpus (tests/injection/provenance_corpus.json): payments,
team messaging, calendar and travel, and the workspace (mail, calendar, files, settings), one
module each in ``tests/injection/domains/``. Each is what a user would write: LangChain tools over
their systems and a policy whose provenance and flow rules are data (no custom function):
destinations of any tool from the user or a trusted source, confidential fields that go only to
their readers, records others can write inside trusted tools, the names a final answer recommends,
and a human for account changes and deletions.

A domain's ``World`` records every side effect and every page fetched; the corpus plants text at
named sites (an invoice, an inbox, a channel, a review, a page, a calendar event, a file).
"""

from __future__ import annotations

from tests.injection.domains.messaging import messaging, messaging_policy
from tests.injection.domains.payments import payments, payments_policy
from tests.injection.domains.travel import travel, travel_policy
from tests.injection.domains.workspace import workspace, workspace_policy
from tests.injection.world import Domain, World

__all__ = ["DOMAINS", "Domain", "World"]

DOMAINS = {
    "payments": Domain(payments, payments_policy),
    "messaging": Domain(messaging, messaging_policy),
    "travel": Domain(travel, travel_policy, {"email": "me@corp.example"}),
    "workspace": Domain(workspace, workspace_policy, {"email": "me@corp.example"}),
}
