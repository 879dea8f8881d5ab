"""Which store the Threads page reads: the demo, an uploaded SQLite file, or the server's."""

from __future__ import annotations

import atexit
import math
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from core.errors import ErrorCode
from core.stores.config import ServerStore, server_store
from core.stores.demo import build_demo_store
from core.stores.errors import StoreError
from core.stores.open import store_label
from ui import keys
from ui.access import trusted
from ui.threads.coded import show_coded

__all__ = ["MAX_UPLOAD_BYTES", "UPLOAD_CEILING_MB", "StoreChoice", "choose_store"]

# Megabytes of 1,000,000 bytes: the sizes Streamlit's uploader shows beside the file
# (outside Windows) are in these, so the page's message and the uploader's agree.
_MB = 1000 * 1000
MAX_UPLOAD_BYTES = 50 * _MB  # the largest store the page opens
# What the browser sends and Streamlit's server keeps (server.maxUploadSize is the same):
# above the page's limit, so a store over it reaches the page, which says what to do with
# it; Streamlit's own refusal only meets a file over this. (.streamlit/config.toml says why.)
UPLOAD_CEILING_MB = 100
# Streamlit's drop zone would say "100MB per file"; the label says the page's limit instead.
_UPLOAD_STYLE = f"""<style>
.st-key-{keys.THREADS_UPLOAD} [data-testid="stFileUploaderDropzoneInstructions"] {{
  display: none; }}
</style>"""
_AUDIT_COMMAND = "python -m core audit STORE --model pkg.mod:Model"
SOURCES = {
    "demo": "Demo store (the seed graphs' real runs)",
    "upload": "Upload a SQLite store (.sqlite, .db)",
    "server": "The server's store",
}


@dataclass(frozen=True)
class StoreChoice:
    """A store to open: its spec (never shown), what the page may say about it, its kind."""

    spec: str
    label: str  # a file name, user@host:port/db or a server's URL: never a password or key
    source: str  # a SOURCES key
    assistant: str | None = None  # a LangGraph server's assistant or graph: its threads only

    @property
    def is_demo(self) -> bool:
        return self.source == "demo"


def _remove(directory: str) -> None:
    shutil.rmtree(directory, ignore_errors=True)


@st.cache_resource(scope="session", on_release=_remove, show_spinner=False)
def _session_dir() -> str:
    # Session-scoped: this session's own files (the demo, an upload), removed by Streamlit
    # when the session disconnects; nothing in it is shared with another session. The exit
    # hook catches what no disconnect released (a killed server's sessions, AppTest's).
    directory = tempfile.mkdtemp(prefix="playground-threads-")
    atexit.register(_remove, directory)
    return directory


def _remove_template(path: str) -> None:
    _remove(str(Path(path).parent))


def _exists(path: str) -> bool:
    return Path(path).is_file()


# validate: a template removed under the process (a temp cleaner) is built again
@st.cache_resource(
    validate=_exists,
    on_release=_remove_template,
    show_spinner="Building the demo store from real runs of the seed graphs…",
)
def _demo_template() -> str:
    # The demo store is the same for every session: built once per process (real runs of
    # the seed graphs, 0.1 to 0.3 s of each new session's first Threads run) and only
    # ever copied. The cache holds a path, never a connection or a session's data; the file
    # is read-only, and each session reads and writes its own copy.
    directory = tempfile.mkdtemp(prefix="playground-demo-template-")
    atexit.register(_remove, directory)
    path = Path(directory) / "demo.sqlite"
    build_demo_store(path)
    path.chmod(0o444)
    return str(path)


