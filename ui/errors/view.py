"""Verdict, error table, annotated payload text and exports for a Report."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

import pyarrow as pa
import streamlit as st

from core.jsontext.duplicates import MAX_REPORTED
from core.jsontext.write import plural
from core.validate.annotated import text_lines
from core.validate.entry import Headline
from core.validate.field_errors import FieldError
from core.validate.report import Report
from ui import keys
from ui.errors.focus import error_details
from ui.errors.keyboard import ROW_KEYS_HELP, keyboard_rows
from ui.errors.widths import wrapped_column_px
from ui.tables import rows_in_view, wrapped_row_height

__all__ = [
    "COLUMN_ORDER",
    "ERROR_COLUMNS",
    "GATE",
    "PYTHON_GATE",
    "MESSAGE_ROW_HEIGHT",
    "PYTHON_MODE_NOTE",
    "REJECTED_ORDER",
    "SELECTABLE_ORDER",
    "TOOL_CALL",
    "Verdicts",
    "caret_lines",
    "duplicates_view",
    "entry_banner",
    "error_table",
    "exports",
    "forget_selection",
    "select_row",
    "syntax_error_view",
    "verdict",
]


class Verdicts(NamedTuple):
    """The banner texts of a page: valid, `{count}` field errors, unreadable text."""

    valid: str
    rejected: str
    unreadable: str


GATE = Verdicts(
    "Gate open — the payload is valid; the graph would run.",
    "Gate closed — {count}, the graph would not run.",
    "Gate closed — the text is not a payload we can validate; fix it as shown.",
)
# The JSON text validates, the graph's gate (Python mode, on the parsed dict) does not.
PYTHON_GATE = GATE._replace(
    rejected="Gate closed — {count} in Python mode, the graph would not run: the JSON text "
    "is valid for this model, but the gate validates the parsed dict."
)
PYTHON_MODE_NOTE = (
    "Pydantic's JSON mode accepts this text; the graph's gate validates the parsed dict in "
    "Python mode, where some types accept less: in strict mode a UUID, a date or a Decimal "
    "must be that Python object, which JSON text cannot hold. Turn strict mode off, or loosen "
    "those fields."
)
TOOL_CALL = Verdicts(
    "Valid — the tool would receive this value.",
    "Invalid — {count}; the tool would not receive this call.",
    "Invalid — the text is not JSON we can validate; fix it as shown.",
)
# The message right after where it is: at 1280 px the result column shows about four
# columns, and behind the rule's name it was cut to "Input sho…". The pointer (the path
# again, as a JSON pointer) can wait at the end.
COLUMN_ORDER = ("path", "line:col", "message", "type", "input", "ctx", "docs", "pointer")
# The headers say what the less obvious columns hold (fixed text, never user data). Not
# pinned: Streamlit draws a pinned column in faded grey, too faint for the field's name.
ERROR_COLUMNS = {
    "path": st.column_config.TextColumn("path", help="The field, as Python spells it."),
    "pointer": st.column_config.TextColumn("pointer", help="The same field as a JSON pointer."),
    "line:col": st.column_config.TextColumn(
        "line:col",
        help="Where it is in your text: an unknown key at the key, a missing one at its object.",
    ),
    "input": st.column_config.TextColumn(
        "input", help="The value rejected (cut to 80 characters)."
    ),
    "ctx": st.column_config.TextColumn("ctx", help="The rule's parameters: a bound, a pattern."),
    "docs": st.column_config.LinkColumn("docs", display_text="docs ↗"),
    "message": st.column_config.TextColumn("message", width="large"),
}
# A selectable table shows the columns that say where and what, the message wrapped in rows
# tall enough for three lines; the rest sits beside it for the selected row (error_details),
# so nothing important is off to the right at 1400 px.
SELECTABLE_ORDER = ("path", "line:col", "message")
# Streamlit wraps cell text only in rows taller than 4rem (64 px): 86 px holds four lines.
MESSAGE_ROW_HEIGHT = 100
# A message longer than four lines makes every row taller, up to this many lines: Validate's
# messages were cut mid-line at the row's foot (issue 41, item 6). The details under or
# beside the table hold the whole of the selected one, however long.
MOST_MESSAGE_LINES = 12


def _where_columns(path: int, line_col: int, message: int) -> dict[str, Any]:
    """Where an error is (its field, its line:col) and its message, at these widths: fixed,
    so the message takes the rest of the width and wraps in it."""
    return {
        "path": st.column_config.TextColumn(
            "path", width=path, help="The field, as Python spells it."
        ),
        "line:col": st.column_config.TextColumn(
            "line:col",
            width=line_col,
            help="Where it is in your text: an unknown key at the key, a missing one at its "
            "object.",
        ),
        "message": st.column_config.TextColumn("message", width=message),
    }


SELECTABLE_COLUMNS = ERROR_COLUMNS | _where_columns(96, 56, 136)
# The Validate page's one table (both verdicts' errors) says who rejects each row. Its four
# columns and the selection box fit a phone's 356 px and, with the table at two thirds of
# the result column, 1400 px: no sideways scrolling (test_editor_errors_e2e.py).
REJECTED_COLUMNS = (
    SELECTABLE_COLUMNS
    | _where_columns(84, 48, 112)
    | {
        "rejected by": st.column_config.TextColumn(
            "rejected by",
            width=76,
            help="Who rejects it: LangGraph's entry (a real run up to the first node), your "
            "model alone (Pydantic), or both.",
        ),
    }
)
REJECTED_ORDER = (*SELECTABLE_ORDER, "rejected by")


def verdict(report: Report, *, texts: Verdicts = GATE) -> None:
    """Valid / rejected / unreadable banner (fixed text and counts only)."""
    if report.syntax_error is not None:
        st.error(texts.unreadable)
    elif report.ok:
        st.success(texts.valid)
    else:
        st.error(texts.rejected.format(count=plural(len(report.errors), "error")))


def duplicates_view(report: Report) -> None:
    """Keys the text repeats: a warning, then each key's path and every line:col as text."""
    duplicates = report.duplicates
    if not duplicates:
        return
    st.warning(
        f"The text repeats {plural(len(duplicates), 'key')} within one object. Only the last "
        "value of each is validated and kept; the earlier ones are silently dropped. "
        "Remove or rename them."
    )
    lines = [duplicate.describe() for duplicate in duplicates[:MAX_REPORTED]]
    if len(duplicates) > MAX_REPORTED:
        lines.append(f"… and {len(duplicates) - MAX_REPORTED:,} more")
    st.code("\n".join(lines), language=None)


