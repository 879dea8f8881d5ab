"""Public mode under AppTest: what a visitor, a signed-in member and a stranger each reach."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.share import encode_share
from core.stores.demo import build_demo_store
from ui import keys

ROOT = Path(__file__).resolve().parents[2]
APP, TRACE = str(ROOT / "app.py"), str(ROOT / "views/trace.py")
THREADS = "views/threads.py"  # as AppTest.switch_page names it
AUTH = {  # Streamlit's [auth] section: only its presence matters until st.login is called
    "redirect_uri": "http://127.0.0.1:8501/oauth2callback",
    "cookie_secret": "a-test-cookie-secret-of-some-length",
    "client_id": "playground",
    "client_secret": "not-a-real-secret",
    "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration",
}
MEMBER = {"is_logged_in": True, "email": "ana@example.com", "email_verified": True}
STRANGER = {"is_logged_in": True, "email": "eve@elsewhere.example"}
ANONYMOUS = {"is_logged_in": False}
DEMO, UPLOAD, SERVER = (
    "Demo store (the seed graphs' real runs)",
    "Upload a SQLite store (.sqlite, .db)",
    "The server's store",
)
PUBLIC_STORES = [DEMO, UPLOAD]
# A graph whose one node leaves a mark in a file: did a visitor's link run it?
SIDE_EFFECT_GRAPH = """
import os
from pydantic import BaseModel
from langgraph.graph import END, START, StateGraph


class Visit(BaseModel):
    user_id: str = "nobody"


def record(state: Visit) -> dict:
    with open(os.environ["SIDE_EFFECT_LOG"], "a") as log:
        log.write(f"user_id={state.user_id!r}\\n")
    return {}


