"""Threads page's Migrate section with AppTest: the plan table, its preview, a diff, Apply."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from streamlit.testing.v1 import AppTest

from core.lg_compat import recompile
from core.migrate.export import export_module
from core.migrate.plan import ACTIONS, MAX_PLAN_BYTES, Plan, Step, parse_plan
from core.order import build_order_graph
from tests.app.conftest import downloads, open_demo_threads, phone_layouts, table_rows
from ui import keys
from ui.threads import source
from ui.threads.columns import MIGRATE_PHONE_COLUMNS
from ui.threads.listing import short_ids
from ui.threads.migrate import preview as migrate_preview
from ui.threads.migrate.plan_grid import CELLS, cell_key

pytestmark = pytest.mark.usefixtures("session_ends")  # each test's demo store is its own
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = str(ROOT / "tests" / "fixtures")
COLUMNS = ["path", "action", "value", "from", "to", "asked", "note"]
AMOUNT_MAP = {"path": "amount", "action": "map", "from": "750", "to": "500"}
NARROWER = (
    "amount is narrower in the candidate (le: 1000000 -> 500): some stored values may "
    "fail, and the preview counts them."
)
STATUS_LAST = ("fault-bad_status_last", "status", "literal_error",
               "Input should be 'pending', 'validated' or 'confirmed'", 1)  # fmt: skip
NEGATIVE = ("fault-negative_amount", "amount", "greater_than_equal",
            "Input should be greater than or equal to 0", 1)  # fmt: skip
OVER_500 = ("model-change", "amount", "less_than_equal",
            "Input should be less than or equal to 500", 1)  # fmt: skip
UNTOUCHED = ["clean-1", "clean-2", "fault-node_exception", "fault-overwrite_logs",
             "fault-parallel_status", "fault-undeclared_key", "interrupted"]  # fmt: skip
DIFF_PICK = keys.THREADS_MIGRATE_THREAD  # the diff's own picker, beside the list's Thread box
NO_THREAD_IN_STORE = (
    "No thread to show before and after: this store holds no threads yet. Open a store that "
    "holds threads."
)


def _open(monkeypatch, *, writes: bool = False, candidate: str | None = None) -> AppTest:
    if candidate is not None:
        monkeypatch.syspath_prepend(FIXTURES)
    return open_demo_threads(monkeypatch, writes=writes, candidate=candidate)


@pytest.fixture
def at(monkeypatch) -> AppTest:
    return _open(monkeypatch)


def _steps_key(at: AppTest) -> str:
    generation = at.session_state[keys.THREADS_MIGRATE_BASE]["generation"]
    return keys.generation(keys.THREADS_MIGRATE_STEPS, generation)


def _grid_cell(at: AppTest, row: int, column: str):
    key = cell_key(at.session_state[keys.THREADS_MIGRATE_BASE]["generation"], row, column)
    return at.selectbox(key=key) if column == "action" else at.text_input(key=key)


def _edit(at: AppTest, *, added=(), edited=None) -> AppTest:
    """Type into the plan's grid as a person does: the base rows (with `edited` cells, by
    row), then each of `added` on the new line under them, one line a run (the next new
    line is drawn once one is typed); lines typed before and not in `added` are emptied."""
    base = at.session_state[keys.THREADS_MIGRATE_BASE]["rows"]
    wanted = [{c: row[c] for c in CELLS} | (edited or {}).get(i, {}) for i, row in enumerate(base)]
    wanted += [{c: row.get(c, "") for c in CELLS} for row in added]
    drawn = len([w for w in at.text_input if w.key and w.key.endswith("-path")])
    wanted += [{}] * max(0, drawn - 1 - len(wanted))  # lines typed before: emptied
    for row, cells in enumerate(wanted):
        for column in CELLS:
            value = cells.get(column, "")  # an action box's empty is None: no option
            _grid_cell(at, row, column).set_value(value or None if column == "action" else value)
        at.run()
        assert not at.exception
    return at


def _table(at: AppTest) -> list[dict]:
    """The grid's lines as the table read before (its asked and note from the base rows),
    without the empty new line at its end."""
    base = at.session_state[keys.THREADS_MIGRATE_BASE]["rows"]
    drawn = len([w for w in at.text_input if w.key and w.key.endswith("-path")])
    rows = []
    for row in range(drawn - 1):
        kept = base[row] if row < len(base) else {"asked": None, "note": ""}
        cells = {c: _grid_cell(at, row, c).value or "" for c in CELLS}
        rows.append(cells | {"asked": kept["asked"], "note": kept["note"]})
    return rows


def _open_thread_checkpoints(at: AppTest) -> int:
    """How many checkpoints the open thread has, as said under the list."""
    captions = [c.value.replace("\u2060", "").replace("\\", "") for c in at.caption]
    (said,) = [c for c in captions if c.startswith("The open thread: ")]
    return int(said.removeprefix("The open thread: ").split(" ")[0])


def _counts(at: AppTest) -> dict[str, int]:
    return {metric.label: int(metric.value) for metric in at.metric}


def _broken(at: AppTest) -> list[tuple]:
    """The still-broken states without their checkpoint ids."""
    return [row[:5] for row in table_rows(at, "thread", "field", "type")]


def _refusals(at: AppTest) -> list[str]:
    """What the rows lack (the box under the table): each row and cell with the code, then
    the sentence, a blank line between rows."""
    return [code.value for code in at.code if "[plan_step]\n" in code.value]


def _upload_refused(at: AppTest) -> tuple[list[str], str]:
    """The uploaded plan's refusal: the alert with its code, and the sentence under it."""
    alerts = [error.value for error in at.error]
    said = [code.value for code in at.code if code.value.startswith(("The plan", "Line "))]
    return alerts, "\n".join(said)