def syntax_error_view(report: Report) -> None:
    """Where the text stops being acceptable JSON, with the offending line."""
    error = report.syntax_error
    if error is None or report.text is None:
        return
    st.code(
        f"line {error.line}, column {error.col} [{error.code}]\n{error.message}",
        language=None,
        wrap_lines=True,  # the hint after the message says how to fix it: keep it in view
    )
    excerpt = caret_lines(report.text, error.line, error.col)
    if excerpt is not None:
        st.code(excerpt, language=None)


def caret_lines(text: str, line: int, col: int) -> str | None:
    """Line `line` of `text` (up to 60 characters of it) and a caret under column `col`, as
    two lines of plain text; None when `text` has no such line.

    Example:
        >>> print(caret_lines('{"a": 1,}', 1, 9))
        {"a": 1,}
                ^
    """
    lines = text_lines(text)
    if not 1 <= line <= len(lines):
        return None
    # The caret within the first 30 characters: it stays in a narrow column's view.
    start = max(0, col - 30)
    pointer = " " * (col - 1 - start) + "^"
    return f"{lines[line - 1][start : start + 60]}\n{pointer}"


def entry_banner(said: Headline) -> None:
    """The two verdicts (LangGraph's, then the model alone's): fixed text and counts in the
    banner, the names (keys, fields, nodes, what LangGraph raised) as plain text below it."""
    {"success": st.success, "warning": st.warning, "error": st.error}[said.level](said.text)
    if said.details:
        st.code("\n".join(said.details), language=None, wrap_lines=True)


def error_table(
    report: Report,
    *,
    key: str,
    texts: Verdicts | None = GATE,
    selectable: bool = False,
    by: Sequence[str] | None = None,
    theirs: Sequence[str | None] | None = None,
) -> FieldError | None:
    """Verdict (unless `texts` is None), repeated keys, then one row per error.

    With `selectable`, the table holds path, line:col and the message (wrapped), and the
    error selected (the first until one is) has its type, input, rule parameters, docs and
    pointer beside it (`error_details`); the selected error is returned, for the editor to
    move its caret there. A row is selected by a click, or by Enter or Space on it
    (`keyboard_rows`; the caption under the table says so). Otherwise every column is shown
    (COLUMN_ORDER) and None returned.
    `by` (one entry per error: who rejects it) adds a "rejected by" column after the message;
    `theirs` (one per error) is LangGraph's wording of an error both reject, for the details.
    """
    if texts is not None:
        verdict(report, texts=texts)
    syntax_error_view(report)
    duplicates_view(report)
    if not report.errors:
        return None
    # An Arrow table, not a pandas frame: Streamlit sends Arrow, and building it directly
    # takes about 0.1 ms against about 2 ms through pandas for the same rows.
    listed = report.to_rows()
    if by is not None:
        listed = [row | {"rejected by": who} for row, who in zip(listed, by, strict=True)]
    rows = pa.Table.from_pylist(listed)
    if not selectable:
        st.dataframe(
            rows,
            key=keys.table(key),
            hide_index=True,
            column_config=ERROR_COLUMNS,
            column_order=COLUMN_ORDER if by is None else (*COLUMN_ORDER, "rejected by"),
        )
        return None
    # Side by side, stacked on a phone (details below). "rejected by" (the Validate page,
    # beside its editor) takes the result column's whole width, the details under it.
    table, beside = st.columns([3, 2], gap="small") if by is None else (st.container(),) * 2
    columns = SELECTABLE_COLUMNS if by is None else _fitted_rejected_columns(listed)
    height = _row_height(listed, columns)
    with table:
        event = st.dataframe(
            rows,
            key=keys.table(key),
            hide_index=True,
            column_config=columns,
            column_order=SELECTABLE_ORDER if by is None else REJECTED_ORDER,
            on_select="rerun",
            selection_mode="single-row",
            row_height=height,
            # Every row in view up to eight (Streamlit's "auto" stops at about 400 px,
            # four of these rows); a longer list scrolls inside the table.
            height=rows_in_view(height, len(report.errors)),
        )
        keyboard_rows(key)  # Enter or Space selects a row; the keys stay in the table
        st.caption(ROW_KEYS_HELP)
    picked = event.selection.rows
    chosen = report.errors[picked[0]] if picked and picked[0] < len(report.errors) else None
    shown = 0 if chosen is None else picked[0]
    with beside, st.container(key=keys.part(key, "details")):
        error_details(
            report.errors[shown],
            chosen=chosen is not None,
            theirs=None if theirs is None else theirs[shown],
        )
    return chosen


