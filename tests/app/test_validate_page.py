"""Validate page under AppTest: presets, edits, form sync, options, bad input, share links."""

import base64
import json
import zlib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.jsontext.payload import MAX_PAYLOAD_BYTES
from core.jsontext.write import to_text
from core.order import SEED_PAYLOAD
from core.order.presets import PRESETS, SEED_TEXT
from core.share import encode_share
from core.validate.report import validate_text
from tests.app._editor import editor
from tests.app.conftest import SHARE_FIELD, options_open, shared
from ui import keys

PAGE = str(Path(__file__).parents[2] / "views" / "validate.py")


@pytest.fixture
def at():
    return AppTest.from_file(PAGE, default_timeout=30).run()


RUNS = "LangGraph runs this payload. Your model alone accepts it too."
RAISES = (
    "LangGraph raises before the first node runs: the graph would not run. "
    "1 error, listed below, that both LangGraph and your model reject."
)


def _banners(at):
    """The verdict's banners."""
    said = [w.value for w in at.warning if w.value.startswith("LangGraph ")]
    ok = [s.value for s in at.success if s.value.startswith("LangGraph ")]
    return [e.value for e in at.error] + said + ok


def _error_rows(at):
    """The one error table's rows (both verdicts'): where, what, and who rejects it."""
    frames = [d.value for d in at.dataframe if "pointer" in d.value.columns]
    assert len(frames) == 1
    return frames[0][["path", "line:col", "type", "rejected by"]].values.tolist()


ITEM_COLUMNS = ("sku", "qty", "unit_price")


def test_opens_with_the_seed_order_and_an_open_gate(at):
    assert not at.exception
    assert editor(at, keys.PAYLOAD).value == SEED_TEXT
    assert _banners(at) == [RUNS]


def test_preset_loads_and_its_error_row_shows_path_and_position(at):
    at.selectbox(key=keys.PRESET).select("bad_sku").run()
    assert editor(at, keys.PAYLOAD).value == PRESETS["bad_sku"].value
    assert _banners(at) == [RAISES]
    assert _error_rows(at) == [["items[0].sku", "6:14", "string_pattern_mismatch", "both"]]


def test_invalid_json_keeps_the_text_and_shows_line_and_column(at):
    broken = '{\n  "amount": 1,\n}'
    editor(at, keys.PAYLOAD).input(broken).run()
    assert not at.exception
    assert editor(at, keys.PAYLOAD).value == broken
    assert at.session_state[keys.PAYLOAD_TEXT] == broken
    assert "line 2, column 14 [json_syntax]" in [c.value.splitlines()[0] for c in at.code]
    at.button(key=keys.part(keys.PAYLOAD, "format")).click().run()
    assert editor(at, keys.PAYLOAD).value == broken
    assert at.warning[0].value == "Format JSON left the text as it is: it is not valid JSON yet."


def test_format_and_reset_rewrite_the_text(at):
    editor(at, keys.PAYLOAD).input('{"user_id": "x",   "amount": 1}').run()
    at.button(key=keys.part(keys.PAYLOAD, "format")).click().run()
    assert editor(at, keys.PAYLOAD).value == '{\n  "user_id": "x",\n  "amount": 1\n}'
    at.button(key=keys.part(keys.PAYLOAD, "reset")).click().run()
    assert editor(at, keys.PAYLOAD).value == SEED_TEXT


def _show(at, key, label):
    """Pick a view in a segmented control: only the chosen view is computed."""
    at.button_group(key=key).set_value(label)
    return at.run()


def test_views_not_chosen_compute_nothing(at):
    assert [(w.key, w.options, w.value) for w in at.button_group] == [
        (keys.EDITOR_VIEW, ["JSON", "Form"], "JSON"),
        (
            keys.VALIDATE_VIEW,
            [
                "Annotated text",
                "Coercion lens",
                "What LangGraph would do",
                "Model source",
                "JSON Schema",
            ],
            "Annotated text",
        ),
    ]
    assert [w.key for w in at.text_input] == [] and list(at.dataframe) == []
    _show(at, keys.VALIDATE_VIEW, "Coercion lens")
    assert [list(d.value.columns) for d in at.dataframe] == [
        ["path", "input", "input_type", "output", "output_type", "change"]
    ]
    # the annotated text went with its view: only the verdict's plain-text details remain
    assert [c.value for c in at.code] == ["first node: validate_order"]
    _show(at, keys.EDITOR_VIEW, "Form")
    assert [w.key for w in at.text_input] == [
        "form_user_id",
        "form_amount",
        *(f"form-cell-items-{row}-{column}" for row in (0, 1) for column in ITEM_COLUMNS),
    ]


