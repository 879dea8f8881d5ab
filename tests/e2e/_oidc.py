"""Run oidc-provider-mock, a real OpenID Connect provider, on a free loopback port."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from tests._child_log import ChildLog
from tests.e2e._server import HOST, _die_with_parent, _stop, free_port

__all__ = ["Client", "Provider", "oidc_provider"]

_DISCOVERY = "/.well-known/openid-configuration"


@dataclass(frozen=True)
class Client:
    """A client registered with the provider: what st.login's [auth] section names."""

    client_id: str
    client_secret: str


@dataclass
class Provider:
    """A running provider process."""

    process: subprocess.Popen[bytes]
    url: str  # http://127.0.0.1:<port>, its issuer
    log: ChildLog

    @property
    def metadata_url(self) -> str:
        """The discovery document: st.login's `server_metadata_url`."""
        return f"{self.url}{_DISCOVERY}"

    def register(self, redirect_uri: str) -> Client:
        """Register a client that may send users back to `redirect_uri` only (RFC 7591)."""
        body = json.dumps({"redirect_uris": [redirect_uri]}).encode()
        request = urllib.request.Request(
            f"{self.url}/oauth2/clients", body, {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            answer: dict[str, Any] = json.load(response)
        return Client(answer["client_id"], answer["client_secret"])

    def output(self) -> str:
        """What the provider logged so far (for failure messages)."""
        return self.log.text()


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


@contextmanager
def oidc_provider(
    users: Sequence[Mapping[str, object]] = (), *, timeout: float = 30.0
) -> Iterator[Provider]:
    """Start the provider, strict as a hosted one is, and stop it afterwards.

    Clients must register (an unknown client id or redirect URI is refused) and send a
    nonce. Each of `users` (claims with a "sub") gets a button on the provider's
    authorization page; a subject typed there instead gets only {"email": subject}.

    Example:
        >>> with oidc_provider([{"sub": "ana", "email": "ana@ex.com"}]) as idp:  # doctest: +SKIP
        ...     client = idp.register("http://127.0.0.1:40123/oauth2callback")
    """
    port = free_port()
    command = [
        sys.executable, "-m", "oidc_provider_mock",
        "--host", HOST, "--port", str(port),
        "--require-registration", "--require-nonce",
        *(arg for user in users for arg in ("--user-claims", json.dumps(user))),
    ]  # fmt: skip
    log = ChildLog()  # a file, not a pipe: a full pipe would block the provider
    # The CLI itself allows OAuth over http (AUTHLIB_INSECURE_TRANSPORT): loopback only.
    process = subprocess.Popen(
        command, stdout=log.sink, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent
    )
    provider = Provider(process, f"http://{HOST}:{port}", log)
    try:
        deadline = time.perf_counter() + timeout
        while not _answers(provider.metadata_url):
            if process.poll() is not None or time.perf_counter() > deadline:
                raise RuntimeError(f"the OIDC provider did not start:\n{provider.output()}")
            time.sleep(0.05)
        yield provider
    finally:
        _stop(process)
        log.close()
