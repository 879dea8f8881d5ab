"""`python -m core audit STORE --model M [--shard i/N | --shards N] [--json]`, and its report."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TextIO

from core.errors import CodedError, ErrorCode
from core.jsontext.paths import format_path
from core.project import load_project
from core.stores.audit.any_store import audit_any
from core.stores.audit.audit import AuditResult
from core.stores.audit.shard_flags import (
    JOB_INDEX_ENV,
    ShardFlagError,
    parse_shard,
    parse_shards,
    resolve_shard,
)
from core.stores.backends.any_store import open_any
from core.stores.backends.open import MAX_VALUE_BYTES, STORE_ENV, store_label
from core.stores.backends.spec import mask_secrets
from core.stores.backends.thread_ids import (
    is_utf8,
    printable_checkpoint,
    printable_id,
    printable_text,
    stored_id,
)
from core.stores.config import ASSISTANT_ENV
from core.stores.errors import StoreCode, StoreError
from core.stores.session import store_session
from core.words import count

__all__ = [
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "add_audit_parser",
    "parse_shard",
    "print_audit",
    "run_audit",
]

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def _megabytes(text: str) -> int:
    """`"16"` -> 16 MiB in bytes (argparse type).

    Example:
        >>> _megabytes("0.5")
        524288
    """
    try:
        size = float(text)
    except ValueError:
        size = -1
    if not 0 < size <= 4096:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a size in MB: write a number above 0 and at most 4096, e.g. 64"
        )
    return int(size * 2**20)


def add_audit_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `audit` command to `python -m core`'s subparsers; its handler is `run_audit`."""
    audit: argparse.ArgumentParser = subparsers.add_parser(
        "audit",
        help="validate the states stored in a LangGraph checkpoint store",
        description="Exit 0: every audited state is valid; 1 (or --findings-exit): some are "
        "invalid or cannot be read; 2: the store or the model cannot be read at all.",
    )
    audit.add_argument(
        "store",
        nargs="?",
        help="a SQLite file (or sqlite:///path), a postgresql:// DSN or a LangGraph server's "
        f"http(s):// URL; default: playground.toml's store, else ${STORE_ENV}",
    )
    audit.add_argument(
        "--assistant",
        help=f"a LangGraph server store: only this assistant's (or graph's) threads; default "
        f"${ASSISTANT_ENV}",
    )
    audit.add_argument("--model", help="your Pydantic model, as package.module:Class")
    audit.add_argument("--graph", help="your StateGraph, compiled graph or factory")
    audit.add_argument("--history", action="store_true", help="every checkpoint, not the latest")
    audit.add_argument(
        "--thread",
        metavar="ID",
        help="audit only this thread: its id as the audit prints it (b'...', int(...), "
        "float(...) or quoted text where the id is not plain text)",
    )
    audit.add_argument(
        "--shard", type=parse_shard, metavar="i/N", help="audit slice i of N (0-based)"
    )
    audit.add_argument(
        "--shards",
        type=parse_shards,
        metavar="N",
        help=f"audit slice ${JOB_INDEX_ENV} of N (a Kubernetes Indexed Job's pod index)",
    )
    audit.add_argument(
        "--findings-exit",
        type=int,
        choices=(0, 1),
        default=EXIT_INVALID,
        help="the exit code when states are invalid or unreadable; default 1 (0: for job "
        "runners that retry a failed run; the store unusable still exits 2)",
    )
    audit.add_argument(
        "--max-value-mb",
        type=_megabytes,
        default=MAX_VALUE_BYTES,
        metavar="MB",
        help=f"skip (and report) a stored value larger than this; default "
        f"{MAX_VALUE_BYTES // 2**20}",
    )
    audit.add_argument("--json", action="store_true", help="machine-readable output")
    audit.set_defaults(handler=run_audit, usage_error=audit.error)
    return audit