def test_form_edit_rewrites_the_json_and_json_edit_refreshes_the_form(at):
    _show(at, keys.EDITOR_VIEW, "Form")
    said = [c.value for c in at.caption if c.value.startswith("Generated from")]
    assert said == [  # the form and the text under it are one payload, and it says so
        "Generated from the model's JSON Schema. It edits the JSON text under it: one payload, "
        "two views, each edit in one shows in the other. Text fields stay strings; other fields "
        "are read as JSON (numbers, true/false, lists). Leave an optional field empty to leave "
        "it out. In a table, Tab moves to the next cell, Enter to the one under it, and Apply "
        "to payload writes the table's edits to the JSON text."
    ]
    at.text_input(key="form_amount").input("-5").run()
    assert json.loads(editor(at, keys.PAYLOAD).value)["amount"] == -5
    assert _error_rows(at) == [["amount", "3:13", "greater_than_equal", "both"]]
    at.selectbox(key=keys.PRESET).select("wrong_status").run()
    assert at.selectbox(key="form_status").value == "shipped"
    items = [at.text_input(key=f"form-cell-items-0-{column}").value for column in ITEM_COLUMNS]
    assert items == ["SKU-01", "2", "49.5"]


def test_schema_options_change_the_model_and_its_source(at):
    at.selectbox(key=keys.PRESET).select("padded_sku").run()
    assert _banners(at) == [RAISES]
    options_open(at).toggle(key=keys.option("strip_item")).set_value(True).run()
    assert _banners(at) == [RUNS]
    _show(at, keys.VALIDATE_VIEW, "Model source")
    source = [c.value for c in at.code if c.language == "python"][0]
    assert "model_config = ConfigDict(str_strip_whitespace=True)" in source


def test_hostile_strings_are_shown_as_text_only(at):
    at.selectbox(key=keys.PRESET).select("hostile_text").run()
    rendered = [m.value for m in at.markdown] + [c.value for c in at.caption]
    assert not any("<script>" in text or "onerror" in text for text in rendered)
    assert _error_rows(at) == [["items[0].sku", "6:14", "string_pattern_mismatch", "both"]]


def test_share_link_reopens_the_same_payload_options_and_views(at):
    at.selectbox(key=keys.PRESET).select("negative_amount").run()
    options_open(at).toggle(key=keys.option("strict")).set_value(True).run()
    _show(at, keys.VALIDATE_VIEW, "Model source")
    _show(at, keys.EDITOR_VIEW, "Form")
    at.button(key=keys.SHARE).click().run()
    token = (
        at.query_params["s"][0] if isinstance(at.query_params["s"], list) else at.query_params["s"]
    )
    fresh = AppTest.from_file(PAGE, default_timeout=30)
    fresh.query_params["s"] = token
    fresh.run()
    assert editor(fresh, keys.PAYLOAD).value == PRESETS["negative_amount"].value
    assert options_open(fresh).toggle(key=keys.option("strict")).value is True
    # Strict: LangGraph validates the parsed dict (Python mode), where a UUID must be one.
    assert _error_rows(fresh) == [
        ["user_id", "2:14", "is_instance_of", "LangGraph"],
        ["amount", "3:13", "greater_than_equal", "both"],
    ]
    assert fresh.button_group(key=keys.VALIDATE_VIEW).value == "Model source"
    assert fresh.button_group(key=keys.EDITOR_VIEW).value == "Form"
    assert fresh.text_input(key="form_amount").value == "-1"
    assert "model_config = ConfigDict(strict=True" in fresh.code[-1].value
    assert not fresh.warning


