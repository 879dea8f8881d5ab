"""Behaviour lab: each article claim as a live probe on the installed versions, with verdicts."""

from __future__ import annotations

from typing import Any

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
from ui.labs.probe_view import probe_detail, results_frame, verdict_counts
from ui.share import ignore_field, share_button, shared_state

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


def _shared_subset(state: dict[str, Any], name: str, options: list[str]) -> list[str] | None:
    """`state[name]` when it is a list of known names; a bad one is named, never echoed."""
    value = state.get(name)
    if isinstance(value, list) and all(isinstance(v, str) and v in options for v in value):
        return value
    if name in state:
        ignore_field(name, "a list of the filter's names")
    return None


def _restore_filters(state: dict[str, Any], articles: list[str]) -> None:
    for name, key, options in (
        ("verdicts", "verdict_filter", list(VERDICTS)),
        ("sources", "source_filter", articles),
    ):
        chosen = _shared_subset(state, name, options)
        if chosen is not None:
            st.session_state[key] = chosen


def _restore_probe(state: dict[str, Any], shown: list[str], timing: ProbeResult | None) -> None:
    probe = state.get("probe")
    if isinstance(probe, str) and probe in shown:
        st.session_state["probe"] = probe
    elif probe == _TIMING_ID and timing is not None:
        st.warning(
            "The share link selects the timing probe. Measured again now (verdict: "
            f"{timing.verdict}), it is not among the probes the shared filters show: widen the "
            "Verdict or Source article filter to see it."
        )
    elif "probe" in state:
        ignore_field("probe", "a probe the filters show")


# A share link (page "behaviour") is applied in steps: each before the widgets it sets.
shared = shared_state("behaviour") or {}
if shared.get("timing") is True or shared.get("probe") == _TIMING_ID:
    st.session_state["probe_timing_requested"] = True
    st.session_state.pop("probe_timing", None)  # the link's row is this opening's own run
    st.info(
        "This link includes the timing probe. It was measured again as the link opened, and "
        "timings vary from run to run, so its numbers and verdict may differ from the shared ones."
    )
elif "timing" in shared and not isinstance(shared["timing"], bool):
    ignore_field("timing", "true or false")

st.title("Behaviour lab")
st.caption(
    "Each row is a claim from the source articles, checked live against the installed "
    "versions. The verdict is computed from what the probe observed."
)
left, right = st.columns(2)
left.button("Re-run all probes", key="rerun", on_click=_rerun)
right.button("Measure state kinds (timing probe)", key="run_timing", on_click=_measure)

with st.spinner("Running probes…"):
    results = _results()
frame = results_frame(results)
timing = st.session_state.get("probe_timing")
if timing is None:
    st.caption("The timing probe (BaseModel vs TypedDict vs dataclass state) runs on demand.")
else:
    st.caption(f"The timing probe's last run took {timing.seconds:.2f} s.")

articles = sorted(frame["article"].unique())
_restore_filters(shared, articles)
# Defaults through session state, not `default=`, so a share link can set them first.
st.session_state.setdefault("verdict_filter", list(VERDICTS))
st.session_state.setdefault("source_filter", articles)
verdicts = st.multiselect("Verdict", VERDICTS, key="verdict_filter", persist_state="session")
chosen = st.multiselect("Source article", articles, key="source_filter", persist_state="session")
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
    _restore_probe(shared, list(by_id), timing)
    picked = st.selectbox("Probe", list(by_id), key="probe", persist_state="session")
    probe_detail(by_id[picked], probe_source(picked))
else:
    picked = None
    st.info("No probe matches these filters. Widen the verdict or source filter.")
view = {"verdicts": verdicts, "sources": chosen, "timing": "probe_timing" in st.session_state}
share_button("behaviour", view | ({"probe": picked} if picked else {}), key="share")
