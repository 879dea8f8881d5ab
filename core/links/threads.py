"""The Threads page's link: which store, the list's filters and page, the thread and checkpoint.

A link names a store only as "demo" or "server", never a path or DSN: an uploaded file lives
in its own session and cannot be shared, and the server's store is whatever the server that
opens the link is configured with. Thread ids are text the store holds, shown on the page
anyway; the checkpoint is named by its position in the thread (the demo store is built again
for each session, so its checkpoint ids differ from one session to the next).
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, Field, StrictInt, StrictStr, field_validator

from core.links.base import Name, ShareLink, one_of
from core.stores.threads import ThreadStatus

__all__ = ["PAGE_SIZES", "STATUSES", "ThreadsLink"]

_PageSize = Literal[25, 50, 100]
PAGE_SIZES: tuple[int, ...] = get_args(_PageSize)
STATUSES = ["all", *(str(status) for status in ThreadStatus)]


def _no_nul(text: str) -> str:
    if "\x00" in text:  # psycopg refuses such text before a query reaches the server
        raise ValueError("holds a NUL character, which a PostgreSQL store cannot be asked for")
    return text


# A thread id, or the one a page of the list ends at.
_Id = Annotated[StrictStr, Field(max_length=1_000), AfterValidator(_no_nul)]


class ThreadsLink(ShareLink):
    """What a Threads link carries (see the module's note on what it never carries)."""

    source: Literal["demo", "server"] = "demo"
    current: Literal["same", "candidate"] = "same"  # the model the states are checked against
    contains: Annotated[Name, AfterValidator(_no_nul)] = ""
    status: Name = "all"
    page_size: _PageSize = 25
    cursors: list[_Id] = Field(default_factory=lambda: [""], min_length=1, max_length=1_000)
    thread: Annotated[_Id, Field(min_length=1)] | None = None
    step: Annotated[StrictInt, Field(ge=0)] | None = None  # the checkpoint's position

    @field_validator("cursors")
    @classmethod
    def _from_the_first_page(cls, cursors: list[str]) -> list[str]:
        if cursors[0] != "":  # else the list's first threads could not be paged back to
            raise ValueError("the first page's cursor must be the empty text")
        return cursors

    @field_validator("status")
    @classmethod
    def _a_status(cls, status: str) -> str:
        return one_of(status, STATUSES, "a thread status: " + ", ".join(STATUSES)) or "all"