def test_share_link_reopens_the_json_schema_shown_on_the_page(at):
    _show(at, keys.VALIDATE_VIEW, "JSON Schema")
    at.toggle(key=keys.SCHEMA_SHOW).set_value(True).run()
    at.button(key=keys.SHARE).click().run()
    fresh = AppTest.from_file(PAGE, default_timeout=30)
    fresh.query_params["s"] = at.query_params["s"]
    fresh.run()
    assert fresh.button_group(key=keys.VALIDATE_VIEW).value == "JSON Schema"
    assert fresh.toggle(key=keys.SCHEMA_SHOW).value is True
    assert [j.value for j in fresh.json] == [at.json[0].value]

    at.toggle(key=keys.SCHEMA_SHOW).set_value(False).run()
    assert "s" not in at.query_params  # the link would show the schema this page now hides


def test_the_address_bar_keeps_a_share_link_only_while_it_reopens_what_is_shown(at):
    at.button(key=keys.SHARE).click().run()
    token = at.query_params["s"]
    at.run()  # nothing changed: the address bar still reopens this view
    assert at.query_params["s"] == token

    editor(at, keys.PAYLOAD).input(PRESETS["negative_amount"].value).run()
    assert "s" not in at.query_params  # a reload would have brought back the older payload

    opened = AppTest.from_file(PAGE, default_timeout=30)
    opened.query_params["s"] = token
    opened.run()
    opened.run()
    assert opened.query_params["s"] == token
    _show(opened, keys.VALIDATE_VIEW, "Model source")
    assert "s" not in opened.query_params


AGAIN = "Copy the whole link again, or ask for a new one (Share link on the page it shows)."
NOT_OURS = "Ask for a link made with this app's Share link button."
DAMAGED = f"[share_corrupt]: This share link is damaged or truncated. {AGAIN}"


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("v1.garbage", DAMAGED),
        ("v1." + "A" * 10, DAMAGED),
        (
            "nope",
            f"[share_version]: This link is not a playground share link (no v1. prefix). {NOT_OURS}",
        ),
        (
            encode_share([1])[:-3],
            f"[share_corrupt]: This share link is truncated. {AGAIN}",
        ),
        (  # a \ud800 escape: once decoded, a lone surrogate the editor could not be sent
            "v1."
            + base64.urlsafe_b64encode(
                zlib.compress(rb'{"page": "validate", "payload": "{\"a\": \"\ud800\"}"}')
            )
            .rstrip(b"=")
            .decode(),
            "[share_encoding]: This share link holds a lone surrogate character, which no link "
            f"made here holds. {NOT_OURS}",
        ),
    ],
)
def test_a_bad_share_link_shows_a_message_and_loads_the_seed(token, why):
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params["s"] = token
    at.run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        f"The share link could not be opened {why} The page opens with its defaults instead."
    ]
    assert editor(at, keys.PAYLOAD).value == SEED_TEXT


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"status": "\\ud800"}',
            "line 1, column 13 [lone_surrogate]\nA lone UTF-16 surrogate (\\ud800-\\udfff without "
            "its pair) is not a character; remove it or complete the surrogate pair.",
        ),
        (
            '{"amount": 1' + "0" * 5000 + "}",
            "line 1, column 12 [number_too_long]\nAn integer has 5,001 digits; the limit is "
            "4,300. Shorten it or send it as a string.",
        ),
        (
            '{"a": ' + "[" * 300 + "]" * 300 + "}",
            "line 1, column 206 [too_deep]\nThe payload nests deeper than 200 levels; flatten it.",
        ),
        (  # longer than the limit: the editor still takes it (its own cap is higher)
            json.dumps({"pad": "a" * MAX_PAYLOAD_BYTES}),
            "line 1, column 1 [too_large]\nThe payload is 2,000,011 bytes; the limit is "
            "2,000,000. Remove items or shorten long strings.",
        ),
    ],
    ids=["lone-surrogate", "5000-digits", "too-deep", "too-large"],
)
def test_limit_breaking_text_gets_a_coded_message_and_is_kept(at, text, message):
    editor(at, keys.PAYLOAD).input(text).run()
    assert not at.exception
    assert editor(at, keys.PAYLOAD).value == text
    assert at.code[0].value == message  # then the line, cut around the column, and a caret
    assert [e.value for e in at.error] == [
        "Gate closed — the text is not a payload we can validate; fix it as shown."
    ]


