"""The unbrick section: edit a broken state, validate it, see the dry run, then write it."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st
from langgraph.graph.state import CompiledStateGraph
from pydantic import BaseModel

from core.jsontext.payload import PayloadError, parse
from core.stores.reader import write_fork
from core.stores.serde import strict_serde
from core.stores.timeline import Timeline
from core.stores.unbrick import UnbrickCode, UnbrickError, plan_unbrick
from core.trace.fork import edit_errors
from core.validate.report import validate_value
from ui import keys
from ui.editor.json_editor import Mark
from ui.editor.payload import editor_text, payload_editor, set_payload_text
from ui.errors.view import error_table
from ui.threads.source import StoreChoice
from ui.threads.store_write import store_write
from ui.threads.timeline import as_json

__all__ = ["unbrick_section"]


def _editor_text(timeline: Timeline) -> str:
    state = (timeline.blamed or timeline.checkpoints[-1]).state
    return json.dumps(as_json(state), ensure_ascii=False, indent=2)


def unbrick_section(
    choice: StoreChoice,
    timeline: Timeline,
    model: type[BaseModel],
    graph: CompiledStateGraph[Any, Any, Any, Any] | None,
) -> None:
    """Only shown when the server enables writes; the page checks `writes_enabled()`."""
    if graph is None:
        st.info(
            "Unbrick writes through your graph's update_state: configure it with --graph "
            "(or PLAYGROUND_GRAPH) to unbrick threads of this store."
        )
        return
    written = st.session_state.pop(keys.THREADS_UNBRICK_WRITTEN, None)
    if written is not None:
        st.success("Written. The thread's new latest checkpoint (the list above includes it):")
        st.json(written)
    default = _editor_text(timeline)
    if st.session_state.get(keys.THREADS_UNBRICK_OF) != timeline.thread_id:
        set_payload_text(
            default, key=keys.THREADS_UNBRICK_TEXT
        )  # another thread: its own broken state
        st.session_state[keys.THREADS_UNBRICK_OF] = timeline.thread_id
        st.session_state.pop(keys.THREADS_UNBRICK_PLAN, None)
    # Checked as typed: each error of the edit is marked where it is before the dry run.
    marks = [
        Mark(*where)
        for where in edit_errors(editor_text(keys.THREADS_UNBRICK_TEXT, default), model)
    ]
    text = payload_editor(
        keys.THREADS_UNBRICK_TEXT,
        default,
        marks=marks,
        label="The state to write (edit the broken fields)",
    )
    if st.button("Validate and dry run", key=keys.THREADS_UNBRICK_VALIDATE):
        st.session_state.pop(keys.THREADS_UNBRICK_PLAN, None)
        try:
            edited = parse(text)
            st.session_state[keys.THREADS_UNBRICK_PLAN] = (
                text,
                plan_unbrick(timeline, edited, model, graph),
            )
        except PayloadError as error:
            st.error("The edited state is not valid JSON:")
            st.code(str(error), language=None)
        except UnbrickError as error:
            st.error("Nothing will be written:")
            st.code(str(error), language=None, wrap_lines=True)
            if error.code == UnbrickCode.INVALID_EDIT:
                error_table(
                    validate_value(edited, model), key=keys.THREADS_UNBRICK_ERRORS, texts=None
                )
    planned = st.session_state.get(keys.THREADS_UNBRICK_PLAN)
    if planned is None or planned[0] != text:  # the dry run of this very text, never a stale one
        return
    plan = planned[1]
    st.success("Valid. This is exactly what will be written (a new checkpoint; no row changes):")
    st.json(as_json(plan.dry_run()))
    if st.button("Write", key=keys.THREADS_UNBRICK_WRITE, type="primary"):
        written = store_write(
            lambda: write_fork(choice.spec, plan, graph, strict_serde([model])),
            after="nothing was changed. Check that the server may write to it.",
        )
        if written is None:
            return
        st.session_state.pop(keys.THREADS_UNBRICK_PLAN, None)
        st.session_state.pop(keys.THREADS_UNBRICK_OF, None)
        st.session_state[keys.THREADS_UNBRICK_WRITTEN] = as_json(written)
        # the timeline opens on the new head: the slider's old index would name another row
        st.session_state[keys.THREADS_OPEN_AT] = written["configurable"]["checkpoint_id"]
        st.rerun()  # the list and the timeline above now read the new checkpoint