def _demo() -> StoreChoice:
    path = Path(_session_dir()) / "demo.sqlite"
    if not path.is_file():
        # the session's own, writable (no mode copied): copied under a temporary name and
        # moved into place, so a copy cut short (a full disk) is never taken for the store;
        # a template removed since the cache checked it (a cache clear) is built again, once
        partial = path.with_suffix(".partial")
        try:
            shutil.copyfile(_demo_template(), partial)
        except FileNotFoundError:
            _demo_template.clear()
            shutil.copyfile(_demo_template(), partial)
        os.replace(partial, path)
    return StoreChoice(str(path), "demo store (this session's own copy)", "demo")


def _upload() -> StoreChoice | None:
    st.html(_UPLOAD_STYLE)
    limit = MAX_UPLOAD_BYTES // _MB
    upload = st.file_uploader(
        f"SQLite checkpoint store (.sqlite, .db, .sqlite3; up to {limit} MB)",
        type=["sqlite", "db", "sqlite3"],
        key=keys.THREADS_UPLOAD,
        help=f"The file your SqliteSaver writes, up to {limit} MB. It is copied to a private "
        "temp file of this session, opened read-only and deleted when the session ends. "
        f"Audit a larger store from the command line: `{_AUDIT_COMMAND}`",
        max_upload_size=UPLOAD_CEILING_MB,
    )
    _keep_only(upload.file_id if upload is not None else None)
    if upload is None:
        st.info("Upload the .sqlite file your SqliteSaver writes to read its threads.")
        return None
    if upload.size > MAX_UPLOAD_BYTES:
        size = math.ceil(upload.size * 10 / _MB) / 10  # rounded up: never shown as the limit
        st.error(
            f"The file is not read [{ErrorCode.UPLOAD_TOO_LARGE}]: it is {size:.1f} MB, and "
            f"the limit is {limit} MB. Audit a larger store from the command line, or start "
            "the server with it as its store (--store or PLAYGROUND_STORE):"
        )
        st.code(_AUDIT_COMMAND, language=None)
        return None
    path = _copy_of(upload.file_id)
    if not path.is_file():
        path.write_bytes(upload.getvalue())
    return StoreChoice(str(path), f"uploaded file {upload.name}", "upload")


def _copy_of(file_id: str) -> Path:
    """The session's private copy of the upload `file_id` (SQLite reads it, never the upload)."""
    return Path(_session_dir()) / f"upload-{file_id}.sqlite"


def _keep_only(file_id: str | None) -> None:
    """Delete the session's copies of earlier uploads (all, when the uploader is empty), with
    the -wal and -shm files SQLite made beside them: a session keeps one upload on disk."""
    kept = _copy_of(file_id).name if file_id is not None else None
    for file in Path(_session_dir()).glob("upload-*"):
        if kept is None or not (file.name == kept or file.name.startswith(f"{kept}-")):
            file.unlink(missing_ok=True)


def _server() -> ServerStore | None:
    if not trusted():  # a public server's own store: for its signed-in members only
        return None
    try:
        return server_store(sys.argv[1:], os.environ, Path.cwd())
    except StoreError as error:
        show_coded("The server's store setting cannot be read", error)
        return None


def choose_store() -> StoreChoice | None:
    """The store picker; None when no store is chosen yet (the page says what to do).

    The server's store is offered, and chosen first, when it is configured (`--store`,
    playground.toml's `store`, or PLAYGROUND_STORE); it is named only by its label.
    """
    server = _server()
    sources = [name for name in SOURCES if name != "server" or server]
    if st.session_state.get(keys.THREADS_SOURCE) not in sources:
        # a server started with a store opens on it: that store is why it was configured
        st.session_state[keys.THREADS_SOURCE] = "server" if server else "demo"
    source = st.radio(
        "Store", sources, format_func=SOURCES.get, key=keys.THREADS_SOURCE, horizontal=True
    )
    if source == "server" and server:
        label = store_label(server.spec)
        if server.assistant:  # one graph's threads of a LangGraph server
            label += f" (the threads of {server.assistant})"
        return StoreChoice(server.spec, label, "server", server.assistant)
    if source == "upload":
        return _upload()
    return _demo()
