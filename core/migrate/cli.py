"""`python -m core migrate STORE --model M --candidate M2 [--plan P] [--apply] [--export F]`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from core.errors import ErrorCode
from core.project import load_project
from core.stores.backends.thread_ids import (
    is_utf8,
    printable_checkpoint,
    printable_id,
    printable_text,
)
from core.stores.errors import StoreError, coded
from core.stores.open import STORE_ENV, store_label
from core.stores.spec import mask_secrets
from core.stores.unbrick import UnbrickError, require_writes
from core.words import count

__all__ = ["EXIT_BROKEN", "EXIT_OK", "EXIT_UNUSABLE", "add_migrate_parser", "run_migrate"]

EXIT_OK, EXIT_BROKEN, EXIT_UNUSABLE = 0, 1, 2


def add_migrate_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Add the `migrate` command to `python -m core`'s subparsers."""
    migrate = subparsers.add_parser(
        "migrate",
        help="propose, preview, export or apply a migration of the stored threads",
        description="Without --plan: the proposed plan (TOML) and its preview. Exit 0: no "
        "state stays broken; 1: some do; 2: the plan, the store or a model is unusable.",
    )
    migrate.add_argument(
        "store",
        nargs="?",
        help=f"a store as for audit; default: playground.toml's store, else ${STORE_ENV}",
    )
    migrate.add_argument("--model", help="the model the threads were written with")
    migrate.add_argument("--candidate", help="the changed model, as package.module:Class")
    migrate.add_argument("--graph", help="the threads' StateGraph (to write the forks with)")
    migrate.add_argument("--assistant", help="a LangGraph server: one graph's threads")
    migrate.add_argument(
        "--plan", help="a plan file (TOML [[step]] tables), or a folder of plans: a chain"
    )
    migrate.add_argument("--to", help="with a chain: stop after the plan of this id")
    migrate.add_argument("--history", action="store_true", help="every checkpoint, not the latest")
    migrate.add_argument("--apply", action="store_true", help="write the forks (writes enabled)")
    migrate.add_argument("--export", help="write the plan as a Python module here")
    migrate.add_argument("--json", action="store_true", help="machine-readable output")
    migrate.set_defaults(handler=run_migrate)
    return migrate


def _fail(message: str, spec: str) -> int:
    """Exit 2 after `message` on stderr, where a job's log keeps it: no piece of a password."""
    print(mask_secrets(message, spec), file=sys.stderr)
    return EXIT_UNUSABLE


