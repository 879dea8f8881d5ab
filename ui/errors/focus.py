"""An error's place in the editor and its details beside the table: marks, go-to, details."""

from __future__ import annotations

import streamlit as st

from core.jsontext.write import truncate
from core.validate.field_errors import FieldError
from core.validate.report import Report
from ui import keys
from ui.editor.json_editor import Mark

__all__ = ["details_text", "error_details", "report_marks", "selected_spot"]


def error_details(error: FieldError, *, chosen: bool = True, theirs: str | None = None) -> None:
    """One error's message, type, input, rule parameters (ctx), JSON pointer and docs link;
    `theirs`: LangGraph's own wording of the same error, where both reject it.

    One code block (the input and the path are the user's text), labelled line by line: a
    dozen elements (a caption and a block each) cost the browser about 15 ms a rerun.
    """
    where = "" if error.line is None else f" at {error.line}:{error.col}"
    st.caption(("Selected error" if chosen else "First error (select a row for another)") + where)
    st.text(details_text(error, theirs))  # proportional and wrapped: the column is narrow
    if error.url:  # Pydantic's own errors page, never the user's text
        st.link_button("Pydantic docs for this error", error.url, icon=":material/open_in_new:")


def details_text(error: FieldError, theirs: str | None = None) -> str:
    """The field and message, then `type`, `input`, `ctx` (when the rule has parameters)
    and `pointer`, each label on its own line and its value indented under it: the column
    beside the table is narrow, and a value never shares a line with its label. `theirs`
    (LangGraph's wording of an error both reject) follows the message.

    Example:
        >>> print(details_text(FieldError(("qty",), "qty", "/qty", "int_parsing",
        ...     "Input should be a valid integer", "x")))
        qty
        Input should be a valid integer
        <BLANKLINE>
        type
          int_parsing
        input
          "x"
        pointer
          /qty
    """
    lines = [error.path or "(the payload)", error.msg, ""]
    if theirs is not None:
        lines[2:2] = ["", "LangGraph says it as", f"  {theirs}"]
    lines += ["type", f"  {error.type}", "input", f"  {truncate(error.input, 400)}"]
    if error.ctx:
        lines += ["ctx", f"  {truncate(error.ctx, 400)}"]
    lines += ["pointer", f"  {error.pointer or '(root)'}"]
    return "\n".join(lines)


def selected_spot(error: FieldError | None, *, key: str) -> tuple[int, int] | None:
    """Where an editor's caret goes for the error selected in table `key`: its line:col,
    once per new selection (a selection kept while the user types or clicks elsewhere does
    not pull the caret back)."""
    spot = None if error is None or error.line is None else (error.line, error.col or 1)
    if spot == st.session_state.get(keys.part(key, "spot")):
        return None
    st.session_state[keys.part(key, "spot")] = spot
    return spot


def report_marks(*reports: Report | None) -> list[Mark]:
    """The editor marks for reports on one text: the JSON syntax error, each field error at
    its line:col, and each repeated key as a warning. An error two reports share (the model
    alone's and LangGraph's entry) is marked once."""
    marks: list[Mark] = []
    seen: set[tuple[str, str]] = set()
    for report in reports:
        if report is None:
            continue
        if report.syntax_error is not None and not marks:
            error = report.syntax_error
            marks.append(Mark(error.line, error.col, f"[{error.code}] {error.message}"))
        for field in report.errors:
            if field.line is not None and field.col is not None and field.identity not in seen:
                seen.add(field.identity)
                marks.append(
                    Mark(
                        field.line,
                        field.col,
                        f"{field.path or '(payload)'}: {field.msg} [{field.type}]",
                    )
                )
    first = next((r for r in reports if r is not None), None)
    for duplicate in first.duplicates if first is not None and first.syntax_error is None else ():
        *dropped, kept = duplicate.positions
        for line, col in dropped:
            marks.append(
                Mark(line, col, f"{duplicate.path}: repeated key; this value is dropped", "warning")
            )
        marks.append(
            Mark(
                kept[0],
                kept[1],
                f"{duplicate.path}: repeated key; this last value is kept",
                "warning",
            )
        )
    return marks
