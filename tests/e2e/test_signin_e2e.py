"""Public mode's sign-in in Chromium against a real OpenID Connect provider (issue #39): the
server's store is offered to a signed-in member only, never to a visitor or a non-member."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from core.stores.demo import DEMO_THREADS, build_demo_store
from core.stores.spec import store_label
from tests.e2e._browser import goto_app, grid_with
from tests.e2e._oidc import Provider, oidc_provider
from tests.e2e._server import HOST, ROOT, Server, free_port, streamlit_server
from ui.threads.source import SOURCES

pytestmark = pytest.mark.e2e

# The provider's accounts: an opaque subject, the e-mail the app decides membership by.
USERS = {
    "ana": {"email": "ana@example.com", "name": "Ana"},  # a member by address
    "bo": {"email": "bo@team.example", "name": "Bo"},  # a member by domain
    "eve": {"email": "eve@elsewhere.example", "name": "Eve"},  # no member
}
MEMBERS = ["ana@example.com", "@team.example"]
EVERYONES_SOURCES = [SOURCES["demo"], SOURCES["upload"]]
MEMBERS_SOURCES = [SOURCES["demo"], SOURCES["upload"], SOURCES["server"]]
# Anything but loopback: the provider's pages link a stylesheet on a CDN. Refused, so the
# whole round trip stays between Chromium, the app and the provider.
OFF_LOOPBACK = re.compile(rf"^https?://(?!{re.escape(HOST)}[:/])")


@pytest.fixture(scope="module")
def provider() -> Iterator[Provider]:
    users = [{"sub": sub, **claims, "email_verified": True} for sub, claims in USERS.items()]
    with oidc_provider(users) as running:
        yield running


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's store: real runs of the seed graphs (what `python -m core.stores.demo`
    writes)."""
    path = tmp_path_factory.mktemp("server-store") / "checkpoints.sqlite"
    build_demo_store(path)
    return path


@pytest.fixture(scope="module")
def app_server(
    tmp_path_factory: pytest.TempPathFactory, provider: Provider, store_path: Path
) -> Iterator[Server]:
    """The app in public mode, started from a directory of a host's own configuration:
    playground.toml, and .streamlit/ with st.login's [auth] and the repository's config.toml.
    Overrides conftest's, so `new_page` opens this one."""
    site = tmp_path_factory.mktemp("site")
    port = free_port()  # the redirect URI names it before the app starts
    redirect_uri = f"http://{HOST}:{port}/oauth2callback"
    client = provider.register(redirect_uri)
    settings = site / ".streamlit"
    settings.mkdir()
    shutil.copy(ROOT / ".streamlit" / "config.toml", settings / "config.toml")
    auth = {
        "redirect_uri": redirect_uri,
        "cookie_secret": "a cookie secret for this test module only",
        "client_id": client.client_id,
        "client_secret": client.client_secret,
        "server_metadata_url": provider.metadata_url,
    }
    (settings / "secrets.toml").write_text(_toml("auth", auth), encoding="utf-8")
    playground = {"public": True, "members": MEMBERS, "store": str(store_path)}
    (site / "playground.toml").write_text(_toml("playground", playground), encoding="utf-8")
    with streamlit_server(ROOT / "app.py", cwd=site, port=port) as server:
        yield server


def _toml(table: str, values: dict[str, object]) -> str:
    # JSON's strings, lists and booleans are TOML's too (ASCII, no dates)
    return f"[{table}]\n" + "".join(f"{key} = {json.dumps(v)}\n" for key, v in values.items())


def _sidebar(page: Any) -> Any:
    return page.get_by_test_id("stSidebar")


def _store_options(page: Any) -> Any:
    return page.locator(".st-key-threads_source [data-testid='stRadioOption']")


def _sign_in(page: Any, provider: Provider, app: Server, subject: str) -> None:
    """Sign in as a user does: Sign in, pick the account on the provider's page, come back;
    then open Threads."""
    page.context.route(OFF_LOOPBACK, lambda route: route.abort())
    page.locator(".st-key-sign_in").get_by_role("button").click()
    page.wait_for_url(f"{provider.url}/oauth2/authorize?*")
    page.get_by_role("button", name=subject, exact=True).click()
    page.wait_for_url(f"{app.url}/")  # Streamlit's callback set its cookie and sends us home
    goto_app(page, f"{app.url}/threads")


def _sign_out(page: Any, provider: Provider, app: Server) -> None:
    """Sign out: Streamlit clears its cookie and sends the browser to the provider's
    end-session page, whose button sends it back (through /oauth2callback) home."""
    page.locator(".st-key-sign_out").get_by_role("button").click()
    page.wait_for_url(f"{provider.url}/oauth2/end_session?*")
    page.get_by_role("button", name="End session").click()
    page.wait_for_url(f"{app.url}/")
    goto_app(page, f"{app.url}/threads")


def _expect_anonymous(page: Any) -> None:
    expect(_sidebar(page).locator(".st-key-sign_in").get_by_role("button")).to_have_text("Sign in")
    expect(_sidebar(page)).not_to_contain_text("Signed in as")
    expect(page.locator(".st-key-sign_out")).to_have_count(0)
    expect(_store_options(page)).to_have_text(EVERYONES_SOURCES)


def _expect_signed_in(page: Any, email: str, sources: list[str]) -> None:
    # "Signed in as" and the address: one line, or the address in a block of its own
    expect(_sidebar(page)).to_contain_text(re.compile(rf"Signed in as\s*{re.escape(email)}"))
    expect(_sidebar(page).locator(".st-key-sign_out").get_by_role("button")).to_have_text(
        "Sign out"
    )
    expect(page.locator(".st-key-sign_in")).to_have_count(0)
    expect(_store_options(page)).to_have_text(sources)


def test_a_visitor_nobody_signed_in_is_not_offered_the_servers_store(new_page) -> None:
    page = new_page("threads")
    _expect_anonymous(page)


def test_a_member_signs_in_at_the_provider_reads_the_servers_store_and_signs_out(
    new_page, provider: Provider, app_server: Server, store_path: Path
) -> None:
    page = new_page("threads")
    _sign_in(page, provider, app_server, "ana")
    _expect_signed_in(page, "ana@example.com", MEMBERS_SOURCES)

    page.locator(".st-key-threads_source").get_by_text(SOURCES["server"]).click()
    expect(page.get_by_role("radio", name=SOURCES["server"])).to_be_checked()
    reading = page.get_by_test_id("stMain").get_by_test_id("stCode").first  # under "Reading:"
    expect(reading).to_have_text(store_label(str(store_path)))
    rows = grid_with(page, "thread_id").locator("[role='row']")
    expect(rows).to_have_count(1 + len(DEMO_THREADS))  # the header, then every thread
    listed = [
        rows.nth(n).locator("[role='gridcell']").first.inner_text()
        for n in range(1, 1 + len(DEMO_THREADS))
    ]
    assert listed == sorted(DEMO_THREADS)  # the demo-built store's threads, in id order

    _sign_out(page, provider, app_server)
    _expect_anonymous(page)


def test_a_member_by_domain_is_offered_the_servers_store(
    new_page, provider: Provider, app_server: Server
) -> None:
    page = new_page("threads")
    _sign_in(page, provider, app_server, "bo")
    _expect_signed_in(page, "bo@team.example", MEMBERS_SOURCES)


def test_a_signed_in_non_member_is_not_offered_the_servers_store(
    new_page, provider: Provider, app_server: Server
) -> None:
    page = new_page("threads")
    _sign_in(page, provider, app_server, "eve")
    _expect_signed_in(page, "eve@elsewhere.example", EVERYONES_SOURCES)
