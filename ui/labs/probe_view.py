"""Streamlit building blocks of the Behaviour lab: the results table and one probe's detail."""

from __future__ import annotations

from typing import Literal

import pandas as pd
import streamlit as st

from core.probes import VERDICTS, ProbeResult
from core.words import count
from ui import keys

__all__ = ["MEANINGS", "probe_detail", "results_frame", "verdict_counts"]

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
    what the page filters on, and is dropped from the table it draws.
    """
    return pd.DataFrame(
        {
            "id": [r.id for r in results],
            "verdict": [r.verdict for r in results],
            "claim": [r.claim for r in results],
            "source": [r.source for r in results],
            "article": [r.article for r in results],
            "evidence": [r.evidence for r in results],
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
        f"Claim: {result.claim}\nArticle: {result.article}\nSection: {result.section}\n"
        f"Verdict: {result.verdict}"
    )
    st.caption(f"Evidence (observed in {result.seconds:.3f} s)")
    st.code(result.evidence, language="text", wrap_lines=True)  # never cut at the right
    st.caption("Installed versions")
    st.dataframe(
        pd.DataFrame({"package": list(result.versions), "version": list(result.versions.values())}),
        hide_index=True,
        key=keys.PROBE_VERSIONS,
    )
    st.caption("Probe code")
    st.code(source_code, language="python")
