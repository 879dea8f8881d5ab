"""Streamlit building blocks of the Behaviour lab: the results table and one probe's detail."""

from __future__ import annotations

from typing import Literal

import pandas as pd
import streamlit as st

from core.probes import VERDICTS, ProbeResult
from core.words import count
from ui import keys
from ui.errors.keyboard import keyboard_rows
from ui.labs.evidence import evidence_summary, evidence_text

__all__ = [
    "MEANINGS",
    "PROBE_ROWS_HELP",
    "open_clicked_row",
    "probe_detail",
    "results_frame",
    "row_clicks",
    "verdict_counts",
]

# Under the probe table: how a row opens (the one row-click rule of issue 41, item 6).
PROBE_ROWS_HELP = (
    "Click a row to open its probe below, or reach a row with the arrow keys and press Enter "
    "or Space; the Probe box opens one by its id."
)
# The probe table's dataframe: its selection (the open probe's row) is kept there.
_TABLE = keys.table(keys.PROBE_TABLE)

# What each verdict means for someone building on the claim (fixed text, never probe data).
MEANINGS = {
    "holds": "What this means for you: the claim is true on the installed versions; rely on it.",
    "differs": "What this means for you: the installed versions do otherwise; do not rely on "
    "the claim: the evidence below shows what happens instead.",
    "partly": "What this means for you: true in some cases only; the evidence below says which.",
    "inconclusive": "What this means for you: the timing fell inside its noise; run it again "
    "on a quieter machine before relying on either answer.",
}
# st.badge's colours, named for mypy (a plain str is not one of them).
BadgeColor = Literal[
    "red", "orange", "yellow", "blue", "green", "violet", "gray", "grey", "primary"
]
# Badge colours that read on light and dark themes alike (Streamlit's own palette).
_COLOURS: dict[str, BadgeColor] = {
    "holds": "green",
    "differs": "red",
    "partly": "orange",
    "inconclusive": "gray",
}


def results_frame(results: list[ProbeResult]) -> pd.DataFrame:
    """One text row per probe (numbers only in `seconds`), for st.dataframe and filtering.

    `source` names the article and the section ("<article> § <section>"); `article` alone is
    what the page filters on, and is dropped from the table it draws. `evidence` says how the
    probe's checks came out, in words; each check is in the probe's detail (`probe_detail`).
    """
    return pd.DataFrame(
        {
            "id": [r.id for r in results],
            "verdict": [r.verdict for r in results],
            "claim": [r.claim for r in results],
            "source": [r.source for r in results],
            "article": [r.article for r in results],
            "evidence": [evidence_summary(r) for r in results],
            "seconds": [float(r.seconds) for r in results],
        },
        columns=["id", "verdict", "claim", "source", "article", "evidence", "seconds"],
    )


def verdict_counts(results: list[ProbeResult]) -> str:
    """'N probes: a holds, b differs, c partly, d inconclusive' for a caption."""
    counts = {v: sum(r.verdict == v for r in results) for v in VERDICTS}
    return f"{count(len(results), 'probe')}: " + ", ".join(f"{n} {v}" for v, n in counts.items())


def probe_detail(result: ProbeResult, source_code: str) -> None:
    """Claim, source, evidence, versions and the probe's code, all as plain text."""
    st.subheader(result.id)
    st.badge(result.verdict, color=_COLOURS[result.verdict])  # one of VERDICTS: fixed words
    st.caption(MEANINGS[result.verdict])
    st.text(
        # The source in the table's words ("<article> § <section>"): split in two lines, the
        # section lost its first "§" and read unlike the row it was opened from.
        f"Claim: {result.claim}\nSource: {result.source}\nVerdict: {result.verdict}"
    )
    st.caption(f"Evidence (observed in {result.seconds:.3f} s): {evidence_summary(result)}")
    # Never cut at the right; Pydantic's own text kept, its paths written as everywhere else.
    st.code(evidence_text(result), language="text", wrap_lines=True)
    st.caption("Installed versions")
    st.dataframe(
        pd.DataFrame({"package": list(result.versions), "version": list(result.versions.values())}),
        hide_index=True,
        key=keys.PROBE_VERSIONS,
    )
    st.caption("Probe code")
    st.code(source_code, language="python")


def open_clicked_row(ids: list[str]) -> None:
    """Open the probe of a row ticked in the probe table since it was last drawn (a click, or
    Enter or Space on it), through the Probe box's key; then tick the open probe's row
    (`ids`: the probes the table is about to show), however it was opened: a click, the
    Probe box or a share link. Unticking the open row keeps it open, ticked.

    The Probe box is drawn after the table, so its key is set here, before it.
    """
    ss = st.session_state
    drawn = ss.get(keys.PROBE_TABLE_DRAWN)
    selection = ss.get(_TABLE)
    rows = list(selection["selection"]["rows"]) if selection is not None else []
    if drawn is not None and rows and rows[0] < len(drawn["ids"]):
        clicked = drawn["ids"][rows[0]]
        if clicked != drawn["ticked"]:
            ss[keys.PROBE] = clicked
    if ss.get(keys.PROBE) not in ids:  # filtered out, or none yet: the first row opens
        ss[keys.PROBE] = ids[0]
    ticked = ss[keys.PROBE]
    if rows != [ids.index(ticked)]:  # written only when it changes: the grid keeps its cursor
        ss[_TABLE] = {"selection": {"rows": [ids.index(ticked)], "columns": []}}
    ss[keys.PROBE_TABLE_DRAWN] = {"ids": list(ids), "ticked": ticked}


def row_clicks() -> None:
    """A click on any cell of the probe table selects its row, and Enter or Space on a row
    does: the Validate page's rule for its error table, drawn with the table."""
    keyboard_rows(keys.PROBE_TABLE)
