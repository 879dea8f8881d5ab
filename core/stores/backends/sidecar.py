"""A SQLite store in write-ahead-log mode that a read-only folder keeps SQLite from opening."""

from __future__ import annotations

import os
from pathlib import Path

from core.stores.errors import StoreCode, StoreError

__all__ = ["wal_without_shm"]


def wal_without_shm(path: Path, label: str) -> StoreError | None:
    """The error to give when SQLite could not open `path` because its write-ahead log
    (`-wal`) is there, its shared-memory index (`-shm`) is not, and the folder is read-only:
    a reader must create the index to read the log, and cannot. None when that is not it.

    The file is not damaged; its newest writes are in the log.

    Example:
        >>> wal_without_shm(Path("/nowhere/runs.sqlite"), "runs.sqlite") is None
        True
    """
    wal, shm = (path.with_name(path.name + suffix) for suffix in ("-wal", "-shm"))
    try:
        logged = wal.stat().st_size > 0
    except OSError:
        return None
    if not logged or shm.exists() or os.access(path.parent, os.W_OK):
        return None
    return StoreError(
        StoreCode.UNREADABLE,
        f"{label} cannot be opened: its write-ahead log ({wal.name}) is there but its "
        f"shared-memory file ({shm.name}) is not, and SQLite may not create it because the "
        "folder is read-only. The store is not damaged: its newest writes are in the log. "
        f"Copy {path.name} and {wal.name} together to a folder you can write and open the "
        "copy, or have the application that writes it run PRAGMA wal_checkpoint(TRUNCATE) "
        "before the file is shared.",
    )
