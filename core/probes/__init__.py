"""Behaviour lab: claims from the source articles, probed live on the installed versions."""

import importlib
import inspect
import textwrap
import time

from core.errors import CodedError, ErrorCode
from core.jsontext.write import dumps
from core.probes._model import (
    OUTCOMES,
    VERDICTS,
    Check,
    Probe,
    ProbeError,
    ProbeResult,
    Verdict,
    describe,
    evidence_of,
    pydantic_paths,
    split_source,
    verdict_of,
    versions_of,
)

__all__ = [
    "FAMILIES",
    "OUTCOMES",
    "VERDICTS",
    "Check",
    "Probe",
    "ProbeResult",
    "UnknownProbeError",
    "Verdict",
    "article_of",
    "evidence_of",
    "probe_source",
    "pydantic_paths",
    "registry",
    "results_to_json",
    "results_to_markdown",
    "run_all",
    "run_probe",
    "split_source",
]

# One module per family; each exposes PROBES. Imported on first use so that importing
# core.probes stays cheap (LangGraph is loaded only when a probe runs).
FAMILIES: tuple[str, ...] = (
    "gate",
    "writes",
    "output",
    "validators",
    "reducers",
    "defaults",
    "config",
    "timing",
    "secret_fields",
    "messages",
    "tool_params",
    "recursion",
    "article_examples",
    "structured_output",
)


class UnknownProbeError(CodedError, KeyError):
    """A probe id that the registry does not hold (code: unknown_probe)."""

    def __init__(self, probe_id: str, known: list[str]) -> None:
        super().__init__(
            ErrorCode.UNKNOWN_PROBE, f"no probe {probe_id!r}; choose one of {', '.join(known)}"
        )


def registry() -> dict[str, Probe]:
    """Every registered probe by id, in family order.

    Example:
        >>> "gate_blocks_invalid_input" in registry()
        True
    """
    probes: dict[str, Probe] = {}
    for family in FAMILIES:
        module = importlib.import_module(f"core.probes.{family}")
        for probe in module.PROBES:
            if probe.id in probes:
                raise ProbeError(ErrorCode.DUPLICATE_PROBE, f"{probe.id!r} is registered twice")
            probes[probe.id] = probe
    return probes


def run_probe(probe_id: str) -> ProbeResult:
    """Run one probe now and compute its verdict from what it observed.

    A probe that crashes is reported, not raised: its verdict is "differs" and the evidence
    starts with [probe_failed], because the installed versions no longer behave the way the
    probe itself assumes.

    Example:
        >>> run_probe("dict_any_accepts_wrong_inner_types").verdict
        'holds'
    """
    probes = registry()
    if probe_id not in probes:
        raise UnknownProbeError(probe_id, list(probes))
    probe = probes[probe_id]
    started = time.perf_counter()
    try:
        checks = tuple(probe.run())
        verdict, evidence = verdict_of(checks), evidence_of(checks)
    except Exception as exc:  # noqa: BLE001 - the lab must keep working when one probe breaks
        checks, verdict = (), "differs"
        evidence = f"[probe_failed] the probe itself raised; fix the probe.\n{describe(exc)}"
    return ProbeResult(
        id=probe.id,
        claim=probe.claim,
        source=probe.source,
        verdict=verdict,
        evidence=evidence,
        versions=versions_of(probe.packages),
        seconds=round(time.perf_counter() - started, 4),
        checks=checks,
    )


def run_all(*, include_on_demand: bool = False) -> list[ProbeResult]:
    """Run every registered probe; on-demand ones (the timing probe) only if asked.

    Example:
        >>> {result.verdict for result in run_all()} <= set(VERDICTS)
        True
    """
    return [
        run_probe(probe.id)
        for probe in registry().values()
        if include_on_demand or not probe.on_demand
    ]


def probe_source(probe_id: str) -> str:
    """The Python source of a probe's function: our own code, which the lab shows as it runs.

    Example:
        >>> probe_source("invoke_returns_dict").startswith("def probe_invoke_returns_dict")
        True
    """
    probes = registry()
    if probe_id not in probes:
        raise UnknownProbeError(probe_id, list(probes))
    return textwrap.dedent(inspect.getsource(probes[probe_id].run)).rstrip("\n")


def article_of(source: str) -> str:
    """The article part of a probe's `source` (what comes before " § ").

    Example:
        >>> article_of("Some article § 3 lifecycle")
        'Some article'
    """
    return split_source(source)[0]


_COLUMNS = ("id", "verdict", "claim", "source", "evidence", "versions")


def results_to_markdown(results: list[ProbeResult]) -> str:
    """A Markdown table of results, ready to paste into an issue (pipes and newlines escaped).

    Example:
        >>> results_to_markdown([]).splitlines()[0]
        '| id | verdict | claim | source | evidence | versions |'
    """

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", "<br>")

    lines = ["| " + " | ".join(_COLUMNS) + " |", "|" + "---|" * len(_COLUMNS)]
    for r in results:
        versions = ", ".join(f"{name} {ver}" for name, ver in r.versions.items())
        row = (r.id, r.verdict, r.claim, r.source, r.evidence, versions)
        lines.append("| " + " | ".join(cell(value) for value in row) + " |")
    return "\n".join(lines) + "\n"


def results_to_json(results: list[ProbeResult]) -> str:
    """Results as a JSON array of objects with the ProbeResult public fields.

    Example:
        >>> results_to_json([])
        '[]'
    """
    rows = [{name: getattr(r, name) for name in _COLUMNS} for r in results]
    return dumps(rows, indent=2)
