"""The support desk (:mod:`demo_tools.support_desk`) governed by Cedar policies: the same tools, the
same tasks, the order book and tickets as the desk declares them, and Cedar doing what the desk's
Python rules do about where a value came from, how much may run unasked and who must answer above
that (docs/cedar.md shows the two side by side). What Cedar cannot see — an order's total, the
refunds already made on it across the thread — stays with the project's own rules: Cedar is told
each value and its sources, not the records behind them.

    agent-patterns cedar check governed_agent_patterns.demo_tools.cedar_desk
    agent-patterns probe governed_agent_patterns.demo_tools.cedar_desk
"""

from __future__ import annotations

from demo_tools import support_desk as desk
from policies.supervisor import IdentifierRule, NumberArg, RecordLimit, Requested, SupervisorPolicy, ToolRules

#: The desk's Cedar policies. ``context.args.<arg>.sources``: where the value was found (``request``:
#: the user's words; ``named``: a trusted field of a record the request names; ``trusted:<tool>`` /
#: ``untrusted:<tool>``: a tool's result; ``human``: a reviewer's edit).
CEDAR = """\
// A refund is for an order the user's own words name (or a reviewer typed), never one a ticket names.
@id("refund-an-order-the-user-named")
forbid(principal, action == Action::"issue_refund", resource)
unless { context.args.order_id.sources.containsAny(["request", "named", "human"]) };

// Its amount is the user's figure or the order book's, never a ticket's.
@id("refund-amount-from-the-user-or-the-order-book")
forbid(principal, action == Action::"issue_refund", resource)
unless {
  context.args.amount.sources.containsAny(["request", "named", "trusted:look_up_order", "human"])
};

// Up to 100 runs without a human; above that someone in finance answers.
@id("refunds-up-to-100")
permit(principal, action == Action::"issue_refund", resource)
when { context.args.amount.value.lessThanOrEqual(decimal("100.0")) };

@id("refunds-above-100-ask-finance")
@ask("finance")
permit(principal, action == Action::"issue_refund", resource)
when { context.args.amount.value.greaterThan(decimal("100.0")) };

// Mail goes to an address the user wrote, or the one the order book holds for an order they named.
@id("mail-to-whom-the-user-named")
forbid(principal, action == Action::"send_email", resource)
unless { context.args.to.sources.containsAny(["request", "named", "human"]) };
"""

tools = desk.tools
tasks = desk.tasks
SUBJECT = desk.SUBJECT

policy = SupervisorPolicy.for_tools(
    tools,
    side_effects=["issue_refund", "send_email"],
    tools=dict(desk.policy.tools),  # the order book is trusted, a ticket's text is the customer's
    rules={
        "look_up_order": ToolRules(read_only=True),
        "read_ticket": ToolRules(read_only=True),
        # what Cedar cannot see: the order's total across the thread's refunds; and that a refund is
        # what the user asked for (the turn's mandate is in Cedar's context too)
        "issue_refund": ToolRules(
            requested=Requested(keywords=["refund"]),
            number_args=[NumberArg(arg="amount", decimals=2, currency="EUR")],
            record_limits=[
                RecordLimit(arg="amount", record_arg="order_id", tool="look_up_order", field="total")
            ],
        ),
        # and an address or link inside a text (Cedar is told each argument's sources, not what
        # its words carry)
        "send_email": ToolRules(
            identifiers=IdentifierRule(args=["subject", "body"]),
            requested=Requested(keywords=["email", "tell", "notify", "confirm", "reply"]),
        ),
    },
    reviewers={"fran": ["finance"], "femi": ["finance"], "sam": ["support"]},
    cedar=CEDAR,
)
