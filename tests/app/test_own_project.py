"""Your own model and graph under AppTest: configured by flag, playground.toml or environment."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.jsontext.payload import json_writable
from core.order.presets import PRESETS, SEED_TEXT
from core.trace.diagram import CURRENT_FILL
from tests.app._editor import editor
from tests.app.conftest import options_open
from ui import keys
from ui.text import plain
from ui.validate.form_edits import typed

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
VALIDATE, TRACE, APP = (str(ROOT / p) for p in ("views/validate.py", "views/trace.py", "app.py"))
PROJECTS = {
    "shop": ("shop.state:ShopState", "shop.graph:builder"),
    "typed": (None, "typed_state.graph:make_graph"),
    "plain": (None, "typed_state.graph:make_plain_graph"),
    "input": (None, "typed_state.graph:make_pydantic_graph"),
    "reducer": (None, "custom_reducer.graph:graph"),
    "chat": (None, "chat.graph:builder"),
}
# Each fixture through a different way; every way is used (tests/core covers all nine).
ROTATION = [("shop", "flag"), ("typed", "toml"), ("reducer", "env")]
OPEN = "LangGraph runs this payload. Your model alone accepts it too."


def configure(monkeypatch, tmp_path, way: str, model: str | None, graph: str | None) -> None:
    monkeypatch.delenv("PLAYGROUND_MODEL", raising=False)
    monkeypatch.delenv("PLAYGROUND_GRAPH", raising=False)
    monkeypatch.setattr(sys, "argv", ["app.py"])
    entries = {"model": model, "graph": graph}
    if way == "flag":
        flags = [part for name, spec in entries.items() if spec for part in (f"--{name}", spec)]
        monkeypatch.setattr(sys, "argv", ["app.py", *flags])
        monkeypatch.chdir(FIXTURES)
    elif way == "toml":
        lines = [f'{name} = "{spec}"' for name, spec in entries.items() if spec]
        (tmp_path / "playground.toml").write_text("[playground]\n" + "\n".join(lines) + "\n")
        monkeypatch.syspath_prepend(str(FIXTURES))
        monkeypatch.chdir(tmp_path)
    else:
        for name, spec in entries.items():
            if spec:
                monkeypatch.setenv(f"PLAYGROUND_{name.upper()}", spec)
        monkeypatch.chdir(FIXTURES)


@pytest.fixture
def project(monkeypatch, tmp_path):
    def use(name: str, way: str = "env") -> None:
        configure(monkeypatch, tmp_path, way, *PROJECTS[name])

    return use


def _open(page: str, *, form: bool = False) -> AppTest:
    at = AppTest.from_file(page, default_timeout=30)
    if form:  # the Form tab computes its widgets only while it is the open tab
        at.session_state[keys.EDITOR_VIEW] = "Form"
    return at.run()


def _banners(at):
    said = [w.value for w in at.warning if w.value.startswith("LangGraph ")]
    return [e.value for e in at.error] + said + [s.value for s in at.success]


def _error_rows(at):
    frames = [d.value for d in at.dataframe if "pointer" in d.value.columns]
    return frames[0][["path", "type"]].values.tolist()


def _payload(at):
    return json.loads(editor(at, keys.PAYLOAD).value)


@pytest.mark.parametrize(("name", "way"), ROTATION)
def test_validate_page_uses_your_model_and_its_examples(project, name, way):
    project(name, way)
    at = _open(VALIDATE)

    assert not at.exception
    assert _banners(at) == [OPEN]
    assert at.radio(key=keys.VALIDATE_MODEL).value == "project"
    expected = (
        ["Example 1 — from TagState's examples", "Example 2 — from TagState's examples"]
        if name == "reducer"
        else ["Generated example — built from the JSON Schema"]
    )
    assert at.selectbox(key=keys.PRESET).options == expected
    assert "Schema options apply to the seed order model only; your model is used as written." in [
        c.value for c in at.caption
    ]
    assert [t.key for t in at.toggle] == []  # the seed model's schema options are hidden


def test_nested_form_field_edits_rewrite_the_json(project):
    project("shop")
    at = _open(VALIDATE, form=True)

    at.text_input(key="form_customer-address-postcode").input("12").run()
    assert _payload(at)["customer"]["address"]["postcode"] == "12"
    assert _error_rows(at) == [["customer.address.postcode", "string_pattern_mismatch"]]

    at.selectbox(key="form_priority").select("high").run()
    at.text_input(key="form_coupon").input("").run()
    payload = _payload(at)
    assert (payload["priority"], "coupon" in payload) == ("high", False)
    assert at.selectbox(key="form_customer-tier").options == ["basic", "gold", "(unset)"]


def test_json_edits_refresh_the_generated_form(project):
    project("shop")
    at = _open(VALIDATE, form=True)
    payload = _payload(at) | {"priority": "urgent", "placed_on": "2024-02-30"}
    editor(at, keys.PAYLOAD).input(json.dumps(payload)).run()

    assert at.selectbox(key="form_priority").value == "urgent"
    assert at.text_input(key="form_placed_on").value == "2024-02-30"
    assert _error_rows(at) == [
        ["placed_on", "date_from_datetime_parsing"],
        ["priority", "literal_error"],
    ]


def test_model_examples_are_the_preset_gallery(project):
    project("reducer")
    at = _open(VALIDATE)
    at.selectbox(key=keys.PRESET).select("example_2").run()

    assert _payload(at) == {"tags": [], "text": "hi"}
    assert _error_rows(at) == [["text", "string_too_short"]]


def test_a_graph_with_an_input_schema_starts_from_an_example_of_its_input(project):
    project("input")
    at = _open(VALIDATE)

    assert _payload(at) == {"title": "example", "severity": "low", "tags": ["example"]}
    assert at.selectbox(key=keys.PRESET).options == [
        "Generated example — built from the JSON Schema"
    ]
    assert _banners(at) == [OPEN]  # the state Ticket accepts its input's example too


def test_the_seed_order_stays_one_click_away(project):
    project("shop")
    at = _open(VALIDATE)
    at.radio(key=keys.VALIDATE_MODEL).set_value("seed").run()
    at.button(key=keys.part(keys.PAYLOAD, "reset")).click().run()

    assert at.selectbox(key=keys.PRESET).options == [
        f"{p.title} — {p.summary}" for p in PRESETS.values()
    ]
    assert editor(at, keys.PAYLOAD).value == SEED_TEXT
    assert _banners(at) == [OPEN]
    assert options_open(at).toggle(key=keys.option("strict")).value is False


def test_typeddict_state_says_what_is_checked(project):
    project("typed")
    at = _open(VALIDATE)

    assert [i.value for i in at.info] == [
        "What is checked here: your graph's state is not a Pydantic model."
    ]
    assert [c.value for c in at.code][:2] == [
        "typed_state.graph:TicketIn",
        "[state_not_pydantic] the graph's state TicketState is a TypedDict: LangGraph validates "
        "nothing between nodes. The gate and the per-step checks validate TicketIn's fields only.",
    ]


TRACES = {
    "shop": [(0, "__start__", "✓"), (1, "price", "✓"), (2, "ship", "✓")],
    "typed": [(0, "__start__", "✓"), (1, "triage", "✓")],
    "reducer": [(0, "__start__", "✓"), (1, "tag_mood", "✓"), (1, "tag_topic", "✓"), (2, "summarise", "✓")],
}  # fmt: skip


@pytest.mark.parametrize(("name", "way"), ROTATION)
def test_trace_page_runs_your_graph(project, name, way):
    project(name, way)
    at = _open(TRACE)
    assert at.radio(key=keys.TRACE_GRAPH).options == [
        "Your graph", "Seed order graph", "Fan-out graph (parallel notifiers)"
    ]  # fmt: skip
    assert at.multiselect(key=keys.TRACE_FAULTS).proto.disabled
    at.button(key=keys.RUN).click().run()

    assert not at.exception
    table = at.dataframe[0].value
    assert list(table[["step", "node", "check"]].itertuples(index=False, name=None)) == TRACES[name]
    assert [s.value for s in at.success] == ["LangGraph finished the run without raising."]


@pytest.mark.parametrize(
    ("payload", "banner", "why"),
    [
        (
            '["configurable"]',  # quotes the word a config hint looks for
            plain(
                "LangGraph stopped at step 0 in __start__ [input_not_object]: "
                "InvalidUpdateError: Expected dict, got ['configurable']."
            ),
            "LangGraph takes the graph's input as a dict of state keys and got another JSON "
            "value; send a JSON object.",
        ),
        (  # None is LangGraph's "resume": a fresh run has nothing to resume from
            "null",
            plain(
                "LangGraph stopped at step 0 [input_not_object]: EmptyInputError: Received no "
                "input for __start__."
            ),
            "LangGraph takes the graph's input as a dict of state keys and got another JSON "
            "value; send a JSON object.",
        ),
    ],
)
def test_a_graph_with_no_model_shows_langgraph_refusing_a_non_object(project, payload, banner, why):
    project("plain")
    at = _open(TRACE)
    at.session_state[keys.PAYLOAD_TEXT] = payload
    at.button(key=keys.RUN).click().run()

    assert not at.exception
    # With a row (LangGraph's own input task, never merged) the row's detail says so too.
    rows = at.session_state[keys.TRACE_RESULT]["trace"].steps
    unmerged = ["LangGraph never merged this step: it raised."] if rows else []
    assert [e.value for e in at.error] == [banner, *unmerged]
    assert why in [c.value for c in at.caption]
    assert not [i.value for i in at.info if "config" in i.value]


def test_trace_draws_the_conditional_branch_taken(project):
    project("shop")
    at = _open(TRACE)
    payload = json.loads(at.session_state[keys.PAYLOAD_TEXT])
    payload["lines"] = [{"sku": "KET-001", "qty": 5, "price": "30.00"}]
    at.session_state[keys.PAYLOAD_TEXT] = json.dumps(payload)
    at.button(key=keys.RUN).click().run()
    at.select_slider(key=keys.STEP_SLIDER).set_value(2).run()

    assert list(at.dataframe[0].value["node"]) == [
        "__start__", "price", "review"
    ]  # fmt: skip
    dot = at.get("graphviz_chart")[0].proto.spec
    assert '  "price" -> "review" [style=dashed];' in dot.splitlines()
    assert [line.split(" [")[0].strip() for line in dot.splitlines() if CURRENT_FILL in line] == [
        '"review"'
    ]


def test_custom_reducer_merges_are_shown_by_name(project):
    project("reducer")
    at = _open(TRACE)
    at.button(key=keys.RUN).click().run()
    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()

    merge = [d.value for d in at.dataframe if "reducer" in d.value.columns][0]
    assert merge.to_dict("records") == [
        {
            "field": "tags",
            "before": '["support"]',
            "update": '["refund"]',
            "reducer": "custom_reducer.graph.union_tags",
            "after": '["kettle", "refund", "support"]',
            "why": "merged in super-step 1 with the write of tag_topic",  # both ran in step 1
        }
    ]


@pytest.mark.parametrize("way", ["flag", "toml", "env"])
def test_sidebar_says_what_is_loaded_and_from_where(project, way):
    project("shop", way)
    at = _open(APP)
    source = {"flag": "flag", "toml": "playground.toml", "env": "environment"}[way]

    assert not at.exception
    assert at.sidebar.code[0].value.splitlines() == [
        "model", "  shop.state:ShopState", f"  from {source}",
        "graph", "  shop.graph:builder", f"  from {source}",
    ]  # fmt: skip
    assert [e.value for e in at.sidebar.error] == []


def test_sidebar_names_the_candidate_model_and_a_candidate_that_fails_is_a_caveat(
    project, monkeypatch
):
    project("shop", "env")
    monkeypatch.setenv("PLAYGROUND_CANDIDATE", "candidates.order_v2:OrderV2")
    at = _open(APP)
    assert at.sidebar.code[0].value.splitlines()[-3:] == [
        "candidate", "  candidates.order_v2:OrderV2", "  from environment",
    ]  # fmt: skip
    monkeypatch.setenv("PLAYGROUND_CANDIDATE", "candidates.order_v2:not_a_model")
    at = _open(APP)
    assert [e.value for e in at.sidebar.error] == []  # the project itself loaded
    assert [w.value for w in at.sidebar.warning] == ["Loaded, with caveats:"]
    assert at.sidebar.code[1].value == (
        "[not_a_model] candidate 'candidates.order_v2:not_a_model' is a dict value, not a "
        "Pydantic BaseModel subclass; point --candidate at a class that subclasses "
        "pydantic.BaseModel."
    )


def test_a_broken_project_shows_its_error_and_the_seed_order_still_works(monkeypatch, tmp_path):
    configure(monkeypatch, tmp_path, "env", "broken.raises:State", "broken.kinds:settings")
    at = _open(APP)

    assert [e.value for e in at.sidebar.error] == [
        "The configured project did not load; the seed order is used instead."
    ]
    assert [c.value for c in at.sidebar.code] == [
        "model\n  core.order:AgentState\n  requested broken.raises:State\n  from environment\n"
        "graph\n  seed order graphs\n  requested broken.kinds:settings\n  from environment",
        "[module_import_failed] model module 'broken.raises' raised RuntimeError on import: "
        "DATABASE_URL is not set. Fix the module so that importing it succeeds.",
    ]
    assert [e.value for e in at.main.error] + [s.value for s in at.main.success] == [OPEN]
    at.switch_page("views/trace.py").run()
    assert at.radio(key=keys.TRACE_GRAPH).options == [
        "Seed order graph", "Fan-out graph (parallel notifiers)"
    ]  # fmt: skip
    at.button(key=keys.RUN).click().run()
    table = at.main.dataframe[0].value
    assert list(table["node"]) == ["__start__", "validate_order", "confirm"]


TRAPS = """
from pydantic import BaseModel, ConfigDict, Field