def test_langgraph_view_runs_the_real_entry_and_names_the_dropped_key(at):
    at.selectbox(key=keys.PRESET).select("unknown_key").run()
    _show(at, keys.VALIDATE_VIEW, "What LangGraph would do")
    rows = [d.value for d in at.dataframe if "aspect" in d.value.columns][0]
    assert rows[["aspect", "your model alone"]].values.tolist() == [
        ["verdict", "rejects (1 error)"],
        ["unknown key coupon", "rejected (extra='forbid')"],
        ["amount in the channels", "validated value 99.0"],
        [
            "messages in the channels",
            'validates the input as sent: [{"type": "human", "content": "Order, please"}]',
        ],
    ]
    assert rows["LangGraph"].tolist()[:3] == [
        "runs the first node",
        "silently dropped: the key never reaches a channel",
        "keeps the raw input 99; nodes see the coerced value, invoke() returns the raw one",
    ]
    assert (
        "A real run of the graph up to its first node (validate\\_order), stopped before any "
        "node code runs: LangGraph runs the first node."
    ) in [c.value for c in at.caption]
    assert _banners(at) == [
        "LangGraph runs this payload: it drops 1 unknown key before the first node starts. "
        "Your model alone rejects it: 1 error, listed below."
    ]
    assert at.code[0].value == (
        "first node: validate_order\ndropped by LangGraph (no input channel): coupon"
    )


def test_coercion_lens_flags_every_changed_leaf(at):
    at.selectbox(key=keys.PRESET).select("coerced_strings").run()
    _show(at, keys.VALIDATE_VIEW, "Coercion lens")
    lens = at.dataframe[0].value
    assert lens[["path", "input_type", "output_type", "change"]].values.tolist() == [
        ["user_id", "str", "UUID", "converted"],
        ["amount", "str", "float", "coerced"],
        ["items[0].sku", "str", "str", "same"],
        ["items[0].qty", "str", "int", "coerced"],
        ["items[0].unit_price", "str", "float", "coerced"],
        ["messages[0].type", "str", "str", "same"],
        ["messages[0].content", "str", "str", "same"],
        ["status", "", "str", "default"],
        ["logs", "", "list", "default"],
    ]


def test_a_repeated_key_is_named_with_every_position_and_the_last_value_is_validated(at):
    text = (
        '{\n  "user_id": "550e8400-e29b-41d4-a716-446655440000",\n  "amount": 5,\n  "amount": -1\n}'
    )
    editor(at, keys.PAYLOAD).input(text).run()
    assert not at.exception
    assert _banners(at) == [RAISES]
    assert [w.value for w in at.warning] == [
        "The text repeats 1 key within one object. Only the last value of each is validated "
        "and kept; the earlier ones are silently dropped. Remove or rename them."
    ]
    assert "amount  at 3:3, 4:3" in [c.value for c in at.code]
    assert _error_rows(at) == [["amount", "4:13", "greater_than_equal", "both"]]


def test_format_json_changes_the_layout_only(at):
    text = '{"user_id":"550e8400-e29b-41d4-a716-446655440000","amount":1e400,"amount":12.3456789012345678}'
    editor(at, keys.PAYLOAD).input(text).run()
    at.button(key=keys.part(keys.PAYLOAD, "format")).click().run()
    assert editor(at, keys.PAYLOAD).value == (
        '{\n  "user_id": "550e8400-e29b-41d4-a716-446655440000",\n  "amount": 1e400,\n'
        '  "amount": 12.3456789012345678\n}'
    )


def test_the_preset_box_names_the_preset_the_text_holds_and_loads_it_again_after_an_edit(at):
    # Issue 41, item 9: the box went back to its placeholder beside "Last preset loaded: …".
    assert at.selectbox(key=keys.PRESET).value is None  # the seed order: no preset loaded
    at.selectbox(key=keys.PRESET).select("bad_uuid").run()
    assert (at.selectbox(key=keys.PRESET).value, editor(at, keys.PAYLOAD).value) == (
        "bad_uuid",
        PRESETS["bad_uuid"].value,
    )
    at.run()  # a rerun that leaves the text alone keeps it
    assert at.selectbox(key=keys.PRESET).value == "bad_uuid"
    # Said by the box alone: no line under it repeats it and moves the editor down (issue 41,
    # item 9: 75 px at 1400, 165 px on a phone with the verdict's own growth).
    assert [s.value for s in at.success if "preset" in s.value] == []
    editor(at, keys.PAYLOAD).input("{}").run()  # #32 item 8: the text is the user's now
    assert at.selectbox(key=keys.PRESET).value is None
    assert [s.value for s in at.success if "preset" in s.value] == []
    at.selectbox(key=keys.PRESET).select("bad_uuid").run()  # the same one, again
    assert (at.selectbox(key=keys.PRESET).value, editor(at, keys.PAYLOAD).value) == (
        "bad_uuid",
        PRESETS["bad_uuid"].value,
    )
    at.selectbox(key=keys.PRESET).select("bad_sku").run()
    assert at.selectbox(key=keys.PRESET).value == "bad_sku"


