"""A state, update, input or output value as the Trace page draws it: bounded text, each cut
said in words, the whole value a download away."""

from __future__ import annotations

import functools
from typing import Any

from streamlit.delta_generator import DeltaGenerator

from core.trace.reducers import dump_json
from core.validate.annotated import MAX_VALUE_LINES, bounded_text
from core.words import count
from ui import keys

__all__ = ["CUT_HEIGHT", "MAX_VALUE_LINES", "bounded_text", "text_code", "value_code"]

# px: a cut value's code block when its lines would wrap past this (it scrolls inside).
CUT_HEIGHT = 420
_LINE_PX, _WRAP_CHARS = 21, 40  # a code line's height; characters a narrow column holds


def value_code(where: DeltaGenerator, value: Any, *, key: str, name: str) -> None:
    """`value` as indented JSON in a code block of `where` (a column, an expander), bounded by
    `bounded_text`; when cut, a caption says how long the whole is and a button downloads it
    (`keys.part(key, "whole")`, its text made only when clicked).

    Example:
        value_code(right, step.update, key=keys.part(key, "update"), name="update")
    """
    text = dump_json(value, indent=2)
    shown = bounded_text(text)
    if shown == text:
        where.code(text, language="json", wrap_lines=True)
        return
    drawn = sum(1 + len(line) // _WRAP_CHARS for line in shown.split("\n"))
    tall = drawn * _LINE_PX > CUT_HEIGHT
    where.code(shown, language="json", wrap_lines=True, height=CUT_HEIGHT if tall else "content")
    where.caption(
        f"Cut to fit the page (each … says what is left out); the whole {name} is "
        f"{count(len(text), 'character')}:"
    )
    where.download_button(
        f"Download the whole {name} (JSON)",
        functools.partial(dump_json, value, indent=2),
        file_name=f"{name.replace(' ', '_')}.json",
        mime="application/json",
        key=keys.part(key, "whole"),
        on_click="ignore",
    )


def text_code(where: DeltaGenerator, text: str, *, key: str, name: str) -> None:
    """`text` (an error's message, which may quote a whole value) in a code block of `where`,
    bounded by `bounded_text`; when cut, the whole is a download away, as `value_code`'s."""
    shown = bounded_text(text)
    if shown == text:
        where.code(text, language=None, wrap_lines=True)
        return
    where.code(shown, language=None, wrap_lines=True, height=CUT_HEIGHT)
    where.caption(
        f"Cut to fit the page (each … says what is left out); the whole {name} is "
        f"{count(len(text), 'character')}:"
    )
    where.download_button(
        f"Download the whole {name} (text)",
        functools.partial(str, text),  # sent only when clicked, as value_code's
        file_name=f"{name.replace(' ', '_')}.txt",
        mime="text/plain",
        key=keys.part(key, "whole"),
        on_click="ignore",
    )
