"""Issue 49, items 6 to 8: limits admit on positive evidence only.

- One amount reader (:func:`policies.supervisor.reading.amounts.amount_value`) for every limit: a decimal string
  (``"900.00"``, ``"1,200.50"``) is the number it writes; what it cannot read (NaN, an infinity, a
  boolean, an exponent, a decimal comma, a list...) is asked (``amount_not_readable``), never
  admitted; cumulative sums read earlier amounts the same way (``"80.00"`` + ``"80.00"`` is 160).
- One identity for a record (:func:`policies.supervisor.reading.values.record_identity`): ``"INV-8."`` is the
  record ``INV-8`` to provenance, the ledger (``Repeat``, ``RecordLimit``, ``per``) and grants.
- A summed rule may count a ``group`` of tools: a refund and a store credit on one order.

Properties over spellings, then both engines (the Supervisor graph with custom tools, and
``create_agent`` + ``GovernanceMiddleware``) driven by a scripted worker."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain.agents import create_agent
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from graphs.supervisor import build_graph
from nodes.middleware import GovernanceMiddleware
from nodes.scripted import ScriptedToolModel
from policies.supervisor import (
    RecordLimit,
    Repeat,
    ReviewContext,
    RunCap,
    SupervisorPolicy,
    Threshold,
    ToolRules,
    policy_problems,
    review_action,
)
from policies.supervisor.provenance.ledger import ledger_args
from policies.supervisor.reading.amounts import amount_value
from policies.supervisor.reading.values import Source, identity, origins, record_identity
from policies.tools import ToolSpec
from tests.helpers import ledger_of, payouts_policy_of

# ------------------------------------------------------------------------------ amount spellings


@st.composite
def decimal_texts(draw: Any) -> tuple[str, Decimal]:
    """A decimal string as a payment API or a person writes it, and the number it writes."""
    whole = draw(st.integers(0, 10**12))
    places = draw(st.integers(0, 4))
    fraction = draw(st.integers(0, 10**places - 1)) if places else 0
    sign = draw(st.sampled_from(["", "-", "+"]))
    grouped = draw(st.booleans())
    digits = f"{whole:,}" if grouped else str(whole)
    text = digits + (f".{fraction:0{places}d}" if places else "")
    pad = draw(st.sampled_from(["", " ", "\t", "  \n", "\u00a0"]))
    expected = Decimal(f"{'-' if sign == '-' else ''}{whole}" + (f".{fraction:0{places}d}" if places else ""))
    return f"{pad}{sign}{text}{pad}", expected


NOT_AMOUNTS = st.one_of(
    st.sampled_from(
        [
            "nan",
            "NaN",
            "-nan",
            "inf",
            "-inf",
            "Infinity",
            "1e3",
            "9E2",
            "1e-3",
            "0x10",
            "1_000",
            "1,5",
            "1.300,00",
            "1 200",
            "12,34",
            ".5",
            "900.",
            "$900",
            "900 EUR",
            "EUR 900",
            "",
            " ",
            "--5",
            "5-",
            "١٢٣",
            "９００",
            "1,2345",
            "nine hundred",
        ]
    ),
    st.sampled_from([math.nan, math.inf, -math.inf, Decimal("NaN"), Decimal("Infinity")]),
    st.booleans(),
    st.none(),
    st.lists(st.integers(0, 999), max_size=2),
    st.dictionaries(st.sampled_from(["amount", "value"]), st.integers(0, 999), max_size=1),
)
AMOUNTS = st.one_of(
    st.integers(-(10**15), 10**15),
    st.floats(allow_nan=True, allow_infinity=True),
    decimal_texts().map(lambda pair: pair[0]),
    NOT_AMOUNTS,
    st.text(max_size=8),
)


@settings(max_examples=400, deadline=None)
@given(spelled=decimal_texts())
def test_a_decimal_string_is_the_number_it_writes(spelled):
    text, expected = spelled
    assert amount_value(text) == expected


@settings(max_examples=200, deadline=None)
@given(value=NOT_AMOUNTS)
def test_what_is_no_number_is_not_read(value):
    assert amount_value(value) is None


@settings(max_examples=200, deadline=None)
@given(value=st.one_of(st.integers(), st.floats()))
def test_a_number_reads_as_itself_when_finite(value):
    read = amount_value(value)
    assert (read is None) == (not math.isfinite(value))
    if read is not None:
        assert read == Decimal(repr(value)) if isinstance(value, float) else read == value


PAY = SupervisorPolicy.for_tools(
    ["pay"],
    rules={
        "pay": ToolRules(
            escalate_above=[Threshold(arg="amount", limit=100, reason="large_payment")],
        )
    },
)
CAPPED = SupervisorPolicy.for_tools(
    ["pay"],
    rules={
        "pay": ToolRules(run_cap=RunCap(arg="amount", limit=100, exhausted_reason="no", revise_reason="cap"))
    },
)


def pay(amount: Any) -> dict[str, Any]:
    return {"kind": "tool", "name": "pay", "args": {"amount": amount}}


@settings(max_examples=500, deadline=None)
@given(value=AMOUNTS)
def test_a_threshold_reads_what_the_reader_reads_or_asks(value):
    """Whatever the spelling: the threshold compares the reader's number, or it asks; it never
    admits a value the reader cannot read."""
    decision = review_action(pay(value), ReviewContext(), PAY)
    read = amount_value(value)
    if read is None:
        assert (decision.verdict, decision.reason) == ("escalate", "amount_not_readable")
    elif read > 100:
        assert (decision.verdict, decision.reason) == ("escalate", "large_payment")
    else:
        assert decision.verdict == "approve", decision


@settings(max_examples=300, deadline=None)
@given(value=AMOUNTS)
def test_a_cap_reads_what_the_reader_reads_or_asks(value):
    decision = review_action(pay(value), ReviewContext(), CAPPED)
    read = amount_value(value)
    if read is None:
        assert (decision.verdict, decision.reason) == ("escalate", "amount_not_readable")
    elif read > 100:
        assert decision.verdict == "revise"
        revised = decision.details["action"]["args"]["amount"]
        assert amount_value(revised) == 100 and isinstance(revised, str) == isinstance(value, str)
    else:
        assert decision.verdict == "approve", decision


def test_900_00_runs_past_no_threshold_and_an_unreadable_amount_is_never_granted():
    decision = review_action(pay("900.00"), ReviewContext(), PAY)
    assert (decision.verdict, decision.reason, decision.details["value"]) == (
        "escalate",
        "large_payment",
        "900.00",
    )
    assert review_action(pay("1,200.50"), ReviewContext(), PAY).reason == "large_payment"
    assert review_action(pay(" 99.99 "), ReviewContext(), PAY).verdict == "approve"
    for odd in ("9e2", "NaN", True, None, [900], "900,00"):
        assert review_action(pay(odd), ReviewContext(), PAY).reason == "amount_not_readable", odd


# --------------------------------------------------------------------------- cumulative sums

THREAD = SupervisorPolicy.for_tools(
    ["refund"],
    rules={
        "refund": ToolRules(
            escalate_above=[
                Threshold(arg="amount", limit=100, reason="large_refund", cumulative=True, scope="thread")
            ]
        )
    },
)


@settings(max_examples=200, deadline=None)
@given(first=decimal_texts(), second=decimal_texts())
def test_a_threads_sum_reads_earlier_string_amounts_as_the_reader_does(first, second):
    (before, before_value), (now, now_value) = first, second
    ledger = ledger_of(THREAD, ("refund", {"amount": before}))
    decision = review_action(
        {"kind": "tool", "name": "refund", "args": {"amount": now}}, ReviewContext(ledger=ledger), THREAD
    )
    if now_value + before_value > 100:
        assert (decision.verdict, decision.reason) == ("escalate", "large_refund")
    else:
        assert decision.verdict == "approve"


def test_80_00_and_80_00_count_160_and_an_unreadable_earlier_amount_asks():
    ledger = ledger_of(THREAD, ("refund", {"amount": "80.00"}))
    context = ReviewContext(ledger=ledger)
    assert context.summed("refund", "amount", scope="thread") == 160 - 80
    decision = review_action({"kind": "tool", "name": "refund", "args": {"amount": "80.00"}}, context, THREAD)
    assert (decision.reason, decision.details["thread_total"]) == ("large_refund", 80.0)
    odd = ledger_of(THREAD, ("refund", {"amount": "8e1"}))  # a human let it run; its total is unknown
    again = review_action(
        {"kind": "tool", "name": "refund", "args": {"amount": 1}}, ReviewContext(ledger=odd), THREAD
    )
    assert (again.verdict, again.reason, again.details.get("unreadable")) == (
        "escalate",
        "amount_not_readable",
        "an earlier call",
    )


# --------------------------------------------------------------------------- record identity

ID_BASES = st.sampled_from(["INV-8", "ORD-1001", "inv-2024-007", "A1", "7", "Order 42", "cust-42"])


@st.composite
def spellings(draw: Any) -> tuple[str, str]:
    """A record's name (its base) as a worker may write it: any case, any run of spaces inside,
    a trailing punctuation mark, spaces around."""
    base = draw(ID_BASES)
    cased = draw(st.sampled_from([base, base.upper(), base.lower(), base.title()]))
    spaced = cased.replace(" ", draw(st.sampled_from([" ", "  ", "\t"])))
    tail = draw(st.sampled_from(["", ".", ",", ";", "!", "?", ")", "'"]))
    pad = draw(st.sampled_from(["", " ", "  ", "\n"]))
    return base, f"{pad}{spaced}{tail}{pad}"


REPEAT = SupervisorPolicy.for_tools(["refund"], rules={"refund": ToolRules(repeat=Repeat(per=["order_id"]))})


@settings(max_examples=400, deadline=None)
@given(earlier=spellings(), now=spellings())
def test_provenance_and_the_ledger_agree_on_every_spelling_of_a_record(earlier, now):
    """``INV-8.``, `` inv-8 `` and ``INV-8`` are one record to provenance (a value traced to the
    trusted text that names it), to ``Repeat`` over the thread's ledger, and to the records a
    ``RecordLimit`` looks up; two records are never one."""
    (base, earlier), (other, now) = earlier, now
    same = record_identity(earlier) == record_identity(now)
    assert same == (base == other), (earlier, now)
    if identity(now) is not None and identity(earlier) is not None:  # provenance traces both
        assert same == (identity(now) == identity(earlier))
        trusted = Source("tool", f"id | {earlier} | total | 40", "look_up", 1, True)
        assert bool(origins(now, [trusted])) == same, (earlier, now)
    ledger = ledger_of(REPEAT, ("refund", {"order_id": earlier}))
    decision = review_action(
        {"kind": "tool", "name": "refund", "args": {"order_id": now}}, ReviewContext(ledger=ledger), REPEAT
    )
    assert (decision.reason == "repeated_on_record") == same, (earlier, now, decision)


def test_a_record_is_found_by_its_identity_for_a_record_limit():
    policy = SupervisorPolicy.for_tools(
        ["get_order", "refund"],
        tools={"get_order": ToolSpec(trust="trusted")},
        rules={
            "get_order": ToolRules(read_only=True),
            "refund": ToolRules(
                record_limits=[
                    RecordLimit(tool="get_order", arg="amount", record_arg="order_id", field="total")
                ]
            ),
        },
    )
    looked = {"step": 1, "tool": "get_order", "args": {"order_id": "INV-8"}, "ok": True}
    looked["observation"] = {"id": "INV-8", "total": "40.00"}  # the total as a decimal string
    ledger = ledger_of(policy, ("refund", {"order_id": "INV-8", "amount": "30.00"}))
    context = ReviewContext(calls=(looked,), ledger=ledger, trusted=frozenset({"get_order"}))
    fine = review_action(
        {"kind": "tool", "name": "refund", "args": {"order_id": " inv-8. ", "amount": 10}}, context, policy
    )
    assert fine.verdict == "approve", fine
    above = review_action(
        {"kind": "tool", "name": "refund", "args": {"order_id": "INV-8.", "amount": "10.01"}}, context, policy
    )
    assert (above.reason, above.details["thread_total"], above.details["limit"]) == (
        "above_record_limit",
        30.0,
        "40.00",
    )


# ------------------------------------------------------------------------------------ groups


def payouts_policy(group: bool, verdict: str = "escalate") -> SupervisorPolicy:
    names = ["issue_refund", "store_credit"] if group else []
    limit = RecordLimit(
        tool="look_up_order", arg="amount", record_arg="order_id", field="total", group=names, verdict=verdict
    )
    return payouts_policy_of(ToolRules(record_limits=[limit]), ToolRules())


def test_a_group_limit_holds_every_tool_of_the_group_and_the_ledger_keeps_them():
    grouped, alone = payouts_policy(True), payouts_policy(False)
    assert ledger_args(grouped) == {
        "issue_refund": ["amount", "order_id"],
        "store_credit": ["amount", "order_id"],
    }
    assert "store_credit" not in ledger_args(alone)
    looked = {"step": 1, "tool": "look_up_order", "args": {"order_id": "ORD-1"}, "ok": True}
    looked["observation"] = {"id": "ORD-1", "total": 40.0}
    for policy, asks in ((grouped, True), (alone, False)):
        ledger = ledger_of(policy, ("issue_refund", {"order_id": "ORD-1", "amount": 40.0}))
        context = ReviewContext(calls=(looked,), ledger=ledger, trusted=frozenset({"look_up_order"}))
        credit = {"kind": "tool", "name": "store_credit", "args": {"order_id": "ord-1.", "amount": "5.00"}}
        decision = review_action(credit, context, policy)
        assert (decision.reason == "above_record_limit") is asks, decision
        if asks:
            assert decision.verdict == "escalate"
            assert decision.details["group"] == ["issue_refund", "store_credit"]
    # a credit first, then a refund: the same sum
    ledger = ledger_of(grouped, ("store_credit", {"order_id": "ORD-1", "amount": "25.00"}))
    context = ReviewContext(calls=(looked,), ledger=ledger, trusted=frozenset({"look_up_order"}))
    refund = {"kind": "tool", "name": "issue_refund", "args": {"order_id": "ORD-1", "amount": 15.01}}
    assert review_action(refund, context, grouped).reason == "above_record_limit"
    assert (
        review_action({**refund, "args": {"order_id": "ORD-1", "amount": 15}}, context, grouped).verdict
        == "approve"
    )


def test_a_grouped_threshold_and_cap_sum_the_group():
    policy = SupervisorPolicy.for_tools(
        ["refund", "credit"],
        rules={
            "refund": ToolRules(
                escalate_above=[
                    Threshold(
                        arg="amount", limit=100, reason="large_payout", cumulative=True, group=["credit"]
                    )
                ]
            ),
            "credit": ToolRules(
                run_cap=RunCap(
                    arg="amount",
                    limit=150,
                    exhausted_reason="spent",
                    revise_reason="capped",
                    group=["refund"],
                )
            ),
        },
    )
    ran = {"step": 1, "tool": "refund", "args": {"amount": "90.00"}, "ok": True, "observation": {}}
    credit = {"kind": "tool", "name": "credit", "args": {"amount": "20"}}
    decision = review_action(credit, ReviewContext(calls=(ran,)), policy)
    assert (decision.reason, decision.details["run_total"], decision.details["group"]) == (
        "large_payout",
        90.0,
        ["credit", "refund"],
    )
    big = review_action({**credit, "args": {"amount": "70.00"}}, ReviewContext(calls=(ran,)), policy)
    assert big.verdict == "revise" and big.details["action"]["args"]["amount"] == "60"
    with pytest.raises(ValueError, match="cumulative=True"):
        Threshold(arg="amount", limit=1, reason="r", group=["credit"])


def test_a_groups_tools_and_arguments_are_checked_against_the_tools():
    @tool
    def issue_refund(order_id: str, amount: str) -> dict:
        """Refund."""
        return {}

    @tool
    def store_credit(order: str, value: str) -> dict:
        """Credit."""
        return {}

    limit = RecordLimit(
        tool="issue_refund",
        arg="amount",
        record_arg="order_id",
        field="total",
        group=["store_credit", "gift_card"],
    )
    policy = SupervisorPolicy.for_tools(
        [issue_refund, store_credit],
        tools={"issue_refund": ToolSpec(trust="trusted")},
        rules={"issue_refund": ToolRules(record_limits=[limit])},
    )
    problems = policy_problems(policy, {"issue_refund": None, "store_credit": store_credit.args_schema})
    assert "groups names tool 'gift_card', which is not registered" in problems
    assert any("'store_credit' names argument 'amount'" in p for p in problems), problems
    assert any("'store_credit' names argument 'order_id'" in p for p in problems), problems
    with pytest.raises(ValueError, match="store_credit"):
        build_graph(tools=[issue_refund, store_credit], policy=policy)


# ------------------------------------------------------------------------------ both engines

DONE: list[dict[str, Any]] = []
ORDERS = {"ORD-1": {"id": "ORD-1", "customer": "cust-42", "total": "40.00"}}


@tool
def look_up_order(order_id: str) -> dict:
    """An order: its customer and total (a decimal string, as a payment API gives it)."""
    return dict(ORDERS.get(order_id) or {"error": "no such order"})


@tool
def issue_refund(order_id: str, amount: str) -> dict:
    """Refund part of an order (the amount a decimal string)."""
    DONE.append({"tool": "issue_refund", "order_id": order_id, "amount": amount})
    return {"refunded": amount}


@tool
def store_credit(order_id: str, amount: str) -> dict:
    """Give store credit against an order (the amount a decimal string)."""
    DONE.append({"tool": "store_credit", "order_id": order_id, "amount": amount})
    return {"credited": amount}


TOOLS = [look_up_order, issue_refund, store_credit]
ENGINES = ("graph", "middleware")


def desk_policy(**refund_rules: Any) -> SupervisorPolicy:
    return SupervisorPolicy.for_tools(
        TOOLS,
        side_effects=["issue_refund", "store_credit"],
        tools={"look_up_order": ToolSpec(trust="trusted")},
        rules={
            "look_up_order": ToolRules(read_only=True),
            "issue_refund": ToolRules(**refund_rules),
            "store_credit": ToolRules(),
        },
    )


class Thread:
    """One thread on one engine; each turn a scripted worker."""

    def __init__(self, engine: str, policy: SupervisorPolicy, name: str) -> None:
        self.engine, self.policy, self.saver = engine, policy, InMemorySaver()
        self.config = {"configurable": {"thread_id": f"{name}-{engine}"}}
        DONE.clear()

    def say(self, text: str, *script: dict[str, Any]) -> dict[str, Any]:
        model = ScriptedToolModel(replies=[*script, "Done."])
        if self.engine == "graph":
            policy = self.policy.model_copy(update={"worker_protocol": "native"})
            self.agent = build_graph(llm=model, tools=TOOLS, policy=policy, checkpointer=self.saver)
        else:
            governance = GovernanceMiddleware(self.policy, tools=TOOLS)
            self.agent = create_agent(model, TOOLS, middleware=[governance], checkpointer=self.saver)
        return self.agent.invoke({"messages": [("user", text)]}, self.config)

    def answer(self, decision: dict[str, Any]) -> dict[str, Any]:
        return self.agent.invoke(Command(resume={"decisions": [decision]}), self.config)


def asked(result: dict[str, Any]) -> dict[str, Any] | None:
    waiting = result.get("__interrupt__")
    return waiting[0].value if waiting else None


def call(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_900_00_refund_under_a_threshold_of_100_asks(engine):
    policy = desk_policy(escalate_above=[Threshold(arg="amount", limit=100, reason="large_refund")])
    done = Thread(engine, policy, "nine").say(
        "Refund 900.00 on ORD-1.", call("issue_refund", order_id="ORD-1", amount="900.00")
    )
    assert asked(done)["reason"] == "large_refund" and DONE == []
    odd = Thread(engine, policy, "odd").say(
        "Refund 9e2 on ORD-1.", call("issue_refund", order_id="ORD-1", amount="9e2")
    )
    assert asked(odd)["reason"] == "amount_not_readable" and DONE == []
    fine = Thread(engine, policy, "fine").say(
        "Refund 9.00 on ORD-1.", call("issue_refund", order_id="ORD-1", amount="9.00")
    )
    assert asked(fine) is None and DONE == [{"tool": "issue_refund", "order_id": "ORD-1", "amount": "9.00"}]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_refund_and_a_store_credit_beyond_the_orders_total_ask_when_grouped(engine):
    limit = RecordLimit(
        tool="look_up_order", arg="amount", record_arg="order_id", field="total",
        group=["issue_refund", "store_credit"], verdict="escalate",
    )  # fmt: skip
    thread = Thread(engine, desk_policy(record_limits=[limit]), "payouts")
    first = thread.say(
        "Refund 30.00 on ORD-1.",
        call("look_up_order", order_id="ORD-1"),
        call("issue_refund", order_id="ORD-1", amount="30.00"),
    )
    assert asked(first) is None and len(DONE) == 1
    second = thread.say(
        "Give 15.00 store credit on ORD-1.", call("store_credit", order_id="ORD-1", amount="15.00")
    )
    question = asked(second)
    assert question["reason"] == "above_record_limit" and len(DONE) == 1
    assert question["details"]["thread_total"] == 30.0 and question["details"]["limit"] == "40.00"
    # ungrouped, the credit runs: the limit counted refunds only
    alone = RecordLimit(
        tool="look_up_order", arg="amount", record_arg="order_id", field="total", verdict="escalate"
    )
    loose = Thread(engine, desk_policy(record_limits=[alone]), "loose")
    loose.say(
        "Refund 30.00 on ORD-1.",
        call("look_up_order", order_id="ORD-1"),
        call("issue_refund", order_id="ORD-1", amount="30.00"),
    )
    ran = loose.say(
        "Give 15.00 store credit on ORD-1.", call("store_credit", order_id="ORD-1", amount="15.00")
    )
    assert asked(ran) is None and len(DONE) == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_inv_8_dot_then_inv_8_is_one_record_for_repeat(engine):
    thread = Thread(engine, desk_policy(repeat=Repeat(per=["order_id"])), "repeat")
    first = thread.say("Refund 5.00 on INV-8.", call("issue_refund", order_id="INV-8.", amount="5.00"))
    assert asked(first) is None and len(DONE) == 1
    second = thread.say("Refund 5.00 on INV-8", call("issue_refund", order_id="INV-8", amount="5.00"))
    question = asked(second)
    assert question["reason"] == "repeated_on_record" and question["details"]["times_before"] == 1
    assert len(DONE) == 1


@pytest.mark.parametrize("engine", ENGINES)
def test_a_reviewers_edit_to_an_amount_no_limit_can_read_is_asked_again(engine):
    policy = desk_policy(escalate_above=[Threshold(arg="amount", limit=100, reason="large_refund")])
    thread = Thread(engine, policy, "edit")
    first = thread.say("Refund 900.00 on ORD-1.", call("issue_refund", order_id="ORD-1", amount="900.00"))
    assert asked(first)["reason"] == "large_refund"
    odd = thread.answer(
        {"type": "edit", "edited_action": {"name": "issue_refund", "args": {"amount": "9e1"}}}
    )
    assert "amount_not_readable" in asked(odd)["problem"] and DONE == []
    done = thread.answer(
        {"type": "edit", "edited_action": {"name": "issue_refund", "args": {"amount": "90.00"}}}
    )
    assert asked(done) is None and DONE == [{"tool": "issue_refund", "order_id": "ORD-1", "amount": "90.00"}]