def test_try_a_broken_order_is_named_in_the_preset_box(at):
    # #32 item 8: the button loads a preset, and the line named the one picked before it.
    at.selectbox(key=keys.PRESET).select("bad_uuid").run()
    at.button(key=keys.BROKEN_EXAMPLE).click().run()
    assert editor(at, keys.PAYLOAD).value == PRESETS["bad_sku"].value
    assert at.selectbox(key=keys.PRESET).value == "bad_sku"
    at.button(
        key=keys.part(keys.PAYLOAD, "reset")
    ).click().run()  # the seed order again: no preset's text
    assert at.selectbox(key=keys.PRESET).value is None


def test_a_new_preset_leaves_no_error_row_selected(at):
    # Issue 41, item 6: row 1 stayed ticked after a new preset, and the details said
    # "Selected error at 2:14" of the payload it replaced.
    at.selectbox(key=keys.PRESET).select("bad_uuid").run()
    at.session_state[keys.table(keys.ERRORS)] = {"selection": {"rows": [0], "columns": []}}
    at.run()
    assert "Selected error at 2:14" in [c.value for c in at.caption]
    at.button(key=keys.BROKEN_EXAMPLE).click().run()
    selected = at.session_state[keys.table(keys.ERRORS)]["selection"]["rows"]
    details = [c.value for c in at.caption if "error" in c.value and " at " in c.value]
    assert (selected, details) == ([], ["First error (select a row for another) at 6:14"])
    at.session_state[keys.table(keys.ERRORS)] = {"selection": {"rows": [0], "columns": []}}
    at.selectbox(key=keys.PRESET).select("bad_uuid").run()
    selected = at.session_state[keys.table(keys.ERRORS)]["selection"]["rows"]
    details = [c.value for c in at.caption if "error" in c.value and " at " in c.value]
    assert (selected, details) == ([], ["First error (select a row for another) at 2:14"])


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        (["strict"], "options: Input should be a dictionary or an instance of SchemaOptions"),
        ({"amount_le": True}, "options.amount_le: Input should be a valid number"),
    ],
)
def test_share_link_options_of_the_wrong_shape_are_ignored_with_the_reason(options, reason):
    fresh = AppTest.from_file(PAGE, default_timeout=30)
    fresh.query_params["s"] = encode_share(
        {"page": "validate", "payload": SEED_TEXT, "options": options}
    )
    fresh.run()
    assert not fresh.exception
    assert [w.value for w in fresh.warning] == [SHARE_FIELD]
    assert [c.value for c in fresh.code if c.value in ("options", reason)] == ["options", reason]
    assert options_open(fresh).number_input(key=keys.option("amount_le")).value == 1_000_000.0


@pytest.mark.parametrize("page", ["admin", ["trace"], None])
def test_a_share_link_naming_no_page_of_the_app_says_so_and_opens_the_defaults(page):
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params["s"] = encode_share({"page": page, "payload": "{}"})
    at.run()
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "[share_page] The share link names no page of this app, so it opens nothing; the page "
        "keeps its defaults. Make a fresh link with Share link."
    ]
    assert editor(at, keys.PAYLOAD).value == SEED_TEXT


def test_a_syntax_error_on_a_long_line_keeps_its_hint_and_caret_in_view(at):
    line = '{"user_id": "550e8400-e29b-41d4-a716-446655440000", "amount": 1,}'
    editor(at, keys.PAYLOAD).input(line).run()

    message, excerpt = [c for c in at.code if c.value.startswith(("line 1,", line[34:]))]
    assert message.value == (
        "line 1, column 64 [json_syntax]\nInvalid JSON: a comma after the object's last member "
        "— JSON allows none before }; remove this comma."
    )  # the comma itself, not the } after it
    assert message.proto.wrap_lines
    assert excerpt.value == line[34:] + "\n" + " " * 29 + "^"  # the caret in column 30


