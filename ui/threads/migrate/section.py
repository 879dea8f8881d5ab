"""The Migrate section: a plan from the model to the candidate, edited, previewed, applied."""

from __future__ import annotations

import streamlit as st
from pydantic import BaseModel

from core.order.graph import CompiledGraph
from ui import keys
from ui.text import plain
from ui.threads.migrate.apply import apply_section
from ui.threads.migrate.diff import diff_section
from ui.threads.migrate.plan import plan_editor
from ui.threads.migrate.preview import preview_section
from ui.threads.source import StoreChoice

__all__ = ["migrate_section"]


@st.fragment
def migrate_section(
    choice: StoreChoice,
    model: type[BaseModel],
    offered: tuple[type[BaseModel], str] | None,
    graph: CompiledGraph | None,
) -> None:
    """The section under its own heading; a fragment, so an edit reruns only it. `offered`
    is the page's candidate (`offered_candidate`); `graph` the project's, if configured."""
    st.subheader("Migrate")
    if offered is None:
        st.caption(
            "Migrating the stored threads needs the changed model to carry them to: configure "
            "it with --candidate, candidate = ... in playground.toml or PLAYGROUND_CANDIDATE."
        )
        return
    candidate = offered[0]
    st.caption(
        f"Carry the stored threads from {plain(model.__name__)} to {plain(candidate.__name__)}: "
        "the proposed steps (edit them, or upload a plan), their preview over this store, any "
        "thread before and after, then Apply (when the server allows writes)."
    )
    table = plan_editor(model, candidate)
    st.markdown("**Preview**")
    history = st.checkbox(
        "Every checkpoint, not only each thread's latest", key=keys.THREADS_MIGRATE_HISTORY
    )
    if table.plan is None:
        st.info("The preview waits for a plan: fix the rows named above.")
        return
    preview = preview_section(choice, model, candidate, table.plan, history)
    if preview is None:
        return
    st.markdown("**One thread, before and after**")
    diff_section(choice, model, candidate, table.plan, preview)
    st.markdown("**Apply**")
    apply_section(choice, model, candidate, table.plan, graph)
