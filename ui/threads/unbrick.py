"""The unbrick section: edit a broken state, validate it, see the dry run, then write it."""

from __future__ import annotations

import json

import streamlit as st
from langgraph.graph.state import CompiledStateGraph
from pydantic import BaseModel

from core.jsontext.payload import PayloadError, parse
from core.stores.serde import strict_serde
from core.stores.timeline import Timeline
from core.stores.unbrick import UnbrickCode, UnbrickError, plan_unbrick, write_unbrick
from core.validate.report import validate_value
from ui.errors import error_table
from ui.threads.source import StoreChoice
from ui.threads.timeline import as_json

__all__ = ["unbrick_section"]

_PLAN = "threads_unbrick_plan"
_WRITTEN = "threads_unbrick_written"


def _forget_plan() -> None:
    st.session_state.pop(_PLAN, None)


def _editor_text(timeline: Timeline) -> str:
    state = (timeline.blamed or timeline.checkpoints[-1]).state
    return json.dumps(as_json(state), ensure_ascii=False, indent=2)


def unbrick_section(
    choice: StoreChoice,
    timeline: Timeline,
    model: type[BaseModel],
    graph: CompiledStateGraph | None,
) -> None:
    """Only shown when the server enables writes; the page checks `writes_enabled()`."""
    if graph is None:
        st.info(
            "Unbrick writes through your graph's update_state: configure it with --graph "
            "(or PLAYGROUND_GRAPH) to unbrick threads of this store."
        )
        return
    written = st.session_state.pop(_WRITTEN, None)
    if written is not None:
        st.success("Written. The thread's new latest checkpoint (the list above includes it):")
        st.json(written)
    if st.session_state.get("threads_unbrick_of") != timeline.thread_id:
        st.session_state["threads_unbrick_text"] = _editor_text(timeline)
        st.session_state["threads_unbrick_of"] = timeline.thread_id
        st.session_state.pop(_PLAN, None)
    st.text_area(
        "The state to write (edit the broken fields)",
        key="threads_unbrick_text",
        height=300,
        on_change=_forget_plan,  # a dry run shows what will be written: never a stale one
    )
    if st.button("Validate and dry run", key="threads_unbrick_validate"):
        st.session_state.pop(_PLAN, None)
        try:
            edited = parse(st.session_state["threads_unbrick_text"])
            st.session_state[_PLAN] = plan_unbrick(timeline, edited, model, graph)
        except PayloadError as error:
            st.error("The edited state is not valid JSON:")
            st.code(str(error), language=None)
        except UnbrickError as error:
            st.error("Nothing will be written:")
            st.code(str(error), language=None, wrap_lines=True)
            if error.code == UnbrickCode.INVALID_EDIT:
                error_table(validate_value(edited, model), key="threads_unbrick_errors", texts=None)
    plan = st.session_state.get(_PLAN)
    if plan is None:
        return
    st.success("Valid. This is exactly what will be written (a new checkpoint; no row changes):")
    st.json(as_json(plan.dry_run()))
    if st.button("Write", key="threads_unbrick_write", type="primary"):
        try:
            written = write_unbrick(choice.spec, plan, graph, strict_serde([model]))
        except UnbrickError as error:
            st.error("Not written:")
            st.code(str(error), language=None, wrap_lines=True)
            return
        except Exception as error:  # noqa: BLE001 - the driver's text may quote the DSN
            st.error(
                f"[store_write_failed] The store refused the write ({type(error).__name__}); "
                "nothing was changed. Check that the server may write to it."
            )
            return
        st.session_state.pop(_PLAN, None)
        st.session_state.pop("threads_unbrick_of", None)
        st.session_state[_WRITTEN] = as_json(written)
        st.rerun()  # the list and the timeline above now read the new checkpoint
