"""docs/deploy/nginx.conf in front of two app replicas: its headers, the WebSocket in Chromium,
sticky sessions, the per-address connection limit and the upload cap."""

from __future__ import annotations

import ctypes
import datetime
import http.client
import ipaddress
import os
import pwd
import re
import signal
import socket
import ssl
import subprocess
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from playwright.sync_api import expect

from core.order.presets import PRESETS
from tests.e2e._browser import new_context, open_app, submit_payload
from tests.e2e._server import ROOT, streamlit_server
from tests.e2e.conftest import VIEWPORT

NGINX = "/usr/sbin/nginx"
if not Path(NGINX).exists():  # not skipped: a skipped proxy test would prove nothing in CI
    pytest.fail(
        f"{NGINX} is missing: run the README's test command (its apt line installs nginx)",
        pytrace=False,
    )

pytestmark = pytest.mark.e2e

CONF = ROOT / "docs" / "deploy" / "nginx.conf"
CONF_TEXT = CONF.read_text()
# nginx listens on 127.0.0.2: an origin Streamlit does not allow on its own (its list has
# localhost, 127.0.0.1 and the machine's addresses), as a real host name is not. So the
# browser's WebSocket connects only if the file passes the visitor's Host on.
PUBLIC = "127.0.0.2"
OTHER_VISITOR = "127.0.0.3"  # a second visitor address, for the per-address limit
HEALTH = "/_stcore/health"
EDITOR_PAGE = "/component/ui.editor.json_editor.json_editor/index.html"
MIB = 1024 * 1024
# nginx's own answers carry these too ("always"); plain HTTP only redirects, without HSTS.
SECURITY_HEADERS = {
    "Server": ["nginx"],
    "Strict-Transport-Security": ["max-age=31536000"],
    "Content-Security-Policy": ["frame-ancestors 'none'"],
    "X-Frame-Options": ["DENY"],
    "X-Content-Type-Options": ["nosniff"],
    "Referrer-Policy": ["same-origin"],
}
REPLICA_COOKIE = re.compile(r"replica=[0-9a-f]{32}; Path=/; Secure; HttpOnly; SameSite=Lax")
LOG_LINE = re.compile(r'"(?P<request>\S+ \S+)" (?P<status>\d{3}) \d+ \S+ replica=(?P<replica>.+)$')
_PR_SET_PDEATHSIG = 1


class Served(NamedTuple):
    """One line of the proxy's access log."""

    request: str  # method and path
    status: int
    replica: str  # host:port, or "-" when nginx answered itself


@dataclass
class Proxy:
    """nginx running the rendered file, and what a visitor needs to reach it."""

    https_port: int
    http_port: int
    replicas: tuple[str, str]
    tls: ssl.SSLContext  # trusts the throwaway certificate
    access_log: Path

    @property
    def url(self) -> str:
        return f"https://{PUBLIC}:{self.https_port}"

    def log_mark(self) -> int:
        return self.access_log.stat().st_size

    def served_since(self, mark: int) -> list[Served]:
        with self.access_log.open("rb") as log:
            log.seek(mark)
            lines = log.read().decode().splitlines()
        return [_parse_log_line(line) for line in lines]


def _parse_log_line(line: str) -> Served:
    match = LOG_LINE.search(line)
    assert match, f"not the file's log_format: {line!r}"
    return Served(match["request"], int(match["status"]), match["replica"])


def _render(ports: dict[str, int], tmp: Path) -> str:
    """The file with only what differs on a test machine swapped.

    Each text must occur in the file exactly `count` times: an edit there that this table
    misses fails here, rather than leaving the test on a value the file no longer uses.
    """
    user = pwd.getpwuid(os.geteuid()).pw_name  # ignored by nginx unless run as root
    swaps = [
        ("user www-data;", f"user {user};", 1),
        ("pid /run/nginx.pid;", f"pid {tmp}/nginx.pid;", 1),
        ("/var/log/nginx/", f"{tmp}/log/", 2),
        ("/var/lib/nginx/", f"{tmp}/spool/", 5),
        ("/etc/letsencrypt/live/playground.example.org/", f"{tmp}/tls/", 2),
        ("listen 443 ssl;", f"listen {PUBLIC}:{ports['https']} ssl;", 1),
        ("listen 80;", f"listen {PUBLIC}:{ports['http']};", 1),
        ("server 127.0.0.1:8501;", f"server 127.0.0.1:{ports['first']};", 1),
        ("server 127.0.0.1:8502;", f"server 127.0.0.1:{ports['second']};", 1),
    ]
    text = CONF_TEXT
    for old, new, count in swaps:
        assert text.count(old) == count, f"{CONF.name} holds {old!r} {text.count(old)} times"
        text = text.replace(old, new)
    return text


