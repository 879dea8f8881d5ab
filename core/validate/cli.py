"""`python -m core validate [--model M] [--graph G] FILE|-`: LangGraph's verdict, then your
model's error table; and what the `trace` command shares with it (reading the payload, the
project, the error table)."""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import Any, TextIO

from pydantic import BaseModel

from core.errors import CodedError, ErrorCode
from core.jsontext.write import dumps
from core.project import Project, load_project
from core.validate.entry import EntryComparison
from core.validate.report import Report
from core.words import count

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "add_payload_arguments",
    "add_project_arguments",
    "add_validate_parser",
    "cli_input",
    "cli_project",
    "print_report",
    "read_payload",
    "run_validate",
    "table",
]

# 1: the gate is closed (validate, trace) or a step's check failed / the run stopped (trace).
EXIT_OK, EXIT_FAILED, EXIT_UNREADABLE = 0, 1, 2


def add_payload_arguments(command: argparse.ArgumentParser) -> None:
    """The payload file and --json, which `validate` and `trace` both take first."""
    command.add_argument("file", help="a JSON file, or - for standard input")
    command.add_argument("--json", action="store_true", help="machine-readable output")


def add_project_arguments(command: argparse.ArgumentParser) -> None:
    """--model and --graph, resolved as the app resolves them (see `cli_project`)."""
    command.add_argument("--model", help="your Pydantic model, as package.module:Class")
    command.add_argument("--graph", help="your StateGraph, compiled graph or factory")


def add_validate_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `validate` command to `python -m core`'s subparsers; its handler is
    `run_validate`."""
    validate: argparse.ArgumentParser = subparsers.add_parser(
        "validate", help="validate a payload against the order model (or --model)"
    )
    add_payload_arguments(validate)
    add_project_arguments(validate)
    validate.set_defaults(handler=run_validate)
    return validate


def read_payload(source: str) -> str:
    """The payload text of a file, or of standard input for "-"."""
    if source == "-":  # read as a file is: strict UTF-8 (never surrogate-escaped), "\n" ends
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
        try:
            return stream.read()
        finally:
            stream.detach()  # leave the process's stdin open
    with open(source, encoding="utf-8") as handle:
        return handle.read()


def cli_input(args: argparse.Namespace) -> tuple[str, Project] | None:
    """The payload text and the project, or None (said on stderr: exit 2)."""
    try:
        text = read_payload(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return None
    project = cli_project(args)
    return None if project is None else (text, project)


def cli_project(args: argparse.Namespace) -> Project | None:
    """The model and graph as the app resolves them (flag, playground.toml, env); None: error."""
    chosen = {name: getattr(args, name, None) for name in ("model", "graph")}
    flags = [part for name, spec in chosen.items() if spec for part in (f"--{name}", spec)]
    project = load_project(flags, os.environ, os.getcwd())
    for error in project.errors:
        print(error, file=sys.stderr)
    for note in project.notes:
        print(f"note: {note}", file=sys.stderr)
    return None if project.errors else project


def run_validate(args: argparse.Namespace, out: TextIO) -> int:
    """LangGraph's verdict on the payload (a real run of the entry graph up to its first
    node), then your model's alone: exit 0 both accept it, 1 either refuses it, 2 unusable."""
    from core.validate.entry import compare_entry, project_entry
    from core.validate.report import validate_text

    given = cli_input(args)
    if given is None:
        return EXIT_UNREADABLE
    text, project = given
    if project.model is None:
        said = "the graph's state is not a Pydantic model: pass --model"
        print(CodedError(ErrorCode.NO_MODEL, said), file=sys.stderr)
        return EXIT_UNREADABLE
    entry = project_entry(project)
    report = validate_text(text, entry.model or project.model)
    comparison = None
    if report.syntax_error is None:
        comparison = compare_entry(report, entry.graph)
    return print_report(report, args.json, out, comparison)


def table(rows: list[dict[str, str]], columns: list[str]) -> str:
    """Rows as fixed-width text columns (each cut to 60 characters)."""
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


def print_report(
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
        errors = count(len(report.errors), "error")
        said = "gate open: the payload is valid" if report.ok else f"gate closed: {errors}"
        print(said + ("" if report.ok else ", the graph would not run"), file=out)
        if report.errors:
            print(table(report.to_rows(), columns), file=out)
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
        print(f"your model alone: {count(len(report.errors), 'error')}", file=out)
        print(table(report.to_rows(), columns), file=out)
    same = [(e.path, e.type) for e in verdict.errors] == [(e.path, e.type) for e in report.errors]
    if not same and verdict.errors:
        rows = [e.to_row() for e in verdict.errors]
        print(f"langgraph's entry: {count(len(rows), 'error')}", file=out)
        print(table(rows, columns), file=out)
        if report.ok and any(e.type == "is_instance_of" for e in verdict.errors):
            print(
                "note: the JSON text is valid for this model, but LangGraph builds the first "
                "node's input from the parsed dict in Python mode, where it fails (strict "
                "types JSON cannot hold)",
                file=sys.stderr,
            )


def _json_entry(entry: EntryComparison) -> dict[str, Any]:
    verdict = entry.verdict
    errors = Report(model=entry.verdict.input_schema or BaseModel, errors=verdict.errors)
    return {
        "runs": verdict.runs,
        "first_nodes": verdict.first_nodes,
        "error": verdict.error,
        "dropped": verdict.dropped,
        "errors": _json_errors(errors),
    }
