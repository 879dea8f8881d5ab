"""Validate page: paste an order payload, see every field error, where it is and why."""

from __future__ import annotations

import inspect

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from core.coercion import coercion_rows
from core.entry import compare_entry
from core.json_schema import json_schema_text
from core.order import AgentState
from core.presets import SEED_TEXT
from core.report import Report, gate_disagrees, validate_text
from core.schema_options import SchemaOptions, build_model, model_source
from ui.errors import GATE, PYTHON_GATE, PYTHON_MODE_NOTE, annotated_text, error_table, exports
from ui.model_form import model_form
from ui.payload import editor_text, payload_editor, set_payload_text
from ui.payload_form import order_form
from ui.project import active_project, gallery, init_payload, preset_picker
from ui.schema_form import schema_options_form
from ui.share import share_button, shared_state

MODELS = {"project": "Your model", "seed": "Seed order (AgentState)"}
EDITORS = ["JSON", "Form"]
VIEWS = [
    "Annotated text",
    "Coercion lens",
    "What LangGraph would do",
    "Model source",
    "JSON Schema",
]


def _choose_model(project_model: type[BaseModel] | None) -> type[BaseModel]:
    """The project's model when one is configured (the seed order stays one click away)."""
    if project_model is None or project_model is AgentState:
        return AgentState
    st.radio(
        "Validate against",
        list(MODELS),
        format_func=MODELS.get,
        key="validate_model",
        persist_state="session",
        horizontal=True,
    )
    st.caption("Your model, as configured (its module and class):")
    st.code(f"{project_model.__module__}:{project_model.__qualname__}", language=None)
    return project_model if st.session_state["validate_model"] == "project" else AgentState


def _source(model: type[BaseModel]) -> str:
    try:
        return inspect.getsource(model)
    except (OSError, TypeError):  # built with create_model, or no source file on the server
        return f"# The source of {model.__qualname__} is not available; see the JSON Schema view."


def _restore_share() -> None:
    state = shared_state("validate")
    if state is None:
        return
    st.session_state["validate_model"] = "project" if state.get("model") == "project" else "seed"
    payload = state.get("payload")
    if isinstance(payload, str):
        set_payload_text(payload)
    try:
        options = SchemaOptions.from_dict(state.get("options") or {})
    except ValueError as exc:
        st.warning("The share link's schema options were ignored.")
        st.code(str(exc), language=None, wrap_lines=True)
        options = SchemaOptions()
    st.session_state["schema_options"] = options.to_dict()
    if state.get("view") in VIEWS:
        st.session_state["validate_view"] = state["view"]
    if state.get("editor") in EDITORS:
        st.session_state["editor_view"] = state["editor"]
    st.session_state["schema_show"] = state.get("schema_show") is True


st.title("Validate")
st.caption(
    "Paste a payload (or pick a preset). Every field Pydantic rejects is listed with "
    "its path, its line:col in your text, the rule and the value — before LangGraph runs."
)
project = active_project()
default_text = init_payload(project.model)
st.session_state.setdefault("validate_model", "project")
_restore_share()
if project.model is None:
    st.info(
        "The configured graph's state is not a Pydantic model and no --model was given, so "
        "there is no model of yours to validate against: the seed order model is used here."
    )
chosen = _choose_model(project.model)
for note in project.notes if chosen is project.model else ():
    if note.code == "state_not_pydantic":
        st.info("What is checked here: your graph's state is not a Pydantic model.")
        st.code(str(note), language=None, wrap_lines=True)
presets = gallery(chosen)
if chosen is not AgentState and not presets:
    st.warning("No example payload could be built for this model; add json_schema_extra examples.")
preset_picker(presets, key="preset", placeholder="Load a preset payload…")
if chosen is AgentState:
    options = schema_options_form()
    model = build_model(options)
else:
    st.caption("Schema options apply to the seed order model only; your model is used as written.")
    options, model = SchemaOptions(), chosen


