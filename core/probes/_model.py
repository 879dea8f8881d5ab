"""Shapes shared by every probe: the probe, one observed check, the result, and the verdict."""

import dataclasses
import platform
import re
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Literal

from core.errors import CodedError, ErrorCode
from core.jsontext.paths import format_path

__all__ = [
    "ARTICLE_OUTPUT",
    "ARTICLE_STATE",
    "ARTICLE_TOOLS",
    "OUTCOMES",
    "OUTPUT_PACKAGES",
    "STATE_PACKAGES",
    "TOOL_PACKAGES",
    "VERDICTS",
    "Check",
    "Probe",
    "ProbeError",
    "ProbeResult",
    "Verdict",
    "article_probe",
    "describe",
    "evidence_of",
    "outcome",
    "pydantic_paths",
    "split_source",
    "verdict_of",
    "versions_of",
]

Verdict = Literal["holds", "differs", "partly", "inconclusive"]


class ProbeError(CodedError, ValueError):
    """The registry or a probe is built wrong (a developer's error: duplicate_probe, no_checks)."""


VERDICTS: tuple[Verdict, ...] = ("holds", "differs", "partly", "inconclusive")

# The source articles; a probe's `source` starts with one of these, then " § " and a section.
# Titles a reader knows them by: the lab's rows, filter and exports show them as written.
ARTICLE_STATE = "Pydantic v2 state in LangGraph"
ARTICLE_TOOLS = "Serialization traps of LLM tool parameters"
ARTICLE_OUTPUT = "Structured output with PydanticAI"

STATE_PACKAGES: tuple[str, ...] = ("pydantic", "pydantic-core", "langgraph", "langchain-core")
TOOL_PACKAGES: tuple[str, ...] = ("pydantic", "pydantic-core")
OUTPUT_PACKAGES: tuple[str, ...] = ("pydantic", "pydantic-ai-slim")


@dataclasses.dataclass(frozen=True)
class Check:
    """One prediction the claim makes, next to what the probe observed.

    `matches` is None when the observation cannot decide (a timing inside its noise band).
    """

    expected: str
    observed: str
    matches: bool | None


@dataclasses.dataclass(frozen=True)
class Probe:
    """A claim, where it comes from, and the function that tests it against installed code.

    `source` is "<article> § <section>"; `article` and `section` are its two parts.
    """

    id: str
    claim: str
    source: str
    run: Callable[[], list[Check]]
    on_demand: bool = False
    packages: tuple[str, ...] = STATE_PACKAGES

    @property
    def article(self) -> str:
        return split_source(self.source)[0]

    @property
    def section(self) -> str:
        return split_source(self.source)[1]


def split_source(source: str) -> tuple[str, str]:
    """A claim's source as (article, section): the parts before and after the first " § ".

    Example:
        >>> split_source("Serialization traps of LLM tool parameters § Trap 2, solution 1")
        ('Serialization traps of LLM tool parameters', 'Trap 2, solution 1')
        >>> split_source("An article")
        ('An article', '')
    """
    article, _, section = source.partition(" § ")
    return article, section


def article_probe(
    article: str, packages: tuple[str, ...] = STATE_PACKAGES
) -> Callable[[str, str, str, Callable[[], list[Check]]], Probe]:
    """A maker of the probes of one article, run on `packages`: `make(id, claim, section,
    run)` is the Probe whose source is that section of `article`.

    Example:
        >>> make = article_probe(ARTICLE_TOOLS, TOOL_PACKAGES)
        >>> make("p", "a claim", "Trap 1", list).source
        'Serialization traps of LLM tool parameters § Trap 1'
    """

    def make(probe_id: str, claim: str, section: str, run: Callable[[], list[Check]]) -> Probe:
        return Probe(probe_id, claim, f"{article} § {section}", run, packages=packages)

    return make


@dataclasses.dataclass(frozen=True)
class ProbeResult:
    """What one probe observed on the installed versions, and the verdict computed from it."""

    id: str
    claim: str
    source: str
    verdict: Verdict
    evidence: str
    versions: dict[str, str]
    seconds: float = 0.0
    checks: tuple[Check, ...] = ()

    @property
    def article(self) -> str:
        return split_source(self.source)[0]

    @property
    def section(self) -> str:
        return split_source(self.source)[1]


def verdict_of(checks: Sequence[Check]) -> Verdict:
    """Turn checks into a verdict: all match -> holds; some differ and none match -> differs
    (a check that cannot decide does not hide a contradiction); some match and some differ ->
    partly; none differ but some cannot decide -> inconclusive.

    Example:
        >>> verdict_of([Check("x", "x", True), Check("y", "z", False)])
        'partly'
        >>> verdict_of([Check("x", "x", True), Check("y", "noise", None)])
        'inconclusive'
    """
    if not checks:
        raise ProbeError(
            ErrorCode.NO_CHECKS, "a probe returned no checks; it must observe something"
        )
    matched = [check.matches for check in checks]
    if all(m is True for m in matched):
        return "holds"
    if False not in matched:
        return "inconclusive"
    return "partly" if True in matched else "differs"


# A check's outcome (Check.matches) in words: the page, its downloads and the evidence text
# say it the same way.
OUTCOMES = {True: "as claimed", False: "differs", None: "unclear"}
# Pydantic's ValidationError text: "N validation error(s) for Model", then per error its
# location (dotted, at the line's start: "items.0.sku") over its message, indented.
_ERRORS_HEAD = re.compile(r"\b\d+ validation errors? for \S+$")
_LOCATION = re.compile(r"^[^\s].*$")


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


def evidence_of(checks: Sequence[Check]) -> str:
    """Each check in words: its outcome, what the claim predicts, what was observed
    (Pydantic's text kept, its paths as the app writes them, `items[0].sku`).

    Example:
        >>> print(evidence_of([Check("dict", "dict", True)]))
        1. As claimed
           predicted: dict
           observed:  dict
    """
    blocks = []
    for n, check in enumerate(checks, start=1):
        observed = pydantic_paths(check.observed).replace("\n", "\n" + " " * 14)
        blocks.append(
            f"{n}. {OUTCOMES[check.matches].capitalize()}\n"
            f"   predicted: {check.expected}\n"
            f"   observed:  {observed}"
        )
    return "\n\n".join(blocks)


def versions_of(packages: Sequence[str]) -> dict[str, str]:
    """Installed version of each package, plus Python's.

    Example:
        >>> sorted(versions_of(["pydantic"]))
        ['pydantic', 'python']
    """
    found = {"python": platform.python_version()}
    for name in packages:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


def describe(exc: BaseException) -> str:
    """`Type: message` of an exception, with any notes.

    Example:
        >>> describe(ValueError("bad"))
        'ValueError: bad'
    """
    text = f"{type(exc).__name__}: {exc}"
    for note in getattr(exc, "__notes__", ()):
        text += f"\nnote: {note}"
    return text


def outcome(action: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    """Run `action`; return `(value, None)` or `(None, exception)` so probes can compare both.

    Example:
        >>> outcome(lambda: 1 / 0)[1].__class__.__name__
        'ZeroDivisionError'
    """
    try:
        return action(), None
    except Exception as exc:  # noqa: BLE001 - a probe observes any failure; it never decides which to expect
        return None, exc
