"""One Markdown escape for names that come from models and graphs (labels render Markdown)."""

from __future__ import annotations

import re

__all__ = ["plain"]

_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~])")
_NEWLINES = re.compile(r"\s*[\r\n]+\s*")


def plain(text: str) -> str:
    """`text` as literal Markdown: specials backslash-escaped, newlines collapsed to a space.

    Field names, aliases, titles and node names come from any model or graph, so they are
    escaped before they become widget labels, captions or alert text.

    Example:
        >>> print(plain("**a** [b](c)"))
        \\*\\*a\\*\\* \\[b\\]\\(c\\)
    """
    return _MARKDOWN.sub(r"\\\1", _NEWLINES.sub(" ", text))
