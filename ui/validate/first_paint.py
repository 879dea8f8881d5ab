"""The Validate page's frame, and its first paint on a cold server: the editor before the rest.

A fresh server has not imported Pydantic's models, LangGraph or pandas yet, and the first
visitor (often through a share link to a sleeping demo) would wait for all of them before
seeing anything. On that first run `paint_first` draws the page's frame with the editor in
it (light imports only), then imports the rest and reruns: the full page draws into the same
frame, so the editor stays where it is, with its text and focus, and the verdicts arrive
around it.

The frame is one function (`head`, `workbench`, `more`) used by the page and by the first
paint alike: Streamlit places each element by its position in its container, and the
editor is kept only while that position is the same.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from core.order.seed import SEED_TEXT
from core.project.load import is_configured
from core.share import PARAM, ShareError, decode_share
from ui import keys
from ui.editor.json_editor import json_editor
from ui.editor.payload import current_payload_text, editor_tools
from ui.tables import room_for_table_toolbars

__all__ = [
    "EDITOR_HEIGHT",
    "HEAVY",
    "LOADING",
    "VERDICT",
    "VERDICT_ROOM",
    "heading",
    "head",
    "more",
    "paint_first",
    "will_paint_first",
    "workbench",
]

EDITOR_HEIGHT = 420  # px
VERDICT = keys.part(keys.VALIDATE_WORKBENCH, "verdict")  # the verdict's box, over both columns
# What the full Validate page imports beyond the first paint's needs (pandas for its tables,
# LangGraph for the entry verdict and the seed model's reducers, the project's loader).
HEAVY = (
    "pandas",
    "langgraph.graph",
    "core.order.models",
    "core.validate.entry",
    "ui.project",
    "ui.errors.view",
    "ui.validate.model_form",
)
# Said above the editor while the first paint's imports run (tests wait for it to go).
LOADING = "Loading Pydantic and LangGraph to check this payload…"
_CAPTION = (
    "Paste a payload (or pick a preset). The first line says what LangGraph does with it "
    "(a real run up to the first node); below, every field your model rejects, with its path, "
    "its line:col in your text, the rule and the value."
)


# The verdict's box keeps room for a verdict of one error (a banner of three lines and
# LangGraph's error in three on a phone; two lines and one at 1400 px), so the first error
# moves nothing under it: the editor and its "Edit as" row stayed put at 1400 px but went
# down 24 to 69 px on a phone as the banner and the error under it took more lines
# (issue 41, item 9). Measured in Chromium (test_layout_shift_e2e.py); a verdict of several
# errors may still take more.
VERDICT_ROOM = {"phone": 220, "wide": 150}  # px
_VERDICT_STYLE = f"""<style>
.st-key-{VERDICT} {{ min-height: {VERDICT_ROOM["wide"]}px; }}
@media (max-width: 640px) {{ .st-key-{VERDICT} {{ min-height: {VERDICT_ROOM["phone"]}px; }} }}
</style>"""


def heading(title: str) -> None:
    """A section heading (fixed text): the same h3, font and spacing as st.subheader's, as
    Markdown. Every element of the page is drawn again on each message of a rerun, and this
    one is 9 React components against st.subheader's 18 (27 per commit for the three)."""
    st.markdown(f"### {title}")


def head() -> DeltaGenerator:
    """The page's first block: its title and caption; the page adds its controls below them."""
    box = st.container()
    with box:
        st.title("Validate")
        room_for_table_toolbars()  # on a phone, no toolbar covers a caption
        st.html(_VERDICT_STYLE)  # static CSS: it takes no place in the page
        st.caption(_CAPTION)
    return box


# The editor's column and the result's, at every verdict: at 1400 px the editor draws the
# seed payload's longest line (its user_id) on one line, and the error table (its details
# under it) has the result column's 400 px.
COLUMN_WEIGHTS = (6, 5)


def workbench() -> tuple[DeltaGenerator, ...]:
    """The page's second block: the verdict's box above two columns, the editor's (its
    controls' box, then the editor) and the result's. Returns (verdict, controls, edit,
    result). The columns keep their widths whatever the verdict (no layout shift)."""
    with st.container(key=keys.VALIDATE_WORKBENCH):
        verdict = st.container(key=VERDICT)
        edit, result = st.columns(list(COLUMN_WEIGHTS), gap="medium")
    with edit:
        controls = st.container()
    return verdict, controls, edit, result


def more() -> DeltaGenerator:
    """The page's third block: the views of the payload under the workbench."""
    return st.container()


def cold() -> bool:
    """Whether this server process has not yet loaded what the full page needs."""
    return any(name not in sys.modules for name in HEAVY)


def _link_text() -> str | None:
    """The payload a share link opened on this page carries, read without applying the link
    (the full page applies it, with its checks, on the next run)."""
    token = st.query_params.get(PARAM)
    if not token:
        return None
    try:
        state: dict[str, Any] = decode_share(token)
    except ShareError:
        return None
    payload = state.get("payload")
    return payload if state.get("page") == "validate" and isinstance(payload, str) else None


def will_paint_first() -> bool:
    """Whether the Validate page should paint its editor first: on a cold server, unless a
    project is configured (its default text needs its model loaded)."""
    return cold() and not is_configured(sys.argv[1:], os.environ, Path.cwd())


@st.fragment  # the page draws its workbench in a fragment, which is a block of its own
def _frame(text: str) -> None:
    """The workbench as the page draws it, with the editor and nothing checked yet."""
    verdict, controls, edit, result = workbench()
    with verdict:
        st.caption(LOADING)
    with controls:
        heading("Payload")
    with edit:
        # The editor alone, its text not taken into the session: the full page, one run
        # later, takes in what was typed and applies a share link with its own checks.
        json_editor(
            text, key=keys.editor(keys.PAYLOAD), height=EDITOR_HEIGHT, label="Payload (JSON)"
        )
        editor_tools(keys.PAYLOAD, SEED_TEXT, text)
    with result:
        heading("Errors")


def paint_first() -> None:
    """In the run app.py chose (`will_paint_first`, before drawing the sidebar), draw the
    frame and the editor, import the rest, and rerun; in any other run, nothing."""
    if not st.session_state.pop(keys.FIRST_PAINT, False):
        return
    link_text = _link_text()
    text = link_text or st.session_state.get(keys.PAYLOAD, current_payload_text())
    head()
    _frame(text)
    # The imports hold the GIL for a second or more while the server's thread sends this
    # frame and serves the editor's files: app.py's short switch interval lets it through.
    for name in HEAVY:
        import_module(name)
    st.rerun()
