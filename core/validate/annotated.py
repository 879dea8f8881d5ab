"""The payload as text with line numbers and a caret under every error, ready to show."""

from __future__ import annotations

from core.jsontext.duplicates import MAX_REPORTED
from core.validate.report import Report

__all__ = ["MAX_ANNOTATED_LINES", "annotated_text", "text_lines"]

MAX_ANNOTATED_LINES = 400
# Characters str.splitlines() and a browser may break a line at, but JSON positions do not:
# line:col counts "\n" only. Shown as one symbol each, so the columns stay where they were.
_OTHER_BREAKS = str.maketrans(dict.fromkeys("\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", "\u2424"))


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

    Example:
        >>> from core.validate.report import validate_text
        >>> print(annotated_text(validate_text('{"amount": -1}')))
        ▶ 1 │ {"amount": -1}
            │ ^ missing at user_id: Field required
            │            ^ greater_than_equal at amount: Input should be greater than or equal to 0
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
        note = f"repeated key {duplicate.path}: this value is dropped"
        positions += [(at_line, at_col, note) for at_line, at_col in duplicate.positions[:-1]]
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