# The four columns of REJECTED_COLUMNS beside the selection box, on a phone (its grid's 356 px
# less the box's 32): each as wide as its header and values need on one line,
# measured in the grid's font (path, line:col and rejected by: a name cut mid-word read
# "items[0].un / it_price", and "line:col" lost its last letter at 48 px), the message taking
# the rest, wrapped in taller rows, and never less than its longest word ("'^[A-Z0-9-]+$"
# over "'" at 95 px), up to a word of _WORD_MOST: a longer one (a URL) breaks where it
# must rather than push the table past a phone's width (the details under it hold it whole).
_REJECTED_ROOM = 324  # px
_PATH_MOST = 150  # px: a longer path breaks where it must, whole in the details
_WORD_MOST = 130  # px


def _fitted_rejected_columns(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """REJECTED_COLUMNS with each column's width chosen by its header and values."""

    def width(name: str) -> int:  # the rows wrap: each column's values as wrapped text
        return wrapped_column_px(name, [str(row.get(name) or "") for row in rows])

    path = min(width("path"), _PATH_MOST)
    line_col = width("line:col")
    by = width("rejected by")
    word = min(width("message"), _WORD_MOST)
    message = max(_REJECTED_ROOM - path - line_col - by, word)
    widths = _where_columns(path, line_col, message)
    return (
        REJECTED_COLUMNS | widths | {"rejected by": REJECTED_COLUMNS["rejected by"] | {"width": by}}
    )


def _row_height(rows: list[dict[str, Any]], columns: dict[str, Any]) -> int:
    """Rows tall enough for four lines, or for the longest path or message wrapped in its
    column (up to MOST_MESSAGE_LINES)."""
    widths = {name: int(columns[name]["width"]) for name in ("path", "message")}
    texts = [{name: str(row.get(name) or "") for name in widths} for row in rows]
    return max(MESSAGE_ROW_HEIGHT, wrapped_row_height(texts, widths, MOST_MESSAGE_LINES))


def select_row(key: str, row: int) -> None:
    """Select `row` in the selectable error table under `key` the next time it is drawn (the
    row a share link names; a row past the table's end selects nothing)."""
    st.session_state[keys.table(key)] = {"selection": {"rows": [row], "columns": []}}


def forget_selection(key: str) -> None:
    """Untick the row selected in the error table under `key` (it belonged to another text):
    the browser's grid is told so too, where a dropped key would leave its row ticked."""
    st.session_state[keys.table(key)] = {"selection": {"rows": [], "columns": []}}


def exports(
    report: Report, *, key: str, basename: str = "errors", by: Sequence[str] | None = None
) -> None:
    """Download buttons: errors() JSON, FastAPI's answer, CSV, behind one "Download" button.
    With `by` (one entry per error: who rejects it), the JSON and CSV say it for each error.

    The files are built when a button is pressed, not on every rerun (the FastAPI body
    re-validates the whole payload in Python mode). The three buttons are sent only while
    the popover is open (opening it reruns): a closed popover's buttons still cost each
    rerun three messages from the server and their rendering in the browser.
    """
    if report.ok or report.syntax_error is not None:
        return  # unreadable text has no field errors to export; the message above says why
    row = st.popover(
        "Download errors", icon=":material/download:", key=keys.part(key, "menu"), on_change="rerun"
    )
    if not row.open:
        return
    row.download_button(
        "Errors (JSON)",
        lambda: json.dumps(report.to_errors(by), indent=2),
        file_name=f"{basename}.json",
        mime="application/json",
        key=keys.part(key, "json"),
        disabled=not report.errors,
    )
    row.download_button(
        "FastAPI's answer (422 body)",
        lambda: json.dumps(report.to_fastapi(), default=str),
        file_name=f"{basename}-fastapi-answer.json",
        help="The 422 body a FastAPI endpoint taking this model sends back; when FastAPI "
        "would fail with 500 instead, the file says so and why.",
        mime="application/json",
        key=keys.part(key, "fastapi"),
    )
    row.download_button(
        "Errors (CSV)",
        lambda: report.to_csv(by),
        file_name=f"{basename}.csv",
        mime="text/csv",
        key=keys.part(key, "csv"),
        disabled=not report.errors,
    )
