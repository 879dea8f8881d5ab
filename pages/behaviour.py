"""Behaviour lab: each article claim as a live probe on the installed versions, with verdicts."""

from __future__ import annotations

import streamlit as st

# core.probes is light to import: its probe families (and LangGraph) load on the first run.
from core.probes import (
    VERDICTS,
    ProbeResult,
    probe_source,
    results_to_json,
    results_to_markdown,
    run_all,
    run_probe,
)
from ui.probe_view import probe_detail, results_frame, verdict_counts

_TIMING_ID = "basemodel_state_is_slower"


def _results() -> list[ProbeResult]:
    ss = st.session_state
    if "probe_results" not in ss:
        ss["probe_results"] = run_all()
    if ss.get("probe_timing_requested") and "probe_timing" not in ss:
        ss["probe_timing"] = run_probe(_TIMING_ID)
    timing = [ss["probe_timing"]] if "probe_timing" in ss else []
    return ss["probe_results"] + timing


def _rerun() -> None:
    for key in ("probe_results", "probe_timing"):
        st.session_state.pop(key, None)


def _measure() -> None:
    st.session_state.pop("probe_timing", None)
    st.session_state["probe_timing_requested"] = True


st.title("Behaviour lab")
st.caption(
    "Each row is a claim from the source articles, checked live against the installed "
    "versions. The verdict is computed from what the probe observed."
)
left, right = st.columns(2)
left.button("Re-run all probes", key="rerun", on_click=_rerun)
right.button("Measure state kinds (~1 s timing probe)", key="run_timing", on_click=_measure)

with st.spinner("Running probes…"):
    results = _results()
frame = results_frame(results)
if "probe_timing" not in st.session_state:
    st.caption("The timing probe (BaseModel vs TypedDict vs dataclass state) runs on demand.")

verdicts = st.multiselect("Verdict", VERDICTS, default=list(VERDICTS), key="verdict_filter")
articles = sorted(frame["article"].unique())
chosen = st.multiselect("Source article", articles, default=articles, key="source_filter")
keep = frame["verdict"].isin(verdicts) & frame["article"].isin(chosen)
shown = [r for r, kept in zip(results, keep, strict=True) if kept]
st.caption(verdict_counts(shown))
st.dataframe(
    results_frame(shown).drop(columns=["article"]),
    hide_index=True,
    key="probe_table",
    column_config={"evidence": st.column_config.TextColumn(width="large")},
)

md_col, json_col = st.columns(2)
md_col.download_button(
    "Download table as Markdown",
    results_to_markdown(shown),
    file_name="behaviour-lab.md",
    mime="text/markdown",
    key="export_md",
    on_click="ignore",
)
json_col.download_button(
    "Download table as JSON",
    results_to_json(shown),
    file_name="behaviour-lab.json",
    mime="application/json",
    key="export_json",
    on_click="ignore",
)

if shown:
    by_id = {r.id: r for r in shown}
    picked = st.selectbox("Probe", list(by_id), key="probe")
    probe_detail(by_id[picked], probe_source(picked))
else:
    st.info("No probe matches these filters. Widen the verdict or source filter.")