def test_the_demo_candidate_gets_no_step_the_warning_and_the_stores_counts(at):
    assert _table(at) == []  # no step: only the new line
    assert NARROWER in [code.value for code in at.code]
    assert _counts(at) == {
        "Threads": 10, "Checkpoints": 10, "Broken before": 3, "Fixed": 0, "Still broken": 3,
    }  # fmt: skip
    assert _broken(at) == [STATUS_LAST, NEGATIVE, OVER_500]
    assert table_rows(at, "path", "action", "changed") == []  # no step, no step counts


def test_a_proposal_of_maps_shows_each_note_and_marks_the_asked_step(monkeypatch):
    at = _open(monkeypatch, candidate="candidates.migrations:OrderWithFewerStatuses")
    assert _table(at) == [
        {"path": "status", "action": "map", "value": "", "from": "validated", "to": "",
         "asked": True, "note": '"validated" is no longer allowed at status: write what it '
         "becomes in to and remove answer (nothing is guessed: until then it changes nothing "
         "and its threads stay broken)."},
        {"path": "status", "action": "map", "value": "", "from": "confirmed",
         "to": "CONFIRMED", "asked": False, "note": '"confirmed" is no longer allowed at '
         'status: it becomes "CONFIRMED", the same text in another case.'},
    ]  # fmt: skip
    assert any("Steps marked asked need your value." in c.value for c in at.caption)
    # the asked step, its to still empty, is a step left to answer: it changes nothing
    assert _refusals(at) == []
    assert _counts(at) == {
        "Threads": 10, "Checkpoints": 10, "Broken before": 9, "Fixed": 5, "Still broken": 4,
    }  # fmt: skip
    assert table_rows(at, "path", "action", "changed") == [
        ("status", "map", 0, 0),
        ("status", "map", 5, 5),
    ]
    _edit(at, edited={0: {"to": "pending"}})  # answered, as plain text
    assert _counts(at)["Fixed"] == 7


def test_a_map_of_amount_fixes_the_thread_it_maps_and_editing_it_changes_the_counts(at):
    _edit(at, added=[AMOUNT_MAP])
    assert _refusals(at) == []
    assert _counts(at) == {
        "Threads": 10, "Checkpoints": 10, "Broken before": 3, "Fixed": 1, "Still broken": 2,
    }  # fmt: skip
    assert table_rows(at, "path", "action", "changed") == [("amount", "map", 1, 1)]
    assert _broken(at) == [STATUS_LAST, NEGATIVE]
    # 600 is still over the candidate's 500: the step changes the state, and fixes nothing
    _edit(at, added=[AMOUNT_MAP | {"to": "600"}])
    assert _counts(at) == {
        "Threads": 10, "Checkpoints": 10, "Broken before": 3, "Fixed": 0, "Still broken": 3,
    }  # fmt: skip
    assert table_rows(at, "path", "action", "changed") == [("amount", "map", 1, 0)]
    assert _broken(at)[2] == ("model-change", "amount", "less_than_equal",
                              "Input should be less than or equal to 500", 1)  # fmt: skip


def test_a_cell_that_is_not_json_and_a_step_the_plan_refuses_are_named_by_row(at):
    _edit(at, added=[
        AMOUNT_MAP | {"to": "five hundred"},
        {"path": "status", "action": "rename", "to": "1st"},
        {"path": "items[0].sku", "action": "drop"},
    ])  # fmt: skip
    assert _refusals(at) == [
        "Row 1 (amount), column to [plan_step]\n"
        "Not JSON (Expecting value at character 1); the field here is not text, so write "
        "JSON: a number (750), true, false, null, a list, an object, or a string in double "
        'quotes ("shipped").\n\n'
        "Row 2 (status) [plan_step]\n"
        "A rename needs to: the field's new name.\n\n"
        "Row 3 (items[0].sku), column path [plan_step]\n"
        "'items[0].sku' is not a path: write field names joined by dots, [*] after a list's "
        "name for each of its elements (items[*].sku)."
    ]
    # what was typed stays in the table; the preview stays the last complete plan's (none)
    assert _table(at)[0]["to"] == "five hundred"
    assert [e.value for e in at.error] == []
    assert _stale(at) == [STALE_NO_STEP]
    assert _counts(at) == {
        "Threads": 10, "Checkpoints": 10, "Broken before": 3, "Fixed": 0, "Still broken": 3,
    }  # fmt: skip


