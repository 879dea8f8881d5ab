"""Threads page: a checkpoint store's threads, each stored state validated, the writer blamed."""

from __future__ import annotations

import streamlit as st

from core.order import build_order_graph
from core.stores.demo import DEMO_THREADS
from core.stores.errors import StoreCode, StoreError, coded
from core.stores.reader import get_state_said, open_any, timeline_of
from core.stores.serde import strict_serde
from core.validate.entry_run import entry_graph
from ui import keys
from ui.access import writes_off, writes_reach
from ui.project import active_project
from ui.tables import room_for_table_toolbars
from ui.threads.audit import audit_section
from ui.threads.coded import show_coded
from ui.threads.guard_view import guard_view
from ui.threads.judge import judging
from ui.threads.listing import thread_list
from ui.threads.migrate.section import migrate_section
from ui.threads.reading import read_slot, reading_cancelled
from ui.threads.share import (
    THREAD_TABS,
    drop_link_notes,
    model_note,
    restore_threads_link,
    store_note,
    thread_note,
    threads_share,
)
from ui.threads.source import choose_store
from ui.threads.timeline import set_step, thread_headline, thread_view
from ui.threads.unbrick import unbrick_section

st.title("Threads")
room_for_table_toolbars()  # on a phone, no toolbar covers a caption
st.caption(
    "Read a LangGraph checkpoint store (read-only, strict deserialization): every thread's "
    "status, each stored state validated against the model, and the node whose write broke it "
    "— even where LangGraph's own get_state raises."
)
project = active_project()
restore_threads_link()  # a share link's store, filters, thread, checkpoint and tab
choice = choose_store()
store_note(choice)
if choice is None:
    drop_link_notes()
    st.stop()
st.caption("Reading:")
st.code(choice.label, language=None)
judged = judging(project, choice)  # the one model every view below judges with
model_note(judged.offered is not None)
if reading_cancelled(choice):  # an upload waits for a heavy-job slot, and may be cancelled
    drop_link_notes()
    st.stop()
try:
    with read_slot(choice), open_any(choice.spec, strict_serde(judged.allowed),
                                      assistant=choice.assistant) as store:  # fmt: skip
        for warning in store.warnings:  # the role the store is read as: coded, plain text
            show_coded("The store is read, but", warning, level="warning")
        # The thread list beside the open thread (stacked on a phone); the thread's tools
        # as tabs under both, the page's whole width (its tables are laid out for it)
        list_col, thread_col = st.columns([5, 3], gap="medium")
        with list_col:
            st.subheader("Thread list")
            thread = thread_list(store, judged.model, judged.current)
            thread_note(thread)
        timeline = timeline_of(store, thread, judged.judge) if thread else None
        if timeline is not None:
            set_step(timeline)  # before the share link below reads the step
        with thread_col:
            st.subheader("Open thread")
            if timeline is not None:
                said = get_state_said(store, judged.graph, timeline)
                thread_headline(
                    timeline, judged.judge.__name__, said, candidate=judged.current is not None
                )
            else:  # no empty panel: what needs a thread says so
                st.info(
                    "No thread is open: the Timeline, Guard and Unbrick tabs need one; Audit "
                    "and Migrate read the whole store."
                )
            threads_share(choice, thread)  # a link to the list as filtered, too
        # Stateful tabs: their choice is kept (ui.keys.THREADS_TAB), so a link reopens it
        drawn = st.tabs(THREAD_TABS, key=keys.THREADS_TAB, on_change="rerun")
        tabs = dict(zip(THREAD_TABS, drawn, strict=True))
        if timeline is not None:
            with tabs["Timeline"]:
                thread_view(timeline, judged.judge)
            with tabs["Guard"]:  # the thread as core.guard's GuardedSaver reads it
                guard_view(store, timeline, judged)
        else:
            tabs["Timeline"].caption("Open a thread to see its checkpoints.")
            tabs["Guard"].caption("Open a thread to see how the guard reads it.")
except Exception as error:  # noqa: BLE001 - a store is untrusted: never a traceback here
    refused = coded(error, choice.label)
    if choice.source == "upload":  # name the user's file, not this session's temp copy
        named = choice.label.removeprefix("uploaded file ")
        refused = StoreError(StoreCode(refused.code), refused.message.replace(choice.spec, named))
    show_coded("This store cannot be read", refused)
    drop_link_notes()
    st.stop()

with tabs["Audit"]:
    audit_section(choice, judged.judge, judged.allowed)
with tabs["Migrate"]:
    migrate_section(choice, judged.model, judged.offered, project.graph)
with tabs["Unbrick"]:
    if not writes_reach(choice.source):
        st.caption(f"{writes_off('Writing a repaired state')}; the other tabs are read-only.")
    elif timeline is not None:
        graph = judged.graph
        if choice.is_demo:
            graph = build_order_graph(DEMO_THREADS.get(timeline.thread_id, ((),))[0])
        elif choice.source == "server" and graph is None:
            graph = entry_graph(judged.model)  # the server runs the graph; its reducers
        unbrick_section(choice, timeline, judged.model, graph)
    else:
        st.caption("Open a thread to unbrick it.")
