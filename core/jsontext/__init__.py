"""Text -> JSON with limits and positions: one tokenizer (scan), parsing, source map, paths,
duplicate keys, reindent."""

from __future__ import annotations

from core.jsontext.duplicates import DuplicateKey, duplicate_keys
from core.jsontext.json_format import reindent
from core.jsontext.paths import format_path, format_pointer
from core.jsontext.payload import (
    MAX_DEPTH,
    MAX_PAYLOAD_BYTES,
    PayloadError,
    parse,
)
from core.jsontext.source_map import SourceMap

__all__ = [
    "MAX_DEPTH",
    "MAX_PAYLOAD_BYTES",
    "DuplicateKey",
    "PayloadError",
    "SourceMap",
    "duplicate_keys",
    "format_path",
    "format_pointer",
    "parse",
    "reindent",
]
