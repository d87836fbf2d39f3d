"""Side effects once, whoever races: what both engines do around a side-effecting call with the
thread's journal (:mod:`nodes.journal`).

Before the tool runs, :func:`claim` writes the call's intent under its ask's key (one key per
approved action: an approval and an edit of the same ask are the same call) and says what to do:

- ``run``: this claim is the first (or the first's process died and the tool takes the key, so
  running it again with the same key is safe);
- ``ran``: the call was made already (another process, an earlier attempt): its recorded outcome
  stands, nothing runs (one recorded ``not_run`` is claimed again and runs);
- ``in_progress``: another live process is running it now: nothing runs here;
- ``in_doubt``: it started in a process that died before recording how it ended, and the tool
  takes no key: a human says whether to run it again;
- ``conflict``: another run acted on the thread after this call was reviewed: nothing runs, the
  model is told to propose it again (reviewed against what ran).

After the tool, :func:`settle` records how it ended. :func:`world_ledger` is what every limit
counts: the ledger entries of every effect the thread's journal holds, those in doubt included.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from langgraph.config import get_config
from langgraph.types import interrupt

from nodes.journal import COUNTED, DONE, FAILED, NOT_RUN, STARTED, Journal, in_doubt, process_alive
from nodes.tool_gateway import ToolOutcome
from policies.human import parse_human_answer
from policies.json_safety import json_problem
from policies.supervisor.decide.review import action_signature
from policies.supervisor.provenance.ledger import Watched, ledger_entries
from policies.text import json_hash

Go = Literal["run", "ran", "in_progress", "in_doubt", "conflict"]


@dataclass(frozen=True)
class Claimed:
    """What :func:`claim` decided, and the effect as the journal holds it."""

    go: Go
    effect: dict[str, Any]


def effect_key(run_id: Any, step: Any, tool: str, call: str | None = None) -> str:
    """The key of one approved action: its run, its step and which call of the step (the tool's
    name where a step has one call, the call's id where a reply has several); never its
    arguments, so an approval and an edit of the same ask are one call for the tool."""
    return f"{tool}:{json_hash({'run': str(run_id), 'step': step, 'call': call or tool})}"


def prospective(watch: Watched, tool: str, args: Mapping[str, Any], **where: Any) -> list[dict[str, Any]]:
    """The ledger entries a call would leave if it succeeds: counted from its claim on, so that a
    limit sees it while it runs, and after a crash that leaves it in doubt."""
    return ledger_entries(watch, {"ok": True, "tool": tool, "args": dict(args)}, **where)


def claim(
    journal: Journal,
    thread_id: str,
    key: str,
    *,
    tool: str,
    args: Mapping[str, Any],
    run_id: Any,
    step: Any,
    watch: Watched,
    keyed: bool,
    after: int | None = None,
) -> Claimed:
    """Claim the side effect ``key`` before its tool runs (see the module doc); it counts in the
    limits ``watch`` keeps from now on (:func:`prospective`)."""
    ledger = prospective(watch, tool, args, run_id=run_id, step=step)
    effect = {"tool": tool, "args": dict(args), "run_id": str(run_id), "step": step, "ledger": ledger}
    found = journal.begin(thread_id, key, effect, after=after)
    if found.conflict:
        return Claimed("conflict", {})
    if found.created:
        return Claimed("run", found.effect)
    stored = found.effect
    if stored.get("status") == NOT_RUN:  # paused before its tool, or a human said it did not run
        again = journal.restart(thread_id, key, effect)
        if again is not None:
            return Claimed("run", again)
        stored = journal.get(thread_id, key) or stored  # another claim took it first
    return _as_stored(stored, keyed)


def _as_stored(stored: dict[str, Any], keyed: bool) -> Claimed:
    """What a claim found another claim holds: made (``ran``), being made by a live process, or
    (its process gone) run again with its key, else in doubt."""
    if stored.get("status") != STARTED:
        return Claimed("ran", stored)
    if process_alive(stored):
        return Claimed("in_progress", stored)
    return Claimed("run" if keyed else "in_doubt", stored)


def settle(
    journal: Journal,
    thread_id: str,
    key: str,
    *,
    ok: bool,
    observation: Any,
    ledger: list[dict[str, Any]],
    status: str | None = None,
) -> None:
    """Record how the claimed call ended: its observation (as the run keeps it) and the ledger
    entries it left (the records it returned included)."""
    outcome = {"ok": ok, "observation": observation, "ledger": ledger}
    journal.finish(thread_id, key, status or (DONE if ok else FAILED), outcome)


def retaken(journal: Journal, thread_id: str, key: str, effect: Mapping[str, Any]) -> Claimed:
    """A call in doubt that a human says did not run, to run now: this process takes its claim
    over (``started``, its owner now), so that how it ends is recorded and a process that dies
    in it leaves it in doubt again. Where another claim took it first: what that one holds."""
    release(journal, thread_id, key)
    entry = {k: effect[k] for k in ("tool", "args", "run_id", "step", "ledger") if k in effect}
    again = journal.restart(thread_id, key, entry)
    if again is not None:
        return Claimed("run", again)
    return _as_stored(journal.get(thread_id, key) or dict(effect), keyed=False)


def release(journal: Journal, thread_id: str, key: str) -> None:
    """A claimed call that never reached its tool (the run paused before it): not run, so a
    later claim of the same key (the run resumed) runs it."""
    journal.finish(thread_id, key, NOT_RUN, {"ok": False, "observation": None, "ledger": []})


def ask_key(request: Mapping[str, Any]) -> str:
    """The key of one question a run puts to a human, read from the request it pauses with (so the
    engines and every process answering it name it alike): its run, step, the action asked about
    and the attempt (an answer that could not be applied is asked again as a new question), and
    the round of a question asked again once it expired (:mod:`policies.supervisor.authority.expiry`)."""
    given = request.get("action")
    action: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    about = [str(request.get("run_id")), str(request.get("step")), str(request.get("kind") or "")]
    key: list[Any] = [*about, action_signature(action), int(request.get("attempt") or 1)]
    round_ = request.get("round")
    if isinstance(round_, int) and round_ > 1:  # the first round's key is the one it always was
        key.append(round_)
    return f"ask:{json_hash(key)}"


def first_answer(journal: Journal | None, thread_id: str, ask: str, value: Any) -> Any:
    """The answer that claimed the question ``ask`` first: this one, or the one another process
    gave at the same time (both then apply the same answer, and the call it approves is claimed
    once). Without a journal or a thread, ``value``."""
    if journal is None or not thread_id or json_problem(value) is not None:
        return value  # an answer no run can keep claims nothing (it is refused as it is read)
    stored, _ = journal.answer(thread_id, ask, {"answer": value})
    return stored.get("answer", value)


def current_thread() -> str:
    """The thread of the invocation this code runs in (LangGraph's config), or ``""``."""
    try:
        config = get_config()
    except RuntimeError:  # outside a runnable's context
        return ""
    return str((config.get("configurable") or {}).get("thread_id") or "")


def world_ledger(journal: Journal | None, thread_id: str | None) -> list[dict[str, Any]]:
    """The ledger entries of every effect on the thread that ran or may have run, in the order
    claimed: what limits count, whichever process or branch made the call."""
    if journal is None or not thread_id:
        return []
    entries: list[dict[str, Any]] = []
    for effect in journal.effects(thread_id):
        if effect.get("status") not in COUNTED:
            continue
        outcome = effect.get("outcome") or {}
        kept = outcome.get("ledger") if effect["status"] == DONE else effect.get("ledger")
        entries.extend(kept or [])
    return entries


def merged(state: Iterable[Mapping[str, Any]], world: list[dict[str, Any]]) -> tuple[Mapping[str, Any], ...]:
    """The thread's ledger as its state keeps it, plus what the journal holds that this branch's
    state does not (another process's or branch's calls, a call in doubt): each entry once."""
    kept = list(state)
    if not world:
        return tuple(kept)
    seen = {_identity(e) for e in kept}
    return (*kept, *(e for e in world if _identity(e) not in seen))


def _identity(entry: Mapping[str, Any]) -> str:
    return json.dumps(
        [entry.get("run_id"), entry.get("step"), entry.get("tool"), entry.get("args"), entry.get("record")],
        sort_keys=True,
        default=str,
    )


#: The review reason of a call in doubt, and what its reviewer may answer: approve (it did not
#: run: run it now), reject (do not run it again: it stands as made) or respond (what they found,
#: which the model reads as the call's result; it stands as made).
IN_DOUBT_REASON = "effect_in_doubt"
IN_DOUBT_DECISIONS = ("approve", "reject", "respond")


def in_doubt_request(action: Mapping[str, Any], effect: Mapping[str, Any], **about: Any) -> dict[str, Any]:
    """The question a call in doubt puts to a human, in LangChain's HITL shape (as every ask)."""
    name, args = str(action.get("name")), dict(action.get("args") or {})
    at = effect.get("updated_at")
    started = datetime.fromtimestamp(float(at), UTC).isoformat(timespec="seconds") if at else "?"
    description = (
        f"{name} may have run: its process died after starting it (at {started}) and before "
        "recording how it ended, and the tool takes no idempotency key, so running it again could "
        "do it twice. Check the system it acts on. approve: it did not run, run it now; reject: do "
        "not run it again (it is counted as made); respond: what you found (the model reads it)."
    )
    return {
        "action_requests": [{"name": name, "args": args, "description": description}],
        "review_configs": [{"action_name": name, "allowed_decisions": list(IN_DOUBT_DECISIONS)}],
        "kind": "effect_in_doubt",
        **about,
        "action": {"kind": "tool", "name": name, "args": args},
        "reason": IN_DOUBT_REASON,
        "details": {"idempotency_key": effect.get("key"), "started_by": effect.get("owner")},
        "allowed_answers": [
            {"type": "approve"},
            {"type": "reject", "message": "<optional>"},
            {"type": "respond", "message": "<what you found>"},
        ],
    }


def orphan(journal: Journal | None, thread_id: str) -> dict[str, Any] | None:
    """The first side effect on the thread that a process started and never recorded the end of,
    the process being gone (a run that will not be carried on: a new turn replaced it), or None."""
    if journal is None or not thread_id:
        return None
    return next((e for e in journal.effects(thread_id) if in_doubt(e)), None)


def settle_orphan(
    journal: Journal, thread_id: str, effect: dict[str, Any], *, carried_on: bool = False
) -> dict[str, Any]:
    """Put a side effect left in doubt by a run that will not go on to a human before a new run
    starts (an interrupt, LangChain's HITL shape): approve = it did not run (no longer counted);
    reject or respond = it stands as made (counted). Returns what the run's trace records."""
    action = {"name": effect.get("tool"), "args": effect.get("args") or {}}
    request = in_doubt_request(action, effect, run_id=effect.get("run_id"), step=effect.get("step"))
    request["action_requests"][0]["description"] += (
        " Its run goes on from before that step (the step was never kept): approve records that "
        "it did not run, and the model proposes again what is still to do."
        if carried_on
        else " Its run did not go on (a new turn started): approve only records that it did not run."
    )
    answer = parse_human_answer(interrupt(request), allowed=IN_DOUBT_DECISIONS)
    key = str(effect.get("key"))
    if answer is not None and answer.type == "approve":
        journal.finish(
            thread_id, key, NOT_RUN, {"ok": False, "observation": None, "ledger": [], "by": "human"}
        )
        return {"tool": action["name"], "in_doubt": "did_not_run", "idempotency_key": key}
    note = in_doubt_note(answer)
    journal.finish(
        thread_id, key, DONE, {"ok": True, "observation": note, "ledger": effect.get("ledger") or []}
    )
    return {"tool": action["name"], "in_doubt": "stands_as_made", "idempotency_key": key}


def in_doubt_note(answer: Any) -> dict[str, Any]:
    """The call's result when a human did not have it run again (or gave no usable answer: it is
    not run, and stands as made)."""
    note: dict[str, Any] = {"not_rerun": True, "in_doubt": True, "reason": IN_DOUBT_REASON}
    kind = getattr(answer, "type", None)
    note["decided_by"] = "human" if kind else "none"
    message = getattr(answer, "message", "")
    if message:
        note["message"] = message
    return note


def recorded_outcome(effect: Mapping[str, Any]) -> ToolOutcome:
    """The outcome of a call made already, as the journal recorded it: the run carries on with
    it (the observation the first process saw), and nothing runs."""
    outcome = effect.get("outcome") or {}
    return ToolOutcome(True, result=outcome.get("observation"), detail={"from_journal": True})
