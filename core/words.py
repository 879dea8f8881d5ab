"""Counted nouns and indefinite articles, so messages read "1 state" and "an update"."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["article", "count", "joined", "plural_of"]

# Nouns whose plural no suffix rule gives.
_IRREGULAR = {"child": "children", "person": "people", "index": "indexes", "schema": "schemas"}
# Words that start with a vowel letter but a consonant sound ("a user"), and the reverse.
_CONSONANT_SOUND = ("eu", "one", "once", "uni", "usa", "use", "usu", "uti", "uuid", "uri", "url")
_VOWEL_SOUND = ("heir", "honest", "honour", "hour")


def plural_of(noun: str) -> str:
    """The plural of an English noun, by the usual suffix rules.

    Example:
        >>> [plural_of(n) for n in ("state", "entry", "class", "key", "child")]
        ['states', 'entries', 'classes', 'keys', 'children']
    """
    if noun in _IRREGULAR:
        return _IRREGULAR[noun]
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return noun[:-1] + "ies"
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    return noun + "s"


def count(n: int, noun: str, many: str | None = None) -> str:
    """`n` and the noun in the form that number takes; `many` overrides the plural.

    Example:
        >>> count(1, "state"), count(0, "thread"), count(2, "retry")
        ('1 state', '0 threads', '2 retries')
        >>> count(1_500, "checkpoint"), count(3, "invalid state")
        ('1,500 checkpoints', '3 invalid states')
        >>> count(2, "datum", many="data")
        '2 data'
    """
    if n == 1:
        return f"1 {noun}"
    if many is None:
        head, _, last = noun.rpartition(" ")
        many = f"{head} {plural_of(last)}" if head else plural_of(last)
    return f"{n:,} {many}"


def article(word: str) -> str:
    """`word` after the indefinite article its sound takes: "an update", "a user".

    Letters are read as written; an all-capital word is read letter by letter ("an SQL").

    Example:
        >>> [article(w) for w in ("update", "fork", "input", "user", "hour", "int", "SQL")]
        ['an update', 'a fork', 'an input', 'a user', 'an hour', 'an int', 'an SQL']
        >>> [article(n) for n in ("8,000-character", "11", "18-step", "110", "80", "1,100", "7")]
        ['an 8,000-character', 'an 11', 'an 18-step', 'a 110', 'an 80', 'a 1,100', 'a 7']
    """
    lower = word.lower()
    digits = word.split(" ")[0].split("-")[0].replace(",", "")
    if digits.isdigit():  # read aloud by its leading group: eight, eleven, eighteen
        group = digits[: len(digits) % 3 or 3]
        vowel = group.startswith("8") or group in ("11", "18")
    elif word[:1].isupper() and word.isupper() and len(word) > 1:
        vowel = word[0] in "AEFHILMNORSX"  # letters whose names start with a vowel sound
    elif lower.startswith(_VOWEL_SOUND):
        vowel = True
    elif lower.startswith(_CONSONANT_SOUND):
        vowel = False
    else:
        vowel = lower[:1] in ("a", "e", "i", "o", "u")
    return f"{'an' if vowel else 'a'} {word}"


def joined(words: Sequence[str], last: str = "and") -> str:
    """`words` in a list as a sentence writes it: commas, then `last` before the final one.

    Example:
        >>> joined(["default", "drop", "map"], "or"), joined(["a", "b"]), joined(["a"])
        ('default, drop or map', 'a and b', 'a')
    """
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"