def _write_certificate(directory: Path) -> None:
    """A throwaway self-signed certificate for PUBLIC, where the file expects Let's Encrypt's."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, PUBLIC)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(PUBLIC))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    directory.mkdir()
    (directory / "fullchain.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    (directory / "privkey.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )


def _free_port(host: str) -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _die_with_parent() -> None:
    # If the test run is killed outright, the kernel still stops nginx (its master then
    # stops its workers) instead of leaving it on its ports.
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    tmp = tmp_path_factory.mktemp("nginx")
    (tmp / "log").mkdir()
    (tmp / "spool").mkdir()
    _write_certificate(tmp / "tls")
    with ExitStack() as stack:
        first = stack.enter_context(streamlit_server())
        second = stack.enter_context(streamlit_server())
        ports = {
            "https": _free_port(PUBLIC),
            "http": _free_port(PUBLIC),
            "first": first.port,
            "second": second.port,
        }
        conf = tmp / "nginx.conf"
        conf.write_text(_render(ports, tmp))
        output = stack.enter_context((tmp / "nginx.out").open("w+b"))
        # Its own process in the foreground: the test owns its lifetime and reads its output.
        process = subprocess.Popen(
            [NGINX, "-p", str(tmp), "-c", str(conf), "-g", "daemon off;"],
            stdout=output,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent,
        )
        stack.callback(_stop, process)
        proxy = Proxy(
            https_port=ports["https"],
            http_port=ports["http"],
            replicas=(first.host, second.host),
            tls=ssl.create_default_context(cafile=tmp / "tls" / "fullchain.pem"),
            access_log=tmp / "log" / "access.log",
        )
        deadline = time.monotonic() + 10
        while not _answers(proxy):
            if process.poll() is not None or time.monotonic() > deadline:
                output.seek(0)
                pytest.fail(f"nginx did not start:\n{output.read().decode()}")
            time.sleep(0.05)
        yield proxy


def _answers(proxy: Proxy) -> bool:
    try:
        return _get(proxy, HEALTH).status == 200
    except OSError:
        return False


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()  # SIGTERM: nginx's fast shutdown, workers included
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Answer(NamedTuple):
    status: int
    headers: http.client.HTTPMessage
    body: bytes


def _connect(proxy: Proxy, *, source: str = "127.0.0.1") -> http.client.HTTPSConnection:
    return http.client.HTTPSConnection(
        PUBLIC, proxy.https_port, context=proxy.tls, timeout=10, source_address=(source, 0)
    )


def _get(
    proxy: Proxy, path: str, *, cookie: str | None = None, source: str = "127.0.0.1"
) -> Answer:
    """GET over HTTPS on a fresh connection (no cookie jar: `cookie` is all it sends)."""
    connection = _connect(proxy, source=source)
    try:
        connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        response = connection.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        connection.close()


def _start_upload(proxy: Proxy, size: int) -> http.client.HTTPSConnection:
    """Send an upload's request headers, announcing `size` bytes, and none of its body."""
    connection = _connect(proxy)
    connection.putrequest("PUT", "/_stcore/upload_file/held/held")
    connection.putheader("Content-Length", str(size))
    connection.endheaders()
    return connection


def _unanswered(connection: http.client.HTTPSConnection) -> bool:
    """Whether nginx has neither answered on this connection nor closed it."""
    sock = connection.sock
    sock.setblocking(False)
    try:
        sock.recv(1)  # TLS 1.3 session tickets are read here, without raising
    except ssl.SSLWantReadError:
        return True
    return False


def _wait_for(probe: Callable[[], Answer], status: int) -> Answer:
    """Probe until the answer has `status`: nginx counts a request once it has read its
    headers, a moment after they were sent."""
    deadline = time.monotonic() + 5
    while (answer := probe()).status != status and time.monotonic() < deadline:
        time.sleep(0.05)
    return answer


def _replica_cookies(headers: http.client.HTTPMessage) -> list[str]:
    """The proxy's Set-Cookie values (the replica's own, Streamlit's XSRF cookie, aside)."""
    return [c for c in headers.get_all("Set-Cookie") or [] if c.startswith("replica=")]


def _security_headers(headers: http.client.HTTPMessage) -> dict[str, list[str] | None]:
    return {name: headers.get_all(name) for name in SECURITY_HEADERS}


def test_https_answers_carry_the_security_headers_and_a_replica_cookie(proxy: Proxy) -> None:
    answer = _get(proxy, "/")

    assert answer.status == 200
    assert b"<title>Streamlit</title>" in answer.body
    assert _security_headers(answer.headers) == SECURITY_HEADERS
    [cookie] = _replica_cookies(answer.headers)
    assert REPLICA_COOKIE.fullmatch(cookie), cookie
    health = _get(proxy, HEALTH)
    assert (health.status, health.body) == (200, b"ok")
    # A Streamlit component's page (the JSON editor's, once a session has drawn it; before,
    # the replica answers 404 with the same headers): framed by the app, by nobody else. The
    # browser test below draws the editor in its frame through the proxy.
    editor = _get(proxy, EDITOR_PAGE)
    assert _security_headers(editor.headers) == SECURITY_HEADERS | {
        "Content-Security-Policy": ["frame-ancestors 'self'"],
        "X-Frame-Options": ["SAMEORIGIN"],
    }


