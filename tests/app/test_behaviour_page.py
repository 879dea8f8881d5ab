"""Behaviour lab page: table, filters, detail view, re-run, timing on demand, exports, share."""

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from core.probes import probe_source, results_to_json, results_to_markdown
from core.probes._model import ARTICLE_TOOLS
from core.share import encode_share
from tests.app.conftest import SHARE_FIELD, downloads, opened, token
from ui import keys
from ui.labs.evidence import evidence_summary, evidence_text
from ui.labs.probe_view import MEANINGS

PAGE = str(Path(__file__).resolve().parents[2] / "views" / "behaviour.py")
TIMEOUT = 60  # the first run imports LangGraph and runs every probe


@pytest.fixture
def page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT).run()
    assert not at.exception
    return at


def _table(at: AppTest):
    # Dataframes are not widgets: AppTest exposes no key for them, so the order is the contract
    # (results table first, the detail view's versions table second).
    return at.dataframe[0].value


def test_table_lists_every_fast_probe_with_its_verdict(page):
    results = page.session_state[keys.PROBE_RESULTS]
    table = _table(page)
    assert list(table.columns) == ["id", "verdict", "claim", "source", "evidence", "seconds"]
    assert table[["id", "verdict", "source", "evidence"]].values.tolist() == [
        [r.id, r.verdict, f"{r.article} § {r.section}", evidence_summary(r)] for r in results
    ]
    assert "basemodel_state_is_slower" not in set(table["id"])


def test_verdict_and_source_filters_narrow_the_table(page):
    results = page.session_state[keys.PROBE_RESULTS]
    page.multiselect(key=keys.VERDICT_FILTER).set_value(["holds"]).run()
    assert _table(page)["id"].tolist() == [r.id for r in results if r.verdict == "holds"]
    page.multiselect(key=keys.SOURCE_FILTER).set_value([ARTICLE_TOOLS]).run()
    assert _table(page)["id"].tolist() == [
        r.id for r in results if r.verdict == "holds" and r.source.startswith(ARTICLE_TOOLS)
    ]


def test_no_match_says_how_to_widen_the_filters(page):
    page.multiselect(key=keys.VERDICT_FILTER).set_value([]).run()
    assert [i.value for i in page.info] == [
        "No probe matches these filters. Widen the verdict or source filter."
    ]
    assert _table(page).empty and not page.selectbox


def test_detail_view_shows_evidence_versions_and_probe_code(page):
    page.selectbox(key=keys.PROBE).set_value("json_schema_takes_indent").run()
    result = {r.id: r for r in page.session_state[keys.PROBE_RESULTS]}["json_schema_takes_indent"]
    assert [c.value for c in page.code] == [
        evidence_text(result),
        probe_source("json_schema_takes_indent"),
    ]
    assert [t.value for t in page.text] == [
        f"Claim: {result.claim}\nSource: {ARTICLE_TOOLS} § Trap 6: json_schema_extra\n"
        "Verdict: differs"
    ]
    assert "model_json_schema() got an unexpected keyword argument 'indent'" in result.evidence
    assert result.verdict == "differs"
    assert MEANINGS["differs"] in [c.value for c in page.caption]
    assert ":red-badge[differs]" in [m.value for m in page.markdown]  # st.badge's own markup
    versions = page.dataframe[1].value
    assert versions.values.tolist() == [[k, v] for k, v in result.versions.items()]


def test_the_probe_panel_names_its_source_in_the_tables_words(page):
    probe = "gate_blocks_invalid_input"  # its section holds a second "§"
    page.selectbox(key=keys.PROBE).set_value(probe).run()
    row = _table(page).set_index("id").loc[probe]
    assert row["source"] == (
        "Pydantic v2 state in LangGraph § 3 invoke lifecycle, step 2; § 7 execution trace"
    )
    lines = [t.value for t in page.text][0].split("\n")
    assert lines[1:] == [f"Source: {row['source']}", f"Verdict: {row['verdict']}"]


def test_rerun_runs_the_probes_again(page):
    before = page.session_state[keys.PROBE_RESULTS]
    page.button(key=keys.RERUN_PROBES).click().run()
    after = page.session_state[keys.PROBE_RESULTS]
    assert after is not before
    assert [(r.id, r.verdict) for r in after] == [(r.id, r.verdict) for r in before]


def test_timing_probe_runs_only_on_demand(page):
    page.button(key=keys.RUN_TIMING).click().run()
    timing = page.session_state[keys.PROBE_TIMING]
    rows = _table(page)
    assert rows["id"].tolist()[-1] == "basemodel_state_is_slower"
    assert rows["verdict"].tolist()[-1] == timing.verdict
    assert "basemodel/typeddict per round: median" in timing.evidence


def test_exports_hold_the_shown_table_as_markdown_and_json(page):
    with downloads() as stored:
        page.multiselect(key=keys.VERDICT_FILTER).set_value(["differs"]).run()
    shown = [r for r in page.session_state[keys.PROBE_RESULTS] if r.verdict == "differs"]
    assert stored == {
        "behaviour-lab.md": results_to_markdown(shown),
        "behaviour-lab.json": results_to_json(shown),
    }
    assert [row["id"] for row in json.loads(stored["behaviour-lab.json"])] == [r.id for r in shown]
    assert [b.key for b in page.download_button] == [keys.EXPORT_MD, keys.EXPORT_JSON]