def test_a_typeless_message_is_one_table_of_both_verdicts_saying_who_rejects_each_row(at):
    # add_messages raises ValueError for the message, Pydantic alone TypeError: two rows at
    # 12:5; the four field errors both give are one row each, "both".
    at.selectbox(key=keys.PRESET).select("typeless_message").run()
    assert not at.exception
    assert _banners(at) == [
        "LangGraph raises before the first node runs: the graph would not run. 6 errors, "
        "listed below: 4 that both LangGraph and your model reject, 1 that only LangGraph "
        "rejects, 1 that only your model rejects."
    ]
    assert at.code[0].value == (
        "LangGraph raised ValueError: Message dict must contain 'role' and 'content' keys, got "
        "{'content': 'a message with neither type nor role'}"
    )
    assert _error_rows(at) == [
        ["user_id", "2:14", "uuid_parsing", "both"],
        ["amount", "3:13", "greater_than_equal", "both"],
        ["items[0].sku", "6:14", "string_pattern_mismatch", "both"],
        ["items[0].qty", "7:14", "greater_than_equal", "both"],
        ["messages[0]", "12:5", "validator_exception", "your model"],
        ["messages[0]", "12:5", "langgraph_exception", "LangGraph"],
    ]
    # One detail pane: the first row's, until a row is selected.
    assert [c.value for c in at.caption if " error" in c.value and " at " in c.value] == [
        "First error (select a row for another) at 2:14"
    ]
    assert not [c.value for c in at.caption if c.value.startswith(("Your model", "LangGraph's"))]


def test_an_error_both_give_in_their_own_words_is_one_row_with_langgraphs_words_in_details(at):
    # JSON mode says "array", Python mode "list": one error (path, type), that both reject.
    # LangGraph's came from add_messages building the message, placed under that message.
    payload = json.loads(SEED_TEXT)
    payload["messages"] = [*payload["messages"], {"type": "human", "content": True}]
    editor(at, keys.PAYLOAD).input(to_text(payload)).run()
    assert not at.exception
    assert _error_rows(at) == [
        ["messages[1].content", "18:18", "string_type", "both"],
        ["messages[1].content", "18:18", "list_type", "both"],
    ]
    at.session_state[keys.table("errors")] = {"selection": {"rows": [1], "columns": []}}
    at.run()
    details = [t.value for t in at.text if t.value.startswith("messages[1].content")]
    assert details == [
        "messages[1].content\nInput should be a valid array\n\nLangGraph says it as\n"
        "  Input should be a valid list\n\ntype\n  list_type\ninput\n  true\npointer\n"
        "  /messages/1/content"
    ]


def test_the_editor_gets_every_error_as_a_mark_at_its_line_col(at):
    # LangGraph's entry and the model alone disagree here: both tables' errors are marked,
    # each once; the repeated key is a warning at each of its positions.
    text = to_text({**SEED_PAYLOAD, "messages": [{"role": "user", "content": "hi"}], "x": 1})
    text = text.replace('"amount": 99,', '"amount": 5,\n  "amount": -1,')
    editor(at, keys.PAYLOAD).input(text).run()
    assert not at.exception
    marks = editor(at, keys.PAYLOAD).args()["marks"]
    report = validate_text(text)  # the model alone; LangGraph's entry adds nothing new here
    assert [(e.path, e.line, e.col) for e in report.errors] == [
        ("amount", 4, 13),
        ("messages[0]", 13, 5),
        ("x", 18, 3),
    ]
    assert marks == [
        {
            "line": e.line,
            "col": e.col,
            "message": f"{e.path}: {e.msg} [{e.type}]",
            "severity": "error",
        }
        for e in report.errors
    ] + [
        {
            "line": 3,
            "col": 3,
            "message": "amount: repeated key; this value is dropped",
            "severity": "warning",
        },
        {
            "line": 4,
            "col": 3,
            "message": "amount: repeated key; this last value is kept",
            "severity": "warning",
        },
    ]


