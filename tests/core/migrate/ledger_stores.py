"""The ledger chain's stores (v1 -> v2 -> v3), shared by the migrate and guard chain tests:
threads written at every version by real runs on SQLite and Postgres, some migrated once
already, and the state each one holds at v3 once the whole chain ran."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from core.migrate.chain import Chain, load_chain
from core.migrate.standing import Standing, chain_standing
from core.migrate.write import write_migration
from core.stores.reader import open_any
from core.stores.serde import strict_serde
from core.stores.unbrick import WRITES_ENV

from .cases import FIXTURES
from .conftest import KINDS, saver_on
from .oracle import root

from migrations.ledger import InvoiceV1, InvoiceV2, InvoiceV3, build_v3, invoice_graph  # isort: skip

__all__ = ["AT_V3", "CHAIN", "INPUTS", "SERDE_TYPES", "THREADS", "VERSIONS", "apply_chain",
           "ledger", "read_standing", "write_ledger"]  # fmt: skip

CHAIN = FIXTURES / "migrations" / "ledger_chain"
SERDE_TYPES = [InvoiceV1, InvoiceV2, InvoiceV3]
VERSIONS: dict[str, type[BaseModel]] = {"v1": InvoiceV1, "v2": InvoiceV2, "v3": InvoiceV3}
INPUTS: dict[str, dict[str, Any]] = {  # what each version's graph is invoked with
    "v1": {"user_id": "u-1", "amount": 12.5},
    "v2": {"customer_id": "c-2", "amount": 20.0, "currency": "USD"},
    "v3": {"customer_id": "c-3", "amount": 30.0},
}
# `once-*` ran at v1 and were migrated to v2 before the others ran; `*-done` ran to the end,
# `*-paused` stopped before `ship`
THREADS = ["once-done", "once-paused", "v1-done", "v1-paused", "v2-done", "v2-paused",
           "v3-done", "v3-paused"]  # fmt: skip
AT_V3: dict[str, dict[str, Any]] = {  # each thread's state once the chain ran to v3
    "once-done": {"customer_id": "u-1", "amount": 12.5, "status": "fulfilled"},
    "once-paused": {"customer_id": "u-1", "amount": 12.5, "status": "paid"},
    "v1-done": {"customer_id": "u-1", "amount": 12.5, "status": "fulfilled"},
    "v1-paused": {"customer_id": "u-1", "amount": 12.5, "status": "paid"},
    "v2-done": {"customer_id": "c-2", "amount": 20.0, "status": "fulfilled"},
    "v2-paused": {"customer_id": "c-2", "amount": 20.0, "status": "paid"},
    "v3-done": {"customer_id": "c-3", "amount": 30.0, "status": "fulfilled"},
    "v3-paused": {"customer_id": "c-3", "amount": 30.0, "status": "paid"},
}
_NAMES = itertools.count()


def _run(saver: Any, version: str, thread: str, *, paused: bool) -> None:
    """A thread written by the graph of `version`: to the end, or stopped before `ship` by
    the graph's own `interrupt_before`."""
    graph = invoice_graph(VERSIONS[version]).compile(
        checkpointer=saver, interrupt_before=["ship"] if paused else None
    )
    graph.invoke(INPUTS[version], root(thread))


def apply_chain(spec: str, chain: Chain, candidate: type[BaseModel]) -> list[tuple[str, str]]:
    """`--apply` of `chain` to the store: (thread, new checkpoint id) of each fork written."""
    written = write_migration(spec, InvoiceV1, candidate, chain, lambda _: build_v3(),
                              strict_serde(SERDE_TYPES))  # fmt: skip
    return [(w.thread_id, w.new_checkpoint_id) for w in written]


def read_standing(spec: str, chain: Chain) -> list[Standing]:
    """Where the migrate command says each thread of the store stands in `chain`."""
    with open_any(spec, strict_serde(SERDE_TYPES)) as store:
        return [row for row in chain_standing(store, chain, InvoiceV1) if isinstance(row, Standing)]


def write_ledger(kind: str, spec: str) -> None:
    """The `THREADS` into an empty store (writes on: `once-*` are migrated by `--to v2`)."""
    with saver_on(kind, spec) as saver:
        _run(saver, "v1", "once-done", paused=False)
        _run(saver, "v1", "once-paused", paused=True)
    assert sorted(thread for thread, _ in apply_chain(spec, load_chain(CHAIN).to("v2"),
                                                      InvoiceV2)) == ["once-done", "once-paused"]  # fmt: skip
    with saver_on(kind, spec) as saver:
        for version in VERSIONS:
            _run(saver, version, f"{version}-done", paused=False)
            _run(saver, version, f"{version}-paused", paused=True)


@pytest.fixture(params=KINDS)
def ledger(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, str]:
    """(kind, spec) of a store of this test's own holding the `THREADS`, writes on."""
    kind = request.param
    name = f"ledger{next(_NAMES)}"
    if kind == "sqlite":
        spec = str(tmp_path / f"{name}.sqlite")
    else:
        spec = request.getfixturevalue("postgres").create_database(name)
    monkeypatch.setenv(WRITES_ENV, "1")
    write_ledger(kind, spec)
    return kind, spec
