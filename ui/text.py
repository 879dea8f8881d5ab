"""One Markdown escape for names that come from models and graphs (labels render Markdown)."""

from __future__ import annotations

import re

__all__ = ["plain"]

# Markdown's specials, plus `&` (entities such as &lt;) and `:` (Streamlit's :emoji: and
# :red[colour] directives; seen escaped in Chromium).
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~&:])")
# An escaped colon does not stop Streamlit's icons: it rewrites :material/x: and
# :material_x: and :streamlit: after the escapes are gone (Chromium drew them). An invisible
# WORD JOINER after every colon does.
_COLON = re.compile(r"(?<=\\:)")
_NEWLINES = re.compile(r"\s*[\r\n]+\s*")


def plain(text: str) -> str:
    """`text` as literal Markdown: specials backslash-escaped, newlines collapsed to a space.

    Field names, aliases, titles and node names come from any model or graph, so they are
    escaped before they become widget labels, captions or alert text.

    Example:
        >>> print(plain("**a** [b](c)"))
        \\*\\*a\\*\\* \\[b\\]\\(c\\)
    """
    return _COLON.sub("\u2060", _MARKDOWN.sub(r"\\\1", _NEWLINES.sub(" ", text)))
