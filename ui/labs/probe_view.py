"""Streamlit building blocks of the Behaviour lab: the results table and one probe's detail."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.probes import VERDICTS, ProbeResult, article_of

__all__ = ["probe_detail", "results_frame", "verdict_counts"]


def results_frame(results: list[ProbeResult]) -> pd.DataFrame:
    """One text row per probe (numbers only in `seconds`), for st.dataframe and filtering."""
    return pd.DataFrame(
        {
            "id": [r.id for r in results],
            "verdict": [r.verdict for r in results],
            "claim": [r.claim for r in results],
            "source": [r.source for r in results],
            "article": [article_of(r.source) for r in results],
            "evidence": [r.evidence for r in results],
            "seconds": [float(r.seconds) for r in results],
        },
        columns=["id", "verdict", "claim", "source", "article", "evidence", "seconds"],
    )


def verdict_counts(results: list[ProbeResult]) -> str:
    """'N probes: a holds, b differs, c partly, d inconclusive' for a caption."""
    counts = {v: sum(r.verdict == v for r in results) for v in VERDICTS}
    return f"{len(results)} probes: " + ", ".join(f"{n} {v}" for v, n in counts.items())


def probe_detail(result: ProbeResult, source_code: str) -> None:
    """Claim, source, evidence, versions and the probe's code, all as plain text."""
    st.subheader(result.id)
    st.text(f"Claim: {result.claim}\nSource: {result.source}\nVerdict: {result.verdict}")
    st.caption(f"Evidence (observed in {result.seconds:.3f} s)")
    st.code(result.evidence, language="text")
    st.caption("Installed versions")
    st.dataframe(
        pd.DataFrame({"package": list(result.versions), "version": list(result.versions.values())}),
        hide_index=True,
        key="probe_versions",
    )
    st.caption("Probe code")
    st.code(source_code, language="python")