def run_migrate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run `migrate` on parsed arguments; returns 0, 1 or 2 (see the parser's description)."""
    from core.migrate.chain import Chain, load_chain
    from core.migrate.export import export_module
    from core.migrate.plan import PlanError, plan_toml
    from core.migrate.preview import preview_migration
    from core.migrate.propose import propose
    from core.stores.reader import open_any
    from core.stores.serde import strict_serde
    from core.stores.session import store_session

    out = out or sys.stdout
    spec = args.store or os.environ.get(STORE_ENV, "")
    flags = [part for name in ("model", "graph", "candidate") if getattr(args, name)
             for part in (f"--{name}", getattr(args, name))]  # fmt: skip
    project = load_project(flags, os.environ, os.getcwd())
    if project.errors:
        return _fail("\n".join(str(error) for error in project.errors), spec)
    if project.candidate is None and project.spec.candidate:  # given, but it did not load
        return _fail("\n".join(str(note) for note in project.notes), spec)
    if project.model is None or project.candidate is None:
        return _fail(f"[{ErrorCode.NO_MODEL}] a migration needs the model the threads were "
                     "written with (--model) and the changed one (--candidate).", spec)  # fmt: skip
    if args.apply and project.graph is None and not project.seed_model:
        return _fail(f"[{ErrorCode.NO_GRAPH}] --apply writes each fork through the threads' "
                     "own graph: pass it with --graph.", spec)  # fmt: skip
    model, candidate = project.model, project.candidate
    notes: dict[int, str] = {}
    try:
        if args.plan:
            chain = load_chain(args.plan).to(args.to)
        else:
            proposal = propose(model, candidate)
            chain, notes = Chain.of(proposal.plan), proposal.notes
    except PlanError as error:
        return _fail(str(error), spec)  # it names the plan's file
    if args.to and not args.plan:
        return _fail(f"[{ErrorCode.PLAN_CHAIN}] --to names a plan of a chain: pass the chain's "
                     "folder with --plan.", spec)  # fmt: skip
    plan = chain.plan()
    if args.export:
        source = export_module(plan, model_name=candidate.__name__)
        Path(args.export).write_text(source, encoding="utf-8")
    try:
        # the store as the pages read it (argument, playground.toml, environment), decoded
        # with every type the models and the graph declare
        session = store_session(
            project, os.environ, os.getcwd(), store=args.store, assistant=args.assistant
        )
    except StoreError as error:
        return _fail(str(error), spec)
    spec = session.store.spec if session.store is not None else ""
    assistant = session.store.assistant if session.store is not None else None
    serde = strict_serde([*session.allowed, *chain.models])  # every version the store may hold
    try:
        if args.apply:  # refused before the preview reads the whole store
            require_writes(spec)
        with open_any(spec, serde, assistant=assistant) as store:
            preview = preview_migration(store, model, candidate, chain, history=args.history)
        if args.apply:
            preview.written = [vars(w) for w in _apply(spec, project, chain, serde, assistant)]
    except (StoreError, UnbrickError) as error:
        return _fail(str(error), spec)
    except Exception as error:  # noqa: BLE001 - never a traceback, never the DSN
        return _fail(str(coded(error, store_label(spec))), spec)
    _print(preview.to_json(), plan_toml(plan, notes) if not args.plan else "", args.json, out)
    # a checkpoint that cannot be read cannot be migrated either: its thread stays broken
    return EXIT_BROKEN if preview.still_broken or preview.unreadable else EXIT_OK


def _apply(spec: str, project: Any, chain: Any, serde: Any, assistant: str | None) -> list[Any]:
    from core.migrate.write import write_migration
    from core.order import build_order_graph

    graph = project.graph if project.graph is not None else build_order_graph()
    return write_migration(spec, project.model, project.candidate, chain, lambda _: graph, serde,
                           assistant=assistant)  # fmt: skip


def _print(report: dict[str, Any], proposed: str, as_json: bool, out: TextIO) -> None:
    if as_json:
        text = json.dumps(report, ensure_ascii=False, indent=2, default=str)
        if not is_utf8(text):  # a crafted TEXT that is not UTF-8: written as \u escapes
            text = json.dumps(report, indent=2, default=str)
        print(text, file=out)
        return
    if proposed:
        print("# The proposed plan (save it, edit it, pass it with --plan):", file=out)
        print(proposed, file=out)
    print(
        f"{count(report['threads'], 'thread')}, {count(report['checkpoints'], 'checkpoint')} "
        "previewed: "
        f"{report['broken_before']} broken under the candidate, {report['fixed']} fixed by the "
        f"plan, {len(report['still_broken'])} still broken",
        file=out,
    )
    for step in report["steps"]:
        plan = f"{step['plan']}: " if step["plan"] else ""
        answer = "  (to answer: it changes nothing until you do)" if step["to_answer"] else ""
        print(f"  {plan}{step['action']:<8} {printable_text(step['path'])}: changed "
              f"{step['changed']}, fixed {step['fixed']}{answer}", file=out)  # fmt: skip
    for state in report["still_broken"][:20]:
        first = state["errors"][0]
        loc = printable_text(".".join(str(part) for part in first["loc"])) or "(state)"
        print(f"  still broken: {printable_id(state['thread_id'])} "
              f"{printable_checkpoint(state['checkpoint_id'])}  {loc}: "
              f"{printable_text(first['type'])}", file=out)  # fmt: skip
    for row in report["unreadable"][:20]:
        # a thread_id_not_text row's id is already printed as the audit prints it
        shown = (
            row["thread_id"]
            if row["code"] == "thread_id_not_text"
            else printable_id(row["thread_id"])
        )
        print(f"  unreadable: {shown} {printable_checkpoint(row['checkpoint_id'])}  "
              f"[{row['code']}] {printable_text(row['message'])}", file=out)  # fmt: skip
    for written in report["written"]:
        print(f"  written: {printable_id(written['thread_id'])} "
              f"{printable_checkpoint(written['from_checkpoint_id'])} -> "
              f"{printable_checkpoint(written['new_checkpoint_id'])}", file=out)  # fmt: skip
