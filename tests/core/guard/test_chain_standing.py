"""`migrate=` a folder of plans over the migrate tests' stores (threads at v1, v2 and v3, some
migrated once already): each stored state is read from where its thread stands, after the
newest `migration` record in its metadata, as `python -m core migrate --plan DIR` writes it."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from core.guard import GuardedSaver
from core.guard.ledger import state_channels
from core.migrate.chain import load_chain
from core.stores.serde import strict_serde
from tests.core.migrate import ledger_stores
from tests.core.migrate.conftest import saver_on
from tests.core.migrate.ledger_stores import (
    AT_V3,
    CHAIN,
    SERDE_TYPES,
    THREADS,
    apply_chain,
    read_standing,
)
from tests.core.migrate.oracle import root

from migrations.ledger import InvoiceV3, invoice_graph  # isort: skip

ledger = ledger_stores.ledger  # the migrate tests' stores at v1, v2 and v3, as a fixture here


class LooseInvoice(BaseModel):
    """A stale worker's state: v3's fields, any status (it still writes "shipped")."""

    customer_id: str
    amount: float
    status: str = "new"


def _state(saved: Any) -> dict[str, Any]:
    return to_jsonable_python(state_channels(saved.checkpoint["channel_values"]))


def test_the_guard_reads_each_thread_as_the_migrate_command_then_writes_it(ledger) -> None:
    kind, spec = ledger
    with saver_on(kind, spec, strict_serde(SERDE_TYPES)) as saver:
        guard = GuardedSaver(saver, InvoiceV3, migrate=CHAIN)
        read = {thread: _state(guard.get_tuple(root(thread))) for thread in THREADS}
    assert read == AT_V3  # as the migrate command will write them
    apply_chain(spec, load_chain(CHAIN), InvoiceV3)  # the command's forks, one per broken thread
    with saver_on(kind, spec, strict_serde(SERDE_TYPES)) as saver:
        written = {thread: _state(saver.get_tuple(root(thread))) for thread in THREADS}
        assert {t: saver.get_tuple(root(t)).metadata.get("migration") for t in THREADS} == {
            **{t: "v3" for t in THREADS if not t.startswith("v3")},
            "v3-done": None,
            "v3-paused": None,
        }
    assert written == read


def test_a_thread_standing_after_the_chain_is_not_migrated_again_as_the_command_leaves_it(
    ledger, caplog
) -> None:
    # After the command's forks (records "v3"), a stale worker writes "shipped" on v2-done
    # again, and writes a new thread with no record: the record decides, not the state's fit.
    kind, spec = ledger
    chain = load_chain(CHAIN)
    apply_chain(spec, chain, InvoiceV3)
    with saver_on(kind, spec, strict_serde([*SERDE_TYPES, LooseInvoice])) as saver:
        stale = invoice_graph(LooseInvoice).compile(checkpointer=saver)
        stale.update_state(root("v2-done"), {"status": "shipped"}, as_node="ship")
        stale.invoke({"customer_id": "c-9", "amount": 9.0}, root("fresh"))
        stored = {t: _state(saver.get_tuple(root(t))) for t in ("v2-done", "fresh")}
        assert stored == {
            "v2-done": {**AT_V3["v2-done"], "status": "shipped"},
            "fresh": {"customer_id": "c-9", "amount": 9.0, "status": "shipped"},
        }
        guard = GuardedSaver(saver, InvoiceV3, migrate=CHAIN)
        with caplog.at_level(logging.WARNING, "core.guard"):
            read = {t: guard.get_tuple(root(t)) for t in ("v2-done", "fresh")}
        listed = [_state(saved) for saved in guard.list(root("v2-done"), limit=2)]
    assert {t: _state(saved) for t, saved in read.items()} == {
        "v2-done": stored["v2-done"],  # stands after v3: no plan left, read as stored
        "fresh": {"customer_id": "c-9", "amount": 9.0, "status": "fulfilled"},  # v2 and v3
    }
    head = read["v2-done"].config["configurable"]["checkpoint_id"]
    warned = (
        f"[state_invalid] Thread 'v2-done', checkpoint {head!r}: the migration leaves the "
        "stored state rejected by InvoiceV3; it is read as stored."
    )
    # the guard's own records (LangGraph's strict-msgpack mode logs its serializer's too)
    guard = [r.getMessage() for r in caplog.records if r.name.startswith("core.guard")]
    assert guard == [warned, warned]  # read, then listed
    # the fork below it holds its own record: read as the command wrote it
    assert listed == [stored["v2-done"], AT_V3["v2-done"]]
    # where the command says each thread stands: the same
    standing = {row.thread_id: (row.record, row.pending) for row in read_standing(spec, chain)}
    assert {t: standing[t] for t in ("v2-done", "fresh")} == {
        "v2-done": ("v3", ()),
        "fresh": (None, ("v2", "v3")),
    }


def test_the_async_read_finds_the_record_too(ledger, caplog) -> None:
    kind, spec = ledger
    if kind != "sqlite":
        return  # the async Postgres saver is exercised by the conformance suite
    apply_chain(spec, load_chain(CHAIN), InvoiceV3)
    with saver_on(kind, spec, strict_serde([*SERDE_TYPES, LooseInvoice])) as saver:
        stale = invoice_graph(LooseInvoice).compile(checkpointer=saver)
        stale.update_state(root("v2-paused"), {"status": "shipped"}, as_node="ship")

    async def read() -> dict[str, Any]:
        async with AsyncSqliteSaver.from_conn_string(spec) as inner:
            inner.serde = strict_serde([*SERDE_TYPES, LooseInvoice])
            guard = GuardedSaver(inner, InvoiceV3, migrate=CHAIN)
            return _state(await guard.aget_tuple(root("v2-paused")))

    assert asyncio.run(read()) == {"customer_id": "c-2", "amount": 20.0, "status": "shipped"}
    assert len([r for r in caplog.records if r.name.startswith("core.guard")]) == 1
