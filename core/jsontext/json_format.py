"""Re-indent JSON text without re-encoding a value: every token stays as it was written."""

from __future__ import annotations

import re

from core.jsontext.source_map import JSON_STRING_BODY

__all__ = ["reindent"]

# A string, one punctuation mark, or a bare value (number, true, false, null, NaN, Infinity).
_TOKEN = re.compile(rf'"{JSON_STRING_BODY}"|[{{}}\[\],:]|[^\s{{}}\[\],:"]++', re.S)
_CLOSE = {"{": "}", "[": "]"}


def reindent(text: str, indent: int = 2) -> str:
    """`text` (valid JSON) laid out like `json.dumps(..., indent=indent)`, tokens untouched.

    Re-encoding would change what the user wrote: `1e400` would become `Infinity`, long
    decimals would lose digits, `\\u4e0b` would become `下`, and of a key written twice only
    the last would survive. Here only the whitespace between tokens changes.

    Example:
        >>> print(reindent('{"a": 1e400, "a": [], "b": ["\\\\u4e0b", 0.10]}'))
        {
          "a": 1e400,
          "a": [],
          "b": [
            "\\u4e0b",
            0.10
          ]
        }
    """
    tokens = _TOKEN.findall(text)
    out: list[str] = []
    depth = 0
    pad = " " * indent
    skip = False
    for i, token in enumerate(tokens):
        if skip:  # the close of an empty container, already written
            skip = False
            continue
        if token in _CLOSE:
            if i + 1 < len(tokens) and tokens[i + 1] == _CLOSE[token]:
                out.append(token + _CLOSE[token])
                skip = True
                continue
            depth += 1
            out.append(token + "\n" + pad * depth)
        elif token == "}" or token == "]":
            depth -= 1
            out.append("\n" + pad * depth + token)
        elif token == ",":
            out.append(",\n" + pad * depth)
        elif token == ":":
            out.append(": ")
        else:
            out.append(token)
    return "".join(out)
