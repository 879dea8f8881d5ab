"""The Threads page's link: which store, the list's filters and page, the thread and checkpoint.

A link names a store only as "demo" or "server", never a path or DSN: an uploaded file lives
in its own session and cannot be shared, and the server's store is whatever the server that
opens the link is configured with. Thread ids are text the store holds, shown on the page
anyway; the checkpoint is named by its position in the thread (the demo store is built again
for each session, so its checkpoint ids differ from one session to the next).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictInt, StrictStr, field_validator

from core.links.base import Name, ShareLink, one_of
from core.stores.threads import ThreadStatus

__all__ = ["PAGE_SIZES", "STATUSES", "ThreadsLink"]

PAGE_SIZES = (25, 50, 100)
STATUSES = ["all", *(str(status) for status in ThreadStatus)]
_Id = Annotated[StrictStr, Field(max_length=1_000)]  # a thread id, or the one a page ends at


class ThreadsLink(ShareLink):
    """What a Threads link carries (see the module's note on what it never carries)."""

    source: Literal["demo", "server"] = "demo"
    current: Literal["same", "candidate"] = "same"  # the model the states are checked against
    contains: Name = ""
    status: Name = "all"
    page_size: Literal[25, 50, 100] = 25
    cursors: list[_Id] = Field(default_factory=lambda: [""], min_length=1, max_length=1_000)
    thread: _Id | None = None
    step: Annotated[StrictInt, Field(ge=0)] | None = None  # the checkpoint's position

    @field_validator("status")
    @classmethod
    def _a_status(cls, status: str) -> str:
        return one_of(status, STATUSES, "a thread status: " + ", ".join(STATUSES)) or "all"
