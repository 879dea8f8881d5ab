"""Retry lab: one model script, structured-output validation and retries on two engines."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

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
    load_script,
    run_script,
)
from ui.share import share_button, shared_state
from ui.trace_view import trace_table

_DEFAULT_PRESET = "article"
# Verdict and budget first: the columns stay readable when the two engines share the width.
_COLUMNS = {
    "attempt": "attempt",
    "verdict": "verdict",
    "retries_left": "retries left",
    "returned": "model returned",
    "errors": "errors (as reported)",
    "sent_back": "sent back to the model",
    "part": "message part",
    "left_out": "left out of the feedback",
}


def _preset_text(name: str) -> str:
    return json.dumps(PRESETS[name].script, ensure_ascii=False, indent=2)


# Run inputs (also the share-link field names) -> their widget keys.
_WIDGETS = {
    "script": "retry_script",
    "retries": "retries",
    "min_citations": "retry_min_citations",
    "confidence_min": "retry_confidence_min",
    "confidence_max": "retry_confidence_max",
}


def _inputs() -> dict[str, Any]:
    return {name: st.session_state[key] for name, key in _WIDGETS.items()}


def _load_preset() -> None:
    preset = PRESETS[st.session_state["retry_preset"]]
    st.session_state["retry_script"] = _preset_text(st.session_state["retry_preset"])
    st.session_state["retries"] = preset.retries
    st.session_state["retry_submitted"] = _inputs()


def _submit() -> None:
    st.session_state["retry_submitted"] = _inputs()


def _init_state() -> None:
    ss = st.session_state
    ss.setdefault("retry_preset", _DEFAULT_PRESET)
    ss.setdefault("retry_script", _preset_text(_DEFAULT_PRESET))
    ss.setdefault("retries", PRESETS[_DEFAULT_PRESET].retries)
    defaults = AnswerConstraints()
    ss.setdefault("retry_min_citations", defaults.min_citations)
    ss.setdefault("retry_confidence_min", defaults.confidence_min)
    ss.setdefault("retry_confidence_max", defaults.confidence_max)
    # The page opens on the article's run; after that only Run or a preset change re-runs.
    ss.setdefault("retry_submitted", _inputs())


def _is_text(value: Any) -> bool:
    try:
        return isinstance(value, str) and value.encode("utf-8") is not None
    except UnicodeEncodeError:  # a lone surrogate cannot reach the browser at all
        return False


def _whole(low: int, high: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _finite(value: Any) -> bool:
    # NaN and infinities fail both comparisons (a hostile token can carry them).
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and -1e308 <= value <= 1e308
    )


# Share-link fields: a check and what it expects, named in the warning when it fails.
_SHARED: dict[str, tuple[Callable[[Any], bool], str]] = {
    "script": (_is_text, "text without lone surrogates"),
    "retries": (_whole(0, MAX_RETRIES), f"a whole number from 0 to {MAX_RETRIES}"),
    "min_citations": (_whole(0, 5), "a whole number from 0 to 5"),
    "confidence_min": (_finite, "a finite number"),
    "confidence_max": (_finite, "a finite number"),
}


def _checked(state: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """The well-typed fields of a (hostile) share state; each bad one is named, never echoed."""
    kept = {}
    for name, (ok, expected) in _SHARED.items():
        if name not in state:
            continue
        if ok(state[name]):
            value = state[name]
            kept[name] = float(value) if name.startswith("confidence") else value
        else:
            st.warning(f"The share link's `{prefix}{name}` was ignored: it must be {expected}.")
    return kept


def _restore_share() -> None:
    state = shared_state("retry")
    if state is None:
        return
    ss = st.session_state
    preset = state.get("preset")
    if isinstance(preset, str) and preset in PRESETS:
        ss["retry_preset"] = preset
        ss["retry_script"], ss["retries"] = _preset_text(preset), PRESETS[preset].retries
    elif "preset" in state:
        st.warning("The share link's `preset` was ignored: it must be one of this lab's presets.")
    for name, value in _checked(state).items():
        ss[_WIDGETS[name]] = value
    submitted = state.get("submitted")
    if "submitted" in state and not isinstance(submitted, dict):
        st.warning("The share link's `submitted` was ignored: it must be an object.")
    # The run shown is the last one submitted, which may predate unsubmitted edits.
    ss["retry_submitted"] = _inputs() | (
        _checked(submitted, "submitted.") if isinstance(submitted, dict) else {}
    )


def _share_state() -> dict[str, Any]:
    inputs, submitted = _inputs(), st.session_state["retry_submitted"]
    state = {"preset": st.session_state["retry_preset"], **inputs}
    return state if submitted == inputs else state | {"submitted": submitted}


def _show_input_error(error: RetryInputError) -> None:
    where = f" at line {error.line}, column {error.col}" if error.line else ""
    st.error(
        f"The script was not run ({error.code}){where}. Your text is kept; fix it and press Run."
    )
    st.code(error.message, language=None)


def _render_run(run: RetryRun) -> None:
    calls, used, words = st.columns(3)
    calls.metric("model calls", run.calls)
    used.metric("retries used", run.retries_used)
    words.metric("feedback words", run.feedback_words)
    table = pd.DataFrame(run.rows(), columns=list(_COLUMNS)).rename(columns=_COLUMNS)
    st.dataframe(table, hide_index=True, key=f"retry_timeline_{run.engine}")
    if run.output is not None:
        st.success(f"Valid Answer after {run.calls} model calls")
        st.json(run.output.model_dump(mode="json"))
    elif run.error is not None:
        st.error(f"The run raised an exception after {run.calls} model calls")
        st.code(f"{run.error.type}: {run.error.message}", language=None)
    for note in run.notes:
        st.info(note)
    with st.expander("The run's own messages"):
        st.json(run.messages)
    if run.trace is not None:
        with st.expander("LangGraph trace: one row per node, as the Trace page records it"):
            trace_table(run.trace, key="retry_trace")


_init_state()
_restore_share()
st.title("Retry lab")
st.caption(
    "An agent's answer as a Pydantic model (Answer with at least one Citation and a confidence "
    "in [0, 1]); invalid answers are fed back to the model until valid or the budget runs out. "
    "The model is a script: no API key, no network."
)

st.selectbox(
    "Preset",
    list(PRESETS),
    format_func=lambda name: PRESETS[name].title,
    key="retry_preset",
    persist_state="session",
    on_change=_load_preset,
)
edited = st.session_state["retry_script"] != _preset_text(st.session_state["retry_preset"])
st.caption(
    PRESETS[st.session_state["retry_preset"]].summary
    + (" (The script was edited since this preset was loaded.)" if edited else "")
)
st.text_area(
    "Model script (JSON list of turns; the last turn repeats)",
    key="retry_script",
    persist_state="session",
    height=260,
    help='Turns: {"tool": "search", "args": {"query": "..."}}, {"answer": {...}} '
    '(a final_result call) or {"text": "..."}.',
)
try:
    load_script(st.session_state["retry_script"])
except RetryInputError as exc:
    _show_input_error(exc)

budget, constraints = st.columns([1, 2])
budget.number_input(
    "Retry budget",
    min_value=0,
    max_value=MAX_RETRIES,
    step=1,
    key="retries",
    persist_state="session",
)
with constraints.expander("Output model constraints"):
    st.number_input(
        "citations: min_length",
        min_value=0,
        max_value=5,
        step=1,
        key="retry_min_citations",
        persist_state="session",
    )
    st.number_input("confidence: ge", step=0.1, key="retry_confidence_min", persist_state="session")
    st.number_input("confidence: le", step=0.1, key="retry_confidence_max", persist_state="session")
st.button("Run", key="run_retry", type="primary", on_click=_submit)
share_button("retry", _share_state(), key="share")

submitted = st.session_state["retry_submitted"]
if submitted != _inputs():
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
    if (
        exc.code.startswith("retry.script")
        and submitted["script"] == st.session_state["retry_script"]
    ):
        st.caption("Nothing was run: the script above has an error.")
    else:
        _show_input_error(exc)
else:
    for column, run in zip(st.columns(2), runs, strict=True):
        with column:
            st.subheader(ENGINES[run.engine])
            _render_run(run)
    st.caption(
        "feedback words: whitespace-separated words in the text sent back after invalid answers "
        "(a simple count, not model tokens). PydanticAI's rows are read from its own messages; "
        "the LangGraph rows are what its nodes wrote."
    )
