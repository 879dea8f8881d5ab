"""`migrate=` given a path: the migrate command's plan TOML, or a folder of chained plans (the
ledger chain, v1 -> v2 -> v3). Threads written under v1 and v2 are read as v3 and run on,
one stopped before a node resumes by running it, and no stored row is rewritten."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from core.guard import GuardedSaver
from core.guard.plans import PlanMigration
from core.migrate.plan import PlanError

from .conftest import raw_rows, saver_on

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
LEDGER = FIXTURES / "migrations" / "ledger_chain"


@pytest.fixture(autouse=True)
def ledger_models(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The plans name their models as `migrations.ledger:InvoiceV1`: importable from here."""
    monkeypatch.syspath_prepend(str(FIXTURES))
    from migrations import ledger

    return ledger


def _config(thread_id: str) -> Any:
    return {"configurable": {"thread_id": thread_id}}


def test_a_chain_folder_reads_v1_and_v2_threads_as_v3_and_they_run_on(store, ledger_models):
    m = ledger_models
    with saver_on(*store) as saver:
        v1 = m.invoice_graph(m.InvoiceV1).compile(checkpointer=saver)
        v1.invoke({"user_id": "u-1", "amount": 5.0}, _config("v1-done"))
        v1.invoke(
            {"user_id": "u-2", "amount": 6.0}, _config("v1-stopped"), interrupt_before=["ship"]
        )
        v2 = m.invoice_graph(m.InvoiceV2).compile(checkpointer=saver)
        v2.invoke({"customer_id": "c-3", "amount": 7.0, "currency": "USD"}, _config("v2-done"))
        before = {t: raw_rows(saver, t) for t in ("v1-done", "v1-stopped", "v2-done")}

        guard = GuardedSaver(saver, m.InvoiceV3, migrate=str(LEDGER))
        assert isinstance(guard.migrate, PlanMigration)
        v3 = m.invoice_graph(m.InvoiceV3).compile(checkpointer=guard)
        assert {t: v3.get_state(_config(t)).values for t in before} == {
            "v1-done": {"customer_id": "u-1", "amount": 5.0, "status": "fulfilled"},
            "v1-stopped": {"customer_id": "u-2", "amount": 6.0, "status": "paid"},
            "v2-done": {"customer_id": "c-3", "amount": 7.0, "status": "fulfilled"},
        }
        # the thread stopped before `ship` resumes by running it, now under v3
        assert v3.get_state(_config("v1-stopped")).next == ("ship",)
        assert v3.invoke(None, _config("v1-stopped"), durability="sync") == {
            "customer_id": "u-2", "amount": 6.0, "status": "fulfilled",
        }  # fmt: skip
        assert raw_rows(saver, "v1-stopped")[0][:3] == (
            2, "loop", {"customer_id": "u-2", "amount": 6.0, "status": "fulfilled"},
        )  # fmt: skip
        # every row stored before holds what it held (a resumed node's write goes on its row)
        assert {
            t: [r[:3] for r in raw_rows(saver, t)[-len(rows) :]] for t, rows in before.items()
        } == {t: [r[:3] for r in rows] for t, rows in before.items()}


def test_a_plan_file_migrates_as_the_migrate_command_reads_it(store, ledger_models):
    m = ledger_models
    with saver_on(*store) as saver:
        v2 = m.invoice_graph(m.InvoiceV2).compile(checkpointer=saver)
        v2.invoke({"customer_id": "c-1", "amount": 1.0, "currency": "EUR"}, _config("t"))
        guard = GuardedSaver(saver, m.InvoiceV3, migrate=LEDGER / "v3.toml")
        read = guard.get_tuple(_config("t"))
        assert read is not None
        assert {k: v for k, v in read.checkpoint["channel_values"].items() if ":" not in k} == {
            "customer_id": "c-1", "amount": 1.0, "status": "fulfilled",
        }  # fmt: skip


def test_a_plan_the_migrate_command_refuses_is_refused_when_the_guard_is_made(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text('[[step]]\npath = "status"\naction = "explode"\n', encoding="utf-8")
    from langgraph.checkpoint.memory import InMemorySaver
    from pydantic import BaseModel

    class State(BaseModel):
        status: str = ""

    with pytest.raises(PlanError) as refused:
        GuardedSaver(InMemorySaver(), State, migrate=plan)
    assert refused.value.code == "plan_step"
    assert str(plan) in refused.value.message
    assert sys.modules["migrations.ledger"] is not None


def test_a_thread_stopped_by_a_compiled_interrupt_resumes_by_running_the_node(store, ledger_models):
    # the migrated channels' new versions do not stop it again before `ship`
    m = ledger_models
    with saver_on(*store) as saver:
        v1 = m.invoice_graph(m.InvoiceV1).compile(checkpointer=saver, interrupt_before=["ship"])
        assert v1.invoke({"user_id": "u-1", "amount": 5.0}, _config("t")) == {
            "user_id": "u-1", "amount": 5.0, "status": "paid",
        }  # fmt: skip
        guard = GuardedSaver(saver, m.InvoiceV3, migrate=LEDGER)
        v3 = m.invoice_graph(m.InvoiceV3).compile(checkpointer=guard, interrupt_before=["ship"])
        assert v3.invoke(None, _config("t"), durability="sync") == {
            "customer_id": "u-1", "amount": 5.0, "status": "fulfilled",
        }  # fmt: skip
        assert [(s.metadata["step"], s.values, s.next) for s in v3.get_state_history(_config("t"))][
            :2
        ] == [
            (2, {"customer_id": "u-1", "amount": 5.0, "status": "fulfilled"}, ()),
            (1, {"customer_id": "u-1", "amount": 5.0, "status": "paid"}, ("ship",)),
        ]


def test_a_state_the_plan_leaves_rejected_is_read_as_stored_with_a_warning(
    store, ledger_models, caplog
):
    m = ledger_models
    with saver_on(*store) as saver:
        v1 = m.invoice_graph(m.InvoiceV1).compile(checkpointer=saver)
        v1.invoke({"user_id": "u-1", "amount": 5.0}, _config("t"))
        stored = saver.get_tuple(_config("t"))
        guard = GuardedSaver(saver, m.InvoiceV3, migrate=LEDGER / "v3.toml")  # v2 -> v3 only
        read = guard.get_tuple(_config("t"))
        assert read is not None and stored is not None
        assert read.checkpoint == stored.checkpoint
        assert [(r.name, r.levelname, r.getMessage()) for r in caplog.records] == [
            (
                "core.guard",
                "WARNING",
                f"[state_invalid] Thread 't', checkpoint {stored.checkpoint['id']!r}: the "
                "migration leaves the stored state rejected by InvoiceV3; it is read as stored.",
            )
        ]
