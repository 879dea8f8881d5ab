"""`python -m core audit STORE --model M [--graph G] [--history] [--shard i/N] [--json]`."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sqlite3
import sys
from typing import Any, TextIO

from core.project import load_project
from core.stores.audit import AuditResult, audit_store
from core.stores.errors import StoreCode, StoreError
from core.stores.open import STORE_ENV, open_store, store_label
from core.stores.serde import strict_serde

__all__ = [
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "add_audit_parser",
    "parse_shard",
    "run_audit",
]

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def parse_shard(text: str) -> tuple[int, int]:
    """`"i/N"` -> `(i, N)`, with 0 <= i < N (argparse type).

    Example:
        >>> parse_shard("1/4")
        (1, 4)
    """
    try:
        index, shards = (int(part) for part in text.split("/"))
    except ValueError:
        index, shards = -1, 0
    if not 0 <= index < shards:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a shard: write i/N with 0 <= i < N, e.g. 0/4 ... 3/4"
        )
    return index, shards


def add_audit_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `audit` command to `python -m core`'s subparsers; its handler is `run_audit`."""
    audit: argparse.ArgumentParser = subparsers.add_parser(
        "audit",
        help="validate the states stored in a LangGraph checkpoint store",
        description="Exit 0: every audited state is valid; 1: some are invalid; 2: the store "
        "or the model cannot be read.",
    )
    audit.add_argument(
        "store",
        nargs="?",
        help=f"a SQLite file (or sqlite:///path) or a postgresql:// DSN; default ${STORE_ENV}",
    )
    audit.add_argument("--model", help="your Pydantic model, as package.module:Class")
    audit.add_argument("--graph", help="your StateGraph, compiled graph or factory")
    audit.add_argument("--history", action="store_true", help="every checkpoint, not the latest")
    audit.add_argument(
        "--shard", type=parse_shard, default=(0, 1), help="audit slice i of N (0-based): i/N"
    )
    audit.add_argument("--json", action="store_true", help="machine-readable output")
    audit.set_defaults(handler=run_audit)
    return audit


def run_audit(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run `audit` on parsed arguments; returns the exit code (0 valid, 1 invalid, 2 unreadable).

    The model and graph resolve as for `validate` (flag, playground.toml, environment).
    """
    flags = [part for name in ("model", "graph") if getattr(args, name) for part in
             (f"--{name}", getattr(args, name))]  # fmt: skip
    project = load_project(flags, os.environ, os.getcwd())
    for error in project.errors:
        print(error, file=sys.stderr)
    for note in project.notes:
        print(f"note: {note}", file=sys.stderr)
    if project.errors:
        return EXIT_UNREADABLE
    if project.model is None:
        print("[no_model] the graph's state is not a Pydantic model: pass --model too",
              file=sys.stderr)  # fmt: skip
        return EXIT_UNREADABLE
    models: list[type] = [project.model]
    if project.graph is not None:
        builder = project.graph.builder
        models += [builder.state_schema, builder.input_schema, builder.output_schema]
    spec = args.store or os.environ.get(STORE_ENV, "")
    # refusals are reported per state below; LangGraph would also log each one
    logging.getLogger("langgraph.checkpoint.serde.jsonplus").setLevel(logging.ERROR)
    try:
        with open_store(spec, strict_serde(models)) as store:
            result = audit_store(store, project.model, history=args.history, shard=args.shard)
    except StoreError as error:
        print(error, file=sys.stderr)
        return EXIT_UNREADABLE
    except Exception as exc:  # a driver error mid-read: name the store, never the DSN
        if not isinstance(exc, sqlite3.Error) and "psycopg" not in type(exc).__module__:
            raise
        print(
            StoreError(
                StoreCode.UNREADABLE,
                f"{store_label(spec)} failed while being read ({type(exc).__name__}); check "
                "the file or server and run the audit again.",
            ),
            file=sys.stderr,
        )
        return EXIT_UNREADABLE
    _print(result, args.json, out or sys.stdout)
    return EXIT_INVALID if result.invalid else EXIT_OK


def _print(result: AuditResult, as_json: bool, out: TextIO) -> None:
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2, default=str), file=out)
        return
    print(
        f"{result.threads} threads, {result.checkpoints} checkpoints audited: "
        f"{len(result.invalid)} invalid",
        file=out,
    )
    for state in result.invalid:
        print(f"{state.thread_id}  step {state.step}  node {state.node}  {state.checkpoint_id}",
              file=out)  # fmt: skip
        for error in state.errors:
            loc = ".".join(str(part) for part in error["loc"]) or "(state)"
            print(f"    {loc}: {error['type']}: {error['msg']}", file=out)
