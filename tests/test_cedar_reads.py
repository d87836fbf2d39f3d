"""Issue 58, the Cedar check's cost: a call's request carries only what of ``context`` some policy
reads (:func:`policies.supervisor.rules.cedar.context_reads`, applied by ``read_only``), since
Cedar's time grows with the context it is given. Cedar reads attributes by name only, so what no
condition names cannot change a decision: the property test below generates policy sets over the
context's shapes (attributes read, tested with ``has``, compared whole, passed to a method) and
contexts with attributes present and missing, and checks that Cedar decides the pruned request
exactly as the whole one: the same decision, the same policies, the same errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

cedarpy = pytest.importorskip("cedarpy", reason="the cedar extra is not installed")

from policies.supervisor.rules.cedar import parse_cedar, read_only  # noqa: E402


def test_only_the_attributes_named_are_read() -> None:
    text = """
    permit(principal, action == Action::"pay", resource)
    when { context.args.amount.value.lessThan(decimal("100.0")) && context.args has memo };
    forbid(principal, action, resource)
    when { context.args.payee.sources.contains("untrusted:inbox") };
    """
    assert parse_cedar(text).reads == {
        "args": {"amount": {"value": True}, "memo": {}, "payee": {"sources": True}}
    }


def test_a_record_compared_whole_is_kept_whole() -> None:
    cedar = parse_cedar('permit(principal, action, resource) when { context.run == {"calls": 0} };')
    assert cedar.reads == {"run": True}
    whole = parse_cedar("permit(principal, action, resource) when { context == {} };")
    assert whole.reads is True
    context = {"run": {"calls": 0}, "mandate": {"text": "pay"}}
    assert read_only(context, cedar.reads) == {"run": {"calls": 0}}
    assert read_only(context, whole.reads) == context


def test_has_keeps_the_attribute_and_prunes_inside_it() -> None:
    reads = parse_cedar("forbid(principal, action, resource) when { context.args has iban };").reads
    context = {"args": {"iban": {"value": "DE89", "sources": ["request"]}, "memo": {"value": "x"}}}
    assert read_only(context, reads) == {"args": {"iban": {}}}


def test_answer_policies_do_not_widen_the_calls_request() -> None:
    text = """
    permit(principal, action == Action::"pay", resource) when { context.args.amount.value > 0 };
    forbid(principal, action, resource) when { context.reviewer.name == "eve" };
    """
    assert parse_cedar(text).reads == {"args": {"amount": {"value": True}}}


def test_a_tool_no_scope_names_is_not_put_to_cedar(monkeypatch: pytest.MonkeyPatch) -> None:
    """A set whose policies name other tools cannot match a call of this one: the chain's decision
    stands, and Cedar is not asked (its answer is known); a tool a permit names is still asked."""
    from demo_tools import cedar_desk
    from policies.supervisor import ReviewContext, SupervisorPolicy, review_action

    only_email = """
    @id("mail-to-customers")
    permit(principal, action == Action::"send_email", resource)
    when { context.args.to.value like "*@example.com" };
    """
    policy = SupervisorPolicy.model_validate({**cedar_desk.policy.model_dump(), "cedar": only_email})
    plain = SupervisorPolicy.model_validate({**cedar_desk.policy.model_dump(), "cedar": None})
    action = {"kind": "tool", "name": "look_up_order", "args": {"order_id": "ORD-1001"}}
    context = ReviewContext(request="Look up order ORD-1001.", subject=cedar_desk.SUBJECT)
    asked: list[object] = []
    from policies.supervisor.decide import cedar as decide_cedar

    real = decide_cedar.cedar_answer  # Cedar's evaluation, ours or cedarpy's
    monkeypatch.setattr(decide_cedar, "cedar_answer", lambda *a, **k: asked.append(a) or real(*a, **k))
    assert parse_cedar(only_email).applies("send_email") and not parse_cedar(only_email).applies(
        "look_up_order"
    )
    assert review_action(action, context, policy) == review_action(action, context, plain)
    assert asked == []
    email = {"kind": "tool", "name": "send_email", "args": {"to": "x@evil.test", "subject": "s", "body": "b"}}
    decided = review_action(
        email, ReviewContext(request="Email x@evil.test.", subject=cedar_desk.SUBJECT), policy
    )
    assert asked and decided.verdict == "block", decided


# ------------------------------------------------------------------ the property: same decisions

#: Paths of ``context`` a generated condition reads, and what it does with each.
_PATHS = [
    ("args", "amount", "value"),
    ("args", "amount", "sources"),
    ("args", "payee", "value"),
    ("args", "payee", "source"),
    ("mandate", "complete"),
    ("mandate", "text"),
    ("decided", "verdict"),
    ("run", "calls"),
]


def _read(path: tuple[str, ...]) -> str:
    return "context." + ".".join(path)


def _condition(kind: str, path: tuple[str, ...]) -> str:
    parent, last = _read(path[:-1]), path[-1]
    return {
        "has": f"{parent} has {last}",
        "has_then_read": f'({parent} has {last} && {_read(path)} != "x")',
        "equal": f'{_read(path)} == "approve"',
        "number": f"{_read(path)} > 2",
        "contains": f'{_read(path)}.contains("request")',
        "whole_parent": f'{parent} == {{"{last}": 1}}',
        "bool": f"{_read(path)} == true",
    }[kind]


_conditions = st.lists(
    st.tuples(
        st.sampled_from(["has", "has_then_read", "equal", "number", "contains", "whole_parent", "bool"]),
        st.sampled_from(_PATHS),
        st.booleans(),  # negated
    ),
    min_size=1,
    max_size=3,
)

_policies = st.lists(
    st.tuples(st.sampled_from(["permit", "forbid"]), st.sampled_from(["when", "unless"]), _conditions),
    min_size=1,
    max_size=4,
)

_leaf = st.one_of(
    st.integers(-3, 5),
    st.sampled_from(["approve", "x", "request", ""]),
    st.booleans(),
    st.lists(st.sampled_from(["request", "named", "untrusted:inbox"]), max_size=3),
)


def _context(draw_present: list[bool], leaves: list[object]) -> dict[str, object]:
    """A context holding each path of :data:`_PATHS` where ``draw_present`` says so (a missing one
    makes a read of it an error, as a fact the review could not know), plus attributes no policy
    generated here names."""
    context: dict[str, object] = {"extra": {"noise": 1}}
    for path, present, leaf in zip(_PATHS, draw_present, leaves, strict=True):
        if not present:
            continue
        node = context
        for key in path[:-1]:
            node = node.setdefault(key, {})  # type: ignore[assignment]
            assert isinstance(node, dict)
        node[path[-1]] = leaf
    if isinstance(context.get("args"), dict):
        context["args"]["unread"] = {"value": "DE89 3704"}  # type: ignore[index]
    return context


def _text(policies: list[tuple[str, str, list[tuple[str, tuple[str, ...], bool]]]]) -> str:
    out = []
    for n, (effect, clause, conditions) in enumerate(policies):
        body = " && ".join(("!" if negated else "") + _condition(k, p) for k, p, negated in conditions)
        out.append(f'@id("p{n}")\n{effect}(principal, action, resource) {clause} {{ {body} }};')
    return "\n".join(out)


def _decide(text: str, context: dict[str, object]) -> tuple[bool, list[str], int]:
    request = {
        "principal": {"type": "User", "id": "u"},
        "action": {"type": "Action", "id": "pay"},
        "resource": {"type": "Tool", "id": "pay"},
        "context": context,
    }
    answer = cedarpy.is_authorized(request, cedarpy.PolicySet.from_str(text), [])
    return answer.allowed, sorted(answer.diagnostics.reasons), len(answer.diagnostics.errors)


@settings(max_examples=300, deadline=None)
@given(
    policies=_policies,
    present=st.lists(st.booleans(), min_size=len(_PATHS), max_size=len(_PATHS)),
    leaves=st.lists(_leaf, min_size=len(_PATHS), max_size=len(_PATHS)),
)
def test_the_pruned_request_is_decided_as_the_whole_one(policies, present, leaves) -> None:
    text = _text(policies)
    try:
        cedar = parse_cedar(text)
    except ValueError:  # a generated policy that can never apply: not a set the review accepts
        return
    context = _context(present, leaves)
    pruned = read_only(context, cedar.reads)
    assert _decide(text, pruned) == _decide(text, context), json.dumps(pruned)
    assert "extra" not in pruned or cedar.reads is True


# ------------------------------------------------------------------ one tool's policies only

_SCOPES = [
    "action",
    'action == Action::"pay"',
    'action == Action::"refund"',
    'action in [Action::"pay", Action::"refund"]',
]


def _decide_as(handle: object, action: str, context: dict[str, object]) -> tuple[bool, list[str], int]:
    request = {
        "principal": {"type": "User", "id": "u"},
        "action": {"type": "Action", "id": action},
        "resource": {"type": "Tool", "id": action},
        "context": context,
    }
    answer = cedarpy.is_authorized(request, handle, [])
    return answer.allowed, sorted(answer.diagnostics.reasons), len(answer.diagnostics.errors)


@settings(max_examples=200, deadline=None)
@given(
    policies=_policies,
    scopes=st.lists(st.sampled_from(_SCOPES), min_size=4, max_size=4),
    present=st.lists(st.booleans(), min_size=len(_PATHS), max_size=len(_PATHS)),
    leaves=st.lists(_leaf, min_size=len(_PATHS), max_size=len(_PATHS)),
    action=st.sampled_from(["pay", "refund", "close"]),
)
def test_a_tools_own_policies_decide_its_call_as_the_whole_set(
    policies, scopes, present, leaves, action
) -> None:
    """A call is put to the policies whose scope can name its tool, with what those read
    (``CedarSet.for_tool``): Cedar decides it as the whole set with the whole context would (a
    policy scoped to another action neither matches nor fails a call)."""
    text = "\n".join(
        line.replace("(principal, action, resource)", f"(principal, {scope}, resource)")
        for line, scope in zip(_text(policies).split("\n"), [s for s in scopes for _ in (0, 1)], strict=False)
    )
    try:
        cedar = parse_cedar(text)
    except ValueError:
        return
    context = _context(present, leaves)
    view = cedar.for_tool(action)
    whole = _decide_as(cedarpy.PolicySet.from_str(text), action, context)
    assert _decide_as(view.handle, action, read_only(context, view.reads)) == whole, text
