"""A chain of plans (v1 -> v2 -> v3) over real SQLite and Postgres stores holding threads of
every version, some migrated once already: each thread from where it stands, one fork each,
a second apply writing nothing, and each thread resuming on the graph with its interrupts."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from langgraph.graph import END, START, StateGraph
from pydantic_core import to_jsonable_python

from core.__main__ import main
from core.migrate.chain import load_chain
from core.migrate.preview import preview_migration
from core.migrate.write import write_migration
from core.stores.reader import open_any
from core.stores.serde import strict_serde

from . import ledger_stores
from .cases import FIXTURES
from .conftest import saver_on
from .ledger_stores import AT_V3, CHAIN, SERDE_TYPES, THREADS, apply_chain, read_standing
from .oracle import root

from migrations.ledger import InvoiceV1, InvoiceV2, InvoiceV3, bill, build_v3, invoice_graph  # isort: skip

ledger = ledger_stores.ledger  # the stores at v1, v2 and v3, as a fixture here


def test_each_thread_stands_after_its_record_else_where_its_state_fits(ledger):
    _, spec = ledger
    rows = {row.thread_id: (row.record, row.after, row.pending)
            for row in read_standing(spec, load_chain(CHAIN))}  # fmt: skip
    assert rows == {
        "once-done": ("v2", "v2", ("v3",)),
        "once-paused": ("v2", "v2", ("v3",)),
        "v1-done": (None, "", ("v2", "v3")),
        "v1-paused": (None, "", ("v2", "v3")),
        "v2-done": (None, "v2", ("v3",)),  # InvoiceV2, v3's `model`, accepts its state
        "v2-paused": (None, "v2", ("v3",)),
        "v3-done": (None, "", ("v2", "v3")),  # no version's model fits: the whole chain,
        "v3-paused": (None, "", ("v2", "v3")),  # which leaves it as it is (below)
    }


def test_the_preview_counts_each_plan_step_over_the_threads_that_need_it(ledger):
    _, spec = ledger
    with open_any(spec, strict_serde(SERDE_TYPES)) as store:
        report = preview_migration(store, InvoiceV1, InvoiceV3, load_chain(CHAIN)).to_json()
    assert {key: report[key] for key in ("threads", "checkpoints", "broken_before", "fixed",
                                         "steps", "still_broken")} == {  # fmt: skip
        "threads": 8,
        "checkpoints": 8,
        "broken_before": 6,
        "fixed": 6,
        "steps": [
            {"plan": "v2", "path": "user_id", "action": "rename", "changed": 2, "fixed": 2,
             "to_answer": False},
            {"plan": "v2", "path": "currency", "action": "default", "changed": 4, "fixed": 0,
             "to_answer": False},
            {"plan": "v3", "path": "currency", "action": "drop", "changed": 8, "fixed": 8,
             "to_answer": False},
            {"plan": "v3", "path": "status", "action": "map", "changed": 3, "fixed": 3,
             "to_answer": False},
        ],
        "still_broken": [],
    }  # fmt: skip


def test_apply_writes_each_thread_once_records_the_plan_and_a_second_apply_writes_nothing(ledger):
    kind, spec = ledger
    chain = load_chain(CHAIN)
    written = apply_chain(spec, chain, InvoiceV3)
    assert sorted(thread for thread, _ in written) == [
        "once-done", "once-paused", "v1-done", "v1-paused", "v2-done", "v2-paused"]  # fmt: skip
    with saver_on(kind, spec, strict_serde(SERDE_TYPES)) as saver:
        latest = {thread: saver.get_tuple(root(thread)) for thread in THREADS}
        graph = build_v3().builder.compile(checkpointer=saver)
        values = {thread: to_jsonable_python(graph.get_state(root(thread)).values)
                  for thread in latest}  # fmt: skip
    assert {thread: saved.metadata.get("migration") for thread, saved in latest.items()} == {
        "once-done": "v3", "once-paused": "v3", "v1-done": "v3", "v1-paused": "v3",
        "v2-done": "v3", "v2-paused": "v3", "v3-done": None, "v3-paused": None}  # fmt: skip
    assert values == AT_V3
    # no fork names a channel of a field v3 lacks, `currency` (v2's only) included
    assert {thread: sorted(set(saved.checkpoint["channel_versions"]) & {"currency", "user_id"})
            for thread, saved in latest.items()} == {thread: [] for thread in latest}  # fmt: skip
    assert {row.thread_id: row.pending for row in read_standing(spec, chain)} == {
        thread: () if thread in dict(written) else ("v2", "v3") for thread in latest}  # fmt: skip
    assert apply_chain(spec, chain, InvoiceV3) == []


def _counting_v3(saver: Any, ran: Counter[str]) -> Any:
    """The v3 graph as its team compiles it, `interrupt_before=["ship"]`, counting ships."""

    def ship(state: InvoiceV3) -> dict[str, str]:
        ran[state.customer_id] += 1
        return {"status": "fulfilled"}

    graph = StateGraph(InvoiceV3)
    graph.add_node("bill", bill)
    graph.add_node("ship", ship)
    graph.add_edge(START, "bill")
    graph.add_edge("bill", "ship")
    graph.add_edge("ship", END)
    return graph.compile(checkpointer=saver, interrupt_before=["ship"])


def test_a_thread_paused_before_a_node_resumes_on_the_graph_with_its_interrupts(ledger):
    kind, spec = ledger
    apply_chain(spec, load_chain(CHAIN), InvoiceV3)
    ran: Counter[str] = Counter()
    outcome = {}
    with saver_on(kind, spec, strict_serde(SERDE_TYPES)) as saver:
        graph = _counting_v3(saver, ran)
        for thread in ("once-paused", "v1-paused", "v2-paused", "v3-paused"):
            assert graph.get_state(root(thread)).next == ("ship",)
            final = graph.invoke(None, root(thread))
            outcome[thread] = (to_jsonable_python(final), graph.get_state(root(thread)).next)
    assert outcome == {  # each ends as the thread that ran to the end
        thread: (AT_V3[thread.replace("-paused", "-done")], ()) for thread in outcome
    }
    assert ran == Counter({"u-1": 2, "c-2": 1, "c-3": 1})  # one ship per thread


def test_one_plan_applied_alone_resumes_too(ledger):
    """v1 -> v2 alone: `user_id` renamed away keeps no channel version (langgraph #9001)."""
    kind, spec = ledger
    written = write_migration(spec, InvoiceV1, InvoiceV2, load_chain(CHAIN / "v2.toml"),
                              lambda _: invoice_graph(InvoiceV1).compile(),
                              strict_serde(SERDE_TYPES))  # fmt: skip
    # a v3 thread that is not done yet fits v2 once it has a currency: it gets one
    assert sorted(w.thread_id for w in written) == ["v1-done", "v1-paused", "v3-paused"]
    with saver_on(kind, spec, strict_serde(SERDE_TYPES)) as saver:
        graph = invoice_graph(InvoiceV2).compile(checkpointer=saver, interrupt_before=["ship"])
        final = graph.invoke(None, root("v1-paused"))
        after = graph.get_state(root("v1-paused"))
    assert (to_jsonable_python(final), after.next, after.metadata.get("migration")) == (
        {"customer_id": "u-1", "amount": 12.5, "currency": "EUR", "status": "shipped"},
        (),
        None,
    )


def test_the_cli_applies_a_folder_chain_and_reports_each_step_with_its_plan(
    ledger, monkeypatch, capsys
):
    _, spec = ledger
    monkeypatch.chdir(FIXTURES)
    flags = [spec, "--model", "migrations.ledger:InvoiceV1", "--candidate",
             "migrations.ledger:InvoiceV3", "--graph", "migrations.ledger:build_v3",
             "--plan", str(CHAIN), "--json"]  # fmt: skip
    assert main(["migrate", *flags, "--to", "v2"]) == 1  # v2 states are still not v3's
    capsys.readouterr()
    assert main(["migrate", *flags, "--apply"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert ([step["plan"] for step in report["steps"]], len(report["written"])) == (
        ["v2", "v2", "v3", "v3"], 6)  # fmt: skip
    assert main(["migrate", *flags, "--apply"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert (again["written"], again["broken_before"], again["steps"][0]["changed"]) == ([], 0, 0)
