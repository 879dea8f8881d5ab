"""Re-indent JSON text without re-encoding a value: every token stays as it was written."""

from __future__ import annotations

from core.jsontext.scan import token_texts

__all__ = ["reindent"]

_CLOSE = {"{": "}", "[": "]"}


def reindent(text: str, indent: int = 2) -> str:
    """`text` (valid JSON) laid out like `json.dumps(..., indent=indent)`, tokens untouched.

    Re-encoding would change what the user wrote (the ideograph below is a deliberate Unicode
    case: the character that escape stands for): `1e400` would become `Infinity`, long
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
    found = token_texts(text)  # punctuation and keys carry the blanks after them
    out: list[str] = []
    depth = 0
    pad = " " * indent
    skip = False
    for i, token in enumerate(found):
        if skip:  # the close of an empty container, already written
            skip = False
            continue
        char = token[0]
        if char in _CLOSE:
            if i + 1 < len(found) and found[i + 1] == _CLOSE[char]:
                out.append(char + _CLOSE[char])
                skip = True
                continue
            depth += 1
            out.append(char + "\n" + pad * depth)
        elif token == "}" or token == "]":
            depth -= 1
            out.append("\n" + pad * depth + token)
        elif char == ",":
            out.append(",\n" + pad * depth)
        elif char == '"' and token[-1] != '"':  # a key and its colon
            out += (token[: token.rindex('"') + 1], ": ")
        elif char == ":":  # a colon no key precedes (text that is not JSON)
            out.append(": ")
        else:  # a string, number or literal, as written
            out.append(token)
    return "".join(out)
