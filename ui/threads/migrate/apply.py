"""Apply the plan: one new checkpoint per fixed thread, written only when the server allows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from core.jsontext.write import dumps, plural
from core.migrate.plan import Plan
from core.migrate.write import write_migration
from core.order import build_order_graph
from core.order.graph import CompiledGraph
from core.stores.demo import DEMO_THREADS
from core.stores.serde import strict_serde
from core.validate.entry_run import entry_graph
from ui import keys
from ui.access import writes_off, writes_reach
from ui.threads.columns import MIGRATE_WRITTEN_LAYOUT
from ui.threads.source import StoreChoice
from ui.threads.store_write import store_write

__all__ = ["apply_section"]


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


def _written(choice: StoreChoice) -> None:
    """What the last Apply on this store wrote (it stays until the next Apply)."""
    written = st.session_state.get(keys.THREADS_MIGRATE_WRITTEN)
    if written is None or written["store"] != [choice.source, choice.label]:
        return
    rows = written["rows"]
    if not rows:
        st.info(
            "Nothing was written: no thread's latest state is both changed by the plan and "
            "accepted by the candidate after it (a migrated thread's latest is its fork)."
        )
        return
    st.success(
        f"Written: {plural(len(rows), 'new checkpoint')}, one per thread migrated (the thread "
        "list above reads them)."
    )
    # the downloads name the fields as `python -m core migrate --json` does
    frame = pd.DataFrame(rows, columns=["thread_id", "from_checkpoint_id", "new_checkpoint_id"])
    shown = frame.set_axis(["thread", "from checkpoint", "new checkpoint"], axis="columns")
    st.dataframe(shown, key=keys.THREADS_MIGRATE_WRITTEN_TABLE, **MIGRATE_WRITTEN_LAYOUT)
    with st.container(horizontal=True, gap="small"):
        st.download_button(
            "Download CSV", frame.to_csv(index=False), "migration-written.csv", "text/csv",
            key=keys.THREADS_MIGRATE_WRITTEN_CSV, on_click="ignore",
        )  # fmt: skip
        st.download_button(
            "Download JSON", dumps(rows, indent=2), "migration-written.json",
            "application/json", key=keys.THREADS_MIGRATE_WRITTEN_JSON, on_click="ignore",
        )  # fmt: skip


def apply_section(
    choice: StoreChoice,
    model: type[BaseModel],
    candidate: type[BaseModel],
    plan: Plan,
    graph: CompiledGraph | None,
) -> None:
    """The Apply button (writes enabled only), then what it wrote."""
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
        "and the candidate then accepts: a fork of that state, through LangGraph's "
        "update_state over the candidate. Existing rows never change."
    )
    if st.button("Apply the plan", key=keys.THREADS_MIGRATE_APPLY, type="primary"):
        written = store_write(
            lambda: write_migration(choice.spec, model, candidate, plan, graph_for,
                                    strict_serde([model, candidate]),
                                    assistant=choice.assistant),
            after="check that the server may write to it.",
        )  # fmt: skip
        if written is None:
            return
        st.session_state[keys.THREADS_MIGRATE_WRITTEN] = {
            "store": [choice.source, choice.label], "rows": [asdict(w) for w in written],
        }  # fmt: skip
        st.session_state.pop(keys.THREADS_MIGRATE_JOB, None)  # the store changed: preview anew
        st.rerun(scope="app")  # the list, the timeline and the preview read the new checkpoints
    _written(choice)
