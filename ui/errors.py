"""Verdict, error table, annotated payload text and exports for a Report."""

from __future__ import annotations

import json
from typing import NamedTuple

import pyarrow as pa
import streamlit as st

from core.jsontext.duplicates import MAX_REPORTED
from core.jsontext.paths import plural
from core.validate.entry import Headline
from core.validate.report import Report

__all__ = [
    "COLUMN_ORDER",
    "ERROR_COLUMNS",
    "GATE",
    "PYTHON_GATE",
    "PYTHON_MODE_NOTE",
    "TOOL_CALL",
    "Verdicts",
    "annotated_text",
    "duplicates_view",
    "entry_banner",
    "error_table",
    "exports",
    "syntax_error_view",
    "text_lines",
    "verdict",
]

MAX_ANNOTATED_LINES = 400
# Characters str.splitlines() and a browser may break a line at, but JSON positions do not:
# line:col counts "\n" only. Shown as one symbol each, so the columns stay where they were.
_OTHER_BREAKS = str.maketrans(dict.fromkeys("\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", "\u2424"))


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
    lines = text_lines(report.text)
    if 1 <= error.line <= len(lines):
        line = lines[error.line - 1]
        # The caret within the first 30 characters: it stays in a narrow column's view.
        start = max(0, error.col - 30)
        pointer = " " * (error.col - 1 - start) + "^"
        st.code(f"{line[start : start + 60]}\n{pointer}", language=None)


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
) -> None:
    """Verdict (unless `texts` is None), repeated keys, then one row per error: path,
    line:col, message, type, input, ctx, docs, pointer (COLUMN_ORDER).
    """
    if texts is not None:
        verdict(report, texts=texts)
    syntax_error_view(report)
    duplicates_view(report)
    if not report.errors:
        return
    # An Arrow table, not a pandas frame: Streamlit sends Arrow, and building it directly
    # takes about 0.1 ms against about 2 ms through pandas for the same rows.
    st.dataframe(
        pa.Table.from_pylist(report.to_rows()),
        key=f"{key}__table",
        hide_index=True,
        column_config=ERROR_COLUMNS,
        column_order=COLUMN_ORDER,
    )


def text_lines(text: str) -> list[str]:
    r"""The text's lines as line:col counts them (split at "\n" only), safe to show.

    A line's own "\r" (Windows line ends) is dropped; any other line-breaking character
    shows as ␤, so a caret line under it still lines up.

    Example:
        >>> text_lines('{"a": "x\u2028y",\r\n "b": 1}\n')
        ['{"a": "x␤y",', ' "b": 1}']
    """
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":  # a final newline ends the last line, no new one
        lines.pop()
    return [line.removesuffix("\r").translate(_OTHER_BREAKS) for line in lines]


def annotated_text(report: Report) -> str:
    """The payload with line numbers; a caret line under every error and dropped repeated key.

    Long payloads show only the lines around errors (at most MAX_ANNOTATED_LINES lines).
    """
    if report.text is None:
        return ""
    lines = text_lines(report.text)
    marks: dict[int, list[tuple[int, str]]] = {}
    positions = [(e.line, e.col, f"{e.type} at {e.path}: {e.msg}") for e in report.errors]
    if report.syntax_error is not None:
        error = report.syntax_error
        positions.append((error.line, error.col, f"{error.code}: {error.message}"))
    for duplicate in report.duplicates[:MAX_REPORTED]:  # all but the last are dropped
        for line, col in duplicate.positions[:-1]:
            positions.append((line, col, f"repeated key {duplicate.path}: this value is dropped"))
    for line, col, note in positions:
        if line is not None:
            marks.setdefault(line, []).append((col or 1, note))
    width = len(str(len(lines)))
    shown = _lines_to_show(len(lines), sorted(marks))
    out: list[str] = []
    previous = 0
    for number in shown:
        if number != previous + 1:
            out.append(f"  {'':>{width}} ⋮")
        text = lines[number - 1]
        flag = "▶" if number in marks else " "  # its own column: never touching the number
        out.append(f"{flag} {number:>{width}} │ {text[:300]}")
        for col, note in marks.get(number, []):
            note = note[:200].replace("\n", "\u2424").translate(_OTHER_BREAKS)  # may quote input
            out.append(f"  {'':>{width}} │ {' ' * (min(col, 300) - 1)}^ {note}")
        previous = number
    if shown and shown[-1] != len(lines):
        out.append(f"  {'':>{width}} ⋮")
    return "\n".join(out)


def _lines_to_show(total: int, marked: list[int]) -> list[int]:
    if total <= MAX_ANNOTATED_LINES:
        return list(range(1, total + 1))
    keep: set[int] = set()
    for line in marked:
        keep.update(range(max(1, line - 2), min(total, line + 2) + 1))
        if len(keep) >= MAX_ANNOTATED_LINES:
            break
    return sorted(keep)[:MAX_ANNOTATED_LINES] or list(range(1, 21))


def exports(report: Report, *, key: str, basename: str = "errors") -> None:
    """Download buttons: errors() JSON, FastAPI's answer, CSV, behind one "Download" button.

    The files are built when a button is pressed, not on every rerun (the FastAPI body
    re-validates the whole payload in Python mode). In a popover, the three buttons are
    not drawn until it opens, which keeps each rerun lighter for the browser.
    """
    if report.ok or report.syntax_error is not None:
        return  # unreadable text has no field errors to export; the message above says why
    row = st.popover("Download errors", icon=":material/download:")
    row.download_button(
        "Errors (JSON)",
        lambda: json.dumps(report.to_errors(), indent=2),
        file_name=f"{basename}.json",
        mime="application/json",
        key=f"{key}__json",
        disabled=not report.errors,
    )
    row.download_button(
        "FastAPI's answer (422 body)",
        lambda: json.dumps(report.to_fastapi(), default=str),
        file_name=f"{basename}-fastapi-answer.json",
        help="The 422 body a FastAPI endpoint taking this model sends back; when FastAPI "
        "would fail with 500 instead, the file says so and why.",
        mime="application/json",
        key=f"{key}__fastapi",
    )
    row.download_button(
        "Errors (CSV)",
        report.to_csv,
        file_name=f"{basename}.csv",
        mime="text/csv",
        key=f"{key}__csv",
        disabled=not report.errors,
    )
