"""A child process's output in a file it appends to, read back without moving its offset.

A `TemporaryFile` handed to a child as stdout shares one file offset with the parent: a
`seek(0)` to read it makes the child's next write land at the start, over the lines already
there (once it overwrote `langgraph dev`'s "API: <url>" line, and a test waited for a URL
that was no longer in the file). Here the child writes through its own O_APPEND handle and
the parent reads through another, so neither moves the other's position.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO

__all__ = ["ChildLog"]


class ChildLog:
    """A log file for one child process: `sink` is its stdout, `read` what it wrote so far.

    Example:
        >>> log = ChildLog()
        >>> _ = log.sink.write(b"ready on 8000\\n"); log.sink.flush()
        >>> log.read()
        b'ready on 8000\\n'
        >>> log.close()
    """

    def __init__(self) -> None:
        descriptor, name = tempfile.mkstemp(prefix="child-", suffix=".log")
        os.close(descriptor)
        self.path = Path(name)
        self.sink: IO[bytes] = self.path.open("ab", buffering=0)

    def read(self) -> bytes:
        """Everything written so far, read through a handle of its own."""
        return self.path.read_bytes() if self.path.exists() else b""

    def text(self) -> str:
        return self.read().decode("utf-8", "replace")

    def close(self) -> None:
        self.sink.close()
        self.path.unlink(missing_ok=True)
