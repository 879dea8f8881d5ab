"""A probe's evidence in words: each check's outcome named, not coded, and what Pydantic said
kept whole, with its field paths written as the app writes them (`items[0].sku`); the words
are core.probes' own (`evidence_of`), so the page and its downloads say the same."""

from __future__ import annotations

from collections.abc import Sequence

from core.probes import OUTCOMES, Check, ProbeResult, evidence_of, pydantic_paths
from core.words import count

__all__ = ["OUTCOMES", "evidence_summary", "evidence_text", "pydantic_paths"]

_FAILED = "[probe_failed] "  # the probe itself raised (core.probes.run_probe)


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
    return evidence_of(result.checks)