def _stale(at: AppTest) -> list[str]:
    return [w.value for w in at.warning if w.value.startswith("Stale:")]


STALE_NO_STEP = (
    "Stale: the preview below is of the last complete plan (0 steps); the rows named above "
    "are not in it until they are finished."
)


def test_a_half_typed_step_keeps_the_last_preview_marked_stale_and_says_what_it_lacks(at):
    _edit(at, added=[AMOUNT_MAP])
    assert (_stale(at), _counts(at)["Fixed"]) == ([], 1)
    # the first cell of a new row typed: the step lacks its action, then its from and to
    _edit(at, added=[AMOUNT_MAP, {"path": "status"}])
    assert _refusals(at) == [
        "Row 2 (status), column action [plan_step]\n"
        "Choose the step's action: default, drop, map, rename or coerce."
    ]
    assert [e.value for e in at.error] == []  # no red: nothing is wrong, only unfinished
    assert _stale(at) == [
        "Stale: the preview below is of the last complete plan (1 step); the rows named above "
        "are not in it until they are finished."
    ]
    assert _counts(at) == {
        "Threads": 10, "Checkpoints": 10, "Broken before": 3, "Fixed": 1, "Still broken": 2,
    }  # fmt: skip
    assert table_rows(at, "path", "action", "changed") == [("amount", "map", 1, 1)]
    assert "Apply waits for a complete plan: finish or delete the rows named above." not in [
        c.value for c in at.caption
    ]  # writes are off here: Apply is not offered at all
    _edit(at, added=[AMOUNT_MAP, {"path": "status", "action": "map"}])
    assert _refusals(at) == [
        "Row 2 (status) [plan_step]\nA map needs from and to: the old value and the new one."
    ]
    assert _counts(at)["Fixed"] == 1
    _edit(at, added=[AMOUNT_MAP, {"path": "status", "action": "map", "from": "shipped",
                                  "to": "confirmed"}])  # fmt: skip
    assert (_refusals(at), _stale(at)) == ([], [])
    assert _counts(at) == {
        "Threads": 10, "Checkpoints": 10, "Broken before": 3, "Fixed": 2, "Still broken": 1,
    }  # fmt: skip


def test_from_and_to_take_plain_text_where_the_field_is_text_and_json_elsewhere(at):
    # status is an enum of strings: shipped unquoted is the string "shipped", as is "shipped"
    for typed in ("shipped", '"shipped"'):
        _edit(at, added=[{"path": "status", "action": "map", "from": typed, "to": "confirmed"}])
        assert (_refusals(at), _counts(at)["Fixed"]) == ([], 1)
        assert _broken(at) == [NEGATIVE, OVER_500]
    # items[*].sku is a string inside a list; a rename's new name is a name
    _edit(at, added=[
        {"path": "items[*].sku", "action": "map", "from": "SKU-01", "to": "SKU-02"},
        {"path": "status", "action": "rename", "to": "state"},
    ])  # fmt: skip
    assert _refusals(at) == []
    # amount is a number: a word there is refused, saying JSON is needed
    _edit(at, added=[{"path": "amount", "action": "map", "from": "seven", "to": "7"}])
    assert _refusals(at) == [
        "Row 1 (amount), column from [plan_step]\n"
        "Not JSON (Expecting value at character 1); the field here is not text, so write "
        "JSON: a number (750), true, false, null, a list, an object, or a string in double "
        'quotes ("shipped").'
    ]


def test_a_bad_path_is_named_before_a_value_read_against_it(at):
    # the value was refused alone, saying "the field here is not text" of a path naming none
    _edit(at, added=[{"path": "no.such[0].field", "action": "default", "value": "{bad json"}])
    assert _refusals(at) == [
        "Row 1 (no.such[0].field), column path [plan_step]\n"
        "'no.such[0].field' is not a path: write field names joined by dots, [*] after a "
        "list's name for each of its elements (items[*].sku).\n\n"
        "Row 1 (no.such[0].field), column value [plan_step]\n"
        "Not JSON (Expecting property name enclosed in double quotes at character 2); write "
        "JSON: a number (750), true, false, null, a list, an object, or a string in double "
        'quotes ("shipped").'
    ]


def test_no_text_shown_as_it_is_holds_markdown_backticks(monkeypatch):
    at = _open(monkeypatch, candidate="candidates.migrations:OrderWithFewerStatuses")
    _edit(at, added=[{"path": "status", "action": "map"}])  # a refusal naming from and to
    shown = [code.value for code in at.code] + [text.value for text in at.text]
    notes = [row["note"] for row in _table(at)]
    assert "A map needs from and to" in "\n".join(shown)
    assert [line for line in shown + notes if "`" in line] == []