def test_timing_shows_its_measured_duration_not_a_written_one(page):
    assert page.button(key=keys.RUN_TIMING).label == "Measure state kinds (timing probe)"
    page.button(key=keys.RUN_TIMING).click().run()
    seconds = page.session_state[keys.PROBE_TIMING].seconds

    assert f"The timing probe's last run took {seconds:.2f} s." in [c.value for c in page.caption]


def _view(at: AppTest) -> dict:
    return {
        "verdicts": at.multiselect(key=keys.VERDICT_FILTER).value,
        "sources": at.multiselect(key=keys.SOURCE_FILTER).value,
        "ids": _table(at)["id"].tolist(),
        "probe": at.selectbox(key=keys.PROBE).value,
        "warnings": [w.value for w in at.warning],
    }


TIMING_NOTE = (
    "This link includes the timing probe. It was measured again as the link opened, and "
    "timings vary from run to run, so its numbers and verdict may differ from the shared ones."
)


def test_share_link_reopens_the_filters_the_timing_row_and_the_selected_probe(page):
    page.button(key=keys.RUN_TIMING).click().run()
    measured = page.session_state[keys.PROBE_TIMING].verdict
    filters = ["holds"] if measured == "holds" else ["holds", measured]
    page.multiselect(key=keys.VERDICT_FILTER).set_value(filters).run()
    page.selectbox(key=keys.PROBE).set_value("basemodel_state_is_slower").run()
    page.button(key=keys.SHARE).click().run()
    fresh = opened(PAGE, token(page), timeout=TIMEOUT)

    assert not fresh.exception
    assert [i.value for i in fresh.info] == [TIMING_NOTE]
    again = fresh.session_state[keys.PROBE_TIMING].verdict  # measured again on opening
    expected = _view(page)
    if again not in filters:  # a timing verdict can change between runs: said, not hidden
        expected["ids"].remove("basemodel_state_is_slower")
        expected["probe"] = expected["ids"][0]
        expected["warnings"] = [
            f"The share link selects the timing probe. Measured again now (verdict: {again}), "
            "it is not among the probes the shared filters show: widen the Verdict or Source "
            "article filter to see it."
        ]
    assert _view(fresh) == expected
    assert _view(fresh)["verdicts"] == filters


def test_share_link_reopens_a_narrowed_source_filter_and_probe(page):
    page.multiselect(key=keys.SOURCE_FILTER).set_value([ARTICLE_TOOLS]).run()
    ids = page.selectbox(key=keys.PROBE).options
    page.selectbox(key=keys.PROBE).set_value(ids[-1]).run()
    page.button(key=keys.SHARE).click().run()
    fresh = opened(PAGE, token(page), timeout=TIMEOUT)

    assert not fresh.exception
    assert _view(fresh) == _view(page)
    assert (_view(fresh)["sources"], _view(fresh)["probe"]) == ([ARTICLE_TOOLS], ids[-1])
    assert keys.PROBE_TIMING not in fresh.session_state


def test_a_link_shared_when_the_articles_had_index_paths_opens_them_by_their_titles(page):
    # Before #32 item 8 the articles were named "… (sources/001)"; such links still open.
    state = {"page": "behaviour", "sources": [f"{ARTICLE_TOOLS} (sources/001)"]}
    fresh = opened(PAGE, encode_share(state), timeout=TIMEOUT)

    assert not fresh.exception
    page.multiselect(key=keys.SOURCE_FILTER).set_value([ARTICLE_TOOLS]).run()
    assert _view(fresh) == _view(page)
    assert _view(fresh)["sources"] == ["Serialization traps of LLM tool parameters"]


def test_a_hostile_share_link_drops_each_bad_field_by_name_and_opens_the_defaults(page):
    state = {
        "page": "behaviour",
        "verdicts": "holds",
        "sources": [1, "**x**"],
        "probe": "<img src=x onerror=alert(1)>",
        "timing": "yes",
    }
    at = opened(PAGE, encode_share(state), timeout=TIMEOUT)

    assert not at.exception
    assert _view(at)["warnings"] == [SHARE_FIELD]
    codes = [c.value for c in at.code]
    assert "timing, verdicts, sources, probe" in codes
    assert (
        "timing: Input should be a valid boolean\n"
        "verdicts: Input should be a valid list\n"
        "sources.0: Input should be a valid string\n"
        "probe: Value error, not a probe the filters show"
    ) in codes
    assert _view(at) | {"warnings": []} == _view(page)