def test_a_json_syntax_error_is_marked_where_it_is(at):
    broken = '{\n  "amount": 1,\n}'
    editor(at, keys.PAYLOAD).input(broken).run()
    error = validate_text(broken).syntax_error
    assert (error.line, error.col) == (2, 14)
    assert editor(at, keys.PAYLOAD).args()["marks"] == [
        {"line": 2, "col": 14, "message": f"[json_syntax] {error.message}", "severity": "error"}
    ]


def test_selecting_an_error_row_moves_the_caret_once_and_shows_its_details(at):
    at.button(key=keys.BROKEN_EXAMPLE).click().run()
    assert editor(at, keys.PAYLOAD).value == PRESETS["bad_sku"].value
    assert editor(at, keys.PAYLOAD).args()["goto"] is None
    # Nothing selected: the first error's details, as one labelled block.
    assert (
        "items[0].sku\nString should match pattern '^[A-Z0-9-]+$'\n\n"
        "type\n  string_pattern_mismatch\n"
        'input\n  "bad sku"\n'
        'ctx\n  {"pattern": "^[A-Z0-9-]+$"}\n'
        "pointer\n  /items/0/sku"
    ) in [t.value for t in at.text]
    assert "First error (select a row for another) at 6:14" in [c.value for c in at.caption]

    at.session_state[keys.table(keys.ERRORS)] = {
        "selection": {"rows": [0], "columns": [], "cells": []}
    }
    at.run()
    assert editor(at, keys.PAYLOAD).args()["goto"] == {"line": 6, "col": 14, "nonce": 1}
    assert "Selected error at 6:14" in [c.value for c in at.caption]
    at.run()  # the selection kept: the caret is not pulled back on every rerun
    assert editor(at, keys.PAYLOAD).args()["goto"] is None
    table = next(d for d in at.dataframe if "pointer" in d.value.columns)
    assert list(table.proto.column_order) == ["path", "line:col", "message", "rejected by"]


def test_the_size_is_shown_in_bytes_of_the_limit_not_as_a_character_counter(at):
    size = len(SEED_TEXT.encode())
    assert f"{size} B of 2 MB · checked as you type · F8: next error" in [
        c.value for c in at.caption
    ]
    headings = [m.value for m in at.markdown if m.value.startswith("#")]
    assert headings == ["### Payload", "### Errors", "### More about this payload"]


def test_a_valid_payload_says_there_are_no_errors_under_the_errors_heading(at):
    assert "No errors: your model and LangGraph's entry both accept this payload." in [
        c.value for c in at.caption
    ]
    at.button(key=keys.BROKEN_EXAMPLE).click().run()
    assert "No errors: your model and LangGraph's entry both accept this payload." not in [
        c.value for c in at.caption
    ]


def test_the_download_buttons_are_sent_only_while_their_popover_is_open(at):
    at.button(key=keys.BROKEN_EXAMPLE).click().run()
    menus = [p.proto.popover.label for p in at.get("popover")]
    assert menus == ["Schema options", "Download errors"]
    assert at.get("download_button") == []  # closed: no buttons sent with each rerun

    at.session_state[keys.part(keys.EXPORT, "menu")] = True  # the user opens it: that reruns
    at.run()
    assert [(b.key, b.proto.label) for b in at.get("download_button")] == [
        ("export__json", "Errors (JSON)"),
        ("export__fastapi", "FastAPI's answer (422 body)"),
        ("export__csv", "Errors (CSV)"),
    ]
    editor(at, keys.PAYLOAD).input(PRESETS["bad_sku"].value.replace("bad sku", "bad  sku")).run()
    assert len(at.get("download_button")) == 3  # still open while the user edits


def test_schema_options_are_sent_only_while_their_popover_is_open_and_kept_when_closed(at):
    at.selectbox(key=keys.PRESET).select("padded_sku").run()
    assert (at.get("toggle"), at.get("number_input"), _banners(at)) == ([], [], [RAISES])
    widgets = options_open(at)
    assert [t.key for t in widgets.get("toggle")] == [
        "opt_strict",
        "opt_strip_state",
        "opt_strip_item",
    ]
    widgets.toggle(key=keys.option("strip_item")).set_value(True).run()
    at.session_state[keys.SCHEMA_OPTIONS_MENU] = False  # closed: a click outside it
    at.run()
    assert (at.get("toggle"), _banners(at)) == ([], [RUNS])  # the option still applies
    assert "Changed from the defaults: strip whitespace \\(LineItem\\) on" in [
        c.value for c in at.caption
    ]