def run_audit(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run `audit` on parsed arguments; returns the exit code: 0 every state valid, 1 some
    invalid or unreadable, 2 the store (or the model) cannot be read at all.

    The model and graph resolve as for `validate` (flag, playground.toml, environment);
    the shard from `--shard`, else `--shards` and JOB_COMPLETION_INDEX (`resolve_shard`).
    `--findings-exit 0` turns exit 1 into 0. Flags that name no shard are a usage error.
    """
    usage_error: Callable[[str], NoReturn] = args.usage_error  # argparse's: prints, exits 2
    spec = args.store or os.environ.get(STORE_ENV, "")  # until the session says which

    def say(line: object) -> None:  # stderr, where a job's log keeps it: no piece of a password
        print(mask_secrets(str(line), spec), file=sys.stderr)

    try:
        shard = resolve_shard(args.shard, args.shards, os.environ)
    except ShardFlagError as conflict:
        usage_error(str(conflict))
    thread = None if args.thread is None else stored_id(args.thread)
    if thread is not None and (args.shard is not None or args.shards is not None):
        usage_error("--thread audits one thread: leave out --shard and --shards")
    if args.shard is None and args.shards is None and JOB_INDEX_ENV in os.environ:
        say(
            f"note: {JOB_INDEX_ENV} is set but neither --shards nor --shard is: this process "
            "audits the whole store"
        )
    flags = [part for name in ("model", "graph") if getattr(args, name) for part in
             (f"--{name}", getattr(args, name))]  # fmt: skip
    project = load_project(flags, os.environ, os.getcwd())
    for error in project.errors:
        say(error)
    for note in project.notes:
        say(f"note: {note}")
    if project.errors:
        return EXIT_UNREADABLE
    # refusals are reported per state below; LangGraph would also log each one
    logging.getLogger("langgraph.checkpoint.serde.jsonplus").setLevel(logging.ERROR)
    try:
        # the store as the pages read it: the argument, else playground.toml, else the env
        session = store_session(
            project, os.environ, os.getcwd(), store=args.store, assistant=args.assistant
        )
        spec = session.store.spec if session.store is not None else ""
        if session.model is None:
            say(
                CodedError(
                    ErrorCode.NO_MODEL,
                    "the graph's state is not a Pydantic model: pass --model too",
                )
            )
            return EXIT_UNREADABLE
        assistant = session.store.assistant if session.store is not None else None
        with open_any(
            spec, session.serde(), assistant=assistant, max_value_bytes=args.max_value_mb
        ) as store:
            for warning in store.warnings:
                say(f"warning: {warning}")
            result = audit_any(
                store, session.model, history=args.history, shard=shard, thread=thread
            )
    except StoreError as error:  # it names the store by its label; masked all the same: a
        say(error)  # driver's text it quotes must not bring a piece of the DSN with it
        return EXIT_UNREADABLE
    except Exception as exc:  # noqa: BLE001 - never a traceback, never the DSN
        say(
            StoreError(
                StoreCode.UNREADABLE,
                f"{store_label(spec)} could not be audited ({type(exc).__name__}); check the "
                "file or server and run the audit again.",
            )
        )
        return EXIT_UNREADABLE
    print_audit(result, args.json, out or sys.stdout)
    return EXIT_OK if result.clean else int(args.findings_exit)


def print_audit(result: AuditResult, as_json: bool, out: TextIO) -> None:
    """The report: `--json`'s object, or a count line then one block per finding."""
    if as_json:
        report = json.dumps(result.to_json(), ensure_ascii=False, indent=2, default=str)
        if not is_utf8(report):  # a crafted TEXT that is not UTF-8: written as \u escapes
            report = json.dumps(result.to_json(), indent=2, default=str)
        print(report, file=out)
        return
    print(
        f"{count(result.threads, 'thread')}, {count(result.checkpoints, 'checkpoint')} audited: "
        f"{len(result.invalid)} invalid, {len(result.unreadable)} unreadable",
        file=out,
    )
    # every field the store supplies (ids, key names, node, messages quoting it) is printed
    # escaped: a crafted one never reaches the terminal as control characters
    text = printable_text
    for state in result.invalid:
        print(f"{printable_id(state.thread_id)}  step {state.step}  node {text(state.node)}  "
              f"{printable_checkpoint(state.checkpoint_id)}", file=out)  # fmt: skip
        for error in state.errors:
            loc = format_path(error["loc"]) if error["loc"] else "(state)"
            print(f"    {text(loc)}: {text(error['type'])}: {text(error['msg'])}", file=out)
    for row in result.unreadable:
        print(f"{printable_id(row.thread_id)}  step {row.step}  unreadable  "
              f"{printable_checkpoint(row.checkpoint_id)}", file=out)  # fmt: skip
        print(f"    [{row.code}] {text(row.message)}", file=out)
