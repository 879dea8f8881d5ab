"""What is really wrong, said so: a SQLite log a read-only folder keeps SQLite from reading,
and a DSN that requires TLS from a server that does not offer it."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.stores import open_store, strict_serde
from core.stores.backends import open as open_module
from core.stores.backends.open import store_label
from core.stores.errors import StoreError

from .conftest import writer

NOBODY = 65534


def _as_another_user(read: Callable[[], str]) -> str:
    """`read()` in a child process that may not write the folder: root may write anywhere,
    so under root the child runs as `nobody` (every module it needs is imported already)."""
    out, into = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        os.close(out)
        try:
            if os.geteuid() == 0:
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            said = read()
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            said = f"raised {type(exc).__name__}"
        os.write(into, said.encode())
        os._exit(0)
    os.close(into)
    with os.fdopen(out) as pipe:
        said = pipe.read()
    os.waitpid(child, 0)
    return said


@pytest.fixture
def logged_copy(tmp_path) -> Iterator[Path]:
    """A store whose newest writes are still in its log, copied with the log but without
    the shared-memory file (as a copy made while the app runs is) into a read-only folder
    (outside pytest's own, which only its owner may enter)."""
    source = tmp_path / "live.sqlite"
    top = Path(tempfile.mkdtemp(prefix="wal-copy-"))
    top.chmod(0o755)
    folder = top / "shared"
    folder.mkdir()
    with writer("sqlite", str(source)) as saver:  # open: the log is not checkpointed
        graph = build_order_graph().builder.compile(checkpointer=saver)
        graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": "t"}})
        for suffix in ("", "-wal"):
            shutil.copy(f"{source}{suffix}", folder / f"runs.sqlite{suffix}")
    folder.chmod(0o555)
    yield folder / "runs.sqlite"
    folder.chmod(0o755)
    shutil.rmtree(top)


def _opened(path: Path) -> str:
    try:
        with open_store(str(path), strict_serde([AgentState])):
            return "opened"
    except StoreError as error:
        return json.dumps([str(error.code), error.message])


@pytest.mark.parametrize("checked_first", [True, False])
def test_a_log_a_read_only_folder_keeps_sqlite_from_reading_is_named(
    logged_copy, monkeypatch, checked_first
):
    if not checked_first:  # a file over the quick-check size is refused at its first read
        monkeypatch.setattr(open_module, "QUICK_CHECK_BYTES", 0)
    said = _as_another_user(lambda: _opened(logged_copy))
    label = str(logged_copy)
    assert json.loads(said) == [
        "store_unreadable",
        f"{label} cannot be opened: its write-ahead log (runs.sqlite-wal) is there but its "
        "shared-memory file (runs.sqlite-shm) is not, and SQLite may not create it because "
        "the folder is read-only. The store is not damaged: its newest writes are in the "
        "log. Copy runs.sqlite and runs.sqlite-wal together to a folder you can write and "
        "open the copy, or have the application that writes it run PRAGMA "
        "wal_checkpoint(TRUNCATE) before the file is shared.",
    ]


def test_the_same_copy_in_a_folder_sqlite_may_write_is_read(logged_copy):
    logged_copy.parent.chmod(0o777)  # SQLite makes the shared-memory file and reads the log
    assert _as_another_user(lambda: _opened(logged_copy)) == "opened"


@pytest.mark.parametrize(
    ("query", "environ", "asked"),
    [
        ("?sslmode=require", {}, "sslmode=require in the DSN"),
        ("?sslmode=verify-full", {}, "sslmode=verify-full in the DSN"),
        ("", {"PGSSLMODE": "require"}, "PGSSLMODE=require"),
    ],
)
def test_a_dsn_that_requires_tls_from_a_server_without_it_says_so(
    postgres, postgres_demo, monkeypatch, query, environ, asked
):
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    spec = f"{postgres_demo}{query}"
    with pytest.raises(StoreError) as raised:
        open_store(spec, strict_serde([AgentState])).__enter__()
    label = store_label(spec)
    assert (str(raised.value.code), raised.value.message) == (
        "store_unreachable",
        f"{label} requires TLS ({asked}) and the server does not offer it; turn on ssl in the "
        "server's postgresql.conf, or connect without TLS only on a network you trust "
        "(sslmode=prefer or disable).",
    )
