"""Validate page: paste an order payload, see every field error, where it is and why."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from core.coercion import coercion_rows
from core.entry import compare_entry
from core.presets import PRESETS, SEED_TEXT
from core.report import validate_text
from core.schema_options import SchemaOptions, build_model, model_source
from ui.errors import annotated_text, error_table, exports
from ui.payload import payload_editor, set_payload_text
from ui.payload_form import order_form
from ui.schema_form import schema_options_form
from ui.share import share_button, shared_state


def _load_preset() -> None:
    name = st.session_state["preset"]
    if name in PRESETS:
        set_payload_text(PRESETS[name].text)


def _restore_share() -> None:
    state = shared_state("validate")
    if state is None:
        return
    payload = state.get("payload")
    if isinstance(payload, str):
        set_payload_text(payload)
    try:
        options = SchemaOptions.from_dict(state.get("options") or {})
    except (ValueError, TypeError) as exc:
        st.warning("The share link's schema options were ignored.")
        st.code(str(exc), language=None)
        options = SchemaOptions()
    st.session_state["schema_options"] = options.to_dict()


st.title("Validate")
st.caption(
    "Paste an order payload (or pick a preset). Every field Pydantic rejects is listed with "
    "its path, its line:col in your text, the rule and the value — before LangGraph runs."
)
_restore_share()

st.selectbox(
    "Preset",
    list(PRESETS),
    format_func=lambda name: f"{PRESETS[name].title} — {PRESETS[name].summary}",
    key="preset",
    index=None,
    placeholder="Load a preset payload…",
    on_change=_load_preset,
)
options = schema_options_form()
model = build_model(options)

edit, result = st.columns([5, 6], gap="large")
with edit:
    json_tab, form_tab = st.tabs(["JSON", "Form"])
    with json_tab:
        text = payload_editor("payload", SEED_TEXT, height=420)
    with form_tab:
        order_form(text)

report = validate_text(text, model)
with result:
    error_table(report, key="errors")
    exports(report, key="export")
    share_button("validate", {"payload": text, "options": options.to_dict()}, key="share")

annotated, lens, entry, source, schema = st.tabs(
    ["Annotated text", "Coercion lens", "What LangGraph would do", "Model source", "JSON Schema"]
)
with annotated:
    if report.ok:
        st.caption("No error positions to mark.")
    st.code(annotated_text(report), language=None)
with lens:
    if report.ok and report.value is not None:
        rows = [row.__dict__ for row in coercion_rows(report.input, report.value)]
        st.caption("Each input leaf next to what the model holds after validation.")
        st.dataframe(pd.DataFrame(rows), key="lens", hide_index=True)
    else:
        st.info("The coercion lens needs a payload that validates; fix the errors first.")
with entry:
    if report.syntax_error is None and isinstance(report.input, dict):
        with st.spinner("Running LangGraph's entry…"):
            comparison = compare_entry(report)
        verdict = (
            "runs the first node" if comparison.langgraph_accepted else "raises before any node"
        )
        st.caption(f"A real one-node StateGraph over this model: LangGraph {verdict}.")
        if comparison.langgraph_error:
            st.code(comparison.langgraph_error, language=None)
        if comparison.differences:
            st.dataframe(pd.DataFrame(comparison.differences), key="entry_diff", hide_index=True)
        else:
            st.caption("LangGraph and our gate agree on this payload.")
    else:
        st.info("LangGraph's entry needs a JSON object; fix the text first.")
with source:
    st.code(model_source(options), language="python")
with schema:
    st.json(json.dumps(model.model_json_schema()), expanded=2)
