"""The one JSON tokenizer: every scan of payload text reads its tokens, with their offsets.

The source map, duplicate keys, the depth and long-number limits, reindent and the retry
lab's script checks all walk `tokens(...)`; none has a tokenizer of its own. A token is a
`re.Match` whose `lastgroup` is its kind (`STRING`, `KEY`, and in the views that ask for
them `FLAT`, `VALUE`; None for punctuation); its span is where it sits in the text.

Why not a library: the maintained JSON readers either give no offsets (`json`, jiter, ijson,
json-stream) or build a pointer map of every value in a pure-Python character loop
(json-source-map), which collapses a repeated key and is slower on a 2 MB payload than these
C-speed regex tokens; the value itself is still read by `json.loads` / Pydantic, never here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from json.decoder import scanstring as _scanstring  # type: ignore[attr-defined]  # not in typeshed

__all__ = [
    "FLAT",
    "KEY",
    "NUMBER",
    "STRING",
    "STRING_BODY",
    "VALUE",
    "WS",
    "key_text",
    "token_texts",
    "tokens",
]

WS = r"[ \t\n\r]*"
# A JSON string's inside, unrolled: one C loop per run of plain characters.
STRING_BODY = r'[^"\\]*+(?:\\.[^"\\]*+)*+'
# A JSON number as RFC 8259 writes it (a VALUE token is one when it matches this whole).
NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"

# Token kinds (`match.lastgroup`); punctuation has none (None): its first character says
# which ({, [, ",", }, ] or, only in text that is not JSON, a stray ":"). Named groups on
# punctuation cost a quarter of the scan's time on a deeply nested payload.
STRING = "string"  # a string value; group "string" is its body, still escaped
KEY = "key"  # a string followed by its colon: a member name (group "string" is its body)
FLAT = "flat"  # a whole object holding no container (only with flat=True)
VALUE = "value"  # a number, true, false, null, NaN, Infinity ... (only with values=True)

_STRING_PATTERN = f'"{STRING_BODY}"'
_PARTS = {
    KEY: rf'"(?P<{STRING}>{STRING_BODY})"(?P<{KEY}>{WS}:{WS})?',
    # unrolled (runs of plain characters, then string and run, ...): a fifth faster than
    # an alternation tried at every step
    FLAT: rf'(?P<{FLAT}>\{{[^{{}}\[\]"]*+(?:{_STRING_PATTERN}[^{{}}\[\]"]*+)*+\}})',
    "open": rf"[{{\[]{WS}",  # with the whitespace after it
    "comma": rf",{WS}",  # with the whitespace after it
    "close": r"[}\]]",
    "colon": rf":{WS}",
    VALUE: r'(?P<value>[^\s{}\[\],:"]++)',
}


def _view(*kinds: str) -> re.Pattern[str]:
    return re.compile("|".join(_PARTS[kind] for kind in kinds), re.S)


# Three views of the one grammar, so each walk visits only the tokens it reads: what a view
# leaves out is skipped by the regex engine, in C. FLAT comes before OPEN (both start with {).
_VIEWS = {
    (False, False): _view(KEY, "open", "comma", "close"),
    (True, False): _view(KEY, "open", "comma", "close", "colon", VALUE),
    (False, True): _view(KEY, FLAT, "open", "comma", "close"),
}


# The values view without its groups: `findall` then returns each token's text in C.
_TEXTS = re.compile(re.sub(r"\(\?P<\w+>", "(?:", _VIEWS[True, False].pattern), re.S)


def tokens(
    text: str, pos: int = 0, *, values: bool = False, flat: bool = False
) -> Iterator[re.Match[str]]:
    """The tokens of `text` from `pos`, in order; `lastgroup` says each one's kind.

    Strings (keys with their colon), brackets and commas always; `values=True` adds numbers,
    literals (VALUE) and stray colons; `flat=True` returns an object that holds no
    container as one FLAT token (its members are not visited). Text that is not JSON still
    tokenizes: characters no token matches are skipped.

    Example:
        >>> [(t.lastgroup, t.group()) for t in tokens('{"a": [1, "x"]}', values=True)]
        [(None, '{'), ('key', '"a": '), (None, '['), ('value', '1'), (None, ', '), \
('string', '"x"'), (None, ']'), (None, '}')]
    """
    if values and flat:
        raise ValueError("a view has either values or flat objects, not both")
    return _VIEWS[values, flat].finditer(text, pos)


def token_texts(text: str) -> list[str]:
    """The text of every token `tokens(text, values=True)` finds, in one C-speed call.

    For walks that need only what each token says, not where (reindent).

    Example:
        >>> token_texts('{"a" : [1, null]}')
        ['{', '"a" : ', '[', '1', ', ', 'null', ']', '}']
    """
    return _TEXTS.findall(text)


def key_text(token: re.Match[str]) -> str:
    """The decoded text of a STRING or KEY token (escapes such as \\u0073 resolved).

    Example:
        >>> key_text(next(tokens('"\\\\u0073ku": 1')))
        'sku'
    """
    body = token.group(STRING)
    if "\\" not in body:
        return body
    return str(_scanstring(token.string, token.start() + 1)[0])
