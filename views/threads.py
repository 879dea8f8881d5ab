"""Threads page: a checkpoint store's threads, each stored state validated, the writer blamed."""

from __future__ import annotations

import streamlit as st

from core.order import AgentState, build_order_graph
from core.stores.demo import DEMO_THREADS
from core.stores.errors import coded
from core.stores.reader import get_state_said, open_any, timeline_of
from core.stores.serde import strict_serde
from core.stores.session import allowed_types
from core.validate.entry_run import entry_graph
from ui.access import writes_off, writes_reach
from ui.project import active_project
from ui.tables import room_for_table_toolbars
from ui.threads.audit import audit_section
from ui.threads.listing import choose_models, offered_candidate, thread_list
from ui.threads.migrate.section import migrate_section
from ui.threads.reading import read_slot, reading_cancelled
from ui.threads.share import (
    drop_link_notes,
    model_note,
    restore_threads_link,
    store_note,
    thread_note,
    threads_share,
)
from ui.threads.source import choose_store
from ui.threads.timeline import thread_view
from ui.threads.unbrick import unbrick_section

st.title("Threads")
room_for_table_toolbars()  # on a phone, no toolbar covers a caption
st.caption(
    "Read a LangGraph checkpoint store (read-only, strict deserialization): every thread's "
    "status, each stored state validated against the model, and the node whose write broke it "
    "— even where LangGraph's own get_state raises."
)
project = active_project()
restore_threads_link()  # a share link's store, filters, thread and checkpoint
choice = choose_store()
store_note(choice)
if choice is None:
    drop_link_notes()
    st.stop()
st.caption("Reading:")
st.code(choice.label, language=None)
model = project.model or AgentState
offered = offered_candidate(model, project.candidate, project.spec.candidate_from)
current = choose_models(model, offered, project.spec.model_from if project.model else "default")
model_note(offered is not None)
# The graph LangGraph's own get_state runs with: the demo's seed graph, or yours (none is
# assumed for a store of your own when no graph is configured)
graph = build_order_graph() if choice.is_demo else project.graph
# Read with the types the command line reads with: the models and the graph's schemas
allowed = allowed_types(model, offered[0] if offered is not None else None, graph)
if reading_cancelled(choice):  # an upload waits for a heavy-job slot, and may be cancelled
    drop_link_notes()
    st.stop()
try:
    with read_slot(choice), open_any(choice.spec, strict_serde(allowed),
                                      assistant=choice.assistant) as store:  # fmt: skip
        for warning in store.warnings:  # the role the store is read as: coded, plain text
            st.warning("The store is read, but:")
            st.code(str(warning), language=None, wrap_lines=True)
        st.subheader("Thread list")
        thread = thread_list(store, model, current)
        thread_note(thread)
        timeline = timeline_of(store, thread, model) if thread else None
        if timeline is not None:
            st.subheader("One thread")
            thread_view(timeline, model, get_state_said(store, graph, timeline))
        threads_share(choice, thread)
except Exception as error:  # noqa: BLE001 - a store is untrusted: never a traceback here
    st.error("This store cannot be read:")
    message = str(coded(error, choice.label))
    if choice.source == "upload":  # name the user's file, not this session's temp copy
        message = message.replace(choice.spec, choice.label.removeprefix("uploaded file "))
    st.code(message, language=None, wrap_lines=True)
    drop_link_notes()
    st.stop()

st.subheader("Audit")
audit_section(choice, model, offered[0] if offered is not None else None)
migrate_section(choice, model, offered, project.graph)

st.subheader("Unbrick")
if not writes_reach(choice.source):
    st.caption(f"{writes_off('Writing a repaired state')}; everything above is read-only.")
elif timeline is not None:
    if choice.is_demo:
        graph = build_order_graph(DEMO_THREADS.get(timeline.thread_id, ((),))[0])
    elif choice.source == "server" and graph is None:
        graph = entry_graph(model)  # the server runs the graph; its reducers are the model's
    unbrick_section(choice, timeline, model, graph)
