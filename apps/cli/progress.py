"""What the CLI prints while a run goes and when it ends: one line per node, a short summary.

A node's line is its name, a mark and its figures, cut to the terminal's width:

- the mark: ``llm`` for an LLM call, the decision a gateway took (``approve``, ``revise``,
  ``escalate``, ``block``; a human's ``approve`` / ``edit`` / ``reject``; ``wait`` for a request to
  a human), ``refused`` for an action refused and handed back to the worker, ``STOP <reason>``
  when the node stopped the run, else ``ok``;
- the figures: the decision's reason and who approved, the action the node settled on, then the
  key figures of its trace row (hashes, counts, similarity...).

Everything is read from the node's state update, so a node that adds a decision key is shown
without a change here. Every line is printed through :func:`apps.cli.printable.printable`: a figure
a model or a tool wrote cannot break a line or drive the terminal.
"""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from collections.abc import Mapping
from typing import IO, Any

from apps.cli.printable import printable

NAME_WIDTH = 18
MARK_WIDTH = 8
#: Trace-row keys that are not figures.
_NOT_FIGURES = frozenset({"step", "phase", "ok", "elapsed_ms", "stop_reason", "call"})


def terminal_width(stream: IO[str] | None = None, fallback: int = 100) -> int:
    """Columns to fit: ``$COLUMNS``, else the terminal on stdout, else the one ``stream`` writes to,
    else ``fallback`` (output to a file or a pipe)."""
    width = shutil.get_terminal_size((0, 0)).columns
    if not width and stream is not None:
        try:
            width = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, OSError, ValueError):
            width = 0
    return max(20, width or fallback)


def cut(line: str, width: int) -> str:
    """``line`` in at most ``width`` characters (``…`` marks a cut)."""
    return line if len(line) <= width else line[: max(0, width - 1)] + "…"


#: The most characters one figure shows (a model's free-text reason, a long action).
VALUE_WIDTH = 60


def _value(value: Any, limit: int = VALUE_WIDTH) -> str:
    text = (
        value
        if isinstance(value, str)
        else json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    )
    text = " ".join(text.split())
    return cut(text, limit)


def request_text(request: Any) -> tuple[str, str]:
    """(why, what) of a question a run waits on: a pattern's (``reason``, ``action``), or
    LangChain's HITL request of a ``create_agent`` agent (``action_requests``: the first one's
    tool call, why from its ``description``)."""
    if not isinstance(request, Mapping):
        return str(request), "?"
    asked = request.get("action_requests")
    if isinstance(asked, list) and asked and isinstance(asked[0], Mapping):
        first = asked[0]
        # the description's first part (an expiry or a problem after " | " is shown on its own)
        why = str(first.get("description") or "approval").split(";")[0].split(" | ")[0]
        why = why.split(": ", 1)[1] if ": " in why else why
        return why, action_text(first)
    return str(request.get("reason", "?")), action_text(request.get("action"))


def action_text(action: Any) -> str:
    """``tool(arg=value, ...)`` or ``final`` for a proposed action."""
    if not isinstance(action, Mapping):
        return _value(action)
    if action.get("kind") == "final":
        return "final"
    args = action.get("args")
    args = args if isinstance(args, Mapping) else {}
    inner = ", ".join(f"{k}={_value(v)}" for k, v in sorted(args.items(), key=lambda kv: str(kv[0])))
    return f"{action.get('name', '?')}({inner})"


def _trace_row(update: Mapping[str, Any]) -> Mapping[str, Any] | None:
    rows = update.get("trace") or []
    return next((r for r in reversed(rows) if isinstance(r, Mapping) and "phase" in r), None)


#: Keys of a supervisor-style review that are shown by name, not as a figure.
_REVIEW_KEYS = frozenset({"decision", "reason", "changes", "action"})
#: Keys every node may write that say nothing about its decision.
#: (``messages``: the conversation a run adds its request and answer to, for chat clients)
_BOOKKEEPING = frozenset({"trace", "history", "usage", "run_id", "thread_id", "started_at", "messages"})


def _decision(update: Mapping[str, Any]) -> tuple[str | None, list[str], list[str]]:
    """The decision a node took (its mark), and what goes with it (short figures, then long ones),
    from its update's keys."""
    mark: str | None = None
    parts: list[str] = []
    long: list[str] = []
    review = update.get("review")
    if isinstance(review, Mapping) and (
        "run_total" in review or "thread_total" in review
    ):  # a cumulative threshold's total, in full
        from policies.supervisor import shown_details

        review = shown_details(review)
    if isinstance(review, Mapping) and review.get("decision"):
        mark = str(review["decision"])
        if review.get("reason"):
            parts.append(f"reason={_value(review['reason'])}")
        parts += [
            f"{k}={_value(v)}"
            for k, v in review.items()
            if k not in _REVIEW_KEYS and (v is None or isinstance(v, str | int | float | bool))
        ]
        if isinstance(review.get("changes"), Mapping):
            long.append(f"changes={_value(review['changes'])}")
    request = update.get("approval_request")
    # (an answer's update carries the request again only for the approved call's stamp)
    if isinstance(request, Mapping) and "human_answer" not in update:
        mark = "wait"
        parts.append(f"asks a human: reason={request.get('reason', '?')}")
    answer = update.get("human_answer")
    if isinstance(answer, Mapping) and answer.get("type"):
        mark = str(answer["type"])
    if update.get("approved_by"):
        parts.append(f"approved_by={update['approved_by']}")
    if update.get("human_approved") is not None:
        parts.append(f"human_approved={update['human_approved']}")
    if update.get("executed_from"):
        parts.append(f"executed_from={update['executed_from']}")
    if isinstance(update.get("action"), Mapping):
        long.append(f"action={_value(action_text(update['action']))}")
    if isinstance(answer, Mapping) and answer.get("message"):
        long.append(f"message={_value(answer['message'])}")
    return mark, parts, long


