"""The payload as text with line numbers and a caret under every error, ready to show."""

from __future__ import annotations

import textwrap

from core.jsontext.duplicates import MAX_REPORTED
from core.jsontext.write import clip
from core.validate.report import Report
from core.words import count

__all__ = [
    "ANNOTATED_WIDTH",
    "MAX_ANNOTATED_LINES",
    "MAX_LINE_CHARS",
    "MAX_NOTE_CHARS",
    "MAX_VALUE_LINES",
    "annotated_text",
    "bounded_text",
    "line_pieces",
    "text_lines",
]

MAX_ANNOTATED_LINES = 400
MAX_LINE_CHARS = 300  # of one line of the payload; the rest is cut, and said to be
# Characters an annotated line takes at most: the Validate page's code block holds 110 of
# them on one line at 1400 px (924 px of 8.4 px characters), so none of ours is wrapped there.
ANNOTATED_WIDTH = 100
MAX_NOTE_CHARS = 200  # of one error's note under its line
_NOTE_ROOM = 40  # characters of a note on each of its lines at least
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


def annotated_text(report: Report, width: int = ANNOTATED_WIDTH) -> str:
    """The payload with line numbers; a caret line under every error and dropped repeated key.

    No line is longer than `width` characters, so none is wrapped where the page is at least
    that wide (a wrap would move a caret off its column): a longer line of the payload goes
    on in pieces, each on a line of its own whose bar is ┆, with each caret under the piece
    that holds its column, and a note longer than the room after its caret goes on in lines
    of its own, under its first word. Of a line, MAX_LINE_CHARS characters are shown and the
    rest cut, said by a last piece "… N more characters" where a caret past them points.
    Long payloads show only the lines around errors (at most MAX_ANNOTATED_LINES lines).

    Example:
        >>> from core.validate.report import validate_text
        >>> text = '{"user_id": "550e8400-e29b-41d4-a716-446655440000", "amount": -1}'
        >>> print(annotated_text(validate_text(text), width=60))
        ▶ 1 │ {"user_id": "550e8400-e29b-41d4-a716-446655440000", "a
            ┆ mount": -1}
            │         ^ greater_than_equal at amount: Input should
            │           be greater than or equal to 0
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
    digits = len(str(len(lines)))
    blank = f"  {'':>{digits}}"
    room = max(width - len(blank) - 3, _NOTE_ROOM)  # after the gutter: flag, number and bar
    shown = _lines_to_show(len(lines), sorted(marks))
    out: list[str] = []
    previous = 0
    for number in shown:
        if number != previous + 1:
            out.append(f"{blank} ⋮")
        pieces = line_pieces(lines[number - 1], room)
        placed: dict[int, list[str]] = {}
        for col, note in marks.get(number, []):
            if col > MAX_LINE_CHARS and len(lines[number - 1]) > MAX_LINE_CHARS:
                piece, offset = len(pieces) - 1, 0  # in what is cut: at the cut's own piece
            else:
                piece = min((col - 1) // room, len(pieces) - 1)
                offset = min(col - 1 - piece * room, room - 1)
            # A note may quote the input: at most MAX_NOTE_CHARS, its end marked when cut.
            note = clip(note, MAX_NOTE_CHARS).replace("\n", "\u2424").translate(_OTHER_BREAKS)
            placed.setdefault(piece, []).extend(_caret(offset, note, room))
        for index, piece_text in enumerate(pieces):
            if index == 0:
                flag = "▶" if number in marks else " "  # its own column: never touching the number
                out.append(f"{flag} {number:>{digits}} │ {piece_text}")
            else:
                out.append(f"{blank} ┆ {piece_text}")
            out += [f"{blank} │ {mark}".rstrip() for mark in placed.get(index, [])]
        previous = number
    if shown and shown[-1] != len(lines):
        out.append(f"{blank} ⋮")
    return "\n".join(out)


# Lines of a long text (a value, an error quoting one) drawn at most, each of at most
# MAX_LINE_CHARS: a 2 MB message drawn whole made the Trace page 2.1 million px tall.
MAX_VALUE_LINES = 200


def bounded_text(text: str) -> str:
    """`text` with each line cut as the Validate page cuts a long line ("… N more
    characters", on a line of its own) and at most MAX_VALUE_LINES lines, the rest said cut.

    Example:
        >>> print(bounded_text('{\\n  "content": "' + "x" * 400 + '"\\n}')[-27:])
        xxx
        … 115 more characters
        }
        >>> bounded_text("\\n".join("ab" * 150)).splitlines()[-1]
        '… 100 more lines'
    """
    lines = text.split("\n")
    shown = [
        piece for line in lines[:MAX_VALUE_LINES] for piece in line_pieces(line, MAX_LINE_CHARS)
    ]
    if len(lines) > MAX_VALUE_LINES:
        shown.append(f"… {count(len(lines) - MAX_VALUE_LINES, 'more line')}")
    return "\n".join(shown)


def line_pieces(line: str, room: int) -> list[str]:
    """`line` in pieces of `room` characters; past MAX_LINE_CHARS, a last piece says how many
    characters are cut."""
    kept = line[:MAX_LINE_CHARS]
    pieces = [kept[start : start + room] for start in range(0, len(kept), room)] or [""]
    if len(line) > MAX_LINE_CHARS:
        pieces.append(f"… {count(len(line) - MAX_LINE_CHARS, 'more character')}")
    return pieces


def _caret(offset: int, note: str, room: int) -> list[str]:
    """A caret `offset` characters in, its note after it, lines of at most `room` characters:
    the note goes on under its first word, or, with less than _NOTE_ROOM after the caret,
    starts on the next line, as far in as leaves it _NOTE_ROOM."""
    indent = min(offset + 2, room - _NOTE_ROOM)
    chunks = textwrap.wrap(note, room - indent, break_on_hyphens=False) or [""]
    if indent == offset + 2:
        first, chunks = f"{' ' * offset}^ {chunks[0]}", chunks[1:]
    else:
        first = f"{' ' * offset}^"
    return [first, *(f"{' ' * indent}{chunk}" for chunk in chunks)]


def _lines_to_show(total: int, marked: list[int]) -> list[int]:
    if total <= MAX_ANNOTATED_LINES:
        return list(range(1, total + 1))
    keep: set[int] = set()
    for line in marked:
        keep.update(range(max(1, line - 2), min(total, line + 2) + 1))
        if len(keep) >= MAX_ANNOTATED_LINES:
            break
    return sorted(keep)[:MAX_ANNOTATED_LINES] or list(range(1, 21))
