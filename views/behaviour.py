"""Behaviour lab: each article claim as a live probe on the installed versions, with verdicts."""

from __future__ import annotations

import streamlit as st

from core.links.behaviour import BehaviourLink

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
from ui import keys
from ui.labs.probe_table import probe_columns
from ui.labs.probe_view import (
    PROBE_ROWS_HELP,
    open_clicked_row,
    probe_detail,
    results_frame,
    row_clicks,
    verdict_counts,
)
from ui.share import name_dropped, share_button, shared_state, shown_link
from ui.tables import room_for_table_toolbars

_TIMING_ID = "basemodel_state_is_slower"


def _results() -> list[ProbeResult]:
    ss = st.session_state
    if keys.PROBE_RESULTS not in ss:
        ss[keys.PROBE_RESULTS] = run_all()
    if ss.get(keys.PROBE_TIMING_REQUESTED) and keys.PROBE_TIMING not in ss:
        ss[keys.PROBE_TIMING] = run_probe(_TIMING_ID)
    results: list[ProbeResult] = ss[keys.PROBE_RESULTS]
    timing = [ss[keys.PROBE_TIMING]] if keys.PROBE_TIMING in ss else []
    return results + timing


def _rerun() -> None:
    for key in (keys.PROBE_RESULTS, keys.PROBE_TIMING):
        st.session_state.pop(key, None)


def _measure() -> None:
    st.session_state.pop(keys.PROBE_TIMING, None)
    st.session_state[keys.PROBE_TIMING_REQUESTED] = True


def _restore_probe(link: BehaviourLink, shown: list[str], timing: ProbeResult | None) -> None:
    if link.probe in shown:
        st.session_state[keys.PROBE] = link.probe
    elif link.probe == _TIMING_ID and timing is not None:
        st.warning(
            "The share link selects the timing probe. Measured again now (verdict: "
            f"{timing.verdict}), it is not among the probes the shared filters show: widen the "
            "Verdict or Source article filter to see it."
        )


# A share link (page "behaviour") is applied in steps: each before the widgets it sets.
# Parsed again as what it is checked against becomes known: the articles, the probes shown.
shared = shared_state("behaviour") or {}
link, _ = BehaviourLink.parse(shared)
if link.timing or link.probe == _TIMING_ID:
    st.session_state[keys.PROBE_TIMING_REQUESTED] = True
    st.session_state.pop(keys.PROBE_TIMING, None)  # the link's row is this opening's own run
    st.info(
        "This link includes the timing probe. It was measured again as the link opened, and "
        "timings vary from run to run, so its numbers and verdict may differ from the shared ones."
    )

st.title("Behaviour lab")
room_for_table_toolbars()  # on a phone, no toolbar covers a caption
st.caption(
    "Each row is a claim from the source articles, checked live against the installed "
    "versions. The verdict is computed from what the probe observed."
)
left, right = st.columns(2)
left.button("Re-run all probes", key=keys.RERUN_PROBES, on_click=_rerun)
right.button("Measure state kinds (timing probe)", key=keys.RUN_TIMING, on_click=_measure)

with st.spinner("Running probes…"):
    results = _results()
frame = results_frame(results)
timing = st.session_state.get(keys.PROBE_TIMING)
if timing is None:
    st.caption("The timing probe (BaseModel vs TypedDict vs dataclass state) runs on demand.")
else:
    st.caption(f"The timing probe's last run took {timing.seconds:.2f} s.")

articles = sorted(frame["article"].unique())
link, _ = BehaviourLink.parse(shared, {"articles": articles})
if link.verdicts is not None:
    st.session_state[keys.VERDICT_FILTER] = link.verdicts
if link.sources is not None:
    st.session_state[keys.SOURCE_FILTER] = link.sources
# Defaults through session state, not `default=`, so a share link can set them first.
st.session_state.setdefault(keys.VERDICT_FILTER, list(VERDICTS))
st.session_state.setdefault(keys.SOURCE_FILTER, articles)
verdicts = st.multiselect("Verdict", VERDICTS, key=keys.VERDICT_FILTER, persist_state="session")
chosen = st.multiselect("Source article", articles, key=keys.SOURCE_FILTER, persist_state="session")
keep = frame["verdict"].isin(verdicts) & frame["article"].isin(chosen)
shown = [r for r, kept in zip(results, keep, strict=True) if kept]
st.caption(verdict_counts(shown))
ids = [r.id for r in shown]
by_id = dict(zip(ids, shown, strict=True))
allowed = [*by_id, _TIMING_ID] if timing is not None else list(by_id)
link, dropped = BehaviourLink.parse(shared, {"articles": articles, "shown": allowed})
if shown:
    _restore_probe(link, ids, timing)  # the probe a share link names, as it opens
    open_clicked_row(ids)
table = results_frame(shown).drop(columns=["article"])
# Inside the page's 938 px at 1400, every cell whole; a probe's detail is under the table.
fit = probe_columns(table.to_dict("records"))
st.dataframe(
    table,
    hide_index=True,
    key=keys.table(keys.PROBE_TABLE),
    on_select="rerun",
    selection_mode="single-row",
    # eight rows in view (the header and borders: 38 px), however tall wrapping makes them
    height=min(len(table), 8) * fit["row_height"] + 38,
    **fit,
)
row_clicks()  # a click on any cell selects its row, as on the Validate page
st.caption(PROBE_ROWS_HELP)

md_col, json_col = st.columns(2)
md_col.download_button(
    "Download table as Markdown",
    results_to_markdown(shown),
    file_name="behaviour-lab.md",
    mime="text/markdown",
    key=keys.EXPORT_MD,
    on_click="ignore",
)
json_col.download_button(
    "Download table as JSON",
    results_to_json(shown),
    file_name="behaviour-lab.json",
    mime="application/json",
    key=keys.EXPORT_JSON,
    on_click="ignore",
)

name_dropped(dropped)
picked: str | None = None
if shown:
    picked = st.selectbox("Probe", ids, key=keys.PROBE, persist_state="session")
    probe_detail(by_id[picked], probe_source(picked))
else:
    st.info("No probe matches these filters. Widen the verdict or source filter.")
view = shown_link(
    BehaviourLink,
    verdicts=verdicts,
    sources=chosen,
    timing=keys.PROBE_TIMING in st.session_state,
    probe=picked or None,
)
share_button("behaviour", view, key=keys.SHARE)
