"""Where audits go: a store's audit log (:mod:`nodes.audit`) as JSON Lines, or as OpenTelemetry
spans, one record per governed call, so that it lands in the tools a team already reads.

    from apps.operations.audit_export import jsonl_records, write_jsonl, export_spans
    for record in jsonl_records(store):              # every thread; thread_id="t1": one
        print(record["tool"], record["decision"], record["reviewer"])
    write_jsonl(store, sys.stdout)                   # ``agent-patterns audit --jsonl``
    export_spans(store, tracer_provider=provider)    # a span per call, under a span per run

**What is exported.** Each trace row of the log that a review decided (a tool call: run, refused,
answered by another middleware, deferred; the final answer) or that stopped its run, from both
engines (the Supervisor graph and ``GovernanceMiddleware``). Worker rows (a model call) are not.
Only rows in the log are exported: a middleware run waiting for a human moves its rows there when
it ends, so its rows are exported then. A thread kept without a store (its rows in checkpoints
only) has no log to export.

**Order.** Threads by id; a thread's runs in turn order (then start time, then id); a run's rows in
the order the run made them (their place, then their place in the chain: a fork's rows after the
first branch's). The same log exports the same lines.

**A record** (``SCHEMA``; a key with nothing to say is null):

``schema`` · ``thread_id`` · ``run_id`` · ``turn`` · ``engine`` (``supervisor``,
``governance_middleware``...) · ``run_started_at`` · ``seq`` (the row's place in its run's trace,
from 0) · ``step`` ·
``phase`` (``execution``, ``refused``, ``final``...) · ``event`` (``call``, ``final``, ``stop``) ·
``outcome`` (``ran``, ``failed``, ``refused``, or the phase) · ``at`` (ISO 8601 UTC: the run's
start plus the row's elapsed time, which leaves out a wait for a human, never before the human's
answer or the run's row before it; else when it was written) ·
``tool`` · ``tool_call_id`` · ``args`` (the call's arguments from its call or refusal row; longer
than ``MAX_ARGS_CHARS`` as JSON: ``{"digest": ..., "chars": ...}``) · ``args_hash`` · ``decision``
(``approve``, ``escalate``, ``block``) · ``reason`` (the review's reason) · ``refusal`` (the
refusal's reason, ``supervisor_block:...``) · ``check`` (the review check that decided) ·
``rule_details`` · ``mandate`` · ``approved_by`` · ``refused_by`` · ``reviewer`` ·
``answered_at`` · ``executed_from`` · ``provenance`` (argument → where its value came from, in
words) · ``provenance_sources`` (argument → the kinds of source: :func:`source_kinds`) ·
``stop_reason`` · ``ok`` · ``run_status`` and ``run_stop_reason`` (how the run ended, null while it
has not) · ``answers`` (every human answer to the call's question, in order: ``type``, ``reviewer``,
``account``, ``answered_at``, ``applied``, ``problem``: approvals kept under four-eyes, answers
refused, a late answer, and the one that decided it; null where no human answered) · ``key``,
``n``, ``hash`` (the log item and its place and hash in the thread's chain:
``agent-patterns audit --verify`` checks the same hash).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from apps.operations.audit import ThreadNotFound
from nodes import audit as log
from policies.text import from_iso, json_hash

#: The records' schema name and version (a change of a key's meaning is a new version).
SCHEMA = "agent_patterns.audit/1"
#: Longest arguments (as JSON) a record carries as they are; longer ones by digest.
MAX_ARGS_CHARS = 2000
#: The OpenTelemetry instrumentation scope the spans are made under.
SCOPE = "governed_agent_patterns.audit"
#: The kinds of source :func:`source_kinds` names.
SOURCE_KINDS = (
    "request",
    "subject",
    "policy",
    "human",
    "own",
    "trusted_tool",
    "tool",
    "args",
    "nowhere",
    "other",
)


def source_kinds(text: Any) -> list[str]:
    """The kinds of source a provenance text names (``policies.supervisor.reading.values.describe``'s words):
    ``request``, ``subject``, ``policy``, ``human`` (a reviewer's edit), ``own`` (what a side
    effect of the run returned), ``trusted_tool`` (a tool the policy trusts), ``tool`` (an
    untrusted one), ``args`` (an earlier call's arguments), ``nowhere``; ``other`` for words of
    another rule (a followed link, a derived number)."""
    said = str(text or "")
    if said.startswith("appears nowhere"):
        return ["nowhere"]
    kinds: set[str] = set()
    for start, untrusted in (("appears only in ", True), ("appears in ", False)):
        if said.startswith(start):
            rest = said[len(start) :]
            labels = re.split(r", (?![^()]*\))", rest) if untrusted else rest.split(" and in ")
            kinds.update(_label_kind(label.strip(), untrusted) for label in labels if label.strip())
            break
    return sorted(kinds, key=SOURCE_KINDS.index) or ["other"]


def _label_kind(label: str, untrusted: bool) -> str:
    trusted = label.startswith("the trusted ")
    label = label.removeprefix("the trusted ")
    named = {"the request": "request", "the subject": "subject", "the policy": "policy"}
    if label in named:
        return named[label]
    if label.startswith("the human reviewer"):
        return "human"
    if label.startswith("what ") and "side effect" in label:
        return "own"
    if label.startswith("the arguments of"):
        return "args"
    return "trusted_tool" if trusted and not untrusted else "tool"


def iso(seconds: float | None) -> str | None:
    """Epoch seconds as ISO 8601 UTC (microseconds kept)."""
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat()


def parse_since(text: str) -> float:
    """``--since``: an ISO 8601 date or time (naive: UTC) as epoch seconds; ValueError otherwise."""
    found = from_iso(text.strip())
    if found is None:
        raise ValueError(f"--since {text!r} is not an ISO 8601 date or time (2026-05-01 or 2026-05-01T09:30)")
    return found


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


@dataclass
class _Run:
    run_id: str
    start: Mapping[str, Any] = field(default_factory=dict)
    end: Mapping[str, Any] | None = None
    trace: list[Mapping[str, Any]] = field(default_factory=list)
    calls: list[Mapping[str, Any]] = field(default_factory=list)
    refusals: list[Mapping[str, Any]] = field(default_factory=list)

    def order(self) -> tuple[Any, ...]:
        turn = self.start.get("turn")
        started = _number(self.start.get("started_at")) or 0.0
        return (turn is None, turn if isinstance(turn, int) else 0, started, self.run_id)


def _place(value: Mapping[str, Any]) -> tuple[int, int]:
    seq, n = value.get("seq"), value.get("n")
    return (seq if isinstance(seq, int) else 0, n if isinstance(n, int) else -1)


def _runs(values: Iterable[Mapping[str, Any]]) -> list[_Run]:
    runs: dict[str, _Run] = {}
    for value in values:
        run = runs.setdefault(str(value.get("run_id")), _Run(str(value.get("run_id"))))
        kind, row = value.get("kind"), value.get("row")
        if not isinstance(row, Mapping):
            continue
        if kind == "run":
            run.start = row
        elif kind == "end":
            run.end = row
        elif kind in ("trace", "calls", "refusals"):
            getattr(run, str(kind)).append(value)
    for run in runs.values():
        for rows in (run.trace, run.calls, run.refusals):
            rows.sort(key=_place)
    return sorted(runs.values(), key=_Run.order)


def _governed(row: Mapping[str, Any]) -> bool:
    """A row a review decided (it names a tool or the final answer and a decision) or a stop."""
    return bool(row.get("stop_reason")) or (bool(row.get("tool")) and "decision" in row)


def _event(row: Mapping[str, Any]) -> str:
    if row.get("stop_reason"):
        return "stop"
    return "final" if row.get("phase") == "final" or row.get("tool") == "final" else "call"


def _outcome(row: Mapping[str, Any]) -> str:
    phase = str(row.get("phase") or "")
    if phase == "execution":
        return "ran" if row.get("ok") and row.get("observation_ok", True) else "failed"
    return phase or "-"


class _Args:
    """Each trace row's arguments, from the run's call rows (an executed call) and refusal rows:
    the row whose arguments hash as the trace row's ``args_hash``, else the next of its tool."""

    def __init__(self, run: _Run) -> None:
        self.unused = {
            "calls": [v["row"] for v in run.calls],
            "refusals": [v["row"] for v in run.refusals],
        }

    def take(self, row: Mapping[str, Any]) -> Mapping[str, Any] | None:
        kind = "refusals" if row.get("phase") == "refused" else "calls"
        rows = self.unused[kind]
        same = [r for r in rows if r.get("tool") == row.get("tool")]
        by_id = [r for r in same if row.get("tool_call_id") and r.get("tool_call_id") == row["tool_call_id"]]
        by_hash = [r for r in same if json_hash(r.get("args", {})) == row.get("args_hash")]
        found = (by_id or by_hash or same or [None])[0]
        if found is not None:
            rows.remove(found)
        return found


def shown_args(args: Any) -> Any:
    """Arguments as a record carries them: as they are, or by digest when long."""
    if args is None:
        return None
    text = json.dumps(args, sort_keys=True, ensure_ascii=False, default=str)
    return args if len(text) <= MAX_ARGS_CHARS else {"digest": json_hash(args), "chars": len(text)}


def _at(run: _Run, row: Mapping[str, Any], written: Any, floor: float | None) -> float | None:
    """When a row was made: the run's start plus its elapsed time (which does not count a wait
    for a human), never before a human's answer to it or the run's row before it; else when it
    was written."""
    started, elapsed = _number(run.start.get("started_at")), _number(row.get("elapsed_ms"))
    if started is None or elapsed is None:
        return _number(written) or from_iso(row.get("answered_at"))
    found = [started + elapsed / 1000, from_iso(row.get("answered_at")), floor]
    return max(t for t in found if t is not None)


#: What a record says of a review's outcome, as the row has it: in the record and in its span.
_OUTCOME_KEYS = (
    "mandate",
    "approved_by",
    "refused_by",
    "reviewer",
    "answered_at",
    "executed_from",
    "stop_reason",
)
_ROW_KEYS = ("check", "rule_details", *_OUTCOME_KEYS)


def _record(
    thread_id: str, run: _Run, value: Mapping[str, Any], source: Mapping[str, Any] | None, at: float | None
) -> dict[str, Any]:
    row = value["row"]
    provenance = row.get("provenance") if isinstance(row.get("provenance"), Mapping) else None
    end = run.end or {}
    made: dict[str, Any] = {
        "schema": SCHEMA,
        "thread_id": thread_id,
        "run_id": run.run_id,
        "turn": run.start.get("turn"),
        "engine": run.start.get("engine"),
        "run_started_at": iso(_number(run.start.get("started_at"))),
        "seq": value.get("seq"),
        "step": row.get("step"),
        "phase": row.get("phase"),
        "event": _event(row),
        "outcome": _outcome(row),
        "at": iso(at),
        "tool": row.get("tool"),
        "tool_call_id": row.get("tool_call_id") or (source or {}).get("tool_call_id"),
        "args": shown_args((source or {}).get("args")),
        "args_hash": row.get("args_hash"),
        "decision": row.get("decision"),
        "reason": row.get("review_reason"),
        "refusal": row.get("refused"),
        **{key: row.get(key) for key in _ROW_KEYS},
        "provenance": dict(provenance) if provenance else None,
        "provenance_sources": {k: source_kinds(v) for k, v in provenance.items()} if provenance else None,
        "ok": row.get("ok"),
        "run_status": end.get("status"),
        "run_stop_reason": end.get("stop_reason"),
        "key": value.get("key"),
        "n": value.get("n"),
        "hash": value.get("hash"),
    }
    return made


def _labels(store: Any, thread_id: str | None) -> list[str]:
    if thread_id is not None:
        if not log.read_log(store, thread_id):
            raise ThreadNotFound(f"no audit log of thread {thread_id!r} in this store")
        return [thread_id]
    return sorted(log.unlabel(label) for label in log.threads(store))


#: The trace phases of answers to a question that did not decide it: an approval kept while more
#: were needed (four-eyes), an answer refused (a reviewer without the role, a second answer from one
#: account...), an answer given after the question expired.
ANSWER_PHASES = ("approval_counted", "answer_refused", "approval_expired")


def _answer(row: Mapping[str, Any], applied: bool) -> dict[str, Any]:
    """One answer as a record lists it: its type, who gave it (name and account), when, whether it
    decided the call, and why not."""
    kind = row.get("answer_type") or row.get("late_answer")
    if kind is None and row.get("phase") == "approval_counted":
        kind = "approve"
    shown = {
        "type": kind if kind is not None else ("approve" if row.get("approved_by") == "human" else None),
        "reviewer": row.get("reviewer"),
        "account": row.get("account"),
        "answered_at": row.get("answered_at"),
        "applied": applied,
        "problem": None if applied else row.get("problem"),
    }
    return shown


def _answers(row: Mapping[str, Any], earlier: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Every answer to the question about a call, in order: those that did not decide it, then the
    one that did (a reviewer's approval, edit or rejection); None where no human answered."""
    decided = row.get("approved_by") == "human" or row.get("refused_by") == "human"
    if not earlier and not decided:
        return None
    applied = [_answer(row, True)] if decided and row.get("phase") not in ANSWER_PHASES else []
    if applied and row.get("refused_by") == "human":
        applied[0]["type"] = "reject"
    return [*earlier, *applied]


def thread_records(thread_id: str, items: Sequence[Any]) -> list[dict[str, Any]]:
    """The records of one thread's log ``items`` (``nodes.audit.read_log``), in order; a call's
    record lists every answer to its question (``answers``: the approvals kept under four-eyes,
    the answers refused, a late one, and the one that decided it)."""
    values = [{**item.value, "key": item.key} for item in items if isinstance(item.value, Mapping)]
    records: list[dict[str, Any]] = []
    for run in _runs(values):
        args, floor = _Args(run), None
        pending: dict[str, list[dict[str, Any]]] = {}
        for value in run.trace:
            row = value["row"]
            floor = _at(run, row, value.get("at"), floor) or floor
            if row.get("phase") in ANSWER_PHASES:
                pending.setdefault(str(row.get("tool")), []).append(_answer(row, False))
            if _governed(row):
                made = _record(thread_id, run, value, args.take(row), floor)
                made["answers"] = _answers(row, pending.pop(str(row.get("tool")), []))
                records.append(made)
    return records


def jsonl_records(
    store: Any, thread_id: str | None = None, since: float | None = None
) -> Iterator[dict[str, Any]]:
    """Every governed call's record in ``store``'s audit log (``thread_id``'s, or every thread's),
    in order; with ``since`` (epoch seconds) only those at or after it. A named thread with no log:
    :class:`apps.operations.audit.ThreadNotFound`."""
    for thread in _labels(store, thread_id):
        for record in thread_records(thread, log.read_log(store, thread)):
            when = from_iso(record["at"])
            if since is None or (when is not None and when >= since):
                yield record


def write_jsonl(store: Any, out: IO[str], thread_id: str | None = None, since: float | None = None) -> int:
    """Write :func:`jsonl_records` to ``out``, one JSON object a line; the number written."""
    count = 0
    for record in jsonl_records(store, thread_id, since):
        out.write(json.dumps(record, ensure_ascii=False, sort_keys=False, default=str) + "\n")
        count += 1
    return count


# --- OpenTelemetry -----------------------------------------------------------------------------

#: Record keys carried as ``governance.<key>`` span attributes (when not null).
SPAN_KEYS = (
    "thread_id",
    "run_id",
    "turn",
    "engine",
    "seq",
    "step",
    "phase",
    "event",
    "outcome",
    "decision",
    "reason",
    "refusal",
    "check",
    *_OUTCOME_KEYS,
    "args_hash",
)


def span_attributes(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record as span attributes: ``governance.*`` (its chain place and hash as
    ``governance.audit.n`` and ``governance.audit.hash``; each argument's source kinds as
    ``governance.provenance.<arg>``), and the GenAI conventions' ``gen_ai.tool.name``,
    ``gen_ai.tool.call.id``, ``gen_ai.operation.name`` and ``gen_ai.conversation.id``."""
    found: dict[str, Any] = {f"governance.{key}": record.get(key) for key in SPAN_KEYS}
    found["governance.audit.n"] = record.get("n")
    found["governance.audit.hash"] = record.get("hash")
    for arg, kinds in (record.get("provenance_sources") or {}).items():
        found[f"governance.provenance.{arg}"] = list(kinds)
    if record.get("event") == "call":
        found["gen_ai.operation.name"] = "execute_tool"
        found["gen_ai.tool.name"] = record.get("tool")
        found["gen_ai.tool.call.id"] = record.get("tool_call_id")
    found["gen_ai.conversation.id"] = record.get("thread_id")
    return {
        k: v if isinstance(v, str | bool | int | float | list) else str(v)
        for k, v in found.items()
        if v is not None
    }


def _ns(iso_text: Any) -> int | None:
    found = from_iso(iso_text)
    return int(found * 1_000_000_000) if found is not None else None


def export_spans(
    store: Any, tracer_provider: Any = None, thread_id: str | None = None, since: float | None = None
) -> int:
    """Each run of the log as an OpenTelemetry span (``governed_run``) and each governed call of it
    as a child span ``governed_call <tool>`` (attributes: :func:`span_attributes`), from the
    previous record's time (the run's start for the first) to the call's record's time; the final
    answer and a stop are events of the run's span (``governance.final``, ``governance.stop``).
    Made with ``tracer_provider`` (the global one when None: set it up with your exporter). Needs
    the ``otel`` extra (``opentelemetry-api``). Returns the number of call spans."""
    from opentelemetry import trace
    from opentelemetry.trace import Status, StatusCode

    tracer = trace.get_tracer(SCOPE, tracer_provider=tracer_provider)
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for record in jsonl_records(store, thread_id, since):
        runs.setdefault((record["thread_id"], record["run_id"]), []).append(record)
    calls = 0
    for (thread, run_id), records in runs.items():
        first = records[0]
        times = [t for t in (_ns(r["at"]) for r in records) if t is not None]
        started = _ns(first.get("run_started_at"))
        start = min([*times, *([started] if started is not None else [])], default=None)
        end = max(times) if times else None
        run_attrs = {
            "governance.thread_id": thread,
            "governance.run_id": run_id,
            "governance.turn": first.get("turn"),
            "governance.engine": first.get("engine"),
            "governance.run_status": first.get("run_status"),
            "governance.stop_reason": first.get("run_stop_reason"),
            "gen_ai.conversation.id": thread,
        }
        root = tracer.start_span(
            "governed_run",
            start_time=start,
            attributes={k: v for k, v in run_attrs.items() if v is not None},
        )
        context = trace.set_span_in_context(root)
        before = start
        for record in records:
            at = _ns(record["at"])
            if record["event"] != "call":
                root.add_event(f"governance.{record['event']}", span_attributes(record), timestamp=at)
                before = at if at is not None else before
                continue
            span = tracer.start_span(
                f"governed_call {record['tool']}",
                context=context,
                start_time=before if before is not None and at is not None and before <= at else at,
                attributes=span_attributes(record),
            )
            if record["outcome"] == "failed":
                span.set_status(Status(StatusCode.ERROR, str(record.get("reason") or "tool failed")))
            span.end(end_time=at)
            calls += 1
            before = at if at is not None else before
        if first.get("run_status") == "stopped":
            root.set_status(Status(StatusCode.ERROR, str(first.get("run_stop_reason"))))
        root.end(end_time=end)
    return calls