class Inner(BaseModel):
    model_config = ConfigDict(title="Inner [link](http://x) *t*")
    b: str = "nested"


class Row(BaseModel):
    model_config = ConfigDict(title="Row_**x**")
    c: str = "r"


class Traps(BaseModel):
    a__b: str = "flat"
    a: Inner = Inner()
    odd: str = Field("", alias="**bold** <b>x</b>\\n# heading")
    rows: list[Row] = [Row()]
"""


@pytest.fixture
def traps(monkeypatch, tmp_path):
    (tmp_path / "form_traps.py").write_text(TRAPS)
    monkeypatch.syspath_prepend(str(tmp_path))
    configure(monkeypatch, tmp_path, "env", "form_traps:Traps", None)
    at = _open(VALIDATE, form=True)
    assert not at.exception
    return at


def test_plain_escapes_every_markdown_special_and_collapses_newlines():
    specials = "\\`*_{}[]()#+-.!|<>$~&"
    assert plain(f"a{specials}:z") == "a" + "".join("\\" + c for c in specials) + "\\:\u2060z"
    assert plain("one\r\n\n  two\nthree") == "one two three"
    assert plain("plain words, digits 42 and 中文") == "plain words, digits 42 and 中文"
    # An escaped colon still let Chromium draw :material/…:, :material_…: and :streamlit:
    # icons; a WORD JOINER after every colon stops them (and the :emoji: and :red[…] ones).
    joined = plain(":rocket: a&lt;b :red[x] :material/warning: :material_home: :streamlit:")
    assert joined == (
        "\\:\u2060rocket\\:\u2060 a\\&lt;b \\:\u2060red\\[x\\] \\:\u2060material/warning\\:\u2060 "
        "\\:\u2060material\\_home\\:\u2060 \\:\u2060streamlit\\:\u2060"
    )


def test_form_keys_follow_field_paths_and_a_double_underscore_name_never_collides(traps):
    assert [w.key for w in traps.text_input if not w.key.startswith("form-cell-")] == [
        "form_a__b",
        "form_a-b",
        "form_%2A%2Abold%2A%2A%20%3Cb%3Ex%3C%2Fb%3E%0A%23%20heading",
    ]
    traps.text_input(key="form_a__b").input("flat edit").run()
    traps.text_input(key="form_a-b").input("nested edit").run()

    assert not traps.exception
    assert {k: v for k, v in _payload(traps).items() if k.startswith("a")} == {
        "a__b": "flat edit",
        "a": {"b": "nested edit"},
    }


def test_names_aliases_and_titles_reach_labels_and_captions_escaped(traps):
    assert [w.label for w in traps.text_input if not w.key.startswith("form-cell-")] == [
        "a__b (optional)",  # an input's own label is its accessible name: plain words
        "b (optional)",
        "**bold** <b>x</b> # heading (optional)",
    ]
    captions = [c.value for c in traps.caption]
    shown = [
        r"a\_\_b (optional)",
        "b (optional)",
        r"\*\*bold\*\* \<b\>x\</b\> \# heading (optional)",
    ]
    assert [c for c in captions if c in shown] == shown  # the labels shown, escaped
    assert "a (optional): nested model Inner \\[link\\]\\(http\\:\u2060//x\\) \\*t\\*" in captions
    assert (
        r"rows (optional): a list of Row\_\*\*x\*\*, one row each; type a new one on the last "
        "line, empty every cell of a row to drop it"
    ) in captions


def test_the_table_editor_keeps_its_cells_until_the_json_changes_them(traps):
    # The grid's cells are filled from the JSON's rows, and again only when the JSON holds
    # other rows (issue 22, finding 1; issue 41, item 8): other edits and reruns keep them.
    def table(at):
        cells = [w.value for w in at.text_input if w.key.startswith("form-cell-rows-")]
        return cells, at.session_state[keys.FORM_TABLES]

    first = (["r", ""], {"form_rows": [{"c": "r"}]})
    assert table(traps) == first
    traps.run()
    traps.text_input(key="form_a__b").input("changed").run()
    assert table(traps) == first

    editor(traps, keys.PAYLOAD).input('{"rows": [{"c": "s"}, {"c": "t"}]}').run()
    assert table(traps) == (["s", "t", ""], {"form_rows": [{"c": "s"}, {"c": "t"}]})


def test_form_edits_holding_a_number_json_cannot_write_are_refused():
    texts = ["2", "1e999", "[1, 1e999]", '{"a": {"b": NaN}}', "x", "Infinity"]
    assert [json_writable(typed(text, "json")) for text in texts] == [
        True, False, False, False, True, False
    ]  # fmt: skip
    assert typed("1e999", "text") == "1e999"  # a text field keeps what was typed


def test_a_refused_form_edit_keeps_the_json_text_and_names_the_field(project):
    project("shop")
    at = _open(VALIDATE, form=True)
    before = editor(at, keys.PAYLOAD).value
    at.text_input(key="form_customer-address-postcode").input("12").run()
    edited = editor(at, keys.PAYLOAD).value
    assert edited != before
    at.text_input(key="form_total").input("1e999").run()
    assert editor(at, keys.PAYLOAD).value == edited
    assert [w.value for w in at.warning] == [
        "That number is beyond what a float holds: JSON would get Infinity or NaN, which is not "
        "standard JSON. The edit was not applied; type a smaller number."
    ]
    assert [c.value for c in at.code if "1e999" in c.value] == ["total = 1e999"]


def test_a_message_state_without_defaults_runs_in_langgraph_with_role_style_messages(project):
    project("chat")
    at = _open(VALIDATE)
    assert _banners(at) == [OPEN]  # the generated example: one human message, empty docs
    assert _payload(at)["messages"] == [{"type": "human", "content": "Hello"}]

    editor(at, keys.PAYLOAD).input(
        '{"topic": "refunds", "messages": [{"role": "user", "content": "hi"}]}'
    ).run()
    assert _banners(at) == [
        "LangGraph runs this payload: it rewrites 1 field with its reducers before the first "
        "node starts. Your model alone rejects it: 2 errors, listed below."
    ]
    assert [c.value for c in at.code if c.value.startswith("first node")] == [
        "first node: reply\nrewritten by a reducer before validation: messages"
    ]
    assert _error_rows(at) == [["messages[0]", "validator_exception"], ["docs", "missing"]]


def test_a_graph_whose_input_schema_langgraph_never_validates_runs_what_it_rejects(project):
    project("input")
    at = _open(VALIDATE)
    editor(at, keys.PAYLOAD).input('{"title": "ab", "severity": "urgent", "queue": 1}').run()
    # TicketIn only names the input's channels; the node reads a TypedDict: nothing validates.
    assert _banners(at) == [
        "LangGraph runs this payload: it drops 1 unknown key before the first node starts. "
        "Your model alone rejects it: 2 errors, listed below."
    ]
    assert [c.value for c in at.code if c.value.startswith("first node")] == [
        "first node: triage\ndropped by LangGraph (no input channel): queue"
    ]
    assert _error_rows(at) == [["title", "string_too_short"], ["severity", "literal_error"]]


def test_trace_gates_with_the_input_schema_and_runs_anyway_what_langgraph_runs(project):
    project("input")
    at = _open(TRACE)
    at.session_state[keys.PAYLOAD_TEXT] = '{"title": "ab", "severity": "low"}'
    at.button(key=keys.RUN).click().run()
    assert not at.exception
    gate = at.dataframe[0].value  # TicketIn's rule: the state Ticket has no min_length
    assert gate[["path", "line:col", "type"]].values.tolist() == [
        ["title", "1:11", "string_too_short"]
    ]
    at.button(key=keys.RUN_ANYWAY).click().run()
    assert not at.exception
    nodes = [row for row in at.dataframe if "node" in row.value.columns][0].value["node"]
    assert nodes.tolist() == ["__start__", "triage"]
