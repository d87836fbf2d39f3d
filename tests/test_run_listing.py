"""Listing the runs of a large store a page at a time: the most recently started first, pages that
partition the whole list, filters applied before the page is cut, and only the page's runs opened."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from apps.cli.main import main
from apps.operations.runs import list_runs, waiting_runs
from demo_tools.reflection import demo_input as reflection_input
from demo_tools.supervisor import demo_input as supervisor_input
from graphs import reflection, supervisor
from nodes.store import open_checkpointer
from policies.supervisor import demo_policy


class CountingSaver(InMemorySaver):
    """An in-memory store that counts the threads whose latest state was read."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[str] = []

    def get_tuple(self, config: Any) -> Any:
        self.opened.append(config["configurable"]["thread_id"])
        return super().get_tuple(config)


def _fill(saver: Any) -> list[str]:
    """Seven runs started one after the other: reflection r0..r4 and two supervisor runs paused
    for a human (s0, s1); s0 is then approved, so it ends, after r4 started. Newest first."""
    config = lambda thread_id: {"configurable": {"thread_id": thread_id}}  # noqa: E731
    paused = supervisor.build_graph(checkpointer=saver, policy=demo_policy(auto_approver_enabled=False))
    drafts = reflection.build_graph(checkpointer=saver)
    paused.invoke(supervisor_input(), config("s0"))
    for i in range(5):
        drafts.invoke(reflection_input(), config(f"r{i}"))
    paused.invoke(supervisor_input(), config("s1"))
    paused.invoke(Command(resume={"type": "approve"}), config("s0"))  # resuming keeps s0's place
    return ["s1", "r4", "r3", "r2", "r1", "r0", "s0"]


@pytest.fixture(scope="module")
def store() -> tuple[CountingSaver, list[str]]:
    saver = CountingSaver()
    return saver, _fill(saver)


def ids(runs: list[Any]) -> list[str]:
    return [run.thread_id for run in runs]


def test_runs_are_listed_most_recently_started_first(store):
    saver, newest_first = store
    runs = list_runs(saver)
    assert ids(runs) == newest_first
    assert {r.thread_id: r.status for r in runs}["s0"] == "ok"
    assert ids(waiting_runs(saver)) == ["s1"]


def test_pages_partition_the_list(store):
    saver, newest_first = store
    pages = [ids(list_runs(saver, limit=3, offset=start)) for start in range(0, 9, 3)]
    assert pages == [newest_first[0:3], newest_first[3:6], newest_first[6:]]
    assert list_runs(saver, limit=0) == [] and list_runs(saver, offset=7) == []


def test_filters_apply_before_the_page_is_cut(store):
    saver, _ = store
    assert ids(list_runs(saver, pattern="supervisor", limit=1)) == ["s1"]
    assert ids(list_runs(saver, pattern="supervisor", limit=1, offset=1)) == ["s0"]
    assert ids(list_runs(saver, status="ok", limit=2, offset=1)) == ["r3", "r2"]
    assert ids(list_runs(saver, pattern="reflection", status="waiting")) == []


def test_a_page_opens_only_its_own_runs(store):
    saver, newest_first = store
    saver.opened.clear()
    assert ids(list_runs(saver, limit=2, offset=3)) == newest_first[3:5]
    assert saver.opened == newest_first[3:5]  # the runs before the page are skipped unread
    saver.opened.clear()
    list_runs(saver, status="ok", limit=1)
    assert saver.opened == ["s1", "r4"]  # a status filter reads each run up to the page's end


def test_negative_page_bounds_are_refused(store):
    saver, _ = store
    with pytest.raises(ValueError, match="must not be negative"):
        list_runs(saver, limit=-1)
    with pytest.raises(ValueError, match="must not be negative"):
        list_runs(saver, offset=-2)


def test_cli_runs_pages_and_says_where_the_next_page_starts(tmp_path, capsys):
    db = str(tmp_path / "runs.sqlite")
    with open_checkpointer(db) as saver:
        newest_first = _fill(saver)
    assert main(["runs", "--db", db, "--limit", "3", "--offset", "2"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in table[1:4]] == newest_first[2:5]
    assert table[4] == f"(runs 3-5, most recently started first; next page: --offset 5; run store: {db})"
    assert main(["runs", "--db", db, "--limit", "5", "--offset", "5", "--json"]) == 0
    assert [r["thread_id"] for r in json.loads(capsys.readouterr().out)] == newest_first[5:]
    assert main(["runs", "--db", db, "--limit", "0"]) == 0  # 0: every run, and no next page
    table = capsys.readouterr().out.splitlines()
    assert len(table) == 2 + len(newest_first) and "next page" not in table[-1]
    assert table[-1] == f"(runs 1-{len(newest_first)}, most recently started first; run store: {db})"
    with pytest.raises(SystemExit) as stop:
        main(["runs", "--db", db, "--limit", "-1"])
    assert stop.value.code == 2 and "must be 0 or more, not -1" in capsys.readouterr().err