def test_the_plan_uploader_takes_1_mb_and_a_plan_over_the_limit_is_told_how_to_shorten(at):
    uploader = at.file_uploader(key=keys.THREADS_MIGRATE_UPLOAD)
    # the browser refuses a file over 1 MB itself; one between the limit and that reaches the page
    assert (uploader.proto.max_upload_size_mb, uploader.label) == (
        1,
        "Upload a plan (TOML [[step]] tables; up to 200 KB)",
    )
    assert 1_000_000 > MAX_PLAN_BYTES == 200_000
    padded = "# " + "x" * MAX_PLAN_BYTES + "\n"
    uploader.set_value(("long.toml", padded.encode(), "")).run()
    assert _upload_refused(at) == (
        ["The uploaded plan cannot be used; the table is unchanged [plan_toml]:"],
        "The plan is over 200,000 bytes; shorten it: one step whose path has [*] "
        "(items[*].sku) covers every element of a list.",
    )
    assert _steps_key(at) == keys.THREADS_MIGRATE_STEPS  # the proposal's table, as it was


def test_an_uploaded_plan_replaces_the_table_and_a_bad_step_is_named_by_its_line(at):
    good = '[[step]]\npath = "amount"\naction = "map"\nfrom = 750\nto = 500\n'
    at.file_uploader(key=keys.THREADS_MIGRATE_UPLOAD).set_value(("fix.toml", good.encode(), ""))
    at.run()
    assert _table(at) == [
        {"path": "amount", "action": "map", "value": "", "from": "750", "to": "500",
         "asked": False, "note": ""},
    ]  # fmt: skip
    # the file's name is the user's: escaped, never Markdown
    assert any(
        c.value.startswith(r"The plan, from the uploaded plan fix\.toml:") for c in at.caption
    )
    assert _counts(at)["Fixed"] == 1
    bad = good + '\n[[step]]\npath = "status"\naction = "squash"\n'
    at.file_uploader(key=keys.THREADS_MIGRATE_UPLOAD).set_value(("bad.toml", bad.encode(), ""))
    at.run()
    assert _upload_refused(at) == (
        ["The uploaded plan cannot be used; the table is unchanged [plan_step]:"],
        "Line 9: step 2 (its [[step]] at line 7): action: Input should be "
        "'default', 'drop', 'map', 'rename' or 'coerce'.",
    )
    assert _steps_key(at) == "threads_migrate_steps-1"  # the table kept its plan
    assert _counts(at)["Fixed"] == 1


CHAINED = (
    'id = "v2"\nafter = "v1"\n\n'
    '[[step]]\npath = "status"\naction = "map"\nfrom = "shipped"\nanswer = "to"\n'
)


def test_an_uploaded_chained_plan_keeps_its_id_and_a_step_left_to_answer_waits(at):
    at.file_uploader(key=keys.THREADS_MIGRATE_UPLOAD).set_value(("v2.toml", CHAINED.encode(), ""))
    with downloads() as stored:
        at.run()
    assert _table(at) == [
        {"path": "status", "action": "map", "value": "", "from": "shipped", "to": "",
         "asked": True, "note": ""},
    ]  # fmt: skip
    assert _refusals(at) == []
    # the plan the table makes is the uploaded one: its id, after, and the open step
    assert parse_plan(stored["migration-plan.toml"]) == parse_plan(CHAINED)
    assert _counts(at)["Fixed"] == 0  # a step left to answer changes nothing
    with downloads() as stored:
        _edit(at, edited={0: {"to": "confirmed"}})
    assert parse_plan(stored["migration-plan.toml"]) == Plan(
        id="v2", after="v1",
        step=[Step(path="status", action="map", **{"from": "shipped", "to": "confirmed"})],
    )  # fmt: skip
    assert _counts(at)["Fixed"] == 1


def test_the_downloads_hold_the_edited_plan_as_toml_and_as_a_module(monkeypatch):
    at = _open(monkeypatch, candidate="candidates.migrations:OrderWithFewerStatuses")
    with downloads() as stored:
        _edit(at, edited={0: {"to": '"cancelled"'}})  # the asked step, chosen
    plan = Plan(steps=[
        Step(path="status", action="map", **{"from": "validated", "to": "cancelled"}),
        Step(path="status", action="map", **{"from": "confirmed", "to": "CONFIRMED"}),
    ])  # fmt: skip
    assert parse_plan(stored["migration-plan.toml"]) == plan
    # the edited step lost its note (it no longer says why); the one as proposed kept it
    assert stored["migration-plan.toml"].startswith(
        '[[step]]\npath = "status"\naction = "map"\nfrom = "validated"\nto = "cancelled"\n\n'
        '# "confirmed" is no longer allowed at status: it becomes "CONFIRMED", the same '
        "text in another case.\n[[step]]\n"
    )
    assert stored["migrate_state.py"] == export_module(plan, model_name="OrderWithFewerStatuses")
    preview = json.loads(stored["migration-preview.json"])
    assert (preview["plan"], preview["fixed"]) == ([s.as_toml() for s in plan.steps], 7)


