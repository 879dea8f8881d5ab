"""Command line: `python -m core validate [--model M] FILE|-`, `trace [--graph G] FILE|-`,
`audit STORE --model M`, `audit-merge part-*.json`, `migrate STORE --model M --candidate M2`,
`guard --export FILE | --check FILE`."""

from __future__ import annotations

import argparse
import contextlib
import sys

from core.guard.cli import add_guard_parser
from core.migrate.cli import add_migrate_parser
from core.stores.cli import add_audit_parser
from core.stores.merge_cli import add_merge_parser
from core.trace.cli import add_trace_parser
from core.validate.cli import add_validate_parser

# Each capability owns its command: its parser and handler live in its own cli module.

__all__ = ["main"]


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
    add_validate_parser(commands)
    add_trace_parser(commands)
    add_audit_parser(commands)
    add_merge_parser(commands)
    add_migrate_parser(commands)
    add_guard_parser(commands)
    args = parser.parse_args(argv)
    out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):  # a user module's print() must not reach out
        return int(args.handler(args, out))


if __name__ == "__main__":
    sys.exit(main())