builder = StateGraph(Visit)
builder.add_node("record", record)
builder.add_edge(START, "record")
builder.add_edge("record", END)
"""
BROKEN_MODEL = 'raise RuntimeError("could not connect with postgresql://app:hunter2@db/shop")\n'


@pytest.fixture
def host(monkeypatch, tmp_path):
    """A host's configuration in `tmp_path` (the directory the app starts in): playground.toml
    lines and environment variables; argv holds no flags."""
    for name in ("MODEL", "GRAPH", "CANDIDATE", "STORE", "STORE_WRITES", "PUBLIC", "MEMBERS"):
        monkeypatch.delenv(f"PLAYGROUND_{name}", raising=False)
    monkeypatch.setattr(sys, "argv", ["app.py"])
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))

    def configure(toml: str = "", **env: str) -> Path:
        (tmp_path / "playground.toml").write_text("[playground]\n" + toml)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return tmp_path

    return configure


def _app(user: dict | None = None, auth: bool = False, page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if auth:
        at.secrets["auth"] = AUTH
    if user is not None:
        at.user = user
    at.run()
    if page is not None:
        at.switch_page(page).run()
    assert not at.exception
    return at


def _store(tmp_path: Path) -> str:
    path = tmp_path / "host-store.sqlite"
    build_demo_store(path)
    return str(path)


def test_a_public_server_with_a_store_and_no_sign_in_serves_only_its_refusal(host, tmp_path):
    host("public = true\n", PLAYGROUND_STORE=_store(tmp_path))
    refusal = (
        "[public_store_without_sign_in] This server is public and has a checkpoint store "
        "configured (PLAYGROUND_STORE), but no sign-in: a store is never served to anonymous "
        "visitors. Remove that setting, or add an [auth] section to .streamlit/secrets.toml "
        '(st.login) and list the members in playground.toml (members = ["you@example.com", '
        '"@example.com"]).'
    )
    for page in (None, THREADS, "views/trace.py"):
        at = _app(page=page)
        assert [e.value for e in at.error] == [refusal]
        assert [t.value for t in at.title] == ["This server is not set up to serve"]
        assert (len(at.sidebar), len(at.radio), len(at.button)) == (0, 0, 0)


def test_without_public_mode_the_same_store_opens_first_as_before(host, tmp_path):
    host("", PLAYGROUND_STORE=_store(tmp_path))
    at = _app(page=THREADS)
    assert at.radio(key=keys.THREADS_SOURCE).options == [*PUBLIC_STORES, SERVER]
    assert at.radio(key=keys.THREADS_SOURCE).value == "server"  # the value is the source's key


@pytest.mark.parametrize(
    ("user", "stores", "signed_in"),
    [
        (ANONYMOUS, PUBLIC_STORES, None),
        (MEMBER, [*PUBLIC_STORES, SERVER], "ana@example.com"),
        (STRANGER, PUBLIC_STORES, "eve@elsewhere.example"),
        ({**MEMBER, "email_verified": False}, PUBLIC_STORES, "ana@example.com"),
        ({**STRANGER, "email": "bo@team.example"}, [*PUBLIC_STORES, SERVER], "bo@team.example"),
    ],
    ids=["anonymous", "member", "stranger", "unverified-member", "member-by-domain"],
)
def test_only_a_signed_in_member_reaches_the_servers_store(host, tmp_path, user, stores, signed_in):
    toml = 'public = true\nmembers = ["Ana@Example.com", "@team.example"]\n'
    host(toml + f"store = {_store(tmp_path)!r}\n")
    at = _app(user, auth=True, page=THREADS)

    assert at.radio(key=keys.THREADS_SOURCE).options == stores
    assert at.radio(key=keys.THREADS_SOURCE).value == ("server" if SERVER in stores else "demo")
    buttons = [b.proto.label for b in at.sidebar.button]
    if signed_in is None:
        assert buttons == ["Sign in"]
    else:
        assert buttons == ["Sign out"]
        assert at.sidebar.code[0].value == signed_in


def test_a_link_to_the_servers_store_opened_by_a_stranger_says_it_is_for_members(host, tmp_path):
    host(f'public = true\nmembers = ["ana@example.com"]\nstore = {_store(tmp_path)!r}\n')
    at = AppTest.from_file(str(ROOT / THREADS), default_timeout=60)
    at.secrets["auth"] = AUTH
    at.user = STRANGER
    at.query_params["s"] = encode_share({"page": "threads", "source": "server"})
    at.run()
    assert [w.value for w in at.warning if "members_only" in w.value] == [
        "[members_only] The server's store, which this link reads, is for the host's signed-in "
        "team members on this public server; sign in with an address on its members list, or "
        "use the demo store and your own uploads. The demo store is shown instead."
    ]


def test_a_visitor_sees_no_module_path_or_import_error_of_the_hosts(host, tmp_path):
    (tmp_path / "hostmodel.py").write_text(BROKEN_MODEL)
    host('public = true\nmodel = "hostmodel:State"\n')
    at = _app(ANONYMOUS)
    assert [c.value for c in at.sidebar.code] == ["the seed order (AgentState and its graphs)"]
    assert [e.value for e in at.sidebar.error] == []
    shown = "\n".join(str(e.value) for e in at if hasattr(e, "value"))
    assert "hunter2" not in shown and "hostmodel" not in shown


def test_a_member_sees_the_hosts_import_error_without_its_password(host, tmp_path):
    (tmp_path / "hostmodel.py").write_text(BROKEN_MODEL)
    host('public = true\nmembers = ["ana@example.com"]\nmodel = "hostmodel:State"\n')
    at = _app(MEMBER, auth=True)
    assert at.sidebar.code[2].value == (
        "[module_import_failed] model module 'hostmodel' raised RuntimeError on import: could "
        "not connect with postgresql://app:***@db/shop. Fix the module so that importing it "
        "succeeds."
    )


def _side_effect_link(host, tmp_path, toml: str) -> tuple[AppTest, Path]:
    (tmp_path / "hostgraph.py").write_text(SIDE_EFFECT_GRAPH)
    log = tmp_path / "side-effects.log"
    host(toml + 'graph = "hostgraph:builder"\n', SIDE_EFFECT_LOG=str(log))
    at = AppTest.from_file(TRACE, default_timeout=60)
    at.secrets["auth"] = AUTH
    at.user = MEMBER
    payload = '{"user_id": "attacker-chosen"}'
    state = {"page": "trace", "payload": payload, "graph": "project", "mode": "native"}
    at.query_params["s"] = encode_share({**state, "faults": [], "step": 1, "ran": True})
    return at.run(), log


def test_a_share_link_never_runs_the_hosts_graph_for_a_visitor(host, tmp_path):
    at, log = _side_effect_link(host, tmp_path, 'public = true\nmembers = ["x@example.com"]\n')
    assert not at.exception
    assert at.radio(key=keys.TRACE_GRAPH).options == [
        "Seed order graph", "Fan-out graph (parallel notifiers)"
    ]  # fmt: skip
    at.button(key=keys.RUN).click().run()  # the visitor's own click runs the seed graph
    assert not log.exists()


def test_a_share_link_waits_for_a_members_click_before_running_the_hosts_graph(host, tmp_path):
    at, log = _side_effect_link(host, tmp_path, 'public = true\nmembers = ["ana@example.com"]\n')
    assert not at.exception
    assert not log.exists()
    assert keys.TRACE_RESULT not in at.session_state
    assert [i.value for i in at.info][0] == (
        "This link's run is set up above: press Run to run it (on this public server, a "
        "link never runs a graph by itself)."
    )
    at.button(key=keys.RUN).click().run()
    assert log.read_text() == "user_id='attacker-chosen'\n"
    assert at.session_state[keys.STEP_SLIDER] == 1


def test_outside_public_mode_a_share_link_still_runs_on_open(host, tmp_path):
    at, log = _side_effect_link(host, tmp_path, "")
    assert log.read_text() == "user_id='attacker-chosen'\n"


@pytest.mark.parametrize(
    ("user", "source", "allowed"),
    [(STRANGER, "demo", True), (STRANGER, "server", False), (MEMBER, "server", True)],
)
def test_writes_reach_only_a_sessions_own_stores_unless_a_member(host, user, source, allowed):
    host('public = true\nmembers = ["ana@example.com"]\n', PLAYGROUND_STORE_WRITES="1")
    script = (
        "import streamlit as st\n"
        "from ui.access import writes_reach\n"
        f"st.text(str(writes_reach({source!r})))\n"
    )
    at = AppTest.from_string(script, default_timeout=30)
    at.secrets["auth"] = AUTH
    at.user = user
    at.run()
    assert [t.value for t in at.text] == [str(allowed)]


def test_a_public_demo_without_sign_in_offers_none_and_names_no_configuration(host):
    host("public = true\n")
    at = _app(ANONYMOUS, page=THREADS)
    assert [c.value for c in at.sidebar.code][0] == "the seed order (AgentState and its graphs)"
    assert [b.proto.label for b in at.sidebar.button] == []
    assert at.radio(key=keys.THREADS_SOURCE).options == PUBLIC_STORES


class _Log:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def warning(self, form: str, *args: object) -> None:
        self.lines.append(form % args)


def test_the_log_says_once_what_public_mode_kept_back(host, tmp_path, monkeypatch):
    import streamlit as st

    import ui.access

    st.cache_resource.clear()  # a fresh server: nothing said yet
    log = _Log()
    monkeypatch.setattr(ui.access, "_LOG", log)
    host(
        f'public = true\nmembers = ["ana@example.com"]\nstore = {_store(tmp_path)!r}\n'
        'graph = "shop.graph:builder"\n',
        PLAYGROUND_STORE_WRITES="1",
    )
    for user in (ANONYMOUS, STRANGER):  # two sessions
        _app(user, auth=True)
    assert log.lines == [
        "public mode (from playground.toml): the server's store (from playground.toml), "
        "writes to it (PLAYGROUND_STORE_WRITES), the project's model and graph reach "
        "signed-in members only (sign-in configured; 1 member entry); everyone else gets "
        "the seed order, the demo store and their own uploads, and writes (if enabled) reach "
        "only those; share links never run a graph by themselves."
    ]


def test_the_log_says_the_refusal_once_without_the_dsns_password(host, monkeypatch):
    import streamlit as st

    import ui.access

    st.cache_resource.clear()
    log = _Log()
    monkeypatch.setattr(ui.access, "_LOG", log)
    host("public = true\n", PLAYGROUND_STORE="postgresql://app:hunter2@db:5432/shop")
    _app(ANONYMOUS)
    _app(ANONYMOUS)
    assert len(log.lines) == 1
    assert log.lines[0].startswith("[public_store_without_sign_in] This server is public")
    assert "hunter2" not in "\n".join(log.lines)
