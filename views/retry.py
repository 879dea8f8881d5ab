"""Retry lab: one model script, structured-output validation and retries on two engines."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from core.retry import (
    ENGINES,
    MAX_RETRIES,
    PRESETS,
    AnswerConstraints,
    RetryInputError,
    RetryRun,
    answer_source,
    check_constraints,
    load_script,
    run_script,
)
from core.words import count
from ui import keys
from ui.editor.json_editor import Mark
from ui.editor.payload import editor_text, payload_editor
from ui.labs.retry_state import (
    init_state,
    inputs,
    load_preset,
    preset_text,
    restore_share,
    share_state,
    submit,
)
from ui.labs.retry_table import TIMELINE_LONG, timeline_table
from ui.share import share_button
from ui.tables import room_for_table_toolbars, rows_in_view
from ui.trace_table import trace_table

# Verdict and budget first: the columns stay readable when the two engines share the width.
_COLUMNS = {
    "attempt": "attempt",
    "verdict": "verdict",
    "retries_left": "retries left",
    "counter": "on counter",
    "returned": "returned",
    "errors": "errors",
    "sent_back": "sent back",
    "part": "message part",
    "left_out": "left out",
}


def _show_input_error(error: RetryInputError) -> None:
    if error.code.startswith("retry_script"):
        where = f" at line {error.line}, column {error.col}" if error.line else ""
        st.error(
            f"The script was not run [{error.code}]{where}. Your text is kept; fix it and press "
            "Run."
        )
    else:
        st.error(f"Nothing can run with these output model constraints [{error.code}].")
    st.code(error.message, language=None, wrap_lines=True)


def _script_marks(error: RetryInputError | None) -> list[Mark]:
    """The script's error at its line:col in the editor (the first turn's bracket if none)."""
    if error is None:
        return []
    return [Mark(error.line or 1, error.col or 1, f"[{error.code}] {error.message}")]


def _language(text: str) -> str:
    """ "json" for a JSON value (highlighted), else "text"."""
    try:
        json.loads(text)
    except ValueError:
        return "text"
    return "json"


def _attempt_whole(whole: pd.DataFrame, cut: list[list[str]], selected: list[int]) -> None:
    """The selected attempt's long values whole (none selected: the first with a value cut
    in the table), each as plain text."""
    cut_rows = [row for row, names in enumerate(cut) if names]
    # a row kept selected from a longer run of an earlier script run is no row of this one
    selected = [row for row in selected if 0 <= row < len(whole)]
    if not selected and not cut_rows:
        return
    row = selected[0] if selected else cut_rows[0]
    attempt = whole.iloc[row]
    st.caption(
        f"Attempt {attempt['attempt']} whole"
        + ("" if selected else " (select a row of the table to read another)")
        + ". Values ending in … are cut in the table."
    )
    for name in TIMELINE_LONG:
        if attempt[name]:
            st.text(name)
            st.code(str(attempt[name]), language=_language(str(attempt[name])), wrap_lines=True)


def _render_run(run: RetryRun) -> None:
    calls, used, words = st.columns(3)
    calls.metric("model calls", run.calls)
    used.metric(
        "retries used",
        run.retries_used,
        help="Invalid answers sent back for another try, on every counter together.",
    )
    words.metric("feedback words", run.feedback_words)
    rows = [row | {"counter": a.counter} for row, a in zip(run.rows(), run.attempts, strict=True)]
    whole = pd.DataFrame(rows, columns=list(_COLUMNS)).rename(columns=_COLUMNS)
    # Each column as wide as its words, none split; a long value cut after its last whole
    # word that fits (…), the attempt's values whole under the table.
    fit, drawn, cut = timeline_table(whole.to_dict("records"), list(_COLUMNS.values()))
    table = whole.copy()
    for name in TIMELINE_LONG:
        table[name] = [row[name] for row in drawn]
    event = st.dataframe(
        table,
        hide_index=True,
        key=keys.each(keys.RETRY_TIMELINE, run.engine),
        on_select="rerun",
        selection_mode="single-row",
        # Every attempt in view up to eight ("auto" stops at about 400 px: the third was cut)
        height=rows_in_view(fit["row_height"], len(table)),
        **fit,
    )
    _attempt_whole(whole, cut, event.selection.rows)
    if run.output is not None:
        st.success(f"Valid Answer after {count(run.calls, 'model call')}")
        st.json(run.output.model_dump(mode="json"))
    elif run.error is not None:
        st.error(f"The run raised an exception after {count(run.calls, 'model call')}")
        st.code(f"{run.error.type}: {run.error.message}", language=None, wrap_lines=True)
    by_counter = run.retries_by_counter()
    if run.retries_used > run.retries and len(by_counter) > 1:  # past the budget, and why
        spent = ", ".join(f"{n} on the {name} counter" for name, n in by_counter.items())
        st.info(
            f"{count(run.retries_used, 'retry')} on a budget of {run.retries}: "
            f"{spent}. Each counter has the whole budget: a plain-text answer draws on the run's, "
            "a call of the output tool on the tool's own."
        )
    for note in run.notes:
        st.info(note)
    with st.expander("The run's own messages"):
        st.json(run.messages)
    if run.trace is not None:
        with st.expander("LangGraph trace: one row per node, as the Trace page records it"):
            trace_table(run.trace, key=keys.RETRY_TRACE)


init_state()
restore_share()
st.title("Retry lab")
room_for_table_toolbars()  # on a phone, no toolbar covers a caption
st.caption(
    "An agent's answer as a Pydantic model (Answer with, by default, at least one Citation and "
    "a confidence in [0, 1]); invalid answers are fed back to the model until valid or the "
    "budget runs out. The model is a script: no API key, no network."
)

st.selectbox(
    "Preset",
    list(PRESETS),
    format_func=lambda name: PRESETS[name].title,
    key=keys.RETRY_PRESET,
    persist_state="session",
    on_change=load_preset,
)
# What was typed is taken in before anything reads the script; its error is marked in it.
preset_script = preset_text(st.session_state[keys.RETRY_PRESET])
script_text = editor_text(keys.RETRY_SCRIPT, preset_script)
edited = script_text != preset_script
on_screen = AnswerConstraints(
    st.session_state[keys.RETRY_MIN_CITATIONS],
    st.session_state[keys.RETRY_CONFIDENCE_MIN],
    st.session_state[keys.RETRY_CONFIDENCE_MAX],
)
constrained = on_screen != AnswerConstraints()
st.caption(
    PRESETS[st.session_state[keys.RETRY_PRESET]].summary
    + (" (The script was edited since this preset was loaded.)" if edited else "")
    + (
        " (The output model constraints below are not the defaults this summary assumes.)"
        if constrained
        else ""
    )
)
script_error = None
try:
    load_script(script_text)
except RetryInputError as exc:
    script_error = exc
st.caption(
    "Model script (JSON list of turns; the last turn repeats). Turns: "
    '{"tool": "search", "args": {"query": "..."}}, {"answer": {...}} (a final_result call) or '
    '{"text": "..."}.'
)
payload_editor(
    keys.RETRY_SCRIPT,
    preset_script,
    height=260,
    marks=_script_marks(script_error),
    label="Model script (JSON list of turns)",
)
if script_error is not None:
    _show_input_error(script_error)

budget, constraints = st.columns([1, 2])
budget.number_input(
    "Retry budget",
    min_value=0,
    max_value=MAX_RETRIES,
    step=1,
    key=keys.RETRY_RETRIES,
    persist_state="session",
)
# Open, and named changed, whenever the constraints are not the defaults (a share link's too).
with constraints.expander(
    "Output model constraints" + (" (changed)" if constrained else ""), expanded=constrained
):
    st.number_input(
        "citations: min_length",
        min_value=0,
        max_value=5,
        step=1,
        key=keys.RETRY_MIN_CITATIONS,
        persist_state="session",
    )
    for label, key in [
        ("confidence: ge", keys.RETRY_CONFIDENCE_MIN),
        ("confidence: le", keys.RETRY_CONFIDENCE_MAX),
    ]:
        # "%g": the box shows the bound the model uses, every digit ("%0.2f" rounded it).
        st.number_input(label, step=0.1, format="%g", key=key, persist_state="session")
    try:
        check_constraints(on_screen)
    except RetryInputError as exc:
        _show_input_error(exc)
st.button("Run", key=keys.RUN_RETRY, type="primary", on_click=submit)
share_button("retry", share_state(), key=keys.SHARE)

submitted = st.session_state[keys.RETRY_SUBMITTED]
if submitted != inputs():
    st.info("The runs below are from the last Run; the inputs above changed since. Press Run.")
chosen = AnswerConstraints(
    submitted["min_citations"], submitted["confidence_min"], submitted["confidence_max"]
)
st.code(answer_source(chosen), language="python")
try:
    script = load_script(submitted["script"])
    runs = [
        run_script(script, engine=engine, retries=submitted["retries"], constraints=chosen)
        for engine in ENGINES
    ]
except RetryInputError as exc:
    if exc.code.startswith("retry_script") and submitted["script"] == script_text:
        st.caption("Nothing was run: the script above has an error.")
    elif exc.code == "retry_constraints" and chosen == on_screen:
        st.caption("Nothing was run: the output model constraints above do not fit together.")
    else:
        _show_input_error(exc)
else:
    # One engine under the other, each timeline the page's width: side by side, each had
    # 460 px for nine columns of text and was read by scrolling sideways (#32 item 8).
    for run in runs:
        st.subheader(ENGINES[run.engine])
        _render_run(run)
    st.caption(
        "feedback words: whitespace-separated words in the text sent back after invalid answers "
        "(a simple count, not model tokens). PydanticAI's rows are read from its own messages; "
        "the LangGraph rows are what its nodes wrote. A value too long for its column ends in … "
        "in the table: select its row to read it whole under the table; each model call and "
        "each reply sent back are also in full in the run's own messages."
    )
