"""`python -m core guard --export state_guard.py` (or `--check` an exported file is current)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

__all__ = ["add_guard_parser", "run_guard"]

EXIT_OK, EXIT_STALE = 0, 1


def add_guard_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Add the `guard` command to `python -m core`'s subparsers."""
    guard = subparsers.add_parser(
        "guard",
        help="export GuardedSaver as one module your project can vendor",
        description="Write core.guard's GuardedSaver as one module importing only langgraph, "
        "langchain_core, pydantic, pydantic_core and the standard library. --check: exit 0 "
        "when a file holds what --export writes now, 1 when it differs.",
    )
    action = guard.add_mutually_exclusive_group(required=True)
    action.add_argument("--export", metavar="FILE", help="write the module here")
    action.add_argument("--check", metavar="FILE", help="is this exported module current?")
    guard.set_defaults(handler=run_guard)
    return guard


def run_guard(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run `guard` on parsed arguments; returns 0, or 1 for a `--check` that differs."""
    from core.guard.export import export_source

    out = out or sys.stdout
    source = export_source()
    if args.export:
        Path(args.export).write_text(source, encoding="utf-8")
        print(f"wrote {args.export} ({len(source.splitlines())} lines)", file=out)
        return EXIT_OK
    path = Path(args.check)
    current = path.is_file() and path.read_text(encoding="utf-8") == source
    print(
        f"{args.check} is current"
        if current
        else f"{args.check} differs from what "
        f"`python -m core guard --export {args.check}` writes now: export it again",
        file=out,
    )
    return EXIT_OK if current else EXIT_STALE
