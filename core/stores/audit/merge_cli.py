"""`python -m core audit-merge part-*.json [--json]`: shards' audits summed into one report."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, TextIO

from core.stores.audit.audit_parts import AuditPartError, merge_parts
from core.stores.audit.cli import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, print_audit
from core.stores.backends.postgres import STORE_ENV
from core.stores.backends.spec import mask_secrets

__all__ = ["add_merge_parser", "run_merge"]


def add_merge_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `audit-merge` command to `python -m core`'s subparsers; its handler is
    `run_merge`."""
    merge: argparse.ArgumentParser = subparsers.add_parser(
        "audit-merge",
        help="sum the --json outputs of an audit's shards into one report",
        description="Exit 0: every audited state is valid; 1: some are invalid or cannot be "
        "read; 2: a part cannot be read or is not an audit's --json output.",
    )
    merge.add_argument("parts", nargs="+", metavar="PART", help="an `audit --json` output file")
    merge.add_argument("--json", action="store_true", help="machine-readable output")
    merge.set_defaults(handler=run_merge)
    return merge


def run_merge(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run `audit-merge` on parsed arguments; returns the exit code, as `audit`'s: 0 clean,
    1 findings, 2 a part unreadable or malformed (one coded line on stderr naming it).

    The report has the shape of one whole audit's, its rows in thread order.
    """
    try:
        result = merge_parts(args.parts)
    except AuditPartError as error:  # masked as the audit's stderr is: a Job runs both
        print(mask_secrets(str(error), os.environ.get(STORE_ENV, "")), file=sys.stderr)
        return EXIT_UNREADABLE
    print_audit(result, args.json, out or sys.stdout)
    return EXIT_OK if result.clean else EXIT_INVALID