def test_the_diff_shows_a_threads_stored_and_migrated_state_and_the_changed_field(at):
    _edit(at, added=[AMOUNT_MAP])
    at.selectbox(key=keys.THREADS_THREAD).set_value("model-change").run()
    picker = at.selectbox(key=keys.THREADS_MIGRATE_THREAD)
    assert picker.options == [
        "model-change (the thread open in the list)",
        f"fault-bad_status_last (still broken at checkpoint {_checkpoint(at, 0)})",
        f"fault-negative_amount (still broken at checkpoint {_checkpoint(at, 1)})",
        *[f"{thread} (the plan leaves it as it is)" for thread in UNTOUCHED],
    ]
    stored, migrated = (json.loads(shown.value) for shown in at.json[-2:])
    assert (stored["amount"], migrated["amount"]) == (750, 500)
    assert {k: v for k, v in migrated.items() if k != "amount"} == {
        k: v for k, v in stored.items() if k != "amount"
    }
    assert table_rows(at, "field", "step", "action") == [("amount", 1, "map")]
    assert [
        c.value for c in at.caption if c.value.startswith(("Stored (", "After the plan ("))
    ] == [
        "Stored (1 error under CandidateState)",
        "After the plan (0 errors under CandidateState)",
    ]
    # a still-broken state: no step changes it, and the candidate's error is said
    picker.set_value(("fault-bad_status_last", _checkpoint(at, 0))).run()
    assert table_rows(at, "field", "step", "action") == []
    assert at.code[-1].value == (
        "status: Input should be 'pending', 'validated' or 'confirmed' [literal_error]"
    )


def _checkpoint(at: AppTest, row: int, picker: str = keys.THREADS_MIGRATE_THREAD) -> str:
    """The `row`th still-broken state's checkpoint id, whole: the table shows its start and
    end (short_ids), the thread picker the id the table's row stands for."""
    whole = [
        option.split(" at checkpoint ")[1].rstrip(")")
        for option in at.selectbox(key=picker).options
        if "still broken at checkpoint" in option
    ]
    shown = [row[5] for row in table_rows(at, "thread", "field", "type")]
    assert shown == short_ids(whole) != whole
    return whole[row]


def test_a_steps_action_box_offers_the_actions_only_its_placeholder_says_action(at):
    lines = at.main.get_by_key(keys.THREADS_MIGRATE_STEPS)
    boxes = [box for box in lines.selectbox if box.key.endswith("-action")]
    empty = boxes[-1]  # the line for a new step
    assert (empty.options, empty.value, empty.placeholder) == (list(ACTIONS), None, "action")


def test_without_writes_there_is_no_apply_button(at):
    _edit(at, added=[AMOUNT_MAP])
    assert "threads_migrate_apply" not in [button.key for button in at.button]
    assert (
        "Applying the plan is off on this server (start it with PLAYGROUND_STORE_WRITES=1 to "
        "allow it); the preview above writes nothing."
    ) in [caption.value for caption in at.caption]


