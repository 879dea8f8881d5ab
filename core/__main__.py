"""Command line: `python -m core validate [--model M] FILE|-`, `trace [--graph G] FILE|-`,
`audit STORE --model M`, `audit-merge part-*.json`, `migrate STORE --model M --candidate M2`."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from typing import TYPE_CHECKING, Any, TextIO

from pydantic import BaseModel

from core.jsontext.write import dumps, plural
from core.migrate.cli import add_migrate_parser
from core.project import Project, load_project
from core.stores.cli import add_audit_parser
from core.stores.merge_cli import add_merge_parser

if TYPE_CHECKING:
    from core.validate.entry import EntryComparison
    from core.validate.report import Report

# core.validate and core.trace load LangGraph's graph machinery (about half a second): each
# command imports what it uses, so `audit --model` processes (one per --shard) start fast.

__all__ = ["main"]

# 1: the gate is closed (validate, trace) or a step's check failed / the run stopped (trace).
EXIT_OK, EXIT_FAILED, EXIT_UNREADABLE = 0, 1, 2


def _read(source: str) -> str:
    if source == "-":  # read as a file is: strict UTF-8 (never surrogate-escaped), "\n" ends
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
        try:
            return stream.read()
        finally:
            stream.detach()  # leave the process's stdin open
    with open(source, encoding="utf-8") as handle:
        return handle.read()


def _table(rows: list[dict[str, str]], columns: list[str]) -> str:
    widths = {c: min(60, max(len(c), *(len(r[c]) for r in rows))) for c in columns}
    lines = ["  ".join(c.ljust(widths[c]) for c in columns)]
    lines += ["  ".join(r[c][: widths[c]].ljust(widths[c]) for c in columns) for r in rows]
    return "\n".join(lines)


def _json_errors(report: Report) -> list[dict[str, Any]]:
    """Pydantic's errors() fields, then the 1-based line and col the Validate page shows."""
    return [
        {**item, "line": error.line, "col": error.col}
        for item, error in zip(report.to_errors(), report.errors, strict=True)
    ]


def _print_report(
    report: Report, as_json: bool, out: TextIO, entry: EntryComparison | None = None
) -> int:
    """The model alone's verdict (and, with `entry`, LangGraph's first): exit 1 if either
    refuses the payload."""
    if as_json:
        body: dict[str, Any] = {"ok": report.ok, "errors": _json_errors(report)}
        if entry is not None:
            body["langgraph"] = _json_entry(entry)
        if report.syntax_error is not None:
            error = report.syntax_error
            body["syntax_error"] = {
                "code": error.code,
                "message": error.message,
                "line": error.line,
                "col": error.col,
            }
        if report.duplicates:
            body["duplicate_keys"] = [
                {"path": d.path, "positions": [list(spot) for spot in d.positions]}
                for d in report.duplicates
            ]
        print(dumps(body, indent=2), file=out)
    elif report.syntax_error is not None:
        print(f"unreadable payload: {report.syntax_error}", file=sys.stderr)
    else:
        _print_verdicts(report, entry, out)
    if not as_json:
        for duplicate in report.duplicates:  # stderr: stdout stays the verdict and the table
            print(
                f"note: repeated key, only the last value is validated: {duplicate.describe()}",
                file=sys.stderr,
            )
    if report.syntax_error is not None:
        return EXIT_UNREADABLE
    refused = not report.ok or (entry is not None and not entry.langgraph_accepted)
    return EXIT_FAILED if refused else EXIT_OK


def _print_verdicts(report: Report, entry: EntryComparison | None, out: TextIO) -> None:
    columns = ["line:col", "path", "type", "message", "input"]
    if entry is None:  # trace's gate: the model alone, before the graph runs
        count = plural(len(report.errors), "error")
        said = "gate open: the payload is valid" if report.ok else f"gate closed: {count}"
        print(said + ("" if report.ok else ", the graph would not run"), file=out)
        if report.errors:
            print(_table(report.to_rows(), columns), file=out)
        return
    verdict = entry.verdict
    if verdict.runs:
        print(f"langgraph: runs (first node: {', '.join(verdict.first_nodes) or 'none'})",
              file=out)  # fmt: skip
        if verdict.dropped:
            print(f"langgraph: drops {', '.join(verdict.dropped)}", file=out)
    else:
        print(f"langgraph: raises before the first node: {verdict.error}", file=out)
    if report.ok:
        print("your model alone: the payload is valid", file=out)
    else:
        print(f"your model alone: {plural(len(report.errors), 'error')}", file=out)
        print(_table(report.to_rows(), columns), file=out)
    same = [(e.path, e.type) for e in verdict.errors] == [(e.path, e.type) for e in report.errors]
    if not same and verdict.errors:
        rows = [e.to_row() for e in verdict.errors]
        print(f"langgraph's entry: {plural(len(rows), 'error')}", file=out)
        print(_table(rows, columns), file=out)
        if report.ok and any(e.type == "is_instance_of" for e in verdict.errors):
            print(
                "note: the JSON text is valid for this model, but LangGraph builds the first "
                "node's input from the parsed dict in Python mode, where it fails (strict "
                "types JSON cannot hold)",
                file=sys.stderr,
            )