def test_a_shared_timing_probe_is_measured_again_and_said_so_even_when_filtered_out():
    state = {"page": "behaviour", "verdicts": ["holds", "differs", "partly", "inconclusive"],
             "sources": [ARTICLE_TOOLS], "timing": True, "probe": "basemodel_state_is_slower"}  # fmt: skip
    fresh = opened(PAGE, encode_share(state), timeout=TIMEOUT)

    assert not fresh.exception
    assert [i.value for i in fresh.info] == [TIMING_NOTE]
    verdict = fresh.session_state[keys.PROBE_TIMING].verdict
    assert [w.value for w in fresh.warning] == [
        f"The share link selects the timing probe. Measured again now (verdict: {verdict}), it "
        "is not among the probes the shared filters show: widen the Verdict or Source article "
        "filter to see it."
    ]


def _ticked(at: AppTest) -> list[int]:
    return list(at.session_state[keys.table(keys.PROBE_TABLE)]["selection"]["rows"])


def _click_row(at: AppTest, row: int) -> AppTest:
    """Tick row `row` of the probe table, as a click on it does in the browser (AppTest
    cannot click a dataframe: tests/e2e/test_labs_e2e.py clicks a cell in Chromium)."""
    at.session_state[keys.table(keys.PROBE_TABLE)] = {"selection": {"rows": [row], "columns": []}}
    return at.run()


def _opened(at: AppTest) -> dict[str, Any]:
    return {
        "box": at.selectbox(key=keys.PROBE).value,
        "detail": [h.value for h in at.subheader],
        "ticked": _ticked(at),
    }


def test_selecting_a_row_opens_its_probe_and_the_probe_box_follows(page: AppTest) -> None:
    ids = _table(page)["id"].tolist()
    assert _opened(page) == {"box": ids[0], "detail": [ids[0]], "ticked": [0]}
    assert "Click a row to open its probe below" in " ".join(c.value for c in page.caption)

    _click_row(page, 3)
    assert not page.exception
    assert _opened(page) == {"box": ids[3], "detail": [ids[3]], "ticked": [3]}
    # The Probe box still opens one, and the table ticks its row.
    page.selectbox(key=keys.PROBE).set_value(ids[1]).run()
    assert _opened(page) == {"box": ids[1], "detail": [ids[1]], "ticked": [1]}
    # Unticking the open row keeps its probe open, ticked.
    page.session_state[keys.table(keys.PROBE_TABLE)] = {"selection": {"rows": [], "columns": []}}
    page.run()
    assert _opened(page) == {"box": ids[1], "detail": [ids[1]], "ticked": [1]}


def test_a_narrower_filter_keeps_the_clicked_probe_open_on_its_new_row(page: AppTest) -> None:
    results = page.session_state[keys.PROBE_RESULTS]
    differs = [r.id for r in results if r.verdict == "differs"]
    _click_row(page, _table(page)["id"].tolist().index(differs[-1]))
    page.multiselect(key=keys.VERDICT_FILTER).set_value(["differs"]).run()
    assert _table(page)["id"].tolist() == differs
    expected = {"box": differs[-1], "detail": [differs[-1]], "ticked": [len(differs) - 1]}
    assert _opened(page) == expected


def test_a_share_link_reopens_the_probe_of_the_row_clicked(page: AppTest) -> None:
    ids = _table(page)["id"].tolist()
    _click_row(page, 5)
    page.button(key=keys.SHARE).click().run()
    fresh = opened(PAGE, token(page), timeout=TIMEOUT)

    assert not fresh.exception
    assert _opened(fresh) == _opened(page) == {"box": ids[5], "detail": [ids[5]], "ticked": [5]}


def test_the_evidence_names_each_checks_outcome_and_writes_paths_as_the_app_does(page):
    # Issue 41, item 3: "[matches] claim predicts: …" in the table, and Pydantic's
    # "items.0.sku" in the evidence where the app writes items[0].sku everywhere else.
    page.selectbox(key=keys.PROBE).set_value("model_config_applies_to_nested").run()
    result = {r.id: r for r in page.session_state[keys.PROBE_RESULTS]}[
        "model_config_applies_to_nested"
    ]
    row = _table(page).set_index("id").loc["model_config_applies_to_nested"]
    assert (row["verdict"], row["evidence"]) == ("differs", "1 check: 1 differs")
    (check,) = result.checks
    assert "\nitems.0.sku\n" in check.observed  # what Pydantic said: kept, its path rewritten
    lines = [
        "items[0].sku" if line == "items.0.sku" else line for line in check.observed.split("\n")
    ]
    observed = ("\n" + " " * 14).join(lines)
    assert [c.value for c in page.code][0] == (
        f"1. Differs\n   predicted: {check.expected}\n   observed:  {observed}"
    )
    shown = [c.value for c in page.code] + [c.value for c in page.caption]
    assert [text for text in shown if "items.0.sku" in text or "[differs]" in text] == []
    said = [c.value for c in page.caption if c.value.startswith("Evidence (observed in ")]
    assert [text.split(": ", 1)[1] for text in said] == ["1 check: 1 differs"]
    # the downloads (results_to_markdown, results_to_json of the shown rows) say it alike
    assert result.evidence == [c.value for c in page.code][0]
    downloads = results_to_markdown([result]) + results_to_json([result])
    marks = ("[matches]", "[differs]", "[unclear]", "items.0.sku")
    assert ([m for m in marks if m in downloads], "items[0].sku" in downloads) == ([], True)
