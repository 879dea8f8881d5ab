"""The Threads page's share link: the store (demo or the server's), filters, thread, checkpoint."""

from __future__ import annotations

from typing import Any, Literal, get_args

import streamlit as st

from core.errors import ErrorCode
from core.links.threads import ThreadsLink
from core.project.hosting import members_only
from ui import keys
from ui.access import trusted
from ui.share import apply_link, share_button
from ui.text import plain
from ui.threads.source import StoreChoice

__all__ = [
    "THREAD_TABS",
    "drop_link_notes",
    "model_note",
    "restore_threads_link",
    "store_note",
    "thread_note",
    "threads_share",
]

_Tab = Literal["Timeline", "Guard", "Audit", "Migrate", "Unbrick"]
THREAD_TABS: tuple[str, ...] = get_args(_Tab)  # the open thread's tools, in their order


class _TabLink(ThreadsLink):
    """A Threads link with the tool it shows open (`tab`): an older link, without it,
    opens on the Timeline; an older page reading this one ignores it."""

    tab: _Tab = "Timeline"


# The list's filters and pages: link field -> the widget (or list) it is kept in.
_LISTED = {
    "current": keys.THREADS_CURRENT,
    "contains": keys.THREADS_CONTAINS,
    "status": keys.THREADS_STATUS,
    "page_size": keys.THREADS_PAGE_SIZE,
    "cursors": keys.THREADS_CURSORS,
    "tab": keys.THREADS_TAB,
}


def restore_threads_link() -> None:
    """Copy an opened link's state into the page's widgets, before they are drawn."""
    apply_link("threads", _TabLink, _apply)


def _apply(link: _TabLink) -> None:
    ss = st.session_state
    ss[keys.THREADS_SOURCE] = link.source
    ss[keys.THREADS_CURRENT] = link.current
    ss[keys.THREADS_CONTAINS] = link.contains
    ss[keys.THREADS_STATUS] = link.status
    ss[keys.THREADS_PAGE_SIZE] = link.page_size
    ss[keys.THREADS_CURSORS] = list(link.cursors)
    ss[keys.THREADS_TAB] = link.tab
    ss.pop(keys.THREADS_THREAD, None)
    if link.thread is not None:
        ss[keys.THREADS_THREAD] = link.thread
        if link.step is not None:  # the timeline opens here, not at the blamed checkpoint
            ss[keys.THREADS_STEP] = link.step
            ss[keys.THREADS_STEP_OF] = link.thread
    ss[keys.THREADS_LINK_WANTED] = link


def store_note(choice: StoreChoice | None) -> None:
    """Say so when a link asked for the server's store and this server has none."""
    wanted = st.session_state.get(keys.THREADS_LINK_WANTED)
    shown = choice.source if choice is not None else None
    if wanted is not None and wanted.source == "server" and shown != "server":
        if not trusted():  # public mode: the store may exist; it is not this visitor's
            said = members_only("The server's store, which this link reads,")
            st.warning(f"{said} The demo store is shown instead.")
            return
        st.warning(
            f"The demo store is shown instead [{ErrorCode.SHARE_STORE}]: this link reads the "
            "server's checkpoint store, and this server is not configured with one. Open the "
            "link on the server it was made on."
        )


def model_note(offered: bool) -> None:
    """Say so when a link checks against a changed model this server does not offer."""
    wanted = st.session_state.get(keys.THREADS_LINK_WANTED)
    if wanted is not None and wanted.current == "candidate" and not offered:
        st.warning(
            f"The stored states are checked against the configured model "
            f"[{ErrorCode.SHARE_MODEL}]: this link checks them against a changed model (a "
            "candidate), and this server is not configured with one."
        )


def thread_note(thread: str | None) -> None:
    """Say so when the thread a link names is not in the list it reopened; the link's notes
    are said in the run that opened it only."""
    wanted = st.session_state.pop(keys.THREADS_LINK_WANTED, None)
    if wanted is None or wanted.thread is None or wanted.thread == thread:
        return
    where = "the first thread listed is shown" if thread is not None else "no thread is listed"
    st.warning(
        f"The thread this link names is not listed [{ErrorCode.SHARE_THREAD}]: not on this "
        f"page with these filters, so {where}. Its id:"
    )
    st.code(wanted.thread, language=None, wrap_lines=True)


def drop_link_notes() -> None:
    """Forget what an opened link asked for (the page stopped before saying all of it)."""
    st.session_state.pop(keys.THREADS_LINK_WANTED, None)


def threads_share(choice: StoreChoice, thread: str | None) -> None:
    """A Share link button for what the page shows; none for an uploaded store."""
    if choice.source == "upload":
        st.caption(
            "No share link for an uploaded store: the file stays in this session only. "
            "The demo store and the server's store can be shared."
        )
        return
    ss = st.session_state
    # The list's widgets, where the page has drawn them (the link's defaults otherwise).
    state: dict[str, Any] = {name: ss[key] for name, key in _LISTED.items() if key in ss}
    state["source"] = choice.source
    if thread is not None:
        state["thread"] = thread
        if ss.get(keys.THREADS_STEP_OF) == thread and isinstance(ss.get(keys.THREADS_STEP), int):
            state["step"] = ss[keys.THREADS_STEP]
    link, refused = _TabLink.parse(state)
    if refused:  # a link the page would refuse when opened: none, and why
        st.caption(
            "No share link for this view: a link cannot carry its "
            + plain(", ".join(f"{field.path} ({field.reason})" for field in refused))
            + "."
        )
        return
    share_button("threads", link, key=keys.THREADS_SHARE)
