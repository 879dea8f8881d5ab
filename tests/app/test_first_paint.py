"""The Validate page's frame: when the first paint applies, that the page drawn after it is
whole, and the editor's width while a text is typed.

The browser side (the editor painted before the verdict, and kept) is in
tests/e2e/test_first_paint_e2e.py; a cold process cannot be had inside this one.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.project.load import CANDIDATE_ENV, CONFIG_FILE, GRAPH_ENV, MODEL_ENV, is_configured
from ui import keys

ROOT = Path(__file__).resolve().parents[2]


def test_only_a_configured_project_turns_the_first_paint_off(tmp_path: Path) -> None:
    (tmp_path / "with").mkdir()
    (tmp_path / "with" / CONFIG_FILE).write_text('[playground]\nmodel = "shop.state:ShopState"\n')
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / CONFIG_FILE).write_text("[playground]\n")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / CONFIG_FILE).write_text("[playground\n")
    cases = {
        "nothing": ([], {}, tmp_path),
        "streamlit's own flags": (["--server.port", "8501"], {}, tmp_path),
        "--model X": (["--model", "shop.state:ShopState"], {}, tmp_path),
        "--graph=X": (["--graph=shop.graph:builder"], {}, tmp_path),
        "--candidate X": (["--candidate", "shop.state:ShopState"], {}, tmp_path),
        "model env": ([], {MODEL_ENV: "shop.state:ShopState"}, tmp_path),
        "graph env": ([], {GRAPH_ENV: "shop.graph:builder"}, tmp_path),
        "candidate env": ([], {CANDIDATE_ENV: "shop.state:ShopState"}, tmp_path),
        "empty env": ([], {MODEL_ENV: ""}, tmp_path),
        "playground.toml": ([], {}, tmp_path / "with"),
        "playground.toml naming nothing": ([], {}, tmp_path / "empty"),
        "unreadable playground.toml": ([], {}, tmp_path / "broken"),
    }
    assert {name: is_configured(*case) for name, case in cases.items()} == {
        "nothing": False,
        "streamlit's own flags": False,
        "--model X": True,
        "--graph=X": True,
        "--candidate X": True,
        "model env": True,
        "graph env": True,
        "candidate env": True,
        "empty env": False,
        "playground.toml": True,
        "playground.toml naming nothing": False,
        "unreadable playground.toml": True,  # loading it says why
    }


def test_the_first_paint_reruns_into_the_whole_page() -> None:
    at = AppTest.from_file(str(ROOT / "views" / "validate.py"), default_timeout=60)
    at.session_state[keys.FIRST_PAINT] = True  # as app.py sets it on a cold server
    at.run()
    assert not at.exception
    assert keys.FIRST_PAINT not in at.session_state  # the frame dropped it, then reran
    assert [t.value for t in at.title] == ["Validate"]
    assert [c.value for c in at.caption if c.value.startswith("No errors:")] == [
        "No errors: your model and LangGraph's entry both accept this payload."
    ]
    assert [c.value for c in at.caption if c.value.startswith("Loading")] == []
