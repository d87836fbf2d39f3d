"""``agent-patterns shadow-report``: what a policy in shadow would have refused, asked or revised,
over every thread of the run store (:func:`apps.operations.shadow.shadow_report`), per tool and per check
of the review chain, with example threads; ``--json`` for a script. Every cell is printed through
:func:`apps.cli.printable.printable` (a tool name or reason is text a model or a client wrote)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from apps.cli.errors import EXIT_OK
from apps.cli.printable import printable, printable_json

#: The columns of a line: header, and the most characters a cell takes.
COLUMNS = (("TOOL", 28), ("CHECK", 14), ("WOULD", 7), ("REASON", 36), ("CALLS", 6))


def add_shadow_parser(sub: Any, db_option: Any) -> None:
    """The ``shadow-report`` subcommand (``db_option``: the CLI's ``--db``)."""
    shadow = sub.add_parser(
        "shadow-report",
        help="what the rules in shadow mode would have refused, asked or revised, over every thread",
    )
    shadow.add_argument("--json", action="store_true", help="print JSON (both tables, the threads skipped)")
    db_option(shadow)


def _cell(value: Any, most: int) -> str:
    text = printable(value)
    return text if len(text) <= most else text[: most - 1] + "…"


def table(lines: Sequence[Any]) -> list[str]:
    """A table of report lines: tool, check, would, reason, calls, and example threads."""
    cells = [
        [_cell(getattr(line, h.lower()), most) for h, most in COLUMNS]
        + [", ".join(map(printable, line.threads))]
        for line in lines
    ]
    widths = [max([len(h), *(len(c[i]) for c in cells)]) for i, (h, _m) in enumerate(COLUMNS)]
    head = [h for h, _m in COLUMNS] + ["THREADS (examples)"]
    shown = []
    for row in [head, *cells]:
        parts = [
            c.rjust(w) if h == "CALLS" else c.ljust(w)
            for c, w, (h, _m) in zip(row, widths, COLUMNS, strict=False)
        ]
        shown.append(("  " + "  ".join(parts) + "  " + row[-1]).rstrip())
    return shown


def shadow_command(args: argparse.Namespace, out: Any) -> int:
    """Print the shadow report of the store at ``args.db``."""
    from apps.operations.shadow import shadow_report
    from nodes.store import open_checkpointer, open_store, parse_location

    with open_checkpointer(args.db) as saver, open_store(args.db) as store:
        report = shadow_report(saver, store)
    if args.json:
        text = json.dumps(report.as_dict(), indent=2, ensure_ascii=False, default=str)
        print(printable_json(text), file=out)
        return EXIT_OK
    where = parse_location(args.db)
    print(
        f"shadow report: {report.threads} thread(s), {report.calls} call(s) reviewed, {report.held} "
        f"a rule in shadow would have refused, asked or revised (run store: {where})",
        file=out,
    )
    if not report.held:
        print("no rule in shadow would have refused, asked or revised a call", file=out)
    else:
        print("what the policy would have done (the first rule in shadow that decides each call):", file=out)
        print("\n".join(table(report.would)), file=out)
        print("every rule in shadow that would have decided (a rule after another counted too):", file=out)
        print("\n".join(table(report.by_rule)), file=out)
    for thread, why in report.skipped:
        print(printable(f"skipped thread {thread!r}: {why}"), file=out)
    return EXIT_OK
