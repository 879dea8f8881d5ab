"""Accessible names for the form's widgets: the field's own words, never Markdown source.

Streamlit 1.67 puts a widget's label, as given, in its input's aria-label, and renders the
same string as Markdown where it shows it. A label escaped for Markdown (`ui.text.plain`) is
therefore read aloud with its backslashes (`user\\_id`). So the form's inputs take a hidden
label in plain words, and the visible one is drawn beside them, escaped.
"""

from __future__ import annotations

import re

__all__ = ["spoken"]

_SPACE = re.compile(r"\s+")


def spoken(text: str) -> str:
    """`text` as one line of plain words: any run of white space (newlines too) is one space.

    Example:
        >>> spoken("items[0]\\n.unit_price ")
        'items[0] .unit_price'
    """
    return _SPACE.sub(" ", text).strip()