def test_plain_http_redirects_to_https_without_hsts(proxy: Proxy) -> None:
    connection = http.client.HTTPConnection(PUBLIC, proxy.http_port, timeout=10)
    try:
        connection.request("GET", "/validate?s=v1.abc")
        response = connection.getresponse()
        response.read()
    finally:
        connection.close()

    assert response.status == 301
    assert response.headers["Location"] == f"https://{PUBLIC}/validate?s=v1.abc"
    assert response.headers.get_all("Strict-Transport-Security") is None
    assert response.headers["Server"] == "nginx"


def test_the_app_renders_and_answers_an_edit_over_the_proxied_websocket(
    browser: Any, proxy: Proxy
) -> None:
    mark = proxy.log_mark()
    context = new_context(browser, viewport=VIEWPORT, ignore_https_errors=True)
    try:
        page = open_app(context, f"{proxy.url}/")
        verdict = page.locator("[data-testid='stAlert']").filter(has_text="LangGraph ")
        expect(verdict).to_have_text(
            "LangGraph runs this payload. Your model alone accepts it too."
        )

        submit_payload(page, PRESETS["negative_amount"].value)

        expect(verdict).to_contain_text("LangGraph raises before the first node runs")
        expect(page.locator("[data-testid='stException']")).to_have_count(0)
    finally:
        context.close()

    # The WebSocket's line is written when it closes.
    deadline = time.monotonic() + 5
    while not any(s.request == "GET /_stcore/stream" for s in proxy.served_since(mark)):
        assert time.monotonic() < deadline, proxy.served_since(mark)
        time.sleep(0.05)
    served = proxy.served_since(mark)
    assert ("GET /_stcore/stream", 101) in [(s.request, s.status) for s in served]
    # The page, its scripts, the health check and the WebSocket: all on one replica.
    assert len({s.replica for s in served}) == 1, served
    assert served[0].replica in proxy.replicas


def test_each_browser_keeps_its_replica_and_browsers_spread_over_both(proxy: Proxy) -> None:
    mark = proxy.log_mark()
    browsers = 16  # all 16 on one replica by chance: about 1 run in 30,000
    for _ in range(browsers):
        first = _get(proxy, HEALTH)
        [cookie] = _replica_cookies(first.headers)
        for _ in range(3):
            again = _get(proxy, HEALTH, cookie=cookie.split(";")[0])
            assert _replica_cookies(again.headers) == []  # set once, then kept

    served = proxy.served_since(mark)
    assert [(s.request, s.status) for s in served] == [("GET /_stcore/health", 200)] * 4 * browsers
    per_browser = [[s.replica for s in served[i : i + 4]] for i in range(0, len(served), 4)]
    assert per_browser == [[replicas[0]] * 4 for replicas in per_browser]
    assert {replicas[0] for replicas in per_browser} == set(proxy.replicas)


def test_one_address_past_the_connection_limit_gets_503_until_a_connection_ends(
    proxy: Proxy,
) -> None:
    limit = int(re.search(r"limit_conn per_ip (\d+);", CONF_TEXT)[1])
    assert _get(proxy, HEALTH).status == 200
    held = [_start_upload(proxy, 1) for _ in range(limit)]  # each waits for its 1-byte body
    try:
        refused = _wait_for(lambda: _get(proxy, HEALTH), 503)

        assert refused.status == 503
        assert _security_headers(refused.headers) == SECURITY_HEADERS
        assert b"nginx/" not in refused.body  # no version on nginx's own pages either
        assert [_unanswered(c) for c in held] == [True] * limit
        assert _get(proxy, HEALTH, source=OTHER_VISITOR).status == 200  # per address
        held.pop().close()
        assert _wait_for(lambda: _get(proxy, HEALTH), 200).status == 200
    finally:
        for connection in held:
            connection.close()


def _logged_413(proxy: Proxy, mark: int) -> list[Served]:
    """The 413s nginx logged since `mark`, read until one is there (up to 10 s): nginx may
    write the line a moment after the client has its answer (CI once read none yet)."""
    for _ in range(40):
        refused = [s for s in proxy.served_since(mark) if s.status == 413]
        if refused:
            return refused
        time.sleep(0.25)
    return refused


def test_an_upload_over_streamlits_cap_is_refused_at_the_proxy(proxy: Proxy) -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    cap = config["server"]["maxUploadSize"]
    assert f"client_max_body_size {cap}m;" in CONF_TEXT
    mark = proxy.log_mark()

    at_cap = _start_upload(proxy, cap * MIB)
    over = _start_upload(proxy, cap * MIB + 1)
    try:
        response = over.getresponse()
        body = response.read()

        assert response.status == 413
        assert _security_headers(response.headers) == SECURITY_HEADERS
        assert b"nginx/" not in body
        assert _unanswered(at_cap)  # nginx waits for this body: Streamlit's cap allows it
    finally:
        over.close()
        at_cap.close()
    refused = _logged_413(proxy, mark)
    assert refused == [("PUT /_stcore/upload_file/held/held", 413, "-")]  # no replica saw it