def test_apply_dry_runs_the_rows_then_writes_them_on_confirm_and_says_how_to_resume(
    monkeypatch, tmp_path
):
    monkeypatch.setattr(source, "_session_dir", lambda: str(tmp_path))  # the demo store's home
    at = _open(monkeypatch, writes=True)
    _edit(at, added=[AMOUNT_MAP])
    at.selectbox(key=keys.THREADS_THREAD).set_value("model-change").run()
    before = _open_thread_checkpoints(at)
    # the diff names the thread's latest checkpoint: the one its fork is written from
    shown = [c.value for c in at.code if c.value.startswith("model-change · ")]
    forked_from = shown[0].removeprefix("model-change · ")
    assert APPLY_SAYS in [c.value for c in at.caption]
    # nothing is written on one click: first the dry run, then Write
    assert keys.THREADS_MIGRATE_APPLY not in [button.key for button in at.button]
    at.button(key=keys.THREADS_MIGRATE_DRY_RUN).click().run()
    assert not at.exception
    assert [s.value for s in at.success][-1] == (
        "Dry run: 1 new checkpoint will be written, one per thread, each forked from the "
        "checkpoint named, with these fields (nothing is written yet):"
    )
    assert table_rows(at, "thread", "from checkpoint", "fields written") == [
        ("model-change", forked_from, '{"amount": 500}')
    ]
    assert _open_thread_checkpoints(at) == before  # a dry run writes nothing
    write = at.button(key=keys.THREADS_MIGRATE_APPLY)
    assert (write.label, write.proto.type) == ("Write 1 checkpoint", "primary")
    with downloads() as stored:
        write.click().run()
    assert not at.exception
    assert [s.value for s in at.success][-1] == (
        "Written: 1 new checkpoint, one per thread migrated (the thread list reads them)."
    )
    (fork,) = json.loads(stored["migration-written.json"])  # as `migrate --json` says
    assert fork.keys() == {"thread_id", "from_checkpoint_id", "new_checkpoint_id"}
    assert fork["new_checkpoint_id"] != forked_from
    assert fork == {"thread_id": "model-change", "from_checkpoint_id": forked_from,
                    "new_checkpoint_id": fork["new_checkpoint_id"]}  # fmt: skip
    # the table shows each checkpoint id's start and end, as the timeline does
    assert table_rows(at, "thread", "from checkpoint", "new checkpoint") == [
        ("model-change", *short_ids([forked_from, fork["new_checkpoint_id"]]))
    ]
    assert stored["migration-written.csv"] == (
        "thread_id,from_checkpoint_id,new_checkpoint_id\n" + ",".join(fork.values()) + "\n"
    )
    # model-change's run had ended (LangGraph is the oracle): its next input, not None
    with closing(sqlite3.connect(tmp_path / "demo.sqlite", check_same_thread=False)) as conn:
        graph = recompile(build_order_graph(), SqliteSaver(conn))
        assert graph.get_state({"configurable": {"thread_id": "model-change"}}).next == ()
    assert _next(at) == [(
        "Next: no node is due at the new checkpoint of each thread below, so its run is "
        "complete; its next input starts a new run over CandidateState:",
        "# graph: your graph, compiled with a checkpointer on this store\n"
        'graph.invoke(new_input, {"configurable": {"thread_id": "model-change"}})',
    )]  # fmt: skip
    assert _open_thread_checkpoints(at) == before + 1  # the fork, model-change's new head
    assert _counts(at) == {  # the fork is model-change's latest now, and valid
        "Threads": 10, "Checkpoints": 10, "Broken before": 2, "Fixed": 0, "Still broken": 2,
    }  # fmt: skip
    # the dry run is spent: a second one finds nothing to write, and offers no Write; the
    # last write's rows and resume calls go with it (they stayed under "Nothing to write")
    at.button(key=keys.THREADS_MIGRATE_DRY_RUN).click().run()
    assert [info.value for info in at.info][-1].startswith("Nothing to write: no thread's")
    assert keys.THREADS_MIGRATE_APPLY not in [button.key for button in at.button]
    assert [s.value for s in at.success if s.value.startswith("Written")] == []
    assert (_next(at), table_rows(at, "thread", "from checkpoint", "new checkpoint")) == ([], [])
    assert _open_thread_checkpoints(at) == before + 1


APPLY_SAYS = (
    "Apply writes one new checkpoint for each thread whose latest state the plan changes and "
    "the candidate then accepts, forked from that latest checkpoint through LangGraph's "
    "update_state over the candidate; existing rows never change. Dry-run it to see the "
    "rows, then confirm."
)


def _next(at: AppTest) -> list[tuple[str, str]]:
    """What the page says to do after a write: its sentence and the code to run."""
    try:
        box = at.main.get_by_key(keys.THREADS_WRITE_NEXT)
    except KeyError:
        return []
    return [(said.value, code.value) for said, code in zip(box.caption, box.code, strict=True)]


def test_editing_the_plan_after_a_dry_run_withdraws_the_write(monkeypatch):
    at = _open(monkeypatch, writes=True)
    _edit(at, added=[AMOUNT_MAP])
    at.button(key=keys.THREADS_MIGRATE_DRY_RUN).click().run()
    assert keys.THREADS_MIGRATE_APPLY in [button.key for button in at.button]
    _edit(at, added=[AMOUNT_MAP | {"to": "400"}])
    assert keys.THREADS_MIGRATE_APPLY not in [button.key for button in at.button]
    assert table_rows(at, "thread", "from checkpoint", "fields written") == []
    # a half-typed row: the preview is the last plan's, and nothing can be applied
    _edit(at, added=[AMOUNT_MAP, {"path": "status"}])
    assert keys.THREADS_MIGRATE_DRY_RUN not in [button.key for button in at.button]
    assert "Apply waits for a complete plan: finish or delete the rows named above." in [
        c.value for c in at.caption
    ]


def test_a_store_changed_after_the_dry_run_is_said_with_what_was_written(monkeypatch, tmp_path):
    monkeypatch.setattr(source, "_session_dir", lambda: str(tmp_path))  # the demo store's home
    at = _open(monkeypatch, writes=True)
    _edit(at, added=[AMOUNT_MAP])
    at.button(key=keys.THREADS_MIGRATE_DRY_RUN).click().run()
    assert [row[0] for row in table_rows(at, "thread", "from checkpoint")] == ["model-change"]
    # someone else fixes model-change first, through LangGraph, as the plan would
    with closing(sqlite3.connect(tmp_path / "demo.sqlite", check_same_thread=False)) as conn:
        graph = recompile(build_order_graph(), SqliteSaver(conn))
        graph.update_state({"configurable": {"thread_id": "model-change"}}, {"amount": 500})
    at.button(key=keys.THREADS_MIGRATE_APPLY).click().run()
    assert not at.exception
    assert [w.value for w in at.warning][-1] == (
        "The store changed between the dry run and the write: what was written is not what "
        "the dry run showed."
    )
    assert [info.value for info in at.info][-1].startswith("Nothing was written: no thread's")


