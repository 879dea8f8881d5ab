"""The sidebar's installed versions (every behaviour shown is observed on these)."""

from __future__ import annotations

from functools import cache
from importlib import metadata

import streamlit as st

from ui.text import plain

__all__ = ["PACKAGES", "installed_versions", "versions_table", "versions_view"]

# Whose behaviour the pages show: the Retry lab runs PydanticAI; stored threads and every run's
# checkpoints go through langgraph-checkpoint's serializer.
PACKAGES = (
    "pydantic",
    "langgraph",
    "langgraph-checkpoint",
    "langchain-core",
    "pydantic-ai-slim",
    "streamlit",
)


@cache  # module level, so once per server: app.py is re-executed on every rerun
def installed_versions() -> tuple[str, ...]:
    """The installed version of each of PACKAGES (reading package metadata is slow)."""
    return tuple(metadata.version(name) for name in PACKAGES)


def versions_table() -> str:
    """The versions as a two-column Markdown table, one package a row (names escaped)."""
    rows = [
        f"| {plain(name)} | {plain(version)} |"
        for name, version in zip(PACKAGES, installed_versions(), strict=True)
    ]
    return "\n".join(["| package | version |", "| --- | --- |", *rows])


def versions_view() -> None:
    """Caption and the versions as a Markdown table.

    A Markdown table, not a data grid: a second grid on every page cost the browser about
    30 ms on each Validate rerun (bench/browser_roundtrip.py, 2026-12-02). Not a code block
    either: in the sidebar's width its aligned lines wrapped, putting each version on the
    line under its package, or were cut at the right without wrapping. In the table each
    version sits beside its name, and a long name wraps inside its own cell.
    """
    st.caption("Installed versions (every behaviour shown is observed on these)")
    st.markdown(versions_table())
