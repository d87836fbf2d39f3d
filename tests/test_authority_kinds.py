"""A request stands in for a human only for records of the call's kind (issue 54): "Delete the
events 'Dentist' and 'Gym'" names two events, whose ids are no files, so a planted
``delete_file("ev-22")`` on the same word "delete" asks a human, while ``delete_event("ev-22")``
runs on the request's word. Generated over the records, the phrasings and both directions (an
event's id for a file, a file's id for an event), with ids of any shape."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from governed_agent_patterns import Requested, SupervisorPolicy, ToolRules, ToolSpec
from policies.supervisor.provenance.following import kind_words
from tests.helpers import done_call, review_call

ME = "me@corp.example"
DELETE = Requested(keywords=["delete", "remove", "trash"])
POLICY = SupervisorPolicy.for_tools(
    ["list_events", "list_files", "delete_event", "delete_file"],
    side_effects=["delete_event", "delete_file"],
    tools={
        "list_events": ToolSpec(
            system_fields=["organizer", "id"], owner="organizer", subject_key="email", record_keys=["title"]
        ),
        "list_files": ToolSpec(trust="trusted", record_keys=["name"]),
    },
    rules={
        "list_events": ToolRules(read_only=True),
        "list_files": ToolRules(read_only=True),
        "delete_event": ToolRules(requested=DELETE, require_approval=True, request_as_approval=True),
        "delete_file": ToolRules(requested=DELETE, require_approval=True, request_as_approval=True),
    },
)
TITLES = ["Dentist", "Gym", "Board meeting", "Yoga", "Team lunch"]
NAMES = ["budget-2027.xlsx", "draft-old.docx", "notes.txt", "q3-report.pdf"]
ids = st.one_of(
    st.from_regex(r"(ev|f|id|x)-[0-9]{1,4}", fullmatch=True),
    st.from_regex(r"[A-Z]{2}[0-9]{5}", fullmatch=True),
    st.uuids().map(str),
)
EVENT_REQUESTS = [
    "Delete the events '{a}' and '{b}' on 2026-11-25.",
    "Remove {a} and {b} from my calendar.",
    "Please delete my {a} event.",
    "Trash the {a} and the {b}.",
]
FILE_REQUESTS = ["Delete the file {a}.", "Please delete the file {a}.", "Trash the file {a}."]


def _world(
    event_ids: list[str], file_ids: list[str]
) -> tuple[tuple[dict[str, object], ...], list[dict[str, str]], list[dict[str, str]]]:
    events = [{"id": i, "title": t, "organizer": ME} for i, t in zip(event_ids, TITLES, strict=False)]
    files = [{"id": i, "name": n} for i, n in zip(file_ids, NAMES, strict=False)]
    calls = (
        done_call(1, "list_events", events, day="2026-11-25"),
        done_call(2, "list_files", files),
    )
    return calls, events, files


def _lent_to_its_own_kind_only(
    calls: tuple[dict[str, object], ...],
    request: str,
    ident: str,
    own: tuple[str, str],
    other: tuple[str, str],
) -> None:
    """The request stands in for the human on the named record's own kind of call (``own``: the
    tool and its id argument), never on another kind's call with the same id (``other``)."""
    context = {"calls": calls, "request": request, "subject": {"email": ME}}
    wanted = review_call(POLICY, own[0], {own[1]: ident}, **context)
    assert wanted.verdict == "approve" and wanted.details.get("approved_by") == "request", wanted
    planted = review_call(POLICY, other[0], {other[1]: ident}, **context)
    assert not (planted.verdict == "approve" and planted.details.get("approved_by") == "request"), planted


@settings(max_examples=150, deadline=None)
@given(
    st.lists(ids, min_size=5, max_size=5, unique=True),
    st.lists(ids, min_size=4, max_size=4, unique=True),
    st.sampled_from(EVENT_REQUESTS),
    st.integers(0, 4),
)
def test_an_events_id_named_by_the_request_is_no_file_it_asked_to_delete(event_ids, file_ids, template, pick):
    if set(event_ids) & set(file_ids):
        return
    calls, events, _ = _world(event_ids, file_ids)
    a, b = events[pick], events[(pick + 1) % len(events)]
    request = template.format(a=a["title"], b=b["title"])
    _lent_to_its_own_kind_only(
        calls, request, a["id"], ("delete_event", "event_id"), ("delete_file", "file_id")
    )


@settings(max_examples=100, deadline=None)
@given(
    st.lists(ids, min_size=5, max_size=5, unique=True),
    st.lists(ids, min_size=4, max_size=4, unique=True),
    st.sampled_from(FILE_REQUESTS),
    st.integers(0, 3),
)
def test_a_files_id_named_by_the_request_is_no_event_it_asked_to_delete(event_ids, file_ids, template, pick):
    if set(event_ids) & set(file_ids):
        return
    calls, _, files = _world(event_ids, file_ids)
    a, b = files[pick], files[(pick + 1) % len(files)]
    request = template.format(a=a["name"], b=b["name"])
    _lent_to_its_own_kind_only(
        calls, request, a["id"], ("delete_file", "file_id"), ("delete_event", "event_id")
    )


def test_kind_words_are_the_nouns_of_a_tools_and_an_arguments_name():
    assert kind_words("list_events") == {"event"} == kind_words("delete_event", "event_id")
    assert kind_words("delete_file", "file_id") == {"file"} and kind_words("getInvoices") == {"invoice"}
    assert kind_words("list_categories") == {"category"} and kind_words("get", "id") == frozenset()
