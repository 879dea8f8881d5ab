"""The Validate page's Form view: a list or object field's box takes JSON or nothing. Text that
does not parse stays in the box as typed, the JSON text keeps the field's last value, and the
message says where the text stops being JSON and what to add (walk: a half-typed messages
list was written into the payload as one string, and the message said list_type)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.jsontext.payload import PayloadError
from core.jsontext.write import to_text
from core.order import AgentState
from core.order.presets import SEED_TEXT
from core.validate.json_schema import field_kind, json_schema
from tests.app._editor import editor
from ui import keys
from ui.validate.form_drafts import NOT_APPLIED, QUOTED, REFUSED
from ui.validate.form_edits import Shape, TableEdit, apply_table
from ui.validate.form_json import read_json
from ui.validate.form_table import cell_key, shapes_of

APP = str(Path(__file__).parents[2] / "app.py")
DEEP = "[" * 201 + "]" * 201  # JSON, but deeper than the payload's 200 levels
HALF = '[{"type":"human","content":"hi"'  # the closing } and ] not typed yet
HALF_SAYS = (
    "messages: line 1, column 32 [json_syntax]\n"
    '"type":"human","content":"hi"\n'  # the caret within 30 characters: cut from column 3
    "                             ^\n"
    "Invalid JSON: the text ends before the JSON does; still open: [ at line 1, column 1 and "
    "{ at line 1, column 2. Add }] at the end to close them."
)


def _form() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    return at.button_group(key=keys.EDITOR_VIEW).set_value("Form").run()


def _said(at: AppTest) -> tuple[list[str], list[str], list[str]]:
    """The form's warnings (not the page's LangGraph banner), the plain-text blocks that name a
    form field, and the field error lines."""
    named = [c.value for c in at.code if c.value.startswith(("messages:", "totl:", "logs:"))]
    errors = [t.value for t in at.text if t.value.startswith("✗")]
    warnings = [w.value for w in at.warning if not w.value.startswith("LangGraph runs")]
    return warnings, named, errors


def test_a_half_typed_list_is_not_written_stays_as_typed_and_says_what_closes_it() -> None:
    at = _form()
    before = editor(at, keys.PAYLOAD).value
    assert before == SEED_TEXT
    at.text_area(key="form_messages").input(HALF).run()

    assert not at.exception
    assert editor(at, keys.PAYLOAD).value == before  # no string where the list was
    assert at.text_area(key="form_messages").value == HALF
    assert _said(at) == ([NOT_APPLIED], [HALF_SAYS], [])

    # Another field's edit: the typed text and why it was refused stay with the box
    at.text_input(key="form_amount").input("5").run()
    assert json.loads(editor(at, keys.PAYLOAD).value) == json.loads(before) | {"amount": 5}
    assert at.text_area(key="form_messages").value == HALF
    assert _said(at) == ([NOT_APPLIED], [HALF_SAYS], [])

    # Completed as the message says: written, shown as the JSON text writes it
    at.text_area(key="form_messages").input(HALF + "}]").run()
    messages = [{"type": "human", "content": "hi"}]
    assert json.loads(editor(at, keys.PAYLOAD).value) == json.loads(before) | {
        "amount": 5,
        "messages": messages,
    }
    assert at.text_area(key="form_messages").value == to_text(messages)
    assert _said(at) == ([], [], [])


def test_the_typed_text_survives_a_switch_to_the_json_view_and_back() -> None:
    at = _form()
    at.text_area(key="form_messages").input(HALF).run()
    at.button_group(key=keys.EDITOR_VIEW).set_value("JSON").run()
    at.button_group(key=keys.EDITOR_VIEW).set_value("Form").run()

    assert editor(at, keys.PAYLOAD).value == SEED_TEXT
    assert at.text_area(key="form_messages").value == HALF
    assert _said(at) == ([NOT_APPLIED], [HALF_SAYS], [])


def test_a_new_value_from_the_json_text_replaces_the_held_text() -> None:
    at = _form()
    at.text_area(key="form_messages").input(HALF).run()
    changed = json.loads(SEED_TEXT) | {"messages": [{"type": "ai", "content": "ok"}]}
    editor(at, keys.PAYLOAD).input(json.dumps(changed)).run()
    at.button_group(key=keys.EDITOR_VIEW).set_value("Form").run()

    assert at.text_area(key="form_messages").value == to_text(changed["messages"])
    assert _said(at) == ([], [], [])


def test_text_that_starts_as_a_list_is_json_or_nothing_where_the_model_names_no_type() -> None:
    # totl is a key the model does not declare: any value goes, so "[1," would be taken as a
    # string; refused, the warning says how to type one. Where the schema names a scalar type
    # (amount: a number) the text is written and the model names it (tests/e2e/
    # test_hostile_e2e.py types "[click](…)" there), as the items table's number cells do.
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[keys.PAYLOAD] = text = json.dumps(json.loads(SEED_TEXT) | {"totl": 1})
    at.run()
    at.button_group(key=keys.EDITOR_VIEW).set_value("Form").run()
    at.text_input(key="form_totl").input("[1,").run()
    assert editor(at, keys.PAYLOAD).value == text
    assert at.text_input(key="form_totl").value == "[1,"
    extra = "✗ Extra inputs are not permitted (extra_forbidden)"
    assert _said(at) == (
        [f"{NOT_APPLIED} {QUOTED}"],
        [
            "totl: line 1, column 4 [json_syntax]\n[1,\n   ^\n"
            "Invalid JSON: the text ends before the JSON does; still open: [ at line 1, "
            "column 1. Finish the last value (one is missing after the last : or comma), then "
            "add ] to close it."
        ],
        [extra],
    )
    at.text_input(key="form_totl").input('"[1,"').run()  # in double quotes: a string
    assert json.loads(editor(at, keys.PAYLOAD).value)["totl"] == "[1,"
    assert _said(at) == ([], [], [extra])
    at.text_input(key="form_totl").input("abc").run()  # not a list or an object: a string
    assert json.loads(editor(at, keys.PAYLOAD).value)["totl"] == "abc"
    assert _said(at) == ([], [], [extra])
    at.text_input(key="form_amount").input("[1,").run()
    assert json.loads(editor(at, keys.PAYLOAD).value)["amount"] == "[1,"
    assert _said(at) == ([], [], ["✗ Input should be a valid number, unable to parse string as "
                                  "a number (float_parsing)", extra])  # fmt: skip


def test_json_the_limits_refuse_is_refused_not_called_invalid_and_placed_where_it_can_be() -> None:
    at = _form()
    at.text_area(key="form_logs").input(DEEP).run()
    assert editor(at, keys.PAYLOAD).value == SEED_TEXT
    assert at.text_area(key="form_logs").value == DEEP
    assert _said(at) == (
        [REFUSED],
        [
            "logs: line 1, column 201 [too_deep]\n"
            + "[" * 30
            + "]" * 30
            + "\n"
            + " " * 29
            + "^\nThe payload nests deeper than 200 levels; flatten it."
        ],
        [],
    )


def test_a_refusal_of_the_whole_text_names_no_line_and_draws_no_caret() -> None:
    # too_large and empty are said of the text as a whole (their line:col is always 1:1)
    def script() -> None:
        from core.jsontext.payload import MAX_PAYLOAD_BYTES, PayloadError
        from ui.validate.form_drafts import Draft, hold, show_held
        from ui.validate.form_json import read_json

        for name, text in (("logs", '"' + "a" * MAX_PAYLOAD_BYTES + '"'), ("tags", " \n")):
            try:
                read_json(text)
            except PayloadError as exc:
                hold((name,), Draft(text, "[]", exc))
            show_held((name,))

    at = AppTest.from_function(script).run()
    assert [w.value for w in at.warning] == [REFUSED, REFUSED]
    assert [c.value for c in at.code] == [
        "logs: [too_large]\nThe payload is 2,000,002 bytes; the limit is 2,000,000. Remove items "
        "or shorten long strings.",
        "tags: [empty]\nThe box is empty, and an empty box is not JSON: type [] for an empty "
        "list or {} for an empty object.",
    ]


def test_text_that_is_not_json_in_a_list_field_is_named_by_the_parser() -> None:
    at = _form()
    at.text_area(key="form_logs").input('["a" "b"]').run()
    assert "logs" not in json.loads(editor(at, keys.PAYLOAD).value)
    assert _said(at) == (
        [NOT_APPLIED],
        [
            'logs: line 1, column 6 [json_syntax]\n["a" "b"]\n     ^\n'
            "Invalid JSON: Expecting ',' delimiter — a comma is missing before this point (or a "
            "number starts with 0, like 01)."
        ],
        [],
    )
    at.text_area(key="form_logs").input("").run()  # an optional field left empty: left out
    assert editor(at, keys.PAYLOAD).value == SEED_TEXT
    assert _said(at) == ([], [], [])


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            '[{"type":"hum',
            (
                "json_syntax",
                1,
                10,
                "Invalid JSON: the text ends before the JSON does; still open: [ at line 1, "
                'column 1, { at line 1, column 2 and the string at line 1, column 10. Add "}] '
                "at the end to close them.",
            ),
        ),
        (
            '[\n  {"a": [1,\n',
            (
                "json_syntax",
                3,
                1,
                "Invalid JSON: the text ends before the JSON does; still open: [ at line 1, "
                "column 1, { at line 2, column 3 and [ at line 2, column 9. Finish the last value "
                "(one is missing after the last : or comma), then add ]}] to close them.",
            ),
        ),
        (
            '[{"type": "human", "con',
            (
                "json_syntax",
                1,
                20,
                "Invalid JSON: the text ends before the JSON does; still open: [ at line 1, "
                "column 1, { at line 1, column 2 and the string at line 1, column 20. Finish "
                "what is being typed (a key needs its closing quote, a colon and a value), then "
                'add "}] to close them.',
            ),
        ),
        (
            '{"a"',
            (
                "json_syntax",
                1,
                5,
                "Invalid JSON: the text ends before the JSON does; still open: { at line 1, "
                "column 1. Finish what is being typed (a key needs a colon and a value), then "
                "add } to close it.",
            ),
        ),
        (
            '["a\\',
            (
                "json_syntax",
                1,
                2,
                "Invalid JSON: the text ends before the JSON does; still open: [ at line 1, "
                "column 1 and the string at line 1, column 2. Finish the escape the string ends "
                'in (a \\ needs the character it escapes), then add "] to close them.',
            ),
        ),
        (
            '["a\\\\',  # an escaped backslash: the string can close
            (
                "json_syntax",
                1,
                2,
                "Invalid JSON: the text ends before the JSON does; still open: [ at line 1, "
                'column 1 and the string at line 1, column 2. Add "] at the end to close them.',
            ),
        ),
        (
            '{"a": "b", "c',
            (
                "json_syntax",
                1,
                12,
                "Invalid JSON: the text ends before the JSON does; still open: { at line 1, "
                "column 1 and the string at line 1, column 12. Finish what is being typed (a "
                'key needs its closing quote, a colon and a value), then add "} to close them.',
            ),
        ),
        (
            '{"a": ',
            (
                "json_syntax",
                1,
                7,
                "Invalid JSON: the text ends before the JSON does; still open: { at line 1, "
                "column 1. Finish the last value (one is missing after the last : or comma), "
                "then add } to close it.",
            ),
        ),
        (
            '{"a": 1}}',
            (
                "json_syntax",
                1,
                9,
                "Invalid JSON: Extra data — there is text after the JSON object ended.",
            ),
        ),  # fmt: skip
        (
            "[" + "9" * 4301 + "]",  # JSON, but a number longer than the payload takes
            (
                "number_too_long",
                1,
                2,
                "An integer has 4,301 digits; the limit is 4,300. Shorten it or send it as a "
                "string.",
            ),
        ),
        (
            " ",
            (
                "empty",
                1,
                1,
                "The box is empty, and an empty box is not JSON: type [] for an empty list or {} "
                "for an empty object.",
            ),
        ),
    ],
)
def test_read_json_says_where_the_text_stops_and_what_to_add(
    text: str, said: tuple[object, ...]
) -> None:
    with pytest.raises(PayloadError) as caught:
        read_json(text)
    assert (caught.value.code, caught.value.line, caught.value.col, caught.value.message) == said


ROW = {"sku": "A-1", "qty": 1, "unit_price": 2, "colour": "red"}
COLUMNS = {"sku": "text", "qty": "json", "unit_price": "json", "colour": "json"}
# As the items table reads them (form_table.shapes_of): qty and unit_price numbers, colour a
# key LineItem does not declare (no type named)
SHAPES = {
    "sku": Shape(False, False),
    "qty": Shape(False, False),
    "unit_price": Shape(False, False),
    "colour": Shape(False, True),
}


def test_a_table_cell_is_read_as_a_form_box_is_json_or_nothing_where_no_type_is_named() -> None:
    edits = {
        "edited_rows": {"0": {"colour": '{"r": 1'}},
        "added_rows": [{"sku": "B-2", "colour": "[1, 2]", "qty": "[3", "unit_price": DEEP}],
    }
    assert apply_table([ROW], edits, COLUMNS, "items", SHAPES) == TableEdit(
        # qty and unit_price name a type (a number): their text is written as typed, for the
        # model to name it, as the Form's amount box writes "[1,"
        [ROW, {"sku": "B-2", "qty": "[3", "unit_price": DEEP, "colour": [1, 2]}],
        [
            'items[0].colour = {"r": 1  (not JSON: line 1, column 8 [json_syntax]: Invalid JSON: '
            "the text ends before the JSON does; still open: { at line 1, column 1. Add } at "
            "the end to close it.)"
        ],
    )
    edits = {"added_rows": [{"sku": "C-3", "colour": DEEP}]}
    assert apply_table([ROW], edits, COLUMNS, "items", SHAPES) == TableEdit(
        [ROW, {"sku": "C-3"}],
        [
            f"items[1].colour = {DEEP}  (refused: line 1, column 201 [too_deep]: The payload "
            "nests deeper than 200 levels; flatten it.)"
        ],
    )
    # A list column takes JSON or nothing: a bare word is no list
    tags = {"tags": "json"}, "items", {"tags": Shape(container=True, untyped=False)}
    assert apply_table([], {"added_rows": [{"tags": "red"}]}, *tags) == TableEdit(
        [],
        [
            "items[0].tags = red  (not JSON: line 1, column 1 [json_syntax]: Invalid JSON: "
            "Expecting value — no JSON value starts here: one is missing, or a string lacks its "
            "double quotes, or a comma trails the last item.)"
        ],
    )


def test_the_items_columns_are_shaped_as_the_form_reads_their_boxes() -> None:
    root = json_schema(AgentState)
    item = field_kind(root["properties"]["items"], root)[1]
    assert shapes_of(item, root, COLUMNS) == SHAPES


def test_the_items_table_keeps_a_refused_cell_as_typed_and_names_it() -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[keys.PAYLOAD] = text = json.dumps(json.loads(SEED_TEXT) | {"items": [ROW]})
    at.run()
    at.button_group(key=keys.EDITOR_VIEW).set_value("Form").run()
    at.text_input(key=cell_key(("items",), 0, "colour")).input('{"r": 1')
    at.button(key="form-apply-items").click().run()

    assert editor(at, keys.PAYLOAD).value == text
    assert at.text_input(key=cell_key(("items",), 0, "colour")).value == '{"r": 1'
    assert [c.value for c in at.code if c.value.startswith("items[0]")] == [
        'items[0].colour = {"r": 1  (not JSON: line 1, column 8 [json_syntax]: Invalid JSON: '
        "the text ends before the JSON does; still open: { at line 1, column 1. Add } at the "
        "end to close it.)"
    ]
