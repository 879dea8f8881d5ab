"""Probes that run the tool-parameter article's code examples, as written, on installed Pydantic."""

import io
from collections.abc import Callable

from core.probes import article_snippets as snippets
from core.probes._model import ARTICLE_TOOLS, TOOL_PACKAGES, Check, Probe, describe, outcome
from core.warnings_capture import recorded_warnings

__all__ = ["PROBES", "run_snippet"]


def run_snippet(snippet: str, name: str) -> tuple[str, BaseException | None, list[str]]:
    """Execute an article snippet in a fresh namespace; return (printed text, error, warnings).

    `print` is rebound inside the namespace instead of redirecting sys.stdout, so concurrent
    sessions never see each other's output.

    Example:
        >>> run_snippet("print(1 + 1)", "demo")
        ('2\\n', None, [])
    """
    printed = io.StringIO()

    def capture(*args: object, **kwargs: object) -> None:
        kwargs.pop("file", None)
        print(*args, file=printed, **kwargs)  # type: ignore[call-overload,unused-ignore]

    namespace: dict[str, object] = {"__name__": f"article_{name}", "print": capture}
    code = compile(snippet, f"<article {name}>", "exec")
    with recorded_warnings() as caught:
        _, exc = outcome(lambda: exec(code, namespace))
    return printed.getvalue(), exc, [f"{w.category.__name__}: {w.message}" for w in caught]


def _commented_output(snippet: str) -> list[str]:
    # The article shows expected output as a "# ..." line right after each print(...).
    lines = snippet.splitlines()
    return [
        following[2:]
        for line, following in zip(lines, lines[1:], strict=False)
        if line.startswith("print(") and following.startswith("# ")
    ]


def _runs_as_written(name: str, snippet: str) -> Callable[[], list[Check]]:
    def probe() -> list[Check]:
        printed, exc, caught = run_snippet(snippet, name)
        observed = f"fails: {describe(exc)}" if exc else "runs: no exception"
        if caught:
            observed += f"\nwarnings: {caught}"
        checks = [Check("runs as written without an exception", observed, exc is None)]
        expected = _commented_output(snippet)
        if expected:
            checks.append(
                Check(
                    expected="prints what the article's comments show: " + " | ".join(expected),
                    observed="printed: " + " | ".join(printed.splitlines()),
                    matches=printed.splitlines() == expected,
                )
            )
        return checks

    return probe


def _example(name: str, what: str, section: str, snippet: str) -> Probe:
    return Probe(
        id=f"example_{name}_runs",
        claim=f"The article's {what} example runs as written on the installed Pydantic.",
        source=f"{ARTICLE_TOOLS} § {section}",
        run=_runs_as_written(name, snippet),
        snippet=snippet,
        packages=TOOL_PACKAGES,
    )


PROBES = (
    _example(
        "user_basics",
        "User basics (validate, dump)",
        "Part 1: BaseModel basics",
        snippets.USER_BASICS,
    ),
    _example(
        "schema_indent",
        "SimpleParams.model_json_schema(indent=2)",
        "Trap 6: json_schema_extra",
        snippets.SCHEMA_INDENT,
    ),
    _example(
        "validatorinfo",
        "ResizeOperation field_validator (info: field_validator.ValidatorInfo)",
        "Part 5: image-processing tool, ResizeOperation",
        snippets.VALIDATOR_INFO,
    ),
    _example(
        "model_validator_import",
        "ResizeOperation @model_validator (imports as the article lists them)",
        "Part 5: image-processing tool, ResizeOperation",
        snippets.MODEL_VALIDATOR,
    ),
    _example(
        "list_discriminator",
        "DrawingCanvasToolParams (List[Union[...]] with discriminator='type')",
        "Trap 6: complex JSON Schema",
        snippets.LIST_DISCRIMINATOR,
    ),
    _example(
        "color_core_schema",
        "Color.__get_pydantic_core_schema__ (the recommended v2 fix)",
        "Trap 2, solution 1",
        snippets.COLOR_CORE_SCHEMA,
    ),
)