def test_a_page_without_a_candidate_says_how_to_configure_one(monkeypatch):
    # the configured model is not the seed order's: the demo's candidate is not offered
    monkeypatch.syspath_prepend(FIXTURES)
    monkeypatch.setenv("PLAYGROUND_MODEL", "candidates.order_v2:OrderV2")
    at = _open(monkeypatch)
    assert "Migrate" in [subheader.value for subheader in at.subheader]
    assert (
        "Migrating the stored threads needs the changed model to carry them to: configure it "
        "with --candidate, candidate = ... in playground.toml or PLAYGROUND_CANDIDATE."
    ) in [caption.value for caption in at.caption]
    assert keys.THREADS_MIGRATE_BASE not in at.session_state


def test_a_large_store_is_previewed_part_by_part_to_the_same_counts(at, monkeypatch):
    monkeypatch.setattr(migrate_preview, "ONE_GO_THREADS", 0)
    _edit(at, added=[AMOUNT_MAP])
    job = at.session_state[keys.THREADS_MIGRATE_JOB]
    assert (len(job["parts"]), job["cancelled"]) == (migrate_preview.SLICES, False)
    assert _counts(at) == {
        "Threads": 10, "Checkpoints": 10, "Broken before": 3, "Fixed": 1, "Still broken": 2,
    }  # fmt: skip
    assert _broken(at) == [STATUS_LAST, NEGATIVE]  # in thread order, as one whole preview
    assert [bar.proto.text for bar in at.get("progress")] == ["All 10 threads previewed"]
    assert [b.key for b in at.button if b.key.startswith("threads_migrate_")][-2:] == [
        keys.THREADS_MIGRATE_PROPOSE, keys.THREADS_MIGRATE_AGAIN,
    ]  # fmt: skip


def test_a_cancelled_preview_keeps_the_threads_it_previewed_and_says_so(at, monkeypatch):
    monkeypatch.setattr(migrate_preview, "ONE_GO_THREADS", 0)
    _edit(at, added=[AMOUNT_MAP])
    job = at.session_state[keys.THREADS_MIGRATE_JOB]
    job["parts"], job["cancelled"] = job["parts"][:3], True
    at.run()
    shown = sum(part.checkpoints for part in job["parts"])
    assert _counts(at)["Checkpoints"] == shown < 10
    threads = sum(part.threads for part in job["parts"])
    assert [w.value for w in at.warning][-1] == (
        f"Preview cancelled: the counts cover the {threads} threads previewed before Cancel."
    )
    assert [bar.proto.text for bar in at.get("progress")] == [f"{threads} threads previewed so far"]
    assert keys.THREADS_MIGRATE_CANCEL not in [b.key for b in at.button]
    assert len(at.session_state[keys.THREADS_MIGRATE_JOB]["parts"]) == 3  # nothing more ran


def test_each_migrate_table_puts_what_names_a_row_first_within_a_phones_width(monkeypatch):
    # (The plan is a grid of inputs of its own, ui/threads/migrate/plan_grid.py: no table.)
    at = _open(monkeypatch, writes=True)
    _edit(at, added=[AMOUNT_MAP])
    at.selectbox(key=keys.THREADS_THREAD).set_value("model-change").run()
    at.button(key=keys.THREADS_MIGRATE_DRY_RUN).click().run()
    at.button(key=keys.THREADS_MIGRATE_APPLY).click().run()
    at.selectbox(key=keys.THREADS_THREAD).set_value("model-change").run()
    _edit(at, added=[AMOUNT_MAP | {"from": "500", "to": "499"}])  # the fork's 500: a change
    layouts = phone_layouts(at, MIGRATE_PHONE_COLUMNS)
    drawn = {key: (order, widths) for key, (order, widths, _) in layouts.items()}
    # both checkpoint ids are fresh uuids (the first apply's fork, and the fork of it), so the
    # width of their drawn start, "…" and end varies with their last four digits: 96-116 px
    written = drawn[keys.THREADS_MIGRATE_WRITTEN][1]
    fresh = [written.pop("from checkpoint"), written.pop("new checkpoint")]
    assert all(96 <= width <= 116 for width in fresh), fresh
    assert drawn == {
        keys.THREADS_MIGRATE_STEP_COUNTS: (
            ["path", "action", "changed", "fixed"],
            {"path": 160, "action": 72, "changed": 44, "fixed": 44},
        ),
        keys.THREADS_MIGRATE_BROKEN: (
            ["thread", "field", "type", "msg", "errors", "checkpoint"],
            # each column as wide as its longest word (fit_words), within a phone's 356 px
            {"thread": 154, "field": 65, "type": 135},
        ),
        keys.THREADS_MIGRATE_CHANGES: (
            ["field", "step", "action"], {"field": 200, "step": 40, "action": 80},
        ),
        keys.THREADS_MIGRATE_WRITTEN: (
            ["thread", "from checkpoint", "new checkpoint"],
            {"thread": 103},
        ),
    }  # fmt: skip
    sums = {key: sum(widths.values()) for key, (_, widths) in drawn.items()}
    assert sums == {
        keys.THREADS_MIGRATE_STEP_COUNTS: 320,
        keys.THREADS_MIGRATE_BROKEN: 354, keys.THREADS_MIGRATE_CHANGES: 320,
        keys.THREADS_MIGRATE_WRITTEN: 103,  # and the two checkpoints': 295 to 335 in all
    }  # fmt: skip
    assert sums[keys.THREADS_MIGRATE_WRITTEN] + sum(fresh) <= 356  # a phone's width


