"""A super-step that raised: the row's detail says nothing was merged (not that LangGraph
merged the nodes' writes), and the step table's rows are tall enough for LangGraph's error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from core.order import FAULTS
from ui import keys
from ui.tables import row_height, rows_in_view
from ui.text import plain

WRITERS = "audit, validate_order"
PAGE = str(Path(__file__).resolve().parents[2] / "views" / "trace.py")
CONCURRENT = (
    "InvalidUpdateError: At key 'status': Can receive only one value per step. Use an "
    "Annotated key to handle multiple values."
)


def _detail(at: AppTest) -> tuple[list[tuple[str, Any]], Any]:
    """What the row's detail beside the table draws, in order (element type, its text), and
    its block."""

    def find(node: Any) -> Any:
        for child in getattr(node, "children", {}).values():
            if str(getattr(getattr(child, "proto", None), "id", "")).endswith(keys.TRACE_DETAIL):
                return child
            if (found := find(child)) is not None:
                return found
        return None

    block = find(at.main)
    return [(child.type, child.value) for child in block.children.values()], block


def _every_fault_run() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.multiselect(key=keys.TRACE_FAULTS).set_value(list(FAULTS))
    return at.button(key=keys.RUN).click().run()


@pytest.fixture(scope="module")
def every_fault() -> AppTest:
    return _every_fault_run()


@pytest.mark.parametrize(("row", "node"), [(1, "audit"), (2, "validate_order")])
def test_a_super_step_that_raised_says_nothing_was_merged(row: int, node: str):
    at = _every_fault_run()  # opened on row 1, the first failure
    if row != 1:
        at.select_slider(key=keys.STEP_SLIDER).set_value(row).run()
    drawn, _ = _detail(at)
    assert drawn == [
        ("markdown", f"**Step 1 · {plain(node)}**"),
        (
            "caption",
            plain(
                "One super-step of 2 nodes (audit, validate_order): LangGraph ran them "
                "together and the step raised, so nothing was merged; each of their rows shows "
                "the state before the step."
            ),
        ),
        ("error", "LangGraph never merged this step: it raised."),
        ("code", CONCURRENT),
        (
            "caption",
            "Nodes of one step wrote a field that has no reducer; LangGraph's error carries "
            f"no node name; the writers, read from the checkpoint, were {plain(WRITERS)}.",
        ),
    ]


def test_a_super_step_that_merged_still_says_so():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.radio(key=keys.TRACE_GRAPH).set_value("fanout")
    at.button(key=keys.RUN).click().run()
    at.select_slider(key=keys.STEP_SLIDER).set_value(2).run()  # notify_email
    drawn, _ = _detail(at)
    assert drawn[:2] == [
        ("markdown", "**Step 2 · notify\\_email**"),
        (
            "caption",
            plain(
                "One super-step of 2 nodes (notify_email, notify_sms): LangGraph ran them "
                "together and merged all their writes, so each of their rows shows the same "
                "merged state."
            ),
        ),
    ]


def test_the_step_tables_rows_hold_langgraphs_error_whole(every_fault):
    # The error column (170 px) wraps LangGraph's error to five lines: the 82 px rows held
    # three, "multiple values." cut in half on rows 1 and 2 (measured in Chromium: five lines
    # at 1400 px and on a phone, each inside the 121 px row).
    (table,) = [d for d in every_fault.dataframe if "flag" in d.value.columns]
    widths = {name: c.get("width") for name, c in json.loads(table.proto.columns).items()}
    assert (
        list(table.value["error"]),
        widths["error"],
        table.proto.row_height,
    ) == (["", CONCURRENT, CONCURRENT], 170, row_height(5))
    # The detail beside it is as tall as the table: its header and three such rows.
    _, block = _detail(every_fault)
    assert block.proto.height_config.pixel_height == rows_in_view(row_height(5), 3) == 403
