"""A probe's evidence in words: each check's outcome named, not coded, and what Pydantic said
kept whole, with its field paths written as the app writes them (`items[0].sku`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.jsontext.paths import format_path
from core.probes import Check, ProbeResult
from core.words import count

__all__ = ["OUTCOMES", "evidence_summary", "evidence_text", "pydantic_paths"]

# A check's outcome (Check.matches) in the words the page uses, where the probes' own text
# (and its downloads) mark it "[matches]", "[differs]" or "[unclear]".
OUTCOMES = {True: "as claimed", False: "differs", None: "unclear"}
# Pydantic's ValidationError text: "N validation error(s) for Model", then per error its
# location (dotted, at the line's start: "items.0.sku") over its message, indented.
_ERRORS_HEAD = re.compile(r"\b\d+ validation errors? for \S+$")
_LOCATION = re.compile(r"^[^\s].*$")
_FAILED = "[probe_failed] "  # the probe itself raised (core.probes.run_probe)


def pydantic_paths(text: str) -> str:
    """`text` with each field location of a Pydantic ValidationError in it written through
    `format_path` (Pydantic's "items.0.sku" as "items[0].sku"); all else as it was.

    Example:
        >>> print(pydantic_paths("1 validation error for M\\nitems.0.sku\\n  Bad [type=x]"))
        1 validation error for M
        items[0].sku
          Bad [type=x]
    """
    lines = text.split("\n")
    inside = False
    for n, line in enumerate(lines):
        if _ERRORS_HEAD.search(line):
            inside = True
            continue
        following = lines[n + 1] if n + 1 < len(lines) else ""
        if inside and _LOCATION.match(line) and following.startswith("  "):
            segments = [int(part) if part.isdigit() else part for part in line.split(".")]
            lines[n] = format_path(segments)
        elif inside and not line.startswith(" "):
            inside = False  # a line of the probe's own after the errors ("note: …")
    return "\n".join(lines)


def _tally(checks: Sequence[Check]) -> str:
    said = [(word, sum(c.matches is key for c in checks)) for key, word in OUTCOMES.items()]
    # "1 differs", "2 differ": the one outcome that is a verb agrees with its count
    return ", ".join(
        f"{n} {'differ' if word == 'differs' and n != 1 else word}" for word, n in said if n
    )


def evidence_summary(result: ProbeResult) -> str:
    """The table's evidence cell: how many checks the probe made and how they came out.

    Example:
        >>> from core.probes import ProbeResult
        >>> from core.probes._model import Check
        >>> checks = (Check("a", "a", True), Check("b", "c", False), Check("d", "d", True))
        >>> evidence_summary(ProbeResult("p", "c", "s", "partly", "", {}, 0.0, checks))
        '3 checks: 2 as claimed, 1 differs'
        >>> two = (Check("b", "c", False), Check("d", "e", False))
        >>> evidence_summary(ProbeResult("p", "c", "s", "differs", "", {}, 0.0, two))
        '2 checks: 2 differ'
    """
    if not result.checks:
        return "The probe itself failed: see its evidence below."
    return f"{count(len(result.checks), 'check')}: {_tally(result.checks)}"


def evidence_text(result: ProbeResult) -> str:
    """Each check of `result` in words: its outcome, what the claim predicts, what was
    observed (Pydantic's text kept, its paths as the app writes them)."""
    if not result.checks:
        failed = result.evidence.removeprefix(_FAILED)
        return pydantic_paths(failed[:1].upper() + failed[1:])
    blocks = []
    for n, check in enumerate(result.checks, start=1):
        observed = pydantic_paths(check.observed).replace("\n", "\n" + " " * 14)
        blocks.append(
            f"{n}. {OUTCOMES[check.matches].capitalize()}\n"
            f"   predicted: {check.expected}\n"
            f"   observed:  {observed}"
        )
    return "\n\n".join(blocks)
