"""Any store the page and the CLI read, opened from its spec: a SQLite file, a Postgres
database or a LangGraph server; the one place a spec's kind picks the backend."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from langgraph.checkpoint.serde.base import SerializerProtocol

from core.stores.backends.open import MAX_VALUE_BYTES, Store, open_store
from core.stores.backends.server import RemoteStore, open_server
from core.stores.backends.spec import parse_store_spec

__all__ = ["AnyStore", "is_server", "open_any"]

AnyStore = Store | RemoteStore  # each a `core.stores.backends.protocol.Backend`


def is_server(spec: str) -> bool:
    """Whether `spec` names a LangGraph server (an http(s):// URL), not a file or database.

    Example:
        >>> is_server("http://127.0.0.1:2024"), is_server("runs.sqlite")
        (True, False)
    """
    return parse_store_spec(spec).kind == "server"


@contextmanager
def open_any(
    spec: str,
    serde: SerializerProtocol,
    *,
    assistant: str | None = None,
    max_value_bytes: int = MAX_VALUE_BYTES,
) -> Iterator[AnyStore]:
    """`open_store` for a file or a database; `open_server` for an http(s):// URL (a LangGraph
    server read through langgraph-sdk; `assistant` keeps one graph's threads).

    Example:
        >>> from core.stores.decode.serde import strict_serde
        >>> with open_any("http://127.0.0.1:9/", strict_serde([])):  # doctest: +ELLIPSIS
        ...     pass
        Traceback (most recent call last):
        ...
        core.stores.errors.StoreError: [store_unreachable] cannot connect to http://127.0.0.1:9 ...
    """
    parsed = parse_store_spec(spec)
    if parsed.kind == "server":
        with open_server(parsed, assistant=assistant) as server:
            server.max_value_bytes = max_value_bytes
            yield server
        return
    with open_store(spec, serde, max_value_bytes=max_value_bytes) as store:
        yield store
