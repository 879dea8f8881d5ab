"""Run a graph project under a real, offline `langgraph dev` on a free loopback port."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests._child_log import ChildLog

__all__ = ["OFFLINE_ENV", "LangGraphServer", "langgraph_dev"]

HOST = "127.0.0.1"
# Set for the server only. The CLI's usage analytics and langgraph-api's PyPI version check
# are the two calls `langgraph dev` makes on its own; tracing is off so no run is sent.
OFFLINE_ENV = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    "LANGGRAPH_NO_VERSION_CHECK": "true",
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
}
# Dropped from the inherited environment: a LangSmith key or licence would turn on
# langgraph-api's metadata loop, an endpoint would redirect it, a proxy could reach out.
_DROPPED = re.compile(r"^(LANGSMITH_|LANGCHAIN_|LANGGRAPH_|LS_|HTTPS?_PROXY$|ALL_PROXY$)", re.I)
# langgraph-api moves to another port when the one asked for is taken, and says so here
_API_LINE = re.compile(rb"API: \x1b\[36m(http://[^\x1b\s]+)")
_PR_SET_PDEATHSIG = 1
_SKIPPED = shutil.ignore_patterns(".langgraph_api", "__pycache__")


@dataclass
class LangGraphServer:
    """A running `langgraph dev` and the copy of the project it serves."""

    process: subprocess.Popen[bytes]
    url: str  # http://127.0.0.1:<port>, as the server printed it
    workdir: Path  # the copy: `.langgraph_api/` (the in-memory runtime's files) lands here
    startup_seconds: float  # from spawning the process to the first answer of /ok
    _log: ChildLog

    def log(self) -> str:
        """What the server printed so far (stdout and stderr, ANSI colours removed)."""
        return re.sub(r"\x1b\[[0-9;]*m", "", self._log.text())


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _answers_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/ok", timeout=1) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def _printed_url(log: ChildLog) -> str | None:
    found = _API_LINE.search(log.read())
    return found.group(1).decode() if found else None


def _die_with_parent() -> None:
    # Linux PR_SET_PDEATHSIG: a test run killed outright (no finally) still stops the server
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _server_env(extra: Mapping[str, str] | None) -> dict[str, str]:
    kept = {key: value for key, value in os.environ.items() if not _DROPPED.match(key)}
    return {**kept, **OFFLINE_ENV, **(extra or {})}


@contextmanager
def langgraph_dev(
    project_dir: str | Path,
    *,
    env: Mapping[str, str] | None = None,
    config: str = "langgraph.json",
    timeout: float = 120.0,  # 6-19 s idle; a loaded CI machine has taken over 60
) -> Iterator[LangGraphServer]:
    """Serve a copy of `project_dir` with `langgraph dev`; stop its process group after.

    The project is copied to a temp dir first: the in-memory runtime writes (and reloads)
    pickles under `./.langgraph_api`, which must neither land in the repository nor carry
    threads from one test run into the next. Graph paths in `config` are relative to the
    project, as `langgraph dev` reads them. `env` is added to the server's environment only.

    Example:
        >>> with langgraph_dev("tests/fixtures/server_graph") as server:  # doctest: +SKIP
        ...     server.url
        'http://127.0.0.1:40123'
    """
    workdir = Path(tempfile.mkdtemp(prefix="langgraph-dev-")) / "project"
    shutil.copytree(project_dir, workdir, ignore=_SKIPPED)
    port = _free_port()
    command = [
        sys.executable, "-m", "langgraph_cli", "dev",
        "--config", config,
        "--host", HOST,
        "--port", str(port),
        "--no-browser",
        "--no-reload",
        "--server-log-level", "INFO",
    ]  # fmt: skip
    log = ChildLog()  # a file, not a pipe: a full pipe would block the server
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=workdir,
        env=_server_env(env),
        stdout=log.sink,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stopped whole, workers included
        preexec_fn=_die_with_parent,
    )
    server = LangGraphServer(process, f"http://{HOST}:{port}", workdir, 0.0, log)
    try:
        deadline = started + timeout
        while not ((printed := _printed_url(log)) and _answers_ok(printed)):
            if process.poll() is not None or time.perf_counter() > deadline:
                raise RuntimeError(f"langgraph dev did not answer /ok:\n{server.log()}")
            time.sleep(0.05)
        server.url, server.startup_seconds = printed, time.perf_counter() - started
        yield server
    finally:
        _stop(process)
        log.close()
        shutil.rmtree(workdir.parent, ignore_errors=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    try:  # anything the server started and left behind in its group
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
