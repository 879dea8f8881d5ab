"""The interface speaks English: no CJK text in the app's source, outside labelled Unicode cases.

The seed order, the demo store, the labs' models, scripts and probes were once written with the
source articles' Chinese strings (`下单`, `# 实例化与校验`); they are ours now, in English.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# CJK punctuation, kana, ideographs (with extension A), Hangul, full-width forms.
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]")

# Deliberate Unicode test cases, by file and the exact line: each shows that text outside
# ASCII passes through unchanged, which needs text outside ASCII. Nothing else is exempt.
UNICODE_CASES = {
    # reindent keeps a string's escapes as written: `\u4e0b` must not become the ideograph.
    (
        "core/jsontext/json_format.py",
        r"decimals would lose digits, `\\u4e0b` would become `下`, and of a key written twice only",
    ),
    # dumps writes non-ASCII as itself (ensure_ascii=False), shown by its doctest.
    ("core/jsontext/write.py", '>>> dumps({"loc": ("订单",)})'),
    ("core/jsontext/write.py", """'{"loc": ["订单"]}'"""),
}


def _sources() -> list[Path]:
    python = [p for part in ("core", "ui", "views") for p in sorted((ROOT / part).rglob("*.py"))]
    editor = sorted((ROOT / "frontend" / "json_editor" / "src").rglob("*.*"))
    return [*python, ROOT / "app.py", *editor]


def cjk_lines() -> set[tuple[str, str]]:
    """Every (file, stripped line) of the interface's source that holds CJK text."""
    return {
        (path.relative_to(ROOT).as_posix(), line.strip())
        for path in _sources()
        for line in path.read_text(encoding="utf-8").splitlines()
        if CJK.search(line)
    }


def test_the_interface_source_is_english_outside_labelled_unicode_cases():
    assert sorted(cjk_lines() - UNICODE_CASES) == []


def test_each_labelled_unicode_case_is_still_there():
    # A case that is gone (or reworded) leaves the list: it exempts nothing it does not name.
    assert sorted(UNICODE_CASES - cjk_lines()) == []


def test_the_pattern_sees_ideographs_punctuation_kana_and_hangul():
    assert [bool(CJK.search(s)) for s in ("下单", "。", "カ", "한", "ＡＢ", "café", "ü")] == [
        True,
        True,
        True,
        True,
        True,
        False,
        False,
    ]
