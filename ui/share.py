"""Share links: the page's state in one `?s=` query parameter, nothing stored on the server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from core.errors import ErrorCode
from core.links import DroppedField, ShareLink
from core.share import PARAM, ShareError, decode_share, encode_share
from ui import keys
from ui.pages import page_file

__all__ = [
    "PARAM",
    "apply_link",
    "name_dropped",
    "opened_link",
    "share_button",
    "shared_state",
    "shown_link",
    "to_state",
]

L = TypeVar("L", bound=ShareLink)


def to_state(link: ShareLink) -> dict[str, Any]:
    """What a link carries: the fields it was given, as JSON values; a field left None is not
    carried (it means "not given", as its default does).

    Example:
        >>> from core.links.trace import TraceLink
        >>> to_state(TraceLink(payload="{}", mode="native", fork=None))
        {'payload': '{}', 'mode': 'native'}
    """
    given = link.model_dump(mode="json", exclude_unset=True)
    return {name: value for name, value in given.items() if value is not None}


def shown_link(cls: type[L], context: dict[str, Any] | None = None, /, **fields: Any) -> L:
    """The link of what the page shows: `fields` as the link model `cls` takes them; a field it
    refuses is left out (its default applies, as when a link carrying it is opened)."""
    return cls.parse(fields, context)[0]


def opened_link(
    page: str, cls: type[L], context: dict[str, Any] | None = None
) -> tuple[L, list[DroppedField]] | None:
    """The link `?s=` opened for this page (see `shared_state`) as its model `cls`, with the
    fields it refused; None when no link is to be applied."""
    state = shared_state(page)
    return None if state is None else cls.parse(state, context)


def name_dropped(dropped: list[DroppedField]) -> None:
    """One warning for a link's refused fields: their names, then each with Pydantic's reason."""
    if not dropped:
        return
    st.warning(
        f"[{ErrorCode.SHARE_FIELD}] "
        "These fields of the share link have the wrong type or value and were "
        "ignored; their defaults are used. Make a fresh link with Share link."
    )
    st.code(", ".join(field.name for field in dropped), language=None)
    reasons = "\n".join(f"{field.path}: {field.reason}" for field in dropped)
    st.code(reasons, language=None, wrap_lines=True)


def shared_state(page: str) -> dict[str, Any] | None:
    """The state carried by `?s=` for this page, once per session and token.

    A bad token shows a clear message and returns None (the page keeps its defaults).
    Returns None when there is no token or it was already applied. A token made on another
    page (its address edited by hand) opens that page instead, with the same token; a token
    naming no page of the app says so.
    """
    token = st.query_params.get(PARAM)
    if not token:
        return None
    applied = keys.share(page, "applied")
    if st.session_state.get(applied) == token:
        return None
    st.session_state[applied] = token
    try:
        state = decode_share(token)
    except ShareError as exc:
        st.error(
            f"The share link could not be opened [{exc.code}]: {exc.message} "
            "The page opens with its defaults instead."
        )
        return None
    if state.get("page") != page:
        target = page_file(state.get("page"))
        if target is not None:
            st.switch_page(target, query_params={PARAM: token})
        st.warning(
            f"[{ErrorCode.SHARE_PAGE}] "
            "The share link names no page of this app, so it opens nothing; the "
            "page keeps its defaults. Make a fresh link with Share link."
        )
        return None
    st.session_state[keys.share(page, "opened")] = True
    return state


def apply_link(
    page: str, cls: type[L], apply: Callable[[L], None], context: dict[str, Any] | None = None
) -> None:
    """Apply the link `?s=` opened for this page (`opened_link`) with `apply`, before the
    widgets it sets are drawn; then name the fields it refused."""
    opened = opened_link(page, cls, context)
    if opened is not None:
        link, dropped = opened
        apply(link)
        name_dropped(dropped)


def share_button(page: str, link: ShareLink, *, key: str) -> None:
    """A button that shows a URL reopening this page with `link` (`to_state`).

    The address bar keeps `?s=` only while it still reopens what is on screen: after an
    edit it is dropped, so a reload never brings back an older state over the user's work.
    """
    shown = {"page": page, **to_state(link)}
    held = keys.share(page, "held")
    if st.session_state.pop(keys.share(page, "opened"), False):
        st.session_state[held] = shown  # the link just opened: this is what it reopens
    elif st.session_state.get(held, shown) != shown:
        st.query_params.pop(PARAM, None)
        del st.session_state[held]
    if st.button("Share link", key=key, help="Make a link that reopens exactly this view."):
        try:
            token = encode_share(shown)
        except ShareError as exc:
            st.error(f"No share link [{exc.code}]: {exc.message}")
            return
        st.query_params[PARAM] = token
        st.session_state[keys.share(page, "applied")] = token
        st.session_state[held] = shown
        base = st.context.url or ""
        st.caption("Copy this link (it holds the whole state; nothing is stored on the server):")
        st.code(f"{base}?{PARAM}={token}", language=None, wrap_lines=True)