def _json_entry(entry: EntryComparison) -> dict[str, Any]:
    from core.validate.report import Report

    verdict = entry.verdict
    errors = Report(model=entry.verdict.input_schema or BaseModel, errors=verdict.errors)
    return {
        "runs": verdict.runs,
        "first_nodes": verdict.first_nodes,
        "error": verdict.error,
        "dropped": verdict.dropped,
        "errors": _json_errors(errors),
    }


def _trace(text: str, faults: list[str], as_json: bool, project: Project, out: TextIO) -> int:
    from core.order import AgentState, UnknownFaultError, build_order_graph
    from core.trace import run_trace
    from core.validate.field_errors import place_in_text
    from core.validate.report import validate_text

    model = project.model or AgentState
    report = validate_text(text, model)
    if report.syntax_error is not None:
        return _print_report(report, as_json, out)
    if project.graph is None and not project.seed_model:
        print("[no_graph] trace runs your model only through your graph: pass --graph too",
              file=sys.stderr)  # fmt: skip
        return EXIT_UNREADABLE
    if project.graph is not None and faults:
        print("[faults_seed_only] --fault applies to the seed order graph only", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        graph = project.graph if project.graph is not None else build_order_graph(faults)
    except UnknownFaultError as exc:
        print(exc, file=sys.stderr)
        return EXIT_UNREADABLE
    trace = run_trace(graph, report.input, model=project.model if project.graph else None)
    rows = trace.rows()
    if as_json:
        # The gate validated the parsed dict: its errors get their place in the text here.
        trace.gate_errors = place_in_text(trace.gate_errors, text)
        print(trace.to_json(), file=out)
    elif trace.gate_errors:
        return _print_report(report, as_json, out)
    else:
        print(
            _table([{k: str(v) for k, v in row.items()} for row in rows], list(rows[0])), file=out
        )
        if trace.error:
            print(f"run stopped: {trace.error}", file=out)
            hint = trace.error.hint
            if hint:
                print(f"hint: {hint}", file=out)
    failed = trace.gate_errors or trace.error or any(step.violations for step in trace.steps)
    return EXIT_FAILED if failed else EXIT_OK


def _project(args: argparse.Namespace) -> Project | None:
    """The model and graph as the app resolves them (flag, playground.toml, env); None: error."""
    chosen = {name: getattr(args, name, None) for name in ("model", "graph")}
    flags = [part for name, spec in chosen.items() if spec for part in (f"--{name}", spec)]
    project = load_project(flags, os.environ, os.getcwd())
    for error in project.errors:
        print(error, file=sys.stderr)
    for note in project.notes:
        print(f"note: {note}", file=sys.stderr)
    return None if project.errors else project


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    0: valid (validate) or every step clean (trace); 1: the gate is closed, or (trace) a
    step's merged state violates the model or the run stopped with an error; 2: unreadable
    input or a project that does not load (its error codes on standard error).

    The model and graph resolve as in the app: `--model/--graph`, then playground.toml in
    the working directory, then PLAYGROUND_MODEL / PLAYGROUND_GRAPH; else the seed order.
    Standard output holds only the verdict (or the JSON): whatever your modules print, on
    import or while running, goes to standard error.
    """
    parser = argparse.ArgumentParser(prog="python -m core", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser(
        "validate", help="validate a payload against the order model (or --model)"
    )
    trace = commands.add_parser(
        "trace", help="run the order graph (or --graph) and print one row per step"
    )
    for command in (validate, trace):
        command.add_argument("file", help="a JSON file, or - for standard input")
        command.add_argument("--json", action="store_true", help="machine-readable output")
    trace.add_argument("--fault", action="append", default=[], help="a fault id (repeatable)")
    for command in (validate, trace):
        command.add_argument("--model", help="your Pydantic model, as package.module:Class")
        command.add_argument("--graph", help="your StateGraph, compiled graph or factory")
    add_audit_parser(commands)
    add_merge_parser(commands)
    add_migrate_parser(commands)
    args = parser.parse_args(argv)
    out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):  # a user module's print() must not reach out
        return args.handler(args, out) if hasattr(args, "handler") else _run(args, out)


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from core.validate.entry import compare_entry, project_entry
    from core.validate.report import validate_text

    try:
        text = _read(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    project = _project(args)
    if project is None:
        return EXIT_UNREADABLE
    if args.command == "trace":
        return _trace(text, args.fault, args.json, project, out)
    if project.model is None:
        print("[no_model] the graph's state is not a Pydantic model: pass --model", file=sys.stderr)
        return EXIT_UNREADABLE
    chosen = project_entry(project)  # your model and the graph whose entry judges it
    report = validate_text(text, chosen.model or project.model)
    entry = None
    if report.syntax_error is None:
        entry = compare_entry(report, chosen.graph)
    return _print_report(report, args.json, out, entry)


if __name__ == "__main__":
    sys.exit(main())
