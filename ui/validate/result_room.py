"""Whether the Validate page's errors column has anything to list: else the editor is wider."""

from __future__ import annotations

import streamlit as st

from core.validate.report import Report
from ui import keys

__all__ = ["editor_is_wide", "nothing_to_list"]


def nothing_to_list(report: Report, listed: Report) -> bool:
    """Whether the errors column beside the editor shows only its caption: no row of
    `listed` (the table's errors), no syntax error or repeated key of `report`. Then the
    editor takes the wider column (`workbench(wide_editor=True)`), so at 1400 px the seed
    payload's longest line (its user_id) is drawn on one line.

    Only the columns' weights change with it, never the columns or what is in them:
    Streamlit keeps the editor's iframe (its undo history, its scroll) across the change.

    Example:
        >>> from core.order.presets import SEED_TEXT
        >>> from core.validate.report import validate_text
        >>> valid, invalid = validate_text(SEED_TEXT), validate_text("{}")
        >>> nothing_to_list(valid, valid), nothing_to_list(invalid, invalid)
        (True, False)
    """
    return not listed.errors and report.syntax_error is None and not report.duplicates


def editor_is_wide(report: Report, listed: Report) -> bool:
    """`nothing_to_list`, except while the text is not JSON (mid-edit, as a key is being
    typed): then the editor keeps the width it had, so it does not narrow and re-wrap under
    the user's hands each time a half-typed value reaches the page."""
    if report.syntax_error is not None:
        return bool(st.session_state.get(keys.EDITOR_WIDE, False))
    wide = nothing_to_list(report, listed)
    st.session_state[keys.EDITOR_WIDE] = wide
    return wide