def _empty_store(path: Path) -> bytes:
    """A LangGraph SQLite checkpoint store: the saver's own tables, and no row in them."""
    with closing(sqlite3.connect(path, check_same_thread=False)) as conn:
        SqliteSaver(conn).setup()
    return path.read_bytes()


def _pickers(at: AppTest) -> list[str]:
    return [box.key for box in at.selectbox if box.key in (keys.THREADS_THREAD, DIFF_PICK)]


def test_an_empty_store_uploaded_after_a_pick_offers_no_thread_of_the_demo(at, tmp_path):
    at.selectbox(key=keys.THREADS_THREAD).set_value("fault-bad_status_last").run()
    assert at.selectbox(key=DIFF_PICK).value == ("fault-bad_status_last", "")
    at.radio(key=keys.THREADS_SOURCE).set_value("upload").run()
    empty = _empty_store(tmp_path / "empty.sqlite")
    at.file_uploader(key=keys.THREADS_UPLOAD).set_value(("empty.sqlite", empty, "")).run()
    assert not at.exception
    assert _pickers(at) == []  # neither the list's Thread box nor the diff's picker
    assert _migrate_infos(at) == [
        "No stored state was previewed: the store holds no threads yet.",
        NO_THREAD_IN_STORE,
    ]


def _migrate_infos(at: AppTest) -> list[str]:
    return [info.value for info in at.info
            if info.value.startswith(("No stored state", "No thread to show"))]  # fmt: skip


def test_a_filter_matching_no_thread_offers_every_thread_the_fixed_ones_first(at):
    assert at.selectbox(key=keys.THREADS_THREAD).value == "clean-1"
    at.text_input(key=keys.THREADS_CONTAINS).input("zzz").run()
    assert not at.exception
    assert "No thread matches these filters." in [info.value for info in at.info]
    assert _pickers(at) == [DIFF_PICK]  # the list's Thread box is not drawn
    checkpoints = [_checkpoint(at, row, DIFF_PICK) for row in range(3)]
    assert at.selectbox(key=DIFF_PICK).options == [
        f"fault-bad_status_last (still broken at checkpoint {checkpoints[0]})",
        f"fault-negative_amount (still broken at checkpoint {checkpoints[1]})",
        f"model-change (still broken at checkpoint {checkpoints[2]})",
        *[f"{thread} (the plan leaves it as it is)" for thread in UNTOUCHED],
    ]
    assert (
        "The thread list shows no thread with these filters: the store's threads are offered "
        "here, those the plan fixes first."
    ) in [caption.value for caption in at.caption]
    # a plan that fixes every state: the fixed threads come first, then any other thread
    _edit(at, added=[
        AMOUNT_MAP,
        {"path": "amount", "action": "map", "from": "-1", "to": "0"},
        {"path": "status", "action": "map", "from": "shipped", "to": "confirmed"},
    ])  # fmt: skip
    assert _counts(at)["Still broken"] == 0
    assert at.selectbox(key=DIFF_PICK).options == [
        "fault-bad_status_last (fixed by the plan)",
        "fault-negative_amount (fixed by the plan)",
        "model-change (fixed by the plan)",
        *[f"{thread} (the plan leaves it as it is)" for thread in UNTOUCHED],
    ]
    assert _migrate_infos(at) == []
    # the filter cleared: the first thread listed is picked, and offered first
    at.text_input(key=keys.THREADS_CONTAINS).input("").run()
    assert at.selectbox(key=DIFF_PICK).options[:2] == [
        "clean-1 (the thread open in the list)",
        "fault-bad_status_last (fixed by the plan)",
    ]
    assert at.selectbox(key=DIFF_PICK).value == ("clean-1", "")
