"""Apply the plan: what it writes, its dry run (the rows), Write on confirmation, what it
wrote and how to resume; written only when the server allows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import streamlit as st
from pydantic import BaseModel

from core.jsontext.write import dumps, plural
from core.migrate.write import Written, write_migration
from core.order import build_order_graph
from core.order.graph import CompiledGraph
from core.stores.demo import DEMO_THREADS
from core.stores.errors import coded
from core.stores.reader import open_any, timeline_of
from core.stores.serde import strict_serde
from core.validate.entry_run import entry_graph
from ui import keys
from ui.access import writes_off, writes_reach
from ui.heavy import heavy_slot
from ui.text import plain
from ui.threads.columns import MIGRATE_WRITTEN_LAYOUT
from ui.threads.migrate.chained import Migration, migration_text, serde_models
from ui.threads.migrate.outcomes import forks
from ui.threads.source import StoreChoice
from ui.threads.store_write import (
    planned_table,
    server_assistant,
    store_write,
    what_next,
    written_table,
)

__all__ = ["apply_section"]

_ONLY_DROPPED = "(none: only fields the candidate lacks go away)"


def _graph_for(
    choice: StoreChoice, model: type[BaseModel], graph: CompiledGraph | None
) -> Callable[[str], CompiledGraph] | None:
    """Each thread's graph, as the page unbricks with it: the demo's seed graph with the
    thread's faults, the server's own (its reducers are the model's), or yours."""
    if choice.is_demo:
        return lambda thread: build_order_graph(DEMO_THREADS.get(thread, ((),))[0])
    if choice.source == "server":
        return lambda _: entry_graph(model)  # not run: the server writes through its API
    return None if graph is None else (lambda _: graph)


def _signature(choice: StoreChoice, model: type[BaseModel], candidate: type[BaseModel],
               plan: Migration) -> list[str]:  # fmt: skip
    """What a dry run is of: the store, the models and the plan (any change withdraws it)."""
    return [choice.source, choice.label, str(choice.assistant), model.__qualname__,
            candidate.__qualname__, migration_text(plan)]  # fmt: skip


def _dry_run(choice: StoreChoice, model: type[BaseModel], candidate: type[BaseModel],
             plan: Migration) -> None:  # fmt: skip
    """Find the forks Apply would write now and keep them with what they are of."""
    st.session_state.pop(keys.THREADS_MIGRATE_PLANNED, None)
    try:
        # a walk of the whole store, as the preview's: it queues for a heavy-job slot
        with (
            heavy_slot(keys.THREADS_MIGRATE_PREVIEW, "The dry run", _no_dry_run),
            open_any(
                choice.spec,
                strict_serde(serde_models(model, candidate, plan)),
                assistant=choice.assistant,
            ) as store,
        ):
            found = forks(store, model, candidate, plan)
    except Exception as error:  # noqa: BLE001 - a store is untrusted: coded, never a traceback
        st.error("The store cannot be read:")
        st.code(str(coded(error, choice.label)), language=None, wrap_lines=True)
        return
    st.session_state[keys.THREADS_MIGRATE_PLANNED] = {
        "of": _signature(choice, model, candidate, plan),
        "rows": [{"thread_id": fork.thread_id, "from_checkpoint_id": fork.checkpoint_id,
                  "fields": dumps(fork.fields) if fork.fields else _ONLY_DROPPED}
                 for fork in found],
    }  # fmt: skip


def _no_dry_run() -> None:
    st.session_state.pop(keys.THREADS_MIGRATE_PLANNED, None)


def _planned(choice: StoreChoice, model: type[BaseModel], candidate: type[BaseModel],
             plan: Migration) -> list[dict[str, str]] | None:  # fmt: skip
    """The dry run of this very plan on this store (None: none yet, or of another plan)."""
    planned = st.session_state.get(keys.THREADS_MIGRATE_PLANNED)
    if planned is None or planned["of"] != _signature(choice, model, candidate, plan):
        return None
    rows: list[dict[str, str]] = planned["rows"]
    return rows


def _show_planned(rows: list[dict[str, str]]) -> None:
    if not rows:
        st.info(
            "Nothing to write: no thread's latest state is both changed by the plan and "
            "accepted by the candidate after it (a migrated thread's latest is its fork)."
        )
        return
    st.success(
        f"Dry run: {plural(len(rows), 'new checkpoint')} will be written, one per thread, "
        "each forked from the checkpoint named, with these fields (nothing is written yet):"
    )
    shown = [{"thread": row["thread_id"], "from checkpoint": row["from_checkpoint_id"],
              "fields written": row["fields"]} for row in rows]  # fmt: skip
    planned_table(shown, keys.THREADS_MIGRATE_PLANNED_TABLE)


def _written(choice: StoreChoice, candidate: type[BaseModel]) -> None:
    """What the last Apply on this store wrote (it stays until the next Apply), and how to
    resume the threads written."""
    written = st.session_state.get(keys.THREADS_MIGRATE_WRITTEN)
    if written is None or written["store"] != [choice.source, choice.label]:
        return
    rows = written["rows"]
    if not written["as_planned"]:
        st.warning(
            "The store changed between the dry run and the write: what was written is not "
            "what the dry run showed."
        )
    if not rows:
        st.info(
            "Nothing was written: no thread's latest state is both changed by the plan and "
            "accepted by the candidate after it (a migrated thread's latest is its fork)."
        )
        return
    st.success(
        f"Written: {plural(len(rows), 'new checkpoint')}, one per thread migrated (the thread "
        "list reads them)."
    )
    # the downloads name the fields as `python -m core migrate --json` does
    frame = written_table(rows, keys.THREADS_MIGRATE_WRITTEN_TABLE, **MIGRATE_WRITTEN_LAYOUT)
    with st.container(horizontal=True, gap="small"):
        st.download_button(
            "Download CSV", frame.to_csv(index=False), "migration-written.csv", "text/csv",
            key=keys.THREADS_MIGRATE_WRITTEN_CSV, on_click="ignore",
        )  # fmt: skip
        st.download_button(
            "Download JSON", dumps(rows, indent=2), "migration-written.json",
            "application/json", key=keys.THREADS_MIGRATE_WRITTEN_JSON, on_click="ignore",
        )  # fmt: skip
    theirs = plain(candidate.__name__)
    said = {
        "None": f"Next: run each migrated thread that waits on a node on from its new "
        f"checkpoint with your graph built over {theirs}:",
        "new_input": "Next: no node is due at the new checkpoint of each thread below, so its "
        f"run is complete; its next input starts a new run over {theirs}:",
    }
    pending = written.get("pending") or {row["thread_id"]: [] for row in rows}
    what_next(choice, pending, said, server_assistant(choice, rows[0]["thread_id"]))


def _pending(
    choice: StoreChoice, candidate: type[BaseModel], serde: Any, written: list[Written]
) -> dict[str, list[str]]:
    """Each written thread's nodes due at its new checkpoint, as the timeline reads them
    (none: its run had ended; resume_input decides the call from them)."""
    due: dict[str, list[str]] = {}
    with open_any(choice.spec, serde) as store:
        for row in written:
            timeline = timeline_of(store, row.thread_id, candidate)
            heads = [c for c in (timeline.checkpoints if timeline else [])
                     if c.checkpoint_id == row.new_checkpoint_id]  # fmt: skip
            due[row.thread_id] = list(heads[0].pending) if heads else []
    return due


def apply_section(
    choice: StoreChoice,
    model: type[BaseModel],
    candidate: type[BaseModel],
    plan: Migration | None,
    graph: CompiledGraph | None,
) -> None:
    """What Apply writes, in one sentence; its dry run; Write on confirmation (writes enabled
    only); then what it wrote and how to resume. `plan` None: the table holds no complete
    plan (the preview above is the last one's): nothing can be applied."""
    if not writes_reach(choice.source):
        st.caption(f"{writes_off('Applying the plan')}; the preview above writes nothing.")
        return
    graph_for = _graph_for(choice, model, graph)
    if graph_for is None:
        st.info(
            "Apply writes through your graph's update_state: configure it with --graph "
            "(or PLAYGROUND_GRAPH) to migrate threads of this store."
        )
        return
    st.caption(
        "Apply writes one new checkpoint for each thread whose latest state the plan changes "
        "and the candidate then accepts, forked from that latest checkpoint through "
        "LangGraph's update_state over the candidate; existing rows never change. Dry-run it "
        "to see the rows, then confirm."
    )
    if plan is None:
        st.caption("Apply waits for a complete plan: finish or delete the rows named above.")
        _written(choice, candidate)
        return
    if st.button("Dry run", key=keys.THREADS_MIGRATE_DRY_RUN):
        # a new round: the last write's rows and resume calls are not this dry run's (they
        # stayed under it, "Nothing to write" above "Written")
        st.session_state.pop(keys.THREADS_MIGRATE_WRITTEN, None)
        _dry_run(choice, model, candidate, plan)
    rows = _planned(choice, model, candidate, plan)
    if rows is not None:
        _show_planned(rows)
    if rows and st.button(f"Write {plural(len(rows), 'checkpoint')}",
                          key=keys.THREADS_MIGRATE_APPLY, type="primary"):  # fmt: skip
        serde = strict_serde(serde_models(model, candidate, plan))
        written = store_write(
            lambda: write_migration(choice.spec, model, candidate, plan, graph_for, serde,
                                    assistant=choice.assistant),
            after="check that the server may write to it.",
        )  # fmt: skip
        if written is None:
            return
        st.session_state[keys.THREADS_MIGRATE_WRITTEN] = {
            "store": [choice.source, choice.label], "rows": [asdict(w) for w in written],
            "pending": _pending(choice, candidate, serde, written),
            "as_planned": [(w.thread_id, w.from_checkpoint_id) for w in written]
            == [(r["thread_id"], r["from_checkpoint_id"]) for r in rows],
        }  # fmt: skip
        opened = st.session_state.get(keys.THREADS_STEP_OF)  # the thread open, if written:
        for row in written:  # its Timeline opens on its new head, as after an Unbrick
            if row.thread_id == opened:
                st.session_state[keys.THREADS_OPEN_AT] = row.new_checkpoint_id
        st.session_state.pop(keys.THREADS_MIGRATE_PLANNED, None)  # written: dry-run anew
        st.session_state.pop(keys.THREADS_MIGRATE_JOB, None)  # the store changed: preview anew
        st.rerun(scope="app")  # the list, the timeline and the preview read the new checkpoints
    _written(choice, candidate)
