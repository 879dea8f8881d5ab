"""Room for the tables' toolbars on a phone, so they cover nothing drawn above a table."""

from __future__ import annotations

import streamlit as st

__all__ = ["TOOLBAR_ROOM", "room_for_table_toolbars"]

# A table's toolbar (show/hide columns, download, search, fullscreen: 44 px tall) is drawn on
# a hover or a tap right above the table, over the page's 16 px gap and 28 px of whatever is
# above: on a phone, the tail of a caption ("… 0 inconclusive") or of a heading. Below
# Streamlit's phone breakpoint (its columns stack at 640 px) each table keeps that room
# free; wider, a caption's text rarely reaches the right end, so no table moves there.
# The toolbar's height less the gap, and 4 px: a heading's last line reaches 1.4 px below
# its element (measured in Chromium on the Tool-parameter lab).
TOOLBAR_ROOM = 44 - 16 + 4  # px
_STYLE = f"""<style>
@media (max-width: 640px) {{
  [data-testid="stElementContainer"]:has(
      > [data-testid="stFullScreenFrame"] > [data-testid="stDataFrame"]) {{
    margin-top: {TOOLBAR_ROOM}px;
  }}
}}
</style>"""


def room_for_table_toolbars() -> None:
    """Keep the room above every table of the page (static CSS, no user data: it takes no
    place in the page, Streamlit sends style-only HTML to its event container)."""
    st.html(_STYLE)
