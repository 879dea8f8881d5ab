"""`python -m core trace [--graph G] [--fault F] FILE|-`: the Trace page's run on the command
line (`trace_text`), one row per node execution, or the whole trace as JSON."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from pydantic import BaseModel

from core.errors import CodedError, ErrorCode
from core.trace.from_text import trace_text
from core.validate.cli import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_UNREADABLE,
    add_payload_arguments,
    add_project_arguments,
    cli_input,
    print_report,
    table,
)
from core.validate.report import Report

__all__ = ["add_trace_parser", "run_trace_command"]


def add_trace_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `trace` command to `python -m core`'s subparsers; its handler is
    `run_trace_command`."""
    trace: argparse.ArgumentParser = subparsers.add_parser(
        "trace", help="run the order graph (or --graph) and print one row per step"
    )
    add_payload_arguments(trace)
    trace.add_argument("--fault", action="append", default=[], help="a fault id (repeatable)")
    add_project_arguments(trace)
    trace.set_defaults(handler=run_trace_command)
    return trace


def run_trace_command(args: argparse.Namespace, out: TextIO) -> int:
    """Run the payload through your graph (or the seed order's, with `--fault`) as the Trace
    page's *Check every step* does: exit 0 every step's state is valid and the run finished,
    1 the gate is closed, a step's check failed or the run stopped, 2 unusable input."""
    from core.order import UnknownFaultError

    given = cli_input(args)
    if given is None:
        return EXIT_UNREADABLE
    text, project = given
    if project.graph is None and not project.seed_model:
        said = "trace runs your model only through your graph: pass --graph too"
        print(CodedError(ErrorCode.NO_GRAPH, said), file=sys.stderr)
        return EXIT_UNREADABLE
    if project.graph is not None and args.fault:
        said = "--fault applies to the seed order graph only"
        print(CodedError(ErrorCode.FAULTS_SEED_ONLY, said), file=sys.stderr)
        return EXIT_UNREADABLE
    graph = "seed" if project.graph is None else "project"
    try:
        run = trace_text(text, graph=graph, faults=args.fault, project=project)
    except UnknownFaultError as exc:
        print(exc, file=sys.stderr)
        return EXIT_UNREADABLE
    if run.syntax_error is not None:
        unreadable = Report(model=BaseModel, text=text, syntax_error=run.syntax_error)
        return print_report(unreadable, args.json, out)
    trace = run.trace
    assert trace is not None  # trace_text gives a trace whenever the text parses
    if args.json:
        print(trace.to_json(), file=out)
    elif trace.gate_errors:  # the gate's own errors, each placed in the text by the trace
        gate = trace.options.input_model or BaseModel
        return print_report(Report(model=gate, text=text, errors=trace.gate_errors), False, out)
    else:
        rows = trace.rows()
        print(table([{k: str(v) for k, v in row.items()} for row in rows], list(rows[0])), file=out)
        if trace.error:
            print(f"run stopped: {trace.error}", file=out)
            hint = trace.error.hint
            if hint:
                print(f"hint: {hint}", file=out)
    failed = trace.gate_errors or trace.error or any(step.violations for step in trace.steps)
    return EXIT_FAILED if failed else EXIT_OK
