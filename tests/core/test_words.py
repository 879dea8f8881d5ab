"""core.words, and the message catalogue read for counts and articles that words should write."""

import ast
import re
from pathlib import Path

import pytest

from core.words import article, count, plural_of

ROOT = Path(__file__).resolve().parents[2]

# Nouns a message counts. A number written straight before one of them reads "1 states" when
# the number is 1: such a message goes through core.words.count.
COUNTED = (
    "bytes calls characters checkpoints digits errors invokes items keys levels members nodes "
    "probes properties refs retries rounds rows states steps threads times turns"
).split()
# "<value> <noun>s", an adjective allowed between ("3 invalid states"); not "items=2" (a log).
_COUNT = re.compile(
    r"^ (?:(?!(?:at|by|for|from|in|of|on|to|with) )[a-z]+ )?(" + "|".join(COUNTED) + r")\b(?!=)"
)
_ARTICLE = re.compile(r"(?:^|\W)an? $")

# Messages in files this change does not own, each to be rewritten with core.words by the
# file's owner: (file name, the value's expression, the noun or "a "). By file name, not path,
# so a module that moves keeps its entry. The test fails when one is fixed and still listed
# here, so the list only shrinks.
KNOWN: set[tuple[str, str, str]] = set()


def _sources() -> list[Path]:
    files = [p for part in ("core", "ui", "views") for p in sorted((ROOT / part).rglob("*.py"))]
    return [*files, ROOT / "app.py"]


def catalogue_offenders() -> set[tuple[str, str, str]]:
    """Every f-string part that counts a noun or picks "a"/"an" before a value it cannot see.

    A constant's count (an UPPER_CASE name, over 1 by design) is fine as it is.
    """
    found = set()
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            for before, after in zip(node.values, node.values[1:], strict=False):
                where = path.name
                if isinstance(before, ast.FormattedValue) and isinstance(after, ast.Constant):
                    counted = _COUNT.match(str(after.value))
                    constant = isinstance(before.value, ast.Name) and before.value.id.isupper()
                    if counted and not constant:
                        found.add((where, ast.unparse(before.value), counted.group(1)))
                if isinstance(before, ast.Constant) and isinstance(after, ast.FormattedValue):
                    if _ARTICLE.search(str(before.value)):
                        found.add((where, ast.unparse(after.value), "a "))
    return found


def test_counts_take_the_noun_form_their_number_needs():
    assert [count(n, "state") for n in (0, 1, 2, 12_000)] == [
        "0 states",
        "1 state",
        "2 states",
        "12,000 states",
    ]
    assert [count(1, "invalid state"), count(2, "invalid state")] == [
        "1 invalid state",
        "2 invalid states",
    ]
    assert [plural_of(n) for n in ("retry", "key", "box", "match", "entry", "person")] == [
        "retries",
        "keys",
        "boxes",
        "matches",
        "entries",
        "people",
    ]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("update", "an update"),
        ("input", "an input"),
        ("loop", "a loop"),
        ("fork", "a fork"),
        ("int", "an int"),
        ("str", "a str"),
        ("user", "a user"),
        ("uuid", "a uuid"),
        ("hour", "an hour"),
        ("one", "a one"),
        ("NoneType", "a NoneType"),
        ("SQL", "an SQL"),
        ("URL", "a URL"),
    ],
)
def test_article_follows_the_sound_of_the_word(word, expected):
    assert article(word) == expected


def test_the_catalogue_counts_and_articles_only_through_core_words():
    found = catalogue_offenders()
    assert sorted(found - KNOWN) == [], "write these with core.words.count / article"
    assert sorted(KNOWN - found) == [], "fixed: remove these from KNOWN"


def test_the_scan_sees_a_bare_count_and_a_guessed_article():
    # The scanner itself on the walk's two sentences, so a test that passes is not blind.
    assert _COUNT.match(" invalid states in ") and _COUNT.match(" threads")
    assert not _COUNT.match(" items=1") and not _COUNT.match(" is")
    assert _ARTICLE.search("None stored: a ") and not _ARTICLE.search("data ")


# The Threads page's own files: its messages count through core.words, never "error(s)".
THREADS_SOURCES = ("ui/threads", "views/threads.py", "core/stores/write")


def _threads_strings() -> list[tuple[str, str]]:
    found = []
    for part in THREADS_SOURCES:
        root = ROOT / part
        for path in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.append((path.name, node.value))
    return found


def test_no_threads_message_leaves_a_plural_to_the_reader():
    strings = _threads_strings()
    assert len(strings) > 500  # the scan reads the files (a moved folder would pass blind)
    assert [(name, text) for name, text in strings if "(s)" in text] == []
