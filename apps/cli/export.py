"""``agent-patterns audit --jsonl`` and ``--otlp``: the store's audit log exported, one record
(or span) per governed call (:mod:`apps.operations.audit_export`). Imports nothing heavy until a command
runs: ``build_parser`` adds its options."""

from __future__ import annotations

from typing import Any

from apps.cli.errors import EXIT_OK, CliError


def add_export_options(audit: Any) -> None:
    """``audit``'s export options (:mod:`apps.operations.audit_export`)."""
    audit.add_argument(
        "--jsonl",
        action="store_true",
        help="print one JSON object per governed call (the thread's, every thread's when none is "
        "named): decision, rule, provenance, reviewer, chain hash (docs/cli.md)",
    )
    audit.add_argument(
        "--otlp",
        action="store_true",
        help="send the governed calls as OpenTelemetry spans to the OTLP/HTTP collector "
        "$OTEL_EXPORTER_OTLP_ENDPOINT names (default http://localhost:4318)",
    )
    audit.add_argument(
        "--since", metavar="ISO", help="with --jsonl or --otlp: only calls at or after this time"
    )


def _since(args: Any) -> float | None:
    from apps.operations.audit_export import parse_since

    if args.since is None:
        return None
    try:
        return parse_since(args.since)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def _otlp_exporter() -> Any:
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.trace import TracerProvider  # noqa: F401
    except ImportError:
        raise CliError(
            "--otlp needs opentelemetry-sdk and opentelemetry-exporter-otlp-proto-http "
            "(pip install 'governed-agent-patterns[otel]' opentelemetry-exporter-otlp-proto-http)"
        ) from None
    return OTLPSpanExporter()


def export_command(args: Any, out: Any) -> int:
    """``audit --jsonl`` / ``--otlp``: the governed calls of the thread (every thread when none is
    named) as JSON Lines on ``out``, or as spans sent to an OTLP collector."""
    from apps.operations.audit import ThreadNotFound
    from apps.operations.audit_export import export_spans, write_jsonl
    from nodes.store import open_store

    if args.jsonl and args.otlp:
        raise CliError("--jsonl and --otlp: choose one")
    if args.turn is not None or args.json or args.strict:
        raise CliError("--turn, --json and --strict do not go with --jsonl or --otlp")
    since = _since(args)
    with open_store(args.db) as store:
        try:
            if args.jsonl:
                write_jsonl(store, out, args.thread_id, since)
                return EXIT_OK
            exporter = _otlp_exporter()
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
            from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

            kept = InMemorySpanExporter()  # sent in one request, its result checked
            provider = TracerProvider()
            provider.add_span_processor(SimpleSpanProcessor(kept))
            calls = export_spans(store, provider, args.thread_id, since)
        except ThreadNotFound as exc:
            raise CliError(str(exc)) from None
    spans = kept.get_finished_spans()
    sent = exporter.export(spans) if spans else SpanExportResult.SUCCESS
    exporter.shutdown()
    where = getattr(exporter, "_endpoint", "the OTLP collector")
    if sent != SpanExportResult.SUCCESS:
        raise CliError(f"{where} did not take the {len(spans)} span(s) (see the OpenTelemetry log above)")
    print(f"sent {calls} governed call span(s) in {len(spans) - calls} run span(s) to {where}", file=out)
    return EXIT_OK
