"""Tools page: Pydantic models as LLM tool parameters, their traps and their schemas."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from core.jsontext.write import to_text
from core.links.tools import ToolsLink
from core.tools import SCENARIOS, Scenario
from core.tools.provider_schema import PROVIDERS, REWRITE_MEANINGS, SchemaViews, schema_views
from core.tools.roundtrip import round_trip
from core.tools.schema_lint import lint_model
from core.validate.report import Report, validate_text
from ui import keys
from ui.editor.payload import editor_text, payload_editor
from ui.errors.focus import report_marks, selected_spot
from ui.errors.view import TOOL_CALL, error_table
from ui.labs.tools_state import (
    EDITOR_KEY,
    TABS,
    load_preset,
    restore_share,
    switch_scenario,
)
from ui.share import share_button, shown_link
from ui.tables import fitted, room_for_table_toolbars, rows_in_view
from ui.text import plain

_PROVIDER_OF = {label: provider for provider, label in PROVIDERS.items()}


def _preset_label(scenario: Scenario, name: str) -> str:
    if name in scenario.valid:
        return f"valid · {name}"
    expected = ", ".join(f"{kind} at {path}" for kind, path in scenario.expected[name])
    return f"invalid · {name} (expects {expected})"


@st.cache_data(show_spinner=False)
def _views(scenario_id: str, label: str) -> SchemaViews:
    return schema_views(SCENARIOS[scenario_id].schema_models[label])


_LINT_ROW_HEIGHT = 86  # four lines of wrapped text (Streamlit wraps only in rows over 64 px)


def _frame(rows: Sequence[object]) -> pd.DataFrame:
    """Dataclass rows as text columns (True and False in words: yes, no); a column that is
    empty in every row is left out."""
    words = {True: "yes", False: "no"}
    frame = pd.DataFrame(
        [{k: words[v] if isinstance(v, bool) else v for k, v in vars(row).items()} for row in rows]
    ).astype(str)
    return frame.loc[:, (frame != "").any()] if not frame.empty else frame


# Each table's columns inside the page's 938 px at 1400 (#32 item 8), long values wrapped in
# their column; a column left out (empty in every row) gives its width to the widest one.
STAGE_WIDTHS = {"name": 230, "ok": 60, "detail": 630}
DIFFERENCE_WIDTHS = {"via": 150, "path": 230, "before": 270, "after": 270}
REWRITE_WIDTHS = {"kind": 200, "where": 350, "detail": 370}
# A warning or an error the real run quotes is up to about 370 characters: eight lines
# (ui.tables' estimate; about seven as drawn) in 430 px, so the observations wrap to eight.
OBSERVATION_WIDTHS = {"what": 230, "outcome": 100, "detail": 430, "instead": 160}


def _table(rows: Sequence[object], widths: dict[str, int], *, key: str, lines: int = 6) -> None:
    """Dataclass rows as a table of text columns at `widths` (`ui.tables.fitted`), values up
    to `lines` lines tall, eight rows in view."""
    frame = _frame(rows)
    shown = {name: width for name, width in widths.items() if name in frame.columns}
    widest = max(shown, key=shown.__getitem__)
    shown[widest] += sum(widths.values()) - sum(shown.values())
    fit = fitted(frame.to_dict("records"), shown, most_lines=lines)
    height = rows_in_view(fit["row_height"], len(frame))
    st.dataframe(frame, key=key, hide_index=True, height=height, **fit)


def _round_trip_section(report: Report) -> None:
    st.subheader("Round trip")
    if not report.ok or report.value is None:
        st.info("The round trip starts from a valid value: fix the errors above first.")
        return
    trip = round_trip(report.value)
    if trip.survived:
        st.success("Survived: model_dump and model_dump_json both validate back to an equal value.")
    else:
        st.error("Did not survive: a dump failed, did not validate again, or came back different.")
    _table(trip.stages, STAGE_WIDTHS, key=keys.TRIP_STAGES)
    if trip.differences:
        _table(trip.differences, DIFFERENCE_WIDTHS, key=keys.TRIP_DIFFERENCES)
    if trip.json_text is not None:
        st.caption("What model_dump_json wrote")
        st.code(trip.json_text, language="json", wrap_lines=True)


def _schema_section(scenario_id: str, scenario: Scenario) -> None:
    st.subheader("JSON Schema and what each provider receives")
    label = st.selectbox(
        "Model",
        list(scenario.schema_models),
        key=keys.SCHEMA_MODEL,
        persist_state="session",
        help="The tool model, or one of the flawed models this scenario contrasts it with.",
    )
    with st.spinner("Running PydanticAI's schema transformers…"):
        views = _views(scenario_id, label)
    # A segmented control, not st.tabs: only the chosen schema is drawn (tabs drew all four,
    # each with its tables, on every rerun), and the choice is state a share link carries.
    st.session_state.setdefault(keys.SCHEMA_TAB, TABS[0])
    shown = st.segmented_control(
        "Schema", TABS, required=True, key=keys.SCHEMA_TAB, persist_state="session"
    )
    with st.container(key=keys.SCHEMA_VIEW):
        if shown is not None and shown != TABS[0]:  # required: never None
            _provider_tab(views, _PROVIDER_OF[shown])
        elif views.pydantic is None:
            st.error("Pydantic cannot generate a JSON Schema for this model.")
            st.code(views.error or "", language=None, wrap_lines=True)
        else:
            st.json(views.pydantic, expanded=2)
    st.subheader("Lint")
    findings = lint_model(scenario.schema_models[label])
    if findings:
        # Each finding's message and fix are a sentence or two: they wrap in rows tall enough
        # for four lines, in a table as wide as the page, instead of running off its edge.
        st.dataframe(
            _frame(findings),
            key=keys.LINT_FINDINGS,
            hide_index=True,
            row_height=_LINT_ROW_HEIGHT,
            column_config={
                "code": st.column_config.TextColumn("code", width=150),
                "where": st.column_config.TextColumn("where", width=170),
                "message": st.column_config.TextColumn("message", width=340),
                "fix": st.column_config.TextColumn("fix", width=270),
            },
        )
    else:
        st.success("No findings.")


def _provider_tab(views: SchemaViews, provider: str) -> None:
    sent = views.providers.get(provider)
    if sent is None:
        st.info("There is no Pydantic schema to transform.")
        return
    counts = Counter(rewrite.kind for rewrite in sent.rewrites)
    summary = pd.DataFrame(
        {
            "rewrite": list(counts),
            "count": [int(n) for n in counts.values()],
            "meaning": [REWRITE_MEANINGS.get(kind, "") for kind in counts],
        }
    )
    if sent.error is not None:
        st.error("PydanticAI's transformer refused this schema: the tool cannot be sent.")
        st.code(sent.error, language=None, wrap_lines=True)
    elif not sent.rewrites:
        st.success("Sent exactly as Pydantic wrote it.")
    st.dataframe(summary, key=keys.each(keys.REWRITES_SUMMARY, provider), hide_index=True)
    if sent.rewrites:
        # Dropped titles are the bulk and the least interesting: list them last.
        ordered = sorted(sent.rewrites, key=lambda rewrite: rewrite.kind == "title_dropped")
        _table(ordered, REWRITE_WIDTHS, key=keys.each(keys.REWRITES, provider))
    if sent.schema is not None:
        st.json(sent.schema, expanded=2)


@st.fragment  # typing in the editor reruns this part only, not the pickers and the schemas
def _workbench(scenario_id: str, scenario: Scenario, preset: str) -> None:
    preset_text = to_text(scenario.presets[preset])
    text = editor_text(EDITOR_KEY, preset_text)  # what was typed, validated before it is drawn
    report = validate_text(text, model=scenario.model)
    # The result column as wide as Validate's beside its errors: its error table (path,
    # line:col and message at fixed widths, 320 px with the selection boxes) and the selected
    # error's details sit side by side in it, the table no wider than its room at 1400 px.
    edit, result = st.columns([4, 7], gap="medium")
    with result:  # first, so the marks below belong to this report
        # Several scenarios compare two models: say which one judged this payload.
        st.caption(f"Validated against {plain(scenario.model.__name__)}, the tool's parameters.")
        chosen = error_table(report, key=keys.TOOL_ERRORS, texts=TOOL_CALL, selectable=True)
        # The schema widgets are outside this fragment: a click on them reruns the whole
        # page, so the session state read here always holds what they show.
        shared = shown_link(
            ToolsLink,
            scenario=scenario_id,
            preset=preset,
            payload=text,
            schema_model=st.session_state.get(keys.SCHEMA_MODEL) or scenario.model.__name__,
            schema_tab=st.session_state.get(keys.SCHEMA_TAB) or TABS[0],
        )
        share_button("tools", shared, key=keys.SHARE)
    with edit:
        payload_editor(
            EDITOR_KEY,
            preset_text,
            height=360,
            marks=report_marks(report),
            goto=selected_spot(chosen, key=keys.TOOL_ERRORS),
            label="Tool call arguments (JSON)",
        )
        if text != preset_text:  # the preset box above still names the preset it came from
            st.caption("Edited since the preset was loaded; picking a preset replaces the text.")
    _round_trip_section(report)
    if scenario.observe is not None:
        st.subheader("What the real run shows")
        _table(scenario.observe(report.input), OBSERVATION_WIDTHS, key=keys.OBSERVATIONS, lines=8)


restore_share()
st.title("Tool-parameter lab")
room_for_table_toolbars()  # on a phone, no toolbar covers a caption
st.caption(
    "Pydantic models as LLM tool parameters: validate a payload, round-trip it, and see the "
    "JSON Schema each provider really receives after PydanticAI rewrites it. Offline."
)
scenario_id = st.selectbox(
    "Scenario",
    list(SCENARIOS),
    key=keys.SCENARIO,
    persist_state="session",
    format_func=lambda sid: SCENARIOS[sid].title,
    on_change=switch_scenario,
)
scenario = SCENARIOS[scenario_id]
st.caption(scenario.summary)
preset = st.selectbox(
    "Preset",
    list(scenario.presets),
    key=keys.TOOL_PRESET,
    persist_state="session",
    format_func=lambda name: _preset_label(scenario, name),
    on_change=load_preset,
)
_workbench(scenario_id, scenario, preset)
with st.expander("Model source", expanded=False):
    st.code(scenario.source, language="python")
_schema_section(scenario_id, scenario)