def test_share_link_reopens_the_selected_error_row_its_details_and_the_caret(at):
    text = to_text({**SEED_PAYLOAD, "amount": -7.25, "coupon": "SHARE"})  # two errors
    editor(at, keys.PAYLOAD).input(text).run()
    at.session_state[keys.table(keys.ERRORS)] = {
        "selection": {"rows": [1], "columns": [], "cells": []}
    }
    at.run()
    at.button(key=keys.SHARE).click().run()
    assert shared(at)["error"] == {"table": "errors", "row": 1}

    fresh = AppTest.from_file(PAGE, default_timeout=30)
    fresh.query_params["s"] = at.query_params["s"]
    fresh.run()
    assert not fresh.warning
    assert editor(fresh, keys.PAYLOAD).value == text
    assert "Selected error at 17:3" in [c.value for c in fresh.caption]
    assert editor(fresh, keys.PAYLOAD).args()["goto"] == {"line": 17, "col": 3, "nonce": 1}
    fresh.button(key=keys.SHARE).click().run()
    assert shared(fresh) == shared(at)  # the reopened page shares what it shows, the same


def _selected(at):
    """The rows selected in each error table drawn (a table not drawn has no entry)."""
    return {
        key: list(at.session_state[f"{key}__table"]["selection"]["rows"])
        for key in ("errors", "entry_errors")
        if any(d.proto.id.endswith(f"-{key}__table") for d in at.dataframe)
    }


@pytest.mark.parametrize(
    ("error", "selected", "captions"),
    [
        (
            {"table": "errors", "row": 5},  # past the table's end: nothing selected
            {"errors": [5]},
            ["First error (select a row for another) at 3:13"],
        ),
        ({"table": "errors", "row": 1}, {"errors": [1]}, ["Selected error at 17:3"]),
        (
            # LangGraph's own table, in a link made before the one table: nothing selected
            {"table": "entry_errors", "row": 0},
            {"errors": []},
            ["First error (select a row for another) at 3:13"],
        ),
    ],
)
def test_a_link_selects_its_row_in_the_one_table(error, selected, captions):
    fresh = AppTest.from_file(PAGE, default_timeout=30)
    text = to_text({**SEED_PAYLOAD, "amount": -7.25, "coupon": "SHARE"})
    fresh.query_params["s"] = encode_share({"page": "validate", "payload": text, "error": error})
    fresh.run()
    assert not fresh.exception and not fresh.warning
    assert _selected(fresh) == selected
    assert [c.value for c in fresh.caption if "error" in c.value and " at " in c.value] == captions


def test_a_links_row_in_langgraphs_old_table_is_not_selected_later_either():
    text = to_text({**SEED_PAYLOAD, "amount": -7.25})
    fresh = AppTest.from_file(PAGE, default_timeout=30)
    fresh.query_params["s"] = encode_share(
        {"page": "validate", "payload": text, "error": {"table": "entry_errors", "row": 0}}
    )
    fresh.run()
    assert _selected(fresh) == {"errors": []}
    editor(fresh, keys.PAYLOAD).input(to_text({**SEED_PAYLOAD, "amount": -7.25, "coupon": "X"}))
    fresh.run()  # the verdicts now differ: still one table, nothing selected in it
    assert _selected(fresh) == {"errors": []}
    assert "Selected error at 3:13" not in [c.value for c in fresh.caption]
    assert editor(fresh, keys.PAYLOAD).args()["goto"] is None


def test_a_link_error_of_the_wrong_shape_is_refused_by_name_and_the_rest_kept():
    fresh = AppTest.from_file(PAGE, default_timeout=30)
    fresh.query_params["s"] = encode_share(
        {"page": "validate", "payload": "{}", "error": {"table": "lint", "row": -1}}
    )
    fresh.run()
    assert [w.value for w in fresh.warning] == [SHARE_FIELD]
    assert editor(fresh, keys.PAYLOAD).value == "{}"
    assert "First error (select a row for another) at 1:1" in [c.value for c in fresh.caption]