def _other_figures(update: Mapping[str, Any]) -> list[str]:
    """For a node with neither a trace row nor a decision: its model, and how many items it found."""
    parts = [f"model={update['model']}"] if isinstance(update.get("model"), str) else []
    return parts + [
        f"{k}={len(v)}" for k, v in sorted(update.items()) if isinstance(v, list) and k not in _BOOKKEEPING
    ]


def progress_line(node: str, update: Any, width: int = 100) -> str:
    """One line for a node that finished: name, mark, figures; at most ``width`` characters."""
    if not isinstance(update, Mapping):
        return cut(f"  {node}", width)
    row = _trace_row(update)
    mark, parts, long = _decision(update)
    if row is not None:
        shown = {p.split("=", 1)[0] for p in parts}
        figures = [
            f"{k}={_value(v)}"
            for k, v in row.items()
            if k not in _NOT_FIGURES and k not in shown and not (k == "decision" and v == mark)
        ]
        parts = figures + parts
        if row.get("call") == "llm":
            mark = "llm"
    elif not parts and not long:
        parts = _other_figures(update)
    parts += long
    fed_back = row is not None and row.get("phase") == "refused" and update.get("status") != "stopped"
    if fed_back and row is not None:  # a refusal handed back to the worker: the run goes on
        mark = "refused"
        first = [f"reason={_value(row.get('refused'))}", f"by={row.get('refused_by')}"]
        parts = first + [p for p in parts if p.split("=", 1)[0] not in ("refused", "refused_by")]
    elif update.get("status") == "stopped" or (row is not None and row.get("ok") is False):
        mark = f"STOP {update.get('stop_reason') or (row or {}).get('stop_reason') or '?'}"
    line = f"  {node:<{NAME_WIDTH}} {mark or 'ok':<{MARK_WIDTH}} {' '.join(parts)}"
    return cut(printable(line.rstrip()), width)


def summary_lines(result: Mapping[str, Any], width: int = 100) -> list[str]:
    """A run's result in a few lines: how it ended, what it cost, its answer or diagnostic."""
    status, reason = result.get("status"), result.get("stop_reason")
    usage = result.get("usage") or {}
    cost = (
        f"{usage.get('llm_calls', 0)} LLM calls, {usage.get('total_tokens', 0)} tokens, "
        f"{usage.get('cost_usd', 0.0)} USD"
    )
    model = result.get("model", "?")
    lines: list[str] = []
    if result.get("waiting_for_human"):
        for request in result["waiting_for_human"]:
            why, action = request_text(request)
            lines.append(f"waiting for a human ({why}): {action}")
    elif result.get("agent"):  # a create_agent agent's turn: how it ended, its reply
        lines.append(f"{status}: {reason}" if reason else f"{status}: {result['agent']} replied")
        if result.get("answer"):
            lines.append(f"reply: {' '.join(str(result['answer']).split())}")
    elif status == "ok":
        outcome = f" ({result['outcome']})" if result.get("outcome") else ""
        lines.append(f"ok: {reason}{outcome}; {cost}; model {model}")
        if result.get("answer"):
            lines.append(f"answer: {' '.join(str(result['answer']).split())}")
    else:
        phase = f" in phase {result['phase']}" if result.get("phase") else ""
        lines.append(f"stopped: {reason}{phase}; {cost}; model {model}")
        detail = result.get("llm_detail") or result.get("details")
        problem = detail.get("problem") if isinstance(detail, Mapping) else None
        if isinstance(detail, Mapping) and problem:  # the problem in full, the rest in short
            rest = {k: v for k, v in detail.items() if k != "problem"}
            lines += [f"details: {_value(rest)}"] if rest else []
            lines += wrapped("problem: ", problem, width)
        elif detail:
            lines.append(f"details: {_value(detail)}")
        error = _tool_error(result)
        if error:
            lines.append(f"tool error: {error}")
    return [cut(printable(line), width) for line in lines]


def wrapped(label: str, text: Any, width: int) -> list[str]:
    """``label`` and ``text`` (all of it, on one line or more, each within ``width``), the lines
    after the first indented."""
    shown = printable(" ".join(str(text).split()))
    return textwrap.wrap(shown, max(20, width), initial_indent=label, subsequent_indent="  ") or [label]


def _tool_error(result: Mapping[str, Any]) -> str | None:
    """The error of the failed tool call a run stopped on (``tool_failed:fetch_sales_data`` says
    which tool; this says why, e.g. ``sales_not_found_for_month:2026-03``): from the result's
    ``observation``, else its last call when that failed."""
    observation = result.get("observation")
    calls = result.get("calls")
    if not isinstance(observation, Mapping) and isinstance(calls, list) and calls:
        last = calls[-1]
        if isinstance(last, Mapping) and last.get("ok") is False:
            observation = last.get("observation")
    if not isinstance(observation, Mapping) or not observation.get("error"):
        return None
    extra = observation.get("message") or observation.get("problem")
    return _value(observation["error"]) + (f" ({_value(extra)})" if extra else "")
