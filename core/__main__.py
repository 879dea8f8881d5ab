"""Command line: `python -m core validate FILE|-` and `python -m core trace FILE|-`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from core.report import Report, validate_text

__all__ = ["main"]

EXIT_OK, EXIT_GATE_CLOSED, EXIT_UNREADABLE = 0, 1, 2


def _read(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    with open(source, encoding="utf-8") as handle:
        return handle.read()


def _table(rows: list[dict[str, str]], columns: list[str]) -> str:
    widths = {c: min(60, max(len(c), *(len(r[c]) for r in rows))) for c in columns}
    lines = ["  ".join(c.ljust(widths[c]) for c in columns)]
    lines += ["  ".join(r[c][: widths[c]].ljust(widths[c]) for c in columns) for r in rows]
    return "\n".join(lines)


def _print_report(report: Report, as_json: bool) -> int:
    if as_json:
        body: dict[str, Any] = {"ok": report.ok, "errors": report.to_errors()}
        if report.syntax_error is not None:
            error = report.syntax_error
            body["syntax_error"] = {
                "code": error.code,
                "message": error.message,
                "line": error.line,
                "col": error.col,
            }
        print(json.dumps(body, indent=2, ensure_ascii=False))
    elif report.syntax_error is not None:
        print(f"unreadable payload: {report.syntax_error}", file=sys.stderr)
    elif report.ok:
        print("gate open: the payload is valid")
    else:
        print(f"gate closed: {len(report.errors)} error(s), the graph would not run")
        columns = ["line:col", "path", "type", "message", "input"]
        print(_table(report.to_rows(), columns))
    if report.syntax_error is not None:
        return EXIT_UNREADABLE
    return EXIT_OK if report.ok else EXIT_GATE_CLOSED


def _trace(text: str, faults: list[str], as_json: bool) -> int:
    from core.order import UnknownFaultError, build_order_graph
    from core.trace import run_trace

    report = validate_text(text)
    if report.syntax_error is not None:
        return _print_report(report, as_json)
    try:
        graph = build_order_graph(faults)
    except UnknownFaultError as exc:
        print(exc, file=sys.stderr)
        return EXIT_UNREADABLE
    trace = run_trace(graph, report.input)
    rows = trace.rows()
    if as_json:
        print(trace.to_json())
    elif trace.gate_errors:
        return _print_report(report, as_json)
    else:
        print(_table([{k: str(v) for k, v in row.items()} for row in rows], list(rows[0])))
        if trace.error:
            print(f"run stopped: {trace.error}")
    return EXIT_GATE_CLOSED if trace.gate_errors else EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 gate closed, 2 unreadable)."""
    parser = argparse.ArgumentParser(prog="python -m core", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="validate a payload against the order model")
    trace = commands.add_parser("trace", help="run the order graph and print one row per step")
    for command in (validate, trace):
        command.add_argument("file", help="a JSON file, or - for standard input")
        command.add_argument("--json", action="store_true", help="machine-readable output")
    trace.add_argument("--fault", action="append", default=[], help="a fault id (repeatable)")
    args = parser.parse_args(argv)
    try:
        text = _read(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    if args.command == "trace":
        return _trace(text, args.fault, args.json)
    return _print_report(validate_text(text), args.json)


if __name__ == "__main__":
    sys.exit(main())
