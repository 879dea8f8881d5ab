"""Run an app under `streamlit run` on a free loopback port; read its CPU and memory use."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests._child_log import ChildLog

__all__ = [
    "ROOT",
    "Server",
    "cpu_seconds",
    "free_port",
    "machine_load",
    "peak_memory_mb",
    "streamlit_server",
]

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
_PR_SET_PDEATHSIG = 1


@dataclass
class Server:
    """A running `streamlit run` process."""

    process: subprocess.Popen[bytes]
    port: int
    log: ChildLog
    started: float  # time.perf_counter() just before the process was spawned
    healthy: float  # time.perf_counter() when /_stcore/health first answered "ok"

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def host(self) -> str:
        """`host:port` as it appears in request URLs."""
        return f"{HOST}:{self.port}"

    def output(self) -> str:
        """What the server printed so far (for failure messages)."""
        return self.log.text()


def free_port() -> int:
    """A loopback port nothing listens on now (the kernel's pick)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
            return response.read().strip() == b"ok"
    except (urllib.error.URLError, OSError):
        return False


@contextmanager
def streamlit_server(
    app: str | Path = "app.py",
    *,
    cwd: Path = ROOT,
    timeout: float = 60.0,
    env: dict[str, str] | None = None,
    port: int | None = None,
) -> Iterator[Server]:
    """Start `python -m streamlit run app`, wait for /_stcore/health, stop it afterwards.

    `env` adds variables to the server process's environment only (e.g. the store it opens).
    `port`: one chosen beforehand (from `free_port()`) when a file the app reads names it,
    e.g. st.login's redirect_uri; a free one otherwise.

    Example:
        >>> with streamlit_server() as server:  # doctest: +SKIP
        ...     server.url
        'http://127.0.0.1:40123'
    """
    port = port or free_port()
    command = [
        sys.executable, "-m", "streamlit", "run", str(app),
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", HOST,
        "--browser.gatherUsageStats", "false",
        # Source edits during a run (a shared working tree) must not rerun or break the app.
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    log = ChildLog()  # a file, not a pipe: a full pipe would block the server
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=log.sink,
        stderr=subprocess.STDOUT,
        preexec_fn=_die_with_parent,
    )
    server = Server(process, port, log, started, started)
    try:
        deadline = started + timeout
        while not _healthy(server.url):
            if process.poll() is not None or time.perf_counter() > deadline:
                raise RuntimeError(f"streamlit did not become healthy:\n{server.output()}")
            time.sleep(0.05)
        server.healthy = time.perf_counter()
        yield server
    finally:
        _stop(process)
        log.close()


def _die_with_parent() -> None:
    # Linux PR_SET_PDEATHSIG: if the test run or bench is killed outright (no finally runs),
    # the kernel still stops the server instead of leaving it orphaned on its port.
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a Linux process has used so far, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_memory_mb(pid: int) -> float:
    """Peak resident memory (VmHWM) of a Linux process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmHWM for pid {pid}")


def machine_load() -> str:
    """The machine's state, printed beside timings: they mean little on a busy machine."""
    one, five, _ = os.getloadavg()
    return f"machine load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} CPUs"