@st.fragment  # typing in the editor reruns only this part, not the sidebar and options above
def _workbench(
    chosen: type[BaseModel], options: SchemaOptions, model: type[BaseModel], default_text: str
) -> None:
    # Segmented controls, not st.tabs: only the chosen view is computed, and the browser
    # renders a Validate rerun with about 115 ms less CPU than with two stateful tab sets.
    st.session_state.setdefault("editor_view", EDITORS[0])  # no default=: a share link
    st.session_state.setdefault("validate_view", VIEWS[0])  # may have set the view already
    # Validate first and fill the result column before the editor: the error table reaches
    # the browser ahead of the editor's widgets (the editor shows this same text).
    reset_text = SEED_TEXT if chosen is AgentState else default_text
    text = editor_text("payload", reset_text)
    report = validate_text(text, model)
    gate = gate_disagrees(report)  # the graph's own gate, when it says otherwise
    shown = gate or report
    edit, result = st.columns([5, 6], gap="large")
    with result:
        error_table(shown, key="errors", texts=PYTHON_GATE if gate else GATE)
        if gate:
            st.info(PYTHON_MODE_NOTE)
        exports(shown, key="export")
        shared = {
            "payload": text,
            "options": options.to_dict(),
            "view": st.session_state["validate_view"],
            "editor": st.session_state["editor_view"],  # the JSON text or the form, as shown
        }
        if chosen is not AgentState:
            shared["model"] = "project"  # a name, never a module path: links cannot load code
        if shared["view"] == "JSON Schema" and st.session_state.get("schema_show"):
            shared["schema_show"] = True  # the schema shown on the page, not only its download
        share_button("validate", shared, key="share")
    with edit:
        editor = st.segmented_control(
            "Edit as", EDITORS, required=True, key="editor_view", persist_state="session"
        )
        if editor == "Form":  # the form above the text it rewrites: both stay in view
            if chosen is AgentState:
                order_form(text)
            else:
                model_form(text, model)
        payload_editor("payload", reset_text, height=420)

    view = st.segmented_control(
        "View", VIEWS, required=True, key="validate_view", persist_state="session"
    )
    if view == "Annotated text":
        _annotated(shown)
    elif view == "Coercion lens":
        _lens(report)
    elif view == "What LangGraph would do":
        _entry(report, text, model)
    elif view == "Model source":
        source = model_source(options) if chosen is AgentState else _source(model)
        st.code(source, language="python")
    else:
        _json_schema(model)


def _annotated(report: Report) -> None:
    if report.ok and not report.duplicates:
        st.caption("No error positions to mark.")
    st.code(annotated_text(report), language=None)


def _lens(report: Report) -> None:
    if report.ok and report.value is not None:
        rows = [row.__dict__ for row in coercion_rows(report.input, report.value)]
        st.caption("Each input leaf next to what the model holds after validation.")
        st.dataframe(pd.DataFrame(rows), key="lens", hide_index=True)
    else:
        st.info("The coercion lens needs a payload that validates; fix the errors first.")


def _entry(report: Report, text: str, model: type[BaseModel]) -> None:
    if report.syntax_error is not None or not isinstance(report.input, dict):
        st.info("LangGraph's entry needs a JSON object; fix the text first.")
        return
    # A real graph run: keep it for reruns that change neither the text nor the model.
    kept = st.session_state.get("entry_comparison")
    if kept is not None and kept[0] == (text, model):
        comparison = kept[1]
    else:
        with st.spinner("Running LangGraph's entry…"):
            comparison = compare_entry(report)
        st.session_state["entry_comparison"] = ((text, model), comparison)
    verdict = "runs the first node" if comparison.langgraph_accepted else "raises before any node"
    st.caption(f"A real one-node StateGraph over this model: LangGraph {verdict}.")
    if comparison.langgraph_error:
        st.code(comparison.langgraph_error, language=None, wrap_lines=True)
    if comparison.differences:
        st.dataframe(pd.DataFrame(comparison.differences), key="entry_diff", hide_index=True)
    else:
        st.caption("LangGraph and our gate agree on this payload.")


def _json_schema(model: type[BaseModel]) -> None:
    schema_text = json_schema_text(model)
    st.download_button(
        "Download JSON Schema", schema_text, file_name="schema.json", key="schema_download"
    )
    if st.toggle(
        "Show the schema here",
        key="schema_show",
        persist_state="session",
        help=f"It is long: {len(schema_text.encode()):,} bytes.",
    ):
        st.json(schema_text, expanded=2)


_workbench(chosen, options, model, default_text)
