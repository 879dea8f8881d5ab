"""Who this session is: in public mode, what the host configured is for signed-in members only."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.logger import get_logger

from core.project import CONFIG_FILE
from core.project.hosting import (
    MEMBERS_ENV,
    PUBLIC_ENV,
    Hosting,
    hosting_or_closed,
    members_only,
    sign_in_unavailable,
    store_refusal,
)
from core.project.load import is_configured
from core.redact import redact, secrets_of
from ui import keys

__all__ = [
    "access_sidebar",
    "announce_public_mode",
    "auth_configured",
    "hosting",
    "refusal",
    "say_once",
    "trusted",
    "writes_off",
    "writes_reach",
]

_LOG = get_logger("playground.access")
# The stores a session owns: built for it or uploaded by it (ui.threads.source's sources).
_OWN_STORES = frozenset({"demo", "upload"})


@st.cache_resource(show_spinner=False)
def _hosting(public: str, members: str, cwd: str, stamp: int) -> tuple[Hosting, str | None]:
    # Server configuration only (its environment and playground.toml): the same for every
    # session, so one reading per process and file version shares nothing of a visitor's.
    return hosting_or_closed({PUBLIC_ENV: public, MEMBERS_ENV: members}, cwd)


def hosting() -> Hosting:
    """Public mode and members, as the host set them (a setting that cannot be read makes
    the server public with no members, and the log says why, once)."""
    cwd = Path.cwd()
    config = cwd / CONFIG_FILE
    stamp = config.stat().st_mtime_ns if config.is_file() else 0
    found, problem = _hosting(
        os.environ.get(PUBLIC_ENV, ""), os.environ.get(MEMBERS_ENV, ""), str(cwd), stamp
    )
    if problem is not None:
        say_once(f"public mode is on because its setting cannot be read: {problem}")
    return found


def _auth_section() -> Any:
    try:
        if not st.secrets.load_if_toml_exists():
            return None
        return st.secrets.get("auth")
    except Exception:  # noqa: BLE001 - a damaged secrets file: sign-in is simply not offered
        return None


def auth_configured() -> bool:
    """Whether the host set up sign-in: an `[auth]` section in .streamlit/secrets.toml."""
    return bool(_auth_section())


def _providers() -> list[str | None]:
    """The providers `st.login` is offered for: None is `[auth]`'s own client settings, a
    name each `[auth.name]` table."""
    section = _auth_section() or {}
    named = [name for name, value in section.items() if hasattr(value, "keys")]
    return ([None] if "client_id" in section else []) + named


def _email() -> str | None:
    if not st.user.get("is_logged_in"):
        return None
    email = st.user.get("email")
    return email if isinstance(email, str) and email else None


def trusted() -> bool:
    """Whether this session gets what the host configured: always outside public mode; in
    public mode, only a signed-in member (by `members` in playground.toml)."""
    found = hosting()
    if not found.public:
        return True
    return auth_configured() and found.admits(_email(), st.user.get("email_verified"))


def writes_reach(source: str) -> bool:
    """Whether a write to a store from `source` ("demo", "upload", "server") is allowed: only
    when the server enables writes; in public mode, for anyone but a member, only the stores
    the session owns."""
    from core.stores.unbrick import writes_enabled  # the stores' layer: only when asked

    return writes_enabled() and (source in _OWN_STORES or trusted())


def writes_off(what: str) -> str:
    """Why `what` (a write, as "Writing a repaired state") is off for this session's store,
    as a clause (no full stop) for a page to say where its write button would be."""
    from core.stores.unbrick import WRITES_ENV, writes_enabled

    if not writes_enabled():
        return f"{what} is off on this server (start it with {WRITES_ENV}=1 to allow it)"
    return str(members_only(f"{what} to the server's store")).removesuffix(".")


def _store_source() -> str | None:
    from core.stores.config import server_store  # the stores' layer: only in public mode
    from core.stores.errors import StoreError

    try:
        found = server_store(sys.argv[1:], os.environ, Path.cwd())
    except StoreError:
        return "playground.toml"
    return found.source if found is not None else None


def refusal() -> str | None:
    """Why this server refuses to serve at all, or None: public mode with a store configured
    and no sign-in (`core.project.hosting.store_refusal`); the log says it once."""
    found = hosting()
    if not found.public or auth_configured():
        return None
    error = store_refusal(found, False, _store_source())
    if error is None:
        return None
    say_once(str(error))
    return str(error)


@st.cache_resource(show_spinner=False)
def _said(message: str) -> bool:
    # Once per process and message: the log says it at the first session that meets it.
    _LOG.warning("%s", redact(message, secrets_of(os.environ)))
    return True


def say_once(message: str) -> None:
    """Write `message` to the server log once per process, secrets redacted."""
    _said(message)


def announce_public_mode() -> None:
    """On a public server, log once what it keeps from visitors who are not signed-in
    members: each thing the host configured, and where it was set."""
    found = hosting()
    if found.public:  # worked out once per configuration, not on every rerun
        config = Path.cwd() / CONFIG_FILE
        _announced(found, config.stat().st_mtime_ns if config.is_file() else 0)


@st.cache_resource(show_spinner=False)
def _announced(found: Hosting, stamp: int) -> bool:
    from core.stores.unbrick import WRITES_ENV, writes_enabled  # only on a public server

    kept = []
    if (store := _store_source()) is not None:
        kept.append(f"the server's store (from {store})")
    if writes_enabled():
        kept.append(f"writes to it ({WRITES_ENV})")
    if is_configured(sys.argv[1:], os.environ, Path.cwd()):
        kept.append("the project's model and graph")
    count = len(found.members)
    members = f"{count} member {'entry' if count == 1 else 'entries'}" if count else "no members"
    sign_in = "sign-in configured" if auth_configured() else "no [auth], so nobody signs in"
    say_once(
        f"public mode (from {found.public_from}): {', '.join(kept) or 'nothing configured'} "
        f"reach signed-in members only ({sign_in}; {members}); everyone else gets the seed "
        "order, the demo store and their own uploads, and writes (if enabled) reach only "
        "those; share links never run a graph by themselves."
    )
    return True


def access_sidebar() -> None:
    """In public mode: who is signed in and Sign out, or Sign in when the host set it up."""
    found = hosting()
    if not found.public or not auth_configured():
        return
    email = _email()
    if email is None:
        st.caption("Team members sign in to reach the host's own store and graph.")
        for provider in _providers():
            label = "Sign in" if provider is None else f"Sign in with {provider}"
            if st.button(
                label, key=keys.SIGN_IN if provider is None else keys.each(keys.SIGN_IN, provider)
            ):
                _login(provider)
        return
    st.caption("Signed in as")
    st.code(email, language=None)
    if not trusted():
        st.caption(
            "This address is not on the host's members list: you get the public demo "
            "(the seed order, the demo store and your own uploads)."
        )
    if st.button("Sign out", key=keys.SIGN_OUT):
        st.logout()


def _login(provider: str | None) -> None:
    try:
        st.login(provider) if provider is not None else st.login()
    except st.errors.StreamlitAPIException as error:
        say_once(f"sign-in failed: {error}")
        st.error(str(sign_in_unavailable()))
