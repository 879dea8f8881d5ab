"""The Migrate section: a plan from the model to the candidate, edited, previewed, applied."""

from __future__ import annotations

import streamlit as st
from pydantic import BaseModel

from core.jsontext.write import plural
from core.migrate.chain import Chain
from core.migrate.plan import Plan
from core.order.graph import CompiledGraph
from ui import keys
from ui.text import plain
from ui.threads.migrate.apply import apply_section
from ui.threads.migrate.chain import chain_picker, chain_table, standing_table
from ui.threads.migrate.diff import diff_section
from ui.threads.migrate.plan import plan_editor
from ui.threads.migrate.preview import preview_section
from ui.threads.source import StoreChoice

__all__ = ["migrate_section"]

# A stale preview (and its before/after) is drawn in this box, dimmed.
_STALE_BOX = keys.part(keys.THREADS_MIGRATE_STALE, "preview")
_STALE_STYLE = f"<style>.st-key-{_STALE_BOX} {{ opacity: 0.55; }}</style>"


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
    # a chain uploaded (its callback ran before this run) stands in for the table's plan
    table = (
        plan_editor(model, candidate)
        if keys.THREADS_MIGRATE_CHAIN not in st.session_state
        else None
    )
    chain = chain_picker()
    if chain is not None:
        chain_table(chain)
        standing_table(choice, model, candidate, chain)
        _chain_section(choice, model, candidate, chain, graph)
        return
    assert table is not None  # no chain: the editor was drawn
    st.markdown("**Preview**")
    history = st.checkbox(
        "Every checkpoint, not only each thread's latest", key=keys.THREADS_MIGRATE_HISTORY
    )
    plan = _complete_plan(model, candidate, table.plan)
    if plan is None:
        st.info("The preview waits for a plan: finish the rows named above.")
        return
    st.html(_STALE_STYLE)
    with st.container(key=_STALE_BOX) if plan is not table.plan else st.container():
        preview = preview_section(choice, model, candidate, plan, history)
        if preview is None:
            return
        st.markdown("**One thread, before and after**")
        diff_section(choice, model, candidate, plan, preview)
    st.markdown("**Apply**")
    apply_section(choice, model, candidate, table.plan, graph)


def _chain_section(
    choice: StoreChoice,
    model: type[BaseModel],
    candidate: type[BaseModel],
    chain: Chain,
    graph: CompiledGraph | None,
) -> None:
    """The preview, a thread before and after, and Apply, of the whole chain: each thread
    from where it stands."""
    st.markdown("**Preview**")
    history = st.checkbox(
        "Every checkpoint, not only each thread's latest", key=keys.THREADS_MIGRATE_HISTORY
    )
    preview = preview_section(choice, model, candidate, chain, history)
    if preview is None:
        return
    st.markdown("**One thread, before and after** (through every plan of the chain)")
    diff_section(choice, model, candidate, chain, preview)
    st.markdown("**Apply**")
    apply_section(choice, model, candidate, chain, graph)


def _complete_plan(
    model: type[BaseModel], candidate: type[BaseModel], plan: Plan | None
) -> Plan | None:
    """The table's plan, kept as the last complete one; while a row is half-typed, the last
    complete plan (its preview marked stale); None before any."""
    of = [model.__qualname__, candidate.__qualname__]
    if plan is not None:
        st.session_state[keys.THREADS_MIGRATE_LAST_PLAN] = {"of": of, "plan": plan}
        return plan
    last = st.session_state.get(keys.THREADS_MIGRATE_LAST_PLAN)
    if last is None or last["of"] != of:
        return None
    kept: Plan = last["plan"]
    st.container(key=keys.THREADS_MIGRATE_STALE).warning(
        "Stale: the preview below is of the last complete plan "
        f"({plural(len(kept.steps), 'step')}); the rows named above are not in it until "
        "they are finished."
    )
    return kept
